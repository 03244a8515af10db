//! The builder of the struct door: TOML to [`RawValue`].

use std::borrow::Cow;

use quarry_raw_value::{Datetime, RawValue};

use crate::common::Span;

use super::builder::{Key, StringKind, TableId, TableKind, TomlBuilder};

/// Where a table lives: `slot` in its parent (an entry of a table, or an element of an
/// array of tables), or, for a root, which root.
#[derive(Debug, Clone, Copy)]
struct Route {
    /// The parent table or array of tables; [`NO_PARENT`] for an inline table's root.
    parent: TableId,
    /// The entry or element index in the parent; for an inline root, its index in
    /// [`RawValueBuilder::inline`].
    slot: u32,
}

const NO_PARENT: TableId = TableId::MAX;

/// Builds a [`RawValue`]: tables as maps in document order, datetimes as
/// [`RawValue::Datetime`], strings borrowed when nothing was unescaped.
///
/// The value is built in place. Headers may add to a table long after it began
/// (`[a.b]` after `[c]`), so each table remembers its route — its slot in its parent —
/// and an entry walks down from the root to its table (two or three steps in real
/// documents). Open inline tables are roots of their own until their `}`. Array items
/// wait on one shared stack, so each array costs one allocation.
#[derive(Debug)]
pub struct RawValueBuilder<'a> {
    /// The document's root table.
    root: RawValue<'a>,
    /// One root per open inline table.
    inline: Vec<RawValue<'a>>,
    /// The route of each table but the root (table `id` at `id - 1`), so a document
    /// without tables allocates none.
    routes: Vec<Route>,
    /// Items of open arrays.
    items: Vec<RawValue<'a>>,
    /// Scratch: the slots from a root down to a table.
    path: Vec<u32>,
}

impl Default for RawValueBuilder<'_> {
    fn default() -> Self {
        RawValueBuilder {
            root: RawValue::Map(Vec::new()),
            inline: Vec::new(),
            routes: Vec::new(),
            items: Vec::new(),
            path: Vec::new(),
        }
    }
}

impl<'a> RawValueBuilder<'a> {
    /// The document as a map, once the parser is done.
    pub fn finish(self) -> RawValue<'a> {
        self.root
    }

    /// The value of table (or array of tables) `id`.
    #[inline]
    fn node(&mut self, id: TableId) -> &mut RawValue<'a> {
        if id == 0 {
            return &mut self.root;
        }
        self.path.clear();
        let mut route = self.routes[id as usize - 1];
        while route.parent != NO_PARENT {
            self.path.push(route.slot);
            if route.parent == 0 {
                break;
            }
            route = self.routes[route.parent as usize - 1];
        }
        let mut node = if route.parent == NO_PARENT {
            &mut self.inline[route.slot as usize]
        } else {
            &mut self.root
        };
        for &slot in self.path.iter().rev() {
            node = match node {
                RawValue::Map(entries) => &mut entries[slot as usize].1,
                RawValue::Seq(items) => &mut items[slot as usize],
                _ => unreachable!("routes lead through tables and arrays of tables"),
            };
        }
        node
    }

    /// Appends `key = value` to table `parent`; returns the entry's slot.
    #[inline]
    fn push(&mut self, parent: TableId, key: Cow<'a, str>, value: RawValue<'a>) -> u32 {
        match self.node(parent) {
            RawValue::Map(entries) => {
                entries.push((key, value));
                (entries.len() - 1) as u32
            }
            _ => unreachable!("entries go into tables"),
        }
    }

    fn add_route(&mut self, id: TableId, route: Route) {
        debug_assert_eq!(id as usize, self.routes.len() + 1);
        self.routes.push(route);
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
        let slot = self.inline.len() as u32;
        self.inline.push(RawValue::Map(Vec::new()));
        self.add_route(
            id,
            Route {
                parent: NO_PARENT,
                slot,
            },
        );
    }
    fn end_inline_table(&mut self, _: TableId, _: Span) -> RawValue<'a> {
        // Inline tables nest strictly: the one closing is the last root.
        self.inline.pop().unwrap_or_default()
    }
    fn table(&mut self, parent: TableId, key: Key<'a>, id: TableId, _: TableKind, _: Span) {
        let slot = self.push(parent, key.name, RawValue::Map(Vec::new()));
        self.add_route(id, Route { parent, slot });
    }
    fn define_table(&mut self, _: TableId, _: Span) {}
    fn array_of_tables(&mut self, parent: TableId, key: Key<'a>, id: TableId) {
        let slot = self.push(parent, key.name, RawValue::Seq(Vec::new()));
        self.add_route(id, Route { parent, slot });
    }
    fn array_element(&mut self, array: TableId, id: TableId, _: Span) {
        let slot = match self.node(array) {
            RawValue::Seq(elements) => {
                // Elements of one array of tables tend to have the same keys: size each
                // like the one before, so it is allocated once.
                let capacity = match elements.last() {
                    Some(RawValue::Map(previous)) => previous.len(),
                    _ => 0,
                };
                elements.push(RawValue::Map(Vec::with_capacity(capacity)));
                (elements.len() - 1) as u32
            }
            _ => unreachable!("elements go into arrays of tables"),
        };
        self.add_route(
            id,
            Route {
                parent: array,
                slot,
            },
        );
    }
    #[inline]
    fn entry(&mut self, parent: TableId, key: Key<'a>, value: RawValue<'a>) {
        self.push(parent, key.name, value);
    }
}
