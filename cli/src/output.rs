//! What `quarry` prints: colour, parse errors as `FILE:LINE:COLUMN: message` with the
//! line and a caret, the indented lines of `tree`, and standard output that a closed pipe
//! does not fail.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use quarry::common::LineIndex;
use quarry::decode::Path as ValuePath;
use quarry::{common, TreeNode};

use crate::args::ColorChoice;
use crate::{Failure, Outcome};

/// Decides colour once, from `--color`, `NO_COLOR` and (at each use) whether the output
/// is a terminal.
pub(crate) fn set_color(choice: ColorChoice) {
    let color = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        // NO_COLOR counts when it is set to anything but the empty string.
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    COLOR.store(color, Ordering::Relaxed);
    ALWAYS.store(choice == ColorChoice::Always, Ordering::Relaxed);
}

/// Colour is on (decided once, from `--color`, `NO_COLOR` and whether the output is a
/// terminal).
static COLOR: AtomicBool = AtomicBool::new(false);

/// Whether to colour what goes to `stream` (stdout or stderr).
pub(crate) fn colored(stream: &impl IsTerminal) -> bool {
    COLOR.load(Ordering::Relaxed) && (stream.is_terminal() || ALWAYS.load(Ordering::Relaxed))
}

/// `--color always`: colour even into a pipe.
static ALWAYS: AtomicBool = AtomicBool::new(false);

/// `text` in the SGR style `code` when `on`.
pub(crate) fn paint(on: bool, code: &str, text: &str) -> String {
    if on {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

/// `FILE:LINE:COLUMN: message` and the source line with a caret under the column,
/// coloured on a terminal.
pub(crate) fn render_parse_error(
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
pub(crate) fn invalid<'f, K: std::fmt::Display>(
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
pub(crate) fn encode_failure(file: &Path) -> impl Fn(quarry::EncodeError) -> Failure + '_ {
    move |e| Failure::Invalid(format!("{}: {e}\n", file.display()))
}

/// `get`'s output: each of `paths` looked up from `root` and shown by `show`, on a line
/// of its own; a path that leads nowhere is an error naming it. Every format's `get` is
/// this, with its own way to show a value.
pub(crate) fn show_each<'d, N: TreeNode<'d>>(
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

pub(crate) fn parse_failure(file: &Path, bytes: &[u8], error: &quarry::ParseError) -> Failure {
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
            segments: vec![quarry::decode::Segment::Key(key.to_owned())]
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

pub(crate) fn write_stdout(text: &[u8]) -> Outcome {
    let mut out = std::io::stdout().lock();
    match out.write_all(text).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`quarry tree big.json | head`) is not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Usage(format!("writing output: {e}"))),
    }
}

/// Flushes standard output; a closed pipe is not a failure.
pub(crate) fn finish(mut out: impl Write) -> Outcome {
    match out.flush() {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Usage(format!("writing output: {e}"))),
    }
}
