//! The one TOML parser, generic over [`TomlBuilder`].
//!
//! Line by line: a comment, a `[table]` or `[[array]]` header, or `key = value`. The
//! parser keeps the *shape* of the document (which keys each table holds and how each
//! table was made), never its values, and checks every redefinition rule against it
//! before the builder hears of anything. Arrays and inline tables nest on a heap stack,
//! so no input can overflow the call stack.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::common::{Limits, Span};

use super::builder::{Key, TableId, TableKind, TomlBuilder, ROOT};
use super::error::{Error, ErrorKind};
use super::lexer::{Lexer, Scalar};

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
const INDEX_FROM: u32 = 12;

/// No key: the end of a table's key list.
const NONE: u32 = u32::MAX;

#[derive(Debug)]
struct TableShape<'a> {
    state: State,
    depth: usize,
    /// The table's first and last key in [`Shape::keys`] (a linked list, so no table
    /// needs a `Vec` of its own).
    head: u32,
    tail: u32,
    len: u32,
    /// One bit per key, by [`key_bit`]: a clear bit proves a key absent without a walk.
    bloom: u64,
    index: Option<HashMap<Cow<'a, str>, Child>>,
}

/// The bit a key sets in its table's [`TableShape::bloom`].
#[inline]
fn key_bit(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let (first, last) = match bytes {
        [] => (0, 0),
        [first, .., last] => (*first, *last),
        [only] => (*only, *only),
    };
    let hash = (bytes.len() as u32)
        .wrapping_mul(0x9E37_79B9)
        .wrapping_add(u32::from(first).wrapping_mul(31))
        .wrapping_add(u32::from(last).wrapping_mul(131));
    1 << ((hash ^ (hash >> 7)) & 63)
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
        if table.bloom & key_bit(name) == 0 {
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

    fn insert(&mut self, id: TableId, name: Cow<'a, str>, child: Child) {
        let at = self.keys.len() as u32;
        let table = &mut self.tables[id as usize];
        if let Some(index) = &mut table.index {
            index.insert(name.clone(), child);
        }
        table.bloom |= key_bit(&name);
        table.len += 1;
        let previous = std::mem::replace(&mut table.tail, at);
        if previous == NONE {
            table.head = at;
        }
        let build_index = table.len > INDEX_FROM && table.index.is_none();
        let head = table.head;
        self.keys.push(KeyShape {
            name,
            child,
            next: NONE,
        });
        if previous != NONE {
            self.keys[previous as usize].next = at;
        }
        if build_index {
            let mut index = HashMap::with_capacity(2 * INDEX_FROM as usize);
            let mut at = head;
            while at != NONE {
                let key = &self.keys[at as usize];
                index.insert(key.name.clone(), key.child);
                at = key.next;
            }
            self.tables[id as usize].index = Some(index);
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
        let src = std::str::from_utf8(input)
            .map_err(|e| Error::new(ErrorKind::InvalidUtf8, input, e.valid_up_to()))?;
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
    #[inline]
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
