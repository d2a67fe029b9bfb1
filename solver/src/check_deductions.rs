//! Independent re-checking of every theory deduction (cargo feature `check-deductions`;
//! DESIGN §5, §6).
//!
//! The idea: an ICP deduction `reason ⇒ bound` is sound iff no point of the *reason box*
//! (each variable of the definition restricted by its level-0 bounds and by the bound
//! literals of the reason, nothing else) that lies on the excluded side of the new bound
//! satisfies the definition. We cannot enumerate the reals, so we test that claim on sample
//! points with exact rational arithmetic ([`crate::contractors::check`]), never with
//! intervals: for a deduction on an argument we fix that argument on the excluded side —
//! right next to the new bound first, where off-by-one-ulp and strictness mistakes show — and
//! the other arguments at the ends, just inside open ends, the middle and random points of
//! their reason boxes; then we compute the output exactly and check that it falls outside
//! the output's reason box. For a deduction on the output we compute it from sampled
//! arguments and check it is not on the excluded side inside its box. Outputs that are
//! unspecified (division by zero, even roots of negatives) may take any value. Roots that
//! are irrational are located exactly by [`crate::contractors::check::nrt_in`]. A conflict is
//! a deduction whose excluded side is everything. Boolean deductions (if-then-else
//! conditions, `bool2num`) are checked the same way with the condition fixed to the excluded
//! value. Any sample that satisfies the definition is a counterexample and panics with the
//! definition, the boxes and the point.
//!
//! The checks cost exact arithmetic per deduction: the feature is for tests, not for use.

use crate::bound_table::{Lb, Ub};
use crate::contractors::{check, check_bv, check_transcendental, Transcendental};
use crate::formula::Op;
use crate::interval::Interval;
use crate::lit::Lit;
use crate::num::Rational;
use crate::solve::{AtomKind, Solver, VarKind};
use crate::var::Var;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// What a deduction excludes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Excluded {
    /// the numeric variable's values outside `keep`
    Num(Var, Interval),
    /// the Boolean variable's value `v`
    Bool(Var, bool),
    /// everything (a conflict)
    All,
}

/// A value set for one variable in the reason box.
#[derive(Clone, Debug)]
enum VBox {
    Num(Interval),
    Bool(Option<bool>),
}

fn rat(x: f64) -> Rational {
    Rational::from_float(x).unwrap_or_else(Rational::zero)
}

/// A positive number far below the spacing of doubles near `x` (2^-60 relative), so that
/// `x ± tiny(x)` is "right next to" `x` without huge rationals for ordinary magnitudes.
fn tiny(x: f64) -> Rational {
    let e = if x == 0.0 || !x.is_finite() {
        -80
    } else {
        (x.abs().log2().floor() as i64 - 60).max(-1100)
    };
    if e >= 0 {
        Rational::from_integer(BigInt::one() << e as usize)
    } else {
        Rational::new(BigInt::one(), BigInt::one() << (-e) as usize)
    }
}

/// Sample points of an interval (exact rationals), biased to the ends.
fn samples(iv: Interval, rng: &mut u64, n_random: usize) -> Vec<Rational> {
    let mut out = Vec::new();
    if iv.is_empty() {
        return out;
    }
    let (lo, hi) = (iv.lo(), iv.hi());
    // unbounded ends: far, but not so far that exact products explode
    let big = Rational::from_integer(BigInt::from(1) << 70usize);
    let lo_r = if lo.is_finite() {
        rat(lo)
    } else {
        -big.clone()
    };
    let hi_r = if hi.is_finite() { rat(hi) } else { big.clone() };
    let inside = |q: &Rational| -> bool {
        (!lo.is_finite() || q > &lo_r || (q == &lo_r && !iv.lo_open()))
            && (!hi.is_finite() || q < &hi_r || (q == &hi_r && !iv.hi_open()))
    };
    let push = |q: Rational, out: &mut Vec<Rational>| {
        if inside(&q) && !out.contains(&q) {
            out.push(q);
        }
    };
    push(lo_r.clone(), &mut out);
    push(hi_r.clone(), &mut out);
    push(lo_r.clone() + tiny(lo), &mut out);
    push(hi_r.clone() - tiny(hi), &mut out);
    let mid = (lo_r.clone() + hi_r.clone()) / Rational::from_integer(2.into());
    push(mid, &mut out);
    push(Rational::zero(), &mut out);
    push(Rational::one(), &mut out);
    push(-Rational::one(), &mut out);
    for _ in 0..n_random {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let t = Rational::new(BigInt::from(*rng % 1024), BigInt::from(1024));
        push(lo_r.clone() + (hi_r.clone() - lo_r.clone()) * t, &mut out);
    }
    out
}

/// Points of `whole` outside `keep`, next to `keep` first.
fn excluded_samples(whole: Interval, keep: Interval, rng: &mut u64) -> Vec<Rational> {
    let mut out = Vec::new();
    let mut pieces = Vec::new();
    if keep.is_empty() {
        pieces.push(whole);
    } else {
        if keep.lo() > f64::NEG_INFINITY {
            pieces.push(whole.intersect(Interval::at_most(keep.lo(), !keep.lo_open())));
        }
        if keep.hi() < f64::INFINITY {
            pieces.push(whole.intersect(Interval::at_least(keep.hi(), !keep.hi_open())));
        }
    }
    for p in pieces {
        out.extend(samples(p, rng, 3));
    }
    // exact neighbours of the kept ends, which the double pieces above may miss
    if !keep.is_empty() {
        let cand = [
            (keep.lo().is_finite() && keep.lo_open()).then(|| rat(keep.lo())),
            keep.lo()
                .is_finite()
                .then(|| rat(keep.lo()) - tiny(keep.lo())),
            (keep.hi().is_finite() && keep.hi_open()).then(|| rat(keep.hi())),
            keep.hi()
                .is_finite()
                .then(|| rat(keep.hi()) + tiny(keep.hi())),
        ];
        for q in cand.into_iter().flatten() {
            if whole.contains_rational(&q) && !keep.contains_rational(&q) && !out.contains(&q) {
                out.push(q);
            }
        }
    }
    out
}

impl Solver {
    /// The box of `v` given by its level-0 bounds and the bound literals among `reason`.
    fn reason_box(&self, v: Var, reason: &[Lit]) -> VBox {
        match self.vars[v].kind {
            VarKind::Bool => {
                let a = self.vars[v].bool_atom.expect("bool");
                let mut val = None;
                if self.level[a.index()] == 0 && self.value[a.index()] != 0 {
                    val = Some(self.value[a.index()] > 0);
                }
                for &l in reason {
                    if l.atom() == a {
                        val = Some(!l.is_negated());
                    }
                }
                VBox::Bool(val)
            }
            VarKind::Unsupported => VBox::Num(Interval::ENTIRE),
            _ => {
                let mut lb: Lb = self.root_lb[v];
                let mut ub: Ub = self.root_ub[v];
                for &l in reason {
                    if let AtomKind::Bound(i) = self.atom_kind[l.atom().index()] {
                        let b = &self.bound_atoms[i as usize];
                        if b.var != v {
                            continue;
                        }
                        if l.is_negated() {
                            if b.if_false.implies(lb) {
                                lb = b.if_false;
                            }
                        } else if b.if_true.implies(ub) {
                            ub = b.if_true;
                        }
                    }
                }
                let iv = Interval::new(lb.v, lb.strict, ub.v, ub.strict);
                VBox::Num(if self.vars[v].kind == VarKind::Int {
                    iv.round_integral()
                } else {
                    iv
                })
            }
        }
    }

    /// Panics if the deduction of propagator `p` with this reason is refuted by a sample.
    pub(crate) fn check_deduction(&mut self, p: u32, reason: &[Lit], excluded: Excluded) {
        let def = &self.defs[self.props[p as usize].def as usize];
        let (out, op, args) = (def.out, def.op.clone(), def.args.clone());
        let mut vars = vec![out];
        vars.extend(args.iter().copied());
        let boxes: Vec<VBox> = vars.iter().map(|&v| self.reason_box(v, reason)).collect();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ self.stats.icp_contractions;
        // candidate values per position: numbers or Booleans
        let mut cands: Vec<Vec<Option<Rational>>> = Vec::new();
        let mut bools: Vec<Vec<bool>> = Vec::new();
        for (k, (&v, b)) in vars.iter().zip(&boxes).enumerate() {
            let (mut nums, mut bs) = (Vec::new(), Vec::new());
            match b {
                VBox::Bool(val) => {
                    bs = match val {
                        Some(x) => vec![*x],
                        None => vec![false, true],
                    };
                    if let Excluded::Bool(t, x) = excluded {
                        if t == v {
                            bs = if bs.contains(&x) { vec![x] } else { vec![] };
                        }
                    }
                    nums.push(None);
                }
                VBox::Num(iv) => {
                    let mut pts = match excluded {
                        Excluded::Num(t, keep) if t == v && k > 0 => {
                            excluded_samples(*iv, keep, &mut rng)
                        }
                        _ => samples(*iv, &mut rng, 1),
                    };
                    if self.vars[v].kind == VarKind::Int {
                        // integers only: the neighbours of each sample that stay admissible
                        let keep = match excluded {
                            Excluded::Num(t, keep) if t == v && k > 0 => Some(keep),
                            _ => None,
                        };
                        let mut ints = Vec::new();
                        for p in &pts {
                            for c in [p.floor(), p.ceil()] {
                                let ok = iv.contains_rational(&c)
                                    && keep.is_none_or(|kp| !kp.contains_rational(&c));
                                if ok && !ints.contains(&c) {
                                    ints.push(c);
                                }
                            }
                        }
                        pts = ints;
                    }
                    nums = pts.into_iter().map(Some).collect();
                    bs.push(false);
                }
            }
            cands.push(nums);
            bools.push(bs);
        }
        // enumerate argument combinations (bounded), the output is computed or located
        let nargs = args.len();
        let mut count = 0usize;
        let mut idx = vec![0usize; nargs];
        let mut bidx = vec![0usize; nargs];
        let sizes: Vec<usize> = (1..=nargs)
            .map(|k| {
                if matches!(boxes[k], VBox::Bool(_)) {
                    bools[k].len()
                } else {
                    cands[k].len()
                }
            })
            .collect();
        if sizes.contains(&0) {
            return;
        }
        loop {
            count += 1;
            if count > 400 {
                break;
            }
            let mut argv: Vec<Rational> = Vec::with_capacity(nargs);
            let mut argb: Vec<bool> = Vec::with_capacity(nargs);
            for k in 0..nargs {
                if matches!(boxes[k + 1], VBox::Bool(_)) {
                    let b = bools[k + 1][bidx[k]];
                    argb.push(b);
                    argv.push(if b { Rational::one() } else { Rational::zero() });
                } else {
                    argb.push(false);
                    argv.push(cands[k + 1][idx[k]].clone().unwrap_or_default());
                }
            }
            self.check_point(p, &op, out, &boxes[0], &argv, &argb, excluded, &boxes);
            // next combination (odometer; random jumps for long linear sums)
            let mut k = 0;
            loop {
                if k == nargs {
                    return;
                }
                let is_bool = matches!(boxes[k + 1], VBox::Bool(_));
                let slot = if is_bool { &mut bidx[k] } else { &mut idx[k] };
                *slot += 1;
                if *slot < sizes[k] {
                    break;
                }
                *slot = 0;
                k += 1;
            }
            if nargs > 4 && count > 64 {
                break;
            }
        }
    }

    /// Checks one argument point: refutes the deduction if some output value satisfying the
    /// definition lies in the refuting set (the output's reason box, minus the kept part for
    /// a deduction on the output itself).
    #[allow(clippy::too_many_arguments)]
    fn check_point(
        &self,
        p: u32,
        op: &Op,
        out: Var,
        out_box: &VBox,
        argv: &[Rational],
        argb: &[bool],
        excluded: Excluded,
        boxes: &[VBox],
    ) {
        let fail = |what: &str| -> ! {
            let def = &self.defs[self.props[p as usize].def as usize];
            panic!(
                "check-deductions: unsound deduction by {:?} (out v{}, args {:?}): {what}; \
                 excluded {:?}; reason boxes (out, args...) {:?}; args {:?}",
                def.op, out.0, def.args, excluded, boxes, argv
            );
        };
        let out_iv = match out_box {
            VBox::Num(iv) => *iv,
            VBox::Bool(_) => return,
        };
        // the refuting output values, as up to two pieces
        let pieces: Vec<Interval> = match excluded {
            Excluded::Num(t, keep) if t == out => {
                if keep.is_empty() {
                    vec![out_iv]
                } else {
                    let mut v = Vec::new();
                    if keep.lo() > f64::NEG_INFINITY {
                        v.push(out_iv.intersect(Interval::at_most(keep.lo(), !keep.lo_open())));
                    }
                    if keep.hi() < f64::INFINITY {
                        v.push(out_iv.intersect(Interval::at_least(keep.hi(), !keep.hi_open())));
                    }
                    v
                }
            }
            _ => vec![out_iv],
        };
        let pieces: Vec<Interval> = pieces.into_iter().filter(|i| !i.is_empty()).collect();
        if pieces.is_empty() {
            return;
        }
        let in_refuting = |v: &Rational| pieces.iter().any(|i| i.contains_rational(v));
        let value: Rational = match op {
            Op::Ite => {
                if argb[0] {
                    argv[1].clone()
                } else {
                    argv[2].clone()
                }
            }
            Op::BoolToNum => {
                if argb[0] {
                    Rational::one()
                } else {
                    Rational::zero()
                }
            }
            Op::Convert => {
                let a = &argv[0];
                let out_kind = self.vars[out].kind;
                let arg_kind =
                    self.vars[self.defs[self.props[p as usize].def as usize].args[0]].kind;
                let fits = match self.vars[out].sort {
                    crate::formula::Sort::MachineInt(t) => {
                        a.is_integer() && t.contains(&a.to_integer())
                    }
                    _ => true,
                };
                let unspecified = !fits
                    || (out_kind == VarKind::Int && arg_kind == VarKind::Real && !a.is_integer());
                if unspecified {
                    fail("an unspecified conversion admits an output in the box")
                }
                a.clone()
            }
            Op::Nrt(n) => {
                let a = &argv[0];
                if check::cmp_nrt(&Rational::zero(), a, *n).is_none() {
                    fail("an unspecified root admits an output in the box")
                }
                if pieces
                    .iter()
                    .any(|i| check::nrt_in(*i, a, *n) == Some(true))
                {
                    fail("the root lies in the refuting set");
                }
                return;
            }
            Op::Div if argv[1].is_zero() => fail("division by zero admits an output in the box"),
            op if Transcendental::from_op(op).is_some() => {
                // The value is irrational in general: ask the high-precision MPFR checker
                // whether it provably lies in a refuting piece (unspecified values lie
                // everywhere, so they count as a counterexample too).
                let Some(f) = Transcendental::from_op(op) else {
                    return;
                };
                if pieces
                    .iter()
                    .any(|i| check_transcendental::definitely_in(f, &argv[0], *i) == Some(true))
                {
                    fail("the function's value lies in the refuting set");
                }
                return;
            }
            op if check_bv::is_bv(op) => {
                let crate::formula::Sort::MachineInt(t) = self.vars[out].sort else {
                    return;
                };
                match check_bv::eval_rational(op, t, argv) {
                    Some(check_bv::BvValue::Value(v)) => Rational::from_integer(v),
                    Some(check_bv::BvValue::Unspecified) => {
                        fail("an unspecified machine-integer result admits an output in the box")
                    }
                    // an argument sample outside its type (cannot occur in a reason box)
                    None => return,
                }
            }
            _ => match check::eval(op, argv) {
                Some(v) => v,
                None => return,
            },
        };
        if value.numer().bits() + value.denom().bits() > 20_000 {
            return;
        }
        if in_refuting(&value) {
            fail(&format!("output {value} satisfies the definition"));
        }
        let _ = value.is_negative();
    }
}
