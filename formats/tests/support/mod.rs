//! What the format tests share: building expected values, reading a document through
//! the direct path's calls, and counting allocations. Each test binary uses a part.
#![allow(dead_code)]

pub mod counting;

use std::borrow::Cow;

use quarry_raw_value::{Fallback, PullSource, RawValue, ValueKind};

/// A map of borrowed keys, in order.
pub fn map<'a>(entries: Vec<(&'a str, RawValue<'a>)>) -> RawValue<'a> {
    RawValue::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Cow::Borrowed(k), v))
            .collect(),
    )
}

/// A borrowed string.
pub fn s(text: &str) -> RawValue<'_> {
    RawValue::String(Cow::Borrowed(text))
}

/// Borrowed untyped text (XML, OpenStep).
pub fn t(text: &str) -> RawValue<'_> {
    RawValue::Text(Cow::Borrowed(text))
}

/// Reads one value through the direct path's calls (peek, then the matching read),
/// building the RawValue the other door would; what JSON has no kind for goes through
/// `read_raw`. With `skip_odd`, every other map entry is skipped instead.
pub fn pull<'a, S: PullSource<'a>>(
    source: &mut S,
    skip_odd: bool,
) -> Result<RawValue<'a>, Fallback> {
    Ok(match source.peek_token() {
        Err(Fallback) => source.read_raw()?,
        Ok(ValueKind::Null) => {
            source.read_null()?;
            RawValue::Null
        }
        Ok(ValueKind::Bool) => RawValue::Bool(source.read_bool()?),
        Ok(ValueKind::Number) => source.read_number()?,
        Ok(ValueKind::String) => RawValue::String(source.read_str()?.into_cow()),
        Ok(ValueKind::Array) => {
            source.begin_array()?;
            let mut items = Vec::new();
            let mut first = true;
            while source.next_item(first)? {
                first = false;
                items.push(pull(source, skip_odd)?);
            }
            RawValue::Seq(items)
        }
        Ok(ValueKind::Object) => {
            source.begin_object()?;
            let mut entries = Vec::new();
            let mut index = 0;
            while let Some(key) = source.next_key(index == 0)? {
                let key = key.into_cow();
                if skip_odd && index % 2 == 1 {
                    source.skip_value()?;
                } else {
                    entries.push((key, pull(source, skip_odd)?));
                }
                index += 1;
            }
            RawValue::Map(entries)
        }
    })
}

/// `value` without every other map entry, as `pull(.., true)` reads it.
pub fn without_odd_entries(value: RawValue<'_>) -> RawValue<'_> {
    match value {
        RawValue::Seq(items) => RawValue::Seq(items.into_iter().map(without_odd_entries).collect()),
        RawValue::Map(entries) => RawValue::Map(
            entries
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % 2 == 0)
                .map(|(_, (k, v))| (k, without_odd_entries(v)))
                .collect(),
        ),
        other => other,
    }
}

/// A writer that records each write: how many, the largest, and every byte.
#[derive(Default)]
pub struct Writes {
    pub calls: usize,
    pub largest: usize,
    pub bytes: Vec<u8>,
}

impl std::io::Write for Writes {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.calls += 1;
        self.largest = self.largest.max(buf.len());
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A map of many records under `key`, with strings, numbers, booleans and a nested
/// map each: well over a megabyte in every format.
pub fn many_records(key: &'static str) -> RawValue<'static> {
    let record = |i: i64| {
        map(vec![
            ("id", RawValue::Int(i)),
            (
                "name",
                RawValue::String(Cow::Owned(format!("record number {i}"))),
            ),
            ("ok", RawValue::Bool(i % 3 == 0)),
            ("ratio", RawValue::Float(i as f64 / 7.0)),
            (
                "place",
                map(vec![("x", RawValue::Int(i * 2)), ("y", RawValue::Int(-i))]),
            ),
        ])
    };
    map(vec![(
        key,
        RawValue::Seq((0..20_000).map(record).collect()),
    )])
}

/// `to_writer` handed its output over in several chunks of bounded size, never the
/// whole document at once, and the bytes are `expected`.
pub fn assert_written_in_chunks(writes: &Writes, expected: &[u8]) {
    assert!(expected.len() > 1 << 20, "{} bytes", expected.len());
    assert_eq!(writes.bytes, expected);
    assert!(writes.calls > 8, "{} writes", writes.calls);
    assert!(
        writes.largest < 1 << 18,
        "a write of {} bytes",
        writes.largest
    );
}
