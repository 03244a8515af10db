//! `quarry convert`: a document (or a JSON Lines file, or a YAML stream) written in
//! another format.

use std::io::Write;

use quarry::Format;

use crate::args::Target;
use crate::input::{in_line, json_lines, read, Input};
use crate::output::{finish, parse_failure, render_parse_error};
use crate::{Failure, Outcome};

/// Writes `value` to `out` as `to`; `several` when it is one of several documents.
pub(crate) fn write_document(
    out: &mut impl Write,
    value: &quarry::RawValue<'_>,
    to: Target,
    compact: bool,
    several: bool,
) -> Result<(), quarry::EncodeError> {
    match to {
        // JSON: one document per line when there are several.
        Target::Format(Format::Json | Format::Jsonc) if compact || several => {
            quarry::json::to_writer(&mut *out, value)?;
            out.write_all(b"\n").map_err(quarry::EncodeError::from)
        }
        Target::Format(Format::Json | Format::Jsonc) => {
            quarry::json::to_writer_pretty(&mut *out, value)?;
            out.write_all(b"\n").map_err(quarry::EncodeError::from)
        }
        Target::Format(Format::Yaml) if compact && !several => {
            quarry::yaml::to_writer_flow(&mut *out, value)?;
            out.write_all(b"\n").map_err(quarry::EncodeError::from)
        }
        Target::Format(Format::Yaml) => quarry::yaml::to_writer(&mut *out, value),
        // No silent loss: a null is an error naming its path.
        Target::Format(Format::Toml) => quarry::toml::to_writer(&mut *out, value),
        // Always UTF-8, and said so: a document read from windows-1251 or Shift_JIS
        // must not keep its old declaration.
        Target::Format(Format::Xml) => {
            out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
            match value {
                quarry::RawValue::Map(entries) if entries.len() == 1 => {
                    quarry::xml::to_writer_pretty(&mut *out, value)?
                }
                _ => quarry::xml::to_writer_pretty_with_root(&mut *out, value, "root")?,
            }
            out.write_all(b"\n").map_err(quarry::EncodeError::from)
        }
        Target::Format(Format::Plist) => {
            quarry::plist::to_writer(&mut *out, value, quarry::plist::PlistFormat::Xml)
        }
        Target::BinaryPlist => {
            quarry::plist::to_writer(&mut *out, value, quarry::plist::PlistFormat::Binary)
        }
        #[allow(unreachable_patterns)]
        Target::Format(other) => Err(quarry::EncodeError::custom(format!(
            "converting to {other} is not supported yet"
        ))),
    }
}

/// The targets that hold one document (everything but JSON and YAML streams).
fn holds_one(to: Target) -> bool {
    !matches!(
        to,
        Target::Format(Format::Json | Format::Jsonc | Format::Yaml)
    )
}

/// Writes the document of `input` (or each of a JSON Lines file or a YAML stream) as `to`.
pub(crate) fn run(input: &Input, to: Target, format: Option<Format>, compact: bool) -> Outcome {
    let document = read(input, format)?;
    let (file, bytes, format) = (input.name(), &document.bytes, document.format);
    let parse_failure = |e: quarry::Error| match e {
        quarry::Error::Parse(e) => parse_failure(file, bytes, &e),
        other => Failure::Usage(other.to_string()),
    };
    let cannot = |e: quarry::EncodeError| match e.io_error() {
        // A closed pipe (`quarry convert big.json --to yaml | head`) is not a failure.
        Some(io) if io.kind() == std::io::ErrorKind::BrokenPipe => Failure::Invalid(String::new()),
        _ => Failure::Invalid(format!("{}: cannot convert to {to}: {e}\n", file.display())),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if document.lines {
        // JSON Lines: one document per line, each written as soon as it is read, so a
        // bad line stops the output there with its line number.
        for (written, (number, line_start, line)) in json_lines(bytes).enumerate() {
            let value = quarry::parse_raw(line, Format::Json).map_err(|e| match e {
                quarry::Error::Parse(e) => {
                    let place = in_line(e.position(), number, line_start);
                    Failure::Invalid(render_parse_error(file, bytes, place, &e.message()))
                }
                other => Failure::Usage(other.to_string()),
            })?;
            if written > 0 && holds_one(to) {
                return Err(Failure::Invalid(format!(
                    "{}: cannot convert several documents to {to}, which holds one\n",
                    file.display()
                )));
            }
            if written > 0 && to == Target::Format(Format::Yaml) {
                out.write_all(b"---\n")
                    .map_err(|e| cannot(quarry::EncodeError::from(e)))?;
            }
            write_document(&mut out, &value, to, compact, true).map_err(cannot)?;
        }
        return finish(out);
    }
    // A YAML stream to JSON or YAML converts document by document: each is written as
    // soon as the next one begins (whether it is one of several decides its layout)
    // and dropped, so a long stream is never held whole.
    if format == Format::Yaml && !holds_one(to) {
        let mut pending: Option<quarry::RawValue<'_>> = None;
        let written = std::cell::Cell::new(0);
        let mut failed: Option<Failure> = None;
        let emit = |out: &mut std::io::BufWriter<_>, value: &quarry::RawValue<'_>, several| {
            if written.get() > 0 && to == Target::Format(Format::Yaml) {
                out.write_all(b"---\n")?;
            }
            written.set(written.get() + 1);
            write_document(out, value, to, compact, several)
        };
        let parsed = quarry::yaml::parse_stream_each(bytes, &Default::default(), |value| {
            match pending.replace(value) {
                Some(previous) => match emit(&mut out, &previous, true) {
                    Ok(()) => true,
                    Err(e) => {
                        failed = Some(cannot(e));
                        false
                    }
                },
                None => true,
            }
        });
        if let Some(failure) = failed {
            return Err(failure);
        }
        if let Err(e) = parsed {
            // The documents before the error are written (the last of them as one of
            // several: another had begun); then the error.
            if let Some(last) = pending.take() {
                emit(&mut out, &last, true).map_err(cannot)?;
            }
            finish(&mut out)?;
            return Err(parse_failure(e.into()));
        }
        if let Some(last) = pending {
            let several = written.get() > 0;
            emit(&mut out, &last, several).map_err(cannot)?;
        }
        return finish(out);
    }
    // Every other input is one document (a YAML stream of several cannot go to a format
    // that holds one).
    let documents = if format == Format::Yaml {
        quarry::yaml::parse_stream(bytes).map_err(|e| parse_failure(e.into()))?
    } else {
        vec![quarry::parse_raw(bytes, format).map_err(parse_failure)?]
    };
    if documents.len() > 1 {
        return Err(Failure::Invalid(format!(
            "{}: cannot convert a stream of {} documents to {to}, which holds one\n",
            file.display(),
            documents.len()
        )));
    }
    for value in &documents {
        write_document(&mut out, value, to, compact, false).map_err(cannot)?;
    }
    finish(out)
}
