//! serde types on the direct path: a type that derives only `Deserialize` reads the same
//! straight from JSON or YAML bytes as through the RawValue bridge, and the facade never
//! panics. The first byte picks the format.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use quarry::pull::PullSource;
use quarry::{Decode, Format, Limits, RawValue, Serde};
use serde::Deserialize;

#[derive(Deserialize, Debug, PartialEq)]
struct Doc {
    name: Option<String>,
    ratio: Option<f64>,
    #[serde(default)]
    samples: Vec<f32>,
    #[serde(default)]
    ids: BTreeMap<u64, String>,
    #[serde(default)]
    offsets: BTreeMap<i8, bool>,
    #[serde(default)]
    flags: BTreeMap<bool, u8>,
    kind: Option<Kind>,
    #[serde(default)]
    values: Vec<Value>,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Deserialize, Debug, PartialEq)]
enum Kind {
    Plain,
    Sized(u16),
    Box { w: f64, h: f64 },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Value {
    Flag(bool),
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<Value>),
}

/// `Doc` read by the direct path alone, `None` where it gives up.
fn direct<'de>(mut source: impl PullSource<'de>) -> Option<Doc> {
    let Serde(doc) = Serde::<Doc>::decode_direct(&mut source).ok()?;
    source.finish().ok()?;
    Some(doc)
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    let format = if pick & 1 == 0 { Format::Json } else { Format::Yaml };
    let facade = quarry::from_slice::<Serde<Doc>>(data, format);
    let raw: Result<RawValue<'_>, _> = match format {
        Format::Json => quarry::json::parse(data).map_err(drop),
        _ => quarry::yaml::parse(data).map_err(drop),
    };
    let Ok(raw) = raw else {
        assert!(facade.is_err());
        return;
    };
    let via_raw = Serde::<Doc>::decode(raw).map(|Serde(doc)| doc);
    let directly = match format {
        Format::Json => quarry::json::DirectSource::new(data, Limits::default())
            .ok()
            .and_then(direct),
        _ => quarry::yaml::DirectSource::new(data, Limits::default())
            .ok()
            .and_then(direct),
    };
    // Compared as printed: YAML's `.nan` is a value both paths read, and NaN is not
    // equal to itself.
    let shown = |doc: Option<&Doc>| format!("{doc:?}");
    if let Some(directly) = &directly {
        assert_eq!(shown(Some(directly)), shown(via_raw.as_ref().ok()));
    }
    let facade = facade.ok().map(|Serde(doc)| doc);
    assert_eq!(shown(facade.as_ref()), shown(via_raw.as_ref().ok()));
});
