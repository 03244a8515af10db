//! The direct JSON path: what a type needs from a JSON reader to decode itself straight
//! from the bytes, without building a [`RawValue`] first. Any reader with JSON's data
//! model can offer it: quarry's binary plist reader does too.
//!
//! The path is optimistic. Any surprise — a syntax error, a value of the wrong type, a
//! missing or duplicated field, a failed constraint — returns [`Fallback`], and the caller
//! decodes the document again through [`RawValue`], which produces the exact, accumulated
//! errors. So both paths give the same result for every input, and the direct path carries
//! no error bookkeeping at all.

use std::borrow::Cow;
use std::ops::Deref;

use crate::RawValue;

/// The direct path gave up; decode through [`RawValue`] to learn why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fallback;

/// The kind of a JSON value: what the direct path peeks before reading one, and what a
/// node of the JSON tree is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// `[`.
    Array,
    /// `{`.
    Object,
}

impl JsonKind {
    /// The kind's name as the CLI prints it (`"object"`).
    pub fn name(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool => "bool",
            JsonKind::Number => "number",
            JsonKind::String => "string",
            JsonKind::Array => "array",
            JsonKind::Object => "object",
        }
    }
}

/// A string read by a [`JsonSource`]: borrowed from the input, or decoded into the
/// reader's scratch buffer (valid until the next read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonStr<'de, 's> {
    /// Straight from the input: no escape was decoded.
    Borrowed(&'de str),
    /// Decoded into the reader's scratch buffer.
    Transient(&'s str),
}

impl<'de, 's> JsonStr<'de, 's> {
    /// The text of `cow` as a reader hands it out: a borrow stays one, an owned string
    /// is kept in the reader's `scratch` buffer and lent from there.
    #[inline]
    pub fn from_cow(cow: Cow<'de, str>, scratch: &'s mut String) -> Self {
        match cow {
            Cow::Borrowed(s) => JsonStr::Borrowed(s),
            Cow::Owned(s) => {
                *scratch = s;
                JsonStr::Transient(scratch)
            }
        }
    }
}

impl<'de> JsonStr<'de, '_> {
    /// Keeps the borrow, or copies the transient text.
    #[inline]
    pub fn into_cow(self) -> Cow<'de, str> {
        match self {
            JsonStr::Borrowed(s) => Cow::Borrowed(s),
            JsonStr::Transient(s) => Cow::Owned(s.to_owned()),
        }
    }
}

impl Deref for JsonStr<'_, '_> {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        match *self {
            JsonStr::Borrowed(s) | JsonStr::Transient(s) => s,
        }
    }
}

/// A JSON reader positioned before a value. `quarry_formats::json::Parser` and
/// `quarry_formats::plist::BinarySource` implement it; the derive's generated
/// `decode_json` and the std impls call it.
pub trait JsonSource<'de> {
    /// The kind of the next value (whitespace skipped); `Fallback` at the end of input.
    fn peek_token(&mut self) -> Result<JsonKind, Fallback>;
    /// Reads `null`.
    fn read_null(&mut self) -> Result<(), Fallback>;
    /// Reads `true` or `false`.
    fn read_bool(&mut self) -> Result<bool, Fallback>;
    /// Reads a number as [`RawValue::Int`], `UInt`, `Float` or `BigNumber`.
    fn read_number(&mut self) -> Result<RawValue<'de>, Fallback>;
    /// Reads an integer that fits `i64` (anything else falls back).
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        match self.read_number()? {
            RawValue::Int(i) => Ok(i),
            _ => Err(Fallback),
        }
    }
    /// Reads a non-negative integer that fits `u64` (anything else falls back).
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        match self.read_number()? {
            RawValue::Int(i) => u64::try_from(i).map_err(|_| Fallback),
            RawValue::UInt(u) => Ok(u),
            _ => Err(Fallback),
        }
    }
    /// Reads a string.
    fn read_str(&mut self) -> Result<JsonStr<'de, '_>, Fallback>;
    /// Reads a string into a `String` of its own; a reader that already decoded it
    /// into one hands that over.
    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        self.read_str().map(|s| (*s).to_owned())
    }
    /// Reads a string, borrowed from the input when it can be; a reader that already
    /// decoded it into a `String` hands that over.
    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'de, str>, Fallback> {
        self.read_str().map(JsonStr::into_cow)
    }
    /// Reads `[` (checking the depth limit).
    fn begin_array(&mut self) -> Result<(), Fallback>;
    /// Moves to the next array item: `true` if one follows, `false` after reading `]`.
    /// `first` is true for the call right after [`JsonSource::begin_array`].
    fn next_item(&mut self, first: bool) -> Result<bool, Fallback>;
    /// Right after [`JsonSource::begin_array`]: how many items the array holds, when
    /// the reader knows before reading them (binary plists do); 0 when it does not.
    fn len_hint(&self) -> usize {
        0
    }
    /// Reads `{` (checking the depth limit).
    fn begin_object(&mut self) -> Result<(), Fallback>;
    /// Reads the next member's key and its `:`; `None` after reading `}`.
    /// `first` is true for the call right after [`JsonSource::begin_object`].
    ///
    /// A key may come twice: a JSON object may repeat one, and a TOML table that was
    /// skipped may be handed out again when a later header adds to it. A decoder
    /// decides on each key by its text, and falls back when one it reads repeats.
    fn next_key(&mut self, first: bool) -> Result<Option<JsonStr<'de, '_>>, Fallback>;
    /// Skips one value, validating it.
    fn skip_value(&mut self) -> Result<(), Fallback>;
    /// Reads one value as a [`RawValue`].
    fn read_raw(&mut self) -> Result<RawValue<'de>, Fallback>;
}
