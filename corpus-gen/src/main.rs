//! Writes quarry's generated benchmark corpus into a folder (default `corpus-out/`,
//! git-ignored). Deterministic: a fixed seed and no clock, so every run writes the same
//! bytes. Shapes so far: `int-list` at 10, 1,000 and 10,000 items and `person-batch` at
//! 25 and 250 records, in JSON.

use std::borrow::Cow;
use std::path::PathBuf;

use quarry::RawValue;

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
];
const TAGS: &[&str] = &[
    "admin", "beta", "ops", "billing", "on-call", "mentor", "remote",
];

fn key(k: &'static str) -> Cow<'static, str> {
    Cow::Borrowed(k)
}

fn text(s: String) -> RawValue<'static> {
    RawValue::String(Cow::Owned(s))
}

fn person(rng: &mut Rng, id: i64) -> RawValue<'static> {
    let first = rng.pick(FIRST);
    let last = rng.pick(LAST);
    let tags = (0..rng.below(4))
        .map(|_| text(rng.pick(TAGS).to_owned()))
        .collect();
    RawValue::Map(vec![
        (key("id"), RawValue::Int(id)),
        (key("name"), text(format!("{first} {last}"))),
        (
            key("email"),
            text(format!(
                "{}.{}@example.com",
                first.to_lowercase(),
                last.to_lowercase()
            )),
        ),
        (key("age"), RawValue::Int(18 + rng.below(60) as i64)),
        (key("active"), RawValue::Bool(rng.below(2) == 1)),
        (
            key("score"),
            RawValue::Float(rng.below(100_000) as f64 / 100.0),
        ),
        (
            key("balance_cents"),
            RawValue::Int(rng.below(10_000_000_000) as i64),
        ),
        (
            key("address"),
            RawValue::Map(vec![
                (
                    key("street"),
                    text(format!("{} Main Street", 1 + rng.below(999))),
                ),
                (key("city"), text(rng.pick(CITIES).to_owned())),
                (key("zip"), text(format!("{:05}", rng.below(100_000)))),
            ]),
        ),
        (key("tags"), RawValue::Seq(tags)),
    ])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("corpus-out"), PathBuf::from);
    let dir = out.join("json");
    std::fs::create_dir_all(&dir)?;
    let mut rng = Rng(0x5EED_F0A4_4C0D_E5EE);
    for n in [10u64, 1_000, 10_000] {
        let list = RawValue::Seq(
            (0..n)
                .map(|_| RawValue::Int(rng.below(1 << 40) as i64 - (1 << 39)))
                .collect(),
        );
        std::fs::write(
            dir.join(format!("int-list-{n}.json")),
            quarry::json::to_vec(&list)?,
        )?;
    }
    for n in [25, 250] {
        let batch = RawValue::Seq((0..n).map(|id| person(&mut rng, id)).collect());
        std::fs::write(
            dir.join(format!("person-batch-{n}.json")),
            quarry::json::to_vec_pretty(&batch)?,
        )?;
    }
    println!("wrote the corpus to {}", dir.display());
    Ok(())
}
