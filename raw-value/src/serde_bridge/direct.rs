//! serde's `Deserialize` run straight over a [`PullSource`]: a serde type reads the bytes as
//! a derived one does, with no [`RawValue`](crate::RawValue) in between.
//!
//! The path is as optimistic as the derive's: any error (the input's, the type's, a value
//! the pull source has no kind for) is a [`Fallback`], and the caller decodes through the
//! RawValue bridge, which gives the same value or the exact, path-aware errors. So every
//! answer here must be the one the bridge gives for the same input: numbers are visited
//! as the bridge visits them, keys are text, an enum is a name or a map of one entry, and
//! a value the source cannot hand out by kind (a TOML datetime, plist data) is read as a
//! [`RawValue`](crate::RawValue) and deserialized by the bridge itself. What serde buffers
//! (flatten, untagged and internally tagged enums) it buffers through `deserialize_any`
//! here, for the one value that needs it.
//!
//! Sources whose strings may be untyped text (XML's, without
//! [`PullSource::TYPED_STRINGS`]) are not read here: their text is typed by the visitor
//! the bridge sees, so they go through it.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

use crate::pull::{Fallback, Num, PullSource, TextRef, ValueKind};
use crate::{Decode, RawValue};

/// Why the direct path gave up: only that it did (the RawValue path tells the reason).
#[derive(Debug)]
pub(crate) struct GaveUp;

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the direct path gave up")
    }
}

impl std::error::Error for GaveUp {}

impl de::Error for GaveUp {
    #[cold]
    fn custom<T: fmt::Display>(_: T) -> Self {
        GaveUp
    }
}

impl From<Fallback> for GaveUp {
    #[inline]
    fn from(_: Fallback) -> Self {
        GaveUp
    }
}

impl From<crate::DecodeErrors> for GaveUp {
    #[cold]
    fn from(_: crate::DecodeErrors) -> Self {
        GaveUp
    }
}

/// Deserializes one `T` from `source`, or falls back.
pub(crate) fn deserialize<'de, T, S>(source: &mut S) -> Result<T, Fallback>
where
    T: de::Deserialize<'de>,
    S: PullSource<'de> + ?Sized,
{
    if !S::TYPED_STRINGS {
        return Err(Fallback);
    }
    T::deserialize(Pull { source }).map_err(|GaveUp| Fallback)
}

/// A serde `Deserializer` reading the next value of a pull source.
struct Pull<'a, S: ?Sized> {
    source: &'a mut S,
}

impl<'de, S: PullSource<'de> + ?Sized> Pull<'_, S> {
    /// A value the source has no kind for, read whole and deserialized by the bridge.
    #[cold]
    fn through_raw<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        let raw = self.source.read_raw()?;
        Ok(de::Deserializer::deserialize_any(raw, visitor)?)
    }

    /// Visits a string as the bridge visits a `RawValue::String`.
    #[inline]
    fn visit_text<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        match self.source.read_str()? {
            TextRef::Borrowed(s) => visitor.visit_borrowed_str(s),
            TextRef::Decoded(s) => visitor.visit_str(s),
        }
    }

    /// Visits a number as the bridge visits the `RawValue` it reads as, read as the
    /// machine type that holds it (no `RawValue` to drop).
    #[inline]
    fn visit_number<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        visit_num(self.source.read_num()?, visitor)
    }

    /// [`Pull::visit_number`] for a visitor that expects a float: visited the same way.
    #[inline]
    fn visit_float<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        visit_num(self.source.read_num_expecting_float()?, visitor)
    }

    /// After a peeked `[`: the items, for `visitor`.
    #[inline]
    fn visit_array<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        self.source.begin_array()?;
        let hint = self.source.len_hint();
        let mut items = Items {
            source: &mut *self.source,
            first: true,
            ended: false,
            hint,
        };
        let value = visitor.visit_seq(&mut items)?;
        // A visitor that stopped early (a tuple) leaves items, which the bridge
        // passes over too.
        while !items.ended {
            let first = std::mem::replace(&mut items.first, false);
            if items.source.next_item(first)? {
                items.source.skip_value()?;
            } else {
                items.ended = true;
            }
        }
        Ok(value)
    }

    /// After a peeked `{`: the entries, for `visitor`.
    #[inline]
    fn visit_object<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        self.source.begin_object()?;
        let mut entries = Entries {
            source: &mut *self.source,
            first: true,
            ended: false,
        };
        let value = visitor.visit_map(&mut entries)?;
        // A visitor that stopped before the `}` leaves the source inside the
        // object: give up rather than read on from there.
        if entries.ended {
            Ok(value)
        } else {
            Err(GaveUp)
        }
    }
}

/// Visits `num` as the bridge visits the `RawValue` it reads as.
#[inline(always)]
fn visit_num<'de, V: Visitor<'de>>(num: Num, visitor: V) -> Result<V::Value, GaveUp> {
    match num {
        Num::I64(i) => visitor.visit_i64(i),
        Num::U64(u) => visitor.visit_u64(u),
        Num::F64(f) => visitor.visit_f64(plain_float(f)?),
    }
}

/// Visits `u` as the bridge visits it: a `RawValue` integer is `Int` wherever it fits
/// `i64` (`UInt` only beyond).
#[inline(always)]
fn visit_unsigned<'de, V: Visitor<'de>>(visitor: V, u: u64) -> Result<V::Value, GaveUp> {
    match i64::try_from(u) {
        Ok(i) => visitor.visit_i64(i),
        Err(_) => visitor.visit_u64(u),
    }
}

/// `f`, unless it may stand for an integer beyond 64 bits (which the bridge visits as an
/// `i128` or `u128`, and [`PullSource::read_num`] reads as its nearest float): those give
/// up.
#[inline(always)]
fn plain_float(f: f64) -> Result<f64, GaveUp> {
    // 2^63: every integer below it in magnitude reads as `I64` or `U64`.
    const BEYOND_64_BITS: f64 = 9_223_372_036_854_775_808.0;
    if f.abs() >= BEYOND_64_BITS && f.is_finite() && f.fract() == 0.0 {
        Err(GaveUp)
    } else {
        Ok(f)
    }
}

/// Typed calls: a value of the kind the call names is read straight as that kind; any
/// other goes the way `deserialize_any` takes it (the bridge types only XML's text,
/// which never comes here).
macro_rules! typed {
    ($($method:ident: $kind:ident => |$pull:ident, $visitor:ident| $read:expr;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, $visitor: V) -> Result<V::Value, GaveUp> {
            match self.source.peek_token() {
                Ok(ValueKind::$kind) => {
                    let $pull = self;
                    $read
                }
                _ => self.deserialize_any($visitor),
            }
        }
    )*};
}

impl<'de, S: PullSource<'de> + ?Sized> de::Deserializer<'de> for Pull<'_, S> {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        let Ok(kind) = self.source.peek_token() else {
            return self.through_raw(visitor);
        };
        match kind {
            ValueKind::Null => {
                self.source.read_null()?;
                visitor.visit_unit()
            }
            ValueKind::Bool => visitor.visit_bool(self.source.read_bool()?),
            ValueKind::Number => self.visit_number(visitor),
            ValueKind::String => self.visit_text(visitor),
            ValueKind::Array => self.visit_array(visitor),
            ValueKind::Object => self.visit_object(visitor),
        }
    }

    typed! {
        deserialize_bool: Bool => |pull, visitor| visitor.visit_bool(pull.source.read_bool()?);
        deserialize_i8: Number => |pull, visitor| visitor.visit_i64(pull.source.read_i64()?);
        deserialize_i16: Number => |pull, visitor| visitor.visit_i64(pull.source.read_i64()?);
        deserialize_i32: Number => |pull, visitor| visitor.visit_i64(pull.source.read_i64()?);
        deserialize_i64: Number => |pull, visitor| visitor.visit_i64(pull.source.read_i64()?);
        deserialize_u8: Number => |pull, visitor| visit_unsigned(visitor, pull.source.read_u64()?);
        deserialize_u16: Number => |pull, visitor| visit_unsigned(visitor, pull.source.read_u64()?);
        deserialize_u32: Number => |pull, visitor| visit_unsigned(visitor, pull.source.read_u64()?);
        deserialize_u64: Number => |pull, visitor| visit_unsigned(visitor, pull.source.read_u64()?);
        deserialize_f32: Number => |pull, visitor| pull.visit_float(visitor);
        deserialize_f64: Number => |pull, visitor| pull.visit_float(visitor);
        deserialize_str: String => |pull, visitor| pull.visit_text(visitor);
        deserialize_string: String => |pull, visitor| pull.visit_text(visitor);
        deserialize_identifier: String => |pull, visitor| pull.visit_text(visitor);
        deserialize_seq: Array => |pull, visitor| pull.visit_array(visitor);
        deserialize_map: Object => |pull, visitor| pull.visit_object(visitor);
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, GaveUp> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        match self.source.peek_token() {
            Ok(ValueKind::Object) => self.visit_object(visitor),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        if self.source.peek_token() == Ok(ValueKind::Null) {
            self.source.read_null()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        self.source.skip_value()?;
        visitor.visit_unit()
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        match self.source.peek_token()? {
            ValueKind::String => {
                let name = self.source.read_str()?;
                visitor.visit_enum(de::value::StrDeserializer::<GaveUp>::new(name.as_str()))
            }
            ValueKind::Object => {
                self.source.begin_object()?;
                let value = visitor.visit_enum(Variant {
                    source: &mut *self.source,
                })?;
                // The bridge takes a map of exactly one entry.
                match self.source.next_key(false)? {
                    None => Ok(value),
                    Some(_) => Err(GaveUp),
                }
            }
            _ => Err(GaveUp),
        }
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct
    }
}

/// The items of an array, after its `[`.
struct Items<'a, S: ?Sized> {
    source: &'a mut S,
    first: bool,
    /// The `]` is read.
    ended: bool,
    hint: usize,
}

impl<'de, S: PullSource<'de> + ?Sized> de::SeqAccess<'de> for &mut Items<'_, S> {
    type Error = GaveUp;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, GaveUp> {
        if self.ended {
            return Ok(None);
        }
        let first = std::mem::replace(&mut self.first, false);
        if !self.source.next_item(first)? {
            self.ended = true;
            return Ok(None);
        }
        seed.deserialize(Pull {
            source: &mut *self.source,
        })
        .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        (self.hint > 0).then_some(self.hint)
    }
}

/// The entries of an object, after its `{`.
struct Entries<'a, S: ?Sized> {
    source: &'a mut S,
    first: bool,
    /// The `}` is read.
    ended: bool,
}

impl<'de, S: PullSource<'de> + ?Sized> de::MapAccess<'de> for &mut Entries<'_, S> {
    type Error = GaveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, GaveUp> {
        if self.ended {
            return Ok(None);
        }
        let first = std::mem::replace(&mut self.first, false);
        match self.source.next_key(first)? {
            None => {
                self.ended = true;
                Ok(None)
            }
            Some(key) => seed.deserialize(Key(key)).map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, GaveUp> {
        seed.deserialize(Pull {
            source: &mut *self.source,
        })
    }
}

/// Typed calls on a [`Key`]: its text read as the type, as the bridge reads a key
/// ([`RawValue::Text`]); an error gives up, and the bridge reports it.
macro_rules! typed_key {
    ($($method:ident => $ty:ty, $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
            let text = RawValue::Text(Cow::Borrowed(self.0.as_str()));
            visitor.$visit(<$ty as Decode>::decode(text)?)
        }
    )*};
}

/// A map key: text, as the bridge hands keys over; a number or boolean key type parses
/// it as the bridge does.
struct Key<'de, 's>(TextRef<'de, 's>);

impl<'de> de::Deserializer<'de> for Key<'de, '_> {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        match self.0 {
            TextRef::Borrowed(s) => visitor.visit_borrowed_str(s),
            TextRef::Decoded(s) => visitor.visit_str(s),
        }
    }

    // A key asked for as a number or a boolean (`BTreeMap<u64, _>`) is parsed from its
    // text as the bridge parses a key: as untyped text, by the type's `Decode`.
    text_typed_calls!(typed_key);

    serde::forward_to_deserialize_any! {
        char str string identifier ignored_any
    }

    fn deserialize_option<V: Visitor<'de>>(self, _: V) -> Result<V::Value, GaveUp> {
        Err(GaveUp)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, GaveUp> {
        Err(GaveUp)
    }

    serde::forward_to_deserialize_any! {
        i128 u128 bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
    }
}

/// An externally tagged enum's `{ "Variant": content }`, after its `{`.
struct Variant<'a, S: ?Sized> {
    source: &'a mut S,
}

impl<'a, 'de, S: PullSource<'de> + ?Sized> de::EnumAccess<'de> for Variant<'a, S> {
    type Error = GaveUp;
    type Variant = Content<'a, S>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Content<'a, S>), GaveUp> {
        let Some(name) = self.source.next_key(true)? else {
            return Err(GaveUp);
        };
        let variant = seed.deserialize(de::value::StrDeserializer::<GaveUp>::new(name.as_str()))?;
        Ok((
            variant,
            Content {
                source: self.source,
            },
        ))
    }
}

/// A variant's content.
struct Content<'a, S: ?Sized> {
    source: &'a mut S,
}

impl<'de, S: PullSource<'de> + ?Sized> de::VariantAccess<'de> for Content<'_, S> {
    type Error = GaveUp;

    fn unit_variant(self) -> Result<(), GaveUp> {
        // The bridge takes a unit variant's content only when it is null.
        Ok(self.source.read_null()?)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, GaveUp> {
        seed.deserialize(Pull {
            source: self.source,
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, GaveUp> {
        de::Deserializer::deserialize_seq(
            Pull {
                source: self.source,
            },
            visitor,
        )
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        de::Deserializer::deserialize_map(
            Pull {
                source: self.source,
            },
            visitor,
        )
    }
}
