//! The struct door on TOML: a derived type decodes the same through the direct path
//! (`toml::DirectSource`) and through RawValue, and any document read whole through the
//! direct source equals the RawValue path's value (or the source fell back).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry::toml::DirectSource;
use quarry::{Decode, Format, Limits, RawValue};
use quarry::pull::PullSource;
use std::collections::BTreeMap;

#[path = "common/enums.rs"]
mod enums;
use enums::{Action, Hook, Step};

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(rename_all = "kebab-case")]
struct Manifest<'a> {
    name: Option<&'a str>,
    #[quarry(range = 1..=65535)]
    port: Option<u16>,
    #[quarry(alias = "labels", default)]
    tags: Vec<String>,
    package: Option<Package>,
    #[quarry(default)]
    dependencies: BTreeMap<String, Dependency>,
    #[quarry(default)]
    bin: Vec<Target>,
    ratio: Option<f64>,
    created: Option<quarry::Datetime>,
    mode: Option<Mode>,
    #[quarry(default)]
    steps: Vec<Step>,
    #[quarry(default)]
    hooks: BTreeMap<String, Hook>,
    action: Option<Action>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
struct Package {
    name: String,
    version: Option<String>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(untagged)]
enum Dependency {
    Version(String),
    Detailed {
        version: Option<String>,
        #[quarry(default)]
        features: Vec<String>,
    },
}

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(deny_unknown_fields)]
struct Target {
    name: String,
    path: Option<String>,
    pairs: Option<Vec<(u8, bool)>>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
enum Mode {
    Fast,
    Safe,
}

fuzz_target!(|data: &[u8]| {
    let facade = quarry::from_slice::<Manifest>(data, Format::Toml);
    let Ok(raw) = quarry::toml::parse(data) else {
        assert!(facade.is_err());
        if let Ok(mut source) = DirectSource::new(data, Limits::default()) {
            let read = RawValue::decode_direct(&mut source);
            assert!(read.is_err() || !source.finish().is_ok());
        }
        return;
    };
    // (Compared as text: NaN is not equal to itself.)
    let mut source = DirectSource::new(data, Limits::default()).unwrap();
    if let Ok(direct) = RawValue::decode_direct(&mut source) {
        if source.finish().is_ok() {
            assert_eq!(format!("{direct:?}"), format!("{raw:?}"));
        }
    }
    let via_raw = Manifest::decode(raw);
    let mut source = DirectSource::new(data, Limits::default()).unwrap();
    if let Ok(direct) = Manifest::decode_direct(&mut source) {
        if source.finish().is_ok() {
            assert_eq!(
                format!("{:?}", Some(&direct)),
                format!("{:?}", via_raw.as_ref().ok())
            );
        }
    }
    // (Compared as text: a NaN field is not equal to itself.)
    assert_eq!(format!("{:?}", facade.ok()), format!("{:?}", via_raw.ok()));
});
