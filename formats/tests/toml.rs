//! Behaviour of the TOML parser, tree and writer.
#![cfg(feature = "toml")]

mod support;

use std::borrow::Cow;

use proptest::prelude::*;
use quarry_formats::toml::{self, ErrorKind, NodeKind, StringKind, TableKind};
use quarry_formats::{Limits, TreeNode};
use quarry_raw_value::{Datetime, Decode, Fallback, Path, PullSource, RawValue, TextRef};
use support::{map, pull, without_odd_entries};

fn err(input: &str) -> (String, usize, usize) {
    let e = toml::parse(input.as_bytes()).unwrap_err();
    (e.kind().to_string(), e.line(), e.column())
}

#[test]
fn errors_name_the_problem_and_its_position() {
    assert_eq!(err("a = 1\na = 2"), ("duplicate key `a`".into(), 2, 1));
    assert_eq!(err("[a]\n[a]"), ("table `a` defined twice".into(), 2, 1));
    assert_eq!(
        err("a = {x = 1}\n[a.b]"),
        ("cannot add to `a`: it is an inline table".into(), 2, 1)
    );
    assert_eq!(
        err("a = [1]\n[[a]]"),
        ("cannot add to `a`: it is a static array".into(), 2, 1)
    );
    assert_eq!(
        err("[a.b.c]\nz = 9\n[a]\nb.c.t = 1"),
        (
            "cannot add to `b`: it is a table defined by a header".into(),
            4,
            1
        )
    );
    assert_eq!(err("a = 01"), ("invalid number".into(), 1, 5));
    assert_eq!(
        err("a = 9223372036854775808"),
        ("integer does not fit in 64 bits".into(), 1, 5)
    );
    assert_eq!(
        err("a = 1 b = 2"),
        ("expected a newline after the value".into(), 1, 7)
    );
    assert_eq!(err("a = \"x"), ("unterminated string".into(), 1, 5));
    assert_eq!(err("a = \"\\e\""), ("invalid escape sequence".into(), 1, 6));
    // After a first escape, the rest of a string is decoded run by run: its errors are
    // still named where they are.
    let pad = "p".repeat(40);
    assert_eq!(
        err(&format!("a = \"\\n{pad}\\uD800\"")),
        ("unicode escape is not a Unicode scalar value".into(), 1, 48)
    );
    assert_eq!(
        err(&format!("a = \"\\t{pad}\\q\"")),
        ("invalid escape sequence".into(), 1, 48)
    );
    assert_eq!(
        err(&format!("a = \"\\t{pad}\u{7f}\"")),
        ("control character (escape it)".into(), 1, 48)
    );
    assert_eq!(err("a = \"\\tx\ny\""), ("unterminated string".into(), 1, 5));
    assert_eq!(err("a = \"\\tx"), ("unterminated string".into(), 1, 5));
    assert_eq!(err("a = 1979-02-30"), ("invalid date or time".into(), 1, 5));
    assert_eq!(err("a = {x = 1,}").0, "expected a key, found `}`");
    assert_eq!(err("a = {\nx = 1}").0, "expected a key, found '\\n'");
    assert_eq!(err("a =").0, "expected a value, found the end of input");
    assert_eq!(
        err("[[a]]\n[a]").0,
        "cannot add to `a`: it is an array of tables"
    );
    assert_eq!(err("a.b = 1\n[a]").0, "table `a` defined twice");
    assert_eq!(err("# \u{7f}").0, "control character (escape it)");
    // Comments are scanned many bytes a step: a control character past the first
    // sixteen or 32 bytes, after a backslash and a tab, is still found where it is.
    let long = format!("a = 1 # {}\\ \t{}\u{1}x\n", "c".repeat(40), "d".repeat(30));
    assert_eq!(err(&long), ("control character (escape it)".into(), 1, 82));
    let doc = toml::parse_tree(
        b"# back\\slash \t tab \xc3\xa9 and more than thirty-two bytes\r\na = 1 # \\\n",
    )
    .unwrap();
    let texts: Vec<_> = doc.comments().map(|c| c.text).collect();
    assert_eq!(
        texts,
        [
            " back\\slash \t tab \u{e9} and more than thirty-two bytes",
            " \\"
        ]
    );
    assert_eq!(err("a = 1\r").0, "control character (escape it)");
}

#[test]
fn errors_are_one_pointer() {
    assert_eq!(
        std::mem::size_of::<toml::Error>(),
        std::mem::size_of::<usize>()
    );
}

#[test]
fn tables_merge_in_first_appearance_order() {
    let doc =
        "title = \"t\"\n[a.b]\nx = 1\n[c]\n[a]\ny = 2\n[[d]]\nn = 1\n[d.e]\nm = 1\n[[d]]\nn = 2\n";
    let value = toml::parse(doc.as_bytes()).unwrap();
    let expected = map(vec![
        ("title", RawValue::String("t".into())),
        (
            "a",
            map(vec![
                ("b", map(vec![("x", RawValue::Int(1))])),
                ("y", RawValue::Int(2)),
            ]),
        ),
        ("c", map(vec![])),
        (
            "d",
            RawValue::Seq(vec![
                map(vec![
                    ("n", RawValue::Int(1)),
                    ("e", map(vec![("m", RawValue::Int(1))])),
                ]),
                map(vec![("n", RawValue::Int(2))]),
            ]),
        ),
    ]);
    assert_eq!(value, expected);
}

#[test]
fn scalars_of_every_kind() {
    let doc = br#"
s = "tab\there \u00e9 \U0001F600"
l = 'C:\path'
ml = """
one \
   two"""
mll = '''
keep \n'''
hex = 0xDEAD_beef
oct = 0o755
bin = 0b1010
neg = -9_223_372_036_854_775_808
f = 6.626e-34
inf = -inf
odt = 1979-05-27T07:32:00.999-07:00
ldt = 1979-05-27 07:32:00
ld = 1979-05-27
lt = 07:32:00.5
"#;
    let v = toml::parse(doc).unwrap();
    let get = |k: &str| v.get(k).unwrap().clone();
    assert_eq!(get("s"), RawValue::String("tab\there é 😀".into()));
    assert_eq!(get("l"), RawValue::String("C:\\path".into()));
    assert_eq!(get("ml"), RawValue::String("one two".into()));
    assert_eq!(get("mll"), RawValue::String("keep \\n".into()));
    assert_eq!(get("hex"), RawValue::Int(0xDEAD_BEEF));
    assert_eq!(get("oct"), RawValue::Int(0o755));
    assert_eq!(get("bin"), RawValue::Int(10));
    assert_eq!(get("neg"), RawValue::Int(i64::MIN));
    assert_eq!(get("f"), RawValue::Float(6.626e-34));
    assert_eq!(get("inf"), RawValue::Float(f64::NEG_INFINITY));
    let text = |k: &str| match get(k) {
        RawValue::Datetime(d) => d.to_string(),
        other => panic!("{other:?}"),
    };
    assert_eq!(text("odt"), "1979-05-27T07:32:00.999-07:00");
    assert_eq!(text("ldt"), "1979-05-27T07:32:00");
    assert_eq!(text("ld"), "1979-05-27");
    assert_eq!(text("lt"), "07:32:00.5");
}

#[test]
fn strings_and_keys_are_borrowed_unless_rewritten() {
    let v = toml::parse(b"plain = \"abc\"\n\"quoted key\" = 'lit'\nesc = \"a\\nb\"\n").unwrap();
    let RawValue::Map(entries) = v else { panic!() };
    assert!(matches!(
        entries[0].1,
        RawValue::String(Cow::Borrowed("abc"))
    ));
    assert!(matches!(entries[1].0, Cow::Borrowed("quoted key")));
    assert!(matches!(
        entries[1].1,
        RawValue::String(Cow::Borrowed("lit"))
    ));
    assert!(matches!(entries[2].1, RawValue::String(Cow::Owned(_))));
}

#[test]
fn depth_limit_is_a_clean_error_without_recursion() {
    let deep = format!("a = {}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = toml::parse(deep.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::DepthLimitReached(128));
    let inline = format!("a = {}{}", "{b = ".repeat(200), "}".repeat(200));
    assert_eq!(
        toml::check(inline.as_bytes()).unwrap_err().kind(),
        &ErrorKind::DepthLimitReached(128)
    );
    let dotted = format!("{} = 1", vec!["k"; 500].join("."));
    assert_eq!(
        toml::check(dotted.as_bytes()).unwrap_err().kind(),
        &ErrorKind::DepthLimitReached(128)
    );
    let header = format!("[{}]", vec!["k"; 500].join("."));
    assert_eq!(
        toml::check(header.as_bytes()).unwrap_err().kind(),
        &ErrorKind::DepthLimitReached(128)
    );
    // A raised limit is honoured: the parser itself does not recurse (the validating
    // builder shows it; a RawValue that deep would recurse when dropped).
    let limits = Limits::default().with_max_depth(200_000);
    assert!(toml::parse_with(deep.as_bytes(), &mut (), limits).is_ok());
}

#[test]
fn document_size_limit() {
    let limits = Limits::default().with_max_document_size(4);
    let e = toml::parse_with_limits(b"a = 12", limits).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::DocumentSizeLimitReached(4));
}

#[test]
fn tree_keeps_kinds_spans_and_comments() {
    let src =
        "# top\n[server] # the server\nhost = 'h'\nlimits.max = 5\n[[job]]\nname = \"a\"\n[x.y]\n";
    let doc = toml::parse_tree(src.as_bytes()).unwrap();
    let root = doc.root();
    assert_eq!(root.kind(), NodeKind::Table(TableKind::Root));
    let server = root.get("server").unwrap();
    assert_eq!(server.kind(), NodeKind::Table(TableKind::Header));
    assert_eq!(server.source_text(), "[server]");
    let host = server.get("host").unwrap();
    assert_eq!(host.kind(), NodeKind::String(StringKind::Literal));
    assert_eq!(host.source_text(), "'h'");
    let limits = server.get("limits").unwrap();
    assert_eq!(limits.kind(), NodeKind::Table(TableKind::Dotted));
    let (key, max) = limits.entries().next().unwrap();
    assert_eq!(
        (key.name, key.span.slice(src), max.as_i64()),
        ("max", "max", Some(5))
    );
    let jobs = root.get("job").unwrap();
    assert_eq!(jobs.kind(), NodeKind::ArrayOfTables);
    assert_eq!(
        jobs.at(0).unwrap().kind(),
        NodeKind::Table(TableKind::ArrayElement)
    );
    assert_eq!(
        root.get("x").unwrap().kind(),
        NodeKind::Table(TableKind::Implicit)
    );
    let found = root.lookup(&Path::parse("job[0].name").unwrap()).unwrap();
    assert_eq!(found.as_str(), Some("a"));
    let comments: Vec<_> = doc.comments().map(|c| c.text).collect();
    assert_eq!(comments, [" top", " the server"]);
    let spans: Vec<_> = doc.comments().map(|c| c.span.slice(src)).collect();
    assert_eq!(spans, ["# top", "# the server"]);
    assert_eq!(doc.to_raw_value(), toml::parse(src.as_bytes()).unwrap());
}

#[test]
fn tree_gathers_each_tables_entries_and_each_arrays_items_wherever_they_were_written() {
    // Tables extended after others, inline tables inside arrays, arrays of tables whose
    // elements come between other sections, and keys and strings with escapes.
    let src = r#"top = 1
"k\u00e9y" = "a\tb"
[a]
x = [1, [2, {p = "q", r.s = [3]}], 4]
[[arr]]
n = 1
[b.c]
y = 'lit'
[[arr]]
n = 2
[arr.sub]
m = """multi"""
[a.d]
z = { e = { f = 5 }, g = [] }
[[arr]]
[b]
w = 2026-12-07
"#;
    let doc = toml::parse_tree(src.as_bytes()).unwrap();
    assert_eq!(doc.to_raw_value(), toml::parse(src.as_bytes()).unwrap());
    let root = doc.root();
    let keys: Vec<_> = root.entries().map(|(k, _)| k.name).collect();
    assert_eq!(keys, ["top", "k\u{e9}y", "a", "arr", "b"]);
    let (key, value) = root.entries().nth(1).unwrap();
    assert_eq!(
        (key.span.slice(src), value.as_str()),
        ("\"k\\u00e9y\"", Some("a\tb"))
    );
    let a_keys: Vec<_> = root
        .get("a")
        .unwrap()
        .entries()
        .map(|(k, _)| k.name)
        .collect();
    assert_eq!(a_keys, ["x", "d"]);
    let x = root.lookup_str("a.x").unwrap();
    assert_eq!((x.len(), x.at(2).unwrap().as_i64()), (3, Some(4)));
    let inner = root.lookup_str("a.x[1][1]").unwrap();
    assert_eq!(inner.kind(), NodeKind::Table(TableKind::Inline));
    assert_eq!(inner.span().slice(src), r#"{p = "q", r.s = [3]}"#);
    assert_eq!(
        root.lookup_str("a.x[1][1].r.s[0]").unwrap().as_i64(),
        Some(3)
    );
    let arr = root.get("arr").unwrap();
    assert_eq!((arr.kind(), arr.len()), (NodeKind::ArrayOfTables, 3));
    assert_eq!(arr.span().slice(src), "[[arr]]");
    let second = arr.at(1).unwrap();
    let second_header = src.find("[[arr]]\nn = 2").unwrap();
    assert_eq!(
        (second.span().start, second.span().slice(src)),
        (second_header, "[[arr]]")
    );
    assert_eq!(
        root.lookup_str("arr[1].sub.m").unwrap().as_str(),
        Some("multi")
    );
    assert!(arr.at(2).unwrap().is_empty());
    assert_eq!(root.lookup_str("a.d.z.e.f").unwrap().as_i64(), Some(5));
    assert!(root.lookup_str("a.d.z.g").unwrap().is_empty());
    let b = root.get("b").unwrap();
    assert_eq!(b.kind(), NodeKind::Table(TableKind::Header));
    let b_keys: Vec<_> = b.entries().map(|(k, _)| k.name).collect();
    assert_eq!(b_keys, ["c", "w"]);
    assert!(b.get("w").unwrap().as_datetime().is_some());
}

#[test]
fn writer_puts_sections_after_plain_keys_and_keeps_order() {
    let value = map(vec![
        ("name", RawValue::String("quarry".into())),
        ("inline first", map(vec![("x", RawValue::Int(1))])),
        ("version", RawValue::Float(1.0)),
        (
            "when",
            RawValue::Datetime("2024-01-02T03:04:05Z".parse::<Datetime>().unwrap()),
        ),
        (
            "deps",
            map(vec![(
                "serde",
                map(vec![("version", RawValue::String("1".into()))]),
            )]),
        ),
        (
            "bin",
            RawValue::Seq(vec![
                map(vec![("name", RawValue::String("a\"b".into()))]),
                map(vec![("path", RawValue::Seq(vec![]))]),
            ]),
        ),
    ]);
    let text = toml::to_string(&value).unwrap();
    assert_eq!(
        text,
        "name = \"quarry\"\n\"inline first\" = { x = 1 }\nversion = 1.0\nwhen = 2024-01-02T03:04:05Z\n\n\
         [deps.serde]\nversion = \"1\"\n\n[[bin]]\nname = \"a\\\"b\"\n\n[[bin]]\npath = []\n"
    );
    assert_eq!(toml::parse(text.as_bytes()).unwrap(), value);
}

#[test]
fn writer_refuses_what_toml_cannot_hold_and_names_the_path() {
    let value = map(vec![(
        "a",
        map(vec![(
            "list",
            RawValue::Seq(vec![RawValue::Int(1), RawValue::Null]),
        )]),
    )]);
    let e = toml::to_string(&value).unwrap_err();
    assert_eq!(e.to_string(), "a.list[1]: TOML cannot represent null");
    let e = toml::to_string(&RawValue::Seq(vec![])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a TOML document is a table; cannot write a top-level sequence"
    );
    assert!(toml::to_string(&map(vec![("big", RawValue::UInt(u64::MAX))])).is_err());
    // A null entry is refused by default, or left out on request (a `None` field).
    let value = map(vec![(
        "a",
        map(vec![("x", RawValue::Int(1)), ("gone", RawValue::Null)]),
    )]);
    let e = toml::to_string(&value).unwrap_err();
    assert_eq!(e.to_string(), "a.gone: TOML cannot represent null");
    let skipped =
        toml::to_vec_with_nulls(&value, quarry_formats::common::NullEntries::Skip).unwrap();
    assert_eq!(skipped, b"[a]\nx = 1\n");
}

/// The `toml` crate's reading of a document, as a RawValue (datetimes through their text).
fn oracle(value: &::toml::Value) -> RawValue<'static> {
    match value {
        ::toml::Value::String(s) => RawValue::String(Cow::Owned(s.clone())),
        ::toml::Value::Integer(i) => RawValue::Int(*i),
        ::toml::Value::Float(f) => RawValue::Float(*f),
        ::toml::Value::Boolean(b) => RawValue::Bool(*b),
        ::toml::Value::Datetime(d) => RawValue::Datetime(d.to_string().parse().unwrap()),
        ::toml::Value::Array(items) => RawValue::Seq(items.iter().map(oracle).collect()),
        ::toml::Value::Table(t) => RawValue::Map(
            t.iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), oracle(v)))
                .collect(),
        ),
    }
}

fn sorted(value: RawValue<'_>) -> RawValue<'_> {
    match value {
        RawValue::Map(mut entries) => {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            RawValue::Map(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        RawValue::Seq(items) => RawValue::Seq(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

#[test]
fn agrees_with_the_toml_crate_on_the_corpus_and_round_trips_it() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus/toml");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus/toml") {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let ours = toml::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let theirs: ::toml::Table = std::str::from_utf8(&bytes).unwrap().parse().unwrap();
        let theirs = oracle(&::toml::Value::Table(theirs));
        assert!(
            sorted(ours.clone()) == sorted(theirs),
            "{} differs",
            path.display()
        );
        let written = toml::to_vec(&ours).unwrap();
        assert_eq!(
            toml::parse(&written).unwrap(),
            ours,
            "{} round trip",
            path.display()
        );
        count += 1;
    }
    assert!(count >= 10, "only {count} corpus files");
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z_-]{1,8}", "[ -~]{0,6}", "\\PC{0,4}"]
}

fn scalar() -> impl Strategy<Value = RawValue<'static>> {
    prop_oneof![
        any::<i64>().prop_map(RawValue::Int),
        any::<f64>()
            .prop_filter("NaN never equals itself", |f| !f.is_nan())
            .prop_map(RawValue::Float),
        any::<bool>().prop_map(RawValue::Bool),
        "\\PC{0,12}|[\"'\\\\\n\t\r\u{7f}\u{1}]{0,4}".prop_map(|s| RawValue::String(Cow::Owned(s))),
        (
            0u16..=9999,
            1u8..=12,
            1u8..=28,
            0u8..=23,
            0u8..=59,
            0u8..=59,
            0u32..1_000_000_000,
            -1439i16..=1439
        )
            .prop_map(
                |(year, month, day, hour, minute, second, nanosecond, offset)| {
                    RawValue::Datetime(Datetime {
                        date: Some(quarry_raw_value::Date { year, month, day }),
                        time: Some(quarry_raw_value::Time {
                            hour,
                            minute,
                            second,
                            nanosecond,
                        }),
                        offset: Some(quarry_raw_value::Offset::Minutes(offset)),
                    })
                }
            ),
    ]
}

fn table() -> impl Strategy<Value = RawValue<'static>> {
    let leaf = scalar();
    let value = leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(RawValue::Seq),
            prop::collection::vec((key(), inner), 0..5).prop_map(|entries| {
                let mut seen = std::collections::HashSet::new();
                RawValue::Map(
                    entries
                        .into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .map(|(k, v)| (Cow::Owned(k), v))
                        .collect(),
                )
            }),
        ]
    });
    prop::collection::vec((key(), value), 0..8).prop_map(|entries| {
        let mut seen = std::collections::HashSet::new();
        RawValue::Map(
            entries
                .into_iter()
                .filter(|(k, _)| seen.insert(k.clone()))
                .map(|(k, v)| (Cow::Owned(k), v))
                .collect(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn write_then_parse_is_identity(value in table()) {
        let text = toml::to_string(&value).unwrap();
        let back = toml::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &value, "{}", text);
        let tree = toml::parse_tree(text.as_bytes()).unwrap();
        prop_assert_eq!(tree.to_raw_value(), value);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[\\[\\]{}=.,\"'a-c0-9 \n#_+-:TZ]{0,40}") {
        let raw = toml::parse(text.as_bytes()).is_ok();
        prop_assert_eq!(raw, toml::check(text.as_bytes()).is_ok());
        prop_assert_eq!(raw, toml::parse_tree(text.as_bytes()).is_ok());
    }
}

#[test]
fn a_repeated_array_header_adds_an_element_to_the_array_it_named() {
    // A header whose text repeats the last header's, when that named an array of tables,
    // is not walked again: these agree with the toml crate, through both doors.
    // The direct path reads the documents in table order, and falls back on the others.
    for (doc, in_order) in [
        ("[[a]]\nk = 1\n[[a]]\nk = 2\n[[a]]", true),
        (
            "[[a.b]]\nx = 1\n[[a.b]]\ny.z = 2\n[[a.b]]\n[a.b.c]\nw = 3\n[[a.b]]\n",
            true,
        ),
        ("[[ a ]]\n[[a]]\n[[a]]\n[[ a ]]\n[[ a ]]\n", true),
        ("[[a]]\n[a.s]\n[[a]]\n[a.s]\nv = 1\n", true),
        ("[[a]]\n[[a.b]]\n[[a.b]]\n[[a]]\n[[a.b]]\n", true),
        (
            "[[a]]\n[[a]]\n[[b]]\n[[a]]\nt = {u = [1]}\n[[a]] # again\n",
            false,
        ),
        ("[x]\n[[x.a]]\n[[x.a]]\n[y]\n[[x.a]]\n[[x.a]]\n", false),
    ] {
        let theirs: ::toml::Table = doc.parse().unwrap_or_else(|e| panic!("{doc:?}: {e}"));
        let ours = toml::parse(doc.as_bytes()).unwrap_or_else(|e| panic!("{doc:?}: {e}"));
        assert!(
            sorted(ours.clone()) == sorted(oracle(&::toml::Value::Table(theirs))),
            "{doc:?}"
        );
        let direct = pulled(doc.as_bytes(), false);
        assert_eq!(direct, in_order.then_some(ours), "{doc:?}");
    }
    // What follows a repeated header is checked as after any other.
    for (doc, message, line, column) in [
        ("[[a]]\n[[a]]x", "expected a newline after the value", 2, 6),
        ("[[a]]\n[[a]]]", "expected a newline after the value", 2, 6),
        (
            "[[a]]\nb = 1\n[[a]]\nb = 1\nb = 2",
            "duplicate key `b`",
            5,
            1,
        ),
        (
            "[[a]]\n[a.s]\n[[a]]\n[a.s]\n[a.s]",
            "table `a.s` defined twice",
            5,
            1,
        ),
    ] {
        assert_eq!(err(doc), (message.into(), line, column), "{doc:?}");
    }
    // Cut short, the repeat is not recognised and the usual error stands.
    assert_eq!(err("[[a]]\n[[a]").0, err("[[b]]\n[[a]").0);
}

/// Reads `input` whole through the direct source; `None` when it falls back.
fn pulled(input: &[u8], skip_odd: bool) -> Option<RawValue<'_>> {
    let mut source = toml::DirectSource::new(input, Limits::default()).ok()?;
    let value = pull(&mut source, skip_odd).ok()?;
    source.finish().is_ok().then_some(value)
}

fn direct(input: &str) -> toml::DirectSource<'_> {
    toml::DirectSource::new(input.as_bytes(), Limits::default()).unwrap()
}

const EVERY_SHAPE: &str = r#"
title = "t"
esc = "a\u00e9"
"quoted key" = 1
when = 1979-05-27T07:32:00Z
date = 1979-05-27
time = 07:32:00
nums = [1, 2.5, inf, 0x10, -7, +3] # a comment
nested = [
  [1], # one
  {a = 1, b = [true, 'lit']},
  [],
]
inline = {}
site.name = "x"
site.port = 80
site.deep.er = """
multi"""

[server]
host = "h"

[server.tls]
on = true

[[fruit]]
name = "apple"
[fruit.physical]
color = "red"
[[fruit.variety]]
name = "red delicious"
[[fruit]]
name = "banana"
[[fruit.variety]]
name = "plantain"

[x.y.z]
w = 1
[x]
defined = "after its subtable"

[empty]
"#;

#[test]
fn direct_source_reads_what_the_raw_value_door_reads() {
    let expected = toml::parse(EVERY_SHAPE.as_bytes()).unwrap();
    assert_eq!(
        pulled(EVERY_SHAPE.as_bytes(), false),
        Some(expected.clone())
    );
    assert_eq!(
        pulled(EVERY_SHAPE.as_bytes(), true),
        Some(without_odd_entries(expected.clone()))
    );
    // `read_raw` at the root, as a type without a direct decoder reads it.
    let mut source = direct(EVERY_SHAPE);
    assert_eq!(RawValue::decode_direct(&mut source), Ok(expected));
    assert!(source.finish().is_ok());
}

#[test]
fn direct_source_borrows_keys_and_strings_unless_unescaped() {
    let mut source = direct("a = \"x\"\n\"\\u0062\" = \"\\u0079\"\n");
    source.begin_object().unwrap();
    assert!(matches!(
        source.next_key(true),
        Ok(Some(TextRef::Borrowed("a")))
    ));
    assert!(matches!(source.read_str(), Ok(TextRef::Borrowed("x"))));
    assert!(matches!(
        source.next_key(false),
        Ok(Some(TextRef::Decoded("b")))
    ));
    assert!(matches!(source.read_str(), Ok(TextRef::Decoded("y"))));
    assert!(matches!(source.next_key(false), Ok(None)));
    assert!(source.finish().is_ok());
    // A string decoded from escapes is handed over as the String the lexer made.
    let mut source = direct("a = 'x'\nb = \"\\u0079\"\n");
    source.begin_object().unwrap();
    source.next_key(true).unwrap();
    assert_eq!(source.read_cow(), Ok(Cow::Borrowed("x")));
    source.next_key(false).unwrap();
    assert_eq!(source.read_cow(), Ok(Cow::<str>::Owned("y".into())));
    assert!(matches!(source.next_key(false), Ok(None)));
}

#[test]
fn direct_source_falls_back_where_document_order_is_not_table_order() {
    for doc in [
        // A table added to after another began.
        "[a]\nx = 1\n[b]\n[a.c]\n",
        "a.x = 1\nb = 2\na.y = 3\n",
        "[[a]]\n[b]\n[[a]]\n",
        "[a.b]\n[c]\n[a]\n",
        // A dotted key in an inline table.
        "t = {a.b = 1}\n",
    ] {
        assert!(toml::parse(doc.as_bytes()).is_ok(), "{doc}");
        assert_eq!(pulled(doc.as_bytes(), false), None, "{doc}");
    }
}

#[test]
fn direct_source_falls_back_on_errors_and_limits() {
    for doc in [
        "a = 1\na = 2\n",
        "a = [1,,]\n",
        "[a]\n[a]\n",
        "a = {b = 1,}\n",
        "a = 1 b = 2\n",
    ] {
        assert!(toml::parse(doc.as_bytes()).is_err(), "{doc}");
        assert_eq!(pulled(doc.as_bytes(), false), None, "{doc}");
        assert_eq!(pulled(doc.as_bytes(), true), None, "{doc}");
    }
    let deep = format!("a = {}{}\n", "[".repeat(200), "]".repeat(200));
    assert_eq!(pulled(deep.as_bytes(), false), None);
    let mut source = direct("a = 1\n");
    source.begin_object().unwrap();
    source.next_key(true).unwrap();
    assert_eq!(source.read_null(), Err(Fallback));
}

/// Every toml-test 1.0 case through the direct source: a valid document reads as the
/// RawValue path reads it (or falls back), an invalid one always falls back.
#[test]
fn direct_source_agrees_with_the_raw_value_door_on_toml_test() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/suites/toml/tests");
    let list = std::fs::read_to_string(dir.join("files-toml-1.0.0")).expect("toml-test list");
    let (mut direct, mut valid, mut invalid) = (0, 0, 0);
    for file in list.lines().filter(|l| l.ends_with(".toml")) {
        let bytes = std::fs::read(dir.join(file)).expect("test file");
        match toml::parse(&bytes) {
            Ok(expected) => {
                valid += 1;
                // Compared as debug text, so NaN equals NaN (and -0.0 still differs from 0.0).
                if let Some(value) = pulled(&bytes, false) {
                    direct += 1;
                    assert_eq!(format!("{value:?}"), format!("{expected:?}"), "{file}");
                    let skipped = pulled(&bytes, true).expect("reads with skipping too");
                    let expected = without_odd_entries(expected);
                    assert_eq!(format!("{skipped:?}"), format!("{expected:?}"), "{file}");
                }
            }
            Err(_) => {
                invalid += 1;
                assert_eq!(pulled(&bytes, false), None, "{file}");
                assert_eq!(pulled(&bytes, true), None, "{file}");
            }
        }
    }
    println!("toml-test through the direct source: {direct}/{valid} read directly, {invalid} invalid all fell back");
    assert_eq!((valid, invalid), (210, 499));
    assert!(direct >= 150, "only {direct} of {valid} read directly");
}

/// The value of `a = {text}`, or its error's kind.
fn value_of(text: &str) -> Result<RawValue<'static>, String> {
    match toml::parse(format!("a = {text}").as_bytes()) {
        Ok(RawValue::Map(entries)) => Ok(entries[0].1.clone().into_owned()),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.kind().to_string()),
    }
}

#[test]
fn integers_fast_and_slow_agree_at_the_edges() {
    let int = value_of;
    assert_eq!(int("0"), Ok(RawValue::Int(0)));
    assert_eq!(int("-0"), Ok(RawValue::Int(0)));
    assert_eq!(int("+7"), Ok(RawValue::Int(7)));
    assert_eq!(
        int("123456789012345678"),
        Ok(RawValue::Int(123_456_789_012_345_678))
    );
    assert_eq!(
        int("1234567890123456789"),
        Ok(RawValue::Int(1_234_567_890_123_456_789))
    );
    assert_eq!(int("-9223372036854775808"), Ok(RawValue::Int(i64::MIN)));
    assert_eq!(int("1_000"), Ok(RawValue::Int(1000)));
    assert_eq!(int("7e2"), Ok(RawValue::Float(700.0)));
    assert_eq!(int("7.5"), Ok(RawValue::Float(7.5)));
    assert!(int("9223372036854775808").is_err());
    assert!(int("012").is_err());
    assert!(int("1__0").is_err());
    assert!(int("1_").is_err());
    assert!(int("12abc").is_err());
}

/// A number's digits are read before anything else is looked for: digits followed by
/// `-` or `:`, and a `0` followed by `x`, `o` or `b`, are then read as a datetime or a
/// radix integer, exactly as a reader that looks for those first would read them.
#[test]
fn dates_times_and_radix_prefixes_are_told_from_integers_after_the_digits() {
    let value = value_of;
    for text in ["1979-05-27", "07:32:00", "1979-05-27T07:32:00Z"] {
        match value(text) {
            Ok(RawValue::Datetime(d)) => assert_eq!(d.to_string(), text),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(value("0x1F"), Ok(RawValue::Int(31)));
    assert_eq!(value("0o17"), Ok(RawValue::Int(15)));
    assert_eq!(value("0b101"), Ok(RawValue::Int(5)));
    assert_eq!(value("-inf"), Ok(RawValue::Float(f64::NEG_INFINITY)));
    assert_eq!(value("1979"), Ok(RawValue::Int(1979)));
    assert_eq!(value("-12"), Ok(RawValue::Int(-12)));
    for bad in [
        "1234-5",
        "12:3",
        "0x",
        "+0x10",
        "-1979-05-27",
        "1x",
        "12b",
        "7o",
        "3-",
    ] {
        assert!(value(bad).is_err(), "{bad}");
    }
}

/// Plain decimals are read in one pass over their digits; the rest (exponents, `_`,
/// more than 19 digits) the long way. Both agree with the toml crate.
#[test]
fn floats_fast_and_slow_agree_at_the_edges() {
    let number = value_of;
    assert_eq!(number("7.5"), Ok(RawValue::Float(7.5)));
    assert_eq!(
        number("-0.0").map(|v| format!("{v:?}")),
        Ok("Float(-0.0)".into())
    );
    assert_eq!(number("0.1"), Ok(RawValue::Float(0.1)));
    assert_eq!(number("1.5e3"), Ok(RawValue::Float(1500.0)));
    assert_eq!(number("1.5_0"), Ok(RawValue::Float(1.5)));
    for text in [
        "1234567890.123456789",
        "12345678901234567.1234",
        "9007199254740993.0",
        "-2.2250738585072011e-308",
    ] {
        let std = text.parse::<f64>().unwrap();
        assert_eq!(number(text), Ok(RawValue::Float(std)), "{text}");
    }
    assert!(number("1.").is_err());
    assert!(number("1.e3").is_err());
    assert!(number("01.5").is_err());
    assert!(number("1.5.3").is_err());
    assert!(number("1.5_").is_err());
    assert!(number("1.5x").is_err());
}

/// `a = {text}` as quarry reads it and as the toml crate reads it (`None` for an error).
fn read_by_both(text: &str) -> (Option<String>, Option<String>) {
    let document = format!("a = {text}");
    let ours = toml::parse(document.as_bytes())
        .ok()
        .map(|v| format!("{v:?}"));
    let theirs = document
        .parse::<::toml::Table>()
        .ok()
        .map(|t| format!("{:?}", oracle(&::toml::Value::Table(t))));
    (ours, theirs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Numbers near the fast path's edges read as the toml crate reads them, or both
    /// are errors. (Two exponent digits at most: past `f64`'s range the toml crate
    /// rejects the number, where quarry reads infinity as std's parse gives.)
    #[test]
    fn numbers_read_as_the_toml_crate_reads_them(
        text in "[+-]?[0-9]{1,21}(_[0-9])?(\\.[0-9]{0,21}(_[0-9])?)?([eE][+-]?[0-9]{1,2})?[x.]?",
    ) {
        let (ours, theirs) = read_by_both(&text);
        prop_assert_eq!(ours, theirs);
    }

    /// Digits followed by what may make them a datetime, a radix integer or an error
    /// read as the toml crate reads them, or both are errors.
    #[test]
    fn digits_then_dates_times_and_prefixes_read_as_the_toml_crate_reads_them(
        text in "[+-]?[0-9]{1,5}([-:xobT.][0-9a-fA-F_:T.-]{0,12})?",
    ) {
        let (ours, theirs) = read_by_both(&text);
        prop_assert_eq!(ours, theirs);
    }

    /// Integers of 18 to 20 digits, on both sides of the `i64` range, with either sign:
    /// the value, or the overflow error at the number.
    #[test]
    fn long_integers_read_or_overflow_as_i64_does(
        negative: bool,
        digits in "[1-9][0-9]{17,19}|92233720368547758[0-9]{2}",
    ) {
        let text = format!("{}{digits}", if negative { "-" } else { "" });
        let document = format!("a = {text}");
        let result = toml::parse(document.as_bytes());
        match text.parse::<i64>() {
            Ok(i) => prop_assert_eq!(result.unwrap(), map(vec![("a", RawValue::Int(i))])),
            Err(_) => {
                let e = result.unwrap_err();
                prop_assert_eq!((e.kind(), e.column()), (&ErrorKind::IntegerOverflow, 5));
            }
        }
    }
}

/// `to_writer` hands its output over in bounded chunks; what arrives is `to_vec`'s.
#[test]
fn to_writer_writes_in_chunks_exactly_what_to_vec_builds() {
    let value = support::many_records("records");
    let mut writes = support::Writes::default();
    toml::to_writer(&mut writes, &value).unwrap();
    support::assert_written_in_chunks(&writes, &toml::to_vec(&value).unwrap());
    assert_eq!(toml::parse(&writes.bytes).unwrap(), value);
}

// ---------------------------------------------------------------------------------------
// Allocation counts, per thread (tests run in parallel).

#[global_allocator]
static GLOBAL: support::counting::Counting = support::counting::Counting;

#[test]
fn the_parser_sizes_its_key_lists_from_the_input() {
    // The parser's record of each table's keys is sized once from the input's length,
    // so four keys and twenty (below the size at which a table gains a hash index)
    // cost the same allocations: the list is not grown key by key.
    let doc = |n: usize| {
        (0..n)
            .map(|i| format!("key_number_{i} = {i}\n"))
            .collect::<String>()
    };
    let (few, many) = (doc(4), doc(20));
    let (_, few_allocations) = support::counting::count(|| toml::check(few.as_bytes()).unwrap());
    let (_, many_allocations) = support::counting::count(|| toml::check(many.as_bytes()).unwrap());
    assert_eq!(
        few_allocations, many_allocations,
        "4 keys: {few_allocations} allocations, 20 keys: {many_allocations}"
    );
}

#[test]
fn check_with_limits_applies_the_depth_limit() {
    let doc = "a = [[[[1]]]]\n";
    toml::check_with_limits(doc.as_bytes(), Limits::default()).unwrap();
    let e =
        toml::check_with_limits(doc.as_bytes(), Limits::default().with_max_depth(3)).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimitReached(3)),
        "{:?}",
        e.kind()
    );
}
