//! The tree door: a read-only XML document like roxmltree's, every node and attribute
//! with its byte span.
//!
//! Nodes live in one flat vector in document order, linked to their parent, siblings
//! and children by index; attributes live in a second vector, each element holding a
//! range of it. Text is borrowed from the input unless it held references or `\r`.

use std::borrow::Cow;
use std::fmt;

use std::convert::Infallible;

use quarry_raw_value::{Path, RawValue, Segment};

use crate::common::{Comment, EntryKey, HasSpan, Span, Tree, TreeNode};

use super::builder::{StartTag, TextRef, XmlBuilder};
use super::raw::TEXT_KEY;

const NONE: u32 = u32::MAX;

/// A parsed XML document. Get around it from [`Document::root_element`].
///
/// ```
/// let doc = quarry_formats::xml::parse_tree(
///     br#"<config xmlns:x="urn:x"><server x:port="80">web</server></config>"#,
/// ).unwrap();
/// let server = doc.root_element().first_element_child().unwrap();
/// assert_eq!(server.tag_name(), "server");
/// assert_eq!(server.text(), Some("web"));
/// let port = server.attributes().next().unwrap();
/// assert_eq!((port.local_name(), port.namespace(), port.value()), ("port", Some("urn:x"), "80"));
/// assert_eq!(port.span().slice(doc.source()), r#"x:port="80""#);
/// ```
#[derive(Clone)]
pub struct Document<'a> {
    src: Cow<'a, str>,
    nodes: Vec<NodeData<'a>>,
    attrs: Vec<AttrData<'a>>,
    namespaces: Vec<Cow<'a, str>>,
}

#[derive(Debug, Clone)]
struct NodeData<'a> {
    kind: Data<'a>,
    parent: u32,
    prev_sibling: u32,
    /// The last child; the first, if any, is the next node in document order.
    last_child: u32,
    /// One past the last node of this subtree: the next sibling, if its parent is ours.
    end: u32,
    span: Span,
}

#[derive(Debug, Clone)]
enum Data<'a> {
    Root,
    Element {
        name: Cow<'a, str>,
        prefix_len: u32,
        ns: u32,
        attrs: (u32, u32),
    },
    Text(Cow<'a, str>),
    Comment(Cow<'a, str>),
    /// Target and data, boxed: PIs are rare and would make every node larger.
    Pi(Box<(Cow<'a, str>, Cow<'a, str>)>),
}

#[derive(Debug, Clone)]
struct AttrData<'a> {
    name: Cow<'a, str>,
    prefix_len: u32,
    ns: u32,
    value: Cow<'a, str>,
    span: Span,
    value_span: Span,
    specified: bool,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// The document itself: the parent of the root element and of top-level comments/PIs.
    Root,
    /// An element.
    Element,
    /// Character data (CDATA sections included, adjacent runs merged).
    Text,
    /// A comment.
    Comment,
    /// A processing instruction.
    ProcessingInstruction,
}

impl NodeKind {
    /// A lowercase name for the kind (`"element"`).
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Root => "document",
            NodeKind::Element => "element",
            NodeKind::Text => "text",
            NodeKind::Comment => "comment",
            NodeKind::ProcessingInstruction => "processing instruction",
        }
    }
}

fn opt(i: u32) -> Option<usize> {
    (i != NONE).then_some(i as usize)
}

/// The first child of node `id`: the next node in document order, if it has children.
#[inline]
fn first_child_of(doc: &Document<'_>, id: usize) -> Option<usize> {
    (doc.nodes[id].last_child != NONE).then_some(id + 1)
}

/// The next sibling of node `id`: the node after its subtree, if it has the same parent.
#[inline]
fn next_sibling_of(doc: &Document<'_>, id: usize) -> Option<usize> {
    let node = &doc.nodes[id];
    let next = node.end as usize;
    (node.parent != NONE && doc.nodes.get(next)?.parent == node.parent).then_some(next)
}

impl<'a> Document<'a> {
    /// The document node (kind [`NodeKind::Root`]).
    pub fn root(&self) -> Node<'_, 'a> {
        Node { doc: self, id: 0 }
    }

    /// The root element.
    pub fn root_element(&self) -> Node<'_, 'a> {
        self.root()
            .children()
            .find(|n| n.is_element())
            .unwrap_or(self.root())
    }

    /// The source text the document was parsed from (for UTF-16 or ISO-8859-1 input,
    /// the UTF-8 text it was transcoded to; spans refer to it).
    pub fn source(&self) -> &str {
        &self.src
    }

    /// How many nodes the document holds (the document node included).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The node with `id`.
    pub fn get_node(&self, id: usize) -> Option<Node<'_, 'a>> {
        (id < self.nodes.len()).then_some(Node { doc: self, id })
    }

    /// Every node in document order (the document node first).
    pub fn descendants(&self) -> impl Iterator<Item = Node<'_, 'a>> + '_ {
        (0..self.nodes.len()).map(move |id| Node { doc: self, id })
    }

    /// The document as a [`RawValue`]: exactly what [`parse`](super::parse) builds.
    pub fn to_raw_value(&self) -> RawValue<'_> {
        let root = self.root_element();
        RawValue::Map(vec![(Cow::Borrowed(root.tag_name()), root.to_raw_value())])
    }

    /// Copies everything borrowed, so the document no longer borrows its input.
    pub fn into_owned(self) -> Document<'static> {
        fn own(s: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(s.into_owned())
        }
        Document {
            src: own(self.src),
            nodes: self
                .nodes
                .into_iter()
                .map(|n| NodeData {
                    kind: match n.kind {
                        Data::Root => Data::Root,
                        Data::Element {
                            name,
                            prefix_len,
                            ns,
                            attrs,
                        } => Data::Element {
                            name: own(name),
                            prefix_len,
                            ns,
                            attrs,
                        },
                        Data::Text(t) => Data::Text(own(t)),
                        Data::Comment(t) => Data::Comment(own(t)),
                        Data::Pi(pi) => {
                            let (target, data) = *pi;
                            Data::Pi(Box::new((own(target), own(data))))
                        }
                    },
                    parent: n.parent,
                    prev_sibling: n.prev_sibling,
                    last_child: n.last_child,
                    end: n.end,
                    span: n.span,
                })
                .collect(),
            attrs: self
                .attrs
                .into_iter()
                .map(|a| AttrData {
                    name: own(a.name),
                    prefix_len: a.prefix_len,
                    ns: a.ns,
                    value: own(a.value),
                    span: a.span,
                    value_span: a.value_span,
                    specified: a.specified,
                })
                .collect(),
            namespaces: self.namespaces.into_iter().map(own).collect(),
        }
    }
}

impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("nodes", &self.nodes.len())
            .field("root", &self.root_element())
            .finish()
    }
}

/// A node of a [`Document`]: cheap to copy, borrows the document.
#[derive(Clone, Copy)]
pub struct Node<'d, 'a> {
    doc: &'d Document<'a>,
    id: usize,
}

impl PartialEq for Node<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.doc, other.doc) && self.id == other.id
    }
}

impl<'d, 'a> Node<'d, 'a> {
    fn data(&self) -> &'d NodeData<'a> {
        &self.doc.nodes[self.id]
    }

    fn node_at(&self, id: Option<usize>) -> Option<Node<'d, 'a>> {
        id.map(|id| Node { doc: self.doc, id })
    }

    /// The node's id: its position in document order (0 is the document node).
    pub fn id(&self) -> usize {
        self.id
    }

    /// The document this node belongs to.
    pub fn document(&self) -> &'d Document<'a> {
        self.doc
    }

    /// What kind of node this is.
    pub fn kind(&self) -> NodeKind {
        match self.data().kind {
            Data::Root => NodeKind::Root,
            Data::Element { .. } => NodeKind::Element,
            Data::Text(_) => NodeKind::Text,
            Data::Comment(_) => NodeKind::Comment,
            Data::Pi(_) => NodeKind::ProcessingInstruction,
        }
    }

    /// True for elements.
    pub fn is_element(&self) -> bool {
        matches!(self.data().kind, Data::Element { .. })
    }

    /// True for text nodes.
    pub fn is_text(&self) -> bool {
        matches!(self.data().kind, Data::Text(_))
    }

    /// The bytes this node covers in the source (an element: start tag to end tag).
    pub fn span(&self) -> Span {
        self.data().span
    }

    /// The source text of this node.
    pub fn source_text(&self) -> &'d str {
        self.span().slice(&self.doc.src)
    }

    /// The qualified element name as written (`svg:rect`); `""` for other nodes.
    pub fn tag_name(&self) -> &'d str {
        match &self.data().kind {
            Data::Element { name, .. } => name,
            _ => "",
        }
    }

    /// The local part of the element name.
    pub fn local_name(&self) -> &'d str {
        match &self.data().kind {
            Data::Element {
                name, prefix_len, ..
            } if *prefix_len > 0 => &name[*prefix_len as usize + 1..],
            _ => self.tag_name(),
        }
    }

    /// The prefix of the element name, if any.
    pub fn prefix(&self) -> Option<&'d str> {
        match &self.data().kind {
            Data::Element {
                name, prefix_len, ..
            } if *prefix_len > 0 => Some(&name[..*prefix_len as usize]),
            _ => None,
        }
    }

    /// The element's resolved namespace URI.
    pub fn namespace(&self) -> Option<&'d str> {
        match &self.data().kind {
            Data::Element { ns, .. } => opt(*ns).map(|i| &*self.doc.namespaces[i]),
            _ => None,
        }
    }

    /// The element's attributes in document order (namespace declarations included).
    pub fn attributes(&self) -> Attributes<'d, 'a> {
        let (start, end) = match self.data().kind {
            Data::Element { attrs, .. } => attrs,
            _ => (0, 0),
        };
        Attributes {
            doc: self.doc,
            next: start as usize,
            end: end as usize,
        }
    }

    /// The value of the attribute with qualified name `name`.
    pub fn attribute(&self, name: &str) -> Option<&'d str> {
        self.attributes()
            .find(|a| a.name() == name)
            .map(|a| a.value())
    }

    /// The value of the attribute with namespace `namespace` and local name `local`.
    pub fn attribute_ns(&self, namespace: Option<&str>, local: &str) -> Option<&'d str> {
        self.attributes()
            .find(|a| a.namespace() == namespace && a.local_name() == local)
            .map(|a| a.value())
    }

    /// For an element, its first child's text (like roxmltree); for a text or comment
    /// node, its text; for a PI, its data.
    pub fn text(&self) -> Option<&'d str> {
        match &self.data().kind {
            Data::Element { .. } => self.first_child().and_then(|c| match &c.data().kind {
                Data::Text(t) => Some(&**t),
                _ => None,
            }),
            Data::Text(t) | Data::Comment(t) => Some(t),
            Data::Pi(pi) => Some(&pi.1),
            Data::Root => None,
        }
    }

    /// A processing instruction's target and data.
    pub fn pi(&self) -> Option<(&'d str, &'d str)> {
        match &self.data().kind {
            Data::Pi(pi) => Some((&pi.0, &pi.1)),
            _ => None,
        }
    }

    /// The parent node (the document node has none).
    pub fn parent(&self) -> Option<Node<'d, 'a>> {
        self.node_at(opt(self.data().parent))
    }

    /// The parent element, if the parent is one.
    pub fn parent_element(&self) -> Option<Node<'d, 'a>> {
        self.parent().filter(|p| p.is_element())
    }

    /// The first child.
    pub fn first_child(&self) -> Option<Node<'d, 'a>> {
        self.node_at(first_child_of(self.doc, self.id))
    }

    /// The last child.
    pub fn last_child(&self) -> Option<Node<'d, 'a>> {
        self.node_at(opt(self.data().last_child))
    }

    /// The next sibling.
    pub fn next_sibling(&self) -> Option<Node<'d, 'a>> {
        self.node_at(next_sibling_of(self.doc, self.id))
    }

    /// The previous sibling.
    pub fn prev_sibling(&self) -> Option<Node<'d, 'a>> {
        self.node_at(opt(self.data().prev_sibling))
    }

    /// True when the node has children.
    pub fn has_children(&self) -> bool {
        self.data().last_child != NONE
    }

    /// The children, in order.
    pub fn children(&self) -> Children<'d, 'a> {
        Children {
            doc: self.doc,
            next: first_child_of(self.doc, self.id),
        }
    }

    /// The child elements, in order.
    pub fn element_children(&self) -> impl Iterator<Item = Node<'d, 'a>> {
        self.children().filter(|c| c.is_element())
    }

    /// The first child element.
    pub fn first_element_child(&self) -> Option<Node<'d, 'a>> {
        self.element_children().next()
    }

    /// The parent, its parent, and so on up to the document node.
    pub fn ancestors(&self) -> impl Iterator<Item = Node<'d, 'a>> {
        std::iter::successors(self.parent(), |n| n.parent())
    }

    /// This node and every node inside it, in document order.
    pub fn descendants(&self) -> impl Iterator<Item = Node<'d, 'a>> {
        let doc = self.doc;
        (self.id..self.data().end as usize).map(move |id| Node { doc, id })
    }

    /// This element's value by the [`RawValue`] mapping (without the wrapper map);
    /// text, comments and PIs give their text.
    pub fn to_raw_value(self) -> RawValue<'d> {
        match &self.data().kind {
            Data::Element { .. } => {}
            Data::Root => return self.doc.to_raw_value(),
            Data::Text(t) | Data::Comment(t) => return RawValue::Text(Cow::Borrowed(t)),
            Data::Pi(pi) => return RawValue::Text(Cow::Borrowed(&pi.1)),
        }
        let mut entries: Vec<(Cow<'d, str>, RawValue<'d>)> = self
            .attributes()
            .map(|a| {
                (
                    Cow::Owned(format!("@{}", a.name())),
                    RawValue::Text(Cow::Borrowed(a.value())),
                )
            })
            .collect();
        let mut map = !entries.is_empty();
        let mut text: Option<Cow<'d, str>> = None;
        for child in self.children() {
            match &child.data().kind {
                Data::Element { .. } => {
                    map = true;
                    let name = child.tag_name();
                    let value = child.to_raw_value();
                    match entries.iter_mut().find(|(k, _)| k == name) {
                        Some((_, RawValue::Seq(items))) => items.push(value),
                        Some((_, slot)) => {
                            let first = std::mem::take(slot);
                            *slot = RawValue::Seq(vec![first, value]);
                        }
                        None => entries.push((Cow::Borrowed(name), value)),
                    }
                }
                Data::Text(t) if !super::builder::is_xml_whitespace(t) => match &mut text {
                    None => text = Some(Cow::Borrowed(t)),
                    Some(existing) => existing.to_mut().push_str(t),
                },
                _ => {}
            }
        }
        if !map {
            return RawValue::Text(text.unwrap_or(Cow::Borrowed("")));
        }
        if let Some(text) = text {
            entries.push((Cow::Borrowed(TEXT_KEY), RawValue::Text(text)));
        }
        RawValue::Map(entries)
    }
}

impl HasSpan for Node<'_, '_> {
    fn span(&self) -> Span {
        self.data().span
    }
}

/// XML by the [`RawValue`] mapping: an element's entries are its child elements under
/// their names (its attributes are reached by `@name` in a path), its items the same
/// child elements in order; text and other nodes are in [`Node::children`].
impl<'d, 'a> TreeNode<'d> for Node<'d, 'a> {
    /// A child element's name as written, and where it was.
    type Key = EntryKey<'d>;
    /// An element or text node, or an attribute (`@name`).
    type Target = Target<'d, 'a>;
    type Error = Infallible;

    /// The first child element named `key` (the prefix included, as written).
    fn get(self, key: &str) -> Option<Self> {
        self.element_children().find(|c| c.tag_name() == key)
    }

    /// Child element `index`.
    fn at(self, index: usize) -> Option<Self> {
        self.element_children().nth(index)
    }

    fn items(self) -> impl Iterator<Item = Self> + 'd {
        self.element_children()
    }

    fn entries(self) -> impl Iterator<Item = (EntryKey<'d>, Self)> + 'd {
        self.element_children().map(|c| {
            let name = c.tag_name();
            let start = c.span().start + 1;
            let key = EntryKey {
                name,
                span: Span::new(start, start + name.len()),
            };
            (key, c)
        })
    }

    fn to_raw_value(self) -> Result<RawValue<'d>, Infallible> {
        Ok(Node::to_raw_value(self))
    }

    /// Follows `path` by the [`RawValue`] mapping: `name` is the first child element
    /// of that name, `name[i]` the i-th, `@attr` an attribute, `$text` the first text
    /// child. From the document node, the first segment is the root element's name.
    fn lookup_prefix(self, path: &Path) -> (Target<'d, 'a>, usize) {
        let mut node = self;
        let segments = &path.segments;
        let mut i = 0;
        while i < segments.len() {
            let Segment::Key(key) = &segments[i] else {
                // An index right after an element: the element itself when 0.
                match segments[i] {
                    Segment::Index(0) => {
                        i += 1;
                        continue;
                    }
                    _ => return (Target::Node(node), i),
                }
            };
            if let Some(attr) = key.strip_prefix('@') {
                return match node.attributes().find(|a| a.name() == attr) {
                    Some(a) if i + 1 == segments.len() => (Target::Attribute(a), i + 1),
                    _ => (Target::Node(node), i),
                };
            }
            if key == TEXT_KEY {
                return match node.children().find(|c| c.is_text()) {
                    Some(t) if i + 1 == segments.len() => (Target::Node(t), i + 1),
                    _ => (Target::Node(node), i),
                };
            }
            let index = match segments.get(i + 1) {
                Some(Segment::Index(n)) => Some(*n),
                _ => None,
            };
            let found = node
                .element_children()
                .filter(|c| c.tag_name() == key)
                .nth(index.unwrap_or(0));
            match found {
                Some(child) => {
                    node = child;
                    i += if index.is_some() { 2 } else { 1 };
                }
                None => return (Target::Node(node), i),
            }
        }
        (Target::Node(node), segments.len())
    }
}

impl<'d, 'a> From<Node<'d, 'a>> for Target<'d, 'a> {
    fn from(node: Node<'d, 'a>) -> Self {
        Target::Node(node)
    }
}

impl HasSpan for Target<'_, '_> {
    fn span(&self) -> Span {
        Target::span(self)
    }
}

impl HasSpan for Attr<'_, '_> {
    fn span(&self) -> Span {
        Attr::span(self)
    }
}

impl<'d, 'a: 'd> Tree<'d> for Document<'a> {
    type Node = Node<'d, 'a>;

    /// The document node: a path from it starts with the root element's name.
    fn root(&'d self) -> Node<'d, 'a> {
        Document::root(self)
    }

    /// Every comment node, in document order.
    fn comments(&'d self) -> impl Iterator<Item = Comment<'d>> {
        self.descendants()
            .filter(|n| n.kind() == NodeKind::Comment)
            .map(|n| Comment {
                text: n.text().unwrap_or(""),
                span: n.span(),
            })
    }
}

impl fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let span = self.span();
        match self.kind() {
            NodeKind::Element => write!(f, "element <{}>", self.tag_name())?,
            NodeKind::Text => write!(f, "text {:?}", self.text().unwrap_or(""))?,
            kind => f.write_str(kind.name())?,
        }
        write!(f, " at {}..{}", span.start, span.end)
    }
}

/// Where a path lookup ends: a node or an attribute.
#[derive(Debug, Clone, Copy)]
pub enum Target<'d, 'a> {
    /// An element or text node.
    Node(Node<'d, 'a>),
    /// An attribute.
    Attribute(Attr<'d, 'a>),
}

impl<'d> Target<'d, '_> {
    /// The span in the source.
    pub fn span(&self) -> Span {
        match self {
            Target::Node(n) => n.span(),
            Target::Attribute(a) => a.span(),
        }
    }

    /// The value by the [`RawValue`] mapping (an attribute's value is text).
    pub fn to_raw_value(&self) -> RawValue<'d> {
        match self {
            Target::Node(n) => n.to_raw_value(),
            Target::Attribute(a) => RawValue::Text(Cow::Borrowed(a.value())),
        }
    }
}

/// An attribute of an element.
#[derive(Clone, Copy)]
pub struct Attr<'d, 'a> {
    doc: &'d Document<'a>,
    id: usize,
}

impl<'d> Attr<'d, '_> {
    fn data(&self) -> &'d AttrData<'d> {
        &self.doc.attrs[self.id]
    }

    /// The qualified name as written.
    pub fn name(&self) -> &'d str {
        &self.data().name
    }

    /// The local part of the name.
    pub fn local_name(&self) -> &'d str {
        let d = self.data();
        if d.prefix_len > 0 {
            &d.name[d.prefix_len as usize + 1..]
        } else {
            &d.name
        }
    }

    /// The prefix, if any.
    pub fn prefix(&self) -> Option<&'d str> {
        let d = self.data();
        (d.prefix_len > 0).then(|| &d.name[..d.prefix_len as usize])
    }

    /// The resolved namespace URI (none for unprefixed attributes).
    pub fn namespace(&self) -> Option<&'d str> {
        opt(self.data().ns).map(|i| &*self.doc.namespaces[i])
    }

    /// The normalized value.
    pub fn value(&self) -> &'d str {
        &self.data().value
    }

    /// From the name to the closing quote.
    pub fn span(&self) -> Span {
        self.data().span
    }

    /// The value between the quotes.
    pub fn value_span(&self) -> Span {
        self.data().value_span
    }

    /// True when the attribute is written in the tag; false when the internal subset's
    /// `<!ATTLIST>` supplied it as a default (the infoset's \[specified\] property). A
    /// defaulted attribute has an empty span at the end of its element's name.
    pub fn is_specified(&self) -> bool {
        self.data().specified
    }
}

impl fmt::Debug for Attr<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={:?}", self.name(), self.value())
    }
}

/// Iterator over an element's attributes.
#[derive(Debug, Clone)]
pub struct Attributes<'d, 'a> {
    doc: &'d Document<'a>,
    next: usize,
    end: usize,
}

impl<'d, 'a> Iterator for Attributes<'d, 'a> {
    type Item = Attr<'d, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        self.next += 1;
        Some(Attr {
            doc: self.doc,
            id: self.next - 1,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Attributes<'_, '_> {}

/// Iterator over the children of a node.
#[derive(Debug, Clone)]
pub struct Children<'d, 'a> {
    doc: &'d Document<'a>,
    next: Option<usize>,
}

impl<'d, 'a> Iterator for Children<'d, 'a> {
    type Item = Node<'d, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        let id = self.next?;
        self.next = next_sibling_of(self.doc, id);
        Some(Node { doc: self.doc, id })
    }
}

/// The builder of the tree door.
#[derive(Debug)]
pub struct TreeBuilder<'a> {
    nodes: Vec<NodeData<'a>>,
    attrs: Vec<AttrData<'a>>,
    namespaces: Vec<Cow<'a, str>>,
    current: u32,
}

impl Default for TreeBuilder<'_> {
    fn default() -> Self {
        Self::with_capacity(16)
    }
}

impl<'a> TreeBuilder<'a> {
    /// A builder with room for about `capacity` nodes.
    pub fn with_capacity(capacity: usize) -> Self {
        let mut nodes = Vec::with_capacity(capacity.max(1));
        nodes.push(NodeData {
            kind: Data::Root,
            parent: NONE,
            prev_sibling: NONE,
            last_child: NONE,
            end: 1,
            span: Span::default(),
        });
        TreeBuilder {
            nodes,
            attrs: Vec::new(),
            namespaces: Vec::new(),
            current: 0,
        }
    }

    /// A builder sized for `src`: room for two nodes per `<` and one attribute per `=`,
    /// counted with `memchr`, so the vectors never grow while parsing.
    pub fn for_source(src: &str) -> Self {
        let lt = memchr::memchr_iter(b'<', src.as_bytes()).count();
        let eq = memchr::memchr_iter(b'=', src.as_bytes()).count();
        let mut builder = TreeBuilder::with_capacity(2 * lt + 2);
        builder.attrs.reserve(eq);
        builder
    }

    /// The document, once the parser has finished with this builder.
    pub fn finish(mut self, src: Cow<'a, str>) -> Document<'a> {
        let len = self.nodes.len() as u32;
        self.nodes[0].end = len;
        self.nodes[0].span = Span::new(0, src.len());
        Document {
            src,
            nodes: self.nodes,
            attrs: self.attrs,
            namespaces: self.namespaces,
        }
    }

    #[inline]
    fn push(&mut self, kind: Data<'a>, span: Span) -> u32 {
        let id = self.nodes.len() as u32;
        let parent = self.current;
        let prev = self.nodes[parent as usize].last_child;
        self.nodes.push(NodeData {
            kind,
            parent,
            prev_sibling: prev,
            last_child: NONE,
            end: id + 1,
            span,
        });
        self.nodes[parent as usize].last_child = id;
        id
    }

    fn intern(&mut self, uri: Option<&str>) -> u32 {
        let Some(uri) = uri else { return NONE };
        if let Some(i) = self.namespaces.iter().rposition(|n| n == uri) {
            return i as u32;
        }
        self.namespaces.push(Cow::Owned(uri.to_owned()));
        self.namespaces.len() as u32 - 1
    }

    fn add_text(&mut self, text: TextRef<'a, '_>, span: Span) {
        // An empty CDATA section or entity leaves no text node (as `<a></a>` has none),
        // so a written tree reads back to the same tree.
        if text.as_str().is_empty() {
            return;
        }
        let last = self.nodes[self.current as usize].last_child;
        if last != NONE {
            let node = &mut self.nodes[last as usize];
            if let Data::Text(existing) = &mut node.kind {
                existing.to_mut().push_str(text.as_str());
                node.span.end = span.end.max(node.span.end);
                return;
            }
        }
        self.push(Data::Text(text.into_cow()), span);
    }
}

impl<'a> XmlBuilder<'a> for TreeBuilder<'a> {
    #[inline]
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        let start = self.attrs.len() as u32;
        for attr in tag.attributes() {
            let ns = self.intern(attr.namespace());
            self.attrs.push(AttrData {
                name: attr.name().clone(),
                prefix_len: attr.prefix().map_or(0, str::len) as u32,
                ns,
                value: attr.value().into_cow(),
                span: attr.span(),
                value_span: attr.value_span(),
                specified: attr.specified(),
            });
        }
        let ns = self.intern(tag.namespace());
        let id = self.push(
            Data::Element {
                name: tag.name().clone(),
                prefix_len: tag.prefix_len as u32,
                ns,
                attrs: (start, self.attrs.len() as u32),
            },
            tag.span(),
        );
        self.current = id;
    }

    #[inline]
    fn end_element(&mut self, span: Span) {
        let end = self.nodes.len() as u32;
        let node = &mut self.nodes[self.current as usize];
        node.end = end;
        node.span.end = span.end.max(node.span.end);
        self.current = node.parent;
    }

    #[inline]
    fn text(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.current != 0 {
            self.add_text(text, span);
        }
    }

    #[inline]
    fn comment(&mut self, text: TextRef<'a, '_>, span: Span) {
        self.push(Data::Comment(text.into_cow()), span);
    }

    #[inline]
    fn processing_instruction(
        &mut self,
        target: TextRef<'a, '_>,
        data: TextRef<'a, '_>,
        span: Span,
    ) {
        self.push(
            Data::Pi(Box::new((target.into_cow(), data.into_cow()))),
            span,
        );
    }
}
