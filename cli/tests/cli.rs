//! The `quarry` binary, run as a user runs it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn quarry(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quarry"))
        .args(args)
        .output()
        .expect("run quarry")
}

/// Runs quarry with `stdin` piped in, as `producer | quarry ARGS` does.
fn piped(args: &[&str], stdin: &[u8]) -> Output {
    piped_env(args, stdin, &[])
}

fn piped_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quarry"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quarry");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn suite_files(prefix: &str) -> Vec<String> {
    let dir = repo().join("testdata/suites/json/test_parsing");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(prefix))
        .map(|p| p.to_str().unwrap().to_owned())
        .collect();
    files.sort();
    files
}

#[test]
fn check_accepts_every_y_file() {
    let files = suite_files("y_");
    assert_eq!(files.len(), 95);
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let out = quarry(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "checked 95 files: 0 invalid\n"
    );
}

#[test]
fn check_rejects_every_n_file_with_a_position() {
    let files = suite_files("n_");
    assert_eq!(files.len(), 188);
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let out = quarry(&args);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for file in &files {
        let prefix = format!("{file}:");
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no error line for {file}"));
        let rest: Vec<&str> = line[prefix.len()..].splitn(3, ':').collect();
        assert!(
            rest[0].parse::<usize>().is_ok() && rest[1].parse::<usize>().is_ok(),
            "{line}"
        );
        assert!(rest[2].starts_with(' ') && rest[2].len() > 1, "{line}");
    }
    // Each file also fails alone, with exit code 1.
    let one = quarry(&["check", &files[0]]);
    assert_eq!(one.status.code(), Some(1));
}

#[test]
fn errors_show_the_line_with_a_caret() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.json");
    std::fs::write(&file, "{\n  \"a\": [1,\n  2,]\n}").unwrap();
    let out = quarry(&["check", file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected = format!(
        "{}:3:5: expected a JSON value, found `]`\n3 |   2,]\n  |     ^\n",
        file.display()
    );
    assert_eq!(stderr, format!("{expected}checked 1 file: 1 invalid\n"));
    let tree = quarry(&["tree", file.to_str().unwrap()]);
    assert_eq!(tree.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&tree.stderr), expected);
}

#[test]
fn convert_reproduces_every_y_file() {
    for file in suite_files("y_") {
        let out = quarry(&["convert", &file, "--to", "json"]);
        assert_eq!(out.status.code(), Some(0), "{file}");
        let original = std::fs::read(&file).unwrap();
        assert_eq!(
            quarry::json::parse(&out.stdout).unwrap(),
            quarry::json::parse(&original).unwrap(),
            "{file}"
        );
        // serde_json is the oracle where it accepts the input (it rejects numbers beyond f64).
        let Ok(expected) = serde_json::from_slice::<serde_json::Value>(&original) else {
            continue;
        };
        let converted: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(converted, expected, "{file}");
    }
}

#[test]
fn tree_prints_kinds_keys_and_line_numbers() {
    let out = quarry(&[
        "tree",
        repo().join("examples/config.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], " 1  object (7 members)");
    assert_eq!(lines[1], " 2    name: string \"quarry-demo\"");
    assert!(
        lines.contains(&" 6        host: string \"alpha.example.com\""),
        "{text}"
    );
    assert!(lines.contains(&" 6        tags: array (2 items)"), "{text}");
    assert!(
        lines.contains(&"13    features: object (2 members)"),
        "{text}"
    );
    assert!(lines.contains(&"13      beta-ui: null"), "{text}");
}

#[test]
fn tree_handles_the_twitter_corpus() {
    let file = repo().join("testdata/corpus/json/twitter.json");
    let out = quarry(&["tree", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("    1  object (2 members)\n    2    statuses: array (100 items)\n"));
    assert!(text.lines().count() > 10_000);
}

#[test]
fn get_prints_one_value() {
    let config = repo().join("examples/config.json");
    let config = config.to_str().unwrap();
    let get = |path: &str| {
        let out = quarry(&["get", config, path]);
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    assert_eq!(
        get("servers[0].host"),
        (Some(0), "alpha.example.com\n".into())
    );
    assert_eq!(get("servers[1].port"), (Some(0), "8081\n".into()));
    assert_eq!(
        get("database.pool.timeout_ms"),
        (Some(0), "2500.5\n".into())
    );
    assert_eq!(
        get("servers[0].tags"),
        (Some(0), "[\n  \"primary\",\n  \"eu-west\"\n]\n".into())
    );
    assert_eq!(get("features.beta-ui"), (Some(0), "null\n".into()));
    assert_eq!(get("servers[5]").0, Some(1));
    assert_eq!(get("servers[").0, Some(2));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        quarry(&["check", "/no/such/file.json"]).status.code(),
        Some(2)
    );
    assert_eq!(
        quarry(&["tree", "Cargo.lock.unknown-ext"]).status.code(),
        Some(2)
    );
    assert_eq!(quarry(&["frobnicate"]).status.code(), Some(2));
    let config = repo().join("examples/config.json");
    let out = quarry(&["convert", config.to_str().unwrap(), "--to", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}

fn toml_suite(kind: &str) -> Vec<String> {
    let dir = repo().join("testdata/suites/toml/tests");
    std::fs::read_to_string(dir.join("files-toml-1.0.0"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with(kind) && l.ends_with(".toml"))
        .map(|l| dir.join(l).to_str().unwrap().to_owned())
        .collect()
}

#[test]
fn check_accepts_valid_toml_and_rejects_invalid_toml_with_positions() {
    let valid = toml_suite("valid/");
    assert_eq!(valid.len(), 210);
    let mut args = vec!["check"];
    args.extend(valid.iter().map(String::as_str));
    let out = quarry(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in toml_suite("invalid/") {
        let out = quarry(&["check", &file]);
        assert_eq!(out.status.code(), Some(1), "{file}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let rest = stderr
            .strip_prefix(&format!("{file}:"))
            .unwrap_or_else(|| panic!("{stderr}"));
        let mut parts = rest.splitn(3, ':');
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{stderr}");
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{stderr}");
    }
}

#[test]
fn toml_tree_get_and_convert() {
    let config = repo().join("examples/config.toml");
    let config = config.to_str().unwrap();
    let out = quarry(&["tree", config]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], " 1  table (7 keys)");
    assert!(
        lines.contains(&" 5    released: datetime 2026-11-30T09:00:00Z"),
        "{text}"
    );
    assert!(
        lines.contains(&" 7    database: table [header] (2 keys)"),
        "{text}"
    );
    assert!(
        lines.contains(&" 9      pool: inline table (3 keys)"),
        "{text}"
    );
    assert!(
        lines.contains(&"11    servers: array of tables (2 tables)"),
        "{text}"
    );
    assert!(lines.contains(&" 1  comment: # A service configuration, as quarry reads it: `quarry tree examples/config.toml`."), "{text}");

    let get = |path: &str| {
        let out = quarry(&["get", config, path]);
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    assert_eq!(get("servers[1].port"), (Some(0), "8081\n".into()));
    assert_eq!(
        get("database.pool"),
        (Some(0), "min = 2\nmax = 16\ntimeout_ms = 2500.5\n".into())
    );
    assert_eq!(
        get("features.motd"),
        (Some(0), "Welcome,\n\"operator\" — have a nice day\n".into())
    );

    // TOML → JSON → TOML keeps every value (the datetime becomes RFC 3339 text in JSON).
    let json = quarry(&["convert", config, "--to", "json"]);
    assert_eq!(json.status.code(), Some(0));
    let dir = std::env::temp_dir().join(format!("quarry-cli-toml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json_file = dir.join("config.json");
    std::fs::write(&json_file, &json.stdout).unwrap();
    let back = quarry(&["convert", json_file.to_str().unwrap(), "--to", "toml"]);
    assert_eq!(
        back.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&back.stderr)
    );
    let original_bytes = std::fs::read(config).unwrap();
    let original = quarry::toml::parse(&original_bytes).unwrap();
    let round = quarry::toml::parse(&back.stdout).unwrap();
    assert_eq!(round.get("servers"), original.get("servers"));
    assert_eq!(round.get("database"), original.get("database"));
    assert_eq!(
        round.get("released").and_then(|v| v.as_str()),
        Some("2026-11-30T09:00:00Z")
    );

    // What TOML cannot hold is an error naming the path.
    let out = quarry(&[
        "convert",
        repo().join("examples/config.json").to_str().unwrap(),
        "--to",
        "toml",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("features.beta-ui: TOML cannot represent null"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn convert_compact_and_format_override() {
    let config = repo().join("examples/config.json");
    let out = quarry(&[
        "convert",
        config.to_str().unwrap(),
        "--to",
        "json",
        "--compact",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.contains("\"motd\":\"Welcome,\\n\\\"operator\\\" — have a nice day\""));
    let dir = std::env::temp_dir().join(format!("quarry-cli-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A name that says nothing: the content decides when it is unambiguous (JSON, a
    // YAML mapping), otherwise --format is needed (TOML).
    let odd = dir.join("data.txt");
    std::fs::write(&odd, "[1, 2]").unwrap();
    assert_eq!(
        quarry(&["check", odd.to_str().unwrap()]).status.code(),
        Some(0)
    );
    std::fs::write(&odd, "a: [1, 2]").unwrap();
    assert_eq!(
        quarry(&["check", odd.to_str().unwrap()]).status.code(),
        Some(0)
    );
    std::fs::write(&odd, "a = [1, 2]").unwrap();
    let out = quarry(&["check", odd.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use --format"));
    assert_eq!(
        quarry(&["check", "--format", "toml", odd.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
}

fn run_ok(args: &[&str]) -> String {
    let out = quarry(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_corpus_file_checks_in_every_format() {
    for format in ["json", "yaml", "toml", "xml", "plist"] {
        let dir = repo().join("testdata/corpus").join(format);
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path().to_str().unwrap().to_owned())
            .collect();
        files.sort();
        let mut args = vec!["check", "--format", format];
        args.extend(files.iter().map(String::as_str));
        run_ok(&args);
    }
}

#[test]
fn yaml_streams_convert_document_by_document() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-yaml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stream = dir.join("stream.yaml");
    std::fs::write(&stream, "a: 1\n---\n- x\n- &y {k: v}\n- *y\n").unwrap();
    let stream = stream.to_str().unwrap();
    assert_eq!(
        run_ok(&["convert", stream, "--to", "json"]),
        "{\"a\":1}\n[\"x\",{\"k\":\"v\"},{\"k\":\"v\"}]\n"
    );
    let yaml = run_ok(&["convert", stream, "--to", "yaml"]);
    let back = quarry::yaml::parse_stream(yaml.as_bytes()).unwrap();
    assert_eq!(
        back,
        quarry::yaml::parse_stream(&std::fs::read(stream).unwrap()).unwrap()
    );
    let out = quarry(&["convert", stream, "--to", "toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(run_ok(&["get", stream, "[1].k", "--doc", "1"]), "v\n");
    let tree = run_ok(&["tree", stream, "--doc", "1"]);
    assert!(tree.contains("alias *y"), "{tree}");
    assert!(tree.contains("mapping (1 entry) &y"), "{tree}");
    assert_eq!(
        quarry(&["get", stream, "a", "--doc", "7"]).status.code(),
        Some(1)
    );
    let empty = dir.join("empty.yaml");
    std::fs::write(&empty, "# nothing\n").unwrap();
    assert_eq!(
        run_ok(&["convert", empty.to_str().unwrap(), "--to", "json"]),
        ""
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn xml_tree_get_and_round_trip() {
    let pom = repo().join("testdata/corpus/xml/maven-pom.xml");
    let pom = pom.to_str().unwrap();
    let tree = run_ok(&["tree", pom]);
    assert!(
        tree.contains("<project> {http://maven.apache.org/POM/4.0.0}"),
        "{tree}"
    );
    assert_eq!(run_ok(&["get", pom, "project.modelVersion"]), "4.0.0\n");
    assert_eq!(
        run_ok(&["get", pom, "project.@xmlns"]),
        "http://maven.apache.org/POM/4.0.0\n"
    );
    // XML → JSON → XML keeps the RawValue.
    let dir = std::env::temp_dir().join(format!("quarry-cli-xml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("pom.json");
    std::fs::write(&json, run_ok(&["convert", pom, "--to", "json"])).unwrap();
    let xml = run_ok(&["convert", json.to_str().unwrap(), "--to", "xml"]);
    let original = std::fs::read(pom).unwrap();
    assert_eq!(
        quarry::json::parse(&std::fs::read(&json).unwrap()).unwrap(),
        quarry::json::parse(
            &quarry::json::to_vec(&quarry::xml::parse(xml.as_bytes()).unwrap()).unwrap()
        )
        .unwrap()
    );
    assert_eq!(
        quarry::xml::parse(xml.as_bytes()).unwrap(),
        quarry::xml::parse(&original).unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A windows-1251 document: `tree` and `get` show its text, and `convert --to xml`
/// writes UTF-8 with a declaration that says so.
#[test]
fn xml_in_a_legacy_encoding_converts_to_utf8() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-1251-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("feed.xml");
    let privet = b"\xCF\xF0\xE8\xE2\xE5\xF2";
    let mut bytes = b"<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<a t=\"".to_vec();
    bytes.extend_from_slice(privet);
    bytes.extend_from_slice(b"\"><b>");
    bytes.extend_from_slice(privet);
    bytes.extend_from_slice(b"</b></a>\n");
    std::fs::write(&file, &bytes).unwrap();
    let file = file.to_str().unwrap();
    assert!(run_ok(&["tree", file]).contains("@t = \"Привет\""));
    assert_eq!(run_ok(&["get", file, "a.b"]), "Привет\n");
    let xml = run_ok(&["convert", file, "--to", "xml"]);
    assert!(
        xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"),
        "{xml}"
    );
    assert_eq!(
        quarry::xml::parse(xml.as_bytes()).unwrap(),
        quarry::xml::parse(&bytes).unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// RSS feeds in IBM855 and MacCyrillic, encodings WHATWG leaves out or names otherwise:
/// `check` accepts them, and `get` reads their text as the UTF-8 copy's.
#[test]
fn check_reads_feeds_in_ibm855_and_maccyrillic() {
    let dir = repo().join("testdata/encodings");
    let files: Vec<String> = ["rss-ibm855.xml", "rss-maccyrillic.xml"]
        .iter()
        .map(|name| dir.join(name).to_str().unwrap().to_owned())
        .collect();
    for file in &files {
        let out = quarry(&["check", file]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            run_ok(&["get", file, "rss.channel.title"]),
            "Новости Заречья\n"
        );
        assert_eq!(
            run_ok(&["get", file, "rss.channel.item[1].title"]),
            "«Щелкунчик» в Доме культуры\n"
        );
    }
    let out = quarry(&["check", &files[0], &files[1]]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn plists_in_every_form_and_bplist_output() {
    let binary = repo().join("testdata/corpus/plist/rust-plist-binary.plist");
    let binary = binary.to_str().unwrap();
    let tree = run_ok(&["tree", binary]);
    assert!(tree.starts_with("@0x0008  dict (13 keys)"), "{tree}");
    assert_eq!(run_ok(&["get", binary, "Author"]), "William Shakespeare\n");
    let dir = std::env::temp_dir().join(format!("quarry-cli-plist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // TOML → binary plist → XML plist → JSON: the values survive every step.
    let config = repo().join("examples/config.toml");
    let out = quarry(&["convert", config.to_str().unwrap(), "--to", "bplist"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"bplist00"));
    let bplist = dir.join("config.plist");
    std::fs::write(&bplist, &out.stdout).unwrap();
    let xml = dir.join("config-xml.plist");
    std::fs::write(
        &xml,
        run_ok(&["convert", bplist.to_str().unwrap(), "--to", "plist"]),
    )
    .unwrap();
    assert_eq!(
        quarry::plist::parse(&std::fs::read(&xml).unwrap()).unwrap(),
        quarry::plist::parse(&out.stdout).unwrap()
    );
    assert_eq!(
        run_ok(&["get", xml.to_str().unwrap(), "servers[1].port"]),
        "8081\n"
    );
    // Invalid fixtures fail with a position.
    let bad = repo().join("testdata/suites/plist/invalid/empty.plist");
    assert_eq!(
        quarry(&["check", bad.to_str().unwrap()]).status.code(),
        Some(1)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Every command reads standard input (`-`, or no FILE for tree and convert); the format
/// comes from --format or, where unambiguous, from the content.
#[test]
fn commands_read_standard_input_in_every_format() {
    // JSON, told by its content.
    let out = piped(&["get", "-", "a[1]"], br#"{"a": [1, 2]}"#);
    assert_eq!((out.status.code(), text(&out).as_str()), (Some(0), "2\n"));
    let out = piped(&["tree"], br#"{"a": [1, 2]}"#);
    assert!(
        text(&out).starts_with("1  object (1 member)\n"),
        "{}",
        text(&out)
    );
    let out = piped(&["convert", "--to", "yaml"], br#"{"a": [1, 2]}"#);
    assert_eq!(text(&out), "a:\n  - 1\n  - 2\n");
    // XML and plists, told by their markup or magic.
    let out = piped(
        &["get", "-", "r.b"],
        b"<?xml version='1.0'?><r><b>x</b></r>",
    );
    assert_eq!(text(&out), "x\n");
    let plist =
        quarry::plist::to_vec_binary(&quarry::json::parse(br#"{"k": 7}"#).unwrap()).unwrap();
    let out = piped(&["get", "-", "k"], &plist);
    assert_eq!(text(&out), "7\n");
    let xml_plist =
        quarry::plist::to_vec_xml(&quarry::json::parse(br#"{"k": 7}"#).unwrap()).unwrap();
    let out = piped(&["convert", "-", "--to", "json", "--compact"], &xml_plist);
    assert_eq!(text(&out), "{\"k\":7}\n");
    // TOML cannot be told from its content (`a = 1` is a YAML string too): --format, or
    // exit 2 asking for it.
    let out = piped(&["get", "-", "a"], b"a = 1\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use --format"));
    let out = piped(&["get", "-", "a", "--format", "yaml"], b"a: 1\n");
    assert_eq!(text(&out), "1\n");
    let out = piped(
        &["convert", "--to", "json", "--format", "toml", "--compact"],
        b"a = 1\n",
    );
    assert_eq!(text(&out), "{\"a\":1}\n");
    // An error in standard input is placed like one in a file.
    let out = piped(&["check", "-", "--format", "json"], b"[1,]");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("<stdin>:1:4: "));
}

/// YAML piped in needs no --format, as with yq: content that parses as a YAML mapping or
/// sequence, and as no other format, is YAML.
#[test]
fn yaml_on_standard_input_is_told_by_its_content() {
    let ci = b"# CI\na:\n  b: 3\n  c:\n    - x\n    - y\n";
    let out = piped(&["get", "-", "a.b"], ci);
    assert_eq!((out.status.code(), text(&out).as_str()), (Some(0), "3\n"));
    let out = piped(&["get", "-", "a.c[1]"], ci);
    assert_eq!(text(&out), "y\n");
    let out = piped(&["tree"], b"- 1\n- two\n");
    assert_eq!(out.status.code(), Some(0));
    let out = piped(
        &["convert", "--to", "json", "--compact"],
        b"a: 1\n---\nb: 2\n",
    );
    assert_eq!(text(&out), "{\"a\":1}\n{\"b\":2}\n");
    // Text that is a YAML string, not a mapping or sequence, is not guessed.
    let out = piped(&["get", "-", "a"], b"just some words\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use --format"));
}

/// JSON is also valid YAML; on standard input it is read as JSON (its `tree` shows JSON's
/// node kinds: an object, not a YAML mapping).
#[test]
fn json_on_standard_input_stays_json() {
    let doc = b"{\"a\": {\"b\": [1, 2]}}\n";
    let out = piped(&["get", "-", "a.b[1]"], doc);
    assert_eq!((out.status.code(), text(&out).as_str()), (Some(0), "2\n"));
    let out = piped(&["tree"], doc);
    assert!(
        text(&out).starts_with("1  object (1 member)\n1    a: object (1 member)\n"),
        "{}",
        text(&out)
    );
}

/// Colour only on a terminal (never in a pipe) or when asked; NO_COLOR turns `auto` off.
#[test]
fn colour_is_off_in_pipes_and_on_when_asked() {
    let doc = br#"{"a": [1, 2]}"#;
    let plain = piped(&["tree"], doc);
    assert!(!text(&plain).contains('\x1b'));
    let colored = piped(&["tree", "--color", "always"], doc);
    assert!(text(&colored).contains("\x1b["));
    let never = piped_env(&["tree", "--color", "always"], doc, &[("NO_COLOR", "1")]);
    assert!(
        text(&never).contains("\x1b["),
        "--color always wins over NO_COLOR"
    );
    let auto = piped_env(
        &["check", "-", "--format", "json"],
        b"[1,]",
        &[("NO_COLOR", "1")],
    );
    assert!(!String::from_utf8_lossy(&auto.stderr).contains('\x1b'));
    let errors = piped(
        &["check", "-", "--format", "json", "--color", "always"],
        b"[1,]",
    );
    assert!(String::from_utf8_lossy(&errors.stderr).contains("\x1b[1m<stdin>:1:4:"));
}

/// `check DIR` walks for files of every known format, skipping hidden folders and what
/// `.gitignore` and `.ignore` exclude; problems as JSON objects or GitHub annotations.
#[test]
fn check_walks_directories_and_reports_for_programs() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["conf", "conf/deep", ".hidden", "build"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let files: [(&str, &str); 9] = [
        ("conf/a.json", "{\"a\": 1}"),
        ("conf/b.yaml", "b: [1, 2]\n"),
        ("conf/deep/c.toml", "c = \n"),
        ("conf/deep/d.xml", "<d></e>"),
        ("conf/notes.txt", "not data"),
        (".hidden/e.json", "{"),
        ("build/f.json", "{"),
        ("ignored.json", "{"),
        ("Cargo.lock", "version = 3\n"),
    ];
    for (name, content) in files {
        std::fs::write(dir.join(name), content).unwrap();
    }
    std::fs::write(dir.join(".gitignore"), "build/\n").unwrap();
    std::fs::write(dir.join(".ignore"), "ignored.json\n").unwrap();
    let root = dir.to_str().unwrap();
    let out = quarry(&["check", root]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.ends_with("checked 5 files: 2 invalid\n"), "{stderr}");
    // JSON: one object per problem, with every documented member.
    let out = quarry(&["check", root, "--output", "json"]);
    let records: Vec<serde_json::Value> = text(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    let c = &records[0];
    assert!(c["file"].as_str().unwrap().ends_with("c.toml"));
    assert_eq!(
        (c["line"].as_u64(), c["column"].as_u64()),
        (Some(1), Some(5))
    );
    assert_eq!(
        (c["end_line"].as_u64(), c["end_column"].as_u64()),
        (Some(1), Some(6))
    );
    assert_eq!(c["format"], "toml");
    assert!(c["kind"]
        .as_str()
        .unwrap()
        .chars()
        .all(char::is_alphanumeric));
    assert!(!c["message"].as_str().unwrap().is_empty());
    assert!(records[1]["file"].as_str().unwrap().ends_with("d.xml"));
    // GitHub annotations, one per problem.
    let out = quarry(&["check", root, "--output", "github"]);
    let lines: Vec<String> = text(&out).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("::error file=") && lines[0].contains(",line=1,col=5::"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `[*]` and `*` in `get` paths: one value per match, or a JSON array of them.
#[test]
fn get_matches_every_item_and_key() {
    let doc = br#"{"servers": [{"host": "a"}, {"host": "b"}], "deps": {"x": {"v": "1"}, "y": {"v": "2"}}}"#;
    assert_eq!(
        text(&piped(&["get", "-", "servers[*].host"], doc)),
        "a\nb\n"
    );
    assert_eq!(text(&piped(&["get", "-", "deps.*.v"], doc)), "1\n2\n");
    let out = piped(&["get", "-", "deps.*.v", "--output", "json"], doc);
    let json: serde_json::Value = serde_json::from_str(&text(&out)).unwrap();
    assert_eq!(json, serde_json::json!(["1", "2"]));
    // Without a wildcard, --output json prints the one value itself.
    let out = piped(&["get", "-", "servers[1]", "--output", "json"], doc);
    let json: serde_json::Value = serde_json::from_str(&text(&out)).unwrap();
    assert_eq!(json, serde_json::json!({"host": "b"}));
    let out = piped(&["get", "-", "servers[*].port"], doc);
    assert_eq!(out.status.code(), Some(1));
    // In TOML, over a real manifest: every dependency.
    let cargo = repo().join("testdata/corpus/toml/cargo-Cargo.toml");
    let out = quarry(&[
        "get",
        cargo.to_str().unwrap(),
        "dependencies.*",
        "--output",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&text(&out)).unwrap();
    assert!(json.as_array().unwrap().len() > 10);
}

/// JSON Lines convert document by document; a bad line is named by its line number.
#[test]
fn json_lines_convert_document_by_document() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-jsonl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("events.jsonl");
    std::fs::write(&file, "{\"a\": 1}\n\n{\"a\": 2}\n").unwrap();
    let out = quarry(&["convert", file.to_str().unwrap(), "--to", "yaml"]);
    assert_eq!(text(&out), "a: 1\n---\na: 2\n");
    let out = quarry(&["convert", file.to_str().unwrap(), "--to", "json"]);
    assert_eq!(text(&out), "{\"a\":1}\n{\"a\":2}\n");
    std::fs::write(&file, "{\"a\": 1}\n{\"a\": }\n").unwrap();
    let out = quarry(&["convert", file.to_str().unwrap(), "--to", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out),
        "{\"a\":1}\n",
        "the good line before the bad one is written"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("events.jsonl:2:7: "));
    let out = quarry(&["check", file.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("events.jsonl:2:7: "));
    std::fs::remove_dir_all(&dir).ok();
}

/// Completion scripts for the shells, and an example in every subcommand's help.
#[test]
fn completions_and_help_examples() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = quarry(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(text(&out).contains("quarry"), "{shell}");
    }
    for command in [
        "tree",
        "get",
        "convert",
        "check",
        "config",
        "set",
        "delete",
        "completions",
    ] {
        let out = quarry(&[command, "--help"]);
        assert!(text(&out).contains("Example"), "{command}");
    }
}

/// `check` over the repository's own test data: thousands of files in every format,
/// many invalid on purpose; the counts are the library's verdicts, file by file.
#[test]
fn check_over_the_test_data_counts_what_the_library_finds() {
    let testdata = repo().join("testdata");
    let mut files = 0;
    let mut invalid = 0;
    let mut stack = vec![testdata.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if let Some(format) = quarry::Format::from_path(&path) {
                files += 1;
                let bytes = std::fs::read(&path).unwrap();
                if quarry::check(&bytes, format).is_err() {
                    invalid += 1;
                }
            }
        }
    }
    assert!(files > 4000, "{files}");
    let out = quarry(&["check", testdata.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stderr.lines().last().unwrap().replace(',', "");
    assert_eq!(summary, format!("checked {files} files: {invalid} invalid"));
    assert_eq!(out.status.code(), Some(1));
}

/// A YAML stream converts document by document: the documents before a syntax error are
/// written, then the error with its line.
#[test]
fn yaml_streams_write_the_documents_before_an_error() {
    let stream = b"a: 1\n---\nb: [1, 2]\n---\nc: [1,\n";
    let out = piped(&["convert", "--format", "yaml", "--to", "json"], stream);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out), "{\"a\":1}\n{\"b\":[1,2]}\n");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("<stdin>:6:1: "));
    let out = piped(&["convert", "--format", "yaml", "--to", "yaml"], stream);
    assert_eq!(text(&out), "a: 1\n---\nb:\n  - 1\n  - 2\n");
    // One document keeps the one-document layout.
    let out = piped(&["convert", "--format", "yaml", "--to", "json"], b"a: 1\n");
    assert_eq!(text(&out), "{\n  \"a\": 1\n}\n");
}

#[test]
fn config_merges_layers_with_the_environment_and_shows_origins() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = dir.join("base.toml");
    let local = dir.join("local.yaml");
    std::fs::write(
        &base,
        "name = \"web\"\n[database]\nport = 5432\nmax_connections = 10\n",
    )
    .unwrap();
    std::fs::write(&local, "database:\n  port: 6000\nhosts: [a, b]\n").unwrap();
    let (b, l) = (base.to_str().unwrap(), local.to_str().unwrap());
    let env = [("APP_DATABASE_MAX_CONNECTIONS", "50"), ("NO_COLOR", "1")];

    let out = piped_env(
        &["config", b, l, "--env", "APP", "--to", "json", "--compact"],
        b"",
        &env,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text(&out).trim_end(),
        r#"{"name":"web","database":{"port":6000,"max_connections":50},"hosts":["a","b"]}"#
    );

    let out = piped_env(
        &["config", b, l, "--env", "APP", "--show-origin"],
        b"",
        &env,
    );
    assert_eq!(
        text(&out),
        format!(
            "name = \"web\"  # {b}:1:8\n\
             database.port = 6000  # {l}:2:9\n\
             database.max_connections = 50  # environment variable APP_DATABASE_MAX_CONNECTIONS\n\
             hosts[0] = \"a\"  # {l}:3:9\n\
             hosts[1] = \"b\"  # {l}:3:12\n"
        )
    );

    // The output format defaults to the first file's.
    let out = run_ok(&["config", b, l]);
    assert!(out.starts_with("name = \"web\"\n"), "{out}");

    // Profiles.
    let profiles = dir.join("profiles.toml");
    std::fs::write(
        &profiles,
        "[default]\nport = 1\nhost = \"a\"\n[production]\nport = 2\n",
    )
    .unwrap();
    let p = profiles.to_str().unwrap();
    let out = run_ok(&[
        "config",
        p,
        "--profile",
        "production",
        "--to",
        "json",
        "--compact",
    ]);
    assert_eq!(out.trim_end(), r#"{"port":2,"host":"a"}"#);

    // Every broken layer at once, exit 1.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "a = \n").unwrap();
    let out = quarry(&["config", b, bad.to_str().unwrap(), "missing.json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.toml:1:5: "), "{err}");
    assert!(err.contains("1 | a = "), "{err}");
    assert!(err.contains("missing.json: "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_reads_conf_d_folders_explains_a_path_and_hides_secrets() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-conf-d-{}", std::process::id()));
    let conf = dir.join("conf.d");
    std::fs::create_dir_all(&conf).unwrap();
    let base = dir.join("base.toml");
    std::fs::write(&base, "[db]\nhost = \"a\"\nport = 1\npassword = \"x\"\n").unwrap();
    std::fs::write(conf.join("10-port.yaml"), "db:\n  port: 2\n").unwrap();
    std::fs::write(conf.join("20-port.json"), r#"{"db": {"port": 3}}"#).unwrap();
    std::fs::write(conf.join("20-port.json~"), r#"{"db": {"port": 4}}"#).unwrap();
    let secret = dir.join("password");
    std::fs::write(&secret, "hunter2\n").unwrap();
    let (b, c, s) = (
        base.to_str().unwrap(),
        conf.to_str().unwrap(),
        secret.to_str().unwrap(),
    );
    let env = [("APP_DB_PASSWORD_FILE", s), ("NO_COLOR", "1")];

    let out = piped_env(
        &[
            "config",
            b,
            "--dir",
            c,
            "--env",
            "APP",
            "--to",
            "json",
            "--compact",
        ],
        b"",
        &env,
    );
    assert_eq!(
        text(&out).trim_end(),
        r#"{"db":{"host":"a","port":3,"password":"***"}}"#,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A folder alone is enough.
    let out = run_ok(&["config", "--dir", c, "--to", "json", "--compact"]);
    assert_eq!(out.trim_end(), r#"{"db":{"port":3}}"#);

    let out = piped_env(
        &["config", b, "--dir", c, "--env", "APP", "--show-origin"],
        b"",
        &env,
    );
    let shown = text(&out);
    assert!(
        shown.contains(&format!(
            "db.password = ***  # {s} (named by APP_DB_PASSWORD_FILE)"
        )),
        "{shown}"
    );
    assert!(!shown.contains("hunter2"), "{shown}");

    let out = piped_env(
        &[
            "config",
            b,
            "--dir",
            c,
            "--env",
            "APP",
            "--explain",
            "db.port",
        ],
        b"",
        &env,
    );
    let p10 = conf.join("10-port.yaml");
    let p20 = conf.join("20-port.json");
    assert_eq!(
        text(&out),
        format!(
            "db.port\n  replaced  1  # {b}:3:8\n  replaced  2  # {}:2:9\n  used      3  # {}:1:17\n",
            p10.display(),
            p20.display()
        )
    );
    let out = piped_env(
        &["config", b, "--env", "APP", "--explain", "db.password"],
        b"",
        &env,
    );
    let explained = text(&out);
    assert!(explained.contains("used      ***  # "), "{explained}");
    assert!(!explained.contains("hunter2"), "{explained}");

    // An absent folder is an error, exit 1.
    let out = quarry(&["config", b, "--dir", "no-such-conf.d"]);
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_against_a_schema_reports_every_violation_with_its_line_and_column() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The schema itself may be written in any format quarry reads.
    let schema =
        std::env::temp_dir().join(format!("quarry-cli-schema-{}.yaml", std::process::id()));
    std::fs::write(
        &schema,
        "type: object\nproperties:\n  port: {type: integer, maximum: 65535}\n  hosts: {type: array, items: {type: string}}\nrequired: [port]\nadditionalProperties: false\n",
    )
    .unwrap();
    let files = [
        ("a.yaml", "port: 70000\nhosts:\n  - a\n  - 3\nextra: 1\n"),
        ("b.toml", "port = 80\nhosts = [\"x\", 5]\n"),
        ("c.json", "{\"hosts\": []}\n"),
        ("ok.json", "{\"port\": 1}\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let s = schema.to_str().unwrap();
    let d = dir.to_str().unwrap();
    let out = quarry(&[
        "--color", "never", "check", "--schema", s, d, "--output", "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let mut found: Vec<(String, u64, u64, String, String)> = text(&out)
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let file = v["file"].as_str().unwrap();
            (
                file.rsplit('/').next().unwrap().to_owned(),
                v["line"].as_u64().expect("every violation has a line"),
                v["column"].as_u64().expect("and a column"),
                v["kind"].as_str().unwrap().to_owned(),
                v["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    found.sort();
    let summary: Vec<(&str, u64, u64, &str)> = found
        .iter()
        .map(|(f, l, c, k, _)| (f.as_str(), *l, *c, k.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            ("a.yaml", 1, 7, "Maximum"),
            ("a.yaml", 4, 5, "Type"),
            ("a.yaml", 5, 8, "AdditionalProperties"),
            ("b.toml", 2, 15, "Type"),
            ("c.json", 1, 1, "Required"),
        ]
    );
    assert!(found
        .iter()
        .any(|f| f.4 == "port: 70000 is greater than the maximum of 65535"));

    // Text output: FILE:LINE:COLUMN: message, and the line with a caret.
    let out = quarry(&[
        "--color",
        "never",
        "check",
        "--schema",
        s,
        &format!("{d}/b.toml"),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("b.toml:2:15: hosts[1]: 5 is not of type \"string\""),
        "{err}"
    );
    assert!(err.contains("2 | hosts = [\"x\", 5]"), "{err}");

    // A schema that is not one is a usage error.
    std::fs::write(dir.join("bad.schema.json"), "{\"type\": 5}").unwrap();
    let bad = dir.join("bad.schema.json");
    let out = quarry(&[
        "check",
        "--schema",
        bad.to_str().unwrap(),
        &format!("{d}/ok.json"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&schema);
}

#[test]
fn set_and_delete_edit_in_place_and_keep_every_other_byte() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-edit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = dir.join("Cargo.toml");
    let text = "# the manifest\n[package]\nname = 'app'  # literal\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\nrand = \"0.8\"\n";
    std::fs::write(&manifest, text).unwrap();
    let m = manifest.to_str().unwrap();

    // To standard output; the file is untouched.
    let out = run_ok(&["set", m, "package.version", "\"0.2.0\""]);
    assert_eq!(out, text.replace("0.1.0", "0.2.0"));
    assert_eq!(std::fs::read_to_string(&manifest).unwrap(), text);

    // In place.
    run_ok(&[
        "set",
        m,
        "dependencies.toml",
        "{version: \"0.8\", features: [parse]}",
        "--in-place",
    ]);
    run_ok(&["delete", m, "dependencies.rand", "-i"]);
    assert_eq!(
        std::fs::read_to_string(&manifest).unwrap(),
        "# the manifest\n[package]\nname = 'app'  # literal\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\ntoml = { version = \"0.8\", features = [\"parse\"] }\n"
    );
    let before = std::fs::read(&manifest).unwrap();

    // Failures leave the file alone and exit 1 (bad edit) or 2 (bad value).
    let out = quarry(&["delete", m, "dependencies.nope", "--in-place"]);
    assert_eq!(out.status.code(), Some(1));
    let out = quarry(&["set", m, "package.version", "[unclosed", "--in-place"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&manifest).unwrap(), before);
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "a = \n").unwrap();
    let out = quarry(&["set", broken.to_str().unwrap(), "a", "1", "-i"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "a = \n");
    // No temporary file is left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains("quarry-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // YAML streams, one document at a time; standard input.
    let out = piped(
        &["set", "-", "a", "20", "--format", "yaml", "--doc", "1"],
        b"a: 1\n---\na: 2\n",
    );
    assert_eq!(text_of(&out), "a: 1\n---\na: 20\n");
    let out = piped(
        &["set", "-", "b", "[x, y]", "--format", "json"],
        b"{\"a\": 1}",
    );
    assert_eq!(text_of(&out), "{\"a\": 1, \"b\": [\"x\",\"y\"]}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn text_of(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn insert_push_and_several_edits_in_one_call() {
    let workflow = "jobs:\n  test:\n    steps:\n      - uses: actions/checkout@v4\n      - name: Build          # the build\n        run: cargo build\n";
    // The first key of a compact mapping in a sequence item.
    let out = piped(
        &["delete", "-", "jobs.test.steps[1].name", "--format", "yaml"],
        workflow.as_bytes(),
    );
    assert_eq!(
        text_of(&out),
        "jobs:\n  test:\n    steps:\n      - uses: actions/checkout@v4\n      - run: cargo build\n"
    );
    // A one-key file.
    let out = piped(
        &["delete", "-", "github", "--format", "yaml"],
        b"github: [me]\n",
    );
    assert_eq!(text_of(&out), "{}\n");
    // Pairs applied in order, written once; insert and push.
    let out = piped(
        &["set", "-", "a.b", "1", "c", "two", "--format", "yaml"],
        b"a:\n  b: 0\n",
    );
    assert_eq!(text_of(&out), "a:\n  b: 1\nc: two\n");
    let out = piped(
        &["insert", "-", "a.c", "2", "a.d", "[x]", "--format", "yaml"],
        b"a:\n  b: 0\n",
    );
    assert_eq!(text_of(&out), "a:\n  b: 0\n  c: 2\n  d:\n    - x\n");
    let out = piped(
        &["push", "-", "xs", "3", "--format", "toml"],
        b"xs = [1, 2]  # numbers\n",
    );
    assert_eq!(text_of(&out), "xs = [1, 2, 3]  # numbers\n");
    let out = piped(
        &["delete", "-", "a", "b", "--format", "json"],
        b"{\"a\": 1, \"b\": 2, \"c\": 3}",
    );
    assert_eq!(text_of(&out), "{\"c\": 3}");
    // A path without its value is bad usage.
    let out = piped(&["set", "-", "a", "1", "b", "--format", "yaml"], b"a: 0\n");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn edit_errors_are_reported_as_check_reports_them() {
    let dir = std::env::temp_dir().join(format!("quarry-cli-edit-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("app.yaml");
    std::fs::write(&file, "server:\n  port: 80\n").unwrap();
    let f = file.to_str().unwrap();
    // A failed edit: at the deepest node of its path, with the line and a caret.
    let out = quarry(&["insert", f, "server.port", "81", "--color", "never"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("{f}:2:9: server.port: already there (use set)\n")),
        "{err}"
    );
    assert!(err.contains("  port: 80"), "{err}");
    // A document that does not parse: where it stops, with the parser's message.
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "a = 1\nb = \n").unwrap();
    let b = broken.to_str().unwrap();
    let out = quarry(&["set", b, "a", "2", "--color", "never"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("{b}:2:")), "{err}");
    assert!(!err.contains("does not parse"), "{err}");
    // As JSON.
    let out = quarry(&["delete", f, "server.host", "--output", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let record = quarry::json::parse(err.trim().as_bytes())
        .unwrap()
        .into_owned();
    let get = |key: &str| match &record {
        quarry::RawValue::Map(entries) => entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone()),
        _ => None,
    };
    assert_eq!(get("line"), Some(quarry::RawValue::Int(2)));
    assert_eq!(
        get("kind"),
        Some(quarry::RawValue::String("NotFound".into()))
    );
    assert_eq!(
        get("file"),
        Some(quarry::RawValue::String(f.to_owned().into()))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
