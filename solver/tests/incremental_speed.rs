//! A benchmark-style run of the incremental API (ignored in the normal test run):
//! `cargo test --release -p solver --test incremental_speed -- --ignored --nocapture`.
//! Unrolls a small nonlinear system step by step (TRANS bound to the previous step), asks a
//! target query under an activation literal per depth, and then fires many assumption queries
//! with failed-assumption extraction, as IC3 does. Prints timings; asserts the answers.

use solver::lit::Lit;
use solver::{Domain, Op, Rational, Rel, SolveResult, Solver, SolverConfig, Sort, Var};
use std::time::Instant;

fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

fn lin(coeffs: &[i64], k: i64) -> Op {
    Op::Linear {
        coeffs: coeffs.iter().map(|&c| q(c)).collect(),
        constant: q(k),
    }
}

/// One step: x' = x + y/2 (as 2x' - 2x - y = 0), y' = y - x·y/8 (as 8y' - 8y + x·y = 0).
fn step(s: &mut Solver, x: Var, y: Var) -> (Var, Var) {
    let d = Domain::closed(q(-100), q(100));
    let xn = s.new_var(Sort::Real, &d);
    let yn = s.new_var(Sort::Real, &d);
    let free = Domain::unbounded();
    let h1 = s.new_var(Sort::Real, &free);
    s.add_def(h1, lin(&[2, -2, -1], 0), vec![xn, x, y]);
    let xy = s.new_var(Sort::Real, &free);
    s.add_def(xy, Op::Mul, vec![x, y]);
    let h2 = s.new_var(Sort::Real, &free);
    s.add_def(h2, lin(&[8, -8, 1], 0), vec![yn, y, xy]);
    for h in [h1, h2] {
        let le = s.bound_lit(h, Rel::Le, &q(0));
        let ge = s.bound_lit(h, Rel::Ge, &q(0));
        s.add_clause(&[le]);
        s.add_clause(&[ge]);
    }
    (xn, yn)
}

#[test]
#[ignore = "timing only"]
fn unrolling_and_assumption_queries() {
    let mut s = Solver::new(SolverConfig::default()).unwrap();
    let d = Domain::closed(q(-100), q(100));
    let (mut x, mut y) = (s.new_var(Sort::Real, &d), s.new_var(Sort::Real, &d));
    // INIT: x = 0, y in [1, 2]
    for l in [
        s.bound_lit(x, Rel::Le, &q(0)),
        s.bound_lit(x, Rel::Ge, &q(0)),
        s.bound_lit(y, Rel::Ge, &q(1)),
        s.bound_lit(y, Rel::Le, &q(2)),
    ] {
        s.add_clause(&[l]);
    }
    let start = Instant::now();
    let mut states = vec![(x, y)];
    for k in 0..20 {
        // TARGET: x >= 50 at step k
        let act = s.new_activation();
        let t = s.bound_lit(x, Rel::Ge, &q(50));
        s.add_clause_under(act, &[t]);
        let r = s.solve(&[act]);
        assert!(!matches!(r, SolveResult::Unknown(_)), "depth {k}: {r:?}");
        s.release(act);
        (x, y) = step(&mut s, x, y);
        states.push((x, y));
    }
    let unroll = start.elapsed();
    // many assumption queries: random boxes on the last state
    let start = Instant::now();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % 200) as i64 - 100
    };
    let (mut unsat, mut core_sizes) = (0, 0);
    let queries = 300;
    for _ in 0..queries {
        let (xs, ys) = states[states.len() / 2];
        let (a, b) = (next(), next());
        let ass: Vec<Lit> = vec![
            s.bound_lit(xs, Rel::Ge, &q(a.min(b))),
            s.bound_lit(xs, Rel::Le, &q(a.max(b))),
            s.bound_lit(ys, Rel::Ge, &q(next().min(0))),
            s.bound_lit(ys, Rel::Le, &q(next().max(0))),
        ];
        let r = s.solve(&ass);
        if r.is_unsat() {
            unsat += 1;
            core_sizes += s.failed_assumptions().len();
            // the weakened core fails again
            let w: Vec<Lit> = s.failed_assumptions().iter().map(|f| f.weakest).collect();
            assert!(s.solve(&w).is_unsat());
        }
    }
    eprintln!(
        "unrolling 20 steps: {unroll:.2?}; {queries} assumption queries: {:.2?} ({unsat} unsat, \
         mean core {:.2}); {} vars, {} atoms, stats {:?}",
        start.elapsed(),
        core_sizes as f64 / unsat.max(1) as f64,
        s.num_vars(),
        s.num_atoms(),
        s.stats()
    );
}
