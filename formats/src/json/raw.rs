//! The builder of the struct door: JSON to [`RawValue`].

use std::borrow::Cow;

use quarry_raw_value::RawValue;

use crate::common::Span;

use super::builder::JsonBuilder;
use super::lexer::{Number, Str};

/// Builds a [`RawValue`]: strings borrowed when they hold no escape, integers beyond
/// 64 bits (and floats beyond `f64`) kept as their text, object members in order with
/// duplicates kept. Spans are ignored, at no cost.
#[derive(Debug, Default, Clone, Copy)]
pub struct RawValueBuilder;

impl<'a> JsonBuilder<'a> for RawValueBuilder {
    type Value = RawValue<'a>;
    type Array = Vec<RawValue<'a>>;
    type Object = Vec<(Cow<'a, str>, RawValue<'a>)>;
    type Key = Cow<'a, str>;

    #[inline]
    fn null(&mut self, _: Span) -> RawValue<'a> {
        RawValue::Null
    }
    #[inline]
    fn bool(&mut self, value: bool, _: Span) -> RawValue<'a> {
        RawValue::Bool(value)
    }
    #[inline]
    fn number(&mut self, value: Number<'a>, _: Span) -> RawValue<'a> {
        match value {
            Number::Int(i) => RawValue::Int(i),
            Number::UInt(u) => RawValue::UInt(u),
            Number::Float(f) => RawValue::Float(f),
            Number::Big(text) => RawValue::BigNumber(Cow::Borrowed(text)),
        }
    }
    #[inline]
    fn string(&mut self, value: Str<'a, '_>, _: Span) -> RawValue<'a> {
        RawValue::String(value.into_cow())
    }
    #[inline]
    fn begin_array(&mut self, _: usize) -> Self::Array {
        Vec::new()
    }
    #[inline]
    fn array_item(&mut self, array: &mut Self::Array, item: RawValue<'a>) {
        array.push(item);
    }
    #[inline]
    fn end_array(&mut self, array: Self::Array, _: Span) -> RawValue<'a> {
        RawValue::Seq(array)
    }
    #[inline]
    fn begin_object(&mut self, _: usize) -> Self::Object {
        Vec::new()
    }
    #[inline]
    fn key(&mut self, key: Str<'a, '_>, _: Span) -> Cow<'a, str> {
        key.into_cow()
    }
    #[inline]
    fn object_member(&mut self, object: &mut Self::Object, key: Cow<'a, str>, value: RawValue<'a>) {
        object.push((key, value));
    }
    #[inline]
    fn end_object(&mut self, object: Self::Object, _: Span) -> RawValue<'a> {
        RawValue::Map(object)
    }
}
