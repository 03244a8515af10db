//! JSON's direct path against its RawValue path: random documents over `Server`'s keys,
//! encoded values read back, and keys guessed in place.

use proptest::prelude::*;
use quarry::{Decode, Format};

use crate::attributes::Server;
use crate::paths::{encode, via_direct, via_raw};

/// Random documents over Server's keys (with wrong types, unknown keys, duplicates and
/// aliases mixed in): the direct path agrees with the RawValue path on every one.
pub(crate) fn server_document() -> impl Strategy<Value = String> {
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

proptest! {
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
    fn encode_then_decode_round_trips(host in "[a-zé\"]{1,8}", port in 1u16.., tags in prop::collection::vec("[a-zé]{0,4}", 0..3), weight in prop::option::of(-1e6f64..1e6)) {
        let server = Server { host_name: host, port, tags, weight, cache: 0 };
        let text = encode(&server);
        prop_assert_eq!(&via_direct::<Server>(&text).unwrap(), &server);
        prop_assert_eq!(&via_raw::<Server>(&text).unwrap(), &server);
        // Binary plists (UTF-16 text when it is not ASCII) through their direct path.
        let file = quarry::plist::to_vec_with_nulls(&server, quarry::plist::PlistFormat::Binary, quarry::encode::NullEntries::Skip).unwrap();
        let mut source = quarry::plist::DirectSource::new(&file, quarry::Limits::default()).unwrap();
        prop_assert_eq!(&Server::decode_direct(&mut source).unwrap(), &server);
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
