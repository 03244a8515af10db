//! Allocation counts of the JSON doors, gated with absolute ceilings: the tree door
//! allocates per document (not per node) plus one string per escaped string, the
//! RawValue door one `Vec` per container plus one string per escaped string, and the
//! validator nothing at all.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let result = f();
    (result, ALLOCATIONS.load(Ordering::Relaxed) - before)
}

/// Strings (keys included) that hold an escape, and containers, counted by a plain scan
/// of the tree, to set the expected ceilings from the document itself.
fn census(bytes: &[u8]) -> (usize, usize) {
    let doc = quarry::json::parse_tree(bytes).unwrap();
    let src = doc.source();
    let mut escaped = 0;
    let mut containers = 0;
    for node in doc.descendants() {
        if node.kind() == quarry::json::NodeKind::String && node.source_text().contains('\\') {
            escaped += 1;
        }
        if matches!(
            node.kind(),
            quarry::json::NodeKind::Array | quarry::json::NodeKind::Object
        ) {
            containers += 1;
        }
        if let Some(key) = node.key() {
            // A key was escaped when its decoded text does not appear quoted in the source.
            if !src.contains(&format!("\"{key}\"")) {
                escaped += 1;
            }
        }
    }
    (escaped, containers)
}

#[test]
fn allocations_stay_within_ceilings() {
    // One test, so no other test's allocations run concurrently with the counts.
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let path = format!(
            "{}/../shared/corpus/json/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).unwrap();
        let (escaped, containers) = census(&bytes);

        let (checked, n) = count(|| quarry::json::check(&bytes));
        checked.unwrap();
        // Only the container stack and the escape scratch buffer grow, by doubling.
        assert!(n <= 16, "{name}: check allocated {n} times");

        let (doc, n) = count(|| quarry::json::parse_tree(&bytes).map(|d| d.node_count()));
        let nodes = doc.unwrap();
        // The node vector grows by doubling: a few dozen reallocations at most.
        assert!(
            n <= escaped + 64,
            "{name}: tree allocated {n} times for {nodes} nodes, {escaped} escaped strings"
        );

        let (raw, n) = count(|| quarry::json::parse(&bytes).map(drop));
        raw.unwrap();
        assert!(
            n <= containers + escaped + 64,
            "{name}: RawValue allocated {n} times, {containers} containers, {escaped} escaped strings"
        );
        println!("{name}: {nodes} nodes, {containers} containers, {escaped} escaped strings; RawValue: {n} allocations");
    }
}
