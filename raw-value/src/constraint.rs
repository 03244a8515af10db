//! Field constraints the derive checks during decode (`range`, `len`, `pattern`,
//! `validate`). Each check returns the error to record at the field's path.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Display;
use std::ops::RangeBounds;

use crate::{DecodeErrorKind, DecodeErrors};

/// A value a `range` constraint applies to: numbers, and `Option`s of them (`None` passes).
pub trait RangeValue<R> {
    /// `Ok` when inside `range`; otherwise `expected integer in {text}, found {value}`.
    fn check_range(&self, range: &R, text: &str) -> Result<(), DecodeErrors>;
}

macro_rules! range_value {
    ($kind:literal: $($ty:ty),*) => {$(
        impl<R: RangeBounds<$ty>> RangeValue<R> for $ty {
            fn check_range(&self, range: &R, text: &str) -> Result<(), DecodeErrors> {
                if range.contains(self) {
                    return Ok(());
                }
                Err(DecodeErrors::new(DecodeErrorKind::InvalidValue {
                    expected: format!("{} in {text}", $kind),
                    found: self.to_string(),
                }))
            }
        }
    )*};
}

range_value!("integer": i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
range_value!("number": f32, f64);

impl<T: RangeValue<R>, R> RangeValue<R> for Option<T> {
    fn check_range(&self, range: &R, text: &str) -> Result<(), DecodeErrors> {
        self.as_ref().map_or(Ok(()), |v| v.check_range(range, text))
    }
}

/// A value a `len` constraint applies to: strings (length in characters), sequences and
/// maps (number of items), and `Option`s of them (`None` passes).
pub trait LenValue {
    /// The length, or `None` for an absent optional value.
    fn constraint_len(&self) -> Option<usize>;
}

impl LenValue for str {
    fn constraint_len(&self) -> Option<usize> {
        Some(self.chars().count())
    }
}
impl LenValue for String {
    fn constraint_len(&self) -> Option<usize> {
        self.as_str().constraint_len()
    }
}
impl LenValue for std::borrow::Cow<'_, str> {
    fn constraint_len(&self) -> Option<usize> {
        (**self).constraint_len()
    }
}
impl<T: LenValue + ?Sized> LenValue for &T {
    fn constraint_len(&self) -> Option<usize> {
        (**self).constraint_len()
    }
}
impl<T> LenValue for Vec<T> {
    fn constraint_len(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<K, V, S> LenValue for HashMap<K, V, S> {
    fn constraint_len(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<K, V> LenValue for BTreeMap<K, V> {
    fn constraint_len(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<T: LenValue> LenValue for Option<T> {
    fn constraint_len(&self) -> Option<usize> {
        self.as_ref().and_then(LenValue::constraint_len)
    }
}

/// Checks a `len` constraint: `expected length in {text}, found length {n}`.
pub fn check_len<T: LenValue + ?Sized, R: RangeBounds<usize>>(
    value: &T,
    range: &R,
    text: &str,
) -> Result<(), DecodeErrors> {
    match value.constraint_len() {
        Some(n) if !range.contains(&n) => Err(DecodeErrors::new(DecodeErrorKind::InvalidValue {
            expected: format!("length in {text}"),
            found: format!("length {n}"),
        })),
        _ => Ok(()),
    }
}

/// A value a `pattern` constraint applies to: strings and `Option`s of them.
pub trait PatternValue {
    /// The text to match, or `None` for an absent optional value.
    fn constraint_text(&self) -> Option<&str>;
}

impl PatternValue for str {
    fn constraint_text(&self) -> Option<&str> {
        Some(self)
    }
}
impl PatternValue for String {
    fn constraint_text(&self) -> Option<&str> {
        Some(self)
    }
}
impl PatternValue for std::borrow::Cow<'_, str> {
    fn constraint_text(&self) -> Option<&str> {
        Some(self)
    }
}
impl<T: PatternValue + ?Sized> PatternValue for &T {
    fn constraint_text(&self) -> Option<&str> {
        (**self).constraint_text()
    }
}
impl<T: PatternValue> PatternValue for Option<T> {
    fn constraint_text(&self) -> Option<&str> {
        self.as_ref().and_then(PatternValue::constraint_text)
    }
}

/// Checks a `pattern` constraint with `is_match`: `expected a string matching `{pattern}``.
pub fn check_pattern<T: PatternValue + ?Sized>(
    value: &T,
    is_match: impl FnOnce(&str) -> bool,
    pattern: &str,
) -> Result<(), DecodeErrors> {
    match value.constraint_text() {
        Some(text) if !is_match(text) => Err(DecodeErrors::new(DecodeErrorKind::InvalidValue {
            expected: format!("a string matching `{pattern}`"),
            found: crate::describe(&crate::RawValue::String(text.into())),
        })),
        _ => Ok(()),
    }
}

/// Checks a `validate = path` constraint: the function's error message becomes the error.
pub fn check_with<T: ?Sized, E: Display>(
    value: &T,
    validate: impl FnOnce(&T) -> Result<(), E>,
) -> Result<(), DecodeErrors> {
    validate(value).map_err(|e| DecodeErrors::new(DecodeErrorKind::Custom(e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_report_what_they_expected() {
        assert!(80u16.check_range(&(1..=65535), "1..=65535").is_ok());
        let err = 0u16.check_range(&(1..=65535), "1..=65535").unwrap_err();
        assert_eq!(err.to_string(), "expected integer in 1..=65535, found 0");
        assert!(None::<u16>.check_range(&(1..=2), "1..=2").is_ok());
        assert_eq!(
            1.5f64
                .check_range(&(0.0..1.0), "0.0..1.0")
                .unwrap_err()
                .to_string(),
            "expected number in 0.0..1.0, found 1.5"
        );
        assert_eq!(
            check_len("héllo", &(1..=4), "1..=4")
                .unwrap_err()
                .to_string(),
            "expected length in 1..=4, found length 5"
        );
        assert!(check_len(&vec![1, 2], &(1..=4), "1..=4").is_ok());
        let err = check_pattern(
            "ABC",
            |s| s.chars().all(|c| c.is_ascii_lowercase()),
            "^[a-z]+$",
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected a string matching `^[a-z]+$`, found string \"ABC\""
        );
        let err = check_with(&3, |v: &i32| {
            if *v % 2 == 0 {
                Ok(())
            } else {
                Err("must be even")
            }
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "must be even");
    }
}
