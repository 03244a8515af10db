use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use crate::pull::{cow_into_string, Fallback, PullSource, TextRef, ValueKind};
use crate::shape::Shape;
use crate::{DecodeErrorKind, DecodeErrors, RawValue};

/// A type that can be built from a [`RawValue`], and so from every quarry format.
///
/// Decoding consumes the value: owned strings move into `String` fields without a copy,
/// and borrowed ones can be kept as `&'de str` or `Cow<'de, str>`.
/// Errors accumulate: a collection or struct decodes every element and reports all
/// failures, each with its path.
pub trait Decode<'de>: Sized {
    /// Builds `Self` from `value`.
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors>;

    /// Builds `Self` from `value` under `options`: what the value's format cannot mark
    /// (see [`DecodeOptions`]). The default ignores them and calls
    /// [`decode`](Decode::decode); a type that holds other decoded values (std's
    /// containers, derived types) passes them on to each, so implement this too in a
    /// wrapper of your own.
    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        let _ = options;
        Self::decode(value)
    }

    /// The value to use when a struct field of this type is absent from the input;
    /// `None` means the field is required. `Option<T>` answers `Some(None)`.
    fn missing() -> Option<Self> {
        None
    }

    /// [`missing`](Decode::missing) under `options`: under XML's rule for sequences a
    /// `Vec` answers an empty one. The default ignores them.
    fn missing_with_options(options: DecodeOptions) -> Option<Self> {
        let _ = options;
        Self::missing()
    }

    /// Decodes `Self` straight from a format's bytes through a [`PullSource`] (the direct
    /// path: JSON, TOML, YAML, XML and binary plists). The default reads the
    /// value as a [`RawValue`] and decodes that; std types and derived types read the
    /// bytes directly. On [`Fallback`], the caller decodes through [`RawValue`] instead,
    /// so an implementation may give up whenever it likes, but must never succeed with
    /// a value that [`Decode::decode`] would not produce.
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        let raw = source.read_raw()?;
        Self::decode_with_options(raw, source.decode_options().unplaced()).map_err(|_| Fallback)
    }

    /// What `Self` accepts, as data (see [`Shape`]). Derived types describe their
    /// fields; std types describe themselves; the default is [`Shape::Any`].
    fn shape() -> Shape {
        Shape::Any
    }

    /// Whether a value that a [`PullSource`] of typed values peeks as `kind` could
    /// decode as `Self`: `false` only when [`decode`](Decode::decode) rejects every such
    /// value, in every format. (A [`ValueKind::String`] is then a string; a source that
    /// may hand out untyped text, without [`PullSource::TYPED_STRINGS`], does not ask
    /// about its strings.) An untagged enum's direct path reads the first variant that
    /// may accept the kind it peeks, instead of building a [`RawValue`] to try each in
    /// turn.
    ///
    /// `depth` bounds the look through wrappers (`Option`, `Box`, `Vec`, newtypes), which
    /// a recursive type would otherwise follow forever: at 0 the answer is `true`. The
    /// default is `true`.
    #[inline]
    fn may_accept(kind: ValueKind, depth: u32) -> bool {
        let _ = (kind, depth);
        true
    }

    /// [`may_accept`](Decode::may_accept) under `options` (the source's
    /// [`PullSource::decode_options`]): under XML's rule for sequences a `Vec` may
    /// accept whatever one item may. The default ignores them.
    #[inline]
    fn may_accept_with_options(kind: ValueKind, depth: u32, options: DecodeOptions) -> bool {
        let _ = options;
        Self::may_accept(kind, depth)
    }
}

/// How a decode reads what the document's format cannot mark. XML cannot tell a single
/// child element from a list of one, nor a missing list from an empty one, so its
/// documents decode under [`DecodeOptions::XML`]; JSON, YAML, TOML and plists mark their
/// sequences and decode under [`DecodeOptions::STRICT`] (the default).
///
/// The RawValue path takes them as an argument ([`Decode::decode_with_options`]); the
/// direct path from its source ([`PullSource::decode_options`]: XML's `DirectSource`
/// answers [`DecodeOptions::XML`]).
///
/// ```
/// use quarry_raw_value::{Decode, DecodeOptions, RawValue};
///
/// let one = || RawValue::Text("80".into());
/// assert!(Vec::<u16>::decode(one()).is_err());
/// assert_eq!(Vec::<u16>::decode_with_options(one(), DecodeOptions::XML).unwrap(), [80]);
/// assert_eq!(Vec::<u16>::missing_with_options(DecodeOptions::XML), Some(vec![]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DecodeOptions {
    xml_sequences: bool,
    unplaced: bool,
}

impl DecodeOptions {
    /// A sequence is a sequence, and a `Vec` field is required: JSON, YAML, TOML and
    /// plists.
    pub const STRICT: DecodeOptions = DecodeOptions {
        xml_sequences: false,
        unplaced: false,
    };

    /// XML's rule for sequences: a `Vec<T>` takes a single value (one child element) as
    /// a one-element sequence, and an absent field as empty.
    pub const XML: DecodeOptions = DecodeOptions {
        xml_sequences: true,
        unplaced: false,
    };

    /// Whether XML's rule for sequences applies.
    #[inline]
    pub const fn xml_sequences(self) -> bool {
        self.xml_sequences
    }

    /// These options for a value a direct attempt read with [`PullSource::read_raw`]
    /// ([`Decode::decode_direct`]'s default): nothing in it is marked with its place, so
    /// a type that keeps its place (the facade's `Spanned<T>`) fails, and the attempt
    /// falls back to the RawValue path, which places it.
    #[inline]
    pub const fn unplaced(self) -> DecodeOptions {
        DecodeOptions {
            unplaced: true,
            ..self
        }
    }

    /// Whether the value was read with [`PullSource::read_raw`] in a direct attempt (see
    /// [`DecodeOptions::unplaced`]).
    #[inline]
    pub const fn is_unplaced(self) -> bool {
        self.unplaced
    }
}

/// A type that map keys (always text in the input) decode into.
pub trait DecodeKey<'de>: Sized {
    /// Builds the key from its text.
    fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors>;

    /// Builds the key of a map entry read through `RawValue`, given the entry's value
    /// and the options the value is decoded under. A key that keeps its place (the
    /// facade's `Spanned<K>`) takes the place the facade put on the value and leaves the
    /// value as the document gave it; the default is [`DecodeKey::decode_key`].
    #[inline]
    fn decode_entry_key(
        key: Cow<'de, str>,
        value: &mut RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        let _ = (value, options);
        Self::decode_key(key)
    }

    /// Builds a key read by a direct path ([`PullSource::next_key`]); a key that needs
    /// more than its text (its place) falls back. The default is
    /// [`DecodeKey::decode_key`].
    #[inline]
    fn decode_key_direct(key: Cow<'de, str>) -> Result<Self, Fallback> {
        Self::decode_key(key).map_err(|_| Fallback)
    }

    /// The shape of a map with keys of this type and values of shape `value`:
    /// [`Shape::Map`], or [`Shape::SpannedKeyMap`] for keys that keep their place.
    fn map_shape(value: crate::shape::ShapeOf) -> Shape {
        Shape::Map(value)
    }
}

/// A short description of a value for error messages: `string "http"`, `300`, `map`.
pub fn describe(value: &RawValue<'_>) -> String {
    fn quote(s: &str) -> String {
        const MAX: usize = 40;
        match s.char_indices().nth(MAX) {
            Some((cut, _)) => format!("{:?}…", &s[..cut]),
            None => format!("{s:?}"),
        }
    }
    match value {
        RawValue::Null => "null".into(),
        RawValue::Bool(b) => format!("boolean `{b}`"),
        RawValue::Int(i) => i.to_string(),
        RawValue::UInt(u) => u.to_string(),
        RawValue::Float(f) => format!("{f:?}"),
        RawValue::BigNumber(s) => s.to_string(),
        RawValue::String(s) => format!("string {}", quote(s)),
        RawValue::Text(s) => format!("text {}", quote(s)),
        RawValue::Bytes(b) => format!("{} bytes", b.len()),
        RawValue::Datetime(d) => format!("datetime {d}"),
        RawValue::Seq(items) => format!("sequence of {}", items.len()),
        RawValue::Map(_) => "map".into(),
    }
}

impl<'de> Decode<'de> for RawValue<'de> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Ok(value)
    }
}

impl<'de> Decode<'de> for () {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::Null => Ok(()),
            other => Err(DecodeErrors::invalid_type("null", &other)),
        }
    }

    fn shape() -> Shape {
        Shape::Null
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::Null
    }
}

impl<'de> Decode<'de> for bool {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::Bool(b) => Ok(b),
            RawValue::Text(ref t) if t.trim() == "true" => Ok(true),
            RawValue::Text(ref t) if t.trim() == "false" => Ok(false),
            other => Err(DecodeErrors::invalid_type("boolean", &other)),
        }
    }

    #[inline]
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        source.read_bool()
    }

    fn shape() -> Shape {
        Shape::Bool
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::Bool
    }
}

#[cold]
fn out_of_range(expected: String, value: &RawValue<'_>) -> DecodeErrors {
    DecodeErrors::new(DecodeErrorKind::InvalidValue {
        expected,
        found: describe(value),
    })
}

macro_rules! decode_integer {
    ($($ty:ty),*) => {$(
        impl<'de> Decode<'de> for $ty {
            fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
                let fitted = match &value {
                    RawValue::Int(i) => <$ty>::try_from(*i).ok(),
                    RawValue::UInt(u) => <$ty>::try_from(*u).ok(),
                    RawValue::BigNumber(_) => None,
                    RawValue::Text(t) => match parse_integer_text(t) {
                        Some(TextInteger::Signed(i)) => <$ty>::try_from(i).ok(),
                        Some(TextInteger::Unsigned(u)) => <$ty>::try_from(u).ok(),
                        Some(TextInteger::Overflow) => None,
                        None => return Err(DecodeErrors::invalid_type("integer", &value)),
                    },
                    _ => return Err(DecodeErrors::invalid_type("integer", &value)),
                };
                fitted.ok_or_else(|| {
                    out_of_range(format!("integer in {}..={}", <$ty>::MIN, <$ty>::MAX), &value)
                })
            }

            #[inline]
            fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
                // Unsigned targets read u64, signed ones i64: one primitive each, no RawValue.
                if <$ty>::MIN == 0 as $ty {
                    <$ty>::try_from(source.read_u64()?).map_err(|_| Fallback)
                } else {
                    <$ty>::try_from(source.read_i64()?).map_err(|_| Fallback)
                }
            }

            fn shape() -> Shape {
                Shape::integer(<$ty>::MIN, <$ty>::MAX)
            }

            #[inline]
            fn may_accept(kind: ValueKind, _depth: u32) -> bool {
                kind == ValueKind::Number
            }
        }

        impl<'de> DecodeKey<'de> for $ty {
            fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors> {
                <$ty>::decode(RawValue::Text(key))
            }
        }
    )*};
}

decode_integer!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// An integer read from untyped text.
enum TextInteger {
    Signed(i128),
    Unsigned(u128),
    /// Integer syntax, but too large even for 128 bits.
    Overflow,
}

/// Parses untyped text (XML, map keys) as an integer; `None` when it is not integer syntax.
fn parse_integer_text(text: &str) -> Option<TextInteger> {
    let text = text.trim();
    // The common case first: 64-bit parsing is much cheaper than 128-bit.
    if let Ok(i) = text.parse::<i64>() {
        return Some(TextInteger::Signed(i128::from(i)));
    }
    if let Ok(i) = text.parse::<i128>() {
        return Some(TextInteger::Signed(i));
    }
    if let Ok(u) = text.parse::<u128>() {
        return Some(TextInteger::Unsigned(u));
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then_some(TextInteger::Overflow)
}

macro_rules! decode_float {
    ($ty:ty, |$source:ident| $direct:expr) => {
        impl<'de> Decode<'de> for $ty {
            fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
                match value {
                    RawValue::Float(f) => Ok(f as $ty),
                    RawValue::Int(i) => Ok(i as $ty),
                    RawValue::UInt(u) => Ok(u as $ty),
                    RawValue::BigNumber(ref s) => s
                        .parse::<$ty>()
                        .map_err(|_| DecodeErrors::invalid_type("float", &value)),
                    RawValue::Text(ref t) => t
                        .trim()
                        .parse::<$ty>()
                        .map_err(|_| DecodeErrors::invalid_type("float", &value)),
                    other => Err(DecodeErrors::invalid_type("float", &other)),
                }
            }

            #[inline]
            fn decode_direct<S: PullSource<'de> + ?Sized>(
                $source: &mut S,
            ) -> Result<Self, Fallback> {
                $direct
            }

            fn shape() -> Shape {
                Shape::Float
            }

            #[inline]
            fn may_accept(kind: ValueKind, _depth: u32) -> bool {
                kind == ValueKind::Number
            }
        }
    };
}

// An `f32` is read from text as an `f32` (rounding an `f64` again could differ).
decode_float!(f32, |source| match source.read_number()? {
    RawValue::Float(f) => Ok(f as f32),
    RawValue::Int(i) => Ok(i as f32),
    RawValue::UInt(u) => Ok(u as f32),
    big => Self::decode(big).map_err(|_| Fallback),
});
decode_float!(f64, |source| source.read_f64());

impl<'de> Decode<'de> for String {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::String(s) | RawValue::Text(s) => Ok(s.into_owned()),
            // TOML and plist datetimes read as their RFC 3339 text.
            RawValue::Datetime(d) => Ok(d.to_string()),
            other => Err(DecodeErrors::invalid_type("string", &other)),
        }
    }

    #[inline]
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        source.read_string()
    }

    fn shape() -> Shape {
        Shape::String
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::String
    }
}

impl<'de> Decode<'de> for Cow<'de, str> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::String(s) | RawValue::Text(s) => Ok(s),
            other => Err(DecodeErrors::invalid_type("string", &other)),
        }
    }

    #[inline]
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        source.read_cow()
    }

    fn shape() -> Shape {
        Shape::String
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::String
    }
}

impl<'de> Decode<'de> for &'de str {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::String(Cow::Borrowed(s)) | RawValue::Text(Cow::Borrowed(s)) => Ok(s),
            other @ (RawValue::String(_) | RawValue::Text(_)) => Err(DecodeErrors::invalid_type(
                "a string borrowed from the input (this one has escapes; use String or Cow<str>)",
                &other,
            )),
            other => Err(DecodeErrors::invalid_type("string", &other)),
        }
    }

    #[inline]
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        match source.read_str()? {
            TextRef::Borrowed(s) => Ok(s),
            TextRef::Decoded(_) => Err(Fallback),
        }
    }

    fn shape() -> Shape {
        Shape::String
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::String
    }
}

impl<'de> Decode<'de> for char {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        if let Some(s) = value.as_str() {
            let mut chars = s.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                return Ok(c);
            }
        }
        Err(DecodeErrors::invalid_type("a single character", &value))
    }

    fn shape() -> Shape {
        Shape::Char
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::String
    }
}

impl<'de> Decode<'de> for std::path::PathBuf {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        String::decode(value).map(Into::into)
    }

    fn shape() -> Shape {
        Shape::String
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::String
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Option<T> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Self::decode_with_options(value, DecodeOptions::STRICT)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::Null => Ok(None),
            other => T::decode_with_options(other, options).map(Some),
        }
    }

    fn missing() -> Option<Self> {
        Some(None)
    }

    #[inline]
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        if source.peek_token()? == ValueKind::Null {
            source.read_null()?;
            return Ok(None);
        }
        T::decode_direct(source).map(Some)
    }

    fn shape() -> Shape {
        Shape::Optional(T::shape)
    }

    #[inline]
    fn may_accept(kind: ValueKind, depth: u32) -> bool {
        Self::may_accept_with_options(kind, depth, DecodeOptions::STRICT)
    }

    #[inline]
    fn may_accept_with_options(kind: ValueKind, depth: u32, options: DecodeOptions) -> bool {
        depth == 0
            || kind == ValueKind::Null
            || T::may_accept_with_options(kind, depth - 1, options)
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Box<T> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        T::decode(value).map(Box::new)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        T::decode_with_options(value, options).map(Box::new)
    }

    fn missing() -> Option<Self> {
        T::missing().map(Box::new)
    }

    fn missing_with_options(options: DecodeOptions) -> Option<Self> {
        T::missing_with_options(options).map(Box::new)
    }

    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        T::decode_direct(source).map(Box::new)
    }

    fn shape() -> Shape {
        T::shape()
    }

    #[inline]
    fn may_accept(kind: ValueKind, depth: u32) -> bool {
        depth == 0 || T::may_accept(kind, depth - 1)
    }

    #[inline]
    fn may_accept_with_options(kind: ValueKind, depth: u32, options: DecodeOptions) -> bool {
        depth == 0 || T::may_accept_with_options(kind, depth - 1, options)
    }
}

/// Decodes every item, collecting the errors of all of them.
fn decode_items<'de, T: Decode<'de>>(
    items: Vec<RawValue<'de>>,
    options: DecodeOptions,
) -> Result<Vec<T>, DecodeErrors> {
    let mut out = Vec::with_capacity(items.len());
    let mut errors: Option<DecodeErrors> = None;
    for (i, item) in items.into_iter().enumerate() {
        match T::decode_with_options(item, options) {
            Ok(v) if errors.is_none() => out.push(v),
            Ok(_) => {}
            Err(e) => DecodeErrors::accumulate(&mut errors, e.at_index(i)),
        }
    }
    match errors {
        None => Ok(out),
        Some(e) => Err(e),
    }
}

/// How many items a list of unknown length first allocates room for: 128 bytes of them,
/// and at least the four std's `Vec` starts with. Ten integers are then one allocation,
/// not the three of std's steps (4, 8, 16): reallocations weigh heavily on a short list.
const fn first_capacity<T>() -> usize {
    let size = std::mem::size_of::<T>();
    if size == 0 || 128 / size < 4 {
        4
    } else {
        128 / size
    }
}

/// The most items a list whose length the reader gave ([`PullSource::len_hint`]) is
/// allocated room for before they are read: 16 MiB of them, and at least 4096. The hint
/// comes from the input, so it is trusted only that far; within it, a list is one
/// allocation: grown by doubling, a long list would be copied again and again into
/// fresh memory, touching new pages each time.
const fn max_preallocation<T>() -> usize {
    let size = std::mem::size_of::<T>();
    if size == 0 || (16 << 20) / size < 4096 {
        4096
    } else {
        (16 << 20) / size
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Vec<T> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Self::decode_with_options(value, DecodeOptions::STRICT)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::Seq(items) => decode_items(items, options),
            other if options.xml_sequences() => T::decode_with_options(other, options)
                .map(|item| vec![item])
                .map_err(|e| e.at_index(0)),
            other => Err(DecodeErrors::invalid_type("sequence", &other)),
        }
    }

    fn missing_with_options(options: DecodeOptions) -> Option<Self> {
        options.xml_sequences().then(Vec::new)
    }

    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        // XML's rule, as in `decode`: any value but a sequence is a one-element one.
        if source.decode_options().xml_sequences() && source.peek_token()? != ValueKind::Array {
            return T::decode_direct(source).map(|item| vec![item]);
        }
        source.begin_array()?;
        let mut items = Vec::with_capacity(source.len_hint().min(max_preallocation::<T>()));
        let mut first = true;
        while source.next_item(first)? {
            if first && items.capacity() == 0 {
                items.reserve_exact(first_capacity::<T>());
            }
            first = false;
            items.push(T::decode_direct(source)?);
        }
        Ok(items)
    }

    fn shape() -> Shape {
        Shape::Seq(T::shape)
    }

    #[inline]
    fn may_accept(kind: ValueKind, depth: u32) -> bool {
        Self::may_accept_with_options(kind, depth, DecodeOptions::STRICT)
    }

    /// An array; under XML's rule, anything one item may be.
    #[inline]
    fn may_accept_with_options(kind: ValueKind, depth: u32, options: DecodeOptions) -> bool {
        depth == 0
            || kind == ValueKind::Array
            || (options.xml_sequences() && T::may_accept_with_options(kind, depth - 1, options))
    }
}

impl<'de, T: Decode<'de>, const N: usize> Decode<'de> for [T; N] {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Self::decode_with_options(value, DecodeOptions::STRICT)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::Seq(items) if items.len() == N => {
                let items = decode_items::<T>(items, options)?;
                Ok(items
                    .try_into()
                    .unwrap_or_else(|_| unreachable!("length checked above")))
            }
            other => Err(DecodeErrors::invalid_type(
                format!("sequence of {N}"),
                &other,
            )),
        }
    }

    fn shape() -> Shape {
        Shape::Tuple(vec![
            crate::shape::TupleItem::from(
                T::shape as crate::ShapeOf
            );
            N
        ])
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::Array
    }
}

macro_rules! decode_tuple {
    ($len:literal => $($name:ident $index:tt),+) => {
        impl<'de, $($name: Decode<'de>),+> Decode<'de> for ($($name,)+) {
            fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
                Self::decode_with_options(value, DecodeOptions::STRICT)
            }

            fn decode_with_options(value: RawValue<'de>, options: DecodeOptions) -> Result<Self, DecodeErrors> {
                let items = match value {
                    RawValue::Seq(items) if items.len() == $len => items,
                    other => return Err(DecodeErrors::invalid_type(concat!("sequence of ", $len), &other)),
                };
                let mut items = items.into_iter();
                let mut errors: Option<DecodeErrors> = None;
                let tuple = ($(
                    match $name::decode_with_options(items.next().unwrap_or_default(), options) {
                        Ok(v) => Some(v),
                        Err(e) => {
                            DecodeErrors::accumulate(&mut errors, e.at_index($index));
                            None
                        }
                    },
                )+);
                match errors {
                    Some(e) => Err(e),
                    None => Ok(($(tuple.$index.unwrap_or_else(|| unreachable!("no errors")),)+)),
                }
            }

            fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
                source.begin_array()?;
                let tuple = ($(
                    {
                        if !source.next_item($index == 0)? {
                            return Err(Fallback);
                        }
                        $name::decode_direct(source)?
                    },
                )+);
                if source.next_item(false)? {
                    return Err(Fallback);
                }
                Ok(tuple)
            }

            fn shape() -> Shape {
                Shape::Tuple(vec![$(crate::shape::TupleItem::from($name::shape as crate::ShapeOf)),+])
            }

            #[inline]
            fn may_accept(kind: ValueKind, _depth: u32) -> bool {
                kind == ValueKind::Array
            }
        }
    };
}

decode_tuple!(1 => A 0);
decode_tuple!(2 => A 0, B 1);
decode_tuple!(3 => A 0, B 1, C 2);
decode_tuple!(4 => A 0, B 1, C 2, D 3);
decode_tuple!(5 => A 0, B 1, C 2, D 3, E 4);
decode_tuple!(6 => A 0, B 1, C 2, D 3, E 4, F 5);
decode_tuple!(7 => A 0, B 1, C 2, D 3, E 4, F 5, G 6);
decode_tuple!(8 => A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

impl<'de> DecodeKey<'de> for String {
    #[inline]
    fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors> {
        Ok(cow_into_string(key))
    }
}

impl<'de> DecodeKey<'de> for Cow<'de, str> {
    fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors> {
        Ok(key)
    }
}

impl<'de> DecodeKey<'de> for &'de str {
    fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors> {
        <&str>::decode(RawValue::String(key))
    }
}

impl<'de> DecodeKey<'de> for char {
    fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors> {
        char::decode(RawValue::String(key))
    }
}

impl<'de> DecodeKey<'de> for bool {
    fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors> {
        bool::decode(RawValue::Text(key))
    }
}

/// Decodes map entries into `insert`, rejecting duplicate keys and collecting every error.
fn decode_entries<'de, K, V>(
    value: RawValue<'de>,
    options: DecodeOptions,
    mut insert: impl FnMut(K, V) -> bool,
) -> Result<(), DecodeErrors>
where
    K: DecodeKey<'de>,
    V: Decode<'de>,
{
    let entries = match value {
        RawValue::Map(entries) => entries,
        other => return Err(DecodeErrors::invalid_type("map", &other)),
    };
    let mut errors: Option<DecodeErrors> = None;
    for (key, mut value) in entries {
        let decoded_key = K::decode_entry_key(key.clone(), &mut value, options);
        let decoded_value = V::decode_with_options(value, options);
        match (decoded_key, decoded_value) {
            (Ok(k), Ok(v)) => {
                if !insert(k, v) {
                    DecodeErrors::accumulate(
                        &mut errors,
                        DecodeErrors::new(DecodeErrorKind::DuplicateField(key.to_string()))
                            .at_key(&key),
                    );
                }
            }
            (k, v) => {
                if let Err(e) = k {
                    DecodeErrors::accumulate(&mut errors, e.at_key(&key));
                }
                if let Err(e) = v {
                    DecodeErrors::accumulate(&mut errors, e.at_key(&key));
                }
            }
        }
    }
    match errors {
        None => Ok(()),
        Some(e) => Err(e),
    }
}

/// The direct-path twin of `decode_entries`: a duplicate key or any bad entry falls back.
fn decode_direct_entries<'de, K, V, J>(
    source: &mut J,
    mut insert: impl FnMut(K, V) -> bool,
) -> Result<(), Fallback>
where
    K: DecodeKey<'de>,
    V: Decode<'de>,
    J: PullSource<'de> + ?Sized,
{
    source.begin_object()?;
    let mut first = true;
    while let Some(key) = source.next_key(first)? {
        first = false;
        let key = K::decode_key_direct(key.into_cow())?;
        let value = V::decode_direct(source)?;
        if !insert(key, value) {
            return Err(Fallback);
        }
    }
    Ok(())
}

impl<'de, K, V, S> Decode<'de> for HashMap<K, V, S>
where
    K: DecodeKey<'de> + Hash + Eq,
    V: Decode<'de>,
    S: BuildHasher + Default,
{
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Self::decode_with_options(value, DecodeOptions::STRICT)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        let capacity = match &value {
            RawValue::Map(entries) => entries.len(),
            _ => 0,
        };
        let mut map = HashMap::with_capacity_and_hasher(capacity, S::default());
        decode_entries(value, options, |k, v| map.insert(k, v).is_none())?;
        Ok(map)
    }

    fn decode_direct<J: PullSource<'de> + ?Sized>(source: &mut J) -> Result<Self, Fallback> {
        let mut map = HashMap::with_hasher(S::default());
        decode_direct_entries(source, |k, v| map.insert(k, v).is_none())?;
        Ok(map)
    }

    fn shape() -> Shape {
        K::map_shape(V::shape)
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::Object
    }
}

impl<'de, K, V> Decode<'de> for BTreeMap<K, V>
where
    K: DecodeKey<'de> + Ord,
    V: Decode<'de>,
{
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Self::decode_with_options(value, DecodeOptions::STRICT)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        let mut map = BTreeMap::new();
        decode_entries(value, options, |k, v| map.insert(k, v).is_none())?;
        Ok(map)
    }

    fn decode_direct<J: PullSource<'de> + ?Sized>(source: &mut J) -> Result<Self, Fallback> {
        let mut map = BTreeMap::new();
        decode_direct_entries(source, |k, v| map.insert(k, v).is_none())?;
        Ok(map)
    }

    fn shape() -> Shape {
        K::map_shape(V::shape)
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::Object
    }
}

/// A datetime decodes from a format's own datetime (TOML, plist) or from RFC 3339 text
/// (JSON, YAML and XML have no datetime type).
impl<'de> Decode<'de> for crate::Datetime {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        match value {
            RawValue::Datetime(d) => Ok(d),
            RawValue::String(ref s) | RawValue::Text(ref s) => s
                .parse()
                .map_err(|_| DecodeErrors::invalid_type("RFC 3339 datetime", &value)),
            other => Err(DecodeErrors::invalid_type("datetime", &other)),
        }
    }

    fn shape() -> Shape {
        Shape::Datetime
    }

    #[inline]
    fn may_accept(kind: ValueKind, _depth: u32) -> bool {
        kind == ValueKind::String
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_unknown_length_first_takes_128_bytes_of_items_and_at_least_four() {
        assert_eq!(first_capacity::<u8>(), 128);
        assert_eq!(first_capacity::<i64>(), 16);
        assert_eq!(first_capacity::<String>(), 5);
        assert_eq!(first_capacity::<[u8; 100]>(), 4);
        assert_eq!(first_capacity::<()>(), 4);
    }

    /// The kind a source of typed values peeks `value` as, when it has one. XML's text,
    /// untyped, is never asked about (YAML resolves its plain scalars to typed values).
    fn kind_of(value: &RawValue<'_>) -> Option<ValueKind> {
        Some(match value {
            RawValue::Null => ValueKind::Null,
            RawValue::Bool(_) => ValueKind::Bool,
            RawValue::Int(_) | RawValue::UInt(_) | RawValue::Float(_) | RawValue::BigNumber(_) => {
                ValueKind::Number
            }
            RawValue::String(_) => ValueKind::String,
            RawValue::Seq(_) => ValueKind::Array,
            RawValue::Map(_) => ValueKind::Object,
            _ => return None,
        })
    }

    /// Values of every kind, with text a scalar decodes from.
    fn samples() -> Vec<RawValue<'static>> {
        let text = |s: &'static str| RawValue::Text(s.into());
        vec![
            RawValue::Null,
            RawValue::Bool(true),
            RawValue::Int(5),
            RawValue::UInt(u64::MAX),
            RawValue::Float(1.5),
            RawValue::BigNumber("1e400".into()),
            RawValue::String("x".into()),
            RawValue::String("2024-01-02T03:04:05Z".into()),
            text("5"),
            text("true"),
            text("1.5"),
            text("x"),
            text(""),
            RawValue::Seq(vec![]),
            RawValue::Seq(vec![RawValue::Int(1)]),
            RawValue::Seq(vec![RawValue::Int(1), RawValue::Int(2)]),
            map(vec![]),
            map(vec![("a", RawValue::Int(1))]),
        ]
    }

    /// Every value `T` decodes, under both rules for sequences, has a kind `T` says it
    /// may accept: an untagged enum's direct path never passes over a variant that the
    /// RawValue path would pick.
    fn rejects_only_what_decode_rejects<T: Decode<'static>>(name: &str) -> Vec<String> {
        let mut wrong = Vec::new();
        for xml in [false, true] {
            for value in samples() {
                let Some(kind) = kind_of(&value) else {
                    continue;
                };
                let shown = format!("{value:?}");
                let options = if xml {
                    DecodeOptions::XML
                } else {
                    DecodeOptions::STRICT
                };
                let decoded = T::decode_with_options(value, options).is_ok();
                let may = T::may_accept_with_options(kind, 8, options);
                if decoded && !may {
                    wrong.push(format!(
                        "{name} (xml: {xml}) decodes {shown} but rejects {kind:?}"
                    ));
                }
            }
        }
        wrong
    }

    #[test]
    fn may_accept_rejects_only_kinds_decode_rejects() {
        let mut wrong = Vec::new();
        wrong.extend(rejects_only_what_decode_rejects::<()>("()"));
        wrong.extend(rejects_only_what_decode_rejects::<bool>("bool"));
        wrong.extend(rejects_only_what_decode_rejects::<u8>("u8"));
        wrong.extend(rejects_only_what_decode_rejects::<i64>("i64"));
        wrong.extend(rejects_only_what_decode_rejects::<u128>("u128"));
        wrong.extend(rejects_only_what_decode_rejects::<f32>("f32"));
        wrong.extend(rejects_only_what_decode_rejects::<f64>("f64"));
        wrong.extend(rejects_only_what_decode_rejects::<String>("String"));
        wrong.extend(rejects_only_what_decode_rejects::<Cow<'static, str>>("Cow"));
        wrong.extend(rejects_only_what_decode_rejects::<char>("char"));
        wrong.extend(rejects_only_what_decode_rejects::<std::path::PathBuf>(
            "PathBuf",
        ));
        wrong.extend(rejects_only_what_decode_rejects::<crate::Datetime>(
            "Datetime",
        ));
        wrong.extend(rejects_only_what_decode_rejects::<Option<u8>>("Option<u8>"));
        wrong.extend(rejects_only_what_decode_rejects::<Option<Vec<u8>>>(
            "Option<Vec<u8>>",
        ));
        wrong.extend(rejects_only_what_decode_rejects::<Box<String>>(
            "Box<String>",
        ));
        wrong.extend(rejects_only_what_decode_rejects::<Vec<u8>>("Vec<u8>"));
        wrong.extend(rejects_only_what_decode_rejects::<Vec<BTreeMap<String, u8>>>("Vec<map>"));
        wrong.extend(rejects_only_what_decode_rejects::<[u8; 1]>("[u8; 1]"));
        wrong.extend(rejects_only_what_decode_rejects::<(u8, u8)>("(u8, u8)"));
        wrong.extend(rejects_only_what_decode_rejects::<HashMap<String, u8>>(
            "HashMap",
        ));
        wrong.extend(rejects_only_what_decode_rejects::<BTreeMap<String, u8>>(
            "BTreeMap",
        ));
        wrong.extend(rejects_only_what_decode_rejects::<RawValue<'static>>(
            "RawValue",
        ));
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn may_accept_turns_away_other_kinds_and_says_may_at_depth_zero() {
        // A scalar, a sequence and a map each turn away the other kinds ...
        assert!(!String::may_accept(ValueKind::Object, 8));
        assert!(!u8::may_accept(ValueKind::Array, 8));
        assert!(!Vec::<u8>::may_accept(ValueKind::Object, 8));
        assert!(!BTreeMap::<String, u8>::may_accept(ValueKind::String, 8));
        assert!(!Option::<String>::may_accept(ValueKind::Array, 8));
        // ... and a wrapper looked through no deeper than asked says "may".
        assert!(Option::<String>::may_accept(ValueKind::Array, 0));
        assert!(!Option::<Box<String>>::may_accept(ValueKind::Array, 2));
        assert!(Option::<Box<String>>::may_accept(ValueKind::Array, 1));
    }

    fn map(entries: Vec<(&'static str, RawValue<'static>)>) -> RawValue<'static> {
        RawValue::Map(
            entries
                .into_iter()
                .map(|(k, v)| (Cow::Borrowed(k), v))
                .collect(),
        )
    }

    #[test]
    fn integers_check_their_range() {
        assert_eq!(u8::decode(RawValue::Int(255)).unwrap(), 255);
        let err = u8::decode(RawValue::Int(256)).unwrap_err();
        assert_eq!(err.to_string(), "expected integer in 0..=255, found 256");
        let err = i8::decode(RawValue::Int(-129)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected integer in -128..=127, found -129"
        );
        assert_eq!(u64::decode(RawValue::UInt(u64::MAX)).unwrap(), u64::MAX);
        assert!(i64::decode(RawValue::UInt(u64::MAX)).is_err());
        assert!(u64::decode(RawValue::Int(-1)).is_err());
        let big = u128::decode(RawValue::BigNumber(
            "340282366920938463463374607431768211456".into(),
        ));
        assert!(big
            .unwrap_err()
            .to_string()
            .starts_with("expected integer in 0..="));
        let err = u16::decode(RawValue::String("http".into())).unwrap_err();
        assert_eq!(err.to_string(), "expected integer, found string \"http\"");
    }

    #[test]
    fn untyped_text_parses_but_strings_stay_strings() {
        assert_eq!(u16::decode(RawValue::Text("80".into())).unwrap(), 80);
        assert!(u16::decode(RawValue::String("80".into())).is_err());
        assert!(bool::decode(RawValue::Text("true".into())).unwrap());
        assert!(bool::decode(RawValue::String("true".into())).is_err());
        assert_eq!(f64::decode(RawValue::Text(" 1.5 ".into())).unwrap(), 1.5);
        assert!(u8::decode(RawValue::Text("99999999999999999999999".into()))
            .unwrap_err()
            .to_string()
            .contains("0..=255"));
        assert!(u8::decode(RawValue::Text("abc".into()))
            .unwrap_err()
            .to_string()
            .contains("expected integer, found text"));
        // Each width of the text integer parse: 64-bit, beyond it, beyond 128 bits.
        let text = |s: &'static str| RawValue::Text(s.into());
        assert_eq!(
            i64::decode(text(" -9223372036854775808\n")).unwrap(),
            i64::MIN
        );
        assert_eq!(
            u64::decode(text("+18446744073709551615")).unwrap(),
            u64::MAX
        );
        assert_eq!(
            i128::decode(text("-9223372036854775809")).unwrap(),
            -(1i128 << 63) - 1
        );
        assert_eq!(
            u128::decode(text("340282366920938463463374607431768211455")).unwrap(),
            u128::MAX
        );
        assert!(u64::decode(text("18446744073709551616"))
            .unwrap_err()
            .to_string()
            .contains("0..="));
        assert!(
            u128::decode(text("999999999999999999999999999999999999999999"))
                .unwrap_err()
                .to_string()
                .contains("0..=")
        );
        assert!(i64::decode(text("1_0")).is_err());
        assert!(i64::decode(text("")).is_err());
    }

    #[test]
    fn floats_accept_integers_and_big_numbers() {
        assert_eq!(f64::decode(RawValue::Int(-3)).unwrap(), -3.0);
        assert_eq!(
            f64::decode(RawValue::BigNumber("1e400".into())).unwrap(),
            f64::INFINITY
        );
        assert!(f64::decode(RawValue::Bool(true)).is_err());
    }

    #[test]
    fn borrowed_strings_need_borrowed_input() {
        let borrowed: &str = <&str>::decode(RawValue::String(Cow::Borrowed("x"))).unwrap();
        assert_eq!(borrowed, "x");
        assert!(<&str>::decode(RawValue::String(Cow::Owned("x".into()))).is_err());
        let cow = Cow::<str>::decode(RawValue::String(Cow::Owned("y".into()))).unwrap();
        assert!(matches!(cow, Cow::Owned(_)));
    }

    #[test]
    fn errors_accumulate_with_paths() {
        let value = map(vec![
            (
                "a",
                RawValue::Seq(vec![
                    RawValue::Int(1),
                    RawValue::String("x".into()),
                    RawValue::Null,
                ]),
            ),
            ("b", RawValue::Seq(vec![RawValue::Int(-1)])),
        ]);
        let err = BTreeMap::<String, Vec<u32>>::decode(value).unwrap_err();
        assert_eq!(err.len(), 3);
        let lines: Vec<String> = err.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "a[1]: expected integer, found string \"x\"",
                "a[2]: expected integer, found null",
                "b[0]: expected integer in 0..=4294967295, found -1",
            ]
        );
    }

    #[test]
    fn maps_reject_duplicates_and_parse_integer_keys() {
        let value = map(vec![
            ("1", RawValue::Bool(true)),
            ("2", RawValue::Bool(false)),
        ]);
        let m = HashMap::<u8, bool>::decode(value).unwrap();
        assert!(!m[&2]);
        let dup = map(vec![("k", RawValue::Int(1)), ("k", RawValue::Int(2))]);
        let err = HashMap::<String, i32>::decode(dup).unwrap_err();
        assert_eq!(err.to_string(), "k: duplicate field `k`");
        let bad_key = map(vec![("x", RawValue::Int(1))]);
        assert!(BTreeMap::<u8, i32>::decode(bad_key).is_err());
    }

    #[test]
    fn options_tuples_arrays_and_boxes() {
        assert_eq!(Option::<i32>::decode(RawValue::Null).unwrap(), None);
        assert_eq!(Option::<i32>::missing(), Some(None));
        assert_eq!(i32::missing(), None);
        let seq = RawValue::Seq(vec![RawValue::Int(1), RawValue::String("a".into())]);
        assert_eq!(
            <(u8, String)>::decode(seq.clone()).unwrap(),
            (1, "a".to_string())
        );
        let err = <(u8, u8)>::decode(seq.clone()).unwrap_err();
        assert_eq!(err.to_string(), "[1]: expected integer, found string \"a\"");
        assert!(<[u8; 3]>::decode(seq).is_err());
        let arr =
            <[u8; 2]>::decode(RawValue::Seq(vec![RawValue::Int(1), RawValue::Int(2)])).unwrap();
        assert_eq!(arr, [1, 2]);
        assert!(*Box::<bool>::decode(RawValue::Bool(true)).unwrap());
        assert_eq!(char::decode(RawValue::String("é".into())).unwrap(), 'é');
        assert!(char::decode(RawValue::String("ab".into())).is_err());
    }
}
