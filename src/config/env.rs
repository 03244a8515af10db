//! Environment variables resolved by shape: a variable's name is matched against the
//! field names the target type describes (after renames, aliases and nesting), never
//! split on a guessed separator; its text is read as what that field takes (text, a
//! YAML flow sequence, or, where the type says nothing, any YAML value). A number after
//! a sequence field's name is an item's index (`APP_SERVERS_0_HOST`), and a name ending
//! in `_FILE` that fits no field as it is names a file holding the value.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::merge::{Merged, NodeRef, Source};
use super::{Origin, Problem, ProblemKind};
use crate::{RawValue, Segment, Shape, ValuePath};

/// `rest` of `name` = `PREFIX_rest`, the prefix matched case-insensitively.
pub(super) fn strip_prefix<'n>(name: &'n str, prefix: &str) -> Option<&'n str> {
    let head = name.get(..prefix.len())?;
    let rest = name[prefix.len()..].strip_prefix('_')?;
    (head.eq_ignore_ascii_case(prefix) && !rest.is_empty()).then_some(rest)
}

/// A variable placed by its name: the path it sets and the value it gives.
struct Placed {
    path: Vec<Segment>,
    value: RawValue<'static>,
    source: Source,
}

impl Merged<'_> {
    /// Lays one environment layer's variables where their names fit `shape`, recording
    /// why any cannot be placed. Variables that address sequence items are laid last, in
    /// index order, so that `_1_` extends what `_0_` began whatever the variables' order.
    pub(super) fn add_variables(&mut self, prefix: &str, vars: &[(String, String)], shape: &Shape) {
        let mut indexed = Vec::new();
        for (name, text) in vars {
            let Some(placed) = self.place_variable(prefix, name, text, shape) else {
                continue;
            };
            if placed.path.iter().any(|s| matches!(s, Segment::Index(_))) {
                indexed.push(placed);
                continue;
            }
            let mut nested = placed.value;
            for segment in placed.path.iter().rev() {
                if let Segment::Key(key) = segment {
                    nested = RawValue::Map(vec![(Cow::Owned(key.clone()), nested)]);
                }
            }
            self.lay(nested, placed.source);
        }
        indexed.sort_by(|a, b| compare_paths(&a.path, &b.path));
        for placed in indexed {
            let variable = placed.source.variable().unwrap_or_default().to_owned();
            if let Err((at, len)) = self.lay_at(&placed.path, placed.value, placed.source) {
                let index = match at.last() {
                    Some(Segment::Index(i)) => *i,
                    _ => 0,
                };
                self.problems.push(Problem {
                    kind: ProblemKind::BadIndex,
                    path: segment_path(&at),
                    origin: Some(Origin::Env { name: variable }),
                    message: format!("index {index} leaves a gap: no layer gives item {len}"),
                    snippet: None,
                    help: None,
                    document: None,
                });
            }
        }
    }

    /// Where the variable `name` (with `text`) goes, or `None` (with the reason recorded
    /// when there is one).
    fn place_variable(
        &mut self,
        prefix: &str,
        name: &str,
        text: &str,
        shape: &Shape,
    ) -> Option<Placed> {
        let rest = strip_prefix(name, prefix)?;
        if rest.eq_ignore_ascii_case("PROFILE") {
            return None;
        }
        let mut search = EnvSearch::default();
        search.resolve(shape, self.tree(), rest, Vec::new(), false);
        let mut from_file = None;
        if search.found.is_empty() || search.invented {
            // `PREFIX_FIELD_FILE`: the value is the content of the file it names.
            if let Some(stem) = rest
                .len()
                .checked_sub(5)
                .filter(|&cut| rest.is_char_boundary(cut))
                .map(|cut| rest.split_at(cut))
                .filter(|(_, tail)| tail.eq_ignore_ascii_case("_FILE"))
                .map(|(stem, _)| stem)
                .filter(|stem| !stem.is_empty())
            {
                let mut by_stem = EnvSearch::default();
                by_stem.resolve(shape, self.tree(), stem, Vec::new(), false);
                if !by_stem.found.is_empty() && (search.found.is_empty() || !by_stem.invented) {
                    search = by_stem;
                    from_file = Some(text);
                }
            }
        }
        search.found.dedup_by(|a, b| a.0 == b.0);
        let env_problem = |kind, path: ValuePath, message: String| Problem {
            kind,
            path,
            origin: Some(Origin::Env {
                name: name.to_owned(),
            }),
            message,
            snippet: None,
            help: None,
            document: None,
        };
        match search.found.len() {
            0 => {
                if let Some(at) = search.not_sequence {
                    self.problems.push(env_problem(
                        ProblemKind::BadIndex,
                        segment_path(&at),
                        "an index addresses a sequence item, and this is not a sequence".to_owned(),
                    ));
                } else if search.denied {
                    self.problems.push(env_problem(
                        ProblemKind::UnknownVariable,
                        ValuePath::default(),
                        "fits no field of the configuration (its type denies unknown fields)"
                            .to_owned(),
                    ));
                }
                None
            }
            1 => {
                let (path, takes) = search.found.pop()?;
                let (text, source) = match from_file {
                    None => (Cow::Borrowed(text), Source::Env(name.to_owned())),
                    Some(file) => match std::fs::read_to_string(file) {
                        Ok(mut content) => {
                            if content.ends_with('\n') {
                                content.pop();
                                if content.ends_with('\r') {
                                    content.pop();
                                }
                            }
                            (
                                Cow::Owned(content),
                                Source::SecretFile {
                                    variable: name.to_owned(),
                                    path: file.to_owned(),
                                },
                            )
                        }
                        Err(e) => {
                            self.problems.push(env_problem(
                                ProblemKind::Io,
                                segment_path(&path),
                                format!("cannot read the file it names, {file}: {e}"),
                            ));
                            return None;
                        }
                    },
                };
                Some(Placed {
                    path,
                    value: variable_value(&text, takes),
                    source,
                })
            }
            _ => {
                let paths: Vec<String> = search
                    .found
                    .iter()
                    .map(|(p, _)| segment_path(p).to_string())
                    .collect();
                self.problems.push(env_problem(
                    ProblemKind::AmbiguousVariable,
                    ValuePath::default(),
                    format!("fits more than one field: {}", paths.join(" and ")),
                ));
                None
            }
        }
    }
}

fn segment_path(segments: &[Segment]) -> ValuePath {
    ValuePath {
        segments: segments.to_vec(),
    }
}

/// Paths in order, indices compared as numbers.
fn compare_paths(a: &[Segment], b: &[Segment]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let order = match (x, y) {
            (Segment::Index(x), Segment::Index(y)) => x.cmp(y),
            (Segment::Key(x), Segment::Key(y)) => x.cmp(y),
            (Segment::Key(_), Segment::Index(_)) => Ordering::Less,
            (Segment::Index(_), Segment::Key(_)) => Ordering::Greater,
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

/// The paths an environment variable's name fits, found through the target's shape.
#[derive(Default)]
struct EnvSearch {
    /// Each fitting path, and what its value takes.
    found: Vec<(Vec<Segment>, Takes)>,
    /// True when some part of the name fit no field of a struct that denies unknown keys.
    denied: bool,
    /// Where an index followed a value that is not a sequence.
    not_sequence: Option<Vec<Segment>>,
    /// True when a path found makes up a key that neither the type nor a layer names.
    invented: bool,
}

impl EnvSearch {
    /// Finds where `rest` (the name after the prefix, or after the keys already matched)
    /// leads from a value of `shape`, whose current merged node is `node`.
    fn resolve(
        &mut self,
        shape: &Shape,
        node: Option<NodeRef<'_, '_>>,
        rest: &str,
        at: Vec<Segment>,
        flattened: bool,
    ) {
        match shape {
            Shape::Optional(inner)
            | Shape::Checked(inner, _)
            | Shape::Secret(inner)
            | Shape::Spanned(inner) => self.resolve(&inner(), node, rest, at, flattened),
            Shape::Seq(item) => self.resolve_item(&item(), node, rest, at),
            Shape::Struct(s) => {
                let before = self.found.len();
                for field in &s.fields {
                    if field.flatten {
                        self.resolve(&(field.shape)(), node, rest, at.clone(), true);
                        continue;
                    }
                    for name in field.names() {
                        let Some(after) = match_key(rest, name) else {
                            continue;
                        };
                        let mut path = at.clone();
                        path.push(Segment::Key(field.name.to_owned()));
                        let shape = (field.shape)();
                        match after {
                            None => self.leaf(&shape, path),
                            Some(after) => {
                                let child = node.and_then(|n| n.child(field.name));
                                self.resolve(&shape, child, after, path, false);
                            }
                        }
                    }
                }
                if self.found.len() == before && !flattened {
                    if starts_with_index(rest) {
                        self.not_sequence.get_or_insert(at);
                    } else if s.deny_unknown_fields {
                        self.denied = true;
                    }
                }
            }
            Shape::Map(value) | Shape::SpannedKeyMap(value) => {
                let held =
                    node.is_some_and(|n| n.entries().any(|(k, _)| match_key(rest, k).is_some()));
                if starts_with_index(rest) && !held {
                    // A number is an index, which a map does not take.
                    self.not_sequence.get_or_insert(at);
                    return;
                }
                self.resolve_keys(&value(), node, rest, at, false)
            }
            // A sequence the layers hold takes indices whatever its type.
            Shape::Any if node.is_some_and(NodeRef::is_seq) && starts_with_index(rest) => {
                self.resolve_item(&Shape::Any, node, rest, at)
            }
            Shape::Any => self.resolve_keys(&Shape::Any, node, rest, at, true),
            _ if starts_with_index(rest) => {
                self.not_sequence.get_or_insert(at);
            }
            _ => {}
        }
    }

    /// An item of a sequence: `rest` is its index, alone or followed by `_` and more.
    fn resolve_item(
        &mut self,
        item: &Shape,
        node: Option<NodeRef<'_, '_>>,
        rest: &str,
        at: Vec<Segment>,
    ) {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let Ok(index) = rest[..digits].parse::<usize>() else {
            return;
        };
        let mut path = at;
        path.push(Segment::Index(index));
        match &rest[digits..] {
            "" => self.leaf(item, path),
            after => {
                let Some(after) = after.strip_prefix('_').filter(|a| !a.is_empty()) else {
                    return;
                };
                let child = node.and_then(|n| n.item(index));
                self.resolve(item, child, after, path, false);
            }
        }
    }

    /// A map (or a value of unknown shape): any key, an existing key first in its own spelling.
    fn resolve_keys(
        &mut self,
        value: &Shape,
        node: Option<NodeRef<'_, '_>>,
        rest: &str,
        at: Vec<Segment>,
        only_existing_nesting: bool,
    ) {
        let entries = || node.into_iter().flat_map(NodeRef::entries);
        let before = self.found.len();
        // Existing keys, in their own spelling.
        for (key, child) in entries() {
            let Some(after) = match_key(rest, key) else {
                continue;
            };
            let mut path = at.clone();
            path.push(Segment::Key(key.to_string()));
            match after {
                None => self.leaf(value, path),
                Some(after) => self.resolve(value, Some(child), after, path, false),
            }
        }
        if self.found.len() > before {
            return;
        }
        if only_existing_nesting {
            // Nothing known fits: the whole rest is one new key.
            self.invented = true;
            let mut path = at;
            path.push(Segment::Key(new_key(rest)));
            self.leaf(value, path);
            return;
        }
        // A new key: every split of the rest at an underscore that the value shape fits.
        let mut cut = 0;
        loop {
            let next = rest[cut..].find('_').map(|i| cut + i);
            let (key, after) = match next {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            if !key.is_empty() && !entries().any(|(k, _)| k.eq_ignore_ascii_case(key)) {
                self.invented = true;
                let mut path = at.clone();
                path.push(Segment::Key(new_key(key)));
                match after {
                    None => self.leaf(value, path),
                    Some(after) if !after.is_empty() => {
                        self.resolve(value, None, after, path, false)
                    }
                    Some(_) => {}
                }
            }
            match next {
                Some(i) => cut = i + 1,
                None => break,
            }
        }
    }

    /// `path` takes the variable's text, if a value of `shape` can be text.
    fn leaf(&mut self, shape: &Shape, path: Vec<Segment>) {
        let mut shape = shape.clone().unwrap_optional();
        while let Shape::Checked(inner, _) | Shape::Secret(inner) | Shape::Spanned(inner) = shape {
            shape = inner().unwrap_optional();
        }
        let takes = match shape {
            Shape::Seq(_) | Shape::Tuple(_) => Takes::Sequence,
            Shape::Any => Takes::Anything,
            shape if shape.is_scalar() || matches!(shape, Shape::Enum(_)) => Takes::Text,
            _ => return,
        };
        self.found.push((path, takes));
    }
}

/// True when `rest` begins with a number standing alone: `0` or `0_HOST`.
fn starts_with_index(rest: &str) -> bool {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(rest.as_bytes().get(digits), None | Some(b'_'))
}

/// `Some(None)` when `rest` is `key` (case-insensitively, `-` and `.` in the key standing
/// for `_`), `Some(Some(after))` when it is `key_after`, `None` otherwise.
fn match_key<'r>(rest: &'r str, key: &str) -> Option<Option<&'r str>> {
    let fits = |a: u8, b: u8| a.eq_ignore_ascii_case(&b) || (a == b'_' && matches!(b, b'-' | b'.'));
    let (r, k) = (rest.as_bytes(), key.as_bytes());
    if k.is_empty() || r.len() < k.len() || !r.iter().zip(k).all(|(&a, &b)| fits(a, b)) {
        return None;
    }
    match r.get(k.len()) {
        None => Some(None),
        Some(b'_') if r.len() > k.len() + 1 => Some(Some(&rest[k.len() + 1..])),
        _ => None,
    }
}

/// A new map key from a variable's name: lowercased when written in upper case.
fn new_key(text: &str) -> String {
    if text.bytes().any(|b| b.is_ascii_lowercase()) {
        text.to_owned()
    } else {
        text.to_ascii_lowercase()
    }
}

/// What a variable's value is read as, by the shape it lands on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Takes {
    /// Text, decoded by the target type as XML text is.
    Text,
    /// A YAML flow sequence (`[a, b]`).
    Sequence,
    /// Anything (the type does not say): a YAML scalar or flow collection.
    Anything,
}

/// A variable's value: text; for a sequence field a YAML flow sequence whose scalars
/// are text too (so `[1, 2]` fills a `Vec<String>` as well as a `Vec<u8>`); where the
/// type says nothing, the value YAML reads (`50` a number, `true` a boolean).
fn variable_value(text: &str, takes: Takes) -> RawValue<'static> {
    #[cfg(feature = "yaml")]
    match takes {
        Takes::Sequence if text.trim_start().starts_with('[') => {
            if let Ok(value) = crate::yaml::parse(text.as_bytes()) {
                return scalars_as_text(value.into_owned());
            }
        }
        Takes::Anything => {
            if let Ok(
                value @ (RawValue::Seq(_)
                | RawValue::Map(_)
                | RawValue::Bool(_)
                | RawValue::Int(_)
                | RawValue::UInt(_)
                | RawValue::Float(_)),
            ) = crate::yaml::parse(text.as_bytes())
            {
                return value.into_owned();
            }
        }
        _ => {}
    }
    let _ = takes;
    RawValue::Text(Cow::Owned(text.to_owned()))
}

#[cfg(feature = "yaml")]
fn scalars_as_text(value: RawValue<'static>) -> RawValue<'static> {
    match value {
        RawValue::Seq(items) => RawValue::Seq(items.into_iter().map(scalars_as_text).collect()),
        RawValue::Map(entries) => RawValue::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k, scalars_as_text(v)))
                .collect(),
        ),
        RawValue::Null => RawValue::Null,
        RawValue::String(s) => RawValue::Text(s),
        RawValue::Bool(b) => RawValue::Text(Cow::Owned(b.to_string())),
        RawValue::Int(i) => RawValue::Text(Cow::Owned(i.to_string())),
        RawValue::UInt(u) => RawValue::Text(Cow::Owned(u.to_string())),
        RawValue::BigNumber(s) => RawValue::Text(s),
        RawValue::Float(f) => RawValue::Text(Cow::Owned(f.to_string())),
        RawValue::Datetime(d) => RawValue::Text(Cow::Owned(d.to_string())),
        other => other,
    }
}
