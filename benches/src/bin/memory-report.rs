//! Memory of the tree door: bytes allocated per input byte, and the peak of live bytes per
//! input byte, while each library parses each JSON file of the corpus into its tree and
//! holds it: quarry's `json::Document` against serde_json's `Value` and sonic-rs's
//! `Value`. A separate binary from bench-report, so that the counting allocator does not
//! slow the timings. With `--write`, rewrites the `memory` section of RESULTS.md.
//!
//! ```text
//! cargo run --release -p quarry-benches --bin memory-report -- [--write]
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

fn main() {
    let write = std::env::args().any(|a| a == "--write");
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
    let mut report = String::new();
    let _ = writeln!(report, "{}", dated());
    let _ = writeln!(
        report,
        "- **Command:** `cargo run --release -p quarry-benches --bin memory-report -- --write`\n"
    );
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
        write_section("memory", &report);
    }
}
