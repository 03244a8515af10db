//! Runs one arm of the layered-config contest in a loop, for a profiler:
//! `profile_config ARM [ITERATIONS]` with ARM one of quarry, figment, config-rs. The
//! layers are the contest's: the corpus's config document as TOML, a YAML file over it,
//! and three environment variables.

use quarry_benches::contests::{
    config_by_config_rs, config_by_figment, config_by_quarry, set_config_variables,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let arm = args.next().expect("ARM");
    let iterations: usize = args
        .next()
        .map_or(20_000, |n| n.parse().expect("ITERATIONS"));
    let base = quarry_corpus_gen::toml_corpus()
        .into_iter()
        .find(|doc| doc.name == "config")
        .expect("the corpus's config document")
        .bytes;
    let base = String::from_utf8(base).expect("UTF-8");
    set_config_variables();
    let load = match arm.as_str() {
        "quarry" => config_by_quarry,
        "figment" => config_by_figment,
        "config-rs" => config_by_config_rs,
        other => panic!("unknown arm {other}"),
    };
    let mut sink = 0usize;
    for _ in 0..iterations {
        sink += load(&base).map_or(0, |c| usize::from(c.http.port == 9000));
    }
    assert_eq!(sink, iterations, "every load read the three layers");
}
