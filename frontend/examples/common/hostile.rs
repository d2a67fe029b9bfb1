//! Hostile input shapes for the bounded fuzz runs (issue #24): huge exponents, nested macros
//! that double their argument, huge `push` counts and numbers. Each run gives the worker
//! thread a deadline (`solver::budget::set_deadline`), so a shape that would run for hours
//! must stop at it; the fuzzers report an input that takes much longer as a hang.

use super::rng::Rng;

/// A huge decimal numeral (up to 30 digits).
fn huge(rng: &mut Rng) -> String {
    let digits = 1 + rng.below(30);
    let mut s = String::from("1");
    for _ in 1..digits {
        s.push(char::from(b'0' + rng.below(10) as u8));
    }
    s
}

/// A `.hys` formula of a hostile shape.
#[allow(dead_code)]
pub fn hys(rng: &mut Rng) -> String {
    let sort = [
        "float [0, 10]",
        "int [-5, 5]",
        "fp64",
        "uint8",
        "real [-1e300, 1e300]",
    ][rng.below(5)];
    match rng.below(4) {
        0 => format!("DECL {sort} x; EXPR x^{} > 2;", huge(rng)),
        1 => format!(
            "DECL {sort} x; EXPR nrt(x, {}) > 2 and x^{} < 3;",
            huge(rng),
            huge(rng)
        ),
        2 => format!(
            "DECL {sort} x; DEFINE c = {}^{}; EXPR x * c > 2;",
            huge(rng),
            huge(rng)
        ),
        _ => {
            // deeply nested powers
            let mut e = String::from("x");
            for _ in 0..1 + rng.below(12) {
                e = format!("({e})^{}", 2 + rng.below(1000));
            }
            format!("DECL {sort} x; EXPR {e} > 2;")
        }
    }
}

/// An SMT-LIB script of a hostile shape.
#[allow(dead_code)]
pub fn smtlib(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => {
            // f_k(y) = f_{k-1}(f_{k-1}(y)): 2^(2^k) copies of y when expanded as a tree
            let depth = 1 + rng.below(20);
            let op = ["(+ y y)", "(* y 2.0)", "(ite (> y 0.0) y (- y))"][rng.below(3)];
            let mut s = format!(
                "(set-logic QF_LRA)\n(declare-const x Real)\n(define-fun f0 ((y Real)) Real {op})\n"
            );
            for k in 1..=depth {
                s += &format!("(define-fun f{k} ((y Real)) Real (f{0} (f{0} y)))\n", k - 1);
            }
            s + &format!("(assert (> (f{depth} x) 1.0))\n(check-sat)\n")
        }
        1 => format!(
            "(set-logic QF_LRA)\n(push {})\n(declare-const x Real)\n(pop {})\n(check-sat)\n",
            huge(rng),
            huge(rng)
        ),
        _ => format!(
            "(set-logic QF_BV)\n(declare-const x (_ BitVec {}))\n(assert (= ((_ repeat {}) x) \
             ((_ zero_extend {}) x)))\n(assert (= (bvshl x (_ bv{} 8)) x))\n(check-sat)\n",
            huge(rng),
            huge(rng),
            huge(rng),
            huge(rng)
        ),
    }
}
