//! `quarry config`: configuration layers merged and printed.

use std::io::Write;
use std::path::PathBuf;

use quarry::Format;

use super::convert::write_document;
use crate::args::Target;
use crate::output::finish;
use crate::{Failure, Outcome};

/// `quarry config`: the merged layers, or each value with its origin.
pub(crate) fn run(
    files: &[PathBuf],
    env: Option<String>,
    profile: Option<String>,
    to: Option<Target>,
    show_origin: bool,
    compact: bool,
) -> Outcome {
    let mut layers = quarry::Config::new();
    for file in files {
        layers = layers.file(file);
    }
    if let Some(prefix) = env {
        layers = layers.env(prefix);
    }
    if let Some(profile) = profile {
        layers = layers.profile(profile);
    }
    let (value, origins) = layers
        .load_value_with_origins()
        .map_err(|e| Failure::Invalid(format!("{e}\n")))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if show_origin {
        let mut leaves = Vec::new();
        leaves_of(&value, &mut quarry::decode::Path::default(), &mut leaves);
        for (path, leaf) in leaves {
            let text = quarry::json::to_string(&leaf).unwrap_or_else(|e| e.to_string());
            let origin = origins
                .get(&path.to_string())
                .map_or_else(String::new, ToString::to_string);
            if writeln!(out, "{path} = {text}  # {origin}").is_err() {
                break;
            }
        }
        return finish(out);
    }
    let first = quarry::Format::from_path(&files[0]).unwrap_or(Format::Json);
    let to = to.unwrap_or(Target::Format(first));
    write_document(&mut out, &value, to, compact, false)
        .map_err(|e| Failure::Invalid(format!("cannot write the configuration as {to}: {e}\n")))?;
    finish(out)
}

/// Every scalar of `value` (and every empty map or sequence) with its path.
fn leaves_of<'v>(
    value: &'v quarry::RawValue<'v>,
    at: &mut quarry::decode::Path,
    out: &mut Vec<(quarry::decode::Path, &'v quarry::RawValue<'v>)>,
) {
    match value {
        quarry::RawValue::Map(entries) if !entries.is_empty() => {
            for (key, child) in entries {
                at.segments.push(quarry::decode::Segment::Key(key.to_string()));
                leaves_of(child, at, out);
                at.segments.pop();
            }
        }
        quarry::RawValue::Seq(items) if !items.is_empty() => {
            for (index, child) in items.iter().enumerate() {
                at.segments.push(quarry::decode::Segment::Index(index));
                leaves_of(child, at, out);
                at.segments.pop();
            }
        }
        leaf => out.push((at.clone(), leaf)),
    }
}
