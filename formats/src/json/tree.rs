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

use crate::common::{Comment, EntryKey, FlatNode, HasSpan, Siblings, Span, Tree, TreeNode};

use super::builder::JsonBuilder;
use super::lexer::{Number, NumberToken, TextRef};

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
    nodes: Vec<NodeData>,
    /// The keys a node cannot name by their place in the source (those with escapes,
    /// decoded, and those of 64 KiB or more), in document order.
    keys: Vec<Cow<'a, str>>,
    /// Strings that had escapes, decoded; a node names its string by index (one without
    /// escapes is read from the source).
    strings: Vec<String>,
    /// The comments' spans, in source order (JSONC only).
    comments: Vec<Span>,
}

/// One node in 32 bytes: what it is, its payload, where it is, its subtree's end and its
/// key. Offsets are `u32`: a tree is built for inputs under 4 GiB. A key is named by
/// where it is written (the bytes between its quotes) unless it had escapes.
#[derive(Debug, Clone, Copy)]
struct NodeData {
    /// The value: an integer's or a float's bits, a count of items or members, a boolean,
    /// or the index of a decoded string.
    payload: u64,
    start: u32,
    end: u32,
    /// Index one past the last node of this subtree: the next sibling, if any.
    subtree_end: u32,
    /// Where the key's text starts in the source; with [`KEY_SIDE`], its index in
    /// [`Document::keys`].
    key: u32,
    /// The key's length in bytes, or [`KEY_SIDE`], or [`NO_KEY`].
    key_len: u16,
    tag: Data,
}

/// `key_len` of a node that is not an object member.
const NO_KEY: u16 = u16::MAX;
/// `key_len` of a member whose key is in [`Document::keys`].
const KEY_SIDE: u16 = u16::MAX - 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Data {
    Null,
    Bool,
    Int,
    UInt,
    Float,
    /// A number beyond 64 bits, read from its source text.
    Big,
    /// A string without escapes: the source between the quotes.
    Str,
    /// A string with escapes: [`Document::strings`] at the payload.
    Decoded,
    Array,
    Object,
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

    /// The source span of node `id`.
    fn span_of(&self, id: usize) -> Span {
        let n = &self.nodes[id];
        Span::new(n.start as usize, n.end as usize)
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
    fn data(&self) -> &'d NodeData {
        &self.doc.nodes[self.id]
    }

    /// The node's position in document order (0 is the root).
    pub fn id(&self) -> usize {
        self.id
    }

    /// The kind of value.
    pub fn kind(&self) -> NodeKind {
        match self.data().tag {
            Data::Null => NodeKind::Null,
            Data::Bool => NodeKind::Bool,
            Data::Int | Data::UInt | Data::Float | Data::Big => NodeKind::Number,
            Data::Str | Data::Decoded => NodeKind::String,
            Data::Array => NodeKind::Array,
            Data::Object => NodeKind::Object,
        }
    }

    /// The bytes this value covers in the source (strings include their quotes).
    pub fn span(&self) -> Span {
        self.doc.span_of(self.id)
    }

    /// The source text of this value.
    pub fn source_text(&self) -> &'a str {
        self.span().slice(self.doc.src)
    }

    /// The key this node sits under, when its parent is an object.
    pub fn key(&self) -> Option<&'d str> {
        let n = self.data();
        match n.key_len {
            NO_KEY => None,
            KEY_SIDE => self.doc.keys.get(n.key as usize).map(|k| &**k),
            len => self
                .doc
                .src
                .get(n.key as usize..n.key as usize + usize::from(len)),
        }
    }

    /// The key as the builder kept it (borrowed from the source when it had no escapes).
    fn key_cow(&self) -> Cow<'a, str> {
        let n = self.data();
        match n.key_len {
            NO_KEY => Cow::Borrowed(""),
            KEY_SIDE => self.doc.keys[n.key as usize].clone(),
            len => Cow::Borrowed(
                self.doc
                    .src
                    .get(n.key as usize..n.key as usize + usize::from(len))
                    .unwrap_or_default(),
            ),
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        self.data().tag == Data::Null
    }

    /// The boolean, for `true`/`false`.
    pub fn as_bool(&self) -> Option<bool> {
        let n = self.data();
        (n.tag == Data::Bool).then_some(n.payload != 0)
    }

    /// The number, typed as the parser read it.
    pub fn as_number(&self) -> Option<Number<'a>> {
        let n = self.data();
        match n.tag {
            Data::Int => Some(Number::Int(n.payload as i64)),
            Data::UInt => Some(Number::UInt(n.payload)),
            Data::Float => Some(Number::Float(f64::from_bits(n.payload))),
            Data::Big => Some(Number::Big(self.source_text())),
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
        let n = self.data();
        match n.tag {
            Data::Str => self.doc.src.get(n.start as usize + 1..n.end as usize - 1),
            Data::Decoded => self.doc.strings.get(n.payload as usize).map(String::as_str),
            _ => None,
        }
    }

    /// The string as the struct door holds it: borrowed from the source when it can be.
    fn str_cow(&self) -> Cow<'a, str> {
        let n = self.data();
        match n.tag {
            Data::Str => Cow::Borrowed(
                self.doc
                    .src
                    .get(n.start as usize + 1..n.end as usize - 1)
                    .unwrap_or_default(),
            ),
            _ => Cow::Owned(self.as_str().unwrap_or_default().to_owned()),
        }
    }

    /// Items of an array or members of an object; 0 for scalars.
    pub fn len(&self) -> usize {
        let n = self.data();
        match n.tag {
            Data::Array | Data::Object => n.payload as usize,
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

    /// Where the key of this object member was written, quotes included. A key with
    /// escapes is found by stepping back from the value over the `:` and the key
    /// string, and any whitespace and comments between.
    fn key_span(&self) -> Span {
        let n = self.data();
        if n.key_len < KEY_SIDE {
            let at = n.key as usize;
            return Span::new(at - 1, at + usize::from(n.key_len) + 1);
        }
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
        match self.data().tag {
            Data::Null => RawValue::Null,
            Data::Bool => RawValue::Bool(self.data().payload != 0),
            Data::Int | Data::UInt | Data::Float | Data::Big => {
                super::raw::raw_number(self.as_number().unwrap_or(Number::Int(0)))
            }
            Data::Str | Data::Decoded => RawValue::String(self.str_cow()),
            Data::Array => RawValue::Seq(self.children().map(|c| c.to_raw_value()).collect()),
            Data::Object => RawValue::Map(
                self.children()
                    .map(|c| (c.key_cow(), c.to_raw_value()))
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

impl FlatNode for NodeData {
    #[inline]
    fn subtree_end(&self) -> usize {
        self.subtree_end as usize
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
        let count = match self.data().tag {
            Data::Array => self.len(),
            _ => 0,
        };
        Siblings::new(&doc.nodes, self.id + 1, count).map(move |id| Node { doc, id })
    }

    fn entries(self) -> impl Iterator<Item = (EntryKey<'d>, Self)> + 'd {
        let doc = self.doc;
        let count = match self.data().tag {
            Data::Object => self.len(),
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

/// A member's key as [`TreeBuilder`] holds it until its value is built: where it is
/// written, or (with escapes) which decoded key it is.
#[derive(Debug, Clone, Copy)]
pub struct TreeKey {
    at: u32,
    len: u16,
}

/// The builder of the tree door.
#[derive(Debug, Default)]
pub struct TreeBuilder<'a> {
    nodes: Vec<NodeData>,
    keys: Vec<Cow<'a, str>>,
    strings: Vec<String>,
    comments: Vec<Span>,
}

impl<'a> TreeBuilder<'a> {
    /// A builder with room for about `capacity` nodes.
    pub fn with_capacity(capacity: usize) -> Self {
        TreeBuilder {
            nodes: Vec::with_capacity(capacity),
            keys: Vec::new(),
            strings: Vec::new(),
            comments: Vec::new(),
        }
    }

    /// A builder with room for the nodes `input` likely holds. Below 64 KiB that is one
    /// per 16 bytes, and four more (a short list of long numbers, ten twelve-digit ones
    /// in 132 bytes, has eleven values, and its vector must not double for the last);
    /// above, as many as its first 4 KiB promise (a value after each `,`, `[` and `{`),
    /// and an eighth more, between one per 64 bytes and one per 4. A fixed one per 16
    /// bytes would be far too much for text-heavy files and too little for dense
    /// numeric ones, whose large vector would then double, a copy of the whole.
    pub fn for_input(input: &[u8]) -> Self {
        const SAMPLE: usize = 4096;
        let len = input.len();
        // Below this the vector's doublings copy little.
        if len < 16 * SAMPLE {
            return TreeBuilder::with_capacity(len / 16 + 4);
        }
        // Brackets and commas inside strings count too: this is an estimate. Counted in
        // 128-byte chunks with a byte sum each, which the compiler does sixteen or 32
        // bytes a step, where a `filter(..).count()` goes a byte at a time.
        let starts: usize = input[..SAMPLE]
            .chunks_exact(128)
            .map(|chunk| {
                let starts = chunk
                    .iter()
                    .map(|&b| u8::from(b == b',') + u8::from((b | 0x20) == b'{'));
                usize::from(starts.sum::<u8>())
            })
            .sum();
        let (len, starts) = (len as u64, starts as u64);
        let estimate = starts * len / SAMPLE as u64 * 9 / 8;
        TreeBuilder::with_capacity(estimate.clamp(len / 64, len / 4) as usize)
    }

    /// The document, once the parser has built its root from this builder.
    pub fn finish(self, src: &'a str) -> Document<'a> {
        Document {
            src,
            nodes: self.nodes,
            keys: self.keys,
            strings: self.strings,
            comments: self.comments,
        }
    }

    #[inline]
    fn push(&mut self, tag: Data, payload: u64, span: Span) -> usize {
        let id = self.nodes.len();
        self.nodes.push(NodeData {
            payload,
            start: span.start as u32,
            end: span.end as u32,
            subtree_end: id as u32 + 1,
            key: 0,
            key_len: NO_KEY,
            tag,
        });
        id
    }

    /// A number the inline paths leave: a float beyond Clinger's fast path, a `u64`, or one
    /// beyond 64 bits.
    #[inline(never)]
    fn push_number(&mut self, value: NumberToken<'a>, span: Span) -> usize {
        let (tag, payload) = match value.value() {
            Number::Int(i) => (Data::Int, i as u64),
            Number::UInt(u) => (Data::UInt, u),
            Number::Float(f) => (Data::Float, f.to_bits()),
            Number::Big(_) => (Data::Big, 0),
        };
        self.push(tag, payload, span)
    }

    /// A string that held escapes, kept decoded.
    #[inline(never)]
    fn push_decoded(&mut self, decoded: &str, span: Span) -> usize {
        self.strings.push(decoded.to_owned());
        self.push(Data::Decoded, self.strings.len() as u64 - 1, span)
    }

    #[inline]
    fn close(&mut self, id: usize, count: usize, span: Span) -> usize {
        let end = self.nodes.len();
        let node = &mut self.nodes[id];
        node.payload = count as u64;
        node.start = span.start as u32;
        node.end = span.end as u32;
        node.subtree_end = end as u32;
        id
    }
}

impl<'a> JsonBuilder<'a> for TreeBuilder<'a> {
    type Value = usize;
    type Array = (usize, usize);
    type Object = (usize, usize);
    type Key = TreeKey;

    #[inline]
    fn null(&mut self, span: Span) -> usize {
        self.push(Data::Null, 0, span)
    }
    #[inline]
    fn bool(&mut self, value: bool, span: Span) -> usize {
        self.push(Data::Bool, u64::from(value), span)
    }
    #[inline(always)]
    fn number(&mut self, value: NumberToken<'a>, span: Span) -> usize {
        // An integer that fits `i64`, and a float one operation converts, inline; the
        // rest in a call.
        if let Some(i) = value.as_i64() {
            self.push(Data::Int, i as u64, span)
        } else if let Some(f) = value.exact_float() {
            self.push(Data::Float, f.to_bits(), span)
        } else {
            self.push_number(value, span)
        }
    }
    #[inline(always)]
    fn string(&mut self, value: TextRef<'a, '_>, span: Span) -> usize {
        match value {
            // Without escapes the string is the source between the quotes.
            TextRef::Borrowed(_) => self.push(Data::Str, 0, span),
            TextRef::Decoded(decoded) => self.push_decoded(decoded, span),
        }
    }
    #[inline]
    fn begin_array(&mut self, start: usize) -> (usize, usize) {
        (self.push(Data::Array, 0, Span::new(start, start)), 0)
    }
    #[inline]
    fn array_item(&mut self, array: &mut (usize, usize), _: usize) {
        array.1 += 1;
    }
    #[inline]
    fn end_array(&mut self, (id, len): (usize, usize), span: Span) -> usize {
        self.close(id, len, span)
    }
    #[inline]
    fn begin_object(&mut self, start: usize) -> (usize, usize) {
        (self.push(Data::Object, 0, Span::new(start, start)), 0)
    }
    #[inline]
    fn key(&mut self, key: TextRef<'a, '_>, span: Span) -> TreeKey {
        match key {
            // The key is the source between its quotes.
            TextRef::Borrowed(text) if text.len() < usize::from(KEY_SIDE) => TreeKey {
                at: span.start as u32 + 1,
                len: text.len() as u16,
            },
            key => {
                self.keys.push(key.into_cow());
                TreeKey {
                    at: self.keys.len() as u32 - 1,
                    len: KEY_SIDE,
                }
            }
        }
    }
    #[inline]
    fn object_member(&mut self, object: &mut (usize, usize), key: TreeKey, value: usize) {
        let node = &mut self.nodes[value];
        node.key = key.at;
        node.key_len = key.len;
        object.1 += 1;
    }
    #[inline]
    fn end_object(&mut self, (id, len): (usize, usize), span: Span) -> usize {
        self.close(id, len, span)
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
    fn keys_are_read_from_the_source_or_kept_decoded() {
        let long = "k".repeat(70_000);
        let src = format!("{{\"plain\": 1, \"es\\u0063aped\\n\": 2, \"{long}\": 3, \"\": 4}}");
        let doc = json::parse_tree(src.as_bytes()).unwrap();
        let entries: Vec<_> = doc.root().entries().collect();
        let names: Vec<&str> = entries.iter().map(|(k, _)| k.name).collect();
        assert_eq!(names, ["plain", "escaped\n", long.as_str(), ""]);
        let spans: Vec<&str> = entries.iter().map(|(k, _)| k.span.slice(&src)).collect();
        let quoted_long = format!("\"{long}\"");
        assert_eq!(
            spans,
            [
                "\"plain\"",
                "\"es\\u0063aped\\n\"",
                quoted_long.as_str(),
                "\"\""
            ]
        );
        assert_eq!(
            doc.root().get("escaped\n").and_then(|n| n.as_u64()),
            Some(2)
        );
        assert_eq!(doc.root().get(&long).and_then(|n| n.as_u64()), Some(3));
        assert_eq!(doc.root().get("").and_then(|n| n.as_u64()), Some(4));
        assert_eq!(doc.root().key(), None);
        assert_eq!(doc.to_raw_value(), json::parse(src.as_bytes()).unwrap());
    }

    #[test]
    fn the_node_vector_is_sized_from_the_first_four_kibibytes() {
        let capacity = |input: &[u8]| super::TreeBuilder::for_input(input).nodes.capacity();
        // Small input: one node per 16 bytes, and four more; a list of ten twelve-digit
        // numbers fits.
        assert_eq!(capacity(&[b' '; 4000]), 254);
        let list = format!("[{}]", ["123456789012"; 10].join(","));
        assert!(capacity(list.as_bytes()) >= 11);
        // Numbers, a value every 5 bytes: the sample holds the `[` and 819 commas, and
        // the room is for that many per 4 KiB, and an eighth more.
        let numbers: Vec<u8> = b"["
            .iter()
            .chain(b"1.25,".iter().cycle().take(5 * 40_000))
            .copied()
            .collect();
        assert_eq!(capacity(&numbers), 820 * numbers.len() / 4096 * 9 / 8);
        // One long string: one node per 64 bytes; commas alone: one per 4 bytes.
        assert_eq!(capacity(&[b'a'; 1 << 20]), (1 << 20) / 64);
        assert_eq!(capacity(&[b','; 1 << 20]), (1 << 20) / 4);
    }

    #[test]
    fn nodes_stay_small() {
        assert_eq!(std::mem::size_of::<super::NodeData>(), 32);
    }

    #[test]
    fn strict_trees_and_the_struct_door_keep_no_comments() {
        let doc = json::parse_tree(br#"{"a": "// not a comment"}"#).unwrap();
        assert_eq!(doc.comments().count(), 0);
        let doc = json::parse_tree_jsonc(br#"{"a": "/* not a comment */"}"#).unwrap();
        assert_eq!(doc.comments().count(), 0);
    }
}
