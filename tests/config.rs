//! `quarry::Config`: layers, environment mapping through the target's shape, profiles,
//! origins and errors. Each figment/config-rs issue named in the tests is reproduced here.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use quarry::config::{Origin, ProblemKind};
use quarry::{Config, Format, RawValue};

#[derive(quarry::Decode, Debug, PartialEq)]
struct App {
    name: String,
    database: Database,
    #[quarry(default)]
    labels: BTreeMap<String, String>,
    #[quarry(default)]
    hosts: Vec<String>,
}

#[derive(quarry::Decode, Debug, PartialEq)]
struct Database {
    #[quarry(range = 1..=65535)]
    port: u16,
    max_connections: u32,
    #[quarry(default)]
    pool_timeout_secs: Option<u64>,
}

const BASE: &str = "name = \"web\"\n\n[database]\nport = 5432\nmax_connections = 10\n";

/// A scratch directory of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quarry-config-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn underscored_fields_under_nested_structs_map_from_the_environment() {
    // figment #12, #13, #93, #103; config-rs #73, #333, #569: a separator guess cannot
    // tell `max_connections` from `max.connections`. The shape can.
    let app: App = Config::new()
        .text("base.toml", BASE, Format::Toml)
        .env_vars(
            "APP",
            [
                ("APP_DATABASE_MAX_CONNECTIONS", "50"),
                ("APP_DATABASE_POOL_TIMEOUT_SECS", "7"),
                ("app_name", "api"), // variables match case-insensitively
                ("OTHER_NAME", "ignored"),
            ],
        )
        .load()
        .unwrap();
    assert_eq!(app.name, "api");
    assert_eq!(app.database.max_connections, 50);
    assert_eq!(app.database.pool_timeout_secs, Some(7));
}

#[test]
fn camel_case_keys_keep_their_case() {
    // config-rs #65, #531, #564: keys were lowercased, so camelCase fields never matched.
    #[derive(quarry::Decode, Debug, PartialEq)]
    #[quarry(rename_all = "camelCase")]
    struct Server {
        listen_port: u16,
        max_body_size: u64,
        #[quarry(default)]
        extra_headers: HashMap<String, String>,
    }
    let server: Server = Config::new()
        .text(
            "server.json",
            r#"{"listenPort": 80, "maxBodySize": 1024, "extraHeaders": {"X-Request-Id": "on"}}"#,
            Format::Json,
        )
        .env_vars(
            "SRV",
            [
                ("SRV_MAXBODYSIZE", "4096"),
                ("SRV_EXTRAHEADERS_X_REQUEST_ID", "off"),
                ("SRV_EXTRAHEADERS_X_Trace", "yes"),
            ],
        )
        .load()
        .unwrap();
    assert_eq!(server.listen_port, 80);
    assert_eq!(server.max_body_size, 4096);
    // The file's key keeps its spelling; `-` in a key stands for `_` in a variable; a new
    // key keeps the variable's spelling.
    assert_eq!(server.extra_headers["X-Request-Id"], "off");
    assert_eq!(server.extra_headers["X_Trace"], "yes");
    assert_eq!(server.extra_headers.len(), 2);
}

#[test]
fn map_keys_come_through_the_environment() {
    #[derive(quarry::Decode, Debug, PartialEq)]
    struct Upstream {
        host: String,
        port: u16,
    }
    #[derive(quarry::Decode, Debug, PartialEq)]
    struct Proxy {
        #[quarry(default)]
        labels: BTreeMap<String, String>,
        #[quarry(default)]
        upstreams: BTreeMap<String, Upstream>,
    }
    let proxy: Proxy = Config::new()
        .text(
            "proxy.yaml",
            "upstreams:\n  Web:\n    host: a\n    port: 80\n",
            Format::Yaml,
        )
        .env_vars(
            "P",
            [
                ("P_LABELS_TEAM", "core"),
                ("P_LABELS_COST_CENTER", "42"),
                ("P_UPSTREAMS_WEB_PORT", "8080"),
                ("P_UPSTREAMS_API_V2_HOST", "b"),
                ("P_UPSTREAMS_API_V2_PORT", "81"),
            ],
        )
        .load()
        .unwrap();
    assert_eq!(proxy.labels["team"], "core");
    assert_eq!(proxy.labels["cost_center"], "42");
    assert_eq!(proxy.upstreams["Web"].port, 8080);
    assert_eq!(proxy.upstreams["Web"].host, "a");
    assert_eq!(
        proxy.upstreams["api_v2"],
        Upstream {
            host: "b".into(),
            port: 81
        }
    );
}

#[test]
fn a_name_that_fits_two_paths_is_an_error_naming_both() {
    #[derive(quarry::Decode, Debug)]
    #[allow(dead_code)]
    struct Tricky {
        #[quarry(default)]
        log_level: Option<String>,
        #[quarry(default)]
        log: Option<Log>,
    }
    #[derive(quarry::Decode, Debug)]
    #[allow(dead_code)]
    struct Log {
        level: String,
    }
    let err = Config::new()
        .env_vars("APP", [("APP_LOG_LEVEL", "debug")])
        .load::<Tricky>()
        .unwrap_err();
    assert_eq!(err.problems().len(), 1);
    assert_eq!(err.problems()[0].kind, ProblemKind::AmbiguousVariable);
    assert_eq!(
        err.to_string(),
        "fits more than one field: log_level and log.level (from environment variable APP_LOG_LEVEL)"
    );
}

#[test]
fn unknown_variables_are_errors_only_under_deny_unknown_fields() {
    #[derive(quarry::Decode, Debug)]
    #[quarry(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        port: u16,
    }
    #[derive(quarry::Decode, Debug)]
    #[allow(dead_code)]
    struct Lenient {
        port: u16,
    }
    let vars = [("APP_PORT", "1"), ("APP_PROT", "2")];
    let err = Config::new()
        .env_vars("APP", vars)
        .load::<Strict>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "fits no field of the configuration (its type denies unknown fields) (from environment variable APP_PROT)"
    );
    assert_eq!(err.problems()[0].kind, ProblemKind::UnknownVariable);
    let lenient: Lenient = Config::new().env_vars("APP", vars).load().unwrap();
    assert_eq!(lenient.port, 1);
}

#[test]
fn every_problem_of_three_layers_is_reported_at_once_with_its_origin() {
    let dir = scratch("three-layers");
    std::fs::write(dir.join("base.toml"), BASE).unwrap();
    std::fs::write(
        dir.join("local.yaml"),
        "name: 7\ndatabase:\n  port: 70000\n",
    )
    .unwrap();
    let err = Config::new()
        .file(dir.join("base.toml"))
        .optional_file(dir.join("local.yaml"))
        .optional_file(dir.join("absent.json"))
        .env_vars(
            "APP",
            [
                ("APP_DATABASE_MAX_CONNECTIONS", "lots"),
                ("APP_HOSTS", "[a, b"),
            ],
        )
        .load::<App>()
        .unwrap_err();
    let local = dir.join("local.yaml").display().to_string();
    let lines: Vec<String> = err.problems().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            format!("name: expected string, found 7 at {local}:1:7"),
            format!("database.port: expected integer in 1..=65535, found 70000 at {local}:3:9"),
            "database.max_connections: expected integer, found text \"lots\" (from environment variable APP_DATABASE_MAX_CONNECTIONS)".to_owned(),
            "hosts: expected sequence, found text \"[a, b\" (from environment variable APP_HOSTS)".to_owned(),
        ]
    );
    let origins: Vec<_> = err
        .problems()
        .iter()
        .map(|p| p.origin.clone().unwrap())
        .collect();
    assert_eq!(
        origins[2],
        Origin::Env {
            name: "APP_DATABASE_MAX_CONNECTIONS".into()
        }
    );
}

#[test]
fn missing_files_syntax_errors_and_unknown_formats_are_reported_together() {
    let dir = scratch("read-errors");
    std::fs::write(
        dir.join("bad.json"),
        "{\"name\": \"web\",\n \"port\": 80,,\n}",
    )
    .unwrap();
    std::fs::write(dir.join("bad.toml"), "name = \n").unwrap();
    let err = Config::new()
        .file(dir.join("missing.toml"))
        .file(dir.join("settings.ini"))
        .file(dir.join("bad.toml"))
        .load::<App>()
        .unwrap_err();
    let kinds: Vec<_> = err.problems().iter().map(|p| p.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            ProblemKind::Io,
            ProblemKind::UnknownFormat,
            ProblemKind::Syntax
        ]
    );
    assert!(err.to_string().contains("missing.toml: "), "{err}");

    let err = Config::new()
        .file(dir.join("bad.json"))
        .file(dir.join("bad.toml"))
        .load::<App>()
        .unwrap_err();
    assert_eq!(err.problems().len(), 2);
    let bad = dir.join("bad.json").display().to_string();
    let text = err.problems()[0].to_string();
    assert!(text.starts_with(&format!("{bad}:2:13: ")), "{text}");
    assert!(
        text.ends_with("2 |  \"port\": 80,,\n  |             ^"),
        "{text}"
    );
    assert!(
        err.problems()[1].to_string().contains("bad.toml:1:8: "),
        "{err}"
    );
}

#[test]
fn maps_merge_key_by_key_and_sequences_replace() {
    let value = Config::new()
        .text(
            "a.json",
            r#"{"db": {"port": 1, "opts": {"tls": true, "ca": "x"}}, "hosts": ["a", "b"]}"#,
            Format::Json,
        )
        .text(
            "b.yaml",
            "db:\n  opts:\n    ca: y\nhosts: [c]\n",
            Format::Yaml,
        )
        .load_value()
        .unwrap();
    let expected: RawValue = quarry::from_str(
        r#"{"db": {"port": 1, "opts": {"tls": true, "ca": "y"}}, "hosts": ["c"]}"#,
        Format::Json,
    )
    .unwrap();
    assert_eq!(value, expected);
}

#[test]
fn origins_name_the_file_position_the_variable_set_and_default() {
    let (app, origins) = Config::new()
        .text("base.toml", BASE, Format::Toml)
        .text("local.yaml", "database:\n  port: 6000\n", Format::Yaml)
        .env_vars("APP", [("APP_HOSTS", "[x, y]")])
        .set("name", "cli")
        .load_with_origins::<App>()
        .unwrap();
    assert_eq!(app.hosts, ["x", "y"]);
    assert_eq!(app.name, "cli");
    let at = |path: &str| origins.get(path).map(ToString::to_string);
    assert_eq!(at("database.port").as_deref(), Some("local.yaml:2:9"));
    assert_eq!(
        at("database.max_connections").as_deref(),
        Some("base.toml:5:19")
    );
    assert_eq!(at("name").as_deref(), Some("set in code"));
    assert_eq!(
        at("hosts[1]").as_deref(),
        Some("environment variable APP_HOSTS")
    );
    assert_eq!(at("labels"), Some("default".into()));
    assert_eq!(at("database.pool_timeout_secs"), Some("default".into()));
    // A map is where the first layer that held it wrote it.
    assert_eq!(at("database").as_deref(), Some("base.toml:3:1"));
    assert_eq!(at("nope"), None);
    assert_eq!(at("name.deeper"), None);
    assert_eq!(at("labels.any"), Some("default".into()));
}

#[test]
fn profiles_overlay_the_profile_table_on_default() {
    let doc =
        "[default]\nname = \"web\"\n[default.database]\nport = 5432\nmax_connections = 10\n\n\
               [production.database]\nmax_connections = 200\n\n[staging.database]\nport = 1\n";
    let dev: App = Config::new()
        .text("app.toml", doc, Format::Toml)
        .profile("default")
        .load()
        .unwrap();
    assert_eq!(dev.database.max_connections, 10);
    let (prod, origins) = Config::new()
        .text("app.toml", doc, Format::Toml)
        .text("plain.yaml", "database:\n  port: 6000\n", Format::Yaml)
        .profile("production")
        .load_with_origins::<App>()
        .unwrap();
    assert_eq!(
        (prod.database.port, prod.database.max_connections),
        (6000, 200)
    );
    assert_eq!(
        origins.get("database.max_connections").unwrap().to_string(),
        "app.toml:8:19"
    );
    assert_eq!(origins.get("name").unwrap().to_string(), "app.toml:2:8");
    // The variable selects the profile when the code does not.
    let staged: App = Config::new()
        .text("app.toml", doc, Format::Toml)
        .env_vars("APP", [("APP_PROFILE", "staging")])
        .load()
        .unwrap();
    assert_eq!(staged.database.port, 1);
}

#[test]
fn sequences_come_from_flow_sequences() {
    #[derive(quarry::Decode, Debug)]
    struct Lists {
        ports: Vec<u16>,
        names: Vec<String>,
        pair: (String, bool),
    }
    let lists: Lists = Config::new()
        .env_vars(
            "L",
            [
                ("L_PORTS", "[80, 443]"),
                ("L_NAMES", "[1, 'two', three]"),
                ("L_PAIR", "[x, true]"),
            ],
        )
        .load()
        .unwrap();
    assert_eq!(lists.ports, [80, 443]);
    assert_eq!(lists.names, ["1", "two", "three"]);
    assert_eq!(lists.pair, ("x".into(), true));
}

#[test]
fn aliases_renames_and_flattened_fields_map_from_the_environment() {
    #[derive(quarry::Decode, Debug)]
    struct Common {
        region: String,
    }
    #[derive(quarry::Decode, Debug)]
    struct Service {
        #[quarry(rename = "listen-port", alias = "port")]
        listen_port: u16,
        #[quarry(flatten)]
        common: Common,
    }
    let a: Service = Config::new()
        .env_vars("S", [("S_LISTEN_PORT", "1"), ("S_REGION", "eu")])
        .load()
        .unwrap();
    assert_eq!((a.listen_port, a.common.region.as_str()), (1, "eu"));
    let b: Service = Config::new()
        .env_vars("S", [("S_PORT", "2"), ("S_REGION", "us")])
        .load()
        .unwrap();
    assert_eq!(b.listen_port, 2);
}

#[test]
fn an_untyped_target_matches_the_keys_the_layers_hold() {
    let value = Config::new()
        .text("a.json", r#"{"Server": {"max_conn": 1}}"#, Format::Json)
        .env_vars("Q", [("Q_SERVER_MAX_CONN", "5"), ("Q_NEW_KEY", "x")])
        .load_value()
        .unwrap();
    // Where the type says nothing, a value reads as YAML reads it.
    assert_eq!(
        value.get("Server").unwrap().get("max_conn"),
        Some(&RawValue::Int(5))
    );
    assert_eq!(value.get("new_key"), Some(&RawValue::Text("x".into())));
}

#[test]
fn xml_and_plist_files_are_layers_too() {
    let app: App = Config::new()
        .text(
            "base.xml",
            "<app><name>web</name><database><port>1</port><max_connections>2</max_connections></database><hosts>h</hosts></app>",
            Format::Xml,
        )
        .text(
            "over.plist",
            "<plist><dict><key>database</key><dict><key>port</key><integer>9</integer></dict></dict></plist>",
            Format::Plist,
        )
        .load()
        .unwrap();
    assert_eq!((app.database.port, app.database.max_connections), (9, 2));
    assert_eq!(app.hosts, ["h"]);
}

#[test]
fn set_overrides_and_rejects_sequence_indexes() {
    let app: App = Config::new()
        .text("base.toml", BASE, Format::Toml)
        .set("database.port", 5433)
        .set("labels", BTreeMap::from([("a", "b")]))
        .load()
        .unwrap();
    assert_eq!(app.database.port, 5433);
    assert_eq!(app.labels["a"], "b");
    let err = Config::new()
        .text("base.toml", BASE, Format::Toml)
        .set("hosts[0]", "x")
        .load::<App>()
        .unwrap_err();
    assert_eq!(err.problems()[0].kind, ProblemKind::Set);
}

#[test]
fn files_load_by_extension() {
    let dir = scratch("files");
    std::fs::write(dir.join("app.toml"), BASE).unwrap();
    std::fs::write(dir.join("app.jsonc"), "{}").unwrap();
    let app: App = Config::new()
        .file(dir.join("app.toml"))
        .optional_file(dir.join("nope.yaml"))
        .load()
        .unwrap();
    assert_eq!(app.name, "web");
}

#[test]
fn jsonc_files_are_layers_with_comments_and_trailing_commas() {
    let dir = scratch("jsonc");
    std::fs::write(
        dir.join("app.jsonc"),
        "{\n  // the service\n  \"name\": \"web\", /* inline */\n  \"database\": {\"port\": 1, \"max_connections\": 2,},\n}\n",
    )
    .unwrap();
    let (app, origins) = Config::new()
        .file(dir.join("app.jsonc"))
        .load_with_origins::<App>()
        .unwrap();
    assert_eq!((app.name.as_str(), app.database.port), ("web", 1));
    let at = origins.get("database.port").unwrap().to_string();
    assert!(at.ends_with("app.jsonc:4:24"), "{at}");
}
