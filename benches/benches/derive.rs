//! Struct decode and encode: quarry's derive against serde_json's on the same structs.
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use quarry::Format;
use quarry_benches::shapes::{citm::Catalog, twitter::Twitter};

fn arms<T>(c: &mut Criterion, name: &str)
where
    T: for<'de> quarry::Decode<'de>
        + serde::de::DeserializeOwned
        + quarry::Encode
        + serde::Serialize,
{
    let bytes = std::fs::read(quarry_benches::corpus_dir().join("json").join(name)).unwrap();
    let mut group = c.benchmark_group(format!("derive/{name}"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_with_input(BenchmarkId::new("decode", "quarry"), &bytes, |b, bytes| {
        b.iter(|| quarry::from_slice::<T>(black_box(bytes), Format::Json).unwrap())
    });
    group.bench_with_input(
        BenchmarkId::new("decode", "serde_json"),
        &bytes,
        |b, bytes| b.iter(|| serde_json::from_slice::<T>(black_box(bytes)).unwrap()),
    );
    let value: T = serde_json::from_slice(&bytes).unwrap();
    group.bench_function(BenchmarkId::new("encode", "quarry"), |b| {
        b.iter(|| quarry::json::to_vec(black_box(&value)).unwrap())
    });
    group.bench_function(BenchmarkId::new("encode", "serde_json"), |b| {
        b.iter(|| serde_json::to_vec(black_box(&value)).unwrap())
    });
    group.finish();
}

fn derive(c: &mut Criterion) {
    arms::<Twitter>(c, "twitter.json");
    arms::<Catalog>(c, "citm_catalog.json");
}

criterion_group!(benches, derive);
criterion_main!(benches);
