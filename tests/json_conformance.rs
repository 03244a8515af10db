//! JSONTestSuite (testdata/suites/json): every `y_` file parses, every `n_` file
//! is rejected, every `i_` file finishes without panic or hang and gets the verdict
//! recorded in tests/conformance/json-implementation-defined.txt.

mod support;

use std::path::{Path, PathBuf};

use quarry::json;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/suites/json/test_parsing")
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Accepted,
    Rejected,
    Panicked,
}

/// Runs both doors and the validator on `bytes`, guarded (a panic or a hang is
/// `Panicked`). The three must agree.
fn run_case(bytes: Vec<u8>) -> Outcome {
    let accepted = support::guarded(20, move || {
        let raw = json::parse(&bytes);
        let tree = json::parse_tree(&bytes);
        let check = json::check(&bytes);
        assert_eq!(raw.is_ok(), tree.is_ok(), "doors disagree");
        assert_eq!(raw.is_ok(), check.is_ok(), "validator disagrees");
        if let (Ok(raw), Ok(tree)) = (&raw, &tree) {
            assert_eq!(
                &tree.root().to_raw_value(),
                raw,
                "doors build different values"
            );
        }
        if let (Err(a), Err(b)) = (&raw, &tree) {
            assert_eq!(a, b, "doors report different errors");
        }
        raw.is_ok()
    });
    match accepted {
        Some(true) => Outcome::Accepted,
        Some(false) => Outcome::Rejected,
        None => Outcome::Panicked,
    }
}

#[test]
fn json_test_suite() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .expect("testdata/suites/json/test_parsing must exist in the repository")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let recorded = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/conformance/json-implementation-defined.txt"),
    )
    .unwrap();
    let recorded: Vec<(&str, &str)> = recorded
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_once(' ').expect("`NAME accept|reject` per line"))
        .collect();

    let (mut y, mut y_ok, mut n, mut n_ok, mut i, mut i_accepted, mut i_rejected) =
        (0, 0, 0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let outcome = run_case(std::fs::read(path).unwrap());
        if outcome == Outcome::Panicked {
            failures.push(format!("{name}: panicked"));
            continue;
        }
        match &name[..2] {
            "y_" => {
                y += 1;
                if outcome == Outcome::Accepted {
                    y_ok += 1;
                } else {
                    failures.push(format!("{name}: rejected"));
                }
            }
            "n_" => {
                n += 1;
                if outcome == Outcome::Rejected {
                    n_ok += 1;
                } else {
                    failures.push(format!("{name}: accepted"));
                }
            }
            "i_" => {
                i += 1;
                let verdict = if outcome == Outcome::Accepted {
                    i_accepted += 1;
                    "accept"
                } else {
                    i_rejected += 1;
                    "reject"
                };
                match recorded.iter().find(|(case, _)| *case == name) {
                    Some((_, expected)) if *expected == verdict => {}
                    Some((_, expected)) => {
                        failures.push(format!("{name}: {verdict}ed, recorded as {expected}"))
                    }
                    None => failures.push(format!("{name}: {verdict}ed, not recorded")),
                }
            }
            _ => {}
        }
    }
    println!("JSONTestSuite: y {y_ok}/{y} accepted, n {n_ok}/{n} rejected, i {i} without panic ({i_accepted} accepted, {i_rejected} rejected)");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((y, n, i), (95, 188, 35), "the suite's size changed");
    assert_eq!(recorded.len(), 35);
}
