//! BMC, k-induction and the portfolio go on past a depth whose boxes do not validate
//! (issue #23 item 3): a deeper trace that replays answers UNSAFE, otherwise the first
//! candidate is the answer — and never SAFE, even when all runs end later.
//!
//! The systems are a real accumulator `x' = x + 1` from `x = 0` (so `x` is `k` at step `k`,
//! by hand) with the target `(x = 10 ∧ y² = 2) ∨ x >= 11`: at depth 10 only `y = ±√2`
//! reaches it, which no rational point validates (a candidate); at depth 11 every `y` does.

use num_bigint::BigInt;
use num_rational::BigRational;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

const ACCUMULATOR: &str = "DECL\n  float [-100, 100] x;\n  float [-10, 10] y;\nINIT\n  x = 0;\n\
                           TRANS\n  x' = x + 1;\nTARGET\n  (x = 10 and y * y = 2) or x >= 11;\n";

/// Only the irrational depth 10 reaches the target, and no run is longer than 12 steps
/// (`x <= 12`): all runs end at depth 13, yet depth 10 is not refuted.
const CANDIDATE_ONLY: &str = "DECL\n  float [-100, 12] x;\n  float [-10, 10] y;\nINIT\n  x = 0;\n\
                              TRANS\n  x' = x + 1;\nTARGET\n  x = 10 and y * y = 2;\n";

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-cand-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn solve(path: &PathBuf, engine: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args([
            "solve",
            "--engine",
            engine,
            "--format",
            "json",
            "--timeout",
            "20",
        ])
        .arg(path)
        .output()
        .expect("icpic3 runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{engine}: no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// An exact number of the JSON output: `n/d` or a decimal such as `-0.582` (`1e-3` too).
fn rational(v: &Value) -> BigRational {
    let s = v.as_str().expect("a number as a string");
    if s.contains('/') {
        return s.parse().expect("a fraction");
    }
    let (mant, exp) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().expect("an exponent")),
        None => (s, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits: BigInt = format!("{int}{frac}").parse().expect("digits");
    let scale = exp - frac.len() as i32;
    let ten = BigRational::from_integer(10.into());
    BigRational::from_integer(digits) * num_traits::pow::Pow::pow(&ten, scale)
}

#[test]
fn a_candidate_depth_does_not_stop_the_search() {
    let path = write("accumulator.hys", ACCUMULATOR);
    for engine in ["bmc", "kind", "portfolio"] {
        let j = solve(&path, engine);
        assert_eq!(j["result"], "UNSAFE", "{engine}: {j}");
        assert_eq!(j["depth"], 11, "{engine}: {j}");
        // the trace against the hand derivation: x = k at step k, y in its range, and the
        // last state in the target (x >= 11); no earlier state is (x = 10 needs y² = 2,
        // impossible for a rational y)
        let trace = j["trace"].as_array().expect("a trace");
        assert_eq!(trace.len(), 12, "{engine}");
        for (k, st) in trace.iter().enumerate() {
            assert_eq!(
                rational(&st["x"]),
                BigRational::from_integer(k.into()),
                "{engine}"
            );
            let y = rational(&st["y"]);
            assert!(y >= BigRational::from_integer((-10).into()));
            assert!(y <= BigRational::from_integer(10.into()));
        }
    }
}

#[test]
fn a_candidate_stays_a_candidate_when_runs_end_later() {
    let path = write("candidate_only.hys", CANDIDATE_ONLY);
    for engine in ["bmc", "kind"] {
        let j = solve(&path, engine);
        assert_eq!(j["result"], "CANDIDATE SOLUTION", "{engine}: {j}");
        assert_eq!(j["depth"], 10, "{engine}: {j}");
        let note = j["note"].as_str().unwrap_or("");
        assert!(note.contains("depths 11 to 13"), "{engine}: {note}");
        // the boxes of step 10 enclose a root of y² = 2
        let b = &j["boxes"][10]["y"];
        let (lo, hi) = (rational(&b["lo"]), rational(&b["hi"]));
        let two = BigRational::from_integer(2.into());
        let sq = |q: &BigRational| q * q;
        let around_root =
            (lo < hi) && ((sq(&lo) <= two && two <= sq(&hi)) || (sq(&hi) <= two && two <= sq(&lo)));
        assert!(around_root, "{engine}: y in [{lo}, {hi}]");
    }
}
