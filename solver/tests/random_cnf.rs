//! Differential test: small random pure-Boolean CNFs against brute force. A SAT answer must
//! come with a model satisfying every clause; UNSAT must agree with enumeration.

use solver::lit::Lit;
use solver::{SolveResult, Solver, SolverConfig};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn brute(nvars: usize, clauses: &[Vec<(usize, bool)>]) -> bool {
    (0u32..1 << nvars).any(|m| {
        clauses
            .iter()
            .all(|c| c.iter().any(|&(v, neg)| ((m >> v) & 1 == 1) != neg))
    })
}

fn run(seed: u64, cases: usize, cfg: SolverConfig) {
    let mut rng = Rng(seed);
    let (mut sat, mut unsat) = (0, 0);
    for case in 0..cases {
        let nvars = 3 + rng.below(10) as usize;
        let nclauses = 1 + rng.below(5 * nvars as u64) as usize;
        let clauses: Vec<Vec<(usize, bool)>> = (0..nclauses)
            .map(|_| {
                let len = 1 + rng.below(4) as usize;
                (0..len)
                    .map(|_| (rng.below(nvars as u64) as usize, rng.below(2) == 1))
                    .collect()
            })
            .collect();
        let mut s = Solver::new(cfg.clone()).unwrap();
        let lits: Vec<Lit> = (0..nvars)
            .map(|_| {
                let v = s.new_bool();
                s.bool_lit(v).unwrap()
            })
            .collect();
        for c in &clauses {
            let cl: Vec<Lit> = c
                .iter()
                .map(|&(v, neg)| if neg { !lits[v] } else { lits[v] })
                .collect();
            s.add_clause(&cl);
        }
        let expect = brute(nvars, &clauses);
        match s.solve(&[]) {
            SolveResult::Sat(m) => {
                assert!(expect, "case {case}: SAT but brute force says UNSAT");
                let point = m.point.as_ref().unwrap();
                for c in &clauses {
                    assert!(
                        c.iter().any(|&(v, neg)| {
                            let val = point[solver::Var(v as u32)].as_bool().unwrap();
                            val != neg
                        }),
                        "case {case}: model violates a clause"
                    );
                }
                sat += 1;
            }
            SolveResult::Unsat => {
                assert!(!expect, "case {case}: UNSAT but brute force finds a model");
                unsat += 1;
            }
            r => panic!("case {case}: unexpected {r:?}"),
        }
    }
    assert!(
        sat > cases / 10 && unsat > cases / 10,
        "{sat} sat, {unsat} unsat"
    );
}

#[test]
fn random_cnf_agrees_with_brute_force() {
    run(0x5eed_0001, 3000, SolverConfig::default());
}

#[test]
fn random_cnf_with_frequent_restarts_and_reductions() {
    let cfg = SolverConfig {
        restart_first: 1,
        reduce_first: 3,
        reduce_inc: 1,
        keep_lbd: 1,
        ..SolverConfig::default()
    };
    run(0x5eed_0002, 2000, cfg);
}

#[test]
fn random_cnf_under_assumptions() {
    // assumptions behave like unit clauses for the answer; the failed core is really failing
    let mut rng = Rng(0xa55u64);
    for case in 0..1500 {
        let nvars = 3 + rng.below(8) as usize;
        let nclauses = 1 + rng.below(4 * nvars as u64) as usize;
        let mut clauses: Vec<Vec<(usize, bool)>> = (0..nclauses)
            .map(|_| {
                let len = 1 + rng.below(3) as usize;
                (0..len)
                    .map(|_| (rng.below(nvars as u64) as usize, rng.below(2) == 1))
                    .collect()
            })
            .collect();
        let nass = rng.below(4) as usize;
        let ass: Vec<(usize, bool)> = (0..nass)
            .map(|_| (rng.below(nvars as u64) as usize, rng.below(2) == 1))
            .collect();
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        let lits: Vec<Lit> = (0..nvars)
            .map(|_| {
                let v = s.new_bool();
                s.bool_lit(v).unwrap()
            })
            .collect();
        let tolit = |&(v, neg): &(usize, bool)| if neg { !lits[v] } else { lits[v] };
        for c in &clauses {
            let cl: Vec<Lit> = c.iter().map(tolit).collect();
            s.add_clause(&cl);
        }
        let alits: Vec<Lit> = ass.iter().map(tolit).collect();
        let base = clauses.clone();
        for a in &ass {
            clauses.push(vec![*a]);
        }
        let expect = brute(nvars, &clauses);
        match s.solve(&alits) {
            SolveResult::Sat(_) => assert!(expect, "case {case}"),
            SolveResult::Unsat => {
                assert!(!expect, "case {case}");
                // the core alone (with the clauses) is unsatisfiable
                let core: Vec<(usize, bool)> = s
                    .failed_assumptions()
                    .iter()
                    .map(|f| {
                        let i = alits.iter().position(|&l| l == f.lit).unwrap();
                        ass[i]
                    })
                    .collect();
                let mut with_core = base.clone();
                for a in core {
                    with_core.push(vec![a]);
                }
                assert!(
                    !brute(nvars, &with_core),
                    "case {case}: core is satisfiable"
                );
            }
            r => panic!("case {case}: {r:?}"),
        }
    }
}
