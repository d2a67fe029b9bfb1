//! Differential test: random small-integer arithmetic formulas (integers in [-4, 4], Boolean
//! variables, definitions with Linear/Mul/Pow/Abs/Min/Max/Ite/BoolToNum, bound atoms with
//! integral and fractional constants in random clauses) against brute-force enumeration.
//! Integers are split down to points, so every answer must be SAT or UNSAT; UNSAT must agree
//! exactly with enumeration and a SAT point must satisfy the formula.

use solver::formula::{Atom, Def, Formula, Op, Rel, Sort, VarInfo, VarOrigin};
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

fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

fn var(f: &mut Formula, name: String, sort: Sort, domain: Domain, aux: bool) -> Var {
    f.add_var(VarInfo {
        name,
        sort,
        domain,
        origin: if aux {
            VarOrigin::Aux { span: (0, 0) }
        } else {
            VarOrigin::Declared { span: (0, 0) }
        },
        fp_const: None,
    })
}

/// A random formula; returns it with the declared int and Bool variables.
fn random_formula(rng: &mut Rng) -> (Formula, Vec<Var>, Vec<Var>) {
    let mut f = Formula::new();
    let nint = 1 + rng.below(3) as usize;
    let nbool = rng.below(3) as usize;
    let ints: Vec<Var> = (0..nint)
        .map(|i| {
            var(
                &mut f,
                format!("x{i}"),
                Sort::Int,
                Domain::closed(q(-4), q(4)),
                false,
            )
        })
        .collect();
    let bools: Vec<Var> = (0..nbool)
        .map(|i| {
            var(
                &mut f,
                format!("b{i}"),
                Sort::Bool,
                Domain::unbounded(),
                false,
            )
        })
        .collect();
    let mut nums = ints.clone();
    let ndefs = 1 + rng.below(4) as usize;
    for k in 0..ndefs {
        let pick = |rng: &mut Rng, nums: &Vec<Var>| nums[rng.below(nums.len() as u64) as usize];
        let (op, args) = match rng.below(if bools.is_empty() { 7 } else { 9 }) {
            0 => {
                let n = 1 + rng.below(3) as usize;
                let args: Vec<Var> = (0..n).map(|_| pick(rng, &nums)).collect();
                let coeffs = (0..n).map(|_| q(rng.range(-3, 3))).collect();
                (
                    Op::Linear {
                        coeffs,
                        constant: q(rng.range(-3, 3)),
                    },
                    args,
                )
            }
            1 => (Op::Mul, vec![pick(rng, &nums), pick(rng, &nums)]),
            2 => (Op::Pow(2 + rng.below(2) as u32), vec![pick(rng, &nums)]),
            3 => (Op::Abs, vec![pick(rng, &nums)]),
            4 => (Op::Min, vec![pick(rng, &nums), pick(rng, &nums)]),
            5 => (Op::Max, vec![pick(rng, &nums), pick(rng, &nums)]),
            6 => (Op::Pow(rng.below(2) as u32), vec![pick(rng, &nums)]),
            7 => {
                let b = bools[rng.below(bools.len() as u64) as usize];
                (Op::Ite, vec![b, pick(rng, &nums), pick(rng, &nums)])
            }
            _ => {
                let b = bools[rng.below(bools.len() as u64) as usize];
                (Op::BoolToNum, vec![b])
            }
        };
        let domain = if op == Op::BoolToNum {
            Domain::closed(q(0), q(1))
        } else {
            Domain::unbounded()
        };
        let out = var(&mut f, format!("h{k}"), Sort::Int, domain, true);
        f.add_def(Def { out, op, args });
        nums.push(out);
    }
    // atoms and clauses
    let mut lits = Vec::new();
    for _ in 0..(2 + rng.below(5)) {
        let v = nums[rng.below(nums.len() as u64) as usize];
        let rel = [Rel::Le, Rel::Lt, Rel::Ge, Rel::Gt][rng.below(4) as usize];
        let value = Rational::new(rng.range(-40, 40).into(), (1 + rng.below(2) as i64).into());
        lits.push(f.atom_lit(Atom::Bound { var: v, rel, value }));
    }
    for &b in &bools {
        lits.push(f.bool_lit(b));
    }
    let pick_lit = |rng: &mut Rng| {
        let l = lits[rng.below(lits.len() as u64) as usize];
        if rng.below(2) == 0 {
            l
        } else {
            !l
        }
    };
    for _ in 0..rng.below(4) {
        let c = (0..1 + rng.below(3)).map(|_| pick_lit(rng)).collect();
        f.add_clause(c);
    }
    for _ in 0..1 + rng.below(3) {
        let r = pick_lit(rng);
        f.add_root(r);
    }
    (f, ints, bools)
}

/// Evaluates every variable given the declared ones (definitions in order).
fn evaluate(f: &Formula, ints: &[Var], ivals: &[i64], bools: &[Var], bvals: &[bool]) -> Vec<i64> {
    let mut vals = vec![0i64; f.vars.len()];
    for (v, x) in ints.iter().zip(ivals) {
        vals[v.index()] = *x;
    }
    for (v, b) in bools.iter().zip(bvals) {
        vals[v.index()] = *b as i64;
    }
    for d in &f.defs {
        let a: Vec<i64> = d.args.iter().map(|v| vals[v.index()]).collect();
        vals[d.out.index()] = match &d.op {
            Op::Linear { coeffs, constant } => {
                let mut s = constant.to_integer().try_into().unwrap_or(0i64);
                for (c, x) in coeffs.iter().zip(&a) {
                    let c: i64 = c.to_integer().try_into().unwrap();
                    s += c * x;
                }
                s
            }
            Op::Mul => a[0] * a[1],
            Op::Pow(n) => a[0].pow(*n),
            Op::Abs => a[0].abs(),
            Op::Min => a[0].min(a[1]),
            Op::Max => a[0].max(a[1]),
            Op::Ite => {
                if a[0] != 0 {
                    a[1]
                } else {
                    a[2]
                }
            }
            Op::BoolToNum => a[0],
            op => panic!("unexpected {op:?}"),
        };
    }
    vals
}

fn holds(f: &Formula, vals: &[i64]) -> bool {
    let lit = |l: solver::formula::Lit| -> bool {
        let t = match f.atom(l.atom()) {
            Atom::Bool(v) => vals[v.index()] != 0,
            Atom::Bound { var, rel, value } => {
                rel.holds(Rational::from_integer(vals[var.index()].into()).cmp(value))
            }
        };
        t != l.is_negated()
    };
    f.clauses.iter().all(|c| c.iter().any(|&l| lit(l))) && f.roots.iter().all(|&r| lit(r))
}

fn brute(f: &Formula, ints: &[Var], bools: &[Var]) -> bool {
    let n = ints.len();
    let total = 9u64.pow(n as u32);
    for code in 0..total {
        let mut c = code;
        let ivals: Vec<i64> = (0..n)
            .map(|_| {
                let x = (c % 9) as i64 - 4;
                c /= 9;
                x
            })
            .collect();
        for bm in 0..(1u32 << bools.len()) {
            let bvals: Vec<bool> = (0..bools.len()).map(|i| (bm >> i) & 1 == 1).collect();
            let vals = evaluate(f, ints, &ivals, bools, &bvals);
            if holds(f, &vals) {
                return true;
            }
        }
    }
    false
}

fn run(seed: u64, cases: usize, cfg: SolverConfig) {
    let mut rng = Rng(seed);
    let (mut nsat, mut nunsat) = (0, 0);
    for case in 0..cases {
        let (f, ints, bools) = random_formula(&mut rng);
        let expect = brute(&f, &ints, &bools);
        let mut s = Solver::new(cfg.clone()).unwrap();
        let map = s.add_formula(&f);
        match s.solve(&[]) {
            SolveResult::Sat(m) => {
                assert!(expect, "case {case}: SAT but enumeration finds none\n{f}");
                let ivals: Vec<i64> = ints
                    .iter()
                    .map(|&v| {
                        let q = m.value(map.var(v)).and_then(Value::as_num).unwrap();
                        q.to_integer().try_into().unwrap()
                    })
                    .collect();
                let bvals: Vec<bool> = bools
                    .iter()
                    .map(|&v| m.value(map.var(v)).and_then(Value::as_bool).unwrap())
                    .collect();
                let vals = evaluate(&f, &ints, &ivals, &bools, &bvals);
                assert!(holds(&f, &vals), "case {case}: SAT point violates\n{f}");
                nsat += 1;
            }
            SolveResult::Unsat => {
                assert!(
                    !expect,
                    "case {case}: UNSAT but enumeration finds a model\n{f}"
                );
                nunsat += 1;
            }
            r => panic!("case {case}: integers must be decided, got {r:?}\n{f}"),
        }
    }
    assert!(
        nsat > cases / 10 && nunsat > cases / 20,
        "{nsat} sat, {nunsat} unsat"
    );
}

#[test]
fn random_integer_formulas_agree_with_enumeration() {
    run(0x1234_5678, 3000, SolverConfig::default());
}

#[test]
fn random_integer_formulas_with_aggressive_restarts() {
    let cfg = SolverConfig {
        restart_first: 1,
        reduce_first: 2,
        reduce_inc: 1,
        mpr: 0.0,
        early_point_check: false,
        ..SolverConfig::default()
    };
    run(0x8765_4321, 1500, cfg);
}
