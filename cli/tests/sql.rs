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
