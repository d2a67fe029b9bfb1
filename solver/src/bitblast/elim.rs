//! Bounded variable elimination (Eén and Biere, "Effective Preprocessing in SAT through
//! Variable and Clause Elimination", SAT 2005) on the bit-blasted CNF before the search.
//!
//! The idea: most variables of a bit-blasted circuit are internal gate outputs that occur in
//! a handful of clauses. Replacing the clauses of such a variable `v` by all their
//! resolvents on `v` removes `v` without changing satisfiability; done only when the clause
//! count does not grow, it leaves the search fewer variables and shorter implication chains.
//! A model of the reduced CNF is extended to the eliminated variables in reverse order
//! ([`Elimination::extend`]), and the caller re-checks it against the original clauses.

/// The eliminated variables, in order, each with the clauses it was removed with.
#[derive(Default)]
pub struct Elimination {
    stack: Vec<(usize, Vec<Vec<u32>>)>,
}

impl Elimination {
    /// The eliminated variables.
    pub fn eliminated(&self) -> impl Iterator<Item = usize> + '_ {
        self.stack.iter().map(|(v, _)| *v)
    }

    /// Extends `model` (a value per variable) of the reduced CNF to a model of the original:
    /// each eliminated variable, last first, is set so that its saved clauses hold (they
    /// can: every resolvent on it holds).
    pub fn extend(&self, model: &mut [bool]) {
        let holds = |model: &[bool], c: &[u32]| c.iter().any(|&l| model[var(l)] == (l & 1 == 0));
        for (v, saved) in self.stack.iter().rev() {
            model[*v] = false;
            if !saved.iter().all(|c| holds(model, c)) {
                model[*v] = true;
            }
        }
    }
}

fn var(l: u32) -> usize {
    (l >> 1) as usize
}

/// Resolvents are kept only up to this length, and a variable is only tried while the
/// product of its occurrence counts stays below [`MAX_PAIRS`].
const MAX_RESOLVENT: usize = 24;
const MAX_PAIRS: usize = 400;

/// Eliminates variables of `clauses` (over variables `0..n`) that are not `frozen`, as long
/// as each elimination does not increase the number of clauses. Returns the reduced clauses
/// (an empty clause among them if a resolvent was empty) and the elimination record.
pub fn eliminate(
    n: usize,
    clauses: Vec<Vec<u32>>,
    frozen: &[bool],
) -> (Vec<Vec<u32>>, Elimination) {
    let mut db: Vec<Option<Vec<u32>>> = Vec::with_capacity(clauses.len());
    let mut occ: Vec<Vec<usize>> = vec![Vec::new(); 2 * n];
    let add = |db: &mut Vec<Option<Vec<u32>>>, occ: &mut Vec<Vec<usize>>, mut c: Vec<u32>| {
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return;
        }
        for &l in &c {
            occ[l as usize].push(db.len());
        }
        db.push(Some(c));
    };
    for c in clauses {
        add(&mut db, &mut occ, c);
    }
    let mut elim = Elimination::default();
    let mut order: Vec<usize> = (0..n)
        .filter(|&v| !frozen.get(v).copied().unwrap_or(false))
        .collect();
    order.sort_by_key(|&v| occ[2 * v].len() * occ[2 * v + 1].len());
    let mut resolvents: Vec<Vec<u32>> = Vec::new();
    for v in order {
        let live = |db: &Vec<Option<Vec<u32>>>, l: usize, occ: &mut Vec<Vec<usize>>| {
            occ[l].retain(|&i| db[i].is_some());
            occ[l].clone()
        };
        let pos = live(&db, 2 * v, &mut occ);
        let neg = live(&db, 2 * v + 1, &mut occ);
        if pos.is_empty() && neg.is_empty() {
            continue;
        }
        if pos.len() * neg.len() > MAX_PAIRS {
            continue;
        }
        resolvents.clear();
        let budget = pos.len() + neg.len();
        let mut ok = true;
        'pairs: for &i in &pos {
            for &j in &neg {
                let (Some(a), Some(b)) = (&db[i], &db[j]) else {
                    continue;
                };
                if let Some(r) = resolve(a, b, v) {
                    if r.len() > MAX_RESOLVENT || resolvents.len() == budget {
                        ok = false;
                        break 'pairs;
                    }
                    resolvents.push(r);
                }
            }
        }
        if !ok {
            continue;
        }
        let mut saved = Vec::with_capacity(budget);
        for &i in pos.iter().chain(&neg) {
            if let Some(c) = db[i].take() {
                saved.push(c);
            }
        }
        elim.stack.push((v, saved));
        for r in resolvents.drain(..) {
            if r.is_empty() {
                // the original CNF is unsatisfiable: keep the empty clause
                db.push(Some(r));
                continue;
            }
            add(&mut db, &mut occ, r);
        }
    }
    (db.into_iter().flatten().collect(), elim)
}

/// The resolvent of `a` (with `v`) and `b` (with `¬v`), both sorted; `None` if tautological.
fn resolve(a: &[u32], b: &[u32], v: usize) -> Option<Vec<u32>> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(_), Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!(),
        };
        if var(next) == v {
            continue;
        }
        // sorted literals: a complementary pair sits side by side
        if out.last().is_some_and(|&p: &u32| p ^ 1 == next) {
            return None;
        }
        out.push(next);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitblast::sat::{Sat, SatAnswer};

    fn brute(n: usize, clauses: &[Vec<u32>]) -> Option<Vec<bool>> {
        (0..1u32 << n).find_map(|bits| {
            let m: Vec<bool> = (0..n).map(|v| bits >> v & 1 == 1).collect();
            clauses
                .iter()
                .all(|c| c.iter().any(|&l| m[var(l)] == (l & 1 == 0)))
                .then_some(m)
        })
    }

    /// On random small CNFs: the reduced CNF is satisfiable exactly when the original is,
    /// and every model of the reduced CNF, extended, satisfies the original; frozen
    /// variables are never eliminated.
    #[test]
    fn elimination_preserves_satisfiability_and_models_extend() {
        let mut rng = crate::bitblast::check::Rng::new(0x9e37_79b9_7f4a_7c15u64);
        let mut rnd = move || rng.next_u64();
        let (mut eliminated, mut sats, mut unsats) = (0, 0, 0);
        for _ in 0..400 {
            let n = 4 + (rnd() % 9) as usize;
            let m = (n as f64 * (1.0 + (rnd() % 400) as f64 / 100.0)) as usize;
            let clauses: Vec<Vec<u32>> = (0..m)
                .map(|_| {
                    let k = if rnd() % 10 == 0 {
                        1
                    } else {
                        2 + (rnd() % 2) as usize
                    };
                    (0..k)
                        .map(|_| 2 * (rnd() % n as u64) as u32 + (rnd() & 1) as u32)
                        .collect()
                })
                .collect();
            let frozen: Vec<bool> = (0..n).map(|_| rnd() % 4 == 0).collect();
            let (reduced, elim) = eliminate(n, clauses.clone(), &frozen);
            for v in elim.eliminated() {
                assert!(!frozen[v], "frozen variable {v} eliminated");
                assert!(
                    reduced.iter().flatten().all(|&l| var(l) != v),
                    "eliminated {v} still occurs"
                );
                eliminated += 1;
            }
            let orig = brute(n, &clauses);
            match brute(n, &reduced) {
                Some(mut model) => {
                    assert!(orig.is_some(), "reduced CNF satisfiable, original not");
                    elim.extend(&mut model);
                    assert!(
                        clauses
                            .iter()
                            .all(|c| c.iter().any(|&l| model[var(l)] == (l & 1 == 0))),
                        "extended model violates an original clause"
                    );
                    sats += 1;
                }
                None => {
                    assert!(orig.is_none(), "reduced CNF unsatisfiable, original not");
                    unsats += 1;
                }
            }
        }
        assert!(
            eliminated > 200 && sats > 50 && unsats > 50,
            "{eliminated} eliminated, {sats} sat, {unsats} unsat"
        );
        // and through the solver: the CDCL model of the reduced CNF extends
        let clauses = vec![vec![0, 2], vec![1, 4], vec![3, 5], vec![2, 4, 6]];
        let (reduced, elim) = eliminate(4, clauses.clone(), &[false; 4]);
        let mut s = Sat::new(4);
        for c in &reduced {
            s.add_clause(c);
        }
        assert_eq!(s.solve(&[]), SatAnswer::Sat);
        let mut model: Vec<bool> = (0..4).map(|v| s.model_value(v)).collect();
        elim.extend(&mut model);
        assert!(clauses
            .iter()
            .all(|c| c.iter().any(|&l| model[var(l)] == (l & 1 == 0))));
    }
}
