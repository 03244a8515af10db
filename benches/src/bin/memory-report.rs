//! Memory of the tree door: bytes allocated per input byte, and the peak of live bytes per
//! input byte, while each library parses each JSON file of the corpus into its tree and
//! holds it: quarry's `json::Document` against serde_json's `Value` and sonic-rs's
//! `Value`. A separate binary from bench-report, so that the counting allocator does not
//! slow the timings. With `--write`, writes `results/memory.md`, which RESULTS.md includes
//! when bench-report renders it.
//!
//! With `--arrow-stream MB`, instead streams a generated JSON Lines file of that many
//! megabytes through quarry-arrow's `JsonLinesReader` and arrow-json's reader, one batch
//! held at a time, and reports each one's peak of live heap (`results/arrow-memory.md`).
//!
//! With `--arrow-stream-json-array MB`, `--arrow-stream-yaml MB` or `--arrow-stream-xml MB`,
//! streams a generated file of that format (the same log records: a JSON array, a YAML
//! stream of one document per record, or XML elements under one root) through
//! quarry-arrow's `read_stream`, and reports the peak of live heap against the largest
//! batch (`results/arrow-memory-FORMAT.md`). No peer streams these formats into Arrow.
//!
//! ```text
//! cargo run --release -p quarry-benches --bin memory-report -- [--write]
//! cargo run --release -p quarry-benches --bin memory-report -- --arrow-stream 1024 [--write]
//! cargo run --release -p quarry-benches --bin memory-report -- --arrow-stream-yaml 1024 [--write]
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use quarry_benches::report::{dated, write_section};

/// Counts bytes: allocated in total, live now, and the most live at once.
struct Counting;

static TOTAL: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to the system allocator unchanged; only the counters are added.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        TOTAL.fetch_add(layout.size(), Ordering::Relaxed);
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let grown = new_size - layout.size();
            TOTAL.fetch_add(grown, Ordering::Relaxed);
            let live = LIVE.fetch_add(grown, Ordering::Relaxed) + grown;
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: `ptr` came from `alloc` with `layout`; the caller's contract holds.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes allocated while `parse` ran, and the peak of live bytes above the start, while
/// its result is still held.
fn measure<T>(parse: impl FnOnce() -> Option<T>) -> Option<(usize, usize)> {
    let start_total = TOTAL.load(Ordering::Relaxed);
    let start_live = LIVE.load(Ordering::Relaxed);
    PEAK.store(start_live, Ordering::Relaxed);
    let tree = parse()?;
    let allocated = TOTAL.load(Ordering::Relaxed) - start_total;
    let peak = PEAK.load(Ordering::Relaxed) - start_live;
    black_box(&tree);
    drop(tree);
    Some((allocated, peak))
}

/// Writes `megabytes` of JSON Lines log records to a temporary file, deterministically.
fn generate_lines(megabytes: usize) -> std::path::PathBuf {
    use std::io::Write as _;
    let path = std::env::temp_dir().join(format!("quarry-arrow-stream-{megabytes}.jsonl"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("temp file"));
    let levels = ["info", "warn", "error", "debug"];
    let mut written = 0;
    let mut i: u64 = 0;
    let mut line = String::new();
    while written < megabytes << 20 {
        line.clear();
        let _ = writeln!(
            line,
            r#"{{"id": {i}, "level": "{}", "service": "api-{}", "latency_ms": {}.{}, "ok": {}, "tags": ["t{}", "region-{}"], "msg": "request {i} served by worker {}"}}"#,
            levels[(i % 4) as usize],
            i % 17,
            i % 997,
            i % 10,
            !i.is_multiple_of(3),
            i % 5,
            i % 7,
            i % 31
        );
        out.write_all(line.as_bytes()).expect("write");
        written += line.len();
        i += 1;
    }
    out.flush().expect("flush");
    path
}

/// Streams `megabytes` of JSON Lines through both readers, holding one batch at a time.
fn arrow_stream(megabytes: usize, write: bool) {
    let path = generate_lines(megabytes);
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    let open = || std::io::BufReader::new(std::fs::File::open(&path).expect("generated file"));
    let (schema, _) = arrow_json::reader::infer_json_schema(open(), Some(1000)).expect("schema");
    let schema = std::sync::Arc::new(schema);
    let options = quarry_arrow::Options::default().batch_size(8192);
    let mut batch_bytes = 0;
    let mut rows = 0;
    let started = std::time::Instant::now();
    let quarry = measure(|| {
        for batch in quarry_arrow::read_json_lines(open(), schema.clone(), &options) {
            let batch = batch.expect("quarry-arrow reads the generated file");
            batch_bytes = batch_bytes.max(batch.get_array_memory_size());
            rows += batch.num_rows();
        }
        Some(())
    });
    let quarry_time = started.elapsed();
    let started = std::time::Instant::now();
    let mut arrow_rows = 0;
    let arrow = measure(|| {
        let reader = arrow_json::ReaderBuilder::new(schema.clone())
            .with_batch_size(8192)
            .build(open())
            .ok()?;
        for batch in reader {
            arrow_rows += batch.ok()?.num_rows();
        }
        Some(())
    });
    let arrow_time = started.elapsed();
    let _ = std::fs::remove_file(&path);
    let mb = |x: usize| x as f64 / f64::from(1 << 20);
    let (Some((_, quarry_peak)), Some((_, arrow_peak))) = (quarry, arrow) else {
        eprintln!("memory-report: a reader failed");
        return;
    };
    assert_eq!(rows, arrow_rows, "both readers see every row");
    let mut report = report_head(&format!("--arrow-stream {megabytes} --write"));
    let _ = writeln!(
        report,
        "A generated JSON Lines file of {:.2} GB ({rows} log records, 7 fields with a list) streamed from disk into record batches of 8,192 rows, each dropped before the next; peak of live heap while reading:\n",
        size as f64 / 1e9
    );
    report.push_str("| reader | peak live heap | largest batch | peak ÷ batch | rows | seconds |\n|---|---:|---:|---:|---:|---:|\n");
    let _ = writeln!(
        report,
        "| quarry-arrow `JsonLinesReader` | {:.1} MiB | {:.1} MiB | {:.1} | {rows} | {:.1} |",
        mb(quarry_peak),
        mb(batch_bytes),
        quarry_peak as f64 / batch_bytes.max(1) as f64,
        quarry_time.as_secs_f64()
    );
    let _ = writeln!(
        report,
        "| arrow-json `Reader` | {:.1} MiB | | {:.1} | {arrow_rows} | {:.1} |",
        mb(arrow_peak),
        arrow_peak as f64 / batch_bytes.max(1) as f64,
        arrow_time.as_secs_f64()
    );
    println!("{report}");
    if write {
        write_section(
            "arrow-memory",
            "Arrow: a large JSON Lines file in bounded memory",
            &report,
        );
    }
}

/// A streamed format of the Arrow rows, other than JSON Lines.
#[derive(Debug, Clone, Copy)]
enum Streamed {
    JsonArray,
    Yaml,
    Xml,
}

impl Streamed {
    const ALL: [Streamed; 3] = [Streamed::JsonArray, Streamed::Yaml, Streamed::Xml];

    /// The flag, and the name of its results file.
    fn name(self) -> &'static str {
        match self {
            Streamed::JsonArray => "json-array",
            Streamed::Yaml => "yaml",
            Streamed::Xml => "xml",
        }
    }

    fn format(self) -> quarry_arrow::RecordFormat {
        match self {
            Streamed::JsonArray => quarry_arrow::RecordFormat::Json,
            Streamed::Yaml => quarry_arrow::RecordFormat::Yaml,
            Streamed::Xml => quarry_arrow::RecordFormat::Xml,
        }
    }

    fn title(self) -> &'static str {
        match self {
            Streamed::JsonArray => "a JSON array",
            Streamed::Yaml => "a YAML stream",
            Streamed::Xml => "XML",
        }
    }

    fn shape(self) -> &'static str {
        match self {
            Streamed::JsonArray => "a JSON array of log records, one item per line",
            Streamed::Yaml => "a YAML stream of log records, one block-style document each",
            Streamed::Xml => {
                "XML log records, each an element under one root (two fields as attributes, the tags as repeated elements)"
            }
        }
    }

    /// What the document opens with, before its records.
    fn head(self) -> &'static str {
        match self {
            Streamed::JsonArray => "[\n",
            Streamed::Yaml => "",
            Streamed::Xml => "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<logs>\n",
        }
    }

    /// Record `i`, as a line (or a document) of its own.
    fn record(self, out: &mut String, i: u64) {
        let levels = ["info", "warn", "error", "debug"];
        let level = levels[(i % 4) as usize];
        let service = i % 17;
        let (whole, tenths) = (i % 997, i % 10);
        let ok = !i.is_multiple_of(3);
        let (tag, region, worker) = (i % 5, i % 7, i % 31);
        let _ = match self {
            Streamed::JsonArray => writeln!(
                out,
                r#"{}{{"id": {i}, "level": "{level}", "service": "api-{service}", "latency_ms": {whole}.{tenths}, "ok": {ok}, "tags": ["t{tag}", "region-{region}"], "msg": "request {i} served by worker {worker}"}}"#,
                if i == 0 { "" } else { "," }
            ),
            Streamed::Yaml => writeln!(
                out,
                "---\nid: {i}\nlevel: {level}\nservice: api-{service}\nlatency_ms: {whole}.{tenths}\nok: {ok}\ntags:\n- t{tag}\n- region-{region}\nmsg: request {i} served by worker {worker}"
            ),
            Streamed::Xml => writeln!(
                out,
                r#"  <log id="{i}" level="{level}"><service>api-{service}</service><latency_ms>{whole}.{tenths}</latency_ms><ok>{ok}</ok><tag>t{tag}</tag><tag>region-{region}</tag><msg>request {i} served by worker {worker}</msg></log>"#
            ),
        };
    }

    /// What the document closes with, after its records.
    fn tail(self) -> &'static str {
        match self {
            Streamed::JsonArray => "]\n",
            Streamed::Yaml => "",
            Streamed::Xml => "</logs>\n",
        }
    }

    /// A document of `records` records, in memory (the sample the schema is inferred from).
    fn sample(self, records: u64) -> Vec<u8> {
        let mut out = String::from(self.head());
        for i in 0..records {
            self.record(&mut out, i);
        }
        out.push_str(self.tail());
        out.into_bytes()
    }

    /// Writes `megabytes` of records to a temporary file, deterministically.
    fn generate(self, megabytes: usize) -> std::path::PathBuf {
        use std::io::Write as _;
        let path = std::env::temp_dir().join(format!(
            "quarry-arrow-stream-{megabytes}-{}.{}",
            self.name(),
            self.format().extension()
        ));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("temp file"));
        out.write_all(self.head().as_bytes()).expect("write");
        let mut written = self.head().len();
        let mut i: u64 = 0;
        let mut record = String::new();
        while written < megabytes << 20 {
            record.clear();
            self.record(&mut record, i);
            out.write_all(record.as_bytes()).expect("write");
            written += record.len();
            i += 1;
        }
        out.write_all(self.tail().as_bytes()).expect("write");
        out.flush().expect("flush");
        path
    }
}

/// Streams `megabytes` of `streamed` through `read_stream`, holding one batch at a time.
fn arrow_stream_format(streamed: Streamed, megabytes: usize, write: bool) {
    let format = streamed.format();
    let options = quarry_arrow::Options::default().batch_size(8192);
    let schema = quarry_arrow::infer_schema(&streamed.sample(1000), format, &options)
        .expect("the sample's schema");
    let schema = std::sync::Arc::new(schema);
    let path = streamed.generate(megabytes);
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    let mut batch_bytes = 0;
    let mut rows = 0;
    let started = std::time::Instant::now();
    let peak = measure(|| {
        let file = std::io::BufReader::new(std::fs::File::open(&path).expect("generated file"));
        for batch in quarry_arrow::read_stream(file, format, schema.clone(), &options) {
            let batch = batch.expect("quarry-arrow reads the generated file");
            batch_bytes = batch_bytes.max(batch.get_array_memory_size());
            rows += batch.num_rows();
        }
        Some(())
    });
    let seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&path);
    let Some((_, peak)) = peak else {
        eprintln!("memory-report: the reader failed");
        return;
    };
    let mb = |x: usize| x as f64 / f64::from(1 << 20);
    let mut report = report_head(&format!(
        "--arrow-stream-{} {megabytes} --write",
        streamed.name()
    ));
    let _ = writeln!(
        report,
        "A generated file of {:.2} GB, {} ({rows} records, 7 fields with a list), streamed from disk by `read_stream` into record batches of 8,192 rows, each dropped before the next; peak of live heap while reading:\n",
        size as f64 / 1e9,
        streamed.shape()
    );
    report.push_str("| reader | peak live heap | largest batch | peak ÷ batch | rows | seconds | MB/s |\n|---|---:|---:|---:|---:|---:|---:|\n");
    let _ = writeln!(
        report,
        "| quarry-arrow `read_stream`, {} | {:.1} MiB | {:.1} MiB | {:.1} | {rows} | {seconds:.1} | {:.0} |",
        streamed.title(),
        mb(peak),
        mb(batch_bytes),
        peak as f64 / batch_bytes.max(1) as f64,
        size as f64 / 1e6 / seconds
    );
    println!("{report}");
    if write {
        write_section(
            &format!("arrow-memory-{}", streamed.name()),
            &format!("Arrow: {}, streamed in bounded memory", streamed.title()),
            &report,
        );
    }
}

fn main() {
    let write = std::env::args().any(|a| a == "--write");
    let args: Vec<String> = std::env::args().collect();
    for streamed in Streamed::ALL {
        let flag = format!("--arrow-stream-{}", streamed.name());
        if let Some(at) = args.iter().position(|a| *a == flag) {
            let megabytes = args
                .get(at + 1)
                .and_then(|m| m.parse().ok())
                .unwrap_or(1024);
            return arrow_stream_format(streamed, megabytes, write);
        }
    }
    if let Some(at) = args.iter().position(|a| a == "--arrow-stream") {
        let megabytes = args
            .get(at + 1)
            .and_then(|m| m.parse().ok())
            .unwrap_or(1024);
        return arrow_stream(megabytes, write);
    }
    let mut table = String::new();
    table.push_str("| input | bytes | quarry allocated ÷ input | quarry peak ÷ input | serde_json allocated | serde_json peak | sonic-rs allocated | sonic-rs peak |\n");
    table.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    let mut sums = [0.0f64; 6];
    let mut count = 0;
    for (name, bytes) in quarry_benches::corpus_files("json") {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let quarry = measure(|| quarry::json::parse_tree(&bytes).ok());
        let serde = measure(|| serde_json::from_str::<serde_json::Value>(&text).ok());
        let sonic = measure(|| sonic_rs::from_str::<sonic_rs::Value>(&text).ok());
        let (Some(q), Some(s), Some(n)) = (quarry, serde, sonic) else {
            continue;
        };
        let per = |x: usize| x as f64 / bytes.len() as f64;
        let row = [per(q.0), per(q.1), per(s.0), per(s.1), per(n.0), per(n.1)];
        for (sum, v) in sums.iter_mut().zip(row) {
            *sum += v.ln();
        }
        count += 1;
        let _ = writeln!(
            table,
            "| {name} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            bytes.len(),
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5]
        );
    }
    let mean = |i: usize| (sums[i] / f64::from(count.max(1))).exp();
    let mut report = report_head("--write");
    let _ = writeln!(
        report,
        "Geometric means over {count} files, bytes per input byte: quarry allocates {:.2} (peak {:.2}), serde_json `Value` {:.2} (peak {:.2}), sonic-rs `Value` {:.2} (peak {:.2}).\n",
        mean(0),
        mean(1),
        mean(2),
        mean(3),
        mean(4),
        mean(5)
    );
    report.push_str(&table);
    println!("{report}");
    if write {
        write_section("memory", "Memory of the tree door: JSON", &report);
    }
}

/// A report's first lines: the date and machine, and the command that writes it.
fn report_head(args: &str) -> String {
    let mut head = String::new();
    let _ = writeln!(head, "{}", dated());
    let _ = writeln!(
        head,
        "- **Command:** `cargo run --release -p quarry-benches --bin memory-report -- {args}`\n"
    );
    head
}
