//! The three plist writers, all [`Encoder`]s: XML and OpenStep text, written as the
//! value is encoded, and binary `bplist00`, collected and then written with
//! deduplicated objects and minimal widths.
//!
//! Shared rules: a null cannot be written (an error naming its path); an integer must lie
//! in -2^63 ..= 2^64-1; a date-time with an offset is written as a plist date (in UTC),
//! while a local date-time, a date alone or a time alone is written as its RFC 3339
//! string (a plist date is an instant). In binary plists the one-entry map
//! `{"CF$UID": n}` (n ≥ 0) is written as a UID, as the readers return UIDs.

use std::hash::BuildHasher;

use hashbrown::HashTable;
use quarry_raw_value::{base64, Datetime, Encode, EncodeError, Encoder, RawValue};

use super::builder::{apple_seconds, to_utc, Integer};
use super::openstep::UNQUOTED;
use super::raw::UID_KEY;
use crate::common::{KeyHashState, Sink};

const FORMAT: &str = "a property list";

use crate::common::NullEntries;

#[cold]
fn null_error() -> EncodeError {
    EncodeError::unsupported("null", FORMAT)
}

fn big_integer(text: &str) -> Result<Integer, EncodeError> {
    text.parse::<i128>()
        .ok()
        .and_then(Integer::from_i128)
        .ok_or_else(|| EncodeError::unsupported("an integer outside -2^63..=2^64-1", FORMAT))
}

/// A date-time with an offset as the UTC date to write; `None` when it is to be written
/// as text.
fn plist_date(d: &Datetime) -> Option<Datetime> {
    if d.offset.is_some() {
        to_utc(d)
    } else {
        None
    }
}

fn push_real(out: &mut Vec<u8>, v: f64, nan: &str, inf: &str, neg_inf: &str) {
    if v.is_nan() {
        out.extend_from_slice(nan.as_bytes());
    } else if v.is_infinite() {
        out.extend_from_slice(if v > 0.0 { inf } else { neg_inf }.as_bytes());
    } else {
        out.extend_from_slice(zmij::Buffer::new().format_finite(v).as_bytes());
    }
}

// ---------------------------------------------------------------------------------------
// XML.

const XML_HEADER: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n";

/// Bytes of text that need a look: markup, CR, control characters, and the lead byte
/// of U+FFFE/U+FFFF.
const fn xml_special_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = i != b'\t' as usize && i != b'\n' as usize;
        i += 1;
    }
    t[b'&' as usize] = true;
    t[b'<' as usize] = true;
    t[b'>' as usize] = true;
    t[0x7F] = false;
    t[0xEF] = true;
    t
}

const XML_SPECIAL: [bool; 256] = xml_special_table();

/// Appends `s` as XML character data; characters XML 1.0 cannot carry are an error.
fn escape_xml(out: &mut Vec<u8>, s: &str) -> Result<(), EncodeError> {
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !XML_SPECIAL[usize::from(b)] {
            i += 1;
            continue;
        }
        let rep: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'\r' => b"&#13;",
            0xEF => {
                if bytes.get(i + 1) == Some(&0xBF) && matches!(bytes.get(i + 2), Some(0xBE | 0xBF))
                {
                    return Err(EncodeError::custom(format!(
                        "{FORMAT} in XML cannot represent the character U+FFF{}",
                        if bytes[i + 2] == 0xBE { 'E' } else { 'F' }
                    )));
                }
                i += 1;
                continue;
            }
            _ => {
                return Err(EncodeError::custom(format!(
                    "{FORMAT} in XML cannot represent the control character U+{:04X}",
                    b
                )))
            }
        };
        out.extend_from_slice(&bytes[run..i]);
        out.extend_from_slice(rep);
        i += 1;
        run = i;
    }
    out.extend_from_slice(&bytes[run..]);
    Ok(())
}

/// Streams an XML property list (Apple's layout: declaration, DOCTYPE, tab indentation).
#[derive(Debug)]
pub struct XmlPlistWriter<'w> {
    out: &'w mut Vec<u8>,
    /// Open containers: where each one's start tag begins, and whether it has content.
    open: Vec<(usize, bool)>,
    done: bool,
    nulls: NullEntries,
    /// Where the last `<key>` starts, while its value is pending.
    key_at: Option<usize>,
    /// Where full buffers go between values (nowhere for `to_vec`).
    sink: Sink<'w>,
}

impl<'w> XmlPlistWriter<'w> {
    /// A writer appending to `out`; writes the XML declaration and DOCTYPE at once.
    pub fn new(out: &'w mut Vec<u8>) -> Self {
        Self::with_nulls(out, NullEntries::Reject)
    }

    /// A writer appending to `out` that handles null dict entries as `nulls` says.
    pub fn with_nulls(out: &'w mut Vec<u8>, nulls: NullEntries) -> Self {
        out.extend_from_slice(XML_HEADER.as_bytes());
        XmlPlistWriter {
            out,
            open: Vec::new(),
            done: false,
            nulls,
            key_at: None,
            sink: Sink::none(),
        }
    }

    /// A writer that hands `out` to `sink` between values as it fills.
    pub(crate) fn with_sink(out: &'w mut Vec<u8>, nulls: NullEntries, sink: Sink<'w>) -> Self {
        XmlPlistWriter {
            sink,
            ..Self::with_nulls(out, nulls)
        }
    }

    /// Closes the document; an error unless exactly one value was written.
    pub fn finish(self) -> Result<(), EncodeError> {
        if !self.done || !self.open.is_empty() {
            return Err(EncodeError::custom(
                "incomplete value: unbalanced begin/end events",
            ));
        }
        self.out.extend_from_slice(b"</plist>\n");
        match self.sink.is_active() {
            true => self.sink.finish(self.out),
            false => Ok(()),
        }
    }

    fn indent(&mut self) -> Result<(), EncodeError> {
        self.key_at = None;
        if self.done && self.open.is_empty() {
            return Err(EncodeError::custom("a second top-level value"));
        }
        if let Some(last) = self.open.last_mut() {
            last.1 = true;
        }
        for _ in 0..self.open.len() {
            self.out.push(b'\t');
        }
        Ok(())
    }

    fn leaf(&mut self, tag: &str, text: &[u8]) -> Result<(), EncodeError> {
        self.indent()?;
        self.out.push(b'<');
        self.out.extend_from_slice(tag.as_bytes());
        self.out.push(b'>');
        self.out.extend_from_slice(text);
        self.out.extend_from_slice(b"</");
        self.out.extend_from_slice(tag.as_bytes());
        self.out.extend_from_slice(b">\n");
        self.value_done();
        Ok(())
    }

    fn value_done(&mut self) {
        if self.open.is_empty() {
            self.done = true;
        }
        // Safe to hand over: no key is pending, and every open container has content,
        // so no earlier position in `out` is needed again.
        if self.sink.wants(self.out) {
            self.sink.spill(self.out);
        }
    }

    fn begin(&mut self, tag: &[u8]) -> Result<(), EncodeError> {
        self.indent()?;
        let at = self.out.len();
        self.out.extend_from_slice(tag);
        self.out.push(b'\n');
        self.open.push((at, false));
        Ok(())
    }

    fn end(&mut self, close: &[u8], empty: &[u8]) -> Result<(), EncodeError> {
        let Some((at, content)) = self.open.pop() else {
            return Err(EncodeError::custom("an end without a begin"));
        };
        if content {
            for _ in 0..self.open.len() {
                self.out.push(b'\t');
            }
            self.out.extend_from_slice(close);
        } else {
            self.out.truncate(at);
            self.out.extend_from_slice(empty);
        }
        self.out.push(b'\n');
        self.value_done();
        Ok(())
    }

    fn integer(&mut self, v: Integer) -> Result<(), EncodeError> {
        let mut buffer = itoa::Buffer::new();
        let text = match v {
            Integer::Int(i) => buffer.format(i),
            Integer::UInt(u) => buffer.format(u),
        };
        let text = text.as_bytes().to_vec();
        self.leaf("integer", &text)
    }
}

impl Encoder for XmlPlistWriter<'_> {
    fn null(&mut self) -> Result<(), EncodeError> {
        match self.key_at.take() {
            Some(at) if self.nulls == NullEntries::Skip => {
                self.out.truncate(at);
                Ok(())
            }
            _ => Err(null_error()),
        }
    }
    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.indent()?;
        self.out
            .extend_from_slice(if v { b"<true/>\n" } else { b"<false/>\n" });
        self.value_done();
        Ok(())
    }
    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.integer(Integer::Int(v))
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.integer(Integer::from(v))
    }
    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        let mut text = Vec::with_capacity(24);
        push_real(&mut text, v, "nan", "+infinity", "-infinity");
        self.leaf("real", &text)
    }
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        self.integer(big_integer(text)?)
    }
    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.indent()?;
        self.out.extend_from_slice(b"<string>");
        escape_xml(self.out, v)?;
        self.out.extend_from_slice(b"</string>\n");
        self.value_done();
        Ok(())
    }
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        let text = base64::encode(v);
        self.leaf("data", text.as_bytes())
    }
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        match plist_date(v) {
            Some(utc) => self.leaf("date", utc.to_string().as_bytes()),
            None if v.offset.is_some() => Err(EncodeError::unsupported(
                "a date outside the years 0000..=9999 (UTC)",
                FORMAT,
            )),
            None => self.str(&v.to_string()),
        }
    }
    fn begin_seq(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.begin(b"<array>")
    }
    fn end_seq(&mut self) -> Result<(), EncodeError> {
        self.end(b"</array>", b"<array/>")
    }
    fn begin_map(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.begin(b"<dict>")
    }
    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        self.key_at = Some(self.out.len());
        for _ in 0..self.open.len() {
            self.out.push(b'\t');
        }
        self.out.extend_from_slice(b"<key>");
        escape_xml(self.out, key)?;
        self.out.extend_from_slice(b"</key>\n");
        Ok(())
    }
    fn end_map(&mut self) -> Result<(), EncodeError> {
        self.end(b"</dict>", b"<dict/>")
    }
}

// ---------------------------------------------------------------------------------------
// OpenStep.

/// Streams an OpenStep (ASCII) property list, indented by tabs as Xcode writes them.
///
/// OpenStep has only strings, data, arrays and dicts: numbers and booleans are written
/// as their text (`42`, `1.5`, `true`), dates as RFC 3339 text; the reader returns them
/// as untyped text, which decodes back into numbers and booleans.
#[derive(Debug)]
pub struct OpenStepWriter<'w> {
    out: &'w mut Vec<u8>,
    /// Open containers: true for a dict, and whether it has content.
    open: Vec<(bool, bool)>,
    done: bool,
    nulls: NullEntries,
    /// Where the last key starts and whether its dict had content before, while the
    /// key's value is pending.
    key_at: Option<(usize, bool)>,
}

impl<'w> OpenStepWriter<'w> {
    /// A writer appending to `out`.
    pub fn new(out: &'w mut Vec<u8>) -> Self {
        Self::with_nulls(out, NullEntries::Reject)
    }

    /// A writer appending to `out` that handles null dict entries as `nulls` says.
    pub fn with_nulls(out: &'w mut Vec<u8>, nulls: NullEntries) -> Self {
        OpenStepWriter {
            out,
            open: Vec::new(),
            done: false,
            nulls,
            key_at: None,
        }
    }

    /// Ends the document; an error unless exactly one value was written.
    pub fn finish(self) -> Result<(), EncodeError> {
        if !self.done || !self.open.is_empty() {
            return Err(EncodeError::custom(
                "incomplete value: unbalanced begin/end events",
            ));
        }
        self.out.push(b'\n');
        Ok(())
    }

    /// Before a value: indentation inside an array.
    fn before(&mut self) -> Result<(), EncodeError> {
        self.key_at = None;
        match self.open.last_mut() {
            None if self.done => Err(EncodeError::custom("a second top-level value")),
            Some((false, content)) => {
                *content = true;
                let depth = self.open.len();
                for _ in 0..depth {
                    self.out.push(b'\t');
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// After a value: the separator its container needs.
    fn after(&mut self) {
        match self.open.last() {
            None => self.done = true,
            Some((true, _)) => self.out.extend_from_slice(b";\n"),
            Some((false, _)) => self.out.extend_from_slice(b",\n"),
        }
    }

    fn scalar(&mut self, text: &str) -> Result<(), EncodeError> {
        self.before()?;
        write_openstep_string(self.out, text);
        self.after();
        Ok(())
    }

    fn end(&mut self, close: u8) -> Result<(), EncodeError> {
        let Some((_, content)) = self.open.pop() else {
            return Err(EncodeError::custom("an end without a begin"));
        };
        if content {
            for _ in 0..self.open.len() {
                self.out.push(b'\t');
            }
        }
        self.out.push(close);
        self.after();
        Ok(())
    }
}

/// Appends `s` as an OpenStep string: bare when it is made of the characters
/// CoreFoundation reads unquoted (letters, digits, `_ $ / : . -`) and reads back as
/// itself (not `//`, a comment, nor `bplist`, the binary magic), quoted with escapes
/// otherwise.
pub fn write_openstep_string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !bytes.is_empty()
        && bytes.iter().all(|&b| UNQUOTED[usize::from(b)] && b != b'+')
        && !s.starts_with("//")
        && !s.starts_with("bplist")
    {
        out.extend_from_slice(bytes);
        return;
    }
    out.push(b'"');
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let rep: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            0..=0x1F | 0x7F => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[run..i]);
        if rep.is_empty() {
            out.extend_from_slice(format!("\\U{:04x}", b).as_bytes());
        } else {
            out.extend_from_slice(rep);
        }
        run = i + 1;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

impl Encoder for OpenStepWriter<'_> {
    fn null(&mut self) -> Result<(), EncodeError> {
        match self.key_at.take() {
            Some((at, content)) if self.nulls == NullEntries::Skip => {
                self.out.truncate(at);
                if let Some(last) = self.open.last_mut() {
                    last.1 = content;
                }
                Ok(())
            }
            _ => Err(null_error()),
        }
    }
    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.scalar(if v { "true" } else { "false" })
    }
    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.scalar(itoa::Buffer::new().format(v))
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.scalar(itoa::Buffer::new().format(v))
    }
    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        let mut text = Vec::with_capacity(24);
        push_real(&mut text, v, "nan", "inf", "-inf");
        self.scalar(std::str::from_utf8(&text).unwrap_or("nan"))
    }
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        let v = big_integer(text)?;
        self.scalar(&v.to_string())
    }
    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.scalar(v)
    }
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.before()?;
        self.out.push(b'<');
        for (i, &b) in v.iter().enumerate() {
            if i > 0 && i % 4 == 0 {
                self.out.push(b' ');
            }
            self.out.push(HEX[usize::from(b >> 4)]);
            self.out.push(HEX[usize::from(b & 15)]);
        }
        self.out.push(b'>');
        self.after();
        Ok(())
    }
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        let text = plist_date(v).unwrap_or(*v).to_string();
        self.scalar(&text)
    }
    fn begin_seq(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.before()?;
        self.out.extend_from_slice(b"(\n");
        self.open.push((false, false));
        Ok(())
    }
    fn end_seq(&mut self) -> Result<(), EncodeError> {
        self.end(b')')
    }
    fn begin_map(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.before()?;
        self.out.extend_from_slice(b"{\n");
        self.open.push((true, false));
        Ok(())
    }
    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        if let Some(last) = self.open.last_mut() {
            self.key_at = Some((self.out.len(), last.1));
            last.1 = true;
        }
        for _ in 0..self.open.len() {
            self.out.push(b'\t');
        }
        write_openstep_string(self.out, key);
        self.out.extend_from_slice(b" = ");
        Ok(())
    }
    fn end_map(&mut self) -> Result<(), EncodeError> {
        self.end(b'}')
    }
}

// ---------------------------------------------------------------------------------------
// Binary.

/// A scalar object; strings and data are ranges of the writer's arenas.
#[derive(Debug, Clone, Copy)]
enum Scalar {
    Bool(bool),
    Integer(Integer),
    Real(u64),
    Date(u64),
    /// `text[start..end]`.
    Str(usize, usize),
    /// `data[start..end]`.
    Data(usize, usize),
    Uid(u64),
}

/// A scalar as deduplication compares and hashes it.
#[derive(Debug, PartialEq, Eq, Hash)]
enum ScalarView<'s> {
    Bool(bool),
    Integer(Integer),
    Real(u64),
    Date(u64),
    Str(&'s [u8]),
    Data(&'s [u8]),
    Uid(u64),
}

#[derive(Debug)]
enum Object {
    Scalar(Scalar),
    /// The references at `refs[start..start + len]`.
    Array(usize, usize),
    /// `len` key references at `refs[start..]`, then `len` value references.
    Dict(usize, usize),
}

/// A container the encoder has opened.
#[derive(Debug)]
struct OpenContainer {
    /// Its object (reserved when it opened).
    id: u32,
    /// Where its entries start in `pending`.
    start: usize,
    dict: bool,
}

/// Collects a binary property list (`bplist00`) as a value is encoded, and writes it at
/// [`BinaryWriter::finish`] (the offset table needs every object first).
///
/// Equal scalars (strings and keys, numbers, dates, data, UIDs) are written once and
/// shared; containers are written once per occurrence. Reference and offset widths are
/// the smallest that fit. Strings are copied into one buffer as they come, so encoding
/// allocates per document, not per value.
#[derive(Debug)]
pub struct BinaryWriter<'w> {
    out: &'w mut Vec<u8>,
    nulls: NullEntries,
    /// Where full buffers go while the objects are written (nowhere for `to_vec`).
    sink: Sink<'w>,
    /// Every object, the top-level one first.
    objects: Vec<Object>,
    /// Each scalar object once, with its hash.
    seen: HashTable<(u64, u32)>,
    hasher: KeyHashState,
    /// The strings' UTF-8, one after another (each a whole `&str`).
    text: Vec<u8>,
    /// The data objects' bytes, one after another.
    data: Vec<u8>,
    /// The references of closed containers, each container's in one run.
    refs: Vec<u32>,
    /// The references of the open containers' entries so far (a dict's keys and values
    /// alternate).
    pending: Vec<u32>,
    open: Vec<OpenContainer>,
    /// The pending dict key (its range in `text`) while its value is to come.
    key: Option<(usize, usize)>,
    /// The top-level value has begun.
    done: bool,
}

impl<'w> BinaryWriter<'w> {
    /// A writer appending to `out` (null dict entries are errors).
    pub fn new(out: &'w mut Vec<u8>) -> Self {
        Self::with_nulls(out, NullEntries::Reject)
    }

    /// A writer appending to `out` that handles null dict entries as `nulls` says.
    pub fn with_nulls(out: &'w mut Vec<u8>, nulls: NullEntries) -> Self {
        BinaryWriter {
            out,
            nulls,
            sink: Sink::none(),
            // Room for a small document, so that vectors do not grow from nothing.
            objects: Vec::with_capacity(64),
            seen: HashTable::with_capacity(32),
            hasher: KeyHashState::default(),
            text: Vec::with_capacity(512),
            data: Vec::new(),
            refs: Vec::with_capacity(64),
            pending: Vec::with_capacity(32),
            open: Vec::new(),
            key: None,
            done: false,
        }
    }

    /// A writer that hands `out` to `sink` as it fills (the offset table at the end
    /// counts what went before).
    pub(crate) fn with_sink(out: &'w mut Vec<u8>, nulls: NullEntries, sink: Sink<'w>) -> Self {
        BinaryWriter {
            sink,
            ..Self::with_nulls(out, nulls)
        }
    }

    /// The scalar `s` as deduplication sees it.
    fn view<'s>(text: &'s [u8], data: &'s [u8], s: Scalar) -> ScalarView<'s> {
        match s {
            Scalar::Bool(b) => ScalarView::Bool(b),
            Scalar::Integer(i) => ScalarView::Integer(i),
            Scalar::Real(bits) => ScalarView::Real(bits),
            Scalar::Date(bits) => ScalarView::Date(bits),
            Scalar::Str(start, end) => ScalarView::Str(&text[start..end]),
            Scalar::Data(start, end) => ScalarView::Data(&data[start..end]),
            Scalar::Uid(u) => ScalarView::Uid(u),
        }
    }

    /// The id the next object gets.
    fn next_id(&self) -> Result<u32, EncodeError> {
        u32::try_from(self.objects.len())
            .map_err(|_| EncodeError::custom("more than 2^32 objects in a binary plist"))
    }

    /// The object of scalar `s`: an equal one written before, or a new one. A string or
    /// data that is already there gives its bytes back to the arena (they are its end).
    fn scalar(&mut self, s: Scalar) -> Result<u32, EncodeError> {
        let view = Self::view(&self.text, &self.data, s);
        let hash = self.hasher.hash_one(&view);
        let objects = &self.objects;
        let (text, data) = (&self.text, &self.data);
        let found = self.seen.find(hash, |&(h, id)| {
            h == hash
                && matches!(&objects[id as usize], Object::Scalar(o)
                    if Self::view(text, data, *o) == view)
        });
        if let Some(&(_, id)) = found {
            match s {
                Scalar::Str(start, _) => self.text.truncate(start),
                Scalar::Data(start, _) => self.data.truncate(start),
                _ => {}
            }
            return Ok(id);
        }
        let id = self.next_id()?;
        self.objects.push(Object::Scalar(s));
        self.seen.insert_unique(hash, (hash, id), |&(h, _)| h);
        Ok(id)
    }

    /// Before a value: a second top-level value is an error, and in a dict the pending
    /// key becomes its object.
    fn before_value(&mut self) -> Result<(), EncodeError> {
        match self.open.last() {
            None if self.done => Err(EncodeError::custom("a second top-level value")),
            None => Ok(()),
            Some(open) if open.dict => {
                let Some((start, end)) = self.key.take() else {
                    return Err(EncodeError::custom("a dict value without a key"));
                };
                let key = self.scalar(Scalar::Str(start, end))?;
                self.pending.push(key);
                Ok(())
            }
            Some(_) => Ok(()),
        }
    }

    /// Places the value `id` (after [`BinaryWriter::before_value`]).
    fn place(&mut self, id: u32) {
        match self.open.is_empty() {
            true => self.done = true,
            false => self.pending.push(id),
        }
    }

    /// Writes the scalar value `s` (its bytes, if any, are at the arena's end).
    fn scalar_value(&mut self, s: Scalar) -> Result<(), EncodeError> {
        let id = self.scalar(s)?;
        self.place(id);
        Ok(())
    }

    fn begin(&mut self, dict: bool) -> Result<(), EncodeError> {
        self.before_value()?;
        let id = self.next_id()?;
        self.objects.push(Object::Array(0, 0));
        self.place(id);
        self.open.push(OpenContainer {
            id,
            start: self.pending.len(),
            dict,
        });
        Ok(())
    }

    fn end(&mut self, dict: bool) -> Result<(), EncodeError> {
        let Some(open) = self.open.pop() else {
            return Err(EncodeError::custom("an end without a begin"));
        };
        if open.dict != dict || self.key.is_some() {
            return Err(EncodeError::custom(
                "unbalanced begin/end events, or a key without a value",
            ));
        }
        let entries = &self.pending[open.start..];
        let start = self.refs.len();
        let object = if dict {
            if let Some(uid) = self.uid(entries) {
                return self.end_as_uid(open, uid);
            }
            let len = entries.len() / 2;
            self.refs.extend(entries.iter().step_by(2));
            self.refs.extend(entries.iter().skip(1).step_by(2));
            Object::Dict(start, len)
        } else {
            self.refs.extend_from_slice(entries);
            Object::Array(start, entries.len())
        };
        self.objects[open.id as usize] = object;
        self.pending.truncate(open.start);
        Ok(())
    }

    /// The UID a dict of these entries stands for: one entry, `"CF$UID"` to an integer
    /// of 0 or more (the readers return UIDs so).
    fn uid(&self, entries: &[u32]) -> Option<u64> {
        let &[key, value] = entries else {
            return None;
        };
        let (Object::Scalar(Scalar::Str(start, end)), Object::Scalar(Scalar::Integer(n))) =
            (&self.objects[key as usize], &self.objects[value as usize])
        else {
            return None;
        };
        if &self.text[*start..*end] != UID_KEY.as_bytes() {
            return None;
        }
        match *n {
            Integer::Int(i) => u64::try_from(i).ok(),
            Integer::UInt(u) => Some(u),
        }
    }

    /// Ends the dict `open` as the UID `uid`: the objects its entry added are taken
    /// back, and its place holds the UID's object.
    fn end_as_uid(&mut self, open: OpenContainer, uid: u64) -> Result<(), EncodeError> {
        for id in (open.id + 1..self.next_id()?).rev() {
            if let Object::Scalar(s) = self.objects[id as usize] {
                let hash = self.hasher.hash_one(Self::view(&self.text, &self.data, s));
                if let Ok(entry) = self.seen.find_entry(hash, |&(_, x)| x == id) {
                    entry.remove();
                }
                if let Scalar::Str(start, _) = s {
                    self.text.truncate(start);
                }
            }
        }
        self.objects.truncate(open.id as usize);
        self.pending.truncate(open.start);
        let id = self.scalar(Scalar::Uid(uid))?;
        if let Some(place) = self.pending.last_mut().filter(|_| !self.open.is_empty()) {
            *place = id;
        }
        Ok(())
    }

    /// Writes the plist; an error unless exactly one value was encoded.
    pub fn finish(mut self) -> Result<(), EncodeError> {
        if !self.done || !self.open.is_empty() {
            return Err(EncodeError::custom(
                "incomplete value: unbalanced begin/end events",
            ));
        }
        self.write()?;
        match self.sink.is_active() {
            true => self.sink.finish(self.out),
            false => Ok(()),
        }
    }

    /// Writes the header, the objects, the offset table and the trailer.
    fn write(&mut self) -> Result<(), EncodeError> {
        let out = &mut *self.out;
        let sink = &mut self.sink;
        let count = self.objects.len();
        let ref_size = width_of(count as u64 - 1);
        let base = out.len();
        // About the whole plist (ASCII text; a marker, a short length or number, and an
        // offset per object), so that `out` grows once.
        out.reserve(
            40 + self.text.len() + self.data.len() + self.refs.len() * ref_size + count * 12,
        );
        out.extend_from_slice(b"bplist00");
        let mut offsets = Vec::with_capacity(count);
        let mut utf16 = Vec::new();
        // Bytes already handed to the sink (including any before `base`).
        let mut spilled = 0;
        for object in &self.objects {
            if sink.wants(out) {
                spilled += out.len();
                sink.spill(out);
            }
            offsets.push((spilled + out.len() - base) as u64);
            match *object {
                Object::Scalar(Scalar::Bool(b)) => out.push(if b { 0x09 } else { 0x08 }),
                Object::Scalar(Scalar::Integer(v)) => push_int_object(out, v),
                Object::Scalar(Scalar::Real(bits)) => {
                    out.push(0x23);
                    out.extend_from_slice(&bits.to_be_bytes());
                }
                Object::Scalar(Scalar::Date(bits)) => {
                    out.push(0x33);
                    out.extend_from_slice(&bits.to_be_bytes());
                }
                Object::Scalar(Scalar::Data(start, end)) => {
                    push_marker_len(out, 0x40, end - start);
                    out.extend_from_slice(&self.data[start..end]);
                }
                Object::Scalar(Scalar::Str(start, end)) => {
                    let s = &self.text[start..end];
                    if s.is_ascii() {
                        push_marker_len(out, 0x50, s.len());
                        out.extend_from_slice(s);
                    } else {
                        utf16.clear();
                        // Never lossy: the bytes are a `&str`'s.
                        utf16.extend(String::from_utf8_lossy(s).encode_utf16());
                        push_marker_len(out, 0x60, utf16.len());
                        for unit in &utf16 {
                            out.extend_from_slice(&unit.to_be_bytes());
                        }
                    }
                }
                Object::Scalar(Scalar::Uid(u)) => {
                    let w = width_of(u);
                    out.push(0x80 | (w - 1) as u8);
                    push_uint(out, u, w);
                }
                Object::Array(start, len) => {
                    push_marker_len(out, 0xA0, len);
                    for &r in &self.refs[start..start + len] {
                        push_uint(out, u64::from(r), ref_size);
                    }
                }
                Object::Dict(start, len) => {
                    push_marker_len(out, 0xD0, len);
                    for &r in &self.refs[start..start + 2 * len] {
                        push_uint(out, u64::from(r), ref_size);
                    }
                }
            }
        }
        let table = (spilled + out.len() - base) as u64;
        let offset_size = width_of(offsets.last().copied().unwrap_or(0));
        for &offset in &offsets {
            if sink.wants(out) {
                sink.spill(out);
            }
            push_uint(out, offset, offset_size);
        }
        out.extend_from_slice(&[0; 6]);
        out.push(offset_size as u8);
        out.push(ref_size as u8);
        out.extend_from_slice(&(count as u64).to_be_bytes());
        // The top-level object is the first.
        out.extend_from_slice(&0u64.to_be_bytes());
        out.extend_from_slice(&table.to_be_bytes());
        Ok(())
    }
}

impl Encoder for BinaryWriter<'_> {
    fn null(&mut self) -> Result<(), EncodeError> {
        match self.key.take() {
            Some((start, _)) if self.nulls == NullEntries::Skip => {
                self.text.truncate(start);
                Ok(())
            }
            _ => Err(null_error()),
        }
    }
    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.before_value()?;
        self.scalar_value(Scalar::Bool(v))
    }
    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.before_value()?;
        self.scalar_value(Scalar::Integer(Integer::Int(v)))
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.before_value()?;
        self.scalar_value(Scalar::Integer(Integer::from(v)))
    }
    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        // One NaN object for every NaN payload.
        let bits = if v.is_nan() {
            f64::NAN.to_bits()
        } else {
            v.to_bits()
        };
        self.before_value()?;
        self.scalar_value(Scalar::Real(bits))
    }
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        let v = big_integer(text)?;
        self.before_value()?;
        self.scalar_value(Scalar::Integer(v))
    }
    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.before_value()?;
        let start = self.text.len();
        self.text.extend_from_slice(v.as_bytes());
        self.scalar_value(Scalar::Str(start, self.text.len()))
    }
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        self.before_value()?;
        let start = self.data.len();
        self.data.extend_from_slice(v);
        self.scalar_value(Scalar::Data(start, self.data.len()))
    }
    /// A date-time with an offset is a plist date; a local one (or a date or time
    /// alone) is its RFC 3339 text.
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        if v.offset.is_none() {
            return self.str(&v.to_string());
        }
        match plist_date(v).as_ref().and_then(apple_seconds) {
            Some(seconds) => {
                self.before_value()?;
                self.scalar_value(Scalar::Date(seconds.to_bits()))
            }
            None => Err(EncodeError::unsupported(
                "a date outside the years 0000..=9999 (UTC)",
                FORMAT,
            )),
        }
    }
    fn begin_seq(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.begin(false)
    }
    fn end_seq(&mut self) -> Result<(), EncodeError> {
        self.end(false)
    }
    fn begin_map(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.begin(true)
    }
    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        if !self.open.last().is_some_and(|open| open.dict) || self.key.is_some() {
            return Err(EncodeError::custom("a key outside a dict, or two in a row"));
        }
        let start = self.text.len();
        self.text.extend_from_slice(key.as_bytes());
        self.key = Some((start, self.text.len()));
        Ok(())
    }
    fn end_map(&mut self) -> Result<(), EncodeError> {
        self.end(true)
    }
}

/// Bytes needed for `n` as an unsigned width of 1, 2, 4 or 8.
fn width_of(n: u64) -> usize {
    if n <= 0xFF {
        1
    } else if n <= 0xFFFF {
        2
    } else if n <= 0xFFFF_FFFF {
        4
    } else {
        8
    }
}

/// Writes the low `width` (1, 2, 4 or 8) bytes of `v`, big-endian.
#[inline]
fn push_uint(out: &mut Vec<u8>, v: u64, width: usize) {
    // Fixed-size copies: a slice of a variable length would be a call to memcpy.
    match width {
        1 => out.push(v as u8),
        2 => out.extend_from_slice(&(v as u16).to_be_bytes()),
        4 => out.extend_from_slice(&(v as u32).to_be_bytes()),
        _ => out.extend_from_slice(&v.to_be_bytes()),
    }
}

fn push_int_object(out: &mut Vec<u8>, v: Integer) {
    match v {
        Integer::Int(i) if i < 0 => {
            out.push(0x13);
            push_uint(out, i as u64, 8);
        }
        Integer::Int(i) => {
            let w = width_of(i as u64);
            out.push(0x10 | w.trailing_zeros() as u8);
            push_uint(out, i as u64, w);
        }
        Integer::UInt(u) => {
            out.push(0x14);
            out.extend_from_slice(&u128::from(u).to_be_bytes());
        }
    }
}

fn push_marker_len(out: &mut Vec<u8>, high: u8, len: usize) {
    if len < 15 {
        out.push(high | len as u8);
    } else {
        out.push(high | 0x0F);
        push_int_object(out, Integer::from(len as u64));
    }
}

/// Writes `value` as a binary plist (`bplist00`) into `out` (see [`BinaryWriter`]).
pub fn write_binary(value: &RawValue<'_>, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    write_binary_with_nulls(value, NullEntries::Reject, out)
}

/// [`write_binary`], with null dict entries handled as `nulls` says.
pub fn write_binary_with_nulls(
    value: &RawValue<'_>,
    nulls: NullEntries,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let mut writer = BinaryWriter::with_nulls(out, nulls);
    value.encode(&mut writer)?;
    writer.finish()
}
