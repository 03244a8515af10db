//! Struct decode of a person batch in a loop, for a profiler:
//! `profile_decode FORMAT FILE [ITERATIONS]` with FORMAT one of json, yaml, toml, xml,
//! plist (XML and TOML batches decode as `Records<Person>`, the others as `Vec<Person>`);
//! a FILE of `corpus:NAME` is the generated corpus's document NAME (for plists, the binary
//! one; `corpus:xml:NAME` the XML one).
//!
//! FORMAT may also be `FORMAT-raw` to parse into a RawValue only, `FORMAT-serde` to decode
//! through the types' serde derive (`quarry::Serde`, JSON, YAML and plists: `Vec`s of
//! `person`, `readings` or `wide`), `FORMAT-check` to validate only, or `json-tree` to
//! build the JSON tree door's document. A fourth argument picks another
//! shape: `small` (`SmallMessage`), `config` (`Config`), `manifest` (a `Cargo.toml`
//! manifest), `lock` (a `Cargo.lock`); or `ints` (`i64`s), `wide` (`Wide` records),
//! `articles` (`Article`s), `readings` (telemetry's `Reading`s), each a `Vec` in JSON,
//! YAML and plists and `Records<_>` in TOML and XML.

use quarry::Format;
use quarry_corpus_gen::shapes::{Article, Person, Reading, Records, SmallMessage, Wide};

fn main() {
    let mut args = std::env::args().skip(1);
    let arm = args.next().expect("FORMAT");
    let file = args.next().expect("FILE");
    let iterations: usize = args.next().map_or(200, |n| n.parse().expect("ITERATIONS"));
    let shape = args.next().unwrap_or_else(|| "person".into());
    let bytes = match file.strip_prefix("corpus:") {
        // A generated document: `corpus:NAME` in JSON, YAML, XML, TOML, and for plists
        // `corpus:NAME` in the binary format or `corpus:xml:NAME` in the XML one.
        Some(name) => {
            let (corpus, name) = match (arm.split('-').next(), name.strip_prefix("xml:")) {
                (Some("json"), _) => (quarry_corpus_gen::json_corpus(), name),
                (Some("yaml"), _) => (quarry_corpus_gen::yaml_corpus(), name),
                (Some("xml"), _) => (quarry_corpus_gen::xml_corpus(), name),
                (Some("toml"), _) => (quarry_corpus_gen::toml_corpus(), name),
                (Some("plist"), Some(name)) => (quarry_corpus_gen::plist_xml_corpus(), name),
                _ => (quarry_corpus_gen::plist_binary_corpus(), name),
            };
            corpus
                .into_iter()
                .find(|doc| doc.name == name)
                .expect("a generated document of that name")
                .bytes
        }
        None => std::fs::read(&file).expect("readable FILE"),
    };
    let (name, raw_only) = match arm.strip_suffix("-raw") {
        Some(name) => (name, true),
        None => (arm.as_str(), false),
    };
    let (name, serde_only) = match name.strip_suffix("-serde") {
        Some(name) => (name, true),
        None => (name, false),
    };
    let (name, check_only) = match name.strip_suffix("-check") {
        Some(name) => (name, true),
        None => (name, false),
    };
    let (name, tree_only) = match name.strip_suffix("-tree") {
        Some(name) => (name, true),
        None => (name, false),
    };
    let format: Format = name.parse().expect("a format");
    let mut sink = 0usize;
    for _ in 0..iterations {
        sink += if tree_only {
            quarry::json::parse_tree(&bytes).map_or(0, |d| d.node_count())
        } else if serde_only {
            match shape.as_str() {
                "readings" => serde_len::<Reading>(&bytes, format),
                "wide" => serde_len::<Wide>(&bytes, format),
                _ => serde_len::<Person>(&bytes, format),
            }
        } else if check_only {
            usize::from(quarry::check(&bytes, format).is_ok())
        } else if raw_only {
            quarry::parse_raw(&bytes, format).map_or(0, |v| v.kind_name().len())
        } else if shape == "small" {
            quarry::from_slice::<SmallMessage>(&bytes, format).map_or(0, |m| m.text.len())
        } else if shape == "manifest" {
            quarry::from_slice::<quarry_benches::shapes::cargo_manifest::Manifest>(&bytes, format)
                .map_or(0, |m| m.dependencies.len())
        } else if shape == "lock" {
            quarry::from_slice::<quarry_benches::shapes::cargo_lock::CargoLock>(&bytes, format)
                .map_or(0, |l| l.package.len())
        } else if shape == "config" {
            quarry::from_slice::<quarry_corpus_gen::shapes::Config>(&bytes, format)
                .map_or(0, |c| c.limits.len())
        } else if shape == "wide" && matches!(format, Format::Xml | Format::Toml) {
            quarry::from_slice::<Records<Wide>>(&bytes, format).map_or(0, |r| r.records.len())
        } else if shape == "wide" {
            quarry::from_slice::<Vec<Wide>>(&bytes, format).map_or(0, |r| r.len())
        } else if shape == "articles" && matches!(format, Format::Xml | Format::Toml) {
            quarry::from_slice::<Records<Article>>(&bytes, format).map_or(0, |r| r.records.len())
        } else if shape == "articles" {
            quarry::from_slice::<Vec<Article>>(&bytes, format).map_or(0, |r| r.len())
        } else if shape == "readings" && matches!(format, Format::Xml | Format::Toml) {
            quarry::from_slice::<Records<Reading>>(&bytes, format).map_or(0, |r| r.records.len())
        } else if shape == "readings" {
            quarry::from_slice::<Vec<Reading>>(&bytes, format).map_or(0, |r| r.len())
        } else if shape == "ints" && matches!(format, Format::Xml | Format::Toml) {
            quarry::from_slice::<Records<i64>>(&bytes, format).map_or(0, |r| r.records.len())
        } else if shape == "ints" {
            quarry::from_slice::<Vec<i64>>(&bytes, format).map_or(0, |v| v.len())
        } else if matches!(format, Format::Xml | Format::Toml) {
            quarry::from_slice::<Records<Person>>(&bytes, format).map_or(0, |r| r.records.len())
        } else {
            quarry::from_slice::<Vec<Person>>(&bytes, format).map_or(0, |r| r.len())
        };
    }
    // Every decode answering 0 means each one failed (a shape that does not fit the
    // file), and the profile would be of the error path.
    assert!(
        sink > 0 || iterations == 0,
        "every decode failed: does the shape fit the file?"
    );
    println!("{sink}");
}

/// How many records a `Vec<T>` decoded through `T`'s serde derive holds (0 on an error).
fn serde_len<T: serde::de::DeserializeOwned>(bytes: &[u8], format: Format) -> usize {
    quarry::from_slice::<quarry::Serde<Vec<T>>>(bytes, format).map_or(0, |v| v.0.len())
}
