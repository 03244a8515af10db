//! TOML's direct path against its RawValue path: tables added to after they closed,
//! numbers, and random documents for `Server`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use quarry::pull::PullSource;
use quarry::{Decode, Format};

use super::{mostly_direct, Seen};
use crate::attributes::Server;
use crate::paths::{toml_direct, toml_raw};

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

/// Of the documents for `Server` that the RawValue path decodes (about one in eight of
/// those generated), the share in percent the direct path must read. It read 79% over
/// 5,000 cases, falling back on the rest (a table added to after it closed, a datetime
/// read as a string).
const TOML_DIRECT_PERCENT: usize = 50;

/// The direct path may fall back (a datetime read as a string does), never differ; and
/// it reads most of what the RawValue path decodes ([`TOML_DIRECT_PERCENT`]).
#[test]
fn toml_direct_path_equals_raw_value_path() {
    mostly_direct(file!(), server_toml(), TOML_DIRECT_PERCENT, |doc| {
        let raw = quarry::toml::parse(doc.as_bytes()).map(Server::decode);
        let mut source =
            quarry::toml::DirectSource::new(doc.as_bytes(), quarry::Limits::default()).unwrap();
        let direct = Server::decode_direct(&mut source)
            .ok()
            .filter(|_| source.finish().is_ok());
        let decoded = raw.as_ref().ok().and_then(|r| r.as_ref().ok());
        if let Some(direct) = &direct {
            prop_assert_eq!(Some(direct), decoded, "{}", doc);
        }
        let seen = Seen {
            decoded: decoded.is_some(),
            direct: direct.is_some(),
        };
        let facade = quarry::from_str::<Server>(&doc, Format::Toml);
        prop_assert_eq!(facade.ok(), raw.ok().and_then(Result::ok));
        Ok(seen)
    });
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
