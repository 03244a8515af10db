//! The one XML parser, generic over [`XmlBuilder`].
//!
//! Phases, in one pass over the text: the encoding is sniffed (byte order mark, or the
//! XML declaration's `encoding`) and UTF-16 or ISO-8859-1 input transcoded to UTF-8
//! first; then the prolog (declaration, comments, PIs, the DOCTYPE with its internal
//! subset), the root element's content with an explicit stack of open elements (no
//! recursion on nesting), and the epilogue. Internal entities are expanded by parsing
//! their replacement text as content, with recursion detection and a byte budget;
//! external entities are never opened.
//!
//! Scanning uses byte-class tables built by `const fn`: text runs, attribute values
//! and names take a straight loop over bytes that need no attention; anything rare
//! (references, `\r`, non-ASCII names, errors) leaves the loop.

use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

use crate::common::{validate_utf8, Limits, Span};

use super::builder::{
    Declaration, Doctype, NamespaceBinding, RawAttribute, StartTag, Text, Value, XmlBuilder,
    NS_XML, NS_XMLNS, XMLNS_NAMESPACE, XML_NAMESPACE,
};
use super::error::{Error, ErrorKind};

type Result<T> = std::result::Result<T, Error>;

/// How deep entity references may nest while one is expanded.
const MAX_ENTITY_DEPTH: usize = 64;

/// The encoding the input was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
    Latin1,
}

/// Parses `input` (UTF-8, UTF-16 or ISO-8859-1, by byte order mark or declaration) with
/// `builder`, under `limits`.
///
/// UTF-8 input is parsed in place, so the builder gets borrowed text. Other encodings
/// are transcoded to UTF-8 first; the builder then gets owned text only, and spans and
/// error positions refer to the transcoded text.
pub fn parse_with<'a, B: XmlBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<()> {
    parse_with_options(input, builder, Options::default().with_limits(limits))
}

/// [`parse_with`] under `options`: limits, and whether to process namespaces.
pub fn parse_with_options<'a, B: XmlBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    options: Options,
) -> Result<()> {
    match decode_input(input, options.limits)? {
        Input::Borrowed(src) => Parser::new(src, Encoding::Utf8, options).document(builder),
        Input::Transcoded(text, encoding) => {
            let mut owning = Owning { inner: builder };
            Parser::new(&text, encoding, options).document(&mut owning)
        }
    }
}

/// How the parser reads a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Depth, size, entity expansion and attribute limits.
    pub limits: Limits,
    /// Namespaces in XML 1.0 (on by default): names must be QNames, prefixes must be
    /// bound, attributes unique by namespace too. Off, names are plain XML 1.0 names
    /// (colons anywhere) and nothing has a namespace.
    pub namespaces: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: Limits::default(),
            namespaces: true,
        }
    }
}

impl Options {
    /// These options with `limits`.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// These options with namespace processing on or off.
    pub fn with_namespaces(mut self, namespaces: bool) -> Self {
        self.namespaces = namespaces;
        self
    }
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
                    Encoding::Latin1,
                ));
            }
            "utf-16" | "utf-16le" | "utf-16be" | "ucs-2" | "iso-10646-ucs-2" => {
                return Err(Error::new(ErrorKind::EncodingMismatch, body, 0));
            }
            _ if bom => return Err(Error::new(ErrorKind::EncodingMismatch, body, 0)),
            _ => {
                return Err(Error::new(
                    ErrorKind::UnsupportedEncoding(name.to_owned()),
                    body,
                    0,
                ))
            }
        }
    }
    match validate_utf8(body) {
        Ok(s) => Ok(Input::Borrowed(s)),
        Err(at) => Err(Error::new(ErrorKind::InvalidUtf8, body, at)),
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
    if !bytes.len().is_multiple_of(2) {
        return Err(Error::new(ErrorKind::InvalidUtf16, bytes, bytes.len()));
    }
    let units = bytes.chunks_exact(2).map(|p| {
        if little {
            u16::from_le_bytes([p[0], p[1]])
        } else {
            u16::from_be_bytes([p[0], p[1]])
        }
    });
    let mut out = String::with_capacity(bytes.len() / 2);
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => out.push(c),
            Err(_) => {
                return Err(Error::new(
                    ErrorKind::InvalidUtf16,
                    out.as_bytes(),
                    out.len(),
                ))
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------
// Byte classes.

/// A `[bool; 256]` byte-class table, built at compile time.
macro_rules! table {
    (|$b:ident| $e:expr) => {{
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            let $b = i as u8;
            t[i] = $e;
            i += 1;
        }
        t
    }};
}

/// Bytes that need attention inside an attribute value.
static ATTR_SPECIAL: [bool; 256] = table!(|b| {
    matches!(b, b'"' | b'\'' | b'<' | b'&' | b'\t' | b'\n' | b'\r' | 0xEF) || b < 0x20
});
/// ASCII bytes that may start a name (non-ASCII is decided by [`is_name_start`]).
static NAME_START: [bool; 256] =
    table!(|b| b.is_ascii_alphabetic() || b == b'_' || b == b':' || b >= 0x80);
/// ASCII bytes that may continue a name, but `:` (non-ASCII is decided by
/// [`is_name_char`]).
static NAME_PLAIN: [bool; 256] =
    table!(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));

/// Rare bytes in character data, comments, PIs and CDATA: control characters other
/// than tab and newline (so `\r` too) and `0xEF`, the lead byte of U+FFFE and U+FFFF.
#[inline(always)]
fn rare_in_text(x: u8) -> bool {
    ((x < 0x20) & (x != b'\t') & (x != b'\n')) | (x == 0xEF)
}

/// Rare bytes in attribute values: every control character (tab, newline and CR are
/// normalized to spaces) and `0xEF`.
#[inline(always)]
fn rare_in_attribute(x: u8) -> bool {
    (x < 0x20) | (x == 0xEF)
}

/// The offset of the first byte of `s` for which `rare` holds. `rare` must imply
/// "below 0x20 or 0xEF": eight bytes at a time are tested for that with word
/// arithmetic (no branch per byte), and only a word that may hold one is looked at
/// byte by byte.
#[inline(always)]
fn first_rare(s: &[u8], rare: fn(u8) -> bool) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = s.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
        let ef = w ^ (ONES * 0xEF);
        let is_ef = ef.wrapping_sub(ONES) & !ef & HIGHS;
        if below_space | is_ef != 0 {
            if let Some(p) = chunk.iter().position(|&x| rare(x)) {
                return Some(base + p);
            }
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&x| rare(x))
        .map(|p| base + p)
}

/// The first byte from `from` that character data cannot take as is: `<`, `&`, `]`
/// (found with `memchr3`), or a rare byte before it.
#[inline]
fn scan_text(b: &[u8], from: usize) -> usize {
    let rest = &b[from.min(b.len())..];
    let end = memchr::memchr3(b'<', b'&', b']', rest).unwrap_or(rest.len());
    from + first_rare(&rest[..end], rare_in_text).unwrap_or(end)
}

/// The first byte from `from` that an attribute value cannot take as is: its quote,
/// `&`, `<`, or a rare byte before them.
#[inline]
fn scan_attribute(b: &[u8], from: usize, quote: u8) -> usize {
    let rest = &b[from.min(b.len())..];
    let end = memchr::memchr3(quote, b'&', b'<', rest).unwrap_or(rest.len());
    from + first_rare(&rest[..end], rare_in_attribute).unwrap_or(end)
}

/// XML 1.0 (fifth edition) `NameStartChar`.
#[inline]
pub fn is_name_start(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// XML 1.0 (fifth edition) `NameChar`.
#[inline]
pub fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// XML's `Char` production.
#[inline]
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// True when `s` is a valid XML `Name`.
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

// ---------------------------------------------------------------------------------
// The cursor over the document or an entity's replacement text.

struct Cur<'b> {
    s: &'b str,
    pos: usize,
    /// Reading the document itself (not an entity's replacement text): offsets are
    /// document offsets, text can be borrowed, and line ends are normalized.
    main: bool,
    /// The entity reference being expanded (when not `main`).
    reference: Span,
}

impl<'b> Cur<'b> {
    #[inline]
    fn bytes(&self) -> &'b [u8] {
        self.s.as_bytes()
    }
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.pos).copied()
    }
    #[inline]
    fn peek_at(&self, i: usize) -> Option<u8> {
        self.s.as_bytes().get(i).copied()
    }
    #[inline]
    fn starts_with(&self, prefix: &[u8]) -> bool {
        self.s.as_bytes()[self.pos.min(self.s.len())..].starts_with(prefix)
    }
    /// Skips white space; true if there was any.
    #[inline]
    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        let b = self.s.as_bytes();
        while self.pos < b.len() && is_ws(b[self.pos]) {
            self.pos += 1;
        }
        self.pos > start
    }
    #[inline]
    fn str(&self, start: usize, end: usize) -> &'b str {
        self.s.get(start..end).unwrap_or("")
    }
    fn char_at(&self, i: usize) -> Option<char> {
        self.s.get(i..).and_then(|s| s.chars().next())
    }
}

#[derive(Debug, Clone)]
enum Entity {
    /// Replacement text; `plain` when it holds no `<`, `&` or `\r`.
    Internal {
        name: Rc<str>,
        text: Rc<str>,
        plain: bool,
    },
    External,
    Unparsed,
}

struct Open<'a> {
    name: Cow<'a, str>,
    bindings: usize,
    start: usize,
}

#[derive(Clone, Copy)]
enum Pending {
    None,
    Borrowed(usize, usize),
    Owned,
}

/// A run of checked text: a slice of the cursor's text, or decoded into `scratch`.
enum Run {
    Slice(usize, usize),
    Scratch,
}

/// A name's bounds and the position of its colons.
#[derive(Clone, Copy)]
struct NameInfo {
    start: usize,
    end: usize,
    /// Offset of the first colon, if any.
    colon: Option<usize>,
    colons: usize,
}

impl NameInfo {
    /// A valid QName: no colon, or one colon with a non-empty part on both sides.
    #[inline]
    fn is_qname(&self) -> bool {
        match self.colon {
            None => true,
            Some(at) => self.colons == 1 && at > self.start && at + 1 < self.end,
        }
    }
    #[inline]
    fn prefix_len(&self) -> usize {
        self.colon.map_or(0, |at| at - self.start)
    }
}

/// The parser's state: the document text, the DTD's entities and the open elements.
pub(crate) struct Parser<'a> {
    src: &'a str,
    encoding: Encoding,
    limits: Limits,
    /// Namespace processing is on.
    namespaces: bool,
    general: HashMap<Box<str>, Entity>,
    params: HashMap<Box<str>, Entity>,
    /// An external subset or a parameter-entity reference was seen (and not read), so
    /// undeclared general entities are not a well-formedness error (unless standalone).
    lenient_entities: bool,
    /// An external parameter entity was not read: later declarations are not processed.
    skip_declarations: bool,
    standalone: bool,
    /// Attributes declared with a type other than CDATA, by element name: their values
    /// are normalized further (trimmed, runs of spaces collapsed).
    tokenized: HashMap<Box<str>, Vec<Box<str>>>,
    expanded: usize,
    active: Vec<Rc<str>>,
    open: Vec<Open<'a>>,
    bindings: Vec<NamespaceBinding<'a>>,
    /// [`prefix_key`] of each binding's prefix, to find a prefix without comparing strings.
    binding_keys: Vec<u64>,
    /// Changes whenever `bindings` does: entries of `prefix_cache` from another epoch
    /// are stale.
    epoch: u32,
    /// Recent prefix lookups: (key, binding, epoch), direct-mapped by key.
    prefix_cache: [std::cell::Cell<(u64, u32, u32)>; 8],
    attrs: Vec<RawAttribute<'a>>,
    /// Decoded attribute values of the current start tag (see [`Value::Decoded`]).
    values: String,
    /// Character data waiting to be reported.
    pending: Pending,
    text_span: Span,
    scratch: String,
    scratch2: String,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str, encoding: Encoding, options: Options) -> Self {
        Parser {
            src,
            encoding,
            limits: options.limits,
            namespaces: options.namespaces,
            general: HashMap::new(),
            params: HashMap::new(),
            lenient_entities: false,
            skip_declarations: false,
            standalone: false,
            tokenized: HashMap::new(),
            expanded: 0,
            active: Vec::new(),
            open: Vec::new(),
            bindings: Vec::new(),
            binding_keys: Vec::new(),
            epoch: 1,
            prefix_cache: Default::default(),
            attrs: Vec::new(),
            pending: Pending::None,
            text_span: Span::default(),
            scratch: String::new(),
            scratch2: String::new(),
            values: String::new(),
        }
    }

    #[cold]
    #[inline(never)]
    fn error(&self, c: &Cur<'_>, at: usize, kind: ErrorKind) -> Error {
        let offset = if c.main { at } else { c.reference.start };
        Error::new(kind, self.src.as_bytes(), offset)
    }

    #[cold]
    #[inline(never)]
    fn unexpected(&self, c: &Cur<'_>, expected: &'static str) -> Error {
        match c.char_at(c.pos) {
            None => self.error(c, c.pos, ErrorKind::UnexpectedEnd),
            Some(found) => self.error(c, c.pos, ErrorKind::UnexpectedCharacter { expected, found }),
        }
    }

    #[inline]
    fn expect(&self, c: &mut Cur<'_>, byte: u8, expected: &'static str) -> Result<()> {
        if c.peek() == Some(byte) {
            c.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(c, expected))
        }
    }

    #[inline]
    fn expect_str(&self, c: &mut Cur<'_>, s: &[u8], expected: &'static str) -> Result<()> {
        if c.starts_with(s) {
            c.pos += s.len();
            Ok(())
        } else {
            Err(self.unexpected(c, expected))
        }
    }

    #[inline]
    fn require_ws(&self, c: &mut Cur<'_>) -> Result<()> {
        if c.skip_ws() {
            Ok(())
        } else {
            Err(self.unexpected(c, "white space"))
        }
    }

    /// The span of `start..end` of the cursor's text, in document offsets.
    #[inline]
    fn span(&self, c: &Cur<'_>, start: usize, end: usize) -> Span {
        if c.main {
            Span::new(start, end)
        } else {
            c.reference
        }
    }

    /// `start..end` of the cursor's text, borrowed from the document when possible.
    #[inline(always)]
    fn cow(&self, c: &Cur<'_>, start: usize, end: usize) -> Cow<'a, str> {
        if c.main {
            Cow::Borrowed(self.src.get(start..end).unwrap_or(""))
        } else {
            Cow::Owned(c.str(start, end).to_owned())
        }
    }

    #[inline]
    fn run_text<'s>(&'s self, c: &Cur<'s>, run: &Run) -> Text<'a, 's> {
        match *run {
            Run::Slice(s, e) if c.main => Text::Borrowed(self.src.get(s..e).unwrap_or("")),
            Run::Slice(s, e) => Text::Decoded(c.str(s, e)),
            Run::Scratch => Text::Decoded(&self.scratch2),
        }
    }

    // -----------------------------------------------------------------------------
    // Names.

    /// Scans a `Name` at the cursor.
    #[inline]
    fn name(&self, c: &mut Cur<'_>) -> Result<NameInfo> {
        let b = c.bytes();
        let start = c.pos;
        let mut i = start;
        let mut colon = None;
        let mut colons = 0;
        match b.get(i) {
            Some(&x) if x < 0x80 && NAME_START[x as usize] => {
                if x == b':' {
                    colon = Some(i);
                    colons = 1;
                }
                i += 1;
            }
            Some(&x) if x >= 0x80 => match c.char_at(i) {
                Some(ch) if is_name_start(ch) => i += ch.len_utf8(),
                _ => return Err(self.error(c, i, ErrorKind::InvalidName)),
            },
            None => return Err(self.error(c, i, ErrorKind::UnexpectedEnd)),
            Some(_) => return Err(self.unexpected_at(c, i, "a name")),
        }
        loop {
            // The common case: ASCII name characters other than `:`.
            while i < b.len() && NAME_PLAIN[b[i] as usize] {
                i += 1;
            }
            match b.get(i) {
                Some(b':') => {
                    if colon.is_none() {
                        colon = Some(i);
                    }
                    colons += 1;
                    i += 1;
                }
                Some(&x) if x >= 0x80 => match c.char_at(i) {
                    Some(ch) if is_name_char(ch) => i += ch.len_utf8(),
                    _ => break,
                },
                _ => break,
            }
        }
        c.pos = i;
        Ok(NameInfo {
            start,
            end: i,
            colon,
            colons,
        })
    }

    #[cold]
    fn unexpected_at(&self, c: &Cur<'_>, at: usize, expected: &'static str) -> Error {
        match c.char_at(at) {
            None => self.error(c, at, ErrorKind::UnexpectedEnd),
            Some(found) => self.error(c, at, ErrorKind::UnexpectedCharacter { expected, found }),
        }
    }

    /// True when `name` may name an element or attribute: with namespaces, a QName.
    #[inline]
    fn qname_ok(&self, name: &NameInfo) -> bool {
        !self.namespaces || name.is_qname()
    }

    /// The prefix length of an element or attribute name (0 without namespaces).
    #[inline]
    fn prefix_len(&self, name: &NameInfo) -> usize {
        if self.namespaces {
            name.prefix_len()
        } else {
            0
        }
    }

    /// A name that must not contain a colon with namespaces (entity names, PI
    /// targets, notations).
    fn ncname(&self, c: &mut Cur<'_>) -> Result<NameInfo> {
        let name = self.name(c)?;
        if self.namespaces && name.colon.is_some() {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        Ok(name)
    }

    /// `Nmtoken`: one or more name characters.
    fn nmtoken(&self, c: &mut Cur<'_>) -> Result<()> {
        let start = c.pos;
        while let Some(ch) = c.char_at(c.pos) {
            if !is_name_char(ch) {
                break;
            }
            c.pos += ch.len_utf8();
        }
        if c.pos == start {
            return Err(self.unexpected(c, "a name token"));
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------
    // Checked runs (comments, PIs, CDATA).

    /// Checks the characters of `start..end` and normalizes line ends into `scratch2`
    /// when there is a `\r` in the document text.
    fn checked_run(&mut self, c: &Cur<'_>, start: usize, end: usize) -> Result<Run> {
        let b = c.bytes();
        let mut i = start;
        let mut has_cr = false;
        while i < end {
            match first_rare(&b[i..end], rare_in_text) {
                None => break,
                Some(k) => i += k,
            }
            let x = b[i];
            match x {
                b'\r' => {
                    has_cr = true;
                    i += 1;
                }
                0xEF => {
                    self.check_ef(c, i)?;
                    i += 1;
                }
                _ => return Err(self.error(c, i, ErrorKind::InvalidChar(x as char))),
            }
        }
        if has_cr && c.main {
            self.scratch2.clear();
            normalize_line_ends(c.str(start, end), &mut self.scratch2);
            Ok(Run::Scratch)
        } else {
            Ok(Run::Slice(start, end))
        }
    }

    /// Rejects U+FFFE and U+FFFF (`EF BF BE`, `EF BF BF`).
    #[inline]
    fn check_ef(&self, c: &Cur<'_>, i: usize) -> Result<()> {
        let b = c.bytes();
        if b.get(i + 1) == Some(&0xBF) && matches!(b.get(i + 2), Some(0xBE | 0xBF)) {
            let ch = if b[i + 2] == 0xBE {
                '\u{FFFE}'
            } else {
                '\u{FFFF}'
            };
            return Err(self.error(c, i, ErrorKind::InvalidChar(ch)));
        }
        Ok(())
    }

    /// `<!--` ... `-->`: returns the content run.
    fn comment(&mut self, c: &mut Cur<'_>) -> Result<(Run, usize)> {
        let start = c.pos;
        c.pos += 4;
        let body = c.pos;
        let rest = &c.bytes()[body..];
        let Some(dashes) = memchr::memmem::find(rest, b"--") else {
            return Err(self.error(c, c.s.len(), ErrorKind::UnexpectedEnd));
        };
        let end = body + dashes;
        if c.peek_at(end + 2) != Some(b'>') {
            return Err(self.error(c, end, ErrorKind::DoubleHyphenInComment));
        }
        let run = self.checked_run(c, body, end)?;
        c.pos = end + 3;
        let _ = start;
        Ok((run, end))
    }

    /// `<?target data?>`: returns the target's bounds and the data run.
    fn pi(&mut self, c: &mut Cur<'_>) -> Result<(NameInfo, Run)> {
        c.pos += 2;
        let target = self.name(c)?;
        if self.namespaces && target.colon.is_some() {
            return Err(self.error(c, target.start, ErrorKind::InvalidName));
        }
        if target.end - target.start == 3
            && c.str(target.start, target.end).eq_ignore_ascii_case("xml")
        {
            return Err(self.error(c, target.start, ErrorKind::ReservedPiTarget));
        }
        if c.starts_with(b"?>") {
            c.pos += 2;
            return Ok((target, Run::Slice(c.pos - 2, c.pos - 2)));
        }
        self.require_ws(c)?;
        let body = c.pos;
        let Some(close) = memchr::memmem::find(&c.bytes()[body..], b"?>") else {
            return Err(self.error(c, c.s.len(), ErrorKind::UnexpectedEnd));
        };
        let run = self.checked_run(c, body, body + close)?;
        c.pos = body + close + 2;
        Ok((target, run))
    }

    fn emit_comment<B: XmlBuilder<'a>>(&mut self, c: &mut Cur<'_>, b: &mut B) -> Result<()> {
        let start = c.pos;
        let (run, _) = self.comment(c)?;
        let span = self.span(c, start, c.pos);
        b.comment(self.run_text(c, &run), span);
        Ok(())
    }

    fn emit_pi<B: XmlBuilder<'a>>(&mut self, c: &mut Cur<'_>, b: &mut B) -> Result<()> {
        let start = c.pos;
        let (target, run) = self.pi(c)?;
        let span = self.span(c, start, c.pos);
        let target = self.run_text(c, &Run::Slice(target.start, target.end));
        b.processing_instruction(target, self.run_text(c, &run), span);
        Ok(())
    }

    // -----------------------------------------------------------------------------
    // The document.

    pub(crate) fn document<B: XmlBuilder<'a>>(&mut self, b: &mut B) -> Result<()> {
        let src = self.src;
        let mut c = Cur {
            s: src,
            pos: 0,
            main: true,
            reference: Span::default(),
        };
        if c.starts_with(b"<?xml") && c.peek_at(5).is_some_and(is_ws) {
            self.xml_declaration(&mut c, b)?;
        } else if self.encoding == Encoding::Latin1 {
            return Err(self.error(&c, 0, ErrorKind::EncodingMismatch));
        }
        let mut seen_doctype = false;
        loop {
            c.skip_ws();
            match c.peek() {
                None => return Err(self.error(&c, c.pos, ErrorKind::MissingRoot)),
                Some(b'<') => {
                    if c.starts_with(b"<!--") {
                        self.emit_comment(&mut c, b)?;
                    } else if c.starts_with(b"<?") {
                        self.emit_pi(&mut c, b)?;
                    } else if c.starts_with(b"<!DOCTYPE") {
                        if seen_doctype {
                            return Err(self.error(&c, c.pos, ErrorKind::UnexpectedDoctype));
                        }
                        seen_doctype = true;
                        self.doctype(&mut c, b)?;
                    } else if c.starts_with(b"<!") {
                        return Err(self.unexpected_at(&c, c.pos + 2, "`--` or `DOCTYPE`"));
                    } else {
                        let empty = self.start_tag(&mut c, b)?;
                        if !empty {
                            self.content(&mut c, b, 0)?;
                        }
                        break;
                    }
                }
                Some(_) => return Err(self.error(&c, c.pos, ErrorKind::TextOutsideRoot)),
            }
        }
        loop {
            c.skip_ws();
            match c.peek() {
                None => return Ok(()),
                Some(b'<') if c.starts_with(b"<!--") => self.emit_comment(&mut c, b)?,
                Some(b'<') if c.starts_with(b"<?") => self.emit_pi(&mut c, b)?,
                Some(_) => return Err(self.error(&c, c.pos, ErrorKind::ContentAfterRoot)),
            }
        }
    }

    fn xml_declaration<B: XmlBuilder<'a>>(&mut self, c: &mut Cur<'_>, b: &mut B) -> Result<()> {
        let invalid = |p: &Self, c: &Cur<'_>| p.error(c, c.pos, ErrorKind::InvalidDeclaration);
        c.pos = 5;
        c.skip_ws();
        if !c.starts_with(b"version") {
            return Err(invalid(self, c));
        }
        c.pos += 7;
        let version = self.decl_value(c)?;
        let v = c.str(version.0, version.1);
        if !(v.len() > 2 && v.starts_with("1.") && v[2..].bytes().all(|d| d.is_ascii_digit())) {
            return Err(self.error(c, version.0, ErrorKind::UnsupportedVersion));
        }
        let mut ws = c.skip_ws();
        let mut encoding = None;
        if c.starts_with(b"encoding") {
            if !ws {
                return Err(invalid(self, c));
            }
            c.pos += 8;
            let (s, e) = self.decl_value(c)?;
            let name = c.str(s, e);
            let mut bytes = name.bytes();
            if !(bytes.next().is_some_and(|x| x.is_ascii_alphabetic())
                && bytes.all(|x| x.is_ascii_alphanumeric() || matches!(x, b'.' | b'_' | b'-')))
            {
                return Err(self.error(c, s, ErrorKind::InvalidDeclaration));
            }
            let lower = name.to_ascii_lowercase();
            let utf16 = lower.starts_with("utf-16") || lower.contains("ucs-2");
            if (self.encoding == Encoding::Utf16) != utf16 {
                return Err(self.error(c, s, ErrorKind::EncodingMismatch));
            }
            encoding = Some((s, e));
            ws = c.skip_ws();
        } else if self.encoding == Encoding::Latin1 {
            return Err(self.error(c, c.pos, ErrorKind::EncodingMismatch));
        }
        let mut standalone = None;
        if c.starts_with(b"standalone") {
            if !ws {
                return Err(invalid(self, c));
            }
            c.pos += 10;
            let (s, e) = self.decl_value(c)?;
            standalone = Some(match c.str(s, e) {
                "yes" => true,
                "no" => false,
                _ => return Err(self.error(c, s, ErrorKind::InvalidDeclaration)),
            });
            c.skip_ws();
        }
        if !c.starts_with(b"?>") {
            return Err(invalid(self, c));
        }
        c.pos += 2;
        self.standalone = standalone == Some(true);
        b.declaration(
            &Declaration {
                version: v,
                encoding: encoding.map(|(s, e)| c.str(s, e)),
                standalone,
            },
            Span::new(0, c.pos),
        );
        Ok(())
    }

    /// `Eq` and a quoted value in the XML declaration; returns the value's bounds.
    fn decl_value(&self, c: &mut Cur<'_>) -> Result<(usize, usize)> {
        c.skip_ws();
        self.expect(c, b'=', "`=`")?;
        c.skip_ws();
        let quote = match c.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => return Err(self.unexpected(c, "a quote")),
        };
        let start = c.pos + 1;
        let Some(close) = memchr::memchr(quote, &c.bytes()[start..]) else {
            return Err(self.error(c, c.s.len(), ErrorKind::UnexpectedEnd));
        };
        c.pos = start + close + 1;
        Ok((start, start + close))
    }

    // -----------------------------------------------------------------------------
    // Elements and content.

    /// Parses a start tag at `<`; reports it, and its end too when it is empty.
    /// Returns true for an empty-element tag.
    fn start_tag<B: XmlBuilder<'a>>(&mut self, c: &mut Cur<'_>, b: &mut B) -> Result<bool> {
        let start = c.pos;
        if self.open.len() >= self.limits.max_depth {
            return Err(self.error(
                c,
                start,
                ErrorKind::DepthLimitReached(self.limits.max_depth),
            ));
        }
        c.pos += 1;
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        self.attrs.clear();
        self.values.clear();
        let empty;
        loop {
            let ws = c.skip_ws();
            match c.peek() {
                Some(b'>') => {
                    c.pos += 1;
                    empty = false;
                    break;
                }
                Some(b'/') => {
                    c.pos += 1;
                    self.expect(c, b'>', "`>`")?;
                    empty = true;
                    break;
                }
                None => return Err(self.error(c, c.pos, ErrorKind::UnexpectedEnd)),
                Some(_) if !ws => return Err(self.unexpected(c, "white space, `>` or `/>`")),
                Some(_) => self.attribute(c)?,
            }
        }
        if !self.tokenized.is_empty() {
            self.normalize_tokenized(c.str(name.start, name.end));
        }
        let bindings_before = self.bindings.len();
        let ns = self.namespaces(c, &name)?;
        let span = self.span(c, start, c.pos);
        let qname = self.cow(c, name.start, name.end);
        let tag = StartTag {
            name: qname,
            prefix_len: self.prefix_len(&name),
            ns,
            attributes: &self.attrs,
            values: &self.values,
            bindings: &self.bindings,
            declared: self.bindings.len() - bindings_before,
            span,
            empty,
        };
        b.start_element(&tag);
        if empty {
            b.end_element(self.span(c, c.pos - 2, c.pos));
            self.drop_bindings(bindings_before);
        } else {
            self.open.push(Open {
                name: tag.name,
                bindings: bindings_before,
                start,
            });
        }
        Ok(empty)
    }

    /// Normalizes the values of attributes the DTD declares with a tokenized or
    /// enumerated type (XML 1.0 §3.3.3): no leading or trailing spaces, single spaces.
    #[cold]
    fn normalize_tokenized(&mut self, element: &str) {
        let Some(names) = self.tokenized.get(element) else {
            return;
        };
        let values = &mut self.values;
        for attr in &mut self.attrs {
            if !names.iter().any(|n| **n == *attr.name) {
                continue;
            }
            let v = attr.value.as_str(values);
            if !v.starts_with(' ') && !v.ends_with(' ') && !v.contains("  ") {
                continue;
            }
            let normalized = v
                .split(' ')
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let start = values.len();
            values.push_str(&normalized);
            attr.value = Value::Decoded(start, values.len());
        }
    }

    /// One attribute, pushed on `self.attrs`.
    fn attribute(&mut self, c: &mut Cur<'_>) -> Result<()> {
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        c.skip_ws();
        self.expect(c, b'=', "`=`")?;
        c.skip_ws();
        let value_start = c.pos + 1;
        let value = self.att_value(c)?;
        if self.attrs.len() >= self.limits.max_attributes {
            return Err(self.error(
                c,
                name.start,
                ErrorKind::AttributeLimitReached(self.limits.max_attributes),
            ));
        }
        let attr = RawAttribute {
            name: self.cow(c, name.start, name.end),
            prefix_len: self.prefix_len(&name),
            value,
            span: self.span(c, name.start, c.pos),
            value_span: self.span(c, value_start, c.pos - 1),
            ns: 0,
        };
        self.attrs.push(attr);
        Ok(())
    }

    /// Namespace declarations, prefix resolution and attribute uniqueness for the
    /// start tag just read; returns the element's namespace.
    fn namespaces(&mut self, c: &Cur<'_>, name: &NameInfo) -> Result<u32> {
        if !self.namespaces {
            self.check_unique(c, 0)?;
            return Ok(0);
        }
        let at = |p: &Self, kind| p.error(c, name.start, kind);
        // Declarations first: they apply to the tag they sit on.
        for attr in &self.attrs {
            let value = attr.value.as_str(&self.values);
            let declared = if attr.prefix_len == 0 {
                if attr.name != "xmlns" {
                    continue;
                }
                if value == XML_NAMESPACE || value == XMLNS_NAMESPACE {
                    return Err(at(self, ErrorKind::InvalidNamespaceDeclaration));
                }
                ""
            } else {
                if &attr.name[..attr.prefix_len] != "xmlns" {
                    continue;
                }
                let local = &attr.name[attr.prefix_len + 1..];
                let ok = match local {
                    "xmlns" => false,
                    "xml" => value == XML_NAMESPACE,
                    _ => !value.is_empty() && value != XML_NAMESPACE && value != XMLNS_NAMESPACE,
                };
                if !ok {
                    return Err(at(self, ErrorKind::InvalidNamespaceDeclaration));
                }
                local
            };
            let prefix = match &attr.name {
                Cow::Borrowed(s) => Cow::Borrowed(&s[s.len() - declared.len()..]),
                Cow::Owned(_) => Cow::Owned(declared.to_owned()),
            };
            self.binding_keys.push(prefix_key(declared));
            self.epoch = self.epoch.wrapping_add(1);
            self.bindings.push(NamespaceBinding {
                prefix,
                uri: match attr.value {
                    Value::Borrowed(s) => Cow::Borrowed(s),
                    Value::Decoded(..) => Cow::Owned(value.to_owned()),
                },
            });
        }
        let element_ns = if name.colon.is_none() {
            self.lookup_prefix("").unwrap_or(0)
        } else {
            let prefix = c.str(name.start, name.start + name.prefix_len());
            match prefix {
                "xml" => NS_XML,
                "xmlns" => return Err(at(self, ErrorKind::InvalidNamespaceDeclaration)),
                _ => self
                    .lookup_prefix(prefix)
                    .ok_or_else(|| at(self, ErrorKind::UnboundPrefix(prefix.to_owned())))?,
            }
        };
        let mut prefixed = 0;
        for i in 0..self.attrs.len() {
            let attr = &self.attrs[i];
            let ns = if attr.prefix_len == 0 {
                if attr.name == "xmlns" {
                    NS_XMLNS
                } else {
                    0
                }
            } else {
                prefixed += 1;
                match &attr.name[..attr.prefix_len] {
                    "xml" => NS_XML,
                    "xmlns" => NS_XMLNS,
                    prefix => match self.lookup_prefix(prefix) {
                        Some(ns) => ns,
                        None => {
                            let prefix = prefix.to_owned();
                            return Err(self.error(
                                c,
                                attr.span.start,
                                ErrorKind::UnboundPrefix(prefix),
                            ));
                        }
                    },
                }
            };
            self.attrs[i].ns = ns;
        }
        self.check_unique(c, prefixed)?;
        Ok(element_ns)
    }

    /// The binding (index plus one) of `prefix`, innermost first.
    #[inline(always)]
    fn lookup_prefix(&self, prefix: &str) -> Option<u32> {
        if self.bindings.is_empty() {
            return None;
        }
        let key = prefix_key(prefix);
        let exact = prefix.len() <= 7;
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) as usize;
        if exact {
            let (k, found, epoch) = self.prefix_cache[slot].get();
            if k == key && epoch == self.epoch {
                return Some(found);
            }
        }
        let found = self
            .binding_keys
            .iter()
            .enumerate()
            .rev()
            .find(|&(i, &k)| k == key && (exact || self.bindings[i].prefix == prefix))
            .map(|(i, _)| i as u32 + 1)?;
        if exact {
            self.prefix_cache[slot].set((key, found, self.epoch));
        }
        Some(found)
    }

    /// Drops the namespace bindings beyond the first `len`.
    #[inline]
    fn drop_bindings(&mut self, len: usize) {
        if self.bindings.len() != len {
            self.bindings.truncate(len);
            self.binding_keys.truncate(len);
            self.epoch = self.epoch.wrapping_add(1);
        }
    }

    fn ns_uri(&self, ns: u32) -> &str {
        match ns {
            0 => "",
            NS_XML => XML_NAMESPACE,
            NS_XMLNS => XMLNS_NAMESPACE,
            i => self.bindings.get(i as usize - 1).map_or("", |b| &b.uri),
        }
    }

    fn check_unique(&self, c: &Cur<'_>, prefixed: usize) -> Result<()> {
        let attrs = &self.attrs;
        let n = attrs.len();
        if n < 2 {
            return Ok(());
        }
        let dup = |i: usize| {
            let a = &attrs[i];
            self.error(
                c,
                a.span.start,
                ErrorKind::DuplicatedAttribute(a.name.to_string()),
            )
        };
        if n <= 64 {
            // A 64-bit filter on (length, first byte, last byte): only a name whose bit
            // is already set is compared with the names before it.
            let mut filter = 0u64;
            for i in 0..n {
                let bit = 1u64 << name_bit(&attrs[i].name);
                if filter & bit != 0
                    && attrs[..i]
                        .iter()
                        .any(|b| may_equal(&attrs[i].name, &b.name) && attrs[i].name == b.name)
                {
                    return Err(dup(i));
                }
                filter |= bit;
            }
        } else {
            let mut seen = std::collections::HashSet::with_capacity(n);
            for (i, a) in attrs.iter().enumerate() {
                if !seen.insert(&*a.name) {
                    return Err(dup(i));
                }
            }
        }
        if prefixed >= 2 && n <= 64 {
            let mut filter = 0u64;
            for i in 0..n {
                let a = &attrs[i];
                if a.prefix_len == 0 {
                    continue;
                }
                let bit = 1u64 << name_bit(a.local_name());
                if filter & bit != 0 {
                    for b in &attrs[..i] {
                        if b.prefix_len > 0
                            && may_equal(a.local_name(), b.local_name())
                            && a.local_name() == b.local_name()
                            && (a.ns == b.ns || self.ns_uri(a.ns) == self.ns_uri(b.ns))
                        {
                            return Err(dup(i));
                        }
                    }
                }
                filter |= bit;
            }
        } else if prefixed >= 2 {
            let mut seen = std::collections::HashSet::with_capacity(prefixed);
            for (i, a) in attrs.iter().enumerate() {
                if a.prefix_len > 0 && !seen.insert((self.ns_uri(a.ns), a.local_name())) {
                    return Err(dup(i));
                }
            }
        }
        Ok(())
    }

    /// An attribute value at its opening quote, normalized (§3.3.3, as CDATA).
    fn att_value(&mut self, c: &mut Cur<'_>) -> Result<Value<'a>> {
        let quote = match c.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => return Err(self.unexpected(c, "a quote")),
        };
        let start = c.pos + 1;
        let b = c.bytes();
        let i = scan_attribute(b, start, quote);
        if b.get(i) == Some(&quote) {
            c.pos = i + 1;
            if c.main {
                return Ok(Value::Borrowed(self.src.get(start..i).unwrap_or("")));
            }
            let begin = self.values.len();
            self.values.push_str(c.str(start, i));
            return Ok(Value::Decoded(begin, self.values.len()));
        }
        let mut out = std::mem::take(&mut self.values);
        let begin = out.len();
        out.push_str(c.str(start, i));
        c.pos = i;
        let result = self.att_value_slow(c, quote, &mut out, 0);
        let end = out.len();
        self.values = out;
        result.map(|()| Value::Decoded(begin, end))
    }

    /// The rest of an attribute value (or an entity's replacement text inside one, when
    /// `quote` is 0), appended normalized to `out`.
    fn att_value_slow(
        &mut self,
        c: &mut Cur<'_>,
        quote: u8,
        out: &mut String,
        depth: usize,
    ) -> Result<()> {
        let b = c.bytes();
        loop {
            let run = c.pos;
            let mut i = run;
            while i < b.len() && !ATTR_SPECIAL[b[i] as usize] {
                i += 1;
            }
            out.push_str(c.str(run, i));
            c.pos = i;
            let Some(&x) = b.get(i) else {
                if quote == 0 {
                    return Ok(());
                }
                return Err(self.error(c, i, ErrorKind::UnexpectedEnd));
            };
            match x {
                _ if x == quote => {
                    c.pos += 1;
                    return Ok(());
                }
                b'"' | b'\'' => {
                    out.push(x as char);
                    c.pos += 1;
                }
                b'<' => return Err(self.error(c, i, ErrorKind::LtInAttributeValue)),
                b'\t' | b'\n' => {
                    out.push(' ');
                    c.pos += 1;
                }
                b'\r' => {
                    out.push(' ');
                    c.pos += 1;
                    if c.main && c.peek() == Some(b'\n') {
                        c.pos += 1;
                    }
                }
                0xEF => {
                    self.check_ef(c, i)?;
                    let ch = c.char_at(i).unwrap_or('\u{FFFD}');
                    out.push(ch);
                    c.pos += ch.len_utf8();
                }
                b'&' => {
                    if c.peek_at(i + 1) == Some(b'#') {
                        let ch = self.char_ref(c)?;
                        out.push(ch);
                        continue;
                    }
                    let ref_start = i;
                    c.pos += 1;
                    let name = self.name(c)?;
                    self.expect(c, b';', "`;`")?;
                    let nm = c.str(name.start, name.end);
                    if let Some(ch) = predefined(nm) {
                        out.push(ch);
                        continue;
                    }
                    match self.general.get(nm).cloned() {
                        Some(Entity::Internal { name, text, .. }) => {
                            let reference = self.span(c, ref_start, c.pos);
                            self.enter(c, ref_start, &name, text.len(), depth)?;
                            let mut sub = Cur {
                                s: &text,
                                pos: 0,
                                main: false,
                                reference,
                            };
                            self.active.push(name);
                            let r = self.att_value_slow(&mut sub, 0, out, depth + 1);
                            self.active.pop();
                            r?;
                        }
                        Some(Entity::External) => {
                            return Err(self.error(
                                c,
                                ref_start,
                                ErrorKind::ExternalEntityInAttribute(nm.to_owned()),
                            ))
                        }
                        Some(Entity::Unparsed) => {
                            return Err(self.error(
                                c,
                                ref_start,
                                ErrorKind::UnparsedEntityReference(nm.to_owned()),
                            ))
                        }
                        None if self.lenient_entities && !self.standalone => {}
                        None => {
                            return Err(self.error(
                                c,
                                ref_start,
                                ErrorKind::UndeclaredEntity(nm.to_owned()),
                            ))
                        }
                    }
                }
                _ => return Err(self.error(c, i, ErrorKind::InvalidChar(x as char))),
            }
        }
    }

    /// Checks recursion, nesting and the expansion budget before expanding `name`.
    fn enter(
        &mut self,
        c: &Cur<'_>,
        at: usize,
        name: &str,
        len: usize,
        depth: usize,
    ) -> Result<()> {
        if self.active.iter().any(|a| &**a == name) {
            return Err(self.error(c, at, ErrorKind::RecursiveEntity(name.to_owned())));
        }
        if depth >= MAX_ENTITY_DEPTH {
            return Err(self.error(c, at, ErrorKind::EntityDepthLimitReached(MAX_ENTITY_DEPTH)));
        }
        self.expanded = self.expanded.saturating_add(len);
        if self.expanded > self.limits.max_entity_expansion {
            return Err(self.error(
                c,
                at,
                ErrorKind::EntityExpansionLimitReached(self.limits.max_entity_expansion),
            ));
        }
        Ok(())
    }

    /// `&#...;` at the cursor: the character, checked against `Char`.
    fn char_ref(&self, c: &mut Cur<'_>) -> Result<char> {
        let start = c.pos;
        c.pos += 2;
        let hex = c.peek() == Some(b'x');
        if hex {
            c.pos += 1;
        }
        let digits = c.pos;
        let mut value: u32 = 0;
        while let Some(d) = c.peek() {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' if hex => d - b'a' + 10,
                b'A'..=b'F' if hex => d - b'A' + 10,
                _ => break,
            };
            value = value
                .saturating_mul(if hex { 16 } else { 10 })
                .saturating_add(v as u32);
            c.pos += 1;
        }
        if c.pos == digits {
            return Err(self.unexpected(c, "a digit"));
        }
        self.expect(c, b';', "`;`")?;
        match char::from_u32(value) {
            Some(ch) if is_xml_char(ch) => Ok(ch),
            _ => Err(self.error(c, start, ErrorKind::InvalidCharRef)),
        }
    }

    // Pending character data.

    #[inline]
    fn push_slice(&mut self, c: &Cur<'_>, start: usize, end: usize) {
        if start == end {
            return;
        }
        match self.pending {
            Pending::None if c.main => {
                self.pending = Pending::Borrowed(start, end);
                self.text_span = Span::new(start, end);
                return;
            }
            Pending::Borrowed(s, e) if c.main && e == start => {
                self.pending = Pending::Borrowed(s, end);
                self.text_span.end = end;
                return;
            }
            _ => {}
        }
        self.make_owned(c, start);
        self.scratch.push_str(c.str(start, end));
        self.extend_span(c, end);
    }

    #[inline]
    fn extend_span(&mut self, c: &Cur<'_>, end: usize) {
        self.text_span.end = if c.main {
            end
        } else {
            c.reference.end.max(self.text_span.end)
        };
    }

    /// Moves pending text into `scratch`, ready for decoded pieces.
    fn make_owned(&mut self, c: &Cur<'_>, at: usize) {
        match self.pending {
            Pending::Owned => {}
            Pending::None => {
                self.scratch.clear();
                self.text_span = self.span(c, at, at);
                self.pending = Pending::Owned;
            }
            Pending::Borrowed(s, e) => {
                self.scratch.clear();
                self.scratch.push_str(self.src.get(s..e).unwrap_or(""));
                self.pending = Pending::Owned;
            }
        }
    }

    #[inline]
    fn push_char(&mut self, c: &Cur<'_>, at: usize, ch: char, end: usize) {
        self.make_owned(c, at);
        self.scratch.push(ch);
        self.extend_span(c, end);
    }

    #[inline]
    fn flush<B: XmlBuilder<'a>>(&mut self, b: &mut B) {
        match self.pending {
            Pending::None => return,
            Pending::Borrowed(s, e) => b.text(
                Text::Borrowed(self.src.get(s..e).unwrap_or("")),
                self.text_span,
            ),
            Pending::Owned => b.text(Text::Decoded(&self.scratch), self.text_span),
        }
        self.pending = Pending::None;
    }

    /// Content until the element open at `base` closes (in the document), or to the end
    /// of an entity's replacement text.
    fn content<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cur<'_>,
        b: &mut B,
        base: usize,
    ) -> Result<()> {
        let bytes = c.bytes();
        loop {
            let start = c.pos;
            let i = scan_text(bytes, start);
            let Some(&x) = bytes.get(i) else {
                self.push_slice(c, start, i);
                c.pos = i;
                if c.main {
                    return Err(self.error(c, i, ErrorKind::UnexpectedEnd));
                }
                return Ok(());
            };
            match x {
                b'<' => {
                    self.push_slice(c, start, i);
                    c.pos = i;
                    self.flush(b);
                    if self.markup(c, b, base)? {
                        return Ok(());
                    }
                }
                b'&' => {
                    self.push_slice(c, start, i);
                    c.pos = i;
                    self.reference(c, b, base)?;
                }
                b'\r' => {
                    self.push_slice(c, start, i);
                    c.pos = i + 1;
                    if c.main {
                        if c.peek() == Some(b'\n') {
                            c.pos += 1;
                        }
                        self.push_char(c, i, '\n', c.pos);
                    } else {
                        self.push_char(c, i, '\r', c.pos);
                    }
                }
                b']' => {
                    if bytes.get(i + 1) == Some(&b']') && bytes.get(i + 2) == Some(&b'>') {
                        return Err(self.error(c, i, ErrorKind::CdataEndInText));
                    }
                    self.push_slice(c, start, i + 1);
                    c.pos = i + 1;
                }
                0xEF => {
                    // A three-byte sequence: take it whole, so slices stay on boundaries.
                    self.check_ef(c, i)?;
                    let end = (i + 3).min(bytes.len());
                    self.push_slice(c, start, end);
                    c.pos = end;
                }
                _ => return Err(self.error(c, i, ErrorKind::InvalidChar(x as char))),
            }
        }
    }

    /// Markup in content at `<`. Returns true when the element open at `base` (the
    /// root, in the document) has closed.
    fn markup<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cur<'_>,
        b: &mut B,
        base: usize,
    ) -> Result<bool> {
        match c.peek_at(c.pos + 1) {
            Some(b'/') => return self.end_tag(c, b, base),
            Some(b'!') => {
                if c.starts_with(b"<!--") {
                    self.emit_comment(c, b)?;
                } else if c.starts_with(b"<![CDATA[") {
                    let start = c.pos;
                    let body = c.pos + 9;
                    let Some(close) = memchr::memmem::find(&c.bytes()[body..], b"]]>") else {
                        return Err(self.error(c, c.s.len(), ErrorKind::UnexpectedEnd));
                    };
                    let run = self.checked_run(c, body, body + close)?;
                    c.pos = body + close + 3;
                    let span = self.span(c, start, c.pos);
                    b.cdata(self.run_text(c, &run), span);
                } else if c.starts_with(b"<!DOCTYPE") {
                    return Err(self.error(c, c.pos, ErrorKind::UnexpectedDoctype));
                } else {
                    return Err(self.unexpected_at(c, c.pos + 2, "`--` or `[CDATA[`"));
                }
            }
            Some(b'?') => self.emit_pi(c, b)?,
            _ => {
                self.start_tag(c, b)?;
            }
        }
        Ok(false)
    }

    fn end_tag<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cur<'_>,
        b: &mut B,
        base: usize,
    ) -> Result<bool> {
        let start = c.pos;
        c.pos += 2;
        // The usual case: `</` then exactly the open element's name, then `>`. No name
        // character is `>`, so this is the name the full path below would scan.
        if self.open.len() > base {
            let open = self.open.last().map_or(&[][..], |o| o.name.as_bytes());
            let rest = &c.bytes()[c.pos..];
            if rest.get(open.len()) == Some(&b'>') && rest.starts_with(open) {
                c.pos += open.len() + 1;
                if let Some(open) = self.open.pop() {
                    self.drop_bindings(open.bindings);
                }
                b.end_element(self.span(c, start, c.pos));
                return Ok(c.main && self.open.len() == base);
            }
        }
        let name = self.name(c)?;
        c.skip_ws();
        self.expect(c, b'>', "`>`")?;
        if self.open.len() <= base {
            if c.main {
                return Err(self.error(c, start, ErrorKind::UnexpectedEndTag));
            }
            let entity = self.active.last().map_or(String::new(), |e| e.to_string());
            return Err(self.error(c, start, ErrorKind::UnbalancedEntity(entity)));
        }
        let found = c.str(name.start, name.end);
        let open = self.open.last().map(|o| &*o.name).unwrap_or("");
        if open != found {
            return Err(self.error(
                c,
                start,
                ErrorKind::MismatchedEndTag {
                    expected: open.to_owned(),
                    found: found.to_owned(),
                },
            ));
        }
        if let Some(open) = self.open.pop() {
            self.drop_bindings(open.bindings);
            let _ = open.start;
        }
        b.end_element(self.span(c, start, c.pos));
        Ok(c.main && self.open.len() == base)
    }

    /// A reference in content at `&`.
    fn reference<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cur<'_>,
        b: &mut B,
        _base: usize,
    ) -> Result<()> {
        let start = c.pos;
        if c.peek_at(start + 1) == Some(b'#') {
            let ch = self.char_ref(c)?;
            self.push_char(c, start, ch, c.pos);
            return Ok(());
        }
        c.pos += 1;
        let name = self.name(c)?;
        self.expect(c, b';', "`;`")?;
        let nm = c.str(name.start, name.end);
        if let Some(ch) = predefined(nm) {
            self.push_char(c, start, ch, c.pos);
            return Ok(());
        }
        let reference = self.span(c, start, c.pos);
        match self.general.get(nm).cloned() {
            Some(Entity::Internal { name, text, plain }) => {
                let depth = self.active.len();
                self.enter(c, start, &name, text.len(), depth)?;
                if plain {
                    if !text.is_empty() {
                        self.make_owned(c, start);
                        self.scratch.push_str(&text);
                        self.extend_span(c, c.pos);
                    }
                    return Ok(());
                }
                let mut sub = Cur {
                    s: &text,
                    pos: 0,
                    main: false,
                    reference,
                };
                self.active.push(name);
                let base = self.open.len();
                self.content(&mut sub, b, base)?;
                if self.open.len() != base {
                    return Err(self.error(c, start, ErrorKind::UnbalancedEntity(nm.to_owned())));
                }
                self.active.pop();
                Ok(())
            }
            Some(Entity::External) => {
                self.flush(b);
                b.skipped_entity(nm, reference);
                Ok(())
            }
            Some(Entity::Unparsed) => {
                Err(self.error(c, start, ErrorKind::UnparsedEntityReference(nm.to_owned())))
            }
            None if self.lenient_entities && !self.standalone => {
                self.flush(b);
                b.skipped_entity(nm, reference);
                Ok(())
            }
            None => Err(self.error(c, start, ErrorKind::UndeclaredEntity(nm.to_owned()))),
        }
    }

    // -----------------------------------------------------------------------------
    // The document type declaration.

    fn doctype<B: XmlBuilder<'a>>(&mut self, c: &mut Cur<'_>, b: &mut B) -> Result<()> {
        let start = c.pos;
        c.pos += 9;
        self.require_ws(c)?;
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        let mut ws = c.skip_ws();
        let mut ids = (None, None);
        if c.starts_with(b"SYSTEM") || c.starts_with(b"PUBLIC") {
            if !ws {
                return Err(self.unexpected(c, "white space"));
            }
            ids = self.external_id(c, false)?;
            self.lenient_entities = true;
            c.skip_ws();
            ws = true;
        }
        let _ = ws;
        let mut subset = None;
        if c.peek() == Some(b'[') {
            c.pos += 1;
            let s = c.pos;
            self.internal_subset(c, 0)?;
            subset = Some((s, c.pos));
            c.pos += 1; // `]`
            c.skip_ws();
        }
        self.expect(c, b'>', "`>`")?;
        let doctype = Doctype {
            name: c.str(name.start, name.end),
            public_id: ids.0.map(|(s, e)| c.str(s, e)),
            system_id: ids.1.map(|(s, e)| c.str(s, e)),
            internal_subset: subset.map(|(s, e)| c.str(s, e)),
        };
        b.doctype(&doctype, Span::new(start, c.pos));
        Ok(())
    }

    /// `SYSTEM "sys"` or `PUBLIC "pub" "sys"` (with `public_only`, the system literal
    /// of PUBLIC may be missing, as in notations).
    #[allow(clippy::type_complexity)]
    fn external_id(
        &self,
        c: &mut Cur<'_>,
        public_only: bool,
    ) -> Result<(Option<(usize, usize)>, Option<(usize, usize)>)> {
        if c.starts_with(b"SYSTEM") {
            c.pos += 6;
            self.require_ws(c)?;
            let sys = self.literal(c)?;
            return Ok((None, Some(sys)));
        }
        self.expect_str(c, b"PUBLIC", "`SYSTEM` or `PUBLIC`")?;
        self.require_ws(c)?;
        let public = self.literal(c)?;
        for i in public.0..public.1 {
            let x = c.bytes()[i];
            let ok = x.is_ascii_alphanumeric()
                || matches!(
                    x,
                    b' ' | b'\r'
                        | b'\n'
                        | b'-'
                        | b'\''
                        | b'('
                        | b')'
                        | b'+'
                        | b','
                        | b'.'
                        | b'/'
                        | b':'
                        | b'='
                        | b'?'
                        | b';'
                        | b'!'
                        | b'*'
                        | b'#'
                        | b'@'
                        | b'$'
                        | b'_'
                        | b'%'
                );
            if !ok {
                return Err(self.unexpected_at(c, i, "a public identifier character"));
            }
        }
        let ws = c.skip_ws();
        if public_only && !matches!(c.peek(), Some(b'"' | b'\'')) {
            return Ok((Some(public), None));
        }
        if !ws {
            return Err(self.unexpected(c, "white space"));
        }
        let sys = self.literal(c)?;
        Ok((Some(public), Some(sys)))
    }

    /// A quoted literal; returns the bounds inside the quotes.
    fn literal(&self, c: &mut Cur<'_>) -> Result<(usize, usize)> {
        let quote = match c.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => return Err(self.unexpected(c, "a quote")),
        };
        let start = c.pos + 1;
        let Some(close) = memchr::memchr(quote, &c.bytes()[start..]) else {
            return Err(self.error(c, c.s.len(), ErrorKind::UnexpectedEnd));
        };
        let end = start + close;
        let b = c.bytes();
        for (i, &x) in b.iter().enumerate().take(end).skip(start) {
            if x < 0x20 && !matches!(x, b'\t' | b'\n' | b'\r') {
                return Err(self.error(c, i, ErrorKind::InvalidChar(x as char)));
            }
            if x == 0xEF {
                self.check_ef(c, i)?;
            }
        }
        c.pos = end + 1;
        Ok((start, end))
    }

    /// Declarations until `]` (in the document) or the end of a parameter entity.
    fn internal_subset(&mut self, c: &mut Cur<'_>, depth: usize) -> Result<()> {
        loop {
            c.skip_ws();
            match c.peek() {
                None if c.main => return Err(self.error(c, c.pos, ErrorKind::UnexpectedEnd)),
                None => return Ok(()),
                Some(b']') if c.main => return Ok(()),
                Some(b'%') => self.pe_reference(c, depth)?,
                Some(b'<') => {
                    if c.starts_with(b"<!--") {
                        self.comment(c)?;
                    } else if c.starts_with(b"<?") {
                        self.pi(c)?;
                    } else if c.starts_with(b"<!ELEMENT") {
                        self.element_decl(c)?;
                    } else if c.starts_with(b"<!ATTLIST") {
                        self.attlist_decl(c)?;
                    } else if c.starts_with(b"<!ENTITY") {
                        self.entity_decl(c)?;
                    } else if c.starts_with(b"<!NOTATION") {
                        self.notation_decl(c)?;
                    } else {
                        return Err(self.error(
                            c,
                            c.pos,
                            ErrorKind::InvalidDoctype("unknown markup declaration"),
                        ));
                    }
                }
                Some(_) => return Err(self.unexpected(c, "a markup declaration or `]`")),
            }
        }
    }

    fn pe_reference(&mut self, c: &mut Cur<'_>, depth: usize) -> Result<()> {
        let start = c.pos;
        c.pos += 1;
        let name = self.ncname(c)?;
        self.expect(c, b';', "`;`")?;
        let nm = c.str(name.start, name.end);
        self.lenient_entities = true;
        match self.params.get(nm).cloned() {
            Some(Entity::Internal { name, text, .. }) => {
                self.enter(c, start, &name, text.len(), depth)?;
                let reference = self.span(c, start, c.pos);
                let mut sub = Cur {
                    s: &text,
                    pos: 0,
                    main: false,
                    reference,
                };
                self.active.push(name);
                let r = self.internal_subset(&mut sub, depth + 1);
                self.active.pop();
                r
            }
            _ => {
                if !self.standalone {
                    self.skip_declarations = true;
                }
                Ok(())
            }
        }
    }

    /// Fails on `%` (a parameter-entity reference inside a declaration).
    #[inline]
    fn no_pe(&self, c: &Cur<'_>) -> Result<()> {
        if c.peek() == Some(b'%') {
            return Err(self.error(c, c.pos, ErrorKind::PeReferenceInDeclaration));
        }
        Ok(())
    }

    /// White space inside a declaration (where a PE reference would be an error).
    #[inline]
    fn decl_ws(&self, c: &mut Cur<'_>) -> Result<bool> {
        let ws = c.skip_ws();
        self.no_pe(c)?;
        Ok(ws)
    }

    fn decl_require_ws(&self, c: &mut Cur<'_>) -> Result<()> {
        if !self.decl_ws(c)? {
            return Err(self.unexpected(c, "white space"));
        }
        Ok(())
    }

    fn decl_end(&self, c: &mut Cur<'_>) -> Result<()> {
        self.decl_ws(c)?;
        self.expect(c, b'>', "`>`")
    }

    fn element_decl(&mut self, c: &mut Cur<'_>) -> Result<()> {
        c.pos += 9;
        self.decl_require_ws(c)?;
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        self.decl_require_ws(c)?;
        if c.starts_with(b"EMPTY") {
            c.pos += 5;
        } else if c.starts_with(b"ANY") {
            c.pos += 3;
        } else if c.peek() == Some(b'(') {
            self.content_model(c)?;
        } else {
            return Err(self.unexpected(c, "`EMPTY`, `ANY` or `(`"));
        }
        self.decl_end(c)
    }

    /// `Mixed` or `children`, at `(`, without recursion.
    fn content_model(&mut self, c: &mut Cur<'_>) -> Result<()> {
        c.pos += 1;
        self.decl_ws(c)?;
        if c.starts_with(b"#PCDATA") {
            c.pos += 7;
            self.decl_ws(c)?;
            if c.peek() == Some(b')') {
                c.pos += 1;
                if c.peek() == Some(b'*') {
                    c.pos += 1;
                }
                return Ok(());
            }
            loop {
                self.expect(c, b'|', "`|` or `)`")?;
                self.decl_ws(c)?;
                let name = self.name(c)?;
                if !self.qname_ok(&name) {
                    return Err(self.error(c, name.start, ErrorKind::InvalidName));
                }
                self.decl_ws(c)?;
                if c.starts_with(b")*") {
                    c.pos += 2;
                    return Ok(());
                }
                if c.peek() == Some(b')') {
                    c.pos += 1;
                    return Err(self.unexpected(c, "`*`"));
                }
            }
        }
        // `children`: a stack of open groups, each with its separator once known.
        let mut groups: Vec<Option<u8>> = vec![None];
        'cp: loop {
            self.decl_ws(c)?;
            if c.peek() == Some(b'(') {
                if groups.len() >= self.limits.max_depth {
                    return Err(self.error(
                        c,
                        c.pos,
                        ErrorKind::DepthLimitReached(self.limits.max_depth),
                    ));
                }
                c.pos += 1;
                groups.push(None);
                continue 'cp;
            }
            let name = self.name(c)?;
            if !self.qname_ok(&name) {
                return Err(self.error(c, name.start, ErrorKind::InvalidName));
            }
            if matches!(c.peek(), Some(b'?' | b'*' | b'+')) {
                c.pos += 1;
            }
            loop {
                self.decl_ws(c)?;
                match c.peek() {
                    Some(sep @ (b'|' | b',')) => {
                        let top = groups.last_mut().expect("a group is open");
                        match *top {
                            None => *top = Some(sep),
                            Some(s) if s == sep => {}
                            Some(_) => return Err(self.unexpected(c, "the group's separator")),
                        }
                        c.pos += 1;
                        continue 'cp;
                    }
                    Some(b')') => {
                        c.pos += 1;
                        groups.pop();
                        if matches!(c.peek(), Some(b'?' | b'*' | b'+')) {
                            c.pos += 1;
                        }
                        if groups.is_empty() {
                            return Ok(());
                        }
                    }
                    _ => return Err(self.unexpected(c, "`|`, `,` or `)`")),
                }
            }
        }
    }

    fn attlist_decl(&mut self, c: &mut Cur<'_>) -> Result<()> {
        c.pos += 9;
        self.decl_require_ws(c)?;
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        loop {
            let ws = self.decl_ws(c)?;
            if c.peek() == Some(b'>') {
                c.pos += 1;
                return Ok(());
            }
            if !ws {
                return Err(self.unexpected(c, "white space or `>`"));
            }
            let attr = self.name(c)?;
            if !self.qname_ok(&attr) {
                return Err(self.error(c, attr.start, ErrorKind::InvalidName));
            }
            self.decl_require_ws(c)?;
            // AttType
            const TYPES: [&[u8]; 8] = [
                b"CDATA",
                b"IDREFS",
                b"IDREF",
                b"ID",
                b"ENTITIES",
                b"ENTITY",
                b"NMTOKENS",
                b"NMTOKEN",
            ];
            let tokenized = !c.starts_with(b"CDATA");
            if tokenized && !self.skip_declarations {
                let element = c.str(name.start, name.end);
                let attr = c.str(attr.start, attr.end);
                let names = self.tokenized.entry(element.into()).or_default();
                if !names.iter().any(|n| **n == *attr) {
                    names.push(attr.into());
                }
            }
            if let Some(t) = TYPES.iter().find(|t| c.starts_with(t)) {
                c.pos += t.len();
            } else if c.starts_with(b"NOTATION") {
                c.pos += 8;
                self.decl_require_ws(c)?;
                self.enumeration(c, true)?;
            } else if c.peek() == Some(b'(') {
                self.enumeration(c, false)?;
            } else {
                return Err(self.unexpected(c, "an attribute type"));
            }
            self.decl_require_ws(c)?;
            // DefaultDecl
            if c.starts_with(b"#REQUIRED") {
                c.pos += 9;
            } else if c.starts_with(b"#IMPLIED") {
                c.pos += 8;
            } else {
                if c.starts_with(b"#FIXED") {
                    c.pos += 6;
                    self.decl_require_ws(c)?;
                }
                self.att_value(c)?;
                self.values.clear();
            }
        }
    }

    /// `( a | b | c )` of names (NOTATION) or name tokens.
    fn enumeration(&self, c: &mut Cur<'_>, names: bool) -> Result<()> {
        self.expect(c, b'(', "`(`")?;
        loop {
            self.decl_ws(c)?;
            if names {
                self.ncname(c)?;
            } else {
                self.nmtoken(c)?;
            }
            self.decl_ws(c)?;
            match c.peek() {
                Some(b'|') => c.pos += 1,
                Some(b')') => {
                    c.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected(c, "`|` or `)`")),
            }
        }
    }

    fn entity_decl(&mut self, c: &mut Cur<'_>) -> Result<()> {
        c.pos += 8;
        self.require_ws(c)?;
        let mut parameter = false;
        if c.peek() == Some(b'%') {
            parameter = true;
            c.pos += 1;
            self.decl_require_ws(c)?;
        }
        let name = self.ncname(c)?;
        self.decl_require_ws(c)?;
        let entity = if matches!(c.peek(), Some(b'"' | b'\'')) {
            let text = self.entity_value(c)?;
            let plain = !text.contains(['<', '&', '\r']);
            let nm = c.str(name.start, name.end);
            Entity::Internal {
                // Parameter entities are kept as `%name` on the stack of active ones.
                name: if parameter {
                    Rc::from(format!("%{nm}"))
                } else {
                    Rc::from(nm)
                },
                text: Rc::from(text),
                plain,
            }
        } else {
            self.external_id(c, false)?;
            let ws = self.decl_ws(c)?;
            if !parameter && c.starts_with(b"NDATA") {
                if !ws {
                    return Err(self.unexpected(c, "white space"));
                }
                c.pos += 5;
                self.decl_require_ws(c)?;
                self.ncname(c)?;
                Entity::Unparsed
            } else {
                Entity::External
            }
        };
        self.decl_end(c)?;
        if self.skip_declarations {
            return Ok(());
        }
        let nm: Box<str> = c.str(name.start, name.end).into();
        let table = if parameter {
            &mut self.params
        } else {
            &mut self.general
        };
        table.entry(nm).or_insert(entity);
        Ok(())
    }

    /// An `EntityValue` literal: its replacement text (character references decoded,
    /// general entity references kept, line ends normalized).
    fn entity_value(&mut self, c: &mut Cur<'_>) -> Result<String> {
        let quote = c.peek().unwrap_or(b'"');
        c.pos += 1;
        let mut out = String::new();
        let b = c.bytes();
        loop {
            let start = c.pos;
            let mut i = start;
            while i < b.len()
                && !matches!(b[i], b'%' | b'&' | b'\r' | 0xEF)
                && b[i] != quote
                && (b[i] >= 0x20 || b[i] == b'\t' || b[i] == b'\n')
            {
                i += 1;
            }
            out.push_str(c.str(start, i));
            c.pos = i;
            let Some(&x) = b.get(i) else {
                return Err(self.error(c, i, ErrorKind::UnexpectedEnd));
            };
            match x {
                _ if x == quote => {
                    c.pos += 1;
                    return Ok(out);
                }
                b'%' => return Err(self.error(c, i, ErrorKind::PeReferenceInDeclaration)),
                b'&' if c.peek_at(i + 1) == Some(b'#') => {
                    let ch = self.char_ref(c)?;
                    out.push(ch);
                }
                b'&' => {
                    c.pos += 1;
                    let name = self.name(c)?;
                    self.expect(c, b';', "`;`")?;
                    out.push_str(c.str(i, c.pos));
                    let _ = name;
                }
                b'\r' => {
                    c.pos += 1;
                    if c.main && c.peek() == Some(b'\n') {
                        c.pos += 1;
                    }
                    out.push(if c.main { '\n' } else { '\r' });
                }
                0xEF => {
                    self.check_ef(c, i)?;
                    let ch = c.char_at(i).unwrap_or('\u{FFFD}');
                    out.push(ch);
                    c.pos += ch.len_utf8();
                }
                _ => return Err(self.error(c, i, ErrorKind::InvalidChar(x as char))),
            }
        }
    }

    fn notation_decl(&mut self, c: &mut Cur<'_>) -> Result<()> {
        c.pos += 10;
        self.decl_require_ws(c)?;
        self.ncname(c)?;
        self.decl_require_ws(c)?;
        self.external_id(c, true)?;
        self.decl_end(c)
    }
}

/// A prefix's length and first seven bytes in one word: equal keys mean equal
/// prefixes when the prefix is at most seven bytes long.
#[inline]
fn prefix_key(prefix: &str) -> u64 {
    let b = prefix.as_bytes();
    let mut word = [0u8; 8];
    let n = b.len().min(7);
    word[..n].copy_from_slice(&b[..n]);
    word[7] = b.len().min(255) as u8;
    u64::from_le_bytes(word)
}

/// A bit (0..64) for a name, from its length, first and last byte.
#[inline]
fn name_bit(name: &str) -> u32 {
    let b = name.as_bytes();
    let h = b.len() as u32 * 7
        + u32::from(*b.first().unwrap_or(&0)) * 3
        + u32::from(*b.last().unwrap_or(&0));
    h & 63
}

/// A cheap test that two names may be equal (length, first and last byte) before
/// comparing them.
#[inline]
fn may_equal(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.first() == b.first() && a.last() == b.last()
}

/// The five predefined entities.
#[inline]
fn predefined(name: &str) -> Option<char> {
    Some(match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => return None,
    })
}

/// Appends `s` with `\r\n` and lone `\r` turned into `\n`.
fn normalize_line_ends(s: &str, out: &mut String) {
    let mut rest = s;
    while let Some(i) = rest.find('\r') {
        out.push_str(&rest[..i]);
        out.push('\n');
        rest = &rest[i + 1..];
        if rest.starts_with('\n') {
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
}

/// Forwards events from a parse of transcoded text, copying everything it borrows.
struct Owning<'b, B> {
    inner: &'b mut B,
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
