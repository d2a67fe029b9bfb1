//! The model-checking engines on fixed models: one relative-induction query of IC3 (the
//! query every blocking, generalization and propagation step asks), a whole IC3 run per
//! configuration (standard `ind0` and the default `dynamic`), and a whole BMC run to a
//! fixed depth.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use frontend::hys::{self, Loaded, Lowered};
use frontend::ts_cmd::{solve_ts, Engine, TsOptions};
use ic3::ic3::cube::{CLit, Cube};
use ic3::ic3::frames::Frames;
use ic3::{FrameMode, Ic3Config, Limits, TransitionSystem, Verdict};
use solver::{Rational, Rel, SolverConfig};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

fn load(rel: &str) -> Loaded {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel);
    let text = std::fs::read_to_string(&p).expect("bundled model");
    hys::load(&text).unwrap_or_else(|d| panic!("{}: {d:?}", p.display()))
}

fn ts_of(loaded: &Loaded) -> &TransitionSystem {
    match &loaded.lowered {
        Lowered::Transition(ts) => ts,
        _ => panic!("not a transition system"),
    }
}

fn options(engine: Engine, ic3: Ic3Config, max_depth: Option<usize>) -> TsOptions {
    TsOptions {
        linear_auto: false,
        engine,
        solver: SolverConfig::default(),
        start_depth: 0,
        max_depth,
        timeout: Some(Duration::from_secs(60)),
        memory_mb: None,
        log: ic3::engine::quiet(),
        ic3,
        check_certificate: false,
    }
}

/// `F_1 ∧ ¬c ∧ T ∧ c'` on `s_int_budget` for `c = spent >= v`: `v = 13` has a predecessor in
/// `F_1 = (spent <= 12)` (SAT), `v = 14` has none (UNSAT).
fn relative_induction(c: &mut Criterion) {
    let loaded = load("examples/ic3-suite/s_int_budget.hys");
    let ts = ts_of(&loaded);
    let spent = ts
        .state
        .iter()
        .position(|v| v.name == "spent")
        .expect("state variable spent");
    let limits = Limits::default();
    let mut frames =
        Frames::new(ts, FrameMode::Single, 0, &SolverConfig::default(), &limits).expect("frames");
    let mut g = c.benchmark_group("ic3_query");
    for (v, name) in [(13, "sat_spent_ge_13"), (14, "unsat_spent_ge_14")] {
        let cube = Cube::new(vec![CLit::Bound {
            var: spent,
            rel: Rel::Ge,
            value: Rational::from_integer(v.into()),
        }]);
        let q = frames.begin(1, Some(&cube));
        let expect_unsat = v == 14;
        assert_eq!(
            frames.solve_next(&q, &cube.0).0.is_unsat(),
            expect_unsat,
            "{name}"
        );
        g.bench_function(name, |b| {
            b.iter(|| black_box(frames.solve_next(&q, &cube.0).0.is_unsat()))
        });
        frames.end(q);
    }
    g.finish();
}

/// Whole runs, certificate or trace check included, on small bundled models.
fn whole_runs(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine_run");
    g.sample_size(10);
    for (model, want) in [
        ("examples/ic3-suite/s_int_budget.hys", Verdict::Safe),
        ("examples/ic3-suite/s_fp32_speed_limit.hys", Verdict::Safe),
    ] {
        let loaded = load(model);
        let ts = ts_of(&loaded);
        let short = model.rsplit('/').next().unwrap_or(model);
        for config in ["ind0", "dynamic"] {
            let opts = options(Engine::Ic3, Ic3Config::preset(config).unwrap(), None);
            assert_eq!(solve_ts(&loaded.checked, ts, &opts).result.verdict, want);
            g.bench_function(BenchmarkId::new(format!("ic3_{config}"), short), |b| {
                b.iter(|| black_box(solve_ts(&loaded.checked, ts, &opts).result.verdict))
            });
        }
    }
    // BMC through 16 depths of a system whose target is unreachable (13 purchases would
    // reach it; the search space grows quickly beyond depth 15)
    let loaded = load("examples/ic3-suite/s_int_budget.hys");
    let ts = ts_of(&loaded);
    let opts = options(Engine::Bmc, Ic3Config::default(), Some(16));
    assert_eq!(
        solve_ts(&loaded.checked, ts, &opts).result.verdict,
        Verdict::Unknown
    );
    g.bench_function("bmc_16_depths/s_int_budget.hys", |b| {
        b.iter(|| black_box(solve_ts(&loaded.checked, ts, &opts).result.verdict))
    });
    g.finish();
}

criterion_group!(benches, relative_induction, whole_runs);
criterion_main!(benches);
