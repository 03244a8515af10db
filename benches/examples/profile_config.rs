//! Runs one arm of the layered-config contest in a loop, for a profiler:
//! `profile_config ARM [ITERATIONS]` with ARM one of quarry, figment, config-rs. The
//! layers are the contest's: the corpus's config document as TOML, a YAML file over it,
//! and three environment variables.

use quarry::Format;
use quarry_corpus_gen::shapes::Config;

const OVERRIDES: &str =
    "http:\n  port: 8081\n  workers: 24\nlogging:\n  level: info\n  targets:\n    sqlx: warn\n";

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
    ] {
        std::env::set_var(name, value);
    }
    let mut sink = 0usize;
    for _ in 0..iterations {
        let config: Option<Config> = match arm.as_str() {
            "quarry" => quarry::Config::new()
                .text("base.toml", &base, Format::Toml)
                .text("local.yaml", OVERRIDES, Format::Yaml)
                .env("QAPP")
                .load()
                .ok(),
            "figment" => {
                use figment::providers::{Env, Format as _, Toml, Yaml};
                figment::Figment::new()
                    .merge(Toml::string(&base))
                    .merge(Yaml::string(OVERRIDES))
                    .merge(Env::prefixed("FAPP_").split("__"))
                    .extract()
                    .ok()
            }
            "config-rs" => {
                use config::{Environment, File, FileFormat};
                config::Config::builder()
                    .add_source(File::from_str(&base, FileFormat::Toml))
                    .add_source(File::from_str(OVERRIDES, FileFormat::Yaml))
                    .add_source(
                        Environment::with_prefix("CAPP")
                            .prefix_separator("_")
                            .separator("__"),
                    )
                    .build()
                    .and_then(config::Config::try_deserialize)
                    .ok()
            }
            other => panic!("unknown arm {other}"),
        };
        sink += config.map_or(0, |c| usize::from(c.http.port == 9000));
    }
    assert_eq!(sink, iterations, "every load read the three layers");
}
