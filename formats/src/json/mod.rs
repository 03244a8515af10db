//! JSON (RFC 8259), strict: exactly what JSONTestSuite demands; and JSONC, JSON with
//! comments, as a dialect of the same parser.
//!
//! One parser (`parser.rs`, driven through [`parse_with`]) generic over [`JsonBuilder`] serves both doors:
//! [`parse`] builds a [`RawValue`] for decoding into structs, [`parse_tree`] builds a
//! [`Document`] whose nodes carry their byte spans, and [`check`] validates with the
//! `()` builder, building nothing.
//!
//! ```
//! use quarry_formats::json;
//!
//! let value = json::parse(br#"{"name": "quarry", "tags": ["fast"]}"#).unwrap();
//! assert_eq!(value.get("name").and_then(|v| v.as_str()), Some("quarry"));
//! assert_eq!(json::to_string(&value).unwrap(), r#"{"name":"quarry","tags":["fast"]}"#);
//!
//! let err = json::parse(b"[1,\n 2,]").unwrap_err();
//! assert_eq!(err.to_string(), "expected a JSON value, found `]` at line 2, column 4");
//! ```
//!
//! JSONC is what VS Code, TypeScript (`tsconfig.json`) and dev containers read: `//`
//! line comments and `/* */` block comments wherever whitespace may stand, and one
//! trailing comma after the last item of an array or member of an object. It has one way
//! in per door, each named `jsonc`: [`parse_jsonc`], [`parse_tree_jsonc`] (whose
//! [`Document::comments`] keeps the comments), [`check_jsonc`], [`DirectSource::jsonc`]
//! and [`parse_jsonc_with`] for a builder of your own (and any limits); the facade's
//! `Format::Jsonc` reads through them. Strict JSON pays nothing for it: the dialect is a
//! compile-time parameter of the parser, and its rules sit only where strict JSON fails
//! (a `/` where whitespace may be, a `]` or `}` after a comma).
//!
//! ```
//! use quarry_formats::json;
//!
//! let src = b"{\n  // the port\n  \"port\": 80, /* http */\n}";
//! let value = json::parse_jsonc(src).unwrap();
//! assert_eq!(value.get("port"), Some(&quarry_formats::RawValue::Int(80)));
//! assert!(json::parse(src).is_err());
//!
//! let err = json::parse_jsonc(b"[1,\n /* not closed ]").unwrap_err();
//! assert_eq!(err.to_string(), "unterminated block comment at line 2, column 2");
//! ```
//!
//! What is preserved and what is not: object member order and duplicate keys are kept
//! (the decoder decides); integers are `i64`/`u64` when they fit and kept as text
//! beyond; floats are correctly rounded, and a float beyond `f64`'s range keeps its
//! text; `-0` reads as the float `-0.0`. A leading UTF-8 byte order mark is skipped.
//! Whitespace, the exact spelling of numbers and escapes, and (outside the tree) JSONC
//! comments are not kept (the tree keeps spans, so the source text of any node is at
//! hand).

mod builder;
mod direct;
mod error;
mod lexer;
mod parser;
mod raw;
mod tree;
mod writer;

use quarry_raw_value::{Encode, EncodeError, RawValue};

pub use builder::JsonBuilder;
pub use direct::DirectSource;
pub use error::{Error, ErrorKind};
pub use lexer::{Number, NumberToken};
use parser::parse_with_dialect;
pub use parser::{parse_stream_with, parse_with};
pub use raw::RawValueBuilder;
pub use tree::{Document, Node, NodeKind, TreeBuilder, TreeKey};
pub use writer::JsonWriter;

use crate::common::Limits;

/// Which JSON a parser reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) enum Dialect {
    /// Strict JSON (RFC 8259), the default.
    #[default]
    Json,
    /// JSON with comments: `//` and `/* */` comments wherever whitespace may be, and a
    /// trailing comma in arrays and objects (`[1, 2,]`, `{"a": 1,}`; not `[,]` or
    /// `[1,,2]`).
    Jsonc,
}

/// Parses a JSON document into a [`RawValue`] (the struct door), with default limits.
pub fn parse(input: &[u8]) -> Result<RawValue<'_>, Error> {
    parse_with(input, &mut RawValueBuilder::default(), Limits::default())
}

/// Parses a JSON document into a [`RawValue`] under `limits`.
pub fn parse_with_limits(input: &[u8], limits: Limits) -> Result<RawValue<'_>, Error> {
    parse_with(input, &mut RawValueBuilder::default(), limits)
}

/// Parses a JSON document into a [`Document`] tree (the tree door), with default limits.
pub fn parse_tree(input: &[u8]) -> Result<Document<'_>, Error> {
    parse_tree_with_limits(input, Limits::default())
}

/// Parses a JSON document into a [`Document`] tree under `limits`.
pub fn parse_tree_with_limits(input: &[u8], limits: Limits) -> Result<Document<'_>, Error> {
    parse_tree_with_dialect(input, limits, Dialect::Json)
}

/// Parses a document of `dialect` into a [`Document`] tree under `limits`.
fn parse_tree_with_dialect(
    input: &[u8],
    limits: Limits,
    dialect: Dialect,
) -> Result<Document<'_>, Error> {
    // The tree keeps offsets in 32 bits.
    let limits = Limits {
        max_document_size: limits.max_document_size.min(u32::MAX as usize - 1),
        ..limits
    };
    parse_tree_dispatched(input, limits, dialect, true)
}

/// [`parse_tree_with_dialect`]'s parse, by the variant compiled for x86-64-v3 where the
/// CPU has it (and `wide` allows it; the tests run both), else by the baseline one.
#[inline(always)]
fn parse_tree_dispatched(
    input: &[u8],
    limits: Limits,
    dialect: Dialect,
    wide: bool,
) -> Result<Document<'_>, Error> {
    #[cfg(target_arch = "x86_64")]
    if wide && crate::common::has_x86_64_v3() {
        // SAFETY: the CPU has every feature `parse_tree_x86_64_v3` is compiled for
        // (`has_x86_64_v3` detected them at run time just above).
        #[allow(unsafe_code)]
        return unsafe { parse_tree_x86_64_v3(input, limits, dialect) };
    }
    let _ = wide;
    parse_tree_here(input, limits, dialect)
}

/// The tree's parse, inlined into each variant: the whole parse loop (always inlined
/// into `parse_source`) is compiled once for each instruction set.
#[inline(always)]
fn parse_tree_here(input: &[u8], limits: Limits, dialect: Dialect) -> Result<Document<'_>, Error> {
    let mut builder = TreeBuilder::for_input(input);
    let (_root, src) = parser::parse_source(input, &mut builder, limits, dialect)?;
    Ok(builder.finish(src))
}

/// [`parse_tree_here`] compiled for x86-64-v3: a portable build reads a tree with the
/// instructions a build for the host would use (BMI's bit scans and shifts, AVX2 in the
/// builder's copies), not baseline x86-64's alone.
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
#[inline(never)]
unsafe fn parse_tree_x86_64_v3(
    input: &[u8],
    limits: Limits,
    dialect: Dialect,
) -> Result<Document<'_>, Error> {
    parse_tree_here(input, limits, dialect)
}

/// Checks that `input` is one well-formed JSON document, building nothing.
pub fn check(input: &[u8]) -> Result<(), Error> {
    parse_with(input, &mut (), Limits::default())
}

/// [`check`] under `limits`.
pub fn check_with_limits(input: &[u8], limits: Limits) -> Result<(), Error> {
    parse_with(input, &mut (), limits)
}

/// Parses a JSONC document (JSON with comments and trailing commas) into a [`RawValue`],
/// with default limits: the value [`parse`] gives for the same document with its
/// comments and trailing commas taken out.
pub fn parse_jsonc(input: &[u8]) -> Result<RawValue<'_>, Error> {
    parse_with_dialect(
        input,
        &mut RawValueBuilder::default(),
        Limits::default(),
        Dialect::Jsonc,
    )
}

/// Parses a JSONC document into a [`Document`] tree, with default limits; the tree keeps
/// the comments ([`Document::comments`]).
pub fn parse_tree_jsonc(input: &[u8]) -> Result<Document<'_>, Error> {
    parse_tree_with_dialect(input, Limits::default(), Dialect::Jsonc)
}

/// Checks that `input` is one well-formed JSONC document, building nothing.
pub fn check_jsonc(input: &[u8]) -> Result<(), Error> {
    parse_with_dialect(input, &mut (), Limits::default(), Dialect::Jsonc)
}

/// Parses a whole JSONC document into `builder` under `limits` (what [`parse_with`] is
/// for strict JSON). A builder that [wants comments](JsonBuilder::WANTS_COMMENTS) is
/// handed every comment, in source order, once the document has ended.
///
/// ```
/// use quarry_formats::{json, Limits};
///
/// let limits = Limits::default().with_max_depth(1);
/// let mut builder = json::RawValueBuilder::default();
/// assert!(json::parse_jsonc_with(b"[1, /* two */ 2,]", &mut builder, limits).is_ok());
/// assert!(json::parse_jsonc_with(b"[[1]]", &mut (), limits).is_err());
/// ```
pub fn parse_jsonc_with<'a, B: JsonBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<B::Value, Error> {
    parse_with_dialect(input, builder, limits, Dialect::Jsonc)
}

/// Encodes `value` as compact JSON.
pub fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(128);
    value.encode(&mut JsonWriter::compact(&mut out))?;
    Ok(out)
}

/// Encodes `value` as JSON indented by two spaces.
pub fn to_vec_pretty<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(128);
    value.encode(&mut JsonWriter::pretty(&mut out))?;
    Ok(out)
}

/// Encodes `value` as a compact JSON string.
pub fn to_string<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    to_vec(value).map(crate::common::utf8_output)
}

/// Encodes `value` as an indented JSON string.
pub fn to_string_pretty<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    to_vec_pretty(value).map(crate::common::utf8_output)
}

/// Encodes `value` as compact JSON into `writer`, in chunks of about 64 KiB: the whole
/// output is never held in memory.
pub fn to_writer<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    let mut out = Vec::with_capacity(4096);
    let mut encoder = JsonWriter::compact(&mut out).spilling_into(&mut writer);
    value.encode(&mut encoder)?;
    encoder.finish()
}

/// Encodes `value` as indented JSON into `writer` (in chunks, as [`to_writer`]).
pub fn to_writer_pretty<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    let mut out = Vec::with_capacity(4096);
    let mut encoder = JsonWriter::pretty(&mut out).spilling_into(&mut writer);
    value.encode(&mut encoder)?;
    encoder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree (or the error) a parse gives, as text that compares every node.
    fn outcome(input: &[u8], dialect: Dialect, wide: bool) -> String {
        match parse_tree_dispatched(input, Limits::default(), dialect, wide) {
            Ok(doc) => format!(
                "{doc:?} {:?}",
                doc.descendants()
                    .map(|n| (n.span(), n.key()))
                    .collect::<Vec<_>>()
            ),
            Err(e) => format!("error: {e}"),
        }
    }

    /// The variant compiled for x86-64-v3 (where this CPU has it) and the baseline one
    /// read every conformance case and corpus file alike, in both dialects.
    #[test]
    fn every_variant_of_the_tree_parse_agrees() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        let mut files = Vec::new();
        for dir in ["suites/json/test_parsing", "corpus/json"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                files.push(entry.unwrap().path());
            }
        }
        assert!(files.len() > 300, "{}", files.len());
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            for dialect in [Dialect::Json, Dialect::Jsonc] {
                assert_eq!(
                    outcome(&bytes, dialect, true),
                    outcome(&bytes, dialect, false),
                    "{}",
                    path.display()
                );
            }
        }
    }
}
