//! The one TOML parser, generic over [`TomlBuilder`].
//!
//! Line by line: a comment, a `[table]` or `[[array]]` header, or `key = value`. The
//! parser keeps the *shape* of the document (which keys each table holds and how each
//! table was made), never its values, and checks every redefinition rule against it
//! before the builder hears of anything. Arrays and inline tables nest on a heap stack,
//! so no input can overflow the call stack.
//!
//! Each step quotes the rules it reads from TOML 1.0.0's ABNF (`toml.abnf`).

use std::borrow::Cow;
use std::cell::Cell;

use crate::common::{keep_spare, take_spare, validate_utf8, Limits, NameIndex, Span};

use super::builder::{Key, TableId, TableKind, TomlBuilder, ROOT};
use super::error::{Error, ErrorKind};
use super::lexer::{Lexer, Scalar};

/// What a key in a table holds, as far as the redefinition rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Child {
    /// A scalar.
    Value,
    /// A static array (`a = [...]`).
    Array,
    /// A table or an array of tables.
    Table(TableId),
}

/// How a table was made, which decides what may add to it later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
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
pub(super) const NONE: u32 = u32::MAX;

/// Where the direct path ([`super::DirectSource`]) stands with a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TableRead {
    /// Not closed yet.
    Open,
    /// Read and closed: it cannot be handed out again.
    Closed,
    /// Closed while being skipped: handed out again, it is skipped again.
    Skipped,
}

#[derive(Debug)]
pub(super) struct TableShape {
    pub(super) state: State,
    /// Nesting depth (kept in 32 bits: the record stays 56 bytes).
    pub(super) depth: u32,
    /// The table (or array of tables) this one is a key or element of; [`NONE`] for the
    /// root and for tables not (yet) placed. The direct path walks these links.
    pub(super) parent: TableId,
    /// This table's key in `parent` (an index in [`Shape::keys`]); [`NONE`] for an
    /// element of an array of tables.
    pub(super) key: u32,
    /// Where the direct path stands with this table.
    pub(super) read: TableRead,
    /// The table's first and last key in [`Shape::keys`] (a linked list, so no table
    /// needs a `Vec` of its own).
    head: u32,
    tail: u32,
    len: u32,
    /// Two bits per key, by [`KeyHash::bits`]: a clear one proves a key absent without a walk.
    bloom: u64,
    /// The key a header or dotted key's walk last found here (see [`Shape::find_on_path`]),
    /// or [`NONE`].
    path_hit: u32,
    /// The positions of its keys in [`Shape::keys`], by name, once it has more than
    /// [`INDEX_FROM`]. Boxed, so the record stays one cache line (few tables have an
    /// index, and every table is read on each of its keys' checks).
    index: Option<Box<NameIndex>>,
}

/// A key's hash in the shape, from its length and its first and last eight bytes (so
/// `f01`…`f24` differ, as they would not by their first and last byte alone). Computed
/// once per key: the duplicate check and the insert that follows share it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct KeyHash(u64);

impl KeyHash {
    /// The hash of key `name`.
    #[inline(always)]
    pub(super) fn of(name: &str) -> KeyHash {
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
                u64::from(bytes[0]) << 16
                    | u64::from(bytes[len / 2]) << 8
                    | u64::from(bytes[len - 1]),
                0,
            ),
            0 => (0, 0),
        };
        KeyHash((head ^ tail.rotate_left(29) ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// The two bits (of 64) the key sets in its table's [`TableShape::bloom`], from the
    /// hash's top twelve bits: two shifts and no branch. A 128-bit filter would need two
    /// words and a branch on which word each bit falls in, on every key, and its rarer
    /// false positives save little: a table seldom holds more than a dozen keys, and one
    /// with more than [`INDEX_FROM`] has an index.
    #[inline(always)]
    fn bits(self) -> u64 {
        (1u64 << (self.0 >> 58)) | (1u64 << ((self.0 >> 52) & 63))
    }

    /// Thirty-two well-mixed bits, kept beside the key: unequal tags prove unequal keys
    /// without comparing their text on a walk.
    #[inline]
    fn tag(self) -> u32 {
        (self.0 >> 18) as u32
    }
}

#[derive(Debug)]
pub(super) struct KeyShape<'a> {
    pub(super) name: Cow<'a, str>,
    /// [`KeyHash::tag`] of `name`.
    tag: u32,
    child: Child,
    /// The table's next key, or [`NONE`].
    next: u32,
}

/// Which keys each table holds and how each table was made: all the parser needs to
/// enforce TOML's redefinition rules. Keys of all tables share one list.
#[derive(Debug, Default)]
pub(super) struct Shape<'a> {
    pub(super) tables: Vec<TableShape>,
    pub(super) keys: Vec<KeyShape<'a>>,
}

thread_local! {
    /// The lists of the last shape this thread dropped, emptied, for the next document
    /// to fill: a small document then allocates neither (and malloc does not gather its
    /// free lists for a request that large on every document).
    static SPARE_TABLES: Cell<Vec<TableShape>> = const { Cell::new(Vec::new()) };
    static SPARE_KEYS: Cell<Vec<KeyShape<'static>>> = const { Cell::new(Vec::new()) };
}

/// Appends `value` to `list` where this is inlined, its fields stored straight into the
/// list. `Vec::push` hands the work to `Vec::push_mut`, which LLVM leaves out of line in
/// the key step: the key is then built on the stack field by field and read back by
/// `push_mut` in one 32-byte load, which cannot be forwarded from those stores and waits
/// for them to complete.
#[inline(always)]
pub(super) fn push_inline<T>(list: &mut Vec<T>, value: T) {
    let len = list.len();
    if len == list.capacity() {
        reserve_one(list);
    }
    list.spare_capacity_mut()[0].write(value);
    // SAFETY: `len < capacity`, and the slot at `len` (the first spare one) was just
    // written, so the first `len + 1` items are initialised.
    #[allow(unsafe_code)]
    unsafe {
        list.set_len(len + 1)
    };
}

/// Room for one more item in `list` (out of line: the lists are sized for their input).
#[cold]
#[inline(never)]
fn reserve_one<T>(list: &mut Vec<T>) {
    list.reserve(1);
}

impl Drop for Shape<'_> {
    fn drop(&mut self) {
        keep_spare(&SPARE_TABLES, std::mem::take(&mut self.tables));
        keep_spare(&SPARE_KEYS, std::mem::take(&mut self.keys));
    }
}

impl<'a> Shape<'a> {
    /// Room for the keys and tables a document of `len` bytes typically holds (a key
    /// every 16 bytes, a table every 128, and a few more), so the lists seldom grow and
    /// copy: a growth is a large part of a small document's decode.
    /// The lists of the last shape dropped on this thread are reused.
    fn for_input(len: usize) -> Self {
        let mut tables: Vec<TableShape> = take_spare(&SPARE_TABLES);
        let mut keys: Vec<KeyShape<'a>> = take_spare(&SPARE_KEYS);
        tables.reserve(len / 128 + 4);
        keys.reserve(len / 16 + 16);
        Shape { tables, keys }
    }

    pub(super) fn add(&mut self, state: State, depth: usize) -> TableId {
        self.tables.push(TableShape {
            state,
            // Saturated: a depth past `u32::MAX` still exceeds any limit it is checked against.
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
            parent: NONE,
            key: NONE,
            read: TableRead::Open,
            head: NONE,
            tail: NONE,
            len: 0,
            bloom: 0,
            path_hit: NONE,
            index: None,
        });
        (self.tables.len() - 1) as TableId
    }

    fn table(&mut self, id: TableId) -> &mut TableShape {
        &mut self.tables[id as usize]
    }

    /// What key `name`, whose hash is `hash`, holds in table `id`, if it is there.
    /// Inlined into the parser's key step, which runs on every key.
    #[inline(always)]
    pub(super) fn find(&self, id: TableId, name: &str, hash: KeyHash) -> Option<Child> {
        self.position(id, name, hash)
            .map(|at| self.keys[at as usize].child)
    }

    /// Where key `name`, whose hash is `hash`, is in [`Shape::keys`], if table `id` holds
    /// it.
    #[inline(always)]
    fn position(&self, id: TableId, name: &str, hash: KeyHash) -> Option<u32> {
        let table = &self.tables[id as usize];
        let bits = hash.bits();
        if table.bloom & bits != bits {
            return None;
        }
        if let Some(index) = &table.index {
            return index.get(name, |at| &self.keys[at as usize].name);
        }
        let tag = hash.tag();
        let mut at = table.head;
        while at != NONE {
            let key = &self.keys[at as usize];
            if key.tag == tag && key.name == name {
                return Some(at);
            }
            at = key.next;
        }
        None
    }

    /// [`Shape::find`] for a segment of a header or dotted key, which mostly names the
    /// table the last such walk through table `id` took (`package` in
    /// `[package.metadata.x]`, the array in `[[bin]]`): that key is tried first, and a
    /// walk remembers what it found. The key list of a table made early is spread over
    /// the whole document, so each step of a walk is a cache miss.
    #[inline]
    fn find_on_path(&mut self, id: TableId, name: &str, hash: KeyHash) -> Option<Child> {
        let hit = self.tables[id as usize].path_hit;
        if let Some(key) = self.keys.get(hit as usize) {
            if key.tag == hash.tag() && key.name == name {
                return Some(key.child);
            }
        }
        let at = self.position(id, name, hash)?;
        self.tables[id as usize].path_hit = at;
        Some(self.keys[at as usize].child)
    }

    /// Adds key `name`, whose hash is `hash`, holding `child` to table `id`; returns the
    /// key's index. Inlined into the parser's key step, with the rare index work kept out
    /// of line: a call would save and restore registers on every key.
    #[inline(always)]
    pub(super) fn insert_hashed(
        &mut self,
        id: TableId,
        name: Cow<'a, str>,
        hash: KeyHash,
        child: Child,
    ) -> u32 {
        let at = self.keys.len() as u32;
        let table = &mut self.tables[id as usize];
        if let Some(index) = &mut table.index {
            index_insert(index, &name, at);
        }
        table.bloom |= hash.bits();
        table.len += 1;
        let previous = std::mem::replace(&mut table.tail, at);
        if previous == NONE {
            table.head = at;
        }
        let build_index = table.len > INDEX_FROM && table.index.is_none();
        if let Child::Table(child) = child {
            let child = &mut self.tables[child as usize];
            child.parent = id;
            child.key = at;
        }
        push_inline(
            &mut self.keys,
            KeyShape {
                name,
                tag: hash.tag(),
                child,
                next: NONE,
            },
        );
        if previous != NONE {
            self.keys[previous as usize].next = at;
        }
        if build_index {
            self.build_index(id);
        }
        at
    }

    /// Gives table `id`, grown past [`INDEX_FROM`] keys, its hash index.
    #[cold]
    #[inline(never)]
    fn build_index(&mut self, id: TableId) {
        let mut index = NameIndex::with_capacity(2 * INDEX_FROM as usize);
        let mut at = self.tables[id as usize].head;
        while at != NONE {
            let key = &self.keys[at as usize];
            index.insert(&key.name, at);
            at = key.next;
        }
        self.tables[id as usize].index = Some(Box::new(index));
    }
}

/// Adds key `name`, at `at` in [`Shape::keys`], to a table's index (kept out of line:
/// few tables have one).
#[cold]
#[inline(never)]
fn index_insert(index: &mut NameIndex, name: &str, at: u32) {
    index.insert(name, at);
}

impl Shape<'_> {
    /// Key `at` of table `id` now holds `child` (the direct path adds a key before
    /// reading its value).
    #[inline(always)]
    pub(super) fn set_child(&mut self, id: TableId, at: u32, child: Child) {
        // Most keys hold the value they were added with: nothing to change.
        if self.keys[at as usize].child != child {
            self.change_child(id, at, child);
        }
    }

    /// [`Shape::set_child`] when the kind changes (an array or a table).
    #[inline(never)]
    fn change_child(&mut self, id: TableId, at: u32, child: Child) {
        self.keys[at as usize].child = child;
        if let Child::Table(child) = child {
            let child = &mut self.tables[child as usize];
            child.parent = id;
            child.key = at;
        }
    }
}

/// An array or inline table being parsed.
pub(super) enum Frame<'a, A> {
    Array {
        array: A,
        start: usize,
    },
    Inline {
        id: TableId,
        start: usize,
        /// The table and key the next member value goes to.
        pending: Option<(TableId, Key<'a>, KeyHash)>,
    },
}

/// The TOML parser: one document, one pass, any [`TomlBuilder`].
pub(super) struct Parser<'a> {
    pub(super) lexer: Lexer<'a>,
    pub(super) limits: Limits,
    pub(super) shape: Shape<'a>,
    /// Reused buffer for the segments of a dotted key.
    path: Vec<Key<'a>>,
    /// The last header, when it named an array of tables, and that array: the same
    /// header again adds an element to the same array (see [`Parser::header`]).
    last_array_header: Option<(Span, TableId)>,
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
    #[inline]
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
        let mut shape = Shape::for_input(src.len());
        shape.add(State::Root, 0);
        Ok(Parser {
            lexer: Lexer::new(src, start),
            limits,
            shape,
            path: Vec::new(),
            last_array_header: None,
        })
    }

    /// The source text.
    pub fn src(&self) -> &'a str {
        self.lexer.src()
    }

    // toml = expression *( newline expression )
    // expression =  ws [ comment ]
    // expression =/ ws keyval ws [ comment ]
    // expression =/ ws table ws [ comment ]
    /// Parses the whole document into `builder`.
    pub fn parse<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<(), Error> {
        builder.source(self.lexer.src());
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

    // expression =/ ws keyval ws [ comment ]
    // expression =/ ws table ws [ comment ]
    /// After a header or key/value: spaces, an optional comment, then a newline or the end.
    /// Most lines end right after their value, and are taken here, inline, so that the
    /// common line pays no call.
    #[inline(always)]
    pub(super) fn end_of_line<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<(), Error> {
        if self.lexer.peek() == Some(b'\n') {
            self.lexer.bump();
            return Ok(());
        }
        self.rest_of_line(builder)
    }

    /// [`Parser::end_of_line`] for a line with spaces, a comment or `\r` before its end.
    #[inline(never)]
    fn rest_of_line<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<(), Error> {
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

    // key = simple-key / dotted-key
    // dotted-key = simple-key 1*( dot-sep simple-key )
    // dot-sep   = ws %x2E ws  ; . Period
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

    // table = std-table / array-table
    // std-table = std-table-open key std-table-close
    // std-table-open  = %x5B ws     ; [ Left square bracket
    // std-table-close = ws %x5D     ; ] Right square bracket
    // array-table = array-table-open key array-table-close
    // array-table-open  = %x5B.5B ws  ; [[ Double left square bracket
    // array-table-close = ws %x5D.5D  ; ]] Double right square bracket
    /// `[a.b]` or `[[a.b]]`: returns the table the following keys go in.
    pub(super) fn header<B: TomlBuilder<'a>>(&mut self, builder: &mut B) -> Result<TableId, Error> {
        let start = self.lexer.pos();
        // `[[records]]` after `[[records]]`: the same text names the same array, as
        // nothing between two headers can change the tables on a header's path (a line's
        // keys go in the table the last header made, or in tables under it). Its path is
        // not walked again, which a long array of tables would do for every entry.
        if let Some((last, array)) = self.last_array_header {
            let bytes = self.lexer.src().as_bytes();
            let end = start + (last.end - last.start);
            if bytes.get(start..end) == Some(&bytes[last.start..last.end]) {
                self.lexer.advance_to(end);
                let depth = self.shape.table(array).depth as usize;
                self.last_array_header = Some((Span::new(start, end), array));
                return Ok(self.new_element(array, depth, Span::new(start, end), builder));
            }
        }
        self.last_array_header = None;
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
            let depth = self.shape.table(current).depth as usize + 1;
            let hash = KeyHash::of(&key.name);
            match self.shape.find_on_path(current, &key.name, hash) {
                None => {
                    self.check_depth(depth, key.span.start)?;
                    if last && array {
                        let id = self.shape.add(State::TableArray { last: 0 }, depth);
                        self.shape
                            .insert_hashed(current, key.name.clone(), hash, Child::Table(id));
                        builder.array_of_tables(current, key, id);
                        self.last_array_header = Some((span, id));
                        current = self.new_element(id, depth, span, builder);
                    } else {
                        let (state, kind, at) = if last {
                            (State::Header, TableKind::Header, span)
                        } else {
                            (State::Implicit, TableKind::Implicit, key.span)
                        };
                        let id = self.shape.add(state, depth);
                        self.shape
                            .insert_hashed(current, key.name.clone(), hash, Child::Table(id));
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
                            self.last_array_header = Some((span, id));
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

    // keyval = key keyval-sep val
    /// `key = value` in table `section`.
    pub(super) fn key_value<B: TomlBuilder<'a>>(
        &mut self,
        section: TableId,
        builder: &mut B,
        frames: &mut Vec<Frame<'a, B::Array>>,
    ) -> Result<(), Error> {
        // Most keys are one bare word: the value is read on a path of its own, so the
        // key stays in registers instead of being merged through memory with the result
        // of the dotted walk (and read back with wider loads than wrote it: a
        // store-forwarding stall on every line).
        if let Some(key) = self.lexer.simple_key() {
            let hash = KeyHash::of(&key.name);
            if self.shape.find(section, &key.name, hash).is_some() {
                return Err(self.duplicate_key(key));
            }
            return self.member_value(section, key, hash, builder, frames);
        }
        let keys = self.key_path()?;
        let (parent, key, hash) = self.resolve_dotted(section, keys, builder)?;
        self.member_value(parent, key, hash, builder, frames)
    }

    /// A duplicate `key`.
    #[cold]
    #[inline(never)]
    fn duplicate_key(&self, key: Key<'a>) -> Error {
        self.lexer.error_at(
            ErrorKind::DuplicateKey(key.name.into_owned()),
            key.span.start,
        )
    }

    /// The value of `key` in table `parent`, and the entry.
    #[inline(always)]
    fn member_value<B: TomlBuilder<'a>>(
        &mut self,
        parent: TableId,
        key: Key<'a>,
        hash: KeyHash,
        builder: &mut B,
        frames: &mut Vec<Frame<'a, B::Array>>,
    ) -> Result<(), Error> {
        let depth = self.shape.table(parent).depth as usize;
        let (value, child) = match self.lexer.peek() {
            Some(b'[' | b'{') => {
                frames.clear();
                self.nested_value(builder, depth, frames)?
            }
            _ => (self.scalar(builder)?, Child::Value),
        };
        self.shape
            .insert_hashed(parent, key.name.clone(), hash, child);
        builder.entry(parent, key, value);
        Ok(())
    }

    // keyval-sep = ws %x3D ws ; =
    /// Walks (creating as needed) the tables a dotted key names under `table`, checks the
    /// last segment is new there, and reads the `=`. Returns the table and the last key.
    fn resolve_dotted<B: TomlBuilder<'a>>(
        &mut self,
        table: TableId,
        mut keys: Vec<Key<'a>>,
        builder: &mut B,
    ) -> Result<(TableId, Key<'a>, KeyHash), Error> {
        self.lexer.expect(b'=', "`=` after the key")?;
        self.lexer.skip_ws();
        let mut current = table;
        let last = keys.pop().expect("a key path has at least one segment");
        for key in keys.drain(..) {
            let hash = KeyHash::of(&key.name);
            match self.shape.find_on_path(current, &key.name, hash) {
                None => {
                    let depth = self.shape.table(current).depth as usize + 1;
                    self.check_depth(depth, key.span.start)?;
                    let id = self.shape.add(State::Dotted, depth);
                    self.shape
                        .insert_hashed(current, key.name.clone(), hash, Child::Table(id));
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
        let hash = KeyHash::of(&last.name);
        if self.shape.find(current, &last.name, hash).is_some() {
            return Err(self.lexer.error_at(
                ErrorKind::DuplicateKey(last.name.into_owned()),
                last.span.start,
            ));
        }
        Ok((current, last, hash))
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

    // ws-comment-newline = *( wschar / [ comment ] newline )
    /// Whitespace, newlines and comments between array items.
    pub(super) fn skip_array_space<B: TomlBuilder<'a>>(
        &mut self,
        builder: &mut B,
    ) -> Result<(), Error> {
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

    // inline-table-keyvals = keyval [ inline-table-sep inline-table-keyvals ]
    /// The key of an inline table member, up to and including `=`.
    fn inline_key<B: TomlBuilder<'a>>(
        &mut self,
        id: TableId,
        builder: &mut B,
    ) -> Result<(TableId, Key<'a>, KeyHash), Error> {
        self.member_key(id, builder)
    }

    // keyval = key keyval-sep val
    /// The key of a `key = value` in table `table`, up to and including `=` and the
    /// spaces after it: the table the value goes in (dotted keys walk down) and the key.
    /// Always inlined: its result, returned through memory, would be copied out with
    /// wider loads than the stores that wrote it (a store-forwarding stall).
    #[inline(always)]
    pub(super) fn member_key<B: TomlBuilder<'a>>(
        &mut self,
        table: TableId,
        builder: &mut B,
    ) -> Result<(TableId, Key<'a>, KeyHash), Error> {
        // Most keys are one bare word followed by `=`: no dotted walk, no key vector.
        if let Some(key) = self.lexer.simple_key() {
            let hash = KeyHash::of(&key.name);
            if self.shape.find(table, &key.name, hash).is_some() {
                return Err(self.lexer.error_at(
                    ErrorKind::DuplicateKey(key.name.into_owned()),
                    key.span.start,
                ));
            }
            return Ok((table, key, hash));
        }
        let keys = self.key_path()?;
        self.resolve_dotted(table, keys, builder)
    }

    // array = array-open [ array-values ] ws-comment-newline array-close
    // array-values =  ws-comment-newline val ws-comment-newline array-sep array-values
    // array-values =/ ws-comment-newline val ws-comment-newline [ array-sep ]
    // array-sep = %x2C  ; , Comma
    // inline-table = inline-table-open [ inline-table-keyvals ] inline-table-close
    // inline-table-open  = %x7B ws     ; {
    // inline-table-close = ws %x7D     ; }
    // inline-table-sep   = ws %x2C ws  ; , Comma
    /// An array or inline table for a key in a table at `depth`, iteratively: open
    /// containers wait on `frames`, a heap stack.
    pub(super) fn nested_value<B: TomlBuilder<'a>>(
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
                        let (parent, key, hash) = pending
                            .take()
                            .expect("an inline table frame holds the key of its open member");
                        self.shape
                            .insert_hashed(parent, key.name.clone(), hash, child);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::SPARE_BYTES;

    #[test]
    fn a_table_and_a_key_of_the_shape_are_small() {
        // Every table is read on each of its keys' duplicate checks, and a document
        // has one key every few bytes: a table's record fits in a cache line, and a
        // key's hash tag fits in what was padding.
        assert_eq!(std::mem::size_of::<TableShape>(), 56);
        assert_eq!(std::mem::size_of::<KeyShape<'_>>(), 40);
    }

    #[test]
    fn a_dropped_shape_lends_its_lists_to_the_next_on_its_thread() {
        let mut first = Shape::for_input(4096);
        first.add(State::Root, 0);
        let (tables, keys) = (first.tables.as_ptr(), first.keys.as_ptr());
        drop(first);
        let second = Shape::for_input(100);
        assert_eq!(
            (second.tables.as_ptr(), second.keys.as_ptr()),
            (tables, keys)
        );
        assert!(second.tables.is_empty() && second.keys.capacity() >= 4096 / 16);
        drop(second);
        // Lists past the bound go back to the allocator.
        let large = Shape::for_input(SPARE_BYTES * 16);
        let keys = large.keys.as_ptr();
        drop(large);
        assert_ne!(Shape::for_input(0).keys.as_ptr(), keys);
        // Another thread has lists of its own.
        std::thread::spawn(|| assert_eq!(Shape::for_input(0).keys.capacity(), 16))
            .join()
            .unwrap();
    }

    #[test]
    fn an_inlined_push_keeps_every_item_through_growth() {
        // Owned strings, so a lost or doubled item shows as a wrong text (or a double
        // free under the allocator's checks), from a list with no room and one with room
        // for three.
        for start in [Vec::new(), Vec::with_capacity(3)] {
            let mut list: Vec<String> = start;
            for i in 0..100 {
                let full = list.len() == list.capacity();
                let capacity = list.capacity();
                push_inline(&mut list, i.to_string());
                assert_eq!(list.len(), i + 1);
                assert!(full || list.capacity() == capacity, "grew while not full");
            }
            let expected: Vec<String> = (0..100).map(|i| i.to_string()).collect();
            assert_eq!(list, expected);
        }
    }

    #[test]
    fn every_key_added_is_found_and_no_other_before_and_after_the_index() {
        // The filter may say "maybe" for a key never added, never "no" for one that was.
        let mut shape = Shape::for_input(0);
        let root = shape.add(State::Root, 0);
        let names: Vec<String> = (0..3 * INDEX_FROM).map(|i| format!("key{i}")).collect();
        for (n, name) in names.iter().enumerate() {
            let hash = KeyHash::of(name);
            assert_eq!(
                shape.find(root, name, hash),
                None,
                "{name} before it is added"
            );
            shape.insert_hashed(root, Cow::Owned(name.clone()), hash, Child::Value);
            for added in &names[..=n] {
                assert_eq!(
                    shape.find(root, added, KeyHash::of(added)),
                    Some(Child::Value)
                );
            }
            assert_eq!(shape.find(root, "absent", KeyHash::of("absent")), None);
        }
        assert_eq!(KeyHash::of("key1").bits().count_ones(), 2);
        // A key whose value turns out to be an array says so through the index too.
        let last = &names[names.len() - 1];
        shape.set_child(root, shape.keys.len() as u32 - 1, Child::Array);
        assert_eq!(
            shape.find(root, last, KeyHash::of(last)),
            Some(Child::Array)
        );
    }

    #[test]
    fn a_key_is_found_by_its_text_not_by_its_hash_alone() {
        let mut shape = Shape::for_input(0);
        let root = shape.add(State::Root, 0);
        // Same length, same first and last eight bytes: the same hash.
        let (a, b) = ("abcdefgh_1_ijklmnop", "abcdefgh_2_ijklmnop");
        assert_eq!(KeyHash::of(a), KeyHash::of(b));
        let hash = KeyHash::of(a);
        shape.insert_hashed(root, Cow::Borrowed(a), hash, Child::Value);
        assert_eq!(shape.find(root, a, hash), Some(Child::Value));
        assert_eq!(shape.find(root, b, hash), None);
        shape.insert_hashed(root, Cow::Owned(b.to_owned()), hash, Child::Array);
        assert_eq!(shape.find(root, b, hash), Some(Child::Array));
        assert_eq!(shape.find(root, a, hash), Some(Child::Value));
    }
}
