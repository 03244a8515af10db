//! `quarry`: inspect, query, convert and check data files.
//!
//! Exit codes: 0 success, 1 a document is invalid (or `get` found nothing), 2 bad usage
//! or an unreadable file.

mod json;
mod plist;
mod toml;
mod xml;
mod yaml;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{Parser, Subcommand};
use quarry::common::LineIndex;
use quarry::{common, Format, ValuePath};

#[derive(Parser)]
#[command(
    name = "quarry",
    version,
    about = "Inspect, query, convert and check JSON, YAML, TOML, XML and plist files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the document tree, indented, with node kinds and line numbers.
    Tree {
        /// The document.
        file: PathBuf,
        /// The input format (default: from the file extension).
        #[arg(long)]
        format: Option<Format>,
        /// For a YAML stream: only document N (from 0).
        #[arg(long)]
        doc: Option<usize>,
    },
    /// Print one value, addressed like `servers[0].host`.
    Get {
        /// The document.
        file: PathBuf,
        /// The path of the value: keys separated by `.`, indexes in `[]`, `["a.b"]` for odd keys.
        path: String,
        /// The input format (default: from the file extension).
        #[arg(long)]
        format: Option<Format>,
        /// For a YAML stream: look in document N (from 0; default 0).
        #[arg(long)]
        doc: Option<usize>,
    },
    /// Convert a document to another format, on standard output.
    Convert {
        /// The document.
        file: PathBuf,
        /// The output format: json, yaml, toml, xml, plist (XML plist) or bplist (binary).
        #[arg(long)]
        to: Target,
        /// The input format (default: from the file extension).
        #[arg(long)]
        format: Option<Format>,
        /// Compact output where the format allows it.
        #[arg(long)]
        compact: bool,
    },
    /// Check that every file parses; report each error as FILE:LINE:COLUMN: message.
    Check {
        /// The documents.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The input format (default: from each file's extension).
        #[arg(long)]
        format: Option<Format>,
    },
}

/// What `convert` writes: a format, or a binary plist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Format(Format),
    BinaryPlist,
}

impl std::str::FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "bplist" => Ok(Target::BinaryPlist),
            other => other.parse().map(Target::Format),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Format(format) => write!(f, "{format}"),
            Target::BinaryPlist => f.write_str("bplist"),
        }
    }
}

/// Why a command failed, mapped to the exit code.
enum Failure {
    /// Exit 1: the document is invalid, or the path matched nothing.
    Invalid(String),
    /// Exit 2: bad usage or an unreadable file.
    Usage(String),
}

type Outcome = Result<(), Failure>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Tree { file, format, doc } => tree(&file, format, doc),
        Command::Get {
            file,
            path,
            format,
            doc,
        } => get(&file, &path, format, doc),
        Command::Convert {
            file,
            to,
            format,
            compact,
        } => convert(&file, to, format, compact),
        Command::Check { files, format } => check(&files, format),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid(message)) => {
            eprint!("{message}");
            ExitCode::from(1)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("quarry: {message}");
            ExitCode::from(2)
        }
    }
}

/// Reads `file` and settles its format.
fn read(file: &Path, format: Option<Format>) -> Result<(Vec<u8>, Format), Failure> {
    let format = format.or_else(|| Format::from_path(file)).ok_or_else(|| {
        Failure::Usage(format!(
            "{}: cannot tell the format from the file name; use --format",
            file.display()
        ))
    })?;
    if !format.is_supported() {
        return Err(Failure::Usage(format!(
            "{}: the {format} format is not supported yet",
            file.display()
        )));
    }
    let bytes =
        std::fs::read(file).map_err(|e| Failure::Usage(format!("{}: {e}", file.display())))?;
    Ok((bytes, format))
}

/// `FILE:LINE:COLUMN: message` and the source line with a caret under the column.
fn render_parse_error(
    file: &Path,
    bytes: &[u8],
    position: quarry::Position,
    message: &str,
) -> String {
    format!(
        "{}:{}:{}: {message}\n{}\n",
        file.display(),
        position.line,
        position.column,
        common::render_snippet(bytes, position)
    )
}

/// What a parse error of the tree door becomes: `FILE:LINE:COLUMN: message` and the
/// line with a caret.
fn invalid<'f, K: std::fmt::Display>(
    file: &'f Path,
    bytes: &'f [u8],
) -> impl FnOnce(common::Error<K>) -> Failure + 'f {
    move |e| {
        Failure::Invalid(render_parse_error(
            file,
            bytes,
            e.position(),
            &e.kind().to_string(),
        ))
    }
}

fn parse_failure(file: &Path, bytes: &[u8], error: &quarry::ParseError) -> Failure {
    Failure::Invalid(render_parse_error(
        file,
        bytes,
        error.position(),
        &error.message(),
    ))
}

/// The output of `tree`, shared by every format: each node on its own line, led by
/// its source line number and indented by depth.
pub(crate) struct TreeOut {
    /// Line starts; `None` to print byte offsets instead (binary documents).
    lines: Option<LineIndex>,
    width: usize,
    out: String,
}

impl TreeOut {
    pub(crate) fn new(bytes: &[u8]) -> Self {
        let lines = LineIndex::new(bytes);
        let width = lines.line(bytes.len()).to_string().len();
        TreeOut {
            lines: Some(lines),
            width,
            out: String::new(),
        }
    }

    /// Output that leads each node with its byte offset (`@0x1f`), for binary input.
    pub(crate) fn offsets() -> Self {
        TreeOut {
            lines: None,
            width: 0,
            out: String::new(),
        }
    }

    /// One node: the line of byte `offset`, `depth` levels in, then `label` and `text`.
    pub(crate) fn node(&mut self, offset: usize, depth: usize, label: &str, text: &str) {
        use std::fmt::Write as _;
        let indent = depth * 2;
        let _ = match &self.lines {
            Some(lines) => writeln!(
                self.out,
                "{:>width$}  {:indent$}{label}{text}",
                lines.line(offset),
                "",
                width = self.width,
            ),
            None => writeln!(self.out, "@{offset:#06x}  {:indent$}{label}{text}", ""),
        };
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

/// `key: ` as a path segment would spell it (odd keys quoted).
pub(crate) fn key_label(key: &str) -> String {
    format!(
        "{}: ",
        ValuePath {
            segments: vec![quarry::Segment::Key(key.to_owned())]
        }
    )
}

/// A string for one line of output: quoted, cut at 60 characters.
pub(crate) fn short_string(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((cut, _)) => format!("{:?}…", &s[..cut]),
        None => format!("{s:?}"),
    }
}

/// "1 item" / "3 items".
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn write_stdout(text: &[u8]) -> Outcome {
    let mut out = std::io::stdout().lock();
    match out.write_all(text).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`quarry tree big.json | head`) is not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Usage(format!("writing output: {e}"))),
    }
}

/// `--doc` only means something for YAML streams.
fn check_doc(format: Format, doc: Option<usize>) -> Outcome {
    match doc {
        Some(_) if format != Format::Yaml => Err(Failure::Usage(format!(
            "--doc picks a document of a YAML stream; a {format} file holds one"
        ))),
        _ => Ok(()),
    }
}

fn tree(file: &Path, format: Option<Format>, doc: Option<usize>) -> Outcome {
    let (bytes, format) = read(file, format)?;
    check_doc(format, doc)?;
    let text = match format {
        Format::Json => json::tree(file, &bytes)?,
        Format::Yaml => yaml::tree(file, &bytes, doc)?,
        Format::Toml => toml::tree(file, &bytes)?,
        Format::Xml => xml::tree(file, &bytes)?,
        Format::Plist => plist::tree(file, &bytes)?,
        #[allow(unreachable_patterns)]
        other => {
            return Err(Failure::Usage(format!(
                "the {other} format is not supported yet"
            )))
        }
    };
    write_stdout(text.as_bytes())
}

fn get(file: &Path, path: &str, format: Option<Format>, doc: Option<usize>) -> Outcome {
    let (bytes, format) = read(file, format)?;
    check_doc(format, doc)?;
    let path =
        ValuePath::parse(path).ok_or_else(|| Failure::Usage(format!("malformed path `{path}`")))?;
    let text = match format {
        Format::Json => json::get(file, &bytes, &path)?,
        Format::Yaml => yaml::get(file, &bytes, &path, doc)?,
        Format::Toml => toml::get(file, &bytes, &path)?,
        Format::Xml => xml::get(file, &bytes, &path)?,
        Format::Plist => plist::get(file, &bytes, &path)?,
        #[allow(unreachable_patterns)]
        other => {
            return Err(Failure::Usage(format!(
                "the {other} format is not supported yet"
            )))
        }
    };
    write_stdout(text.as_bytes())
}

fn convert(file: &Path, to: Target, format: Option<Format>, compact: bool) -> Outcome {
    let (bytes, format) = read(file, format)?;
    let parse_failure = |e: quarry::Error| match e {
        quarry::Error::Parse(e) => parse_failure(file, &bytes, &e),
        other => Failure::Usage(other.to_string()),
    };
    // A YAML stream converts document by document; every other input is one document.
    let documents = if format == Format::Yaml {
        quarry::yaml::parse_stream(&bytes).map_err(|e| parse_failure(e.into()))?
    } else {
        vec![quarry::parse_raw(&bytes, format).map_err(parse_failure)?]
    };
    let cannot = |e: quarry::EncodeError| {
        Failure::Invalid(format!("{}: cannot convert to {to}: {e}\n", file.display()))
    };
    let several = documents.len() > 1;
    let mut out = Vec::new();
    match to {
        // JSON: one document per line when there are several.
        Target::Format(Format::Json) => {
            for value in &documents {
                let text = if compact || several {
                    quarry::json::to_vec(value)
                } else {
                    quarry::json::to_vec_pretty(value)
                };
                out.extend(text.map_err(cannot)?);
                out.push(b'\n');
            }
        }
        Target::Format(Format::Yaml) => {
            let text = if compact && !several {
                documents
                    .first()
                    .map(|value| {
                        quarry::yaml::to_vec_flow(value).map(|mut v| {
                            v.push(b'\n');
                            v
                        })
                    })
                    .transpose()
            } else {
                quarry::yaml::to_vec_stream(&documents).map(Some)
            };
            out.extend(text.map_err(cannot)?.unwrap_or_default());
        }
        target => {
            let value = match documents.as_slice() {
                [] => return Ok(()),
                [value] => value,
                _ => {
                    return Err(Failure::Invalid(format!(
                    "{}: cannot convert a stream of {} documents to {target}, which holds one\n",
                    file.display(),
                    documents.len()
                )))
                }
            };
            let text = match target {
                // No silent loss: a null is an error naming its path.
                Target::Format(Format::Toml) => quarry::toml::to_vec(value),
                // Always UTF-8, and said so: a document read from windows-1251 or
                // Shift_JIS must not keep its old declaration.
                Target::Format(Format::Xml) => match value {
                    quarry::RawValue::Map(entries) if entries.len() == 1 => {
                        quarry::xml::to_vec_pretty(value)
                    }
                    _ => quarry::xml::to_string_pretty_with_root(value, "root")
                        .map(String::into_bytes),
                }
                .map(|body| [&b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"[..], &body].concat()),
                Target::Format(Format::Plist) => quarry::plist::to_vec_xml(value),
                Target::BinaryPlist => quarry::plist::to_vec_binary(value),
                other => {
                    return Err(Failure::Usage(format!(
                        "converting to {other} is not supported yet"
                    )))
                }
            };
            out.extend(text.map_err(cannot)?);
            if to != Target::BinaryPlist && !out.ends_with(b"\n") {
                out.push(b'\n');
            }
        }
    }
    write_stdout(&out)
}

/// The result of checking one file.
enum Verdict {
    Valid,
    Invalid(String),
    Unreadable(String),
}

fn check_one(file: &Path, format: Option<Format>) -> Verdict {
    let (bytes, format) = match read(file, format) {
        Ok(read) => read,
        Err(Failure::Usage(message) | Failure::Invalid(message)) => {
            return Verdict::Unreadable(message)
        }
    };
    match quarry::check(&bytes, format) {
        Ok(()) => Verdict::Valid,
        Err(quarry::Error::Parse(e)) => {
            Verdict::Invalid(render_parse_error(file, &bytes, e.position(), &e.message()))
        }
        Err(other) => Verdict::Unreadable(format!("{}: {other}", file.display())),
    }
}

fn check(files: &[PathBuf], format: Option<Format>) -> Outcome {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let mut verdicts: Vec<(usize, Verdict)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(file) = files.get(i) else { break };
                        done.push((i, check_one(file, format)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    verdicts.sort_by_key(|(i, _)| *i);
    let mut invalid = false;
    let mut unreadable = false;
    let mut report = String::new();
    for (_, verdict) in verdicts {
        match verdict {
            Verdict::Valid => {}
            Verdict::Invalid(message) => {
                invalid = true;
                report.push_str(&message);
            }
            Verdict::Unreadable(message) => {
                unreadable = true;
                report.push_str(&format!("quarry: {message}\n"));
            }
        }
    }
    eprint!("{report}");
    if unreadable {
        Err(Failure::Usage("some files could not be read".into()))
    } else if invalid {
        Err(Failure::Invalid(String::new()))
    } else {
        Ok(())
    }
}
