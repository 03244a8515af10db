//! The pull path: what a type needs from a reader to decode itself straight from the
//! bytes, without building a [`RawValue`] first. A reader hands out values in JSON's data
//! model (null, bool, number, string, array, object) and may hand anything richer (a TOML
//! datetime, plist data) over as a [`RawValue`]. Each format with a direct path
//! implements it in its `DirectSource`: JSON, TOML, YAML, XML and binary property lists.
//!
//! The path is optimistic. Any surprise — a syntax error, a value of the wrong type, a
//! missing or duplicated field, a failed constraint — returns [`Fallback`], and the caller
//! decodes the document again through [`RawValue`], which produces the exact, accumulated
//! errors. So both paths give the same result for every input, and the direct path carries
//! no error bookkeeping at all.

use std::borrow::Cow;
use std::ops::Deref;

use crate::{Position, RawValue};

/// The direct path gave up; decode through [`RawValue`] to learn why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fallback;

/// The kind of the next value in JSON's data model: what a [`PullSource`] peeks before
/// reading one (and what a node of the JSON tree is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
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

impl ValueKind {
    /// The kind's name as the CLI prints it (`"object"`).
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Null => "null",
            ValueKind::Bool => "bool",
            ValueKind::Number => "number",
            ValueKind::String => "string",
            ValueKind::Array => "array",
            ValueKind::Object => "object",
        }
    }
}

/// Text as a reader hands it over: borrowed from the input when nothing had to be
/// decoded, otherwise decoded into the reader's scratch buffer, valid until the next
/// read (a builder or decoder that keeps it copies it).
///
/// Every parser uses it: JSON and TOML strings and keys, YAML scalars, XML character
/// data and attribute values, plist strings. (It is not [`RawValue::Text`], the
/// untyped text of XML that `Decode` parses numbers from.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRef<'de, 's> {
    /// Exactly the input's bytes: no escape or reference was decoded.
    Borrowed(&'de str),
    /// Decoded into the reader's scratch buffer.
    Decoded(&'s str),
}

impl<'de, 's> TextRef<'de, 's> {
    /// The text of `cow` as a reader hands it out: a borrow stays one, an owned string
    /// is kept in the reader's `scratch` buffer and lent from there.
    #[inline]
    pub fn from_cow(cow: Cow<'de, str>, scratch: &'s mut String) -> Self {
        match cow {
            Cow::Borrowed(s) => TextRef::Borrowed(s),
            Cow::Owned(s) => {
                *scratch = s;
                TextRef::Decoded(scratch)
            }
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match *self {
            TextRef::Borrowed(s) | TextRef::Decoded(s) => s,
        }
    }

    /// True when the text is borrowed from the input.
    #[inline]
    pub fn is_borrowed(&self) -> bool {
        matches!(self, TextRef::Borrowed(_))
    }
}

impl<'de> TextRef<'de, '_> {
    /// Keeps the borrow, or copies the decoded text.
    #[inline]
    pub fn into_cow(self) -> Cow<'de, str> {
        match self {
            TextRef::Borrowed(s) => Cow::Borrowed(s),
            TextRef::Decoded(s) => Cow::Owned(s.to_owned()),
        }
    }
}

/// `s` as a `String` of its own, with room for exactly its bytes. Up to 32 bytes (names,
/// words, short values) are copied inline by two loads and stores of a fixed width that
/// overlap in the middle, rather than by `to_owned`'s call to `memcpy`, whose size
/// dispatch costs more than such a copy.
#[doc(hidden)]
#[inline(always)]
pub fn owned_string(s: &str) -> String {
    let src = s.as_bytes();
    let len = src.len();
    if len == 0 || len > 32 {
        return s.to_owned();
    }
    let mut out: Vec<u8> = Vec::with_capacity(len);
    let (from, to) = (src.as_ptr(), out.as_mut_ptr());
    // SAFETY: `out` has room for `len` bytes and `src` holds `len`; each copy below reads
    // and writes `W` bytes at offset 0 and at `len - W`, with `W <= len` in its branch, so
    // every access is inside both buffers, and the two together cover all `len` bytes
    // (they overlap when `len < 2 * W`). The buffers are distinct allocations. The bytes
    // are `s`'s, so the `String` holds UTF-8.
    #[allow(unsafe_code)]
    unsafe {
        if len >= 16 {
            std::ptr::copy_nonoverlapping(from, to, 16);
            std::ptr::copy_nonoverlapping(from.add(len - 16), to.add(len - 16), 16);
        } else if len >= 8 {
            std::ptr::copy_nonoverlapping(from, to, 8);
            std::ptr::copy_nonoverlapping(from.add(len - 8), to.add(len - 8), 8);
        } else if len >= 4 {
            std::ptr::copy_nonoverlapping(from, to, 4);
            std::ptr::copy_nonoverlapping(from.add(len - 4), to.add(len - 4), 4);
        } else {
            *to = *from;
            *to.add(len / 2) = *from.add(len / 2);
            *to.add(len - 1) = *from.add(len - 1);
        }
        out.set_len(len);
        String::from_utf8_unchecked(out)
    }
}

/// `cow` as a `String`: an owned one as it is, a borrowed one copied by
/// [`owned_string`].
#[doc(hidden)]
#[inline(always)]
pub fn cow_into_string(cow: Cow<'_, str>) -> String {
    match cow {
        Cow::Borrowed(s) => owned_string(s),
        Cow::Owned(s) => s,
    }
}

impl Deref for TextRef<'_, '_> {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

/// A key with no `"`, `\` or control character, which a reader of text may therefore
/// compare with the input's bytes as they stand, escapes unread
/// ([`PullSource::next_key_guessed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlainKey<'k>(&'k [u8]);

impl<'k> PlainKey<'k> {
    /// `key`, if it is plain. A `const fn`, so a key known at compile time is checked
    /// there.
    pub const fn new(key: &'k str) -> Option<Self> {
        let bytes = key.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'"' || bytes[i] == b'\\' || bytes[i] < 0x20 || bytes[i] == 0x7F {
                return None;
            }
            i += 1;
        }
        Some(PlainKey(bytes))
    }

    /// The key's bytes (UTF-8).
    #[inline(always)]
    pub fn as_bytes(self) -> &'k [u8] {
        self.0
    }
}

/// Names (a struct's fields), each checked once for whether it is a [`PlainKey`]: what a
/// decoder that guesses keys keeps. They lie end to end in one buffer, so a guess is a
/// slice, not a pointer chased per key.
#[derive(Debug, Clone, Default)]
pub struct PlainKeys {
    text: Vec<u8>,
    /// Where each name starts and ends in `text`, and whether it is plain.
    spans: Vec<(u32, u32, bool)>,
}

impl PlainKeys {
    /// Room for `names` more names of `bytes` bytes in all.
    pub fn reserve(&mut self, names: usize, bytes: usize) {
        self.spans.reserve(names);
        self.text.reserve(bytes);
    }

    /// The bytes of the `count` names from `from`.
    #[inline]
    pub fn names(&self, from: usize, count: usize) -> impl Iterator<Item = &[u8]> + '_ {
        self.spans[from..from + count]
            .iter()
            .map(|&(start, end, _)| &self.text[start as usize..end as usize])
    }

    /// Adds `name` after the others; its index is the count before.
    #[inline]
    pub fn push(&mut self, name: &str) {
        let start = self.text.len() as u32;
        self.text.extend_from_slice(name.as_bytes());
        let plain = PlainKey::new(name).is_some();
        self.spans.push((start, self.text.len() as u32, plain));
    }

    /// How many names.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The bytes of name `i`.
    #[inline(always)]
    pub fn name(&self, i: usize) -> &[u8] {
        let (start, end, _) = self.spans[i];
        &self.text[start as usize..end as usize]
    }

    /// Name `i` as a plain key; `None` when it is not plain.
    #[inline(always)]
    pub fn plain(&self, i: usize) -> Option<PlainKey<'_>> {
        let &(start, end, plain) = self.spans.get(i)?;
        match self.text.get(start as usize..end as usize) {
            Some(name) if plain => Some(PlainKey(name)),
            _ => None,
        }
    }
}

/// What [`PullSource::next_key_guessed`] read.
#[derive(Debug)]
pub enum GuessedKey<'de, 's> {
    /// The `}`: no key.
    End,
    /// The key guessed.
    Guessed,
    /// Another key.
    Other(TextRef<'de, 's>),
}

impl<'de, 's> GuessedKey<'de, 's> {
    /// What a reader that read the key (`None` at the `}`) answers for `guess`: the
    /// default [`PullSource::next_key_guessed`], and a reader's own where it had to read
    /// the key after all.
    #[inline]
    pub fn compare(key: Option<TextRef<'de, 's>>, guess: PlainKey<'_>) -> Self {
        match key {
            None => GuessedKey::End,
            Some(key) if key.as_bytes() == guess.as_bytes() => GuessedKey::Guessed,
            Some(key) => GuessedKey::Other(key),
        }
    }
}

/// A number as the machine type that holds it, as [`PullSource::read_num`] reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer that fits `i64`.
    I64(i64),
    /// A non-negative integer beyond `i64`.
    U64(u64),
    /// A float, or an integer beyond 64 bits as its nearest float.
    F64(f64),
}

/// A reader positioned before a value, pulled one step at a time. Each format's
/// `DirectSource` in `quarry_formats` implements it; the derive's generated
/// `decode_direct` and the std impls call it.
pub trait PullSource<'de> {
    /// Whether [`PullSource::next_key_guessed`] compares a guess in place, faster than
    /// reading the key (JSON's does); a decoder guesses only from a source that does,
    /// and otherwise reads keys and compares them itself.
    const GUESSES_IN_PLACE: bool = false;

    /// Whether a value peeked as [`ValueKind::String`] is a string, which only
    /// string-like types read (JSON's, YAML's, TOML's and binary plists' are). When false
    /// (the default, the safe answer), it may be untyped text that numbers and booleans
    /// read from too, as XML's is: an untagged enum then passes over no newtype variant
    /// for it.
    const TYPED_STRINGS: bool = false;

    /// How values read from this source decode what its format cannot mark:
    /// [`DecodeOptions::XML`] from XML's source (a single child element may stand for a
    /// list of one, and a missing one for an empty list),
    /// [`DecodeOptions::STRICT`] (the default) from the others. Decoders read it where
    /// the rule applies, and pass it to [`Decode::decode_with_options`] when they read a
    /// value as a [`RawValue`].
    ///
    /// [`Decode::decode_with_options`]: crate::Decode::decode_with_options
    /// [`DecodeOptions::XML`]: crate::DecodeOptions::XML
    /// [`DecodeOptions::STRICT`]: crate::DecodeOptions::STRICT
    #[inline]
    fn decode_options(&self) -> crate::DecodeOptions {
        crate::DecodeOptions::STRICT
    }

    /// The kind of the next value (whitespace skipped); `Fallback` at the end of input.
    fn peek_token(&mut self) -> Result<ValueKind, Fallback>;
    /// Reads `null`.
    fn read_null(&mut self) -> Result<(), Fallback>;
    /// Reads `true` or `false`.
    fn read_bool(&mut self) -> Result<bool, Fallback>;
    /// Reads a number as [`RawValue::Int`], `UInt`, `Float` or `BigNumber`.
    fn read_number(&mut self) -> Result<RawValue<'de>, Fallback>;
    /// Reads a number as the machine type that holds it ([`Num`]); a reader of text may
    /// convert it without building a [`RawValue`] (whose drop is a call).
    #[inline]
    fn read_num(&mut self) -> Result<Num, Fallback> {
        match self.read_number()? {
            RawValue::Int(v) => Ok(Num::I64(v)),
            RawValue::UInt(v) => Ok(Num::U64(v)),
            RawValue::Float(v) => Ok(Num::F64(v)),
            RawValue::BigNumber(text) => Ok(Num::F64(text.parse().unwrap_or(f64::NAN))),
            _ => Err(Fallback),
        }
    }
    /// [`PullSource::read_num`] for a consumer that expects a float (serde's
    /// `deserialize_f64`): the same answer, which a reader of text may reach by trying
    /// its float scan first.
    #[inline]
    fn read_num_expecting_float(&mut self) -> Result<Num, Fallback> {
        self.read_num()
    }
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
    /// Reads a number as an `f64`, as `f64`'s [`Decode`](crate::Decode) takes it from
    /// [`PullSource::read_number`] (the default); a reader of untyped text may convert it
    /// without building a [`RawValue`].
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Fallback> {
        match self.read_number()? {
            RawValue::Float(f) => Ok(f),
            RawValue::Int(i) => Ok(i as f64),
            RawValue::UInt(u) => Ok(u as f64),
            other => <f64 as crate::Decode>::decode(other).map_err(|_| Fallback),
        }
    }
    /// Reads a string.
    fn read_str(&mut self) -> Result<TextRef<'de, '_>, Fallback>;
    /// Reads a string into a `String` of its own; a reader that already decoded it
    /// into one hands that over.
    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        self.read_str().map(|s| owned_string(&s))
    }
    /// Reads a string onto the end of `out`; a reader that decodes escapes may decode
    /// them there, with no copy in between (JSON's does). On a failure `out` may have
    /// grown.
    #[inline]
    fn read_str_onto(&mut self, out: &mut String) -> Result<(), Fallback> {
        out.push_str(&self.read_str()?);
        Ok(())
    }
    /// Reads a string, borrowed from the input when it can be; a reader that already
    /// decoded it into a `String` hands that over.
    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'de, str>, Fallback> {
        self.read_str().map(TextRef::into_cow)
    }
    /// Reads `[` (checking the depth limit).
    fn begin_array(&mut self) -> Result<(), Fallback>;
    /// Moves to the next array item: `true` if one follows, `false` after reading `]`.
    /// `first` is true for the call right after [`PullSource::begin_array`].
    fn next_item(&mut self, first: bool) -> Result<bool, Fallback>;
    /// Right after [`PullSource::begin_array`]: how many items the array holds, when
    /// the reader knows before reading them (binary plists do); 0 when it does not.
    fn len_hint(&self) -> usize {
        0
    }
    /// Reads `{` (checking the depth limit).
    fn begin_object(&mut self) -> Result<(), Fallback>;
    /// Reads the next member's key and its `:`; `None` after reading `}`.
    /// `first` is true for the call right after [`PullSource::begin_object`].
    ///
    /// A key may come twice: a JSON object may repeat one, and a TOML table that was
    /// skipped may be handed out again when a later header adds to it. A decoder
    /// decides on each key by its text, and falls back when one it reads repeats.
    fn next_key(&mut self, first: bool) -> Result<Option<TextRef<'de, '_>>, Fallback>;
    /// [`PullSource::next_key`], told which key is likely next: [`GuessedKey::Guessed`]
    /// when it is `guess`. A reader of text compares `guess` with the input in place
    /// instead of scanning the key (JSON's does); the default reads the key and compares.
    #[inline]
    fn next_key_guessed(
        &mut self,
        first: bool,
        guess: PlainKey<'_>,
    ) -> Result<GuessedKey<'de, '_>, Fallback> {
        Ok(GuessedKey::compare(self.next_key(first)?, guess))
    }
    /// After [`PullSource::begin_object`] (and an internal tag, the one key a decoder may
    /// read first): the decoder reading the object passes over every key but `known` (a
    /// struct without `deny_unknown_fields`). A reader
    /// whose objects may be added to later in the document (a TOML table that a later
    /// header extends) may then pass over such additions where they stand, instead of
    /// handing them out or falling back; the default does nothing.
    #[inline]
    fn ignores_keys_but(&mut self, known: &'static [&'static str]) {
        let _ = known;
    }
    /// Skips one value, validating it.
    fn skip_value(&mut self) -> Result<(), Fallback>;
    /// Reads one value as a [`RawValue`].
    fn read_raw(&mut self) -> Result<RawValue<'de>, Fallback>;
    /// Where the next value starts, as the format's tree places its node: the byte
    /// offset in the document, with its line and column where the document has lines (a
    /// binary plist has none). A type that keeps where it came from (the facade's
    /// `Spanned<T>`) asks before reading its value, then asks
    /// [`PullSource::value_end`]. A reader that cannot tell falls back (the default), and
    /// the value is then placed through the RawValue path.
    #[inline]
    fn value_start(&mut self) -> Result<(usize, Option<Position>), Fallback> {
        Err(Fallback)
    }
    /// Where the value read since [`PullSource::value_start`] ends: one past its last
    /// byte, as the format's tree places its node's end. A reader that cannot tell falls
    /// back (the default).
    #[inline]
    fn value_end(&mut self) -> Result<usize, Fallback> {
        Err(Fallback)
    }
    /// After the top value: checks that the whole document was read (only whitespace,
    /// comments or the end of the stream left). The facade calls it once the value has
    /// decoded; decoders never do.
    ///
    /// It borrows the source, so a facade reads and finishes the source where it was
    /// built: taking it by value would copy the whole source out of its `Result` first,
    /// twice, which a small document's decode feels.
    fn finish(&mut self) -> Result<(), Fallback>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key is plain unless a reader of text could not compare it in place: a quote, a
    /// backslash, a control character or DEL.
    #[test]
    fn plain_keys_are_those_a_reader_may_compare_in_place() {
        const ID: Option<PlainKey<'static>> = PlainKey::new("id");
        assert_eq!(ID.map(PlainKey::as_bytes), Some(&b"id"[..]));
        for key in ["", "a b", "naïve", "日本", "a/b", "~"] {
            assert!(PlainKey::new(key).is_some(), "{key:?}");
        }
        for key in ["a\"b", "a\\b", "a\nb", "\u{0}", "\u{1f}", "\u{7f}"] {
            assert!(PlainKey::new(key).is_none(), "{key:?}");
        }
        let mut keys = PlainKeys::default();
        for name in ["id", "a\"b", "naïve"] {
            keys.push(name);
        }
        assert_eq!(keys.len(), 3);
        assert_eq!(keys.plain(0).map(PlainKey::as_bytes), Some(&b"id"[..]));
        assert_eq!(keys.plain(1), None);
        assert_eq!(
            keys.plain(2).map(PlainKey::as_bytes),
            Some("naïve".as_bytes())
        );
        assert_eq!(keys.plain(3), None);
        let names: Vec<&[u8]> = keys.names(1, 2).collect();
        assert_eq!(names, [&b"a\"b"[..], "naïve".as_bytes()]);
    }

    /// Every length to 48 (each copy width, the overlaps, the `memcpy` beyond), at every
    /// offset into a longer text, ASCII and multi-byte: the copy is the text, with room
    /// for exactly its bytes; a borrowed `Cow` is copied, an owned one handed over.
    #[test]
    fn owned_string_copies_every_length_exactly() {
        let ascii: String = (0..64u8).map(|i| char::from(b'!' + i)).collect();
        let wide = "aé日🚀".repeat(12);
        for text in [&ascii[..], &wide[..]] {
            for start in 0..8 {
                for end in start..=(start + 48).min(text.len()) {
                    let Some(s) = text.get(start..end) else {
                        continue;
                    };
                    let copy = owned_string(s);
                    assert_eq!(copy, s, "{start}..{end}");
                    assert_eq!(copy.capacity(), s.len(), "{start}..{end}");
                }
            }
        }
        let owned = String::from("handed over");
        let at = owned.as_ptr();
        let handed = cow_into_string(Cow::Owned(owned));
        assert_eq!(handed.as_ptr(), at);
        assert_eq!(cow_into_string(Cow::Borrowed("copied")), "copied");
    }
}
