//! Reading whole documents: each format's builder feeds a sink, which fills batches.

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use crate::columns::Columns;
use crate::error::Error;
use crate::feed::{expected_rows, After, Flow};
use crate::sink::Sink;
use crate::{json, toml, xml, yaml, FieldCounts, Options, RecordFormat};

/// Feeds every record of `bytes` to `sink`, calling `after` when each one ends.
pub(crate) fn feed<S: Sink>(
    bytes: &[u8],
    format: RecordFormat,
    options: &Options,
    sink: &mut S,
    after: &mut After<'_, S>,
) -> Result<(), Error> {
    match format {
        RecordFormat::JsonLines => json::feed_lines(bytes, sink, after, options.limits),
        RecordFormat::Json => json::feed_document(bytes, sink, after, options.limits),
        RecordFormat::Yaml => yaml::feed(bytes, sink, after, options.limits),
        RecordFormat::Xml => {
            let path = xml::RecordPath::new(options.records_at.as_deref())?;
            xml::feed(bytes, &path, sink, after, options.limits)
        }
        RecordFormat::Toml => toml::feed(bytes, options, sink, after),
    }
}

/// [`crate::read_with_unknown_fields`]. JSON and JSON Lines are read first by the
/// direct path ([`json::pull`]); where it gives up, the input is read again through the
/// events, which say what is wrong and where.
pub(crate) fn read(
    bytes: &[u8],
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
) -> Result<(Vec<RecordBatch>, FieldCounts), Error> {
    if matches!(format, RecordFormat::JsonLines | RecordFormat::Json) && !options.events_only {
        let pulled = read_with(
            bytes,
            format,
            schema.clone(),
            options,
            |bytes, columns, after| {
                json::pull(
                    bytes,
                    format == RecordFormat::JsonLines,
                    columns,
                    after,
                    options.limits,
                )
                .map_err(|_| Error::new("the direct path gave up"))
            },
        );
        if let Ok(batches) = pulled {
            return Ok(batches);
        }
    }
    read_with(bytes, format, schema, options, |bytes, columns, after| {
        feed(bytes, format, options, columns, after)
    })
}

/// Reads `bytes` into batches of `schema` with `reader`, which calls its last argument
/// after each record.
fn read_with(
    bytes: &[u8],
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
    reader: impl FnOnce(&[u8], &mut Columns, &mut After<'_, Columns>) -> Result<(), Error>,
) -> Result<(Vec<RecordBatch>, FieldCounts), Error> {
    let mut columns = Columns::new(schema, options)?;
    if format == RecordFormat::Xml {
        columns.singles_as_lists();
    }
    let batch_size = options.batch_size;
    columns.expect_rows(expected_rows(bytes, format, batch_size));
    let mut batches = Vec::new();
    let mut failed = None;
    reader(bytes, &mut columns, &mut |columns| {
        if columns.rows() >= batch_size {
            match columns.take_batch() {
                Ok(batch) => batches.push(batch),
                Err(e) => {
                    failed = Some(e);
                    return Flow::Stop;
                }
            }
        }
        Flow::Go
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    if columns.rows() > 0 || batches.is_empty() {
        batches.push(columns.take_batch()?);
    }
    Ok((batches, columns.unknown_fields()))
}
