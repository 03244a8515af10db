//! roxmltree over the same W3C XML suite selection as tests/xml_conformance.rs (XML 1.0
//! fifth edition, the same skip list), judged by the same rules (roxmltree always
//! processes namespaces, also for the `namespace="no"` cases), so RESULTS.md can put
//! both counts side by side. roxmltree takes `&str`: UTF-8 input is given as is, UTF-16
//! input (by byte order mark) is transcoded first, anything else counts as rejected.
//! DTDs are allowed; no entity resolver is set, so nothing external is read.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn suite_dir() -> PathBuf {
    repo().join("testdata/suites/xml")
}

fn text_of(bytes: &[u8]) -> Option<String> {
    let utf16 = |rest: &[u8], le: bool| {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|p| {
                if le {
                    u16::from_le_bytes([p[0], p[1]])
                } else {
                    u16::from_be_bytes([p[0], p[1]])
                }
            })
            .collect();
        String::from_utf16(&units).ok()
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, true),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, false),
        [0xEF, 0xBB, 0xBF, rest @ ..] => std::str::from_utf8(rest).ok().map(str::to_owned),
        _ => std::str::from_utf8(bytes).ok().map(str::to_owned),
    }
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Accepted,
    Rejected,
    Panicked,
}

fn run_case(bytes: Vec<u8>) -> Outcome {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(|| {
            let Some(text) = text_of(&bytes) else {
                return false;
            };
            let options = roxmltree::ParsingOptions {
                allow_dtd: true,
                ..roxmltree::ParsingOptions::default()
            };
            roxmltree::Document::parse_with_options(&text, options).is_ok()
        });
        let _ = send.send(match outcome {
            Ok(true) => Outcome::Accepted,
            Ok(false) => Outcome::Rejected,
            Err(_) => Outcome::Panicked,
        });
    });
    receive
        .recv_timeout(Duration::from_secs(20))
        .expect("a case hung")
}

#[test]
fn roxmltree_on_the_w3c_xml_suite() {
    let index = std::fs::read_to_string(suite_dir().join("tests.tsv"))
        .expect("testdata/suites/xml/tests.tsv must exist in the repository");
    let skipped =
        std::fs::read_to_string(repo().join("tests/conformance/xml-skipped.txt")).unwrap();
    let skipped: Vec<&str> = skipped
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split(' ').next())
        .collect();
    let (mut applicable, mut skip, mut nwf, mut nwf_rejected, mut nwf_ext, mut nwf_ext_rejected) =
        (0, 0, 0, 0, 0, 0);
    let (mut wf, mut wf_accepted, mut errors, mut panics) = (0, 0, 0, 0);
    for line in index.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (id, kind, uri, rec, version, edition, entities) =
            (f[0], f[1], f[2], f[3], f[4], f[5], f[7]);
        if (!version.is_empty() && !version.split(' ').any(|v| v == "1.0"))
            || (!edition.is_empty() && !edition.split(' ').any(|e| e == "5"))
            || rec == "XML1.1"
            || rec == "NS1.1"
        {
            continue;
        }
        applicable += 1;
        if skipped.contains(&id) {
            skip += 1;
            continue;
        }
        let outcome = run_case(std::fs::read(suite_dir().join("xmlconf").join(uri)).unwrap());
        if outcome == Outcome::Panicked {
            panics += 1;
            continue;
        }
        let accepted = outcome == Outcome::Accepted;
        match kind {
            "not-wf" if entities == "none" => {
                nwf += 1;
                nwf_rejected += usize::from(!accepted);
            }
            "not-wf" => {
                nwf_ext += 1;
                nwf_ext_rejected += usize::from(!accepted);
            }
            "valid" | "invalid" => {
                wf += 1;
                wf_accepted += usize::from(accepted);
            }
            _ => errors += 1,
        }
    }
    println!(
        "roxmltree on the W3C XML suite (XML 1.0 5th ed., {applicable} applicable, {skip} skipped): \
         not-wf {nwf_rejected}/{nwf} rejected; \
         not-wf with external entities {nwf_ext_rejected}/{nwf_ext} rejected (acceptance allowed); \
         valid+invalid {wf_accepted}/{wf} accepted; error {errors}; panics {panics}"
    );
    assert_eq!((applicable, skip), (2001, 0));
    assert_eq!(panics, 0);
    assert_eq!((nwf_rejected, nwf, wf_accepted, wf), ROXMLTREE_COUNTS);
}

/// roxmltree 0.21.2's counts: (not-wf rejected, not-wf, valid+invalid accepted, valid+invalid).
const ROXMLTREE_COUNTS: (usize, usize, usize, usize) = (632, 951, 899, 957);
