//! Environment variables resolved by shape: a variable's name is matched against the
//! field names the target type describes (after renames, aliases and nesting), never
//! split on a guessed separator; its text is read as what that field takes (text, a
//! YAML flow sequence, or, where the type says nothing, any YAML value).

use std::borrow::Cow;

use super::merge::{Merged, Node, Source};
use super::{Origin, Problem, ProblemKind};
use crate::{RawValue, Segment, Shape, ValuePath};

/// `rest` of `name` = `PREFIX_rest`, the prefix matched case-insensitively.
pub(super) fn strip_prefix<'n>(name: &'n str, prefix: &str) -> Option<&'n str> {
    let head = name.get(..prefix.len())?;
    let rest = name[prefix.len()..].strip_prefix('_')?;
    (head.eq_ignore_ascii_case(prefix) && !rest.is_empty()).then_some(rest)
}

impl Merged<'_> {
    /// Lays the variable `name` (with `text`) where its name fits `shape`, or records why
    /// it cannot be placed.
    pub(super) fn add_variable(&mut self, prefix: &str, name: &str, text: &str, shape: &Shape) {
        let Some(rest) = strip_prefix(name, prefix) else {
            return;
        };
        if rest.eq_ignore_ascii_case("PROFILE") {
            return;
        }
        let mut search = EnvSearch::default();
        search.resolve(shape, self.root.as_ref(), rest, Vec::new(), false);
        search.found.dedup_by(|a, b| a.0 == b.0);
        match search.found.len() {
            0 if search.denied => self.problems.push(Problem {
                kind: ProblemKind::UnknownVariable,
                path: ValuePath::default(),
                origin: Some(Origin::Env {
                    name: name.to_owned(),
                }),
                message: "fits no field of the configuration (its type denies unknown fields)"
                    .to_owned(),
                snippet: None,
                help: None,
                document: None,
            }),
            0 => {}
            1 => {
                let Some((path, takes)) = search.found.pop() else {
                    return;
                };
                let value = variable_value(text, takes);
                let mut nested = value;
                for key in path.iter().rev() {
                    nested = RawValue::Map(vec![(Cow::Owned(key.clone()), nested)]);
                }
                self.lay(nested, Source::Env(name.to_owned()));
            }
            _ => {
                let paths: Vec<String> = search
                    .found
                    .iter()
                    .map(|(p, _)| key_path(p).to_string())
                    .collect();
                self.problems.push(Problem {
                    kind: ProblemKind::AmbiguousVariable,
                    path: ValuePath::default(),
                    origin: Some(Origin::Env {
                        name: name.to_owned(),
                    }),
                    message: format!("fits more than one field: {}", paths.join(" and ")),
                    snippet: None,
                    help: None,
                    document: None,
                });
            }
        }
    }
}

fn key_path(keys: &[String]) -> ValuePath {
    ValuePath {
        segments: keys.iter().cloned().map(Segment::Key).collect(),
    }
}

/// The paths an environment variable's name fits, found through the target's shape.
#[derive(Default)]
struct EnvSearch {
    /// Each fitting path, and what its value takes.
    found: Vec<(Vec<String>, Takes)>,
    /// True when some part of the name fit no field of a struct that denies unknown keys.
    denied: bool,
}

impl EnvSearch {
    /// Finds where `rest` (the name after the prefix, or after the keys already matched)
    /// leads from a value of `shape`, whose current merged node is `node`.
    fn resolve(
        &mut self,
        shape: &Shape,
        node: Option<&Node<'_>>,
        rest: &str,
        at: Vec<String>,
        flattened: bool,
    ) {
        match shape {
            Shape::Optional(inner) => self.resolve(&inner(), node, rest, at, flattened),
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
                        path.push(field.name.to_owned());
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
                if self.found.len() == before && s.deny_unknown_fields && !flattened {
                    self.denied = true;
                }
            }
            Shape::Map(value) => self.resolve_keys(&value(), node, rest, at, false),
            Shape::Any => self.resolve_keys(&Shape::Any, node, rest, at, true),
            _ => {}
        }
    }

    /// A map (or a value of unknown shape): any key, an existing key first in its own spelling.
    fn resolve_keys(
        &mut self,
        value: &Shape,
        node: Option<&Node<'_>>,
        rest: &str,
        at: Vec<String>,
        only_existing_nesting: bool,
    ) {
        let entries = node.map(Node::entries).unwrap_or_default();
        let before = self.found.len();
        // Existing keys, in their own spelling.
        for (key, child) in entries {
            let Some(after) = match_key(rest, key) else {
                continue;
            };
            let mut path = at.clone();
            path.push(key.to_string());
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
            let mut path = at;
            path.push(new_key(rest));
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
            if !key.is_empty() && !entries.iter().any(|(k, _)| k.eq_ignore_ascii_case(key)) {
                let mut path = at.clone();
                path.push(new_key(key));
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
    fn leaf(&mut self, shape: &Shape, path: Vec<String>) {
        let takes = match shape.clone().unwrap_optional() {
            Shape::Seq(_) | Shape::Tuple(_) => Takes::Sequence,
            Shape::Any => Takes::Anything,
            shape if shape.is_scalar() || matches!(shape, Shape::Enum(_)) => Takes::Text,
            _ => return,
        };
        self.found.push((path, takes));
    }
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
