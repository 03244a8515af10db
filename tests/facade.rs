//! The facade: format detection, one-call decoding, positions on decode errors.

use std::collections::{BTreeMap, HashMap};

use quarry::decode::DecodeErrorKind;
use quarry::{Error, Format, RawValue};

#[test]
fn formats_come_from_extensions() {
    assert_eq!(Format::from_path("a/b/config.JSON"), Some(Format::Json));
    assert_eq!(Format::from_path("x.yml"), Some(Format::Yaml));
    assert_eq!(Format::from_path("project.pbxproj"), Some(Format::Plist));
    assert_eq!(Format::from_path("Makefile"), None);
    assert_eq!("toml".parse::<Format>(), Ok(Format::Toml));
    assert!("ini".parse::<Format>().is_err());
    assert!(Format::Json.is_supported());
}

#[test]
fn decode_errors_carry_paths_and_positions() {
    let src = "{\n  \"servers\": [\n    {\"port\": 80},\n    {\"port\": \"http\"},\n    {\"port\": 70000}\n  ]\n}";
    let err = quarry::from_str::<BTreeMap<String, Vec<BTreeMap<String, u16>>>>(src, Format::Json)
        .unwrap_err();
    let Error::Decode(errors) = err else {
        panic!("{err}")
    };
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "servers[1].port: expected integer, found string \"http\" at line 4, column 14",
            "servers[2].port: expected integer in 0..=65535, found 70000 at line 5, column 14",
        ]
    );
    assert!(matches!(
        errors.iter().next().unwrap().kind,
        DecodeErrorKind::InvalidType { .. }
    ));
}

#[test]
fn parse_errors_come_through_with_positions() {
    let err = quarry::from_slice::<RawValue>(b"[1,\n2", Format::Json).unwrap_err();
    let Error::Parse(parse) = &err else {
        panic!("{err}")
    };
    assert_eq!((parse.position().line, parse.position().column), (2, 2));
    assert_eq!(
        err.to_string(),
        "unexpected end of input at line 2, column 2"
    );
}

#[test]
fn from_path_reads_the_example_config() {
    let dir = std::env::temp_dir().join(format!("quarry-facade-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("limits.json");
    std::fs::write(&path, r#"{"cpu": [1, 2], "memory": [512]}"#).unwrap();
    let limits: HashMap<String, Vec<u32>> = quarry::from_path(&path).unwrap();
    assert_eq!(limits["memory"], [512]);
    let example =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/config.json")).unwrap();
    let config: HashMap<String, RawValue> = quarry::from_slice(&example, Format::Json).unwrap();
    assert_eq!(config["name"], RawValue::String("quarry-demo".into()));
    let missing = quarry::from_path::<Vec<u8>>("/no/such/config.json").unwrap_err();
    assert!(matches!(missing, Error::Io { .. }));
    let unknown = quarry::from_path::<Vec<u8>>("/etc/hostname").unwrap_err();
    assert!(matches!(unknown, Error::UnknownFormat(_)));
}

#[test]
fn toml_configs_decode_and_errors_point_into_the_file() {
    #[derive(quarry::Decode, Debug, PartialEq)]
    struct Server {
        host: String,
        #[quarry(range = 1..=65535)]
        port: u16,
    }
    #[derive(quarry::Decode, Debug, PartialEq)]
    struct Config {
        name: String,
        released: quarry::Datetime,
        released_text: String,
        servers: Vec<Server>,
    }
    let text = "name = \"demo\"\nreleased = 2024-05-01T10:00:00Z\nreleased_text = 2024-05-01\n\n\
                [[servers]]\nhost = \"a\"\nport = 80\n\n[[servers]]\nhost = \"b\"\nport = 0\n";
    let err = quarry::from_str::<Config>(text, Format::Toml).unwrap_err();
    assert_eq!(
        err.to_string(),
        "servers[1].port: expected integer in 1..=65535, found 0 at line 11, column 8"
    );
    let fixed = text.replace("port = 0", "port = 8080");
    let config: Config = quarry::from_str(&fixed, Format::Toml).unwrap();
    assert_eq!(
        config.servers[1],
        Server {
            host: "b".into(),
            port: 8080
        }
    );
    assert_eq!(config.released.to_string(), "2024-05-01T10:00:00Z");
    assert_eq!(config.released_text, "2024-05-01");
    let parse = quarry::check(b"a = 1\na = 2", Format::Toml).unwrap_err();
    assert_eq!(parse.to_string(), "duplicate key `a` at line 2, column 1");
    let mut value = BTreeMap::new();
    value.insert("ports".to_string(), vec![80u16, 443]);
    assert_eq!(
        quarry::to_string(&value, Format::Toml).unwrap(),
        "ports = [80, 443]\n"
    );
}

#[test]
fn encode_round_trips_through_the_facade() {
    let mut value = BTreeMap::new();
    value.insert("ports".to_string(), vec![80u16, 443]);
    let text = quarry::to_string(&value, Format::Json).unwrap();
    assert_eq!(text, "{\n  \"ports\": [\n    80,\n    443\n  ]\n}");
    let back: BTreeMap<String, Vec<u16>> = quarry::from_str(&text, Format::Json).unwrap();
    assert_eq!(back, value);
}

#[test]
fn borrowed_fields_borrow_from_the_input() {
    let src = br#"{"a": "plain", "b": "esc\naped"}"#;
    let map: BTreeMap<&str, std::borrow::Cow<str>> = quarry::from_slice(src, Format::Json).unwrap();
    assert!(matches!(map["a"], std::borrow::Cow::Borrowed("plain")));
    assert!(matches!(map["b"], std::borrow::Cow::Owned(_)));
    let err = quarry::from_slice::<BTreeMap<&str, &str>>(src, Format::Json).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("b: expected a string borrowed from the input"),
        "{err}"
    );
}

#[test]
fn toml_datetimes_decode_into_chrono_types() {
    #[derive(quarry::Decode, Debug)]
    struct Release {
        at: chrono::DateTime<chrono::Utc>,
        day: chrono::NaiveDate,
        local: chrono::NaiveDateTime,
    }
    let text = "at = 2026-11-30T10:00:00+01:00\nday = 2026-11-30\nlocal = 2026-11-30T10:00:00\n";
    let release: Release = quarry::from_str(text, Format::Toml).unwrap();
    assert_eq!(release.at.to_rfc3339(), "2026-11-30T09:00:00+00:00");
    assert_eq!(release.day.to_string(), "2026-11-30");
    assert_eq!(release.local.to_string(), "2026-11-30 10:00:00");
    let wrong = quarry::from_str::<Release>(
        &text.replace("day = 2026-11-30", "day = 10:00:00"),
        Format::Toml,
    )
    .unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "day: expected local date, found datetime 10:00:00 at line 2, column 7"
    );
}

#[test]
fn xml_structs_decode_from_the_root_with_xml_sequence_rules() {
    #[derive(quarry::Decode, Debug, PartialEq)]
    struct Server {
        #[quarry(rename = "@name")]
        name: String,
        port: u16,
        alias: Vec<String>,
    }
    #[derive(quarry::Decode, Debug, PartialEq)]
    struct Config {
        server: Vec<Server>,
        debug: bool,
    }
    let text = "<config>\n  <server name=\"a\"><port>80</port><alias>x</alias></server>\n  \
                <server name=\"b\"><port>81</port></server>\n  <debug>true</debug>\n</config>";
    let config: Config = quarry::from_str(text, Format::Xml).unwrap();
    assert_eq!(config.server.len(), 2);
    assert_eq!(config.server[0].alias, ["x"]);
    assert!(config.server[1].alias.is_empty());
    assert!(config.debug);
    // The same rule is not applied to other formats: a sequence is required there.
    let json = quarry::from_str::<Config>(
        r#"{"server": {"@name": "a", "port": 1, "alias": []}, "debug": true}"#,
        Format::Json,
    );
    assert!(json.is_err());
    let err = quarry::from_str::<Config>(
        &text.replace("<port>81</port>", "<port>http</port>"),
        Format::Xml,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "server[1].port: expected integer, found text \"http\" at line 3, column 20"
    );
}
