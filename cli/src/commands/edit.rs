//! `quarry set` and `quarry delete`: one edit in place, every other byte kept (see
//! `quarry::edit`). The result goes to standard output, or with `--in-place` back into
//! the file: written to a temporary file beside it and renamed over it, so the file is
//! either the old or the new document, never half of one; a document that does not parse
//! or an edit that fails leaves it untouched.

use std::path::{Path, PathBuf};

use quarry::edit::Document;
use quarry::{Format, RawValue};

use crate::args::{EditOptions, EditTarget};
use crate::input::{read, Input};
use crate::output::write_stdout;
use crate::{Failure, Outcome};

/// What to do at the path.
pub enum Edit {
    /// Set (or insert) the value, read as a YAML flow value.
    Set(String),
    /// Remove the entry.
    Delete,
}

/// Applies `edit` at the target's path (in document `--doc` of a YAML stream).
pub fn run(target: &EditTarget, edit: Edit, options: &EditOptions) -> Outcome {
    let (file, path) = (target.file.as_path(), target.path.as_str());
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
    let document = read(&input, format)?;
    let name = input.name().display().to_string();
    let mut editable = match (document.format, doc) {
        (Format::Yaml, Some(index)) => Document::parse_yaml_document(&document.bytes, index),
        (_, Some(_)) => return Err(Failure::Usage("--doc is for YAML streams".into())),
        (format, None) => Document::parse(&document.bytes, format),
    }
    .map_err(|e| Failure::Invalid(format!("{name}: {e}\n")))?;
    let result = match edit {
        Edit::Set(text) => {
            let value = flow_value(&text)?;
            editable.set(path, &value)
        }
        Edit::Delete => editable.remove(path),
    };
    result.map_err(|e| Failure::Invalid(format!("{name}: {e}\n")))?;
    if in_place {
        write_in_place(file, editable.as_str().as_bytes())
    } else {
        write_stdout(editable.as_str().as_bytes())
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
