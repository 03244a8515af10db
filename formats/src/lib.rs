//! quarry's hand-written parsers and writers, one folder per format, each in the same
//! rooms: `mod.rs` (the API), `parser.rs` (the one parser, generic over a builder),
//! `builder.rs` (the builder trait), `raw.rs` (the [`RawValue`] builder), `tree.rs`
//! (the format's node tree), `writer.rs` and `error.rs`. What all formats share —
//! positions, the error shell, the caret renderer and [`Limits`] — lives in [`common`].
//!
//! ```
//! let doc = quarry_formats::json::parse_tree(b"[1, 2, 3]").unwrap();
//! assert_eq!(doc.root().len(), 3);
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
