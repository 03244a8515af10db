//! The TOML lexer: whitespace, comments, keys and scalar values, read straight from the
//! source on demand (no token stream). Strings are borrowed unless an escape or a CRLF
//! had to be rewritten.
//!
//! Each step quotes the rules it reads from TOML 1.0.0's ABNF (`toml.abnf`).

use std::borrow::Cow;

use quarry_raw_value::Datetime;

use crate::common::{
    decode_string_runs, fold_digits, fraction_after, plain_decimal, twenty_digits_fit_u64, Escapes,
    Span,
};

use super::builder::{Key, StringKind};
use super::error::{Error, ErrorKind};

/// A scalar value as the lexer reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar<'a> {
    /// A string of one of the four kinds.
    String(Cow<'a, str>, StringKind),
    /// A 64-bit signed integer.
    Integer(i64),
    /// A float.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// One of the four datetime kinds.
    Datetime(Datetime),
}

// unquoted-key = 1*( ALPHA / DIGIT / %x2D / %x5F ) ; A-Z / a-z / 0-9 / - / _
/// The bytes of a bare key: `A-Z a-z 0-9 _ -`.
static BARE_KEY: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
        b += 1;
    }
    table
};

/// The next byte at or after `i` that may end a run of string content: `quote`, `\`,
/// a control character or DEL.
#[inline]
fn find_special<const QUOTE: u8>(bytes: &[u8], i: usize) -> usize {
    crate::common::find_string_special::<QUOTE, true>(bytes, i)
}

/// A control character TOML forbids in strings and comments (all but tab).
#[inline]
fn is_forbidden_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7F
}

#[inline]
fn is_bare_key_byte(b: u8) -> bool {
    BARE_KEY[b as usize]
}

/// A number [`Lexer::plain_number`] reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum PlainNumber {
    Integer(i64),
    Float(f64),
}

/// Reads TOML's tokens from a UTF-8 source at a byte position.
#[derive(Debug, Clone)]
pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Where a basic string with escapes is decoded, reused, so the string it becomes
    /// is allocated once at its final size.
    scratch: String,
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`, starting at byte `pos`.
    pub fn new(src: &'a str, pos: usize) -> Self {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos,
            scratch: String::new(),
        }
    }

    /// The whole source.
    pub fn src(&self) -> &'a str {
        self.src
    }

    /// The current byte offset.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The byte at the current position.
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    pub(super) fn bump(&mut self) {
        self.pos += 1;
    }

    /// Moves to byte `pos`, past text the caller has read.
    #[inline]
    pub(super) fn advance_to(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// An error of `kind` at byte `at`.
    #[cold]
    pub fn error_at(&self, kind: ErrorKind, at: usize) -> Error {
        Error::new(kind, self.bytes, at)
    }

    /// "expected `expected`" at the current position, naming what is there instead.
    #[cold]
    pub fn unexpected(&self, expected: &'static str) -> Error {
        match self
            .src
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
        {
            Some(found) => {
                self.error_at(ErrorKind::UnexpectedCharacter { expected, found }, self.pos)
            }
            None => self.error_at(ErrorKind::UnexpectedEnd { expected }, self.pos),
        }
    }

    // ws = *wschar
    // wschar =  %x20  ; Space
    // wschar =/ %x09  ; Horizontal tab
    /// Skips spaces and tabs.
    #[inline]
    pub fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t') = self.peek() {
            self.pos += 1;
        }
    }

    /// Consumes `byte` or fails with "expected `what`".
    #[inline(always)]
    pub fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), Error> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    // comment = comment-start-symbol *non-eol
    // comment-start-symbol = %x23 ; #
    // non-eol = %x09 / %x20-7F / non-ascii
    /// Reads a comment starting at `#`, up to (not including) the end of its line.
    pub fn comment(&mut self) -> Result<Span, Error> {
        let start = self.pos;
        self.pos += 1;
        // The string scan stops at every control character and DEL, and at backslashes
        // (taken here like any other byte): a comment is read sixteen or 32 bytes a step.
        loop {
            self.pos = crate::common::find_string_special::<b'\n', true>(self.bytes, self.pos);
            match self.peek() {
                None | Some(b'\n' | b'\r') => return Ok(Span::new(start, self.pos)),
                Some(b) if is_forbidden_control(b) => {
                    return Err(self.error_at(ErrorKind::ControlCharacter, self.pos));
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    // newline =  %x0A     ; LF
    // newline =/ %x0D.0A  ; CRLF
    /// Consumes a newline (`\n` or `\r\n`) if one is next; a lone `\r` is an error.
    #[inline]
    pub fn newline(&mut self) -> Result<bool, Error> {
        match self.peek() {
            Some(b'\n') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b'\r') if self.bytes.get(self.pos + 1) == Some(&b'\n') => {
                self.pos += 2;
                Ok(true)
            }
            Some(b'\r') => Err(self.error_at(ErrorKind::ControlCharacter, self.pos)),
            _ => Ok(false),
        }
    }

    // unquoted-key = 1*( ALPHA / DIGIT / %x2D / %x5F ) ; A-Z / a-z / 0-9 / - / _
    // keyval-sep = ws %x3D ws ; =
    /// A bare key followed by `=` (spaces allowed around it), consumed with the `=` and
    /// the spaces after it; `None`, consuming nothing, for anything else.
    #[inline(always)]
    pub fn simple_key(&mut self) -> Option<Key<'a>> {
        let start = self.pos;
        let end = crate::common::bare_key_end(self.bytes, start);
        let mut after = end;
        while let Some(b' ' | b'\t') = self.bytes.get(after) {
            after += 1;
        }
        if end == start || self.bytes.get(after) != Some(&b'=') {
            return None;
        }
        self.pos = after + 1;
        self.skip_ws();
        // SAFETY: `start < end <= src.len()` (`bare_key_end` stops at the end at most, and
        // the key is not empty), and every byte from `start` to `end` is an ASCII
        // bare-key byte, so both offsets are character boundaries of `src`. (Checked,
        // the slice is a call of its own on every key.)
        #[allow(unsafe_code)]
        let name = unsafe { self.src.get_unchecked(start..end) };
        Some(Key {
            name: Cow::Borrowed(name),
            span: Span::new(start, end),
        })
    }

    // simple-key = quoted-key / unquoted-key
    // quoted-key = basic-string / literal-string
    /// Reads one key segment: bare, `"basic"` or `'literal'`.
    pub fn key(&mut self) -> Result<Key<'a>, Error> {
        let start = self.pos;
        let name = match self.peek() {
            Some(b'"') => self.basic_string()?,
            Some(b'\'') => self.literal_string()?,
            Some(b) if is_bare_key_byte(b) => {
                self.pos = crate::common::bare_key_end(self.bytes, start);
                Cow::Borrowed(&self.src[start..self.pos])
            }
            _ => return Err(self.unexpected("a key")),
        };
        Ok(Key {
            name,
            span: Span::new(start, self.pos),
        })
    }

    /// Reads a scalar value (anything but an array or inline table), and its span.
    #[inline(always)]
    pub fn scalar(&mut self) -> Result<(Scalar<'a>, Span), Error> {
        let start = self.pos;
        let scalar = self.value()?;
        Ok((scalar, Span::new(start, self.pos)))
    }

    /// A one-line basic string (`"..."`), when one starts here: the direct path's
    /// [`Lexer::value`] for a string field, without the [`Scalar`] around it.
    #[inline(always)]
    pub(super) fn basic_string_value(&mut self) -> Option<Result<Cow<'a, str>, Error>> {
        let rest = &self.bytes[self.pos..];
        (rest.first() == Some(&b'"') && !rest.starts_with(b"\"\"\"")).then(|| self.basic_string())
    }

    // val = string / boolean / array / inline-table / date-time / float / integer
    // string = ml-basic-string / basic-string / ml-literal-string / literal-string
    /// [`Lexer::scalar`] without its span: the direct path's read, which would otherwise
    /// store and drop the span, and wrap a string field's text in a [`Scalar`] only to
    /// unwrap it, on every value.
    pub fn value(&mut self) -> Result<Scalar<'a>, Error> {
        let start = self.pos;
        let rest = &self.bytes[start..];
        let scalar = match rest.first() {
            Some(b'"') if rest.starts_with(b"\"\"\"") => {
                Scalar::String(self.multiline_string::<b'"'>()?, StringKind::MultilineBasic)
            }
            Some(b'"') => Scalar::String(self.basic_string()?, StringKind::Basic),
            Some(b'\'') if rest.starts_with(b"'''") => Scalar::String(
                self.multiline_string::<b'\''>()?,
                StringKind::MultilineLiteral,
            ),
            Some(b'\'') => Scalar::String(self.literal_string()?, StringKind::Literal),
            Some(b't' | b'f') => match self.boolean() {
                Some(b) => Scalar::Bool(b),
                None => return Err(self.unexpected("a value")),
            },
            Some(b'0'..=b'9' | b'+' | b'-' | b'i' | b'n') => self.number_or_datetime()?,
            _ => return Err(self.unexpected("a value")),
        };
        Ok(scalar)
    }

    // basic-string = quotation-mark *basic-char quotation-mark
    // basic-char = basic-unescaped / escaped
    // basic-unescaped = wschar / %x21 / %x23-5B / %x5D-7E / non-ascii
    /// `"..."`: escapes decoded; borrowed when there were none.
    fn basic_string(&mut self) -> Result<Cow<'a, str>, Error> {
        let open = self.pos;
        self.pos += 1;
        let begin = self.pos;
        loop {
            self.pos = find_special::<b'"'>(self.bytes, self.pos);
            match self.peek() {
                Some(b'\t') => self.pos += 1,
                Some(b'"') => {
                    let end = self.pos;
                    self.pos += 1;
                    // SAFETY: `begin` is one past the opening quote and `end` is the
                    // closing quote's offset (`peek` found it), so `begin <= end <=
                    // src.len()`; both quotes are ASCII, so both offsets are character
                    // boundaries of `src`. (Checked, the slice is a call of its own.)
                    #[allow(unsafe_code)]
                    return Ok(Cow::Borrowed(unsafe { self.src.get_unchecked(begin..end) }));
                }
                Some(b'\\') => return self.decode_basic_string(open, begin),
                Some(b'\n' | b'\r') | None => {
                    return Err(self.error_at(ErrorKind::UnterminatedString, open));
                }
                Some(_) => return Err(self.error_at(ErrorKind::ControlCharacter, self.pos)),
            }
        }
    }

    /// The rest of a basic string opened at `open` whose text began at `begin`, from its
    /// first escape (at the current position): its runs copied and its escapes decoded
    /// onto the scratch buffer by [`decode_string_runs`], then copied out at their final
    /// size.
    #[inline(never)]
    fn decode_basic_string(&mut self, open: usize, begin: usize) -> Result<Cow<'a, str>, Error> {
        // Decoded as bytes (a run may be copied a block at a time, past a character's
        // end), and a `String` again once the string ends.
        let mut buf = std::mem::take(&mut self.scratch).into_bytes();
        buf.clear();
        buf.extend_from_slice(&self.bytes[begin..self.pos]);
        let end = decode_string_runs::<b'"', true>(self.bytes, self.pos, &mut buf, &*self);
        let closed = self.bytes.get(end) == Some(&b'"');
        if !closed {
            buf.clear();
        }
        // SAFETY: `buf` holds the input's runs, each ending before an ASCII byte (a
        // quote, backslash or control character) of the UTF-8 input, so on a character
        // boundary, the tabs passed over and the UTF-8 of each decoded escape's `char`
        // (or nothing, after an error).
        #[allow(unsafe_code)]
        let decoded = unsafe { String::from_utf8_unchecked(buf) };
        let string = closed.then(|| Cow::Owned(decoded.as_str().to_owned()));
        self.scratch = decoded;
        self.pos = end;
        match (string, self.peek()) {
            (Some(string), _) => {
                self.pos += 1;
                Ok(string)
            }
            // A malformed escape: read again to name what is wrong with it.
            (None, Some(b'\\')) => Err(self
                .escape(&mut String::new())
                .err()
                .unwrap_or_else(|| self.error_at(ErrorKind::InvalidEscape, end))),
            (None, Some(b'\n' | b'\r') | None) => {
                Err(self.error_at(ErrorKind::UnterminatedString, open))
            }
            (None, Some(_)) => Err(self.error_at(ErrorKind::ControlCharacter, end)),
        }
    }

    /// [`Escapes::decode`] for `\\uXXXX` and `\\UXXXXXXXX` at `i`, out of line so the
    /// loop over a string's runs keeps the one-byte escapes inline; `None` when the
    /// digits are not a scalar value.
    #[inline(never)]
    fn decode_unicode_onto(&self, i: usize, len: usize, out: &mut Vec<u8>) -> Option<usize> {
        let hex = self.bytes.get(i + 2..i + 2 + len)?;
        let mut code = 0u32;
        for &h in hex {
            code = code * 16 + (h as char).to_digit(16)?;
        }
        let c = char::from_u32(code)?;
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        Some(i + 2 + len)
    }

    // escaped = escape escape-seq-char
    // escape-seq-char = %x22 / %x5C / %x62 / %x66 / %x6E / %x72 / %x74  ; " \ b f n r t
    // escape-seq-char =/ %x75 4HEXDIG / %x55 8HEXDIG                  ; uXXXX UXXXXXXXX
    /// One escape sequence at `\`, appended to `out`.
    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        let at = self.pos;
        let c = match self.bytes.get(at + 1) {
            Some(b'b') => '\u{8}',
            Some(b't') => '\t',
            Some(b'n') => '\n',
            Some(b'f') => '\u{c}',
            Some(b'r') => '\r',
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(&u @ (b'u' | b'U')) => {
                let len = if u == b'u' { 4 } else { 8 };
                let hex = self
                    .bytes
                    .get(at + 2..at + 2 + len)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .ok_or_else(|| self.error_at(ErrorKind::InvalidUnicodeEscape, at))?;
                let code = hex.iter().fold(0u32, |acc, &h| {
                    acc * 16 + (h as char).to_digit(16).unwrap_or(0)
                });
                self.pos = at + 2 + len;
                out.push(
                    char::from_u32(code)
                        .ok_or_else(|| self.error_at(ErrorKind::InvalidUnicodeEscape, at))?,
                );
                return Ok(());
            }
            _ => return Err(self.error_at(ErrorKind::InvalidEscape, at)),
        };
        self.pos = at + 2;
        out.push(c);
        Ok(())
    }

    // literal-string = apostrophe *literal-char apostrophe
    // literal-char = %x09 / %x20-26 / %x28-7E / non-ascii
    /// `'...'`: no escapes, always borrowed.
    fn literal_string(&mut self) -> Result<Cow<'a, str>, Error> {
        let open = self.pos;
        self.pos += 1;
        let begin = self.pos;
        loop {
            self.pos = find_special::<b'\''>(self.bytes, self.pos);
            match self.peek() {
                Some(b'\'') => {
                    self.pos += 1;
                    return Ok(Cow::Borrowed(&self.src[begin..self.pos - 1]));
                }
                Some(b'\n' | b'\r') | None => {
                    return Err(self.error_at(ErrorKind::UnterminatedString, open))
                }
                Some(b) if is_forbidden_control(b) => {
                    return Err(self.error_at(ErrorKind::ControlCharacter, self.pos))
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// Skips the newline right after an opening `"""` or `'''`.
    fn trim_first_newline(&mut self) {
        if self.bytes[self.pos..].starts_with(b"\n") {
            self.pos += 1;
        } else if self.bytes[self.pos..].starts_with(b"\r\n") {
            self.pos += 2;
        }
    }

    // ml-basic-body = *mlb-content *( mlb-quotes 1*mlb-content ) [ mlb-quotes ]
    // mlb-quotes = 1*2quotation-mark
    // ml-literal-body = *mll-content *( mll-quotes 1*mll-content ) [ mll-quotes ]
    // mll-quotes = 1*2apostrophe
    /// At a run of `quote`s inside a multi-line string: how many belong to the content
    /// (0 to 2) if the run closes the string, or `None` if it does not (fewer than 3).
    fn closing_quotes(&self, quote: u8) -> Option<usize> {
        let run = self.bytes[self.pos..]
            .iter()
            .take_while(|&&b| b == quote)
            .count();
        (run >= 3).then(|| run.min(5) - 3)
    }

    // ml-basic-string = ml-basic-string-delim [ newline ] ml-basic-body
    //                   ml-basic-string-delim
    // mlb-content = mlb-char / newline / mlb-escaped-nl
    // mlb-escaped-nl = escape ws newline *( wschar / newline )
    // ml-literal-string = ml-literal-string-delim [ newline ] ml-literal-body
    //                     ml-literal-string-delim
    // mll-content = mll-char / newline
    /// `"""..."""` (`QUOTE` = `"`: escapes and line-ending backslashes decoded) or
    /// `'''...'''` (`QUOTE` = `'`: no escapes); CRLF reads as LF in both.
    fn multiline_string<const QUOTE: u8>(&mut self) -> Result<Cow<'a, str>, Error> {
        let open = self.pos;
        self.pos += 3;
        self.trim_first_newline();
        let begin = self.pos;
        let mut owned: Option<String> = None;
        let mut run = begin;
        loop {
            self.pos = find_special::<QUOTE>(self.bytes, self.pos);
            match self.peek() {
                None => return Err(self.error_at(ErrorKind::UnterminatedString, open)),
                Some(q) if q == QUOTE => {
                    if let Some(extra) = self.closing_quotes(QUOTE) {
                        let end = self.pos + extra;
                        self.pos = end + 3;
                        return Ok(match owned {
                            None => Cow::Borrowed(&self.src[begin..end]),
                            Some(mut s) => {
                                s.push_str(&self.src[run..end]);
                                Cow::Owned(s)
                            }
                        });
                    }
                    self.pos += 1;
                }
                Some(b'\\') if QUOTE == b'"' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&self.src[run..self.pos]);
                    let after = self.bytes[self.pos + 1..]
                        .iter()
                        .position(|&b| b != b' ' && b != b'\t')
                        .map(|n| self.pos + 1 + n);
                    match after.map(|i| self.bytes[i]) {
                        Some(b'\n' | b'\r') => {
                            // A line-ending backslash: drop it and all whitespace after.
                            self.pos = after.unwrap_or(self.pos);
                            loop {
                                self.skip_ws();
                                if !self.newline()? {
                                    break;
                                }
                            }
                        }
                        _ => self.escape(s)?,
                    }
                    run = self.pos;
                }
                Some(b'\r') => {
                    if self.bytes.get(self.pos + 1) != Some(&b'\n') {
                        return Err(self.error_at(ErrorKind::ControlCharacter, self.pos));
                    }
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&self.src[run..self.pos]);
                    s.push('\n');
                    self.pos += 2;
                    run = self.pos;
                }
                Some(b) if b != b'\n' && is_forbidden_control(b) => {
                    return Err(self.error_at(ErrorKind::ControlCharacter, self.pos));
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    // boolean = true / false
    /// `true` or `false`, when one starts here (consumed); `None`, consuming nothing,
    /// for anything else. [`Lexer::value`]'s booleans, and the direct path's boolean
    /// fields, read in a register.
    #[inline(always)]
    pub(super) fn boolean(&mut self) -> Option<bool> {
        let rest = &self.bytes[self.pos..];
        if rest.starts_with(b"true") {
            self.pos += 4;
            Some(true)
        } else if rest.starts_with(b"false") {
            self.pos += 5;
            Some(false)
        } else {
            None
        }
    }

    // dec-int = [ minus / plus ] unsigned-dec-int  ; here without underscores
    // float = float-int-part ( exp / frac [ exp ] ) ; here `frac` alone, no underscores
    /// The common numbers, their digits read once: a sign, then plain digits (no `_`, no
    /// leading zero) in the range of `i64`, or at most 18 of them (which cannot
    /// overflow), a `.`, plain digits and no exponent. `None`, consuming nothing, for
    /// anything else, which [`Lexer::value`] reads the long way (and where it reports
    /// every error). Digits followed by `-` or `:` may be a date or a time, and a `0`
    /// followed by `x`, `o` or `b` a radix prefix: the long way looks for those first.
    /// (Looked for before the digits are read, they would be a large share of reading a
    /// small integer.) The direct path reads a number field here, in registers, without
    /// the [`Scalar`] around it: returned through memory from [`Lexer::value`], a large
    /// function, the `Scalar` would cost as much as reading the integer.
    #[inline(always)]
    pub(super) fn plain_number(&mut self) -> Option<PlainNumber> {
        let start = self.pos;
        let first = *self.bytes.get(start)?;
        let negative = first == b'-';
        let p = start + usize::from(negative || first == b'+');
        let (end, magnitude) = fold_digits(self.bytes, p, 0);
        let count = end - p;
        if count == 0 || (count > 1 && self.bytes[p] == b'0') {
            return None;
        }
        match self.bytes.get(end) {
            Some(b'.') if count <= 18 => {
                let (end, value) = fraction_after(self.bytes, end, count, magnitude)?;
                if matches!(self.bytes.get(end), Some(b'e' | b'E' | b'_')) {
                    return None;
                }
                self.pos = end;
                Some(PlainNumber::Float(if negative { -value } else { value }))
            }
            Some(b'.' | b'e' | b'E' | b'_' | b'-' | b':' | b'x' | b'o' | b'b') => None,
            _ => {
                // The fold wraps past 2^64: exact to 19 digits, and to 20 below 2^64.
                let exact = match count {
                    ..=19 => true,
                    20 => twenty_digits_fit_u64(self.bytes[p..end].try_into().ok()?),
                    _ => false,
                };
                let value = if !exact {
                    None
                } else if negative {
                    0i64.checked_sub_unsigned(magnitude)
                } else {
                    i64::try_from(magnitude).ok()
                }?;
                self.pos = end;
                Some(PlainNumber::Integer(value))
            }
        }
    }

    // integer = dec-int / hex-int / oct-int / bin-int
    // float = float-int-part ( exp / frac [ exp ] )
    // float =/ special-float
    // date-time = offset-date-time / local-date-time / local-date / local-time
    /// An integer, a float, `inf`/`nan` or a datetime.
    fn number_or_datetime(&mut self) -> Result<Scalar<'a>, Error> {
        match self.plain_number() {
            Some(PlainNumber::Integer(i)) => return Ok(Scalar::Integer(i)),
            Some(PlainNumber::Float(f)) => return Ok(Scalar::Float(f)),
            None => {}
        }
        self.number_the_long_way()
    }

    // unsigned-dec-int = DIGIT / digit1-9 1*( DIGIT / underscore DIGIT )
    // frac = decimal-point zero-prefixable-int
    // exp = "e" float-exp-part
    // float-exp-part = [ minus / plus ] zero-prefixable-int
    // special-float = [ minus / plus ] ( inf / nan )
    /// [`Lexer::number_or_datetime`] past [`Lexer::plain_number`]: datetimes, `inf` and
    /// `nan`, radix integers, `_`, exponents, long numbers, and every error.
    fn number_the_long_way(&mut self) -> Result<Scalar<'a>, Error> {
        let start = self.pos;
        let rest = &self.bytes[start..];
        let negative = rest[0] == b'-';
        let mut p = start + usize::from(matches!(rest[0], b'+' | b'-'));
        let looks_like_date =
            rest.len() >= 5 && rest[..4].iter().all(u8::is_ascii_digit) && rest[4] == b'-';
        let looks_like_time =
            rest.len() >= 3 && rest[..2].iter().all(u8::is_ascii_digit) && rest[2] == b':';
        if looks_like_date || looks_like_time {
            let (datetime, used) = Datetime::parse_prefix(rest)
                .ok_or_else(|| self.error_at(ErrorKind::InvalidDatetime, start))?;
            self.pos += used;
            return Ok(Scalar::Datetime(datetime));
        }
        let body = &self.bytes[p..];
        if body.starts_with(b"inf") || body.starts_with(b"nan") {
            self.pos = p + 3;
            let value = if body[0] == b'i' {
                f64::INFINITY
            } else {
                f64::NAN
            };
            return Ok(Scalar::Float(if negative { -value } else { value }));
        }
        if p == start && body.len() >= 2 && body[0] == b'0' {
            let radix = match body[1] {
                b'x' => 16,
                b'o' => 8,
                b'b' => 2,
                _ => 0,
            };
            if radix != 0 {
                return self.radix_integer(start + 2, radix);
            }
        }
        let int_start = p;
        p = self.digits(p)?;
        let int_digits = &self.bytes[int_start..p];
        if int_digits[0] == b'0' && int_digits.len() > 1 {
            return Err(self.error_at(ErrorKind::InvalidNumber, start));
        }
        let mut is_float = false;
        if self.bytes.get(p) == Some(&b'.') {
            p = self.digits(p + 1)?;
            is_float = true;
        }
        if let Some(b'e' | b'E') = self.bytes.get(p) {
            p += 1;
            if let Some(b'+' | b'-') = self.bytes.get(p) {
                p += 1;
            }
            p = self.digits(p)?;
            is_float = true;
        }
        self.pos = p;
        let text = &self.src[start..p];
        if is_float {
            if let Some(value) = plain_decimal(text) {
                return Ok(Scalar::Float(value));
            }
            let value = if text.contains('_') {
                text.replace('_', "").parse::<f64>()
            } else {
                text.parse::<f64>()
            };
            return value
                .map(Scalar::Float)
                .map_err(|_| self.error_at(ErrorKind::InvalidNumber, start));
        }
        let mut magnitude: u64 = 0;
        for &b in int_digits {
            if b != b'_' {
                magnitude = magnitude
                    .checked_mul(10)
                    .and_then(|m| m.checked_add(u64::from(b - b'0')))
                    .ok_or_else(|| self.error_at(ErrorKind::IntegerOverflow, start))?;
            }
        }
        let value = if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        };
        value
            .map(Scalar::Integer)
            .ok_or_else(|| self.error_at(ErrorKind::IntegerOverflow, start))
    }

    // zero-prefixable-int = DIGIT *( DIGIT / underscore DIGIT )
    /// Decimal digits from `p` with single underscores between digits; at least one
    /// digit. Returns the position after them.
    fn digits(&self, mut p: usize) -> Result<usize, Error> {
        if !self.bytes.get(p).is_some_and(u8::is_ascii_digit) {
            return Err(self.error_at(ErrorKind::InvalidNumber, p));
        }
        loop {
            match self.bytes.get(p) {
                Some(b) if b.is_ascii_digit() => p += 1,
                Some(b'_') if self.bytes.get(p + 1).is_some_and(u8::is_ascii_digit) => p += 1,
                Some(b'_') => return Err(self.error_at(ErrorKind::InvalidNumber, p)),
                _ => return Ok(p),
            }
        }
    }

    // hex-int = hex-prefix HEXDIG *( HEXDIG / underscore HEXDIG )
    // oct-int = oct-prefix digit0-7 *( digit0-7 / underscore digit0-7 )
    // bin-int = bin-prefix digit0-1 *( digit0-1 / underscore digit0-1 )
    /// `0x`, `0o` or `0b` digits from `p` (after the prefix), underscores between digits.
    fn radix_integer(&mut self, mut p: usize, radix: u32) -> Result<Scalar<'a>, Error> {
        let start = p - 2;
        let mut value: u64 = 0;
        let mut previous_digit = false;
        loop {
            let b = self.bytes.get(p).copied();
            match b.and_then(|b| (b as char).to_digit(radix)) {
                Some(d) => {
                    value = value
                        .checked_mul(u64::from(radix))
                        .and_then(|v| v.checked_add(u64::from(d)))
                        .filter(|&v| v <= i64::MAX as u64)
                        .ok_or_else(|| self.error_at(ErrorKind::IntegerOverflow, start))?;
                    previous_digit = true;
                    p += 1;
                }
                None if b == Some(b'_') && previous_digit => {
                    previous_digit = false;
                    p += 1;
                }
                None if previous_digit
                    && !b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') =>
                {
                    break
                }
                None => return Err(self.error_at(ErrorKind::InvalidNumber, p)),
            }
        }
        self.pos = p;
        Ok(Scalar::Integer(value as i64))
    }
}

// basic-char = basic-unescaped / escaped
// escaped = escape escape-seq-char
/// TOML's escapes in a basic string, decoded as its runs are copied
/// ([`decode_string_runs`]), and the tabs it may hold; anything else ends the string,
/// and [`Lexer::decode_basic_string`] says why if it is not the closing quote.
impl Escapes for Lexer<'_> {
    #[inline(always)]
    fn decode(&self, i: usize, out: &mut Vec<u8>) -> Option<usize> {
        let byte = match self.bytes.get(i) {
            Some(b'\t') => {
                out.push(b'\t');
                return Some(i + 1);
            }
            Some(b'\\') => match self.bytes.get(i + 1) {
                Some(b'b') => 0x08,
                Some(b't') => b'\t',
                Some(b'n') => b'\n',
                Some(b'f') => 0x0C,
                Some(b'r') => b'\r',
                Some(b'"') => b'"',
                Some(b'\\') => b'\\',
                Some(b'u') => return self.decode_unicode_onto(i, 4, out),
                Some(b'U') => return self.decode_unicode_onto(i, 8, out),
                _ => return None,
            },
            _ => return None,
        };
        out.push(byte);
        Some(i + 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A value read, and the offset its reader stopped at.
    type Read<T> = Option<(T, usize)>;

    /// What [`Lexer::plain_number`] and [`Lexer::value`] read from the start of `text`.
    fn both(text: &str) -> (Read<PlainNumber>, Read<Scalar<'_>>) {
        let mut shortcut = Lexer::new(text, 0);
        let plain = shortcut.plain_number().map(|n| (n, shortcut.pos()));
        if plain.is_none() {
            assert_eq!(shortcut.pos(), 0, "{text:?}: consumed without reading");
        }
        let mut lexer = Lexer::new(text, 0);
        let value = lexer.value().ok().map(|v| (v, lexer.pos()));
        (plain, value)
    }

    /// Whether the long way reads `number` too, ending at `end`. (`plain_number` is
    /// `value`'s first step: the long way is what `value` reads past it.)
    fn long_way_agrees(text: &str, number: PlainNumber, end: usize) -> bool {
        let mut lexer = Lexer::new(text, 0);
        let value = lexer.number_the_long_way().ok();
        let same = match (value, number) {
            (Some(Scalar::Integer(a)), PlainNumber::Integer(b)) => a == b,
            (Some(Scalar::Float(a)), PlainNumber::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        };
        same && lexer.pos() == end
    }

    #[test]
    fn a_plain_number_is_read_as_the_long_way_reads_it_and_nothing_else_is_taken() {
        let int = |i| Some(PlainNumber::Integer(i));
        for (text, expected) in [
            ("42\n", int(42)),
            ("-7,", int(-7)),
            ("+0]", int(0)),
            ("123456789012345678 ", int(123_456_789_012_345_678)),
            ("1234567890123456789", int(1_234_567_890_123_456_789)),
            ("-9223372036854775808", int(i64::MIN)),
            ("9223372036854775807", int(i64::MAX)),
            ("9223372036854775808", None),
            ("18446744073709551616", None),
            ("99999999999999999999", None),
            ("123456789012345678901", None),
            ("2.5 ", Some(PlainNumber::Float(2.5))),
            ("-0.125", Some(PlainNumber::Float(-0.125))),
            ("1234567890123456789.5", None),
            ("012", None),
            ("1_000", None),
            ("1.5e3", None),
            ("1.5_0", None),
            ("1e3", None),
            ("1979-05-27", None),
            ("07:32:00", None),
            ("0x1F", None),
            ("0o7", None),
            ("0b1", None),
            ("inf", None),
            ("-", None),
            ("", None),
        ] {
            let (plain, value) = both(text);
            assert_eq!(plain.map(|(n, _)| n), expected, "{text:?}");
            if let Some((number, end)) = plain {
                assert!(value.is_some(), "{text:?}: value reads it too");
                assert!(long_way_agrees(text, number, end), "{text:?}");
            }
        }
    }

    proptest! {
        /// Whatever the shortcut takes, the long way reads as the same number, ending at
        /// the same byte.
        #[test]
        fn the_plain_number_shortcut_agrees_with_the_long_way(
            text in "[+-]?[0-9]{0,20}(\\.[0-9]{0,20})?[-:xobeE_.,\\] \n0-9a-z]{0,3}",
        ) {
            let (plain, _) = both(&text);
            if let Some((number, end)) = plain {
                prop_assert!(long_way_agrees(&text, number, end), "{:?}", text);
            }
        }
    }
}
