//! The builder of the struct door: TOML to [`RawValue`].

use std::borrow::Cow;

use quarry_raw_value::{Datetime, RawValue};

use crate::common::Span;

use super::builder::{Key, StringKind, TableId, TableKind, TomlBuilder};

/// What the builder knows of each table id.
#[derive(Debug)]
enum Table {
    /// A table; an inline one records where its entries start in the entry list.
    Map { inline_start: Option<usize> },
    /// An array of tables: its element tables' ids.
    Elements(Vec<TableId>),
}

/// Builds a [`RawValue`]: tables as maps in document order, datetimes as
/// [`RawValue::Datetime`], strings borrowed when nothing was unescaped.
///
/// Headers may add to a table long after it began (`[a.b]` after `[c]`), so every entry
/// waits in one list in document order, tagged with its table, and a sub-table stands in
/// its parent as a placeholder (`RawValue::UInt(id)`: TOML integers are `i64`, so no
/// real value looks like one). When the document ends, the entries are counted per
/// table, moved into one exactly sized `Vec` per table, and tables are finished from
/// the last id to the first (a child always has a larger id than its parent). So each
/// table costs one allocation, as does each array. An inline table is finished at its
/// `}`: its entries are the tail of the list.
#[derive(Debug)]
pub struct RawValueBuilder<'a> {
    entries: Vec<(TableId, Cow<'a, str>, RawValue<'a>)>,
    tables: Vec<Table>,
    /// Items of open arrays.
    items: Vec<RawValue<'a>>,
}

impl Default for RawValueBuilder<'_> {
    fn default() -> Self {
        RawValueBuilder {
            entries: Vec::new(),
            tables: vec![Table::Map { inline_start: None }],
            items: Vec::new(),
        }
    }
}

impl<'a> RawValueBuilder<'a> {
    /// The document as a map, once the parser is done.
    pub fn finish(mut self) -> RawValue<'a> {
        self.assemble(0, 0)
    }

    fn new_table(&mut self, id: TableId, table: Table) {
        debug_assert_eq!(id as usize, self.tables.len());
        self.tables.push(table);
    }

    /// Finishes table `root`, whose entries (and its descendants') are
    /// `self.entries[from..]`; every table with an id above `root` is its descendant.
    fn assemble(&mut self, root: TableId, from: usize) -> RawValue<'a> {
        let base = root as usize;
        let count = self.tables.len() - base;
        if count == 1 {
            // No sub-tables (an inline table without dotted keys, or a flat document).
            let map = self.entries.drain(from..).map(|(_, k, v)| (k, v)).collect();
            return RawValue::Map(map);
        }
        let mut sizes = vec![0usize; count];
        for (table, _, _) in &self.entries[from..] {
            sizes[*table as usize - base] += 1;
        }
        let mut maps: Vec<Vec<(Cow<'a, str>, RawValue<'a>)>> =
            sizes.into_iter().map(Vec::with_capacity).collect();
        for (table, key, value) in self.entries.drain(from..) {
            maps[table as usize - base].push((key, value));
        }
        let mut finished: Vec<RawValue<'a>> = Vec::with_capacity(count);
        finished.resize_with(count, || RawValue::Null);
        for t in (0..count).rev() {
            finished[t] = match &self.tables[base + t] {
                Table::Map { .. } => {
                    let mut map = std::mem::take(&mut maps[t]);
                    for (_, value) in &mut map {
                        if let RawValue::UInt(child) = *value {
                            *value = std::mem::take(&mut finished[child as usize - base]);
                        }
                    }
                    RawValue::Map(map)
                }
                Table::Elements(ids) => RawValue::Seq(
                    ids.iter()
                        .map(|&id| std::mem::take(&mut finished[id as usize - base]))
                        .collect(),
                ),
            };
        }
        std::mem::take(&mut finished[0])
    }
}

impl<'a> TomlBuilder<'a> for RawValueBuilder<'a> {
    type Value = RawValue<'a>;
    /// Where the array's items start on the item stack.
    type Array = usize;

    #[inline]
    fn string(&mut self, value: Cow<'a, str>, _: StringKind, _: Span) -> RawValue<'a> {
        RawValue::String(value)
    }
    #[inline]
    fn integer(&mut self, value: i64, _: Span) -> RawValue<'a> {
        RawValue::Int(value)
    }
    #[inline]
    fn float(&mut self, value: f64, _: Span) -> RawValue<'a> {
        RawValue::Float(value)
    }
    #[inline]
    fn bool(&mut self, value: bool, _: Span) -> RawValue<'a> {
        RawValue::Bool(value)
    }
    #[inline]
    fn datetime(&mut self, value: Datetime, _: Span) -> RawValue<'a> {
        RawValue::Datetime(value)
    }
    #[inline]
    fn begin_array(&mut self, _: usize) -> usize {
        self.items.len()
    }
    #[inline]
    fn array_item(&mut self, _: &mut usize, item: RawValue<'a>) {
        self.items.push(item);
    }
    #[inline]
    fn end_array(&mut self, start: usize, _: Span) -> RawValue<'a> {
        RawValue::Seq(self.items.drain(start..).collect())
    }
    fn begin_inline_table(&mut self, id: TableId, _: usize) {
        let start = self.entries.len();
        self.new_table(
            id,
            Table::Map {
                inline_start: Some(start),
            },
        );
    }
    fn end_inline_table(&mut self, id: TableId, _: Span) -> RawValue<'a> {
        match self.tables[id as usize] {
            Table::Map {
                inline_start: Some(start),
            } => self.assemble(id, start),
            _ => RawValue::Map(Vec::new()),
        }
    }
    fn table(&mut self, parent: TableId, key: Key<'a>, id: TableId, _: TableKind, _: Span) {
        self.new_table(id, Table::Map { inline_start: None });
        self.entries
            .push((parent, key.name, RawValue::UInt(u64::from(id))));
    }
    fn define_table(&mut self, _: TableId, _: Span) {}
    fn array_of_tables(&mut self, parent: TableId, key: Key<'a>, id: TableId) {
        self.new_table(id, Table::Elements(Vec::new()));
        self.entries
            .push((parent, key.name, RawValue::UInt(u64::from(id))));
    }
    fn array_element(&mut self, array: TableId, id: TableId, _: Span) {
        self.new_table(id, Table::Map { inline_start: None });
        if let Table::Elements(ids) = &mut self.tables[array as usize] {
            ids.push(id);
        }
    }
    #[inline]
    fn entry(&mut self, parent: TableId, key: Key<'a>, value: RawValue<'a>) {
        self.entries.push((parent, key.name, value));
    }
}
