//! The YAML scanner: characters to tokens, one pass, on demand.
//!
//! Modelled on libyaml's design: the parser pulls tokens one at a time; a short
//! queue exists only because a mapping key is known to be one when its `:` is
//! seen, so a `KEY` token (and a `BLOCK-MAPPING-START`) is inserted before the
//! tokens of the key. An implicit key is at most one line and 1024 characters, so
//! the queue stays small. Scalars borrow from the input unless folding or escapes
//! changed them.
//!
//! Each step quotes the productions it reads from YAML 1.2.2, numbered as there.

use std::borrow::Cow;

use crate::common::{same_bytes, skip_spaces, Span};

use super::builder::ScalarStyle;
use super::{Error, ErrorKind};

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenKind<'a> {
    StreamStart,
    StreamEnd,
    VersionDirective(u32, u32),
    TagDirective(Box<(&'a str, Cow<'a, str>)>),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(&'a str),
    Anchor(&'a str),
    /// Handle (`""` for verbatim and non-specific tags) and suffix.
    Tag(Box<(&'a str, Cow<'a, str>)>),
    Scalar(Cow<'a, str>, ScalarStyle),
    /// A block mapping's implicit key followed by its `:` on the same line: what would
    /// be `KEY`, `SCALAR`, `VALUE`, in one token (the common `key: value` line).
    KeyScalar(Cow<'a, str>, ScalarStyle),
}

impl TokenKind<'_> {
    /// A phrase for error messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            TokenKind::StreamStart => "the start of the stream",
            TokenKind::StreamEnd => "the end of the stream",
            TokenKind::VersionDirective(..) => "a `%YAML` directive",
            TokenKind::TagDirective(..) => "a `%TAG` directive",
            TokenKind::DocumentStart => "`---`",
            TokenKind::DocumentEnd => "`...`",
            TokenKind::BlockSequenceStart => "a block sequence",
            TokenKind::BlockMappingStart => "a block mapping",
            TokenKind::BlockEnd => "the end of a block collection",
            TokenKind::FlowSequenceStart => "`[`",
            TokenKind::FlowSequenceEnd => "`]`",
            TokenKind::FlowMappingStart => "`{`",
            TokenKind::FlowMappingEnd => "`}`",
            TokenKind::BlockEntry => "`-`",
            TokenKind::FlowEntry => "`,`",
            TokenKind::Key => "`?`",
            TokenKind::Value => "`:`",
            TokenKind::Alias(_) => "an alias",
            TokenKind::Anchor(_) => "an anchor",
            TokenKind::Tag(..) => "a tag",
            TokenKind::Scalar(..) => "a scalar",
            TokenKind::KeyScalar(..) => "a mapping key",
        }
    }
}

/// A token and the bytes it covers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token<'a> {
    pub kind: TokenKind<'a>,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Copy, Default)]
struct SimpleKey {
    possible: bool,
    required: bool,
    token_number: usize,
    pos: usize,
    line: usize,
    col: usize,
    /// A tab separated the key from the token before it on its line.
    tab_before: bool,
}

/// Bytes that end a run of plain scalar characters in block context.
const PLAIN_STOP_BLOCK: [bool; 256] = plain_stop(false);
/// Bytes that end a run of plain scalar characters in flow context.
const PLAIN_STOP_FLOW: [bool; 256] = plain_stop(true);

// [130] ns-plain-char(c) ::= ( ns-plain-safe(c) - c-mapping-value - c-comment )
//                        | ( [ lookbehind = ns-char ] c-comment )
//                        | ( c-mapping-value [ lookahead = ns-plain-safe(c) ] )
// [128] ns-plain-safe-out ::= ns-char
// [129] ns-plain-safe-in ::= ns-char - c-flow-indicator
const fn plain_stop(flow: bool) -> [bool; 256] {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[b':' as usize] = true;
    t[0] = true;
    if flow {
        t[b',' as usize] = true;
        t[b'[' as usize] = true;
        t[b']' as usize] = true;
        t[b'{' as usize] = true;
        t[b'}' as usize] = true;
    }
    t
}

/// Bytes of double-quoted text that need attention.
const DOUBLE_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

// [126] ns-plain-first(c) ::= ( ns-char - c-indicator )
//                         | ( ( c-mapping-key | c-mapping-value | c-sequence-entry )
//                             [ lookahead = ns-plain-safe(c) ] )
/// Whether a plain scalar starting `c`, `next` can be fetched right after the indicator
/// before it (`- ` or a key's `: `): no indicator, comment, quote, tag, anchor, white
/// space or non-ASCII byte, so the next fetch would go straight to the plain scalar.
#[inline(always)]
fn starts_plain_at_once(c: u8, next: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'_' | b'.' | b'/' | b'(' | b'$' | b'~' | b'+' | b'=' | b';' | b'^'
        )
        || (c == b'-' && next.is_ascii_digit())
}

#[inline]
// [33] s-white ::= s-space | s-tab
fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

#[inline]
// [26] b-char ::= b-line-feed | b-carriage-return
fn is_break(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

#[inline]
// [23] c-flow-indicator ::= c-collect-entry | c-sequence-start | c-sequence-end
//                         | c-mapping-start | c-mapping-end
fn is_flow_indicator(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}')
}

#[inline]
// [38] ns-word-char ::= ns-dec-digit | ns-ascii-letter | '-'
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-'
}

#[inline]
// [39] ns-uri-char ::= ( '%' ns-hex-digit{2} ) | ns-word-char | '#' | ';' | '/' | '?' | ':'
//                    | '@' | '&' | '=' | '+' | '$' | ',' | '_' | '.' | '!' | '~' | '*'
//                    | "'" | '(' | ')' | '[' | ']'
// (a byte at a time: `%` alone, its digits checked by `decode_uri`; non-ASCII bytes too)
fn is_uri_char(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'-' | b'#'
                | b';'
                | b'/'
                | b'?'
                | b':'
                | b'@'
                | b'&'
                | b'='
                | b'+'
                | b'$'
                | b','
                | b'_'
                | b'.'
                | b'!'
                | b'~'
                | b'*'
                | b'\''
                | b'('
                | b')'
                | b'['
                | b']'
                | b'%'
        )
        || c >= 0x80
}

/// Where the scanner stands on its line: what an in-place read puts back when it
/// leaves a token to the queue after all.
#[derive(Clone, Copy)]
struct LineState {
    pos: usize,
    line: usize,
    line_start: usize,
    simple_key_allowed: bool,
    tab_in_indentation: bool,
}

/// A block mapping's key read in place (see [`Scanner::block_key_in_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyInPlace {
    /// The key's span.
    pub start: usize,
    pub end: usize,
    /// Where its `:` is.
    pub colon: usize,
    /// The key is the one the reader guessed (it was not scanned).
    pub guessed: bool,
}

/// What the parser's in-place reads found (see [`Scanner::value_in_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InPlace {
    /// A scalar: its span (quotes included) and style.
    Scalar(usize, usize, ScalarStyle),
    /// A block mapping starts at this offset; its first key is read next.
    Mapping(usize),
    /// A block sequence starts at this offset, at its first `-`.
    Sequence(usize),
}

/// How many items the scanner's and the parser's stacks (and the token queue) have
/// room for from the start: a document eight levels deep or less never grows them.
pub(super) const INITIAL_ROOM: usize = 8;

/// The tokens scanned and not yet consumed, in order.
///
/// Slots `head..tail` of a `Vec` that only grows: consuming a token moves `head`, and
/// a token is written into a slot left by an earlier one. So the parser reads a
/// token's fields in place and the scanner writes them in place; moving whole tokens
/// through the stack costs a store-forwarding stall per token.
#[derive(Debug, Default)]
struct TokenQueue<'a> {
    items: Vec<Token<'a>>,
    head: usize,
    tail: usize,
}

impl<'a> TokenQueue<'a> {
    #[inline]
    fn len(&self) -> usize {
        self.tail - self.head
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.tail == self.head
    }

    #[inline]
    fn front(&self) -> Option<&Token<'a>> {
        if self.is_empty() {
            return None;
        }
        self.items.get(self.head)
    }

    #[inline]
    fn front_mut(&mut self) -> Option<&mut Token<'a>> {
        if self.is_empty() {
            return None;
        }
        self.items.get_mut(self.head)
    }

    #[inline(always)]
    fn push_back(&mut self, token: Token<'a>) {
        match self.items.get_mut(self.tail) {
            // Field by field: a token without content is then a one-byte store.
            Some(slot) => {
                slot.start = token.start;
                slot.end = token.end;
                replace_kind(&mut slot.kind, token.kind);
            }
            None => self.items.push(token),
        }
        self.tail += 1;
    }

    /// Queues a plain scalar (`key`: one followed by its `:`) whose text is `text`,
    /// writing its fields into a free slot one by one (a whole token built first and
    /// then copied in would be read back before its stores land).
    #[inline]
    fn push_plain(&mut self, key: bool, text: &'a str, start: usize, end: usize) {
        self.push_borrowed(key, text, ScalarStyle::Plain, start, end);
    }

    /// Queues a scalar in `style` (`key`: one followed by its `:`) whose text `text`
    /// is a slice of the input, writing its fields into a free slot one by one.
    #[inline(always)]
    fn push_borrowed(
        &mut self,
        key: bool,
        text: &'a str,
        scalar_style: ScalarStyle,
        start: usize,
        end: usize,
    ) {
        let Some(slot) = self.items.get_mut(self.tail) else {
            let kind = if key {
                TokenKind::KeyScalar(Cow::Borrowed(text), scalar_style)
            } else {
                TokenKind::Scalar(Cow::Borrowed(text), scalar_style)
            };
            self.items.push(Token { kind, start, end });
            self.tail += 1;
            return;
        };
        slot.start = start;
        slot.end = end;
        match &mut slot.kind {
            TokenKind::Scalar(value, style) if !key => {
                *value = Cow::Borrowed(text);
                *style = scalar_style;
            }
            TokenKind::KeyScalar(value, style) if key => {
                *value = Cow::Borrowed(text);
                *style = scalar_style;
            }
            kind if key => replace_kind(
                kind,
                TokenKind::KeyScalar(Cow::Borrowed(text), scalar_style),
            ),
            kind => replace_kind(kind, TokenKind::Scalar(Cow::Borrowed(text), scalar_style)),
        }
        self.tail += 1;
    }

    /// Puts `token` at position `n` from the front.
    fn insert(&mut self, n: usize, token: Token<'a>) {
        self.push_back(token);
        self.items[self.head + n..self.tail].rotate_right(1);
    }

    #[inline]
    fn push_front(&mut self, token: Token<'a>) {
        self.insert(0, token);
    }

    /// Consumes the front token, leaving it in its slot (what the caller needed of it
    /// was read); it is dropped when the slot is written again.
    #[inline]
    fn advance(&mut self) {
        self.head += 1;
        if self.head == self.tail {
            self.head = 0;
            self.tail = 0;
        }
    }

    /// Moves the front token out.
    #[inline]
    fn pop_front(&mut self) -> Option<Token<'a>> {
        let slot = self.front_mut()?;
        let token = std::mem::replace(
            slot,
            Token {
                kind: TokenKind::StreamEnd,
                start: 0,
                end: 0,
            },
        );
        self.advance();
        Some(token)
    }
}

/// The end of the run of plain scalar characters at `p` (the first byte `table` stops
/// at, or the end).
#[inline]
fn skip_plain_run(b: &[u8], mut p: usize, table: &[bool; 256]) -> usize {
    while p < b.len() && !table[b[p] as usize] {
        p += 1;
    }
    p
}

/// [`skip_plain_run`] in block context, eight bytes at a time: a word is searched for
/// bytes up to 0x20 and for `:` at once, and only a candidate is checked in the table
/// (a control character other than white space is no stop).
#[inline]
fn skip_plain_run_block(b: &[u8], mut p: usize) -> usize {
    while let Some(chunk) = b.get(p..p + 8) {
        let found = plain_stop_flags(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if found == 0 {
            p += 8;
            continue;
        }
        p += (found.trailing_zeros() / 8) as usize;
        if PLAIN_STOP_BLOCK[b[p] as usize] {
            return p;
        }
        p += 1;
    }
    skip_plain_run(b, p, &PLAIN_STOP_BLOCK)
}

/// The high bit of each byte of the little-endian word `x` that may end a plain run in
/// block context: bytes below `!`, and `:`. Only the lowest flag is exact (a borrow may
/// flag a byte above it); a byte below every real flag is never flagged.
#[inline(always)]
fn plain_stop_flags(x: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let low = x.wrapping_sub(ONES * 0x21) & !x & HIGH;
    let y = x ^ (ONES * u64::from(b':'));
    let colon = y.wrapping_sub(ONES) & !y & HIGH;
    low | colon
}

/// Whether the `n` bytes at `p` (at least one) are all inside the run of plain
/// characters that [`skip_plain_run_block`] skips from `p`: one word's flags where the
/// input has eight bytes there and `n` is at most eight. It may say no for a run the
/// skipper would pass (a control character), never yes for one it would stop in.
#[inline(always)]
fn in_plain_run(b: &[u8], p: usize, n: usize) -> bool {
    match b.get(p..p + 8) {
        Some(chunk) if n <= 8 => {
            debug_assert!(n >= 1);
            let found =
                plain_stop_flags(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
            let first_n = u64::MAX >> (64 - 8 * n);
            found & first_n == 0
        }
        _ => skip_plain_run_block(b, p) >= p + n,
    }
}

/// Writes `kind` over a used slot's kind. The old kind is dropped only when it owns
/// something (a rewritten text, a tag); most are borrowed, and skipping the drop glue
/// (an outlined call) for them pays on every token.
#[inline(always)]
fn replace_kind<'a>(place: &mut TokenKind<'a>, kind: TokenKind<'a>) {
    if matches!(
        place,
        TokenKind::Scalar(Cow::Owned(_), _)
            | TokenKind::KeyScalar(Cow::Owned(_), _)
            | TokenKind::Tag(_)
            | TokenKind::TagDirective(_)
    ) {
        // Frees what it owns (rare).
        *place = TokenKind::StreamEnd;
    }
    // Nothing in `place` owns memory now: overwrite it without the drop glue.
    std::mem::forget(std::mem::replace(place, kind));
}

/// The scanner over one (UTF-8, BOM-stripped) input.
pub(crate) struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    /// The original input, for error positions.
    input: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    tokens: TokenQueue<'a>,
    tokens_parsed: usize,
    /// The token at the front of the queue is final (no key will be inserted before it).
    token_available: bool,
    stream_start_produced: bool,
    stream_end_produced: bool,
    indent: isize,
    indents: Vec<isize>,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    /// For each open flow collection: true for a mapping (whose keys may span lines).
    flow_kinds: Vec<bool>,
    flow_level: usize,
    /// The number the next token pushed will have, right after a JSON-like node
    /// (a quoted scalar or a flow collection end): a `:` then is a value indicator
    /// even without white space after it.
    json_token_number: usize,
    /// The white space before the current token held a tab (on the token's line).
    tab_before: bool,
    max_depth: usize,
    /// The line of the last `---`: no block collection may start on it.
    document_start_line: usize,
    /// The leading white space of the current line held a tab.
    tab_in_indentation: bool,
    collect_comments: bool,
    pub(crate) comments: Vec<Span>,
    /// Where a plain scalar's fast path started, to check it against the general one.
    #[cfg(debug_assertions)]
    before_fast: (usize, usize, bool, bool),
    /// Tests turn the parser's in-place reads off, to compare them with the queue.
    #[cfg(test)]
    pub(crate) in_place: bool,
}

type Result<T> = std::result::Result<T, Error>;

impl<'a> Scanner<'a> {
    /// A scanner over `src`, which starts at byte `offset` of `input` (after a BOM).
    pub(crate) fn new(
        input: &'a [u8],
        src: &'a str,
        offset: usize,
        max_depth: usize,
        collect_comments: bool,
    ) -> Self {
        Scanner {
            src,
            b: src.as_bytes(),
            input,
            pos: offset,
            line: 0,
            line_start: offset,
            // Room for what a small document needs, allocated once: growing from
            // empty costs several reallocations per document.
            tokens: TokenQueue {
                items: Vec::with_capacity(INITIAL_ROOM),
                head: 0,
                tail: 0,
            },
            tokens_parsed: 0,
            token_available: false,
            stream_start_produced: false,
            stream_end_produced: false,
            indent: -1,
            indents: Vec::with_capacity(INITIAL_ROOM),
            simple_key_allowed: false,
            simple_keys: {
                let mut keys = Vec::with_capacity(INITIAL_ROOM);
                keys.push(SimpleKey::default());
                keys
            },
            flow_kinds: Vec::new(),
            flow_level: 0,
            json_token_number: usize::MAX,
            tab_before: false,
            max_depth,
            document_start_line: usize::MAX,
            tab_in_indentation: false,
            collect_comments,
            comments: Vec::new(),
            #[cfg(debug_assertions)]
            before_fast: (0, 0, false, false),
            #[cfg(test)]
            in_place: true,
        }
    }

    /// The source text.
    pub(crate) fn src(&self) -> &'a str {
        self.src
    }

    /// Where the scanner is in the input.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn error(&self, kind: ErrorKind, offset: usize) -> Error {
        Error::new(kind, self.input, offset)
    }

    #[cold]
    fn unexpected(&self, expected: &'static str, at: usize) -> Error {
        match self.src.get(at..).and_then(|s| s.chars().next()) {
            Some(found) => self.error(ErrorKind::UnexpectedCharacter { expected, found }, at),
            None => self.error(ErrorKind::UnexpectedEnd("in a token"), at),
        }
    }

    #[inline]
    fn ch(&self) -> u8 {
        self.b.get(self.pos).copied().unwrap_or(0)
    }

    #[inline]
    fn peek(&self, n: usize) -> u8 {
        self.b.get(self.pos + n).copied().unwrap_or(0)
    }

    #[inline]
    fn at_end(&self) -> bool {
        self.pos >= self.b.len()
    }

    #[inline]
    fn col(&self) -> usize {
        self.pos - self.line_start
    }

    /// True when the byte at `pos + n` is a blank, a break or the end of input.
    #[inline]
    fn blankz_at(&self, n: usize) -> bool {
        match self.b.get(self.pos + n) {
            None => true,
            Some(&c) => is_blank(c) || is_break(c),
        }
    }

    // [28] b-break ::= ( b-carriage-return b-line-feed ) | b-carriage-return | b-line-feed
    /// Consumes one line break (`\n`, `\r\n` or `\r`).
    #[inline]
    fn skip_break(&mut self) {
        if self.ch() == b'\r' && self.peek(1) == b'\n' {
            self.pos += 2;
        } else {
            self.pos += 1;
        }
        self.line += 1;
        self.line_start = self.pos;
    }

    // [206] c-forbidden ::= <start-of-line> ( c-directives-end | c-document-end )
    //                       ( b-char | s-white | <end-of-input> )
    /// A document marker (`---` or `...` followed by a blank) at the start of a line.
    #[inline]
    fn at_document_marker(&self) -> bool {
        self.col() == 0
            && self.pos + 3 <= self.b.len()
            && (&self.b[self.pos..self.pos + 3] == b"---"
                || &self.b[self.pos..self.pos + 3] == b"...")
            && self.blankz_at(3)
    }

    /// The next token, without consuming it.
    #[inline]
    pub(crate) fn peek_token(&mut self) -> Result<&Token<'a>> {
        if !self.token_available {
            if self.need_more_tokens() {
                self.fetch_more_tokens()?;
            }
            self.token_available = true;
        }
        match self.tokens.front() {
            Some(t) => Ok(t),
            None => Err(self.error(ErrorKind::UnexpectedEnd("of the stream"), self.b.len())),
        }
    }

    /// Consumes the next token.
    #[inline]
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>> {
        self.peek_token()?;
        self.token_available = false;
        self.tokens_parsed += 1;
        Ok(self.tokens.pop_front().expect("peeked"))
    }

    /// Takes the text, style and span of the next token, a peeked scalar or key, and
    /// consumes it. The fields are read in place: moving whole tokens between the
    /// queue and the stack stalls on store forwarding.
    #[inline(always)]
    pub(crate) fn take_scalar(&mut self) -> (Cow<'a, str>, ScalarStyle, usize, usize) {
        let token = self.tokens.front_mut().expect("peeked");
        let (value, style) = match &mut token.kind {
            TokenKind::Scalar(value, style) | TokenKind::KeyScalar(value, style) => {
                (std::mem::take(value), *style)
            }
            _ => unreachable!("a scalar was peeked"),
        };
        let (start, end) = (token.start, token.end);
        self.token_available = false;
        self.tokens_parsed += 1;
        self.tokens.advance();
        (value, style, start, end)
    }

    /// Consumes the next token without moving it out; returns where it ended.
    #[inline]
    pub(crate) fn skip_token(&mut self) -> Result<usize> {
        let end = self.peek_token()?.end;
        self.token_available = false;
        self.tokens_parsed += 1;
        self.tokens.advance();
        Ok(end)
    }

    #[inline]
    fn need_more_tokens(&self) -> bool {
        if self.tokens.is_empty() {
            return !self.stream_end_produced;
        }
        self.simple_keys
            .iter()
            .any(|k| k.possible && k.token_number == self.tokens_parsed)
    }

    fn fetch_more_tokens(&mut self) -> Result<()> {
        loop {
            if !self.tokens.is_empty() {
                if !self.simple_keys.iter().any(|k| k.possible) {
                    return Ok(());
                }
                self.stale_simple_keys()?;
                if !self
                    .simple_keys
                    .iter()
                    .any(|k| k.possible && k.token_number == self.tokens_parsed)
                {
                    return Ok(());
                }
            } else if self.stream_end_produced {
                return Ok(());
            }
            self.fetch_next_token()?;
        }
    }

    #[inline(always)]
    fn push(&mut self, kind: TokenKind<'a>, start: usize, end: usize) {
        self.tokens.push_back(Token { kind, start, end });
    }

    fn fetch_next_token(&mut self) -> Result<()> {
        if !self.stream_start_produced {
            self.stream_start_produced = true;
            self.simple_key_allowed = true;
            self.push(TokenKind::StreamStart, self.pos, self.pos);
            return Ok(());
        }
        self.scan_to_next_token()?;
        self.stale_simple_keys()?;
        self.unroll_indent(self.col() as isize);
        if self.at_end() {
            return self.fetch_stream_end();
        }
        let c = self.ch();
        if self.col() == 0 {
            if c == b'%' && self.flow_level == 0 {
                return self.fetch_directive();
            }
            if self.at_document_marker() {
                let kind = if c == b'-' {
                    TokenKind::DocumentStart
                } else {
                    TokenKind::DocumentEnd
                };
                return self.fetch_document_indicator(kind);
            }
        }
        if self.flow_level == 0
            && matches!(c, b'-' | b'?' | b':')
            && self.blankz_at(1)
            && (self.tab_in_indentation || (self.tab_before && c != b':'))
        {
            return Err(self.error(ErrorKind::TabIndentation, self.pos));
        }
        let next = self.peek(1);
        match c {
            b'[' => self.fetch_flow_collection_start(TokenKind::FlowSequenceStart),
            b'{' => self.fetch_flow_collection_start(TokenKind::FlowMappingStart),
            b']' => self.fetch_flow_collection_end(TokenKind::FlowSequenceEnd),
            b'}' => self.fetch_flow_collection_end(TokenKind::FlowMappingEnd),
            b',' => self.fetch_flow_entry(),
            b'-' if self.blankz_at(1) => self.fetch_block_entry(),
            b'?' if self.blankz_at(1) || (self.flow_level > 0 && is_flow_indicator(next)) => {
                self.fetch_key()
            }
            b':' if self.blankz_at(1)
                || (self.flow_level > 0
                    && (is_flow_indicator(next)
                        || self.json_token_number == self.tokens_parsed + self.tokens.len())) =>
            {
                self.fetch_value()
            }
            b'*' => self.fetch_anchor(true),
            b'&' => self.fetch_anchor(false),
            b'!' => self.fetch_tag(),
            b'|' | b'>' if self.flow_level == 0 => self.fetch_block_scalar(c == b'|'),
            b'\'' | b'"' => self.fetch_flow_scalar(c == b'"'),
            b'-' | b'?' | b':' => {
                if self.flow_level > 0 && is_flow_indicator(next) {
                    Err(self.unexpected("a token", self.pos))
                } else {
                    self.fetch_plain_scalar()
                }
            }
            b'#' | b'|' | b'>' | b'%' | b'@' | b'`' => Err(self.unexpected("a token", self.pos)),
            _ => self.fetch_plain_scalar(),
        }
    }

    // [66] s-separate-in-line ::= s-white+ | <start-of-line>
    // [75] c-nb-comment-text ::= c-comment nb-char*
    // [79] s-l-comments ::= ( s-b-comment | <start-of-line> ) l-comment*
    /// Skips white space, comments and line breaks up to the next token.
    fn scan_to_next_token(&mut self) -> Result<()> {
        let mut at_line_start = self.col() == 0 || self.pos == 0;
        if at_line_start {
            self.tab_in_indentation = false;
        }
        self.tab_before = false;
        let c = self.ch();
        if c > b' ' && c != b'#' && c != 0xEF {
            // Already at a token (the common case after a key or an indicator).
            return Ok(());
        }
        let mut crossed_line = false;
        loop {
            if self.col() == 0 && self.b[self.pos..].starts_with("\u{feff}".as_bytes()) {
                // A byte order mark may start any document.
                self.pos += 3;
                self.line_start = self.pos;
            }
            let before = self.pos;
            loop {
                match self.ch() {
                    b' ' => self.pos = skip_spaces(self.b, self.pos + 1),
                    b'\t' => {
                        self.tab_before = true;
                        if at_line_start {
                            self.tab_in_indentation = true;
                        }
                        self.pos += 1;
                    }
                    _ => break,
                }
            }
            let c = self.ch();
            if c == b'#' {
                if self.pos == before && self.col() != 0 && self.pos != 0 {
                    // `#` glued to the previous token.
                    let prev = self.b[self.pos - 1];
                    if !is_blank(prev) && !is_break(prev) {
                        return Err(self.error(ErrorKind::CommentWithoutSpace, self.pos));
                    }
                }
                let start = self.pos;
                let end = memchr::memchr2(b'\n', b'\r', &self.b[self.pos..])
                    .map_or(self.b.len(), |i| self.pos + i);
                if self.collect_comments {
                    self.comments.push(Span::new(start, end));
                }
                self.pos = end;
            }
            if is_break(self.ch()) {
                self.skip_break();
                at_line_start = true;
                crossed_line = true;
                self.tab_in_indentation = false;
                self.tab_before = false;
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
            } else {
                break;
            }
        }
        if !self.at_end() {
            let c = self.ch();
            if c < 0x20 && c != b'\t' && !is_break(c) {
                return Err(self.error(ErrorKind::ForbiddenCharacter(c as char), self.pos));
            }
            if crossed_line && self.flow_level > 0 && self.indent >= 0 {
                // Flow content lines are indented past the enclosing block, by spaces.
                let spaces = self.b[self.line_start..]
                    .iter()
                    .take_while(|&&c| c == b' ')
                    .count();
                if spaces as isize <= self.indent {
                    let kind = if self.tab_in_indentation {
                        ErrorKind::TabIndentation
                    } else {
                        ErrorKind::InvalidIndentation
                    };
                    return Err(self.error(kind, self.pos));
                }
            }
        }
        Ok(())
    }

    // [154] ns-s-implicit-yaml-key(c) ::= ns-flow-yaml-node(0,c) s-separate-in-line?
    //                                   /* At most 1024 characters altogether */
    fn stale_simple_keys(&mut self) -> Result<()> {
        if self.simple_keys.len() == 1 && !self.simple_keys[0].possible {
            return Ok(());
        }
        for i in 0..self.simple_keys.len() {
            let key = self.simple_keys[i];
            // Keys in flow mappings may span lines; implicit keys elsewhere may not.
            let multiline = i > 0 && self.flow_kinds[i - 1];
            if key.possible && !multiline && (key.line < self.line || key.pos + 1024 < self.pos) {
                if key.required {
                    return Err(self.error(ErrorKind::SimpleKeyWithoutValue, key.pos));
                }
                self.simple_keys[i].possible = false;
            }
        }
        Ok(())
    }

    fn save_simple_key(&mut self) -> Result<()> {
        self.save_simple_key_at((self.pos, self.line, self.col(), self.tab_before))
    }

    /// Records a possible implicit key starting at `(pos, line, col, tab_before)`.
    fn save_simple_key_at(
        &mut self,
        (pos, line, col, tab_before): (usize, usize, usize, bool),
    ) -> Result<()> {
        let required = self.flow_level == 0 && self.indent == col as isize;
        if self.simple_key_allowed {
            self.remove_simple_key()?;
            let key = SimpleKey {
                possible: true,
                required,
                token_number: self.tokens_parsed + self.tokens.len(),
                pos,
                line,
                col,
                tab_before,
            };
            *self.simple_keys.last_mut().expect("one key per level") = key;
        }
        Ok(())
    }

    fn remove_simple_key(&mut self) -> Result<()> {
        let key = self.simple_keys.last_mut().expect("one key per level");
        if key.possible && key.required {
            let pos = key.pos;
            return Err(self.error(ErrorKind::SimpleKeyWithoutValue, pos));
        }
        key.possible = false;
        Ok(())
    }

    fn increase_flow_level(&mut self, mapping: bool) -> Result<()> {
        self.simple_keys.push(SimpleKey::default());
        self.flow_kinds.push(mapping);
        self.flow_level += 1;
        if self.flow_level > self.max_depth {
            return Err(self.error(ErrorKind::DepthLimitReached(self.max_depth), self.pos));
        }
        Ok(())
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            self.simple_keys.pop();
            self.flow_kinds.pop();
        }
    }

    /// Opens a block collection at `column` if it is deeper than the current one,
    /// inserting `kind` before token `number` (or at the end).
    #[inline(always)]
    fn roll_indent(
        &mut self,
        column: usize,
        number: Option<usize>,
        kind: TokenKind<'a>,
        at: usize,
    ) -> Result<()> {
        // The usual case, a key or entry of the open collection, inline.
        if self.flow_level > 0 || self.indent >= column as isize {
            return Ok(());
        }
        self.open_block(column, number, kind, at)
    }

    /// [`Scanner::roll_indent`] when it opens a collection.
    fn open_block(
        &mut self,
        column: usize,
        number: Option<usize>,
        kind: TokenKind<'a>,
        at: usize,
    ) -> Result<()> {
        self.indents.push(self.indent);
        if self.indents.len() > self.max_depth {
            return Err(self.error(ErrorKind::DepthLimitReached(self.max_depth), at));
        }
        self.indent = column as isize;
        let token = Token {
            kind,
            start: at,
            end: at,
        };
        match number {
            Some(n) if n == self.tokens_parsed => self.tokens.push_front(token),
            Some(n) => self.tokens.insert(n - self.tokens_parsed, token),
            None => self.tokens.push_back(token),
        }
        Ok(())
    }

    #[inline(always)]
    fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 || self.indent <= column {
            return;
        }
        self.close_blocks(column);
    }

    /// [`Scanner::unroll_indent`] when it closes collections.
    fn close_blocks(&mut self, column: isize) {
        while self.indent > column {
            self.push(TokenKind::BlockEnd, self.pos, self.pos);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    fn fetch_stream_end(&mut self) -> Result<()> {
        if self.flow_level > 0 {
            return Err(self.error(
                ErrorKind::UnexpectedEnd("inside a flow collection"),
                self.pos,
            ));
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        self.stream_end_produced = true;
        self.push(TokenKind::StreamEnd, self.pos, self.pos);
        Ok(())
    }

    // [203] c-directives-end ::= "---"
    // [204] c-document-end ::= "..."    # (not followed by non-ws char)
    // [205] l-document-suffix ::= c-document-end s-l-comments
    fn fetch_document_indicator(&mut self, kind: TokenKind<'a>) -> Result<()> {
        if self.flow_level > 0 {
            return Err(self.error(ErrorKind::UnexpectedDocumentMarker, self.pos));
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 3;
        if kind == TokenKind::DocumentStart {
            self.document_start_line = self.line;
        } else {
            // Only a comment may follow `...` on its line.
            let save = self.pos;
            while is_blank(self.ch()) {
                self.pos += 1;
            }
            if !(self.at_end() || is_break(self.ch()) || (self.ch() == b'#' && self.pos > save)) {
                return Err(self.unexpected("a comment or a line break after `...`", self.pos));
            }
            self.pos = save;
        }
        self.push(kind, start, self.pos);
        Ok(())
    }

    // [137] c-flow-sequence(n,c) ::= c-sequence-start s-separate(n,c)? in-flow(n,c)?
    //                               c-sequence-end
    // [140] c-flow-mapping(n,c) ::= c-mapping-start s-separate(n,c)?
    //                              ns-s-flow-map-entries(n,in-flow(c))? c-mapping-end
    fn fetch_flow_collection_start(&mut self, kind: TokenKind<'a>) -> Result<()> {
        self.save_simple_key()?;
        self.increase_flow_level(kind == TokenKind::FlowMappingStart)?;
        self.simple_key_allowed = true;
        let start = self.pos;
        self.pos += 1;
        self.push(kind, start, self.pos);
        Ok(())
    }

    // [9] c-sequence-end ::= ']'
    // [11] c-mapping-end ::= '}'
    fn fetch_flow_collection_end(&mut self, kind: TokenKind<'a>) -> Result<()> {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 1;
        self.push(kind, start, self.pos);
        self.json_token_number = self.tokens_parsed + self.tokens.len();
        self.check_after_flow_node()
    }

    /// In block context, a flow collection or quoted scalar that ends a line's content
    /// may only be followed by a comment, `:` or the end of the line.
    fn check_after_flow_node(&mut self) -> Result<()> {
        if self.flow_level > 0 {
            return Ok(());
        }
        self.end_of_flow_node(self.pos)
            .map_err(|p| self.unexpected("a comment or a line break", p))
    }

    /// In block context, whether only blanks, then a line break, a comment, a `:` or
    /// the end, follow a flow node that ends at `p`; `Err` with where a `,` or further
    /// content stands instead.
    #[inline]
    fn end_of_flow_node(&self, mut p: usize) -> std::result::Result<(), usize> {
        while p < self.b.len() && is_blank(self.b[p]) {
            p += 1;
        }
        match self.b.get(p) {
            None | Some(b'\n' | b'\r' | b'#' | b':') => Ok(()),
            Some(_) => Err(p),
        }
    }

    // [138] ns-s-flow-seq-entries(n,c) ::= ns-flow-seq-entry(n,c) s-separate(n,c)?
    //           ( c-collect-entry s-separate(n,c)? ns-s-flow-seq-entries(n,c)? )?
    fn fetch_flow_entry(&mut self) -> Result<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::FlowEntry, start, self.pos);
        Ok(())
    }

    // [183] l+block-sequence(n) ::= ( s-indent(n+1+m) c-l-block-seq-entry(n+1+m) )+
    // [184] c-l-block-seq-entry(n) ::= c-sequence-entry [ lookahead ≠ ns-char ]
    //                                 s-l+block-indented(n,BLOCK-IN)
    fn fetch_block_entry(&mut self) -> Result<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.error(ErrorKind::BlockSequenceEntriesNotAllowed, self.pos));
            }
            if self.line == self.document_start_line {
                return Err(self.error(ErrorKind::BlockSequenceEntriesNotAllowed, self.pos));
            }
            self.roll_indent(self.col(), None, TokenKind::BlockSequenceStart, self.pos)?;
        } else {
            return Err(self.error(ErrorKind::BlockSequenceEntriesNotAllowed, self.pos));
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::BlockEntry, start, self.pos);
        // `- value`: the entry's plain scalar is fetched at once (the steps of the next
        // fetch before it are no-ops after one space).
        if self.ch() == b' ' && starts_plain_at_once(self.peek(1), self.peek(2)) {
            self.pos += 1;
            self.tab_before = false;
            return self.fetch_plain_scalar();
        }
        Ok(())
    }

    // [190] c-l-block-map-explicit-key(n) ::= c-mapping-key s-l+block-indented(n,BLOCK-OUT)
    // [142] ns-flow-map-entry(n,c) ::= ( c-mapping-key s-separate(n,c)
    //                                    ns-flow-map-explicit-entry(n,c) )
    //                                | ns-flow-map-implicit-entry(n,c)
    fn fetch_key(&mut self) -> Result<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed || self.line == self.document_start_line {
                return Err(self.error(ErrorKind::MappingKeysNotAllowed, self.pos));
            }
            self.roll_indent(self.col(), None, TokenKind::BlockMappingStart, self.pos)?;
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::Key, start, self.pos);
        Ok(())
    }

    // [194] c-l-block-map-implicit-value(n) ::= c-mapping-value
    //           ( s-l+block-node(n,BLOCK-OUT) | ( e-node s-l-comments ) )
    // [147] c-ns-flow-map-separate-value(n,c) ::= c-mapping-value
    //           [ lookahead ≠ ns-plain-safe(c) ] ( ( s-separate(n,c) ns-flow-node(n,c) ) | e-node )
    // [149] c-ns-flow-map-adjacent-value(n,c) ::= c-mapping-value
    //           ( ( s-separate(n,c)? ns-flow-node(n,c) ) | e-node )
    fn fetch_value(&mut self) -> Result<()> {
        let key = *self.simple_keys.last().expect("one key per level");
        if key.possible {
            if self.flow_level == 0 && key.line == self.document_start_line {
                return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
            }
            if self.flow_level == 0 && key.tab_before && self.indent < key.col as isize {
                // A tab cannot indent the first key of a block mapping.
                return Err(self.error(ErrorKind::TabIndentation, key.pos));
            }
            let token = Token {
                kind: TokenKind::Key,
                start: key.pos,
                end: key.pos,
            };
            if key.token_number == self.tokens_parsed {
                self.tokens.push_front(token);
            } else {
                self.tokens
                    .insert(key.token_number - self.tokens_parsed, token);
            }
            self.roll_indent(
                key.col,
                Some(key.token_number),
                TokenKind::BlockMappingStart,
                key.pos,
            )?;
            self.simple_keys
                .last_mut()
                .expect("one key per level")
                .possible = false;
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
                }
                if self.line == self.document_start_line {
                    return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
                }
                self.roll_indent(self.col(), None, TokenKind::BlockMappingStart, self.pos)?;
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::Value, start, self.pos);
        Ok(())
    }

    // [101] c-ns-anchor-property ::= c-anchor ns-anchor-name
    // [104] c-ns-alias-node ::= c-alias ns-anchor-name
    // [103] ns-anchor-name ::= ns-anchor-char+
    // [102] ns-anchor-char ::= ns-char - c-flow-indicator
    fn fetch_anchor(&mut self, alias: bool) -> Result<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 1;
        let name_start = self.pos;
        while !self.blankz_at(0) && !is_flow_indicator(self.ch()) {
            self.pos += 1;
        }
        if self.pos == name_start {
            return Err(self.error(ErrorKind::InvalidAnchor, start));
        }
        let name = &self.src[name_start..self.pos];
        let kind = if alias {
            TokenKind::Alias(name)
        } else {
            TokenKind::Anchor(name)
        };
        self.push(kind, start, self.pos);
        if alias {
            self.json_token_number = self.tokens_parsed + self.tokens.len();
        }
        Ok(())
    }

    // [97] c-ns-tag-property ::= c-verbatim-tag | c-ns-shorthand-tag | c-non-specific-tag
    // [98] c-verbatim-tag ::= "!<" ns-uri-char+ '>'
    // [99] c-ns-shorthand-tag ::= c-tag-handle ns-tag-char+
    // [100] c-non-specific-tag ::= '!'
    // [89] c-tag-handle ::= c-named-tag-handle | c-secondary-tag-handle | c-primary-tag-handle
    fn fetch_tag(&mut self) -> Result<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        let (handle, suffix);
        if self.peek(1) == b'<' {
            self.pos += 2;
            let s = self.pos;
            while is_uri_char(self.ch()) && self.ch() != b'>' {
                self.pos += 1;
            }
            if self.ch() != b'>' || self.pos == s {
                return Err(self.error(ErrorKind::InvalidTag, start));
            }
            suffix = decode_uri(&self.src[s..self.pos])
                .ok_or_else(|| self.error(ErrorKind::InvalidTag, start))?;
            handle = "";
            self.pos += 1;
        } else {
            // `!`, `!!` or `!name!` followed by a suffix, or `!suffix`.
            self.pos += 1;
            while is_word(self.ch()) {
                self.pos += 1;
            }
            if self.ch() == b'!' {
                self.pos += 1;
                handle = &self.src[start..self.pos];
                let s = self.pos;
                self.scan_tag_suffix();
                if self.pos == s {
                    return Err(self.error(ErrorKind::InvalidTag, start));
                }
                suffix = decode_uri(&self.src[s..self.pos])
                    .ok_or_else(|| self.error(ErrorKind::InvalidTag, start))?;
            } else {
                self.scan_tag_suffix();
                if self.pos == start + 1 {
                    handle = "";
                    suffix = Cow::Borrowed("!");
                } else {
                    handle = "!";
                    suffix = decode_uri(&self.src[start + 1..self.pos])
                        .ok_or_else(|| self.error(ErrorKind::InvalidTag, start))?;
                }
            }
        }
        if !(self.blankz_at(0) || (self.flow_level > 0 && is_flow_indicator(self.ch()))) {
            return Err(self.unexpected("white space after a tag", self.pos));
        }
        self.push(TokenKind::Tag(Box::new((handle, suffix))), start, self.pos);
        Ok(())
    }

    // [40] ns-tag-char ::= ns-uri-char - c-tag - c-flow-indicator
    fn scan_tag_suffix(&mut self) {
        while is_uri_char(self.ch()) && self.ch() != b'!' && !is_flow_indicator(self.ch()) {
            self.pos += 1;
        }
    }

    // [82] l-directive ::= c-directive
    //           ( ns-yaml-directive | ns-tag-directive | ns-reserved-directive ) s-l-comments
    // [86] ns-yaml-directive ::= "YAML" s-separate-in-line ns-yaml-version
    // [88] ns-tag-directive ::= "TAG" s-separate-in-line c-tag-handle s-separate-in-line
    //                         ns-tag-prefix
    // [83] ns-reserved-directive ::= ns-directive-name
    //                              ( s-separate-in-line ns-directive-parameter )*
    fn fetch_directive(&mut self) -> Result<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 1;
        let name_start = self.pos;
        while !self.blankz_at(0) {
            self.pos += 1;
        }
        let name = &self.src[name_start..self.pos];
        let kind = match name {
            "YAML" => {
                self.skip_directive_blanks()?;
                let major = self.scan_version_number()?;
                if self.ch() != b'.' {
                    return Err(self.error(
                        ErrorKind::InvalidDirective("expected `major.minor`"),
                        self.pos,
                    ));
                }
                self.pos += 1;
                let minor = self.scan_version_number()?;
                TokenKind::VersionDirective(major, minor)
            }
            "TAG" => {
                self.skip_directive_blanks()?;
                let h = self.pos;
                if self.ch() != b'!' {
                    return Err(self.error(
                        ErrorKind::InvalidDirective("expected a tag handle"),
                        self.pos,
                    ));
                }
                self.pos += 1;
                while is_word(self.ch()) {
                    self.pos += 1;
                }
                if self.ch() == b'!' {
                    self.pos += 1;
                } else if self.pos != h + 1 {
                    return Err(self.error(ErrorKind::InvalidDirective("bad tag handle"), h));
                }
                let handle = &self.src[h..self.pos];
                self.skip_directive_blanks()?;
                let p = self.pos;
                while is_uri_char(self.ch()) {
                    self.pos += 1;
                }
                if self.pos == p {
                    return Err(self.error(
                        ErrorKind::InvalidDirective("expected a tag prefix"),
                        self.pos,
                    ));
                }
                let prefix = decode_uri(&self.src[p..self.pos])
                    .ok_or_else(|| self.error(ErrorKind::InvalidTag, p))?;
                TokenKind::TagDirective(Box::new((handle, prefix)))
            }
            _ => {
                // A reserved directive: ignored, as the spec allows.
                let end = memchr::memchr2(b'\n', b'\r', &self.b[self.pos..])
                    .map_or(self.b.len(), |i| self.pos + i);
                // Keep a comment on that line a comment.
                let rest = &self.b[self.pos..end];
                let cut = rest
                    .windows(2)
                    .position(|w| is_blank(w[0]) && w[1] == b'#')
                    .map_or(end, |i| self.pos + i);
                self.pos = cut;
                let end = self.pos;
                self.check_line_end()?;
                // Report it as nothing: fetch the next token instead.
                let _ = (start, end);
                return Ok(());
            }
        };
        let end = self.pos;
        self.check_line_end()?;
        self.push(kind, start, end);
        Ok(())
    }

    fn skip_directive_blanks(&mut self) -> Result<()> {
        if !is_blank(self.ch()) {
            return Err(self.unexpected("white space in a directive", self.pos));
        }
        while is_blank(self.ch()) {
            self.pos += 1;
        }
        Ok(())
    }

    // [87] ns-yaml-version ::= ns-dec-digit+ '.' ns-dec-digit+    (here one `ns-dec-digit+`)
    fn scan_version_number(&mut self) -> Result<u32> {
        let s = self.pos;
        while self.ch().is_ascii_digit() {
            self.pos += 1;
        }
        if self.pos == s || self.pos - s > 9 {
            return Err(self.error(ErrorKind::InvalidDirective("bad version number"), s));
        }
        Ok(self.src[s..self.pos].parse().unwrap_or(0))
    }

    // [77] s-b-comment ::= ( s-separate-in-line c-nb-comment-text? )? b-comment
    /// After a directive or block scalar header: blanks, an optional comment, then a
    /// line break or the end.
    fn check_line_end(&mut self) -> Result<()> {
        let s = self.pos;
        while is_blank(self.ch()) {
            self.pos += 1;
        }
        if self.ch() == b'#' {
            if self.pos == s {
                return Err(self.error(ErrorKind::CommentWithoutSpace, self.pos));
            }
            let start = self.pos;
            self.pos = memchr::memchr2(b'\n', b'\r', &self.b[self.pos..])
                .map_or(self.b.len(), |i| self.pos + i);
            if self.collect_comments {
                self.comments.push(Span::new(start, self.pos));
            }
        }
        if !self.at_end() && !is_break(self.ch()) {
            return Err(self.unexpected("a comment or a line break", self.pos));
        }
        Ok(())
    }

    fn fetch_block_scalar(&mut self, literal: bool) -> Result<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let token = self.scan_block_scalar(literal)?;
        self.tokens.push_back(token);
        Ok(())
    }

    // [170] c-l+literal(n) ::= c-literal c-b-block-header(t) l-literal-content(n+m,t)
    // [174] c-l+folded(n) ::= c-folded c-b-block-header(t) l-folded-content(n+m,t)
    // [162] c-b-block-header(t) ::= ( ( c-indentation-indicator c-chomping-indicator(t) )
    //                               | ( c-chomping-indicator(t) c-indentation-indicator ) )
    //                               s-b-comment
    // [163] c-indentation-indicator ::= [x31-x39]    # 1-9
    // [164] c-chomping-indicator(STRIP) ::= '-'
    //       c-chomping-indicator(KEEP)  ::= '+'
    //       c-chomping-indicator(CLIP)  ::= ""
    fn scan_block_scalar(&mut self, literal: bool) -> Result<Token<'a>> {
        let start = self.pos;
        self.pos += 1;
        let mut chomp = 0i8; // -1 strip, 0 clip, 1 keep
        let mut increment = 0usize;
        for _ in 0..2 {
            match self.ch() {
                b'+' | b'-' if chomp == 0 => {
                    chomp = if self.ch() == b'+' { 1 } else { -1 };
                    self.pos += 1;
                }
                b'1'..=b'9' if increment == 0 => {
                    increment = usize::from(self.ch() - b'0');
                    self.pos += 1;
                }
                b'0' => return Err(self.error(ErrorKind::InvalidBlockScalarHeader, self.pos)),
                _ => break,
            }
        }
        if !self.blankz_at(0) {
            return Err(self.error(ErrorKind::InvalidBlockScalarHeader, self.pos));
        }
        self.check_line_end()?;
        if !self.at_end() {
            self.skip_break();
        }
        let parent = self.indent;
        let min_indent = (parent + 1).max(0) as usize;
        let indent = if increment > 0 {
            if parent >= 0 {
                parent as usize + increment
            } else {
                increment
            }
        } else {
            // Auto-detect: the indentation of the first non-empty line.
            let mut p = self.pos;
            let mut max_empty = 0;
            let mut max_empty_at = p;
            loop {
                let line = p;
                while p < self.b.len() && self.b[p] == b' ' {
                    p += 1;
                }
                let spaces = p - line;
                match self.b.get(p) {
                    None if spaces > 0 => break max_empty.max(spaces).max(min_indent),
                    Some(b'\n' | b'\r') => {
                        if spaces > max_empty {
                            max_empty = spaces;
                            max_empty_at = line;
                        }
                        p += if self.b[p] == b'\r' && self.b.get(p + 1) == Some(&b'\n') {
                            2
                        } else {
                            1
                        };
                    }
                    None => break max_empty.max(min_indent),
                    Some(_) => {
                        let at_marker = spaces == 0
                            && self.b.len() >= line + 3
                            && (&self.b[line..line + 3] == b"---"
                                || &self.b[line..line + 3] == b"...")
                            && !matches!(self.b.get(line + 3), Some(&c) if !is_blank(c) && !is_break(c));
                        if spaces < min_indent || at_marker {
                            break max_empty.max(min_indent);
                        }
                        if max_empty > spaces {
                            return Err(
                                self.error(ErrorKind::InvalidBlockScalarIndentation, max_empty_at)
                            );
                        }
                        break spaces;
                    }
                }
            }
        };
        let mut out = String::new();
        let mut breaks = 0usize;
        let mut trailing_break = false;
        let mut have_content = false;
        let mut prev_more_indented = false;
        let mut end = self.pos;
        loop {
            let line_begin = self.pos;
            while self.col() < indent && self.ch() == b' ' {
                self.pos += 1;
            }
            if self.at_end() {
                if self.pos > line_begin {
                    // A last line of spaces only, without a line break.
                    breaks += 1;
                }
                break;
            }
            if is_break(self.ch()) {
                breaks += 1;
                self.skip_break();
                continue;
            }
            if self.col() < indent {
                // Less indented: the scalar is over; a tab here would be indentation.
                if self.ch() == b'\t' {
                    let mut p = self.pos;
                    while p < self.b.len() && is_blank(self.b[p]) {
                        p += 1;
                    }
                    if p >= self.b.len() || is_break(self.b[p]) {
                        return Err(self.error(ErrorKind::TabIndentation, self.pos));
                    }
                }
                self.pos = line_begin;
                break;
            }
            if self.at_document_marker() {
                self.pos = line_begin;
                break;
            }
            let text_start = self.pos;
            let text_end = memchr::memchr2(b'\n', b'\r', &self.b[self.pos..])
                .map_or(self.b.len(), |i| self.pos + i);
            let text = &self.src[text_start..text_end];
            let more_indented = text.starts_with([' ', '\t']);
            if have_content {
                if !literal && !prev_more_indented && !more_indented {
                    if breaks == 0 {
                        out.push(' ');
                    }
                } else {
                    out.push('\n');
                }
                for _ in 0..breaks {
                    out.push('\n');
                }
            } else {
                for _ in 0..breaks {
                    out.push('\n');
                }
            }
            out.push_str(text);
            have_content = true;
            prev_more_indented = more_indented;
            breaks = 0;
            self.pos = text_end;
            end = text_end;
            // The end of the input ends the last line too.
            trailing_break = true;
            if !self.at_end() {
                self.skip_break();
            }
        }
        match chomp {
            -1 => {}
            0 => {
                if trailing_break {
                    out.push('\n');
                }
            }
            _ => {
                if trailing_break {
                    out.push('\n');
                }
                for _ in 0..breaks {
                    out.push('\n');
                }
            }
        }
        let style = if literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        Ok(Token {
            kind: TokenKind::Scalar(Cow::Owned(out), style),
            start,
            end: end.max(start + 1),
        })
    }

    fn fetch_flow_scalar(&mut self, double: bool) -> Result<()> {
        let at = (self.pos, self.line, self.col(), self.tab_before);
        let eager = self.flow_level == 0 && self.simple_key_allowed;
        if !eager {
            self.save_simple_key()?;
        }
        self.simple_key_allowed = false;
        if double && !eager {
            if let Some(end) = self.double_quoted_on_line() {
                // The usual value `"text"`: no escape, one line; its token is written
                // into the queue in place.
                let start = self.pos;
                self.tokens.push_borrowed(
                    false,
                    &self.src[start + 1..end],
                    ScalarStyle::DoubleQuoted,
                    start,
                    end + 1,
                );
                self.pos = end + 1;
                self.json_token_number = self.tokens_parsed + self.tokens.len();
                return self.check_after_flow_node();
            }
        }
        let token = if double {
            self.scan_double_quoted()?
        } else {
            self.scan_single_quoted()?
        };
        if eager {
            let mut p = self.pos;
            while p < self.b.len() && is_blank(self.b[p]) {
                p += 1;
            }
            if self.line == at.1
                && self.b.get(p) == Some(&b':')
                && !matches!(self.b.get(p + 1), Some(&c) if !is_blank(c) && !is_break(c))
            {
                self.pos = p;
                return self.fetch_key_and_value(token, at);
            }
            self.not_a_key(at)?;
        }
        self.tokens.push_back(token);
        self.json_token_number = self.tokens_parsed + self.tokens.len();
        self.check_after_flow_node()
    }

    /// The offset of the closing quote of the double-quoted scalar at `pos` when it has
    /// no escape and no line break, which is then its text as it stands.
    #[inline]
    fn double_quoted_on_line(&self) -> Option<usize> {
        let mut p = self.pos + 1;
        while p < self.b.len() && !DOUBLE_SPECIAL[self.b[p] as usize] {
            p += 1;
        }
        (self.b.get(p) == Some(&b'"')).then_some(p)
    }

    // [74] s-flow-folded(n) ::= s-separate-in-line? b-l-folded(n,FLOW-IN) s-flow-line-prefix(n)
    /// After a line break inside a quoted scalar: skips the following empty lines and
    /// the next line's indentation, returning how many line breaks there were in all
    /// (the first included).
    fn skip_quoted_breaks(&mut self, start: usize) -> Result<usize> {
        let mut breaks = 0;
        loop {
            self.skip_break();
            breaks += 1;
            let line = self.pos;
            while self.ch() == b' ' {
                self.pos += 1;
            }
            let spaces = self.pos - line;
            while is_blank(self.ch()) {
                self.pos += 1;
            }
            if self.at_end() {
                return Err(self.error(ErrorKind::UnexpectedEnd("in a quoted scalar"), start));
            }
            if is_break(self.ch()) {
                continue;
            }
            if spaces == 0 && self.at_document_marker_from(line) {
                return Err(self.error(ErrorKind::UnexpectedDocumentMarker, line));
            }
            if self.flow_level == 0 && (spaces as isize) <= self.indent {
                return Err(self.error(ErrorKind::InvalidIndentation, self.pos));
            }
            return Ok(breaks);
        }
    }

    fn at_document_marker_from(&self, line: usize) -> bool {
        self.b.len() >= line + 3
            && (&self.b[line..line + 3] == b"---" || &self.b[line..line + 3] == b"...")
            && !matches!(self.b.get(line + 3), Some(&c) if !is_blank(c) && !is_break(c))
    }

    // [120] c-single-quoted(n,c) ::= c-single-quote nb-single-text(n,c) c-single-quote
    // [118] nb-single-char ::= c-quoted-quote | ( nb-json - c-single-quote )
    // [117] c-quoted-quote ::= "''"
    fn scan_single_quoted(&mut self) -> Result<Token<'a>> {
        let start = self.pos;
        self.pos += 1;
        let content = self.pos;
        let mut owned: Option<String> = None;
        let mut seg = self.pos;
        loop {
            let Some(i) = memchr::memchr3(b'\'', b'\n', b'\r', &self.b[self.pos..]) else {
                return Err(self.error(ErrorKind::UnexpectedEnd("in a quoted scalar"), start));
            };
            self.pos += i;
            match self.ch() {
                b'\'' => {
                    if self.peek(1) == b'\'' {
                        let buf = owned.get_or_insert_with(String::new);
                        buf.push_str(&self.src[seg..self.pos]);
                        buf.push('\'');
                        self.pos += 2;
                        seg = self.pos;
                        continue;
                    }
                    let value = match owned {
                        None => Cow::Borrowed(&self.src[content..self.pos]),
                        Some(mut buf) => {
                            buf.push_str(&self.src[seg..self.pos]);
                            Cow::Owned(buf)
                        }
                    };
                    self.pos += 1;
                    return Ok(Token {
                        kind: TokenKind::Scalar(value, ScalarStyle::SingleQuoted),
                        start,
                        end: self.pos,
                    });
                }
                _ => {
                    let buf = owned.get_or_insert_with(String::new);
                    buf.push_str(self.src[seg..self.pos].trim_end_matches([' ', '\t']));
                    let breaks = self.skip_quoted_breaks(start)?;
                    fold(buf, breaks);
                    seg = self.pos;
                }
            }
        }
    }

    // [109] c-double-quoted(n,c) ::= c-double-quote nb-double-text(n,c) c-double-quote
    // [107] nb-double-char ::= c-ns-esc-char | ( nb-json - c-escape - c-double-quote )
    // [62] c-ns-esc-char ::= c-escape ( ns-esc-null | ns-esc-bell | ns-esc-backspace
    //        | ns-esc-horizontal-tab | ns-esc-line-feed | ns-esc-vertical-tab | ns-esc-form-feed
    //        | ns-esc-carriage-return | ns-esc-escape | ns-esc-space | ns-esc-double-quote
    //        | ns-esc-slash | ns-esc-backslash | ns-esc-next-line | ns-esc-non-breaking-space
    //        | ns-esc-line-separator | ns-esc-paragraph-separator | ns-esc-8-bit
    //        | ns-esc-16-bit | ns-esc-32-bit )
    // [112] s-double-escaped(n) ::= s-white* c-escape b-non-content l-empty(n,FLOW-IN)*
    //                              s-flow-line-prefix(n)
    fn scan_double_quoted(&mut self) -> Result<Token<'a>> {
        let start = self.pos;
        self.pos += 1;
        let content = self.pos;
        let mut owned: Option<String> = None;
        let mut seg = self.pos;
        loop {
            while self.pos < self.b.len() && !DOUBLE_SPECIAL[self.b[self.pos] as usize] {
                self.pos += 1;
            }
            if self.at_end() {
                return Err(self.error(ErrorKind::UnexpectedEnd("in a quoted scalar"), start));
            }
            match self.ch() {
                b'"' => {
                    let value = match owned {
                        None => Cow::Borrowed(&self.src[content..self.pos]),
                        Some(mut buf) => {
                            buf.push_str(&self.src[seg..self.pos]);
                            Cow::Owned(buf)
                        }
                    };
                    self.pos += 1;
                    return Ok(Token {
                        kind: TokenKind::Scalar(value, ScalarStyle::DoubleQuoted),
                        start,
                        end: self.pos,
                    });
                }
                b'\\' => {
                    let buf = owned.get_or_insert_with(String::new);
                    buf.push_str(&self.src[seg..self.pos]);
                    let esc = self.pos;
                    self.pos += 1;
                    let c = self.ch();
                    if is_break(c) {
                        // An escaped line break: no folding, leading blanks skipped.
                        let breaks = self.skip_quoted_breaks(start)?;
                        for _ in 1..breaks {
                            buf.push('\n');
                        }
                        seg = self.pos;
                        continue;
                    }
                    let simple = match c {
                        b'0' => Some('\0'),
                        b'a' => Some('\x07'),
                        b'b' => Some('\x08'),
                        b't' | b'\t' => Some('\t'),
                        b'n' => Some('\n'),
                        b'v' => Some('\x0b'),
                        b'f' => Some('\x0c'),
                        b'r' => Some('\r'),
                        b'e' => Some('\x1b'),
                        b' ' => Some(' '),
                        b'"' => Some('"'),
                        b'/' => Some('/'),
                        b'\\' => Some('\\'),
                        b'N' => Some('\u{85}'),
                        b'_' => Some('\u{a0}'),
                        b'L' => Some('\u{2028}'),
                        b'P' => Some('\u{2029}'),
                        _ => None,
                    };
                    if let Some(ch) = simple {
                        buf.push(ch);
                        self.pos += 1;
                    } else {
                        let len = match c {
                            b'x' => 2,
                            b'u' => 4,
                            b'U' => 8,
                            _ => return Err(self.error(ErrorKind::InvalidEscape, esc)),
                        };
                        let hex = self
                            .src
                            .get(self.pos + 1..self.pos + 1 + len)
                            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                            .ok_or_else(|| self.error(ErrorKind::InvalidEscape, esc))?;
                        let code = u32::from_str_radix(hex, 16)
                            .map_err(|_| self.error(ErrorKind::InvalidEscape, esc))?;
                        let ch = char::from_u32(code)
                            .ok_or_else(|| self.error(ErrorKind::InvalidEscape, esc))?;
                        buf.push(ch);
                        self.pos += 1 + len;
                    }
                    seg = self.pos;
                }
                _ => {
                    let buf = owned.get_or_insert_with(String::new);
                    buf.push_str(self.src[seg..self.pos].trim_end_matches([' ', '\t']));
                    let breaks = self.skip_quoted_breaks(start)?;
                    fold(buf, breaks);
                    seg = self.pos;
                }
            }
        }
    }

    // [131] ns-plain(n,FLOW-OUT)  ::= ns-plain-multi-line(n,FLOW-OUT)
    //       ns-plain(n,FLOW-IN)   ::= ns-plain-multi-line(n,FLOW-IN)
    //       ns-plain(n,BLOCK-KEY) ::= ns-plain-one-line(BLOCK-KEY)
    //       ns-plain(n,FLOW-KEY)  ::= ns-plain-one-line(FLOW-KEY)
    // [192] ns-l-block-map-implicit-entry(n) ::= ( ns-s-block-map-implicit-key | e-node )
    //                                           c-l-block-map-implicit-value(n)
    fn fetch_plain_scalar(&mut self) -> Result<()> {
        if self.flow_level == 0 && self.simple_key_allowed {
            // The common `key: value` line: when the scalar is followed by `:` on its
            // line, it is a key, and no lookahead through the token queue is needed.
            let at = (self.pos, self.line, self.col(), self.tab_before);
            self.simple_key_allowed = false;
            if let Some((start, end)) = self.scan_plain_fast() {
                // The usual one-line scalar: its token is built in the queue (moving a
                // token built on the stack costs a store-forwarding stall per token).
                if self.line == at.1 && self.ch() == b':' && self.blankz_at(1) {
                    self.key_checks(at)?;
                    self.tokens
                        .push_plain(true, &self.src[start..end], start, end);
                    self.after_key_colon();
                    // `key: value`: the value's plain scalar is fetched at once (the
                    // steps of the next fetch before it are no-ops here).
                    if starts_plain_at_once(self.ch(), self.peek(1)) {
                        self.tab_before = false;
                        return self.fetch_plain_value();
                    }
                    if self.ch() == b'"' {
                        self.tab_before = false;
                        return self.fetch_flow_scalar(true);
                    }
                    return Ok(());
                }
                self.not_a_key(at)?;
                self.push_plain(start, end);
                return Ok(());
            }
            let token = self.scan_plain_general()?;
            if self.line == at.1 && self.ch() == b':' && self.blankz_at(1) {
                return self.fetch_key_and_value(token, at);
            }
            self.not_a_key(at)?;
            self.tokens.push_back(token);
            return Ok(());
        }
        self.fetch_plain_value()
    }

    /// A plain scalar where no implicit key starts (flow context, or after a key's `:`
    /// on its line).
    #[inline(always)]
    fn fetch_plain_value(&mut self) -> Result<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        if let Some((start, end)) = self.scan_plain_fast() {
            self.push_plain(start, end);
            return Ok(());
        }
        let token = self.scan_plain_general()?;
        self.tokens.push_back(token);
        Ok(())
    }

    /// Whether the parser may take a token straight from the input, past the queue: in
    /// block context, nothing queued, and no implicit key pending (so no token could be
    /// inserted before the next one).
    #[inline(always)]
    fn queue_bypassable(&self) -> bool {
        #[cfg(test)]
        if !self.in_place {
            return false;
        }
        self.tokens.is_empty()
            && self.flow_level == 0
            && self.simple_keys.len() == 1
            && !self.simple_keys[0].possible
    }

    /// The scanner's position and line state, for an in-place read to put back when it
    /// leaves the token to the queue.
    #[inline(always)]
    fn line_state(&self) -> LineState {
        LineState {
            pos: self.pos,
            line: self.line,
            line_start: self.line_start,
            simple_key_allowed: self.simple_key_allowed,
            tab_in_indentation: self.tab_in_indentation,
        }
    }

    #[inline(always)]
    fn restore(&mut self, state: LineState) {
        self.pos = state.pos;
        self.line = state.line;
        self.line_start = state.line_start;
        self.simple_key_allowed = state.simple_key_allowed;
        self.tab_in_indentation = state.tab_in_indentation;
    }

    /// For an in-place read: what `scan_to_next_token` does when only a line break and
    /// the next line's spaces come before the next token (anything more, and the queue
    /// does it), or, at the start of a line already, what it does there first.
    #[inline(always)]
    fn skip_to_line_content_in_place(&mut self) {
        if is_break(self.ch()) {
            self.skip_break();
            self.pos = skip_spaces(self.b, self.pos);
            self.simple_key_allowed = true;
            self.tab_in_indentation = false;
        } else if self.col() == 0 {
            self.tab_in_indentation = false;
        }
    }

    /// For an in-place read of a token that starts a line at the indentation of the
    /// open block collection: [`Scanner::skip_to_line_content_in_place`], then whether the
    /// scanner is at such a token: a plain scalar may start here, the line is no `---`
    /// line, and no tab came before it.
    #[inline(always)]
    fn at_line_token_in_place(&mut self) -> bool {
        self.skip_to_line_content_in_place();
        self.simple_key_allowed
            && !self.tab_in_indentation
            && self.col() as isize == self.indent
            && self.line != self.document_start_line
    }

    // [192] ns-l-block-map-implicit-entry(n) ::= ( ns-s-block-map-implicit-key | e-node )
    //                                           c-l-block-map-implicit-value(n)
    /// The next key of the open block mapping when it is the common one-line plain
    /// `key:` at the mapping's indentation, read straight from the input: the key's
    /// span and where its `:` is. It may follow the line break that ended the last
    /// value. The scanner ends where queueing the key's token and consuming it would
    /// have left it. `None` (leaving the scanner as it was) for anything else, which
    /// the token queue then reads.
    ///
    /// A reader that expects a certain key passes it as `guess` (or an empty one): when
    /// the line starts with it and its `:`, the key is taken without scanning it, and the
    /// answer's last field says so.
    #[inline]
    pub(crate) fn block_key_in_place(&mut self, guess: &[u8]) -> Option<KeyInPlace> {
        if !self.queue_bypassable() {
            return None;
        }
        let before = self.line_state();
        let scanned =
            if self.at_line_token_in_place() && starts_plain_at_once(self.ch(), self.peek(1)) {
                if self.guessed_key_here(guess) {
                    let start = self.pos;
                    self.pos += guess.len();
                    Some((start, self.pos, true, true))
                } else {
                    self.scan_plain_on_line()
                        .map(|(start, end, key)| (start, end, key, false))
                }
            } else {
                None
            };
        match scanned {
            Some((start, end, true, guessed)) => {
                let colon = self.pos;
                self.tab_before = false;
                self.after_key_colon();
                self.tokens_parsed += 1;
                Some(KeyInPlace {
                    start,
                    end,
                    colon,
                    guessed,
                })
            }
            _ => {
                self.restore(before);
                None
            }
        }
    }

    /// Whether the plain scalar at the current position is the block key `guess`: the
    /// input has `guess`, then `:` and a blank, a line break or the end, and the first
    /// run of plain characters (what scanning the scalar reads first) ends at that `:`.
    /// The caller has checked that a plain scalar starts here. Comparing costs less
    /// than scanning, which looks further for what may end a scalar.
    #[inline(always)]
    fn guessed_key_here(&mut self, guess: &[u8]) -> bool {
        let (b, p, n) = (self.b, self.pos, guess.len());
        // A key over 1024 bytes is an error the queue reports.
        let found = n != 0
            && n <= 1024
            && b.get(p + n) == Some(&b':')
            && self.blankz_at(n + 1)
            && same_bytes(&b[p..p + n], guess)
            && in_plain_run(b, p, n)
            && !(p == self.line_start && self.at_document_marker());
        #[cfg(debug_assertions)]
        if found {
            // The scan the guess stands in for finds the same key.
            let before = self.line_state();
            let scanned = self.scan_plain_on_line();
            self.restore(before);
            assert_eq!(
                scanned,
                Some((before.pos, before.pos + n, true)),
                "a guessed key scans differently"
            );
        }
        found
    }

    /// The one-line plain scalar at the current position, scanned for an in-place read:
    /// its span, and whether it is an implicit block key (its `:` and a blank follow on
    /// its line). `None` where the general path scans it, and for a key over 1024 bytes
    /// (an error the queue reports).
    #[inline(always)]
    fn scan_plain_on_line(&mut self) -> Option<(usize, usize, bool)> {
        let line = self.line;
        let (start, end) = self.scan_plain_fast()?;
        let key = self.line == line && self.ch() == b':' && self.blankz_at(1);
        if key && self.pos - start > 1024 {
            return None;
        }
        Some((start, end, key))
    }

    /// Opens a block collection at the current position for an in-place read, as
    /// `open_block` does when a token there starts one (the collection's start token
    /// counted as consumed). `false`, changing nothing, at the depth limit (the queue
    /// then reports it).
    #[inline]
    fn open_block_in_place(&mut self) -> bool {
        if self.indents.len() >= self.max_depth {
            return false;
        }
        self.indents.push(self.indent);
        self.indent = self.col() as isize;
        self.tokens_parsed += 1;
        true
    }

    /// Whether the plain scalar at the current position is a block key (see
    /// [`Scanner::scan_plain_on_line`]). Scans it and puts the position back when it
    /// stayed on its line.
    #[inline]
    fn plain_key_here(&mut self) -> bool {
        let (start, line) = (self.pos, self.line);
        let key = starts_plain_at_once(self.ch(), self.peek(1))
            && matches!(self.scan_plain_on_line(), Some((_, _, true)));
        if self.line == line {
            self.pos = start;
        }
        key
    }

    /// The end of the innermost block collection, read in place when the next line's
    /// content starts left of its indentation after only a line break and spaces (or
    /// with the scanner there already), or the input ends there: where the content
    /// starts (or the input ends), which the queue's
    /// `BlockEnd` token would have spanned. The scanner closes that one collection, as
    /// `unroll_indent` does for each; `None` (leaving the scanner as it was) for
    /// anything else.
    #[inline]
    pub(crate) fn block_end_in_place(&mut self) -> Option<usize> {
        if !self.queue_bypassable() {
            return None;
        }
        let before = self.line_state();
        self.skip_to_line_content_in_place();
        let c = self.ch();
        let closes = if self.at_end() {
            // The end of the input closes every open collection.
            self.indent >= 0
        } else {
            c > b' ' && c < 0x80 && c != b'#' && (self.col() as isize) < self.indent
        };
        if !closes {
            self.restore(before);
            return None;
        }
        self.tab_before = false;
        self.indent = self.indents.pop().unwrap_or(-1);
        self.tokens_parsed += 1;
        Some(self.pos)
    }

    // [184] c-l-block-seq-entry(n) ::= c-sequence-entry [ lookahead ≠ ns-char ]
    //                                 s-l+block-indented(n,BLOCK-IN)
    /// The next entry of the open block sequence, read straight from the input when it
    /// is `- ` and a one-line plain scalar that is no key ([`InPlace::Scalar`]), or
    /// `- ` and a plain `key:` that starts a mapping ([`InPlace::Mapping`], the
    /// scanner then at the key). It may follow the line break that ended the last
    /// entry. The scanner ends where queueing the entry's tokens and consuming them
    /// would have left it; `None` (leaving the scanner as it was) for anything else.
    #[inline]
    pub(crate) fn block_entry_in_place(&mut self) -> Option<InPlace> {
        if !self.queue_bypassable() {
            return None;
        }
        let before = self.line_state();
        if !(self.at_line_token_in_place()
            && self.ch() == b'-'
            && self.peek(1) == b' '
            && starts_plain_at_once(self.peek(2), self.peek(3)))
        {
            self.restore(before);
            return None;
        }
        // `fetch_block_entry`, then `fetch_plain_scalar` after the one space.
        self.pos += 2;
        let at = self.pos;
        self.simple_key_allowed = false;
        let Some((start, end, key)) = self.scan_plain_on_line() else {
            self.restore(before);
            return None;
        };
        if key {
            // A mapping starts here; its key is read again in the next step.
            self.pos = at;
            self.simple_key_allowed = true;
            if !self.open_block_in_place() {
                self.restore(before);
                return None;
            }
            self.tab_before = false;
            self.tokens_parsed += 1;
            return Some(InPlace::Mapping(at));
        }
        self.tab_before = false;
        self.tokens_parsed += 2;
        Some(InPlace::Scalar(start, end, ScalarStyle::Plain))
    }

    // [194] c-l-block-map-implicit-value(n) ::= c-mapping-value
    //           ( s-l+block-node(n,BLOCK-OUT) | ( e-node s-l-comments ) )
    /// A block mapping's value right after its key's `:`, read straight from the
    /// input: on the same line, a one-line plain scalar or a one-line double-quoted
    /// one without escapes ([`InPlace::Scalar`]); on the next line, further indented,
    /// a plain `key:` or a `- ` that starts a collection ([`InPlace::Mapping`],
    /// [`InPlace::Sequence`], the scanner then at its first token). The scanner ends
    /// where queueing the tokens and consuming them would have left it; `None`
    /// (leaving the scanner as it was) for anything else.
    #[inline]
    pub(crate) fn value_in_place(&mut self) -> Option<InPlace> {
        if !self.queue_bypassable()
            || self.simple_key_allowed
            || self.col() == 0
            || self.col() as isize <= self.indent
        {
            return None;
        }
        let c = self.ch();
        let value = if starts_plain_at_once(c, self.peek(1)) {
            let (start, end) = self.scan_plain_fast()?;
            InPlace::Scalar(start, end, ScalarStyle::Plain)
        } else if c == b'"' {
            let close = self.double_quoted_on_line()?;
            // Content after the scalar is an error the queue reports.
            self.end_of_flow_node(close + 1).ok()?;
            let start = self.pos;
            self.pos = close + 1;
            self.json_token_number = self.tokens_parsed + 1;
            InPlace::Scalar(start, close + 1, ScalarStyle::DoubleQuoted)
        } else if is_break(c) {
            return self.nested_collection_in_place();
        } else {
            return None;
        };
        self.tab_before = false;
        self.tokens_parsed += 1;
        Some(value)
    }

    /// Whether a bare document's root may be read in place here: nothing is queued, no
    /// block is open, and the first line starts at its first column with what opens a
    /// block collection or a plain scalar (no `---`, `...`, directive, comment or
    /// blank line). The next token is then no document marker, directive or stream end.
    #[inline]
    pub(crate) fn bare_root_ahead(&self) -> bool {
        let (c, next) = (self.ch(), self.peek(1));
        self.queue_bypassable()
            && self.indent == -1
            && self.pos == self.line_start
            && self.simple_key_allowed
            && (starts_plain_at_once(c, next) || (c == b'-' && next == b' '))
            && !self.at_document_marker()
    }

    /// A bare document's root block collection, read in place at the start of its
    /// first line: a mapping whose first key is a one-line plain `key:`, or a sequence
    /// at its first `- ` ([`InPlace::Mapping`], [`InPlace::Sequence`], the scanner then
    /// at that first token, as `open_block` leaves it). `None` (leaving the scanner as it
    /// was) for anything else.
    #[inline]
    pub(crate) fn root_collection_in_place(&mut self) -> Option<InPlace> {
        if !self.bare_root_ahead() {
            return None;
        }
        let before = self.line_state();
        self.collection_here_in_place(before)
    }

    /// [`Scanner::value_in_place`] at the line break after a key's `:`: a collection
    /// that starts on the next line, further indented.
    #[inline]
    fn nested_collection_in_place(&mut self) -> Option<InPlace> {
        let before = self.line_state();
        let indent = self.indent;
        self.skip_to_line_content_in_place();
        if self.col() as isize <= indent || self.line == self.document_start_line {
            self.restore(before);
            return None;
        }
        self.collection_here_in_place(before)
    }

    /// A block collection whose first token is here, opened in place: a sequence at
    /// `- `, or a mapping at a one-line plain `key:`. Anything else (or the depth
    /// limit) puts the scanner back to `before`.
    #[inline(always)]
    fn collection_here_in_place(&mut self, before: LineState) -> Option<InPlace> {
        let at = self.pos;
        let start = if self.ch() == b'-' && self.peek(1) == b' ' {
            Some(InPlace::Sequence(at))
        } else if self.plain_key_here() {
            Some(InPlace::Mapping(at))
        } else {
            None
        };
        match start {
            Some(start) if self.open_block_in_place() => {
                self.tab_before = false;
                Some(start)
            }
            _ => {
                self.restore(before);
                None
            }
        }
    }

    /// Queues the plain scalar `start..end` (one line, as the input has it).
    #[inline]
    fn push_plain(&mut self, start: usize, end: usize) {
        self.tokens
            .push_plain(false, &self.src[start..end], start, end);
    }

    /// In block context, a scalar whose `:` does not follow on its line is no implicit
    /// key; at the indentation of a block mapping it had to be one.
    fn not_a_key(&mut self, (pos, _, col, _): (usize, usize, usize, bool)) -> Result<()> {
        self.remove_simple_key()?;
        if self.indent == col as isize {
            return Err(self.error(ErrorKind::SimpleKeyWithoutValue, pos));
        }
        Ok(())
    }

    /// A block mapping key known to be one (its `:` follows on its line): pushes
    /// `KEY`, the key's token and `VALUE` in order, opening a mapping if needed.
    fn fetch_key_and_value(
        &mut self,
        token: Token<'a>,
        at: (usize, usize, usize, bool),
    ) -> Result<()> {
        self.key_checks(at)?;
        let kind = match token.kind {
            TokenKind::Scalar(value, style) => TokenKind::KeyScalar(value, style),
            other => other,
        };
        self.push(kind, token.start, token.end);
        self.after_key_colon();
        Ok(())
    }

    /// The rules for an implicit block key that starts at `(pos, line, col, tab_before)`
    /// and whose `:` is next; opens a block mapping if the key is the first.
    #[inline(always)]
    fn key_checks(
        &mut self,
        (pos, line, col, tab_before): (usize, usize, usize, bool),
    ) -> Result<()> {
        self.remove_simple_key()?;
        if line == self.document_start_line {
            return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
        }
        if self.pos - pos > 1024 {
            // Implicit keys are limited to 1024 characters.
            return Err(self.error(ErrorKind::SimpleKeyWithoutValue, pos));
        }
        if tab_before && self.indent < col as isize {
            return Err(self.error(ErrorKind::TabIndentation, pos));
        }
        self.roll_indent(col, None, TokenKind::BlockMappingStart, pos)
    }

    /// Consumes a block key's `:` (and the usual single space after it).
    #[inline(always)]
    fn after_key_colon(&mut self) {
        self.pos += 1;
        self.simple_key_allowed = false;
        if self.ch() == b' ' && self.peek(1) > b' ' && self.peek(1) != b'#' {
            self.pos += 1;
        }
    }

    /// In debug builds (tests, fuzzing), the fast path must agree with the general one.
    #[cfg(debug_assertions)]
    fn check_plain_fast(&mut self, (start, end): (usize, usize)) {
        let token = &self.plain_token(start, end);
        let after = (
            self.pos,
            self.line,
            self.line_start,
            self.simple_key_allowed,
            self.tab_in_indentation,
        );
        self.pos = token.start;
        (
            self.line,
            self.line_start,
            self.simple_key_allowed,
            self.tab_in_indentation,
        ) = self.before_fast;
        let general = self
            .scan_plain_general()
            .expect("the fast path only takes valid scalars");
        assert_eq!(&general, token, "fast and general plain scalars differ");
        let now = (
            self.pos,
            self.line,
            self.line_start,
            self.simple_key_allowed,
            self.tab_in_indentation,
        );
        assert_eq!(
            now, after,
            "fast and general plain scalars end in different places"
        );
    }

    /// The plain scalar of one line (the common case), or `None` to take the general
    /// path: no continuation line, no tab, nothing unusual. Leaves the scanner where the
    /// general path would.
    #[inline]
    fn scan_plain_fast(&mut self) -> Option<(usize, usize)> {
        let span = self.scan_plain_one_line()?;
        #[cfg(debug_assertions)]
        self.check_plain_fast(span);
        Some(span)
    }

    // [133] ns-plain-one-line(c) ::= ns-plain-first(c) nb-ns-plain-in-line(c)
    // [132] nb-ns-plain-in-line(c) ::= ( s-white* ns-plain-char(c) )*
    /// [`Scanner::scan_plain_fast`] without the debug check: the scalar's span.
    #[inline]
    fn scan_plain_one_line(&mut self) -> Option<(usize, usize)> {
        let b = self.b;
        let flow = self.flow_level > 0;
        let table = if flow {
            &PLAIN_STOP_FLOW
        } else {
            &PLAIN_STOP_BLOCK
        };
        let start = self.pos;
        if self.pos == self.line_start && self.at_document_marker() {
            return None;
        }
        #[cfg(debug_assertions)]
        {
            self.before_fast = (
                self.line,
                self.line_start,
                self.simple_key_allowed,
                self.tab_in_indentation,
            );
        }
        let mut p = start;
        // The end of the content so far (before any white space).
        let mut last = start;
        loop {
            let run = p;
            p = if flow {
                skip_plain_run(b, p, table)
            } else {
                skip_plain_run_block(b, p)
            };
            let Some(&c) = b.get(p) else {
                // The end of the input.
                let span = (start, if p == run { last } else { p });
                self.pos = p;
                return Some(span);
            };
            if c == b':' {
                let ends = match b.get(p + 1) {
                    None => true,
                    Some(&n) => is_blank(n) || is_break(n) || (flow && is_flow_indicator(n)),
                };
                if !ends {
                    p += 1;
                    last = p;
                    continue;
                }
                let span = (start, if p == run { last } else { p });
                self.pos = p;
                return Some(span);
            }
            if p > run {
                last = p;
            }
            match c {
                b' ' => {
                    let mut q = p + 1;
                    while b.get(q) == Some(&b' ') {
                        q += 1;
                    }
                    match b.get(q) {
                        None | Some(b'#') => {
                            let span = (start, last);
                            self.pos = q;
                            return Some(span);
                        }
                        Some(b'\n' | b'\r') => {
                            p = q;
                            break;
                        }
                        Some(b'\t' | 0) => return None,
                        Some(&n) if flow && is_flow_indicator(n) => {
                            let span = (start, last);
                            self.pos = q;
                            return Some(span);
                        }
                        Some(_) => p = q,
                    }
                }
                b'\n' | b'\r' => break,
                b',' | b'[' | b']' | b'{' | b'}' => {
                    let span = (start, last);
                    self.pos = p;
                    return Some(span);
                }
                _ => return None,
            }
        }
        // At a line break after the content: the scalar ends unless the next line
        // with content continues it (then the general path folds it).
        if flow {
            return None;
        }
        let (mut q, mut line) = (p, self.line);
        let mut line_start;
        loop {
            q += if b[q] == b'\r' && b.get(q + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            line += 1;
            line_start = q;
            q = skip_spaces(b, q);
            match b.get(q) {
                Some(b'\n' | b'\r') => continue,
                Some(b'\t' | 0) => return None,
                None => break,
                Some(&c) => {
                    let col = (q - line_start) as isize;
                    let marker = col == 0
                        && b.len() >= q + 3
                        && (&b[q..q + 3] == b"---" || &b[q..q + 3] == b"...")
                        && !matches!(b.get(q + 3), Some(&c) if !is_blank(c) && !is_break(c));
                    if col <= self.indent || c == b'#' || marker {
                        break;
                    }
                    return None;
                }
            }
        }
        let span = (start, last);
        self.pos = q;
        self.line = line;
        self.line_start = line_start;
        self.simple_key_allowed = true;
        self.tab_in_indentation = false;
        Some(span)
    }

    #[cfg(debug_assertions)]
    fn plain_token(&self, start: usize, end: usize) -> Token<'a> {
        Token {
            kind: TokenKind::Scalar(Cow::Borrowed(&self.src[start..end]), ScalarStyle::Plain),
            start,
            end,
        }
    }

    // [135] ns-plain-multi-line(n,c) ::= ns-plain-one-line(c) s-ns-plain-next-line(n,c)*
    // [134] s-ns-plain-next-line(n,c) ::= s-flow-folded(n) ns-plain-char(c) nb-ns-plain-in-line(c)
    fn scan_plain_general(&mut self) -> Result<Token<'a>> {
        let start = self.pos;
        let indent = self.indent + 1;
        let table = if self.flow_level > 0 {
            &PLAIN_STOP_FLOW
        } else {
            &PLAIN_STOP_BLOCK
        };
        let mut owned: Option<String> = None;
        let mut end = self.pos;
        let mut pending_breaks = 0usize;
        let mut pending_ws = self.pos;
        let mut tab_on_line = false;
        loop {
            if self.ch() == b'#' || (self.pos == self.line_start && self.at_document_marker()) {
                break;
            }
            let run = self.pos;
            loop {
                let rest = &self.b[self.pos..];
                self.pos += rest
                    .iter()
                    .position(|&c| table[c as usize])
                    .unwrap_or(rest.len());
                let c = self.ch();
                if c == b':' {
                    let n = self.peek(1);
                    let ends = match self.b.get(self.pos + 1) {
                        None => true,
                        Some(_) => {
                            is_blank(n)
                                || is_break(n)
                                || (self.flow_level > 0 && is_flow_indicator(n))
                        }
                    };
                    if !ends {
                        self.pos += 1;
                        continue;
                    }
                }
                if c == 0 && !self.at_end() {
                    return Err(self.error(ErrorKind::ForbiddenCharacter('\0'), self.pos));
                }
                break;
            }
            if self.pos == run {
                break;
            }
            // Join the run to what came before.
            if pending_breaks > 0 {
                let buf = owned.get_or_insert_with(|| self.src[start..end].to_owned());
                fold(buf, pending_breaks);
                buf.push_str(&self.src[run..self.pos]);
            } else if let Some(buf) = owned.as_mut() {
                buf.push_str(&self.src[pending_ws..self.pos]);
            }
            end = self.pos;
            pending_breaks = 0;
            pending_ws = self.pos;
            // White space and line breaks.
            if !is_blank(self.ch()) && !is_break(self.ch()) {
                break;
            }
            loop {
                match self.ch() {
                    b' ' => self.pos += 1,
                    b'\t' => {
                        tab_on_line = true;
                        self.pos += 1;
                    }
                    b'\n' | b'\r' => {
                        self.skip_break();
                        pending_breaks += 1;
                        tab_on_line = false;
                    }
                    _ => break,
                }
            }
            if pending_breaks > 0 {
                if self.flow_level == 0 && (self.col() as isize) < indent {
                    break;
                }
                // Tabs may separate but not indent a continuation line.
                let line = &self.b[self.line_start..self.pos];
                let spaces = line.iter().take_while(|&&c| c == b' ').count();
                if tab_on_line
                    && self.flow_level == 0
                    && (spaces as isize) < indent
                    && !self.at_end()
                    && !is_break(self.ch())
                {
                    return Err(self.error(ErrorKind::TabIndentation, self.line_start + spaces));
                }
                if self.flow_level > 0 && (self.col() as isize) <= self.indents_top_for_flow() {
                    // Flow content must be indented more than the enclosing block.
                    if !self.at_end() {
                        return Err(self.error(ErrorKind::InvalidIndentation, self.pos));
                    }
                }
            }
            if self.at_end() {
                break;
            }
        }
        if pending_breaks > 0 {
            self.simple_key_allowed = true;
            if self.flow_level == 0 {
                // The white space before the next token started on a fresh line.
                self.tab_in_indentation = tab_on_line;
            }
        }
        let value = match owned {
            Some(buf) => Cow::Owned(buf),
            None => Cow::Borrowed(&self.src[start..end]),
        };
        Ok(Token {
            kind: TokenKind::Scalar(value, ScalarStyle::Plain),
            start,
            end,
        })
    }

    /// The indentation of the block collection enclosing the current flow collection.
    fn indents_top_for_flow(&self) -> isize {
        self.indent
    }
}

// [73] b-l-folded(n,c) ::= b-l-trimmed(n,c) | b-as-space
// [71] b-l-trimmed(n,c) ::= b-non-content l-empty(n,c)+
/// Appends the folding of `breaks` line breaks: one is a space, more are newlines.
fn fold(buf: &mut String, breaks: usize) {
    if breaks == 1 {
        buf.push(' ');
    } else {
        for _ in 1..breaks {
            buf.push('\n');
        }
    }
}

// The `( '%' ns-hex-digit{2} )` of [39] ns-uri-char.
/// Decodes `%XX` escapes of a tag (borrowed when there are none).
fn decode_uri(s: &str) -> Option<Cow<'_, str>> {
    if !s.contains('%') {
        return Some(Cow::Borrowed(s));
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time run skipper stops where the byte loop stops: one byte of every
    /// value at every offset of a 19-byte run, and pairs of candidates (a borrow out of
    /// one flagged byte must not hide or fake the first stop).
    #[test]
    fn block_run_skipper_agrees_with_the_byte_loop() {
        let interesting = [
            0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x3A, 0x3B, 0x39, 0x7F, 0x80, 0xFF,
        ];
        for len in [0, 1, 7, 8, 9, 16, 19] {
            for i in 0..len {
                for v in 0..=255u8 {
                    let mut run = vec![b'a'; len];
                    run[i] = v;
                    let expected = skip_plain_run(&run, 0, &PLAIN_STOP_BLOCK);
                    assert_eq!(skip_plain_run_block(&run, 0), expected, "{run:?}");
                }
                for j in i + 1..len {
                    for &v in &interesting {
                        for &w in &interesting {
                            let mut run = vec![b'a'; len];
                            run[i] = v;
                            run[j] = w;
                            for start in 0..=i {
                                let expected = skip_plain_run(&run, start, &PLAIN_STOP_BLOCK);
                                assert_eq!(skip_plain_run_block(&run, start), expected, "{run:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// `in_plain_run` never says yes where the byte loop stops inside the span, and says
    /// yes wherever the span holds only bytes from `!` up, but `:`: one byte of every
    /// value at every offset, every span from every start, inputs shorter and longer
    /// than a word.
    #[test]
    fn in_plain_run_agrees_with_the_byte_loop() {
        for len in [1, 7, 8, 9, 12, 17] {
            for i in 0..len {
                for v in 0..=255u8 {
                    let mut run = vec![b'a'; len];
                    run[i] = v;
                    for p in 0..len {
                        for n in 1..=len - p {
                            let stop = skip_plain_run(&run, p, &PLAIN_STOP_BLOCK);
                            let clean = run[p..p + n].iter().all(|&c| c > b' ' && c != b':');
                            let said = in_plain_run(&run, p, n);
                            assert!(!said || stop >= p + n, "{run:?} {p} {n}");
                            assert!(!clean || said, "{run:?} {p} {n}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tokens_and_props_stay_small() {
        // They move through the queue and every builder call: keep them a few words.
        assert!(std::mem::size_of::<Token<'_>>() <= 48);
        assert!(std::mem::size_of::<crate::yaml::builder::Props<'_>>() <= 24);
    }
}
