//! The `#[derive(Decode, Encode)]` macros of quarry, re-exported by the `quarry` crate.
//!
//! Laid out as parse → validate (`model`, collecting every attribute error before
//! giving up) → expand (`decode`, `encode`). Generated code names everything by an
//! absolute `::quarry::` path and sits in `const _: () = { ... }`, so it needs no import
//! in the user's module.
//!
//! ```
//! #[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
//! #[quarry(rename_all = "camelCase", deny_unknown_fields)]
//! struct Server {
//!     host_name: String,
//!     #[quarry(range = 1..=65535)]
//!     port: u16,
//!     #[quarry(default)]
//!     tags: Vec<String>,
//! }
//!
//! let server: Server = quarry::from_str(r#"{"hostName": "a", "port": 80}"#, quarry::Format::Json).unwrap();
//! assert_eq!(server, Server { host_name: "a".into(), port: 80, tags: vec![] });
//! let err = quarry::from_str::<Server>(r#"{"hostName": 1, "port": 0}"#, quarry::Format::Json).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "hostName: expected string, found 1 at line 1, column 14\n\
//!      port: expected integer in 1..=65535, found 0 at line 1, column 25"
//! );
//! ```
//!
//! Attributes, all under `#[quarry(...)]`:
//! - on the type: `rename_all = "snake_case" | "camelCase" | "PascalCase" | "kebab-case" |
//!   "SCREAMING_SNAKE_CASE" | "lowercase" | "UPPERCASE"`, `deny_unknown_fields`, and on
//!   enums `tag = "..."` (internally tagged), `tag` + `content` (adjacently tagged) or
//!   `untagged`; externally tagged is the default;
//! - on fields: `rename`, `alias` (input only, repeatable), `default` or
//!   `default = path`, `skip`, `flatten`, and the constraints `range = A..=B`,
//!   `len = A..=B`, `pattern = "regex"` (regex-lite syntax, checked at compile time) and
//!   `validate = path` (a `fn(&T) -> Result<(), impl Display>`), and `merge = "append"`
//!   on a sequence field, which `quarry::Config` reads: the layers' items are
//!   concatenated instead of the last layer's replacing the others;
//! - on variants: `rename`, `alias`, `rename_all` (for the variant's fields).
//!
//! Constraints apply wherever a field is decoded: struct fields, the fields of tuple and
//! struct variants, the one field of a newtype struct or newtype variant (in every
//! tagging style), and a `flatten` field (checked on the value it gathered). An attribute
//! that would have nothing to act on is a compile error, never a silent no-op: `rename`,
//! `alias` or `default` on a tuple field; `rename`, `alias` or `default` beside
//! `flatten`; `rename_all` or `deny_unknown_fields` on a tuple or unit struct;
//! `rename_all` on a variant without named fields; `skip` on a newtype variant's field;
//! `rename`, `alias` or `rename_all` on an `untagged` enum's variants.

use proc_macro::TokenStream;
use quote::quote;
use syn::{parse_macro_input, DeriveInput};

mod decode;
mod encode;
mod model;
mod shape;

/// Derives `quarry::Decode`: decoding from every format's `RawValue`, and straight from
/// the bytes (through a `PullSource`) where the format and the shape allow.
#[proc_macro_derive(Decode, attributes(quarry))]
pub fn derive_decode(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match model::Container::parse(&input) {
        Ok(container) => wrap(decode::expand(&container)),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Derives `quarry::Encode`: writing to every format's encoder.
#[proc_macro_derive(Encode, attributes(quarry))]
pub fn derive_encode(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match model::Container::parse(&input) {
        Ok(container) => wrap(encode::expand(&container)),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Puts generated items in an anonymous const so they add no names to the user's module.
fn wrap(items: proc_macro2::TokenStream) -> TokenStream {
    quote!(const _: () = { #items };).into()
}
