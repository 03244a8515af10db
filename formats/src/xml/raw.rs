//! The builder of the struct door: XML to [`RawValue`], by the mapping in the module docs.

use std::borrow::Cow;
use std::collections::HashMap;

use quarry_raw_value::RawValue;

use crate::common::{KeyHashState, Span};

use super::builder::{StartTag, TextRef, XmlBuilder};

/// The key text of mixed content goes under.
pub const TEXT_KEY: &str = "$text";

/// Builds the [`RawValue`] of a document: a one-entry map from the root's name to its
/// value. An element without attributes and child elements is its text
/// ([`RawValue::Text`], `""` when empty); any other element is a map of `"@name"`
/// attributes, child elements by name (repeated names grouped into a sequence at the
/// first one's place) and non-white-space text under `"$text"`, last.
/// Text runs (text and CDATA between child elements, comments and PIs) that hold only
/// white space are dropped; comments and processing instructions are not kept.
#[derive(Debug, Default)]
pub struct RawValueBuilder<'a> {
    /// The open elements are `frames[..depth]`; the frames beyond are kept for reuse,
    /// so that opening an element writes the fields of a frame in place.
    frames: Vec<Frame<'a>>,
    depth: usize,
    members: Vec<(Cow<'a, str>, RawValue<'a>)>,
    /// The [`fingerprint`] of each member's key, in step with `members`: a child's name
    /// is compared with a key only when their fingerprints are equal.
    fingerprints: Vec<u64>,
    /// Name-to-member indexes of elements with many children (see [`Frame::index`]).
    indexes: Vec<HashMap<Cow<'a, str>, usize, KeyHashState>>,
    /// The root element's name and value, once it has ended.
    root: Option<(Cow<'a, str>, RawValue<'a>)>,
}

#[derive(Debug, Default)]
struct Frame<'a> {
    name: Cow<'a, str>,
    /// The [`fingerprint`] of `name`.
    fingerprint: u64,
    /// Where this element's members start on the member stack.
    start: usize,
    /// Has attributes or child elements: a map, not text.
    map: bool,
    /// The element's text so far.
    text: TextRuns<'a>,
    /// Position (plus one) in `indexes` of this element's name index, once it has
    /// many members; 0 for none.
    index: usize,
}

/// Members beyond which a child's name is looked up in a hash map (below it, the
/// fingerprints are scanned: cheaper than hashing for the usual struct-sized element).
const INDEX_AFTER: usize = 32;

/// An element's text as the struct door keeps it: its runs (text and CDATA between child
/// elements, comments and PIs) concatenated, each run dropped when it holds only white
/// space. Both struct-door builders (this one and the direct path's tape) keep text so.
#[derive(Debug, Default)]
pub(super) struct TextRuns<'a> {
    /// A run is open (text and CDATA since the last child, comment or PI).
    in_run: bool,
    /// Where the open run starts in `text`.
    run_start: usize,
    /// The runs kept, plus the open one.
    text: Option<Cow<'a, str>>,
}

impl<'a> TextRuns<'a> {
    /// Adds text (or CDATA) to the open run, opening one if none is.
    #[inline(always)]
    pub(super) fn push(&mut self, text: TextRef<'a, '_>) {
        match &mut self.text {
            None => {
                self.run_start = 0;
                self.text = Some(text.into_cow());
                self.in_run = true;
            }
            Some(_) => self.push_more(text),
        }
    }

    /// [`TextRuns::push`] when there is text already (mixed content, or text after a
    /// reference or CDATA).
    #[inline(never)]
    fn push_more(&mut self, text: TextRef<'a, '_>) {
        if let Some(existing) = &mut self.text {
            if !self.in_run {
                self.run_start = existing.len();
            }
            existing.to_mut().push_str(text.as_str());
        }
        self.in_run = true;
    }

    /// Ends the open run (at a child element, comment or PI): dropped if white space only.
    #[inline(always)]
    pub(super) fn end_run(&mut self) {
        if self.in_run {
            self.end_open_run();
        }
    }

    #[inline]
    fn end_open_run(&mut self) {
        self.in_run = false;
        let start = self.run_start;
        let Some(text) = &mut self.text else {
            return;
        };
        if !super::builder::is_xml_whitespace(&text[start..]) {
            return;
        }
        if start == 0 {
            self.text = None;
            return;
        }
        match text {
            Cow::Borrowed(s) => *s = &s[..start],
            Cow::Owned(s) => s.truncate(start),
        }
    }

    /// The text kept, once the element has ended (its open run ended first); `None`
    /// when there is none.
    #[inline(always)]
    pub(super) fn take(&mut self) -> Option<Cow<'a, str>> {
        self.end_run();
        self.text.take()
    }
}

/// A cheap fingerprint of a name (its length and up to its first and last eight
/// bytes, read as whole words): equal names have equal fingerprints.
#[inline(always)]
fn fingerprint(name: &str) -> u64 {
    let b = name.as_bytes();
    let n = b.len();
    let word8 = |s: &[u8]| s.first_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w));
    let word4 = |s: &[u8]| {
        s.first_chunk::<4>()
            .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
    };
    let (head, tail) = if n >= 8 {
        (word8(b), word8(&b[n - 8..]))
    } else if n >= 4 {
        (word4(b), word4(&b[n - 4..]))
    } else if n > 0 {
        let byte = |i: usize| u64::from(b[i]);
        (byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16, 0)
    } else {
        (0, 0)
    };
    head ^ tail.rotate_left(23) ^ (n as u64).rotate_right(8)
}

impl<'a> RawValueBuilder<'a> {
    /// The document's value, once the parser has finished with this builder
    /// ([`RawValue::Null`] if it never saw a root element).
    pub fn finish(self) -> RawValue<'a> {
        match self.root {
            Some(root) => RawValue::Map(vec![root]),
            None => RawValue::Null,
        }
    }

    /// The root element's name and value (without the one-entry map around them), once
    /// the parser has finished with this builder; `None` if it never saw a root element.
    pub fn finish_root(self) -> Option<(Cow<'a, str>, RawValue<'a>)> {
        self.root
    }

    /// Ends the innermost element's open text run: dropped if white space only.
    #[inline]
    fn end_run(&mut self) {
        if let Some(frame) = self.frames[..self.depth].last_mut() {
            frame.text.end_run();
        }
    }

    #[inline(always)]
    fn add_child(&mut self, name: Cow<'a, str>, fingerprint: u64, value: RawValue<'a>) {
        let Some(parent) = self.frames[..self.depth].last_mut() else {
            self.root = Some((name, value));
            return;
        };
        parent.map = true;
        let members = &mut self.members;
        let count = members.len() - parent.start;
        // Keys are unique among an element's members (repeats are grouped), so the
        // search may go backwards: a run of repeated children then finds its key first.
        let found = match parent.index {
            0 => self.fingerprints[parent.start..]
                .iter()
                .zip(&members[parent.start..])
                .rposition(|(&f, (k, _))| f == fingerprint && *k == name)
                .map(|i| parent.start + i),
            i => self.indexes[i - 1].get(&name).copied(),
        };
        match found {
            Some(at) => match &mut members[at].1 {
                RawValue::Seq(items) => items.push(value),
                slot => {
                    let mut items = Vec::with_capacity(4);
                    items.push(std::mem::take(slot));
                    items.push(value);
                    *slot = RawValue::Seq(items);
                }
            },
            None => {
                if count >= INDEX_AFTER && parent.index == 0 {
                    let mut index =
                        HashMap::with_capacity_and_hasher(count * 2, KeyHashState::default());
                    for (i, (k, _)) in members[parent.start..].iter().enumerate() {
                        index.entry(k.clone()).or_insert(parent.start + i);
                    }
                    self.indexes.push(index);
                    parent.index = self.indexes.len();
                }
                if parent.index > 0 {
                    self.indexes[parent.index - 1].insert(name.clone(), members.len());
                }
                members.push((name, value));
                self.fingerprints.push(fingerprint);
            }
        }
    }
}

impl<'a> XmlBuilder<'a> for RawValueBuilder<'a> {
    #[inline]
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        self.end_run();
        let start = self.members.len();
        let attributes = tag.attributes();
        let map = attributes.len() > 0;
        for attr in attributes {
            let name = attr.name();
            let mut key = String::with_capacity(name.len() + 1);
            key.push('@');
            key.push_str(name);
            self.members
                .push((Cow::Owned(key), RawValue::Text(attr.value().into_cow())));
            // Never searched for: no element name starts with `@`.
            self.fingerprints.push(0);
        }
        if self.depth == self.frames.len() {
            self.frames.push(Frame::default());
        }
        let frame = &mut self.frames[self.depth];
        self.depth += 1;
        frame.name = tag.name().clone();
        frame.fingerprint = fingerprint(&frame.name);
        frame.start = start;
        frame.map = map;
        frame.text = TextRuns::default();
        frame.index = 0;
    }

    #[inline]
    fn end_element(&mut self, _: Span) {
        self.end_run();
        if self.depth == 0 {
            return;
        }
        self.depth -= 1;
        let frame = &mut self.frames[self.depth];
        let name = std::mem::replace(&mut frame.name, Cow::Borrowed(""));
        let text = frame.text.take();
        let (fingerprint, start, map) = (frame.fingerprint, frame.start, frame.map);
        if frame.index > 0 {
            // Indexes are made and dropped innermost first: this one is the last.
            self.indexes.pop();
        }
        if map {
            self.fingerprints.truncate(start);
            // One exact allocation per element, `$text` included.
            let entries = match text {
                None => self.members.split_off(start),
                Some(text) => {
                    let mut entries = Vec::with_capacity(self.members.len() - start + 1);
                    entries.extend(self.members.drain(start..));
                    entries.push((Cow::Borrowed(TEXT_KEY), RawValue::Text(text)));
                    entries
                }
            };
            self.add_child(name, fingerprint, RawValue::Map(entries));
        } else {
            let text = text.unwrap_or(Cow::Borrowed(""));
            self.add_child(name, fingerprint, RawValue::Text(text));
        }
    }

    #[inline]
    fn text(&mut self, text: TextRef<'a, '_>, _: Span) {
        if let Some(frame) = self.frames[..self.depth].last_mut() {
            frame.text.push(text);
        }
    }

    #[inline]
    fn comment(&mut self, _: TextRef<'a, '_>, _: Span) {
        self.end_run();
    }

    #[inline]
    fn processing_instruction(&mut self, _: TextRef<'a, '_>, _: TextRef<'a, '_>, _: Span) {
        self.end_run();
    }
}
