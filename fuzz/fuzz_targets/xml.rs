//! The XML parser through both doors and the validator: no panic, the three agree, the
//! tree converts to the same RawValue, and whatever parses writes back to itself (the
//! RawValue writer and the tree writer both).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry_formats::xml;

fuzz_target!(|data: &[u8]| {
    let raw = xml::parse(data);
    let tree = xml::parse_tree(data);
    let check = xml::check(data);
    assert_eq!(raw.is_ok(), tree.is_ok());
    assert_eq!(raw.is_ok(), check.is_ok());
    match (raw, tree) {
        (Ok(raw), Ok(tree)) => {
            assert_eq!(tree.to_raw_value(), raw);
            let written = xml::to_vec(&raw).expect("a parsed value writes");
            assert_eq!(xml::parse(&written).expect("written XML parses"), raw);
            let rewritten = tree.to_string();
            let again = xml::parse_tree(rewritten.as_bytes()).expect("the written tree parses");
            assert_eq!(again.to_raw_value(), raw);
            assert_eq!(again.to_string(), rewritten);
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            let _ = quarry_formats::common::render_snippet(data, a.position());
        }
        _ => unreachable!(),
    }
});
