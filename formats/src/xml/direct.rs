//! XML's direct path: [`DirectSource`], the [`PullSource`] derived types read a document
//! from without a [`RawValue`] in between.
//!
//! The parser fills a flat tape (the [`XmlBuilder`] here): one entry per element, each
//! followed by one per attribute, with the element's text kept as the struct door keeps
//! it ([`TextRuns`]) and the index where its subtree ends. The source walks the tape by
//! the struct door's mapping (see [`RawValueBuilder`](super::RawValueBuilder)): an
//! element without attributes and child elements is text; any other is a map of
//! `"@name"` attributes, child elements by name and `"$text"` last. A run of adjacent
//! children of one name is a sequence. A name that comes back after another child is
//! handed out again, and the decoder falls back on the repeated key, as the pull
//! contract has it; so the grouping of the RawValue path is never needed here.
//!
//! Text is untyped: numbers and booleans are read from it as [`Decode`] reads them from
//! [`RawValue::Text`](quarry_raw_value::RawValue::Text). Whatever the mapping has no
//! cheap answer for ([`PullSource::read_raw`], `null`) falls back.
//!
//! [`Decode`]: quarry_raw_value::Decode

use std::borrow::Cow;
use std::cell::Cell;

use quarry_raw_value::pull::owned_string;
use quarry_raw_value::{Fallback, Position, PullSource, RawValue, TextRef as PullText, ValueKind};

use crate::common::{
    fold_digits, keep_spare, plain_decimal, same_bytes, take_spare, Limits, LineCursor, Span,
};

use super::builder::{StartTag, TextRef, XmlBuilder};
use super::raw::TextRuns;
use super::{parse_with, Error, ErrorKind, TEXT_KEY};

/// A string on the tape: `len` bytes of the source at `at`, the owned string at index
/// `at` ([`OWNED`]), or none ([`NONE`]). Eight bytes where a `Cow` takes 24: on a large
/// document the tape is written and read once, and its size is the cost.
#[derive(Debug, Clone, Copy)]
struct Slot {
    at: u32,
    len: u32,
}

/// The most entries (and owned strings) a tape takes: its indices and its attribute
/// counts (shifted by one) are `u32`.
const MAX_ENTRIES: usize = (u32::MAX >> 1) as usize;

/// [`Slot::len`] of an owned string.
const OWNED: u32 = u32::MAX - 1;
/// [`Slot::len`] of no string.
const NONE: u32 = u32::MAX;

impl Slot {
    const NONE: Slot = Slot { at: 0, len: NONE };

    #[inline]
    fn is_some(self) -> bool {
        self.len != NONE
    }
}

/// An element or an attribute on the tape.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The qualified name.
    name: Slot,
    /// An element's text ([`TextRuns`]); an attribute's value.
    text: Slot,
    /// An element: the index of the first entry after its subtree (its attributes and
    /// descendants), that is, of its next sibling. 0 for an attribute.
    end: u32,
    /// An element: how many attribute entries follow it, times two, plus one when it has
    /// child elements.
    shape: u32,
}

impl Entry {
    /// An element with attributes or child elements: a map, not text.
    #[inline]
    fn is_map(&self) -> bool {
        self.shape != 0
    }

    /// How many attribute entries follow the element.
    #[inline]
    fn attributes(&self) -> usize {
        (self.shape >> 1) as usize
    }
}

/// The strings of the tape: the source its borrowed strings are ranges of, and the
/// strings it owns (decoded text, and everything of a transcoded document).
#[derive(Debug, Default)]
struct Strings<'a> {
    src: &'a str,
    owned: Vec<String>,
}

impl<'a> Strings<'a> {
    /// Keeps `src` as the source strings borrow from, unless it is too long for a
    /// [`Slot`]'s offsets (its strings are then owned).
    fn set_source(&mut self, src: &'a str) {
        if src.len() < OWNED as usize {
            self.src = src;
        }
    }

    /// The slot of `text`: a range of the source when it borrows from it, else owned.
    #[inline(always)]
    fn slot(&mut self, text: Cow<'a, str>) -> Slot {
        if let Cow::Borrowed(s) = text {
            let at = (s.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize);
            if at <= self.src.len() && s.len() <= self.src.len() - at {
                // Both fit: the source is shorter than `OWNED`.
                return Slot {
                    at: at as u32,
                    len: s.len() as u32,
                };
            }
        }
        self.own(text.into_owned())
    }

    /// The slot of an owned string.
    #[inline(never)]
    fn own(&mut self, text: String) -> Slot {
        // Past `MAX_ENTRIES` the tape is refused in `new`.
        let at = self.owned.len().min(MAX_ENTRIES) as u32;
        self.owned.push(text);
        Slot { at, len: OWNED }
    }

    /// The text of `slot`, `None` for none.
    #[inline(always)]
    fn get(&self, slot: Slot) -> Option<PullText<'a, '_>> {
        match slot.len {
            NONE => None,
            OWNED => Some(PullText::Decoded(
                self.owned.get(slot.at as usize).map_or("", String::as_str),
            )),
            len => {
                let at = slot.at as usize;
                Some(PullText::Borrowed(
                    self.src.get(at..at + len as usize).unwrap_or(""),
                ))
            }
        }
    }

    /// Whether the names in `a` and `b` are the same (their lengths tell most apart).
    #[inline(always)]
    fn same(&self, a: Slot, b: Slot) -> bool {
        if a.len != b.len && a.len != OWNED && b.len != OWNED {
            return false;
        }
        same_bytes(self.str(a).as_bytes(), self.str(b).as_bytes())
    }

    /// The text of `slot`, empty for none.
    #[inline(always)]
    fn str(&self, slot: Slot) -> &str {
        match self.get(slot) {
            Some(PullText::Borrowed(s) | PullText::Decoded(s)) => s,
            None => "",
        }
    }
}

/// The builder that fills the tape.
#[derive(Debug, Default)]
struct Tape<'a> {
    entries: Vec<Entry>,
    strings: Strings<'a>,
    /// The open elements: their entries and their text so far.
    open: Vec<(usize, TextRuns<'a>)>,
}

impl<'a> XmlBuilder<'a> for Tape<'a> {
    #[inline]
    fn source(&mut self, src: &'a str) {
        self.strings.set_source(src);
    }

    #[inline]
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        if let Some((parent, text)) = self.open.last_mut() {
            text.end_run();
            self.entries[*parent].shape |= 1;
        }
        let at = self.entries.len();
        let attributes = tag.attributes();
        let name = self.strings.slot(tag.name().clone());
        self.entries.push(Entry {
            name,
            text: Slot::NONE,
            end: 0,
            // A count past `MAX_ENTRIES` is cut here, and the tape refused in `new`.
            shape: (attributes.len().min(MAX_ENTRIES) as u32) << 1,
        });
        for attribute in attributes {
            let name = self.strings.slot(attribute.name().clone());
            let text = self.strings.slot(attribute.value().into_cow());
            self.entries.push(Entry {
                name,
                text,
                end: 0,
                shape: 0,
            });
        }
        self.open.push((at, TextRuns::default()));
    }

    #[inline(always)]
    fn end_element(&mut self, _: Span) {
        if let Some((at, mut text)) = self.open.pop() {
            let end = self.entries.len().min(MAX_ENTRIES) as u32;
            let text = match text.take() {
                Some(text) => self.strings.slot(text),
                None => Slot::NONE,
            };
            let entry = &mut self.entries[at];
            entry.text = text;
            entry.end = end;
        }
    }

    #[inline]
    fn text(&mut self, text: TextRef<'a, '_>, _: Span) {
        if let Some((_, runs)) = self.open.last_mut() {
            runs.push(text);
        }
    }

    #[inline]
    fn comment(&mut self, _: TextRef<'a, '_>, _: Span) {
        if let Some((_, runs)) = self.open.last_mut() {
            runs.end_run();
        }
    }

    #[inline]
    fn processing_instruction(&mut self, _: TextRef<'a, '_>, _: TextRef<'a, '_>, _: Span) {
        if let Some((_, runs)) = self.open.last_mut() {
            runs.end_run();
        }
    }
}

/// The value the next read is of.
#[derive(Debug, Clone, Copy)]
enum Value {
    /// The element at this entry: text, or a map.
    Element(usize),
    /// A run of adjacent elements of one name (two or more): its first entry and its
    /// length. A sequence.
    Run(usize, usize),
    /// The value of the attribute at this entry.
    Attribute(usize),
    /// The `"$text"` of the (map) element at this entry.
    Text(usize),
}

/// A map or a sequence the decoder has opened.
#[derive(Debug)]
enum Open {
    /// A map element: the entry of the next attribute or child, where its attributes
    /// and the element end, and whether its `"$text"` is still to come.
    Map {
        element: usize,
        next: usize,
        attributes_end: usize,
        end: usize,
        text_left: bool,
    },
    /// A run: the entry of the next item, and how many are left.
    Run { next: usize, left: usize },
}

/// The direct path over an XML document: a [`PullSource`] positioned before the root
/// element's value (the struct door decodes a struct from the root element itself).
///
/// The whole document is parsed first, with every check of [`parse_with`], into a flat
/// tape; reading then walks the tape. It decodes under
/// [`DecodeOptions::XML`](quarry_raw_value::DecodeOptions::XML)
/// ([`PullSource::decode_options`]), as the RawValue path of an XML document should: a
/// `Vec` takes one child element as a one-element sequence on both paths.
#[derive(Debug)]
pub struct DirectSource<'a> {
    entries: Vec<Entry>,
    strings: Strings<'a>,
    open: Vec<Open>,
    next: Value,
    /// The `"@name"` key of the attribute last handed out.
    scratch: String,
    /// Where lines start, counted as far as a value was placed.
    lines: LineCursor,
    /// Where each value placed by [`PullSource::value_start`] and not yet read ends.
    ends: Vec<usize>,
}

thread_local! {
    /// The lists of the last source this thread dropped, emptied, for the next document
    /// (see [`take_spare`]): its tape, the tape's open elements while it was built, and
    /// the decoder's open maps and sequences.
    static SPARE_ENTRIES: Cell<Vec<Entry>> = const { Cell::new(Vec::new()) };
    static SPARE_TAPE_OPEN: Cell<Vec<(usize, TextRuns<'static>)>> = const { Cell::new(Vec::new()) };
    static SPARE_OPEN: Cell<Vec<Open>> = const { Cell::new(Vec::new()) };
}

impl Drop for DirectSource<'_> {
    fn drop(&mut self) {
        keep_spare(&SPARE_ENTRIES, std::mem::take(&mut self.entries));
        keep_spare(&SPARE_OPEN, std::mem::take(&mut self.open));
    }
}

impl<'a> DirectSource<'a> {
    /// Parses `input` under `limits` (an error when it is not one well-formed document
    /// within them) and returns a source positioned before the root element's value.
    /// A document of more than 2^31 - 1 elements and attributes is refused with
    /// [`ErrorKind::DocumentSizeLimitReached`]: the tape's indices are `u32`.
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        let mut tape = Tape {
            entries: take_spare(&SPARE_ENTRIES),
            strings: Strings::default(),
            open: take_spare(&SPARE_TAPE_OPEN),
        };
        // One element or attribute per 20 bytes of markup and text is generous for
        // records, and keeps a small document's tape in a small allocation.
        tape.entries.reserve((input.len() / 20).max(8));
        let parsed = parse_with(input, &mut tape, limits);
        keep_spare(&SPARE_TAPE_OPEN, std::mem::take(&mut tape.open));
        if let Err(error) = parsed {
            keep_spare(&SPARE_ENTRIES, tape.entries);
            return Err(error);
        }
        if tape.entries.is_empty() {
            return Err(Error::new(ErrorKind::MissingRoot, input, input.len()));
        }
        // The tape's indices are `u32`: more entries or owned strings than
        // `MAX_ENTRIES` (a document of gigabytes) is left to the RawValue path.
        if tape.entries.len() > MAX_ENTRIES || tape.strings.owned.len() > MAX_ENTRIES {
            return Err(Error::new(
                ErrorKind::DocumentSizeLimitReached(MAX_ENTRIES),
                input,
                input.len(),
            ));
        }
        Ok(DirectSource {
            entries: tape.entries,
            strings: tape.strings,
            open: take_spare(&SPARE_OPEN),
            next: Value::Element(0),
            scratch: String::new(),
            lines: LineCursor::default(),
            ends: Vec::new(),
        })
    }

    /// The span of the element at entry `at`, from its start tag's `<` to its end tag's
    /// `>`, as the tree places it: its start from its name on the tape, its end found in
    /// the source after its last child element (text holds no `<`; comments, CDATA and
    /// processing instructions are passed over). `None` when the name is not the
    /// source's (a transcoded document).
    fn element_span(&self, at: usize, depth: usize) -> Option<Span> {
        let src = self.strings.src.as_bytes();
        let entry = self.entries.get(at)?;
        if entry.name.len >= OWNED || entry.name.at == 0 || depth > 4096 {
            return None;
        }
        let start = entry.name.at as usize - 1;
        let mut child = at + 1 + entry.attributes();
        let mut last = None;
        while child < entry.end as usize {
            last = Some(child);
            child = self.entries.get(child)?.end as usize;
        }
        let mut pos = match last {
            Some(last) => self.element_span(last, depth + 1)?.end,
            None => match start_tag_end(src, entry.name.at as usize + entry.name.len as usize)? {
                (end, true) => return Some(Span::new(start, end)),
                (end, false) => end,
            },
        };
        loop {
            pos += memchr::memchr(b'<', src.get(pos..)?)?;
            let rest = &src[pos..];
            let close: &[u8] = if rest.starts_with(b"<!--") {
                b"-->"
            } else if rest.starts_with(b"<![CDATA[") {
                b"]]>"
            } else if rest.starts_with(b"<?") {
                b"?>"
            } else if rest.starts_with(b"</") {
                let end = pos + memchr::memchr(b'>', rest)? + 1;
                return Some(Span::new(start, end));
            } else {
                return None;
            };
            pos += memchr::memmem::find(rest, close)? + close.len();
        }
    }

    /// The span of the attribute at entry `at`, from its name to its closing quote.
    fn attribute_span(&self, at: usize) -> Option<Span> {
        let src = self.strings.src.as_bytes();
        let name = self.entries.get(at)?.name;
        if name.len >= OWNED {
            return None;
        }
        let start = name.at as usize;
        let mut pos = start + name.len as usize;
        pos += src
            .get(pos..)?
            .iter()
            .position(|&b| b == b'"' || b == b'\'')?;
        let quote = src[pos];
        let end = pos + 1 + memchr::memchr(quote, src.get(pos + 1..)?)? + 1;
        Some(Span::new(start, end))
    }

    /// The text of the next value; `Fallback` for a map or a sequence.
    #[inline(always)]
    fn text(&self) -> Result<PullText<'a, '_>, Fallback> {
        let at = match self.next {
            Value::Element(at) if !self.entries[at].is_map() => {
                let text = self.strings.get(self.entries[at].text);
                return Ok(text.unwrap_or(PullText::Borrowed("")));
            }
            Value::Attribute(at) | Value::Text(at) => at,
            Value::Element(_) | Value::Run(..) => return Err(Fallback),
        };
        self.strings.get(self.entries[at].text).ok_or(Fallback)
    }
}

/// Where the start tag whose name ends at `from` ends (one past its `>`), and whether it
/// is an empty-element tag (`/>`): attribute values may hold `>`, so quotes are passed
/// over.
fn start_tag_end(src: &[u8], mut from: usize) -> Option<(usize, bool)> {
    loop {
        let at = from + memchr::memchr3(b'>', b'"', b'\'', src.get(from..)?)?;
        match src[at] {
            b'>' => return Some((at + 1, at > 0 && src[at - 1] == b'/')),
            quote => from = at + 1 + memchr::memchr(quote, src.get(at + 1..)?)? + 1,
        }
    }
}

/// The value of `text` when it is 1 to `max` ASCII digits and nothing else (no sign, no
/// white space): what std's parse would give, without its generality.
#[inline]
fn plain_digits(text: &str, max: usize) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > max {
        return None;
    }
    let (end, value) = fold_digits(bytes, 0, 0);
    (end == bytes.len()).then_some(value)
}

impl<'a> PullSource<'a> for DirectSource<'a> {
    #[inline]
    fn decode_options(&self) -> quarry_raw_value::DecodeOptions {
        quarry_raw_value::DecodeOptions::XML
    }

    #[inline]
    fn peek_token(&mut self) -> Result<ValueKind, Fallback> {
        Ok(match self.next {
            Value::Element(at) if self.entries[at].is_map() => ValueKind::Object,
            Value::Run(..) => ValueKind::Array,
            Value::Element(_) | Value::Attribute(_) | Value::Text(_) => ValueKind::String,
        })
    }

    /// XML has no null.
    fn read_null(&mut self) -> Result<(), Fallback> {
        Err(Fallback)
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool, Fallback> {
        match self.text()?.as_str().trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(Fallback),
        }
    }

    /// The text itself, as [`RawValue::Text`]: a float decodes from it as from the
    /// RawValue path's text.
    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        Ok(RawValue::Text(self.text()?.into_cow()))
    }

    /// A float from text, as `f64` decodes [`RawValue::Text`]: a plain decimal is
    /// converted from its folded digits, anything else goes through std's parse.
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Fallback> {
        let text = self.text()?;
        let text = text.as_str();
        match plain_decimal(text) {
            Some(value) => Ok(value),
            None => text.trim().parse().map_err(|_| Fallback),
        }
    }

    /// Integer text that fits `i64` (what an `i64` decodes from text on the RawValue
    /// path; anything else there is an error, here a fallback).
    #[inline]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        let text = self.text()?;
        let text = text.as_str();
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, text),
        };
        // Up to 18 digits always fit; anything else goes through std's parse.
        if let Some(value) = plain_digits(digits, 18) {
            let value = value as i64;
            return Ok(if negative { -value } else { value });
        }
        text.trim().parse().map_err(|_| Fallback)
    }

    /// Integer text that fits `u64`.
    #[inline]
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        let text = self.text()?;
        let text = text.as_str();
        match plain_digits(text, 19) {
            Some(value) => Ok(value),
            None => text.trim().parse().map_err(|_| Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<PullText<'a, '_>, Fallback> {
        self.text()
    }

    /// Text decoded on the tape is moved out, not copied (each value is read once).
    #[inline(always)]
    fn read_string(&mut self) -> Result<String, Fallback> {
        let slot = match self.next {
            Value::Element(at) if !self.entries[at].is_map() => self.entries[at].text,
            Value::Attribute(at) | Value::Text(at) => self.entries[at].text,
            Value::Element(_) | Value::Run(..) => return Err(Fallback),
        };
        Ok(match slot.len {
            NONE => String::new(),
            OWNED => self
                .strings
                .owned
                .get_mut(slot.at as usize)
                .map(std::mem::take)
                .unwrap_or_default(),
            _ => owned_string(self.strings.str(slot)),
        })
    }

    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'a, str>, Fallback> {
        self.text().map(PullText::into_cow)
    }

    #[inline]
    fn begin_array(&mut self) -> Result<(), Fallback> {
        match self.next {
            Value::Run(first, count) => {
                self.open.push(Open::Run {
                    next: first,
                    left: count,
                });
                Ok(())
            }
            _ => Err(Fallback),
        }
    }

    #[inline(always)]
    fn next_item(&mut self, _first: bool) -> Result<bool, Fallback> {
        let Some(Open::Run { next, left }) = self.open.last_mut() else {
            return Err(Fallback);
        };
        if *left == 0 {
            self.open.pop();
            return Ok(false);
        }
        let at = *next;
        *left -= 1;
        *next = self.entries[at].end as usize;
        self.next = Value::Element(at);
        Ok(true)
    }

    fn len_hint(&self) -> usize {
        match self.open.last() {
            Some(Open::Run { left, .. }) => *left,
            _ => 0,
        }
    }

    #[inline(always)]
    fn begin_object(&mut self) -> Result<(), Fallback> {
        match self.next {
            Value::Element(at) if self.entries[at].is_map() => {
                let entry = &self.entries[at];
                self.open.push(Open::Map {
                    element: at,
                    next: at + 1,
                    attributes_end: at + 1 + entry.attributes(),
                    end: entry.end as usize,
                    text_left: entry.text.is_some(),
                });
                Ok(())
            }
            _ => Err(Fallback),
        }
    }

    #[inline(always)]
    fn next_key(&mut self, _first: bool) -> Result<Option<PullText<'a, '_>>, Fallback> {
        let Some(Open::Map {
            element,
            next,
            attributes_end,
            end,
            text_left,
        }) = self.open.last_mut()
        else {
            return Err(Fallback);
        };
        let entries = &self.entries;
        let at = *next;
        if at < *attributes_end {
            *next += 1;
            self.next = Value::Attribute(at);
            self.scratch.clear();
            self.scratch.push('@');
            self.scratch.push_str(self.strings.str(entries[at].name));
            return Ok(Some(PullText::Decoded(&self.scratch)));
        }
        if at < *end {
            let name = entries[at].name;
            let mut after = entries[at].end as usize;
            let mut count = 1;
            while after < *end && self.strings.same(entries[after].name, name) {
                count += 1;
                after = entries[after].end as usize;
            }
            *next = after;
            self.next = if count == 1 {
                Value::Element(at)
            } else {
                Value::Run(at, count)
            };
            let name = self.strings.get(name);
            return Ok(Some(name.unwrap_or(PullText::Borrowed(""))));
        }
        if *text_left {
            *text_left = false;
            self.next = Value::Text(*element);
            return Ok(Some(PullText::Borrowed(TEXT_KEY)));
        }
        self.open.pop();
        Ok(None)
    }

    /// The value's place is already passed (the parser checked it).
    #[inline]
    fn skip_value(&mut self) -> Result<(), Fallback> {
        Ok(())
    }

    /// Left to the RawValue path.
    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        Err(Fallback)
    }

    /// The parser has read the whole document.
    /// An element is placed from its start tag to its end tag, a run of elements as its
    /// first one, an attribute from its name to its closing quote (as the tree places
    /// them); `"$text"` falls back.
    fn value_start(&mut self) -> Result<(usize, Option<Position>), Fallback> {
        let span = match self.next {
            Value::Element(at) | Value::Run(at, _) => self.element_span(at, 0),
            Value::Attribute(at) => self.attribute_span(at),
            Value::Text(_) => None,
        }
        .ok_or(Fallback)?;
        self.ends.push(span.end);
        let src = self.strings.src.as_bytes();
        Ok((span.start, Some(self.lines.position(src, span.start))))
    }

    fn value_end(&mut self) -> Result<usize, Fallback> {
        self.ends.pop().ok_or(Fallback)
    }

    fn finish(&mut self) -> Result<(), Fallback> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tape is written and read once per document: on a large one its size is the
    /// cost, so an entry stays three words (`Cow` names and text would make it eight).
    #[test]
    fn a_tape_entry_is_three_words() {
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }

    #[test]
    fn slots_borrow_from_the_source_and_own_the_rest() {
        let src = "<a>text</a>";
        let mut strings = Strings::default();
        strings.set_source(src);
        let inner = strings.slot(Cow::Borrowed(&src[3..7]));
        assert_eq!((inner.at, inner.len), (3, 4));
        assert_eq!(strings.get(inner), Some(PullText::Borrowed("text")));
        let owned = strings.slot(Cow::Owned("a&b".to_owned()));
        assert_eq!(owned.len, OWNED);
        assert_eq!(strings.get(owned), Some(PullText::Decoded("a&b")));
        // A borrow from elsewhere (a static string) is owned too.
        let elsewhere = strings.slot(Cow::Borrowed("text"));
        assert_eq!(elsewhere.len, OWNED);
        assert!(strings.same(elsewhere, inner) && !strings.same(owned, inner));
        assert_eq!(strings.get(Slot::NONE), None);
    }
}
