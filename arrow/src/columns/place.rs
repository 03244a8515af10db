//! Where the next value goes: the open structs and lists, the field a key names, a field
//! given twice or missing, and the nulls that pad a field that fell behind.

use quarry_formats::common::same_bytes;

use super::nodes::{Slot, Store};
use super::{Columns, ROOT};
use crate::sink::{Misfit, Sink};

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
    /// its node, `None` for a key the schema does not have.
    #[inline]
    pub(super) fn find_field(
        &mut self,
        node: usize,
        after: usize,
        key: &str,
    ) -> (usize, Option<usize>) {
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
