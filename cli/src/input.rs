//! Reading a document: a file or standard input, read whole, and its format settled from
//! `--format`, the file name or the content; JSON Lines files line by line.

use std::io::Read;
use std::path::{Path, PathBuf};

use quarry::{Format, RawValue};

use crate::Failure;

/// Where a command reads its document: a file, or standard input (`-` or nothing).
pub(crate) enum Input {
    File(PathBuf),
    Stdin,
}

pub(crate) fn input(file: Option<PathBuf>) -> Input {
    match file {
        Some(path) if path.as_os_str() != "-" => Input::File(path),
        _ => Input::Stdin,
    }
}

impl Input {
    /// The name errors use.
    pub(crate) fn name(&self) -> &Path {
        match self {
            Input::File(path) => path,
            Input::Stdin => Path::new("<stdin>"),
        }
    }
}

/// The format of `bytes` when the content says so unambiguously: a binary plist's
/// magic, XML markup (a plist when it names one), a document that parses as JSON, or
/// a YAML stream of mappings and sequences that no other format reads (as yq, which
/// reads YAML by default). JSON is YAML too, so JSON is tried first and wins. TOML is
/// not guessed: `a = 1` is a YAML string as well.
pub(crate) fn sniff(bytes: &[u8]) -> Option<Format> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(text.len());
    let text = &text[start..];
    if text.starts_with(b"bplist00") {
        return Some(Format::Plist);
    }
    if text.starts_with(b"<") {
        let head = &text[..text.len().min(1024)];
        let plist = memmem(head, b"<plist") || memmem(head, b"<!DOCTYPE plist");
        return Some(if plist { Format::Plist } else { Format::Xml });
    }
    if quarry::check(bytes, Format::Json).is_ok() {
        return Some(Format::Json);
    }
    let other = |format| quarry::check(bytes, format).is_ok();
    let yaml = yaml_collections(bytes)
        && ![Format::Jsonc, Format::Toml, Format::Plist]
            .into_iter()
            .any(other);
    yaml.then_some(Format::Yaml)
}

/// Whether `bytes` is a YAML stream of mappings and sequences (empty documents aside),
/// at least one: a stream whose documents are plain scalars says nothing (most text
/// is one).
fn yaml_collections(bytes: &[u8]) -> bool {
    let (mut collections, mut scalars) = (0, 0);
    let parsed = quarry::yaml::parse_stream_each(bytes, &Default::default(), |value| {
        match value {
            RawValue::Map(_) | RawValue::Seq(_) => collections += 1,
            RawValue::Null => {}
            _ => scalars += 1,
        }
        scalars == 0
    });
    parsed.is_ok() && scalars == 0 && collections > 0
}

fn memmem(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A document read whole, with its format settled.
pub(crate) struct Document {
    pub(crate) bytes: Vec<u8>,
    pub(crate) format: Format,
    /// `.jsonl` / `.ndjson`: one JSON document per line.
    pub(crate) lines: bool,
}

/// Reads `input` and settles its format: `--format`, then the file name, then (for
/// standard input or an unknown name) the content.
pub(crate) fn read(input: &Input, format: Option<Format>) -> Result<Document, Failure> {
    let name = input.name();
    let bytes = match input {
        Input::File(path) => {
            std::fs::read(path).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?
        }
        Input::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::Usage(format!("reading standard input: {e}")))?;
            bytes
        }
    };
    let lines = format.is_none() && matches!(input, Input::File(path) if is_json_lines(path));
    let format = match format {
        Some(format) => format,
        None if lines => Format::Json,
        None => match input {
            Input::File(path) => Format::from_path(path).or_else(|| sniff(&bytes)),
            Input::Stdin => sniff(&bytes),
        }
        .ok_or_else(|| {
            Failure::Usage(format!(
                "{}: cannot tell the format from the name or the content; use --format",
                name.display()
            ))
        })?,
    };
    if !format.is_supported() {
        return Err(Failure::Usage(format!(
            "{}: the {format} format is not supported yet",
            name.display()
        )));
    }
    Ok(Document {
        bytes,
        format,
        lines,
    })
}

/// The documents of a JSON Lines file: each non-blank line (a trailing `\r` dropped)
/// with its line number (from 0) and the offset where it starts.
pub(crate) fn json_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, usize, &[u8])> {
    let mut start = 0;
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(move |(number, line)| {
            let at = start;
            start += line.len() + 1;
            (number, at, line.strip_suffix(b"\r").unwrap_or(line))
        })
        .filter(|(_, _, line)| !line.iter().all(u8::is_ascii_whitespace))
}

/// The place of an error in a JSON Lines file: `at`, found in the line numbered
/// `number` (from 0) that starts at byte `start`.
pub(crate) fn in_line(at: quarry::Position, number: usize, start: usize) -> quarry::Position {
    quarry::Position {
        offset: start + at.offset,
        line: number + at.line,
        column: at.column,
    }
}

/// `.jsonl` and `.ndjson` files hold one JSON document per line.
pub(crate) fn is_json_lines(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("ndjson"))
}
