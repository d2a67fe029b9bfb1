//! Fuzzing over the reals: random small polynomial formulas (Linear with non-double
//! coefficients, Mul, Pow, Div, Abs, Min, Max) with random bound atoms (also on constants that
//! are not doubles) in random clauses. There is no decision procedure to compare with, so the
//! test checks what can be checked exactly: a SAT point satisfies the formula, and an UNSAT
//! answer is not contradicted by any point of a fine rational grid. With
//! `--features check-deductions` every contraction is re-checked on the way.

use num_traits::Zero;
use solver::formula::{Atom, Def, Formula, Lit as FLit, Op, Rel, Sort, VarInfo, VarOrigin};
use solver::{Domain, Rational, SolveResult, Solver, SolverConfig, Value, Var};

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
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

fn q(n: i64, d: i64) -> Rational {
    Rational::new(n.into(), d.into())
}

fn var(f: &mut Formula, name: String, domain: Domain) -> Var {
    f.add_var(VarInfo {
        name,
        sort: Sort::Real,
        domain,
        origin: VarOrigin::Declared { span: (0, 0) },
        fp_const: None,
    })
}

fn random_formula(rng: &mut Rng) -> (Formula, Vec<Var>) {
    let mut f = Formula::new();
    let n = 1 + rng.below(2) as usize;
    let inputs: Vec<Var> = (0..n)
        .map(|i| var(&mut f, format!("x{i}"), Domain::closed(q(-3, 1), q(3, 1))))
        .collect();
    let mut nums = inputs.clone();
    for k in 0..1 + rng.below(3) {
        let pick = |rng: &mut Rng, nums: &Vec<Var>| nums[rng.below(nums.len() as u64) as usize];
        let (op, args) = match rng.below(7) {
            0 => {
                let m = 1 + rng.below(2) as usize;
                let args: Vec<Var> = (0..m).map(|_| pick(rng, &nums)).collect();
                let coeffs = (0..m)
                    .map(|_| q(rng.range(-4, 4), rng.range(1, 3)))
                    .collect();
                let constant = q(rng.range(-3, 3), rng.range(1, 10));
                (Op::Linear { coeffs, constant }, args)
            }
            1 => (Op::Mul, vec![pick(rng, &nums), pick(rng, &nums)]),
            2 => (Op::Pow(2 + rng.below(2) as u32), vec![pick(rng, &nums)]),
            3 => (Op::Div, vec![pick(rng, &nums), pick(rng, &nums)]),
            4 => (Op::Abs, vec![pick(rng, &nums)]),
            5 => (Op::Min, vec![pick(rng, &nums), pick(rng, &nums)]),
            _ => (Op::Max, vec![pick(rng, &nums), pick(rng, &nums)]),
        };
        let out = var(&mut f, format!("h{k}"), Domain::unbounded());
        f.add_def(Def { out, op, args });
        nums.push(out);
    }
    let mut lits: Vec<FLit> = Vec::new();
    for _ in 0..2 + rng.below(4) {
        let v = nums[rng.below(nums.len() as u64) as usize];
        let rel = [Rel::Le, Rel::Lt, Rel::Ge, Rel::Gt][rng.below(4) as usize];
        let value = q(rng.range(-30, 30), [1, 2, 3, 10][rng.below(4) as usize]);
        lits.push(f.atom_lit(Atom::Bound { var: v, rel, value }));
    }
    let pick_lit = |rng: &mut Rng| {
        let l = lits[rng.below(lits.len() as u64) as usize];
        if rng.below(2) == 0 {
            l
        } else {
            !l
        }
    };
    for _ in 0..rng.below(3) {
        let c = (0..1 + rng.below(2)).map(|_| pick_lit(rng)).collect();
        f.add_clause(c);
    }
    for _ in 0..1 + rng.below(3) {
        let r = pick_lit(rng);
        f.add_root(r);
    }
    (f, inputs)
}

/// The formula at a point of the inputs, `None` where a division by zero makes it open.
fn holds_at(f: &Formula, inputs: &[Var], xs: &[Rational]) -> Option<bool> {
    let mut vals = vec![Rational::zero(); f.vars.len()];
    for (v, x) in inputs.iter().zip(xs) {
        vals[v.index()] = x.clone();
    }
    for d in &f.defs {
        let a: Vec<Rational> = d.args.iter().map(|v| vals[v.index()].clone()).collect();
        if d.op == Op::Div && a[1].is_zero() {
            return None;
        }
        vals[d.out.index()] = solver::contractors::check::eval(&d.op, &a)?;
    }
    let lit = |l: FLit| -> bool {
        let t = match f.atom(l.atom()) {
            Atom::Bound { var, rel, value } => rel.holds(vals[var.index()].cmp(value)),
            Atom::Bool(_) => unreachable!("no Booleans here"),
        };
        t != l.is_negated()
    };
    Some(f.clauses.iter().all(|c| c.iter().any(|&l| lit(l))) && f.roots.iter().all(|&r| lit(r)))
}

fn grid(n: usize) -> Vec<Vec<Rational>> {
    // multiples of 1/8 in [-3, 3] (and a few thirds, to hit constants that are not doubles)
    let mut axis: Vec<Rational> = (-24..=24).map(|k| q(k, 8)).collect();
    axis.extend((-9..=9).map(|k| q(k, 3)));
    let mut pts = vec![vec![]];
    for _ in 0..n {
        pts = pts
            .into_iter()
            .flat_map(|p| {
                axis.iter().map(move |a| {
                    let mut p = p.clone();
                    p.push(a.clone());
                    p
                })
            })
            .collect();
    }
    pts
}

#[test]
fn random_real_formulas_are_answered_consistently() {
    let mut rng = Rng(0xfeed_beef);
    let cases = if cfg!(feature = "check-deductions") {
        1000
    } else {
        1500
    };
    let (mut sat, mut unsat, mut cand) = (0, 0, 0);
    let grids = [grid(1), grid(2)];
    for case in 0..cases {
        let (f, inputs) = random_formula(&mut rng);
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        let map = s.add_formula(&f);
        match s.solve(&[]) {
            SolveResult::Sat(m) => {
                // every variable's value from the model; definitions hold (total semantics)
                let vals: Vec<Rational> = f
                    .vars
                    .keys()
                    .map(|v| m.value(map.var(v)).and_then(Value::as_num).unwrap().clone())
                    .collect();
                for d in &f.defs {
                    let a: Vec<Rational> = d.args.iter().map(|v| vals[v.index()].clone()).collect();
                    let ok = solver::contractors::check::holds(&d.op, &a, &vals[d.out.index()]);
                    assert_eq!(ok, Some(true), "case {case}: {}\n{f}", f.def_to_string(d));
                }
                let lit = |l: FLit| -> bool {
                    let Atom::Bound { var, rel, value } = f.atom(l.atom()) else {
                        unreachable!("no Booleans here")
                    };
                    rel.holds(vals[var.index()].cmp(value)) != l.is_negated()
                };
                assert!(
                    f.clauses.iter().all(|c| c.iter().any(|&l| lit(l))),
                    "case {case}"
                );
                assert!(f.roots.iter().all(|&r| lit(r)), "case {case}\n{f}");
                sat += 1;
            }
            SolveResult::Unsat => {
                for p in &grids[inputs.len() - 1] {
                    assert_ne!(
                        holds_at(&f, &inputs, p),
                        Some(true),
                        "case {case}: UNSAT but {p:?} satisfies\n{f}"
                    );
                }
                unsat += 1;
            }
            SolveResult::Candidate(_) => cand += 1,
            r => panic!("case {case}: {r:?}"),
        }
    }
    assert!(
        sat > cases / 10 && unsat > cases / 10,
        "{sat} sat {unsat} unsat {cand} candidates"
    );
}
