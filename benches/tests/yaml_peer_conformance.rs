//! yaml-test-suite through the peers quarry's YAML is measured against (saphyr and
//! serde_yaml), on the same rules as tests/yaml_conformance.rs: a case with an `error`
//! file must be rejected; any other must load, and with `in.json` every document must
//! equal its JSON text (numbers compared numerically, key order ignored). A panic or a
//! hang is a failure. The counts are printed for RESULTS.md, next to quarry's; nothing
//! about the peers is asserted beyond the harness running to the end.
//!
//! `cargo test -p quarry-benches --test yaml_peer_conformance -- --nocapture`

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/suites/yaml/tests")
}

fn cases() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(suite_dir()).expect("testdata/suites/yaml must exist") {
        let path = entry.unwrap().path();
        let id = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.join("in.yaml").exists() {
            out.push((id, path));
        } else if path.is_dir() {
            for sub in std::fs::read_dir(&path).unwrap() {
                let sub = sub.unwrap().path();
                if sub.join("in.yaml").exists() {
                    let name = sub.file_name().unwrap().to_str().unwrap().to_owned();
                    out.push((format!("{id}/{name}"), sub));
                }
            }
        }
    }
    out.sort();
    out
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A peer: loads every document of a stream as JSON values, or says why not.
type Loader = fn(&[u8]) -> Result<Vec<Value>, String>;

fn saphyr_to_json(y: &saphyr::Yaml<'_>) -> Value {
    use saphyr::{Scalar, Yaml};
    match y {
        Yaml::Value(Scalar::Null) | Yaml::BadValue | Yaml::Alias(_) => Value::Null,
        Yaml::Value(Scalar::Boolean(b)) => Value::Bool(*b),
        Yaml::Value(Scalar::Integer(i)) => Value::from(*i),
        Yaml::Value(Scalar::FloatingPoint(f)) => {
            serde_json::Number::from_f64(f.into_inner()).map_or(Value::Null, Value::Number)
        }
        Yaml::Value(Scalar::String(s)) => Value::String(s.to_string()),
        Yaml::Representation(s, _, _) => Value::String(s.to_string()),
        Yaml::Sequence(items) => Value::Array(items.iter().map(saphyr_to_json).collect()),
        Yaml::Mapping(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match saphyr_to_json(k) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, saphyr_to_json(v))
                })
                .collect(),
        ),
        Yaml::Tagged(_, inner) => saphyr_to_json(inner),
    }
}

fn load_saphyr(bytes: &[u8]) -> Result<Vec<Value>, String> {
    use saphyr::LoadableYamlNode;
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    let docs = saphyr::Yaml::load_from_str(text).map_err(|e| e.to_string())?;
    Ok(docs.iter().map(saphyr_to_json).collect())
}

fn load_serde_yaml(bytes: &[u8]) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for doc in serde_yaml::Deserializer::from_slice(bytes) {
        let value = serde_yaml::Value::deserialize(doc).map_err(|e| e.to_string())?;
        out.push(serde_json::to_value(&value).map_err(|e| e.to_string())?);
    }
    Ok(out)
}

fn judge(load: Loader, bytes: &[u8], expect_error: bool, json: Option<&str>) -> Result<(), String> {
    let loaded = load(bytes);
    if expect_error {
        return match loaded {
            Ok(_) => Err("accepted an invalid stream".into()),
            Err(_) => Ok(()),
        };
    }
    let docs = loaded.map_err(|e| format!("rejected: {e}"))?;
    let Some(json) = json else {
        return Ok(());
    };
    let expected: Vec<Value> = serde_json::Deserializer::from_str(json)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("in.json does not parse: {e}"))?;
    if expected.len() != docs.len() {
        return Err(format!(
            "{} documents, expected {}",
            docs.len(),
            expected.len()
        ));
    }
    for (got, want) in docs.iter().zip(&expected) {
        if !same(got, want) {
            return Err(format!("{got} instead of {want}"));
        }
    }
    Ok(())
}

fn run(name: &str, load: Loader) -> usize {
    let cases = cases();
    let mut passed = 0;
    let mut failures = Vec::new();
    for (id, path) in &cases {
        let bytes = std::fs::read(path.join("in.yaml")).unwrap();
        let expect_error = path.join("error").exists();
        let json = std::fs::read_to_string(path.join("in.json")).ok();
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            let outcome =
                std::panic::catch_unwind(|| judge(load, &bytes, expect_error, json.as_deref()));
            let _ = send.send(outcome.unwrap_or_else(|_| Err("panicked".into())));
        });
        match receive
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| Err("hung".into()))
        {
            Ok(()) => passed += 1,
            Err(reason) => failures.push(format!("{id} {reason}")),
        }
    }
    println!(
        "yaml-test-suite: {name} passes {passed} of {} cases",
        cases.len()
    );
    if std::env::var_os("YAML_SUITE_FAILURES").is_some() {
        for line in &failures {
            println!("  {line}");
        }
    }
    assert_eq!(cases.len(), 402, "the suite's size changed");
    passed
}

#[test]
fn saphyr_on_yaml_test_suite() {
    run("saphyr 0.3", load_saphyr);
}

#[test]
fn serde_yaml_on_yaml_test_suite() {
    run("serde_yaml 0.9", load_serde_yaml);
}
