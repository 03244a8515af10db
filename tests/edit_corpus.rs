//! Every entry of every document of the conformance suites and the corpus, deleted, and
//! every scalar set: each edit must succeed (or be refused for going through a YAML alias),
//! read back as the old value with exactly that change, and leave every byte outside the
//! edited entry as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quarry::decode::{Path as ValuePath, Segment};
use quarry::edit::{Document, EditError};
use quarry::{Format, RawValue, Span, TreeNode};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// An entry of a document: its path, where its key (or item) and value stand.
struct Spot {
    path: Vec<Segment>,
    start: usize,
    end: usize,
}

/// Every addressable entry under `node`, and every key and value span in `spans`.
fn collect<'d, N: TreeNode<'d>>(
    node: N,
    path: &mut Vec<Segment>,
    key: &impl Fn(&N::Key) -> Option<(String, Span)>,
    spots: &mut Vec<Spot>,
    spans: &mut Vec<Span>,
) {
    spans.push(node.span());
    let entries: Vec<(N::Key, N)> = node.entries().collect();
    let names: Vec<Option<(String, Span)>> = entries.iter().map(|(k, _)| key(k)).collect();
    for ((_, child), name) in entries.iter().zip(&names) {
        let Some((name, span)) = name else { continue };
        spans.push(*span);
        // A repeated key is not one entry a path can name.
        let repeated = names.iter().flatten().filter(|(n, _)| n == name).count() > 1;
        path.push(Segment::Key(name.clone()));
        if !repeated {
            spots.push(Spot {
                path: path.clone(),
                start: span.start.min(child.span().start),
                end: child.span().end,
            });
        }
        collect(*child, path, key, spots, spans);
        path.pop();
    }
    for (i, child) in node.items().enumerate() {
        path.push(Segment::Index(i));
        spots.push(Spot {
            path: path.clone(),
            start: child.span().start,
            end: child.span().end,
        });
        collect(child, path, key, spots, spans);
        path.pop();
    }
}

fn value_at<'v>(value: &'v RawValue<'static>, path: &[Segment]) -> Option<&'v RawValue<'static>> {
    let mut at = value;
    for segment in path {
        at = match (at, segment) {
            (RawValue::Map(entries), Segment::Key(k)) => {
                &entries.iter().find(|(key, _)| key == k)?.1
            }
            (RawValue::Seq(items), Segment::Index(i)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// The value with the entry at `path` removed, or replaced by `new`.
fn changed(
    value: &RawValue<'static>,
    path: &[Segment],
    new: Option<&RawValue<'static>>,
) -> Option<RawValue<'static>> {
    let mut value = value.clone();
    let (last, parents) = path.split_last()?;
    let mut at = &mut value;
    for segment in parents {
        at = match (at, segment) {
            (RawValue::Map(entries), Segment::Key(k)) => {
                &mut entries.iter_mut().find(|(key, _)| key == k)?.1
            }
            (RawValue::Seq(items), Segment::Index(i)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    match (at, last, new) {
        (RawValue::Map(entries), Segment::Key(k), None) => {
            let i = entries.iter().position(|(key, _)| key == k)?;
            entries.remove(i);
        }
        (RawValue::Seq(items), Segment::Index(i), None) => {
            items.get(*i)?;
            items.remove(*i);
        }
        (RawValue::Map(entries), Segment::Key(k), Some(new)) => {
            entries.iter_mut().find(|(key, _)| key == k)?.1 = new.clone();
        }
        (RawValue::Seq(items), Segment::Index(i), Some(new)) => *items.get_mut(*i)? = new.clone(),
        _ => return None,
    }
    Some(value)
}

/// Equal values, a NaN equal to a NaN; with `ordered` false, maps are equal whatever the
/// order of their keys (a TOML table is unordered: removing `a.x = 1` from above
/// `b.x = 2` leaves `b` mentioned first).
fn same(a: &RawValue<'_>, b: &RawValue<'_>, ordered: bool) -> bool {
    match (a, b) {
        (RawValue::Float(x), RawValue::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (RawValue::Map(x), RawValue::Map(y)) if ordered => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, v), (k2, w))| k == k2 && same(v, w, ordered))
        }
        (RawValue::Map(x), RawValue::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.iter()
                        .find(|(k2, _)| k2 == k)
                        .is_some_and(|(_, w)| same(v, w, ordered))
                })
        }
        (RawValue::Seq(x), RawValue::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w, ordered))
        }
        _ => a == b,
    }
}

/// The changed bytes of `old` (one range, aligned to the front or to the back).
fn changed_ranges(old: &[u8], new: &[u8]) -> [(usize, usize); 2] {
    let min = old.len().min(new.len());
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let front = (prefix, old.len() - suffix.min(min - prefix));
    let back_prefix = prefix.min(min - suffix.min(min));
    let back = (back_prefix, old.len() - suffix.min(min));
    [front, back]
}

/// The start of the line that holds `pos`.
fn line_start(bytes: &[u8], pos: usize) -> usize {
    bytes[..pos]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

/// `line` (a line start) moved up over the comment lines directly above it.
fn comments_above(bytes: &[u8], mut line: usize) -> usize {
    while line > 0 {
        let above = line_start(bytes, line - 1);
        let text = String::from_utf8_lossy(&bytes[above..line]);
        let text = text.trim();
        if !(text.starts_with('#') || text.starts_with("//")) {
            break;
        }
        line = above;
    }
    line
}

#[derive(Default, Debug)]
struct Tally {
    deleted: usize,
    set: usize,
    anchors: usize,
    failed: Vec<String>,
}

/// How many entries of one document are edited (spread evenly over it): all of a small
/// document, fewer of a larger one, so that the test takes seconds in a debug build.
fn budget(len: usize) -> usize {
    (2_000_000 / len.max(1)).clamp(10, 80)
}

/// The corpus files larger than this are benchmark inputs of one repeated shape; the
/// smaller ones hold every shape.
const LARGEST: usize = 256 * 1024;

fn edit_document(
    name: &str,
    bytes: &[u8],
    format: Format,
    index: usize,
    (spots, mut spans): (Vec<Spot>, Vec<Span>),
    value: RawValue<'static>,
    tally: &mut Tally,
) {
    spans.sort_by_key(|s| (s.start, s.end));
    let step = spots.len().div_ceil(budget(bytes.len())).max(1);
    for spot in spots.into_iter().step_by(step) {
        let path = ValuePath {
            segments: spot.path.clone(),
        };
        let text = path.to_string();
        if ValuePath::parse(&text).as_ref() != Some(&path) {
            continue;
        }
        let Some(old) = value_at(&value, &spot.path) else {
            continue;
        };
        let scalar = !matches!(old, RawValue::Map(_) | RawValue::Seq(_));
        // Outside the entry: up to the end of whatever precedes it and from the start of
        // whatever follows it.
        // (An empty span at the entry's edge is its own empty key or value.)
        let before = spans
            .iter()
            .filter(|s| s.end <= spot.start && !(s.start == s.end && s.end == spot.start))
            .map(|s| s.end)
            .max()
            .unwrap_or(0);
        let after = spans
            .iter()
            .filter(|s| s.start >= spot.end && !(s.start == s.end && s.start == spot.end))
            .map(|s| s.start)
            .min()
            .unwrap_or(bytes.len());
        let new_value = RawValue::String("edited value".into());
        let mut edits: Vec<Option<&RawValue<'static>>> = vec![None];
        if scalar {
            edits.push(Some(&new_value));
        }
        for new in edits {
            let mut doc = match format {
                Format::Yaml => Document::parse_yaml_document(bytes, index).unwrap(),
                _ => Document::parse(bytes, format).unwrap(),
            };
            let what = if new.is_some() { "set" } else { "delete" };
            let result = match new {
                None => doc.remove(&text),
                Some(v) => doc.set(&text, v.clone()),
            };
            match result {
                Ok(()) => {}
                Err(EditError::Anchor { .. }) => {
                    tally.anchors += 1;
                    continue;
                }
                Err(e) => {
                    tally
                        .failed
                        .push(format!("{name}#{index} {what} {text}: {e}"));
                    continue;
                }
            }
            let out = doc.to_vec();
            let read = match format {
                Format::Yaml => quarry::yaml::parse_stream(&out)
                    .ok()
                    .and_then(|docs| docs.into_iter().nth(index))
                    .map(RawValue::into_owned),
                _ => quarry::parse_raw(&out, format)
                    .ok()
                    .map(RawValue::into_owned),
            };
            let expected = changed(&value, &spot.path, new);
            let ordered = format != Format::Toml;
            if read.is_none()
                || expected.is_none()
                || !same(&read.unwrap(), &expected.unwrap(), ordered)
            {
                tally
                    .failed
                    .push(format!("{name}#{index} {what} {text}: another value"));
                continue;
            }
            // The change may slide between its leftmost and rightmost alignment (a
            // removed `"a": 1, ` reads as well as `a": 1, "`): some alignment must fit.
            let [(r0, r1), (l0, _)] = changed_ranges(bytes, &out);
            let width = r1 - r0;
            // A TOML table's text is not one span (a section runs to the next header,
            // dotted keys are spread over lines): only its value is checked.
            let spread = format == Format::Toml
                && match old {
                    RawValue::Map(_) => true,
                    RawValue::Seq(items) => {
                        !items.is_empty() && items.iter().all(|i| matches!(i, RawValue::Map(_)))
                    }
                    _ => false,
                };
            // The entry's own line belongs to it: its indentation, in YAML the `- ` and
            // `? ` indicators and the properties (`&anchor`, `!tag`) before it, and in
            // TOML the first parts of its dotted key.
            let indicators = |text: &str| {
                text.split_whitespace()
                    .all(|token| matches!(token, "-" | "?") || token.starts_with(['&', '!']))
            };
            let mut line = line_start(bytes, spot.start);
            let prefix = String::from_utf8_lossy(&bytes[line..spot.start]);
            let indented = match format {
                Format::Yaml => indicators(&prefix),
                _ => prefix.trim().is_empty(),
            };
            // A YAML item's `-` alone on the line above (`-` over `  key: value`).
            if format == Format::Yaml && indented && line > 0 {
                let above = line_start(bytes, line - 1);
                let text = String::from_utf8_lossy(&bytes[above..line]);
                if !text.trim().is_empty() && indicators(&text) {
                    line = above;
                }
            }
            // A removed entry takes the comment lines directly above it with it.
            let top = match new {
                None => comments_above(bytes, line),
                Some(_) => line,
            };
            let before = match format {
                Format::Toml => before.min(top),
                _ if indented => before.min(top),
                _ => before,
            };
            let p = l0.max(before);
            let fits = spread || (p <= r0 && p + width <= after);
            if !fits {
                let [(a, b), _] = changed_ranges(bytes, &out);
                tally.failed.push(format!(
                    "{name}#{index} {what} {text}: bytes outside the entry changed \
                     ({before}..{after} may change, {a}..{b} did: {:?})",
                    String::from_utf8_lossy(
                        &bytes[a.saturating_sub(20)..(b + 20).min(bytes.len())]
                    )
                ));
                continue;
            }
            match new {
                None => tally.deleted += 1,
                Some(_) => tally.set += 1,
            }
        }
    }
}

#[test]
fn every_entry_deletes_and_every_scalar_sets_in_place() {
    let mut files = Vec::new();
    files_under(&root().join("suites/toml/tests/valid"), &mut files);
    files_under(&root().join("suites/json/test_parsing"), &mut files);
    files_under(&root().join("suites/yaml/tests"), &mut files);
    for format in ["toml", "json", "yaml"] {
        files_under(&root().join("corpus").join(format), &mut files);
    }
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    for path in &files {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let file_name = path.file_name().unwrap().to_str().unwrap();
        let format = match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => Format::Toml,
            Some("json") if file_name.starts_with("y_") || name.starts_with("corpus") => {
                Format::Json
            }
            Some("yaml" | "yml") => Format::Yaml,
            _ => continue,
        };
        let bytes = std::fs::read(path).unwrap();
        if bytes.len() > LARGEST {
            continue;
        }
        if std::str::from_utf8(&bytes).is_err() || Document::parse(&bytes, format).is_err() {
            continue;
        }
        let tally = tallies.entry(format.name()).or_default();
        match format {
            Format::Yaml => {
                let Ok(stream) = quarry::yaml::parse_tree(&bytes) else {
                    continue;
                };
                let Ok(values) = quarry::yaml::parse_stream(&bytes) else {
                    continue;
                };
                for (index, value) in values.into_iter().enumerate() {
                    let Some(doc) = stream.document(index) else {
                        continue;
                    };
                    let (mut spots, mut spans) = (Vec::new(), Vec::new());
                    collect(
                        doc.root(),
                        &mut Vec::new(),
                        &|k: &quarry::yaml::Node<'_, '_>| Some((k.as_str()?.to_owned(), k.span())),
                        &mut spots,
                        &mut spans,
                    );
                    edit_document(
                        &name,
                        &bytes,
                        format,
                        index,
                        (spots, spans),
                        value.into_owned(),
                        tally,
                    );
                }
            }
            Format::Toml => {
                let doc = quarry::toml::parse_tree(&bytes).unwrap();
                let value = quarry::parse_raw(&bytes, format).unwrap().into_owned();
                let (mut spots, mut spans) = (Vec::new(), Vec::new());
                collect(
                    doc.root(),
                    &mut Vec::new(),
                    &|k: &quarry::EntryKey<'_>| Some((k.name.to_owned(), k.span)),
                    &mut spots,
                    &mut spans,
                );
                edit_document(&name, &bytes, format, 0, (spots, spans), value, tally);
            }
            _ => {
                let doc = quarry::json::parse_tree(&bytes).unwrap();
                let value = quarry::parse_raw(&bytes, format).unwrap().into_owned();
                let (mut spots, mut spans) = (Vec::new(), Vec::new());
                collect(
                    doc.root(),
                    &mut Vec::new(),
                    &|k: &quarry::EntryKey<'_>| Some((k.name.to_owned(), k.span)),
                    &mut spots,
                    &mut spans,
                );
                edit_document(&name, &bytes, format, 0, (spots, spans), value, tally);
            }
        }
    }
    for (format, tally) in &tallies {
        eprintln!(
            "{format}: {} deleted, {} set, {} refused at an anchor, {} failed",
            tally.deleted,
            tally.set,
            tally.anchors,
            tally.failed.len()
        );
        for failure in tally.failed.iter() {
            eprintln!("  {failure}");
        }
    }
    // No edit fails. Every count is exact: a change in the corpus or the suites, or in
    // which edits are refused at an anchor (YAML only: through an alias, of an anchored
    // node aliases refer to, or of a key a `<<` merge also gives), is seen here.
    // (format, removals, sets, refusals at an anchor)
    for (format, deleted, set, anchors) in [
        ("json", 202, 177, 0),
        ("toml", 1998, 1220, 0),
        ("yaml", 1072, 759, 88),
    ] {
        let tally = &tallies[format];
        assert!(tally.failed.is_empty(), "{format}: {:#?}", tally.failed);
        assert_eq!(
            (tally.deleted, tally.set, tally.anchors),
            (deleted, set, anchors),
            "{format}"
        );
    }
}
