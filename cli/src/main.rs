//! `quarry`: inspect, query, convert and check data files.
//!
//! Exit codes: 0 success, 1 a document is invalid (or `get` found nothing), 2 bad usage
//! or an unreadable file.

mod json;
mod toml;

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
    },
    /// Convert a document to another format, on standard output.
    Convert {
        /// The document.
        file: PathBuf,
        /// The output format.
        #[arg(long)]
        to: Format,
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
        Command::Tree { file, format } => tree(&file, format),
        Command::Get { file, path, format } => get(&file, &path, format),
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
    lines: LineIndex,
    width: usize,
    out: String,
}

impl TreeOut {
    pub(crate) fn new(bytes: &[u8]) -> Self {
        let lines = LineIndex::new(bytes);
        let width = lines.line(bytes.len()).to_string().len();
        TreeOut {
            lines,
            width,
            out: String::new(),
        }
    }

    /// One node: the line of byte `offset`, `depth` levels in, then `label` and `text`.
    pub(crate) fn node(&mut self, offset: usize, depth: usize, label: &str, text: &str) {
        use std::fmt::Write as _;
        let line = self.lines.line(offset);
        let _ = writeln!(
            self.out,
            "{line:>width$}  {:indent$}{label}{text}",
            "",
            width = self.width,
            indent = depth * 2
        );
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

fn tree(file: &Path, format: Option<Format>) -> Outcome {
    let (bytes, format) = read(file, format)?;
    let text = match format {
        Format::Json => json::tree(file, &bytes)?,
        Format::Toml => toml::tree(file, &bytes)?,
        other => {
            return Err(Failure::Usage(format!(
                "the {other} format is not supported yet"
            )))
        }
    };
    write_stdout(text.as_bytes())
}

fn get(file: &Path, path: &str, format: Option<Format>) -> Outcome {
    let (bytes, format) = read(file, format)?;
    let path =
        ValuePath::parse(path).ok_or_else(|| Failure::Usage(format!("malformed path `{path}`")))?;
    let text = match format {
        Format::Json => json::get(file, &bytes, &path)?,
        Format::Toml => toml::get(file, &bytes, &path)?,
        other => {
            return Err(Failure::Usage(format!(
                "the {other} format is not supported yet"
            )))
        }
    };
    write_stdout(text.as_bytes())
}

fn convert(file: &Path, to: Format, format: Option<Format>, compact: bool) -> Outcome {
    let (bytes, format) = read(file, format)?;
    let value = quarry::parse_raw(&bytes, format).map_err(|e| match e {
        quarry::Error::Parse(e) => parse_failure(file, &bytes, &e),
        other => Failure::Usage(other.to_string()),
    })?;
    let encoded = match to {
        Format::Json if compact => quarry::json::to_vec(&value).map(|mut v| {
            v.push(b'\n');
            v
        }),
        Format::Json => quarry::json::to_vec_pretty(&value).map(|mut v| {
            v.push(b'\n');
            v
        }),
        // No silent loss: a null is an error naming its path.
        Format::Toml => quarry::toml::to_vec_with(&value, quarry::toml::NullEntries::Reject),
        other => {
            return Err(Failure::Usage(format!(
                "converting to {other} is not supported yet"
            )))
        }
    };
    let encoded = encoded.map_err(|e| {
        Failure::Invalid(format!("{}: cannot convert to {to}: {e}\n", file.display()))
    })?;
    write_stdout(&encoded)
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
