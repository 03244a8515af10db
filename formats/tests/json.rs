//! Behaviour of the JSON parser, tree and writer.

use std::borrow::Cow;

use proptest::prelude::*;
use quarry_formats::json::{self, ErrorKind, NodeKind, Number};
use quarry_formats::{Limits, Tree, TreeNode};
use quarry_raw_value::{Path, RawValue};

fn err(input: &str) -> (ErrorKind, usize, usize) {
    let e = json::parse(input.as_bytes()).unwrap_err();
    (e.kind().clone(), e.line(), e.column())
}

#[test]
fn errors_name_the_problem_and_its_position() {
    assert_eq!(
        err("{\"a\": 1,}").0,
        ErrorKind::UnexpectedCharacter {
            expected: "a string key",
            found: '}'
        }
    );
    assert_eq!(
        err("[1 2]"),
        (
            ErrorKind::UnexpectedCharacter {
                expected: "`,` or `]`",
                found: '2'
            },
            1,
            4
        )
    );
    assert_eq!(
        err("{\n  \"a\" 1}"),
        (
            ErrorKind::UnexpectedCharacter {
                expected: "`:`",
                found: '1'
            },
            2,
            7
        )
    );
    assert_eq!(err("[01]"), (ErrorKind::InvalidNumber, 1, 3));
    assert_eq!(
        err("[\"é\u{1}\"]"),
        (ErrorKind::ControlCharacterInString, 1, 4)
    );
    assert_eq!(err("[1] x"), (ErrorKind::TrailingCharacters, 1, 5));
    assert_eq!(err(""), (ErrorKind::UnexpectedEnd, 1, 1));
    assert_eq!(
        err("[tru]").0,
        ErrorKind::UnexpectedCharacter {
            expected: "`true`",
            found: ']'
        }
    );
    assert_eq!(err("{\"a\":1"), (ErrorKind::UnexpectedEnd, 1, 7));
    let e = json::parse(b"[\"\xff\"]").unwrap_err();
    assert_eq!((e.kind(), e.column()), (&ErrorKind::InvalidUtf8, 3));
    assert_eq!(
        json::parse(b"{\"a\": [1,]}").unwrap_err().to_string(),
        "expected a JSON value, found `]` at line 1, column 10"
    );
}

#[test]
fn errors_are_one_pointer() {
    assert_eq!(
        std::mem::size_of::<json::Error>(),
        std::mem::size_of::<usize>()
    );
}

#[test]
fn depth_limit_is_a_clean_error() {
    let deep = "[".repeat(100_000);
    assert_eq!(
        json::parse(deep.as_bytes()).unwrap_err().kind(),
        &ErrorKind::DepthLimitReached(128)
    );
    let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
    assert!(json::parse(ok.as_bytes()).is_ok());
    let too_deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
    assert!(json::parse(too_deep.as_bytes()).is_err());
    let objects = "{\"a\":".repeat(200);
    assert_eq!(
        json::check(objects.as_bytes()).unwrap_err().kind(),
        &ErrorKind::DepthLimitReached(128)
    );
    // A raised limit is honoured, and the iterative parser needs no deep stack for it.
    let deeper = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
    let limits = Limits::default().with_max_depth(60_000);
    assert!(json::parse_with(deeper.as_bytes(), &mut (), limits).is_ok());
}

#[test]
fn document_size_limit() {
    let limits = Limits::default().with_max_document_size(4);
    let e = json::parse_with_limits(b"[1,2]", limits).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::DocumentSizeLimitReached(4));
}

#[test]
fn raw_value_borrows_plain_strings_and_keeps_duplicates() {
    let value =
        json::parse(br#"{"a": "plain", "a": "esc\"aped", "big": 123456789012345678901234567890}"#)
            .unwrap();
    let RawValue::Map(entries) = &value else {
        panic!("{value:?}")
    };
    assert_eq!(entries.len(), 3);
    assert!(matches!(
        entries[0].1,
        RawValue::String(Cow::Borrowed("plain"))
    ));
    assert!(matches!(&entries[1].1, RawValue::String(Cow::Owned(s)) if s == "esc\"aped"));
    assert!(matches!(entries[0].0, Cow::Borrowed("a")));
    assert_eq!(
        entries[2].1,
        RawValue::BigNumber("123456789012345678901234567890".into())
    );
}

#[test]
fn bom_is_skipped_but_not_alone() {
    assert_eq!(
        json::parse("\u{feff}[1]".as_bytes()).unwrap(),
        RawValue::Seq(vec![RawValue::Int(1)])
    );
    assert!(json::parse("\u{feff}".as_bytes()).is_err());
}

/// The tree keeps no key spans; entries find each key by stepping back from its value,
/// over white space, the `:` and the string (escaped quotes and backslashes included).
#[test]
fn entry_keys_carry_the_span_of_the_key_as_written() {
    let src = br#"{ "a" : 1, "b\"c" :{"\\": [true]},"d":"x" ,"": null }"#;
    let doc = json::parse_tree(src).unwrap();
    let text = std::str::from_utf8(src).unwrap();
    let keys: Vec<(&str, &str)> = doc
        .root()
        .entries()
        .map(|(k, _)| (k.name, k.span.slice(text)))
        .collect();
    assert_eq!(
        keys,
        [
            ("a", r#""a""#),
            ("b\"c", r#""b\"c""#),
            ("d", r#""d""#),
            ("", r#""""#)
        ]
    );
    let inner = doc.root().get("b\"c").unwrap();
    let (key, _) = inner.entries().next().unwrap();
    assert_eq!((key.name, key.span.slice(text)), ("\\", r#""\\""#));
    // The document through the tree trait: no comments in JSON, the same RawValue.
    assert_eq!(Tree::comments(&doc).count(), 0);
    assert_eq!(doc.to_raw_value(), json::parse(src).unwrap());
    assert_eq!(
        TreeNode::to_raw_value(Tree::root(&doc)),
        Ok(json::parse(src).unwrap())
    );
}

#[test]
fn tree_navigates_with_spans() {
    let src =
        br#"{"servers": [{"host": "a", "port": 80}, {"host": "b\n", "port": 8080}], "n": null}"#;
    let doc = json::parse_tree(src).unwrap();
    let root = doc.root();
    assert_eq!(root.kind(), NodeKind::Object);
    assert_eq!(root.len(), 2);
    let servers = root.get("servers").unwrap();
    assert_eq!(servers.kind(), NodeKind::Array);
    assert_eq!(servers.items().count(), 2);
    let host = servers.at(1).unwrap().get("host").unwrap();
    assert_eq!(host.as_str(), Some("b\n"));
    assert_eq!(host.source_text(), r#""b\n""#);
    assert_eq!(host.key(), Some("host"));
    let port = root
        .lookup(&Path::parse("servers[1].port").unwrap())
        .unwrap();
    assert_eq!(port.as_number(), Some(Number::Int(8080)));
    assert_eq!(port.span().slice(doc.source()), "8080");
    assert!(root.get("n").unwrap().is_null());
    assert!(root.lookup(&Path::parse("servers[2]").unwrap()).is_none());
    assert!(servers.get("host").is_none());
    assert!(root.at(0).is_none());
    let keys: Vec<&str> = root.entries().map(|(k, _)| k.name).collect();
    assert_eq!(keys, ["servers", "n"]);
    assert_eq!(doc.descendants().count(), doc.node_count());
    // Spans nest: every child lies inside its parent.
    for node in doc.descendants() {
        let children = node.items().chain(node.entries().map(|(_, n)| n));
        for child in children {
            assert!(node.span().start <= child.span().start && child.span().end <= node.span().end);
        }
    }
}

#[test]
fn writer_escapes_and_formats() {
    let value = json::parse(
        br#"{"s": "q\"b\\n\n\u0001\u007f\u00e9", "f": 1.5, "e": 1e300, "i": -3, "a": [], "o": {}}"#,
    )
    .unwrap();
    assert_eq!(
        json::to_string(&value).unwrap(),
        "{\"s\":\"q\\\"b\\\\n\\n\\u0001\u{7f}é\",\"f\":1.5,\"e\":1e+300,\"i\":-3,\"a\":[],\"o\":{}}"
    );
    let pretty =
        json::to_string_pretty(&json::parse(br#"{"a": [1, {"b": []}], "c": {}}"#).unwrap())
            .unwrap();
    assert_eq!(
        pretty,
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ],\n  \"c\": {}\n}"
    );
}

#[test]
fn writer_refuses_what_json_cannot_hold() {
    let value = RawValue::Map(vec![(
        Cow::Borrowed("x"),
        RawValue::Seq(vec![RawValue::Float(f64::NAN)]),
    )]);
    let e = json::to_string(&value).unwrap_err();
    assert_eq!(
        e.to_string(),
        "x[0]: JSON cannot represent the non-finite float `NaN`"
    );
    assert!(json::to_string(&RawValue::BigNumber("0xFFFFFFFFFFFFFFFFFFFF".into())).is_err());
    assert_eq!(
        json::to_string(&RawValue::Bytes(Cow::Borrowed(b"hi"))).unwrap(),
        "\"aGk=\""
    );
}

#[test]
fn agrees_with_serde_json_on_the_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus/json");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus folder testdata/corpus/json") {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let ours = json::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let theirs: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        // Written back by quarry, read by serde_json: the same value.
        let rewritten: serde_json::Value =
            serde_json::from_slice(&json::to_vec(&ours).unwrap()).unwrap();
        assert!(
            rewritten == theirs,
            "{}: quarry and serde_json disagree",
            path.display()
        );
        // The tree door gives the same RawValue as the struct door.
        assert!(
            json::parse_tree(&bytes).unwrap().root().to_raw_value() == ours,
            "{}: doors disagree",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} corpus files");
}

/// Random RawValues in the canonical form the JSON parser produces.
fn raw_value() -> impl Strategy<Value = RawValue<'static>> {
    let leaf = prop_oneof![
        Just(RawValue::Null),
        any::<bool>().prop_map(RawValue::Bool),
        any::<i64>().prop_map(RawValue::Int),
        ((i64::MAX as u64 + 1)..=u64::MAX).prop_map(RawValue::UInt),
        any::<f64>()
            .prop_filter("finite, non-integral text", |f| f.is_finite())
            .prop_map(RawValue::Float),
        "[0-9]{20,30}".prop_map(|s| RawValue::BigNumber(Cow::Owned(format!("9{s}")))),
        any::<String>().prop_map(|s| RawValue::String(Cow::Owned(s))),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(RawValue::Seq),
            prop::collection::vec((any::<String>().prop_map(Cow::Owned), inner), 0..8)
                .prop_map(RawValue::Map),
        ]
    })
}

proptest! {
    #[test]
    fn write_then_parse_gives_the_same_value(value in raw_value()) {
        let compact = json::to_vec(&value).unwrap();
        prop_assert_eq!(&json::parse(&compact).unwrap(), &value);
        let pretty = json::to_vec_pretty(&value).unwrap();
        prop_assert_eq!(&json::parse(&pretty).unwrap(), &value);
        // Both doors agree.
        prop_assert_eq!(&json::parse_tree(&compact).unwrap().root().to_raw_value(), &value);
    }

    #[test]
    fn accepts_exactly_what_serde_json_accepts(text in "[\\[\\]{}\",:0-9a-z\\\\ .eE+-]{0,24}") {
        let ours = json::parse(text.as_bytes());
        let theirs = serde_json::from_str::<serde_json::Value>(&text);
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}: {:?}", text, ours.err());
    }
}

/// Strings of every short length with each byte class at each position escape as
/// serde_json escapes them (the writer tests up to 16 bytes as two words).
#[test]
fn short_strings_escape_at_every_position() {
    let fillers = ["a", "é"];
    let specials = ["\"", "\\", "\u{0}", "\u{1f}", "\n", " ", "\u{7f}", "é", "~"];
    for filler in fillers {
        for len in 0..=18 {
            let plain = filler.repeat(len);
            assert_eq!(
                quarry_formats::json::to_string(&plain).unwrap(),
                serde_json::to_string(&plain).unwrap()
            );
            for special in specials {
                for at in 0..len {
                    let mut s: Vec<&str> = vec![filler; len];
                    s[at] = special;
                    let s = s.concat();
                    assert_eq!(
                        quarry_formats::json::to_string(&s).unwrap(),
                        serde_json::to_string(&s).unwrap(),
                        "{s:?}"
                    );
                }
            }
        }
    }
}

/// A value whose output runs over many 64 KiB chunks, with strings, numbers, nesting
/// and escapes, so chunk boundaries fall everywhere.
fn large_value() -> RawValue<'static> {
    let item = |i: i64| {
        RawValue::Map(vec![
            (Cow::Borrowed("id"), RawValue::Int(i)),
            (
                Cow::Owned(format!("key \"{i}\"")),
                RawValue::String(Cow::Owned("é\n".repeat(i as usize % 7))),
            ),
            (
                Cow::Borrowed("list"),
                RawValue::Seq(
                    (0..i % 5)
                        .map(|j| RawValue::Float(j as f64 / 3.0))
                        .collect(),
                ),
            ),
        ])
    };
    RawValue::Seq((0..20_000).map(item).collect())
}

/// `to_writer` hands its output over in chunks; what arrives is exactly `to_vec`'s.
#[test]
fn to_writer_writes_in_chunks_exactly_what_to_vec_builds() {
    let value = large_value();
    let mut compact = Vec::new();
    json::to_writer(&mut compact, &value).unwrap();
    assert!(compact.len() > 4 * (64 << 10));
    assert_eq!(compact, json::to_vec(&value).unwrap());
    let mut pretty = Vec::new();
    json::to_writer_pretty(&mut pretty, &value).unwrap();
    assert_eq!(pretty, json::to_vec_pretty(&value).unwrap());
    // Chunks, not one write: a writer that records its calls sees several.
    struct Calls(usize, Vec<u8>);
    impl std::io::Write for Calls {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += 1;
            self.1.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut calls = Calls(0, Vec::new());
    json::to_writer(&mut calls, &value).unwrap();
    assert!(calls.0 > 4, "{} writes", calls.0);
    assert_eq!(calls.1, compact);
}

#[test]
fn check_with_limits_applies_the_depth_limit() {
    let doc = "[[[[1]]]]";
    json::check_with_limits(doc.as_bytes(), Limits::default()).unwrap();
    let e =
        json::check_with_limits(doc.as_bytes(), Limits::default().with_max_depth(3)).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimitReached(3)),
        "{:?}",
        e.kind()
    );
}
