//! What the three plist fuzz targets share: run one reader through both doors and the
//! validator, check they agree, and check that what parses writes back to itself.

use quarry_formats::common::{Limits, TreeNode};
use quarry_formats::plist::{self, PlistBuilder, PlistFormat, RawValueBuilder, TreeBuilder};
use quarry_raw_value::{Datetime, RawValue};

#[path = "same.rs"]
mod same;

/// Equality where NaN equals NaN and dates may differ below what a binary plist's f64
/// seconds hold (about 30 µs at year 9999).
pub fn same(a: &RawValue<'_>, b: &RawValue<'_>) -> bool {
    same::same_by(a, b, &|a, b| match (a, b) {
        (RawValue::Datetime(x), RawValue::Datetime(y)) => Some(close(x, y)),
        _ => same::floats(a, b),
    })
}

fn close(a: &Datetime, b: &Datetime) -> bool {
    match (plist::unix_time(a), plist::unix_time(b)) {
        (Some((sa, na)), Some((sb, nb))) => {
            let d = (i128::from(sa) * 1_000_000_000 + i128::from(na))
                - (i128::from(sb) * 1_000_000_000 + i128::from(nb));
            d.abs() < 100_000
        }
        _ => a == b,
    }
}

/// The value as OpenStep reads it back, when OpenStep can hold it.
fn as_openstep<'a>(v: &RawValue<'a>) -> Option<RawValue<'a>> {
    Some(match v {
        RawValue::String(s) | RawValue::Text(s) => RawValue::Text(s.clone()),
        RawValue::Bytes(b) => RawValue::Bytes(b.clone()),
        RawValue::Seq(items) => {
            RawValue::Seq(items.iter().map(as_openstep).collect::<Option<_>>()?)
        }
        RawValue::Map(entries) => RawValue::Map(
            entries
                .iter()
                .map(|(k, v)| Some((k.clone(), as_openstep(v)?)))
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}

fn through<'a, B: PlistBuilder<'a>>(
    format: PlistFormat,
    data: &'a [u8],
    builder: &mut B,
) -> Result<B::Value, plist::Error> {
    let limits = Limits::default();
    match format {
        PlistFormat::Xml => plist::parse_xml_with(data, builder, limits),
        PlistFormat::Binary => plist::parse_binary_with(data, builder, limits),
        PlistFormat::OpenStep => plist::parse_openstep_with(data, builder, limits),
    }
}

/// Runs `data` through the reader of `format`.
pub fn run(format: PlistFormat, data: &[u8]) {
    let mut raw_builder = if format == PlistFormat::OpenStep {
        RawValueBuilder::untyped()
    } else {
        RawValueBuilder::default()
    };
    let raw = through(format, data, &mut raw_builder);
    let mut tree_builder = TreeBuilder::default();
    let tree =
        through(format, data, &mut tree_builder).map(|root| tree_builder.finish(root, format));
    let check = through(format, data, &mut ());
    assert_eq!(raw.is_ok(), tree.is_ok());
    assert_eq!(raw.is_ok(), check.is_ok());
    if plist::detect(data) == format {
        assert_eq!(plist::parse(data).is_ok(), raw.is_ok());
    }
    match (raw, tree) {
        (Ok(raw), Ok(tree)) => {
            assert!(same(&tree.to_raw_value(), &raw));
            let _ = tree
                .root()
                .lookup(&quarry_raw_value::Path::parse("a[0].b").unwrap());
            // Binary holds every value a plist reader returns.
            let binary = plist::to_vec_binary(&raw).expect("a parsed plist writes as binary");
            let back = plist::parse(&binary).expect("written binary parses");
            if format == PlistFormat::OpenStep {
                assert!(same(
                    &as_openstep(&back).expect("strings and data only"),
                    &raw
                ));
            } else {
                assert!(same(&back, &raw));
            }
            // XML refuses only text XML cannot carry (control characters from binary
            // strings or OpenStep escapes).
            match plist::to_vec_xml(&raw) {
                Ok(xml) => {
                    let back = plist::parse(&xml).expect("written XML parses");
                    if format == PlistFormat::OpenStep {
                        assert!(same(
                            &as_openstep(&back).expect("strings and data only"),
                            &raw
                        ));
                    } else {
                        assert!(same(&back, &raw), "{}", String::from_utf8_lossy(&xml));
                    }
                }
                Err(e) => assert!(format != PlistFormat::Xml, "{e}"),
            }
            let openstep = plist::to_vec_openstep(&raw).expect("a parsed plist writes as OpenStep");
            let back = plist::parse(&openstep).expect("written OpenStep parses");
            if let Some(expected) = as_openstep(&raw) {
                assert!(
                    same(&back, &expected),
                    "{}",
                    String::from_utf8_lossy(&openstep)
                );
            }
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            let _ = a.to_string();
            let _ = quarry_formats::common::render_snippet(data, a.position());
        }
        _ => unreachable!(),
    }
}
