//! The JSON side of `tree` and `get`.

use std::fmt::Write;
use std::path::Path;

use quarry::common::LineIndex;
use quarry::json::{self, Node, NodeKind};
use quarry::ValuePath;

use crate::{render_parse_error, Failure};

fn parse<'a>(file: &Path, bytes: &'a [u8]) -> Result<json::Document<'a>, Failure> {
    json::parse_tree(bytes).map_err(|e| {
        Failure::Invalid(render_parse_error(
            file,
            bytes,
            e.position(),
            &e.kind().to_string(),
        ))
    })
}

/// A one-line rendering of a scalar: strings quoted and cut at 60 characters.
fn scalar(node: Node<'_, '_>) -> String {
    match node.kind() {
        NodeKind::String => {
            let s = node.as_str().unwrap_or_default();
            match s.char_indices().nth(60) {
                Some((cut, _)) => format!("{:?}…", &s[..cut]),
                None => format!("{s:?}"),
            }
        }
        _ => node.source_text().to_owned(),
    }
}

/// The indented tree: line number, then `key: kind value` per node.
pub fn tree(file: &Path, bytes: &[u8]) -> Result<String, Failure> {
    let doc = parse(file, bytes)?;
    let lines = LineIndex::new(bytes);
    let last_line = lines.line(bytes.len());
    let width = last_line.to_string().len();
    let mut out = String::new();
    // Explicit stack of (node, depth, label); children pushed in reverse to print in order.
    let mut stack = vec![(doc.root(), 0usize, String::new())];
    while let Some((node, depth, label)) = stack.pop() {
        let line = lines.line(node.span().start);
        let _ = write!(
            out,
            "{line:>width$}  {:indent$}{label}",
            "",
            indent = depth * 2
        );
        match node.kind() {
            NodeKind::Array if node.len() == 1 => {
                let _ = writeln!(out, "array (1 item)");
            }
            NodeKind::Array => {
                let _ = writeln!(out, "array ({} items)", node.len());
            }
            NodeKind::Object if node.len() == 1 => {
                let _ = writeln!(out, "object (1 member)");
            }
            NodeKind::Object => {
                let _ = writeln!(out, "object ({} members)", node.len());
            }
            NodeKind::Null => {
                let _ = writeln!(out, "null");
            }
            kind => {
                let _ = writeln!(out, "{} {}", kind.name(), scalar(node));
            }
        }
        let is_object = node.kind() == NodeKind::Object;
        let children: Vec<_> = node.children().enumerate().collect();
        for (i, child) in children.into_iter().rev() {
            let label = if is_object {
                format!(
                    "{}: ",
                    quarry::ValuePath {
                        segments: vec![quarry::Segment::Key(child.key().unwrap_or("").to_owned())]
                    }
                )
            } else {
                format!("[{i}]: ")
            };
            stack.push((child, depth + 1, label));
        }
    }
    Ok(out)
}

/// The value at `path`: scalars as plain text, containers as indented JSON.
pub fn get(file: &Path, bytes: &[u8], path: &ValuePath) -> Result<String, Failure> {
    let doc = parse(file, bytes)?;
    let node = doc
        .root()
        .lookup(path)
        .ok_or_else(|| Failure::Invalid(format!("{}: no value at `{path}`\n", file.display())))?;
    let mut out = match node.kind() {
        NodeKind::String => node.as_str().unwrap_or_default().to_owned(),
        NodeKind::Array | NodeKind::Object => json::to_string_pretty(&node.to_raw_value())
            .map_err(|e| Failure::Invalid(format!("{}: {e}\n", file.display())))?,
        _ => node.source_text().to_owned(),
    };
    out.push('\n');
    Ok(out)
}
