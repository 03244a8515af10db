//! quarry and serde_json decode the corpus into the same typed values, and quarry's
//! direct JSON path is taken (it agrees with the RawValue path).

use quarry::{Decode, Format};
use quarry_benches::shapes::{citm::Catalog, twitter::Twitter};

fn check<T>(name: &str)
where
    T: for<'de> Decode<'de>
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug
        + quarry::Encode,
{
    let bytes = std::fs::read(quarry_benches::shared_corpus().join("json").join(name)).unwrap();
    let ours: T =
        quarry::from_slice(&bytes, Format::Json).unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: T = serde_json::from_slice(&bytes).unwrap();
    assert!(ours == theirs, "{name}: quarry and serde_json disagree");
    let mut parser = quarry::json::Parser::new(&bytes, quarry::Limits::default()).unwrap();
    let direct =
        T::decode_json(&mut parser).unwrap_or_else(|_| panic!("{name}: the direct path fell back"));
    assert!(direct == theirs, "{name}: the direct path disagrees");
    let raw = T::decode(quarry::json::parse(&bytes).unwrap()).unwrap();
    assert!(raw == theirs, "{name}: the RawValue path disagrees");
    // Encoding and decoding again gives the same value.
    let encoded = quarry::json::to_vec(&ours).unwrap();
    let again: T = quarry::from_slice(&encoded, Format::Json).unwrap();
    assert!(again == theirs, "{name}: encode round trip");
}

#[test]
fn twitter_decodes_like_serde_json() {
    check::<Twitter>("twitter.json");
}

#[test]
fn citm_decodes_like_serde_json() {
    check::<Catalog>("citm_catalog.json");
}
