//! The JSON encoder: compact or pretty, from any [`Encode`] type.

use quarry_raw_value::{base64, Datetime, EncodeError, Encoder};

use super::lexer::find_string_special;

/// Writes JSON into a byte buffer; implements [`Encoder`].
///
/// Numbers go through `itoa`/`zmij` (shortest round-trip form); NaN and infinities are
/// refused, since JSON cannot hold them; bytes become base64 strings and datetimes
/// RFC 3339 strings.
#[derive(Debug)]
pub struct JsonWriter<'w> {
    out: &'w mut Vec<u8>,
    indent: Option<&'static str>,
    depth: usize,
    /// No item has been written in the innermost open container yet.
    first: bool,
    /// A key was just written: the next value follows it directly.
    after_key: bool,
}

impl<'w> JsonWriter<'w> {
    /// A compact writer appending to `out`.
    pub fn compact(out: &'w mut Vec<u8>) -> Self {
        JsonWriter {
            out,
            indent: None,
            depth: 0,
            first: true,
            after_key: false,
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
        }
    }

    /// Writes the separator before a value or key: a comma and, when pretty, a newline
    /// and indentation.
    #[inline]
    fn before_item(&mut self) {
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
    // Most strings (every key a derive writes) need no escape: one scan, one copy.
    if bytes.len() < 16 && bytes.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\') {
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

/// True when `text` is a number by JSON's grammar (what [`Encoder::big_number`] may emit).
fn is_json_number(text: &str) -> bool {
    let mut lexer = super::lexer::Lexer::new(text);
    lexer.read_number().is_ok() && lexer.pos() == text.len()
}

impl Encoder for JsonWriter<'_> {
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

    #[inline]
    fn end_map(&mut self) -> Result<(), EncodeError> {
        self.close(b'}');
        Ok(())
    }
}
