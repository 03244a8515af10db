//! `quarry sql`: a SQL query over record files, with DataFusion and quarry's Arrow readers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::error::ArrowError;
use datafusion::arrow::json::LineDelimitedWriter;
use datafusion::arrow::util::pretty::pretty_format_batches_with_schema;
use datafusion::datasource::listing::ListingTableUrl;
use datafusion::error::DataFusionError;
use datafusion::prelude::SessionContext;
use quarry_arrow::{Options, QuarryFormat, RecordFormat, UnknownFields};

use crate::args::{SqlOutput, SqlUnknownFields};
use crate::output::write_stdout;
use crate::{Failure, Outcome};

/// The table a file answers to: its stem, lowercased, each other character than a letter
/// or digit turned to `_`.
fn table_name(path: &Path) -> String {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    stem.chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_lowercase().next().unwrap_or(c)
            } else {
                '_'
            }
        })
        .collect()
}

/// How `quarry sql` reads and prints.
pub(crate) struct Settings {
    pub(crate) output: SqlOutput,
    pub(crate) schema: bool,
    pub(crate) infer_records: Option<usize>,
    pub(crate) unknown_fields: Option<SqlUnknownFields>,
    pub(crate) records_at: Option<String>,
}

impl Settings {
    fn options(&self) -> Options {
        let mut options = Options::default().infer_records(self.infer_records);
        if let Some(unknown) = self.unknown_fields {
            options = options.unknown_fields(match unknown {
                SqlUnknownFields::Error => UnknownFields::Error,
                SqlUnknownFields::Ignore => UnknownFields::Ignore,
                SqlUnknownFields::Collect => UnknownFields::Collect,
            });
        }
        if let Some(path) = &self.records_at {
            options = options.records_at(path.as_str());
        }
        options
    }
}

/// One table: the path given, what the listing reads (the path, or a glob of a
/// directory's files), and their record format.
struct Table<'p> {
    path: &'p PathBuf,
    location: String,
    format: RecordFormat,
}

/// The record format of the files in directory `dir`, and where the listing finds them:
/// the directory itself when the files carry the format's usual extension, else a glob.
fn directory(dir: &Path) -> Result<(RecordFormat, String), Failure> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| Failure::Usage(format!("{}: {e}", dir.display())))?;
    let mut extensions = BTreeMap::new();
    for entry in entries {
        let path = entry
            .map_err(|e| Failure::Usage(format!("{}: {e}", dir.display())))?
            .path();
        let hidden = path
            .file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with('.'));
        if hidden || !path.is_file() {
            continue;
        }
        if let (Some(format), Some(extension)) = (RecordFormat::from_path(&path), path.extension())
        {
            let extension = extension.to_string_lossy().into_owned();
            extensions.insert(extension, format);
        }
    }
    let mut found = extensions.iter();
    let Some((extension, &format)) = found.next() else {
        return Err(Failure::Usage(format!(
            "{}: no record files (.jsonl, .ndjson, .json, .yaml, .yml, .xml or .toml) in \
             the directory",
            dir.display()
        )));
    };
    if extensions.len() > 1 {
        let all: Vec<_> = extensions.keys().map(|e| format!(".{e}")).collect();
        return Err(Failure::Usage(format!(
            "{}: a directory is one table of one kind of file, and this one holds {} files \
             (name the files, or give each kind a directory of its own)",
            dir.display(),
            all.join(", ")
        )));
    }
    let location = if *extension == format.extension() {
        dir.to_string_lossy().into_owned()
    } else {
        dir.join(format!("*.{extension}"))
            .to_string_lossy()
            .into_owned()
    };
    Ok((format, location))
}

/// Runs `query` over `files` (each a table named by [`table_name`]; a lone file or
/// directory is also `t`) and prints the rows, or with `--schema` each table's schema.
/// Counts of fields the schemas lack go to standard error.
pub(crate) fn run(query: &str, files: &[PathBuf], settings: &Settings) -> Outcome {
    let mut paths: Vec<PathBuf> = Vec::new();
    if settings.schema {
        paths.push(PathBuf::from(query));
    }
    paths.extend(files.iter().cloned());
    let files = &paths[..];
    let mut tables: BTreeMap<String, Table<'_>> = BTreeMap::new();
    for path in files {
        let (format, location) = if path.is_dir() {
            directory(path)?
        } else {
            let format = RecordFormat::from_path(path).ok_or_else(|| {
                Failure::Usage(format!(
                    "{}: cannot tell the record format from the extension \
                     (.jsonl, .ndjson, .json, .yaml, .yml, .xml or .toml)",
                    path.display()
                ))
            })?;
            if let Err(e) = std::fs::File::open(path) {
                return Err(Failure::Usage(format!("{}: {e}", path.display())));
            }
            (format, path.to_string_lossy().into_owned())
        };
        let name = table_name(path);
        let table = Table {
            path,
            location,
            format,
        };
        if let Some(other) = tables.insert(name.clone(), table) {
            return Err(Failure::Usage(format!(
                "{} and {} would both be the table `{name}`",
                other.path.display(),
                path.display()
            )));
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Usage(format!("starting the query engine: {e}")))?;
    let options = settings.options();
    let mut formats = Vec::new();
    let out = runtime.block_on(async {
        let ctx = SessionContext::new();
        for (name, table) in &tables {
            let format = QuarryFormat::new(table.format, options.clone());
            format.register_table(&ctx, name, &table.location).await?;
            formats.push((name.clone(), format));
        }
        if settings.schema {
            let mut text = String::new();
            for name in tables.keys() {
                let provider = ctx.table_provider(name.as_str()).await?;
                text.push_str(&schema_text(name, &provider.schema(), settings.output));
            }
            return Ok::<_, DataFusionError>(text.into_bytes());
        }
        if let [path] = files {
            let name = table_name(path);
            if name != "t" {
                let provider = ctx.table_provider(name.as_str()).await?;
                ctx.register_table("t", provider)?;
            }
        }
        let frame = ctx.sql(query).await?;
        let schema = Arc::new(frame.schema().as_arrow().clone());
        let batches = frame.collect().await?;
        let text = match settings.output {
            SqlOutput::Table => {
                let table = pretty_format_batches_with_schema(schema, &batches)?;
                format!("{table}\n").into_bytes()
            }
            SqlOutput::Json => json_lines(&batches)?,
        };
        Ok::<_, DataFusionError>(text)
    });
    report_unknown(&formats);
    match out {
        Ok(text) => write_stdout(&text),
        Err(e) => Err(failure(&e, files)),
    }
}

/// The fields the tables' schemas lack, as the scans counted them, on standard error.
fn report_unknown(formats: &[(String, QuarryFormat)]) {
    for (table, format) in formats {
        for (field, count) in format.unknown_fields() {
            let times = if count == 1 { "once" } else { "times" };
            let count = if count == 1 {
                String::new()
            } else {
                format!("{count} ")
            };
            eprintln!(
                "quarry: table `{table}`: field `{field}` is not in the schema inferred from \
                 the first records; skipped {count}{times} (--infer-records to read more)"
            );
        }
    }
}

/// A table's schema: `name` and one line per field (`  level: Utf8`), nested fields
/// indented; or, with `--output json`, one JSON object per table.
fn schema_text(name: &str, schema: &Schema, output: SqlOutput) -> String {
    match output {
        SqlOutput::Json => {
            let fields: Vec<_> = schema.fields().iter().map(|f| field_json(f)).collect();
            let table = serde_json::json!({ "table": name, "fields": fields });
            format!("{table}\n")
        }
        SqlOutput::Table => {
            let mut text = format!("{name}\n");
            for field in schema.fields() {
                field_text(field, 1, &mut text);
            }
            text
        }
    }
}

fn field_text(field: &Field, depth: usize, text: &mut String) {
    let indent = "  ".repeat(depth);
    let nullable = if field.is_nullable() { "" } else { " not null" };
    match field.data_type() {
        DataType::Struct(fields) => {
            text.push_str(&format!("{indent}{}: Struct{nullable}\n", field.name()));
            for child in fields {
                field_text(child, depth + 1, text);
            }
        }
        DataType::List(item) if matches!(item.data_type(), DataType::Struct(_)) => {
            text.push_str(&format!(
                "{indent}{}: List(Struct){nullable}\n",
                field.name()
            ));
            if let DataType::Struct(fields) = item.data_type() {
                for child in fields {
                    field_text(child, depth + 1, text);
                }
            }
        }
        DataType::List(item) => text.push_str(&format!(
            "{indent}{}: List({}){nullable}\n",
            field.name(),
            item.data_type()
        )),
        other => text.push_str(&format!("{indent}{}: {other}{nullable}\n", field.name())),
    }
}

fn field_json(field: &Field) -> serde_json::Value {
    let mut value = serde_json::json!({
        "name": field.name(),
        "type": field.data_type().to_string(),
        "nullable": field.is_nullable(),
    });
    let children = match field.data_type() {
        DataType::Struct(fields) => Some(fields),
        DataType::List(item) => match item.data_type() {
            DataType::Struct(fields) => Some(fields),
            _ => None,
        },
        _ => None,
    };
    if let Some(fields) = children {
        value["fields"] = fields.iter().map(|f| field_json(f)).collect();
    }
    value
}

fn json_lines(batches: &[RecordBatch]) -> Result<Vec<u8>, ArrowError> {
    let mut writer = LineDelimitedWriter::new(Vec::new());
    for batch in batches {
        writer.write(batch)?;
    }
    writer.finish()?;
    Ok(writer.into_inner())
}

/// A query that cannot be planned is bad usage (exit 2); a file that cannot be read as
/// records is invalid (exit 1), named as the command line names it.
fn failure(error: &DataFusionError, files: &[PathBuf]) -> Failure {
    let root = error.find_root();
    let mut message = match root {
        DataFusionError::External(inner) => inner.to_string(),
        DataFusionError::ArrowError(inner, _) => match inner.as_ref() {
            ArrowError::ExternalError(inner) => inner.to_string(),
            _ => root.to_string(),
        },
        _ => root.to_string(),
    };
    // Errors name files by their place in the object store (`tmp/a.jsonl`).
    for path in files {
        let Ok(url) = ListingTableUrl::parse(path.to_string_lossy()) else {
            continue;
        };
        if let Some(rest) = message.strip_prefix(url.prefix().as_ref()) {
            if rest.starts_with([':', ' ']) {
                message = format!("{}{rest}", path.display());
                break;
            }
            // A file of a directory's table.
            if path.is_dir() {
                let slash = if rest.starts_with('/') { "" } else { "/" };
                let dir = path.display().to_string();
                message = format!("{}{slash}{rest}", dir.trim_end_matches('/'));
                break;
            }
        }
    }
    match root {
        DataFusionError::External(_)
        | DataFusionError::ArrowError(..)
        | DataFusionError::Execution(_) => Failure::Invalid(format!("{message}\n")),
        _ => Failure::Usage(message),
    }
}
