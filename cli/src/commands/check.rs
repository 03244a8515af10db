//! `quarry check`: files and whole directories, in parallel, reported for people
//! (`FILE:LINE:COLUMN: message` with the line), for programs (JSON, one object per
//! problem) or for GitHub Actions (annotations).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use quarry::{Format, RawValue};

use crate::args::CheckOutput;
use crate::input::{in_line, is_json_lines, json_lines, read, Document, Input};
use crate::output::{render_parse_error, write_stdout};
use crate::schema::Schema;
use crate::{Failure, Outcome};

/// One problem found in one file.
struct Problem {
    file: String,
    /// Line and column (from 1), when the problem has a place.
    at: Option<(usize, usize)>,
    format: Option<Format>,
    message: String,
    /// The error kind's name (`UnexpectedCharacter`), or `unreadable`.
    kind: String,
    /// `FILE:LINE:COLUMN: message` and the line with a caret.
    rendered: String,
    /// An unreadable file (exit 2), not an invalid document (exit 1).
    unreadable: bool,
}

/// The files `paths` name: files as given, directories walked for files of a known
/// format (by extension or well-known name), hidden folders and what `.gitignore` and
/// `.ignore` exclude skipped, each directory's entries in name order.
fn collect(paths: &[PathBuf], format: Option<Format>) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
        } else if path.is_dir() {
            let walk = ignore::WalkBuilder::new(path)
                .require_git(false)
                .sort_by_file_name(|a, b| a.cmp(b))
                .build();
            for entry in walk.flatten() {
                let file = entry.path();
                let known =
                    format.is_some() || Format::from_path(file).is_some() || is_json_lines(file);
                if known && entry.file_type().is_some_and(|t| t.is_file()) {
                    inputs.push(Input::File(file.to_path_buf()));
                }
            }
        } else {
            inputs.push(Input::File(path.clone()));
        }
    }
    inputs
}

/// The problems of one document (several for a JSON Lines file, one per bad line).
fn check_one(input: &Input, document: &Document, schema: Option<&Schema>) -> Vec<Problem> {
    if let Some(schema) = schema {
        return check_against(input, document, schema);
    }
    let file = input.name();
    let parse = |bytes: &[u8], format: Format| quarry::check(bytes, format);
    let problem = |e: quarry::Error, line: usize, offset: usize| match e {
        quarry::Error::Parse(e) => {
            let place = in_line(e.position(), line, offset);
            Problem {
                file: file.display().to_string(),
                at: Some((place.line, place.column)),
                format: Some(document.format),
                message: e.message(),
                kind: e.kind_name(),
                rendered: render_parse_error(file, &document.bytes, place, &e.message()),
                unreadable: false,
            }
        }
        other => unreadable(file, other.to_string()),
    };
    if !document.lines {
        return match parse(&document.bytes, document.format) {
            Ok(()) => Vec::new(),
            Err(e) => vec![problem(e, 0, 0)],
        };
    }
    let mut problems = Vec::new();
    for (number, start, line) in json_lines(&document.bytes) {
        if let Err(e) = parse(line, Format::Json) {
            problems.push(problem(e, number, start));
        }
    }
    problems
}

fn unreadable(file: &Path, message: String) -> Problem {
    Problem {
        file: file.display().to_string(),
        at: None,
        format: None,
        rendered: format!("quarry: {message}\n"),
        message,
        kind: "unreadable".into(),
        unreadable: true,
    }
}

/// Parses `document` (each line of JSON Lines, each document of a YAML stream) and
/// checks every value against `schema`: a syntax error is reported as without a schema,
/// each violation at the line and column of the node it is about.
fn check_against(input: &Input, document: &Document, schema: &Schema) -> Vec<Problem> {
    let file = input.name();
    let bytes = &document.bytes;
    // (value, its text, where that text starts: line number and offset, YAML document)
    let values: Vec<(RawValue<'_>, &[u8], usize, usize, usize)> = if document.lines {
        let mut values = Vec::new();
        for (number, start, line) in json_lines(bytes) {
            match quarry::parse_raw(line, Format::Json) {
                Ok(value) => values.push((value, line, number, start, 0)),
                Err(_) => return check_one(input, document, None),
            }
        }
        values
    } else {
        let parsed = match document.format {
            Format::Yaml => quarry::yaml::parse_stream(bytes).map_err(quarry::Error::from),
            Format::Xml => quarry::xml::parse_root(bytes)
                .map(|(_, root)| vec![root])
                .map_err(quarry::Error::from),
            format => quarry::parse_raw(bytes, format).map(|v| vec![v]),
        };
        match parsed {
            Ok(documents) => documents
                .into_iter()
                .enumerate()
                .map(|(i, value)| (value, &bytes[..], 0, 0, i))
                .collect(),
            Err(_) => return check_one(input, document, None),
        }
    };
    let mut problems = Vec::new();
    for (value, text, line, start, index) in &values {
        let violations = match schema.violations(value) {
            Ok(v) => v,
            Err(message) => {
                problems.push(unreadable(file, message));
                continue;
            }
        };
        if violations.is_empty() {
            continue;
        }
        let paths: Vec<quarry::decode::Path> = violations.iter().map(|v| v.path.clone()).collect();
        let positions = locate(text, document.format, &paths, *index);
        for (violation, position) in violations.into_iter().zip(positions) {
            let at = position.map(|p| in_line(p, *line, *start));
            let message = match violation.path.is_empty() {
                true => violation.message,
                false => format!("{}: {}", violation.path, violation.message),
            };
            let rendered = match at {
                Some(place) => render_parse_error(file, bytes, place, &message),
                None => format!("{}: {message}\n", file.display()),
            };
            problems.push(Problem {
                file: file.display().to_string(),
                at: at.map(|p| (p.line, p.column)),
                format: Some(document.format),
                message,
                kind: violation.kind,
                rendered,
                unreadable: false,
            });
        }
    }
    problems
}

/// Where each path is in `text`, document `index` of a YAML stream (the first of
/// anything else).
fn locate(
    text: &[u8],
    format: Format,
    paths: &[quarry::decode::Path],
    index: usize,
) -> Vec<Option<quarry::Position>> {
    use quarry::TreeNode;
    let located = match (format, index) {
        (Format::Yaml, i) if i > 0 => quarry::yaml::parse_tree(text).ok().and_then(|stream| {
            let doc = stream.document(i)?;
            Some(
                paths
                    .iter()
                    .map(|p| {
                        let (node, _) = doc.root().lookup_prefix(p);
                        Some(quarry::common::position_at(text, node.span().start))
                    })
                    .collect(),
            )
        }),
        _ => quarry::locate(text, format, paths),
    };
    located.unwrap_or_else(|| vec![None; paths.len()])
}

/// Reads and checks `input`.
fn verdict(input: &Input, format: Option<Format>, schema: Option<&Schema>) -> Vec<Problem> {
    match read(input, format) {
        Ok(document) => check_one(input, &document, schema),
        Err(Failure::Usage(message) | Failure::Invalid(message)) => {
            let message = message.trim_end().to_owned();
            vec![unreadable(input.name(), message)]
        }
    }
}

/// `n` with thousands separators: `9,412`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A problem as one JSON object (a line of `--output json`).
fn json_record(p: &Problem) -> String {
    let text = |s: &str| RawValue::String(s.to_owned().into());
    let number = |n: Option<usize>| n.map_or(RawValue::Null, |n| RawValue::Int(n as i64));
    let (line, column) = (p.at.map(|(l, _)| l), p.at.map(|(_, c)| c));
    let record = RawValue::Map(vec![
        ("file".into(), text(&p.file)),
        ("line".into(), number(line)),
        ("column".into(), number(column)),
        // A parse error points at one character.
        ("end_line".into(), number(line)),
        ("end_column".into(), number(column.map(|c| c + 1))),
        (
            "format".into(),
            p.format.map_or(RawValue::Null, |f| text(&f.to_string())),
        ),
        ("message".into(), text(&p.message)),
        ("kind".into(), text(&p.kind)),
    ]);
    quarry::json::to_string(&record).unwrap_or_default()
}

/// A problem as a GitHub Actions annotation.
fn github_record(p: &Problem) -> String {
    // Workflow commands escape `%`, CR and LF everywhere, and `,` and `:` in properties.
    let data = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |s: &str| data(s).replace(',', "%2C").replace(':', "%3A");
    match p.at {
        Some((line, column)) => format!(
            "::error file={},line={line},col={column}::{}",
            property(&p.file),
            data(&p.message)
        ),
        None => format!("::error file={}::{}", property(&p.file), data(&p.message)),
    }
}

/// How long work may run before a progress bar appears on a terminal.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// Checks every file of `paths` (directories walked), and with `schema` every document
/// against the JSON Schema at that path, loaded first.
pub fn run(
    paths: &[PathBuf],
    format: Option<Format>,
    output: CheckOutput,
    schema: Option<&Path>,
) -> Outcome {
    let schema = schema.map(Schema::load).transpose()?;
    let schema = schema.as_ref();
    let inputs = collect(paths, format);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(inputs.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let started = Instant::now();
    let mut verdicts: Vec<(usize, Vec<Problem>)> = std::thread::scope(|scope| {
        // Each worker says when it is done, so the main thread waits without polling.
        let (finished, all_done) = std::sync::mpsc::channel::<()>();
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let finished = finished.clone();
                let (next, done, inputs) = (&next, &done, &inputs);
                scope.spawn(move || {
                    let mut checked = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(input) = inputs.get(i) else { break };
                        let problems = verdict(input, format, schema);
                        done.fetch_add(1, Ordering::Relaxed);
                        if !problems.is_empty() {
                            checked.push((i, problems));
                        }
                    }
                    let _ = finished.send(());
                    checked
                })
            })
            .collect();
        drop(finished);
        // A progress bar on a terminal, once the work has taken a while; never in a pipe.
        let terminal = std::io::stderr().is_terminal();
        let mut bar: Option<indicatif::ProgressBar> = None;
        let mut running = workers.len();
        while running > 0 {
            let received = match (&bar, terminal) {
                // In a pipe there is never a bar: just wait.
                (_, false) => all_done
                    .recv()
                    .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
                (None, true) => {
                    all_done.recv_timeout(PROGRESS_AFTER.saturating_sub(started.elapsed()))
                }
                (Some(_), true) => all_done.recv_timeout(Duration::from_millis(100)),
            };
            match received {
                Ok(()) => running -= 1,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if bar.is_none() {
                        let b = indicatif::ProgressBar::new(inputs.len() as u64);
                        b.set_style(
                            indicatif::ProgressStyle::with_template(
                                "checking {pos}/{len} files {wide_bar} {eta}",
                            )
                            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                        );
                        bar = Some(b);
                    }
                }
            }
            if let Some(b) = &bar {
                b.set_position(done.load(Ordering::Relaxed) as u64);
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    verdicts.sort_by_key(|(i, _)| *i);
    let problems: Vec<Problem> = verdicts.into_iter().flat_map(|(_, p)| p).collect();
    let unreadable = problems.iter().filter(|p| p.unreadable).count();
    let mut invalid_files: Vec<&str> = problems
        .iter()
        .filter(|p| !p.unreadable)
        .map(|p| p.file.as_str())
        .collect();
    invalid_files.dedup();
    let mut stdout = String::new();
    let mut stderr = String::new();
    for p in &problems {
        match output {
            CheckOutput::Text => stderr.push_str(&p.rendered),
            CheckOutput::Json => {
                stdout.push_str(&json_record(p));
                stdout.push('\n');
            }
            CheckOutput::Github => {
                stdout.push_str(&github_record(p));
                stdout.push('\n');
            }
        }
    }
    let files = inputs.len();
    stderr.push_str(&format!(
        "checked {} {}: {} invalid{}\n",
        thousands(files),
        if files == 1 { "file" } else { "files" },
        thousands(invalid_files.len()),
        match unreadable {
            0 => String::new(),
            n => format!(", {} unreadable", thousands(n)),
        }
    ));
    write_stdout(stdout.as_bytes())?;
    eprint!("{stderr}");
    if unreadable > 0 {
        Err(Failure::Usage("some files could not be read".into()))
    } else if !invalid_files.is_empty() {
        Err(Failure::Invalid(String::new()))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(9412), "9,412");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn github_annotations_escape_what_workflow_commands_reserve() {
        let p = Problem {
            file: "a,b:c.json".into(),
            at: Some((3, 5)),
            format: Some(Format::Json),
            message: "100% bad\nreally".into(),
            kind: "X".into(),
            rendered: String::new(),
            unreadable: false,
        };
        assert_eq!(
            github_record(&p),
            "::error file=a%2Cb%3Ac.json,line=3,col=5::100%25 bad%0Areally"
        );
    }
}
