//! Shared helpers of quarry's benchmarks: where the corpus lives and how to load it.

use std::path::{Path, PathBuf};

pub mod chart;
pub mod contests;
pub mod page;
pub mod report;
pub mod shapes;

/// The real-world corpus shipped in the repository (`testdata/corpus`).
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus")
}

/// Every file of `format`'s folder in the corpus, as `(file name, bytes)`, sorted.
pub fn corpus_files(format: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir().join(format);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable corpus entry").path())
        .map(|path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}
