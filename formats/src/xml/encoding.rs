//! Input decoding: the encoding sniffed from a byte order mark or the XML declaration,
//! anything but UTF-8 transcoded to UTF-8 first, and the builder adapter that lets a
//! parse of transcoded text feed a builder that borrows from the original input.
//!
//! UTF-8 input pays nothing here: it is validated and parsed in place. UTF-16 is read by
//! its byte order mark (or the `<?` it starts with). Every other encoding is named by the
//! XML declaration, by any label iconv, CPython or the WHATWG Encoding Standard gives it,
//! compared without regard to case or punctuation (`IBM855`, `cp855`, `csIBM855`,
//! `MacCyrillic`, `mac-cyrillic` and `x-mac-cyrillic` all read):
//!
//! - the single-byte encodings WHATWG leaves out, by the tables of Unicode's mapping files
//!   as CPython has them (`encoding/gen_single_byte.py` wrote `encoding/single_byte.rs`):
//!   the IBM PC code pages 437, 720, 737, 775, 850, 852, 855 to 858, 860 to 865, 869, 1006
//!   and 1125; MacArabic, MacCentralEurope, MacCroatian, MacFarsi, MacGreek, MacIceland,
//!   MacRomanian and MacTurkish; ISO-8859-11, TIS-620, KOI8-T, KZ-1048, PTCP154 and
//!   HP-ROMAN8;
//! - the labels WHATWG reads as another encoding, by their own tables, as iconv, CPython and
//!   XML parsers read them: ISO-8859-1 and ISO-8859-9 (WHATWG: windows-1252 and
//!   windows-1254, which differ in bytes 0x80 to 0x9F), ISO-8859-11 and TIS-620 (WHATWG:
//!   windows-874) and KOI8-U (WHATWG: KOI8-RU, which differs in 0xAE and 0xBE);
//! - every other encoding of the WHATWG Encoding Standard with `encoding_rs`:
//!   windows-125x and windows-874, the other ISO-8859 parts, KOI8-R, IBM866, macintosh
//!   (MacRoman), x-mac-cyrillic (MacCyrillic), Shift_JIS, EUC-JP, ISO-2022-JP, GBK,
//!   gb18030, Big5 and EUC-KR.
//!
//! Anything else (EBCDIC, UTF-32, ISO-2022-KR, ...) is an
//! [`ErrorKind::UnsupportedEncoding`] naming it, and a byte the declared encoding does not
//! define an [`ErrorKind::InvalidEncoded`] at that byte.
//! Spans of transcoded input refer to the UTF-8 text (`Document::source`); lines and
//! columns, counted in characters, are the same in the original bytes.

use std::borrow::Cow;

use crate::common::{push_utf16, validate_utf8, Limits, Span};

use super::builder::{
    Declaration, Doctype, NamespaceBinding, RawAttribute, StartTag, TextRef, Value, XmlBuilder,
};
use super::chars::is_ws;
use super::error::{Error, ErrorKind};

#[rustfmt::skip]
mod single_byte;

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
    if let Some(name) = declared_encoding(body) {
        let mismatch = || Err(Error::new(ErrorKind::EncodingMismatch, body, 0));
        match Declared::of(name) {
            Declared::Utf8 => {}
            // A byte order mark says UTF-8 (or UTF-16, handled above): any other encoding
            // contradicts it.
            Declared::Utf16 => return mismatch(),
            Declared::SingleByte(_) | Declared::Whatwg(_) if bom => return mismatch(),
            Declared::SingleByte(table) => {
                return decode_single_byte(body, table, name)
                    .map(|text| Input::Transcoded(text, Encoding::Declared));
            }
            Declared::Whatwg(encoding) => {
                return transcode(body, encoding, name)
                    .map(|text| Input::Transcoded(text, Encoding::Declared));
            }
            Declared::Unknown => {
                let kind = ErrorKind::UnsupportedEncoding(name.to_owned());
                return Err(Error::new(kind, body, 0));
            }
        }
    }
    match validate_utf8(body) {
        Ok(s) => Ok(Input::Borrowed(s)),
        Err(at) => Err(Error::new(ErrorKind::InvalidUtf8, body, at)),
    }
}

/// What an XML declaration's `encoding` names.
enum Declared {
    /// UTF-8 or ASCII: the input is read in place.
    Utf8,
    /// UTF-16, which a document without a byte order mark cannot be in.
    Utf16,
    /// A single-byte encoding WHATWG leaves out (or reads as another).
    SingleByte(&'static SingleByte),
    /// An encoding of the WHATWG Encoding Standard, read by `encoding_rs`.
    Whatwg(&'static encoding_rs::Encoding),
    /// An encoding quarry does not read.
    Unknown,
}

impl Declared {
    /// The encoding `name` labels: first as iconv and CPython spell it (case and
    /// punctuation aside), then by WHATWG's labels.
    fn of(name: &str) -> Declared {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "utf-8" | "utf8" | "us-ascii" | "ascii" => return Declared::Utf8,
            "utf-16" | "utf-16le" | "utf-16be" | "ucs-2" | "iso-10646-ucs-2" => {
                return Declared::Utf16
            }
            _ => {}
        }
        let key = normalize(&lower);
        if let Some(table) = single_byte::table(&key) {
            return Declared::SingleByte(table);
        }
        let label = single_byte::whatwg_label(&key).unwrap_or(&lower);
        match encoding_rs::Encoding::for_label(label.as_bytes()) {
            // Another label of UTF-8 (`unicode-1-1-utf-8`): read in place.
            Some(encoding) if encoding == encoding_rs::UTF_8 => Declared::Utf8,
            Some(encoding)
                if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE =>
            {
                Declared::Utf16
            }
            // WHATWG's `replacement` stands for encodings it refuses to read.
            Some(encoding) if encoding != encoding_rs::REPLACEMENT => Declared::Whatwg(encoding),
            _ => Declared::Unknown,
        }
    }
}

/// A label as the tables compare it: ASCII letters and digits only, lowercased
/// (`IBM-855`, `ibm_855` and `IBM855` are one label).
fn normalize(lower: &str) -> String {
    lower
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(char::from)
        .collect()
}

/// A single-byte encoding as a table: what each byte from 0x80 up decodes to, and the
/// few bytes below 0x80 that are not ASCII (IBM864's `%`).
pub(super) struct SingleByte {
    /// The code point of byte `0x80 + i`; 0 where the encoding defines none.
    high: [u16; 128],
    /// The bytes below 0x80 that do not stand for themselves, and what they stand for.
    low: &'static [(u8, u16)],
}

/// `body` decoded from the single-byte encoding `table` (declared as `name`); an error at
/// the first byte it does not define.
#[cold]
fn decode_single_byte(body: &[u8], table: &SingleByte, name: &str) -> Result<String> {
    let mut out = String::new();
    if out.try_reserve(body.len()).is_err() {
        return Err(Error::new(
            ErrorKind::InvalidEncoded(name.to_owned()),
            b"",
            0,
        ));
    }
    for (at, &byte) in body.iter().enumerate() {
        let point = match byte.checked_sub(0x80) {
            Some(i) => table.high[usize::from(i)],
            None => match table.low.iter().find(|&&(b, _)| b == byte) {
                Some(&(_, point)) => point,
                None => u16::from(byte),
            },
        };
        match char::from_u32(u32::from(point)) {
            Some(c) if point != 0 || byte == 0 => out.push(c),
            _ => {
                // Positions count characters of the text decoded so far, then the bytes.
                let offset = out.len();
                let mut text = out.into_bytes();
                text.extend_from_slice(&body[at..]);
                let kind = ErrorKind::InvalidEncoded(name.to_owned());
                return Err(Error::new(kind, &text, offset));
            }
        }
    }
    Ok(out)
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
    fn text(&mut self, text: TextRef<'t, '_>, span: Span) {
        self.inner.text(TextRef::Decoded(text.as_str()), span);
    }
    fn cdata(&mut self, text: TextRef<'t, '_>, span: Span) {
        self.inner.cdata(TextRef::Decoded(text.as_str()), span);
    }
    fn comment(&mut self, text: TextRef<'t, '_>, span: Span) {
        self.inner.comment(TextRef::Decoded(text.as_str()), span);
    }
    fn processing_instruction(
        &mut self,
        target: TextRef<'t, '_>,
        data: TextRef<'t, '_>,
        span: Span,
    ) {
        self.inner.processing_instruction(
            TextRef::Decoded(target.as_str()),
            TextRef::Decoded(data.as_str()),
            span,
        );
    }
    fn skipped_entity(&mut self, name: &str, span: Span) {
        self.inner.skipped_entity(name, span);
    }
}
