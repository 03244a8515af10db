//! `quarry::schema`: generated schemas are valid draft 2020-12 schemas, and for random
//! documents of a derived type and random mutations of them, "the schema accepts it"
//! equals "quarry decodes it", with the `jsonschema` crate as the judge.

use std::collections::BTreeMap;

use proptest::prelude::*;
use quarry::{Decode, Encode, Format};
use serde_json::{json, Value};

fn to_json(value: &quarry::RawValue<'_>) -> Value {
    serde_json::from_str(&quarry::json::to_string(value).unwrap()).unwrap()
}

fn schema_json<T: Decode<'static>>() -> Value {
    let schema = to_json(&quarry::schema::<T>());
    if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
        panic!("not a draft 2020-12 schema: {e}\n{schema:#}");
    }
    schema
}

#[test]
fn every_corpus_shape_has_a_valid_schema() {
    use quarry_corpus_gen::shapes::*;
    for schema in [
        schema_json::<SmallMessage>(),
        schema_json::<Person>(),
        schema_json::<Article>(),
        schema_json::<Reading>(),
        schema_json::<Wide>(),
        schema_json::<Config>(),
        schema_json::<Records<Person>>(),
        schema_json::<Records<Reading>>(),
    ] {
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
    }
    let config = schema_json::<Config>();
    let http = &config["$defs"]["Http"];
    assert_eq!(http["properties"]["port"]["maximum"], 65535);
    assert_eq!(
        http["properties"]["tls"]["anyOf"][1],
        json!({"type": "null"})
    );
    assert!(http["required"]
        .as_array()
        .unwrap()
        .contains(&json!("allowed_origins")));
}

/// The level of a log line.
#[derive(Decode, Encode, Debug, Clone, Copy, PartialEq, Default)]
enum Level {
    #[default]
    Low,
    #[quarry(alias = "hi")]
    High,
    Custom(u8),
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
#[quarry(tag = "type")]
enum Auth {
    None,
    Token {
        #[quarry(len = 1..=8)]
        value: String,
    },
    Key(KeyData),
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
#[quarry(deny_unknown_fields)]
struct KeyData {
    id: u32,
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
#[quarry(tag = "kind", content = "value")]
enum Size {
    Auto,
    Fixed(#[quarry(range = 1..=100)] u32),
    Pair(u8, u8),
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
#[quarry(untagged)]
enum Anything {
    Number(i32),
    Text(String),
    Flags(Vec<bool>),
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
struct Inner {
    a: u8,
    #[quarry(flatten)]
    extra: BTreeMap<String, String>,
}

/// A document with one of every kind of field.
#[derive(Decode, Encode, Debug, Clone, PartialEq)]
#[quarry(deny_unknown_fields)]
struct Doc {
    /// The port.
    #[quarry(range = 1..=65535)]
    port: u16,
    #[quarry(alias = "hostname")]
    host: String,
    #[quarry(default, len = ..=3)]
    tags: Vec<String>,
    #[quarry(pattern = "^[a-z]+$")]
    name: String,
    ratio: Option<f64>,
    #[quarry(default)]
    level: Level,
    auth: Auth,
    #[quarry(default)]
    limits: BTreeMap<String, u8>,
    pair: (bool, i8),
    size: Size,
    any: Option<Anything>,
    inner: Inner,
}

fn level() -> impl Strategy<Value = Level> {
    prop_oneof![
        Just(Level::Low),
        Just(Level::High),
        any::<u8>().prop_map(Level::Custom)
    ]
}

fn doc() -> impl Strategy<Value = Doc> {
    let auth = prop_oneof![
        Just(Auth::None),
        "[a-z]{1,8}".prop_map(|value| Auth::Token { value }),
        any::<u32>().prop_map(|id| Auth::Key(KeyData { id })),
    ];
    let size = prop_oneof![
        Just(Size::Auto),
        (1u32..=100).prop_map(Size::Fixed),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Size::Pair(a, b)),
    ];
    let anything = proptest::option::of(prop_oneof![
        any::<i32>().prop_map(Anything::Number),
        "[a-z ]{0,5}".prop_map(Anything::Text),
        proptest::collection::vec(any::<bool>(), 0..3).prop_map(Anything::Flags),
    ]);
    let inner = (
        any::<u8>(),
        proptest::collection::btree_map("[a-z]{1,3}", "[a-z]{0,3}", 0..3),
    )
        .prop_map(|(a, mut extra)| {
            extra.remove("a");
            Inner { a, extra }
        });
    (
        (
            1u16..=65535,
            "[a-z.]{0,8}",
            proptest::collection::vec("[a-z]{0,4}", 0..=3),
            "[a-z]{1,6}",
            proptest::option::of(-1e6f64..1e6),
            level(),
        ),
        (
            auth,
            proptest::collection::btree_map("[a-z]{1,3}", any::<u8>(), 0..3),
            (any::<bool>(), any::<i8>()),
            size,
            anything,
            inner,
        ),
    )
        .prop_map(
            |((port, host, tags, name, ratio, level), (auth, limits, pair, size, any, inner))| {
                Doc {
                    port,
                    host,
                    tags,
                    name,
                    ratio,
                    level,
                    auth,
                    limits,
                    pair,
                    size,
                    any,
                    inner,
                }
            },
        )
}

/// A value to put somewhere in a document. No float with a zero fraction: JSON Schema
/// counts `1.0` as an integer, and quarry, like serde, does not decode it into one.
fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        Just(json!(true)),
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(7)),
        Just(json!(300)),
        Just(json!(70000)),
        Just(json!(1.5)),
        Just(json!("")),
        Just(json!("abc")),
        Just(json!("ABC")),
        Just(json!("Low")),
        Just(json!("hi")),
        Just(json!("Token")),
        Just(json!([])),
        Just(json!([true])),
        Just(json!([1, 2])),
        Just(json!({})),
        Just(json!({"x": 1})),
        Just(json!({"type": "None"})),
        Just(json!({"kind": "Auto"})),
        Just(json!({"Custom": 3})),
    ]
}

/// What to do to the document: at the node reached by the `path` choices, replace it,
/// remove one of its keys, or add a key.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(Value),
    RemoveKey(usize),
    AddKey(&'static str, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        replacement().prop_map(Mutation::Replace),
        any::<usize>().prop_map(Mutation::RemoveKey),
        (
            prop_oneof![
                Just("extra"),
                Just("hostname"),
                Just("host"),
                Just("a"),
                Just("value"),
                Just("type"),
                Just("kind"),
                Just("Custom"),
            ],
            replacement()
        )
            .prop_map(|(k, v)| Mutation::AddKey(k, v)),
    ]
}

fn mutate(value: &mut Value, path: &[usize], mutation: &Mutation) {
    let child = match (value, path.split_first()) {
        (Value::Object(map), Some((&choice, rest))) if !map.is_empty() => {
            let key = map
                .keys()
                .nth(choice % map.len())
                .cloned()
                .unwrap_or_default();
            (map.get_mut(&key), rest)
        }
        (Value::Array(items), Some((&choice, rest))) if !items.is_empty() => {
            let n = items.len();
            (items.get_mut(choice % n), rest)
        }
        (here, _) => {
            apply(here, mutation);
            return;
        }
    };
    if let (Some(child), rest) = child {
        mutate(child, rest, mutation);
    }
}

fn apply(here: &mut Value, mutation: &Mutation) {
    match mutation {
        Mutation::Replace(v) => *here = v.clone(),
        Mutation::RemoveKey(choice) => {
            if let Value::Object(map) = here {
                if !map.is_empty() {
                    let key = map
                        .keys()
                        .nth(choice % map.len())
                        .cloned()
                        .unwrap_or_default();
                    map.remove(&key);
                }
            }
        }
        Mutation::AddKey(k, v) => {
            if let Value::Object(map) = here {
                map.insert((*k).to_owned(), v.clone());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn the_schema_accepts_exactly_what_quarry_decodes(
        doc in doc(),
        mutations in proptest::collection::vec(
            (proptest::collection::vec(any::<usize>(), 0..4), mutation()),
            0..3,
        ),
    ) {
        static VALIDATOR: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
        let validator = VALIDATOR.get_or_init(|| jsonschema::validator_for(&schema_json::<Doc>()).unwrap());
        let mut value = to_json(&doc.to_raw_value().unwrap());
        // Unmutated, both accept.
        prop_assert!(validator.is_valid(&value), "{value}");
        for (path, m) in &mutations {
            mutate(&mut value, path, m);
        }
        let text = serde_json::to_string(&value).unwrap();
        let decoded = quarry::from_str::<Doc>(&text, Format::Json);
        let accepted = validator.is_valid(&value);
        prop_assert_eq!(
            accepted,
            decoded.is_ok(),
            "{}\nschema errors: {:?}\nquarry: {:?}",
            text,
            validator.iter_errors(&value).map(|e| format!("{} at {}", e, e.instance_path)).collect::<Vec<_>>(),
            decoded.err().map(|e| e.to_string())
        );
    }
}
