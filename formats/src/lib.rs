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
//! ```
//! use quarry_formats::TreeNode;
//!
//! let doc = quarry_formats::json::parse_tree(br#"{"ports": [80, 443]}"#).unwrap();
//! let ports = doc.root().get("ports").unwrap();
//! assert_eq!(ports.len(), 2);
//! assert_eq!(ports.at(1).and_then(|p| p.as_u64()), Some(443));
//! ```

// The shared helpers serve several formats each; a build with some formats left out
// leaves some of them unused.
#[cfg_attr(
    not(all(
        feature = "json",
        feature = "yaml",
        feature = "toml",
        feature = "xml",
        feature = "plist"
    )),
    allow(dead_code, unused_imports)
)]
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
