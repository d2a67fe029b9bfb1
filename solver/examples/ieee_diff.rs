//! Differential test of the IEEE operations: `num::ieee` (fast path with fallbacks) and
//! `num::ieee::exact` (rational path) against the MPFR reference `num::ieee_ref`, on random
//! inputs with special values and constructed hard cases weighted in.
//!
//! `cargo run --release -p solver --example ieee_diff -- --inputs 10000000 [--seed N]
//! [--op add] [--format f64]`: `--inputs` inputs per format, spread round-robin over the
//! operations and the five rounding modes; the table says how many each got. NaN matches
//! NaN regardless of payload; everything else must agree bit for bit (signed zeros too).
//! Exit status 1 if any mismatch.

use solver::num::ieee_ref::diff::{agree, describe, eval, fast_applies, gen_case, DOp, Impl};
use solver::num::ieee_ref::gen::Rng;
use solver::num::{FpFormat, RoundingMode};
use std::time::Instant;

fn usage() -> ! {
    eprintln!(
        "usage: ieee_diff [--inputs N] [--seed N] [--op {}] [--format f32|f64]",
        DOp::ALL.map(|o| o.name()).join("|")
    );
    std::process::exit(2)
}

fn main() {
    let mut inputs: u64 = 10_000_000;
    let mut seed: u64 = 1;
    let mut ops: Vec<DOp> = DOp::ALL.to_vec();
    let mut formats = vec![FpFormat::F32, FpFormat::F64];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--inputs" => inputs = val().parse().unwrap_or_else(|_| usage()),
            "--seed" => seed = val().parse().unwrap_or_else(|_| usage()),
            "--op" => ops = vec![DOp::parse(&val()).unwrap_or_else(|| usage())],
            "--format" => {
                formats = vec![match val().as_str() {
                    "f32" | "fp32" => FpFormat::F32,
                    "f64" | "fp64" => FpFormat::F64,
                    _ => usage(),
                }]
            }
            _ => usage(),
        }
    }
    let modes = RoundingMode::ALL;
    let buckets: Vec<(DOp, RoundingMode)> = ops
        .iter()
        .flat_map(|&o| modes.iter().map(move |&m| (o, m)))
        .collect();
    let mut total_bad = 0u64;
    for &f in &formats {
        let start = Instant::now();
        let mut rng = Rng(seed ^ (f.precision() as u64) << 32);
        // per bucket: [inputs, public≠ref, exact≠ref, public≠exact, fast path taken,
        // RNA result ≠ RNE result (the reference's; a tie was hit)]
        let mut counts = vec![[0u64; 6]; buckets.len()];
        let mut shown = 0;
        for i in 0..inputs {
            let b = (i % buckets.len() as u64) as usize;
            let (op, rm) = buckets[b];
            let c = gen_case(f, op, rm, &mut rng);
            let r = eval(Impl::Reference, &c);
            let p = eval(Impl::Public, &c);
            let e = eval(Impl::Exact, &c);
            let k = &mut counts[b];
            k[0] += 1;
            let bad = [!agree(f, &p, &r), !agree(f, &e, &r), !agree(f, &p, &e)];
            for (j, &x) in bad.iter().enumerate() {
                k[j + 1] += x as u64;
            }
            k[4] += fast_applies(&c) as u64;
            if rm == RoundingMode::Rna {
                let mut c2 = c.clone();
                c2.rm = RoundingMode::Rne;
                k[5] += !agree(f, &r, &eval(Impl::Reference, &c2)) as u64;
            }
            if bad.iter().any(|&x| x) && shown < 20 {
                shown += 1;
                println!(
                    "MISMATCH {}",
                    describe(
                        &c,
                        &[(Impl::Public, p), (Impl::Exact, e), (Impl::Reference, r)]
                    )
                );
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "\n{}: {inputs} inputs (seed {seed}), {secs:.1} s; columns: inputs, mismatches \
             public(fast)≠MPFR, exact≠MPFR, public≠exact; fast: inputs the fast path \
             answered; ties: RNA inputs where MPFR's RNA and RNE results differ",
            f.name()
        );
        println!(
            "{:<14} {:<4} {:>9} {:>8} {:>8} {:>8} {:>9} {:>7}",
            "op", "mode", "inputs", "pub≠ref", "exa≠ref", "pub≠exa", "fast", "ties"
        );
        let mut fmt_bad = 0;
        for (b, &(op, rm)) in buckets.iter().enumerate() {
            let k = counts[b];
            fmt_bad += k[1] + k[2] + k[3];
            let ties = if rm == RoundingMode::Rna {
                k[5].to_string()
            } else {
                "-".to_string()
            };
            println!(
                "{:<14} {:<4} {:>9} {:>8} {:>8} {:>8} {:>9} {:>7}",
                op.name(),
                rm.name(),
                k[0],
                k[1],
                k[2],
                k[3],
                k[4],
                ties
            );
        }
        println!("{}: total mismatches {fmt_bad}", f.name());
        total_bad += fmt_bad;
    }
    if total_bad > 0 {
        std::process::exit(1);
    }
}
