//! `quarry::to_string_documented`: a value written with its fields' doc comments above
//! their keys, reading back as the same value.

use quarry::{Decode, Encode, Format};

/// The application's settings.
#[derive(Decode, Encode, Debug, PartialEq)]
struct Settings {
    /// A name for the logs.
    name: String,
    /// Where the server listens.
    server: Server,
    /// Extra workers; none by default.
    workers: Option<u32>,
    /// The upstreams, tried in order.
    upstreams: Vec<Upstream>,
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct Server {
    /// The host name or address.
    host: String,
    /// The port.
    ///
    /// Below 1024 needs privileges.
    port: u16,
}

#[derive(Decode, Encode, Debug, PartialEq)]
struct Upstream {
    /// The upstream's URL.
    url: String,
    weight: u8,
}

fn settings() -> Settings {
    Settings {
        name: "api".into(),
        server: Server {
            host: "localhost".into(),
            port: 8080,
        },
        workers: None,
        upstreams: vec![
            Upstream {
                url: "http://a".into(),
                weight: 1,
            },
            Upstream {
                url: "http://b".into(),
                weight: 2,
            },
        ],
    }
}

#[test]
fn toml_templates_carry_the_doc_comments() {
    let text = quarry::to_string_documented(&settings(), Format::Toml).unwrap();
    assert_eq!(
        text,
        "# A name for the logs.\n\
         name = \"api\"\n\
         \n\
         # Where the server listens.\n\
         [server]\n\
         # The host name or address.\n\
         host = \"localhost\"\n\
         # The port.\n\
         #\n\
         # Below 1024 needs privileges.\n\
         port = 8080\n\
         \n\
         # The upstreams, tried in order.\n\
         [[upstreams]]\n\
         # The upstream's URL.\n\
         url = \"http://a\"\n\
         weight = 1\n\
         \n\
         [[upstreams]]\n\
         # The upstream's URL.\n\
         url = \"http://b\"\n\
         weight = 2\n"
    );
    assert_eq!(
        quarry::from_str::<Settings>(&text, Format::Toml).unwrap(),
        settings()
    );
}

#[test]
fn yaml_templates_carry_the_doc_comments() {
    let text = quarry::to_string_documented(&settings(), Format::Yaml).unwrap();
    assert_eq!(
        text,
        "# A name for the logs.\n\
         name: api\n\
         # Where the server listens.\n\
         server:\n  \
           # The host name or address.\n  \
           host: localhost\n  \
           # The port.\n  \
           #\n  \
           # Below 1024 needs privileges.\n  \
           port: 8080\n\
         # Extra workers; none by default.\n\
         workers: null\n\
         # The upstreams, tried in order.\n\
         upstreams:\n  \
           # The upstream's URL.\n  \
           - url: http://a\n    \
             weight: 1\n  \
           # The upstream's URL.\n  \
           - url: http://b\n    \
             weight: 2\n"
    );
    assert_eq!(
        quarry::from_str::<Settings>(&text, Format::Yaml).unwrap(),
        settings()
    );
}

#[test]
fn jsonc_templates_carry_the_doc_comments() {
    let text = quarry::to_string_documented(&settings(), Format::Jsonc).unwrap();
    assert!(
        text.starts_with("{\n  // A name for the logs.\n  \"name\": \"api\",\n  // Where the server listens.\n  \"server\": {\n    // The host name or address.\n    \"host\": \"localhost\",\n"),
        "{text}"
    );
    assert_eq!(
        quarry::from_str::<Settings>(&text, Format::Jsonc).unwrap(),
        settings()
    );
}
