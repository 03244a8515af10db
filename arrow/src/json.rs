//! JSON and JSON Lines: a [`JsonBuilder`] that hands each value to a sink as the one
//! JSON parser reads it, and the streaming reader of JSON Lines.

use std::collections::VecDeque;
use std::io::BufRead;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use quarry_formats::common::Span;
use quarry_formats::json::{self, JsonBuilder, NumberToken};
use quarry_formats::Limits;
use quarry_raw_value::{Fallback, PullSource, TextRef, ValueKind};

use crate::columns::Columns;
use crate::error::Error;
use crate::feed::{emit, hand_over_full, record_done, syntax_error, After, Failure, Flow};
use crate::sink::Sink;
use crate::{FieldCounts, Options};

/// The builder: values go to the sink; objects at the record level are records.
struct Records<'s, 'f, S: Sink> {
    sink: &'s mut S,
    after: &'s mut After<'f, S>,
    depth: usize,
    /// 0: the document's value is the record; 1: each item of a top-level array is.
    record_depth: usize,
    /// Whether a top-level array may hold the records (JSON, not JSON Lines).
    arrays_of_records: bool,
    failure: Failure,
    stopped: bool,
}

impl<'s, 'f, S: Sink> Records<'s, 'f, S> {
    fn new(sink: &'s mut S, after: &'s mut After<'f, S>, arrays_of_records: bool) -> Self {
        Records {
            sink,
            after,
            depth: 0,
            record_depth: 0,
            arrays_of_records,
            failure: Failure::default(),
            stopped: false,
        }
    }

    /// A scalar where a record should be.
    #[inline]
    fn at_record_level(&mut self, found: &str, offset: usize) -> bool {
        if self.depth == self.record_depth {
            let record = self.sink.records();
            if !self.failure.is_set() && !self.stopped {
                self.failure.set(
                    format!("a record must be an object, found {found}"),
                    offset,
                    record,
                );
            }
            return true;
        }
        false
    }
}

impl<'a, S: Sink> JsonBuilder<'a> for Records<'_, '_, S> {
    type Value = ();
    type Array = ();
    type Object = ();
    type Key = ();

    #[inline]
    fn null(&mut self, span: Span) {
        if !self.at_record_level("null", span.start) {
            emit!(self, span.start, |sink| sink.null());
        }
    }

    #[inline]
    fn bool(&mut self, value: bool, span: Span) {
        if !self.at_record_level("a boolean", span.start) {
            emit!(self, span.start, |sink| sink.bool(value));
        }
    }

    #[inline]
    fn number(&mut self, value: NumberToken<'a>, span: Span) {
        if !self.at_record_level("a number", span.start) {
            emit!(self, span.start, |sink| sink.number(value.num()));
        }
    }

    #[inline]
    fn string(&mut self, value: TextRef<'a, '_>, span: Span) {
        if !self.at_record_level("a string", span.start) {
            emit!(self, span.start, |sink| sink.string(value.as_str()));
        }
    }

    #[inline]
    fn begin_array(&mut self, start: usize) {
        if self.depth == 0 && self.arrays_of_records {
            self.record_depth = 1;
        } else if !self.at_record_level("an array", start) {
            emit!(self, start, |sink| sink.begin_list());
        }
        self.depth += 1;
    }

    #[inline]
    fn array_item(&mut self, _: &mut (), _: ()) {}

    #[inline]
    fn end_array(&mut self, _: (), span: Span) {
        self.depth -= 1;
        if self.depth > self.record_depth {
            emit!(self, span.end, |sink| sink.end_list());
        }
    }

    #[inline]
    fn begin_object(&mut self, start: usize) {
        if self.depth == self.record_depth {
            emit!(self, start, |sink| sink.begin_record());
        } else {
            emit!(self, start, |sink| sink.begin_struct());
        }
        self.depth += 1;
    }

    #[inline]
    fn key(&mut self, key: TextRef<'a, '_>, span: Span) {
        emit!(self, span.start, |sink| sink.key(key.as_str()));
    }

    #[inline]
    fn object_member(&mut self, _: &mut (), _: (), _: ()) {}

    #[inline]
    fn end_object(&mut self, _: (), span: Span) {
        self.depth -= 1;
        if self.depth == self.record_depth {
            emit!(self, span.start, |sink| sink.end_record());
            record_done!(self);
        } else {
            emit!(self, span.start, |sink| sink.end_struct());
        }
    }
}

/// The direct path over a whole JSON Lines text (`lines`) or JSON document (an array of
/// records, or one record): each record pulled from the parser's [`json::DirectSource`]
/// into `columns` ([`Columns::pull_record`]). `Fallback` wherever the event path
/// ([`feed_lines`], [`feed_document`]) would fail, and when `after` stops the read.
pub(crate) fn pull(
    bytes: &[u8],
    lines: bool,
    columns: &mut Columns,
    after: &mut After<'_, Columns>,
    limits: Limits,
) -> Result<(), Fallback> {
    let mut src = json::DirectSource::new(bytes, limits).map_err(|_| Fallback)?;
    let mut record = |src: &mut json::DirectSource<'_>, columns: &mut Columns| {
        columns.pull_record(src)?;
        match after(columns) {
            Flow::Go => Ok(()),
            Flow::Stop => Err(Fallback),
        }
    };
    if lines {
        while !src.at_end() {
            record(&mut src, columns)?;
        }
        return Ok(());
    }
    match src.peek_token()? {
        ValueKind::Array => {
            src.begin_array()?;
            let mut first = true;
            while src.next_item(first)? {
                first = false;
                record(&mut src, columns)?;
            }
        }
        _ => record(&mut src, columns)?,
    }
    src.finish()
}

/// A JSON document: an array of records, or one record.
pub(crate) fn feed_document<S: Sink>(
    bytes: &[u8],
    sink: &mut S,
    after: &mut After<'_, S>,
    limits: Limits,
) -> Result<(), Error> {
    let mut records = Records::new(sink, after, true);
    json::parse_with(bytes, &mut records, limits).map_err(syntax_error)?;
    match records.failure.into_error(bytes) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// JSON Lines text (whole lines) through one parser: every value a record.
pub(crate) fn feed_stream<S: Sink>(
    bytes: &[u8],
    sink: &mut S,
    after: &mut After<'_, S>,
    limits: Limits,
) -> Result<(), Error> {
    let mut records = Records::new(sink, after, false);
    json::parse_stream_with(bytes, &mut records, limits, |records, (), _| {
        !records.stopped && !records.failure.is_set()
    })
    .map_err(syntax_error)?;
    match records.failure.into_error(bytes) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// A whole JSON Lines text in memory.
pub(crate) fn feed_lines<S: Sink>(
    bytes: &[u8],
    sink: &mut S,
    after: &mut After<'_, S>,
    limits: Limits,
) -> Result<(), Error> {
    feed_stream(bytes, sink, after, limits)
}

/// How much of a JSON Lines source is read and parsed at a time (whole lines: a chunk
/// ends at the first line break after this many bytes).
const CHUNK: usize = 256 << 10;

/// Reads a JSON Lines source into batches of [`Options::batch_size`] rows, a chunk of
/// whole lines at a time: memory holds a chunk (about 256 KiB, or one longer line) and
/// the batches it completes, whatever the size of the source. An iterator of batches;
/// it ends after the first error. Values may also be separated by other whitespace
/// than line breaks (concatenated JSON), as arrow-json allows.
pub struct JsonLinesReader<R> {
    reader: R,
    columns: Result<Columns, Option<Error>>,
    schema: SchemaRef,
    options: Options,
    events_only: bool,
    batch_size: usize,
    chunk: Vec<u8>,
    ready: VecDeque<RecordBatch>,
    lines: u64,
    /// The limits each chunk is parsed with (no size limit: `read` counts the source).
    limits: Limits,
    read: usize,
    max_size: usize,
    done: bool,
}

impl<R> JsonLinesReader<R> {
    /// How many times each field the schema lacks was met so far, by its path from the
    /// record: counted under [`crate::UnknownFields::Collect`], empty otherwise.
    pub fn unknown_fields(&self) -> FieldCounts {
        match &self.columns {
            Ok(columns) => columns.unknown_fields(),
            Err(_) => FieldCounts::new(),
        }
    }
}

impl<R: BufRead> JsonLinesReader<R> {
    /// A reader of `reader`'s lines into `schema`'s columns.
    pub fn new(reader: R, schema: SchemaRef, options: &Options) -> Self {
        JsonLinesReader {
            reader,
            columns: Columns::new(schema.clone(), options).map_err(Some),
            schema,
            options: options.clone(),
            events_only: options.events_only,
            batch_size: options.batch_size,
            chunk: Vec::new(),
            ready: VecDeque::new(),
            lines: 0,
            limits: options.limits.with_max_document_size(usize::MAX),
            read: 0,
            max_size: options.limits.max_document_size,
            done: false,
        }
    }

    /// The number of lines read so far.
    pub fn lines_read(&self) -> u64 {
        self.lines
    }

    /// Reads and parses the next chunk; false at the end of the source.
    fn read_chunk(&mut self) -> Result<bool, Error> {
        let columns = match &mut self.columns {
            Ok(columns) => columns,
            Err(error) => return Err(error.take().unwrap_or_else(|| Error::new("no schema"))),
        };
        self.chunk.clear();
        while self.chunk.len() < CHUNK {
            if self.reader.read_until(b'\n', &mut self.chunk)? == 0 {
                break;
            }
        }
        if self.chunk.is_empty() {
            return Ok(false);
        }
        self.read = self.read.saturating_add(self.chunk.len());
        if self.read > self.max_size {
            return Err(size_limit(self.max_size));
        }
        let batch_size = self.batch_size;
        if self.lines == 0 {
            let rows =
                crate::feed::expected_rows(&self.chunk, crate::RecordFormat::JsonLines, batch_size);
            columns.expect_rows(if self.chunk.len() >= CHUNK {
                batch_size
            } else {
                rows
            });
        }
        let ready = &mut self.ready;
        let mut failed = None;
        let mut after =
            |columns: &mut Columns| hand_over_full(columns, batch_size, ready, &mut failed);
        let lines_before = self.lines;
        self.lines += memchr::memchr_iter(b'\n', &self.chunk).count() as u64;
        let records_before = columns.records();
        let result = if self.events_only {
            feed_stream(&self.chunk, columns, &mut after, self.limits)
        } else {
            // The direct path; where it gives up, the events read the chunk again to say
            // what is wrong and where (the error ends the stream).
            match pull(&self.chunk, true, columns, &mut after, self.limits) {
                Ok(()) => Ok(()),
                Err(Fallback) if failed.is_some() => Ok(()),
                Err(Fallback) => Err(self.explain(records_before)),
            }
        };
        result.map_err(|e| e.shifted(0, lines_before))?;
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(true)
    }

    /// The error in the chunk the direct path gave up on: the events read it into new
    /// columns, counting records from `records_before` as the stream's columns did.
    #[cold]
    fn explain(&self, records_before: usize) -> Error {
        let mut columns = match Columns::new(self.schema.clone(), &self.options) {
            Ok(columns) => columns,
            Err(error) => return error,
        };
        columns.count_records_from(records_before);
        match feed_stream(
            &self.chunk,
            &mut columns,
            &mut |_: &mut Columns| Flow::Go,
            self.limits,
        ) {
            Err(error) => error,
            Ok(()) => Error::new(
                "quarry-arrow: the direct path gave up on a chunk the events read (a bug; \
                 `Options::events_only(true)` reads around it)",
            ),
        }
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>, Error> {
        loop {
            if let Some(batch) = self.ready.pop_front() {
                return Ok(Some(batch));
            }
            if !self.read_chunk()? {
                break;
            }
        }
        match &mut self.columns {
            Ok(columns) if columns.rows() > 0 => columns.take_batch().map(Some),
            _ => Ok(None),
        }
    }
}
impl<R: BufRead> Iterator for JsonLinesReader<R> {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_batch() {
            Ok(Some(batch)) => Some(Ok(batch)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                Some(Err(error))
            }
        }
    }
}

/// The error of a source longer than `max` bytes.
#[cold]
pub(crate) fn size_limit(max: usize) -> Error {
    Error::new(format!("document larger than the limit of {max} bytes"))
}
