use std::fmt;

/// A property-list parse error: the kind plus its line, column and byte offset.
///
/// For binary plists the line is 1 and the offset is the byte offset in the file; for
/// UTF-16 XML plists positions refer to the document transcoded to UTF-8.
pub type Error = crate::common::Error<ErrorKind>;

/// What went wrong while reading a property list.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is empty (or only white space and comments).
    Empty,
    /// The XML plist is not well-formed XML.
    Xml(crate::xml::ErrorKind),
    /// The root element of an XML plist is not `<plist>`.
    InvalidRoot,
    /// An element the plist DTD does not allow here (`<foo>`, `<key>` outside a dict).
    UnexpectedElement(String),
    /// Text (other than white space) where only elements may be.
    UnexpectedText,
    /// A `<plist>` element holding no value.
    MissingValue,
    /// A `<plist>` element holding more than one value.
    MultipleValues,
    /// A dict value not preceded by its `<key>`.
    MissingKey,
    /// A dict `<key>` not followed by a value.
    MissingDictValue,
    /// An `<integer>` that is not a decimal or `0x` hexadecimal integer.
    InvalidInteger,
    /// An integer outside -2^63 ..= 2^64-1.
    IntegerOverflow,
    /// A `<real>` that is not a number.
    InvalidReal,
    /// A date that is malformed or outside the years 0000 ..= 9999.
    InvalidDate,
    /// `<data>` or OpenStep `<hex>` data that does not decode.
    InvalidData,
    /// A binary plist that does not start with `bplist00`.
    InvalidMagic,
    /// A binary plist shorter than its header and trailer.
    Truncated,
    /// A binary trailer field out of range (the field is named).
    InvalidTrailer(&'static str),
    /// An offset-table entry outside the object area (header, offset table, trailer, end).
    InvalidOffset(u64),
    /// An object reference to an object that does not exist.
    InvalidReference(u64),
    /// An object that runs past the end of the object area.
    ObjectOutOfBounds,
    /// An object marker byte binary plists do not define (or a null, fill or set).
    UnknownObject(u8),
    /// A length or count that is not a valid integer object.
    InvalidLength,
    /// A real whose size is not 4 or 8 bytes, or an integer or UID of unsupported width.
    InvalidWidth,
    /// A byte above 0x7F in an ASCII string object.
    InvalidAscii,
    /// A UTF-16 string with an unpaired surrogate.
    InvalidUtf16,
    /// Text that is not valid UTF-8.
    InvalidUtf8,
    /// A dict key that is not a string.
    KeyNotString,
    /// A container that contains itself.
    Cycle,
    /// Shared containers expanded beyond [`Limits::max_alias_expansion`](crate::Limits::max_alias_expansion)
    /// on top of the document's own size.
    ExpansionLimitReached(usize),
    /// An OpenStep character that cannot appear here.
    UnexpectedCharacter {
        /// What the grammar allows here, as a phrase.
        expected: &'static str,
        /// The character found.
        found: char,
    },
    /// The input ended where more was needed.
    UnexpectedEnd {
        /// What the grammar needed, as a phrase.
        expected: &'static str,
    },
    /// An OpenStep quoted string that is never closed.
    UnterminatedString,
    /// An OpenStep comment that is never closed.
    UnterminatedComment,
    /// An OpenStep escape that is not a valid character.
    InvalidEscape,
    /// Content after the one top-level value.
    TrailingContent,
    /// Containers nest deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    DepthLimitReached(usize),
    /// The input is larger than [`Limits::max_document_size`](crate::Limits::max_document_size).
    DocumentSizeLimitReached(usize),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Empty => f.write_str("empty property list"),
            ErrorKind::Xml(kind) => write!(f, "{kind}"),
            ErrorKind::InvalidRoot => f.write_str("the root element is not `plist`"),
            ErrorKind::UnexpectedElement(name) => write!(f, "unexpected element `{name}`"),
            ErrorKind::UnexpectedText => f.write_str("unexpected text between elements"),
            ErrorKind::MissingValue => f.write_str("`plist` holds no value"),
            ErrorKind::MultipleValues => f.write_str("`plist` holds more than one value"),
            ErrorKind::MissingKey => f.write_str("dict value without a `key`"),
            ErrorKind::MissingDictValue => f.write_str("dict `key` without a value"),
            ErrorKind::InvalidInteger => f.write_str("invalid integer"),
            ErrorKind::IntegerOverflow => f.write_str("integer outside -2^63..=2^64-1"),
            ErrorKind::InvalidReal => f.write_str("invalid real"),
            ErrorKind::InvalidDate => f.write_str("invalid date"),
            ErrorKind::InvalidData => f.write_str("invalid data"),
            ErrorKind::InvalidMagic => f.write_str("not a binary plist (expected `bplist00`)"),
            ErrorKind::Truncated => f.write_str("binary plist too short"),
            ErrorKind::InvalidTrailer(field) => write!(f, "invalid trailer: {field}"),
            ErrorKind::InvalidOffset(offset) => {
                write!(f, "object offset {offset} outside the object area")
            }
            ErrorKind::InvalidReference(r) => {
                write!(f, "reference to object {r}, which does not exist")
            }
            ErrorKind::ObjectOutOfBounds => f.write_str("object runs past the object area"),
            ErrorKind::UnknownObject(marker) => write!(f, "unknown object marker 0x{marker:02x}"),
            ErrorKind::InvalidLength => f.write_str("invalid length"),
            ErrorKind::InvalidWidth => f.write_str("invalid number width"),
            ErrorKind::InvalidAscii => f.write_str("non-ASCII byte in an ASCII string"),
            ErrorKind::InvalidUtf16 => f.write_str("unpaired UTF-16 surrogate"),
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            ErrorKind::KeyNotString => f.write_str("dict key is not a string"),
            ErrorKind::Cycle => f.write_str("a container contains itself"),
            ErrorKind::ExpansionLimitReached(limit) => {
                write!(f, "shared objects expand beyond the limit of {limit} nodes")
            }
            ErrorKind::UnexpectedCharacter { expected, found } => {
                write!(f, "expected {expected}, found ")?;
                if found.is_control() || found.is_whitespace() {
                    write!(f, "{found:?}")
                } else {
                    write!(f, "`{found}`")
                }
            }
            ErrorKind::UnexpectedEnd { expected } => {
                write!(f, "expected {expected}, found the end of input")
            }
            ErrorKind::UnterminatedString => f.write_str("unterminated string"),
            ErrorKind::UnterminatedComment => f.write_str("unterminated comment"),
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence"),
            ErrorKind::TrailingContent => f.write_str("content after the top-level value"),
            ErrorKind::DepthLimitReached(limit) => {
                write!(f, "nesting deeper than the limit of {limit}")
            }
            ErrorKind::DocumentSizeLimitReached(limit) => {
                write!(f, "document larger than the limit of {limit} bytes")
            }
        }
    }
}
