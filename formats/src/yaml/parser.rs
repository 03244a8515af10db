//! The one YAML parser, generic over a [`YamlBuilder`].
//!
//! A state machine over the scanner's tokens (the grammar of YAML 1.2 chapters 6–9,
//! in libyaml's proven shape): each step emits one event straight to the builder.
//! Open collections live on heap stacks, so no input can overflow the thread's
//! stack; the depth and alias-expansion limits are checked here, in the core,
//! whatever the builder.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::common::{validate_utf8, Limits, Span};

use super::builder::{
    CollectionStyle, DocumentStart, Props, ScalarStyle, Tag, YamlBuilder, CORE_PREFIX,
};
use super::raw::{resolve_plain, resolve_scalar, RawValueBuilder};
use super::scanner::{Scanner, Token, TokenKind};
use super::{Error, ErrorKind};
use quarry_raw_value::{Fallback, PullSource, RawValue, Text, ValueKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StreamStart,
    /// A document may start; `bool`: a bare document (no `---`) is allowed here.
    DocumentStart(bool),
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    /// After a `KeyScalar` token: the value, its `:` already read.
    BlockMappingValueAfterKey,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

/// Parses the YAML stream `input` into `builder` under `limits`.
pub fn parse_with<'a, B: YamlBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<(), Error> {
    Parser::new(input, limits, B::WANTS_COMMENTS)?.run(builder)
}

/// The YAML parser over one input.
pub struct Parser<'a> {
    scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    limits: Limits,
    tag_directives: Vec<(&'a str, Cow<'a, str>)>,
    /// Open collections: the node count when each opened, and its anchor.
    open: Vec<(u64, Option<&'a str>)>,
    /// Anchors of this document and how many nodes each stands for.
    anchors: HashMap<&'a str, u64>,
    nodes: u64,
    expanded: u64,
    last_end: usize,
    /// Where the `:` of the last `KeyScalar` ended.
    colon_end: usize,
}

impl std::fmt::Debug for Parser<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parser")
            .field("state", &self.state)
            .finish()
    }
}

impl<'a> Parser<'a> {
    /// Checks the size limit and UTF-8 validity of `input` and skips a leading BOM.
    pub fn new(input: &'a [u8], limits: Limits, comments: bool) -> Result<Self, Error> {
        if input.len() > limits.max_document_size {
            return Err(Error::new(
                ErrorKind::DocumentSizeLimitReached(limits.max_document_size),
                input,
                0,
            ));
        }
        let src = match validate_utf8(input) {
            Ok(src) => src,
            Err(at) => return Err(Error::new(ErrorKind::InvalidUtf8, input, at)),
        };
        let offset = if src.starts_with('\u{feff}') { 3 } else { 0 };
        Ok(Parser {
            scanner: Scanner::new(input, src, offset, limits.max_depth, comments),
            state: State::StreamStart,
            states: Vec::new(),
            limits,
            tag_directives: Vec::new(),
            open: Vec::new(),
            anchors: HashMap::new(),
            nodes: 0,
            expanded: 0,
            last_end: offset,
            colon_end: offset,
        })
    }

    /// The source text (the input as UTF-8).
    pub fn src(&self) -> &'a str {
        self.scanner.src()
    }

    /// Runs the whole stream into `builder`.
    pub fn run<B: YamlBuilder<'a>>(&mut self, builder: &mut B) -> Result<(), Error> {
        while self.state != State::End {
            self.step(builder)?;
        }
        self.flush_comments(builder);
        Ok(())
    }

    #[inline]
    fn peek(&mut self) -> Result<&Token<'a>, Error> {
        self.scanner.peek_token()
    }

    #[inline]
    fn next(&mut self) -> Result<Token<'a>, Error> {
        let token = self.scanner.next_token()?;
        if token.end > self.last_end {
            self.last_end = token.end;
        }
        Ok(token)
    }

    /// Takes the (already peeked) next token, a scalar or key: its text, style and span.
    #[inline(always)]
    fn take_scalar(&mut self) -> (Cow<'a, str>, ScalarStyle, usize, usize) {
        let taken = self.scanner.take_scalar();
        if taken.3 > self.last_end {
            self.last_end = taken.3;
        }
        taken
    }

    /// Consumes the (already peeked) next token, returning where it ends.
    #[inline]
    fn skip(&mut self) -> Result<usize, Error> {
        let end = self.scanner.skip_token()?;
        if end > self.last_end {
            self.last_end = end;
        }
        Ok(end)
    }

    #[cold]
    fn unexpected(&self, expected: &'static str, token: &Token<'a>) -> Error {
        self.scanner.error(
            ErrorKind::UnexpectedToken {
                expected,
                found: token.kind.describe(),
            },
            token.start,
        )
    }

    #[inline]
    fn emit(&self, result: Result<(), ErrorKind>, at: usize) -> Result<(), Error> {
        result.map_err(|kind| self.scanner.error(kind, at))
    }

    fn flush_comments<B: YamlBuilder<'a>>(&mut self, builder: &mut B) {
        if B::WANTS_COMMENTS && !self.scanner.comments.is_empty() {
            let src = self.scanner.src();
            for span in self.scanner.comments.drain(..) {
                builder.comment(&src[span.start + 1..span.end], span);
            }
        }
    }

    fn step<B: YamlBuilder<'a>>(&mut self, b: &mut B) -> Result<(), Error> {
        if B::WANTS_COMMENTS {
            self.flush_comments(b);
        }
        match self.state {
            State::StreamStart => {
                let token = self.next()?;
                debug_assert_eq!(token.kind, TokenKind::StreamStart);
                self.state = State::DocumentStart(true);
                Ok(())
            }
            State::DocumentStart(bare) => self.document_start(b, bare),
            State::DocumentContent => {
                let token = self.peek()?;
                if matches!(
                    token.kind,
                    TokenKind::VersionDirective(..)
                        | TokenKind::TagDirective(..)
                        | TokenKind::DocumentStart
                        | TokenKind::DocumentEnd
                        | TokenKind::StreamEnd
                ) {
                    let at = token.start;
                    self.state = self.pop_state();
                    self.empty_scalar(b, Props::default(), at)
                } else {
                    self.node(b, true, false)
                }
            }
            State::DocumentEnd => {
                let token = self.peek()?;
                let start = token.start;
                let explicit = matches!(token.kind, TokenKind::DocumentEnd);
                let end = if explicit {
                    self.next()?.end
                } else {
                    match token.kind {
                        TokenKind::DocumentStart | TokenKind::StreamEnd => {}
                        TokenKind::VersionDirective(..) | TokenKind::TagDirective(..) => {
                            return Err(self.scanner.error(
                                ErrorKind::InvalidDirective("a directive needs `...` before it"),
                                start,
                            ))
                        }
                        _ => {
                            let token = token.clone();
                            return Err(self.unexpected("the end of the document", &token));
                        }
                    }
                    start
                };
                self.state = State::DocumentStart(explicit);
                self.emit(b.document_end(explicit, Span::new(start, end)), start)
            }
            State::BlockNode => self.node(b, true, false),
            State::BlockSequenceFirstEntry => {
                self.skip()?; // BLOCK-SEQUENCE-START
                self.block_sequence_entry(b)
            }
            State::BlockSequenceEntry => self.block_sequence_entry(b),
            State::IndentlessSequenceEntry => self.indentless_sequence_entry(b),
            State::BlockMappingFirstKey => {
                self.skip()?; // BLOCK-MAPPING-START
                self.block_mapping_key(b)
            }
            State::BlockMappingKey => self.block_mapping_key(b),
            State::BlockMappingValue => self.block_mapping_value(b),
            State::BlockMappingValueAfterKey => {
                self.block_mapping_value_after_colon(b, self.colon_end)
            }
            State::FlowSequenceFirstEntry => {
                self.skip()?; // `[`
                self.flow_sequence_entry(b, true)
            }
            State::FlowSequenceEntry => self.flow_sequence_entry(b, false),
            State::FlowSequenceEntryMappingKey => {
                let token = self.peek()?;
                if matches!(
                    token.kind,
                    TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
                ) {
                    let at = token.start;
                    self.state = State::FlowSequenceEntryMappingValue;
                    self.empty_scalar(b, Props::default(), at)
                } else {
                    self.node_then(b, State::FlowSequenceEntryMappingValue, false, false)
                }
            }
            State::FlowSequenceEntryMappingValue => {
                let token = self.peek()?;
                if matches!(token.kind, TokenKind::Value) {
                    self.skip()?;
                    let token = self.peek()?;
                    if !matches!(
                        token.kind,
                        TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
                    ) {
                        return self.node_then(b, State::FlowSequenceEntryMappingEnd, false, false);
                    }
                }
                let at = self.peek()?.start;
                self.state = State::FlowSequenceEntryMappingEnd;
                self.empty_scalar(b, Props::default(), at)
            }
            State::FlowSequenceEntryMappingEnd => {
                self.state = State::FlowSequenceEntry;
                let end = self.last_end;
                self.end_collection(b, false, end)
            }
            State::FlowMappingFirstKey => {
                self.skip()?; // `{`
                self.flow_mapping_key(b, true)
            }
            State::FlowMappingKey => self.flow_mapping_key(b, false),
            State::FlowMappingValue => self.flow_mapping_value(b, false),
            State::FlowMappingEmptyValue => self.flow_mapping_value(b, true),
            State::End => Ok(()),
        }
    }

    fn pop_state(&mut self) -> State {
        self.states.pop().unwrap_or(State::End)
    }

    fn document_start<B: YamlBuilder<'a>>(&mut self, b: &mut B, bare: bool) -> Result<(), Error> {
        // Extra `...` between documents are allowed.
        let mut bare = bare;
        while matches!(self.peek()?.kind, TokenKind::DocumentEnd) {
            self.skip()?;
            bare = true;
        }
        let token = self.peek()?;
        let start = token.start;
        match token.kind {
            TokenKind::StreamEnd => {
                self.skip()?;
                self.state = State::End;
                self.emit(b.stream_end(), start)
            }
            TokenKind::VersionDirective(..)
            | TokenKind::TagDirective(..)
            | TokenKind::DocumentStart => {
                if !bare && !matches!(token.kind, TokenKind::DocumentStart) {
                    return Err(self.scanner.error(
                        ErrorKind::InvalidDirective("a directive needs `...` before it"),
                        start,
                    ));
                }
                let version = self.directives()?;
                let token = self.peek()?;
                if !matches!(token.kind, TokenKind::DocumentStart) {
                    let token = token.clone();
                    return Err(self.unexpected("`---` after directives", &token));
                }
                self.skip()?;
                self.begin_document();
                self.states.push(State::DocumentEnd);
                self.state = State::DocumentContent;
                self.emit(
                    b.document_start(DocumentStart {
                        explicit: true,
                        version,
                        offset: start,
                    }),
                    start,
                )
            }
            _ if bare => {
                self.tag_directives.clear();
                self.begin_document();
                self.states.push(State::DocumentEnd);
                self.state = State::BlockNode;
                self.emit(
                    b.document_start(DocumentStart {
                        explicit: false,
                        version: None,
                        offset: start,
                    }),
                    start,
                )
            }
            _ => {
                let token = token.clone();
                Err(self.unexpected("`---` or the end of the stream", &token))
            }
        }
    }

    fn begin_document(&mut self) {
        self.anchors.clear();
        self.nodes = 0;
        self.expanded = 0;
    }

    /// Reads the directives before `---`: returns the `%YAML` version, records `%TAG`s.
    fn directives(&mut self) -> Result<Option<(u32, u32)>, Error> {
        self.tag_directives.clear();
        let mut version = None;
        loop {
            let token = self.peek()?;
            let start = token.start;
            match &token.kind {
                TokenKind::VersionDirective(major, minor) => {
                    let (major, minor) = (*major, *minor);
                    if version.is_some() {
                        return Err(self.scanner.error(
                            ErrorKind::InvalidDirective("a second `%YAML` directive"),
                            start,
                        ));
                    }
                    if major != 1 {
                        return Err(self.scanner.error(
                            ErrorKind::InvalidDirective("unsupported YAML major version"),
                            start,
                        ));
                    }
                    version = Some((major, minor));
                }
                TokenKind::TagDirective(directive) => {
                    let (handle, prefix) = (directive.0, directive.1.clone());
                    if self.tag_directives.iter().any(|(h, _)| *h == handle) {
                        return Err(self.scanner.error(
                            ErrorKind::InvalidDirective("a second `%TAG` for one handle"),
                            start,
                        ));
                    }
                    self.tag_directives.push((handle, prefix));
                }
                _ => return Ok(version),
            }
            self.skip()?;
        }
    }

    fn resolve_tag(
        &self,
        handle: &'a str,
        suffix: Cow<'a, str>,
        at: usize,
    ) -> Result<Tag<'a>, Error> {
        if handle.is_empty() {
            return Ok(Tag {
                prefix: Cow::Borrowed(""),
                suffix,
            });
        }
        if let Some((_, prefix)) = self.tag_directives.iter().find(|(h, _)| *h == handle) {
            return Ok(Tag {
                prefix: prefix.clone(),
                suffix,
            });
        }
        let prefix = match handle {
            "!" => "!",
            "!!" => CORE_PREFIX,
            _ => {
                return Err(self
                    .scanner
                    .error(ErrorKind::UndefinedTagHandle(handle.to_owned()), at))
            }
        };
        Ok(Tag {
            prefix: Cow::Borrowed(prefix),
            suffix,
        })
    }

    fn empty_scalar<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        props: Props<'a>,
        at: usize,
    ) -> Result<(), Error> {
        self.scalar(
            b,
            Cow::Borrowed(""),
            ScalarStyle::Plain,
            props,
            Span::new(at, at),
        )
    }

    #[inline]
    fn scalar<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        span: Span,
    ) -> Result<(), Error> {
        self.nodes += 1;
        if let Some(anchor) = props.anchor {
            self.anchors.insert(anchor, 1);
        }
        self.emit(b.scalar(value, style, props, span), span.start)
    }

    /// [`Parser::scalar`] for a scalar without properties (most of them), inlined
    /// into the step that read it.
    #[inline(always)]
    fn bare_scalar<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        value: Cow<'a, str>,
        style: ScalarStyle,
        span: Span,
    ) -> Result<(), Error> {
        self.nodes += 1;
        self.emit(b.scalar(value, style, Props::default(), span), span.start)
    }

    fn start_collection<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        mapping: bool,
        style: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), Error> {
        if self.open.len() >= self.limits.max_depth {
            return Err(self
                .scanner
                .error(ErrorKind::DepthLimitReached(self.limits.max_depth), start));
        }
        self.open.push((self.nodes, props.anchor));
        self.nodes += 1;
        let result = if mapping {
            b.mapping_start(style, props, start)
        } else {
            b.sequence_start(style, props, start)
        };
        self.emit(result, start)
    }

    fn end_collection<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        sequence: bool,
        end: usize,
    ) -> Result<(), Error> {
        let (before, anchor) = self.open.pop().unwrap_or((0, None));
        if let Some(anchor) = anchor {
            self.anchors.insert(anchor, self.nodes - before);
        }
        let span = Span::new(end, end);
        let result = if sequence {
            b.sequence_end(span)
        } else {
            b.mapping_end(span)
        };
        self.emit(result, end)
    }

    /// Parses one node, then goes on in state `next`. A plain node without properties
    /// (most of them) takes the short way, without the state stack.
    #[inline]
    fn node_then<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        next: State,
        block: bool,
        indentless: bool,
    ) -> Result<(), Error> {
        if matches!(self.peek()?.kind, TokenKind::Scalar(..)) {
            let (value, style, start, end) = self.take_scalar();
            self.state = next;
            return self.bare_scalar(b, value, style, Span::new(start, end));
        }
        self.states.push(next);
        self.node(b, block, indentless)
    }

    /// Parses one node (its properties, then its content) at the current token.
    fn node<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        block: bool,
        indentless: bool,
    ) -> Result<(), Error> {
        let token = self.peek()?;
        let start = token.start;
        if matches!(token.kind, TokenKind::Scalar(..)) {
            // The common case first: a scalar without properties.
            let (value, style, start, end) = self.take_scalar();
            self.state = self.pop_state();
            return self.bare_scalar(b, value, style, Span::new(start, end));
        }
        if let TokenKind::Alias(name) = token.kind {
            let end = token.end;
            self.skip()?;
            self.state = self.pop_state();
            let Some(&size) = self.anchors.get(name) else {
                return Err(self
                    .scanner
                    .error(ErrorKind::UndefinedAlias(name.to_owned()), start));
            };
            self.expanded = self.expanded.saturating_add(size);
            self.nodes = self.nodes.saturating_add(size);
            if self.expanded > self.limits.max_alias_expansion as u64 {
                return Err(self.scanner.error(
                    ErrorKind::AliasExpansionLimitReached(self.limits.max_alias_expansion),
                    start,
                ));
            }
            return self.emit(b.alias(name, Span::new(start, end)), start);
        }
        let mut props = Props::default();
        let mut props_end = start;
        let mut has_props = false;
        loop {
            let token = self.peek()?;
            match &token.kind {
                TokenKind::Anchor(name) => {
                    if props.anchor.is_some() {
                        let token = token.clone();
                        return Err(self.unexpected("node content after the anchor", &token));
                    }
                    props.anchor = Some(*name);
                }
                TokenKind::Tag(tag) => {
                    if props.tag.is_some() {
                        let token = token.clone();
                        return Err(self.unexpected("node content after the tag", &token));
                    }
                    let (handle, suffix, at) = (tag.0, tag.1.clone(), token.start);
                    props.tag = Some(Box::new(self.resolve_tag(handle, suffix, at)?));
                }
                _ => break,
            }
            has_props = true;
            props_end = self.next()?.end;
        }
        let token = self.peek()?;
        let kind = match token.kind {
            TokenKind::Scalar(..) => 0,
            TokenKind::FlowSequenceStart => 1,
            TokenKind::FlowMappingStart => 2,
            TokenKind::BlockSequenceStart if block => 3,
            TokenKind::BlockMappingStart if block => 4,
            TokenKind::BlockEntry if indentless => 5,
            TokenKind::Alias(_) if has_props => {
                let token = token.clone();
                return Err(self.unexpected("node content (an alias has no properties)", &token));
            }
            _ if has_props => 6,
            _ => {
                let token = token.clone();
                return Err(self.unexpected("a node", &token));
            }
        };
        match kind {
            0 => {
                let token = self.next()?;
                self.state = self.pop_state();
                let TokenKind::Scalar(value, style) = token.kind else {
                    unreachable!("peeked a scalar")
                };
                self.scalar(b, value, style, props, Span::new(start, token.end))
            }
            1 => {
                self.state = State::FlowSequenceFirstEntry;
                self.start_collection(b, false, CollectionStyle::Flow, props, start)
            }
            2 => {
                self.state = State::FlowMappingFirstKey;
                self.start_collection(b, true, CollectionStyle::Flow, props, start)
            }
            3 => {
                self.state = State::BlockSequenceFirstEntry;
                self.start_collection(b, false, CollectionStyle::Block, props, start)
            }
            4 => {
                self.state = State::BlockMappingFirstKey;
                self.start_collection(b, true, CollectionStyle::Block, props, start)
            }
            5 => {
                self.state = State::IndentlessSequenceEntry;
                self.start_collection(b, false, CollectionStyle::Block, props, start)
            }
            _ => {
                self.state = self.pop_state();
                self.empty_scalar(b, props, props_end)
            }
        }
    }

    fn block_sequence_entry<B: YamlBuilder<'a>>(&mut self, b: &mut B) -> Result<(), Error> {
        let token = self.peek()?;
        match token.kind {
            TokenKind::BlockEntry => {
                let end = self.skip()?;
                let token = self.peek()?;
                if matches!(token.kind, TokenKind::BlockEntry | TokenKind::BlockEnd) {
                    self.state = State::BlockSequenceEntry;
                    self.empty_scalar(b, Props::default(), end)
                } else {
                    self.node_then(b, State::BlockSequenceEntry, true, false)
                }
            }
            TokenKind::BlockEnd => {
                self.skip()?;
                self.state = self.pop_state();
                let end = self.last_end;
                self.end_collection(b, true, end)
            }
            _ => {
                let token = token.clone();
                Err(self.unexpected("`-` or the end of the sequence", &token))
            }
        }
    }

    fn indentless_sequence_entry<B: YamlBuilder<'a>>(&mut self, b: &mut B) -> Result<(), Error> {
        let token = self.peek()?;
        if !matches!(token.kind, TokenKind::BlockEntry) {
            self.state = self.pop_state();
            let end = self.last_end;
            return self.end_collection(b, true, end);
        }
        let end = self.skip()?;
        let token = self.peek()?;
        if matches!(
            token.kind,
            TokenKind::BlockEntry
                | TokenKind::Key
                | TokenKind::KeyScalar(..)
                | TokenKind::Value
                | TokenKind::BlockEnd
        ) {
            self.state = State::IndentlessSequenceEntry;
            self.empty_scalar(b, Props::default(), end)
        } else {
            self.node_then(b, State::IndentlessSequenceEntry, true, false)
        }
    }

    fn block_mapping_key<B: YamlBuilder<'a>>(&mut self, b: &mut B) -> Result<(), Error> {
        let token = self.peek()?;
        match token.kind {
            TokenKind::Key => {
                let end = self.skip()?;
                let token = self.peek()?;
                if matches!(
                    token.kind,
                    TokenKind::Key
                        | TokenKind::KeyScalar(..)
                        | TokenKind::Value
                        | TokenKind::BlockEnd
                ) {
                    self.state = State::BlockMappingValue;
                    self.empty_scalar(b, Props::default(), end)
                } else {
                    self.node_then(b, State::BlockMappingValue, true, true)
                }
            }
            TokenKind::KeyScalar(..) => {
                let (value, style, start, end) = self.take_scalar();
                // The `:` follows the key after optional blanks.
                let src = self.scanner.src().as_bytes();
                let colon = end + src[end..].iter().position(|&c| c == b':').unwrap_or(0);
                self.colon_end = colon + 1;
                self.last_end = self.last_end.max(colon + 1);
                self.state = State::BlockMappingValueAfterKey;
                self.bare_scalar(b, value, style, Span::new(start, end))
            }
            TokenKind::Value => {
                let at = token.start;
                self.state = State::BlockMappingValue;
                self.empty_scalar(b, Props::default(), at)
            }
            TokenKind::BlockEnd => {
                self.skip()?;
                self.state = self.pop_state();
                let end = self.last_end;
                self.end_collection(b, false, end)
            }
            _ => {
                let token = token.clone();
                Err(self.unexpected("a mapping key", &token))
            }
        }
    }

    fn block_mapping_value<B: YamlBuilder<'a>>(&mut self, b: &mut B) -> Result<(), Error> {
        let token = self.peek()?;
        if matches!(token.kind, TokenKind::Value) {
            let end = self.skip()?;
            self.block_mapping_value_after_colon(b, end)
        } else {
            let at = token.start;
            self.state = State::BlockMappingKey;
            self.empty_scalar(b, Props::default(), at)
        }
    }

    /// A block mapping's value, its `:` (ending at `colon_end`) read.
    fn block_mapping_value_after_colon<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        colon_end: usize,
    ) -> Result<(), Error> {
        let token = self.peek()?;
        if matches!(
            token.kind,
            TokenKind::Key | TokenKind::KeyScalar(..) | TokenKind::Value | TokenKind::BlockEnd
        ) {
            self.state = State::BlockMappingKey;
            self.empty_scalar(b, Props::default(), colon_end)
        } else {
            self.node_then(b, State::BlockMappingKey, true, true)
        }
    }

    fn flow_sequence_entry<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        first: bool,
    ) -> Result<(), Error> {
        let mut token = self.peek()?;
        if !matches!(token.kind, TokenKind::FlowSequenceEnd) {
            if !first {
                if matches!(token.kind, TokenKind::FlowEntry) {
                    self.skip()?;
                    token = self.peek()?;
                } else {
                    let token = token.clone();
                    return Err(self.unexpected("`,` or `]`", &token));
                }
            }
            match token.kind {
                TokenKind::Key => {
                    let start = token.start;
                    self.skip()?;
                    self.state = State::FlowSequenceEntryMappingKey;
                    return self.start_collection(
                        b,
                        true,
                        CollectionStyle::Flow,
                        Props::default(),
                        start,
                    );
                }
                TokenKind::Value => {
                    let start = token.start;
                    self.state = State::FlowSequenceEntryMappingKey;
                    return self.start_collection(
                        b,
                        true,
                        CollectionStyle::Flow,
                        Props::default(),
                        start,
                    );
                }
                TokenKind::FlowSequenceEnd => {}
                _ => {
                    return self.node_then(b, State::FlowSequenceEntry, false, false);
                }
            }
        }
        let end = self.skip()?;
        self.state = self.pop_state();
        self.end_collection(b, true, end)
    }

    fn flow_mapping_key<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        first: bool,
    ) -> Result<(), Error> {
        let mut token = self.peek()?;
        if !matches!(token.kind, TokenKind::FlowMappingEnd) {
            if !first {
                if matches!(token.kind, TokenKind::FlowEntry) {
                    self.skip()?;
                    token = self.peek()?;
                } else {
                    let token = token.clone();
                    return Err(self.unexpected("`,` or `}`", &token));
                }
            }
            match token.kind {
                TokenKind::Key => {
                    let end = self.skip()?;
                    let token = self.peek()?;
                    if matches!(
                        token.kind,
                        TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowMappingEnd
                    ) {
                        self.state = State::FlowMappingValue;
                        return self.empty_scalar(b, Props::default(), end);
                    }
                    return self.node_then(b, State::FlowMappingValue, false, false);
                }
                TokenKind::Value => {
                    let at = token.start;
                    self.state = State::FlowMappingValue;
                    return self.empty_scalar(b, Props::default(), at);
                }
                TokenKind::FlowMappingEnd => {}
                _ => {
                    return self.node_then(b, State::FlowMappingEmptyValue, false, false);
                }
            }
        }
        let end = self.skip()?;
        self.state = self.pop_state();
        self.end_collection(b, false, end)
    }

    fn flow_mapping_value<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        empty: bool,
    ) -> Result<(), Error> {
        let token = self.peek()?;
        let at = token.start;
        if empty {
            self.state = State::FlowMappingKey;
            return self.empty_scalar(b, Props::default(), at);
        }
        if matches!(token.kind, TokenKind::Value) {
            let end = self.skip()?;
            let token = self.peek()?;
            if !matches!(token.kind, TokenKind::FlowEntry | TokenKind::FlowMappingEnd) {
                return self.node_then(b, State::FlowMappingKey, false, false);
            }
            self.state = State::FlowMappingKey;
            return self.empty_scalar(b, Props::default(), end);
        }
        self.state = State::FlowMappingKey;
        self.empty_scalar(b, Props::default(), at)
    }
}

/// One event of the parser as the direct path reads it (a scalar's text and style stay
/// in the [`Capture`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    Scalar,
    MappingStart,
    SequenceStart,
    /// The end of a mapping or a sequence.
    End,
    DocumentStart,
    DocumentEnd,
    StreamEnd,
    /// What the direct path leaves to the RawValue door: an alias, an anchor, a tag.
    Unsupported,
}

/// The builder the direct path steps the parser with: it keeps the one event a step
/// emits. The event is a one-byte tag and a scalar's text stays here until it is read
/// in place (moving a whole event out right after a step wrote it stalls on store
/// forwarding).
#[derive(Debug)]
struct Capture<'a> {
    event: Option<Event>,
    /// A scalar's text as the input has it, unless `owned`.
    borrowed: &'a str,
    /// A scalar's text that folding or escapes rewrote.
    owned: Option<String>,
    style: ScalarStyle,
}

impl<'a> Capture<'a> {
    #[inline]
    fn set(&mut self, event: Event) -> Result<(), ErrorKind> {
        self.event = Some(event);
        Ok(())
    }

    /// The last scalar's text.
    #[inline]
    fn text(&self) -> &str {
        match &self.owned {
            None => self.borrowed,
            Some(s) => s,
        }
    }

    /// Moves the last scalar's text out.
    #[inline]
    fn take_text(&mut self) -> Cow<'a, str> {
        match self.owned.take() {
            None => Cow::Borrowed(self.borrowed),
            Some(s) => Cow::Owned(s),
        }
    }

    /// `Unsupported` for a node with properties, else `event`.
    #[inline]
    fn collection(&mut self, props: &Props<'a>, event: Event) -> Result<(), ErrorKind> {
        if props.anchor.is_some() || props.tag.is_some() {
            return self.set(Event::Unsupported);
        }
        self.set(event)
    }
}

impl<'a> YamlBuilder<'a> for Capture<'a> {
    #[inline]
    fn document_start(&mut self, _: DocumentStart) -> Result<(), ErrorKind> {
        self.set(Event::DocumentStart)
    }

    #[inline]
    fn document_end(&mut self, _: bool, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::DocumentEnd)
    }

    #[inline]
    fn scalar(
        &mut self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        _: Span,
    ) -> Result<(), ErrorKind> {
        if props.anchor.is_some() || props.tag.is_some() {
            return self.set(Event::Unsupported);
        }
        // Field by field: the reader loads them one by one right after.
        match value {
            Cow::Borrowed(s) => {
                self.borrowed = s;
                self.owned = None;
            }
            Cow::Owned(s) => self.owned = Some(s),
        }
        self.style = style;
        self.set(Event::Scalar)
    }

    #[inline]
    fn sequence_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        self.collection(&props, Event::SequenceStart)
    }

    #[inline]
    fn sequence_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::End)
    }

    #[inline]
    fn mapping_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        self.collection(&props, Event::MappingStart)
    }

    #[inline]
    fn mapping_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::End)
    }

    #[inline]
    fn alias(&mut self, _: &'a str, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::Unsupported)
    }

    #[inline]
    fn stream_end(&mut self) -> Result<(), ErrorKind> {
        self.set(Event::StreamEnd)
    }
}

/// The direct path over a one-document YAML stream: a [`PullSource`] that derived types
/// decode from without building a [`RawValue`] first.
///
/// It steps the one parser and hands its events out as JSON-shaped values: mappings as
/// objects (keys by their text, as the RawValue door keys them), sequences as arrays,
/// scalars resolved by the same core schema. Whatever the RawValue door gives a meaning
/// of its own falls back to it: aliases, anchors, tags, merge keys `<<` (when on),
/// collections as keys, a second document, any error.
pub struct DirectSource<'a> {
    parser: Parser<'a>,
    /// The last event and, for a scalar, its text.
    capture: Capture<'a>,
    /// The event in `capture` was peeked, not yet read.
    peeked: bool,
    merge_keys: bool,
    /// The parser reported an error: every read falls back from then on (the scanner
    /// would go on after the bad token).
    failed: bool,
    /// A key that folding or escapes changed, handed out as transient text.
    scratch: String,
    /// The open collections of [`PullSource::skip_value`], kept so skipping allocates
    /// once: is each a mapping, and is a key next in it.
    skip_stack: Vec<(bool, bool)>,
}

impl std::fmt::Debug for DirectSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirectSource")
            .field("parser", &self.parser)
            .field("capture", &self.capture)
            .field("peeked", &self.peeked)
            .finish_non_exhaustive()
    }
}

impl<'a> DirectSource<'a> {
    /// A source over `input` under `options`, positioned before the first document's
    /// value; an error when the input is too large, not UTF-8, or has no document.
    pub fn new(input: &'a [u8], options: &super::Options) -> Result<Self, Error> {
        let mut source = DirectSource {
            parser: Parser::new(input, options.limits, false)?,
            capture: Capture {
                event: None,
                borrowed: "",
                owned: None,
                style: ScalarStyle::Plain,
            },
            peeked: false,
            merge_keys: options.merge_keys,
            failed: false,
            scratch: String::new(),
            skip_stack: Vec::new(),
        };
        match source.step_to_event() {
            Ok(Event::DocumentStart) => Ok(source),
            Ok(_) => Err(Error::new(
                ErrorKind::UnexpectedEnd("of the stream"),
                input,
                0,
            )),
            Err(e) => Err(e),
        }
    }

    /// After the value: true when its document ends the stream.
    pub fn finished(&mut self) -> bool {
        self.pull() == Ok(Event::DocumentEnd) && self.pull() == Ok(Event::StreamEnd)
    }

    /// Steps the parser until it emits an event.
    fn step_to_event(&mut self) -> Result<Event, Error> {
        loop {
            if self.parser.state == State::End {
                return Err(self.parser.scanner.error(
                    ErrorKind::UnexpectedEnd("of the stream"),
                    self.parser.last_end,
                ));
            }
            self.parser.step(&mut self.capture)?;
            if let Some(event) = self.capture.event.take() {
                return Ok(event);
            }
        }
    }

    /// Reads the next event (a scalar's text stays in `capture`).
    #[inline]
    fn pull(&mut self) -> Result<Event, Fallback> {
        if self.peeked {
            self.peeked = false;
            return Ok(self.last_event());
        }
        self.next_event()
    }

    /// The next event, without reading it.
    #[inline]
    fn peek(&mut self) -> Result<Event, Fallback> {
        if !self.peeked {
            let event = self.next_event()?;
            self.capture.event = Some(event);
            self.peeked = true;
        }
        Ok(self.last_event())
    }

    /// The event a peek kept.
    #[inline]
    fn last_event(&self) -> Event {
        self.capture.event.unwrap_or(Event::Unsupported)
    }

    /// The parser's next event; after an error, `Fallback` for good.
    #[inline]
    fn next_event(&mut self) -> Result<Event, Fallback> {
        if self.failed {
            return Err(Fallback);
        }
        self.step_to_event().map_err(|_| {
            self.failed = true;
            Fallback
        })
    }

    /// The next value if it is a plain scalar, resolved by the core schema; `Fallback`
    /// for anything else.
    #[inline]
    fn read_plain(&mut self) -> Result<RawValue<'a>, Fallback> {
        if self.pull()? != Event::Scalar || self.capture.style != ScalarStyle::Plain {
            return Err(Fallback);
        }
        Ok(resolve_plain(self.capture.take_text()))
    }

    /// The next value if it is a string: a non-plain scalar, or a plain one the core
    /// schema reads as a string.
    #[inline]
    fn read_text(&mut self) -> Result<Cow<'a, str>, Fallback> {
        if self.pull()? != Event::Scalar {
            return Err(Fallback);
        }
        if self.capture.style == ScalarStyle::Plain && !plain_is_string(self.capture.text()) {
            return Err(Fallback);
        }
        Ok(self.capture.take_text())
    }

    /// The scalar just pulled, as a key (borrowed, or transient when it was rewritten);
    /// `Fallback` for a merge key.
    #[inline]
    fn key_text(&mut self) -> Result<Text<'a, '_>, Fallback> {
        if self.is_merge_key() {
            return Err(Fallback);
        }
        let text = self.capture.take_text();
        Ok(Text::from_cow(text, &mut self.scratch))
    }

    /// Whether the scalar just pulled, as a mapping key, is one the RawValue door gives
    /// a meaning of its own (a merge key).
    #[inline]
    fn is_merge_key(&self) -> bool {
        self.merge_keys && self.capture.style == ScalarStyle::Plain && self.capture.text() == "<<"
    }

    /// Skips the rest of a collection whose start was just read. Falls back where the
    /// RawValue door would do more than keep the content: a collection as a key, a
    /// merge key, an alias, an anchor or a tag.
    fn skip_collection(&mut self, mapping: bool) -> Result<(), Fallback> {
        let mut open = std::mem::take(&mut self.skip_stack);
        open.clear();
        open.push((mapping, mapping));
        let result = self.skip_open(&mut open);
        self.skip_stack = open;
        result
    }

    /// [`DirectSource::skip_collection`] over the stack `open` of open collections.
    fn skip_open(&mut self, open: &mut Vec<(bool, bool)>) -> Result<(), Fallback> {
        while let Some(&(map, key_next)) = open.last() {
            if map {
                open.last_mut().expect("open").1 = !key_next;
            }
            match self.pull()? {
                Event::Scalar => {
                    if map && key_next && self.is_merge_key() {
                        return Err(Fallback);
                    }
                }
                Event::MappingStart | Event::SequenceStart if map && key_next => {
                    return Err(Fallback)
                }
                Event::MappingStart => open.push((true, true)),
                Event::SequenceStart => open.push((false, false)),
                Event::End => {
                    open.pop();
                }
                _ => return Err(Fallback),
            }
        }
        Ok(())
    }
}

/// Whether the core schema reads the plain scalar `text` as a string. Only a scalar
/// starting the way a null, a boolean or a number does needs resolving.
#[inline]
fn plain_is_string(text: &str) -> bool {
    match text.as_bytes().first() {
        None => false,
        Some(b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'0'..=b'9' | b'+' | b'-' | b'.') => {
            matches!(resolve_plain(Cow::Borrowed(text)), RawValue::String(_))
        }
        Some(_) => true,
    }
}

impl<'a> PullSource<'a> for DirectSource<'a> {
    #[inline]
    fn peek_token(&mut self) -> Result<ValueKind, Fallback> {
        Ok(match self.peek()? {
            Event::Scalar if self.capture.style == ScalarStyle::Plain => {
                match resolve_plain(Cow::Borrowed(self.capture.text())) {
                    RawValue::Null => ValueKind::Null,
                    RawValue::Bool(_) => ValueKind::Bool,
                    RawValue::String(_) => ValueKind::String,
                    _ => ValueKind::Number,
                }
            }
            Event::Scalar => ValueKind::String,
            Event::MappingStart => ValueKind::Object,
            Event::SequenceStart => ValueKind::Array,
            _ => return Err(Fallback),
        })
    }

    #[inline]
    fn read_null(&mut self) -> Result<(), Fallback> {
        match self.read_plain()? {
            RawValue::Null => Ok(()),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool, Fallback> {
        match self.read_plain()? {
            RawValue::Bool(b) => Ok(b),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        match self.read_plain()? {
            number @ (RawValue::Int(_)
            | RawValue::UInt(_)
            | RawValue::Float(_)
            | RawValue::BigNumber(_)) => Ok(number),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<Text<'a, '_>, Fallback> {
        let text = self.read_text()?;
        Ok(Text::from_cow(text, &mut self.scratch))
    }

    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        self.read_text().map(Cow::into_owned)
    }

    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'a, str>, Fallback> {
        self.read_text()
    }

    #[inline]
    fn begin_array(&mut self) -> Result<(), Fallback> {
        match self.pull()? {
            Event::SequenceStart => Ok(()),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn next_item(&mut self, _first: bool) -> Result<bool, Fallback> {
        if self.peek()? == Event::End {
            self.peeked = false;
            return Ok(false);
        }
        Ok(true)
    }

    #[inline]
    fn begin_object(&mut self) -> Result<(), Fallback> {
        match self.pull()? {
            Event::MappingStart => Ok(()),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn next_key(&mut self, _first: bool) -> Result<Option<Text<'a, '_>>, Fallback> {
        match self.pull()? {
            Event::End => Ok(None),
            Event::Scalar => self.key_text().map(Some),
            _ => Err(Fallback),
        }
    }

    fn skip_value(&mut self) -> Result<(), Fallback> {
        match self.pull()? {
            Event::Scalar => Ok(()),
            Event::MappingStart => self.skip_collection(true),
            Event::SequenceStart => self.skip_collection(false),
            _ => Err(Fallback),
        }
    }

    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        let mapping = match self.pull()? {
            Event::Scalar => {
                let text = self.capture.take_text();
                return resolve_scalar(text, self.capture.style, None).map_err(|_| Fallback);
            }
            Event::MappingStart => true,
            Event::SequenceStart => false,
            _ => return Err(Fallback),
        };
        // The collection's content goes through the RawValue door's own builder.
        let options = super::Options::default().with_merge_keys(self.merge_keys);
        let mut builder = RawValueBuilder::new(&options);
        let start = if mapping {
            builder.mapping_start(CollectionStyle::Block, Props::default(), 0)
        } else {
            builder.sequence_start(CollectionStyle::Block, Props::default(), 0)
        };
        start.map_err(|_| Fallback)?;
        loop {
            if self.failed || self.parser.state == State::End {
                return Err(Fallback);
            }
            if self.parser.step(&mut builder).is_err() {
                self.failed = true;
                return Err(Fallback);
            }
            if let Some(value) = builder.take_root() {
                return Ok(value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct path's shortcut for strings agrees with the core schema on texts
    /// starting with every ASCII byte and on every special spelling.
    #[test]
    fn plain_is_string_agrees_with_resolve_plain() {
        let mut texts: Vec<String> = (0x20u8..0x7F)
            .flat_map(|b| {
                let c = b as char;
                [
                    format!("{c}"),
                    format!("{c}1"),
                    format!("{c}x"),
                    format!("{c}inf"),
                ]
            })
            .collect();
        for special in [
            "", "~", "null", "Null", "NULL", "nul", "true", "True", "TRUE", "tRUE", "false",
            "False", "FALSE", "12", "-3", "+4", "0o17", "0x1F", "0xG", "1.5", "1e3", ".inf",
            "-.Inf", ".NaN", ".nan.", "1_000", "é", "Ω1",
        ] {
            texts.push(special.to_owned());
        }
        for text in &texts {
            let expected = matches!(resolve_plain(Cow::Borrowed(text)), RawValue::String(_));
            assert_eq!(plain_is_string(text), expected, "{text:?}");
        }
    }
}
