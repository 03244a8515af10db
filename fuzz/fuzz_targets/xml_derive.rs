//! The struct door on XML: a derived type decodes the same through the direct path
//! (`xml::DirectSource`, under XML's rule for sequences) and through RawValue from the
//! root element, or the direct path falls back; and the facade agrees with both.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry::{Decode, Format};
use quarry::pull::PullSource;
use quarry_raw_value::DecodeOptions;

#[path = "common/enums.rs"]
mod enums;
use enums::{Action, Hook, Step};

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(rename_all = "kebab-case")]
struct Config<'a> {
    #[quarry(rename = "@name")]
    name: Option<&'a str>,
    #[quarry(range = 1..=65535)]
    port: Option<u16>,
    #[quarry(alias = "labels")]
    tags: Vec<String>,
    service: Option<Service>,
    jobs: Vec<Job>,
    ratio: Option<f64>,
    on: Option<bool>,
    mode: Option<Mode>,
    #[quarry(rename = "$text")]
    text: Option<String>,
    pair: Option<(i64, bool)>,
    setting: Vec<Setting>,
    action: Option<Action>,
    step: Vec<Step>,
    hook: Option<Hook>,
}

/// Untagged: XML's text is untyped, so no newtype variant is passed over for it.
#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(untagged)]
enum Setting {
    Level(u8),
    Flag(bool),
    Name(String),
    Detail { path: String },
    List(Vec<u8>),
}

#[derive(quarry::Decode, Debug, PartialEq)]
struct Service {
    #[quarry(rename = "@image")]
    image: String,
    replicas: Option<i64>,
    weights: Vec<f32>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(deny_unknown_fields)]
struct Job {
    name: String,
    script: Option<Vec<String>>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
enum Mode {
    Fast,
    Safe,
}

fuzz_target!(|data: &[u8]| {
    // The source reports XML's rule for sequences; the RawValue path is given it.
    {
        let raw = quarry::xml::parse_root(data)
            .map(|(_, root)| Config::decode_with_options(root, DecodeOptions::XML));
        if let Ok(mut source) = quarry::xml::DirectSource::new(data, quarry::Limits::default()) {
            assert!(
                raw.is_ok(),
                "the tape parsed what the RawValue path rejects"
            );
            if let Ok(direct) = Config::decode_direct(&mut source) {
                assert!(source.finish().is_ok());
                let raw = raw.as_ref().ok().and_then(|r| r.as_ref().ok());
                assert_eq!(
                    format!("{:?}", Some(&direct)),
                    format!("{raw:?}"),
                    "the direct path differs"
                );
            }
        } else {
            assert!(
                raw.is_err(),
                "the tape rejected what the RawValue path parses"
            );
        }
    }
    let facade = quarry::from_slice::<Config>(data, Format::Xml);
    let raw = quarry::xml::parse_root(data)
        .ok()
        .and_then(|(_, root)| Config::decode_with_options(root, DecodeOptions::XML).ok());
    // (Compared as text: a NaN field is not equal to itself.)
    assert_eq!(format!("{:?}", facade.ok()), format!("{raw:?}"));
});
