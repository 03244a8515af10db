//! From columns to a batch: room for the expected rows, padding, the one slab the small
//! buffers share, and the arrays.

use std::sync::Arc;

use arrow_array::builder::{LargeStringBuilder, StringViewBuilder};
use arrow_array::types::{
    Date32Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    ArrayRef, BooleanArray, ListArray, NullArray, PrimitiveArray, RecordBatch, StructArray,
};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, TimeUnit};

use super::nodes::Store;
use super::{Columns, ROOT};
use crate::buffers::Slab;
use crate::error::Error;

impl Store {
    /// The bytes [`Store::pack`] will take in a batch's slab.
    fn room(&self) -> usize {
        match self {
            Store::Bool { nulls, .. } | Store::Struct { nulls, .. } => nulls.room(),
            Store::Int { values, nulls, ty } => as_kept(ty, || values.room()) + nulls.room(),
            Store::UInt { values, nulls, ty } => as_kept(ty, || values.room()) + nulls.room(),
            Store::Float { values, nulls, ty } => as_kept(ty, || values.room()) + nulls.room(),
            Store::Timestamp { values, nulls, .. } => values.room() + nulls.room(),
            Store::Date32 { values, nulls } => values.room() + nulls.room(),
            Store::List { offsets, nulls, .. } => offsets.room() + nulls.room(),
            Store::Utf8(strings) => strings.room(),
            Store::Null | Store::LargeUtf8(_) | Store::Utf8View(_) => 0,
        }
    }

    /// Copies the small buffers into `slab` (those [`Columns::finish`] hands over as
    /// they are: a narrow type's values are converted, Arrow's builders finish their own).
    fn pack(&mut self, slab: &mut Slab) {
        match self {
            Store::Bool { nulls, .. } | Store::Struct { nulls, .. } => nulls.pack(slab),
            Store::Int { values, nulls, ty } => {
                as_kept(ty, || values.pack(slab));
                nulls.pack(slab);
            }
            Store::UInt { values, nulls, ty } => {
                as_kept(ty, || values.pack(slab));
                nulls.pack(slab);
            }
            Store::Float { values, nulls, ty } => {
                as_kept(ty, || values.pack(slab));
                nulls.pack(slab);
            }
            Store::Timestamp { values, nulls, .. } => {
                values.pack(slab);
                nulls.pack(slab);
            }
            Store::Date32 { values, nulls } => {
                values.pack(slab);
                nulls.pack(slab);
            }
            Store::List { offsets, nulls, .. } => {
                offsets.pack(slab);
                nulls.pack(slab);
            }
            Store::Utf8(strings) => strings.pack(slab),
            Store::Null | Store::LargeUtf8(_) | Store::Utf8View(_) => {}
        }
    }
}

/// `f` of a number column's values if they go to Arrow as they are kept (a 64-bit
/// type, so they may lie in the slab), else the default: [`Columns::finish`] converts
/// a narrower type's values into a new buffer. The one place [`Store::room`] and
/// [`Store::pack`] decide it, so the slab is sized for what is packed.
fn as_kept<R: Default>(ty: &DataType, f: impl FnOnce() -> R) -> R {
    match ty {
        DataType::Int64 | DataType::UInt64 | DataType::Float64 => f(),
        _ => R::default(),
    }
}

impl Columns {
    /// Room for the expected rows in a column about to take its first value of a batch
    /// (a list's items are expected one per row).
    pub(super) fn make_room(&mut self, at: usize) {
        let rows = self.rows_hint;
        if rows == 0 {
            return;
        }
        let node = &mut self.nodes[at];
        let bytes = rows.saturating_mul(node.value_bytes);
        match &mut node.store {
            Store::Bool { values, .. } => values.reserve(rows),
            Store::Int { values, .. } | Store::Timestamp { values, .. } => values.reserve(rows),
            Store::UInt { values, .. } => values.reserve(rows),
            Store::Float { values, .. } => values.reserve(rows),
            Store::Date32 { values, .. } => values.reserve(rows),
            Store::Utf8(strings) => strings.reserve(rows, bytes),
            Store::LargeUtf8(builder) => *builder = LargeStringBuilder::with_capacity(rows, bytes),
            Store::Utf8View(builder) => *builder = StringViewBuilder::with_capacity(rows),
            Store::List { offsets, child, .. } => {
                offsets.reserve(rows);
                let child = *child;
                self.make_room(child);
            }
            Store::Null | Store::Struct { .. } => {}
        }
    }

    /// The rows appended since the last batch, as a batch; the columns start empty again.
    ///
    /// Three passes: every column is padded to its rows, the small buffers of all are
    /// copied end to end into one slab (the batch's arrays share that one allocation),
    /// then the arrays are made, of slices of the slab and of the large buffers.
    pub(crate) fn take_batch(&mut self) -> Result<RecordBatch, Error> {
        let rows = self.nodes[ROOT].len;
        self.pad_within(ROOT, rows);
        let room = self.nodes.iter().map(|node| node.store.room()).sum();
        let mut slab = Slab::with_room(room);
        for node in &mut self.nodes {
            node.store.pack(&mut slab);
        }
        debug_assert_eq!(slab.len(), room, "room() sizes what pack() copies");
        let slab = slab.finish();
        let Store::Struct { children, .. } = &self.nodes[ROOT].store else {
            unreachable!("the root is a struct")
        };
        let children = children.clone();
        let mut arrays = Vec::with_capacity(children.len());
        for child in children {
            arrays.push(self.finish(child, &slab)?);
        }
        self.nodes[ROOT].len = 0;
        self.rows_hint = rows;
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(rows));
        Ok(RecordBatch::try_new_with_options(
            self.schema.clone(),
            arrays,
            &options,
        )?)
    }

    /// Pads `at` with nulls to `len` values, and the fields of every struct within it
    /// to their struct's (fields fall behind when a record leaves them out).
    fn pad_within(&mut self, at: usize, len: usize) {
        if at != ROOT {
            self.pad(at, len);
        }
        let len = self.nodes[at].len;
        match &self.nodes[at].store {
            Store::Struct { children, .. } => {
                for i in 0..children.len() {
                    let Store::Struct { children, .. } = &self.nodes[at].store else {
                        unreachable!()
                    };
                    self.pad_within(children[i], len);
                }
            }
            &Store::List { child, .. } => {
                let items = self.nodes[child].len;
                self.pad_within(child, items);
            }
            _ => {}
        }
    }

    /// The node's values as an array (of slices of `slab` where they were packed into
    /// it, after [`Columns::pad_within`]); the node starts empty again.
    fn finish(&mut self, at: usize, slab: &arrow_buffer::Buffer) -> Result<ArrayRef, Error> {
        let len = std::mem::take(&mut self.nodes[at].len);
        let node = &mut self.nodes[at];
        let bytes = match &node.store {
            Store::Utf8(strings) => Some(strings.bytes_len()),
            Store::LargeUtf8(builder) => Some(builder.values_slice().len()),
            _ => None,
        };
        if let (Some(bytes), 1..) = (bytes, len) {
            node.value_bytes = bytes / len;
        }
        let array: ArrayRef = match &mut self.nodes[at].store {
            Store::Null => Arc::new(NullArray::new(len)),
            Store::Bool { values, nulls } => {
                Arc::new(BooleanArray::new(values.finish(), nulls.finish(slab)))
            }
            Store::Int { values, nulls, ty } => {
                let nulls = nulls.finish(slab);
                let array: ArrayRef = match ty {
                    DataType::Int8 => Arc::new(narrow::<Int8Type, _>(values, nulls)),
                    DataType::Int16 => Arc::new(narrow::<Int16Type, _>(values, nulls)),
                    DataType::Int32 => Arc::new(narrow::<Int32Type, _>(values, nulls)),
                    _ => Arc::new(PrimitiveArray::<Int64Type>::new(values.finish(slab), nulls)),
                };
                values.clear();
                array
            }
            Store::UInt { values, nulls, ty } => {
                let nulls = nulls.finish(slab);
                let array: ArrayRef = match ty {
                    DataType::UInt8 => Arc::new(narrow::<UInt8Type, _>(values, nulls)),
                    DataType::UInt16 => Arc::new(narrow::<UInt16Type, _>(values, nulls)),
                    DataType::UInt32 => Arc::new(narrow::<UInt32Type, _>(values, nulls)),
                    _ => Arc::new(PrimitiveArray::<UInt64Type>::new(
                        values.finish(slab),
                        nulls,
                    )),
                };
                values.clear();
                array
            }
            Store::Float { values, nulls, ty } => {
                let nulls = nulls.finish(slab);
                let array: ArrayRef = match ty {
                    DataType::Float32 => Arc::new(PrimitiveArray::<Float32Type>::new(
                        values.iter().map(|&v| v as f32).collect(),
                        nulls,
                    )),
                    _ => Arc::new(PrimitiveArray::<Float64Type>::new(
                        values.finish(slab),
                        nulls,
                    )),
                };
                values.clear();
                array
            }
            Store::Utf8(strings) => Arc::new(strings.finish(slab)),
            Store::LargeUtf8(builder) => Arc::new(builder.finish()),
            Store::Utf8View(builder) => Arc::new(builder.finish()),
            Store::Timestamp {
                values,
                nulls,
                unit,
                tz,
                ..
            } => {
                let values = values.finish(slab);
                let nulls = nulls.finish(slab);
                let tz = tz.clone();
                match unit {
                    TimeUnit::Second => Arc::new(
                        PrimitiveArray::<TimestampSecondType>::new(values, nulls)
                            .with_timezone_opt(tz),
                    ),
                    TimeUnit::Millisecond => Arc::new(
                        PrimitiveArray::<TimestampMillisecondType>::new(values, nulls)
                            .with_timezone_opt(tz),
                    ),
                    TimeUnit::Microsecond => Arc::new(
                        PrimitiveArray::<TimestampMicrosecondType>::new(values, nulls)
                            .with_timezone_opt(tz),
                    ),
                    TimeUnit::Nanosecond => Arc::new(
                        PrimitiveArray::<TimestampNanosecondType>::new(values, nulls)
                            .with_timezone_opt(tz),
                    ),
                }
            }
            Store::Date32 { values, nulls } => Arc::new(PrimitiveArray::<Date32Type>::new(
                values.finish(slab),
                nulls.finish(slab),
            )),
            Store::List {
                offsets,
                nulls,
                child,
                field,
            } => {
                let list_offsets = offsets.finish(slab);
                offsets.push(0);
                let nulls = nulls.finish(slab);
                let (child, field) = (*child, field.clone());
                let values = self.finish(child, slab)?;
                Arc::new(ListArray::try_new(
                    field,
                    OffsetBuffer::new(list_offsets),
                    values,
                    nulls,
                )?)
            }
            Store::Struct {
                nulls,
                children,
                fields,
                ..
            } => {
                let nulls = nulls.finish(slab);
                let (children, fields) = (children.clone(), fields.clone());
                let mut arrays = Vec::with_capacity(children.len());
                for child in children {
                    arrays.push(self.finish(child, slab)?);
                }
                if fields.is_empty() {
                    Arc::new(StructArray::new_empty_fields(len, nulls))
                } else {
                    Arc::new(StructArray::try_new(fields, arrays, nulls)?)
                }
            }
        };
        Ok(array)
    }
}

/// A narrow integer array from values already checked to fit.
fn narrow<T, W>(values: &[W], nulls: Option<arrow_buffer::NullBuffer>) -> PrimitiveArray<T>
where
    T: arrow_array::ArrowPrimitiveType,
    W: Copy,
    T::Native: TryFrom<W> + Default,
{
    let values: Vec<T::Native> = values
        .iter()
        .copied()
        .map(|v| T::Native::try_from(v).unwrap_or_default())
        .collect();
    PrimitiveArray::new(ScalarBuffer::from(values), nulls)
}
