//! The struct door on JSON: a derived type decodes the same through the direct path and
//! through RawValue, and the facade never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry::{Decode, Format};
use quarry::pull::PullSource;

#[path = "common/enums.rs"]
mod enums;
use enums::{Action, Hook, Step};

#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
#[quarry(rename_all = "camelCase")]
struct Config<'a> {
    name: &'a str,
    #[quarry(range = 1..=65535)]
    port: u16,
    #[quarry(alias = "labels", default)]
    tags: Vec<String>,
    limits: Option<Limits>,
    mode: Option<Mode>,
    ratio: Option<f64>,
    #[quarry(default)]
    values: Vec<Value>,
    action: Option<Action>,
    step: Option<Step>,
    hook: Option<Hook>,
}

/// Untagged: the direct path reads the first variant whose type may take the peeked kind.
#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
#[quarry(untagged)]
enum Value {
    Off,
    Flag(bool),
    Level(u8),
    Name(String),
    Wide(Option<i64>),
    Range { lo: u8, hi: u8 },
    List(Vec<Value>),
    Pair(u8, String),
    Boxed(Box<Option<u8>>),
}

#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
#[quarry(deny_unknown_fields)]
struct Limits {
    cpu: u32,
    memory: Option<u64>,
    pairs: Vec<(u8, bool)>,
}

#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
enum Mode {
    Fast,
    Safe,
}

fuzz_target!(|data: &[u8]| {
    let facade = quarry::from_slice::<Config>(data, Format::Json);
    let Ok(raw) = quarry::json::parse(data) else {
        assert!(facade.is_err());
        return;
    };
    let via_raw = Config::decode(raw);
    let mut parser = quarry::json::DirectSource::new(data, quarry::Limits::default()).unwrap();
    let direct = Config::decode_direct(&mut parser)
        .ok()
        .filter(|_| parser.finish().is_ok());
    if let Some(direct) = &direct {
        assert_eq!(Some(direct), via_raw.as_ref().ok());
    }
    assert_eq!(facade.ok(), via_raw.ok());
});
