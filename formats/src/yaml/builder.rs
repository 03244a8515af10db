//! The YAML builder trait: what the one YAML parser tells whoever builds its output.

use std::borrow::Cow;

use crate::common::Span;

use super::ErrorKind;

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarStyle {
    /// Unquoted (also used for the empty scalar of an omitted node).
    Plain,
    /// `'single quoted'`.
    SingleQuoted,
    /// `"double quoted"`.
    DoubleQuoted,
    /// A `|` literal block scalar.
    Literal,
    /// A `>` folded block scalar.
    Folded,
}

/// How a collection was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CollectionStyle {
    /// Indentation-based (`- item`, `key: value`).
    Block,
    /// Bracketed (`[a, b]`, `{a: b}`).
    Flow,
}

/// The prefix the secondary handle `!!` stands for.
pub const CORE_PREFIX: &str = "tag:yaml.org,2002:";

/// A node's tag, its handle already resolved through the document's `%TAG` directives:
/// `!!int` has prefix `tag:yaml.org,2002:` and suffix `int`; the non-specific tag `!`
/// has an empty prefix and suffix `!`; a verbatim tag `!<x>` has an empty prefix.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tag<'a> {
    /// What the handle resolved to.
    pub prefix: Cow<'a, str>,
    /// The rest of the tag, `%`-escapes decoded.
    pub suffix: Cow<'a, str>,
}

impl Tag<'_> {
    /// The name within the YAML core namespace (`"str"` for `!!str` or
    /// `!<tag:yaml.org,2002:str>`), if the tag is in it.
    pub fn core_name(&self) -> Option<&str> {
        if self.prefix == CORE_PREFIX {
            Some(&self.suffix)
        } else if self.prefix.is_empty() {
            self.suffix.strip_prefix(CORE_PREFIX)
        } else {
            None
        }
    }

    /// True for the non-specific tag `!` (which makes a plain scalar a string).
    pub fn is_non_specific(&self) -> bool {
        self.prefix.is_empty() && self.suffix == "!"
    }

    /// The full tag (`tag:yaml.org,2002:str`).
    pub fn full(&self) -> String {
        let mut s = String::with_capacity(self.prefix.len() + self.suffix.len());
        s.push_str(&self.prefix);
        s.push_str(&self.suffix);
        s
    }

    /// Copies borrowed text so the tag no longer borrows from the input.
    pub fn into_owned(self) -> Tag<'static> {
        Tag {
            prefix: Cow::Owned(self.prefix.into_owned()),
            suffix: Cow::Owned(self.suffix.into_owned()),
        }
    }
}

/// A node's properties: its anchor (`&name`, without the `&`) and its tag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Props<'a> {
    /// The anchor name.
    pub anchor: Option<&'a str>,
    /// The resolved tag (boxed: tags are rare, and props travel with every node).
    pub tag: Option<Box<Tag<'a>>>,
}

/// The start of one document of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentStart {
    /// The document began with `---`.
    pub explicit: bool,
    /// The `%YAML major.minor` directive, if any.
    pub version: Option<(u32, u32)>,
    /// Where the document (its directives or `---`, or its first node) starts.
    pub offset: usize,
}

/// Receives the events of a YAML stream, in document order, and builds the result.
///
/// The parser is monomorphized over its builder: a builder that ignores spans,
/// styles or comments pays nothing for them. `()` is the validate-only builder.
/// Each document holds exactly one node (an omitted one is an empty plain scalar).
/// Inside a mapping, nodes alternate key, value. An error returned by a builder
/// becomes a parse error at the event's position.
pub trait YamlBuilder<'a> {
    /// Whether the parser should report comments (it does not even record them otherwise).
    const WANTS_COMMENTS: bool = false;

    /// A document starts.
    fn document_start(&mut self, start: DocumentStart) -> Result<(), ErrorKind>;
    /// The current document ends; `explicit` when it ended with `...`.
    fn document_end(&mut self, explicit: bool, span: Span) -> Result<(), ErrorKind>;
    /// A scalar with its (folded, unescaped) value; borrowed from the input when
    /// nothing had to change. `span` covers the scalar as written (quotes included).
    fn scalar(
        &mut self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        span: Span,
    ) -> Result<(), ErrorKind>;
    /// A sequence starts at byte `start`.
    fn sequence_start(
        &mut self,
        style: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind>;
    /// The innermost sequence ends; `span` covers all of it.
    fn sequence_end(&mut self, span: Span) -> Result<(), ErrorKind>;
    /// A mapping starts at byte `start`.
    fn mapping_start(
        &mut self,
        style: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind>;
    /// The innermost mapping ends; `span` covers all of it.
    fn mapping_end(&mut self, span: Span) -> Result<(), ErrorKind>;
    /// An alias `*name` (the parser has checked that the anchor exists).
    fn alias(&mut self, name: &'a str, span: Span) -> Result<(), ErrorKind>;
    /// A comment; `text` follows the `#`. Only called when
    /// [`YamlBuilder::WANTS_COMMENTS`] is true.
    fn comment(&mut self, text: &'a str, span: Span) {
        let _ = (text, span);
    }
    /// The stream ends.
    fn stream_end(&mut self) -> Result<(), ErrorKind> {
        Ok(())
    }
}

/// The validate-only builder: builds nothing, allocates nothing.
impl<'a> YamlBuilder<'a> for () {
    #[inline]
    fn document_start(&mut self, _: DocumentStart) -> Result<(), ErrorKind> {
        Ok(())
    }
    #[inline]
    fn document_end(&mut self, _: bool, _: Span) -> Result<(), ErrorKind> {
        Ok(())
    }
    #[inline]
    fn scalar(
        &mut self,
        _: Cow<'a, str>,
        _: ScalarStyle,
        _: Props<'a>,
        _: Span,
    ) -> Result<(), ErrorKind> {
        Ok(())
    }
    #[inline]
    fn sequence_start(
        &mut self,
        _: CollectionStyle,
        _: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        Ok(())
    }
    #[inline]
    fn sequence_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        Ok(())
    }
    #[inline]
    fn mapping_start(
        &mut self,
        _: CollectionStyle,
        _: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        Ok(())
    }
    #[inline]
    fn mapping_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        Ok(())
    }
    #[inline]
    fn alias(&mut self, _: &'a str, _: Span) -> Result<(), ErrorKind> {
        Ok(())
    }
}
