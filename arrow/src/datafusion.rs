//! DataFusion over quarry's readers: [`QuarryFormat`], a [`FileFormat`] for listing tables
//! of JSON Lines, JSON, YAML, XML and TOML files.
//!
//! The format plugs into DataFusion the way its own JSON format does: a [`FileFormat`]
//! that infers schemas, a [`FileSource`] that DataFusion plans scans with, and a
//! [`FileOpener`] that turns one file (or one byte range of one) into a stream of record
//! batches. JSON Lines files are splittable: when DataFusion repartitions a scan
//! (`datafusion.optimizer.repartition_file_scans`), each partition reads the lines that
//! start in its byte range, so every line is read exactly once, in parallel. The other
//! formats are read whole, one file per partition.
//!
//! Partitions, scheduling and parallelism are DataFusion's: the provider runs unchanged
//! wherever DataFusion plans run — a [`SessionContext`] in one process, or engines that
//! execute DataFusion plans elsewhere, such as Ballista (which, as for any custom file
//! source, must be able to ship the scan to its executors through its plan codec). quarry
//! builds no scheduler of its own.
//!
//! ```no_run
//! use datafusion::prelude::SessionContext;
//! use quarry_arrow::{register_table, Options, RecordFormat};
//!
//! # async fn run() -> datafusion::error::Result<()> {
//! let ctx = SessionContext::new();
//! register_table(&ctx, "logs", "logs/", RecordFormat::Yaml, Options::default()).await?;
//! let levels = ctx.sql("SELECT level, count(*) FROM logs GROUP BY level").await?;
//! levels.show().await?;
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, Read};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use bytes::{Buf, Bytes};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::catalog::Session;
use datafusion::common::runtime::SpawnedTask;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{config_err, not_impl_err, DataFusionError, GetExt, Statistics};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use datafusion::datasource::file_format::{FileFormat, FileFormatFactory};
use datafusion::datasource::listing::{ListingOptions, ListingTableUrl, PartitionedFile};
use datafusion::datasource::physical_plan::{
    FileOpenFuture, FileOpener, FileScanConfig, FileSource,
};
use datafusion::datasource::projection::{ProjectionOpener, SplitProjection};
use datafusion::datasource::provider::DefaultTableFactory;
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::error::Result;
use datafusion::execution::context::SessionContext;
use datafusion::object_store::path::Path;
use datafusion::object_store::{ObjectMeta, ObjectStore, ObjectStoreExt};
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::projection::ProjectionExprs;
use datafusion::physical_plan::{apply_expression_roots, ExecutionPlan, PhysicalExpr};
use datafusion_datasource::boundary_stream::AlignedBoundaryStream;
use futures::channel::mpsc;
use futures::stream::BoxStream;
use futures::{SinkExt, StreamExt};

use crate::stream::add_counts;
use crate::{FieldCounts, Options, RecordFormat, UnknownFields};

/// Chunks of a JSON Lines file in flight between the object store and the parser.
const CHUNKS_IN_FLIGHT: usize = 16;

/// A DataFusion [`FileFormat`] reading one [`RecordFormat`] with quarry's parsers.
///
/// Use it in [`ListingOptions`] (or through [`register_table`]); schemas are inferred with
/// [`crate::infer_schema`] and merged across files, statistics are unknown, and a scan
/// reads only the columns it projects.
///
/// A field a file has and the table's schema lacks (possible when
/// [`Options::infer_records`] is a sample) is what [`Options::get_unknown_fields`] says:
/// an error naming the file, record, line and column, or skipped, or counted in
/// [`QuarryFormat::unknown_fields`] (the default with a sample).
#[derive(Debug, Clone)]
pub struct QuarryFormat {
    format: RecordFormat,
    options: Options,
    /// What the scans of this format (and of its clones) counted.
    unknown: Arc<Mutex<FieldCounts>>,
}

impl QuarryFormat {
    /// A format reading `format` files with `options` (the batch size is the session's
    /// when DataFusion gives one).
    pub fn new(format: RecordFormat, options: Options) -> Self {
        QuarryFormat {
            format,
            options,
            unknown: Arc::default(),
        }
    }

    /// How many times each field the table's schema lacks was met by the scans so far
    /// (of this format and its clones), by its path from the record: counted under
    /// [`crate::UnknownFields::Collect`], empty otherwise.
    pub fn unknown_fields(&self) -> FieldCounts {
        self.unknown
            .lock()
            .map(|counts| counts.clone())
            .unwrap_or_default()
    }

    /// Registers the files at `path` as the table `name` of `ctx`, read with this
    /// format, as [`register_table`] does; this format (or a clone) then reports the
    /// table's [`QuarryFormat::unknown_fields`].
    pub async fn register_table(&self, ctx: &SessionContext, name: &str, path: &str) -> Result<()> {
        let url = ListingTableUrl::parse(path)?;
        let extension = if url.is_collection() && url.get_glob().is_none() {
            format!(".{}", self.format.extension())
        } else {
            // A file, or a glob: the path already says which files.
            String::new()
        };
        let listing = ListingOptions::new(Arc::new(self.clone())).with_file_extension(extension);
        ctx.register_listing_table(name, path, listing, None, None)
            .await
    }

    /// The record format of the files.
    pub fn record_format(&self) -> RecordFormat {
        self.format
    }

    /// The reading options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The bytes schema inference reads from one object: for JSON Lines only the lines
    /// that hold the first [`Options::infer_records`] records, for the others all of it.
    async fn sample(&self, store: &Arc<dyn ObjectStore>, object: &ObjectMeta) -> Result<Bytes> {
        let result = store.get(&object.location).await?;
        let wanted = match (self.format, self.options.get_infer_records()) {
            (RecordFormat::JsonLines, Some(wanted)) => wanted,
            _ => return Ok(result.bytes().await?),
        };
        let mut chunks = result.into_stream();
        let mut sample = Vec::new();
        let mut lines = RecordLines::default();
        while lines.records < wanted {
            let Some(chunk) = chunks.next().await.transpose()? else {
                break;
            };
            sample.extend_from_slice(&chunk);
            if let Some(end) = lines.end_of(&sample, wanted) {
                sample.truncate(end);
            }
        }
        Ok(Bytes::from(sample))
    }
}

/// Counts the records (non-blank lines) of a JSON Lines prefix as it grows.
#[derive(Debug, Default)]
struct RecordLines {
    scanned: usize,
    records: usize,
}

impl RecordLines {
    /// The end (past its line break) of the line holding record `wanted`, once `text`
    /// reaches it.
    fn end_of(&mut self, text: &[u8], wanted: usize) -> Option<usize> {
        if self.records >= wanted {
            return Some(self.scanned);
        }
        while let Some(at) = text[self.scanned..].iter().position(|&b| b == b'\n') {
            let end = self.scanned + at + 1;
            if !is_blank(&text[self.scanned..end]) {
                self.records += 1;
            }
            self.scanned = end;
            if self.records >= wanted {
                return Some(end);
            }
        }
        None
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

#[async_trait]
impl FileFormat for QuarryFormat {
    fn get_ext(&self) -> String {
        self.format.extension().to_string()
    }

    fn get_ext_with_compression(&self, compression: &FileCompressionType) -> Result<String> {
        if compression.is_compressed() {
            return not_impl_err!("quarry reads uncompressed {} files only", self.get_ext());
        }
        Ok(self.get_ext())
    }

    fn compression_type(&self) -> Option<FileCompressionType> {
        Some(FileCompressionType::UNCOMPRESSED)
    }

    async fn infer_schema(
        &self,
        _state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        objects: &[ObjectMeta],
    ) -> Result<SchemaRef> {
        // Every file is read at once; the schemas merge as inference widens within a
        // file, so a column one file adds is null in the others.
        let schemas = futures::future::try_join_all(objects.iter().map(|object| async move {
            let sample = self.sample(store, object).await?;
            crate::infer_schema(&sample, self.format, &self.options)
                .map_err(|error| file_error(&object.location, None, error))
        }))
        .await?;
        let merged = crate::infer::merge_schemas(&schemas, self.format == RecordFormat::Xml)
            .map_err(|error| DataFusionError::External(Box::new(error)))?;
        Ok(Arc::new(merged))
    }

    async fn infer_stats(
        &self,
        _state: &dyn Session,
        _store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        _object: &ObjectMeta,
    ) -> Result<Statistics> {
        Ok(Statistics::new_unknown(&table_schema))
    }

    async fn create_physical_plan(
        &self,
        _state: &dyn Session,
        conf: FileScanConfig,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if conf.file_compression_type.is_compressed() {
            return not_impl_err!("quarry reads uncompressed {} files only", self.get_ext());
        }
        Ok(DataSourceExec::from_data_source(conf))
    }

    fn file_source(&self, table_schema: TableSchema) -> Arc<dyn FileSource> {
        Arc::new(QuarrySource::new(
            self.format,
            self.options.clone(),
            table_schema,
            Arc::clone(&self.unknown),
        ))
    }
}

/// Makes [`QuarryFormat`]s for `CREATE EXTERNAL TABLE … STORED AS <EXTENSION>` (see
/// [`register_formats`]).
///
/// `OPTIONS` may set `lenient`, `infer_records` (a number or `all`), `unknown_fields`
/// (`error`, `ignore` or `collect`), `records_at`, `string_view` and `batch_size`, with
/// or without a `format.` prefix.
#[derive(Debug, Clone)]
pub struct QuarryFormatFactory {
    format: RecordFormat,
    options: Options,
}

impl QuarryFormatFactory {
    /// A factory of `format` readers whose options start as `options`. Its name in
    /// `STORED AS` is the format's extension (`JSONL`, `JSON`, `YAML`, `XML`, `TOML`).
    pub fn new(format: RecordFormat, options: Options) -> Self {
        QuarryFormatFactory { format, options }
    }

    /// The format with `options` applied over this factory's own.
    pub fn create_format(&self, options: &HashMap<String, String>) -> Result<QuarryFormat> {
        let mut read = self.options.clone();
        for (key, value) in options {
            let name = key.strip_prefix("format.").unwrap_or(key);
            read = match name {
                "lenient" => read.lenient(parse_bool(key, value)?),
                "string_view" => read.string_view(parse_bool(key, value)?),
                "records_at" => read.records_at(value.as_str()),
                "unknown_fields" => {
                    read.unknown_fields(match value.to_ascii_lowercase().as_str() {
                        "error" => UnknownFields::Error,
                        "ignore" => UnknownFields::Ignore,
                        "collect" => UnknownFields::Collect,
                        _ => {
                            return config_err!(
                                "option '{key}' must be error, ignore or collect, not '{value}'"
                            )
                        }
                    })
                }
                "batch_size" => read.batch_size(parse_usize(key, value)?),
                "infer_records" | "schema_infer_max_rec" => {
                    if value.eq_ignore_ascii_case("all") {
                        read.infer_records(None)
                    } else {
                        read.infer_records(Some(parse_usize(key, value)?))
                    }
                }
                // Read by DataFusion's table factory, not by the format.
                "unbounded" => read,
                _ => {
                    return config_err!(
                        "unknown option '{key}' for {} files (known: lenient, infer_records, \
                         unknown_fields, records_at, string_view, batch_size)",
                        self.format.extension()
                    )
                }
            };
        }
        Ok(QuarryFormat::new(self.format, read))
    }
}

fn parse_bool(key: &str, value: &str) -> Result<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => config_err!("option '{key}' must be true or false, not '{value}'"),
    }
}

fn parse_usize(key: &str, value: &str) -> Result<usize> {
    match value.parse() {
        Ok(number) => Ok(number),
        Err(_) => config_err!("option '{key}' must be a whole number, not '{value}'"),
    }
}

impl GetExt for QuarryFormatFactory {
    fn get_ext(&self) -> String {
        self.format.extension().to_string()
    }
}

impl FileFormatFactory for QuarryFormatFactory {
    fn create(
        &self,
        _state: &dyn Session,
        format_options: &HashMap<String, String>,
    ) -> Result<Arc<dyn FileFormat>> {
        Ok(Arc::new(self.create_format(format_options)?))
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        Arc::new(QuarryFormat::new(self.format, self.options.clone()))
    }
}

/// Lets `CREATE EXTERNAL TABLE name STORED AS JSONL | YAML | XML | TOML LOCATION '…'` read
/// with quarry in `ctx` (a directory location reads the files with that extension). JSON
/// is left to DataFusion's own format; register a [`QuarryFormatFactory`] of
/// [`RecordFormat::Json`] to replace it.
pub fn register_formats(ctx: &SessionContext) -> Result<()> {
    let state = ctx.state_ref();
    let mut state = state.write();
    for format in [
        RecordFormat::JsonLines,
        RecordFormat::Yaml,
        RecordFormat::Xml,
        RecordFormat::Toml,
    ] {
        let factory = QuarryFormatFactory::new(format, Options::default());
        state.register_file_format(Arc::new(factory), true)?;
        state
            .table_factories_mut()
            .entry(format.extension().to_ascii_uppercase())
            .or_insert_with(|| Arc::new(DefaultTableFactory::new()));
    }
    Ok(())
}

/// Registers the `format` files at `path` (a file, a directory, or a glob; a local path or
/// a URL of an object store registered in `ctx`) as the table `name`. A directory reads
/// the files with the format's usual extension ([`RecordFormat::extension`]); the schema
/// is inferred from all of them and merged.
pub async fn register_table(
    ctx: &SessionContext,
    name: &str,
    path: &str,
    format: RecordFormat,
    options: Options,
) -> Result<()> {
    QuarryFormat::new(format, options)
        .register_table(ctx, name, path)
        .await
}

/// The [`FileSource`] of [`QuarryFormat`]: plans scans and makes their openers.
#[derive(Clone)]
struct QuarrySource {
    format: RecordFormat,
    options: Options,
    table_schema: TableSchema,
    batch_size: Option<usize>,
    metrics: ExecutionPlanMetricsSet,
    projection: SplitProjection,
    unknown: Arc<Mutex<FieldCounts>>,
}

impl QuarrySource {
    fn new(
        format: RecordFormat,
        options: Options,
        table_schema: TableSchema,
        unknown: Arc<Mutex<FieldCounts>>,
    ) -> Self {
        QuarrySource {
            format,
            options,
            projection: SplitProjection::unprojected(&table_schema),
            table_schema,
            batch_size: None,
            metrics: ExecutionPlanMetricsSet::new(),
            unknown,
        }
    }
}

impl FileSource for QuarrySource {
    fn create_file_opener(
        &self,
        object_store: Arc<dyn ObjectStore>,
        _base_config: &FileScanConfig,
        _partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        // Reading with the projected schema skips the other fields as they are parsed.
        let file_schema = self.table_schema.file_schema();
        let schema = Arc::new(file_schema.project(&self.projection.file_indices)?);
        // The table's other columns are in the files but not read: skipped, not unknown.
        let unread = file_schema
            .fields()
            .iter()
            .filter(|field| schema.field_with_name(field.name()).is_err())
            .map(|field| field.name().clone())
            .collect();
        let options = match self.batch_size {
            Some(rows) => self.options.clone().batch_size(rows),
            None => self.options.clone(),
        }
        .unread(unread);
        let opener = Arc::new(QuarryOpener {
            format: self.format,
            options,
            schema,
            store: object_store,
            unknown: Arc::clone(&self.unknown),
        });
        ProjectionOpener::try_new(self.projection.clone(), opener, file_schema)
    }

    fn table_schema(&self) -> &TableSchema {
        &self.table_schema
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        let mut source = self.clone();
        source.batch_size = Some(batch_size);
        Arc::new(source)
    }

    fn try_pushdown_projection(
        &self,
        projection: &ProjectionExprs,
    ) -> Result<Option<Arc<dyn FileSource>>> {
        let mut source = self.clone();
        let merged = self.projection.source.try_merge(projection)?;
        source.projection = SplitProjection::new(self.table_schema.file_schema(), &merged);
        Ok(Some(Arc::new(source)))
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        Some(&self.projection.source)
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        &self.metrics
    }

    fn file_type(&self) -> &str {
        self.format.extension()
    }

    /// Only JSON Lines can be read in byte ranges.
    fn supports_repartitioning(&self) -> bool {
        self.format.is_splittable()
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        apply_expression_roots(self.projection.source.iter(), f)
    }
}

/// Opens one file, or one byte range of a JSON Lines file, as a stream of batches.
struct QuarryOpener {
    format: RecordFormat,
    options: Options,
    /// The file schema projected to the columns the scan reads.
    schema: SchemaRef,
    store: Arc<dyn ObjectStore>,
    unknown: Arc<Mutex<FieldCounts>>,
}

/// Adds a reader's `counts` to a format's.
fn report(unknown: &Mutex<FieldCounts>, counts: FieldCounts) {
    if counts.is_empty() {
        return;
    }
    if let Ok(mut all) = unknown.lock() {
        add_counts(&mut all, counts);
    }
}

impl FileOpener for QuarryOpener {
    /// Opens `file`. With a byte range `[start, end)`, the lines read are those whose
    /// first byte is in the range, as DataFusion's JSON opener reads them: the first is
    /// the line starting at or after `start`, the last the one holding byte `end - 1`.
    /// Ranges that tile a file therefore read each of its lines exactly once.
    fn open(&self, file: PartitionedFile) -> Result<FileOpenFuture> {
        let format = self.format;
        if file.range.is_some() && !format.is_splittable() {
            return not_impl_err!(
                "{} files cannot be read in byte ranges; only JSON Lines can",
                format.extension()
            );
        }
        let options = self.options.clone();
        let schema = Arc::clone(&self.schema);
        let store = Arc::clone(&self.store);
        let unknown = Arc::clone(&self.unknown);
        Ok(Box::pin(async move {
            let location = file.object_meta.location.clone();
            if format == RecordFormat::JsonLines {
                let range = file.range.as_ref().map(|range| (range.start, range.end));
                let chunks = match range {
                    Some((start, end)) => {
                        let (start, end) = (to_offset(start)?, to_offset(end)?);
                        let size = file.object_meta.size;
                        AlignedBoundaryStream::new(store, location.clone(), start, end, size, b'\n')
                            .await?
                            .boxed()
                    }
                    None => store.get(&location).await?.into_stream(),
                };
                let place = FilePlace { location, range };
                return Ok(json_lines(chunks, schema, options, place, unknown));
            }
            let bytes = store.get(&location).await?.bytes().await?;
            let (batches, counts) = SpawnedTask::spawn_blocking(move || {
                crate::read_with_unknown_fields(&bytes, format, schema, &options)
            })
            .join_unwind()
            .await
            .map_err(|e| DataFusionError::ExecutionJoin(Box::new(e)))?
            .map_err(|error| file_error(&location, None, error))?;
            report(&unknown, counts);
            Ok(futures::stream::iter(batches.into_iter().map(Ok)).boxed())
        }))
    }
}

fn to_offset(offset: i64) -> Result<u64> {
    u64::try_from(offset)
        .map_err(|_| DataFusionError::Execution(format!("negative file offset {offset}")))
}

/// Where a reader is: a file, and the byte range of it a partition reads.
struct FilePlace {
    location: Path,
    range: Option<(i64, i64)>,
}

/// Streams JSON Lines `chunks` through [`crate::read_json_lines`] on a blocking thread:
/// memory holds a few chunks and a couple of batches, however large the file or range.
fn json_lines(
    mut chunks: BoxStream<'static, datafusion::object_store::Result<Bytes>>,
    schema: SchemaRef,
    options: Options,
    place: FilePlace,
    unknown: Arc<Mutex<FieldCounts>>,
) -> BoxStream<'static, Result<RecordBatch>> {
    let (mut chunk_tx, chunk_rx) = mpsc::channel::<io::Result<Bytes>>(CHUNKS_IN_FLIGHT);
    let (mut batch_tx, batch_rx) = mpsc::channel::<Result<RecordBatch>>(1);
    let fetch = SpawnedTask::spawn(async move {
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(io::Error::other);
            let failed = chunk.is_err();
            if chunk_tx.send(chunk).await.is_err() || failed {
                break;
            }
        }
    });
    let parse = SpawnedTask::spawn_blocking(move || {
        let reader = ChunkReader {
            chunks: chunk_rx,
            current: Bytes::new(),
        };
        let mut lines = crate::read_json_lines(reader, schema, &options);
        for batch in lines.by_ref() {
            let batch = batch.map_err(|error| file_error(&place.location, place.range, error));
            if futures::executor::block_on(batch_tx.send(batch)).is_err() {
                break;
            }
        }
        report(&unknown, lines.unknown_fields());
    });
    // The tasks live as long as the stream (dropping it aborts them); once the batches
    // end, the parser is joined so that a panic in it is not mistaken for the end.
    futures::stream::unfold(
        (batch_rx, Some(parse), fetch),
        |(mut batches, parse, fetch)| async move {
            if let Some(batch) = batches.next().await {
                return Some((batch, (batches, parse, fetch)));
            }
            let joined = parse?.join_unwind().await;
            let error = joined.err()?;
            Some((
                Err(DataFusionError::ExecutionJoin(Box::new(error))),
                (batches, None, fetch),
            ))
        },
    )
    .boxed()
}

/// A blocking [`BufRead`] over the chunks a fetch task sends: the parser's side of the
/// channel, on a thread of its own.
struct ChunkReader {
    chunks: mpsc::Receiver<io::Result<Bytes>>,
    current: Bytes,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChunkReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.current.is_empty() {
            match futures::executor::block_on(self.chunks.next()) {
                Some(chunk) => self.current = chunk?,
                None => break,
            }
        }
        Ok(&self.current)
    }

    fn consume(&mut self, amt: usize) {
        self.current.advance(amt);
    }
}

/// A quarry error with the file (and byte range) it happened in.
#[derive(Debug)]
struct FileError {
    location: String,
    range: Option<(i64, i64)>,
    error: crate::Error,
}

/// `error`, read in `location` (and `range`), as DataFusion's error.
fn file_error(location: &Path, range: Option<(i64, i64)>, error: crate::Error) -> DataFusionError {
    DataFusionError::External(Box::new(FileError {
        location: location.to_string(),
        range,
        error,
    }))
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.range {
            // Lines are counted from the start of the range.
            Some((start, end)) => write!(
                f,
                "{} (the lines starting in bytes {start}..{end}): {}",
                self.location, self.error
            ),
            None => write!(f, "{}: {}", self.location, self.error),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}
