//! The format-neutral middle of quarry: [`RawValue`], the [`Decode`] and [`Encode`]
//! traits, and decode errors that carry the path of the offending value.
//!
//! Every quarry parser can build a [`RawValue`]; every quarry writer can write one.
//! A type implementing [`Decode`] is thereby readable from every format, and a type
//! implementing [`Encode`] writable to every format.
//!
//! ```
//! use std::borrow::Cow;
//! use quarry_raw_value::{Decode, RawValue};
//!
//! let value = RawValue::Map(vec![
//!     (Cow::Borrowed("ports"), RawValue::Seq(vec![RawValue::Int(80), RawValue::Int(70000)])),
//! ]);
//! // Decoding reports every bad value with its path.
//! let err = std::collections::BTreeMap::<String, Vec<u16>>::decode(value).unwrap_err();
//! assert_eq!(err.to_string(), "ports[1]: expected integer in 0..=65535, found 70000");
//! ```
//!
//! What is preserved: map order and duplicate keys (the decoder decides what a duplicate
//! means — std maps and derived structs reject them), integers beyond 64 bits as their
//! text ([`RawValue::BigNumber`]), and whether a string was borrowed from the input.

pub mod base64;
#[cfg(feature = "chrono")]
mod chrono_impls;
pub mod constraint;
mod datetime;
mod decode;
mod encode;
mod error;
mod nesting;
pub mod pull;
mod serde_bridge;
pub mod shape;
mod value;

pub use datetime::{Date, Datetime, DatetimeParseError, Offset, Time};
pub use decode::{describe, Decode, DecodeKey, DecodeOptions};
pub use encode::{raw_value_of, Encode, EncodeKey, Encoder, FlattenEncoder, RawValueEncoder};
pub use error::{DecodeError, DecodeErrorKind, DecodeErrors, EncodeError, Path, Position, Segment};
pub use nesting::{Nested, RECURSION_LIMIT};
pub use pull::{Fallback, GuessedKey, Num, PlainKey, PlainKeys, PullSource, TextRef, ValueKind};
pub use serde_bridge::Serde;
pub use shape::{Shape, ShapeOf};
pub use value::RawValue;
