//! The plist builder trait: what the three plist readers tell whoever builds their output,
//! plus the plist value vocabulary they share (integers, dates).

use std::borrow::Cow;
use std::fmt;

use quarry_raw_value::{Date, Datetime, Offset, Time};

use crate::common::Span;

pub(crate) use quarry_raw_value::TextRef;

/// A plist integer: anything from -2^63 to 2^64-1.
///
/// Canonical like [`RawValue`](quarry_raw_value::RawValue): [`Integer::UInt`] holds only
/// values above `i64::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Integer {
    /// Every integer that fits an `i64`.
    Int(i64),
    /// An integer above `i64::MAX`.
    UInt(u64),
}

impl Integer {
    /// The integer if it lies in -2^63 ..= 2^64-1.
    pub fn from_i128(value: i128) -> Option<Integer> {
        if let Ok(i) = i64::try_from(value) {
            Some(Integer::Int(i))
        } else {
            u64::try_from(value).ok().map(Integer::UInt)
        }
    }

    /// The value as an `i128` (always exact).
    pub fn as_i128(self) -> i128 {
        match self {
            Integer::Int(i) => i128::from(i),
            Integer::UInt(u) => i128::from(u),
        }
    }

    /// The value as an `i64`, if it fits.
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Integer::Int(i) => Some(i),
            Integer::UInt(_) => None,
        }
    }

    /// The value as a `u64`, if it fits.
    pub fn as_u64(self) -> Option<u64> {
        match self {
            Integer::Int(i) => u64::try_from(i).ok(),
            Integer::UInt(u) => Some(u),
        }
    }
}

impl From<i64> for Integer {
    fn from(value: i64) -> Self {
        Integer::Int(value)
    }
}

impl From<u64> for Integer {
    fn from(value: u64) -> Self {
        match i64::try_from(value) {
            Ok(i) => Integer::Int(i),
            Err(_) => Integer::UInt(value),
        }
    }
}

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Integer::Int(i) => write!(f, "{i}"),
            Integer::UInt(u) => write!(f, "{u}"),
        }
    }
}

/// Receives one property list, bottom-up, from any of the three readers, and builds the
/// result.
///
/// Scalars become values at once; containers are opened (`begin_*`), filled and closed
/// (`end_*`), and the closed container is itself a value. Inside a dict every value is
/// preceded by its key. The reader checks the plist rules (keys are strings, one value
/// per key, no cycles, depth and expansion limits) before it calls the builder, so a
/// builder only records.
///
/// Spans are byte ranges of the input: for XML and OpenStep the value's text (for XML,
/// from its start tag to its end tag), for binary plists the object's bytes (from its
/// marker to its last byte or reference). A binary object shared by several containers
/// is reported once per reference, with the same span.
///
/// Strings and keys arrive as [`TextRef`]: borrowed from the input when nothing had to be
/// decoded, otherwise in a buffer the reader reuses. The `len` of `begin_*` (binary
/// plists only) has been checked against the bytes its references take, so a builder
/// may preallocate by it. `()` is the validate-only builder.
pub trait PlistBuilder<'a> {
    /// A finished value.
    type Value;
    /// A dict under construction.
    type Dict;
    /// An array under construction.
    type Array;

    /// A string.
    fn string(&mut self, value: TextRef<'a, '_>, span: Span) -> Self::Value;
    /// An integer.
    fn integer(&mut self, value: Integer, span: Span) -> Self::Value;
    /// A real (floating-point number).
    fn real(&mut self, value: f64, span: Span) -> Self::Value;
    /// `true` or `false`.
    fn bool(&mut self, value: bool, span: Span) -> Self::Value;
    /// A date: always a UTC date-time ([`Offset::Z`]).
    fn date(&mut self, value: Datetime, span: Span) -> Self::Value;
    /// Data: borrowed from a binary plist, decoded (base64, hex) otherwise.
    fn data(&mut self, value: Cow<'a, [u8]>, span: Span) -> Self::Value;
    /// A UID (binary plists only: the object references of keyed archives).
    fn uid(&mut self, value: u64, span: Span) -> Self::Value;
    /// A dict opening at byte `start`; `len` is its entry count when the format says it.
    fn begin_dict(&mut self, start: usize, len: Option<usize>) -> Self::Dict;
    /// The key of the next dict entry; its value follows.
    fn dict_key(&mut self, dict: &mut Self::Dict, key: TextRef<'a, '_>, span: Span);
    /// The value of the entry whose key came last.
    fn dict_value(&mut self, dict: &mut Self::Dict, value: Self::Value);
    /// The dict is complete; `span` covers all of it.
    fn end_dict(&mut self, dict: Self::Dict, span: Span) -> Self::Value;
    /// An array opening at byte `start`; `len` is its item count when the format says it.
    fn begin_array(&mut self, start: usize, len: Option<usize>) -> Self::Array;
    /// The next array item.
    fn array_item(&mut self, array: &mut Self::Array, item: Self::Value);
    /// The array is complete; `span` covers all of it.
    fn end_array(&mut self, array: Self::Array, span: Span) -> Self::Value;
}

/// The validate-only builder: builds nothing, allocates nothing.
impl<'a> PlistBuilder<'a> for () {
    type Value = ();
    type Dict = ();
    type Array = ();

    #[inline]
    fn string(&mut self, _: TextRef<'a, '_>, _: Span) {}
    #[inline]
    fn integer(&mut self, _: Integer, _: Span) {}
    #[inline]
    fn real(&mut self, _: f64, _: Span) {}
    #[inline]
    fn bool(&mut self, _: bool, _: Span) {}
    #[inline]
    fn date(&mut self, _: Datetime, _: Span) {}
    #[inline]
    fn data(&mut self, _: Cow<'a, [u8]>, _: Span) {}
    #[inline]
    fn uid(&mut self, _: u64, _: Span) {}
    #[inline]
    fn begin_dict(&mut self, _: usize, _: Option<usize>) {}
    #[inline]
    fn dict_key(&mut self, _: &mut (), _: TextRef<'a, '_>, _: Span) {}
    #[inline]
    fn dict_value(&mut self, _: &mut (), _: ()) {}
    #[inline]
    fn end_dict(&mut self, _: (), _: Span) {}
    #[inline]
    fn begin_array(&mut self, _: usize, _: Option<usize>) {}
    #[inline]
    fn array_item(&mut self, _: &mut (), _: ()) {}
    #[inline]
    fn end_array(&mut self, _: (), _: Span) {}
}

/// Seconds from the Unix epoch to Apple's (midnight UTC at the start of 2001), from which
/// binary plist dates count.
const APPLE_EPOCH: i64 = 978_307_200;
/// Unix seconds of the first second of year 0.
const MIN_UNIX: i64 = -62_167_219_200;
/// Unix seconds of the last second of year 9999.
const MAX_UNIX: i64 = 253_402_300_799;

/// The Unix time (seconds, nanoseconds) of a date-time; a date-time without offset is
/// read as UTC. `None` without both a date and a time.
pub fn unix_time(datetime: &Datetime) -> Option<(i64, u32)> {
    let (date, time) = (datetime.date?, datetime.time?);
    let days = date.days_since_unix_epoch();
    let mut seconds = days * 86_400
        + i64::from(time.hour) * 3600
        + i64::from(time.minute) * 60
        + i64::from(time.second);
    if let Some(Offset::Minutes(m)) = datetime.offset {
        seconds -= i64::from(m) * 60;
    }
    Some((seconds, time.nanosecond))
}

/// The UTC date-time of a Unix time, if its year lies in 0000 ..= 9999.
pub fn datetime_from_unix(seconds: i64, nanosecond: u32) -> Option<Datetime> {
    if !(MIN_UNIX..=MAX_UNIX).contains(&seconds) || nanosecond >= 1_000_000_000 {
        return None;
    }
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    Some(Datetime {
        date: Some(Date::from_days_since_unix_epoch(days)?),
        time: Some(Time {
            hour: (secs / 3600) as u8,
            minute: (secs / 60 % 60) as u8,
            second: (secs % 60) as u8,
            nanosecond,
        }),
        offset: Some(Offset::Z),
    })
}

/// The UTC date-time of a binary plist date (seconds since Apple's epoch), to
/// the nearest nanosecond; `None` for NaN, infinities and years outside 0000 ..= 9999.
pub fn datetime_from_apple_seconds(seconds: f64) -> Option<Datetime> {
    if !seconds.is_finite() || seconds.abs() > 1e12 {
        return None;
    }
    let whole = seconds.floor();
    let mut nanos = ((seconds - whole) * 1e9).round() as u32;
    let mut whole = whole as i64;
    if nanos >= 1_000_000_000 {
        whole += 1;
        nanos = 0;
    }
    datetime_from_unix(whole + APPLE_EPOCH, nanos)
}

/// The binary plist seconds (since Apple's epoch) of a date-time (see [`unix_time`]).
pub fn apple_seconds(datetime: &Datetime) -> Option<f64> {
    let (seconds, nanos) = unix_time(datetime)?;
    Some((seconds - APPLE_EPOCH) as f64 + f64::from(nanos) / 1e9)
}

/// The same instant in UTC, if it is a date-time whose UTC year lies in 0000 ..= 9999.
pub fn to_utc(datetime: &Datetime) -> Option<Datetime> {
    let (seconds, nanos) = unix_time(datetime)?;
    datetime_from_unix(seconds, nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apple_seconds_convert_both_ways() {
        let d = datetime_from_apple_seconds(0.25).unwrap();
        assert_eq!(d.to_string(), "2001-01-01T00:00:00.25Z");
        assert_eq!(apple_seconds(&d), Some(0.25));
        let d = datetime_from_apple_seconds(-1.0).unwrap();
        assert_eq!(d.to_string(), "2000-12-31T23:59:59Z");
        assert!(datetime_from_apple_seconds(f64::NAN).is_none());
        assert!(datetime_from_apple_seconds(1e15).is_none());
    }
}
