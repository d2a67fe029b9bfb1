//! Formulas through `add_formula`: Boolean if-then-else, bool2num, machine integers and
//! conversions, unsupported sorts, malformed input, and step-wise instantiation with bound
//! variables (as BMC/IC3 unroll TRANS).

use solver::formula::{Atom, Def, Formula, Lit as FLit, Op, Rel, Sort, VarInfo, VarOrigin};
use solver::solve::Roots;
use solver::{Domain, FpFormat, IntType, Rational, SolveResult, Solver, SolverConfig, Value, Var};

fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

fn var(f: &mut Formula, name: &str, sort: Sort, domain: Domain) -> Var {
    f.add_var(VarInfo {
        name: name.into(),
        sort,
        domain,
        origin: VarOrigin::Declared { span: (0, 0) },
        fp_const: None,
    })
}

fn bound(f: &mut Formula, v: Var, rel: Rel, c: i64) -> FLit {
    f.atom_lit(Atom::Bound {
        var: v,
        rel,
        value: q(c),
    })
}

fn solver() -> Solver {
    Solver::new(SolverConfig::default()).unwrap()
}

#[test]
fn boolean_if_then_else() {
    let mut f = Formula::new();
    let [a, b, c, o] =
        ["a", "b", "c", "o"].map(|n| var(&mut f, n, Sort::Bool, Domain::unbounded()));
    f.add_def(Def {
        out: o,
        op: Op::Ite,
        args: vec![a, b, c],
    });
    let (la, lb, lo) = (f.bool_lit(a), f.bool_lit(b), f.bool_lit(o));
    f.add_root(la);
    f.add_root(!lb);
    f.add_root(lo);
    let mut s = solver();
    s.add_formula(&f);
    assert!(s.solve(&[]).is_unsat());
    // o = ite(a, b, c) with !a, c: o holds
    let mut f2 = f.clone();
    f2.roots.clear();
    let lc = f2.bool_lit(c);
    f2.add_root(!la);
    f2.add_root(lc);
    f2.add_root(lo);
    let mut s = solver();
    let m = s.add_formula(&f2);
    match s.solve(&[]) {
        SolveResult::Sat(model) => {
            assert_eq!(model.value(m.var(o)), Some(&Value::Bool(true)));
            assert_eq!(model.value(m.var(a)), Some(&Value::Bool(false)));
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn bool_to_num_and_numeric_ite() {
    let mut f = Formula::new();
    let b = var(&mut f, "b", Sort::Bool, Domain::unbounded());
    let x = var(&mut f, "x", Sort::Real, Domain::closed(q(0), q(10)));
    let h = var(&mut f, "h", Sort::Int, Domain::closed(q(0), q(1)));
    let y = var(&mut f, "y", Sort::Real, Domain::unbounded());
    let k7 = var(&mut f, "7", Sort::Real, Domain::point(q(7)));
    f.add_def(Def {
        out: h,
        op: Op::BoolToNum,
        args: vec![b],
    });
    // y = if b then 7 else x
    f.add_def(Def {
        out: y,
        op: Op::Ite,
        args: vec![b, k7, x],
    });
    let h1 = bound(&mut f, h, Rel::Ge, 1);
    let y_le5 = bound(&mut f, y, Rel::Le, 5);
    f.add_root(y_le5);
    let mut g = f.clone();
    f.add_root(h1);
    // b forced true by h >= 1, then y = 7 > 5
    let mut s = solver();
    s.add_formula(&f);
    assert!(s.solve(&[]).is_unsat());
    // without h >= 1: b false, y = x <= 5
    let y_ge4 = bound(&mut g, y, Rel::Ge, 4);
    g.add_root(y_ge4);
    let mut s = solver();
    let m = s.add_formula(&g);
    match s.solve(&[]) {
        SolveResult::Sat(model) => {
            assert_eq!(model.value(m.var(b)), Some(&Value::Bool(false)));
            let yv = model.value(m.var(y)).unwrap().as_num().unwrap().clone();
            assert!(yv >= q(4) && yv <= q(5));
            assert_eq!(model.value(m.var(h)).unwrap().as_num(), Some(&q(0)));
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn machine_integers_are_integers_in_their_range() {
    let mut f = Formula::new();
    let u8t = IntType::new(8, false);
    let x = var(&mut f, "x", Sort::MachineInt(u8t), Domain::unbounded());
    let n = var(&mut f, "n", Sort::Int, Domain::unbounded());
    f.add_def(Def {
        out: n,
        op: Op::Convert,
        args: vec![x],
    });
    let big = bound(&mut f, n, Rel::Ge, 256);
    f.add_root(big);
    let mut s = solver();
    s.add_formula(&f);
    assert!(
        s.solve(&[]).is_unsat(),
        "a uint8 converted exactly stays below 256"
    );
    let mut g = f.clone();
    g.roots.clear();
    let ge200 = bound(&mut g, n, Rel::Ge, 200);
    g.add_root(ge200);
    let mut s = solver();
    let m = s.add_formula(&g);
    match s.solve(&[]) {
        SolveResult::Sat(model) => {
            let v = model.value(m.var(x)).unwrap().as_num().unwrap().clone();
            assert!(v >= q(200) && v <= q(255) && v.is_integer());
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn unsupported_sorts_and_malformed_formulas_are_unknown() {
    let mut f = Formula::new();
    let x = var(&mut f, "x", Sort::Fp(FpFormat::F64), Domain::unbounded());
    let y = var(&mut f, "y", Sort::Fp(FpFormat::F64), Domain::unbounded());
    let z = var(&mut f, "z", Sort::Fp(FpFormat::F64), Domain::unbounded());
    f.add_def(Def {
        out: z,
        op: Op::FAdd(solver::RoundingMode::Rne),
        args: vec![x, y],
    });
    let mut s = solver();
    let m = s.add_formula(&f);
    // IEEE sums are supported: the point is exact
    match s.solve(&[]) {
        SolveResult::Sat(model) => {
            let val = |v: Var| match model.value(m.var(v)) {
                Some(solver::Value::Fp(b)) => *b,
                other => panic!("{other:?}"),
            };
            let sum =
                solver::num::ieee::add(FpFormat::F64, solver::RoundingMode::Rne, val(x), val(y));
            assert!(solver::num::ieee::same(FpFormat::F64, sum, val(z)));
        }
        r => panic!("{r:?}"),
    }
    // a real-number operation over IEEE variables is not supported: never SAT
    let mut h = f.clone();
    let w = var(&mut h, "w", Sort::Fp(FpFormat::F64), Domain::unbounded());
    h.add_def(Def {
        out: w,
        op: Op::Mul,
        args: vec![x, y],
    });
    let mut s = solver();
    s.add_formula(&h);
    assert!(matches!(s.solve(&[]), SolveResult::Unknown(_)));
    // a definition over a variable that does not exist
    let mut g = Formula::new();
    let a = var(&mut g, "a", Sort::Real, Domain::unbounded());
    g.add_def(Def {
        out: a,
        op: Op::Abs,
        args: vec![Var(17)],
    });
    let mut s = solver();
    let m = s.add_formula(&g);
    assert!(m.vars.is_empty());
    match s.solve(&[]) {
        SolveResult::Unknown(why) => assert!(why.contains("malformed"), "{why}"),
        r => panic!("{r:?}"),
    }
}

/// TRANS: x' = x + 1 over integers, as a linear definition h = x' - x and the root h = 1.
fn trans() -> (Formula, Var, Var) {
    let mut f = Formula::new();
    let x = var(&mut f, "x", Sort::Int, Domain::closed(q(0), q(100)));
    let xn = var(&mut f, "x'", Sort::Int, Domain::closed(q(0), q(100)));
    let h = var(&mut f, "h", Sort::Int, Domain::unbounded());
    f.add_def(Def {
        out: h,
        op: Op::Linear {
            coeffs: vec![q(1), q(-1)],
            constant: q(0),
        },
        args: vec![xn, x],
    });
    let le = bound(&mut f, h, Rel::Le, 1);
    let ge = bound(&mut f, h, Rel::Ge, 1);
    f.add_root(le);
    f.add_root(ge);
    (f, x, xn)
}

#[test]
fn unrolling_with_bound_variables() {
    let (t, x, xn) = trans();
    let mut s = solver();
    let x0 = s.new_var(Sort::Int, &Domain::closed(q(0), q(100)));
    let zero = s.bound_lit(x0, Rel::Le, &q(0));
    s.add_clause(&[zero]);
    let mut cur = x0;
    for _ in 0..3 {
        let m = s.add_formula_with(&t, &[(x, cur)], Roots::Assert).unwrap();
        assert_eq!(m.var(x), cur);
        cur = m.var(xn);
    }
    let is3 = s.bound_lit(cur, Rel::Ge, &q(3));
    let is4 = s.bound_lit(cur, Rel::Ge, &q(4));
    assert!(s.solve(&[is3]).is_sat());
    assert!(s.solve(&[is4]).is_unsat());
    // sort mismatch in a binding is an error, nothing added
    let b = s.new_bool();
    assert!(s.add_formula_with(&t, &[(x, b)], Roots::Assert).is_err());
    // roots left to the caller: assert the negation of TRANS for one step
    let (t, x, _) = trans();
    let mut s = solver();
    let m = s.add_formula_with(&t, &[], Roots::Leave).unwrap();
    let negated: Vec<_> = m.roots.iter().map(|&r| !r).collect();
    s.add_clause(&negated);
    let r = s.solve(&[]);
    match r {
        SolveResult::Sat(model) => {
            let a = model.value(m.var(x)).unwrap().as_num().unwrap().clone();
            let b = model.value(m.var(t.vars.keys().nth(1).unwrap())).unwrap();
            assert_ne!(b.as_num().unwrap() - &a, q(1));
        }
        r => panic!("{r:?}"),
    }
}
