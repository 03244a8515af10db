//! A value into its column's type: numbers range-checked and converted, strings parsed
//! into numbers, timestamps and dates, and what does not fit refused (or, leniently, a
//! null).

use arrow_array::types::{Date32Type, Float64Type, Int64Type, UInt64Type};
use arrow_cast::parse::{string_to_datetime, Parser};
use arrow_schema::{DataType, TimeUnit};

use super::nodes::Store;
use super::Columns;
use crate::sink::{Misfit, Num};

impl Columns {
    /// A value of kind `found` that `at`'s column cannot hold: an error, or under the
    /// lenient option a null.
    #[cold]
    pub(super) fn misfit(&mut self, at: usize, found: &str) -> Result<(), Misfit> {
        if self.lenient && self.nodes[at].nullable {
            self.append_null(at);
            return Ok(());
        }
        Err(format!(
            "field `{}`: expected {}, found {found}",
            self.path(at),
            self.type_name(at)
        )
        .into())
    }

    fn type_name(&self, at: usize) -> String {
        match &self.nodes[at].store {
            Store::Null => "null".into(),
            Store::Bool { .. } => "a boolean".into(),
            Store::Int { ty, .. } | Store::UInt { ty, .. } => format!("an integer ({ty})"),
            Store::Float { .. } => "a number".into(),
            Store::Utf8(_) | Store::LargeUtf8(_) | Store::Utf8View(_) => "a string".into(),
            Store::Timestamp { .. } => "a timestamp".into(),
            Store::Date32 { .. } => "a date".into(),
            Store::List { .. } => "a list".into(),
            Store::Struct { .. } => "an object".into(),
        }
    }

    pub(super) fn put_bool(&mut self, at: usize, value: bool) -> Result<(), Misfit> {
        match &mut self.nodes[at].store {
            Store::Bool { values, nulls } => {
                values.append(value);
                nulls.append_non_null();
                self.nodes[at].len += 1;
                Ok(())
            }
            _ => {
                let text = if value { "true" } else { "false" };
                if self.is_text(at) {
                    return self.put_str(at, text);
                }
                self.misfit(at, text)
            }
        }
    }

    /// Whether `at` is a string column: numbers and booleans go there as their text, so
    /// that a field inference widened to `Utf8` (mixed scalars) reads its own values,
    /// as arrow-json's `coerce_primitive` reads them.
    fn is_text(&self, at: usize) -> bool {
        matches!(
            self.nodes[at].store,
            Store::Utf8(_) | Store::LargeUtf8(_) | Store::Utf8View(_)
        )
    }

    #[inline]
    pub(super) fn put_num(&mut self, at: usize, value: Num) -> Result<(), Misfit> {
        match value {
            Num::I64(v) => self.put_i64(at, v),
            Num::U64(v) => match &mut self.nodes[at].store {
                Store::UInt { values, nulls, ty } if fits_unsigned(ty, v) => {
                    values.push(v);
                    nulls.append_non_null();
                    self.nodes[at].len += 1;
                    Ok(())
                }
                Store::Utf8(_) | Store::LargeUtf8(_) | Store::Utf8View(_) => {
                    self.put_str(at, &v.to_string())
                }
                _ => self.put_f64(at, v as f64),
            },
            Num::F64(v) => self.put_f64(at, v),
        }
    }

    /// An explicit null for `at`.
    pub(super) fn put_null(&mut self, at: usize) -> Result<(), Misfit> {
        if !self.nodes[at].nullable {
            return Err(format!("field `{}` is null but not nullable", self.path(at)).into());
        }
        self.append_null(at);
        Ok(())
    }

    pub(super) fn put_i64(&mut self, at: usize, value: i64) -> Result<(), Misfit> {
        let node = &mut self.nodes[at];
        match &mut node.store {
            Store::Int { values, nulls, ty } if fits_signed(ty, value) => {
                values.push(value);
                nulls.append_non_null();
            }
            Store::UInt { values, nulls, ty } if value >= 0 && fits_unsigned(ty, value as u64) => {
                values.push(value as u64);
                nulls.append_non_null();
            }
            Store::Float { values, nulls, .. } => {
                values.push(value as f64);
                nulls.append_non_null();
            }
            Store::Timestamp { values, nulls, .. } => {
                values.push(value);
                nulls.append_non_null();
            }
            Store::Date32 { values, nulls } if i32::try_from(value).is_ok() => {
                values.push(value as i32);
                nulls.append_non_null();
            }
            Store::Utf8(_) | Store::LargeUtf8(_) | Store::Utf8View(_) => {
                return self.put_str(at, &value.to_string())
            }
            _ => return self.misfit(at, "an integer"),
        }
        self.nodes[at].len += 1;
        Ok(())
    }

    /// A float for `at`: inline for a float column, into an integer column out of line.
    #[inline]
    pub(super) fn put_f64(&mut self, at: usize, value: f64) -> Result<(), Misfit> {
        let node = &mut self.nodes[at];
        if let Store::Float { values, nulls, .. } = &mut node.store {
            values.push(value);
            nulls.append_non_null();
            node.len += 1;
            return Ok(());
        }
        self.put_f64_other(at, value)
    }

    #[inline(never)]
    fn put_f64_other(&mut self, at: usize, value: f64) -> Result<(), Misfit> {
        let node = &mut self.nodes[at];
        match &mut node.store {
            // As arrow-json: a float into an integer column is truncated when it fits.
            Store::Int { values, nulls, ty }
                if value.is_finite()
                    && value.trunc() >= i64::MIN as f64
                    && value.trunc() < -(i64::MIN as f64)
                    && fits_signed(ty, value as i64) =>
            {
                values.push(value as i64);
                nulls.append_non_null();
            }
            Store::UInt { values, nulls, ty }
                if value.is_finite()
                    && value.trunc() >= 0.0
                    && value.trunc() < u64::MAX as f64
                    && fits_unsigned(ty, value as u64) =>
            {
                values.push(value as u64);
                nulls.append_non_null();
            }
            Store::Utf8(_) | Store::LargeUtf8(_) | Store::Utf8View(_) => {
                return self.put_str(at, &value.to_string())
            }
            _ => return self.misfit(at, "a number"),
        }
        self.nodes[at].len += 1;
        Ok(())
    }

    /// A string for `at`: inline for the usual string column, the rest (other string
    /// layouts, and strings converted to numbers, timestamps and dates) out of line.
    #[inline]
    pub(super) fn put_str(&mut self, at: usize, value: &str) -> Result<(), Misfit> {
        let node = &mut self.nodes[at];
        if let Store::Utf8(strings) = &mut node.store {
            if strings.append_value(value).is_ok() {
                node.len += 1;
                return Ok(());
            }
        }
        self.put_str_other(at, value)
    }

    #[inline(never)]
    fn put_str_other(&mut self, at: usize, value: &str) -> Result<(), Misfit> {
        let node = &mut self.nodes[at];
        let ok = match &mut node.store {
            Store::Utf8(strings) => {
                if strings.append_value(value).is_err() {
                    return Err(format!(
                        "field `{}`: over 2 GiB of strings in one batch (make batches \
                         smaller, or the column LargeUtf8)",
                        self.path(at)
                    )
                    .into());
                }
                true
            }
            Store::LargeUtf8(builder) => {
                builder.append_value(value);
                true
            }
            Store::Utf8View(builder) => {
                builder.append_value(value);
                true
            }
            Store::Int { values, nulls, ty } => match Int64Type::parse(value) {
                Some(v) if fits_signed(ty, v) => {
                    values.push(v);
                    nulls.append_non_null();
                    true
                }
                _ => false,
            },
            Store::UInt { values, nulls, ty } => match UInt64Type::parse(value) {
                Some(v) if fits_unsigned(ty, v) => {
                    values.push(v);
                    nulls.append_non_null();
                    true
                }
                _ => false,
            },
            Store::Float { values, nulls, .. } => match Float64Type::parse(value) {
                Some(v) => {
                    values.push(v);
                    nulls.append_non_null();
                    true
                }
                None => false,
            },
            Store::Timestamp {
                values,
                nulls,
                unit,
                zone,
                ..
            } => match string_to_datetime(zone, value)
                .ok()
                .and_then(|t| match unit {
                    TimeUnit::Second => Some(t.timestamp()),
                    TimeUnit::Millisecond => Some(t.timestamp_millis()),
                    TimeUnit::Microsecond => Some(t.timestamp_micros()),
                    TimeUnit::Nanosecond => t.timestamp_nanos_opt(),
                }) {
                Some(v) => {
                    values.push(v);
                    nulls.append_non_null();
                    true
                }
                None => false,
            },
            Store::Date32 { values, nulls } => match Date32Type::parse(value) {
                Some(v) => {
                    values.push(v);
                    nulls.append_non_null();
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !ok {
            let found = if value.len() <= 40 {
                format!("{value:?}")
            } else {
                "a string".to_owned()
            };
            return self.misfit(at, &found);
        }
        self.nodes[at].len += 1;
        Ok(())
    }
}

fn fits_signed(ty: &DataType, value: i64) -> bool {
    match ty {
        DataType::Int8 => i8::try_from(value).is_ok(),
        DataType::Int16 => i16::try_from(value).is_ok(),
        DataType::Int32 => i32::try_from(value).is_ok(),
        _ => true,
    }
}

fn fits_unsigned(ty: &DataType, value: u64) -> bool {
    match ty {
        DataType::UInt8 => u8::try_from(value).is_ok(),
        DataType::UInt16 => u16::try_from(value).is_ok(),
        DataType::UInt32 => u32::try_from(value).is_ok(),
        _ => true,
    }
}
