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
use super::scanner::{InPlace, KeyInPlace, Scanner, Token, TokenKind, INITIAL_ROOM};
use super::{Error, ErrorKind};

/// A node or end read in place for the direct path (see [`Parser::read_in_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DirectRead<'a> {
    /// A scalar's text (inside any quotes, which hold no escape) and style.
    Scalar(&'a str, ScalarStyle),
    MappingStart,
    SequenceStart,
    /// The end of the innermost collection.
    End,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
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
pub(super) struct Parser<'a> {
    pub(super) scanner: Scanner<'a>,
    pub(super) state: State,
    states: Vec<State>,
    limits: Limits,
    tag_directives: Vec<(&'a str, Cow<'a, str>)>,
    /// Open collections: the node count when each opened, and its anchor.
    open: Vec<(u64, Option<&'a str>)>,
    /// Anchors of this document and how many nodes each stands for.
    anchors: HashMap<&'a str, u64>,
    nodes: u64,
    expanded: u64,
    pub(super) last_end: usize,
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
    #[inline]
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
            states: Vec::with_capacity(INITIAL_ROOM),
            limits,
            tag_directives: Vec::new(),
            open: Vec::with_capacity(INITIAL_ROOM),
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

    pub(super) fn step<B: YamlBuilder<'a>>(&mut self, b: &mut B) -> Result<(), Error> {
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
            State::BlockNode => {
                // A bare document's root collection, read in place.
                if let Some(read) = self.scanner.root_collection_in_place() {
                    let next = self.pop_state();
                    return self.in_place(b, read, next);
                }
                self.node(b, true, false)
            }
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
        // A bare document whose root the scanner can read in place starts without
        // queueing its first token.
        if bare && self.scanner.bare_root_ahead() {
            let start = self.scanner.pos();
            return self.bare_document_start(b, start);
        }
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
                let document = DocumentStart {
                    explicit: true,
                    version,
                    offset: start,
                };
                self.start_document(b, document, State::DocumentContent)
            }
            _ if bare => self.bare_document_start(b, start),
            _ => {
                let token = token.clone();
                Err(self.unexpected("`---` or the end of the stream", &token))
            }
        }
    }

    /// Starts a document without `---` whose first token starts at `start`.
    fn bare_document_start<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        start: usize,
    ) -> Result<(), Error> {
        self.tag_directives.clear();
        let document = DocumentStart {
            explicit: false,
            version: None,
            offset: start,
        };
        self.start_document(b, document, State::BlockNode)
    }

    /// Starts `document` (explicit or bare): a fresh count of nodes and anchors, the
    /// document's end awaited after its `content`, and the builder told.
    fn start_document<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        document: DocumentStart,
        content: State,
    ) -> Result<(), Error> {
        self.anchors.clear();
        self.nodes = 0;
        self.expanded = 0;
        self.states.push(State::DocumentEnd);
        self.state = content;
        let start = document.offset;
        self.emit(b.document_start(document), start)
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

    /// Emits the node the scanner read in place, as `node_then(b, next, ..)` would
    /// have from the queued tokens: a scalar, then state `next`; or a block
    /// collection's start, inside it (its start token consumed), `next` pushed.
    #[inline(always)]
    fn in_place<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        read: InPlace,
        next: State,
    ) -> Result<(), Error> {
        let (at, mapping) = match read {
            InPlace::Scalar(start, end, style) => {
                let value = self.scalar_in_place(start, end, style, next);
                return self.bare_scalar(b, Cow::Borrowed(value), style, Span::new(start, end));
            }
            InPlace::Mapping(at) => (at, true),
            InPlace::Sequence(at) => (at, false),
        };
        self.last_end = self.last_end.max(at);
        self.states.push(next);
        self.state = if mapping {
            State::BlockMappingKey
        } else {
            State::BlockSequenceEntry
        };
        self.start_collection(b, mapping, CollectionStyle::Block, Props::default(), at)
    }

    /// The block mapping's next key when the scanner reads it in place (see
    /// [`Scanner::block_key_in_place`], which `guess` goes to), then state
    /// `BlockMappingValueAfterKey`: what `block_mapping_key` does before it emits it.
    #[inline(always)]
    fn key_in_place(&mut self, guess: &[u8]) -> Option<KeyInPlace> {
        let key = self.scanner.block_key_in_place(guess)?;
        self.colon_end = key.colon + 1;
        self.last_end = self.last_end.max(key.colon + 1);
        self.state = State::BlockMappingValueAfterKey;
        Some(key)
    }

    /// For a reader that takes scalars' text itself (the direct path): the open block
    /// mapping's next key when it is read in place, as `step` would have emitted it
    /// (counted as a node, the parser in the state after it), and whether it is
    /// `guess`. `None`, changing nothing, anywhere else.
    #[inline(always)]
    pub(super) fn plain_key_in_place(&mut self, guess: &[u8]) -> Option<(&'a str, bool)> {
        if self.state != State::BlockMappingKey {
            return None;
        }
        self.key_text_in_place(guess)
    }

    /// For the direct path, once [`Parser::plain_key_in_place`] read no key: the open
    /// block mapping's end, when the scanner reads it in place (as `step` would have
    /// emitted it). `None`, changing nothing, anywhere else.
    #[inline(always)]
    pub(super) fn mapping_end_in_place(&mut self) -> Option<Result<(), Error>> {
        if self.state != State::BlockMappingKey {
            return None;
        }
        self.end_collection_in_place(false)
    }

    /// [`Parser::key_in_place`] for a reader that takes the key's text: counted as a
    /// node, as `bare_scalar` counts it.
    #[inline(always)]
    fn key_text_in_place(&mut self, guess: &[u8]) -> Option<(&'a str, bool)> {
        let key = self.key_in_place(guess)?;
        self.nodes += 1;
        Some((&self.scanner.src()[key.start..key.end], key.guessed))
    }

    /// For a reader that takes scalars' text itself: the next node or end the scanner
    /// reads in place in a block collection, as `step` would have emitted it (the
    /// parser in the state after it): a bare document's root collection, a mapping's
    /// key or its value after the `:`, a sequence's entry, or a collection's end.
    /// `None`, changing nothing, where `step` has to read it; an error only where
    /// `step` would have reported the same one.
    #[inline(always)]
    pub(super) fn read_in_place(&mut self) -> Option<Result<DirectRead<'a>, Error>> {
        let (read, next) = match self.state {
            State::BlockMappingValueAfterKey => {
                (self.scanner.value_in_place()?, State::BlockMappingKey)
            }
            State::BlockSequenceEntry => match self.scanner.block_entry_in_place() {
                Some(read) => (read, State::BlockSequenceEntry),
                None => return self.end_read_in_place(true),
            },
            State::BlockNode => {
                let read = self.scanner.root_collection_in_place()?;
                (read, self.pop_state())
            }
            State::BlockMappingKey => match self.key_text_in_place(&[]) {
                Some((text, _)) => return Some(Ok(DirectRead::Scalar(text, ScalarStyle::Plain))),
                None => return self.end_read_in_place(false),
            },
            _ => return None,
        };
        Some(match read {
            InPlace::Scalar(start, end, style) => {
                self.nodes += 1;
                let text = self.scalar_in_place(start, end, style, next);
                Ok(DirectRead::Scalar(text, style))
            }
            InPlace::Mapping(_) | InPlace::Sequence(_) => {
                let start = if matches!(read, InPlace::Mapping(_)) {
                    DirectRead::MappingStart
                } else {
                    DirectRead::SequenceStart
                };
                self.in_place(&mut (), read, next).map(|()| start)
            }
        })
    }

    /// [`Parser::read_in_place`] at the end of a block collection (a sequence if
    /// `sequence`).
    #[inline(always)]
    fn end_read_in_place(&mut self, sequence: bool) -> Option<Result<DirectRead<'a>, Error>> {
        let end = self.end_collection_in_place(sequence)?;
        Some(end.map(|()| DirectRead::End))
    }

    /// The end of the innermost block collection (a sequence if `sequence`) when the
    /// scanner reads it in place, emitted to no builder.
    #[inline(always)]
    fn end_collection_in_place(&mut self, sequence: bool) -> Option<Result<(), Error>> {
        let at = self.scanner.block_end_in_place()?;
        Some(self.end_in_place(&mut (), sequence, at))
    }

    /// The text of a scalar read in place at `start..end` (quotes included), the parser
    /// then in state `next`.
    #[inline(always)]
    fn scalar_in_place(
        &mut self,
        start: usize,
        end: usize,
        style: ScalarStyle,
        next: State,
    ) -> &'a str {
        self.last_end = self.last_end.max(end);
        self.state = next;
        let quotes = usize::from(style != ScalarStyle::Plain);
        &self.scanner.src()[start + quotes..end - quotes]
    }

    /// Ends the innermost block collection (a sequence if `sequence`) whose end the
    /// scanner read in place, where the next content starts at `at`: what the
    /// `BlockEnd` arms do with the token.
    fn end_in_place<B: YamlBuilder<'a>>(
        &mut self,
        b: &mut B,
        sequence: bool,
        at: usize,
    ) -> Result<(), Error> {
        self.last_end = self.last_end.max(at);
        self.state = self.pop_state();
        let end = self.last_end;
        self.end_collection(b, sequence, end)
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
        // The common `- value` and `- key: value` lines, read in place: what the
        // `BlockEntry` arm below does with the tokens the queue would have held.
        if let Some(read) = self.scanner.block_entry_in_place() {
            return self.in_place(b, read, State::BlockSequenceEntry);
        }
        if let Some(at) = self.scanner.block_end_in_place() {
            return self.end_in_place(b, true, at);
        }
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
        // The common `key:` line, read in place: what the `KeyScalar` arm below does
        // with the token the queue would have held.
        if let Some(key) = self.key_in_place(&[]) {
            let text = &self.scanner.src()[key.start..key.end];
            return self.bare_scalar(
                b,
                Cow::Borrowed(text),
                ScalarStyle::Plain,
                Span::new(key.start, key.end),
            );
        }
        if let Some(at) = self.scanner.block_end_in_place() {
            return self.end_in_place(b, false, at);
        }
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
        // A one-line value, or a collection on the next lines, read in place: what
        // `node_then` does with the tokens the queue would have held.
        if let Some(read) = self.scanner.value_in_place() {
            return self.in_place(b, read, State::BlockMappingKey);
        }
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proptest::prelude::*;

    use super::*;

    /// Writes every event down with its span, so two runs can be compared.
    #[derive(Default)]
    struct Events(Vec<String>);

    impl<'a> YamlBuilder<'a> for Events {
        fn document_start(&mut self, start: DocumentStart) -> Result<(), ErrorKind> {
            self.0.push(format!("+DOC {}", start.explicit));
            Ok(())
        }
        fn document_end(&mut self, explicit: bool, span: Span) -> Result<(), ErrorKind> {
            self.0.push(format!("-DOC {explicit} {span:?}"));
            Ok(())
        }
        fn scalar(
            &mut self,
            value: Cow<'a, str>,
            style: ScalarStyle,
            props: Props<'a>,
            span: Span,
        ) -> Result<(), ErrorKind> {
            self.0
                .push(format!("=VAL {value:?} {style:?} {props:?} {span:?}"));
            Ok(())
        }
        fn sequence_start(
            &mut self,
            style: CollectionStyle,
            props: Props<'a>,
            start: usize,
        ) -> Result<(), ErrorKind> {
            self.0.push(format!("+SEQ {style:?} {props:?} {start}"));
            Ok(())
        }
        fn sequence_end(&mut self, span: Span) -> Result<(), ErrorKind> {
            self.0.push(format!("-SEQ {span:?}"));
            Ok(())
        }
        fn mapping_start(
            &mut self,
            style: CollectionStyle,
            props: Props<'a>,
            start: usize,
        ) -> Result<(), ErrorKind> {
            self.0.push(format!("+MAP {style:?} {props:?} {start}"));
            Ok(())
        }
        fn mapping_end(&mut self, span: Span) -> Result<(), ErrorKind> {
            self.0.push(format!("-MAP {span:?}"));
            Ok(())
        }
        fn alias(&mut self, name: &'a str, span: Span) -> Result<(), ErrorKind> {
            self.0.push(format!("=ALI {name} {span:?}"));
            Ok(())
        }
    }

    /// The events of `input` (and the error that ended them), with the scanner's
    /// in-place reads on or off.
    fn events(input: &[u8], in_place: bool) -> (Vec<String>, Option<String>) {
        let mut events = Events::default();
        let error = match Parser::new(input, Limits::default(), false) {
            Ok(mut parser) => {
                parser.scanner.in_place = in_place;
                parser.run(&mut events).err()
            }
            Err(e) => Some(e),
        };
        (events.0, error.map(|e| format!("{e:?}")))
    }

    /// Asserts that reading keys and values in place changes nothing: the same events
    /// and spans, or the same error. Before an error, the in-place reads may have
    /// emitted more: the queue fetches a key's value with the key, so an error in the
    /// value comes before the key's event there. Returns how many events there were.
    fn in_place_agrees(input: &[u8]) -> usize {
        let queued = events(input, false);
        let in_place = events(input, true);
        let text = String::from_utf8_lossy(input);
        assert_eq!(in_place.1, queued.1, "{text:?}");
        if queued.1.is_none() {
            assert_eq!(in_place.0, queued.0, "{text:?}");
        } else {
            assert!(
                in_place.0.starts_with(&queued.0),
                "{text:?}: {in_place:?}, {queued:?}"
            );
        }
        queued.0.len()
    }

    /// Every yaml-test-suite input and every YAML file of the corpus.
    #[test]
    fn keys_and_values_read_in_place_agree_with_the_token_queue() {
        let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        let mut files = Vec::new();
        let mut dirs = vec![
            testdata.join("suites/yaml/tests"),
            testdata.join("corpus/yaml"),
        ];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("testdata") {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 400, "only {} files", files.len());
        let mut total = 0;
        for file in &files {
            let input = std::fs::read(file).unwrap();
            total += in_place_agrees(&input);
        }
        assert!(total > 100_000, "only {total} events");
    }

    /// Pieces a block mapping's lines are made of, and the characters that end or
    /// change them.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "key",
            "k2",
            "a b",
            "1",
            "-1",
            "x:y",
            ": ",
            ":",
            "\n",
            "\r\n",
            "  ",
            " ",
            "\t",
            "- ",
            "-",
            "? ",
            "#c",
            " #c",
            "'q'",
            "\"d\"",
            "---",
            "...",
            "&a ",
            "*a",
            "!t ",
            "[",
            "]",
            "{",
            "}",
            ",",
            "|",
            ">",
            "%",
            "null",
            "é",
            "...x",
            "--- ",
            "%YAML 1.2",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Random lines of keys, values, indentation and indicators.
        #[test]
        fn in_place_reads_agree_on_random_lines(pieces in prop::collection::vec(piece(), 0..40)) {
            in_place_agrees(pieces.concat().as_bytes());
        }

        /// Well-formed nested block mappings with random indentation and trailers.
        #[test]
        fn in_place_reads_agree_on_nested_mappings(
            lines in prop::collection::vec((0usize..4, piece(), piece(), piece()), 1..30)
        ) {
            let mut text = String::new();
            for (depth, key, value, trailer) in lines {
                text.push_str(&"  ".repeat(depth));
                text.push_str(key);
                text.push_str(": ");
                text.push_str(value);
                text.push_str(trailer);
                text.push('\n');
            }
            in_place_agrees(text.as_bytes());
        }

        /// Block sequences and mappings nested in each other, entries that are keys
        /// among them.
        #[test]
        fn in_place_reads_agree_on_nested_sequences(
            lines in prop::collection::vec((0usize..4, 0usize..4, piece(), piece()), 1..30)
        ) {
            let mut text = String::new();
            for (depth, kind, first, second) in lines {
                text.push_str(&"  ".repeat(depth));
                match kind {
                    0 => text.push_str("- "),
                    1 => text.push_str("- k: "),
                    2 => text.push_str("key:"),
                    _ => text.push_str("key: "),
                }
                text.push_str(first);
                text.push_str(second);
                text.push('\n');
            }
            in_place_agrees(text.as_bytes());
        }
    }
}
