//! The node table: the schema's fields as a flat list of nodes, each with the store its
//! values are appended to.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{LargeStringBuilder, StringViewBuilder};
use arrow_array::timezone::Tz;
use arrow_buffer::BooleanBufferBuilder;
use arrow_schema::{DataType, Field, FieldRef, Fields, SchemaRef, TimeUnit};
use quarry_raw_value::PlainKeys;

use super::{Columns, ROOT};
use crate::buffers::{Nulls, Strings, Values};
use crate::error::Error;
use crate::Options;

/// One field of the schema and the values appended to it so far.
pub(super) struct Node {
    /// The node this one is a field or the item of (the root is its own).
    pub(super) parent: usize,
    /// Which field of its parent it is (a list's item: 0).
    pub(super) slot: usize,
    pub(super) nullable: bool,
    pub(super) len: usize,
    /// For a string column, the bytes per value of the last batch: the room its next
    /// batch starts with.
    pub(super) value_bytes: usize,
    pub(super) store: Store,
}

/// The bytes per string value a column starts with before it has seen a batch.
const VALUE_BYTES: usize = 16;

pub(super) enum Store {
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

/// What a key of an object turned out to be.
#[derive(Debug, Clone)]
pub(super) enum Slot {
    /// The field at `index` of its struct, node `child`.
    Field { index: u32, child: u32 },
    /// A key the schema does not have; `unread` when the schema leaves it out on
    /// purpose (a projection), so it is skipped without a word.
    Unknown { name: Box<str>, unread: bool },
}

impl Slot {
    fn none() -> Slot {
        Slot::Unknown {
            name: "".into(),
            unread: false,
        }
    }
}

impl Columns {
    /// Columns for `schema`, read as `options` say (lenient or not, what an unknown key
    /// does); an error if it has a type this crate cannot fill.
    pub(crate) fn new(schema: SchemaRef, options: &Options) -> Result<Self, Error> {
        let mut columns = Columns {
            schema: schema.clone(),
            nodes: Vec::new(),
            frames: Vec::new(),
            pending: None,
            lenient: options.lenient,
            unknown: options.get_unknown_fields(),
            unread: options.unread.clone(),
            counts: HashMap::new(),
            refused: None,
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
            next: vec![Slot::none(); schema.fields().len() + 2],
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
    pub(super) fn path(&self, at: usize) -> String {
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
                    next: vec![Slot::none(); fields.len() + 2],
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
