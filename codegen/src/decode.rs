//! Expand `#[derive(Decode)]`: `decode` from a `RawValue` (every format), plus a direct
//! `decode_direct` for structs with named fields, unit-only enums and newtypes.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, ToTokens};
use syn::{parse_quote, Lifetime};

use crate::model::{Constraint, Container, Data, DefaultValue, Field, Style, Tagging, Variant};

/// The source text of a constraint's range, as users wrote it: `1..=65535`.
fn range_text(expr: &syn::Expr) -> String {
    expr.to_token_stream()
        .to_string()
        .replace(" ..= ", "..=")
        .replace(" .. ", "..")
        .replace("..= ", "..=")
}

/// The check of one constraint on `__x`, as an expression of type `Result<(), DecodeErrors>`.
fn constraint_check(constraint: &Constraint) -> TokenStream {
    match constraint {
        Constraint::Range(expr) => {
            let text = range_text(expr);
            quote!(::quarry::__private::RangeValue::check_range(&__x, &(#expr), #text))
        }
        Constraint::Len(expr) => {
            let text = range_text(expr);
            quote!(::quarry::__private::check_len(&__x, &(#expr), #text))
        }
        Constraint::Pattern(lit) => quote!({
            static __PATTERN: ::quarry::__private::OnceLock<::quarry::__private::Regex> =
                ::quarry::__private::OnceLock::new();
            let __pattern = __PATTERN.get_or_init(|| {
                ::quarry::__private::Regex::new(#lit).expect("the derive checked this pattern at compile time")
            });
            ::quarry::__private::check_pattern(&__x, |__s| __pattern.is_match(__s), #lit)
        }),
        Constraint::Validate(path) => quote!(::quarry::__private::check_with(&__x, #path)),
    }
}

/// `.within_range("1..=65535")` for a field with a `range` constraint: type errors about
/// the field's value then name the accepted range.
fn range_refinement(field: &Field) -> TokenStream {
    field
        .constraints
        .iter()
        .find_map(|c| match c {
            Constraint::Range(expr) => {
                let text = range_text(expr);
                Some(quote!(.within_range(#text)))
            }
            _ => None,
        })
        .unwrap_or_default()
}

/// Decoding a newtype's one field from `value` and wrapping it with `ctor`, its
/// constraints checked: an expression of type `Result<Self, DecodeErrors>` (it returns
/// early with `?`, so it sits in a function or closure of that type).
fn newtype_from_value(
    field: &Field,
    ctor: &TokenStream,
    value: TokenStream,
    de: &Lifetime,
) -> TokenStream {
    let ty = &field.ty;
    let checks = field.constraints.iter().map(constraint_check);
    let refine = range_refinement(field);
    quote! {{
        let __x = <#ty as ::quarry::Decode<#de>>::decode_with_options(#value, __options).map_err(|__e| __e #refine)?;
        #( #checks?; )*
        ::quarry::__private::Ok(#ctor(__x))
    }}
}

/// Decoding `value` as `field`'s type into its slot, its constraints checked: every
/// failure is accumulated in `__errors`, placed by `place` (`.at_key(&__key)`, or
/// nothing for a flattened field, which has no key of its own).
fn decode_into_slot(
    field: &Field,
    slot: &syn::Ident,
    value: TokenStream,
    place: TokenStream,
    de: &Lifetime,
) -> TokenStream {
    let ty = &field.ty;
    let refine = range_refinement(field);
    let checks = field.constraints.iter().map(|c| {
        let check = constraint_check(c);
        quote! {
            if let ::quarry::__private::Err(__e) = #check {
                ::quarry::DecodeErrors::accumulate(&mut __errors, __e #place);
                __ok = false;
            }
        }
    });
    quote! {
        match <#ty as ::quarry::Decode<#de>>::decode_with_options(#value, __options) {
            ::quarry::__private::Ok(__x) => {
                #[allow(unused_mut)]
                let mut __ok = true;
                #(#checks)*
                if __ok {
                    #slot = ::quarry::__private::Some(__x);
                }
            }
            ::quarry::__private::Err(__e) => {
                ::quarry::DecodeErrors::accumulate(&mut __errors, __e #refine #place);
            }
        }
    }
}

/// The value of a missing field: its default, `Decode::missing_with_options` under
/// `options` (an expression), or `None` (required).
fn missing_value(field: &Field, options: TokenStream, de: &Lifetime) -> TokenStream {
    let ty = &field.ty;
    match &field.default {
        Some(DefaultValue::Trait) => quote!(::quarry::__private::Some(
            ::core::default::Default::default()
        )),
        Some(DefaultValue::Path(path)) => quote!(::quarry::__private::Some(#path())),
        None => quote!(<#ty as ::quarry::Decode<#de>>::missing_with_options(#options)),
    }
}

/// Builds `ctor { fields }` or `ctor(fields)` from the slot variables `__v{i}`.
fn construct(ctor: &TokenStream, style: Style, fields: &[Field]) -> TokenStream {
    let values = fields.iter().enumerate().map(|(i, f)| {
        let member = &f.member;
        let value = if f.skip {
            quote!(::core::default::Default::default())
        } else {
            format_ident!("__v{}", i).to_token_stream()
        };
        (member, value)
    });
    match style {
        Style::Named => {
            let parts = values.map(|(m, v)| quote!(#m: #v));
            quote!(#ctor { #(#parts),* })
        }
        Style::Tuple => {
            let parts = values.map(|(_, v)| v);
            quote!(#ctor(#(#parts),*))
        }
        Style::Unit => ctor.clone(),
    }
}

/// Decoding a struct (or struct variant) with named fields from `__entries`, the map's
/// pairs; evaluates to `Result<Self, DecodeErrors>`. Every failure is accumulated.
fn named_from_entries(
    fields: &[Field],
    ctor: &TokenStream,
    deny_unknown: bool,
    de: &Lifetime,
) -> TokenStream {
    let active: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.skip && !f.flatten)
        .collect();
    let flattened: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.flatten)
        .collect();
    let slots = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.skip)
        .map(|(i, f)| {
            let slot = format_ident!("__f{}", i);
            let ty = &f.ty;
            quote!(let mut #slot: ::quarry::__private::Option<#ty> = ::quarry::__private::None;)
        });
    let seen = active.iter().map(|(i, _)| {
        let s = format_ident!("__s{}", i);
        quote!(let mut #s = false;)
    });
    let arms = active.iter().map(|(i, f)| {
        let slot = format_ident!("__f{}", i);
        let s = format_ident!("__s{}", i);
        let name = &f.name;
        let patterns = std::iter::once(&f.name).chain(&f.aliases);
        let decode = decode_into_slot(f, &slot, quote!(__v), quote!(.at_key(&__key)), de);
        quote! {
            #(#patterns)|* => {
                if #s {
                    ::quarry::DecodeErrors::accumulate(
                        &mut __errors,
                        ::quarry::DecodeErrors::new(::quarry::decode::DecodeErrorKind::DuplicateField(
                            ::quarry::__private::String::from(#name),
                        ))
                        .at_key(&__key),
                    );
                } else {
                    #s = true;
                    #decode
                }
            }
        }
    });
    let unknown_arm = if deny_unknown {
        let names = active
            .iter()
            .flat_map(|(_, f)| std::iter::once(&f.name).chain(&f.aliases));
        quote! {
            _ => ::quarry::DecodeErrors::accumulate(
                &mut __errors,
                ::quarry::DecodeErrors::unknown_field(&__key, &[#(#names),*]).at_key(&__key),
            ),
        }
    } else if !flattened.is_empty() {
        quote!(_ => __rest.push((__key, __v)),)
    } else {
        quote!(_ => {})
    };
    let rest = (!flattened.is_empty()).then(|| {
        quote!(let mut __rest: ::quarry::__private::Vec<(::quarry::__private::Cow<#de, str>, ::quarry::RawValue<#de>)> = ::quarry::__private::Vec::new();)
    });
    let missing = active.iter().map(|(i, f)| {
        let slot = format_ident!("__f{}", i);
        let s = format_ident!("__s{}", i);
        let name = &f.name;
        let value = missing_value(f, quote!(__options), de);
        // In a closure of its own: its temporaries are not in the frame that a recursive
        // struct keeps on the stack at every level (a debug build gives each its own
        // slot). Optimized builds inline it.
        quote! {
            if !#s { (|| {
                #slot = #value;
                if #slot.is_none() {
                    ::quarry::DecodeErrors::accumulate(
                        &mut __errors,
                        ::quarry::DecodeErrors::new(::quarry::decode::DecodeErrorKind::MissingField(
                            ::quarry::__private::String::from(#name),
                        )),
                    );
                }
            })() }
        }
    });
    // Several flattened fields each decode the entries the struct's own fields leave,
    // each from its own copy: a copy may hold marks placed for that field alone (see
    // `VariantValues`).
    let many = flattened.len() > 1;
    let flattened_values = many.then(|| {
        quote! {
            let mut __flat = ::quarry::__private::VariantValues::new(
                ::quarry::RawValue::Map(::core::mem::take(&mut __rest)),
            );
        }
    });
    let flatten = flattened.iter().enumerate().map(|(k, (i, f))| {
        let slot = format_ident!("__f{}", i);
        let value = if !many {
            quote!(::quarry::RawValue::Map(::core::mem::take(&mut __rest)))
        } else if k + 1 == flattened.len() {
            quote!(__flat.last(#k))
        } else {
            quote!(__flat.get(#k))
        };
        // A flattened field has no key of its own: its errors sit at the struct itself.
        decode_into_slot(f, &slot, value, quote!(), de)
    });
    let kept: Vec<usize> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.skip)
        .map(|(i, _)| i)
        .collect();
    let slot_names = kept.iter().map(|i| format_ident!("__f{}", i));
    let value_patterns = kept.iter().map(|i| {
        let v = format_ident!("__v{}", i);
        quote!(::quarry::__private::Some(#v))
    });
    let built = construct(ctor, Style::Named, fields);
    quote! {{
        let mut __errors: ::quarry::__private::Option<::quarry::DecodeErrors> = ::quarry::__private::None;
        #(#slots)*
        #(#seen)*
        #rest
        for (__key, __v) in __entries {
            match &*__key {
                #(#arms)*
                #unknown_arm
            }
        }
        #(#missing)*
        #flattened_values
        #(#flatten)*
        match __errors {
            ::quarry::__private::Some(__e) => ::quarry::__private::Err(__e),
            ::quarry::__private::None => match (#(#slot_names,)*) {
                (#(#value_patterns,)*) => ::quarry::__private::Ok(#built),
                #[allow(unreachable_patterns)]
                _ => ::quarry::__private::Err(::quarry::DecodeErrors::custom("a field was left without a value")),
            },
        }
    }}
}

/// Decoding a tuple struct (or tuple variant) of several fields from `__value`.
fn tuple_from_value(
    fields: &[Field],
    ctor: &TokenStream,
    expected: &str,
    de: &Lifetime,
) -> TokenStream {
    let kept: Vec<(usize, &Field)> = fields.iter().enumerate().filter(|(_, f)| !f.skip).collect();
    let n = kept.len();
    let decodes = kept.iter().enumerate().map(|(position, (i, f))| {
        let v = format_ident!("__v{}", i);
        let ty = &f.ty;
        let refine = range_refinement(f);
        let checks = f.constraints.iter().map(|c| {
            let check = constraint_check(c);
            quote! {
                if let ::quarry::__private::Err(__e) = #check {
                    ::quarry::DecodeErrors::accumulate(&mut __errors, __e.at_index(#position));
                }
            }
        });
        quote! {
            let #v = match <#ty as ::quarry::Decode<#de>>::decode_with_options(__items.next().unwrap_or_default(), __options) {
                ::quarry::__private::Ok(__x) => {
                    #(#checks)*
                    ::quarry::__private::Some(__x)
                }
                ::quarry::__private::Err(__e) => {
                    ::quarry::DecodeErrors::accumulate(&mut __errors, __e #refine .at_index(#position));
                    ::quarry::__private::None
                }
            };
        }
    });
    let names = kept.iter().map(|(i, _)| format_ident!("__v{}", i));
    let patterns = kept.iter().map(|(i, _)| {
        let v = format_ident!("__v{}", i);
        quote!(::quarry::__private::Some(#v))
    });
    let built = construct(ctor, Style::Tuple, fields);
    quote! {{
        let __items = match __value {
            ::quarry::RawValue::Seq(__items) if __items.len() == #n => __items,
            __other => return ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type(#expected, &__other)),
        };
        let mut __items = __items.into_iter();
        let mut __errors: ::quarry::__private::Option<::quarry::DecodeErrors> = ::quarry::__private::None;
        #(#decodes)*
        match (__errors, #(#names,)*) {
            (::quarry::__private::None, #(#patterns,)*) => ::quarry::__private::Ok(#built),
            (::quarry::__private::Some(__e), ..) => ::quarry::__private::Err(__e),
            #[allow(unreachable_patterns)]
            _ => ::quarry::__private::Err(::quarry::DecodeErrors::custom("a field was left without a value")),
        }
    }}
}

/// Decoding one variant's content from `__value`, by the variant's style.
fn variant_content(variant: &Variant, de: &Lifetime, deny_unknown: bool) -> TokenStream {
    let ident = &variant.ident;
    let ctor = quote!(Self::#ident);
    match variant.style {
        Style::Unit => quote! {
            match __value {
                ::quarry::RawValue::Null => ::quarry::__private::Ok(Self::#ident),
                __other => ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type("null", &__other)),
            }
        },
        Style::Tuple if variant.fields.len() == 1 => {
            newtype_from_value(&variant.fields[0], &ctor, quote!(__value), de)
        }
        Style::Tuple => tuple_from_value(
            &variant.fields,
            &ctor,
            &format!("sequence of {}", variant.fields.len()),
            de,
        ),
        Style::Named => {
            let body = named_from_entries(&variant.fields, &ctor, deny_unknown, de);
            quote! {
                match __value {
                    ::quarry::RawValue::Map(__entries) => #body,
                    __other => ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type("map", &__other)),
                }
            }
        }
    }
}

/// `expected one of `a`, `b`, found …` for an unknown variant name.
fn unknown_variant(variants: &[Variant]) -> TokenStream {
    let names: Vec<String> = variants.iter().map(|v| format!("`{}`", v.name)).collect();
    let expected = format!("one of {}", names.join(", "));
    quote! {
        ::quarry::DecodeErrors::new(::quarry::decode::DecodeErrorKind::InvalidValue {
            expected: ::quarry::__private::String::from(#expected),
            found: ::quarry::decode::describe(&::quarry::RawValue::String(::quarry::__private::Cow::Borrowed(&*__name))),
        })
    }
}

/// The pattern matching variant `v`'s name and its aliases: `"a" | "b"`.
fn name_patterns(v: &Variant) -> TokenStream {
    let names = std::iter::once(&v.name).chain(&v.aliases);
    quote!(#(#names)|*)
}

fn enum_decode(c: &Container, variants: &[Variant], de: &Lifetime) -> TokenStream {
    let unknown = unknown_variant(variants);
    match &c.tagging {
        Tagging::External => {
            let unit_arms = variants.iter().filter(|v| v.style == Style::Unit).map(|v| {
                let ident = &v.ident;
                let pattern = name_patterns(v);
                quote!(#pattern => ::quarry::__private::Ok(Self::#ident),)
            });
            let map_arms = variants.iter().map(|v| {
                let pattern = name_patterns(v);
                let content = variant_content(v, de, c.deny_unknown_fields);
                quote!(#pattern => (|| #content)().map_err(|__e: ::quarry::DecodeErrors| __e.at_key(&__name)),)
            });
            quote! {
                match __value {
                    ::quarry::RawValue::String(__name) | ::quarry::RawValue::Text(__name) => match &*__name {
                        #(#unit_arms)*
                        _ => ::quarry::__private::Err(#unknown),
                    },
                    ::quarry::RawValue::Map(__entries) if __entries.len() == 1 => {
                        let (__name, __value) = __entries.into_iter().next().unwrap_or_default();
                        match &*__name {
                            #(#map_arms)*
                            _ => ::quarry::__private::Err(#unknown),
                        }
                    }
                    __other => ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type(
                        "a variant name or a map with one entry", &__other,
                    )),
                }
            }
        }
        Tagging::Internal(tag) => {
            let arms = variants.iter().map(|v| {
                let pattern = name_patterns(v);
                let ident = &v.ident;
                let body = match v.style {
                    Style::Unit => quote!(::quarry::__private::Ok(Self::#ident)),
                    Style::Tuple => newtype_from_value(
                        &v.fields[0],
                        &quote!(Self::#ident),
                        quote!(::quarry::RawValue::Map(__entries)),
                        de,
                    ),
                    Style::Named => named_from_entries(
                        &v.fields,
                        &quote!(Self::#ident),
                        c.deny_unknown_fields,
                        de,
                    ),
                };
                quote!(#pattern => #body,)
            });
            quote! {
                let mut __entries = match __value {
                    ::quarry::RawValue::Map(__entries) => __entries,
                    __other => return ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type("map", &__other)),
                };
                let __position = __entries.iter().position(|(__k, _)| __k == #tag);
                let __tag = match __position {
                    ::quarry::__private::Some(__p) => __entries.remove(__p).1,
                    ::quarry::__private::None => return ::quarry::__private::Err(::quarry::DecodeErrors::new(
                        ::quarry::decode::DecodeErrorKind::MissingField(::quarry::__private::String::from(#tag)),
                    )),
                };
                let __name = match __tag {
                    ::quarry::RawValue::String(__name) | ::quarry::RawValue::Text(__name) => __name,
                    __other => return ::quarry::__private::Err(
                        ::quarry::DecodeErrors::invalid_type("a variant name", &__other).at_key(#tag),
                    ),
                };
                match &*__name {
                    #(#arms)*
                    _ => ::quarry::__private::Err((#unknown).at_key(#tag)),
                }
            }
        }
        Tagging::Adjacent(tag, content) => {
            let arms = variants.iter().map(|v| {
                let pattern = name_patterns(v);
                let ident = &v.ident;
                let body = if v.style == Style::Unit {
                    quote!(::quarry::__private::Ok(Self::#ident))
                } else {
                    let decode = variant_content(v, de, c.deny_unknown_fields);
                    quote! {
                        match __content {
                            ::quarry::__private::Some(__value) => (|| #decode)().map_err(|__e: ::quarry::DecodeErrors| __e.at_key(#content)),
                            ::quarry::__private::None => ::quarry::__private::Err(::quarry::DecodeErrors::new(
                                ::quarry::decode::DecodeErrorKind::MissingField(::quarry::__private::String::from(#content)),
                            )),
                        }
                    }
                };
                quote!(#pattern => #body,)
            });
            quote! {
                let __entries = match __value {
                    ::quarry::RawValue::Map(__entries) => __entries,
                    __other => return ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type("map", &__other)),
                };
                let mut __tag = ::quarry::__private::None;
                let mut __content = ::quarry::__private::None;
                for (__k, __v) in __entries {
                    if __k == #tag {
                        __tag = ::quarry::__private::Some(__v);
                    } else if __k == #content {
                        __content = ::quarry::__private::Some(__v);
                    }
                }
                let __name = match __tag {
                    ::quarry::__private::Some(::quarry::RawValue::String(__name) | ::quarry::RawValue::Text(__name)) => __name,
                    ::quarry::__private::Some(__other) => return ::quarry::__private::Err(
                        ::quarry::DecodeErrors::invalid_type("a variant name", &__other).at_key(#tag),
                    ),
                    ::quarry::__private::None => return ::quarry::__private::Err(::quarry::DecodeErrors::new(
                        ::quarry::decode::DecodeErrorKind::MissingField(::quarry::__private::String::from(#tag)),
                    )),
                };
                match &*__name {
                    #(#arms)*
                    _ => ::quarry::__private::Err((#unknown).at_key(#tag)),
                }
            }
        }
        Tagging::Untagged => {
            let last = variants.len().saturating_sub(1);
            let attempts = variants.iter().enumerate().map(|(i, v)| {
                let content = variant_content(v, de, c.deny_unknown_fields);
                // Every attempt but the last decodes a copy; the last takes the value.
                let value = if i == last {
                    quote!(let __value = __values.last(#i);)
                } else {
                    quote!(let __value = __values.get(#i);)
                };
                let why = format_ident!("__why{}", i);
                quote! {
                    let #why: ::quarry::DecodeErrors;
                    {
                        #value
                        let __attempt: ::quarry::__private::Result<Self, ::quarry::DecodeErrors> = (|| #content)();
                        match __attempt {
                            ::quarry::__private::Ok(__x) => return ::quarry::__private::Ok(__x),
                            // Every later variant would recurse as deep again; and a
                            // value read without its places cannot tell the variant.
                            ::quarry::__private::Err(__e) if __e.is_recursion_limit() || __e.is_unplaced() => {
                                return ::quarry::__private::Err(__e)
                            }
                            ::quarry::__private::Err(__e) => #why = __e,
                        }
                    }
                }
            });
            // Why each variant failed, kept in locals (no allocation when a later variant
            // matches) and formatted only if every one fails.
            let reasons = variants.iter().enumerate().map(|(i, v)| {
                let why = format_ident!("__why{}", i);
                let name = v.ident.to_string();
                quote!((#name, #why))
            });
            let message = format!(
                "data did not match any variant of untagged enum `{}`",
                c.ident
            );
            let unused = variants.is_empty().then(|| quote!(let _ = __values;));
            quote! {
                // The value, or a copy per variant with the `Spanned` places of its shape.
                #[allow(unused_mut)]
                let mut __values = ::quarry::__private::VariantValues::new(__value);
                #(#attempts)*
                #unused
                ::quarry::__private::Err(::quarry::DecodeErrors::no_variant_matched(#message, &[#(#reasons),*]))
            }
        }
    }
}

/// The generics of the impl: the type's own lifetime is `'de` when it has one (borrowed
/// fields then borrow from the input); every type parameter must be `Decode<'de>`.
fn impl_generics(c: &Container) -> (syn::Generics, Lifetime) {
    let mut generics = c.generics.clone();
    let lifetimes: Vec<Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let de = match lifetimes.first() {
        Some(first) => first.clone(),
        None => {
            let de = Lifetime::new("'de", Span::call_site());
            generics.params.insert(
                0,
                syn::GenericParam::Lifetime(syn::LifetimeParam::new(de.clone())),
            );
            de
        }
    };
    let type_params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for other in lifetimes.iter().skip(1) {
        where_clause.predicates.push(parse_quote!(#de: #other));
    }
    for t in type_params {
        where_clause
            .predicates
            .push(parse_quote!(#t: ::quarry::Decode<#de>));
    }
    (generics, de)
}

/// The direct path for a struct with named fields (no `flatten`).
fn named_decode_direct(fields: &[Field], deny_unknown: bool, de: &Lifetime) -> TokenStream {
    let body = named_direct_body(fields, &quote!(Self), deny_unknown, None, de);
    quote! {
        #[inline]
        fn decode_direct<__S: ::quarry::pull::PullSource<#de> + ?Sized>(__source: &mut __S) -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> {
            #body
        }
    }
}

/// The statements that read named fields (no `flatten`) from `__source` and build them
/// with `ctor`: keys matched by byte comparison, the key expected next in declaration
/// order tried first. They `return` a fallback, so they sit in a function or closure
/// returning `Result<Self, Fallback>`. With `tag`, the object's `{` and its first key, the
/// internal tag, were read already, and the tag's key coming again falls back (XML's
/// RawValue path gathers the two into a sequence, which names no variant).
fn named_direct_body(
    fields: &[Field],
    ctor: &TokenStream,
    deny_unknown: bool,
    tag: Option<&str>,
    de: &Lifetime,
) -> TokenStream {
    let active: Vec<(usize, &Field)> = fields.iter().enumerate().filter(|(_, f)| !f.skip).collect();
    let names: Vec<&String> = active.iter().map(|(_, f)| &f.name).collect();
    let slots = active.iter().map(|(i, f)| {
        let slot = format_ident!("__f{}", i);
        let ty = &f.ty;
        quote!(let mut #slot: ::quarry::__private::Option<#ty> = ::quarry::__private::None;)
    });
    let count = names.len();
    let plain_keys = names
        .iter()
        .map(|name| quote!(::quarry::pull::PlainKey::new(#name)));
    let expected_arms = names
        .iter()
        .enumerate()
        .map(|(position, name)| quote!(#position if &*__key == #name => #position,));
    let index_arms: Vec<TokenStream> = active
        .iter()
        .enumerate()
        .map(|(position, (_, f))| {
            let patterns = std::iter::once(&f.name).chain(&f.aliases);
            quote!(#(#patterns)|* => #position,)
        })
        .collect();
    let value_arms = active.iter().enumerate().map(|(position, (i, f))| {
        let slot = format_ident!("__f{}", i);
        let ty = &f.ty;
        let checks = f.constraints.iter().map(|c| {
            let check = constraint_check(c);
            quote!(if #check.is_err() { return ::quarry::__private::Err(::quarry::pull::Fallback); })
        });
        quote! {
            #position => {
                if #slot.is_some() {
                    return ::quarry::__private::Err(::quarry::pull::Fallback);
                }
                let __x = <#ty as ::quarry::Decode<#de>>::decode_direct(__source)?;
                #(#checks)*
                #slot = ::quarry::__private::Some(__x);
            }
        }
    });
    let unknown = if deny_unknown {
        quote!(_ => return ::quarry::__private::Err(::quarry::pull::Fallback),)
    } else {
        quote!(_ => __source.skip_value()?,)
    };
    // A type that passes over unknown keys says which keys it reads, so a source whose
    // tables are added to later (TOML) may pass over additions under the others.
    let ignores = (!deny_unknown).then(|| {
        let known = active
            .iter()
            .flat_map(|(_, f)| std::iter::once(&f.name).chain(&f.aliases));
        quote!(__source.ignores_keys_but(&[#(#known),*]);)
    });
    let finals = active.iter().map(|(i, f)| {
        let slot = format_ident!("__f{}", i);
        let v = format_ident!("__v{}", i);
        let missing = missing_value(f, quote!(__source.decode_options()), de);
        quote! {
            let #v = match #slot {
                ::quarry::__private::Some(__x) => __x,
                ::quarry::__private::None => match #missing {
                    ::quarry::__private::Some(__x) => __x,
                    ::quarry::__private::None => return ::quarry::__private::Err(::quarry::pull::Fallback),
                },
            };
        }
    });
    let built = construct(ctor, Style::Named, fields);
    let begin_first = tag.is_none();
    let begin = tag.is_none().then(|| quote!(__source.begin_object()?;));
    let tag_arm =
        tag.map(|tag| quote!(#tag => return ::quarry::__private::Err(::quarry::pull::Fallback),));
    quote! {
            #begin
            #ignores
            #(#slots)*
            let mut __first = #begin_first;
            let mut __expected: usize = 0;
            '__fields: loop {
                // The key is read in a closure of its own: what reading it takes (much, in a
                // debug build, where each of a source's inlined steps keeps its own slots) is
                // off the stack before the value is read, not held at every level of a
                // recursive struct. Optimized builds inline it. `None` is the object's end.
                let __index: ::quarry::__private::Option<usize> = (|| -> ::quarry::__private::Result<::quarry::__private::Option<usize>, ::quarry::pull::Fallback> {
                    // A source that compares a guess in place (JSON) is asked whether the
                    // key expected next in declaration order comes; the key is read only
                    // if not.
                    if <__S as ::quarry::pull::PullSource<#de>>::GUESSES_IN_PLACE && __expected < #count {
                        const __KEYS: [::quarry::__private::Option<::quarry::pull::PlainKey<'static>>; #count] = [#(#plain_keys),*];
                        if let ::quarry::__private::Some(__guess) = __KEYS[__expected] {
                            return ::quarry::__private::Ok(::quarry::__private::Some(match __source.next_key_guessed(__first, __guess)? {
                                ::quarry::pull::GuessedKey::End => return ::quarry::__private::Ok(::quarry::__private::None),
                                ::quarry::pull::GuessedKey::Guessed => __expected,
                                ::quarry::pull::GuessedKey::Other(__key) => match &*__key {
                                    #(#index_arms)*
                                    #tag_arm
                                    _ => usize::MAX,
                                },
                            }));
                        }
                    }
                    let ::quarry::__private::Some(__key) = __source.next_key(__first)? else {
                        return ::quarry::__private::Ok(::quarry::__private::None);
                    };
                    // The key expected next in declaration order is compared first, against a
                    // literal (so the comparison inlines); any other key goes through the match.
                    ::quarry::__private::Ok(::quarry::__private::Some(match __expected {
                        #(#expected_arms)*
                        _ => match &*__key {
                            #(#index_arms)*
                            #tag_arm
                            _ => usize::MAX,
                        },
                    }))
                })()?;
                let ::quarry::__private::Some(__index) = __index else { break '__fields };
                __first = false;
                __expected = __index.wrapping_add(1);
                match __index {
                    #(#value_arms)*
                    #unknown
                }
            }
            #(#finals)*
            ::quarry::__private::Ok(#built)
    }
}

/// Whether a value peeked as `__kind` (untyped text when `__text`) may decode as
/// variant `v` of an untagged enum (see `Decode::may_accept`).
fn variant_may_accept(v: &Variant, de: &Lifetime) -> TokenStream {
    match v.style {
        Style::Unit => quote!(__kind == ::quarry::pull::ValueKind::Null),
        // Untyped text may be anything a newtype's field reads from text.
        Style::Tuple if v.fields.len() == 1 => {
            let ty = &v.fields[0].ty;
            // Deep enough for `Option<Box<T>>` in a newtype; a recursive type stops there.
            quote!((__text || <#ty as ::quarry::Decode<#de>>::may_accept_with_options(__kind, 8, __source.decode_options())))
        }
        Style::Tuple => quote!(__kind == ::quarry::pull::ValueKind::Array),
        Style::Named => quote!(__kind == ::quarry::pull::ValueKind::Object),
    }
}

/// `fn may_accept` for the impl: the kinds of value the type's `decode` may accept.
fn may_accept_fn(c: &Container, de: &Lifetime) -> TokenStream {
    let body = match &c.data {
        Data::Struct(Style::Named, _) => quote!(__kind == ::quarry::pull::ValueKind::Object),
        Data::Struct(Style::Tuple, fields) if fields.len() == 1 && !fields[0].skip => {
            let ty = &fields[0].ty;
            quote!(__depth == 0 || <#ty as ::quarry::Decode<#de>>::may_accept_with_options(__kind, __depth - 1, __options))
        }
        Data::Struct(Style::Tuple, _) => quote!(__kind == ::quarry::pull::ValueKind::Array),
        Data::Struct(Style::Unit, _) => quote!(__kind == ::quarry::pull::ValueKind::Null),
        Data::Enum(_) => match c.tagging {
            // A unit variant's name, or a map from the name to the content.
            Tagging::External => quote!(matches!(
                __kind,
                ::quarry::pull::ValueKind::String | ::quarry::pull::ValueKind::Object
            )),
            Tagging::Internal(_) | Tagging::Adjacent(..) => {
                quote!(__kind == ::quarry::pull::ValueKind::Object)
            }
            // Any kind: asking each variant would make a recursive enum's question
            // branch at every level.
            Tagging::Untagged => quote!(true),
        },
    };
    quote! {
        #[inline]
        fn may_accept(__kind: ::quarry::pull::ValueKind, __depth: u32) -> bool {
            <Self as ::quarry::Decode<#de>>::may_accept_with_options(__kind, __depth, ::quarry::decode::DecodeOptions::STRICT)
        }

        #[inline]
        fn may_accept_with_options(__kind: ::quarry::pull::ValueKind, __depth: u32, __options: ::quarry::decode::DecodeOptions) -> bool {
            let _ = (__kind, __depth, __options);
            #body
        }
    }
}

/// The direct path for an untagged enum: the value's kind is peeked, and the first
/// variant that may accept it (`Decode::may_accept`) is read. Every variant before it
/// fails on the RawValue path too, so a variant read here is the one that path picks;
/// when the read falls back, so does the whole decode.
fn untagged_decode_direct(
    c: &Container,
    variants: &[Variant],
    nested: &TokenStream,
    de: &Lifetime,
) -> TokenStream {
    let attempts = variants.iter().map(|v| {
        let accepts = variant_may_accept(v, de);
        let read = variant_direct(v, c.deny_unknown_fields, de);
        quote!(if #accepts { return #read; })
    });
    quote! {
        #[inline]
        fn decode_direct<__S: ::quarry::pull::PullSource<#de> + ?Sized>(__source: &mut __S) -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> {
            #nested
            let __kind = __source.peek_token()?;
            let __text = !<__S as ::quarry::pull::PullSource<#de>>::TYPED_STRINGS
                && __kind == ::quarry::pull::ValueKind::String;
            let _ = __text;
            #(#attempts)*
            ::quarry::__private::Err(::quarry::pull::Fallback)
        }
    }
}

/// Reading variant `v`'s content from `__source`: an expression of type
/// `Result<Self, Fallback>` that may also return a fallback from the enclosing
/// `decode_direct`. A unit variant's content is null (as on the RawValue path); tuple
/// variants and flattened fields fall back.
fn variant_direct(v: &Variant, deny_unknown: bool, de: &Lifetime) -> TokenStream {
    let ident = &v.ident;
    match v.style {
        Style::Unit => quote! {{
            __source.read_null()?;
            ::quarry::__private::Ok(Self::#ident)
        }},
        Style::Tuple if v.fields.len() == 1 => {
            let ty = &v.fields[0].ty;
            let checks = v.fields[0].constraints.iter().map(constraint_check);
            quote! {{
                let __x = <#ty as ::quarry::Decode<#de>>::decode_direct(__source)?;
                #( if #checks.is_err() { return ::quarry::__private::Err(::quarry::pull::Fallback); } )*
                ::quarry::__private::Ok(Self::#ident(__x))
            }}
        }
        Style::Named if !v.fields.iter().any(|f| f.flatten) => {
            let body = named_direct_body(&v.fields, &quote!(Self::#ident), deny_unknown, None, de);
            quote! {
                (|| -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> { #body })()
            }
        }
        Style::Tuple | Style::Named => quote!(::quarry::__private::Err(::quarry::pull::Fallback)),
    }
}

/// The start of a tagged enum's direct path: `{`, the tag as the first key, and its value
/// as the index of the variant it names in `__variant`; anything else falls back.
fn tag_first(tag: &str, variants: &[Variant]) -> TokenStream {
    let index_arms = variants.iter().enumerate().map(|(i, v)| {
        let pattern = name_patterns(v);
        quote!(#pattern => #i,)
    });
    quote! {
        __source.begin_object()?;
        match __source.next_key(true)? {
            ::quarry::__private::Some(__key) if &*__key == #tag => {}
            _ => return ::quarry::__private::Err(::quarry::pull::Fallback),
        }
        let __variant: usize = match &*__source.read_str()? {
            #(#index_arms)*
            _ => return ::quarry::__private::Err(::quarry::pull::Fallback),
        };
    }
}

/// The direct path for an internally tagged enum whose tag is the object's first key (as
/// a writer puts it; elsewhere it falls back): a unit variant passes over the other keys,
/// as on the RawValue path, and a struct variant reads them as its fields; the tag coming
/// again falls back. A newtype variant's content is the rest of the object, which no
/// `Decode` can read from the middle of one: it falls back.
fn internal_decode_direct(
    c: &Container,
    tag: &str,
    variants: &[Variant],
    nested: &TokenStream,
    de: &Lifetime,
) -> TokenStream {
    let prologue = tag_first(tag, variants);
    let reads = variants.iter().enumerate().map(|(i, v)| {
        let ident = &v.ident;
        let read = match v.style {
            Style::Unit => quote! {{
                while let ::quarry::__private::Some(__key) = __source.next_key(false)? {
                    if &*__key == #tag {
                        return ::quarry::__private::Err(::quarry::pull::Fallback);
                    }
                    __source.skip_value()?;
                }
                ::quarry::__private::Ok(Self::#ident)
            }},
            Style::Named if !v.fields.iter().any(|f| f.flatten) => {
                let body = named_direct_body(
                    &v.fields,
                    &quote!(Self::#ident),
                    c.deny_unknown_fields,
                    Some(tag),
                    de,
                );
                quote! {
                    (|| -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> { #body })()
                }
            }
            Style::Tuple | Style::Named => {
                quote!(::quarry::__private::Err(::quarry::pull::Fallback))
            }
        };
        quote!(#i => #read,)
    });
    quote! {
        fn decode_direct<__S: ::quarry::pull::PullSource<#de> + ?Sized>(__source: &mut __S) -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> {
            #nested
            #prologue
            match __variant {
                #(#reads)*
                _ => ::quarry::__private::Err(::quarry::pull::Fallback),
            }
        }
    }
}

/// The direct path for an adjacently tagged enum whose tag is the object's first key: the
/// content is read where its key comes, and other keys are passed over, as on the RawValue
/// path. A repeated tag or content (the RawValue path keeps the last) falls back.
fn adjacent_decode_direct(
    c: &Container,
    tag: &str,
    content: &str,
    variants: &[Variant],
    de: &Lifetime,
) -> TokenStream {
    let prologue = tag_first(tag, variants);
    let reads = variants.iter().enumerate().map(|(i, v)| {
        let read = variant_direct(v, c.deny_unknown_fields, de);
        quote!(#i => #read?,)
    });
    let units = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.style == Style::Unit)
        .map(|(i, v)| {
            let ident = &v.ident;
            quote!(#i => ::quarry::__private::Some(Self::#ident),)
        });
    quote! {
        fn decode_direct<__S: ::quarry::pull::PullSource<#de> + ?Sized>(__source: &mut __S) -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> {
            #prologue
            // A unit variant is built from its name; its content, if any, is passed over.
            let mut __value: ::quarry::__private::Option<Self> = match __variant {
                #(#units)*
                _ => ::quarry::__private::None,
            };
            let __unit = __value.is_some();
            loop {
                let __is_content = match __source.next_key(false)? {
                    ::quarry::__private::None => break,
                    ::quarry::__private::Some(__key) if &*__key == #tag => {
                        return ::quarry::__private::Err(::quarry::pull::Fallback)
                    }
                    ::quarry::__private::Some(__key) => &*__key == #content,
                };
                if !__is_content || __unit {
                    __source.skip_value()?;
                } else if __value.is_some() {
                    return ::quarry::__private::Err(::quarry::pull::Fallback);
                } else {
                    __value = ::quarry::__private::Some(match __variant {
                        #(#reads)*
                        _ => return ::quarry::__private::Err(::quarry::pull::Fallback),
                    });
                }
            }
            __value.ok_or(::quarry::pull::Fallback)
        }
    }
}

/// The direct path for an externally tagged enum: a unit variant's name, or (when the
/// enum has other variants) a map of one entry from a variant's name to its content.
fn external_decode_direct(c: &Container, variants: &[Variant], de: &Lifetime) -> TokenStream {
    let unit_arms = variants.iter().filter(|v| v.style == Style::Unit).map(|v| {
        let ident = &v.ident;
        let pattern = name_patterns(v);
        quote!(#pattern => ::quarry::__private::Ok(Self::#ident),)
    });
    let by_name = quote! {
        match &*__source.read_str()? {
            #(#unit_arms)*
            _ => ::quarry::__private::Err(::quarry::pull::Fallback),
        }
    };
    if variants.iter().all(|v| v.style == Style::Unit) {
        return quote! {
            #[inline]
            fn decode_direct<__S: ::quarry::pull::PullSource<#de> + ?Sized>(__source: &mut __S) -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> {
                #by_name
            }
        };
    }
    let index_arms = variants.iter().enumerate().map(|(i, v)| {
        let pattern = name_patterns(v);
        quote!(#pattern => #i,)
    });
    let reads = variants.iter().enumerate().map(|(i, v)| {
        let read = variant_direct(v, c.deny_unknown_fields, de);
        quote!(#i => #read?,)
    });
    quote! {
        fn decode_direct<__S: ::quarry::pull::PullSource<#de> + ?Sized>(__source: &mut __S) -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> {
            if __source.peek_token()? != ::quarry::pull::ValueKind::Object {
                return #by_name;
            }
            __source.begin_object()?;
            let __variant: usize = match __source.next_key(true)? {
                ::quarry::__private::Some(__name) => match &*__name {
                    #(#index_arms)*
                    _ => return ::quarry::__private::Err(::quarry::pull::Fallback),
                },
                ::quarry::__private::None => return ::quarry::__private::Err(::quarry::pull::Fallback),
            };
            let __value: Self = match __variant {
                #(#reads)*
                _ => return ::quarry::__private::Err(::quarry::pull::Fallback),
            };
            // One entry only, as on the RawValue path.
            if __source.next_key(false)?.is_some() {
                return ::quarry::__private::Err(::quarry::pull::Fallback);
            }
            ::quarry::__private::Ok(__value)
        }
    }
}

/// Whether `ty` is one of std's scalars or strings, or a std container of them: decoding
/// it never reaches a derived type, and so never comes back to the type being derived.
fn is_leaf(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Paren(inner) => is_leaf(&inner.elem),
        syn::Type::Group(inner) => is_leaf(&inner.elem),
        syn::Type::Reference(inner) => is_leaf(&inner.elem),
        syn::Type::Array(inner) => is_leaf(&inner.elem),
        syn::Type::Tuple(inner) => inner.elems.iter().all(is_leaf),
        syn::Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return false;
            };
            let name = last.ident.to_string();
            let scalar = matches!(
                name.as_str(),
                "bool"
                    | "char"
                    | "str"
                    | "String"
                    | "PathBuf"
                    | "f32"
                    | "f64"
                    | "u8"
                    | "u16"
                    | "u32"
                    | "u64"
                    | "u128"
                    | "usize"
                    | "i8"
                    | "i16"
                    | "i32"
                    | "i64"
                    | "i128"
                    | "isize"
            );
            let container = matches!(
                name.as_str(),
                "Option"
                    | "Box"
                    | "Rc"
                    | "Arc"
                    | "Cow"
                    | "Vec"
                    | "VecDeque"
                    | "BTreeMap"
                    | "HashMap"
                    | "BTreeSet"
                    | "HashSet"
            );
            match &last.arguments {
                syn::PathArguments::None => scalar,
                syn::PathArguments::AngleBracketed(args) if container => {
                    args.args.iter().all(|arg| match arg {
                        syn::GenericArgument::Type(ty) => is_leaf(ty),
                        syn::GenericArgument::Lifetime(_) => true,
                        _ => false,
                    })
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether the type's `decode` hands the value it was given (not a part of it) to a type
/// that may lead back to its own: a newtype's field, an untagged or internally tagged
/// enum's newtype variant, a flattened field (each unless a leaf, see `is_leaf`).
fn decodes_again(c: &Container) -> bool {
    let newtype_variant =
        |v: &Variant| v.style == Style::Tuple && v.fields.len() == 1 && !is_leaf(&v.fields[0].ty);
    match &c.data {
        Data::Struct(Style::Named, fields) => fields.iter().any(|f| f.flatten && !is_leaf(&f.ty)),
        Data::Struct(Style::Tuple, fields) => {
            fields.len() == 1 && !fields[0].skip && !is_leaf(&fields[0].ty)
        }
        Data::Struct(Style::Unit, _) => false,
        Data::Enum(variants) => {
            matches!(c.tagging, Tagging::Untagged | Tagging::Internal(_))
                && variants.iter().any(newtype_variant)
        }
    }
}

pub fn expand(c: &Container) -> TokenStream {
    let ident = &c.ident;
    let (generics, de) = impl_generics(c);
    // A decoder that decodes the value it was given again, as a type that may lead back
    // to it, counts itself against the recursion limit (see `Nested`), on both paths
    // alike: a type holding itself on such a path would otherwise recurse on one value
    // until the stack overflowed.
    let (nested, nested_direct) = if decodes_again(c) {
        (
            quote!(let __nested = ::quarry::pull::Nested::enter()?;),
            quote!(let __nested = ::quarry::pull::Nested::enter_direct()?;),
        )
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = c.generics.split_for_impl();
    let type_name = ident.to_string();
    let (body, direct) = match &c.data {
        Data::Struct(Style::Named, fields) => {
            let body = named_from_entries(fields, &quote!(Self), c.deny_unknown_fields, &de);
            let expected = format!("map (struct {type_name})");
            let decode = quote! {
                let __entries = match __value {
                    ::quarry::RawValue::Map(__entries) => __entries,
                    __other => return ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type(#expected, &__other)),
                };
                #body
            };
            let direct = (!fields.iter().any(|f| f.flatten))
                .then(|| named_decode_direct(fields, c.deny_unknown_fields, &de));
            (decode, direct)
        }
        Data::Struct(Style::Tuple, fields) if fields.len() == 1 && !fields[0].skip => {
            let ty = &fields[0].ty;
            let checks: Vec<TokenStream> =
                fields[0].constraints.iter().map(constraint_check).collect();
            let decode = newtype_from_value(&fields[0], &quote!(Self), quote!(__value), &de);
            let direct = quote! {
                #[inline]
                fn decode_direct<__S: ::quarry::pull::PullSource<#de> + ?Sized>(__source: &mut __S) -> ::quarry::__private::Result<Self, ::quarry::pull::Fallback> {
                    #nested_direct
                    let __x = <#ty as ::quarry::Decode<#de>>::decode_direct(__source)?;
                    #( if #checks.is_err() { return ::quarry::__private::Err(::quarry::pull::Fallback); } )*
                    ::quarry::__private::Ok(Self(__x))
                }
            };
            (decode, Some(direct))
        }
        Data::Struct(Style::Tuple, fields) => {
            let kept = fields.iter().filter(|f| !f.skip).count();
            (
                tuple_from_value(fields, &quote!(Self), &format!("sequence of {kept}"), &de),
                None,
            )
        }
        Data::Struct(Style::Unit, _) => (
            quote! {
                match __value {
                    ::quarry::RawValue::Null => ::quarry::__private::Ok(Self),
                    __other => ::quarry::__private::Err(::quarry::DecodeErrors::invalid_type("null", &__other)),
                }
            },
            None,
        ),
        Data::Enum(variants) => {
            let body = enum_decode(c, variants, &de);
            let direct = match &c.tagging {
                Tagging::External => Some(external_decode_direct(c, variants, &de)),
                Tagging::Untagged => Some(untagged_decode_direct(c, variants, &nested_direct, &de)),
                Tagging::Internal(tag) => Some(internal_decode_direct(
                    c,
                    tag,
                    variants,
                    &nested_direct,
                    &de,
                )),
                Tagging::Adjacent(tag, content) => {
                    Some(adjacent_decode_direct(c, tag, content, variants, &de))
                }
            };
            (body, direct)
        }
    };
    let shape = crate::shape::shape_fn(c, &de);
    let may_accept = may_accept_fn(c, &de);
    quote! {
        #[automatically_derived]
        impl #impl_generics ::quarry::Decode<#de> for #ident #ty_generics #where_clause {
            fn decode(__value: ::quarry::RawValue<#de>) -> ::quarry::__private::Result<Self, ::quarry::DecodeErrors> {
                <Self as ::quarry::Decode<#de>>::decode_with_options(__value, ::quarry::decode::DecodeOptions::STRICT)
            }
            fn decode_with_options(__value: ::quarry::RawValue<#de>, __options: ::quarry::decode::DecodeOptions) -> ::quarry::__private::Result<Self, ::quarry::DecodeErrors> {
                let _ = __options;
                #nested
                #body
            }
            #direct
            #shape
            #may_accept
        }
    }
}
