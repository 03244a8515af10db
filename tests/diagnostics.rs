//! The `miette` feature: errors as diagnostics drawn with their document's lines.
#![cfg(feature = "miette")]

use miette::{Diagnostic, NarratableReportHandler};
use quarry::{Config, Format};

fn draw(diagnostic: &dyn Diagnostic) -> String {
    let mut out = String::new();
    NarratableReportHandler::new()
        .render_report(&mut out, diagnostic)
        .unwrap();
    out
}

#[derive(quarry::Decode, Debug)]
#[quarry(deny_unknown_fields)]
#[allow(dead_code)]
struct Database {
    #[quarry(range = 1..=65535)]
    port: u16,
    max_connections: u32,
}

#[derive(quarry::Decode, Debug)]
#[allow(dead_code)]
struct App {
    database: Database,
}

#[test]
fn parse_errors_are_labelled_at_their_position() {
    let text = "{\"a\": 1,,}";
    let err = quarry::from_str::<quarry::RawValue>(text, Format::Json).unwrap_err();
    let diagnosed = err.with_source("a.json", text);
    assert_eq!(
        diagnosed.code().unwrap().to_string(),
        "quarry::parse::UnexpectedCharacter"
    );
    let labels: Vec<_> = diagnosed.labels().unwrap().collect();
    assert_eq!(labels.len(), 1);
    assert_eq!(labels[0].offset(), 8);
    let drawn = draw(&diagnosed);
    assert!(drawn.contains("a.json"), "{drawn}");
}

#[test]
fn every_decode_error_gets_a_label_and_unknown_keys_a_suggestion() {
    let text = "[database]\nport = 70000\nmax_conections = 5\n";
    let err = quarry::from_str::<App>(text, Format::Toml).unwrap_err();
    let diagnosed = err.with_source("app.toml", text);
    assert_eq!(diagnosed.to_string(), "3 values do not fit the type");
    let labels: Vec<_> = diagnosed.labels().unwrap().collect();
    let offsets: Vec<usize> = labels.iter().map(|l| l.offset()).collect();
    // The bad port, the unknown key's value, and the table missing a field.
    assert!(
        offsets.contains(&text.find("70000").unwrap()),
        "{offsets:?}"
    );
    assert!(
        offsets.contains(&(text.find("= 5").unwrap() + 2)),
        "{offsets:?}"
    );
    let help = diagnosed.help().unwrap().to_string();
    assert!(help.contains("did you mean `max_connections`?"), "{help}");
    let drawn = draw(&diagnosed);
    assert!(drawn.contains("app.toml"), "{drawn}");
}

#[test]
fn config_errors_draw_each_problem_in_its_own_file() {
    let err = Config::new()
        .text(
            "base.toml",
            "[database]\nport = 70000\nmax_connections = 1\n",
            Format::Toml,
        )
        .text(
            "local.yaml",
            "database:\n  max_conections: 5\n",
            Format::Yaml,
        )
        .env_vars("APP", [("APP_DATABASE_MAX_CONNECTIONS", "lots")])
        .load::<App>()
        .unwrap_err();
    assert_eq!(err.problems().len(), 3);
    let related: Vec<&dyn Diagnostic> = err.related().unwrap().collect();
    assert_eq!(related.len(), 3);
    let names: Vec<String> = related.iter().map(|d| draw(*d)).collect();
    assert!(names[0].contains("base.toml"), "{}", names[0]);
    assert!(names[0].contains("70000"), "{}", names[0]);
    assert!(
        names
            .iter()
            .any(|n| n.contains("local.yaml") && n.contains("did you mean `max_connections`?")),
        "{names:#?}"
    );
    assert!(
        names
            .iter()
            .any(|n| n.contains("APP_DATABASE_MAX_CONNECTIONS")),
        "{names:#?}"
    );
    // The variable has no document to draw.
    assert!(related.iter().any(|d| d.source_code().is_none()));
}
