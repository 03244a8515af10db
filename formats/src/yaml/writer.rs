//! The YAML emitter: block style by default, flow style on request, from any
//! [`Encode`](quarry_raw_value::Encode) type.

use crate::common::Sink;
use quarry_raw_value::{base64, Datetime, EncodeError, Encoder};

use super::raw::resolve_plain;

/// Writes YAML into a byte buffer; implements [`Encoder`].
///
/// A string is written plain only when it reads back as the same string: anything the
/// core schema (or YAML 1.1 readers: `yes`, `no`, `on`, `off`, `y`, `n`) would type,
/// anything number-like, empty or padded text, text holding `: ` or ` #`, and text
/// starting with an indicator are double-quoted. Multi-line strings become literal
/// block scalars (`|`, `|-` or `|+` by their trailing newlines) in block style.
/// Floats use the shortest round-trip form, with `.inf`, `-.inf` and `.nan`; bytes
/// become base64 strings and datetimes RFC 3339 strings.
#[derive(Debug)]
pub struct YamlWriter<'w> {
    out: &'w mut Vec<u8>,
    flow: bool,
    stack: Vec<Frame>,
    /// A mapping key was just written: the value follows it.
    after_key: bool,
    /// Where a full buffer goes (for `to_writer`).
    sink: Sink<'w>,
}

#[derive(Debug)]
struct Frame {
    map: bool,
    /// Indentation of this collection's entries (block style).
    indent: usize,
    count: usize,
    /// The first entry goes on the current line (after a parent's `- `).
    inline_first: bool,
}

impl<'w> YamlWriter<'w> {
    /// A block-style writer appending to `out`.
    pub fn block(out: &'w mut Vec<u8>) -> Self {
        YamlWriter {
            out,
            flow: false,
            stack: Vec::new(),
            after_key: false,
            sink: Sink::none(),
        }
    }

    /// A flow-style writer (`{a: 1, b: [x, y]}`) appending to `out`.
    pub fn flow(out: &'w mut Vec<u8>) -> Self {
        YamlWriter {
            out,
            flow: true,
            stack: Vec::new(),
            after_key: false,
            sink: Sink::none(),
        }
    }

    /// This writer, handing its buffer to `sink` each time it fills (about 64 KiB) at
    /// the start of a line, so a large value is written without holding all of its
    /// output. Call [`YamlWriter::finish`] at the end.
    pub(crate) fn spilling_into(mut self, sink: &'w mut dyn std::io::Write) -> Self {
        self.sink = Sink::to(sink);
        self
    }

    /// Writes what is left to the sink; the first I/O error, if any.
    pub(crate) fn finish(self) -> Result<(), EncodeError> {
        self.sink.finish(self.out)
    }

    /// Hands a full buffer to the sink, where nothing written later looks back at it: in
    /// flow style between items (block style spills in [`YamlWriter::newline_indent`],
    /// at the start of a line).
    #[inline]
    fn maybe_spill(&mut self) {
        if self.flow && self.sink.wants(self.out) {
            self.sink.spill(self.out);
        }
    }

    fn at_line_start(&self) -> bool {
        matches!(self.out.last(), None | Some(b'\n'))
    }

    fn newline_indent(&mut self, indent: usize) {
        if !self.at_line_start() {
            self.out.push(b'\n');
        }
        // At the start of a line the writer looks back at nothing: hand a full buffer
        // to the sink (an empty buffer still reads as a line start).
        if self.sink.wants(self.out) {
            self.sink.spill(self.out);
        }
        self.out.resize(self.out.len() + indent, b' ');
    }

    /// Writes what precedes a value; returns the indentation a block scalar's content
    /// needs and, for a collection, the frame settings of the new collection.
    fn before_value(&mut self) -> (usize, bool) {
        self.maybe_spill();
        if self.flow {
            if self.after_key {
                self.after_key = false;
            } else if let Some(top) = self.stack.last_mut() {
                if top.count > 0 {
                    self.out.extend_from_slice(b", ");
                }
                top.count += 1;
            }
            return (0, false);
        }
        let Some(top) = self.stack.last_mut() else {
            return (2, false);
        };
        if top.map {
            // After `key:`.
            self.after_key = false;
            top.count += 1;
            (top.indent + 2, false)
        } else {
            let first_inline = top.count == 0 && top.inline_first;
            let indent = top.indent;
            top.count += 1;
            if !first_inline {
                self.newline_indent(indent);
            }
            self.out.extend_from_slice(b"- ");
            (indent + 2, true)
        }
    }

    fn scalar_text(&mut self, text: &[u8]) {
        let (_, in_seq) = self.before_value();
        if !self.flow && !in_seq && !self.stack.is_empty() {
            self.out.push(b' ');
        }
        self.out.extend_from_slice(text);
    }

    fn open(&mut self, map: bool) {
        let (indent, in_seq) = self.before_value();
        if self.flow {
            self.out.push(if map { b'{' } else { b'[' });
        }
        let top_level = self.stack.is_empty();
        self.stack.push(Frame {
            map,
            indent: if top_level { 0 } else { indent },
            count: 0,
            inline_first: in_seq,
        });
    }

    fn close(&mut self, map: bool) -> Result<(), EncodeError> {
        let frame = self
            .stack
            .pop()
            .ok_or_else(|| EncodeError::custom("unbalanced end of a collection"))?;
        let empty: &[u8] = if map { b"{}" } else { b"[]" };
        if self.flow {
            self.out.push(if map { b'}' } else { b']' });
        } else if frame.count == 0 {
            let after_key = self.stack.last().is_some_and(|p| p.map);
            if after_key {
                self.out.push(b' ');
            }
            self.out.extend_from_slice(empty);
        }
        if self.stack.is_empty() {
            self.end_document();
        }
        Ok(())
    }

    fn end_document(&mut self) {
        if !self.at_line_start() {
            self.out.push(b'\n');
        }
    }

    fn string(&mut self, s: &str) {
        if plain_ok(s, self.flow) {
            self.scalar_text(s.as_bytes());
        } else if !self.flow && literal_ok(s) {
            let (indent, in_seq) = self.before_value();
            if !in_seq && !self.stack.is_empty() {
                self.out.push(b' ');
            }
            write_literal(self.out, s, indent);
        } else {
            let mut quoted = Vec::with_capacity(s.len() + 2);
            write_double_quoted(&mut quoted, s);
            self.scalar_text(&quoted);
        }
        if self.stack.is_empty() {
            self.end_document();
        }
    }

    fn plain(&mut self, text: &[u8]) {
        self.scalar_text(text);
        if self.stack.is_empty() {
            self.end_document();
        }
    }
}

/// True when `s` can be written as a plain scalar and read back as the same string.
pub(crate) fn plain_ok(s: &str, flow: bool) -> bool {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    if matches!(
        first,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
            | b' '
            | b'~'
    ) {
        return false;
    }
    let last = b[b.len() - 1];
    if last == b' ' || last == b':' {
        return false;
    }
    // Number-like text (any schema, any reader): quote it.
    if first.is_ascii_digit()
        || (matches!(first, b'+' | b'.') && b.len() > 1 && (b[1].is_ascii_digit() || b[1] == b'.'))
    {
        return false;
    }
    for w in b.windows(2) {
        if (w[0] == b':' && w[1] == b' ') || (w[0] == b' ' && w[1] == b'#') {
            return false;
        }
    }
    for &c in b {
        if c < 0x20 || c == 0x7f {
            return false;
        }
        if flow && matches!(c, b',' | b'[' | b']' | b'{' | b'}') {
            return false;
        }
    }
    if s.contains(['\u{85}', '\u{2028}', '\u{2029}', '\u{feff}']) || s.chars().any(non_printable) {
        return false;
    }
    if !matches!(
        resolve_plain(s.into()),
        quarry_raw_value::RawValue::String(_)
    ) {
        return false;
    }
    // YAML 1.1 booleans, for readers still on 1.1; and the merge key.
    !matches!(
        s.to_ascii_lowercase().as_str(),
        "yes" | "no" | "on" | "off" | "y" | "n" | "<<" | ".inf" | ".nan" | "-.inf" | "+.inf"
    )
}

/// Characters YAML does not allow unescaped.
fn non_printable(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{84}' | '\u{86}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
}

/// True when the multi-line `s` reads back exactly from a literal block scalar.
fn literal_ok(s: &str) -> bool {
    s.contains('\n')
        && s.split('\n').any(|l| !l.is_empty())
        && !s.contains(['\r', '\u{85}', '\u{2028}', '\u{2029}', '\u{feff}'])
        && !s
            .chars()
            .any(|c| c != '\t' && c != '\n' && (c < ' ' || non_printable(c)))
}

/// Writes `s` as a literal block scalar whose content is indented by `indent`.
fn write_literal(out: &mut Vec<u8>, s: &str, indent: usize) {
    out.push(b'|');
    let mut pieces: Vec<&str> = s.split('\n').collect();
    let last = pieces.pop().unwrap_or("");
    // An explicit indentation when the content starts with a space, or when a
    // white-space-only line comes before the first content line (or is all there is).
    let first_content = pieces
        .iter()
        .chain([&last])
        .find(|l| !l.trim_matches(' ').is_empty());
    let leading_spaces = pieces
        .iter()
        .chain([&last])
        .take_while(|l| l.trim_matches(' ').is_empty())
        .any(|l| !l.is_empty());
    if first_content.is_some_and(|l| l.starts_with(' ')) || leading_spaces {
        out.push(b'2');
    }
    let trailing_newlines = s.len() - s.trim_end_matches('\n').len();
    match trailing_newlines {
        0 => out.push(b'-'),
        1 => {}
        _ => out.push(b'+'),
    }
    let indent = indent.max(2);
    let write_line = |out: &mut Vec<u8>, line: &str| {
        out.push(b'\n');
        if !line.is_empty() {
            out.resize(out.len() + indent, b' ');
            out.extend_from_slice(line.as_bytes());
        }
    };
    for line in &pieces {
        write_line(out, line);
    }
    if last.is_empty() {
        out.push(b'\n');
    } else {
        write_line(out, last);
    }
}

/// Appends `s` as a double-quoted YAML scalar.
pub(crate) fn write_double_quoted(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push(b'"');
    let mut run = 0;
    for (i, c) in s.char_indices() {
        let escape: Option<&[u8]> = match c {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '\n' => Some(b"\\n"),
            '\t' => Some(b"\\t"),
            '\r' => Some(b"\\r"),
            '\0' => Some(b"\\0"),
            '\u{7}' => Some(b"\\a"),
            '\u{8}' => Some(b"\\b"),
            '\u{b}' => Some(b"\\v"),
            '\u{c}' => Some(b"\\f"),
            '\u{1b}' => Some(b"\\e"),
            '\u{85}' => Some(b"\\N"),
            '\u{2028}' => Some(b"\\L"),
            '\u{2029}' => Some(b"\\P"),
            _ => None,
        };
        let special = escape.is_some() || non_printable(c) || c == '\u{feff}';
        if !special {
            continue;
        }
        out.extend_from_slice(&s.as_bytes()[run..i]);
        run = i + c.len_utf8();
        match escape {
            Some(e) => out.extend_from_slice(e),
            None => {
                let code = c as u32;
                if code <= 0xff {
                    out.extend_from_slice(&[
                        b'\\',
                        b'x',
                        HEX[(code >> 4) as usize],
                        HEX[(code & 15) as usize],
                    ]);
                } else {
                    out.extend_from_slice(b"\\u");
                    for shift in [12, 8, 4, 0] {
                        out.push(HEX[((code >> shift) & 15) as usize]);
                    }
                }
            }
        }
    }
    out.extend_from_slice(&s.as_bytes()[run..]);
    out.push(b'"');
}

/// True when `text` reads back as a number under the core schema.
fn is_yaml_number(text: &str) -> bool {
    matches!(
        resolve_plain(text.into()),
        quarry_raw_value::RawValue::Int(_)
            | quarry_raw_value::RawValue::UInt(_)
            | quarry_raw_value::RawValue::Float(_)
            | quarry_raw_value::RawValue::BigNumber(_)
    )
}

impl Encoder for YamlWriter<'_> {
    fn null(&mut self) -> Result<(), EncodeError> {
        self.plain(b"null");
        Ok(())
    }

    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.plain(if v { b"true" } else { b"false" });
        Ok(())
    }

    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.plain(itoa::Buffer::new().format(v).as_bytes());
        Ok(())
    }

    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.plain(itoa::Buffer::new().format(v).as_bytes());
        Ok(())
    }

    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        if v.is_nan() {
            self.plain(b".nan");
        } else if v.is_infinite() {
            self.plain(if v > 0.0 { b".inf" } else { b"-.inf" });
        } else {
            let mut buffer = zmij::Buffer::new();
            let text = buffer.format_finite(v);
            self.plain(text.as_bytes());
        }
        Ok(())
    }

    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        if !is_yaml_number(text) {
            return Err(EncodeError::unsupported(
                &format!("the number `{text}`"),
                "YAML",
            ));
        }
        self.plain(text.as_bytes());
        Ok(())
    }

    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.string(v);
        Ok(())
    }

    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        self.string(&base64::encode(v));
        Ok(())
    }

    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        self.string(&v.to_string());
        Ok(())
    }

    fn begin_seq(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.open(false);
        Ok(())
    }

    fn end_seq(&mut self) -> Result<(), EncodeError> {
        self.close(false)
    }

    fn begin_map(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        self.open(true);
        Ok(())
    }

    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        // An implicit key may take at most 1024 characters as written (escapes
        // included); a longer one is written as an explicit `? key`.
        const LONG: usize = 1000;
        self.maybe_spill();
        if self.flow {
            if let Some(top) = self.stack.last_mut() {
                if top.count > 0 {
                    self.out.extend_from_slice(b", ");
                }
                top.count += 1;
            }
            let at = self.out.len();
            write_key(self.out, key, true);
            if self.out.len() - at > LONG {
                self.out.splice(at..at, *b"? ");
            }
            self.out.extend_from_slice(b": ");
            self.after_key = true;
            return Ok(());
        }
        let top = self
            .stack
            .last()
            .ok_or_else(|| EncodeError::custom("a key outside a map"))?;
        let (indent, inline) = (top.indent, top.count == 0 && top.inline_first);
        if !inline {
            self.newline_indent(indent);
        }
        let at = self.out.len();
        write_key(self.out, key, false);
        if self.out.len() - at > LONG {
            self.out.splice(at..at, *b"? ");
            self.newline_indent(indent);
        }
        self.out.push(b':');
        self.after_key = true;
        Ok(())
    }

    fn end_map(&mut self) -> Result<(), EncodeError> {
        self.close(true)
    }
}

fn write_key(out: &mut Vec<u8>, key: &str, flow: bool) {
    if plain_ok(key, flow) {
        out.extend_from_slice(key.as_bytes());
    } else {
        write_double_quoted(out, key);
    }
}
