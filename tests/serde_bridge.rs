//! Types that only derive serde's traits decode from quarry's RawValue, with paths.

use std::collections::BTreeMap;

use quarry::{json, Format, RawValue, Serde};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
struct Deployment {
    app_name: String,
    replicas: Option<u32>,
    stages: Vec<Stage>,
    env: BTreeMap<String, String>,
    ports: BTreeMap<u16, Protocol>,
    #[serde(default)]
    strategy: Strategy,
}

#[derive(Deserialize, Serialize, Debug, PartialEq)]
struct Stage {
    name: String,
    steps: Vec<Vec<String>>,
    timeout: Option<f64>,
}

#[derive(Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Protocol {
    Tcp,
    Udp,
}

#[derive(Deserialize, Serialize, Debug, PartialEq, Default)]
enum Strategy {
    #[default]
    Recreate,
    Rolling {
        max_surge: u8,
    },
    Canary(u8),
}

const SRC: &str = r#"{
  "app-name": "web",
  "replicas": null,
  "stages": [
    {"name": "build", "steps": [["cargo", "build"], []], "timeout": 1.5},
    {"name": "test", "steps": [["cargo", "test"]], "timeout": null}
  ],
  "env": {"RUST_LOG": "info"},
  "ports": {"80": "tcp", "53": "udp"},
  "strategy": {"Rolling": {"max_surge": 2}}
}"#;

#[test]
fn serde_types_decode_through_the_bridge() {
    let Serde(deployment) = quarry::from_str::<Serde<Deployment>>(SRC, Format::Json).unwrap();
    assert_eq!(deployment.app_name, "web");
    assert_eq!(deployment.replicas, None);
    assert_eq!(
        deployment.stages[0].steps,
        vec![vec!["cargo".to_string(), "build".to_string()], vec![]]
    );
    assert_eq!(deployment.stages[1].timeout, None);
    assert_eq!(deployment.ports[&53], Protocol::Udp);
    assert_eq!(deployment.strategy, Strategy::Rolling { max_surge: 2 });

    // The same value as serde_json reads it.
    let expected: Deployment = serde_json::from_str(SRC).unwrap();
    assert_eq!(deployment, expected);

    // Serialize for RawValue: quarry's value through serde_json's writer reads back the same.
    let raw = json::parse(SRC.as_bytes()).unwrap();
    let through_serde: Deployment =
        serde_json::from_str(&serde_json::to_string(&raw).unwrap()).unwrap();
    assert_eq!(through_serde, expected);
}

#[test]
fn unit_and_newtype_variants_and_defaults() {
    let src = r#"{"app-name": "a", "stages": [], "env": {}, "ports": {}}"#;
    let Serde(d) = quarry::from_str::<Serde<Deployment>>(src, Format::Json).unwrap();
    assert_eq!(d.strategy, Strategy::Recreate);
    let canary: Strategy =
        <Serde<Strategy> as quarry::Decode>::decode(json::parse(br#"{"Canary": 5}"#).unwrap())
            .unwrap()
            .0;
    assert_eq!(canary, Strategy::Canary(5));
    let unit = <Serde<Strategy> as quarry::Decode>::decode(RawValue::String("Recreate".into()))
        .unwrap()
        .0;
    assert_eq!(unit, Strategy::Recreate);
}

#[test]
fn bridge_errors_carry_paths_and_positions() {
    let bad = SRC
        .replace("\"udp\"", "\"sctp\"")
        .replace("\"build\"]", "7]");
    let err = quarry::from_str::<Serde<Deployment>>(&bad, Format::Json)
        .unwrap_err()
        .to_string();
    // serde stops at the first error; the path and position still point at it.
    assert_eq!(
        err,
        "stages[0].steps[0][1]: invalid type: integer `7`, expected a string at line 5, column 43"
    );
    let bad_key = SRC.replace("\"80\"", "\"http\"");
    let err = quarry::from_str::<Serde<Deployment>>(&bad_key, Format::Json)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("ports.http: expected integer, found text \"http\""),
        "{err}"
    );
}

#[test]
fn untyped_text_parses_for_serde_types_too() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Limits {
        port: u16,
        enabled: bool,
        ratio: f32,
    }
    let raw = RawValue::Map(vec![
        ("port".into(), RawValue::Text("8080".into())),
        ("enabled".into(), RawValue::Text("true".into())),
        ("ratio".into(), RawValue::Text("0.5".into())),
    ]);
    let Serde(limits) = <Serde<Limits> as quarry::Decode>::decode(raw).unwrap();
    assert_eq!(
        limits,
        Limits {
            port: 8080,
            enabled: true,
            ratio: 0.5
        }
    );
}
