//! Documented templates: a value written with each field's doc comment as a comment above
//! its key, which is what an application writes as its default configuration file.
//!
//! ```
//! use quarry::{Decode, Encode, Format};
//!
//! /// The service's settings.
//! #[derive(Decode, Encode, Debug, PartialEq)]
//! struct Settings {
//!     /// Where to listen.
//!     host: String,
//!     /// The port (1 to 65535).
//!     port: u16,
//! }
//!
//! let value = Settings { host: "localhost".into(), port: 8080 };
//! let text = quarry::to_string_documented(&value, Format::Toml).unwrap();
//! assert_eq!(text, "# Where to listen.\nhost = \"localhost\"\n# The port (1 to 65535).\nport = 8080\n");
//! assert_eq!(quarry::from_str::<Settings>(&text, Format::Toml).unwrap(), value);
//! ```
//!
//! The comments come from [`Decode::shape`], the description JSON Schema `description`s
//! are written from. A key that is not the first thing on its line (a TOML inline table's,
//! a YAML key after an item's `- ` keeps its comment above the item's line) gets no
//! comment of its own when there is no line to put it on.

use std::collections::BTreeMap;

use crate::shape::{FieldShape, Shape};
use crate::{Decode, Encode, Error, Format, RawValue, Segment, Span, TreeNode, ValuePath};

/// Writes `value` in `format` (TOML, YAML, or JSONC) with each field's doc comment above
/// its key; the text decodes back to the same value. TOML leaves `None` fields out (it
/// has no null); other formats are written as [`to_string`](crate::to_string) writes
/// them, without comments.
pub fn to_string_documented<T>(value: &T, format: Format) -> Result<String, Error>
where
    T: Encode + for<'de> Decode<'de>,
{
    let raw = value.to_raw_value()?;
    let text = match format {
        #[cfg(feature = "toml")]
        Format::Toml => {
            let bytes = crate::toml::to_vec_with_nulls(&raw, crate::encode::NullEntries::Skip)?;
            String::from_utf8(bytes).unwrap_or_default()
        }
        _ => crate::to_string(&raw, format)?,
    };
    let mut notes: Vec<(ValuePath, &'static str)> = Vec::new();
    describe(&T::shape(), &raw, &mut Vec::new(), &mut notes, 0);
    if notes.is_empty() {
        return Ok(text);
    }
    let marker = match format {
        Format::Toml | Format::Yaml => "#",
        Format::Jsonc => "//",
        _ => return Ok(text),
    };
    let keys = key_spans(&text, format, &notes);
    // Comment lines by the line they go above (one note per line: the outermost).
    let mut above: BTreeMap<usize, String> = BTreeMap::new();
    for ((_, note), key) in notes.iter().zip(keys) {
        let Some(key) = key else { continue };
        let start = text[..key.start].rfind('\n').map_or(0, |i| i + 1);
        let indent = &text[start..key.start];
        let indent = if indent.trim().is_empty() {
            indent.to_owned()
        } else if format == Format::Toml && matches!(indent.trim(), "[" | "[[") {
            // A table's header: above it.
            let width = indent.len() - indent.trim_start().len();
            indent[..width].to_owned()
        } else if format == Format::Yaml {
            // `- key:`: above the item, at the dash's indentation.
            let width = indent.len() - indent.trim_start().len();
            indent[..width].to_owned()
        } else {
            continue;
        };
        let mut lines = String::new();
        for line in note.lines() {
            let line = line.trim_end();
            match line.is_empty() {
                true => lines.push_str(&format!("{indent}{marker}\n")),
                false => lines.push_str(&format!("{indent}{marker} {line}\n")),
            }
        }
        above.entry(start).or_insert(lines);
    }
    let mut out = String::with_capacity(text.len() * 2);
    let mut at = 0;
    for (start, lines) in above {
        out.push_str(&text[at..start]);
        out.push_str(&lines);
        at = start;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// The described fields of `value`, read as `shape` says, with their paths.
fn describe(
    shape: &Shape,
    value: &RawValue<'_>,
    path: &mut Vec<Segment>,
    out: &mut Vec<(ValuePath, &'static str)>,
    depth: usize,
) {
    // Recursive types end where their values do; the depth only guards odd shapes.
    if depth > 64 {
        return;
    }
    match (shape, value) {
        (Shape::Optional(inner) | Shape::Checked(inner, _) | Shape::Spanned(inner), _) => {
            describe(&inner(), value, path, out, depth + 1)
        }
        (Shape::Struct(s), RawValue::Map(entries)) => {
            describe_fields(&s.fields, entries, path, out, depth)
        }
        (Shape::Seq(item), RawValue::Seq(items)) => {
            let item = item();
            for (i, v) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                describe(&item, v, path, out, depth + 1);
                path.pop();
            }
        }
        (Shape::Map(inner) | Shape::SpannedKeyMap(inner), RawValue::Map(entries)) => {
            let inner = inner();
            for (k, v) in entries {
                path.push(Segment::Key(k.to_string()));
                describe(&inner, v, path, out, depth + 1);
                path.pop();
            }
        }
        _ => {}
    }
}

fn describe_fields(
    fields: &[FieldShape],
    entries: &[(std::borrow::Cow<'_, str>, RawValue<'_>)],
    path: &mut Vec<Segment>,
    out: &mut Vec<(ValuePath, &'static str)>,
    depth: usize,
) {
    for field in fields {
        if field.flatten {
            // Its fields sit beside this struct's.
            if let Shape::Struct(inner) = (field.shape)() {
                describe_fields(&inner.fields, entries, path, out, depth + 1);
            }
            continue;
        }
        let Some((_, v)) = entries.iter().find(|(k, _)| k == field.name) else {
            continue;
        };
        path.push(Segment::Key(field.name.to_owned()));
        if let Some(note) = field.description {
            out.push((
                ValuePath {
                    segments: path.clone(),
                },
                note,
            ));
        }
        describe(&(field.shape)(), v, path, out, depth + 1);
        path.pop();
    }
}

/// Where the key of each path's entry is written in `text` (`None` where it has none).
fn key_spans(text: &str, format: Format, notes: &[(ValuePath, &str)]) -> Vec<Option<Span>> {
    let bytes = text.as_bytes();
    let find = |root_spans: &dyn Fn(&ValuePath) -> Option<Span>| {
        notes.iter().map(|(p, _)| root_spans(p)).collect()
    };
    match format {
        #[cfg(feature = "toml")]
        Format::Toml => match crate::toml::parse_tree(bytes) {
            Ok(doc) => find(&|p| key_of(doc.root(), p, |k: &crate::EntryKey<'_>| k.span)),
            Err(_) => vec![None; notes.len()],
        },
        #[cfg(feature = "yaml")]
        Format::Yaml => match crate::yaml::parse_tree(bytes) {
            Ok(stream) => match stream.document(0) {
                Some(doc) => {
                    find(&|p| key_of(doc.root(), p, |k: &crate::yaml::Node<'_, '_>| k.span()))
                }
                None => vec![None; notes.len()],
            },
            Err(_) => vec![None; notes.len()],
        },
        #[cfg(feature = "json")]
        Format::Jsonc => match crate::json::parse_tree_jsonc(bytes) {
            Ok(doc) => find(&|p| key_of(doc.root(), p, |k: &crate::EntryKey<'_>| k.span)),
            Err(_) => vec![None; notes.len()],
        },
        _ => vec![None; notes.len()],
    }
}

/// The span of the key of the entry at `path` under `root`.
fn key_of<'d, N: TreeNode<'d>>(
    root: N,
    path: &ValuePath,
    span: impl Fn(&N::Key) -> Span,
) -> Option<Span> {
    let (last, parents) = path.segments.split_last()?;
    let Segment::Key(name) = last else {
        return None;
    };
    let mut at = root;
    for segment in parents {
        at = match segment {
            Segment::Key(k) => at.get(k)?,
            Segment::Index(i) => at.at(*i)?,
        };
    }
    // The first entry of that name: where an array of tables' first header is.
    let mut found = None;
    for (key, child) in at.entries() {
        if at.get(name).is_some_and(|c| c.span() == child.span()) {
            found = Some(span(&key));
            break;
        }
    }
    found
}
