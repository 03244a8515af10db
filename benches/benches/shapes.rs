//! Criterion runs of the same contests bench-report measures: every generated shape and
//! real file, struct decode / tree / encode, quarry against serde_json, sonic-rs and
//! simd-json. Filter with criterion's usual argument, e.g. `-- person-batch-250`.
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn contests(c: &mut Criterion) {
    for contest in quarry_benches::contests::contests() {
        let mut group = c.benchmark_group(format!("{}/{}", contest.input, contest.arm));
        group.throughput(Throughput::Bytes(contest.bytes as u64));
        for arm in &contest.arms {
            group.bench_function(arm.library, |b| b.iter(|| black_box((arm.run)())));
        }
        group.finish();
    }
}

criterion_group!(benches, contests);
criterion_main!(benches);
