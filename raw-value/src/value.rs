use std::borrow::Cow;

use crate::Datetime;

/// A borrowed, order-preserving value that every quarry format can produce and consume.
///
/// Strings are [`Cow::Borrowed`] from the input when no escape had to be decoded.
/// Integers use [`RawValue::Int`] whenever they fit an `i64`; [`RawValue::UInt`] holds
/// only values above `i64::MAX` (the `From` conversions keep that canonical form).
/// Maps are lists of pairs: order and duplicate keys stay visible to the decoder.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RawValue<'a> {
    /// An explicit null (JSON `null`, YAML `~`).
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer (every integer that fits in `i64`).
    Int(i64),
    /// An unsigned integer above `i64::MAX`.
    UInt(u64),
    /// A floating-point number.
    Float(f64),
    /// A number too large for 64 bits (or for `f64`), kept losslessly as its source text.
    BigNumber(Cow<'a, str>),
    /// A string that the format typed as a string.
    String(Cow<'a, str>),
    /// Untyped text (XML character data): decoders may parse numbers and booleans from it.
    Text(Cow<'a, str>),
    /// Binary data (plist `<data>`).
    Bytes(Cow<'a, [u8]>),
    /// A date, time or both (TOML's four kinds, plist dates).
    Datetime(Datetime),
    /// A sequence.
    Seq(Vec<RawValue<'a>>),
    /// A map as key/value pairs in document order.
    Map(Vec<(Cow<'a, str>, RawValue<'a>)>),
}

impl<'a> RawValue<'a> {
    /// A short name for the kind of value, as used in error messages (`"string"`, `"map"`).
    pub fn kind_name(&self) -> &'static str {
        match self {
            RawValue::Null => "null",
            RawValue::Bool(_) => "boolean",
            RawValue::Int(_) | RawValue::UInt(_) | RawValue::BigNumber(_) => "integer",
            RawValue::Float(_) => "float",
            RawValue::String(_) => "string",
            RawValue::Text(_) => "text",
            RawValue::Bytes(_) => "bytes",
            RawValue::Datetime(_) => "datetime",
            RawValue::Seq(_) => "sequence",
            RawValue::Map(_) => "map",
        }
    }

    /// The string content of a [`RawValue::String`] or [`RawValue::Text`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            RawValue::String(s) | RawValue::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The value under `key` in a map (the first one, if the key is duplicated).
    pub fn get(&self, key: &str) -> Option<&RawValue<'a>> {
        match self {
            RawValue::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Copies every borrowed string so the value no longer borrows from the input.
    pub fn into_owned(self) -> RawValue<'static> {
        fn own(s: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(s.into_owned())
        }
        match self {
            RawValue::Null => RawValue::Null,
            RawValue::Bool(b) => RawValue::Bool(b),
            RawValue::Int(i) => RawValue::Int(i),
            RawValue::UInt(u) => RawValue::UInt(u),
            RawValue::Float(f) => RawValue::Float(f),
            RawValue::BigNumber(s) => RawValue::BigNumber(own(s)),
            RawValue::String(s) => RawValue::String(own(s)),
            RawValue::Text(s) => RawValue::Text(own(s)),
            RawValue::Bytes(b) => RawValue::Bytes(Cow::Owned(b.into_owned())),
            RawValue::Datetime(d) => RawValue::Datetime(d),
            RawValue::Seq(items) => {
                RawValue::Seq(items.into_iter().map(RawValue::into_owned).collect())
            }
            RawValue::Map(entries) => RawValue::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (own(k), v.into_owned()))
                    .collect(),
            ),
        }
    }
}

impl From<bool> for RawValue<'_> {
    fn from(v: bool) -> Self {
        RawValue::Bool(v)
    }
}

impl From<i64> for RawValue<'_> {
    fn from(v: i64) -> Self {
        RawValue::Int(v)
    }
}

impl From<u64> for RawValue<'_> {
    fn from(v: u64) -> Self {
        match i64::try_from(v) {
            Ok(i) => RawValue::Int(i),
            Err(_) => RawValue::UInt(v),
        }
    }
}

impl From<f64> for RawValue<'_> {
    fn from(v: f64) -> Self {
        RawValue::Float(v)
    }
}

impl<'a> From<&'a str> for RawValue<'a> {
    fn from(v: &'a str) -> Self {
        RawValue::String(Cow::Borrowed(v))
    }
}

impl From<String> for RawValue<'_> {
    fn from(v: String) -> Self {
        RawValue::String(Cow::Owned(v))
    }
}
