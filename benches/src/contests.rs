//! The benchmark contests: each job (struct decode, tree, encode) on each input, done by
//! quarry and by every peer library. `bench-report` and the criterion benches run the same
//! contests, so their figures describe the same work.

use std::hint::black_box;

use quarry::{Decode, Encode, Format};
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

/// Struct decode and encode of `T` against serde_json, sonic-rs and simd-json.
fn typed_contests<T>(input: &str, bytes: &[u8], contests: &mut Vec<Contest>)
where
    T: for<'de> Decode<'de> + DeserializeOwned + Encode + Serialize + 'static,
{
    let b = bytes.to_vec();
    let decode = vec![
        arm("quarry", {
            let b = b.clone();
            move || {
                quarry::from_slice::<T>(black_box(&b), Format::Json)
                    .map(|v| std::mem::size_of_val(&v))
                    .unwrap_or(0)
            }
        }),
        arm("serde_json", {
            let b = b.clone();
            move || {
                serde_json::from_slice::<T>(black_box(&b))
                    .map(|v| std::mem::size_of_val(&v))
                    .unwrap_or(0)
            }
        }),
        arm("sonic-rs", {
            let b = b.clone();
            move || {
                sonic_rs::from_slice::<T>(black_box(&b))
                    .map(|v| std::mem::size_of_val(&v))
                    .unwrap_or(0)
            }
        }),
        arm("simd-json", {
            let b = b.clone();
            // simd-json parses in place: the copy it needs is part of its time.
            move || {
                let mut copy = black_box(&b).clone();
                simd_json::serde::from_slice::<T>(&mut copy)
                    .map(|v| std::mem::size_of_val(&v))
                    .unwrap_or(0)
            }
        }),
    ];
    contests.push(Contest {
        format: "json",
        input: input.to_owned(),
        arm: "struct decode",
        bytes: bytes.len(),
        arms: decode,
    });

    let value: T = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => panic!("{input}: {e}"),
    };
    let value = std::rc::Rc::new(value);
    let encoded_len = quarry::json::to_vec(&*value).map(|v| v.len()).unwrap_or(0);
    let encode = vec![
        arm("quarry", {
            let v = value.clone();
            move || {
                quarry::json::to_vec(black_box(&*v))
                    .map(|o| o.len())
                    .unwrap_or(0)
            }
        }),
        arm("serde_json", {
            let v = value.clone();
            move || {
                serde_json::to_vec(black_box(&*v))
                    .map(|o| o.len())
                    .unwrap_or(0)
            }
        }),
        arm("sonic-rs", {
            let v = value.clone();
            move || {
                sonic_rs::to_vec(black_box(&*v))
                    .map(|o| o.len())
                    .unwrap_or(0)
            }
        }),
    ];
    contests.push(Contest {
        format: "json",
        input: input.to_owned(),
        arm: "encode",
        bytes: encoded_len,
        arms: encode,
    });
}

/// Tree parse against each library's dynamic value.
fn tree_contest(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let b = bytes.to_vec();
    let arms = vec![
        arm("quarry", {
            let b = b.clone();
            move || {
                quarry::json::parse_tree(black_box(&b))
                    .map(|d| d.node_count())
                    .unwrap_or(0)
            }
        }),
        arm("serde_json", {
            let b = b.clone();
            move || {
                serde_json::from_slice::<serde_json::Value>(black_box(&b))
                    .map(|v| v.is_object() as usize)
                    .unwrap_or(0)
            }
        }),
        arm("sonic-rs", {
            let b = b.clone();
            move || {
                sonic_rs::from_slice::<sonic_rs::Value>(black_box(&b))
                    .map(|v| sonic_rs::JsonValueTrait::is_object(&v) as usize)
                    .unwrap_or(0)
            }
        }),
        arm("simd-json", {
            let b = b.clone();
            move || {
                let mut copy = black_box(&b).clone();
                simd_json::to_borrowed_value(&mut copy)
                    .map(|v| std::mem::size_of_val(&v))
                    .unwrap_or(0)
            }
        }),
    ];
    contests.push(Contest {
        format: "json",
        input: input.to_owned(),
        arm: "tree",
        bytes: bytes.len(),
        arms,
    });
}

/// Every contest, in a fixed order, with the peers that cannot do the job on that input
/// left out (see [`without_failing_peers`]).
pub fn contests() -> Vec<Contest> {
    without_failing_peers(all_contests()).0
}

/// Every contest, every peer included.
pub fn all_contests() -> Vec<Contest> {
    let mut contests = json_contests();
    contests.extend(yaml_contests());
    contests.extend(toml_contests());
    contests.extend(xml_contests());
    contests.extend(plist_contests());
    contests
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

/// The JSON contests: generated shapes and the real files.
fn json_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::json_corpus() {
        let input = doc.name;
        match doc.shape {
            Shape::SmallMessage => typed_contests::<SmallMessage>(input, &doc.bytes, &mut contests),
            Shape::PersonBatch => typed_contests::<Vec<Person>>(input, &doc.bytes, &mut contests),
            Shape::EscapedArticles => {
                typed_contests::<Vec<Article>>(input, &doc.bytes, &mut contests)
            }
            Shape::Telemetry => typed_contests::<Vec<Reading>>(input, &doc.bytes, &mut contests),
            Shape::WideRecord => typed_contests::<Vec<Wide>>(input, &doc.bytes, &mut contests),
            Shape::IntList => typed_contests::<Vec<i64>>(input, &doc.bytes, &mut contests),
            Shape::Config => typed_contests::<Config>(input, &doc.bytes, &mut contests),
        }
        tree_contest(input, &doc.bytes, &mut contests);
    }
    for (name, bytes) in crate::corpus_files("json") {
        match name.as_str() {
            "twitter.json" => typed_contests::<Twitter>(&name, &bytes, &mut contests),
            "citm_catalog.json" => typed_contests::<Catalog>(&name, &bytes, &mut contests),
            _ => {}
        }
        tree_contest(&name, &bytes, &mut contests);
    }
    contests
}

/// Struct decode and encode of `T` from TOML against the `toml` crate (serde).
fn toml_typed_contests<T>(input: &str, bytes: &[u8], contests: &mut Vec<Contest>)
where
    T: for<'de> Decode<'de> + DeserializeOwned + Encode + Serialize + 'static,
{
    let b = bytes.to_vec();
    let decode = vec![
        arm("quarry", {
            let b = b.clone();
            move || {
                quarry::from_slice::<T>(black_box(&b), Format::Toml)
                    .map(|v| std::mem::size_of_val(&v))
                    .unwrap_or(0)
            }
        }),
        arm("toml", {
            let b = b.clone();
            // toml reads `&str`: the UTF-8 check quarry does itself is part of its time.
            move || {
                std::str::from_utf8(black_box(&b))
                    .ok()
                    .and_then(|s| ::toml::from_str::<T>(s).ok())
                    .map(|v| std::mem::size_of_val(&v))
                    .unwrap_or(0)
            }
        }),
    ];
    contests.push(Contest {
        format: "toml",
        input: input.to_owned(),
        arm: "struct decode",
        bytes: bytes.len(),
        arms: decode,
    });

    let value: T = match quarry::from_slice(bytes, Format::Toml) {
        Ok(v) => v,
        Err(e) => panic!("{input}: {e}"),
    };
    let value = std::rc::Rc::new(value);
    // `None` fields left out, as the toml crate does.
    let skip = quarry::toml::NullEntries::Skip;
    let encoded_len = quarry::toml::to_vec_with(&*value, skip).map_or(0, |v| v.len());
    let encode = vec![
        arm("quarry", {
            let v = value.clone();
            move || {
                quarry::toml::to_vec_with(black_box(&*v), skip)
                    .map(|o| o.len())
                    .unwrap_or(0)
            }
        }),
        arm("toml", {
            let v = value.clone();
            move || {
                ::toml::to_string(black_box(&*v))
                    .map(|o| o.len())
                    .unwrap_or(0)
            }
        }),
    ];
    contests.push(Contest {
        format: "toml",
        input: input.to_owned(),
        arm: "encode",
        bytes: encoded_len,
        arms: encode,
    });
}

/// TOML tree parse against `toml_edit::DocumentMut` (the format-preserving tree) and
/// `toml::Table`.
fn toml_tree_contest(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let b = bytes.to_vec();
    let arms = vec![
        arm("quarry", {
            let b = b.clone();
            move || {
                quarry::toml::parse_tree(black_box(&b))
                    .map(|d| d.node_count())
                    .unwrap_or(0)
            }
        }),
        arm("toml_edit", {
            let b = b.clone();
            move || {
                std::str::from_utf8(black_box(&b))
                    .ok()
                    .and_then(|s| s.parse::<toml_edit::DocumentMut>().ok())
                    .map(|d| d.len())
                    .unwrap_or(0)
            }
        }),
        arm("toml", {
            let b = b.clone();
            move || {
                std::str::from_utf8(black_box(&b))
                    .ok()
                    .and_then(|s| s.parse::<::toml::Table>().ok())
                    .map(|t| t.len())
                    .unwrap_or(0)
            }
        }),
    ];
    contests.push(Contest {
        format: "toml",
        input: input.to_owned(),
        arm: "tree",
        bytes: bytes.len(),
        arms,
    });
}

/// The TOML contests: generated shapes (batches as arrays of tables) and the real files.
fn toml_contests() -> Vec<Contest> {
    use quarry_corpus_gen::shapes::Records;
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::toml_corpus() {
        let (input, b, c) = (doc.name, &doc.bytes, &mut contests);
        match doc.shape {
            Shape::SmallMessage => toml_typed_contests::<SmallMessage>(input, b, c),
            Shape::PersonBatch => toml_typed_contests::<Records<Person>>(input, b, c),
            Shape::EscapedArticles => toml_typed_contests::<Records<Article>>(input, b, c),
            Shape::Telemetry => toml_typed_contests::<Records<Reading>>(input, b, c),
            Shape::WideRecord => toml_typed_contests::<Records<Wide>>(input, b, c),
            Shape::IntList => toml_typed_contests::<Records<i64>>(input, b, c),
            Shape::Config => toml_typed_contests::<Config>(input, b, c),
        }
        toml_tree_contest(input, b, c);
    }
    for (name, bytes) in crate::corpus_files("toml") {
        let c = &mut contests;
        if name.ends_with("Cargo.lock") {
            toml_typed_contests::<crate::shapes::cargo_lock::CargoLock>(&name, &bytes, c);
        } else if name.ends_with("uv.lock") {
            toml_typed_contests::<crate::shapes::uv_lock::UvLock>(&name, &bytes, c);
        } else if name.ends_with("Cargo.toml") {
            toml_typed_contests::<crate::shapes::cargo_manifest::Manifest>(&name, &bytes, c);
        }
        toml_tree_contest(&name, &bytes, c);
    }
    contests
}

/// Struct decode and encode of `T` from YAML against serde_yaml.
fn yaml_typed_contests<T>(input: &str, bytes: &[u8], contests: &mut Vec<Contest>)
where
    T: for<'de> Decode<'de> + DeserializeOwned + Encode + Serialize + 'static,
{
    let b = std::rc::Rc::new(bytes.to_vec());
    let decode = vec![
        arm("quarry", {
            let b = b.clone();
            move || size(quarry::from_slice::<T>(black_box(&b), Format::Yaml))
        }),
        arm("serde_yaml", {
            let b = b.clone();
            move || size(serde_yaml::from_slice::<T>(black_box(&b)))
        }),
    ];
    contests.push(Contest {
        format: "yaml",
        input: input.to_owned(),
        arm: "struct decode",
        bytes: bytes.len(),
        arms: decode,
    });
    let value = std::rc::Rc::new(decoded::<T>(input, bytes, Format::Yaml));
    let encoded_len = quarry::yaml::to_vec(&*value).map_or(0, |v| v.len());
    let encode = vec![
        arm("quarry", {
            let v = value.clone();
            move || quarry::yaml::to_vec(black_box(&*v)).map_or(0, |o| o.len())
        }),
        arm("serde_yaml", {
            let v = value.clone();
            move || serde_yaml::to_string(black_box(&*v)).map_or(0, |o| o.len())
        }),
    ];
    contests.push(Contest {
        format: "yaml",
        input: input.to_owned(),
        arm: "encode",
        bytes: encoded_len,
        arms: encode,
    });
}

/// YAML tree parse against saphyr's `Yaml` and `serde_yaml::Value` (every document of a
/// stream).
fn yaml_tree_contest(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    use saphyr::LoadableYamlNode;
    let b = std::rc::Rc::new(bytes.to_vec());
    let arms = vec![
        arm("quarry", {
            let b = b.clone();
            move || quarry::yaml::parse_tree(black_box(&b)).map_or(0, |s| s.node_count())
        }),
        arm("saphyr", {
            let b = b.clone();
            move || saphyr::Yaml::load_from_str(text(black_box(&b))).map_or(0, |d| d.len())
        }),
        arm("serde_yaml", {
            let b = b.clone();
            move || {
                serde_yaml::Deserializer::from_slice(black_box(&b))
                    .map(|doc| size(<serde_yaml::Value as serde::Deserialize>::deserialize(doc)))
                    .sum()
            }
        }),
    ];
    contests.push(Contest {
        format: "yaml",
        input: input.to_owned(),
        arm: "tree",
        bytes: bytes.len(),
        arms,
    });
}

/// The YAML contests: generated shapes and the real files.
fn yaml_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::yaml_corpus() {
        let (input, b, c) = (doc.name, &doc.bytes, &mut contests);
        match doc.shape {
            Shape::SmallMessage => yaml_typed_contests::<SmallMessage>(input, b, c),
            Shape::PersonBatch => yaml_typed_contests::<Vec<Person>>(input, b, c),
            Shape::EscapedArticles => yaml_typed_contests::<Vec<Article>>(input, b, c),
            Shape::Telemetry => yaml_typed_contests::<Vec<Reading>>(input, b, c),
            Shape::WideRecord => yaml_typed_contests::<Vec<Wide>>(input, b, c),
            Shape::IntList => yaml_typed_contests::<Vec<i64>>(input, b, c),
            Shape::Config => yaml_typed_contests::<Config>(input, b, c),
        }
        yaml_tree_contest(input, b, c);
    }
    for (name, bytes) in crate::corpus_files("yaml") {
        yaml_tree_contest(&name, &bytes, &mut contests);
    }
    contests
}

/// Struct decode and encode of `T` from XML against quick-xml's serde support.
fn xml_typed_contests<T>(input: &str, root: &'static str, bytes: &[u8], contests: &mut Vec<Contest>)
where
    T: for<'de> Decode<'de> + DeserializeOwned + Encode + Serialize + 'static,
{
    let b = std::rc::Rc::new(bytes.to_vec());
    let decode = vec![
        arm("quarry", {
            let b = b.clone();
            move || size(quarry::from_slice::<T>(black_box(&b), Format::Xml))
        }),
        arm("quick-xml", {
            let b = b.clone();
            move || size(quick_xml::de::from_str::<T>(text(black_box(&b))))
        }),
    ];
    contests.push(Contest {
        format: "xml",
        input: input.to_owned(),
        arm: "struct decode",
        bytes: bytes.len(),
        arms: decode,
    });
    let value = std::rc::Rc::new(decoded::<T>(input, bytes, Format::Xml));
    let encoded_len = quarry::xml::to_vec_with_root(&*value, root).map_or(0, |v| v.len());
    let encode = vec![
        arm("quarry", {
            let v = value.clone();
            move || quarry::xml::to_vec_with_root(black_box(&*v), root).map_or(0, |o| o.len())
        }),
        arm("quick-xml", {
            let v = value.clone();
            move || quick_xml::se::to_string_with_root(root, black_box(&*v)).map_or(0, |o| o.len())
        }),
    ];
    contests.push(Contest {
        format: "xml",
        input: input.to_owned(),
        arm: "encode",
        bytes: encoded_len,
        arms: encode,
    });
}

/// XML tree parse against roxmltree (DTDs allowed, as quarry allows them), and raw event
/// throughput — quarry's parser with the no-op builder, every well-formedness check on —
/// against quick-xml's event loop, bare and reading every attribute.
fn xml_tree_and_event_contests(input: &str, bytes: &[u8], contests: &mut Vec<Contest>) {
    let b = std::rc::Rc::new(bytes.to_vec());
    let tree = vec![
        arm("quarry", {
            let b = b.clone();
            move || quarry::xml::parse_tree(black_box(&b)).map_or(0, |d| d.node_count())
        }),
        arm("roxmltree", {
            let b = b.clone();
            move || {
                let options = roxmltree::ParsingOptions {
                    allow_dtd: true,
                    ..Default::default()
                };
                roxmltree::Document::parse_with_options(text(black_box(&b)), options)
                    .map_or(0, |d| d.descendants().len())
            }
        }),
    ];
    contests.push(Contest {
        format: "xml",
        input: input.to_owned(),
        arm: "tree",
        bytes: bytes.len(),
        arms: tree,
    });
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
    let events = vec![
        arm("quarry", {
            let b = b.clone();
            move || quarry::xml::check(black_box(&b)).is_ok() as usize
        }),
        arm("quick-xml", {
            let b = b.clone();
            move || quick_xml_events(text(black_box(&b)), false)
        }),
        arm("quick-xml+attrs", {
            let b = b.clone();
            move || quick_xml_events(text(black_box(&b)), true)
        }),
    ];
    contests.push(Contest {
        format: "xml",
        input: input.to_owned(),
        arm: "events",
        bytes: bytes.len(),
        arms: events,
    });
}

/// The XML contests: generated shapes (batches as `<batch>` of `<records>`) and the real
/// files.
fn xml_contests() -> Vec<Contest> {
    use quarry_corpus_gen::shapes::Records;
    let mut contests = Vec::new();
    for doc in quarry_corpus_gen::xml_corpus() {
        let (input, b, c) = (doc.name, &doc.bytes, &mut contests);
        match doc.shape {
            Shape::SmallMessage => xml_typed_contests::<SmallMessage>(input, "message", b, c),
            Shape::PersonBatch => xml_typed_contests::<Records<Person>>(input, "batch", b, c),
            Shape::EscapedArticles => xml_typed_contests::<Records<Article>>(input, "batch", b, c),
            Shape::Telemetry => xml_typed_contests::<Records<Reading>>(input, "batch", b, c),
            Shape::WideRecord => xml_typed_contests::<Records<Wide>>(input, "batch", b, c),
            Shape::IntList => xml_typed_contests::<Records<i64>>(input, "batch", b, c),
            Shape::Config => xml_typed_contests::<Config>(input, "config", b, c),
        }
        xml_tree_and_event_contests(input, b, c);
    }
    for (name, bytes) in crate::corpus_files("xml") {
        xml_tree_and_event_contests(&name, &bytes, &mut contests);
    }
    contests
}

/// Struct decode and encode of `T` from a plist (XML or binary) against the plist crate.
fn plist_typed_contests<T>(input: &str, binary: bool, bytes: &[u8], contests: &mut Vec<Contest>)
where
    T: for<'de> Decode<'de> + DeserializeOwned + Encode + Serialize + 'static,
{
    let format = if binary { "bplist" } else { "plist" };
    let b = std::rc::Rc::new(bytes.to_vec());
    let decode = vec![
        arm("quarry", {
            let b = b.clone();
            move || size(quarry::from_slice::<T>(black_box(&b), Format::Plist))
        }),
        arm("plist", {
            let b = b.clone();
            move || size(plist::from_bytes::<T>(black_box(&b)))
        }),
    ];
    contests.push(Contest {
        format,
        input: input.to_owned(),
        arm: "struct decode",
        bytes: bytes.len(),
        arms: decode,
    });
    let value = std::rc::Rc::new(decoded::<T>(input, bytes, Format::Plist));
    // `None` fields left out (the plist crate refuses them: those contests show it).
    let quarry_encode = move |v: &T| {
        use quarry::plist::{NullEntries, PlistFormat};
        let form = if binary {
            PlistFormat::Binary
        } else {
            PlistFormat::Xml
        };
        quarry::plist::to_vec_with(v, form, NullEntries::Skip)
    };
    let encoded_len = quarry_encode(&value).map_or(0, |v| v.len());
    let encode = vec![
        arm("quarry", {
            let v = value.clone();
            move || quarry_encode(black_box(&*v)).map_or(0, |o| o.len())
        }),
        arm("plist", {
            let v = value.clone();
            move || {
                let mut out = Vec::new();
                let written = if binary {
                    plist::to_writer_binary(&mut out, black_box(&*v))
                } else {
                    plist::to_writer_xml(&mut out, black_box(&*v))
                };
                written.map_or(0, |()| out.len())
            }
        }),
    ];
    contests.push(Contest {
        format,
        input: input.to_owned(),
        arm: "encode",
        bytes: encoded_len,
        arms: encode,
    });
}

/// Plist tree parse against `plist::Value`.
fn plist_tree_contest(input: &str, binary: bool, bytes: &[u8], contests: &mut Vec<Contest>) {
    let b = std::rc::Rc::new(bytes.to_vec());
    let arms = vec![
        arm("quarry", {
            let b = b.clone();
            move || quarry::plist::parse_tree(black_box(&b)).map_or(0, |d| d.node_count())
        }),
        arm("plist", {
            let b = b.clone();
            move || {
                size(plist::Value::from_reader(std::io::Cursor::new(black_box(
                    &b[..],
                ))))
            }
        }),
    ];
    contests.push(Contest {
        format: if binary { "bplist" } else { "plist" },
        input: input.to_owned(),
        arm: "tree",
        bytes: bytes.len(),
        arms,
    });
}

/// The plist contests, XML and binary separately: generated shapes and the real files
/// (OpenStep text has no peer: the plist crate cannot write it, and reads it only
/// through a separate entry point).
fn plist_contests() -> Vec<Contest> {
    let mut contests = Vec::new();
    for (binary, corpus) in [
        (false, quarry_corpus_gen::plist_xml_corpus()),
        (true, quarry_corpus_gen::plist_binary_corpus()),
    ] {
        for doc in corpus {
            let (input, b, c) = (doc.name, &doc.bytes, &mut contests);
            match doc.shape {
                Shape::SmallMessage => plist_typed_contests::<SmallMessage>(input, binary, b, c),
                Shape::PersonBatch => plist_typed_contests::<Vec<Person>>(input, binary, b, c),
                Shape::EscapedArticles => plist_typed_contests::<Vec<Article>>(input, binary, b, c),
                Shape::Telemetry => plist_typed_contests::<Vec<Reading>>(input, binary, b, c),
                Shape::WideRecord => plist_typed_contests::<Vec<Wide>>(input, binary, b, c),
                Shape::IntList => plist_typed_contests::<Vec<i64>>(input, binary, b, c),
                Shape::Config => plist_typed_contests::<Config>(input, binary, b, c),
            }
            plist_tree_contest(input, binary, b, c);
        }
    }
    for (name, bytes) in crate::corpus_files("plist") {
        let binary = bytes.starts_with(b"bplist");
        if quarry::plist::detect(&bytes) != quarry::plist::PlistFormat::OpenStep {
            plist_tree_contest(&name, binary, &bytes, &mut contests);
        }
    }
    contests
}
