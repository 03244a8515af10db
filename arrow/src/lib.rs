//! quarry's parsers writing records straight into Apache Arrow.
//!
//! Each format's one parser runs with a builder of this crate's own that appends every
//! value to its column as it is read: no `RawValue`, no tree, no JSON text in between.
//! Records are the objects of a JSON Lines file or a JSON array (or a lone JSON object),
//! the documents of a YAML stream (or the items of a document that is a sequence), the
//! elements under an XML document's root, and the tables of a TOML array of tables.
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
    /// XML: each element under the root is a record; its attributes (`@name`), child
    /// elements and text (`$text`) are its fields, as in quarry's XML mapping.
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

/// How records are read: batch size, schema inference, what a misfit value does.
#[derive(Debug, Clone)]
pub struct Options {
    batch_size: usize,
    infer_records: Option<usize>,
    lenient: bool,
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
            infer_records: Some(1000),
            lenient: false,
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

    /// How many records [`infer_schema`] reads (default 1,000; `None`: all of them).
    pub fn infer_records(mut self, records: Option<usize>) -> Self {
        self.infer_records = records;
        self
    }

    /// When true, a value that does not fit its column becomes a null there (arrow-json's
    /// `ignore_type_conflicts`); when false (the default) it is an error naming the
    /// record, line and column.
    pub fn lenient(mut self, lenient: bool) -> Self {
        self.lenient = lenient;
        self
    }

    /// TOML: the top-level key whose array of tables holds the records (default: the
    /// first array of tables in the document).
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

/// Infers a schema from the first [`Options::infer_records`] records, by arrow-json's
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
/// with `schema`'s columns. Fields the schema does not name are skipped.
pub fn read(
    bytes: &[u8],
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
) -> Result<Vec<RecordBatch>, Error> {
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
