//! The event path: the [`Sink`] every format's builder feeds, one event per value.

use quarry_raw_value::Datetime;

use super::nodes::Store;
use super::place::{Frame, Target};
use super::{Columns, ROOT};
use crate::sink::{Misfit, Num, Sink};

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
        let (slot, child) = self.find_field(node, after, key)?;
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

    fn refused_field(&self) -> Option<&[String]> {
        Columns::refused_field(self)
    }
}
