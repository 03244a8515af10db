//! `#[derive(Decode, Encode)]`: every attribute, on JSON input (the direct path and the
//! facade) and on RawValue input, errors with paths, and the two paths compared.

use std::borrow::Cow;
use std::collections::BTreeMap;

use proptest::prelude::*;
use quarry::{json, Decode, Encode, Format, PullSource};

/// Decodes through the RawValue path only.
fn via_raw<'a, T: Decode<'a>>(src: &'a str) -> Result<T, quarry::DecodeErrors> {
    T::decode(json::parse(src.as_bytes()).expect("valid JSON"))
}

/// Decodes through the direct JSON path only (`None` when it falls back).
fn via_direct<'a, T: Decode<'a>>(src: &'a str) -> Option<T> {
    let mut parser = json::DirectSource::new(src.as_bytes(), quarry::Limits::default()).ok()?;
    let value = T::decode_direct(&mut parser).ok()?;
    parser.finish().ok()?;
    Some(value)
}

/// Decodes through the facade and renders every error, one per line.
fn errors<'a, T: Decode<'a> + std::fmt::Debug>(src: &'a str) -> String {
    quarry::from_str::<T>(src, Format::Json)
        .unwrap_err()
        .to_string()
}

fn encode<T: Encode>(value: &T) -> String {
    json::to_string(value).unwrap()
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
#[quarry(rename_all = "camelCase")]
struct Server {
    host_name: String,
    #[quarry(range = 1..=65535)]
    port: u16,
    #[quarry(alias = "labels", default)]
    tags: Vec<String>,
    weight: Option<f64>,
    #[quarry(skip)]
    cache: u8,
}

#[test]
fn named_struct_both_paths_and_encode() {
    let src = r#"{"hostName": "a", "port": 80, "labels": ["x"], "unknown": {"deep": [1]}}"#;
    let expected = Server {
        host_name: "a".into(),
        port: 80,
        tags: vec!["x".into()],
        weight: None,
        cache: 0,
    };
    assert_eq!(via_raw::<Server>(src).unwrap(), expected);
    assert_eq!(via_direct::<Server>(src).unwrap(), expected);
    assert_eq!(
        quarry::from_str::<Server>(src, Format::Json).unwrap(),
        expected
    );
    assert_eq!(
        encode(&expected),
        r#"{"hostName":"a","port":80,"tags":["x"],"weight":null}"#
    );
    // Out of declaration order, with the weight present.
    let reordered = r#"{"weight": 1.5, "port": 443, "hostName": "b"}"#;
    let server = via_direct::<Server>(reordered).unwrap();
    assert_eq!(
        (server.port, server.weight, server.tags.len()),
        (443, Some(1.5), 0)
    );
}

#[test]
fn every_bad_field_is_reported_with_its_path_and_position() {
    let src = "{\n  \"hostName\": 7,\n  \"port\": 0,\n  \"tags\": [\"ok\", 3]\n}";
    assert_eq!(
        errors::<Server>(src),
        "hostName: expected string, found 7 at line 2, column 15\n\
         port: expected integer in 1..=65535, found 0 at line 3, column 11\n\
         tags[1]: expected string, found 3 at line 4, column 18"
    );
    assert_eq!(
        errors::<Server>("{}"),
        "missing field `hostName` at line 1, column 1\nmissing field `port` at line 1, column 1"
    );
    assert_eq!(
        errors::<Server>("[]"),
        "expected map (struct Server), found sequence of 0 at line 1, column 1"
    );
    // A type error on a range-constrained field names the range (DESIGN.md's example).
    let port = errors::<Server>(r#"{"hostName": "a", "port": "http"}"#);
    assert_eq!(
        port,
        "port: expected integer in 1..=65535, found string \"http\" at line 1, column 27"
    );
    let port = errors::<Server>(r#"{"hostName": "a", "port": 70000}"#);
    assert_eq!(
        port,
        "port: expected integer in 1..=65535, found 70000 at line 1, column 27"
    );
    // A name and its alias together are ambiguous.
    let both = errors::<Server>(r#"{"hostName": "a", "port": 1, "tags": [], "labels": []}"#);
    assert_eq!(both, "labels: duplicate field `tags` at line 1, column 52");
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct Nested {
    servers: Vec<Server>,
    limits: BTreeMap<String, u32>,
}

#[test]
fn nested_paths() {
    let src = r#"{"servers": [{"hostName": "a", "port": 1}, {"hostName": "b", "port": 70000}], "limits": {"cpu": -1}}"#;
    assert_eq!(
        errors::<Nested>(src),
        "servers[1].port: expected integer in 1..=65535, found 70000 at line 1, column 70\n\
         limits.cpu: expected integer in 0..=4294967295, found -1 at line 1, column 97"
    );
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(rename_all = "snake_case")]
struct Snake {
    #[quarry(rename = "HTTP")]
    http: bool,
    some_field: u8,
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(rename_all = "PascalCase")]
struct Pascal {
    some_field: u8,
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(rename_all = "kebab-case")]
struct Kebab {
    some_field: u8,
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(rename_all = "SCREAMING_SNAKE_CASE")]
struct Screaming {
    some_field: u8,
}

#[test]
fn renames() {
    assert_eq!(
        via_raw::<Snake>(r#"{"HTTP": true, "some_field": 1}"#).unwrap(),
        Snake {
            http: true,
            some_field: 1
        }
    );
    assert_eq!(
        via_direct::<Pascal>(r#"{"SomeField": 2}"#).unwrap(),
        Pascal { some_field: 2 }
    );
    assert_eq!(
        via_direct::<Kebab>(r#"{"some-field": 3}"#).unwrap(),
        Kebab { some_field: 3 }
    );
    assert_eq!(
        via_raw::<Screaming>(r#"{"SOME_FIELD": 4}"#).unwrap(),
        Screaming { some_field: 4 }
    );
    assert_eq!(encode(&Kebab { some_field: 3 }), r#"{"some-field":3}"#);
    assert_eq!(
        encode(&Snake {
            http: false,
            some_field: 0
        }),
        r#"{"HTTP":false,"some_field":0}"#
    );
}

fn default_port() -> u16 {
    8080
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(deny_unknown_fields)]
struct Strict {
    name: String,
    #[quarry(default = "default_port")]
    port: u16,
    #[quarry(default = default_port)]
    admin_port: u16,
}

#[test]
fn defaults_and_unknown_fields() {
    let strict = via_direct::<Strict>(r#"{"name": "x"}"#).unwrap();
    assert_eq!((strict.port, strict.admin_port), (8080, 8080));
    assert_eq!(
        via_raw::<Strict>(r#"{"name": "x", "port": 1}"#)
            .unwrap()
            .port,
        1
    );
    assert!(via_direct::<Strict>(r#"{"name": "x", "extra": 1}"#).is_none());
    assert_eq!(
        errors::<Strict>(r#"{"name": "x", "extra": 1}"#),
        "extra: unknown field `extra` at line 1, column 24 (expected one of `name`, `port`, `admin_port`)"
    );
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
struct Metadata {
    version: u32,
    owner: Option<String>,
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct WithFlatten {
    name: String,
    #[quarry(flatten)]
    meta: Metadata,
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct WithFlattenMap {
    name: String,
    #[quarry(flatten)]
    rest: BTreeMap<String, i64>,
}

#[test]
fn flatten() {
    let value = via_raw::<WithFlattenMap>(r#"{"name": "n", "a": 1, "b": 2}"#).unwrap();
    assert_eq!(value.rest.len(), 2);
    assert_eq!(
        quarry::from_str::<WithFlattenMap>(r#"{"a": 1, "name": "n"}"#, Format::Json)
            .unwrap()
            .rest["a"],
        1
    );
    assert_eq!(encode(&value), r#"{"name":"n","a":1,"b":2}"#);
    let err = errors::<WithFlattenMap>(r#"{"name": "n", "a": "x"}"#);
    assert_eq!(
        err,
        "a: expected integer, found string \"x\" at line 1, column 20"
    );
    let with =
        quarry::from_str::<WithFlatten>(r#"{"version": 2, "name": "n"}"#, Format::Json).unwrap();
    assert_eq!(
        with,
        WithFlatten {
            name: "n".into(),
            meta: Metadata {
                version: 2,
                owner: None
            }
        }
    );
    assert_eq!(encode(&with), r#"{"name":"n","version":2,"owner":null}"#);
    assert_eq!(
        errors::<WithFlatten>(r#"{"name": "n"}"#),
        "missing field `version` at line 1, column 1"
    );
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct Borrowed<'a> {
    name: &'a str,
    note: Cow<'a, str>,
}

#[test]
fn borrowed_fields_borrow() {
    let src = r#"{"name": "plain", "note": "with \"escape\""}"#;
    let b = quarry::from_str::<Borrowed>(src, Format::Json).unwrap();
    assert_eq!(b.name, "plain");
    assert!(matches!(b.note, Cow::Owned(_)));
    let direct = via_direct::<Borrowed>(r#"{"name": "p", "note": "q"}"#).unwrap();
    assert!(matches!(direct.note, Cow::Borrowed("q")));
    let err = errors::<Borrowed>(r#"{"name": "a\nb", "note": ""}"#);
    assert!(
        err.starts_with("name: expected a string borrowed from the input"),
        "{err}"
    );
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct Port(#[quarry(range = 1..=65535)] u16);

#[derive(Decode, Encode, Debug, PartialEq)]
struct Pair(String, #[quarry(len = ..=2)] Vec<u8>);

#[derive(Decode, Encode, Debug, PartialEq)]
struct Unit;

#[derive(Decode, Encode, Debug, PartialEq)]
struct Wrapper<T: Clone> {
    inner: T,
    list: Vec<T>,
}

#[test]
fn newtype_tuple_unit_and_generic_structs() {
    assert_eq!(via_direct::<Port>("8080").unwrap(), Port(8080));
    assert_eq!(
        errors::<Port>("0"),
        "expected integer in 1..=65535, found 0 at line 1, column 1"
    );
    assert_eq!(
        via_raw::<Pair>(r#"["a", [1, 2]]"#).unwrap(),
        Pair("a".into(), vec![1, 2])
    );
    assert_eq!(
        errors::<Pair>(r#"["a", [1, 2, 3]]"#),
        "[1]: expected length in ..=2, found length 3 at line 1, column 7"
    );
    assert_eq!(encode(&Pair("a".into(), vec![1])), r#"["a",[1]]"#);
    assert_eq!(via_raw::<Unit>("null").unwrap(), Unit);
    assert_eq!(encode(&Unit), "null");
    let w = via_direct::<Wrapper<u8>>(r#"{"inner": 1, "list": [2, 3]}"#).unwrap();
    assert_eq!(
        w,
        Wrapper {
            inner: 1,
            list: vec![2, 3]
        }
    );
    assert_eq!(encode(&w), r#"{"inner":1,"list":[2,3]}"#);
}

#[derive(Decode, Encode, Debug, PartialEq, Clone, Copy)]
#[quarry(rename_all = "lowercase")]
enum Level {
    Debug,
    #[quarry(alias = "warn")]
    Warning,
    Error,
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
enum External {
    Unit,
    Newtype(u8),
    Tuple(u8, String),
    Struct { a: u8 },
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
#[quarry(tag = "type", rename_all = "snake_case")]
enum Internal {
    Ping,
    Move { x: i32, y: i32 },
    Wrapped(Metadata),
}

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
#[quarry(tag = "t", content = "c")]
enum Adjacent {
    Empty,
    Count(u32),
    Named { label: String },
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(untagged)]
enum Untagged {
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

fn even(value: &u32) -> Result<(), String> {
    if value % 2 == 0 {
        Ok(())
    } else {
        Err(format!("{value} is odd"))
    }
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct Account {
    #[quarry(len = 1..=8, pattern = "^[a-z]+$")]
    user: String,
    #[quarry(validate = even)]
    quota: u32,
    #[quarry(range = 0.0..=1.0)]
    ratio: Option<f64>,
}

#[test]
fn constraints_accumulate() {
    let ok = r#"{"user": "ada", "quota": 2, "ratio": 0.5}"#;
    assert_eq!(via_direct::<Account>(ok).unwrap().quota, 2);
    let bad = r#"{"user": "ADA_LOVELACE", "quota": 3, "ratio": 1.5}"#;
    assert!(via_direct::<Account>(bad).is_none());
    assert_eq!(
        errors::<Account>(bad),
        "user: expected length in 1..=8, found length 12 at line 1, column 10\n\
         user: expected a string matching `^[a-z]+$`, found string \"ADA_LOVELACE\" at line 1, column 10\n\
         quota: 3 is odd at line 1, column 35\n\
         ratio: expected number in 0.0..=1.0, found 1.5 at line 1, column 47"
    );
    assert_eq!(
        via_raw::<Account>(r#"{"user": "a", "quota": 0, "ratio": null}"#)
            .unwrap()
            .ratio,
        None
    );
}

/// The constraints of the one field of a newtype variant, in every tagging style: each
/// enum has a variant per constraint kind (an internally tagged variant holds a map, so
/// it takes `len` and `validate`).
#[derive(Decode, Debug, PartialEq)]
enum CheckedExternal {
    Len(#[quarry(len = 1..=3)] String),
    Range(#[quarry(range = 1..=9)] u32),
    Pattern(#[quarry(pattern = "^[a-z]+$")] String),
    Validate(#[quarry(validate = even)] u32),
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(tag = "t", content = "c")]
enum CheckedAdjacent {
    Len(#[quarry(len = 1..=3)] String),
    Range(#[quarry(range = 1..=9)] u32),
    Pattern(#[quarry(pattern = "^[a-z]+$")] String),
    Validate(#[quarry(validate = even)] u32),
}

fn at_most_two(map: &BTreeMap<String, u32>) -> Result<(), String> {
    match map.len() {
        0..=2 => Ok(()),
        n => Err(format!("{n} entries, at most 2 allowed")),
    }
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(tag = "t")]
enum CheckedInternal {
    Len(#[quarry(len = 1..=2)] BTreeMap<String, u32>),
    Validate(#[quarry(validate = at_most_two)] BTreeMap<String, u32>),
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(untagged)]
enum CheckedUntaggedNumber {
    Small(#[quarry(range = 1..=9)] u32),
    Word(#[quarry(len = 1..=3)] String),
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(untagged)]
enum CheckedUntagged {
    Even(#[quarry(validate = even)] u32),
    Lower(#[quarry(pattern = "^[a-z]+$")] String),
}

/// Both decode paths: the RawValue path's result, and the direct path agreeing with it
/// (it may fall back, never accept what the RawValue path rejects).
fn both_paths<'a, T: Decode<'a> + PartialEq + std::fmt::Debug>(src: &'a str) -> Result<T, String> {
    let raw = via_raw::<T>(src);
    let direct = via_direct::<T>(src);
    match &raw {
        Ok(value) => assert!(direct.as_ref().map_or(true, |d| d == value), "{src}"),
        Err(_) => assert_eq!(direct, None, "{src}: the direct path accepted it"),
    }
    raw.map_err(|e| e.to_string())
}

/// Every case of `cases` whose result differs from the expected error, as text (so a
/// failure lists every constraint kind that was not enforced).
fn wrong<'a, T: Decode<'a> + PartialEq + std::fmt::Debug>(
    cases: &[(&'a str, &str)],
) -> Vec<String> {
    cases
        .iter()
        .filter_map(|&(src, message)| {
            let got = both_paths::<T>(src);
            (got != Err(message.to_owned())).then(|| format!("{src}: {got:?}"))
        })
        .collect()
}

#[test]
fn constraints_on_externally_tagged_newtype_variants_apply() {
    assert_eq!(
        both_paths::<CheckedExternal>(r#"{"Len": "abc"}"#),
        Ok(CheckedExternal::Len("abc".into()))
    );
    // The error sits under the variant's name; a type error names the accepted range,
    // as on a struct field.
    let failures = wrong::<CheckedExternal>(&[
        (
            r#"{"Len": "toolong"}"#,
            "Len: expected length in 1..=3, found length 7",
        ),
        (
            r#"{"Range": 70}"#,
            "Range: expected integer in 1..=9, found 70",
        ),
        (
            r#"{"Range": "x"}"#,
            "Range: expected integer in 1..=9, found string \"x\"",
        ),
        (
            r#"{"Pattern": "A1"}"#,
            "Pattern: expected a string matching `^[a-z]+$`, found string \"A1\"",
        ),
        (r#"{"Validate": 3}"#, "Validate: 3 is odd"),
    ]);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn constraints_on_adjacently_tagged_newtype_variants_apply() {
    assert_eq!(
        both_paths::<CheckedAdjacent>(r#"{"t": "Range", "c": 9}"#),
        Ok(CheckedAdjacent::Range(9))
    );
    // The error sits under the content key.
    let failures = wrong::<CheckedAdjacent>(&[
        (
            r#"{"t": "Len", "c": "toolong"}"#,
            "c: expected length in 1..=3, found length 7",
        ),
        (
            r#"{"t": "Range", "c": 0}"#,
            "c: expected integer in 1..=9, found 0",
        ),
        (
            r#"{"t": "Pattern", "c": "A1"}"#,
            "c: expected a string matching `^[a-z]+$`, found string \"A1\"",
        ),
        (r#"{"t": "Validate", "c": 3}"#, "c: 3 is odd"),
    ]);
    assert!(failures.is_empty(), "{failures:#?}");
    // Through the facade, with the position of the offending value.
    assert_eq!(
        errors::<CheckedAdjacent>(r#"{"t": "Len", "c": "toolong"}"#),
        "c: expected length in 1..=3, found length 7 at line 1, column 19"
    );
}

#[test]
fn constraints_on_internally_tagged_newtype_variants_apply() {
    assert_eq!(
        both_paths::<CheckedInternal>(r#"{"t": "Len", "a": 1}"#),
        Ok(CheckedInternal::Len(BTreeMap::from([("a".to_owned(), 1)])))
    );
    // The content is the map itself, so the error has no path.
    let failures = wrong::<CheckedInternal>(&[
        (
            r#"{"t": "Len", "a": 1, "b": 2, "c": 3}"#,
            "expected length in 1..=2, found length 3",
        ),
        (
            r#"{"t": "Validate", "a": 1, "b": 2, "c": 3}"#,
            "3 entries, at most 2 allowed",
        ),
    ]);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn constraints_on_untagged_newtype_variants_apply() {
    // A variant whose constraint fails does not match.
    assert_eq!(
        both_paths::<CheckedUntaggedNumber>("7"),
        Ok(CheckedUntaggedNumber::Small(7))
    );
    assert_eq!(
        both_paths::<CheckedUntaggedNumber>(r#""ab""#),
        Ok(CheckedUntaggedNumber::Word("ab".into()))
    );
    assert_eq!(
        both_paths::<CheckedUntagged>("4"),
        Ok(CheckedUntagged::Even(4))
    );
    assert_eq!(
        both_paths::<CheckedUntagged>(r#""ab""#),
        Ok(CheckedUntagged::Lower("ab".into()))
    );
    let none = "data did not match any variant of untagged enum";
    let mut failures = wrong::<CheckedUntaggedNumber>(&[
        (
            "70",
            &format!(
                "{none} `CheckedUntaggedNumber`: `Small`: expected integer in 1..=9, found 70; \
                 `Word`: expected string, found 70"
            ),
        ),
        (
            r#""toolong""#,
            &format!(
                "{none} `CheckedUntaggedNumber`: `Small`: expected integer in 1..=9, found string \"toolong\"; \
                 `Word`: expected length in 1..=3, found length 7"
            ),
        ),
    ]);
    failures.extend(wrong::<CheckedUntagged>(&[
        (
            "3",
            &format!(
                "{none} `CheckedUntagged`: `Even`: 3 is odd; `Lower`: expected string, found 3"
            ),
        ),
        (
            r#""A1""#,
            &format!(
                "{none} `CheckedUntagged`: `Even`: expected integer, found string \"A1\"; \
                 `Lower`: expected a string matching `^[a-z]+$`, found string \"A1\""
            ),
        ),
    ]));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A constraint on a flattened field applies to the value the field gathered; the field
/// has no key, so the error sits at the struct.
#[derive(Decode, Debug, PartialEq)]
struct Gathered {
    name: String,
    #[quarry(flatten, validate = at_most_two)]
    rest: BTreeMap<String, u32>,
}

#[test]
fn constraints_on_flattened_fields_apply() {
    assert_eq!(
        both_paths::<Gathered>(r#"{"name": "x", "a": 1, "b": 2}"#).map(|g| g.rest.len()),
        Ok(2)
    );
    assert_eq!(
        both_paths::<Gathered>(r#"{"name": "x", "a": 1, "b": 2, "c": 3}"#),
        Err("3 entries, at most 2 allowed".to_owned())
    );
}

/// Random documents over Server's keys (with wrong types, unknown keys, duplicates and
/// aliases mixed in): the direct path agrees with the RawValue path on every one.
fn server_document() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("hostName"),
        Just("port"),
        Just("tags"),
        Just("labels"),
        Just("weight"),
        Just("other"),
        Just("cache")
    ];
    let value = prop_oneof![
        Just("\"h\"".to_owned()),
        Just("\"esc\\u00e9\"".to_owned()),
        (0i64..70_000).prop_map(|n| n.to_string()),
        Just("-1".to_owned()),
        Just("1.5".to_owned()),
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("[\"a\", \"b\"]".to_owned()),
        Just("[1]".to_owned()),
        Just("{\"k\": [null]}".to_owned()),
    ];
    prop::collection::vec((key, value), 0..7).prop_map(|members| {
        let body: Vec<String> = members
            .iter()
            .map(|(k, v)| format!("\"{k}\": {v}"))
            .collect();
        format!("{{{}}}", body.join(", "))
    })
}

/// Random TOML documents for Server: its two required keys with right and wrong values,
/// then keys, tables and arrays of tables it knows or skips, in any order (repeats make
/// invalid documents, a table reopened after another makes the direct path fall back).
fn server_toml() -> impl Strategy<Value = String> {
    let host = prop_oneof![
        Just("\"h\""),
        Just("'lit'"),
        Just("\"esc\\u00e9\""),
        Just("\"\"\"\nmulti\"\"\""),
        Just("1979-05-27"),
        Just("5"),
    ];
    let port = prop_oneof![
        (0i64..70_000).prop_map(|n| n.to_string()),
        Just("0x50".to_owned()),
        Just("\"80\"".to_owned()),
        Just("1.5".to_owned()),
    ];
    let line = prop_oneof![
        Just("tags = [\"a\", \"b\"]"),
        Just("tags = [\n  \"a\", # one\n  'b',\n]"),
        Just("labels = []"),
        Just("tags = [1]"),
        Just("weight = 1.5"),
        Just("weight = 2"),
        Just("weight = -inf"),
        Just("weight = \"x\""),
        Just("other = {a = 1, b = [1, {c = 2}]}"),
        Just("when = 2024-01-01T00:00:00Z"),
        Just("dotted.a = 1"),
        Just("dotted.b.c = \"x\"  # comment"),
        Just("cache = 1"),
    ];
    let section = prop_oneof![
        Just("[extra]\nx = 1"),
        Just("[extra.deeper]\ny = [2]"),
        Just("[[list]]\nz = 1\n[list.sub]\nw = 2\n[[list]]"),
        Just("[[tags]]\nname = 'x'"),
        Just("[weight]"),
        Just("[dotted.more]"),
    ];
    (
        host,
        port,
        prop::collection::vec(line, 0..5),
        prop::collection::vec(section, 0..4),
        any::<bool>(),
    )
        .prop_map(|(host, port, lines, sections, port_first)| {
            let mut doc = String::new();
            let required = [format!("hostName = {host}\n"), format!("port = {port}\n")];
            let order = if port_first { [1, 0] } else { [0, 1] };
            for (i, line) in lines.iter().enumerate() {
                if i == 1 {
                    doc.push_str(&required[order[0]]);
                }
                doc.push_str(line);
                doc.push('\n');
            }
            if lines.len() < 2 {
                doc.push_str(&required[order[0]]);
            }
            doc.push_str(&required[order[1]]);
            for section in sections {
                doc.push_str(section);
                doc.push('\n');
            }
            doc
        })
}

/// Random block YAML lists of Server records: the keys it knows, keys a guess only
/// begins or that begin a guess, quoted keys, a key with a space, a merge key, at the
/// record's indentation or off it; plain, quoted, flow, nested and aliased values. The
/// direct path reads keys it guesses in place, the rest by the parser's steps.
fn server_yaml() -> impl Strategy<Value = String> {
    // Unknown keys (skipped, whatever their value) most often; known ones, duplicates
    // and a merge key less.
    let key = prop_oneof![
        3 => Just("hostNam"),
        3 => Just("hostNamex"),
        3 => Just("portx"),
        2 => Just("we ight"),
        3 => Just("other"),
        2 => Just("cache"),
        2 => Just("tags"),
        1 => Just("labels"),
        2 => Just("weight"),
        1 => Just("\"port\""),
        1 => Just("'hostName'"),
    ];
    let value = prop_oneof![
        3 => Just(" h".to_owned()),
        2 => Just(" \"h\"".to_owned()),
        1 => Just(" \"esc\\u00e9\"".to_owned()),
        1 => Just(" 'single'".to_owned()),
        2 => (0i64..70_000).prop_map(|n| format!(" {n}")),
        1 => Just(" -1".to_owned()),
        2 => Just(" 1.5".to_owned()),
        1 => Just(" ~".to_owned()),
        1 => Just(" true".to_owned()),
        2 => Just(" [a, b]".to_owned()),
        1 => Just(" {k: v}".to_owned()),
        1 => Just(" &a x".to_owned()),
        1 => Just(" x # note".to_owned()),
        1 => Just(" two\n    words".to_owned()),
        2 => Just("\n    - a\n    - b".to_owned()),
        1 => Just("\n  - c".to_owned()),
        1 => Just("\n    k: 1\n    j: [2]".to_owned()),
        1 => Just("".to_owned()),
    ];
    let indent = prop_oneof![19 => Just(""), 1 => Just(" ")];
    let member = prop_oneof![
        30 => (indent, key, value).prop_map(|(i, k, v)| format!("{i}{k}:{v}")),
        1 => Just("<<: {other: 1}".to_owned()),
    ];
    let host = prop_oneof![
        Just("hostName: h".to_owned()),
        Just("hostName: \"quoted\"".to_owned()),
        Just("hostName: é".to_owned()),
    ];
    let port = (1u32..70_000).prop_map(|n| format!("port: {n}"));
    // Mostly records with both required keys, at a random place among the others.
    let record = (
        host,
        port,
        prop::collection::vec(member, 0..4),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        0..30u8,
    )
        .prop_map(|(host, port, mut members, at_host, at_port, drop)| {
            if drop != 0 {
                members.insert(at_host.index(members.len() + 1), host);
            }
            if drop != 1 {
                members.insert(at_port.index(members.len() + 1), port);
            }
            members
        });
    prop::collection::vec(record, 1..4).prop_map(|records| {
        let mut doc = String::new();
        for members in records {
            for (i, member) in members.iter().enumerate() {
                doc.push_str(if i == 0 { "- " } else { "  " });
                doc.push_str(member);
                doc.push('\n');
            }
            if members.is_empty() {
                doc.push_str("- {}\n");
            }
        }
        doc
    })
}

proptest! {
    #[test]
    fn yaml_direct_path_equals_raw_value_path(doc in server_yaml()) {
        let raw = quarry::yaml::parse(doc.as_bytes()).map(Vec::<Server>::decode);
        let mut source = quarry::yaml::DirectSource::new(doc.as_bytes(), quarry::Limits::default()).unwrap();
        let direct = Vec::<Server>::decode_direct(&mut source).ok().filter(|_| source.finish().is_ok());
        // The direct path may fall back (on an alias, a merge key or an error), never differ.
        if let Some(direct) = &direct {
            prop_assert_eq!(Some(direct), raw.as_ref().ok().and_then(|r| r.as_ref().ok()), "{}", doc);
        }
        let facade = quarry::from_str::<Vec<Server>>(&doc, Format::Yaml);
        prop_assert_eq!(facade.ok(), raw.ok().and_then(Result::ok));
    }

    #[test]
    fn direct_path_equals_raw_value_path(doc in server_document()) {
        let raw = via_raw::<Server>(&doc);
        let direct = via_direct::<Server>(&doc);
        prop_assert_eq!(direct.as_ref(), raw.as_ref().ok(), "{}", doc);
        let facade = quarry::from_str::<Server>(&doc, Format::Json);
        match (&facade, &raw) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(quarry::Error::Decode(a)), Err(b)) => {
                let strip = |e: &quarry::DecodeErrors| e.iter().map(|e| (e.path(), e.kind.clone())).collect::<Vec<_>>();
                prop_assert_eq!(strip(a), strip(b));
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }

    #[test]
    fn bplist_direct_path_equals_raw_value_path(doc in server_document()) {
        // The same documents as binary plists (a plist has no null: those are left out).
        let value = json::parse(doc.as_bytes()).unwrap();
        let Ok(file) = quarry::plist::to_vec_binary(&value) else { return Ok(()) };
        let raw = Server::decode(quarry::plist::parse(&file).unwrap());
        let mut source = quarry::plist::DirectSource::new(&file, quarry::Limits::default()).unwrap();
        let direct = Server::decode_direct(&mut source).ok();
        prop_assert_eq!(direct.as_ref(), raw.as_ref().ok(), "{}", doc);
        let facade = quarry::from_slice::<Server>(&file, Format::Plist);
        prop_assert_eq!(facade.ok(), raw.ok());
    }

    #[test]
    fn toml_direct_path_equals_raw_value_path(doc in server_toml()) {
        let raw = quarry::toml::parse(doc.as_bytes()).map(Server::decode);
        let mut source = quarry::toml::DirectSource::new(doc.as_bytes(), quarry::Limits::default()).unwrap();
        let direct = Server::decode_direct(&mut source).ok().filter(|_| source.finish().is_ok());
        // The direct path may fall back (a datetime read as a string does), never differ.
        if let Some(direct) = &direct {
            prop_assert_eq!(Some(direct), raw.as_ref().ok().and_then(|r| r.as_ref().ok()), "{}", doc);
        }
        let facade = quarry::from_str::<Server>(&doc, Format::Toml);
        prop_assert_eq!(facade.ok(), raw.ok().and_then(Result::ok));
    }

    #[test]
    fn encode_then_decode_round_trips(host in "[a-zé\"]{1,8}", port in 1u16.., tags in prop::collection::vec("[a-zé]{0,4}", 0..3), weight in prop::option::of(-1e6f64..1e6)) {
        let server = Server { host_name: host, port, tags, weight, cache: 0 };
        let text = encode(&server);
        prop_assert_eq!(&via_direct::<Server>(&text).unwrap(), &server);
        prop_assert_eq!(&via_raw::<Server>(&text).unwrap(), &server);
        // Binary plists (UTF-16 text when it is not ASCII) through their direct path.
        let file = quarry::plist::to_vec_with(&server, quarry::plist::PlistFormat::Binary, quarry::plist::NullEntries::Skip).unwrap();
        let mut source = quarry::plist::DirectSource::new(&file, quarry::Limits::default()).unwrap();
        prop_assert_eq!(&Server::decode_direct(&mut source).unwrap(), &server);
    }
}

#[test]
fn field_names_that_need_escaping_are_escaped() {
    #[derive(Decode, Encode, Debug, PartialEq)]
    struct Odd {
        #[quarry(rename = "say \"hi\"")]
        quoted: u8,
        #[quarry(rename = "tab\there")]
        tab: u8,
        plain: u8,
    }
    let odd = Odd {
        quoted: 1,
        tab: 2,
        plain: 3,
    };
    let text = encode(&odd);
    assert_eq!(text, r#"{"say \"hi\"":1,"tab\there":2,"plain":3}"#);
    assert_eq!(via_direct::<Odd>(&text).unwrap(), odd);
    let pretty = String::from_utf8(json::to_vec_pretty(&odd).unwrap()).unwrap();
    assert_eq!(
        pretty,
        "{\n  \"say \\\"hi\\\"\": 1,\n  \"tab\\there\": 2,\n  \"plain\": 3\n}"
    );
}

/// A TOML table added to after another began (`[target.a]`, `[deps]`, `[target.b]`) is
/// read directly when the type skips it; when the type reads it, the direct path falls
/// back and the RawValue path (which merges the two parts) decides.
#[test]
fn toml_tables_added_to_later() {
    #[derive(Decode, Debug, PartialEq)]
    struct Pkg {
        name: String,
    }
    #[derive(Decode, Debug, PartialEq)]
    struct Doc {
        name: String,
        #[quarry(default)]
        deps: BTreeMap<String, String>,
        pkg: Option<Pkg>,
    }
    let skipped =
        "name = 'x'\n[target.a]\nk = 1\n[deps]\nd = '1'\n[target.b]\nk = [2]\n[target.a.more]\n";
    assert_eq!(toml_direct::<Doc>(skipped), Some(toml_raw(skipped)));
    assert_eq!(toml_raw::<Doc>(skipped).deps.len(), 1);

    // `[pkg]` was read and closed; `meta` is a key `Pkg` passes over, so the later
    // section is checked and passed over where it stands.
    let read_twice = "name = 'x'\n[pkg]\nname = 'p'\n[deps]\n[pkg.meta]\nm = 1\n";
    assert_eq!(toml_direct::<Doc>(read_twice), Some(toml_raw(read_twice)));
    let decoded = quarry::from_str::<Doc>(read_twice, Format::Toml).unwrap();
    assert_eq!(decoded.pkg, Some(Pkg { name: "p".into() }));
}

/// An `f64` field reads the same through TOML's and binary plists' direct paths as
/// through the RawValue path: floats, integers at the ends of their ranges, and the
/// values that are no number (the direct path falls back, the RawValue path refuses).
#[test]
fn f64_fields_read_directly_as_through_raw_values() {
    #[derive(Decode, Debug)]
    struct F {
        x: f64,
    }
    let bits = |f: F| f.x.to_bits();
    for value in [
        "0",
        "-1",
        "1.5",
        "-2.5e-3",
        "1e308",
        "-0.0",
        "inf",
        "-nan",
        "9223372036854775807",
        "-9223372036854775808",
        "'text'",
        "true",
        "[1.0]",
    ] {
        let doc = format!("x = {value}");
        let raw = F::decode(quarry::toml::parse(doc.as_bytes()).unwrap());
        let number = !matches!(value, "'text'" | "true" | "[1.0]");
        assert_eq!(raw.is_ok(), number, "{doc}");
        assert_eq!(
            toml_direct::<F>(&doc).map(bits),
            raw.ok().map(bits),
            "{doc}"
        );
    }
    let values = [
        quarry::RawValue::Float(-2.5e-3),
        quarry::RawValue::Float(f64::INFINITY),
        quarry::RawValue::Int(i64::MIN),
        quarry::RawValue::UInt(u64::MAX),
        quarry::RawValue::String("1.5".into()),
        quarry::RawValue::Bool(true),
    ];
    for value in values {
        let map = quarry::RawValue::Map(vec![("x".into(), value.clone())]);
        let file = quarry::plist::to_vec_binary(&map).unwrap();
        let raw = F::decode(quarry::plist::parse(&file).unwrap());
        let mut source =
            quarry::plist::DirectSource::new(&file, quarry::Limits::default()).unwrap();
        let direct = F::decode_direct(&mut source).ok();
        let number = !matches!(
            value,
            quarry::RawValue::String(_) | quarry::RawValue::Bool(_)
        );
        assert_eq!(raw.is_ok(), number, "{value:?}");
        assert_eq!(direct.map(bits), raw.ok().map(bits), "{value:?}");
    }
}

/// Number fields read the same through YAML's direct path (which reads them from the
/// scalar's text) as through the RawValue path: integers at the ends of their ranges,
/// floats of every shape the core schema has, and values that are no number (the
/// direct path falls back, the RawValue path refuses).
#[test]
fn yaml_number_fields_read_directly_as_through_raw_values() {
    #[derive(Decode, Debug, PartialEq)]
    struct N {
        i: Option<i64>,
        u: Option<u64>,
        f: Option<f64>,
        small: Option<i16>,
    }
    let values = [
        "0",
        "-17",
        "+17",
        "007",
        "0x1F",
        "0o17",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "1.5",
        "-0.0",
        "+2.25",
        "1.",
        ".5",
        "-1.5e3",
        "1e999",
        "-.inf",
        ".NaN",
        "0.1000000000000000055511151231257827",
        "1234567890123456789.5",
        "'7'",
        "true",
        "~",
        "[1]",
        "1.2.3",
    ];
    for value in values {
        for field in ["i", "u", "f", "small"] {
            let doc = format!("{field}: {value}\n");
            let raw = N::decode(quarry::yaml::parse(doc.as_bytes()).unwrap());
            let mut source =
                quarry::yaml::DirectSource::new(doc.as_bytes(), quarry::Limits::default()).unwrap();
            let direct = N::decode_direct(&mut source)
                .ok()
                .filter(|_| source.finish().is_ok());
            // A float's bits, so that NaN is equal to itself and -0.0 is not 0.0.
            let key = |n: N| (n.i, n.u, n.f.map(f64::to_bits), n.small);
            match (direct, raw) {
                (Some(direct), Ok(raw)) => assert_eq!(key(direct), key(raw), "{doc}"),
                (Some(direct), Err(e)) => panic!("{doc}: direct {direct:?}, raw {e}"),
                // Falling back is always allowed: the door then reads the RawValue.
                (None, _) => {}
            }
        }
    }
    // The usual shapes must not fall back.
    for (doc, expected) in [
        ("i: -42\n", (Some(-42), None, None, None)),
        ("u: 42\n", (None, Some(42), None, None)),
        (
            "f: -1.9609613479170491\n",
            (None, None, Some(-1.9609613479170491), None),
        ),
        ("f: 7\n", (None, None, Some(7.0), None)),
        ("small: -300\n", (None, None, None, Some(-300))),
    ] {
        let mut source =
            quarry::yaml::DirectSource::new(doc.as_bytes(), quarry::Limits::default()).unwrap();
        let n = N::decode_direct(&mut source).expect(doc);
        assert_eq!((n.i, n.u, n.f, n.small), expected, "{doc}");
    }
}

/// Reads `src` through TOML's direct path only (`None` when it falls back).
fn toml_direct<'a, T: Decode<'a>>(src: &'a str) -> Option<T> {
    let mut source =
        quarry::toml::DirectSource::new(src.as_bytes(), quarry::Limits::default()).unwrap();
    T::decode_direct(&mut source)
        .ok()
        .filter(|_| source.finish().is_ok())
}

/// Reads `src` through TOML's RawValue path only.
fn toml_raw<'a, T: Decode<'a> + std::fmt::Debug>(src: &'a str) -> T {
    T::decode(quarry::toml::parse(src.as_bytes()).unwrap()).unwrap()
}

/// A manifest whose closed `[package]` is added to by later headers, between the elements
/// of an array of tables (bevy's `[[example]]` and `[package.metadata.example.*]`): the
/// additions under keys `Package` passes over are passed over in place, so the array of
/// tables is not closed and the direct path reads the document; additions it would read
/// fall back.
#[test]
fn toml_additions_to_a_closed_table_under_ignored_keys_are_passed_over() {
    #[derive(Decode, Debug, PartialEq)]
    struct Package {
        name: String,
        #[quarry(alias = "about")]
        description: Option<String>,
    }
    #[derive(Decode, Debug, PartialEq)]
    struct Target {
        name: String,
        #[quarry(default)]
        required_features: Vec<String>,
    }
    #[derive(Decode, Debug, PartialEq)]
    struct Manifest {
        package: Package,
        #[quarry(default)]
        example: Vec<Target>,
        #[quarry(default)]
        features: BTreeMap<String, Vec<String>>,
    }
    let bevy = r#"
[package]
name = "game"
version = "1"
[workspace]
members = ["a"]
[[example]]
name = "one"
[package.metadata.example.one]
doc = "x"   # a comment
deep.er = [1, {a = [2]}]
[[example]]
name = "two"
required_features = ["f"]
[package.metadata.example.two]
[[package.metadata.list]]
k = 1
[[package.metadata.list]]
[package.metadata]
defined = "after its subtables"
[features]
f = []
"#;
    let expected = toml_raw::<Manifest>(bevy);
    assert_eq!(expected.example.len(), 2);
    assert_eq!(toml_direct::<Manifest>(bevy), Some(expected));
    // bevy's manifest itself, from the benchmark corpus.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/corpus/toml/bevy-Cargo.toml");
    let file = std::fs::read_to_string(path).expect("testdata/corpus/toml/bevy-Cargo.toml");
    let expected = toml_raw::<Manifest>(&file);
    assert!(expected.example.len() > 100);
    assert_eq!(toml_direct::<Manifest>(&file), Some(expected));
    // The element open before a passed-over section is still open after it.
    let nested = "[package]\nname = 'p'\n[[example]]\nname = 'e'\n[package.x]\n[example.sub]\n";
    assert_eq!(toml_direct::<Manifest>(nested), Some(toml_raw(nested)));

    // A repeated header, and additions under a key the type reads (a field's name or
    // alias), fall back; the RawValue path then decides (an error for the first three,
    // whose additions are not what the fields hold).
    for (doc, description) in [
        ("[package]\nname = 'p'\n[x]\n[package]\n", None),
        (
            "[package.a]\n[package]\nname = 'p'\n[x]\n[package.description]\n",
            None,
        ),
        ("package.name = 'p'\n[x]\n[package.about]\n", None),
        ("[package]\nname = 'p'\n[x]\n[package.m]\n[y]\n", Some(None)),
    ] {
        let decoded = quarry::from_str::<Manifest>(doc, Format::Toml);
        match description {
            None => assert_eq!(toml_direct::<Manifest>(doc), None, "{doc}"),
            Some(d) => {
                assert_eq!(
                    toml_direct::<Manifest>(doc).map(|m| m.package.description),
                    Some(d)
                );
                assert!(decoded.is_ok(), "{doc}");
            }
        }
    }

    // Errors in a passed-over section fall back, and the RawValue path reports them.
    for doc in [
        "[package]\nname = 'p'\n[x]\n[package.m]\na = 1\na = 2\n",
        "[package]\nname = 'p'\n[x]\n[package.m]\n[package.m]\n",
        "[package]\nname = 'p'\n[x]\n[package.m]\na = [1,,]\n",
        "[package]\nname = 'p'\n[x]\n[package.m]\na = 1\n[package.m.a]\n",
    ] {
        assert_eq!(toml_direct::<Manifest>(doc), None, "{doc}");
        assert!(
            quarry::from_str::<Manifest>(doc, Format::Toml).is_err(),
            "{doc}"
        );
    }

    // A type that denies unknown keys says nothing: the addition falls back, and the
    // RawValue path reports the unknown key.
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(deny_unknown_fields)]
    struct Strict {
        name: String,
    }
    #[derive(Decode, Debug, PartialEq)]
    struct StrictDoc {
        package: Strict,
    }
    let doc = "[package]\nname = 'p'\n[x]\n[package.m]\n";
    assert_eq!(toml_direct::<StrictDoc>(doc), None);
    assert!(quarry::from_str::<StrictDoc>(doc, Format::Toml).is_err());
    // A map reads every key: it says nothing either.
    let doc = "[features]\nf = []\n[x]\n[features.g]\n";
    assert_eq!(toml_direct::<Manifest>(doc), None);
}

#[test]
fn shapes_describe_what_the_decoder_accepts() {
    use quarry::shape::{Tagging, VariantContent};
    use quarry::Shape;

    #[derive(quarry::Decode)]
    #[quarry(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)]
    struct Server {
        #[quarry(alias = "host")]
        host_name: String,
        #[quarry(default)]
        port: u16,
        tags: Option<Vec<String>>,
        #[quarry(skip)]
        cache: u8,
        child: Option<Box<Server>>,
    }
    #[derive(quarry::Decode)]
    #[quarry(tag = "type")]
    #[allow(dead_code)]
    enum Auth {
        None,
        Token { value: String },
        Key(Server),
    }

    let Shape::Struct(s) = <Server as quarry::Decode>::shape() else {
        panic!("a struct")
    };
    assert!(s.deny_unknown_fields);
    let names: Vec<_> = s.fields.iter().map(|f| (f.name, f.required)).collect();
    assert_eq!(
        names,
        [
            ("hostName", true),
            ("port", false),
            ("tags", false),
            ("child", false)
        ]
    );
    assert_eq!(s.fields[0].aliases, ["host"]);
    assert!(matches!(
        (s.fields[1].shape)(),
        Shape::Integer { min: 0, max: 65535 }
    ));
    // Recursive types describe themselves lazily.
    let Shape::Optional(child) = (s.fields[3].shape)() else {
        panic!("an option")
    };
    assert!(matches!(child(), Shape::Struct(ref inner) if inner.name == "Server"));

    let Shape::Enum(e) = <Auth as quarry::Decode>::shape() else {
        panic!("an enum")
    };
    assert_eq!(e.tagging, Tagging::Internal { tag: "type" });
    assert!(matches!(e.variants[0].content, VariantContent::Unit));
    assert!(
        matches!(&e.variants[1].content, VariantContent::Struct(v) if v.fields[0].name == "value")
    );
    assert!(matches!(e.variants[2].content, VariantContent::Newtype(_)));
}

/// Every type of these tests has a schema that is a valid draft 2020-12 schema.
#[test]
fn every_derived_type_has_a_valid_json_schema() {
    fn valid<T: quarry::Decode<'static>>() -> serde_json::Value {
        let text = quarry::json::to_string(&quarry::schema::<T>()).unwrap();
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{e}: {schema:#}");
        }
        schema
    }
    valid::<Server>();
    valid::<Nested>();
    valid::<Snake>();
    valid::<Pascal>();
    valid::<Kebab>();
    valid::<Screaming>();
    valid::<Strict>();
    valid::<Metadata>();
    valid::<WithFlatten>();
    valid::<WithFlattenMap>();
    valid::<Borrowed<'static>>();
    valid::<Unit>();
    valid::<Wrapper<String>>();
    valid::<Level>();
    valid::<External>();
    valid::<Internal>();
    valid::<Adjacent>();
    valid::<Untagged>();
    valid::<Account>();
    valid::<CheckedExternal>();
    valid::<CheckedAdjacent>();
    valid::<CheckedInternal>();
    valid::<CheckedUntaggedNumber>();
    valid::<CheckedUntagged>();
    valid::<Gathered>();
    let pair = valid::<Pair>();
    assert_eq!(pair["prefixItems"][1]["maxItems"], 2);
    let port = valid::<Port>();
    assert_eq!(
        (port["minimum"].as_u64(), port["maximum"].as_u64()),
        (Some(1), Some(65535))
    );
}

/// XML's two paths for `T`, both under XML's rule for sequences as the facade runs them:
/// the RawValue path's result (from the root element), and the direct path's (`None`
/// when it falls back).
fn xml_paths<'a, T: Decode<'a>>(src: &'a str) -> (Result<T, String>, Option<T>) {
    quarry_raw_value::with_xml_sequences(|| {
        let raw = quarry::xml::parse_root(src.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|(_, root)| T::decode(root).map_err(|e| e.to_string()));
        let direct = quarry::xml::DirectSource::new(src.as_bytes(), quarry::Limits::default())
            .ok()
            .and_then(|mut source| {
                let value = T::decode_direct(&mut source).ok()?;
                source.finish().ok()?;
                Some(value)
            });
        (raw, direct)
    })
}

#[derive(Decode, Debug, PartialEq)]
struct XmlHost {
    #[quarry(rename = "@name")]
    name: Option<String>,
    port: Option<u16>,
    alias: Vec<String>,
    weight: Option<f64>,
    on: Option<bool>,
    #[quarry(rename = "$text")]
    text: Option<String>,
    inner: Option<XmlInner>,
    list: Vec<XmlInner>,
    pair: Option<(String, String)>,
}

#[derive(Decode, Debug, PartialEq)]
struct XmlInner {
    #[quarry(rename = "@id")]
    id: Option<i64>,
    v: Option<Vec<String>>,
}

#[test]
fn xml_direct_path_reads_what_the_raw_value_path_reads() {
    let src = "<host name=\"a&amp;b\"><port> 80 </port><alias>x</alias><alias>y&lt;</alias>\
               <inner id=\"-3\"><v>1</v></inner><list id=\"9\"/><list id=\"2\"><v>p</v><v>q</v></list>\
               <weight>1.5e3</weight><on>true</on>tail<!-- c --> more<![CDATA[ & ]]></host>";
    let (raw, direct) = xml_paths::<XmlHost>(src);
    let raw = raw.unwrap();
    assert_eq!(direct.as_ref(), Some(&raw), "the direct path read it");
    assert_eq!(raw.name.as_deref(), Some("a&b"));
    assert_eq!(raw.port, Some(80));
    assert_eq!(raw.alias, ["x", "y<"]);
    assert_eq!(raw.text.as_deref(), Some("tail more & "));
    assert_eq!(raw.list.len(), 2);
    assert_eq!(
        raw.list[1].v.as_deref(),
        Some(&["p".to_owned(), "q".to_owned()][..])
    );
    assert_eq!(
        raw.inner.as_ref().and_then(|i| i.v.clone()),
        Some(vec!["1".to_owned()])
    );
    // One child is a one-element sequence, on both paths.
    let (raw, direct) = xml_paths::<XmlHost>("<host><alias>only</alias></host>");
    assert_eq!(raw.as_ref().unwrap().alias, ["only"]);
    assert_eq!(direct.as_ref(), raw.as_ref().ok());
    // A name repeated after another child is grouped by the RawValue path; the direct
    // path falls back (the struct sees `alias` twice) rather than decode it otherwise.
    let (raw, direct) =
        xml_paths::<XmlHost>("<host><alias>a</alias><port>1</port><alias>b</alias></host>");
    assert_eq!(raw.unwrap().alias, ["a", "b"]);
    assert_eq!(direct, None);
    // Errors on the RawValue path are fallbacks on the direct one.
    for bad in [
        "<host><port>http</port></host>",
        "<host><port>70000</port></host>",
        "<host><on>yes</on></host>",
        "<host><inner>text</inner></host>",
        "<host><pair><a>1</a></pair></host>",
    ] {
        let (raw, direct) = xml_paths::<XmlHost>(bad);
        assert!(raw.is_err(), "{bad}");
        assert_eq!(direct, None, "{bad}");
    }
    // The facade takes the direct path and falls back to the RawValue one for errors.
    let host: XmlHost = quarry::from_str(src, Format::Xml).unwrap();
    assert_eq!(host.port, Some(80));
    let err =
        quarry::from_str::<XmlHost>("<host>\n<port>http</port></host>", Format::Xml).unwrap_err();
    assert_eq!(
        err.to_string(),
        "port: expected integer, found text \"http\" at line 2, column 1"
    );
}

#[test]
fn xml_direct_path_reads_owned_names_and_text_as_the_raw_value_path_does() {
    // An entity's elements have owned names, the document's borrowed ones: a run of
    // `alias` mixing both is still one sequence, and decoded text (`&amp;`) is owned.
    let src = "<!DOCTYPE host [<!ENTITY more \"<alias>e&amp;f</alias><alias>g</alias>\">]>\
               <host name=\"h\"><alias>a</alias>&more;<port>8</port></host>";
    let (raw, direct) = xml_paths::<XmlHost>(src);
    let raw = raw.unwrap();
    assert_eq!(raw.alias, ["a", "e&f", "g"]);
    assert_eq!(direct.as_ref(), Some(&raw), "the direct path read it");
    // A UTF-16 document is transcoded: every name and text on the tape is owned.
    let utf16: Vec<u8> = std::iter::once(0xFEFF_u16)
        .chain(
            "<host name=\"h\"><alias>x</alias><alias>y</alias><port>9</port>t</host>"
                .encode_utf16(),
        )
        .flat_map(u16::to_le_bytes)
        .collect();
    let direct = quarry_raw_value::with_xml_sequences(|| {
        let mut source = quarry::xml::DirectSource::new(&utf16, quarry::Limits::default()).unwrap();
        XmlHost::decode_direct(&mut source).ok()
    })
    .expect("the direct path read it");
    assert_eq!(direct.name.as_deref(), Some("h"));
    assert_eq!(direct.alias, ["x", "y"]);
    assert_eq!((direct.port, direct.text.as_deref()), (Some(9), Some("t")));
    let facade: XmlHost = quarry::from_slice(&utf16, Format::Xml).unwrap();
    assert_eq!(facade, direct);
}

/// Random XML documents for `XmlHost`: attributes and children it knows, with right and
/// wrong values, repeats adjacent or not, text, CDATA, comments and references mixed in.
fn xml_host_document() -> impl Strategy<Value = String> {
    let attribute = prop_oneof![
        Just(" name=\"n\""),
        Just(" name=\"&quot;q&quot;\""),
        Just(" other=\"o\""),
        Just(" xmlns:p=\"urn:p\""),
    ];
    let piece = prop_oneof![
        Just("<port>80</port>"),
        Just("<port> 7 </port>"),
        Just("<port>+9</port>"),
        Just("<port>-0</port>"),
        Just("<port>x</port>"),
        Just("<port>99999</port>"),
        Just("<port/>"),
        Just("<alias>a</alias>"),
        Just("<alias/>"),
        Just("<alias>&amp;b<!--c-->c</alias>"),
        Just("<alias k=\"1\">v</alias>"),
        Just("<weight>1.5</weight>"),
        Just("<weight> 2 </weight>"),
        Just("<weight>inf</weight>"),
        Just("<weight>w</weight>"),
        Just("<on>true</on>"),
        Just("<on> false </on>"),
        Just("<on>1</on>"),
        Just("<inner id=\"3\"><v>x</v></inner>"),
        Just("<inner/>"),
        Just("<inner>text</inner>"),
        Just("<inner><v>a</v><v>b</v><w/></inner>"),
        Just("<inner id=\"x\"/>"),
        Just("<inner id=\"-0\"/>"),
        Just("<inner id=\"-\"/>"),
        Just("<inner id=\" -12 \"/>"),
        Just("<inner id=\"999999999999999999\"/>"),
        Just("<inner id=\"-9223372036854775808\"/>"),
        Just("<inner id=\"9223372036854775808\"/>"),
        Just("<inner id=\"18446744073709551616\"/>"),
        Just("<port>0065535</port>"),
        Just("<port>18446744073709551615</port>"),
        Just("<list id=\"1\"/>"),
        Just("<list><v>a</v>t<v>b</v></list>"),
        Just("<list>plain</list>"),
        Just("<pair><a>1</a><a>2</a></pair>"),
        Just("<pair>x</pair>"),
        Just("<p:other/>"),
        Just("<other a=\"1\"><deep><deeper/></deep></other>"),
        Just("hello"),
        Just("  \n "),
        Just("<![CDATA[c]]>"),
        Just("<!-- comment -->"),
        Just("<?pi data?>"),
        Just("&lt;"),
    ];
    (
        prop::collection::vec(attribute, 0..3),
        prop::collection::vec(piece, 0..8),
    )
        .prop_map(|(attributes, pieces)| {
            let mut seen = Vec::new();
            let attributes: String = attributes
                .into_iter()
                .filter(|a| {
                    let fresh = !seen.contains(a);
                    seen.push(a);
                    fresh
                })
                .collect();
            format!("<host{attributes}>{}</host>", pieces.concat())
        })
}

proptest! {
    #[test]
    fn xml_direct_path_equals_raw_value_path(doc in xml_host_document()) {
        let (raw, direct) = xml_paths::<XmlHost>(&doc);
        if let Some(direct) = &direct {
            prop_assert_eq!(Some(direct), raw.as_ref().ok(), "{}", doc);
        }
        let facade = quarry::from_str::<XmlHost>(&doc, Format::Xml);
        prop_assert_eq!(facade.ok(), raw.ok(), "{}", doc);
    }
}

#[derive(Decode, Debug, PartialEq)]
struct Guessed {
    id: i64,
    #[quarry(rename = "say \"hi\"")]
    say: String,
    #[quarry(alias = "nm")]
    name: String,
    tags: Vec<String>,
}

/// From JSON the direct path guesses each key in declaration order and compares it in
/// place; keys in another order, spelled with escapes, by an alias, unknown, or named
/// with a quote (never guessed) are read and matched, all without falling back, and a
/// repeated key still falls back.
#[test]
fn the_direct_path_guesses_keys_and_reads_the_others() {
    let want = Guessed {
        id: 1,
        say: "x".into(),
        name: "n".into(),
        tags: vec![],
    };
    for text in [
        r#"{"id":1,"say \"hi\"":"x","name":"n","tags":[]}"#,
        r#"{"tags":[],"name":"n","id":1,"say \"hi\"":"x"}"#,
        r#"{"i\u0064":1,"say \u0022hi\u0022":"x","extra":[1],"nm":"n","tags":[]}"#,
        r#"{"id":1,"idx":2,"say \"hi\"":"x","nam":0,"name":"n","tags":[],"tagsx":3}"#,
    ] {
        assert_eq!(via_direct::<Guessed>(text).as_ref(), Some(&want), "{text}");
        assert_eq!(via_raw::<Guessed>(text).unwrap(), want, "{text}");
    }
    let repeated = r#"{"id":1,"id":1,"say \"hi\"":"x","name":"n","tags":[]}"#;
    assert_eq!(via_direct::<Guessed>(repeated), None);
}

/// A source that cannot build a [`quarry::RawValue`]: through it, a decoder reads every
/// value directly or falls back.
struct NoRawValues<S>(S);

impl<'de, S: PullSource<'de>> PullSource<'de> for NoRawValues<S> {
    const GUESSES_IN_PLACE: bool = S::GUESSES_IN_PLACE;
    const TYPED_STRINGS: bool = S::TYPED_STRINGS;

    fn peek_token(&mut self) -> Result<quarry::ValueKind, quarry::Fallback> {
        self.0.peek_token()
    }
    fn read_null(&mut self) -> Result<(), quarry::Fallback> {
        self.0.read_null()
    }
    fn read_bool(&mut self) -> Result<bool, quarry::Fallback> {
        self.0.read_bool()
    }
    fn read_number(&mut self) -> Result<quarry::RawValue<'de>, quarry::Fallback> {
        self.0.read_number()
    }
    fn read_i64(&mut self) -> Result<i64, quarry::Fallback> {
        self.0.read_i64()
    }
    fn read_u64(&mut self) -> Result<u64, quarry::Fallback> {
        self.0.read_u64()
    }
    fn read_str(&mut self) -> Result<quarry::Text<'de, '_>, quarry::Fallback> {
        self.0.read_str()
    }
    fn begin_array(&mut self) -> Result<(), quarry::Fallback> {
        self.0.begin_array()
    }
    fn next_item(&mut self, first: bool) -> Result<bool, quarry::Fallback> {
        self.0.next_item(first)
    }
    fn begin_object(&mut self) -> Result<(), quarry::Fallback> {
        self.0.begin_object()
    }
    fn next_key(&mut self, first: bool) -> Result<Option<quarry::Text<'de, '_>>, quarry::Fallback> {
        self.0.next_key(first)
    }
    fn ignores_keys_but(&mut self, known: &'static [&'static str]) {
        self.0.ignores_keys_but(known);
    }
    fn skip_value(&mut self) -> Result<(), quarry::Fallback> {
        self.0.skip_value()
    }
    fn read_raw(&mut self) -> Result<quarry::RawValue<'de>, quarry::Fallback> {
        Err(quarry::Fallback)
    }
    fn finish(&mut self) -> Result<(), quarry::Fallback> {
        self.0.finish()
    }
}

/// Reads `T` through `source` without a RawValue (`None` when it falls back).
fn without_raw_values<'de, T: Decode<'de>, S: PullSource<'de>>(source: S) -> Option<T> {
    let mut source = NoRawValues(source);
    let value = T::decode_direct(&mut source).ok()?;
    source.finish().ok()?;
    Some(value)
}

/// JSON's direct path without RawValues, and its RawValue path (`None` for a fallback and
/// for an error).
fn json_paths<T: Decode<'static>>(src: &'static str) -> (Option<T>, Option<T>) {
    let source = json::DirectSource::new(src.as_bytes(), quarry::Limits::default()).unwrap();
    (without_raw_values::<T, _>(source), via_raw::<T>(src).ok())
}

/// TOML's direct path without RawValues, which must read `src` and agree with TOML's
/// RawValue path.
fn toml_read_without_raw_values<T>(src: &'static str) -> T
where
    T: Decode<'static> + PartialEq + std::fmt::Debug,
{
    let source = quarry::toml::DirectSource::new(src.as_bytes(), quarry::Limits::default());
    let direct = without_raw_values::<T, _>(source.unwrap()).expect("read directly");
    assert_eq!(direct, toml_raw::<T>(src));
    direct
}

/// YAML's direct path without RawValues, which must read `src` and agree with YAML's
/// RawValue path.
fn yaml_read_without_raw_values<T>(src: &'static str) -> T
where
    T: Decode<'static> + PartialEq + std::fmt::Debug,
{
    let source = quarry::yaml::DirectSource::new(src.as_bytes(), quarry::Limits::default());
    let direct = without_raw_values::<T, _>(source.unwrap()).expect("read directly");
    assert_eq!(
        direct,
        T::decode(quarry::yaml::parse(src.as_bytes()).unwrap()).unwrap()
    );
    direct
}

/// XML's direct path without RawValues, under XML's rule for sequences.
fn xml_without_raw_values<T: Decode<'static>>(src: &'static str) -> Option<T> {
    quarry_raw_value::with_xml_sequences(|| {
        let source = quarry::xml::DirectSource::new(src.as_bytes(), quarry::Limits::default());
        without_raw_values::<T, _>(source.unwrap())
    })
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
    assert!(!Metadata::may_accept(quarry::ValueKind::Array, 8));
    assert!(!Internal::may_accept(quarry::ValueKind::String, 8));
    assert!(!Level::may_accept(quarry::ValueKind::Number, 8));
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
    // RawValue door gathers the two into a sequence, which names none. The direct path
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
