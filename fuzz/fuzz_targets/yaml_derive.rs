//! The struct door on YAML: a derived type decodes the same through the direct path
//! (`yaml::DirectSource`) and through RawValue, and any document read whole through the
//! direct source equals the RawValue path's value (or the source fell back).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry::yaml::{DirectSource, Options};
use quarry::{Decode, Format, RawValue};
use quarry::pull::PullSource;
use std::collections::BTreeMap;

#[path = "common/enums.rs"]
mod enums;
use enums::{Action, Hook, Step};

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(rename_all = "kebab-case")]
struct Config<'a> {
    name: Option<&'a str>,
    #[quarry(range = 1..=65535)]
    port: Option<u16>,
    #[quarry(alias = "labels", default)]
    tags: Vec<String>,
    service: Option<Service>,
    #[quarry(default)]
    env: BTreeMap<String, Value>,
    #[quarry(default)]
    jobs: Vec<Job>,
    ratio: Option<f64>,
    on: Option<bool>,
    mode: Option<Mode>,
    #[quarry(default)]
    steps: Vec<Step>,
    #[quarry(default)]
    hooks: BTreeMap<String, Hook>,
    action: Option<Action>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
struct Service {
    image: String,
    replicas: Option<i64>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(untagged)]
enum Value {
    Number(i64),
    Text(String),
    List(Vec<String>),
}

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(deny_unknown_fields)]
struct Job {
    name: String,
    script: Option<Vec<String>>,
    pairs: Option<Vec<(u8, bool)>>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
enum Mode {
    Fast,
    Safe,
}

fn source(data: &[u8]) -> Option<DirectSource<'_>> {
    DirectSource::with_options(data, &Options::default()).ok()
}

fuzz_target!(|data: &[u8]| {
    let facade = quarry::from_slice::<Config>(data, Format::Yaml);
    let Ok(raw) = quarry::yaml::parse(data) else {
        assert!(facade.is_err());
        if let Some(mut source) = source(data) {
            let read = RawValue::decode_direct(&mut source);
            assert!(read.is_err() || !source.finish().is_ok());
        }
        return;
    };
    // (Compared as text: NaN is not equal to itself.)
    if let Some(mut source) = source(data) {
        if let Ok(direct) = RawValue::decode_direct(&mut source) {
            if source.finish().is_ok() {
                assert_eq!(format!("{direct:?}"), format!("{raw:?}"));
            }
        }
    }
    if let Some(mut source) = source(data) {
        if let Ok(direct) = source_read_raw(&mut source) {
            if source.finish().is_ok() {
                assert_eq!(format!("{direct:?}"), format!("{raw:?}"));
            }
        }
    }
    let via_raw = Config::decode(raw);
    if let Some(mut source) = source(data) {
        if let Ok(direct) = Config::decode_direct(&mut source) {
            if source.finish().is_ok() {
                assert_eq!(
                    format!("{:?}", Some(&direct)),
                    format!("{:?}", via_raw.as_ref().ok())
                );
            }
        }
    }
    // (Compared as text: a NaN field is not equal to itself.)
    assert_eq!(format!("{:?}", facade.ok()), format!("{:?}", via_raw.ok()));
});

fn source_read_raw<'a>(source: &mut DirectSource<'a>) -> Result<RawValue<'a>, quarry::pull::Fallback> {
    source.read_raw()
}
