//! JSONC through the facade: `Format::Jsonc` by name and by well-known file, derived
//! structs through the direct path and the RawValue path with placed errors, and the
//! dialect checked against strict JSON on random documents.

use std::borrow::Cow;
use std::collections::BTreeMap;

use proptest::prelude::*;
use quarry::{json, Decode, Error, Format, RawValue, Tree};

#[derive(Decode, Debug, PartialEq)]
#[quarry(rename_all = "camelCase")]
struct DevContainer<'a> {
    name: String,
    image: &'a str,
    forward_ports: Vec<u16>,
    #[quarry(default)]
    remote_env: BTreeMap<String, String>,
}

const DEV_CONTAINER: &str = r#"// For format details, see https://aka.ms/devcontainer.json.
{
    "name": "Rust", // shown in the status bar
    /* The image: prebuilt,
       with the toolchain. */
    "image": "mcr.microsoft.com/devcontainers/rust:1",
    "forwardPorts": [
        3000,
        8080, // the API
    ],
    "customizations": {"vscode": {"extensions": ["rust-lang.rust-analyzer",],},},
    "remoteEnv": {"RUST_LOG": "debug",},
}
"#;

fn dev_container() -> DevContainer<'static> {
    DevContainer {
        name: "Rust".into(),
        image: "mcr.microsoft.com/devcontainers/rust:1",
        forward_ports: vec![3000, 8080],
        remote_env: [("RUST_LOG".to_owned(), "debug".to_owned())].into(),
    }
}

#[test]
fn a_derived_struct_reads_jsonc_through_the_direct_path() {
    let bytes = DEV_CONTAINER.as_bytes();
    // The direct path alone reads the whole document (no fallback).
    let mut source = json::DirectSource::jsonc(bytes, quarry::Limits::default()).unwrap();
    let direct = DevContainer::decode_direct(&mut source).expect("no fallback");
    quarry::pull::PullSource::finish(&mut source).expect("the document ends there");
    assert_eq!(direct, dev_container());
    // The facade.
    let config: DevContainer = quarry::from_slice(bytes, Format::Jsonc).unwrap();
    assert_eq!(config, dev_container());
    // The RawValue path agrees.
    let raw = quarry::parse_raw(bytes, Format::Jsonc).unwrap();
    assert_eq!(DevContainer::decode(raw).unwrap(), dev_container());
    assert!(quarry::check(bytes, Format::Jsonc).is_ok());
}

#[test]
fn strict_json_still_refuses_comments_and_trailing_commas() {
    let bytes = DEV_CONTAINER.as_bytes();
    let err = quarry::from_slice::<DevContainer>(bytes, Format::Json).unwrap_err();
    let Error::Parse(quarry::ParseError::Json(e)) = &err else {
        panic!("{err}")
    };
    assert_eq!((e.position().line, e.position().column), (1, 1));
    assert!(quarry::check(bytes, Format::Json).is_err());
    assert!(quarry::parse_raw(b"[1,]", Format::Json).is_err());
    assert!(quarry::parse_raw(b"{\"a\": 1,}", Format::Json).is_err());
    assert!(quarry::parse_raw(b"[1 /* c */]", Format::Json).is_err());
    assert!(quarry::parse_raw(b"[1] // c", Format::Json).is_err());
    assert!(quarry::parse_raw(b"[1,]", Format::Jsonc).is_ok());
}

#[test]
fn decode_errors_in_jsonc_are_placed() {
    let src = "// ports\n{\n  \"name\": \"x\", \"image\": \"i\",\n  \"forwardPorts\": [3000, /* too big: */ 70000,],\n  /* no */ \"remoteEnv\": /* a map */ [],\n}";
    let err = quarry::from_str::<DevContainer>(src, Format::Jsonc).unwrap_err();
    let Error::Decode(errors) = &err else {
        panic!("{err}")
    };
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "forwardPorts[1]: expected integer in 0..=65535, found 70000 at line 4, column 41",
            "remoteEnv: expected map, found sequence of 0 at line 5, column 37",
        ]
    );
    // A missing field points at the map that lacks it, past the comment before it.
    let err =
        quarry::from_str::<DevContainer>("/* c */ {\"name\": \"x\",}", Format::Jsonc).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing field `image` at line 1, column 9\n\
         missing field `forwardPorts` at line 1, column 9"
    );
    // Parse errors are JSON's, placed.
    let err =
        quarry::from_str::<DevContainer>("{\n  \"name\": /* open", Format::Jsonc).unwrap_err();
    let Error::Parse(quarry::ParseError::Json(e)) = &err else {
        panic!("{err}")
    };
    assert_eq!(e.kind(), &json::ErrorKind::UnterminatedComment);
    assert_eq!(
        err.to_string(),
        "unterminated block comment at line 2, column 11"
    );
}

#[test]
fn the_format_is_named_and_found_by_file() {
    assert_eq!(Format::Jsonc.name(), "jsonc");
    assert_eq!("jsonc".parse::<Format>(), Ok(Format::Jsonc));
    assert!("ini"
        .parse::<Format>()
        .unwrap_err()
        .contains("json, jsonc, yaml"));
    assert!(Format::ALL.contains(&Format::Jsonc));
    assert!(Format::Jsonc.is_supported());
    for jsonc in [
        "settings.jsonc",
        "a/b/X.JSONC",
        "tsconfig.json",
        "web/tsconfig.json",
        "jsconfig.json",
        ".devcontainer/devcontainer.json",
        ".devcontainer.json",
        ".vscode/settings.json",
        "project/.vscode/launch.json",
        "project/.vscode/extensions.JSON",
    ] {
        assert_eq!(Format::from_path(jsonc), Some(Format::Jsonc), "{jsonc}");
    }
    for json in [
        "package.json",
        "tsconfig.json/data.json",
        ".vscode/sub/settings.json",
        "vscode/settings.json",
        "settings.json",
        "TSCONFIG.JSON",
    ] {
        assert_eq!(Format::from_path(json), Some(Format::Json), "{json}");
    }
    assert_eq!(Format::from_path(".vscode/notes.md"), None);
    assert_eq!(Format::from_path(".vscode/a.yaml"), Some(Format::Yaml));
}

#[test]
fn from_path_reads_a_vscode_settings_file() {
    let dir = std::env::temp_dir()
        .join(format!("quarry-jsonc-{}", std::process::id()))
        .join(".vscode");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("settings.json");
    std::fs::write(
        &path,
        "{\n  // the ruler\n  \"editor.rulers\": [100,],\n}\n",
    )
    .unwrap();
    let settings: BTreeMap<String, Vec<u32>> = quarry::from_path(&path).unwrap();
    assert_eq!(settings["editor.rulers"], [100]);
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn jsonc_is_written_as_json() {
    let value = RawValue::Map(vec![("a".into(), RawValue::Seq(vec![RawValue::Int(1)]))]);
    let written = quarry::to_vec(&value, Format::Jsonc).unwrap();
    assert_eq!(written, quarry::to_vec(&value, Format::Json).unwrap());
    assert_eq!(quarry::parse_raw(&written, Format::Json).unwrap(), value);
}

#[test]
fn the_tree_door_keeps_the_comments() {
    let doc = json::parse_tree_jsonc(DEV_CONTAINER.as_bytes()).unwrap();
    let texts: Vec<&str> = Tree::comments(&doc).map(|c| c.text).collect();
    assert_eq!(
        texts,
        [
            " For format details, see https://aka.ms/devcontainer.json.",
            " shown in the status bar",
            " The image: prebuilt,\n       with the toolchain. ",
            " the API",
        ]
    );
    assert_eq!(
        doc.to_raw_value(),
        json::parse_jsonc(DEV_CONTAINER.as_bytes()).unwrap()
    );
}

/// Random values, any shape the JSON writer can write.
fn raw_value() -> impl Strategy<Value = RawValue<'static>> {
    let leaf = prop_oneof![
        Just(RawValue::Null),
        any::<bool>().prop_map(RawValue::Bool),
        any::<i64>().prop_map(RawValue::Int),
        any::<u64>().prop_map(RawValue::UInt),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(RawValue::Float),
        "[0-9]{20,30}".prop_map(|s| RawValue::BigNumber(Cow::Owned(format!("9{s}")))),
        any::<String>().prop_map(|s| RawValue::String(Cow::Owned(s))),
        "[ -~]{0,12}".prop_map(|s| RawValue::String(Cow::Owned(s))),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(RawValue::Seq),
            prop::collection::vec((any::<String>().prop_map(Cow::Owned), inner), 0..8)
                .prop_map(RawValue::Map),
        ]
    })
}

/// What may stand between two tokens in JSONC: whitespace and comments of any text.
fn filler() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just(String::new()),
        Just(" ".to_owned()),
        Just("\n\t".to_owned()),
        Just("\r\n".to_owned()),
        "[^\n\r]{0,10}".prop_map(|t| format!("//{t}\n")),
        "[^\n\r]{0,10}".prop_map(|t| format!("//{t}\r")),
        "[ -~\n\u{e9}\u{1f600}]{0,10}"
            .prop_filter("no */ inside", |t| !t.contains("*/"))
            .prop_map(|t| format!("/*{t}*/")),
    ];
    prop::collection::vec(piece, 0..3).prop_map(|pieces| pieces.concat())
}

/// The tokens of compact JSON (as quarry's writer makes it: no whitespace).
fn tokens(compact: &str) -> Vec<&str> {
    let bytes = compact.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        match bytes[i] {
            b'[' | b']' | b'{' | b'}' | b',' | b':' => i += 1,
            b'"' => {
                i += 1;
                while bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => {
                while i < bytes.len() && !b"[]{},:".contains(&bytes[i]) {
                    i += 1;
                }
            }
        }
        tokens.push(&compact[start..i]);
    }
    tokens
}

/// `compact` with `fillers[k % len]` before token `k` (and after the last), and, where
/// `commas` says so, a trailing comma after the last item of a non-empty container.
fn decorate(compact: &str, fillers: &[String], commas: &[bool]) -> String {
    let tokens = tokens(compact);
    let mut out = String::new();
    let mut previous = "";
    for (k, token) in tokens.iter().enumerate() {
        let closes_items = matches!(*token, "]" | "}") && !matches!(previous, "[" | "{");
        if closes_items && commas[k % commas.len()] {
            out.push(',');
            out.push_str(&fillers[(k + 1) % fillers.len()]);
        }
        out.push_str(&fillers[k % fillers.len()]);
        out.push_str(token);
        previous = token;
    }
    out.push_str(&fillers[tokens.len() % fillers.len()]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// On JSON, JSONC is JSON: every door gives exactly what strict JSON gives.
    #[test]
    fn jsonc_reads_json_as_json(value in raw_value()) {
        for text in [json::to_vec(&value).unwrap(), json::to_vec_pretty(&value).unwrap()] {
            let strict = json::parse(&text).unwrap();
            prop_assert_eq!(&json::parse_jsonc(&text).unwrap(), &strict);
            let tree = json::parse_tree_jsonc(&text).unwrap();
            prop_assert_eq!(&tree.to_raw_value(), &strict);
            prop_assert_eq!(tree.comments().count(), 0);
            prop_assert!(json::check_jsonc(&text).is_ok());
            prop_assert_eq!(
                &quarry::parse_raw(&text, Format::Jsonc).unwrap(),
                &quarry::parse_raw(&text, Format::Json).unwrap()
            );
        }
    }

    /// Comments, whitespace and trailing commas between the tokens change nothing.
    #[test]
    fn comments_and_trailing_commas_change_nothing(
        value in raw_value(),
        fillers in prop::collection::vec(filler(), 1..16),
        commas in prop::collection::vec(any::<bool>(), 1..8),
    ) {
        let compact = String::from_utf8(json::to_vec(&value).unwrap()).unwrap();
        let expected = json::parse(compact.as_bytes()).unwrap();
        let decorated = decorate(&compact, &fillers, &commas);
        let ours = json::parse_jsonc(decorated.as_bytes());
        prop_assert_eq!(ours.as_ref().ok(), Some(&expected), "{:?}: {:?}", decorated, ours.as_ref().err());
        let tree = json::parse_tree_jsonc(decorated.as_bytes()).unwrap();
        prop_assert_eq!(&tree.to_raw_value(), &expected);
        // Every comment the tree keeps is a comment as written.
        for comment in tree.comments() {
            let written = comment.span.slice(&decorated);
            prop_assert!(written.starts_with("//") || written.starts_with("/*"));
            prop_assert!(written.contains(comment.text));
        }
        prop_assert!(json::check_jsonc(decorated.as_bytes()).is_ok());
        let facade: RawValue = quarry::from_slice(decorated.as_bytes(), Format::Jsonc).unwrap();
        prop_assert_eq!(&facade, &expected);
        // What strict JSON makes of the same bytes: the same value when nothing was added.
        if let Ok(strict) = json::parse(decorated.as_bytes()) {
            prop_assert_eq!(&strict, &expected);
        }
    }
}
