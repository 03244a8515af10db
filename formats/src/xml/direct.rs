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
//! contract has it; so the grouping of the RawValue door is never needed here.
//!
//! Text is untyped: numbers and booleans are read from it as [`Decode`] reads them from
//! [`RawValue::Text`](quarry_raw_value::RawValue::Text). Whatever the mapping has no
//! cheap answer for ([`PullSource::read_raw`], `null`) falls back.
//!
//! [`Decode`]: quarry_raw_value::Decode

use std::borrow::Cow;

use quarry_raw_value::{Fallback, PullSource, RawValue, Text as PullText, ValueKind};

use crate::common::{fold_digits, plain_decimal, same_bytes, Limits, Span};

use super::builder::{StartTag, Text, XmlBuilder};
use super::raw::TextRuns;
use super::{parse_with, Error, ErrorKind, TEXT_KEY};

/// An element or an attribute on the tape.
#[derive(Debug)]
struct Entry<'a> {
    /// The qualified name.
    name: Cow<'a, str>,
    /// An element's text ([`TextRuns`]); an attribute's value.
    text: Option<Cow<'a, str>>,
    /// An element: the index of the first entry after its subtree (its attributes and
    /// descendants), that is, of its next sibling. 0 for an attribute.
    end: usize,
    /// An element: how many attribute entries follow it.
    attributes: u32,
    /// An element: it has child elements.
    children: bool,
}

impl Entry<'_> {
    /// An element with attributes or child elements: a map, not text.
    #[inline]
    fn is_map(&self) -> bool {
        self.attributes > 0 || self.children
    }
}

/// The builder that fills the tape.
#[derive(Debug, Default)]
struct Tape<'a> {
    entries: Vec<Entry<'a>>,
    /// The open elements: their entries and their text so far.
    open: Vec<(usize, TextRuns<'a>)>,
}

impl<'a> XmlBuilder<'a> for Tape<'a> {
    #[inline]
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        if let Some((parent, text)) = self.open.last_mut() {
            text.end_run();
            self.entries[*parent].children = true;
        }
        let at = self.entries.len();
        let attributes = tag.attributes();
        self.entries.push(Entry {
            name: tag.name().clone(),
            text: None,
            end: 0,
            attributes: u32::try_from(attributes.len()).unwrap_or(u32::MAX),
            children: false,
        });
        for attribute in attributes {
            self.entries.push(Entry {
                name: attribute.name().clone(),
                text: Some(attribute.value().into_cow()),
                end: 0,
                attributes: 0,
                children: false,
            });
        }
        self.open.push((at, TextRuns::default()));
    }

    #[inline]
    fn end_element(&mut self, _: Span) {
        if let Some((at, mut text)) = self.open.pop() {
            let end = self.entries.len();
            let entry = &mut self.entries[at];
            entry.text = text.take();
            entry.end = end;
        }
    }

    #[inline]
    fn text(&mut self, text: Text<'a, '_>, _: Span) {
        if let Some((_, runs)) = self.open.last_mut() {
            runs.push(text);
        }
    }

    #[inline]
    fn comment(&mut self, _: Text<'a, '_>, _: Span) {
        if let Some((_, runs)) = self.open.last_mut() {
            runs.end_run();
        }
    }

    #[inline]
    fn processing_instruction(&mut self, _: Text<'a, '_>, _: Text<'a, '_>, _: Span) {
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

/// The empty text of an element with no text.
const EMPTY: Cow<'static, str> = Cow::Borrowed("");

/// The direct path over an XML document: a [`PullSource`] positioned before the root
/// element's value (the struct door decodes a struct from the root element itself).
///
/// The whole document is parsed first, with every check of [`parse_with`], into a flat
/// tape; reading then walks the tape. Use it under
/// [`with_xml_sequences`](quarry_raw_value::with_xml_sequences), as the facade does, so
/// that a `Vec` takes one child element as a one-element sequence on both paths.
#[derive(Debug)]
pub struct DirectSource<'a> {
    entries: Vec<Entry<'a>>,
    open: Vec<Open>,
    next: Value,
    /// The `"@name"` key of the attribute last handed out.
    scratch: String,
}

impl<'a> DirectSource<'a> {
    /// Parses `input` under `limits` (an error when it is not one well-formed document
    /// within them) and returns a source positioned before the root element's value.
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        let mut tape = Tape {
            // One element or attribute per 20 bytes of markup and text is generous for
            // records, and keeps a small document's tape in a small allocation.
            entries: Vec::with_capacity((input.len() / 20).max(8)),
            open: Vec::new(),
        };
        parse_with(input, &mut tape, limits)?;
        if tape.entries.is_empty() {
            return Err(Error::new(ErrorKind::MissingRoot, input, input.len()));
        }
        Ok(DirectSource {
            entries: tape.entries,
            open: Vec::new(),
            next: Value::Element(0),
            scratch: String::new(),
        })
    }

    /// The text of the next value; `Fallback` for a map or a sequence.
    #[inline]
    fn text(&self) -> Result<&Cow<'a, str>, Fallback> {
        let at = match self.next {
            Value::Element(at) if !self.entries[at].is_map() => {
                return Ok(self.entries[at].text.as_ref().unwrap_or(&EMPTY));
            }
            Value::Attribute(at) | Value::Text(at) => at,
            Value::Element(_) | Value::Run(..) => return Err(Fallback),
        };
        self.entries[at].text.as_ref().ok_or(Fallback)
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

/// A tape string as the pull path lends it.
#[inline]
fn lend<'a, 's>(text: &'s Cow<'a, str>) -> PullText<'a, 's> {
    match text {
        Cow::Borrowed(s) => PullText::Borrowed(s),
        Cow::Owned(s) => PullText::Decoded(s),
    }
}

impl<'a> PullSource<'a> for DirectSource<'a> {
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
        match self.text()?.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(Fallback),
        }
    }

    /// The text itself, as [`RawValue::Text`]: a float decodes from it as from the
    /// RawValue door's text.
    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        Ok(RawValue::Text(self.text()?.clone()))
    }

    /// A float from text, as `f64` decodes [`RawValue::Text`]: a plain decimal is
    /// converted from its folded digits, anything else goes through std's parse.
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Fallback> {
        let text = self.text()?;
        match plain_decimal(text) {
            Some(value) => Ok(value),
            None => text.trim().parse().map_err(|_| Fallback),
        }
    }

    /// Integer text that fits `i64` (what an `i64` decodes from text on the RawValue
    /// door; anything else there is an error, here a fallback).
    #[inline]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        let text = self.text()?;
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, &text[..]),
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
        match plain_digits(text, 19) {
            Some(value) => Ok(value),
            None => text.trim().parse().map_err(|_| Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<PullText<'a, '_>, Fallback> {
        self.text().map(lend)
    }

    /// Text decoded on the tape is moved out, not copied (each value is read once).
    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        let slot = match self.next {
            Value::Element(at) if !self.entries[at].is_map() => &mut self.entries[at].text,
            Value::Attribute(at) | Value::Text(at) => &mut self.entries[at].text,
            Value::Element(_) | Value::Run(..) => return Err(Fallback),
        };
        Ok(match slot {
            None => String::new(),
            Some(Cow::Borrowed(s)) => (*s).to_owned(),
            Some(Cow::Owned(s)) => std::mem::take(s),
        })
    }

    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'a, str>, Fallback> {
        self.text().cloned()
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

    #[inline]
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
        *next = self.entries[at].end;
        self.next = Value::Element(at);
        Ok(true)
    }

    fn len_hint(&self) -> usize {
        match self.open.last() {
            Some(Open::Run { left, .. }) => *left,
            _ => 0,
        }
    }

    #[inline]
    fn begin_object(&mut self) -> Result<(), Fallback> {
        match self.next {
            Value::Element(at) if self.entries[at].is_map() => {
                let entry = &self.entries[at];
                self.open.push(Open::Map {
                    element: at,
                    next: at + 1,
                    attributes_end: at + 1 + entry.attributes as usize,
                    end: entry.end,
                    text_left: entry.text.is_some(),
                });
                Ok(())
            }
            _ => Err(Fallback),
        }
    }

    #[inline]
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
            self.scratch.push_str(&entries[at].name);
            return Ok(Some(PullText::Decoded(&self.scratch)));
        }
        if at < *end {
            let name = &entries[at].name;
            let mut after = entries[at].end;
            let mut count = 1;
            while after < *end && same_bytes(entries[after].name.as_bytes(), name.as_bytes()) {
                count += 1;
                after = entries[after].end;
            }
            *next = after;
            self.next = if count == 1 {
                Value::Element(at)
            } else {
                Value::Run(at, count)
            };
            return Ok(Some(lend(name)));
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

    /// Left to the RawValue door.
    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        Err(Fallback)
    }

    /// The parser has read the whole document.
    fn finish(self) -> Result<(), Fallback> {
        Ok(())
    }
}
