//! [`Secret`]: a value that never prints.

use std::fmt;

use super::merge::{Merged, NodeRef};
use crate::decode::DecodeOptions;
use crate::{
    Decode, DecodeErrorKind, DecodeErrors, Encode, EncodeError, Encoder, RawValue, Segment, Shape,
    ValuePath,
};

/// A value kept out of every print: `Debug` and `Display` write `[redacted]`, and a
/// value that fails to decode is described as `[redacted]` in the error, so neither a
/// log line, a [`Problem`](crate::config::Problem) nor `quarry config` output shows it. Read it
/// with [`Secret::expose`], as the `secrecy` crate's `expose_secret` does.
///
/// It decodes like `T` from every format and layer (with [`Config`](crate::Config), a
/// `PREFIX_FIELD_FILE` variable reads it from a mounted secret file), and encodes as `T`.
///
/// ```
/// use quarry::{Config, Format, Secret};
///
/// #[derive(quarry::Decode)]
/// struct Database {
///     password: Secret<String>,
/// }
///
/// let db: Database = Config::new()
///     .text("db.toml", "password = \"hunter2\"\n", Format::Toml)
///     .load()
///     .unwrap();
/// assert_eq!(db.password.expose(), "hunter2");
/// assert_eq!(format!("{:?}", db.password), "[redacted]");
/// ```
#[derive(Clone, Default)]
pub struct Secret<T>(T);

impl<T> Secret<T> {
    /// Wraps `value`.
    pub fn new(value: T) -> Self {
        Secret(value)
    }

    /// The value.
    pub fn expose(&self) -> &T {
        &self.0
    }

    /// The value, unwrapped.
    pub fn into_exposed(self) -> T {
        self.0
    }
}

impl<T> From<T> for Secret<T> {
    fn from(value: T) -> Self {
        Secret(value)
    }
}

impl<T> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl<T> fmt::Display for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Secret<T> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        Self::decode_with_options(value, DecodeOptions::STRICT)
    }

    fn decode_with_options(
        value: RawValue<'de>,
        options: DecodeOptions,
    ) -> Result<Self, DecodeErrors> {
        T::decode_with_options(value, options)
            .map(Secret)
            .map_err(|mut errors| {
                for error in errors.iter_mut() {
                    error.kind = redact(&error.kind);
                }
                errors
            })
    }

    fn missing() -> Option<Self> {
        T::missing().map(Secret)
    }

    fn missing_with_options(options: DecodeOptions) -> Option<Self> {
        T::missing_with_options(options).map(Secret)
    }

    fn shape() -> Shape {
        Shape::Secret(T::shape)
    }
}

impl<T: Encode> Encode for Secret<T> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        self.0.encode(encoder)
    }
}

const REDACTED: &str = "[redacted]";

/// `kind` with the value it describes left out.
pub(crate) fn redact(kind: &DecodeErrorKind) -> DecodeErrorKind {
    match kind {
        DecodeErrorKind::InvalidType { expected, .. } => DecodeErrorKind::InvalidType {
            expected: expected.clone(),
            found: REDACTED.to_owned(),
        },
        DecodeErrorKind::InvalidValue { expected, .. } => DecodeErrorKind::InvalidValue {
            expected: expected.clone(),
            found: REDACTED.to_owned(),
        },
        // A check's own message may quote the value.
        DecodeErrorKind::Custom(_) => {
            DecodeErrorKind::Custom("[redacted] is not accepted".to_owned())
        }
        other => other.clone(),
    }
}

/// True for a kind [`redact`] wrote.
pub(super) fn is_redacted(kind: &DecodeErrorKind) -> bool {
    match kind {
        DecodeErrorKind::InvalidType { found, .. }
        | DecodeErrorKind::InvalidValue { found, .. } => found == REDACTED,
        DecodeErrorKind::Custom(message) => message == "[redacted] is not accepted",
        _ => false,
    }
}

impl Merged<'_> {
    /// The paths of the secrets (values of [`Shape::Secret`]) that a document gave, for
    /// [`Config::forbid_plain_secrets`](crate::Config::forbid_plain_secrets).
    pub(super) fn plain_secrets(&self, shape: &Shape) -> Vec<ValuePath> {
        let mut out = Vec::new();
        if let Some(root) = self.tree() {
            self.find_plain_secrets(shape, root, &mut Vec::new(), &mut out);
        }
        out
    }

    fn find_plain_secrets(
        &self,
        shape: &Shape,
        node: NodeRef<'_, '_>,
        at: &mut Vec<Segment>,
        out: &mut Vec<ValuePath>,
    ) {
        match shape {
            Shape::Optional(inner) | Shape::Checked(inner, _) | Shape::Spanned(inner) => {
                self.find_plain_secrets(&inner(), node, at, out)
            }
            Shape::Secret(_) => {
                let mut sources = Vec::new();
                node.sources_from(0, &mut sources);
                if sources.iter().any(|&id| self.is_document_source(id)) {
                    out.push(ValuePath {
                        segments: at.clone(),
                    });
                }
            }
            Shape::Struct(s) => {
                for field in &s.fields {
                    let shape = (field.shape)();
                    if field.flatten {
                        self.find_plain_secrets(&shape, node, at, out);
                        continue;
                    }
                    let Some((name, child)) = field
                        .names()
                        .find_map(|name| Some((name, node.child(name)?)))
                    else {
                        continue;
                    };
                    at.push(Segment::Key(name.to_owned()));
                    self.find_plain_secrets(&shape, child, at, out);
                    at.pop();
                }
            }
            Shape::Seq(item) => {
                let item = item();
                let mut index = 0;
                while let Some(child) = node.item(index) {
                    at.push(Segment::Index(index));
                    self.find_plain_secrets(&item, child, at, out);
                    at.pop();
                    index += 1;
                }
            }
            Shape::Map(value) | Shape::SpannedKeyMap(value) => {
                let value = value();
                for (key, child) in node.entries() {
                    at.push(Segment::Key(key.to_owned()));
                    self.find_plain_secrets(&value, child, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
}
