//! [`Config::explain`]: every layer's value for one path, in order, and which one won.

use std::fmt;

use super::{Config, ConfigError, Origin, ProblemKind};
use crate::{Decode, RawValue, Shape, ValuePath};

/// Every layer's value for one path: see [`Config::explain`].
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The path explained.
    pub path: ValuePath,
    /// Each layer that gave a value at the path, lowest precedence first.
    pub candidates: Vec<Candidate>,
}

/// One layer's value for an explained path.
#[derive(Clone)]
pub struct Candidate {
    /// What the layer gave at the path (for a map, only the entries this layer gave).
    pub value: RawValue<'static>,
    /// Where it came from.
    pub origin: Origin,
    /// False when a later layer replaced it as a whole; a map that later layers merged
    /// into is still used.
    pub used: bool,
    /// True when the value was read from a file a `PREFIX_..._FILE` variable named: it
    /// prints as `***`.
    pub secret: bool,
}

/// The value is left out when it is a secret.
impl fmt::Debug for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Candidate");
        match self.secret {
            true => s.field("value", &"***"),
            false => s.field("value", &self.value),
        };
        s.field("origin", &self.origin)
            .field("used", &self.used)
            .field("secret", &self.secret)
            .finish()
    }
}

impl Candidate {
    /// The value as one line of JSON (its `Debug` form without the `json` feature), or `***`
    /// for a secret.
    pub fn value_text(&self) -> String {
        if self.secret {
            return "***".to_owned();
        }
        #[cfg(feature = "json")]
        return crate::json::to_string(&self.value).unwrap_or_else(|e| e.to_string());
        // Without the JSON writer the value shows in its Rust form.
        #[cfg(not(feature = "json"))]
        return format!("{:?}", self.value);
    }
}

/// `path`, then one line per layer: `used` or `replaced`, the value, its origin.
impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if self.candidates.is_empty() {
            return f.write_str(": no layer gives it");
        }
        for candidate in &self.candidates {
            let mark = if candidate.used { "used" } else { "replaced" };
            write!(
                f,
                "\n  {mark:<8}  {}  # {}",
                candidate.value_text(),
                candidate.origin
            )?;
        }
        Ok(())
    }
}

impl Config {
    /// Every layer's value for `path` (`servers[0].host`), lowest precedence first, each
    /// with its origin and whether a later layer replaced it: the answer to "where did
    /// this value come from, and what did it override". Environment variables map onto
    /// the keys the layers hold, as in [`Config::load_value`]; [`Config::explain_as`]
    /// maps them through a type's shape.
    ///
    /// ```
    /// use quarry::{Config, Format};
    ///
    /// let explained = Config::new()
    ///     .text("base.toml", "[web]\nport = 80\n", Format::Toml)
    ///     .text("local.yaml", "web:\n  port: 8080\n", Format::Yaml)
    ///     .env_vars("APP", [("APP_WEB_PORT", "9000")])
    ///     .explain("web.port")
    ///     .unwrap();
    /// assert_eq!(
    ///     explained.to_string(),
    ///     "web.port\n  \
    ///        replaced  80  # base.toml:2:8\n  \
    ///        replaced  8080  # local.yaml:2:9\n  \
    ///        used      9000  # environment variable APP_WEB_PORT"
    /// );
    /// ```
    pub fn explain(&self, path: &str) -> Result<Explanation, ConfigError> {
        self.explain_shaped(path, &Shape::Any)
    }

    /// [`Config::explain`], with environment variables mapped through `T`'s shape as
    /// [`Config::load`] maps them.
    pub fn explain_as<T: for<'de> Decode<'de>>(
        &self,
        path: &str,
    ) -> Result<Explanation, ConfigError> {
        self.explain_shaped(path, &<T as Decode<'static>>::shape())
    }

    fn explain_shaped(&self, path: &str, shape: &Shape) -> Result<Explanation, ConfigError> {
        let (inputs, mut problems) = self.read();
        let Some(parsed) = ValuePath::parse(path) else {
            problems.push(super::Problem::plain(
                ProblemKind::Set,
                format!("`{path}` is not a path"),
            ));
            return Err(ConfigError::with_documents(problems, &inputs));
        };
        // Each input's value at the path, whether it replaced what was there, and the
        // path to look its origin up at.
        let mut found: Vec<(RawValue<'static>, bool, bool, ValuePath)> = Vec::new();
        let mut origins = Vec::new();
        let mut merged = self.merge_observed(&inputs, shape, |merged, first| {
            let Some(node) = merged.tree().and_then(|root| root.at(&parsed)) else {
                return;
            };
            let Some(value) = node.value_from(first) else {
                return;
            };
            let mut at = parsed.clone();
            node.first_from(first, &mut at);
            let mut sources = Vec::new();
            node.sources_from(first, &mut sources);
            let secret = sources.iter().any(|&id| merged.is_secret_source(id));
            let fresh = node.from() >= first;
            // The origin is looked up now, while the tree holds this layer on top.
            origins.push(
                merged
                    .origins_of(&inputs, std::slice::from_ref(&at))
                    .remove(0),
            );
            found.push((value.into_owned(), fresh, secret, at));
        });
        problems.append(&mut merged.problems);
        if problems.iter().any(|p| {
            matches!(
                p.kind,
                ProblemKind::Io | ProblemKind::UnknownFormat | ProblemKind::Syntax
            )
        }) {
            return Err(ConfigError::with_documents(problems, &inputs));
        }
        let last_fresh = found.iter().rposition(|(_, fresh, _, _)| *fresh);
        let candidates = found
            .into_iter()
            .zip(origins)
            .enumerate()
            .map(|(i, ((value, _, secret, _), origin))| Candidate {
                value,
                origin,
                used: last_fresh.map_or(true, |last| i >= last),
                secret,
            })
            .collect();
        Ok(Explanation {
            path: parsed,
            candidates,
        })
    }
}
