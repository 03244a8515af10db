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
//!
//! The scanner's state and its main loop are here; each child module adds the steps of
//! one concern to `impl Scanner`: `queue` (the token queue, the parser's pulls from it,
//! implicit keys), `blocks` (indentation, block and flow collections and their
//! indicators), `directives` (directives, document markers, tags, anchors and aliases),
//! `scalars` (quoted and block scalars), `plain` (plain scalars and their byte tables)
//! and `in_place` (the reads past the queue that the parser takes where no token could
//! be inserted before the next one).

use std::borrow::Cow;

use crate::common::{skip_spaces, Span};

use super::builder::ScalarStyle;
use super::{Error, ErrorKind};

mod blocks;
mod directives;
mod in_place;
mod plain;
mod queue;
mod scalars;

pub(crate) use in_place::{InPlace, KeyInPlace};
use queue::TokenQueue;

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

/// How many items the scanner's and the parser's stacks (and the token queue) have
/// room for from the start: a document eight levels deep or less never grows them.
pub(super) const INITIAL_ROOM: usize = 8;

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
            tokens: TokenQueue::with_capacity(INITIAL_ROOM),
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_props_stay_small() {
        // They move through the queue and every builder call: keep them a few words.
        assert!(std::mem::size_of::<Token<'_>>() <= 48);
        assert!(std::mem::size_of::<crate::yaml::builder::Props<'_>>() <= 24);
    }
}
