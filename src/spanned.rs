//! [`Spanned`]: a value that knows where it came from.
//!
//! The direct path asks the format's `PullSource` where the value starts and ends. The
//! RawValue path carries no positions, so where the target type holds a `Spanned` (its
//! [`Shape`] says where), the value at each such place is wrapped in a mark before it is
//! decoded: a map whose keys are one static string, recognised by its address (no
//! document can write it), holding the place and the value. Only `Spanned`'s decoder
//! sees a mark. Under an untagged enum, whose decoder picks a variant by trying each, the
//! value is held once per variant that holds a `Spanned`, each copy marked for that
//! variant's shape ([`VariantValues`]), so no variant meets a mark where it expects none.

use std::borrow::{Borrow, Cow};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

use crate::config::Origin;
use crate::decode::DecodeOptions;
use crate::decode::{DecodeErrorKind, DecodeKey};
use crate::encode::EncodeKey;
use crate::pull::{Fallback, ValueKind};
use crate::{
    Decode, DecodeErrors, Encode, EncodeError, Encoder, Format, Position, PullSource, RawValue,
    Segment, Shape, ShapeOf, Span, ValuePath,
};

/// A value and where it came from: a field type that decodes like `T` and also keeps
/// its place, as `serde_spanned::Spanned` does for serde.
///
/// - Read by [`from_slice`](crate::from_slice), [`from_path`](crate::from_path) or a
///   format's own functions, it has the value's byte [`span`](Spanned::span) in the
///   document and its line and column ([`position`](Spanned::position); a binary plist
///   has no lines). Spans are those of the format's tree: a JSON string's include its
///   quotes, an XML element's run from its start tag to its end tag, and XML that was
///   not UTF-8 is placed in the UTF-8 text it was read as.
/// - Loaded by [`Config`](crate::Config), it has its [`origin`](Spanned::origin): a
///   file with its line and column (and the span in that file), an environment
///   variable, a value set in code, or the default.
///
/// A value no document gave (a field's default) has the origin [`Origin::Default`] and
/// an empty span. `Spanned<T>` compares, orders and hashes as its value alone, encodes
/// as `T`, and has `T`'s JSON Schema.
///
/// It may sit anywhere in the target type: in an `Option`, a `Vec`, a map's values, a
/// flattened struct, map or enum, any enum (an untagged enum's variants included), and as a
/// map's key (`HashMap<Spanned<String>, V>`, `BTreeMap`), where it keeps the key's own
/// place (a JSON key with its quotes, an XML element's tag name or attribute's name, an
/// XML plist's `<key>` element); such a map is looked up by the key's value
/// (`map.get("name")`).
///
/// Validation that spans several fields, after decoding:
///
/// ```
/// use quarry::{Config, Format, Spanned};
///
/// #[derive(quarry::Decode)]
/// struct App {
///     web: Server,
///     admin: Server,
/// }
///
/// #[derive(quarry::Decode)]
/// struct Server {
///     port: Spanned<u16>,
/// }
///
/// let base = "[web]\nport = 8080\n\n[admin]\nport = 80\n";
/// let app: App = Config::new()
///     .text("config/base.toml", base, Format::Toml)
///     .env_vars("APP", [("APP_WEB_PORT", "80")])
///     .load()
///     .unwrap();
/// let (web, admin) = (&app.web.port, &app.admin.port);
/// if web == admin {
///     let message = format!(
///         "port {} is taken twice: {} and {}",
///         **web,
///         admin.origin().unwrap(),
///         web.origin().unwrap(),
///     );
///     assert_eq!(
///         message,
///         "port 80 is taken twice: config/base.toml:5:8 and environment variable APP_WEB_PORT"
///     );
/// }
/// ```
///
/// Through a document, the span and the line:
///
/// ```
/// use quarry::{Format, Spanned};
///
/// #[derive(quarry::Decode)]
/// struct Web {
///     host: Spanned<String>,
/// }
///
/// let text = "{\n  \"host\": \"example.org\"\n}";
/// let web: Web = quarry::from_str(text, Format::Json).unwrap();
/// assert_eq!(web.host.get_ref(), "example.org");
/// assert_eq!(&text[web.host.span().start..web.host.span().end], "\"example.org\"");
/// let at = web.host.position().unwrap();
/// assert_eq!((at.line, at.column), (2, 11));
/// ```
pub struct Spanned<T> {
    value: T,
    span: Span,
    position: Option<Position>,
    origin: Option<Box<Origin>>,
}

impl<T> Spanned<T> {
    /// `value` at `span`, with no line and no origin.
    pub fn new(span: Span, value: T) -> Self {
        Spanned {
            value,
            span,
            position: None,
            origin: None,
        }
    }

    /// A value no document gave: an empty span and the origin [`Origin::Default`].
    fn defaulted(value: T) -> Self {
        Spanned {
            value,
            span: Span::default(),
            position: None,
            origin: Some(Box::new(Origin::Default)),
        }
    }

    /// The value.
    pub fn get_ref(&self) -> &T {
        &self.value
    }

    /// The value, to change it (the place stays).
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.value
    }

    /// The value, unwrapped.
    pub fn into_inner(self) -> T {
        self.value
    }

    /// The bytes `start..end` the value covers in its document (through
    /// [`Config`](crate::Config), in the file that gave it).
    ///
    /// A value no document gave has the empty span `0..0` ([`Span::default`]): through
    /// `Config`, one from an environment variable, a secret file a `_FILE` variable
    /// named, [`Config::set`](crate::Config::set) or a default (its
    /// [`origin`](Spanned::origin) says which); and a `Spanned` made by
    /// [`Spanned::new`] has the span it was given. Tell an empty span from a value at
    /// the start of a document by [`position`](Spanned::position) or the origin.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The line and column where the value starts, when it came from a document with
    /// lines; `None` for a binary plist (it has none), for a value no document gave (an
    /// environment variable, a secret file, [`Config::set`](crate::Config::set), a
    /// default), and for a `Spanned` made by [`Spanned::new`].
    pub fn position(&self) -> Option<Position> {
        self.position
    }

    /// Where the value came from, when it was loaded by [`Config`](crate::Config) (and
    /// [`Origin::Default`] for a value no document or layer gave).
    pub fn origin(&self) -> Option<&Origin> {
        self.origin.as_deref()
    }
}

impl<T> Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Spanned<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> AsRef<T> for Spanned<T> {
    fn as_ref(&self) -> &T {
        &self.value
    }
}

impl<T> AsMut<T> for Spanned<T> {
    fn as_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl Borrow<str> for Spanned<String> {
    fn borrow(&self) -> &str {
        &self.value
    }
}

impl<T: Clone> Clone for Spanned<T> {
    fn clone(&self) -> Self {
        Spanned {
            value: self.value.clone(),
            span: self.span,
            position: self.position,
            origin: self.origin.clone(),
        }
    }
}

impl<T: Default> Default for Spanned<T> {
    fn default() -> Self {
        Spanned::defaulted(T::default())
    }
}

impl<T: fmt::Debug> fmt::Debug for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Spanned");
        s.field("value", &self.value)
            .field("span", &(self.span.start..self.span.end));
        if let Some(position) = &self.position {
            s.field("position", &format_args!("{position}"));
        }
        if let Some(origin) = &self.origin {
            s.field("origin", &format_args!("{origin}"));
        }
        s.finish()
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl<T: Hash> Hash for Spanned<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}

impl<T: PartialOrd> PartialOrd for Spanned<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.value.partial_cmp(&other.value)
    }
}

impl<T: Ord> Ord for Spanned<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.cmp(&other.value)
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Spanned<T> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Self::decode_with_options(value, DecodeOptions::STRICT)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        match take_mark(value) {
            Ok((place, value)) => T::decode_with_options(value, options).map(|value| Spanned {
                value,
                span: place.span,
                position: place.position,
                origin: place.origin.map(Box::new),
            }),
            // Read by a direct attempt's `read_raw`: its RawValue path places it.
            Err(_) if options.is_unplaced() => Err(DecodeErrors::new(DecodeErrorKind::Unplaced)),
            // Decoded without a place (a `RawValue` handed to `decode` by hand).
            Err(value) => T::decode_with_options(value, options)
                .map(|value| Spanned::new(Span::default(), value)),
        }
    }

    fn missing_with_options(options: DecodeOptions) -> Option<Self> {
        T::missing_with_options(options).map(Spanned::defaulted)
    }

    #[inline]
    fn may_accept_with_options(kind: ValueKind, depth: u32, options: DecodeOptions) -> bool {
        depth == 0 || T::may_accept_with_options(kind, depth - 1, options)
    }

    #[inline]
    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        let (start, position) = source.value_start()?;
        let value = T::decode_direct(source)?;
        let end = source.value_end()?;
        Ok(Spanned {
            value,
            span: Span::new(start, end),
            position,
            origin: None,
        })
    }

    fn missing() -> Option<Self> {
        T::missing().map(Spanned::defaulted)
    }

    fn shape() -> Shape {
        Shape::Spanned(T::shape)
    }

    #[inline]
    fn may_accept(kind: ValueKind, depth: u32) -> bool {
        depth == 0 || T::may_accept(kind, depth - 1)
    }
}

/// A `Spanned` key keeps the key's own place: through `RawValue`, the facade's marks give
/// it (a direct path falls back to them); it compares as its value, so a map's lookups
/// by value work (`map.get("name")` for `Spanned<String>` keys).
impl<'de, K: DecodeKey<'de>> DecodeKey<'de> for Spanned<K> {
    fn decode_key(key: Cow<'de, str>) -> Result<Self, DecodeErrors> {
        K::decode_key(key).map(|key| Spanned::new(Span::default(), key))
    }

    fn decode_entry_key(
        key: Cow<'de, str>,
        value: &mut RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        match take_mark_as(KEY_MARK, std::mem::take(value)) {
            Ok((place, inner)) => {
                *value = inner;
                K::decode_key(key).map(|key| Spanned {
                    value: key,
                    span: place.span,
                    position: place.position,
                    origin: place.origin.map(Box::new),
                })
            }
            Err(inner) => {
                *value = inner;
                // Read by a direct attempt's `read_raw`: its RawValue path places it.
                if options.is_unplaced() {
                    return Err(DecodeErrors::new(DecodeErrorKind::Unplaced));
                }
                Self::decode_key(key)
            }
        }
    }

    fn decode_key_direct(_key: Cow<'de, str>) -> Result<Self, Fallback> {
        // A source hands out a key's text, not its place.
        Err(Fallback)
    }

    fn map_shape(value: ShapeOf) -> Shape {
        Shape::SpannedKeyMap(value)
    }
}

impl<K: EncodeKey> EncodeKey for Spanned<K> {
    fn with_key<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        self.value.with_key(f)
    }
}

impl<T: Encode> Encode for Spanned<T> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        self.value.encode(encoder)
    }
}

/// Where a marked value came from.
#[derive(Debug, Clone, Default)]
pub(crate) struct Place {
    pub(crate) span: Span,
    pub(crate) position: Option<Position>,
    pub(crate) origin: Option<Origin>,
}

/// The key of a mark, recognised by its address: a document's keys are never this
/// static's text.
static MARK: &str = "\u{0}quarry::Spanned";

/// The key of the mark on a map entry's value that holds the place of the entry's key
/// (a map whose keys are `Spanned`).
static KEY_MARK: &str = "\u{0}quarry::Spanned key";

/// Whether `key` is the static `mark` itself (not text equal to it).
fn is_key(key: &str, mark: &'static str) -> bool {
    std::ptr::eq(key.as_ptr(), mark.as_ptr()) && key.len() == mark.len()
}

/// `value` wrapped in a mark of `place`.
fn marked<'de>(place: Place, value: RawValue<'de>) -> RawValue<'de> {
    marked_as(MARK, place, value)
}

/// `value` wrapped in a mark of `place` under the key `mark` ([`MARK`] for a value's
/// own place, [`KEY_MARK`] for its key's).
fn marked_as<'de>(mark: &'static str, place: Place, value: RawValue<'de>) -> RawValue<'de> {
    let int = |n: usize| RawValue::Int(i64::try_from(n).unwrap_or(i64::MAX));
    let text = |s: &str| RawValue::String(Cow::Owned(s.to_owned()));
    let mut fields = vec![int(place.span.start), int(place.span.end)];
    match place.position {
        Some(p) => fields.extend([int(p.offset), int(p.line), int(p.column)]),
        None => fields.extend([RawValue::Null, RawValue::Null, RawValue::Null]),
    }
    match &place.origin {
        None => {}
        Some(Origin::File { name, position }) => {
            fields.extend([text("file"), text(name)]);
            if let Some(p) = position {
                fields.extend([int(p.offset), int(p.line), int(p.column)]);
            }
        }
        Some(Origin::Env { name }) => fields.extend([text("env"), text(name)]),
        Some(Origin::SecretFile { path, variable }) => {
            fields.extend([text("secret-file"), text(path), text(variable)])
        }
        Some(Origin::Set) => fields.push(text("set")),
        Some(Origin::Default) => fields.push(text("default")),
    }
    RawValue::Map(vec![
        (Cow::Borrowed(mark), RawValue::Seq(fields)),
        (Cow::Borrowed(mark), value),
    ])
}

/// The place and the value of a mark, or the value as it was when it is none.
fn take_mark(value: RawValue<'_>) -> Result<(Place, RawValue<'_>), RawValue<'_>> {
    take_mark_as(MARK, value)
}

/// The place and the value of a mark under the key `mark`, or the value as it was.
fn take_mark_as<'de>(
    mark: &'static str,
    value: RawValue<'de>,
) -> Result<(Place, RawValue<'de>), RawValue<'de>> {
    let RawValue::Map(entries) = value else {
        return Err(value);
    };
    let [(key, meta), (value_key, value)] = <[_; 2]>::try_from(entries).map_err(RawValue::Map)?;
    let fields = match meta {
        RawValue::Seq(fields) if is_key(&key, mark) && is_key(&value_key, mark) => fields,
        meta => return Err(RawValue::Map(vec![(key, meta), (value_key, value)])),
    };
    let int = |v: &RawValue<'_>| match v {
        RawValue::Int(n) => usize::try_from(*n).ok(),
        _ => None,
    };
    let text = |v: &RawValue<'_>| v.as_str().unwrap_or_default().to_owned();
    let position_at = |i: usize| {
        Some(Position {
            offset: int(fields.get(i)?)?,
            line: int(fields.get(i + 1)?)?,
            column: int(fields.get(i + 2)?)?,
        })
    };
    let span = Span::new(
        fields.first().and_then(int).unwrap_or(0),
        fields.get(1).and_then(int).unwrap_or(0),
    );
    let origin = match fields.get(5).and_then(RawValue::as_str) {
        Some("file") => Some(Origin::File {
            name: fields.get(6).map(text).unwrap_or_default(),
            position: position_at(7),
        }),
        Some("env") => Some(Origin::Env {
            name: fields.get(6).map(text).unwrap_or_default(),
        }),
        Some("secret-file") => Some(Origin::SecretFile {
            path: fields.get(6).map(text).unwrap_or_default(),
            variable: fields.get(7).map(text).unwrap_or_default(),
        }),
        Some("set") => Some(Origin::Set),
        Some("default") => Some(Origin::Default),
        _ => None,
    };
    let place = Place {
        span,
        position: position_at(2),
        origin,
    };
    Ok((place, value))
}

/// Whether a value of `shape` can hold a [`Spanned`] anywhere; remembered per type, so
/// the RawValue path of a type without one builds its shape once.
pub(crate) fn holds_spanned(shape: ShapeOf) -> bool {
    static KNOWN: Mutex<Vec<(usize, bool)>> = Mutex::new(Vec::new());
    let key = shape as usize;
    let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, holds)) = known.iter().find(|(k, _)| *k == key) {
        return holds;
    }
    let holds = reaches_spanned(shape, &mut Vec::new());
    known.push((key, holds));
    holds
}

/// Whether `shape` leads to a [`Shape::Spanned`], each shape function followed once.
fn reaches_spanned(shape: ShapeOf, seen: &mut Vec<usize>) -> bool {
    if seen.contains(&(shape as usize)) {
        return false;
    }
    seen.push(shape as usize);
    let mut follow = |f: ShapeOf| reaches_spanned(f, seen);
    match shape() {
        Shape::Spanned(_) | Shape::SpannedKeyMap(_) => true,
        Shape::Optional(inner)
        | Shape::Seq(inner)
        | Shape::Map(inner)
        | Shape::Checked(inner, _)
        | Shape::Secret(inner) => follow(inner),
        Shape::Tuple(items) => items.iter().any(|item| follow(item.shape)),
        Shape::Struct(s) => s.fields.iter().any(|f| follow(f.shape)),
        Shape::Enum(e) => e.variants.iter().any(|v| match &v.content {
            crate::shape::VariantContent::Unit => false,
            crate::shape::VariantContent::Newtype(inner) => follow(*inner),
            crate::shape::VariantContent::Tuple(items) => {
                items.iter().any(|item| follow(item.shape))
            }
            crate::shape::VariantContent::Struct(s) => s.fields.iter().any(|f| follow(f.shape)),
        }),
        _ => false,
    }
}

/// The paths in `value` at which a value of `shape` decodes a [`Spanned`], inner ones
/// before the outer one at the same place, in the order [`mark`] visits them. `xml`
/// applies XML's rule for sequences (a lone child is a one-item sequence). Under an
/// untagged enum, the places of every variant that holds a `Spanned` are listed, one
/// variant after another: the decoder tries each variant with its own.
/// The walk does not change `value` (it takes it as `mut` to share its code with
/// [`mark`]).
pub(crate) fn spanned_paths(shape: &Shape, value: &mut RawValue<'_>, xml: bool) -> Vec<Target> {
    let mut out = Vec::new();
    let mut walker = Walker {
        xml,
        at: Vec::new(),
        marks: Marks::Collect(&mut out),
    };
    walker.walk(shape, value, 0);
    out
}

/// What `of` says of each target: it is asked once for the values' paths and once for the
/// keys' (`true`), and its answers are put back in the targets' order (`None` where it
/// gave fewer).
pub(crate) fn places_of_targets<X>(
    targets: &[Target],
    mut of: impl FnMut(&[ValuePath], bool) -> Vec<X>,
) -> Vec<Option<X>> {
    let mut out: Vec<Option<X>> = targets.iter().map(|_| None).collect();
    for key in [false, true] {
        let (indices, paths): (Vec<usize>, Vec<ValuePath>) = targets
            .iter()
            .enumerate()
            .filter(|(_, t)| t.key == key)
            .map(|(i, t)| (i, t.path.clone()))
            .unzip();
        if paths.is_empty() {
            continue;
        }
        for (i, x) in indices.into_iter().zip(of(&paths, key)) {
            out[i] = Some(x);
        }
    }
    out
}

/// Wraps the value at each place of `shape` in `value` in a mark: `places` are
/// [`spanned_paths`]'s paths (any of them may be left out) with their places. Under an
/// untagged enum, each variant that holds a `Spanned` gets a copy of the value marked for
/// its own shape, so no variant sees a mark where its field is not a `Spanned`.
pub(crate) fn mark(
    shape: &Shape,
    value: &mut RawValue<'_>,
    xml: bool,
    places: Vec<(Target, Place)>,
) {
    if places.is_empty() {
        return;
    }
    let mut places = places.into_iter().peekable();
    let mut walker = Walker {
        xml,
        at: Vec::new(),
        marks: Marks::Place(&mut places),
    };
    walker.walk(shape, value, 0);
}

/// A place the RawValue path marks: the value at `path`, or (`key`) the key its last
/// segment names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub(crate) path: ValuePath,
    pub(crate) key: bool,
}

/// What a walk does at each place of a `Spanned`.
enum Marks<'w> {
    /// Lists the place.
    Collect(&'w mut Vec<Target>),
    /// Wraps the value in a mark when the next place is this one.
    Place(&'w mut std::iter::Peekable<std::vec::IntoIter<(Target, Place)>>),
}

/// A walk of a value along a shape, to each place where it decodes a [`Spanned`].
struct Walker<'w> {
    xml: bool,
    at: Vec<Segment>,
    marks: Marks<'w>,
}

impl Walker<'_> {
    fn walk(&mut self, shape: &Shape, value: &mut RawValue<'_>, depth: usize) {
        // Recursive types end where their values do; the depth guards odd shapes.
        if depth > 256 {
            return;
        }
        let next = depth + 1;
        match (shape, &mut *value) {
            (Shape::Optional(_), RawValue::Null) => {}
            (Shape::Optional(inner) | Shape::Checked(inner, _) | Shape::Secret(inner), _) => {
                self.walk(&inner(), value, next)
            }
            (Shape::Spanned(inner), _) => {
                self.walk(&inner(), value, next);
                self.place(value);
            }
            (Shape::Seq(item), RawValue::Seq(items)) => {
                let item = item();
                for (i, v) in items.iter_mut().enumerate() {
                    self.at.push(Segment::Index(i));
                    self.walk(&item, v, next);
                    self.at.pop();
                }
            }
            // XML's lone child: the value is the sequence's only item.
            (Shape::Seq(item), _) if self.xml => self.walk(&item(), value, next),
            (Shape::Tuple(items), RawValue::Seq(values)) => {
                for (i, (item, v)) in items.iter().zip(values).enumerate() {
                    self.at.push(Segment::Index(i));
                    self.walk(&(item.shape)(), v, next);
                    self.at.pop();
                }
            }
            (Shape::Map(inner), RawValue::Map(entries)) => {
                let inner = inner();
                for (k, v) in entries {
                    self.at.push(Segment::Key(k.to_string()));
                    self.walk(&inner, v, next);
                    self.at.pop();
                }
            }
            // The key's mark goes on the entry's value, outside the value's own.
            (Shape::SpannedKeyMap(inner), RawValue::Map(entries)) => {
                let inner = inner();
                for (k, v) in entries {
                    self.at.push(Segment::Key(k.to_string()));
                    self.walk(&inner, v, next);
                    self.place_key(v);
                    self.at.pop();
                }
            }
            (Shape::Struct(s), RawValue::Map(entries)) => {
                self.fields(&s.fields, entries, &[], next)
            }
            (Shape::Enum(e), _) => self.walk_enum(e, value, next),
            _ => {}
        }
    }

    /// Marks `value` with the next place, when that place is at the walk's path.
    fn place(&mut self, value: &mut RawValue<'_>) {
        self.place_as(false, value)
    }

    /// Marks `value`, a map entry's value, with the place of its key, when the next
    /// place is that key's.
    fn place_key(&mut self, value: &mut RawValue<'_>) {
        self.place_as(true, value)
    }

    fn place_as(&mut self, key: bool, value: &mut RawValue<'_>) {
        match &mut self.marks {
            Marks::Collect(out) => out.push(Target {
                path: ValuePath {
                    segments: self.at.clone(),
                },
                key,
            }),
            Marks::Place(places) => {
                let next = |(target, _): &(Target, Place)| {
                    target.key == key && target.path.segments == self.at
                };
                if let Some((_, place)) = places.next_if(next) {
                    let inner = std::mem::take(value);
                    *value = match key {
                        true => marked_as(KEY_MARK, place, inner),
                        false => marked(place, inner),
                    };
                }
            }
        }
    }

    /// A struct's entries: each key's field, looked for among flattened fields too
    /// (their keys sit beside the struct's own). `skip` names keys that are not fields
    /// (an internal tag).
    fn fields(
        &mut self,
        fields: &[crate::shape::FieldShape],
        entries: &mut [(Cow<'_, str>, RawValue<'_>)],
        skip: &[&str],
        depth: usize,
    ) {
        let flattened = fields.iter().filter(|f| f.flatten).count();
        if flattened > 1 && fields.iter().any(|f| f.flatten && holds_spanned(f.shape)) {
            return self.fields_of_each_flattened(fields, entries, skip, depth);
        }
        for (k, v) in entries.iter_mut() {
            if skip.contains(&k.as_ref()) {
                continue;
            }
            if let Some((shape, key)) = field_shape(fields, k, 0) {
                self.at.push(Segment::Key(k.to_string()));
                self.walk(&shape, v, depth);
                if key {
                    self.place_key(v);
                }
                self.at.pop();
            }
        }
        // A flattened enum's keys sit beside the struct's own.
        for f in fields
            .iter()
            .filter(|f| f.flatten && holds_spanned(f.shape))
        {
            if let Shape::Enum(e) = (f.shape)().unwrap_optional() {
                let mut claimed: Vec<&str> = skip.to_vec();
                for name in fields.iter().filter(|f| !f.flatten).flat_map(|f| f.names()) {
                    claimed.push(name);
                }
                self.flattened_enum(&e, entries, &claimed, depth);
            }
        }
    }

    /// A struct with several flattened fields, one of which holds a `Spanned`. Each
    /// flattened field decodes every entry the struct's own fields leave, so each such
    /// entry is walked once per flattened field, for that field's shape alone; when
    /// placing, it holds a copy marked for each ([`ENTRY_VARIANTS`]), and the derive hands
    /// each flattened field its own map through [`VariantValues`], as an untagged enum
    /// hands each variant its own. No field then meets a mark placed for another.
    #[cold]
    fn fields_of_each_flattened(
        &mut self,
        fields: &[crate::shape::FieldShape],
        entries: &mut [(Cow<'_, str>, RawValue<'_>)],
        skip: &[&str],
        depth: usize,
    ) {
        let own = |key: &str| {
            fields
                .iter()
                .filter(|f| !f.flatten)
                .any(|f| f.names().any(|n| n == key))
        };
        let mut left = Vec::new();
        for (i, (k, v)) in entries.iter_mut().enumerate() {
            if skip.contains(&k.as_ref()) {
                continue;
            }
            if !own(k) {
                left.push(i);
                continue;
            }
            if let Some((shape, key)) = field_shape(fields, k, 0) {
                self.at.push(Segment::Key(k.to_string()));
                self.walk(&shape, v, depth);
                if key {
                    self.place_key(v);
                }
                self.at.pop();
            }
        }
        let mut copies: Vec<Vec<RawValue<'_>>> = vec![Vec::new(); left.len()];
        for field in fields.iter().filter(|f| f.flatten) {
            if !holds_spanned(field.shape) {
                // No mark for this field: it decodes the entries as they are.
                copies
                    .iter_mut()
                    .for_each(|c| c.push(RawValue::Seq(Vec::new())));
                continue;
            }
            let mut copy: Vec<_> = left.iter().map(|&i| entries[i].clone()).collect();
            self.fields(std::slice::from_ref(field), &mut copy, skip, depth);
            for (c, (_, v)) in copies.iter_mut().zip(copy) {
                c.push(RawValue::Seq(vec![v]));
            }
        }
        if let Marks::Place(_) = self.marks {
            for (&i, copies) in left.iter().zip(copies) {
                let inner = std::mem::take(&mut entries[i].1);
                entries[i].1 = RawValue::Map(vec![
                    (Cow::Borrowed(ENTRY_VARIANTS), RawValue::Seq(copies)),
                    (Cow::Borrowed(ENTRY_VARIANTS), inner),
                ]);
            }
        }
    }

    /// A flattened enum, whose value is the entries no field of the struct claims.
    fn flattened_enum(
        &mut self,
        e: &crate::shape::EnumShape,
        entries: &mut [(Cow<'_, str>, RawValue<'_>)],
        claimed: &[&str],
        depth: usize,
    ) {
        use crate::shape::{Tagging, VariantContent};
        let named = |name: &str| {
            e.variants
                .iter()
                .find(|v| v.name == name || v.aliases.contains(&name))
        };
        let tagged = |entries: &[(Cow<'_, str>, RawValue<'_>)], tag: &str| {
            let (_, name) = entries.iter().find(|(k, _)| k == tag)?;
            named(name.as_str()?)
        };
        match &e.tagging {
            Tagging::External => {
                for (k, v) in entries.iter_mut() {
                    if claimed.contains(&k.as_ref()) {
                        continue;
                    }
                    if let Some(variant) = named(k) {
                        self.at.push(Segment::Key(k.to_string()));
                        self.content(&variant.content, v, depth);
                        self.at.pop();
                    }
                }
            }
            Tagging::Internal { tag } => {
                let Some(variant) = tagged(entries, tag) else {
                    return;
                };
                if let Some(fields) = struct_fields(&variant.content) {
                    let mut skip = claimed.to_vec();
                    skip.push(tag);
                    self.fields(&fields, entries, &skip, depth);
                }
            }
            Tagging::Adjacent { tag, content } => {
                let Some(variant) = tagged(entries, tag) else {
                    return;
                };
                if let Some((_, inner)) = entries.iter_mut().find(|(k, _)| k == content) {
                    self.at.push(Segment::Key((*content).to_owned()));
                    self.content(&variant.content, inner, depth);
                    self.at.pop();
                }
            }
            Tagging::Untagged => {
                let variants: Vec<Option<Vec<crate::shape::FieldShape>>> = e
                    .variants
                    .iter()
                    .map(|v| match &v.content {
                        VariantContent::Unit => None,
                        content => struct_fields(content)
                            .filter(|fs| fs.iter().any(|f| holds_spanned(f.shape))),
                    })
                    .collect();
                self.flattened_untagged(&variants, entries, claimed, depth);
            }
        }
    }

    /// A flattened untagged enum's entries: each entry a variant's field decodes is
    /// walked once per such variant; when placing, it holds a copy marked for each
    /// ([`ENTRY_VARIANTS`]), from which [`VariantValues`] builds each variant's map.
    fn flattened_untagged(
        &mut self,
        variants: &[Option<Vec<crate::shape::FieldShape>>],
        entries: &mut [(Cow<'_, str>, RawValue<'_>)],
        claimed: &[&str],
        depth: usize,
    ) {
        for (k, v) in entries.iter_mut() {
            if claimed.contains(&k.as_ref()) {
                continue;
            }
            let shapes: Vec<Option<(Shape, bool)>> = variants
                .iter()
                .map(|fields| field_shape(fields.as_deref()?, k, 0))
                .collect();
            if shapes.iter().all(Option::is_none) {
                continue;
            }
            self.at.push(Segment::Key(k.to_string()));
            if let Marks::Collect(_) = self.marks {
                for (shape, key) in shapes.iter().flatten() {
                    self.walk(shape, v, depth);
                    if *key {
                        self.place_key(v);
                    }
                }
            } else {
                let copies = shapes
                    .iter()
                    .map(|shape| {
                        let Some((shape, key)) = shape else {
                            return RawValue::Seq(Vec::new());
                        };
                        let mut copy = v.clone();
                        self.walk(shape, &mut copy, depth);
                        if *key {
                            self.place_key(&mut copy);
                        }
                        RawValue::Seq(vec![copy])
                    })
                    .collect();
                let inner = std::mem::take(v);
                *v = RawValue::Map(vec![
                    (Cow::Borrowed(ENTRY_VARIANTS), RawValue::Seq(copies)),
                    (Cow::Borrowed(ENTRY_VARIANTS), inner),
                ]);
            }
            self.at.pop();
        }
    }

    /// A variant's content in `value`.
    fn content(
        &mut self,
        content: &crate::shape::VariantContent,
        value: &mut RawValue<'_>,
        depth: usize,
    ) {
        use crate::shape::VariantContent;
        match content {
            VariantContent::Unit => {}
            VariantContent::Newtype(inner) => self.walk(&inner(), value, depth),
            VariantContent::Tuple(items) => self.walk(&Shape::Tuple(items.clone()), value, depth),
            VariantContent::Struct(s) => {
                if let RawValue::Map(entries) = value {
                    self.fields(&s.fields, entries, &[], depth)
                }
            }
        }
    }

    fn walk_enum(&mut self, e: &crate::shape::EnumShape, value: &mut RawValue<'_>, depth: usize) {
        use crate::shape::{Tagging, VariantContent};
        let variant = |name: &str| {
            e.variants
                .iter()
                .find(|v| v.name == name || v.aliases.contains(&name))
        };
        let named = |value: &RawValue<'_>, tag: &str| {
            value.get(tag).and_then(RawValue::as_str).and_then(variant)
        };
        match &e.tagging {
            Tagging::External => {
                let RawValue::Map(entries) = value else {
                    return;
                };
                let [(name, content)] = &mut entries[..] else {
                    return;
                };
                if let Some(v) = variant(name) {
                    self.at.push(Segment::Key(name.to_string()));
                    self.content(&v.content, content, depth);
                    self.at.pop();
                }
            }
            Tagging::Internal { tag } => {
                let Some(v) = named(value, tag) else {
                    return;
                };
                match (&v.content, &mut *value) {
                    (VariantContent::Struct(s), RawValue::Map(entries)) => {
                        self.fields(&s.fields, entries, &[tag], depth)
                    }
                    (other, _) => self.content(other, value, depth),
                }
            }
            Tagging::Adjacent { tag, content } => {
                let Some(v) = named(value, tag) else {
                    return;
                };
                let RawValue::Map(entries) = value else {
                    return;
                };
                if let Some((_, inner)) = entries.iter_mut().find(|(k, _)| k == content) {
                    self.at.push(Segment::Key((*content).to_owned()));
                    self.content(&v.content, inner, depth);
                    self.at.pop();
                }
            }
            Tagging::Untagged => self.untagged(e, value, depth),
        }
    }

    /// An untagged enum's value, walked once for each variant that may hold a
    /// `Spanned`; when placing, each such variant gets its own marked copy.
    fn untagged(&mut self, e: &crate::shape::EnumShape, value: &mut RawValue<'_>, depth: usize) {
        use crate::shape::VariantContent;
        let holds = |content: &VariantContent| match content {
            VariantContent::Unit => false,
            VariantContent::Newtype(inner) => holds_spanned(*inner),
            VariantContent::Tuple(items) => items.iter().any(|item| holds_spanned(item.shape)),
            VariantContent::Struct(s) => s.fields.iter().any(|f| holds_spanned(f.shape)),
        };
        if let Marks::Collect(_) = self.marks {
            for v in e.variants.iter().filter(|v| holds(&v.content)) {
                self.content(&v.content, value, depth);
            }
            return;
        }
        let mut copies = Vec::with_capacity(e.variants.len());
        let mut any = false;
        for v in &e.variants {
            if !holds(&v.content) {
                copies.push(RawValue::Seq(Vec::new()));
                continue;
            }
            let mut copy = value.clone();
            self.content(&v.content, &mut copy, depth);
            any = true;
            copies.push(RawValue::Seq(vec![copy]));
        }
        if any {
            let inner = std::mem::take(value);
            *value = RawValue::Map(vec![
                (Cow::Borrowed(VARIANTS), RawValue::Seq(copies)),
                (Cow::Borrowed(VARIANTS), inner),
            ]);
        }
    }
}

/// The fields of a struct variant, or of a newtype variant's struct.
fn struct_fields(content: &crate::shape::VariantContent) -> Option<Vec<crate::shape::FieldShape>> {
    use crate::shape::VariantContent;
    match content {
        VariantContent::Struct(s) => Some(s.fields.clone()),
        VariantContent::Newtype(inner) => match inner().unwrap_optional() {
            Shape::Struct(s) => Some(s.fields),
            _ => None,
        },
        _ => None,
    }
}

/// The shape of the value under `key` among `fields` and the fields they flatten, and
/// whether the key itself is placed (a flattened map whose keys are `Spanned`).
fn field_shape(
    fields: &[crate::shape::FieldShape],
    key: &str,
    depth: usize,
) -> Option<(Shape, bool)> {
    if depth > 32 {
        return None;
    }
    if let Some(field) = fields
        .iter()
        .find(|f| !f.flatten && f.names().any(|n| n == key))
    {
        return Some(((field.shape)(), false));
    }
    fields
        .iter()
        .filter(|f| f.flatten)
        .find_map(|f| match (f.shape)().unwrap_optional() {
            Shape::Struct(s) => field_shape(&s.fields, key, depth + 1),
            Shape::Map(inner) => Some((inner(), false)),
            Shape::SpannedKeyMap(inner) => Some((inner(), true)),
            _ => None,
        })
}

/// The key of an untagged enum's value marked for each variant, recognised by its
/// address as [`MARK`] is.
static VARIANTS: &str = "\u{0}quarry::Spanned variants";

/// The key of a flattened untagged enum's entry marked for each variant (see
/// [`VARIANTS`]).
static ENTRY_VARIANTS: &str = "\u{0}quarry::Spanned entry variants";

/// The copies and the value of an entry marked for each variant of a flattened untagged
/// enum, or the value as it was.
fn take_entry_variants(
    value: RawValue<'_>,
) -> Result<(Vec<RawValue<'_>>, RawValue<'_>), RawValue<'_>> {
    match value {
        RawValue::Map(entries)
            if entries.len() == 2
                && is_key(&entries[0].0, ENTRY_VARIANTS)
                && is_key(&entries[1].0, ENTRY_VARIANTS) =>
        {
            let [(_, copies), (_, value)] =
                <[_; 2]>::try_from(entries).unwrap_or_else(|_| unreachable!());
            match copies {
                RawValue::Seq(copies) => Ok((copies, value)),
                _ => Ok((Vec::new(), value)),
            }
        }
        value => Err(value),
    }
}

fn is_entry_variants(value: &RawValue<'_>) -> bool {
    matches!(value, RawValue::Map(e) if e.len() == 2 && is_key(&e[0].0, ENTRY_VARIANTS))
}

/// The value an untagged enum's decoder tries each variant on: the value itself, or,
/// where the RawValue path placed `Spanned` values under the enum, a copy marked for
/// each variant's own shape.
#[doc(hidden)]
pub struct VariantValues<'de> {
    value: RawValue<'de>,
    marked: Vec<RawValue<'de>>,
}

impl<'de> VariantValues<'de> {
    /// The variants' values from the value the enum decodes.
    #[inline]
    pub fn new(value: RawValue<'de>) -> Self {
        match value {
            RawValue::Map(entries)
                if entries.len() == 2
                    && is_key(&entries[0].0, VARIANTS)
                    && is_key(&entries[1].0, VARIANTS) =>
            {
                let [(_, copies), (_, value)] =
                    <[_; 2]>::try_from(entries).unwrap_or_else(|_| unreachable!());
                let marked = match copies {
                    RawValue::Seq(copies) => copies,
                    _ => Vec::new(),
                };
                VariantValues { value, marked }
            }
            // A flattened enum's entries, some marked for each variant.
            RawValue::Map(entries) if entries.iter().any(|(_, v)| is_entry_variants(v)) => {
                Self::from_entries(entries)
            }
            value => VariantValues {
                value,
                marked: Vec::new(),
            },
        }
    }

    /// Each variant's map from entries some of which hold a copy marked for each.
    #[cold]
    fn from_entries(entries: Vec<(Cow<'de, str>, RawValue<'de>)>) -> Self {
        let mut originals = Vec::with_capacity(entries.len());
        let mut copies: Vec<Vec<RawValue<'de>>> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            match take_entry_variants(v) {
                Ok((marked, v)) => {
                    originals.push((k, v));
                    copies.push(marked);
                }
                Err(v) => {
                    originals.push((k, v));
                    copies.push(Vec::new());
                }
            }
        }
        let variants = copies.iter().map(Vec::len).max().unwrap_or(0);
        let marked = (0..variants)
            .map(|i| {
                let entries = originals
                    .iter()
                    .zip(&mut copies)
                    .map(|((k, original), copies)| match copies.get_mut(i) {
                        Some(RawValue::Seq(copy)) if !copy.is_empty() => {
                            (k.clone(), copy.swap_remove(0))
                        }
                        _ => (k.clone(), original.clone()),
                    })
                    .collect();
                RawValue::Seq(vec![RawValue::Map(entries)])
            })
            .collect();
        VariantValues {
            value: RawValue::Map(originals),
            marked,
        }
    }

    /// The value variant `index` decodes (a copy).
    #[inline]
    pub fn get(&mut self, index: usize) -> RawValue<'de> {
        match self.marked.get_mut(index) {
            Some(RawValue::Seq(copy)) if !copy.is_empty() => copy.swap_remove(0),
            _ => self.value.clone(),
        }
    }

    /// The value the last variant, `index`, decodes.
    #[inline]
    pub fn last(mut self, index: usize) -> RawValue<'de> {
        match self.marked.get_mut(index) {
            Some(RawValue::Seq(copy)) if !copy.is_empty() => copy.swap_remove(0),
            _ => self.value,
        }
    }
}

/// The facade's RawValue path for a type that holds a [`Spanned`]: the document read
/// as a RawValue, each `Spanned` place marked, then decoded (an XML document from its
/// root element, under XML's rule for sequences, as [`from_slice`](crate::from_slice)
/// reads it).
pub(crate) fn decode_placed<'de, T: Decode<'de>>(
    bytes: &'de [u8],
    format: Format,
) -> Result<Result<T, DecodeErrors>, crate::Error> {
    #[cfg(feature = "xml")]
    if format == Format::Xml {
        let mut root = crate::xml::parse_root(bytes)?.1;
        place_in_document(&mut root, T::shape, bytes, format);
        return Ok(T::decode_with_options(
            root,
            crate::decode::DecodeOptions::XML,
        ));
    }
    let mut raw = crate::parse_raw(bytes, format)?;
    place_in_document(&mut raw, T::shape, bytes, format);
    Ok(T::decode(raw))
}

/// Places the [`Spanned`] values of `T` in `value`, the RawValue of the `format`
/// document `bytes` ([`parse_raw`](crate::parse_raw); for XML the root element's value,
/// as [`xml::parse_root`](crate::xml::parse_root) gives it), so that decoding it gives
/// each its span and line: what [`from_slice`](crate::from_slice) does when it decodes
/// through RawValue. A document that does not parse leaves `value` as it is.
///
/// ```
/// use quarry::{Decode, Format, Spanned};
///
/// let bytes = b"port: 8080\n";
/// let mut raw = quarry::parse_raw(bytes, Format::Yaml).unwrap();
/// quarry::decode::place_spans::<std::collections::BTreeMap<String, Spanned<u16>>>(
///     &mut raw,
///     bytes,
///     Format::Yaml,
/// );
/// let map = std::collections::BTreeMap::<String, Spanned<u16>>::decode(raw).unwrap();
/// assert_eq!(map["port"].span(), quarry::Span::new(6, 10));
/// ```
pub fn place_spans<'de, T: Decode<'de>>(value: &mut RawValue<'_>, bytes: &[u8], format: Format) {
    place_in_document(value, T::shape, bytes, format)
}

/// Marks every `Spanned` of `shape` in `value`, a `format` document's RawValue read
/// from `bytes`, with its span and line in the document: the facade's RawValue path.
pub(crate) fn place_in_document(
    value: &mut RawValue<'_>,
    shape: ShapeOf,
    bytes: &[u8],
    format: Format,
) {
    if !holds_spanned(shape) {
        return;
    }
    let targets = spanned_paths(&shape(), value, format == Format::Xml);
    if targets.is_empty() {
        return;
    }
    let found = places_of_targets(&targets, |paths, key| {
        let places = match key {
            true => crate::key_places_of(bytes, format, paths),
            false => crate::places_of(bytes, format, paths),
        };
        places.unwrap_or_else(|| vec![None; paths.len()])
    });
    let places = targets
        .into_iter()
        .zip(found)
        .filter_map(|(target, place)| {
            let (span, position) = place??;
            Some((
                target,
                Place {
                    span,
                    position,
                    origin: None,
                },
            ))
        })
        .collect();
    mark(&shape(), value, format == Format::Xml, places);
}
