//! Writes quarry's generated benchmark corpus into a folder (default `corpus-out/`,
//! git-ignored): one file per shape and format. Deterministic: a fixed seed and no clock.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let out = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("corpus-out"), PathBuf::from);
    let dir = out.join("json");
    std::fs::create_dir_all(&dir)?;
    for doc in quarry_corpus_gen::json_corpus() {
        std::fs::write(dir.join(format!("{}.json", doc.name)), &doc.bytes)?;
    }
    println!("wrote the corpus to {}", dir.display());
    Ok(())
}
