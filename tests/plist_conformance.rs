//! The generated property-list suite (testdata/suites/plist): every valid XML and
//! binary fixture parses through both doors and equals its typed JSON, every invalid
//! input is rejected, nothing panics or hangs. Rules in the suite's README.
#![cfg(feature = "plist")]

mod support;

use std::path::{Path, PathBuf};

use quarry::plist::{self, Node, NodeKind};
use quarry::{Datetime, RawValue, TreeNode};
use serde_json::Value as Json;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/suites/plist")
}

#[derive(Debug)]
enum Outcome {
    Parsed(Result<(), String>),
    Rejected(String),
    Panicked,
}

/// Parses through the struct door, the tree door and the validator in a thread with a
/// deadline; they must agree. A parsed document is compared with `expected` both ways.
fn run_case(bytes: Vec<u8>, expected: Option<Json>) -> Outcome {
    support::guarded(20, move || {
        let raw = plist::parse(&bytes);
        let check = plist::check(&bytes);
        let tree = plist::parse_tree(&bytes);
        assert_eq!(raw.is_ok(), check.is_ok(), "parse and check disagree");
        assert_eq!(raw.is_ok(), tree.is_ok(), "parse and parse_tree disagree");
        match raw {
            Err(e) => Outcome::Rejected(e.to_string()),
            Ok(value) => {
                let tree = tree.expect("checked above");
                Outcome::Parsed(match &expected {
                    Some(json) => compare_raw(&value, json, "$")
                        .and_then(|()| compare_tree(tree.root(), json, "tree $"))
                        .and_then(|()| {
                            if same(&tree.to_raw_value(), &value) {
                                Ok(())
                            } else {
                                Err("the tree converts to another RawValue".into())
                            }
                        }),
                    None => Ok(()),
                })
            }
        }
    })
    .unwrap_or(Outcome::Panicked)
}

/// Equality where NaN equals NaN.
fn same(a: &RawValue<'_>, b: &RawValue<'_>) -> bool {
    match (a, b) {
        (RawValue::Float(x), RawValue::Float(y)) => {
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }
        (RawValue::Seq(x), RawValue::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (RawValue::Map(x), RawValue::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
        }
        _ => a == b,
    }
}

fn typed<'j>(json: &'j Json, path: &str) -> Result<(&'j str, &'j Json), String> {
    let object = json
        .as_object()
        .ok_or_else(|| format!("{path}: expected JSON is not an object"))?;
    let kind = object
        .get("type")
        .and_then(Json::as_str)
        .ok_or_else(|| format!("{path}: expected JSON has no type"))?;
    let value = object
        .get("value")
        .or_else(|| object.get("base64"))
        .ok_or_else(|| format!("{path}: expected JSON has no value"))?;
    Ok((kind, value))
}

/// Real comparison: expected `nan` ⇔ NaN, otherwise equal and the same sign.
fn same_real(actual: f64, expected: &str) -> bool {
    let e: f64 = expected.parse().unwrap_or(f64::NAN);
    if expected == "nan" || e.is_nan() {
        return actual.is_nan();
    }
    actual == e && actual.is_sign_negative() == e.is_sign_negative()
}

fn same_instant(actual: &Datetime, expected: &str) -> bool {
    let Ok(expected) = expected.parse::<Datetime>() else {
        return false;
    };
    plist::unix_time(actual).is_some() && plist::unix_time(actual) == plist::unix_time(&expected)
}

fn same_data(actual: &[u8], expected: &str) -> bool {
    quarry::base64::decode(expected).is_some_and(|b| b == actual)
}

/// Compares a struct-door value with the typed JSON.
fn compare_raw(value: &RawValue<'_>, json: &Json, path: &str) -> Result<(), String> {
    let (kind, expected) = typed(json, path)?;
    let mismatch = || Err(format!("{path}: found {value:?}, expected {json}"));
    let ok = match (kind, value) {
        ("dict", RawValue::Map(entries)) => {
            let object = expected.as_object().ok_or("bad expected dict")?;
            if object.len() != entries.len() {
                return mismatch();
            }
            for (key, item) in entries {
                let Some(e) = object.get(key.as_ref()) else {
                    return mismatch();
                };
                compare_raw(item, e, &format!("{path}.{key}"))?;
            }
            true
        }
        ("array", RawValue::Seq(items)) => {
            let array = expected.as_array().ok_or("bad expected array")?;
            if array.len() != items.len() {
                return mismatch();
            }
            for (i, (item, e)) in items.iter().zip(array).enumerate() {
                compare_raw(item, e, &format!("{path}[{i}]"))?;
            }
            true
        }
        ("string", RawValue::String(s)) => expected.as_str() == Some(s.as_ref()),
        ("integer", RawValue::Int(i)) => expected.as_str() == Some(i.to_string().as_str()),
        ("integer", RawValue::UInt(u)) => expected.as_str() == Some(u.to_string().as_str()),
        ("real", RawValue::Float(f)) => same_real(*f, expected.as_str().unwrap_or("")),
        ("bool", RawValue::Bool(b)) => expected.as_bool() == Some(*b),
        ("date", RawValue::Datetime(d)) => same_instant(d, expected.as_str().unwrap_or("")),
        ("data", RawValue::Bytes(b)) => same_data(b, expected.as_str().unwrap_or("")),
        ("uid", RawValue::Map(entries)) => match entries.as_slice() {
            [(key, RawValue::Int(n))] if key == plist::UID_KEY => {
                expected.as_str() == Some(n.to_string().as_str())
            }
            [(key, RawValue::UInt(n))] if key == plist::UID_KEY => {
                expected.as_str() == Some(n.to_string().as_str())
            }
            _ => false,
        },
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        mismatch()
    }
}

/// Compares a tree node with the typed JSON: the node's own type must match.
fn compare_tree(node: Node<'_, '_>, json: &Json, path: &str) -> Result<(), String> {
    let (kind, expected) = typed(json, path)?;
    let mismatch = || Err(format!("{path}: found {node:?}, expected {json}"));
    if node.kind().name() != kind {
        return mismatch();
    }
    let text = expected.as_str().unwrap_or("");
    let ok = match node.kind() {
        NodeKind::Dict => {
            let object = expected.as_object().ok_or("bad expected dict")?;
            if object.len() != node.len() {
                return mismatch();
            }
            for (key, item) in node.entries() {
                let Some(e) = object.get(key.name) else {
                    return mismatch();
                };
                compare_tree(item, e, &format!("{path}.{}", key.name))?;
            }
            true
        }
        NodeKind::Array => {
            let array = expected.as_array().ok_or("bad expected array")?;
            if array.len() != node.len() {
                return mismatch();
            }
            for (i, (item, e)) in node.items().zip(array).enumerate() {
                compare_tree(item, e, &format!("{path}[{i}]"))?;
            }
            true
        }
        NodeKind::String => node.as_str() == Some(text),
        NodeKind::Integer => node.as_integer().map(|i| i.to_string()).as_deref() == Some(text),
        NodeKind::Real => node.as_f64().is_some_and(|f| same_real(f, text)),
        NodeKind::Bool => node.as_bool() == expected.as_bool(),
        NodeKind::Date => node.as_date().is_some_and(|d| same_instant(&d, text)),
        NodeKind::Data => node.as_data().is_some_and(|d| same_data(d, text)),
        NodeKind::Uid => node.as_uid().map(|u| u.to_string()).as_deref() == Some(text),
    };
    if ok {
        Ok(())
    } else {
        mismatch()
    }
}

#[test]
fn every_valid_fixture_equals_its_json_and_every_invalid_input_is_rejected() {
    let dir = suite_dir();
    let manifest: Json =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("manifest"))
            .expect("manifest parses");
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for group in ["valid", "valid-xml-only", "valid-binary-only"] {
        let (mut passed, mut total) = (0, 0);
        for case in manifest[group].as_array().expect("manifest group") {
            let expected: Json = serde_json::from_slice(
                &std::fs::read(dir.join(case["expected"].as_str().expect("expected")))
                    .expect("expected JSON"),
            )
            .expect("expected JSON parses");
            for file in case["files"].as_array().expect("files") {
                let file = file.as_str().expect("file name");
                total += 1;
                let bytes = std::fs::read(dir.join(file)).expect("fixture");
                match run_case(bytes, Some(expected.clone())) {
                    Outcome::Parsed(Ok(())) => passed += 1,
                    Outcome::Parsed(Err(why)) => failures.push(format!("{file}: {why}")),
                    Outcome::Rejected(e) => failures.push(format!("{file}: rejected: {e}")),
                    Outcome::Panicked => failures.push(format!("{file}: panicked or hung")),
                }
            }
        }
        println!("plist {group}: {passed}/{total} equal their JSON");
        counts.push((passed, total));
    }
    let (mut rejected, mut total) = (0, 0);
    for case in manifest["invalid"].as_array().expect("invalid list") {
        let file = case["file"].as_str().expect("file name");
        total += 1;
        let bytes = std::fs::read(dir.join(file)).expect("fixture");
        match run_case(bytes, None) {
            Outcome::Rejected(_) => rejected += 1,
            Outcome::Parsed(_) => failures.push(format!("{file}: accepted")),
            Outcome::Panicked => failures.push(format!("{file}: panicked or hung")),
        }
    }
    println!("plist invalid: {rejected}/{total} rejected");
    counts.push((rejected, total));
    for failure in &failures {
        println!("FAIL {failure}");
    }
    assert_eq!(
        counts,
        vec![(116, 116), (17, 17), (11, 11), (45, 45)],
        "{} failures",
        failures.len()
    );
}
