//! `Spanned<T>`: the value's place in its document, the same through the direct path and
//! the RawValue path of every format, and its origin through `Config`.

use proptest::prelude::*;
use quarry::config::Origin;
use quarry::decode::DecodeOptions;
use quarry::pull::PullSource;
use quarry::{Config, Decode, Encode, Format, Limits, Span, Spanned};

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
struct Server {
    host: Spanned<String>,
    port: Spanned<u16>,
    tags: Vec<Spanned<String>>,
    tls: Option<Spanned<bool>>,
}

/// `bytes` decoded through the RawValue path, with the places marked as `from_slice`
/// marks them (XML from the root element, under XML's rule for sequences).
fn via_raw<'a, T: Decode<'a>>(bytes: &'a [u8], format: Format) -> T {
    if format == Format::Xml {
        let mut root = quarry::xml::parse_root(bytes).unwrap().1;
        quarry::decode::place_spans::<T>(&mut root, bytes, format);
        return T::decode_with_options(root, DecodeOptions::XML).unwrap();
    }
    let mut raw = quarry::parse_raw(bytes, format).unwrap();
    quarry::decode::place_spans::<T>(&mut raw, bytes, format);
    T::decode(raw).unwrap()
}

fn read<'a, T: Decode<'a>, S: PullSource<'a>>(mut source: S) -> Option<T> {
    let value = T::decode_direct(&mut source).ok()?;
    source.finish().ok()?;
    Some(value)
}

/// `bytes` read through the format's direct path (`None` when it falls back).
fn via_direct<'a, T: Decode<'a>>(bytes: &'a [u8], format: Format) -> Option<T> {
    let limits = Limits::default();
    match format {
        Format::Json => read(quarry::json::DirectSource::new(bytes, limits).ok()?),
        Format::Yaml => read(quarry::yaml::DirectSource::new(bytes, limits).ok()?),
        Format::Toml => read(quarry::toml::DirectSource::new(bytes, limits).ok()?),
        Format::Xml => read(quarry::xml::DirectSource::new(bytes, limits).ok()?),
        Format::Plist => read(quarry::plist::DirectSource::new(bytes, limits).ok()?),
        _ => None,
    }
}

/// Every place of a server, in field order.
fn places(server: &Server) -> Vec<(Span, LineColumn)> {
    let place = |s: Span, p: Option<quarry::Position>| (s, p.map(|p| (p.line, p.column)));
    let mut out = vec![
        place(server.host.span(), server.host.position()),
        place(server.port.span(), server.port.position()),
    ];
    out.extend(server.tags.iter().map(|t| place(t.span(), t.position())));
    out.extend(server.tls.iter().map(|t| place(t.span(), t.position())));
    out
}

/// The text each place of `server` covers in `text`.
fn slices<'t>(server: &Server, text: &'t str) -> Vec<&'t str> {
    places(server)
        .into_iter()
        .map(|(span, _)| &text[span.start..span.end])
        .collect()
}

/// Reads `text` through both paths: the values and places must agree, the direct path
/// must read it when `direct` says so, and the places are returned as the text they
/// cover with their lines and columns.
/// A line and a column.
type LineColumn = Option<(usize, usize)>;

fn both(text: &str, format: Format, direct: bool) -> (Vec<&str>, Vec<LineColumn>) {
    let raw: Server = via_raw(text.as_bytes(), format);
    let read: Option<Server> = via_direct(text.as_bytes(), format);
    assert_eq!(read.is_some(), direct, "{format}: {text}");
    if let Some(read) = &read {
        assert_eq!(read, &raw);
        assert_eq!(places(read), places(&raw), "{format}: {text}");
    }
    let facade: Server = quarry::from_str(text, format).unwrap();
    assert_eq!(places(&facade), places(&raw));
    let lines = places(&raw).into_iter().map(|(_, p)| p).collect();
    (slices(&raw, text), lines)
}

#[test]
fn json_places_values_as_its_tree_does() {
    let text = "{\n  \"host\": \"a.example\",\n  \"port\": 8080,\n  \"tags\": [\"x\", \"why\"],\n  \"tls\": true\n}";
    let (slices, lines) = both(text, Format::Json, true);
    assert_eq!(
        slices,
        ["\"a.example\"", "8080", "\"x\"", "\"why\"", "true"]
    );
    assert_eq!(
        lines,
        [
            Some((2, 11)),
            Some((3, 11)),
            Some((4, 12)),
            Some((4, 17)),
            Some((5, 10))
        ]
    );
    // JSONC reads through the same source.
    let jsonc = "{\"host\": \"h\", // the host\n \"port\": 1, \"tags\": [],}";
    let server: Server = quarry::from_str(jsonc, Format::Jsonc).unwrap();
    assert_eq!(slices_of(&server, jsonc), ["\"h\"", "1"]);
}

fn slices_of<'t>(server: &Server, text: &'t str) -> Vec<&'t str> {
    slices(server, text)
}

#[test]
fn yaml_places_values_as_its_tree_does() {
    let text = "host: a.example\nport: 8080\ntags:\n  - x\n  - \"why\"\ntls: true\n";
    let (slices, lines) = both(text, Format::Yaml, true);
    assert_eq!(slices, ["a.example", "8080", "x", "\"why\"", "true"]);
    assert_eq!(
        lines,
        [
            Some((1, 7)),
            Some((2, 7)),
            Some((4, 5)),
            Some((5, 5)),
            Some((6, 6))
        ]
    );
    // An alias sends the document to the RawValue path, which places it too.
    let aliased = "host: &h a.example\nport: 1\ntags: [*h]\n";
    let (slices, _) = both(aliased, Format::Yaml, false);
    assert_eq!(slices, ["&h a.example", "1", "*h"]);
}

#[test]
fn toml_places_values_as_its_tree_does() {
    let text = "host = \"a.example\"\nport = 8080\ntags = [\"x\", 'why']\ntls = true\n";
    let (slices, lines) = both(text, Format::Toml, true);
    assert_eq!(slices, ["\"a.example\"", "8080", "\"x\"", "'why'", "true"]);
    assert_eq!(
        lines,
        [
            Some((1, 8)),
            Some((2, 8)),
            Some((3, 9)),
            Some((3, 14)),
            Some((4, 7))
        ]
    );
}

#[test]
fn a_toml_table_is_placed_by_the_raw_value_path() {
    #[derive(Decode, Debug)]
    struct App {
        server: Spanned<Server>,
    }
    let text = "[server]\nhost = \"h\"\nport = 1\ntags = []\n";
    let app: App = quarry::from_str(text, Format::Toml).unwrap();
    assert_eq!(app.server.port.span(), Span::new(27, 28));
    assert_eq!(app.server.position().map(|p| p.line), Some(1));
}

#[test]
fn xml_places_elements_as_its_tree_does() {
    let text = "<server>\n  <host>a.example</host>\n  <port>8080</port>\n  <tags>x</tags>\n  \
                <tags>why</tags>\n  <tls>true</tls>\n</server>";
    let (slices, lines) = both(text, Format::Xml, true);
    assert_eq!(
        slices,
        [
            "<host>a.example</host>",
            "<port>8080</port>",
            "<tags>x</tags>",
            "<tags>why</tags>",
            "<tls>true</tls>"
        ]
    );
    assert_eq!(lines[0], Some((2, 3)));
    // A lone child is a one-item list, placed as the element.
    let lone = "<server><host>h</host><port>1</port><tags>x</tags></server>";
    let (slices, _) = both(lone, Format::Xml, true);
    assert_eq!(
        slices,
        ["<host>h</host>", "<port>1</port>", "<tags>x</tags>"]
    );
    // An attribute is placed as the attribute.
    #[derive(Decode, Debug)]
    struct Tagged {
        #[quarry(rename = "@id")]
        id: Spanned<u32>,
    }
    let text = "<tagged id=\"7\"/>";
    let direct: Tagged = via_direct(text.as_bytes(), Format::Xml).unwrap();
    let raw: Tagged = via_raw(text.as_bytes(), Format::Xml);
    for tagged in [direct, raw] {
        let span = tagged.id.span();
        assert_eq!(&text[span.start..span.end], "id=\"7\"");
    }
    // Comments, CDATA and instructions do not end an element early.
    let text = "<server><host>h<!-- </host> --><![CDATA[</host>]]><?p </host>?></host>\
                <port>1</port><tags/><tags>y</tags></server>";
    let (slices, _) = both(text, Format::Xml, true);
    assert_eq!(
        slices,
        [
            "<host>h<!-- </host> --><![CDATA[</host>]]><?p </host>?></host>",
            "<port>1</port>",
            "<tags/>",
            "<tags>y</tags>"
        ]
    );
}

#[test]
fn plists_place_values_in_each_form() {
    let text = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n  \
                <key>host</key><string>h</string>\n  <key>port</key><integer>1</integer>\n  \
                <key>tags</key><array><string>x</string></array>\n  <key>tls</key><true/>\n\
                </dict>\n</plist>\n";
    let (slices, lines) = both(text, Format::Plist, false);
    assert_eq!(
        slices,
        [
            "<string>h</string>",
            "<integer>1</integer>",
            "<string>x</string>",
            "<true/>"
        ]
    );
    assert_eq!(lines[0], Some((4, 18)));
    // A binary plist has spans (its objects' bytes) and no lines.
    let server: Server = quarry::from_str(text, Format::Plist).unwrap();
    let binary = quarry::plist::to_vec_binary(&server).unwrap();
    let raw: Server = via_raw(&binary, Format::Plist);
    let read: Server = via_direct(&binary, Format::Plist).unwrap();
    assert_eq!(places(&read), places(&raw));
    for (span, line) in places(&raw) {
        assert!(span.start > 8 && span.end > span.start, "{span:?}");
        assert_eq!(line, None);
    }
    // The string object `h` is a one-byte header and the byte.
    assert_eq!(
        &binary[raw.host.span().start..raw.host.span().end],
        b"\x51h"
    );
}

#[test]
fn spanned_encodes_and_describes_itself_as_its_value() {
    let server: Server = quarry::from_str(
        "{\"host\": \"h\", \"port\": 1, \"tags\": [\"x\"]}",
        Format::Json,
    )
    .unwrap();
    assert_eq!(
        quarry::json::to_string(&server).unwrap(),
        "{\"host\":\"h\",\"port\":1,\"tags\":[\"x\"],\"tls\":null}"
    );
    assert_eq!(
        quarry::schema::<Vec<Option<Spanned<u16>>>>(),
        quarry::schema::<Vec<Option<u16>>>()
    );
    assert_eq!(
        quarry::schema::<Spanned<std::collections::BTreeMap<String, Spanned<bool>>>>(),
        quarry::schema::<std::collections::BTreeMap<String, bool>>()
    );
    assert_eq!(
        quarry::schema::<std::collections::HashMap<Spanned<String>, u16>>(),
        quarry::schema::<std::collections::HashMap<String, u16>>()
    );
}

#[test]
fn spanned_compares_as_its_value() {
    use std::collections::HashSet;
    let a = Spanned::new(Span::new(0, 1), "x".to_owned());
    let b = Spanned::new(Span::new(5, 6), "x".to_owned());
    assert_eq!(a, b);
    assert_eq!(a.cmp(&b), std::cmp::Ordering::Equal);
    let set: HashSet<Spanned<String>> = [a.clone()].into();
    assert!(set.contains(&b));
    assert!(set.contains("x"));
    assert_eq!(*a, "x");
    assert_eq!(a.get_ref(), "x");
    assert_eq!(a.clone().into_inner(), "x");
    let mut c = a.clone();
    c.get_mut().push('y');
    assert_eq!(c.as_str(), "xy");
    assert_eq!(c.span(), Span::new(0, 1));
    assert_eq!(format!("{a:?}"), "Spanned { value: \"x\", span: 0..1 }");
    assert_eq!(a.origin(), None);
    assert_eq!(a.position(), None);
    // A RawValue decoded by hand, its places not marked, gives the value without one.
    let bare = Spanned::<u16>::decode(quarry::RawValue::Int(5)).unwrap();
    assert_eq!(
        (*bare, bare.span(), bare.position()),
        (5, Span::default(), None)
    );
}

#[test]
fn a_missing_field_has_the_default_origin() {
    #[derive(Decode, Debug)]
    struct App {
        #[quarry(default)]
        workers: Spanned<u32>,
        name: Option<Spanned<String>>,
        label: Spanned<Option<String>>,
    }
    let app: App = quarry::from_str("{}", Format::Json).unwrap();
    assert_eq!(*app.workers, 0);
    assert_eq!(app.workers.origin(), Some(&Origin::Default));
    assert_eq!(app.name, None);
    assert_eq!(app.label.origin(), Some(&Origin::Default));
    assert_eq!(app.label.span(), Span::default());
}

#[derive(Decode, Debug)]
struct App {
    web: Web,
    admin: Web,
    #[quarry(default)]
    workers: Spanned<u32>,
}

#[derive(Decode, Debug)]
struct Web {
    host: Option<Spanned<String>>,
    port: Spanned<u16>,
}

#[test]
fn config_gives_each_value_its_origin() {
    let dir = std::env::temp_dir().join(format!("quarry-spanned-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("config")).unwrap();
    let base = dir.join("config/base.toml");
    std::fs::write(
        &base,
        "[web]\nhost = \"example.org\"\nport = 8080\n\n[admin]\nport = 80\n",
    )
    .unwrap();
    let app: App = Config::new()
        .file(&base)
        .env_vars("APP", [("APP_WEB_PORT", "80")])
        .set("web.host", "set.example")
        .load()
        .unwrap();
    let read: App = quarry::from_path(&base).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    // Read alone, the file places its values without an origin.
    assert_eq!(read.admin.port.span(), Span::new(55, 57));
    assert_eq!(read.admin.port.origin(), None);

    let file = base.display().to_string();
    assert_eq!(*app.admin.port, 80);
    assert_eq!(
        app.admin.port.origin().unwrap().to_string(),
        format!("{file}:6:8")
    );
    assert_eq!(app.admin.port.span(), Span::new(55, 57));
    assert_eq!(
        app.admin.port.position().map(|p| (p.line, p.column)),
        Some((6, 8))
    );
    assert_eq!(
        app.web.port.origin(),
        Some(&Origin::Env {
            name: "APP_WEB_PORT".to_owned()
        })
    );
    assert_eq!(app.web.port.position(), None);
    assert_eq!(app.web.host.as_ref().unwrap().origin(), Some(&Origin::Set));
    assert_eq!(app.admin.host, None);
    assert_eq!(app.workers.origin(), Some(&Origin::Default));
    // A value no document gave has no line and the empty span.
    let host = app.web.host.as_ref().unwrap();
    for (span, position) in [
        (app.web.port.span(), app.web.port.position()),
        (host.span(), host.position()),
        (app.workers.span(), app.workers.position()),
    ] {
        assert_eq!((span, position), (Span::default(), None));
    }

    // Validation after decoding, naming both places.
    let clash = (app.web.port == app.admin.port).then(|| {
        format!(
            "port {} is taken twice: {} and {}",
            *app.admin.port,
            app.admin.port.origin().unwrap(),
            app.web.port.origin().unwrap()
        )
    });
    assert_eq!(
        clash.unwrap(),
        format!("port 80 is taken twice: {file}:6:8 and environment variable APP_WEB_PORT")
    );
}

#[test]
fn config_places_values_of_every_format() {
    for (name, text, format, line) in [
        (
            "a.json",
            "{\"web\": {\"port\": 1},\n\"admin\": {\"port\": 2}}",
            Format::Json,
            2,
        ),
        (
            "a.yaml",
            "web:\n  port: 1\nadmin:\n  port: 2\n",
            Format::Yaml,
            4,
        ),
        (
            "a.xml",
            "<app><web><port>1</port></web>\n<admin><port>2</port></admin></app>",
            Format::Xml,
            2,
        ),
    ] {
        let app: App = Config::new().text(name, text, format).load().unwrap();
        let origin = app.admin.port.origin().unwrap();
        let Origin::File {
            position: Some(p), ..
        } = origin
        else {
            panic!("{origin:?}");
        };
        assert_eq!(p.line, line, "{name}");
        let span = app.admin.port.span();
        assert!(text[span.start..span.end].contains('2'), "{name}");
    }
}

fn server() -> impl Strategy<Value = (String, u16, Vec<String>, Option<bool>)> {
    (
        "[a-z][a-z0-9 .é-]{0,12}",
        any::<u16>(),
        proptest::collection::vec("[a-zA-Z0-9_]{1,8}", 0..4),
        any::<Option<bool>>(),
    )
}

proptest! {
    /// Every format with a direct path places every value where its RawValue path
    /// (through the format's tree) places it, whichever writer laid the document out.
    #[test]
    fn direct_and_raw_value_paths_place_values_alike(
        (host, port, tags, tls) in server(),
    ) {
        let span = Span::default();
        let server = Server {
            host: Spanned::new(span, host),
            port: Spanned::new(span, port),
            tags: tags.into_iter().map(|t| Spanned::new(span, t)).collect(),
            tls: tls.map(|t| Spanned::new(span, t)),
        };
        let mut documents = vec![
            (Format::Json, quarry::json::to_vec(&server).unwrap()),
            (Format::Json, quarry::json::to_vec_pretty(&server).unwrap()),
            (Format::Yaml, quarry::yaml::to_vec(&server).unwrap()),
            (Format::Xml, quarry::xml::to_vec_with_root(&server, "server").unwrap()),
        ];
        // TOML and plists have no null.
        if server.tls.is_some() {
            documents.push((Format::Toml, quarry::toml::to_vec(&server).unwrap()));
            documents.push((Format::Plist, quarry::plist::to_vec_binary(&server).unwrap()));
        }
        for (format, bytes) in &documents {
            let raw: Server = via_raw(bytes, *format);
            prop_assert_eq!(&raw, &server);
            let read = via_direct::<Server>(bytes, *format);
            prop_assert!(read.is_some(), "{} fell back", format);
            prop_assert_eq!(places(&read.unwrap()), places(&raw), "{}", format);
            for (span, _) in places(&raw) {
                prop_assert!(span.start < span.end && span.end <= bytes.len());
            }
        }
    }
}

#[test]
fn a_flattened_struct_places_its_values() {
    #[derive(Decode, Debug)]
    struct Outer {
        name: Spanned<String>,
        #[quarry(flatten)]
        inner: Inner,
    }
    #[derive(Decode, Debug)]
    struct Inner {
        port: Spanned<u16>,
    }
    let text = "{\"name\": \"n\", \"port\": 7}";
    let outer: Outer = quarry::from_str(text, Format::Json).unwrap();
    assert_eq!(outer.name.span(), Span::new(9, 12));
    assert_eq!(outer.inner.port.span(), Span::new(22, 23));
    // A flattened map takes the keys no field has, each value placed.
    #[derive(Decode, Debug)]
    struct Rest {
        name: Spanned<String>,
        #[quarry(flatten)]
        rest: std::collections::BTreeMap<String, Spanned<u16>>,
    }
    for (text, format) in [
        (
            "name: n
z: 8
",
            Format::Yaml,
        ),
        ("name = \"n\"\nz = 8\n", Format::Toml),
        ("<r><name>n</name><z>8</z></r>", Format::Xml),
    ] {
        let rest: Rest = quarry::from_str(text, format).unwrap();
        let span = rest.rest["z"].span();
        assert!(text[span.start..span.end].contains('8'), "{format}");
        assert!(rest.name.span().end > rest.name.span().start, "{format}");
    }
}

#[test]
fn enums_place_their_contents_on_both_paths() {
    #[derive(Decode, Debug, PartialEq)]
    enum External {
        Tcp { port: Spanned<u16> },
        Unix(Spanned<String>),
    }
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(tag = "kind")]
    enum Internal {
        Tcp { port: Spanned<u16> },
    }
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(tag = "kind", content = "with")]
    enum Adjacent {
        Unix(Spanned<String>),
    }
    #[derive(Decode, Debug, PartialEq)]
    struct Listeners {
        external: Vec<External>,
        internal: Internal,
        adjacent: Adjacent,
    }
    let text = "{\"external\": [{\"Tcp\": {\"port\": 80}}, {\"Unix\": \"/run/a\"}], \
                \"internal\": {\"kind\": \"Tcp\", \"port\": 81}, \
                \"adjacent\": {\"kind\": \"Unix\", \"with\": \"/run/b\"}}";
    let raw: Listeners = via_raw(text.as_bytes(), Format::Json);
    let spans = |l: &Listeners| {
        let mut out = Vec::new();
        for e in &l.external {
            out.push(match e {
                External::Tcp { port } => port.span(),
                External::Unix(path) => path.span(),
            });
        }
        let Internal::Tcp { port } = &l.internal;
        let Adjacent::Unix(path) = &l.adjacent;
        out.extend([port.span(), path.span()]);
        out.into_iter()
            .map(|s| &text[s.start..s.end])
            .collect::<Vec<_>>()
    };
    assert_eq!(spans(&raw), ["80", "\"/run/a\"", "81", "\"/run/b\""]);
    if let Some(read) = via_direct::<Listeners>(text.as_bytes(), Format::Json) {
        assert_eq!(spans(&read), spans(&raw));
    }
    let facade: Listeners = quarry::from_str(text, Format::Json).unwrap();
    assert_eq!(spans(&facade), spans(&raw));
}

/// An untagged enum whose variants hold `Spanned` at the same places as variants that
/// do not: each variant is tried with the places of its own shape.
#[derive(Decode, Encode, Debug, Clone, PartialEq)]
#[quarry(untagged)]
enum Listen {
    Port(Spanned<u16>),
    Tcp { host: Spanned<String>, port: u16 },
    Numbered { path: u32 },
    Unix { path: Spanned<String> },
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
struct Listeners {
    listen: Vec<Listen>,
    main: Spanned<Listen>,
}

/// Every span an untagged `Listeners` holds, in order.
fn listen_spans(l: &Listeners) -> Vec<Span> {
    let mut out = Vec::new();
    for listen in l.listen.iter().chain([l.main.get_ref()]) {
        match listen {
            Listen::Port(port) => out.push(port.span()),
            Listen::Tcp { host, .. } => out.push(host.span()),
            Listen::Numbered { .. } => {}
            Listen::Unix { path } => out.push(path.span()),
        }
    }
    out.push(l.main.span());
    out
}

#[test]
fn untagged_variants_place_their_values_in_every_format() {
    let s = |v: &str| Spanned::new(Span::default(), v.to_owned());
    let listeners = Listeners {
        listen: vec![
            Listen::Port(Spanned::new(Span::default(), 8080)),
            Listen::Tcp {
                host: s("h.example"),
                port: 1,
            },
            Listen::Numbered { path: 5 },
            Listen::Unix { path: s("/run/a") },
        ],
        main: Spanned::new(Span::default(), Listen::Unix { path: s("/run/b") }),
    };
    let documents = [
        (Format::Json, quarry::json::to_vec(&listeners).unwrap()),
        (Format::Yaml, quarry::yaml::to_vec(&listeners).unwrap()),
        (Format::Toml, quarry::toml::to_vec(&listeners).unwrap()),
        (
            Format::Xml,
            quarry::xml::to_vec_with_root(&listeners, "l").unwrap(),
        ),
        (
            Format::Plist,
            quarry::plist::to_vec_binary(&listeners).unwrap(),
        ),
    ];
    for (format, bytes) in &documents {
        let raw: Listeners = via_raw(bytes, *format);
        assert_eq!(raw, listeners, "{format}");
        let spans = listen_spans(&raw);
        for span in &spans {
            assert!(
                span.start < span.end && span.end <= bytes.len(),
                "{format}: {spans:?}"
            );
        }
        if *format != Format::Plist {
            let text = std::str::from_utf8(bytes).unwrap();
            let covered: Vec<&str> = spans.iter().map(|s| &text[s.start..s.end]).collect();
            for (covered, value) in covered
                .iter()
                .zip(["8080", "h.example", "/run/a", "/run/b"])
            {
                assert!(covered.contains(value), "{format}: {covered:?} in {text}");
            }
        }
        if let Some(read) = via_direct::<Listeners>(bytes, *format) {
            assert_eq!(read, listeners, "{format}");
            assert_eq!(listen_spans(&read), spans, "{format}");
        }
        let facade: Listeners = quarry::from_slice(bytes, *format).unwrap();
        assert_eq!(listen_spans(&facade), spans, "{format}");
        if *format != Format::Plist {
            let text = std::str::from_utf8(bytes).unwrap();
            let loaded: Listeners = Config::new().text("a", text, *format).load().unwrap();
            assert_eq!(listen_spans(&loaded), spans, "{format}");
            let Listen::Unix { path } = loaded.main.get_ref() else {
                panic!("{loaded:?}");
            };
            assert!(
                matches!(path.origin(), Some(Origin::File { .. })),
                "{format}"
            );
        }
    }
}

#[test]
fn untagged_variants_read_directly_place_their_values() {
    let spans = addr_spans;
    let addrs = Addrs {
        addrs: vec![
            Addr::Unix {
                path: Spanned::new(Span::default(), "/run/a".to_owned()),
            },
            Addr::Port(Spanned::new(Span::default(), 80)),
        ],
    };
    for (format, bytes) in [
        (Format::Json, quarry::json::to_vec(&addrs).unwrap()),
        (Format::Yaml, quarry::yaml::to_vec(&addrs).unwrap()),
        (Format::Toml, quarry::toml::to_vec(&addrs).unwrap()),
        (Format::Plist, quarry::plist::to_vec_binary(&addrs).unwrap()),
    ] {
        let read: Addrs = via_direct(&bytes, format).unwrap();
        let raw: Addrs = via_raw(&bytes, format);
        assert_eq!((&read, &raw), (&addrs, &addrs), "{format}");
        assert_eq!(spans(&read), spans(&raw), "{format}");
        assert!(spans(&raw).iter().all(|s| s.start < s.end), "{format}");
    }
}

#[test]
fn a_value_from_a_file_variable_has_its_origin_and_no_span() {
    #[derive(Decode, Debug)]
    struct Db {
        user: Spanned<String>,
        host: Spanned<String>,
    }
    let dir = std::env::temp_dir().join(format!("quarry-spanned-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let user = dir.join("user");
    std::fs::write(&user, "admin\n").unwrap();
    let db: Db = Config::new()
        .text("db.toml", "user = \"root\"\nhost = \"h\"\n", Format::Toml)
        .env_vars("APP", [("APP_USER_FILE", user.to_str().unwrap())])
        .load()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(db.user.get_ref(), "admin");
    assert_eq!(
        db.user.origin(),
        Some(&Origin::SecretFile {
            path: user.display().to_string(),
            variable: "APP_USER_FILE".to_owned(),
        })
    );
    assert_eq!(
        (db.user.span(), db.user.position()),
        (Span::default(), None)
    );
    // The document's value beside it keeps its place.
    assert_eq!(db.host.span(), Span::new(21, 24));
    assert_eq!(db.host.position().map(|p| p.line), Some(2));
}

#[test]
fn wrappers_maps_and_tagged_enums_place_their_values_in_every_format() {
    use std::collections::BTreeMap;
    #[derive(Decode, Encode, Debug, Clone, PartialEq)]
    struct Port(Spanned<u16>);
    #[derive(Decode, Encode, Debug, Clone, PartialEq)]
    struct Tcp {
        port: Spanned<u16>,
    }
    #[derive(Decode, Encode, Debug, Clone, PartialEq)]
    #[quarry(tag = "kind")]
    enum Internal {
        Tcp(Tcp),
    }
    #[derive(Decode, Encode, Debug, Clone, PartialEq)]
    #[quarry(tag = "kind", content = "with")]
    enum Adjacent {
        Tcp { port: Spanned<u16> },
    }
    #[derive(Decode, Encode, Debug, Clone, PartialEq)]
    struct All {
        newtype: Port,
        boxed: Box<Spanned<u16>>,
        map: BTreeMap<String, Spanned<u16>>,
        internal: Internal,
        adjacent: Adjacent,
        servers: Vec<Spanned<Tcp>>,
        label: Spanned<Option<String>>,
    }
    let s = |n: u16| Spanned::new(Span::default(), n);
    let all = All {
        newtype: Port(s(1)),
        boxed: Box::new(s(2)),
        map: [("a".to_owned(), s(3))].into(),
        internal: Internal::Tcp(Tcp { port: s(4) }),
        adjacent: Adjacent::Tcp { port: s(5) },
        servers: vec![Spanned::new(Span::default(), Tcp { port: s(6) })],
        label: Spanned::new(Span::default(), Some("seven".to_owned())),
    };
    let spans = |a: &All| {
        let Internal::Tcp(t) = &a.internal;
        let Adjacent::Tcp { port } = &a.adjacent;
        vec![
            a.newtype.0.span(),
            a.boxed.span(),
            a.map["a"].span(),
            t.port.span(),
            port.span(),
            a.servers[0].port.span(),
            a.servers[0].span(),
            a.label.span(),
        ]
    };
    for (format, bytes) in [
        (Format::Json, quarry::json::to_vec(&all).unwrap()),
        (Format::Yaml, quarry::yaml::to_vec(&all).unwrap()),
        (Format::Toml, quarry::toml::to_vec(&all).unwrap()),
        (
            Format::Xml,
            quarry::xml::to_vec_with_root(&all, "all").unwrap(),
        ),
        (Format::Plist, quarry::plist::to_vec_binary(&all).unwrap()),
    ] {
        let raw: All = via_raw(&bytes, format);
        assert_eq!(raw, all, "{format}");
        let got = spans(&raw);
        assert!(got.iter().all(|s| s.start < s.end && s.end <= bytes.len()));
        if let Ok(text) = std::str::from_utf8(&bytes) {
            // Each value's own text, and the server's whole table or element.
            let values = ["1", "2", "3", "4", "5", "6", "port", "seven"];
            for (span, value) in got.iter().zip(values) {
                let covered = &text[span.start..span.end];
                assert!(covered.contains(value), "{format}: {covered:?} in {text}");
            }
        }
        if let Some(read) = via_direct::<All>(&bytes, format) {
            assert_eq!(spans(&read), got, "{format}");
        }
        let facade: All = quarry::from_slice(&bytes, format).unwrap();
        assert_eq!(spans(&facade), got, "{format}");
    }
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
struct Keyed {
    ports: std::collections::BTreeMap<Spanned<String>, Spanned<u16>>,
    hosts: std::collections::HashMap<Spanned<String>, String>,
}

#[test]
fn spanned_keys_keep_their_own_place_in_every_format() {
    let s = |v: &str| Spanned::new(Span::default(), v.to_owned());
    let keyed = Keyed {
        ports: [
            (s("web"), Spanned::new(Span::default(), 80)),
            (s("admin"), Spanned::new(Span::default(), 81)),
        ]
        .into(),
        hosts: [(s("db"), "db.example".to_owned())].into(),
    };
    let key_spans = |k: &Keyed| {
        let mut out: Vec<(String, Span, Span)> = k
            .ports
            .iter()
            .map(|(key, port)| (key.get_ref().clone(), key.span(), port.span()))
            .collect();
        out.extend(
            k.hosts
                .keys()
                .map(|key| (key.get_ref().clone(), key.span(), Span::default())),
        );
        out
    };
    for (format, bytes) in [
        (Format::Json, quarry::json::to_vec(&keyed).unwrap()),
        (Format::Yaml, quarry::yaml::to_vec(&keyed).unwrap()),
        (Format::Toml, quarry::toml::to_vec(&keyed).unwrap()),
        (
            Format::Xml,
            quarry::xml::to_vec_with_root(&keyed, "k").unwrap(),
        ),
        (Format::Plist, quarry::plist::to_vec(&keyed).unwrap()),
        (Format::Plist, quarry::plist::to_vec_binary(&keyed).unwrap()),
    ] {
        let raw: Keyed = via_raw(&bytes, format);
        assert_eq!(raw, keyed, "{format}");
        // A source hands out a key's text only: the direct path leaves such maps to the
        // RawValue path.
        assert!(via_direct::<Keyed>(&bytes, format).is_none(), "{format}");
        let facade: Keyed = quarry::from_slice(&bytes, format).unwrap();
        let spans = key_spans(&raw);
        assert_eq!(key_spans(&facade), spans, "{format}");
        for (key, span, value) in &spans {
            assert!(span.start < span.end && span.end <= bytes.len(), "{format}");
            // The key comes before its value (an XML element's tag name is inside it).
            if format != Format::Xml {
                assert!(
                    value.start == 0 || span.end <= value.start,
                    "{format}: {key}"
                );
            }
            if let Ok(text) = std::str::from_utf8(&bytes) {
                let covered = &text[span.start..span.end];
                assert!(covered.contains(key.as_str()), "{format}: {covered:?}");
                // An XML plist's key is its `<key>` element, as its values are theirs.
                if format == Format::Plist {
                    assert_eq!(covered, format!("<key>{key}</key>"));
                } else {
                    assert!(covered.len() <= key.len() + 2, "{format}: {covered:?}");
                }
            }
        }
        // Looked up by the value alone.
        assert_eq!(*facade.ports["web"], 80);
        assert_eq!(facade.hosts["db"], "db.example");
    }
    // JSON's key is placed with its quotes, on its line.
    let text = "{\"ports\": {\n  \"web\": 80}, \"hosts\": {}}";
    let keyed: Keyed = quarry::from_str(text, Format::Json).unwrap();
    let (web, _) = keyed.ports.iter().next().unwrap();
    assert_eq!(&text[web.span().start..web.span().end], "\"web\"");
    assert_eq!(web.position().map(|p| (p.line, p.column)), Some((2, 3)));
    // Through Config, a key has its file's origin.
    let loaded: Keyed = Config::new()
        .text("k.json", text, Format::Json)
        .load()
        .unwrap();
    let (web, _) = loaded.ports.iter().next().unwrap();
    assert_eq!(web.span(), Span::new(14, 19));
    assert!(matches!(web.origin(), Some(Origin::File { position: Some(p), .. }) if p.line == 2));
    // A key an environment variable adds has its origin, the empty span and no line.
    let loaded: Keyed = Config::new()
        .text("k.json", text, Format::Json)
        .env_vars("APP", [("APP_PORTS_API", "90")])
        .load()
        .unwrap();
    let (api, port) = loaded.ports.iter().next().unwrap();
    assert_eq!((api.get_ref().as_str(), **port), ("api", 90));
    let env = Origin::Env {
        name: "APP_PORTS_API".to_owned(),
    };
    assert_eq!(api.origin(), Some(&env));
    assert_eq!((api.span(), api.position()), (Span::default(), None));
    assert_eq!(loaded.ports["web"].span(), Span::new(21, 23));
}

#[test]
fn spanned_keys_of_a_flattened_map_and_xml_attributes_are_placed() {
    #[derive(Decode, Debug)]
    struct Rest {
        name: String,
        #[quarry(flatten)]
        rest: std::collections::BTreeMap<Spanned<String>, String>,
    }
    for (text, format, key) in [
        (
            "{\"name\": \"n\", \"extra\": \"x\"}",
            Format::Json,
            "\"extra\"",
        ),
        ("name: n\nextra: x\n", Format::Yaml, "extra"),
        ("name = \"n\"\nextra = \"x\"\n", Format::Toml, "extra"),
        ("<r extra=\"x\"><name>n</name></r>", Format::Xml, "extra"),
    ] {
        let rest: Rest = quarry::from_str(text, format).unwrap();
        assert_eq!(rest.name, "n");
        let (k, v) = rest.rest.iter().next().unwrap();
        assert_eq!(v, "x", "{format}");
        assert_eq!(&text[k.span().start..k.span().end], key, "{format}");
        assert!(k.position().is_some(), "{format}");
    }
    // An XML element read as a map: its attributes' names, its text.
    let text = "<m a=\"1\">words</m>";
    let m: std::collections::BTreeMap<Spanned<String>, String> =
        quarry::from_str(text, Format::Xml).unwrap();
    let keys: Vec<(&str, &str)> = m
        .keys()
        .map(|k| (k.as_str(), &text[k.span().start..k.span().end]))
        .collect();
    assert_eq!(keys, [("$text", "words"), ("@a", "a")]);
}

#[test]
fn yaml_merge_keys_place_the_keys_and_values_they_bring() {
    #[derive(Decode, Debug)]
    struct Doc {
        base: std::collections::BTreeMap<Spanned<String>, Spanned<u16>>,
        web: std::collections::BTreeMap<Spanned<String>, Spanned<u16>>,
    }
    let text = "base: &b\n  port: 80\nweb:\n  <<: *b\n  workers: 4\n";
    let doc: Doc = quarry::from_str(text, Format::Yaml).unwrap();
    let covered = |s: Span| &text[s.start..s.end];
    let places: Vec<(&str, &str)> = doc
        .web
        .iter()
        .map(|(k, v)| (covered(k.span()), covered(v.span())))
        .collect();
    assert_eq!(places, [("port", "80"), ("workers", "4")]);
    let (port, _) = doc.web.iter().next().unwrap();
    assert_eq!(port.position().map(|p| p.line), Some(2));
    // The same entry read where it was written.
    let (base, _) = doc.base.iter().next().unwrap();
    assert_eq!(base.span(), port.span());
}

#[test]
fn a_direct_attempt_never_picks_another_variant_for_want_of_a_place() {
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(untagged)]
    enum Port {
        Placed(Spanned<u16>),
        Plain(u16),
    }
    // A flattened field: the direct attempt reads the struct as a RawValue, unplaced.
    #[derive(Decode, Debug)]
    struct Listen {
        port: Port,
        #[quarry(flatten)]
        rest: std::collections::BTreeMap<String, u16>,
    }
    let text = "{\"port\": 80, \"backlog\": 5}";
    if let Some(read) = via_direct::<Listen>(text.as_bytes(), Format::Json) {
        assert!(matches!(read.port, Port::Placed(_)), "{read:?}");
    }
    let listen: Listen = quarry::from_str(text, Format::Json).unwrap();
    assert_eq!(listen.rest["backlog"], 5);
    let Port::Placed(port) = &listen.port else {
        panic!("{listen:?}");
    };
    assert_eq!(port.span(), Span::new(9, 11));
}

/// A listener the direct path reads in every format: a port, or a socket's path.
#[derive(Decode, Encode, Debug, Clone, PartialEq)]
#[quarry(untagged)]
enum Addr {
    Port(Spanned<u16>),
    Unix { path: Spanned<String> },
}

#[derive(Decode, Encode, Debug, Clone, PartialEq)]
struct Addrs {
    addrs: Vec<Addr>,
}

fn addr_spans(addrs: &Addrs) -> Vec<Span> {
    addrs
        .addrs
        .iter()
        .map(|a| match a {
            Addr::Port(port) => port.span(),
            Addr::Unix { path } => path.span(),
        })
        .collect()
}

proptest! {
    /// Under an untagged enum too, the direct path places every value where the
    /// RawValue path (each variant tried with its own places) places it.
    #[test]
    fn untagged_variants_are_placed_alike_on_both_paths(
        addrs in proptest::collection::vec(
            prop_oneof![
                any::<u16>().prop_map(|p| Addr::Port(Spanned::new(Span::default(), p))),
                "/[a-z]{1,8}".prop_map(|p| Addr::Unix { path: Spanned::new(Span::default(), p) }),
            ],
            1..5,
        ),
    ) {
        let addrs = Addrs { addrs };
        for (format, bytes) in [
            (Format::Json, quarry::json::to_vec(&addrs).unwrap()),
            (Format::Yaml, quarry::yaml::to_vec(&addrs).unwrap()),
            (Format::Toml, quarry::toml::to_vec(&addrs).unwrap()),
            (Format::Xml, quarry::xml::to_vec_with_root(&addrs, "a").unwrap()),
            (Format::Plist, quarry::plist::to_vec_binary(&addrs).unwrap()),
        ] {
            let raw: Addrs = via_raw(&bytes, format);
            prop_assert_eq!(&raw, &addrs);
            let spans = addr_spans(&raw);
            for span in &spans {
                prop_assert!(span.start < span.end && span.end <= bytes.len(), "{}", format);
            }
            let read = via_direct::<Addrs>(&bytes, format);
            // XML's text may be a port or a path: it is left to the RawValue path.
            prop_assert!(read.is_some() || format == Format::Xml, "{} fell back", format);
            if let Some(read) = read {
                prop_assert_eq!(addr_spans(&read), spans, "{}", format);
            }
        }
    }
}

#[test]
fn flattened_enums_place_their_values() {
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(untagged)]
    enum Untagged {
        Tcp { port: Spanned<u16> },
        Named { path: u32 },
        Unix { path: Spanned<String> },
    }
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(tag = "type")]
    enum Internal {
        Tcp { port: Spanned<u16> },
    }
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(tag = "type", content = "with")]
    enum Adjacent {
        Unix(Spanned<String>),
    }
    #[derive(Decode, Debug, PartialEq)]
    enum External {
        Tcp { port: Spanned<u16> },
    }
    #[derive(Decode, Debug)]
    struct Listen<K> {
        name: String,
        #[quarry(flatten)]
        kind: K,
    }
    let span = |text: &str, s: Span| text[s.start..s.end].to_owned();
    for (text, format) in [
        ("{\"name\": \"n\", \"path\": \"/run\"}", Format::Json),
        ("name: n\npath: /run\n", Format::Yaml),
        ("name = \"n\"\npath = \"/run\"\n", Format::Toml),
        ("<l><name>n</name><path>/run</path></l>", Format::Xml),
    ] {
        let l: Listen<Untagged> = quarry::from_str(text, format).unwrap();
        assert_eq!(l.name, "n");
        let Untagged::Unix { path } = &l.kind else {
            panic!("{format}: {l:?}");
        };
        assert!(span(text, path.span()).contains("/run"), "{format}");
    }
    // The variant without a Spanned where another has one still reads its field.
    let l: Listen<Untagged> =
        quarry::from_str("{\"name\": \"n\", \"path\": 5}", Format::Json).unwrap();
    assert_eq!(l.kind, Untagged::Named { path: 5 });
    let text = "{\"name\": \"n\", \"port\": 5}";
    let l: Listen<Untagged> = quarry::from_str(text, Format::Json).unwrap();
    let Untagged::Tcp { port } = &l.kind else {
        panic!("{l:?}");
    };
    assert_eq!(span(text, port.span()), "5");

    let text = "{\"name\": \"n\", \"type\": \"Tcp\", \"port\": 5}";
    let l: Listen<Internal> = quarry::from_str(text, Format::Json).unwrap();
    let Internal::Tcp { port } = &l.kind;
    assert_eq!(span(text, port.span()), "5");
    let text = "{\"name\": \"n\", \"type\": \"Unix\", \"with\": \"/run\"}";
    let l: Listen<Adjacent> = quarry::from_str(text, Format::Json).unwrap();
    let Adjacent::Unix(path) = &l.kind;
    assert_eq!(span(text, path.span()), "\"/run\"");
    let text = "{\"name\": \"n\", \"Tcp\": {\"port\": 5}}";
    let l: Listen<External> = quarry::from_str(text, Format::Json).unwrap();
    let External::Tcp { port } = &l.kind;
    assert_eq!(span(text, port.span()), "5");
}

#[test]
fn each_of_several_flattened_fields_reads_its_own_marks() {
    #[derive(Decode, Debug, PartialEq)]
    #[quarry(untagged)]
    enum Kind {
        Tcp { port: Spanned<u16> },
        Unix { path: String },
    }
    #[derive(Decode, Debug)]
    struct Listen<'a> {
        name: String,
        #[quarry(flatten)]
        kind: Kind,
        #[quarry(flatten)]
        rest: std::collections::BTreeMap<String, quarry::RawValue<'a>>,
    }
    #[derive(Decode, Debug)]
    struct Tls {
        port: Spanned<u16>,
    }
    #[derive(Decode, Debug)]
    struct Served {
        #[quarry(flatten)]
        counts: std::collections::BTreeMap<String, u16>,
        #[quarry(flatten)]
        tls: Tls,
    }
    let span = |text: &str, s: Span| text[s.start..s.end].to_owned();
    for (text, format) in [
        (
            "{\"name\": \"n\", \"port\": 5, \"owner\": \"me\"}",
            Format::Json,
        ),
        ("name: n\nport: 5\nowner: me\n", Format::Yaml),
        ("name = \"n\"\nport = 5\nowner = \"me\"\n", Format::Toml),
    ] {
        let l: Listen = quarry::from_str(text, format).unwrap();
        assert_eq!(l.name, "n");
        let Kind::Tcp { port } = &l.kind else {
            panic!("{format}: {l:?}");
        };
        assert_eq!(span(text, port.span()), "5", "{format}");
        // The map beside the enum sees the entries as the document gave them.
        assert_eq!(
            l.rest.get("port"),
            Some(&quarry::RawValue::from(5u64)),
            "{format}"
        );
        assert_eq!(l.rest.len(), 2, "{format}: {l:?}");
    }
    // A flattened map before a flattened struct: the struct's Spanned is still placed.
    for (text, format) in [
        ("{\"workers\": 4, \"port\": 5}", Format::Json),
        ("workers: 4\nport: 5\n", Format::Yaml),
        ("workers = 4\nport = 5\n", Format::Toml),
    ] {
        let s: Served = quarry::from_str(text, format).unwrap();
        assert_eq!(s.counts.get("port"), Some(&5), "{format}: {s:?}");
        assert_eq!(s.counts.get("workers"), Some(&4), "{format}: {s:?}");
        assert_eq!(span(text, s.tls.port.span()), "5", "{format}");
    }
}
