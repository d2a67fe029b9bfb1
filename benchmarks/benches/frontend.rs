//! Throughput of the `.hys` front end (parse + check + lower), in bytes per second: on the
//! largest corpus file and on the whole nlsat corpus (8,926 files, 33 MB).

use benchmarks::{benchmarks_dir, files_with_extension};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn front_end(c: &mut Criterion) {
    let nlsat = benchmarks_dir().join("hys-public/nlsat-dreal3");
    let files = files_with_extension(&nlsat, "hys");
    assert!(
        files.len() > 8000,
        "nlsat corpus not found at {} (set ICPIC3_BENCHMARKS)",
        nlsat.display()
    );
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("corpus file is UTF-8"))
        .collect();
    let largest = texts
        .iter()
        .max_by_key(|t| t.len())
        .expect("non-empty corpus")
        .clone();
    let total: usize = texts.iter().map(String::len).sum();

    let mut g = c.benchmark_group("hys_front_end");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(largest.len() as u64));
    g.bench_function("largest_file", |b| {
        b.iter(|| {
            let loaded = frontend::hys::load(black_box(&largest)).expect("corpus file loads");
            black_box(loaded.diagnostics.len())
        })
    });
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("nlsat_corpus", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for t in &texts {
                let loaded = frontend::hys::load(black_box(t)).expect("corpus file loads");
                n += loaded.diagnostics.len();
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, front_end);
criterion_main!(benches);
