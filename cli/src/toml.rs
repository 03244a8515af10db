//! The TOML side of `tree` and `get`.

use std::path::Path;

use quarry::decode::Path as ValuePath;
use quarry::toml::{self, Node, NodeKind, TableKind};
use quarry::TreeNode;

use crate::output::{count, encode_failure, invalid, key_label, short_string, show_each, TreeOut};
use crate::Failure;

fn describe(node: Node<'_, '_>) -> String {
    match node.kind() {
        NodeKind::Table(kind) => {
            let how = match kind {
                TableKind::Root => "table",
                TableKind::Header => "table [header]",
                TableKind::Implicit => "table (implicit)",
                TableKind::Dotted => "table (dotted keys)",
                TableKind::Inline => "inline table",
                TableKind::ArrayElement => "table [[element]]",
            };
            format!("{how} ({})", count(node.len(), "key"))
        }
        NodeKind::ArrayOfTables => format!("array of tables ({})", count(node.len(), "table")),
        NodeKind::Array => format!("array ({})", count(node.len(), "item")),
        NodeKind::String(_) => {
            format!("string {}", short_string(node.as_str().unwrap_or_default()))
        }
        kind => format!("{} {}", kind.name(), node.source_text()),
    }
}

/// The indented tree: line number, then `key: kind value` per node; comments are listed
/// after the tree with their line numbers.
pub fn tree(file: &Path, bytes: &[u8]) -> Result<String, Failure> {
    let doc = toml::parse_tree(bytes).map_err(invalid(file, bytes))?;
    let mut out = TreeOut::new(bytes);
    let mut stack = vec![(doc.root(), 0usize, String::new())];
    while let Some((node, depth, label)) = stack.pop() {
        out.node(node.span().start, depth, &label, &describe(node));
        if node.is_table() {
            let entries: Vec<_> = node.entries().collect();
            for (key, child) in entries.into_iter().rev() {
                stack.push((child, depth + 1, key_label(key.name)));
            }
        } else {
            let items: Vec<_> = node.items().enumerate().collect();
            for (i, child) in items.into_iter().rev() {
                stack.push((child, depth + 1, format!("[{i}]: ")));
            }
        }
    }
    for comment in doc.comments() {
        out.node(
            comment.span.start,
            0,
            "comment: ",
            comment.span.slice(doc.source()),
        );
    }
    Ok(out.finish())
}

/// The value at each of `paths`: scalars as plain text, tables as TOML, arrays as JSON.
pub fn get(file: &Path, bytes: &[u8], paths: &[ValuePath]) -> Result<String, Failure> {
    let doc = toml::parse_tree(bytes).map_err(invalid(file, bytes))?;
    show_each(file, doc.root(), paths, |node| {
        Ok(match node.kind() {
            NodeKind::String(_) => node.as_str().unwrap_or_default().to_owned(),
            NodeKind::Table(_) => {
                toml::to_string(&node.to_raw_value()).map_err(encode_failure(file))?
            }
            NodeKind::Array | NodeKind::ArrayOfTables => {
                quarry::json::to_string_pretty(&node.to_raw_value())
                    .map_err(encode_failure(file))?
            }
            _ => node.source_text().to_owned(),
        })
    })
}
