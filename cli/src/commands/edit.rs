//! `quarry set`, `insert`, `push` and `delete`: edits in place, every other byte kept
//! (see `quarry::edit`). Several edits in one call are applied in order and written once.
//! The result goes to standard output, or with `--in-place` back into the file: written
//! to a temporary file beside it and renamed over it, so the file is either the old or
//! the new document, never half of one; a document that does not parse or an edit that
//! fails leaves it untouched. Errors are reported as `check` reports them:
//! `FILE:LINE:COLUMN: message` with the line and a caret (at the deepest node of the
//! path that exists), or one JSON object with `--output json`.

use std::path::{Path, PathBuf};

use quarry::decode::Path as ValuePath;
use quarry::edit::{Document, EditError};
use quarry::{Format, Position, RawValue, TreeNode};

use crate::args::{EditOptions, EditOutput};
use crate::input::{read, Input};
use crate::output::{render_parse_error, write_stdout};
use crate::{Failure, Outcome};

/// One edit: a path, and for all but `Delete` the value, read as a YAML flow value.
pub enum Edit {
    /// Set (or insert) the value.
    Set(String, String),
    /// Insert a new key.
    Insert(String, String),
    /// Append to a sequence.
    Push(String, String),
    /// Remove the entry.
    Delete(String),
}

impl Edit {
    fn path(&self) -> &str {
        match self {
            Edit::Set(p, _) | Edit::Insert(p, _) | Edit::Push(p, _) | Edit::Delete(p) => p,
        }
    }
}

/// `PATH VALUE` pairs made into edits by `make`.
pub fn run_pairs(
    file: &Path,
    pairs: &[String],
    make: fn(String, String) -> Edit,
    options: &EditOptions,
) -> Outcome {
    if let [path] = pairs.chunks_exact(2).remainder() {
        return Err(Failure::Usage(format!(
            "`{path}` has no value: give PATH VALUE pairs"
        )));
    }
    let edits = pairs
        .chunks(2)
        .map(|pair| make(pair[0].clone(), pair[1].clone()))
        .collect();
    run(file, edits, options)
}

/// Applies `edits` in order (in document `--doc` of a YAML stream) and writes the result
/// once.
pub fn run(file: &Path, edits: Vec<Edit>, options: &EditOptions) -> Outcome {
    let (format, doc, in_place) = (options.format, options.doc, options.in_place);
    let input = if file.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(file.to_owned())
    };
    if in_place && matches!(input, Input::Stdin) {
        return Err(Failure::Usage(
            "--in-place needs a file, not standard input".into(),
        ));
    }
    // Every value is read before anything is edited: a bad one is bad usage.
    let mut values = Vec::with_capacity(edits.len());
    for edit in &edits {
        values.push(match edit {
            Edit::Set(_, v) | Edit::Insert(_, v) | Edit::Push(_, v) => Some(flow_value(v)?),
            Edit::Delete(_) => None,
        });
    }
    let document = read(&input, format)?;
    let name = input.name();
    let report = Report {
        file: name,
        bytes: &document.bytes,
        format: document.format,
        index: doc.unwrap_or(0),
        output: options.output,
    };
    let mut editable = match (document.format, doc) {
        (Format::Yaml, Some(index)) => Document::parse_yaml_document(&document.bytes, index),
        (_, Some(_)) => return Err(Failure::Usage("--doc is for YAML streams".into())),
        (format, None) => Document::parse(&document.bytes, format),
    }
    .map_err(|e| report.failure(None, &e))?;
    for (edit, value) in edits.iter().zip(values) {
        let path = edit.path();
        let result = match (edit, value) {
            (Edit::Set(..), Some(value)) => editable.set(path, &value),
            (Edit::Insert(..), Some(value)) => editable.insert(path, &value),
            (Edit::Push(..), Some(value)) => editable.push(path, &value),
            _ => editable.remove(path),
        };
        result.map_err(|e| report.failure(Some(path), &e))?;
    }
    if in_place {
        write_in_place(file, editable.as_str().as_bytes())
    } else {
        write_stdout(editable.as_str().as_bytes())
    }
}

/// How a failed edit is told.
struct Report<'a> {
    file: &'a Path,
    bytes: &'a [u8],
    format: Format,
    index: usize,
    output: EditOutput,
}

impl Report<'_> {
    /// The error at its place: a parse error where the document stops parsing, a failed
    /// edit at the deepest node of its path that exists.
    fn failure(&self, path: Option<&str>, error: &EditError) -> Failure {
        let (at, message, kind) = match (error, path) {
            (EditError::Parse(_), _) => match self.parse_error() {
                Some((at, message, kind)) => (Some(at), message, kind),
                None => (None, error.to_string(), "Parse".to_owned()),
            },
            (_, Some(path)) => (
                self.locate(path),
                error.to_string(),
                kind_name(error).into(),
            ),
            (_, None) => (None, error.to_string(), kind_name(error).into()),
        };
        let rendered = match (self.output, at) {
            (EditOutput::Json, _) => format!(
                "{}
",
                self.json_record(at, &message, &kind)
            ),
            (EditOutput::Text, Some(at)) => render_parse_error(self.file, self.bytes, at, &message),
            (EditOutput::Text, None) => format!(
                "{}: {message}
",
                self.file.display()
            ),
        };
        Failure::Invalid(rendered)
    }

    /// The parse error of the document (of a YAML stream, its first), with its kind.
    fn parse_error(&self) -> Option<(Position, String, String)> {
        match quarry::check(self.bytes, self.format) {
            Err(quarry::Error::Parse(e)) => Some((e.position(), e.message(), e.kind_name())),
            _ => None,
        }
    }

    /// The start of the deepest node along `path`.
    fn locate(&self, path: &str) -> Option<Position> {
        let path = ValuePath::parse(path)?;
        if self.format == Format::Yaml && self.index > 0 {
            let stream = quarry::yaml::parse_tree(self.bytes).ok()?;
            let (node, _) = stream.document(self.index)?.root().lookup_prefix(&path);
            return Some(quarry::common::position_at(self.bytes, node.span().start));
        }
        quarry::locate(self.bytes, self.format, &[path])?
            .into_iter()
            .next()
            .flatten()
    }

    /// The error as `check --output json` writes a problem.
    fn json_record(&self, at: Option<Position>, message: &str, kind: &str) -> String {
        let text = |s: &str| RawValue::String(s.to_owned().into());
        let number = |n: Option<usize>| n.map_or(RawValue::Null, |n| RawValue::Int(n as i64));
        let (line, column) = (at.map(|p| p.line), at.map(|p| p.column));
        let record = RawValue::Map(vec![
            ("file".into(), text(&self.file.display().to_string())),
            ("line".into(), number(line)),
            ("column".into(), number(column)),
            ("end_line".into(), number(line)),
            ("end_column".into(), number(column.map(|c| c + 1))),
            ("format".into(), text(&self.format.to_string())),
            ("message".into(), text(message)),
            ("kind".into(), text(kind)),
        ]);
        quarry::json::to_string(&record).unwrap_or_default()
    }
}

/// The name of an edit error's kind, as `--output json` gives it.
fn kind_name(error: &EditError) -> &'static str {
    match error {
        EditError::Parse(_) => "Parse",
        EditError::Unsupported(_) => "Unsupported",
        EditError::BadPath(_) => "BadPath",
        EditError::NotFound(_) => "NotFound",
        EditError::Exists(_) => "Exists",
        EditError::WrongKind { .. } => "WrongKind",
        EditError::Anchor { .. } => "Anchor",
        EditError::Encode(_) => "Encode",
        EditError::CannotPlace(_) => "CannotPlace",
        _ => "Edit",
    }
}

/// A value given on the command line, read as a YAML flow value: `8080` is a number,
/// `"8080"` a string, `[a, b]` a sequence, `{k: v}` a map, `true` a boolean.
fn flow_value(text: &str) -> Result<RawValue<'static>, Failure> {
    quarry::yaml::parse(text.as_bytes())
        .map(RawValue::into_owned)
        .map_err(|e| Failure::Usage(format!("the value `{text}` is not a YAML flow value: {e}")))
}

/// Writes `bytes` to a temporary file beside `file`, then renames it over `file`.
fn write_in_place(file: &Path, bytes: &[u8]) -> Outcome {
    let dir = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("document");
    let temporary: PathBuf = dir.join(format!(".{name}.quarry-{}", std::process::id()));
    let failed = |e: std::io::Error| {
        let _ = std::fs::remove_file(&temporary);
        Failure::Usage(format!("{}: {e}", file.display()))
    };
    std::fs::write(&temporary, bytes).map_err(failed)?;
    // Keep the file's permissions.
    if let Ok(metadata) = std::fs::metadata(file) {
        std::fs::set_permissions(&temporary, metadata.permissions()).map_err(failed)?;
    }
    std::fs::rename(&temporary, file).map_err(failed)
}
