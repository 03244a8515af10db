//! `quarry`: inspect, query, convert and check data files.
//!
//! Exit codes: 0 success, 1 a document is invalid (or `get` found nothing), 2 bad usage
//! or an unreadable file.

mod args;
mod commands;
mod input;
mod json;
mod output;
mod plist;
mod schema;
mod select;
mod toml;
mod xml;
mod yaml;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::commands::edit::Edit;
use crate::input::input;

/// Why a command failed, mapped to the exit code.
pub(crate) enum Failure {
    /// Exit 1: the document is invalid, or the path matched nothing.
    Invalid(String),
    /// Exit 2: bad usage or an unreadable file.
    Usage(String),
}

pub(crate) type Outcome = Result<(), Failure>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    output::set_color(cli.color);
    let result = match cli.command {
        Command::Tree { file, format, doc } => commands::tree::run(&input(file), format, doc),
        Command::Get {
            file,
            path,
            format,
            doc,
            output,
        } => commands::get::run(&input(Some(file)), &path, format, doc, output),
        Command::Convert {
            file,
            to,
            format,
            compact,
        } => commands::convert::run(&input(file), to, format, compact),
        Command::Check {
            paths,
            format,
            output,
            schema,
        } => commands::check::run(&paths, format, output, schema.as_deref()),
        Command::Config {
            files,
            dir,
            explain,
            env,
            profile,
            to,
            show_origin,
            compact,
        } => commands::config::run(commands::config::Options {
            files,
            dirs: dir,
            explain,
            env,
            profile,
            to,
            show_origin,
            compact,
        }),
        Command::Set {
            file,
            edits,
            options,
        } => commands::edit::run_pairs(&file, &edits, Edit::Set, &options),
        Command::Insert {
            file,
            edits,
            options,
        } => commands::edit::run_pairs(&file, &edits, Edit::Insert, &options),
        Command::Push {
            file,
            edits,
            options,
        } => commands::edit::run_pairs(&file, &edits, Edit::Push, &options),
        Command::Delete {
            file,
            paths,
            options,
        } => commands::edit::run(
            &file,
            paths.into_iter().map(Edit::Delete).collect(),
            &options,
        ),
        #[cfg(feature = "sql")]
        Command::Sql {
            query,
            files,
            output,
            schema,
            infer_records,
            unknown_fields,
            records_at,
        } => commands::sql::run(
            &query,
            &files,
            &commands::sql::Settings {
                output,
                schema,
                infer_records,
                unknown_fields,
                records_at,
            },
        ),
        Command::Completions { shell } => commands::completions::run(shell),
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
