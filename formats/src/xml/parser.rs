//! The one XML parser, generic over [`XmlBuilder`].
//!
//! Phases, in one pass over the text: the encoding is sniffed (byte order mark, or the
//! XML declaration's `encoding`) and anything but UTF-8 transcoded to UTF-8 first
//! (`encoding.rs`); then the prolog (declaration, comments, PIs, the DOCTYPE with its internal
//! subset), the root element's content with an explicit stack of open elements (no
//! recursion on nesting), and the epilogue. Internal entities are expanded by parsing
//! their replacement text as content, with recursion detection and a byte budget;
//! external entities are never opened.
//!
//! Scanning uses byte-class tables built by `const fn`: text runs, attribute values
//! and names take a straight loop over bytes that need no attention; anything rare
//! (references, `\r`, non-ASCII names, errors) leaves the loop.
//!
//! Each step quotes its productions from XML 1.0 (Fifth Edition) and Namespaces in
//! XML 1.0 (Third Edition), numbered as there.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::common::{keep_spare, same_bytes, take_spare, Limits, Span};

use super::builder::{
    Declaration, Doctype, NamespaceBinding, RawAttribute, StartTag, TextRef, Value, XmlBuilder,
    NS_XML, NS_XMLNS, XMLNS_NAMESPACE, XML_NAMESPACE,
};
use super::chars::*;
use super::encoding::{decode_input, Encoding, Input, Owning};
use super::error::{Error, ErrorKind};

mod dtd;
mod namespaces;

type Result<T> = std::result::Result<T, Error>;

/// How deep entity references may nest while one is expanded.
const MAX_ENTITY_DEPTH: usize = 64;

/// Parses `input` (UTF-8, UTF-16 or ISO-8859-1, by byte order mark or declaration) with
/// `builder`, under `options`: [`Limits`] (every other option at its default) or
/// [`Options`] (limits, and whether to process namespaces).
///
/// UTF-8 input is parsed in place, so the builder gets borrowed text. Other encodings
/// are transcoded to UTF-8 first; the builder then gets owned text only, and spans and
/// error positions refer to the transcoded text.
pub fn parse_with<'a, B: XmlBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    options: impl Into<Options>,
) -> Result<()> {
    let options = options.into();
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

impl From<Limits> for Options {
    /// The default options with `limits`.
    fn from(limits: Limits) -> Self {
        Options::default().with_limits(limits)
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

// ---------------------------------------------------------------------------------
// The cursor over the document or an entity's replacement text.

struct Cursor<'b> {
    s: &'b str,
    pos: usize,
    /// Reading the document itself (not an entity's replacement text): offsets are
    /// document offsets, text can be borrowed, and line ends are normalized.
    main: bool,
    /// The entity reference being expanded (when not `main`).
    reference: Span,
}

impl<'b> Cursor<'b> {
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
    // [3] S ::= (#x20 | #x9 | #xD | #xA)+
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

/// A run of checked text: a slice of the cursor's text, or normalized into
/// `markup_text`.
enum Run {
    Slice(usize, usize),
    Scratch,
}

/// What an `<!ATTLIST>` declares about one attribute of an element.
#[derive(Debug)]
struct AttDecl {
    name: Box<str>,
    /// Declared with a type other than CDATA: its values are normalized further.
    tokenized: bool,
    /// The declared default (`#FIXED` or not), already normalized; `None` for
    /// `#REQUIRED` and `#IMPLIED`.
    default: Option<Box<str>>,
}

/// A tokenized attribute value as XML 1.0 §3.3.3 normalizes it: the tokens, one space
/// apart.
fn normalize_tokens(value: &str) -> String {
    value
        .split(' ')
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
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
    // Namespaces in XML 1.0:
    // [7] QName ::= PrefixedName | UnprefixedName
    // [8] PrefixedName ::= Prefix ':' LocalPart
    // [9] UnprefixedName ::= LocalPart
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
    /// The attribute-list declarations of the internal subset, by element name: the
    /// first declaration of each attribute (later ones are ignored, XML 1.0 §3.3).
    attlists: HashMap<Box<str>, Vec<AttDecl>>,
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
    /// Character data decoded for the builder (references, line ends), while it waits
    /// in `pending`.
    char_data: String,
    /// The text of a comment, PI or CDATA section with its line ends normalized.
    markup_text: String,
}

thread_local! {
    /// The open-element stack of the last parser this thread dropped, emptied, for the
    /// next document (see [`take_spare`]).
    static SPARE_OPEN: Cell<Vec<Open<'static>>> = const { Cell::new(Vec::new()) };
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        keep_spare(&SPARE_OPEN, std::mem::take(&mut self.open));
    }
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
            attlists: HashMap::new(),
            expanded: 0,
            active: Vec::new(),
            open: take_spare(&SPARE_OPEN),
            bindings: Vec::new(),
            binding_keys: Vec::new(),
            epoch: 1,
            prefix_cache: Default::default(),
            attrs: Vec::new(),
            pending: Pending::None,
            text_span: Span::default(),
            char_data: String::new(),
            markup_text: String::new(),
            values: String::new(),
        }
    }

    #[cold]
    #[inline(never)]
    fn error(&self, c: &Cursor<'_>, at: usize, kind: ErrorKind) -> Error {
        let offset = if c.main { at } else { c.reference.start };
        Error::new(kind, self.src.as_bytes(), offset)
    }

    #[cold]
    #[inline(never)]
    fn unexpected(&self, c: &Cursor<'_>, expected: &'static str) -> Error {
        match c.char_at(c.pos) {
            None => self.error(c, c.pos, ErrorKind::UnexpectedEnd),
            Some(found) => self.error(c, c.pos, ErrorKind::UnexpectedCharacter { expected, found }),
        }
    }

    #[inline]
    fn expect(&self, c: &mut Cursor<'_>, byte: u8, expected: &'static str) -> Result<()> {
        if c.peek() == Some(byte) {
            c.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(c, expected))
        }
    }

    #[inline]
    fn expect_str(&self, c: &mut Cursor<'_>, s: &[u8], expected: &'static str) -> Result<()> {
        if c.starts_with(s) {
            c.pos += s.len();
            Ok(())
        } else {
            Err(self.unexpected(c, expected))
        }
    }

    #[inline]
    fn require_ws(&self, c: &mut Cursor<'_>) -> Result<()> {
        if c.skip_ws() {
            Ok(())
        } else {
            Err(self.unexpected(c, "white space"))
        }
    }

    /// The span of `start..end` of the cursor's text, in document offsets.
    #[inline]
    fn span(&self, c: &Cursor<'_>, start: usize, end: usize) -> Span {
        if c.main {
            Span::new(start, end)
        } else {
            c.reference
        }
    }

    /// `start..end` of the cursor's text, borrowed from the document when possible.
    #[inline(always)]
    fn cow(&self, c: &Cursor<'_>, start: usize, end: usize) -> Cow<'a, str> {
        if c.main {
            Cow::Borrowed(self.src.get(start..end).unwrap_or(""))
        } else {
            Cow::Owned(c.str(start, end).to_owned())
        }
    }

    #[inline]
    fn run_text<'s>(&'s self, c: &Cursor<'s>, run: &Run) -> TextRef<'a, 's> {
        match *run {
            Run::Slice(s, e) if c.main => TextRef::Borrowed(self.src.get(s..e).unwrap_or("")),
            Run::Slice(s, e) => TextRef::Decoded(c.str(s, e)),
            Run::Scratch => TextRef::Decoded(&self.markup_text),
        }
    }

    // -----------------------------------------------------------------------------
    // Names.

    // [5] Name ::= NameStartChar (NameChar)*
    /// Scans a `Name` at the cursor. The usual name, ASCII without a colon, is read
    /// here; any other goes to [`Parser::any_name`], which reads it again from the start.
    #[inline(always)]
    fn name(&self, c: &mut Cursor<'_>) -> Result<NameInfo> {
        let b = c.bytes();
        let start = c.pos;
        if let Some(&x) = b.get(start) {
            if x != b':' && x < 0x80 && NAME_START[x as usize] {
                let mut i = start + 1;
                while i < b.len() && NAME_PLAIN[b[i] as usize] {
                    i += 1;
                }
                if !matches!(b.get(i), Some(&y) if y == b':' || y >= 0x80) {
                    c.pos = i;
                    return Ok(NameInfo {
                        start,
                        end: i,
                        colon: None,
                        colons: 0,
                    });
                }
            }
        }
        self.any_name(c)
    }

    /// [`Parser::name`] for every name: prefixed, non-ASCII or malformed.
    #[inline(never)]
    fn any_name(&self, c: &mut Cursor<'_>) -> Result<NameInfo> {
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
    fn unexpected_at(&self, c: &Cursor<'_>, at: usize, expected: &'static str) -> Error {
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

    // Namespaces in XML 1.0: [4] NCName ::= Name - (Char* ':' Char*)
    /// A name that must not contain a colon with namespaces (entity names, PI
    /// targets, notations).
    fn ncname(&self, c: &mut Cursor<'_>) -> Result<NameInfo> {
        let name = self.name(c)?;
        if self.namespaces && name.colon.is_some() {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        Ok(name)
    }

    // [7] Nmtoken ::= (NameChar)+
    /// `Nmtoken`: one or more name characters.
    fn nmtoken(&self, c: &mut Cursor<'_>) -> Result<()> {
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

    /// Checks the characters of `start..end` and normalizes line ends into `markup_text`
    /// when there is a `\r` in the document text.
    fn checked_run(&mut self, c: &Cursor<'_>, start: usize, end: usize) -> Result<Run> {
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
            self.markup_text.clear();
            normalize_line_ends(c.str(start, end), &mut self.markup_text);
            Ok(Run::Scratch)
        } else {
            Ok(Run::Slice(start, end))
        }
    }

    /// Rejects U+FFFE and U+FFFF (`EF BF BE`, `EF BF BF`).
    #[inline]
    fn check_ef(&self, c: &Cursor<'_>, i: usize) -> Result<()> {
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

    // [15] Comment ::= '<!--' ((Char - '-') | ('-' (Char - '-')))* '-->'
    /// `<!--` ... `-->`: returns the content run.
    fn comment(&mut self, c: &mut Cursor<'_>) -> Result<(Run, usize)> {
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

    // [16] PI ::= '<?' PITarget (S (Char* - (Char* '?>' Char*)))? '?>'
    // [17] PITarget ::= Name - (('X' | 'x') ('M' | 'm') ('L' | 'l'))
    /// `<?target data?>`: returns the target's bounds and the data run.
    fn pi(&mut self, c: &mut Cursor<'_>) -> Result<(NameInfo, Run)> {
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

    fn emit_comment<B: XmlBuilder<'a>>(&mut self, c: &mut Cursor<'_>, b: &mut B) -> Result<()> {
        let start = c.pos;
        let (run, _) = self.comment(c)?;
        let span = self.span(c, start, c.pos);
        b.comment(self.run_text(c, &run), span);
        Ok(())
    }

    fn emit_pi<B: XmlBuilder<'a>>(&mut self, c: &mut Cursor<'_>, b: &mut B) -> Result<()> {
        let start = c.pos;
        let (target, run) = self.pi(c)?;
        let span = self.span(c, start, c.pos);
        let target = self.run_text(c, &Run::Slice(target.start, target.end));
        b.processing_instruction(target, self.run_text(c, &run), span);
        Ok(())
    }

    // -----------------------------------------------------------------------------
    // The document.

    // [1] document ::= prolog element Misc*
    // [22] prolog ::= XMLDecl? Misc* (doctypedecl Misc*)?
    // [27] Misc ::= Comment | PI | S
    pub(crate) fn document<B: XmlBuilder<'a>>(&mut self, b: &mut B) -> Result<()> {
        let src = self.src;
        b.source(src);
        let mut c = Cursor {
            s: src,
            pos: 0,
            main: true,
            reference: Span::default(),
        };
        if c.starts_with(b"<?xml") && c.peek_at(5).is_some_and(is_ws) {
            self.xml_declaration(&mut c, b)?;
        } else if self.encoding == Encoding::Declared {
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

    // [23] XMLDecl ::= '<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>'
    // [24] VersionInfo ::= S 'version' Eq ("'" VersionNum "'" | '"' VersionNum '"')
    // [26] VersionNum ::= '1.' [0-9]+
    // [80] EncodingDecl ::= S 'encoding' Eq ('"' EncName '"' | "'" EncName "'" )
    // [81] EncName ::= [A-Za-z] ([A-Za-z0-9._] | '-')*
    // [32] SDDecl ::= S 'standalone' Eq (("'" ('yes' | 'no') "'") | ('"' ('yes' | 'no') '"'))
    fn xml_declaration<B: XmlBuilder<'a>>(&mut self, c: &mut Cursor<'_>, b: &mut B) -> Result<()> {
        let invalid = |p: &Self, c: &Cursor<'_>| p.error(c, c.pos, ErrorKind::InvalidDeclaration);
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
        } else if self.encoding == Encoding::Declared {
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

    // [25] Eq ::= S? '=' S?
    /// `Eq` and a quoted value in the XML declaration; returns the value's bounds.
    fn decl_value(&self, c: &mut Cursor<'_>) -> Result<(usize, usize)> {
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

    // [40] STag ::= '<' Name (S Attribute)* S? '>'
    // [44] EmptyElemTag ::= '<' Name (S Attribute)* S? '/>'
    /// Parses a start tag at `<`; reports it, and its end too when it is empty.
    /// Returns true for an empty-element tag.
    fn start_tag<B: XmlBuilder<'a>>(&mut self, c: &mut Cursor<'_>, b: &mut B) -> Result<bool> {
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
        if !self.attlists.is_empty() {
            self.apply_attlist(c, &name)?;
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

    /// Applies what the internal subset declares about the attributes of element
    /// `name`: values of tokenized or enumerated types are normalized further (XML 1.0
    /// §3.3.3: no leading or trailing spaces, single spaces), and declared defaults
    /// (`#FIXED` or not) are added for attributes the tag omits (§3.3.2), marked as not
    /// specified, with an empty span at the end of the element's name.
    #[cold]
    fn apply_attlist(&mut self, c: &Cursor<'_>, name: &NameInfo) -> Result<()> {
        let at = self.span(c, name.end, name.end);
        let Some(decls) = self.attlists.get(c.str(name.start, name.end)) else {
            return Ok(());
        };
        let (attrs, values) = (&mut self.attrs, &mut self.values);
        for attr in attrs.iter_mut() {
            let Some(decl) = decls.iter().find(|d| *d.name == *attr.name) else {
                continue;
            };
            let v = attr.value.as_str(values);
            if !decl.tokenized || !(v.starts_with(' ') || v.ends_with(' ') || v.contains("  ")) {
                continue;
            }
            let normalized = normalize_tokens(v);
            let start = values.len();
            values.push_str(&normalized);
            attr.value = Value::Decoded(start, values.len());
        }
        let mut over_limit = false;
        for decl in decls {
            let Some(default) = &decl.default else {
                continue;
            };
            if attrs.iter().any(|a| *a.name == *decl.name) {
                continue;
            }
            if attrs.len() >= self.limits.max_attributes {
                over_limit = true;
                break;
            }
            let start = values.len();
            values.push_str(default);
            let prefix_len = match decl.name.find(':') {
                Some(colon) if self.namespaces => colon,
                _ => 0,
            };
            attrs.push(RawAttribute {
                name: Cow::Owned(decl.name.to_string()),
                prefix_len,
                value: Value::Decoded(start, values.len()),
                span: at,
                value_span: at,
                ns: 0,
                specified: false,
            });
        }
        if over_limit {
            let limit = self.limits.max_attributes;
            return Err(self.error(c, name.start, ErrorKind::AttributeLimitReached(limit)));
        }
        Ok(())
    }

    // [41] Attribute ::= Name Eq AttValue
    /// One attribute, pushed on `self.attrs`.
    fn attribute(&mut self, c: &mut Cursor<'_>) -> Result<()> {
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
            specified: true,
        };
        self.attrs.push(attr);
        Ok(())
    }

    // [10] AttValue ::= '"' ([^<&"] | Reference)* '"' | "'" ([^<&'] | Reference)* "'"
    /// An attribute value at its opening quote, normalized (§3.3.3, as CDATA).
    fn att_value(&mut self, c: &mut Cursor<'_>) -> Result<Value<'a>> {
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
        c: &mut Cursor<'_>,
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
                            let mut sub = Cursor {
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
        c: &Cursor<'_>,
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

    // [66] CharRef ::= '&#' [0-9]+ ';' | '&#x' [0-9a-fA-F]+ ';'
    /// `&#...;` at the cursor: the character, checked against `Char`.
    fn char_ref(&self, c: &mut Cursor<'_>) -> Result<char> {
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

    /// Adds the source text `start..end` to the pending character data.
    #[inline(always)]
    fn push_slice(&mut self, c: &Cursor<'_>, start: usize, end: usize) {
        if start != end {
            self.push_run(c, start, end);
        }
    }

    /// [`Parser::push_slice`] of a run that is not empty.
    #[inline]
    fn push_run(&mut self, c: &Cursor<'_>, start: usize, end: usize) {
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
        self.char_data.push_str(c.str(start, end));
        self.extend_span(c, end);
    }

    #[inline]
    fn extend_span(&mut self, c: &Cursor<'_>, end: usize) {
        self.text_span.end = if c.main {
            end
        } else {
            c.reference.end.max(self.text_span.end)
        };
    }

    /// Moves pending text into `char_data`, ready for decoded pieces.
    fn make_owned(&mut self, c: &Cursor<'_>, at: usize) {
        match self.pending {
            Pending::Owned => {}
            Pending::None => {
                self.char_data.clear();
                self.text_span = self.span(c, at, at);
                self.pending = Pending::Owned;
            }
            Pending::Borrowed(s, e) => {
                self.char_data.clear();
                self.char_data.push_str(self.src.get(s..e).unwrap_or(""));
                self.pending = Pending::Owned;
            }
        }
    }

    #[inline]
    fn push_char(&mut self, c: &Cursor<'_>, at: usize, ch: char, end: usize) {
        self.make_owned(c, at);
        self.char_data.push(ch);
        self.extend_span(c, end);
    }

    #[inline]
    fn flush<B: XmlBuilder<'a>>(&mut self, b: &mut B) {
        match self.pending {
            Pending::None => return,
            Pending::Borrowed(s, e) => b.text(
                TextRef::Borrowed(self.src.get(s..e).unwrap_or("")),
                self.text_span,
            ),
            Pending::Owned => b.text(TextRef::Decoded(&self.char_data), self.text_span),
        }
        self.pending = Pending::None;
    }

    // [43] content ::= CharData? ((element | Reference | CDSect | PI | Comment) CharData?)*
    // [14] CharData ::= [^<&]* - ([^<&]* ']]>' [^<&]*)
    /// Content until the element open at `base` closes (in the document), or to the end
    /// of an entity's replacement text.
    fn content<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cursor<'_>,
        b: &mut B,
        base: usize,
    ) -> Result<()> {
        let bytes = c.bytes();
        loop {
            let start = c.pos;
            // Markup right after markup (no text between tags) needs no scan.
            let i = if bytes.get(start) == Some(&b'<') {
                start
            } else {
                scan_text(bytes, start)
            };
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

    // [39] element ::= EmptyElemTag | STag content ETag
    // [18] CDSect ::= CDStart CData CDEnd
    // [19] CDStart ::= '<![CDATA['
    // [20] CData ::= (Char* - (Char* ']]>' Char*))
    // [21] CDEnd ::= ']]>'
    /// Markup in content at `<`. Returns true when the element open at `base` (the
    /// root, in the document) has closed.
    fn markup<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cursor<'_>,
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

    // [42] ETag ::= '</' Name S? '>'
    fn end_tag<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cursor<'_>,
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
            if rest.get(open.len()) == Some(&b'>') && same_bytes(&rest[..open.len()], open) {
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

    // [67] Reference ::= EntityRef | CharRef
    // [68] EntityRef ::= '&' Name ';'
    /// A reference in content at `&`.
    fn reference<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cursor<'_>,
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
                        self.char_data.push_str(&text);
                        self.extend_span(c, c.pos);
                    }
                    return Ok(());
                }
                let mut sub = Cursor {
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
