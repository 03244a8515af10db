//! Where each value of a loaded configuration came from.

use std::fmt;

use crate::{Position, ValuePath};

/// Where a merged value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// A file (or a [`Config::text`](crate::Config::text) document), at the value's line and column when the
    /// format has lines (a binary plist has none).
    File {
        /// The file's path as given, or the text's name.
        name: String,
        /// Where the value starts.
        position: Option<Position>,
    },
    /// An environment variable.
    Env {
        /// The variable's name.
        name: String,
    },
    /// A file named by a `PREFIX_..._FILE` variable (a mounted secret): the value is
    /// its content.
    SecretFile {
        /// The file's path, as the variable gives it.
        path: String,
        /// The variable's name.
        variable: String,
    },
    /// [`Config::set`](crate::Config::set).
    Set,
    /// No layer gave it: the field's default (or `None`).
    Default,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File {
                name,
                position: Some(p),
            } => write!(f, "{name}:{}:{}", p.line, p.column),
            Origin::File {
                name,
                position: None,
            } => f.write_str(name),
            Origin::Env { name } => write!(f, "environment variable {name}"),
            Origin::SecretFile { path, variable } => write!(f, "{path} (named by {variable})"),
            Origin::Set => f.write_str("set in code"),
            Origin::Default => f.write_str("default"),
        }
    }
}

/// Where each value of a loaded configuration came from, by path.
#[derive(Debug, Clone, Default)]
pub struct Origins {
    entries: Vec<(ValuePath, Origin)>,
}

impl Origins {
    pub(super) fn new(entries: Vec<(ValuePath, Origin)>) -> Self {
        Origins { entries }
    }

    /// The origin of the value at `path` (`database.port`, `servers[0].host`); under a
    /// field no layer gave, [`Origin::Default`]. `None` for a path the configuration
    /// does not hold.
    pub fn get(&self, path: &str) -> Option<&Origin> {
        let mut path = ValuePath::parse(path)?;
        let exact = self.find(&path);
        if exact.is_some() {
            return exact;
        }
        while path.segments.pop().is_some() {
            if let Some(origin) = self.find(&path) {
                return (*origin == Origin::Default).then_some(origin);
            }
        }
        None
    }

    fn find(&self, path: &ValuePath) -> Option<&Origin> {
        self.entries.iter().find(|(p, _)| p == path).map(|(_, o)| o)
    }

    /// Every recorded path with its origin: maps, sequences and their contents, in
    /// document order, then the fields left to their defaults.
    pub fn iter(&self) -> impl Iterator<Item = (&ValuePath, &Origin)> {
        self.entries.iter().map(|(p, o)| (p, o))
    }
}
