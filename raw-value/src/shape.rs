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
use std::ops::{Bound as RangeBound, RangeBounds};

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
    /// A sequence of exactly these items, in order.
    Tuple(Vec<TupleItem>),
    /// A map from text keys to values of one shape.
    Map(ShapeOf),
    /// A map like [`Shape::Map`] whose keys keep where they came from (the facade's
    /// `Spanned<K>` as a key): the values' shape.
    SpannedKeyMap(ShapeOf),
    /// A struct with named fields.
    Struct(StructShape),
    /// An enum.
    Enum(EnumShape),
    /// A value of the inner shape that must also pass `checks` (a newtype struct whose
    /// field has constraints).
    Checked(ShapeOf, Vec<Check>),
    /// A value of the inner shape that must never be shown (the facade's `Secret<T>`):
    /// configuration can refuse it from plain files, and a JSON Schema marks it
    /// `writeOnly`.
    Secret(ShapeOf),
    /// A value of the inner shape that keeps where it came from (the facade's
    /// `Spanned<T>`): it accepts exactly what the inner shape accepts, and a JSON Schema
    /// is the inner one's.
    Spanned(ShapeOf),
}

/// The named fields of a struct (or of a struct variant).
#[derive(Clone, Debug)]
pub struct StructShape {
    /// The Rust type's name.
    pub name: &'static str,
    /// The type's doc comment.
    pub description: Option<&'static str>,
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
    /// The constraints the decoder checks on the value.
    pub checks: Vec<Check>,
    /// The field's doc comment.
    pub description: Option<&'static str>,
    /// How layered configuration combines the field's values from several layers (the
    /// derive's `merge` attribute).
    pub merge: Merge,
}

/// How layered configuration combines one field's values from several layers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Merge {
    /// The default: maps merge key by key, and anything else (a sequence, a scalar) from
    /// a later layer replaces the earlier value as a whole.
    #[default]
    Replace,
    /// `#[quarry(merge = "append")]` on a sequence field: each layer's items follow the
    /// earlier layers' items.
    Append,
}

impl FieldShape {
    /// The field's key and its aliases.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.name).chain(self.aliases.iter().copied())
    }
}

/// One item of a [`Shape::Tuple`]: its shape and the constraints on it.
#[derive(Clone, Debug)]
pub struct TupleItem {
    /// The item's value.
    pub shape: ShapeOf,
    /// The constraints the decoder checks on it (a tuple struct's field attributes).
    pub checks: Vec<Check>,
}

impl From<ShapeOf> for TupleItem {
    fn from(shape: ShapeOf) -> Self {
        TupleItem {
            shape,
            checks: Vec::new(),
        }
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
    /// The type's doc comment.
    pub description: Option<&'static str>,
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
    /// The constraints on a newtype variant's value.
    pub checks: Vec<Check>,
    /// The variant's doc comment.
    pub description: Option<&'static str>,
}

/// A constraint the decoder checks (the derive's `range`, `len`, `pattern`, `validate`).
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// A number within bounds.
    Range {
        /// The lower bound, if any.
        min: Option<Bound>,
        /// The upper bound, if any.
        max: Option<Bound>,
    },
    /// A string's length in characters, or a sequence's or map's number of items, in
    /// `min..=max`.
    Len {
        /// The fewest accepted.
        min: usize,
        /// The most accepted, if bounded.
        max: Option<usize>,
    },
    /// A string that the regular expression (regex-lite syntax) finds a match in.
    Pattern(&'static str),
    /// A check by the named function, which no schema can express.
    Validate(&'static str),
}

/// One end of a [`Check::Range`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The bound.
    pub value: Number,
    /// True when the bound itself is outside the range.
    pub exclusive: bool,
}

/// A number in a constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// An integer.
    Int(i128),
    /// A float.
    Float(f64),
}

/// A type a `range` constraint can apply to (numbers and their `Option`s), turning the
/// range into a [`Check`]. The derive calls it with the field's type, so the range's
/// literals take that type as they do in the decoder's check.
pub trait RangeShape {
    /// The number type the range is over.
    type Number;
    /// The range as a [`Check::Range`].
    fn range_check<R: RangeBounds<Self::Number>>(range: &R) -> Check;
}

fn bound<T: Copy>(b: RangeBound<&T>, number: impl Fn(T) -> Number) -> Option<Bound> {
    match b {
        RangeBound::Included(v) => Some(Bound {
            value: number(*v),
            exclusive: false,
        }),
        RangeBound::Excluded(v) => Some(Bound {
            value: number(*v),
            exclusive: true,
        }),
        RangeBound::Unbounded => None,
    }
}

macro_rules! range_shape {
    ($variant:ident as $wide:ty: $($ty:ty),*) => {$(
        impl RangeShape for $ty {
            type Number = $ty;
            fn range_check<R: RangeBounds<$ty>>(range: &R) -> Check {
                // Every value fits the wide type but u128's top half, clamped there.
                #[allow(clippy::unnecessary_cast, clippy::cast_possible_wrap)]
                let number = |v: $ty| Number::$variant(v as $wide);
                Check::Range {
                    min: bound(range.start_bound(), number),
                    max: bound(range.end_bound(), number),
                }
            }
        }
    )*};
}

range_shape!(Int as i128: i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, usize);
range_shape!(Float as f64: f32, f64);

impl RangeShape for u128 {
    type Number = u128;
    fn range_check<R: RangeBounds<u128>>(range: &R) -> Check {
        let number = |v: u128| Number::Int(i128::try_from(v).unwrap_or(i128::MAX));
        Check::Range {
            min: bound(range.start_bound(), number),
            max: bound(range.end_bound(), number),
        }
    }
}

impl<T: RangeShape> RangeShape for Option<T> {
    type Number = T::Number;
    fn range_check<R: RangeBounds<T::Number>>(range: &R) -> Check {
        T::range_check(range)
    }
}

/// A `len` constraint as a [`Check::Len`].
pub fn len_check<R: RangeBounds<usize>>(range: &R) -> Check {
    let min = match range.start_bound() {
        RangeBound::Included(&v) => v,
        RangeBound::Excluded(&v) => v.saturating_add(1),
        RangeBound::Unbounded => 0,
    };
    let max = match range.end_bound() {
        RangeBound::Included(&v) => Some(v),
        RangeBound::Excluded(&v) => Some(v.saturating_sub(1)),
        RangeBound::Unbounded => None,
    };
    Check::Len { min, max }
}

impl VariantShape {
    /// The variant's name and its aliases.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.name).chain(self.aliases.iter().copied())
    }
}

/// What a variant holds.
#[derive(Clone, Debug)]
pub enum VariantContent {
    /// Nothing.
    Unit,
    /// One unnamed value.
    Newtype(ShapeOf),
    /// Several unnamed values, as a sequence.
    Tuple(Vec<TupleItem>),
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
            Shape::SpannedKeyMap(_) => f.write_str("SpannedKeyMap(..)"),
            Shape::Struct(s) => write!(f, "Struct({})", s.name),
            Shape::Enum(e) => write!(f, "Enum({})", e.name),
            Shape::Checked(_, checks) => write!(f, "Checked(.., {checks:?})"),
            Shape::Secret(_) => f.write_str("Secret(..)"),
            Shape::Spanned(_) => f.write_str("Spanned(..)"),
        }
    }
}
