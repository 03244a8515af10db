//! quarry's parsers writing records straight into Apache Arrow.
//!
//! Each format's one parser runs with a builder of this crate's own that appends every
//! value to its column as it is read: no `RawValue`, no tree, no JSON text in between.
//! Records are the objects of a JSON Lines file or a JSON array (or a lone JSON object),
//! the documents of a YAML stream (or the items of a document that is a sequence), the
//! elements under an XML document's root (or at the path [`Options::records_at`] names),
//! and the tables of a TOML array of tables.
//!
//! ```
//! use quarry_arrow::{infer_schema, read, Options, RecordFormat};
//!
//! let logs = b"{\"level\": \"info\", \"took\": 12}\n{\"level\": \"warn\", \"took\": 3.5}\n";
//! let options = Options::default();
//! let schema = infer_schema(logs, RecordFormat::JsonLines, &options)?;
//! assert_eq!(schema.field(1).data_type(), &arrow_schema::DataType::Float64);
//!
//! let batches = read(logs, RecordFormat::JsonLines, schema.into(), &options)?;
//! assert_eq!(batches[0].num_rows(), 2);
//! # Ok::<(), quarry_arrow::Error>(())
//! ```
//!
//! No field is lost without a word: a field a record has and the schema lacks is an
//! error naming the record, the field and its line and column, unless
//! [`Options::unknown_fields`] skips it ([`UnknownFields::Ignore`]) or skips and counts
//! it ([`UnknownFields::Collect`]: the reader's `unknown_fields()` gives a count per
//! field). [`infer_schema`] reads every record by default, so its schema has every
//! field; with a sample ([`Options::infer_records`]), the readers that can report counts
//! count by default what the sample missed, and [`read`], which cannot, makes it an error.
//!
//! A file of any size streams through [`read_stream`] one batch at a time, in memory
//! bounded by the batch: the lines of JSON Lines, the items of a JSON array, the
//! documents of a YAML stream, the elements under an XML root (TOML is read whole).
//! With the `datafusion` feature, `QuarryFormat` lets DataFusion's listing tables read
//! every format here, JSON Lines split into byte ranges so partitions run in parallel.

mod buffers;
mod columns;
mod error;
mod feed;
mod infer;
mod json;
mod records;
mod sink;
mod stream;
mod toml;
mod xml;
mod yaml;

#[cfg(feature = "datafusion")]
mod datafusion;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};
pub use quarry_formats::Limits;

pub use error::Error;
pub use json::JsonLinesReader;
pub use stream::RecordReader;

#[cfg(feature = "datafusion")]
pub use crate::datafusion::{register_formats, register_table, QuarryFormat, QuarryFormatFactory};

/// How a file holds its records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// One JSON object per line (`.jsonl`, `.ndjson`); blank lines are skipped.
    JsonLines,
    /// A JSON array of objects, or one object.
    Json,
    /// A YAML stream: each document is a record, or each item of a document that is a
    /// sequence.
    Yaml,
    /// XML: each element under the root is a record (or each at the path
    /// [`Options::records_at`] names); its attributes (`@name`), child elements and text
    /// (`$text`) are its fields, as in quarry's XML mapping.
    Xml,
    /// TOML: each table of the top-level array of tables (the first one, or the one
    /// [`Options::records_at`] names).
    Toml,
}

impl RecordFormat {
    /// The record format a path's extension names: `.jsonl`/`.ndjson`, `.json`,
    /// `.yaml`/`.yml`, `.xml`, `.toml`.
    pub fn from_path(path: impl AsRef<Path>) -> Option<RecordFormat> {
        let extension = path.as_ref().extension()?.to_str()?.to_ascii_lowercase();
        Some(match extension.as_str() {
            "jsonl" | "ndjson" => RecordFormat::JsonLines,
            "json" => RecordFormat::Json,
            "yaml" | "yml" => RecordFormat::Yaml,
            "xml" => RecordFormat::Xml,
            "toml" => RecordFormat::Toml,
            _ => return None,
        })
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::JsonLines => "jsonl",
            RecordFormat::Json => "json",
            RecordFormat::Yaml => "yaml",
            RecordFormat::Xml => "xml",
            RecordFormat::Toml => "toml",
        }
    }

    /// Whether a file of this format can be read in byte ranges (at line boundaries), so
    /// that one file feeds several partitions. Only JSON Lines can.
    pub fn is_splittable(self) -> bool {
        self == RecordFormat::JsonLines
    }
}

/// What reading does with a field of a record that the schema does not have. No field is
/// lost without a word: the default is an error, and a reader that skips such fields can
/// say which it skipped and how often.
///
/// [`Options::unknown_fields`] chooses; without a choice it is
/// [`UnknownFields::Error`] when [`Options::infer_records`] reads every record (the
/// default: a schema inferred so has every field), and [`UnknownFields::Collect`] when
/// inference reads a sample, since a later record may hold a field the sample lacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UnknownFields {
    /// An error naming the record, the field (its path from the record, `meta.extra`)
    /// and its line and column.
    #[default]
    Error,
    /// The field is skipped.
    Ignore,
    /// The field is skipped and counted: the reader's `unknown_fields` (or
    /// [`read_with_unknown_fields`]) gives a count per field at the end.
    Collect,
}

/// How many times each field a schema lacks was met, by its path from the record (`extra`,
/// `meta.extra`, `items[].extra` for the objects of a list).
pub type FieldCounts = BTreeMap<String, u64>;

/// How records are read: batch size, schema inference, what a misfit value and a field
/// the schema lacks do.
#[derive(Debug, Clone)]
pub struct Options {
    batch_size: usize,
    infer_records: Option<usize>,
    lenient: bool,
    unknown_fields: Option<UnknownFields>,
    /// Names of top-level fields the data has but the reader's schema leaves out on
    /// purpose (a DataFusion projection): skipped, never unknown.
    unread: Vec<String>,
    records_at: Option<String>,
    string_view: bool,
    events_only: bool,
    stream_chunk: usize,
    limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch_size: 8192,
            infer_records: None,
            lenient: false,
            unknown_fields: None,
            unread: Vec::new(),
            records_at: None,
            string_view: false,
            events_only: false,
            stream_chunk: 256 << 10,
            limits: Limits::default().with_max_document_size(usize::MAX),
        }
    }
}

impl Options {
    /// Rows per record batch (default 8,192; at least 1).
    pub fn batch_size(mut self, rows: usize) -> Self {
        self.batch_size = rows.max(1);
        self
    }

    /// How many records [`infer_schema`] reads (default `None`: all of them, so the
    /// schema has every field of the input). `Some(n)` infers from the first `n`: faster
    /// on a large input, but a later record may hold a field the sample lacked, so
    /// reading with these options counts such fields ([`UnknownFields::Collect`]) unless
    /// [`Options::unknown_fields`] says otherwise.
    pub fn infer_records(mut self, records: Option<usize>) -> Self {
        self.infer_records = records;
        self
    }

    /// What a field the schema does not have does: an error, skipped, or skipped and
    /// counted (see [`UnknownFields`] for the default).
    pub fn unknown_fields(mut self, unknown: UnknownFields) -> Self {
        self.unknown_fields = Some(unknown);
        self
    }

    /// What a field the schema does not have does, chosen or by default:
    /// [`UnknownFields::Error`], or [`UnknownFields::Collect`] when
    /// [`Options::infer_records`] is a sample.
    pub fn get_unknown_fields(&self) -> UnknownFields {
        match (self.unknown_fields, self.infer_records) {
            (Some(unknown), _) => unknown,
            (None, Some(_)) => UnknownFields::Collect,
            (None, None) => UnknownFields::Error,
        }
    }

    /// Whether a value that does not fit its column becomes a null ([`Options::lenient`]).
    pub fn get_lenient(&self) -> bool {
        self.lenient
    }

    /// Top-level fields the reader's schema leaves out on purpose: skipped, never unknown.
    #[cfg(feature = "datafusion")]
    pub(crate) fn unread(mut self, names: Vec<String>) -> Self {
        self.unread = names;
        self
    }

    /// When true, a value that does not fit its column becomes a null there (arrow-json's
    /// `ignore_type_conflicts`); when false (the default) it is an error naming the
    /// record, line and column.
    pub fn lenient(mut self, lenient: bool) -> Self {
        self.lenient = lenient;
        self
    }

    /// Where the records are. TOML: the top-level key whose array of tables holds them
    /// (default: the first array of tables in the document). XML: the path of element
    /// names from the root, `/` between them (`mediawiki/page`: the `page` elements in
    /// the root `mediawiki`; `*` stands for any name), whose elements are the records;
    /// other elements are skipped (default: every element under the root, `*/*`).
    pub fn records_at(mut self, key: impl Into<String>) -> Self {
        self.records_at = Some(key.into());
        self
    }

    /// Whether [`infer_schema`] types strings as `Utf8View` rather than `Utf8`
    /// (default false). Given schemas may use either.
    pub fn string_view(mut self, views: bool) -> Self {
        self.string_view = views;
        self
    }

    /// Reads JSON and JSON Lines through the parser's events only, never by the direct
    /// path (records pulled from the parser straight into the columns). Both give the
    /// same batches and the same errors; this exists so tests and fuzzing can check that.
    #[doc(hidden)]
    pub fn events_only(mut self, events: bool) -> Self {
        self.events_only = events;
        self
    }

    /// How many bytes of whole records [`read_stream`] gathers before parsing them
    /// (default 256 KiB; a chunk ends at the first record boundary past it). Exists so
    /// tests can cut a source at every record.
    #[doc(hidden)]
    pub fn stream_chunk(mut self, bytes: usize) -> Self {
        self.stream_chunk = bytes;
        self
    }

    /// The limits every format's parser holds to (quarry's [`Limits`]): nesting depth,
    /// YAML alias expansion, XML entity expansion and attributes per element, and the
    /// size of the input (a whole document, or all that a stream reads). The default
    /// is [`Limits::default`] without a size limit, since record files are often large;
    /// going past a limit is an error that names it.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The configured limits.
    pub fn get_limits(&self) -> &Limits {
        &self.limits
    }

    /// The configured batch size.
    pub fn get_batch_size(&self) -> usize {
        self.batch_size
    }

    /// The configured number of records [`infer_schema`] reads (`None`: all of them).
    pub fn get_infer_records(&self) -> Option<usize> {
        self.infer_records
    }
}

/// Infers a schema from the records (all of them, or the first
/// [`Options::infer_records`]), by arrow-json's
/// rules: integers `Int64` (floats and mixed numbers `Float64`), booleans, strings, lists
/// (a scalar and a list of it in one field make a list), objects as structs, fields seen
/// only as null `Null`, any other mix `Utf8`. TOML datetimes become timestamps (with
/// offset: UTC), dates `Date32` and times `Time64`. Fields are in the order first seen.
pub fn infer_schema(
    bytes: &[u8],
    format: RecordFormat,
    options: &Options,
) -> Result<Schema, Error> {
    infer::infer_schema(bytes, format, options)
}

/// Reads every record of a whole document into batches of [`Options::batch_size`] rows
/// with `schema`'s columns. A missing field is null; a field the schema does not have is
/// an error naming the record, the field, its line and column, unless
/// [`Options::unknown_fields`] skips it (to learn the counts [`UnknownFields::Collect`]
/// keeps, read with [`read_with_unknown_fields`]). `read` has nowhere to give counts, so
/// where [`UnknownFields::Collect`] is only the default (a sample's options), such a
/// field is an error here.
pub fn read(
    bytes: &[u8],
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
) -> Result<Vec<RecordBatch>, Error> {
    let strict;
    let options = match options.unknown_fields {
        None if options.get_unknown_fields() == UnknownFields::Collect => {
            strict = options.clone().unknown_fields(UnknownFields::Error);
            &strict
        }
        _ => options,
    };
    records::read(bytes, format, schema, options).map(|(batches, _)| batches)
}

/// [`read`], with how many times each field the schema lacks was met (empty unless
/// [`Options::get_unknown_fields`] is [`UnknownFields::Collect`]).
///
/// ```
/// use std::sync::Arc;
/// use arrow_schema::{DataType, Field, Schema};
/// use quarry_arrow::{read_with_unknown_fields, Options, RecordFormat, UnknownFields};
///
/// let lines = b"{\"id\": 1}\n{\"id\": 2, \"extra\": true}\n";
/// let schema = Arc::new(Schema::new(vec![Field::new("id", DataType::Int64, true)]));
/// let options = Options::default().unknown_fields(UnknownFields::Collect);
/// let (batches, unknown) =
///     read_with_unknown_fields(lines, RecordFormat::JsonLines, schema, &options)?;
/// assert_eq!(batches[0].num_rows(), 2);
/// assert_eq!(unknown["extra"], 1);
/// # Ok::<(), quarry_arrow::Error>(())
/// ```
pub fn read_with_unknown_fields(
    bytes: &[u8],
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
) -> Result<(Vec<RecordBatch>, FieldCounts), Error> {
    records::read(bytes, format, schema, options)
}

/// Streams a JSON Lines source in batches: memory holds one batch and one line.
pub fn read_json_lines<R: BufRead>(
    reader: R,
    schema: SchemaRef,
    options: &Options,
) -> JsonLinesReader<R> {
    JsonLinesReader::new(reader, schema, options)
}

/// Streams records of any format in batches ([`RecordReader`]): memory holds one batch
/// and a chunk of whole records (one record at least), whatever the size of the source.
pub fn read_stream<R: BufRead>(
    reader: R,
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
) -> RecordReader<R> {
    RecordReader::new(reader, format, schema, options)
}
