//! IC3's relational lemmas (`+rel`, issue #22 item 2): bounds over linear terms of state
//! variables.
//!
//! The system is the counter family of `benchmarks/scripts/counter_family.py`: `a` counts
//! down from N while `b` counts up, both reset at `a = 0`; `a + b = N` holds in every
//! reachable state (by hand: the sum is N initially, a step with `a > 0` keeps it, the reset
//! sets it to N), so `a = 0 and b != N` is unreachable. Box lemmas need one lemma per value
//! of `a` (box IC3 takes over 10 s at N = 160 in a release build); the two relational
//! lemmas `a + b >= N`, `a + b <= N` prove it at once.

mod common;

use frontend::hys::{load, Lowered};
use frontend::ts_cmd::check_printed_invariant;
use ic3::engine::Limits;
use ic3::ic3::certificate::{self, Certificate, Lemmas};
use ic3::ic3::cube::{CLit, Cube};
use ic3::ic3::terms::{augment, LinearTerm};
use ic3::{Invariant, TransitionSystem};
use solver::num::Rational;
use solver::{Rel, SolverConfig};
use std::process::Command;

fn counter(n: u32, reset_b: u32) -> String {
    format!(
        "DECL\n  int [0, {n}] a;\n  int [0, {}] b;\nINIT\n  a = {n};\n  b = 0;\nTRANS\n  \
         a > 0 -> (a' = a - 1 and b' = b + 1);\n  a = 0 -> (a' = {n} and b' = {reset_b});\n\
         TARGET\n  a = 0 and b != {n};\n",
        2 * n
    )
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-ic3-relational-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn icpic3(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Relational IC3 proves N = 320 with the two sum lemmas, and the printed invariant is read
/// back and re-checked over the original system; box IC3 does not finish in the same budget.
#[test]
fn relational_lemmas_prove_the_counter_family_where_boxes_do_not() {
    let p = write("counter_320.hys", &counter(320, 0));
    let p = p.to_str().unwrap();
    let (code, out, err) = icpic3(&[
        "solve",
        "--engine",
        "ic3",
        "--config",
        "dynamic+rel",
        "--check-certificate",
        "--timeout",
        "15",
        p,
    ]);
    assert_eq!(code, 20, "SAFE exits 20: {out}{err}");
    assert!(out.starts_with("SAFE\n"), "{out}");
    assert!(out.contains("a + b >= 320;"), "{out}");
    assert!(out.contains("a + b <= 320;"), "{out}");
    assert!(out.contains("-- certificate checked:"), "{out}");
    // box IC3, same configuration without +rel: one lemma per value of `a`
    let (code, out, _) = icpic3(&[
        "solve",
        "--engine",
        "ic3",
        "--config",
        "dynamic",
        "--timeout",
        "3",
        p,
    ]);
    assert_eq!(code, 0, "box IC3 gives up (UNKNOWN exits 0): {out}");
    assert!(out.starts_with("UNKNOWN"), "{out}");
}

fn lowered(source: &str) -> TransitionSystem {
    let loaded = load(source).expect("loads");
    match loaded.lowered {
        Lowered::Transition(ts) => ts,
        _ => panic!("not a transition system"),
    }
}

fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

/// A certificate `lo <= a + b <= hi` on the augmented system (slot 2 is `a + b`).
fn sum_certificate(lo: i64, hi: i64) -> Certificate {
    let slot = |rel, v| {
        Cube::new(vec![CLit::Bound {
            var: 2,
            rel,
            value: q(v),
        }])
    };
    Certificate {
        // the lemmas are the cubes' negations: ¬(a + b < lo), ¬(a + b > hi)
        lemmas: vec![slot(Rel::Lt, lo), slot(Rel::Gt, hi)],
        suffix: 0,
        distinct: false,
    }
}

fn opts() -> frontend::ts_cmd::TsOptions {
    common::certificate_check_options()
}

/// A relational lemma off by one (`a + b >= 39` for N = 40: the state a = 1, b = 38 lies
/// in the claimed invariant and steps into the target) is rejected by both checks: the
/// engine's fresh-solver check on the augmented system and the front end's re-reading of
/// the printed text over the original system. The correct lemmas pass both.
#[test]
fn a_broken_relational_lemma_is_rejected() {
    let source = counter(40, 0);
    let ts = lowered(&source);
    let sum = LinearTerm::normal(vec![(0, q(1)), (1, q(1))]).unwrap();
    let ats = augment(&ts, &[sum]);
    let limits = Limits::default();
    let cfg = SolverConfig::default();
    for (lo, hi, good) in [(40, 40, true), (39, 40, false), (40, 41, false)] {
        let cert = sum_certificate(lo, hi);
        let lines = cert.lines(&ats);
        assert_eq!(
            lines,
            vec![format!("a + b >= {lo};"), format!("a + b <= {hi};")]
        );
        let inner = certificate::check(&ats, &Lemmas::Cubes(&cert.lemmas), 0, &cfg, &limits);
        assert_eq!(inner.is_ok(), good, "{lo} <= a + b <= {hi}: {inner:?}");
        let inv = Invariant {
            lines,
            suffix: 0,
            distinct: false,
            cubes: Vec::new(),
        };
        let printed = check_printed_invariant(&source, &ts, &inv, &opts());
        assert_eq!(printed.is_ok(), good, "{lo} <= a + b <= {hi}: {printed:?}");
        if !good {
            assert!(printed.unwrap_err().contains("rejected"));
        }
    }
}

/// Soundness on an UNSAFE variant: the reset sets `b` to 1, so the second round ends in
/// a = 0, b = N + 1 after 2N + 1 steps (by hand: N steps to a = 0, b = N; the reset;
/// N more steps add N to b = 1). Relational IC3 reports the replayed counterexample, and
/// the printed trace is exactly that run.
#[test]
fn relational_ic3_finds_the_replayed_counterexample() {
    let n = 5i64;
    let p = write("counter_unsafe_5.hys", &counter(n as u32, 1));
    let (code, out, err) = icpic3(&[
        "solve",
        "--engine",
        "ic3",
        "--config",
        "ind0+rel",
        "--timeout",
        "15",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 10, "UNSAFE exits 10: {out}{err}");
    assert!(out.starts_with("UNSAFE\n"), "{out}");
    let len = 2 * n + 1;
    for k in 0..=len {
        // the run by hand
        let (a, b) = if k <= n {
            (n - k, k)
        } else {
            (2 * n + 1 - k, k - n)
        };
        let at = |name: &str, v: i64| format!("{name}@{k}:\n    [{v}, {v}] -- point interval");
        assert!(out.contains(&at("a", a)), "a@{k} = {a}: {out}");
        assert!(out.contains(&at("b", b)), "b@{k} = {b}: {out}");
    }
    assert!(!out.contains(&format!("a@{}:", len + 1)), "{out}");
}

/// The counter family as VMT: `a` and `b` are unbounded integers. With the simplex (the
/// default for systems with unbounded numbers) `+rel` takes the term `a + b` and proves the
/// system with the sum lemmas; with `--linear icp` it keeps to terms over bounded ranges
/// (none here: interval propagation alone stalls on unbounded term definitions), so it is
/// box IC3 and does not finish in the same short budget.
#[test]
fn relational_lemmas_over_unbounded_integers_with_the_simplex() {
    let n = 320;
    let vmt = format!(
        "(declare-fun a () Int)\n(declare-fun a.n () Int)\n\
         (declare-fun b () Int)\n(declare-fun b.n () Int)\n\
         (define-fun sa () Int (! a :next a.n))\n\
         (define-fun sb () Int (! b :next b.n))\n\
         (define-fun init () Bool (! (and (= a {n}) (= b 0)) :init true))\n\
         (define-fun trans () Bool (! (and (=> (> a 0) (and (= a.n (- a 1)) (= b.n (+ b 1))))\n\
           (=> (<= a 0) (and (= a.n {n}) (= b.n 0)))) :trans true))\n\
         (define-fun prop () Bool (! (not (and (= a 0) (not (= b {n})))) :invar-property 0))\n"
    );
    let p = write("counter_320.vmt", &vmt);
    let p = p.to_str().unwrap();
    // the default portfolio: its fourth thread runs relational IC3 once the bit-blasting
    // stages give up on the unbounded integers (box IC3, BMC and k-induction do not finish)
    let (code, out, err) = icpic3(&["solve", "--timeout", "20", p]);
    assert_eq!(code, 20, "SAFE exits 20: {out}{err}");
    assert!(out.contains("a + b >= 320;"), "{out}");
    let run = |linear: &str, timeout: &str| {
        icpic3(&[
            "solve",
            "--engine",
            "ic3",
            "--config",
            "dynamic+rel",
            "--linear",
            linear,
            "--timeout",
            timeout,
            p,
        ])
    };
    let (code, out, err) = run("simplex", "20");
    assert_eq!(code, 20, "SAFE exits 20: {out}{err}");
    assert!(out.contains("a + b >= 320;"), "{out}");
    assert!(out.contains("a + b <= 320;"), "{out}");
    let (code, out, _) = run("icp", "3");
    assert_eq!(
        code, 0,
        "without the simplex no term is taken (UNKNOWN exits 0): {out}"
    );
}
