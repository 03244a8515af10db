//! `quarry get`: the values at a path, printed as the format shows them or as JSON.

use quarry::decode::Path as ValuePath;
use quarry::Format;

use super::{check_doc, no_lines};
use crate::args::GetOutput;
use crate::input::{read, Input};
use crate::output::{parse_failure, write_stdout};
use crate::{json, plist, select, toml, xml, yaml, Failure, Outcome};

/// Prints the values of `input` at `path` (in document `doc` of a YAML stream).
pub(crate) fn run(
    input: &Input,
    path: &str,
    format: Option<Format>,
    doc: Option<usize>,
    output: GetOutput,
) -> Outcome {
    let document = read(input, format)?;
    let (file, bytes, format) = (input.name(), &document.bytes, document.format);
    no_lines(&document, "get")?;
    check_doc(format, doc)?;
    let pattern = select::Pattern::parse(path)
        .ok_or_else(|| Failure::Usage(format!("malformed path `{path}`")))?;
    let parse_failure = |e: quarry::Error| match e {
        quarry::Error::Parse(e) => parse_failure(file, bytes, &e),
        other => Failure::Usage(other.to_string()),
    };
    // The matches are found in the document's value (the struct door's view, which
    // paths address); each is then printed from the tree, as the format shows it.
    let value = match format {
        Format::Yaml => {
            let mut documents =
                quarry::yaml::parse_stream(bytes).map_err(|e| parse_failure(e.into()))?;
            let index = doc.unwrap_or(0);
            if index >= documents.len() {
                return Err(Failure::Invalid(format!(
                    "{}: no document {index} (the stream has {})\n",
                    file.display(),
                    documents.len()
                )));
            }
            documents.swap_remove(index)
        }
        _ => quarry::parse_raw(bytes, format).map_err(parse_failure)?,
    };
    let matches = pattern.matches(&value, format == Format::Xml);
    if matches.is_empty() {
        return Err(Failure::Invalid(format!(
            "{}: no value at `{path}`\n",
            file.display()
        )));
    }
    if output == GetOutput::Json {
        let values: Vec<quarry::RawValue<'_>> = matches.iter().map(|(_, v)| (*v).clone()).collect();
        let one = values.len() == 1 && !pattern.has_wildcard();
        let json = if one {
            quarry::json::to_vec_pretty(&values[0])
        } else {
            quarry::json::to_vec_pretty(&values)
        }
        .map_err(|e| Failure::Invalid(format!("{}: {e}\n", file.display())))?;
        let mut out = json;
        out.push(b'\n');
        return write_stdout(&out);
    }
    let paths: Vec<ValuePath> = matches.into_iter().map(|(p, _)| p).collect();
    let text = match format {
        Format::Json | Format::Jsonc => json::get(file, bytes, &paths, format)?,
        Format::Yaml => yaml::get(file, bytes, &paths, doc)?,
        Format::Toml => toml::get(file, bytes, &paths)?,
        Format::Xml => xml::get(file, bytes, &paths)?,
        Format::Plist => plist::get(file, bytes, &paths)?,
        #[allow(unreachable_patterns)]
        other => {
            return Err(Failure::Usage(format!(
                "the {other} format is not supported yet"
            )))
        }
    };
    write_stdout(text.as_bytes())
}
