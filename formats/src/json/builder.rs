//! The JSON builder trait: what the one JSON parser tells whoever builds its output.

use crate::common::Span;

use super::lexer::{NumberToken, TextRef};

/// Receives the parse of one JSON value, in document order, and builds the result.
///
/// The parser is monomorphized over its builder: a builder that ignores spans or
/// containers pays nothing for them. `()` is the validate-only builder.
/// Containers are built in three steps (`begin_*`, one call per item, `end_*`) so a
/// builder can choose its own accumulator types.
pub trait JsonBuilder<'a> {
    /// A finished value.
    type Value;
    /// An array under construction.
    type Array;
    /// An object under construction.
    type Object;
    /// An object key, as the builder keeps it.
    type Key;

    /// `null` at `span`.
    fn null(&mut self, span: Span) -> Self::Value;
    /// `true` or `false` at `span`.
    fn bool(&mut self, value: bool, span: Span) -> Self::Value;
    /// A number at `span`, scanned but not converted (call [`NumberToken::value`]).
    fn number(&mut self, value: NumberToken<'a>, span: Span) -> Self::Value;
    /// A string at `span` (the span includes the quotes).
    fn string(&mut self, value: TextRef<'a, '_>, span: Span) -> Self::Value;
    /// `[` at byte `start`.
    fn begin_array(&mut self, start: usize) -> Self::Array;
    /// The next array item.
    fn array_item(&mut self, array: &mut Self::Array, item: Self::Value);
    /// `]`; `span` covers the whole array.
    fn end_array(&mut self, array: Self::Array, span: Span) -> Self::Value;
    /// `{` at byte `start`.
    fn begin_object(&mut self, start: usize) -> Self::Object;
    /// An object key at `span`; its value follows.
    fn key(&mut self, key: TextRef<'a, '_>, span: Span) -> Self::Key;
    /// The key and value of the next member.
    fn object_member(&mut self, object: &mut Self::Object, key: Self::Key, value: Self::Value);
    /// `}`; `span` covers the whole object.
    fn end_object(&mut self, object: Self::Object, span: Span) -> Self::Value;

    /// Whether the parser should report JSONC comments (it does not even record them
    /// otherwise). Strict JSON has none.
    const WANTS_COMMENTS: bool = false;

    /// A JSONC comment: `text` is what follows `//` (up to the line break) or what lies
    /// between `/*` and `*/`; `span` covers the whole comment. Only called when
    /// [`JsonBuilder::WANTS_COMMENTS`] is true, for every comment in source order, after
    /// the document's value has been built.
    fn comment(&mut self, text: &'a str, span: Span) {
        let _ = (text, span);
    }
}

/// The validate-only builder: builds nothing, allocates nothing.
impl<'a> JsonBuilder<'a> for () {
    type Value = ();
    type Array = ();
    type Object = ();
    type Key = ();

    #[inline]
    fn null(&mut self, _: Span) {}
    #[inline]
    fn bool(&mut self, _: bool, _: Span) {}
    #[inline]
    fn number(&mut self, _: NumberToken<'a>, _: Span) {}
    #[inline]
    fn string(&mut self, _: TextRef<'a, '_>, _: Span) {}
    #[inline]
    fn begin_array(&mut self, _: usize) {}
    #[inline]
    fn array_item(&mut self, _: &mut (), _: ()) {}
    #[inline]
    fn end_array(&mut self, _: (), _: Span) {}
    #[inline]
    fn begin_object(&mut self, _: usize) {}
    #[inline]
    fn key(&mut self, _: TextRef<'a, '_>, _: Span) {}
    #[inline]
    fn object_member(&mut self, _: &mut (), _: (), _: ()) {}
    #[inline]
    fn end_object(&mut self, _: (), _: Span) {}
}
