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

/// Every contest, in a fixed order.
pub fn contests() -> Vec<Contest> {
    let mut contests = json_contests();
    contests.extend(toml_contests());
    contests
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
    let encoded_len = quarry::toml::to_vec(&*value).map(|v| v.len()).unwrap_or(0);
    let encode = vec![
        arm("quarry", {
            let v = value.clone();
            move || {
                quarry::toml::to_vec(black_box(&*v))
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
