//! The serde bridge: [`RawValue`] is a `serde::Deserializer` and `serde::Serialize`, so a
//! type that only derives `serde::Deserialize` decodes from every quarry format (through
//! [`Serde`]), with the same path-aware errors. Where a format has a direct path, serde's
//! `Deserialize` reads the bytes through it first (the `direct` module), with no RawValue in
//! between.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};

use crate::pull::{Fallback, PullSource};
use crate::{Decode, DecodeErrors, DecodeOptions, RawValue};

/// The typed calls that read untyped text (XML's, a map key) as the type they name, by
/// its `Decode`: `$apply! { method => type, visit; ... }`, for the bridge and the direct
/// path alike.
macro_rules! text_typed_calls {
    ($apply:ident) => {
        $apply! {
            deserialize_bool => bool, visit_bool;
            deserialize_i8 => i64, visit_i64;
            deserialize_i16 => i64, visit_i64;
            deserialize_i32 => i64, visit_i64;
            deserialize_i64 => i64, visit_i64;
            deserialize_u8 => u64, visit_u64;
            deserialize_u16 => u64, visit_u64;
            deserialize_u32 => u64, visit_u64;
            deserialize_u64 => u64, visit_u64;
            deserialize_f32 => f64, visit_f64;
            deserialize_f64 => f64, visit_f64;
        }
    };
}

mod direct;

impl de::Error for DecodeErrors {
    #[cold]
    fn custom<T: fmt::Display>(message: T) -> Self {
        DecodeErrors::custom(message)
    }
}

/// Decodes a `T: serde::Deserialize` through the serde bridge: use it as a field type
/// in a derived struct, or as the target of `quarry::from_slice`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Serde<T>(pub T);

impl<'de, T: de::Deserialize<'de>> Decode<'de> for Serde<T> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        T::deserialize(value).map(Serde)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        T::deserialize(Value::new(value, options)).map(Serde)
    }

    /// serde's `Deserialize` straight over the bytes (the `direct` module), falling back to the
    /// RawValue bridge on anything it does not read the bridge's way.
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        direct::deserialize(source).map(Serde)
    }
}

macro_rules! typed_text {
    ($($method:ident => $ty:ty, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeErrors> {
            match self.raw {
                // XML text carries no types: parse it as the type the visitor asks for.
                RawValue::Text(_) => visitor.$visit(<$ty>::decode(self.raw)?),
                _ => self.deserialize_any(visitor),
            }
        }
    )*};
}

/// A [`RawValue`] deserialized under [`DecodeOptions`], which it passes on to every value
/// inside it. `RawValue` itself deserializes under [`DecodeOptions::STRICT`].
struct Value<'de> {
    raw: RawValue<'de>,
    options: DecodeOptions,
}

impl<'de> Value<'de> {
    fn new(raw: RawValue<'de>, options: DecodeOptions) -> Self {
        Value { raw, options }
    }
}

/// `RawValue`'s methods, each that of its [`Value`] under [`DecodeOptions::STRICT`].
macro_rules! strict_value {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, DecodeErrors> {
            Value::new(self, DecodeOptions::STRICT).$method($($arg,)* visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for RawValue<'de> {
    type Error = DecodeErrors;

    strict_value! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16();
        deserialize_i32(); deserialize_i64(); deserialize_i128(); deserialize_u8();
        deserialize_u16(); deserialize_u32(); deserialize_u64(); deserialize_u128();
        deserialize_f32(); deserialize_f64(); deserialize_char(); deserialize_str();
        deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
        deserialize_option(); deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq(); deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier(); deserialize_ignored_any();
    }
}

impl<'de> de::Deserializer<'de> for Value<'de> {
    type Error = DecodeErrors;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeErrors> {
        let options = self.options;
        match self.raw {
            RawValue::Null => visitor.visit_unit(),
            RawValue::Bool(b) => visitor.visit_bool(b),
            RawValue::Int(i) => visitor.visit_i64(i),
            RawValue::UInt(u) => visitor.visit_u64(u),
            RawValue::Float(f) => visitor.visit_f64(f),
            RawValue::BigNumber(text) => {
                if let Ok(i) = text.parse::<i128>() {
                    visitor.visit_i128(i)
                } else if let Ok(u) = text.parse::<u128>() {
                    visitor.visit_u128(u)
                } else {
                    visitor.visit_f64(text.parse().unwrap_or(f64::NAN))
                }
            }
            RawValue::String(Cow::Borrowed(s)) | RawValue::Text(Cow::Borrowed(s)) => {
                visitor.visit_borrowed_str(s)
            }
            RawValue::String(Cow::Owned(s)) | RawValue::Text(Cow::Owned(s)) => {
                visitor.visit_string(s)
            }
            RawValue::Bytes(Cow::Borrowed(b)) => visitor.visit_borrowed_bytes(b),
            RawValue::Bytes(Cow::Owned(b)) => visitor.visit_byte_buf(b),
            RawValue::Datetime(d) => visitor.visit_string(d.to_string()),
            RawValue::Seq(items) => visitor.visit_seq(SeqAccess {
                items: items.into_iter(),
                index: 0,
                options,
            }),
            RawValue::Map(entries) => visitor.visit_map(MapAccess {
                entries: entries.into_iter(),
                key: None,
                options,
            }),
        }
    }

    text_typed_calls!(typed_text);

    /// A sequence; under XML's rule ([`DecodeOptions::XML`]) a single element, which XML
    /// cannot tell from a list of one, is a list of one, as for derived types.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeErrors> {
        match self.raw {
            RawValue::Seq(_) => self.deserialize_any(visitor),
            one if self.options.xml_sequences() => visitor.visit_seq(SeqAccess {
                items: vec![one].into_iter(),
                index: 0,
                options: self.options,
            }),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeErrors> {
        match self.raw {
            RawValue::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeErrors> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeErrors> {
        let options = self.options;
        match self.raw {
            RawValue::String(name) | RawValue::Text(name) => visitor.visit_enum(EnumAccess {
                name,
                content: None,
                options,
            }),
            RawValue::Map(entries) if entries.len() == 1 => {
                let (name, content) = entries.into_iter().next().unwrap_or_default();
                visitor.visit_enum(EnumAccess {
                    name,
                    content: Some(content),
                    options,
                })
            }
            other => Err(DecodeErrors::invalid_type(
                "a variant name or a map with one entry",
                &other,
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf unit unit_struct tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, DecodeErrors> for RawValue<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

struct SeqAccess<'de> {
    items: std::vec::IntoIter<RawValue<'de>>,
    index: usize,
    options: DecodeOptions,
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'de> {
    type Error = DecodeErrors;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DecodeErrors> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(Value::new(item, self.options))
            .map(Some)
            .map_err(|e| e.at_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapAccess<'de> {
    entries: std::vec::IntoIter<(Cow<'de, str>, RawValue<'de>)>,
    key: Option<(Cow<'de, str>, RawValue<'de>)>,
    options: DecodeOptions,
}

impl<'de> de::MapAccess<'de> for MapAccess<'de> {
    type Error = DecodeErrors;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeErrors> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        // Keys are text: they deserialize into strings, or parse into integer key types.
        let decoded = seed
            .deserialize(RawValue::Text(key.clone()))
            .map_err(|e| e.at_key(&key))?;
        self.key = Some((key, value));
        Ok(Some(decoded))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, DecodeErrors> {
        let (key, value) = self
            .key
            .take()
            .ok_or_else(|| DecodeErrors::custom("a map value without its key"))?;
        seed.deserialize(Value::new(value, self.options))
            .map_err(|e| e.at_key(&key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct EnumAccess<'de> {
    name: Cow<'de, str>,
    content: Option<RawValue<'de>>,
    options: DecodeOptions,
}

impl<'de> de::EnumAccess<'de> for EnumAccess<'de> {
    type Error = DecodeErrors;
    type Variant = VariantAccess<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantAccess<'de>), DecodeErrors> {
        let variant = seed.deserialize(RawValue::String(self.name.clone()))?;
        Ok((
            variant,
            VariantAccess {
                name: self.name,
                content: self.content,
                options: self.options,
            },
        ))
    }
}

struct VariantAccess<'de> {
    name: Cow<'de, str>,
    content: Option<RawValue<'de>>,
    options: DecodeOptions,
}

impl<'de> VariantAccess<'de> {
    fn content(self) -> Result<(Value<'de>, Cow<'de, str>), DecodeErrors> {
        match self.content {
            Some(content) => Ok((Value::new(content, self.options), self.name)),
            None => Err(DecodeErrors::custom(format!(
                "variant `{}` needs content",
                self.name
            ))),
        }
    }
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'de> {
    type Error = DecodeErrors;

    fn unit_variant(self) -> Result<(), DecodeErrors> {
        match self.content {
            None | Some(RawValue::Null) => Ok(()),
            Some(other) => {
                Err(DecodeErrors::invalid_type("a unit variant", &other).at_key(&self.name))
            }
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, DecodeErrors> {
        let (content, name) = self.content()?;
        seed.deserialize(content).map_err(|e| e.at_key(&name))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeErrors> {
        let (content, name) = self.content()?;
        de::Deserializer::deserialize_seq(content, visitor).map_err(|e| e.at_key(&name))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeErrors> {
        let (content, name) = self.content()?;
        de::Deserializer::deserialize_map(content, visitor).map_err(|e| e.at_key(&name))
    }
}

impl serde::Serialize for RawValue<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RawValue::Null => serializer.serialize_unit(),
            RawValue::Bool(b) => serializer.serialize_bool(*b),
            RawValue::Int(i) => serializer.serialize_i64(*i),
            RawValue::UInt(u) => serializer.serialize_u64(*u),
            RawValue::Float(f) => serializer.serialize_f64(*f),
            RawValue::BigNumber(text) => match (text.parse::<i128>(), text.parse::<u128>()) {
                (Ok(i), _) => serializer.serialize_i128(i),
                (_, Ok(u)) => serializer.serialize_u128(u),
                _ => serializer.serialize_str(text),
            },
            RawValue::String(s) | RawValue::Text(s) => serializer.serialize_str(s),
            RawValue::Bytes(b) => serializer.serialize_bytes(b),
            RawValue::Datetime(d) => serializer.collect_str(d),
            RawValue::Seq(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            RawValue::Map(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k.as_ref(), v)?;
                }
                map.end()
            }
        }
    }
}
