//! The benchmark contests: each job (struct decode, tree, encode) on each input, done by
//! quarry and by every peer library. `bench-report` and the criterion benches run the same
//! contests, so their figures describe the same work.

use std::hint::black_box;

use quarry::{Decode, Encode, Format, RawValue};
use quarry_corpus_gen::shapes::{Article, Config, Person, Reading, SmallMessage, Wide};
use quarry_corpus_gen::Shape;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::shapes::{citm::Catalog, twitter::Twitter};

/// One library doing one job on one input.
pub struct Arm {
    /// The library.
    pub library: &'static str,
    /// One run of the job; returns something for `black_box`.
    pub run: Box<dyn Fn() -> usize>,
}

/// The libraries competing at one job on one input; the first is quarry.
pub struct Contest {
    /// The format (`json`, `toml`, ...).
    pub format: &'static str,
    /// The input's name.
    pub input: String,
    /// The job: `struct decode`, `tree` or `encode`.
    pub arm: &'static str,
    /// Bytes each run processes (input size; encoded size for encode).
    pub bytes: usize,
    /// quarry first, then its peers.
    pub arms: Vec<Arm>,
}

fn arm(library: &'static str, run: impl Fn() -> usize + 'static) -> Arm {
    Arm {
        library,
        run: Box::new(run),
    }
}

/// What every typed shape supports: quarry's traits and serde's.
pub trait Typed: for<'de> Decode<'de> + DeserializeOwned + Encode + Serialize + 'static {}
impl<T: for<'de> Decode<'de> + DeserializeOwned + Encode + Serialize + 'static> Typed for T {}

type Decoder = Box<dyn Fn(&[u8]) -> usize>;
/// A decoder that two contests share (struct decode and serde decode).
type SharedDecoder = std::rc::Rc<dyn Fn(&[u8]) -> usize>;
type Writer<T> = Box<dyn Fn(&T) -> usize>;

/// One library's way to decode an input into `T` and to encode a `T` (either may be
/// missing: simd-json has no encoder here), and whether it decodes through serde.
struct Library<T> {
    name: &'static str,
    decode: Option<SharedDecoder>,
    encode: Option<Writer<T>>,
    serde: bool,
}

fn library<T>(
    name: &'static str,
    decode: impl Fn(&[u8]) -> usize + 'static,
    encode: impl Fn(&T) -> usize + 'static,
) -> Library<T> {
    Library {
        name,
        decode: Some(std::rc::Rc::new(decode)),
        encode: Some(Box::new(encode)),
        serde: true,
    }
}

/// A peer that decodes with a derive of its own, not serde's: not in the serde contest.
fn own_derive<T>(name: &'static str, decode: impl Fn(&[u8]) -> usize + 'static) -> Library<T> {
    Library {
        name,
        decode: Some(std::rc::Rc::new(decode)),
        encode: None,
        serde: false,
    }
}

/// The length of an encoding, for `black_box` (0 when it failed).
fn len<B: AsRef<[u8]>>(encoded: Result<B, impl std::fmt::Debug>) -> usize {
    encoded.map_or(0, |b| b.as_ref().len())
}

/// Struct decode of `input` and encode of its value by each library, quarry first.
fn typed<T: Typed>(
    format: &'static str,
    quarry_format: Format,
    input: &str,
    bytes: &[u8],
    libraries: Vec<Library<T>>,
    contests: &mut Vec<Contest>,
) {
    let b = std::rc::Rc::new(bytes.to_vec());
    let value = std::rc::Rc::new(decoded::<T>(input, bytes, quarry_format));
    let mut decode = Vec::new();
    let mut encode = Vec::new();
    // The same serde peers against quarry reading the same `T` through `quarry::Serde`.
    let mut serde_decode = Vec::new();
    {
        let b = b.clone();
        serde_decode.push(arm("quarry", move || {
            size(quarry::from_slice::<quarry::Serde<T>>(
                black_box(&b),
                quarry_format,
            ))
        }));
    }
    for (i, library) in libraries.into_iter().enumerate() {
        let Library {
            name,
            decode: decoder,
            encode: encoder,
            serde,
        } = library;
        if let Some(decoder) = decoder {
            if serde && i > 0 {
                let b = b.clone();
                let decoder = decoder.clone();
                serde_decode.push(arm(name, move || decoder(black_box(&b))));
            }
            let b = b.clone();
            decode.push(arm(name, move || decoder(black_box(&b))));
        }
        if let Some(encoder) = encoder {
            let v = value.clone();
            encode.push(arm(name, move || encoder(black_box(&*v))));
        }
    }
    // MB/s of encode count the bytes quarry writes.
    let encoded = encode.first().map_or(0, |quarry| (quarry.run)());
    for (job, arms, bytes) in [
        ("struct decode", decode, bytes.len()),
        ("serde decode", serde_decode, bytes.len()),
        ("encode", encode, encoded),
    ] {
        if arms.len() < 2 {
            continue;
        }
        contests.push(Contest {
            format,
            input: input.to_owned(),
            arm: job,
            bytes,
            arms,
        });
    }
}

/// One job on `input` by each library, quarry first (tree parse, event throughput).
fn job(
    format: &'static str,
    job: &'static str,
    input: &str,
    bytes: &[u8],
    libraries: Vec<(&'static str, Decoder)>,
    contests: &mut Vec<Contest>,
) {
    let b = std::rc::Rc::new(bytes.to_vec());
    let arms = libraries
        .into_iter()
        .map(|(name, run)| {
            let b = b.clone();
            arm(name, move || run(black_box(&b)))
        })
        .collect();
    contests.push(Contest {
        format,
        input: input.to_owned(),
        arm: job,
        bytes: bytes.len(),
        arms,
    });
}

/// Runs `$body` with `$t` the Rust type of a generated shape, batches as `$batch<_>`.
macro_rules! with_shape {
    ($shape:expr, $batch:ident, $t:ident => $body:expr) => {
        match $shape {
            Shape::SmallMessage => {
                type $t = SmallMessage;
                $body
            }
            Shape::PersonBatch => {
                type $t = $batch<Person>;
                $body
            }
            Shape::EscapedArticles => {
                type $t = $batch<Article>;
                $body
            }
            Shape::Telemetry => {
                type $t = $batch<Reading>;
                $body
            }
            Shape::WideRecord => {
                type $t = $batch<Wide>;
                $body
            }
            Shape::IntList => {
                type $t = $batch<i64>;
                $body
            }
            Shape::Config => {
                type $t = Config;
                $body
            }
        }
    };
}

/// Every contest, in a fixed order, with the peers that cannot do the job on that input
/// left out (see [`without_failing_peers`]).
pub fn contests() -> Vec<Contest> {
    without_failing_peers(all_contests()).0
}

/// Builds the contests of one format.
pub type BuildGroup = fn() -> Vec<Contest>;

/// Every contest, every peer included.
pub fn all_contests() -> Vec<Contest> {
    groups()
        .into_iter()
        .flat_map(|(_, build)| build())
        .collect()
}

/// The contests format by format (XML and binary plists apart): a
/// benchmark run can build, measure and drop one group at a time, so no format's inputs
/// and decoded values crowd the heap while another is measured.
pub fn groups() -> Vec<(&'static str, BuildGroup)> {
    vec![
        ("json", json_contests),
        ("yaml", yaml_contests),
        ("toml", toml_contests),
        ("xml", xml_contests),
        ("plist", plist_contests),
        ("bplist", bplist_contests),
        ("config", config_contests),
        ("edit", edit_contests),
        ("arrow", arrow_contests),
    ]
}

/// Runs every arm once: a peer whose run fails (returns 0: it rejects the input, say an
/// ISO-8859-1 XML file or a `None` field its serializer refuses) is left out of that
/// contest, and a contest left without peers is dropped. Returns the contests and a note
/// per dropped peer, for RESULTS.md. quarry itself must succeed everywhere.
pub fn without_failing_peers(contests: Vec<Contest>) -> (Vec<Contest>, Vec<String>) {
    let mut notes = Vec::new();
    let mut kept = Vec::new();
    for mut contest in contests {
        let label = format!("{} {} {}", contest.format, contest.input, contest.arm);
        let mut arms = contest.arms.into_iter();
        let Some(quarry) = arms.next() else { continue };
        if (quarry.run)() == 0 {
            notes.push(format!("{label}: quarry cannot do it (not measured)"));
            continue;
        }
        let peers: Vec<Arm> = arms
            .filter(|peer| {
                let ok = (peer.run)() != 0;
                if !ok {
                    notes.push(format!("{label}: {} fails on this input", peer.library));
                }
                ok
            })
            .collect();
        if peers.is_empty() {
            continue;
        }
        contest.arms = std::iter::once(quarry).chain(peers).collect();
        kept.push(contest);
    }
    (kept, notes)
}

/// The size of a decoded value, for `black_box`.
fn size<T>(value: Result<T, impl std::fmt::Debug>) -> usize {
    value.map(|v| std::mem::size_of_val(&v)).unwrap_or(0)
}

/// `input` as `&str`, for the peers that read only text (the UTF-8 check quarry does
/// itself is then part of their time).
fn text(input: &[u8]) -> &str {
    std::str::from_utf8(input).unwrap_or_default()
}

/// Decodes `T` with quarry from every rendering, or fails loudly: a contest must never
/// time an error path.
fn decoded<T: for<'de> Decode<'de>>(input: &str, bytes: &[u8], format: Format) -> T {
    match quarry::from_slice(bytes, format) {
        Ok(v) => v,
        Err(e) => panic!("{format} {input}: {e}"),
    }
}

/// JSON struct decode and encode against serde_json, sonic-rs and simd-json (which
/// parses in place: the copy it needs is part of its time).
fn json_typed<T: Typed>(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let libraries = vec![
        library(
            "quarry",
            |b| size(quarry::from_slice::<T>(b, Format::Json)),
            |v: &T| len(quarry::json::to_vec(v)),
        ),
        library(
            "serde_json",
            |b| size(serde_json::from_slice::<T>(b)),
            |v: &T| len(serde_json::to_vec(v)),
        ),
        library(
            "sonic-rs",
            |b| size(sonic_rs::from_slice::<T>(b)),
            |v: &T| len(sonic_rs::to_vec(v)),
        ),
        Library {
            name: "simd-json",
            decode: Some(std::rc::Rc::new(|b: &[u8]| {
                let mut copy = b.to_vec();
                size(simd_json::serde::from_slice::<T>(&mut copy))
            })),
            encode: None,
            serde: true,
        },
    ];
    typed("json", Format::Json, input, bytes, libraries, contests);
}

/// JSON tree parse against each library's dynamic value.
fn json_tree(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let libraries: Vec<(&'static str, Decoder)> = vec![
        (
            "quarry",
            Box::new(|b| quarry::json::parse_tree(b).map_or(0, |d| d.node_count())),
        ),
        (
            "serde_json",
            Box::new(|b| size(serde_json::from_slice::<serde_json::Value>(b))),
        ),
        (
            "sonic-rs",
            Box::new(|b| size(sonic_rs::from_slice::<sonic_rs::Value>(b))),
        ),
        (
            "simd-json",
            Box::new(|b| {
                let mut copy = b.to_vec();
                size(simd_json::to_borrowed_value(&mut copy))
            }),
        ),
    ];
    job("json", "tree", input, bytes, libraries, contests);
}

/// The JSON contests: generated shapes and the real files.
fn json_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::json_corpus() {
        with_shape!(doc.shape, Vec, T => json_typed::<T>(doc.name, &doc.bytes, &mut contests));
        json_tree(doc.name, &doc.bytes, &mut contests);
    }
    for (name, bytes) in crate::corpus_files("json") {
        match name.as_str() {
            "twitter.json" => json_typed::<Twitter>(&name, &bytes, &mut contests),
            "citm_catalog.json" => json_typed::<Catalog>(&name, &bytes, &mut contests),
            _ => {}
        }
        json_tree(&name, &bytes, &mut contests);
    }
    contests
}

/// TOML struct decode and encode against the `toml` crate (serde). Encoding leaves
/// `None` fields out, as the toml crate does.
fn toml_typed<T: Typed>(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    toml_typed_against::<T>(input, bytes, Vec::new(), contests);
}

/// [`toml_typed`], and toml-spanner's derive (`doc.to::<T>()` over its arena tree) for the
/// shapes that derive it.
fn toml_typed_with_spanner<T>(input: &str, bytes: &[u8], contests: &mut Vec<Contest>)
where
    T: Typed + for<'a> toml_spanner::FromToml<'a>,
{
    let spanner = own_derive("toml-spanner", |b| {
        let arena = toml_spanner::Arena::new();
        let Ok(mut doc) = toml_spanner::parse(text(b), &arena) else {
            return 0;
        };
        size(doc.to::<T>())
    });
    toml_typed_against::<T>(input, bytes, vec![spanner], contests);
}

fn toml_typed_against<T: Typed>(
    input: &str,
    bytes: &[u8],
    more: Vec<Library<T>>,
    contests: &mut Vec<Contest>,
) {
    let skip = quarry::encode::NullEntries::Skip;
    let mut libraries = vec![
        library(
            "quarry",
            |b| size(quarry::from_slice::<T>(b, Format::Toml)),
            move |v: &T| len(quarry::toml::to_vec_with_nulls(v, skip)),
        ),
        library(
            "toml",
            |b| size(::toml::from_str::<T>(text(b))),
            |v: &T| len(::toml::to_string(v)),
        ),
    ];
    libraries.extend(more);
    typed("toml", Format::Toml, input, bytes, libraries, contests);
}

/// TOML tree parse against `toml_edit::DocumentMut` (the format-preserving tree),
/// `toml::Table` and toml-spanner's arena tree (`toml_spanner::parse`).
fn toml_tree(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let libraries: Vec<(&'static str, Decoder)> = vec![
        (
            "quarry",
            Box::new(|b| quarry::toml::parse_tree(b).map_or(0, |d| d.node_count())),
        ),
        (
            "toml_edit",
            Box::new(|b| size(text(b).parse::<toml_edit::DocumentMut>())),
        ),
        ("toml", Box::new(|b| size(text(b).parse::<::toml::Table>()))),
        (
            "toml-spanner",
            Box::new(|b| {
                let arena = toml_spanner::Arena::new();
                toml_spanner::parse(text(b), &arena).map_or(0, |doc| doc.table().len().max(1))
            }),
        ),
    ];
    job("toml", "tree", input, bytes, libraries, contests);
}

/// The TOML contests: generated shapes (batches as arrays of tables) and the real files.
fn toml_contests() -> Vec<Contest> {
    use quarry_corpus_gen::shapes::Records;
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::toml_corpus() {
        with_shape!(doc.shape, Records, T => toml_typed_with_spanner::<T>(doc.name, &doc.bytes, &mut contests));
        toml_tree(doc.name, &doc.bytes, &mut contests);
    }
    for (name, bytes) in crate::corpus_files("toml") {
        let c = &mut contests;
        if name.ends_with("Cargo.lock") {
            toml_typed::<crate::shapes::cargo_lock::CargoLock>(&name, &bytes, c);
        } else if name.ends_with("uv.lock") {
            toml_typed::<crate::shapes::uv_lock::UvLock>(&name, &bytes, c);
        } else if name.ends_with("Cargo.toml") {
            toml_typed::<crate::shapes::cargo_manifest::Manifest>(&name, &bytes, c);
        }
        toml_tree(&name, &bytes, c);
    }
    contests
}

/// YAML struct decode and encode against serde_yaml (archived) and serde-saphyr (its
/// maintained successor).
fn yaml_typed<T: Typed>(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let libraries = vec![
        library(
            "quarry",
            |b| size(quarry::from_slice::<T>(b, Format::Yaml)),
            |v: &T| len(quarry::yaml::to_vec(v)),
        ),
        library(
            "serde_yaml",
            |b| size(serde_yaml::from_slice::<T>(b)),
            |v: &T| len(serde_yaml::to_string(v)),
        ),
        library(
            "serde-saphyr",
            |b| size(serde_saphyr::from_slice::<T>(b)),
            |v: &T| len(serde_saphyr::to_string(v)),
        ),
    ];
    typed("yaml", Format::Yaml, input, bytes, libraries, contests);
}

/// YAML tree parse against saphyr's `Yaml` and `serde_yaml::Value` (every document of a
/// stream).
fn yaml_tree(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    use saphyr::LoadableYamlNode;
    let libraries: Vec<(&'static str, Decoder)> = vec![
        (
            "quarry",
            Box::new(|b| quarry::yaml::parse_tree(b).map_or(0, |s| s.node_count())),
        ),
        (
            "saphyr",
            Box::new(|b| saphyr::Yaml::load_from_str(text(b)).map_or(0, |d| d.len())),
        ),
        (
            "serde_yaml",
            Box::new(|b| {
                serde_yaml::Deserializer::from_slice(b)
                    .map(|doc| size(<serde_yaml::Value as serde::Deserialize>::deserialize(doc)))
                    .sum()
            }),
        ),
    ];
    job("yaml", "tree", input, bytes, libraries, contests);
}

/// The YAML contests: generated shapes and the real files.
fn yaml_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::yaml_corpus() {
        with_shape!(doc.shape, Vec, T => yaml_typed::<T>(doc.name, &doc.bytes, &mut contests));
        yaml_tree(doc.name, &doc.bytes, &mut contests);
    }
    for (name, bytes) in crate::corpus_files("yaml") {
        yaml_tree(&name, &bytes, &mut contests);
    }
    contests
}

/// XML struct decode and encode (under the root element `root`) against quick-xml's
/// serde support.
fn xml_typed<T: Typed>(input: &str, root: &'static str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let libraries = vec![
        library(
            "quarry",
            |b| size(quarry::from_slice::<T>(b, Format::Xml)),
            move |v: &T| len(quarry::xml::to_vec_with_root(v, root)),
        ),
        library(
            "quick-xml",
            |b| size(quick_xml::de::from_str::<T>(text(b))),
            move |v: &T| len(quick_xml::se::to_string_with_root(root, v)),
        ),
    ];
    typed("xml", Format::Xml, input, bytes, libraries, contests);
}

/// quick-xml's event loop over `input`, counting events (and, with `attributes`, reading
/// every attribute as well).
fn quick_xml_events(input: &str, attributes: bool) -> usize {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(input);
    let mut count = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Eof) | Err(_) => return count,
            Ok(Event::Start(e) | Event::Empty(e)) if attributes => {
                count += e.attributes().filter(Result::is_ok).count() + 1;
            }
            Ok(_) => count += 1,
        }
    }
}

/// XML tree parse against roxmltree (DTDs allowed, as quarry allows them), and raw event
/// throughput — quarry's parser with the no-op builder, every well-formedness check on —
/// against quick-xml's event loop, bare and reading every attribute.
fn xml_tree_and_events(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let tree: Vec<(&'static str, Decoder)> = vec![
        (
            "quarry",
            Box::new(|b| quarry::xml::parse_tree(b).map_or(0, |d| d.node_count())),
        ),
        (
            "roxmltree",
            Box::new(|b| {
                let options = roxmltree::ParsingOptions {
                    allow_dtd: true,
                    ..Default::default()
                };
                roxmltree::Document::parse_with_options(text(b), options)
                    .map_or(0, |d| d.descendants().len())
            }),
        ),
    ];
    job("xml", "tree", input, bytes, tree, contests);
    let events: Vec<(&'static str, Decoder)> = vec![
        (
            "quarry",
            Box::new(|b| quarry::xml::check(b).is_ok() as usize),
        ),
        ("quick-xml", Box::new(|b| quick_xml_events(text(b), false))),
        (
            "quick-xml+attrs",
            Box::new(|b| quick_xml_events(text(b), true)),
        ),
    ];
    job("xml", "events", input, bytes, events, contests);
}

/// The XML contests: generated shapes (batches as `<batch>` of `<records>`) and the real
/// files.
fn xml_contests() -> Vec<Contest> {
    use quarry_corpus_gen::shapes::Records;
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::xml_corpus() {
        let root = match doc.shape {
            Shape::SmallMessage => "message",
            Shape::Config => "config",
            _ => "batch",
        };
        with_shape!(doc.shape, Records, T => xml_typed::<T>(doc.name, root, &doc.bytes, &mut contests));
        xml_tree_and_events(doc.name, &doc.bytes, &mut contests);
    }
    for (name, bytes) in crate::corpus_files("xml") {
        xml_tree_and_events(&name, &bytes, &mut contests);
    }
    contests
}

/// Plist struct decode and encode (XML or binary) against the plist crate. Encoding
/// leaves `None` fields out; the plist crate refuses them (those contests say so).
fn plist_typed<T: Typed>(input: &str, binary: bool, bytes: &[u8], contests: &mut Vec<Contest>) {
    use quarry::encode::NullEntries;
    use quarry::plist::PlistFormat;
    let form = if binary {
        PlistFormat::Binary
    } else {
        PlistFormat::Xml
    };
    let libraries = vec![
        library(
            "quarry",
            |b| size(quarry::from_slice::<T>(b, Format::Plist)),
            move |v: &T| len(quarry::plist::to_vec_with_nulls(v, form, NullEntries::Skip)),
        ),
        library(
            "plist",
            |b| size(plist::from_bytes::<T>(b)),
            move |v: &T| {
                let mut out = Vec::new();
                let written = if binary {
                    plist::to_writer_binary(&mut out, v)
                } else {
                    plist::to_writer_xml(&mut out, v)
                };
                written.map_or(0, |()| out.len())
            },
        ),
    ];
    let format = if binary { "bplist" } else { "plist" };
    typed(format, Format::Plist, input, bytes, libraries, contests);
}

/// Plist tree parse against `plist::Value`.
fn plist_tree(input: &str, binary: bool, bytes: &[u8], contests: &mut Vec<Contest>) {
    let libraries: Vec<(&'static str, Decoder)> = vec![
        (
            "quarry",
            Box::new(|b| quarry::plist::parse_tree(b).map_or(0, |d| d.node_count())),
        ),
        (
            "plist",
            Box::new(|b| size(plist::Value::from_reader(std::io::Cursor::new(b)))),
        ),
    ];
    let format = if binary { "bplist" } else { "plist" };
    job(format, "tree", input, bytes, libraries, contests);
}

/// The XML plist contests: generated shapes and the real files (OpenStep text has no
/// peer: the plist crate cannot write it, and reads it only through a separate entry
/// point).
fn plist_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::plist_xml_corpus() {
        with_shape!(doc.shape, Vec, T => plist_typed::<T>(doc.name, false, &doc.bytes, &mut contests));
        plist_tree(doc.name, false, &doc.bytes, &mut contests);
    }
    for (name, bytes) in crate::corpus_files("plist") {
        let binary = bytes.starts_with(b"bplist");
        if quarry::plist::detect(&bytes) != quarry::plist::PlistFormat::OpenStep {
            plist_tree(&name, binary, &bytes, &mut contests);
        }
    }
    contests
}

/// The binary plist contests: generated shapes.
fn bplist_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::plist_binary_corpus() {
        with_shape!(doc.shape, Vec, T => plist_typed::<T>(doc.name, true, &doc.bytes, &mut contests));
        plist_tree(doc.name, true, &doc.bytes, &mut contests);
    }
    contests
}

/// The layer over the corpus's TOML config in the config contest.
pub const CONFIG_OVERRIDES: &str =
    "http:\n  port: 8081\n  workers: 24\nlogging:\n  level: info\n  targets:\n    sqlx: warn\n";

/// The `conf.d` folder of the config contest's fourth arm: five small files, each giving
/// one value over the layers before it.
const CONFIG_DIR: [(&str, &str); 5] = [
    ("10-service.toml", "[service]\nregion = \"eu-west-3\"\n"),
    ("20-logging.yaml", "logging:\n  targets:\n    hyper: info\n"),
    ("30-features.json", r#"{"features": {"conf_d": true}}"#),
    ("40-http.toml", "[http]\nread_timeout_ms = 1500\n"),
    ("50-database.yaml", "database:\n  pool_min: 3\n"),
];

/// Sets the environment variables the config contest's arms read: three for each
/// library under its own prefix and convention, and five list items for quarry's
/// fourth arm.
pub fn set_config_variables() {
    for (name, value) in [
        ("QAPP_HTTP_PORT", "9000"),
        ("QAPP_DATABASE_POOL_MAX", "99"),
        ("QAPP_LOGGING_LEVEL", "debug"),
        ("FAPP_HTTP__PORT", "9000"),
        ("FAPP_DATABASE__POOL_MAX", "99"),
        ("FAPP_LOGGING__LEVEL", "debug"),
        ("CAPP_HTTP__PORT", "9000"),
        ("CAPP_DATABASE__POOL_MAX", "99"),
        ("CAPP_LOGGING__LEVEL", "debug"),
        ("DAPP_HTTP_PORT", "9000"),
        ("DAPP_DATABASE_POOL_MAX", "99"),
        ("DAPP_LOGGING_LEVEL", "debug"),
        ("DAPP_HTTP_ALLOWED_ORIGINS_0", "https://a.example"),
        ("DAPP_HTTP_ALLOWED_ORIGINS_1", "https://b.example"),
        ("DAPP_HTTP_ALLOWED_ORIGINS_2", "https://c.example"),
        ("DAPP_HTTP_ALLOWED_ORIGINS_3", "https://d.example"),
        ("DAPP_HTTP_ALLOWED_ORIGINS_4", "https://e.example"),
    ] {
        std::env::set_var(name, value);
    }
}

/// Layered configuration: the corpus's `config` document as TOML, a YAML file over it,
/// then three environment variables (one of them a field with an underscore), into the
/// corpus's `Config` struct, by `quarry::Config`, figment and config-rs. Each library
/// reads the variables in its own convention (figment and config-rs cannot tell
/// `pool_max` from `pool.max`, so their variables separate levels with `__`), under a
/// prefix of its own. A fourth arm, quarry's alone (neither peer reads a folder of
/// layers or addresses a list item from the environment), does the same and also reads
/// a `conf.d` folder of five files and five list items from variables
/// (`DAPP_HTTP_ALLOWED_ORIGINS_0` to `_4`).
fn config_contests() -> Vec<Contest> {
    let Some(base) = quarry_corpus_gen::toml_corpus()
        .into_iter()
        .find(|doc| doc.shape == Shape::Config)
    else {
        return Vec::new();
    };
    let base = String::from_utf8(base.bytes).unwrap_or_default();
    set_config_variables();
    // One folder, rewritten by every run (the group's processes run one after another).
    let conf_d = std::env::temp_dir().join("quarry-bench-conf.d");
    let wrote_conf_d = std::fs::create_dir_all(&conf_d).is_ok()
        && CONFIG_DIR
            .iter()
            .all(|(name, text)| std::fs::write(conf_d.join(name), text).is_ok());
    let bytes = base.len() + CONFIG_OVERRIDES.len();
    let checked = |config: Option<Config>| {
        config.map_or(0, |c| {
            // Every layer must have landed: a library that read one wrongly fails the contest.
            usize::from(
                c.http.port == 9000
                    && c.database.pool_max == 99
                    && c.http.workers == 24
                    && c.logging.level == "debug"
                    && c.logging.targets.get("sqlx").map(String::as_str) == Some("warn"),
            )
        })
    };
    let checked_conf_d = move |config: Option<Config>| {
        config.map_or(0, |c| {
            let origins = (0..5)
                .map(|i| format!("https://{}.example", char::from(b'a' + i)))
                .collect::<Vec<_>>();
            let landed = c.http.allowed_origins.get(..5) == Some(&origins[..])
                && c.service.region == "eu-west-3"
                && c.logging.targets.get("hyper").map(String::as_str) == Some("info")
                && c.features.get("conf_d") == Some(&true)
                && c.http.read_timeout_ms == 1500
                && c.database.pool_min == 3;
            usize::from(landed) * checked(Some(c))
        })
    };
    let quarry_base = base.clone();
    let dir_base = base.clone();
    let figment_base = base.clone();
    let config_base = base;
    vec![Contest {
        format: "config",
        input: "toml + yaml + env".into(),
        arm: "layered load",
        bytes,
        arms: vec![
            arm("quarry", move || checked(config_by_quarry(&quarry_base))),
            arm("quarry + conf.d + lists", move || {
                if !wrote_conf_d {
                    return 0;
                }
                checked_conf_d(
                    quarry::Config::new()
                        .text("base.toml", &dir_base, Format::Toml)
                        .text("local.yaml", CONFIG_OVERRIDES, Format::Yaml)
                        .dir(&conf_d)
                        .env("DAPP")
                        .load()
                        .ok(),
                )
            }),
            arm("figment", move || checked(config_by_figment(&figment_base))),
            arm("config-rs", move || {
                checked(config_by_config_rs(&config_base))
            }),
        ],
    }]
}

/// The config contest's load by quarry: `base` as TOML, [`CONFIG_OVERRIDES`] as YAML,
/// then the variables under `QAPP`.
pub fn config_by_quarry(base: &str) -> Option<Config> {
    quarry::Config::new()
        .text("base.toml", base, Format::Toml)
        .text("local.yaml", CONFIG_OVERRIDES, Format::Yaml)
        .env("QAPP")
        .load()
        .ok()
}

/// [`config_by_quarry`]'s load by figment, with the variables under `FAPP_`.
pub fn config_by_figment(base: &str) -> Option<Config> {
    use figment::providers::{Env, Format as _, Toml, Yaml};
    figment::Figment::new()
        .merge(Toml::string(base))
        .merge(Yaml::string(CONFIG_OVERRIDES))
        .merge(Env::prefixed("FAPP_").split("__"))
        .extract()
        .ok()
}

/// [`config_by_quarry`]'s load by config-rs, with the variables under `CAPP`.
pub fn config_by_config_rs(base: &str) -> Option<Config> {
    use config::{Environment, File, FileFormat};
    config::Config::builder()
        .add_source(File::from_str(base, FileFormat::Toml))
        .add_source(File::from_str(CONFIG_OVERRIDES, FileFormat::Yaml))
        .add_source(
            Environment::with_prefix("CAPP")
                .prefix_separator("_")
                .separator("__"),
        )
        .build()
        .and_then(config::Config::try_deserialize)
        .ok()
}

/// A path to one scalar of a TOML document to set: the first root scalar, or the first
/// scalar of the first table that has one.
fn toml_edit_path(bytes: &[u8]) -> Option<Vec<String>> {
    use quarry::toml::NodeKind;
    use quarry::TreeNode;
    let doc = quarry::toml::parse_tree(bytes).ok()?;
    let scalar = |kind: NodeKind| {
        !matches!(
            kind,
            NodeKind::Array | NodeKind::Table(_) | NodeKind::ArrayOfTables
        )
    };
    for (key, value) in doc.root().entries() {
        if scalar(value.kind()) {
            return Some(vec![key.name.to_owned()]);
        }
        if value.is_table() {
            for (inner, v) in value.entries() {
                if scalar(v.kind()) {
                    return Some(vec![key.name.to_owned(), inner.name.to_owned()]);
                }
            }
        }
    }
    None
}

/// Edit in place: parse a file, set one value, write the document back, by `quarry::edit`
/// and by toml_edit's `DocumentMut` (every TOML file of the corpus) or yaml-edit's
/// `Document` (every YAML file whose root is a mapping with a plain scalar key).
fn edit_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    yaml_edit_contests(&mut contests);
    for (name, bytes) in crate::corpus_files("toml") {
        let Some(path) = toml_edit_path(&bytes) else {
            continue;
        };
        let dotted = path
            .iter()
            .map(|k| quarry::toml::key_text(k))
            .collect::<Vec<_>>()
            .join(".");
        let quarry_bytes = bytes.clone();
        let edit_bytes = bytes.clone();
        contests.push(Contest {
            format: "toml",
            input: name,
            arm: "parse + set + write",
            bytes: bytes.len(),
            arms: vec![
                arm("quarry", move || {
                    let Ok(mut doc) = quarry::edit::Document::parse(&quarry_bytes, Format::Toml)
                    else {
                        return 0;
                    };
                    if doc.set(&dotted, "edited").is_err() {
                        return 0;
                    }
                    let out = doc.to_vec();
                    usize::from(memchr_edited(&out)) * out.len()
                }),
                arm("toml_edit", move || {
                    let Ok(mut doc) = text(&edit_bytes).parse::<toml_edit::DocumentMut>() else {
                        return 0;
                    };
                    let mut item = doc.as_item_mut();
                    for key in &path {
                        item = &mut item[key.as_str()];
                    }
                    *item = toml_edit::value("edited");
                    let out = doc.to_string();
                    usize::from(memchr_edited(out.as_bytes())) * out.len()
                }),
            ],
        });
    }
    contests
}

/// The first top-level key of a YAML document whose value is a scalar, when the document
/// is a mapping and the key is plain (letters, digits, `_`, `-`).
fn yaml_edit_key(bytes: &[u8]) -> Option<String> {
    let RawValue::Map(entries) = quarry::yaml::parse(bytes).ok()? else {
        return None;
    };
    entries.into_iter().find_map(|(key, value)| {
        let scalar = matches!(
            value,
            RawValue::String(_) | RawValue::Int(_) | RawValue::Bool(_) | RawValue::Float(_)
        );
        let plain = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        (scalar && plain).then(|| key.into_owned())
    })
}

/// Parse a YAML file, set one scalar (the first top-level one), write it back:
/// `quarry::edit::Document` against yaml-edit's lossless `Document`.
fn yaml_edit_contests(contests: &mut Vec<Contest>) {
    for (name, bytes) in crate::corpus_files("yaml") {
        let Some(key) = yaml_edit_key(&bytes) else {
            continue;
        };
        let quarry_bytes = bytes.clone();
        let peer_bytes = bytes.clone();
        let peer_key = key.clone();
        contests.push(Contest {
            format: "yaml",
            input: name,
            arm: "parse + set + write",
            bytes: bytes.len(),
            arms: vec![
                arm("quarry", move || {
                    let Ok(mut doc) = quarry::edit::Document::parse(&quarry_bytes, Format::Yaml)
                    else {
                        return 0;
                    };
                    if doc.set(&key, "edited").is_err() {
                        return 0;
                    }
                    let out = doc.to_vec();
                    usize::from(contains_edited(&out)) * out.len()
                }),
                arm("yaml-edit", move || {
                    use std::str::FromStr as _;
                    let Ok(doc) = yaml_edit::Document::from_str(text(&peer_bytes)) else {
                        return 0;
                    };
                    let Some(mapping) = doc.as_mapping() else {
                        return 0;
                    };
                    mapping.set(peer_key.as_str(), "edited");
                    let out = doc.to_string();
                    usize::from(contains_edited(out.as_bytes())) * out.len()
                }),
            ],
        });
    }
}

/// True when `edited` is in the output, quoted or not.
fn contains_edited(out: &[u8]) -> bool {
    out.windows(6).any(|w| w == b"edited")
}

/// True when the edited value is in the output (in either kind of quotes: quarry keeps a
/// literal string literal).
fn memchr_edited(out: &[u8]) -> bool {
    out.windows(8)
        .any(|w| w == b"\"edited\"" || w == b"'edited'")
}

/// JSON Lines of the records of a JSON document that is an array of objects.
fn json_lines_of(bytes: &[u8]) -> Option<Vec<u8>> {
    let RawValue::Seq(items) = quarry::json::parse(bytes).ok()? else {
        return None;
    };
    let mut lines = Vec::with_capacity(bytes.len());
    for item in &items {
        if !matches!(item, RawValue::Map(_)) {
            return None;
        }
        lines.extend(quarry::json::to_vec(item).ok()?);
        lines.push(b'\n');
    }
    Some(lines)
}

/// JSON Lines into Arrow record batches (8,192 rows each), quarry-arrow against
/// arrow-json's reader, on the schema arrow-json infers for the file.
fn arrow_contests() -> Vec<Contest> {
    let mut inputs: Vec<(String, Vec<u8>)> = quarry_corpus_gen::json_corpus()
        .into_iter()
        .filter(|doc| doc.shape.is_batch())
        .filter_map(|doc| Some((format!("{}.jsonl", doc.name), json_lines_of(&doc.bytes)?)))
        .collect();
    inputs.extend(
        crate::corpus_files("json")
            .into_iter()
            .filter_map(|(name, bytes)| Some((format!("{name}l"), json_lines_of(&bytes)?))),
    );
    let mut contests = Vec::new();
    for (name, lines) in inputs {
        let Ok((schema, _)) =
            arrow_json::reader::infer_json_schema(std::io::Cursor::new(&lines), None)
        else {
            continue;
        };
        let schema = std::sync::Arc::new(schema);
        let lines = std::rc::Rc::new(lines);
        let (quarry_lines, quarry_schema) = (lines.clone(), schema.clone());
        let (arrow_lines, arrow_schema) = (lines.clone(), schema);
        contests.push(Contest {
            format: "arrow",
            input: name,
            arm: "JSON Lines to record batches",
            bytes: lines.len(),
            arms: vec![
                arm("quarry-arrow", move || {
                    let options = quarry_arrow::Options::default().batch_size(8192);
                    quarry_arrow::read(
                        &quarry_lines,
                        quarry_arrow::RecordFormat::JsonLines,
                        quarry_schema.clone(),
                        &options,
                    )
                    .map_or(0, |batches| batches.iter().map(|b| b.num_rows()).sum())
                }),
                arm("arrow-json", move || {
                    let Ok(reader) = arrow_json::ReaderBuilder::new(arrow_schema.clone())
                        .with_batch_size(8192)
                        .build(std::io::Cursor::new(&arrow_lines[..]))
                    else {
                        return 0;
                    };
                    reader.map(|batch| batch.map_or(0, |b| b.num_rows())).sum()
                }),
            ],
        });
    }
    contests
}
