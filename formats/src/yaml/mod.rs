//! YAML 1.2: one scanner and parser, generic over [`YamlBuilder`], serving both doors.
//!
//! [`parse`] builds a [`RawValue`] (the struct door) under the YAML 1.2 core schema,
//! with aliases resolved and merge keys applied; [`parse_tree`] builds a [`Stream`]
//! of [`Document`]s whose nodes keep their tag, anchor, style and span, with aliases
//! kept as aliases and comments kept; [`check`] validates with the `()` builder. A
//! builder of your own implements [`YamlBuilder`] and runs through [`parse_with`].
//! [`DirectSource`] steps the same parser for derived types (`quarry::from_slice`),
//! falling back to [`parse`] for aliases, anchors, tags, merge keys and errors.
//! [`to_vec`] and friends write block style, [`to_vec_flow`] flow style, and
//! [`to_vec_stream`] a stream of documents separated by `---`.
//!
//! ```
//! use quarry_formats::{yaml, TreeNode};
//!
//! let src = b"defaults: &defaults {retries: 3}\nweb:\n  <<: *defaults\n  ports: [80, 443] # public\n";
//! let value = yaml::parse(src).unwrap();
//! assert_eq!(value.get("web").and_then(|w| w.get("retries")), Some(&quarry_formats::RawValue::Int(3)));
//! assert_eq!(
//!     yaml::to_string(&value).unwrap(),
//!     "defaults:\n  retries: 3\nweb:\n  retries: 3\n  ports:\n    - 80\n    - 443\n"
//! );
//!
//! let stream = yaml::parse_tree(src).unwrap();
//! let ports = stream.document(0).unwrap().root().lookup_str("web.ports").unwrap();
//! assert_eq!(ports.collection_style(), Some(yaml::CollectionStyle::Flow));
//! assert_eq!(ports.span().slice(stream.source()), "[80, 443]");
//! assert_eq!(stream.comments().next().map(|c| c.text), Some(" public"));
//!
//! let err = yaml::parse(b"a: b: c").unwrap_err();
//! assert_eq!(err.to_string(), "mapping values are not allowed here at line 1, column 5");
//! ```
//!
//! What is preserved, dropped or normalised:
//!
//! - Both doors: mapping order and duplicate keys are kept (the decoder decides);
//!   scalars are borrowed from the input unless folding or escapes changed them; a
//!   byte order mark is skipped.
//! - The RawValue path: plain scalars are typed by the core schema (see
//!   [`RawValueBuilder`]); map keys are strings (a scalar key keeps its source text, a
//!   collection key is [`ErrorKind::ComplexKey`]); aliases are resolved by cloning the
//!   anchored value, within [`Limits::max_alias_expansion`](crate::Limits) nodes;
//!   merge keys are applied unless [`Options::merge_keys`] is off; comments, styles,
//!   tags other than the core ones, anchors and directives are dropped.
//! - The tree door keeps all of that: every node's tag, anchor, style and span, aliases
//!   as alias nodes ([`Node::resolve`] finds their anchor), comments with their spans,
//!   each document's `%YAML` version and explicit `---`/`...` markers.
//! - Streams: [`parse`] takes the only document (an empty stream is null, several are
//!   [`ErrorKind::MultipleDocuments`]); [`parse_stream`] and the tree return them all.
//! - Limits ([`Limits`]): nesting depth (flow and block), alias
//!   expansion (checked by the parser, so every door rejects a billion laughs) and
//!   document size are named errors. The parser keeps its state on heap stacks: no
//!   input can overflow the thread's stack.

mod builder;
mod direct;
mod error;
mod parser;
mod raw;
mod scanner;
mod tree;
mod writer;

use quarry_raw_value::{Encode, EncodeError, RawValue};

pub use builder::{
    CollectionStyle, DocumentStart, Props, ScalarStyle, Tag, YamlBuilder, CORE_PREFIX,
};
pub use direct::DirectSource;
pub use error::{Error, ErrorKind};
pub use parser::parse_with;
use parser::Parser;
pub use raw::{resolve_scalar, RawValueBuilder};
pub use tree::{Document, Node, NodeKind, Stream, TreeBuilder};
pub use writer::YamlWriter;

use crate::common::Limits;

/// How the RawValue path reads YAML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Apply merge keys `<<` (default true).
    pub merge_keys: bool,
    /// Resource limits.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            merge_keys: true,
            limits: Limits::default(),
        }
    }
}

impl Options {
    /// The defaults with merge keys on or off.
    pub fn with_merge_keys(mut self, on: bool) -> Self {
        self.merge_keys = on;
        self
    }

    /// The defaults with other limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// Parses a YAML stream of at most one document into a [`RawValue`] (the struct door),
/// with default options. An empty stream is [`RawValue::Null`]; several documents are
/// [`ErrorKind::MultipleDocuments`] (use [`parse_stream`]).
pub fn parse(input: &[u8]) -> Result<RawValue<'_>, Error> {
    parse_with_options(input, &Options::default())
}

/// [`parse`] under `options`.
pub fn parse_with_options<'a>(input: &'a [u8], options: &Options) -> Result<RawValue<'a>, Error> {
    let mut builder = RawValueBuilder::single_document(options);
    parse_with(input, &mut builder, options.limits)?;
    Ok(builder.into_documents().pop().unwrap_or_default())
}

/// [`parse`] under `limits`.
pub fn parse_with_limits(input: &[u8], limits: Limits) -> Result<RawValue<'_>, Error> {
    parse_with_options(input, &Options::default().with_limits(limits))
}

/// Parses every document of a YAML stream into a [`RawValue`], with default options.
pub fn parse_stream(input: &[u8]) -> Result<Vec<RawValue<'_>>, Error> {
    parse_stream_with_options(input, &Options::default())
}

/// [`parse_stream`] under `options`.
pub fn parse_stream_with_options<'a>(
    input: &'a [u8],
    options: &Options,
) -> Result<Vec<RawValue<'a>>, Error> {
    let mut builder = RawValueBuilder::new(options);
    parse_with(input, &mut builder, options.limits)?;
    Ok(builder.into_documents())
}

/// Reads a stream one document at a time: each document's value is handed to `each`
/// as soon as the document ends and dropped after, so a long stream is never held
/// whole. `each` returns false to be handed nothing more (the rest of the stream is
/// still read for its errors). Documents before a syntax error have been handed over
/// when the error is returned.
pub fn parse_stream_each<'a>(
    input: &'a [u8],
    options: &Options,
    each: impl FnMut(RawValue<'a>) -> bool,
) -> Result<(), Error> {
    let mut builder = raw::EachDocument {
        inner: RawValueBuilder::new(options),
        each,
        stopped: false,
    };
    parse_with(input, &mut builder, options.limits)
}

/// Checks that `input` is a well-formed YAML stream, building nothing.
pub fn check(input: &[u8]) -> Result<(), Error> {
    parse_with(input, &mut (), Limits::default())
}

/// [`check`] under `limits`.
pub fn check_with_limits(input: &[u8], limits: Limits) -> Result<(), Error> {
    parse_with(input, &mut (), limits)
}

/// Parses a YAML stream into a [`Stream`] tree (the tree door), with default limits.
pub fn parse_tree(input: &[u8]) -> Result<Stream<'_>, Error> {
    parse_tree_with_limits(input, Limits::default())
}

/// [`parse_tree`] under `limits`.
pub fn parse_tree_with_limits(input: &[u8], limits: Limits) -> Result<Stream<'_>, Error> {
    let mut parser = Parser::new(input, limits, true)?;
    let mut builder = TreeBuilder::with_capacity(input.len() / 8 + 1);
    parser.run(&mut builder)?;
    Ok(builder.finish(parser.src()))
}

/// Encodes `value` as a block-style YAML document (ending in a newline).
pub fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(128);
    value.encode(&mut YamlWriter::block(&mut out))?;
    Ok(out)
}

/// Encodes `value` as a flow-style YAML document (`{a: 1, b: [x, y]}`).
pub fn to_vec_flow<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(128);
    value.encode(&mut YamlWriter::flow(&mut out))?;
    Ok(out)
}

/// Encodes each of `documents` as a block-style document of one stream, separated by `---`.
pub fn to_vec_stream<T: Encode>(documents: &[T]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(128);
    for (i, doc) in documents.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"---\n");
        }
        doc.encode(&mut YamlWriter::block(&mut out))?;
    }
    Ok(out)
}

/// Encodes `value` as a block-style YAML string.
pub fn to_string<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    to_vec(value).map(crate::common::utf8_output)
}

/// Encodes `value` as a flow-style YAML string.
pub fn to_string_flow<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    to_vec_flow(value).map(crate::common::utf8_output)
}

/// Encodes `documents` as one YAML stream string (see [`to_vec_stream`]).
pub fn to_string_stream<T: Encode>(documents: &[T]) -> Result<String, EncodeError> {
    to_vec_stream(documents).map(crate::common::utf8_output)
}

/// Encodes `value` as a block-style YAML document into `writer`, in chunks of about
/// 64 KiB: the whole output is never held in memory.
pub fn to_writer<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    let mut out = Vec::with_capacity(4096);
    let mut encoder = YamlWriter::block(&mut out).spilling_into(&mut writer);
    value.encode(&mut encoder)?;
    encoder.finish()
}

/// Encodes `value` as a flow-style YAML document into `writer` (in chunks, as
/// [`to_writer`]).
pub fn to_writer_flow<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    let mut out = Vec::with_capacity(4096);
    let mut encoder = YamlWriter::flow(&mut out).spilling_into(&mut writer);
    value.encode(&mut encoder)?;
    encoder.finish()
}

/// Encodes `documents` as one YAML stream into `writer`, separated by `---` (in chunks,
/// as [`to_writer`]).
pub fn to_writer_stream<W: std::io::Write, T: Encode>(
    mut writer: W,
    documents: &[T],
) -> Result<(), EncodeError> {
    for (i, doc) in documents.iter().enumerate() {
        if i > 0 {
            writer.write_all(b"---\n")?;
        }
        to_writer(&mut writer, doc)?;
    }
    Ok(())
}
