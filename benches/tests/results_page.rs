//! RESULTS.md and `results/` are what bench-report renders from the saved runs: a figure
//! typed by hand, or a template change not rendered, fails here.

use quarry_benches::page::render;
use quarry_benches::report::{repository, Run};

#[test]
fn the_results_page_is_rendered_from_the_saved_runs() {
    let native = Run::load("native").expect("results/native.tsv is saved");
    let portable = Run::load("portable");
    let (files, warnings) = render(&native, portable.as_ref());
    assert_eq!(warnings, Vec::<String>::new(), "every loss has a reason");
    for (path, expected) in files {
        let written = std::fs::read_to_string(repository().join(&path)).unwrap_or_default();
        assert!(
            written == expected,
            "{path} differs from what `bench-report --render` writes: run it"
        );
    }
}

#[test]
fn the_results_page_stays_a_page() {
    let page = std::fs::read_to_string(repository().join("RESULTS.md")).unwrap();
    let lines = page.lines().count();
    assert!(
        lines <= 400,
        "RESULTS.md has {lines} lines; per-input tables go to results/"
    );
}
