//! `quarry::Config`'s second round of sources: sequence items addressed from the
//! environment, values read from the files `_FILE` variables name, `conf.d` folders, and
//! each layer's value for one path explained.

use std::path::PathBuf;

use quarry::config::{Origin, ProblemKind};
use quarry::{Config, Format, Secret};

#[derive(quarry::Decode, Debug, PartialEq)]
struct App {
    #[quarry(default)]
    servers: Vec<Server>,
    #[quarry(default)]
    hosts: Vec<String>,
    #[quarry(default)]
    labels: std::collections::BTreeMap<String, String>,
    #[quarry(default)]
    port: u16,
}

#[derive(quarry::Decode, Debug, PartialEq)]
struct Server {
    host: String,
    port: u16,
}

/// A scratch directory of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quarry-sources-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn server(host: &str, port: u16) -> Server {
    Server {
        host: host.to_owned(),
        port,
    }
}

#[test]
fn indexed_variables_set_items_of_a_list_of_structs() {
    // figment #92, #113; config-rs #117, #569, #603: the shape knows `servers` is a list.
    let (app, origins) = Config::new()
        .text(
            "base.toml",
            "[[servers]]\nhost = \"a\"\nport = 80\n",
            Format::Toml,
        )
        .env_vars(
            "APP",
            [
                // Out of order on purpose: items are laid in index order.
                ("APP_SERVERS_1_PORT", "8080"),
                ("APP_SERVERS_0_HOST", "z"),
                ("APP_SERVERS_1_HOST", "b"),
            ],
        )
        .load_with_origins::<App>()
        .unwrap();
    assert_eq!(app.servers, vec![server("z", 80), server("b", 8080)]);
    assert_eq!(
        origins.get("servers[0].host").unwrap().to_string(),
        "environment variable APP_SERVERS_0_HOST"
    );
    assert_eq!(
        origins.get("servers[0].port").unwrap().to_string(),
        "base.toml:3:8"
    );
    assert_eq!(
        origins.get("servers[1].port").unwrap().to_string(),
        "environment variable APP_SERVERS_1_PORT"
    );
}

#[test]
fn indexed_variables_set_items_of_a_list_of_scalars_and_start_a_list() {
    let app: App = Config::new()
        .env_vars("APP", [("APP_HOSTS_0", "a"), ("APP_HOSTS_1", "b")])
        .load()
        .unwrap();
    assert_eq!(app.hosts, ["a", "b"]);
    // The whole-list form keeps working.
    let app: App = Config::new()
        .env_vars("APP", [("APP_HOSTS", "[a, b, c]")])
        .load()
        .unwrap();
    assert_eq!(app.hosts, ["a", "b", "c"]);
    let app: App = Config::new()
        .env_vars("APP", [("APP_SERVERS", "[{host: a, port: 1}]")])
        .load()
        .unwrap();
    assert_eq!(app.servers, vec![server("a", 1)]);
}

#[test]
fn an_item_left_incomplete_is_a_missing_field_from_its_variable() {
    let err = Config::new()
        .text(
            "base.toml",
            "[[servers]]\nhost = \"a\"\nport = 80\n",
            Format::Toml,
        )
        .env_vars("APP", [("APP_SERVERS_1_PORT", "8080")])
        .load::<App>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "servers[1]: missing field `host` (from environment variable APP_SERVERS_1_PORT)"
    );
}

#[test]
fn a_gap_in_the_indices_is_an_error_naming_the_variable() {
    let err = Config::new()
        .env_vars(
            "APP",
            [("APP_SERVERS_0_HOST", "a"), ("APP_SERVERS_2_HOST", "c")],
        )
        .load::<App>()
        .unwrap_err();
    let problem = &err.problems()[0];
    assert_eq!(problem.kind, ProblemKind::BadIndex);
    assert_eq!(
        problem.to_string(),
        "servers[2]: index 2 leaves a gap: no layer gives item 1 \
         (from environment variable APP_SERVERS_2_HOST)"
    );
    // An index past the lower layers' items is a gap too.
    let err = Config::new()
        .text("base.yaml", "hosts: [a]\n", Format::Yaml)
        .env_vars("APP", [("APP_HOSTS_3", "d")])
        .load::<App>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "hosts[3]: index 3 leaves a gap: no layer gives item 1 \
         (from environment variable APP_HOSTS_3)"
    );
}

#[test]
fn an_index_on_a_field_that_is_not_a_sequence_is_an_error_naming_the_variable() {
    for (variable, path) in [
        ("APP_LABELS_0", "labels"),
        ("APP_LABELS_0_TEAM", "labels"),
        ("APP_PORT_1", "port"),
    ] {
        let err = Config::new()
            .env_vars("APP", [(variable, "x")])
            .load::<App>()
            .unwrap_err();
        assert_eq!(err.problems().len(), 1, "{variable}");
        assert_eq!(err.problems()[0].kind, ProblemKind::BadIndex);
        assert_eq!(
            err.to_string(),
            format!(
                "{path}: an index addresses a sequence item, and this is not a sequence \
                 (from environment variable {variable})"
            )
        );
    }
    // A key the lower layers already hold, digits or not, is a key.
    let app: App = Config::new()
        .text("base.yaml", "labels: {\"0\": a}\n", Format::Yaml)
        .env_vars("APP", [("APP_LABELS_0", "b")])
        .load()
        .unwrap();
    assert_eq!(app.labels["0"], "b");
}

#[derive(quarry::Decode, Debug)]
struct Db {
    user: String,
    password: Secret<String>,
    #[quarry(default)]
    pin: Option<Secret<u32>>,
}

#[test]
fn file_variables_read_the_value_from_the_file_they_name() {
    // qdrant #2341, rustical #237, kkyr/fig #36: Docker and Kubernetes mount secrets as files.
    let dir = scratch("file_variables");
    let secret = dir.join("db_password");
    std::fs::write(&secret, "hunter2\n").unwrap();
    let user = dir.join("user");
    std::fs::write(&user, "admin\n\n").unwrap();
    let (db, origins) = Config::new()
        .text(
            "db.toml",
            "user = \"root\"\npassword = \"plain\"\n",
            Format::Toml,
        )
        .env_vars(
            "APP",
            [
                ("APP_PASSWORD_FILE", secret.to_str().unwrap()),
                ("APP_USER_FILE", user.to_str().unwrap()),
            ],
        )
        .load_with_origins::<Db>()
        .unwrap();
    assert_eq!(db.password.expose(), "hunter2");
    // One final newline is trimmed, no more.
    assert_eq!(db.user, "admin\n");
    assert_eq!(
        origins.get("password"),
        Some(&Origin::SecretFile {
            path: secret.display().to_string(),
            variable: "APP_PASSWORD_FILE".to_owned(),
        })
    );
    assert_eq!(
        origins.get("password").unwrap().to_string(),
        format!("{} (named by APP_PASSWORD_FILE)", secret.display())
    );
}

#[test]
fn a_field_named_like_a_file_variable_keeps_its_variable() {
    #[derive(quarry::Decode, Debug)]
    struct Log {
        log_file: String,
    }
    let log: Log = Config::new()
        .env_vars("APP", [("APP_LOG_FILE", "/var/log/app.log")])
        .load()
        .unwrap();
    assert_eq!(log.log_file, "/var/log/app.log");
}

#[test]
fn a_file_variable_naming_a_missing_file_is_an_error_naming_both() {
    let dir = scratch("missing_secret");
    let missing = dir.join("absent");
    let err = Config::new()
        .text(
            "db.toml",
            "user = \"root\"\npassword = \"x\"\n",
            Format::Toml,
        )
        .env_vars("APP", [("APP_PASSWORD_FILE", missing.to_str().unwrap())])
        .load::<Db>()
        .unwrap_err();
    let problem = &err.problems()[0];
    assert_eq!(problem.kind, ProblemKind::Io);
    let text = err.to_string();
    assert!(text.contains("APP_PASSWORD_FILE"), "{text}");
    assert!(text.contains(&missing.display().to_string()), "{text}");
    assert!(
        text.starts_with("password: cannot read the file it names"),
        "{text}"
    );
}

#[test]
fn a_secret_never_shows_in_debug_output_or_error_messages() {
    const SECRET: &str = "s3cr3t-v4lue";
    let dir = scratch("secret_in_errors");
    let pin = dir.join("pin");
    std::fs::write(&pin, format!("{SECRET}\n")).unwrap();
    let db: Db = Config::new()
        .text(
            "db.toml",
            format!("user = \"u\"\npassword = \"{SECRET}\"\n"),
            Format::Toml,
        )
        .load()
        .unwrap();
    assert_eq!(db.password.expose(), SECRET);
    assert!(db.pin.is_none());
    let debug = format!("{db:?} {} {:#?}", db.password, db.password);
    assert!(!debug.contains(SECRET), "{debug}");
    assert!(debug.contains("[redacted]"), "{debug}");

    // A secret that fails to decode: in a document, and from a `_FILE` variable.
    let errors = [
        Config::new()
            .text(
                "db.toml",
                format!("user = \"u\"\npassword = \"p\"\npin = \"{SECRET}\"\n"),
                Format::Toml,
            )
            .load::<Db>()
            .unwrap_err(),
        Config::new()
            .text("db.toml", "user = \"u\"\npassword = \"p\"\n", Format::Toml)
            .env_vars("APP", [("APP_PIN_FILE", pin.to_str().unwrap())])
            .load::<Db>()
            .unwrap_err(),
        // A plain field read from a secret file is kept out of messages too.
        Config::new()
            .text("db.toml", "password = \"p\"\nuser = 1\n", Format::Toml)
            .env_vars("APP", [("APP_PIN_FILE", pin.to_str().unwrap())])
            .load::<Db>()
            .unwrap_err(),
    ];
    for err in &errors {
        for text in [
            err.to_string(),
            format!("{err:?}"),
            format!("{:?}", err.problems()),
        ] {
            assert!(!text.contains(SECRET), "{text}");
        }
        assert!(err.to_string().contains("pin: expected integer"), "{err}");
    }
    assert_eq!(
        errors[0].to_string(),
        "pin: expected integer, found [redacted] at db.toml:3:7"
    );
}

#[derive(quarry::Decode, Debug, PartialEq)]
struct Web {
    port: u16,
    #[quarry(default)]
    name: String,
    #[quarry(default)]
    hosts: Vec<String>,
}

#[test]
fn a_folder_reads_every_file_of_a_known_format_in_name_order() {
    // config-rs #330: systemd, nginx, sudo and apt read a `conf.d` folder.
    let dir = scratch("conf_d");
    let conf = dir.join("conf.d");
    std::fs::create_dir(&conf).unwrap();
    std::fs::write(conf.join("10-base.toml"), "port = 80\nname = \"base\"\n").unwrap();
    std::fs::write(conf.join("20-port.yaml"), "port: 8080\n").unwrap();
    std::fs::write(conf.join("9-late.json"), r#"{"name": "late"}"#).unwrap();
    // Skipped: hidden files, editor backups, unknown formats, folders.
    std::fs::write(conf.join(".hidden.toml"), "port = 1\n").unwrap();
    std::fs::write(conf.join("20-port.yaml~"), "port: 2\n").unwrap();
    std::fs::write(conf.join("#30-x.toml#"), "port = 3\n").unwrap();
    std::fs::write(conf.join("30-x.toml.bak"), "port = 4\n").unwrap();
    std::fs::write(conf.join("30-x.toml.swp"), "port = 5\n").unwrap();
    std::fs::write(conf.join("README"), "not a layer").unwrap();
    std::fs::create_dir(conf.join("50-sub.toml")).unwrap();
    let (web, origins) = Config::new().dir(&conf).load_with_origins::<Web>().unwrap();
    // Byte order: `10-` < `20-` < `9-`.
    assert_eq!(web.port, 8080);
    assert_eq!(web.name, "late");
    assert_eq!(
        origins.get("port").unwrap().to_string(),
        format!("{}:1:7", conf.join("20-port.yaml").display())
    );
}

#[test]
fn an_absent_folder_is_an_error_unless_optional() {
    let dir = scratch("absent_dir");
    let absent = dir.join("conf.d");
    let err = Config::new()
        .text("base.toml", "port = 1\n", Format::Toml)
        .dir(&absent)
        .load::<Web>()
        .unwrap_err();
    assert_eq!(err.problems()[0].kind, ProblemKind::Io);
    assert!(err.to_string().starts_with(&absent.display().to_string()));
    let web: Web = Config::new()
        .text("base.toml", "port = 1\n", Format::Toml)
        .optional_dir(&absent)
        .load()
        .unwrap();
    assert_eq!(web.port, 1);
}

#[test]
fn folder_files_take_part_in_errors_and_lists_like_any_file() {
    let dir = scratch("conf_d_errors");
    std::fs::write(dir.join("a.toml"), "port = \"http\"\n").unwrap();
    std::fs::write(dir.join("b.yaml"), "hosts: [a]\n").unwrap();
    let err = Config::new()
        .dir(&dir)
        .env_vars("APP", [("APP_HOSTS_1", "b")])
        .load::<Web>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "port: expected integer, found string \"http\" at {}:1:8",
            dir.join("a.toml").display()
        )
    );
}

#[test]
fn explain_lists_every_layer_value_with_its_origin_and_the_winner() {
    // config-rs #97, #319, #331, #407; flox #3290; pixi #1919.
    let dir = scratch("explain");
    std::fs::write(dir.join("10-a.toml"), "port = 81\n").unwrap();
    std::fs::write(dir.join("20-b.toml"), "name = \"b\"\n").unwrap();
    let layers = Config::new()
        .text("base.toml", "port = 80\nname = \"base\"\n", Format::Toml)
        .dir(&dir)
        .env_vars("APP", [("APP_PORT", "9000")])
        .set("name", "set");
    let port = layers.explain_as::<Web>("port").unwrap();
    let marks: Vec<(String, bool)> = port
        .candidates
        .iter()
        .map(|c| (c.value_text(), c.used))
        .collect();
    assert_eq!(
        marks,
        [
            ("80".to_owned(), false),
            ("81".to_owned(), false),
            ("\"9000\"".to_owned(), true)
        ]
    );
    assert_eq!(
        port.to_string(),
        format!(
            "port\n  replaced  80  # base.toml:1:8\n  replaced  81  # {}:1:8\n  \
             used      \"9000\"  # environment variable APP_PORT",
            dir.join("10-a.toml").display()
        )
    );
    let name = layers.explain("name").unwrap();
    assert_eq!(name.candidates.len(), 3);
    assert_eq!(name.candidates[2].origin, Origin::Set);
    assert_eq!(layers.explain("hosts").unwrap().candidates.len(), 0);
    assert_eq!(
        layers.explain("hosts").unwrap().to_string(),
        "hosts: no layer gives it"
    );
}

#[test]
fn explain_shows_maps_merged_items_set_by_index_and_hides_secrets() {
    let dir = scratch("explain_maps");
    let token = dir.join("token");
    std::fs::write(&token, "tok-123\n").unwrap();
    let layers = Config::new()
        .text(
            "base.yaml",
            "db: {host: a, port: 1, token: none}\nservers: [{host: x, port: 1}]\n",
            Format::Yaml,
        )
        .text("local.yaml", "db: {port: 2}\n", Format::Yaml)
        .env_vars(
            "APP",
            [
                ("APP_SERVERS_0_HOST", "y"),
                ("APP_DB_TOKEN_FILE", token.to_str().unwrap()),
            ],
        );
    let db = layers.explain("db").unwrap();
    let shown: Vec<(String, bool)> = db
        .candidates
        .iter()
        .map(|c| (c.value_text(), c.used))
        .collect();
    assert_eq!(
        shown,
        [
            (r#"{"host":"a","port":1,"token":"none"}"#.to_owned(), true),
            (r#"{"port":2}"#.to_owned(), true),
            ("***".to_owned(), true),
        ]
    );
    let text = format!("{db} {db:?}");
    assert!(!text.contains("tok-123"), "{text}");
    let host = layers.explain("servers[0].host").unwrap();
    assert_eq!(host.candidates.len(), 2);
    assert_eq!(
        host.candidates[1].origin.to_string(),
        "environment variable APP_SERVERS_0_HOST"
    );
    // Untyped, the file variable's stem must name a key a layer holds.
    let explained = layers.explain("db.token").unwrap();
    assert!(!explained.candidates[0].used);
    let token_origin = &explained.candidates[1].origin;
    assert_eq!(
        token_origin,
        &Origin::SecretFile {
            path: token.display().to_string(),
            variable: "APP_DB_TOKEN_FILE".to_owned()
        }
    );
}

#[test]
fn plain_secrets_are_accepted_unless_forbidden_and_then_named_by_file_and_line() {
    let dir = scratch("plain_secrets");
    let secret = dir.join("password");
    std::fs::write(&secret, "from-file\n").unwrap();
    let base = "user = \"u\"\npassword = \"in-the-file\"\n";
    let db: Db = Config::new()
        .text("db.toml", base, Format::Toml)
        .load()
        .unwrap();
    assert_eq!(db.password.expose(), "in-the-file");
    let err = Config::new()
        .text("db.toml", base, Format::Toml)
        .forbid_plain_secrets()
        .load::<Db>()
        .unwrap_err();
    assert_eq!(err.problems()[0].kind, ProblemKind::PlainSecret);
    let text = err.to_string();
    assert!(
        text.starts_with("password: a secret given in a plain file"),
        "{text}"
    );
    assert!(text.ends_with(" at db.toml:2:12"), "{text}");
    assert!(!format!("{text} {err:?}").contains("in-the-file"));
    // The same secret from a `_FILE` variable, or a variable, is accepted.
    for (name, value) in [
        ("APP_PASSWORD_FILE", secret.to_str().unwrap()),
        ("APP_PASSWORD", "from-env"),
    ] {
        let db: Db = Config::new()
            .text("db.toml", base, Format::Toml)
            .env_vars("APP", [(name, value)])
            .forbid_plain_secrets()
            .load()
            .unwrap();
        assert!(db.password.expose().starts_with("from-"));
    }
}

#[test]
fn a_secret_field_is_write_only_in_the_json_schema() {
    let schema = quarry::json_schema::schema::<Db>();
    let text = quarry::json::to_string(&schema).unwrap();
    assert!(
        text.contains(r#""password":{"type":"string","writeOnly":true}"#),
        "{text}"
    );
}

#[test]
fn append_fields_concatenate_the_layers_items_and_others_replace() {
    // config-rs #67: some lists want every layer's items.
    #[derive(quarry::Decode, Debug)]
    struct Plugins {
        #[quarry(merge = "append")]
        plugins: Vec<String>,
        #[quarry(default)]
        hosts: Vec<String>,
        #[quarry(default)]
        nested: Option<Nested>,
    }
    #[derive(quarry::Decode, Debug)]
    struct Nested {
        #[quarry(merge = "append")]
        paths: Vec<String>,
    }
    let dir = scratch("append");
    std::fs::write(
        dir.join("10-a.yaml"),
        "plugins: [c]\nnested: {paths: [y]}\n",
    )
    .unwrap();
    std::fs::write(dir.join("20-b.toml"), "plugins = [\"d\"]\n").unwrap();
    let (plugins, origins) = Config::new()
        .text(
            "base.yaml",
            "plugins: [a, b]\nhosts: [h1]\nnested: {paths: [x]}\n",
            Format::Yaml,
        )
        .text("local.yaml", "hosts: [h2]\n", Format::Yaml)
        .dir(&dir)
        .env_vars("APP", [("APP_PLUGINS", "[e]")])
        .load_with_origins::<Plugins>()
        .unwrap();
    assert_eq!(plugins.plugins, ["a", "b", "c", "d", "e"]);
    assert_eq!(plugins.hosts, ["h2"]);
    assert_eq!(plugins.nested.unwrap().paths, ["x", "y"]);
    assert_eq!(
        origins.get("plugins[0]").unwrap().to_string(),
        "base.yaml:1:11"
    );
    assert_eq!(
        origins.get("plugins[2]").unwrap().to_string(),
        format!("{}:1:11", dir.join("10-a.yaml").display())
    );
    assert_eq!(
        origins.get("plugins[4]").unwrap().to_string(),
        "environment variable APP_PLUGINS"
    );
}
