//! The TOML builder trait: what the one TOML parser tells whoever builds its output.

use std::borrow::Cow;

use quarry_raw_value::Datetime;

use crate::common::Span;

/// Names a table or an array of tables for the length of one parse.
///
/// The root table is [`ROOT`]. The parser hands out ids densely, in increasing order,
/// one per call of [`TomlBuilder::table`], [`TomlBuilder::array_of_tables`],
/// [`TomlBuilder::array_element`] and [`TomlBuilder::begin_inline_table`], so a builder
/// can keep its tables in a `Vec` indexed by id.
pub type TableId = u32;

/// The id of the root table.
pub const ROOT: TableId = 0;

/// How a table came to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// The document's top-level table.
    Root,
    /// Defined by a `[header]`.
    Header,
    /// Created on the way to a deeper header (`a` in `[a.b]`) and not (yet) defined by
    /// its own header.
    Implicit,
    /// Created by a dotted key (`a` in `a.b = 1`).
    Dotted,
    /// An inline table `{ ... }`.
    Inline,
    /// One element of an array of tables (`[[name]]`).
    ArrayElement,
}

/// How a string was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringKind {
    /// `"basic"`, with escapes.
    Basic,
    /// `'literal'`, no escapes.
    Literal,
    /// `"""multi-line basic"""`.
    MultilineBasic,
    /// `'''multi-line literal'''`.
    MultilineLiteral,
}

/// One segment of a key: its text (escapes decoded) and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key<'a> {
    /// The key's text.
    pub name: Cow<'a, str>,
    /// The key as written, quotes included.
    pub span: Span,
}

/// Receives the parse of one TOML document, in document order, and builds the result.
///
/// The parser checks every TOML rule (no key set twice, no table defined twice, no
/// inline table or static array extended) before it calls the builder, so a builder
/// only records. Values arrive bottom-up (`begin_array`, items, `end_array`); tables
/// arrive as ids with their parent and key, and entries name the table they go in.
/// `()` is the validate-only builder.
pub trait TomlBuilder<'a> {
    /// A finished value (a scalar, an array or an inline table).
    type Value;
    /// An array under construction.
    type Array;

    /// A string at `span` (quotes included).
    fn string(&mut self, value: Cow<'a, str>, kind: StringKind, span: Span) -> Self::Value;
    /// An integer at `span`.
    fn integer(&mut self, value: i64, span: Span) -> Self::Value;
    /// A float at `span`.
    fn float(&mut self, value: f64, span: Span) -> Self::Value;
    /// `true` or `false` at `span`.
    fn bool(&mut self, value: bool, span: Span) -> Self::Value;
    /// One of the four datetime kinds at `span`.
    fn datetime(&mut self, value: Datetime, span: Span) -> Self::Value;
    /// `[` of a value array at byte `start`.
    fn begin_array(&mut self, start: usize) -> Self::Array;
    /// The next array item.
    fn array_item(&mut self, array: &mut Self::Array, item: Self::Value);
    /// `]`; `span` covers the whole array.
    fn end_array(&mut self, array: Self::Array, span: Span) -> Self::Value;
    /// `{` of inline table `id` at byte `start`; its entries follow with `id` as parent.
    fn begin_inline_table(&mut self, id: TableId, start: usize);
    /// `}` of inline table `id`; `span` covers the whole table.
    fn end_inline_table(&mut self, id: TableId, span: Span) -> Self::Value;

    /// A new table `id` under `key` in table `parent`. `span` is the header for
    /// [`TableKind::Header`], else the key segment that created it.
    fn table(&mut self, parent: TableId, key: Key<'a>, id: TableId, kind: TableKind, span: Span);
    /// The implicit table `id` is now defined by its own header at `span`.
    fn define_table(&mut self, id: TableId, span: Span);
    /// A new array of tables `id` under `key` in table `parent`.
    fn array_of_tables(&mut self, parent: TableId, key: Key<'a>, id: TableId);
    /// A new element table `id` of array of tables `array`; `span` is its `[[header]]`.
    fn array_element(&mut self, array: TableId, id: TableId, span: Span);
    /// `key = value` in table `parent`.
    fn entry(&mut self, parent: TableId, key: Key<'a>, value: Self::Value);
    /// A comment at `span` (from `#` to the end of its line, newline excluded).
    #[inline]
    fn comment(&mut self, span: Span) {
        let _ = span;
    }
    /// The document's text, before anything else: strings and keys handed over
    /// borrowed are slices of it, so a builder may keep where they are instead of the
    /// slices.
    #[inline]
    fn source(&mut self, src: &'a str) {
        let _ = src;
    }
}

/// The validate-only builder: builds nothing, allocates nothing.
impl<'a> TomlBuilder<'a> for () {
    type Value = ();
    type Array = ();

    #[inline]
    fn string(&mut self, _: Cow<'a, str>, _: StringKind, _: Span) {}
    #[inline]
    fn integer(&mut self, _: i64, _: Span) {}
    #[inline]
    fn float(&mut self, _: f64, _: Span) {}
    #[inline]
    fn bool(&mut self, _: bool, _: Span) {}
    #[inline]
    fn datetime(&mut self, _: Datetime, _: Span) {}
    #[inline]
    fn begin_array(&mut self, _: usize) {}
    #[inline]
    fn array_item(&mut self, _: &mut (), _: ()) {}
    #[inline]
    fn end_array(&mut self, _: (), _: Span) {}
    #[inline]
    fn begin_inline_table(&mut self, _: TableId, _: usize) {}
    #[inline]
    fn end_inline_table(&mut self, _: TableId, _: Span) {}
    #[inline]
    fn table(&mut self, _: TableId, _: Key<'a>, _: TableId, _: TableKind, _: Span) {}
    #[inline]
    fn define_table(&mut self, _: TableId, _: Span) {}
    #[inline]
    fn array_of_tables(&mut self, _: TableId, _: Key<'a>, _: TableId) {}
    #[inline]
    fn array_element(&mut self, _: TableId, _: TableId, _: Span) {}
    #[inline]
    fn entry(&mut self, _: TableId, _: Key<'a>, _: ()) {}
}
