//! YAML error kinds; position and rendering live in [`crate::common`].

use std::fmt;

/// A YAML parse error: the kind plus its line, column and byte offset.
pub type Error = crate::common::Error<ErrorKind>;

/// What went wrong while parsing YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not valid UTF-8.
    InvalidUtf8,
    /// A character no YAML token can start with, or one the grammar does not allow here.
    UnexpectedCharacter {
        /// What the grammar allows here, as a phrase.
        expected: &'static str,
        /// The character found.
        found: char,
    },
    /// The input ended inside a construct (a quoted scalar, a flow collection, ...).
    UnexpectedEnd(&'static str),
    /// The parser found a token the grammar does not allow here.
    UnexpectedToken {
        /// What the grammar allows here, as a phrase.
        expected: &'static str,
        /// What was found, as a phrase.
        found: &'static str,
    },
    /// `:` where a mapping value cannot start (`a: b: c`).
    MappingValuesNotAllowed,
    /// `-` where a block sequence entry cannot start.
    BlockSequenceEntriesNotAllowed,
    /// `?` where a block mapping key cannot start.
    MappingKeysNotAllowed,
    /// An implicit key that is not followed by `:` on the same line, or is too long.
    SimpleKeyWithoutValue,
    /// A tab character used as indentation.
    TabIndentation,
    /// A line indented less or more than its block allows.
    InvalidIndentation,
    /// A `#` comment not separated from the token before it by white space.
    CommentWithoutSpace,
    /// A backslash escape YAML does not define, or one naming an invalid code point.
    InvalidEscape,
    /// A block scalar header (`|`, `>`) with bad indicators.
    InvalidBlockScalarHeader,
    /// A leading empty line of a block scalar holds more spaces than its content.
    InvalidBlockScalarIndentation,
    /// A malformed tag (`!a!`, `!<>`).
    InvalidTag,
    /// A tag handle (`!e!`) no `%TAG` directive of this document declares.
    UndefinedTagHandle(String),
    /// An anchor or alias without a name.
    InvalidAnchor,
    /// A malformed or misplaced directive, or a second `%YAML`/`%TAG` for one handle.
    InvalidDirective(&'static str),
    /// `---` or `...` inside a quoted scalar or a flow collection.
    UnexpectedDocumentMarker,
    /// A character YAML does not allow in a stream (a C0 control other than tab and breaks).
    ForbiddenCharacter(char),
    /// An alias naming no anchor defined before it in the document.
    UndefinedAlias(String),
    /// A collection used as a mapping key, which the [`RawValue`](crate::RawValue) door cannot hold.
    ComplexKey,
    /// A scalar whose explicit tag (`!!int`, `!!bool`, ...) does not fit its text.
    InvalidTaggedScalar(&'static str),
    /// A merge key `<<` whose value is not a mapping or a sequence of mappings.
    InvalidMerge,
    /// The stream holds more than one document where one was expected
    /// (use [`parse_stream`](super::parse_stream)).
    MultipleDocuments,
    /// Collections nest deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    DepthLimitReached(usize),
    /// Aliases would expand to more nodes than
    /// [`Limits::max_alias_expansion`](crate::Limits::max_alias_expansion).
    AliasExpansionLimitReached(usize),
    /// The input is larger than [`Limits::max_document_size`](crate::Limits::max_document_size).
    DocumentSizeLimitReached(usize),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            ErrorKind::UnexpectedCharacter { expected, found } => {
                write!(f, "expected {expected}, found ")?;
                if found.is_control() || found.is_whitespace() {
                    write!(f, "{found:?}")
                } else {
                    write!(f, "`{found}`")
                }
            }
            ErrorKind::UnexpectedEnd(inside) => write!(f, "unexpected end of input {inside}"),
            ErrorKind::UnexpectedToken { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ErrorKind::MappingValuesNotAllowed => {
                f.write_str("mapping values are not allowed here")
            }
            ErrorKind::BlockSequenceEntriesNotAllowed => {
                f.write_str("block sequence entries are not allowed here")
            }
            ErrorKind::MappingKeysNotAllowed => f.write_str("mapping keys are not allowed here"),
            ErrorKind::SimpleKeyWithoutValue => f.write_str(
                "implicit key without `:` on the same line (or longer than 1024 characters)",
            ),
            ErrorKind::TabIndentation => {
                f.write_str("tab characters are not allowed as indentation")
            }
            ErrorKind::InvalidIndentation => f.write_str("invalid indentation"),
            ErrorKind::CommentWithoutSpace => {
                f.write_str("a comment must be separated from the token before it by white space")
            }
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence"),
            ErrorKind::InvalidBlockScalarHeader => f.write_str("invalid block scalar header"),
            ErrorKind::InvalidBlockScalarIndentation => f.write_str(
                "a leading empty line of a block scalar is indented more than its content",
            ),
            ErrorKind::InvalidTag => f.write_str("invalid tag"),
            ErrorKind::UndefinedTagHandle(handle) => write!(f, "undefined tag handle `{handle}`"),
            ErrorKind::InvalidAnchor => f.write_str("invalid anchor or alias name"),
            ErrorKind::InvalidDirective(what) => write!(f, "invalid directive: {what}"),
            ErrorKind::UnexpectedDocumentMarker => {
                f.write_str("document marker inside a quoted scalar or flow collection")
            }
            ErrorKind::ForbiddenCharacter(c) => write!(f, "forbidden character {c:?}"),
            ErrorKind::UndefinedAlias(name) => write!(f, "undefined alias `*{name}`"),
            ErrorKind::ComplexKey => {
                f.write_str("a collection as a mapping key cannot be decoded (keys are strings)")
            }
            ErrorKind::InvalidTaggedScalar(tag) => {
                write!(f, "the scalar does not fit its tag `!!{tag}`")
            }
            ErrorKind::InvalidMerge => {
                f.write_str("a merge key `<<` needs a mapping or a sequence of mappings")
            }
            ErrorKind::MultipleDocuments => {
                f.write_str("the stream holds more than one document (parse it as a stream)")
            }
            ErrorKind::DepthLimitReached(limit) => {
                write!(f, "nesting deeper than the limit of {limit}")
            }
            ErrorKind::AliasExpansionLimitReached(limit) => {
                write!(f, "aliases expand to more than the limit of {limit} nodes")
            }
            ErrorKind::DocumentSizeLimitReached(limit) => {
                write!(f, "document larger than the limit of {limit} bytes")
            }
        }
    }
}
