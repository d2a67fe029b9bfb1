//! The solver on IEEE-754 problems (issue #4): every SAT answer is a float point that the
//! solver's exact check accepted, re-checked here with the exact operations of
//! `solver::num::ieee`; UNSAT answers are on problems whose answer is known by exact
//! reasoning (stated per test).

use solver::formula::{Atom, Def, Domain, Formula, Op, Sort, VarInfo, VarOrigin};
use solver::num::ieee;
use solver::{FpFormat, Rational, RoundingMode, SolveResult, Solver, SolverConfig, Value, Var};

const F64: FpFormat = FpFormat::F64;
const F32: FpFormat = FpFormat::F32;
const RNE: RoundingMode = RoundingMode::Rne;

struct P {
    f: Formula,
}

impl P {
    fn new() -> P {
        P { f: Formula::new() }
    }
    fn var(&mut self, name: &str, sort: Sort, domain: Domain) -> Var {
        self.f.add_var(VarInfo {
            name: name.into(),
            sort,
            domain,
            origin: VarOrigin::Declared { span: (0, 0) },
            fp_const: None,
        })
    }
    fn fp(&mut self, name: &str, fmt: FpFormat) -> Var {
        self.var(name, Sort::Fp(fmt), Domain::unbounded())
    }
    fn fp_range(&mut self, name: &str, fmt: FpFormat, lo: f64, hi: f64) -> Var {
        let d = Domain::closed(
            Rational::from_float(lo).unwrap(),
            Rational::from_float(hi).unwrap(),
        );
        self.var(name, Sort::Fp(fmt), d)
    }
    fn konst(&mut self, fmt: FpFormat, bits: u64) -> Var {
        let v = self.f.add_var(VarInfo {
            name: format!("{fmt:?}:{bits:#x}"),
            sort: Sort::Fp(fmt),
            domain: Domain::unbounded(),
            origin: VarOrigin::Constant,
            fp_const: Some(bits),
        });
        v
    }
    fn def(&mut self, op: Op, args: Vec<Var>, out_sort: Sort) -> Var {
        let out = self.var("h", out_sort, Domain::unbounded());
        self.f.add_def(Def { out, op, args });
        out
    }
    /// asserts the Boolean `b` (or its negation)
    fn assert(&mut self, b: Var, positive: bool) {
        let l = self.f.atom_lit(Atom::Bool(b));
        self.f.add_root(if positive { l } else { !l });
    }
    fn solve(&self) -> (SolveResult, solver::FormulaMap) {
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        s.set_time_limit(std::time::Duration::from_secs(20));
        let m = s.add_formula(&self.f);
        let r = s.solve(&[]);
        if std::env::var("IEEE_STATS").is_ok() {
            eprintln!("{:?}", s.stats());
        }
        (r, m)
    }
}

fn fp_value(r: &SolveResult, m: &solver::FormulaMap, v: Var) -> u64 {
    match r.model().and_then(|md| md.value(m.var(v))) {
        Some(Value::Fp(b)) => *b,
        other => panic!("no float for the variable: {other:?} in {r:?}"),
    }
}

#[test]
fn not_feq_x_x_is_nan() {
    let mut p = P::new();
    let x = p.fp("x", F64);
    let e = p.def(Op::FEq, vec![x, x], Sort::Bool);
    p.assert(e, false);
    let (r, m) = p.solve();
    assert!(r.is_sat(), "{r:?}");
    assert!(F64.is_nan(fp_value(&r, &m, x)));
}

#[test]
fn float_addition_is_not_associative() {
    // fp64 [0,1] a, b, c; not feq((a+b)+c, a+(b+c)) — satisfiable (e.g. 0.1, 0.2, 0.3)
    let mut p = P::new();
    let a = p.fp_range("a", F64, 0.0, 1.0);
    let b = p.fp_range("b", F64, 0.0, 1.0);
    let c = p.fp_range("c", F64, 0.0, 1.0);
    let ab = p.def(Op::FAdd(RNE), vec![a, b], Sort::Fp(F64));
    let l = p.def(Op::FAdd(RNE), vec![ab, c], Sort::Fp(F64));
    let bc = p.def(Op::FAdd(RNE), vec![b, c], Sort::Fp(F64));
    let r_ = p.def(Op::FAdd(RNE), vec![a, bc], Sort::Fp(F64));
    let e = p.def(Op::FEq, vec![l, r_], Sort::Bool);
    p.assert(e, false);
    let (r, m) = p.solve();
    assert!(r.is_sat(), "{r:?}");
    let (va, vb, vc) = (
        fp_value(&r, &m, a),
        fp_value(&r, &m, b),
        fp_value(&r, &m, c),
    );
    let lhs = ieee::add(F64, RNE, ieee::add(F64, RNE, va, vb), vc);
    let rhs = ieee::add(F64, RNE, va, ieee::add(F64, RNE, vb, vc));
    assert!(!ieee::eq(F64, lhs, rhs));
    for v in [va, vb, vc] {
        let x = f64::from_bits(v);
        assert!((0.0..=1.0).contains(&x));
    }
}

#[test]
fn one_e20_plus_one_is_one_e20() {
    // big = 1e20 ∧ ¬feq(big + 1, big): unsatisfiable in binary64 (footnote 1 of the paper)
    let mut p = P::new();
    let big = p.fp("big", F64);
    let k = p.konst(F64, 1e20f64.to_bits());
    let one = p.konst(F64, 1f64.to_bits());
    let same = p.def(Op::FSame, vec![big, k], Sort::Bool);
    p.assert(same, true);
    let sum = p.def(Op::FAdd(RNE), vec![big, one], Sort::Fp(F64));
    let e = p.def(Op::FEq, vec![sum, big], Sort::Bool);
    p.assert(e, false);
    let (r, _) = p.solve();
    assert!(r.is_unsat(), "{r:?}");
}

#[test]
fn absorbing_half_is_found_without_crawling_from_zero() {
    // 0 <= s ∧ s1 = s + 0.5 ∧ s1 same s: only floats where 0.5 is absorbed (s ≥ 2^53, +inf)
    // solve it; ICP must not walk s up half by half over [0, +inf) (an upper end of +inf
    // once made every lower-bound step count as progress)
    let mut p = P::new();
    let s = p.fp("s", F64);
    let zero = p.konst(F64, 0);
    let half = p.konst(F64, 0.5f64.to_bits());
    let ge = p.def(Op::FLe, vec![zero, s], Sort::Bool);
    p.assert(ge, true);
    let s1 = p.def(Op::FAdd(RNE), vec![s, half], Sort::Fp(F64));
    let same = p.def(Op::FSame, vec![s1, s], Sort::Bool);
    p.assert(same, true);
    let mut sv = Solver::new(SolverConfig::default()).unwrap();
    sv.set_time_limit(std::time::Duration::from_secs(20));
    let m = sv.add_formula(&p.f);
    let r = sv.solve(&[]);
    assert!(r.is_sat(), "{r:?}");
    let x = f64::from_bits(fp_value(&r, &m, s));
    assert!(x >= 9007199254740992.0 && x + 0.5 == x, "{x}");
    assert!(sv.stats().icp_runs < 10_000, "{:?}", sv.stats());
}

#[test]
fn division_overflows_to_minus_infinity() {
    // 1 / x = -inf holds for x = -0 and for negative x so small that 1/x overflows
    // (binary32: |x| < 2^-128 + …); with x ≠ -0 required only the second kind remains
    for exclude_zero in [false, true] {
        let mut p = P::new();
        let x = p.fp("x", F32);
        let one = p.konst(F32, 1f32.to_bits() as u64);
        let ninf = p.konst(F32, f32::NEG_INFINITY.to_bits() as u64);
        let q = p.def(Op::FDiv(RNE), vec![one, x], Sort::Fp(F32));
        let e = p.def(Op::FSame, vec![q, ninf], Sort::Bool);
        p.assert(e, true);
        if exclude_zero {
            let z = p.def(Op::IsZero, vec![x], Sort::Bool);
            p.assert(z, false);
        }
        let (r, m) = p.solve();
        assert!(r.is_sat(), "{r:?}");
        let xv = fp_value(&r, &m, x);
        assert_eq!(ieee::div(F32, RNE, 1f32.to_bits() as u64, xv), ninf_bits());
        let xf = f32::from_bits(xv as u32);
        assert!(xf.is_sign_negative() && xf > -1e-38, "{xf}");
        if exclude_zero {
            assert!(xf != 0.0);
        }
    }
}

fn ninf_bits() -> u64 {
    f32::NEG_INFINITY.to_bits() as u64
}

#[test]
fn identity_distinguishes_zeros_but_feq_does_not() {
    // x = +0 (identity), feq(x, y), ¬(x same y): y must be -0
    let mut p = P::new();
    let x = p.fp("x", F64);
    let y = p.fp("y", F64);
    let z = p.konst(F64, 0);
    let s = p.def(Op::FSame, vec![x, z], Sort::Bool);
    p.assert(s, true);
    let e = p.def(Op::FEq, vec![x, y], Sort::Bool);
    p.assert(e, true);
    let d = p.def(Op::FSame, vec![x, y], Sort::Bool);
    p.assert(d, false);
    let (r, m) = p.solve();
    assert!(r.is_sat(), "{r:?}");
    assert_eq!(fp_value(&r, &m, y), (-0.0f64).to_bits());
}

#[test]
fn a_range_excludes_nan_and_infinities() {
    // fp32 [-1, 1] x; isnan(x) ∨ isinf(x) is unsatisfiable
    let mut p = P::new();
    let x = p.fp_range("x", F32, -1.0, 1.0);
    let n = p.def(Op::IsNan, vec![x], Sort::Bool);
    let i = p.def(Op::IsInf, vec![x], Sort::Bool);
    let ln = p.f.atom_lit(Atom::Bool(n));
    let li = p.f.atom_lit(Atom::Bool(i));
    // root: n ∨ i, through a Tseitin variable t ↔ (n ∨ i)
    let t = p.var("t", Sort::Bool, Domain::unbounded());
    let lt = p.f.atom_lit(Atom::Bool(t));
    p.f.add_clause(vec![!lt, ln, li]);
    p.f.add_clause(vec![lt, !ln]);
    p.f.add_clause(vec![lt, !li]);
    p.f.add_root(lt);
    let (r, _) = p.solve();
    assert!(r.is_unsat(), "{r:?}");
}

#[test]
fn an_out_of_range_conversion_is_unspecified_not_false() {
    // x = 1e30, k = to_int32(x), k = 5: the truncation leaves int32, so k is any int32
    // (language doc B.2) and the formula is satisfiable in principle — never UNSAT
    let mut p = P::new();
    let x = p.fp("x", F64);
    let big = p.konst(F64, 1e30f64.to_bits());
    let s = p.def(Op::FSame, vec![x, big], Sort::Bool);
    p.assert(s, true);
    let t = solver::IntType::new(32, true);
    let k = p.def(Op::FpToInt, vec![x], Sort::MachineInt(t));
    let five = p.f.atom_lit(Atom::Bound {
        var: k,
        rel: solver::Rel::Le,
        value: Rational::from_integer(5.into()),
    });
    let five_lo = p.f.atom_lit(Atom::Bound {
        var: k,
        rel: solver::Rel::Ge,
        value: Rational::from_integer(5.into()),
    });
    p.f.add_root(five);
    p.f.add_root(five_lo);
    let (r, _) = p.solve();
    assert!(!r.is_unsat(), "{r:?}");
}
