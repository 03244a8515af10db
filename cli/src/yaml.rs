//! The YAML side of `tree` and `get`: streams of documents, `--doc N` picks one.

use std::path::Path;

use quarry::decode::Path as ValuePath;
use quarry::yaml::{self, Node, NodeKind};
use quarry::TreeNode;

use crate::output::{count, encode_failure, invalid, short_string, show_each, TreeOut};
use crate::Failure;

/// `kind value` with the node's properties: `!tag`, `&anchor`, the scalar style.
fn describe(node: Node<'_, '_>) -> String {
    let mut text = match node.kind() {
        NodeKind::Scalar => {
            let style = node
                .scalar_style()
                .map(|s| format!(" ({s:?})").to_lowercase())
                .unwrap_or_default();
            format!(
                "scalar {}{style}",
                short_string(node.as_str().unwrap_or_default())
            )
        }
        NodeKind::Sequence => format!("sequence ({})", count(node.len(), "item")),
        NodeKind::Mapping => {
            format!("mapping ({})", count(node.len(), "entry")).replace("entrys", "entries")
        }
        NodeKind::Alias => format!("alias *{}", node.alias_name().unwrap_or_default()),
    };
    if let Some(tag) = node.tag() {
        text.push_str(&format!(" <{}>", tag.full()));
    }
    if let Some(anchor) = node.anchor() {
        text.push_str(&format!(" &{anchor}"));
    }
    text
}

/// The documents to show: all, or only `--doc N`.
fn selected<'s, 'a>(
    file: &Path,
    stream: &'s yaml::Stream<'a>,
    doc: Option<usize>,
) -> Result<Vec<yaml::Document<'s, 'a>>, Failure> {
    match doc {
        None => Ok(stream.documents().collect()),
        Some(n) => stream.document(n).map(|d| vec![d]).ok_or_else(|| {
            Failure::Invalid(format!(
                "{}: no document {n} (the stream has {})\n",
                file.display(),
                stream.len()
            ))
        }),
    }
}

/// The indented tree of each document (or of `--doc N`), with line numbers; mapping
/// keys that are scalars label their values, other keys are shown as `? key`.
pub fn tree(file: &Path, bytes: &[u8], doc: Option<usize>) -> Result<String, Failure> {
    let stream = yaml::parse_tree(bytes).map_err(invalid(file, bytes))?;
    let mut out = TreeOut::new(stream.source().as_bytes());
    for document in selected(file, &stream, doc)? {
        out.node(
            document.span().start,
            0,
            "",
            &format!("document {}", document.index()),
        );
        let mut stack = vec![(document.root(), 1usize, String::new())];
        while let Some((node, depth, label)) = stack.pop() {
            out.node(node.span().start, depth, &label, &describe(node));
            match node.kind() {
                NodeKind::Mapping => {
                    let entries: Vec<_> = node.entries().collect();
                    for (key, value) in entries.into_iter().rev() {
                        match (key.kind(), key.as_str()) {
                            (NodeKind::Scalar, Some(text)) => {
                                stack.push((value, depth + 1, crate::output::key_label(text)));
                            }
                            _ => {
                                stack.push((value, depth + 1, ": ".into()));
                                stack.push((key, depth + 1, "? ".into()));
                            }
                        }
                    }
                }
                NodeKind::Sequence => {
                    let items: Vec<_> = node.items().enumerate().collect();
                    for (i, item) in items.into_iter().rev() {
                        stack.push((item, depth + 1, format!("[{i}]: ")));
                    }
                }
                _ => {}
            }
        }
    }
    for comment in stream.comments() {
        out.node(
            comment.span.start,
            0,
            "comment: ",
            comment.span.slice(stream.source()),
        );
    }
    Ok(out.finish())
}

/// The value at each of `paths` in document `--doc N` (default 0): scalars as plain text,
/// collections as YAML.
pub fn get(
    file: &Path,
    bytes: &[u8],
    paths: &[ValuePath],
    doc: Option<usize>,
) -> Result<String, Failure> {
    let stream = yaml::parse_tree(bytes).map_err(invalid(file, bytes))?;
    let index = doc.unwrap_or(0);
    let document = selected(file, &stream, Some(index))?.remove(0);
    show_each(file, document.root(), paths, |node| {
        let node = node.resolve();
        Ok(match node.kind() {
            NodeKind::Scalar => node.as_str().unwrap_or_default().to_owned(),
            _ => {
                let value = node
                    .to_raw_value()
                    .map_err(|e| Failure::Invalid(format!("{}: {e}\n", file.display())))?;
                yaml::to_string(&value).map_err(encode_failure(file))?
            }
        })
    })
}
