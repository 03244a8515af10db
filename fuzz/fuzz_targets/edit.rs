//! `quarry::edit` on any input: no panic; an edit that succeeds leaves a document that
//! parses to the value the editor reports; one that fails leaves the text unchanged.
//! The first bytes choose the format, the path and the edit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry::edit::Document;
use quarry::{Format, RawValue};

fuzz_target!(|data: &[u8]| {
    let [format, op, pick, rest @ ..] = data else {
        return;
    };
    let format = match format % 4 {
        0 => Format::Toml,
        1 => Format::Yaml,
        2 => Format::Json,
        _ => Format::Jsonc,
    };
    let Ok(mut doc) = Document::parse(rest, format) else {
        return;
    };
    assert_eq!(doc.as_str().as_bytes(), rest, "no edit, no change");
    let Ok(Some(value)) = doc.get("") else {
        return;
    };
    let mut paths = Vec::new();
    collect(&value, String::new(), &mut paths);
    if paths.is_empty() {
        return;
    }
    let path = &paths[usize::from(*pick) % paths.len()];
    let before = doc.as_str().to_owned();
    let result = match op % 4 {
        0 => doc.set(path, 7),
        1 => doc.set(path, "new text"),
        2 => doc.remove(path),
        _ => doc.push(path, false),
    };
    match result {
        Ok(()) => {
            let reread = match format {
                Format::Yaml => quarry::edit::Document::parse(doc.as_str().as_bytes(), format)
                    .ok()
                    .and_then(|d| d.get("").ok().flatten()),
                _ => quarry::parse_raw(doc.as_str().as_bytes(), format)
                    .ok()
                    .map(RawValue::into_owned),
            };
            assert!(
                reread.is_some(),
                "an edit left text that does not parse:\n{}",
                doc.as_str()
            );
        }
        Err(_) => assert_eq!(doc.as_str(), before, "a failed edit changed the text"),
    }
});

/// Every path of `value` (not the root).
fn collect(value: &RawValue<'_>, at: String, out: &mut Vec<String>) {
    if out.len() > 64 {
        return;
    }
    match value {
        RawValue::Map(entries) => {
            for (k, v) in entries {
                let p = if at.is_empty() {
                    format!("[{k:?}]")
                } else {
                    format!("{at}[{k:?}]")
                };
                out.push(p.clone());
                collect(v, p, out);
            }
        }
        RawValue::Seq(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{at}[{i}]");
                out.push(p.clone());
                collect(v, p, out);
            }
        }
        _ => {}
    }
}
