use std::fmt;

use quarry_raw_value::Position;

/// A parse error of any format: the format's own error kind `K` plus where it happened.
///
/// Boxed, so a `Result<T, Error<K>>` costs one pointer on the success path.
/// Renders as one line: `expected `,` or `}` at line 3, column 5`.
pub struct Error<K> {
    inner: Box<Inner<K>>,
}

struct Inner<K> {
    kind: K,
    position: Position,
}

impl<K> Error<K> {
    /// An error of `kind` at byte `offset` of `src`; computes line and column.
    #[cold]
    #[inline(never)]
    pub fn new(kind: K, src: &[u8], offset: usize) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                position: super::position_at(src, offset),
            }),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &K {
        &self.inner.kind
    }

    /// Where it went wrong.
    pub fn position(&self) -> Position {
        self.inner.position
    }

    /// The byte offset of the error.
    pub fn offset(&self) -> usize {
        self.inner.position.offset
    }

    /// The 1-based line of the error.
    pub fn line(&self) -> usize {
        self.inner.position.line
    }

    /// The 1-based column (in characters) of the error.
    pub fn column(&self) -> usize {
        self.inner.position.column
    }
}

impl<K: fmt::Display> fmt::Display for Error<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.inner.kind, self.inner.position)
    }
}

impl<K: fmt::Debug> fmt::Debug for Error<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("line", &self.inner.position.line)
            .field("column", &self.inner.position.column)
            .field("offset", &self.inner.position.offset)
            .finish()
    }
}

impl<K: fmt::Debug + fmt::Display> std::error::Error for Error<K> {}

impl<K: PartialEq> PartialEq for Error<K> {
    fn eq(&self, other: &Self) -> bool {
        self.inner.kind == other.inner.kind && self.inner.position == other.inner.position
    }
}
