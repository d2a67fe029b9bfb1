//! The big sweep of the IEEE contractors against the exact operations (issue #4,
//! "Backward-contraction soundness tests"): the harness of
//! `solver::contractors::ieee::check` — random points with special values weighted in,
//! random domains around them (soundness of fwd and every bwd, tightness on points), small
//! lattice windows compared with enumeration, comparisons, classes, conversions and bit
//! reinterpretation (`fp_bits`/`fp_of_bits`, one case in 16) — over
//! every operation, rounding mode and format.
//!
//! `cargo run --release -p solver --example ieee_contractor_sweep -- --cases N [--seed S]`
//! runs N cases in total, round-robin over (operation, mode, format) and the four case
//! kinds; failures are counted and the first few printed; the exit code is 1 if any.

use solver::contractors::ieee::check::{
    bits_case, compare_case, conversion_case, random_case, window_case, FpOp, Rng, Stats,
};
use solver::num::{FpFormat, RoundingMode};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: u64| -> u64 {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse().expect("a number"))
            .unwrap_or(default)
    };
    let cases = arg("--cases", 100_000);
    let seed = arg("--seed", 1);
    let mut rng = Rng::new(seed);
    let mut st = Stats::default();
    let mut failures = 0u64;
    let t = Instant::now();
    let mut per_kind = [0u64; 4];
    let mut bits_reinterp = 0u64;
    let combos: Vec<(FpOp, RoundingMode, FpFormat)> = FpOp::ALL
        .iter()
        .flat_map(|&op| {
            RoundingMode::ALL
                .iter()
                .flat_map(move |&rm| [FpFormat::F32, FpFormat::F64].map(|f| (op, rm, f)))
        })
        .collect();
    for n in 0..cases {
        let (op, rm, f) = combos[(n as usize / 4) % combos.len()];
        let kind = (n % 4) as usize;
        let r = match kind {
            0 | 1 => random_case(&mut rng, f, op, rm, &mut st),
            2 => window_case(&mut rng, f, op, rm, &mut st),
            _ => {
                if n % 8 == 3 {
                    compare_case(&mut rng, f, &mut st)
                } else if n % 16 == 7 {
                    bits_reinterp += 1;
                    bits_case(&mut rng, f, &mut st)
                } else {
                    conversion_case(&mut rng, f, rm, &mut st)
                }
            }
        };
        per_kind[kind] += 1;
        if let Err(e) = r {
            failures += 1;
            if failures <= 10 {
                eprintln!("FAIL #{failures} (case {n}): {e}");
            }
        }
        if (n + 1) % 100_000 == 0 {
            eprintln!(
                "{} cases, {failures} failures, {:.0} s",
                n + 1,
                t.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "cases {cases} (random {} / windows {} / compare+conversion+bits {}, of them \
         fp_bits/fp_of_bits {bits_reinterp}), seed {seed}",
        per_kind[0] + per_kind[1],
        per_kind[2],
        per_kind[3]
    );
    println!(
        "checks: {} points kept, {} point-tightness checks, {} window projections \
         ({} equal to the exact hull), {} random/compare/conversion cases",
        st.kept, st.tight, st.windows, st.windows_exact, st.cases
    );
    println!(
        "failures {failures}, time {:.1} s",
        t.elapsed().as_secs_f64()
    );
    if failures > 0 {
        std::process::exit(1);
    }
}
