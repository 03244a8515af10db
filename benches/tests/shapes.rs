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

/// quarry and the `toml` crate decode a TOML file into the same typed value, and what
/// quarry encodes decodes back to it.
fn check_toml<T>(name: &str, bytes: &[u8])
where
    T: for<'de> Decode<'de>
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug
        + quarry::Encode,
{
    let ours: T = quarry::from_slice(bytes, Format::Toml).unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: T = toml::from_str(std::str::from_utf8(bytes).unwrap())
        .unwrap_or_else(|e| panic!("{name}: toml: {e}"));
    assert!(ours == theirs, "{name}: quarry and toml disagree");
    let encoded = quarry::toml::to_vec(&ours).unwrap();
    let again: T = quarry::from_slice(&encoded, Format::Toml).unwrap();
    assert!(again == theirs, "{name}: encode round trip");
}

#[test]
fn toml_files_decode_like_the_toml_crate() {
    use quarry_benches::shapes::{
        cargo_lock::CargoLock, cargo_manifest::Manifest, uv_lock::UvLock,
    };
    let mut checked = 0;
    for (name, bytes) in quarry_benches::corpus_files("toml") {
        if name.ends_with("Cargo.lock") {
            check_toml::<CargoLock>(&name, &bytes);
        } else if name.ends_with("uv.lock") {
            check_toml::<UvLock>(&name, &bytes);
        } else if name.ends_with("Cargo.toml") {
            check_toml::<Manifest>(&name, &bytes);
        } else {
            continue;
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn generated_toml_decodes_like_the_toml_crate() {
    use quarry_corpus_gen::shapes::*;
    use quarry_corpus_gen::Shape;
    for doc in quarry_corpus_gen::toml_corpus() {
        if doc.name == "large" {
            continue; // the same records as person-batch, 20,000 of them: slow unoptimized
        }
        let (name, b) = (doc.name, &doc.bytes);
        match doc.shape {
            Shape::SmallMessage => check_toml::<SmallMessage>(name, b),
            Shape::PersonBatch => check_toml::<Records<Person>>(name, b),
            Shape::EscapedArticles => check_toml::<Records<Article>>(name, b),
            Shape::Telemetry => check_toml::<Records<Reading>>(name, b),
            Shape::WideRecord => check_toml::<Records<Wide>>(name, b),
            Shape::IntList => check_toml::<Records<i64>>(name, b),
            Shape::Config => check_toml::<Config>(name, b),
        }
    }
}
