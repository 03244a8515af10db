//! `quarry config`: configuration layers merged and printed.

use std::io::Write;
use std::path::PathBuf;

use quarry::Format;

use super::convert::write_document;
use crate::args::Target;
use crate::output::finish;
use crate::{Failure, Outcome};

/// What `quarry config` was asked.
pub(crate) struct Options {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) dirs: Vec<PathBuf>,
    pub(crate) explain: Option<String>,
    pub(crate) env: Option<String>,
    pub(crate) profile: Option<String>,
    pub(crate) to: Option<Target>,
    pub(crate) show_origin: bool,
    pub(crate) compact: bool,
}

/// `quarry config`: the merged layers, each value with its origin, or every layer's
/// value for one path. A value read from a file that a `PREFIX_..._FILE` variable names
/// (a secret) prints as `***`.
pub(crate) fn run(options: Options) -> Outcome {
    let mut layers = quarry::Config::new();
    for file in &options.files {
        layers = layers.file(file);
    }
    for dir in &options.dirs {
        layers = layers.dir(dir);
    }
    if let Some(prefix) = options.env {
        layers = layers.env(prefix);
    }
    if let Some(profile) = options.profile {
        layers = layers.profile(profile);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if let Some(path) = options.explain {
        let explained = layers
            .explain(&path)
            .map_err(|e| Failure::Invalid(format!("{e}\n")))?;
        let _ = writeln!(out, "{explained}");
        return finish(out);
    }
    let (mut value, origins) = layers
        .load_value_with_origins()
        .map_err(|e| Failure::Invalid(format!("{e}\n")))?;
    let mut leaves = Vec::new();
    leaves_of(&value, &mut quarry::decode::Path::default(), &mut leaves);
    let secrets: Vec<quarry::decode::Path> = leaves
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| {
            matches!(
                origins.get(&path.to_string()),
                Some(quarry::config::Origin::SecretFile { .. })
            )
        })
        .collect();
    for path in &secrets {
        if let Some(leaf) = leaf_mut(&mut value, path) {
            *leaf = quarry::RawValue::String(SECRET.into());
        }
    }
    if options.show_origin {
        let mut leaves = Vec::new();
        leaves_of(&value, &mut quarry::decode::Path::default(), &mut leaves);
        for (path, leaf) in leaves {
            let text = match secrets.contains(&path) {
                true => SECRET.to_owned(),
                false => quarry::json::to_string(&leaf).unwrap_or_else(|e| e.to_string()),
            };
            let origin = origins
                .get(&path.to_string())
                .map_or_else(String::new, ToString::to_string);
            if writeln!(out, "{path} = {text}  # {origin}").is_err() {
                break;
            }
        }
        return finish(out);
    }
    let first = options
        .files
        .first()
        .and_then(quarry::Format::from_path)
        .unwrap_or(Format::Json);
    let to = options.to.unwrap_or(Target::Format(first));
    write_document(&mut out, &value, to, options.compact, false)
        .map_err(|e| Failure::Invalid(format!("cannot write the configuration as {to}: {e}\n")))?;
    finish(out)
}

/// What a secret prints as.
const SECRET: &str = "***";

/// The value at `path` in `value`.
fn leaf_mut<'a, 'v>(
    value: &'a mut quarry::RawValue<'v>,
    path: &quarry::decode::Path,
) -> Option<&'a mut quarry::RawValue<'v>> {
    let mut node = value;
    for segment in &path.segments {
        node = match (node, segment) {
            (quarry::RawValue::Map(entries), quarry::decode::Segment::Key(key)) => {
                entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)?
            }
            (quarry::RawValue::Seq(items), quarry::decode::Segment::Index(i)) => {
                items.get_mut(*i)?
            }
            _ => return None,
        };
    }
    Some(node)
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
                at.segments
                    .push(quarry::decode::Segment::Key(key.to_string()));
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
