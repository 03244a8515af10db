//! YAML's direct path against its RawValue path: numbers, and random block lists of
//! `Server` records.

use proptest::prelude::*;
use quarry::pull::PullSource;
use quarry::{Decode, Format};

use super::{mostly_direct, Seen};
use crate::attributes::Server;

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

/// Of the lists of `Server` records that the RawValue path decodes, the share in percent
/// the direct path must read. It read 87% over 5,000 cases, falling back on the rest
/// (an anchor, a merge key).
const YAML_DIRECT_PERCENT: usize = 70;

/// The direct path may fall back (on an alias, a merge key or an error), never differ;
/// and it reads most of what the RawValue path decodes ([`YAML_DIRECT_PERCENT`]).
#[test]
fn yaml_direct_path_equals_raw_value_path() {
    mostly_direct(file!(), server_yaml(), YAML_DIRECT_PERCENT, |doc| {
        let raw = quarry::yaml::parse(doc.as_bytes()).map(Vec::<Server>::decode);
        let mut source =
            quarry::yaml::DirectSource::new(doc.as_bytes(), quarry::Limits::default()).unwrap();
        let direct = Vec::<Server>::decode_direct(&mut source)
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
        let facade = quarry::from_str::<Vec<Server>>(&doc, Format::Yaml);
        prop_assert_eq!(facade.ok(), raw.ok().and_then(Result::ok));
        Ok(seen)
    });
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
