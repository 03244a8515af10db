//! The deterministic benchmark corpus: every shape, generated from a fixed seed with no
//! clock, so every run produces the same bytes. The `quarry-corpus-gen` binary writes it
//! to disk; benchmarks generate the same bytes in memory.
//!
//! ```
//! let corpus = quarry_corpus_gen::json_corpus();
//! assert!(corpus.iter().any(|doc| doc.name == "person-batch-25"));
//! assert_eq!(quarry_corpus_gen::json_corpus()[0].bytes, corpus[0].bytes); // deterministic
//! ```

pub mod shapes;

use std::borrow::Cow;

use quarry::{Encode, RawValue};
use shapes::*;

/// One generated document.
#[derive(Debug, Clone)]
pub struct Document {
    /// The shape and size, like `person-batch-250`.
    pub name: &'static str,
    /// The shape's Rust type, for picking the decoder.
    pub shape: Shape,
    /// The encoded document.
    pub bytes: Vec<u8>,
}

/// Which Rust type a document decodes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// [`SmallMessage`].
    SmallMessage,
    /// `Vec<`[`Person`]`>` (also `unknown-fields` and `large`).
    PersonBatch,
    /// `Vec<`[`Article`]`>`.
    EscapedArticles,
    /// `Vec<`[`Reading`]`>`.
    Telemetry,
    /// `Vec<`[`Wide`]`>`.
    WideRecord,
    /// `Vec<i64>`.
    IntList,
    /// [`Config`].
    Config,
}

impl Shape {
    /// True for the shapes whose JSON document is a top-level array (a batch of records).
    pub fn is_batch(self) -> bool {
        !matches!(self, Shape::SmallMessage | Shape::Config)
    }
}

/// xorshift64*: small, fast, and the same sequence everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.below(items.len() as u64) as usize]
    }

    fn float(&mut self, scale: f64) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * scale
    }
}

const FIRST: &[&str] = &[
    "Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "José", "Zoë",
];
const LAST: &[&str] = &[
    "Lovelace", "Hopper", "Torvalds", "Hamilton", "Thompson", "Liskov", "Ritchie", "Allen",
];
const CITIES: &[&str] = &[
    "Lisbon",
    "Kyoto",
    "Nairobi",
    "Montréal",
    "Oslo",
    "Santiago",
    "Pune",
    "Reykjavík",
];
const COUNTRIES: &[&str] = &["PT", "JP", "KE", "CA", "NO", "CL", "IN", "IS"];
const TAGS: &[&str] = &[
    "admin", "beta", "ops", "billing", "on-call", "mentor", "remote",
];
const WORDS: &[&str] = &[
    "the",
    "parser",
    "reads",
    "bytes",
    "quickly",
    "\"quoted\"",
    "naïve",
    "café",
    "日本語",
    "emoji 🚀",
    "tab\there",
    "line\nbreak",
    "back\\slash",
    "Ünïcödé",
    "simple",
    "value",
    "path/to/file",
    "<tag>",
    "& more",
];

fn person(rng: &mut Rng, id: u64) -> Person {
    let first = rng.pick(FIRST);
    let last = rng.pick(LAST);
    let city = rng.below(CITIES.len() as u64) as usize;
    Person {
        id,
        name: format!("{first} {last}"),
        email: format!(
            "{}.{}{}@example.com",
            first.to_lowercase(),
            last.to_lowercase(),
            id
        ),
        age: 18 + rng.below(70) as u8,
        active: rng.below(2) == 1,
        score: (rng.below(1_000_000) as f64) / 100.0,
        balance_cents: rng.below(20_000_000_000) as i64 - 10_000_000_000,
        phone: (rng.below(3) > 0).then(|| format!("+1-555-{:04}", rng.below(10_000))),
        address: Address {
            street: format!("{} Main Street", 1 + rng.below(999)),
            city: CITIES[city].to_owned(),
            zip: format!("{:05}", rng.below(100_000)),
            country: COUNTRIES[city].to_owned(),
        },
        tags: (0..rng.below(4))
            .map(|_| rng.pick(TAGS).to_owned())
            .collect(),
    }
}

const FIRST_ACCENTED: &[&str] = &[
    "José", "Zoë", "Łukasz", "Søren", "Björn", "Chloé", "Ágnes", "Jürgen", "Çağla", "Renée",
];
const LAST_ACCENTED: &[&str] = &[
    "Müller",
    "Núñez",
    "Kowalczyk",
    "Ångström",
    "Doležal",
    "Štěpánek",
    "Øvergård",
    "Lefèvre",
];
const CITIES_ACCENTED: &[&str] = &[
    "München",
    "Zürich",
    "Kraków",
    "São Paulo",
    "Göteborg",
    "Málaga",
    "Besançon",
    "Łódź",
];
const COUNTRIES_ACCENTED: &[&str] = &["DE", "CH", "PL", "BR", "SE", "ES", "FR", "PL"];

/// A person whose name and city are spelled with letters outside ASCII (`Łukasz Müller`,
/// `Zürich`), as about half of a real user table is.
fn accented_person(rng: &mut Rng, id: u64) -> Person {
    let mut p = person(rng, id);
    let first = rng.pick(FIRST_ACCENTED);
    let last = rng.pick(LAST_ACCENTED);
    let city = rng.below(CITIES_ACCENTED.len() as u64) as usize;
    p.name = format!("{first} {last}");
    p.address.city = CITIES_ACCENTED[city].to_owned();
    p.address.country = COUNTRIES_ACCENTED[city].to_owned();
    p
}

fn sentence(rng: &mut Rng, words: u64) -> String {
    (0..words)
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

fn people(rng: &mut Rng, n: u64) -> Vec<Person> {
    (0..n).map(|id| person(rng, id)).collect()
}

fn encode<T: Encode + ?Sized>(value: &T) -> Vec<u8> {
    quarry::json::to_vec(value)
        .unwrap_or_else(|e| unreachable!("generated values are JSON-representable: {e}"))
}

fn config(rng: &mut Rng) -> Config {
    let mut features = std::collections::BTreeMap::new();
    for name in [
        "search",
        "billing-v2",
        "dark-mode",
        "audit-log",
        "beta-api",
        "rate-limits",
    ] {
        features.insert(name.to_owned(), rng.below(2) == 1);
    }
    let mut targets = std::collections::BTreeMap::new();
    for (module, level) in [
        ("quarry", "debug"),
        ("http", "info"),
        ("db", "warn"),
        ("auth", "info"),
    ] {
        targets.insert(module.to_owned(), level.to_owned());
    }
    Config {
        service: Service {
            name: "orders-api".into(),
            version: "3.14.2".into(),
            environment: "production".into(),
            region: "eu-west-1".into(),
        },
        http: Http {
            host: "0.0.0.0".into(),
            port: 8443,
            workers: 16,
            read_timeout_ms: 30_000,
            write_timeout_ms: 30_000,
            tls: Some(Tls {
                cert_path: "/etc/orders/tls/cert.pem".into(),
                key_path: "/etc/orders/tls/key.pem".into(),
                min_version: "1.2".into(),
            }),
            allowed_origins: vec![
                "https://shop.example.com".into(),
                "https://admin.example.com".into(),
            ],
        },
        database: Database {
            url: "postgres://orders@db.internal:5432/orders".into(),
            pool_min: 4,
            pool_max: 64,
            statement_timeout_ms: 5_000,
            replicas: (1..=3)
                .map(|i| Replica {
                    url: format!("postgres://orders@replica-{i}.internal:5432/orders"),
                    weight: 1 + rng.below(10) as u8,
                    read_only: true,
                })
                .collect(),
        },
        logging: Logging {
            level: "info".into(),
            format: "json".into(),
            targets,
        },
        features,
        limits: ["/orders", "/orders/{id}", "/checkout", "/search", "/health"]
            .iter()
            .map(|route| Limit {
                route: (*route).to_owned(),
                requests_per_second: 50 * (1 + rng.below(20) as u32),
                burst: 10 * (1 + rng.below(10) as u32),
            })
            .collect(),
    }
}

/// Every JSON document of the corpus, in a fixed order.
pub fn json_corpus() -> Vec<Document> {
    let mut rng = Rng(0x5EED_F0A4_4C0D_E5EE);
    let mut docs = Vec::new();
    let mut push = |name, shape, bytes| docs.push(Document { name, shape, bytes });

    let message = SmallMessage {
        id: 42,
        kind: "status".into(),
        ok: true,
        text: "all systems nominal".into(),
    };
    push("small-message", Shape::SmallMessage, encode(&message));
    push(
        "person-batch-25",
        Shape::PersonBatch,
        encode(&people(&mut rng, 25)),
    );
    push(
        "person-batch-250",
        Shape::PersonBatch,
        encode(&people(&mut rng, 250)),
    );

    let articles: Vec<Article> = (0..120)
        .map(|i| Article {
            title: sentence(&mut rng, 6),
            author: format!("{} {}", rng.pick(FIRST), rng.pick(LAST)),
            body: sentence(&mut rng, 80 + (i % 5) * 20),
            tags: (0..1 + rng.below(3))
                .map(|_| rng.pick(TAGS).to_owned())
                .collect(),
        })
        .collect();
    push(
        "escaped-articles",
        Shape::EscapedArticles,
        encode(&articles),
    );

    let readings: Vec<Reading> = (0..500)
        .map(|i| Reading {
            device_id: 0x8000_0000_0000_0000 | rng.next() >> 1,
            timestamp_ns: 1_700_000_000_000_000_000 + i * 1_000_000_007,
            seq: i as u32,
            temperature: rng.float(60.0) - 20.0,
            humidity: rng.float(100.0),
            pressure: 950.0 + rng.float(100.0),
            voltage: rng.float(5.0),
            samples: (0..8).map(|_| rng.float(2.0) - 1.0).collect(),
        })
        .collect();
    push("telemetry", Shape::Telemetry, encode(&readings));

    // person-batch with keys the struct does not declare: decoders must skip them.
    let batch = people(&mut rng, 250);
    let mut extra = Vec::with_capacity(batch.len());
    for p in &batch {
        let Ok(RawValue::Map(mut entries)) = p.to_raw_value() else {
            unreachable!("a struct encodes as a map")
        };
        entries.insert(
            2,
            (
                Cow::Borrowed("internal_note"),
                RawValue::String(Cow::Owned(sentence(&mut rng, 8))),
            ),
        );
        entries.push((
            Cow::Borrowed("history"),
            RawValue::Seq((0..4).map(|i| RawValue::Int(i * 1000)).collect()),
        ));
        entries.push((
            Cow::Borrowed("preferences"),
            RawValue::Map(vec![
                (Cow::Borrowed("theme"), RawValue::String("dark".into())),
                (Cow::Borrowed("newsletter"), RawValue::Bool(true)),
            ]),
        ));
        extra.push(RawValue::Map(entries));
    }
    push(
        "unknown-fields",
        Shape::PersonBatch,
        encode(&RawValue::Seq(extra)),
    );

    let wide: Vec<Wide> = (0..200)
        .map(|_| {
            let mut v = [0i64; 24];
            for x in &mut v {
                *x = rng.below(1 << 40) as i64 - (1 << 39);
            }
            Wide {
                f01: v[0],
                f02: v[1],
                f03: v[2],
                f04: v[3],
                f05: v[4],
                f06: v[5],
                f07: v[6],
                f08: v[7],
                f09: v[8],
                f10: v[9],
                f11: v[10],
                f12: v[11],
                f13: v[12],
                f14: v[13],
                f15: v[14],
                f16: v[15],
                f17: v[16],
                f18: v[17],
                f19: v[18],
                f20: v[19],
                f21: v[20],
                f22: v[21],
                f23: v[22],
                f24: v[23],
            }
        })
        .collect();
    push("wide-record", Shape::WideRecord, encode(&wide));

    for (name, n) in [
        ("int-list-10", 10),
        ("int-list-1000", 1_000),
        ("int-list-10000", 10_000),
    ] {
        let list: Vec<i64> = (0..n)
            .map(|_| rng.below(1 << 40) as i64 - (1 << 39))
            .collect();
        push(name, Shape::IntList, encode(&list));
    }

    let config = config(&mut rng);
    push(
        "config",
        Shape::Config,
        quarry::json::to_vec_pretty(&config).unwrap_or_default(),
    );
    push(
        "large",
        Shape::PersonBatch,
        encode(&people(&mut rng, 20_000)),
    );
    // Its own seed, so the documents above keep their bytes.
    let mut rng = Rng(0xACCE_27ED_5EED_0001);
    let accented: Vec<Person> = (0..250)
        .map(|id| {
            if rng.below(2) == 0 {
                accented_person(&mut rng, id)
            } else {
                person(&mut rng, id)
            }
        })
        .collect();
    push(
        "person-batch-accented",
        Shape::PersonBatch,
        encode(&accented),
    );
    docs
}

/// `value` without null map entries (an absent `Option` field decodes as `None`
/// everywhere), for the formats that have no null; with `halve_big`, integers above
/// `i64::MAX` are halved (TOML's integers are `i64`), which keeps them 19 digits long.
fn without_nulls(value: RawValue<'static>, halve_big: bool) -> RawValue<'static> {
    match value {
        RawValue::Map(entries) => RawValue::Map(
            entries
                .into_iter()
                .filter(|(_, v)| !matches!(v, RawValue::Null))
                .map(|(k, v)| (k, without_nulls(v, halve_big)))
                .collect(),
        ),
        RawValue::Seq(items) => RawValue::Seq(
            items
                .into_iter()
                .map(|v| without_nulls(v, halve_big))
                .collect(),
        ),
        RawValue::UInt(u) if halve_big => RawValue::Int((u >> 1) as i64),
        other => other,
    }
}

/// Every JSON document of the corpus rendered by `render` from its value.
fn rendered(render: impl Fn(RawValue<'static>, Shape) -> Vec<u8>) -> Vec<Document> {
    json_corpus()
        .into_iter()
        .map(|doc| {
            let value = quarry::json::parse(&doc.bytes)
                .unwrap_or_else(|e| unreachable!("generated JSON parses: {e}"))
                .into_owned();
            Document {
                bytes: render(value, doc.shape),
                ..doc
            }
        })
        .collect()
}

/// Every JSON document of the corpus rendered as block-style YAML (the same values; the
/// same Rust types decode them).
pub fn yaml_corpus() -> Vec<Document> {
    rendered(|value, _| {
        quarry::yaml::to_vec(&value)
            .unwrap_or_else(|e| unreachable!("YAML holds every JSON value: {e}"))
    })
}

/// Every JSON document of the corpus rendered as XML by quarry's mapping: a batch is a
/// `<batch>` root with one `<records>` element per record (decode it as [`Records`]),
/// the two single documents are `<message>` and `<config>`; nulls are left out.
pub fn xml_corpus() -> Vec<Document> {
    rendered(|value, shape| {
        let value = without_nulls(value, false);
        let document = if shape.is_batch() {
            let batch = RawValue::Map(vec![(Cow::Borrowed("records"), value)]);
            RawValue::Map(vec![(Cow::Borrowed("batch"), batch)])
        } else {
            let root = if shape == Shape::Config {
                "config"
            } else {
                "message"
            };
            RawValue::Map(vec![(Cow::Borrowed(root), value)])
        };
        quarry::xml::to_vec(&document)
            .unwrap_or_else(|e| unreachable!("the XML rendering is representable: {e}"))
    })
}

/// Every JSON document of the corpus as an XML property list (nulls left out).
pub fn plist_xml_corpus() -> Vec<Document> {
    rendered(|value, _| {
        quarry::plist::to_vec_xml(&without_nulls(value, false))
            .unwrap_or_else(|e| unreachable!("plists hold these values: {e}"))
    })
}

/// Every JSON document of the corpus as a binary property list (nulls left out).
pub fn plist_binary_corpus() -> Vec<Document> {
    rendered(|value, _| {
        quarry::plist::to_vec_binary(&without_nulls(value, false))
            .unwrap_or_else(|e| unreachable!("plists hold these values: {e}"))
    })
}

/// Every JSON document of the corpus rendered as TOML: batches as arrays of tables under
/// `records` (decode them as [`Records`]), nulls left out, the few integers above
/// `i64::MAX` halved.
pub fn toml_corpus() -> Vec<Document> {
    rendered(|value, _| {
        let value = match without_nulls(value, true) {
            map @ RawValue::Map(_) => map,
            other => RawValue::Map(vec![(Cow::Borrowed("records"), other)]),
        };
        quarry::toml::to_vec(&value)
            .unwrap_or_else(|e| unreachable!("the TOML rendering is representable: {e}"))
    })
}
