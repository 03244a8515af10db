//! XML through the public API: the RawValue mapping, the tree, entities and limits,
//! encodings, errors, the writers, and a builder of one's own.
#![cfg(feature = "xml")]

mod support;

use std::borrow::Cow;

use proptest::prelude::*;
use quarry_formats::common::{Limits, Span, TreeNode};
use quarry_formats::xml::*;
use quarry_raw_value::pull::TextRef;
use quarry_raw_value::{Path, PullSource, RawValue};
use support::{map, t as text};

#[global_allocator]
static GLOBAL: support::counting::Counting = support::counting::Counting;

/// The direct path keeps its tape and its stacks on the thread between documents, and
/// so does the parser: a small document read a second time allocates nothing.
#[test]
fn direct_source_reuses_its_lists_for_the_next_document() {
    let doc = b"<message><id>42</id><kind>status</kind><ok>true</ok></message>";
    let read = || {
        let mut source = DirectSource::new(doc, Limits::default()).unwrap();
        source.begin_object().unwrap();
        let mut keys = 0;
        while source.next_key(keys == 0).unwrap().is_some() {
            source.skip_value().unwrap();
            keys += 1;
        }
        source.finish().unwrap();
        keys
    };
    // The first document on this thread allocates the lists.
    assert_eq!(read(), 3);
    assert_eq!(support::counting::count(read), (3, 0));
}

/// Parses through both doors and the validator, checks they agree, returns the value.
fn both(input: &str) -> RawValue<'_> {
    let raw = parse(input.as_bytes()).unwrap();
    let tree = parse_tree(input.as_bytes()).unwrap();
    assert_eq!(tree.to_raw_value(), raw, "the doors disagree on {input:?}");
    check(input.as_bytes()).unwrap();
    raw
}

fn kind(input: &[u8]) -> ErrorKind {
    let err = parse(input).unwrap_err();
    assert_eq!(parse_tree(input).unwrap_err(), err);
    assert_eq!(check(input).unwrap_err(), err);
    err.kind().clone()
}

#[test]
fn mapping_the_document_is_a_one_entry_map_named_by_the_root() {
    assert_eq!(both("<root>hi</root>"), map(vec![("root", text("hi"))]));
}

#[test]
fn mapping_a_leaf_is_its_text_and_empty_is_the_empty_string() {
    assert_eq!(
        both("<a><b>80</b><c/><d></d></a>"),
        map(vec![(
            "a",
            map(vec![("b", text("80")), ("c", text("")), ("d", text("")),])
        )])
    );
    // Text is untyped: decoders may read numbers from it.
    assert!(matches!(
        both("<a>80</a>").get("a"),
        Some(RawValue::Text(_))
    ));
}

#[test]
fn mapping_attributes_children_and_repeated_children() {
    let value = both(r#"<a id="1"><x>1</x><y>2</y><x>3</x></a>"#);
    assert_eq!(
        value,
        map(vec![(
            "a",
            map(vec![
                ("@id", text("1")),
                ("x", RawValue::Seq(vec![text("1"), text("3")])),
                ("y", text("2")),
            ])
        )])
    );
    // An element with attributes only is a map without `$text`.
    assert_eq!(
        both(r#"<a k="v"/>"#),
        map(vec![("a", map(vec![("@k", text("v"))]))])
    );
    // With text too, the text goes under `$text`.
    assert_eq!(
        both(r#"<a k="v"> t </a>"#),
        map(vec![(
            "a",
            map(vec![("@k", text("v")), ("$text", text(" t "))])
        )])
    );
}

#[test]
fn mapping_groups_repeated_children_among_many_similar_names() {
    // Names alike in length, ends or middle (what the builder's fingerprints look at),
    // more of them than the builder scans before it indexes, repeated out of order.
    let mut names: Vec<String> = ["a", "b", "ab", "ba", "abc", "cba", "abcd", "abdc", "dcba"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    names.extend((0..45).map(|i| format!("f{i:02}")));
    names.extend((0..5).map(|i| format!("long_name_{i}_with_the_same_ends")));
    names.extend(["abcdefgh", "abcdefgx", "xbcdefgh", "abcdefghi", "abcdefgha"].map(String::from));
    let order: Vec<usize> = (0..3 * names.len())
        .map(|i| (i * 7 + i / 5) % names.len())
        .collect();
    let mut input = String::from("<r>");
    let mut expected: Vec<(String, Vec<String>)> = Vec::new();
    for (n, &i) in order.iter().enumerate() {
        let name = &names[i];
        input.push_str(&format!("<{name}>{n}</{name}>"));
        match expected.iter_mut().find(|(k, _)| k == name) {
            Some((_, values)) => values.push(n.to_string()),
            None => expected.push((name.clone(), vec![n.to_string()])),
        }
    }
    input.push_str("</r>");
    let value = both(&input);
    let expected = RawValue::Map(vec![(
        Cow::Borrowed("r"),
        RawValue::Map(
            expected
                .into_iter()
                .map(|(k, values)| {
                    let mut values: Vec<RawValue<'static>> = values
                        .into_iter()
                        .map(|v| RawValue::Text(Cow::Owned(v)))
                        .collect();
                    let v = if values.len() == 1 {
                        values.remove(0)
                    } else {
                        RawValue::Seq(values)
                    };
                    (Cow::Owned(k), v)
                })
                .collect(),
        ),
    )]);
    assert_eq!(value, expected);
}

#[test]
fn mapping_prefixes_and_namespace_declarations_are_kept_as_written() {
    let value = both(r#"<r xmlns="urn:d" xmlns:p="urn:p"><p:x p:a="1">v</p:x></r>"#);
    assert_eq!(
        value,
        map(vec![(
            "r",
            map(vec![
                ("@xmlns", text("urn:d")),
                ("@xmlns:p", text("urn:p")),
                ("p:x", map(vec![("@p:a", text("1")), ("$text", text("v"))])),
            ])
        )])
    );
}

#[test]
fn mapping_text_whitespace_mixed_content_cdata_entities_comments() {
    // Kept as written, not trimmed.
    assert_eq!(both("<a>  x  </a>"), map(vec![("a", text("  x  "))]));
    // A leaf holding only white space is "".
    assert_eq!(both("<a> \n\t </a>"), map(vec![("a", text(""))]));
    // White-space-only runs between children are dropped; other runs joined in order.
    assert_eq!(
        both("<a>\n  one<b/>\n  <c/>two<!-- c --> three<?pi x?></a>"),
        map(vec![(
            "a",
            map(vec![
                ("b", text("")),
                ("c", text("")),
                ("$text", text("\n  onetwo three")),
            ])
        )])
    );
    // CDATA is text; references are decoded; comments and PIs vanish.
    assert_eq!(
        both("<a><![CDATA[<x>]]> &amp; &#65;&#x42;<!--c--><?p?></a>"),
        map(vec![("a", text("<x> & AB"))])
    );
}

#[test]
fn text_without_references_is_borrowed() {
    let input = br#"<a k="plain">plain text</a>"#;
    let RawValue::Map(doc) = parse(input).unwrap() else {
        panic!()
    };
    let RawValue::Map(a) = &doc[0].1 else {
        panic!()
    };
    assert!(matches!(a[0].1, RawValue::Text(Cow::Borrowed("plain"))));
    assert!(matches!(
        a[1].1,
        RawValue::Text(Cow::Borrowed("plain text"))
    ));
    // Decoding makes an owned copy.
    let value = parse(b"<a>x &amp; y</a>").unwrap();
    assert!(matches!(
        value.get("a"),
        Some(RawValue::Text(Cow::Owned(_)))
    ));
}

#[test]
fn internal_entities_expand_in_text_attributes_and_as_markup() {
    let doc = r#"<!DOCTYPE r [
  <!ENTITY who "world">
  <!ENTITY greet "hello &who;">
  <!ENTITY item "<i n='&who;'>&greet;</i>">
]>
<r a="&greet;!">&item;&item;</r>"#;
    assert_eq!(
        both(doc),
        map(vec![(
            "r",
            map(vec![
                ("@a", text("hello world!")),
                (
                    "i",
                    RawValue::Seq(vec![
                        map(vec![("@n", text("world")), ("$text", text("hello world"))]),
                        map(vec![("@n", text("world")), ("$text", text("hello world"))]),
                    ])
                ),
            ])
        )])
    );
    assert_eq!(
        kind(b"<!DOCTYPE r [<!ENTITY a '&b;'><!ENTITY b '&a;'>]><r>&a;</r>"),
        ErrorKind::RecursiveEntity("a".into())
    );
    assert_eq!(
        kind(b"<r>&nope;</r>"),
        ErrorKind::UndeclaredEntity("nope".into())
    );
    assert_eq!(
        kind(b"<!DOCTYPE r [<!ENTITY e '<b>'>]><r>&e;</b></r>"),
        ErrorKind::UnbalancedEntity("e".into())
    );
}

#[test]
fn external_entities_are_skipped_never_read() {
    let doc = b"<!DOCTYPE r [<!ENTITY ext SYSTEM '/etc/passwd'>]><r>a&ext;b</r>";
    assert_eq!(parse(doc).unwrap(), map(vec![("r", text("ab"))]));
    assert_eq!(
        kind(b"<!DOCTYPE r [<!ENTITY ext SYSTEM '/etc/passwd'>]><r a='&ext;'/>"),
        ErrorKind::ExternalEntityInAttribute("ext".into())
    );
}

#[test]
fn billion_laughs_is_rejected_fast_with_a_named_error() {
    let mut doc = String::from("<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
    doc.push_str("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n");
    for i in 2..=9 {
        let prev = format!("&lol{};", i - 1).repeat(10);
        doc.push_str(&format!("<!ENTITY lol{i} \"{prev}\">\n"));
    }
    doc.push_str("]>\n<lolz>&lol9;</lolz>");
    // Bounded work, not a timing: expansion stops at the limit (10 MiB of text), where a
    // billion laughs would produce 3 GB.
    for input in [
        &doc,
        &doc.replace("<lolz>&lol9;</lolz>", "<lolz a='&lol9;'/>"),
    ] {
        assert_eq!(
            kind(input.as_bytes()),
            ErrorKind::EntityExpansionLimitReached(Limits::default().max_entity_expansion)
        );
    }
    // A small limit stops it at once.
    let limits = Limits::default().with_max_entity_expansion(1 << 10);
    let small = check_with_limits(doc.as_bytes(), limits).unwrap_err();
    assert_eq!(
        small.kind(),
        &ErrorKind::EntityExpansionLimitReached(1 << 10)
    );
}

#[test]
fn quadratic_blowup_is_rejected_with_a_named_error() {
    let big = "x".repeat(50_000);
    let doc = format!(
        "<!DOCTYPE r [<!ENTITY e \"{big}\">]><r>{}</r>",
        "&e;".repeat(1_000)
    );
    assert_eq!(
        kind(doc.as_bytes()),
        ErrorKind::EntityExpansionLimitReached(Limits::default().max_entity_expansion)
    );
}

#[test]
fn deep_nesting_hits_the_depth_limit_without_overflowing_the_stack() {
    let n = 10_000;
    let doc = format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
    assert_eq!(kind(doc.as_bytes()), ErrorKind::DepthLimitReached(128));
    // The parser itself keeps no stack frames per level: with the limit raised, the
    // validator accepts it.
    let limits = Limits::default().with_max_depth(n + 1);
    check_with_limits(doc.as_bytes(), limits).unwrap();
    let doc = parse_tree_with_limits(doc.as_bytes(), limits).unwrap();
    assert_eq!(doc.node_count(), n + 1);
    assert!(doc.to_string().starts_with("<a><a>"));
}

#[test]
fn attribute_and_document_size_limits() {
    let limits = Limits::default().with_max_attributes(2);
    let err = parse_with_limits(b"<a x='1' y='2' z='3'/>", limits).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::AttributeLimitReached(2));
    let err = parse_with_limits(b"<a/>", Limits::default().with_max_document_size(3)).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::DocumentSizeLimitReached(3));
}

#[test]
fn utf16_and_other_encodings() {
    let source = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a k=\"é\">ü字</a>";
    let mut le = vec![0xFF, 0xFE];
    let mut be = vec![0xFE, 0xFF];
    for unit in source.encode_utf16() {
        le.extend_from_slice(&unit.to_le_bytes());
        be.extend_from_slice(&unit.to_be_bytes());
    }
    let expected = map(vec![(
        "a",
        map(vec![("@k", text_owned("é")), ("$text", text_owned("ü字"))]),
    )]);
    for input in [&le, &be] {
        assert_eq!(parse(input).unwrap(), expected);
        let doc = parse_tree(input).unwrap();
        assert_eq!(doc.to_raw_value(), expected);
        assert_eq!(
            doc.root_element().span().slice(doc.source()),
            "<a k=\"é\">ü字</a>"
        );
        check(input).unwrap();
    }
    // UTF-8 with a byte order mark, and ISO-8859-1 by declaration.
    assert_eq!(
        parse("\u{FEFF}<a>é</a>".as_bytes()).unwrap(),
        map(vec![("a", text("é"))])
    );
    let latin1 = b"<?xml version='1.0' encoding='ISO-8859-1'?><a>\xe9</a>";
    assert_eq!(parse(latin1).unwrap(), map(vec![("a", text_owned("é"))]));
    // Encodings quarry does not read stay a clear error naming them.
    for name in ["EBCDIC-US", "UTF-32", "iso-2022-kr"] {
        let input = format!("<?xml version='1.0' encoding='{name}'?><a/>");
        assert_eq!(
            kind(input.as_bytes()),
            ErrorKind::UnsupportedEncoding(name.into())
        );
    }
    assert_eq!(kind(b"<a>\xff</a>"), ErrorKind::InvalidUtf8);
    assert_eq!(
        kind(b"<?xml version='1.0' encoding='UTF-16'?><a/>"),
        ErrorKind::EncodingMismatch
    );
}

/// Default and `#FIXED` values the internal subset declares appear on elements that omit
/// them, in both doors; the tree tells them from specified ones (XML 1.0 §3.3.2, §5.1).
#[test]
fn declared_attribute_defaults_apply_in_both_doors() {
    let input = r#"<!DOCTYPE doc [
<!ATTLIST doc a CDATA #FIXED "v" b CDATA "dflt" c CDATA #IMPLIED d CDATA #REQUIRED>
<!ATTLIST e a1 CDATA "v1" a2 CDATA "v2">
]><doc d="x" b="given"><e/><e a2="mine"/></doc>"#;
    let e = |attrs: Vec<(&'static str, &'static str)>| {
        map(attrs.into_iter().map(|(k, v)| (k, text(v))).collect())
    };
    let expected = map(vec![(
        "doc",
        map(vec![
            ("@d", text("x")),
            ("@b", text("given")),
            ("@a", text("v")),
            (
                "e",
                RawValue::Seq(vec![
                    e(vec![("@a1", "v1"), ("@a2", "v2")]),
                    e(vec![("@a2", "mine"), ("@a1", "v1")]),
                ]),
            ),
        ]),
    )]);
    let raw = parse(input.as_bytes()).unwrap();
    assert_eq!(raw, expected);
    let doc = parse_tree(input.as_bytes()).unwrap();
    assert_eq!(doc.to_raw_value(), expected);
    let root = doc.root_element();
    let attrs: Vec<(&str, &str, bool)> = root
        .attributes()
        .map(|a| (a.name(), a.value(), a.is_specified()))
        .collect();
    assert_eq!(
        attrs,
        [("d", "x", true), ("b", "given", true), ("a", "v", false)]
    );
    // A defaulted attribute was not written: its span is empty, at the end of the name.
    let a = root.attributes().find(|a| a.name() == "a").unwrap();
    assert_eq!(a.span().start, a.span().end);
    assert_eq!(a.span().start, root.span().start + "<doc".len());
    // A #FIXED attribute given another value is a validity matter: accepted as given.
    let fixed = "<!DOCTYPE doc [<!ATTLIST doc a CDATA #FIXED 'v'>]><doc a='w'/>";
    assert_eq!(
        parse(fixed.as_bytes()).unwrap(),
        map(vec![("doc", map(vec![("@a", text("w"))]))])
    );
    // A declared default of `xmlns:p` binds the prefix, as a written one would.
    let ns = "<!DOCTYPE doc [<!ATTLIST doc xmlns:p CDATA #FIXED 'urn:p'>]><doc><p:x/></doc>";
    let doc = parse_tree(ns.as_bytes()).unwrap();
    let x = doc.root_element().first_element_child().unwrap();
    assert_eq!(x.namespace(), Some("urn:p"));
}

/// The first declaration of an attribute binds and later ones are ignored (§3.3);
/// tokenized types are normalized further, CDATA is not (§3.3.3), defaults included;
/// declarations after an unread external parameter entity are not processed (§5.1).
#[test]
fn attribute_declarations_bind_first_and_normalize_by_type() {
    let input = r#"<!DOCTYPE doc [
<!ATTLIST doc a1 CDATA #IMPLIED>
<!ATTLIST doc a1 NMTOKENS #IMPLIED a2 NMTOKENS #IMPLIED t NMTOKENS "  x   y ">
<!ATTLIST doc d CDATA "first">
<!ATTLIST doc d CDATA "second" e (one|two) " two ">
]><doc a1="1  2" a2=" 1  2 "/>"#;
    let expected = map(vec![(
        "doc",
        map(vec![
            ("@a1", text("1  2")),
            ("@a2", text("1 2")),
            ("@t", text("x y")),
            ("@d", text("first")),
            ("@e", text("two")),
        ]),
    )]);
    assert_eq!(parse(input.as_bytes()).unwrap(), expected);
    assert_eq!(
        parse_tree(input.as_bytes()).unwrap().to_raw_value(),
        expected
    );
    // After `%ext;` (never read) the later ATTLIST is not processed; before it, it is.
    let external = r#"<!DOCTYPE doc [
<!ATTLIST doc before CDATA "b">
<!ENTITY % ext SYSTEM "ext.ent">
%ext;
<!ATTLIST doc after CDATA "a">
]><doc/>"#;
    assert_eq!(
        parse(external.as_bytes()).unwrap(),
        map(vec![("doc", map(vec![("@before", text("b"))]))])
    );
}

/// One document per encoding family, its bytes written out by hand: the declared
/// encoding (by any label, in any case) is decoded in both doors, the check, and for
/// attribute values; the tree's spans refer to the UTF-8 text.
#[test]
fn legacy_encodings_are_decoded_by_their_declared_label() {
    let privet: &[u8] = b"\xCF\xF0\xE8\xE2\xE5\xF2"; // windows-1251
    let families: [(&str, &[u8], &str); 14] = [
        ("windows-1251", privet, "Привет"),
        ("CP1251", privet, "Привет"),
        ("koi8-r", b"\xF0\xD2\xC9\xD7\xC5\xD4", "Привет"),
        ("ISO-8859-5", b"\xBF\xE0\xD8\xD2\xD5\xE2", "Привет"),
        ("IBM866", b"\x8F\xE0\xA8\xA2\xA5\xE2", "Привет"),
        ("x-mac-cyrillic", b"\x8F\xF0\xE8\xE2\xE5\xF2", "Привет"),
        ("windows-1252", b"caf\xE9 \x80", "café €"),
        ("Shift_JIS", b"\x93\xFA\x96\x7B", "日本"),
        ("EUC-JP", b"\xC6\xFC\xCB\xDC", "日本"),
        ("ISO-2022-JP", b"\x1B$BF|K\\\x1B(B", "日本"),
        ("GBK", b"\xD6\xD0\xCE\xC4", "中文"),
        ("gb18030", b"\xD6\xD0\xCE\xC4", "中文"),
        ("Big5", b"\xA4\xA4\xA4\xE5", "中文"),
        ("EUC-KR", b"\xC7\xD1\xB1\xB9", "한국"),
    ];
    for (label, bytes, expected) in families {
        let mut input = format!("<?xml version='1.0' encoding='{label}'?>\n<a t='").into_bytes();
        input.extend_from_slice(bytes);
        input.extend_from_slice(b"'>");
        input.extend_from_slice(bytes);
        input.extend_from_slice(b"</a>");
        let value = map(vec![(
            "a",
            map(vec![
                ("@t", text_owned(expected)),
                ("$text", text_owned(expected)),
            ]),
        )]);
        assert_eq!(parse(&input).unwrap(), value, "{label}");
        let doc = parse_tree(&input).unwrap();
        assert_eq!(doc.to_raw_value(), value, "{label}");
        let a = doc.root_element();
        assert_eq!(a.text(), Some(expected), "{label}");
        assert_eq!(a.attribute("t"), Some(expected), "{label}");
        assert_eq!(
            a.span().slice(doc.source()),
            format!("<a t='{expected}'>{expected}</a>"),
            "{label}"
        );
        check(&input).unwrap();
    }
    // A byte sequence the declared encoding does not define is an error naming it, at
    // the line and column of that byte.
    let bad = b"<?xml version='1.0' encoding='Shift_JIS'?>\n<a>\x93\xFA\xFF</a>";
    let err = parse(bad).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidEncoded("Shift_JIS".into()));
    assert_eq!((err.line(), err.column()), (2, 5));
    // A byte order mark that contradicts the declaration is an error.
    assert_eq!(
        kind(b"\xEF\xBB\xBF<?xml version='1.0' encoding='windows-1251'?><a/>"),
        ErrorKind::EncodingMismatch
    );
    // Every other label of UTF-8 reads in place.
    assert_eq!(
        parse("<?xml version='1.0' encoding='unicode-1-1-utf-8'?><a>é</a>".as_bytes()).unwrap(),
        map(vec![("a", text("é"))])
    );
}

/// The corpus's copy of the XML spec declares ISO-8859-1 and holds Latin-1 bytes: both
/// doors read it, and its text comes out as the characters those bytes stand for.
#[test]
fn the_latin1_spec_in_the_corpus_reads_through_both_doors() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/corpus/xml/libxml2-REC-xml-19980210.xml");
    let bytes = std::fs::read(path).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the file is not UTF-8"
    );
    let raw = parse(&bytes).unwrap();
    let doc = parse_tree(&bytes).unwrap();
    assert_eq!(doc.to_raw_value(), raw);
    check(&bytes).unwrap();
    // Its Latin-1 bytes are German umlauts and ß.
    let text = doc.source();
    assert!(
        text.contains("mit hei\u{df}em Bem\u{fc}h'n"),
        "Latin-1 ß and ü decoded"
    );
    assert!(text.contains("Universit\u{e4}t Freiburg"));
    assert!(!text.contains('\u{fffd}'));
}

fn text_owned(s: &str) -> RawValue<'static> {
    RawValue::Text(Cow::Owned(s.to_owned()))
}

#[test]
fn line_ends_are_normalized_in_text_and_attributes() {
    assert_eq!(
        both("<a b='x\r\ny\rz'>1\r\n2\r3<![CDATA[\r\n]]></a>"),
        map(vec![(
            "a",
            map(vec![("@b", text("x y z")), ("$text", text("1\n2\n3\n"))])
        )])
    );
    // Character references keep what they name.
    assert_eq!(
        both("<a b='&#13;&#10;&#9;'/>").get("a").unwrap().get("@b"),
        Some(&text("\r\n\t"))
    );
}

#[test]
fn spans_cover_nodes_and_attributes() {
    let src = "<?xml version=\"1.0\"?>\n<r>\n  <item id=\"7\">text &amp; more</item><!--c--></r>";
    let doc = parse_tree(src.as_bytes()).unwrap();
    let root = doc.root_element();
    assert_eq!(root.span().slice(doc.source()), &src[22..]);
    let item = root.first_element_child().unwrap();
    assert_eq!(item.source_text(), "<item id=\"7\">text &amp; more</item>");
    let id = item.attributes().next().unwrap();
    assert_eq!(id.span().slice(doc.source()), "id=\"7\"");
    assert_eq!(id.value_span().slice(doc.source()), "7");
    let text = item.first_child().unwrap();
    assert_eq!(text.text(), Some("text & more"));
    assert_eq!(text.source_text(), "text &amp; more");
    let comment = item.next_sibling().unwrap();
    assert_eq!(comment.kind(), NodeKind::Comment);
    assert_eq!(comment.source_text(), "<!--c-->");
    assert_eq!(comment.text(), Some("c"));
    // Line and column of an error come from its offset.
    let err = parse(b"<r>\n  <a b='1' b='2'/></r>").unwrap_err();
    assert_eq!((err.line(), err.column()), (2, 12));
    assert_eq!(
        err.to_string(),
        "duplicated attribute `b` at line 2, column 12"
    );
}

#[test]
fn tree_navigation_and_namespaces() {
    let doc =
        parse_tree(br#"<r xmlns="urn:d" xmlns:p="urn:p"><p:x p:a="1" b="2"/><y/><?pi data?></r>"#)
            .unwrap();
    let r = doc.root_element();
    assert_eq!(r.namespace(), Some("urn:d"));
    let x = r.first_child().unwrap();
    assert_eq!(
        (x.tag_name(), x.local_name(), x.prefix()),
        ("p:x", "x", Some("p"))
    );
    assert_eq!(x.namespace(), Some("urn:p"));
    assert_eq!(x.attribute_ns(Some("urn:p"), "a"), Some("1"));
    assert_eq!(x.attribute_ns(None, "b"), Some("2"));
    assert_eq!(x.parent(), Some(r));
    let y = x.next_sibling().unwrap();
    assert_eq!(y.prev_sibling(), Some(x));
    assert_eq!(y.namespace(), Some("urn:d"));
    assert_eq!(r.last_child().unwrap().pi(), Some(("pi", "data")));
    assert_eq!(r.children().count(), 3);
    assert_eq!(x.ancestors().count(), 2);
    assert_eq!(x.to_xml_string(), r#"<p:x p:a="1" b="2"/>"#);
    assert_eq!(doc.root().descendants().count(), doc.node_count());
    assert_eq!(
        r.attributes().map(|a| a.namespace()).collect::<Vec<_>>(),
        [Some(XMLNS_NAMESPACE), Some(XMLNS_NAMESPACE)]
    );
    assert_eq!(kind(b"<p:a/>"), ErrorKind::UnboundPrefix("p".into()));
    assert_eq!(
        kind(br#"<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>"#),
        ErrorKind::DuplicatedAttribute("q:x".into())
    );
    assert_eq!(
        kind(br#"<a xmlns:p=""/>"#),
        ErrorKind::InvalidNamespaceDeclaration
    );
}

#[test]
fn path_lookup() {
    let doc = parse_tree(
        br#"<root><child a="0"/><child a="1"/><child a="2">two</child><other>x</other></root>"#,
    )
    .unwrap();
    let at = |p: &str| doc.root().lookup_str(p).map(|t| t.to_raw_value());
    assert_eq!(at("root.child[2].@a"), Some(text("2")));
    assert_eq!(at("root.child.@a"), Some(text("0")));
    assert_eq!(at("root.other"), Some(text("x")));
    assert_eq!(at("root.child[2].$text"), Some(text("two")));
    assert_eq!(at("root.child[3]"), None);
    assert_eq!(at("nope.child"), None);
    let target = doc.root().lookup_str("root.child[1].@a").unwrap();
    assert_eq!(target.span().slice(doc.source()), "a=\"1\"");
    // Decode errors name paths from the root element's value.
    let path = Path::parse("child[2].missing").unwrap();
    let (target, followed) = doc.root_element().lookup_prefix(&path);
    assert_eq!(followed, 2);
    assert_eq!(
        target.span().slice(doc.source()),
        "<child a=\"2\">two</child>"
    );
}

#[test]
fn writers_round_trip() {
    let src = r#"<r xmlns:p="urn:p"><p:x a="&lt;&quot;&#9;">1 &amp; 2 &gt; 0</p:x><!-- note --><?pi d?><e/></r>"#;
    let doc = parse_tree(src.as_bytes()).unwrap();
    assert_eq!(doc.to_string(), src);
    let value = parse(src.as_bytes()).unwrap();
    let written = to_string(&value).unwrap();
    assert_eq!(parse(written.as_bytes()).unwrap(), value);
    // A struct's fields under a root name; nulls omit their element.
    let fields = map(vec![
        ("@id", RawValue::Int(7)),
        ("name", RawValue::String("a<b".into())),
        ("none", RawValue::Null),
        (
            "ports",
            RawValue::Seq(vec![RawValue::Int(80), RawValue::Int(443)]),
        ),
        ("ok", RawValue::Bool(true)),
        ("ratio", RawValue::Float(0.5)),
    ]);
    assert_eq!(
        to_string_with_root(&fields, "config").unwrap(),
        r#"<config id="7"><name>a&lt;b</name><ports>80</ports><ports>443</ports><ok>true</ok><ratio>0.5</ratio></config>"#
    );
    assert_eq!(
        to_string_pretty_with_root(&fields, "config").unwrap(),
        "<config id=\"7\">\n  <name>a&lt;b</name>\n  <ports>80</ports>\n  <ports>443</ports>\n  <ok>true</ok>\n  <ratio>0.5</ratio>\n</config>"
    );
    let mixed = map(vec![(
        "p",
        map(vec![("b", text("x")), ("$text", text("y"))]),
    )]);
    assert_eq!(to_string_pretty(&mixed).unwrap(), "<p><b>x</b>y</p>");
    // What XML cannot hold is an error, not silent loss.
    assert!(to_string(&RawValue::Int(1)).is_err());
    assert!(to_string(&map(vec![("a", text("1")), ("b", text("2"))])).is_err());
    assert!(to_string(&map(vec![("not a name", text("1"))])).is_err());
    assert!(to_string(&map(vec![("a", text("\u{1}"))])).is_err());
    assert!(to_string(&map(vec![(
        "a",
        RawValue::Seq(vec![RawValue::Seq(vec![])])
    )]))
    .is_err());
}

#[test]
fn well_formedness_errors_are_named() {
    let cases: &[(&[u8], ErrorKind)] = &[
        (b"", ErrorKind::MissingRoot),
        (b"<a>", ErrorKind::UnexpectedEnd),
        (
            b"<a></b>",
            ErrorKind::MismatchedEndTag {
                expected: "a".into(),
                found: "b".into(),
            },
        ),
        (b"<a/><b/>", ErrorKind::ContentAfterRoot),
        (b"x<a/>", ErrorKind::TextOutsideRoot),
        (b"<a><!-- a -- b --></a>", ErrorKind::DoubleHyphenInComment),
        (b"<a><?xml x?></a>", ErrorKind::ReservedPiTarget),
        (b"<a>]]></a>", ErrorKind::CdataEndInText),
        (b"<a b='<'/>", ErrorKind::LtInAttributeValue),
        (b"<a>&#0;</a>", ErrorKind::InvalidCharRef),
        (b"<a>\x01</a>", ErrorKind::InvalidChar('\u{1}')),
        (b"<a>\xef\xbf\xbe</a>", ErrorKind::InvalidChar('\u{FFFE}')),
        (b"<?xml version='2.0'?><a/>", ErrorKind::UnsupportedVersion),
        (
            b"<?xml encoding='UTF-8'?><a/>",
            ErrorKind::InvalidDeclaration,
        ),
        (b"<a><!DOCTYPE a></a>", ErrorKind::UnexpectedDoctype),
        (
            b"<!DOCTYPE a [<!ENTITY e \"%p;\">]><a/>",
            ErrorKind::PeReferenceInDeclaration,
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(
            &kind(input),
            expected,
            "{:?}",
            String::from_utf8_lossy(input)
        );
        let message = parse(input).unwrap_err().to_string();
        assert!(message.contains(" at line "), "{message}");
    }
}

#[test]
fn errors_stay_small() {
    assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
}

#[test]
fn a_builder_of_ones_own_sees_every_event() {
    #[derive(Default)]
    struct Events(Vec<String>);
    impl<'a> XmlBuilder<'a> for Events {
        fn declaration(&mut self, d: &Declaration<'_>, _: Span) {
            self.0.push(format!("decl {}", d.version));
        }
        fn doctype(&mut self, d: &Doctype<'_>, _: Span) {
            self.0.push(format!("doctype {}", d.name));
        }
        fn start_element(&mut self, tag: &StartTag<'a, '_>) {
            let attrs: Vec<String> = tag
                .attributes()
                .map(|a| format!("{}={}", a.name(), a.value().as_str()))
                .collect();
            self.0
                .push(format!("start {} {}", tag.name(), attrs.join(",")));
        }
        fn end_element(&mut self, _: Span) {
            self.0.push("end".into());
        }
        fn text(&mut self, text: TextRef<'a, '_>, _: Span) {
            self.0.push(format!("text {}", text.as_str()));
        }
        fn cdata(&mut self, text: TextRef<'a, '_>, _: Span) {
            self.0.push(format!("cdata {}", text.as_str()));
        }
        fn comment(&mut self, text: TextRef<'a, '_>, _: Span) {
            self.0.push(format!("comment {}", text.as_str()));
        }
        fn processing_instruction(&mut self, t: TextRef<'a, '_>, d: TextRef<'a, '_>, _: Span) {
            self.0.push(format!("pi {} {}", t.as_str(), d.as_str()));
        }
    }
    let mut events = Events::default();
    parse_with(
        b"<?xml version='1.0'?><!DOCTYPE a><a x='1'>t<![CDATA[c]]><!--m--><?p d?><b/></a>",
        &mut events,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(
        events.0,
        [
            "decl 1.0",
            "doctype a",
            "start a x=1",
            "text t",
            "cdata c",
            "comment m",
            "pi p d",
            "start b ",
            "end",
            "end",
        ]
    );
}

// ------------------------------------------------------------------------------------
// parse(write(v)) == v over the mapping's image.

fn any_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'Z', '0', ' ', '\n', '\t', '\r', '&', '<', '>', '"', '\'', ']', 'é', '字', '😀',
        ]),
        0..8,
    )
    .prop_map(String::from_iter)
}

fn has_content(s: &str) -> bool {
    !is_xml_whitespace(s)
}

fn xml_name() -> impl Strategy<Value = String> {
    "[a-zA-Z_][a-zA-Z0-9_.-]{0,5}"
}

fn element() -> impl Strategy<Value = RawValue<'static>> {
    let leaf = any_text()
        .prop_filter("a leaf is empty or has non-space text", |s| {
            s.is_empty() || has_content(s)
        })
        .prop_map(|s| RawValue::Text(Cow::Owned(s)));
    leaf.prop_recursive(4, 40, 5, |inner| {
        let child = prop_oneof![
            3 => inner.clone(),
            1 => prop::collection::vec(inner, 2..4).prop_map(RawValue::Seq),
        ];
        (
            prop::collection::vec((xml_name(), any_text()), 0..3),
            prop::collection::vec((xml_name(), child), 0..4),
            prop::option::of(any_text().prop_filter("non-space", |s| has_content(s))),
        )
            .prop_filter_map(
                "an element map needs an attribute or a child",
                |(attrs, children, text)| {
                    let mut entries: Vec<(Cow<'static, str>, RawValue<'static>)> = Vec::new();
                    for (name, value) in attrs {
                        let key = format!("@{name}");
                        if !entries.iter().any(|(k, _)| *k == key) {
                            entries.push((Cow::Owned(key), RawValue::Text(Cow::Owned(value))));
                        }
                    }
                    for (name, value) in children {
                        if !entries.iter().any(|(k, _)| *k == name) {
                            entries.push((Cow::Owned(name), value));
                        }
                    }
                    if entries.is_empty() {
                        return None;
                    }
                    if let Some(text) = text {
                        entries.push((Cow::Borrowed(TEXT_KEY), RawValue::Text(Cow::Owned(text))));
                    }
                    Some(RawValue::Map(entries))
                },
            )
    })
}

proptest! {
    #[test]
    fn written_values_parse_back_to_themselves((name, value) in (xml_name(), element())) {
        let doc = RawValue::Map(vec![(Cow::Owned(name), value)]);
        let written = to_string(&doc).unwrap();
        let parsed = parse(written.as_bytes()).unwrap();
        prop_assert_eq!(&parsed, &doc, "written as {}", written);
        let tree = parse_tree(written.as_bytes()).unwrap();
        prop_assert_eq!(tree.to_string(), written);
        let pretty = to_string_pretty(&doc).unwrap();
        prop_assert_eq!(&parse(pretty.as_bytes()).unwrap(), &doc, "written as {}", pretty);
    }
}

#[test]
fn namespace_processing_can_be_turned_off() {
    let input = b"<a:b:c xmlns:a='' :x='1'><?p:i?></a:b:c>";
    assert_eq!(kind(input), ErrorKind::InvalidName);
    let options = Options::default().with_namespaces(false);
    let doc = parse_tree_with_options(input, &options).unwrap();
    let root = doc.root_element();
    assert_eq!(
        (root.tag_name(), root.prefix(), root.namespace()),
        ("a:b:c", None, None)
    );
    assert_eq!(root.attribute(":x"), Some("1"));
    parse_with(input, &mut (), options).unwrap();
    // The RawValue path takes the same options.
    assert_eq!(
        parse_with_options(input, &options).unwrap(),
        map(vec![(
            "a:b:c",
            map(vec![("@xmlns:a", text("")), ("@:x", text("1"))])
        )])
    );
}

/// Found by the xml fuzz target: a PI whose target starts with `xml` (here `xmlN`) was
/// sniffed as the XML declaration, and its `encoding` pseudo-attribute refused.
#[test]
fn a_pi_named_xml_something_is_not_the_declaration() {
    let input = "<?xmlN version='1.0' encoding='UTF-\u{1031}6'?>\n<root/>";
    let doc = parse_tree(input.as_bytes()).unwrap();
    assert_eq!(doc.root().first_child().unwrap().pi().unwrap().0, "xmlN");
    let written = doc.to_string();
    assert_eq!(
        parse(written.as_bytes()).unwrap(),
        map(vec![("root", text(""))])
    );
    assert!(parse(b"<?xml-stylesheet encoding='ebcdic'?><a/>").is_ok());
}

/// End tags take a shortcut when they repeat the open name and close at once; every
/// other spelling goes through the full name scan, with the same errors.
#[test]
fn end_tags_match_the_open_element_exactly() {
    let ok = [
        "<a></a>",
        "<a></a >",
        "<a></a\n\t>",
        "<p:a xmlns:p='u'></p:a>",
        "<ab><a></a></ab>",
        "<a><ab></ab></a>",
        "<é></é>",
        "<!DOCTYPE a [<!ENTITY e '<b></b>'>]><a>&e;</a>",
    ];
    for doc in ok {
        assert!(check(doc.as_bytes()).is_ok(), "{doc}");
    }
    let mismatch = |expected: &str, found: &str| ErrorKind::MismatchedEndTag {
        expected: expected.into(),
        found: found.into(),
    };
    assert_eq!(kind(b"<a></ab>"), mismatch("a", "ab"));
    assert_eq!(kind(b"<ab></a>"), mismatch("ab", "a"));
    assert_eq!(kind(b"<a></A>"), mismatch("a", "A"));
    assert_eq!(kind(b"<a></a"), ErrorKind::UnexpectedEnd);
    assert!(matches!(
        kind(b"<a></a/>"),
        ErrorKind::UnexpectedCharacter { found: '/', .. }
    ));
    assert_eq!(kind(b"<a/></a>"), ErrorKind::ContentAfterRoot);
    // An end tag inside an entity cannot close an element opened outside it.
    assert!(matches!(
        kind(b"<!DOCTYPE a [<!ENTITY e '</a>'>]><a>&e;"),
        ErrorKind::UnbalancedEntity(_)
    ));
    // The span of an element still runs to the end of its end tag.
    let doc = parse_tree(b"<r><a>x</a ></r>").unwrap();
    let a = doc.root_element().first_child().unwrap();
    assert_eq!(a.span(), Span::new(3, 12));
}

/// Found by the fuzzer: an empty CDATA section made a text node of its own, so the tree
/// wrote `<a></a>`, which reads back without one and writes as `<a/>`.
#[test]
fn empty_cdata_and_entities_leave_no_text_node() {
    for doc in [
        "<a><![CDATA[]]></a>",
        "<!DOCTYPE a [<!ENTITY e ''>]><a>&e;</a>",
        "<a><![CDATA[]]><![CDATA[]]></a>",
    ] {
        let tree = parse_tree(doc.as_bytes()).unwrap();
        assert!(!tree.root_element().has_children(), "{doc}");
        assert_eq!(tree.to_string(), "<a/>");
        assert_eq!(tree.to_raw_value(), parse(doc.as_bytes()).unwrap());
    }
    let tree = parse_tree(b"<r>x<a><![CDATA[]]></a>y</r>").unwrap();
    let written = tree.to_string();
    assert_eq!(written, "<r>x<a/>y</r>");
    assert_eq!(parse_tree(written.as_bytes()).unwrap().to_string(), written);
}

/// Found by the fuzzer: a comment or PI can hold a CR only through an entity's `&#13;`,
/// and has no way to escape it; written raw, it read back as LF, so the tree wrote
/// differently the second time. The writer now writes it as the LF it reads back as.
#[test]
fn carriage_returns_in_comments_and_pis_are_written_as_line_feeds() {
    let doc = "<!DOCTYPE a [<!ENTITY e '<!--x&#13;y--><?p q&#13;r?>'>]><a>&e;&#13;</a>";
    let tree = parse_tree(doc.as_bytes()).unwrap();
    let written = tree.to_string();
    assert_eq!(written, "<a><!--x\ny--><?p q\nr?>&#13;</a>");
    assert_eq!(parse_tree(written.as_bytes()).unwrap().to_string(), written);
}

/// `to_writer_pretty` hands its output over in bounded chunks; what arrives is
/// `to_vec_pretty`'s.
#[test]
fn to_writer_pretty_writes_in_chunks_exactly_what_to_vec_pretty_builds() {
    let value = support::many_records("record");
    let mut writes = support::Writes::default();
    to_writer_pretty_with_root(&mut writes, &value, "batch").unwrap();
    let whole = to_string_pretty_with_root(&value, "batch").unwrap();
    support::assert_written_in_chunks(&writes, whole.as_bytes());
}
