//! IC3 (issue #6) on both transition-system suites — `examples/ts-suite/` (the BMC issue's)
//! and `examples/ic3-suite/` (models that need inductive invariants of several lemmas) —
//! in the configurations `ind0` and `ind2+abort`:
//! - a definite verdict is always the expected one;
//! - every SAFE carries an invariant whose *printed* clauses, parsed back, pass the
//!   independent certificate check in fresh solvers (initiation, consecution, safety);
//! - every UNSAFE trace satisfies INIT, TRANS, TARGET, the domains and statics exactly;
//! - every model is answered, except the known gaps listed below with their reason.

use frontend::hys::{self, Lowered};
use frontend::ts_cmd::{check_printed_invariant, solve_ts, Engine, ExactValidator, TsOptions};
use ic3::{Ic3Config, Verdict};
use solver::SolverConfig;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// (suite, file, configuration): models a configuration does not answer within the test's
/// time limit, and why. Each is a measured gap, not an expected verdict.
const KNOWN_GAPS: &[(&str, &str, &str, &str)] = &[
    ("ic3-suite", "s_real_dual_tank.hys", "*", RELATIONAL),
    ("ic3-suite", "s_real_energy_budget.hys", "*", RELATIONAL),
    ("ic3-suite", "s_pc_real_integrate.hys", "*", RELATIONAL),
    ("ic3-suite", "s_pc_clamp_accumulate.hys", "*", RELATIONAL),
    ("ic3-suite", "u_real_speed_overshoot.hys", "*", DEEP_CEX),
];

/// Why most gaps are gaps: the invariant relates two reals (a sum, `x <= k·p`), which
/// interval lemmas only approximate box by box.
const RELATIONAL: &str = "needs a relational invariant between reals that box lemmas only \
                          approximate one box at a time";
/// A counterexample deeper than the frames IC3 opens in time, over values the frontier
/// enumerates box by box (BMC and the portfolio find it).
const DEEP_CEX: &str = "a deep counterexample over reals/floats; the frontier enumerates boxes";

const SECONDS: u64 = 20;

fn dir(suite: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(suite)
}

fn expected(suite: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(dir(suite).join("expected.csv")).expect("expected.csv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut it = l.splitn(3, ',');
            (
                it.next().unwrap().to_string(),
                it.next().expect("verdict column").to_string(),
            )
        })
        .collect()
}

fn gap(suite: &str, file: &str, config: &str) -> bool {
    KNOWN_GAPS
        .iter()
        .any(|&(s, f, c, _)| s == suite && f == file && (c == "*" || c == config))
}

/// Runs one configuration over one suite; returns (answered, SAFE with checked invariant).
/// With `require_all`, a model outside the known gaps left unanswered fails the test.
fn run_suite(suite: &str, config: &str, seconds: u64, require_all: bool) -> (usize, usize) {
    let cfg = Ic3Config::preset(config).unwrap();
    let (a, c, _) = run_suite_with(suite, config, &cfg, seconds, require_all);
    (a, c)
}

/// [`run_suite`] with an explicit configuration (`config` names it in messages and
/// [`KNOWN_GAPS`]); also returns the sum of each numeric IC3 statistic over the suite.
fn run_suite_with(
    suite: &str,
    config: &str,
    cfg: &Ic3Config,
    seconds: u64,
    require_all: bool,
) -> (usize, usize, std::collections::HashMap<String, f64>) {
    let mut sums = std::collections::HashMap::new();
    let rows = expected(suite);
    let mut failures = Vec::new();
    let (mut answered, mut certified) = (0, 0);
    for (file, want) in &rows {
        if gap(suite, file, config) {
            continue;
        }
        let text = std::fs::read_to_string(dir(suite).join(file)).expect("suite file");
        let loaded = hys::load(&text).unwrap_or_else(|d| panic!("{file}: {d:?}"));
        let Lowered::Transition(ts) = &loaded.lowered else {
            panic!("{file} is not a transition system");
        };
        let opts = TsOptions {
            linear_auto: false,
            engine: Engine::Ic3,
            solver: SolverConfig::default(),
            start_depth: 0,
            max_depth: None,
            timeout: Some(Duration::from_secs(seconds)),
            memory_mb: None,
            log: ic3::engine::quiet(),
            ic3: cfg.clone(),
            check_certificate: true,
        };
        let a = solve_ts(&loaded.checked, ts, &opts);
        for (k, v) in &a.result.extra_stats {
            // numbers, and `[a,b,c]` lists summed per position under `name[i]`
            if let Ok(x) = v.parse::<f64>() {
                *sums.entry(k.to_string()).or_insert(0.0) += x;
            } else if let Some(list) = v.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                for (i, x) in list.split(',').enumerate() {
                    if let Ok(x) = x.parse::<f64>() {
                        *sums.entry(format!("{k}[{i}]")).or_insert(0.0) += x;
                    }
                }
            }
        }
        let got = a.result.verdict;
        match got {
            Verdict::Safe | Verdict::Unsafe => {
                assert_eq!(got.text(), want, "{suite}/{file} ({config}): wrong verdict");
            }
            _ => {
                failures.push(format!(
                    "{suite}/{file} ({config}): {} ({:?})",
                    got.text(),
                    a.result.note
                ));
                continue;
            }
        }
        answered += 1;
        if got == Verdict::Unsafe {
            let trace = a.result.trace.as_ref().expect("UNSAFE with a trace");
            let val = ExactValidator::new(&loaded.checked);
            assert!(
                ic3::replay::trace_ok(ts, &val, trace),
                "{suite}/{file} ({config}): the trace does not replay exactly"
            );
            continue;
        }
        // SAFE: from IC3's invariant (or from BMC when all runs end early)
        if let Some(inv) = &a.result.invariant {
            let checked = check_printed_invariant(&text, ts, inv, &opts);
            assert!(
                checked.is_ok(),
                "{suite}/{file} ({config}): printed invariant rejected: {checked:?}\n{}",
                inv.lines.join("\n")
            );
            certified += 1;
        } else {
            assert!(
                a.result
                    .note
                    .as_deref()
                    .unwrap_or("")
                    .contains("no run of length"),
                "{suite}/{file} ({config}): SAFE without an invariant: {:?}",
                a.result.note
            );
        }
    }
    if require_all {
        assert!(failures.is_empty(), "unanswered:\n{}", failures.join("\n"));
    }
    (answered, certified, sums)
}

/// One test, run sequentially: the suites' time limits should not compete for the cores.
#[test]
fn ind0_and_ind2_abort_answer_both_suites_with_certificates() {
    for (suite, config, min_answered, min_certified) in [
        // the bar: all of the BMC suite, and at least 30 SAFE models of the IC3
        // suite (those need invariants; k-induction up to 6 proves none) with checked
        // invariants
        ("ts-suite", "ind0", 54, 20),
        ("ts-suite", "ind2+abort", 54, 20),
        ("ic3-suite", "ind0", 41, 30),
        ("ic3-suite", "ind2+abort", 41, 30),
    ] {
        let t = Instant::now();
        let (n, c) = run_suite(suite, config, SECONDS, true);
        eprintln!(
            "{suite} {config}: {n} answered, {c} printed invariants checked, {:.1} s",
            t.elapsed().as_secs_f64()
        );
        assert!(
            n >= min_answered && c >= min_certified,
            "{suite} {config}: {n} {c}"
        );
    }
}

/// The stronger generalization of §3 (issue #7) must be as sound as the baseline: every
/// definite answer right, every invariant accepted, every trace replayed. Three presets that
/// together use `+ig`, `+j`, `+ctg` and `+lf`, with a shorter limit; answering everything is
/// not required here (benchmarks/RESULTS.md has the counts), a floor is.
#[test]
fn stronger_generalization_is_sound_on_both_suites() {
    for config in ["ind0+ig", "ind0+ig+ctg+j+lf", "ind2+abort+ig+ctg+lf"] {
        let t = Instant::now();
        let (mut n, mut c) = (0, 0);
        for suite in ["ts-suite", "ic3-suite"] {
            let (a, b) = run_suite(suite, config, 5, false);
            n += a;
            c += b;
        }
        eprintln!(
            "{config}: {n} answered, {c} printed invariants checked, {:.1} s",
            t.elapsed().as_secs_f64()
        );
        assert!(n >= 70 && c >= 30, "{config}: {n} {c}");
    }
}

/// EXCTG, DynAMic and the generalization cache (issue #7): every answer right, every trace
/// replayed, every printed invariant accepted — and each mechanism actually at work. DynAMic
/// runs with low thresholds (CTG from 1 failed attempt, EXCTG from 3) so that all three of
/// its modes occur on these small models; with the paper's 10 and 40 most cubes here are
/// generalized the standard way.
#[test]
fn exctg_dynamic_and_cache_are_sound_on_both_suites() {
    let dynamic_low = Ic3Config {
        ctg_th: 1,
        exctg_th: 3,
        ..Ic3Config::preset("ind2+abort+ig+lf+dynamic").unwrap()
    };
    let runs = [
        (
            "ind2+abort+ig+ctg+lf+exctg",
            Ic3Config::preset("ind2+abort+ig+ctg+lf+exctg").unwrap(),
        ),
        ("ind2+abort+ig+lf+dynamic", dynamic_low),
        (
            "ind2+abort+cache",
            Ic3Config::preset("ind2+abort+cache").unwrap(),
        ),
    ];
    for (name, cfg) in runs {
        let t = Instant::now();
        let (mut n, mut c) = (0, 0);
        let mut sums = std::collections::HashMap::<String, f64>::new();
        for suite in ["ts-suite", "ic3-suite"] {
            let (a, b, s) = run_suite_with(suite, name, &cfg, 5, false);
            n += a;
            c += b;
            for (k, v) in s {
                *sums.entry(k).or_insert(0.0) += v;
            }
        }
        let get = |k: &str| sums.get(k).copied().unwrap_or(0.0);
        eprintln!(
            "{name}: {n} answered, {c} printed invariants checked, {:.1} s; exctg preds {}, \
             dynamic modes {}/{}/{}, cache {} hits of {} lookups",
            t.elapsed().as_secs_f64(),
            get("ic3_exctg_preds"),
            get("ic3_dynamic_modes[0]"),
            get("ic3_dynamic_modes[1]"),
            get("ic3_dynamic_modes[2]"),
            get("ic3_cache_hits"),
            get("ic3_cache_lookups"),
        );
        assert!(n >= 70 && c >= 30, "{name}: {n} {c}");
        match name {
            "ind2+abort+ig+ctg+lf+exctg" => assert!(get("ic3_exctg_preds") > 0.0),
            "ind2+abort+ig+lf+dynamic" => {
                for m in 0..3 {
                    assert!(get(&format!("ic3_dynamic_modes[{m}]")) > 0.0, "mode {m}");
                }
                assert!(get("ic3_ctgs") > 0.0);
            }
            _ => assert!(get("ic3_cache_lookups") > 0.0),
        }
    }
}

#[test]
fn known_gaps_name_real_files() {
    for &(suite, file, _, why) in KNOWN_GAPS {
        assert!(dir(suite).join(file).exists(), "{suite}/{file}");
        assert!(!why.is_empty());
    }
}
