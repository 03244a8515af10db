//! JSONC, the JSON parser's dialect with comments and trailing commas, through both doors,
//! the validator and the direct path: no panic; the doors and the validator agree; on
//! strict JSON, JSONC gives exactly what JSON gives; every comment the tree keeps is a
//! comment as written; and a derived type decodes the same directly and through RawValue.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry::{Decode, Format, Tree};
use quarry::pull::PullSource;
use quarry_formats::json;

#[derive(quarry::Decode, Debug, PartialEq)]
#[quarry(rename_all = "camelCase")]
struct Settings<'a> {
    name: &'a str,
    #[quarry(default)]
    ports: Vec<u16>,
    env: Option<Vec<(String, bool)>>,
    #[quarry(default)]
    nested: Option<Box<Settings<'a>>>,
}

fuzz_target!(|data: &[u8]| {
    let raw = json::parse_jsonc(data);
    let tree = json::parse_tree_jsonc(data);
    let check = json::check_jsonc(data);
    assert_eq!(raw.is_ok(), tree.is_ok());
    assert_eq!(raw.is_ok(), check.is_ok());
    // Whatever strict JSON reads, JSONC reads the same.
    if let Ok(strict) = json::parse(data) {
        assert_eq!(raw.as_ref().ok(), Some(&strict));
    }
    match (&raw, &tree) {
        (Ok(raw), Ok(tree)) => {
            assert_eq!(&tree.root().to_raw_value(), raw);
            let src = tree.source();
            let mut after = 0;
            for comment in Tree::comments(tree) {
                assert!(comment.span.start >= after, "comments in order, apart");
                after = comment.span.end;
                let written = comment.span.slice(src);
                assert!(written.starts_with("//") || written.starts_with("/*"));
                assert!(written.contains(comment.text));
            }
            // Written as JSON, it reads back the same, strictly.
            let written = json::to_vec(raw).expect("a parsed value writes");
            assert_eq!(&json::parse(&written).expect("written JSON parses"), raw);
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            assert_eq!(Some(a), check.as_ref().err());
            let _ = quarry_formats::common::render_snippet(data, a.position());
        }
        _ => unreachable!(),
    }
    // The struct door: the direct path never disagrees with RawValue.
    let facade = quarry::from_slice::<Settings>(data, Format::Jsonc);
    let Ok(raw) = raw else {
        assert!(facade.is_err());
        return;
    };
    let via_raw = Settings::decode(raw);
    let mut source = json::DirectSource::jsonc(data, quarry::Limits::default()).unwrap();
    let direct = Settings::decode_direct(&mut source)
        .ok()
        .filter(|_| source.finish().is_ok());
    if let Some(direct) = &direct {
        assert_eq!(Some(direct), via_raw.as_ref().ok());
    }
    assert_eq!(facade.ok(), via_raw.ok());
});
