//! The OpenStep (ASCII) property list reader, as in Xcode's `.pbxproj` files.
//!
//! Grammar: a value is a dict `{ key = value; ... }`, an array `( value, value, ... )`
//! (a trailing comma allowed), data `<0fbd 7a>` (hex digit pairs, white space anywhere
//! between pairs), a quoted string (`"..."` or `'...'`, with the escapes `\a \b \f \n
//! \r \t \v \\ \" \' \?`, `\Uxxxx` with up to four hex digits and UTF-16 surrogate
//! pairs, and one to three octal digits read as a Latin-1 code point), or an unquoted
//! string of letters, digits and `_ $ + / : . -`. Keys are strings. White space, `//`
//! line comments and `/* */` block comments may appear between tokens. The input is
//! UTF-8 (a byte order mark is skipped). A document whose top level is `key = value;`
//! entries without braces (a `.strings` file) is one dict. OpenStep has no numbers, booleans or dates:
//! every scalar is a string (the struct door makes them untyped text, so decoders read
//! numbers from them).
//!
//! The parser is iterative (an explicit stack bounded by [`Limits::max_depth`]).

use std::borrow::Cow;

use crate::common::{from_surrogates, validate_utf8, Limits, Span};

use super::builder::{PlistBuilder, TextRef};
use super::error::{Error, ErrorKind};

type Result<T> = std::result::Result<T, Error>;

/// Bytes of unquoted strings.
const fn unquoted_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'$' | b'+' | b'/' | b':' | b'.' | b'-');
        i += 1;
    }
    t
}

/// True for the bytes an unquoted OpenStep string may hold.
pub(crate) const UNQUOTED: [bool; 256] = unquoted_table();

enum Frame<D, A> {
    /// A dict; `braceless` for the top level of a strings file (`key = value;` ...).
    Dict {
        dict: D,
        start: usize,
        braceless: bool,
    },
    Array {
        array: A,
        start: usize,
    },
}

struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    scratch: String,
}

impl<'a> Parser<'a> {
    #[cold]
    fn error<T>(&self, kind: ErrorKind, at: usize) -> Result<T> {
        Err(Error::new(kind, self.bytes, at))
    }

    #[cold]
    fn unexpected<T>(&self, expected: &'static str) -> Result<T> {
        match self.src[self.pos..].chars().next() {
            Some(found) => self.error(ErrorKind::UnexpectedCharacter { expected, found }, self.pos),
            None => self.error(ErrorKind::UnexpectedEnd { expected }, self.pos),
        }
    }

    /// Skips white space and comments.
    fn skip(&mut self) -> Result<()> {
        let b = self.bytes;
        loop {
            match b.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C) => self.pos += 1,
                Some(b'/') => match b.get(self.pos + 1) {
                    Some(b'/') => {
                        self.pos = match memchr::memchr2(b'\n', b'\r', &b[self.pos..]) {
                            Some(i) => self.pos + i,
                            None => b.len(),
                        }
                    }
                    Some(b'*') => match memchr::memmem::find(&b[self.pos + 2..], b"*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => return self.error(ErrorKind::UnterminatedComment, self.pos),
                    },
                    _ => return Ok(()),
                },
                _ => return Ok(()),
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// A quoted or unquoted string at `pos`; `Ok(None)` if none starts here.
    fn string(&mut self) -> Result<Option<(TextRef<'a, '_>, Span)>> {
        let start = self.pos;
        match self.peek() {
            Some(quote @ (b'"' | b'\'')) => {
                let body = start + 1;
                let rest = &self.bytes[body..];
                match memchr::memchr2(quote, b'\\', rest) {
                    Some(i) if rest[i] == quote => {
                        self.pos = body + i + 1;
                        let text = &self.src[body..body + i];
                        Ok(Some((TextRef::Borrowed(text), Span::new(start, self.pos))))
                    }
                    Some(i) => {
                        self.escaped(quote, body, body + i)?;
                        Ok(Some((
                            TextRef::Decoded(&self.scratch),
                            Span::new(start, self.pos),
                        )))
                    }
                    None => self.error(ErrorKind::UnterminatedString, start),
                }
            }
            Some(c) if UNQUOTED[usize::from(c)] => {
                let len = self.bytes[start..]
                    .iter()
                    .position(|&c| !UNQUOTED[usize::from(c)])
                    .unwrap_or(self.bytes.len() - start);
                self.pos = start + len;
                let text = &self.src[start..self.pos];
                Ok(Some((TextRef::Borrowed(text), Span::new(start, self.pos))))
            }
            _ => Ok(None),
        }
    }

    /// Decodes a quoted string with escapes into `scratch`; `first` is the first `\`.
    #[cold]
    fn escaped(&mut self, quote: u8, body: usize, first: usize) -> Result<()> {
        let b = self.bytes;
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        out.push_str(&self.src[body..first]);
        let mut i = first;
        let mut pending_high: Option<u16> = None;
        loop {
            let Some(&c) = b.get(i) else {
                self.scratch = out;
                return self.error(ErrorKind::UnterminatedString, body - 1);
            };
            if c == quote {
                if pending_high.is_some() {
                    self.scratch = out;
                    return self.error(ErrorKind::InvalidEscape, i);
                }
                self.pos = i + 1;
                self.scratch = out;
                return Ok(());
            }
            if c != b'\\' {
                if pending_high.is_some() {
                    self.scratch = out;
                    return self.error(ErrorKind::InvalidEscape, i);
                }
                let next = memchr::memchr2(quote, b'\\', &b[i..]).map_or(b.len(), |n| i + n);
                out.push_str(&self.src[i..next]);
                i = next;
                continue;
            }
            let escape_at = i;
            let Some(&e) = b.get(i + 1) else {
                self.scratch = out;
                return self.error(ErrorKind::UnterminatedString, body - 1);
            };
            i += 2;
            let ch: u32 = match e {
                b'a' => 0x07,
                b'b' => 0x08,
                b'f' => 0x0C,
                b'n' => u32::from(b'\n'),
                b'r' => u32::from(b'\r'),
                b't' => u32::from(b'\t'),
                b'v' => 0x0B,
                b'U' | b'u' => {
                    let mut v = 0u32;
                    let mut n = 0;
                    while n < 4 {
                        match b.get(i).and_then(|&d| (d as char).to_digit(16)) {
                            Some(d) => v = v * 16 + d,
                            None => break,
                        }
                        i += 1;
                        n += 1;
                    }
                    if n == 0 {
                        self.scratch = out;
                        return self.error(ErrorKind::InvalidEscape, escape_at);
                    }
                    v
                }
                b'0'..=b'7' => {
                    let mut v = u32::from(e - b'0');
                    let mut n = 1;
                    while n < 3 {
                        match b.get(i) {
                            Some(&d @ b'0'..=b'7') => v = v * 8 + u32::from(d - b'0'),
                            _ => break,
                        }
                        i += 1;
                        n += 1;
                    }
                    v
                }
                _ if e < 0x80 => u32::from(e),
                _ => {
                    // A backslash before a multi-byte character: the character itself.
                    let c = self.src[i - 1..].chars().next().unwrap_or('\u{FFFD}');
                    i += c.len_utf8() - 1;
                    u32::from(c)
                }
            };
            // Surrogate pairs from `\U` escapes.
            let ch = match (pending_high.take(), ch) {
                (None, 0xD800..=0xDBFF) => {
                    pending_high = Some(ch as u16);
                    continue;
                }
                (Some(high), 0xDC00..=0xDFFF) => from_surrogates(u32::from(high), ch),
                (Some(_), _) | (None, 0xDC00..=0xDFFF) => {
                    self.scratch = out;
                    return self.error(ErrorKind::InvalidEscape, escape_at);
                }
                (None, c) => c,
            };
            match char::from_u32(ch) {
                Some(c) => out.push(c),
                None => {
                    self.scratch = out;
                    return self.error(ErrorKind::InvalidEscape, escape_at);
                }
            }
        }
    }

    /// `<hex data>` at `pos`.
    fn data(&mut self) -> Result<(Vec<u8>, Span)> {
        let start = self.pos;
        let b = self.bytes;
        let Some(close) = memchr::memchr(b'>', &b[start..]).map(|i| start + i) else {
            return self.error(ErrorKind::InvalidData, start);
        };
        let mut out = Vec::with_capacity((close - start) / 2);
        let mut high: Option<u8> = None;
        for (i, &c) in b[start + 1..close].iter().enumerate() {
            let digit = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C if high.is_none() => continue,
                _ => return self.error(ErrorKind::InvalidData, start + 1 + i),
            };
            match high.take() {
                None => high = Some(digit),
                Some(h) => out.push(h << 4 | digit),
            }
        }
        if high.is_some() {
            return self.error(ErrorKind::InvalidData, close);
        }
        self.pos = close + 1;
        Ok((out, Span::new(start, self.pos)))
    }
}

/// Reads the OpenStep plist `input` into `builder` under `limits` and returns the top
/// value.
pub fn parse_openstep_with<'a, B: PlistBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<B::Value> {
    if input.len() > limits.max_document_size {
        return Err(Error::new(
            ErrorKind::DocumentSizeLimitReached(limits.max_document_size),
            b"",
            0,
        ));
    }
    let skip_bom = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let src = match validate_utf8(input) {
        Ok(s) => s,
        Err(at) => return Err(Error::new(ErrorKind::InvalidUtf8, input, at)),
    };
    let mut p = Parser {
        src,
        bytes: input,
        pos: skip_bom,
        scratch: String::new(),
    };
    let b = builder;
    let mut stack: Vec<Frame<B::Dict, B::Array>> = Vec::new();
    p.skip()?;
    if p.pos == input.len() {
        return p.error(ErrorKind::Empty, p.pos);
    }
    // A strings file (`.strings`): a top-level `key = value;` list without braces.
    let top = p.pos;
    let braceless = p.string()?.is_some() && {
        p.skip()?;
        p.peek() == Some(b'=')
    };
    p.pos = top;
    if braceless {
        stack.push(Frame::Dict {
            dict: b.begin_dict(top, None),
            start: top,
            braceless: true,
        });
    }
    let mut value_next = !braceless;
    loop {
        // A value starts here.
        p.skip()?;
        let start = p.pos;
        let mut done = match p.peek() {
            _ if !value_next => {
                value_next = true;
                None
            }
            Some(open @ (b'{' | b'(')) => {
                if stack.len() >= limits.max_depth {
                    return p.error(ErrorKind::DepthLimitReached(limits.max_depth), start);
                }
                p.pos += 1;
                stack.push(if open == b'{' {
                    Frame::Dict {
                        dict: b.begin_dict(start, None),
                        start,
                        braceless: false,
                    }
                } else {
                    Frame::Array {
                        array: b.begin_array(start, None),
                        start,
                    }
                });
                None
            }
            Some(b'<') => {
                let (bytes, span) = p.data()?;
                Some(b.data(Cow::Owned(bytes), span))
            }
            _ => match p.string()? {
                Some((text, span)) => Some(b.string(text, span)),
                None => return p.unexpected("a value"),
            },
        };
        // Hand the value to its container; find where the next value starts.
        loop {
            let Some(frame) = stack.last_mut() else {
                p.skip()?;
                if p.pos != input.len() {
                    return p.error(ErrorKind::TrailingContent, p.pos);
                }
                return match done {
                    Some(v) => Ok(v),
                    None => p.unexpected("a value"),
                };
            };
            match frame {
                Frame::Dict {
                    dict, braceless, ..
                } => {
                    if let Some(v) = done.take() {
                        b.dict_value(dict, v);
                        p.skip()?;
                        if p.peek() != Some(b';') {
                            return p.unexpected("`;`");
                        }
                        p.pos += 1;
                    }
                    p.skip()?;
                    let closing = if *braceless {
                        p.pos == input.len()
                    } else {
                        p.peek() == Some(b'}')
                    };
                    if !closing {
                        match p.string()? {
                            Some((key, span)) => b.dict_key(dict, key, span),
                            None if *braceless => return p.unexpected("a key"),
                            None => return p.unexpected("a key or `}`"),
                        }
                        p.skip()?;
                        if p.peek() != Some(b'=') {
                            return p.unexpected("`=`");
                        }
                        p.pos += 1;
                        break;
                    }
                }
                Frame::Array { array, .. } => {
                    if let Some(v) = done.take() {
                        b.array_item(array, v);
                        p.skip()?;
                        match p.peek() {
                            Some(b',') => p.pos += 1,
                            Some(b')') => {}
                            _ => return p.unexpected("`,` or `)`"),
                        }
                    }
                    p.skip()?;
                    if p.peek() != Some(b')') {
                        break;
                    }
                }
            }
            if !matches!(
                stack.last(),
                Some(Frame::Dict {
                    braceless: true,
                    ..
                })
            ) {
                p.pos += 1;
            }
            let end = p.pos;
            done = Some(match stack.pop() {
                Some(Frame::Dict { dict, start, .. }) => b.end_dict(dict, Span::new(start, end)),
                Some(Frame::Array { array, start }) => b.end_array(array, Span::new(start, end)),
                None => return p.unexpected("a value"),
            });
        }
    }
}
