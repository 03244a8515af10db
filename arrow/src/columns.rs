//! The sink that appends every value to its Arrow column as it is read.
//!
//! The schema becomes a flat list of nodes (one per field, children by index). A stack of
//! open structs and lists says where the next value goes; a struct finds a key's field by
//! first trying the one after the field matched last, so records that keep their fields
//! in one order cost one comparison per key. Each node counts its values, which is how a
//! struct sees that a field is given twice. A missing field costs nothing when its record
//! ends: a struct's children may fall behind it, and are padded with nulls in one step
//! when next written or when the batch is taken (wide, sparse records stay cheap).
//! A column makes room for the rows a batch is expected to hold when it is first
//! written in that batch ([`Columns::expect_rows`]), so it is not grown by doubling
//! from empty; columns that are never written take no room but their nulls.

use std::sync::Arc;

use arrow_array::builder::{LargeStringBuilder, StringViewBuilder};
use arrow_array::timezone::Tz;
use arrow_array::types::{
    Date32Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    ArrayRef, BooleanArray, ListArray, NullArray, PrimitiveArray, RecordBatch, StructArray,
};
use arrow_buffer::{BooleanBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_cast::parse::{string_to_datetime, Parser};
use arrow_schema::{DataType, Field, FieldRef, Fields, SchemaRef, TimeUnit};
use quarry_formats::common::same_bytes;
use quarry_raw_value::{Datetime, Fallback, GuessedKey, PlainKeys, PullSource, ValueKind};

use crate::buffers::{Nulls, Slab, Strings, Values};
use crate::error::Error;
use crate::sink::{Misfit, Num, Sink};

/// The root node: the record itself, whose fields are the batch's columns.
const ROOT: usize = 0;

/// Where the next value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Node(usize),
    /// A field the schema does not have, or the inside of a value that did not fit.
    Skip,
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    /// An open struct at `node`, filling its row `row`; `prev` is the field its last key
    /// named (the field count at the start, one more after an unknown key).
    Struct {
        node: usize,
        row: usize,
        prev: usize,
    },
    /// An open list at `node`; `single` when it wraps one value that is not a list
    /// (XML's repeatable elements), to be closed after that value.
    List { node: usize, single: bool },
    /// An open container whose values go nowhere.
    Skip,
}

/// One field of the schema and the values appended to it so far.
struct Node {
    /// The node this one is a field or the item of (the root is its own).
    parent: usize,
    /// Which field of its parent it is (a list's item: 0).
    slot: usize,
    nullable: bool,
    len: usize,
    /// For a string column, the bytes per value of the last batch: the room its next
    /// batch starts with.
    value_bytes: usize,
    store: Store,
}

/// The bytes per string value a column starts with before it has seen a batch.
const VALUE_BYTES: usize = 16;

enum Store {
    Null,
    Bool {
        values: BooleanBufferBuilder,
        nulls: Nulls,
    },
    /// Every signed integer type, range-checked on the way in.
    Int {
        values: Values<i64>,
        nulls: Nulls,
        ty: DataType,
    },
    /// Every unsigned integer type, range-checked on the way in.
    UInt {
        values: Values<u64>,
        nulls: Nulls,
        ty: DataType,
    },
    Float {
        values: Values<f64>,
        nulls: Nulls,
        ty: DataType,
    },
    Utf8(Strings),
    LargeUtf8(LargeStringBuilder),
    Utf8View(StringViewBuilder),
    Timestamp {
        values: Values<i64>,
        nulls: Nulls,
        unit: TimeUnit,
        tz: Option<Arc<str>>,
        zone: Tz,
    },
    Date32 {
        values: Values<i32>,
        nulls: Nulls,
    },
    List {
        offsets: Values<i32>,
        nulls: Nulls,
        child: usize,
        field: FieldRef,
    },
    Struct {
        nulls: Nulls,
        children: Vec<usize>,
        /// The children that may not be null (a record must give them).
        required: Vec<usize>,
        fields: Fields,
        /// Where the fields' names start in [`Columns::keys`].
        keys: usize,
        /// For each field (then the start of an object, then an unknown key), what the
        /// key after it was last time: records of one source mostly keep their keys in
        /// one order, whatever the schema's order, so that is tried first.
        next: Vec<Slot>,
    },
}

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

/// What a key of an object turned out to be.
#[derive(Debug, Clone)]
enum Slot {
    /// The field at `index` of its struct, node `child`.
    Field {
        index: u32,
        child: u32,
    },
    Unknown(Box<str>),
}

/// Appends records to the columns of `schema`; [`Columns::take_batch`] hands them over.
pub(crate) struct Columns {
    schema: SchemaRef,
    nodes: Vec<Node>,
    frames: Vec<Frame>,
    pending: Option<Target>,
    lenient: bool,
    singles_as_lists: bool,
    records: usize,
    /// The rows a batch is expected to hold: each column makes room for them when it is
    /// first written in a batch (0: columns grow as they go).
    rows_hint: usize,
    /// Every struct's field names, end to end (each struct's from its `keys`), each
    /// checked once for whether the direct path may compare it with the input in place.
    keys: PlainKeys,
}

impl Columns {
    /// Columns for `schema`; an error if it has a type this crate cannot fill.
    pub(crate) fn new(schema: SchemaRef, lenient: bool) -> Result<Self, Error> {
        let mut columns = Columns {
            schema: schema.clone(),
            nodes: Vec::new(),
            frames: Vec::new(),
            pending: None,
            lenient,
            singles_as_lists: false,
            records: 0,
            rows_hint: 0,
            keys: PlainKeys::default(),
        };
        columns.nodes.reserve_exact(1 + node_count(schema.fields()));
        let (names, bytes) = name_count(schema.fields());
        columns.keys.reserve(names, bytes);
        columns.nodes.push(Node {
            parent: ROOT,
            slot: 0,
            nullable: false,
            len: 0,
            value_bytes: VALUE_BYTES,
            store: Store::Null,
        });
        let keys = columns.keys.len();
        let children = columns.add_fields(schema.fields(), ROOT)?;
        let required = columns.required(&children);
        columns.nodes[ROOT].store = Store::Struct {
            nulls: Nulls::default(),
            required,
            children,
            fields: schema.fields().clone(),
            keys,
            next: vec![Slot::Unknown("".into()); schema.fields().len() + 2],
        };
        Ok(columns)
    }

    /// The nodes of `fields` under `parent`; their names go to [`Columns::keys`] first,
    /// so a struct's names lie together.
    fn add_fields(&mut self, fields: &Fields, parent: usize) -> Result<Vec<usize>, Error> {
        for field in fields.iter() {
            self.keys.push(field.name());
        }
        let mut children = Vec::with_capacity(fields.len());
        for (slot, field) in fields.iter().enumerate() {
            children.push(self.add(field, parent, slot)?);
        }
        Ok(children)
    }

    fn required(&self, children: &[usize]) -> Vec<usize> {
        children
            .iter()
            .copied()
            .filter(|&c| !self.nodes[c].nullable)
            .collect()
    }

    /// The path of field `field` under `parent` (`a.b`), for errors.
    fn child_path(&self, parent: usize, field: &Field) -> String {
        match parent {
            ROOT => field.name().clone(),
            _ => format!("{}.{}", self.path(parent), field.name()),
        }
    }

    /// The path of a node from the record (`a.b`, `a[]`), made only for errors.
    #[cold]
    fn path(&self, at: usize) -> String {
        let mut parts = Vec::new();
        let mut at = at;
        while at != ROOT {
            let node = &self.nodes[at];
            match &self.nodes[node.parent].store {
                Store::Struct { fields, .. } => {
                    parts.push(fields.get(node.slot).map_or("", |f| f.name().as_str()));
                }
                _ => parts.push("[]"),
            }
            at = node.parent;
        }
        let mut path = String::new();
        for part in parts.iter().rev() {
            if !path.is_empty() && *part != "[]" {
                path.push('.');
            }
            path.push_str(part);
        }
        path
    }

    fn add(&mut self, field: &Field, parent: usize, slot: usize) -> Result<usize, Error> {
        let nulls = || Nulls::default();
        let store = match field.data_type() {
            DataType::Null => Store::Null,
            DataType::Boolean => Store::Bool {
                values: BooleanBufferBuilder::new(0),
                nulls: nulls(),
            },
            ty @ (DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64) => {
                Store::Int {
                    values: Values::default(),
                    nulls: nulls(),
                    ty: ty.clone(),
                }
            }
            ty @ (DataType::UInt8 | DataType::UInt16 | DataType::UInt32 | DataType::UInt64) => {
                Store::UInt {
                    values: Values::default(),
                    nulls: nulls(),
                    ty: ty.clone(),
                }
            }
            ty @ (DataType::Float32 | DataType::Float64) => Store::Float {
                values: Values::default(),
                nulls: nulls(),
                ty: ty.clone(),
            },
            DataType::Utf8 => Store::Utf8(Strings::default()),
            DataType::LargeUtf8 => Store::LargeUtf8(LargeStringBuilder::with_capacity(0, 0)),
            DataType::Utf8View => Store::Utf8View(StringViewBuilder::new()),
            DataType::Timestamp(unit, tz) => {
                let zone = tz
                    .as_deref()
                    .unwrap_or("+00:00")
                    .parse::<Tz>()
                    .map_err(|e| {
                        let path = self.child_path(parent, field);
                        Error::new(format!("field `{path}`: time zone {tz:?}: {e}"))
                    })?;
                Store::Timestamp {
                    values: Values::default(),
                    nulls: nulls(),
                    unit: *unit,
                    tz: tz.clone(),
                    zone,
                }
            }
            DataType::Date32 => Store::Date32 {
                values: Values::default(),
                nulls: nulls(),
            },
            DataType::List(item) => {
                let at = self.reserve(field, parent, slot);
                let child = self.add(item, at, 0)?;
                let mut offsets = Values::default();
                offsets.push(0);
                self.nodes[at].store = Store::List {
                    offsets,
                    nulls: nulls(),
                    child,
                    field: item.clone(),
                };
                return Ok(at);
            }
            DataType::Struct(fields) => {
                let at = self.reserve(field, parent, slot);
                let keys = self.keys.len();
                let children = self.add_fields(fields, at)?;
                self.nodes[at].store = Store::Struct {
                    nulls: nulls(),
                    required: self.required(&children),
                    children,
                    fields: fields.clone(),
                    keys,
                    next: vec![Slot::Unknown("".into()); fields.len() + 2],
                };
                return Ok(at);
            }
            other => {
                let path = self.child_path(parent, field);
                return Err(Error::new(format!(
                    "field `{path}`: quarry-arrow cannot fill a {other} column"
                )));
            }
        };
        self.nodes.push(Node {
            parent,
            slot,
            nullable: field.is_nullable(),
            len: 0,
            value_bytes: VALUE_BYTES,
            store,
        });
        Ok(self.nodes.len() - 1)
    }

    /// A node whose store is set once its children exist.
    fn reserve(&mut self, field: &Field, parent: usize, slot: usize) -> usize {
        self.nodes.push(Node {
            parent,
            slot,
            nullable: field.is_nullable(),
            len: 0,
            value_bytes: VALUE_BYTES,
            store: Store::Null,
        });
        self.nodes.len() - 1
    }

    /// Lets a value that is not a list stand for a list of one in a list column, as
    /// quarry's XML mapping reads a lone child element where several may stand.
    pub(crate) fn singles_as_lists(&mut self) {
        self.singles_as_lists = true;
    }

    /// Expects batches of about `rows` rows: a column makes room for that many values
    /// when it is first written in a batch, instead of growing from empty. Each batch
    /// taken sets the hint to its own row count.
    pub(crate) fn expect_rows(&mut self, rows: usize) {
        self.rows_hint = rows;
    }

    /// Room for the expected rows in a column about to take its first value of a batch
    /// (a list's items are expected one per row).
    fn make_room(&mut self, at: usize) {
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

    /// Counts records from `records` on (for error messages), as a reader that already
    /// read that many would.
    pub(crate) fn count_records_from(&mut self, records: usize) {
        self.records = records;
    }

    /// Rows appended since the last batch.
    pub(crate) fn rows(&self) -> usize {
        self.nodes[ROOT].len
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

    /// Where the next value goes.
    #[inline]
    fn target(&mut self) -> Result<Target, Misfit> {
        match self.frames.last() {
            Some(Frame::List { node, .. }) => match &self.nodes[*node].store {
                Store::List { child, .. } => Ok(Target::Node(*child)),
                _ => unreachable!("list frames are lists"),
            },
            Some(Frame::Struct { .. }) => Ok(self.pending.take().unwrap_or(Target::Skip)),
            Some(Frame::Skip) => Ok(Target::Skip),
            None => Err("a value outside any record".into()),
        }
    }

    /// Where the next value that is not a list or null goes: with
    /// [`Columns::singles_as_lists`], into a list of one when its column is a list.
    #[inline]
    fn value_target(&mut self) -> Result<Target, Misfit> {
        let target = self.target()?;
        if self.singles_as_lists {
            if let Target::Node(at) = target {
                if let Store::List { child, .. } = &self.nodes[at].store {
                    let child = *child;
                    self.frames.push(Frame::List {
                        node: at,
                        single: true,
                    });
                    return Ok(Target::Node(child));
                }
            }
        }
        Ok(target)
    }

    /// After a value: closes the list of one [`Columns::value_target`] opened for it.
    #[inline]
    fn close_single(&mut self, done: Result<(), Misfit>) -> Result<(), Misfit> {
        done?;
        if let Some(Frame::List { single: true, .. }) = self.frames.last() {
            return self.end_list();
        }
        Ok(())
    }

    /// A value of kind `found` that `at`'s column cannot hold: an error, or under the
    /// lenient option a null.
    #[cold]
    fn misfit(&mut self, at: usize, found: &str) -> Result<(), Misfit> {
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

    /// A null at `at` (and in every child of a struct, so lengths agree).
    fn append_null(&mut self, at: usize) {
        self.append_nulls(at, 1);
    }

    /// `n` nulls at `at` (a struct's children are padded when next written).
    fn append_nulls(&mut self, at: usize, n: usize) {
        let node = &mut self.nodes[at];
        node.len += n;
        match &mut node.store {
            Store::Null => {}
            Store::Bool { values, nulls } => {
                values.append_n(n, false);
                nulls.append_n_nulls(n);
            }
            Store::Int { values, nulls, .. } => {
                values.push_n(n, 0);
                nulls.append_n_nulls(n);
            }
            Store::UInt { values, nulls, .. } => {
                values.push_n(n, 0);
                nulls.append_n_nulls(n);
            }
            Store::Float { values, nulls, .. } => {
                values.push_n(n, 0.0);
                nulls.append_n_nulls(n);
            }
            Store::Utf8(strings) => strings.append_nulls(n),
            Store::LargeUtf8(builder) => builder.append_nulls(n),
            Store::Utf8View(builder) => {
                for _ in 0..n {
                    builder.append_null();
                }
            }
            Store::Timestamp { values, nulls, .. } => {
                values.push_n(n, 0);
                nulls.append_n_nulls(n);
            }
            Store::Date32 { values, nulls } => {
                values.push_n(n, 0);
                nulls.append_n_nulls(n);
            }
            Store::List { offsets, nulls, .. } => {
                let last = *offsets.last().unwrap_or(&0);
                offsets.push_n(n, last);
                nulls.append_n_nulls(n);
            }
            Store::Struct { nulls, .. } => nulls.append_n_nulls(n),
        }
    }

    /// Nulls at `at` up to `len` values (a struct's child that fell behind it).
    #[inline]
    fn pad(&mut self, at: usize, len: usize) {
        let have = self.nodes[at].len;
        if have < len {
            self.append_nulls(at, len - have);
        }
    }

    /// The field of struct `node` named `key`, trying first the one that followed the
    /// field at slot `after` last time: the key's slot (for the next key's guess) and
    /// its node, `None` for a key the schema does not have.
    #[inline]
    fn find_field(&mut self, node: usize, after: usize, key: &str) -> (usize, Option<usize>) {
        let Store::Struct {
            children,
            keys: base,
            next,
            ..
        } = &mut self.nodes[node].store
        else {
            unreachable!("struct frames are structs")
        };
        let (keys, base, count) = (&self.keys, *base, children.len());
        let key_bytes = key.as_bytes();
        match &next[after] {
            &Slot::Field { index, child }
                if same_bytes(keys.name(base + index as usize), key_bytes) =>
            {
                return (index as usize, Some(child as usize));
            }
            Slot::Unknown(name) if !name.is_empty() && same_bytes(name.as_bytes(), key_bytes) => {
                return (count + 1, None);
            }
            _ => {}
        }
        match keys
            .names(base, count)
            .position(|name| same_bytes(name, key_bytes))
        {
            Some(i) => {
                next[after] = Slot::Field {
                    index: i as u32,
                    child: children[i] as u32,
                };
                (i, Some(children[i]))
            }
            None => {
                next[after] = Slot::Unknown(key.into());
                (count + 1, None)
            }
        }
    }

    /// Field `child` of the struct filling row `row` is about to take its value: an error
    /// if it already has one (skipped under the lenient option), else caught up to the row.
    #[inline(always)]
    fn enter_field(&mut self, child: usize, row: usize) -> Result<Target, Misfit> {
        if self.nodes[child].len > row {
            return self.given_twice(child);
        }
        if self.nodes[child].len == 0 {
            self.make_room(child);
        }
        self.pad(child, row);
        Ok(Target::Node(child))
    }

    /// Field `child` already has its value in this row: skipped under the lenient
    /// option, else an error.
    #[cold]
    fn given_twice(&self, child: usize) -> Result<Target, Misfit> {
        if self.lenient {
            return Ok(Target::Skip);
        }
        Err(format!("field `{}` is given twice", self.path(child)).into())
    }

    /// The end of struct `node`'s row `row`: an error if a field that may not be null was
    /// not given.
    fn close_struct(&mut self, node: usize, row: usize) -> Result<(), Misfit> {
        let Store::Struct { required, .. } = &self.nodes[node].store else {
            unreachable!("struct frames are structs")
        };
        if let Some(&missing) = required.iter().find(|&&c| self.nodes[c].len <= row) {
            return Err(
                format!("field `{}` is missing but not nullable", self.path(missing)).into(),
            );
        }
        if let Store::Struct { nulls, .. } = &mut self.nodes[node].store {
            if node != ROOT {
                nulls.append_non_null();
            }
        }
        self.nodes[node].len += 1;
        Ok(())
    }

    /// The end of a list at `node`: its items so far are its row.
    fn close_list(&mut self, node: usize) -> Result<(), Misfit> {
        let Store::List { child, .. } = &self.nodes[node].store else {
            unreachable!("list frames are lists")
        };
        let end = i32::try_from(self.nodes[*child].len).map_err(|_| {
            format!(
                "field `{}`: over 2^31 list items in one batch",
                self.path(node)
            )
        })?;
        let Store::List { offsets, nulls, .. } = &mut self.nodes[node].store else {
            unreachable!()
        };
        offsets.push(end);
        nulls.append_non_null();
        self.nodes[node].len += 1;
        Ok(())
    }

    fn put_bool(&mut self, at: usize, value: bool) -> Result<(), Misfit> {
        match &mut self.nodes[at].store {
            Store::Bool { values, nulls } => {
                values.append(value);
                nulls.append_non_null();
                self.nodes[at].len += 1;
                Ok(())
            }
            _ => self.misfit(at, if value { "true" } else { "false" }),
        }
    }

    #[inline]
    fn put_num(&mut self, at: usize, value: Num) -> Result<(), Misfit> {
        match value {
            Num::I64(v) => self.put_i64(at, v),
            Num::U64(v) => match &mut self.nodes[at].store {
                Store::UInt { values, nulls, ty } if fits_unsigned(ty, v) => {
                    values.push(v);
                    nulls.append_non_null();
                    self.nodes[at].len += 1;
                    Ok(())
                }
                _ => self.put_f64(at, v as f64),
            },
            Num::F64(v) => self.put_f64(at, v),
        }
    }

    /// An explicit null for `at`.
    fn put_null(&mut self, at: usize) -> Result<(), Misfit> {
        if !self.nodes[at].nullable {
            return Err(format!("field `{}` is null but not nullable", self.path(at)).into());
        }
        self.append_null(at);
        Ok(())
    }

    fn put_i64(&mut self, at: usize, value: i64) -> Result<(), Misfit> {
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
            _ => return self.misfit(at, "an integer"),
        }
        self.nodes[at].len += 1;
        Ok(())
    }

    /// A float for `at`: inline for a float column, into an integer column out of line.
    #[inline]
    fn put_f64(&mut self, at: usize, value: f64) -> Result<(), Misfit> {
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
            _ => return self.misfit(at, "a number"),
        }
        self.nodes[at].len += 1;
        Ok(())
    }

    /// A string for `at`: inline for the usual string column, the rest (other string
    /// layouts, and strings converted to numbers, timestamps and dates) out of line.
    #[inline]
    fn put_str(&mut self, at: usize, value: &str) -> Result<(), Misfit> {
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

/// How many nodes the fields make: one each, and one for each field of a struct and
/// the item of a list inside them (the node vector is sized once: a node is large).
fn node_count(fields: &Fields) -> usize {
    fn of(ty: &DataType) -> usize {
        1 + match ty {
            DataType::Struct(fields) => node_count(fields),
            DataType::List(item) => of(item.data_type()),
            _ => 0,
        }
    }
    fields.iter().map(|field| of(field.data_type())).sum()
}

/// How many field names the fields hold, nested ones too, and their bytes in all (the
/// names are kept end to end, in one buffer sized once).
fn name_count(fields: &Fields) -> (usize, usize) {
    fn of(ty: &DataType) -> (usize, usize) {
        match ty {
            DataType::Struct(fields) => name_count(fields),
            DataType::List(item) => of(item.data_type()),
            _ => (0, 0),
        }
    }
    fields.iter().fold((0, 0), |(names, bytes), field| {
        let (inner, inner_bytes) = of(field.data_type());
        (names + 1 + inner, bytes + field.name().len() + inner_bytes)
    })
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

/// The direct path: records pulled from a format's [`PullSource`] (the source the
/// derive decodes from) straight into the columns, with no events, frames or pending
/// targets in between. It takes what the event path takes and gives up
/// ([`Fallback`]) where the event path would report an error, so the caller reads the
/// input again through the event path to say what is wrong and where. The columns are
/// left part-filled then: the caller starts over with new ones.
impl Columns {
    /// Reads one record (an object) into the next row.
    pub(crate) fn pull_record<'a, P: PullSource<'a>>(
        &mut self,
        src: &mut P,
    ) -> Result<(), Fallback> {
        self.pull_struct(ROOT, src)?;
        self.records += 1;
        Ok(())
    }

    fn pull_struct<'a, P: PullSource<'a>>(
        &mut self,
        node: usize,
        src: &mut P,
    ) -> Result<(), Fallback> {
        src.begin_object()?;
        let row = self.nodes[node].len;
        let Store::Struct { children, .. } = &self.nodes[node].store else {
            unreachable!("pulled structs are structs")
        };
        let mut after = children.len();
        let mut first = true;
        while let Some((slot, child)) = self.pull_key(node, after, first, src)? {
            first = false;
            after = slot;
            match child {
                Some(child) => match self.enter_field(child, row).map_err(|_| Fallback)? {
                    Target::Node(child) => self.pull_value(child, src)?,
                    Target::Skip => src.skip_value()?,
                },
                None => src.skip_value()?,
            }
        }
        self.close_struct(node, row).map_err(|_| Fallback)
    }

    /// The next key of struct `node` and its field, as [`Columns::find_field`] finds it
    /// (`None` at the end of the object): when the key that followed slot `after` last
    /// time is a plain name, the source is asked whether it comes again, which JSON
    /// answers by comparing the bytes in place.
    #[inline(always)]
    fn pull_key<'a, P: PullSource<'a>>(
        &mut self,
        node: usize,
        after: usize,
        first: bool,
        src: &mut P,
    ) -> Result<Option<(usize, Option<usize>)>, Fallback> {
        let Store::Struct { keys, next, .. } = &self.nodes[node].store else {
            unreachable!("pulled structs are structs")
        };
        if let &Slot::Field { index, child } = &next[after] {
            if let Some(guess) = self.keys.plain(keys + index as usize) {
                return Ok(match src.next_key_guessed(first, guess)? {
                    GuessedKey::End => None,
                    GuessedKey::Guessed => Some((index as usize, Some(child as usize))),
                    GuessedKey::Other(key) => Some(self.find_field(node, after, &key)),
                });
            }
        }
        Ok(src
            .next_key(first)?
            .map(|key| self.find_field(node, after, &key)))
    }

    fn pull_value<'a, P: PullSource<'a>>(
        &mut self,
        at: usize,
        src: &mut P,
    ) -> Result<(), Fallback> {
        let done = match src.peek_token()? {
            ValueKind::String => {
                let node = &mut self.nodes[at];
                if let Store::Utf8(strings) = &mut node.store {
                    strings.append_read(|bytes| src.read_str_onto(bytes))?;
                    node.len += 1;
                    return Ok(());
                }
                let value = src.read_str()?;
                self.put_str(at, &value)
            }
            ValueKind::Number if matches!(self.nodes[at].store, Store::Float { .. }) => {
                let value = src.read_f64()?;
                self.put_f64(at, value)
            }
            ValueKind::Number => {
                let value = src.read_num()?;
                self.put_num(at, value)
            }
            ValueKind::Bool => {
                let value = src.read_bool()?;
                self.put_bool(at, value)
            }
            ValueKind::Null => {
                src.read_null()?;
                self.put_null(at)
            }
            ValueKind::Object => {
                if matches!(self.nodes[at].store, Store::Struct { .. }) {
                    return self.pull_struct(at, src);
                }
                self.misfit(at, "an object").map_err(|_| Fallback)?;
                return src.skip_value();
            }
            ValueKind::Array => {
                let Store::List { child, .. } = &self.nodes[at].store else {
                    self.misfit(at, "a list").map_err(|_| Fallback)?;
                    return src.skip_value();
                };
                let child = *child;
                src.begin_array()?;
                let mut first = true;
                while src.next_item(first)? {
                    first = false;
                    self.pull_value(child, src)?;
                }
                self.close_list(at)
            }
        };
        done.map_err(|_| Fallback)
    }
}

impl Sink for Columns {
    fn begin_record(&mut self) -> Result<(), Misfit> {
        if !self.frames.is_empty() {
            return Err("a record inside a record".into());
        }
        let Store::Struct { fields, .. } = &self.nodes[ROOT].store else {
            unreachable!("the root is a struct")
        };
        self.frames.push(Frame::Struct {
            node: ROOT,
            row: self.nodes[ROOT].len,
            prev: fields.len(),
        });
        Ok(())
    }

    fn end_record(&mut self) -> Result<(), Misfit> {
        self.end_struct()?;
        self.records += 1;
        Ok(())
    }

    #[inline]
    fn null(&mut self) -> Result<(), Misfit> {
        match self.target()? {
            Target::Node(at) => self.put_null(at),
            Target::Skip => Ok(()),
        }
    }

    #[inline]
    fn bool(&mut self, value: bool) -> Result<(), Misfit> {
        let Target::Node(at) = self.value_target()? else {
            return Ok(());
        };
        let done = self.put_bool(at, value);
        self.close_single(done)
    }

    #[inline]
    fn number(&mut self, value: Num) -> Result<(), Misfit> {
        let Target::Node(at) = self.value_target()? else {
            return Ok(());
        };
        let done = self.put_num(at, value);
        self.close_single(done)
    }

    #[inline]
    fn string(&mut self, value: &str) -> Result<(), Misfit> {
        match self.value_target()? {
            Target::Node(at) => {
                let done = self.put_str(at, value);
                self.close_single(done)
            }
            Target::Skip => Ok(()),
        }
    }

    fn datetime(&mut self, value: &Datetime) -> Result<(), Misfit> {
        let Target::Node(at) = self.value_target()? else {
            return Ok(());
        };
        let done = match (&self.nodes[at].store, value.date, value.time) {
            (Store::Date32 { .. }, Some(date), None) => {
                self.put_i64(at, date.days_since_unix_epoch())
            }
            _ => self.put_str(at, &value.to_string()),
        };
        self.close_single(done)
    }

    fn begin_list(&mut self) -> Result<(), Misfit> {
        let Target::Node(at) = self.target()? else {
            self.frames.push(Frame::Skip);
            return Ok(());
        };
        if matches!(self.nodes[at].store, Store::List { .. }) {
            self.frames.push(Frame::List {
                node: at,
                single: false,
            });
            Ok(())
        } else {
            self.misfit(at, "a list")?;
            self.frames.push(Frame::Skip);
            Ok(())
        }
    }

    fn end_list(&mut self) -> Result<(), Misfit> {
        match self.frames.pop() {
            Some(Frame::List { node, .. }) => self.close_list(node),
            Some(Frame::Skip) => Ok(()),
            _ => Err("unbalanced list".into()),
        }
    }

    fn begin_struct(&mut self) -> Result<(), Misfit> {
        let Target::Node(at) = self.value_target()? else {
            self.frames.push(Frame::Skip);
            return Ok(());
        };
        if matches!(self.nodes[at].store, Store::Struct { .. }) {
            let row = self.nodes[at].len;
            let Store::Struct { fields, .. } = &self.nodes[at].store else {
                unreachable!()
            };
            let prev = fields.len();
            self.frames.push(Frame::Struct {
                node: at,
                row,
                prev,
            });
            Ok(())
        } else {
            self.misfit(at, "an object")?;
            self.frames.push(Frame::Skip);
            Ok(())
        }
    }

    #[inline]
    fn key(&mut self, key: &str) -> Result<(), Misfit> {
        let Some(Frame::Struct { node, row, prev }) = self.frames.last_mut() else {
            return Ok(());
        };
        let (node, row, after) = (*node, *row, *prev);
        let (slot, child) = self.find_field(node, after, key);
        if let Some(Frame::Struct { prev, .. }) = self.frames.last_mut() {
            *prev = slot;
        }
        self.pending = Some(match child {
            Some(child) => self.enter_field(child, row)?,
            None => Target::Skip,
        });
        Ok(())
    }

    fn end_struct(&mut self) -> Result<(), Misfit> {
        match self.frames.pop() {
            Some(Frame::Struct { node, row, .. }) => {
                self.close_struct(node, row)?;
                self.pending = None;
                self.close_single(Ok(()))
            }
            // A struct that did not fit may still be the one value of a list of one.
            Some(Frame::Skip) => self.close_single(Ok(())),
            _ => Err("unbalanced object".into()),
        }
    }

    fn records(&self) -> usize {
        self.records
    }
}
