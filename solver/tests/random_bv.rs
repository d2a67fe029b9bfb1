//! Differential test: random small machine-integer formulas (two `int8`/`uint8` variables,
//! two or three definitions over every machine-integer operation and casts between the 8-bit
//! types, bound atoms on the results) against brute-force enumeration of all 65,536
//! assignments with a native evaluator written here (i128 arithmetic reduced modulo 2^8).
//! Machine integers are split down to points, so every answer must be SAT or UNSAT; UNSAT must
//! agree with enumeration and a SAT point must satisfy the formula. Divisors and shift counts
//! are non-zero / in-range constants, so no result is unspecified and enumeration is exact.
//! (With `--features check-deductions` every ICP deduction is re-derived too.)

use solver::formula::{Atom, Def, Formula, Op, Rel, Sort, VarInfo, VarOrigin};
use solver::{Domain, IntType, Rational, SolveResult, Solver, SolverConfig, Value, Var};

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

fn q(n: i128) -> Rational {
    Rational::from_integer(n.into())
}

fn wrap(t: IntType, v: i128) -> i128 {
    let r = v.rem_euclid(256);
    if t.signed && r > 127 {
        r - 256
    } else {
        r
    }
}

fn lo(t: IntType) -> i128 {
    if t.signed {
        -128
    } else {
        0
    }
}

/// The native value of `op` on 8-bit operands (`t` is the output type).
fn native(op: &Op, t: IntType, a: i128, b: i128) -> i128 {
    wrap(
        t,
        match op {
            Op::BvAdd => a + b,
            Op::BvSub => a - b,
            Op::BvMul => a * b,
            Op::BvNeg => -a,
            Op::BvNot => !a,
            Op::BvAnd => a & b,
            Op::BvOr => a | b,
            Op::BvXor => a ^ b,
            Op::BvDiv => a / b,
            Op::BvRem => a % b,
            Op::BvShl => a << b,
            // floor division: arithmetic on negative (signed) values
            Op::BvShr => a >> b,
            Op::BvCast => a,
            _ => unreachable!(),
        },
    )
}

/// An operand: one of the two variables, an earlier definition, or a constant.
#[derive(Clone, Copy)]
enum Arg {
    X,
    Y,
    H(usize),
    K(i128),
}

struct Problem {
    t: IntType,
    /// (op, output type, args)
    defs: Vec<(Op, IntType, Vec<Arg>)>,
    /// bounds on the last definition: `h <= c` when true, `h >= c` when false, and on x
    atoms: Vec<(Arg, bool, i128)>,
}

fn random_problem(rng: &mut Rng) -> Problem {
    let t = IntType::new(8, rng.below(2) == 1);
    let ops = [
        Op::BvAdd,
        Op::BvSub,
        Op::BvMul,
        Op::BvNeg,
        Op::BvNot,
        Op::BvAnd,
        Op::BvOr,
        Op::BvXor,
        Op::BvDiv,
        Op::BvRem,
        Op::BvShl,
        Op::BvShr,
        Op::BvCast,
    ];
    let ndefs = 2 + rng.below(2) as usize;
    let mut defs = Vec::new();
    let mut ty = t;
    for i in 0..ndefs {
        let op = ops[rng.below(ops.len() as u64) as usize].clone();
        let pick = |rng: &mut Rng| match rng.below(4) {
            0 => Arg::X,
            1 => Arg::Y,
            _ if i > 0 => Arg::H(i - 1),
            _ => Arg::X,
        };
        let a = if i > 0 && rng.below(2) == 0 {
            Arg::H(i - 1)
        } else {
            pick(rng)
        };
        let (out_ty, args) = match op {
            Op::BvNeg | Op::BvNot => (ty, vec![a]),
            Op::BvCast => (IntType::new(8, !ty.signed), vec![a]),
            Op::BvDiv | Op::BvRem => {
                let mut d = rng.below(9) as i128 - 4;
                if d == 0 {
                    d = 3;
                }
                (ty, vec![a, Arg::K(wrap(ty, d))])
            }
            Op::BvShl | Op::BvShr => (ty, vec![a, Arg::K(rng.below(8) as i128)]),
            _ => {
                let b = if rng.below(3) == 0 {
                    Arg::K(wrap(ty, rng.next() as i128))
                } else {
                    pick(rng)
                };
                (ty, vec![a, b])
            }
        };
        // operands of a definition have its input type: x and y are of type t, so a
        // definition over them after a cast changes type only through casts back
        let uses_xy = args.iter().any(|a| matches!(a, Arg::X | Arg::Y));
        if uses_xy && ty != t {
            // cast back first
            defs.push((Op::BvCast, t, vec![Arg::H(defs.len() - 1)]));
            ty = t;
            let _ = out_ty;
            continue;
        }
        defs.push((op, out_ty, args));
        ty = out_ty;
    }
    let last = Arg::H(defs.len() - 1);
    let mut atoms = vec![(last, rng.below(2) == 1, wrap(ty, rng.next() as i128))];
    if rng.below(2) == 0 {
        atoms.push((last, rng.below(2) == 1, wrap(ty, rng.next() as i128)));
    }
    if rng.below(3) == 0 {
        atoms.push((Arg::X, rng.below(2) == 1, wrap(t, rng.next() as i128)));
    }
    Problem { t, defs, atoms }
}

/// The values of all definitions at (x, y).
fn eval(p: &Problem, x: i128, y: i128) -> Vec<i128> {
    let mut hs: Vec<i128> = Vec::new();
    for (op, out_ty, args) in &p.defs {
        let val = |a: &Arg| match a {
            Arg::X => x,
            Arg::Y => y,
            Arg::H(i) => hs[*i],
            Arg::K(k) => *k,
        };
        let a = val(&args[0]);
        let b = args.get(1).map_or(0, val);
        hs.push(native(op, *out_ty, a, b));
    }
    hs
}

fn holds(p: &Problem, x: i128, hs: &[i128]) -> bool {
    p.atoms.iter().all(|(a, le, c)| {
        let v = match a {
            Arg::X => x,
            Arg::H(i) => hs[*i],
            _ => unreachable!(),
        };
        if *le {
            v <= *c
        } else {
            v >= *c
        }
    })
}

fn build(p: &Problem) -> (Formula, Var, Var) {
    let mut f = Formula::new();
    let var = |f: &mut Formula, name: String, t: IntType, d: Domain, aux: bool| {
        f.add_var(VarInfo {
            name,
            sort: Sort::MachineInt(t),
            domain: d,
            origin: if aux {
                VarOrigin::Aux { span: (0, 0) }
            } else {
                VarOrigin::Declared { span: (0, 0) }
            },
            fp_const: None,
        })
    };
    let full = |t: IntType| Domain::closed(q(lo(t)), q(lo(t) + 255));
    let x = var(&mut f, "x".into(), p.t, full(p.t), false);
    let y = var(&mut f, "y".into(), p.t, full(p.t), false);
    let mut hs: Vec<Var> = Vec::new();
    let mut types: Vec<IntType> = Vec::new();
    for (i, (op, out_ty, args)) in p.defs.iter().enumerate() {
        let in_ty = match args[0] {
            Arg::H(j) => types[j],
            _ => p.t,
        };
        let mut vs = Vec::new();
        for (k, a) in args.iter().enumerate() {
            vs.push(match a {
                Arg::X => x,
                Arg::Y => y,
                Arg::H(j) => hs[*j],
                Arg::K(c) => {
                    // shift counts are of the operand's type too (as the front end does)
                    let ct = if k == 1 { in_ty } else { *out_ty };
                    var(&mut f, format!("{c}"), ct, Domain::point(q(*c)), false)
                }
            });
        }
        let h = var(&mut f, format!("h{i}"), *out_ty, Domain::unbounded(), true);
        f.add_def(Def {
            out: h,
            op: op.clone(),
            args: vs,
        });
        hs.push(h);
        types.push(*out_ty);
    }
    for (a, le, c) in &p.atoms {
        let v = match a {
            Arg::X => x,
            Arg::H(i) => hs[*i],
            _ => unreachable!(),
        };
        let l = f.atom_lit(Atom::Bound {
            var: v,
            rel: Rel::Le,
            value: q(if *le { *c } else { *c - 1 }),
        });
        f.add_root(if *le { l } else { !l });
    }
    (f, x, y)
}

fn describe(p: &Problem) -> String {
    format!(
        "{:?}: {:?}; atoms {:?}",
        p.t,
        p.defs
            .iter()
            .map(|(op, t, args)| format!(
                "{}:{}({})",
                op.name(),
                t.name(),
                args.iter()
                    .map(|a| match a {
                        Arg::X => "x".to_string(),
                        Arg::Y => "y".to_string(),
                        Arg::H(i) => format!("h{i}"),
                        Arg::K(k) => k.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            ))
            .collect::<Vec<_>>(),
        p.atoms
            .iter()
            .map(|(a, le, c)| format!(
                "{} {} {c}",
                match a {
                    Arg::X => "x".to_string(),
                    Arg::H(i) => format!("h{i}"),
                    _ => "?".into(),
                },
                if *le { "<=" } else { ">=" }
            ))
            .collect::<Vec<_>>()
    )
}

#[test]
fn random_machine_int_formulas_agree_with_enumeration() {
    let n: u64 = std::env::var("ICPIC3_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let mut rng = Rng(0x00b1_7b17_5eed);
    let (mut sat, mut unsat) = (0, 0);
    for case in 0..n {
        let p = random_problem(&mut rng);
        let lo_t = lo(p.t);
        let expected =
            (lo_t..lo_t + 256).any(|x| (lo_t..lo_t + 256).any(|y| holds(&p, x, &eval(&p, x, y))));
        let (f, x, y) = build(&p);
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        let map = s.add_formula(&f);
        let r = s.solve(&[]);
        match &r {
            SolveResult::Sat(m) => {
                assert!(
                    expected,
                    "case {case}: SAT but enumeration finds none: {}",
                    describe(&p)
                );
                let val = |v: Var| match m.value(map.var(v)) {
                    Some(Value::Num(q)) => i128::try_from(q.to_integer()).unwrap(),
                    other => panic!("case {case}: value {other:?}"),
                };
                let (xv, yv) = (val(x), val(y));
                assert!(
                    holds(&p, xv, &eval(&p, xv, yv)),
                    "case {case}: model x={xv} y={yv} fails: {}",
                    describe(&p)
                );
                sat += 1;
            }
            SolveResult::Unsat => {
                assert!(
                    !expected,
                    "case {case}: UNSAT but enumeration finds a solution: {}",
                    describe(&p)
                );
                unsat += 1;
            }
            other => panic!("case {case}: {other:?} on {}", describe(&p)),
        }
    }
    // the generator must produce both kinds
    assert!(sat > n / 10 && unsat > n / 10, "sat {sat}, unsat {unsat}");
}
