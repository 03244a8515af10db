//! `quarry sql`: a SQL query over record files, with DataFusion and quarry's Arrow readers.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::error::ArrowError;
use datafusion::arrow::json::LineDelimitedWriter;
use datafusion::arrow::util::pretty::pretty_format_batches_with_schema;
use datafusion::datasource::listing::ListingTableUrl;
use datafusion::error::DataFusionError;
use datafusion::prelude::SessionContext;
use quarry_arrow::{register_table, Options, RecordFormat};

use crate::args::SqlOutput;
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

/// Runs `query` over `files` (each a table named by [`table_name`]; a lone file is also
/// `t`) and prints the rows.
pub(crate) fn run(query: &str, files: &[PathBuf], output: SqlOutput) -> Outcome {
    let mut tables: HashMap<String, (&PathBuf, RecordFormat)> = HashMap::new();
    for path in files {
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
        let name = table_name(path);
        if let Some((other, _)) = tables.insert(name.clone(), (path, format)) {
            return Err(Failure::Usage(format!(
                "{} and {} would both be the table `{name}`",
                other.display(),
                path.display()
            )));
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Usage(format!("starting the query engine: {e}")))?;
    let out = runtime.block_on(async {
        let ctx = SessionContext::new();
        for (name, (path, format)) in &tables {
            let location = path.to_string_lossy();
            register_table(&ctx, name, &location, *format, Options::default()).await?;
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
        let text = match output {
            SqlOutput::Table => {
                let table = pretty_format_batches_with_schema(schema, &batches)?;
                format!("{table}\n").into_bytes()
            }
            SqlOutput::Json => json_lines(&batches)?,
        };
        Ok::<_, DataFusionError>(text)
    });
    match out {
        Ok(text) => write_stdout(&text),
        Err(e) => Err(failure(&e, files)),
    }
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
        }
    }
    match root {
        DataFusionError::External(_)
        | DataFusionError::ArrowError(..)
        | DataFusionError::Execution(_) => Failure::Invalid(format!("{message}\n")),
        _ => Failure::Usage(message),
    }
}
