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
//! double-quoted), and an empty YAML value is written after its `:` or `-` (under an
//! explicit `? key` without one, on a `:` line of its own); `insert` places a new entry after its last sibling with the
//! siblings' indentation, quoting and separators (in TOML, in the table's own section,
//! and beside its dotted-key siblings with their prefix); `remove` takes the entry's own
//! lines and the comment lines directly above it, never a neighbour's (the first key of
//! a YAML `- key: value` item gives its place to the next key; a TOML table takes every
//! section of it and its dotted-key lines in other sections), and a collection it leaves
//! empty stays, written `{}` or `[]` (a TOML table: `a.b = {}` or its `[a.b]` header; an
//! array of tables: `key = []`); `push` appends to a sequence in its style. YAML flow collections stay flow. An edit through a YAML
//! alias, or of a node with an anchor that aliases refer to, is an error naming the
//! anchor, and so is removing a key that a `<<` merge of its map also gives. A YAML stream is edited one document at a time
//! ([`Document::parse_yaml_document`]).

mod plan;
mod verify;
mod view;
mod writer;

use std::borrow::Cow;
use std::fmt;

use crate::{Decode, Encode, Format, RawValue, Segment, TreeNode, ValuePath};

use plan::plan;
use verify::{apply_to_value, reread, same_value, value_at};
use view::{toml_kind, Kind, Style, View};
use writer::Writer;

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
    /// The path goes through a YAML alias, names a node whose anchor aliases refer to, or
    /// names a key to remove that a `<<` merge of its map also gives.
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
                "{path}: the edit goes through the YAML anchor `&{anchor}` (it would change what the anchor holds for every alias, or a `<<` merge of it would undo it)"
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
            // YAML: the struct door reads as much as the tree door does, sooner.
            _ => {
                let documents = crate::yaml::parse_stream(doc.text.as_bytes())
                    .map_err(|e| EditError::Parse(e.to_string()))?;
                if index >= documents.len() {
                    return Err(EditError::Parse(format!(
                        "the stream has no document {index}"
                    )));
                }
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
        let writer = Writer::new(&self.text, self.format);
        let (span, written) = match self.format {
            Format::Toml => {
                let doc = crate::toml::parse_tree(self.text.as_bytes()).ok()?;
                let node = doc.root().lookup(path)?;
                let style = match toml_kind(node.kind()) {
                    // A string where there was none takes its siblings' quoting.
                    Kind::Scalar(Style::Plain) if matches!(value, RawValue::String(_)) => {
                        let parent = ValuePath {
                            segments: path.segments[..path.segments.len().saturating_sub(1)]
                                .to_vec(),
                        };
                        let parent = doc.root().lookup(&parent)?;
                        let siblings = parent
                            .entries()
                            .map(|(_, v)| v)
                            .chain(parent.items())
                            .map(|v| toml_kind(v.kind()));
                        siblings
                            .filter_map(|k| match k {
                                Kind::Scalar(s @ (Style::SingleQuoted | Style::DoubleQuoted)) => {
                                    Some(s)
                                }
                                _ => None,
                            })
                            .next()
                            .unwrap_or(Style::Plain)
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
            Format::Yaml => {
                let (span, style) = yaml_scalar(&self.text, self.index, path)?;
                let text = match writer.inline(value, Some(style)) {
                    Ok(text) => text,
                    Err(e) => return Some(Err(e)),
                };
                // On one line, and read on its own as the value (no indicator, anchor or
                // comment made of it).
                if text.contains(['\n', '\r', '#'])
                    || !same_value(&crate::yaml::parse(text.as_bytes()).ok()?, value)
                {
                    return None;
                }
                (span, text)
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

fn encode<T: Encode + ?Sized>(value: &T) -> Result<RawValue<'static>, EditError> {
    value
        .to_raw_value()
        .map_err(|e| EditError::Encode(e.to_string()))
}

fn parse_path(path: &str) -> Result<ValuePath, EditError> {
    ValuePath::parse(path).ok_or_else(|| EditError::BadPath(path.to_owned()))
}

/// YAML: the span and style of the plain or quoted scalar at `path` in document `index`,
/// reached through block collections without aliases, anchors or repeated keys; `None`
/// for anything else (the general path handles it).
fn yaml_scalar(text: &str, index: usize, path: &ValuePath) -> Option<(crate::Span, Style)> {
    use crate::yaml::{CollectionStyle, NodeKind, ScalarStyle};
    let stream = crate::yaml::parse_tree(text.as_bytes()).ok()?;
    let mut node = stream.document(index)?.root();
    for segment in &path.segments {
        if node.collection_style() != Some(CollectionStyle::Block) || node.anchor().is_some() {
            return None;
        }
        node = match segment {
            Segment::Key(k) => {
                let mut found = node
                    .entries()
                    .filter(|(key, _)| key.as_str() == Some(k.as_str()));
                let (_, value) = found.next()?;
                if found.next().is_some() {
                    return None;
                }
                value
            }
            Segment::Index(i) => node.items().nth(*i)?,
        };
    }
    if node.kind() != NodeKind::Scalar || node.anchor().is_some() || node.tag().is_some() {
        return None;
    }
    // A `<<` merge key would read the scalar into other maps.
    if path
        .segments
        .iter()
        .any(|s| matches!(s, Segment::Key(k) if k == "<<"))
    {
        return None;
    }
    let style = match node.scalar_style()? {
        ScalarStyle::Plain => Style::Plain,
        ScalarStyle::SingleQuoted => Style::SingleQuoted,
        ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
        _ => return None,
    };
    let span = node.span();
    // An empty scalar (`key:` alone) and a multi-line one keep the general path's care.
    if span.start == span.end {
        return None;
    }
    if text.get(span.start..span.end)?.contains('\n') {
        return None;
    }
    Some((span, style))
}
