//! The builder of the struct door: TOML to [`RawValue`].

use std::borrow::Cow;

use quarry_raw_value::{Datetime, RawValue};

use crate::common::Span;

use super::builder::{Key, StringKind, TableId, TableKind, TomlBuilder};

/// What a table holds until the document ends: its entries in the order their keys
/// first appeared, sub-tables by id (headers may still add to them).
#[derive(Debug)]
enum Table<'a> {
    Entries(Vec<(Cow<'a, str>, Entry<'a>)>),
    /// An array of tables: its element tables' ids.
    Elements(Vec<TableId>),
    /// Moved into a finished inline table.
    Taken,
}

#[derive(Debug)]
enum Entry<'a> {
    Value(RawValue<'a>),
    Table(TableId),
}

/// Builds a [`RawValue`]: tables as maps in document order, datetimes as
/// [`RawValue::Datetime`], strings borrowed when nothing was unescaped.
///
/// Headers may add to a table long after it began (`[a.b]` after `[c]`), so tables wait
/// by id and become maps when the document ends; inline tables are closed at their
/// `}` and become maps at once.
#[derive(Debug)]
pub struct RawValueBuilder<'a> {
    tables: Vec<Table<'a>>,
}

impl Default for RawValueBuilder<'_> {
    fn default() -> Self {
        RawValueBuilder {
            tables: vec![Table::Entries(Vec::new())],
        }
    }
}

impl<'a> RawValueBuilder<'a> {
    /// The document as a map, once the parser is done.
    pub fn finish(mut self) -> RawValue<'a> {
        self.assemble(0)
    }

    fn new_table(&mut self, id: TableId, table: Table<'a>) {
        debug_assert_eq!(id as usize, self.tables.len());
        self.tables.push(table);
    }

    fn push(&mut self, parent: TableId, key: Cow<'a, str>, entry: Entry<'a>) {
        if let Table::Entries(entries) = &mut self.tables[parent as usize] {
            entries.push((key, entry));
        }
    }

    /// Turns table `id` and everything below it into a map, without recursion.
    fn assemble(&mut self, id: TableId) -> RawValue<'a> {
        enum Work<'a> {
            Table {
                entries: std::vec::IntoIter<(Cow<'a, str>, Entry<'a>)>,
                out: Vec<(Cow<'a, str>, RawValue<'a>)>,
                key: Option<Cow<'a, str>>,
            },
            Elements {
                ids: std::vec::IntoIter<TableId>,
                out: Vec<RawValue<'a>>,
                key: Option<Cow<'a, str>>,
            },
        }
        let open = |tables: &mut Vec<Table<'a>>, id: TableId, key| match std::mem::replace(
            &mut tables[id as usize],
            Table::Taken,
        ) {
            Table::Entries(entries) => Work::Table {
                out: Vec::with_capacity(entries.len()),
                entries: entries.into_iter(),
                key,
            },
            Table::Elements(ids) => Work::Elements {
                out: Vec::with_capacity(ids.len()),
                ids: ids.into_iter(),
                key,
            },
            Table::Taken => Work::Table {
                entries: Vec::new().into_iter(),
                out: Vec::new(),
                key,
            },
        };
        let mut stack = vec![open(&mut self.tables, id, None)];
        loop {
            let top = stack
                .last_mut()
                .expect("the stack holds the table being built");
            let next = match top {
                Work::Table { entries, out, .. } => match entries.next() {
                    Some((key, Entry::Value(value))) => {
                        out.push((key, value));
                        continue;
                    }
                    Some((key, Entry::Table(id))) => Some((id, Some(key))),
                    None => None,
                },
                Work::Elements { ids, .. } => ids.next().map(|id| (id, None)),
            };
            if let Some((id, key)) = next {
                let work = open(&mut self.tables, id, key);
                stack.push(work);
                continue;
            }
            let (value, key) = match stack.pop() {
                Some(Work::Table { out, key, .. }) => (RawValue::Map(out), key),
                Some(Work::Elements { out, key, .. }) => (RawValue::Seq(out), key),
                None => unreachable!("the stack is not empty"),
            };
            match stack.last_mut() {
                None => return value,
                Some(Work::Table { out, .. }) => out.push((key.unwrap_or_default(), value)),
                Some(Work::Elements { out, .. }) => out.push(value),
            }
        }
    }
}

impl<'a> TomlBuilder<'a> for RawValueBuilder<'a> {
    type Value = RawValue<'a>;
    type Array = Vec<RawValue<'a>>;

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
    fn begin_array(&mut self, _: usize) -> Vec<RawValue<'a>> {
        Vec::new()
    }
    #[inline]
    fn array_item(&mut self, array: &mut Vec<RawValue<'a>>, item: RawValue<'a>) {
        array.push(item);
    }
    #[inline]
    fn end_array(&mut self, array: Vec<RawValue<'a>>, _: Span) -> RawValue<'a> {
        RawValue::Seq(array)
    }
    fn begin_inline_table(&mut self, id: TableId, _: usize) {
        self.new_table(id, Table::Entries(Vec::new()));
    }
    fn end_inline_table(&mut self, id: TableId, _: Span) -> RawValue<'a> {
        self.assemble(id)
    }
    fn table(&mut self, parent: TableId, key: Key<'a>, id: TableId, _: TableKind, _: Span) {
        self.new_table(id, Table::Entries(Vec::new()));
        self.push(parent, key.name, Entry::Table(id));
    }
    fn define_table(&mut self, _: TableId, _: Span) {}
    fn array_of_tables(&mut self, parent: TableId, key: Key<'a>, id: TableId) {
        self.new_table(id, Table::Elements(Vec::new()));
        self.push(parent, key.name, Entry::Table(id));
    }
    fn array_element(&mut self, array: TableId, id: TableId, _: Span) {
        self.new_table(id, Table::Entries(Vec::new()));
        if let Table::Elements(ids) = &mut self.tables[array as usize] {
            ids.push(id);
        }
    }
    #[inline]
    fn entry(&mut self, parent: TableId, key: Key<'a>, value: RawValue<'a>) {
        self.push(parent, key.name, Entry::Value(value));
    }
}
