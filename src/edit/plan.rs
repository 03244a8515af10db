//! Planning: which bytes change. An edit becomes splices (a range of the text and what
//! replaces it), after the refusals that hold for every format (YAML aliases and anchors);
//! the line helpers here find where entries, their comments and their lines begin and end.

use super::view::View;
use super::writer::Writer;
use super::{EditError, Op};
use crate::{Format, Segment, ValuePath};

/// Replace `range` of the text with `text`.
#[derive(Debug, Clone)]
pub(super) struct Splice {
    pub(super) range: std::ops::Range<usize>,
    pub(super) text: String,
}

pub(super) fn splice(range: std::ops::Range<usize>, text: impl Into<String>) -> Splice {
    Splice {
        range,
        text: text.into(),
    }
}

/// The splices that make `op` at `path`, or why it cannot be written in place.
pub(super) fn plan(
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
        // Removing or replacing a node removes the anchors inside it too.
        if let (Some(t), Op::Remove | Op::Set(_)) = (target, op) {
            // Anchors on keys inside the entry (its own key's included).
            let entry_start = match last {
                Some(Segment::Key(k)) => view.nodes[parent]
                    .entries
                    .iter()
                    .rev()
                    .find(|(key, _, _)| key == k)
                    .map_or(view.nodes[t].span.start, |e| e.1.start),
                _ => view.nodes[t].span.start,
            };
            let inside =
                |s: &crate::Span| s.start >= entry_start && s.end <= view.nodes[t].span.end;
            // Setting a value keeps its key, and the key's anchor.
            let kept_key = |s: &crate::Span| matches!(op, Op::Set(_)) && s.start == entry_start;
            if let Some((anchor, _)) = view
                .key_anchors
                .iter()
                .find(|(a, s)| view.aliased.contains(a) && inside(s) && !kept_key(s))
            {
                return Err(EditError::Anchor {
                    path: whole,
                    anchor: anchor.clone(),
                });
            }
            let mut stack = vec![t];
            while let Some(n) = stack.pop() {
                let node = &view.nodes[n];
                if let Some(anchor) = node.anchor.as_ref().filter(|a| view.aliased.contains(a)) {
                    return Err(EditError::Anchor {
                        path: whole,
                        anchor: anchor.clone(),
                    });
                }
                stack.extend(node.entries.iter().map(|e| e.2));
                stack.extend(node.items.iter().copied());
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
    // YAML: a key that a `<<` merge of the same map also gives would come back from the
    // merged anchor when removed.
    if let (Op::Remove, Some(Segment::Key(k))) = (op, last) {
        if let Some(anchor) = merged_from(view, parent, k) {
            return Err(EditError::Anchor {
                path: whole,
                anchor,
            });
        }
    }
    let writer = Writer::new(text, format);
    match (op, last, target) {
        (Op::Set(value), _, Some(t)) => writer.set(view, t, value, parent, last),
        (Op::Set(value), None, None) => writer.set(view, 0, value, 0, None),
        (Op::Insert(value), Some(Segment::Key(k)), None) => writer.insert(view, parent, k, value),
        (Op::Insert(_), Some(_), Some(_)) => Err(EditError::Exists(whole)),
        (Op::Remove, Some(_), Some(t)) => writer.remove(view, &trail, parent_path, t),
        (Op::Push(value), _, Some(t)) => writer.push(view, t, value),
        (Op::Push(value), None, None) => writer.push(view, 0, value),
        _ => Err(EditError::NotFound(whole)),
    }
}

/// The anchor whose map a `<<` merge key of `map` reads `key` from, if any: through
/// every `<<` of the map (`<<: *a`, `<<: [*a, *b]`, or several `<<` keys), and the
/// merges of the merged maps in turn.
fn merged_from(view: &View, map: usize, key: &str) -> Option<String> {
    merged_within(view, map, key, 0)
}

fn merged_within(view: &View, map: usize, key: &str, depth: usize) -> Option<String> {
    // Anchors cannot refer forward, so a chain of merges ends; the bound is for safety.
    if depth > 64 {
        return None;
    }
    for (_, _, merge) in view.nodes[map].entries.iter().filter(|(k, _, _)| k == "<<") {
        let merge = &view.nodes[*merge];
        let aliases = std::iter::once(merge).chain(merge.items.iter().map(|&i| &view.nodes[i]));
        for alias in aliases {
            let Some(name) = &alias.alias else { continue };
            let Some(source) = view
                .nodes
                .iter()
                .rposition(|n| n.anchor.as_ref() == Some(name) && n.span.start < alias.span.start)
            else {
                continue;
            };
            if view.nodes[source].entries.iter().any(|(k, _, _)| k == key)
                || merged_within(view, source, key, depth + 1).is_some()
            {
                return Some(name.clone());
            }
        }
    }
    None
}

/// `text[start..end]`, or nothing when the range does not fit (the spans of empty nodes
/// can be odd); a plan built from it is then refused by the check before it is applied.
pub(super) fn slice(text: &str, start: usize, end: usize) -> &str {
    text.get(start..end).unwrap_or("")
}

/// Line helpers over the text. The first line starts after a byte order mark, which
/// belongs to no entry.
pub(super) fn line_start(text: &str, pos: usize) -> usize {
    let first = if pos >= 3 && text.starts_with('\u{feff}') {
        3
    } else {
        0
    };
    text[..pos].rfind('\n').map_or(first, |i| i + 1)
}

pub(super) fn line_end(text: &str, pos: usize) -> usize {
    text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1)
}

pub(super) fn indentation(text: &str, pos: usize) -> &str {
    let start = line_start(text, pos);
    let line = &text[start..];
    let width = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..width]
}

/// The indentation of a line continuing at the column of `pos`: the line's own
/// indentation when `pos` is its first non-space byte, otherwise spaces up to `pos` (a
/// key written after a sequence item's `- ` is indented by its column).
pub(super) fn column_indent(text: &str, pos: usize) -> String {
    let start = line_start(text, pos);
    text[start..pos]
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect()
}

/// `pos` is the first byte on its line that is not a space or tab.
pub(super) fn first_on_line(text: &str, pos: usize) -> bool {
    text[line_start(text, pos)..pos]
        .bytes()
        .all(|b| matches!(b, b' ' | b'\t'))
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
pub(super) fn with_leading_comments(text: &str, pos: usize, format: Format) -> usize {
    let mut start = pos;
    let first = if text.starts_with('\u{feff}') { 3 } else { 0 };
    while start > first {
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
pub(super) fn skip_space_on_line(text: &str, mut pos: usize, _format: Format) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() && matches!(bytes[pos], b' ' | b'\t') {
        pos += 1;
    }
    pos
}

/// The next non-space, non-comment byte at or after `pos`.
pub(super) fn skip_space(text: &str, mut pos: usize, format: Format) -> usize {
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

/// `end` moved back over trailing spaces and line breaks (block scalars' spans may
/// include the line break after them), but not before `start`.
pub(super) fn trim_trailing_space(text: &str, start: usize, end: usize) -> usize {
    let trimmed = slice(text, start, end).trim_end_matches([' ', '\t', '\n', '\r']);
    start + trimmed.len()
}
