//! Where the next value goes: the open structs and lists, the field a key names, a field
//! given twice or missing, and the nulls that pad a field that fell behind.

use quarry_formats::common::same_bytes;

use super::nodes::{Slot, Store};
use super::{Columns, ROOT};
use crate::sink::{Misfit, Sink};
use crate::{FieldCounts, UnknownFields};

/// Where the next value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    Node(usize),
    /// A field the schema does not have, or the inside of a value that did not fit.
    Skip,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Frame {
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

impl Columns {
    /// Where the next value goes.
    #[inline]
    pub(super) fn target(&mut self) -> Result<Target, Misfit> {
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
    pub(super) fn value_target(&mut self) -> Result<Target, Misfit> {
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
    pub(super) fn close_single(&mut self, done: Result<(), Misfit>) -> Result<(), Misfit> {
        done?;
        if let Some(Frame::List { single: true, .. }) = self.frames.last() {
            return self.end_list();
        }
        Ok(())
    }

    /// A null at `at` (and in every child of a struct, so lengths agree).
    pub(super) fn append_null(&mut self, at: usize) {
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
    pub(super) fn pad(&mut self, at: usize, len: usize) {
        let have = self.nodes[at].len;
        if have < len {
            self.append_nulls(at, len - have);
        }
    }

    /// The field of struct `node` named `key`, trying first the one that followed the
    /// field at slot `after` last time: the key's slot (for the next key's guess) and
    /// its node, `None` for a key the schema does not have, once
    /// [`Columns::unknown_key`] let it pass.
    #[inline]
    pub(super) fn find_field(
        &mut self,
        node: usize,
        after: usize,
        key: &str,
    ) -> Result<(usize, Option<usize>), Misfit> {
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
                return Ok((index as usize, Some(child as usize)));
            }
            Slot::Unknown { name, unread }
                if !name.is_empty() && same_bytes(name.as_bytes(), key_bytes) =>
            {
                if !*unread && self.unknown != UnknownFields::Ignore {
                    self.unknown_key(node, key)?;
                }
                return Ok((count + 1, None));
            }
            _ => {}
        }
        let found = keys
            .names(base, count)
            .position(|name| same_bytes(name, key_bytes));
        match found {
            Some(i) => {
                next[after] = Slot::Field {
                    index: i as u32,
                    child: children[i] as u32,
                };
                Ok((i, Some(children[i])))
            }
            None => {
                let unread = node == ROOT && self.unread.iter().any(|name| name == key);
                next[after] = Slot::Unknown {
                    name: key.into(),
                    unread,
                };
                if !unread && self.unknown != UnknownFields::Ignore {
                    self.unknown_key(node, key)?;
                }
                Ok((count + 1, None))
            }
        }
    }

    /// A key of struct `node` the schema does not have: counted under
    /// [`UnknownFields::Collect`], an error under [`UnknownFields::Error`].
    #[inline(never)]
    fn unknown_key(&mut self, node: usize, key: &str) -> Result<(), Misfit> {
        if self.unknown == UnknownFields::Collect {
            let counts = self.counts.entry(node).or_default();
            match counts.get_mut(key) {
                Some(count) => *count += 1,
                None => {
                    counts.insert(key.into(), 1);
                }
            }
            return Ok(());
        }
        let mut path = self.segments(node);
        path.push(key.to_owned());
        let message = format!("field `{}` is not in the schema", self.key_path(node, key));
        self.refused = Some(path);
        Err(message.into())
    }

    /// The path of key `key` of struct `node` (`extra`, `meta.extra`, `items[].extra`).
    pub(super) fn key_path(&self, node: usize, key: &str) -> String {
        match node {
            ROOT => key.to_owned(),
            _ => format!("{}.{key}", self.path(node)),
        }
    }

    /// The names of the struct fields from the record down to `node`, list levels left
    /// out (as a format that writes a list as repeated keys names them).
    fn segments(&self, node: usize) -> Vec<String> {
        let mut names = Vec::new();
        let mut at = node;
        while at != ROOT {
            let parent = self.nodes[at].parent;
            if let Store::Struct { fields, .. } = &self.nodes[parent].store {
                if let Some(field) = fields.get(self.nodes[at].slot) {
                    names.push(field.name().clone());
                }
            }
            at = parent;
        }
        names.reverse();
        names
    }

    /// How many times each key the schema lacks was met (under
    /// [`UnknownFields::Collect`]), by its path from the record.
    pub(crate) fn unknown_fields(&self) -> FieldCounts {
        let mut fields = FieldCounts::new();
        for (&node, counts) in &self.counts {
            for (key, &count) in counts {
                *fields.entry(self.key_path(node, key)).or_default() += count;
            }
        }
        fields
    }

    /// The path of the unknown field refused last ([`Columns::unknown_key`]).
    pub(crate) fn refused_field(&self) -> Option<&[String]> {
        self.refused.as_deref()
    }

    /// Field `child` of the struct filling row `row` is about to take its value: an error
    /// if it already has one (skipped under the lenient option), else caught up to the row.
    #[inline(always)]
    pub(super) fn enter_field(&mut self, child: usize, row: usize) -> Result<Target, Misfit> {
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
    pub(super) fn close_struct(&mut self, node: usize, row: usize) -> Result<(), Misfit> {
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
    pub(super) fn close_list(&mut self, node: usize) -> Result<(), Misfit> {
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
}
