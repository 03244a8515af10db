//! What a type accepts, described as data: [`Decode::shape`](crate::Decode::shape).
//!
//! The derive writes each type's shape from the same model its decoder is generated
//! from (field names after `rename`/`rename_all`, aliases, defaults, `flatten`,
//! `deny_unknown_fields`, enum tagging), so a tool reading the shape (configuration from
//! environment variables, a JSON Schema) sees exactly what the decoder accepts.
//!
//! ```
//! use quarry_raw_value::{Decode, Shape};
//!
//! let shape = <Vec<Option<u16>> as Decode>::shape();
//! let Shape::Seq(item) = shape else { panic!() };
//! let Shape::Optional(inner) = item() else { panic!() };
//! assert!(matches!(inner(), Shape::Integer { min: 0, max: 65535 }));
//! ```
//!
//! Nested shapes are functions ([`ShapeOf`]), called when a reader descends: recursive
//! types (`struct Node { children: Vec<Node> }`) describe themselves without looping.

use std::fmt;

/// A shape not yet built: call it to descend.
pub type ShapeOf = fn() -> Shape;

/// What one type accepts from a document.
#[derive(Clone)]
pub enum Shape {
    /// Anything: the type's `Decode` impl describes nothing (the default).
    Any,
    /// Only null (`()` and unit structs).
    Null,
    /// A boolean.
    Bool,
    /// An integer within `min..=max`.
    Integer {
        /// The smallest value accepted.
        min: i128,
        /// The largest value accepted.
        max: u128,
    },
    /// A floating-point number (integers are accepted too).
    Float,
    /// A string.
    String,
    /// A string of exactly one character.
    Char,
    /// Binary data (base64 text in formats without bytes).
    Bytes,
    /// A datetime (or its RFC 3339 text).
    Datetime,
    /// The inner shape or null; a struct field of this shape may be absent.
    Optional(ShapeOf),
    /// A sequence of items of one shape.
    Seq(ShapeOf),
    /// A sequence of exactly these shapes, in order.
    Tuple(Vec<ShapeOf>),
    /// A map from text keys to values of one shape.
    Map(ShapeOf),
    /// A struct with named fields.
    Struct(StructShape),
    /// An enum.
    Enum(EnumShape),
}

/// The named fields of a struct (or of a struct variant).
#[derive(Clone, Debug)]
pub struct StructShape {
    /// The Rust type's name.
    pub name: &'static str,
    /// The fields, in declaration order, without `skip`ped ones.
    pub fields: Vec<FieldShape>,
    /// True when a key that names no field is an error.
    pub deny_unknown_fields: bool,
}

/// One named field.
#[derive(Clone, Debug)]
pub struct FieldShape {
    /// The key in documents (after `rename` and `rename_all`).
    pub name: &'static str,
    /// Other keys accepted for the field on input.
    pub aliases: &'static [&'static str],
    /// The field's value.
    pub shape: ShapeOf,
    /// True when a document must give the field (no default, not an `Option`).
    pub required: bool,
    /// True for a `flatten` field: its own fields (or map entries) sit beside this
    /// struct's, and [`FieldShape::name`] is the Rust field's name, not a key.
    pub flatten: bool,
}

impl FieldShape {
    /// The field's key and its aliases.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.name).chain(self.aliases.iter().copied())
    }
}

/// How an enum's variants are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tagging {
    /// `{"Variant": content}`, or the bare name for unit variants (the default).
    External,
    /// `{"tag": "Variant", ...fields}`.
    Internal {
        /// The key holding the variant's name.
        tag: &'static str,
    },
    /// `{"tag": "Variant", "content": content}`.
    Adjacent {
        /// The key holding the variant's name.
        tag: &'static str,
        /// The key holding the variant's content.
        content: &'static str,
    },
    /// The content alone: the first variant that decodes wins.
    Untagged,
}

/// An enum's variants and how they are tagged.
#[derive(Clone, Debug)]
pub struct EnumShape {
    /// The Rust type's name.
    pub name: &'static str,
    /// How the variant is named in documents.
    pub tagging: Tagging,
    /// The variants, in declaration order.
    pub variants: Vec<VariantShape>,
}

/// One enum variant.
#[derive(Clone, Debug)]
pub struct VariantShape {
    /// The variant's name in documents.
    pub name: &'static str,
    /// Other names accepted on input.
    pub aliases: &'static [&'static str],
    /// What the variant holds.
    pub content: VariantContent,
}

/// What a variant holds.
#[derive(Clone, Debug)]
pub enum VariantContent {
    /// Nothing.
    Unit,
    /// One unnamed value.
    Newtype(ShapeOf),
    /// Several unnamed values, as a sequence.
    Tuple(Vec<ShapeOf>),
    /// Named fields.
    Struct(StructShape),
}

impl Shape {
    /// The shape under [`Shape::Optional`] (and nested options), or `self`.
    pub fn unwrap_optional(self) -> Shape {
        match self {
            Shape::Optional(inner) => inner().unwrap_optional(),
            other => other,
        }
    }

    /// True for shapes whose values are scalars in every format.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Shape::Null
                | Shape::Bool
                | Shape::Integer { .. }
                | Shape::Float
                | Shape::String
                | Shape::Char
                | Shape::Bytes
                | Shape::Datetime
        )
    }

    /// The integer shape of a Rust integer type.
    pub fn integer<T: TryInto<i128> + TryInto<u128>>(min: T, max: T) -> Shape {
        Shape::Integer {
            min: min.try_into().unwrap_or(i128::MIN),
            max: max.try_into().unwrap_or(u128::MAX),
        }
    }
}

/// Shows one level: nested shapes print as `..` (they may be recursive).
impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Any => f.write_str("Any"),
            Shape::Null => f.write_str("Null"),
            Shape::Bool => f.write_str("Bool"),
            Shape::Integer { min, max } => write!(f, "Integer({min}..={max})"),
            Shape::Float => f.write_str("Float"),
            Shape::String => f.write_str("String"),
            Shape::Char => f.write_str("Char"),
            Shape::Bytes => f.write_str("Bytes"),
            Shape::Datetime => f.write_str("Datetime"),
            Shape::Optional(_) => f.write_str("Optional(..)"),
            Shape::Seq(_) => f.write_str("Seq(..)"),
            Shape::Tuple(items) => write!(f, "Tuple({})", items.len()),
            Shape::Map(_) => f.write_str("Map(..)"),
            Shape::Struct(s) => write!(f, "Struct({})", s.name),
            Shape::Enum(e) => write!(f, "Enum({})", e.name),
        }
    }
}
