//! The transition-system suite (`examples/ts-suite/`, verdicts and reasons in its
//! `expected.csv`, derived by hand and cross-checked independently): every file must get its
//! expected verdict from the portfolio, every UNSAFE trace must satisfy INIT, TRANS, TARGET,
//! the declared domains and the static variables *exactly* when re-checked here, and BMC and
//! k-induction run alone must never contradict an expected verdict.

use frontend::hys::{self, Lowered};
use frontend::ts_cmd::{solve_ts, Engine, ExactValidator, TsAnswer, TsOptions};
use ic3::replay::in_domain;
use ic3::{TransitionSystem, Validator, Verdict};
use solver::SolverConfig;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/ts-suite")
}

/// `(file, verdict, why)` rows of `expected.csv` (the `why` column may be quoted).
fn expected() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(suite_dir().join("expected.csv")).expect("expected.csv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut it = l.splitn(3, ',');
            let file = it.next().unwrap().to_string();
            let verdict = it.next().expect("verdict column").to_string();
            assert!(
                it.next().is_some_and(|w| !w.is_empty()),
                "{file}: no reason"
            );
            (file, verdict)
        })
        .collect()
}

fn run(file: &str, engine: Engine, max_depth: Option<usize>, secs: u64) -> (TsAnswer, Checked) {
    let text = std::fs::read_to_string(suite_dir().join(file)).expect("suite file");
    let loaded = hys::load(&text).unwrap_or_else(|d| panic!("{file}: {d:?}"));
    let Lowered::Transition(ts) = &loaded.lowered else {
        panic!("{file} is not a transition system");
    };
    let opts = TsOptions {
        linear_auto: false,
        engine,
        solver: SolverConfig::default(),
        start_depth: 0,
        max_depth,
        timeout: Some(Duration::from_secs(secs)),
        memory_mb: None,
        log: ic3::engine::quiet(),
        ic3: ic3::Ic3Config::default(),
        check_certificate: false,
    };
    (
        solve_ts(&loaded.checked, ts, &opts),
        Checked {
            ts: ts.clone(),
            checked: loaded.checked.clone(),
        },
    )
}

struct Checked {
    ts: TransitionSystem,
    checked: frontend::hys::check::Checked,
}

/// Re-checks an UNSAFE trace exactly, step by step.
fn assert_trace_exact(file: &str, a: &TsAnswer, c: &Checked) {
    let trace = a
        .result
        .trace
        .as_ref()
        .unwrap_or_else(|| panic!("{file}: UNSAFE without a trace"));
    assert_eq!(Some(trace.len() - 1), a.result.depth, "{file}: depth");
    let v = ExactValidator::new(&c.checked);
    for (k, s) in trace.iter().enumerate() {
        assert_eq!(s.len(), c.ts.state.len());
        for (sv, x) in c.ts.state.iter().zip(s) {
            assert!(
                in_domain(sv, x),
                "{file}: {}@{k} = {x:?} outside its domain",
                sv.name
            );
        }
        if k == 0 {
            assert!(v.init(s), "{file}: INIT fails at step 0");
        } else {
            let p = &trace[k - 1];
            assert!(
                v.trans(p, s),
                "{file}: TRANS fails from step {} to {k}",
                k - 1
            );
            for (i, sv) in c.ts.state.iter().enumerate() {
                assert!(
                    !sv.is_static || p[i] == s[i],
                    "{file}: static {} changes",
                    sv.name
                );
            }
        }
    }
    assert!(
        v.target(trace.last().unwrap()),
        "{file}: TARGET fails at the end"
    );
}

#[test]
fn suite_has_at_least_forty_models_with_reasons() {
    let rows = expected();
    assert!(rows.len() >= 40, "{} models", rows.len());
    let files: Vec<_> = std::fs::read_dir(suite_dir())
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().into_string().unwrap();
            n.ends_with(".hys").then_some(n)
        })
        .collect();
    assert_eq!(files.len(), rows.len(), "every .hys file has one row");
    for (f, v) in &rows {
        assert!(files.contains(f), "{f} listed but missing");
        assert!(["SAFE", "UNSAFE"].contains(&v.as_str()), "{f}: {v}");
    }
}

#[test]
fn portfolio_answers_every_model_and_replays_every_unsafe_exactly() {
    let start = Instant::now();
    let mut failures = Vec::new();
    let (mut safe, mut unsafe_, mut deep) = (0, 0, 0);
    for (file, want) in expected() {
        let (a, c) = run(&file, Engine::Portfolio, None, 20);
        let got = a.result.verdict.text();
        if got != want {
            failures.push(format!(
                "{file}: expected {want}, got {got} ({:?})",
                a.result.note
            ));
            continue;
        }
        match a.result.verdict {
            Verdict::Unsafe => {
                assert_trace_exact(&file, &a, &c);
                unsafe_ += 1;
                if a.result.depth >= Some(50) {
                    deep += 1;
                }
            }
            Verdict::Safe => safe += 1,
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(deep >= 3, "only {deep} counterexamples of depth >= 50");
    eprintln!(
        "ts-suite: {safe} SAFE, {unsafe_} UNSAFE (all replayed exactly, {deep} of depth >= 50) \
         in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn each_engine_alone_never_contradicts_the_suite() {
    // k-induction proofs with k >= 3 (the suite must need them)
    let mut deep_induction = 0;
    for (file, want) in expected() {
        for engine in [Engine::Bmc, Engine::Kind] {
            let (a, c) = run(&file, engine, Some(100), 5);
            let got = a.result.verdict;
            match got {
                Verdict::Safe | Verdict::Unsafe => assert_eq!(
                    got.text(),
                    want,
                    "{file}: {} answered {}",
                    engine.name(),
                    got.text()
                ),
                Verdict::Candidate | Verdict::Unknown => {}
            }
            if got == Verdict::Unsafe {
                assert_trace_exact(&file, &a, &c);
            }
            let by_induction = a
                .result
                .note
                .as_deref()
                .unwrap_or("")
                .contains("k-induction");
            if engine == Engine::Kind && got == Verdict::Safe && by_induction {
                deep_induction += (a.result.depth >= Some(3)) as usize;
            }
        }
    }
    assert!(deep_induction >= 3, "{deep_induction} proofs need k >= 3");
}

/// `bmc-bitblast` (which proves SAFE when every run ends) never contradicts the suite, and
/// proves at least the suite's bit-blastable systems whose runs all end.
#[test]
fn bitblast_bmc_never_contradicts_the_suite() {
    let mut safe = 0;
    for (file, want) in expected() {
        let (a, c) = run(&file, Engine::BmcBitblast, Some(40), 2);
        let got = a.result.verdict;
        if matches!(got, Verdict::Safe | Verdict::Unsafe) {
            assert_eq!(
                got.text(),
                want,
                "{file}: bmc-bitblast answered {}",
                got.text()
            );
        }
        if got == Verdict::Unsafe {
            assert_trace_exact(&file, &a, &c);
        }
        safe += (got == Verdict::Safe) as usize;
    }
    assert!(safe >= 1, "no SAFE answer from bmc-bitblast on the suite");
}

#[test]
fn language_doc_b3_is_safe_and_its_real_twin_is_replayed() {
    // Part B.3: in binary64, 1e20 + 1 rounds to 1e20, so the target is unreachable: SAFE
    let b3 = "DECL fp64 big, sum; INIT big = 1e20; sum = big + 1.0; \
              TRANS big' = big; sum' = sum; TARGET not feq(sum, big);";
    let loaded = hys::load(b3).expect("B.3 loads");
    let Lowered::Transition(ts) = &loaded.lowered else {
        panic!("B.3 is a transition system")
    };
    let opts = TsOptions {
        linear_auto: false,
        engine: Engine::Portfolio,
        solver: SolverConfig::default(),
        start_depth: 0,
        max_depth: Some(20),
        timeout: Some(Duration::from_secs(5)),
        memory_mb: None,
        log: ic3::engine::quiet(),
        ic3: ic3::Ic3Config::default(),
        check_certificate: false,
    };
    let v = solve_ts(&loaded.checked, ts, &opts).result.verdict;
    assert_eq!(v, Verdict::Safe, "B.3: {}", v.text());
    // the twin over the reals: UNSAFE at depth 0 with sum = 1e20 + 1 exactly
    let (a, c) = run("u_real_twin_1e20.hys", Engine::Portfolio, None, 10);
    assert_eq!(a.result.verdict, Verdict::Unsafe);
    assert_trace_exact("u_real_twin_1e20.hys", &a, &c);
    let sum = a.result.trace.as_ref().unwrap()[0][1].clone();
    let want: solver::Rational = solver::Rational::from_integer(
        "100000000000000000001"
            .parse::<num_bigint::BigInt>()
            .unwrap(),
    );
    assert_eq!(sum, solver::model::Value::Num(want));
}
