//! The JSON lexer: the primitives the parser (and the derive's direct decoder) are made of.
//! It reads from validated UTF-8 and never allocates except into the caller's scratch
//! buffer, and only for strings holding escapes (and, in JSONC, for the comment spans a
//! tree keeps).
//!
//! `JSONC` is the dialect: with it, [`Lexer::peek`] skips `//` and `/* */` comments as
//! whitespace. No JSON token starts with `/`, so the strict lexer (`JSONC = false`) is
//! compiled without a trace of comments, and in JSONC they are only looked for where a
//! strict lexer would stop at a `/` and fail.

use super::{Error, ErrorKind};
use crate::common::{
    decimal_to_f64, decode_string_runs, exact_decimal_to_f64, fold_digits16, from_surrogates,
    same_bytes, skip_spaces, twenty_digits_fit_u64, window_integer, Escapes, Span,
};
use quarry_raw_value::Num;

/// A string read from the input: borrowed when it held no escape, otherwise decoded into
/// the caller's scratch buffer. The caller is told which, so it can keep the borrow.
/// (The same type the direct decode path sees through `PullSource`.)
pub use quarry_raw_value::TextRef;

/// A JSON number, typed as narrowly as it fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number<'a> {
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer above `i64::MAX` that fits `u64`.
    UInt(u64),
    /// A number with a fraction or exponent (or `-0`), correctly rounded.
    Float(f64),
    /// An integer beyond 64 bits, or a float beyond `f64`'s range, as its source text.
    Big(&'a str),
}

/// A cursor over validated UTF-8 JSON text; `JSONC` also skips comments.
#[derive(Debug, Clone)]
pub struct Lexer<'a, const JSONC: bool> {
    src: &'a str,
    pos: usize,
    /// The spans of the comments skipped so far, when asked to keep them (JSONC only).
    comments: Option<Vec<Span>>,
}

/// The offset of the first byte at or after `i` that is `"`, `\` or a control character
/// (below 0x20), or `bytes.len()`. The writer uses it too.
#[inline]
pub(crate) fn find_string_special(bytes: &[u8], i: usize) -> usize {
    crate::common::find_string_special::<b'"', false>(bytes, i)
}

impl<'a, const JSONC: bool> Lexer<'a, JSONC> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src,
            pos: 0,
            comments: None,
        }
    }

    /// From now on, records the span of every comment skipped (see
    /// [`Lexer::take_comments`]). Meaningful in JSONC only.
    pub fn keep_comments(&mut self) {
        self.comments.get_or_insert_with(Vec::new);
    }

    /// The spans of the comments recorded since [`Lexer::keep_comments`], in source order.
    pub fn take_comments(&mut self) -> Vec<Span> {
        self.comments.take().unwrap_or_default()
    }

    /// The whole input.
    #[inline]
    pub fn src(&self) -> &'a str {
        self.src
    }

    /// The current byte offset.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves past one byte (the caller has peeked it).
    #[inline]
    pub fn bump(&mut self) {
        self.pos += 1;
    }

    /// Moves past `byte` if it is at the current position (no white space skipped).
    #[inline(always)]
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let here = self.src.as_bytes().get(self.pos) == Some(&byte);
        self.pos += usize::from(here);
        here
    }

    /// Moves past `n` bytes the caller has read (a token, checked).
    #[inline(always)]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// Skips whitespace (in JSONC, comments too) and returns the next byte without
    /// consuming it. In JSONC, a `/` that does not open a well-formed comment (a lone
    /// `/`, or `/*` never closed) is returned as is: it is an error wherever it stands,
    /// and [`Lexer::unexpected`] names it.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        self.peek_with::<false>()
    }

    /// [`Lexer::peek`] for the parse loop's own steps: a whitespace run is skipped by a
    /// call that hands the new position back in a register and writes nothing.
    ///
    /// [`Lexer::peek`]'s call stores the position in the lexer for the loop to load
    /// again, and those loads make the speed of a parse of pretty-printed files swing
    /// with unrelated changes to the code around it; a position handed back in a
    /// register does not. The direct path ([`DirectSource`](super::DirectSource)) uses
    /// it too, for the same reason: its steps are forced inline into derived decoders.
    #[inline(always)]
    pub(crate) fn peek_in_loop(&mut self) -> Option<u8> {
        self.peek_with::<true>()
    }

    /// [`Lexer::peek`], with [`Lexer::peek_in_loop`]'s call for a whitespace run where
    /// `RETURNED`.
    #[inline(always)]
    fn peek_with<const RETURNED: bool>(&mut self) -> Option<u8> {
        let bytes = self.src.as_bytes();
        match bytes.get(self.pos) {
            // Every byte above the space is a token (in JSONC, but `/`): one comparison
            // for the usual case, compact JSON.
            Some(&b) if b > b' ' && !(JSONC && b == b'/') => Some(b),
            // One space (`"key": value`) without the call.
            Some(b' ') => match bytes.get(self.pos + 1) {
                Some(b' ' | b'\n' | b'\r' | b'\t') => self.skip_whitespace_with::<RETURNED>(),
                Some(b'/') if JSONC => {
                    self.pos += 1;
                    self.skip_comments()
                }
                next => {
                    self.pos += 1;
                    next.copied()
                }
            },
            Some(b'\n' | b'\r' | b'\t') => self.skip_whitespace_with::<RETURNED>(),
            Some(b'/') if JSONC => self.skip_comments(),
            other => other.copied(),
        }
    }

    /// The whitespace run at `pos`, and the byte after it: by [`whitespace_end`]'s call
    /// where `RETURNED`, else by [`Lexer::skip_whitespace`]'s.
    #[inline(always)]
    fn skip_whitespace_with<const RETURNED: bool>(&mut self) -> Option<u8> {
        if !RETURNED {
            return self.skip_whitespace();
        }
        let bytes = self.src.as_bytes();
        self.pos = whitespace_end(bytes, self.pos);
        match bytes.get(self.pos) {
            Some(b'/') if JSONC => self.skip_comments(),
            other => other.copied(),
        }
    }

    /// The whitespace run of [`Lexer::peek`] (which saw white space at `pos`), and the
    /// byte after it.
    #[inline(never)]
    fn skip_whitespace(&mut self) -> Option<u8> {
        let bytes = self.src.as_bytes();
        self.pos = whitespace_run_end(bytes, self.pos);
        match bytes.get(self.pos) {
            Some(b'/') if JSONC => self.skip_comments(),
            other => other.copied(),
        }
    }

    /// JSONC: comments and the whitespace between and after them, from the `/` at
    /// `pos`. Stops at the first byte that is neither, or at a `/` that opens no
    /// well-formed comment (left for the caller's error).
    #[cold]
    #[inline(never)]
    fn skip_comments(&mut self) -> Option<u8> {
        let bytes = self.src.as_bytes();
        let mut pos = self.pos;
        loop {
            // `bytes[pos]` is `/`.
            let end = match bytes.get(pos + 1) {
                Some(b'/') => memchr::memchr2(b'\n', b'\r', &bytes[pos + 2..])
                    .map_or(bytes.len(), |at| pos + 2 + at),
                Some(b'*') => match memchr::memmem::find(&bytes[pos + 2..], b"*/") {
                    Some(at) => pos + 2 + at + 2,
                    None => break,
                },
                _ => break,
            };
            if let Some(comments) = &mut self.comments {
                comments.push(Span::new(pos, end));
            }
            pos = end;
            while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
                pos += 1;
            }
            if bytes.get(pos) != Some(&b'/') {
                break;
            }
        }
        self.pos = pos;
        bytes.get(pos).copied()
    }

    /// A copy of the lexer's text and position (without its comments), for the paths
    /// that leave the parse loop: its errors and the decoding of escapes.
    ///
    /// Those paths are calls, and a call handed the lexer itself would take its
    /// address; the parse loop's lexer would then live in memory, its position stored
    /// and loaded again at every step. Handed a copy, the loop keeps its position in a
    /// register.
    #[inline(always)]
    fn detached(&self) -> Self {
        Lexer {
            src: self.src,
            pos: self.pos,
            comments: None,
        }
    }

    /// An error of `kind` at the current position.
    #[inline(always)]
    pub fn error(&self, kind: ErrorKind) -> Error {
        self.error_at(kind, self.pos)
    }

    /// An error of `kind` at byte `offset`.
    #[inline(always)]
    pub fn error_at(&self, kind: ErrorKind, offset: usize) -> Error {
        Error::new(kind, self.src.as_bytes(), offset)
    }

    /// "expected X, found Y" at the current position (or "unexpected end of input").
    /// In JSONC, a `/` there is a malformed comment, and the error says so.
    #[inline(always)]
    pub fn unexpected(&self, expected: &'static str) -> Error {
        self.detached().unexpected_here(expected)
    }

    /// [`Lexer::unexpected`], on a [detached](Lexer::detached) copy.
    #[cold]
    #[inline(never)]
    fn unexpected_here(self, expected: &'static str) -> Error {
        if let Some(error) = self.comment_error() {
            return error;
        }
        self.unexpected_token(expected)
    }

    /// Something other than whitespace (or, in JSONC, comments) after the value.
    #[cold]
    pub fn trailing(&self) -> Error {
        self.comment_error()
            .unwrap_or_else(|| self.error(ErrorKind::TrailingCharacters))
    }

    /// JSONC, at a `/` where [`Lexer::peek`] stopped: the comment it fails to open.
    /// `None` when the dialect is strict or no `/` is here.
    #[cold]
    fn comment_error(&self) -> Option<Error> {
        let bytes = self.src.as_bytes();
        if !JSONC || bytes.get(self.pos) != Some(&b'/') {
            return None;
        }
        Some(match bytes.get(self.pos + 1) {
            Some(b'*') if memchr::memmem::find(&bytes[self.pos + 2..], b"*/").is_none() => {
                self.error(ErrorKind::UnterminatedComment)
            }
            Some(b'*') => return None,
            Some(_) => Error::new(
                ErrorKind::UnexpectedCharacter {
                    expected: "`/` or `*` (a comment)",
                    found: self.src[self.pos + 1..].chars().next().unwrap_or('/'),
                },
                bytes,
                self.pos + 1,
            ),
            None => self.error_at(ErrorKind::UnexpectedEnd, self.pos + 1),
        })
    }

    /// "expected X, found Y" at the current position, whatever is there.
    #[cold]
    fn unexpected_token(&self, expected: &'static str) -> Error {
        match self
            .src
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
        {
            Some(found) => self.error(ErrorKind::UnexpectedCharacter { expected, found }),
            None => self.error(ErrorKind::UnexpectedEnd),
        }
    }

    // false = %x66.61.6c.73.65   ; false
    // null  = %x6e.75.6c.6c      ; null
    // true  = %x74.72.75.65      ; true
    /// Reads the literal `true`, `false` or `null` at the current position.
    #[inline]
    pub fn read_literal(&mut self, literal: &'static str) -> Result<(), Error> {
        let bytes = self.src.as_bytes();
        if bytes.get(self.pos..self.pos + literal.len()) == Some(literal.as_bytes()) {
            self.pos += literal.len();
            return Ok(());
        }
        Err(self.detached().literal_error(literal))
    }

    /// The error of a literal that is not `literal`, placed at its first wrong byte; on
    /// a [detached](Lexer::detached) copy.
    #[cold]
    #[inline(never)]
    fn literal_error(mut self, literal: &'static str) -> Error {
        let bytes = self.src.as_bytes();
        let matched = literal
            .bytes()
            .zip(&bytes[self.pos..])
            .take_while(|(a, b)| a == *b)
            .count();
        self.pos += matched;
        self.unexpected_token(match literal {
            "true" => "`true`",
            "false" => "`false`",
            _ => "`null`",
        })
    }

    // string = quotation-mark *char quotation-mark
    // char = unescaped / escape ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 /
    //                             %x75 4HEXDIG )  ; " \ / b f n r t uXXXX
    // unescaped = %x20-21 / %x23-5B / %x5D-10FFFF
    /// Reads a string whose opening `"` is at the current position.
    #[inline]
    pub fn read_string<'s>(&mut self, scratch: &'s mut String) -> Result<TextRef<'a, 's>, Error> {
        match self.read_unescaped_string() {
            Some(s) => Ok(TextRef::Borrowed(s)),
            None => self.read_escaped_string(scratch),
        }
    }

    /// Reads the string whose opening `"` is at the current position when it holds no
    /// escape (and is closed); otherwise `None`, and the position is unchanged. The
    /// result fits in two registers: returned through memory (as `read_string`'s is),
    /// the direct path would read a key back before its stores complete, a
    /// store-forwarding stall on every key.
    #[inline(always)]
    pub fn read_unescaped_string(&mut self) -> Option<&'a str> {
        let bytes = self.src.as_bytes();
        let start = self.pos + 1;
        let end = find_string_special(bytes, start);
        if bytes.get(end) == Some(&b'"') {
            self.pos = end + 1;
            // SAFETY: `start` is one past the opening quote and `end` is the closing
            // quote's offset (`bytes.get(end)` found it), so `start <= end <= src.len()`;
            // both quotes are ASCII, so both offsets are character boundaries of `src`.
            // (Checked, the slice is a call of its own on the path for strings longer
            // than sixteen bytes.)
            #[allow(unsafe_code)]
            return Some(unsafe { self.src.get_unchecked(start..end) });
        }
        None
    }

    /// At a string's opening `"`: reads it if it is exactly `plain`, a text with no
    /// `"`, `\` or control character (so its bytes stand in the input as they are,
    /// followed by the closing quote); else reads nothing.
    #[inline(always)]
    pub fn read_plain_string(&mut self, plain: &[u8]) -> bool {
        let bytes = self.src.as_bytes();
        let start = self.pos + 1;
        let end = start + plain.len();
        if bytes.get(end) == Some(&b'"') && same_bytes(&bytes[start..end], plain) {
            self.pos = end + 1;
            return true;
        }
        false
    }

    /// Reads a string whose opening `"` is at the current position, decoding its escapes
    /// into `scratch` (or failing on a malformed one). The decoding is a call, made on a
    /// [detached](Lexer::detached) copy.
    #[inline(always)]
    pub fn read_escaped_string<'s>(
        &mut self,
        scratch: &'s mut String,
    ) -> Result<TextRef<'a, 's>, Error> {
        let mut detached = self.detached();
        let result = detached.read_escaped_string_here(scratch);
        self.pos = detached.pos;
        result
    }

    /// [`Lexer::read_escaped_string`]'s call.
    #[inline(never)]
    fn read_escaped_string_here<'s>(
        &mut self,
        scratch: &'s mut String,
    ) -> Result<TextRef<'a, 's>, Error> {
        scratch.clear();
        self.decode_string_onto(scratch)?;
        Ok(TextRef::Decoded(scratch))
    }

    /// Reads a string whose opening `"` is at the current position onto the end of
    /// `out`: copied when it has no escape, else decoded there (no copy in between). On
    /// a malformed string, `out` is left as it was.
    #[inline]
    pub fn read_string_onto(&mut self, out: &mut String) -> Result<(), Error> {
        match self.read_unescaped_string() {
            Some(s) => {
                out.push_str(s);
                Ok(())
            }
            None => self.decode_string_onto(out),
        }
    }

    // string = quotation-mark *char quotation-mark
    /// [`Lexer::read_string_onto`] for a string with escapes (or a malformed one).
    #[inline(never)]
    fn decode_string_onto(&mut self, out: &mut String) -> Result<(), Error> {
        let bytes = self.src.as_bytes();
        // Decoded as bytes (a run may be copied a block at a time, past a character's
        // end), and a `String` again once the string ends.
        let mut buf = std::mem::take(out).into_bytes();
        let kept = buf.len();
        let end = decode_string_runs::<b'"', false>(bytes, self.pos + 1, &mut buf, &*self);
        let end = match bytes.get(end) {
            Some(b'"') => Ok(end),
            _ => {
                buf.truncate(kept);
                Err(self.string_error(end))
            }
        };
        // SAFETY: `buf` was a `String`, and `kept` its length; past it are the input's
        // runs, each ending before an ASCII byte (a quote or backslash) of the UTF-8
        // input, so on a character boundary, and the UTF-8 of each decoded escape's
        // `char` (or nothing, after an error).
        #[allow(unsafe_code)]
        let decoded = unsafe { String::from_utf8_unchecked(buf) };
        *out = decoded;
        self.pos = end? + 1;
        Ok(())
    }

    /// [`Escapes::decode`] for `\uXXXX`, out of line so that the loop over a
    /// string's runs keeps the one-byte escapes inline.
    ///
    /// Four hex digits that name a character outside the surrogates, or a surrogate
    /// pair, are decoded here; anything else (including every malformed escape) by
    /// [`Lexer::decode_unicode_escape`], which names the error.
    ///
    /// Such escapes come in runs (a text in another script, written as escapes): the
    /// ones right after the first are decoded here too, without going back to the
    /// string's scan and a call for each. The first
    /// of them that is not plain is left to that scan, so that its error is named where
    /// it stands.
    #[inline(never)]
    fn decode_unicode_onto(&self, i: usize, out: &mut Vec<u8>) -> Option<usize> {
        let bytes = self.src.as_bytes();
        let (code, len) = match plain_unicode_escape(bytes, i) {
            Some(decoded) => decoded,
            None => {
                let (c, len) = self.decode_unicode_escape(i).ok()?;
                (u32::from(c), len)
            }
        };
        push_utf8(out, code);
        let mut i = i + len;
        while bytes.get(i..i + 2) == Some(b"\\u") {
            let Some((code, len)) = plain_unicode_escape(bytes, i) else {
                break;
            };
            push_utf8(out, code);
            i += len;
        }
        Some(i)
    }

    /// Why a string stopped at `i` short of its closing quote.
    #[cold]
    fn string_error(&self, i: usize) -> Error {
        match self.src.as_bytes().get(i) {
            Some(b'\\') => match self.src.as_bytes().get(i + 1) {
                Some(b'u') => match self.decode_unicode_escape(i) {
                    Err(error) => error,
                    Ok(_) => self.error_at(ErrorKind::InvalidEscape, i),
                },
                Some(_) => self.error_at(ErrorKind::InvalidEscape, i),
                None => self.error_at(ErrorKind::UnexpectedEnd, i + 1),
            },
            Some(_) => self.error_at(ErrorKind::ControlCharacterInString, i),
            None => self.error_at(ErrorKind::UnexpectedEnd, i),
        }
    }

    // The `escape %x75 4HEXDIG` of `char`; a character past U+FFFF is written as two of
    // them, a UTF-16 surrogate pair (RFC 8259, section 7).
    /// Decodes `\uXXXX` (or a surrogate pair `\uD83D\uDE00`) at `i`; returns the char
    /// and the length of the escape text.
    fn decode_unicode_escape(&self, i: usize) -> Result<(char, usize), Error> {
        let high = self.hex4(i + 2)?;
        let code = match high {
            0xD800..=0xDBFF => {
                let bytes = self.src.as_bytes();
                if bytes.get(i + 6..i + 8) != Some(b"\\u") {
                    return Err(self.error_at(ErrorKind::LoneSurrogate, i));
                }
                let low = self.hex4(i + 8)?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(self.error_at(ErrorKind::LoneSurrogate, i));
                }
                let code = from_surrogates(high, low);
                return Ok((
                    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER),
                    12,
                ));
            }
            0xDC00..=0xDFFF => return Err(self.error_at(ErrorKind::LoneSurrogate, i)),
            code => code,
        };
        Ok((
            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER),
            6,
        ))
    }

    /// Four hex digits at `i`.
    fn hex4(&self, i: usize) -> Result<u32, Error> {
        let bytes = self.src.as_bytes();
        let mut value = 0;
        for k in 0..4 {
            let digit = match bytes.get(i + k) {
                Some(&b) => (b as char).to_digit(16),
                None => return Err(self.error_at(ErrorKind::UnexpectedEnd, i + k)),
            };
            match digit {
                Some(d) => value = value * 16 + d,
                None => return Err(self.error_at(ErrorKind::InvalidEscape, i + k)),
            }
        }
        Ok(value)
    }

    /// Reads a number starting at the current position (a `-` or a digit).
    #[inline]
    pub fn read_number(&mut self) -> Result<Number<'a>, Error> {
        self.scan_number().map(|token| token.value())
    }

    // number = [ minus ] int [ frac ] [ exp ]
    // int = zero / ( digit1-9 *DIGIT )
    // frac = decimal-point 1*DIGIT
    // exp = e [ minus / plus ] 1*DIGIT
    /// Scans a number starting at the current position, checking the grammar but not
    /// converting it: [`NumberToken::value`] converts on demand, so a builder that does
    /// not need the value (validation, skipping) does not pay for conversion.
    #[inline(always)]
    pub fn scan_number(&mut self) -> Result<NumberToken<'a>, Error> {
        self.scan_number_expecting::<false>()
    }

    /// [`Lexer::scan_number`] for a reader that expects a float (`FLOAT`): the integer
    /// part is not read in one step first.
    #[inline(always)]
    pub fn scan_number_expecting<const FLOAT: bool>(&mut self) -> Result<NumberToken<'a>, Error> {
        let bytes = self.src.as_bytes();
        let start = self.pos;
        // The integer part, in one step when it is short (as it usually is): an integer
        // ends there, a float goes on from its end.
        let (mut i, mut mantissa, negative, int_start);
        if let Some(int) = window_integer(bytes, start).filter(|_| !FLOAT) {
            let len = int.len();
            if !matches!(int.after, b'.' | b'e' | b'E') {
                self.pos = start + len;
                return Ok(NumberToken {
                    text: &bytes[start..start + len],
                    mantissa: int.magnitude(),
                    int_len: int.digits as u32,
                    frac_len: 0,
                    exponent: 0,
                    negative: int.negative,
                    is_float: false,
                });
            }
            (i, mantissa, negative) = (start + len, int.decimal_magnitude(), int.negative);
            int_start = start + usize::from(negative);
        } else {
            i = start;
            negative = bytes.get(i) == Some(&b'-');
            if negative {
                i += 1;
            }
            int_start = i;
            // The digits folded into an integer, wrapping: exact while there are at most 19.
            mantissa = 0;
            match bytes.get(i) {
                Some(b'0') => {
                    i += 1;
                    if bytes.get(i).is_some_and(u8::is_ascii_digit) {
                        return Err(self.error_at(ErrorKind::InvalidNumber, i));
                    }
                }
                Some(b'1'..=b'9') => (i, mantissa) = fold_digits16(bytes, i, 0),
                _ => return Err(self.error_at(ErrorKind::InvalidNumber, i)),
            }
        }
        let int_end = i;
        let mut frac_end = i;
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            (frac_end, mantissa) = fold_digits16(bytes, i, mantissa);
            if frac_end == i {
                return Err(self.error_at(ErrorKind::InvalidNumber, i));
            }
            i = frac_end;
        }
        let mut exponent: i64 = 0;
        let mut has_exponent = false;
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            has_exponent = true;
            i += 1;
            let exp_negative = match bytes.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let digits_start = i;
            while let Some(&b @ b'0'..=b'9') = bytes.get(i) {
                exponent = (exponent * 10 + i64::from(b - b'0')).min(1 << 40);
                i += 1;
            }
            if i == digits_start {
                return Err(self.error_at(ErrorKind::InvalidNumber, i));
            }
            if exp_negative {
                exponent = -exponent;
            }
        }
        self.pos = i;
        Ok(NumberToken {
            text: &bytes[start..i],
            mantissa,
            int_len: (int_end - int_start) as u32,
            frac_len: frac_end.saturating_sub(int_end + 1) as u32,
            exponent,
            negative,
            is_float: frac_end != int_end || has_exponent,
        })
    }
}

/// [`whitespace_run_end`] as a call of its own, for [`Lexer::peek_in_loop`].
#[inline(never)]
fn whitespace_end(bytes: &[u8], pos: usize) -> usize {
    whitespace_run_end(bytes, pos)
}

// RFC 8259:
// ws = *( %x20 / %x09 / %x0A / %x0D )  ; Space, Horizontal tab, Line feed, Carriage return
/// The end of the whitespace run at `pos` (which is white space); after a line break,
/// the indentation is skipped eight spaces at a time.
#[inline(always)]
fn whitespace_run_end(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        let newline = bytes[pos] == b'\n';
        pos += 1;
        if newline {
            pos = skip_spaces(bytes, pos);
        }
        if !matches!(bytes.get(pos), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            return pos;
        }
    }
}

/// A number the lexer has checked against JSON's grammar but not yet converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberToken<'a> {
    /// The number's bytes, all ASCII: kept as bytes because slicing the text as `str`
    /// checks that both ends are on character boundaries, for every number, where only
    /// a number converted from its text ([`NumberToken::text`]) needs it as `str`.
    text: &'a [u8],
    /// All digits (integer and fraction) folded into an integer, wrapping past 19 digits.
    mantissa: u64,
    /// Digits before the `.`.
    int_len: u32,
    /// Digits after the `.` (0 without a fraction).
    frac_len: u32,
    /// The explicit exponent after `e` (0 without one), clamped to ±2^40.
    exponent: i64,
    negative: bool,
    is_float: bool,
}

impl<'a> NumberToken<'a> {
    /// The number's source text.
    #[inline]
    pub fn text(&self) -> &'a str {
        // The lexer took these bytes from a `str` and checked that each is ASCII.
        std::str::from_utf8(self.text).unwrap_or_default()
    }

    /// True for a number with a fraction or exponent.
    #[inline]
    pub fn is_float(&self) -> bool {
        self.is_float
    }

    /// The number as `f64` when it is a float that one exact operation converts
    /// (Clinger's fast path, which takes most decimals of up to 15 digits): small enough
    /// to inline where a builder stores numbers. `None` for every other number;
    /// [`NumberToken::value`] converts them all.
    #[inline(always)]
    pub(crate) fn exact_float(&self) -> Option<f64> {
        if !self.is_float || self.int_len + self.frac_len > 19 {
            return None;
        }
        let value = exact_decimal_to_f64(self.mantissa, self.exponent - i64::from(self.frac_len))?;
        Some(if self.negative { -value } else { value })
    }

    /// The number as `i64`, when it is an integer that fits (no fraction, no exponent;
    /// `-0` is the float `-0.0`, so not an integer here either).
    #[inline(always)]
    pub fn as_i64(&self) -> Option<i64> {
        if self.is_float || self.int_len > 19 {
            return None;
        }
        match (self.negative, self.mantissa) {
            (false, m) => i64::try_from(m).ok(),
            (true, 0) => None,
            (true, m) => 0i64.checked_sub_unsigned(m),
        }
    }

    /// The number as `u64`, when it is a non-negative integer that fits.
    #[inline(always)]
    pub fn as_u64(&self) -> Option<u64> {
        match self.value() {
            Number::Int(i) => u64::try_from(i).ok(),
            Number::UInt(u) => Some(u),
            _ => None,
        }
    }

    /// The number as the machine type that holds it: an integer that fits `i64` without
    /// a look at its text, a number beyond 64 bits as its nearest float.
    #[inline(always)]
    pub fn num(&self) -> Num {
        if let Some(v) = self.as_i64() {
            return Num::I64(v);
        }
        match self.value() {
            Number::Int(v) => Num::I64(v),
            Number::UInt(v) => Num::U64(v),
            Number::Float(v) => Num::F64(v),
            Number::Big(text) => Num::F64(text.parse().unwrap_or(f64::NAN)),
        }
    }

    /// The number, typed as narrowly as it fits; floats are correctly rounded.
    #[inline(always)]
    pub fn value(&self) -> Number<'a> {
        let digits = self.int_len + self.frac_len;
        if !self.is_float {
            let value = match digits {
                0..=19 => Some(self.mantissa),
                // Twenty digits may or may not fit u64 (a 64-bit id often has twenty);
                // when they do, the wrapping fold is exact. (JSON has no leading zeros.)
                20 => <&[u8; 20]>::try_from(&self.text[usize::from(self.negative)..])
                    .is_ok_and(twenty_digits_fit_u64)
                    .then_some(self.mantissa),
                _ => None,
            };
            return match (value, self.negative) {
                (None, _) => Number::Big(self.text()),
                (Some(v), false) => match i64::try_from(v) {
                    Ok(i) => Number::Int(i),
                    Err(_) => Number::UInt(v),
                },
                (Some(0), true) => Number::Float(-0.0),
                (Some(v), true) => match 0i64.checked_sub_unsigned(v) {
                    Some(i) => Number::Int(i),
                    None => Number::Big(self.text()),
                },
            };
        }
        // Up to 19 digits the folded mantissa is exact: convert it without the text.
        if digits <= 19 {
            let exponent = self.exponent - i64::from(self.frac_len);
            if let Some(value) = decimal_to_f64(self.mantissa, exponent) {
                if value.is_infinite() {
                    return Number::Big(self.text());
                }
                return Number::Float(if self.negative { -value } else { value });
            }
        }
        parse_float_slow(self.text())
    }
}

// char = unescaped / escape ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 /
//                             %x75 4HEXDIG )  ; " \ / b f n r t uXXXX
/// JSON's escapes, decoded as a string's runs are copied ([`decode_string_runs`]);
/// a malformed one ends the string, and [`Lexer::string_error`] says why.
impl<const JSONC: bool> Escapes for Lexer<'_, JSONC> {
    #[inline(always)]
    fn decode(&self, i: usize, out: &mut Vec<u8>) -> Option<usize> {
        let bytes = self.src.as_bytes();
        if bytes.get(i) != Some(&b'\\') {
            return None;
        }
        let byte = match bytes.get(i + 1) {
            Some(b'"') => b'"',
            Some(b'\\') => b'\\',
            Some(b'/') => b'/',
            Some(b'b') => 0x08,
            Some(b'f') => 0x0C,
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            Some(b'u') => return self.decode_unicode_onto(i, out),
            _ => return None,
        };
        out.push(byte);
        Some(i + 2)
    }
}

/// Appends the UTF-8 of the scalar value `code` (a `char`: no surrogate, at most
/// 0x10FFFF) to `out`, each length with its own fixed-size copy (a slice of the length
/// found would be a call to `memcpy` per escape).
#[inline(always)]
fn push_utf8(out: &mut Vec<u8>, code: u32) {
    let tail = |shift: u32| 0x80 | (code >> shift & 0x3F) as u8;
    match code {
        0..=0x7F => out.push(code as u8),
        0x80..=0x7FF => out.extend_from_slice(&[0xC0 | (code >> 6) as u8, tail(0)]),
        0x800..=0xFFFF => out.extend_from_slice(&[0xE0 | (code >> 12) as u8, tail(6), tail(0)]),
        _ => out.extend_from_slice(&[0xF0 | (code >> 18) as u8, tail(12), tail(6), tail(0)]),
    }
}

/// The character of the `\uXXXX` escape at `i` and the escape's length, when its
/// four hex digits name one outside the surrogates or begin a surrogate pair that the
/// next escape completes; `None` for anything else, valid or not.
#[inline(always)]
fn plain_unicode_escape(bytes: &[u8], i: usize) -> Option<(u32, usize)> {
    match hex4_value(bytes, i + 2)? {
        code @ (0..=0xD7FF | 0xE000..=0xFFFF) => Some((code, 6)),
        high @ 0xD800..=0xDBFF => match (bytes.get(i + 6..i + 8), hex4_value(bytes, i + 8)) {
            (Some(b"\\u"), Some(low @ 0xDC00..=0xDFFF)) => Some((from_surrogates(high, low), 12)),
            _ => None,
        },
        _ => None,
    }
}

/// The value of the four hex digits at `i`, or `None` if any is not one (or the input
/// ends first): a table look-up per digit, the four checked at once.
#[inline(always)]
fn hex4_value(bytes: &[u8], i: usize) -> Option<u32> {
    /// Each byte's value as a hex digit, or 0xFF.
    const HEX: [u8; 256] = {
        let mut table = [0xFF; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = match b as u8 {
                d @ b'0'..=b'9' => d - b'0',
                d @ b'a'..=b'f' => d - b'a' + 10,
                d @ b'A'..=b'F' => d - b'A' + 10,
                _ => 0xFF,
            };
            b += 1;
        }
        table
    };
    let digits: &[u8; 4] = bytes.get(i..i + 4)?.try_into().ok()?;
    let [a, b, c, d] = digits.map(|digit| HEX[usize::from(digit)]);
    if (a | b | c | d) > 0xF {
        return None;
    }
    Some(u32::from(a) << 12 | u32::from(b) << 8 | u32::from(c) << 4 | u32::from(d))
}

/// Correctly rounded conversion by std, for what the fast path cannot do exactly.
#[inline(never)]
fn parse_float_slow(text: &str) -> Number<'_> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Number::Float(v),
        // Beyond f64's range: keep the text rather than lose the value to infinity.
        // (The grammar was checked by the scan, so std cannot reject the text.)
        _ => Number::Big(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number `text` reads as, the whole of it; read again with sixteen bytes after
    /// it (where the integer part is read in one step), it must read the same.
    fn number(text: &str) -> Result<Number<'_>, ErrorKind> {
        let padded = format!("{text},{}", " ".repeat(16));
        let mut lexer = Lexer::<false>::new(&padded);
        let in_window = lexer.read_number().map_err(|e| e.kind().clone());
        let end = lexer.pos();
        let mut lexer = Lexer::<false>::new(text);
        let n = lexer.read_number().map_err(|e| e.kind().clone());
        assert_eq!(in_window, n.clone(), "{text}");
        let n = n?;
        assert_eq!((lexer.pos(), end), (text.len(), text.len()), "{text}");
        Ok(n)
    }

    proptest::proptest! {
        /// Twenty-digit integers, the ones that fit `u64` and the ones that do not, with
        /// either sign, read as std reads them.
        #[test]
        fn twenty_digit_integers_read_as_std_reads_them(head in 1u64..10, rest in 0u64..10_000_000_000_000_000_000, negative: bool) {
            let digits = format!("{head}{rest:019}");
            let text = format!("{}{digits}", if negative { "-" } else { "" });
            let expected = match (digits.parse::<u64>().ok(), negative) {
                (Some(v), false) => Number::UInt(v),
                _ => Number::Big(&text),
            };
            proptest::prop_assert_eq!(number(&text).unwrap(), expected);
        }
    }

    #[test]
    fn numbers_are_typed_narrowly_and_exactly() {
        assert_eq!(number("0"), Ok(Number::Int(0)));
        assert_eq!(number("-9223372036854775808"), Ok(Number::Int(i64::MIN)));
        assert_eq!(number("9223372036854775807"), Ok(Number::Int(i64::MAX)));
        assert_eq!(number("9223372036854775808"), Ok(Number::UInt(1 << 63)));
        assert_eq!(number("18446744073709551615"), Ok(Number::UInt(u64::MAX)));
        assert_eq!(
            number("18446744073709551616"),
            Ok(Number::Big("18446744073709551616"))
        );
        assert_eq!(
            number("-9223372036854775809"),
            Ok(Number::Big("-9223372036854775809"))
        );
        assert_eq!(number("1e400"), Ok(Number::Big("1e400")));
        assert_eq!(number("-0"), Ok(Number::Float(-0.0)));
        assert!(matches!(number("-0"), Ok(Number::Float(f)) if f.is_sign_negative()));
        assert_eq!(number("1.5e3"), Ok(Number::Float(1500.0)));
        assert_eq!(number("1E-2"), Ok(Number::Float(0.01)));
        assert_eq!(
            number("123456789012345678901234567890.5"),
            Ok(Number::Float(1.2345678901234568e29))
        );
        assert_eq!(number("1e-400"), Ok(Number::Float(0.0)));
        for bad in ["01", "-", "1.", "1.e3", "1e", "1e+", "-a", ".5"] {
            assert_eq!(number(bad).err(), Some(ErrorKind::InvalidNumber), "{bad}");
        }
    }

    proptest::proptest! {
        #[test]
        fn floats_round_trip_exactly(bits: u64) {
            let f = f64::from_bits(bits);
            proptest::prop_assume!(f.is_finite());
            let text = zmij::Buffer::new().format_finite(f).to_string();
            let parsed = match number(&text).unwrap() {
                Number::Float(v) => v,
                Number::Int(v) => v as f64,
                other => panic!("{other:?}"),
            };
            proptest::prop_assert_eq!(parsed.to_bits(), f.to_bits());
        }

        /// The inline conversion the tree door takes first answers with the value
        /// itself, bit for bit, and only for floats; each token keeps its text.
        #[test]
        fn exact_floats_are_the_value(negative: bool, int in 0u64..100_000_000_000, frac in proptest::option::of(0u64..10_000_000), exp in proptest::option::of(-40i32..40)) {
            let mut text = format!("{}{int}", if negative { "-" } else { "" });
            if let Some(frac) = frac {
                text += &format!(".{frac}");
            }
            if let Some(exp) = exp {
                text += &format!("e{exp}");
            }
            let token = Lexer::<false>::new(&text).scan_number().unwrap();
            proptest::prop_assert_eq!(token.text(), text.as_str());
            let value = token.value();
            match token.exact_float() {
                Some(f) => match value {
                    Number::Float(v) => proptest::prop_assert_eq!(f.to_bits(), v.to_bits()),
                    other => proptest::prop_assert!(false, "{text}: {f} for {other:?}"),
                },
                // Clinger's fast path takes every float of up to 15 digits whose
                // exponent, after the fraction's digits, is within 10^±22.
                None => {
                    let digits = text.bytes().take_while(|b| *b != b'e').filter(u8::is_ascii_digit).count();
                    let frac_digits = frac.map_or(0, |f| f.to_string().len() as i32);
                    let power = exp.unwrap_or(0) - frac_digits;
                    proptest::prop_assert!(
                        !token.is_float() || digits > 15 || !(-22..=22).contains(&power),
                        "{text} was left to the general conversion"
                    );
                }
            }
        }

        /// Decimals whose integer part is one or two digits (read apart from longer
        /// ones), with either sign, read as std reads them.
        #[test]
        fn short_integer_parts_parse_like_std(negative: bool, int in 0u64..100, frac in 0u64..10_000_000_000_000, exp in proptest::option::of(-30i32..30)) {
            let mut text = format!("{}{int}.{frac}", if negative { "-" } else { "" });
            if let Some(exp) = exp {
                text += &format!("e{exp}");
            }
            let expected: f64 = text.parse().unwrap();
            proptest::prop_assert_eq!(number(&text).unwrap(), Number::Float(expected));
        }

        #[test]
        fn decimal_text_parses_like_std(int in 0u64..1_000_000_000_000, frac in 0u32..1_000_000, exp in -30i32..30) {
            let text = format!("{int}.{frac}e{exp}");
            let expected: f64 = text.parse().unwrap();
            proptest::prop_assert_eq!(number(&text).unwrap(), Number::Float(expected));
        }

    }

    /// `read_string_onto` appends after what `out` holds, decoding escapes (long runs
    /// too, past a block), and leaves it as it was on a malformed string.
    #[test]
    fn strings_are_read_onto_the_end_of_a_buffer() {
        let long = "ünïcödé ".repeat(9);
        let text = format!(r#""plain" "a\n{long}\u00e9\"{long}" "{long}\x""#);
        let mut lexer = Lexer::<false>::new(&text);
        let mut out = String::from("kept|");
        lexer.read_string_onto(&mut out).unwrap();
        assert_eq!(out, "kept|plain");
        lexer.peek();
        lexer.read_string_onto(&mut out).unwrap();
        assert_eq!(out, format!("kept|plaina\n{long}é\"{long}"));
        let before = out.clone();
        lexer.peek();
        let error = lexer.read_string_onto(&mut out).unwrap_err();
        assert_eq!(error.kind(), &ErrorKind::InvalidEscape);
        assert_eq!(out, before);
    }

    #[test]
    fn unicode_escapes_decode_every_code_unit_and_pair() {
        let mut scratch = String::new();
        let mut read = |text: &str| {
            let text = format!("\"<{text}>\"");
            let mut lexer = Lexer::<false>::new(&text);
            lexer
                .read_string(&mut scratch)
                .map(|s| s.to_string())
                .map_err(|e| e.kind().clone())
        };
        for unit in 0..=0xFFFFu32 {
            // Lower- and upper-case digits alike.
            let (lower, upper) = (format!("\\u{unit:04x}"), format!("\\u{unit:04X}"));
            let want = match char::from_u32(unit) {
                Some(c) => Ok(format!("<{c}>")),
                None => Err(ErrorKind::LoneSurrogate),
            };
            assert_eq!(read(&lower), want, "{lower}");
            assert_eq!(read(&upper), want, "{upper}");
        }
        for high in (0xD800..=0xDBFFu32).step_by(7) {
            for low in (0xDC00..=0xDFFFu32).step_by(11) {
                let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                let c = char::from_u32(code).unwrap();
                assert_eq!(
                    read(&format!("\\u{high:04x}\\u{low:04X}")),
                    Ok(format!("<{c}>"))
                );
            }
            // A high surrogate followed by anything but a low one.
            for after in ["\\u0041", "\\ud800", "\\n", "x", ""] {
                let text = format!("\\u{high:04x}{after}");
                assert_eq!(read(&text), Err(ErrorKind::LoneSurrogate), "{text}");
            }
        }
        for bad in ["\\u12g4", "\\ug234", "\\u123", "\\u-123", "\\u 123"] {
            assert_eq!(read(bad), Err(ErrorKind::InvalidEscape), "{bad}");
        }
    }

    /// A run of `\u` escapes is decoded in one go: the text comes back as it was
    /// written, whichever characters are escaped and however the run ends.
    #[test]
    fn runs_of_unicode_escapes_decode_as_written() {
        let chars = [
            'é',
            'Ü',
            '日',
            '本',
            '\u{1F680}',
            '\u{10FFFF}',
            'a',
            '"',
            '\n',
            ' ',
        ];
        let mut scratch = String::new();
        // Every text of up to four of these characters, each escaped or not.
        for len in 0..=4u32 {
            for pick in 0..(chars.len() * 2).pow(len) {
                let (mut want, mut text, mut pick) = (String::new(), String::from("\""), pick);
                for _ in 0..len {
                    let (c, escaped) = (chars[pick % chars.len()], pick / chars.len() % 2 == 1);
                    pick /= chars.len() * 2;
                    want.push(c);
                    match (escaped, c) {
                        (true, _) => {
                            for unit in c.encode_utf16(&mut [0; 2]) {
                                text += &format!("\\u{unit:04x}");
                            }
                        }
                        (false, '"') => text += "\\\"",
                        (false, '\n') => text += "\\n",
                        (false, c) => text.push(c),
                    }
                }
                text.push('"');
                let mut lexer = Lexer::<false>::new(&text);
                let read = lexer.read_string(&mut scratch).map(|s| s.to_string());
                assert_eq!(read.ok(), Some(want), "{text}");
            }
        }
    }

    /// A malformed escape at the end of a run of good ones is named where it stands.
    #[test]
    fn an_escape_after_a_run_is_checked_where_it_stands() {
        let mut scratch = String::new();
        for (bad, kind) in [
            ("\\u12g4", ErrorKind::InvalidEscape),
            ("\\ud800", ErrorKind::LoneSurrogate),
            ("\\udc00", ErrorKind::LoneSurrogate),
            ("\\ud800\\u0041", ErrorKind::LoneSurrogate),
            ("\\u00", ErrorKind::InvalidEscape),
        ] {
            let mut alone = None;
            for run in 0..3 {
                let text = format!("\"{}{bad}\"", "\\u00e9".repeat(run));
                let mut lexer = Lexer::<false>::new(&text);
                let error = lexer.read_string(&mut scratch).unwrap_err();
                assert_eq!(error.kind(), &kind, "{text}");
                // Where the escape alone is reported, moved on by the run before it.
                let alone = *alone.get_or_insert(error.offset());
                assert_eq!(error.offset(), alone + 6 * run, "{text}");
            }
        }
    }

    #[test]
    fn strings_borrow_unless_escaped() {
        let mut scratch = String::new();
        let mut lexer = Lexer::<false>::new(r#""plain""#);
        assert!(matches!(
            lexer.read_string(&mut scratch),
            Ok(TextRef::Borrowed("plain"))
        ));
        let mut lexer = Lexer::<false>::new(r#""a\n\u00e9\ud83d\ude00\/""#);
        assert_eq!(&*lexer.read_string(&mut scratch).unwrap(), "a\né😀/");
        for (bad, kind) in [
            (r#""\ud800""#, ErrorKind::LoneSurrogate),
            (r#""\udc00""#, ErrorKind::LoneSurrogate),
            (r#""\ud800\u0041""#, ErrorKind::LoneSurrogate),
            (r#""\x""#, ErrorKind::InvalidEscape),
            (r#""\u12g4""#, ErrorKind::InvalidEscape),
            ("\"a\tb\"", ErrorKind::ControlCharacterInString),
            ("\"abc", ErrorKind::UnexpectedEnd),
            ("\"ab\\", ErrorKind::UnexpectedEnd),
        ] {
            let mut lexer = Lexer::<false>::new(bad);
            assert_eq!(
                lexer.read_string(&mut scratch).unwrap_err().kind(),
                &kind,
                "{bad}"
            );
        }
    }
}
