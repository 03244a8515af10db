//! `quarry::edit` on the shapes real files have: compact mappings in sequence items (CI
//! workflows, compose files, manifests), one-key files, dotted inline tables, BOMs.

use quarry::edit::Document;
use quarry::Format;

fn edited(text: &str, format: Format, edit: impl FnOnce(&mut Document)) -> String {
    let mut doc = Document::parse(text.as_bytes(), format).unwrap();
    edit(&mut doc);
    doc.to_string()
}

const WORKFLOW: &str = "\
name: ci
jobs:
  test:
    steps:
      - uses: actions/checkout@v4
      - name: Build          # the build
        run: cargo build
        env:
          RUST_LOG: debug
";

#[test]
fn yaml_first_key_of_a_compact_mapping_is_deleted() {
    let out = edited(WORKFLOW, Format::Yaml, |d| {
        d.remove("jobs.test.steps[1].name").unwrap()
    });
    assert_eq!(
        out,
        WORKFLOW.replace(
            "      - name: Build          # the build\n        run:",
            "      - run:"
        )
    );
    // And when it is the only key of its item.
    let out = edited(WORKFLOW, Format::Yaml, |d| {
        d.remove("jobs.test.steps[0].uses").unwrap()
    });
    assert_eq!(out, WORKFLOW.replace("- uses: actions/checkout@v4", "- {}"));
}

#[test]
fn yaml_first_key_of_a_compact_mapping_is_set_and_inserted_beside() {
    let out = edited(WORKFLOW, Format::Yaml, |d| {
        d.set("jobs.test.steps[1].name", "Compile").unwrap()
    });
    assert_eq!(out, WORKFLOW.replace("name: Build", "name: Compile"));
    let out = edited(WORKFLOW, Format::Yaml, |d| {
        d.insert("jobs.test.steps[0].with", "x").unwrap()
    });
    assert_eq!(
        out,
        WORKFLOW.replace(
            "- uses: actions/checkout@v4\n",
            "- uses: actions/checkout@v4\n        with: x\n"
        )
    );
    // Deeper: a compact mapping in an item of an item.
    let text = "- - a: 1\n    b: 2\n  - c: 3\n";
    let out = edited(text, Format::Yaml, |d| d.remove("[0][0].a").unwrap());
    assert_eq!(out, "- - b: 2\n  - c: 3\n");
    let out = edited(text, Format::Yaml, |d| d.set("[0][0].a", 5).unwrap());
    assert_eq!(out, "- - a: 5\n    b: 2\n  - c: 3\n");
}

#[test]
fn yaml_one_key_files_become_empty_maps() {
    let funding = "# funding\ngithub: [me]\n";
    let out = edited(funding, Format::Yaml, |d| d.remove("github").unwrap());
    assert_eq!(out, "# funding\n{}\n");
    let codecov = "comment: false\n";
    assert_eq!(
        edited(codecov, Format::Yaml, |d| d.remove("comment").unwrap()),
        "{}\n"
    );
    let nested = "a:\n  b: 1  # one\nc: 2\n";
    assert_eq!(
        edited(nested, Format::Yaml, |d| d.remove("a.b").unwrap()),
        "a: {}\nc: 2\n"
    );
    let items = "a:\n  - 1\nc: 2\n";
    assert_eq!(
        edited(items, Format::Yaml, |d| d.remove("a[0]").unwrap()),
        "a: []\nc: 2\n"
    );
    let flow = "a: {b: 1}\nc: [1]\n";
    assert_eq!(
        edited(flow, Format::Yaml, |d| {
            d.remove("a.b").unwrap();
            d.remove("c[0]").unwrap();
        }),
        "a: {}\nc: []\n"
    );
}

#[test]
fn yaml_inserts_into_empty_flow_collections() {
    let text = "a: {}\nb: []\n";
    let out = edited(text, Format::Yaml, |d| {
        d.insert("a.x", 1).unwrap();
        d.push("b", "y").unwrap();
    });
    assert_eq!(out, "a: {x: 1}\nb: [\"y\"]\n");
}

#[test]
fn toml_keys_of_dotted_inline_tables_are_removed() {
    let text = "many.dots.here.dot.dot.dot = {a.b.c = 1, a.b.d = 2}\n";
    let out = edited(text, Format::Toml, |d| {
        d.remove("many.dots.here.dot.dot.dot.a.b.c").unwrap()
    });
    assert_eq!(out, "many.dots.here.dot.dot.dot = {a.b.d = 2}\n");
    let out = edited(text, Format::Toml, |d| {
        d.remove("many.dots.here.dot.dot.dot.a.b.d").unwrap()
    });
    assert_eq!(out, "many.dots.here.dot.dot.dot = {a.b.c = 1}\n");
    let out = edited(text, Format::Toml, |d| {
        d.remove("many.dots.here.dot.dot.dot.a").unwrap()
    });
    assert_eq!(out, "many.dots.here.dot.dot.dot = {}\n");
}

#[test]
fn toml_bom_is_kept() {
    let text = "\u{feff}a = 1\nb = 2\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("a").unwrap()),
        "\u{feff}b = 2\n"
    );
}

#[test]
fn toml_maps_of_tables_or_many_keys_become_sections() {
    let text = "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n";
    let out = edited(text, Format::Toml, |d| {
        d.set(
            "dependencies.tokio",
            quarry::RawValue::Map(vec![
                ("version".into(), quarry::RawValue::String("1".into())),
                (
                    "features".into(),
                    quarry::RawValue::Seq(vec![quarry::RawValue::String("full".into())]),
                ),
                ("optional".into(), quarry::RawValue::Bool(true)),
                ("default-features".into(), quarry::RawValue::Bool(false)),
            ]),
        )
        .unwrap()
    });
    assert_eq!(
        out,
        "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n\n[dependencies.tokio]\nversion = \"1\"\nfeatures = [\"full\"]\noptional = true\ndefault-features = false\n"
    );
    // Small flat maps stay inline.
    let out = edited(text, Format::Toml, |d| {
        d.set(
            "dependencies.log",
            quarry::RawValue::Map(vec![(
                "version".into(),
                quarry::RawValue::String("0.4".into()),
            )]),
        )
        .unwrap()
    });
    assert_eq!(
        out,
        text.replace(
            "serde = \"1\"\n",
            "serde = \"1\"\nlog = { version = \"0.4\" }\n"
        )
    );
}

#[test]
fn toml_tables_left_empty_stay() {
    // A dotted table inside an inline table, and one in a section.
    let text = "a = {a.b = 1}\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("a.a.b").unwrap()),
        "a = {a = {}}\n"
    );
    let text = "x = 1\nsite.owner.name = \"me\"\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("site.owner.name").unwrap()),
        "x = 1\nsite.owner = {}\n"
    );
    // A table made on the way to a header (`a.b` in `[a.b.c]`).
    let text = "[a]\nx = 1\n\n[a.b.c]\ny = 2\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("a.b.c").unwrap()),
        "[a]\nx = 1\n\n[a.b]\n"
    );
}

#[test]
fn yaml_anchors_on_keys_are_not_removed_behind_the_users_back() {
    let text = "top:\n  &k key: one\nother: *k\n";
    for path in ["top", "top.key"] {
        let mut doc = Document::parse(text.as_bytes(), Format::Yaml).unwrap();
        assert!(
            matches!(doc.remove(path), Err(quarry::edit::EditError::Anchor { ref anchor, .. }) if anchor == "k"),
            "{path}"
        );
        assert_eq!(doc.to_string(), text);
    }
    // An alias used as a key refers to the anchor as much as any other.
    let keyed = "a: &x 1\n*x : b\n";
    let mut doc = Document::parse(keyed.as_bytes(), Format::Yaml).unwrap();
    let result = doc.remove("a");
    assert!(
        matches!(result, Err(quarry::edit::EditError::Anchor { .. })),
        "{result:?}"
    );
    // Setting the value keeps the key and its anchor.
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("top.key", "two").unwrap()),
        "top:\n  &k key: two\nother: *k\n"
    );
}

#[test]
fn toml_tables_spread_over_headers_and_dotted_keys_are_removed_whole() {
    // A table defined after its sub-table's header.
    let text = "[a.b.c]\nanswer = 42\n\n[a]\nbetter = 43\n";
    assert_eq!(edited(text, Format::Toml, |d| d.remove("a").unwrap()), "");
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("a.b").unwrap()),
        "[a]\nbetter = 43\n"
    );
    // Dotted keys in the parent's section, and a header of its own further down.
    let text = "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\nkind = 1\n\n[fruit.apple.texture]\nsmooth = true\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("fruit.apple").unwrap()),
        "[fruit]\nkind = 1\n\n"
    );
    // A table only headers below it made: its entries must not fall into the section
    // above.
    let text = "plain = 1\n\n[plain_table]\nplain = 3\n\n[table.withdot]\nplain = 5\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("table").unwrap()),
        "plain = 1\n\n[plain_table]\nplain = 3\n\n"
    );
    // Sections of one table far apart.
    let text = "[fruit.apple]\n[animal]\n[fruit.orange]\nx = 1\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("fruit").unwrap()),
        "[animal]\n"
    );
}

#[test]
fn toml_tables_and_arrays_of_tables_left_empty_stay() {
    let text = "[[a]]\nx = 1\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("a[0]").unwrap()),
        "a = []\n"
    );
    let text = "[[fruits]]\nname = \"banana\"\n\n[[fruits.varieties]]\nname = \"plantain\"\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d
            .remove("fruits[0].varieties[0]")
            .unwrap()),
        "[[fruits]]\nname = \"banana\"\nvarieties = []\n\n"
    );
    let text = "[fruit]\napple.color = \"red\"\n\n[[fruit.apple.seeds]]\nsize = 2\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d
            .remove("fruit.apple.seeds[0]")
            .unwrap()),
        "[fruit]\napple.color = \"red\"\napple.seeds = []\n\n"
    );
    // A table made on the way to a header, under a table defined after it.
    let text = "[x.y.z.w]\na = 1\n[x]\nc = 3\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("x.y.z").unwrap()),
        "[x.y]\n[x]\nc = 3\n"
    );
    // Inside an array of tables, the new header names its last table so far.
    let text = "[[a]]\n[a.b.c]\nd = 1\n[[a]]\n";
    assert_eq!(
        edited(text, Format::Toml, |d| d.remove("a[0].b.c").unwrap()),
        "[[a]]\n[a.b]\n[[a]]\n"
    );
}

#[test]
fn yaml_explicit_keys_and_keys_with_properties_are_removed_whole() {
    let text = "? a\n: 1\n? b\nc: 2\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("a").unwrap()),
        "? b\nc: 2\n"
    );
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("b").unwrap()),
        "? a\n: 1\nc: 2\n"
    );
    let text = "m:\n  !!str k: a\n  &n b: c\n  d: e\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("m.k").unwrap()),
        "m:\n  &n b: c\n  d: e\n"
    );
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("m.b").unwrap()),
        "m:\n  !!str k: a\n  d: e\n"
    );
    // An empty value whose node stands on the next line.
    let text = "-\n  ? &d\n- x\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("[0][\"\"]").unwrap()),
        "- {}\n- x\n"
    );
}

#[test]
fn yaml_flow_pairs_and_tagged_flow_collections_keep_their_brackets() {
    let text = "- [a: b, c]\n- [&k d: e]\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("[0][0].a").unwrap()),
        "- [{}, c]\n- [&k d: e]\n"
    );
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("[1][0].d").unwrap()),
        "- [a: b, c]\n- [{}]\n"
    );
    let text = "!!map {\n  k: 1\n}\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("k").unwrap()),
        "!!map {\n  \n}\n"
    );
}

#[test]
fn yaml_block_scalar_lines_are_not_comments_of_the_next_item() {
    let text = "- >\n  text\n  # not a comment\n- b\n- c\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("[1]").unwrap()),
        "- >\n  text\n  # not a comment\n- c\n"
    );
}

#[test]
fn yaml_keys_a_merge_also_gives_are_refused_with_its_anchor() {
    let text = "base: &b\n  x: 1\nm:\n  <<: *b\n  x: 2\n  y: 3\n";
    let mut doc = Document::parse(text.as_bytes(), Format::Yaml).unwrap();
    assert!(
        matches!(doc.remove("m.x"), Err(quarry::edit::EditError::Anchor { ref anchor, .. }) if anchor == "b")
    );
    assert_eq!(doc.to_string(), text);
    doc.remove("m.y").unwrap();
    assert_eq!(doc.to_string(), "base: &b\n  x: 1\nm:\n  <<: *b\n  x: 2\n");
}

#[test]
fn yaml_empty_values_are_set_after_their_indicator() {
    let text = "c:\nd: !!null\ne: &x\nf: 1\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("c", "v").unwrap()),
        "c: v\nd: !!null\ne: &x\nf: 1\n"
    );
    // A tag typed the empty node and goes; an anchor stays.
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("d", "v").unwrap()),
        "c:\nd: v\ne: &x\nf: 1\n"
    );
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("e", "v").unwrap()),
        "c:\nd: !!null\ne: &x v\nf: 1\n"
    );
    let mut map = std::collections::BTreeMap::new();
    map.insert("k", 1);
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("c", &map).unwrap()),
        "c:\n  k: 1\nd: !!null\ne: &x\nf: 1\n"
    );
    // An explicit key without a value gets a `:` line, after its comment.
    let text = "? a # note\n? b\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("a", "v").unwrap()),
        "? a # note\n: v\n? b\n"
    );
    let text = "- # empty\n- &y\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("[0]", "v").unwrap()),
        "- v # empty\n- &y\n"
    );
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("[1]", "v").unwrap()),
        "- # empty\n- &y v\n"
    );
    // In a flow mapping, a key alone gets its `:`.
    let text = "{a, b:, c: d}\n";
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("a", "v").unwrap()),
        "{a: v, b:, c: d}\n"
    );
    assert_eq!(
        edited(text, Format::Yaml, |d| d.set("b", "v").unwrap()),
        "{a, b: v, c: d}\n"
    );
}

#[test]
fn yaml_keys_given_by_any_of_several_merges_are_refused() {
    // Several `<<` keys in one map (CircleCI configurations), and a merge of a merge.
    let text =
        "a: &a\n  x: 1\nb: &b\n  <<: *a\n  y: 2\nm:\n  <<: *b\n  <<: *a\n  x: 3\n  y: 4\n  z: 5\n";
    for (path, anchor) in [("m.x", "b"), ("m.y", "b")] {
        let mut doc = Document::parse(text.as_bytes(), Format::Yaml).unwrap();
        let result = doc.remove(path);
        assert!(
            matches!(result, Err(quarry::edit::EditError::Anchor { anchor: ref a, .. }) if a == anchor),
            "{path}: {result:?}"
        );
    }
    assert_eq!(
        edited(text, Format::Yaml, |d| d.remove("m.z").unwrap()),
        text.replace("  z: 5\n", "")
    );
}
