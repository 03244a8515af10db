//! The YAML parser through both doors and the validator: no panic, the three agree on
//! every verdict (the RawValue path may also refuse what only it cannot hold), the tree
//! converts to the same RawValues, and whatever parses writes back (block and flow) to
//! the same values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry_formats::yaml::{self, ErrorKind, Options};
use quarry_formats::{Limits, TreeNode};
use quarry_raw_value::{base64, RawValue};

#[path = "same.rs"]
mod same;

/// Equality for values read back from the emitter: NaN equals NaN, and bytes (`!!binary`)
/// come back as their base64 text.
fn same(a: &RawValue<'_>, b: &RawValue<'_>) -> bool {
    same::same_by(a, b, &|a, b| match (a, b) {
        (RawValue::Float(x), RawValue::Float(y)) if x.is_nan() && y.is_nan() => Some(true),
        (RawValue::Bytes(x), RawValue::String(y)) => Some(base64::encode(x) == **y),
        _ => None,
    })
}

fuzz_target!(|data: &[u8]| {
    // A lower alias budget keeps each run quick; the limit logic is the same.
    let mut limits = Limits::default();
    limits.max_alias_expansion = 20_000;
    let options = Options::default().with_limits(limits);
    let raw = yaml::parse_stream_with_options(data, &options);
    let tree = yaml::parse_tree_with_limits(data, limits);
    let check = yaml::check_with_limits(data, limits);
    let single = yaml::parse_with_options(data, &options);
    assert_eq!(tree.is_ok(), check.is_ok());
    match (&raw, &tree) {
        (Ok(_), Err(e)) => panic!("only the tree door rejects: {e}"),
        (Err(e), Ok(_)) => assert!(
            matches!(
                e.kind(),
                ErrorKind::ComplexKey | ErrorKind::InvalidTaggedScalar(_) | ErrorKind::InvalidMerge
            ),
            "only the RawValue path rejects: {e}"
        ),
        (Err(a), Err(b)) => {
            // The RawValue path may stop earlier, at something only it cannot hold.
            if !matches!(
                a.kind(),
                ErrorKind::ComplexKey | ErrorKind::InvalidTaggedScalar(_) | ErrorKind::InvalidMerge
            ) {
                assert_eq!(a, b);
            }
            let _ = quarry_formats::common::render_snippet(data, a.position());
        }
        (Ok(_), Ok(_)) => {}
    }
    if let (Ok(docs), Ok(single)) = (&raw, &single) {
        assert!(docs.len() <= 1);
        assert!(same(single, docs.first().unwrap_or(&RawValue::Null)));
    }
    if let (Ok(docs), Ok(tree)) = (raw, tree) {
        assert_eq!(docs.len(), tree.len());
        for (doc, node) in docs.iter().zip(tree.documents()) {
            let from_tree = node
                .to_raw_value_with_options(&options)
                .expect("the tree converts");
            assert!(same(&from_tree, doc));
            let _ = node.root().lookup_str("a.b[0]");
        }
        for doc in &docs {
            let block = yaml::to_vec(doc).expect("a parsed value writes");
            let back = yaml::parse_with_limits(&block, limits)
                .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&block)));
            assert!(same(doc, &back), "{}", String::from_utf8_lossy(&block));
            let flow = yaml::to_vec_flow(doc).expect("a parsed value writes");
            let back = yaml::parse_with_limits(&flow, limits)
                .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&flow)));
            assert!(same(doc, &back), "{}", String::from_utf8_lossy(&flow));
        }
    }
});
