//! quarry's hand-written parsers and writers, one folder per format, each with the same
//! rooms: `mod.rs` (the API), `builder.rs` (the builder trait), `raw.rs` (the
//! [`RawValue`] builder), `tree.rs` (the format's node tree), `writer.rs`, `error.rs`,
//! and `direct.rs` where the format has a direct struct path (JSON, TOML, YAML, XML, binary
//! plists). The one parser, generic over the builder, is `parser.rs` (with `lexer.rs` or
//! `scanner.rs` where the format has one); property lists have three readers feeding one
//! builder instead: `xml.rs` (on the XML parser), `binary.rs` and `openstep.rs`. What all
//! formats share — positions, the error shell, the caret renderer, [`Limits`], and the
//! one tree vocabulary ([`Tree`], [`TreeNode`]) — lives in [`common`].
//!
//! Every format module offers the same functions; a cell says why one is missing:
//!
//! | function | `json` | `yaml` | `toml` | `xml` | `plist` |
//! |---|---|---|---|---|---|
//! | `parse` → [`RawValue`] (`_with_limits`) | yes | yes (first document; `parse_stream` for all) | yes | yes | yes |
//! | `parse_tree` → the format's tree (`_with_limits`) | yes | yes (a `Stream` of documents) | yes | yes | yes |
//! | `check`, building nothing (`_with_limits`) | yes | yes | yes | yes | yes |
//! | `parse_with(input, builder, limits)`: a builder of your own | yes | yes | yes | yes | yes (any of the three syntaxes) |
//! | `to_vec`, `to_string`, `to_writer` | yes | yes | yes | yes | yes (XML form; `to_vec_binary`, `to_vec_openstep`) |
//! | `_pretty` | `to_vec_pretty`, `to_string_pretty`, `to_writer_pretty` | block style is the default; `_flow` for flow style | none: TOML has one layout | `to_vec_pretty`, `to_string_pretty`, `to_writer_pretty` | the XML form is always indented |
//! | dialects | JSONC: `parse_jsonc`, `parse_tree_jsonc`, `check_jsonc` | streams: `parse_stream`, `to_vec_stream` | | `_with_root` names the root element | binary and OpenStep by `detect` |
//!
//! ```
//! use quarry_formats::TreeNode;
//!
//! let doc = quarry_formats::json::parse_tree(br#"{"ports": [80, 443]}"#).unwrap();
//! let ports = doc.root().get("ports").unwrap();
//! assert_eq!(ports.len(), 2);
//! assert_eq!(ports.at(1).and_then(|p| p.as_u64()), Some(443));
//! ```

pub mod common;
#[cfg(feature = "json")]
pub mod json;
#[cfg(feature = "plist")]
pub mod plist;
#[cfg(feature = "toml")]
pub mod toml;
#[cfg(feature = "xml")]
pub mod xml;
#[cfg(feature = "yaml")]
pub mod yaml;

pub use common::{HasSpan, Limits, Position, Span, Tree, TreeNode};
pub use quarry_raw_value::RawValue;
