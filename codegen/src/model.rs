//! Parse: the derive input and its `#[quarry(...)]` attributes become a checked model.
//! Every attribute error is collected before giving up, so a user sees them all at once.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, DeriveInput, Expr, Ident, LitStr, Type};

/// Collects errors; [`Errors::finish`] combines them into one.
#[derive(Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    pub fn push(&mut self, span: Span, message: impl std::fmt::Display) {
        self.0.push(syn::Error::new(span, message));
    }

    pub fn add(&mut self, error: syn::Error) {
        self.0.push(error);
    }

    pub fn finish(self) -> syn::Result<()> {
        let mut errors = self.0.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(errors);
                Err(first)
            }
        }
    }
}

/// How `rename_all` spells names.
#[derive(Clone, Copy)]
pub enum Case {
    Snake,
    Camel,
    Pascal,
    Kebab,
    ScreamingSnake,
    Lower,
    Upper,
}

impl Case {
    fn from_str(s: &str) -> Option<Case> {
        Some(match s {
            "snake_case" => Case::Snake,
            "camelCase" => Case::Camel,
            "PascalCase" => Case::Pascal,
            "kebab-case" => Case::Kebab,
            "SCREAMING_SNAKE_CASE" => Case::ScreamingSnake,
            "lowercase" => Case::Lower,
            "UPPERCASE" => Case::Upper,
            _ => return None,
        })
    }

    /// Renames an identifier written in Rust's own style (`snake_case` fields,
    /// `PascalCase` variants).
    pub fn apply(self, ident: &str) -> String {
        let words = split_words(ident);
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let capital = |w: &String| {
            let mut c = w.chars();
            c.next()
                .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
        };
        match self {
            Case::Snake => lower.join("_"),
            Case::Kebab => lower.join("-"),
            Case::ScreamingSnake => lower.join("_").to_uppercase(),
            Case::Lower => lower.concat(),
            Case::Upper => lower.concat().to_uppercase(),
            Case::Pascal => lower.iter().map(capital).collect(),
            Case::Camel => lower
                .iter()
                .enumerate()
                .map(|(i, w)| if i == 0 { w.clone() } else { capital(w) })
                .collect(),
        }
    }
}

/// `http_port` → [http, port]; `HttpPort` → [Http, Port].
fn split_words(ident: &str) -> Vec<String> {
    let ident = ident.strip_prefix("r#").unwrap_or(ident);
    let mut words = Vec::new();
    let mut current = String::new();
    for c in ident.chars() {
        if c == '_' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
        } else if c.is_uppercase() && !current.is_empty() {
            words.push(std::mem::take(&mut current));
            current.push(c);
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// How a missing field gets its value.
pub enum DefaultValue {
    /// `Default::default()`.
    Trait,
    /// A function returning the value.
    Path(syn::Path),
}

/// A check applied to a decoded field.
pub enum Constraint {
    Range(Expr),
    Len(Expr),
    Pattern(LitStr),
    Validate(syn::Path),
}

pub struct Field {
    /// `self.name` or `self.0`.
    pub member: syn::Member,
    pub ty: Type,
    /// The key in documents.
    pub name: String,
    pub aliases: Vec<String>,
    pub default: Option<DefaultValue>,
    pub skip: bool,
    pub flatten: bool,
    /// `merge = "append"`: layered configuration appends the layers' items.
    pub merge_append: bool,
    pub constraints: Vec<Constraint>,
    /// The doc comment, for the type's shape (a JSON Schema `description`).
    pub docs: Option<String>,
    pub span: Span,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Named,
    Tuple,
    Unit,
}

pub struct Variant {
    pub ident: Ident,
    pub name: String,
    pub aliases: Vec<String>,
    pub style: Style,
    pub fields: Vec<Field>,
    pub docs: Option<String>,
}

pub enum Data {
    Struct(Style, Vec<Field>),
    Enum(Vec<Variant>),
}

/// How an enum is written.
#[derive(Clone, PartialEq, Eq)]
pub enum Tagging {
    External,
    Internal(String),
    Adjacent(String, String),
    Untagged,
}

pub struct Container {
    pub ident: Ident,
    pub generics: syn::Generics,
    pub deny_unknown_fields: bool,
    pub tagging: Tagging,
    pub data: Data,
    pub docs: Option<String>,
}

/// The doc comment in `attrs` (`///` lines), its lines trimmed and joined; `None` when
/// there is none.
pub fn docs_of(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value().trim().to_owned()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

fn quarry_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("quarry"))
}

fn unknown(meta: &syn::meta::ParseNestedMeta, place: &str) -> syn::Error {
    let name = meta
        .path
        .get_ident()
        .map_or_else(|| "?".to_owned(), ToString::to_string);
    meta.error(format!("unknown quarry attribute `{name}` on {place}"))
}

impl Container {
    pub fn parse(input: &DeriveInput) -> syn::Result<Container> {
        let mut errors = Errors::default();
        let mut rename_all = None;
        let mut deny_unknown_fields = false;
        let mut tag: Option<String> = None;
        let mut content: Option<String> = None;
        let mut untagged = false;
        for attr in quarry_attrs(&input.attrs) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename_all") {
                    let lit: LitStr = meta.value()?.parse()?;
                    match Case::from_str(&lit.value()) {
                        Some(case) => rename_all = Some(case),
                        None => errors.push(
                            lit.span(),
                            "unknown case: expected one of snake_case, camelCase, PascalCase, kebab-case, \
                             SCREAMING_SNAKE_CASE, lowercase, UPPERCASE",
                        ),
                    }
                } else if meta.path.is_ident("deny_unknown_fields") {
                    deny_unknown_fields = true;
                } else if meta.path.is_ident("tag") {
                    tag = Some(meta.value()?.parse::<LitStr>()?.value());
                } else if meta.path.is_ident("content") {
                    content = Some(meta.value()?.parse::<LitStr>()?.value());
                } else if meta.path.is_ident("untagged") {
                    untagged = true;
                } else {
                    return Err(unknown(&meta, "a type"));
                }
                Ok(())
            });
            if let Err(e) = result {
                errors.add(e);
            }
        }
        let is_enum = matches!(input.data, syn::Data::Enum(_));
        let tagging = match (tag, content, untagged) {
            (None, None, false) => Tagging::External,
            (Some(tag), None, false) => Tagging::Internal(tag),
            (Some(tag), Some(content), false) => Tagging::Adjacent(tag, content),
            (None, None, true) => Tagging::Untagged,
            (None, Some(_), _) => {
                errors.push(input.ident.span(), "`content` needs `tag` beside it");
                Tagging::External
            }
            (_, _, true) => {
                errors.push(
                    input.ident.span(),
                    "`untagged` cannot be combined with `tag` or `content`",
                );
                Tagging::Untagged
            }
        };
        if !is_enum && tagging != Tagging::External {
            errors.push(
                input.ident.span(),
                "`tag`, `content` and `untagged` apply to enums only",
            );
        }
        if tagging == Tagging::Untagged && rename_all.is_some() {
            errors.push(
                input.ident.span(),
                "the variants of an `untagged` enum are never named: `rename_all` does not apply",
            );
        }
        let named_struct = matches!(&input.data, syn::Data::Struct(d) if matches!(d.fields, syn::Fields::Named(_)));
        if !is_enum && !named_struct && (rename_all.is_some() || deny_unknown_fields) {
            errors.push(
                input.ident.span(),
                "`rename_all` and `deny_unknown_fields` apply to structs with named fields and to enums",
            );
        }
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let (style, fields) = parse_fields(&data.fields, rename_all, &mut errors);
                Data::Struct(style, fields)
            }
            syn::Data::Enum(data) => {
                let mut variants = Vec::new();
                for variant in &data.variants {
                    variants.push(parse_variant(variant, rename_all, &tagging, &mut errors));
                }
                check_unique(
                    variants
                        .iter()
                        .map(|v| (&v.name, &v.aliases, v.ident.span())),
                    "variant",
                    &mut errors,
                );
                Data::Enum(variants)
            }
            syn::Data::Union(_) => {
                errors.push(input.ident.span(), "quarry cannot derive for unions");
                Data::Struct(Style::Unit, Vec::new())
            }
        };
        check_self_holding(&input.ident, &tagging, &data, &mut errors);
        if deny_unknown_fields {
            if let Data::Struct(_, fields) = &data {
                if let Some(f) = fields.iter().find(|f| f.flatten) {
                    errors.push(
                        f.span,
                        "`flatten` cannot be combined with `deny_unknown_fields`",
                    );
                }
            }
        }
        errors.finish()?;
        Ok(Container {
            ident: input.ident.clone(),
            generics: input.generics.clone(),
            deny_unknown_fields,
            tagging,
            data,
            docs: docs_of(&input.attrs),
        })
    }
}

/// Whether `ty` is the container `ident` itself (`Self`, or its name), possibly behind
/// `Box`, `Rc` or `Arc` (and `Option` when `optional`).
fn is_itself(ty: &Type, ident: &Ident, optional: bool) -> bool {
    match ty {
        Type::Paren(inner) => is_itself(&inner.elem, ident, optional),
        Type::Group(inner) => is_itself(&inner.elem, ident, optional),
        Type::Path(path) if path.qself.is_none() => {
            let segments = &path.path.segments;
            let Some(last) = segments.last() else {
                return false;
            };
            if segments.len() == 1 && (last.ident == "Self" || last.ident == *ident) {
                return true;
            }
            let wrapper = last.ident == "Box"
                || last.ident == "Rc"
                || last.ident == "Arc"
                || (optional && last.ident == "Option");
            match &last.arguments {
                syn::PathArguments::AngleBracketed(args) if wrapper && args.args.len() == 1 => {
                    match &args.args[0] {
                        syn::GenericArgument::Type(inner) => is_itself(inner, ident, optional),
                        _ => false,
                    }
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// A field that decodes the very value its container was given, as the container's own
/// type, would recurse on that value without end: an untagged enum's newtype variant
/// holding the enum, a newtype holding itself, a flattened field of the struct's own
/// type. Each is an error naming it. (Paths through other types are stopped at run time,
/// by `Nested`.)
fn check_self_holding(ident: &Ident, tagging: &Tagging, data: &Data, errors: &mut Errors) {
    match data {
        Data::Struct(Style::Tuple, fields) if fields.len() == 1 && !fields[0].skip => {
            if is_itself(&fields[0].ty, ident, false) {
                errors.push(
                    fields[0].ty.span(),
                    format!(
                        "the newtype `{ident}` holds itself: it would decode the same value \
                         again without end"
                    ),
                );
            }
        }
        Data::Struct(_, fields) => {
            for f in fields.iter().filter(|f| f.flatten) {
                if is_itself(&f.ty, ident, true) {
                    errors.push(
                        f.ty.span(),
                        format!(
                            "a flattened field of `{ident}`'s own type would decode the same \
                             keys again without end"
                        ),
                    );
                }
            }
        }
        Data::Enum(variants) if *tagging == Tagging::Untagged => {
            for v in variants {
                if v.style == Style::Tuple
                    && v.fields.len() == 1
                    && is_itself(&v.fields[0].ty, ident, false)
                {
                    errors.push(
                        v.ident.span(),
                        format!(
                            "the variant `{}` of the untagged enum `{ident}` holds the enum \
                             itself: it would decode the same value again without end (give \
                             it a key: `{} {{ inner: Box<Self> }}`)",
                            v.ident, v.ident
                        ),
                    );
                }
            }
        }
        Data::Enum(_) => {}
    }
}

/// Names and aliases must be unique among the fields (or variants) of one container.
fn check_unique<'a>(
    items: impl Iterator<Item = (&'a String, &'a Vec<String>, Span)>,
    what: &str,
    errors: &mut Errors,
) {
    let mut seen: Vec<&str> = Vec::new();
    for (name, aliases, span) in items {
        for n in std::iter::once(name).chain(aliases) {
            if seen.contains(&n.as_str()) {
                errors.push(span, format!("{what} name `{n}` is used twice (check `rename`, `rename_all` and `alias`)"));
            }
            seen.push(n);
        }
    }
}

fn parse_variant(
    variant: &syn::Variant,
    rename_all: Option<Case>,
    tagging: &Tagging,
    errors: &mut Errors,
) -> Variant {
    let mut name = rename_all.map_or_else(
        || variant.ident.to_string(),
        |c| c.apply(&variant.ident.to_string()),
    );
    let mut aliases = Vec::new();
    let mut field_case = None;
    let mut renamed = false;
    for attr in quarry_attrs(&variant.attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                name = meta.value()?.parse::<LitStr>()?.value();
                renamed = true;
            } else if meta.path.is_ident("alias") {
                aliases.push(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("rename_all") {
                let lit: LitStr = meta.value()?.parse()?;
                field_case = Case::from_str(&lit.value());
                if field_case.is_none() {
                    errors.push(lit.span(), "unknown case");
                }
            } else {
                return Err(unknown(&meta, "a variant"));
            }
            Ok(())
        });
        if let Err(e) = result {
            errors.add(e);
        }
    }
    let (style, fields) = parse_fields(&variant.fields, field_case, errors);
    if let Tagging::Internal(_) = tagging {
        if style == Style::Tuple && fields.len() != 1 {
            errors.push(
                variant.ident.span(),
                "an internally tagged enum cannot hold tuple variants",
            );
        }
    }
    for f in &fields {
        if f.flatten {
            errors.push(f.span, "`flatten` is not supported inside enum variants");
        }
    }
    if field_case.is_some() && style != Style::Named {
        errors.push(
            variant.ident.span(),
            "`rename_all` on a variant renames its named fields; this variant has none",
        );
    }
    if style == Style::Tuple && fields.len() == 1 && fields[0].skip {
        errors.push(
            fields[0].span,
            "the one field of a newtype variant is its content: it cannot be `skip`",
        );
    }
    if *tagging == Tagging::Untagged && (renamed || !aliases.is_empty()) {
        errors.push(
            variant.ident.span(),
            "the variants of an `untagged` enum are never named: `rename` and `alias` do not apply",
        );
    }
    Variant {
        ident: variant.ident.clone(),
        name,
        aliases,
        style,
        fields,
        docs: docs_of(&variant.attrs),
    }
}

fn parse_fields(
    fields: &syn::Fields,
    rename_all: Option<Case>,
    errors: &mut Errors,
) -> (Style, Vec<Field>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Named,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let mut out = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(syn::Index {
                index: index as u32,
                span: field.span(),
            }),
        };
        let ident_name = field
            .ident
            .as_ref()
            .map(|i| i.to_string().trim_start_matches("r#").to_owned());
        let mut name = match (&ident_name, rename_all) {
            (Some(n), Some(case)) => case.apply(n),
            (Some(n), None) => n.clone(),
            (None, _) => index.to_string(),
        };
        let mut parsed = Field {
            member,
            ty: field.ty.clone(),
            name: String::new(),
            aliases: Vec::new(),
            default: None,
            skip: false,
            flatten: false,
            merge_append: false,
            constraints: Vec::new(),
            docs: docs_of(&field.attrs),
            span: field.span(),
        };
        let mut renamed = false;
        for attr in quarry_attrs(&field.attrs) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    name = meta.value()?.parse::<LitStr>()?.value();
                    renamed = true;
                } else if meta.path.is_ident("alias") {
                    parsed
                        .aliases
                        .push(meta.value()?.parse::<LitStr>()?.value());
                } else if meta.path.is_ident("default") {
                    parsed.default = Some(if meta.input.peek(syn::Token![=]) {
                        let value = meta.value()?;
                        if value.peek(LitStr) {
                            DefaultValue::Path(value.parse::<LitStr>()?.parse()?)
                        } else {
                            DefaultValue::Path(value.parse()?)
                        }
                    } else {
                        DefaultValue::Trait
                    });
                } else if meta.path.is_ident("skip") {
                    parsed.skip = true;
                } else if meta.path.is_ident("flatten") {
                    parsed.flatten = true;
                } else if meta.path.is_ident("merge") {
                    let rule: syn::LitStr = meta.value()?.parse()?;
                    match rule.value().as_str() {
                        "append" => parsed.merge_append = true,
                        "replace" => parsed.merge_append = false,
                        _ => {
                            return Err(syn::Error::new(
                                rule.span(),
                                format!(
                                    "unknown merge rule `{}`: expected `merge = \"append\"` \
                                     or `merge = \"replace\"`",
                                    rule.value()
                                ),
                            ))
                        }
                    }
                } else if meta.path.is_ident("range") {
                    parsed
                        .constraints
                        .push(Constraint::Range(meta.value()?.parse()?));
                } else if meta.path.is_ident("len") {
                    parsed
                        .constraints
                        .push(Constraint::Len(meta.value()?.parse()?));
                } else if meta.path.is_ident("pattern") {
                    let lit: LitStr = meta.value()?.parse()?;
                    if let Err(e) = regex_lite::Regex::new(&lit.value()) {
                        errors.push(lit.span(), format!("invalid `pattern`: {e}"));
                    }
                    parsed.constraints.push(Constraint::Pattern(lit));
                } else if meta.path.is_ident("validate") {
                    let value = meta.value()?;
                    let path = if value.peek(LitStr) {
                        value.parse::<LitStr>()?.parse()?
                    } else {
                        value.parse()?
                    };
                    parsed.constraints.push(Constraint::Validate(path));
                } else {
                    return Err(unknown(&meta, "a field"));
                }
                Ok(())
            });
            if let Err(e) = result {
                errors.add(e);
            }
        }
        if parsed.flatten && style != Style::Named {
            errors.push(
                parsed.span,
                "`flatten` applies to fields of structs with named fields",
            );
        }
        if parsed.skip && (parsed.flatten || !parsed.constraints.is_empty()) {
            errors.push(
                parsed.span,
                "a `skip` field is never decoded: `flatten` and constraints do not apply",
            );
        }
        if parsed.flatten && (renamed || parsed.default.is_some() || !parsed.aliases.is_empty()) {
            errors.push(
                parsed.span,
                "a `flatten` field has no key: `rename`, `alias` and `default` do not apply",
            );
        }
        if style == Style::Tuple
            && (renamed || !parsed.aliases.is_empty() || parsed.default.is_some())
        {
            errors.push(
                parsed.span,
                "a tuple field has no name: `rename`, `alias` and `default` apply to named fields",
            );
        }
        parsed.name = name;
        out.push(parsed);
    }
    if style == Style::Named {
        check_unique(
            out.iter()
                .filter(|f| !f.skip && !f.flatten)
                .map(|f| (&f.name, &f.aliases, f.span)),
            "field",
            errors,
        );
    }
    (style, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases() {
        assert_eq!(Case::Camel.apply("http_port"), "httpPort");
        assert_eq!(Case::Pascal.apply("http_port"), "HttpPort");
        assert_eq!(Case::Kebab.apply("HttpPort"), "http-port");
        assert_eq!(Case::ScreamingSnake.apply("http_port"), "HTTP_PORT");
        assert_eq!(Case::Snake.apply("HttpPort"), "http_port");
        assert_eq!(Case::Lower.apply("HttpPort"), "httpport");
    }
}
