//! The JSON side of `tree` and `get`, for JSON and JSONC.

use std::path::Path;

use quarry::decode::Path as ValuePath;
use quarry::json::{self, Document, Node, NodeKind};
use quarry::{Format, TreeNode};

use crate::output::{count, encode_failure, invalid, key_label, short_string, show_each, TreeOut};
use crate::Failure;

/// The tree of `bytes` in `format` (JSON or JSONC).
fn parse_tree(bytes: &[u8], format: Format) -> Result<Document<'_>, json::Error> {
    match format {
        Format::Jsonc => json::parse_tree_jsonc(bytes),
        _ => json::parse_tree(bytes),
    }
}

/// A one-line rendering of a scalar: strings quoted and cut at 60 characters.
fn scalar(node: Node<'_, '_>) -> String {
    match node.kind() {
        NodeKind::String => short_string(node.as_str().unwrap_or_default()),
        _ => node.source_text().to_owned(),
    }
}

/// The indented tree: line number, then `key: kind value` per node.
pub fn tree(file: &Path, bytes: &[u8], format: Format) -> Result<String, Failure> {
    let doc = parse_tree(bytes, format).map_err(invalid(file, bytes))?;
    let mut out = TreeOut::new(bytes);
    // Explicit stack of (node, depth, label); children pushed in reverse to print in order.
    let mut stack = vec![(doc.root(), 0usize, String::new())];
    while let Some((node, depth, label)) = stack.pop() {
        let text = match node.kind() {
            NodeKind::Array => format!("array ({})", count(node.len(), "item")),
            NodeKind::Object => format!("object ({})", count(node.len(), "member")),
            NodeKind::Null => "null".to_owned(),
            kind => format!("{} {}", kind.name(), scalar(node)),
        };
        out.node(node.span().start, depth, &label, &text);
        let children: Vec<(Node<'_, '_>, String)> = match node.kind() {
            NodeKind::Object => node
                .entries()
                .map(|(key, child)| (child, key_label(key.name)))
                .collect(),
            _ => node
                .items()
                .enumerate()
                .map(|(i, child)| (child, format!("[{i}]: ")))
                .collect(),
        };
        for (child, label) in children.into_iter().rev() {
            stack.push((child, depth + 1, label));
        }
    }
    Ok(out.finish())
}

/// The value at each of `paths`: scalars as plain text, containers as indented JSON.
pub fn get(
    file: &Path,
    bytes: &[u8],
    paths: &[ValuePath],
    format: Format,
) -> Result<String, Failure> {
    let doc = parse_tree(bytes, format).map_err(invalid(file, bytes))?;
    show_each(file, doc.root(), paths, |node| {
        let mut out = match node.kind() {
            NodeKind::String => node.as_str().unwrap_or_default().to_owned(),
            NodeKind::Array | NodeKind::Object => {
                json::to_string_pretty(&node.to_raw_value()).map_err(encode_failure(file))?
            }
            _ => node.source_text().to_owned(),
        };
        // A string's own final newline is kept: the line still ends after it.
        out.push('\n');
        Ok(out)
    })
}
