//! The merge tree: the layers laid one over another, each node knowing which layer
//! (its source) gave it, and the origins found from the sources when asked.

use std::borrow::Cow;

use super::{Input, Origin, Origins, Problem, ProblemKind};
use crate::shape::Merge;
use crate::{common, Error, Format, RawValue, Segment, Shape, Span, ValuePath};

/// Where one merged value came from: an index into [`Merged::sources`].
type SourceId = usize;

/// The layer that gave a merged value.
pub(super) enum Source {
    /// A document; values sit under `prefix` (a profile table) in it.
    Document {
        name: String,
        input: usize,
        prefix: Option<String>,
    },
    Env(String),
    /// A file named by a `PREFIX_..._FILE` variable: its content is the value.
    SecretFile {
        variable: String,
        path: String,
    },
    Set,
}

impl Source {
    /// The environment variable that gave the value, if one did.
    pub(super) fn variable(&self) -> Option<&str> {
        match self {
            Source::Env(name) | Source::SecretFile { variable: name, .. } => Some(name),
            _ => None,
        }
    }
}

/// A node of the merged tree: maps merge, sequences are replaced as a whole (their
/// items addressed one by one only by indexed variables), everything else is one
/// layer's value.
///
/// A value one layer gave whole stays a [`Node::Leaf`], maps and sequences included,
/// until a later layer reaches into it ([`Node::open`]): the parts of a document no other
/// layer touches are never rebuilt. [`NodeRef`] reads both kinds alike.
pub(super) enum Node<'i> {
    Map {
        entries: Vec<(Cow<'i, str>, Node<'i>)>,
        from: SourceId,
    },
    Seq {
        items: Vec<Node<'i>>,
        from: SourceId,
    },
    Leaf {
        value: RawValue<'i>,
        from: SourceId,
    },
}

impl<'i> Node<'i> {
    /// Turns a map or sequence that one layer gave whole into a merged node whose
    /// children are that layer's values; anything else is left as it is.
    fn open(&mut self) {
        let Node::Leaf { value, from } = self else {
            return;
        };
        let from = *from;
        let opened = match std::mem::take(value) {
            RawValue::Map(entries) => Node::Map {
                entries: entries
                    .into_iter()
                    .map(|(k, value)| (k, Node::Leaf { value, from }))
                    .collect(),
                from,
            },
            RawValue::Seq(items) => Node::Seq {
                items: items
                    .into_iter()
                    .map(|value| Node::Leaf { value, from })
                    .collect(),
                from,
            },
            value => Node::Leaf { value, from },
        };
        *self = opened;
    }

    /// Lays `value` over this node, which sits at `at` in a value of `shape` (read only
    /// where a sequence meets a sequence, to find the field's [`Merge`] rule).
    fn merge(
        &mut self,
        value: RawValue<'i>,
        from: SourceId,
        shape: &Shape,
        at: &mut Vec<Cow<'i, str>>,
    ) {
        let reaches_in = match (&*self, &value) {
            (Node::Map { .. }, RawValue::Map(_)) => true,
            (Node::Leaf { value: held, .. }, RawValue::Map(_)) => {
                matches!(held, RawValue::Map(_))
            }
            (Node::Seq { .. }, RawValue::Seq(_)) => merge_rule(shape, at) == Merge::Append,
            (Node::Leaf { value: held, .. }, RawValue::Seq(_)) => {
                matches!(held, RawValue::Seq(_)) && merge_rule(shape, at) == Merge::Append
            }
            _ => false,
        };
        if !reaches_in {
            *self = Node::Leaf { value, from };
            return;
        }
        self.open();
        match (self, value) {
            (Node::Map { entries, .. }, RawValue::Map(incoming)) => {
                for (key, value) in incoming {
                    match entries.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, node)) => {
                            at.push(key);
                            node.merge(value, from, shape, at);
                            at.pop();
                        }
                        None => entries.push((key, Node::Leaf { value, from })),
                    }
                }
            }
            (Node::Seq { items, .. }, RawValue::Seq(incoming)) => {
                items.extend(incoming.into_iter().map(|value| Node::Leaf { value, from }));
            }
            (node, value) => *node = Node::Leaf { value, from },
        }
    }

    pub(super) fn into_value(self) -> RawValue<'i> {
        match self {
            Node::Map { entries, .. } => RawValue::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, v.into_value()))
                    .collect(),
            ),
            Node::Seq { items, .. } => {
                RawValue::Seq(items.into_iter().map(Node::into_value).collect())
            }
            Node::Leaf { value, .. } => value,
        }
    }

    /// This node, for reading.
    pub(super) fn view(&self) -> NodeRef<'_, 'i> {
        match self {
            Node::Leaf { value, from } => NodeRef::Given(value, *from),
            node => NodeRef::Merged(node),
        }
    }
}

/// A node of the merged tree, read: a map or sequence that layers were merged into, or
/// (any part of) a value that one layer gave whole.
#[derive(Clone, Copy)]
pub(super) enum NodeRef<'a, 'i> {
    /// A [`Node::Map`] or [`Node::Seq`].
    Merged(&'a Node<'i>),
    /// A value and the layer that gave it.
    Given(&'a RawValue<'i>, SourceId),
}

impl<'a, 'i> NodeRef<'a, 'i> {
    /// The layer that gave this node (for a merged map, the first that gave it).
    pub(super) fn from(self) -> SourceId {
        match self {
            NodeRef::Merged(
                Node::Map { from, .. } | Node::Seq { from, .. } | Node::Leaf { from, .. },
            ) => *from,
            NodeRef::Given(_, from) => from,
        }
    }

    /// The entries of a map (none for anything else).
    pub(super) fn entries(self) -> impl Iterator<Item = (&'a str, NodeRef<'a, 'i>)> {
        let (merged, given, from): (&'a [(Cow<'i, str>, Node<'i>)], &'a [_], _) = match self {
            NodeRef::Merged(Node::Map { entries, from }) => (entries, &[], *from),
            NodeRef::Given(RawValue::Map(entries), from) => (&[], entries, from),
            _ => (&[], &[], 0),
        };
        let merged = merged.iter().map(|(k, node)| (&**k, node.view()));
        let given = given
            .iter()
            .map(move |(k, value)| (&**k, NodeRef::Given(value, from)));
        merged.chain(given)
    }

    /// The items of a sequence (none for anything else).
    fn items(self) -> impl Iterator<Item = NodeRef<'a, 'i>> {
        let (merged, given, from): (&'a [Node<'i>], &'a [RawValue<'i>], _) = match self {
            NodeRef::Merged(Node::Seq { items, from }) => (items, &[], *from),
            NodeRef::Given(RawValue::Seq(items), from) => (&[], items, from),
            _ => (&[], &[], 0),
        };
        let merged = merged.iter().map(Node::view);
        let given = given.iter().map(move |value| NodeRef::Given(value, from));
        merged.chain(given)
    }

    pub(super) fn is_seq(self) -> bool {
        matches!(
            self,
            NodeRef::Merged(Node::Seq { .. }) | NodeRef::Given(RawValue::Seq(_), _)
        )
    }

    pub(super) fn item(self, index: usize) -> Option<NodeRef<'a, 'i>> {
        match self {
            NodeRef::Merged(Node::Seq { items, .. }) => items.get(index).map(Node::view),
            NodeRef::Given(RawValue::Seq(items), from) => {
                items.get(index).map(|value| NodeRef::Given(value, from))
            }
            _ => None,
        }
    }

    pub(super) fn child(self, key: &str) -> Option<NodeRef<'a, 'i>> {
        self.entries().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The node at `path`, if the tree holds it.
    pub(super) fn at(self, path: &ValuePath) -> Option<NodeRef<'a, 'i>> {
        let mut node = self;
        for segment in &path.segments {
            node = match segment {
                Segment::Key(key) => node.child(key)?,
                Segment::Index(i) => node.item(*i)?,
            };
        }
        Some(node)
    }

    pub(super) fn to_value(self) -> RawValue<'i> {
        match self {
            NodeRef::Merged(Node::Map { entries, .. }) => RawValue::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.view().to_value()))
                    .collect(),
            ),
            NodeRef::Merged(Node::Seq { items, .. }) => {
                RawValue::Seq(items.iter().map(|v| v.view().to_value()).collect())
            }
            NodeRef::Merged(Node::Leaf { value, .. }) | NodeRef::Given(value, _) => value.clone(),
        }
    }

    /// This node's value as far as sources `first..` gave it: a map keeps only the
    /// entries they touched; `None` when they touched nothing here.
    pub(super) fn value_from(self, first: SourceId) -> Option<RawValue<'i>> {
        if self.from() >= first {
            return Some(self.to_value());
        }
        match self {
            NodeRef::Merged(Node::Map { entries, .. }) => {
                let touched: Vec<_> = entries
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.view().value_from(first)?)))
                    .collect();
                (!touched.is_empty()).then_some(RawValue::Map(touched))
            }
            NodeRef::Merged(Node::Seq { .. }) => self
                .items()
                .any(|item| item.value_from(first).is_some())
                .then(|| self.to_value()),
            // One layer gave all of it, before `first`.
            NodeRef::Merged(Node::Leaf { .. }) | NodeRef::Given(..) => None,
        }
    }

    /// The path (below `at`) of the first node that sources `first..` gave, and that
    /// node's source.
    pub(super) fn first_from(self, first: SourceId, at: &mut ValuePath) -> Option<SourceId> {
        if self.from() >= first {
            return Some(self.from());
        }
        if let NodeRef::Given(..) = self {
            return None;
        }
        let keyed = self.entries().map(|(k, v)| (Segment::Key(k.to_owned()), v));
        let indexed = self
            .items()
            .enumerate()
            .map(|(i, v)| (Segment::Index(i), v));
        keyed.chain(indexed).find_map(|(segment, child)| {
            at.segments.push(segment);
            let found = child.first_from(first, at);
            if found.is_none() {
                at.segments.pop();
            }
            found
        })
    }

    /// Every source the subtree holds values from, from `first` on.
    pub(super) fn sources_from(self, first: SourceId, out: &mut Vec<SourceId>) {
        if self.from() >= first {
            out.push(self.from());
        }
        if let NodeRef::Merged(_) = self {
            self.entries().for_each(|(_, v)| v.sources_from(first, out));
            self.items().for_each(|v| v.sources_from(first, out));
        }
    }

    /// `path` with each index counted among the items of the same source: the item's
    /// index in its own document when a sequence appends several layers' items.
    fn local_path(self, path: &ValuePath) -> ValuePath {
        let mut node = Some(self);
        let mut local = ValuePath::default();
        for segment in &path.segments {
            let segment = match (node, segment) {
                (Some(n), Segment::Index(i)) if n.item(*i).is_some() => {
                    let item = n.item(*i);
                    let from = item.map(NodeRef::from);
                    let before = n
                        .items()
                        .take(*i)
                        .filter(|n| Some(n.from()) == from)
                        .count();
                    node = item;
                    Segment::Index(before)
                }
                (Some(n), Segment::Key(key)) => {
                    node = n.child(key);
                    segment.clone()
                }
                _ => {
                    node = None;
                    segment.clone()
                }
            };
            local.segments.push(segment);
        }
        local
    }

    /// The source of the deepest node along `path`.
    fn source_of(self, path: &ValuePath) -> SourceId {
        let mut node = self;
        for segment in &path.segments {
            let child = match segment {
                Segment::Key(key) => node.child(key),
                Segment::Index(i) => node.item(*i),
            };
            match child {
                Some(child) => node = child,
                None => break,
            }
        }
        node.from()
    }
}

/// The layers merged, with the problems found so far.
pub(super) struct Merged<'i> {
    /// The merged tree (`None` before any layer gave a value).
    pub(super) root: Option<Node<'i>>,
    sources: Vec<Source>,
    pub(super) problems: Vec<Problem>,
    /// Some layer was XML: the decode runs under XML's rule for sequences.
    pub(super) any_xml: bool,
    /// The target's shape, for the fields whose sequences append.
    shape: Shape,
}

impl<'i> Merged<'i> {
    pub(super) fn new(shape: &Shape) -> Self {
        Merged {
            shape: shape.clone(),
            root: None,
            sources: Vec::new(),
            problems: Vec::new(),
            any_xml: false,
        }
    }

    /// The merged tree, for reading (`None` before any layer gave a value).
    pub(super) fn tree(&self) -> Option<NodeRef<'_, 'i>> {
        self.root.as_ref().map(Node::view)
    }

    /// How many sources have given values so far.
    pub(super) fn source_count(&self) -> usize {
        self.sources.len()
    }

    /// True when `id` is a document (a file or a text layer).
    pub(super) fn is_document_source(&self, id: SourceId) -> bool {
        matches!(self.sources.get(id), Some(Source::Document { .. }))
    }

    /// True when `id` is a file a `_FILE` variable named.
    pub(super) fn is_secret_source(&self, id: SourceId) -> bool {
        matches!(self.sources.get(id), Some(Source::SecretFile { .. }))
    }

    /// Lays `value` over the tree, as given by `source`.
    pub(super) fn lay(&mut self, value: RawValue<'i>, source: Source) {
        self.sources.push(source);
        let from = self.sources.len() - 1;
        match &mut self.root {
            Some(root) => root.merge(value, from, &self.shape, &mut Vec::new()),
            None => self.root = Some(Node::Leaf { value, from }),
        }
    }

    /// Lays `value` at `path` (keys and sequence indices) over the tree, as given by
    /// `source`: an index may address an item the tree holds or the one just past the
    /// end; any further one leaves a gap, reported as the path to the index and the
    /// sequence's length.
    pub(super) fn lay_at(
        &mut self,
        path: &[Segment],
        value: RawValue<'i>,
        source: Source,
    ) -> Result<(), (Vec<Segment>, usize)> {
        self.sources.push(source);
        let from = self.sources.len() - 1;
        let mut node = self.root.get_or_insert_with(|| Node::Map {
            entries: Vec::new(),
            from,
        });
        for (depth, segment) in path.iter().enumerate() {
            node.open();
            match segment {
                Segment::Key(key) => {
                    if !matches!(node, Node::Map { .. }) {
                        *node = Node::Map {
                            entries: Vec::new(),
                            from,
                        };
                    }
                    let Node::Map { entries, .. } = node else {
                        unreachable!()
                    };
                    let at = match entries.iter().position(|(k, _)| k == key.as_str()) {
                        Some(at) => at,
                        None => {
                            entries.push((
                                Cow::Owned(key.clone()),
                                Node::Map {
                                    entries: Vec::new(),
                                    from,
                                },
                            ));
                            entries.len() - 1
                        }
                    };
                    node = &mut entries[at].1;
                }
                Segment::Index(index) => {
                    match node {
                        Node::Seq { .. } => {}
                        // XML's single child element is a one-item sequence.
                        Node::Map { entries, .. } if !entries.is_empty() => {
                            let single = std::mem::replace(
                                node,
                                Node::Seq {
                                    items: Vec::new(),
                                    from,
                                },
                            );
                            if let Node::Seq { items, .. } = node {
                                items.push(single);
                            }
                        }
                        _ => {
                            *node = Node::Seq {
                                items: Vec::new(),
                                from,
                            }
                        }
                    }
                    let Node::Seq { items, .. } = node else {
                        unreachable!()
                    };
                    if *index > items.len() {
                        return Err((path[..=depth].to_vec(), items.len()));
                    }
                    if *index == items.len() {
                        items.push(Node::Map {
                            entries: Vec::new(),
                            from,
                        });
                    }
                    node = &mut items[*index];
                }
            }
        }
        *node = Node::Leaf { value, from };
        Ok(())
    }

    pub(super) fn add_document(
        &mut self,
        input: usize,
        name: &str,
        bytes: &'i [u8],
        format: Format,
        profile: Option<&str>,
    ) {
        let parsed = match format {
            // A config struct reads from the root element itself, as `from_slice` does.
            #[cfg(feature = "xml")]
            Format::Xml => {
                self.any_xml = true;
                crate::xml::parse_root(bytes)
                    .map(|(_, value)| value)
                    .map_err(Error::from)
            }
            _ => crate::parse_raw(bytes, format),
        };
        let value = match parsed {
            Ok(value) => value,
            Err(Error::Parse(e)) => {
                let position = e.position();
                self.problems.push(Problem {
                    kind: ProblemKind::Syntax,
                    path: ValuePath::default(),
                    origin: Some(Origin::File {
                        name: name.to_owned(),
                        position: Some(position),
                    }),
                    message: e.message(),
                    snippet: Some(common::render_snippet(bytes, position)),
                    help: None,
                    document: None,
                });
                return;
            }
            Err(e) => {
                self.problems
                    .push(Problem::plain(ProblemKind::Syntax, format!("{name}: {e}")));
                return;
            }
        };
        let document = |prefix: Option<&str>| Source::Document {
            name: name.to_owned(),
            input,
            prefix: prefix.map(str::to_owned),
        };
        if let (Some(profile), RawValue::Map(entries)) = (profile, &value) {
            let has = |key: &str| {
                entries
                    .iter()
                    .any(|(k, v)| k == key && matches!(v, RawValue::Map(_)))
            };
            if has("default") || has(profile) {
                let RawValue::Map(entries) = value else {
                    unreachable!()
                };
                let mut default = None;
                let mut chosen = None;
                for (key, table) in entries {
                    if key == "default" {
                        default = Some(table);
                    } else if key == profile {
                        chosen = Some(table);
                    }
                }
                if let Some(table) = default {
                    self.lay(table, document(Some("default")));
                }
                if let Some(table) = chosen {
                    self.lay(table, document(Some(profile)));
                }
                return;
            }
        }
        self.lay(value, document(None));
    }

    pub(super) fn add_set(&mut self, path: &str, value: RawValue<'static>) {
        let Some(parsed) = ValuePath::parse(path) else {
            self.problems.push(Problem::plain(
                ProblemKind::Set,
                format!("`{path}` is not a path (set in code)"),
            ));
            return;
        };
        let mut value: RawValue<'i> = value;
        for segment in parsed.segments.iter().rev() {
            match segment {
                Segment::Key(key) => value = RawValue::Map(vec![(Cow::Owned(key.clone()), value)]),
                Segment::Index(_) => {
                    self.problems.push(Problem::plain(
                        ProblemKind::Set,
                        format!("{path}: `set` takes map keys only; set the whole sequence (set in code)"),
                    ));
                    return;
                }
            }
        }
        self.lay(value, Source::Set);
    }

    /// True when the value at `path` came from a file a `_FILE` variable named: what it
    /// holds is kept out of messages.
    pub(super) fn is_secret(&self, path: &ValuePath) -> bool {
        self.tree().is_some_and(|root| {
            matches!(
                self.sources[root.source_of(path)],
                Source::SecretFile { .. }
            )
        })
    }

    /// Where each [`Spanned`](crate::Spanned) of `shape` in the merged tree came from:
    /// its origin, and its span and line in the document that gave it.
    pub(super) fn spanned_places(
        &self,
        inputs: &'i [Input],
        shape: &Shape,
    ) -> Vec<(crate::spanned::Target, crate::spanned::Place)> {
        let Some(root) = self.tree() else {
            return Vec::new();
        };
        let targets = crate::spanned::spanned_paths(shape, &mut root.to_value(), self.any_xml);
        let places = crate::spanned::places_of_targets(&targets, |paths, key| {
            self.places_in(inputs, paths, key)
        });
        targets
            .into_iter()
            .zip(places)
            .filter_map(|(target, place)| Some((target, place?)))
            .map(|(target, (origin, span))| {
                let position = match &origin {
                    Origin::File { position, .. } => *position,
                    _ => None,
                };
                let place = crate::spanned::Place {
                    span: span.unwrap_or_default(),
                    position,
                    origin: Some(origin),
                };
                (target, place)
            })
            .collect()
    }

    /// The origin of each path: the layer of the deepest merged node along it, and for a
    /// document the position of the deepest node along it there.
    pub(super) fn origins_of(&self, inputs: &'i [Input], paths: &[ValuePath]) -> Vec<Origin> {
        self.places_of(inputs, paths)
            .into_iter()
            .map(|(origin, _)| origin)
            .collect()
    }

    /// [`Merged::origins_of`], with each value's span in its document where it came from
    /// one.
    pub(super) fn places_of(
        &self,
        inputs: &'i [Input],
        paths: &[ValuePath],
    ) -> Vec<(Origin, Option<Span>)> {
        self.places_in(inputs, paths, false)
    }

    /// [`Merged::places_of`] of the values at `paths`, or (`keys`) of the keys the
    /// paths end with, placed in their documents as keys.
    fn places_in(
        &self,
        inputs: &'i [Input],
        paths: &[ValuePath],
        keys: bool,
    ) -> Vec<(Origin, Option<Span>)> {
        let Some(root) = self.tree() else {
            return vec![(Origin::Default, None); paths.len()];
        };
        let sources: Vec<SourceId> = paths.iter().map(|p| root.source_of(p)).collect();
        let mut origins: Vec<Option<(Origin, Option<Span>)>> = vec![None; paths.len()];
        for (id, source) in self.sources.iter().enumerate() {
            let wanted: Vec<usize> = (0..paths.len()).filter(|&i| sources[i] == id).collect();
            if wanted.is_empty() {
                continue;
            }
            match source {
                Source::Env(name) => {
                    for &i in &wanted {
                        origins[i] = Some((Origin::Env { name: name.clone() }, None));
                    }
                }
                Source::SecretFile { path, variable } => {
                    for &i in &wanted {
                        let origin = Origin::SecretFile {
                            path: path.clone(),
                            variable: variable.clone(),
                        };
                        origins[i] = Some((origin, None));
                    }
                }
                Source::Set => {
                    for &i in &wanted {
                        origins[i] = Some((Origin::Set, None));
                    }
                }
                Source::Document {
                    name,
                    input,
                    prefix,
                } => {
                    let Input::Document { bytes, format, .. } = &inputs[*input] else {
                        continue;
                    };
                    let format = *format;
                    let in_document: Vec<ValuePath> = wanted
                        .iter()
                        .map(|&i| {
                            let mut p = root.local_path(&paths[i]);
                            if let Some(prefix) = prefix {
                                p.segments.insert(0, Segment::Key(prefix.clone()));
                            }
                            p
                        })
                        .collect();
                    let places = match keys {
                        true => crate::key_places_of(bytes, format, &in_document),
                        false => crate::places_of(bytes, format, &in_document),
                    };
                    let places = places.unwrap_or_else(|| vec![None; wanted.len()]);
                    for (&i, place) in wanted.iter().zip(places) {
                        let origin = Origin::File {
                            name: name.clone(),
                            position: place.and_then(|(_, position)| position),
                        };
                        origins[i] = Some((origin, place.map(|(span, _)| span)));
                    }
                }
            }
        }
        origins
            .into_iter()
            .map(|o| o.unwrap_or((Origin::Default, None)))
            .collect()
    }

    /// Every path of the merged tree with its origin, then the fields left to defaults.
    pub(super) fn origins(&self, inputs: &'i [Input], shape: &Shape) -> Origins {
        let mut paths = Vec::new();
        if let Some(root) = self.tree() {
            collect_paths(&root.to_value(), &mut Vec::new(), &mut paths);
        }
        let origins = self.origins_of(inputs, &paths);
        let mut entries: Vec<(ValuePath, Origin)> = paths.into_iter().zip(origins).collect();
        collect_defaults(shape, self.tree(), &mut Vec::new(), &mut entries);
        Origins::new(entries)
    }
}

/// Every path in `value`, parents before children.
fn collect_paths(value: &RawValue<'_>, at: &mut Vec<Segment>, out: &mut Vec<ValuePath>) {
    out.push(ValuePath {
        segments: at.clone(),
    });
    match value {
        RawValue::Map(entries) => {
            for (k, v) in entries {
                at.push(Segment::Key(k.to_string()));
                collect_paths(v, at, out);
                at.pop();
            }
        }
        RawValue::Seq(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(Segment::Index(i));
                collect_paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// The fields of `shape` (a struct, through options and flattening) no layer gave:
/// their origin is [`Origin::Default`].
fn collect_defaults(
    shape: &Shape,
    node: Option<NodeRef<'_, '_>>,
    at: &mut Vec<Segment>,
    out: &mut Vec<(ValuePath, Origin)>,
) {
    let Shape::Struct(s) = shape.clone().unwrap_optional() else {
        return;
    };
    for field in &s.fields {
        if field.flatten {
            collect_defaults(&(field.shape)(), node, at, out);
            continue;
        }
        let child = node.and_then(|n| field.names().find_map(|name| n.child(name)));
        at.push(Segment::Key(field.name.to_owned()));
        match child {
            None => out.push((
                ValuePath {
                    segments: at.clone(),
                },
                Origin::Default,
            )),
            Some(child) => collect_defaults(&(field.shape)(), Some(child), at, out),
        }
        at.pop();
    }
}

/// The [`Merge`] rule of the field at `path` in a value of `shape`.
fn merge_rule(shape: &Shape, path: &[Cow<'_, str>]) -> Merge {
    let mut shape = shape.clone();
    let mut rule = Merge::Replace;
    for key in path {
        let Some((child, child_rule)) = child_shape(&shape, key, 0) else {
            return Merge::Replace;
        };
        shape = child;
        rule = child_rule;
    }
    rule
}

/// The shape of the value under `key` in a value of `shape`, and its field's rule.
fn child_shape(shape: &Shape, key: &str, depth: usize) -> Option<(Shape, Merge)> {
    if depth > 32 {
        return None;
    }
    match shape {
        Shape::Optional(inner)
        | Shape::Checked(inner, _)
        | Shape::Secret(inner)
        | Shape::Spanned(inner) => child_shape(&inner(), key, depth + 1),
        Shape::Struct(s) => {
            if let Some(field) = s
                .fields
                .iter()
                .find(|f| !f.flatten && f.names().any(|n| n == key))
            {
                return Some(((field.shape)(), field.merge));
            }
            s.fields
                .iter()
                .filter(|f| f.flatten)
                .find_map(|f| child_shape(&(f.shape)(), key, depth + 1))
        }
        Shape::Map(value) | Shape::SpannedKeyMap(value) => Some((value(), Merge::Replace)),
        _ => None,
    }
}
