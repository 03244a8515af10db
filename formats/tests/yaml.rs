//! YAML through the public API: both doors, limits, errors, the emitter; and the direct
//! path (`yaml::DirectSource`), which reads what the RawValue path reads, or falls back.
#![cfg(feature = "yaml")]

mod support;

use std::path::{Path, PathBuf};

use std::borrow::Cow;

use proptest::prelude::*;
use quarry_formats::common::{Tree, TreeNode};
use quarry_formats::yaml::{self, *};
use quarry_formats::Limits;
use quarry_raw_value::{Decode, Fallback, PullSource, RawValue, TextRef, ValueKind};
use support::{map, pull, s, without_odd_entries};

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
    assert_eq!(source.read_str(), Ok(TextRef::Borrowed("five")));
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
    assert_eq!(source.next_key(true), Ok(Some(TextRef::Borrowed("plain"))));
    assert_eq!(source.read_str(), Ok(TextRef::Decoded("a\tb")));
    assert_eq!(
        source.next_key(false),
        Ok(Some(TextRef::Decoded("escaped")))
    );
    assert_eq!(source.read_str(), Ok(TextRef::Borrowed("ok")));
}

/// Whatever the RawValue path gives a meaning of its own falls back.
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

/// Every yaml-test-suite case through the direct source: what the RawValue path reads,
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

// ---------------------------------------------------------------------------------
// Both doors, limits, errors and the emitter.

fn err(input: &str) -> String {
    parse(input.as_bytes()).unwrap_err().to_string()
}

#[test]
fn block_and_flow_collections() {
    let v =
        parse(b"name: quarry\nports:\n  - 80\n  - 443\nflow: {a: [1, two], b: null}\n").unwrap();
    assert_eq!(
        v,
        map(vec![
            ("name", s("quarry")),
            (
                "ports",
                RawValue::Seq(vec![RawValue::Int(80), RawValue::Int(443)])
            ),
            (
                "flow",
                map(vec![
                    ("a", RawValue::Seq(vec![RawValue::Int(1), s("two")])),
                    ("b", RawValue::Null),
                ])
            ),
        ])
    );
    // Indentless sequence under a key, compact nested mapping in a sequence.
    let v = parse(b"k:\n- a: 1\n  b: 2\n- x\n").unwrap();
    assert_eq!(
        v,
        map(vec![(
            "k",
            RawValue::Seq(vec![
                map(vec![("a", RawValue::Int(1)), ("b", RawValue::Int(2))]),
                s("x")
            ])
        )])
    );
}

#[test]
fn scalars_borrow_when_unchanged() {
    let v =
        parse(b"a: plain text\nb: 'single'\nc: \"double\"\nd: \"esc\\n\"\ne: 'it''s'\n").unwrap();
    let RawValue::Map(entries) = v else { panic!() };
    let borrowed = |i: usize| matches!(&entries[i].1, RawValue::String(Cow::Borrowed(_)));
    assert!(borrowed(0) && borrowed(1) && borrowed(2));
    assert!(!borrowed(3) && !borrowed(4));
    assert!(matches!(entries[0].0, Cow::Borrowed("a")));
    assert_eq!(entries[3].1, s("esc\n"));
    assert_eq!(entries[4].1, s("it's"));
}

#[test]
fn double_quoted_escapes() {
    let v = parse(br#""\x41\u00e9\U0001F600\N\_\L\P\0\a\b\e\f\v\/\ \	\"\\""#).unwrap();
    assert_eq!(
        v,
        RawValue::String(
            "A\u{e9}\u{1F600}\u{85}\u{a0}\u{2028}\u{2029}\0\x07\x08\x1b\x0c\x0b/ \t\"\\".into()
        )
    );
    // Folding and an escaped line break.
    let v = parse(b"\"one\n  two\n\n  three \\\n  four\"").unwrap();
    assert_eq!(v, s("one two\nthree four"));
    assert_eq!(
        err("\"\\q\""),
        "invalid escape sequence at line 1, column 2"
    );
    assert_eq!(
        err("\"\\uD800\""),
        "invalid escape sequence at line 1, column 2"
    );
}

#[test]
fn block_scalars_and_chomping() {
    let v = parse(b"clip: |\n  a\n  b\n\nstrip: |-\n  a\n\nkeep: |+\n  a\n\n").unwrap();
    assert_eq!(
        v,
        map(vec![
            ("clip", s("a\nb\n")),
            ("strip", s("a")),
            ("keep", s("a\n\n"))
        ])
    );
    let v = parse(b"f: >\n  one\n  two\n\n  three\n   more\n  end\n").unwrap();
    assert_eq!(v, map(vec![("f", s("one two\nthree\n more\nend\n"))]));
    // An explicit indentation indicator keeps leading spaces.
    let v = parse(b"- |2-\n    indented\n   x\n").unwrap();
    assert_eq!(v, RawValue::Seq(vec![s("  indented\n x")]));
    assert_eq!(
        err("a: |0\n  x\n"),
        "invalid block scalar header at line 1, column 5"
    );
    assert_eq!(
        err("a: |\n    \n  x\n"),
        "a leading empty line of a block scalar is indented more than its content at line 2, column 1"
    );
}

#[test]
fn tags_are_honoured() {
    let v = parse(b"- !!str 123\n- !!int \"7\"\n- !!float 1\n- !!bool true\n- !!null ''\n- ! 12\n- !local 12\n- !!binary aGk=\n- !<tag:yaml.org,2002:str> 5\n").unwrap();
    assert_eq!(
        v,
        RawValue::Seq(vec![
            s("123"),
            RawValue::Int(7),
            RawValue::Float(1.0),
            RawValue::Bool(true),
            RawValue::Null,
            s("12"),
            RawValue::Int(12),
            RawValue::Bytes(Cow::Owned(b"hi".to_vec())),
            s("5"),
        ])
    );
    assert_eq!(
        err("!!int abc"),
        "the scalar does not fit its tag `!!int` at line 1, column 1"
    );
    assert_eq!(
        err("!e!x a"),
        "undefined tag handle `!e!` at line 1, column 1"
    );
    let tree = parse_tree(b"%TAG !e! tag:example.com,2000:\n---\n!e!thing%21 x\n").unwrap();
    let root = tree.document(0).unwrap().root();
    assert_eq!(root.tag().unwrap().full(), "tag:example.com,2000:thing!");
}

#[test]
fn anchors_and_aliases() {
    let v = parse(b"base: &b {x: 1}\ncopy: *b\nlist: [&s str, *s]\n").unwrap();
    assert_eq!(v.get("copy"), v.get("base"));
    assert_eq!(
        v.get("list"),
        Some(&RawValue::Seq(vec![s("str"), s("str")]))
    );
    assert_eq!(
        err("a: *nope"),
        "undefined alias `*nope` at line 1, column 4"
    );
    // An anchor cannot be used before (or inside) its own node.
    assert!(parse(b"a: &x [*x]").is_err());
}

#[test]
fn scalar_keys_keep_their_text() {
    let v = parse(b"1: a\ntrue: b\n~: c\n0x10: d\n").unwrap();
    let RawValue::Map(entries) = v else { panic!() };
    let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_ref()).collect();
    assert_eq!(keys, ["1", "true", "~", "0x10"]);
    let e = parse(b"? [a, b]\n: c\n").unwrap_err();
    assert_eq!(*e.kind(), ErrorKind::ComplexKey);
    assert_eq!((e.line(), e.column()), (1, 3));
    // The tree door holds complex keys.
    let tree = parse_tree(b"? [a, b]\n: c\n").unwrap();
    let (k, v) = tree.document(0).unwrap().root().entries().next().unwrap();
    assert_eq!((k.kind(), v.as_str()), (NodeKind::Sequence, Some("c")));
}

#[test]
fn merge_keys() {
    let src = b"base: &base {a: 1, b: 2}\nmore: &more {b: 3, c: 4}\nx:\n  <<: *base\n  b: 9\ny:\n  <<: [*more, *base]\n  d: 5\n";
    let v = parse(src).unwrap();
    assert_eq!(
        v.get("x"),
        Some(&map(vec![("a", RawValue::Int(1)), ("b", RawValue::Int(9))]))
    );
    // Earlier maps in the list win over later ones; explicit keys over both.
    assert_eq!(
        v.get("y"),
        Some(&map(vec![
            ("b", RawValue::Int(3)),
            ("c", RawValue::Int(4)),
            ("a", RawValue::Int(1)),
            ("d", RawValue::Int(5)),
        ]))
    );
    // Off: `<<` is an ordinary key.
    let v = parse_with_options(src, &Options::default().with_merge_keys(false)).unwrap();
    assert_eq!(v.get("x").and_then(|x| x.get("<<")), v.get("base"));
    // A quoted `<<` is an ordinary key too.
    let v = parse(b"a: &a {k: 1}\nb: {'<<': *a}\n").unwrap();
    assert!(v.get("b").unwrap().get("<<").is_some());
    assert_eq!(
        *parse(b"a: {<<: 1}").unwrap_err().kind(),
        ErrorKind::InvalidMerge
    );
    // The tree door looks through merges.
    let tree = parse_tree(src).unwrap();
    let root = tree.document(0).unwrap().root();
    assert_eq!(root.lookup_str("y.a").and_then(|n| n.as_i64()), Some(1));
    assert_eq!(root.lookup_str("y.b").and_then(|n| n.as_i64()), Some(3));
}

#[test]
fn streams_of_documents() {
    let src = b"%YAML 1.2\n---\na: 1\n...\n--- b\n---\n";
    let docs = parse_stream(src).unwrap();
    assert_eq!(
        docs,
        vec![map(vec![("a", RawValue::Int(1))]), s("b"), RawValue::Null]
    );
    let e = parse(src).unwrap_err();
    assert_eq!(*e.kind(), ErrorKind::MultipleDocuments);
    assert_eq!(e.line(), 5);
    assert_eq!(parse(b"").unwrap(), RawValue::Null);
    assert_eq!(parse(b"# only a comment\n").unwrap(), RawValue::Null);
    assert!(parse_stream(b"").unwrap().is_empty());
    let tree = parse_tree(src).unwrap();
    assert_eq!(tree.len(), 3);
    let first = tree.document(0).unwrap();
    assert_eq!(first.version(), Some((1, 2)));
    assert!(first.explicit_start() && first.explicit_end());
    assert_eq!(tree.document(1).unwrap().root().as_str(), Some("b"));
}

#[test]
fn errors_name_what_and_where() {
    assert_eq!(
        err("a: b: c"),
        "mapping values are not allowed here at line 1, column 5"
    );
    assert_eq!(
        err("a: 1\n b: 2\n"),
        "mapping values are not allowed here at line 2, column 3"
    );
    assert_eq!(
        err("a: 'open"),
        "unexpected end of input in a quoted scalar at line 1, column 4"
    );
    assert_eq!(
        err("a:\n\t- b"),
        "tab characters are not allowed as indentation at line 2, column 2"
    );
    assert_eq!(
        err("[a, b"),
        "unexpected end of input inside a flow collection at line 1, column 6"
    );
    assert_eq!(
        err("{a: 1]"),
        "expected `,` or `}`, found `]` at line 1, column 6"
    );
    assert_eq!(
        err("a: 1 #c\n- b"),
        "expected a mapping key, found `-` at line 2, column 1"
    );
    assert_eq!(
        err("\"a\"#c"),
        "a comment must be separated from the token before it by white space at line 1, column 4"
    );
    assert_eq!(
        err("a: 1\nkey\n"),
        "implicit key without `:` on the same line (or longer than 1024 characters) at line 2, column 1"
    );
    assert_eq!(
        err("a: \u{1}"),
        "forbidden character '\\u{1}' at line 1, column 4"
    );
    let long_key = format!("{}: v", "k".repeat(1100));
    assert_eq!(
        *parse(long_key.as_bytes()).unwrap_err().kind(),
        ErrorKind::SimpleKeyWithoutValue
    );
    let bad_utf8 = parse(b"a: \xff").unwrap_err();
    assert_eq!(*bad_utf8.kind(), ErrorKind::InvalidUtf8);
    assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
}

#[test]
fn billion_laughs_is_a_named_error() {
    let mut doc = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let prev = format!("*a{}", i - 1);
        let items = [prev.as_str(); 10].join(", ");
        doc.push_str(&format!("a{i}: &a{i} [{items}]\n"));
    }
    let e = parse(doc.as_bytes()).unwrap_err();
    assert_eq!(*e.kind(), ErrorKind::AliasExpansionLimitReached(1_000_000));
    assert!(e
        .to_string()
        .starts_with("aliases expand to more than the limit of 1000000 nodes"));
    // The same limit holds in every door, so they agree.
    assert_eq!(*check(doc.as_bytes()).unwrap_err().kind(), e.kind().clone());
    assert!(parse_tree(doc.as_bytes()).is_err());
    // Well under the limit, aliases expand.
    let small = parse(b"a: &a [1, 2]\nb: [*a, *a]\n").unwrap();
    assert_eq!(
        small
            .get("b")
            .map(|b| format!("{b:?}").matches("Int(1)").count()),
        Some(2)
    );
}

#[test]
fn deep_nesting_is_a_named_error() {
    for doc in [
        "[".repeat(10_000),
        "{a: ".repeat(10_000),
        "- ".repeat(10_000),
        (0..10_000)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect::<String>(),
    ] {
        let e = parse(doc.as_bytes()).unwrap_err();
        assert_eq!(
            *e.kind(),
            ErrorKind::DepthLimitReached(128),
            "{}",
            &doc[..10]
        );
        assert!(check(doc.as_bytes()).is_err());
        assert!(parse_tree(doc.as_bytes()).is_err());
    }
    assert!(parse(&b"[".repeat(128))
        .unwrap_err()
        .to_string()
        .starts_with("unexpected end"));
    let limits = Limits::default().with_max_depth(2);
    assert!(parse_with_limits(b"[[1]]", limits).is_ok());
    assert!(parse_with_limits(b"[[[1]]]", limits).is_err());
    let e = parse_with_limits(b"abc", Limits::default().with_max_document_size(2)).unwrap_err();
    assert_eq!(*e.kind(), ErrorKind::DocumentSizeLimitReached(2));
}

#[test]
fn tree_keeps_tags_anchors_styles_spans_and_comments() {
    let src = "# head\nbase: &b !!map {x: 'one'} # tail\nref: *b\nlit: |\n  text\n";
    let tree = parse_tree(src.as_bytes()).unwrap();
    let root = tree.document(0).unwrap().root();
    assert_eq!(root.kind(), NodeKind::Mapping);
    assert_eq!(root.collection_style(), Some(CollectionStyle::Block));
    let base = root.get("base").unwrap();
    assert_eq!(base.anchor(), Some("b"));
    assert_eq!(base.tag().and_then(|t| t.core_name()), Some("map"));
    assert_eq!(base.collection_style(), Some(CollectionStyle::Flow));
    assert_eq!(base.source_text(), "&b !!map {x: 'one'}");
    let x = base.get("x").unwrap();
    assert_eq!(x.scalar_style(), Some(ScalarStyle::SingleQuoted));
    assert_eq!(x.source_text(), "'one'");
    let r = root.entries().nth(1).unwrap().1;
    assert_eq!(r.kind(), NodeKind::Alias);
    assert_eq!(r.alias_name(), Some("b"));
    assert_eq!(r.resolve().id(), base.id());
    assert_eq!(
        root.lookup_str("ref.x").and_then(|n| n.as_str()),
        Some("one")
    );
    assert_eq!(
        root.get("lit").unwrap().scalar_style(),
        Some(ScalarStyle::Literal)
    );
    let comments: Vec<&str> = tree.comments().map(|c| c.text).collect();
    assert_eq!(comments, [" head", " tail"]);
    let tail = tree.comments().nth(1).unwrap();
    assert_eq!(tail.span.slice(src), "# tail");
    assert_eq!(
        tree.document(0).unwrap().to_raw_value().unwrap(),
        parse(src.as_bytes()).unwrap()
    );
    let path = quarry_raw_value::Path {
        segments: vec![
            quarry_raw_value::Segment::Key("base".into()),
            quarry_raw_value::Segment::Key("x".into()),
        ],
    };
    assert_eq!(root.lookup(&path).map(|n| n.id()), Some(x.id()));
}

#[test]
fn emitter_quotes_what_would_read_back_differently() {
    for text in [
        "yes",
        "no",
        "on",
        "off",
        "Yes",
        "1.0",
        "12",
        "0x1f",
        "null",
        "~",
        "true",
        "False",
        "",
        " a",
        "a ",
        "a: b",
        "a #b",
        "#x",
        "-a",
        "- a",
        "?x",
        ":x",
        "[x",
        "{x",
        "&x",
        "*x",
        "!x",
        "|x",
        ">x",
        "'x",
        "\"x",
        "%x",
        "@x",
        "`x",
        "<<",
        ".inf",
        "-.inf",
        ".nan",
        "a:",
        "---",
        "...",
        "tab\there",
        "bell\u{7}",
    ] {
        let out = to_string(&text).unwrap();
        assert!(out.starts_with('"'), "{text:?} was written {out:?}");
        assert_eq!(parse(out.as_bytes()).unwrap(), s(text), "{out:?}");
    }
    for text in ["hello world", "a-b", "x:y", "a#b", "é", "path/to/file.txt"] {
        assert_eq!(to_string(&text).unwrap(), format!("{text}\n"));
    }
    assert_eq!(to_string(&"a\nb").unwrap(), "|-\n  a\n  b\n");
    assert_eq!(to_string(&"a\nb\n").unwrap(), "|\n  a\n  b\n");
    assert_eq!(to_string(&"a\n\n").unwrap(), "|+\n  a\n\n");
    assert_eq!(to_string(&"  a\nb").unwrap(), "|2-\n    a\n  b\n");
}

/// Found by the yaml fuzz target (from `|-1` and a line of spaces): in a literal block of
/// only blank lines the spaces of the last one are content, so the indentation must be
/// explicit; written as `|-`, they were taken for indentation and read back as "".
#[test]
fn a_literal_block_of_blank_lines_gets_an_explicit_indentation() {
    assert_eq!(to_string(&"\n ").unwrap(), "|2-\n\n   \n");
    let written = to_string(&"\n ").unwrap();
    assert_eq!(
        parse(written.as_bytes()).unwrap(),
        RawValue::String("\n ".into())
    );
}

#[test]
fn emitter_block_and_flow_layouts() {
    let v =
        parse(b"a: 1\nb: [x, {c: 2, d: []}]\ne: {}\nf:\n  g: |\n    multi\n    line\n").unwrap();
    assert_eq!(
        to_string(&v).unwrap(),
        "a: 1\nb:\n  - x\n  - c: 2\n    d: []\ne: {}\nf:\n  g: |\n    multi\n    line\n"
    );
    assert_eq!(
        to_string_flow(&v).unwrap(),
        "{a: 1, b: [x, {c: 2, d: []}], e: {}, f: {g: \"multi\\nline\\n\"}}\n"
    );
    let nested = parse(b"- - a\n  - b\n- []\n").unwrap();
    assert_eq!(to_string(&nested).unwrap(), "- - a\n  - b\n- []\n");
    let docs = [RawValue::Int(1), s("two")];
    let stream = to_string_stream(&docs).unwrap();
    assert_eq!(stream, "1\n---\ntwo\n");
    assert_eq!(parse_stream(stream.as_bytes()).unwrap(), docs);
    assert_eq!(to_string(&f64::NAN).unwrap(), ".nan\n");
    assert_eq!(to_string(&f64::NEG_INFINITY).unwrap(), "-.inf\n");
    assert_eq!(to_string(&1.0f64).unwrap(), "1.0\n");
    let long_key = "k".repeat(1500);
    let v = RawValue::Map(vec![(Cow::Owned(long_key.clone()), RawValue::Int(1))]);
    assert_eq!(parse(&to_vec(&v).unwrap()).unwrap(), v);
    assert_eq!(parse(&to_vec_flow(&v).unwrap()).unwrap(), v);
}

fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        prop::sample::select(vec![
            "yes",
            "no",
            "on",
            "1.0",
            "null",
            "~",
            "true",
            " a",
            "a ",
            "a: b",
            "#x",
            "a #b",
            "-",
            "- x",
            "<<",
            "0x10",
            "1e3",
            ".5",
            "...",
            "---",
            "a\nb",
            "a\n",
            "a\n\n",
            "\n",
            "\n\na",
            "  lead\nx",
            " \nx",
            "x\n ",
            "\t",
            "a\u{85}b",
            "\u{feff}",
            "\"'\\",
            "é ü",
            "[]",
            "{}",
        ])
        .prop_map(String::from),
        "[ -~\n\t]{0,12}",
        any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ]
}

fn arb_value() -> impl Strategy<Value = RawValue<'static>> {
    let leaf = prop_oneof![
        Just(RawValue::Null),
        any::<bool>().prop_map(RawValue::Bool),
        any::<i64>().prop_map(RawValue::Int),
        (i64::MAX as u64 + 1..=u64::MAX).prop_map(RawValue::UInt),
        any::<f64>()
            .prop_filter("NaN is not equal to itself", |f| !f.is_nan())
            .prop_map(RawValue::Float),
        arb_string().prop_map(|s| RawValue::String(Cow::Owned(s))),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(RawValue::Seq),
            prop::collection::vec((arb_string(), inner), 0..5).prop_map(|entries| {
                // `<<` keys would merge when read back: they are written quoted, so keep them.
                RawValue::Map(
                    entries
                        .into_iter()
                        .map(|(k, v)| (Cow::Owned(k), v))
                        .collect(),
                )
            }),
        ]
    })
}

proptest! {
    #[test]
    fn emitted_yaml_reads_back(value in arb_value()) {
        let block = to_vec(&value).unwrap();
        let text = String::from_utf8(block.clone()).unwrap();
        prop_assert_eq!(&parse(&block).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?, &value, "{}", text);
        let flow = to_vec_flow(&value).unwrap();
        let text = String::from_utf8(flow.clone()).unwrap();
        prop_assert_eq!(&parse(&flow).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?, &value, "{}", text);
        let tree = parse_tree(&block).unwrap();
        prop_assert_eq!(&tree.document(0).unwrap().to_raw_value().unwrap(), &value);
    }
}

#[test]
fn nan_round_trips_as_nan() {
    let out = to_vec(&RawValue::Seq(vec![RawValue::Float(f64::NAN)])).unwrap();
    assert!(
        matches!(&parse(&out).unwrap(), RawValue::Seq(v) if matches!(v[0], RawValue::Float(f) if f.is_nan()))
    );
}

#[test]
fn tree_subtrees_convert_with_outside_anchors() {
    let src =
        b"defaults: &d {retries: 3}\nservices:\n  web:\n    <<: *d\n    port: 80\n  db: [*d]\n";
    let tree = parse_tree(src).unwrap();
    let root = tree.document(0).unwrap().root();
    let web = root.lookup_str("services.web").unwrap();
    assert_eq!(
        web.to_raw_value().unwrap(),
        map(vec![
            ("retries", RawValue::Int(3)),
            ("port", RawValue::Int(80))
        ])
    );
    let db = root.lookup_str("services.db").unwrap();
    assert_eq!(
        db.to_raw_value().unwrap(),
        RawValue::Seq(vec![map(vec![("retries", RawValue::Int(3))])])
    );
    assert_eq!(
        root.lookup_str("services.web.port")
            .unwrap()
            .to_raw_value()
            .unwrap(),
        RawValue::Int(80)
    );
    assert_eq!(root.to_raw_value().unwrap(), parse(src).unwrap());
}

/// Found by the yaml fuzz target: a key short as text but longer than 1024 bytes once
/// escaped was written as an implicit key, which does not read back.
#[test]
fn a_key_longer_than_1024_bytes_once_escaped_reads_back() {
    let escaped_key = "\u{14}".repeat(300);
    let v = RawValue::Map(vec![(Cow::Owned(escaped_key), RawValue::Int(1))]);
    assert_eq!(parse(&to_vec(&v).unwrap()).unwrap(), v);
    assert_eq!(parse(&to_vec_flow(&v).unwrap()).unwrap(), v);
}

/// Through the tree trait, each document of a stream has the comments after the
/// previous document's end up to its own end; the last one keeps those after it.
#[test]
fn each_document_has_its_own_comments() {
    let src = "# one\na: 1 # a\n---\n# two\nb: 2\n...\n# after\n";
    let stream = parse_tree(src.as_bytes()).unwrap();
    let texts = |i: usize| -> Vec<String> {
        let doc = stream.document(i).unwrap();
        Tree::comments(&doc).map(|c| c.text.to_owned()).collect()
    };
    assert_eq!(texts(0), [" one", " a"]);
    assert_eq!(texts(1), [" two", " after"]);
    assert_eq!(stream.comments().count(), 4);
}

/// `to_writer` hands its output over in chunks at line starts; what arrives is exactly
/// `to_vec`'s, in block and flow style, for documents and streams.
#[test]
fn to_writer_writes_in_chunks_exactly_what_to_vec_builds() {
    let item = |i: i64| {
        map(vec![
            ("id", RawValue::Int(i)),
            (
                "text",
                RawValue::String(Cow::Owned("a: b\n# c ".repeat(i as usize % 5))),
            ),
            (
                "nested",
                RawValue::Seq(
                    (0..i % 4)
                        .map(|j| map(vec![("j", RawValue::Int(j))]))
                        .collect(),
                ),
            ),
        ])
    };
    let value = RawValue::Seq((0..20_000).map(item).collect());
    let mut block = Vec::new();
    to_writer(&mut block, &value).unwrap();
    assert!(block.len() > 4 * (64 << 10));
    assert_eq!(block, to_vec(&value).unwrap());
    let mut flow = Vec::new();
    to_writer_flow(&mut flow, &value).unwrap();
    assert_eq!(flow, to_vec_flow(&value).unwrap());
    let documents = [value.clone(), map(vec![("last", RawValue::Bool(true))])];
    let mut stream = Vec::new();
    to_writer_stream(&mut stream, &documents).unwrap();
    assert_eq!(stream, to_vec_stream(&documents).unwrap());
    assert_eq!(parse_stream(&stream).unwrap(), documents);
    // Chunks, not one write.
    struct Calls(usize);
    impl std::io::Write for Calls {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += 1;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut calls = Calls(0);
    to_writer(&mut calls, &value).unwrap();
    assert!(calls.0 > 4, "{} writes", calls.0);
    let mut calls = Calls(0);
    to_writer_flow(&mut calls, &value).unwrap();
    assert!(calls.0 > 4, "{} writes in flow style", calls.0);
}

/// `parse_stream_each` hands over the documents `parse_stream` builds, one at a time;
/// returning false stops the handing but not the reading, so a later error still shows.
#[test]
fn documents_are_handed_over_one_at_a_time() {
    let src = b"a: 1\n---\n- x\n- &y y\n- *y\n---\n<<: {m: 1}\nn: 2\n";
    let mut seen = Vec::new();
    parse_stream_each(src, &Options::default(), |doc| {
        seen.push(doc);
        true
    })
    .unwrap();
    assert_eq!(seen, parse_stream(src).unwrap());
    let mut first = Vec::new();
    parse_stream_each(src, &Options::default(), |doc| {
        first.push(doc);
        false
    })
    .unwrap();
    assert_eq!(first.len(), 1);
    let bad = b"a: 1\n---\nb: [\n";
    let mut before = Vec::new();
    let err = parse_stream_each(bad, &Options::default(), |doc| {
        before.push(doc);
        true
    })
    .unwrap_err();
    assert_eq!(before, [map(vec![("a", RawValue::Int(1))])]);
    assert_eq!(err.line(), 4);
}
