//! Layered configuration: files of any format, the environment and values set in code,
//! merged into one typed struct, every value knowing where it came from.
//!
//! ```
//! use quarry::{Config, Format, Origin};
//!
//! #[derive(quarry::Decode, Debug)]
//! struct App {
//!     database: Database,
//! }
//!
//! #[derive(quarry::Decode, Debug)]
//! struct Database {
//!     #[quarry(range = 1..=65535)]
//!     port: u16,
//!     max_connections: u32,
//!     #[quarry(default)]
//!     replicas: Vec<String>,
//! }
//!
//! let (app, origins) = Config::new()
//!     .text("base.toml", "[database]\nport = 5432\nmax_connections = 10\n", Format::Toml)
//!     .env_vars("APP", [("APP_DATABASE_MAX_CONNECTIONS", "50")])
//!     .set("database.port", 5433)
//!     .load_with_origins::<App>()
//!     .unwrap();
//! assert_eq!((app.database.port, app.database.max_connections), (5433, 50));
//! assert_eq!(origins.get("database.port"), Some(&Origin::Set));
//! assert_eq!(
//!     origins.get("database.max_connections").unwrap().to_string(),
//!     "environment variable APP_DATABASE_MAX_CONNECTIONS"
//! );
//! assert_eq!(origins.get("database.replicas"), Some(&Origin::Default));
//!
//! // Every problem of every layer at once, each with its origin.
//! let err = Config::new()
//!     .text("base.toml", "[database]\nport = 70000\nmax_connections = 10\n", Format::Toml)
//!     .env_vars("APP", [("APP_DATABASE_MAX_CONNECTIONS", "lots")])
//!     .load::<App>()
//!     .unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "database.port: expected integer in 1..=65535, found 70000 at base.toml:2:8\n\
//!      database.max_connections: expected integer, found text \"lots\" \
//!      (from environment variable APP_DATABASE_MAX_CONNECTIONS)"
//! );
//! ```
//!
//! The rules:
//! - Layers apply in the order they are given, later over earlier. Maps merge key by
//!   key, to any depth; a sequence or a scalar replaces the earlier value as a whole.
//! - Environment variables are mapped through the target type's [`Shape`]: after
//!   `PREFIX_`, the name is matched case-insensitively against the field names (after
//!   `rename`/`rename_all`, and aliases), so `APP_DATABASE_MAX_CONNECTIONS` is
//!   `database.max_connections` because that field exists, not because of a separator
//!   guess. A map field takes any key after its own name (`APP_LABELS_TEAM` is
//!   `labels.team`; a key the earlier layers already hold, in any case, keeps their
//!   spelling; a new key in upper case is lowercased). A name that fits two paths is an
//!   error naming both; one that fits none is an error under `deny_unknown_fields` and
//!   ignored otherwise. Where the type describes nothing ([`Shape::Any`], as for
//!   [`RawValue`]), the keys the earlier layers hold are matched instead, and a name that
//!   fits none becomes one new key. Values are text, decoded the way XML text is
//!   (numbers and booleans parse); a sequence field takes a YAML flow sequence
//!   (`APP_HOSTS=[a, b]`). `PREFIX_PROFILE` selects the profile and is not a value.
//! - Profiles: with a profile selected ([`Config::profile`], or the variable
//!   `PREFIX_PROFILE` of the first environment layer when `profile` was not called), a
//!   file whose top level holds a `default` or a `<profile>` table is read as profiles:
//!   its `default` table, then the profile's table over it; its other tables (other
//!   profiles) are left out. A file with neither is read as it is.
//! - Keys from files keep their case.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::{
    common, Decode, DecodeErrorKind, Encode, Error, Format, Position, RawValue, Segment, Shape,
    ValuePath,
};

/// A layered configuration to load: see the [module documentation](self).
#[derive(Debug, Default)]
pub struct Config {
    layers: Vec<Layer>,
    profile: Option<String>,
}

#[derive(Debug)]
enum Layer {
    File {
        path: PathBuf,
        required: bool,
    },
    Text {
        name: String,
        text: Vec<u8>,
        format: Format,
    },
    Env {
        prefix: String,
        vars: Option<Vec<(String, String)>>,
    },
    Set {
        path: String,
        value: Result<RawValue<'static>, String>,
    },
}

impl Config {
    /// An empty configuration: add layers, then [`Config::load`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A file that must exist; its format comes from its name ([`Format::from_path`]).
    pub fn file(mut self, path: impl AsRef<Path>) -> Self {
        self.layers.push(Layer::File {
            path: path.as_ref().to_owned(),
            required: true,
        });
        self
    }

    /// A file that is skipped when it does not exist (any other failure to read it is
    /// still an error).
    pub fn optional_file(mut self, path: impl AsRef<Path>) -> Self {
        self.layers.push(Layer::File {
            path: path.as_ref().to_owned(),
            required: false,
        });
        self
    }

    /// A document held in memory (embedded defaults, a test), reported as `name`.
    pub fn text(mut self, name: impl Into<String>, text: impl AsRef<[u8]>, format: Format) -> Self {
        self.layers.push(Layer::Text {
            name: name.into(),
            text: text.as_ref().to_vec(),
            format,
        });
        self
    }

    /// The process's environment variables named `PREFIX_...` (the prefix is matched
    /// case-insensitively; give it without the trailing `_`).
    pub fn env(mut self, prefix: impl Into<String>) -> Self {
        self.layers.push(Layer::Env {
            prefix: prefix.into(),
            vars: None,
        });
        self
    }

    /// Like [`Config::env`], with the variables given instead of read from the process.
    pub fn env_vars<K: Into<String>, V: Into<String>>(
        mut self,
        prefix: impl Into<String>,
        vars: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        self.layers.push(Layer::Env {
            prefix: prefix.into(),
            vars: Some(
                vars.into_iter()
                    .map(|(k, v)| (k.into(), v.into()))
                    .collect(),
            ),
        });
        self
    }

    /// Sets the value at `path` (`database.port`, the CLI's path syntax; map keys only),
    /// over the layers before it: for overrides from command-line flags.
    pub fn set<T: Encode>(mut self, path: &str, value: T) -> Self {
        let value = value.to_raw_value().map_err(|e| e.to_string());
        self.layers.push(Layer::Set {
            path: path.to_owned(),
            value: value.map(RawValue::into_owned),
        });
        self
    }

    /// Selects a profile (see the [module documentation](self)).
    pub fn profile(mut self, name: impl Into<String>) -> Self {
        self.profile = Some(name.into());
        self
    }

    /// Merges the layers and decodes a `T`, reporting every problem of every layer.
    pub fn load<T: for<'de> Decode<'de>>(&self) -> Result<T, ConfigError> {
        let (inputs, problems) = self.read();
        let shape = <T as Decode<'static>>::shape();
        self.decode(&inputs, problems, &shape)
    }

    /// [`Config::load`], and where each value came from.
    pub fn load_with_origins<T: for<'de> Decode<'de>>(&self) -> Result<(T, Origins), ConfigError> {
        let (inputs, problems) = self.read();
        let shape = <T as Decode<'static>>::shape();
        let value = self.decode(&inputs, problems, &shape)?;
        let origins = self.merge(&inputs, &shape).origins(&inputs, &shape);
        Ok((value, origins))
    }

    /// The merged document, untyped: environment variables map onto the keys the
    /// earlier layers hold (see the [module documentation](self)).
    pub fn load_value(&self) -> Result<RawValue<'static>, ConfigError> {
        self.load::<Owned>().map(|owned| owned.0)
    }

    /// [`Config::load_value`], and where each value came from.
    pub fn load_value_with_origins(&self) -> Result<(RawValue<'static>, Origins), ConfigError> {
        self.load_with_origins::<Owned>()
            .map(|(owned, origins)| (owned.0, origins))
    }

    /// Merges and decodes. The merged tree is consumed by the decode; on failure the
    /// layers are merged again to find each problem's origin, so success pays nothing
    /// for it.
    fn decode<T: for<'de> Decode<'de>>(
        &self,
        inputs: &[Input],
        mut problems: Vec<Problem>,
        shape: &Shape,
    ) -> Result<T, ConfigError> {
        let mut merged = self.merge(inputs, shape);
        problems.append(&mut merged.problems);
        // A layer that could not be read would make the decode's complaints misleading.
        if problems.iter().any(|p| {
            matches!(
                p.kind,
                ProblemKind::Io | ProblemKind::UnknownFormat | ProblemKind::Syntax
            )
        }) {
            return Err(ConfigError::with_documents(problems, inputs));
        }
        let value = merged
            .root
            .take()
            .map_or(RawValue::Map(Vec::new()), Node::into_value);
        let decoded = if merged.any_xml {
            crate::with_xml_sequences(|| T::decode(value))
        } else {
            T::decode(value)
        };
        let errors = match decoded {
            Ok(value) if problems.is_empty() => return Ok(value),
            Ok(_) => return Err(ConfigError::with_documents(problems, inputs)),
            Err(errors) => errors,
        };
        let paths: Vec<ValuePath> = errors.iter().map(|e| e.path()).collect();
        let origins = self.merge(inputs, shape).origins_of(inputs, &paths);
        for (error, (path, origin)) in errors.iter().zip(paths.into_iter().zip(origins)) {
            problems.push(Problem {
                kind: ProblemKind::Decode(error.kind.clone()),
                path,
                origin: Some(origin),
                message: error.kind.to_string(),
                snippet: None,
                help: error.help().map(str::to_owned),
                document: None,
            });
        }
        Err(ConfigError::with_documents(problems, inputs))
    }

    /// Reads every file layer (and the environment), collecting every failure; a layer
    /// that failed reads as [`Input::Skipped`].
    fn read(&self) -> (Vec<Input>, Vec<Problem>) {
        let mut problems = Vec::new();
        let mut inputs = Vec::with_capacity(self.layers.len());
        for layer in &self.layers {
            let input = match layer {
                Layer::File { path, required } => {
                    let Some(format) = Format::from_path(path) else {
                        problems.push(Problem::plain(
                            ProblemKind::UnknownFormat,
                            format!(
                                "{}: cannot tell the format from the file name",
                                path.display()
                            ),
                        ));
                        inputs.push(Input::Skipped);
                        continue;
                    };
                    match std::fs::read(path) {
                        Ok(bytes) => Input::Document {
                            name: path.display().to_string(),
                            bytes,
                            format,
                        },
                        Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
                            Input::Skipped
                        }
                        Err(e) => {
                            problems.push(Problem::plain(
                                ProblemKind::Io,
                                format!("{}: {e}", path.display()),
                            ));
                            inputs.push(Input::Skipped);
                            continue;
                        }
                    }
                }
                Layer::Text { name, text, format } => Input::Document {
                    name: name.clone(),
                    bytes: text.clone(),
                    format: *format,
                },
                Layer::Env { prefix, vars } => Input::Env(match vars {
                    Some(vars) => vars.clone(),
                    None => std::env::vars_os()
                        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
                        .filter(|(k, _)| strip_prefix(k, prefix).is_some())
                        .collect(),
                }),
                Layer::Set { path, value } => match value {
                    Ok(_) => Input::Skipped,
                    Err(message) => {
                        problems.push(Problem::plain(
                            ProblemKind::Set,
                            format!("{path}: {message} (set in code)"),
                        ));
                        inputs.push(Input::Skipped);
                        continue;
                    }
                },
            };
            inputs.push(input);
        }
        (inputs, problems)
    }

    /// Parses and merges every layer into one tree.
    fn merge<'i>(&self, inputs: &'i [Input], shape: &Shape) -> Merged<'i> {
        let mut merged = Merged {
            root: None,
            sources: Vec::new(),
            problems: Vec::new(),
            any_xml: false,
        };
        let profile = self.profile.clone().or_else(|| {
            inputs
                .iter()
                .zip(&self.layers)
                .find_map(|(input, layer)| match (input, layer) {
                    (Input::Env(vars), Layer::Env { prefix, .. }) => vars
                        .iter()
                        .find(|(k, _)| {
                            strip_prefix(k, prefix)
                                .is_some_and(|rest| rest.eq_ignore_ascii_case("PROFILE"))
                        })
                        .map(|(_, v)| v.clone()),
                    _ => None,
                })
        });
        for (index, (input, layer)) in inputs.iter().zip(&self.layers).enumerate() {
            match (input, layer) {
                (
                    Input::Document {
                        name,
                        bytes,
                        format,
                    },
                    _,
                ) => {
                    merged.add_document(index, name, bytes, *format, profile.as_deref());
                }
                (Input::Env(vars), Layer::Env { prefix, .. }) => {
                    for (name, value) in vars {
                        merged.add_variable(prefix, name, value, shape);
                    }
                }
                (
                    Input::Skipped,
                    Layer::Set {
                        path,
                        value: Ok(value),
                    },
                ) => {
                    merged.add_set(path, value.clone());
                }
                _ => {}
            }
        }
        merged
    }
}

/// A document of any shape, owned.
struct Owned(RawValue<'static>);

impl<'de> Decode<'de> for Owned {
    fn decode(value: RawValue<'de>) -> Result<Self, crate::DecodeErrors> {
        Ok(Owned(value.into_owned()))
    }
}

/// What a layer read: a document's bytes, or environment variables.
enum Input {
    Document {
        name: String,
        bytes: Vec<u8>,
        format: Format,
    },
    Env(Vec<(String, String)>),
    Skipped,
}

/// `rest` of `name` = `PREFIX_rest`, the prefix matched case-insensitively.
fn strip_prefix<'n>(name: &'n str, prefix: &str) -> Option<&'n str> {
    let head = name.get(..prefix.len())?;
    let rest = name[prefix.len()..].strip_prefix('_')?;
    (head.eq_ignore_ascii_case(prefix) && !rest.is_empty()).then_some(rest)
}

/// Where a merged value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// A file (or a [`Config::text`] document), at the value's line and column when the
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
    /// [`Config::set`].
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
    /// A [`Config::set`] could not be applied.
    Set,
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
#[derive(Debug, PartialEq)]
pub(crate) struct SourceText {
    pub(crate) name: String,
    pub(crate) text: String,
}

impl Problem {
    fn plain(kind: ProblemKind, message: String) -> Self {
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

/// Every problem of a [`Config`] load, in layer order, then decode order.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    problems: Vec<Problem>,
}

impl ConfigError {
    /// The problems, each given the text of the document its origin names.
    fn with_documents(mut problems: Vec<Problem>, inputs: &[Input]) -> Self {
        let mut documents: Vec<Arc<SourceText>> = Vec::new();
        for problem in &mut problems {
            let Some(Origin::File { name, .. }) = &problem.origin else {
                continue;
            };
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

/// Where one merged value came from: an index into [`Merged::sources`].
type SourceId = usize;

enum Source {
    /// A document; values sit under `prefix` (a profile table) in it.
    Document {
        name: String,
        input: usize,
        prefix: Option<String>,
    },
    Env(String),
    Set,
}

/// A node of the merged tree: maps merge, everything else is one layer's value.
enum Node<'i> {
    Map {
        entries: Vec<(Cow<'i, str>, Node<'i>)>,
        from: SourceId,
    },
    Leaf {
        value: RawValue<'i>,
        from: SourceId,
    },
}

impl<'i> Node<'i> {
    fn from_value(value: RawValue<'i>, from: SourceId) -> Self {
        match value {
            RawValue::Map(entries) => Node::Map {
                entries: entries
                    .into_iter()
                    .map(|(k, v)| (k, Node::from_value(v, from)))
                    .collect(),
                from,
            },
            value => Node::Leaf { value, from },
        }
    }

    /// Lays `value` over this node.
    fn merge(&mut self, value: RawValue<'i>, from: SourceId) {
        match (self, value) {
            (Node::Map { entries, .. }, RawValue::Map(incoming)) => {
                for (key, value) in incoming {
                    match entries.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, node)) => node.merge(value, from),
                        None => entries.push((key, Node::from_value(value, from))),
                    }
                }
            }
            (node, value) => *node = Node::from_value(value, from),
        }
    }

    fn into_value(self) -> RawValue<'i> {
        match self {
            Node::Map { entries, .. } => RawValue::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, v.into_value()))
                    .collect(),
            ),
            Node::Leaf { value, .. } => value,
        }
    }

    fn to_value(&self) -> RawValue<'i> {
        match self {
            Node::Map { entries, .. } => RawValue::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
            Node::Leaf { value, .. } => value.clone(),
        }
    }

    fn entries(&self) -> &[(Cow<'i, str>, Node<'i>)] {
        match self {
            Node::Map { entries, .. } => entries,
            Node::Leaf { .. } => &[],
        }
    }

    fn child(&self, key: &str) -> Option<&Node<'i>> {
        self.entries()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The source of the deepest node along `path`.
    fn source_of(&self, path: &ValuePath) -> SourceId {
        let mut node = self;
        for segment in &path.segments {
            match (node, segment) {
                (Node::Map { entries, .. }, Segment::Key(key)) => {
                    match entries.iter().find(|(k, _)| k == key) {
                        Some((_, child)) => node = child,
                        None => break,
                    }
                }
                _ => break,
            }
        }
        match node {
            Node::Map { from, .. } | Node::Leaf { from, .. } => *from,
        }
    }
}

/// The layers merged, with the problems found so far.
struct Merged<'i> {
    root: Option<Node<'i>>,
    sources: Vec<Source>,
    problems: Vec<Problem>,
    any_xml: bool,
}

impl<'i> Merged<'i> {
    fn lay(&mut self, value: RawValue<'i>, source: Source) {
        self.sources.push(source);
        let from = self.sources.len() - 1;
        match &mut self.root {
            Some(root) => root.merge(value, from),
            None => self.root = Some(Node::from_value(value, from)),
        }
    }

    fn add_document(
        &mut self,
        input: usize,
        name: &str,
        bytes: &'i [u8],
        format: Format,
        profile: Option<&str>,
    ) {
        let parsed = match format {
            // A config struct reads from the root element itself, as `from_slice` does.
            #[cfg(feature = "xml")]
            Format::Xml => {
                self.any_xml = true;
                crate::xml::parse_root(bytes)
                    .map(|(_, value)| value)
                    .map_err(Error::from)
            }
            _ => crate::parse_raw(bytes, format),
        };
        let value = match parsed {
            Ok(value) => value,
            Err(Error::Parse(e)) => {
                let position = e.position();
                self.problems.push(Problem {
                    kind: ProblemKind::Syntax,
                    path: ValuePath::default(),
                    origin: Some(Origin::File {
                        name: name.to_owned(),
                        position: Some(position),
                    }),
                    message: e.message(),
                    snippet: Some(common::render_snippet(bytes, position)),
                    help: None,
                    document: None,
                });
                return;
            }
            Err(e) => {
                self.problems
                    .push(Problem::plain(ProblemKind::Syntax, format!("{name}: {e}")));
                return;
            }
        };
        let document = |prefix: Option<&str>| Source::Document {
            name: name.to_owned(),
            input,
            prefix: prefix.map(str::to_owned),
        };
        if let (Some(profile), RawValue::Map(entries)) = (profile, &value) {
            let has = |key: &str| {
                entries
                    .iter()
                    .any(|(k, v)| k == key && matches!(v, RawValue::Map(_)))
            };
            if has("default") || has(profile) {
                let RawValue::Map(entries) = value else {
                    unreachable!()
                };
                let mut default = None;
                let mut chosen = None;
                for (key, table) in entries {
                    if key == "default" {
                        default = Some(table);
                    } else if key == profile {
                        chosen = Some(table);
                    }
                }
                if let Some(table) = default {
                    self.lay(table, document(Some("default")));
                }
                if let Some(table) = chosen {
                    self.lay(table, document(Some(profile)));
                }
                return;
            }
        }
        self.lay(value, document(None));
    }

    fn add_set(&mut self, path: &str, value: RawValue<'static>) {
        let Some(parsed) = ValuePath::parse(path) else {
            self.problems.push(Problem::plain(
                ProblemKind::Set,
                format!("`{path}` is not a path (set in code)"),
            ));
            return;
        };
        let mut value: RawValue<'i> = value;
        for segment in parsed.segments.iter().rev() {
            match segment {
                Segment::Key(key) => value = RawValue::Map(vec![(Cow::Owned(key.clone()), value)]),
                Segment::Index(_) => {
                    self.problems.push(Problem::plain(
                        ProblemKind::Set,
                        format!("{path}: `set` takes map keys only; set the whole sequence (set in code)"),
                    ));
                    return;
                }
            }
        }
        self.lay(value, Source::Set);
    }

    fn add_variable(&mut self, prefix: &str, name: &str, text: &str, shape: &Shape) {
        let Some(rest) = strip_prefix(name, prefix) else {
            return;
        };
        if rest.eq_ignore_ascii_case("PROFILE") {
            return;
        }
        let mut search = EnvSearch::default();
        search.resolve(shape, self.root.as_ref(), rest, Vec::new(), false);
        search.found.dedup_by(|a, b| a.0 == b.0);
        match search.found.len() {
            0 if search.denied => self.problems.push(Problem {
                kind: ProblemKind::UnknownVariable,
                path: ValuePath::default(),
                origin: Some(Origin::Env {
                    name: name.to_owned(),
                }),
                message: "fits no field of the configuration (its type denies unknown fields)"
                    .to_owned(),
                snippet: None,
                help: None,
                document: None,
            }),
            0 => {}
            1 => {
                let Some((path, takes)) = search.found.pop() else {
                    return;
                };
                let value = variable_value(text, takes);
                let mut nested = value;
                for key in path.iter().rev() {
                    nested = RawValue::Map(vec![(Cow::Owned(key.clone()), nested)]);
                }
                self.lay(nested, Source::Env(name.to_owned()));
            }
            _ => {
                let paths: Vec<String> = search
                    .found
                    .iter()
                    .map(|(p, _)| key_path(p).to_string())
                    .collect();
                self.problems.push(Problem {
                    kind: ProblemKind::AmbiguousVariable,
                    path: ValuePath::default(),
                    origin: Some(Origin::Env {
                        name: name.to_owned(),
                    }),
                    message: format!("fits more than one field: {}", paths.join(" and ")),
                    snippet: None,
                    help: None,
                    document: None,
                });
            }
        }
    }

    /// The origin of each path: the layer of the deepest merged node along it, and for a
    /// document the position of the deepest node along it there.
    fn origins_of(&self, inputs: &'i [Input], paths: &[ValuePath]) -> Vec<Origin> {
        let Some(root) = &self.root else {
            return vec![Origin::Default; paths.len()];
        };
        let sources: Vec<SourceId> = paths.iter().map(|p| root.source_of(p)).collect();
        let mut origins: Vec<Option<Origin>> = vec![None; paths.len()];
        for (id, source) in self.sources.iter().enumerate() {
            let wanted: Vec<usize> = (0..paths.len()).filter(|&i| sources[i] == id).collect();
            if wanted.is_empty() {
                continue;
            }
            match source {
                Source::Env(name) => {
                    for &i in &wanted {
                        origins[i] = Some(Origin::Env { name: name.clone() });
                    }
                }
                Source::Set => {
                    for &i in &wanted {
                        origins[i] = Some(Origin::Set);
                    }
                }
                Source::Document {
                    name,
                    input,
                    prefix,
                } => {
                    let Input::Document { bytes, format, .. } = &inputs[*input] else {
                        continue;
                    };
                    let format = *format;
                    let in_document: Vec<ValuePath> = wanted
                        .iter()
                        .map(|&i| {
                            let mut p = paths[i].clone();
                            if let Some(prefix) = prefix {
                                p.segments.insert(0, Segment::Key(prefix.clone()));
                            }
                            p
                        })
                        .collect();
                    let positions = crate::locate_paths(bytes, format, &in_document)
                        .unwrap_or_else(|| vec![None; wanted.len()]);
                    for (&i, position) in wanted.iter().zip(positions) {
                        origins[i] = Some(Origin::File {
                            name: name.clone(),
                            position,
                        });
                    }
                }
            }
        }
        origins
            .into_iter()
            .map(|o| o.unwrap_or(Origin::Default))
            .collect()
    }

    /// Every path of the merged tree with its origin, then the fields left to defaults.
    fn origins(&self, inputs: &'i [Input], shape: &Shape) -> Origins {
        let mut paths = Vec::new();
        if let Some(root) = &self.root {
            collect_paths(&root.to_value(), &mut Vec::new(), &mut paths);
        }
        let origins = self.origins_of(inputs, &paths);
        let mut entries: Vec<(ValuePath, Origin)> = paths.into_iter().zip(origins).collect();
        collect_defaults(shape, self.root.as_ref(), &mut Vec::new(), &mut entries);
        Origins { entries }
    }
}

/// Every path in `value`, parents before children.
fn collect_paths(value: &RawValue<'_>, at: &mut Vec<Segment>, out: &mut Vec<ValuePath>) {
    out.push(ValuePath {
        segments: at.clone(),
    });
    match value {
        RawValue::Map(entries) => {
            for (k, v) in entries {
                at.push(Segment::Key(k.to_string()));
                collect_paths(v, at, out);
                at.pop();
            }
        }
        RawValue::Seq(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(Segment::Index(i));
                collect_paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// The fields of `shape` (a struct, through options and flattening) no layer gave:
/// their origin is [`Origin::Default`].
fn collect_defaults(
    shape: &Shape,
    node: Option<&Node<'_>>,
    at: &mut Vec<Segment>,
    out: &mut Vec<(ValuePath, Origin)>,
) {
    let Shape::Struct(s) = shape.clone().unwrap_optional() else {
        return;
    };
    for field in &s.fields {
        if field.flatten {
            collect_defaults(&(field.shape)(), node, at, out);
            continue;
        }
        let child = node.and_then(|n| field.names().find_map(|name| n.child(name)));
        at.push(Segment::Key(field.name.to_owned()));
        match child {
            None => out.push((
                ValuePath {
                    segments: at.clone(),
                },
                Origin::Default,
            )),
            Some(child) => collect_defaults(&(field.shape)(), Some(child), at, out),
        }
        at.pop();
    }
}

fn key_path(keys: &[String]) -> ValuePath {
    ValuePath {
        segments: keys.iter().cloned().map(Segment::Key).collect(),
    }
}

/// The paths an environment variable's name fits, found through the target's shape.
#[derive(Default)]
struct EnvSearch {
    /// Each fitting path, and what its value takes.
    found: Vec<(Vec<String>, Takes)>,
    /// True when some part of the name fit no field of a struct that denies unknown keys.
    denied: bool,
}

impl EnvSearch {
    /// Finds where `rest` (the name after the prefix, or after the keys already matched)
    /// leads from a value of `shape`, whose current merged node is `node`.
    fn resolve(
        &mut self,
        shape: &Shape,
        node: Option<&Node<'_>>,
        rest: &str,
        at: Vec<String>,
        flattened: bool,
    ) {
        match shape {
            Shape::Optional(inner) => self.resolve(&inner(), node, rest, at, flattened),
            Shape::Struct(s) => {
                let before = self.found.len();
                for field in &s.fields {
                    if field.flatten {
                        self.resolve(&(field.shape)(), node, rest, at.clone(), true);
                        continue;
                    }
                    for name in field.names() {
                        let Some(after) = match_key(rest, name) else {
                            continue;
                        };
                        let mut path = at.clone();
                        path.push(field.name.to_owned());
                        let shape = (field.shape)();
                        match after {
                            None => self.leaf(&shape, path),
                            Some(after) => {
                                let child = node.and_then(|n| n.child(field.name));
                                self.resolve(&shape, child, after, path, false);
                            }
                        }
                    }
                }
                if self.found.len() == before && s.deny_unknown_fields && !flattened {
                    self.denied = true;
                }
            }
            Shape::Map(value) => self.resolve_keys(&value(), node, rest, at, false),
            Shape::Any => self.resolve_keys(&Shape::Any, node, rest, at, true),
            _ => {}
        }
    }

    /// A map (or a value of unknown shape): any key, an existing key first in its own spelling.
    fn resolve_keys(
        &mut self,
        value: &Shape,
        node: Option<&Node<'_>>,
        rest: &str,
        at: Vec<String>,
        only_existing_nesting: bool,
    ) {
        let entries = node.map(Node::entries).unwrap_or_default();
        let before = self.found.len();
        // Existing keys, in their own spelling.
        for (key, child) in entries {
            let Some(after) = match_key(rest, key) else {
                continue;
            };
            let mut path = at.clone();
            path.push(key.to_string());
            match after {
                None => self.leaf(value, path),
                Some(after) => self.resolve(value, Some(child), after, path, false),
            }
        }
        if self.found.len() > before {
            return;
        }
        if only_existing_nesting {
            // Nothing known fits: the whole rest is one new key.
            let mut path = at;
            path.push(new_key(rest));
            self.leaf(value, path);
            return;
        }
        // A new key: every split of the rest at an underscore that the value shape fits.
        let mut cut = 0;
        loop {
            let next = rest[cut..].find('_').map(|i| cut + i);
            let (key, after) = match next {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            if !key.is_empty() && !entries.iter().any(|(k, _)| k.eq_ignore_ascii_case(key)) {
                let mut path = at.clone();
                path.push(new_key(key));
                match after {
                    None => self.leaf(value, path),
                    Some(after) if !after.is_empty() => {
                        self.resolve(value, None, after, path, false)
                    }
                    Some(_) => {}
                }
            }
            match next {
                Some(i) => cut = i + 1,
                None => break,
            }
        }
    }

    /// `path` takes the variable's text, if a value of `shape` can be text.
    fn leaf(&mut self, shape: &Shape, path: Vec<String>) {
        let takes = match shape.clone().unwrap_optional() {
            Shape::Seq(_) | Shape::Tuple(_) => Takes::Sequence,
            Shape::Any => Takes::Anything,
            shape if shape.is_scalar() || matches!(shape, Shape::Enum(_)) => Takes::Text,
            _ => return,
        };
        self.found.push((path, takes));
    }
}

/// `Some(None)` when `rest` is `key` (case-insensitively, `-` and `.` in the key standing
/// for `_`), `Some(Some(after))` when it is `key_after`, `None` otherwise.
fn match_key<'r>(rest: &'r str, key: &str) -> Option<Option<&'r str>> {
    let fits = |a: u8, b: u8| a.eq_ignore_ascii_case(&b) || (a == b'_' && matches!(b, b'-' | b'.'));
    let (r, k) = (rest.as_bytes(), key.as_bytes());
    if k.is_empty() || r.len() < k.len() || !r.iter().zip(k).all(|(&a, &b)| fits(a, b)) {
        return None;
    }
    match r.get(k.len()) {
        None => Some(None),
        Some(b'_') if r.len() > k.len() + 1 => Some(Some(&rest[k.len() + 1..])),
        _ => None,
    }
}

/// A new map key from a variable's name: lowercased when written in upper case.
fn new_key(text: &str) -> String {
    if text.bytes().any(|b| b.is_ascii_lowercase()) {
        text.to_owned()
    } else {
        text.to_ascii_lowercase()
    }
}

/// What a variable's value is read as, by the shape it lands on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Takes {
    /// Text, decoded by the target type as XML text is.
    Text,
    /// A YAML flow sequence (`[a, b]`).
    Sequence,
    /// Anything (the type does not say): a YAML scalar or flow collection.
    Anything,
}

/// A variable's value: text; for a sequence field a YAML flow sequence whose scalars
/// are text too (so `[1, 2]` fills a `Vec<String>` as well as a `Vec<u8>`); where the
/// type says nothing, the value YAML reads (`50` a number, `true` a boolean).
fn variable_value(text: &str, takes: Takes) -> RawValue<'static> {
    #[cfg(feature = "yaml")]
    match takes {
        Takes::Sequence if text.trim_start().starts_with('[') => {
            if let Ok(value) = crate::yaml::parse(text.as_bytes()) {
                return scalars_as_text(value.into_owned());
            }
        }
        Takes::Anything => {
            if let Ok(
                value @ (RawValue::Seq(_)
                | RawValue::Map(_)
                | RawValue::Bool(_)
                | RawValue::Int(_)
                | RawValue::UInt(_)
                | RawValue::Float(_)),
            ) = crate::yaml::parse(text.as_bytes())
            {
                return value.into_owned();
            }
        }
        _ => {}
    }
    let _ = takes;
    RawValue::Text(Cow::Owned(text.to_owned()))
}

#[cfg(feature = "yaml")]
fn scalars_as_text(value: RawValue<'static>) -> RawValue<'static> {
    match value {
        RawValue::Seq(items) => RawValue::Seq(items.into_iter().map(scalars_as_text).collect()),
        RawValue::Map(entries) => RawValue::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k, scalars_as_text(v)))
                .collect(),
        ),
        RawValue::Null => RawValue::Null,
        RawValue::String(s) => RawValue::Text(s),
        RawValue::Bool(b) => RawValue::Text(Cow::Owned(b.to_string())),
        RawValue::Int(i) => RawValue::Text(Cow::Owned(i.to_string())),
        RawValue::UInt(u) => RawValue::Text(Cow::Owned(u.to_string())),
        RawValue::BigNumber(s) => RawValue::Text(s),
        RawValue::Float(f) => RawValue::Text(Cow::Owned(f.to_string())),
        RawValue::Datetime(d) => RawValue::Text(Cow::Owned(d.to_string())),
        other => other,
    }
}
