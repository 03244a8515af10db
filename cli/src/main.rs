//! `quarry`: inspect, query, convert and check data files.
//!
//! Exit codes: 0 success, 1 a document is invalid (or `get` found nothing), 2 bad usage
//! or an unreadable file.

mod check;
mod edit;
mod json;
mod plist;
mod schema;
mod select;
#[cfg(feature = "sql")]
mod sql;
mod toml;
mod xml;
mod yaml;

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{CommandFactory, Parser, Subcommand};
use quarry::common::LineIndex;
use quarry::{common, Format, TreeNode, ValuePath};

#[derive(Parser)]
#[command(
    name = "quarry",
    version,
    about = "Inspect, query, convert and check JSON, YAML, TOML, XML and plist files",
    after_help = "FILE may be `-` (or left out, for tree, get and convert) to read standard input.\n\
                  Exit codes: 0 success, 1 an invalid document or no match, 2 bad usage or an unreadable file."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour in `tree` and in error snippets: auto (on a terminal, unless NO_COLOR is
    /// set), always or never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    color: ColorChoice,
}

#[derive(Subcommand)]
enum Command {
    /// Print the document tree, indented, with node kinds and line numbers.
    #[command(
        after_help = "Examples:\n  quarry tree Cargo.toml\n  curl -s https://example.org/api | quarry tree --format json"
    )]
    Tree {
        /// The document (`-` or nothing: standard input).
        file: Option<PathBuf>,
        /// The input format (default: from the file name, or from the content).
        #[arg(long)]
        format: Option<Format>,
        /// For a YAML stream: only document N (from 0).
        #[arg(long)]
        doc: Option<usize>,
    },
    /// Print the values at a path like `servers[0].host`; `[*]` and `*` match every item
    /// and every key.
    #[command(
        after_help = "Examples:\n  quarry get config.toml 'servers[0].host'\n  quarry get Cargo.toml 'dependencies.*.version' --output json\n  echo '{\"a\": [1, 2]}' | quarry get - 'a[1]'"
    )]
    Get {
        /// The document (`-`: standard input).
        file: PathBuf,
        /// The path: keys separated by `.`, indexes in `[]`, `["a.b"]` for odd keys, `[*]`
        /// for every item, `*` for every key.
        path: String,
        /// The input format (default: from the file name, or from the content).
        #[arg(long)]
        format: Option<Format>,
        /// For a YAML stream: look in document N (from 0; default 0).
        #[arg(long)]
        doc: Option<usize>,
        /// `text` (one value after another) or `json` (one JSON value; a JSON array of
        /// the matches when the path has a wildcard).
        #[arg(long, value_name = "FORMAT", default_value = "text")]
        output: GetOutput,
    },
    /// Convert a document to another format, on standard output.
    #[command(
        after_help = "Examples:\n  quarry convert config.yaml --to toml\n  quarry convert events.jsonl --to yaml\n  cat Info.plist | quarry convert --to json"
    )]
    Convert {
        /// The document (`-` or nothing: standard input). `.jsonl` and `.ndjson` files hold
        /// one JSON document per line.
        file: Option<PathBuf>,
        /// The output format: json, yaml, toml, xml, plist (XML plist) or bplist (binary);
        /// jsonc writes JSON.
        #[arg(long)]
        to: Target,
        /// The input format (default: from the file name, or from the content).
        #[arg(long)]
        format: Option<Format>,
        /// Compact output where the format allows it.
        #[arg(long)]
        compact: bool,
    },
    /// Check that every file parses, in parallel; directories are walked for files of
    /// every known format, skipping hidden folders and what .gitignore or .ignore exclude.
    #[command(
        after_help = "Examples:\n  quarry check .\n  quarry check config/ deploy.yaml --output github\n\n\
                  --output json prints one object per problem: {\"file\", \"line\", \"column\",\n\
                  \"end_line\", \"end_column\", \"format\", \"message\", \"kind\"}.\n\
                  quarry check --schema app.schema.json config/   # schema violations too"
    )]
    Check {
        /// Files and directories (`-`: standard input).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The input format (default: from each file's name).
        #[arg(long)]
        format: Option<Format>,
        /// `text` (FILE:LINE:COLUMN: message and the line), `json` (one JSON object per
        /// problem, on standard output) or `github` (GitHub Actions annotations).
        #[arg(long, value_name = "FORMAT", default_value = "text")]
        output: CheckOutput,
        /// Also check every document against this JSON Schema (written in any format),
        /// reporting each violation at its node's line and column.
        #[arg(long, value_name = "SCHEMA")]
        schema: Option<PathBuf>,
    },
    /// Merge configuration layers (the files in order, later over earlier, then the
    /// environment) and print the result; maps merge key by key, everything else
    /// replaces.
    #[command(
        after_help = "Examples:\n  quarry config config/base.toml config/local.yaml --env APP\n  \
                      quarry config app.toml --profile production --to json\n  \
                      quarry config base.toml local.yaml --env APP --show-origin"
    )]
    Config {
        /// The files, lowest precedence first; each one's format comes from its name.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Environment variables `PREFIX_...` as the last layer: each maps onto the keys
        /// the files hold (`APP_DATABASE_MAX_CONNECTIONS` is `database.max_connections`
        /// when the files have it).
        #[arg(long, value_name = "PREFIX")]
        env: Option<String>,
        /// Read files with top-level `default` and `NAME` tables as profiles: `NAME`
        /// over `default` (also selected by `PREFIX_PROFILE`).
        #[arg(long, value_name = "NAME")]
        profile: Option<String>,
        /// The output format (default: the first file's).
        #[arg(long)]
        to: Option<Target>,
        /// Print one line per value instead: `path = value  # where it came from`.
        #[arg(long)]
        show_origin: bool,
        /// Compact output where the format allows it.
        #[arg(long)]
        compact: bool,
    },
    /// Set the value at a path, changing only its bytes (comments, order, quoting and
    /// blank lines kept); a missing key is inserted after its siblings.
    #[command(
        after_help = "Examples:\n  quarry set Cargo.toml package.version '\"0.2.0\"' --in-place\n  \
                      quarry set config.yaml server.port 8080\n  \
                      quarry set deno.jsonc 'imports[\"$std/\"]' '\"https://deno.land/std/\"'"
    )]
    Set {
        #[command(flatten)]
        target: EditTarget,
        /// The value, as a YAML flow value: `8080`, `'"8080"'`, `[a, b]`, `{k: v}`.
        value: String,
        #[command(flatten)]
        options: EditOptions,
    },
    /// Delete the entry or item at a path, with the comment lines directly above it.
    #[command(
        after_help = "Examples:\n  quarry delete Cargo.toml dependencies.serde --in-place\n  quarry delete config.yaml 'servers[1]'"
    )]
    Delete {
        #[command(flatten)]
        target: EditTarget,
        #[command(flatten)]
        options: EditOptions,
    },
    /// Run a SQL query over record files: JSON Lines, JSON, YAML, XML and TOML, read with
    /// DataFusion.
    #[cfg(feature = "sql")]
    #[command(
        after_help = "Each FILE is a table named by its file name without the extension, lowercased, with\n\
                      every character but letters and digits turned to `_`; a lone FILE is also the table `t`.\n\
                      Records: the objects of a JSON Lines file or a JSON array, the documents of a YAML stream\n\
                      (or the items of a sequence), the elements under an XML root (attributes as `@name`\n\
                      columns), the tables of a TOML array of tables.\n\n\
                      Examples:\n  quarry sql 'SELECT level, count(*) FROM t GROUP BY level' app.jsonl\n  \
                      quarry sql 'SELECT * FROM hosts JOIN checks USING (host)' hosts.yaml checks.toml --output json"
    )]
    Sql {
        /// The query.
        query: String,
        /// The files (format from the extension: .jsonl, .ndjson, .json, .yaml, .yml,
        /// .xml, .toml).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// `table` (bordered, aligned) or `json` (JSON Lines: one object per row).
        #[arg(long, value_name = "FORMAT", default_value = "table")]
        output: sql::SqlOutput,
    },
    /// Print a shell completion script: bash, zsh, fish, powershell or elvish.
    #[command(after_help = "Example:\n  quarry completions bash > /etc/bash_completion.d/quarry")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// What `set` and `delete` edit.
#[derive(Debug, clap::Args)]
struct EditTarget {
    /// A TOML, YAML, JSON or JSONC document (`-`: standard input).
    file: PathBuf,
    /// The path: `servers[0].host`, `["key.with.dots"]`.
    path: String,
}

/// How `set` and `delete` read and write.
#[derive(Debug, clap::Args)]
struct EditOptions {
    /// The input format (default: from the file name, or from the content).
    #[arg(long)]
    format: Option<Format>,
    /// For a YAML stream: edit document N (from 0).
    #[arg(long)]
    doc: Option<usize>,
    /// Write the result back into FILE (atomically) instead of to standard output.
    #[arg(long, short = 'i')]
    in_place: bool,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// `get --output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GetOutput {
    Text,
    Json,
}

/// `check --output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum CheckOutput {
    Text,
    Json,
    Github,
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
    let color = match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        // NO_COLOR counts when it is set to anything but the empty string.
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    COLOR.store(color, Ordering::Relaxed);
    ALWAYS.store(cli.color == ColorChoice::Always, Ordering::Relaxed);
    let result = match cli.command {
        Command::Tree { file, format, doc } => tree(&input(file), format, doc),
        Command::Get {
            file,
            path,
            format,
            doc,
            output,
        } => get(&input(Some(file)), &path, format, doc, output),
        Command::Convert {
            file,
            to,
            format,
            compact,
        } => convert(&input(file), to, format, compact),
        Command::Check {
            paths,
            format,
            output,
            schema,
        } => match schema.as_deref().map(schema::Schema::load).transpose() {
            Ok(schema) => check::run(&paths, format, output, schema.as_ref()),
            Err(failure) => Err(failure),
        },
        Command::Config {
            files,
            env,
            profile,
            to,
            show_origin,
            compact,
        } => config(&files, env, profile, to, show_origin, compact),
        Command::Set {
            target,
            value,
            options,
        } => edit::run(&target, edit::Edit::Set(value), &options),
        Command::Delete { target, options } => edit::run(&target, edit::Edit::Delete, &options),
        #[cfg(feature = "sql")]
        Command::Sql {
            query,
            files,
            output,
        } => sql::run(&query, &files, output),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "quarry", &mut out);
            write_stdout(&out)
        }
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

/// Colour is on (decided once, from `--color`, `NO_COLOR` and whether the output is a
/// terminal).
static COLOR: AtomicBool = AtomicBool::new(false);

/// Whether to colour what goes to `stream` (stdout or stderr).
fn colored(stream: &impl IsTerminal) -> bool {
    COLOR.load(Ordering::Relaxed) && (stream.is_terminal() || ALWAYS.load(Ordering::Relaxed))
}

/// `--color always`: colour even into a pipe.
static ALWAYS: AtomicBool = AtomicBool::new(false);

/// `text` in the SGR style `code` when `on`.
fn paint(on: bool, code: &str, text: &str) -> String {
    if on {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

/// Where a command reads its document: a file, or standard input (`-` or nothing).
enum Input {
    File(PathBuf),
    Stdin,
}

fn input(file: Option<PathBuf>) -> Input {
    match file {
        Some(path) if path.as_os_str() != "-" => Input::File(path),
        _ => Input::Stdin,
    }
}

impl Input {
    /// The name errors use.
    fn name(&self) -> &Path {
        match self {
            Input::File(path) => path,
            Input::Stdin => Path::new("<stdin>"),
        }
    }
}

/// The format of `bytes` when the content says so unambiguously: a binary plist's
/// magic, XML markup (a plist when it names one), or a document that parses as JSON.
fn sniff(bytes: &[u8]) -> Option<Format> {
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
    quarry::check(bytes, Format::Json)
        .is_ok()
        .then_some(Format::Json)
}

fn memmem(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A document read whole, with its format settled.
struct Document {
    bytes: Vec<u8>,
    format: Format,
    /// `.jsonl` / `.ndjson`: one JSON document per line.
    lines: bool,
}

/// Reads `input` and settles its format: `--format`, then the file name, then (for
/// standard input or an unknown name) the content.
fn read(input: &Input, format: Option<Format>) -> Result<Document, Failure> {
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
fn json_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, usize, &[u8])> {
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
fn in_line(at: quarry::Position, number: usize, start: usize) -> quarry::Position {
    quarry::Position {
        offset: start + at.offset,
        line: number + at.line,
        column: at.column,
    }
}

/// `.jsonl` and `.ndjson` files hold one JSON document per line.
fn is_json_lines(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("ndjson"))
}

/// `FILE:LINE:COLUMN: message` and the source line with a caret under the column,
/// coloured on a terminal.
fn render_parse_error(
    file: &Path,
    bytes: &[u8],
    position: quarry::Position,
    message: &str,
) -> String {
    let on = colored(&std::io::stderr());
    let snippet = common::render_snippet(bytes, position);
    let snippet = match snippet.rsplit_once('\n') {
        Some((line, caret)) if on => format!("{line}\n{}", paint(on, "1;31", caret)),
        _ => snippet,
    };
    let place = format!("{}:{}:{}:", file.display(), position.line, position.column);
    format!(
        "{} {}\n{snippet}\n",
        paint(on, "1", &place),
        paint(on, "31", message)
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

/// An encoding failure while printing a value of `file`.
fn encode_failure(file: &Path) -> impl Fn(quarry::EncodeError) -> Failure + '_ {
    move |e| Failure::Invalid(format!("{}: {e}\n", file.display()))
}

/// `get`'s output: each of `paths` looked up from `root` and shown by `show`, on a line
/// of its own; a path that leads nowhere is an error naming it. Every format's `get` is
/// this, with its own way to show a value.
fn show_each<'d, N: TreeNode<'d>>(
    file: &Path,
    root: N,
    paths: &[ValuePath],
    show: impl Fn(N::Target) -> Result<String, Failure>,
) -> Result<String, Failure> {
    let mut all = String::new();
    for path in paths {
        let target = root.lookup(path).ok_or_else(|| {
            Failure::Invalid(format!("{}: no value at `{path}`\n", file.display()))
        })?;
        let mut out = show(target)?;
        if !out.ends_with('\n') {
            out.push('\n');
        }
        all.push_str(&out);
    }
    Ok(all)
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
    /// Line numbers dim and labels coloured (standard output is a terminal).
    color: bool,
}

impl TreeOut {
    pub(crate) fn new(bytes: &[u8]) -> Self {
        let lines = LineIndex::new(bytes);
        let width = lines.line(bytes.len()).to_string().len();
        TreeOut {
            lines: Some(lines),
            width,
            out: String::new(),
            color: colored(&std::io::stdout()),
        }
    }

    /// Output that leads each node with its byte offset (`@0x1f`), for binary input.
    pub(crate) fn offsets() -> Self {
        TreeOut {
            lines: None,
            width: 0,
            out: String::new(),
            color: colored(&std::io::stdout()),
        }
    }

    /// One node: the line of byte `offset`, `depth` levels in, then `label` and `text`.
    pub(crate) fn node(&mut self, offset: usize, depth: usize, label: &str, text: &str) {
        use std::fmt::Write as _;
        let indent = depth * 2;
        let gutter = match &self.lines {
            Some(lines) => format!("{:>width$}", lines.line(offset), width = self.width),
            None => format!("@{offset:#06x}"),
        };
        let on = self.color;
        let _ = writeln!(
            self.out,
            "{}  {:indent$}{}{text}",
            paint(on, "2", &gutter),
            "",
            paint(on, "36", label),
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

/// `--doc` only means something for YAML streams.
fn check_doc(format: Format, doc: Option<usize>) -> Outcome {
    match doc {
        Some(_) if format != Format::Yaml => Err(Failure::Usage(format!(
            "--doc picks a document of a YAML stream; a {format} file holds one"
        ))),
        _ => Ok(()),
    }
}

fn tree(input: &Input, format: Option<Format>, doc: Option<usize>) -> Outcome {
    let document = read(input, format)?;
    let (file, bytes, format) = (input.name(), &document.bytes, document.format);
    no_lines(&document, "tree")?;
    check_doc(format, doc)?;
    let text = match format {
        Format::Json => json::tree(file, bytes, quarry::json::Dialect::Json)?,
        Format::Jsonc => json::tree(file, bytes, quarry::json::Dialect::Jsonc)?,
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

/// `tree` and `get` read one document; a JSON Lines file holds many.
fn no_lines(document: &Document, command: &str) -> Outcome {
    match document.lines {
        true => Err(Failure::Usage(format!(
            "{command} reads one document; a JSON Lines file holds one per line \
             (use `convert` or `check`, or --format json for a one-line file)"
        ))),
        false => Ok(()),
    }
}

fn get(
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
        Format::Json => json::get(file, bytes, &paths, quarry::json::Dialect::Json)?,
        Format::Jsonc => json::get(file, bytes, &paths, quarry::json::Dialect::Jsonc)?,
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

/// Writes `value` to `out` as `to`; `several` when it is one of several documents.
fn write_document(
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

fn convert(input: &Input, to: Target, format: Option<Format>, compact: bool) -> Outcome {
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

/// `quarry config`: the merged layers, or each value with its origin.
fn config(
    files: &[PathBuf],
    env: Option<String>,
    profile: Option<String>,
    to: Option<Target>,
    show_origin: bool,
    compact: bool,
) -> Outcome {
    let mut layers = quarry::Config::new();
    for file in files {
        layers = layers.file(file);
    }
    if let Some(prefix) = env {
        layers = layers.env(prefix);
    }
    if let Some(profile) = profile {
        layers = layers.profile(profile);
    }
    let (value, origins) = layers
        .load_value_with_origins()
        .map_err(|e| Failure::Invalid(format!("{e}\n")))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if show_origin {
        let mut leaves = Vec::new();
        leaves_of(&value, &mut quarry::ValuePath::default(), &mut leaves);
        for (path, leaf) in leaves {
            let text = quarry::json::to_string(&leaf).unwrap_or_else(|e| e.to_string());
            let origin = origins
                .get(&path.to_string())
                .map_or_else(String::new, ToString::to_string);
            if writeln!(out, "{path} = {text}  # {origin}").is_err() {
                break;
            }
        }
        return finish(out);
    }
    let first = quarry::Format::from_path(&files[0]).unwrap_or(Format::Json);
    let to = to.unwrap_or(Target::Format(first));
    write_document(&mut out, &value, to, compact, false)
        .map_err(|e| Failure::Invalid(format!("cannot write the configuration as {to}: {e}\n")))?;
    finish(out)
}

/// Every scalar of `value` (and every empty map or sequence) with its path.
fn leaves_of<'v>(
    value: &'v quarry::RawValue<'v>,
    at: &mut quarry::ValuePath,
    out: &mut Vec<(quarry::ValuePath, &'v quarry::RawValue<'v>)>,
) {
    match value {
        quarry::RawValue::Map(entries) if !entries.is_empty() => {
            for (key, child) in entries {
                at.segments.push(quarry::Segment::Key(key.to_string()));
                leaves_of(child, at, out);
                at.segments.pop();
            }
        }
        quarry::RawValue::Seq(items) if !items.is_empty() => {
            for (index, child) in items.iter().enumerate() {
                at.segments.push(quarry::Segment::Index(index));
                leaves_of(child, at, out);
                at.segments.pop();
            }
        }
        leaf => out.push((at.clone(), leaf)),
    }
}

/// Flushes standard output; a closed pipe is not a failure.
fn finish(mut out: impl Write) -> Outcome {
    match out.flush() {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Usage(format!("writing output: {e}"))),
    }
}
