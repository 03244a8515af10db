//! `quarry tree`: the document tree, indented, with node kinds and line numbers.

use quarry::Format;

use super::{check_doc, no_lines};
use crate::input::{read, Input};
use crate::output::write_stdout;
use crate::{json, plist, toml, xml, yaml, Failure, Outcome};

/// Prints the tree of `input` (document `doc` of a YAML stream).
pub(crate) fn run(input: &Input, format: Option<Format>, doc: Option<usize>) -> Outcome {
    let document = read(input, format)?;
    let (file, bytes, format) = (input.name(), &document.bytes, document.format);
    no_lines(&document, "tree")?;
    check_doc(format, doc)?;
    let text = match format {
        Format::Json | Format::Jsonc => json::tree(file, bytes, format)?,
        Format::Yaml => yaml::tree(file, bytes, doc)?,
        Format::Toml => toml::tree(file, bytes)?,
        Format::Xml => xml::tree(file, bytes)?,
        Format::Plist => plist::tree(file, bytes)?,
        #[allow(unreachable_patterns)]
        other => {
            return Err(Failure::Usage(format!(
                "the {other} format is not supported yet"
            )))
        }
    };
    write_stdout(text.as_bytes())
}
