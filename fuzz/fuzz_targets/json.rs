//! The JSON parser through both doors and the validator: no panic, the three agree,
//! the tree converts to the same RawValue, every float is the one std's parse gives for
//! its text, and whatever parses writes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry_formats::json;

fuzz_target!(|data: &[u8]| {
    let raw = json::parse(data);
    let tree = json::parse_tree(data);
    let check = json::check(data);
    assert_eq!(raw.is_ok(), tree.is_ok());
    assert_eq!(raw.is_ok(), check.is_ok());
    match (raw, tree) {
        (Ok(raw), Ok(tree)) => {
            assert_eq!(tree.root().to_raw_value(), raw);
            for node in tree.descendants() {
                if let Some(json::Number::Float(f)) = node.as_number() {
                    let text = node.source_text();
                    let expected: f64 = text.parse().expect("a JSON number parses");
                    assert_eq!(f.to_bits(), expected.to_bits(), "{text}");
                }
            }
            let written = json::to_vec(&raw).expect("a parsed value writes");
            assert_eq!(json::parse(&written).expect("written JSON parses"), raw);
            let pretty = json::to_vec_pretty(&raw).expect("a parsed value writes");
            assert_eq!(json::parse(&pretty).expect("pretty JSON parses"), raw);
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            // Rendering the error never panics, whatever the position.
            let _ = quarry_formats::common::render_snippet(data, a.position());
        }
        _ => unreachable!(),
    }
});
