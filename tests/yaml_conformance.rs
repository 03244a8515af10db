//! yaml-test-suite (testdata/suites/yaml): every case with an `error` file is
//! rejected; every other case parses, and when it has `in.json` its documents equal
//! those JSON texts (compared as JSON values, numbers numerically). The tree door and
//! the validator must agree with the RawValue path on every verdict. Known failures are
//! listed with a reason in tests/conformance/yaml-failures.txt: the list may only shrink.
#![cfg(feature = "yaml")]

mod support;

use std::path::{Path, PathBuf};

use quarry::yaml;
use quarry::RawValue;

/// The least number of cases that must pass.
const MINIMUM_PASSES: usize = 402;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/suites/yaml/tests")
}

/// Every case directory (one holding `in.yaml`), as `(id, path)`, sorted.
fn cases() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let dir = suite_dir();
    for entry in std::fs::read_dir(&dir).expect("testdata/suites/yaml must exist in the repository")
    {
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

/// `RawValue` as a JSON value for comparison (maps keep the last of duplicate keys).
fn to_json(value: &RawValue<'_>) -> serde_json::Value {
    use serde_json::Value;
    match value {
        RawValue::Null => Value::Null,
        RawValue::Bool(b) => Value::Bool(*b),
        RawValue::Int(i) => Value::from(*i),
        RawValue::UInt(u) => Value::from(*u),
        RawValue::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        RawValue::BigNumber(s) => s
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        RawValue::String(s) | RawValue::Text(s) => Value::String(s.to_string()),
        RawValue::Bytes(b) => Value::String(quarry::base64::encode(b)),
        RawValue::Datetime(d) => Value::String(d.to_string()),
        RawValue::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        RawValue::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), to_json(v)))
                .collect(),
        ),
    }
}

/// JSON equality with numbers compared numerically and key order ignored.
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
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

/// A `!!binary` value against the base64 text JSON holds for it.
fn same_bytes(got: &RawValue<'_>, want: &serde_json::Value) -> bool {
    match (got, want) {
        (RawValue::Bytes(b), serde_json::Value::String(s)) => {
            let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            quarry::base64::decode(&compact).as_deref() == Some(&b[..])
        }
        (RawValue::Map(entries), serde_json::Value::Object(o)) => {
            entries.len() == o.len()
                && entries.iter().all(|(k, v)| {
                    o.get(k.as_ref())
                        .is_some_and(|w| same(&to_json(v), w) || same_bytes(v, w))
                })
        }
        (RawValue::Seq(items), serde_json::Value::Array(a)) => {
            items.len() == a.len()
                && items
                    .iter()
                    .zip(a)
                    .all(|(v, w)| same(&to_json(v), w) || same_bytes(v, w))
        }
        _ => false,
    }
}

/// Writes the events of a stream in the suite's `test.event` notation.
#[derive(Default)]
struct EventWriter {
    out: String,
}

impl EventWriter {
    fn props(&mut self, props: &yaml::Props<'_>) {
        if let Some(anchor) = props.anchor {
            self.out.push_str(" &");
            self.out.push_str(anchor);
        }
        if let Some(tag) = &props.tag {
            self.out.push_str(" <");
            self.out.push_str(&tag.full());
            self.out.push('>');
        }
    }
}

impl<'a> yaml::YamlBuilder<'a> for EventWriter {
    fn document_start(&mut self, start: yaml::DocumentStart) -> Result<(), yaml::ErrorKind> {
        if self.out.is_empty() {
            self.out.push_str("+STR\n");
        }
        self.out.push_str(if start.explicit {
            "+DOC ---\n"
        } else {
            "+DOC\n"
        });
        Ok(())
    }
    fn document_end(&mut self, explicit: bool, _: quarry::Span) -> Result<(), yaml::ErrorKind> {
        self.out
            .push_str(if explicit { "-DOC ...\n" } else { "-DOC\n" });
        Ok(())
    }
    fn scalar(
        &mut self,
        value: std::borrow::Cow<'a, str>,
        style: yaml::ScalarStyle,
        props: yaml::Props<'a>,
        _: quarry::Span,
    ) -> Result<(), yaml::ErrorKind> {
        self.out.push_str("=VAL");
        self.props(&props);
        self.out.push_str(match style {
            yaml::ScalarStyle::Plain => " :",
            yaml::ScalarStyle::SingleQuoted => " '",
            yaml::ScalarStyle::DoubleQuoted => " \"",
            yaml::ScalarStyle::Literal => " |",
            yaml::ScalarStyle::Folded => " >",
        });
        for c in value.chars() {
            match c {
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\t' => self.out.push_str("\\t"),
                '\r' => self.out.push_str("\\r"),
                '\u{8}' => self.out.push_str("\\b"),
                c => self.out.push(c),
            }
        }
        self.out.push('\n');
        Ok(())
    }
    fn sequence_start(
        &mut self,
        style: yaml::CollectionStyle,
        props: yaml::Props<'a>,
        _: usize,
    ) -> Result<(), yaml::ErrorKind> {
        self.out.push_str("+SEQ");
        if style == yaml::CollectionStyle::Flow {
            self.out.push_str(" []");
        }
        self.props(&props);
        self.out.push('\n');
        Ok(())
    }
    fn sequence_end(&mut self, _: quarry::Span) -> Result<(), yaml::ErrorKind> {
        self.out.push_str("-SEQ\n");
        Ok(())
    }
    fn mapping_start(
        &mut self,
        style: yaml::CollectionStyle,
        props: yaml::Props<'a>,
        _: usize,
    ) -> Result<(), yaml::ErrorKind> {
        self.out.push_str("+MAP");
        if style == yaml::CollectionStyle::Flow {
            self.out.push_str(" {}");
        }
        self.props(&props);
        self.out.push('\n');
        Ok(())
    }
    fn mapping_end(&mut self, _: quarry::Span) -> Result<(), yaml::ErrorKind> {
        self.out.push_str("-MAP\n");
        Ok(())
    }
    fn alias(&mut self, name: &'a str, _: quarry::Span) -> Result<(), yaml::ErrorKind> {
        self.out.push_str("=ALI *");
        self.out.push_str(name);
        self.out.push('\n');
        Ok(())
    }
    fn stream_end(&mut self) -> Result<(), yaml::ErrorKind> {
        if self.out.is_empty() {
            self.out.push_str("+STR\n");
        }
        self.out.push_str("-STR\n");
        Ok(())
    }
}

/// The verdict on one case: `Ok(())` when it passes, or why not.
fn judge(
    bytes: &[u8],
    expect_error: bool,
    json: Option<&str>,
    events: Option<&str>,
) -> Result<(), String> {
    let raw = yaml::parse_stream(bytes);
    let tree = yaml::parse_tree(bytes);
    let check = yaml::check(bytes);
    if tree.is_ok() != check.is_ok() {
        return Err(format!(
            "the validator disagrees with the tree door: {:?} vs {:?}",
            check.err(),
            tree.as_ref().err()
        ));
    }
    // The RawValue path may reject what the tree accepts only for a door-specific reason.
    let door_specific = |e: &yaml::Error| {
        matches!(
            e.kind(),
            yaml::ErrorKind::ComplexKey
                | yaml::ErrorKind::InvalidTaggedScalar(_)
                | yaml::ErrorKind::InvalidMerge
        )
    };
    match (&raw, &tree) {
        (Ok(_), Err(e)) => return Err(format!("the tree door rejects: {e}")),
        (Err(e), Ok(_)) if !door_specific(e) => {
            return Err(format!(
                "the tree door accepts what the RawValue path rejects: {e}"
            ));
        }
        _ => {}
    }
    if let (Ok(raw), Ok(tree)) = (&raw, &tree) {
        let from_tree: Vec<RawValue<'_>> = tree
            .documents()
            .map(|d| d.to_raw_value().expect("the tree converts"))
            .collect();
        if format!("{from_tree:?}") != format!("{raw:?}") {
            return Err("the tree converts to other values than the RawValue path builds".into());
        }
    }
    if expect_error {
        return match tree {
            Ok(_) => Err("accepted an invalid stream".into()),
            Err(_) => Ok(()),
        };
    }
    let tree = tree.map_err(|e| format!("rejected: {e}"))?;
    if let Some(expected) = events {
        let mut writer = EventWriter::default();
        yaml::parse_with(bytes, &mut writer, quarry::Limits::default())
            .map_err(|e| format!("a custom builder fails: {e}"))?;
        if writer.out != expected {
            return Err(format!(
                "events differ:\n{}\nexpected:\n{expected}",
                writer.out
            ));
        }
    }
    let Some(json) = json else {
        return Ok(());
    };
    let raw = raw.map_err(|e| format!("the RawValue path rejects: {e}"))?;
    let expected: Vec<serde_json::Value> = serde_json::Deserializer::from_str(json)
        .into_iter::<serde_json::Value>()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("in.json does not parse: {e}"))?;
    if expected.len() != raw.len() {
        return Err(format!(
            "{} documents, expected {} (tree: {})",
            raw.len(),
            expected.len(),
            tree.len()
        ));
    }
    for (i, (got, want)) in raw.iter().zip(&expected).enumerate() {
        let got = to_json(got);
        if !same(&got, want) && !same_bytes(&raw[i], want) {
            return Err(format!("document {i} is {got}, expected {want}"));
        }
    }
    Ok(())
}

/// Runs `judge` in a thread with a deadline, catching panics.
fn run_case(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path.join("in.yaml")).unwrap();
    let expect_error = path.join("error").exists();
    let json = std::fs::read_to_string(path.join("in.json")).ok();
    let events = std::fs::read_to_string(path.join("test.event")).ok();
    support::guarded(20, move || {
        judge(&bytes, expect_error, json.as_deref(), events.as_deref())
    })
    .unwrap_or_else(|| Err("panicked or hung".into()))
}

#[test]
fn yaml_test_suite() {
    let listed_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/yaml-failures.txt"),
    )
    .unwrap_or_default();
    let listed: Vec<&str> = listed_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let cases = cases();
    let mut passed = 0;
    let mut problems = Vec::new();
    let mut failing = Vec::new();
    for (id, path) in &cases {
        match run_case(path) {
            Ok(()) => {
                passed += 1;
                if listed.contains(&id.as_str()) {
                    problems.push(format!(
                        "{id}: passes now; remove it from yaml-failures.txt"
                    ));
                }
            }
            Err(reason) => {
                failing.push(format!("{id} {reason}"));
                if reason == "panicked" || reason == "hung" || !listed.contains(&id.as_str()) {
                    problems.push(format!("{id}: {reason}"));
                }
            }
        }
    }
    for id in &listed {
        if !cases.iter().any(|(c, _)| c == id) {
            problems.push(format!("{id}: listed but no such case"));
        }
    }
    println!(
        "yaml-test-suite: quarry passes {passed} of {} cases",
        cases.len()
    );
    if std::env::var_os("YAML_SUITE_FAILURES").is_some() {
        for line in &failing {
            println!("{line}");
        }
    }
    assert_eq!(cases.len(), 402, "the suite's size changed");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(passed >= MINIMUM_PASSES, "only {passed} cases pass");
}
