//! Corners where constraints touch (issue #23): the witness search after a candidate and the
//! factored refutation round. Oracles: Z3 (`sat` for `sin-problem-7-chunk-0289` and
//! `unsat` for `limited-progress-node14982`, both from the shared nlsat corpus's
//! `Z3_BOUNDED.tsv`) and hand derivations; every SATISFIABLE model is evaluated here exactly,
//! with rationals, on the constraints transcribed from the problem text.

mod common;

use num_traits::{Signed, Zero};
use solver::num::Rational;
use std::process::Output;
use std::str::FromStr;

fn solve(name: &str, text: &str, args: &[&str]) -> Output {
    common::solve_text("corner", name, text, args)
}

fn run(name: &str, text: &str) -> Output {
    solve(name, text, &["--format", "json"])
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

/// A model value: an integer, a fraction `a/b` or a decimal, exactly.
fn value(v: &serde_json::Value, name: &str) -> Rational {
    let s = v["model"][name]
        .as_str()
        .unwrap_or_else(|| panic!("no {name} in {v}"));
    match s.split_once('.') {
        None => Rational::from_str(s).unwrap(),
        Some((int, frac)) => {
            let den = num_bigint::BigInt::from(10u32).pow(frac.len() as u32);
            let neg = int.starts_with('-');
            let whole = Rational::from_str(int.trim_start_matches('-')).unwrap();
            let q = whole + Rational::new(frac.parse().unwrap(), den);
            if neg {
                -q
            } else {
                q
            }
        }
    }
}

/// `Σ c·x0^a·x1^b·x2^c` at `x`.
fn poly(terms: &[(i64, [u32; 3])], x: &[Rational; 3]) -> Rational {
    terms
        .iter()
        .map(|(c, e)| {
            let mut t = Rational::from_integer((*c).into());
            for (xi, &ei) in x.iter().zip(e) {
                t *= num_traits::pow(xi.clone(), ei as usize);
            }
            t
        })
        .fold(Rational::zero(), |a, b| a + b)
}

/// sin-problem-7-chunk-0289 of the nlsat corpus (MetiTarski): five polynomials `> 0`,
/// `0 < x0 < x1`, `2·x1 <= x2`, `3.1415926 < x2 < 3.1415927`. Z3: sat (solutions in a sliver
/// `x1 - x0` of order 1e-8 away from the origin, where the ICP search ends).
const SIN7: &str = "DECL\n    float [-1000, 1000] x0, x1, x2;\nEXPR\n    (!(((-217945728000 * (x0 * x1 * x1)) + (217945728000 * (x0 * x0 * x0)) + (10897286400 * (x0 * x1 * x1 * x1 * x1)) + (-10897286400 * (x0 * x0 * x0 * x0 * x0)) + (259459200 * (x0 * x0 * x0 * x0 * x0 * x0 * x0)) + (-3603600 * (x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0)) + (32760 * (x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0)) + (-210 * (x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0)) + (x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0)) <= 0) and (!(((-6652800 * (x0 * x1 * x1)) + (6652800 * (x0 * x0 * x0)) + (332640 * (x0 * x1 * x1 * x1 * x1)) + (-332640 * (x0 * x0 * x0 * x0 * x0)) + (7920 * (x0 * x0 * x0 * x0 * x0 * x0 * x0)) + (-7920 * (x0 * x1 * x1 * x1 * x1 * x1 * x1)) + (-110 * (x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0)) + (110 * (x0 * x1 * x1 * x1 * x1 * x1 * x1 * x1 * x1)) + (x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0 * x0)) <= 0) and (!(((-60480 * (x1 * x1 * x1)) + (60480 * (x0 * x0 * x1)) + (3024 * (x1 * x1 * x1 * x1 * x1)) + (-3024 * (x0 * x0 * x0 * x0 * x1)) + (-72 * (x1 * x1 * x1 * x1 * x1 * x1 * x1)) + (72 * (x0 * x0 * x0 * x0 * x0 * x0 * x1)) + (x1 * x1 * x1 * x1 * x1 * x1 * x1 * x1 * x1)) <= 0) and (!(((-840 * (x0 * x1 * x1)) + (840 * (x0 * x0 * x0)) + (42 * (x0 * x1 * x1 * x1 * x1)) + (-42 * (x0 * x0 * x0 * x0 * x0)) + (x0 * x0 * x0 * x0 * x0 * x0 * x0)) <= 0) and (!(((-20 * (x1 * x1 * x1)) + (20 * (x0 * x0 * x1)) + (x1 * x1 * x1 * x1 * x1)) <= 0) and (!(x0 <= 0) and (!((5000000 * x2) <= 15707963) and (!((-10000000 * x2) <= -31415927) and ((((2 * x1) + (-1 * x2)) <= 0) and (((-1 * x0) <= 0) and !(((-1 * x0) + x1) <= 0)))))))))));\n";

const SIN7_POLYS: [&[(i64, [u32; 3])]; 5] = [
    &[
        (-217945728000, [1, 2, 0]),
        (217945728000, [3, 0, 0]),
        (10897286400, [1, 4, 0]),
        (-10897286400, [5, 0, 0]),
        (259459200, [7, 0, 0]),
        (-3603600, [9, 0, 0]),
        (32760, [11, 0, 0]),
        (-210, [13, 0, 0]),
        (1, [15, 0, 0]),
    ],
    &[
        (-6652800, [1, 2, 0]),
        (6652800, [3, 0, 0]),
        (332640, [1, 4, 0]),
        (-332640, [5, 0, 0]),
        (7920, [7, 0, 0]),
        (-7920, [1, 6, 0]),
        (-110, [9, 0, 0]),
        (110, [1, 8, 0]),
        (1, [11, 0, 0]),
    ],
    &[
        (-60480, [0, 3, 0]),
        (60480, [2, 1, 0]),
        (3024, [0, 5, 0]),
        (-3024, [4, 1, 0]),
        (-72, [0, 7, 0]),
        (72, [6, 1, 0]),
        (1, [0, 9, 0]),
    ],
    &[
        (-840, [1, 2, 0]),
        (840, [3, 0, 0]),
        (42, [1, 4, 0]),
        (-42, [5, 0, 0]),
        (1, [7, 0, 0]),
    ],
    &[(-20, [0, 3, 0]), (20, [2, 1, 0]), (1, [0, 5, 0])],
];

#[test]
fn a_corner_candidate_becomes_an_exactly_checked_witness() {
    let out = run("sin7.hys", SIN7);
    let v = json(&out);
    assert_eq!(v["result"], "SATISFIABLE", "{v}");
    let x = [value(&v, "x0"), value(&v, "x1"), value(&v, "x2")];
    for (i, p) in SIN7_POLYS.iter().enumerate() {
        assert!(poly(p, &x).is_positive(), "polynomial {i} not > 0 at {x:?}");
    }
    let q = |n: i64, d: i64| Rational::new(n.into(), d.into());
    assert!(x[0].is_positive() && x[1] > x[0], "{x:?}");
    assert!(x[1].clone() * q(2, 1) <= x[2], "{x:?}");
    assert!(
        x[2] > q(15707963, 5000000) && x[2] < q(31415927, 10000000),
        "{x:?}"
    );
    // the text form says how the witness was found (on standard error)
    let text = solve("sin7_text.hys", SIN7, &[]);
    let stderr = String::from_utf8_lossy(&text.stderr);
    assert!(
        stderr.contains("witness found away from a corner"),
        "{stderr}"
    );
}

/// keymaera limited-progress-node14982: `x2 > x0 >= 0` and `x1² + x2² <= x0²` touch at the
/// origin. Z3: unsat (hand: x2 > x0 >= 0 gives x2² > x0²). The witness search must never turn
/// it into SATISFIABLE.
const TOUCHING_UNSAT: &str = "DECL\n    float [-1000, 1000] x0, x1, x2, x3, x4;\nEXPR\n        (((x2 * x2) + (x1 * x1) + (-1 * (x0 * x0))) <= 0);\n    (x0 >= 0);\n        (((-1 * (x0 * x0)) + (x4 * x4) + (x3 * x3)) <= 0);\n    !(((-1 * x0) + x2) <= 0);\n";

#[test]
fn a_touching_unsat_problem_is_never_satisfiable() {
    let v = json(&run("touching.hys", TOUCHING_UNSAT));
    assert_ne!(v["result"], "SATISFIABLE", "{v}");
}

/// `x0³·(-2 + 12·x1 - 24·x1²) > 0` written out as a sum, `x0, x1 > 0`. Hand: the quadratic
/// has discriminant 144 - 192 < 0 and is negative everywhere, so the product is negative for
/// x0 > 0: unsat. Interval evaluation of the sum alone never refutes the boxes at x0 → 0 (each
/// term touches 0); with the common factor x0³ factored out it does.
const FACTOR_UNSAT: &str = "DECL\n  float [-10, 10] x0, x1;\nEXPR\n  x0 > 0;\n  x1 > 0;\n      -2 * x0 * x0 * x0 + 12 * x0 * x0 * x0 * x1 - 24 * x0 * x0 * x0 * x1 * x1 > 0;\n";

#[test]
fn a_factored_common_monomial_refutes_the_corner() {
    let v = json(&run("factor_unsat.hys", FACTOR_UNSAT));
    assert_eq!(v["result"], "UNSATISFIABLE", "{v}");
    // with -1 instead of -2 the quadratic is 1/2 at x1 = 1/4: sat, and the model checks
    let sat = FACTOR_UNSAT.replace("-2 * x0", "-1 * x0");
    let v = json(&run("factor_sat.hys", &sat));
    assert_eq!(v["result"], "SATISFIABLE", "{v}");
    let x = [value(&v, "x0"), value(&v, "x1"), Rational::zero()];
    let p = [(-1, [3, 0, 0]), (12, [3, 1, 0]), (-24, [3, 2, 0])];
    assert!(x[0].is_positive() && x[1].is_positive(), "{x:?}");
    assert!(poly(&p, &x).is_positive(), "{x:?}");
}
