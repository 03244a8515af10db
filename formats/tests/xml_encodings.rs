//! XML in the single-byte encodings WHATWG leaves out, and the CPython and iconv labels of
//! the ones it has: every byte compared with CPython's decoding of it
//! (`testdata/encodings/single-byte.txt`), through both doors and the check, by every
//! label; and an RSS feed in IBM855 and in MacCyrillic.
#![cfg(feature = "xml")]

use std::path::{Path, PathBuf};

use quarry_formats::xml::*;
use quarry_raw_value::RawValue;

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/encodings")
        .join(name)
}

/// One line of the oracle: an encoding, whether quarry reads it by its own table (else
/// `encoding_rs` does), its labels, and what CPython decodes each byte it defines to.
struct Oracle {
    codec: String,
    table: bool,
    labels: Vec<String>,
    points: Vec<(u8, char)>,
}

fn oracle() -> Vec<Oracle> {
    let text = std::fs::read_to_string(testdata("single-byte.txt")).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let (head, pairs) = line.split_once(" | ").unwrap();
            let mut head = head.split(' ');
            let codec = head.next().unwrap().to_owned();
            let table = head.next().unwrap() == "table";
            let labels = head.next().unwrap().split(',').map(str::to_owned).collect();
            let points = pairs
                .split(' ')
                .map(|pair| {
                    let (byte, point) = pair.split_once(':').unwrap();
                    let byte = u8::from_str_radix(byte, 16).unwrap();
                    let point = u32::from_str_radix(point, 16).unwrap();
                    (byte, char::from_u32(point).unwrap())
                })
                .collect();
            Oracle {
                codec,
                table,
                labels,
                points,
            }
        })
        .collect()
}

/// `<t a='…'>…</t>` holding `bytes` in the attribute and as text, declared in `label`.
fn document(label: &str, bytes: &[u8]) -> Vec<u8> {
    let mut doc = format!("<?xml version='1.0' encoding='{label}'?>\n<t a='").into_bytes();
    doc.extend_from_slice(bytes);
    doc.extend_from_slice(b"'>");
    doc.extend_from_slice(bytes);
    doc.extend_from_slice(b"</t>");
    doc
}

/// Every byte an encoding defines (as CPython decodes it), in a document declared by each
/// of its labels, as written, in upper and in lower case, and with `-` and `_` swapped:
/// both doors and the check read what CPython reads. (Bytes that decode to markup, `<`,
/// `&` and quotes, MacArabic's right-to-left copies of them, are left out of the
/// document.) A byte the encoding leaves undefined is an error naming the label, at that
/// byte, where quarry reads the encoding by its own table; WHATWG's encodings may define
/// more than CPython's (windows-1252's 0x81).
#[test]
fn single_byte_encodings_decode_every_byte_as_cpython_does() {
    let oracle = oracle();
    assert_eq!(oracle.iter().filter(|e| e.table).count(), 36);
    for encoding in &oracle {
        let chars: Vec<(u8, char)> = encoding
            .points
            .iter()
            .copied()
            .filter(|&(_, c)| !matches!(c, '<' | '&' | '\'' | '"'))
            .collect();
        let bytes: Vec<u8> = chars.iter().map(|&(b, _)| b).collect();
        let expected: String = chars.iter().map(|&(_, c)| c).collect();
        let value = RawValue::Map(vec![(
            "t".into(),
            RawValue::Map(vec![
                ("@a".into(), RawValue::Text(expected.clone().into())),
                ("$text".into(), RawValue::Text(expected.clone().into())),
            ]),
        )]);
        for label in &encoding.labels {
            let spellings = [
                label.clone(),
                label.to_uppercase(),
                label.to_lowercase(),
                label.replace('_', "-"),
                label.replace('-', "_"),
            ];
            for spelling in spellings {
                let doc = document(&spelling, &bytes);
                let what = format!("{} as {spelling}", encoding.codec);
                assert_eq!(parse(&doc).unwrap(), value, "{what}");
                let tree = parse_tree(&doc).unwrap();
                assert_eq!(tree.to_raw_value(), value, "{what}");
                let t = tree.root_element();
                assert_eq!(t.text(), Some(&*expected), "{what}");
                assert_eq!(t.attribute("a"), Some(&*expected), "{what}");
                check(&doc).unwrap();
            }
        }
        if !encoding.table {
            continue;
        }
        let label = &encoding.labels[0];
        for byte in 0x80..=0xFF {
            if encoding.points.iter().any(|&(b, _)| b == byte) {
                continue;
            }
            let doc = document(label, &[b'x', byte]);
            let err = parse(&doc).unwrap_err();
            let what = format!("{} byte {byte:02X}", encoding.codec);
            assert_eq!(
                err.kind(),
                &ErrorKind::InvalidEncoded(label.clone()),
                "{what}"
            );
            assert_eq!((err.line(), err.column()), (2, 8), "{what}");
            assert_eq!(parse_tree(&doc).unwrap_err(), err, "{what}");
            assert_eq!(check(&doc).unwrap_err(), err, "{what}");
        }
    }
}

/// ISO-8859-1, ISO-8859-9 and ISO-8859-11 (and TIS-620) are read by their own tables, as
/// XML parsers read them, under every label: not as the windows code pages WHATWG reads
/// them as, which give 0x80 to 0x9F other characters. KOI8-U's 0xAE is a box-drawing
/// character, not KOI8-RU's `ў`.
#[test]
fn iso_8859_parts_are_not_read_as_windows_code_pages() {
    for label in [
        "ISO-8859-1",
        "iso8859-1",
        "latin1",
        "cp819",
        "ISO-8859-9",
        "latin5",
        "ISO-8859-11",
        "TIS-620",
    ] {
        let doc = document(label, b"\x80\x85");
        let value = parse(&doc).unwrap();
        let RawValue::Map(root) = &value else {
            panic!("{value:?}")
        };
        let RawValue::Map(t) = &root[0].1 else {
            panic!("{value:?}")
        };
        assert_eq!(t[1].1.as_str(), Some("\u{80}\u{85}"), "{label}");
    }
    let doc = document("KOI8-U", b"\xAE");
    assert_eq!(parse_tree(&doc).unwrap().root_element().text(), Some("╝"));
    // windows-1252 by its own names.
    let doc = document("windows-1252", b"\x80");
    assert_eq!(parse_tree(&doc).unwrap().root_element().text(), Some("€"));
}

/// An encoding neither WHATWG nor the tables know is still an error naming it.
#[test]
fn an_unknown_encoding_is_an_error_naming_it() {
    for name in [
        "EBCDIC-US",
        "IBM037",
        "UTF-32",
        "iso-2022-kr",
        "x-unknown",
        "cp855x",
    ] {
        let doc = document(name, b"a");
        let err = parse(&doc).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::UnsupportedEncoding(name.into()));
        assert_eq!(parse_tree(&doc).unwrap_err(), err);
        assert_eq!(check(&doc).unwrap_err(), err);
        assert_eq!(
            err.kind().to_string(),
            format!(
                "unsupported encoding `{name}` (quarry reads UTF-8, UTF-16, the encodings of \
                 the WHATWG Encoding Standard and the single-byte IBM, Mac and ISO 8859 code \
                 pages)"
            )
        );
    }
    // A byte order mark still contradicts any declared encoding but UTF-8.
    let mut doc = b"\xEF\xBB\xBF".to_vec();
    doc.extend_from_slice(&document("IBM855", b"a"));
    assert_eq!(
        parse(&doc).unwrap_err().kind(),
        &ErrorKind::EncodingMismatch
    );
}

/// An RSS feed in IBM855 and in MacCyrillic (which `encoding_rs` reads as
/// `x-mac-cyrillic`) reads as its UTF-8 copy does, through both doors.
#[test]
fn an_rss_feed_in_ibm855_or_maccyrillic_reads_as_its_utf8_copy() {
    let utf8 = std::fs::read(testdata("rss-utf8.xml")).unwrap();
    let expected = parse(&utf8).unwrap();
    let expected_tree = parse_tree(&utf8).unwrap();
    for file in ["rss-ibm855.xml", "rss-maccyrillic.xml"] {
        let bytes = std::fs::read(testdata(file)).unwrap();
        assert_eq!(parse(&bytes).unwrap(), expected, "{file}");
        let tree = parse_tree(&bytes).unwrap();
        assert_eq!(tree.to_raw_value(), expected, "{file}");
        // The transcoded text is the UTF-8 copy, the declaration aside.
        let declared_end = |s: &str| s.find("?>").unwrap();
        let source = tree.source();
        let utf8_source = expected_tree.source();
        assert_eq!(
            &source[declared_end(source)..],
            &utf8_source[declared_end(utf8_source)..],
            "{file}"
        );
        let channel = tree.root_element().children().next();
        assert!(channel.is_some(), "{file}");
        check(&bytes).unwrap();
    }
}

/// A property list in XML form is read by the XML parser's decoding: one in MacRoman (a
/// WHATWG encoding by its CPython name) and one in MacCentralEurope (by quarry's table).
#[cfg(feature = "plist")]
#[test]
fn xml_plists_in_mac_encodings_decode() {
    for (label, byte, expected) in [("MacRoman", 0x8E, "é"), ("MacCentralEurope", 0x89, "Č")] {
        let mut doc = format!(
            "<?xml version=\"1.0\" encoding=\"{label}\"?>\n<plist version=\"1.0\"><dict>\
             <key>name</key><string>"
        )
        .into_bytes();
        doc.push(byte);
        doc.extend_from_slice(b"</string></dict></plist>");
        assert_eq!(
            quarry_formats::plist::parse(&doc).unwrap(),
            RawValue::Map(vec![("name".into(), RawValue::String(expected.into()))]),
            "{label}"
        );
    }
}
