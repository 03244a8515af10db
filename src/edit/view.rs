//! A format-neutral view of the tree door: the spans, kinds and styles of a TOML, YAML or
//! JSON tree, flattened into one list of nodes the planner and the writer work on.

use super::EditError;
use crate::{Format, RawValue, Segment, Span, TreeNode};

/// How a node is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Scalar(Style),
    /// `{...}`, `[...]` (JSON, TOML inline, YAML flow).
    Flow {
        map: bool,
    },
    /// YAML block mapping or sequence.
    Block {
        map: bool,
    },
    /// A TOML table with a `[header]`, an `[[array]]` element, or the root.
    Section,
    /// A TOML table made on the way to a deeper header (`a` in `[a.b]`).
    Implicit,
    /// A TOML table made by dotted keys (`a` in `a.b = 1`).
    Dotted,
    /// A TOML array of tables.
    TableArray,
    /// A YAML alias.
    Alias,
}

/// How a TOML node is written, from its kind.
pub(super) fn toml_kind(kind: crate::toml::NodeKind) -> Kind {
    use crate::toml::{NodeKind, StringKind, TableKind};
    match kind {
        NodeKind::Table(TableKind::Root | TableKind::Header | TableKind::ArrayElement) => {
            Kind::Section
        }
        NodeKind::Table(TableKind::Implicit) => Kind::Implicit,
        NodeKind::Table(TableKind::Dotted) => Kind::Dotted,
        NodeKind::Table(TableKind::Inline) => Kind::Flow { map: true },
        NodeKind::Array => Kind::Flow { map: false },
        NodeKind::ArrayOfTables => Kind::TableArray,
        NodeKind::String(StringKind::Literal) => Kind::Scalar(Style::SingleQuoted),
        NodeKind::String(StringKind::Basic) => Kind::Scalar(Style::DoubleQuoted),
        NodeKind::String(_) => Kind::Scalar(Style::Block),
        _ => Kind::Scalar(Style::Plain),
    }
}

/// How a scalar is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Block,
}

#[derive(Debug, Clone)]
pub(super) struct VNode {
    pub(super) kind: Kind,
    pub(super) span: Span,
    /// A map's entries: key, the key's span, and the value's node.
    pub(super) entries: Vec<(String, Span, usize)>,
    /// A sequence's items (a TOML array of tables: its tables).
    pub(super) items: Vec<usize>,
    /// The YAML anchor on the node.
    pub(super) anchor: Option<String>,
    /// For a YAML alias: the anchor it refers to.
    pub(super) alias: Option<String>,
}

pub(super) struct View {
    /// Every node, the root first; a node's children come after it.
    pub(super) nodes: Vec<VNode>,
    /// The value the tree reads as.
    pub(super) value: RawValue<'static>,
    /// The span of the edited YAML document (the whole text otherwise).
    extent: Span,
    /// Anchors that some alias refers to.
    pub(super) aliased: Vec<String>,
    /// YAML anchors written on keys (`&k key: value`), with the key's span.
    pub(super) key_anchors: Vec<(String, Span)>,
}

impl View {
    pub(super) fn build(text: &str, format: Format, index: usize) -> Result<View, EditError> {
        let bytes = text.as_bytes();
        let mut view = View {
            nodes: Vec::new(),
            value: RawValue::Null,
            extent: Span::new(0, text.len()),
            aliased: Vec::new(),
            key_anchors: Vec::new(),
        };
        match format {
            Format::Json | Format::Jsonc => {
                let doc = match format {
                    Format::Json => crate::json::parse_tree(bytes),
                    _ => crate::json::parse_tree_jsonc(bytes),
                }
                .map_err(|e| EditError::Parse(e.to_string()))?;
                view.value = doc.root().to_raw_value().into_owned();
                view.add_json(doc.root());
            }
            Format::Toml => {
                let doc =
                    crate::toml::parse_tree(bytes).map_err(|e| EditError::Parse(e.to_string()))?;
                view.value = doc.root().to_raw_value().into_owned();
                view.add_toml(doc.root());
            }
            Format::Yaml => {
                let stream =
                    crate::yaml::parse_tree(bytes).map_err(|e| EditError::Parse(e.to_string()))?;
                let doc = stream.document(index).ok_or_else(|| {
                    EditError::Parse(format!("the stream has no document {index}"))
                })?;
                view.value = doc
                    .to_raw_value()
                    .map_err(|e| EditError::Parse(e.to_string()))?
                    .into_owned();
                view.extent = doc.span();
                view.add_yaml(doc.root());
                view.aliased = view.nodes.iter().filter_map(|n| n.alias.clone()).collect();
                key_anchors(doc.root(), &mut view.key_anchors, &mut view.aliased);
            }
            other => return Err(EditError::Unsupported(other)),
        }
        Ok(view)
    }

    fn push(&mut self, kind: Kind, span: Span) -> usize {
        self.nodes.push(VNode {
            kind,
            span,
            entries: Vec::new(),
            items: Vec::new(),
            anchor: None,
            alias: None,
        });
        self.nodes.len() - 1
    }

    /// Adds `node` and its subtree: `describe` says how a node is written (and its YAML
    /// anchor and alias), `key` what a map entry's key is called and where it stands.
    fn add<'d, N: TreeNode<'d>>(
        &mut self,
        node: N,
        describe: &impl Fn(N) -> (Kind, Option<String>, Option<String>),
        key: &impl Fn(&N::Key) -> Option<(String, Span)>,
    ) -> usize {
        let (kind, anchor, alias) = describe(node);
        let id = self.push(kind, node.span());
        self.nodes[id].anchor = anchor;
        self.nodes[id].alias = alias;
        for (k, child) in node.entries() {
            let name = key(&k);
            let c = self.add(child, describe, key);
            if let Some((name, span)) = name {
                self.nodes[id].entries.push((name, span, c));
            }
        }
        for child in node.items() {
            let c = self.add(child, describe, key);
            self.nodes[id].items.push(c);
        }
        id
    }

    fn add_json(&mut self, node: crate::json::Node<'_, '_>) -> usize {
        use crate::json::NodeKind;
        let describe = |n: crate::json::Node<'_, '_>| {
            let kind = match n.kind() {
                NodeKind::Object => Kind::Flow { map: true },
                NodeKind::Array => Kind::Flow { map: false },
                _ => Kind::Scalar(Style::DoubleQuoted),
            };
            (kind, None, None)
        };
        self.add(node, &describe, &|k: &crate::EntryKey<'_>| {
            Some((k.name.to_owned(), k.span))
        })
    }

    fn add_toml(&mut self, node: crate::toml::Node<'_, '_>) -> usize {
        let describe = |n: crate::toml::Node<'_, '_>| {
            let kind = toml_kind(n.kind());
            (kind, None, None)
        };
        self.add(node, &describe, &|k: &crate::EntryKey<'_>| {
            Some((k.name.to_owned(), k.span))
        })
    }

    fn add_yaml(&mut self, node: crate::yaml::Node<'_, '_>) -> usize {
        use crate::yaml::{CollectionStyle, NodeKind, ScalarStyle};
        let describe = |n: crate::yaml::Node<'_, '_>| {
            let kind = match n.kind() {
                NodeKind::Alias => Kind::Alias,
                NodeKind::Scalar => Kind::Scalar(match n.scalar_style() {
                    Some(ScalarStyle::SingleQuoted) => Style::SingleQuoted,
                    Some(ScalarStyle::DoubleQuoted) => Style::DoubleQuoted,
                    Some(ScalarStyle::Plain) | None => Style::Plain,
                    Some(_) => Style::Block,
                }),
                kind => {
                    let map = kind == NodeKind::Mapping;
                    match n.collection_style() {
                        Some(CollectionStyle::Flow) => Kind::Flow { map },
                        _ => Kind::Block { map },
                    }
                }
            };
            (
                kind,
                n.anchor().map(str::to_owned),
                n.alias_name().map(str::to_owned),
            )
        };
        // A key that is not a scalar (`? [a, b]`) cannot be named by a path.
        self.add(node, &describe, &|k: &crate::yaml::Node<'_, '_>| {
            Some((k.as_str()?.to_owned(), k.span()))
        })
    }

    /// The node at `path`, and the nodes on the way (root first).
    pub(super) fn walk(&self, path: &[Segment]) -> Option<Vec<usize>> {
        let mut trail = vec![0];
        let mut at = 0;
        for segment in path {
            let node = &self.nodes[at];
            at = match segment {
                Segment::Key(k) => node.entries.iter().rev().find(|(key, _, _)| key == k)?.2,
                Segment::Index(i) => *node.items.get(*i)?,
            };
            trail.push(at);
        }
        Some(trail)
    }
}

/// The anchors written on the keys of `node`'s mappings, at any depth, and the anchors
/// that keys refer to as aliases (`*a : value`).
fn key_anchors(
    node: crate::yaml::Node<'_, '_>,
    out: &mut Vec<(String, Span)>,
    aliased: &mut Vec<String>,
) {
    for (key, value) in node.entries() {
        if let Some(anchor) = key.anchor() {
            out.push((anchor.to_owned(), key.span()));
        }
        if let Some(alias) = key.alias_name() {
            aliased.push(alias.to_owned());
        }
        key_anchors(key, out, aliased);
        key_anchors(value, out, aliased);
    }
    for item in node.items() {
        key_anchors(item, out, aliased);
    }
}
