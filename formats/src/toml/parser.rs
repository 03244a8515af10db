//! The one TOML parser, generic over [`TomlBuilder`].
//!
//! Line by line: a comment, a `[table]` or `[[array]]` header, or `key = value`. The
//! parser keeps the *shape* of the document (which keys each table holds and how each
//! table was made), never its values, and checks every redefinition rule against it
//! before the builder hears of anything. Arrays and inline tables nest on a heap stack,
//! so no input can overflow the call stack.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::common::{validate_utf8, KeyHashState, Limits, Span};

use super::builder::{Key, TableId, TableKind, TomlBuilder, ROOT};
use super::error::{Error, ErrorKind};
use super::lexer::{Lexer, Scalar};
use quarry_raw_value::{Fallback, PullSource, RawValue, Text, ValueKind};

/// What a key in a table holds, as far as the redefinition rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Child {
    /// A scalar.
    Value,
    /// A static array (`a = [...]`).
    Array,
    /// A table or an array of tables.
    Table(TableId),
}

/// How a table was made, which decides what may add to it later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Root,
    Header,
    Implicit,
    Dotted,
    Inline,
    Element,
    /// An array of tables; `last` is its newest element, where headers below it go.
    TableArray {
        last: TableId,
    },
}

/// Tables with more keys than this get a hash index.
const INDEX_FROM: u32 = 24;

/// No key: the end of a table's key list.
const NONE: u32 = u32::MAX;

#[derive(Debug)]
struct TableShape<'a> {
    state: State,
    depth: usize,
    /// The table (or array of tables) this one is a key or element of; [`NONE`] for the
    /// root and for tables not (yet) placed. The direct path walks these links.
    parent: TableId,
    /// This table's key in `parent` (an index in [`Shape::keys`]); [`NONE`] for an
    /// element of an array of tables.
    key: u32,
    /// For the direct path: [`OPEN`], [`CLOSED`] or [`SKIPPED`].
    closed: u8,
    /// The table's first and last key in [`Shape::keys`] (a linked list, so no table
    /// needs a `Vec` of its own).
    head: u32,
    tail: u32,
    len: u32,
    /// Two bits per key, by [`key_bits`]: a clear one proves a key absent without a walk.
    bloom: u128,
    index: Option<HashMap<Cow<'a, str>, Child, KeyHashState>>,
}

/// The two bits a key sets in its table's [`TableShape::bloom`], from a hash of its
/// length and its first and last eight bytes (so `f01`…`f24` differ, as they would
/// not by their first and last byte alone).
#[inline]
fn key_bits(name: &str) -> u128 {
    let bytes = name.as_bytes();
    let len = bytes.len();
    let word = |at: usize| {
        bytes
            .get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let half = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map_or(0, |w| u64::from(u32::from_le_bytes(w)))
    };
    // Fixed-size reads that overlap for short keys: no loop, no copy of unknown length.
    let (head, tail) = match len {
        8.. => (word(0), word(len - 8)),
        4..=7 => (half(0), half(len - 4)),
        1..=3 => (
            u64::from(bytes[0]) << 16 | u64::from(bytes[len / 2]) << 8 | u64::from(bytes[len - 1]),
            0,
        ),
        0 => (0, 0),
    };
    let hash = (head ^ tail.rotate_left(29) ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (1u128 << (hash >> 57)) | (1u128 << ((hash >> 50) & 127))
}

#[derive(Debug)]
struct KeyShape<'a> {
    name: Cow<'a, str>,
    child: Child,
    /// The table's next key, or [`NONE`].
    next: u32,
}

/// Which keys each table holds and how each table was made: all the parser needs to
/// enforce TOML's redefinition rules. Keys of all tables share one list.
#[derive(Debug, Default)]
struct Shape<'a> {
    tables: Vec<TableShape<'a>>,
    keys: Vec<KeyShape<'a>>,
}

impl<'a> Shape<'a> {
    fn add(&mut self, state: State, depth: usize) -> TableId {
        self.tables.push(TableShape {
            state,
            depth,
            parent: NONE,
            key: NONE,
            closed: OPEN,
            head: NONE,
            tail: NONE,
            len: 0,
            bloom: 0,
            index: None,
        });
        (self.tables.len() - 1) as TableId
    }

    fn table(&mut self, id: TableId) -> &mut TableShape<'a> {
        &mut self.tables[id as usize]
    }

    fn lookup(&self, id: TableId, name: &str) -> Option<Child> {
        let table = &self.tables[id as usize];
        let bits = key_bits(name);
        if table.bloom & bits != bits {
            return None;
        }
        if let Some(index) = &table.index {
            return index.get(name).copied();
        }
        let mut at = table.head;
        while at != NONE {
            let key = &self.keys[at as usize];
            if key.name == name {
                return Some(key.child);
            }
            at = key.next;
        }
        None
    }

    /// Adds key `name` holding `child` to table `id`; returns the key's index.
    fn insert(&mut self, id: TableId, name: Cow<'a, str>, child: Child) -> u32 {
        let at = self.keys.len() as u32;
        let table = &mut self.tables[id as usize];
        if let Some(index) = &mut table.index {
            index.insert(name.clone(), child);
        }
        table.bloom |= key_bits(&name);
        table.len += 1;
        let previous = std::mem::replace(&mut table.tail, at);
        if previous == NONE {
            table.head = at;
        }
        let build_index = table.len > INDEX_FROM && table.index.is_none();
        let head = table.head;
        if let Child::Table(child) = child {
            let child = &mut self.tables[child as usize];
            child.parent = id;
            child.key = at;
        }
        self.keys.push(KeyShape {
            name,
            child,
            next: NONE,
        });
        if previous != NONE {
            self.keys[previous as usize].next = at;
        }
        if build_index {
            let mut index =
                HashMap::with_capacity_and_hasher(2 * INDEX_FROM as usize, KeyHashState::default());
            let mut at = head;
            while at != NONE {
                let key = &self.keys[at as usize];
                index.insert(key.name.clone(), key.child);
                at = key.next;
            }
            self.tables[id as usize].index = Some(index);
        }
        at
    }
}

impl Shape<'_> {
    /// Key `at` of table `id` now holds `child` (the direct path adds a key before
    /// reading its value).
    fn set_child(&mut self, id: TableId, at: u32, child: Child) {
        let key = &mut self.keys[at as usize];
        key.child = child;
        if let Some(index) = &mut self.tables[id as usize].index {
            if let Some(slot) = index.get_mut(&key.name) {
                *slot = child;
            }
        }
        if let Child::Table(child) = child {
            let child = &mut self.tables[child as usize];
            child.parent = id;
            child.key = at;
        }
    }
}

/// An array or inline table being parsed.
enum Frame<'a, A> {
    Array {
        array: A,
        start: usize,
    },
    Inline {
        id: TableId,
        start: usize,
        /// The table and key the next member value goes to.
        pending: Option<(TableId, Key<'a>)>,
    },
}

/// The TOML parser: one document, one pass, any [`TomlBuilder`].
pub struct Parser<'a> {
    lexer: Lexer<'a>,
    limits: Limits,
    shape: Shape<'a>,
    /// Reused buffer for the segments of a dotted key.
    path: Vec<Key<'a>>,
}

/// Parses `input` as one TOML document into `builder`, under `limits`.
pub fn parse_with<'a, B: TomlBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<(), Error> {
    Parser::new(input, limits)?.parse(builder)
}

impl<'a> Parser<'a> {
    /// A parser over `input`: checks the size limit and UTF-8, skips a byte order mark.
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        if input.len() > limits.max_document_size {
            return Err(Error::new(
                ErrorKind::DocumentSizeLimitReached(limits.max_document_size),
                input,
                limits.max_document_size,
            ));
        }
        let src =
            validate_utf8(input).map_err(|at| Error::new(ErrorKind::InvalidUtf8, input, at))?;
        let start = if src.starts_with('\u{feff}') { 3 } else { 0 };
        let mut shape = Shape::default();
        shape.add(State::Root, 0);
        Ok(Parser {
            lexer: Lexer::new(src, start),
            limits,
            shape,
            path: Vec::new(),
        })
    }

    /// The source text.
    pub fn src(&self) -> &'a str {
        self.lexer.src()
    }

    /// Parses the whole document into `builder`.
    pub fn parse<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<(), Error> {
        let mut section = ROOT;
        // The stack of open arrays and inline tables, reused by every value.
        let mut frames = Vec::new();
        loop {
            self.lexer.skip_ws();
            match self.lexer.peek() {
                None => return Ok(()),
                Some(b'\n' | b'\r') => {
                    self.lexer.newline()?;
                    continue;
                }
                Some(b'#') => {}
                Some(b'[') => section = self.header(builder)?,
                Some(_) => self.key_value(section, builder, &mut frames)?,
            }
            self.end_of_line(builder)?;
        }
    }

    /// After a header or key/value: spaces, an optional comment, then a newline or the end.
    fn end_of_line<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<(), Error> {
        self.lexer.skip_ws();
        if self.lexer.peek() == Some(b'#') {
            let span = self.lexer.comment()?;
            builder.comment(span);
        }
        if self.lexer.peek().is_none() || self.lexer.newline()? {
            Ok(())
        } else {
            Err(self
                .lexer
                .error_at(ErrorKind::ExpectedNewline, self.lexer.pos()))
        }
    }

    /// Reads `key(.key)*` into `self.path`.
    fn key_path(&mut self) -> Result<Vec<Key<'a>>, Error> {
        let mut keys = std::mem::take(&mut self.path);
        keys.clear();
        loop {
            keys.push(self.lexer.key()?);
            self.lexer.skip_ws();
            if self.lexer.peek() != Some(b'.') {
                return Ok(keys);
            }
            self.lexer.bump();
            self.lexer.skip_ws();
        }
    }

    fn check_depth(&self, depth: usize, at: usize) -> Result<(), Error> {
        if depth > self.limits.max_depth {
            Err(self
                .lexer
                .error_at(ErrorKind::DepthLimitReached(self.limits.max_depth), at))
        } else {
            Ok(())
        }
    }

    /// `[a.b]` or `[[a.b]]`: returns the table the following keys go in.
    fn header<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<TableId, Error> {
        let start = self.lexer.pos();
        self.lexer.bump();
        let array = self.lexer.peek() == Some(b'[');
        if array {
            self.lexer.bump();
        }
        self.lexer.skip_ws();
        let mut keys = self.key_path()?;
        self.lexer.expect(b']', "`]`")?;
        if array {
            self.lexer.expect(b']', "`]]`")?;
        }
        let span = Span::new(start, self.lexer.pos());
        let count = keys.len();
        let mut current = ROOT;
        for (i, key) in keys.drain(..).enumerate() {
            let last = i + 1 == count;
            let depth = self.shape.table(current).depth + 1;
            match self.shape.lookup(current, &key.name) {
                None => {
                    self.check_depth(depth, key.span.start)?;
                    if last && array {
                        let id = self.shape.add(State::TableArray { last: 0 }, depth);
                        self.shape
                            .insert(current, key.name.clone(), Child::Table(id));
                        builder.array_of_tables(current, key, id);
                        current = self.new_element(id, depth, span, builder);
                    } else {
                        let (state, kind, at) = if last {
                            (State::Header, TableKind::Header, span)
                        } else {
                            (State::Implicit, TableKind::Implicit, key.span)
                        };
                        let id = self.shape.add(state, depth);
                        self.shape
                            .insert(current, key.name.clone(), Child::Table(id));
                        builder.table(current, key, id, kind, at);
                        current = id;
                    }
                }
                Some(Child::Value) => return Err(self.cannot_extend(span, i, "a value")),
                Some(Child::Array) => return Err(self.cannot_extend(span, i, "a static array")),
                Some(Child::Table(id)) => {
                    let state = self.shape.table(id).state;
                    current = match state {
                        State::TableArray { .. } if last && array => {
                            self.new_element(id, depth, span, builder)
                        }
                        State::TableArray { .. } if last => {
                            return Err(self.cannot_extend(span, i, "an array of tables"))
                        }
                        State::TableArray { last } => last,
                        State::Inline => {
                            return Err(self.cannot_extend(span, i, "an inline table"))
                        }
                        _ if last && array => {
                            return Err(self.cannot_extend(
                                span,
                                i,
                                "a table, not an array of tables",
                            ))
                        }
                        State::Implicit if last => {
                            self.shape.table(id).state = State::Header;
                            builder.define_table(id, span);
                            id
                        }
                        _ if last => {
                            let path = self.header_path(span, i);
                            return Err(self
                                .lexer
                                .error_at(ErrorKind::DuplicateTable(path), start));
                        }
                        _ => id,
                    };
                }
            }
        }
        self.path = keys;
        Ok(current)
    }

    /// A new element of array of tables `array`, returned as the current table.
    fn new_element<B: TomlBuilder<'a>>(
        &mut self,
        array: TableId,
        depth: usize,
        span: Span,
        builder: &mut B,
    ) -> TableId {
        let id = self.shape.add(State::Element, depth);
        self.shape.table(id).parent = array;
        self.shape.table(array).state = State::TableArray { last: id };
        builder.array_element(array, id, span);
        id
    }

    /// The dotted path of the first `upto + 1` segments of the header at `span`, re-read
    /// from the source (errors only).
    #[cold]
    fn header_path(&self, span: Span, upto: usize) -> String {
        let mut lexer = Lexer::new(self.lexer.src(), span.start);
        while let Some(b'[' | b' ' | b'\t') = lexer.peek() {
            lexer.bump();
        }
        let mut names = Vec::new();
        while names.len() <= upto {
            match lexer.key() {
                Ok(key) => names.push(key.name.into_owned()),
                Err(_) => break,
            }
            lexer.skip_ws();
            if lexer.peek() == Some(b'.') {
                lexer.bump();
                lexer.skip_ws();
            }
        }
        names.join(".")
    }

    #[cold]
    fn cannot_extend(&self, span: Span, upto: usize, what: &'static str) -> Error {
        let path = self.header_path(span, upto);
        self.lexer
            .error_at(ErrorKind::CannotExtend { path, what }, span.start)
    }

    /// `key = value` in table `section`.
    fn key_value<B: TomlBuilder<'a>>(
        &mut self,
        section: TableId,
        builder: &mut B,
        frames: &mut Vec<Frame<'a, B::Array>>,
    ) -> Result<(), Error> {
        let (parent, key) = self.member_key(section, builder)?;
        let depth = self.shape.table(parent).depth;
        let (value, child) = match self.lexer.peek() {
            Some(b'[' | b'{') => {
                frames.clear();
                self.nested_value(builder, depth, frames)?
            }
            _ => (self.scalar(builder)?, Child::Value),
        };
        self.shape.insert(parent, key.name.clone(), child);
        builder.entry(parent, key, value);
        Ok(())
    }

    /// Walks (creating as needed) the tables a dotted key names under `table`, checks the
    /// last segment is new there, and reads the `=`. Returns the table and the last key.
    fn resolve_dotted<B: TomlBuilder<'a>>(
        &mut self,
        table: TableId,
        mut keys: Vec<Key<'a>>,
        builder: &mut B,
    ) -> Result<(TableId, Key<'a>), Error> {
        self.lexer.expect(b'=', "`=` after the key")?;
        self.lexer.skip_ws();
        let mut current = table;
        let last = keys.pop().expect("a key path has at least one segment");
        for key in keys.drain(..) {
            match self.shape.lookup(current, &key.name) {
                None => {
                    let depth = self.shape.table(current).depth + 1;
                    self.check_depth(depth, key.span.start)?;
                    let id = self.shape.add(State::Dotted, depth);
                    self.shape
                        .insert(current, key.name.clone(), Child::Table(id));
                    let span = key.span;
                    builder.table(current, key, id, TableKind::Dotted, span);
                    current = id;
                }
                Some(Child::Table(id)) if self.shape.table(id).state == State::Dotted => {
                    current = id
                }
                Some(child) => {
                    let what = match child {
                        Child::Value => "a value",
                        Child::Array => "a static array",
                        Child::Table(id) => match self.shape.table(id).state {
                            State::Inline => "an inline table",
                            State::TableArray { .. } => "an array of tables",
                            _ => "a table defined by a header",
                        },
                    };
                    let path = key.name.into_owned();
                    return Err(self
                        .lexer
                        .error_at(ErrorKind::CannotExtend { path, what }, key.span.start));
                }
            }
        }
        self.path = keys;
        if self.shape.lookup(current, &last.name).is_some() {
            return Err(self.lexer.error_at(
                ErrorKind::DuplicateKey(last.name.into_owned()),
                last.span.start,
            ));
        }
        Ok((current, last))
    }

    #[inline]
    fn scalar<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<B::Value, Error> {
        let (scalar, span) = self.lexer.scalar()?;
        Ok(match scalar {
            Scalar::String(value, kind) => builder.string(value, kind, span),
            Scalar::Integer(value) => builder.integer(value, span),
            Scalar::Float(value) => builder.float(value, span),
            Scalar::Bool(value) => builder.bool(value, span),
            Scalar::Datetime(value) => builder.datetime(value, span),
        })
    }

    /// Whitespace, newlines and comments between array items.
    fn skip_array_space<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<(), Error> {
        loop {
            self.lexer.skip_ws();
            match self.lexer.peek() {
                Some(b'#') => {
                    let span = self.lexer.comment()?;
                    builder.comment(span);
                }
                Some(b'\n' | b'\r') => {
                    self.lexer.newline()?;
                }
                _ => return Ok(()),
            }
        }
    }

    /// The key of an inline table member, up to and including `=`.
    fn inline_key<B: TomlBuilder<'a>>(
        &mut self,
        id: TableId,
        builder: &mut B,
    ) -> Result<(TableId, Key<'a>), Error> {
        self.member_key(id, builder)
    }

    /// The key of a `key = value` in table `table`, up to and including `=` and the
    /// spaces after it: the table the value goes in (dotted keys walk down) and the key.
    /// Always inlined: its result, returned through memory, was copied out with wider
    /// loads than the stores that wrote it (a store-forwarding stall).
    #[inline(always)]
    fn member_key<B: TomlBuilder<'a>>(
        &mut self,
        table: TableId,
        builder: &mut B,
    ) -> Result<(TableId, Key<'a>), Error> {
        // Most keys are one bare word followed by `=`: no dotted walk, no key vector.
        if let Some(key) = self.lexer.simple_key() {
            if self.shape.lookup(table, &key.name).is_some() {
                return Err(self.lexer.error_at(
                    ErrorKind::DuplicateKey(key.name.into_owned()),
                    key.span.start,
                ));
            }
            return Ok((table, key));
        }
        let keys = self.key_path()?;
        self.resolve_dotted(table, keys, builder)
    }

    /// An array or inline table for a key in a table at `depth`, iteratively: open
    /// containers wait on `frames`, a heap stack.
    fn nested_value<B: TomlBuilder<'a>>(
        &mut self,
        builder: &mut B,
        depth: usize,
        frames: &mut Vec<Frame<'a, B::Array>>,
    ) -> Result<(B::Value, Child), Error> {
        loop {
            // At the start of a value.
            let start = self.lexer.pos();
            let (mut value, mut child) = match self.lexer.peek() {
                Some(b'[') => {
                    self.check_depth(depth + frames.len() + 1, start)?;
                    self.lexer.bump();
                    let array = builder.begin_array(start);
                    self.skip_array_space(builder)?;
                    if self.lexer.peek() == Some(b']') {
                        self.lexer.bump();
                        let span = Span::new(start, self.lexer.pos());
                        (builder.end_array(array, span), Child::Array)
                    } else {
                        frames.push(Frame::Array { array, start });
                        continue;
                    }
                }
                Some(b'{') => {
                    let table_depth = depth + frames.len() + 1;
                    self.check_depth(table_depth, start)?;
                    self.lexer.bump();
                    let id = self.shape.add(State::Inline, table_depth);
                    builder.begin_inline_table(id, start);
                    self.lexer.skip_ws();
                    if self.lexer.peek() == Some(b'}') {
                        self.lexer.bump();
                        let span = Span::new(start, self.lexer.pos());
                        (builder.end_inline_table(id, span), Child::Table(id))
                    } else {
                        let pending = Some(self.inline_key(id, builder)?);
                        frames.push(Frame::Inline { id, start, pending });
                        continue;
                    }
                }
                _ => (self.scalar(builder)?, Child::Value),
            };
            // Hand the finished value to its container, closing containers as they end.
            loop {
                match frames.last_mut() {
                    None => return Ok((value, child)),
                    Some(Frame::Array { array, .. }) => {
                        builder.array_item(array, value);
                        self.skip_array_space(builder)?;
                        let mut close = self.lexer.peek() == Some(b']');
                        if !close {
                            self.lexer.expect(b',', "`,` or `]`")?;
                            self.skip_array_space(builder)?;
                            close = self.lexer.peek() == Some(b']');
                        }
                        if !close {
                            break;
                        }
                        self.lexer.bump();
                        let Some(Frame::Array { array, start }) = frames.pop() else {
                            unreachable!("the top frame is an array")
                        };
                        let span = Span::new(start, self.lexer.pos());
                        value = builder.end_array(array, span);
                        child = Child::Array;
                    }
                    Some(Frame::Inline { id, pending, .. }) => {
                        let (parent, key) = pending
                            .take()
                            .expect("an inline table frame holds the key of its open member");
                        self.shape.insert(parent, key.name.clone(), child);
                        builder.entry(parent, key, value);
                        self.lexer.skip_ws();
                        if self.lexer.peek() == Some(b',') {
                            self.lexer.bump();
                            self.lexer.skip_ws();
                            *pending = Some(self.inline_key(*id, builder)?);
                            break;
                        }
                        self.lexer.expect(b'}', "`,` or `}`")?;
                        let Some(Frame::Inline { id, start, .. }) = frames.pop() else {
                            unreachable!("the top frame is an inline table")
                        };
                        let span = Span::new(start, self.lexer.pos());
                        value = builder.end_inline_table(id, span);
                        child = Child::Table(id);
                    }
                }
            }
        }
    }
}

/// A table of a [`DirectSource`] not closed yet.
const OPEN: u8 = 0;
/// A table read and closed: it cannot be handed out again.
const CLOSED: u8 = 1;
/// A table closed while being skipped: handed out again, it is skipped again.
const SKIPPED: u8 = 2;

/// What the consumer of a [`DirectSource`] reads next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Nothing: the next call moves on to a key or an item.
    Nothing,
    /// The value at the lexer's position: after a key's `=`, or an inline array's item.
    Inline,
    /// Table (or array of tables) `id`, made by a header or a dotted key.
    Table(TableId),
}

/// The header or key the source has read but not yet handed out.
#[derive(Debug)]
enum Ahead {
    /// Nothing read ahead.
    Nothing,
    /// `key = value` for table `parent`, read up to the value; the key is already in
    /// the shape, at `key`.
    Line { parent: TableId, key: u32 },
    /// A header; the keys that follow go in `section`.
    Header { section: TableId },
    /// The end of the document.
    End,
}

/// An open inline array or inline table.
#[derive(Debug)]
enum Inline {
    /// `[`: whether an item has been handed out.
    Array { started: bool },
    /// `{`: its table, and the key (in the shape) of the member being read.
    Table { id: TableId, member: Option<u32> },
}

/// The direct path over a TOML document: a [`PullSource`] that derived types decode
/// from without a [`RawValue`] in between, driven by the one parser's own steps.
///
/// The document is handed out as nested objects in document order: the root's keys,
/// then each header's table under its path, each array of tables as an array of its
/// elements. The parser checks every line and header as it is reached, with its usual
/// rules. A table that closed and is added to again later (`[a]`, `[b]`, `[a.c]`)
/// cannot be handed out in order, so the source falls back there, as on any error or
/// surprise; `quarry::from_slice` then decodes through [`RawValue`], so values and
/// errors are exactly that door's.
pub struct DirectSource<'a> {
    parser: Parser<'a>,
    /// The open tables and arrays of tables, the root first, and whether each is an
    /// array of tables.
    open: Vec<(TableId, bool)>,
    /// Open inline arrays and tables, inside the innermost open table.
    inline: Vec<Inline>,
    next: Next,
    ahead: Ahead,
    /// The table the keys below the last header go in.
    section: TableId,
    /// The line whose value is being read: its table and key (in the shape), which
    /// learns what the value was once it is read.
    line: Option<(TableId, u32)>,
    /// The depth of that line's table: inline nesting counts from it.
    line_depth: usize,
    /// What the last value read was, for the shape.
    child: Child,
    /// The tables from the root down to the table of what is read ahead.
    chain: Vec<TableId>,
    /// How many tables [`PullSource::skip_value`] is inside.
    skipping: usize,
    /// The containers of values skipped with [`PullSource::skip_value`].
    frames: Vec<Frame<'a, ()>>,
    /// A string or key with an escape, decoded.
    scratch: String,
}

impl std::fmt::Debug for DirectSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirectSource")
            .field("pos", &self.parser.lexer.pos())
            .field("open", &self.open)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl<'a> DirectSource<'a> {
    /// A source over `input`: checks the size limit and UTF-8, skips a byte order mark.
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        Ok(DirectSource {
            parser: Parser::new(input, limits)?,
            open: Vec::new(),
            inline: Vec::new(),
            next: Next::Table(ROOT),
            ahead: Ahead::Nothing,
            section: ROOT,
            line: None,
            line_depth: 0,
            child: Child::Value,
            chain: Vec::new(),
            skipping: 0,
            frames: Vec::new(),
            scratch: String::new(),
        })
    }

    /// Whether the whole document has been read (the root table closed at the end).
    pub fn finished(&self) -> bool {
        self.open.is_empty() && self.next == Next::Nothing && matches!(self.ahead, Ahead::End)
    }

    /// Closes the innermost open table or array of tables.
    fn close(&mut self) {
        if let Some((id, _)) = self.open.pop() {
            self.parser.shape.tables[id as usize].closed =
                if self.skipping > 0 { SKIPPED } else { CLOSED };
        }
    }

    /// Whether table `id` may be handed out (again): a table read once cannot be, as
    /// the consumer would see part of it; one skipped can, as it is skipped again
    /// (its key repeats, and a consumer that reads it falls back on a repeated key).
    fn may_open(&self, id: TableId) -> bool {
        self.parser.shape.tables[id as usize].closed != CLOSED
    }

    /// Records what the value of the line just read was, and ends its line.
    fn finish_line(&mut self) -> Result<(), Fallback> {
        if let Some((parent, key)) = self.line.take() {
            if self.next != Next::Nothing || !self.inline.is_empty() {
                return Err(Fallback);
            }
            self.parser.shape.set_child(parent, key, self.child);
            self.parser.end_of_line(&mut ()).map_err(|_| Fallback)?;
        }
        Ok(())
    }

    /// Reads the next header, key or the end (skipping blank and comment lines).
    fn read_ahead(&mut self) -> Result<(), Fallback> {
        loop {
            self.parser.lexer.skip_ws();
            match self.parser.lexer.peek() {
                None => {
                    self.ahead = Ahead::End;
                    return Ok(());
                }
                Some(b'\n' | b'\r') => {
                    self.parser.lexer.newline().map_err(|_| Fallback)?;
                }
                Some(b'#') => self.parser.end_of_line(&mut ()).map_err(|_| Fallback)?,
                Some(b'[') => {
                    let section = self.parser.header(&mut ()).map_err(|_| Fallback)?;
                    self.parser.end_of_line(&mut ()).map_err(|_| Fallback)?;
                    self.section = section;
                    self.ahead = Ahead::Header { section };
                    return Ok(());
                }
                Some(_) => {
                    let (parent, key) = self
                        .parser
                        .member_key(self.section, &mut ())
                        .map_err(|_| Fallback)?;
                    // The key joins its table now, so it is never moved again; its
                    // value's kind is set once the value is read.
                    let key = self.parser.shape.insert(parent, key.name, Child::Value);
                    self.ahead = Ahead::Line { parent, key };
                    return Ok(());
                }
            }
        }
    }

    /// Sets [`DirectSource::chain`] to the tables from the root down to `id`, and says
    /// whether the open tables are a prefix of it.
    fn on_path(&mut self, mut id: TableId) -> bool {
        self.chain.clear();
        while id != NONE {
            self.chain.push(id);
            id = self.parser.shape.tables[id as usize].parent;
        }
        self.chain.reverse();
        self.chain.len() >= self.open.len()
            && self
                .open
                .iter()
                .zip(&self.chain)
                .all(|(&(open, _), &id)| open == id)
    }

    /// Key `at` of the shape, as the consumer sees it.
    fn key(&self, at: u32) -> Text<'a, '_> {
        match &self.parser.shape.keys[at as usize].name {
            Cow::Borrowed(name) => Text::Borrowed(name),
            Cow::Owned(name) => Text::Decoded(name),
        }
    }

    /// [`PullSource::next_key`] in the open table `table`.
    fn next_table_key(&mut self, table: TableId) -> Result<Option<Text<'a, '_>>, Fallback> {
        self.finish_line()?;
        loop {
            if matches!(self.ahead, Ahead::Nothing) {
                self.read_ahead()?;
            }
            let target = match self.ahead {
                Ahead::Line { parent, key } if parent == table => {
                    self.ahead = Ahead::Nothing;
                    self.next = Next::Inline;
                    self.line_depth = self.parser.shape.tables[parent as usize].depth;
                    self.line = Some((parent, key));
                    return Ok(Some(self.key(key)));
                }
                Ahead::Line { parent, .. } => parent,
                Ahead::Header { section } => section,
                Ahead::End | Ahead::Nothing => {
                    self.close();
                    return Ok(None);
                }
            };
            if !self.on_path(target) {
                self.close();
                return Ok(None);
            }
            let depth = self.open.len();
            if self.chain.len() == depth {
                // A header naming the open table itself: the one that made it, or one
                // defining a table its subtables' headers made first.
                self.ahead = Ahead::Nothing;
                continue;
            }
            let child = self.chain[depth];
            if !self.may_open(child) {
                return Err(Fallback);
            }
            self.next = Next::Table(child);
            return Ok(Some(self.key(self.parser.shape.tables[child as usize].key)));
        }
    }

    /// [`PullSource::next_item`] in the open array of tables.
    fn next_element(&mut self) -> Result<bool, Fallback> {
        if matches!(self.ahead, Ahead::Nothing) {
            self.read_ahead()?;
        }
        let target = match self.ahead {
            Ahead::Line { parent, .. } => parent,
            Ahead::Header { section } => section,
            Ahead::End | Ahead::Nothing => NONE,
        };
        let depth = self.open.len();
        if target == NONE || !self.on_path(target) || self.chain.len() == depth {
            self.close();
            return Ok(false);
        }
        let element = self.chain[depth];
        if !self.may_open(element) {
            return Err(Fallback);
        }
        self.next = Next::Table(element);
        Ok(true)
    }

    /// Whether table `id` is an array of tables.
    fn is_table_array(&self, id: TableId) -> bool {
        matches!(
            self.parser.shape.tables[id as usize].state,
            State::TableArray { .. }
        )
    }

    /// Whether the value at the lexer's position is a datetime: `dddd-` or `dd:` (no
    /// number has a `-` after four digits or a `:` anywhere).
    fn at_datetime(&self) -> bool {
        let rest = &self.parser.lexer.src().as_bytes()[self.parser.lexer.pos()..];
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        matches!(
            (digits, rest.get(digits)),
            (4, Some(b'-')) | (2, Some(b':'))
        )
    }

    /// Checks the depth limit for an inline array or table opening here.
    fn check_inline_depth(&self) -> Result<(), Fallback> {
        if self.line_depth + self.inline.len() + 1 > self.parser.limits.max_depth {
            return Err(Fallback);
        }
        Ok(())
    }

    /// The scalar at the lexer's position, read.
    #[inline]
    fn scalar(&mut self) -> Result<Scalar<'a>, Fallback> {
        if self.next != Next::Inline {
            return Err(Fallback);
        }
        let (scalar, _) = self.parser.lexer.scalar().map_err(|_| Fallback)?;
        self.next = Next::Nothing;
        self.child = Child::Value;
        Ok(scalar)
    }

    /// Reads one value of any kind as a [`RawValue`], as the RawValue door builds it.
    fn raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        match self.peek_token() {
            Ok(ValueKind::Array) => {
                self.begin_array()?;
                let mut items = Vec::new();
                let mut first = true;
                while self.next_item(first)? {
                    first = false;
                    items.push(self.raw()?);
                }
                Ok(RawValue::Seq(items))
            }
            Ok(ValueKind::Object) => {
                self.begin_object()?;
                let mut entries = Vec::new();
                let mut first = true;
                while let Some(key) = self.next_key(first)? {
                    first = false;
                    let key = key.into_cow();
                    entries.push((key, self.raw()?));
                }
                Ok(RawValue::Map(entries))
            }
            _ => Ok(match self.scalar()? {
                Scalar::String(value, _) => RawValue::String(value),
                Scalar::Integer(value) => RawValue::Int(value),
                Scalar::Float(value) => RawValue::Float(value),
                Scalar::Bool(value) => RawValue::Bool(value),
                Scalar::Datetime(value) => RawValue::Datetime(value),
            }),
        }
    }
}

impl<'a> PullSource<'a> for DirectSource<'a> {
    #[inline]
    fn peek_token(&mut self) -> Result<ValueKind, Fallback> {
        match self.next {
            Next::Nothing => Err(Fallback),
            Next::Table(id) if self.is_table_array(id) => Ok(ValueKind::Array),
            Next::Table(_) => Ok(ValueKind::Object),
            Next::Inline => match self.parser.lexer.peek() {
                Some(b'"' | b'\'') => Ok(ValueKind::String),
                // A datetime has no JSON kind: `read_raw` reads it.
                Some(b'0'..=b'9') if self.at_datetime() => Err(Fallback),
                Some(b'0'..=b'9' | b'+' | b'-' | b'i' | b'n') => Ok(ValueKind::Number),
                Some(b't' | b'f') => Ok(ValueKind::Bool),
                Some(b'[') => Ok(ValueKind::Array),
                Some(b'{') => Ok(ValueKind::Object),
                _ => Err(Fallback),
            },
        }
    }

    /// TOML has no null.
    fn read_null(&mut self) -> Result<(), Fallback> {
        Err(Fallback)
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool, Fallback> {
        match self.scalar()? {
            Scalar::Bool(b) => Ok(b),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        match self.scalar()? {
            Scalar::Integer(i) => Ok(RawValue::Int(i)),
            Scalar::Float(f) => Ok(RawValue::Float(f)),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        match self.scalar()? {
            Scalar::Integer(i) => Ok(i),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        match self.scalar()? {
            Scalar::Integer(i) => u64::try_from(i).map_err(|_| Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<Text<'a, '_>, Fallback> {
        let text = self.read_cow()?;
        Ok(Text::from_cow(text, &mut self.scratch))
    }

    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        self.read_cow().map(Cow::into_owned)
    }

    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'a, str>, Fallback> {
        match self.scalar()? {
            Scalar::String(s, _) => Ok(s),
            _ => Err(Fallback),
        }
    }

    fn begin_array(&mut self) -> Result<(), Fallback> {
        match self.next {
            Next::Table(id) if self.is_table_array(id) => self.open.push((id, true)),
            Next::Inline if self.parser.lexer.peek() == Some(b'[') => {
                self.check_inline_depth()?;
                self.parser.lexer.bump();
                self.parser
                    .skip_array_space(&mut ())
                    .map_err(|_| Fallback)?;
                self.inline.push(Inline::Array { started: false });
            }
            _ => return Err(Fallback),
        }
        self.next = Next::Nothing;
        Ok(())
    }

    fn next_item(&mut self, _first: bool) -> Result<bool, Fallback> {
        if self.next != Next::Nothing {
            return Err(Fallback);
        }
        match self.inline.last_mut() {
            None => match self.open.last() {
                Some(&(_, true)) => self.next_element(),
                _ => Err(Fallback),
            },
            Some(Inline::Array { started }) => {
                let started = std::mem::replace(started, true);
                let parser = &mut self.parser;
                if started {
                    parser.skip_array_space(&mut ()).map_err(|_| Fallback)?;
                    if parser.lexer.peek() != Some(b']') {
                        parser.lexer.expect(b',', "`,`").map_err(|_| Fallback)?;
                        parser.skip_array_space(&mut ()).map_err(|_| Fallback)?;
                    }
                }
                if parser.lexer.peek() == Some(b']') {
                    parser.lexer.bump();
                    self.inline.pop();
                    self.child = Child::Array;
                    return Ok(false);
                }
                self.next = Next::Inline;
                Ok(true)
            }
            Some(Inline::Table { .. }) => Err(Fallback),
        }
    }

    fn begin_object(&mut self) -> Result<(), Fallback> {
        match self.next {
            Next::Table(id) if !self.is_table_array(id) => self.open.push((id, false)),
            Next::Inline if self.parser.lexer.peek() == Some(b'{') => {
                self.check_inline_depth()?;
                let depth = self.line_depth + self.inline.len() + 1;
                let id = self.parser.shape.add(State::Inline, depth);
                self.parser.lexer.bump();
                self.parser.lexer.skip_ws();
                self.inline.push(Inline::Table { id, member: None });
            }
            _ => return Err(Fallback),
        }
        self.next = Next::Nothing;
        Ok(())
    }

    fn next_key(&mut self, _first: bool) -> Result<Option<Text<'a, '_>>, Fallback> {
        if self.next != Next::Nothing {
            return Err(Fallback);
        }
        let (id, member) = match self.inline.last_mut() {
            None => match self.open.last() {
                Some(&(table, false)) => return self.next_table_key(table),
                _ => return Err(Fallback),
            },
            Some(Inline::Table { id, member }) => (*id, member.take()),
            Some(Inline::Array { .. }) => return Err(Fallback),
        };
        let lexer = &mut self.parser.lexer;
        let close = match member {
            // `{}`: TOML 1.0 has no trailing comma in an inline table.
            None => lexer.peek() == Some(b'}'),
            Some(key) => {
                self.parser.shape.set_child(id, key, self.child);
                let lexer = &mut self.parser.lexer;
                lexer.skip_ws();
                match lexer.peek() {
                    Some(b',') => {
                        lexer.bump();
                        lexer.skip_ws();
                        false
                    }
                    Some(b'}') => true,
                    _ => return Err(Fallback),
                }
            }
        };
        if close {
            self.parser.lexer.bump();
            self.inline.pop();
            self.child = Child::Table(id);
            return Ok(None);
        }
        let (parent, key) = self.parser.member_key(id, &mut ()).map_err(|_| Fallback)?;
        if parent != id {
            // A dotted key inside an inline table.
            return Err(Fallback);
        }
        let key = self.parser.shape.insert(id, key.name, Child::Value);
        self.next = Next::Inline;
        if let Some(Inline::Table { member, .. }) = self.inline.last_mut() {
            *member = Some(key);
        }
        Ok(Some(self.key(key)))
    }

    fn skip_value(&mut self) -> Result<(), Fallback> {
        match self.next {
            Next::Inline => {
                let child = match self.parser.lexer.peek() {
                    Some(b'[' | b'{') => {
                        let mut frames = std::mem::take(&mut self.frames);
                        frames.clear();
                        let depth = self.line_depth + self.inline.len();
                        let result = self.parser.nested_value(&mut (), depth, &mut frames);
                        self.frames = frames;
                        result.map_err(|_| Fallback)?.1
                    }
                    _ => {
                        self.parser.lexer.scalar().map_err(|_| Fallback)?;
                        Child::Value
                    }
                };
                self.next = Next::Nothing;
                self.child = child;
                Ok(())
            }
            Next::Table(id) => {
                // Tables closed while skipping may be handed out again.
                self.skipping += 1;
                let result = if self.is_table_array(id) {
                    self.begin_array().and_then(|()| {
                        let mut first = true;
                        while self.next_item(first)? {
                            first = false;
                            self.skip_value()?;
                        }
                        Ok(())
                    })
                } else {
                    self.begin_object().and_then(|()| {
                        let mut first = true;
                        while self.next_key(first)?.is_some() {
                            first = false;
                            self.skip_value()?;
                        }
                        Ok(())
                    })
                };
                self.skipping -= 1;
                result
            }
            Next::Nothing => Err(Fallback),
        }
    }

    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        self.raw()
    }
}
