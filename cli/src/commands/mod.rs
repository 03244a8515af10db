//! One file per subcommand (`edit.rs` is `set` and `delete`), and what `tree` and `get`
//! share.

pub(crate) mod check;
pub(crate) mod completions;
pub(crate) mod config;
pub(crate) mod convert;
pub(crate) mod edit;
pub(crate) mod get;
#[cfg(feature = "sql")]
pub(crate) mod sql;
pub(crate) mod tree;

use quarry::Format;

use crate::input::Document;
use crate::{Failure, Outcome};

/// `--doc` only means something for YAML streams.
pub(crate) fn check_doc(format: Format, doc: Option<usize>) -> Outcome {
    match doc {
        Some(_) if format != Format::Yaml => Err(Failure::Usage(format!(
            "--doc picks a document of a YAML stream; a {format} file holds one"
        ))),
        _ => Ok(()),
    }
}

/// `tree` and `get` read one document; a JSON Lines file holds many.
pub(crate) fn no_lines(document: &Document, command: &str) -> Outcome {
    match document.lines {
        true => Err(Failure::Usage(format!(
            "{command} reads one document; a JSON Lines file holds one per line \
             (use `convert` or `check`, or --format json for a one-line file)"
        ))),
        false => Ok(()),
    }
}
