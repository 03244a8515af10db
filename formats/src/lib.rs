//! quarry's hand-written parsers and writers, one folder per format, each with the same
//! rooms: `mod.rs` (the API), `builder.rs` (the builder trait), `raw.rs` (the
//! [`RawValue`] builder), `tree.rs` (the format's node tree), `writer.rs`, `error.rs`,
//! and `direct.rs` where the format has a direct struct path (JSON, TOML, YAML, binary
//! plists). The one parser, generic over the builder, is `parser.rs` (with `lexer.rs` or
//! `scanner.rs` where the format has one); property lists have three readers feeding one
//! builder instead: `xml.rs` (on the XML parser), `binary.rs` and `openstep.rs`. What all
//! formats share — positions, the error shell, the caret renderer, [`Limits`], and the
//! one tree vocabulary ([`Tree`], [`TreeNode`]) — lives in [`common`].
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

pub use common::{Limits, Position, Span, Spanned, Tree, TreeNode};
pub use quarry_raw_value::RawValue;
