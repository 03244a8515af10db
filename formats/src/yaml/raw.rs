//! The builder of the struct door: YAML to [`RawValue`] under the YAML 1.2 core schema.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use quarry_raw_value::{base64, RawValue};

use crate::common::Span;
use crate::common::{digits_value, fold_digits, fraction_after, plain_decimal};

use super::builder::{CollectionStyle, DocumentStart, Props, ScalarStyle, Tag, YamlBuilder};
use super::{ErrorKind, Options};

/// Builds one [`RawValue`] per document of a stream.
///
/// - Plain scalars resolve by the YAML 1.2 core schema: `null`, `Null`, `NULL`, `~`
///   and the empty scalar are null; `true`/`True`/`TRUE`/`false`/... are booleans;
///   decimal, `0o` octal and `0x` hex integers are integers (`i64`, `u64` above
///   `i64::MAX`, decimal text beyond); decimal floats and `.inf`, `-.inf`, `.nan`
///   (any of their three spellings) are floats. Anything else is a string, and so is
///   every quoted or block scalar.
/// - Explicit core tags are honoured: `!!str 123` is a string, `!!int "7"` an
///   integer, `!!binary` base64 text becomes bytes; a scalar that does not fit its
///   tag is an error. The non-specific tag `!` makes a scalar a string; other tags
///   (`!local`, `!!python/name:x`, `!!timestamp`, ...) are ignored: the scalar
///   resolves as if untagged.
/// - Aliases are resolved: `RawValue` owns its children in `Vec`s, so an alias is a
///   clone of its anchored value (the parser caps the total at
///   [`Limits::max_alias_expansion`](crate::Limits::max_alias_expansion)).
/// - Merge keys `<<` (a mapping, or a sequence of mappings) are applied when
///   [`Options::merge_keys`] is on: the mapping's own keys win, then earlier merged
///   mappings over later ones; merged entries take the place of the `<<` entry.
/// - Keys are strings: a scalar key keeps its text (`1: a` has the key `"1"`); a
///   collection as a key is [`ErrorKind::ComplexKey`].
#[derive(Debug, Default)]
pub struct RawValueBuilder<'a> {
    merge_keys: bool,
    single: bool,
    /// Items of open sequences, in one stack.
    items: Vec<RawValue<'a>>,
    /// Entries of open mappings, in one stack.
    members: Vec<(Cow<'a, str>, RawValue<'a>)>,
    frames: Vec<Frame<'a>>,
    /// Member indices (on `members`) of merge keys `<<`.
    merge_positions: Vec<usize>,
    anchors: HashMap<&'a str, RawValue<'a>>,
    documents: Vec<RawValue<'a>>,
    root: Option<RawValue<'a>>,
}

#[derive(Debug)]
struct Frame<'a> {
    map: bool,
    /// Where this collection's items (or members) start on their stack.
    start: usize,
    anchor: Option<&'a str>,
    /// A mapping's key whose value is being built.
    key: Option<Cow<'a, str>>,
    /// The pending key is a merge key.
    merge_key: bool,
    merges: bool,
}

impl<'a> RawValueBuilder<'a> {
    /// A builder for a whole stream under `options`.
    pub fn new(options: &Options) -> Self {
        RawValueBuilder {
            merge_keys: options.merge_keys,
            ..RawValueBuilder::default()
        }
    }

    /// A builder that accepts at most one document ([`ErrorKind::MultipleDocuments`] otherwise).
    pub fn single_document(options: &Options) -> Self {
        RawValueBuilder {
            merge_keys: options.merge_keys,
            single: true,
            ..RawValueBuilder::default()
        }
    }

    /// The documents built, in order.
    pub fn into_documents(self) -> Vec<RawValue<'a>> {
        self.documents
    }

    /// The value built at the top level, once its last event came (the direct path
    /// builds one collection at a time with it).
    pub(crate) fn take_root(&mut self) -> Option<RawValue<'a>> {
        self.root.take()
    }

    #[inline]
    fn in_key_position(&self) -> bool {
        match self.frames.last() {
            Some(frame) => frame.map && frame.key.is_none(),
            None => false,
        }
    }

    #[inline]
    fn push(&mut self, value: RawValue<'a>) {
        match self.frames.last_mut() {
            None => self.root = Some(value),
            Some(frame) if frame.map => {
                let key = frame.key.take().unwrap_or_default();
                if frame.merge_key {
                    frame.merge_key = false;
                    self.merge_positions.push(self.members.len());
                }
                self.members.push((key, value));
            }
            Some(_) => self.items.push(value),
        }
    }

    #[inline]
    fn set_key(&mut self, key: Cow<'a, str>) {
        if let Some(frame) = self.frames.last_mut() {
            frame.key = Some(key);
        }
    }

    fn open(&mut self, map: bool, anchor: Option<&'a str>) -> Result<(), ErrorKind> {
        if self.in_key_position() {
            return Err(ErrorKind::ComplexKey);
        }
        let start = if map {
            self.members.len()
        } else {
            self.items.len()
        };
        self.frames.push(Frame {
            map,
            start,
            anchor,
            key: None,
            merge_key: false,
            merges: false,
        });
        Ok(())
    }
}

impl<'a> YamlBuilder<'a> for RawValueBuilder<'a> {
    fn document_start(&mut self, _: DocumentStart) -> Result<(), ErrorKind> {
        if self.single && !self.documents.is_empty() {
            return Err(ErrorKind::MultipleDocuments);
        }
        self.anchors.clear();
        Ok(())
    }

    fn document_end(&mut self, _: bool, _: Span) -> Result<(), ErrorKind> {
        self.documents.push(self.root.take().unwrap_or_default());
        Ok(())
    }

    #[inline]
    fn scalar(
        &mut self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        _: Span,
    ) -> Result<(), ErrorKind> {
        if self.in_key_position() {
            if let Some(anchor) = props.anchor {
                let typed = resolve_scalar(value.clone(), style, props.tag.as_deref())?;
                self.anchors.insert(anchor, typed);
            }
            if self.merge_keys
                && style == ScalarStyle::Plain
                && props.tag.is_none()
                && value == "<<"
            {
                if let Some(frame) = self.frames.last_mut() {
                    frame.merge_key = true;
                    frame.merges = true;
                }
            }
            self.set_key(value);
            return Ok(());
        }
        let value = resolve_scalar(value, style, props.tag.as_deref())?;
        if let Some(anchor) = props.anchor {
            self.anchors.insert(anchor, value.clone());
        }
        self.push(value);
        Ok(())
    }

    fn sequence_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        self.open(false, props.anchor)
    }

    fn sequence_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        let frame = self.frames.pop().expect("balanced events");
        let value = RawValue::Seq(self.items.split_off(frame.start));
        if let Some(anchor) = frame.anchor {
            self.anchors.insert(anchor, value.clone());
        }
        self.push(value);
        Ok(())
    }

    fn mapping_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        self.open(true, props.anchor)
    }

    fn mapping_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        let frame = self.frames.pop().expect("balanced events");
        let mut entries = self.members.split_off(frame.start);
        if frame.merges {
            let mut merge_at = Vec::new();
            while let Some(&p) = self.merge_positions.last() {
                if p < frame.start {
                    break;
                }
                merge_at.push(p - frame.start);
                self.merge_positions.pop();
            }
            entries = merge(entries, &merge_at)?;
        }
        let value = RawValue::Map(entries);
        if let Some(anchor) = frame.anchor {
            self.anchors.insert(anchor, value.clone());
        }
        self.push(value);
        Ok(())
    }

    fn alias(&mut self, name: &'a str, _: Span) -> Result<(), ErrorKind> {
        let Some(value) = self.anchors.get(name).cloned() else {
            return Err(ErrorKind::UndefinedAlias(name.to_owned()));
        };
        if self.in_key_position() {
            let key = match value {
                RawValue::String(s) => s,
                RawValue::Null => Cow::Borrowed("null"),
                RawValue::Bool(b) => Cow::Borrowed(if b { "true" } else { "false" }),
                RawValue::Int(i) => Cow::Owned(i.to_string()),
                RawValue::UInt(u) => Cow::Owned(u.to_string()),
                RawValue::Float(f) => Cow::Owned(f.to_string()),
                RawValue::BigNumber(s) => s,
                _ => return Err(ErrorKind::ComplexKey),
            };
            self.set_key(key);
            return Ok(());
        }
        self.push(value);
        Ok(())
    }
}

/// Applies the merge keys at entry indices `merge_at` (in any order).
#[cold]
fn merge<'a>(
    entries: Vec<(Cow<'a, str>, RawValue<'a>)>,
    merge_at: &[usize],
) -> Result<Vec<(Cow<'a, str>, RawValue<'a>)>, ErrorKind> {
    let is_merge = |i: usize| merge_at.contains(&i);
    let mut seen: HashSet<Cow<'a, str>> = entries
        .iter()
        .enumerate()
        .filter(|(i, _)| !is_merge(*i))
        .map(|(_, (k, _))| k.clone())
        .collect();
    let mut out = Vec::with_capacity(entries.len());
    for (i, (key, value)) in entries.into_iter().enumerate() {
        if !is_merge(i) {
            out.push((key, value));
            continue;
        }
        let sources = match value {
            RawValue::Map(m) => vec![m],
            RawValue::Seq(items) => {
                let mut maps = Vec::with_capacity(items.len());
                for item in items {
                    match item {
                        RawValue::Map(m) => maps.push(m),
                        _ => return Err(ErrorKind::InvalidMerge),
                    }
                }
                maps
            }
            _ => return Err(ErrorKind::InvalidMerge),
        };
        for source in sources {
            for (k, v) in source {
                if seen.insert(k.clone()) {
                    out.push((k, v));
                }
            }
        }
    }
    Ok(out)
}

/// Resolves a scalar to a [`RawValue`] by its style and tag under the core schema.
pub fn resolve_scalar<'a>(
    value: Cow<'a, str>,
    style: ScalarStyle,
    tag: Option<&Tag<'_>>,
) -> Result<RawValue<'a>, ErrorKind> {
    if let Some(tag) = tag {
        if let Some(name @ ("str" | "null" | "bool" | "int" | "float" | "binary")) = tag.core_name()
        {
            return resolve_core_tag(value, name);
        }
        if tag.is_non_specific() {
            return Ok(RawValue::String(value));
        }
    }
    if style != ScalarStyle::Plain {
        return Ok(RawValue::String(value));
    }
    Ok(resolve_plain(value))
}

#[cold]
fn resolve_core_tag<'a>(value: Cow<'a, str>, name: &str) -> Result<RawValue<'a>, ErrorKind> {
    Ok(match name {
        "null" => match resolve_plain(value) {
            RawValue::Null => RawValue::Null,
            _ => return Err(ErrorKind::InvalidTaggedScalar("null")),
        },
        "bool" => match resolve_plain(value) {
            v @ RawValue::Bool(_) => v,
            _ => return Err(ErrorKind::InvalidTaggedScalar("bool")),
        },
        "int" => match resolve_plain(value) {
            v @ (RawValue::Int(_) | RawValue::UInt(_) | RawValue::BigNumber(_)) => v,
            _ => return Err(ErrorKind::InvalidTaggedScalar("int")),
        },
        "float" => match resolve_plain(value) {
            RawValue::Int(i) => RawValue::Float(i as f64),
            RawValue::UInt(u) => RawValue::Float(u as f64),
            v @ (RawValue::Float(_) | RawValue::BigNumber(_)) => v,
            _ => return Err(ErrorKind::InvalidTaggedScalar("float")),
        },
        "binary" => {
            let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
            match base64::decode(&compact) {
                Some(bytes) => RawValue::Bytes(Cow::Owned(bytes)),
                None => return Err(ErrorKind::InvalidTaggedScalar("binary")),
            }
        }
        _ => RawValue::String(value),
    })
}

/// Resolves an untagged plain scalar by the core schema.
#[inline]
pub(crate) fn resolve_plain(value: Cow<'_, str>) -> RawValue<'_> {
    let s: &str = &value;
    let Some(&first) = s.as_bytes().first() else {
        return RawValue::Null;
    };
    match first {
        b'~' if s.len() == 1 => RawValue::Null,
        b'n' | b'N' if matches!(s, "null" | "Null" | "NULL") => RawValue::Null,
        b't' | b'T' if matches!(s, "true" | "True" | "TRUE") => RawValue::Bool(true),
        b'f' | b'F' if matches!(s, "false" | "False" | "FALSE") => RawValue::Bool(false),
        b'0'..=b'9' | b'+' | b'-' | b'.' => match resolve_number(s) {
            Some(Number::Int(i)) => RawValue::Int(i),
            Some(Number::UInt(u)) => RawValue::UInt(u),
            Some(Number::Float(f)) => RawValue::Float(f),
            Some(Number::Big) => RawValue::BigNumber(value),
            None => RawValue::String(value),
        },
        _ => RawValue::String(value),
    }
}

/// A number the core schema reads from a plain scalar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Number {
    Int(i64),
    UInt(u64),
    Float(f64),
    /// Beyond 64 bits or `f64`: keep the text.
    Big,
}

/// A plain scalar that the core schema reads as a number, `None` for any other. The
/// usual shapes, an integer of up to 18 digits and a decimal of up to 19 with a digit
/// on each side of its point, are read in one pass over the digits; the rest by
/// [`resolve_number_by_grammar`].
#[inline]
pub(super) fn resolve_number(s: &str) -> Option<Number> {
    let b = s.as_bytes();
    let (negative, d) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    // Eight digits at a time, as the JSON and TOML lexers read them.
    let (int_end, v) = fold_digits(d, 0, 0);
    if int_end == d.len() && (1..=18).contains(&int_end) {
        // Up to 18 digits cannot overflow.
        let v = v as i64;
        return Some(Number::Int(if negative { -v } else { v }));
    }
    if (1..=18).contains(&int_end) && d[int_end..].first() == Some(&b'.') {
        if let Some((end, value)) = fraction_after(d, int_end, int_end, v) {
            if end == d.len() {
                return Some(Number::Float(if negative { -value } else { value }));
            }
        }
    }
    resolve_number_by_grammar(s)
}

/// [`resolve_number`] for every shape, by the core schema's patterns.
fn resolve_number_by_grammar(s: &str) -> Option<Number> {
    let b = s.as_bytes();
    let (sign, digits) = match b[0] {
        b'+' | b'-' => (b[0], &s[1..]),
        _ => (b'+', s),
    };
    let d = digits.as_bytes();
    if d.is_empty() {
        return None;
    }
    // Integers, of any length: `digits_value` folds them exactly or says they overflow.
    if d.iter().all(u8::is_ascii_digit) {
        return Some(match (digits_value(d), sign) {
            (Some(v), b'-') => 0i64
                .checked_sub_unsigned(v)
                .map_or(Number::Big, Number::Int),
            (Some(v), _) => i64::try_from(v).map_or(Number::UInt(v), Number::Int),
            (None, _) => Number::Big,
        });
    }
    if b[0] == b'0' && b.len() > 2 && (b[1] == b'o' || b[1] == b'x') {
        let radix = if b[1] == b'o' { 8 } else { 16 };
        let body = &s[2..];
        if !body.bytes().all(|c| (c as char).is_digit(radix)) {
            return None;
        }
        return match u64::from_str_radix(body, radix) {
            Ok(u) => Some(match i64::try_from(u) {
                Ok(i) => Number::Int(i),
                Err(_) => Number::UInt(u),
            }),
            Err(_) => None,
        };
    }
    // Infinity and NaN.
    if d[0] == b'.' {
        match digits {
            ".inf" | ".Inf" | ".INF" => {
                return Some(Number::Float(if sign == b'-' {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }))
            }
            ".nan" | ".NaN" | ".NAN" if s.len() == digits.len() => {
                return Some(Number::Float(f64::NAN))
            }
            _ => {}
        }
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let mut i = 0;
    let int_digits = d.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if d.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = d[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    } else if int_digits == 0 {
        return None;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(d.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(d.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = d[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return None;
        }
        i += exp;
    }
    if i != d.len() {
        return None;
    }
    if let Some(f) = plain_decimal(s) {
        return Some(Number::Float(f));
    }
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() => Some(Number::Float(f)),
        _ => Some(Number::Big),
    }
}

/// The RawValue builder for [`super::parse_stream_each`]: each document is handed to
/// `each` as soon as it ends, and dropped; `each` returning false stops the handing
/// (the rest of the stream is still read, for its errors).
pub(super) struct EachDocument<'a, F> {
    pub(super) inner: RawValueBuilder<'a>,
    pub(super) each: F,
    pub(super) stopped: bool,
}

impl<'a, F: FnMut(RawValue<'a>) -> bool> YamlBuilder<'a> for EachDocument<'a, F> {
    fn document_start(&mut self, start: DocumentStart) -> Result<(), ErrorKind> {
        self.inner.document_start(start)
    }

    fn document_end(&mut self, explicit: bool, span: Span) -> Result<(), ErrorKind> {
        self.inner.document_end(explicit, span)?;
        if let Some(document) = self.inner.documents.pop() {
            if !self.stopped {
                self.stopped = !(self.each)(document);
            }
        }
        Ok(())
    }

    #[inline]
    fn scalar(
        &mut self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        span: Span,
    ) -> Result<(), ErrorKind> {
        self.inner.scalar(value, style, props, span)
    }

    fn sequence_start(
        &mut self,
        style: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind> {
        self.inner.sequence_start(style, props, start)
    }

    fn sequence_end(&mut self, span: Span) -> Result<(), ErrorKind> {
        self.inner.sequence_end(span)
    }

    fn mapping_start(
        &mut self,
        style: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind> {
        self.inner.mapping_start(style, props, start)
    }

    fn mapping_end(&mut self, span: Span) -> Result<(), ErrorKind> {
        self.inner.mapping_end(span)
    }

    fn alias(&mut self, name: &'a str, span: Span) -> Result<(), ErrorKind> {
        self.inner.alias(name, span)
    }

    fn stream_end(&mut self) -> Result<(), ErrorKind> {
        self.inner.stream_end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> RawValue<'_> {
        resolve_plain(Cow::Borrowed(s))
    }

    proptest::proptest! {
        /// Integers of every length around twenty digits, with a sign or none and
        /// leading zeros: as std reads them, `i64` first, then `u64` without a `-`.
        #[test]
        fn long_integers_resolve_as_std_reads_them(sign in "[+-]?", zeros in 0usize..3, digits in "[1-9][0-9]{0,21}") {
            let text = format!("{sign}{}{digits}", "0".repeat(zeros));
            let expected = match (text.parse::<i64>(), text.trim_start_matches('+').parse::<u64>()) {
                (Ok(i), _) => Number::Int(i),
                (_, Ok(u)) if sign != "-" => Number::UInt(u),
                _ => Number::Big,
            };
            proptest::prop_assert_eq!(resolve_number(&text), Some(expected));
        }
    }

    #[test]
    fn core_schema_nulls_and_bools() {
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(s), RawValue::Null, "{s:?}");
        }
        for s in ["nULL", "none", "~~"] {
            assert_eq!(plain(s), RawValue::String(s.into()), "{s:?}");
        }
        for s in ["true", "True", "TRUE"] {
            assert_eq!(plain(s), RawValue::Bool(true));
        }
        for s in ["false", "False", "FALSE"] {
            assert_eq!(plain(s), RawValue::Bool(false));
        }
        for s in ["yes", "no", "on", "off", "tRUE", "y", "n"] {
            assert_eq!(plain(s), RawValue::String(s.into()), "{s:?}");
        }
    }

    #[test]
    fn core_schema_integers() {
        assert_eq!(plain("0"), RawValue::Int(0));
        assert_eq!(plain("-17"), RawValue::Int(-17));
        assert_eq!(plain("+17"), RawValue::Int(17));
        assert_eq!(plain("007"), RawValue::Int(7));
        assert_eq!(plain("0o17"), RawValue::Int(15));
        assert_eq!(plain("0x1F"), RawValue::Int(31));
        assert_eq!(plain("0xff"), RawValue::Int(255));
        assert_eq!(plain("18446744073709551615"), RawValue::UInt(u64::MAX));
        assert_eq!(
            plain("123456789012345678901234567890"),
            RawValue::BigNumber("123456789012345678901234567890".into())
        );
        for s in [
            "0o8", "0x", "0xg", "1_000", "0b101", "1,000", "-", "+", "12:30",
        ] {
            assert_eq!(plain(s), RawValue::String(s.into()), "{s:?}");
        }
    }

    #[test]
    fn core_schema_floats() {
        assert_eq!(plain("1.5"), RawValue::Float(1.5));
        assert_eq!(plain("-1.5e3"), RawValue::Float(-1500.0));
        assert_eq!(plain(".5"), RawValue::Float(0.5));
        assert_eq!(plain("1."), RawValue::Float(1.0));
        assert_eq!(plain("1e3"), RawValue::Float(1000.0));
        assert_eq!(plain("+.inf"), RawValue::Float(f64::INFINITY));
        assert_eq!(plain("-.Inf"), RawValue::Float(f64::NEG_INFINITY));
        assert_eq!(plain(".INF"), RawValue::Float(f64::INFINITY));
        assert!(matches!(plain(".nan"), RawValue::Float(f) if f.is_nan()));
        assert!(matches!(plain(".NaN"), RawValue::Float(f) if f.is_nan()));
        assert_eq!(plain("1e999"), RawValue::BigNumber("1e999".into()));
        for s in [
            ".",
            "1.2.3",
            "e3",
            "1e",
            ".e3",
            "-.nan",
            ".infinity",
            "1.0x",
            "inf",
            "nan",
        ] {
            assert_eq!(plain(s), RawValue::String(s.into()), "{s:?}");
        }
    }

    proptest::proptest! {
        /// The one-pass read of the usual shapes agrees with the core schema's
        /// patterns: signs, leading zeros, digits around the point and the 18- and
        /// 19-digit edges, and what may trail them.
        #[test]
        fn numbers_read_in_one_pass_as_by_the_grammar(
            sign in proptest::sample::select(vec!["", "-", "+"]),
            int in "[0-9]{0,21}",
            point in proptest::bool::ANY,
            frac in "[0-9]{0,21}",
            tail in proptest::sample::select(vec!["", "e5", "E-3", ".", "x", " ", "0"]),
        ) {
            let text = format!("{sign}{int}{}{frac}{tail}", if point { "." } else { "" });
            if !text.is_empty() {
                proptest::prop_assert_eq!(
                    resolve_number(&text),
                    resolve_number_by_grammar(&text),
                    "{:?}", text
                );
            }
        }
    }

    #[test]
    fn quoted_scalars_are_strings() {
        let v = resolve_scalar(Cow::Borrowed("1"), ScalarStyle::DoubleQuoted, None).unwrap();
        assert_eq!(v, RawValue::String("1".into()));
        let v = resolve_scalar(Cow::Borrowed("true"), ScalarStyle::Literal, None).unwrap();
        assert_eq!(v, RawValue::String("true".into()));
    }
}
