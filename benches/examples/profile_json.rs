//! Runs one JSON arm in a loop, for a profiler: `profile_json ARM FILE [ITERATIONS]`
//! with ARM one of raw, tree, check, encode, serde-encode, serde-value, citm, serde-citm, twitter,
//! twitter-encode, serde-twitter-encode, and serde_json's struct decodes of the
//! `profile_decode` shapes: serde-small, serde-config, serde-ints, serde-person; and
//! sonic-value, sonic-rs's tree.

fn main() {
    let mut args = std::env::args().skip(1);
    let arm = args.next().expect("ARM");
    let file = args.next().expect("FILE");
    let iterations: usize = args.next().map_or(200, |n| n.parse().expect("ITERATIONS"));
    let bytes = std::fs::read(&file).expect("readable FILE");
    let raw = quarry::json::parse(&bytes).expect("valid JSON");
    let value: serde_json::Value = serde_json::from_slice(&bytes).expect("valid JSON");
    let mut sink = 0usize;
    for _ in 0..iterations {
        sink += match arm.as_str() {
            "raw" => matches!(quarry::json::parse(&bytes), Ok(quarry::RawValue::Map(_))) as usize,
            "tree" => quarry::json::parse_tree(&bytes).map_or(0, |d| d.node_count()),
            "check" => quarry::json::check(&bytes).is_ok() as usize,
            "encode" => quarry::json::to_vec(&raw).map_or(0, |v| v.len()),
            "citm" => quarry::from_slice::<quarry_benches::shapes::citm::Catalog>(
                &bytes,
                quarry::Format::Json,
            )
            .map_or(0, |c| c.performances.len()),
            "serde-citm" => serde_json::from_slice::<quarry_benches::shapes::citm::Catalog>(&bytes)
                .map_or(0, |c| c.performances.len()),
            "person-encode" => {
                let people: Vec<quarry_corpus_gen::shapes::Person> =
                    serde_json::from_slice(&bytes).expect("person batch");
                (0..10)
                    .map(|_| quarry::json::to_vec(&people).map_or(0, |v| v.len()))
                    .sum()
            }
            "serde-person-encode" => {
                let people: Vec<quarry_corpus_gen::shapes::Person> =
                    serde_json::from_slice(&bytes).expect("person batch");
                (0..10)
                    .map(|_| serde_json::to_vec(&people).map_or(0, |v| v.len()))
                    .sum()
            }
            "ints-encode" => {
                let ints: Vec<i64> = serde_json::from_slice(&bytes).expect("integer list");
                (0..20)
                    .map(|_| quarry::json::to_vec(&ints).map_or(0, |v| v.len()))
                    .sum()
            }
            "serde-ints-encode" => {
                let ints: Vec<i64> = serde_json::from_slice(&bytes).expect("integer list");
                (0..20)
                    .map(|_| serde_json::to_vec(&ints).map_or(0, |v| v.len()))
                    .sum()
            }
            "twitter" => quarry::from_slice::<quarry_benches::shapes::twitter::Twitter>(
                &bytes,
                quarry::Format::Json,
            )
            .map_or(0, |c| c.statuses.len()),
            "twitter-encode" | "serde-twitter-encode" => {
                let t: quarry_benches::shapes::twitter::Twitter =
                    serde_json::from_slice(&bytes).expect("twitter.json");
                (0..50)
                    .map(|_| {
                        if arm == "twitter-encode" {
                            quarry::json::to_vec(&t).map_or(0, |v| v.len())
                        } else {
                            serde_json::to_vec(&t).map_or(0, |v| v.len())
                        }
                    })
                    .sum()
            }
            "serde-encode" => serde_json::to_vec(&value).map_or(0, |v| v.len()),
            "serde-small" => {
                serde_json::from_slice::<quarry_corpus_gen::shapes::SmallMessage>(&bytes)
                    .map_or(0, |m| m.text.len())
            }
            "serde-config" => serde_json::from_slice::<quarry_corpus_gen::shapes::Config>(&bytes)
                .map_or(0, |c| c.limits.len()),
            "serde-ints" => serde_json::from_slice::<Vec<i64>>(&bytes).map_or(0, |v| v.len()),
            "serde-person" => {
                serde_json::from_slice::<Vec<quarry_corpus_gen::shapes::Person>>(&bytes)
                    .map_or(0, |v| v.len())
            }
            "sonic-value" => sonic_rs::from_slice::<sonic_rs::Value>(&bytes)
                .map_or(0, |v| usize::from(sonic_rs::JsonValueTrait::is_object(&v))),
            "serde-value" => serde_json::from_slice::<serde_json::Value>(&bytes)
                .map_or(0, |v| v.is_object() as usize),
            other => panic!("unknown arm {other}"),
        };
    }
    println!("{sink}");
}
