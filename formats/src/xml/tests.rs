use super::*;

/// Prints the verdict for each file in `XML_DEBUG` (space separated); a debugging aid.
#[test]
#[ignore]
fn debug_files() {
    let files = std::env::var("XML_DEBUG").unwrap_or_default();
    for f in files.split_whitespace() {
        let bytes = std::fs::read(f).unwrap();
        match parse(&bytes) {
            Ok(v) => println!("{f}: ok {v:?}"),
            Err(e) => println!("{f}: {e}"),
        }
    }
}
