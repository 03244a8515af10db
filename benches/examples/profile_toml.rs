//! Runs one TOML arm in a loop, for a profiler: `profile_toml ARM FILE [ITERATIONS]` with
//! ARM one of raw, tree, check, lock (struct decode of a Cargo.lock), lock-encode, people
//! (struct decode of a person batch), message (struct decode of
//! small-message), people-encode, manifest (struct decode of a Cargo.toml), config (struct
//! decode of the corpus's config shape). A FILE of `corpus:NAME` is the generated corpus's
//! TOML document NAME.

use quarry::Format;

const SKIP: quarry::encode::NullEntries = quarry::encode::NullEntries::Skip;
use quarry_benches::shapes::cargo_lock::CargoLock;
use quarry_benches::shapes::cargo_manifest::Manifest;
use quarry_corpus_gen::shapes::{Config, Person, Records, SmallMessage};

fn main() {
    let mut args = std::env::args().skip(1);
    let arm = args.next().expect("ARM");
    let file = args.next().expect("FILE");
    let iterations: usize = args.next().map_or(200, |n| n.parse().expect("ITERATIONS"));
    let bytes = match file.strip_prefix("corpus:") {
        Some(name) => {
            quarry_corpus_gen::toml_corpus()
                .into_iter()
                .find(|doc| doc.name == name)
                .expect("a generated TOML document of that name")
                .bytes
        }
        None => std::fs::read(&file).expect("readable FILE"),
    };
    let mut sink = 0usize;
    for _ in 0..iterations {
        sink += match arm.as_str() {
            "raw" => matches!(quarry::toml::parse(&bytes), Ok(quarry::RawValue::Map(_))) as usize,
            "tree" => quarry::toml::parse_tree(&bytes).map_or(0, |d| d.node_count()),
            "check" => quarry::toml::check(&bytes).is_ok() as usize,
            "lock" => {
                quarry::from_slice::<CargoLock>(&bytes, Format::Toml).map_or(0, |l| l.package.len())
            }
            "lock-encode" => {
                let lock: CargoLock = quarry::from_slice(&bytes, Format::Toml).expect("lock");
                (0..10)
                    .map(|_| quarry::toml::to_vec_with_nulls(&lock, SKIP).map_or(0, |v| v.len()))
                    .sum()
            }
            "people" => quarry::from_slice::<Records<Person>>(&bytes, Format::Toml)
                .map_or(0, |p| p.records.len()),
            "manifest" => quarry::from_slice::<Manifest>(&bytes, Format::Toml)
                .map_or(0, |m| m.dependencies.len()),
            "config" => quarry::from_slice::<Config>(&bytes, Format::Toml).map_or(0, |_| 1),
            "message" => {
                quarry::from_slice::<SmallMessage>(&bytes, Format::Toml).map_or(0, |m| m.text.len())
            }
            "people-encode" => {
                let people: Records<Person> =
                    quarry::from_slice(&bytes, Format::Toml).expect("people");
                (0..10)
                    .map(|_| quarry::toml::to_vec_with_nulls(&people, SKIP).map_or(0, |v| v.len()))
                    .sum()
            }
            other => panic!("unknown arm {other}"),
        };
    }
    println!("{sink}");
}
