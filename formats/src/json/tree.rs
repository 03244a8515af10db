//! The tree door: a read-only JSON document whose every node knows its byte span.
//!
//! Nodes live in one flat vector in document order (a parent before its children, each
//! subtree contiguous), so building a tree costs no allocation per node and walking it
//! is a scan. Strings are borrowed from the input unless they held escapes.

use std::borrow::Cow;
use std::fmt;

use quarry_raw_value::{Path, RawValue};

use crate::common::Span;

use super::builder::JsonBuilder;
use super::lexer::{Number, NumberToken, Text};

/// A parsed JSON document. Get around it from [`Document::root`].
///
/// ```
/// let doc = quarry_formats::json::parse_tree(br#"{"servers": [{"port": 80}]}"#).unwrap();
/// let port = doc.root().get("servers").and_then(|s| s.at(0)).and_then(|s| s.get("port")).unwrap();
/// assert_eq!(port.as_u64(), Some(80));
/// assert_eq!(port.span().slice(doc.source()), "80");
/// ```
#[derive(Clone)]
pub struct Document<'a> {
    src: &'a str,
    nodes: Vec<NodeData<'a>>,
}

#[derive(Debug, Clone)]
struct NodeData<'a> {
    data: Data<'a>,
    /// The key this node is stored under, when its parent is an object.
    key: Option<Cow<'a, str>>,
    span: Span,
    /// Index one past the last node of this subtree: the next sibling, if any.
    end: usize,
}

#[derive(Debug, Clone)]
enum Data<'a> {
    Null,
    Bool(bool),
    Number(Number<'a>),
    String(Cow<'a, str>),
    Array(usize),
    Object(usize),
}

/// What kind of JSON value a node is (the same kind the direct decode path peeks).
pub use quarry_raw_value::ValueKind as NodeKind;

impl<'a> Document<'a> {
    /// The top-level value.
    pub fn root(&self) -> Node<'_, 'a> {
        Node { doc: self, id: 0 }
    }

    /// The source text the document was parsed from.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// How many nodes (values) the document holds.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Every node in document order (a parent before its children).
    pub fn descendants(&self) -> impl Iterator<Item = Node<'_, 'a>> + '_ {
        (0..self.nodes.len()).map(move |id| Node { doc: self, id })
    }
}

impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("root", &self.root())
            .finish()
    }
}

/// A node of a [`Document`]: cheap to copy, borrows the document.
#[derive(Clone, Copy)]
pub struct Node<'d, 'a> {
    doc: &'d Document<'a>,
    id: usize,
}

impl<'d, 'a> Node<'d, 'a> {
    fn data(&self) -> &'d NodeData<'a> {
        &self.doc.nodes[self.id]
    }

    /// The node's position in document order (0 is the root).
    pub fn id(&self) -> usize {
        self.id
    }

    /// The kind of value.
    pub fn kind(&self) -> NodeKind {
        match self.data().data {
            Data::Null => NodeKind::Null,
            Data::Bool(_) => NodeKind::Bool,
            Data::Number(_) => NodeKind::Number,
            Data::String(_) => NodeKind::String,
            Data::Array(_) => NodeKind::Array,
            Data::Object(_) => NodeKind::Object,
        }
    }

    /// The bytes this value covers in the source (strings include their quotes).
    pub fn span(&self) -> Span {
        self.data().span
    }

    /// The source text of this value.
    pub fn source_text(&self) -> &'a str {
        self.span().slice(self.doc.src)
    }

    /// The key this node sits under, when its parent is an object.
    pub fn key(&self) -> Option<&'d str> {
        self.data().key.as_deref()
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self.data().data, Data::Null)
    }

    /// The boolean, for `true`/`false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.data().data {
            Data::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number, typed as the parser read it.
    pub fn as_number(&self) -> Option<Number<'a>> {
        match self.data().data {
            Data::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as `i64`, when it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.as_number()? {
            Number::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The number as `u64`, when it is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self.as_number()? {
            Number::Int(i) => u64::try_from(i).ok(),
            Number::UInt(u) => Some(u),
            _ => None,
        }
    }

    /// The number as `f64` (integers convert; big numbers round).
    pub fn as_f64(&self) -> Option<f64> {
        match self.as_number()? {
            Number::Int(i) => Some(i as f64),
            Number::UInt(u) => Some(u as f64),
            Number::Float(f) => Some(f),
            Number::Big(text) => text.parse().ok(),
        }
    }

    /// The decoded string.
    pub fn as_str(&self) -> Option<&'d str> {
        match &self.data().data {
            Data::String(s) => Some(s),
            _ => None,
        }
    }

    /// Items of an array or members of an object; 0 for scalars.
    pub fn len(&self) -> usize {
        match self.data().data {
            Data::Array(n) | Data::Object(n) => n,
            _ => 0,
        }
    }

    /// True when [`Node::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items of an array or the member values of an object, in order.
    pub fn children(&self) -> Children<'d, 'a> {
        Children {
            doc: self.doc,
            next: self.id + 1,
            remaining: self.len(),
        }
    }

    /// The members of an object as `(key, value)`, in order, duplicates included.
    pub fn members(&self) -> impl Iterator<Item = (&'d str, Node<'d, 'a>)> {
        let is_object = self.kind() == NodeKind::Object;
        self.children()
            .filter(move |_| is_object)
            .map(|n| (n.key().unwrap_or(""), n))
    }

    /// The array item at `index`.
    pub fn at(&self, index: usize) -> Option<Node<'d, 'a>> {
        if self.kind() != NodeKind::Array {
            return None;
        }
        self.children().nth(index)
    }

    /// The value of the first member named `key`.
    pub fn get(&self, key: &str) -> Option<Node<'d, 'a>> {
        self.members().find(|(k, _)| *k == key).map(|(_, n)| n)
    }

    /// Follows `path` (`servers[0].host`) from this node.
    pub fn lookup(&self, path: &Path) -> Option<Node<'d, 'a>> {
        match self.lookup_prefix(path) {
            (node, followed) if followed == path.segments.len() => Some(node),
            _ => None,
        }
    }

    /// The deepest node along `path`, with how many segments were followed.
    /// Used to place decode errors whose path ends at a missing field.
    pub fn lookup_prefix(&self, path: &Path) -> (Node<'d, 'a>, usize) {
        crate::common::follow_path(*self, path, Node::get, Node::at)
    }

    /// This subtree as a [`RawValue`] (what the struct door builds directly).
    pub fn to_raw_value(&self) -> RawValue<'a> {
        match &self.data().data {
            Data::Null => RawValue::Null,
            Data::Bool(b) => RawValue::Bool(*b),
            Data::Number(n) => super::raw::raw_number(*n),
            Data::String(s) => RawValue::String(s.clone()),
            Data::Array(_) => RawValue::Seq(self.children().map(|c| c.to_raw_value()).collect()),
            Data::Object(_) => RawValue::Map(
                self.children()
                    .map(|c| (c.data().key.clone().unwrap_or_default(), c.to_raw_value()))
                    .collect(),
            ),
        }
    }
}

impl fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:?} at {}..{}",
            self.kind().name(),
            self.source_text(),
            self.span().start,
            self.span().end
        )
    }
}

/// Iterator over the children of a node.
#[derive(Debug, Clone)]
pub struct Children<'d, 'a> {
    doc: &'d Document<'a>,
    next: usize,
    remaining: usize,
}

impl<'d, 'a> Iterator for Children<'d, 'a> {
    type Item = Node<'d, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        let node = Node {
            doc: self.doc,
            id: self.next,
        };
        self.next = self.doc.nodes[self.next].end;
        self.remaining -= 1;
        Some(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Children<'_, '_> {}

/// The builder of the tree door.
#[derive(Debug, Default)]
pub struct TreeBuilder<'a> {
    nodes: Vec<NodeData<'a>>,
}

impl<'a> TreeBuilder<'a> {
    /// A builder with room for about `capacity` nodes.
    pub fn with_capacity(capacity: usize) -> Self {
        TreeBuilder {
            nodes: Vec::with_capacity(capacity),
        }
    }

    /// The document, once the parser has built its root from this builder.
    pub fn finish(self, src: &'a str) -> Document<'a> {
        Document {
            src,
            nodes: self.nodes,
        }
    }

    #[inline]
    fn push(&mut self, data: Data<'a>, span: Span) -> usize {
        let id = self.nodes.len();
        self.nodes.push(NodeData {
            data,
            key: None,
            span,
            end: id + 1,
        });
        id
    }

    #[inline]
    fn close(&mut self, id: usize, data: Data<'a>, span: Span) -> usize {
        let end = self.nodes.len();
        let node = &mut self.nodes[id];
        node.data = data;
        node.span = span;
        node.end = end;
        id
    }
}

impl<'a> JsonBuilder<'a> for TreeBuilder<'a> {
    type Value = usize;
    type Array = (usize, usize);
    type Object = (usize, usize);
    type Key = Cow<'a, str>;

    #[inline]
    fn null(&mut self, span: Span) -> usize {
        self.push(Data::Null, span)
    }
    #[inline]
    fn bool(&mut self, value: bool, span: Span) -> usize {
        self.push(Data::Bool(value), span)
    }
    #[inline]
    fn number(&mut self, value: NumberToken<'a>, span: Span) -> usize {
        self.push(Data::Number(value.value()), span)
    }
    #[inline]
    fn string(&mut self, value: Text<'a, '_>, span: Span) -> usize {
        self.push(Data::String(value.into_cow()), span)
    }
    #[inline]
    fn begin_array(&mut self, start: usize) -> (usize, usize) {
        (self.push(Data::Array(0), Span::new(start, start)), 0)
    }
    #[inline]
    fn array_item(&mut self, array: &mut (usize, usize), _: usize) {
        array.1 += 1;
    }
    #[inline]
    fn end_array(&mut self, (id, len): (usize, usize), span: Span) -> usize {
        self.close(id, Data::Array(len), span)
    }
    #[inline]
    fn begin_object(&mut self, start: usize) -> (usize, usize) {
        (self.push(Data::Object(0), Span::new(start, start)), 0)
    }
    #[inline]
    fn key(&mut self, key: Text<'a, '_>, _: Span) -> Cow<'a, str> {
        key.into_cow()
    }
    #[inline]
    fn object_member(&mut self, object: &mut (usize, usize), key: Cow<'a, str>, value: usize) {
        self.nodes[value].key = Some(key);
        object.1 += 1;
    }
    #[inline]
    fn end_object(&mut self, (id, len): (usize, usize), span: Span) -> usize {
        self.close(id, Data::Object(len), span)
    }
}
