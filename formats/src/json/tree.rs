//! The tree door: a read-only JSON document whose every node knows its byte span.
//!
//! Nodes live in one flat vector in document order (a parent before its children, each
//! subtree contiguous), so building a tree costs no allocation per node and walking it
//! is a scan. Strings are borrowed from the input unless they held escapes. A JSONC
//! document also keeps its comments' spans.

use std::borrow::Cow;
use std::fmt;

use std::convert::Infallible;

use quarry_raw_value::RawValue;

use crate::common::{Comment, EntryKey, FlatNode, Siblings, Span, Spanned, Tree, TreeNode};

use super::builder::JsonBuilder;
use super::lexer::{Number, NumberToken, Text};

/// A parsed JSON document. Get around it from [`Document::root`].
///
/// ```
/// use quarry_formats::common::TreeNode;
///
/// let doc = quarry_formats::json::parse_tree(br#"{"servers": [{"port": 80}]}"#).unwrap();
/// let port = doc.root().get("servers").and_then(|s| s.at(0)).and_then(|s| s.get("port")).unwrap();
/// assert_eq!(port.as_u64(), Some(80));
/// assert_eq!(port.span().slice(doc.source()), "80");
/// ```
#[derive(Clone)]
pub struct Document<'a> {
    src: &'a str,
    nodes: Vec<NodeData<'a>>,
    /// The comments' spans, in source order (JSONC only).
    comments: Vec<Span>,
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

    /// The document as a [`RawValue`]: what [`parse`](super::parse) builds.
    pub fn to_raw_value(&self) -> RawValue<'a> {
        self.root().to_raw_value()
    }

    /// Every node in document order (a parent before its children).
    pub fn descendants(&self) -> impl Iterator<Item = Node<'_, 'a>> + '_ {
        (0..self.nodes.len()).map(move |id| Node { doc: self, id })
    }

    /// Every comment of a JSONC document, in source order: its text (after `//`, or
    /// between `/*` and `*/`) and its span. Strict JSON has none.
    ///
    /// ```
    /// let doc = quarry_formats::json::parse_tree_jsonc(b"// port\n{\"port\": 80 /* http */}").unwrap();
    /// let texts: Vec<&str> = doc.comments().map(|c| c.text).collect();
    /// assert_eq!(texts, [" port", " http "]);
    /// ```
    pub fn comments(&self) -> impl Iterator<Item = Comment<'a>> + '_ {
        let src = self.src;
        self.comments.iter().map(move |&span| Comment {
            text: super::parser::comment_text(src, span),
            span,
        })
    }

    /// The comment that ends at byte `end`, if one does.
    fn comment_ending_at(&self, end: usize) -> Option<Span> {
        let i = self.comments.binary_search_by_key(&end, |c| c.end).ok()?;
        Some(self.comments[i])
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

    /// The children's node indices: an array's items or an object's member values.
    fn children(&self) -> impl Iterator<Item = Node<'d, 'a>> {
        let doc = self.doc;
        Siblings::new(&doc.nodes, self.id + 1, self.len()).map(move |id| Node { doc, id })
    }

    /// Where the key of this object member was written: found by stepping back from
    /// the value over the `:` and the key string, and any whitespace and comments
    /// between (the tree keeps no key spans).
    fn key_span(&self) -> Span {
        let src = self.doc.src.as_bytes();
        let mut i = self.span().start;
        let back_over_space = |mut i: usize| loop {
            while i > 0 && matches!(src[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
                i -= 1;
            }
            match self.doc.comment_ending_at(i) {
                Some(comment) => i = comment.start,
                None => return i,
            }
        };
        i = back_over_space(i);
        if i == 0 || src[i - 1] != b':' {
            return Span::new(i, i);
        }
        let end = back_over_space(i - 1);
        // The opening quote is the first quote before the closing one that is not
        // escaped (preceded by an even number of backslashes).
        let mut open = end.saturating_sub(1);
        while let Some(q) = memchr::memrchr(b'"', &src[..open]) {
            let backslashes = src[..q].iter().rev().take_while(|&&b| b == b'\\').count();
            if backslashes % 2 == 0 {
                return Span::new(q, end);
            }
            open = q;
        }
        Span::new(end, end)
    }

    /// This subtree as a [`RawValue`] (what the struct door builds directly).
    pub fn to_raw_value(self) -> RawValue<'a> {
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

impl FlatNode for NodeData<'_> {
    #[inline]
    fn subtree_end(&self) -> usize {
        self.end
    }
}

impl Spanned for Node<'_, '_> {
    fn span(&self) -> Span {
        self.data().span
    }
}

impl<'d, 'a: 'd> TreeNode<'d> for Node<'d, 'a> {
    type Key = EntryKey<'d>;
    type Target = Self;
    type Error = Infallible;

    fn get(self, key: &str) -> Option<Self> {
        if self.kind() != NodeKind::Object {
            return None;
        }
        self.children().find(|n| n.key() == Some(key))
    }

    fn at(self, index: usize) -> Option<Self> {
        self.items().nth(index)
    }

    fn items(self) -> impl Iterator<Item = Self> + 'd {
        let doc = self.doc;
        let count = match self.data().data {
            Data::Array(n) => n,
            _ => 0,
        };
        Siblings::new(&doc.nodes, self.id + 1, count).map(move |id| Node { doc, id })
    }

    fn entries(self) -> impl Iterator<Item = (EntryKey<'d>, Self)> + 'd {
        let doc = self.doc;
        let count = match self.data().data {
            Data::Object(n) => n,
            _ => 0,
        };
        Siblings::new(&doc.nodes, self.id + 1, count).map(move |id| {
            let node = Node { doc, id };
            let key = EntryKey {
                name: node.key().unwrap_or(""),
                span: node.key_span(),
            };
            (key, node)
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

    /// Every comment of a JSONC document, in source order; strict JSON has none.
    fn comments(&'d self) -> impl Iterator<Item = Comment<'d>> {
        Document::comments(self)
    }
}

/// The builder of the tree door.
#[derive(Debug, Default)]
pub struct TreeBuilder<'a> {
    nodes: Vec<NodeData<'a>>,
    comments: Vec<Span>,
}

impl<'a> TreeBuilder<'a> {
    /// A builder with room for about `capacity` nodes.
    pub fn with_capacity(capacity: usize) -> Self {
        TreeBuilder {
            nodes: Vec::with_capacity(capacity),
            comments: Vec::new(),
        }
    }

    /// The document, once the parser has built its root from this builder.
    pub fn finish(self, src: &'a str) -> Document<'a> {
        Document {
            src,
            nodes: self.nodes,
            comments: self.comments,
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

    const WANTS_COMMENTS: bool = true;

    fn comment(&mut self, _: &'a str, span: Span) {
        self.comments.push(span);
    }
}

#[cfg(test)]
mod tests {
    use crate::common::{Comment, Span, Tree, TreeNode};
    use crate::json;

    #[test]
    fn a_jsonc_tree_keeps_its_comments_with_their_spans() {
        let src = "// head\n{ /* a */ \"a\" /* b */ : // c\n 1, \"d\": [2, /**/],\r\n} // tail";
        let doc = json::parse_tree_jsonc(src.as_bytes()).unwrap();
        let comments: Vec<Comment<'_>> = doc.comments().collect();
        let texts: Vec<&str> = comments.iter().map(|c| c.text).collect();
        assert_eq!(texts, [" head", " a ", " b ", " c", "", " tail"]);
        for comment in &comments {
            let written = comment.span.slice(src);
            assert!(
                written.starts_with("//") || written.starts_with("/*"),
                "{written:?}"
            );
            assert!(written.contains(comment.text));
        }
        assert_eq!(comments[0].span, Span::new(0, 7));
        assert_eq!(comments[3].span.slice(src), "// c");
        assert_eq!(comments[4].span.slice(src), "/**/");
        // The trait gives the same comments.
        assert_eq!(Tree::comments(&doc).collect::<Vec<_>>(), comments);
        // Keys are placed across the comments between them and their values.
        let (key, value) = doc.root().entries().next().unwrap();
        assert_eq!(key.name, "a");
        assert_eq!(key.span.slice(src), "\"a\"");
        assert_eq!(value.source_text(), "1");
        let d = doc.root().get("d").unwrap();
        assert_eq!(d.source_text(), "[2, /**/]");
        assert_eq!(d.len(), 1);
        let (key, _) = doc.root().entries().nth(1).unwrap();
        assert_eq!(key.span.slice(src), "\"d\"");
    }

    #[test]
    fn strict_trees_and_the_struct_door_keep_no_comments() {
        let doc = json::parse_tree(br#"{"a": "// not a comment"}"#).unwrap();
        assert_eq!(doc.comments().count(), 0);
        let doc = json::parse_tree_jsonc(br#"{"a": "/* not a comment */"}"#).unwrap();
        assert_eq!(doc.comments().count(), 0);
    }
}
