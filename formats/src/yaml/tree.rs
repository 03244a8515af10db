//! The tree door: a read-only YAML stream whose every node keeps its tag, anchor,
//! style and byte span; aliases stay aliases and comments are kept with their spans.
//!
//! Nodes of all documents live in one flat vector in document order (a parent before
//! its children, each subtree contiguous), so building costs no allocation per node
//! and walking is a scan. Scalars are borrowed from the input unless folding or
//! escapes changed them. In a mapping, children alternate key, value.

use std::borrow::Cow;
use std::fmt;

use quarry_raw_value::{Path, RawValue};

use crate::common::{follow_path, Comment, FlatNode, HasSpan, Siblings, Span, Tree, TreeNode};

use super::builder::{CollectionStyle, DocumentStart, Props, ScalarStyle, Tag, YamlBuilder};
use super::raw::{resolve_scalar, RawValueBuilder};
use super::{Error, ErrorKind, Options};

/// A parsed YAML stream: zero or more [`Document`]s, and the comments.
///
/// ```
/// use quarry_formats::TreeNode;
///
/// let stream = quarry_formats::yaml::parse_tree(b"servers:\n  - host: &h example.org\n  - host: *h\n").unwrap();
/// let doc = stream.document(0).unwrap();
/// // Lookups follow aliases...
/// let host = doc.root().lookup_str("servers[1].host").unwrap();
/// assert_eq!(host.as_str(), Some("example.org"));
/// assert_eq!(host.anchor(), Some("h"));
/// // ...but the tree keeps them.
/// let second = doc.root().get("servers").unwrap().at(1).unwrap();
/// let (key, value) = second.entries().next().unwrap();
/// assert_eq!(key.as_str(), Some("host"));
/// assert_eq!(value.alias_name(), Some("h"));
/// assert_eq!(value.span().slice(stream.source()), "*h");
/// ```
#[derive(Clone)]
pub struct Stream<'a> {
    src: &'a str,
    nodes: Vec<NodeData<'a>>,
    docs: Vec<DocData>,
    comments: Vec<Span>,
}

#[derive(Debug, Clone)]
struct DocData {
    root: usize,
    explicit_start: bool,
    explicit_end: bool,
    version: Option<(u32, u32)>,
    span: Span,
}

#[derive(Debug, Clone)]
struct NodeData<'a> {
    data: Data<'a>,
    tag: Option<Box<Tag<'a>>>,
    anchor: Option<&'a str>,
    span: Span,
    /// Index one past the last node of this subtree: the next sibling, if any.
    end: usize,
}

#[derive(Debug, Clone)]
enum Data<'a> {
    Scalar(Cow<'a, str>, ScalarStyle),
    /// Item count.
    Sequence(usize, CollectionStyle),
    /// Child count (keys and values).
    Mapping(usize, CollectionStyle),
    Alias(&'a str),
}

/// What kind of node a [`Node`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A scalar (its text is [`Node::as_str`], its typed value [`Node::value`]).
    Scalar,
    /// A sequence.
    Sequence,
    /// A mapping.
    Mapping,
    /// An alias `*name` (see [`Node::resolve`]).
    Alias,
}

impl NodeKind {
    /// The kind's name (`"mapping"`).
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Scalar => "scalar",
            NodeKind::Sequence => "sequence",
            NodeKind::Mapping => "mapping",
            NodeKind::Alias => "alias",
        }
    }
}

impl<'a> Stream<'a> {
    /// The source text the stream was parsed from.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// How many documents the stream holds.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// True for a stream without documents.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Document `index` (0-based).
    pub fn document(&self, index: usize) -> Option<Document<'_, 'a>> {
        (index < self.docs.len()).then_some(Document {
            stream: self,
            index,
        })
    }

    /// The documents in order.
    pub fn documents(&self) -> impl ExactSizeIterator<Item = Document<'_, 'a>> + '_ {
        (0..self.docs.len()).map(move |index| Document {
            stream: self,
            index,
        })
    }

    /// How many nodes all documents hold.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Every comment of the stream, in source order (its text after `#`).
    pub fn comments(&self) -> impl Iterator<Item = Comment<'a>> + '_ {
        let src = self.src;
        self.comments.iter().map(move |&span| Comment {
            text: &src[span.start + 1..span.end],
            span,
        })
    }
}

impl fmt::Debug for Stream<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.documents()).finish()
    }
}

/// One document of a [`Stream`].
#[derive(Clone, Copy)]
pub struct Document<'s, 'a> {
    stream: &'s Stream<'a>,
    index: usize,
}

impl<'s, 'a> Document<'s, 'a> {
    fn data(&self) -> &'s DocData {
        &self.stream.docs[self.index]
    }

    /// The document's one top-level node (an empty document has an empty plain scalar).
    pub fn root(&self) -> Node<'s, 'a> {
        Node {
            stream: self.stream,
            id: self.data().root,
            doc: self.index,
        }
    }

    /// The document's position in the stream (0-based).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The document began with `---`.
    pub fn explicit_start(&self) -> bool {
        self.data().explicit_start
    }

    /// The document ended with `...`.
    pub fn explicit_end(&self) -> bool {
        self.data().explicit_end
    }

    /// The `%YAML` version directive, if any.
    pub fn version(&self) -> Option<(u32, u32)> {
        self.data().version
    }

    /// The bytes from the document's start (directives or `---`) to its end.
    pub fn span(&self) -> Span {
        self.data().span
    }

    /// The document as a [`RawValue`], exactly as the struct door builds it (aliases
    /// resolved, merge keys applied).
    pub fn to_raw_value(&self) -> Result<RawValue<'a>, Error> {
        self.to_raw_value_with_options(&Options::default())
    }

    /// [`Document::to_raw_value`] under `options`.
    pub fn to_raw_value_with_options(&self, options: &Options) -> Result<RawValue<'a>, Error> {
        let mut builder = RawValueBuilder::new(options);
        let at = |e: ErrorKind, offset: usize| Error::new(e, self.stream.src.as_bytes(), offset);
        let d = self.data();
        builder
            .document_start(DocumentStart {
                explicit: d.explicit_start,
                version: d.version,
                offset: d.span.start,
            })
            .map_err(|e| at(e, d.span.start))?;
        self.root()
            .replay(&mut builder)
            .map_err(|(e, o)| at(e, o))?;
        builder
            .document_end(d.explicit_end, d.span)
            .map_err(|e| at(e, d.span.end))?;
        Ok(builder.into_documents().pop().unwrap_or_default())
    }
}

impl fmt::Debug for Document<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("root", &self.root())
            .finish()
    }
}

/// A node of a [`Stream`]: cheap to copy, borrows the stream.
#[derive(Clone, Copy)]
pub struct Node<'s, 'a> {
    stream: &'s Stream<'a>,
    id: usize,
    doc: usize,
}

impl<'s, 'a> Node<'s, 'a> {
    fn data(&self) -> &'s NodeData<'a> {
        &self.stream.nodes[self.id]
    }

    fn at_id(&self, id: usize) -> Node<'s, 'a> {
        Node {
            stream: self.stream,
            id,
            doc: self.doc,
        }
    }

    /// The node's position in stream order.
    pub fn id(&self) -> usize {
        self.id
    }

    /// The kind of node.
    pub fn kind(&self) -> NodeKind {
        match self.data().data {
            Data::Scalar(..) => NodeKind::Scalar,
            Data::Sequence(..) => NodeKind::Sequence,
            Data::Mapping(..) => NodeKind::Mapping,
            Data::Alias(_) => NodeKind::Alias,
        }
    }

    /// The node's tag, resolved through `%TAG` directives.
    pub fn tag(&self) -> Option<&'s Tag<'a>> {
        self.data().tag.as_deref()
    }

    /// The node's anchor name (without `&`).
    pub fn anchor(&self) -> Option<&'a str> {
        self.data().anchor
    }

    /// How a scalar was written; `None` for other nodes.
    pub fn scalar_style(&self) -> Option<ScalarStyle> {
        match self.data().data {
            Data::Scalar(_, style) => Some(style),
            _ => None,
        }
    }

    /// How a collection was written; `None` for other nodes.
    pub fn collection_style(&self) -> Option<CollectionStyle> {
        match self.data().data {
            Data::Sequence(_, style) | Data::Mapping(_, style) => Some(style),
            _ => None,
        }
    }

    /// The bytes the node covers, properties included (quotes included for scalars).
    pub fn span(&self) -> Span {
        self.data().span
    }

    /// The source text of the node.
    pub fn source_text(&self) -> &'a str {
        self.span().slice(self.stream.src)
    }

    /// A scalar's text (folded and unescaped).
    pub fn as_str(&self) -> Option<&'s str> {
        match &self.data().data {
            Data::Scalar(s, _) => Some(s),
            _ => None,
        }
    }

    /// An alias's anchor name.
    pub fn alias_name(&self) -> Option<&'a str> {
        match self.data().data {
            Data::Alias(name) => Some(name),
            _ => None,
        }
    }

    /// A scalar's typed value under the core schema (as the struct door reads it);
    /// `None` for collections and aliases, or when the scalar does not fit its tag.
    pub fn value(&self) -> Option<RawValue<'s>> {
        match &self.data().data {
            Data::Scalar(s, style) => {
                resolve_scalar(Cow::Borrowed(s.as_ref()), *style, self.tag()).ok()
            }
            _ => None,
        }
    }

    /// True for a scalar that reads as null (`~`, `null`, empty).
    pub fn is_null(&self) -> bool {
        matches!(self.value(), Some(RawValue::Null))
    }

    /// The boolean value of a scalar.
    pub fn as_bool(&self) -> Option<bool> {
        match self.value()? {
            RawValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The integer value of a scalar, when it fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self.value()? {
            RawValue::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The numeric value of a scalar as `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match self.value()? {
            RawValue::Int(i) => Some(i as f64),
            RawValue::UInt(u) => Some(u as f64),
            RawValue::Float(f) => Some(f),
            RawValue::BigNumber(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// Items of a sequence or entries (key/value pairs) of a mapping; 0 otherwise.
    pub fn len(&self) -> usize {
        match self.data().data {
            Data::Sequence(n, _) => n,
            Data::Mapping(n, _) => n / 2,
            _ => 0,
        }
    }

    /// True when [`Node::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The node an alias refers to (the last node anchored with its name before it in
    /// the document); any other node is itself.
    pub fn resolve(&self) -> Node<'s, 'a> {
        let Data::Alias(name) = self.data().data else {
            return *self;
        };
        let first = self.stream.docs[self.doc].root;
        (first..self.id)
            .rev()
            .find(|&id| self.stream.nodes[id].anchor == Some(name))
            .map_or(*self, |id| self.at_id(id))
    }

    /// This subtree as a [`RawValue`], as the struct door would build it (aliases to
    /// anchors outside the subtree resolved, merge keys applied).
    pub fn to_raw_value(self) -> Result<RawValue<'a>, Error> {
        self.to_raw_value_with_options(&Options::default())
    }

    /// [`Node::to_raw_value`] under `options`.
    pub fn to_raw_value_with_options(&self, options: &Options) -> Result<RawValue<'a>, Error> {
        let mut builder = RawValueBuilder::new(options);
        let src = self.stream.src.as_bytes();
        let at = |(e, offset): (ErrorKind, usize)| Error::new(e, src, offset);
        builder
            .document_start(DocumentStart {
                explicit: false,
                version: None,
                offset: self.span().start,
            })
            .map_err(|e| at((e, self.span().start)))?;
        // Anchors defined before this node (outside it) first, so its aliases resolve.
        let first = self.stream.docs[self.doc].root;
        let mut id = first;
        while id < self.id {
            let node = &self.stream.nodes[id];
            if node.end <= self.id {
                if (id..node.end).any(|i| self.stream.nodes[i].anchor.is_some()) {
                    self.at_id(id).replay(&mut builder).map_err(at)?;
                }
                id = node.end;
            } else {
                // An ancestor of this node: look inside it.
                id += 1;
            }
        }
        self.replay(&mut builder).map_err(at)?;
        builder
            .document_end(false, self.span())
            .map_err(|e| at((e, self.span().end)))?;
        Ok(builder.into_documents().pop().unwrap_or_default())
    }

    /// Sends this subtree's events to `builder` (iteratively, however deep).
    fn replay<B: YamlBuilder<'a>>(&self, builder: &mut B) -> Result<(), (ErrorKind, usize)> {
        let nodes = &self.stream.nodes;
        // Open collections: (end index, is mapping, span end).
        let mut open: Vec<(usize, bool, usize)> = Vec::new();
        let end = nodes[self.id].end;
        let mut id = self.id;
        loop {
            while let Some(&(stop, map, span_end)) = open.last() {
                if stop != id {
                    break;
                }
                open.pop();
                let span = Span::new(span_end, span_end);
                let r = if map {
                    builder.mapping_end(span)
                } else {
                    builder.sequence_end(span)
                };
                r.map_err(|e| (e, span_end))?;
            }
            if id == end {
                return Ok(());
            }
            let node = &nodes[id];
            let props = Props {
                anchor: node.anchor,
                tag: node.tag.clone(),
            };
            let at = node.span.start;
            match &node.data {
                Data::Scalar(value, style) => {
                    builder.scalar(value.clone(), *style, props, node.span)
                }
                Data::Sequence(_, style) => {
                    open.push((node.end, false, node.span.end));
                    builder.sequence_start(*style, props, at)
                }
                Data::Mapping(_, style) => {
                    open.push((node.end, true, node.span.end));
                    builder.mapping_start(*style, props, at)
                }
                Data::Alias(name) => builder.alias(name, node.span),
            }
            .map_err(|e| (e, at))?;
            id += 1;
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

impl HasSpan for Node<'_, '_> {
    fn span(&self) -> Span {
        self.data().span
    }
}

/// Lookups follow aliases, and merge keys `<<` (when the mapping has no entry of its
/// own under the key), as the struct door reads them.
impl<'s, 'a: 's> TreeNode<'s> for Node<'s, 'a> {
    /// A key is a node: it may be any node in YAML.
    type Key = Self;
    type Target = Self;
    type Error = Error;

    /// The value of the first entry whose scalar key reads `key` (through aliases, and
    /// through merge keys `<<` when the mapping has none of its own).
    fn get(self, key: &str) -> Option<Self> {
        let map = self.resolve();
        if let Some((_, v)) = map
            .entries()
            .find(|(k, _)| k.resolve().as_str() == Some(key))
        {
            return Some(v.resolve());
        }
        for (k, v) in map.entries() {
            if k.scalar_style() == Some(ScalarStyle::Plain)
                && k.as_str() == Some("<<")
                && k.tag().is_none()
            {
                let v = v.resolve();
                let found = match v.kind() {
                    NodeKind::Mapping => v.get(key),
                    NodeKind::Sequence => v.items().find_map(|m| m.get(key)),
                    _ => None,
                };
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    /// The sequence item at `index` (through an alias).
    fn at(self, index: usize) -> Option<Self> {
        self.resolve().items().nth(index)
    }

    fn items(self) -> impl Iterator<Item = Self> + 's {
        let count = match self.data().data {
            Data::Sequence(n, _) => n,
            _ => 0,
        };
        Siblings::new(&self.stream.nodes, self.id + 1, count).map(move |id| self.at_id(id))
    }

    fn entries(self) -> impl Iterator<Item = (Self, Self)> + 's {
        let count = match self.data().data {
            Data::Mapping(n, _) => n,
            _ => 0,
        };
        let mut children =
            Siblings::new(&self.stream.nodes, self.id + 1, count).map(move |id| self.at_id(id));
        std::iter::from_fn(move || Some((children.next()?, children.next()?)))
    }

    fn to_raw_value(self) -> Result<RawValue<'s>, Error> {
        Node::to_raw_value(self)
    }

    fn lookup_prefix(self, path: &Path) -> (Self, usize) {
        follow_path(self.resolve(), path, |n, key| n.get(key), |n, i| n.at(i))
    }
}

impl<'d, 's: 'd, 'a: 's> Tree<'d> for Document<'s, 'a> {
    type Node = Node<'d, 'a>;

    fn root(&'d self) -> Node<'d, 'a> {
        Document::root(self)
    }

    /// The comments of this document: those after the previous document's end, up
    /// to this one's end (the last document's run to the end of the stream).
    fn comments(&'d self) -> impl Iterator<Item = Comment<'d>> {
        let docs = &self.stream.docs;
        let from = match self.index {
            0 => 0,
            i => docs[i - 1].span.end,
        };
        let to = match docs.get(self.index + 1) {
            Some(_) => self.data().span.end,
            None => usize::MAX,
        };
        self.stream
            .comments()
            .filter(move |c| (from..to).contains(&c.span.start))
    }
}

/// The builder of the tree door.
#[derive(Debug, Default)]
pub struct TreeBuilder<'a> {
    nodes: Vec<NodeData<'a>>,
    /// Open collections: node id and child count so far.
    open: Vec<(usize, usize)>,
    docs: Vec<DocData>,
    comments: Vec<Span>,
}

impl<'a> TreeBuilder<'a> {
    /// A builder with room for about `capacity` nodes.
    pub fn with_capacity(capacity: usize) -> Self {
        TreeBuilder {
            nodes: Vec::with_capacity(capacity),
            ..TreeBuilder::default()
        }
    }

    /// The stream, once the parser has run over `src` into this builder.
    pub fn finish(self, src: &'a str) -> Stream<'a> {
        Stream {
            src,
            nodes: self.nodes,
            docs: self.docs,
            comments: self.comments,
        }
    }

    #[inline]
    fn push(&mut self, data: Data<'a>, props: Props<'a>, span: Span) -> usize {
        let id = self.nodes.len();
        self.nodes.push(NodeData {
            data,
            tag: props.tag,
            anchor: props.anchor,
            span,
            end: id + 1,
        });
        if let Some(top) = self.open.last_mut() {
            top.1 += 1;
        }
        id
    }

    #[inline]
    fn close(&mut self, span: Span) {
        let (id, count) = self.open.pop().expect("balanced events");
        let end = self.nodes.len();
        let node = &mut self.nodes[id];
        node.data = match node.data {
            Data::Sequence(_, style) => Data::Sequence(count, style),
            Data::Mapping(_, style) => Data::Mapping(count, style),
            ref other => other.clone(),
        };
        node.span.end = span.end.max(node.span.start);
        node.end = end;
    }
}

impl<'a> YamlBuilder<'a> for TreeBuilder<'a> {
    const WANTS_COMMENTS: bool = true;

    fn document_start(&mut self, start: DocumentStart) -> Result<(), ErrorKind> {
        self.docs.push(DocData {
            root: self.nodes.len(),
            explicit_start: start.explicit,
            explicit_end: false,
            version: start.version,
            span: Span::new(start.offset, start.offset),
        });
        Ok(())
    }

    fn document_end(&mut self, explicit: bool, span: Span) -> Result<(), ErrorKind> {
        if let Some(doc) = self.docs.last_mut() {
            doc.explicit_end = explicit;
            let root_end = self.nodes.get(doc.root).map_or(span.end, |n| n.span.end);
            doc.span.end = span.end.max(root_end);
        }
        Ok(())
    }

    #[inline]
    fn scalar(
        &mut self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        span: Span,
    ) -> Result<(), ErrorKind> {
        self.push(Data::Scalar(value, style), props, span);
        Ok(())
    }

    #[inline]
    fn sequence_start(
        &mut self,
        style: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind> {
        let id = self.push(Data::Sequence(0, style), props, Span::new(start, start));
        self.open.push((id, 0));
        Ok(())
    }

    #[inline]
    fn sequence_end(&mut self, span: Span) -> Result<(), ErrorKind> {
        self.close(span);
        Ok(())
    }

    #[inline]
    fn mapping_start(
        &mut self,
        style: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind> {
        let id = self.push(Data::Mapping(0, style), props, Span::new(start, start));
        self.open.push((id, 0));
        Ok(())
    }

    #[inline]
    fn mapping_end(&mut self, span: Span) -> Result<(), ErrorKind> {
        self.close(span);
        Ok(())
    }

    #[inline]
    fn alias(&mut self, name: &'a str, span: Span) -> Result<(), ErrorKind> {
        self.push(Data::Alias(name), Props::default(), span);
        Ok(())
    }

    fn comment(&mut self, _: &'a str, span: Span) {
        self.comments.push(span);
    }
}
