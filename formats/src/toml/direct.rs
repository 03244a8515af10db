//! TOML's direct path: [`DirectSource`], the [`PullSource`] derived types read a TOML
//! document from, stepping the one parser (its headers, keys and line ends, with their
//! rules) and its lexer, never a second grammar.

use std::borrow::Cow;
use std::cell::Cell;

use quarry_raw_value::pull::cow_into_string;
use quarry_raw_value::{Fallback, Position, PullSource, RawValue, TextRef, ValueKind};

use crate::common::{keep_spare, take_spare, Limits, LineCursor};

use super::builder::{TableId, ROOT};
use super::error::Error;
use super::lexer::{PlainNumber, Scalar};
use super::parser::*;

/// The keys a consumer reads, when it said it passes over all others.
type Known = Option<&'static [&'static str]>;

thread_local! {
    /// The open-table and path lists of the last source this thread dropped, emptied,
    /// for the next document: the root's entry in a new list would be a malloc and a
    /// free on every document, which a small document's decode feels.
    static SPARE_OPEN: Cell<Vec<(TableId, bool, Known)>> = const { Cell::new(Vec::new()) };
    static SPARE_CHAIN: Cell<Vec<TableId>> = const { Cell::new(Vec::new()) };
}

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

/// `name`'s text when it borrows the source.
#[inline(always)]
fn borrowed<'a>(name: &Cow<'a, str>) -> Option<&'a str> {
    match name {
        Cow::Borrowed(name) => Some(name),
        Cow::Owned(_) => None,
    }
}

/// The header or key the source has read but not yet handed out.
#[derive(Debug)]
enum Ahead<'a> {
    /// Nothing read ahead.
    Nothing,
    /// `key = value` for table `parent`, read up to the value; the key is already in
    /// the shape, at `key`, and `name` is its text when the source holds it as is.
    Line {
        parent: TableId,
        key: u32,
        name: Option<&'a str>,
    },
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
/// cannot be handed out in order: when the addition is under a key the table's consumer
/// said it passes over ([`PullSource::ignores_keys_but`]), its section is checked and
/// passed over where it stands; otherwise the source falls back there, as on any error
/// or surprise, and `quarry::from_slice` decodes through [`RawValue`], so values and
/// errors are exactly that door's.
pub struct DirectSource<'a> {
    parser: Parser<'a>,
    /// The open tables and arrays of tables, the root first: whether each is an array
    /// of tables, and the keys its consumer reads when it said it passes over all
    /// others ([`PullSource::ignores_keys_but`]).
    open: Vec<(TableId, bool, Known)>,
    /// Open inline arrays and tables, inside the innermost open table.
    inline: Vec<Inline>,
    next: Next,
    ahead: Ahead<'a>,
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
    /// The table [`DirectSource::chain`] leads to ([`NONE`] while it is empty).
    chain_of: TableId,
    /// How many tables [`PullSource::skip_value`] is inside.
    skipping: usize,
    /// The containers of values skipped with [`PullSource::skip_value`].
    frames: Vec<Frame<'a, ()>>,
    /// A string or key with an escape, decoded.
    scratch: String,
    /// The tables with a key that were read and closed, with the keys their consumers
    /// read, when they said so (elements of arrays of tables are left out, so an array
    /// of records costs nothing here). Looked up only for a header under a closed table.
    known: Vec<(TableId, &'static [&'static str])>,
    /// Where lines start, counted as far as a value was placed.
    lines: LineCursor,
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

impl Drop for DirectSource<'_> {
    fn drop(&mut self) {
        keep_spare(&SPARE_OPEN, std::mem::take(&mut self.open));
        keep_spare(&SPARE_CHAIN, std::mem::take(&mut self.chain));
    }
}

impl<'a> DirectSource<'a> {
    /// A source over `input`: checks the size limit and UTF-8, skips a byte order mark.
    #[inline]
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        Ok(DirectSource {
            parser: Parser::new(input, limits)?,
            open: take_spare(&SPARE_OPEN),
            inline: Vec::new(),
            next: Next::Table(ROOT),
            ahead: Ahead::Nothing,
            section: ROOT,
            line: None,
            line_depth: 0,
            child: Child::Value,
            chain: take_spare(&SPARE_CHAIN),
            chain_of: NONE,
            skipping: 0,
            frames: Vec::new(),
            scratch: String::new(),
            known: Vec::new(),
            lines: LineCursor::default(),
        })
    }

    /// Closes the innermost open table or array of tables.
    #[inline]
    fn close(&mut self) {
        if let Some((id, _, known)) = self.open.pop() {
            let table = &mut self.parser.shape.tables[id as usize];
            table.read = if self.skipping > 0 {
                TableRead::Skipped
            } else {
                if let (Some(known), true) = (known, table.key != NONE) {
                    if self.known.capacity() == 0 {
                        self.known.reserve(16);
                    }
                    self.known.push((id, known));
                }
                TableRead::Closed
            };
        }
    }

    /// Whether the table a header names lies under a key that the consumer of an open
    /// or closed table passes over: then nothing its section adds is read, and the
    /// section is checked and passed over where it stands, without closing the open
    /// tables (`[[a]]`, `[b.x]`, `[[a]]` for a consumer of the root that passes over
    /// `b` reads one array), nor handing out a closed table again.
    ///
    /// Walking up from the section, the verdict is the topmost table's that decides:
    /// one read or being read whose consumer passes over the key below it says yes; one
    /// never read or skipped says no (the usual steps decide there). The walk stops at
    /// the first open table, as the tables above it lead to it.
    #[inline(never)]
    fn passed_over(&self, section: TableId) -> bool {
        let tables = &self.parser.shape.tables;
        let innermost = self.open.last().map_or(NONE, |&(id, ..)| id);
        let mut verdict = false;
        let mut child = section;
        loop {
            let table = tables[child as usize].parent;
            if table == NONE {
                return verdict;
            }
            if table == innermost {
                // Its consumer is handed the key below it next, and passes over it there.
                return verdict;
            }
            let read = tables[table as usize].read;
            let open = (read == TableRead::Open)
                .then(|| self.open.iter().find(|&&(id, ..)| id == table))
                .flatten();
            if let Some(&(_, _, known)) = open {
                return verdict | self.passes_over(known, child);
            }
            if read == TableRead::Closed {
                let known = self.known.iter().rev().find(|&&(id, _)| id == table);
                let known = known.map(|&(_, known)| known);
                verdict |= self.passes_over(known, child);
            } else {
                verdict = false;
            }
            child = table;
        }
    }

    /// Whether a consumer that reads `known` passes over the key of `child`.
    fn passes_over(&self, known: Known, child: TableId) -> bool {
        let Some(known) = known else {
            return false;
        };
        let key = self.parser.shape.tables[child as usize].key;
        key != NONE && {
            let name = &self.parser.shape.keys[key as usize].name;
            !known.iter().any(|k| *k == name)
        }
    }

    /// Reads the lines of a passed-over section up to the next header or the end, with
    /// the parser's rules.
    #[cold]
    #[inline(never)]
    fn pass_over_section(&mut self) -> Result<(), Fallback> {
        let mut frames = std::mem::take(&mut self.frames);
        let result = loop {
            self.parser.lexer.skip_ws();
            let line = match self.parser.lexer.peek() {
                None | Some(b'[') => break Ok(()),
                Some(b'\n' | b'\r') => self.parser.lexer.newline().map(drop),
                Some(b'#') => self.parser.end_of_line(&mut ()),
                Some(_) => self
                    .parser
                    .key_value(self.section, &mut (), &mut frames)
                    .and_then(|()| self.parser.end_of_line(&mut ())),
            };
            if line.is_err() {
                break Err(Fallback);
            }
        };
        self.frames = frames;
        result
    }

    /// Whether table `id` may be handed out (again): a table read once cannot be, as
    /// the consumer would see part of it; one skipped can, as it is skipped again
    /// (its key repeats, and a consumer that reads it falls back on a repeated key).
    fn may_open(&self, id: TableId) -> bool {
        self.parser.shape.tables[id as usize].read != TableRead::Closed
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
                    if !self.passed_over(section) {
                        self.ahead = Ahead::Header { section };
                        return Ok(());
                    }
                    self.pass_over_section()?;
                }
                Some(_) => {
                    // Most keys are one bare word: read on a path of their own, the key
                    // stays in registers (merged with the dotted walk's result through
                    // memory, it would be read back with wider loads than wrote it: a
                    // store-forwarding stall on every line).
                    let section = self.section;
                    if let Some((key, name)) = self.bare_key(section)? {
                        self.ahead = Ahead::Line {
                            parent: section,
                            key,
                            name,
                        };
                        return Ok(());
                    }
                    return self.read_ahead_dotted();
                }
            }
        }
    }

    /// A key that is one bare word, added to `table`: its place in the shape and its text;
    /// `None`, with nothing read, for any other key. A key the table already has falls
    /// back (the RawValue path reports it).
    #[inline(always)]
    fn bare_key(&mut self, table: TableId) -> Result<Option<(u32, Option<&'a str>)>, Fallback> {
        let Some(key) = self.parser.lexer.simple_key() else {
            return Ok(None);
        };
        let hash = KeyHash::of(&key.name);
        if self.parser.shape.find(table, &key.name, hash).is_some() {
            return Err(Fallback);
        }
        let name = borrowed(&key.name);
        let key = self
            .parser
            .shape
            .insert_hashed(table, key.name, hash, Child::Value);
        Ok(Some((key, name)))
    }

    /// [`DirectSource::read_ahead`] for a key that is not one bare word (dotted or
    /// quoted).
    #[inline(never)]
    fn read_ahead_dotted(&mut self) -> Result<(), Fallback> {
        let (parent, key, hash) = self
            .parser
            .member_key(self.section, &mut ())
            .map_err(|_| Fallback)?;
        // The key joins its table now, so it is never moved again; its value's kind is
        // set once the value is read.
        let name = borrowed(&key.name);
        let key = self
            .parser
            .shape
            .insert_hashed(parent, key.name, hash, Child::Value);
        self.ahead = Ahead::Line { parent, key, name };
        Ok(())
    }

    /// The key of a member of inline table `id` that is not one bare word, added to the
    /// table: its place in the shape, and its text when the source holds it as is. A
    /// dotted key falls back.
    #[inline(never)]
    fn inline_member_key(&mut self, id: TableId) -> Result<(u32, Option<&'a str>), Fallback> {
        let (parent, key, hash) = self.parser.member_key(id, &mut ()).map_err(|_| Fallback)?;
        if parent != id {
            return Err(Fallback);
        }
        let name = borrowed(&key.name);
        let key = self
            .parser
            .shape
            .insert_hashed(id, key.name, hash, Child::Value);
        Ok((key, name))
    }

    /// Sets [`DirectSource::chain`] to the tables from the root down to `id`, and says
    /// whether the open tables are a prefix of it.
    fn on_path(&mut self, id: TableId) -> bool {
        self.set_chain(id);
        self.chain.len() >= self.open.len()
            && self
                .open
                .iter()
                .zip(&self.chain)
                .all(|(&(open, ..), &id)| open == id)
    }

    /// Sets [`DirectSource::chain`] to the tables from the root down to `id`. Kept for
    /// the next call about the same table: a header is looked at once for each table it
    /// closes, and a table's parents never change.
    fn set_chain(&mut self, mut id: TableId) {
        if self.chain_of == id {
            return;
        }
        self.chain_of = id;
        self.chain.clear();
        while id != NONE {
            self.chain.push(id);
            id = self.parser.shape.tables[id as usize].parent;
        }
        self.chain.reverse();
    }

    /// Key `at` of the shape, as the consumer sees it.
    fn key(&self, at: u32) -> TextRef<'a, '_> {
        match &self.parser.shape.keys[at as usize].name {
            Cow::Borrowed(name) => TextRef::Borrowed(name),
            Cow::Owned(name) => TextRef::Decoded(name),
        }
    }

    /// Key `at`, just added to the shape, whose text is `name` when the source holds it
    /// as is: then the consumer gets that, and the shape's copy is not read back at once
    /// (a load of the name just stored would stall on store forwarding).
    #[inline(always)]
    fn new_key(&self, at: u32, name: Option<&'a str>) -> TextRef<'a, '_> {
        match name {
            Some(name) => TextRef::Borrowed(name),
            None => self.key(at),
        }
    }

    /// [`PullSource::next_key`] in the open table `table`.
    fn next_table_key(&mut self, table: TableId) -> Result<Option<TextRef<'a, '_>>, Fallback> {
        self.finish_line()?;
        loop {
            if matches!(self.ahead, Ahead::Nothing) {
                self.read_ahead()?;
            }
            let target = match self.ahead {
                Ahead::Line { parent, key, name } if parent == table => {
                    self.ahead = Ahead::Nothing;
                    self.next = Next::Inline;
                    self.line_depth = self.parser.shape.tables[parent as usize].depth as usize;
                    self.line = Some((parent, key));
                    return Ok(Some(self.new_key(key, name)));
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

    /// The plain number at the lexer's position, read ([`Lexer::plain_number`]); `None`
    /// for any other value, not read.
    ///
    /// [`Lexer::plain_number`]: super::lexer::Lexer::plain_number
    #[inline(always)]
    fn plain_number(&mut self) -> Option<PlainNumber> {
        if self.next != Next::Inline {
            return None;
        }
        let number = self.parser.lexer.plain_number()?;
        self.next = Next::Nothing;
        self.child = Child::Value;
        Some(number)
    }

    /// The scalar at the lexer's position, read.
    #[inline]
    fn scalar(&mut self) -> Result<Scalar<'a>, Fallback> {
        if self.next != Next::Inline {
            return Err(Fallback);
        }
        let scalar = self.parser.lexer.value().map_err(|_| Fallback)?;
        self.next = Next::Nothing;
        self.child = Child::Value;
        Ok(scalar)
    }

    /// Reads one value of any kind as a [`RawValue`], as the RawValue path builds it.
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
    const TYPED_STRINGS: bool = true;

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
        if self.next == Next::Inline {
            if let Some(b) = self.parser.lexer.boolean() {
                self.next = Next::Nothing;
                self.child = Child::Value;
                return Ok(b);
            }
        }
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

    /// [`PullSource::read_f64`] without a [`RawValue`] in between (whose build and drop
    /// would cost every float field).
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Fallback> {
        match self.plain_number() {
            Some(PlainNumber::Float(f)) => return Ok(f),
            Some(PlainNumber::Integer(i)) => return Ok(i as f64),
            None => {}
        }
        match self.scalar()? {
            Scalar::Float(f) => Ok(f),
            Scalar::Integer(i) => Ok(i as f64),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        match self.plain_number() {
            Some(PlainNumber::Integer(i)) => return Ok(i),
            Some(PlainNumber::Float(_)) => return Err(Fallback),
            None => {}
        }
        match self.scalar()? {
            Scalar::Integer(i) => Ok(i),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        match self.plain_number() {
            Some(PlainNumber::Integer(i)) => return u64::try_from(i).map_err(|_| Fallback),
            Some(PlainNumber::Float(_)) => return Err(Fallback),
            None => {}
        }
        match self.scalar()? {
            Scalar::Integer(i) => u64::try_from(i).map_err(|_| Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
        let text = self.read_cow()?;
        Ok(TextRef::from_cow(text, &mut self.scratch))
    }

    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        self.read_cow().map(cow_into_string)
    }

    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'a, str>, Fallback> {
        if self.next == Next::Inline {
            if let Some(text) = self.parser.lexer.basic_string_value() {
                self.next = Next::Nothing;
                self.child = Child::Value;
                return text.map_err(|_| Fallback);
            }
        }
        match self.scalar()? {
            Scalar::String(s, _) => Ok(s),
            _ => Err(Fallback),
        }
    }

    fn begin_array(&mut self) -> Result<(), Fallback> {
        match self.next {
            Next::Table(id) if self.is_table_array(id) => self.open.push((id, true, None)),
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
                Some(&(_, true, _)) => self.next_element(),
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
            Next::Table(id) if !self.is_table_array(id) => self.open.push((id, false, None)),
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

    fn next_key(&mut self, _first: bool) -> Result<Option<TextRef<'a, '_>>, Fallback> {
        if self.next != Next::Nothing {
            return Err(Fallback);
        }
        let (id, member) = match self.inline.last_mut() {
            None => match self.open.last() {
                Some(&(table, false, _)) => return self.next_table_key(table),
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
        // A bare word on a path of its own, as in `read_ahead`.
        let (key, name) = match self.bare_key(id)? {
            Some(key) => key,
            None => self.inline_member_key(id)?,
        };
        self.next = Next::Inline;
        if let Some(Inline::Table { member, .. }) = self.inline.last_mut() {
            *member = Some(key);
        }
        Ok(Some(self.new_key(key, name)))
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
                        self.parser.lexer.value().map_err(|_| Fallback)?;
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

    #[inline]
    fn ignores_keys_but(&mut self, known: &'static [&'static str]) {
        // Only a table of the document may be added to later: not an inline table.
        if let (true, Some((_, false, slot))) = (self.inline.is_empty(), self.open.last_mut()) {
            *slot = Some(known);
        }
    }

    /// A value written inline (after `=`, or an inline array's item) is placed where it
    /// stands; a table made by a header or dotted keys falls back.
    fn value_start(&mut self) -> Result<(usize, Option<Position>), Fallback> {
        if self.next != Next::Inline {
            return Err(Fallback);
        }
        let (src, pos) = (self.parser.lexer.src(), self.parser.lexer.pos());
        Ok((pos, Some(self.lines.position(src.as_bytes(), pos))))
    }

    fn value_end(&mut self) -> Result<usize, Fallback> {
        Ok(self.parser.lexer.pos())
    }

    fn finish(&mut self) -> Result<(), Fallback> {
        let ended =
            self.open.is_empty() && self.next == Next::Nothing && matches!(self.ahead, Ahead::End);
        ended.then_some(()).ok_or(Fallback)
    }
}
