//! TOML 1.0.0, exactly: every rule of the specification, checked with positions.
//!
//! One parser (`parser.rs`, driven through [`parse_with`]) generic over [`TomlBuilder`] serves both doors: [`parse`]
//! builds a [`RawValue`] for decoding into structs, [`parse_tree`] builds a
//! [`Document`] that keeps table kinds, string kinds, comments and spans, and [`check`]
//! validates with the `()` builder, building nothing.
//!
//! ```
//! use quarry_formats::toml;
//!
//! let value = toml::parse(b"[server]\nhost = \"example.org\"\nports = [80, 443]\n").unwrap();
//! let server = value.get("server").unwrap();
//! assert_eq!(server.get("host").and_then(|v| v.as_str()), Some("example.org"));
//!
//! let err = toml::parse(b"a = 1\na = 2\n").unwrap_err();
//! assert_eq!(err.to_string(), "duplicate key `a` at line 2, column 1");
//! ```
//!
//! In the [`RawValue`] door tables are maps in document order (the order each key first
//! appeared in its table), arrays of tables are sequences of maps, integers are
//! [`RawValue::Int`] and the four datetime kinds are [`RawValue::Datetime`] (decodable
//! into [`Datetime`](quarry_raw_value::Datetime) and into `String` as RFC 3339 text).
//! A leading UTF-8 byte order mark is skipped; CRLF in multi-line strings reads as LF.

mod builder;
mod direct;
mod error;
mod lexer;
mod parser;
mod raw;
mod tree;
mod writer;

use quarry_raw_value::{raw_value_of, Encode, EncodeError, RawValue};

pub use builder::{Key, StringKind, TableId, TableKind, TomlBuilder, ROOT};
pub use direct::DirectSource;
pub use error::{Error, ErrorKind};
pub use parser::parse_with;
use parser::Parser;
pub use raw::RawValueBuilder;
pub use tree::{Document, Node, NodeKind, TreeBuilder};
pub use writer::write_document;
/// For `quarry::edit`, which writes values into an existing document.
#[doc(hidden)]
pub use writer::{inline_value, key_text};

use crate::common::{Limits, NullEntries};

/// Parses a TOML document into a [`RawValue`] map (the struct door), with default limits.
pub fn parse(input: &[u8]) -> Result<RawValue<'_>, Error> {
    parse_with_limits(input, Limits::default())
}

/// Parses a TOML document into a [`RawValue`] map under `limits`.
pub fn parse_with_limits(input: &[u8], limits: Limits) -> Result<RawValue<'_>, Error> {
    let mut builder = RawValueBuilder::default();
    parse_with(input, &mut builder, limits)?;
    Ok(builder.finish())
}

/// Checks that `input` is one valid TOML document, building nothing.
pub fn check(input: &[u8]) -> Result<(), Error> {
    parse_with(input, &mut (), Limits::default())
}

/// [`check`] under `limits`.
pub fn check_with_limits(input: &[u8], limits: Limits) -> Result<(), Error> {
    parse_with(input, &mut (), limits)
}

/// Parses a TOML document into a [`Document`] tree (the tree door), with default limits.
pub fn parse_tree(input: &[u8]) -> Result<Document<'_>, Error> {
    parse_tree_with_limits(input, Limits::default())
}

/// Parses a TOML document into a [`Document`] tree under `limits`.
pub fn parse_tree_with_limits(input: &[u8], limits: Limits) -> Result<Document<'_>, Error> {
    // The tree keeps offsets in 32 bits.
    let limits = Limits {
        max_document_size: limits.max_document_size.min(u32::MAX as usize - 1),
        ..limits
    };
    let mut parser = Parser::new(input, limits)?;
    let mut builder = TreeBuilder::default();
    parser.parse(&mut builder)?;
    Ok(builder.finish(parser.src()))
}

/// Encodes `value` as a TOML document. The value must encode as a map; what TOML
/// cannot hold — a null anywhere, an integer beyond `i64`, a top-level non-table — is an
/// error naming its path (for structs with `None` fields, [`to_vec_with_nulls`] and
/// [`NullEntries::Skip`] leave them out, as the `toml` crate does). Bytes become base64
/// strings.
pub fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    to_vec_with_nulls(value, NullEntries::Reject)
}

/// Encodes `value` as a TOML document, with null map entries handled as `nulls` says
/// ([`NullEntries::Reject`] makes every null an error naming its path).
pub fn to_vec_with_nulls<T: Encode + ?Sized>(
    value: &T,
    nulls: NullEntries,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(256);
    write_document(&*raw_value_of(value)?, nulls, &mut out)?;
    Ok(out)
}

/// Encodes `value` as a TOML document string (see [`to_vec`]).
pub fn to_string<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    to_vec(value).map(crate::common::utf8_output)
}

/// Encodes `value` as a TOML document into `writer` (see [`to_vec`]), in chunks as the
/// output grows: the whole document is never held. A [`RawValue`] is written in place.
pub fn to_writer<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    let raw = raw_value_of(value)?;
    let mut out = Vec::with_capacity(crate::common::CHUNK + 4096);
    let mut sink = crate::common::Sink::to(&mut writer);
    writer::write_document_to(&raw, NullEntries::Reject, &mut out, &mut sink)?;
    sink.finish(&mut out)
}
