//! The builder of the struct door: JSON to [`RawValue`].

use std::borrow::Cow;

use quarry_raw_value::RawValue;

use crate::common::Span;

use super::builder::JsonBuilder;
use super::lexer::{Number, NumberToken, TextRef};

/// Builds a [`RawValue`]: strings borrowed when they hold no escape, integers beyond
/// 64 bits (and floats beyond `f64`) kept as their text, object members in order with
/// duplicates kept. Spans are ignored, at no cost.
///
/// Items of open containers wait on two shared stacks; closing a container moves its
/// items into one exactly sized `Vec`, so each container costs one allocation.
#[derive(Debug, Default)]
pub struct RawValueBuilder<'a> {
    items: Vec<RawValue<'a>>,
    members: Vec<(Cow<'a, str>, RawValue<'a>)>,
}

/// A [`Number`] as a [`RawValue`].
#[inline]
pub(crate) fn raw_number(number: Number<'_>) -> RawValue<'_> {
    match number {
        Number::Int(i) => RawValue::Int(i),
        Number::UInt(u) => RawValue::UInt(u),
        Number::Float(f) => RawValue::Float(f),
        Number::Big(text) => RawValue::BigNumber(Cow::Borrowed(text)),
    }
}

impl<'a> JsonBuilder<'a> for RawValueBuilder<'a> {
    type Value = RawValue<'a>;
    /// Where the array's items start on the item stack.
    type Array = usize;
    /// Where the object's members start on the member stack.
    type Object = usize;
    type Key = Cow<'a, str>;

    #[inline]
    fn null(&mut self, _: Span) -> RawValue<'a> {
        RawValue::Null
    }
    #[inline]
    fn bool(&mut self, value: bool, _: Span) -> RawValue<'a> {
        RawValue::Bool(value)
    }
    // Always inlined: with the JSONC instantiations of the parser beside the strict ones,
    // LLVM does not inline it into the strict loop on its own, and a call per number
    // slows every list of integers.
    #[inline(always)]
    fn number(&mut self, value: NumberToken<'a>, _: Span) -> RawValue<'a> {
        raw_number(value.value())
    }
    #[inline]
    fn string(&mut self, value: TextRef<'a, '_>, _: Span) -> RawValue<'a> {
        RawValue::String(value.into_cow())
    }
    #[inline]
    fn begin_array(&mut self, _: usize) -> usize {
        self.items.len()
    }
    #[inline]
    fn array_item(&mut self, _: &mut usize, item: RawValue<'a>) {
        self.items.push(item);
    }
    #[inline]
    fn end_array(&mut self, start: usize, _: Span) -> RawValue<'a> {
        RawValue::Seq(self.items.split_off(start))
    }
    #[inline]
    fn begin_object(&mut self, _: usize) -> usize {
        self.members.len()
    }
    #[inline]
    fn key(&mut self, key: TextRef<'a, '_>, _: Span) -> Cow<'a, str> {
        key.into_cow()
    }
    #[inline]
    fn object_member(&mut self, _: &mut usize, key: Cow<'a, str>, value: RawValue<'a>) {
        self.members.push((key, value));
    }
    #[inline]
    fn end_object(&mut self, start: usize, _: Span) -> RawValue<'a> {
        RawValue::Map(self.members.split_off(start))
    }
}
