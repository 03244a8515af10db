//! The tree door: a read-only TOML document that keeps how everything was written —
//! each table's kind (header, implicit, dotted, inline, array element), each string's
//! kind, every key's and value's span, and the comments.
//!
//! Nodes live in one vector, 24 bytes each; a table's entries sit together in one list
//! shared by all tables, in the order its keys first appeared (so a table extended by a
//! later header reads as one table), and an array's items or an array of tables'
//! elements together in another. Strings and keys written without escapes are read from
//! the source. Building a tree therefore costs no allocation per table, array or
//! string: only the lists grow.

use std::borrow::Cow;
use std::cell::Cell;
use std::convert::Infallible;
use std::fmt;

use quarry_raw_value::{Datetime, RawValue};

use crate::common::{keep_spare, take_spare, Comment, EntryKey, HasSpan, Span, Tree, TreeNode};

use super::builder::{Key, StringKind, TableId, TableKind, TomlBuilder};

/// A parsed TOML document. Get around it from [`Document::root`].
///
/// ```
/// use quarry_formats::toml::{self, NodeKind, TableKind};
/// use quarry_formats::TreeNode;
///
/// let doc = toml::parse_tree(b"# deps\n[dependencies]\nserde = { version = \"1\" }\n").unwrap();
/// let serde = doc.root().get("dependencies").and_then(|d| d.get("serde")).unwrap();
/// assert_eq!(serde.kind(), NodeKind::Table(TableKind::Inline));
/// assert_eq!(serde.span().slice(doc.source()), "{ version = \"1\" }");
/// assert_eq!(doc.comments().next().map(|c| c.text), Some(" deps"));
/// ```
#[derive(Clone)]
pub struct Document<'a> {
    src: &'a str,
    nodes: Vec<NodeData>,
    /// Every table's entries, each table's together and in order.
    entries: Vec<EntryData>,
    /// Every array's items and every array of tables' elements, each one's together.
    items: Vec<u32>,
    /// The strings and keys not read from the source as written (those with escapes,
    /// decoded), by index.
    texts: Vec<Cow<'a, str>>,
    /// The datetimes, by index (few documents hold many).
    datetimes: Vec<Datetime>,
    comments: Vec<Span>,
}

/// One node in 24 bytes. Offsets are `u32`: a tree is built for inputs under 4 GiB.
#[derive(Debug, Clone, Copy)]
struct NodeData {
    /// An integer's or a float's bits; a boolean; where a string starts in the source
    /// ([`Data::Str`]) or its index in [`Document::texts`] ([`Data::Text`]); a datetime's
    /// index in [`Document::datetimes`]; a table's first entry in [`Document::entries`];
    /// an array's or an array of tables' first item in [`Document::items`].
    payload: u64,
    start: u32,
    end: u32,
    /// A [`Data::Str`] string's length in bytes; a table's entries; an array's items or an
    /// array of tables' elements.
    len: u32,
    tag: Data,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Data {
    /// A string read from the source as written.
    Str(StringKind),
    /// A string in [`Document::texts`].
    Text(StringKind),
    Integer,
    Float,
    Bool,
    Datetime,
    Array,
    Table(TableKind),
    ArrayOfTables,
}

/// One entry of a table in 20 bytes: its key's span, its key's text, its value's node.
#[derive(Debug, Clone, Copy, Default)]
struct EntryData {
    key_start: u32,
    key_end: u32,
    /// Where the key's text starts in the source; with [`NAME_SIDE`], its index in
    /// [`Document::texts`].
    name: u32,
    /// The key's text's length in bytes, or [`NAME_SIDE`].
    name_len: u32,
    value: u32,
}

/// `name_len` of a key whose text is in [`Document::texts`].
const NAME_SIDE: u32 = u32::MAX;

impl NodeData {
    fn new(tag: Data, payload: u64, len: u32, span: Span) -> NodeData {
        NodeData {
            payload,
            start: span.start as u32,
            end: span.end as u32,
            len,
            tag,
        }
    }
}

/// What kind of TOML node a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A string of the given kind.
    String(StringKind),
    /// An integer.
    Integer,
    /// A float.
    Float,
    /// A boolean.
    Bool,
    /// A datetime of one of the four kinds.
    Datetime,
    /// A value array `[...]`.
    Array,
    /// A table, and how it was made.
    Table(TableKind),
    /// An array of tables (`[[name]]`).
    ArrayOfTables,
}

impl NodeKind {
    /// A short name (`"table"`, `"array of tables"`, `"string"`).
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::String(_) => "string",
            NodeKind::Integer => "integer",
            NodeKind::Float => "float",
            NodeKind::Bool => "bool",
            NodeKind::Datetime => "datetime",
            NodeKind::Array => "array",
            NodeKind::Table(TableKind::Inline) => "inline table",
            NodeKind::Table(_) => "table",
            NodeKind::ArrayOfTables => "array of tables",
        }
    }
}

impl<'a> Document<'a> {
    /// The root table.
    pub fn root(&self) -> Node<'_, 'a> {
        Node { doc: self, id: 0 }
    }

    /// The source text the document was parsed from.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// How many nodes (tables, arrays and values) the document holds.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Every comment, in document order: its text after `#`, and its span.
    pub fn comments(&self) -> impl Iterator<Item = Comment<'a>> + '_ {
        let src = self.src;
        self.comments.iter().map(move |&span| Comment {
            text: &src[span.start + 1..span.end],
            span,
        })
    }

    /// The whole document as a [`RawValue`] map (what the struct door builds directly).
    pub fn to_raw_value(&self) -> RawValue<'a> {
        self.root().to_raw_value()
    }

    /// The text of a string node read from the source, or of one in [`Document::texts`].
    fn text(&self, node: &NodeData) -> &str {
        match node.tag {
            Data::Str(_) => &self.src[node.payload as usize..][..node.len as usize],
            _ => &self.texts[node.payload as usize],
        }
    }

    /// The key of `entry` as borrowed text: from the source, or decoded.
    fn name(&self, entry: &EntryData) -> Cow<'a, str> {
        if entry.name_len == NAME_SIDE {
            self.texts[entry.name as usize].clone()
        } else {
            Cow::Borrowed(&self.src[entry.name as usize..][..entry.name_len as usize])
        }
    }

    /// The key of `entry`.
    fn name_str(&self, entry: &EntryData) -> &str {
        if entry.name_len == NAME_SIDE {
            &self.texts[entry.name as usize]
        } else {
            &self.src[entry.name as usize..][..entry.name_len as usize]
        }
    }
}

impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("root", &self.root())
            .finish()
    }
}

/// A node of a [`Document`]: a table, an array of tables, an array or a scalar.
#[derive(Clone, Copy)]
pub struct Node<'d, 'a> {
    doc: &'d Document<'a>,
    id: u32,
}

impl<'d, 'a> Node<'d, 'a> {
    fn data(&self) -> &'d NodeData {
        &self.doc.nodes[self.id as usize]
    }

    fn node(&self, id: u32) -> Node<'d, 'a> {
        Node { doc: self.doc, id }
    }

    /// The node's index in its document.
    pub fn id(&self) -> usize {
        self.id as usize
    }

    /// What kind of node this is.
    pub fn kind(&self) -> NodeKind {
        match self.data().tag {
            Data::Str(kind) | Data::Text(kind) => NodeKind::String(kind),
            Data::Integer => NodeKind::Integer,
            Data::Float => NodeKind::Float,
            Data::Bool => NodeKind::Bool,
            Data::Datetime => NodeKind::Datetime,
            Data::Array => NodeKind::Array,
            Data::Table(kind) => NodeKind::Table(kind),
            Data::ArrayOfTables => NodeKind::ArrayOfTables,
        }
    }

    /// Where the node is: a value's text; a header table's `[header]`; an implicit or
    /// dotted table's key; an array of tables' first `[[header]]`; for the root, empty.
    pub fn span(&self) -> Span {
        let data = self.data();
        Span::new(data.start as usize, data.end as usize)
    }

    /// The source text of [`Node::span`].
    pub fn source_text(&self) -> &'a str {
        self.span().slice(self.doc.src)
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&'d str> {
        let data = self.data();
        match data.tag {
            Data::Str(_) | Data::Text(_) => Some(self.doc.text(data)),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_i64(&self) -> Option<i64> {
        let data = self.data();
        (data.tag == Data::Integer).then_some(data.payload as i64)
    }

    /// The float, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        let data = self.data();
        (data.tag == Data::Float).then(|| f64::from_bits(data.payload))
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        let data = self.data();
        (data.tag == Data::Bool).then_some(data.payload != 0)
    }

    /// The datetime, if this is one.
    pub fn as_datetime(&self) -> Option<Datetime> {
        let data = self.data();
        (data.tag == Data::Datetime).then(|| self.doc.datetimes[data.payload as usize])
    }

    /// True for tables of every kind.
    pub fn is_table(&self) -> bool {
        matches!(self.data().tag, Data::Table(_))
    }

    /// Entries of a table, items of an array or elements of an array of tables; 0 for
    /// scalars.
    pub fn len(&self) -> usize {
        match self.data().tag {
            Data::Table(_) | Data::Array | Data::ArrayOfTables => self.data().len as usize,
            _ => 0,
        }
    }

    /// True when [`Node::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A table's entries (empty for other nodes).
    fn entry_list(&self) -> &'d [EntryData] {
        let data = self.data();
        match data.tag {
            Data::Table(_) => &self.doc.entries[data.payload as usize..][..data.len as usize],
            _ => &[],
        }
    }

    /// An array's items or an array of tables' elements (empty for other nodes).
    fn item_list(&self) -> &'d [u32] {
        let data = self.data();
        match data.tag {
            Data::Array | Data::ArrayOfTables => {
                &self.doc.items[data.payload as usize..][..data.len as usize]
            }
            _ => &[],
        }
    }

    /// This subtree as a [`RawValue`].
    pub fn to_raw_value(self) -> RawValue<'a> {
        let doc = self.doc;
        let data = self.data();
        match data.tag {
            Data::Str(_) => RawValue::String(Cow::Borrowed(
                &doc.src[data.payload as usize..][..data.len as usize],
            )),
            Data::Text(_) => RawValue::String(doc.texts[data.payload as usize].clone()),
            Data::Integer => RawValue::Int(data.payload as i64),
            Data::Float => RawValue::Float(f64::from_bits(data.payload)),
            Data::Bool => RawValue::Bool(data.payload != 0),
            Data::Datetime => RawValue::Datetime(doc.datetimes[data.payload as usize]),
            Data::Array | Data::ArrayOfTables => RawValue::Seq(
                self.item_list()
                    .iter()
                    .map(|&id| self.node(id).to_raw_value())
                    .collect(),
            ),
            Data::Table(_) => RawValue::Map(
                self.entry_list()
                    .iter()
                    .map(|e| (doc.name(e), self.node(e.value).to_raw_value()))
                    .collect(),
            ),
        }
    }
}

impl HasSpan for Node<'_, '_> {
    fn span(&self) -> Span {
        Node::span(self)
    }
}

impl<'d, 'a: 'd> TreeNode<'d> for Node<'d, 'a> {
    type Key = EntryKey<'d>;
    type Target = Self;
    type Error = Infallible;

    fn get(self, key: &str) -> Option<Self> {
        let doc = self.doc;
        self.entry_list()
            .iter()
            .find(|e| doc.name_str(e) == key)
            .map(|e| self.node(e.value))
    }

    fn at(self, index: usize) -> Option<Self> {
        self.item_list().get(index).map(|&id| self.node(id))
    }

    fn items(self) -> impl Iterator<Item = Self> + 'd {
        self.item_list().iter().map(move |&id| self.node(id))
    }

    fn entries(self) -> impl Iterator<Item = (EntryKey<'d>, Self)> + 'd {
        let doc = self.doc;
        self.entry_list().iter().map(move |e| {
            let key = EntryKey {
                name: doc.name_str(e),
                span: Span::new(e.key_start as usize, e.key_end as usize),
            };
            (key, self.node(e.value))
        })
    }

    fn to_raw_value(self) -> Result<RawValue<'d>, Infallible> {
        Ok(Node::to_raw_value(self))
    }
}

impl<'d, 'a: 'd> Tree<'d> for Document<'a> {
    type Node = Node<'d, 'a>;

    fn root(&'d self) -> Node<'d, 'a> {
        Document::root(self)
    }

    /// Every comment, in document order (its text after `#`).
    fn comments(&'d self) -> impl Iterator<Item = Comment<'d>> {
        Document::comments(self)
    }
}

impl fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.data().tag {
            Data::Table(_) => {
                let mut map = f.debug_map();
                for (key, value) in self.entries() {
                    map.entry(&key.name, &value);
                }
                map.finish()
            }
            Data::Array | Data::ArrayOfTables => f.debug_list().entries(self.items()).finish(),
            Data::Str(_) | Data::Text(_) => write!(f, "{:?}", self.doc.text(self.data())),
            Data::Integer => write!(f, "{}", self.data().payload as i64),
            Data::Float => write!(f, "{:?}", f64::from_bits(self.data().payload)),
            Data::Bool => write!(f, "{}", self.data().payload != 0),
            Data::Datetime => write!(f, "{}", self.doc.datetimes[self.data().payload as usize]),
        }
    }
}

/// An entry as the builder receives it: the table it goes in, and the entry.
#[derive(Debug, Clone, Copy)]
struct Pending {
    table: u32,
    entry: EntryData,
}

/// The builder of the tree door.
///
/// It learns the source from [`TomlBuilder::source`] (the parser hands it over before
/// anything else), and reads a string or key borrowed from it by its place there. The
/// tree keeps offsets in 32 bits: it is built for inputs under 4 GiB, which
/// [`parse_tree_with_limits`](super::parse_tree_with_limits) enforces.
#[derive(Debug)]
pub struct TreeBuilder<'a> {
    src: &'a str,
    nodes: Vec<NodeData>,
    /// The node of each table id.
    tables: Vec<u32>,
    /// Every entry in the order the parser gave it, with its table: ordered by table
    /// when the document is finished.
    pending: Vec<Pending>,
    items: Vec<u32>,
    /// The items of the arrays being read, innermost last.
    open_items: Vec<u32>,
    /// Each element of an array of tables, with its array's table id: ordered by array
    /// when the document is finished.
    elements: Vec<(u32, u32)>,
    texts: Vec<Cow<'a, str>>,
    datetimes: Vec<Datetime>,
    comments: Vec<Span>,
}

thread_local! {
    /// The builder's own lists of the last tree built on this thread, emptied, for the
    /// next to fill (a small document then allocates only what its tree keeps).
    static SPARE_TABLES: Cell<Vec<u32>> = const { Cell::new(Vec::new()) };
    static SPARE_PENDING: Cell<Vec<Pending>> = const { Cell::new(Vec::new()) };
    static SPARE_OPEN_ITEMS: Cell<Vec<u32>> = const { Cell::new(Vec::new()) };
    static SPARE_NEXT: Cell<Vec<u32>> = const { Cell::new(Vec::new()) };
}

impl Default for TreeBuilder<'_> {
    fn default() -> Self {
        let mut nodes = Vec::with_capacity(16);
        nodes.push(NodeData::new(
            Data::Table(TableKind::Root),
            0,
            0,
            Span::default(),
        ));
        let mut tables = take_spare(&SPARE_TABLES);
        tables.push(0);
        TreeBuilder {
            src: "",
            nodes,
            tables,
            pending: take_spare(&SPARE_PENDING),
            items: Vec::new(),
            open_items: take_spare(&SPARE_OPEN_ITEMS),
            elements: Vec::new(),
            texts: Vec::new(),
            datetimes: Vec::new(),
            comments: Vec::new(),
        }
    }
}

impl<'a> TreeBuilder<'a> {
    /// The finished document over `src` (the text the parser handed to
    /// [`TomlBuilder::source`]).
    pub fn finish(mut self, src: &'a str) -> Document<'a> {
        debug_assert!(self.src.is_empty() || std::ptr::eq(self.src, src));
        // Each table's entries together: a table's first entry is the count of all
        // tables' entries before it, and each entry goes after its table's last placed
        // (`next`, by table id, is small and dense where the nodes are not). Likewise an
        // array of tables' elements, after every array's items.
        let mut next: Vec<u32> = take_spare(&SPARE_NEXT);
        let mut placed = 0u32;
        let mut elements = self.items.len() as u32;
        for &node in &self.tables {
            let node = &mut self.nodes[node as usize];
            let counter = match node.tag {
                Data::Table(_) => &mut placed,
                _ => &mut elements,
            };
            node.payload = u64::from(*counter);
            next.push(*counter);
            *counter += node.len;
        }
        let entries = if self.entries_in_table_order() {
            self.pending.iter().map(|p| p.entry).collect()
        } else {
            let mut entries = vec![EntryData::default(); placed as usize];
            for p in &self.pending {
                let at = &mut next[p.table as usize];
                entries[*at as usize] = p.entry;
                *at += 1;
            }
            entries
        };
        if !self.elements.is_empty() {
            self.items.resize(elements as usize, 0);
            for &(array, element) in &self.elements {
                let at = &mut next[array as usize];
                self.items[*at as usize] = element;
                *at += 1;
            }
        }
        keep_spare(&SPARE_NEXT, next);
        keep_spare(&SPARE_TABLES, self.tables);
        keep_spare(&SPARE_PENDING, self.pending);
        keep_spare(&SPARE_OPEN_ITEMS, self.open_items);
        Document {
            src,
            nodes: self.nodes,
            entries,
            items: self.items,
            texts: self.texts,
            datetimes: self.datetimes,
            comments: self.comments,
        }
    }

    /// True when the entries came table by table, the tables in the order of their ids:
    /// a document whose tables were never extended after another's entries began.
    fn entries_in_table_order(&self) -> bool {
        self.pending.windows(2).all(|w| w[0].table <= w[1].table)
    }

    fn push(&mut self, tag: Data, payload: u64, span: Span) -> u32 {
        self.nodes.push(NodeData::new(tag, payload, 0, span));
        (self.nodes.len() - 1) as u32
    }

    fn push_table(&mut self, id: TableId, tag: Data, span: Span) -> u32 {
        debug_assert_eq!(id as usize, self.tables.len());
        let node = self.push(tag, 0, span);
        self.tables.push(node);
        node
    }

    /// Where `text` starts in the source, if it is a slice of it.
    fn offset(&self, text: &str) -> Option<u32> {
        let at = (text.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize);
        let inside = at <= self.src.len() && text.len() <= self.src.len() - at;
        (inside && at + text.len() <= u32::MAX as usize).then_some(at as u32)
    }

    fn add_entry(&mut self, parent: TableId, key: Key<'a>, value: u32) {
        let node = self.tables[parent as usize];
        self.nodes[node as usize].len += 1;
        let (name, name_len) = match key.name {
            Cow::Borrowed(text) => match self.offset(text) {
                Some(at) => (at, text.len() as u32),
                None => self.side_text(Cow::Borrowed(text)),
            },
            owned => self.side_text(owned),
        };
        self.pending.push(Pending {
            table: parent,
            entry: EntryData {
                key_start: key.span.start as u32,
                key_end: key.span.end as u32,
                name,
                name_len,
                value,
            },
        });
    }

    /// A key's text kept in [`Document::texts`].
    fn side_text(&mut self, text: Cow<'a, str>) -> (u32, u32) {
        self.texts.push(text);
        ((self.texts.len() - 1) as u32, NAME_SIDE)
    }
}

impl<'a> TomlBuilder<'a> for TreeBuilder<'a> {
    type Value = u32;
    type Array = u32;

    fn source(&mut self, src: &'a str) {
        self.src = src;
        // About a node and an entry per line of a typical document.
        self.nodes.reserve(src.len() / 24);
        self.pending.reserve(src.len() / 24);
    }
    fn string(&mut self, value: Cow<'a, str>, kind: StringKind, span: Span) -> u32 {
        if let Cow::Borrowed(text) = value {
            if let Some(at) = self.offset(text) {
                let node = self.push(Data::Str(kind), u64::from(at), span);
                self.nodes[node as usize].len = text.len() as u32;
                return node;
            }
        }
        self.texts.push(value);
        self.push(Data::Text(kind), (self.texts.len() - 1) as u64, span)
    }
    fn integer(&mut self, value: i64, span: Span) -> u32 {
        self.push(Data::Integer, value as u64, span)
    }
    fn float(&mut self, value: f64, span: Span) -> u32 {
        self.push(Data::Float, value.to_bits(), span)
    }
    fn bool(&mut self, value: bool, span: Span) -> u32 {
        self.push(Data::Bool, u64::from(value), span)
    }
    fn datetime(&mut self, value: Datetime, span: Span) -> u32 {
        self.datetimes.push(value);
        self.push(Data::Datetime, (self.datetimes.len() - 1) as u64, span)
    }
    fn begin_array(&mut self, _: usize) -> u32 {
        self.open_items.len() as u32
    }
    fn array_item(&mut self, _: &mut u32, item: u32) {
        self.open_items.push(item);
    }
    fn end_array(&mut self, array: u32, span: Span) -> u32 {
        let first = self.items.len();
        self.items
            .extend_from_slice(&self.open_items[array as usize..]);
        self.open_items.truncate(array as usize);
        let node = self.push(Data::Array, first as u64, span);
        self.nodes[node as usize].len = (self.items.len() - first) as u32;
        node
    }
    fn begin_inline_table(&mut self, id: TableId, start: usize) {
        self.push_table(id, Data::Table(TableKind::Inline), Span::new(start, start));
    }
    fn end_inline_table(&mut self, id: TableId, span: Span) -> u32 {
        let node = self.tables[id as usize];
        let data = &mut self.nodes[node as usize];
        data.start = span.start as u32;
        data.end = span.end as u32;
        node
    }
    fn table(&mut self, parent: TableId, key: Key<'a>, id: TableId, kind: TableKind, span: Span) {
        let node = self.push_table(id, Data::Table(kind), span);
        self.add_entry(parent, key, node);
    }
    fn define_table(&mut self, id: TableId, span: Span) {
        let node = &mut self.nodes[self.tables[id as usize] as usize];
        node.tag = Data::Table(TableKind::Header);
        node.start = span.start as u32;
        node.end = span.end as u32;
    }
    fn array_of_tables(&mut self, parent: TableId, key: Key<'a>, id: TableId) {
        let span = key.span;
        let node = self.push_table(id, Data::ArrayOfTables, span);
        self.add_entry(parent, key, node);
    }
    fn array_element(&mut self, array: TableId, id: TableId, span: Span) {
        let node = self.push_table(id, Data::Table(TableKind::ArrayElement), span);
        let array_node = &mut self.nodes[self.tables[array as usize] as usize];
        if array_node.len == 0 {
            array_node.start = span.start as u32;
            array_node.end = span.end as u32;
        }
        array_node.len += 1;
        self.elements.push((array, node));
    }
    fn entry(&mut self, parent: TableId, key: Key<'a>, value: u32) {
        self.add_entry(parent, key, value);
    }
    fn comment(&mut self, span: Span) {
        self.comments.push(span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_and_entries_stay_small() {
        assert_eq!(std::mem::size_of::<NodeData>(), 24);
        assert_eq!(std::mem::size_of::<EntryData>(), 20);
    }

    #[test]
    fn a_builder_never_handed_the_source_keeps_borrowed_text_aside() {
        let src = "k = 'v'";
        let mut builder = TreeBuilder::default();
        let value = builder.string(
            Cow::Borrowed(&src[5..6]),
            StringKind::Literal,
            Span::new(4, 7),
        );
        let key = Key {
            name: Cow::Borrowed(&src[..1]),
            span: Span::new(0, 1),
        };
        builder.entry(0, key, value);
        let doc = builder.finish(src);
        let (key, value) = doc.root().entries().next().unwrap();
        assert_eq!((key.name, value.as_str()), ("k", Some("v")));
        assert_eq!(doc.texts.len(), 2);
    }
}
