//! Layered configuration: files of any format, the environment and values set in code,
//! merged into one typed struct, every value knowing where it came from.
//!
//! ```
//! use quarry::{Config, Format};
//! use quarry::config::Origin;
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
//!   key, to any depth; a sequence or a scalar replaces the earlier value as a whole,
//!   except a sequence field marked `#[quarry(merge = "append")]`, whose layers' items
//!   are concatenated in layer order (each item keeping its own origin).
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
//!   (`APP_HOSTS=[a, b]`), or its items one by one after their index
//!   (`APP_SERVERS_0_HOST`, `APP_HOSTS_1`): an index may address an item the earlier
//!   layers hold or extend the sequence by one (the variables are laid in index order, so
//!   `_0_` and `_1_` start a list), an index further on is a gap and an error, and an
//!   index after a field that is not a sequence is an error naming the variable. An item
//!   the variables and the earlier layers leave incomplete is reported like any missing
//!   field. `PREFIX_PROFILE` selects the profile and is not a value.
//! - Profiles: with a profile selected ([`Config::profile`], or the variable
//!   `PREFIX_PROFILE` of the first environment layer when `profile` was not called), a
//!   file whose top level holds a `default` or a `<profile>` table is read as profiles:
//!   its `default` table, then the profile's table over it; its other tables (other
//!   profiles) are left out. A file with neither is read as it is.
//! - Keys from files keep their case.

mod env;
mod error;
mod explain;
mod merge;
mod origin;
mod secret;

use std::path::{Path, PathBuf};

use crate::{Decode, Encode, Format, RawValue, Shape, ValuePath};

// For the `miette` diagnostics, which draw a problem's document.
#[cfg(feature = "miette")]
pub(crate) use error::SourceText;
pub use error::{ConfigError, Problem, ProblemKind};
pub use explain::{Candidate, Explanation};
use merge::{Merged, Node};
pub use origin::{Origin, Origins};
pub use secret::Secret;

use env::strip_prefix;

/// A layered configuration to load: see the [module documentation](self).
#[derive(Debug, Default)]
pub struct Config {
    layers: Vec<Layer>,
    profile: Option<String>,
    forbid_plain_secrets: bool,
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
    Dir {
        path: PathBuf,
        required: bool,
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

    /// Every file of a known format in the folder `path` (a `conf.d`), one layer each, in
    /// the byte order of their names, as systemd, nginx and apt read theirs. Hidden files
    /// (`.name`), editor backups (`name~`, `#name#`, `.bak`, `.swp`, `.orig`) and files of
    /// no known format are skipped; an absent folder is an error, as with
    /// [`Config::file`].
    pub fn dir(mut self, path: impl AsRef<Path>) -> Self {
        self.layers.push(Layer::Dir {
            path: path.as_ref().to_owned(),
            required: true,
        });
        self
    }

    /// [`Config::dir`], skipped when the folder does not exist.
    pub fn optional_dir(mut self, path: impl AsRef<Path>) -> Self {
        self.layers.push(Layer::Dir {
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

    /// Rejects a [`Secret`] field that a file (or a text layer) gives, naming the file
    /// and line: secrets must then come from the environment or from files that
    /// `PREFIX_FIELD_FILE` variables name. Without it a secret in a file is accepted.
    pub fn forbid_plain_secrets(mut self) -> Self {
        self.forbid_plain_secrets = true;
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
        if self.forbid_plain_secrets {
            let paths = merged.plain_secrets(shape);
            let origins = merged.origins_of(inputs, &paths);
            for (path, origin) in paths.into_iter().zip(origins) {
                problems.push(Problem {
                    kind: ProblemKind::PlainSecret,
                    path,
                    origin: Some(origin),
                    message: "a secret given in a plain file (plain secrets are forbidden: give \
                              it through the environment or a `_FILE` variable)"
                        .to_owned(),
                    snippet: None,
                    help: None,
                    document: None,
                });
            }
        }
        // A layer that could not be read would make the decode's complaints misleading.
        if problems.iter().any(|p| {
            matches!(
                p.kind,
                ProblemKind::Io | ProblemKind::UnknownFormat | ProblemKind::Syntax
            )
        }) {
            return Err(ConfigError::with_documents(problems, inputs));
        }
        let places = match crate::spanned::holds_spanned(T::shape) {
            true => merged.spanned_places(inputs, shape),
            false => Vec::new(),
        };
        let mut value = merged
            .root
            .take()
            .map_or(RawValue::Map(Vec::new()), Node::into_value);
        crate::spanned::mark(shape, &mut value, merged.any_xml, places);
        let options = match merged.any_xml {
            true => crate::decode::DecodeOptions::XML,
            false => crate::decode::DecodeOptions::STRICT,
        };
        let decoded = T::decode_with_options(value, options);
        let errors = match decoded {
            Ok(value) if problems.is_empty() => return Ok(value),
            Ok(_) => return Err(ConfigError::with_documents(problems, inputs)),
            Err(errors) => errors,
        };
        let paths: Vec<ValuePath> = errors.iter().map(|e| e.path()).collect();
        let merged = self.merge(inputs, shape);
        let origins = merged.origins_of(inputs, &paths);
        for (error, (path, origin)) in errors.iter().zip(paths.into_iter().zip(origins)) {
            let kind = match merged.is_secret(&path) {
                true => secret::redact(&error.kind),
                false => error.kind.clone(),
            };
            problems.push(Problem {
                message: kind.to_string(),
                kind: ProblemKind::Decode(kind),
                path,
                origin: Some(origin),
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
                Layer::Dir { path, required } => {
                    read_dir(path, *required, &mut inputs, &mut problems);
                    continue;
                }
                Layer::Env { prefix, vars } => Input::Env {
                    prefix: prefix.clone(),
                    vars: match vars {
                        Some(vars) => vars.clone(),
                        None => std::env::vars_os()
                            .filter_map(|(k, v)| {
                                Some((k.into_string().ok()?, v.into_string().ok()?))
                            })
                            .filter(|(k, _)| strip_prefix(k, prefix).is_some())
                            .collect(),
                    },
                },
                Layer::Set { path, value } => match value {
                    Ok(value) => Input::Set {
                        path: path.clone(),
                        value: value.clone(),
                    },
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
        self.merge_observed(inputs, shape, |_, _| {})
    }

    /// [`Config::merge`], calling `after` with the tree and the first source the input
    /// added after each input is laid.
    fn merge_observed<'i>(
        &self,
        inputs: &'i [Input],
        shape: &Shape,
        mut after: impl FnMut(&Merged<'i>, usize),
    ) -> Merged<'i> {
        let mut merged = Merged::new(shape);
        let profile = self.profile.clone().or_else(|| {
            inputs.iter().find_map(|input| match input {
                Input::Env { prefix, vars } => vars
                    .iter()
                    .find(|(k, _)| {
                        strip_prefix(k, prefix)
                            .is_some_and(|rest| rest.eq_ignore_ascii_case("PROFILE"))
                    })
                    .map(|(_, v)| v.clone()),
                _ => None,
            })
        });
        for (index, input) in inputs.iter().enumerate() {
            let first = merged.source_count();
            match input {
                Input::Document {
                    name,
                    bytes,
                    format,
                } => {
                    merged.add_document(index, name, bytes, *format, profile.as_deref());
                }
                Input::Env { prefix, vars } => merged.add_variables(prefix, vars, shape),
                Input::Set { path, value } => merged.add_set(path, value.clone()),
                Input::Skipped => {}
            }
            after(&merged, first);
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

/// What a layer read: a document's bytes (a folder gives one per file), environment
/// variables, or a value set in code.
enum Input {
    Document {
        name: String,
        bytes: Vec<u8>,
        format: Format,
    },
    Env {
        prefix: String,
        vars: Vec<(String, String)>,
    },
    Set {
        path: String,
        value: RawValue<'static>,
    },
    Skipped,
}

/// Reads the files of the folder `path` as documents, in the byte order of their names.
fn read_dir(path: &Path, required: bool, inputs: &mut Vec<Input>, problems: &mut Vec<Problem>) {
    let entries = match std::fs::read_dir(path) {
        Ok(entries) => entries,
        Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => return,
        Err(e) => {
            problems.push(Problem::plain(
                ProblemKind::Io,
                format!("{}: {e}", path.display()),
            ));
            return;
        }
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                problems.push(Problem::plain(
                    ProblemKind::Io,
                    format!("{}: {e}", path.display()),
                ));
                continue;
            }
        };
        let name = entry.file_name();
        let text = name.to_string_lossy();
        let skipped = text.starts_with('.')
            || text.ends_with('~')
            || (text.starts_with('#') && text.ends_with('#'))
            || [".bak", ".swp", ".orig", ".tmp"]
                .iter()
                .any(|ext| text.ends_with(ext));
        let is_file = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file());
        if skipped || !is_file {
            continue;
        }
        let file = entry.path();
        if let Some(format) = Format::from_path(&file) {
            files.push((name, file, format));
        }
    }
    files.sort_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
    for (_, file, format) in files {
        match std::fs::read(&file) {
            Ok(bytes) => inputs.push(Input::Document {
                name: file.display().to_string(),
                bytes,
                format,
            }),
            Err(e) => problems.push(Problem::plain(
                ProblemKind::Io,
                format!("{}: {e}", file.display()),
            )),
        }
    }
}
