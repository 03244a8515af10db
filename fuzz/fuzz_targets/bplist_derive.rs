//! The struct door on binary plists: a derived type decodes the same through the direct
//! path and through RawValue. Input that is not a binary plist is read as JSON and
//! written as one first, so the fuzzer reaches well-formed files as well as hostile ones.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry::encode::NullEntries;
use quarry::plist::{DirectSource, PlistFormat};
use quarry::{Decode, Format, Limits, RawValue};

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(rename_all = "camelCase")]
struct Config<'a> {
    name: &'a str,
    #[quarry(range = 1..=65535)]
    port: u16,
    #[quarry(alias = "labels", default)]
    tags: Vec<String>,
    limits: Option<Limits_>,
    mode: Option<Mode>,
    ratio: Option<f64>,
    created: Option<quarry::Datetime>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(deny_unknown_fields)]
struct Limits_ {
    cpu: u32,
    memory: Option<u64>,
    pairs: Vec<(u8, bool)>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
enum Mode {
    Fast,
    Safe,
}

fuzz_target!(|data: &[u8]| {
    let owned;
    let file = if data.starts_with(b"bplist") {
        data
    } else {
        let Ok(value) = quarry::json::parse(data) else {
            return;
        };
        let Ok(bytes) = quarry::plist::to_vec_with_nulls(&value, PlistFormat::Binary, NullEntries::Skip)
        else {
            return;
        };
        owned = bytes;
        &owned[..]
    };
    let facade = quarry::from_slice::<Config>(file, Format::Plist);
    let Ok(raw) = quarry::plist::parse(file) else {
        assert!(facade.is_err());
        assert!(DirectSource::new(file, Limits::default())
            .ok()
            .is_none_or(|mut s| RawValue::decode_direct(&mut s).is_err()));
        return;
    };
    // Any value reads whole through the direct source as the RawValue path reads it.
    let mut source = DirectSource::new(file, Limits::default()).unwrap();
    // (Compared as text: NaN is not equal to itself.)
    let direct = RawValue::decode_direct(&mut source).expect("the RawValue path read it");
    assert_eq!(format!("{direct:?}"), format!("{raw:?}"));
    let via_raw = Config::decode(raw);
    let mut source = DirectSource::new(file, Limits::default()).unwrap();
    if let Ok(direct) = Config::decode_direct(&mut source) {
        assert_eq!(
            format!("{:?}", Some(&direct)),
            format!("{:?}", via_raw.as_ref().ok())
        );
    }
    // (Compared as text: a NaN field is not equal to itself.)
    assert_eq!(format!("{:?}", facade.ok()), format!("{:?}", via_raw.ok()));
});
