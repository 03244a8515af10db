//! The direct path: a record pulled from a format's source straight into the columns.

use quarry_raw_value::{Fallback, GuessedKey, PullSource, ValueKind};

use super::nodes::{Slot, Store};
use super::place::Target;
use super::{Columns, ROOT};

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
                    GuessedKey::Other(key) => {
                        Some(self.find_field(node, after, &key).map_err(|_| Fallback)?)
                    }
                });
            }
        }
        match src.next_key(first)? {
            Some(key) => Ok(Some(
                self.find_field(node, after, &key).map_err(|_| Fallback)?,
            )),
            None => Ok(None),
        }
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
