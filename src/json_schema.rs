//! JSON Schema (draft 2020-12) from a type's [`Shape`]: what editors and language
//! servers (taplo, yaml-language-server, VS Code) complete and check against, written from
//! the same description the decoder is generated from, so the two cannot drift.
//!
//! ```
//! #[derive(quarry::Decode)]
//! #[quarry(deny_unknown_fields)]
//! /// The service.
//! struct Service {
//!     /// Where it listens.
//!     #[quarry(range = 1..=65535)]
//!     port: u16,
//!     #[quarry(default, len = 1..=8)]
//!     hosts: Vec<String>,
//! }
//!
//! let schema = quarry::json::to_string(&quarry::schema::<Service>()).unwrap();
//! assert_eq!(
//!     schema,
//!     r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Service","$ref":"#/$defs/Service","$defs":{"Service":{"type":"object","description":"The service.","properties":{"port":{"type":"integer","minimum":1,"maximum":65535,"description":"Where it listens."},"hosts":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":8}},"required":["port"],"additionalProperties":false}}}"##
//! );
//! ```
//!
//! What each shape becomes: integers carry their type's bounds (`u8` is `0..=255`) and
//! any `range`; `Option<T>` is `T` or null and never required; a field with aliases is
//! required as any one of its names, and never as two; `deny_unknown_fields` is
//! `additionalProperties: false`; a flattened struct's properties join its parent's, a
//! flattened map makes `additionalProperties` its value's schema; enums follow their
//! tagging (a unit variant of an externally tagged enum is its name, or a one-entry map
//! to null); `len` is `minLength`/`maxLength` on strings, `minItems`/`maxItems` on
//! sequences and `minProperties`/`maxProperties` on maps; `pattern` is `pattern`; a
//! `validate` function, which no schema can express, is named in the `description`.
//! Doc comments become `description`s. Types with a hand-written `Decode` describe
//! themselves through [`Decode::shape`]; those that do not are `true` (anything).

use std::borrow::Cow;

use crate::shape::{
    Check, EnumShape, FieldShape, Number, StructShape, Tagging, VariantContent, VariantShape,
};
use crate::{Decode, RawValue, Shape, ShapeOf};

/// The JSON Schema (draft 2020-12) of `T`, as a value to write in any format
/// (`quarry::json::to_string_pretty(&schema)`).
pub fn schema<T: Decode<'static>>() -> RawValue<'static> {
    let mut writer = Writer::default();
    let root = writer.schema_of_fn(T::shape);
    let mut out = vec![
        (
            key("$schema"),
            text("https://json-schema.org/draft/2020-12/schema"),
        ),
        (key("title"), text(&type_name(&T::shape()))),
    ];
    match root {
        RawValue::Map(entries) => out.extend(entries),
        other => return other,
    }
    if !writer.defs.is_empty() {
        let defs = writer
            .defs
            .into_iter()
            .map(|d| (Cow::Owned(d.name), d.schema.unwrap_or(RawValue::Bool(true))))
            .collect();
        out.push((key("$defs"), RawValue::Map(defs)));
    }
    RawValue::Map(out)
}

fn type_name(shape: &Shape) -> String {
    match shape {
        Shape::Struct(s) => s.name.to_owned(),
        Shape::Enum(e) => e.name.to_owned(),
        // `Spanned<T>` has `T`'s schema.
        Shape::Spanned(inner) => type_name(&inner()),
        // So are maps whose keys are `Spanned`.
        Shape::SpannedKeyMap(value) => format!("{:?}", Shape::Map(*value)),
        other => format!("{other:?}"),
    }
}

fn key(k: &'static str) -> Cow<'static, str> {
    Cow::Borrowed(k)
}

fn text(s: &str) -> RawValue<'static> {
    RawValue::String(Cow::Owned(s.to_owned()))
}

fn object(entries: Vec<(&'static str, RawValue<'static>)>) -> RawValue<'static> {
    RawValue::Map(entries.into_iter().map(|(k, v)| (key(k), v)).collect())
}

fn of_type(name: &str) -> RawValue<'static> {
    object(vec![("type", text(name))])
}

fn integer(n: i128) -> RawValue<'static> {
    match i64::try_from(n) {
        Ok(i) => RawValue::Int(i),
        Err(_) => match u64::try_from(n) {
            Ok(u) => RawValue::UInt(u),
            Err(_) => RawValue::BigNumber(Cow::Owned(n.to_string())),
        },
    }
}

fn number(n: Number) -> RawValue<'static> {
    match n {
        Number::Int(i) => integer(i),
        Number::Float(f) => RawValue::Float(f),
    }
}

fn as_f64(value: &RawValue<'_>) -> Option<f64> {
    match value {
        RawValue::Int(i) => Some(*i as f64),
        RawValue::UInt(u) => Some(*u as f64),
        RawValue::Float(f) => Some(*f),
        RawValue::BigNumber(s) => s.parse().ok(),
        _ => None,
    }
}

/// One `$defs` entry: a struct or enum, named after the type.
struct Def {
    /// The address of the shape function: one per type.
    id: usize,
    name: String,
    /// `None` while being written (a recursive type refers to itself meanwhile).
    schema: Option<RawValue<'static>>,
}

#[derive(Default)]
struct Writer {
    defs: Vec<Def>,
}

impl Writer {
    /// The schema of the type whose shape `f` gives: a `$ref` for structs and enums.
    fn schema_of_fn(&mut self, f: ShapeOf) -> RawValue<'static> {
        let shape = f();
        if !matches!(shape, Shape::Struct(_) | Shape::Enum(_)) {
            return self.schema_of(&shape);
        }
        let id = f as usize;
        let name = match self.defs.iter().find(|d| d.id == id) {
            Some(def) => def.name.clone(),
            None => {
                let base = type_name(&shape);
                let mut name = base.clone();
                let mut n = 2;
                while self.defs.iter().any(|d| d.name == name) {
                    name = format!("{base}{n}");
                    n += 1;
                }
                self.defs.push(Def {
                    id,
                    name: name.clone(),
                    schema: None,
                });
                let schema = self.schema_of(&shape);
                if let Some(def) = self.defs.iter_mut().find(|d| d.id == id) {
                    def.schema = Some(schema);
                }
                name
            }
        };
        object(vec![("$ref", text(&format!("#/$defs/{name}")))])
    }

    fn schema_of(&mut self, shape: &Shape) -> RawValue<'static> {
        match shape {
            Shape::Any => RawValue::Bool(true),
            Shape::Null => of_type("null"),
            Shape::Bool => of_type("boolean"),
            Shape::Integer { min, max } => object(vec![
                ("type", text("integer")),
                ("minimum", integer(*min)),
                (
                    "maximum",
                    i128::try_from(*max).map_or_else(
                        |_| RawValue::BigNumber(Cow::Owned(max.to_string())),
                        integer,
                    ),
                ),
            ]),
            Shape::Float => of_type("number"),
            Shape::String | Shape::Datetime => of_type("string"),
            Shape::Char => object(vec![
                ("type", text("string")),
                ("minLength", RawValue::Int(1)),
                ("maxLength", RawValue::Int(1)),
            ]),
            Shape::Bytes => object(vec![
                ("type", text("string")),
                ("contentEncoding", text("base64")),
            ]),
            Shape::Optional(inner) => {
                let inner = self.schema_of_fn(*inner);
                nullable(inner)
            }
            Shape::Seq(item) => {
                let item = self.schema_of_fn(*item);
                object(vec![("type", text("array")), ("items", item)])
            }
            Shape::Tuple(items) => {
                let prefix = items
                    .iter()
                    .map(|item| match item.checks.is_empty() {
                        true => self.schema_of_fn(item.shape),
                        false => self.checked(item.shape, &item.checks),
                    })
                    .collect();
                object(vec![
                    ("type", text("array")),
                    ("prefixItems", RawValue::Seq(prefix)),
                    ("items", RawValue::Bool(false)),
                    ("minItems", integer(items.len() as i128)),
                ])
            }
            Shape::Map(value) | Shape::SpannedKeyMap(value) => {
                let value = self.schema_of_fn(*value);
                object(vec![
                    ("type", text("object")),
                    ("additionalProperties", value),
                ])
            }
            Shape::Struct(s) => self.struct_schema(s, None),
            Shape::Enum(e) => self.enum_schema(e),
            Shape::Checked(inner, checks) => self.checked(*inner, checks),
            Shape::Spanned(inner) => self.schema_of_fn(*inner),
            Shape::Secret(inner) => match self.schema_of_fn(*inner) {
                RawValue::Map(mut entries) => {
                    entries.push((Cow::Borrowed("writeOnly"), RawValue::Bool(true)));
                    RawValue::Map(entries)
                }
                other => other,
            },
        }
    }

    /// `inner`'s schema with `checks` applied (to the value, not to a null).
    fn checked(&mut self, inner: ShapeOf, checks: &[Check]) -> RawValue<'static> {
        let shape = inner();
        if let Shape::Optional(value) = shape {
            return nullable(self.checked(value, checks));
        }
        let mut schema = self.schema_of_fn(inner);
        apply_checks(&mut schema, &shape, checks);
        schema
    }

    /// A struct's object schema; `tag` adds an internally tagged variant's tag property.
    fn struct_schema(
        &mut self,
        s: &StructShape,
        tag: Option<(&'static str, RawValue<'static>)>,
    ) -> RawValue<'static> {
        let mut parts = ObjectParts::default();
        if let Some((name, value)) = tag {
            parts.properties.push((key(name), value));
            parts.required.push(text(name));
        }
        self.add_fields(&s.fields, &mut parts);
        let mut out = vec![(key("type"), text("object"))];
        if let Some(d) = s.description {
            out.push((key("description"), text(d)));
        }
        if !parts.properties.is_empty() {
            out.push((key("properties"), RawValue::Map(parts.properties)));
        }
        if !parts.required.is_empty() {
            out.push((key("required"), RawValue::Seq(parts.required)));
        }
        if !parts.all_of.is_empty() {
            out.push((key("allOf"), RawValue::Seq(parts.all_of)));
        }
        if s.deny_unknown_fields {
            out.push((key("additionalProperties"), RawValue::Bool(false)));
        } else if let Some(rest) = parts.rest {
            out.push((key("additionalProperties"), rest));
        }
        RawValue::Map(out)
    }

    fn add_fields(&mut self, fields: &[FieldShape], parts: &mut ObjectParts) {
        for field in fields {
            if field.flatten {
                match (field.shape)().unwrap_optional() {
                    Shape::Struct(inner) => self.add_fields(&inner.fields, parts),
                    Shape::Map(value) | Shape::SpannedKeyMap(value) => {
                        parts.rest = Some(self.schema_of_fn(value))
                    }
                    _ => {}
                }
                continue;
            }
            let mut schema = if field.checks.is_empty() {
                self.schema_of_fn(field.shape)
            } else {
                self.checked(field.shape, &field.checks)
            };
            describe(&mut schema, field.description);
            for name in field.names() {
                parts.properties.push((key(name), schema.clone()));
            }
            if field.aliases.is_empty() {
                if field.required {
                    parts.required.push(text(field.name));
                }
                continue;
            }
            // Any one of the names, and never two.
            let names: Vec<&'static str> = field.names().collect();
            if field.required {
                let any = names
                    .iter()
                    .map(|n| object(vec![("required", RawValue::Seq(vec![text(n)]))]))
                    .collect();
                parts
                    .all_of
                    .push(object(vec![("anyOf", RawValue::Seq(any))]));
            }
            for (i, a) in names.iter().enumerate() {
                for b in &names[i + 1..] {
                    parts.all_of.push(object(vec![(
                        "not",
                        object(vec![("required", RawValue::Seq(vec![text(a), text(b)]))]),
                    )]));
                }
            }
        }
    }

    fn enum_schema(&mut self, e: &EnumShape) -> RawValue<'static> {
        let mut alternatives = Vec::new();
        match &e.tagging {
            Tagging::External => {
                let units: Vec<RawValue<'static>> = e
                    .variants
                    .iter()
                    .filter(|v| matches!(v.content, VariantContent::Unit))
                    .flat_map(|v| v.names().map(text))
                    .collect();
                if !units.is_empty() {
                    alternatives.push(object(vec![
                        ("type", text("string")),
                        ("enum", RawValue::Seq(units)),
                    ]));
                }
                for v in &e.variants {
                    let content = self.variant_content(v);
                    for name in v.names() {
                        alternatives.push(object(vec![
                            ("type", text("object")),
                            (
                                "properties",
                                RawValue::Map(vec![(key(name), content.clone())]),
                            ),
                            ("required", RawValue::Seq(vec![text(name)])),
                            ("additionalProperties", RawValue::Bool(false)),
                        ]));
                    }
                }
            }
            Tagging::Internal { tag } => {
                for v in &e.variants {
                    let tag_value = names_schema(v);
                    let schema = match &v.content {
                        VariantContent::Unit => object(vec![
                            ("type", text("object")),
                            ("properties", RawValue::Map(vec![(key(tag), tag_value)])),
                            ("required", RawValue::Seq(vec![text(tag)])),
                        ]),
                        VariantContent::Struct(s) => self.struct_schema(s, Some((tag, tag_value))),
                        // The map less the tag is the content.
                        VariantContent::Newtype(inner) => match inner().unwrap_optional() {
                            Shape::Struct(s) => self.struct_schema(&s, Some((tag, tag_value))),
                            Shape::Map(value) | Shape::SpannedKeyMap(value) => {
                                let value = self.schema_of_fn(value);
                                object(vec![
                                    ("type", text("object")),
                                    ("properties", RawValue::Map(vec![(key(tag), tag_value)])),
                                    ("required", RawValue::Seq(vec![text(tag)])),
                                    ("additionalProperties", value),
                                ])
                            }
                            _ => {
                                let content = self.schema_of_fn(*inner);
                                object(vec![
                                    ("type", text("object")),
                                    ("properties", RawValue::Map(vec![(key(tag), tag_value)])),
                                    ("required", RawValue::Seq(vec![text(tag)])),
                                    ("allOf", RawValue::Seq(vec![content])),
                                ])
                            }
                        },
                        // The derive rejects tuple variants in internally tagged enums.
                        VariantContent::Tuple(_) => RawValue::Bool(false),
                    };
                    alternatives.push(schema);
                }
            }
            Tagging::Adjacent { tag, content } => {
                for v in &e.variants {
                    let mut properties = vec![(key(tag), names_schema(v))];
                    let mut required = vec![text(tag)];
                    if !matches!(v.content, VariantContent::Unit) {
                        properties.push((key(content), self.variant_content(v)));
                        required.push(text(content));
                    }
                    alternatives.push(object(vec![
                        ("type", text("object")),
                        ("properties", RawValue::Map(properties)),
                        ("required", RawValue::Seq(required)),
                    ]));
                }
            }
            Tagging::Untagged => {
                for v in &e.variants {
                    alternatives.push(self.variant_content(v));
                }
            }
        }
        let mut out = vec![(key("anyOf"), RawValue::Seq(alternatives))];
        if let Some(d) = e.description {
            out.push((key("description"), text(d)));
        }
        RawValue::Map(out)
    }

    /// The schema of what a variant holds, where it sits on its own (externally and
    /// adjacently tagged content, untagged).
    fn variant_content(&mut self, v: &VariantShape) -> RawValue<'static> {
        let mut schema = match &v.content {
            VariantContent::Unit => of_type("null"),
            VariantContent::Newtype(inner) if !v.checks.is_empty() => {
                self.checked(*inner, &v.checks)
            }
            VariantContent::Newtype(inner) => self.schema_of_fn(*inner),
            VariantContent::Tuple(items) => self.schema_of(&Shape::Tuple(items.clone())),
            VariantContent::Struct(s) => self.struct_schema(s, None),
        };
        describe(&mut schema, v.description);
        schema
    }
}

/// `{"const": name}` or `{"enum": [name, aliases...]}`.
fn names_schema(v: &VariantShape) -> RawValue<'static> {
    if v.aliases.is_empty() {
        object(vec![("const", text(v.name))])
    } else {
        object(vec![("enum", RawValue::Seq(v.names().map(text).collect()))])
    }
}

#[derive(Default)]
struct ObjectParts {
    properties: Vec<(Cow<'static, str>, RawValue<'static>)>,
    required: Vec<RawValue<'static>>,
    all_of: Vec<RawValue<'static>>,
    /// The schema of keys no property names (a flattened map's values).
    rest: Option<RawValue<'static>>,
}

/// `schema` or null.
fn nullable(schema: RawValue<'static>) -> RawValue<'static> {
    if schema == RawValue::Bool(true) {
        return schema;
    }
    object(vec![(
        "anyOf",
        RawValue::Seq(vec![schema, of_type("null")]),
    )])
}

/// Adds `description` to a schema (a `true` schema becomes an object).
fn describe(schema: &mut RawValue<'static>, description: Option<&'static str>) {
    let Some(d) = description else { return };
    set(schema, "description", text(d));
}

/// Sets `name` in an object schema, turning `true` into `{}` first.
fn set(schema: &mut RawValue<'static>, name: &'static str, value: RawValue<'static>) {
    if !matches!(schema, RawValue::Map(_)) {
        *schema = RawValue::Map(Vec::new());
    }
    if let RawValue::Map(entries) = schema {
        match entries.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value,
            None => entries.push((key(name), value)),
        }
    }
}

/// Adds each check's keywords to `schema`, the schema of a value of `shape`.
fn apply_checks(schema: &mut RawValue<'static>, shape: &Shape, checks: &[Check]) {
    for check in checks {
        match check {
            Check::Range { min, max } => {
                if let Some(b) = min {
                    let value = number(b.value);
                    if b.exclusive {
                        set(schema, "exclusiveMinimum", value);
                    } else if schema
                        .get("minimum")
                        .and_then(as_f64)
                        .map_or(true, |m| as_f64(&value).is_some_and(|v| v >= m))
                    {
                        set(schema, "minimum", value);
                    }
                }
                if let Some(b) = max {
                    let value = number(b.value);
                    if b.exclusive {
                        set(schema, "exclusiveMaximum", value);
                    } else if schema
                        .get("maximum")
                        .and_then(as_f64)
                        .map_or(true, |m| as_f64(&value).is_some_and(|v| v <= m))
                    {
                        set(schema, "maximum", value);
                    }
                }
            }
            Check::Len { min, max } => {
                let (low, high) = match shape {
                    Shape::Seq(_) | Shape::Tuple(_) => ("minItems", "maxItems"),
                    Shape::Map(_) | Shape::SpannedKeyMap(_) | Shape::Struct(_) => {
                        ("minProperties", "maxProperties")
                    }
                    _ => ("minLength", "maxLength"),
                };
                if *min > 0 {
                    set(schema, low, integer(*min as i128));
                }
                if let Some(max) = max {
                    set(schema, high, integer(*max as i128));
                }
            }
            Check::Pattern(p) => set(schema, "pattern", text(p)),
            Check::Validate(f) => {
                let note = format!("Checked by `{f}`.");
                let description = match schema.get("description").and_then(RawValue::as_str) {
                    Some(d) => format!("{d}\n{note}"),
                    None => note,
                };
                set(
                    schema,
                    "description",
                    RawValue::String(Cow::Owned(description)),
                );
            }
        }
    }
}
