use std::fmt;

/// An XML parse error: the kind plus its line, column and byte offset.
pub type Error = crate::common::Error<ErrorKind>;

/// What went wrong while parsing XML. Each variant is one well-formedness rule or limit.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside markup or before the root element closed.
    UnexpectedEnd,
    /// A character the grammar does not allow here.
    UnexpectedCharacter {
        /// What the grammar allows here, as a phrase (``"`>`"``).
        expected: &'static str,
        /// The character found.
        found: char,
    },
    /// A character outside XML's `Char` production (a control character, U+FFFE, U+FFFF).
    InvalidChar(char),
    /// A character reference to a code point outside XML's `Char` production.
    InvalidCharRef,
    /// A name that breaks the `Name` production (or `NCName`, with namespaces).
    InvalidName,
    /// Not valid UTF-8 (or not valid for the declared encoding).
    InvalidUtf8,
    /// UTF-16 input with an unpaired surrogate or an odd number of bytes.
    InvalidUtf16,
    /// An encoding quarry does not read: neither in the WHATWG Encoding Standard nor one
    /// of the single-byte encodings iconv and CPython read beyond it (EBCDIC, UTF-32,
    /// ISO-2022-KR, ...).
    UnsupportedEncoding(String),
    /// Bytes that the declared encoding (named here) does not define.
    InvalidEncoded(String),
    /// The declared encoding contradicts the byte order mark or the bytes.
    EncodingMismatch,
    /// A malformed XML declaration (`<?xml ...?>`), or one not at the very start.
    InvalidDeclaration,
    /// An XML version other than `1.x`.
    UnsupportedVersion,
    /// A malformed DOCTYPE or internal subset declaration.
    InvalidDoctype(&'static str),
    /// `--` inside a comment.
    DoubleHyphenInComment,
    /// A processing instruction named `xml` (in any case) after the start.
    ReservedPiTarget,
    /// `]]>` in character data.
    CdataEndInText,
    /// An end tag that does not match the open element.
    MismatchedEndTag {
        /// The name of the element that is open.
        expected: String,
        /// The name in the end tag.
        found: String,
    },
    /// An end tag with no open element.
    UnexpectedEndTag,
    /// An element's attribute appears twice (also by namespace URI and local name).
    DuplicatedAttribute(String),
    /// `<` inside an attribute value (also through an entity).
    LtInAttributeValue,
    /// No root element.
    MissingRoot,
    /// Markup or text after the root element that only comments, PIs and spaces may follow.
    ContentAfterRoot,
    /// Text before the root element.
    TextOutsideRoot,
    /// A second DOCTYPE, or one after the root element.
    UnexpectedDoctype,
    /// A reference to an entity that was never declared.
    UndeclaredEntity(String),
    /// An entity that refers to itself, directly or through others.
    RecursiveEntity(String),
    /// A reference to an unparsed (`NDATA`) entity.
    UnparsedEntityReference(String),
    /// A reference to an external entity inside an attribute value.
    ExternalEntityInAttribute(String),
    /// An entity whose replacement text is not balanced content (an element opened in
    /// the entity is closed outside it, or the other way round).
    UnbalancedEntity(String),
    /// A parameter-entity reference inside a markup declaration of the internal subset.
    PeReferenceInDeclaration,
    /// A namespace prefix that no `xmlns:prefix` declares in scope.
    UnboundPrefix(String),
    /// A forbidden namespace declaration (`xml`/`xmlns` rules, an empty prefixed URI).
    InvalidNamespaceDeclaration,
    /// Elements nest deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    DepthLimitReached(usize),
    /// Entity expansion produced more than
    /// [`Limits::max_entity_expansion`](crate::Limits::max_entity_expansion) bytes.
    EntityExpansionLimitReached(usize),
    /// Entities nest deeper than the parser follows (64).
    EntityDepthLimitReached(usize),
    /// An element has more attributes than
    /// [`Limits::max_attributes`](crate::Limits::max_attributes).
    AttributeLimitReached(usize),
    /// The input is larger than [`Limits::max_document_size`](crate::Limits::max_document_size).
    DocumentSizeLimitReached(usize),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        match self {
            UnexpectedEnd => f.write_str("unexpected end of input"),
            UnexpectedCharacter { expected, found } => {
                write!(f, "expected {expected}, found ")?;
                if found.is_control() || found.is_whitespace() {
                    write!(f, "{found:?}")
                } else {
                    write!(f, "`{found}`")
                }
            }
            InvalidChar(c) => write!(f, "character U+{:04X} is not allowed in XML", *c as u32),
            InvalidCharRef => f.write_str("character reference to a character XML does not allow"),
            InvalidName => f.write_str("invalid name"),
            InvalidUtf8 => f.write_str("invalid UTF-8"),
            InvalidUtf16 => f.write_str("invalid UTF-16"),
            UnsupportedEncoding(name) => write!(
                f,
                "unsupported encoding `{name}` (quarry reads UTF-8, UTF-16, the encodings of \
                 the WHATWG Encoding Standard and the single-byte IBM, Mac and ISO 8859 code \
                 pages)"
            ),
            InvalidEncoded(name) => write!(f, "bytes that are not valid {name}"),
            EncodingMismatch => f.write_str("the declared encoding does not match the input"),
            InvalidDeclaration => f.write_str("invalid XML declaration"),
            UnsupportedVersion => f.write_str("unsupported XML version (expected `1.x`)"),
            InvalidDoctype(what) => write!(f, "invalid document type declaration: {what}"),
            DoubleHyphenInComment => f.write_str("`--` inside a comment"),
            ReservedPiTarget => f.write_str("processing instruction target `xml` is reserved"),
            CdataEndInText => f.write_str("`]]>` in character data"),
            MismatchedEndTag { expected, found } => {
                write!(
                    f,
                    "end tag `{found}` does not match the open element `{expected}`"
                )
            }
            UnexpectedEndTag => f.write_str("end tag without an open element"),
            DuplicatedAttribute(name) => write!(f, "duplicated attribute `{name}`"),
            LtInAttributeValue => f.write_str("`<` in an attribute value"),
            MissingRoot => f.write_str("no root element"),
            ContentAfterRoot => f.write_str("content after the root element"),
            TextOutsideRoot => f.write_str("text outside the root element"),
            UnexpectedDoctype => f.write_str("unexpected document type declaration"),
            UndeclaredEntity(name) => write!(f, "undeclared entity `{name}`"),
            RecursiveEntity(name) => write!(f, "entity `{name}` refers to itself"),
            UnparsedEntityReference(name) => {
                write!(f, "reference to unparsed entity `{name}`")
            }
            ExternalEntityInAttribute(name) => {
                write!(
                    f,
                    "reference to external entity `{name}` in an attribute value"
                )
            }
            UnbalancedEntity(name) => {
                write!(f, "entity `{name}` does not hold balanced content")
            }
            PeReferenceInDeclaration => f.write_str(
                "parameter-entity reference inside a declaration of the internal subset",
            ),
            UnboundPrefix(prefix) => write!(f, "namespace prefix `{prefix}` is not declared"),
            InvalidNamespaceDeclaration => f.write_str("invalid namespace declaration"),
            DepthLimitReached(limit) => write!(f, "nesting deeper than the limit of {limit}"),
            EntityExpansionLimitReached(limit) => {
                write!(f, "entity expansion larger than the limit of {limit} bytes")
            }
            EntityDepthLimitReached(limit) => {
                write!(f, "entities nest deeper than the limit of {limit}")
            }
            AttributeLimitReached(limit) => {
                write!(f, "more attributes than the limit of {limit}")
            }
            DocumentSizeLimitReached(limit) => {
                write!(f, "document larger than the limit of {limit} bytes")
            }
        }
    }
}
