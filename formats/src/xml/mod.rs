//! XML 1.0 (fifth edition) with Namespaces in XML 1.0: a strict, non-validating parser
//! that checks every well-formedness constraint, reads the internal DTD subset and
//! expands its entities, and never opens an external file.
//!
//! One parser (`parser.rs`, driven through [`parse_with`]) generic over [`XmlBuilder`] serves both doors:
//! [`parse`] builds a [`RawValue`] for decoding into structs, [`parse_tree`] builds a
//! [`Document`] (roxmltree-like: elements, attributes with namespaces, text, comments,
//! PIs, each with its byte span), and [`check`] validates with the `()` builder.
//!
//! # XML as RawValue
//!
//! - the document is a map with one key, the root element's name;
//! - an element with no attributes and no child elements is its text
//!   ([`RawValue::Text`]: untyped, so `<port>80</port>` decodes into a `u16`; `""` when empty);
//! - otherwise it is a map: each attribute as `"@name"`, each child element under its
//!   name as written (prefix included) — several children of one name become a sequence,
//!   in document order, at the first one's place — and non-white-space text under
//!   `"$text"`, last;
//! - namespace declarations (`xmlns`, `xmlns:p`) are attributes like any other;
//! - text is kept as written, not trimmed; white-space-only text is dropped (a leaf
//!   holding only white space is `""`); in mixed content the text runs are joined, in
//!   order, under `"$text"`; CDATA is text; entities and character references are
//!   decoded; comments and processing instructions exist only in the tree door.
//!
//! ```
//! use std::borrow::Cow;
//! use quarry_formats::xml;
//! use quarry_formats::RawValue;
//!
//! let value = xml::parse(br#"<config env="prod">
//!     <port>80</port>
//!     <host>a</host><host>b</host>
//!     <note>fish &amp; chips</note>
//!     <empty/>
//! </config>"#).unwrap();
//! let text = |s: &'static str| RawValue::Text(Cow::Borrowed(s));
//! assert_eq!(value, RawValue::Map(vec![(
//!     "config".into(),
//!     RawValue::Map(vec![
//!         ("@env".into(), text("prod")),
//!         ("port".into(), text("80")),
//!         ("host".into(), RawValue::Seq(vec![text("a"), text("b")])),
//!         ("note".into(), text("fish & chips")),
//!         ("empty".into(), text("")),
//!     ]),
//! )]));
//! // Written back by the same mapping in reverse.
//! assert_eq!(
//!     xml::to_string(&value).unwrap(),
//!     r#"<config env="prod"><port>80</port><host>a</host><host>b</host><note>fish &amp; chips</note><empty/></config>"#
//! );
//!
//! let err = xml::parse(b"<a>\n  <b></a>").unwrap_err();
//! assert_eq!(err.to_string(), "end tag `a` does not match the open element `b` at line 2, column 6");
//! ```
//!
//! What is preserved and what is not: the tree keeps every element, attribute (in
//! order, namespace declarations included), text run (adjacent text and CDATA merged),
//! comment and PI with its span; the XML declaration and DOCTYPE reach the builder but
//! are not kept in the tree. What the internal subset declares is applied as XML 1.0
//! asks of a non-validating processor: attribute values are normalized as CDATA
//! (§3.3.3), and further (trimmed, spaces collapsed) when the attribute is declared with
//! another type; declared defaults (`#FIXED` or not) appear on elements that omit the
//! attribute, in both doors, and the tree tells them apart ([`Attr::is_specified`]); the
//! first declaration of an attribute binds; declarations after a reference to an
//! external parameter entity (never read) are not processed (§5.1). Line ends are
//! normalized to `\n`. Namespace processing is on by default and can be turned off with
//! [`Options`]. Input is UTF-8 (read in place), UTF-16 (by byte order mark), or any
//! encoding its declaration names by a label iconv, CPython or the WHATWG Encoding
//! Standard knows, case and punctuation aside: windows-125x, KOI8-R, IBM866, MacRoman,
//! MacCyrillic, Shift_JIS, EUC-JP, ISO-2022-JP, GBK, gb18030, Big5, EUC-KR and the rest
//! of WHATWG's through `encoding_rs`; the single-byte encodings WHATWG leaves out (the IBM
//! PC code pages 437 to 869, 1006 and 1125, the other Mac encodings, ISO-8859-11, TIS-620,
//! KOI8-T, KZ-1048, PTCP154, HP-ROMAN8) and the ISO-8859-1, ISO-8859-9 and KOI8-U that
//! WHATWG reads as other encodings, by the tables of Unicode's mapping files. Other
//! encodings (EBCDIC, UTF-32, ISO-2022-KR) are an [`ErrorKind::UnsupportedEncoding`]
//! naming them. Non-UTF-8 input is
//! transcoded first, and spans then refer to the UTF-8 text ([`Document::source`]);
//! lines and columns are the same in the original bytes. Internal entities are expanded under
//! [`Limits::max_entity_expansion`]; references to external entities are skipped
//! (reported to [`XmlBuilder::skipped_entity`]), and nothing external is ever read.

mod builder;
mod chars;
mod direct;
mod encoding;
mod error;
mod parser;
mod raw;
mod tree;
mod writer;

use std::borrow::Cow;

use quarry_raw_value::{raw_value_of, Encode, EncodeError, RawValue};

pub use builder::{
    is_xml_whitespace, Attribute, Declaration, Doctype, NamespaceBinding, StartTag,
    StartTagAttributes, XmlBuilder, XMLNS_NAMESPACE, XML_NAMESPACE,
};
pub use direct::DirectSource;
pub use error::{Error, ErrorKind};
pub use parser::{parse_with, Options};
pub use raw::{RawValueBuilder, TEXT_KEY};
pub use tree::{Attr, Attributes, Children, Document, Node, NodeKind, Target, TreeBuilder};
pub use writer::{escape_attribute, escape_text, write_tree, XmlWriter};

use crate::common::Limits;
use encoding::Encoding;
pub(crate) use encoding::{decode_input, Input};
use parser::Parser;

/// Parses an XML document into a [`RawValue`] (the struct door), with default limits:
/// a one-entry map from the root element's name to its value.
pub fn parse(input: &[u8]) -> Result<RawValue<'_>, Error> {
    parse_with_limits(input, Limits::default())
}

/// Parses an XML document into a [`RawValue`] under `limits`.
pub fn parse_with_limits(input: &[u8], limits: Limits) -> Result<RawValue<'_>, Error> {
    parse_with_options(input, &Options::default().with_limits(limits))
}

/// Parses an XML document into a [`RawValue`] under `options`.
pub fn parse_with_options<'a>(input: &'a [u8], options: &Options) -> Result<RawValue<'a>, Error> {
    let mut builder = RawValueBuilder::default();
    parse_with(input, &mut builder, *options)?;
    Ok(builder.finish())
}

/// Parses an XML document and returns the root element's value (without the wrapper
/// map) and its name: what decoding a struct from XML starts from.
pub fn parse_root(input: &[u8]) -> Result<(Cow<'_, str>, RawValue<'_>), Error> {
    let mut builder = RawValueBuilder::default();
    parse_with(input, &mut builder, Limits::default())?;
    match builder.finish_root() {
        Some(root) => Ok(root),
        None => unreachable_root(input),
    }
}

#[cold]
fn unreachable_root(input: &[u8]) -> Result<(Cow<'_, str>, RawValue<'_>), Error> {
    Err(Error::new(ErrorKind::MissingRoot, input, input.len()))
}

/// Parses an XML document into a [`Document`] tree (the tree door), with default limits.
pub fn parse_tree(input: &[u8]) -> Result<Document<'_>, Error> {
    parse_tree_with_limits(input, Limits::default())
}

/// Parses an XML document into a [`Document`] tree under `limits`.
pub fn parse_tree_with_limits(input: &[u8], limits: Limits) -> Result<Document<'_>, Error> {
    parse_tree_with_options(input, &Options::default().with_limits(limits))
}

/// Parses an XML document into a [`Document`] tree under `options`.
pub fn parse_tree_with_options<'a>(
    input: &'a [u8],
    options: &Options,
) -> Result<Document<'a>, Error> {
    let options = *options;
    match decode_input(input, options.limits)? {
        Input::Borrowed(src) => {
            let mut builder = TreeBuilder::for_source(src);
            Parser::new(src, Encoding::Utf8, options).document(&mut builder)?;
            Ok(builder.finish(Cow::Borrowed(src)))
        }
        Input::Transcoded(text, encoding) => {
            let mut builder = TreeBuilder::for_source(&text);
            Parser::new(&text, encoding, options).document(&mut builder)?;
            Ok(builder.finish(Cow::Borrowed(&text)).into_owned())
        }
    }
}

/// Checks that `input` is one well-formed XML document, building nothing.
pub fn check(input: &[u8]) -> Result<(), Error> {
    parse_with(input, &mut (), Limits::default())
}

/// Checks `input` under `limits`, building nothing.
pub fn check_with_limits(input: &[u8], limits: Limits) -> Result<(), Error> {
    parse_with(input, &mut (), limits)
}

/// Encodes `value` as XML. The value must be a map with one entry, the root element
/// (what [`parse`] returns); see [`to_string_with_root`] for a struct.
pub fn to_string<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    let mut out = String::with_capacity(128);
    let mut writer = XmlWriter::new(&mut out);
    value.encode(&mut writer)?;
    writer.finish()?;
    Ok(out)
}

/// Encodes `value` as XML bytes (see [`to_string`]).
pub fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    to_string(value).map(String::into_bytes)
}

/// Encodes `value` as the root element named `root`: a struct `Config` as
/// `<config>...</config>`.
pub fn to_string_with_root<T: Encode + ?Sized>(
    value: &T,
    root: &str,
) -> Result<String, EncodeError> {
    let mut out = String::with_capacity(128);
    let mut writer = XmlWriter::with_root(&mut out, root);
    value.encode(&mut writer)?;
    writer.finish()?;
    Ok(out)
}

/// Encodes `value` as the root element named `root`, as bytes.
pub fn to_vec_with_root<T: Encode + ?Sized>(value: &T, root: &str) -> Result<Vec<u8>, EncodeError> {
    to_string_with_root(value, root).map(String::into_bytes)
}

/// Encodes `value` as XML indented by two spaces (see [`to_string`]). Indentation goes
/// only between child elements of elements without text, where reading drops it, so
/// the pretty and the compact output parse to the same value.
pub fn to_string_pretty<T: Encode + ?Sized>(value: &T) -> Result<String, EncodeError> {
    let mut out = String::with_capacity(128);
    writer::write_pretty(&mut out, &*raw_value_of(value)?, None)?;
    Ok(out)
}

/// Encodes `value` as indented XML bytes (see [`to_string_pretty`]).
pub fn to_vec_pretty<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    to_string_pretty(value).map(String::into_bytes)
}

/// Encodes `value` as the indented root element named `root`.
pub fn to_string_pretty_with_root<T: Encode + ?Sized>(
    value: &T,
    root: &str,
) -> Result<String, EncodeError> {
    let mut out = String::with_capacity(128);
    writer::write_pretty(&mut out, &*raw_value_of(value)?, Some(root))?;
    Ok(out)
}

/// Encodes `value` as XML into `writer` (see [`to_string`]).
pub fn to_writer<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    writer.write_all(to_string(value)?.as_bytes())?;
    Ok(())
}

/// Encodes `value` as indented XML into `writer` (see [`to_string_pretty`]), in chunks
/// as the output grows: the whole document is never held. A [`RawValue`] is written in
/// place.
pub fn to_writer_pretty<W: std::io::Write, T: Encode + ?Sized>(
    writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    pretty_to_writer(writer, value, None)
}

/// Encodes `value` as the indented root element named `root` into `writer` (see
/// [`to_writer_pretty`]).
pub fn to_writer_pretty_with_root<W: std::io::Write, T: Encode + ?Sized>(
    writer: W,
    value: &T,
    root: &str,
) -> Result<(), EncodeError> {
    pretty_to_writer(writer, value, Some(root))
}

fn pretty_to_writer<W: std::io::Write, T: Encode + ?Sized>(
    mut writer: W,
    value: &T,
    root: Option<&str>,
) -> Result<(), EncodeError> {
    let raw = raw_value_of(value)?;
    let mut out = String::with_capacity(crate::common::CHUNK + 4096);
    let mut sink = crate::common::Sink::to(&mut writer);
    writer::write_pretty_to(&mut out, &raw, root, &mut sink)?;
    let mut out = out.into_bytes();
    sink.finish(&mut out)
}
