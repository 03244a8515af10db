//! serde types read straight from the bytes (`Serde<T>` over each format's direct source)
//! give exactly what the RawValue bridge gives, and the direct path is the one taken.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;

use quarry::pull::{Fallback, PullSource};
use quarry::{json, plist, toml, yaml, Decode, Format, Limits, RawValue, Serde};
use serde::Deserialize;

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
struct Deployment {
    app_name: String,
    replicas: Option<u32>,
    stages: Vec<Stage>,
    env: BTreeMap<String, String>,
    strategy: Strategy,
    checks: Vec<Check>,
    #[serde(default)]
    labels: Vec<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Stage {
    name: String,
    steps: Vec<Vec<String>>,
    timeout: f64,
    retries: i64,
}

#[derive(Deserialize, Debug, PartialEq)]
enum Strategy {
    Recreate,
    Rolling { max_surge: u8 },
    Canary(u8),
}

/// Internally tagged: serde buffers the map to find the tag.
#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Check {
    Http { path: String, port: u16 },
    Exec { command: Vec<String> },
}

/// Flatten: serde collects the entries the struct does not name.
#[derive(Deserialize, Debug, PartialEq)]
struct Service {
    name: String,
    #[serde(flatten)]
    rest: BTreeMap<String, Setting>,
}

/// Untagged: serde buffers the value and tries each variant.
#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Setting {
    Flag(bool),
    Number(i64),
    Text(String),
    List(Vec<Setting>),
}

/// Adjacently tagged.
#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Event {
    Start(String),
    Stop { code: i64 },
}

/// Borrowed fields: the direct path lends the input's text as the bridge does.
#[derive(Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    #[serde(borrow)]
    name: &'a str,
    #[serde(borrow)]
    note: Cow<'a, str>,
    tags: Vec<&'a str>,
}

const DEPLOYMENT: &str = r#"{
  "app-name": "web",
  "replicas": 3,
  "stages": [
    {"name": "build", "steps": [["cargo", "build"], []], "timeout": 1.5, "retries": 2},
    {"name": "test", "steps": [["cargo", "test"]], "timeout": 30, "retries": -1}
  ],
  "env": {"RUST_LOG": "info", "PORT": "80"},
  "strategy": {"Rolling": {"max_surge": 2}},
  "checks": [
    {"kind": "http", "path": "/health", "port": 8080},
    {"kind": "exec", "command": ["true"]}
  ],
  "unknown": {"passed": ["over"]}
}"#;

const SERVICE: &str = r#"{"name": "api", "debug": true, "workers": 8, "mode": "fast",
  "hosts": ["a", 2, false]}"#;

const EVENTS: &str = r#"{"events": [{"t": "Start", "c": "now"}, {"t": "Stop", "c": {"code": 3}}]}"#;

const BORROWED: &str = r#"{"name": "plain", "note": "text", "tags": ["a", "b"]}"#;

/// The document `json` in `format`: written by quarry's own writers from its value.
fn rendered(json: &str, format: Format) -> Vec<u8> {
    let value = json::parse(json.as_bytes()).unwrap();
    match format {
        Format::Json => json.as_bytes().to_vec(),
        Format::Yaml => yaml::to_vec(&value).unwrap(),
        Format::Toml => toml::to_vec(&value).unwrap(),
        Format::Plist => plist::to_vec_binary(&value).unwrap(),
        _ => unreachable!(),
    }
}

/// `T` read by the direct path from `source` (the whole document), or its fallback.
fn direct<'de, T: Deserialize<'de>>(mut source: impl PullSource<'de>) -> Result<T, Fallback> {
    let Serde(value) = Serde::<T>::decode_direct(&mut source)?;
    source.finish()?;
    Ok(value)
}

/// `T` from `bytes` in `format`, by the direct path alone.
fn read_directly<'de, T: Deserialize<'de>>(
    bytes: &'de [u8],
    format: Format,
) -> Result<T, Fallback> {
    let limits = Limits::default();
    match format {
        Format::Json => direct(json::DirectSource::new(bytes, limits).unwrap()),
        Format::Yaml => direct(yaml::DirectSource::new(bytes, limits).unwrap()),
        Format::Toml => direct(toml::DirectSource::new(bytes, limits).unwrap()),
        Format::Plist => direct(plist::DirectSource::new(bytes, limits).unwrap()),
        _ => unreachable!(),
    }
}

/// `T` from `bytes` through the RawValue bridge alone.
fn read_through_raw<'de, T: Deserialize<'de>>(bytes: &'de [u8], format: Format) -> T {
    let raw: RawValue<'de> = match format {
        Format::Json => json::parse(bytes).unwrap(),
        Format::Yaml => yaml::parse(bytes).unwrap(),
        Format::Toml => toml::parse(bytes).unwrap(),
        Format::Plist => plist::parse(bytes).unwrap(),
        _ => unreachable!(),
    };
    Serde::<T>::decode(raw).unwrap().0
}

/// Both paths agree on `json` rendered in every format with a direct path, the direct
/// path reads it without falling back, and `from_slice` gives the same.
fn agrees<T>(json: &str, formats: &[Format])
where
    T: for<'de> Deserialize<'de> + PartialEq + Debug,
{
    for &format in formats {
        let bytes = rendered(json, format);
        let through_raw: T = read_through_raw(&bytes, format);
        let directly: T = read_directly(&bytes, format)
            .unwrap_or_else(|_| panic!("{format:?}: the direct path fell back"));
        assert_eq!(directly, through_raw, "{format:?}");
        let Serde(facade) = quarry::from_slice::<Serde<T>>(&bytes, format).unwrap();
        assert_eq!(facade, through_raw, "{format:?}");
    }
}

const ALL: [Format; 4] = [Format::Json, Format::Yaml, Format::Toml, Format::Plist];

#[test]
fn structs_enums_and_maps_read_directly_as_through_the_bridge() {
    agrees::<Deployment>(DEPLOYMENT, &ALL);
    let Serde(d) = quarry::from_str::<Serde<Deployment>>(DEPLOYMENT, Format::Json).unwrap();
    assert_eq!(d.strategy, Strategy::Rolling { max_surge: 2 });
    assert_eq!(
        d.checks[0],
        Check::Http {
            path: "/health".into(),
            port: 8080
        }
    );
    agrees::<Strategy>(r#"{"Canary": 5}"#, &[Format::Json, Format::Yaml]);
    agrees::<BTreeMap<String, Strategy>>(r#"{"a": "Recreate", "b": {"Canary": 1}}"#, &ALL);
}

#[test]
fn flatten_untagged_and_adjacent_tags_read_directly_as_through_the_bridge() {
    agrees::<Service>(SERVICE, &ALL);
    let Serde(s) = quarry::from_str::<Serde<Service>>(SERVICE, Format::Json).unwrap();
    assert_eq!(s.rest["workers"], Setting::Number(8));
    assert_eq!(
        s.rest["hosts"],
        Setting::List(vec![
            Setting::Text("a".into()),
            Setting::Number(2),
            Setting::Flag(false)
        ])
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct Events {
        events: Vec<Event>,
    }
    agrees::<Events>(EVENTS, &ALL);
}

#[test]
fn borrowed_fields_read_directly_as_through_the_bridge() {
    for format in [Format::Json, Format::Yaml, Format::Toml] {
        let bytes = rendered(BORROWED, format);
        let through_raw: Borrowed<'_> = read_through_raw(&bytes, format);
        let directly: Borrowed<'_> = read_directly(&bytes, format).unwrap();
        assert_eq!(directly, through_raw, "{format:?}");
        assert_eq!(directly.name, "plain");
        assert!(matches!(directly.note, Cow::Borrowed("text")));
    }
}

#[test]
fn errors_fall_back_to_the_bridge_and_keep_their_paths() {
    let bad = DEPLOYMENT.replace("\"max_surge\": 2", "\"max_surge\": 300");
    assert!(read_directly::<Deployment>(bad.as_bytes(), Format::Json).is_err());
    let err = quarry::from_str::<Serde<Deployment>>(&bad, Format::Json)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("strategy.Rolling.max_surge: "), "{err}");
    assert!(err.ends_with("at line 9, column 41"), "{err}");
}

#[test]
fn what_the_direct_path_cannot_read_falls_back_to_the_same_value() {
    // A TOML datetime has no kind of its own: it is read as a RawValue, as text.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Release {
        at: String,
    }
    let doc = b"at = 1979-05-27T07:32:00Z\n";
    let directly: Release = read_directly(doc, Format::Toml).unwrap();
    assert_eq!(directly, read_through_raw::<Release>(doc, Format::Toml));
    assert_eq!(directly.at, "1979-05-27T07:32:00Z");
}

#[test]
fn xml_text_goes_through_the_bridge() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Server {
        port: u16,
        host: String,
    }
    let doc = "<server><port>8080</port><host>h</host></server>";
    let Serde(server) = quarry::from_str::<Serde<Server>>(doc, Format::Xml).unwrap();
    assert_eq!(server.port, 8080);
}

#[test]
fn a_single_xml_element_is_a_list_of_one_for_serde_types_too() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Person {
        name: String,
        tags: Vec<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Batch {
        records: Vec<Person>,
    }
    let doc = "<batch><records><name>a</name><tags>x</tags><tags>y</tags></records>\
               <records><name>b</name><tags>z</tags></records></batch>";
    let Serde(batch) = quarry::from_str::<Serde<Batch>>(doc, Format::Xml).unwrap();
    assert_eq!(batch.records[0].tags, ["x", "y"]);
    assert_eq!(batch.records[1].tags, ["z"]);
    // A JSON string is still not a list.
    let json = r#"{"records": [{"name": "b", "tags": "z"}]}"#;
    assert!(quarry::from_str::<Serde<Batch>>(json, Format::Json).is_err());
}

/// Which visit a number reached a visitor by, as a custom `deserialize_with` may tell.
#[derive(Debug, PartialEq)]
enum Visited {
    I64(i64),
    U64(u64),
    I128(i128),
    U128(u128),
    F64(f64),
    Text(String),
}

/// A field read by `deserialize_f64` with a visitor that keeps how it was visited.
#[derive(Deserialize, Debug, PartialEq)]
struct Measured {
    #[serde(deserialize_with = "visited_f64")]
    f: Visited,
    #[serde(deserialize_with = "visited_u64")]
    u: Visited,
}

struct VisitedVisitor;

impl<'de> serde::de::Visitor<'de> for VisitedVisitor {
    type Value = Visited;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a number or text")
    }
    fn visit_i64<E>(self, v: i64) -> Result<Visited, E> {
        Ok(Visited::I64(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Visited, E> {
        Ok(Visited::U64(v))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Visited, E> {
        Ok(Visited::I128(v))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Visited, E> {
        Ok(Visited::U128(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Visited, E> {
        Ok(Visited::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Visited, E> {
        Ok(Visited::Text(v.to_owned()))
    }
}

fn visited_f64<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Visited, D::Error> {
    d.deserialize_f64(VisitedVisitor)
}

fn visited_u64<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Visited, D::Error> {
    d.deserialize_u64(VisitedVisitor)
}

/// Both paths give `json` the same value in every format with a direct path (the direct
/// path may fall back).
fn same_either_way<T>(json: &str, formats: &[Format])
where
    T: for<'de> Deserialize<'de> + PartialEq + Debug,
{
    for &format in formats {
        let bytes = rendered(json, format);
        let through_raw: T = read_through_raw(&bytes, format);
        if let Ok(directly) = read_directly::<T>(&bytes, format) {
            assert_eq!(directly, through_raw, "{format:?}: {json}");
        }
        let Serde(facade) = quarry::from_slice::<Serde<T>>(&bytes, format).unwrap();
        assert_eq!(facade, through_raw, "{format:?}: {json}");
    }
}

#[test]
fn typed_calls_visit_numbers_and_text_as_the_bridge_does() {
    // A number is visited as the integer or float it is, whichever type was asked for.
    same_either_way::<Measured>(r#"{"f": 2, "u": -3}"#, &ALL);
    agrees::<Measured>(r#"{"f": 2.5, "u": 7}"#, &ALL);
    agrees::<Measured>(r#"{"f": -2, "u": 7}"#, &ALL);
    // Text asked for as a number is handed over as text.
    agrees::<Measured>(r#"{"f": "x", "u": "y"}"#, &ALL);
    let Serde(m) =
        quarry::from_str::<Serde<Measured>>(r#"{"f": 2, "u": -3}"#, Format::Json).unwrap();
    assert_eq!((m.f, m.u), (Visited::I64(2), Visited::I64(-3)));
    // Integers beyond 64 bits are visited as 128-bit ones, and a float as large is a float.
    for json in [
        r#"{"f": 18446744073709551616, "u": -9223372036854775809}"#,
        r#"{"f": 1e30, "u": 1e300}"#,
        r#"{"f": 9223372036854775808, "u": 9223372036854775808.0}"#,
    ] {
        same_either_way::<Measured>(json, &[Format::Json, Format::Yaml]);
    }
    let big = r#"{"f": 18446744073709551616, "u": 1e30}"#;
    let Serde(m) = quarry::from_str::<Serde<Measured>>(big, Format::Json).unwrap();
    assert_eq!(m.f, Visited::I128(1 << 64));
    assert_eq!(m.u, Visited::F64(1e30));
    // Plain types: an integer read as a float, and out-of-range integers are errors.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Plain {
        f: f32,
        small: u8,
        signed: i16,
    }
    agrees::<Plain>(r#"{"f": 3, "small": 255, "signed": -32768}"#, &ALL);
    for bad in [
        r#"{"f": 3, "small": 256, "signed": 0}"#,
        r#"{"f": 3, "small": -1, "signed": 0}"#,
        r#"{"f": 3, "small": 1.0, "signed": 0}"#,
        r#"{"f": 3, "small": 1, "signed": 32768}"#,
        r#"{"f": "3", "small": 1, "signed": 0}"#,
    ] {
        assert!(
            quarry::from_str::<Serde<Plain>>(bad, Format::Json).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn struct_keys_in_any_order_read_directly_as_through_the_bridge() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Keys {
        id: u64,
        #[serde(rename = "say \"hi\"")]
        quoted: String,
        #[serde(alias = "nom")]
        name: String,
        #[serde(default)]
        tags: Vec<String>,
        ok: bool,
    }
    for json in [
        r#"{"id": 1, "say \"hi\"": "q", "name": "n", "tags": ["t"], "ok": true}"#,
        r#"{"ok": false, "name": "n", "id": 2, "say \"hi\"": "q"}"#,
        r#"{"id":3,"extra":{"a":[1]},"say \"hi\"":"q","nom":"n","ok":true,"more":null}"#,
        r#"{"\u0069d": 4, "say \"hi\"": "q", "na\u006de": "n", "ok": true}"#,
        r#"{"id" : 5 , "say \"hi\"" : "q" , "name" : "n" , "ok" : true }"#,
        r#"{"i": 6, "id": 6, "ide": 6, "say \"hi\"": "q", "name": "n", "ok": true}"#,
    ] {
        same_either_way::<Keys>(json, &[Format::Json, Format::Yaml]);
        let through_raw: Keys = read_through_raw(json.as_bytes(), Format::Json);
        let directly: Keys = read_directly(json.as_bytes(), Format::Json)
            .unwrap_or_else(|_| panic!("the direct path fell back: {json}"));
        assert_eq!(directly, through_raw, "{json}");
    }
    // A repeated field is an error either way, as are a missing one and a denied one.
    let repeated = r#"{"id": 1, "id": 2, "say \"hi\"": "q", "name": "n", "ok": true}"#;
    assert!(quarry::from_str::<Serde<Keys>>(repeated, Format::Json).is_err());
    let missing = r#"{"id": 1, "say \"hi\"": "q", "ok": true}"#;
    assert!(quarry::from_str::<Serde<Keys>>(missing, Format::Json).is_err());
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        a: u8,
        b: u8,
    }
    agrees::<Strict>(r#"{"b": 2, "a": 1}"#, &ALL);
    let err = quarry::from_str::<Serde<Strict>>(r#"{"a": 1, "c": 3, "b": 2}"#, Format::Json)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `c`"), "{err}");
}

#[test]
fn number_and_boolean_map_keys_read_directly_as_through_the_bridge() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Keyed {
        ids: BTreeMap<u64, String>,
        offsets: BTreeMap<i32, Vec<u8>>,
        small: BTreeMap<u8, u8>,
        flags: BTreeMap<bool, u8>,
        names: BTreeMap<String, u8>,
    }
    let json = r#"{
        "ids": {"138586341": "a", "18446744073709551615": "b", "0": "c"},
        "offsets": {"-7": [1], "0": [], "2147483647": [2, 3]},
        "small": {"255": 1, "7": 2},
        "flags": {"true": 1, "false": 0},
        "names": {"12": 1, "x": 2}
    }"#;
    agrees::<Keyed>(json, &ALL);
    let ports = r#"{"80": "tcp", "53": "udp"}"#;
    let read: BTreeMap<u16, String> = read_directly(ports.as_bytes(), Format::Json).unwrap();
    assert_eq!(read[&53], "udp");
    // A key that does not parse as its type is an error either way, with its path; the
    // direct path gives up on it and the bridge reports it.
    for bad in [
        r#"{"ids": {"1x": "a"}, "offsets": {}, "small": {}, "flags": {}, "names": {}}"#,
        r#"{"ids": {}, "offsets": {}, "small": {"256": 1}, "flags": {}, "names": {}}"#,
        r#"{"ids": {}, "offsets": {}, "small": {}, "flags": {"yes": 1}, "names": {}}"#,
    ] {
        assert!(
            read_directly::<Keyed>(bad.as_bytes(), Format::Json).is_err(),
            "{bad}"
        );
        let err = quarry::from_str::<Serde<Keyed>>(bad, Format::Json).unwrap_err();
        let through_raw = Serde::<Keyed>::decode(json::parse(bad.as_bytes()).unwrap()).unwrap_err();
        // The facade adds where the value stands.
        let (err, through_raw) = (err.to_string(), through_raw.to_string());
        assert!(err.starts_with(&format!("{through_raw} at line ")), "{err}");
    }
}
