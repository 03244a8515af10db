//! quarry reads and writes JSON, YAML, TOML, XML and Apple property lists with
//! hand-written parsers, each written once and serving two doors: decoding into your
//! types (through [`RawValue`] and [`Decode`]) and inspecting a format's own node tree
//! (see each format module, like [`json`]).
//!
//! ```
//! use quarry::{Format, RawValue};
//!
//! let bytes = br#"{"name": "web", "ports": [80, 443]}"#;
//! let ports: std::collections::BTreeMap<String, RawValue> = quarry::from_slice(bytes, Format::Json).unwrap();
//! assert_eq!(ports["ports"], RawValue::Seq(vec![RawValue::Int(80), RawValue::Int(443)]));
//!
//! // Decode errors name every bad value with its path and source position.
//! let err = quarry::from_slice::<std::collections::HashMap<String, Vec<u8>>>(
//!     b"{\"a\": [1, 300],\n \"b\": [\"x\"]}",
//!     Format::Json,
//! )
//! .unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "a[1]: expected integer in 0..=255, found 300 at line 1, column 11\n\
//!      b[0]: expected integer, found string \"x\" at line 2, column 8"
//! );
//! ```
//!
//! Configuration usually comes in layers: [`Config`] merges files of any format, the
//! environment (mapped through the target type's fields, so `APP_DATABASE_MAX_CONNECTIONS`
//! is `database.max_connections`) and values set in code, and says where each value came
//! from:
//!
//! ```
//! #[derive(quarry::Decode)]
//! struct App {
//!     max_connections: u32,
//! }
//!
//! let (app, origins) = quarry::Config::new()
//!     .text("app.yaml", "max_connections: 10\n", quarry::Format::Yaml)
//!     .env_vars("APP", [("APP_MAX_CONNECTIONS", "50")])
//!     .load_with_origins::<App>()
//!     .unwrap();
//! assert_eq!(app.max_connections, 50);
//! assert_eq!(
//!     origins.get("max_connections").unwrap().to_string(),
//!     "environment variable APP_MAX_CONNECTIONS"
//! );
//! ```
//!
//! A field of type [`Spanned<T>`](Spanned) decodes like `T` and keeps where its value came
//! from: its span, line and column in the document, or through [`Config`] its origin. It
//! may sit anywhere in the type, a map's keys included:
//!
//! ```
//! use std::collections::BTreeMap;
//! use quarry::{Format, Spanned};
//!
//! let text = "ports:\n  web: 80\n";
//! #[derive(quarry::Decode)]
//! struct App {
//!     ports: BTreeMap<Spanned<String>, Spanned<u16>>,
//! }
//! let app: App = quarry::from_str(text, Format::Yaml).unwrap();
//! let (name, port) = app.ports.iter().next().unwrap();
//! assert_eq!(&text[name.span().start..name.span().end], "web");
//! assert_eq!(port.position().map(|p| (p.line, p.column)), Some((2, 8)));
//! ```
//!
//! Formats are cargo features, all on by default: `json` (which also reads JSON with
//! comments, [`Format::Jsonc`]), `yaml`, `toml`, `xml` and `plist` (which needs `xml`);
//! `chrono` adds decoding into chrono's date and time types.
//!
//! # The format modules
//!
//! Each format's own API is its module ([`json`], [`yaml`], [`toml`], [`xml`], [`plist`]):
//! its tree, its builders, its options, its writers.
//! Every format module offers the same functions, named alike; a cell that names no
//! function says why the format has none:
//!
//! | function | `json` | `yaml` | `toml` | `xml` | `plist` |
//! |---|---|---|---|---|---|
//! | `parse` → [`RawValue`] | [`parse`](json::parse) | [`parse`](yaml::parse) (one document; [`parse_stream`](yaml::parse_stream) for all) | [`parse`](toml::parse) | [`parse`](xml::parse) ([`parse_root`](xml::parse_root) without the root's name) | [`parse`](plist::parse) (any of the three forms) |
//! | `parse_with_limits` | [`parse_with_limits`](json::parse_with_limits) | [`parse_with_limits`](yaml::parse_with_limits) | [`parse_with_limits`](toml::parse_with_limits) | [`parse_with_limits`](xml::parse_with_limits) | [`parse_with_limits`](plist::parse_with_limits) |
//! | `parse_with_options` | none: JSON has no options (JSONC below) | [`parse_with_options`](yaml::parse_with_options) (merge keys) | none: TOML has no options | [`parse_with_options`](xml::parse_with_options) (namespaces) | none: plists have no options |
//! | `parse_tree` → the format's tree | [`parse_tree`](json::parse_tree) | [`parse_tree`](yaml::parse_tree) (a [`Stream`](yaml::Stream) of documents) | [`parse_tree`](toml::parse_tree) | [`parse_tree`](xml::parse_tree) | [`parse_tree`](plist::parse_tree) |
//! | `parse_tree_with_limits` | [`parse_tree_with_limits`](json::parse_tree_with_limits) | [`parse_tree_with_limits`](yaml::parse_tree_with_limits) | [`parse_tree_with_limits`](toml::parse_tree_with_limits) | [`parse_tree_with_limits`](xml::parse_tree_with_limits) ([`_with_options`](xml::parse_tree_with_options)) | [`parse_tree_with_limits`](plist::parse_tree_with_limits) |
//! | `check`, building nothing | [`check`](json::check) | [`check`](yaml::check) | [`check`](toml::check) | [`check`](xml::check) | [`check`](plist::check) |
//! | `check_with_limits` | [`check_with_limits`](json::check_with_limits) | [`check_with_limits`](yaml::check_with_limits) | [`check_with_limits`](toml::check_with_limits) | [`check_with_limits`](xml::check_with_limits) | [`check_with_limits`](plist::check_with_limits) |
//! | `parse_with(input, builder, limits)`: a builder of your own | [`parse_with`](json::parse_with) | [`parse_with`](yaml::parse_with) | [`parse_with`](toml::parse_with) | [`parse_with`](xml::parse_with) (limits or options) | [`parse_with`](plist::parse_with) (any form) |
//! | the direct path | [`DirectSource`](json::DirectSource) | [`DirectSource`](yaml::DirectSource) | [`DirectSource`](toml::DirectSource) | [`DirectSource`](xml::DirectSource) | [`DirectSource`](plist::DirectSource) (binary plists) |
//! | `to_vec` | [`to_vec`](json::to_vec) | [`to_vec`](yaml::to_vec) | [`to_vec`](toml::to_vec) | [`to_vec`](xml::to_vec) | [`to_vec`](plist::to_vec) (the XML form) |
//! | `to_string` | [`to_string`](json::to_string) | [`to_string`](yaml::to_string) | [`to_string`](toml::to_string) | [`to_string`](xml::to_string) | [`to_string`](plist::to_string) |
//! | `to_writer` | [`to_writer`](json::to_writer) | [`to_writer`](yaml::to_writer) | [`to_writer`](toml::to_writer) | [`to_writer`](xml::to_writer) | [`to_writer`](plist::to_writer) (any form) |
//! | `_pretty` | [`to_vec_pretty`](json::to_vec_pretty), [`to_string_pretty`](json::to_string_pretty), [`to_writer_pretty`](json::to_writer_pretty) | none: block style is the default ([`to_vec_flow`](yaml::to_vec_flow) for flow style) | none: TOML has one layout | [`to_vec_pretty`](xml::to_vec_pretty), [`to_string_pretty`](xml::to_string_pretty), [`to_writer_pretty`](xml::to_writer_pretty) | none: the XML form is always indented |
//! | what else the format has | JSONC: [`parse_jsonc`](json::parse_jsonc), [`parse_tree_jsonc`](json::parse_tree_jsonc), [`check_jsonc`](json::check_jsonc), [`parse_jsonc_with`](json::parse_jsonc_with), [`DirectSource::jsonc`](json::DirectSource::jsonc) | streams: [`parse_stream`](yaml::parse_stream), [`parse_stream_each`](yaml::parse_stream_each), [`to_vec_stream`](yaml::to_vec_stream) | [`to_vec_with_nulls`](toml::to_vec_with_nulls) | [`to_vec_with_root`](xml::to_vec_with_root) names the root element | [`detect`](plist::detect); [`to_vec_binary`](plist::to_vec_binary), [`to_vec_openstep`](plist::to_vec_openstep), [`to_vec_with_nulls`](plist::to_vec_with_nulls) |
//!
//! JSONC has one way in: [`Format::Jsonc`] here, and in [`json`] the functions named
//! `jsonc` above. It is a dialect of the JSON parser, not a format module of its own, and
//! it is written as JSON.

use std::fmt;
use std::path::{Path, PathBuf};

use dispatch::dispatch;
use dispatch::FormatOps;

pub use config::{Config, Secret};
/// `#[derive(Decode)]` and `#[derive(Encode)]`.
pub use quarry_codegen::{Decode, Encode};
pub use spanned::Spanned;

pub mod config;
#[cfg(feature = "miette")]
pub mod diagnostic;
mod dispatch;

#[cfg(not(any(
    feature = "json",
    feature = "yaml",
    feature = "toml",
    feature = "xml",
    feature = "plist"
)))]
compile_error!("quarry needs at least one format feature: json, yaml, toml, xml or plist");
#[cfg(all(feature = "json", feature = "toml", feature = "yaml"))]
mod documented;
#[cfg(all(feature = "json", feature = "toml", feature = "yaml"))]
pub mod edit;
#[cfg(all(feature = "json", feature = "toml", feature = "yaml"))]
pub use documented::to_string_documented;
pub mod json_schema;
mod spanned;
pub use json_schema::schema;
pub use quarry_formats::common::{
    Comment, EntryKey, HasSpan, Limits, Position, Span, Tree, TreeNode,
};
#[cfg(feature = "json")]
pub use quarry_formats::json;
#[cfg(feature = "plist")]
pub use quarry_formats::plist;
#[cfg(feature = "toml")]
pub use quarry_formats::toml;
#[cfg(feature = "xml")]
pub use quarry_formats::xml;
#[cfg(feature = "yaml")]
pub use quarry_formats::yaml;
/// What a type accepts, as data: [`Decode::shape`] and its parts.
pub use quarry_raw_value::shape;
pub use quarry_raw_value::{
    base64, Datetime, Decode, DecodeErrors, Encode, EncodeError, RawValue, Serde,
};

/// The formats' shared machinery (positions, the caret renderer, error shells), for the CLI
/// and the other sibling crates; its public items are re-exported where users meet them.
#[doc(hidden)]
pub use quarry_formats::common;
// The crate's own short paths to what it makes public under a module.
pub(crate) use quarry_raw_value::{
    DecodeError, DecodeErrorKind, Encoder, Path as ValuePath, PullSource, Segment, Shape, ShapeOf,
};

/// The pull path, for those who write a reader: a [`pull::PullSource`] hands values out
/// one step at a time, and derived types decode straight from it, falling back to
/// [`RawValue`] on any surprise ([`pull::Fallback`]).
pub mod pull {
    pub use quarry_raw_value::pull::{
        Fallback, GuessedKey, Num, PlainKey, PlainKeys, PullSource, TextRef, ValueKind,
    };
    pub use quarry_raw_value::{Nested, RECURSION_LIMIT};
}

/// Decoding beyond the [`Decode`] trait: one error of [`DecodeErrors`] and its kind, the
/// path it names, map keys, and XML's rule for lists.
pub mod decode {
    pub use crate::spanned::place_spans;
    pub use quarry_raw_value::{
        describe, DecodeError, DecodeErrorKind, DecodeKey, DecodeOptions, Path, Segment,
    };
}

/// Encoding beyond the [`Encode`] trait: the encoder a type writes itself to, map keys,
/// and what the TOML and plist writers do with null entries.
pub mod encode {
    pub use quarry_formats::common::NullEntries;
    pub use quarry_raw_value::{EncodeKey, Encoder, RawValueEncoder};
}

/// The parts of a [`Datetime`]: TOML's four kinds and plist dates.
pub mod datetime {
    pub use quarry_raw_value::{Date, DatetimeParseError, Offset, Time};
}

/// What derived code refers to. Not a public API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::spanned::VariantValues;
    pub use ::core::option::Option::{self, None, Some};
    pub use ::core::result::Result::{self, Err, Ok};
    pub use ::std::borrow::Cow;
    pub use ::std::format;
    pub use ::std::string::String;
    pub use ::std::sync::OnceLock;
    pub use ::std::vec;
    pub use ::std::vec::Vec;
    pub use quarry_raw_value::constraint::{check_len, check_pattern, check_with, RangeValue};
    pub use quarry_raw_value::FlattenEncoder;
    pub use regex_lite::Regex;
}

/// A data format quarry knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// JSON (RFC 8259).
    Json,
    /// JSON with comments (`//`, `/* */`) and trailing commas, as VS Code and TypeScript
    /// read it: a dialect of the JSON parser (read by [`json::parse_jsonc`] and its
    /// siblings), written as JSON.
    Jsonc,
    /// YAML 1.2.
    Yaml,
    /// TOML 1.0.
    Toml,
    /// XML 1.0.
    Xml,
    /// Apple property list (XML, binary or OpenStep text).
    Plist,
}

impl Format {
    /// Every format, in a fixed order.
    pub const ALL: [Format; 6] = [
        Format::Json,
        Format::Jsonc,
        Format::Yaml,
        Format::Toml,
        Format::Xml,
        Format::Plist,
    ];

    /// The format's lowercase name (`"json"`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Jsonc => "jsonc",
            Format::Yaml => "yaml",
            Format::Toml => "toml",
            Format::Xml => "xml",
            Format::Plist => "plist",
        }
    }

    /// The format a file extension stands for, case-insensitively: `json`; `jsonc`;
    /// `yaml`/`yml`; `toml`; `xml` and the XML vocabularies `svg`, `atom`, `rss`,
    /// `xhtml`, `xsd`, `xsl`/`xslt`, `fodt`; `plist`, `pbxproj`, `entitlements`,
    /// `strings`, `tmLanguage`, `tmTheme`.
    pub fn from_extension(extension: &str) -> Option<Format> {
        match extension.to_ascii_lowercase().as_str() {
            "json" => Some(Format::Json),
            "jsonc" => Some(Format::Jsonc),
            "yaml" | "yml" => Some(Format::Yaml),
            "toml" => Some(Format::Toml),
            "xml" | "svg" | "atom" | "rss" | "xhtml" | "xsd" | "xsl" | "xslt" | "fodt" => {
                Some(Format::Xml)
            }
            "plist" | "pbxproj" | "entitlements" | "strings" | "tmlanguage" | "tmtheme" => {
                Some(Format::Plist)
            }
            _ => None,
        }
    }

    /// The format of a path: by its extension, or by well-known file names whose
    /// extension says nothing or too little: `Cargo.lock`, `uv.lock` and `poetry.lock`
    /// are TOML; `tsconfig.json`, `jsconfig.json`, `devcontainer.json`,
    /// `.devcontainer.json` and every `.json` file directly inside a `.vscode` folder
    /// are JSONC.
    pub fn from_path(path: impl AsRef<Path>) -> Option<Format> {
        let path = path.as_ref();
        let name = path.file_name().and_then(|n| n.to_str());
        match name {
            Some("Cargo.lock" | "uv.lock" | "poetry.lock") => return Some(Format::Toml),
            Some(
                "tsconfig.json" | "jsconfig.json" | "devcontainer.json" | ".devcontainer.json",
            ) => return Some(Format::Jsonc),
            _ => {}
        }
        let format = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)?;
        let in_vscode = path
            .parent()
            .and_then(|dir| dir.file_name())
            .is_some_and(|dir| dir == ".vscode");
        match format {
            Format::Json if in_vscode => Some(Format::Jsonc),
            format => Some(format),
        }
    }

    /// True when this build of quarry can read and write the format.
    pub fn is_supported(self) -> bool {
        match self {
            Format::Json | Format::Jsonc => cfg!(feature = "json"),
            Format::Yaml => cfg!(feature = "yaml"),
            Format::Toml => cfg!(feature = "toml"),
            Format::Xml => cfg!(feature = "xml"),
            Format::Plist => cfg!(feature = "plist"),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Format::from_extension(s).ok_or_else(|| {
            format!("unknown format `{s}` (expected json, jsonc, yaml, toml, xml or plist)")
        })
    }
}

/// A syntax error of any format.
#[derive(Debug)]
#[non_exhaustive]
pub enum ParseError {
    /// A JSON syntax error.
    #[cfg(feature = "json")]
    Json(json::Error),
    /// A TOML syntax error.
    #[cfg(feature = "toml")]
    Toml(toml::Error),
    /// A YAML syntax error.
    #[cfg(feature = "yaml")]
    Yaml(yaml::Error),
    /// An XML well-formedness error.
    #[cfg(feature = "xml")]
    Xml(xml::Error),
    /// A property list that is malformed in any of its three forms.
    #[cfg(feature = "plist")]
    Plist(plist::Error),
}

impl ParseError {
    /// The name of the error's kind, as its format's `ErrorKind` names it
    /// (`UnexpectedCharacter`, `DuplicateKey`): for programs that sort errors.
    pub fn kind_name(&self) -> String {
        let debug: String = dispatch!(error self, e => format!("{:?}", e.kind()));
        let end = debug
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .unwrap_or(debug.len());
        debug[..end].to_owned()
    }

    /// Where the error is.
    pub fn position(&self) -> Position {
        dispatch!(error self, e => e.position())
    }

    /// The message without its position (`expected `,` or `]`, found `}``).
    pub fn message(&self) -> String {
        dispatch!(error self, e => e.kind().to_string())
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.message(), self.position())
    }
}

impl std::error::Error for ParseError {}

/// Everything that can go wrong reading or writing a document through the facade.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file's format could not be told from its extension.
    UnknownFormat(PathBuf),
    /// This build does not support the format (its feature is off).
    Unsupported(Format),
    /// The document is not well-formed.
    Parse(ParseError),
    /// The document is well-formed but does not fit the target type; every failure is listed.
    Decode(DecodeErrors),
    /// The value cannot be written in the target format.
    Encode(EncodeError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::UnknownFormat(path) => write!(
                f,
                "{}: cannot tell the format from the file name",
                path.display()
            ),
            Error::Unsupported(format) => write!(
                f,
                "the {format} format is not supported by this build of quarry"
            ),
            Error::Parse(e) => write!(f, "{e}"),
            Error::Decode(e) => write!(f, "{e}"),
            Error::Encode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Parse(e) => Some(e),
            Error::Decode(e) => Some(e),
            Error::Encode(e) => Some(e),
            _ => None,
        }
    }
}

impl From<EncodeError> for Error {
    fn from(e: EncodeError) -> Self {
        Error::Encode(e)
    }
}

#[cfg(feature = "json")]
impl From<json::Error> for Error {
    fn from(e: json::Error) -> Self {
        Error::Parse(ParseError::Json(e))
    }
}

#[cfg(feature = "toml")]
impl From<toml::Error> for Error {
    fn from(e: toml::Error) -> Self {
        Error::Parse(ParseError::Toml(e))
    }
}

#[cfg(feature = "yaml")]
impl From<yaml::Error> for Error {
    fn from(e: yaml::Error) -> Self {
        Error::Parse(ParseError::Yaml(e))
    }
}

#[cfg(feature = "xml")]
impl From<xml::Error> for Error {
    fn from(e: xml::Error) -> Self {
        Error::Parse(ParseError::Xml(e))
    }
}

#[cfg(feature = "plist")]
impl From<plist::Error> for Error {
    fn from(e: plist::Error) -> Self {
        Error::Parse(ParseError::Plist(e))
    }
}

/// Parses `bytes` as `format` into a [`RawValue`] (the struct door, no target type).
///
/// A YAML stream must hold at most one document here (see [`yaml::parse_stream`]); an
/// XML document is the one-entry map from its root element's name to its value.
pub fn parse_raw(bytes: &[u8], format: Format) -> Result<RawValue<'_>, Error> {
    dispatch!(format, F => F::parse_raw(bytes), other => Err(Error::Unsupported(other)))
}

/// Checks that `bytes` is a well-formed `format` document, building nothing.
pub fn check(bytes: &[u8], format: Format) -> Result<(), Error> {
    dispatch!(format, F => F::check(bytes), other => Err(Error::Unsupported(other)))
}

/// Decodes a `T` from `bytes` in `format`. On failure, every decode error carries its
/// path and the line and column of the offending value.
///
/// JSON (and JSONC), YAML, TOML, XML and binary plists are read straight into `T` (no intermediate
/// value) when `T` supports it, as derived types do; on any failure the document is decoded again
/// through [`RawValue`], so the errors are exactly the ones that path reports.
pub fn from_slice<'de, T: Decode<'de>>(bytes: &'de [u8], format: Format) -> Result<T, Error> {
    if let Some(value) = decode_direct(bytes, format) {
        return Ok(value);
    }
    let decoded = if spanned::holds_spanned(T::shape) {
        spanned::decode_placed(bytes, format)?
    } else {
        dispatch!(format, F => F::decode(bytes), other => Err(Error::Unsupported(other)))?
    };
    decoded.map_err(|mut errors| {
        locate_decode_errors(bytes, format, &mut errors);
        Error::Decode(errors)
    })
}

/// The direct path of `format`, where it has one: `T` is read straight from the bytes
/// through the format's `DirectSource`. `None` (any failure, or anything the source
/// leaves to the RawValue path: a TOML table added to after it closed, YAML aliases,
/// anchors, tags, merge keys or a second document, an XML name repeated after another
/// child, a plist that is not binary) sends the caller to the RawValue path.
#[inline]
fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8], format: Format) -> Option<T> {
    dispatch!(format, F => F::decode_direct(bytes), _ => None)
}

/// Decodes a `T` from the text `s` in `format`.
pub fn from_str<'de, T: Decode<'de>>(s: &'de str, format: Format) -> Result<T, Error> {
    from_slice(s.as_bytes(), format)
}

/// Reads and decodes a config file in one call; the format comes from the extension.
pub fn from_path<T: for<'de> Decode<'de>>(path: impl AsRef<Path>) -> Result<T, Error> {
    let path = path.as_ref();
    let format = Format::from_path(path).ok_or_else(|| Error::UnknownFormat(path.to_owned()))?;
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    from_slice(&bytes, format)
}

/// Encodes `value` in `format` (pretty where the format has a choice).
///
/// JSONC is written as JSON (which every JSONC reader reads): a value holds no comments.
///
/// XML: a value that encodes as a one-entry map is the document (its key names the root
/// element, as [`xml::parse`] reads it); anything else is written under a root element
/// named `root` (use [`xml::to_vec_with_root`] to name it). Plists are written as XML
/// plists (see [`plist::to_vec_binary`] for binary). TOML and plists have no null: a
/// `None` field is an error naming its path here; `toml::to_vec_with_nulls` and
/// `plist::to_vec_with_nulls` with [`NullEntries::Skip`](encode::NullEntries) leave them out.
pub fn to_vec<T: Encode + ?Sized>(value: &T, format: Format) -> Result<Vec<u8>, Error> {
    dispatch!(format, F => F::to_vec(value), other => Err(Error::Unsupported(other)))
}

/// Encodes `value` in `format` as a string.
pub fn to_string<T: Encode + ?Sized>(value: &T, format: Format) -> Result<String, Error> {
    let bytes = to_vec(value, format)?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Maps each decode error's path back to a source position by parsing `bytes` again
/// through the tree door. Only runs when decoding failed: the success path pays nothing.
#[cold]
fn locate_decode_errors(bytes: &[u8], format: Format, errors: &mut DecodeErrors) {
    let paths: Vec<ValuePath> = errors.iter().map(DecodeError::path).collect();
    if let Some(positions) = locate_paths(bytes, format, &paths) {
        for (error, position) in errors.iter_mut().zip(positions) {
            error.position = position;
        }
    }
}

/// The source position of each path (`servers[0].port`) in the document `bytes`: the
/// start of the deepest node along it (so a missing field points at the map that lacks
/// it). `None` when the document does not parse through the tree door; a binary plist's
/// entries are `None` (its nodes sit at object offsets, which have no line). Paths start
/// below an XML document's root element, as the struct door reads it; a YAML stream is
/// read in its first document.
///
/// ```
/// let bytes = b"[server]\nport = 80\n";
/// let path = quarry::decode::Path::parse("server.port").unwrap();
/// let at = quarry::locate(bytes, quarry::Format::Toml, &[path]).unwrap()[0].unwrap();
/// assert_eq!((at.line, at.column), (2, 8));
/// ```
pub fn locate(bytes: &[u8], format: Format, paths: &[ValuePath]) -> Option<Vec<Option<Position>>> {
    locate_paths(bytes, format, paths)
}

#[cold]
pub(crate) fn locate_paths(
    bytes: &[u8],
    format: Format,
    paths: &[ValuePath],
) -> Option<Vec<Option<Position>>> {
    let places = places_of(bytes, format, paths)?;
    Some(places.into_iter().map(|place| place?.1).collect())
}

/// The span and the line and column of the key each path ends with, in the map its
/// other segments lead to (an XML attribute's name, an element's tag name); `None` for
/// a path that does not end with a key there, and when the document does not parse.
#[cold]
pub(crate) fn key_places_of(
    bytes: &[u8],
    format: Format,
    paths: &[ValuePath],
) -> Option<Vec<Option<dispatch::Located>>> {
    dispatch!(format, F => F::key_places(bytes, paths), _ => None)
}

/// The span and the line and column of each path's node in the document `bytes` (the
/// deepest node along it, as decode errors are placed); `None` when the document does not
/// parse through the tree door. A binary plist's nodes have spans (object offsets) and no
/// lines.
#[cold]
pub(crate) fn places_of(
    bytes: &[u8],
    format: Format,
    paths: &[ValuePath],
) -> Option<Vec<Option<dispatch::Located>>> {
    dispatch!(format, F => F::places(bytes, paths), _ => None)
}
