//! The one vocabulary of quarry's trees. Every format's tree implements [`Tree`] for its
//! document and [`TreeNode`] for its nodes, with the same names and meanings: a node's
//! `span`, `get` by key, `at` by index, the `items` of a sequence, the `entries` of a
//! map, `lookup` by a path, and `to_raw_value`; a document's `root` and `comments`. What only one format has (YAML tags and anchors, TOML table kinds,
//! XML attributes and mixed `children`) stays on its own types.
//!
//! ```
//! use quarry_formats::common::{HasSpan, Tree, TreeNode};
//! use quarry_formats::{json, toml};
//!
//! /// The text of the value at `path` in any tree.
//! fn text_at<'d, T: Tree<'d>>(doc: &'d T, path: &str) -> Option<std::ops::Range<usize>> {
//!     let span = doc.root().lookup_str(path)?.span();
//!     Some(span.start..span.end)
//! }
//! let json = json::parse_tree(br#"{"servers": [{"port": 80}]}"#).unwrap();
//! let toml = toml::parse_tree(b"[[servers]]\nport = 80\n").unwrap();
//! assert_eq!(text_at(&json, "servers[0].port"), Some(22..24));
//! assert_eq!(text_at(&toml, "servers[0].port"), Some(19..21));
//! ```

use quarry_raw_value::{Path, RawValue};

use super::{follow_path, Span};

/// Something with a place in the source: a node, or an XML attribute.
pub trait HasSpan {
    /// The bytes it covers in the source.
    fn span(&self) -> Span;
}

/// A node of a parsed document, borrowed from it for `'d`. Nodes are small handles:
/// every method takes the node by value.
pub trait TreeNode<'d>: HasSpan + Copy {
    /// A map entry's key as the format keeps it: [`EntryKey`] (its text and span), or
    /// in YAML the key's own node (a key may be any node there).
    type Key;
    /// Where a path can lead: a node, or in XML an attribute too.
    type Target: HasSpan + Copy + From<Self>;
    /// Why [`TreeNode::to_raw_value`] may fail: YAML trees hold what the struct door
    /// rejects (collections as keys, bad merge keys); the other formats cannot fail
    /// ([`Infallible`](std::convert::Infallible)).
    type Error;

    /// The value under `key` in a map (the first, if the key repeats).
    fn get(self, key: &str) -> Option<Self>;

    /// Item `index` of a sequence.
    fn at(self, index: usize) -> Option<Self>;

    /// A sequence's items, in order; nothing for other nodes.
    fn items(self) -> impl Iterator<Item = Self> + 'd;

    /// A map's entries as `(key, value)`, in order, duplicates included; nothing for
    /// other nodes.
    fn entries(self) -> impl Iterator<Item = (Self::Key, Self)> + 'd;

    /// This subtree as the [`RawValue`] the struct door builds for it.
    fn to_raw_value(self) -> Result<RawValue<'d>, Self::Error>;

    /// The deepest node along `path` (`get` for a key, `at` for an index), with how
    /// many segments were followed: all of them when the path exists. Decode errors
    /// are placed with it, so an error at a missing field points at the map that lacks
    /// it.
    fn lookup_prefix(self, path: &Path) -> (Self::Target, usize) {
        let (node, followed) = follow_path(self, path, |n, key| n.get(key), |n, i| n.at(i));
        (node.into(), followed)
    }

    /// What `path` (`servers[0].host`) leads to from this node.
    fn lookup(self, path: &Path) -> Option<Self::Target> {
        match self.lookup_prefix(path) {
            (target, followed) if followed == path.segments.len() => Some(target),
            _ => None,
        }
    }

    /// [`TreeNode::lookup`] with the path written as text, in the CLI's syntax
    /// (`servers[0].host`, `["key.with.dots"]`); `None` when it does not parse.
    fn lookup_str(self, path: &str) -> Option<Self::Target> {
        self.lookup(&Path::parse(path)?)
    }
}

/// A parsed document of any format, borrowed for `'d`. Its value as the struct door
/// builds it is `root().to_raw_value()`.
pub trait Tree<'d> {
    /// The document's nodes.
    type Node: TreeNode<'d>;

    /// The top-level node (in XML, the document node, whose one child element is the
    /// root element).
    fn root(&'d self) -> Self::Node;

    /// Every comment, in source order.
    fn comments(&'d self) -> impl Iterator<Item = Comment<'d>>;
}

/// A map entry's key: its text and where it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryKey<'d> {
    /// The key's text (escapes decoded).
    pub name: &'d str,
    /// The key as written (quotes included; for a dotted TOML key, its last part).
    pub span: Span,
}

/// A comment kept by a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment<'a> {
    /// The text inside the comment: after `#` or `//` (up to the line break), or between
    /// `<!--` and `-->` or `/*` and `*/`.
    pub text: &'a str,
    /// The whole comment, its markers included.
    pub span: Span,
}

/// A node of a flat tree: nodes in one vector in document order, a parent before its
/// children, each knowing the index one past its subtree (its next sibling).
pub(crate) trait FlatNode {
    /// The index one past this node's subtree.
    fn subtree_end(&self) -> usize;
}

/// The indices of `count` consecutive siblings of a flat tree, starting at `first`:
/// each step jumps over the subtree of the one before.
#[derive(Debug, Clone)]
pub(crate) struct Siblings<'d, T> {
    nodes: &'d [T],
    next: usize,
    remaining: usize,
}

impl<'d, T: FlatNode> Siblings<'d, T> {
    /// The `count` siblings from `first` on.
    pub(crate) fn new(nodes: &'d [T], first: usize, count: usize) -> Self {
        Siblings {
            nodes,
            next: first,
            remaining: count,
        }
    }
}

impl<T: FlatNode> Iterator for Siblings<'_, T> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        let id = self.next;
        self.next = self.nodes[id].subtree_end();
        self.remaining -= 1;
        Some(id)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T: FlatNode> ExactSizeIterator for Siblings<'_, T> {}

/// A map entry of a tree whose nodes are numbered (TOML, plist): the key, where it was
/// written, and the value's node.
#[derive(Debug, Clone)]
pub(crate) struct Entry<'a> {
    pub(crate) key: std::borrow::Cow<'a, str>,
    pub(crate) key_span: Span,
    pub(crate) value: u32,
}

impl Entry<'_> {
    /// The key as [`TreeNode::entries`] hands it out.
    #[inline]
    pub(crate) fn key(&self) -> EntryKey<'_> {
        EntryKey {
            name: &self.key,
            span: self.key_span,
        }
    }

    /// The value node of the first of `entries` under `key`.
    pub(crate) fn find(entries: &[Entry<'_>], key: &str) -> Option<u32> {
        entries.iter().find(|e| e.key == key).map(|e| e.value)
    }
}

/// A node of a tree whose nodes are numbered and whose maps and sequences list their
/// members by number (TOML, plist): what [`TreeNode`] needs from it, so that the
/// navigation is written once for both.
pub(crate) trait NumberedNode<'d>: HasSpan + Copy + 'd {
    /// A map's entries (empty for other nodes).
    fn entry_list(self) -> &'d [Entry<'d>];
    /// A sequence's item numbers (empty for other nodes).
    fn item_list(self) -> &'d [u32];
    /// The node numbered `id` of the same document.
    fn numbered(self, id: u32) -> Self;
    /// This subtree as the struct door's value.
    fn raw_value(self) -> RawValue<'d>;
}

impl<'d, N: NumberedNode<'d> + 'd> TreeNode<'d> for N {
    type Key = EntryKey<'d>;
    type Target = Self;
    type Error = std::convert::Infallible;

    fn get(self, key: &str) -> Option<Self> {
        Entry::find(self.entry_list(), key).map(|id| self.numbered(id))
    }

    fn at(self, index: usize) -> Option<Self> {
        self.item_list().get(index).map(|&id| self.numbered(id))
    }

    fn items(self) -> impl Iterator<Item = Self> + 'd {
        self.item_list().iter().map(move |&id| self.numbered(id))
    }

    fn entries(self) -> impl Iterator<Item = (EntryKey<'d>, Self)> + 'd {
        self.entry_list()
            .iter()
            .map(move |e| (e.key(), self.numbered(e.value)))
    }

    fn to_raw_value(self) -> Result<RawValue<'d>, Self::Error> {
        Ok(self.raw_value())
    }
}
