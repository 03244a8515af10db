//! The facade's root surface is a checked-in listing: adding, removing or moving a public
//! name at `quarry::` fails here until `tests/public-api.txt` says so, so the surface
//! changes only on purpose (and the CHANGELOG with it).

use std::path::Path;

/// Every public name `quarry::NAME` the root declares or re-exports, with its kind, one
/// per line, sorted.
fn root_surface() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let file = syn::parse_file(&text).expect("src/lib.rs parses");
    let mut names = Vec::new();
    for item in &file.items {
        let public = |vis: &syn::Visibility| matches!(vis, syn::Visibility::Public(_));
        let hidden = |attrs: &[syn::Attribute]| {
            attrs.iter().any(|a| {
                a.path().is_ident("doc")
                    && a.meta
                        .require_list()
                        .is_ok_and(|l| l.tokens.to_string() == "hidden")
            })
        };
        let (kind, name, attrs) = match item {
            syn::Item::Use(u) if public(&u.vis) => {
                if hidden(&u.attrs) {
                    continue;
                }
                let mut leaves = Vec::new();
                use_names(&u.tree, &mut leaves);
                for leaf in leaves {
                    names.push(format!("use {leaf}"));
                }
                continue;
            }
            syn::Item::Mod(m) if public(&m.vis) => ("mod", m.ident.to_string(), &m.attrs),
            syn::Item::Fn(f) if public(&f.vis) => ("fn", f.sig.ident.to_string(), &f.attrs),
            syn::Item::Struct(s) if public(&s.vis) => ("struct", s.ident.to_string(), &s.attrs),
            syn::Item::Enum(e) if public(&e.vis) => ("enum", e.ident.to_string(), &e.attrs),
            syn::Item::Trait(t) if public(&t.vis) => ("trait", t.ident.to_string(), &t.attrs),
            syn::Item::Type(t) if public(&t.vis) => ("type", t.ident.to_string(), &t.attrs),
            syn::Item::Const(c) if public(&c.vis) => ("const", c.ident.to_string(), &c.attrs),
            syn::Item::Macro(m) if m.ident.is_some() => {
                ("macro", m.ident.as_ref().unwrap().to_string(), &m.attrs)
            }
            _ => continue,
        };
        if !hidden(attrs) {
            names.push(format!("{kind} {name}"));
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The names a `use` tree makes public (`a::{b, c as d}` gives `b` and `d`).
fn use_names(tree: &syn::UseTree, out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => use_names(&p.tree, out),
        syn::UseTree::Name(n) if n.ident != "self" => out.push(n.ident.to_string()),
        syn::UseTree::Name(_) => {}
        syn::UseTree::Rename(r) => out.push(r.rename.to_string()),
        syn::UseTree::Glob(_) => out.push("*".into()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
    }
}

#[test]
fn the_root_surface_is_the_listed_one() {
    let listing = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/public-api.txt");
    let expected = std::fs::read_to_string(&listing).unwrap_or_default();
    let actual = root_surface().join("\n") + "\n";
    assert!(
        expected == actual,
        "quarry's root surface changed; if on purpose, write this to tests/public-api.txt \
         and say so in CHANGELOG.md:\n{actual}"
    );
}

#[test]
fn the_root_reexports_at_most_thirty_names() {
    let reexports = root_surface()
        .iter()
        .filter(|n| n.starts_with("use "))
        .count();
    assert!(reexports <= 30, "{reexports} names re-exported at the root");
}

/// The table of each format module's functions is the same in the facade's crate docs and
/// in quarry-formats'; `cargo doc` with `-D warnings` checks that every function a cell
/// links to exists.
#[test]
fn the_function_table_is_the_same_in_both_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = |file: &str| -> Vec<String> {
        std::fs::read_to_string(root.join(file))
            .unwrap()
            .lines()
            .filter(|line| line.starts_with("//! |"))
            .map(str::to_owned)
            .collect()
    };
    let facade = table("src/lib.rs");
    assert!(facade.len() > 10, "the facade's docs hold the table");
    assert_eq!(facade, table("formats/src/lib.rs"));
}
