//! Writes quarry's generated benchmark corpus into a folder (default `corpus-out/`,
//! git-ignored): one file per shape and format. Deterministic: a fixed seed and no clock.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let out = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("corpus-out"), PathBuf::from);
    let formats = [
        ("json", "json", quarry_corpus_gen::json_corpus()),
        ("yaml", "yaml", quarry_corpus_gen::yaml_corpus()),
        ("toml", "toml", quarry_corpus_gen::toml_corpus()),
        ("xml", "xml", quarry_corpus_gen::xml_corpus()),
        ("plist-xml", "plist", quarry_corpus_gen::plist_xml_corpus()),
        (
            "plist-binary",
            "plist",
            quarry_corpus_gen::plist_binary_corpus(),
        ),
    ];
    for (folder, extension, docs) in formats {
        let dir = out.join(folder);
        std::fs::create_dir_all(&dir)?;
        for doc in docs {
            std::fs::write(dir.join(format!("{}.{extension}", doc.name)), &doc.bytes)?;
        }
    }
    println!("wrote the corpus to {}", out.display());
    Ok(())
}
