//! Editing TOML, YAML and JSON (JSONC) documents in place: change one value and write
//! every untouched byte back as it was — comments, order, blank lines, quoting and
//! indentation.
//!
//! ```
//! use quarry::edit::Document;
//! use quarry::Format;
//!
//! let text = "# the service\n[server]\nhost = 'example.org'  # public\nport = 80\n\n[db]\nurl = \"x\"\n";
//! let mut doc = Document::parse(text.as_bytes(), Format::Toml).unwrap();
//! doc.set("server.port", 8080).unwrap();
//! doc.set("server.host", "internal").unwrap();   // stays a literal string
//! doc.insert("server.workers", 4).unwrap();      // after its last sibling, in [server]
//! doc.remove("db.url").unwrap();
//! assert_eq!(
//!     doc.to_string(),
//!     "# the service\n[server]\nhost = 'internal'  # public\nport = 8080\nworkers = 4\n\n[db]\n"
//! );
//! ```
//!
//! Every edit is checked before it is kept: the edited text is parsed again and its value
//! must be the old value with exactly that change. An edit that cannot be written in
//! place (one that would need to restructure the document) is an error, and the
//! document is left as it was.
//!
//! The rules: `set` of an existing scalar replaces only its bytes, in the style it had
//! where the new value allows (TOML basic or literal strings; YAML plain, single- or
//! double-quoted); `insert` places a new entry after its last sibling with the
//! siblings' indentation, quoting and separators (in TOML, in the table's own section,
//! and beside its dotted-key siblings with their prefix); `remove` takes the entry's own
//! lines and the comment lines directly above it, never a neighbour's; `push` appends
//! to a sequence in its style. YAML flow collections stay flow. An edit through a YAML
//! alias, or of a node with an anchor that aliases refer to, is an error naming the
//! anchor. A YAML stream is edited one document at a time
//! ([`Document::parse_yaml_document`]).

use std::borrow::Cow;
use std::fmt;

use crate::{Decode, Encode, Format, RawValue, Segment, Span, TreeNode, ValuePath};

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EditError {
    /// The document does not parse: the message, with its position.
    Parse(String),
    /// Editing is not offered for this format.
    Unsupported(Format),
    /// The path is not in the CLI's syntax.
    BadPath(String),
    /// Nothing is at the path (or at its parent).
    NotFound(String),
    /// `insert` of a key that is there already.
    Exists(String),
    /// The path's parent is not a map (for `insert`) or the value not a sequence (for
    /// `push`).
    WrongKind {
        /// The path.
        path: String,
        /// What the edit needs there.
        expected: &'static str,
    },
    /// The path goes through a YAML alias, or names a node whose anchor aliases refer to.
    Anchor {
        /// The path.
        path: String,
        /// The anchor's name.
        anchor: String,
    },
    /// The value cannot be written in the format.
    Encode(String),
    /// The edit cannot be written in place without restructuring the document.
    CannotPlace(String),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::Parse(m) => write!(f, "the document does not parse: {m}"),
            EditError::Unsupported(format) => {
                write!(f, "editing {format} documents is not supported")
            }
            EditError::BadPath(p) => write!(f, "`{p}` is not a path"),
            EditError::NotFound(p) => write!(f, "{p}: nothing is there"),
            EditError::Exists(p) => write!(f, "{p}: already there (use set)"),
            EditError::WrongKind { path, expected } => write!(f, "{path}: not {expected}"),
            EditError::Anchor { path, anchor } => write!(
                f,
                "{path}: the edit would change what the YAML anchor `&{anchor}` holds (and every alias of it)"
            ),
            EditError::Encode(m) => write!(f, "{m}"),
            EditError::CannotPlace(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for EditError {}

/// A document being edited: its text, changed only where edits land.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    format: Format,
    text: String,
    /// For YAML: which document of the stream is edited.
    index: usize,
    /// Edits to anchored YAML nodes are allowed (they change every alias too).
    edit_anchors: bool,
}

/// One edit, as applied to the value.
#[derive(Debug, Clone)]
enum Op {
    Set(RawValue<'static>),
    Insert(RawValue<'static>),
    Remove,
    Push(RawValue<'static>),
}

impl Document {
    /// Reads a TOML, YAML (its first document), JSON or JSONC document for editing.
    pub fn parse(bytes: &[u8], format: Format) -> Result<Document, EditError> {
        Self::parse_yaml_document_or(bytes, format, 0)
    }

    /// Reads document `index` of a YAML stream for editing; the others keep their bytes.
    pub fn parse_yaml_document(bytes: &[u8], index: usize) -> Result<Document, EditError> {
        Self::parse_yaml_document_or(bytes, Format::Yaml, index)
    }

    fn parse_yaml_document_or(
        bytes: &[u8],
        format: Format,
        index: usize,
    ) -> Result<Document, EditError> {
        if !matches!(
            format,
            Format::Toml | Format::Yaml | Format::Json | Format::Jsonc
        ) {
            return Err(EditError::Unsupported(format));
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|e| EditError::Parse(format!("not UTF-8: {e}")))?
            .to_owned();
        let doc = Document {
            format,
            text,
            index,
            edit_anchors: false,
        };
        match format {
            // JSON and TOML: checking is enough (and quick).
            Format::Toml | Format::Json | Format::Jsonc => {
                crate::check(doc.text.as_bytes(), format)
                    .map_err(|e| EditError::Parse(e.to_string()))?
            }
            _ => {
                View::build(&doc.text, format, index)?;
            }
        }
        Ok(doc)
    }

    /// Allows edits of YAML nodes whose anchor aliases refer to (every alias then sees
    /// the change).
    pub fn edit_anchors(mut self, allow: bool) -> Self {
        self.edit_anchors = allow;
        self
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The text as it stands.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text as bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        self.text.clone().into_bytes()
    }

    /// The value at `path` (`servers[0].host`; empty for the whole document).
    pub fn get(&self, path: &str) -> Result<Option<RawValue<'static>>, EditError> {
        let path = parse_path(path)?;
        let view = View::build(&self.text, self.format, self.index)?;
        Ok(value_at(&view.value, &path.segments).cloned())
    }

    /// Sets the value at `path`, replacing what is there (only its bytes, in its style)
    /// or inserting it when absent (with the maps on the way that are missing too).
    pub fn set<T: Encode>(&mut self, path: &str, value: T) -> Result<(), EditError> {
        let value = encode(&value)?;
        let parsed = parse_path(path)?;
        if let Some(done) = self.set_scalar_in_place(&parsed, &value) {
            return done;
        }
        let view = View::build(&self.text, self.format, self.index)?;
        if value_at(&view.value, &parsed.segments).is_some() {
            return self.apply_on(&view, &parsed, Op::Set(value));
        }
        // Absent: inserted under its deepest existing ancestor, the missing maps on the
        // way made part of the value.
        let mut depth = parsed.segments.len().saturating_sub(1);
        while depth > 0 && value_at(&view.value, &parsed.segments[..depth]).is_none() {
            depth -= 1;
        }
        let mut value = value;
        for segment in parsed.segments[depth + 1..].iter().rev() {
            match segment {
                Segment::Key(k) => value = RawValue::Map(vec![(Cow::Owned(k.clone()), value)]),
                Segment::Index(_) => return Err(EditError::NotFound(path.to_owned())),
            }
        }
        let at = ValuePath {
            segments: parsed.segments[..=depth.min(parsed.segments.len().saturating_sub(1))]
                .to_vec(),
        };
        self.apply_on(&view, &at, Op::Insert(value))
    }

    /// Inserts a new entry at `path` into its map, after the map's last entry; an error
    /// when the key is there.
    pub fn insert<T: Encode>(&mut self, path: &str, value: T) -> Result<(), EditError> {
        let value = encode(&value)?;
        self.apply(&parse_path(path)?, Op::Insert(value))
    }

    /// Removes the entry (or sequence item) at `path`, with the comment lines directly
    /// above it.
    pub fn remove(&mut self, path: &str) -> Result<(), EditError> {
        self.apply(&parse_path(path)?, Op::Remove)
    }

    /// Appends `value` to the sequence at `path`.
    pub fn push<T: Encode>(&mut self, path: &str, value: T) -> Result<(), EditError> {
        let value = encode(&value)?;
        self.apply(&parse_path(path)?, Op::Push(value))
    }

    /// The common edit, quickly: in JSON and TOML, a scalar replacing a scalar touches
    /// that scalar's bytes only, and is checked by reading the new text on its own.
    /// `None` when the edit is not of that kind (the general path then plans it).
    fn set_scalar_in_place(
        &mut self,
        path: &ValuePath,
        value: &RawValue<'static>,
    ) -> Option<Result<(), EditError>> {
        if matches!(value, RawValue::Map(_) | RawValue::Seq(_)) {
            return None;
        }
        let writer = Writer {
            text: &self.text,
            format: self.format,
        };
        let (span, written) = match self.format {
            Format::Toml => {
                let doc = crate::toml::parse_tree(self.text.as_bytes()).ok()?;
                let node = doc.root().lookup(path)?;
                let style = match toml_kind(node.kind()) {
                    // A string where there was none takes its siblings' quoting: the
                    // general path looks at them.
                    Kind::Scalar(Style::Plain) if matches!(value, RawValue::String(_)) => {
                        return None
                    }
                    Kind::Scalar(style) => style,
                    _ => return None,
                };
                let text = match writer.inline(value, Some(style)) {
                    Ok(text) => text,
                    Err(e) => return Some(Err(e)),
                };
                // The new text, read on its own, must be the value.
                let check = format!("v = {text}");
                let read = crate::toml::parse(check.as_bytes()).ok()?;
                if !same_value(read.get("v")?, value) {
                    return None;
                }
                (node.span(), text)
            }
            Format::Json | Format::Jsonc => {
                use crate::json::NodeKind;
                let doc = match self.format {
                    Format::Json => crate::json::parse_tree(self.text.as_bytes()),
                    _ => crate::json::parse_tree_jsonc(self.text.as_bytes()),
                }
                .ok()?;
                let node = doc.root().lookup(path)?;
                if matches!(node.kind(), NodeKind::Object | NodeKind::Array) {
                    return None;
                }
                let text = match writer.inline(value, None) {
                    Ok(text) => text,
                    Err(e) => return Some(Err(e)),
                };
                if !same_value(&crate::json::parse(text.as_bytes()).ok()?, value) {
                    return None;
                }
                (node.span(), text)
            }
            _ => return None,
        };
        self.text.replace_range(span.start..span.end, &written);
        Some(Ok(()))
    }

    /// Plans the edit, writes it, and keeps it only if the text parses to the expected
    /// value.
    fn apply(&mut self, path: &ValuePath, op: Op) -> Result<(), EditError> {
        let view = View::build(&self.text, self.format, self.index)?;
        self.apply_on(&view, path, op)
    }

    /// [`Document::apply`] on the view of the current text.
    fn apply_on(&mut self, view: &View, path: &ValuePath, op: Op) -> Result<(), EditError> {
        let mut expected = view.value.clone();
        apply_to_value(&mut expected, &path.segments, &op, path)?;
        let splices = plan(view, &self.text, self.format, path, &op, self.edit_anchors)?;
        let mut text = self.text.clone();
        // Splices never overlap; apply from the end so offsets stay valid.
        let mut ordered = splices;
        ordered.sort_by_key(|s| std::cmp::Reverse(s.range.start));
        let mut limit = text.len();
        for splice in &ordered {
            // A plan that does not fit the text (odd spans of empty nodes) is refused.
            let range = &splice.range;
            if range.start > range.end
                || range.end > limit
                || !text.is_char_boundary(range.start)
                || !text.is_char_boundary(range.end)
            {
                return Err(EditError::CannotPlace(format!(
                    "{path}: the edit cannot be written in place here"
                )));
            }
            limit = range.start;
        }
        for splice in ordered {
            text.replace_range(splice.range.clone(), &splice.text);
        }
        let check = reread(&text, self.format, self.index).map_err(|e| {
            EditError::CannotPlace(format!(
                "{path}: the edit cannot be written in place here ({e})"
            ))
        })?;
        // With anchors edited on purpose, aliases elsewhere change too: only the path
        // itself is checked then.
        let verified = if self.edit_anchors && !view.aliased.is_empty() {
            match &op {
                Op::Remove => value_at(&check, &path.segments).is_none(),
                _ => value_at(&check, &path.segments) == value_at(&expected, &path.segments),
            }
        } else {
            same_value(&check, &expected)
        };
        if !verified {
            return Err(EditError::CannotPlace(format!(
                "{path}: the edit cannot be written in place here"
            )));
        }
        self.text = text;
        Ok(())
    }
}

impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Decodes a `T` from `bytes`, runs `change` on it, and writes back only what changed:
/// the re-encoded value is compared with the original, and the smallest set of `set`,
/// `insert` and `remove` edits is applied, so every field `change` did not touch keeps
/// its bytes (`0x1F`, `1_000`, comments and all).
pub fn update<T, F>(bytes: &[u8], format: Format, change: F) -> Result<Vec<u8>, EditError>
where
    T: for<'de> Decode<'de> + Encode,
    F: FnOnce(&mut T),
{
    let mut doc = Document::parse(bytes, format)?;
    let mut value: T =
        crate::from_slice(bytes, format).map_err(|e| EditError::Parse(e.to_string()))?;
    let before = encode(&value)?;
    change(&mut value);
    let after = encode(&value)?;
    let mut edits = Vec::new();
    diff(&before, &after, &mut Vec::new(), &mut edits);
    for (path, op) in edits {
        let path = ValuePath { segments: path };
        doc.apply(&path, op)?;
    }
    Ok(doc.to_vec())
}

/// The edits that turn `old` into `new`, at `at`.
fn diff(
    old: &RawValue<'static>,
    new: &RawValue<'static>,
    at: &mut Vec<Segment>,
    out: &mut Vec<(Vec<Segment>, Op)>,
) {
    if old == new {
        return;
    }
    match (old, new) {
        (RawValue::Map(a), RawValue::Map(b)) => {
            for (k, v) in a {
                at.push(Segment::Key(k.to_string()));
                match b.iter().find(|(k2, _)| k2 == k) {
                    Some((_, v2)) => diff(v, v2, at, out),
                    None => out.push((at.clone(), Op::Remove)),
                }
                at.pop();
            }
            for (k, v) in b {
                if !a.iter().any(|(k2, _)| k2 == k) {
                    at.push(Segment::Key(k.to_string()));
                    out.push((at.clone(), Op::Insert(v.clone())));
                    at.pop();
                }
            }
        }
        (RawValue::Seq(a), RawValue::Seq(b)) if b.len() >= a.len() && !a.is_empty() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                at.push(Segment::Index(i));
                diff(x, y, at, out);
                at.pop();
            }
            for y in &b[a.len()..] {
                out.push((at.clone(), Op::Push(y.clone())));
            }
        }
        _ => out.push((at.clone(), Op::Set(new.clone()))),
    }
}

/// The value of `text` read again, through the struct door (the quick way).
fn reread(text: &str, format: Format, index: usize) -> Result<RawValue<'static>, EditError> {
    let bytes = text.as_bytes();
    let value = match format {
        Format::Yaml => crate::yaml::parse_stream(bytes)
            .map_err(|e| EditError::Parse(e.to_string()))?
            .into_iter()
            .nth(index)
            .ok_or_else(|| EditError::Parse(format!("the stream has no document {index}")))?,
        _ => crate::parse_raw(bytes, format).map_err(|e| EditError::Parse(e.to_string()))?,
    };
    Ok(value.into_owned())
}

/// Equal values, maps compared by key whatever their order (an entry inserted into a
/// TOML section sits before the sub-tables that follow it).
fn same_value(a: &RawValue<'_>, b: &RawValue<'_>) -> bool {
    match (a, b) {
        (RawValue::Map(x), RawValue::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.iter()
                        .rev()
                        .find(|(k2, _)| k2 == k)
                        .is_some_and(|(_, v2)| same_value(v, v2))
                })
        }
        (RawValue::Seq(x), RawValue::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_value(v, w))
        }
        _ => a == b,
    }
}

fn encode<T: Encode + ?Sized>(value: &T) -> Result<RawValue<'static>, EditError> {
    value
        .to_raw_value()
        .map_err(|e| EditError::Encode(e.to_string()))
}

fn parse_path(path: &str) -> Result<ValuePath, EditError> {
    ValuePath::parse(path).ok_or_else(|| EditError::BadPath(path.to_owned()))
}

fn value_at<'v>(value: &'v RawValue<'static>, path: &[Segment]) -> Option<&'v RawValue<'static>> {
    let mut at = value;
    for segment in path {
        at = match (at, segment) {
            (RawValue::Map(entries), Segment::Key(k)) => {
                &entries.iter().rev().find(|(key, _)| key == k)?.1
            }
            (RawValue::Seq(items), Segment::Index(i)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// The value under `segment` (the last of a repeated key, as decoding reads it).
fn child_mut<'v>(
    parent: &'v mut RawValue<'static>,
    segment: &Segment,
) -> Option<&'v mut RawValue<'static>> {
    match (parent, segment) {
        (RawValue::Map(entries), Segment::Key(k)) => {
            Some(&mut entries.iter_mut().rev().find(|(key, _)| key == k)?.1)
        }
        (RawValue::Seq(items), Segment::Index(i)) => items.get_mut(*i),
        _ => None,
    }
}

/// The edit applied to the value: what the text must read as afterwards.
fn apply_to_value(
    value: &mut RawValue<'static>,
    path: &[Segment],
    op: &Op,
    whole: &ValuePath,
) -> Result<(), EditError> {
    let not_found = || EditError::NotFound(whole.to_string());
    let Some((last, parents)) = path.split_last() else {
        return match op {
            Op::Set(v) => {
                *value = v.clone();
                Ok(())
            }
            Op::Push(v) => match value {
                RawValue::Seq(items) => {
                    items.push(v.clone());
                    Ok(())
                }
                _ => Err(EditError::WrongKind {
                    path: whole.to_string(),
                    expected: "a sequence",
                }),
            },
            _ => Err(EditError::CannotPlace(
                "the whole document cannot be inserted or removed".into(),
            )),
        };
    };
    let mut parent = value;
    for segment in parents {
        parent = child_mut(parent, segment).ok_or_else(not_found)?;
    }
    match (parent, last, op) {
        (RawValue::Map(entries), Segment::Key(k), Op::Insert(v)) => {
            if entries.iter().any(|(key, _)| key == k) {
                return Err(EditError::Exists(whole.to_string()));
            }
            entries.push((Cow::Owned(k.clone()), v.clone()));
        }
        (_, _, Op::Insert(_)) => {
            return Err(EditError::WrongKind {
                path: whole.to_string(),
                expected: "a new key of a map",
            })
        }
        (RawValue::Map(entries), Segment::Key(k), Op::Remove) => {
            let before = entries.len();
            entries.retain(|(key, _)| key != k);
            if entries.len() == before {
                return Err(not_found());
            }
        }
        (RawValue::Seq(items), Segment::Index(i), Op::Remove) => {
            if *i >= items.len() {
                return Err(not_found());
            }
            items.remove(*i);
        }
        (parent, last, Op::Set(v)) => {
            let slot = child_mut(parent, last).ok_or_else(not_found)?;
            *slot = v.clone();
        }
        (parent, last, Op::Push(v)) => {
            let slot = child_mut(parent, last).ok_or_else(not_found)?;
            match slot {
                RawValue::Seq(items) => items.push(v.clone()),
                _ => {
                    return Err(EditError::WrongKind {
                        path: whole.to_string(),
                        expected: "a sequence",
                    })
                }
            }
        }
        _ => return Err(not_found()),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// A format-neutral view of the tree door: spans, kinds and styles.

/// How a node is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
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
fn toml_kind(kind: crate::toml::NodeKind) -> Kind {
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
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Block,
}

#[derive(Debug, Clone)]
struct VNode {
    kind: Kind,
    span: Span,
    entries: Vec<(String, Span, usize)>,
    items: Vec<usize>,
    anchor: Option<String>,
    alias: Option<String>,
}

struct View {
    nodes: Vec<VNode>,
    value: RawValue<'static>,
    /// The span of the edited YAML document (the whole text otherwise).
    extent: Span,
    /// Anchors that some alias refers to.
    aliased: Vec<String>,
}

impl View {
    fn build(text: &str, format: Format, index: usize) -> Result<View, EditError> {
        let bytes = text.as_bytes();
        let mut view = View {
            nodes: Vec::new(),
            value: RawValue::Null,
            extent: Span::new(0, text.len()),
            aliased: Vec::new(),
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
    fn walk(&self, path: &[Segment]) -> Option<Vec<usize>> {
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

// ---------------------------------------------------------------------------------------
// Planning: which bytes change.

/// Replace `range` of the text with `text`.
#[derive(Debug, Clone)]
struct Splice {
    range: std::ops::Range<usize>,
    text: String,
}

fn splice(range: std::ops::Range<usize>, text: impl Into<String>) -> Splice {
    Splice {
        range,
        text: text.into(),
    }
}

fn plan(
    view: &View,
    text: &str,
    format: Format,
    path: &ValuePath,
    op: &Op,
    edit_anchors: bool,
) -> Result<Vec<Splice>, EditError> {
    let segments = &path.segments;
    let whole = path.to_string();
    let (parent_path, last) = match segments.split_last() {
        Some((last, parents)) => (parents, Some(last)),
        None => (&segments[..], None),
    };
    let trail = view
        .walk(parent_path)
        .ok_or_else(|| EditError::NotFound(whole.clone()))?;
    // YAML: no edit through an alias, nor of an anchored node that aliases refer to.
    for &n in &trail {
        if let Some(alias) = &view.nodes[n].alias {
            return Err(EditError::Anchor {
                path: whole,
                anchor: alias.clone(),
            });
        }
    }
    let parent = *trail.last().unwrap_or(&0);
    let target = last.and_then(|l| match l {
        Segment::Key(k) => view.nodes[parent]
            .entries
            .iter()
            .rev()
            .find(|(key, _, _)| key == k)
            .map(|e| e.2),
        Segment::Index(i) => view.nodes[parent].items.get(*i).copied(),
    });
    if !edit_anchors {
        let mut touched: Vec<usize> = trail.clone();
        touched.extend(target);
        for n in touched {
            if let Some(anchor) = &view.nodes[n].anchor {
                if view.aliased.contains(anchor) {
                    return Err(EditError::Anchor {
                        path: whole,
                        anchor: anchor.clone(),
                    });
                }
            }
        }
        if let Some(t) = target {
            if let Some(alias) = &view.nodes[t].alias {
                if !matches!(op, Op::Remove | Op::Set(_)) {
                    return Err(EditError::Anchor {
                        path: whole,
                        anchor: alias.clone(),
                    });
                }
            }
        }
    }
    let writer = Writer { text, format };
    match (op, last, target) {
        (Op::Set(value), _, Some(t)) => writer.set(view, t, value, parent, last),
        (Op::Set(value), None, None) => writer.set(view, 0, value, 0, None),
        (Op::Insert(value), Some(Segment::Key(k)), None) => writer.insert(view, parent, k, value),
        (Op::Insert(_), Some(_), Some(_)) => Err(EditError::Exists(whole)),
        (Op::Remove, Some(_), Some(t)) => writer.remove(view, parent, t),
        (Op::Push(value), _, Some(t)) => writer.push(view, t, value),
        (Op::Push(value), None, None) => writer.push(view, 0, value),
        _ => Err(EditError::NotFound(whole)),
    }
}

/// `text[start..end]`, or nothing when the range does not fit (the spans of empty nodes
/// can be odd); a plan built from it is then refused by the check before it is applied.
fn slice(text: &str, start: usize, end: usize) -> &str {
    text.get(start..end).unwrap_or("")
}

/// Line helpers over the text.
fn line_start(text: &str, pos: usize) -> usize {
    text[..pos].rfind('\n').map_or(0, |i| i + 1)
}

fn line_end(text: &str, pos: usize) -> usize {
    text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1)
}

fn indentation(text: &str, pos: usize) -> &str {
    let start = line_start(text, pos);
    let line = &text[start..];
    let width = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..width]
}

/// The line's text is blank or only a comment.
fn is_comment_line(line: &str, format: Format) -> bool {
    let t = line.trim();
    match format {
        Format::Json | Format::Jsonc => t.starts_with("//"),
        _ => t.starts_with('#'),
    }
}

/// `pos` (a line start) moved up over the comment lines directly above it.
fn with_leading_comments(text: &str, pos: usize, format: Format) -> usize {
    let mut start = pos;
    while start > 0 {
        let above = line_start(text, start - 1);
        let line = &text[above..start];
        if !is_comment_line(line, format) || line.trim().is_empty() {
            break;
        }
        start = above;
    }
    start
}

/// The next byte at or after `pos` that is not a space or tab (on the same line).
fn skip_space_on_line(text: &str, mut pos: usize, _format: Format) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() && matches!(bytes[pos], b' ' | b'\t') {
        pos += 1;
    }
    pos
}

/// The next non-space, non-comment byte at or after `pos`.
fn skip_space(text: &str, mut pos: usize, format: Format) -> usize {
    let bytes = text.as_bytes();
    loop {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let rest = &text[pos..];
        let comment = match format {
            Format::Jsonc => rest.starts_with("//") || rest.starts_with("/*"),
            Format::Json => false,
            _ => rest.starts_with('#'),
        };
        if !comment {
            return pos;
        }
        if rest.starts_with("/*") {
            pos += rest.find("*/").map_or(rest.len(), |i| i + 2);
        } else {
            pos = line_end(text, pos);
        }
    }
}

struct Writer<'t> {
    text: &'t str,
    format: Format,
}

impl Writer<'_> {
    /// A scalar or flow value written inline, in `style` where the value allows.
    fn inline(&self, value: &RawValue<'_>, style: Option<Style>) -> Result<String, EditError> {
        let err = |e: crate::EncodeError| EditError::Encode(e.to_string());
        match self.format {
            Format::Json | Format::Jsonc => crate::json::to_string(value).map_err(err),
            Format::Toml => {
                if let (RawValue::String(s), Some(Style::SingleQuoted)) = (value, style) {
                    if !s.contains(['\'', '\n', '\r']) && !s.chars().any(char::is_control) {
                        return Ok(format!("'{s}'"));
                    }
                }
                crate::toml::inline_value(value).map_err(err)
            }
            Format::Yaml => {
                if let RawValue::String(s) = value {
                    let safe = !s.chars().any(|c| c.is_control());
                    match style {
                        Some(Style::SingleQuoted) if safe => {
                            return Ok(format!("'{}'", s.replace('\'', "''")))
                        }
                        Some(Style::DoubleQuoted) => {
                            return crate::json::to_string(value).map_err(err)
                        }
                        _ => {}
                    }
                }
                let flow = crate::yaml::to_string_flow(value).map_err(err)?;
                Ok(flow.trim_end_matches('\n').to_owned())
            }
            other => Err(EditError::Unsupported(other)),
        }
    }

    /// A key as the format writes it.
    fn key(&self, key: &str) -> Result<String, EditError> {
        match self.format {
            Format::Toml => Ok(crate::toml::key_text(key)),
            _ => self.inline(&RawValue::String(Cow::Borrowed(key)), None),
        }
    }

    fn set(
        &self,
        view: &View,
        target: usize,
        value: &RawValue<'static>,
        parent: usize,
        last: Option<&Segment>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[target];
        match node.kind {
            Kind::Scalar(style) => {
                let flow_container = matches!(value, RawValue::Map(m) if !m.is_empty())
                    || matches!(value, RawValue::Seq(s) if !s.is_empty());
                if self.format == Format::Yaml && flow_container && self.block_parent(view, parent)
                {
                    return self.replace_block(view, target, value, parent, last);
                }
                // A string where there was none is quoted as its siblings' strings are.
                let style = match (style, value) {
                    (Style::Plain, RawValue::String(_)) if self.format != Format::Yaml => {
                        sibling_string_style(view, parent).unwrap_or(style)
                    }
                    _ => style,
                };
                let text = self.inline(value, Some(style))?;
                Ok(vec![splice(node.span.start..node.span.end, text)])
            }
            Kind::Flow { .. } | Kind::Alias => {
                let text = self.inline(value, None)?;
                Ok(vec![splice(node.span.start..node.span.end, text)])
            }
            Kind::Block { .. } => self.replace_block(view, target, value, parent, last),
            Kind::Section | Kind::Implicit | Kind::Dotted | Kind::TableArray => {
                Err(EditError::CannotPlace(
                    "a TOML table is replaced by removing it and inserting the new value".into(),
                ))
            }
        }
    }

    fn block_parent(&self, view: &View, parent: usize) -> bool {
        matches!(view.nodes[parent].kind, Kind::Block { .. })
    }

    /// YAML: a value under a block key (or item) replaced by `value`, written after the
    /// key's `:` (or the item's `-`): a scalar on the same line, a collection in block
    /// style below it.
    fn replace_block(
        &self,
        view: &View,
        target: usize,
        value: &RawValue<'static>,
        parent: usize,
        last: Option<&Segment>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[target];
        let (start, indent) = match (last, view.nodes[parent].kind) {
            (Some(Segment::Key(k)), Kind::Block { map: true }) => {
                let (_, key_span, _) = view.nodes[parent]
                    .entries
                    .iter()
                    .rev()
                    .find(|(key, _, _)| key == k)
                    .ok_or_else(|| EditError::NotFound(k.clone()))?;
                let colon = self.text[key_span.end..node.span.start.max(key_span.end)]
                    .find(':')
                    .map_or(key_span.end, |i| key_span.end + i + 1);
                (
                    colon,
                    format!("{}  ", indentation(self.text, key_span.start)),
                )
            }
            (Some(Segment::Index(_)), Kind::Block { map: false }) => {
                let dash = self.text[..node.span.start]
                    .rfind('-')
                    .map_or(node.span.start, |i| i + 1);
                (
                    dash,
                    format!("{}  ", indentation(self.text, dash.saturating_sub(1))),
                )
            }
            _ => {
                let text = self.inline(value, None)?;
                return Ok(vec![splice(node.span.start..node.span.end, text)]);
            }
        };
        let end = trim_trailing_space(self.text, start, node.span.end);
        let text = match value {
            RawValue::Map(m) if !m.is_empty() => format!("\n{}", self.block(value, &indent)?),
            RawValue::Seq(s) if !s.is_empty() => format!("\n{}", self.block(value, &indent)?),
            _ => format!(" {}", self.inline(value, None)?),
        };
        Ok(vec![splice(start..end, text)])
    }

    /// `value` in YAML block style, every line indented by `indent`, without the final
    /// line break.
    fn block(&self, value: &RawValue<'static>, indent: &str) -> Result<String, EditError> {
        let text = crate::yaml::to_string(value).map_err(|e| EditError::Encode(e.to_string()))?;
        let text = text.strip_prefix("---\n").unwrap_or(&text);
        let lines: Vec<String> = text
            .trim_end_matches('\n')
            .lines()
            .map(|l| format!("{indent}{l}"))
            .collect();
        Ok(lines.join("\n"))
    }

    fn insert(
        &self,
        view: &View,
        parent: usize,
        key: &str,
        value: &RawValue<'static>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[parent];
        let key_text = self.key(key)?;
        match node.kind {
            Kind::Flow { map: true } => {
                let pair = match self.format {
                    Format::Toml => format!("{key_text} = {}", self.inline(value, None)?),
                    _ => format!("{key_text}: {}", self.inline(value, None)?),
                };
                self.flow_append(view, parent, pair)
            }
            Kind::Block { map: true } => {
                let last = node
                    .entries
                    .last()
                    .ok_or_else(|| EditError::CannotPlace("an empty block mapping".into()))?;
                let indent = indentation(self.text, last.1.start).to_owned();
                let end = self.entry_end(view, last.2);
                let at = line_end(self.text, end);
                let line = match value {
                    RawValue::Map(m) if !m.is_empty() => {
                        format!(
                            "{indent}{key_text}:\n{}",
                            self.block(value, &format!("{indent}  "))?
                        )
                    }
                    RawValue::Seq(s) if !s.is_empty() => {
                        format!(
                            "{indent}{key_text}:\n{}",
                            self.block(value, &format!("{indent}  "))?
                        )
                    }
                    _ => format!("{indent}{key_text}: {}", self.inline(value, None)?),
                };
                Ok(vec![self.line_at(at, &line)])
            }
            Kind::Section => {
                let line = format!("{key_text} = {}", self.inline(value, None)?);
                let (at, indent) = self.section_insert_point(view, parent);
                Ok(vec![self.line_at(at, &format!("{indent}{line}"))])
            }
            Kind::Dotted => {
                // Beside its siblings, with the prefix they are written with.
                let (_, key_span, child) = node
                    .entries
                    .last()
                    .ok_or_else(|| EditError::CannotPlace("an empty dotted table".into()))?;
                let start = line_start(self.text, key_span.start);
                let indent = indentation(self.text, key_span.start);
                let prefix = slice(self.text, start + indent.len(), key_span.start);
                let end = self.entry_end(view, *child);
                let at = line_end(self.text, end);
                let line = format!("{indent}{prefix}{key_text} = {}", self.inline(value, None)?);
                Ok(vec![self.line_at(at, &line)])
            }
            Kind::Implicit => {
                // A header of its own, just before its first sub-table's header.
                let first = self
                    .first_header_within(view, parent)
                    .ok_or_else(|| EditError::CannotPlace("a table without a header".into()))?;
                let at =
                    with_leading_comments(self.text, line_start(self.text, first), self.format);
                let header = self.header_path(view, parent)?;
                let text = format!("[{header}]\n{key_text} = {}\n\n", self.inline(value, None)?);
                Ok(vec![splice(at..at, text)])
            }
            _ => Err(EditError::WrongKind {
                path: key.to_owned(),
                expected: "a key of a map",
            }),
        }
    }

    /// A whole line inserted at `at` (a line start, or the end of a text without a final
    /// line break).
    fn line_at(&self, at: usize, line: &str) -> Splice {
        if at > 0 && !self.text[..at].ends_with('\n') {
            splice(at..at, format!("\n{line}"))
        } else {
            splice(at..at, format!("{line}\n"))
        }
    }

    /// Where a TOML section's last key/value line ends (or its header's line), and the
    /// indentation of its lines.
    fn section_insert_point(&self, view: &View, section: usize) -> (usize, String) {
        let node = &view.nodes[section];
        let own: Vec<&(String, Span, usize)> = node
            .entries
            .iter()
            .filter(|(_, _, c)| {
                !matches!(
                    view.nodes[*c].kind,
                    Kind::Section | Kind::Implicit | Kind::TableArray
                )
            })
            .collect();
        match own.iter().max_by_key(|(_, _, c)| self.entry_end(view, *c)) {
            Some((_, key_span, child)) => {
                let end = self.entry_end(view, *child);
                (
                    line_end(self.text, end),
                    indentation(self.text, key_span.start).to_owned(),
                )
            }
            None if section == 0 => {
                // Keys of the root go before the first header.
                let first = self.first_header_within(view, 0);
                match first {
                    Some(h) => (
                        with_leading_comments(self.text, line_start(self.text, h), self.format),
                        String::new(),
                    ),
                    None => (self.text.len(), String::new()),
                }
            }
            None => (line_end(self.text, node.span.end), String::new()),
        }
    }

    /// Where the text of an entry's value ends (a dotted table: its last entry's).
    fn entry_end(&self, view: &View, node: usize) -> usize {
        let n = &view.nodes[node];
        let mut end = n.span.end;
        if matches!(n.kind, Kind::Dotted) {
            for (_, _, c) in &n.entries {
                end = end.max(self.entry_end(view, *c));
            }
        }
        end
    }

    /// The start of the first `[header]` among `node`'s descendants (in TOML).
    fn first_header_within(&self, view: &View, node: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            for (_, _, c) in &view.nodes[n].entries {
                let child = &view.nodes[*c];
                match child.kind {
                    Kind::Section => {
                        best = Some(best.map_or(child.span.start, |b| b.min(child.span.start)))
                    }
                    Kind::TableArray => {
                        for &i in &child.items {
                            let s = view.nodes[i].span.start;
                            best = Some(best.map_or(s, |b| b.min(s)));
                        }
                    }
                    Kind::Implicit => stack.push(*c),
                    _ => {}
                }
            }
        }
        best
    }

    /// The dotted key path of a TOML table, for a new `[header]`.
    fn header_path(&self, view: &View, target: usize) -> Result<String, EditError> {
        fn find(view: &View, at: usize, target: usize, path: &mut Vec<String>) -> bool {
            if at == target {
                return true;
            }
            for (k, _, c) in &view.nodes[at].entries {
                path.push(k.clone());
                if find(view, *c, target, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        let mut path = Vec::new();
        if !find(view, 0, target, &mut path) {
            return Err(EditError::CannotPlace("a table inside an array".into()));
        }
        Ok(path
            .iter()
            .map(|k| crate::toml::key_text(k))
            .collect::<Vec<_>>()
            .join("."))
    }

    /// `{a: 1}` / `[1]` with one more member: after the last (and its trailing comma, if
    /// it has one), separated as the members before it are.
    fn flow_append(
        &self,
        view: &View,
        parent: usize,
        member: String,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[parent];
        let last_end = match (node.entries.last(), node.items.last()) {
            (Some((_, _, c)), _) => Some(view.nodes[*c].span.end),
            (None, Some(c)) => Some(view.nodes[*c].span.end),
            (None, None) => None,
        };
        let Some(last_end) = last_end else {
            // Empty: right after the opening bracket.
            let open = node.span.start + 1;
            let inner = slice(self.text, open, node.span.end.saturating_sub(1));
            let text = match (self.format, inner.trim().is_empty()) {
                (Format::Toml, _)
                    if node.entries.is_empty() && matches!(node.kind, Kind::Flow { map: true }) =>
                {
                    format!(" {member} ")
                }
                _ => member,
            };
            let close = node.span.end.saturating_sub(1);
            return Ok(vec![splice(open..close, text)]);
        };
        // The separator: what stands between the first member and the one before it.
        let first_start = match (node.entries.first(), node.items.first()) {
            (Some((_, key_span, _)), _) => key_span.start,
            (None, Some(c)) => view.nodes[*c].span.start,
            _ => last_end,
        };
        let multiline = slice(self.text, node.span.start, first_start).contains('\n');
        let sep = if multiline {
            let last_start = match (node.entries.last(), node.items.last()) {
                (Some((_, key_span, _)), _) => key_span.start,
                (None, Some(c)) => view.nodes[*c].span.start,
                _ => last_end,
            };
            format!("\n{}", indentation(self.text, last_start))
        } else {
            " ".to_owned()
        };
        let after = skip_space_on_line(self.text, last_end, self.format);
        let trailing_comma = self.text[after..].starts_with(',');
        let comma_end = if trailing_comma { after + 1 } else { last_end };
        if multiline {
            // On a line of its own, after whatever comment ends the last member's line.
            let eol = self.text[comma_end..]
                .find('\n')
                .map_or(self.text.len(), |i| comma_end + i);
            let close = node.span.end.saturating_sub(1);
            if eol < close && eol > comma_end {
                let mut splices = Vec::new();
                if !trailing_comma {
                    splices.push(splice(last_end..last_end, ","));
                }
                let tail = if trailing_comma { "," } else { "" };
                splices.push(splice(eol..eol, format!("{sep}{member}{tail}")));
                return Ok(splices);
            }
        }
        if trailing_comma {
            // A trailing comma: the new member goes after it and keeps one.
            return Ok(vec![splice(
                comma_end..comma_end,
                format!("{sep}{member},"),
            )]);
        }
        Ok(vec![splice(last_end..last_end, format!(",{sep}{member}"))])
    }

    fn push(
        &self,
        view: &View,
        target: usize,
        value: &RawValue<'static>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[target];
        match node.kind {
            Kind::Flow { map: false } => {
                let item = self.inline(value, None)?;
                self.flow_append(view, target, item)
            }
            Kind::Block { map: false } => {
                let last = *node
                    .items
                    .last()
                    .ok_or_else(|| EditError::CannotPlace("an empty block sequence".into()))?;
                let item_start = view.nodes[last].span.start;
                let dash = self.text[..item_start].rfind('-').unwrap_or(item_start);
                let indent = indentation(self.text, dash).to_owned();
                let at = line_end(self.text, view.nodes[last].span.end);
                let line = match value {
                    RawValue::Map(m) if !m.is_empty() => {
                        let block = self.block(value, &format!("{indent}  "))?;
                        format!("{indent}- {}", block.trim_start())
                    }
                    RawValue::Seq(s) if !s.is_empty() => {
                        let block = self.block(value, &format!("{indent}  "))?;
                        format!("{indent}- {}", block.trim_start())
                    }
                    _ => format!("{indent}- {}", self.inline(value, None)?),
                };
                Ok(vec![self.line_at(at, &line)])
            }
            Kind::TableArray => {
                let RawValue::Map(entries) = value else {
                    return Err(EditError::WrongKind {
                        path: "the array of tables".into(),
                        expected: "a table to push",
                    });
                };
                let last = *node
                    .items
                    .last()
                    .ok_or_else(|| EditError::CannotPlace("an empty array of tables".into()))?;
                let header = self.text[line_start(self.text, view.nodes[last].span.start)..]
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_owned();
                let end = self.section_end(view, last, true);
                let mut text = String::new();
                if !self.text[..end].ends_with("\n\n") {
                    text.push('\n');
                }
                text.push_str(&header);
                text.push('\n');
                for (k, v) in entries {
                    text.push_str(&format!("{} = {}\n", self.key(k)?, self.inline(v, None)?));
                }
                let at = end;
                let prefix = if at > 0 && !self.text[..at].ends_with('\n') {
                    "\n"
                } else {
                    ""
                };
                Ok(vec![splice(at..at, format!("{prefix}{text}"))])
            }
            _ => Err(EditError::WrongKind {
                path: "the value".into(),
                expected: "a sequence",
            }),
        }
    }

    /// The end of a TOML section's text: the start of the next header that is not one of
    /// its own sub-tables' (with that header's leading comments), or the end.
    fn section_end(&self, view: &View, section: usize, keep_blank: bool) -> usize {
        let start = view.nodes[section].span.start;
        let own_end = self.subtree_end(view, section);
        let mut next = self.text.len();
        for n in &view.nodes {
            let s = n.span.start;
            if matches!(n.kind, Kind::Section)
                && s > own_end.max(start)
                && s < next
                && self.is_header_at(s)
            {
                next = s;
            }
        }
        let next_line = line_start(self.text, next.min(self.text.len()));
        if next >= self.text.len() {
            return self.text.len();
        }
        let with_comments = with_leading_comments(self.text, next_line, self.format);
        // Leave a blank line that separates sections where it is, when asked.
        let mut end = with_comments;
        while keep_blank && end > 0 && self.text[..end].ends_with("\n\n") {
            end -= 1;
        }
        end
    }

    fn is_header_at(&self, pos: usize) -> bool {
        self.text[pos..].starts_with('[')
    }

    /// The furthest span end in a node's subtree.
    fn subtree_end(&self, view: &View, node: usize) -> usize {
        let n = &view.nodes[node];
        let mut end = n.span.end;
        for (_, _, c) in &n.entries {
            end = end.max(self.subtree_end(view, *c));
        }
        for c in &n.items {
            end = end.max(self.subtree_end(view, *c));
        }
        end
    }

    fn remove(&self, view: &View, parent: usize, target: usize) -> Result<Vec<Splice>, EditError> {
        let p = &view.nodes[parent];
        let t = &view.nodes[target];
        match p.kind {
            Kind::Flow { map } => {
                // The member and one comma beside it.
                let members: Vec<(usize, usize)> = if map {
                    p.entries
                        .iter()
                        .map(|(_, ks, c)| (ks.start, view.nodes[*c].span.end))
                        .collect()
                } else {
                    p.items
                        .iter()
                        .map(|c| (view.nodes[*c].span.start, view.nodes[*c].span.end))
                        .collect()
                };
                let i = members
                    .iter()
                    .position(|&(_, end)| end == t.span.end)
                    .ok_or_else(|| EditError::CannotPlace("a member not found".into()))?;
                let (start, end) = members[i];
                let range = if i + 1 < members.len() {
                    start..members[i + 1].0
                } else if i > 0 {
                    members[i - 1].1..end
                } else {
                    let open = p.span.start + 1;
                    let close = p.span.end - 1;
                    let inner_end = skip_space(self.text, end, self.format);
                    let inner_end = if self.text[inner_end..].starts_with(',') {
                        inner_end + 1
                    } else {
                        end
                    };
                    if matches!(self.format, Format::Toml) {
                        open..close
                    } else {
                        start.max(open)..inner_end.min(close)
                    }
                };
                Ok(vec![splice(range, "")])
            }
            Kind::Block { map } => {
                let start = if map {
                    let (_, key_span, _) = p
                        .entries
                        .iter()
                        .find(|(_, _, c)| *c == target)
                        .ok_or_else(|| EditError::CannotPlace("an entry not found".into()))?;
                    key_span.start
                } else {
                    self.text[..t.span.start].rfind('-').unwrap_or(t.span.start)
                };
                let only = if map {
                    p.entries.len() == 1
                } else {
                    p.items.len() == 1
                };
                if only {
                    return Err(EditError::CannotPlace(
                        "removing the last entry of a block collection would change its parent's kind; set the parent instead".into(),
                    ));
                }
                let from =
                    with_leading_comments(self.text, line_start(self.text, start), self.format);
                let to = line_end(self.text, trim_trailing_space(self.text, start, t.span.end));
                Ok(vec![splice(from..to, "")])
            }
            Kind::Section | Kind::Dotted => {
                let (_, key_span, _) = p
                    .entries
                    .iter()
                    .find(|(_, _, c)| *c == target)
                    .ok_or_else(|| EditError::CannotPlace("an entry not found".into()))?;
                match t.kind {
                    Kind::Section => {
                        let from = with_leading_comments(
                            self.text,
                            line_start(self.text, t.span.start),
                            self.format,
                        );
                        let to = self.section_end(view, target, false);
                        Ok(vec![splice(from..to, "")])
                    }
                    Kind::TableArray => {
                        let first = t
                            .items
                            .first()
                            .map_or(t.span.start, |i| view.nodes[*i].span.start);
                        let last = *t.items.last().unwrap_or(&target);
                        let from = with_leading_comments(
                            self.text,
                            line_start(self.text, first),
                            self.format,
                        );
                        let to = self.section_end(view, last, false);
                        Ok(vec![splice(from..to, "")])
                    }
                    Kind::Dotted => {
                        // Every line of the dotted table.
                        let mut lines: Vec<(usize, usize)> = Vec::new();
                        self.dotted_lines(view, target, &mut lines);
                        Ok(lines.into_iter().map(|(a, b)| splice(a..b, "")).collect())
                    }
                    _ => {
                        let from = with_leading_comments(
                            self.text,
                            line_start(self.text, key_span.start),
                            self.format,
                        );
                        let to = line_end(self.text, t.span.end);
                        Ok(vec![splice(from..to, "")])
                    }
                }
            }
            Kind::TableArray => {
                let from = with_leading_comments(
                    self.text,
                    line_start(self.text, t.span.start),
                    self.format,
                );
                let to = self.section_end(view, target, false);
                Ok(vec![splice(from..to, "")])
            }
            _ => Err(EditError::CannotPlace("cannot remove from here".into())),
        }
    }

    /// The line ranges of every entry of a dotted table (and of its dotted sub-tables).
    fn dotted_lines(&self, view: &View, node: usize, out: &mut Vec<(usize, usize)>) {
        for (_, key_span, c) in &view.nodes[node].entries {
            if matches!(view.nodes[*c].kind, Kind::Dotted) {
                self.dotted_lines(view, *c, out);
            } else {
                let from = with_leading_comments(
                    self.text,
                    line_start(self.text, key_span.start),
                    self.format,
                );
                let to = line_end(self.text, view.nodes[*c].span.end);
                if !out.iter().any(|&(a, _)| a == from) {
                    out.push((from, to));
                }
            }
        }
    }
}

/// How the first string among a map's or sequence's members is quoted.
fn sibling_string_style(view: &View, parent: usize) -> Option<Style> {
    let p = &view.nodes[parent];
    p.entries
        .iter()
        .map(|e| e.2)
        .chain(p.items.iter().copied())
        .find_map(|c| match view.nodes[c].kind {
            Kind::Scalar(style @ (Style::SingleQuoted | Style::DoubleQuoted)) => Some(style),
            _ => None,
        })
}

/// `end` moved back over trailing spaces and line breaks (block scalars' spans may
/// include the line break after them), but not before `start`.
fn trim_trailing_space(text: &str, start: usize, end: usize) -> usize {
    let trimmed = slice(text, start, end).trim_end_matches([' ', '\t', '\n', '\r']);
    start + trimmed.len()
}
