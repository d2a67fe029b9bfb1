//! The nlsat sample of the issue: every 60th row of `nlsat-dreal3/MANIFEST.tsv` (148 files)
//! at 3 s per file. Ignored in the normal test run (about 10 s in release mode):
//! `cargo test --release -p benchmarks --test nlsat_sample -- --ignored --nocapture`.
//! Asserts soundness against Z3's verdicts (no UNSAT where Z3 says sat) and prints the counts.

use frontend::hys::{check, lower, parser};
use solver::{SolveResult, Solver, SolverConfig};
use std::collections::HashMap;
use std::time::{Duration, Instant};

const DIR: &str = "/work/shared/benchmarks/hys-public/nlsat-dreal3";

#[test]
#[ignore = "benchmark: needs the shared benchmark files, ~10 s in release mode"]
fn nlsat_every_60th_row() {
    let Ok(manifest) = std::fs::read_to_string(format!("{DIR}/MANIFEST.tsv")) else {
        eprintln!("benchmark files not found, skipping");
        return;
    };
    let z3: HashMap<String, String> = std::fs::read_to_string(format!("{DIR}/Z3_BOUNDED.tsv"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let mut it = l.split('\t');
            Some((it.next()?.to_string(), it.next()?.to_string()))
        })
        .collect();
    let rows: Vec<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
    let (mut sat, mut unsat, mut other) = (0, 0, 0);
    let start = Instant::now();
    for (i, row) in rows.iter().enumerate() {
        if (i + 1) % 60 != 0 {
            continue;
        }
        let path = row.split('\t').next().unwrap();
        let text = std::fs::read_to_string(format!("{DIR}/{path}")).unwrap();
        let ast = parser::parse(&text).unwrap();
        let (checked, _) = check::check(&ast);
        let lower::Lowered::Expr(f) = lower::lower(&checked.unwrap()).unwrap() else {
            panic!("{path}: not an EXPR file")
        };
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        s.set_time_limit(Duration::from_secs(3));
        s.add_formula(&f);
        match s.solve(&[]) {
            SolveResult::Sat(_) => sat += 1,
            SolveResult::Unsat => {
                assert_ne!(
                    z3.get(path).map(String::as_str),
                    Some("sat"),
                    "{path}: UNSAT but Z3 says sat"
                );
                unsat += 1;
            }
            _ => other += 1,
        }
    }
    eprintln!(
        "nlsat sample: SAT {sat} UNSAT {unsat} decided {} undecided {other} in {:.2?}",
        sat + unsat,
        start.elapsed()
    );
}
