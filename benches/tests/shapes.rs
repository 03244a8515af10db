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
    let bytes = std::fs::read(quarry_benches::corpus_dir().join("json").join(name)).unwrap();
    let ours: T =
        quarry::from_slice(&bytes, Format::Json).unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: T = serde_json::from_slice(&bytes).unwrap();
    assert!(ours == theirs, "{name}: quarry and serde_json disagree");
    let mut parser = quarry::json::DirectSource::new(&bytes, quarry::Limits::default()).unwrap();
    let direct = T::decode_direct(&mut parser)
        .unwrap_or_else(|_| panic!("{name}: the direct path fell back"));
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
    let encoded = quarry::toml::to_vec_with(&ours, quarry::toml::NullEntries::Skip).unwrap();
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

/// quarry and the peer decode one rendering into the same typed value.
fn agree<T>(name: &str, bytes: &[u8], format: Format, peer: impl Fn(&[u8]) -> Result<T, String>)
where
    T: for<'de> Decode<'de> + PartialEq + std::fmt::Debug,
{
    let ours: T =
        quarry::from_slice(bytes, format).unwrap_or_else(|e| panic!("{format} {name}: {e}"));
    let theirs = peer(bytes).unwrap_or_else(|e| panic!("{format} {name}: peer: {e}"));
    assert!(
        ours == theirs,
        "{format} {name}: quarry and the peer disagree"
    );
}

macro_rules! every_shape {
    ($corpus:expr, $format:expr, $batch:ident, $peer:expr) => {{
        #[allow(unused_imports)]
        use quarry_corpus_gen::shapes::Records;
        use quarry_corpus_gen::shapes::*;
        use quarry_corpus_gen::Shape;
        for doc in $corpus {
            if doc.name == "large" {
                continue;
            }
            let (name, b) = (doc.name, &doc.bytes[..]);
            match doc.shape {
                Shape::SmallMessage => agree::<SmallMessage>(name, b, $format, $peer),
                Shape::PersonBatch => agree::<$batch<Person>>(name, b, $format, $peer),
                Shape::EscapedArticles => agree::<$batch<Article>>(name, b, $format, $peer),
                Shape::Telemetry => agree::<$batch<Reading>>(name, b, $format, $peer),
                Shape::WideRecord => agree::<$batch<Wide>>(name, b, $format, $peer),
                Shape::IntList => agree::<$batch<i64>>(name, b, $format, $peer),
                Shape::Config => agree::<Config>(name, b, $format, $peer),
            }
        }
    }};
}

#[test]
fn generated_yaml_decodes_like_serde_yaml() {
    every_shape!(quarry_corpus_gen::yaml_corpus(), Format::Yaml, Vec, |b| {
        serde_yaml::from_slice(b).map_err(|e| e.to_string())
    });
}

#[test]
fn generated_xml_decodes_like_quick_xml() {
    every_shape!(quarry_corpus_gen::xml_corpus(), Format::Xml, Records, |b| {
        quick_xml::de::from_str(std::str::from_utf8(b).unwrap()).map_err(|e| e.to_string())
    });
}

#[test]
fn generated_plists_decode_like_the_plist_crate() {
    every_shape!(
        quarry_corpus_gen::plist_xml_corpus(),
        Format::Plist,
        Vec,
        |b| { plist::from_bytes(b).map_err(|e| e.to_string()) }
    );
    every_shape!(
        quarry_corpus_gen::plist_binary_corpus(),
        Format::Plist,
        Vec,
        |b| { plist::from_bytes(b).map_err(|e| e.to_string()) }
    );
}

/// A typed value quarry writes as a binary plist (derived `Encode`, through
/// `plist::BinaryWriter`) reads back as the same value in the plist crate and in quarry.
fn binary_round_trip<T>(name: &str, bytes: &[u8])
where
    T: for<'de> Decode<'de>
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug
        + quarry::Encode,
{
    use quarry::plist::{NullEntries, PlistFormat};
    let value: T = quarry::from_slice(bytes, Format::Plist).unwrap();
    let written = quarry::plist::to_vec_with(&value, PlistFormat::Binary, NullEntries::Skip)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: T = plist::from_bytes(&written).unwrap_or_else(|e| panic!("{name}: plist: {e}"));
    assert!(
        theirs == value,
        "{name}: the plist crate reads another value"
    );
    let ours: T = quarry::from_slice(&written, Format::Plist).unwrap();
    assert!(ours == value, "{name}: quarry reads another value");
}

#[test]
fn typed_values_written_as_binary_plists_read_back_in_the_plist_crate() {
    use quarry_corpus_gen::shapes::*;
    use quarry_corpus_gen::Shape;
    for doc in quarry_corpus_gen::plist_binary_corpus() {
        if doc.name == "large" {
            continue;
        }
        let (name, b) = (doc.name, &doc.bytes[..]);
        match doc.shape {
            Shape::SmallMessage => binary_round_trip::<SmallMessage>(name, b),
            Shape::PersonBatch => binary_round_trip::<Vec<Person>>(name, b),
            Shape::EscapedArticles => binary_round_trip::<Vec<Article>>(name, b),
            Shape::Telemetry => binary_round_trip::<Vec<Reading>>(name, b),
            Shape::WideRecord => binary_round_trip::<Vec<Wide>>(name, b),
            Shape::IntList => binary_round_trip::<Vec<i64>>(name, b),
            Shape::Config => binary_round_trip::<Config>(name, b),
        }
    }
}
