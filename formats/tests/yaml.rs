//! The YAML direct path (`yaml::DirectSource`): it reads what the RawValue door reads,
//! or falls back.
#![cfg(feature = "yaml")]

mod support;

use std::path::{Path, PathBuf};

use quarry_formats::yaml::{self, DirectSource, Options};
use quarry_formats::Limits;
use quarry_raw_value::{Decode, Fallback, PullSource, RawValue, Text, ValueKind};
use support::{pull, without_odd_entries};

/// Reads `input` whole through the direct source; `None` when it falls back.
fn pulled(input: &[u8], skip_odd: bool) -> Option<RawValue<'_>> {
    let mut source = DirectSource::with_options(input, &Options::default()).ok()?;
    let value = pull(&mut source, skip_odd).ok()?;
    source.finish().is_ok().then_some(value)
}

fn direct(input: &str) -> DirectSource<'_> {
    DirectSource::with_options(input.as_bytes(), &Options::default()).unwrap()
}

const EVERY_SHAPE: &str = r#"
# a comment
name: quarry
version: "1.2"
count: 42
negative: -7
hex: 0x1F
octal: 0o17
big: 123456789012345678901234567890
ratio: 2.5
inf: -.inf
on: true
off: False
nothing: ~
empty:
single: 'it''s'
double: "tab\there \u00e9"
folded_plain: a plain scalar
  on two lines
literal: |
  line one
  line two
folded: >-
  folded
  text
1: a numeric key
"quoted key": x
list:
  - a
  - 1
  - [x, {y: z}, []]
  - {}
  - - nested
    - list
people:
  - name: Ada
    tags: [math, engines]
  - name: Grace
    address:
      city: Arlington
flow: {a: 1, b: [true, null], "c": 'd'}
"#;

#[test]
fn direct_source_reads_what_the_raw_value_door_reads() {
    let expected = yaml::parse(EVERY_SHAPE.as_bytes()).unwrap();
    assert_eq!(
        pulled(EVERY_SHAPE.as_bytes(), false),
        Some(expected.clone())
    );
    assert_eq!(
        pulled(EVERY_SHAPE.as_bytes(), true),
        Some(without_odd_entries(expected.clone()))
    );
    // A type without a direct decoder reads the root through `read_raw`.
    let mut source = direct(EVERY_SHAPE);
    assert_eq!(source.read_raw(), Ok(expected.clone()));
    assert!(source.finish().is_ok());
    // And `RawValue`'s own direct decoder reads it the same.
    let mut source = direct(EVERY_SHAPE);
    assert_eq!(RawValue::decode_direct(&mut source), Ok(expected));
    assert!(source.finish().is_ok());
}

#[test]
fn direct_source_resolves_plain_scalars_by_the_core_schema() {
    let mut source =
        direct("[1, -2, 0x10, 2.5, .nan, true, NULL, ~, '', text, '7', 99999999999999999999]");
    source.begin_array().unwrap();
    let mut kinds = Vec::new();
    while source.next_item(kinds.is_empty()).unwrap() {
        kinds.push(source.peek_token().unwrap());
        source.skip_value().unwrap();
    }
    use ValueKind::*;
    assert_eq!(
        kinds,
        [
            Number, Number, Number, Number, Number, Bool, Null, Null, String, String, String,
            Number
        ]
    );

    let mut source = direct("- 12\n- -3\n- 0o17\n- '5'\n- five\n- 18446744073709551615\n");
    source.begin_array().unwrap();
    source.next_item(true).unwrap();
    assert_eq!(source.read_u64(), Ok(12));
    source.next_item(false).unwrap();
    assert_eq!(source.read_i64(), Ok(-3));
    source.next_item(false).unwrap();
    assert_eq!(source.read_i64(), Ok(15));
    // A quoted number is a string: reading it as a number falls back.
    source.next_item(false).unwrap();
    assert_eq!(source.read_i64(), Err(Fallback));
    let mut source = direct("- five\n- 18446744073709551615\n- 3\n- null\n");
    source.begin_array().unwrap();
    source.next_item(true).unwrap();
    assert_eq!(source.read_str(), Ok(Text::Borrowed("five")));
    source.next_item(false).unwrap();
    assert_eq!(source.read_u64(), Ok(u64::MAX));
    // A plain number is no string, and `null` no string either.
    source.next_item(false).unwrap();
    assert_eq!(source.read_str(), Err(Fallback));
    let mut source = direct("null");
    assert_eq!(source.read_string(), Err(Fallback));
}

#[test]
fn direct_source_borrows_keys_and_strings_unless_rewritten() {
    let mut source = direct("plain: \"a\\tb\"\n\"esc\\u0061ped\": ok\nfolded\n  key: v\n");
    source.begin_object().unwrap();
    assert_eq!(source.next_key(true), Ok(Some(Text::Borrowed("plain"))));
    assert_eq!(source.read_str(), Ok(Text::Decoded("a\tb")));
    assert_eq!(source.next_key(false), Ok(Some(Text::Decoded("escaped"))));
    assert_eq!(source.read_str(), Ok(Text::Borrowed("ok")));
}

/// Whatever the RawValue door gives a meaning of its own falls back.
#[test]
fn direct_source_falls_back_on_what_the_raw_value_door_resolves() {
    for input in [
        // Aliases and anchors.
        "a: &x 1\nb: *x\n",
        "a: &x {k: v}\n",
        // Tags.
        "a: !!str 1\n",
        "a: !custom {k: v}\n",
        // A merge key, read or skipped.
        "base: &b {x: 1}\nitem:\n  <<: *b\n",
        "a: 1\nskipped:\n  <<: {x: 1}\n",
        // A collection as a key, read or skipped.
        "? [a, b]\n: c\n",
        "a: 1\nskipped:\n  ? {k: v}\n  : x\n",
        // A second document.
        "a: 1\n---\nb: 2\n",
        // Errors.
        "a: [1, 2\n",
        "a: 1\n b: 2\n",
        "",
        // An error, then what would scan after it: the source stays failed.
        "--- |0\n",
        "a: |0\nb: 1\n",
    ] {
        assert_eq!(pulled(input.as_bytes(), false), None, "{input:?}");
        assert_eq!(pulled(input.as_bytes(), true), None, "{input:?}");
    }
    // With merge keys off, `<<` is an ordinary key.
    let off = Options::default().with_merge_keys(false);
    let input = b"a: 1\n<<: 2\n";
    let mut source = DirectSource::with_options(input, &off).unwrap();
    let value = pull(&mut source, false).unwrap();
    assert!(source.finish().is_ok());
    assert_eq!(value, yaml::parse_with_options(input, &off).unwrap());
}

#[test]
fn direct_source_keeps_the_parsers_limits() {
    let deep = "[".repeat(10_000);
    assert_eq!(pulled(deep.as_bytes(), false), None);
    let limits = Limits::default().with_max_depth(2);
    let input = b"a:\n  b:\n    c: 1\n";
    let options = Options::default().with_limits(limits);
    let mut source = DirectSource::with_options(input, &options).unwrap();
    assert_eq!(pull(&mut source, false), Err(Fallback));
    let too_big = Limits::default().with_max_document_size(4);
    assert!(DirectSource::with_options(input, &Options::default().with_limits(too_big)).is_err());
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/suites/yaml/tests")
}

/// Every `in.yaml` of yaml-test-suite.
fn suite_inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(suite_dir()).expect("testdata/suites/yaml") {
        let path = entry.unwrap().path();
        if path.join("in.yaml").exists() {
            out.push(path.join("in.yaml"));
        } else if path.is_dir() {
            for sub in std::fs::read_dir(&path).unwrap() {
                let sub = sub.unwrap().path();
                if sub.join("in.yaml").exists() {
                    out.push(sub.join("in.yaml"));
                }
            }
        }
    }
    out.sort();
    out
}

/// Every yaml-test-suite case through the direct source: what the RawValue door reads,
/// the direct source reads the same (or falls back); what it rejects always falls back.
#[test]
fn direct_source_agrees_with_the_raw_value_door_on_yaml_test_suite() {
    let (mut direct, mut read, mut rejected) = (0, 0, 0);
    for file in suite_inputs() {
        let bytes = std::fs::read(&file).unwrap();
        let name = file.display();
        match yaml::parse(&bytes) {
            Ok(expected) => {
                read += 1;
                // Compared as debug text, so NaN equals NaN.
                if let Some(value) = pulled(&bytes, false) {
                    direct += 1;
                    assert_eq!(format!("{value:?}"), format!("{expected:?}"), "{name}");
                    if let Some(skipped) = pulled(&bytes, true) {
                        let expected = without_odd_entries(expected.clone());
                        assert_eq!(format!("{skipped:?}"), format!("{expected:?}"), "{name}");
                    }
                    let mut source =
                        DirectSource::with_options(&bytes, &Options::default()).unwrap();
                    let raw = source.read_raw().unwrap();
                    assert!(source.finish().is_ok(), "{name}");
                    assert_eq!(format!("{raw:?}"), format!("{expected:?}"), "{name}");
                }
            }
            Err(_) => {
                rejected += 1;
                assert_eq!(pulled(&bytes, false), None, "{name}");
                assert_eq!(pulled(&bytes, true), None, "{name}");
            }
        }
    }
    println!("yaml-test-suite through the direct source: {direct}/{read} read directly, {rejected} rejected all fell back");
    assert_eq!(read + rejected, 402);
    assert!(direct >= 200, "only {direct} of {read} read directly");
}
