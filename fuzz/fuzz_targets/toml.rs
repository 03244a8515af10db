//! The TOML parser through both doors and the validator: no panic, the three agree,
//! the tree converts to the same RawValue, and whatever parses writes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry_formats::toml;
use quarry_raw_value::RawValue;

#[path = "same.rs"]
mod same;

/// Equality where NaN equals NaN (TOML has `nan`).
fn same(a: &RawValue<'_>, b: &RawValue<'_>) -> bool {
    same::same_by(a, b, &same::floats)
}

fuzz_target!(|data: &[u8]| {
    let raw = toml::parse(data);
    let tree = toml::parse_tree(data);
    let check = toml::check(data);
    assert_eq!(raw.is_ok(), tree.is_ok());
    assert_eq!(raw.is_ok(), check.is_ok());
    match (raw, tree) {
        (Ok(raw), Ok(tree)) => {
            assert!(same(&tree.to_raw_value(), &raw));
            let written = toml::to_vec(&raw).expect("a parsed document writes");
            let back = toml::parse(&written).expect("written TOML parses");
            assert!(same(&back, &raw), "{}", String::from_utf8_lossy(&written));
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            let _ = quarry_formats::common::render_snippet(data, a.position());
        }
        _ => unreachable!(),
    }
});
