//! The tree door: a read-only TOML document that keeps how everything was written —
//! each table's kind (header, implicit, dotted, inline, array element), each string's
//! kind, every key's and value's span, and the comments.
//!
//! Nodes live in one vector; tables list their entries in the order keys first
//! appeared, so a table extended by a later header reads as one table.

use std::borrow::Cow;
use std::fmt;

use quarry_raw_value::{Datetime, RawValue};

use crate::common::{Comment, Entry, HasSpan, NumberedNode, Span, Tree, TreeNode};

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
    nodes: Vec<NodeData<'a>>,
    comments: Vec<Span>,
}

#[derive(Debug, Clone)]
struct NodeData<'a> {
    data: Data<'a>,
    span: Span,
}

#[derive(Debug, Clone)]
enum Data<'a> {
    String(Cow<'a, str>, StringKind),
    Integer(i64),
    Float(f64),
    Bool(bool),
    Datetime(Datetime),
    Array(Vec<u32>),
    Table(TableKind, Vec<Entry<'a>>),
    ArrayOfTables(Vec<u32>),
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
    fn data(&self) -> &'d NodeData<'a> {
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
        match &self.data().data {
            Data::String(_, kind) => NodeKind::String(*kind),
            Data::Integer(_) => NodeKind::Integer,
            Data::Float(_) => NodeKind::Float,
            Data::Bool(_) => NodeKind::Bool,
            Data::Datetime(_) => NodeKind::Datetime,
            Data::Array(_) => NodeKind::Array,
            Data::Table(kind, _) => NodeKind::Table(*kind),
            Data::ArrayOfTables(_) => NodeKind::ArrayOfTables,
        }
    }

    /// Where the node is: a value's text; a header table's `[header]`; an implicit or
    /// dotted table's key; an array of tables' first `[[header]]`; for the root, empty.
    pub fn span(&self) -> Span {
        self.data().span
    }

    /// The source text of [`Node::span`].
    pub fn source_text(&self) -> &'a str {
        self.span().slice(self.doc.src)
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&'d str> {
        match &self.data().data {
            Data::String(s, _) => Some(s),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self.data().data {
            Data::Integer(i) => Some(i),
            _ => None,
        }
    }

    /// The float, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self.data().data {
            Data::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.data().data {
            Data::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The datetime, if this is one.
    pub fn as_datetime(&self) -> Option<Datetime> {
        match self.data().data {
            Data::Datetime(d) => Some(d),
            _ => None,
        }
    }

    /// True for tables of every kind.
    pub fn is_table(&self) -> bool {
        matches!(self.data().data, Data::Table(..))
    }

    /// Entries of a table, items of an array or elements of an array of tables; 0 for
    /// scalars.
    pub fn len(&self) -> usize {
        match &self.data().data {
            Data::Table(_, entries) => entries.len(),
            Data::Array(items) | Data::ArrayOfTables(items) => items.len(),
            _ => 0,
        }
    }

    /// True when [`Node::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This subtree as a [`RawValue`].
    pub fn to_raw_value(self) -> RawValue<'a> {
        match &self.data().data {
            Data::String(s, _) => RawValue::String(s.clone()),
            Data::Integer(i) => RawValue::Int(*i),
            Data::Float(f) => RawValue::Float(*f),
            Data::Bool(b) => RawValue::Bool(*b),
            Data::Datetime(d) => RawValue::Datetime(*d),
            Data::Array(items) | Data::ArrayOfTables(items) => RawValue::Seq(
                items
                    .iter()
                    .map(|&id| self.node(id).to_raw_value())
                    .collect(),
            ),
            Data::Table(_, entries) => RawValue::Map(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), self.node(e.value).to_raw_value()))
                    .collect(),
            ),
        }
    }
}

impl HasSpan for Node<'_, '_> {
    fn span(&self) -> Span {
        self.data().span
    }
}

impl<'d, 'a: 'd> NumberedNode<'d> for Node<'d, 'a> {
    fn entry_list(self) -> &'d [Entry<'d>] {
        match &self.data().data {
            Data::Table(_, entries) => entries,
            _ => &[],
        }
    }

    fn item_list(self) -> &'d [u32] {
        match &self.data().data {
            Data::Array(items) | Data::ArrayOfTables(items) => items,
            _ => &[],
        }
    }

    fn numbered(self, id: u32) -> Self {
        self.node(id)
    }

    fn raw_value(self) -> RawValue<'d> {
        self.to_raw_value()
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
        match &self.data().data {
            Data::Table(..) => {
                let mut map = f.debug_map();
                for (key, value) in self.entries() {
                    map.entry(&key.name, &value);
                }
                map.finish()
            }
            Data::Array(_) | Data::ArrayOfTables(_) => {
                f.debug_list().entries(self.items()).finish()
            }
            Data::String(s, _) => write!(f, "{s:?}"),
            Data::Integer(i) => write!(f, "{i}"),
            Data::Float(x) => write!(f, "{x:?}"),
            Data::Bool(b) => write!(f, "{b}"),
            Data::Datetime(d) => write!(f, "{d}"),
        }
    }
}

/// The builder of the tree door.
#[derive(Debug)]
pub struct TreeBuilder<'a> {
    nodes: Vec<NodeData<'a>>,
    /// The node of each table id.
    tables: Vec<u32>,
    comments: Vec<Span>,
}

impl Default for TreeBuilder<'_> {
    fn default() -> Self {
        TreeBuilder {
            nodes: vec![NodeData {
                data: Data::Table(TableKind::Root, Vec::new()),
                span: Span::default(),
            }],
            tables: vec![0],
            comments: Vec::new(),
        }
    }
}

impl<'a> TreeBuilder<'a> {
    /// The finished document over `src`.
    pub fn finish(self, src: &'a str) -> Document<'a> {
        Document {
            src,
            nodes: self.nodes,
            comments: self.comments,
        }
    }

    fn push(&mut self, data: Data<'a>, span: Span) -> u32 {
        self.nodes.push(NodeData { data, span });
        (self.nodes.len() - 1) as u32
    }

    fn push_table(&mut self, id: TableId, data: Data<'a>, span: Span) -> u32 {
        debug_assert_eq!(id as usize, self.tables.len());
        let node = self.push(data, span);
        self.tables.push(node);
        node
    }

    fn add_entry(&mut self, parent: TableId, key: Key<'a>, value: u32) {
        let node = self.tables[parent as usize] as usize;
        if let Data::Table(_, entries) = &mut self.nodes[node].data {
            entries.push(Entry {
                key: key.name,
                key_span: key.span,
                value,
            });
        }
    }
}

impl<'a> TomlBuilder<'a> for TreeBuilder<'a> {
    type Value = u32;
    type Array = Vec<u32>;

    fn string(&mut self, value: Cow<'a, str>, kind: StringKind, span: Span) -> u32 {
        self.push(Data::String(value, kind), span)
    }
    fn integer(&mut self, value: i64, span: Span) -> u32 {
        self.push(Data::Integer(value), span)
    }
    fn float(&mut self, value: f64, span: Span) -> u32 {
        self.push(Data::Float(value), span)
    }
    fn bool(&mut self, value: bool, span: Span) -> u32 {
        self.push(Data::Bool(value), span)
    }
    fn datetime(&mut self, value: Datetime, span: Span) -> u32 {
        self.push(Data::Datetime(value), span)
    }
    fn begin_array(&mut self, _: usize) -> Vec<u32> {
        Vec::new()
    }
    fn array_item(&mut self, array: &mut Vec<u32>, item: u32) {
        array.push(item);
    }
    fn end_array(&mut self, array: Vec<u32>, span: Span) -> u32 {
        self.push(Data::Array(array), span)
    }
    fn begin_inline_table(&mut self, id: TableId, start: usize) {
        let data = Data::Table(TableKind::Inline, Vec::new());
        self.push_table(id, data, Span::new(start, start));
    }
    fn end_inline_table(&mut self, id: TableId, span: Span) -> u32 {
        let node = self.tables[id as usize];
        self.nodes[node as usize].span = span;
        node
    }
    fn table(&mut self, parent: TableId, key: Key<'a>, id: TableId, kind: TableKind, span: Span) {
        let node = self.push_table(id, Data::Table(kind, Vec::new()), span);
        self.add_entry(parent, key, node);
    }
    fn define_table(&mut self, id: TableId, span: Span) {
        let node = &mut self.nodes[self.tables[id as usize] as usize];
        if let Data::Table(kind, _) = &mut node.data {
            *kind = TableKind::Header;
        }
        node.span = span;
    }
    fn array_of_tables(&mut self, parent: TableId, key: Key<'a>, id: TableId) {
        let span = key.span;
        let node = self.push_table(id, Data::ArrayOfTables(Vec::new()), span);
        self.add_entry(parent, key, node);
    }
    fn array_element(&mut self, array: TableId, id: TableId, span: Span) {
        let node = self.push_table(id, Data::Table(TableKind::ArrayElement, Vec::new()), span);
        let array_node = &mut self.nodes[self.tables[array as usize] as usize];
        if let Data::ArrayOfTables(elements) = &mut array_node.data {
            if elements.is_empty() {
                array_node.span = span;
            }
            elements.push(node);
        }
    }
    fn entry(&mut self, parent: TableId, key: Key<'a>, value: u32) {
        self.add_entry(parent, key, value);
    }
    fn comment(&mut self, span: Span) {
        self.comments.push(span);
    }
}
