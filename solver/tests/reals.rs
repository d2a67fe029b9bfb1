//! Real-valued formulas with known answers: candidates around irrational solutions, UNSAT
//! by ICP (including the hong pattern and strict bounds), exact SAT points, constants that
//! are not doubles, and unsupported operations.

use solver::lit::Lit;
use solver::{Domain, Op, Rational, Rel, SolveResult, Solver, SolverConfig, Sort, Var};

fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}
fn frac(n: i64, d: i64) -> Rational {
    Rational::new(n.into(), d.into())
}

fn solver() -> Solver {
    Solver::new(SolverConfig::default()).unwrap()
}

fn real(s: &mut Solver, lo: i64, hi: i64) -> Var {
    s.new_var(Sort::Real, &Domain::closed(q(lo), q(hi)))
}

fn aux(s: &mut Solver, op: Op, args: Vec<Var>) -> Var {
    let h = s.new_var(Sort::Real, &Domain::unbounded());
    s.add_def(h, op, args);
    h
}

fn lin(coeffs: &[i64], k: i64) -> Op {
    Op::Linear {
        coeffs: coeffs.iter().map(|&c| q(c)).collect(),
        constant: q(k),
    }
}

fn assert_lit(s: &mut Solver, v: Var, rel: Rel, c: &Rational) -> Lit {
    let l = s.bound_lit(v, rel, c);
    s.add_clause(&[l]);
    l
}

#[test]
fn square_equals_two_is_a_candidate_around_sqrt2() {
    let mut s = solver();
    let x = real(&mut s, 0, 10);
    let h = aux(&mut s, Op::Pow(2), vec![x]);
    assert_lit(&mut s, h, Rel::Le, &q(2));
    assert_lit(&mut s, h, Rel::Ge, &q(2));
    match s.solve(&[]) {
        SolveResult::Candidate(m) => {
            let b = m.boxes[x];
            assert!(
                b.contains(std::f64::consts::SQRT_2) || b.width() < 1e-6,
                "{b}"
            );
            assert!(b.lo() > 1.41 && b.hi() < 1.42, "{b}");
            assert!(b.width() <= 0.01, "{b}");
            assert!(m.point.is_none());
            // point candidates lie inside the boxes
            let pc = m.point_candidates();
            assert!(b.contains_rational(pc[x].as_num().unwrap()));
        }
        r => panic!("expected a candidate, got {r:?}"),
    }
}

#[test]
fn product_and_sum_in_unit_box_is_unsat() {
    // x*y > 1, x + y < 1, x, y in [0, 1]
    let mut s = solver();
    let x = real(&mut s, 0, 1);
    let y = real(&mut s, 0, 1);
    let p = aux(&mut s, Op::Mul, vec![x, y]);
    let t = aux(&mut s, lin(&[1, 1], 0), vec![x, y]);
    assert_lit(&mut s, p, Rel::Gt, &q(1));
    assert_lit(&mut s, t, Rel::Lt, &q(1));
    assert!(s.solve(&[]).is_unsat());
}

#[test]
fn hong_pattern_is_unsat() {
    // x^2 + y^2 < 1 and x*y > 1 over [-1000, 1000]^2
    let mut s = solver();
    let x = real(&mut s, -1000, 1000);
    let y = real(&mut s, -1000, 1000);
    let x2 = aux(&mut s, Op::Pow(2), vec![x]);
    let y2 = aux(&mut s, Op::Pow(2), vec![y]);
    let sum = aux(&mut s, lin(&[1, 1], 0), vec![x2, y2]);
    let p = aux(&mut s, Op::Mul, vec![x, y]);
    assert_lit(&mut s, sum, Rel::Lt, &q(1));
    assert_lit(&mut s, p, Rel::Gt, &q(1));
    assert!(s.solve(&[]).is_unsat());
    assert!(s.stats().conflicts < 10_000);
}

#[test]
fn strict_bounds_are_kept() {
    // x > 0 and x*x <= 0: unsat
    let mut s = solver();
    let x = real(&mut s, -10, 10);
    let h = aux(&mut s, Op::Mul, vec![x, x]);
    assert_lit(&mut s, x, Rel::Gt, &q(0));
    assert_lit(&mut s, h, Rel::Le, &q(0));
    assert!(s.solve(&[]).is_unsat());
    // x > 0 and x < 1e-300: satisfiable (tiny reals exist)
    let mut s = solver();
    let x = real(&mut s, -10, 10);
    assert_lit(&mut s, x, Rel::Gt, &q(0));
    let tiny = Rational::new(1.into(), num_bigint::BigInt::from(10).pow(300));
    assert_lit(&mut s, x, Rel::Lt, &tiny);
    let r = s.solve(&[]);
    assert!(
        matches!(r, SolveResult::Sat(_) | SolveResult::Candidate(_)),
        "{r:?}"
    );
    if let SolveResult::Sat(m) = r {
        let v = m.value(x).unwrap().as_num().unwrap().clone();
        assert!(v > q(0) && v < tiny);
    }
    // x < 0 and x >= 0
    let mut s = solver();
    let x = real(&mut s, -10, 10);
    assert_lit(&mut s, x, Rel::Lt, &q(0));
    assert_lit(&mut s, x, Rel::Ge, &q(0));
    assert!(s.solve(&[]).is_unsat());
}

#[test]
fn constants_that_are_not_doubles() {
    // x = 1/3 exactly: satisfiable with the exact point 1/3
    let mut s = solver();
    let x = real(&mut s, 0, 1);
    assert_lit(&mut s, x, Rel::Le, &frac(1, 3));
    assert_lit(&mut s, x, Rel::Ge, &frac(1, 3));
    match s.solve(&[]) {
        SolveResult::Sat(m) => assert_eq!(m.value(x).unwrap().as_num(), Some(&frac(1, 3))),
        r => panic!("{r:?}"),
    }
    // x < 1/3 and x > 1/3 - 1/10^30: satisfiable; x <= 1/3 and x > 1/3: unsat
    let mut s = solver();
    let x = real(&mut s, 0, 1);
    assert_lit(&mut s, x, Rel::Le, &frac(1, 3));
    assert_lit(&mut s, x, Rel::Gt, &frac(1, 3));
    assert!(s.solve(&[]).is_unsat());
    // 3x = 1 with x <= 1/3: sat (x = 1/3), not lost by rounding
    let mut s = solver();
    let x = real(&mut s, 0, 1);
    let t = aux(&mut s, lin(&[3], 0), vec![x]);
    assert_lit(&mut s, t, Rel::Le, &q(1));
    assert_lit(&mut s, t, Rel::Ge, &q(1));
    assert_lit(&mut s, x, Rel::Le, &frac(1, 3));
    let r = s.solve(&[]);
    assert!(matches!(r, SolveResult::Sat(_)), "{r:?}");
    // 0.1 + 0.2 = 0.3 exactly in rationals
    let mut s = solver();
    let x = real(&mut s, 0, 1);
    let y = real(&mut s, 0, 1);
    assert_lit(&mut s, x, Rel::Le, &frac(1, 10));
    assert_lit(&mut s, x, Rel::Ge, &frac(1, 10));
    assert_lit(&mut s, y, Rel::Le, &frac(2, 10));
    assert_lit(&mut s, y, Rel::Ge, &frac(2, 10));
    let t = aux(&mut s, lin(&[1, 1], 0), vec![x, y]);
    assert_lit(&mut s, t, Rel::Le, &frac(3, 10));
    assert_lit(&mut s, t, Rel::Ge, &frac(3, 10));
    match s.solve(&[]) {
        SolveResult::Sat(m) => assert_eq!(m.value(t).unwrap().as_num(), Some(&frac(3, 10))),
        r => panic!("{r:?}"),
    }
}

#[test]
fn exact_sat_points_for_polynomials_and_roots() {
    // x*y = 6, x + y = 5 has solutions (2,3), (3,2)
    let mut s = solver();
    let x = real(&mut s, -100, 100);
    let y = real(&mut s, -100, 100);
    let p = aux(&mut s, Op::Mul, vec![x, y]);
    let t = aux(&mut s, lin(&[1, 1], 0), vec![x, y]);
    for (v, c) in [(p, 6), (t, 5)] {
        assert_lit(&mut s, v, Rel::Le, &q(c));
        assert_lit(&mut s, v, Rel::Ge, &q(c));
    }
    let r = s.solve(&[]);
    assert!(
        matches!(r, SolveResult::Sat(_) | SolveResult::Candidate(_)),
        "{r:?}"
    );
    // sqrt(x) = 3: x = 9
    let mut s = solver();
    let x = real(&mut s, 0, 100);
    let r3 = aux(&mut s, Op::Nrt(2), vec![x]);
    assert_lit(&mut s, r3, Rel::Ge, &q(3));
    assert_lit(&mut s, r3, Rel::Le, &q(3));
    match s.solve(&[]) {
        SolveResult::Sat(m) => assert_eq!(m.value(x).unwrap().as_num(), Some(&q(9))),
        r => panic!("{r:?}"),
    }
    // x / y = 2 with y in [1, 2], x <= 3: e.g. x = 3, y = 1.5
    let mut s = solver();
    let x = real(&mut s, 0, 10);
    let y = real(&mut s, 1, 2);
    let d = aux(&mut s, Op::Div, vec![x, y]);
    assert_lit(&mut s, d, Rel::Ge, &q(2));
    assert_lit(&mut s, d, Rel::Le, &q(2));
    assert_lit(&mut s, x, Rel::Le, &q(3));
    let r = s.solve(&[]);
    match &r {
        SolveResult::Sat(m) => {
            let xv = m.value(x).unwrap().as_num().unwrap();
            let yv = m.value(y).unwrap().as_num().unwrap();
            assert_eq!(xv / yv, q(2));
        }
        SolveResult::Candidate(_) => {}
        r => panic!("{r:?}"),
    }
    // x^2 < 0 is unsat; abs(x) < -1 is unsat; min/max bounds
    let mut s = solver();
    let x = real(&mut s, -5, 5);
    let h = aux(&mut s, Op::Pow(2), vec![x]);
    assert_lit(&mut s, h, Rel::Lt, &q(0));
    assert!(s.solve(&[]).is_unsat());
    let mut s = solver();
    let x = real(&mut s, -5, 5);
    let y = real(&mut s, -5, 5);
    let mn = aux(&mut s, Op::Min, vec![x, y]);
    let mx = aux(&mut s, Op::Max, vec![x, y]);
    assert_lit(&mut s, mn, Rel::Gt, &q(1));
    assert_lit(&mut s, mx, Rel::Lt, &q(1));
    assert!(s.solve(&[]).is_unsat());
}

#[test]
fn division_by_zero_is_unspecified_not_unsat() {
    // x / y = 7 with y = 0 forced: satisfiable (the quotient is unspecified at 0)
    let mut s = solver();
    let x = real(&mut s, 0, 1);
    let y = real(&mut s, 0, 0);
    let d = aux(&mut s, Op::Div, vec![x, y]);
    assert_lit(&mut s, d, Rel::Ge, &q(7));
    assert_lit(&mut s, d, Rel::Le, &q(7));
    let r = s.solve(&[]);
    assert!(matches!(r, SolveResult::Sat(_)), "{r:?}");
    // even root of a negative number: also unspecified
    let mut s = solver();
    let x = real(&mut s, -2, -1);
    let r2 = aux(&mut s, Op::Nrt(2), vec![x]);
    assert_lit(&mut s, r2, Rel::Le, &q(-5));
    assert!(matches!(s.solve(&[]), SolveResult::Sat(_)));
}

#[test]
fn unsupported_operations_give_unknown_but_unsat_stays_sound() {
    let mut s = solver();
    let x = real(&mut s, 0, 1);
    // IEEE operations belong to the float theory, which the core does not have yet.
    let h = aux(&mut s, Op::FSqrt(solver::RoundingMode::Rne), vec![x]);
    assert_lit(&mut s, h, Rel::Le, &q(5));
    match s.solve(&[]) {
        SolveResult::Unknown(why) => assert!(why.contains("unsupported operation fsqrt"), "{why}"),
        r => panic!("{r:?}"),
    }
    // the rest of the formula is contradictory on its own: UNSAT is still correct
    assert_lit(&mut s, x, Rel::Gt, &q(2));
    assert!(s.solve(&[]).is_unsat());
}

#[test]
fn integers_and_reals_mixed() {
    // n integer, x real: x = n / 2 (as 2x = n), 0.2 < x < 0.7 -> n = 1, x = 0.5
    let mut s = solver();
    let n = s.new_var(Sort::Int, &Domain::closed(q(-10), q(10)));
    let x = real(&mut s, -10, 10);
    let t = aux(&mut s, lin(&[2, -1], 0), vec![x, n]);
    assert_lit(&mut s, t, Rel::Le, &q(0));
    assert_lit(&mut s, t, Rel::Ge, &q(0));
    assert_lit(&mut s, x, Rel::Gt, &frac(1, 5));
    assert_lit(&mut s, x, Rel::Lt, &frac(7, 10));
    match s.solve(&[]) {
        SolveResult::Sat(m) => {
            assert_eq!(m.value(n).unwrap().as_num(), Some(&q(1)));
            assert_eq!(m.value(x).unwrap().as_num(), Some(&frac(1, 2)));
        }
        r => panic!("{r:?}"),
    }
    // no integer strictly between 0 and 1
    let mut s = solver();
    let n = s.new_var(Sort::Int, &Domain::closed(q(-10), q(10)));
    let h = aux(&mut s, lin(&[1], 0), vec![n]);
    assert_lit(&mut s, h, Rel::Gt, &q(0));
    assert_lit(&mut s, h, Rel::Lt, &q(1));
    assert!(s.solve(&[]).is_unsat());
}

#[test]
fn transcendental_functions_are_contracted() {
    // sin(x) > 1 has no solution; exp(x) <= 0 neither; log(x) >= 1 forces x >= e.
    let mut s = solver();
    let x = real(&mut s, -100, 100);
    let h = aux(&mut s, Op::Sin, vec![x]);
    assert_lit(&mut s, h, Rel::Gt, &q(1));
    assert!(s.solve(&[]).is_unsat());
    let mut s = solver();
    let x = real(&mut s, -100, 100);
    let h = aux(&mut s, Op::Exp, vec![x]);
    assert_lit(&mut s, h, Rel::Le, &q(0));
    assert!(s.solve(&[]).is_unsat());
    let mut s = solver();
    let x = real(&mut s, 1, 2);
    let h = aux(&mut s, Op::Log, vec![x]);
    assert_lit(&mut s, h, Rel::Ge, &q(1));
    assert!(s.solve(&[]).is_unsat(), "log(x) >= 1 needs x >= e > 2");
    // a satisfiable one stays open (irrational values cannot be checked exactly here)
    let mut s = solver();
    let x = real(&mut s, 0, 2);
    let h = aux(&mut s, Op::Cos, vec![x]);
    assert_lit(&mut s, h, Rel::Le, &q(0));
    assert!(matches!(s.solve(&[]), SolveResult::Candidate(m) if m.boxes[x].hi() >= 1.57));
}
