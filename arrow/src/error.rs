//! The one error type: what went wrong, and in which record, line and column.

use std::fmt;

use arrow_schema::ArrowError;

/// An error reading records: a syntax error of the document, a value that does not fit
/// its column, a record that is not an object, or an I/O or Arrow failure.
#[derive(Debug)]
pub struct Error {
    message: String,
    record: Option<u64>,
    position: Option<(u64, u64)>,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl Error {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            record: None,
            position: None,
            source: None,
        }
    }

    pub(crate) fn with_source(
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error {
            source: Some(Box::new(source)),
            ..Error::new(message)
        }
    }

    pub(crate) fn at(mut self, record: Option<u64>, line: u64, column: u64) -> Self {
        self.record = record;
        self.position = Some((line, column));
        self
    }

    /// Moves the error's line down by `lines` (for documents read from the middle of a
    /// file: a JSON Lines line, a byte range).
    pub(crate) fn shifted(mut self, records: u64, lines: u64) -> Self {
        if let Some(record) = &mut self.record {
            *record += records;
        }
        if let Some((line, _)) = &mut self.position {
            *line += lines;
        }
        self
    }

    /// Moves the error's position by `place`, which maps a line and column in a chunk
    /// to the line and column in its source.
    pub(crate) fn placed(mut self, place: impl FnOnce(u64, u64) -> (u64, u64)) -> Self {
        if let Some((line, column)) = self.position {
            self.position = Some(place(line, column));
        }
        self
    }

    /// The error with `from` in its message replaced by `to`.
    pub(crate) fn reworded(mut self, from: &str, to: &str) -> Self {
        if self.message.contains(from) {
            self.message = self.message.replace(from, to);
        }
        self
    }

    /// What went wrong, without the place.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The record the error is in, counted from 1 in the file.
    pub fn record(&self) -> Option<u64> {
        self.record
    }

    /// The line (from 1) of the error in its file.
    pub fn line(&self) -> Option<u64> {
        self.position.map(|(line, _)| line)
    }

    /// The column (from 1, in characters) of the error in its line.
    pub fn column(&self) -> Option<u64> {
        self.position.map(|(_, column)| column)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.record, self.position) {
            (Some(record), Some((line, column))) => write!(
                f,
                "record {record}: {} at line {line}, column {column}",
                self.message
            ),
            (None, Some((line, column))) => {
                write!(f, "{} at line {line}, column {column}", self.message)
            }
            (Some(record), None) => write!(f, "record {record}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<ArrowError> for Error {
    fn from(error: ArrowError) -> Self {
        Error::with_source(error.to_string(), error)
    }
}

impl From<std::io::Error> for Error {
    fn from(error: std::io::Error) -> Self {
        Error::with_source(format!("cannot read: {error}"), error)
    }
}

impl From<Error> for ArrowError {
    fn from(error: Error) -> Self {
        ArrowError::ExternalError(Box::new(error))
    }
}
