//! [`miette`] diagnostics (the `miette` feature): parse, decode and configuration
//! errors drawn with the lines of the document they are about, a label at each bad
//! value, and help where there is some.
//!
//! ```
//! let text = "port = 70000\nhots = [\"a\"]\n";
//! # #[derive(quarry::Decode, Debug)]
//! # #[quarry(deny_unknown_fields)]
//! # #[allow(dead_code)]
//! # struct Server { #[quarry(range = 1..=65535)] port: u16, #[quarry(default)] hosts: Vec<String> }
//! let err = quarry::from_str::<Server>(text, quarry::Format::Toml).unwrap_err();
//! let report = miette::Report::new(err.with_source("server.toml", text));
//! let mut drawn = String::new();
//! miette::NarratableReportHandler::new()
//!     .render_report(&mut drawn, report.as_ref())
//!     .unwrap();
//! assert!(drawn.contains("port: expected integer in 1..=65535, found 70000"));
//! assert!(drawn.contains("did you mean `hosts`?"));
//! ```

use std::fmt;

use miette::{Diagnostic, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SpanContents};

use crate::config::{ConfigError, Origin, Problem, ProblemKind, SourceText};
use crate::Error;

impl SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// A label one character wide at byte `offset`, clamped to the text.
fn label_at(text: &str, offset: usize, label: String) -> LabeledSpan {
    let start = offset.min(text.len());
    let width = text[start..].chars().next().map_or(0, char::len_utf8);
    LabeledSpan::new_with_span(Some(label), (start, width))
}

impl Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let kind = match &self.kind {
            ProblemKind::Io => "io",
            ProblemKind::UnknownFormat => "unknown_format",
            ProblemKind::Syntax => "syntax",
            ProblemKind::Decode(_) => "decode",
            ProblemKind::AmbiguousVariable => "ambiguous_variable",
            ProblemKind::UnknownVariable => "unknown_variable",
            ProblemKind::Set => "set",
            ProblemKind::BadIndex => "bad_index",
            ProblemKind::PlainSecret => "plain_secret",
        };
        Some(Box::new(format!("quarry::config::{kind}")))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.document.as_deref().map(|d| d as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let document = self.document.as_deref()?;
        let Some(Origin::File {
            position: Some(position),
            ..
        }) = &self.origin
        else {
            return None;
        };
        let label = label_at(&document.text, position.offset, self.message.clone());
        Some(Box::new(std::iter::once(label)))
    }
}

/// One problem: that problem's diagnostic; several: each one as a related diagnostic.
impl Diagnostic for ConfigError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self.problems() {
            [one] => one.code(),
            _ => Some(Box::new("quarry::config")),
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self.problems() {
            [one] => one.help(),
            _ => None,
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        match self.problems() {
            [one] => one.source_code(),
            _ => None,
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        match self.problems() {
            [one] => one.labels(),
            _ => None,
        }
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        match self.problems() {
            [_] => None,
            many => Some(Box::new(many.iter().map(|p| p as &dyn Diagnostic))),
        }
    }
}

/// An [`Error`] with the text of the document it is about, for miette to draw: made by
/// [`Error::with_source`].
#[derive(Debug)]
pub struct Diagnosed {
    error: Error,
    source: SourceText,
}

impl Error {
    /// This error with the document it came from (`name` is how to call it, `text` its
    /// content), as a [`miette::Diagnostic`]: a parse error labelled at its position,
    /// every decode error at its value.
    pub fn with_source(self, name: impl Into<String>, text: impl AsRef<[u8]>) -> Diagnosed {
        Diagnosed {
            error: self,
            source: SourceText {
                name: name.into(),
                text: String::from_utf8_lossy(text.as_ref()).into_owned(),
            },
        }
    }
}

impl Diagnosed {
    /// The error.
    pub fn error(&self) -> &Error {
        &self.error
    }
}

/// A parse error's message, or the decode error when there is one, or how many there are.
impl fmt::Display for Diagnosed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.error {
            Error::Parse(e) => f.write_str(&e.message()),
            Error::Decode(errors) if errors.len() == 1 => {
                let e = errors.iter().next().map(|e| (e.path(), &e.kind));
                match e {
                    Some((path, kind)) if !path.is_empty() => write!(f, "{path}: {kind}"),
                    Some((_, kind)) => write!(f, "{kind}"),
                    None => Ok(()),
                }
            }
            Error::Decode(errors) => {
                write!(f, "{} values do not fit the type", errors.len())
            }
            other => write!(f, "{other}"),
        }
    }
}

impl std::error::Error for Diagnosed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl Diagnostic for Diagnosed {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let code = match &self.error {
            Error::Parse(e) => format!("quarry::parse::{}", e.kind_name()),
            Error::Decode(_) => "quarry::decode".to_owned(),
            _ => "quarry".to_owned(),
        };
        Some(Box::new(code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let Error::Decode(errors) = &self.error else {
            return None;
        };
        let helps: Vec<String> = errors
            .iter()
            .filter_map(|e| Some(format!("{}: {}", e.path(), e.help()?)))
            .collect();
        (!helps.is_empty()).then(|| Box::new(helps.join("\n")) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let text = &self.source.text;
        let labels: Vec<LabeledSpan> = match &self.error {
            Error::Parse(e) => vec![label_at(text, e.position().offset, e.message())],
            Error::Decode(errors) => errors
                .iter()
                .filter_map(|e| {
                    let position = e.position?;
                    let path = e.path();
                    let message = match path.is_empty() {
                        true => e.kind.to_string(),
                        false => format!("{path}: {}", e.kind),
                    };
                    Some(label_at(text, position.offset, message))
                })
                .collect(),
            _ => Vec::new(),
        };
        Some(Box::new(labels.into_iter()))
    }
}
