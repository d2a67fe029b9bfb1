//! Interval constraint propagation (paper §2.3 (2): "ICP supplements BCP ... to provide
//! currently necessary clauses and simple bound literals").
//!
//! The idea: one propagator per definition `out = op(args)` narrows the boxes of its
//! variables with the pure forward/backward functions of [`crate::contractors`]. A
//! propagator runs when a variable it reads changed (the worklist is keyed by variable, see
//! [`Solver::schedule_var`]) and BCP is at its fixpoint. Every narrowed end that makes enough
//! progress (the minimal progress threshold `mpr`, see [`crate::config`]) is posted as a bound
//! literal — an existing atom if one has exactly that bound, else a fresh one — whose
//! *reason* is the list of bound literals currently responsible for the input bounds used.
//! Reasons are eager (copied to the theory arena, popped on backtracking). Linear sums get
//! precise reasons (only the ends that the deduced end depends on, by coefficient sign);
//! the other operations use the bounds of all their variables. A contraction to the empty
//! set is a conflict over the same literals plus the variable's own bounds.
//!
//! Adding an operation: a [`PropKind`] variant (or, for unary functions with the shape
//! `fwd(a) -> Interval`, `bwd(out, a) -> Interval`, just a line in [`make_prop`] using
//! [`PropKind::Unary`]) and its case in [`Solver::run_prop`].

use crate::bound_table::{bounds_empty, BoundAtom, Lb, Ub};
use crate::contractors::{self, LinearCoeffs};
use crate::formula::{Op, Sort};
use crate::interval::Interval;
use crate::lit::{LBool, Lit};
use crate::solve::{Conflict, Reason, Solver, VarKind};
use crate::var::Var;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

/// A pure forward contractor of a unary function.
type UnaryFwd = fn(Interval) -> Interval;
/// A pure backward contractor of a unary function: `(out, a) -> new a`.
type UnaryBwd = fn(Interval, Interval) -> Interval;

/// How a propagator contracts.
#[derive(Clone, Debug)]
pub(crate) enum PropKind {
    /// `out = Σ c_i·x_i + k`; `sign[i]` is the sign of the exact coefficient
    Linear {
        lc: LinearCoeffs,
        sign: Vec<i8>,
    },
    Mul,
    Pow(u32),
    Nrt(u32),
    Div,
    /// a unary function given by its pure forward and backward contractors
    Unary {
        fwd: UnaryFwd,
        bwd: UnaryBwd,
    },
    Min,
    Max,
    /// `out = if a then b else c`, `a` Boolean, numeric branches
    Ite,
    /// `out = if a then 1 else 0`
    BoolToNum,
    /// `out = a` exactly; `fit`: the values the output's type can hold (outside, the output is
    /// unspecified); `linked`: whether the value is carried over at all (not from a real into
    /// an integer, where non-integral values are unspecified)
    Convert {
        fit: Interval,
        linked: bool,
    },
    /// an IEEE operation (module `icp_fp`)
    Fp(crate::icp_fp::FpProp),
    /// machine integers (`Bv*`, and `Convert` of an integer into a machine type): see
    /// [`crate::icp_bv`]
    Bv(crate::icp_bv::BvProp),
}

#[derive(Clone, Debug)]
pub(crate) struct Prop {
    /// index into `Solver::defs` (for messages of the deduction checker)
    #[cfg_attr(not(feature = "check-deductions"), allow(dead_code))]
    pub def: u32,
    pub out: Var,
    pub args: Vec<Var>,
    pub kind: PropKind,
}

/// Bound changes of one variable since the last decision before ICP treats further steps
/// as a crawl towards a limit (and demands progress against the splitting width).
const CRAWL_STEPS: u32 = 8;

/// Which end(s) of a new interval to post.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Lower,
    Upper,
}

/// What posting one end would do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum EndAction {
    Nothing,
    /// the end crosses the opposite bound
    Empty,
    Tighten,
}

/// The propagator of `out = op(args)`, or why the solver cannot handle it.
pub(crate) fn make_prop(s: &Solver, out: Var, op: &Op, args: &[Var]) -> Result<Prop, String> {
    let unsupported = || Err(format!("unsupported operation {}", op.name()));
    let kind_of = |v: Var| s.vars[v].kind;
    let num = |v: Var| matches!(kind_of(v), VarKind::Int | VarKind::Real);
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!(
                "operation {} with {} arguments (expected {n})",
                op.name(),
                args.len()
            ))
        }
    };
    if let Some(fp) = crate::icp_fp::make_fp_prop(s, out, op, args) {
        return Ok(Prop {
            def: s.defs.len() as u32,
            out,
            args: args.to_vec(),
            kind: PropKind::Fp(fp),
        });
    }
    if [out]
        .iter()
        .chain(args)
        .any(|&v| kind_of(v) == VarKind::Unsupported)
    {
        return Err(format!(
            "unsupported operation {} (unsupported sort)",
            op.name()
        ));
    }
    let kind = match op {
        op if crate::icp_bv::handles(s, out, op, args) => {
            crate::icp_bv::make_bv_prop(s, out, op, args)?
        }
        Op::Linear { coeffs, constant } => {
            if coeffs.len() != args.len() {
                return Err("linear definition with mismatched coefficients".into());
            }
            let sign = coeffs
                .iter()
                .map(|c| {
                    if c.is_zero() {
                        0
                    } else if c.is_positive() {
                        1
                    } else {
                        -1
                    }
                })
                .collect();
            PropKind::Linear {
                lc: LinearCoeffs::new(coeffs, constant),
                sign,
            }
        }
        Op::Mul => {
            arity(2)?;
            PropKind::Mul
        }
        Op::Pow(n) => {
            arity(1)?;
            PropKind::Pow(*n)
        }
        Op::Nrt(n) => {
            arity(1)?;
            PropKind::Nrt(*n)
        }
        Op::Div => {
            arity(2)?;
            PropKind::Div
        }
        Op::Abs => {
            arity(1)?;
            PropKind::Unary {
                fwd: contractors::fwd_abs,
                bwd: contractors::bwd_abs_a,
            }
        }
        Op::Sin
        | Op::Cos
        | Op::Tan
        | Op::Exp
        | Op::Exp2
        | Op::Exp10
        | Op::Log
        | Op::Log2
        | Op::Log10 => {
            arity(1)?;
            // Correctly rounded MPFR enclosures; unspecified regions (log of x <= 0, the
            // poles of tan) are left unconstrained by the contractors themselves.
            let (fwd, bwd): (UnaryFwd, UnaryBwd) = match op {
                Op::Sin => (contractors::fwd_sin, contractors::bwd_sin_a),
                Op::Cos => (contractors::fwd_cos, contractors::bwd_cos_a),
                Op::Tan => (contractors::fwd_tan, contractors::bwd_tan_a),
                Op::Exp => (contractors::fwd_exp, contractors::bwd_exp_a),
                Op::Exp2 => (contractors::fwd_exp2, contractors::bwd_exp2_a),
                Op::Exp10 => (contractors::fwd_exp10, contractors::bwd_exp10_a),
                Op::Log => (contractors::fwd_log, contractors::bwd_log_a),
                Op::Log2 => (contractors::fwd_log2, contractors::bwd_log2_a),
                _ => (contractors::fwd_log10, contractors::bwd_log10_a),
            };
            PropKind::Unary { fwd, bwd }
        }
        Op::Min => {
            arity(2)?;
            PropKind::Min
        }
        Op::Max => {
            arity(2)?;
            PropKind::Max
        }
        Op::Ite => {
            arity(3)?;
            if kind_of(args[0]) != VarKind::Bool {
                return Err("if-then-else with a non-Boolean condition".into());
            }
            PropKind::Ite
        }
        Op::BoolToNum => {
            arity(1)?;
            if kind_of(args[0]) != VarKind::Bool {
                return Err("bool2num of a non-Boolean".into());
            }
            PropKind::BoolToNum
        }
        Op::Convert => {
            arity(1)?;
            let fit = match s.vars[out].sort {
                Sort::MachineInt(t) => {
                    let lo = t.min_value();
                    let hi = t.max_value();
                    Interval::from_bounds(
                        Some((&crate::num::Rational::from_integer(lo), false)),
                        Some((&crate::num::Rational::from_integer(hi), false)),
                    )
                }
                _ => Interval::ENTIRE,
            };
            let linked = !(kind_of(args[0]) == VarKind::Real && kind_of(out) == VarKind::Int);
            PropKind::Convert { fit, linked }
        }
        _ => return unsupported(),
    };
    // numeric positions must be numeric variables
    let numeric_ok = match &kind {
        PropKind::Ite => num(out) && num(args[1]) && num(args[2]),
        PropKind::BoolToNum => num(out),
        _ => num(out) && args.iter().all(|&a| num(a)),
    };
    if !numeric_ok {
        return Err(format!(
            "operation {} over variables of unexpected sorts",
            op.name()
        ));
    }
    Ok(Prop {
        def: s.defs.len() as u32,
        out,
        args: args.to_vec(),
        kind,
    })
}

impl Solver {
    /// The current box of a numeric variable.
    #[inline]
    pub(crate) fn ibox(&self, v: Var) -> Interval {
        let (l, _) = self.lb[v];
        let (u, _) = self.ub[v];
        Interval::new(l.v, l.strict, u.v, u.strict)
    }

    #[inline]
    fn push_reason_lit(&mut self, l: Lit) {
        if !l.is_undef() && self.level[l.atom().index()] > 0 {
            self.reason_buf.push(l);
        }
    }

    /// Pushes the literals of `v`'s current lower and/or upper bound (or, for a Boolean, its
    /// true literal) onto `reason_buf`.
    #[inline]
    pub(crate) fn push_bounds(&mut self, v: Var, lower: bool, upper: bool) {
        match self.vars[v].kind {
            VarKind::Bool => {
                if let Some(a) = self.vars[v].bool_atom {
                    let val = self.value[a.index()];
                    if val != 0 {
                        self.push_reason_lit(Lit::new(a, val < 0));
                    }
                }
            }
            _ => {
                if lower {
                    let l = self.lb[v].1;
                    self.push_reason_lit(l);
                }
                if upper {
                    let u = self.ub[v].1;
                    self.push_reason_lit(u);
                }
            }
        }
    }

    /// What posting the `end` of `new` for `v` would do (integers rounded first).
    fn end_action(&self, v: Var, new: Interval, end: End) -> EndAction {
        let int = self.vars[v].kind == VarKind::Int;
        if new.is_empty() {
            return EndAction::Empty;
        }
        // An integer rounds only the end being tightened: the caller's reason explains that
        // end alone, and an interval such as [1/3, 2/3] holds no integer only because of
        // both ends (the other end's step finds the crossing with its own reason). Rounding
        // both ends here gave conflicts whose reasons missed a bound (check-deductions:
        // 1 <= 3x + 3y <= 2 over unbounded integers).
        let new = if int {
            one_end(new, end).round_integral()
        } else {
            new
        };
        let (clb, _) = self.lb[v];
        let (cub, _) = self.ub[v];
        let (old, newv, other_inf) = match end {
            End::Lower => {
                let nl = Lb::new(new.lo(), new.lo_open());
                if nl.cmp_tightness(clb) != Ordering::Greater {
                    return EndAction::Nothing;
                }
                if bounds_empty(nl, cub) {
                    return EndAction::Empty;
                }
                (clb.v, nl.v, !cub.v.is_finite())
            }
            End::Upper => {
                let nu = Ub::new(new.hi(), new.hi_open());
                if nu.cmp_tightness(cub) != Ordering::Less {
                    return EndAction::Nothing;
                }
                if bounds_empty(clb, nu) {
                    return EndAction::Empty;
                }
                (cub.v, nu.v, !clb.v.is_finite())
            }
        };
        if !old.is_finite() || old == newv {
            // from infinity, or only closed → open: always worth it
            return EndAction::Tighten;
        }
        let progress = (newv - old).abs();
        // relative to the width, but never more than relative to the bound's magnitude: a
        // bound moving from 0 to 1e-8 inside (0, 1e-4) is small against the width but is all
        // the information there is at that scale (think of `x1 > x0·(1 - x0²/40)`)
        let magnitude = old.abs().max(newv.abs());
        let w = cub.v - clb.v;
        let crawling = self.crawling(v);
        let scale = if other_inf || !w.is_finite() {
            magnitude.max(1.0)
        } else if int {
            w
        } else if crawling {
            // many steps on this variable since the last decision: only steps that are large
            // against the splitting width count as progress now
            w.max(self.config.msw)
        } else {
            w.min(magnitude)
        };
        if progress >= self.config.mpr * scale {
            EndAction::Tighten
        } else {
            EndAction::Nothing
        }
    }

    /// The literal asserting lower bound `nl` on `v` (an existing atom or a fresh one).
    pub(crate) fn lower_lit(&mut self, v: Var, nl: Lb) -> Lit {
        let int = self.vars[v].kind == VarKind::Int;
        let below = nl.v - 1.0;
        let ba = if int && !nl.strict && below + 1.0 == nl.v && below != nl.v {
            BoundAtom::int(v, below)
        } else {
            // x >= c is ¬(x < c), x > c is ¬(x <= c)
            BoundAtom::real(v, nl.v, !nl.strict)
        };
        !Lit::pos(self.intern_internal_atom(ba))
    }

    /// The literal asserting upper bound `nu` on `v`.
    pub(crate) fn upper_lit(&mut self, v: Var, nu: Ub) -> Lit {
        let int = self.vars[v].kind == VarKind::Int;
        let ba = if int && !nu.strict {
            BoundAtom::int(v, nu.v)
        } else {
            BoundAtom::real(v, nu.v, nu.strict)
        };
        Lit::pos(self.intern_internal_atom(ba))
    }

    /// Copies `reason_buf` to the theory arena.
    pub(crate) fn commit_reason(&mut self) -> Reason {
        let start = self.theory_arena.len() as u32;
        self.theory_arena.extend_from_slice(&self.reason_buf);
        Reason::Theory {
            start,
            len: self.reason_buf.len() as u32,
        }
    }

    /// A conflict: `reason_buf` plus the given bound literals of `v`.
    fn icp_conflict(&mut self, p: u32, v: Var, lower: bool, upper: bool) -> Conflict {
        self.push_bounds(v, lower, upper);
        self.confl_lits.clear();
        self.confl_lits.extend_from_slice(&self.reason_buf);
        #[cfg(feature = "check-deductions")]
        {
            let r = self.confl_lits.clone();
            self.check_deduction(p, &r, crate::check_deductions::Excluded::All);
        }
        let _ = p;
        Conflict::Lits
    }

    /// Posts one end of `new` for `v` with the reason in `reason_buf` (sharing `committed`
    /// between the ends of one deduction).
    fn apply_end(
        &mut self,
        p: u32,
        v: Var,
        new: Interval,
        end: End,
        act: EndAction,
        committed: &mut Option<Reason>,
    ) -> Result<(), Conflict> {
        match act {
            EndAction::Nothing => Ok(()),
            EndAction::Empty => {
                // new end crosses the opposite end (or `new` is empty: both ends)
                let int = self.vars[v].kind == VarKind::Int;
                // as in `end_action`: an integer's emptiness from this end alone
                let n = if int {
                    one_end(new, end).round_integral()
                } else {
                    new
                };
                let (lo, hi) = if n.is_empty() {
                    (true, true)
                } else {
                    (end == End::Upper, end == End::Lower)
                };
                Err(self.icp_conflict(p, v, lo, hi))
            }
            EndAction::Tighten => {
                let int = self.vars[v].kind == VarKind::Int;
                let n = if int {
                    one_end(new, end).round_integral()
                } else {
                    new
                };
                let lit = match end {
                    End::Lower => self.lower_lit(v, Lb::new(n.lo(), n.lo_open())),
                    End::Upper => self.upper_lit(v, Ub::new(n.hi(), n.hi_open())),
                };
                match self.lit_value(lit) {
                    LBool::True => return Ok(()),
                    LBool::False => {
                        // cannot happen for a tightening bound inside the box; stay sound
                        self.confl_lits.clear();
                        self.confl_lits.extend_from_slice(&self.reason_buf);
                        self.confl_lits.push(!lit);
                        return Err(Conflict::Lits);
                    }
                    LBool::Undef => {}
                }
                let r = match committed {
                    Some(r) => *r,
                    None => {
                        let r = self.commit_reason();
                        *committed = Some(r);
                        r
                    }
                };
                #[cfg(feature = "check-deductions")]
                {
                    let keep = match end {
                        End::Lower => Interval::at_least(n.lo(), n.lo_open()),
                        End::Upper => Interval::at_most(n.hi(), n.hi_open()),
                    };
                    let rl = self.reason_buf.clone();
                    self.check_deduction(p, &rl, crate::check_deductions::Excluded::Num(v, keep));
                }
                self.stats.icp_contractions += 1;
                self.count_step(v);
                self.assign(lit, r)
            }
        }
    }

    /// Counts a posted bound step of `v` since the last decision (see [`CRAWL_STEPS`]).
    pub(crate) fn count_step(&mut self, v: Var) {
        let (stamp, count) = self.crawl[v];
        self.crawl[v] = if stamp == self.stats.decisions {
            (stamp, count + 1)
        } else {
            (self.stats.decisions, 1)
        };
    }

    /// `v` moved [`CRAWL_STEPS`] times since the last decision: treat it as a crawl.
    pub(crate) fn crawling(&self, v: Var) -> bool {
        let (stamp, count) = self.crawl[v];
        stamp == self.stats.decisions && count >= CRAWL_STEPS
    }

    /// Posts both ends of `new` for `v`; the reason is built by pushing the bounds of `rvars`
    /// (all ends) only if something is posted.
    pub(crate) fn post_both(
        &mut self,
        p: u32,
        v: Var,
        new: Interval,
        rvars: &[Var],
    ) -> Result<(), Conflict> {
        let lo = self.end_action(v, new, End::Lower);
        let hi = self.end_action(v, new, End::Upper);
        if lo == EndAction::Nothing && hi == EndAction::Nothing {
            return Ok(());
        }
        self.reason_buf.clear();
        for &w in rvars {
            self.push_bounds(w, true, true);
        }
        self.post_ends(p, v, new, lo, hi)
    }

    /// Posts both ends of `new` for the numeric variable `v` with the reason already in
    /// `reason_buf` (for propagators that build their own reasons).
    pub(crate) fn post_with_reason(
        &mut self,
        p: u32,
        v: Var,
        new: Interval,
    ) -> Result<(), Conflict> {
        let lo = self.end_action(v, new, End::Lower);
        let hi = self.end_action(v, new, End::Upper);
        if lo == EndAction::Nothing && hi == EndAction::Nothing {
            return Ok(());
        }
        self.post_ends(p, v, new, lo, hi)
    }

    fn post_ends(
        &mut self,
        p: u32,
        v: Var,
        new: Interval,
        lo: EndAction,
        hi: EndAction,
    ) -> Result<(), Conflict> {
        let mut committed = None;
        if lo == EndAction::Empty || hi == EndAction::Empty {
            let end = if lo == EndAction::Empty {
                End::Lower
            } else {
                End::Upper
            };
            let act = EndAction::Empty;
            return self.apply_end(p, v, new, end, act, &mut committed);
        }
        self.apply_end(p, v, new, End::Lower, lo, &mut committed)?;
        // the lower end may have changed the box (integers); recompute the upper action
        let hi = self.end_action(v, new, End::Upper);
        self.apply_end(p, v, new, End::Upper, hi, &mut committed)
    }

    /// Runs propagator `p` once.
    pub(crate) fn run_prop(&mut self, p: u32) -> Result<(), Conflict> {
        let prop = &self.props[p as usize];
        let out = prop.out;
        match &prop.kind {
            PropKind::Linear { .. } => self.run_linear(p),
            PropKind::Ite => self.run_ite(p),
            PropKind::BoolToNum => self.run_bool2num(p),
            PropKind::Fp(k) => {
                let k = *k;
                self.run_fp(p, k)
            }
            PropKind::Bv(_) => self.run_bv(p),
            _ => self.run_generic(p, out),
        }
    }

    /// Operations with one or two numeric arguments: forward, then backward per argument.
    fn run_generic(&mut self, p: u32, out: Var) -> Result<(), Conflict> {
        let (a, b) = {
            let pr = &self.props[p as usize];
            (pr.args[0], pr.args.get(1).copied())
        };
        let mut all = [out, a, a];
        let n = if let Some(b) = b {
            all[2] = b;
            3
        } else {
            2
        };
        // forward
        let (ab, bb) = (self.ibox(a), b.map(|b| self.ibox(b)));
        let f = self.fwd(p, ab, bb);
        self.post_both(p, out, f, &all[1..n])?;
        // backward, on current boxes
        let ob = self.ibox(out);
        let (ab, bb) = (self.ibox(a), b.map(|b| self.ibox(b)));
        let na = self.bwd(p, 0, ob, ab, bb);
        self.post_both(p, a, na, &all[..n])?;
        if let Some(b) = b {
            let ob = self.ibox(out);
            let ab = self.ibox(a);
            let bb = self.ibox(b);
            let nb = self.bwd(p, 1, ob, ab, Some(bb));
            self.post_both(p, b, nb, &all[..n])?;
        }
        Ok(())
    }

    fn fwd(&self, p: u32, a: Interval, b: Option<Interval>) -> Interval {
        let b = b.unwrap_or(Interval::ENTIRE);
        match &self.props[p as usize].kind {
            PropKind::Mul => contractors::fwd_mul(a, b),
            PropKind::Pow(n) => contractors::fwd_pow(a, *n),
            PropKind::Nrt(n) => contractors::fwd_nrt(a, *n),
            PropKind::Div => contractors::fwd_div(a, b),
            PropKind::Unary { fwd, .. } => fwd(a),
            PropKind::Min => contractors::fwd_min(a, b),
            PropKind::Max => contractors::fwd_max(a, b),
            PropKind::Convert { fit, linked } => {
                if *linked && a.is_subset(*fit) {
                    a
                } else {
                    Interval::ENTIRE
                }
            }
            _ => Interval::ENTIRE,
        }
    }

    /// The new box of argument `i` (already intersected with its box).
    fn bwd(&self, p: u32, i: usize, out: Interval, a: Interval, b: Option<Interval>) -> Interval {
        let bb = b.unwrap_or(Interval::ENTIRE);
        match (&self.props[p as usize].kind, i) {
            (PropKind::Mul, 0) => contractors::bwd_mul_a(out, a, bb),
            (PropKind::Mul, _) => contractors::bwd_mul_b(out, a, bb),
            (PropKind::Pow(n), _) => contractors::bwd_pow_a(out, a, *n),
            (PropKind::Nrt(n), _) => contractors::bwd_nrt_a(out, a, *n),
            (PropKind::Div, 0) => contractors::bwd_div_a(out, a, bb),
            (PropKind::Div, _) => contractors::bwd_div_b(out, a, bb),
            (PropKind::Unary { bwd, .. }, _) => bwd(out, a),
            (PropKind::Min, 0) => contractors::bwd_min_a(out, a, bb),
            (PropKind::Min, _) => contractors::bwd_min_b(out, a, bb),
            (PropKind::Max, 0) => contractors::bwd_max_a(out, a, bb),
            (PropKind::Max, _) => contractors::bwd_max_b(out, a, bb),
            (PropKind::Convert { fit, linked }, _) => {
                if !*linked {
                    return a;
                }
                // a = out where it fits; outside the output type anything goes
                let below = Interval::at_most(fit.lo(), !fit.lo_open());
                let above = Interval::at_least(fit.hi(), !fit.hi_open());
                let outside = if fit.is_entire() {
                    Interval::EMPTY
                } else {
                    a.intersect(below).hull(a.intersect(above))
                };
                a.intersect(out).hull(outside)
            }
            _ => {
                if i == 0 {
                    a
                } else {
                    bb
                }
            }
        }
    }

    /// `out = Σ c_i·x_i + k` with precise per-end reasons.
    fn run_linear(&mut self, p: u32) -> Result<(), Conflict> {
        let n = self.props[p as usize].args.len();
        let out = self.props[p as usize].out;
        // terms c_j·x_j
        let mut terms = std::mem::take(&mut self.scratch);
        let mut fix = std::mem::take(&mut self.scratch2);
        terms.clear();
        let k = {
            let pr = &self.props[p as usize];
            let PropKind::Linear { lc, .. } = &pr.kind else {
                unreachable!("run_linear on a linear propagator")
            };
            for (j, &x) in pr.args.iter().enumerate() {
                let (l, _) = self.lb[x];
                let (u, _) = self.ub[x];
                terms.push(lc.coeffs[j] * Interval::new(l.v, l.strict, u.v, u.strict));
            }
            lc.constant
        };
        // prefix sums fix[0..=n], suffix sums fix[n+1..=2n+1]
        fix.clear();
        let mut acc = Interval::point(0.0);
        fix.push(acc);
        for t in terms.iter() {
            acc = acc + *t;
            fix.push(acc);
        }
        let total = acc + k;
        let mut acc = Interval::point(0.0);
        let base = fix.len();
        fix.resize(base + n + 1, acc);
        for j in (0..n).rev() {
            acc = acc + terms[j];
            fix[base + j] = acc;
        }
        let result = self.linear_posts(p, out, n, total, k, &fix, base);
        self.scratch = terms;
        self.scratch2 = fix;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn linear_posts(
        &mut self,
        p: u32,
        out: Var,
        n: usize,
        total: Interval,
        k: Interval,
        fix: &[Interval],
        base: usize,
    ) -> Result<(), Conflict> {
        // forward: out ∈ total
        for end in [End::Lower, End::Upper] {
            let act = self.end_action(out, total, end);
            if act == EndAction::Nothing {
                continue;
            }
            self.reason_buf.clear();
            // lower end of the sum: lb of positive terms, ub of negative terms
            self.push_linear_side(p, usize::MAX, end == End::Lower);
            let mut committed = None;
            self.apply_end(p, out, total, end, act, &mut committed)?;
        }
        // backward: x_i ∈ (out - k - Σ_{j≠i} c_j x_j) / c_i
        let ob = self.ibox(out);
        if ob.is_entire() {
            return Ok(());
        }
        for i in 0..n {
            let (x, s, c) = {
                let pr = &self.props[p as usize];
                let PropKind::Linear { lc, sign } = &pr.kind else {
                    unreachable!("linear")
                };
                (pr.args[i], sign[i], lc.coeffs[i])
            };
            if s == 0 {
                continue;
            }
            let others = fix[i] + fix[base + i + 1];
            let ob = self.ibox(out);
            let rest = ob - k - others;
            let d = rest / c;
            for end in [End::Lower, End::Upper] {
                let act = self.end_action(x, d, end);
                if act == EndAction::Nothing {
                    continue;
                }
                // d's lower end comes from rest's lower end when c > 0
                let rest_lower = (end == End::Lower) == (s > 0);
                self.reason_buf.clear();
                let ol = self.lb[out].1;
                let ou = self.ub[out].1;
                self.push_reason_lit(if rest_lower { ol } else { ou });
                // rest's lower end: ub of positive other terms, lb of negative ones
                self.push_linear_side(p, i, !rest_lower);
                let mut committed = None;
                self.apply_end(p, x, d, end, act, &mut committed)?;
            }
        }
        Ok(())
    }

    /// Pushes, for every term except `skip`, the bound that the lower end (`lower`) or the
    /// upper end of `Σ c_j·x_j` depends on: `lb` of positive and `ub` of negative terms for
    /// the lower end, the opposite for the upper end.
    fn push_linear_side(&mut self, p: u32, skip: usize, lower: bool) {
        let n = self.props[p as usize].args.len();
        for j in 0..n {
            if j == skip {
                continue;
            }
            let (x, s) = {
                let pr = &self.props[p as usize];
                let PropKind::Linear { sign, .. } = &pr.kind else {
                    unreachable!("linear")
                };
                (pr.args[j], sign[j])
            };
            if s == 0 {
                continue;
            }
            let use_lb = (s > 0) == lower;
            let l = if use_lb { self.lb[x].1 } else { self.ub[x].1 };
            self.push_reason_lit(l);
        }
    }

    /// `out = if a then b else c`.
    fn run_ite(&mut self, p: u32) -> Result<(), Conflict> {
        let (out, a, b, c) = {
            let pr = &self.props[p as usize];
            (pr.out, pr.args[0], pr.args[1], pr.args[2])
        };
        match self.bool_value(a) {
            LBool::True | LBool::False => {
                let branch = if self.bool_value(a) == LBool::True {
                    b
                } else {
                    c
                };
                let bb = self.ibox(branch);
                self.post_both(p, out, bb, &[a, branch])?;
                let ob = self.ibox(out);
                self.post_both(p, branch, ob, &[a, out])
            }
            LBool::Undef => {
                let (ob, bb, cb) = (self.ibox(out), self.ibox(b), self.ibox(c));
                let (ob_b, ob_c) = (ob.intersect(bb), ob.intersect(cb));
                if ob_b.is_empty() && ob_c.is_empty() {
                    self.reason_buf.clear();
                    self.push_bounds(b, true, true);
                    self.push_bounds(c, true, true);
                    return Err(self.icp_conflict(p, out, true, true));
                }
                if ob_b.is_empty() || ob_c.is_empty() {
                    // the branch that cannot hold decides the condition
                    let (lit, other) = if ob_b.is_empty() {
                        (!Lit::pos(self.vars[a].bool_atom.expect("bool")), b)
                    } else {
                        (Lit::pos(self.vars[a].bool_atom.expect("bool")), c)
                    };
                    self.reason_buf.clear();
                    self.push_bounds(out, true, true);
                    self.push_bounds(other, true, true);
                    let r = self.commit_reason();
                    #[cfg(feature = "check-deductions")]
                    {
                        let rl = self.reason_buf.clone();
                        let excl = crate::check_deductions::Excluded::Bool(a, lit.is_negated());
                        self.check_deduction(p, &rl, excl);
                    }
                    self.stats.icp_contractions += 1;
                    return self.assign(lit, r);
                }
                let h = bb.hull(cb);
                self.post_both(p, out, h, &[b, c])
            }
        }
    }

    /// `out = if a then 1 else 0`.
    fn run_bool2num(&mut self, p: u32) -> Result<(), Conflict> {
        let (out, a) = {
            let pr = &self.props[p as usize];
            (pr.out, pr.args[0])
        };
        match self.bool_value(a) {
            LBool::True => self.post_both(p, out, Interval::point(1.0), &[a]),
            LBool::False => self.post_both(p, out, Interval::point(0.0), &[a]),
            LBool::Undef => {
                let ob = self.ibox(out);
                let (one, zero) = (ob.contains(1.0), ob.contains(0.0));
                if one && zero {
                    return self.post_both(p, out, Interval::closed(0.0, 1.0), &[]);
                }
                let alit = Lit::pos(self.vars[a].bool_atom.expect("bool"));
                let lit = match (one, zero) {
                    (false, false) => {
                        self.reason_buf.clear();
                        return Err(self.icp_conflict(p, out, true, true));
                    }
                    (true, false) => alit,
                    _ => !alit,
                };
                self.reason_buf.clear();
                self.push_bounds(out, true, true);
                let r = self.commit_reason();
                #[cfg(feature = "check-deductions")]
                {
                    let rl = self.reason_buf.clone();
                    let excl = crate::check_deductions::Excluded::Bool(a, lit.is_negated());
                    self.check_deduction(p, &rl, excl);
                }
                self.stats.icp_contractions += 1;
                self.assign(lit, r)
            }
        }
    }
}

/// The half of `new` that one end's reason explains: `[lo, +inf)` for the lower end,
/// `(-inf, hi]` for the upper end. Integer rounding works on this half only, because rounding
/// both ends of `[1/3, 2/3]` gives an empty set that only both ends' reasons together explain.
fn one_end(new: Interval, end: End) -> Interval {
    match end {
        End::Lower => Interval::at_least(new.lo(), new.lo_open()),
        End::Upper => Interval::at_most(new.hi(), new.hi_open()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SolverConfig;
    use crate::formula::{Domain, Rel};
    use crate::num::Rational;
    use num_bigint::BigInt;

    fn q(n: i64) -> Rational {
        Rational::from_integer(BigInt::from(n))
    }

    #[test]
    fn linear_contracts_with_precise_reasons() {
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        let x = s.new_var(Sort::Real, &Domain::closed(q(0), q(10)));
        let y = s.new_var(Sort::Real, &Domain::closed(q(0), q(10)));
        let h = s.new_var(Sort::Real, &Domain::unbounded());
        // h = x + 2y
        s.add_def(
            h,
            Op::Linear {
                coeffs: vec![q(1), q(2)],
                constant: q(0),
            },
            vec![x, y],
        );
        assert_eq!(s.ibox(h), Interval::closed(0.0, 30.0));
        let h_le4 = s.bound_lit(h, Rel::Le, &q(4));
        let x_ge1 = s.bound_lit(x, Rel::Ge, &q(1));
        s.new_decision_level();
        s.assign(h_le4, Reason::None).unwrap();
        s.new_decision_level();
        s.assign(x_ge1, Reason::None).unwrap();
        assert!(s.propagate().is_none());
        // y <= (4 - 1) / 2
        assert_eq!(s.ibox(y), Interval::closed(0.0, 1.5));
        assert_eq!(s.ibox(x), Interval::closed(1.0, 4.0));
        // the reason of y <= 1.5 is {h <= 4, x >= 1}; of x <= 4 only {h <= 4}
        let (_, yl) = s.ub[y];
        let Reason::Theory { start, len } = s.reason[yl.atom().index()] else {
            panic!("theory reason expected")
        };
        let mut r: Vec<Lit> = s.theory_arena[start as usize..(start + len) as usize].to_vec();
        r.sort();
        let mut want = vec![h_le4, x_ge1];
        want.sort();
        assert_eq!(r, want);
        let (_, xl) = s.ub[x];
        let Reason::Theory { start, len } = s.reason[xl.atom().index()] else {
            panic!("theory reason expected")
        };
        assert_eq!(
            &s.theory_arena[start as usize..(start + len) as usize],
            &[h_le4]
        );
        // backtracking restores the boxes
        s.backtrack(0);
        assert_eq!(s.ibox(y), Interval::closed(0.0, 10.0));
        assert_eq!(s.ibox(h), Interval::closed(0.0, 30.0));
    }

    #[test]
    fn minimal_progress_stops_crawling() {
        // x = y/2 + 1/2 and y = x: the fixpoint x = y = 1 is approached geometrically
        let cfg = SolverConfig {
            mpr: 0.1,
            ..SolverConfig::default()
        };
        let mut s = Solver::new(cfg).unwrap();
        let x = s.new_var(Sort::Real, &Domain::closed(q(0), q(1)));
        let y = s.new_var(Sort::Real, &Domain::closed(q(-100), q(1)));
        let half = Rational::new(BigInt::from(1), BigInt::from(2));
        s.add_def(
            x,
            Op::Linear {
                coeffs: vec![half.clone()],
                constant: half,
            },
            vec![y],
        );
        s.add_def(
            y,
            Op::Linear {
                coeffs: vec![q(1)],
                constant: q(0),
            },
            vec![x],
        );
        let before = s.stats.icp_contractions;
        assert!(s.ok);
        let yb = s.ibox(y);
        assert!(yb.lo() > 0.0 && yb.lo() < 1.0, "{yb}");
        assert!(s.stats.icp_contractions - before < 100);
    }

    #[test]
    fn implied_boxes_see_small_steps_on_large_values_and_leave_the_solver_as_it_was() {
        // y = x + 1 over [0, 1e9]: from x <= 16777201 the search's minimal progress (1% of
        // the magnitude) posts nothing on y, the implied-box query posts y <= 16777202
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        let x = s.new_var(Sort::Real, &Domain::closed(q(0), q(1_000_000_000)));
        let y = s.new_var(Sort::Real, &Domain::closed(q(0), q(1_000_000_000)));
        s.add_def(
            y,
            Op::Linear {
                coeffs: vec![q(1)],
                constant: q(1),
            },
            vec![x],
        );
        let y_le = s.bound_lit(y, Rel::Le, &q(16_777_300));
        let x_le = s.bound_lit(x, Rel::Le, &q(16_777_201));
        let y_gt = s.bound_lit(y, Rel::Gt, &q(16_777_215));
        // with y <= 16777300 first, x <= 16777201 moves y's end by 98 only
        s.new_decision_level();
        s.assign(y_le, Reason::None).unwrap();
        s.new_decision_level();
        s.assign(x_le, Reason::None).unwrap();
        assert!(s.propagate().is_none());
        assert_eq!(s.ibox(y).hi(), 16_777_300.0, "the search's precision");
        s.backtrack(0);
        let b = s.implied_boxes(&[y_le, x_le], &[y]).expect("consistent");
        assert_eq!(b[0].hi(), 16_777_202.0);
        assert!(!b[0].hi_open());
        assert_eq!(b[0].lo(), 1.0);
        // a contradiction found by propagation alone
        assert!(s.implied_boxes(&[x_le, y_gt], &[y]).is_none());
        // the query left no trace: level 0, the search's own precision, the same answers
        assert_eq!(s.decision_level(), 0);
        assert_eq!(s.config.mpr, SolverConfig::default().mpr);
        assert_eq!(s.icp_run_cap, u32::MAX);
        assert!(s.solve(&[x_le, y_gt]).is_unsat());
        assert!(matches!(
            s.solve(&[x_le]),
            crate::SolveResult::Sat(_) | crate::SolveResult::Candidate(_)
        ));
    }
}
