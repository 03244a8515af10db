//! Allocations of the struct door per generated shape, gated with absolute ceilings:
//! quarry allocates only what the decoded value owns (its `String`s and `Vec`s), never
//! more than serde_json does for the same struct, and a change that adds allocations per
//! value fails here.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use quarry::{Decode, Format};
use quarry_corpus_gen::shapes::{Article, Config, Person, Reading, SmallMessage, Wide};
use quarry_corpus_gen::Shape;

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

fn count(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

/// (quarry, serde_json) allocations decoding `bytes` into `T`.
fn both<T>(bytes: &[u8]) -> (usize, usize)
where
    T: for<'de> Decode<'de> + serde::de::DeserializeOwned,
{
    let quarry =
        count(|| drop(quarry::from_slice::<T>(bytes, Format::Json).expect("quarry decodes")));
    let serde = count(|| drop(serde_json::from_slice::<T>(bytes).expect("serde_json decodes")));
    (quarry, serde)
}

/// Allocations of quarry's struct door per generated document, measured on 2026-11-30.
/// Lower is welcome (update the figure); higher fails.
const CEILINGS: &[(&str, usize)] = &[
    ("small-message", 2),
    ("person-batch-25", 220),
    ("person-batch-250", 2192),
    ("escaped-articles", 727),
    ("telemetry", 1008),
    ("unknown-fields", 2214),
    ("wide-record", 7),
    ("int-list-10", 3),
    ("int-list-1000", 9),
    ("int-list-10000", 13),
    ("config", 41),
];

#[test]
fn struct_door_allocates_only_what_the_value_owns() {
    // One test, so no other test allocates while we count.
    let mut report = Vec::new();
    for doc in quarry_corpus_gen::json_corpus() {
        if doc.name == "large" {
            continue; // the same shape as person-batch, 80x the size: too slow unoptimised
        }
        let (quarry, serde) = match doc.shape {
            Shape::SmallMessage => both::<SmallMessage>(&doc.bytes),
            Shape::PersonBatch => both::<Vec<Person>>(&doc.bytes),
            Shape::EscapedArticles => both::<Vec<Article>>(&doc.bytes),
            Shape::Telemetry => both::<Vec<Reading>>(&doc.bytes),
            Shape::WideRecord => both::<Vec<Wide>>(&doc.bytes),
            Shape::IntList => both::<Vec<i64>>(&doc.bytes),
            Shape::Config => both::<Config>(&doc.bytes),
        };
        report.push(format!("{}: quarry {quarry}, serde_json {serde}", doc.name));
        let ceiling = CEILINGS
            .iter()
            .find(|(name, _)| *name == doc.name)
            .map(|(_, c)| *c);
        let ceiling =
            ceiling.unwrap_or_else(|| panic!("no ceiling for {}: measured {quarry}", doc.name));
        assert!(
            quarry <= ceiling,
            "{}: {quarry} allocations, ceiling {ceiling}",
            doc.name
        );
        // A few per document (the parser's reusable buffers), none per value.
        assert!(
            quarry <= serde + 8,
            "{}: quarry {quarry} allocations, serde_json {serde}",
            doc.name
        );
    }
    println!("{}", report.join("\n"));
}
