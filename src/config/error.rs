//! What a load reports: every problem of every layer, each with its origin.

use std::fmt;
use std::sync::Arc;

use super::{Input, Origin};
use crate::{DecodeErrorKind, ValuePath};

/// What went wrong with one value or layer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// A file could not be read.
    Io,
    /// A file's format could not be told from its name.
    UnknownFormat,
    /// A document is not well-formed.
    Syntax,
    /// A value does not fit the target type.
    Decode(DecodeErrorKind),
    /// An environment variable fits two paths of the target type.
    AmbiguousVariable,
    /// An environment variable fits no field, and the type denies unknown fields.
    UnknownVariable,
    /// A [`Config::set`](crate::Config::set) could not be applied.
    Set,
    /// An environment variable's index addresses a value that is not a sequence, or
    /// leaves a gap in one.
    BadIndex,
    /// A secret given in a plain file while [`Config::forbid_plain_secrets`] is on.
    ///
    /// [`Config::forbid_plain_secrets`]: crate::Config::forbid_plain_secrets
    PlainSecret,
}

/// One problem of a load: what, where in the value, and which layer gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// What went wrong.
    pub kind: ProblemKind,
    /// The path of the value in the merged configuration (empty for a whole layer).
    pub path: ValuePath,
    /// Where the offending value came from, when known.
    pub origin: Option<Origin>,
    /// The message, without path or origin.
    pub message: String,
    /// For syntax errors: the source line with a caret under the column.
    pub snippet: Option<String>,
    /// A hint at the fix (`did you mean `port`?`), when there is one.
    pub help: Option<String>,
    /// The text of the document the problem is in, for diagnostics that draw it.
    pub(crate) document: Option<Arc<SourceText>>,
}

/// A document's name and text, kept by a [`Problem`] for diagnostics (the `miette`
/// feature draws the lines around it).
#[derive(PartialEq)]
pub(crate) struct SourceText {
    pub(crate) name: String,
    pub(crate) text: String,
}

/// The name and size only: a document may hold secrets, which a `Debug` print of an
/// error must not show.
impl fmt::Debug for SourceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SourceText")
            .field("name", &self.name)
            .field("len", &self.text.len())
            .finish()
    }
}

impl Problem {
    pub(super) fn plain(kind: ProblemKind, message: String) -> Self {
        Problem {
            kind,
            path: ValuePath::default(),
            origin: None,
            message,
            snippet: None,
            help: None,
            document: None,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == ProblemKind::Syntax {
            if let Some(origin) = &self.origin {
                write!(f, "{origin}: ")?;
            }
            f.write_str(&self.message)?;
            if let Some(snippet) = &self.snippet {
                write!(f, "\n{snippet}")?;
            }
            return Ok(());
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)?;
        match &self.origin {
            Some(origin @ Origin::File { .. }) => write!(f, " at {origin}")?,
            Some(origin) => write!(f, " (from {origin})")?,
            None => {}
        }
        match &self.help {
            Some(help) => write!(f, " ({help})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Problem {}

/// Every problem of a [`Config`](crate::Config) load, in layer order, then decode order.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    problems: Vec<Problem>,
}

impl ConfigError {
    /// The problems, each given the text of the document its origin names.
    pub(super) fn with_documents(mut problems: Vec<Problem>, inputs: &[Input]) -> Self {
        let mut documents: Vec<Arc<SourceText>> = Vec::new();
        for problem in &mut problems {
            let Some(Origin::File { name, .. }) = &problem.origin else {
                continue;
            };
            // A diagnostic would draw the secret's line.
            if matches!(&problem.kind, ProblemKind::Decode(kind) if super::secret::is_redacted(kind))
            {
                continue;
            }
            if let Some(known) = documents.iter().find(|d| d.name == *name) {
                problem.document = Some(known.clone());
                continue;
            }
            let text = inputs.iter().find_map(|input| match input {
                Input::Document { name: n, bytes, .. } if n == name => {
                    Some(String::from_utf8_lossy(bytes).into_owned())
                }
                _ => None,
            });
            if let Some(text) = text {
                let document = Arc::new(SourceText {
                    name: name.clone(),
                    text,
                });
                documents.push(document.clone());
                problem.document = Some(document);
            }
        }
        ConfigError { problems }
    }

    /// The problems (at least one).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

/// One problem per line (a syntax error adds its snippet's lines).
impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}
