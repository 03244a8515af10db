//! What the formats' feeders share, below both them and [`crate::records`] (which picks
//! the feeder): whether the reader wants more records, the first misfit met, syntax
//! errors, the rows a batch is expected to hold, and the walk of a record gathered as a
//! value.

use std::collections::VecDeque;
use std::fmt;

use arrow_array::RecordBatch;

use quarry_formats::common;
use quarry_raw_value::RawValue;

use crate::columns::Columns;
use crate::error::Error;
use crate::sink::{Misfit, Num, Sink};
use crate::RecordFormat;

/// Whether the reader wants more records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Go,
    /// Enough: the rest of the document is parsed (for its errors) but not delivered.
    Stop,
}

/// Called after each record with the sink, to take a batch or stop.
pub(crate) type After<'f, S> = dyn FnMut(&mut S) -> Flow + 'f;

/// After each record of a streamed reader: a batch that has reached `batch_size` rows goes
/// to `ready`; an error taking it is kept in `failed` and stops the read.
pub(crate) fn hand_over_full(
    columns: &mut Columns,
    batch_size: usize,
    ready: &mut VecDeque<RecordBatch>,
    failed: &mut Option<Error>,
) -> Flow {
    if columns.rows() >= batch_size {
        match columns.take_batch() {
            Ok(batch) => ready.push_back(batch),
            Err(e) => {
                *failed = Some(e);
                return Flow::Stop;
            }
        }
    }
    Flow::Go
}

/// About how many rows the first batch of `bytes` will hold, so columns are sized once
/// instead of growing from empty: a JSON Lines text's line count, and for the other
/// formats a guess of one record per 64 bytes (a column only takes the room when it is
/// written).
pub(crate) fn expected_rows(bytes: &[u8], format: RecordFormat, batch_size: usize) -> usize {
    let rows = match format {
        RecordFormat::JsonLines => {
            // Counted a block at a time (memchr's count, not a search per line), up to
            // the first block that holds a batch.
            let mut lines = 0;
            for block in bytes.chunks(64 << 10) {
                lines += memchr::memchr_iter(b'\n', block).count();
                if lines >= batch_size {
                    break;
                }
            }
            lines.saturating_add(1)
        }
        _ => bytes.len() / 64 + 1,
    };
    rows.min(batch_size)
}

/// The first misfit a builder met, kept until the parse ends (builders cannot stop a
/// parse), with the byte offset of the value and the record it was in.
#[derive(Debug, Default)]
pub(crate) struct Failure {
    first: Option<(Misfit, usize, usize)>,
}

impl Failure {
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.first.is_some()
    }

    #[cold]
    pub(crate) fn set(&mut self, misfit: impl Into<Misfit>, offset: usize, record: usize) {
        if self.first.is_none() {
            self.first = Some((misfit.into(), offset, record));
        }
    }

    /// The error, placed in `src`.
    pub(crate) fn into_error(self, src: &[u8]) -> Option<Error> {
        let (misfit, offset, record) = self.first?;
        let at = common::position_at(src, offset);
        Some(Error::new(misfit).at(Some(record as u64 + 1), at.line as u64, at.column as u64))
    }
}

/// A format's syntax error, with its line and column.
pub(crate) fn syntax_error<K: fmt::Display + fmt::Debug + Send + Sync + 'static>(
    error: common::Error<K>,
) -> Error {
    let (line, column) = (error.line() as u64, error.column() as u64);
    Error::new(error.kind().to_string()).at(None, line, column)
}

/// Runs `event` on the sink unless a misfit was already met or the reader stopped,
/// keeping the first misfit.
macro_rules! emit {
    ($self:ident, $offset:expr, |$sink:ident| $event:expr) => {
        if !$self.failure.is_set() && !$self.stopped {
            let $sink = &mut *$self.sink;
            if let Err(misfit) = $event {
                let record = $self.sink.records();
                $self.failure.set(misfit, $offset, record);
            }
        }
    };
}
pub(crate) use emit;

/// After a record: asks the reader whether to go on.
macro_rules! record_done {
    ($self:ident) => {
        if !$self.failure.is_set()
            && !$self.stopped
            && ($self.after)(&mut *$self.sink) == Flow::Stop
        {
            $self.stopped = true;
        }
    };
}
pub(crate) use record_done;

/// Hands one record, already gathered as a value, to the sink. XML and TOML records
/// come this way: XML because an element's children cannot be told apart from a list
/// of them until the element closes (so each record is gathered by the XML RawValue
/// builder, one record at a time), TOML because its tables may be reopened anywhere in
/// the document. A record that is not a map is refused with `what`.
pub(crate) fn walk_record<S: Sink>(
    record: &RawValue<'_>,
    sink: &mut S,
    what: &str,
) -> Result<(), Misfit> {
    let RawValue::Map(entries) = record else {
        return Err(format!("a record must be {what}, found {}", record.kind_name()).into());
    };
    sink.begin_record()?;
    for (key, value) in entries {
        sink.key(key)?;
        walk(value, sink)?;
    }
    sink.end_record()
}

fn walk<S: Sink>(value: &RawValue<'_>, sink: &mut S) -> Result<(), Misfit> {
    match value {
        RawValue::Null => sink.null(),
        RawValue::Bool(b) => sink.bool(*b),
        RawValue::Int(i) => sink.number(Num::I64(*i)),
        RawValue::UInt(u) => sink.number(Num::U64(*u)),
        RawValue::Float(f) => sink.number(Num::F64(*f)),
        RawValue::BigNumber(text) => sink.number(Num::F64(text.parse().unwrap_or(f64::NAN))),
        RawValue::String(s) | RawValue::Text(s) => sink.string(s),
        RawValue::Bytes(bytes) => sink.string(&quarry_raw_value::base64::encode(bytes)),
        RawValue::Datetime(datetime) => sink.datetime(datetime),
        RawValue::Seq(items) => {
            sink.begin_list()?;
            for item in items {
                walk(item, sink)?;
            }
            sink.end_list()
        }
        RawValue::Map(entries) => {
            sink.begin_struct()?;
            for (key, value) in entries {
                sink.key(key)?;
                walk(value, sink)?;
            }
            sink.end_struct()
        }
    }
}
