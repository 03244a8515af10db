//! Each format's side of the facade's functions, and the one `match` from a [`Format`] to
//! it. [`crate::parse_raw`], [`crate::check`], [`crate::from_slice`], [`crate::to_vec`]
//! and [`crate::locate`] (with `Spanned`'s places) are written once over [`FormatOps`]; a new format is one impl
//! here and one line in each arm of [`dispatch!`] (beside its `Format` and `ParseError`
//! variants).

#[cfg(feature = "json")]
use crate::json;
#[cfg(feature = "plist")]
use crate::plist;
#[cfg(feature = "toml")]
use crate::toml;
#[cfg(feature = "yaml")]
use crate::yaml;
use crate::{common, Decode, DecodeErrors, Encode, Error, Limits, PullSource, RawValue};
#[cfg(feature = "xml")]
use crate::{decode::DecodeOptions, xml};
use crate::{HasSpan, Position, Span, TreeNode, ValuePath};

/// Runs `$body` with `$ops` naming the [`FormatOps`] of `$format`, or `$fallback` for a
/// format this build leaves out (`dispatch!(format, F => F::check(bytes), other => ...)`);
/// with `error`, runs `$body` on the format's error inside a `ParseError`. The one list
/// of formats: every per-format `match` of the facade's root goes through here.
macro_rules! dispatch {
    ($format:expr, $ops:ident => $body:expr, $other:pat => $fallback:expr) => {
        match $format {
            #[cfg(feature = "json")]
            $crate::Format::Json => {
                type $ops = $crate::dispatch::Json;
                $body
            }
            #[cfg(feature = "json")]
            $crate::Format::Jsonc => {
                type $ops = $crate::dispatch::Jsonc;
                $body
            }
            #[cfg(feature = "yaml")]
            $crate::Format::Yaml => {
                type $ops = $crate::dispatch::Yaml;
                $body
            }
            #[cfg(feature = "toml")]
            $crate::Format::Toml => {
                type $ops = $crate::dispatch::Toml;
                $body
            }
            #[cfg(feature = "xml")]
            $crate::Format::Xml => {
                type $ops = $crate::dispatch::Xml;
                $body
            }
            #[cfg(feature = "plist")]
            $crate::Format::Plist => {
                type $ops = $crate::dispatch::Plist;
                $body
            }
            // Reachable when a format's feature is off.
            #[allow(unreachable_patterns)]
            $other => $fallback,
        }
    };
    (error $error:expr, $e:ident => $body:expr) => {
        match $error {
            #[cfg(feature = "json")]
            $crate::ParseError::Json($e) => $body,
            #[cfg(feature = "yaml")]
            $crate::ParseError::Yaml($e) => $body,
            #[cfg(feature = "toml")]
            $crate::ParseError::Toml($e) => $body,
            #[cfg(feature = "xml")]
            $crate::ParseError::Xml($e) => $body,
            #[cfg(feature = "plist")]
            $crate::ParseError::Plist($e) => $body,
        }
    };
}
pub(crate) use dispatch;

/// What the facade's root does with one format. Each function is the format's part of
/// the root function of the same name.
pub(crate) trait FormatOps {
    /// The document as a [`RawValue`].
    fn parse_raw(bytes: &[u8]) -> Result<RawValue<'_>, Error>;

    /// Checks the document, building nothing.
    fn check(bytes: &[u8]) -> Result<(), Error>;

    /// `T` read through the format's direct path, where it has one; `None` (no direct
    /// path, or any failure) sends the caller to [`FormatOps::decode`].
    #[inline]
    fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
        let _ = bytes;
        None
    }

    /// `T` decoded through the RawValue path: the outer error is the document's, the
    /// inner ones the value's.
    fn decode<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Result<Result<T, DecodeErrors>, Error> {
        Ok(T::decode(Self::parse_raw(bytes)?))
    }

    /// `value` encoded (pretty where the format has a choice).
    fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, Error>;

    /// The span, and the line and column where the document has lines, of the deepest
    /// node along each path, through the tree door; `None` when the document does not
    /// parse.
    fn places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>>;

    /// The span, and the line and column where the document has lines, of the key each
    /// path ends with (the first entry of that key in the map the rest of the path leads
    /// to), through the tree door; `None` when the document does not parse.
    fn key_places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>>;
}

/// Decodes one `T` from `source` and checks that the document ended there.
///
/// The source is read and finished where it was built, inside its `Result`: moved out
/// first, a source of several hundred bytes would be copied for every document.
#[inline]
fn pull<'de, T: Decode<'de>, S: PullSource<'de>, E>(mut source: Result<S, E>) -> Option<T> {
    let source = source.as_mut().ok()?;
    let value = T::decode_direct(source).ok()?;
    source.finish().ok()?;
    Some(value)
}

/// A node's span, and its line and column where the document has lines.
pub(crate) type Located = (Span, Option<Position>);

/// The span (and line, where `lines`) of the deepest node along each path from `root`, in
/// the text `src` the tree's spans refer to.
fn places_in<'d, N: TreeNode<'d>>(
    root: N,
    src: &[u8],
    paths: &[ValuePath],
    lines: bool,
) -> Vec<Option<Located>> {
    paths
        .iter()
        .map(|path| {
            let span = root.lookup_prefix(path).0.span();
            let position = lines.then(|| common::position_at(src, span.start));
            Some((span, position))
        })
        .collect()
}

/// The span (and line, where `lines`) of the key each path ends with: `parent` leads to
/// the map the path's other segments name, `key_span` finds the key's span in it.
fn key_places_in<N>(
    src: &[u8],
    paths: &[ValuePath],
    lines: bool,
    parent: impl Fn(&ValuePath) -> Option<N>,
    key_span: impl Fn(N, &str) -> Option<Span>,
) -> Vec<Option<Located>> {
    paths
        .iter()
        .map(|path| {
            let (crate::decode::Segment::Key(key), rest) = path.segments.split_last()? else {
                return None;
            };
            let map = parent(&ValuePath {
                segments: rest.to_vec(),
            })?;
            let span = key_span(map, key)?;
            let position = lines.then(|| common::position_at(src, span.start));
            Some((span, position))
        })
        .collect()
}

/// [`key_places_in`] for a tree whose entries' keys are [`common::EntryKey`]s.
#[cfg(any(feature = "json", feature = "toml", feature = "plist"))]
fn entry_key_places<'d, N>(
    root: N,
    src: &[u8],
    paths: &[ValuePath],
    lines: bool,
) -> Vec<Option<Located>>
where
    N: TreeNode<'d, Key = common::EntryKey<'d>, Target = N>,
{
    key_places_in(
        src,
        paths,
        lines,
        |path| root.lookup(path),
        |map, key| {
            map.entries()
                .find(|(k, _)| k.name == key)
                .map(|(k, _)| k.span)
        },
    )
}

/// Strict JSON.
#[cfg(feature = "json")]
pub(crate) struct Json;

#[cfg(feature = "json")]
impl FormatOps for Json {
    fn parse_raw(bytes: &[u8]) -> Result<RawValue<'_>, Error> {
        Ok(json::parse(bytes)?)
    }

    fn check(bytes: &[u8]) -> Result<(), Error> {
        Ok(json::check(bytes)?)
    }

    #[inline]
    fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
        pull(json::DirectSource::new(bytes, Limits::default()))
    }

    fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
        Ok(json::to_vec_pretty(value)?)
    }

    fn places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        Some(places_in(
            json::parse_tree(bytes).ok()?.root(),
            bytes,
            paths,
            true,
        ))
    }

    fn key_places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let tree = json::parse_tree(bytes).ok()?;
        Some(entry_key_places(tree.root(), bytes, paths, true))
    }
}

/// JSON with comments and trailing commas, written as JSON (which every JSONC reader
/// reads: a value holds no comments).
#[cfg(feature = "json")]
pub(crate) struct Jsonc;

#[cfg(feature = "json")]
impl FormatOps for Jsonc {
    fn parse_raw(bytes: &[u8]) -> Result<RawValue<'_>, Error> {
        Ok(json::parse_jsonc(bytes)?)
    }

    fn check(bytes: &[u8]) -> Result<(), Error> {
        Ok(json::check_jsonc(bytes)?)
    }

    #[inline]
    fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
        pull(json::DirectSource::jsonc(bytes, Limits::default()))
    }

    fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
        Ok(json::to_vec_pretty(value)?)
    }

    fn places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        Some(places_in(
            json::parse_tree_jsonc(bytes).ok()?.root(),
            bytes,
            paths,
            true,
        ))
    }

    fn key_places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let tree = json::parse_tree_jsonc(bytes).ok()?;
        Some(entry_key_places(tree.root(), bytes, paths, true))
    }
}

/// YAML: a stream of at most one document, located in its first.
#[cfg(feature = "yaml")]
pub(crate) struct Yaml;

#[cfg(feature = "yaml")]
impl FormatOps for Yaml {
    fn parse_raw(bytes: &[u8]) -> Result<RawValue<'_>, Error> {
        Ok(yaml::parse(bytes)?)
    }

    fn check(bytes: &[u8]) -> Result<(), Error> {
        Ok(yaml::check(bytes)?)
    }

    #[inline]
    fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
        pull(yaml::DirectSource::new(bytes, Limits::default()))
    }

    fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
        Ok(yaml::to_vec(value)?)
    }

    fn places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let stream = yaml::parse_tree(bytes).ok()?;
        Some(places_in(stream.document(0)?.root(), bytes, paths, true))
    }

    fn key_places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let stream = yaml::parse_tree(bytes).ok()?;
        let root = stream.document(0)?.root();
        Some(key_places_in(
            bytes,
            paths,
            true,
            |path| root.lookup(path),
            |map, key| yaml_key_span(map, key, 0),
        ))
    }
}

/// The span of `key` in the YAML map `map`: its own entry's key, or one a merge key
/// (`<<`) brings in, looked for as the struct door merges them.
#[cfg(feature = "yaml")]
fn yaml_key_span(map: yaml::Node<'_, '_>, key: &str, depth: usize) -> Option<Span> {
    // Merge keys may lead back through aliases; a bound keeps a cycle finite.
    if depth > 64 {
        return None;
    }
    let map = map.resolve();
    if let Some((k, _)) = map
        .entries()
        .find(|(k, _)| k.resolve().as_str() == Some(key))
    {
        return Some(k.span());
    }
    map.entries()
        .filter(|(k, _)| {
            k.scalar_style() == Some(yaml::ScalarStyle::Plain)
                && k.as_str() == Some("<<")
                && k.tag().is_none()
        })
        .find_map(|(_, v)| {
            let v = v.resolve();
            match v.kind() {
                yaml::NodeKind::Mapping => yaml_key_span(v, key, depth + 1),
                yaml::NodeKind::Sequence => {
                    v.items().find_map(|m| yaml_key_span(m, key, depth + 1))
                }
                _ => None,
            }
        })
}

/// TOML.
#[cfg(feature = "toml")]
pub(crate) struct Toml;

#[cfg(feature = "toml")]
impl FormatOps for Toml {
    fn parse_raw(bytes: &[u8]) -> Result<RawValue<'_>, Error> {
        Ok(toml::parse(bytes)?)
    }

    fn check(bytes: &[u8]) -> Result<(), Error> {
        Ok(toml::check(bytes)?)
    }

    #[inline]
    fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
        pull(toml::DirectSource::new(bytes, Limits::default()))
    }

    fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
        Ok(toml::to_vec(value)?)
    }

    fn places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        Some(places_in(
            toml::parse_tree(bytes).ok()?.root(),
            bytes,
            paths,
            true,
        ))
    }

    fn key_places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let tree = toml::parse_tree(bytes).ok()?;
        Some(entry_key_places(tree.root(), bytes, paths, true))
    }
}

/// XML: a struct decodes from the root element itself, as quick-xml's serde does, and
/// under XML's rule for sequences (one child is a one-element `Vec`), on both paths.
#[cfg(feature = "xml")]
pub(crate) struct Xml;

#[cfg(feature = "xml")]
impl FormatOps for Xml {
    fn parse_raw(bytes: &[u8]) -> Result<RawValue<'_>, Error> {
        Ok(xml::parse(bytes)?)
    }

    fn check(bytes: &[u8]) -> Result<(), Error> {
        Ok(xml::check(bytes)?)
    }

    /// The source decodes under `DecodeOptions::XML`.
    #[inline]
    fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
        pull(xml::DirectSource::new(bytes, Limits::default()))
    }

    fn decode<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Result<Result<T, DecodeErrors>, Error> {
        let root = xml::parse_root(bytes)?.1;
        Ok(T::decode_with_options(root, DecodeOptions::XML))
    }

    /// A value that encodes as a one-entry map is the document (its key names the root
    /// element); anything else is written under a root element named `root`.
    fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
        let raw = value.to_raw_value()?;
        match &raw {
            RawValue::Map(entries) if entries.len() == 1 => Ok(xml::to_vec_pretty(&raw)?),
            _ => Ok(xml::to_string_pretty_with_root(&raw, "root")?.into_bytes()),
        }
    }

    /// Paths start below the root element; spans refer to the UTF-8 text the parser read
    /// (transcoded from UTF-16).
    fn places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let doc = xml::parse_tree(bytes).ok()?;
        Some(places_in(
            doc.root_element(),
            doc.source().as_bytes(),
            paths,
            true,
        ))
    }

    fn key_places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let doc = xml::parse_tree(bytes).ok()?;
        let root = doc.root_element();
        Some(key_places_in(
            doc.source().as_bytes(),
            paths,
            true,
            |path| match root.lookup(path)? {
                xml::Target::Node(node) => Some(node),
                xml::Target::Attribute(_) => None,
            },
            // An attribute's key is its name; a child element's, its tag name; the text's
            // (`$text`, written nowhere), the text itself.
            |element, key| match key.strip_prefix('@') {
                Some(name) => {
                    let attr = element.attributes().find(|a| a.name() == name)?;
                    let start = attr.span().start;
                    Some(Span::new(start, start + name.len()))
                }
                None if key == "$text" => {
                    element.children().find(|c| c.is_text()).map(|t| t.span())
                }
                None => element
                    .entries()
                    .find(|(k, _)| k.name == key)
                    .map(|(k, _)| k.span),
            },
        ))
    }
}

/// Property lists: the direct path reads binary ones; a binary plist's nodes sit at
/// object offsets, which have no line.
#[cfg(feature = "plist")]
pub(crate) struct Plist;

#[cfg(feature = "plist")]
impl FormatOps for Plist {
    fn parse_raw(bytes: &[u8]) -> Result<RawValue<'_>, Error> {
        Ok(plist::parse(bytes)?)
    }

    fn check(bytes: &[u8]) -> Result<(), Error> {
        Ok(plist::check(bytes)?)
    }

    #[inline]
    fn decode_direct<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
        if plist::detect(bytes) != plist::PlistFormat::Binary {
            return None;
        }
        pull(plist::DirectSource::new(bytes, Limits::default()))
    }

    fn to_vec<T: Encode + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
        Ok(plist::to_vec_xml(value)?)
    }

    fn places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let binary = plist::detect(bytes) == plist::PlistFormat::Binary;
        Some(places_in(
            plist::parse_tree(bytes).ok()?.root(),
            bytes,
            paths,
            !binary,
        ))
    }

    fn key_places(bytes: &[u8], paths: &[ValuePath]) -> Option<Vec<Option<Located>>> {
        let binary = plist::detect(bytes) == plist::PlistFormat::Binary;
        let tree = plist::parse_tree(bytes).ok()?;
        Some(entry_key_places(tree.root(), bytes, paths, !binary))
    }
}
