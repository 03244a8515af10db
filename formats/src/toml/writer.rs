//! The TOML writer: any [`RawValue`] map TOML can hold, as a document that reads back
//! to the same value, entries in the same order.
//!
//! A table's plain keys come first, then its sub-tables as `[headers]` and its arrays
//! of tables as `[[headers]]`. A sub-table that is followed by plain keys in its table
//! cannot become a section without reordering, so it is written inline
//! (`a = { x = 1 }`) instead: order is data in a [`RawValue`], and it survives.
//! Keys are quoted only when they are not bare; strings are basic strings with escapes.

use quarry_raw_value::{base64, EncodeError, RawValue};

use crate::common::Sink;

type Entries<'a> = [(std::borrow::Cow<'a, str>, RawValue<'a>)];

use crate::common::NullEntries;

/// Writes `value`, which must be a map, as a TOML document into `out`.
pub fn write_document(
    value: &RawValue<'_>,
    nulls: NullEntries,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    write_document_to(value, nulls, out, &mut Sink::none())
}

/// [`write_document`], handing `out` to `sink` line by line as it fills (a line is
/// never split: one long inline array stays whole).
pub(crate) fn write_document_to(
    value: &RawValue<'_>,
    nulls: NullEntries,
    out: &mut Vec<u8>,
    sink: &mut Sink<'_>,
) -> Result<(), EncodeError> {
    let RawValue::Map(entries) = value else {
        return Err(EncodeError::custom(format!(
            "a TOML document is a table; cannot write a top-level {}",
            value.kind_name()
        )));
    };
    let mut writer = Writer {
        out,
        sink,
        spilled: false,
        path: Vec::new(),
        skip_nulls: nulls == NullEntries::Skip,
    };
    writer.table_body(entries)
}

struct Writer<'o, 's, 'w> {
    out: &'o mut Vec<u8>,
    sink: &'s mut Sink<'w>,
    /// True once some output went to the sink (so `out` being empty is not the start).
    spilled: bool,
    /// The header path of the table being written, each segment already quoted if needed.
    path: Vec<String>,
    skip_nulls: bool,
}

/// An array every item of which is a table: written as `[[name]]` sections.
fn is_array_of_tables(value: &RawValue<'_>) -> bool {
    matches!(value, RawValue::Seq(items) if !items.is_empty() && items.iter().all(|i| matches!(i, RawValue::Map(_))))
}

fn is_section(value: &RawValue<'_>) -> bool {
    matches!(value, RawValue::Map(_)) || is_array_of_tables(value)
}

impl Writer<'_, '_, '_> {
    /// Hands a full buffer to the sink; called between lines.
    #[inline]
    fn line_done(&mut self) {
        if self.sink.wants(self.out) {
            self.sink.spill(self.out);
            self.spilled = true;
        }
    }

    /// The entries of one table: plain keys, then sections.
    fn table_body(&mut self, entries: &Entries<'_>) -> Result<(), EncodeError> {
        let skip_nulls = self.skip_nulls;
        let skipped = |v: &RawValue<'_>| skip_nulls && matches!(v, RawValue::Null);
        // Entries from `first_section` on are all tables or arrays of tables (or skipped).
        let first_section = entries
            .iter()
            .rposition(|(_, v)| !is_section(v) && !skipped(v))
            .map_or(0, |i| i + 1);
        let kept = |(_, v): &&(std::borrow::Cow<'_, str>, RawValue<'_>)| !skipped(v);
        for (key, value) in entries[..first_section].iter().filter(kept) {
            write_key(self.out, key);
            self.out.extend_from_slice(b" = ");
            write_inline(self.out, value, skip_nulls).map_err(|e| e.at_key(key))?;
            self.out.push(b'\n');
            self.line_done();
        }
        for (key, value) in entries[first_section..].iter().filter(kept) {
            self.path.push(key_text(key));
            let result = match value {
                RawValue::Map(sub) => self.section(sub),
                RawValue::Seq(elements) => self.array_of_tables(elements),
                _ => Ok(()),
            };
            self.path.pop();
            result.map_err(|e| e.at_key(key))?;
        }
        Ok(())
    }

    fn header(&mut self, open: &[u8], close: &[u8]) {
        if self.spilled || !self.out.is_empty() {
            self.out.push(b'\n');
        }
        self.out.extend_from_slice(open);
        self.out.extend_from_slice(self.path.join(".").as_bytes());
        self.out.extend_from_slice(close);
        self.out.push(b'\n');
    }

    /// A sub-table: `[path]` and its body. The header is left out when the table holds
    /// only sections (its first sub-header creates it in the same place).
    fn section(&mut self, entries: &Entries<'_>) -> Result<(), EncodeError> {
        let skip_nulls = self.skip_nulls;
        let mut kept = entries
            .iter()
            .filter(|(_, v)| !(skip_nulls && matches!(v, RawValue::Null)))
            .peekable();
        if kept.peek().is_none() || !kept.all(|(_, v)| is_section(v)) {
            self.header(b"[", b"]");
        }
        self.table_body(entries)
    }

    fn array_of_tables(&mut self, elements: &[RawValue<'_>]) -> Result<(), EncodeError> {
        for (i, element) in elements.iter().enumerate() {
            if let RawValue::Map(entries) = element {
                self.header(b"[[", b"]]");
                self.table_body(entries).map_err(|e| e.at_index(i))?;
            }
        }
        Ok(())
    }
}

fn is_bare_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn write_key(out: &mut Vec<u8>, key: &str) {
    if is_bare_key(key) {
        out.extend_from_slice(key.as_bytes());
    } else {
        write_string(out, key);
    }
}

/// A basic string: `"`, `\`, control characters and DEL escaped.
pub(crate) fn write_string(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut run = 0;
    loop {
        let i = crate::common::find_string_special::<b'"', true>(bytes, run);
        out.extend_from_slice(&bytes[run..i]);
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            _ => out.extend_from_slice(format!("\\u{b:04X}").as_bytes()),
        }
        run = i + 1;
    }
    out.push(b'"');
}

fn write_float(out: &mut Vec<u8>, f: f64) {
    if f.is_nan() {
        out.extend_from_slice(if f.is_sign_negative() {
            b"-nan"
        } else {
            b"nan"
        });
    } else if f.is_infinite() {
        out.extend_from_slice(if f < 0.0 { b"-inf" } else { b"inf" });
    } else {
        let mut buffer = zmij::Buffer::new();
        let text = buffer.format_finite(f);
        out.extend_from_slice(text.as_bytes());
        if !text.contains(['.', 'e', 'E']) {
            out.extend_from_slice(b".0");
        }
    }
}

/// `value` as TOML writes it on the right of `=`: arrays and tables inline (for editors
/// that place one value in an existing document).
pub fn inline_value(value: &RawValue<'_>) -> Result<String, EncodeError> {
    let mut out = Vec::new();
    write_inline(&mut out, value, false)?;
    Ok(crate::common::utf8_output(out))
}

/// `key` as TOML writes it: bare when it can be, else a basic string.
pub fn key_text(key: &str) -> String {
    let mut out = Vec::with_capacity(key.len() + 2);
    write_key(&mut out, key);
    crate::common::utf8_output(out)
}

/// A value on the right of `=` or inside an array: arrays and tables inline.
fn write_inline(
    out: &mut Vec<u8>,
    value: &RawValue<'_>,
    skip_nulls: bool,
) -> Result<(), EncodeError> {
    match value {
        RawValue::Null => return Err(EncodeError::unsupported("null", "TOML")),
        RawValue::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        RawValue::Int(i) => out.extend_from_slice(itoa::Buffer::new().format(*i).as_bytes()),
        RawValue::UInt(_) => {
            return Err(EncodeError::unsupported(
                "an integer above 9223372036854775807",
                "TOML",
            ))
        }
        RawValue::BigNumber(text) => {
            return Err(EncodeError::unsupported(
                &format!("the number {text} (beyond 64 bits)"),
                "TOML",
            ))
        }
        RawValue::Float(f) => write_float(out, *f),
        RawValue::String(s) | RawValue::Text(s) => write_string(out, s),
        RawValue::Bytes(b) => write_string(out, &base64::encode(b)),
        RawValue::Datetime(d) => out.extend_from_slice(d.to_string().as_bytes()),
        RawValue::Seq(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                write_inline(out, item, skip_nulls).map_err(|e| e.at_index(i))?;
            }
            out.push(b']');
        }
        RawValue::Map(entries) => {
            let mut kept = entries
                .iter()
                .filter(|(_, v)| !(skip_nulls && matches!(v, RawValue::Null)))
                .peekable();
            if kept.peek().is_none() {
                out.extend_from_slice(b"{}");
                return Ok(());
            }
            out.extend_from_slice(b"{ ");
            for (i, (key, item)) in kept.enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                write_key(out, key);
                out.extend_from_slice(b" = ");
                write_inline(out, item, skip_nulls).map_err(|e| e.at_key(key))?;
            }
            out.extend_from_slice(b" }");
        }
    }
    Ok(())
}
