//! Runs every benchmark arm against its peers, interleaved (each format's group in fresh
//! child processes of its own, three of them, taking the median of each row), and prints
//! one table: format, input, arm, MB/s, ratio to each peer.
//!
//! With `--write`, the run is saved as `results/<section>.tsv` (`native` when built with
//! `-C target-cpu=native`, else `portable`; a `--filter`ed run replaces only the rows it
//! measured) and RESULTS.md, `results/<format>.md` and `results/chart.svg` are rendered
//! again from the saved runs. `--render` renders them without measuring.
//!
//! ```text
//! cargo run --release -p quarry-benches --bin bench-report -- --quick [--write] [--section NAME] [--filter TEXT]
//! cargo run --release -p quarry-benches --bin bench-report -- --render
//! ```
//!
//! Each arm runs in batches of about 10 ms (`--quick`) or 40 ms; every round runs one batch
//! of each library in turn, and each figure is the median over the rounds (5 quick, 15
//! full). MB/s is 10^6 bytes of input (of the encoded document, for encode) per second.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use quarry_benches::contests::{groups, without_failing_peers, Contest};
use quarry_benches::page::render as render_page;
use quarry_benches::report::{machine, today, write_file, Row, Run};

/// Iterations that take about `target`.
fn calibrate(run: &dyn Fn() -> usize, target: Duration) -> u32 {
    let mut iterations = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..iterations {
            black_box(run());
        }
        let elapsed = start.elapsed();
        if elapsed >= target / 4 || iterations >= 1 << 24 {
            let scaled =
                target.as_secs_f64() / elapsed.as_secs_f64().max(1e-9) * f64::from(iterations);
            return scaled.clamp(1.0, f64::from(1u32 << 26)) as u32;
        }
        iterations *= 4;
    }
}

/// The median of `values` (the upper one of an even count; 0 for none).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// Throughput of every arm, in MB/s, measured in interleaved rounds.
fn measure(contest: &Contest, rounds: usize, target: Duration) -> Vec<f64> {
    let iterations: Vec<u32> = contest
        .arms
        .iter()
        .map(|a| calibrate(&*a.run, target))
        .collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); contest.arms.len()];
    for _ in 0..rounds {
        for (i, a) in contest.arms.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..iterations[i] {
                black_box((a.run)());
            }
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            samples[i].push(contest.bytes as f64 * f64::from(iterations[i]) / secs / 1e6);
        }
    }
    samples.into_iter().map(median).collect()
}

/// Processes per group: each row is the median over them, so one process in which an
/// arm (quarry's or a peer's) runs slow throughout is left out.
const PROCESSES: usize = 3;

/// One row's (format, input, arm, peer) and quarry's and the peer's MB/s, one pair per
/// process.
type Measured = ([String; 4], Vec<(f64, f64)>);

/// Runs `group` in a child process of this binary and returns what it printed.
fn run_group(exe: &std::path::Path, group: &str, quick: bool, filter: Option<&str>) -> String {
    let mut child = std::process::Command::new(exe);
    child.args(["--group", group]);
    // glibc's malloc adapts its mmap and trim thresholds to what it has seen, so an arm
    // could pay page faults on every run or none depending on what ran before it. Fixed
    // thresholds give every library the same steady heap.
    child
        .env("MALLOC_MMAP_THRESHOLD_", "1073741824")
        .env("MALLOC_TRIM_THRESHOLD_", "1073741824")
        .env("MALLOC_TOP_PAD_", "67108864");
    if quick {
        child.arg("--quick");
    }
    if let Some(filter) = filter {
        child.args(["--filter", filter]);
    }
    let output = child
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("bench-report runs itself for each group");
    if !output.status.success() {
        eprintln!("bench-report: the `{group}` group failed");
        std::process::exit(2);
    }
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The child's part: measures the contests of `group` (those `filter` keeps) and prints
/// one tab-separated line per peer (`row`, format, input, arm, peer, quarry MB/s, peer
/// MB/s) and per dropped peer (`dropped`, note).
fn measure_group(group: &str, filter: Option<&str>, rounds: usize, target: Duration) {
    let Some((_, build)) = groups().into_iter().find(|(g, _)| *g == group) else {
        eprintln!("bench-report: no group `{group}`");
        std::process::exit(2);
    };
    let (contests, dropped) = without_failing_peers(build());
    for note in dropped {
        println!("dropped\t{note}");
    }
    // A filter that starts with the group's name selects within the group by the rest.
    let filter = filter.map(|f| {
        f.strip_prefix(group)
            .filter(|rest| rest.is_empty() || rest.starts_with(' '))
            .map_or(f, str::trim)
    });
    for contest in contests {
        if let Some(filter) = filter.filter(|f| !f.is_empty()) {
            let name = format!("{} {} {}", contest.format, contest.input, contest.arm);
            if !name.contains(filter) {
                continue;
            }
        }
        let speeds = measure(&contest, rounds, target);
        for (peer, speed) in contest.arms.iter().zip(&speeds).skip(1) {
            println!(
                "row\t{}\t{}\t{}\t{}\t{}\t{}",
                contest.format, contest.input, contest.arm, peer.library, speeds[0], speed
            );
        }
        eprint!(".");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value_of = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let quick = args.iter().any(|a| a == "--quick");
    let write = args.iter().any(|a| a == "--write");
    let native = cfg!(target_feature = "avx2");
    let section = value_of("--section").unwrap_or_else(|| {
        if native {
            "native".into()
        } else {
            "portable".into()
        }
    });
    let filter = value_of("--filter");
    let (rounds, target) = if quick {
        (5, Duration::from_millis(10))
    } else {
        (15, Duration::from_millis(40))
    };
    // One group per child process: a group measured after others in the same process
    // finds glibc's heap in the shape the earlier groups left, so every group starts
    // from a fresh process.
    if let Some(group) = value_of("--group") {
        measure_group(&group, filter.as_deref(), rounds, target);
        return;
    }
    if args.iter().any(|a| a == "--render") {
        return render();
    }
    let started = Instant::now();

    let mut run = Run::default();
    let exe = std::env::current_exe().expect("bench-report's own path");
    for (group, _) in groups() {
        // A filter that names a format skips the others.
        if let Some(filter) = &filter {
            let first = filter.split_whitespace().next().unwrap_or_default();
            let is_format = groups().iter().any(|(g, _)| *g == first);
            if is_format && first != group {
                continue;
            }
        }
        // Rows of every process, in the first process's order.
        let mut rows: Vec<Measured> = Vec::new();
        for _ in 0..PROCESSES {
            let stdout = run_group(&exe, group, quick, filter.as_deref());
            for line in stdout.lines() {
                let fields: Vec<&str> = line.split('\t').collect();
                match fields.as_slice() {
                    ["row", format, input, arm, peer, quarry_speed, peer_speed] => {
                        let key = [format, input, arm, peer].map(|f| f.to_string());
                        let speeds = (
                            quarry_speed.parse().unwrap_or(0.0),
                            peer_speed.parse().unwrap_or(f64::INFINITY),
                        );
                        match rows.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, seen)) => seen.push(speeds),
                            None => rows.push((key, vec![speeds])),
                        }
                    }
                    ["dropped", note] if !run.dropped.iter().any(|d| d == note) => {
                        run.dropped.push(note.to_string())
                    }
                    _ => {}
                }
            }
        }
        for ([format, input, arm, peer], speeds) in rows {
            run.rows.push(Row {
                format,
                input,
                arm,
                peer,
                quarry: median(speeds.iter().map(|s| s.0).collect()),
                theirs: median(speeds.iter().map(|s| s.1).collect()),
            });
        }
    }
    eprintln!();

    let command = format!(
        "{}cargo run --release -p quarry-benches --bin bench-report -- {}",
        if native {
            "RUSTFLAGS=\"-C target-cpu=native\" "
        } else {
            ""
        },
        args.join(" ")
    );
    let build = if native {
        "release, `-C target-cpu=native` (sonic-rs and simd-json use their SIMD code)"
    } else {
        "release, portable (no target-cpu)"
    };
    run.facts = [
        ("date", today()),
        ("machine", machine()),
        ("build", build.to_owned()),
        (
            "rounds",
            format!(
                "{rounds} rounds of ~{} ms per arm, median, in each of {PROCESSES} processes per format; a row is the median of the {PROCESSES}",
                target.as_millis()
            ),
        ),
        ("run time", format!("{:.0} s", started.elapsed().as_secs_f64())),
        ("command", command.trim_end().to_owned()),
    ]
    .map(|(k, v)| (k.to_owned(), v))
    .to_vec();
    print!("{}", table(&run));

    if write {
        let mut saved = Run::load(&section).unwrap_or_default();
        saved.merge(run, filter.is_some());
        saved.save(&section);
        render();
    }
}

/// The measured rows as one table, with the losses and the peers left out.
fn table(run: &Run) -> String {
    let mut out = String::new();
    out.push_str("| format | input | arm | quarry MB/s | peer | peer MB/s | quarry ÷ peer |\n");
    out.push_str("|---|---|---|---:|---|---:|---:|\n");
    for r in &run.rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.0} | {} | {:.0} | {:.2} |",
            r.format,
            r.input,
            r.arm,
            r.quarry,
            r.peer,
            r.theirs,
            r.ratio()
        );
    }
    let losses: Vec<&Row> = run.rows.iter().filter(|r| r.ratio() < 1.0).collect();
    let _ = writeln!(out, "\nRows where quarry is slower ({}):\n", losses.len());
    for r in losses {
        let _ = writeln!(
            out,
            "- {} {} {} vs {}: {:.2}x",
            r.format,
            r.input,
            r.arm,
            r.peer,
            r.ratio()
        );
    }
    for note in &run.dropped {
        let _ = writeln!(out, "- not measured: {note}");
    }
    out
}

/// Renders RESULTS.md, `results/<format>.md` and the chart from the saved runs.
fn render() {
    let Some(native) = Run::load("native") else {
        eprintln!("bench-report: no saved native run (results/native.tsv): run with --write under RUSTFLAGS=\"-C target-cpu=native\" first");
        std::process::exit(2);
    };
    let portable = Run::load("portable");
    let (files, warnings) = render_page(&native, portable.as_ref());
    for warning in warnings {
        eprintln!("bench-report: {warning}");
    }
    for (path, text) in files {
        write_file(&path, &text);
    }
}
