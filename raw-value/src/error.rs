use std::fmt;

/// A place in a source document: byte offset, 1-based line and 1-based column
/// (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Byte offset from the start of the input.
    pub offset: usize,
    /// Line number, starting at 1.
    pub line: usize,
    /// Column number in characters, starting at 1.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// One step of a [`Path`]: a map key or a sequence index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A map key or struct field name.
    Key(String),
    /// A sequence index.
    Index(usize),
}

/// Where a value sits inside a document, like `servers[2].port`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path {
    /// Segments from the root down.
    pub segments: Vec<Segment>,
}

impl Path {
    /// Parses the CLI's path syntax: `servers[0].host`, `["key.with.dots"]`, `a."b c"`.
    /// Returns `None` for malformed paths.
    pub fn parse(text: &str) -> Option<Path> {
        let bytes = text.as_bytes();
        let mut segments = Vec::new();
        let mut i = 0;
        let mut expect_key = true;
        while i < bytes.len() {
            match bytes[i] {
                b'[' => {
                    let close = i + text[i..].find(']')?;
                    let inner = text[i + 1..close].trim();
                    if let Some(quoted) = inner.strip_prefix('"').and_then(|s| s.strip_suffix('"'))
                    {
                        segments.push(Segment::Key(quoted.to_owned()));
                    } else {
                        segments.push(Segment::Index(inner.parse().ok()?));
                    }
                    i = close + 1;
                    expect_key = false;
                }
                b'.' if !expect_key => {
                    i += 1;
                    expect_key = true;
                    if i == bytes.len() {
                        return None;
                    }
                }
                b'"' if expect_key => {
                    let close = i + 1 + text[i + 1..].find('"')?;
                    segments.push(Segment::Key(text[i + 1..close].to_owned()));
                    i = close + 1;
                    expect_key = false;
                }
                _ if expect_key => {
                    let end = text[i..].find(['.', '[']).map_or(text.len(), |e| i + e);
                    segments.push(Segment::Key(text[i..end].to_owned()));
                    i = end;
                    expect_key = false;
                }
                _ => return None,
            }
        }
        Some(Path { segments })
    }

    /// True for the root path.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments.iter().enumerate() {
            match segment {
                Segment::Index(n) => write!(f, "[{n}]")?,
                Segment::Key(k) if is_plain_key(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Segment::Key(k) => write!(f, "[{k:?}]")?,
            }
        }
        Ok(())
    }
}

fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'@' | b'$' | b':'))
}

/// What went wrong while decoding one value.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The value has the wrong type: `expected integer, found string "http"`.
    InvalidType {
        /// What the target type accepts.
        expected: String,
        /// A short description of the value found.
        found: String,
    },
    /// The value has the right type but is out of range or fails a constraint.
    InvalidValue {
        /// What the target accepts: `integer in 1..=65535`.
        expected: String,
        /// A short description of the value found.
        found: String,
    },
    /// A required field is absent.
    MissingField(String),
    /// A field the target does not know (only reported when unknown fields are denied).
    UnknownField(String),
    /// A key given more than once.
    DuplicateField(String),
    /// Any other message.
    Custom(String),
    /// Decoders that decode the same value again (untagged enums, newtypes, internally
    /// tagged enums, structs with flattened fields) nested deeper than the limit given
    /// ([`Nested`](crate::Nested)): a type that holds itself where the input does not nest
    /// deeper, such as an untagged enum's `Wrap(Box<Self>)`, would otherwise recurse until
    /// the stack overflows. It ends the decode: an untagged enum tries no further variant.
    RecursionLimitReached(u32),
    /// A value that keeps its place (the facade's `Spanned<T>`, as a value or a map key)
    /// was decoded from a RawValue a direct attempt read, which holds no places: the
    /// attempt falls back to the RawValue path, which places it. It ends the decode: an
    /// untagged enum tries no further variant, which the RawValue path would not pick.
    Unplaced,
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::InvalidType { expected, found }
            | DecodeErrorKind::InvalidValue { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            DecodeErrorKind::MissingField(name) => write!(f, "missing field `{name}`"),
            DecodeErrorKind::UnknownField(name) => write!(f, "unknown field `{name}`"),
            DecodeErrorKind::DuplicateField(name) => write!(f, "duplicate field `{name}`"),
            DecodeErrorKind::Custom(message) => f.write_str(message),
            DecodeErrorKind::RecursionLimitReached(limit) => write!(
                f,
                "recursion limit reached: untagged enums, newtypes and flattened fields \
                 nested {limit} deep (a type that holds itself decodes the same value again)"
            ),
            DecodeErrorKind::Unplaced => f.write_str("a `Spanned` value read without its place"),
        }
    }
}

/// One decode failure: what went wrong, where in the value tree, and (once the
/// facade has mapped the path back to the source) where in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError {
    /// What went wrong.
    pub kind: DecodeErrorKind,
    /// Segments from the innermost outwards; read it through [`DecodeError::path`].
    reversed_path: Vec<Segment>,
    /// The source position of the value, when known.
    pub position: Option<Position>,
    /// What might fix it (`did you mean `port`?`).
    help: Option<String>,
}

impl DecodeError {
    /// A new error at the root of the value being decoded.
    #[cold]
    pub fn new(kind: DecodeErrorKind) -> Self {
        DecodeError {
            kind,
            reversed_path: Vec::new(),
            position: None,
            help: None,
        }
    }

    /// A hint at the fix, when there is one: `did you mean `max_connections`?` for an
    /// unknown field close to a known one.
    pub fn help(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The path from the document root to the offending value.
    pub fn path(&self) -> Path {
        Path {
            segments: self.reversed_path.iter().rev().cloned().collect(),
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        if !path.is_empty() {
            write!(f, "{path}: ")?;
        }
        write!(f, "{}", self.kind)?;
        if let Some(position) = self.position {
            write!(f, " at {position}")?;
        }
        if let Some(help) = &self.help {
            write!(f, " ({help})")?;
        }
        Ok(())
    }
}

/// Every failure of one decode, in document order. Decoding does not stop at the
/// first bad field: a struct reports all of its bad fields at once.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeErrors {
    errors: Vec<DecodeError>,
}

impl DecodeErrors {
    /// One error at the root of the value being decoded.
    #[cold]
    pub fn new(kind: DecodeErrorKind) -> Self {
        DecodeErrors {
            errors: vec![DecodeError::new(kind)],
        }
    }

    /// `expected {expected}, found {description of value}`.
    #[cold]
    pub fn invalid_type(expected: impl Into<String>, found: &crate::RawValue<'_>) -> Self {
        Self::new(DecodeErrorKind::InvalidType {
            expected: expected.into(),
            found: crate::describe(found),
        })
    }

    /// A custom message.
    #[cold]
    pub fn custom(message: impl fmt::Display) -> Self {
        Self::new(DecodeErrorKind::Custom(message.to_string()))
    }

    /// `key` names no field of a struct whose fields (and aliases) are `expected`: the
    /// error's help suggests the nearest name (`did you mean `port`?`), or lists them all.
    #[cold]
    pub fn unknown_field(key: &str, expected: &[&str]) -> Self {
        let mut errors = Self::new(DecodeErrorKind::UnknownField(key.to_owned()));
        errors.errors[0].help = match nearest(key, expected) {
            Some(name) => Some(format!("did you mean `{name}`?")),
            None if expected.is_empty() => Some("the struct has no fields".to_owned()),
            None => Some(format!("expected one of {}", quoted_list(expected))),
        };
        errors
    }

    /// No variant of an untagged enum decoded: `message`, then why each one failed
    /// (`attempts` holds each variant's name and errors, in the order tried).
    #[cold]
    pub fn no_variant_matched(message: &str, attempts: &[(&str, DecodeErrors)]) -> Self {
        let mut text = message.to_owned();
        for (i, (name, errors)) in attempts.iter().enumerate() {
            text.push_str(if i == 0 { ": " } else { "; " });
            let reasons: Vec<String> = errors.iter().map(ToString::to_string).collect();
            text.push_str(&format!("`{name}`: {}", reasons.join(", ")));
        }
        Self::custom(text)
    }

    /// Marks every error as lying under map key `key`.
    #[cold]
    pub fn at_key(mut self, key: &str) -> Self {
        for e in &mut self.errors {
            e.reversed_path.push(Segment::Key(key.to_owned()));
        }
        self
    }

    /// Marks every error as lying under sequence index `index`.
    #[cold]
    pub fn at_index(mut self, index: usize) -> Self {
        for e in &mut self.errors {
            e.reversed_path.push(Segment::Index(index));
        }
        self
    }

    /// Names a field's `range` constraint in the errors about the field's own value (not
    /// its contents): `expected integer` becomes `expected integer in 1..=65535`, and a
    /// type's own bounds (`integer in 0..=65535`) give way to the constraint's.
    #[cold]
    pub fn within_range(mut self, range: &str) -> Self {
        for e in &mut self.errors {
            if !e.reversed_path.is_empty() {
                continue;
            }
            if let DecodeErrorKind::InvalidType { expected, .. }
            | DecodeErrorKind::InvalidValue { expected, .. } = &mut e.kind
            {
                let kind = expected.split(" in ").next().unwrap_or_default().to_owned();
                *expected = format!("{kind} in {range}");
            }
        }
        self
    }

    /// Appends the errors of `other`.
    pub fn extend(&mut self, other: DecodeErrors) {
        self.errors.extend(other.errors);
    }

    /// Collects errors into an `Option` accumulator.
    pub fn accumulate(slot: &mut Option<DecodeErrors>, other: DecodeErrors) {
        match slot {
            Some(errors) => errors.extend(other),
            None => *slot = Some(other),
        }
    }

    /// Whether decoding stopped at the recursion limit
    /// ([`DecodeErrorKind::RecursionLimitReached`]): an untagged enum then tries no
    /// further variant, since each would recurse as deep again.
    #[inline]
    pub fn is_recursion_limit(&self) -> bool {
        self.errors
            .iter()
            .any(|e| matches!(e.kind, DecodeErrorKind::RecursionLimitReached(_)))
    }

    /// Whether a value that keeps its place was decoded without it
    /// ([`DecodeErrorKind::Unplaced`]): an untagged enum then tries no further variant.
    #[inline]
    pub fn is_unplaced(&self) -> bool {
        self.errors
            .iter()
            .any(|e| matches!(e.kind, DecodeErrorKind::Unplaced))
    }

    /// The errors, in the order they were found.
    pub fn iter(&self) -> std::slice::Iter<'_, DecodeError> {
        self.errors.iter()
    }

    /// Mutable access, used to attach source positions.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, DecodeError> {
        self.errors.iter_mut()
    }

    /// How many errors there are (at least one).
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Always false: a `DecodeErrors` holds at least one error.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }
}

/// `` `a`, `b`, `c` ``.
fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

/// The name in `names` closest to `key`, if close enough to be a likely typo: the same
/// but for case, `-` and `_`, or within an edit distance of a third of its length.
fn nearest<'n>(key: &str, names: &[&'n str]) -> Option<&'n str> {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let key_folded = fold(key);
    let mut best: Option<(usize, &str)> = None;
    for &name in names {
        let folded = fold(name);
        let distance = if folded == key_folded {
            0
        } else {
            edit_distance(&key_folded, &folded)
        };
        let limit = (key_folded.len().max(folded.len()) / 3).max(1);
        if distance <= limit && best.map_or(true, |(d, _)| distance < d) {
            best = Some((distance, name));
        }
    }
    best.map(|(_, name)| name)
}

/// Edit distance counting insertions, deletions, substitutions and swaps of two
/// neighbouring characters (`prot` is one edit from `port`) as one each.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    // Rows i-2, i-1 and i of the table, each b.len() + 1 long.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

impl<'e> IntoIterator for &'e DecodeErrors {
    type Item = &'e DecodeError;
    type IntoIter = std::slice::Iter<'e, DecodeError>;
    fn into_iter(self) -> Self::IntoIter {
        self.errors.iter()
    }
}

/// One error per line.
impl fmt::Display for DecodeErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DecodeErrors {}

/// A value could not be written: the target format cannot hold it, or I/O failed.
///
/// Boxed, so every `Result<(), EncodeError>` an encoder returns is one pointer.
#[derive(Debug)]
pub struct EncodeError {
    inner: Box<EncodeErrorInner>,
}

#[derive(Debug)]
struct EncodeErrorInner {
    message: String,
    reversed_path: Vec<Segment>,
    io: Option<std::io::Error>,
}

impl EncodeError {
    #[cold]
    fn from_parts(message: String, io: Option<std::io::Error>) -> Self {
        EncodeError {
            inner: Box::new(EncodeErrorInner {
                message,
                reversed_path: Vec::new(),
                io,
            }),
        }
    }

    /// The target format cannot represent the value: `"a NaN float"`, `"null"`.
    #[cold]
    pub fn unsupported(what: &str, format: &str) -> Self {
        Self::from_parts(format!("{format} cannot represent {what}"), None)
    }

    /// Any other message.
    #[cold]
    pub fn custom(message: impl fmt::Display) -> Self {
        Self::from_parts(message.to_string(), None)
    }

    /// Marks the error as lying under map key `key`.
    #[cold]
    pub fn at_key(mut self, key: &str) -> Self {
        self.inner.reversed_path.push(Segment::Key(key.to_owned()));
        self
    }

    /// Marks the error as lying under sequence index `index`.
    #[cold]
    pub fn at_index(mut self, index: usize) -> Self {
        self.inner.reversed_path.push(Segment::Index(index));
        self
    }

    /// The path from the root to the value that could not be written.
    pub fn path(&self) -> Path {
        Path {
            segments: self.inner.reversed_path.iter().rev().cloned().collect(),
        }
    }

    /// The underlying I/O error, if that is what failed.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.inner.io.as_ref()
    }
}

impl From<std::io::Error> for EncodeError {
    #[cold]
    fn from(e: std::io::Error) -> Self {
        Self::from_parts(e.to_string(), Some(e))
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        if !path.is_empty() {
            write!(f, "{path}: ")?;
        }
        f.write_str(&self.inner.message)
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner.io.as_ref().map(|e| e as _)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_round_trips_through_text() {
        for text in [
            "servers[0].host",
            "a",
            "[3]",
            "a[1][2].b",
            "[\"x.y\"].z",
            "@id.$text",
        ] {
            let path = Path::parse(text).unwrap();
            assert_eq!(path.to_string(), text, "{path:?}");
        }
        let quoted = Path::parse("a.\"b c\"").unwrap();
        assert_eq!(quoted.segments[1], Segment::Key("b c".into()));
        assert!(Path::parse("a.").is_none());
        assert!(Path::parse("a[x]").is_none());
        assert!(Path::parse("a[1").is_none());
        assert!(Path::parse("").unwrap().is_empty());
    }

    #[test]
    fn unknown_fields_suggest_the_nearest_name() {
        let names = ["max_connections", "port", "host-name"];
        let help = |key: &str| {
            DecodeErrors::unknown_field(key, &names).errors[0]
                .help()
                .map(str::to_owned)
        };
        assert_eq!(
            help("max_conection").as_deref(),
            Some("did you mean `max_connections`?")
        );
        assert_eq!(
            help("maxConnections").as_deref(),
            Some("did you mean `max_connections`?")
        );
        assert_eq!(help("prot").as_deref(), Some("did you mean `port`?"));
        assert_eq!(
            help("HOST_NAME").as_deref(),
            Some("did you mean `host-name`?")
        );
        assert_eq!(
            help("colour").as_deref(),
            Some("expected one of `max_connections`, `port`, `host-name`")
        );
        let err = DecodeErrors::unknown_field("prot", &names).at_key("prot");
        assert_eq!(
            err.to_string(),
            "prot: unknown field `prot` (did you mean `port`?)"
        );
        assert_eq!(edit_distance(&['a', 'b'], &[]), 2);
    }

    #[test]
    fn errors_stay_small() {
        assert!(std::mem::size_of::<DecodeErrors>() <= 24);
        assert_eq!(
            std::mem::size_of::<Result<(), EncodeError>>(),
            std::mem::size_of::<usize>()
        );
    }
}
