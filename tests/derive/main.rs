//! `#[derive(Decode, Encode)]`: every attribute, on JSON input (the direct path and the
//! facade) and on RawValue input, errors with paths, and the two paths compared.
//!
//! - `paths`: decoding through one path of one format (the helpers every module uses);
//! - `attributes`: renames, defaults, unknown fields, flattening, borrowing, structs of
//!   every form, and error paths;
//! - `enums`: every tagging, and the direct path of each;
//! - `constraints`: `range`, `len`, `pattern` and `validate`, on fields and variants;
//! - `direct`: the direct path against the RawValue path, format by format, with a
//!   property test for each;
//! - `schemas`: the shapes the derive describes and the JSON Schemas written from them;
//! - `recursion`: recursive types on a 2 MiB stack, at the deepest input the parsers
//!   accept, and the recursion limit that stops a type holding itself on one value.

mod attributes;
mod constraints;
mod direct;
mod enums;
mod paths;
mod recursion;
mod schemas;
