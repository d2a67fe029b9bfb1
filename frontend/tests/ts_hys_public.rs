//! The transition-form files of the public corpus with a definite iSAT3 0.02 verdict (their
//! `MANIFEST.tsv`): icpic3 must agree, with an exactly replayed trace of the same depth as
//! iSAT3's. (The two `masterarbeit-bicycle` files, CANDIDATE SOLUTION for iSAT3 as for
//! icpic3, take seconds each and have no definite verdict to check; the benchmark runner's
//! `hys-transition` suite runs all five.)

use frontend::hys::{self, Lowered};
use frontend::ts_cmd::{solve_ts, Engine, TsOptions};
use ic3::Verdict;
use solver::SolverConfig;
use std::time::Duration;
mod common;

/// (file below `hys-public/`, iSAT3's recorded verdict, the depth of iSAT3's trace)
const FILES: [(&str, &str, usize); 3] = [
    ("isat3-manual-0.02/sample2.hys", "UNSAFE", 5),
    ("isat-dde-liangdzou/src/isat3/ex3_10_1.hys", "UNSAFE", 0),
    (
        "isat-dde-liangdzou/src/isat3/ex3_10_1.rev59084b8.hys",
        "UNSAFE",
        0,
    ),
];

#[test]
fn definite_isat3_verdicts_are_matched_with_exact_traces() {
    let dir = common::corpus_dir();
    for (rel, want, depth) in FILES {
        let path = dir.join(rel);
        // the recorded verdict really is the manifest's
        let manifest = path
            .ancestors()
            .find_map(|d| std::fs::read_to_string(d.join("MANIFEST.tsv")).ok())
            .expect("manifest");
        let name = path.file_name().unwrap().to_str().unwrap();
        let row = manifest
            .lines()
            .find(|l| l.split('\t').next().is_some_and(|p| p.ends_with(name)))
            .unwrap_or_else(|| panic!("{rel} not in its manifest"));
        assert!(
            row.contains(&format!("\t{want} [")),
            "{rel}: manifest says {row}"
        );

        let text = std::fs::read_to_string(&path).expect("corpus file");
        let loaded = hys::load(&text).unwrap_or_else(|d| panic!("{rel}: {d:?}"));
        let Lowered::Transition(ts) = &loaded.lowered else {
            panic!("{rel}: not a transition system")
        };
        for engine in [Engine::Portfolio, Engine::Bmc, Engine::Kind] {
            let opts = TsOptions {
                linear_auto: false,
                engine,
                solver: SolverConfig::default(),
                start_depth: 0,
                max_depth: Some(50),
                timeout: Some(Duration::from_secs(20)),
                memory_mb: None,
                log: ic3::engine::quiet(),
                ic3: ic3::Ic3Config::default(),
                check_certificate: false,
            };
            let a = solve_ts(&loaded.checked, ts, &opts);
            assert_eq!(
                a.result.verdict,
                Verdict::Unsafe,
                "{rel} ({})",
                engine.name()
            );
            assert_eq!(a.result.depth, Some(depth), "{rel}");
            assert_eq!(a.result.trace.as_ref().map(|t| t.len()), Some(depth + 1));
        }
    }
}
