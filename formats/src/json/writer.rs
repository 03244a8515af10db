//! The JSON encoder: compact or pretty, from any [`Encode`] type.

use quarry_raw_value::{base64, Datetime, EncodeError, Encoder};

use crate::common::Sink;

use super::lexer::find_string_special;

/// Writes JSON into a byte buffer; implements [`Encoder`].
///
/// Numbers go through `itoa`/`zmij` (shortest round-trip form); NaN and infinities are
/// refused, since JSON cannot hold them; bytes become base64 strings and datetimes
/// RFC 3339 strings.
///
/// `SPILL` is true for the writer of `to_writer`, which hands its buffer to a sink as it
/// fills; the check is compiled out of `to_vec`'s writer, which would otherwise pay for
/// it before every item.
#[derive(Debug)]
pub struct JsonWriter<'w, const SPILL: bool = false> {
    out: &'w mut Vec<u8>,
    indent: Option<&'static str>,
    depth: usize,
    /// No item has been written in the innermost open container yet.
    first: bool,
    /// A key was just written: the next value follows it directly.
    after_key: bool,
    /// Where a full buffer goes (for `to_writer`).
    sink: Sink<'w>,
}

impl<'w> JsonWriter<'w, false> {
    /// A compact writer appending to `out`.
    pub fn compact(out: &'w mut Vec<u8>) -> Self {
        JsonWriter {
            out,
            indent: None,
            depth: 0,
            first: true,
            after_key: false,
            sink: Sink::none(),
        }
    }

    /// A pretty writer (two-space indentation) appending to `out`.
    pub fn pretty(out: &'w mut Vec<u8>) -> Self {
        JsonWriter {
            out,
            indent: Some("  "),
            depth: 0,
            first: true,
            after_key: false,
            sink: Sink::none(),
        }
    }

    /// This writer, handing its buffer to `sink` each time it fills (about 64 KiB), so
    /// a large value is written without holding all of its output. Call
    /// [`JsonWriter::finish`] at the end.
    pub(crate) fn spilling_into(self, sink: &'w mut dyn std::io::Write) -> JsonWriter<'w, true> {
        JsonWriter {
            out: self.out,
            indent: self.indent,
            depth: self.depth,
            first: self.first,
            after_key: self.after_key,
            sink: Sink::to(sink),
        }
    }
}

impl JsonWriter<'_, true> {
    /// Writes what is left to the sink; the first I/O error, if any.
    pub(crate) fn finish(self) -> Result<(), EncodeError> {
        self.sink.finish(self.out)
    }
}

impl<const SPILL: bool> JsonWriter<'_, SPILL> {
    /// Writes the separator before a value or key: a comma and, when pretty, a newline
    /// and indentation.
    #[inline]
    fn before_item(&mut self) {
        if SPILL && self.sink.wants(self.out) {
            self.sink.spill(self.out);
        }
        if self.after_key {
            self.after_key = false;
            return;
        }
        if self.depth > 0 {
            if !self.first {
                self.out.push(b',');
            }
            self.newline();
        }
        self.first = false;
    }

    #[inline]
    fn newline(&mut self) {
        if let Some(indent) = self.indent {
            self.out.push(b'\n');
            for _ in 0..self.depth {
                self.out.extend_from_slice(indent.as_bytes());
            }
        }
    }

    #[inline]
    fn open(&mut self, bracket: u8) {
        self.before_item();
        self.out.push(bracket);
        self.depth += 1;
        self.first = true;
    }

    #[inline]
    fn close(&mut self, bracket: u8) {
        self.depth -= 1;
        if !self.first {
            self.newline();
        }
        self.out.push(bracket);
        self.first = false;
    }
}

/// Appends `s` as a quoted JSON string, escaping `"`, `\` and control characters.
pub fn write_escaped_str(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // Most short strings need no escape: a check of at most two words, one copy.
    if bytes.len() <= 16 && !needs_escape_short(bytes) {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut run = 0;
    loop {
        let i = find_string_special(bytes, run);
        out.extend_from_slice(&bytes[run..i]);
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ]),
        }
        run = i + 1;
    }
    out.push(b'"');
}

/// Whether a string of at most 16 bytes holds a byte JSON escapes. From 8 bytes on,
/// the first and last eight bytes are tested as words (they overlap, and cover all).
#[inline(always)]
fn needs_escape_short(bytes: &[u8]) -> bool {
    let n = bytes.len();
    if n < 8 {
        return bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    word_needs_escape(word(0)) || word_needs_escape(word(n - 8))
}

/// Whether one of the eight bytes of `w` is `"`, `\` or below 0x20 (exact: a borrow
/// can only flag a byte above one that is flagged already).
#[inline(always)]
fn word_needs_escape(w: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(LO) & !x;
    let flagged = zero_byte(w ^ (LO * u64::from(b'"')))
        | zero_byte(w ^ (LO * u64::from(b'\\')))
        | (w.wrapping_sub(LO * 0x20) & !w);
    flagged & HI != 0
}

/// True when `text` is a number by JSON's grammar (what [`Encoder::big_number`] may emit).
fn is_json_number(text: &str) -> bool {
    let mut lexer = super::lexer::Lexer::<false>::new(text);
    lexer.read_number().is_ok() && lexer.pos() == text.len()
}

impl<const SPILL: bool> Encoder for JsonWriter<'_, SPILL> {
    #[inline]
    fn null(&mut self) -> Result<(), EncodeError> {
        self.before_item();
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    #[inline]
    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.before_item();
        if v {
            self.out.extend_from_slice(b"true");
        } else {
            self.out.extend_from_slice(b"false");
        }
        Ok(())
    }

    #[inline]
    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.before_item();
        self.out
            .extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
        Ok(())
    }

    #[inline]
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.before_item();
        self.out
            .extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
        Ok(())
    }

    #[inline]
    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        if !v.is_finite() {
            return Err(EncodeError::unsupported(
                &format!("the non-finite float `{v}`"),
                "JSON",
            ));
        }
        self.before_item();
        self.out
            .extend_from_slice(zmij::Buffer::new().format_finite(v).as_bytes());
        Ok(())
    }

    #[inline]
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        if !is_json_number(text) {
            return Err(EncodeError::unsupported(
                &format!("the number `{text}`"),
                "JSON",
            ));
        }
        self.before_item();
        self.out.extend_from_slice(text.as_bytes());
        Ok(())
    }

    #[inline]
    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.before_item();
        write_escaped_str(self.out, v);
        Ok(())
    }

    #[inline]
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        self.str(&base64::encode(v))
    }

    #[inline]
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        self.str(&v.to_string())
    }

    #[inline]
    fn begin_seq(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.open(b'[');
        Ok(())
    }

    #[inline]
    fn end_seq(&mut self) -> Result<(), EncodeError> {
        self.close(b']');
        Ok(())
    }

    #[inline]
    fn begin_map(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.open(b'{');
        Ok(())
    }

    #[inline]
    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        self.before_item();
        write_escaped_str(self.out, key);
        self.out
            .extend_from_slice(if self.indent.is_some() { b": " } else { b":" });
        self.after_key = true;
        Ok(())
    }

    // Inlined into the derive, where `key` is a literal: its copy is a few moves, not
    // a call to memcpy.
    #[inline(always)]
    fn plain_key(&mut self, key: &'static str) -> Result<(), EncodeError> {
        self.before_item();
        let sep: &[u8] = if self.indent.is_some() {
            b"\": "
        } else {
            b"\":"
        };
        self.out.reserve(key.len() + 3);
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(sep);
        self.after_key = true;
        Ok(())
    }

    #[inline]
    fn end_map(&mut self) -> Result<(), EncodeError> {
        self.close(b'}');
        Ok(())
    }
}
