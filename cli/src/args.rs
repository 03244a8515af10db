//! The command line: clap's definitions of `quarry`'s arguments and subcommands.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use quarry::Format;

#[derive(Parser)]
#[command(
    name = "quarry",
    version,
    about = "Inspect, query, convert and check JSON, YAML, TOML, XML and plist files",
    after_help = "FILE may be `-` (or left out, for tree, get and convert) to read standard input.\n\
                  Exit codes: 0 success, 1 an invalid document or no match, 2 bad usage or an unreadable file."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Colour in `tree` and in error snippets: auto (on a terminal, unless NO_COLOR is
    /// set), always or never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub(crate) color: ColorChoice,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
                      quarry config base.toml local.yaml --env APP --show-origin\n  \
                      quarry config base.toml --dir conf.d --env APP --explain web.port"
    )]
    Config {
        /// The files, lowest precedence first; each one's format comes from its name.
        #[arg(required_unless_present = "dir")]
        files: Vec<PathBuf>,
        /// A folder (a `conf.d`) read after the files: each of its files of a known
        /// format, in the byte order of their names, one layer each (hidden files and
        /// editor backups skipped). Repeatable.
        #[arg(long, value_name = "DIR")]
        dir: Vec<PathBuf>,
        /// Print every layer's value for PATH instead, in order, with its origin, marked
        /// as replaced or used.
        #[arg(long, value_name = "PATH")]
        explain: Option<String>,
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
    /// blank lines kept); a missing key is inserted after its siblings. Several
    /// `PATH VALUE` pairs are applied in order and written once.
    #[command(
        after_help = "Examples:\n  quarry set Cargo.toml package.version '\"0.2.0\"' --in-place\n  \
                      quarry set config.yaml server.port 8080 server.host example.org\n  \
                      quarry set deno.jsonc 'imports[\"$std/\"]' '\"https://deno.land/std/\"'"
    )]
    Set {
        /// A TOML, YAML, JSON or JSONC document (`-`: standard input).
        file: PathBuf,
        /// `PATH VALUE` pairs: the path (`servers[0].host`, `["key.with.dots"]`) and the
        /// value as a YAML flow value (`8080`, `'"8080"'`, `[a, b]`, `{k: v}`).
        #[arg(required = true, num_args = 2.., value_names = ["PATH", "VALUE"])]
        edits: Vec<String>,
        #[command(flatten)]
        options: EditOptions,
    },
    /// Insert a new key into its map, after the map's last entry; an error when the key
    /// is there. Several `PATH VALUE` pairs are applied in order and written once.
    #[command(
        after_help = "Examples:\n  quarry insert Cargo.toml dependencies.log '\"0.4\"' --in-place\n  \
                      quarry insert config.yaml server.workers 4"
    )]
    Insert {
        /// A TOML, YAML, JSON or JSONC document (`-`: standard input).
        file: PathBuf,
        /// `PATH VALUE` pairs: the new key's path and its value as a YAML flow value.
        #[arg(required = true, num_args = 2.., value_names = ["PATH", "VALUE"])]
        edits: Vec<String>,
        #[command(flatten)]
        options: EditOptions,
    },
    /// Append a value to the sequence at a path, in the sequence's style. Several
    /// `PATH VALUE` pairs are applied in order and written once.
    #[command(
        after_help = "Examples:\n  quarry push .github/workflows/ci.yml 'jobs.test.strategy.matrix.rust' beta -i\n  \
                      quarry push pyproject.toml project.dependencies '\"httpx\"'"
    )]
    Push {
        /// A TOML, YAML, JSON or JSONC document (`-`: standard input).
        file: PathBuf,
        /// `PATH VALUE` pairs: the sequence's path and the value as a YAML flow value.
        #[arg(required = true, num_args = 2.., value_names = ["PATH", "VALUE"])]
        edits: Vec<String>,
        #[command(flatten)]
        options: EditOptions,
    },
    /// Delete the entry or item at a path, with the comment lines directly above it; a
    /// collection left empty is written `{}` or `[]`. Several paths are deleted in order.
    #[command(
        after_help = "Examples:\n  quarry delete Cargo.toml dependencies.serde --in-place\n  \
                      quarry delete ci.yml 'jobs.test.steps[1].name' 'jobs.test.env'"
    )]
    Delete {
        /// A TOML, YAML, JSON or JSONC document (`-`: standard input).
        file: PathBuf,
        /// The paths: `servers[0].host`, `["key.with.dots"]`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        options: EditOptions,
    },
    /// Run a SQL query over record files: JSON Lines, JSON, YAML, XML and TOML, read with
    /// DataFusion.
    #[cfg(feature = "sql")]
    #[command(
        after_help = "Each FILE is a table named by its file name without the extension, lowercased, with\n\
                      every character but letters and digits turned to `_`; a DIR is one table of all its files\n\
                      of one format, named by the directory; a lone FILE or DIR is also the table `t`.\n\
                      Records: the objects of a JSON Lines file or a JSON array, the documents of a YAML stream\n\
                      (or the items of a sequence), the elements under an XML root (attributes as `@name`\n\
                      columns), the tables of a TOML array of tables.\n\
                      Schemas are inferred from every record; with --infer-records N from the first N of each\n\
                      file, and the fields later records add are counted and reported on standard error.\n\n\
                      Examples:\n  quarry sql 'SELECT level, count(*) FROM t GROUP BY level' app.jsonl\n  \
                      quarry sql 'SELECT * FROM hosts JOIN checks USING (host)' hosts.yaml checks.toml --output json\n  \
                      quarry sql --schema logs/\n  \
                      quarry sql 'SELECT title FROM t' wiki.xml --records-at mediawiki/page"
    )]
    Sql {
        /// The query (with --schema, the first FILE).
        query: String,
        /// The files and directories (format from the extension: .jsonl, .ndjson, .json,
        /// .yaml, .yml, .xml, .toml).
        #[arg(required_unless_present = "schema")]
        files: Vec<PathBuf>,
        /// `table` (bordered, aligned) or `json` (JSON Lines: one object per row).
        #[arg(long, value_name = "FORMAT", default_value = "table")]
        output: SqlOutput,
        /// Print each table's inferred schema instead of running a query.
        #[arg(long)]
        schema: bool,
        /// Infer each file's schema from its first N records (default: all of them).
        #[arg(long, value_name = "N")]
        infer_records: Option<usize>,
        /// What a field the schema lacks does: `error`, `ignore` or `collect` (skipped and
        /// counted on standard error). Default: error, or collect with --infer-records.
        #[arg(long, value_name = "WHAT")]
        unknown_fields: Option<SqlUnknownFields>,
        /// XML: the path of the elements that are the records (`mediawiki/page`; default:
        /// the root's children). TOML: the key of the array of tables.
        #[arg(long, value_name = "PATH")]
        records_at: Option<String>,
    },
    /// Print a shell completion script: bash, zsh, fish, powershell or elvish.
    #[command(after_help = "Example:\n  quarry completions bash > /etc/bash_completion.d/quarry")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// How `set`, `insert`, `push` and `delete` read and write.
#[derive(Debug, clap::Args)]
pub(crate) struct EditOptions {
    /// The input format (default: from the file name, or from the content).
    #[arg(long)]
    pub(crate) format: Option<Format>,
    /// For a YAML stream: edit document N (from 0).
    #[arg(long)]
    pub(crate) doc: Option<usize>,
    /// Write the result back into FILE (atomically) instead of to standard output.
    #[arg(long, short = 'i')]
    pub(crate) in_place: bool,
    /// How an error is reported on standard error: `text` (`FILE:LINE:COLUMN: message`
    /// and the line) or `json` (one object, the fields of `check --output json`).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub(crate) output: EditOutput,
}

/// The `--output` of the edit commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EditOutput {
    Text,
    Json,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// `get --output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GetOutput {
    Text,
    Json,
}

/// `check --output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CheckOutput {
    Text,
    Json,
    Github,
}

/// What `convert` writes: a format, or a binary plist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
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

/// `sql --unknown-fields`.
#[cfg(feature = "sql")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SqlUnknownFields {
    /// An error naming the file, record, field, line and column.
    Error,
    /// Skipped.
    Ignore,
    /// Skipped and counted, the counts on standard error.
    Collect,
}

/// `sql --output`.
#[cfg(feature = "sql")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SqlOutput {
    /// A table with borders.
    Table,
    /// JSON Lines: one object per row (null fields left out).
    Json,
}
