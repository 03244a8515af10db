use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use crate::{Datetime, EncodeError, RawValue};

/// The sink that [`Encode`] types write into: every quarry writer implements it.
///
/// Containers are bracketed by `begin_*`/`end_*`; inside a map, every value is
/// preceded by [`Encoder::key`]. The writer tracks separators and indentation itself.
pub trait Encoder {
    /// Writes a null.
    fn null(&mut self) -> Result<(), EncodeError>;
    /// Writes a boolean.
    fn bool(&mut self, v: bool) -> Result<(), EncodeError>;
    /// Writes a signed integer.
    fn i64(&mut self, v: i64) -> Result<(), EncodeError>;
    /// Writes an unsigned integer.
    fn u64(&mut self, v: u64) -> Result<(), EncodeError>;
    /// Writes a float; formats without NaN or infinities refuse them.
    fn f64(&mut self, v: f64) -> Result<(), EncodeError>;
    /// Writes a number kept as text (see [`RawValue::BigNumber`]).
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError>;
    /// Writes a string.
    fn str(&mut self, v: &str) -> Result<(), EncodeError>;
    /// Writes untyped text (see [`RawValue::Text`]); a string by default.
    fn text(&mut self, v: &str) -> Result<(), EncodeError> {
        self.str(v)
    }
    /// Writes binary data; formats without a binary type write base64 text.
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError>;
    /// Writes a datetime; formats without one write RFC 3339 text.
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError>;
    /// Opens a sequence of `len` items, when known.
    fn begin_seq(&mut self, len: Option<usize>) -> Result<(), EncodeError>;
    /// Closes the innermost sequence.
    fn end_seq(&mut self) -> Result<(), EncodeError>;
    /// Opens a map of `len` entries, when known.
    fn begin_map(&mut self, len: Option<usize>) -> Result<(), EncodeError>;
    /// Writes the key of the next map entry.
    fn key(&mut self, key: &str) -> Result<(), EncodeError>;
    /// Writes a key fixed at compile time that holds no `"`, `\` or control character
    /// (derived types call it for their field names), so a writer may copy it without
    /// escaping. The default is [`Encoder::key`].
    #[inline]
    fn plain_key(&mut self, key: &'static str) -> Result<(), EncodeError> {
        self.key(key)
    }
    /// Closes the innermost map.
    fn end_map(&mut self) -> Result<(), EncodeError>;
}

/// A type that can be written to every quarry format.
pub trait Encode {
    /// Writes `self` into `encoder`.
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError>;

    /// Builds an owned [`RawValue`] from `self` (used by conversions and by writers
    /// that need to look ahead, like TOML's).
    fn to_raw_value(&self) -> Result<RawValue<'static>, EncodeError> {
        let mut encoder = RawValueEncoder::default();
        self.encode(&mut encoder)?;
        encoder.finish()
    }

    /// `Some(self)` when `self` already is a [`RawValue`] (the default is `None`): a writer
    /// that needs one to look ahead reads it in place instead of copying it (see
    /// [`raw_value_of`]).
    fn as_raw_value(&self) -> Option<&RawValue<'_>> {
        None
    }
}

/// `value` as a [`RawValue`]: itself when it is one, else built by [`Encode::to_raw_value`].
pub fn raw_value_of<T: Encode + ?Sized>(
    value: &T,
) -> Result<std::borrow::Cow<'_, RawValue<'_>>, EncodeError> {
    match value.as_raw_value() {
        Some(raw) => Ok(std::borrow::Cow::Borrowed(raw)),
        None => value.to_raw_value().map(std::borrow::Cow::Owned),
    }
}

/// A type whose values can be map keys when encoding (keys are text in every format).
pub trait EncodeKey {
    /// Passes the key's text to `f`.
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R;
}

impl EncodeKey for str {
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self)
    }
}

impl EncodeKey for String {
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self)
    }
}

impl EncodeKey for Cow<'_, str> {
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self)
    }
}

impl<K: EncodeKey + ?Sized> EncodeKey for &K {
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        (**self).with_key(f)
    }
}

impl EncodeKey for char {
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.encode_utf8(&mut [0; 4]))
    }
}

impl EncodeKey for bool {
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(if *self { "true" } else { "false" })
    }
}

macro_rules! encode_integer {
    ($method:ident as $wide:ty: $($ty:ty),*) => {$(
        impl Encode for $ty {
            fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
                encoder.$method(*self as $wide)
            }
        }

        impl EncodeKey for $ty {
            fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
                f(itoa::Buffer::new().format(*self))
            }
        }
    )*};
}

encode_integer!(i64 as i64: i8, i16, i32, i64, isize);
encode_integer!(u64 as u64: u8, u16, u32, u64, usize);

impl Encode for i128 {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        match (i64::try_from(*self), u64::try_from(*self)) {
            (Ok(i), _) => encoder.i64(i),
            (_, Ok(u)) => encoder.u64(u),
            _ => encoder.big_number(&self.to_string()),
        }
    }
}

impl Encode for u128 {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        match u64::try_from(*self) {
            Ok(u) => encoder.u64(u),
            Err(_) => encoder.big_number(&self.to_string()),
        }
    }
}

impl Encode for f64 {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.f64(*self)
    }
}

impl Encode for f32 {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        // Through the shortest decimal of the f32, so 0.1f32 writes as 0.1, not 0.10000000149011612.
        let widened = self.to_string().parse::<f64>().unwrap_or(f64::from(*self));
        encoder.f64(widened)
    }
}

impl Encode for bool {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.bool(*self)
    }
}

impl Encode for char {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.str(self.encode_utf8(&mut [0; 4]))
    }
}

impl Encode for str {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.str(self)
    }
}

impl Encode for String {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.str(self)
    }
}

impl Encode for Cow<'_, str> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.str(self)
    }
}

impl Encode for std::path::Path {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        match self.to_str() {
            Some(s) => encoder.str(s),
            None => Err(EncodeError::custom("path is not valid UTF-8")),
        }
    }
}

impl Encode for std::path::PathBuf {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        self.as_path().encode(encoder)
    }
}

impl Encode for () {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.null()
    }
}

impl Encode for Datetime {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.datetime(self)
    }
}

impl<T: Encode + ?Sized> Encode for &T {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        (**self).encode(encoder)
    }

    fn to_raw_value(&self) -> Result<RawValue<'static>, EncodeError> {
        (**self).to_raw_value()
    }

    fn as_raw_value(&self) -> Option<&RawValue<'_>> {
        (**self).as_raw_value()
    }
}

impl<T: Encode + ?Sized> Encode for Box<T> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        (**self).encode(encoder)
    }

    fn to_raw_value(&self) -> Result<RawValue<'static>, EncodeError> {
        (**self).to_raw_value()
    }

    fn as_raw_value(&self) -> Option<&RawValue<'_>> {
        (**self).as_raw_value()
    }
}

impl<T: Encode> Encode for Option<T> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        match self {
            Some(v) => v.encode(encoder),
            None => encoder.null(),
        }
    }
}

fn encode_seq<'t, T, E>(
    items: impl ExactSizeIterator<Item = &'t T>,
    encoder: &mut E,
) -> Result<(), EncodeError>
where
    T: Encode + 't,
    E: Encoder + ?Sized,
{
    encoder.begin_seq(Some(items.len()))?;
    for (i, item) in items.enumerate() {
        item.encode(encoder).map_err(|e| e.at_index(i))?;
    }
    encoder.end_seq()
}

impl<T: Encode> Encode for [T] {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encode_seq(self.iter(), encoder)
    }
}

impl<T: Encode, const N: usize> Encode for [T; N] {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encode_seq(self.iter(), encoder)
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encode_seq(self.iter(), encoder)
    }
}

macro_rules! encode_tuple {
    ($len:literal => $($name:ident $index:tt),+) => {
        impl<$($name: Encode),+> Encode for ($($name,)+) {
            fn encode<EN: Encoder + ?Sized>(&self, encoder: &mut EN) -> Result<(), EncodeError> {
                encoder.begin_seq(Some($len))?;
                $(self.$index.encode(encoder).map_err(|e| e.at_index($index))?;)+
                encoder.end_seq()
            }
        }
    };
}

encode_tuple!(1 => A 0);
encode_tuple!(2 => A 0, B 1);
encode_tuple!(3 => A 0, B 1, C 2);
encode_tuple!(4 => A 0, B 1, C 2, D 3);
encode_tuple!(5 => A 0, B 1, C 2, D 3, E 4);
encode_tuple!(6 => A 0, B 1, C 2, D 3, E 4, F 5);
encode_tuple!(7 => A 0, B 1, C 2, D 3, E 4, F 5, G 6);
encode_tuple!(8 => A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

fn encode_map<'t, K, V, E>(
    entries: impl ExactSizeIterator<Item = (&'t K, &'t V)>,
    encoder: &mut E,
) -> Result<(), EncodeError>
where
    K: EncodeKey + 't + ?Sized,
    V: Encode + 't,
    E: Encoder + ?Sized,
{
    encoder.begin_map(Some(entries.len()))?;
    for (key, value) in entries {
        key.with_key(|k| {
            encoder.key(k)?;
            value.encode(encoder).map_err(|e| e.at_key(k))
        })?;
    }
    encoder.end_map()
}

impl<K: EncodeKey, V: Encode, S> Encode for HashMap<K, V, S> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encode_map(self.iter(), encoder)
    }
}

impl<K: EncodeKey, V: Encode> Encode for BTreeMap<K, V> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encode_map(self.iter(), encoder)
    }
}

impl Encode for RawValue<'_> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        match self {
            RawValue::Null => encoder.null(),
            RawValue::Bool(b) => encoder.bool(*b),
            RawValue::Int(i) => encoder.i64(*i),
            RawValue::UInt(u) => encoder.u64(*u),
            RawValue::Float(f) => encoder.f64(*f),
            RawValue::BigNumber(s) => encoder.big_number(s),
            RawValue::String(s) => encoder.str(s),
            RawValue::Text(s) => encoder.text(s),
            RawValue::Bytes(b) => encoder.bytes(b),
            RawValue::Datetime(d) => encoder.datetime(d),
            RawValue::Seq(items) => encode_seq(items.iter(), encoder),
            RawValue::Map(entries) => encode_map(entries.iter().map(|(k, v)| (k, v)), encoder),
        }
    }

    fn to_raw_value(&self) -> Result<RawValue<'static>, EncodeError> {
        Ok(self.clone().into_owned())
    }

    fn as_raw_value(&self) -> Option<&RawValue<'_>> {
        Some(self)
    }
}

/// An [`Encoder`] that builds an owned [`RawValue`].
#[derive(Debug, Default)]
pub struct RawValueEncoder {
    /// Open containers: a sequence, or a map with its entries and the pending key.
    stack: Vec<Frame>,
    result: Option<RawValue<'static>>,
}

#[derive(Debug)]
enum Frame {
    Seq(Vec<RawValue<'static>>),
    Map(Vec<(Cow<'static, str>, RawValue<'static>)>, Option<String>),
}

impl RawValueEncoder {
    /// The finished value; an error if nothing or an unbalanced sequence of events was written.
    pub fn finish(self) -> Result<RawValue<'static>, EncodeError> {
        match (self.stack.is_empty(), self.result) {
            (true, Some(v)) => Ok(v),
            _ => Err(EncodeError::custom(
                "incomplete value: unbalanced begin/end events",
            )),
        }
    }

    fn push(&mut self, value: RawValue<'static>) -> Result<(), EncodeError> {
        match self.stack.last_mut() {
            None if self.result.is_none() => {
                self.result = Some(value);
                Ok(())
            }
            None => Err(EncodeError::custom("a second top-level value")),
            Some(Frame::Seq(items)) => {
                items.push(value);
                Ok(())
            }
            Some(Frame::Map(entries, key)) => match key.take() {
                Some(k) => {
                    entries.push((Cow::Owned(k), value));
                    Ok(())
                }
                None => Err(EncodeError::custom("a map value without a key")),
            },
        }
    }
}

impl Encoder for RawValueEncoder {
    fn null(&mut self) -> Result<(), EncodeError> {
        self.push(RawValue::Null)
    }
    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.push(RawValue::Bool(v))
    }
    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.push(RawValue::Int(v))
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.push(RawValue::from(v))
    }
    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        self.push(RawValue::Float(v))
    }
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        self.push(RawValue::BigNumber(Cow::Owned(text.to_owned())))
    }
    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.push(RawValue::String(Cow::Owned(v.to_owned())))
    }
    fn text(&mut self, v: &str) -> Result<(), EncodeError> {
        self.push(RawValue::Text(Cow::Owned(v.to_owned())))
    }
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        self.push(RawValue::Bytes(Cow::Owned(v.to_vec())))
    }
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        self.push(RawValue::Datetime(*v))
    }
    fn begin_seq(&mut self, len: Option<usize>) -> Result<(), EncodeError> {
        self.stack
            .push(Frame::Seq(Vec::with_capacity(len.unwrap_or(0))));
        Ok(())
    }
    fn end_seq(&mut self) -> Result<(), EncodeError> {
        match self.stack.pop() {
            Some(Frame::Seq(items)) => self.push(RawValue::Seq(items)),
            _ => Err(EncodeError::custom("end_seq without begin_seq")),
        }
    }
    fn begin_map(&mut self, len: Option<usize>) -> Result<(), EncodeError> {
        self.stack
            .push(Frame::Map(Vec::with_capacity(len.unwrap_or(0)), None));
        Ok(())
    }
    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        match self.stack.last_mut() {
            Some(Frame::Map(_, pending)) => {
                *pending = Some(key.to_owned());
                Ok(())
            }
            _ => Err(EncodeError::custom("a key outside a map")),
        }
    }
    fn end_map(&mut self) -> Result<(), EncodeError> {
        match self.stack.pop() {
            Some(Frame::Map(entries, None)) => self.push(RawValue::Map(entries)),
            _ => Err(EncodeError::custom(
                "end_map without begin_map, or a key without a value",
            )),
        }
    }
}

/// Writes a value's map entries into the map its parent already opened: what
/// `#[quarry(flatten)]` and internally tagged newtype variants need. The flattened
/// value must be a map.
pub struct FlattenEncoder<'e, E: ?Sized> {
    inner: &'e mut E,
    depth: usize,
}

impl<'e, E: Encoder + ?Sized> FlattenEncoder<'e, E> {
    /// Wraps the parent's encoder.
    pub fn new(inner: &'e mut E) -> Self {
        FlattenEncoder { inner, depth: 0 }
    }

    fn top_level(&self, what: &str) -> Result<(), EncodeError> {
        if self.depth == 0 {
            return Err(EncodeError::custom(format!(
                "only a map can be flattened, not {what}"
            )));
        }
        Ok(())
    }
}

impl<E: Encoder + ?Sized> Encoder for FlattenEncoder<'_, E> {
    fn null(&mut self) -> Result<(), EncodeError> {
        self.top_level("null")?;
        self.inner.null()
    }
    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.top_level("a boolean")?;
        self.inner.bool(v)
    }
    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.top_level("an integer")?;
        self.inner.i64(v)
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.top_level("an integer")?;
        self.inner.u64(v)
    }
    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        self.top_level("a float")?;
        self.inner.f64(v)
    }
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        self.top_level("a number")?;
        self.inner.big_number(text)
    }
    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.top_level("a string")?;
        self.inner.str(v)
    }
    fn text(&mut self, v: &str) -> Result<(), EncodeError> {
        self.top_level("text")?;
        self.inner.text(v)
    }
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        self.top_level("bytes")?;
        self.inner.bytes(v)
    }
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        self.top_level("a datetime")?;
        self.inner.datetime(v)
    }
    fn begin_seq(&mut self, len: Option<usize>) -> Result<(), EncodeError> {
        self.top_level("a sequence")?;
        self.depth += 1;
        self.inner.begin_seq(len)
    }
    fn end_seq(&mut self) -> Result<(), EncodeError> {
        self.depth -= 1;
        self.inner.end_seq()
    }
    fn begin_map(&mut self, len: Option<usize>) -> Result<(), EncodeError> {
        self.depth += 1;
        if self.depth == 1 {
            return Ok(());
        }
        self.inner.begin_map(len)
    }
    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        self.inner.key(key)
    }
    fn end_map(&mut self) -> Result<(), EncodeError> {
        self.depth -= 1;
        if self.depth == 0 {
            return Ok(());
        }
        self.inner.end_map()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_types_encode_to_raw_values() {
        let mut map = BTreeMap::new();
        map.insert(3u8, vec![Some(1.5f64), None]);
        let raw = map.to_raw_value().unwrap();
        assert_eq!(
            raw,
            RawValue::Map(vec![(
                Cow::Borrowed("3"),
                RawValue::Seq(vec![RawValue::Float(1.5), RawValue::Null])
            )])
        );
        assert_eq!(u64::MAX.to_raw_value().unwrap(), RawValue::UInt(u64::MAX));
        assert_eq!(7u64.to_raw_value().unwrap(), RawValue::Int(7));
        assert_eq!(
            (u128::from(u64::MAX) + 1).to_raw_value().unwrap(),
            RawValue::BigNumber("18446744073709551616".into())
        );
        assert_eq!(0.1f32.to_raw_value().unwrap(), RawValue::Float(0.1));
        assert_eq!(
            ("a", true).to_raw_value().unwrap(),
            RawValue::Seq(vec!["a".into(), true.into()])
        );
    }

    #[test]
    fn raw_value_encodes_to_itself() {
        let value = RawValue::Map(vec![
            (Cow::Borrowed("t"), RawValue::Text("x".into())),
            (
                Cow::Borrowed("b"),
                RawValue::Bytes(Cow::Borrowed(b"\x00\xff")),
            ),
            (Cow::Borrowed("k"), RawValue::Map(vec![])),
        ]);
        assert_eq!(value.to_raw_value().unwrap(), value);
        let mut encoder = RawValueEncoder::default();
        value.encode(&mut encoder).unwrap();
        assert_eq!(encoder.finish().unwrap(), value);
    }

    #[test]
    fn unbalanced_events_are_errors() {
        let mut encoder = RawValueEncoder::default();
        encoder.begin_seq(None).unwrap();
        assert!(encoder.finish().is_err());
        let mut encoder = RawValueEncoder::default();
        assert!(encoder.end_map().is_err());
    }
}
