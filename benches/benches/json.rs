//! JSON against serde_json on the real-world corpus (`testdata/corpus`): RawValue vs `serde_json::Value`,
//! the tree door vs `serde_json::Value`, validation vs `IgnoredAny`, and encoding.
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use quarry::json;

fn json_corpus(c: &mut Criterion) {
    for (name, bytes) in quarry_benches::corpus_files("json") {
        let mut group = c.benchmark_group(format!("json/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("raw", "quarry"), &bytes, |b, bytes| {
            b.iter(|| json::parse(black_box(bytes)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("tree", "quarry"), &bytes, |b, bytes| {
            b.iter(|| json::parse_tree(black_box(bytes)).unwrap())
        });
        group.bench_with_input(
            BenchmarkId::new("value", "serde_json"),
            &bytes,
            |b, bytes| {
                b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(bytes)).unwrap())
            },
        );
        group.bench_with_input(BenchmarkId::new("check", "quarry"), &bytes, |b, bytes| {
            b.iter(|| json::check(black_box(bytes)).unwrap())
        });
        group.bench_with_input(
            BenchmarkId::new("check", "serde_json"),
            &bytes,
            |b, bytes| {
                b.iter(|| {
                    serde_json::from_slice::<serde::de::IgnoredAny>(black_box(bytes)).unwrap()
                })
            },
        );
        let raw = json::parse(&bytes).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        group.bench_function(BenchmarkId::new("encode", "quarry"), |b| {
            b.iter(|| json::to_vec(black_box(&raw)).unwrap())
        });
        group.bench_function(BenchmarkId::new("encode", "serde_json"), |b| {
            b.iter(|| serde_json::to_vec(black_box(&value)).unwrap())
        });
        group.finish();
    }
}

criterion_group!(benches, json_corpus);
criterion_main!(benches);
