//! The attributes on structs and fields: renames, aliases, defaults, `skip`,
//! `deny_unknown_fields`, `flatten`, borrowed fields, newtype, tuple, unit and generic
//! structs, and the errors they give, with paths and positions.

use std::borrow::Cow;
use std::collections::BTreeMap;

use quarry::{json, Decode, Encode, Format};

use crate::paths::{encode, errors, via_direct, via_raw};

#[derive(Decode, Encode, Debug, PartialEq, Clone)]
#[quarry(rename_all = "camelCase")]
pub(crate) struct Server {
    pub(crate) host_name: String,
    #[quarry(range = 1..=65535)]
    pub(crate) port: u16,
    #[quarry(alias = "labels", default)]
    pub(crate) tags: Vec<String>,
    pub(crate) weight: Option<f64>,
    #[quarry(skip)]
    pub(crate) cache: u8,
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
pub(crate) struct Nested {
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
pub(crate) struct Snake {
    #[quarry(rename = "HTTP")]
    http: bool,
    some_field: u8,
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(rename_all = "PascalCase")]
pub(crate) struct Pascal {
    some_field: u8,
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(rename_all = "kebab-case")]
pub(crate) struct Kebab {
    some_field: u8,
}

#[derive(Decode, Encode, Debug, PartialEq)]
#[quarry(rename_all = "SCREAMING_SNAKE_CASE")]
pub(crate) struct Screaming {
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
pub(crate) struct Strict {
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
pub(crate) struct Metadata {
    pub(crate) version: u32,
    pub(crate) owner: Option<String>,
}

#[derive(Decode, Encode, Debug, PartialEq)]
pub(crate) struct WithFlatten {
    name: String,
    #[quarry(flatten)]
    meta: Metadata,
}

#[derive(Decode, Encode, Debug, PartialEq)]
pub(crate) struct WithFlattenMap {
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
pub(crate) struct Borrowed<'a> {
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
pub(crate) struct Port(#[quarry(range = 1..=65535)] u16);

#[derive(Decode, Encode, Debug, PartialEq)]
pub(crate) struct Pair(String, #[quarry(len = ..=2)] Vec<u8>);

#[derive(Decode, Encode, Debug, PartialEq)]
pub(crate) struct Unit;

#[derive(Decode, Encode, Debug, PartialEq)]
pub(crate) struct Wrapper<T: Clone> {
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
