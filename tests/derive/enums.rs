//! Enums: unit variants as strings, and external, internal, adjacent and untagged
//! tagging, on both paths; what each says it may accept; and the direct path of each,
//! in every format that has one.

use std::collections::BTreeMap;

use quarry::pull::PullSource;
use quarry::{json, Decode, Encode, Format};

use crate::attributes::{Metadata, Pair, Port, Unit, Wrapper};
use crate::constraints::CheckedUntaggedNumber;
use crate::paths::{
    both_paths, encode, errors, json_paths, toml_read_without_raw_values, via_direct, via_raw,
    xml_paths, xml_without_raw_values, yaml_read_without_raw_values,
};

#[derive(Decode, Encode, Debug, PartialEq, Clone, Copy)]
#[quarry(rename_all = "lowercase")]
pub(crate) enum Level {
    Debug,
    #[quarry(alias = "warn")]
    Warning,
    Error,
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
pub(crate) enum External {
    Unit,
    Newtype(u8),
    Tuple(u8, String),
    Struct { a: u8 },
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
#[quarry(tag = "type", rename_all = "snake_case")]
pub(crate) enum Internal {
    Ping,
    Move { x: i32, y: i32 },
    Wrapped(Metadata),
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
#[quarry(tag = "t", content = "c")]
pub(crate) enum Adjacent {
    Empty,
    Count(u32),
    Named { label: String },
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(untagged)]
pub(crate) enum Untagged {
    Number(i64),
    Text(String),
    Point { x: f64, y: f64 },
    List(Vec<Untagged>),
}

#[test]
fn enums() {
    assert_eq!(via_direct::<Level>(r#""warn""#).unwrap(), Level::Warning);
    assert_eq!(via_raw::<Level>(r#""error""#).unwrap(), Level::Error);
    assert_eq!(encode(&Level::Debug), r#""debug""#);
    assert_eq!(
        errors::<Level>(r#""fatal""#),
        "expected one of `debug`, `warning`, `error`, found string \"fatal\" at line 1, column 1"
    );

    assert_eq!(via_raw::<External>(r#""Unit""#).unwrap(), External::Unit);
    assert_eq!(
        via_raw::<External>(r#"{"Newtype": 5}"#).unwrap(),
        External::Newtype(5)
    );
    assert_eq!(
        via_raw::<External>(r#"{"Tuple": [1, "x"]}"#).unwrap(),
        External::Tuple(1, "x".into())
    );
    assert_eq!(
        via_raw::<External>(r#"{"Struct": {"a": 2}}"#).unwrap(),
        External::Struct { a: 2 }
    );
    for v in [
        External::Unit,
        External::Newtype(5),
        External::Tuple(1, "x".into()),
        External::Struct { a: 2 },
    ] {
        assert_eq!(
            quarry::from_str::<External>(&encode(&v), Format::Json).unwrap(),
            v
        );
    }
    assert_eq!(
        errors::<External>(r#"{"Struct": {"a": "no"}}"#),
        "Struct.a: expected integer, found string \"no\" at line 1, column 18"
    );

    let moved = via_raw::<Internal>(r#"{"x": 1, "type": "move", "y": 2}"#).unwrap();
    assert_eq!(moved, Internal::Move { x: 1, y: 2 });
    assert_eq!(encode(&moved), r#"{"type":"move","x":1,"y":2}"#);
    assert_eq!(
        via_raw::<Internal>(r#"{"type": "ping"}"#).unwrap(),
        Internal::Ping
    );
    let wrapped = Internal::Wrapped(Metadata {
        version: 1,
        owner: None,
    });
    assert_eq!(
        encode(&wrapped),
        r#"{"type":"wrapped","version":1,"owner":null}"#
    );
    assert_eq!(
        quarry::from_str::<Internal>(&encode(&wrapped), Format::Json).unwrap(),
        wrapped
    );
    assert_eq!(
        errors::<Internal>(r#"{"x": 1}"#),
        "missing field `type` at line 1, column 1"
    );

    for v in [
        Adjacent::Empty,
        Adjacent::Count(3),
        Adjacent::Named { label: "l".into() },
    ] {
        assert_eq!(
            quarry::from_str::<Adjacent>(&encode(&v), Format::Json).unwrap(),
            v
        );
    }
    assert_eq!(encode(&Adjacent::Count(3)), r#"{"t":"Count","c":3}"#);
    assert_eq!(
        errors::<Adjacent>(r#"{"t": "Count", "c": "x"}"#),
        "c: expected integer, found string \"x\" at line 1, column 21"
    );

    assert_eq!(via_raw::<Untagged>("5").unwrap(), Untagged::Number(5));
    assert_eq!(
        via_raw::<Untagged>(r#""five""#).unwrap(),
        Untagged::Text("five".into())
    );
    assert_eq!(
        via_raw::<Untagged>(r#"{"x": 1, "y": 2}"#).unwrap(),
        Untagged::Point { x: 1.0, y: 2.0 }
    );
    assert_eq!(
        via_raw::<Untagged>(r#"[1, "a"]"#).unwrap(),
        Untagged::List(vec![Untagged::Number(1), Untagged::Text("a".into())])
    );
    assert_eq!(
        encode(&Untagged::Point { x: 1.0, y: 2.5 }),
        r#"{"x":1.0,"y":2.5}"#
    );
    assert_eq!(
        errors::<Untagged>("true"),
        "data did not match any variant of untagged enum `Untagged`: \
         `Number`: expected integer, found boolean `true`; \
         `Text`: expected string, found boolean `true`; \
         `Point`: expected map, found boolean `true`; \
         `List`: expected sequence, found boolean `true` at line 1, column 1"
    );
}

#[derive(Decode, Debug, PartialEq, Clone)]
#[quarry(untagged)]
enum Setting {
    Off,
    Level(u8),
    Name(String),
    Detail {
        path: String,
        optional: Option<bool>,
    },
    List(Vec<String>),
    Pair(u8, u8),
}

/// Every JSON document of `docs` that `T` decodes on the RawValue path has a kind `T`
/// says it may accept: the names of those it turns away.
fn turned_away<'a, T: Decode<'a>>(docs: &[&'a str]) -> Vec<&'a str> {
    docs.iter()
        .copied()
        .filter(|src| via_raw::<T>(src).is_ok())
        .filter(|src| {
            let mut source = json::DirectSource::new(src.as_bytes(), quarry::Limits::default());
            let kind = source.as_mut().unwrap().peek_token().unwrap();
            !T::may_accept(kind, 8)
        })
        .collect()
}

#[test]
fn derived_types_may_accept_every_kind_they_decode() {
    let docs = [
        "null",
        "true",
        "7",
        "1.5",
        r#""x""#,
        r#""Unit""#,
        r#""warn""#,
        "[]",
        "[1]",
        r#"[1, "x"]"#,
        r#"["a", [1]]"#,
        r#"{"inner": 1, "list": []}"#,
        "8080",
        "{}",
        r#"{"x": 1, "y": 2}"#,
        r#"{"Newtype": 5}"#,
        r#"{"type": "ping"}"#,
        r#"{"t": "Count", "c": 3}"#,
        r#"{"path": "p"}"#,
        r#"{"version": 1}"#,
    ];
    let mut wrong = Vec::new();
    wrong.extend(turned_away::<Level>(&docs));
    wrong.extend(turned_away::<External>(&docs));
    wrong.extend(turned_away::<Internal>(&docs));
    wrong.extend(turned_away::<Adjacent>(&docs));
    wrong.extend(turned_away::<Untagged>(&docs));
    wrong.extend(turned_away::<Setting>(&docs));
    wrong.extend(turned_away::<Metadata>(&docs));
    wrong.extend(turned_away::<CheckedUntaggedNumber>(&docs));
    wrong.extend(turned_away::<Port>(&docs));
    wrong.extend(turned_away::<Pair>(&docs));
    wrong.extend(turned_away::<Unit>(&docs));
    wrong.extend(turned_away::<Wrapper<u8>>(&docs));
    assert!(wrong.is_empty(), "{wrong:?}");
    // What they turn away.
    assert!(!Metadata::may_accept(quarry::pull::ValueKind::Array, 8));
    assert!(!Internal::may_accept(quarry::pull::ValueKind::String, 8));
    assert!(!Level::may_accept(quarry::pull::ValueKind::Number, 8));
}

/// An untagged enum's direct path peeks the value's kind and reads the first variant
/// that may take it, with no RawValue built and no variant tried on a copy. When that
/// variant's read fails, it falls back, and the RawValue path tries the later variants.
#[test]
fn untagged_enums_read_the_first_variant_the_kind_allows() {
    let json = json_paths::<Setting>;
    let read = [
        ("null", Setting::Off),
        ("7", Setting::Level(7)),
        (r#""x""#, Setting::Name("x".into())),
        (
            r#"{"path": "p", "optional": true}"#,
            Setting::Detail {
                path: "p".into(),
                optional: Some(true),
            },
        ),
        (r#"["a"]"#, Setting::List(vec!["a".into()])),
    ];
    for (src, expected) in read {
        assert_eq!(json(src), (Some(expected.clone()), Some(expected)), "{src}");
    }
    // `Level` may take a number but not this one, and `List` an array but not this one:
    // the direct path falls back, and the RawValue path finds the variant after.
    assert_eq!(json("[1, 2]"), (None, Some(Setting::Pair(1, 2))));
    assert_eq!(json("300"), (None, None));
    assert_eq!(json("true"), (None, None));
    assert_eq!(both_paths::<Setting>("[1, 2]"), Ok(Setting::Pair(1, 2)));

    // TOML, YAML and XML: the same enum as map values, against each format's RawValue path.
    type Settings = BTreeMap<String, Setting>;
    let toml = "a = 7\nb = \"x\"\nc = { path = \"p\" }\nd = [\"a\"]\n";
    let direct = toml_read_without_raw_values::<Settings>(toml);
    assert_eq!(direct.len(), 4);

    let yaml = "a: ~\nb: 7\nc: x\nd: {path: p, optional: false}\ne: [a]\n";
    let direct = yaml_read_without_raw_values::<Settings>(yaml);
    assert_eq!(direct["a"], Setting::Off);

    // XML's text is a string to peek, and a number to `Level`: `<b>7</b>` is `Level(7)` on
    // both paths; `<c>x</c>` is not a `Level`, so the direct path falls back.
    let xml = "<r><b>7</b><d><path>p</path></d></r>";
    let (raw, direct) = xml_paths::<Settings>(xml);
    assert_eq!(direct, Some(raw.unwrap()));
    assert_eq!(direct.unwrap()["b"], Setting::Level(7));
    assert_eq!(
        xml_without_raw_values::<Settings>(xml).map(|r| r.len()),
        Some(2)
    );
    let (raw, direct) = xml_paths::<Settings>("<r><c>x</c></r>");
    assert_eq!(
        (raw.unwrap()["c"].clone(), direct),
        (Setting::Name("x".into()), None)
    );
}

/// An externally tagged enum's direct path reads a unit variant's name, or a map of one
/// entry from a variant's name to its content, with no RawValue built; what it cannot
/// read (a tuple variant, a second entry, an unknown name) falls back.
#[test]
fn externally_tagged_enums_read_directly() {
    let json = json_paths::<External>;
    let read = [
        (r#""Unit""#, External::Unit),
        (r#"{"Unit": null}"#, External::Unit),
        (r#"{"Newtype": 5}"#, External::Newtype(5)),
        (r#"{"Struct": {"a": 2}}"#, External::Struct { a: 2 }),
    ];
    for (src, expected) in read {
        let both = json(src);
        assert!(both.0.is_some() && both.0 == both.1, "{src}: {both:?}");
        assert_eq!(both.1, Some(expected));
    }
    assert_eq!(
        json(r#"{"Tuple": [1, "x"]}"#),
        (None, Some(External::Tuple(1, "x".into())))
    );
    for src in [
        r#"{"Newtype": 5, "Unit": null}"#,
        r#"{"Newtype": 300}"#,
        r#"{"Other": 1}"#,
        "{}",
        r#""Newtype""#,
        "[]",
    ] {
        assert_eq!(json(src), (None, None), "{src}");
    }

    // TOML, YAML and XML, against each format's RawValue path.
    type Map = BTreeMap<String, External>;
    let toml = "a = \"Unit\"\nb = { Newtype = 5 }\n[c.Struct]\na = 2\n";
    let direct = toml_read_without_raw_values::<Map>(toml);
    assert_eq!(direct["c"], External::Struct { a: 2 });

    let yaml = "a: Unit\nb: {Newtype: 5}\nc:\n  Struct:\n    a: 2\nd: {Unit: ~}\n";
    let direct = yaml_read_without_raw_values::<Map>(yaml);
    assert_eq!(direct.len(), 4);

    let xml = "<r><a>Unit</a><b><Newtype>5</Newtype></b><c><Struct><a>2</a></Struct></c></r>";
    let (raw, direct) = xml_paths::<Map>(xml);
    assert_eq!(direct, Some(raw.unwrap()));
    assert_eq!(xml_without_raw_values::<Map>(xml).map(|r| r.len()), Some(3));
}

/// An internally tagged enum's direct path reads the tag when it is the object's first
/// key, as writers put it: a unit variant passes over the other keys, a struct variant
/// reads them as its fields. A tag elsewhere, and a newtype variant (its content is the
/// rest of the object), fall back.
#[test]
fn internally_tagged_enums_read_directly_when_the_tag_comes_first() {
    let json = json_paths::<Internal>;
    let moved = Internal::Move { x: 1, y: 2 };
    for (src, expected) in [
        (r#"{"type": "ping"}"#, Internal::Ping),
        (
            r#"{"type": "ping", "extra": [1, {"a": 2}]}"#,
            Internal::Ping,
        ),
        (r#"{"type": "move", "x": 1, "y": 2}"#, moved.clone()),
    ] {
        assert_eq!(json(src), (Some(expected.clone()), Some(expected)), "{src}");
    }
    assert_eq!(
        json(r#"{"x": 1, "type": "move", "y": 2}"#),
        (None, Some(moved.clone()))
    );
    // In JSON the first tag names the variant and a second is an unknown field; XML's
    // RawValue path gathers the two into a sequence, which names none. The direct path
    // falls back on a second tag in both.
    for (src, raw) in [
        (
            r#"{"type": "move", "y": 2, "x": 1, "type": "ping"}"#,
            moved.clone(),
        ),
        (
            r#"{"type": "ping", "z": 0, "type": "move"}"#,
            Internal::Ping,
        ),
    ] {
        assert_eq!(json(src), (None, Some(raw)), "{src}");
    }
    let xml = "<r><type>move</type><x>1</x><y>2</y></r>";
    assert_eq!(xml_without_raw_values::<Internal>(xml), Some(moved.clone()));
    for xml in [
        "<r><type>ping</type><z/><type>move</type></r>",
        "<r><type>move</type><x>1</x><y>2</y><type>ping</type></r>",
    ] {
        let (raw, direct) = xml_paths::<Internal>(xml);
        assert!(
            raw.is_err() && direct.is_none(),
            "{xml}: {raw:?} {direct:?}"
        );
    }
    let wrapped = r#"{"type": "wrapped", "version": 1, "owner": null}"#;
    assert!(matches!(json(wrapped), (None, Some(Internal::Wrapped(_)))));
    for src in [
        r#"{"type": "move", "x": 1}"#,
        r#"{"type": "nope"}"#,
        r#"{"type": 5}"#,
        "{}",
        r#""ping""#,
    ] {
        assert_eq!(json(src), (None, None), "{src}");
    }

    type Map = BTreeMap<String, Internal>;
    let toml = "a = { type = \"ping\" }\n[b]\ntype = \"move\"\nx = 1\ny = 2\n";
    let direct = toml_read_without_raw_values::<Map>(toml);
    assert_eq!(direct["b"], moved);

    let yaml = "a: {type: ping}\nb:\n  type: move\n  x: 1\n  y: 2\n";
    let direct = yaml_read_without_raw_values::<Map>(yaml);
    assert_eq!(direct["b"], moved);
}

/// An adjacently tagged enum's direct path reads the tag when it is the object's first
/// key, then the content where its key comes, passing over other keys as the RawValue
/// path does; a tag elsewhere, a repeated tag or content, or no content falls back.
#[test]
fn adjacently_tagged_enums_read_directly_when_the_tag_comes_first() {
    let json = json_paths::<Adjacent>;
    let named = Adjacent::Named { label: "l".into() };
    for (src, expected) in [
        (r#"{"t": "Empty"}"#, Adjacent::Empty),
        (r#"{"t": "Empty", "c": [1], "c": 2}"#, Adjacent::Empty),
        (r#"{"t": "Count", "c": 3}"#, Adjacent::Count(3)),
        (
            r#"{"t": "Count", "x": {"y": 1}, "c": 3, "z": 0}"#,
            Adjacent::Count(3),
        ),
        (r#"{"t": "Named", "c": {"label": "l"}}"#, named.clone()),
    ] {
        assert_eq!(json(src), (Some(expected.clone()), Some(expected)), "{src}");
    }
    for (src, raw) in [
        (r#"{"c": 3, "t": "Count"}"#, Some(Adjacent::Count(3))),
        (
            r#"{"t": "Count", "c": 3, "c": 4}"#,
            Some(Adjacent::Count(4)),
        ),
        (
            r#"{"t": "Empty", "t": "Count", "c": 4}"#,
            Some(Adjacent::Count(4)),
        ),
        (r#"{"t": "Count"}"#, None),
        (r#"{"t": "Count", "c": "x"}"#, None),
        (r#"{"t": "Other", "c": 1}"#, None),
    ] {
        assert_eq!(json(src), (None, raw), "{src}");
    }

    type Map = BTreeMap<String, Adjacent>;
    let toml = "a = { t = \"Empty\" }\n[b]\nt = \"Named\"\nc = { label = \"l\" }\n";
    let direct = toml_read_without_raw_values::<Map>(toml);
    assert_eq!(direct["b"], named);
}
