//! Differential check of the machine-integer contractors against Rust's native integer
//! operations, for all eight machine types (see `solver/tests/common/bv_diff.rs` for what is
//! compared):
//!
//!     cargo run --release -p solver --example bv_diff -- --inputs 10000000 [--seed N] [--threads N]
//!
//! Prints one line per type (inputs, checks, mismatches, the first mismatch if any) and exits
//! with 1 if there was any mismatch.

#[path = "../tests/common/bv_diff.rs"]
mod bv_diff;

use std::time::Instant;

fn main() {
    let mut inputs: u64 = 1_000_000;
    let mut seed: u64 = 0x5eed_b171;
    let mut threads: u64 = 1;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || -> u64 {
            args.next()
                .and_then(|v| v.replace('_', "").parse().ok())
                .unwrap_or_else(|| {
                    eprintln!("usage: bv_diff [--inputs N] [--seed N] [--threads N]");
                    std::process::exit(2)
                })
        };
        match a.as_str() {
            "--inputs" => inputs = val(),
            "--seed" => seed = val(),
            "--threads" => threads = val(),
            _ => {
                eprintln!("usage: bv_diff [--inputs N] [--seed N] [--threads N]");
                std::process::exit(2)
            }
        }
    }
    let start = Instant::now();
    let rep = bv_diff::run_diff(inputs, seed, threads as usize);
    println!("type     inputs       checks          mismatches");
    for (name, n, checks, bad, first) in &rep.rows {
        println!("{name:<8} {n:<12} {checks:<15} {bad}");
        if let Some(f) = first {
            println!("  first mismatch: {f}");
        }
    }
    println!(
        "total mismatches: {} ({:.1} s, seed {seed})",
        rep.total_mismatches(),
        start.elapsed().as_secs_f64()
    );
    if rep.total_mismatches() > 0 {
        std::process::exit(1);
    }
}
