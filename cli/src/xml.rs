//! The XML side of `tree` and `get`.

use std::path::Path;

use quarry::decode::Path as ValuePath;
use quarry::xml::{self, Node, NodeKind, Target};

use crate::output::{count, encode_failure, invalid, short_string, show_each, TreeOut};
use crate::Failure;

fn describe(node: Node<'_, '_>) -> String {
    match node.kind() {
        NodeKind::Root => "document".to_owned(),
        NodeKind::Element => {
            let mut text = format!("<{}>", node.tag_name());
            if let Some(ns) = node.namespace() {
                text.push_str(&format!(" {{{ns}}}"));
            }
            let children = node.children().count();
            if children > 0 {
                text.push_str(&format!(
                    " ({})",
                    count(children, "child").replace("childs", "children")
                ));
            }
            text
        }
        NodeKind::Text => format!("text {}", short_string(node.text().unwrap_or_default())),
        NodeKind::Comment => format!("comment {}", short_string(node.text().unwrap_or_default())),
        NodeKind::ProcessingInstruction => {
            let (target, data) = node.pi().unwrap_or_default();
            format!("pi {target} {}", short_string(data))
        }
    }
}

/// The indented tree: elements with their namespace, attributes as `@name = "value"`,
/// text, comments and PIs, each with its line number.
pub fn tree(file: &Path, bytes: &[u8]) -> Result<String, Failure> {
    let doc = xml::parse_tree(bytes).map_err(invalid(file, bytes))?;
    let mut out = TreeOut::new(doc.source().as_bytes());
    let top: Vec<_> = doc.root().children().collect();
    let mut stack: Vec<(Node<'_, '_>, usize)> = top.into_iter().rev().map(|n| (n, 0)).collect();
    while let Some((node, depth)) = stack.pop() {
        out.node(node.span().start, depth, "", &describe(node));
        for attr in node.attributes() {
            let value = short_string(attr.value());
            out.node(
                attr.span().start,
                depth + 1,
                "",
                &format!("@{} = {value}", attr.name()),
            );
        }
        let children: Vec<_> = node.children().collect();
        for child in children.into_iter().rev() {
            stack.push((child, depth + 1));
        }
    }
    Ok(out.finish())
}

/// The value at each of `paths` (`root.child[2].@attr`, the root element's name first): text and
/// attributes as plain text, elements as XML.
pub fn get(file: &Path, bytes: &[u8], paths: &[ValuePath]) -> Result<String, Failure> {
    let doc = xml::parse_tree(bytes).map_err(invalid(file, bytes))?;
    show_each(file, doc.root(), paths, |target| {
        Ok(match target {
            Target::Attribute(attr) => attr.value().to_owned(),
            Target::Node(node) => match node.kind() {
                NodeKind::Element
                    if node.element_children().next().is_some() || node.attributes().len() > 0 =>
                {
                    let value = node.to_raw_value();
                    xml::to_string_pretty_with_root(&value, node.tag_name())
                        .map_err(encode_failure(file))?
                }
                NodeKind::Element => node.children().filter_map(|c| c.text()).collect(),
                _ => node.text().unwrap_or_default().to_owned(),
            },
        })
    })
}
