//! ARCHITECTURE.md against the tree it describes.
//!
//! The rule, stated at the top of ARCHITECTURE.md: every folder that holds Rust sources,
//! every crate folder, and every Rust file over 300 lines is named on that page by its
//! path from the workspace root, in backticks (`formats/src/json/lexer.rs` for a file,
//! `formats/src/json/` with the trailing slash for a folder). `target/`, `fuzz/`,
//! `testdata/` and hidden folders are left out. The other way round, a path from the
//! workspace root named in backticks on the page must exist, so a moved or deleted file
//! does not linger there. Move or split a file, and the page has to follow.

use std::fs;
use std::path::Path;

/// A Rust file longer than this many lines must be named on the page.
const LARGE: usize = 300;

/// Folders never walked, at any depth (besides hidden ones).
const SKIPPED: &[&str] = &["target", "fuzz", "testdata"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn page() -> String {
    fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable")
}

/// `path` relative to the workspace root, with `/` between components.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).expect("under the workspace root");
    let parts: Vec<_> = rel.iter().map(|part| part.to_string_lossy()).collect();
    parts.join("/")
}

/// Walks `dir`, pushing every path the page must name, each with why, onto `required`.
fn walk(dir: &Path, required: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    let mut holds_rust = false;
    let mut is_crate = false;
    for path in entries {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
                walk(&path, required);
            }
        } else if name.ends_with(".rs") {
            holds_rust = true;
            let bytes =
                fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            let lines = bytes.iter().filter(|&&b| b == b'\n').count();
            if lines > LARGE {
                required.push((relative(&path), format!("a Rust file of {lines} lines")));
            }
        } else if name == "Cargo.toml" {
            is_crate = true;
        }
    }
    if dir != root() {
        if is_crate {
            required.push((relative(dir) + "/", "a crate folder".to_owned()));
        } else if holds_rust {
            required.push((relative(dir) + "/", "a folder of Rust sources".to_owned()));
        }
    }
}

/// The code spans of a Markdown text (fenced blocks left out).
fn code_spans(text: &str) -> Vec<String> {
    let prose: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("```"))
        .collect();
    let prose = prose.join("\n");
    prose
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_source_folder_crate_and_large_file_is_named() {
    let page = page();
    let mut required = Vec::new();
    walk(root(), &mut required);
    assert!(
        required.iter().any(|(path, _)| path == "formats/src/json/"),
        "the walk found the format folders"
    );
    let missing: Vec<String> = required
        .iter()
        .filter(|(path, _)| !page.contains(&format!("`{path}`")))
        .map(|(path, why)| format!("  `{path}` ({why})"))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name {} path(s); name each, in backticks, by its path \
         from the workspace root, and say what it holds:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_path_named_exists() {
    let top: Vec<String> = fs::read_dir(root())
        .expect("the workspace root is readable")
        .map(|entry| {
            entry
                .expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let stale: Vec<String> = code_spans(&page())
        .into_iter()
        .filter(|span| {
            span.contains('/')
                && !span.contains(|c: char| c.is_whitespace() || "<>*{}()[]:".contains(c))
                && span
                    .split('/')
                    .next()
                    .is_some_and(|first| top.iter().any(|entry| entry == first))
        })
        .filter(|path| !root().join(path).exists())
        .map(|path| format!("  `{path}`"))
        .collect();
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md names path(s) that do not exist; follow the move or drop them:\n{}",
        stale.join("\n")
    );
}
