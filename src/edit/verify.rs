//! The re-parse check: the value an edit must leave behind, worked out on the value
//! itself, and the edited text read again to compare with it.

use std::borrow::Cow;

use super::{EditError, Op};
use crate::{Format, RawValue, Segment, ValuePath};

/// The value of `text` read again, through the struct door (the quick way).
pub(super) fn reread(
    text: &str,
    format: Format,
    index: usize,
) -> Result<RawValue<'static>, EditError> {
    let bytes = text.as_bytes();
    let value = match format {
        Format::Yaml => crate::yaml::parse_stream(bytes)
            .map_err(|e| EditError::Parse(e.to_string()))?
            .into_iter()
            .nth(index)
            .ok_or_else(|| EditError::Parse(format!("the stream has no document {index}")))?,
        _ => crate::parse_raw(bytes, format).map_err(|e| EditError::Parse(e.to_string()))?,
    };
    Ok(value.into_owned())
}

/// Equal values (a NaN equal to a NaN), maps compared by key whatever their order (an entry inserted into a
/// TOML section sits before the sub-tables that follow it).
pub(super) fn same_value(a: &RawValue<'_>, b: &RawValue<'_>) -> bool {
    match (a, b) {
        (RawValue::Map(x), RawValue::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.iter()
                        .rev()
                        .find(|(k2, _)| k2 == k)
                        .is_some_and(|(_, v2)| same_value(v, v2))
                })
        }
        (RawValue::Seq(x), RawValue::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_value(v, w))
        }
        // A NaN left as it was is the same NaN.
        (RawValue::Float(x), RawValue::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    }
}

pub(super) fn value_at<'v>(
    value: &'v RawValue<'static>,
    path: &[Segment],
) -> Option<&'v RawValue<'static>> {
    let mut at = value;
    for segment in path {
        at = match (at, segment) {
            (RawValue::Map(entries), Segment::Key(k)) => {
                &entries.iter().rev().find(|(key, _)| key == k)?.1
            }
            (RawValue::Seq(items), Segment::Index(i)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// The value under `segment` (the last of a repeated key, as decoding reads it).
fn child_mut<'v>(
    parent: &'v mut RawValue<'static>,
    segment: &Segment,
) -> Option<&'v mut RawValue<'static>> {
    match (parent, segment) {
        (RawValue::Map(entries), Segment::Key(k)) => {
            Some(&mut entries.iter_mut().rev().find(|(key, _)| key == k)?.1)
        }
        (RawValue::Seq(items), Segment::Index(i)) => items.get_mut(*i),
        _ => None,
    }
}

/// The edit applied to the value: what the text must read as afterwards.
pub(super) fn apply_to_value(
    value: &mut RawValue<'static>,
    path: &[Segment],
    op: &Op,
    whole: &ValuePath,
) -> Result<(), EditError> {
    let not_found = || EditError::NotFound(whole.to_string());
    let Some((last, parents)) = path.split_last() else {
        return match op {
            Op::Set(v) => {
                *value = v.clone();
                Ok(())
            }
            Op::Push(v) => match value {
                RawValue::Seq(items) => {
                    items.push(v.clone());
                    Ok(())
                }
                _ => Err(EditError::WrongKind {
                    path: whole.to_string(),
                    expected: "a sequence",
                }),
            },
            _ => Err(EditError::CannotPlace(
                "the whole document cannot be inserted or removed".into(),
            )),
        };
    };
    let mut parent = value;
    for segment in parents {
        parent = child_mut(parent, segment).ok_or_else(not_found)?;
    }
    match (parent, last, op) {
        (RawValue::Map(entries), Segment::Key(k), Op::Insert(v)) => {
            if entries.iter().any(|(key, _)| key == k) {
                return Err(EditError::Exists(whole.to_string()));
            }
            entries.push((Cow::Owned(k.clone()), v.clone()));
        }
        (_, _, Op::Insert(_)) => {
            return Err(EditError::WrongKind {
                path: whole.to_string(),
                expected: "a new key of a map",
            })
        }
        (RawValue::Map(entries), Segment::Key(k), Op::Remove) => {
            let before = entries.len();
            entries.retain(|(key, _)| key != k);
            if entries.len() == before {
                return Err(not_found());
            }
        }
        (RawValue::Seq(items), Segment::Index(i), Op::Remove) => {
            if *i >= items.len() {
                return Err(not_found());
            }
            items.remove(*i);
        }
        (parent, last, Op::Set(v)) => {
            let slot = child_mut(parent, last).ok_or_else(not_found)?;
            *slot = v.clone();
        }
        (parent, last, Op::Push(v)) => {
            let slot = child_mut(parent, last).ok_or_else(not_found)?;
            match slot {
                RawValue::Seq(items) => items.push(v.clone()),
                _ => {
                    return Err(EditError::WrongKind {
                        path: whole.to_string(),
                        expected: "a sequence",
                    })
                }
            }
        }
        _ => return Err(not_found()),
    }
    Ok(())
}
