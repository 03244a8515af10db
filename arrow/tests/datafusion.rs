//! SQL over quarry's DataFusion format: every record format as a listing table, JSON Lines
//! split into byte ranges, and tables of many files.
#![cfg(feature = "datafusion")]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use datafusion::arrow::array::{Array, Int64Array};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::assert_batches_eq;
use datafusion::datasource::physical_plan::FileScanConfig;
use datafusion::datasource::source::DataSourceExec;
use datafusion::error::Result;
use datafusion::physical_plan::{collect, displayable, ExecutionPlan, ExecutionPlanProperties};
use datafusion::prelude::{SessionConfig, SessionContext};
use quarry_arrow::{register_formats, register_table, Options, RecordFormat};

/// A fresh directory under the system's temporary one, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let unique = format!(
            "quarry-arrow-df-{name}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(unique);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

async fn query(ctx: &SessionContext, sql: &str) -> Result<Vec<RecordBatch>> {
    ctx.sql(sql).await?.collect().await
}

const LEVELS: &[&str] = &[
    "+-------+---+",
    "| level | n |",
    "+-------+---+",
    "| error | 1 |",
    "| info  | 3 |",
    "| warn  | 1 |",
    "+-------+---+",
];

const BY_LEVEL: &str = "SELECT level, count(*) AS n FROM logs GROUP BY level ORDER BY level";

async fn levels_of(name: &str, file: &str, body: &str, format: RecordFormat) -> Vec<RecordBatch> {
    let dir = TempDir::new(name);
    let path = dir.write(file, body);
    let ctx = SessionContext::new();
    register_table(&ctx, "logs", text(&path), format, Options::default())
        .await
        .unwrap();
    query(&ctx, BY_LEVEL).await.unwrap()
}

#[tokio::test]
async fn json_lines_by_level() {
    let body = concat!(
        "{\"level\": \"info\", \"msg\": \"started\", \"took\": 3}\n",
        "{\"level\": \"warn\", \"msg\": \"slow disk\", \"took\": 120}\n",
        "\n",
        "{\"level\": \"info\", \"msg\": \"request\", \"took\": 12.5}\n",
        "{\"level\": \"error\", \"msg\": \"refused\"}\n",
        "{\"level\": \"info\", \"msg\": \"stopped\", \"took\": 1}\n",
    );
    let batches = levels_of("jsonl", "logs.jsonl", body, RecordFormat::JsonLines).await;
    assert_batches_eq!(LEVELS, &batches);
}

#[tokio::test]
async fn json_array_by_level() {
    let body = r#"[
        {"level": "info", "msg": "started"},
        {"level": "warn", "msg": "slow disk"},
        {"level": "info", "msg": "request"},
        {"level": "error", "msg": "refused"},
        {"level": "info", "msg": "stopped"}
    ]"#;
    let batches = levels_of("json", "logs.json", body, RecordFormat::Json).await;
    assert_batches_eq!(LEVELS, &batches);
}

#[tokio::test]
async fn yaml_stream_by_level() {
    let body = "\
level: info
msg: started
---
level: warn
msg: slow disk
---
level: info
msg: request
---
level: error
msg: refused
---
level: info
msg: stopped
";
    let batches = levels_of("yaml-stream", "logs.yaml", body, RecordFormat::Yaml).await;
    assert_batches_eq!(LEVELS, &batches);
}

#[tokio::test]
async fn yaml_sequence_by_level() {
    let body = "\
- level: info
  msg: started
- level: warn
  msg: slow disk
- level: info
  msg: request
- level: error
  msg: refused
- level: info
  msg: stopped
";
    let batches = levels_of("yaml-seq", "logs.yml", body, RecordFormat::Yaml).await;
    assert_batches_eq!(LEVELS, &batches);
}

#[tokio::test]
async fn xml_by_level_attribute() {
    let body = r#"<?xml version="1.0"?>
<logs>
  <entry level="info"><msg>started</msg></entry>
  <entry level="warn"><msg>slow disk</msg></entry>
  <entry level="info"><msg>request</msg></entry>
  <entry level="error"><msg>refused</msg></entry>
  <entry level="info"><msg>stopped</msg></entry>
</logs>
"#;
    let dir = TempDir::new("xml");
    let path = dir.write("logs.xml", body);
    let ctx = SessionContext::new();
    register_table(
        &ctx,
        "logs",
        text(&path),
        RecordFormat::Xml,
        Options::default(),
    )
    .await
    .unwrap();
    let sql = r#"SELECT "@level", count(*) AS n FROM logs GROUP BY "@level" ORDER BY "@level""#;
    let batches = query(&ctx, sql).await.unwrap();
    assert_batches_eq!(
        [
            "+--------+---+",
            "| @level | n |",
            "+--------+---+",
            "| error  | 1 |",
            "| info   | 3 |",
            "| warn   | 1 |",
            "+--------+---+",
        ],
        &batches
    );
    let batches = query(&ctx, r#"SELECT msg FROM logs WHERE "@level" = 'warn'"#)
        .await
        .unwrap();
    assert_batches_eq!(
        [
            "+-----------+",
            "| msg       |",
            "+-----------+",
            "| slow disk |",
            "+-----------+"
        ],
        &batches
    );
}

const TOML_LOGS: &str = r#"title = "service logs"

[[entry]]
level = "info"
msg = "started"

[[entry]]
level = "warn"
msg = "slow disk"

[[entry]]
level = "info"
msg = "request"

[[entry]]
level = "error"
msg = "refused"

[[entry]]
level = "info"
msg = "stopped"
"#;

#[tokio::test]
async fn toml_array_of_tables_by_level() {
    let batches = levels_of("toml", "logs.toml", TOML_LOGS, RecordFormat::Toml).await;
    assert_batches_eq!(LEVELS, &batches);
}

/// 20,000 lines of different lengths (and some blank ones), so that byte ranges cut lines
/// in the middle.
fn many_lines() -> (String, i64, i64) {
    let mut body = String::new();
    let (mut count, mut sum) = (0, 0);
    for id in 0..20_000i64 {
        let pad = "x".repeat((id * 7 % 23) as usize);
        body.push_str(&format!(
            "{{\"id\": {id}, \"level\": \"{}\", \"pad\": \"{pad}\"}}\n",
            ["info", "warn", "error"][(id % 3) as usize]
        ));
        if id % 997 == 0 {
            body.push('\n');
        }
        count += 1;
        sum += id;
    }
    (body, count, sum)
}

/// The byte range of each file a partition reads (`None`: the whole file).
type Group = Vec<Option<(i64, i64)>>;

/// What each partition of the plan's scan reads.
fn scan_ranges(plan: &Arc<dyn ExecutionPlan>) -> Option<Vec<Group>> {
    if let Some(exec) = plan.downcast_ref::<DataSourceExec>() {
        let config = exec.data_source().downcast_ref::<FileScanConfig>()?;
        assert_eq!(
            plan.output_partitioning().partition_count(),
            config.file_groups.len()
        );
        let groups = config
            .file_groups
            .iter()
            .map(|group| {
                group
                    .iter()
                    .map(|file| file.range.as_ref().map(|range| (range.start, range.end)))
                    .collect()
            })
            .collect();
        return Some(groups);
    }
    plan.children().into_iter().find_map(scan_ranges)
}

/// A session that cuts files of at least 1 KiB into up to `partitions` ranges (with
/// batches of `batch_size` rows, or the default), with the file at `path` registered as
/// the table `big`.
async fn split_session(
    path: &Path,
    format: RecordFormat,
    partitions: usize,
    batch_size: Option<usize>,
) -> SessionContext {
    let mut config = SessionConfig::new()
        .with_target_partitions(partitions)
        .with_repartition_file_scans(true)
        .with_repartition_file_min_size(1024);
    if let Some(rows) = batch_size {
        config = config.with_batch_size(rows);
    }
    let ctx = SessionContext::new_with_config(config);
    register_table(&ctx, "big", text(path), format, Options::default())
        .await
        .unwrap();
    ctx
}

#[tokio::test]
async fn json_lines_split_into_byte_ranges_reads_every_line_once() {
    let dir = TempDir::new("split");
    let (body, count, sum) = many_lines();
    let path = dir.write("big.jsonl", &body);
    for partitions in [2, 3, 4, 7, 16] {
        let ctx = split_session(&path, RecordFormat::JsonLines, partitions, None).await;

        let frame = ctx
            .sql("SELECT count(*) AS n, sum(id) AS total FROM big")
            .await
            .unwrap();
        let plan = frame.create_physical_plan().await.unwrap();
        let plan_text = displayable(plan.as_ref()).indent(true).to_string();
        let ranges = scan_ranges(&plan).unwrap_or_else(|| panic!("no scan in\n{plan_text}"));
        assert_eq!(ranges.len(), partitions, "{plan_text}");
        // One file cut into ranges that tile it.
        let mut all: Vec<(i64, i64)> = ranges.iter().flatten().map(|r| r.unwrap()).collect();
        all.sort();
        assert_eq!(all.first().unwrap().0, 0);
        assert_eq!(all.last().unwrap().1, body.len() as i64);
        assert!(all.windows(2).all(|w| w[0].1 == w[1].0), "{all:?}");

        let batches = collect(plan, ctx.task_ctx()).await.unwrap();
        let batch = &batches[0];
        let n = batch
            .column(0)
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();
        let total = batch
            .column(1)
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();
        assert_eq!(
            (n.value(0), total.value(0)),
            (count, sum),
            "{partitions} partitions"
        );

        // Grouped, too: the rows of each level once.
        let batches = query(
            &ctx,
            "SELECT level, count(*) AS n FROM big GROUP BY level ORDER BY level",
        )
        .await
        .unwrap();
        assert_batches_eq!(
            [
                "+-------+------+",
                "| level | n    |",
                "+-------+------+",
                "| error | 6666 |",
                "| info  | 6667 |",
                "| warn  | 6667 |",
                "+-------+------+",
            ],
            &batches
        );
    }
}

#[tokio::test]
async fn other_formats_are_never_split() {
    let dir = TempDir::new("nosplit");
    let (body, _, _) = many_lines();
    let yaml: String = body
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| format!("---\n{line}\n"))
        .collect();
    let path = dir.write("big.yaml", &yaml);
    let ctx = split_session(&path, RecordFormat::Yaml, 4, None).await;
    let frame = ctx.sql("SELECT count(*), sum(id) FROM big").await.unwrap();
    let plan = frame.create_physical_plan().await.unwrap();
    let ranges = scan_ranges(&plan).unwrap();
    assert_eq!(ranges, vec![vec![None]]);
    let batches = collect(plan, ctx.task_ctx()).await.unwrap();
    assert_batches_eq!(
        [
            "+----------+-------------+",
            "| count(*) | sum(big.id) |",
            "+----------+-------------+",
            "| 20000    | 199990000   |",
            "+----------+-------------+",
        ],
        &batches
    );
}

#[tokio::test]
async fn a_directory_of_files_is_one_table() {
    let dir = TempDir::new("dir");
    dir.write(
        "logs/2024-01.jsonl",
        "{\"level\": \"info\", \"msg\": \"started\"}\n{\"level\": \"warn\", \"msg\": \"slow\"}\n",
    );
    dir.write(
        "logs/2024-02.jsonl",
        "{\"level\": \"info\", \"msg\": \"request\", \"host\": \"b\"}\n",
    );
    dir.write(
        "logs/2024-03.jsonl",
        "{\"level\": \"error\", \"msg\": \"refused\", \"host\": \"c\"}\n{\"level\": \"info\"}\n",
    );
    // Not JSON Lines: a directory table reads only the files of its extension.
    dir.write("logs/README.txt", "not a record\n");
    let ctx = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(2));
    let logs = dir.path().join("logs");
    register_table(
        &ctx,
        "logs",
        text(&logs),
        RecordFormat::JsonLines,
        Options::default(),
    )
    .await
    .unwrap();
    let batches = query(&ctx, BY_LEVEL).await.unwrap();
    assert_batches_eq!(LEVELS, &batches);

    // The schemas of the files merge: `host` is null where a file lacks it.
    let batches = query(
        &ctx,
        "SELECT msg, host FROM logs WHERE level <> 'warn' ORDER BY msg",
    )
    .await
    .unwrap();
    assert_batches_eq!(
        [
            "+---------+------+",
            "| msg     | host |",
            "+---------+------+",
            "| refused | c    |",
            "| request | b    |",
            "| started |      |",
            "|         |      |",
            "+---------+------+",
        ],
        &batches
    );
}

#[tokio::test]
async fn a_glob_of_yaml_files_is_one_table() {
    let dir = TempDir::new("glob");
    dir.write(
        "a.yaml",
        "level: info\nmsg: started\n---\nlevel: warn\nmsg: slow\n",
    );
    dir.write(
        "b.yaml",
        "- level: info\n  msg: request\n- level: error\n  msg: refused\n",
    );
    dir.write("c.yaml", "level: info\nmsg: stopped\n");
    dir.write("skip.yml.bak", "level: error\n");
    let ctx = SessionContext::new();
    let glob = format!("{}/*.yaml", text(dir.path()));
    register_table(&ctx, "logs", &glob, RecordFormat::Yaml, Options::default())
        .await
        .unwrap();
    let batches = query(&ctx, BY_LEVEL).await.unwrap();
    assert_batches_eq!(LEVELS, &batches);
}

#[tokio::test]
async fn create_external_table_stored_as_each_format() {
    let dir = TempDir::new("ddl");
    let jsonl = dir.write(
        "logs.jsonl",
        "{\"level\": \"info\"}\n{\"level\": \"warn\"}\n{\"level\": \"info\"}\n\
         {\"level\": \"error\"}\n{\"level\": \"info\"}\n",
    );
    let yaml = dir.write(
        "logs.yaml",
        "- level: info\n- level: warn\n- level: info\n- level: error\n- level: info\n",
    );
    let toml = dir.write(
        "logs.toml",
        &format!(
            "[[other]]\nlevel = \"none\"\n\n{}",
            TOML_LOGS.replace("[[entry]]", "[[entries]]")
        ),
    );
    let xml = dir.write(
        "logs.xml",
        "<logs><e><level>info</level></e><e><level>warn</level></e><e><level>info</level></e>\
         <e><level>error</level></e><e><level>info</level></e></logs>",
    );
    let ctx = SessionContext::new();
    register_formats(&ctx).unwrap();
    for (stored_as, path, options) in [
        ("JSONL", &jsonl, ""),
        ("YAML", &yaml, ""),
        ("TOML", &toml, "OPTIONS ('format.records_at' 'entries')"),
        ("XML", &xml, ""),
    ] {
        let ddl = format!(
            "CREATE OR REPLACE EXTERNAL TABLE logs STORED AS {stored_as} LOCATION '{}' {options}",
            text(path)
        );
        query(&ctx, &ddl).await.unwrap();
        let batches = query(&ctx, BY_LEVEL).await.unwrap();
        assert_batches_eq!(LEVELS, &batches);
    }

    // An XML path of records, and what a field past the sample does.
    let wiki = dir.write(
        "wiki.xml",
        "<mediawiki><siteinfo><name>w</name></siteinfo>\
         <page><level>info</level></page><page><level>warn</level></page>\
         <page><level>info</level></page><page><level>error</level></page>\
         <page><level>info</level><extra>x</extra></page></mediawiki>",
    );
    let ddl = format!(
        "CREATE OR REPLACE EXTERNAL TABLE logs STORED AS XML LOCATION '{}' \
         OPTIONS ('format.records_at' 'mediawiki/page', 'format.infer_records' '4', \
         'format.unknown_fields' 'ignore')",
        text(&wiki)
    );
    query(&ctx, &ddl).await.unwrap();
    assert_batches_eq!(LEVELS, &query(&ctx, BY_LEVEL).await.unwrap());
    let ddl = ddl.replace("'ignore'", "'error'");
    query(&ctx, &ddl).await.unwrap();
    let error = query(&ctx, BY_LEVEL).await.unwrap_err().to_string();
    assert!(
        error.contains("record 5: field `extra` is not in the schema at line 1, column"),
        "{error}"
    );
    let ddl = ddl.replace("'error'", "'sometimes'");
    let error = query(&ctx, &ddl).await.unwrap_err().to_string();
    assert!(error.contains("error, ignore or collect"), "{error}");

    let bad = format!(
        "CREATE OR REPLACE EXTERNAL TABLE logs STORED AS YAML LOCATION '{}' \
         OPTIONS ('format.no_such_thing' 'true')",
        text(&yaml)
    );
    let error = query(&ctx, &bad).await.unwrap_err().to_string();
    assert!(error.contains("no_such_thing"), "{error}");
}

#[tokio::test]
async fn a_bad_line_names_its_file() {
    let dir = TempDir::new("bad");
    let path = dir.write("bad.jsonl", "{\"id\": 1}\n{\"id\": 2}\n{\"id\": oops}\n");
    let ctx = SessionContext::new();
    let options = Options::default().infer_records(Some(2));
    register_table(&ctx, "bad", text(&path), RecordFormat::JsonLines, options)
        .await
        .unwrap();
    let error = query(&ctx, "SELECT sum(id) FROM bad")
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("bad.jsonl"), "{error}");
    assert!(error.contains("line 3"), "{error}");
}

#[tokio::test]
async fn schema_inference_reads_only_the_records_it_needs() {
    // The third line is not JSON: inferring from the first two never reads it.
    let dir = TempDir::new("infer");
    let path = dir.write(
        "head.jsonl",
        "{\"id\": 1, \"name\": \"a\"}\n\n{\"id\": 2}\nnot json at all\n",
    );
    let ctx = SessionContext::new();
    let options = Options::default().infer_records(Some(2));
    register_table(&ctx, "head", text(&path), RecordFormat::JsonLines, options)
        .await
        .unwrap();
    let schema = ctx.table("head").await.unwrap().schema().as_arrow().clone();
    let names: Vec<_> = schema.fields().iter().map(|f| f.name().clone()).collect();
    assert_eq!(names, ["id", "name"]);
}

#[tokio::test]
async fn batch_size_comes_from_the_session() {
    let dir = TempDir::new("batch");
    let (body, count, _) = many_lines();
    let path = dir.write("big.jsonl", &body);
    let ctx = SessionContext::new_with_config(
        SessionConfig::new()
            .with_batch_size(1000)
            .with_target_partitions(1),
    );
    register_table(
        &ctx,
        "big",
        text(&path),
        RecordFormat::JsonLines,
        Options::default(),
    )
    .await
    .unwrap();
    let batches = query(&ctx, "SELECT id FROM big").await.unwrap();
    assert_eq!(
        batches.iter().map(|b| b.num_rows() as i64).sum::<i64>(),
        count
    );
    assert!(batches.iter().all(|b| b.num_rows() <= 1000));
    assert_eq!(batches.len(), 20);
    let ids = batches[19]
        .column(0)
        .as_any()
        .downcast_ref::<Int64Array>()
        .unwrap();
    assert_eq!(ids.value(ids.len() - 1), 19_999);
}

#[tokio::test]
async fn a_limit_stops_reading_early() {
    let dir = TempDir::new("limit");
    let (body, _, _) = many_lines();
    let path = dir.write("big.jsonl", &body);
    let ctx = split_session(&path, RecordFormat::JsonLines, 4, Some(100)).await;
    // The scans stop (their readers blocked on full channels are released) once five rows
    // are in: the query ends, and ends again.
    for _ in 0..3 {
        let batches = query(&ctx, "SELECT id FROM big LIMIT 5").await.unwrap();
        assert_eq!(batches.iter().map(RecordBatch::num_rows).sum::<usize>(), 5);
    }
}

#[tokio::test]
async fn hive_partition_columns_come_from_the_directories() {
    let dir = TempDir::new("hive");
    dir.write(
        "logs/day=1/a.jsonl",
        "{\"level\": \"info\"}\n{\"level\": \"warn\"}\n",
    );
    dir.write("logs/day=2/b.jsonl", "{\"level\": \"info\"}\n");
    dir.write(
        "logs/day=2/c.jsonl",
        "{\"level\": \"error\"}\n{\"level\": \"info\"}\n",
    );
    let ctx = SessionContext::new();
    register_formats(&ctx).unwrap();
    let ddl = format!(
        "CREATE EXTERNAL TABLE logs STORED AS JSONL PARTITIONED BY (day) LOCATION '{}/'",
        text(&dir.path().join("logs"))
    );
    query(&ctx, &ddl).await.unwrap();
    let batches = query(
        &ctx,
        "SELECT day, level, count(*) AS n FROM logs GROUP BY day, level ORDER BY day, level",
    )
    .await
    .unwrap();
    assert_batches_eq!(
        [
            "+-----+-------+---+",
            "| day | level | n |",
            "+-----+-------+---+",
            "| 1   | info  | 1 |",
            "| 1   | warn  | 1 |",
            "| 2   | error | 1 |",
            "| 2   | info  | 2 |",
            "+-----+-------+---+",
        ],
        &batches
    );
    let batches = query(&ctx, BY_LEVEL).await.unwrap();
    assert_batches_eq!(LEVELS, &batches);
}

/// Three files whose fields differ: the last alone has `extra`, and `n` is an integer in
/// one and a float in another. The table has every field, `n` widened to Float64, and
/// nulls where a file lacks a field.
#[tokio::test]
async fn a_table_of_files_with_different_fields_has_every_field() {
    let dir = TempDir::new("merge");
    dir.write("logs/a.jsonl", "{\"id\": 1, \"n\": 2}\n");
    dir.write("logs/b.jsonl", "{\"id\": 2, \"n\": 2.5, \"tag\": null}\n");
    dir.write(
        "logs/c.jsonl",
        "{\"id\": 3, \"tag\": \"x\", \"extra\": true}\n",
    );
    let ctx = SessionContext::new();
    let logs = dir.path().join("logs");
    register_table(
        &ctx,
        "logs",
        text(&logs),
        RecordFormat::JsonLines,
        Options::default(),
    )
    .await
    .unwrap();
    let batches = query(&ctx, "SELECT id, n, tag, extra FROM logs ORDER BY id")
        .await
        .unwrap();
    assert_batches_eq!(
        [
            "+----+-----+-----+-------+",
            "| id | n   | tag | extra |",
            "+----+-----+-----+-------+",
            "| 1  | 2.0 |     |       |",
            "| 2  | 2.5 |     |       |",
            "| 3  |     | x   | true  |",
            "+----+-----+-----+-------+",
        ],
        &batches
    );
    let schema = ctx.table("logs").await.unwrap().schema().as_arrow().clone();
    let n = schema.field_with_name("n").unwrap();
    assert_eq!(
        n.data_type(),
        &datafusion::arrow::datatypes::DataType::Float64
    );
}

/// A table inferred from a sample meets fields the sample lacked: counted by default (in
/// every format, whole files and JSON Lines byte ranges alike), an error naming the file,
/// record, field and place when the options say so. Columns a query does not read are
/// never unknown.
#[tokio::test]
async fn fields_past_the_sample_are_counted_or_refused() {
    let dir = TempDir::new("unknown");
    let mut lines = String::new();
    for i in 1..=20 {
        let extra = if i > 10 { ", \"extra\": 1" } else { "" };
        lines.push_str(&format!("{{\"id\": {i}, \"level\": \"info\"{extra}}}\n"));
    }
    let path = dir.write("logs.jsonl", &lines);
    let yaml: String = (1..=4)
        .map(|i| format!("---\nid: {i}\n{}", if i == 4 { "late: yes\n" } else { "" }))
        .collect();
    let yaml_path = dir.write("logs.yaml", &yaml);
    for (path, format, field, count) in [
        (&path, RecordFormat::JsonLines, "extra", 10),
        (&yaml_path, RecordFormat::Yaml, "late", 1),
    ] {
        let ctx = SessionContext::new();
        let sample = Options::default().infer_records(Some(2));
        let table = quarry_arrow::QuarryFormat::new(format, sample.clone());
        table
            .register_table(&ctx, "logs", text(path))
            .await
            .unwrap();
        let batches = query(&ctx, "SELECT count(*) AS n, sum(id) AS s FROM logs")
            .await
            .unwrap();
        assert_eq!(batches[0].num_rows(), 1);
        assert_eq!(
            table.unknown_fields(),
            quarry_arrow::FieldCounts::from([(field.to_owned(), count)]),
            "{format:?}"
        );

        let ctx = SessionContext::new();
        let strict = sample.unknown_fields(quarry_arrow::UnknownFields::Error);
        register_table(&ctx, "logs", text(path), format, strict)
            .await
            .unwrap();
        let error = query(&ctx, "SELECT sum(id) FROM logs")
            .await
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("field `{field}` is not in the schema")),
            "{error}"
        );
        assert!(
            error.contains(path.file_name().unwrap().to_str().unwrap()),
            "{error}"
        );
    }
}
