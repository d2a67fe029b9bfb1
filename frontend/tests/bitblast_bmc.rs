//! `bmc-bitblast` (BMC by bit-blasting) on small systems whose answers are derived by hand:
//! SAFE when every run ends, never SAFE on a system with an infinite run, UNSAFE with the
//! shortest trace (also below `--start-depth`), and the portfolio's choice of it on systems
//! that reinterpret float bits.

use frontend::hys::{self, Lowered};
use frontend::ts_cmd::{solve_ts, Engine, TsAnswer, TsOptions};
use ic3::{EngineKind, PortfolioConfig, TransitionSystem, Verdict};
use solver::SolverConfig;
use std::time::Duration;

fn load(text: &str) -> (hys::Loaded, TransitionSystem) {
    let loaded = hys::load(text).unwrap_or_else(|d| panic!("{d:?}"));
    let Lowered::Transition(ts) = &loaded.lowered else {
        panic!("not a transition system");
    };
    let ts = ts.clone();
    (loaded, ts)
}

fn run(text: &str, engine: Engine, start_depth: usize, max_depth: Option<usize>) -> TsAnswer {
    let (loaded, ts) = load(text);
    let opts = TsOptions {
        linear_auto: false,
        engine,
        solver: SolverConfig::default(),
        start_depth,
        max_depth,
        timeout: Some(Duration::from_secs(30)),
        memory_mb: None,
        log: ic3::engine::quiet(),
        ic3: ic3::Ic3Config::default(),
        check_certificate: false,
    };
    solve_ts(&loaded.checked, &ts, &opts)
}

/// A counter that stops: from `c = 5` no transition exists, so the runs are `c = 0, 1, …, j`
/// for `j ≤ 5` (5 transitions at most) and no run of length 6 exists.
fn stopping_counter(target: &str) -> String {
    format!(
        "DECL\n  uint8 c;\nINIT\n  c = 0;\nTRANS\n  c < 5 and c' = c + 1;\nTARGET\n  {target};\n"
    )
}

#[test]
fn runs_that_end_prove_safe() {
    // c = 7 is never reached: depths 0..5 hold c = depth; depth 6 has no run
    let a = run(&stopping_counter("c = 7"), Engine::BmcBitblast, 0, None);
    assert_eq!(a.result.verdict, Verdict::Safe, "{:?}", a.result.note);
    assert_eq!(a.result.engine, "bmc-bitblast");
    assert_eq!(a.result.depth, Some(6));
    // the same with a depth limit at 6 (the proof is found at the limit)
    let a = run(&stopping_counter("c = 7"), Engine::BmcBitblast, 0, Some(6));
    assert_eq!(a.result.verdict, Verdict::Safe);
    // a limit below 6: no proof yet
    let a = run(&stopping_counter("c = 7"), Engine::BmcBitblast, 0, Some(5));
    assert_eq!(a.result.verdict, Verdict::Unknown);
    assert_eq!(a.result.depth, Some(5));
}

#[test]
fn reachable_targets_are_unsafe_also_below_the_start_depth() {
    let a = run(&stopping_counter("c = 3"), Engine::BmcBitblast, 0, None);
    assert_eq!(a.result.verdict, Verdict::Unsafe);
    assert_eq!(a.result.depth, Some(3));
    // c = 1 holds only at depth 1; starting at depth 4, the runs end at 6 and the skipped
    // depths are checked before any SAFE: the trace of depth 1 is found
    let a = run(&stopping_counter("c = 1"), Engine::BmcBitblast, 4, None);
    assert_eq!(a.result.verdict, Verdict::Unsafe, "{:?}", a.result.note);
    assert_eq!(a.result.depth, Some(1));
    // c = 7 with a start depth: still SAFE
    let a = run(&stopping_counter("c = 7"), Engine::BmcBitblast, 4, None);
    assert_eq!(a.result.verdict, Verdict::Safe);
}

#[test]
fn an_infinite_run_is_never_safe() {
    // c' = c + 2 (mod 256) from 0: c stays even, so c = 1 is unreachable, but every run can
    // go on for ever: no depth proves anything, and the answer at the limit is UNKNOWN
    let text = "DECL\n  uint8 c;\nINIT\n  c = 0;\nTRANS\n  c' = c + 2;\nTARGET\n  c = 1;\n";
    let a = run(text, Engine::BmcBitblast, 0, Some(20));
    assert_eq!(a.result.verdict, Verdict::Unknown);
    assert_eq!(a.result.depth, Some(20));
    assert!(a.result.note.unwrap_or_default().contains("--max-depth"));
}

/// A system that reinterprets a float's bits: `b = fp_bits(x)` is set at the first step and
/// both keep their values at the second; `pc = 2` has no successor. The target
/// `b != fp_bits(x)` at `pc = 2` is unreachable and no run has 3 transitions.
const BITS: &str = "DECL
  int [0, 2] pc;
  fp32 x;
  uint32 b;
INIT
  pc = 0;
TRANS
  (pc = 0) -> (pc' = 1 and b' = fp_bits(x) and x' = x);
  (pc = 1) -> (pc' = 2 and b' = b and x' = x);
  not (pc = 2);
TARGET
  pc = 2 and b != fp_bits(x);
";

#[test]
fn bit_reinterpretation_runs_bitblast_bmc_in_the_portfolio() {
    let a = run(BITS, Engine::BmcBitblast, 0, None);
    assert_eq!(a.result.verdict, Verdict::Safe, "{:?}", a.result.note);
    assert_eq!(a.result.depth, Some(3));
    let cfg = PortfolioConfig::default();
    let (_, ts) = load(BITS);
    assert!(ic3::config::uses_bit_reinterpretation(&ts));
    let engines = cfg.engines_for(&ts);
    assert!(engines.contains(&EngineKind::BmcBitblast));
    assert!(engines.contains(&EngineKind::Bmc));
    assert!(!engines.contains(&EngineKind::KindBitblast));
    assert_eq!(engines.len(), cfg.engines.len());
    // a system without bit reinterpretation keeps the default engines
    let (_, plain) = load(&stopping_counter("c = 7"));
    assert!(!ic3::config::uses_bit_reinterpretation(&plain));
    assert_eq!(cfg.engines_for(&plain), cfg.engines);
    // and the portfolio answers SAFE
    let a = run(BITS, Engine::Portfolio, 0, None);
    assert_eq!(a.result.verdict, Verdict::Safe, "{:?}", a.result.note);
}
