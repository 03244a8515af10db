//! `quarry check --schema`: documents of any format checked against a JSON Schema, each
//! violation reported at the offending node's line and column (found through the tree
//! door). The validation is the `jsonschema` crate's: a complete, maintained draft
//! 2020-12 (and earlier) validator, which quarry has no business rewriting.

use std::path::Path;

use quarry::decode::{Path as ValuePath, Segment};
use quarry::{Format, RawValue};
use serde_json::Value;

use crate::input::{read, Input};
use crate::Failure;

/// A compiled schema.
pub struct Schema {
    validator: jsonschema::Validator,
}

/// One violation: where in the document, and what.
pub struct Violation {
    pub path: ValuePath,
    pub message: String,
    /// The kind of check that failed (`Maximum`, `Required`, `AdditionalProperties`).
    pub kind: String,
}

/// A value as serde_json holds it (through its JSON text: quarry's JSON writer is the
/// one mapping of every format onto JSON).
pub fn to_json(value: &RawValue<'_>) -> Result<Value, String> {
    let text = quarry::json::to_string(value).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

impl Schema {
    /// Reads and compiles the schema at `path`, written in any format quarry reads
    /// (JSON when the name does not say).
    pub fn load(path: &Path) -> Result<Schema, Failure> {
        let format = Format::from_path(path).unwrap_or(Format::Json);
        let document = read(&Input::File(path.to_owned()), Some(format))?;
        let raw = quarry::parse_raw(&document.bytes, format)
            .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
        let json = to_json(&raw).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
        let validator = jsonschema::validator_for(&json).map_err(|e| {
            Failure::Usage(format!("{}: not a usable JSON Schema: {e}", path.display()))
        })?;
        Ok(Schema { validator })
    }

    /// Every violation of `value`.
    pub fn violations(&self, value: &RawValue<'_>) -> Result<Vec<Violation>, String> {
        let json = to_json(value)?;
        Ok(self
            .validator
            .iter_errors(&json)
            .map(|e| {
                let kind = format!("{:?}", e.kind);
                let end = kind
                    .find(|c: char| !c.is_alphanumeric() && c != '_')
                    .unwrap_or(kind.len());
                let mut path = value_path(&json, e.instance_path.as_str());
                // An unexpected key is reported where that key is, not at its map.
                if let jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } =
                    &e.kind
                {
                    if let Some(key) = unexpected.first() {
                        path.segments.push(Segment::Key(key.clone()));
                    }
                }
                Violation {
                    path,
                    message: e.to_string(),
                    kind: kind[..end].to_owned(),
                }
            })
            .collect())
    }
}

/// A JSON Pointer (`/servers/0/port`) as a path, numbers as indexes where `value` has a
/// sequence.
fn value_path(value: &Value, pointer: &str) -> ValuePath {
    let mut segments = Vec::new();
    let mut at = Some(value);
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        match at {
            Some(Value::Array(items)) => match token.parse::<usize>() {
                Ok(i) => {
                    at = items.get(i);
                    segments.push(Segment::Index(i));
                }
                Err(_) => {
                    at = None;
                    segments.push(Segment::Key(token));
                }
            },
            Some(Value::Object(map)) => {
                at = map.get(&token);
                segments.push(Segment::Key(token));
            }
            _ => {
                at = None;
                segments.push(Segment::Key(token));
            }
        }
    }
    ValuePath { segments }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_become_paths() {
        let value: Value = serde_json::from_str(r#"{"a/b": [{"0": 1}], "m": {"1": 2}}"#).unwrap();
        assert_eq!(
            value_path(&value, "/a~1b/0/0").to_string(),
            r#"["a/b"][0].0"#
        );
        assert_eq!(value_path(&value, "/m/1").to_string(), "m.1");
        assert_eq!(
            value_path(&value, "/a~1b/0/0").segments[1],
            Segment::Index(0)
        );
        assert_eq!(
            value_path(&value, "/a~1b/0/0").segments[2],
            Segment::Key("0".into())
        );
        assert_eq!(value_path(&value, "").to_string(), "");
    }
}
