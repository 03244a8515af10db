//! Input decoding: the encoding sniffed from a byte order mark or the XML declaration,
//! anything but UTF-8 transcoded to UTF-8 first, and the builder adapter that lets a
//! parse of transcoded text feed a builder that borrows from the original input.
//!
//! UTF-8 input pays nothing here: it is validated and parsed in place. UTF-16 is read by
//! its byte order mark (or the `<?` it starts with); ISO-8859-1 (and its aliases
//! `latin1`, `l1`) maps each byte to the code point of the same number, as XML parsers
//! read it; every other encoding of the WHATWG Encoding Standard, by any of its labels,
//! is decoded with `encoding_rs` (windows-125x, the other ISO-8859 parts, KOI8-R/U,
//! IBM866, x-mac-cyrillic, Shift_JIS, EUC-JP, ISO-2022-JP, GBK, gb18030, Big5, EUC-KR).
//! Spans of transcoded input refer to the UTF-8 text (`Document::source`); lines and
//! columns, counted in characters, are the same in the original bytes.

use std::borrow::Cow;

use crate::common::{push_utf16, validate_utf8, Limits, Span};

use super::builder::{
    Declaration, Doctype, NamespaceBinding, RawAttribute, StartTag, Text, Value, XmlBuilder,
};
use super::chars::is_ws;
use super::error::{Error, ErrorKind};

type Result<T> = std::result::Result<T, Error>;

/// The encoding the input was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
    /// Transcoded by what the XML declaration names (ISO-8859-1 or a legacy encoding):
    /// the document must start with that declaration.
    Declared,
}

/// The input as UTF-8 text: borrowed, or transcoded from another encoding.
pub(crate) enum Input<'a> {
    Borrowed(&'a str),
    Transcoded(String, Encoding),
}

/// Sniffs the encoding and returns UTF-8 text.
pub(crate) fn decode_input(input: &[u8], limits: Limits) -> Result<Input<'_>> {
    if input.len() > limits.max_document_size {
        return Err(Error::new(
            ErrorKind::DocumentSizeLimitReached(limits.max_document_size),
            b"",
            0,
        ));
    }
    match input {
        [0xFE, 0xFF, rest @ ..] => {
            return utf16(rest, false).map(|s| Input::Transcoded(s, Encoding::Utf16))
        }
        [0xFF, 0xFE, rest @ ..] => {
            return utf16(rest, true).map(|s| Input::Transcoded(s, Encoding::Utf16))
        }
        [0x00, b'<', 0x00, b'?', ..] => {
            return utf16(input, false).map(|s| Input::Transcoded(s, Encoding::Utf16))
        }
        [b'<', 0x00, b'?', 0x00, ..] => {
            return utf16(input, true).map(|s| Input::Transcoded(s, Encoding::Utf16))
        }
        _ => {}
    }
    let (body, bom) = match input {
        [0xEF, 0xBB, 0xBF, rest @ ..] => (rest, true),
        _ => (input, false),
    };
    let declared = declared_encoding(body);
    if let Some(name) = declared {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "utf-8" | "utf8" | "us-ascii" | "ascii" => {}
            "iso-8859-1" | "latin1" | "iso_8859-1" | "l1" | "latin-1" if !bom => {
                return Ok(Input::Transcoded(
                    body.iter().map(|&b| b as char).collect(),
                    Encoding::Declared,
                ));
            }
            "utf-16" | "utf-16le" | "utf-16be" | "ucs-2" | "iso-10646-ucs-2" => {
                return Err(Error::new(ErrorKind::EncodingMismatch, body, 0));
            }
            _ => {
                let Some(encoding) = encoding_rs::Encoding::for_label(lower.as_bytes())
                    .filter(|e| *e != encoding_rs::REPLACEMENT)
                else {
                    let kind = ErrorKind::UnsupportedEncoding(name.to_owned());
                    return Err(Error::new(kind, body, 0));
                };
                if encoding == encoding_rs::UTF_8 {
                    // Another label of UTF-8 (`unicode-1-1-utf-8`): read in place.
                } else if bom
                    || encoding == encoding_rs::UTF_16LE
                    || encoding == encoding_rs::UTF_16BE
                {
                    return Err(Error::new(ErrorKind::EncodingMismatch, body, 0));
                } else {
                    return transcode(body, encoding, name)
                        .map(|text| Input::Transcoded(text, Encoding::Declared));
                }
            }
        }
    }
    match validate_utf8(body) {
        Ok(s) => Ok(Input::Borrowed(s)),
        Err(at) => Err(Error::new(ErrorKind::InvalidUtf8, body, at)),
    }
}

/// `body` decoded from `encoding` (declared as `name`) into UTF-8; an error at the
/// first byte sequence the encoding does not define.
#[cold]
fn transcode(body: &[u8], encoding: &'static encoding_rs::Encoding, name: &str) -> Result<String> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let capacity = decoder
        .max_utf8_buffer_length_without_replacement(body.len())
        .unwrap_or(usize::MAX);
    let mut out = String::new();
    if out.try_reserve_exact(capacity).is_err() {
        return Err(Error::new(
            ErrorKind::InvalidEncoded(name.to_owned()),
            b"",
            0,
        ));
    }
    let (result, read) = decoder.decode_to_string_without_replacement(body, &mut out, true);
    match result {
        encoding_rs::DecoderResult::InputEmpty => Ok(out),
        encoding_rs::DecoderResult::Malformed(bad, after) => {
            // The malformed sequence ends `after` bytes before what was read.
            let at = read.saturating_sub(usize::from(bad) + usize::from(after));
            // Positions count characters of the text decoded so far, then the bytes.
            let mut text = out.into_bytes();
            text.extend_from_slice(&body[at..]);
            let offset = text.len() - (body.len() - at);
            Err(Error::new(
                ErrorKind::InvalidEncoded(name.to_owned()),
                &text,
                offset,
            ))
        }
        encoding_rs::DecoderResult::OutputFull => Err(Error::new(
            ErrorKind::InvalidEncoded(name.to_owned()),
            b"",
            0,
        )),
    }
}

/// The `encoding` of an XML declaration at the start of `body`, read as ASCII.
fn declared_encoding(body: &[u8]) -> Option<&str> {
    // `<?xml` and white space: `<?xml-stylesheet ...?>` is a PI, not the declaration.
    if !body.starts_with(b"<?xml") || !body.get(5).is_some_and(|&b| is_ws(b)) {
        return None;
    }
    let head = &body[..body.len().min(256)];
    let end = memchr::memmem::find(head, b"?>")?;
    let decl = &head[..end];
    let at = memchr::memmem::find(decl, b"encoding")?;
    let mut i = at + 8;
    while decl.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
        i += 1;
    }
    if decl.get(i) != Some(&b'=') {
        return None;
    }
    i += 1;
    while decl.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
        i += 1;
    }
    let quote = *decl.get(i)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let rest = &decl[i + 1..];
    let close = memchr::memchr(quote, rest)?;
    std::str::from_utf8(&rest[..close]).ok()
}

fn utf16(bytes: &[u8], little: bool) -> Result<String> {
    if bytes.len() % 2 != 0 {
        return Err(Error::new(ErrorKind::InvalidUtf16, bytes, bytes.len()));
    }
    let mut out = String::new();
    if !push_utf16(bytes, little, &mut out) {
        // `out` holds the text before the unpaired surrogate.
        return Err(Error::new(
            ErrorKind::InvalidUtf16,
            out.as_bytes(),
            out.len(),
        ));
    }
    Ok(out)
}

/// Forwards events from a parse of transcoded text, copying everything it borrows.
pub(super) struct Owning<'b, B> {
    pub(super) inner: &'b mut B,
}

impl<'a, 't, B: XmlBuilder<'a>> XmlBuilder<'t> for Owning<'_, B> {
    fn declaration(&mut self, declaration: &Declaration<'_>, span: Span) {
        self.inner.declaration(declaration, span);
    }
    fn doctype(&mut self, doctype: &Doctype<'_>, span: Span) {
        self.inner.doctype(doctype, span);
    }
    fn start_element(&mut self, tag: &StartTag<'t, '_>) {
        fn own<'x>(s: &str) -> Cow<'x, str> {
            Cow::Owned(s.to_owned())
        }
        let mut values = String::new();
        let attributes: Vec<RawAttribute<'a>> = tag
            .attributes
            .iter()
            .map(|a| {
                let start = values.len();
                values.push_str(a.value.as_str(tag.values));
                RawAttribute {
                    name: own(&a.name),
                    prefix_len: a.prefix_len,
                    value: Value::Decoded(start, values.len()),
                    span: a.span,
                    value_span: a.value_span,
                    ns: a.ns,
                    specified: a.specified,
                }
            })
            .collect();
        let bindings: Vec<NamespaceBinding<'a>> = tag
            .bindings
            .iter()
            .map(|b| NamespaceBinding {
                prefix: own(&b.prefix),
                uri: own(&b.uri),
            })
            .collect();
        self.inner.start_element(&StartTag {
            name: own(&tag.name),
            prefix_len: tag.prefix_len,
            ns: tag.ns,
            attributes: &attributes,
            values: &values,
            bindings: &bindings,
            declared: tag.declared,
            span: tag.span,
            empty: tag.empty,
        });
    }
    fn end_element(&mut self, span: Span) {
        self.inner.end_element(span);
    }
    fn text(&mut self, text: Text<'t, '_>, span: Span) {
        self.inner.text(Text::Decoded(text.as_str()), span);
    }
    fn cdata(&mut self, text: Text<'t, '_>, span: Span) {
        self.inner.cdata(Text::Decoded(text.as_str()), span);
    }
    fn comment(&mut self, text: Text<'t, '_>, span: Span) {
        self.inner.comment(Text::Decoded(text.as_str()), span);
    }
    fn processing_instruction(&mut self, target: Text<'t, '_>, data: Text<'t, '_>, span: Span) {
        self.inner.processing_instruction(
            Text::Decoded(target.as_str()),
            Text::Decoded(data.as_str()),
            span,
        );
    }
    fn skipped_entity(&mut self, name: &str, span: Span) {
        self.inner.skipped_entity(name, span);
    }
}
