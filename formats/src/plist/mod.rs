//! Apple property lists in all three forms — XML, binary `bplist00` and OpenStep text
//! (as in Xcode's `.pbxproj`) — through both doors, with writers for each.
//!
//! One builder trait, [`PlistBuilder`], in plist's own vocabulary (dict, array, string,
//! integer up to unsigned 64-bit, real, bool, date, data, UID) is fed by three readers:
//! the XML reader (an adapter over quarry's one XML parser, checking the plist DTD's
//! structure), the binary reader (every offset, count, width and reference validated;
//! cycles rejected; never an allocation sized by an untrusted count) and the OpenStep
//! reader. [`parse`] detects the form from the bytes ([`detect`]) and builds a
//! [`RawValue`] (the struct door); [`parse_tree`] builds a typed [`Document`] with spans
//! (the tree door); [`check`] validates with the `()` builder.
//!
//! ```
//! use quarry_formats::plist::{self, PlistFormat};
//! use quarry_formats::RawValue;
//!
//! let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
//! <plist version="1.0"><dict>
//!     <key>CFBundleName</key><string>Quarry</string>
//!     <key>LSMinimumSystemVersion</key><integer>13</integer>
//! </dict></plist>"#;
//! let value = plist::parse(xml).unwrap();
//! assert_eq!(value.get("CFBundleName").and_then(|v| v.as_str()), Some("Quarry"));
//! assert_eq!(value.get("LSMinimumSystemVersion"), Some(&RawValue::Int(13)));
//!
//! // Any form writes and reads back to the same value.
//! let binary = plist::to_vec_binary(&value).unwrap();
//! assert_eq!(plist::detect(&binary), PlistFormat::Binary);
//! assert_eq!(plist::parse(&binary).unwrap(), value);
//!
//! let err = plist::parse(b"<plist><dict><string>x</string></dict></plist>").unwrap_err();
//! assert_eq!(err.to_string(), "dict value without a `key` at line 1, column 14");
//! ```
//!
//! # What each door keeps
//!
//! The [`RawValue`] door: dicts are maps in document order, arrays sequences, strings
//! [`RawValue::String`] borrowed from the input when nothing was decoded (binary ASCII
//! strings always; UTF-16 strings are decoded), integers [`RawValue::Int`] (or
//! [`RawValue::UInt`] above `i64::MAX`), reals floats, dates [`RawValue::Datetime`] in
//! UTC (binary dates are seconds since Apple's epoch, the start of 2001, rounded to the
//! nanosecond), data
//! [`RawValue::Bytes`] (borrowed from binary plists), and a UID `n` the map
//! `{"CF$UID": n}`, as `plistlib` and keyed archives spell it. OpenStep has only
//! strings, data, arrays and dicts; its strings are untyped [`RawValue::Text`], so a
//! struct field `u32` decodes from `buildActionMask = 2147483647;`.
//!
//! The tree door keeps every value's plist type (UIDs included) and its span: the
//! value's text for XML and OpenStep, the object's bytes for binary plists. Comments,
//! processing instructions, the DOCTYPE and white space are not kept. A binary object
//! shared by several containers appears once per reference in both doors.
//!
//! Binary plists also have a direct struct path: [`DirectSource`] hands objects to a
//! derived type's `decode_direct` as it asks for them, with no [`RawValue`] in between
//! (the facade's `from_slice` takes it first). It reads with the same checks, limits
//! and work budget; anything it does not handle falls back to the RawValue path.
//!
//! # Writing
//!
//! [`to_vec_xml`], [`to_vec_binary`] and [`to_vec_openstep`] write any [`Encode`]
//! value; `parse(write(v)) == v` for every value the form can hold. A null is an error
//! naming its path ([`to_vec_with_nulls`] and [`NullEntries::Skip`] leave out null dict
//! entries instead, as the `plist` crate does for `None` fields). A date-time with an
//! offset is written as a plist date (in UTC); a local date-time, date or time, which is
//! no instant, as its RFC 3339 string. Binary dates are f64 seconds, so sub-second
//! precision is kept as far as an f64 holds it (about a microsecond today, 30 µs near
//! the year 9999). In binary plists the map `{"CF$UID": n}` is written as a UID.
//!
//! Positions: errors carry the byte offset (for binary plists, of the offending object,
//! reference or trailer field) with its line and column; for UTF-16 XML the offset is in
//! the document transcoded to UTF-8.

mod binary;
mod builder;
mod direct;
mod error;
mod openstep;
mod raw;
mod tree;
mod writer;
mod xml;

use quarry_raw_value::{Encode, EncodeError, RawValue};

pub use binary::parse_binary_with;
pub use builder::{
    datetime_from_apple_seconds, datetime_from_unix, unix_time, Integer, PlistBuilder,
};
pub use direct::DirectSource;
pub use error::{Error, ErrorKind};
pub use openstep::parse_openstep_with;
pub use raw::{RawValueBuilder, UID_KEY};
pub use tree::{Document, Node, NodeKind, TreeBuilder};
pub use writer::{
    write_binary, write_binary_with_nulls, write_openstep_string, BinaryWriter, OpenStepWriter,
    XmlPlistWriter,
};
pub use xml::parse_xml_with;

use crate::common::{Limits, NullEntries, Sink};

/// The three forms of a property list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlistFormat {
    /// XML (`<?xml ...?><plist version="1.0">`).
    Xml,
    /// Binary (`bplist00`).
    Binary,
    /// OpenStep / ASCII text (`{ key = value; }`).
    OpenStep,
}

/// The form of `input`, from its first bytes: `bplist` is binary; a UTF-16 byte order
/// mark, or (after a UTF-8 one and white space) `<?`, `<!` or a `<` that does not open
/// OpenStep hex data (`<0fbd 77>`) is XML; anything else is OpenStep (whose reader then
/// rejects what it cannot read, the empty input included).
pub fn detect(input: &[u8]) -> PlistFormat {
    if input.starts_with(b"bplist") {
        return PlistFormat::Binary;
    }
    if input.starts_with(&[0xFE, 0xFF]) || input.starts_with(&[0xFF, 0xFE]) {
        return PlistFormat::Xml;
    }
    let body = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let start = body
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .unwrap_or(body.len());
    let body = &body[start..];
    match body {
        [b'<', b'?' | b'!', ..] => PlistFormat::Xml,
        // `<0fbd 77>` is OpenStep data; `<plist>`, `<dict>` are XML.
        [b'<', rest @ ..] => {
            let end = rest
                .iter()
                .position(|b| !b.is_ascii_hexdigit() && !b.is_ascii_whitespace());
            match end.map(|i| rest[i]) {
                Some(b'>') => PlistFormat::OpenStep,
                _ => PlistFormat::Xml,
            }
        }
        _ => PlistFormat::OpenStep,
    }
}

/// Reads `input` in the form [`detect`] finds into `builder` under `limits`, and returns
/// the top value.
pub fn parse_with<'a, B: PlistBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<B::Value, Error> {
    match detect(input) {
        PlistFormat::Xml => parse_xml_with(input, builder, limits),
        PlistFormat::Binary => parse_binary_with(input, builder, limits),
        PlistFormat::OpenStep => parse_openstep_with(input, builder, limits),
    }
}

/// Parses a property list of any form into a [`RawValue`] (the struct door), with
/// default limits.
pub fn parse(input: &[u8]) -> Result<RawValue<'_>, Error> {
    parse_with_limits(input, Limits::default())
}

/// Parses a property list of any form into a [`RawValue`] under `limits`.
pub fn parse_with_limits(input: &[u8], limits: Limits) -> Result<RawValue<'_>, Error> {
    match detect(input) {
        PlistFormat::Xml => parse_xml_with(input, &mut RawValueBuilder::default(), limits),
        PlistFormat::Binary => parse_binary_with(input, &mut RawValueBuilder::default(), limits),
        PlistFormat::OpenStep => {
            parse_openstep_with(input, &mut RawValueBuilder::untyped(), limits)
        }
    }
}

/// Parses a property list of any form into a [`Document`] (the tree door), with
/// default limits.
pub fn parse_tree(input: &[u8]) -> Result<Document<'_>, Error> {
    parse_tree_with_limits(input, Limits::default())
}

/// Parses a property list of any form into a [`Document`] under `limits`.
pub fn parse_tree_with_limits(input: &[u8], limits: Limits) -> Result<Document<'_>, Error> {
    let format = detect(input);
    let mut builder = TreeBuilder::default();
    let root = parse_with(input, &mut builder, limits)?;
    Ok(builder.finish(root, format))
}

/// Checks that `input` is a valid property list of any form, building nothing.
pub fn check(input: &[u8]) -> Result<(), Error> {
    check_with_limits(input, Limits::default())
}

/// Checks `input` under `limits`, building nothing.
pub fn check_with_limits(input: &[u8], limits: Limits) -> Result<(), Error> {
    parse_with(input, &mut (), limits)
}

/// Encodes `value` as an XML property list (Apple's layout: declaration, DOCTYPE,
/// `<plist version="1.0">`, tab indentation).
///
/// Reals are written in their shortest round-trip form (`nan`, `+infinity`,
/// `-infinity`); dates as `YYYY-MM-DDTHH:MM:SSZ` (with a fraction when it is not zero);
/// data as base64. Text XML 1.0 cannot carry (control characters other than tab, LF and
/// CR; U+FFFE, U+FFFF) is an error; CR is written as `&#13;` so it survives.
pub fn to_vec_xml<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(256);
    let mut writer = XmlPlistWriter::new(&mut out);
    value.encode(&mut writer)?;
    writer.finish()?;
    Ok(out)
}

/// Encodes `value` as a property list in its XML form, the one Apple's tools write by
/// default and people read (see [`to_vec_xml`]; [`to_vec_binary`] for `bplist00`).
pub fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    to_vec_xml(value)
}

/// Encodes `value` as a property list string in its XML form (see [`to_vec`]).
pub fn to_string<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    to_string_xml(value)
}

/// Encodes `value` as an XML property list string (see [`to_vec_xml`]).
pub fn to_string_xml<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    // The writer emits UTF-8 only: text comes from `&str`, the rest is ASCII.
    to_vec_xml(value).map(crate::common::utf8_output)
}

/// Encodes `value` as a binary property list (`bplist00`): equal scalars written once,
/// minimal reference and offset widths. See [`write_binary`].
pub fn to_vec_binary<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    to_vec_with_nulls(value, PlistFormat::Binary, NullEntries::Reject)
}

/// Encodes `value` as an OpenStep property list (see [`OpenStepWriter`]): numbers,
/// booleans and dates are written as text, which reads back as untyped text.
pub fn to_vec_openstep<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(256);
    let mut writer = OpenStepWriter::new(&mut out);
    value.encode(&mut writer)?;
    writer.finish()?;
    Ok(out)
}

/// Encodes `value` as an OpenStep property list string (see [`to_vec_openstep`]).
pub fn to_string_openstep<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    to_vec_openstep(value).map(crate::common::utf8_output)
}

/// Encodes `value` in `format`, with null dict entries handled as `nulls` says
/// ([`NullEntries::Skip`] leaves out `None` fields, as the `plist` crate does).
pub fn to_vec_with_nulls<T: Encode + ?Sized>(
    value: &T,
    format: PlistFormat,
    nulls: NullEntries,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(256);
    match format {
        PlistFormat::Xml => {
            let mut writer = XmlPlistWriter::with_nulls(&mut out, nulls);
            value.encode(&mut writer)?;
            writer.finish()?;
        }
        PlistFormat::Binary => {
            let mut writer = BinaryWriter::with_nulls(&mut out, nulls);
            value.encode(&mut writer)?;
            writer.finish()?;
        }
        PlistFormat::OpenStep => {
            let mut writer = OpenStepWriter::with_nulls(&mut out, nulls);
            value.encode(&mut writer)?;
            writer.finish()?;
        }
    }
    Ok(out)
}

/// Encodes `value` in `format` into `writer` (null dict entries are errors). XML and
/// binary plists go out in chunks as the output grows, so the whole output is never
/// held; a [`RawValue`] is written in place.
pub fn to_writer<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
    format: PlistFormat,
) -> Result<(), EncodeError> {
    let mut out = Vec::with_capacity(crate::common::CHUNK + 4096);
    match format {
        PlistFormat::Xml => {
            let mut writer =
                XmlPlistWriter::with_sink(&mut out, NullEntries::Reject, Sink::to(&mut writer));
            value.encode(&mut writer)?;
            writer.finish()
        }
        PlistFormat::Binary => {
            let mut writer =
                BinaryWriter::with_sink(&mut out, NullEntries::Reject, Sink::to(&mut writer));
            value.encode(&mut writer)?;
            writer.finish()
        }
        PlistFormat::OpenStep => {
            writer.write_all(&to_vec_with_nulls(value, format, NullEntries::Reject)?)?;
            Ok(())
        }
    }
}
