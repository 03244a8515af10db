//! quarry and serde_json decode the corpus into the same typed values, and quarry's
//! direct JSON path is taken (it agrees with the RawValue path).

use quarry::pull::PullSource;
use quarry::{Decode, Format};
use quarry_benches::shapes::{citm::Catalog, twitter::Twitter};

/// What the checks need of a typed value: quarry and serde decode it, quarry encodes it.
trait Typed:
    for<'de> Decode<'de> + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug + quarry::Encode
{
}

impl<T> Typed for T where
    T: for<'de> Decode<'de>
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug
        + quarry::Encode
{
}

fn check<T: Typed>(name: &str) {
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

/// quarry and the `toml` crate decode a TOML file into the same typed value, quarry's
/// direct path reads it, and what quarry encodes decodes back to it.
fn check_toml<T: Typed>(name: &str, bytes: &[u8]) {
    let ours: T = quarry::from_slice(bytes, Format::Toml).unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: T = toml::from_str(std::str::from_utf8(bytes).unwrap())
        .unwrap_or_else(|e| panic!("{name}: toml: {e}"));
    assert!(ours == theirs, "{name}: quarry and toml disagree");
    // The facade's direct path reads it, with no fallback to the RawValue path.
    let mut source = quarry::toml::DirectSource::new(bytes, quarry::Limits::default()).unwrap();
    let direct = T::decode_direct(&mut source)
        .ok()
        .filter(|_| source.finish().is_ok())
        .unwrap_or_else(|| panic!("{name}: the direct path fell back"));
    assert!(direct == theirs, "{name}: the direct path disagrees");
    let encoded =
        quarry::toml::to_vec_with_nulls(&ours, quarry::encode::NullEntries::Skip).unwrap();
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

/// Runs `$check::<T>(name, bytes, $args...)` on every document of `$corpus` but `large`,
/// with `T` the document's shape (batches as `$batch<record>`).
macro_rules! each_shape {
    ($corpus:expr, $batch:ident, $check:ident $(, $arg:expr)*) => {{
        #[allow(unused_imports)]
        use quarry_corpus_gen::shapes::Records;
        use quarry_corpus_gen::shapes::*;
        use quarry_corpus_gen::Shape;
        for doc in $corpus {
            if doc.name == "large" {
                continue; // the same records as person-batch, 20,000 of them: slow unoptimized
            }
            let (name, b) = (doc.name, &doc.bytes[..]);
            match doc.shape {
                Shape::SmallMessage => $check::<SmallMessage>(name, b $(, $arg)*),
                Shape::PersonBatch => $check::<$batch<Person>>(name, b $(, $arg)*),
                Shape::EscapedArticles => $check::<$batch<Article>>(name, b $(, $arg)*),
                Shape::Telemetry => $check::<$batch<Reading>>(name, b $(, $arg)*),
                Shape::WideRecord => $check::<$batch<Wide>>(name, b $(, $arg)*),
                Shape::IntList => $check::<$batch<i64>>(name, b $(, $arg)*),
                Shape::Config => $check::<Config>(name, b $(, $arg)*),
            }
        }
    }};
}

/// quarry and the peer decode every shape of `$corpus` into the same typed values.
macro_rules! every_shape {
    ($corpus:expr, $format:expr, $batch:ident, $peer:expr) => {
        each_shape!($corpus, $batch, agree, $format, $peer)
    };
}

#[test]
fn generated_toml_decodes_like_the_toml_crate() {
    each_shape!(quarry_corpus_gen::toml_corpus(), Records, check_toml);
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
fn binary_round_trip<T: Typed>(name: &str, bytes: &[u8]) {
    use quarry::encode::NullEntries;
    use quarry::plist::PlistFormat;
    let value: T = quarry::from_slice(bytes, Format::Plist).unwrap();
    let written = quarry::plist::to_vec_with_nulls(&value, PlistFormat::Binary, NullEntries::Skip)
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
    each_shape!(
        quarry_corpus_gen::plist_binary_corpus(),
        Vec,
        binary_round_trip
    );
}
