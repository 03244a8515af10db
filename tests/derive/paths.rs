//! Decoding through one path of one format: the RawValue path, the direct path (`None`
//! when it falls back), both compared, and the direct path kept from building RawValues.

use quarry::decode::DecodeOptions;
use quarry::pull::PullSource;
use quarry::{json, Decode, Encode, Format};

/// Decodes through the RawValue path only.
pub(crate) fn via_raw<'a, T: Decode<'a>>(src: &'a str) -> Result<T, quarry::DecodeErrors> {
    T::decode(json::parse(src.as_bytes()).expect("valid JSON"))
}

/// Decodes through the direct JSON path only (`None` when it falls back).
pub(crate) fn via_direct<'a, T: Decode<'a>>(src: &'a str) -> Option<T> {
    let mut parser = json::DirectSource::new(src.as_bytes(), quarry::Limits::default()).ok()?;
    let value = T::decode_direct(&mut parser).ok()?;
    parser.finish().ok()?;
    Some(value)
}

/// Decodes through the facade and renders every error, one per line.
pub(crate) fn errors<'a, T: Decode<'a> + std::fmt::Debug>(src: &'a str) -> String {
    quarry::from_str::<T>(src, Format::Json)
        .unwrap_err()
        .to_string()
}

pub(crate) fn encode<T: Encode>(value: &T) -> String {
    json::to_string(value).unwrap()
}

/// Both decode paths: the RawValue path's result, and the direct path agreeing with it
/// (it may fall back, never accept what the RawValue path rejects).
pub(crate) fn both_paths<'a, T: Decode<'a> + PartialEq + std::fmt::Debug>(
    src: &'a str,
) -> Result<T, String> {
    let raw = via_raw::<T>(src);
    let direct = via_direct::<T>(src);
    match &raw {
        Ok(value) => assert!(direct.as_ref().map_or(true, |d| d == value), "{src}"),
        Err(_) => assert_eq!(direct, None, "{src}: the direct path accepted it"),
    }
    raw.map_err(|e| e.to_string())
}

/// Reads `src` through TOML's direct path only (`None` when it falls back).
pub(crate) fn toml_direct<'a, T: Decode<'a>>(src: &'a str) -> Option<T> {
    let mut source =
        quarry::toml::DirectSource::new(src.as_bytes(), quarry::Limits::default()).unwrap();
    T::decode_direct(&mut source)
        .ok()
        .filter(|_| source.finish().is_ok())
}

/// Reads `src` through TOML's RawValue path only.
pub(crate) fn toml_raw<'a, T: Decode<'a> + std::fmt::Debug>(src: &'a str) -> T {
    T::decode(quarry::toml::parse(src.as_bytes()).unwrap()).unwrap()
}

/// XML's two paths for `T`, both under XML's rule for sequences as the facade runs them:
/// the RawValue path's result (from the root element), and the direct path's (`None`
/// when it falls back).
pub(crate) fn xml_paths<'a, T: Decode<'a>>(src: &'a str) -> (Result<T, String>, Option<T>) {
    let raw = quarry::xml::parse_root(src.as_bytes())
        .map_err(|e| e.to_string())
        .and_then(|(_, root)| {
            T::decode_with_options(root, DecodeOptions::XML).map_err(|e| e.to_string())
        });
    let direct = quarry::xml::DirectSource::new(src.as_bytes(), quarry::Limits::default())
        .ok()
        .and_then(|mut source| {
            let value = T::decode_direct(&mut source).ok()?;
            source.finish().ok()?;
            Some(value)
        });
    (raw, direct)
}

/// A source that cannot build a [`quarry::RawValue`]: through it, a decoder reads every
/// value directly or falls back.
struct NoRawValues<S>(S);

impl<'de, S: PullSource<'de>> PullSource<'de> for NoRawValues<S> {
    const GUESSES_IN_PLACE: bool = S::GUESSES_IN_PLACE;
    const TYPED_STRINGS: bool = S::TYPED_STRINGS;

    fn decode_options(&self) -> DecodeOptions {
        self.0.decode_options()
    }
    fn peek_token(&mut self) -> Result<quarry::pull::ValueKind, quarry::pull::Fallback> {
        self.0.peek_token()
    }
    fn read_null(&mut self) -> Result<(), quarry::pull::Fallback> {
        self.0.read_null()
    }
    fn read_bool(&mut self) -> Result<bool, quarry::pull::Fallback> {
        self.0.read_bool()
    }
    fn read_number(&mut self) -> Result<quarry::RawValue<'de>, quarry::pull::Fallback> {
        self.0.read_number()
    }
    fn read_i64(&mut self) -> Result<i64, quarry::pull::Fallback> {
        self.0.read_i64()
    }
    fn read_u64(&mut self) -> Result<u64, quarry::pull::Fallback> {
        self.0.read_u64()
    }
    fn read_str(&mut self) -> Result<quarry::pull::TextRef<'de, '_>, quarry::pull::Fallback> {
        self.0.read_str()
    }
    fn begin_array(&mut self) -> Result<(), quarry::pull::Fallback> {
        self.0.begin_array()
    }
    fn next_item(&mut self, first: bool) -> Result<bool, quarry::pull::Fallback> {
        self.0.next_item(first)
    }
    fn begin_object(&mut self) -> Result<(), quarry::pull::Fallback> {
        self.0.begin_object()
    }
    fn next_key(
        &mut self,
        first: bool,
    ) -> Result<Option<quarry::pull::TextRef<'de, '_>>, quarry::pull::Fallback> {
        self.0.next_key(first)
    }
    fn ignores_keys_but(&mut self, known: &'static [&'static str]) {
        self.0.ignores_keys_but(known);
    }
    fn skip_value(&mut self) -> Result<(), quarry::pull::Fallback> {
        self.0.skip_value()
    }
    fn read_raw(&mut self) -> Result<quarry::RawValue<'de>, quarry::pull::Fallback> {
        Err(quarry::pull::Fallback)
    }
    fn finish(&mut self) -> Result<(), quarry::pull::Fallback> {
        self.0.finish()
    }
}

/// Reads `T` through `source` without a RawValue (`None` when it falls back).
pub(crate) fn without_raw_values<'de, T: Decode<'de>, S: PullSource<'de>>(source: S) -> Option<T> {
    let mut source = NoRawValues(source);
    let value = T::decode_direct(&mut source).ok()?;
    source.finish().ok()?;
    Some(value)
}

/// JSON's direct path without RawValues, and its RawValue path (`None` for a fallback and
/// for an error).
pub(crate) fn json_paths<T: Decode<'static>>(src: &'static str) -> (Option<T>, Option<T>) {
    let source = json::DirectSource::new(src.as_bytes(), quarry::Limits::default()).unwrap();
    (without_raw_values::<T, _>(source), via_raw::<T>(src).ok())
}

/// TOML's direct path without RawValues, which must read `src` and agree with TOML's
/// RawValue path.
pub(crate) fn toml_read_without_raw_values<T>(src: &'static str) -> T
where
    T: Decode<'static> + PartialEq + std::fmt::Debug,
{
    let source = quarry::toml::DirectSource::new(src.as_bytes(), quarry::Limits::default());
    let direct = without_raw_values::<T, _>(source.unwrap()).expect("read directly");
    assert_eq!(direct, toml_raw::<T>(src));
    direct
}

/// YAML's direct path without RawValues, which must read `src` and agree with YAML's
/// RawValue path.
pub(crate) fn yaml_read_without_raw_values<T>(src: &'static str) -> T
where
    T: Decode<'static> + PartialEq + std::fmt::Debug,
{
    let source = quarry::yaml::DirectSource::new(src.as_bytes(), quarry::Limits::default());
    let direct = without_raw_values::<T, _>(source.unwrap()).expect("read directly");
    assert_eq!(
        direct,
        T::decode(quarry::yaml::parse(src.as_bytes()).unwrap()).unwrap()
    );
    direct
}

/// XML's direct path without RawValues (under XML's rule for sequences, which its
/// source reports).
pub(crate) fn xml_without_raw_values<T: Decode<'static>>(src: &'static str) -> Option<T> {
    let source = quarry::xml::DirectSource::new(src.as_bytes(), quarry::Limits::default());
    without_raw_values::<T, _>(source.unwrap())
}
