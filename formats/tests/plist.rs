//! Behaviour of the plist readers (XML, binary, OpenStep), both doors and the writers.
#![cfg(feature = "plist")]

mod support;

use std::borrow::Cow;

use proptest::prelude::*;
use quarry_formats::plist::{self, ErrorKind, Integer, NodeKind, PlistFormat};
use quarry_formats::{Limits, TreeNode};
use quarry_raw_value::{
    Date, Datetime, Decode, Fallback, Offset, Path, PullSource, RawValue, TextRef, Time,
};
use support::{map, pull, s, t, without_odd_entries};

fn xml(body: &str) -> Vec<u8> {
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">{body}</plist>")
        .into_bytes()
}

fn kind_of(input: &[u8]) -> ErrorKind {
    plist::parse(input).unwrap_err().kind().clone()
}

fn utc(year: u16, month: u8, day: u8, hour: u8, minute: u8, second: u8) -> Datetime {
    Datetime {
        date: Some(Date { year, month, day }),
        time: Some(Time {
            hour,
            minute,
            second,
            nanosecond: 0,
        }),
        offset: Some(Offset::Z),
    }
}

/// Assembles a binary plist: `objects` in order, offset and reference widths, the top
/// object and the object count the trailer claims.
fn bplist(objects: &[Vec<u8>], ref_size: u8, top: u64) -> Vec<u8> {
    let mut out = b"bplist00".to_vec();
    let mut offsets = Vec::new();
    for object in objects {
        offsets.push(out.len() as u64);
        out.extend_from_slice(object);
    }
    let table = out.len() as u64;
    for offset in &offsets {
        out.extend_from_slice(&offset.to_be_bytes()[6..]);
    }
    out.extend_from_slice(&[0; 6]);
    out.push(2);
    out.push(ref_size);
    out.extend_from_slice(&(objects.len() as u64).to_be_bytes());
    out.extend_from_slice(&top.to_be_bytes());
    out.extend_from_slice(&table.to_be_bytes());
    out
}

/// Overwrites trailer field bytes at `at` (counted from the trailer's start).
fn with_trailer(mut file: Vec<u8>, at: usize, bytes: &[u8]) -> Vec<u8> {
    let t = file.len() - 32;
    file[t + at..t + at + bytes.len()].copy_from_slice(bytes);
    file
}

#[test]
fn detects_the_form_from_the_bytes() {
    assert_eq!(plist::detect(b"bplist00..."), PlistFormat::Binary);
    assert_eq!(plist::detect(b"<?xml version"), PlistFormat::Xml);
    assert_eq!(plist::detect(b"\xEF\xBB\xBF  <plist>"), PlistFormat::Xml);
    assert_eq!(plist::detect(b"\n<!DOCTYPE plist"), PlistFormat::Xml);
    assert_eq!(plist::detect(b"\xFF\xFE<\0"), PlistFormat::Xml);
    assert_eq!(plist::detect(b"// !$*UTF8*$!\n{"), PlistFormat::OpenStep);
    assert_eq!(plist::detect(b"<0fbd77>"), PlistFormat::OpenStep);
    assert_eq!(plist::detect(b"< 0f bd >"), PlistFormat::OpenStep);
    assert_eq!(plist::detect(b"<dict>"), PlistFormat::Xml);
    assert_eq!(plist::detect(b""), PlistFormat::OpenStep);
    assert_eq!(kind_of(b""), ErrorKind::Empty);
    assert_eq!(kind_of(b"  // nothing\n"), ErrorKind::Empty);
}

/// XML plists go through the XML parser's input decoding: a declared legacy encoding
/// is read.
#[test]
fn xml_plists_in_a_declared_legacy_encoding_are_read() {
    let file = b"<?xml version=\"1.0\" encoding=\"windows-1252\"?><plist version=\"1.0\"><dict><key>caf\xE9</key><string>\x80 5</string></dict></plist>";
    assert_eq!(
        plist::parse(file).unwrap(),
        RawValue::Map(vec![(
            Cow::Owned("café".into()),
            RawValue::String(Cow::Owned("€ 5".into()))
        )])
    );
    assert_eq!(
        plist::parse_tree(file).unwrap().to_raw_value(),
        plist::parse(file).unwrap()
    );
}

#[test]
fn xml_reads_every_type() {
    let doc = xml("<dict>
        <key>s</key><string>a &amp; b</string>
        <key>i</key><integer>-42</integer>
        <key>u</key><integer>18446744073709551615</integer>
        <key>r</key><real>1.5</real>
        <key>t</key><true/>
        <key>f</key><false/>
        <key>d</key><date>2024-01-02T03:04:05Z</date>
        <key>b</key><data>AAEC\n  /w==</data>
        <key>a</key><array><integer>1</integer><string/></array>
        <key>e</key><dict/>
    </dict>");
    let value = plist::parse(&doc).unwrap();
    assert_eq!(
        value,
        map(vec![
            ("s", s("a & b")),
            ("i", RawValue::Int(-42)),
            ("u", RawValue::UInt(u64::MAX)),
            ("r", RawValue::Float(1.5)),
            ("t", RawValue::Bool(true)),
            ("f", RawValue::Bool(false)),
            ("d", RawValue::Datetime(utc(2024, 1, 2, 3, 4, 5))),
            ("b", RawValue::Bytes(Cow::Owned(vec![0, 1, 2, 255]))),
            ("a", RawValue::Seq(vec![RawValue::Int(1), s("")])),
            ("e", RawValue::Map(vec![])),
        ])
    );
    let tree = plist::parse_tree(&doc).unwrap();
    assert_eq!(tree.format(), PlistFormat::Xml);
    assert_eq!(tree.to_raw_value(), value);
    let node = tree.root().get("i").unwrap();
    assert_eq!(node.kind(), NodeKind::Integer);
    assert_eq!(
        &doc[node.span().start..node.span().end],
        b"<integer>-42</integer>"
    );
    let path = Path::parse("a[1]").unwrap();
    assert_eq!(tree.root().lookup(&path).unwrap().as_str(), Some(""));
    assert_eq!(
        tree.root().get("u").unwrap().as_integer(),
        Some(Integer::UInt(u64::MAX))
    );
}

#[test]
fn xml_strings_are_borrowed_unless_decoded() {
    let plain = xml("<string>plain</string>");
    match plist::parse(&plain).unwrap() {
        RawValue::String(Cow::Borrowed("plain")) => {}
        other => panic!("not borrowed: {other:?}"),
    }
    let decoded = xml("<string>a&lt;b</string>");
    assert!(matches!(
        plist::parse(&decoded).unwrap(),
        RawValue::String(Cow::Owned(_))
    ));
    // Text split by a comment is joined.
    assert_eq!(
        plist::parse(&xml("<string>a<!-- c -->b<![CDATA[<c>]]></string>")).unwrap(),
        s("ab<c>")
    );
}

#[test]
fn xml_number_and_date_spellings() {
    let int = |text: &str| {
        plist::parse(&xml(&format!("<integer>{text}</integer>"))).map(RawValue::into_owned)
    };
    assert_eq!(int("007").unwrap(), RawValue::Int(7));
    assert_eq!(int("-0").unwrap(), RawValue::Int(0));
    assert_eq!(int("0x1F").unwrap(), RawValue::Int(31));
    assert_eq!(int(" +12 ").unwrap(), RawValue::Int(12));
    assert_eq!(
        int("-9223372036854775808").unwrap(),
        RawValue::Int(i64::MIN)
    );
    assert_eq!(
        int("-9223372036854775809").unwrap_err().kind(),
        &ErrorKind::IntegerOverflow
    );
    assert_eq!(
        int("18446744073709551616").unwrap_err().kind(),
        &ErrorKind::IntegerOverflow
    );
    assert_eq!(
        int("99999999999999999999999999999999999999999999")
            .unwrap_err()
            .kind(),
        &ErrorKind::IntegerOverflow
    );
    for bad in ["", "0x", "1.5", "12a", "--1"] {
        assert_eq!(
            int(bad).unwrap_err().kind(),
            &ErrorKind::InvalidInteger,
            "{bad}"
        );
    }
    let real =
        |text: &str| plist::parse(&xml(&format!("<real>{text}</real>"))).map(RawValue::into_owned);
    assert_eq!(real(".5").unwrap(), RawValue::Float(0.5));
    assert_eq!(real("5.").unwrap(), RawValue::Float(5.0));
    assert_eq!(real("+infinity").unwrap(), RawValue::Float(f64::INFINITY));
    assert_eq!(real("-inf").unwrap(), RawValue::Float(f64::NEG_INFINITY));
    assert!(matches!(real("nan").unwrap(), RawValue::Float(f) if f.is_nan()));
    assert_eq!(real("x").unwrap_err().kind(), &ErrorKind::InvalidReal);
    let date =
        |text: &str| plist::parse(&xml(&format!("<date>{text}</date>"))).map(RawValue::into_owned);
    assert_eq!(
        date("2024-01-02T01:04:05-02:00").unwrap(),
        RawValue::Datetime(utc(2024, 1, 2, 3, 4, 5))
    );
    for bad in [
        "2024-01-02",
        "2024-01-02T03:04:05",
        "2024-13-02T03:04:05Z",
        "x",
    ] {
        assert_eq!(
            date(bad).unwrap_err().kind(),
            &ErrorKind::InvalidDate,
            "{bad}"
        );
    }
}

#[test]
fn xml_structure_errors_name_the_problem_and_its_position() {
    let err = |body: &str| {
        let e = plist::parse(&xml(body)).unwrap_err();
        (e.kind().to_string(), e.line(), e.column())
    };
    assert_eq!(
        err("<dict><string>x</string></dict>").0,
        "dict value without a `key`"
    );
    assert_eq!(
        err("<dict><key>a</key><key>b</key></dict>").0,
        "dict `key` without a value"
    );
    assert_eq!(
        err("<dict><key>a</key></dict>").0,
        "dict `key` without a value"
    );
    assert_eq!(
        err("<true/><false/>").0,
        "`plist` holds more than one value"
    );
    assert_eq!(err("").0, "`plist` holds no value");
    assert_eq!(err("<array><foo/></array>").0, "unexpected element `foo`");
    assert_eq!(err("<key>a</key>").0, "unexpected element `key`");
    assert_eq!(err("<string>a<b/></string>").0, "unexpected element `b`");
    assert_eq!(
        err("<array>x</array>").0,
        "unexpected text between elements"
    );
    assert_eq!(err("<true>x</true>").0, "unexpected text between elements");
    assert_eq!(err("<data>!!</data>").0, "invalid data");
    assert_eq!(
        err("<dict>\n <string>x</string></dict>"),
        ("dict value without a `key`".into(), 3, 2)
    );
    assert_eq!(kind_of(b"<dict></dict>"), ErrorKind::InvalidRoot);
    assert!(matches!(
        kind_of(b"<plist><true/></plist"),
        ErrorKind::Xml(_)
    ));
    assert!(matches!(
        kind_of(b"<plist>&nope;</plist>"),
        ErrorKind::Xml(_)
    ));
}

#[test]
fn xml_depth_is_limited() {
    let deep = xml(&format!(
        "{}{}",
        "<array>".repeat(200),
        "</array>".repeat(200)
    ));
    assert_eq!(kind_of(&deep), ErrorKind::DepthLimitReached(128));
    let ok = xml(&format!(
        "{}{}",
        "<array>".repeat(128),
        "</array>".repeat(128)
    ));
    assert!(plist::parse(&ok).is_ok());
    let limits = Limits::default().with_max_depth(3);
    let four = xml("<array><array><array><array/></array></array></array>");
    assert_eq!(
        plist::parse_with_limits(&four, limits).unwrap_err().kind(),
        &ErrorKind::DepthLimitReached(3)
    );
}

/// The objects of a binary plist holding every type:
/// dict { "a": "xyz", "b": 300, "c": data, "d": [true, 1.5, date 0, UID 7, "é"] }.
fn every_type_objects() -> Vec<Vec<u8>> {
    vec![
        vec![0xD4, 1, 2, 3, 4, 5, 6, 7, 8],       // 0: dict of 4
        vec![0x51, b'a'],                         // 1
        vec![0x51, b'b'],                         // 2
        vec![0x51, b'c'],                         // 3
        vec![0x51, b'd'],                         // 4
        vec![0x53, b'x', b'y', b'z'],             // 5
        vec![0x11, 0x01, 0x2C],                   // 6: 300
        vec![0x42, 0xFF, 0x00],                   // 7: data
        vec![0xA5, 9, 10, 11, 12, 13],            // 8: array
        vec![0x09],                               // 9: true
        vec![0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0], // 10: 1.5
        vec![0x33, 0, 0, 0, 0, 0, 0, 0, 0],       // 11: date, 0 s after the epoch
        vec![0x80, 7],                            // 12: UID 7
        vec![0x61, 0x00, 0xE9],                   // 13: "é"
    ]
}

#[test]
fn binary_reads_every_type_and_borrows_text_and_data() {
    let file = bplist(&every_type_objects(), 1, 0);
    let value = plist::parse(&file).unwrap();
    assert_eq!(
        value,
        map(vec![
            ("a", s("xyz")),
            ("b", RawValue::Int(300)),
            ("c", RawValue::Bytes(Cow::Borrowed(&[0xFF, 0]))),
            (
                "d",
                RawValue::Seq(vec![
                    RawValue::Bool(true),
                    RawValue::Float(1.5),
                    RawValue::Datetime(utc(2001, 1, 1, 0, 0, 0)),
                    map(vec![("CF$UID", RawValue::Int(7))]),
                    s("é"),
                ])
            ),
        ])
    );
    let RawValue::Map(entries) = &value else {
        unreachable!()
    };
    assert!(matches!(entries[0].1, RawValue::String(Cow::Borrowed(_))));
    assert!(matches!(entries[2].1, RawValue::Bytes(Cow::Borrowed(_))));
    let tree = plist::parse_tree(&file).unwrap();
    assert_eq!(tree.format(), PlistFormat::Binary);
    let uid = tree.root().lookup(&Path::parse("d[3]").unwrap()).unwrap();
    assert_eq!((uid.kind(), uid.as_uid()), (NodeKind::Uid, Some(7)));
    // The span of a binary object is its bytes.
    let b = tree.root().get("b").unwrap();
    assert_eq!(&file[b.span().start..b.span().end], &[0x11, 0x01, 0x2C]);
    assert_eq!(tree.to_raw_value(), value);
}

#[test]
fn binary_cycles_are_errors() {
    // An array containing itself.
    let file = bplist(&[vec![0xA1, 0]], 1, 0);
    assert_eq!(kind_of(&file), ErrorKind::Cycle);
    // dict -> array -> the dict.
    let file = bplist(&[vec![0xD1, 1, 2], vec![0x51, b'k'], vec![0xA1, 0]], 1, 0);
    assert_eq!(kind_of(&file), ErrorKind::Cycle);
    assert!(plist::check(&file).is_err());
    assert!(plist::parse_tree(&file).is_err());
}

#[test]
fn binary_shared_objects_are_allowed_but_their_expansion_is_bounded() {
    // One array referenced twice (a DAG).
    let file = bplist(&[vec![0xA2, 1, 1], vec![0xA1, 2], vec![0x10, 5]], 1, 0);
    let inner = RawValue::Seq(vec![RawValue::Int(5)]);
    assert_eq!(
        plist::parse(&file).unwrap(),
        RawValue::Seq(vec![inner.clone(), inner])
    );
    // 40 levels of arrays, each holding the next level twice: 2^40 nodes if expanded.
    let levels = 40;
    let mut objects: Vec<Vec<u8>> = (0..levels).map(|i| vec![0xA2, i + 1, i + 1]).collect();
    objects.push(vec![0x10, 1]);
    let bomb = bplist(&objects, 1, 0);
    assert!(matches!(
        kind_of(&bomb),
        ErrorKind::ExpansionLimitReached(_)
    ));
    assert!(plist::check(&bomb).is_err());
}

fn direct(file: &[u8]) -> plist::DirectSource<'_> {
    plist::DirectSource::new(file, Limits::default()).unwrap()
}

#[test]
fn binary_direct_source_reads_what_the_raw_value_door_reads() {
    let mut objects = every_type_objects();
    objects[2] = vec![0x61, 0x00, 0xE9]; // the key "b" becomes "é" (UTF-16)
    let file = bplist(&objects, 1, 0);
    let expected = plist::parse(&file).unwrap();
    assert_eq!(pull(&mut direct(&file), false), Ok(expected.clone()));
    assert_eq!(
        RawValue::decode_direct(&mut direct(&file)),
        Ok(expected.clone())
    );
    assert_eq!(
        pull(&mut direct(&file), true),
        Ok(without_odd_entries(expected))
    );
    // Text is borrowed when it is ASCII, decoded when it is UTF-16.
    let mut source = direct(&file);
    source.begin_object().unwrap();
    assert!(matches!(
        source.next_key(true),
        Ok(Some(TextRef::Borrowed("a")))
    ));
    assert!(matches!(source.read_str(), Ok(TextRef::Borrowed("xyz"))));
    assert!(matches!(
        source.next_key(false),
        Ok(Some(TextRef::Decoded("é")))
    ));
    assert_eq!(source.read_u64(), Ok(300));
    // Wrong reads fall back: data is not a string, a plist has no null.
    source.next_key(false).unwrap();
    assert_eq!(source.peek_token(), Err(Fallback));
    assert!(source.read_str().is_err());
    assert_eq!(direct(&file).read_null(), Err(Fallback));
    assert_eq!(direct(&file).begin_array(), Err(Fallback));
    assert!(plist::DirectSource::new(b"bplist00", Limits::default()).is_err());
}

#[test]
fn binary_direct_source_reads_owned_strings_of_every_width() {
    let objects = vec![
        vec![0xA5, 1, 2, 3, 4, 5],                                  // 0: array
        vec![0x53, b'x', b'y', b'z'],                               // 1: ASCII
        vec![0x61, 0x00, 0xE9],                                     // 2: "é"
        vec![0x64, 0x00, 0x61, 0x20, 0xAC, 0xD8, 0x34, 0xDD, 0x1E], // 3: "a€𝄞"
        vec![0x61, 0xD8, 0x00],                                     // 4: a lone surrogate
        vec![0x41, 0x00],                                           // 5: data
    ];
    let file = bplist(&objects, 1, 0);
    let mut source = direct(&file);
    source.begin_array().unwrap();
    let read = |source: &mut plist::DirectSource<'_>| {
        assert_eq!(source.next_item(false), Ok(true));
        source.read_string()
    };
    assert_eq!(read(&mut source).as_deref(), Ok("xyz"));
    // UTF-16 is decoded into a string that holds no slack.
    for expected in ["é", "a€𝄞"] {
        let string = read(&mut source).unwrap();
        assert_eq!(
            (string.as_str(), string.capacity()),
            (expected, expected.len())
        );
    }
    assert_eq!(read(&mut source), Err(Fallback));
    assert_eq!(read(&mut source), Err(Fallback));
    // Accented Latin text (ASCII runs between other units), short and long, and a
    // high surrogate followed by ASCII, which is unpaired.
    let long = "Łukasz Müller, São Paulo, Zürich 😀 Göteborg Besançon Łódź".repeat(2);
    let mut objects = vec![vec![0xA4, 1, 2, 3, 4]];
    for text in ["Łukasz Müller", long.as_str()] {
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut object = vec![0x6F, 0x10, units.len() as u8];
        object.extend(units.iter().flat_map(|u| u.to_be_bytes()));
        objects.push(object);
    }
    objects.push(vec![0x65, 0, b'a', 0, b'b', 0xD8, 0x3D, 0, b'c', 0, b'd']);
    objects.push(vec![0x64, 0, b'a', 0, b'b', 0, b'c', 0xDE, 0x00]);
    let file = bplist(&objects, 1, 0);
    let mut source = direct(&file);
    source.begin_array().unwrap();
    assert_eq!(read(&mut source).as_deref(), Ok("Łukasz Müller"));
    assert_eq!(read(&mut source).as_deref(), Ok(long.as_str()));
    assert_eq!(read(&mut source), Err(Fallback));
    assert_eq!(read(&mut source), Err(Fallback));
    // The RawValue path reports both as malformed UTF-16.
    for i in [3, 4] {
        let alone = bplist(&[objects[i].clone()], 1, 0);
        assert_eq!(kind_of(&alone), ErrorKind::InvalidUtf16);
    }
}

#[test]
fn binary_direct_source_falls_back_on_whatever_the_reader_rejects() {
    // A cycle under a key the caller skips, and under one it reads.
    let file = bplist(&[vec![0xD1, 1, 2], vec![0x51, b'k'], vec![0xA1, 0]], 1, 0);
    let mut source = direct(&file);
    source.begin_object().unwrap();
    source.next_key(true).unwrap();
    assert_eq!(source.skip_value(), Err(Fallback));
    assert_eq!(pull(&mut direct(&file), false), Err(Fallback));
    assert_eq!(RawValue::decode_direct(&mut direct(&file)), Err(Fallback));
    // Shared objects expanding without bound: skipping and reading both stop.
    let levels = 40;
    let mut objects: Vec<Vec<u8>> = vec![vec![0xD1, 1, 2], vec![0x51, b'k']];
    objects.extend((0..levels).map(|i| vec![0xA2, i + 3, i + 3]));
    objects.push(vec![0x10, 1]);
    let bomb = bplist(&objects, 1, 0);
    let mut source = direct(&bomb);
    source.begin_object().unwrap();
    source.next_key(true).unwrap();
    assert_eq!(source.skip_value(), Err(Fallback));
    assert_eq!(RawValue::decode_direct(&mut direct(&bomb)), Err(Fallback));
    // Bad UTF-16 (a lone surrogate) and a date out of range, skipped: still rejected.
    for bad in [
        vec![0x61, 0xD8, 0x00],
        vec![0x33, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0],
    ] {
        let file = bplist(&[vec![0xD1, 1, 2], vec![0x51, b'k'], bad], 1, 0);
        assert!(plist::parse(&file).is_err());
        let mut source = direct(&file);
        source.begin_object().unwrap();
        source.next_key(true).unwrap();
        assert_eq!(source.skip_value(), Err(Fallback));
    }
    // The depth limit holds on the direct path too.
    let deep = Limits::default().with_max_depth(2);
    let file = bplist(&[vec![0xA1, 1], vec![0xA1, 2], vec![0xA0]], 1, 0);
    let mut source = plist::DirectSource::new(&file, deep).unwrap();
    source.begin_array().unwrap();
    assert!(source.next_item(true).unwrap());
    source.begin_array().unwrap();
    assert!(source.next_item(true).unwrap());
    assert_eq!(source.begin_array(), Err(Fallback));
}

/// Arrays nested `levels` deep (object `i` holds object `i + 1`), the innermost holding
/// object `last`: an integer, or an outer array (a cycle).
fn nested_arrays(levels: u8, last: u8) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = (1..=levels).map(|i| vec![0xA1, i]).collect();
    objects[usize::from(levels) - 1] = vec![0xA1, last];
    objects.push(vec![0x10, 7]);
    bplist(&objects, 1, 0)
}

#[test]
fn binary_direct_source_reads_deep_arrays_and_falls_back_on_cycles_at_any_depth() {
    // 20 levels: the direct path keeps the innermost open container in place and the
    // ones around it on the heap; every level reads and closes alike. A cycle falls back
    // (the cycle rule stops it first, and the depth limit or the work budget would too).
    let file = nested_arrays(20, 20);
    let mut expected = RawValue::Int(7);
    for _ in 0..20 {
        expected = RawValue::Seq(vec![expected]);
    }
    assert_eq!(RawValue::decode_direct(&mut direct(&file)), Ok(expected));
    let mut source = direct(&file);
    assert_eq!(source.skip_value(), Ok(()));
    // The innermost array holds the outermost, one in the middle, or itself.
    for outer in [0, 12, 19] {
        let cycle = nested_arrays(20, outer);
        assert!(plist::parse(&cycle).is_err());
        assert_eq!(RawValue::decode_direct(&mut direct(&cycle)), Err(Fallback));
        assert_eq!(direct(&cycle).skip_value(), Err(Fallback));
    }
}

#[test]
fn binary_direct_source_peeks_the_kind_from_the_marker_and_reads_check_the_rest() {
    let items: Vec<Vec<u8>> = vec![
        vec![0x09],
        vec![0x10, 5],
        vec![0x23, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0],
        vec![0x51, b'a'],
        vec![0x61, 0x00, 0xE9],
        vec![0xA0],
        vec![0xD0],
        vec![0x33, 0, 0, 0, 0, 0, 0, 0, 0],
        vec![0x41, 0xFF],
        vec![0x80, 1],
        // A string marker over a byte that is not ASCII: peeked as a string, then the
        // read falls back.
        vec![0x51, 0xC3],
    ];
    let mut objects = vec![std::iter::once(0xAB).chain(1..=11).collect::<Vec<u8>>()];
    objects.extend(items);
    let file = bplist(&objects, 1, 0);
    let mut source = direct(&file);
    source.begin_array().unwrap();
    let mut kinds = Vec::new();
    let mut first = true;
    while source.next_item(first).unwrap() {
        first = false;
        kinds.push(source.peek_token().ok());
        if source.skip_value().is_err() {
            break;
        }
    }
    use quarry_raw_value::ValueKind::*;
    assert_eq!(
        kinds,
        [
            Some(Bool),
            Some(Number),
            Some(Number),
            Some(String),
            Some(String),
            Some(Array),
            Some(Object),
            None,
            None,
            None,
            Some(String),
        ]
    );
    let mut source = direct(&file);
    source.begin_array().unwrap();
    for first in [true].into_iter().chain([false; 9]) {
        source.next_item(first).unwrap();
        source.skip_value().unwrap();
    }
    assert!(source.next_item(false).unwrap());
    assert_eq!(source.peek_token(), Ok(String));
    assert!(source.read_str().is_err());
}

#[test]
fn binary_direct_source_typed_reads_take_their_own_kinds_and_fall_back_on_the_rest() {
    // Each typed read tells its kind by the marker first; every object of every kind is
    // read by every typed read, and what it returns is what the RawValue path read.
    let mut wide = vec![0x14];
    wide.extend_from_slice(&u128::from(u64::MAX).to_be_bytes());
    let items: Vec<Vec<u8>> = vec![
        vec![0x08],
        vec![0x09],
        vec![0x10, 0xFF],
        vec![0x11, 0x12, 0x34],
        vec![0x12, 0xFF, 0xFF, 0xFF, 0xFF],
        vec![0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE],
        wide,
        vec![0x22, 0x3F, 0xC0, 0, 0],
        vec![0x23, 0xC0, 0x04, 0, 0, 0, 0, 0, 0],
        vec![0x53, b'x', b'y', b'z'],
        vec![
            0x5F, 0x10, 0x10, b'a', b'b', b'c', b'd', b'e', b'f', b'g', b'h', b'i', b'j', b'k',
            b'l', b'm', b'n', b'o', b'p',
        ],
        vec![0x51, 0xC3],
        vec![0x61, 0x00, 0xE9],
        vec![0x33, 0, 0, 0, 0, 0, 0, 0, 0],
        vec![0x41, 0xFF],
        vec![0x80, 1],
        vec![0xA0],
        vec![0xD0],
    ];
    let count = items.len() as u8;
    let mut objects = vec![[vec![0xAF, 0x10, count], (1..=count).collect()].concat()];
    objects.extend(items);
    let file = bplist(&objects, 1, 0);
    // A source at item `i` of the array.
    let at = |i: usize| {
        let mut source = direct(&file);
        source.begin_array().unwrap();
        for first in std::iter::once(true)
            .chain(std::iter::repeat(false))
            .take(i + 1)
        {
            assert_eq!(source.next_item(first), Ok(true));
        }
        source
    };
    for i in 0..usize::from(count) {
        // What the RawValue path read (every item but the bad ASCII string) is the oracle.
        let raw = RawValue::decode_direct(&mut at(i)).ok();
        let ok = |kind: bool| if kind { "ok" } else { "fallback" };
        let want_bool = match raw {
            Some(RawValue::Bool(b)) => Ok(b),
            _ => Err(Fallback),
        };
        assert_eq!(at(i).read_bool(), want_bool, "item {i}: read_bool");
        let want_i64 = match raw {
            Some(RawValue::Int(v)) => Ok(v),
            _ => Err(Fallback),
        };
        assert_eq!(at(i).read_i64(), want_i64, "item {i}: read_i64");
        let want_u64 = match raw {
            Some(RawValue::Int(v)) => u64::try_from(v).map_err(|_| Fallback),
            Some(RawValue::UInt(v)) => Ok(v),
            _ => Err(Fallback),
        };
        assert_eq!(at(i).read_u64(), want_u64, "item {i}: read_u64");
        let want_f64 = match raw {
            Some(RawValue::Float(v)) => Ok(v),
            Some(RawValue::Int(v)) => Ok(v as f64),
            Some(RawValue::UInt(v)) => Ok(v as f64),
            _ => Err(Fallback),
        };
        assert_eq!(at(i).read_f64(), want_f64, "item {i}: read_f64");
        let want_str = match &raw {
            Some(RawValue::String(text)) => Ok(text.to_string()),
            _ => Err(Fallback),
        };
        assert_eq!(at(i).read_string(), want_str, "item {i}: read_string");
        let is_seq = matches!(raw, Some(RawValue::Seq(_)));
        // A UID reads as a one-entry map through the RawValue path; it is no dict.
        let is_uid = objects[i + 1][0] >> 4 == 0x8;
        let is_map = matches!(raw, Some(RawValue::Map(_))) && !is_uid;
        assert_eq!(
            ok(at(i).begin_array().is_ok()),
            ok(is_seq),
            "item {i}: begin_array"
        );
        assert_eq!(
            ok(at(i).begin_object().is_ok()),
            ok(is_map),
            "item {i}: begin_object"
        );
    }
    // The items read as the kinds they are (so the table above covers every kind).
    let read = |i: usize| RawValue::decode_direct(&mut at(i)).ok();
    assert_eq!(read(3), Some(RawValue::Int(0x1234)));
    assert_eq!(read(5), Some(RawValue::Int(-2)));
    assert_eq!(read(6), Some(RawValue::UInt(u64::MAX)));
    assert_eq!(read(7), Some(RawValue::Float(1.5)));
    assert_eq!(read(8), Some(RawValue::Float(-2.5)));
    assert_eq!(read(10), Some(s("abcdefghijklmnop")));
    assert_eq!(read(11), None);
    assert_eq!(read(12), Some(s("é")));
    assert!(matches!(read(15), Some(RawValue::Map(entries)) if entries.len() == 1));
}

#[test]
fn binary_direct_source_reads_a_flat_dict_without_allocating() {
    // {"a": 1, "b": true, "c": "xyz"}: ASCII keys and text, one container.
    let file = bplist(
        &[
            vec![0xD3, 1, 2, 3, 4, 5, 6],
            vec![0x51, b'a'],
            vec![0x51, b'b'],
            vec![0x51, b'c'],
            vec![0x10, 1],
            vec![0x09],
            vec![0x53, b'x', b'y', b'z'],
        ],
        1,
        0,
    );
    let (read, allocations) = support::counting::count(|| {
        let mut source = direct(&file);
        source.begin_object().unwrap();
        let mut read = Vec::with_capacity(3);
        let mut first = true;
        while let Some(key) = source.next_key(first).unwrap() {
            first = false;
            read.push(match key.as_str() {
                "a" => source.read_i64().unwrap(),
                "b" => i64::from(source.read_bool().unwrap()),
                _ => source.read_str().unwrap().as_str().len() as i64,
            });
        }
        read
    });
    // The one allocation is the test's own `Vec`.
    assert_eq!((read, allocations), (vec![1, 1, 3], 1));
}

#[test]
fn binary_counts_offsets_and_references_are_validated() {
    let good = bplist(&[vec![0xA1, 1], vec![0x10, 5]], 1, 0);
    assert!(plist::parse(&good).is_ok());
    // An array claiming 2^62 items.
    let mut huge = vec![0xAF, 0x13];
    huge.extend_from_slice(&(1u64 << 62).to_be_bytes());
    let file = bplist(&[huge, vec![0x10, 5]], 1, 0);
    assert_eq!(kind_of(&file), ErrorKind::ObjectOutOfBounds);
    // A string claiming u64::MAX bytes.
    let mut long = vec![0x5F, 0x13];
    long.extend_from_slice(&u64::MAX.to_be_bytes());
    assert_eq!(kind_of(&bplist(&[long], 1, 0)), ErrorKind::InvalidLength);
    // A reference to an object that does not exist.
    let file = bplist(&[vec![0xA1, 9], vec![0x10, 5]], 1, 0);
    assert_eq!(kind_of(&file), ErrorKind::InvalidReference(9));
    // Object count far beyond the offset table.
    let file = with_trailer(good.clone(), 8, &u64::MAX.to_be_bytes());
    assert_eq!(kind_of(&file), ErrorKind::InvalidTrailer("object count"));
    // Top object beyond the count.
    let file = with_trailer(good.clone(), 16, &2u64.to_be_bytes());
    assert_eq!(kind_of(&file), ErrorKind::InvalidTrailer("top object"));
    // Offset table outside the file.
    let file = with_trailer(good.clone(), 24, &u64::MAX.to_be_bytes());
    assert_eq!(
        kind_of(&file),
        ErrorKind::InvalidTrailer("offset table offset")
    );
    // Widths of 0 and 9.
    for (at, field) in [(6, "offset size"), (7, "reference size")] {
        for width in [0u8, 9] {
            let file = with_trailer(good.clone(), at, &[width]);
            assert_eq!(kind_of(&file), ErrorKind::InvalidTrailer(field));
        }
    }
    // An offset into the header and one into the offset table.
    let mut file = good.clone();
    let table = file.len() - 32 - 4;
    file[table + 3] = 3;
    assert_eq!(kind_of(&file), ErrorKind::InvalidOffset(3));
    file[table + 3] = table as u8;
    assert_eq!(kind_of(&file), ErrorKind::InvalidOffset(table as u64));
    // Truncations never panic.
    for len in 0..good.len() {
        let cut = &good[..len];
        assert!(plist::parse_binary_with(cut, &mut (), Limits::default()).is_err());
        assert!(len < 6 || plist::parse(cut).is_err(), "{len}");
    }
    // Unknown markers, null, bad widths.
    for (object, kind) in [
        (vec![0x70], ErrorKind::UnknownObject(0x70)),
        (vec![0x00], ErrorKind::UnknownObject(0x00)),
        (vec![0x21, 0, 0], ErrorKind::InvalidWidth),
        (vec![0x15, 0], ErrorKind::InvalidWidth),
        (vec![0x52, b'a', 0xE9], ErrorKind::InvalidAscii),
        (vec![0x61, 0xD8, 0x00], ErrorKind::InvalidUtf16),
    ] {
        assert_eq!(kind_of(&bplist(&[object], 1, 0)), kind);
    }
    // A dict whose key is an integer.
    let file = bplist(&[vec![0xD1, 1, 1], vec![0x10, 5]], 1, 0);
    assert_eq!(kind_of(&file), ErrorKind::KeyNotString);
}

#[test]
fn binary_integers_of_every_width() {
    let one = |object: Vec<u8>| plist::parse(&bplist(&[object], 1, 0)).map(|v| v.into_owned());
    assert_eq!(one(vec![0x10, 0xFF]).unwrap(), RawValue::Int(255));
    assert_eq!(
        one(vec![0x12, 0xFF, 0xFF, 0xFF, 0xFF]).unwrap(),
        RawValue::Int(0xFFFF_FFFF)
    );
    assert_eq!(
        one(vec![0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).unwrap(),
        RawValue::Int(-1)
    );
    let mut wide = vec![0x14];
    wide.extend_from_slice(&u128::from(u64::MAX).to_be_bytes());
    assert_eq!(one(wide).unwrap(), RawValue::UInt(u64::MAX));
    let mut too_wide = vec![0x14];
    too_wide.extend_from_slice(&(u128::from(u64::MAX) + 1).to_be_bytes());
    assert_eq!(
        one(too_wide).unwrap_err().kind(),
        &ErrorKind::IntegerOverflow
    );
    let mut negative = vec![0x14];
    negative.extend_from_slice(&(-5i128).to_be_bytes());
    assert_eq!(one(negative).unwrap(), RawValue::Int(-5));
}

#[test]
fn binary_depth_is_limited_without_recursion() {
    // 5000 arrays, each holding the next.
    let n = 5000u16;
    let mut objects: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            let next = i + 1;
            vec![0xA1, (next >> 8) as u8, next as u8]
        })
        .collect();
    objects.push(vec![0x10, 1]);
    let file = bplist(&objects, 2, 0);
    assert_eq!(kind_of(&file), ErrorKind::DepthLimitReached(128));
}

#[test]
fn openstep_reads_pbxproj_style_text() {
    let text = br#"// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objects = {
/* Begin PBXBuildFile section */
		1D60589B0D05DD56006BFB54 /* main.m in Sources */ = {isa = PBXBuildFile; fileRef = 29B97316FDCFA39411CA2CEA /* main.m */; };
/* End PBXBuildFile section */
	};
	name = "Hello \"World\"\n\U00e9\101";
	list = (a, "b c", <0fbd 77>, );
	path = /usr/bin/env;
}
"#;
    let value = plist::parse(text).unwrap();
    assert_eq!(value.get("archiveVersion"), Some(&t("1")));
    assert_eq!(value.get("classes"), Some(&RawValue::Map(vec![])));
    assert_eq!(
        value.get("name"),
        Some(&RawValue::Text("Hello \"World\"\néA".into()))
    );
    assert_eq!(
        value.get("list"),
        Some(&RawValue::Seq(vec![
            t("a"),
            t("b c"),
            RawValue::Bytes(Cow::Owned(vec![0x0f, 0xbd, 0x77]))
        ]))
    );
    assert_eq!(value.get("path"), Some(&t("/usr/bin/env")));
    let objects = value.get("objects").unwrap();
    let file = objects.get("1D60589B0D05DD56006BFB54").unwrap();
    assert_eq!(file.get("isa"), Some(&t("PBXBuildFile")));
    let tree = plist::parse_tree(text).unwrap();
    assert_eq!(tree.format(), PlistFormat::OpenStep);
    assert_eq!(tree.to_raw_value(), value);
    let node = tree.root().get("list").unwrap().at(1).unwrap();
    assert_eq!(&text[node.span().start..node.span().end], b"\"b c\"");
    // Surrogate pairs through \U escapes.
    assert_eq!(
        plist::parse(br#""\UD83D\UDE00""#).unwrap(),
        RawValue::Text("\u{1F600}".into())
    );
}

#[test]
fn openstep_strings_files_are_dicts_without_braces() {
    let text =
        b"/* Localizable.strings */\n\"greeting\" = \"Hello\";\nfarewell = \"Bye\"; // done\n";
    assert_eq!(
        plist::parse(text).unwrap(),
        map(vec![("greeting", t("Hello")), ("farewell", t("Bye"))])
    );
    let tree = plist::parse_tree(text).unwrap();
    assert_eq!(tree.root().kind(), NodeKind::Dict);
    assert_eq!(
        tree.root().get("farewell").and_then(|n| n.as_str()),
        Some("Bye")
    );
    assert_eq!(
        plist::parse(b"a = b; }").unwrap_err().kind().to_string(),
        "expected a key, found `}`"
    );
    assert_eq!(
        plist::parse(b"a = b").unwrap_err().kind().to_string(),
        "expected `;`, found the end of input"
    );
    assert_eq!(plist::parse(b"a").unwrap(), t("a"));
}

#[test]
fn openstep_errors() {
    let err = |text: &str| {
        let e = plist::parse(text.as_bytes()).unwrap_err();
        (e.kind().to_string(), e.line(), e.column())
    };
    assert_eq!(err("{ a = b }").0, "expected `;`, found `}`");
    assert_eq!(err("{ a b; }").0, "expected `=`, found `b`");
    assert_eq!(err("( a b )").0, "expected `,` or `)`, found `b`");
    assert_eq!(err("(a,,)").0, "expected a value, found `,`");
    assert_eq!(err("\"abc").0, "unterminated string");
    assert_eq!(err("/* abc").0, "unterminated comment");
    assert_eq!(err("<0fb>").0, "invalid data");
    assert_eq!(err("a b").0, "content after the top-level value");
    assert_eq!(err("{\n  a = (;").1, 2);
    assert_eq!(err("\"\\UD800\"").0, "invalid escape sequence");
    assert_eq!(err("{").0, "expected a key or `}`, found the end of input");
    let deep = "(".repeat(100_000);
    assert_eq!(kind_of(deep.as_bytes()), ErrorKind::DepthLimitReached(128));
}

#[test]
fn writers_refuse_null_naming_its_path() {
    let value = map(vec![(
        "a",
        RawValue::Seq(vec![RawValue::Int(1), RawValue::Null]),
    )]);
    for result in [
        plist::to_vec_xml(&value),
        plist::to_vec_binary(&value),
        plist::to_vec_openstep(&value),
    ] {
        assert_eq!(
            result.unwrap_err().to_string(),
            "a[1]: a property list cannot represent null"
        );
    }
    let control = s("a\u{1}b");
    assert!(plist::to_vec_xml(&control).is_err());
    assert!(plist::to_vec_binary(&control).is_ok());
}

#[test]
fn xml_writer_writes_apple_layout() {
    let value = map(vec![
        ("name", s("a<b")),
        ("n", RawValue::Int(3)),
        ("empty", RawValue::Seq(vec![])),
        ("when", RawValue::Datetime(utc(2024, 1, 2, 3, 4, 5))),
    ]);
    let text = plist::to_string_xml(&value).unwrap();
    assert_eq!(
        text,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n\t<key>name</key>\n\t<string>a&lt;b</string>\n\t<key>n</key>\n\t<integer>3</integer>\n\t<key>empty</key>\n\t<array/>\n\t<key>when</key>\n\t<date>2024-01-02T03:04:05Z</date>\n</dict>\n</plist>\n"
    );
    assert_eq!(plist::parse(text.as_bytes()).unwrap(), value);
}

#[test]
fn binary_writer_shares_scalars_and_uses_minimal_widths() {
    let value = RawValue::Seq(vec![s("same"); 300]);
    let file = plist::to_vec_binary(&value).unwrap();
    let trailer = &file[file.len() - 32..];
    assert_eq!(trailer[7], 1, "reference size");
    assert_eq!(
        u64::from_be_bytes(trailer[8..16].try_into().unwrap()),
        2,
        "objects"
    );
    assert_eq!(plist::parse(&file).unwrap(), value);
    // A UID map writes as a UID.
    let uid = map(vec![("CF$UID", RawValue::Int(70000))]);
    let file = plist::to_vec_binary(&uid).unwrap();
    let tree = plist::parse_tree(&file).unwrap();
    assert_eq!(tree.root().as_uid(), Some(70000));
    // 70,000 distinct integers need wider references.
    let many = RawValue::Seq((0..70_000).map(RawValue::Int).collect());
    let file = plist::to_vec_binary(&many).unwrap();
    assert_eq!(file[file.len() - 32 + 7], 4);
    assert_eq!(plist::parse(&file).unwrap(), many);
}

/// The binary writer collects objects as the value streams in: a `{"CF$UID": n}` dict
/// leaves no object of its entry behind (skipped null entries: see
/// `null_entries_can_be_skipped`).
#[test]
fn binary_writer_leaves_no_orphan_objects() {
    let objects =
        |file: &[u8]| u64::from_be_bytes(file[file.len() - 24..][..8].try_into().unwrap());
    // Two equal UIDs share one object; the key "CF$UID" and the integer are not objects
    // until a string of that text comes.
    let uid = || map(vec![("CF$UID", RawValue::Int(1))]);
    let value = RawValue::Seq(vec![uid(), uid()]);
    let file = plist::to_vec_binary(&value).unwrap();
    assert_eq!(objects(&file), 2);
    assert_eq!(plist::parse(&file).unwrap(), value);
    let value = RawValue::Seq(vec![uid(), s("CF$UID"), RawValue::Int(1), uid()]);
    let file = plist::to_vec_binary(&value).unwrap();
    assert_eq!(objects(&file), 4);
    assert_eq!(plist::parse(&file).unwrap(), value);
    // Dicts that are not UIDs stay dicts.
    for not_uid in [
        map(vec![("CF$UID", RawValue::Int(-1))]),
        map(vec![("CF$UID", s("1"))]),
        map(vec![("CF$UID", RawValue::Int(1)), ("b", RawValue::Int(2))]),
    ] {
        let file = plist::to_vec_binary(&not_uid).unwrap();
        assert_eq!(plist::parse_tree(&file).unwrap().root().as_uid(), None);
        assert_eq!(plist::parse(&file).unwrap(), not_uid);
    }
    // A UID at the top level, and one nested in a dict.
    let file = plist::to_vec_binary(&map(vec![("k", uid())])).unwrap();
    assert_eq!(objects(&file), 3);
    assert_eq!(plist::parse(&file).unwrap(), map(vec![("k", uid())]));
}

#[test]
fn binary_writer_rejects_unbalanced_events() {
    use quarry_raw_value::Encoder;
    let mut out = Vec::new();
    let mut writer = plist::BinaryWriter::new(&mut out);
    writer.i64(1).unwrap();
    assert!(writer.i64(2).is_err(), "a second top-level value");
    let mut out = Vec::new();
    let mut writer = plist::BinaryWriter::new(&mut out);
    assert!(writer.end_seq().is_err(), "an end without a begin");
    assert!(writer.key("k").is_err(), "a key outside a dict");
    writer.begin_map(None).unwrap();
    assert!(writer.i64(1).is_err(), "a value without a key");
    assert!(writer.end_seq().is_err(), "a dict closed as an array");
    let mut out = Vec::new();
    let mut writer = plist::BinaryWriter::new(&mut out);
    writer.begin_seq(None).unwrap();
    assert!(writer.finish().is_err(), "an open array");
    let mut out = Vec::new();
    assert!(
        plist::BinaryWriter::new(&mut out).finish().is_err(),
        "no value"
    );
    assert!(out.is_empty());
}

#[test]
fn local_datetimes_are_written_as_text() {
    let local = RawValue::Datetime("2024-01-02".parse().unwrap());
    for bytes in [
        plist::to_vec_xml(&local).unwrap(),
        plist::to_vec_binary(&local).unwrap(),
    ] {
        assert_eq!(
            plist::parse(&bytes).unwrap().into_owned(),
            s("2024-01-02").into_owned()
        );
    }
}

/// Fuzzing found: a string starting with the binary magic, written bare as the whole
/// OpenStep document, read back as a (broken) binary plist.
#[test]
fn openstep_strings_that_look_like_other_things_are_quoted() {
    assert_eq!(plist::to_vec_openstep(&t("a+b")).unwrap(), b"\"a+b\"\n");
    assert_eq!(
        plist::to_vec_openstep(&t("a/b.c-d_$:")).unwrap(),
        b"a/b.c-d_$:\n"
    );
    for text in ["bplist00", "//x", "/*", "", "a b", "<0f>", "1e+23"] {
        let written = plist::to_vec_openstep(&t(text)).unwrap();
        assert_eq!(plist::parse(&written).unwrap(), t(text), "{text}");
    }
}

#[test]
fn error_is_one_pointer() {
    assert_eq!(
        std::mem::size_of::<plist::Error>(),
        std::mem::size_of::<usize>()
    );
}

// ---------------------------------------------------------------------------------------
// Round trips.

fn xml_char() -> impl Strategy<Value = char> {
    any::<char>().prop_filter("XML 1.0 Char", |&c| {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
    })
}

fn xml_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,8}",
        proptest::collection::vec(xml_char(), 0..12).prop_map(String::from_iter),
    ]
}

fn date() -> impl Strategy<Value = Datetime> {
    // Whole seconds: binary dates are f64 seconds.
    (-62_167_219_200i64..=253_402_300_799).prop_map(|s| plist::datetime_from_unix(s, 0).unwrap())
}

fn scalar(text: BoxedStrategy<String>) -> impl Strategy<Value = RawValue<'static>> {
    prop_oneof![
        any::<bool>().prop_map(RawValue::Bool),
        any::<i64>().prop_map(RawValue::Int),
        (i64::MAX as u64 + 1..=u64::MAX).prop_map(RawValue::UInt),
        any::<f64>().prop_map(RawValue::Float),
        text.prop_map(|s| RawValue::String(s.into())),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(|b| RawValue::Bytes(b.into())),
        date().prop_map(RawValue::Datetime),
    ]
}

fn plist_value(text: fn() -> BoxedStrategy<String>) -> impl Strategy<Value = RawValue<'static>> {
    scalar(text()).prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(RawValue::Seq),
            proptest::collection::vec((text(), inner), 0..6).prop_map(|entries| {
                RawValue::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
            }),
        ]
    })
}

fn openstep_value() -> impl Strategy<Value = RawValue<'static>> {
    let leaf = prop_oneof![
        any::<String>().prop_map(|s| RawValue::Text(s.into())),
        proptest::collection::vec(any::<u8>(), 0..20).prop_map(|b| RawValue::Bytes(b.into())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(RawValue::Seq),
            proptest::collection::vec((any::<String>(), inner), 0..6).prop_map(|entries| {
                RawValue::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
            }),
        ]
    })
}

/// Equality where NaN equals NaN.
fn same(a: &RawValue<'_>, b: &RawValue<'_>) -> bool {
    match (a, b) {
        (RawValue::Float(x), RawValue::Float(y)) => {
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }
        (RawValue::Seq(x), RawValue::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (RawValue::Map(x), RawValue::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
        }
        _ => a == b,
    }
}

fn any_string() -> BoxedStrategy<String> {
    any::<String>().boxed()
}

fn xml_text() -> BoxedStrategy<String> {
    xml_string().boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn binary_write_then_parse_is_identity(value in plist_value(any_string)) {
        let bytes = plist::to_vec_binary(&value).unwrap();
        let back = plist::parse(&bytes).unwrap();
        prop_assert!(same(&back, &value), "{:?}", back);
        prop_assert!(same(&plist::parse_tree(&bytes).unwrap().to_raw_value(), &value));
        prop_assert!(plist::check(&bytes).is_ok());
        let direct = pull(&mut plist::DirectSource::new(&bytes, Limits::default()).unwrap(), false);
        prop_assert!(same(&direct.unwrap(), &back));
        let skipping = pull(&mut plist::DirectSource::new(&bytes, Limits::default()).unwrap(), true);
        prop_assert!(same(&skipping.unwrap(), &without_odd_entries(back.clone())));
    }

    #[test]
    fn xml_write_then_parse_is_identity(value in plist_value(xml_text)) {
        let bytes = plist::to_vec_xml(&value).unwrap();
        let back = plist::parse(&bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
        prop_assert!(same(&back, &value), "{:?}\n{}", back, String::from_utf8_lossy(&bytes));
        prop_assert!(same(&plist::parse_tree(&bytes).unwrap().to_raw_value(), &value));
    }

    #[test]
    fn openstep_write_then_parse_is_identity(value in openstep_value()) {
        let bytes = plist::to_vec_openstep(&value).unwrap();
        let back = plist::parse(&bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
        prop_assert_eq!(&back, &value, "{}", String::from_utf8_lossy(&bytes));
        prop_assert_eq!(plist::parse_tree(&bytes).unwrap().to_raw_value(), value);
    }

    #[test]
    fn arbitrary_openstep_text_never_panics(text in "[{}()<>=;,\"'a-c0-9 \n/*\\\\U]{0,40}") {
        let raw = plist::parse(text.as_bytes()).is_ok();
        prop_assert_eq!(raw, plist::check(text.as_bytes()).is_ok());
        prop_assert_eq!(raw, plist::parse_tree(text.as_bytes()).is_ok());
    }

    #[test]
    fn arbitrary_binary_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..80)) {
        let mut bytes = b"bplist00".to_vec();
        bytes.extend_from_slice(&tail);
        let raw = plist::parse(&bytes).is_ok();
        prop_assert_eq!(raw, plist::check(&bytes).is_ok());
    }
}

#[test]
fn the_real_world_corpus_parses_through_both_doors() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus/plist");
    let entries = std::fs::read_dir(&dir).expect("testdata/corpus/plist");
    let mut count = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let raw = plist::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let tree = plist::parse_tree(&bytes).unwrap();
        assert!(same(&tree.to_raw_value(), &raw), "{}", path.display());
        let binary = plist::to_vec_binary(&raw).unwrap();
        assert!(
            same(&plist::parse(&binary).unwrap(), &raw),
            "{}",
            path.display()
        );
        count += 1;
    }
    assert_eq!(count, 13);
}

#[test]
fn null_entries_can_be_skipped() {
    let value = map(vec![
        ("a", RawValue::Null),
        ("b", RawValue::Int(1)),
        ("c", map(vec![("d", RawValue::Null)])),
        ("e", RawValue::Null),
    ]);
    let expected = map(vec![("b", RawValue::Int(1)), ("c", RawValue::Map(vec![]))]);
    let openstep_expected = map(vec![("b", t("1")), ("c", RawValue::Map(vec![]))]);
    for format in [PlistFormat::Xml, PlistFormat::Binary, PlistFormat::OpenStep] {
        let bytes =
            plist::to_vec_with_nulls(&value, format, quarry_formats::common::NullEntries::Skip)
                .unwrap();
        let back = plist::parse(&bytes).unwrap();
        if format == PlistFormat::OpenStep {
            assert_eq!(
                back,
                openstep_expected,
                "{}",
                String::from_utf8_lossy(&bytes)
            );
        } else {
            assert_eq!(back, expected, "{}", String::from_utf8_lossy(&bytes));
        }
        let err =
            plist::to_vec_with_nulls(&value, format, quarry_formats::common::NullEntries::Reject)
                .unwrap_err();
        assert_eq!(err.to_string(), "a: a property list cannot represent null");
        let in_array = RawValue::Seq(vec![RawValue::Null]);
        assert!(plist::to_vec_with_nulls(
            &in_array,
            format,
            quarry_formats::common::NullEntries::Skip
        )
        .is_err());
    }
    // The binary writer leaves no object of a skipped entry behind.
    assert_eq!(
        plist::to_vec_with_nulls(
            &value,
            PlistFormat::Binary,
            quarry_formats::common::NullEntries::Skip
        )
        .unwrap(),
        plist::to_vec_binary(&expected).unwrap()
    );
    let xml = plist::to_vec_with_nulls(
        &value,
        PlistFormat::Xml,
        quarry_formats::common::NullEntries::Skip,
    )
    .unwrap();
    assert!(String::from_utf8(xml)
        .unwrap()
        .contains("<key>c</key>\n\t<dict/>\n"));
}

// ---------------------------------------------------------------------------------------
// Allocation counts, per thread (tests run in parallel).

#[global_allocator]
static GLOBAL: support::counting::Counting = support::counting::Counting;

#[test]
fn allocations_are_per_container_not_per_value() {
    let value = RawValue::Seq(
        (0..1000)
            .map(|i| map(vec![("name", s("ascii text")), ("n", RawValue::Int(i))]))
            .collect(),
    );
    let binary = plist::to_vec_binary(&value).unwrap();
    let xml = plist::to_vec_xml(&value).unwrap();
    for (form, bytes) in [("binary", &binary), ("xml", &xml)] {
        let (parsed, raw) = support::counting::count(|| plist::parse(bytes).unwrap());
        // One exact Vec per container (1001), plus the builder's stacks growing.
        assert!(
            raw <= 1001 + 40,
            "{form}: {raw} allocations for the RawValue path"
        );
        assert_eq!(parsed, value);
        let ((), check) = support::counting::count(|| plist::check(bytes).unwrap());
        assert!(check <= 8, "{form}: {check} allocations for the validator");
        let (_, tree) = support::counting::count(|| plist::parse_tree(bytes).unwrap());
        assert!(
            tree <= 1001 + 60,
            "{form}: {tree} allocations for the tree door"
        );
        println!("{form}: RawValue path {raw}, validator {check}, tree {tree} allocations");
    }
}

#[test]
fn utf16_xml_errors_count_lines_in_the_text() {
    let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist>\n<dict><string>x</string></dict></plist>";
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let e = plist::parse(&bytes).unwrap_err();
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (&ErrorKind::MissingKey, 3, 7)
    );
}

/// `to_writer` hands XML and binary plists over in bounded chunks; what arrives is
/// what `to_vec_xml` and `to_vec_binary` build, and reads back.
#[test]
fn to_writer_writes_in_chunks_exactly_what_to_vec_builds() {
    let value = support::many_records("records");
    let mut writes = support::Writes::default();
    plist::to_writer(&mut writes, &value, PlistFormat::Xml).unwrap();
    support::assert_written_in_chunks(&writes, &plist::to_vec_xml(&value).unwrap());
    let mut writes = support::Writes::default();
    plist::to_writer(&mut writes, &value, PlistFormat::Binary).unwrap();
    support::assert_written_in_chunks(&writes, &plist::to_vec_binary(&value).unwrap());
    assert_eq!(plist::parse(&writes.bytes).unwrap(), value);
}

#[test]
fn to_vec_and_to_string_write_the_xml_form() {
    let value = RawValue::Map(vec![(
        Cow::Borrowed("name"),
        RawValue::String(Cow::Borrowed("web")),
    )]);
    let xml = plist::to_vec_xml(&value).unwrap();
    assert_eq!(plist::to_vec(&value).unwrap(), xml);
    assert_eq!(plist::to_string(&value).unwrap().as_bytes(), xml);
    assert_eq!(plist::parse(&xml).unwrap(), value);
}
