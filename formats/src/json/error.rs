use std::fmt;

/// A JSON parse error: the kind plus its line, column and byte offset.
pub type Error = crate::common::Error<ErrorKind>;

/// What went wrong while parsing JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd,
    /// A character that cannot appear here.
    UnexpectedCharacter {
        /// What the grammar allows here, as a phrase (``"`,` or `]`"``).
        expected: &'static str,
        /// The character found.
        found: char,
    },
    /// Something other than whitespace follows the top-level value.
    TrailingCharacters,
    /// A number that breaks the JSON grammar (leading zero, missing digits, ...).
    InvalidNumber,
    /// A backslash escape JSON does not define.
    InvalidEscape,
    /// A `\u` escape of a UTF-16 surrogate without its partner.
    LoneSurrogate,
    /// A raw control character (below U+0020) inside a string.
    ControlCharacterInString,
    /// The input is not valid UTF-8.
    InvalidUtf8,
    /// JSONC: a `/*` comment that is never closed (the position is its start).
    UnterminatedComment,
    /// Containers nest deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    DepthLimitReached(usize),
    /// The input is larger than [`Limits::max_document_size`](crate::Limits::max_document_size).
    DocumentSizeLimitReached(usize),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEnd => f.write_str("unexpected end of input"),
            ErrorKind::UnexpectedCharacter { expected, found } => {
                write!(f, "expected {expected}, found ")?;
                if found.is_control() || found.is_whitespace() {
                    write!(f, "{:?}", found)
                } else {
                    write!(f, "`{found}`")
                }
            }
            ErrorKind::TrailingCharacters => f.write_str("trailing characters after the value"),
            ErrorKind::InvalidNumber => f.write_str("invalid number"),
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence"),
            ErrorKind::LoneSurrogate => f.write_str("lone UTF-16 surrogate in `\\u` escape"),
            ErrorKind::ControlCharacterInString => {
                f.write_str("control character in string (escape it)")
            }
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            ErrorKind::UnterminatedComment => f.write_str("unterminated block comment"),
            ErrorKind::DepthLimitReached(limit) => {
                write!(f, "nesting deeper than the limit of {limit}")
            }
            ErrorKind::DocumentSizeLimitReached(limit) => {
                write!(f, "document larger than the limit of {limit} bytes")
            }
        }
    }
}
