//! Expand `#[derive(Encode)]`: write the value through any `Encoder` (every format).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::parse_quote;

use crate::model::{Container, Data, Field, Style, Tagging, Variant};

/// Writes the named fields bound to `bindings` (expressions yielding references) as
/// entries of the map that is already open.
fn named_entries(fields: &[Field], bindings: &[TokenStream]) -> TokenStream {
    let entries = fields.iter().zip(bindings).filter(|(f, _)| !f.skip).map(|(f, binding)| {
        let name = &f.name;
        if f.flatten {
            quote! {
                ::quarry::Encode::encode(#binding, &mut ::quarry::__private::FlattenEncoder::new(__encoder))
                    .map_err(|__e| __e.at_key(#name))?;
            }
        } else {
            // Names that need no escaping (all of them, in practice) skip the writer's scan.
            let plain = !name.chars().any(|c| c == '"' || c == '\\' || c.is_control());
            let write_key = if plain { quote!(plain_key) } else { quote!(key) };
            quote! {
                __encoder.#write_key(#name)?;
                ::quarry::Encode::encode(#binding, __encoder).map_err(|__e| __e.at_key(#name))?;
            }
        }
    });
    quote!(#(#entries)*)
}

/// The number of entries a map of these fields has, when no field is flattened.
fn entry_count(fields: &[Field]) -> TokenStream {
    if fields.iter().any(|f| f.flatten) {
        quote!(::quarry::__private::None)
    } else {
        let n = fields.iter().filter(|f| !f.skip).count();
        quote!(::quarry::__private::Some(#n))
    }
}

fn tuple_items(fields: &[Field], bindings: &[TokenStream]) -> TokenStream {
    let kept: Vec<&TokenStream> = fields
        .iter()
        .zip(bindings)
        .filter(|(f, _)| !f.skip)
        .map(|(_, b)| b)
        .collect();
    let n = kept.len();
    let items = kept.iter().enumerate().map(|(i, binding)| {
        quote!(::quarry::Encode::encode(#binding, __encoder).map_err(|__e| __e.at_index(#i))?;)
    });
    quote! {
        __encoder.begin_seq(::quarry::__private::Some(#n))?;
        #(#items)*
        __encoder.end_seq()
    }
}

/// Writes a variant's content (bound to `__b{i}`) without any tag.
fn variant_content(v: &Variant, bindings: &[TokenStream]) -> TokenStream {
    match v.style {
        Style::Unit => quote!(__encoder.null()),
        Style::Tuple if v.fields.len() == 1 => {
            let b = &bindings[0];
            quote!(::quarry::Encode::encode(#b, __encoder))
        }
        Style::Tuple => tuple_items(&v.fields, bindings),
        Style::Named => {
            let count = entry_count(&v.fields);
            let entries = named_entries(&v.fields, bindings);
            quote! {
                __encoder.begin_map(#count)?;
                #entries
                __encoder.end_map()
            }
        }
    }
}

fn variant_arm(c: &Container, v: &Variant) -> TokenStream {
    let ident = &v.ident;
    let bindings: Vec<TokenStream> = (0..v.fields.len())
        .map(|i| format_ident!("__b{}", i))
        .map(|b| quote!(#b))
        .collect();
    let pattern = match v.style {
        Style::Unit => quote!(Self::#ident),
        Style::Tuple => quote!(Self::#ident(#(#bindings),*)),
        Style::Named => {
            let members = v.fields.iter().zip(&bindings).map(|(f, b)| {
                let m = &f.member;
                quote!(#m: #b)
            });
            quote!(Self::#ident { #(#members),* })
        }
    };
    let name = &v.name;
    let content = variant_content(v, &bindings);
    let body = match &c.tagging {
        Tagging::External if v.style == Style::Unit => quote!(__encoder.str(#name)),
        Tagging::External => quote! {
            __encoder.begin_map(::quarry::__private::Some(1))?;
            __encoder.key(#name)?;
            { #content }.map_err(|__e| __e.at_key(#name))?;
            __encoder.end_map()
        },
        Tagging::Internal(tag) => {
            let rest = match v.style {
                Style::Unit => quote!(),
                Style::Tuple => {
                    let b = &bindings[0];
                    quote!(::quarry::Encode::encode(#b, &mut ::quarry::__private::FlattenEncoder::new(__encoder))?;)
                }
                Style::Named => named_entries(&v.fields, &bindings),
            };
            quote! {
                __encoder.begin_map(::quarry::__private::None)?;
                __encoder.key(#tag)?;
                __encoder.str(#name)?;
                #rest
                __encoder.end_map()
            }
        }
        Tagging::Adjacent(tag, content_key) => {
            let content_part = (v.style != Style::Unit).then(|| {
                quote! {
                    __encoder.key(#content_key)?;
                    { #content }.map_err(|__e| __e.at_key(#content_key))?;
                }
            });
            quote! {
                __encoder.begin_map(::quarry::__private::None)?;
                __encoder.key(#tag)?;
                __encoder.str(#name)?;
                #content_part
                __encoder.end_map()
            }
        }
        Tagging::Untagged => content,
    };
    quote!(#[allow(unused_variables)] #pattern => { #body })
}

/// `&self.field` for every field, in order.
fn self_bindings(fields: &[Field]) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let m = &f.member;
            quote!(&self.#m)
        })
        .collect()
}

pub fn expand(c: &Container) -> TokenStream {
    let ident = &c.ident;
    let mut generics = c.generics.clone();
    let type_params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for t in type_params {
        where_clause
            .predicates
            .push(parse_quote!(#t: ::quarry::Encode));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let body = match &c.data {
        Data::Struct(Style::Named, fields) => {
            let bindings = self_bindings(fields);
            let count = entry_count(fields);
            let entries = named_entries(fields, &bindings);
            quote! {
                __encoder.begin_map(#count)?;
                #entries
                __encoder.end_map()
            }
        }
        Data::Struct(Style::Tuple, fields) if fields.len() == 1 && !fields[0].skip => {
            quote!(::quarry::Encode::encode(&self.0, __encoder))
        }
        Data::Struct(Style::Tuple, fields) => {
            let bindings = self_bindings(fields);
            tuple_items(fields, &bindings)
        }
        Data::Struct(Style::Unit, _) => quote!(__encoder.null()),
        Data::Enum(variants) => {
            let arms = variants.iter().map(|v| variant_arm(c, v));
            quote! {
                match self {
                    #(#arms)*
                }
            }
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics ::quarry::Encode for #ident #ty_generics #where_clause {
            fn encode<__E: ::quarry::encode::Encoder + ?Sized>(&self, __encoder: &mut __E) -> ::quarry::__private::Result<(), ::quarry::EncodeError> {
                #body
            }
        }
    }
}
