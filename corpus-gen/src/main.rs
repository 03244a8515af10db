//! Writes quarry's generated benchmark corpus into a folder (default `corpus-out/`,
//! git-ignored): one file per shape and format. Deterministic: a fixed seed and no clock.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let out = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("corpus-out"), PathBuf::from);
    let formats = [
        ("json", quarry_corpus_gen::json_corpus()),
        ("toml", quarry_corpus_gen::toml_corpus()),
    ];
    for (format, docs) in formats {
        let dir = out.join(format);
        std::fs::create_dir_all(&dir)?;
        for doc in docs {
            std::fs::write(dir.join(format!("{}.{format}", doc.name)), &doc.bytes)?;
        }
    }
    println!("wrote the corpus to {}", out.display());
    Ok(())
}
