//! `quarry sql`, run as a user runs it.
#![cfg(feature = "sql")]

use std::path::PathBuf;
use std::process::{Command, Output};

fn quarry(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quarry"))
        .args(args)
        .output()
        .expect("run quarry")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A directory of its own for each test, holding a JSON Lines and a YAML file.
fn files(test: &str) -> (PathBuf, String, String) {
    let dir = std::env::temp_dir().join(format!("quarry-cli-sql-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let logs = dir.join("App-Logs.jsonl");
    std::fs::write(
        &logs,
        concat!(
            "{\"level\": \"info\", \"host\": \"alpha\", \"took\": 12}\n",
            "{\"level\": \"warn\", \"host\": \"beta\", \"took\": 3.5}\n",
            "\n",
            "{\"level\": \"info\", \"host\": \"beta\", \"took\": 7}\n",
            "{\"level\": \"error\", \"host\": \"alpha\"}\n",
        ),
    )
    .unwrap();
    let hosts = dir.join("hosts.yaml");
    std::fs::write(
        &hosts,
        "- host: alpha\n  port: 8080\n- host: beta\n  port: 9090\n  tags: [edge]\n",
    )
    .unwrap();
    let logs = logs.to_str().unwrap().to_owned();
    let hosts = hosts.to_str().unwrap().to_owned();
    (dir, logs, hosts)
}

#[test]
fn one_file_is_also_t_and_prints_a_table() {
    let (dir, logs, _) = files("table");
    let query =
        "SELECT level, count(*) AS n, sum(took) AS total FROM t GROUP BY level ORDER BY level";
    let out = quarry(&["sql", query, &logs]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "\
+-------+---+-------+
| level | n | total |
+-------+---+-------+
| error | 1 |       |
| info  | 2 | 19.0  |
| warn  | 1 | 3.5   |
+-------+---+-------+
"
    );
    // The table's own name: the stem, lowercased, `-` turned to `_`.
    let out = quarry(&["sql", "SELECT count(*) AS n FROM app_logs", &logs]);
    assert_eq!(stdout(&out), "+---+\n| n |\n+---+\n| 4 |\n+---+\n");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn two_files_join_and_print_json_lines() {
    let (dir, logs, hosts) = files("json");
    let query = "SELECT l.level, l.host, h.port, h.tags FROM app_logs l JOIN hosts h \
                 ON l.host = h.host ORDER BY l.level, l.host";
    let out = quarry(&["sql", query, &logs, &hosts, "--output", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "\
{\"level\":\"error\",\"host\":\"alpha\",\"port\":8080}
{\"level\":\"info\",\"host\":\"alpha\",\"port\":8080}
{\"level\":\"info\",\"host\":\"beta\",\"port\":9090,\"tags\":[\"edge\"]}
{\"level\":\"warn\",\"host\":\"beta\",\"port\":9090,\"tags\":[\"edge\"]}
"
    );
    // With two files there is no `t`.
    let out = quarry(&["sql", "SELECT * FROM t", &logs, &hosts]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("t"), "{}", stderr(&out));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn yaml_as_a_table_and_as_json_lines() {
    let (dir, _, hosts) = files("yaml");
    let query = "SELECT host, port FROM t ORDER BY port DESC";
    let out = quarry(&["sql", query, &hosts]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "\
+-------+------+
| host  | port |
+-------+------+
| beta  | 9090 |
| alpha | 8080 |
+-------+------+
"
    );
    let out = quarry(&["sql", query, &hosts, "--output", "json"]);
    assert_eq!(
        stdout(&out),
        "{\"host\":\"beta\",\"port\":9090}\n{\"host\":\"alpha\",\"port\":8080}\n"
    );
    // No rows: the header still shows the columns; JSON Lines prints nothing.
    let query = "SELECT host FROM t WHERE port > 10000";
    let out = quarry(&["sql", query, &hosts]);
    assert_eq!(stdout(&out), "+------+\n| host |\n+------+\n+------+\n");
    let out = quarry(&["sql", query, &hosts, "--output", "json"]);
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), String::new()));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_usage_and_bad_files_exit_with_their_codes() {
    let (dir, logs, _) = files("errors");
    // A query that cannot be planned: bad usage.
    let out = quarry(&["sql", "SELECT nope FROM t", &logs]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("quarry: "), "{}", stderr(&out));
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
    // An extension that names no record format.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "hello\n").unwrap();
    let out = quarry(&["sql", "SELECT 1", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot tell the record format"),
        "{}",
        stderr(&out)
    );
    // A missing file.
    let missing = dir.join("missing.jsonl");
    let out = quarry(&["sql", "SELECT 1", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // A file whose records cannot be read: invalid, naming the file and the line.
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"a\": 1}\n{\"a\": [}\n").unwrap();
    let out = quarry(&["sql", "SELECT * FROM t", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let message = stderr(&out);
    let place = format!("{}: ", bad.display());
    assert!(
        message.starts_with(&place) && message.contains("line 2"),
        "{message}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A fresh, empty directory for a test.
fn empty_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quarry-cli-sql-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_directory_is_one_table_of_its_files() {
    let dir = empty_dir("dir");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::write(logs.join("a.jsonl"), "{\"id\": 1, \"n\": 2}\n").unwrap();
    std::fs::write(logs.join("b.jsonl"), "{\"id\": 2, \"n\": 2.5}\n").unwrap();
    std::fs::write(logs.join("c.jsonl"), "{\"id\": 3, \"extra\": true}\n").unwrap();
    std::fs::write(logs.join("README.md"), "not a record file\n").unwrap();
    let logs = logs.to_str().unwrap();
    let out = quarry(&["sql", "SELECT id, n, extra FROM logs ORDER BY id", logs]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "\
+----+-----+-------+
| id | n   | extra |
+----+-----+-------+
| 1  | 2.0 |       |
| 2  | 2.5 |       |
| 3  |     | true  |
+----+-----+-------+
"
    );
    // A lone directory is also `t`; a directory of `.yml` files reads them.
    let yml = dir.join("hosts");
    std::fs::create_dir_all(&yml).unwrap();
    std::fs::write(yml.join("a.yml"), "host: alpha\n---\nhost: beta\n").unwrap();
    std::fs::write(yml.join("b.yml"), "host: gamma\n").unwrap();
    let out = quarry(&["sql", "SELECT count(*) AS n FROM t", yml.to_str().unwrap()]);
    assert_eq!(
        stdout(&out),
        "+---+\n| n |\n+---+\n| 3 |\n+---+\n",
        "{}",
        stderr(&out)
    );
    // A bad file of a directory is named by its path.
    std::fs::write(yml.join("c.yml"), "host: [delta\n").unwrap();
    let out = quarry(&["sql", "SELECT count(*) FROM t", yml.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let place = format!("{}: ", yml.join("c.yml").display());
    assert!(stderr(&out).starts_with(&place), "{}", stderr(&out));
    std::fs::remove_file(yml.join("c.yml")).unwrap();
    // Files of two kinds, or none: bad usage.
    std::fs::write(yml.join("c.toml"), "[[r]]\na = 1\n").unwrap();
    let out = quarry(&["sql", "SELECT 1", yml.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(".toml, .yml files"),
        "{}",
        stderr(&out)
    );
    let none = dir.join("none");
    std::fs::create_dir_all(&none).unwrap();
    let out = quarry(&["sql", "SELECT 1", none.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no record files"), "{}", stderr(&out));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn schema_prints_each_tables_inferred_schema() {
    let (dir, logs, hosts) = files("schema");
    let out = quarry(&["sql", "--schema", &logs, &hosts]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "\
app_logs
  level: Utf8
  host: Utf8
  took: Float64
hosts
  host: Utf8
  port: Int64
  tags: List(Utf8)
"
    );
    let out = quarry(&["sql", "--schema", &hosts, "--output", "json"]);
    let table: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(table["table"], "hosts");
    assert_eq!(table["fields"][1]["type"], "Int64");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Inferred from a sample, a table meets fields the sample lacked: counted on standard
/// error by default, an error with `--unknown-fields error`; inferred from every record
/// (the default), the field is a column.
#[test]
fn fields_past_the_sample_are_reported_on_standard_error() {
    let dir = empty_dir("unknown");
    let mut text = String::new();
    for i in 1..=1001 {
        let extra = if i > 1000 { ", \"extra\": 1" } else { "" };
        text.push_str(&format!("{{\"id\": {i}{extra}}}\n"));
    }
    let path = dir.join("events.jsonl");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();
    let query = "SELECT count(*) AS n FROM t";
    let out = quarry(&["sql", query, path, "--infer-records", "1000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "+------+\n| n    |\n+------+\n| 1001 |\n+------+\n"
    );
    assert!(
        stderr(&out).contains("table `events`: field `extra` is not in the schema"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("skipped once"), "{}", stderr(&out));
    let strict = ["--infer-records", "1000", "--unknown-fields", "error"];
    let out = quarry(&[&["sql", query, path][..], &strict[..]].concat());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .contains("record 1001: field `extra` is not in the schema at line 1001, column 14"),
        "{}",
        stderr(&out)
    );
    let out = quarry(&["sql", "SELECT sum(extra) AS s FROM t", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "+---+\n| s |\n+---+\n| 1 |\n+---+\n");
    assert_eq!(stderr(&out), "");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A depth bomb, a YAML alias bomb and an XML entity bomb end in an error naming the
/// limit they pass, not in a crash or a hang.
#[test]
fn bombs_end_in_an_error_naming_the_limit() {
    let dir = empty_dir("bombs");
    let depth = 10_000;
    let deep = format!("{{\"a\": {}1{}}}\n", "[".repeat(depth), "]".repeat(depth));
    std::fs::write(dir.join("deep.jsonl"), deep).unwrap();
    let mut aliases = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..=9 {
        let p = format!("*a{}", i - 1);
        aliases.push_str(&format!("a{i}: &a{i} [{}]\n", [p.as_str(); 9].join(", ")));
    }
    std::fs::write(dir.join("aliases.yaml"), aliases).unwrap();
    let mut entities =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n<!ENTITY e0 \"xxxxxxxxxx\">\n");
    for i in 1..=8 {
        entities.push_str(&format!(
            "<!ENTITY e{i} \"{}\">\n",
            format!("&e{};", i - 1).repeat(10)
        ));
    }
    entities.push_str("]>\n<r><rec><v>&e8;</v></rec></r>\n");
    std::fs::write(dir.join("entities.xml"), entities).unwrap();
    for (file, limit) in [
        ("deep.jsonl", "nesting deeper than the limit of 128"),
        (
            "aliases.yaml",
            "aliases expand to more than the limit of 1000000 nodes",
        ),
        (
            "entities.xml",
            "entity expansion larger than the limit of 10485760 bytes",
        ),
    ] {
        let path = dir.join(file);
        for args in [
            vec!["sql", "SELECT count(*) FROM t", path.to_str().unwrap()],
            vec!["sql", "--schema", path.to_str().unwrap()],
        ] {
            let out = quarry(&args);
            assert_eq!(out.status.code(), Some(1), "{file}: {}", stderr(&out));
            assert!(stderr(&out).contains(limit), "{file}: {}", stderr(&out));
            assert!(stderr(&out).contains(file), "{file}: {}", stderr(&out));
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn records_at_names_where_xml_records_are() {
    let dir = empty_dir("records-at");
    let wiki = dir.join("wiki.xml");
    std::fs::write(
        &wiki,
        "<mediawiki>\n<siteinfo><sitename>W</sitename></siteinfo>\n\
         <page><title>One</title><revision><id>1</id></revision></page>\n\
         <page><title>Two</title><revision><id>2</id></revision><revision><id>3</id></revision></page>\n\
         </mediawiki>\n",
    )
    .unwrap();
    let wiki = wiki.to_str().unwrap();
    let query = "SELECT title FROM t ORDER BY title";
    let out = quarry(&["sql", query, wiki, "--records-at", "mediawiki/page"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "+-------+\n| title |\n+-------+\n| One   |\n| Two   |\n+-------+\n"
    );
    let query = "SELECT sum(CAST(id AS BIGINT)) AS ids FROM t";
    let out = quarry(&[
        "sql",
        query,
        wiki,
        "--records-at",
        "mediawiki/page/revision",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "+-----+\n| ids |\n+-----+\n| 6   |\n+-----+\n"
    );
    let out = quarry(&["sql", "--schema", wiki, "--records-at", "wiki/page"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the root element is `mediawiki`, not `wiki`"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}
