//! The tree door: a typed property list (dict, array, string, integer, real, bool, date,
//! data, UID), each node with its span — the value's text for XML and OpenStep, the
//! object's bytes for binary plists.

use std::borrow::Cow;
use std::fmt;

use quarry_raw_value::{Datetime, RawValue};

use crate::common::{Comment, Entry, HasSpan, NumberedNode, Span, Tree, TreeNode};

use super::builder::{Integer, PlistBuilder, TextRef};
use super::raw::{integer_value, uid_value};
use super::PlistFormat;

/// A parsed property list. Get around it from [`Document::root`].
///
/// ```
/// use quarry_formats::plist::{self, NodeKind};
/// use quarry_formats::TreeNode;
///
/// let src = b"{ name = quarry; tags = (fast, strict); }";
/// let doc = plist::parse_tree(src).unwrap();
/// let tags = doc.root().get("tags").unwrap();
/// assert_eq!(tags.kind(), NodeKind::Array);
/// assert_eq!(tags.at(1).and_then(|t| t.as_str()), Some("strict"));
/// let span = tags.span();
/// assert_eq!(&src[span.start..span.end], b"(fast, strict)");
/// ```
#[derive(Clone)]
pub struct Document<'a> {
    format: PlistFormat,
    nodes: Vec<NodeData<'a>>,
    root: u32,
}

#[derive(Debug, Clone)]
struct NodeData<'a> {
    data: Data<'a>,
    span: Span,
}

#[derive(Debug, Clone)]
enum Data<'a> {
    String(Cow<'a, str>),
    Integer(Integer),
    Real(f64),
    Bool(bool),
    Date(Datetime),
    Bytes(Cow<'a, [u8]>),
    Uid(u64),
    Array(Vec<u32>),
    Dict(Vec<Entry<'a>>),
}

/// What kind of plist value a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// `<dict>`, `{ ... }`.
    Dict,
    /// `<array>`, `( ... )`.
    Array,
    /// `<string>` (every OpenStep scalar but data).
    String,
    /// `<integer>`.
    Integer,
    /// `<real>`.
    Real,
    /// `<true/>` or `<false/>`.
    Bool,
    /// `<date>`.
    Date,
    /// `<data>`, `<hex>`.
    Data,
    /// A UID (binary plists only).
    Uid,
}

impl NodeKind {
    /// A short name (`"dict"`, `"integer"`), as in the typed JSON of the conformance suite.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Dict => "dict",
            NodeKind::Array => "array",
            NodeKind::String => "string",
            NodeKind::Integer => "integer",
            NodeKind::Real => "real",
            NodeKind::Bool => "bool",
            NodeKind::Date => "date",
            NodeKind::Data => "data",
            NodeKind::Uid => "uid",
        }
    }
}

impl<'a> Document<'a> {
    /// The top value.
    pub fn root(&self) -> Node<'_, 'a> {
        Node {
            doc: self,
            id: self.root,
        }
    }

    /// Which of the three forms the document was read from.
    pub fn format(&self) -> PlistFormat {
        self.format
    }

    /// How many nodes the document holds (a shared binary object counts once per
    /// reference).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The whole document as a [`RawValue`] (what the struct door builds directly).
    pub fn to_raw_value(&self) -> RawValue<'a> {
        self.root().to_raw_value()
    }
}

impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("format", &self.format)
            .field("root", &self.root())
            .finish()
    }
}

/// A node of a [`Document`].
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

    /// What kind of value this is.
    pub fn kind(&self) -> NodeKind {
        match &self.data().data {
            Data::String(_) => NodeKind::String,
            Data::Integer(_) => NodeKind::Integer,
            Data::Real(_) => NodeKind::Real,
            Data::Bool(_) => NodeKind::Bool,
            Data::Date(_) => NodeKind::Date,
            Data::Bytes(_) => NodeKind::Data,
            Data::Uid(_) => NodeKind::Uid,
            Data::Array(_) => NodeKind::Array,
            Data::Dict(_) => NodeKind::Dict,
        }
    }

    /// Where the value is: its text for XML (start tag to end tag) and OpenStep, its
    /// object's bytes for binary plists.
    pub fn span(&self) -> Span {
        self.data().span
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&'d str> {
        match &self.data().data {
            Data::String(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_integer(&self) -> Option<Integer> {
        match self.data().data {
            Data::Integer(i) => Some(i),
            _ => None,
        }
    }

    /// The integer, if this is one that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer().and_then(Integer::as_i64)
    }

    /// The integer, if this is one that fits a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_integer().and_then(Integer::as_u64)
    }

    /// The real, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self.data().data {
            Data::Real(f) => Some(f),
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

    /// The date (UTC), if this is one.
    pub fn as_date(&self) -> Option<Datetime> {
        match self.data().data {
            Data::Date(d) => Some(d),
            _ => None,
        }
    }

    /// The bytes, if this is data.
    pub fn as_data(&self) -> Option<&'d [u8]> {
        match &self.data().data {
            Data::Bytes(d) => Some(d),
            _ => None,
        }
    }

    /// The UID, if this is one.
    pub fn as_uid(&self) -> Option<u64> {
        match self.data().data {
            Data::Uid(u) => Some(u),
            _ => None,
        }
    }

    /// Entries of a dict or items of an array; 0 for scalars.
    pub fn len(&self) -> usize {
        match &self.data().data {
            Data::Dict(entries) => entries.len(),
            Data::Array(items) => items.len(),
            _ => 0,
        }
    }

    /// True when [`Node::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This subtree as a [`RawValue`], as the struct door builds it: OpenStep strings
    /// as [`RawValue::Text`], UIDs as `{"CF$UID": n}`.
    pub fn to_raw_value(self) -> RawValue<'a> {
        match &self.data().data {
            Data::String(s) if self.doc.format == PlistFormat::OpenStep => {
                RawValue::Text(s.clone())
            }
            Data::String(s) => RawValue::String(s.clone()),
            Data::Integer(i) => integer_value(*i),
            Data::Real(f) => RawValue::Float(*f),
            Data::Bool(b) => RawValue::Bool(*b),
            Data::Date(d) => RawValue::Datetime(*d),
            Data::Bytes(d) => RawValue::Bytes(d.clone()),
            Data::Uid(u) => uid_value(*u),
            Data::Array(items) => RawValue::Seq(
                items
                    .iter()
                    .map(|&id| self.node(id).to_raw_value())
                    .collect(),
            ),
            Data::Dict(entries) => RawValue::Map(
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
            Data::Dict(entries) => entries,
            _ => &[],
        }
    }

    fn item_list(self) -> &'d [u32] {
        match &self.data().data {
            Data::Array(items) => items,
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

    /// The plist trees keep no comments.
    fn comments(&'d self) -> impl Iterator<Item = Comment<'d>> {
        std::iter::empty()
    }
}

impl fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.data().data {
            Data::Dict(_) => {
                let mut map = f.debug_map();
                for (key, value) in self.entries() {
                    map.entry(&key.name, &value);
                }
                map.finish()
            }
            Data::Array(_) => f.debug_list().entries(self.items()).finish(),
            Data::String(s) => write!(f, "{s:?}"),
            Data::Integer(i) => write!(f, "{i}"),
            Data::Real(x) => write!(f, "{x:?}"),
            Data::Bool(b) => write!(f, "{b}"),
            Data::Date(d) => write!(f, "{d}"),
            Data::Bytes(d) => write!(f, "<{} bytes>", d.len()),
            Data::Uid(u) => write!(f, "UID({u})"),
        }
    }
}

/// The builder of the tree door.
#[derive(Debug, Default)]
pub struct TreeBuilder<'a> {
    nodes: Vec<NodeData<'a>>,
    items: Vec<u32>,
    entries: Vec<Entry<'a>>,
}

impl<'a> TreeBuilder<'a> {
    /// The finished document, given the top value and the form it was read from.
    pub fn finish(self, root: u32, format: PlistFormat) -> Document<'a> {
        Document {
            format,
            nodes: self.nodes,
            root,
        }
    }

    #[inline]
    fn push(&mut self, data: Data<'a>, span: Span) -> u32 {
        self.nodes.push(NodeData { data, span });
        (self.nodes.len() - 1) as u32
    }
}

impl<'a> PlistBuilder<'a> for TreeBuilder<'a> {
    type Value = u32;
    type Dict = usize;
    type Array = usize;

    fn string(&mut self, value: TextRef<'a, '_>, span: Span) -> u32 {
        self.push(Data::String(value.into_cow()), span)
    }
    fn integer(&mut self, value: Integer, span: Span) -> u32 {
        self.push(Data::Integer(value), span)
    }
    fn real(&mut self, value: f64, span: Span) -> u32 {
        self.push(Data::Real(value), span)
    }
    fn bool(&mut self, value: bool, span: Span) -> u32 {
        self.push(Data::Bool(value), span)
    }
    fn date(&mut self, value: Datetime, span: Span) -> u32 {
        self.push(Data::Date(value), span)
    }
    fn data(&mut self, value: Cow<'a, [u8]>, span: Span) -> u32 {
        self.push(Data::Bytes(value), span)
    }
    fn uid(&mut self, value: u64, span: Span) -> u32 {
        self.push(Data::Uid(value), span)
    }
    fn begin_dict(&mut self, _: usize, _: Option<usize>) -> usize {
        self.entries.len()
    }
    fn dict_key(&mut self, _: &mut usize, key: TextRef<'a, '_>, span: Span) {
        self.entries.push(Entry {
            key: key.into_cow(),
            key_span: span,
            value: u32::MAX,
        });
    }
    fn dict_value(&mut self, _: &mut usize, value: u32) {
        if let Some(last) = self.entries.last_mut() {
            last.value = value;
        }
    }
    fn end_dict(&mut self, start: usize, span: Span) -> u32 {
        let entries = self.entries.split_off(start);
        self.push(Data::Dict(entries), span)
    }
    fn begin_array(&mut self, _: usize, _: Option<usize>) -> usize {
        self.items.len()
    }
    fn array_item(&mut self, _: &mut usize, item: u32) {
        self.items.push(item);
    }
    fn end_array(&mut self, start: usize, span: Span) -> u32 {
        let items = self.items.split_off(start);
        self.push(Data::Array(items), span)
    }
}
