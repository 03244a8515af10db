//! The property-list side of `tree` and `get` (XML, binary and OpenStep alike).

use std::path::Path;

use quarry::decode::Path as ValuePath;
use quarry::plist::{self, Node, NodeKind, PlistFormat};
use quarry::TreeNode;

use crate::output::{count, encode_failure, invalid, key_label, short_string, show_each, TreeOut};
use crate::Failure;

fn describe(node: Node<'_, '_>) -> String {
    match node.kind() {
        NodeKind::Dict => format!("dict ({})", count(node.len(), "key")),
        NodeKind::Array => format!("array ({})", count(node.len(), "item")),
        NodeKind::String => format!("string {}", short_string(node.as_str().unwrap_or_default())),
        NodeKind::Integer => match (node.as_i64(), node.as_u64()) {
            (Some(i), _) => format!("integer {i}"),
            (None, Some(u)) => format!("integer {u}"),
            _ => "integer".to_owned(),
        },
        NodeKind::Real => format!("real {}", node.as_f64().unwrap_or_default()),
        NodeKind::Bool => format!("bool {}", node.as_bool().unwrap_or_default()),
        NodeKind::Date => match node.as_date() {
            Some(date) => format!("date {date}"),
            None => "date".to_owned(),
        },
        NodeKind::Data => format!("data ({} bytes)", node.as_data().map_or(0, <[u8]>::len)),
        NodeKind::Uid => format!("uid {}", node.as_uid().unwrap_or_default()),
    }
}

/// The indented tree with line numbers (object offsets, `@0x…`, for binary plists).
pub fn tree(file: &Path, bytes: &[u8]) -> Result<String, Failure> {
    let doc = plist::parse_tree(bytes).map_err(invalid(file, bytes))?;
    let mut out = if doc.format() == PlistFormat::Binary {
        TreeOut::offsets()
    } else {
        TreeOut::new(bytes)
    };
    let mut stack = vec![(doc.root(), 0usize, String::new())];
    while let Some((node, depth, label)) = stack.pop() {
        out.node(node.span().start, depth, &label, &describe(node));
        match node.kind() {
            NodeKind::Dict => {
                let entries: Vec<_> = node.entries().collect();
                for (key, child) in entries.into_iter().rev() {
                    stack.push((child, depth + 1, key_label(key.name)));
                }
            }
            NodeKind::Array => {
                let items: Vec<_> = node.items().enumerate().collect();
                for (i, child) in items.into_iter().rev() {
                    stack.push((child, depth + 1, format!("[{i}]: ")));
                }
            }
            _ => {}
        }
    }
    Ok(out.finish())
}

/// The value at each of `paths`: scalars as plain text (data as base64), containers as XML plist.
pub fn get(file: &Path, bytes: &[u8], paths: &[ValuePath]) -> Result<String, Failure> {
    let doc = plist::parse_tree(bytes).map_err(invalid(file, bytes))?;
    show_each(file, doc.root(), paths, |node| {
        Ok(match node.kind() {
            NodeKind::Dict | NodeKind::Array => {
                plist::to_string_xml(&node.to_raw_value()).map_err(encode_failure(file))?
            }
            NodeKind::Data => quarry::base64::encode(node.as_data().unwrap_or_default()),
            NodeKind::String => node.as_str().unwrap_or_default().to_owned(),
            _ => {
                let described = describe(node);
                described
                    .split_once(' ')
                    .map_or(described.clone(), |(_, v)| v.to_owned())
            }
        })
    })
}
