//! The solver on a fixed sample of the nlsat corpus (every 150th row of its manifest): no
//! answer may contradict the oracle (`Z3_BOUNDED.tsv`: Z3 on the same bounded problems), and
//! most files must be decided. SATISFIABLE is only ever returned with a model validated
//! exactly against the original constraints (`solve_cmd`). With the `check-deductions`
//! feature every ICP deduction is re-derived independently while solving (a smaller sample,
//! since that is slow).

use frontend::hys::{self, Lowered};
use frontend::solve_cmd::{solve_expr, Options, Verdict};
use solver::SolverConfig;
use std::collections::HashMap;
mod common;

use std::path::PathBuf;
use std::time::Duration;

fn nlsat_dir() -> PathBuf {
    common::benchmark_dir("hys-public/nlsat-dreal3")
}

fn tsv(name: &str) -> Vec<Vec<String>> {
    let path = nlsat_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set ICPIC3_BENCHMARKS)", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn nlsat_sample_is_sound_and_mostly_decided() {
    let every = if cfg!(feature = "check-deductions") {
        600
    } else {
        150
    };
    let timeout = Duration::from_secs(if cfg!(feature = "check-deductions") {
        5
    } else {
        2
    });
    let oracle: HashMap<String, String> = tsv("Z3_BOUNDED.tsv")
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    let rows = tsv("MANIFEST.tsv");
    assert_eq!(rows.len(), 8926);
    let opts = Options {
        config: SolverConfig::default(),
        timeout: Some(timeout),
        engine: Default::default(),
        // the core alone at the fixed width: adaptive refinement would spend the whole limit
        // on every candidate (tests/adaptive_refinement.rs and benchmarks/RESULTS.md
        // "Issue #23, session 11" cover it)
        refine: false,
    };
    let (mut sat, mut unsat, mut open, mut files) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for row in rows.iter().step_by(every) {
        let rel = &row[0];
        let text = std::fs::read_to_string(nlsat_dir().join(rel)).expect("corpus file");
        let loaded = hys::load(&text).unwrap_or_else(|d| panic!("{rel}: {d:?}"));
        let Lowered::Expr(f) = &loaded.lowered else {
            panic!("{rel} is not an EXPR file");
        };
        files += 1;
        let answer = solve_expr(&loaded.checked, f, &opts);
        let expected = oracle.get(rel).map(String::as_str);
        match answer.verdict {
            Verdict::Satisfiable => {
                sat += 1;
                if expected == Some("unsat") {
                    wrong.push(format!("{rel}: SATISFIABLE, Z3 says unsat"));
                }
            }
            Verdict::Unsatisfiable => {
                unsat += 1;
                if expected == Some("sat") {
                    wrong.push(format!("{rel}: UNSATISFIABLE, Z3 says sat"));
                }
            }
            Verdict::Candidate | Verdict::Unknown => open += 1,
        }
    }
    eprintln!("nlsat sample: {files} files, {sat} SAT, {unsat} UNSAT, {open} open");
    assert!(wrong.is_empty(), "wrong answers: {wrong:#?}");
    // Measured: 43 of 60 decided at 2 s (iSAT3 0.02 decides about 70% of such a sample).
    // A regression in the solver shows here.
    if !cfg!(feature = "check-deductions") {
        assert!(
            sat + unsat >= files * 6 / 10,
            "only {} of {files} decided",
            sat + unsat
        );
    }
}
