//! `quarry completions`: clap's completion script for a shell.

use clap::CommandFactory;

use crate::args::Cli;
use crate::output::write_stdout;
use crate::Outcome;

/// Prints the completion script of `shell`.
pub(crate) fn run(shell: clap_complete::Shell) -> Outcome {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "quarry", &mut out);
    write_stdout(&out)
}
