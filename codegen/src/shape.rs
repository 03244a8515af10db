//! Expand `Decode::shape` for a derived type: its fields, names, aliases and tagging as
//! data, from the same model the decoder is generated from.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Lifetime;

use crate::model::{Constraint, Container, Data, Field, Style, Tagging, Variant};

/// `Some("...")` or `None`, for a doc comment.
fn description(docs: &Option<String>) -> TokenStream {
    match docs {
        Some(text) => quote!(::quarry::__private::Some(#text)),
        None => quote!(::quarry::__private::None),
    }
}

/// The field's constraints as a `Vec<Check>` expression.
fn checks(field: &Field) -> TokenStream {
    let ty = &field.ty;
    let checks = field.constraints.iter().map(|c| match c {
        Constraint::Range(expr) => {
            quote!(<#ty as ::quarry::shape::RangeShape>::range_check(&(#expr)))
        }
        Constraint::Len(expr) => quote!(::quarry::shape::len_check(&(#expr))),
        Constraint::Pattern(lit) => quote!(::quarry::shape::Check::Pattern(#lit)),
        Constraint::Validate(path) => {
            let text = quote!(#path).to_string().replace(' ', "");
            quote!(::quarry::shape::Check::Validate(#text))
        }
    });
    quote!(::quarry::__private::vec![#(#checks),*])
}

/// `fn shape() -> ::quarry::shape::Shape { ... }` for the impl of `Decode<'de>`.
pub fn shape_fn(c: &Container, de: &Lifetime) -> TokenStream {
    let type_name = c.ident.to_string();
    let body = match &c.data {
        Data::Struct(Style::Named, fields) => {
            let shape = struct_shape(&type_name, fields, c.deny_unknown_fields, &c.docs, de);
            quote!(::quarry::shape::Shape::Struct(#shape))
        }
        Data::Struct(Style::Tuple, fields) => {
            let kept: Vec<&Field> = fields.iter().filter(|f| !f.skip).collect();
            match kept.as_slice() {
                [only] if fields.len() == 1 && only.constraints.is_empty() => {
                    let ty = &only.ty;
                    quote!(<#ty as ::quarry::Decode<#de>>::shape())
                }
                [only] if fields.len() == 1 => {
                    let ty = &only.ty;
                    let checks = checks(only);
                    quote!(::quarry::shape::Shape::Checked(<#ty as ::quarry::Decode<#de>>::shape, #checks))
                }
                _ => {
                    let items = tuple_items(&kept, de);
                    quote!(::quarry::shape::Shape::Tuple(
                        ::quarry::__private::vec![#(#items),*]
                    ))
                }
            }
        }
        Data::Struct(Style::Unit, _) => quote!(::quarry::shape::Shape::Null),
        Data::Enum(variants) => {
            let tagging = match &c.tagging {
                Tagging::External => quote!(::quarry::shape::Tagging::External),
                Tagging::Internal(tag) => quote!(::quarry::shape::Tagging::Internal { tag: #tag }),
                Tagging::Adjacent(tag, content) => {
                    quote!(::quarry::shape::Tagging::Adjacent { tag: #tag, content: #content })
                }
                Tagging::Untagged => quote!(::quarry::shape::Tagging::Untagged),
            };
            let variants = variants
                .iter()
                .map(|v| variant_shape(v, c.deny_unknown_fields, de));
            let docs = description(&c.docs);
            quote!(::quarry::shape::Shape::Enum(::quarry::shape::EnumShape {
                name: #type_name,
                description: #docs,
                tagging: #tagging,
                variants: ::quarry::__private::vec![#(#variants),*],
            }))
        }
    };
    quote! {
        fn shape() -> ::quarry::shape::Shape {
            #body
        }
    }
}

/// `<T as Decode<'de>>::shape` for each field, as `ShapeOf` function pointers.
fn shape_fns(fields: &[&Field], de: &Lifetime) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let ty = &f.ty;
            quote!(<#ty as ::quarry::Decode<#de>>::shape as ::quarry::shape::ShapeOf)
        })
        .collect()
}

/// Each field as a `TupleItem`: its shape and its constraints.
fn tuple_items(fields: &[&Field], de: &Lifetime) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let ty = &f.ty;
            let checks = checks(f);
            quote!(::quarry::shape::TupleItem {
                shape: <#ty as ::quarry::Decode<#de>>::shape,
                checks: #checks,
            })
        })
        .collect()
}

fn struct_shape(
    name: &str,
    fields: &[Field],
    deny: bool,
    docs: &Option<String>,
    de: &Lifetime,
) -> TokenStream {
    let fields = fields.iter().filter(|f| !f.skip).map(|f| {
        let ty = &f.ty;
        let key = match (&f.member, f.flatten) {
            (syn::Member::Named(ident), true) => ident.to_string(),
            _ => f.name.clone(),
        };
        let aliases = &f.aliases;
        let flatten = f.flatten;
        let required = if f.default.is_some() || f.flatten {
            quote!(false)
        } else {
            quote!(<#ty as ::quarry::Decode<#de>>::missing().is_none())
        };
        let checks = checks(f);
        let docs = description(&f.docs);
        let merge = match f.merge_append {
            true => quote!(::quarry::shape::Merge::Append),
            false => quote!(::quarry::shape::Merge::Replace),
        };
        quote!(::quarry::shape::FieldShape {
            name: #key,
            aliases: &[#(#aliases),*],
            shape: <#ty as ::quarry::Decode<#de>>::shape,
            required: #required,
            flatten: #flatten,
            checks: #checks,
            description: #docs,
            merge: #merge,
        })
    });
    let docs = description(docs);
    quote!(::quarry::shape::StructShape {
        name: #name,
        description: #docs,
        fields: ::quarry::__private::vec![#(#fields),*],
        deny_unknown_fields: #deny,
    })
}

fn variant_shape(v: &Variant, deny: bool, de: &Lifetime) -> TokenStream {
    let name = &v.name;
    let aliases = &v.aliases;
    let content = match v.style {
        Style::Unit => quote!(::quarry::shape::VariantContent::Unit),
        Style::Tuple => {
            let kept: Vec<&Field> = v.fields.iter().filter(|f| !f.skip).collect();
            if v.fields.len() == 1 {
                let items = shape_fns(&kept, de);
                quote!(::quarry::shape::VariantContent::Newtype(#(#items)*))
            } else {
                let items = tuple_items(&kept, de);
                quote!(::quarry::shape::VariantContent::Tuple(
                    ::quarry::__private::vec![#(#items),*]
                ))
            }
        }
        Style::Named => {
            let shape = struct_shape(&v.ident.to_string(), &v.fields, deny, &None, de);
            quote!(::quarry::shape::VariantContent::Struct(#shape))
        }
    };
    let variant_checks = match (v.style, v.fields.as_slice()) {
        (Style::Tuple, [only]) => checks(only),
        _ => quote!(::quarry::__private::vec![]),
    };
    let docs = description(&v.docs);
    quote!(::quarry::shape::VariantShape {
        name: #name,
        aliases: &[#(#aliases),*],
        content: #content,
        checks: #variant_checks,
        description: #docs,
    })
}
