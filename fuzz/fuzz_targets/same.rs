//! Value equality for the fuzz targets: the same shape, in order, and leaves equal by
//! a rule of the target's own (NaN equals NaN; dates within a binary plist's precision;
//! bytes equal to their base64 text after a YAML round trip). Each target uses a part.
#![allow(dead_code)]

use quarry_raw_value::RawValue;

/// `a` and `b` have the same shape and entries in order, and every pair of leaves (and
/// any pair of different kinds) is equal by `leaf`: `Some(verdict)` decides, `None`
/// falls back to `==`.
pub fn same_by(
    a: &RawValue<'_>,
    b: &RawValue<'_>,
    leaf: &dyn Fn(&RawValue<'_>, &RawValue<'_>) -> Option<bool>,
) -> bool {
    match (a, b) {
        (RawValue::Seq(x), RawValue::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_by(a, b, leaf))
        }
        (RawValue::Map(x), RawValue::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same_by(a, b, leaf))
        }
        _ => leaf(a, b).unwrap_or_else(|| a == b),
    }
}

/// NaN equals NaN (and floats compare by their bits otherwise).
pub fn floats(a: &RawValue<'_>, b: &RawValue<'_>) -> Option<bool> {
    match (a, b) {
        (RawValue::Float(x), RawValue::Float(y)) => {
            Some(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
        }
        _ => None,
    }
}
