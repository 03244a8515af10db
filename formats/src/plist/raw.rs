//! The builder of the struct door: a property list to [`RawValue`].

use std::borrow::Cow;

use quarry_raw_value::{Datetime, RawValue};

use crate::common::Span;

use super::builder::{Integer, PlistBuilder, TextRef};

/// The key of the one-entry map a UID becomes: `{"CF$UID": n}`, as in keyed archives
/// read by `plistlib` and CoreFoundation.
pub const UID_KEY: &str = "CF$UID";

/// Builds a [`RawValue`]: dicts as maps in document order, arrays as sequences, strings
/// borrowed from the input when nothing was decoded, integers as [`RawValue::Int`] (or
/// [`RawValue::UInt`] above `i64::MAX`), reals as floats, dates as
/// [`RawValue::Datetime`] in UTC, data as [`RawValue::Bytes`] (borrowed from binary
/// plists), and a UID `n` as the map `{"CF$UID": n}`.
///
/// Open containers keep their items and entries on two shared stacks; each container
/// costs one exactly sized allocation when it closes. A key waits on its own until its
/// value comes (a container saves its parent's pending key while it is open).
#[derive(Debug, Default)]
pub struct RawValueBuilder<'a> {
    items: Vec<RawValue<'a>>,
    entries: Vec<(Cow<'a, str>, RawValue<'a>)>,
    /// The key of the entry whose value comes next.
    key: Cow<'a, str>,
    /// The pending keys of the dicts around open containers.
    keys: Vec<Cow<'a, str>>,
    /// OpenStep strings are untyped text ([`RawValue::Text`]).
    untyped: bool,
}

impl<'a> RawValueBuilder<'a> {
    /// A builder whose strings become [`RawValue::Text`] (untyped, as OpenStep strings
    /// are: decoders parse numbers and booleans from them).
    pub fn untyped() -> Self {
        RawValueBuilder {
            untyped: true,
            ..Self::default()
        }
    }
}

/// The [`RawValue`] of a plist integer.
pub fn integer_value<'a>(value: Integer) -> RawValue<'a> {
    match value {
        Integer::Int(i) => RawValue::Int(i),
        Integer::UInt(u) => RawValue::UInt(u),
    }
}

/// The [`RawValue`] of a UID: `{"CF$UID": n}`.
pub fn uid_value<'a>(value: u64) -> RawValue<'a> {
    RawValue::Map(vec![(
        Cow::Borrowed(UID_KEY),
        integer_value(Integer::from(value)),
    )])
}

impl<'a> PlistBuilder<'a> for RawValueBuilder<'a> {
    type Value = RawValue<'a>;
    /// Where the dict's entries start on the entry stack.
    type Dict = usize;
    /// Where the array's items start on the item stack.
    type Array = usize;

    #[inline]
    fn string(&mut self, value: TextRef<'a, '_>, _: Span) -> RawValue<'a> {
        if self.untyped {
            RawValue::Text(value.into_cow())
        } else {
            RawValue::String(value.into_cow())
        }
    }
    #[inline]
    fn integer(&mut self, value: Integer, _: Span) -> RawValue<'a> {
        integer_value(value)
    }
    #[inline]
    fn real(&mut self, value: f64, _: Span) -> RawValue<'a> {
        RawValue::Float(value)
    }
    #[inline]
    fn bool(&mut self, value: bool, _: Span) -> RawValue<'a> {
        RawValue::Bool(value)
    }
    #[inline]
    fn date(&mut self, value: Datetime, _: Span) -> RawValue<'a> {
        RawValue::Datetime(value)
    }
    #[inline]
    fn data(&mut self, value: Cow<'a, [u8]>, _: Span) -> RawValue<'a> {
        RawValue::Bytes(value)
    }
    #[inline]
    fn uid(&mut self, value: u64, _: Span) -> RawValue<'a> {
        uid_value(value)
    }
    #[inline]
    fn begin_dict(&mut self, _: usize, _: Option<usize>) -> usize {
        self.keys.push(std::mem::take(&mut self.key));
        self.entries.len()
    }
    #[inline]
    fn dict_key(&mut self, _: &mut usize, key: TextRef<'a, '_>, _: Span) {
        self.key = key.into_cow();
    }
    #[inline]
    fn dict_value(&mut self, _: &mut usize, value: RawValue<'a>) {
        let key = std::mem::take(&mut self.key);
        self.entries.push((key, value));
    }
    #[inline]
    fn end_dict(&mut self, start: usize, _: Span) -> RawValue<'a> {
        self.key = self.keys.pop().unwrap_or_default();
        RawValue::Map(self.entries.split_off(start))
    }
    #[inline]
    fn begin_array(&mut self, _: usize, _: Option<usize>) -> usize {
        self.keys.push(std::mem::take(&mut self.key));
        self.items.len()
    }
    #[inline]
    fn array_item(&mut self, _: &mut usize, item: RawValue<'a>) {
        self.items.push(item);
    }
    #[inline]
    fn end_array(&mut self, start: usize, _: Span) -> RawValue<'a> {
        self.key = self.keys.pop().unwrap_or_default();
        RawValue::Seq(self.items.split_off(start))
    }
}
