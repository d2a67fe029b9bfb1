//! The bit-blasting circuits against the exact IEEE reference on many random inputs:
//! `cargo run --release -p solver --example bitblast_diff -- --inputs 1000000 --format f64
//! [--seed S]`. Prints the number of comparisons and every mismatch (at most 20); exit code 1
//! on a mismatch.

use solver::bitblast::check::differential;
use solver::FpFormat;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let inputs: u64 = get("--inputs")
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let seed: u64 = get("--seed").and_then(|s| s.parse().ok()).unwrap_or(1);
    let formats = match get("--format").as_deref() {
        Some("f32") => vec![FpFormat::F32],
        Some("f64") => vec![FpFormat::F64],
        _ => vec![FpFormat::F32, FpFormat::F64],
    };
    let mut failed = false;
    for f in formats {
        let t = std::time::Instant::now();
        let (checks, bad) = differential(f, inputs, seed);
        println!(
            "{}: {inputs} inputs, {checks} comparisons (add sub mul div sqrt fma min max convert lt le eq same fp_bits fp_of_bits, 5 rounding modes), {} mismatches, {:.1} s",
            f.name(),
            bad.len(),
            t.elapsed().as_secs_f64()
        );
        for b in &bad {
            println!("  {b}");
        }
        failed |= !bad.is_empty();
    }
    std::process::exit(failed as i32);
}
