//! The assumption interface: the paper's literal-rotation example (§2.4.1), bound
//! generalization of failed assumptions (§2.4.2), activation literals, incremental clauses,
//! budgets and interrupts.

use solver::lit::Lit;
use solver::{Domain, Rational, Rel, SolveResult, Solver, SolverConfig, Sort};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

fn solver() -> Solver {
    Solver::new(SolverConfig::default()).unwrap()
}

/// The example of paper §2.4.1 with clauses 1–6 over l1..l6.
fn paper_example() -> (Solver, Vec<Lit>) {
    let mut s = solver();
    let l: Vec<Lit> = (0..7)
        .map(|_| {
            let v = s.new_bool();
            s.bool_lit(v).unwrap()
        })
        .collect();
    s.add_clause(&[!l[1], l[3]]); // (1)
    s.add_clause(&[!l[1], l[4]]); // (2)
    s.add_clause(&[!l[1], l[5]]); // (3)
    s.add_clause(&[!l[5], !l[6]]); // (4)
    s.add_clause(&[!l[2], l[6]]); // (5)
    s.add_clause(&[!l[3], !l[4], l[6]]); // (6)
    (s, l)
}

fn core(s: &Solver) -> Vec<Lit> {
    s.failed_assumptions().iter().map(|f| f.lit).collect()
}

#[test]
fn paper_literal_rotation_example() {
    // order (l1, l2): l1 alone conflicts through clause (6) -> core {l1}
    let (mut s, l) = paper_example();
    assert!(s.solve(&[l[1], l[2]]).is_unsat());
    assert_eq!(core(&s), vec![l[1]]);
    // order (l2, l1): l2 implies l6 first, so l2 looks essential -> core {l2, l1}
    let (mut s, l) = paper_example();
    assert!(s.solve(&[l[2], l[1]]).is_unsat());
    assert_eq!(core(&s), vec![l[2], l[1]]);
    // without assumptions the formula is satisfiable
    assert!(s.solve(&[]).is_sat());
    assert!(s.failed_assumptions().is_empty());
}

#[test]
fn failed_core_is_in_assumption_order_and_ignores_irrelevant_ones() {
    let mut s = solver();
    let v: Vec<Lit> = (0..4)
        .map(|_| {
            let x = s.new_bool();
            s.bool_lit(x).unwrap()
        })
        .collect();
    // a & c -> false
    s.add_clause(&[!v[0], !v[2]]);
    assert!(s.solve(&[v[1], v[2], v[3], v[0]]).is_unsat());
    assert_eq!(core(&s), vec![v[2], v[0]]);
    // weakest equals the literal itself for Booleans
    assert!(s.failed_assumptions().iter().all(|f| f.lit == f.weakest));
}

#[test]
fn bound_generalization_of_the_failed_literal() {
    // x > 9 is implied by the first assumption; the assumption x <= 5 fails and can be
    // weakened to x <= 9 (the bound implication x > 9 => x > 5 made it fail)
    let mut s = solver();
    let x = s.new_var(Sort::Real, &Domain::closed(q(0), q(100)));
    let b = s.new_bool();
    let bl = s.bool_lit(b).unwrap();
    let gt9 = s.bound_lit(x, Rel::Gt, &q(9));
    s.add_clause(&[!bl, gt9]);
    let le5 = s.bound_lit(x, Rel::Le, &q(5));
    assert!(s.solve(&[bl, le5]).is_unsat());
    let f = s.failed_assumptions();
    assert_eq!(f.len(), 2);
    assert_eq!(f[0].lit, bl);
    assert_eq!(f[0].weakest, bl);
    assert_eq!(f[1].lit, le5);
    assert_eq!(f[1].weakest, !gt9, "x <= 9 is the weakest failing bound");
    // and the weakened core still fails
    let w: Vec<Lit> = f.iter().map(|f| f.weakest).collect();
    assert!(s.solve(&w).is_unsat());
}

#[test]
fn bound_generalization_of_a_used_assumption() {
    // assumed x <= 5 but only the implied x <= 7 is used: report x <= 7
    let mut s = solver();
    let x = s.new_var(Sort::Real, &Domain::closed(q(0), q(100)));
    let b = s.new_bool();
    let bl = s.bool_lit(b).unwrap();
    let le7 = s.bound_lit(x, Rel::Le, &q(7));
    s.add_clause(&[!le7, !bl]); // x <= 7 -> !b
    let le5 = s.bound_lit(x, Rel::Le, &q(5));
    assert!(s.solve(&[le5, bl]).is_unsat());
    let f = s.failed_assumptions().to_vec();
    assert_eq!(f.len(), 2);
    assert_eq!(f[0].lit, le5);
    assert_eq!(f[0].weakest, le7);
    assert_eq!(f[1].lit, bl);
    let w: Vec<Lit> = f.iter().map(|f| f.weakest).collect();
    assert!(s.solve(&w).is_unsat());
}

#[test]
fn activation_literals_and_incremental_clauses() {
    let mut s = solver();
    let x = s.new_var(Sort::Int, &Domain::closed(q(0), q(10)));
    let ge3 = s.bound_lit(x, Rel::Ge, &q(3));
    let le2 = s.bound_lit(x, Rel::Le, &q(2));
    assert_eq!(
        le2, !ge3,
        "integer bounds share atoms: x <= 2 is not x >= 3"
    );
    let act = s.new_activation();
    s.add_clause_under(act, &[ge3]);
    let le1 = s.bound_lit(x, Rel::Le, &q(1));
    // with the activation literal: x >= 3 and x <= 1 conflict
    assert!(s.solve(&[act, le1]).is_unsat());
    assert_eq!(core(&s).len(), 2);
    // without: satisfiable
    let r = s.solve(&[le1]);
    assert!(r.is_sat(), "{r:?}");
    s.release(act);
    assert!(s.solve(&[act]).is_unsat());
    assert_eq!(core(&s), vec![act]);
    assert!(s.solve(&[le1]).is_sat());
    // incremental: a clause between calls
    s.add_clause(&[!le1]);
    assert!(s.solve(&[le1]).is_unsat());
    assert!(s.solve(&[]).is_sat());
    s.add_clause(&[le1]);
    assert!(s.solve(&[]).is_unsat());
    assert!(s.failed_assumptions().is_empty());
}

/// A hard pigeonhole instance for budgets and interrupts.
fn pigeonhole(s: &mut Solver, n: usize) {
    let p: Vec<Vec<Lit>> = (0..n + 1)
        .map(|_| {
            (0..n)
                .map(|_| {
                    let v = s.new_bool();
                    s.bool_lit(v).unwrap()
                })
                .collect()
        })
        .collect();
    for row in &p {
        s.add_clause(row);
    }
    for h in 0..n {
        for (i, pi) in p.iter().enumerate() {
            for pj in &p[i + 1..] {
                s.add_clause(&[!pi[h], !pj[h]]);
            }
        }
    }
}

#[test]
fn budgets_and_interrupts_give_unknown() {
    let mut s = solver();
    pigeonhole(&mut s, 9);
    s.set_conflict_budget(Some(50));
    match s.solve(&[]) {
        SolveResult::Unknown(why) => assert!(why.contains("conflict"), "{why}"),
        r => panic!("expected unknown, got {r:?}"),
    }
    s.set_conflict_budget(None);
    let flag = Arc::new(AtomicBool::new(true));
    s.set_interrupt(flag.clone());
    match s.solve(&[]) {
        SolveResult::Unknown(why) => assert_eq!(why, "interrupted"),
        r => panic!("expected unknown, got {r:?}"),
    }
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    s.set_deadline(Some(std::time::Instant::now()));
    match s.solve(&[]) {
        SolveResult::Unknown(why) => assert_eq!(why, "time limit"),
        r => panic!("expected unknown, got {r:?}"),
    }
    s.set_deadline(None);
    // small instance is still decided after limits were lifted
    let mut t = solver();
    pigeonhole(&mut t, 4);
    assert!(t.solve(&[]).is_unsat());
}
