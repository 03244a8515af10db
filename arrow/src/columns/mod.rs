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
//!
//! By concern: [`nodes`] builds the node table from the schema, [`place`] says where the
//! next value goes (the open structs and lists, a key's field, padding with nulls),
//! [`convert`] puts a value into its column's type, [`batch`] turns the columns into a
//! batch's arrays, [`events`] is the [`crate::sink::Sink`] the formats' builders feed,
//! and [`pull`] is the direct path from a [`quarry_raw_value::PullSource`].

mod batch;
mod convert;
mod events;
mod nodes;
mod place;
mod pull;

use std::collections::HashMap;

use arrow_schema::SchemaRef;
use quarry_raw_value::PlainKeys;

use self::nodes::Node;
use self::place::{Frame, Target};
use crate::UnknownFields;

/// The root node: the record itself, whose fields are the batch's columns.
const ROOT: usize = 0;

/// Appends records to the columns of `schema`; [`Columns::take_batch`] hands them over.
pub(crate) struct Columns {
    schema: SchemaRef,
    nodes: Vec<Node>,
    frames: Vec<Frame>,
    pending: Option<Target>,
    lenient: bool,
    /// What a key the schema does not have does.
    unknown: UnknownFields,
    /// Top-level names the schema leaves out on purpose: skipped, never unknown.
    unread: Vec<String>,
    /// Under [`UnknownFields::Collect`]: per struct node, each unknown key's count.
    counts: HashMap<usize, HashMap<Box<str>, u64>>,
    /// The path of the unknown field refused last, by name from the record (list levels
    /// left out), so that formats read through a value can place it.
    refused: Option<Vec<String>>,
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

    /// Counts records from `records` on (for error messages), as a reader that already
    /// read that many would.
    pub(crate) fn count_records_from(&mut self, records: usize) {
        self.records = records;
    }

    /// Rows appended since the last batch.
    pub(crate) fn rows(&self) -> usize {
        self.nodes[ROOT].len
    }
}
