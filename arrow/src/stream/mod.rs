//! Streaming every format: [`RecordReader`] reads a source a chunk of whole records at a
//! time ([`split`] finds where records end without parsing them), hands each chunk to
//! the format's one parser as the whole-file reader would, and keeps the columns (and
//! their record count) from chunk to chunk. Memory holds a chunk (about 256 KiB, or one
//! longer record) and the batches it completes. JSON Lines goes through
//! [`JsonLinesReader`]; TOML is read whole, since its tables may be reopened anywhere.

mod split;

use std::collections::VecDeque;
use std::io::BufRead;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use quarry_raw_value::Fallback;

use crate::columns::Columns;
use crate::error::Error;
use crate::feed::{hand_over_full, Flow};
use crate::json::{self, JsonLinesReader};
use crate::sink::Sink;
use crate::{records, xml, yaml, FieldCounts, Limits, Options, RecordFormat};

use self::split::{JsonArray, Place, XmlElements, YamlStream};

/// Reads records of any format from a [`BufRead`] into batches of
/// [`Options::batch_size`] rows, an iterator that ends after the first error:
///
/// - JSON Lines, a line at a time ([`JsonLinesReader`]);
/// - a JSON array, an item at a time (a document that is one object is one record);
/// - a YAML stream, a document at a time (a document that is a sequence is read whole,
///   each item a record);
/// - XML, an element under the root (or at [`Options::records_at`]) at a time;
/// - TOML, whole.
///
/// Every batch equals the one [`crate::read`] gives for the same records, and errors
/// name the record, line and column in the source.
///
/// ```
/// use quarry_arrow::{infer_schema, read_stream, Options, RecordFormat};
///
/// let yaml = b"name: a\nsize: 1\n---\nname: b\nsize: 2\n";
/// let options = Options::default();
/// let schema = infer_schema(yaml, RecordFormat::Yaml, &options)?;
/// let mut rows = 0;
/// for batch in read_stream(&yaml[..], RecordFormat::Yaml, schema.into(), &options) {
///     rows += batch?.num_rows();
/// }
/// assert_eq!(rows, 2);
/// # Ok::<(), quarry_arrow::Error>(())
/// ```
pub struct RecordReader<R> {
    inner: Inner<R>,
}

enum Inner<R> {
    Lines(Box<JsonLinesReader<R>>),
    Chunks(Box<Chunks<R>>),
    Whole {
        reader: Option<R>,
        format: RecordFormat,
        schema: SchemaRef,
        options: Options,
        batches: VecDeque<RecordBatch>,
        unknown: FieldCounts,
    },
}

/// A format's record boundaries.
enum Splitter {
    Json(JsonArray),
    Yaml(YamlStream),
    Xml(XmlElements, xml::RecordPath),
}

/// The chunked reader of JSON arrays, YAML streams and XML.
struct Chunks<R> {
    reader: R,
    split: Splitter,
    columns: Result<Columns, Option<Error>>,
    schema: SchemaRef,
    options: Options,
    chunk: Vec<u8>,
    ready: VecDeque<RecordBatch>,
    /// Unknown fields counted by a document read whole (a JSON source that is not an
    /// array), beside those the columns count.
    unknown: FieldCounts,
    /// Source bytes read so far, held to the document size limit.
    read: usize,
    started: bool,
    done: bool,
}

impl<R: BufRead> RecordReader<R> {
    /// A reader of `reader`'s records of `format` into `schema`'s columns.
    pub fn new(reader: R, format: RecordFormat, schema: SchemaRef, options: &Options) -> Self {
        let mut refused = None;
        let split = match format {
            RecordFormat::JsonLines => {
                return RecordReader {
                    inner: Inner::Lines(Box::new(JsonLinesReader::new(reader, schema, options))),
                }
            }
            RecordFormat::Toml => {
                return RecordReader {
                    inner: Inner::Whole {
                        reader: Some(reader),
                        format,
                        schema,
                        options: options.clone(),
                        batches: VecDeque::new(),
                        unknown: FieldCounts::new(),
                    },
                }
            }
            RecordFormat::Json => Splitter::Json(JsonArray::new()),
            RecordFormat::Yaml => Splitter::Yaml(YamlStream::new()),
            RecordFormat::Xml => {
                let path = match xml::RecordPath::new(options.records_at.as_deref()) {
                    Ok(path) => path,
                    Err(error) => {
                        // The reader's first item is the error.
                        refused = Some(error);
                        xml::RecordPath::default()
                    }
                };
                Splitter::Xml(XmlElements::new(path.depth().saturating_sub(1)), path)
            }
        };
        let columns = match refused {
            Some(error) => Err(error),
            None => Columns::new(schema.clone(), options).map(|mut columns| {
                if format == RecordFormat::Xml {
                    columns.singles_as_lists();
                }
                columns
            }),
        };
        RecordReader {
            inner: Inner::Chunks(Box::new(Chunks {
                reader,
                split,
                columns: columns.map_err(Some),
                schema,
                options: options.clone(),
                chunk: Vec::new(),
                ready: VecDeque::new(),
                unknown: FieldCounts::new(),
                read: 0,
                started: false,
                done: false,
            })),
        }
    }
}

impl<R> RecordReader<R> {
    /// How many times each field the schema lacks was met so far, by its path from the
    /// record (`extra`, `meta.extra`): counted under [`crate::UnknownFields::Collect`]
    /// (the default when [`Options::infer_records`] is a sample), empty otherwise. Ask
    /// at the end of the stream for the whole source's counts.
    pub fn unknown_fields(&self) -> FieldCounts {
        match &self.inner {
            Inner::Lines(lines) => lines.unknown_fields(),
            Inner::Chunks(chunks) => {
                let mut counts = chunks.unknown.clone();
                if let Ok(columns) = &chunks.columns {
                    add_counts(&mut counts, columns.unknown_fields());
                }
                counts
            }
            Inner::Whole { unknown, .. } => unknown.clone(),
        }
    }
}

/// Adds `more` counts into `counts`.
pub(crate) fn add_counts(counts: &mut FieldCounts, more: FieldCounts) {
    for (field, count) in more {
        *counts.entry(field).or_default() += count;
    }
}

impl<R: BufRead> Chunks<R> {
    /// Reads and parses the next chunk; false at the end of the source.
    fn read_chunk(&mut self) -> Result<bool, Error> {
        let columns = match &mut self.columns {
            Ok(columns) => columns,
            Err(error) => return Err(error.take().unwrap_or_else(|| Error::new("no schema"))),
        };
        let (place, lead) = match &mut self.split {
            Splitter::Json(split) => {
                match split.fill(&mut self.reader, &mut self.chunk, self.options.stream_chunk)? {
                    Some(place) => (place, 0),
                    None => return Ok(false),
                }
            }
            Splitter::Yaml(split) => {
                match split.fill(&mut self.reader, &mut self.chunk, self.options.stream_chunk)? {
                    Some(place) => (place, 0),
                    None => return Ok(false),
                }
            }
            Splitter::Xml(split, _) => {
                match split.fill(&mut self.reader, &mut self.chunk, self.options.stream_chunk)? {
                    Some(found) => found,
                    None => return Ok(false),
                }
            }
        };
        self.read = self.read.saturating_add(self.chunk.len() - lead);
        if self.read > self.options.limits.max_document_size {
            return Err(json::size_limit(self.options.limits.max_document_size));
        }
        // Each chunk is parsed under the limits but the size, which holds for the source.
        let limits = self.options.limits.with_max_document_size(usize::MAX);
        let batch_size = self.options.batch_size;
        if !self.started {
            self.started = true;
            let format = match self.split {
                Splitter::Json(_) => RecordFormat::Json,
                Splitter::Yaml(_) => RecordFormat::Yaml,
                Splitter::Xml(..) => RecordFormat::Xml,
            };
            columns.expect_rows(crate::feed::expected_rows(&self.chunk, format, batch_size));
        }
        let ready = &mut self.ready;
        let mut failed = None;
        let mut after =
            |columns: &mut Columns| hand_over_full(columns, batch_size, ready, &mut failed);
        let chunk = &self.chunk[..];
        let result = match &self.split {
            Splitter::Json(split) if split.is_array() => {
                // Items stand one level deeper in the source than in the chunk, so the
                // chunk is read one level short and the error names the user's limit.
                let depth = limits.max_depth;
                let limits = limits.with_max_depth(depth.saturating_sub(1));
                let in_source = |error: Error| {
                    error.reworded(
                        &format!("the limit of {}", limits.max_depth),
                        &format!("the limit of {depth}"),
                    )
                };
                if self.options.events_only {
                    json::feed_stream(chunk, columns, &mut after, limits).map_err(in_source)
                } else {
                    let records_before = columns.records();
                    match json::pull(chunk, true, columns, &mut after, limits) {
                        Ok(()) => Ok(()),
                        Err(Fallback) if failed.is_some() => Ok(()),
                        Err(Fallback) => Err(in_source(explain(
                            chunk,
                            &self.schema,
                            &self.options,
                            records_before,
                            limits,
                        ))),
                    }
                }
            }
            // One document, not an array: read as the whole-file reader reads it.
            Splitter::Json(_) => records::read(
                chunk,
                RecordFormat::Json,
                self.schema.clone(),
                &self.options,
            )
            .map(|(batches, unknown)| {
                ready.extend(batches.into_iter().filter(|batch| batch.num_rows() > 0));
                add_counts(&mut self.unknown, unknown);
            }),
            Splitter::Yaml(_) => yaml::feed(chunk, columns, &mut after, limits),
            Splitter::Xml(_, path) => xml::feed(chunk, path, columns, &mut after, limits),
        };
        result.map_err(|e| relocate(e, chunk, place, lead))?;
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(true)
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

/// The error in a chunk of JSON values the direct path gave up on: the events read it
/// into new columns, counting records from `records_before` as the stream's columns did.
#[cold]
fn explain(
    chunk: &[u8],
    schema: &SchemaRef,
    options: &Options,
    records_before: usize,
    limits: Limits,
) -> Error {
    let mut columns = match Columns::new(schema.clone(), options) {
        Ok(columns) => columns,
        Err(error) => return error,
    };
    columns.count_records_from(records_before);
    match json::feed_stream(chunk, &mut columns, &mut |_: &mut Columns| Flow::Go, limits) {
        Err(error) => error,
        Ok(()) => Error::new(
            "quarry-arrow: the direct path gave up on a chunk the events read (a bug; \
             `Options::events_only(true)` reads around it)",
        ),
    }
}

/// An error at a line and column of `chunk`, placed in the source: the chunk's source
/// bytes start at `place`, on a line of their own after `lead` bytes (the XML head).
fn relocate(error: Error, chunk: &[u8], place: Place, lead: usize) -> Error {
    let first = memchr::memchr_iter(b'\n', &chunk[..lead]).count() as u64 + 1;
    error.placed(|line, column| {
        if line < first {
            (line, column)
        } else if line == first {
            (place.line, column + place.column - 1)
        } else {
            (line - first + place.line, column)
        }
    })
}

impl<R: BufRead> Iterator for RecordReader<R> {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            Inner::Lines(lines) => lines.next(),
            Inner::Chunks(chunks) => {
                if chunks.done {
                    return None;
                }
                match chunks.next_batch() {
                    Ok(Some(batch)) => Some(Ok(batch)),
                    Ok(None) => {
                        chunks.done = true;
                        None
                    }
                    Err(error) => {
                        chunks.done = true;
                        Some(Err(error))
                    }
                }
            }
            Inner::Whole {
                reader,
                format,
                schema,
                options,
                batches,
                unknown,
            } => {
                if let Some(mut reader) = reader.take() {
                    let mut bytes = Vec::new();
                    if let Err(error) = reader.read_to_end(&mut bytes) {
                        return Some(Err(error.into()));
                    }
                    match records::read(&bytes, *format, schema.clone(), options) {
                        Ok((read, counts)) => {
                            batches.extend(read.into_iter().filter(|b| b.num_rows() > 0));
                            *unknown = counts;
                        }
                        Err(error) => return Some(Err(error)),
                    }
                }
                batches.pop_front().map(Ok)
            }
        }
    }
}
