//! The XML property list reader: an [`XmlBuilder`] over quarry's one XML parser that
//! checks the plist DTD's structure and feeds a [`PlistBuilder`].
//!
//! Rules: the root element is `<plist>` (attributes such as `version` are not
//! checked) holding exactly one value; a `<dict>` holds `<key>`/value pairs; leaves
//! (`<string>`, `<key>`, `<integer>`, `<real>`, `<date>`, `<data>`) hold only text
//! (CDATA, references, comments and PIs allowed), `<true/>` and `<false/>` nothing but
//! white space. White space between elements is ignored, other text is an error.
//! Integers are decimal or `0x` hexadecimal with an optional sign (`007`, `-0`,
//! `0xFFFFFFFFFFFFFFFF`) in -2^63 ..= 2^64-1; reals take Rust's float syntax
//! (`1e3`, `.5`, `5.`, `+infinity`, `inf`, `nan`, case-insensitive); dates are
//! RFC 3339 date-times (`YYYY-MM-DDTHH:MM:SSZ`; an offset is converted to UTC); data is
//! base64 with any white space. Integer, real, date and data text may be surrounded by
//! white space.

use std::borrow::Cow;

use quarry_raw_value::{base64, Datetime, Offset};

use crate::common::{Limits, Span};
use crate::xml::{self as xml_format, Options, StartTag, XmlBuilder};

use super::builder::{to_utc, Integer, PlistBuilder, TextRef};
use super::error::{Error, ErrorKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leaf {
    Key,
    String,
    Integer,
    Real,
    Date,
    Data,
    True,
    False,
}

enum Frame<D, A> {
    Plist { values: usize },
    Dict { dict: D, start: usize, key: bool },
    Array { array: A, start: usize },
}

/// The text gathered for the open leaf.
#[derive(Clone, Copy)]
enum Acc<'a> {
    Empty,
    Borrowed(&'a str),
    Owned,
}

/// Adapts XML events to plist builder calls.
struct Adapter<'a, 'b, B: PlistBuilder<'a>> {
    b: &'b mut B,
    stack: Vec<Frame<B::Dict, B::Array>>,
    containers: usize,
    leaf: Option<(Leaf, usize)>,
    acc: Acc<'a>,
    buf: String,
    root: Option<B::Value>,
    error: Option<(ErrorKind, usize)>,
    max_depth: usize,
}

fn trim(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
}

/// Parses a plist `<integer>`'s text.
pub(crate) fn parse_integer(text: &str) -> Result<Integer, ErrorKind> {
    let t = trim(text).as_bytes();
    let (negative, digits) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (radix, digits) = match digits {
        [b'0', b'x' | b'X', rest @ ..] => (16u32, rest),
        _ => (10, digits),
    };
    if digits.is_empty() {
        return Err(ErrorKind::InvalidInteger);
    }
    let mut value: u128 = 0;
    for &d in digits {
        let Some(digit) = (d as char).to_digit(radix) else {
            return Err(ErrorKind::InvalidInteger);
        };
        value = value * u128::from(radix) + u128::from(digit);
        if value > u128::from(u64::MAX) + 1 {
            value = u128::from(u64::MAX) + 2; // saturate: out of range either way
        }
    }
    let signed = if negative {
        -(value as i128)
    } else {
        value as i128
    };
    Integer::from_i128(signed).ok_or(ErrorKind::IntegerOverflow)
}

/// Parses a plist `<real>`'s text.
pub(crate) fn parse_real(text: &str) -> Result<f64, ErrorKind> {
    let t = trim(text);
    t.parse::<f64>().map_err(|_| ErrorKind::InvalidReal)
}

/// Parses a plist `<date>`'s text into a UTC date-time.
pub(crate) fn parse_date(text: &str) -> Result<Datetime, ErrorKind> {
    let t = trim(text);
    let datetime: Datetime = t.parse().map_err(|_| ErrorKind::InvalidDate)?;
    if datetime.date.is_none() || datetime.time.is_none() || datetime.offset.is_none() {
        return Err(ErrorKind::InvalidDate);
    }
    if datetime.offset == Some(Offset::Z) {
        return Ok(datetime);
    }
    to_utc(&datetime).ok_or(ErrorKind::InvalidDate)
}

impl<'a, B: PlistBuilder<'a>> Adapter<'a, '_, B> {
    #[cold]
    fn fail(&mut self, kind: ErrorKind, at: usize) {
        if self.error.is_none() {
            self.error = Some((kind, at));
        }
    }

    /// Checks that a value may start here; for a dict, that its key came.
    fn value_allowed(&mut self, name: &str, at: usize) -> bool {
        match self.stack.last() {
            None => {
                self.fail(ErrorKind::InvalidRoot, at);
                false
            }
            Some(Frame::Dict { key: false, .. }) => {
                self.fail(ErrorKind::MissingKey, at);
                false
            }
            Some(Frame::Plist { values }) if *values > 0 => {
                self.fail(ErrorKind::MultipleValues, at);
                false
            }
            _ => {
                let _ = name;
                true
            }
        }
    }

    /// Hands a finished value to the innermost container.
    fn deliver(&mut self, value: B::Value) {
        match self.stack.last_mut() {
            Some(Frame::Plist { values }) => {
                *values += 1;
                self.root = Some(value);
            }
            Some(Frame::Dict { dict, key, .. }) => {
                *key = false;
                self.b.dict_value(dict, value);
            }
            Some(Frame::Array { array, .. }) => self.b.array_item(array, value),
            None => {}
        }
    }

    fn text_of<'s>(acc: Acc<'a>, buf: &'s str) -> TextRef<'a, 's> {
        match acc {
            Acc::Empty => TextRef::Borrowed(""),
            Acc::Borrowed(s) => TextRef::Borrowed(s),
            Acc::Owned => TextRef::Decoded(buf),
        }
    }

    fn push_text(&mut self, text: TextRef<'a, '_>) {
        match (self.acc, text) {
            (Acc::Empty, TextRef::Borrowed(s)) => self.acc = Acc::Borrowed(s),
            (Acc::Empty, TextRef::Decoded(s)) => {
                self.buf.clear();
                self.buf.push_str(s);
                self.acc = Acc::Owned;
            }
            (Acc::Borrowed(first), t) => {
                self.buf.clear();
                self.buf.push_str(first);
                self.buf.push_str(t.as_str());
                self.acc = Acc::Owned;
            }
            (Acc::Owned, t) => self.buf.push_str(t.as_str()),
        }
    }

    fn end_leaf(&mut self, leaf: Leaf, start: usize, end: usize) {
        let span = Span::new(start, end);
        let acc = std::mem::replace(&mut self.acc, Acc::Empty);
        let text = Self::text_of(acc, &self.buf);
        let value = match leaf {
            Leaf::Key => {
                if let Some(Frame::Dict { dict, key, .. }) = self.stack.last_mut() {
                    *key = true;
                    self.b.dict_key(dict, text, span);
                }
                return;
            }
            Leaf::String => self.b.string(text, span),
            Leaf::True | Leaf::False => {
                if !xml_format::is_xml_whitespace(text.as_str()) {
                    return self.fail(ErrorKind::UnexpectedText, start);
                }
                self.b.bool(leaf == Leaf::True, span)
            }
            Leaf::Integer => match parse_integer(text.as_str()) {
                Ok(v) => self.b.integer(v, span),
                Err(kind) => return self.fail(kind, start),
            },
            Leaf::Real => match parse_real(text.as_str()) {
                Ok(v) => self.b.real(v, span),
                Err(kind) => return self.fail(kind, start),
            },
            Leaf::Date => match parse_date(text.as_str()) {
                Ok(v) => self.b.date(v, span),
                Err(kind) => return self.fail(kind, start),
            },
            Leaf::Data => match base64::decode(text.as_str()) {
                Some(bytes) => self.b.data(Cow::Owned(bytes), span),
                None => return self.fail(ErrorKind::InvalidData, start),
            },
        };
        self.deliver(value);
    }
}

impl<'a, B: PlistBuilder<'a>> XmlBuilder<'a> for Adapter<'a, '_, B> {
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        if self.error.is_some() {
            return;
        }
        let at = tag.span().start;
        let name: &str = tag.name();
        if self.leaf.is_some() {
            return self.fail(ErrorKind::UnexpectedElement(name.to_owned()), at);
        }
        if self.stack.is_empty() {
            if name != "plist" {
                return self.fail(ErrorKind::InvalidRoot, at);
            }
            self.stack.push(Frame::Plist { values: 0 });
            return;
        }
        let leaf = match name {
            "dict" | "array" => {
                if !self.value_allowed(name, at) {
                    return;
                }
                if self.containers >= self.max_depth {
                    return self.fail(ErrorKind::DepthLimitReached(self.max_depth), at);
                }
                self.containers += 1;
                let frame = if name == "dict" {
                    Frame::Dict {
                        dict: self.b.begin_dict(at, None),
                        start: at,
                        key: false,
                    }
                } else {
                    Frame::Array {
                        array: self.b.begin_array(at, None),
                        start: at,
                    }
                };
                self.stack.push(frame);
                return;
            }
            "key" => {
                match self.stack.last() {
                    Some(Frame::Dict { key: false, .. }) => {}
                    Some(Frame::Dict { key: true, .. }) => {
                        return self.fail(ErrorKind::MissingDictValue, at)
                    }
                    _ => return self.fail(ErrorKind::UnexpectedElement("key".to_owned()), at),
                }
                Leaf::Key
            }
            "string" => Leaf::String,
            "integer" => Leaf::Integer,
            "real" => Leaf::Real,
            "date" => Leaf::Date,
            "data" => Leaf::Data,
            "true" => Leaf::True,
            "false" => Leaf::False,
            _ => return self.fail(ErrorKind::UnexpectedElement(name.to_owned()), at),
        };
        if leaf != Leaf::Key && !self.value_allowed(name, at) {
            return;
        }
        self.acc = Acc::Empty;
        self.leaf = Some((leaf, at));
    }

    fn end_element(&mut self, span: Span) {
        if self.error.is_some() {
            return;
        }
        if let Some((leaf, start)) = self.leaf.take() {
            return self.end_leaf(leaf, start, span.end);
        }
        match self.stack.pop() {
            Some(Frame::Plist { values: 0 }) => self.fail(ErrorKind::MissingValue, span.start),
            Some(Frame::Plist { .. }) => {}
            Some(Frame::Dict { dict, start, key }) => {
                self.containers -= 1;
                if key {
                    return self.fail(ErrorKind::MissingDictValue, span.start);
                }
                let value = self.b.end_dict(dict, Span::new(start, span.end));
                self.deliver(value);
            }
            Some(Frame::Array { array, start }) => {
                self.containers -= 1;
                let value = self.b.end_array(array, Span::new(start, span.end));
                self.deliver(value);
            }
            None => {}
        }
    }

    fn text(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.error.is_some() {
            return;
        }
        if self.leaf.is_some() {
            self.push_text(text);
        } else if !xml_format::is_xml_whitespace(text.as_str()) {
            self.fail(ErrorKind::UnexpectedText, span.start);
        }
    }
}

/// Reads the XML plist `input` into `builder` under `limits` and returns the top value.
///
/// `limits.max_depth` bounds the nesting of dicts and arrays.
pub fn parse_xml_with<'a, B: PlistBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<B::Value, Error> {
    let mut adapter = Adapter {
        b: builder,
        stack: Vec::new(),
        containers: 0,
        leaf: None,
        acc: Acc::Empty,
        buf: String::new(),
        root: None,
        error: None,
        max_depth: limits.max_depth,
    };
    // The XML parser counts elements: `<plist>` and a leaf on top of the containers.
    let xml_limits = limits.with_max_depth(limits.max_depth.saturating_add(2));
    // The plist DTD has no namespaces: names are plain XML names.
    let options = Options::default()
        .with_limits(xml_limits)
        .with_namespaces(false);
    let parsed = xml_format::parse_with(input, &mut adapter, options);
    let (kind, at) = match (parsed, adapter.error) {
        (Ok(()), None) => {
            return match adapter.root {
                Some(value) => Ok(value),
                None => Err(Error::new(ErrorKind::MissingValue, input, input.len())),
            }
        }
        (Err(e), Some((_, at))) if e.offset() < at => {
            (ErrorKind::Xml(e.kind().clone()), e.offset())
        }
        (_, Some((kind, at))) => (kind, at),
        (Err(e), None) => (ErrorKind::Xml(e.kind().clone()), e.offset()),
    };
    Err(located(kind, input, at, xml_limits))
}

/// The error at offset `at` of the text the XML parser read: the input, or for other
/// encodings the input transcoded to UTF-8 (lines and columns are counted there).
#[cold]
fn located(kind: ErrorKind, input: &[u8], at: usize, limits: Limits) -> Error {
    match xml_format::decode_input(input, limits) {
        Ok(xml_format::Input::Transcoded(text, _)) => Error::new(kind, text.as_bytes(), at),
        _ => Error::new(kind, input, at),
    }
}
