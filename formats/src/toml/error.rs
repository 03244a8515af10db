use std::fmt;

/// A TOML parse error: the kind plus its line, column and byte offset.
pub type Error = crate::common::Error<ErrorKind>;

/// What went wrong while parsing TOML.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended where more was needed.
    UnexpectedEnd {
        /// What the grammar needed, as a phrase.
        expected: &'static str,
    },
    /// A character that cannot appear here.
    UnexpectedCharacter {
        /// What the grammar allows here, as a phrase (``"`=`"``).
        expected: &'static str,
        /// The character found.
        found: char,
    },
    /// A key/value pair or table header not followed by a newline or comment.
    ExpectedNewline,
    /// A control character (other than tab) in a string or comment.
    ControlCharacter,
    /// A backslash escape TOML does not define.
    InvalidEscape,
    /// A `\u`/`\U` escape that is not a Unicode scalar value.
    InvalidUnicodeEscape,
    /// A string that is not closed on its line.
    UnterminatedString,
    /// A number that breaks TOML's grammar (leading zero, misplaced `_`, ...).
    InvalidNumber,
    /// An integer outside the signed 64-bit range.
    IntegerOverflow,
    /// A date or time that is malformed or out of range.
    InvalidDatetime,
    /// A value that is none of TOML's kinds.
    InvalidValue,
    /// A key set twice in one table.
    DuplicateKey(String),
    /// A `[table]` defined twice, or a table redefined by another means.
    DuplicateTable(String),
    /// A key or header that tries to add to something that is not an open table
    /// (a value, an inline table, a static array, a table closed by another form).
    CannotExtend {
        /// The dotted path of what is being extended.
        path: String,
        /// What it is.
        what: &'static str,
    },
    /// The input is not valid UTF-8.
    InvalidUtf8,
    /// Arrays and inline tables nest deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    DepthLimitReached(usize),
    /// The input is larger than [`Limits::max_document_size`](crate::Limits::max_document_size).
    DocumentSizeLimitReached(usize),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEnd { expected } => {
                write!(f, "expected {expected}, found the end of input")
            }
            ErrorKind::UnexpectedCharacter { expected, found } => {
                write!(f, "expected {expected}, found ")?;
                if found.is_control() || found.is_whitespace() {
                    write!(f, "{found:?}")
                } else {
                    write!(f, "`{found}`")
                }
            }
            ErrorKind::ExpectedNewline => f.write_str("expected a newline after the value"),
            ErrorKind::ControlCharacter => f.write_str("control character (escape it)"),
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence"),
            ErrorKind::InvalidUnicodeEscape => {
                f.write_str("unicode escape is not a Unicode scalar value")
            }
            ErrorKind::UnterminatedString => f.write_str("unterminated string"),
            ErrorKind::InvalidNumber => f.write_str("invalid number"),
            ErrorKind::IntegerOverflow => f.write_str("integer does not fit in 64 bits"),
            ErrorKind::InvalidDatetime => f.write_str("invalid date or time"),
            ErrorKind::InvalidValue => f.write_str("expected a value"),
            ErrorKind::DuplicateKey(key) => write!(f, "duplicate key `{key}`"),
            ErrorKind::DuplicateTable(path) => write!(f, "table `{path}` defined twice"),
            ErrorKind::CannotExtend { path, what } => {
                write!(f, "cannot add to `{path}`: it is {what}")
            }
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            ErrorKind::DepthLimitReached(limit) => {
                write!(f, "nesting deeper than the limit of {limit}")
            }
            ErrorKind::DocumentSizeLimitReached(limit) => {
                write!(f, "document larger than the limit of {limit} bytes")
            }
        }
    }
}
