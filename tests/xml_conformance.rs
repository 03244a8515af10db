#![cfg(feature = "xml")]
//! The W3C XML Conformance Test Suite (testdata/suites/xml), run the way its
//! `testcases.dtd` says for a non-validating parser that reads no external entity:
//! `valid` and `invalid` documents must be accepted, `not-wf` documents rejected
//! (acceptance is allowed when the test has `entities` other than `none`: the error may
//! sit in an external entity), `error` documents may go either way. Only tests that
//! apply to XML 1.0 fifth edition run, with namespace processing except for the
//! `namespace="no"` cases. Nothing may panic or hang.
//! Cases listed in tests/conformance/xml-skipped.txt (with a reason each) are skipped.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use quarry::xml;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/suites/xml")
}

/// One row of tests.tsv.
struct Case {
    id: String,
    kind: String,
    uri: String,
    /// `namespace="yes"`: read with namespace processing.
    namespaces: bool,
    entities: String,
    /// The canonical form of a valid document, when the suite gives one.
    output: String,
}

/// The XML 1.0 fifth-edition cases: drops tests whose version lacks `1.0`, whose
/// edition lacks `5`, and the XML 1.1 and Namespaces 1.1 recommendations.
fn applicable_cases() -> Vec<Case> {
    let index = std::fs::read_to_string(suite_dir().join("tests.tsv"))
        .expect("testdata/suites/xml/tests.tsv must exist in the repository");
    let mut cases = Vec::new();
    for line in index.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (id, kind, uri, rec, version, edition, namespace, entities, output) =
            (f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
        if !version.is_empty() && !version.split(' ').any(|v| v == "1.0") {
            continue;
        }
        if !edition.is_empty() && !edition.split(' ').any(|e| e == "5") {
            continue;
        }
        if rec == "XML1.1" || rec == "NS1.1" {
            continue;
        }
        cases.push(Case {
            id: id.to_owned(),
            kind: kind.to_owned(),
            uri: uri.to_owned(),
            namespaces: namespace != "no",
            entities: entities.to_owned(),
            output: output.to_owned(),
        });
    }
    cases
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Accepted,
    Rejected,
    Panicked(String),
}

/// Runs both doors and the validator on `bytes` in a thread with a deadline. The three
/// must agree, and the tree must convert to the RawValue the struct door builds.
fn run_case(bytes: Vec<u8>, namespaces: bool) -> Outcome {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(|| {
            let options = xml::Options::default().with_namespaces(namespaces);
            let mut builder = xml::RawValueBuilder::default();
            let raw = xml::parse_with(&bytes, &mut builder, options).map(|()| builder.finish());
            let tree = xml::parse_tree_with_options(&bytes, &options);
            let check = xml::parse_with(&bytes, &mut (), options);
            assert_eq!(raw.is_ok(), tree.is_ok(), "doors disagree");
            assert_eq!(raw.is_ok(), check.is_ok(), "validator disagrees");
            if let (Ok(raw), Ok(tree)) = (&raw, &tree) {
                assert_eq!(&tree.to_raw_value(), raw, "doors build different values");
                // What the tree writer writes parses back to the same value.
                let written = tree.to_string();
                let mut builder = xml::RawValueBuilder::default();
                xml::parse_with(written.as_bytes(), &mut builder, options)
                    .expect("the written tree parses");
                let again = builder.finish();
                assert_eq!(&again, raw, "the written tree reads differently");
            }
            if let (Err(a), Err(b)) = (&raw, &tree) {
                assert_eq!(a, b, "doors report different errors");
            }
            raw.is_ok()
        });
        let _ = send.send(match outcome {
            Ok(true) => Outcome::Accepted,
            Ok(false) => Outcome::Rejected,
            Err(e) => Outcome::Panicked(
                e.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default(),
            ),
        });
    });
    receive
        .recv_timeout(Duration::from_secs(20))
        .expect("a case hung")
}

#[test]
fn w3c_xml_conformance_suite() {
    let skipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/xml-skipped.txt"),
    )
    .unwrap();
    let skipped: Vec<(&str, &str)> = skipped
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_once(' ').expect("`ID reason` per line"))
        .collect();

    let cases = applicable_cases();
    let (mut nwf, mut nwf_rejected, mut nwf_ext, mut nwf_ext_rejected) = (0, 0, 0, 0);
    let (mut wf, mut wf_accepted, mut errors, mut skip) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for case in &cases {
        if skipped.iter().any(|(id, _)| *id == case.id) {
            skip += 1;
            continue;
        }
        let bytes = std::fs::read(suite_dir().join("xmlconf").join(&case.uri)).unwrap();
        let outcome = run_case(bytes, case.namespaces);
        if let Outcome::Panicked(message) = &outcome {
            failures.push(format!("{} ({}): panicked: {message}", case.id, case.uri));
            continue;
        }
        match case.kind.as_str() {
            "not-wf" if case.entities == "none" => {
                nwf += 1;
                if outcome == Outcome::Rejected {
                    nwf_rejected += 1;
                } else {
                    failures.push(format!("{} ({}): not-wf accepted", case.id, case.uri));
                }
            }
            "not-wf" => {
                nwf_ext += 1;
                if outcome == Outcome::Rejected {
                    nwf_ext_rejected += 1;
                }
            }
            "valid" | "invalid" => {
                wf += 1;
                if outcome == Outcome::Accepted {
                    wf_accepted += 1;
                } else {
                    failures.push(format!(
                        "{} ({}): {} rejected",
                        case.id, case.uri, case.kind
                    ));
                }
            }
            _ => errors += 1,
        }
    }
    println!(
        "W3C XML suite (XML 1.0 5th ed., {} applicable, {skip} skipped): \
         not-wf {nwf_rejected}/{nwf} rejected; \
         not-wf with external entities {nwf_ext_rejected}/{nwf_ext} rejected (acceptance allowed); \
         valid+invalid {wf_accepted}/{wf} accepted; error {errors} without panic",
        cases.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert_eq!(cases.len(), 2001, "the applicable selection changed");
    assert_eq!(
        (nwf, wf, skip),
        (951, 957, 0),
        "the selection or the skip list changed"
    );
    assert!(
        failures.iter().all(|f| !f.contains("panicked")),
        "panics:\n{}",
        failures.join("\n")
    );
    assert_eq!(
        wf_accepted, wf,
        "every valid and invalid case must be accepted"
    );
    assert!(
        nwf_rejected >= NOT_WF_REJECTED_AT_LEAST,
        "not-wf rejections regressed"
    );
    assert!(
        nwf_rejected * 100 >= nwf * 95,
        "fewer than 95% of not-wf cases rejected"
    );
}

/// The not-wf (entities none) rejections reached; only ever raised.
const NOT_WF_REJECTED_AT_LEAST: usize = 951;

/// James Clark's canonical form of a tree (the form of the suite's `out/` files): PIs
/// and the root element, no declaration, DOCTYPE or comments; attributes sorted by name;
/// every element written with a start and an end tag; `&`, `<`, `>`, `"`, tab, line feed
/// and carriage return escaped in text and attribute values.
fn canonical(doc: &xml::Document<'_>) -> String {
    fn escape(text: &str, out: &mut String) {
        for ch in text.chars() {
            match ch {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\t' => out.push_str("&#9;"),
                '\n' => out.push_str("&#10;"),
                '\r' => out.push_str("&#13;"),
                _ => out.push(ch),
            }
        }
    }
    fn node(n: xml::Node<'_, '_>, out: &mut String) {
        match n.kind() {
            xml::NodeKind::Element => {
                out.push('<');
                out.push_str(n.tag_name());
                let mut attrs: Vec<_> = n.attributes().collect();
                attrs.sort_by(|a, b| a.name().cmp(b.name()));
                for a in attrs {
                    out.push(' ');
                    out.push_str(a.name());
                    out.push_str("=\"");
                    escape(a.value(), out);
                    out.push('"');
                }
                out.push('>');
                for child in n.children() {
                    node(child, out);
                }
                out.push_str("</");
                out.push_str(n.tag_name());
                out.push('>');
            }
            xml::NodeKind::Text => escape(n.text().unwrap_or(""), out),
            xml::NodeKind::ProcessingInstruction => {
                let (target, data) = n.pi().unwrap_or_default();
                out.push_str("<?");
                out.push_str(target);
                out.push(' ');
                out.push_str(data);
                out.push_str("?>");
            }
            _ => {}
        }
    }
    let mut out = String::new();
    for child in doc.root().children() {
        node(child, &mut out);
    }
    out
}

/// The suite's canonical output without what the tree does not keep: the second
/// canonical form's DOCTYPE of notation declarations.
fn expected_canonical(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes).into_owned();
    match text.strip_prefix("<!DOCTYPE") {
        Some(rest) => match rest.find("]>\n") {
            Some(end) => rest[end + 3..].to_owned(),
            None => text,
        },
        None => text,
    }
}

/// Every valid and invalid document with a canonical output reports the elements,
/// attributes (declared defaults included), text and PIs that output holds.
#[test]
fn valid_documents_report_what_their_canonical_form_holds() {
    let mut compared = 0;
    let mut failures = Vec::new();
    // Mismatches of documents that need no external entity.
    let mut internal = Vec::new();
    for case in applicable_cases() {
        if !matches!(case.kind.as_str(), "valid" | "invalid") || case.output.is_empty() {
            continue;
        }
        let bytes = std::fs::read(suite_dir().join("xmlconf").join(&case.uri)).unwrap();
        let expected = std::fs::read(suite_dir().join("xmlconf").join(&case.output))
            .unwrap_or_else(|e| panic!("{}: {e}", case.output));
        let options = xml::Options::default().with_namespaces(case.namespaces);
        let doc = xml::parse_tree_with_options(&bytes, &options).unwrap();
        compared += 1;
        let (got, want) = (canonical(&doc), expected_canonical(&expected));
        if got != want {
            if case.entities == "none" {
                internal.push(case.id.clone());
            }
            failures.push(format!(
                "{} ({}):\n  got  {got:?}\n  want {want:?}",
                case.id, case.uri
            ));
        }
    }
    println!(
        "W3C canonical outputs: {} of {compared} valid and invalid documents match",
        compared - failures.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert_eq!(compared, CANONICAL_COMPARED, "the selection changed");
    // The others declare what differs (mostly attribute defaults) in an external DTD or
    // entity, which a processor that reads no external entity never sees. This one puts
    // a PI inside the internal subset, which the canonical form keeps and the tree (which
    // keeps no DOCTYPE) does not.
    assert_eq!(internal, ["ibm-valid-P29-ibm29v01.xml"]);
    assert!(
        compared - failures.len() >= CANONICAL_MATCH_AT_LEAST,
        "canonical matches regressed:\n{}",
        failures.join("\n")
    );
}

/// Valid and invalid cases with a canonical output.
const CANONICAL_COMPARED: usize = 379;
/// How many of them match; only ever raised.
const CANONICAL_MATCH_AT_LEAST: usize = 316;
