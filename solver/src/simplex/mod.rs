//! Exact linear reasoning beside ICP (issue #22, item 1): a general simplex over the query's
//! linear definitions refutes bound combinations that interval propagation only approaches
//! in many small steps (over unbounded integers and reals, ICP on `x + y = z` crawls).
//!
//! The idea: every linear definition `out = Σ aᵢ·argᵢ + c` whose variables are all integers or
//! reals becomes a tableau row `s = Σ aᵢ·argᵢ − out` for a fresh slack `s` fixed at `−c`
//! ([`tableau`]). At each fixpoint of BCP+ICP the solver's current bounds of the tableau's
//! problem variables are copied into the tableau (each with the bound literal that set it,
//! see `Solver::lb`), and [`tableau::Tableau::check`] looks for a rational point. If there is
//! none, the certificate's bound literals cannot hold together: they become a conflict
//! (`Conflict::Lits`) that the normal 1UIP analysis turns into a learned clause. Bounds are
//! read from the solver on every check, so backtracking needs nothing here (the tableau keeps
//! its rows and assignment; a looser bound is still satisfied by it).
//!
//! Soundness: the rows are consequences of definitions that hold unconditionally, the bounds
//! are implied by their literals, and the refutation is over the rationals, which contain the
//! integers — a relaxation, so a conflict is sound for integer variables too (the CDCL search
//! splits integer intervals anyway). Every conflict is re-checked exactly, independently of
//! the tableau, in `check-deductions` builds ([`certify`]). No bounds are propagated to ICP;
//! besides conflicts, the last feasible assignment is offered to the exact point check as a
//! candidate point ([`Solver::simplex_point`]), which the check validates like any other point.
//!
//! Integers: bounds of integer variables enter the tableau rounded inwards (`x > 2` as
//! `x ≥ 3`). When the rational assignment is feasible but puts an integer variable between two
//! integers, a GCD test on its row ([`tableau::Tableau::integer_conflict`]) may show that no
//! integer point exists under the row's bounds — a conflict over those bounds' literals,
//! re-checked like the others ([`certify::check_int_conflict`]); otherwise the search's next
//! split is branch and bound on that variable, `x ≤ ⌊v⌋` or `x ≥ ⌈v⌉`
//! ([`Solver::simplex_branch`]), instead of an interval bisection that cannot end on unbounded
//! integers.

#[cfg(any(test, feature = "check-deductions"))]
pub(crate) mod certify;
pub(crate) mod rounding;
pub(crate) mod tableau;

use crate::bound_table::{Lb, Ub};
use crate::formula::Op;
use crate::lit::Lit;
use crate::num::Rational;
use crate::solve::{Conflict, Solver, VarKind};
use crate::var::Var;
use num_traits::{FromPrimitive, One, Signed, ToPrimitive, Zero};
use std::collections::{BTreeMap, HashMap};
use tableau::{DeltaRat, Feasibility, IntInfeasible, TBound, TVar, Tableau};

/// Pivots one check may make before it gives up (claiming nothing); keeps a check's cost
/// bounded on large tableaux where exact rationals grow.
const MAX_PIVOTS_PER_CHECK: u64 = 2000;

/// Why a tableau bound holds: a bound literal of the solver, or the guard of a rounded row
/// (its index in `LinearState::rounded`, whose `reasons` are the literals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Why {
    Bound(Lit),
    Rounded(u32),
}

/// An IEEE operation's row ([`rounding`]): its slack is the rounding error, bounded while the
/// guard holds.
#[derive(Clone, Debug)]
struct Rounded {
    slack: TVar,
    guard: Var,
    format: Option<crate::num::FpFormat>,
    /// the guard's state when the slack's bounds were last set: its bounds with their
    /// literals, `None` when the guard did not hold (then the slack is unbounded)
    seen: Option<(Lb, Lit, Ub, Lit)>,
    /// the literals that make the guard hold (the reasons of the slack's bounds)
    reasons: Vec<Lit>,
}

/// A problem variable of the tableau and the solver bounds last copied into it, with the
/// literals that set them (a bound of the same value may later come from another literal,
/// after backtracking: the explanation must name the literal that is true now).
#[derive(Clone, Debug)]
struct Linked {
    var: Var,
    tvar: TVar,
    lb: (Lb, Lit),
    ub: (Ub, Lit),
}

/// The simplex state the solver keeps (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct LinearState {
    tab: Tableau<Why>,
    tvar_of: HashMap<Var, TVar>,
    /// the problem variable of a tableau variable (slacks have none)
    var_of: HashMap<TVar, Var>,
    linked: Vec<Linked>,
    /// slack → the index of the definition whose row it is (for certificates)
    slack_def: HashMap<TVar, u32>,
    /// definitions of `Solver::defs` already looked at
    defs_seen: usize,
    /// bounds changed since the last check that ended feasible or gave up
    dirty: bool,
    /// the last check found the bounds feasible (its assignment is a candidate point)
    feasible: bool,
    /// at least one variable of the tableau is an integer
    has_int: bool,
    /// the prefix of the solver's bound trail whose changes the tableau has seen
    synced: usize,
    /// variables to re-read besides the trail's newer entries
    touched: Vec<Var>,
    /// the index in `linked` of a problem variable (by its index; `u32::MAX`: none)
    link_of: Vec<u32>,
    /// the rows of IEEE operations, re-guarded at every check
    rounded: Vec<Rounded>,
    /// with `record_farkas`: the combinations of the conflicts since the last
    /// [`Solver::take_farkas`]
    farkas: Vec<Vec<(Var, Rational)>>,
}

/// The most conflict combinations kept between two [`Solver::take_farkas`] calls.
const MAX_FARKAS: usize = 256;

/// Bounds beyond ±2^64 are left out of the tableau, and real bounds are rounded outward to
/// multiples of 2^-64. Interval propagation over unbounded numbers crawls to ends near
/// ±1.8e308 or to subnormals next to 0 (a strict `x > 0` becomes `x ≥ 5e-324`), and each such
/// end is a rational of 1000 bits whose normalisation (binary gcd) costs O(bits²): on
/// ctigar/dillig28.vmt 80 % of IC3's run went there. Both only relax the tableau: its
/// conflicts are still implied by the (stronger) bounds of their reason literals, which is
/// what `certify` re-checks, and its points are checked exactly anyway.
const FAR: f64 = 18_446_744_073_709_551_616.0;
/// 2^64: the grid of the rounded real bounds
const GRID: f64 = FAR;

/// An integral f64 as an exact integer.
fn integral(v: f64) -> num_bigint::BigInt {
    num_bigint::BigInt::from_f64(v).unwrap_or_default()
}

/// One end of the tableau's box from a solver bound: `v` is the bound, `strict` whether it
/// excludes `v`, `lower` whether it is a lower end (rounded up for integers, down for reals).
/// Built without a gcd: this runs for every bound the tableau re-reads.
fn end_of(v: f64, strict: bool, lower: bool, int: bool) -> Option<DeltaRat> {
    if !v.is_finite() || v.abs() > FAR {
        return None;
    }
    if int {
        // exact: the integers above a lower end start at its ceiling (one further when the
        // end itself is excluded); in BigInt because `r ± 1` need not be an f64 near 2^64
        let r = if lower { v.ceil() } else { v.floor() };
        let mut n = integral(r);
        if strict && r == v {
            n += if lower { 1 } else { -1 };
        }
        return Some(DeltaRat::exact(Rational::from_integer(n)));
    }
    // outward to the grid; a moved end no longer excludes itself (x > v ⇒ x ≥ floor(v))
    let w = v * GRID;
    let g = if lower { w.floor() } else { w.ceil() };
    let strict = strict && g == w;
    // g / 2^64 in lowest terms: only factors of 2 can be shared
    let n = integral(g);
    let tz = n.trailing_zeros().unwrap_or(64).min(64);
    let c = Rational::new_raw(n >> tz, num_bigint::BigInt::one() << (64 - tz));
    let k = match (strict, lower) {
        (false, _) => Rational::zero(),
        (true, true) => Rational::one(),
        (true, false) => -Rational::one(),
    };
    Some(DeltaRat::new(c, k))
}

/// `x` as a lower bound for the tableau (`None`: unbounded, or beyond [`FAR`]); for an
/// integer variable rounded up to an integer (a strict integral bound one step up), which is
/// exact for it.
fn lower_of(lb: Lb, int: bool) -> Option<DeltaRat> {
    end_of(lb.v, lb.strict, true, int)
}

fn upper_of(ub: Ub, int: bool) -> Option<DeltaRat> {
    end_of(ub.v, ub.strict, false, int)
}

/// A certificate row's multipliers by definition: a slack's row is its definition's.
fn multipliers(st: &LinearState, row: &[(TVar, Rational)]) -> Vec<(u32, Rational)> {
    row.iter()
        .filter_map(|(x, a)| st.slack_def.get(x).map(|&d| (d, a.clone())))
        .collect()
}

/// A rounded row's part of a combination: its multiplier's size, the guard and the format
/// whose gap bounds the row's error (`None`: exact).
pub(crate) type Rounding = (Rational, Var, Option<crate::num::FpFormat>);

/// A combination `L`: its coefficients, constant, and rounded rows.
pub(crate) type Combination = (BTreeMap<Var, Rational>, Rational, Vec<Rounding>);

/// `L = Σ_d μ_d·(Σ a·arg + c_d − out_d)` as coefficients and constant, recomputed from the
/// definitions (not from the tableau, so that [`certify`] re-checks a conflict
/// independently of it); an IEEE definition contributes its rounded row
/// (`rounding::relaxation`), whose error the caller bounds from the guard's box.
pub(crate) fn combination(s: &Solver, mults: &[(u32, Rational)]) -> Result<Combination, String> {
    let mut coeffs: BTreeMap<Var, Rational> = BTreeMap::new();
    let mut constant = Rational::zero();
    let mut rounded = Vec::new();
    for (d, mu) in mults {
        let def = &s.defs[*d as usize];
        let Op::Linear {
            coeffs: a,
            constant: c,
        } = &def.op
        else {
            let Some(r) = rounding::relaxation(s, *d as usize) else {
                return Err(format!(
                    "definition {d} is neither linear nor rounded-linear"
                ));
            };
            for (x, ax) in &r.terms {
                *coeffs.entry(*x).or_default() += mu * ax;
            }
            rounded.push((mu.abs(), r.guard, r.format));
            continue;
        };
        for (x, ax) in def.args.iter().zip(a) {
            *coeffs.entry(*x).or_default() += mu * ax;
        }
        *coeffs.entry(def.out).or_default() -= mu;
        constant += mu * c;
    }
    coeffs.retain(|_, a| !a.is_zero());
    Ok((coeffs, constant, rounded))
}

impl LinearState {
    /// Backtracking is about to undo the bound changes `undone`, which start at position
    /// `from` of the solver's bound trail: those the tableau had already seen (before
    /// `synced`) restore older bounds, so their variables must be read again.
    pub(crate) fn note_undone(&mut self, from: usize, undone: &[crate::solve::BoundUndo]) {
        if from < self.synced {
            let seen = (self.synced - from).min(undone.len());
            self.touched.extend(undone[..seen].iter().map(|u| u.var));
            self.synced = from;
        }
    }

    fn tvar(&mut self, v: Var, int: bool) -> TVar {
        if let Some(&t) = self.tvar_of.get(&v) {
            return t;
        }
        let t = self.tab.new_var();
        if int {
            self.tab.set_integer(t);
            self.has_int = true;
        }
        self.tvar_of.insert(v, t);
        self.var_of.insert(t, v);
        if self.link_of.len() <= v.index() {
            self.link_of.resize(v.index() + 1, u32::MAX);
        }
        self.link_of[v.index()] = self.linked.len() as u32;
        self.touched.push(v);
        self.linked.push(Linked {
            var: v,
            tvar: t,
            lb: (Lb::NONE, Lit::UNDEF),
            ub: (Ub::NONE, Lit::UNDEF),
        });
        self.dirty = true;
        t
    }
}

impl Solver {
    /// Whether definition `d` is a linear equation over integers and reals only.
    fn is_tableau_def(&self, d: usize) -> bool {
        let def = &self.defs[d];
        let num = |v: Var| matches!(self.vars[v].kind, VarKind::Int | VarKind::Real);
        match &def.op {
            Op::Linear { coeffs, .. } => {
                coeffs.len() == def.args.len() && num(def.out) && def.args.iter().all(|&a| num(a))
            }
            _ => false,
        }
    }

    /// Adds the rows of definitions added since the last call.
    fn absorb_linear_defs(&mut self) {
        let Some(mut st) = self.linear.take() else {
            return;
        };
        while st.defs_seen < self.defs.len() {
            let d = st.defs_seen;
            st.defs_seen += 1;
            if !self.is_tableau_def(d) {
                let rounded = self.config.rounded_rows;
                if let Some(r) = rounded.then(|| rounding::relaxation(self, d)).flatten() {
                    let terms: Vec<(TVar, Rational)> = r
                        .terms
                        .iter()
                        .map(|(v, c)| {
                            let int = self.vars[*v].kind == VarKind::Int;
                            (st.tvar(*v, int), c.clone())
                        })
                        .collect();
                    // s = Σ c·arg − out: the rounding error, unbounded until the guard holds
                    let slack = st.tab.add_row(&terms);
                    st.slack_def.insert(slack, d as u32);
                    st.rounded.push(Rounded {
                        slack,
                        guard: r.guard,
                        format: r.format,
                        seen: None,
                        reasons: Vec::new(),
                    });
                }
                continue;
            }
            let def = &self.defs[d];
            let Op::Linear { coeffs, constant } = &def.op else {
                continue;
            };
            let mut terms: Vec<(TVar, Rational)> = Vec::with_capacity(def.args.len() + 1);
            let int = |v: Var| self.vars[v].kind == VarKind::Int;
            for (a, c) in def.args.iter().zip(coeffs) {
                terms.push((st.tvar(*a, int(*a)), c.clone()));
            }
            terms.push((st.tvar(def.out, int(def.out)), -Rational::one()));
            // s = Σ a·arg − out = −c, unconditionally
            let s = st.tab.add_row(&terms);
            let fixed = DeltaRat::exact(-constant.clone());
            st.tab.set_lower(
                s,
                Some(TBound {
                    value: fixed.clone(),
                    reason: None,
                }),
            );
            st.tab.set_upper(
                s,
                Some(TBound {
                    value: fixed,
                    reason: None,
                }),
            );
            st.slack_def.insert(s, d as u32);
            st.dirty = true;
        }
        self.linear = Some(st);
    }

    /// Copies the solver's current bounds of the problem variables into the tableau.
    /// Only the variables whose bounds changed since the last call are looked at: those of
    /// the solver's bound trail past `st.synced`, and those `touched` (new ones, and those
    /// whose synced bounds backtracking undid, see [`LinearState::note_undone`]).
    fn sync_linear_bounds(&self, st: &mut LinearState) {
        let from = st.synced.min(self.bound_trail.len());
        let mut todo = std::mem::take(&mut st.touched);
        todo.extend(self.bound_trail[from..].iter().map(|u| u.var));
        st.synced = self.bound_trail.len();
        for v in todo.drain(..) {
            let Some(&i) = st.link_of.get(v.index()) else {
                continue;
            };
            if i == u32::MAX {
                continue;
            }
            let i = i as usize;
            let Linked { var, tvar, lb, ub } = st.linked[i].clone();
            let (nlb, nlit) = self.lb[var];
            let (nub, ulit) = self.ub[var];
            let int = self.vars[var].kind == VarKind::Int;
            if (nlb, nlit) != lb {
                let b = lower_of(nlb, int).map(|value| TBound {
                    value,
                    reason: (!nlit.is_undef()).then_some(Why::Bound(nlit)),
                });
                st.tab.set_lower(tvar, b);
                st.linked[i].lb = (nlb, nlit);
                st.dirty = true;
            }
            if (nub, ulit) != ub {
                let b = upper_of(nub, int).map(|value| TBound {
                    value,
                    reason: (!ulit.is_undef()).then_some(Why::Bound(ulit)),
                });
                st.tab.set_upper(tvar, b);
                st.linked[i].ub = (nub, ulit);
                st.dirty = true;
            }
        }
        // keep the allocation for the next call
        st.touched = todo;
        self.guard_rounded_rows(st);
    }

    /// Bounds the slack of every rounded row whose guard holds (`|s| ≤` the gap above the
    /// guard's magnitude, see [`rounding`]) and frees it where the guard no longer holds.
    fn guard_rounded_rows(&self, st: &mut LinearState) {
        for k in 0..st.rounded.len() {
            let g = st.rounded[k].guard;
            let (lb, llit) = self.lb[g];
            let (ub, ulit) = self.ub[g];
            let not_nan = self.vars[g]
                .fp
                .and_then(|fl| self.bool_lit(fl.nan))
                .map(|nan| !nan)
                .filter(|&l| self.lit_true(l));
            let seen =
                not_nan.and((lb.v.is_finite() && ub.v.is_finite()).then_some((lb, llit, ub, ulit)));
            if seen == st.rounded[k].seen {
                continue;
            }
            let margin = seen.and_then(|_| {
                let m = lb.v.abs().max(ub.v.abs());
                match st.rounded[k].format {
                    None => Some(0.0),
                    Some(f) => rounding::gap_above(f, m),
                }
            });
            let r = &mut st.rounded[k];
            r.seen = seen;
            r.reasons.clear();
            let (lo, hi) = match (margin, not_nan) {
                (Some(m), Some(nn)) => {
                    r.reasons.push(nn);
                    r.reasons
                        .extend([llit, ulit].into_iter().filter(|l| !l.is_undef()));
                    let why = Some(Why::Rounded(k as u32));
                    let bound = |e: Option<DeltaRat>| e.map(|value| TBound { value, reason: why });
                    // outward to the grid (see FAR): a wider margin is still implied
                    (
                        bound(end_of(-m, false, true, false)),
                        bound(end_of(m, false, false, false)),
                    )
                }
                _ => (None, None),
            };
            let slack = r.slack;
            st.tab.set_lower(slack, lo);
            st.tab.set_upper(slack, hi);
            st.dirty = true;
        }
    }

    /// The Farkas combinations of the simplex conflicts since the last call (only with
    /// `SolverConfig::record_farkas`; at most 256 are kept between calls).
    pub fn take_farkas(&mut self) -> Vec<Vec<(Var, Rational)>> {
        self.linear
            .as_mut()
            .map(|st| std::mem::take(&mut st.farkas))
            .unwrap_or_default()
    }

    /// The literals of a certificate's reasons, each rounded row's guard literals expanded.
    fn reason_lits(st: &LinearState, reasons: &[Why]) -> Vec<Lit> {
        let mut out = Vec::with_capacity(reasons.len());
        for w in reasons {
            match *w {
                Why::Bound(l) => out.push(l),
                Why::Rounded(k) => out.extend(st.rounded[k as usize].reasons.iter().copied()),
            }
        }
        out
    }

    /// The point the last feasible simplex check found, for the exact point check: values
    /// of the input variables (not defined by a definition) of the tableau, with δ made
    /// concrete, each inside its variable's current box (integers only where integral).
    /// The exact check decides whether it is a solution; this only proposes it.
    ///
    /// When that point leaves an integer input fractional, the point proposed is the
    /// *unit-cube* one instead if there is one (Bromberger and Weidenbach's largest-cube idea):
    /// every bounded tableau variable's bounds are pulled in by how far rounding the integer
    /// inputs can move it (½ per integer input, times the absolute coefficients along its
    /// linear definitions), the tightened copy of the tableau is solved, and its integer
    /// inputs are rounded to the nearest integer — which keeps every linear constraint of the
    /// original bounds. On unbounded problems with room (where branch and bound need not end)
    /// this finds integer points at once. Heuristic only: the exact check decides.
    pub(crate) fn simplex_point(&self) -> Vec<(Var, Rational)> {
        let Some(st) = self.linear.as_ref() else {
            return Vec::new();
        };
        if !st.feasible || st.dirty {
            return Vec::new();
        }
        if st.has_int {
            let fractional_input = st.linked.iter().any(|l| {
                self.vars[l.var].defined_by.is_none()
                    && self.vars[l.var].kind == VarKind::Int
                    && !st.tab.value(l.tvar).c.is_integer()
            });
            if fractional_input {
                // within the current bounds first; else within the level-0 bounds (the
                // asserted constraints, without the search's splits, which on unbounded
                // problems narrow around a fractional vertex and leave no room for a cube)
                if let Some(p) = self
                    .cube_point(st, false)
                    .or_else(|| self.cube_point(st, true))
                {
                    return p;
                }
            }
        }
        let delta = st.tab.concrete_delta();
        let mut out = Vec::new();
        for l in &st.linked {
            // IEEE values are floats, not any rational: the tableau proposes none for them
            if self.vars[l.var].defined_by.is_some()
                || matches!(self.vars[l.var].kind, VarKind::Fp(_))
            {
                continue;
            }
            let v = st.tab.value(l.tvar);
            let x = &v.c + &v.k * &delta;
            let int = self.vars[l.var].kind == VarKind::Int;
            if (int && !x.is_integer()) || !self.ibox(l.var).contains_rational(&x) {
                continue;
            }
            out.push((l.var, x));
        }
        out
    }

    /// The integer conflict `c` as the conflict of the search (in `confl_lits`), re-checked
    /// in test and `check-deductions` builds.
    fn int_conflict(&mut self, st: &LinearState, c: IntInfeasible<Why>) -> Conflict {
        self.stats.simplex_int_conflicts += 1;
        let lits = Self::reason_lits(st, &c.reasons);
        self.set_conflict_lits(&lits);
        #[cfg(any(test, feature = "check-deductions"))]
        {
            let mults = multipliers(st, &c.row);
            let unbounded: Vec<Var> = c
                .unbounded
                .iter()
                .filter_map(|x| st.var_of.get(x).copied())
                .collect();
            if let Err(why) =
                certify::check_int_conflict(self, &mults, &unbounded, &self.confl_lits)
            {
                self.unsound("integer conflict", &why, &mults);
            }
        }
        #[cfg(not(any(test, feature = "check-deductions")))]
        let _ = st;
        Conflict::Lits
    }

    /// A conflict's reason literals as the search's conflict (`confl_lits`), each once.
    fn set_conflict_lits(&mut self, reasons: &[Lit]) {
        self.confl_lits.clear();
        for &l in reasons {
            if !self.confl_lits.contains(&l) {
                self.confl_lits.push(l);
            }
        }
        debug_assert!(self.confl_lits.iter().all(|&l| self.lit_true(l)));
    }

    /// `check-deductions` found a simplex conflict that its certificate does not prove.
    #[cfg(any(test, feature = "check-deductions"))]
    fn unsound(&self, what: &str, why: &str, mults: &[(u32, Rational)]) -> ! {
        panic!(
            "check-deductions: unsound simplex {what}: {why}; multipliers {mults:?}; \
             literals {:?}",
            self.confl_lits
                .iter()
                .map(|&l| self.lit_to_string(l))
                .collect::<Vec<_>>()
        )
    }

    /// Branch and bound, when the search is about to split: an integer variable and the
    /// integer `c` to split it at (`x ≤ c` or `x ≥ c + 1`) when the last check's feasible
    /// rational assignment gives it the value `v` with `c < v < c + 1`, strictly inside its
    /// box. `None` when there is none (or the split point is not an exact double).
    ///
    /// First the GCD test runs on the rows of the fractional variables (only here, not at
    /// every fixpoint: on large rows it costs as much as pivoting). A conflict it finds is
    /// left in `pending` for the next propagation, which analyses it before anything else
    /// (backjumping below the split); the split is still returned, as a harmless decision.
    pub(crate) fn simplex_branch(&mut self) -> Option<(Var, f64)> {
        let st = self.linear.take()?;
        let conflict = if st.feasible && !st.dirty && st.has_int && self.pending.is_none() {
            // rows with a rounding error are left out: the GCD argument is for exact rows
            let rounded: std::collections::HashSet<TVar> =
                st.rounded.iter().map(|r| r.slack).collect();
            st.tab
                .fractional_basics()
                .filter_map(|b| st.tab.integer_conflict(b))
                .find(|c| !c.row.iter().any(|(x, _)| rounded.contains(x)))
        } else {
            None
        };
        if let Some(c) = conflict {
            self.pending = Some(self.int_conflict(&st, c));
        }
        self.linear = Some(st);
        let st = self.linear.as_ref()?;
        if !st.feasible || st.dirty || !st.has_int {
            return None;
        }
        let t = st.tab.fractional()?;
        let var = *st.var_of.get(&t)?;
        let v = st.tab.value(t);
        let mut c = v.c.floor();
        if c == v.c && v.k.is_negative() {
            c -= Rational::one();
        }
        // the split point as a double, only when exact
        let f = c
            .to_f64()
            .filter(|f| Rational::from_float(*f).as_ref() == Some(&c))?;
        let b = self.ibox(var);
        (b.lo() <= f && f < b.hi()).then_some((var, f))
    }

    /// The unit-cube point of [`Solver::simplex_point`] within the current bounds (or the
    /// level-0 bounds, `from_root`), `None` when the tightened bounds have no rational point
    /// (or the check gives up).
    fn cube_point(&self, st: &LinearState, from_root: bool) -> Option<Vec<(Var, Rational)>> {
        let half = Rational::new(1.into(), 2.into());
        // how far rounding the integer inputs moves each variable: ½ for an integer input,
        // Σ |a|·(the argument's) for a linear definition over tableau variables, 0 otherwise
        let mut reach: HashMap<Var, Rational> = HashMap::new();
        let input_reach = |v: Var| {
            if self.vars[v].defined_by.is_none() && self.vars[v].kind == VarKind::Int {
                half.clone()
            } else {
                Rational::zero()
            }
        };
        // definitions need not come after their arguments' ones: passes until nothing
        // changes (reach only grows; bounded by the nesting depth, capped for safety)
        for _ in 0..16 {
            let mut changed = false;
            for d in 0..st.defs_seen.min(self.defs.len()) {
                if !self.is_tableau_def(d) {
                    continue;
                }
                let def = &self.defs[d];
                let Op::Linear { coeffs, .. } = &def.op else {
                    continue;
                };
                let mut r = Rational::zero();
                for (a, c) in def.args.iter().zip(coeffs) {
                    let ra = reach.get(a).cloned().unwrap_or_else(|| input_reach(*a));
                    r += c.abs() * ra;
                }
                if reach.get(&def.out) != Some(&r) {
                    reach.insert(def.out, r);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut tab = st.tab.clone();
        for l in &st.linked {
            let r = reach
                .get(&l.var)
                .cloned()
                .unwrap_or_else(|| input_reach(l.var));
            if r.is_zero() && !from_root {
                continue;
            }
            let (lo, hi) = if from_root {
                let int = self.vars[l.var].kind == VarKind::Int;
                (
                    lower_of(self.root_lb[l.var], int),
                    upper_of(self.root_ub[l.var], int),
                )
            } else {
                let (lo, hi) = tab.bounds(l.tvar);
                (lo.cloned(), hi.cloned())
            };
            let shift = DeltaRat::exact(r);
            let lo = lo.map(|b| DeltaRat::new(&b.c + &shift.c, b.k));
            let hi = hi.map(|b| DeltaRat::new(&b.c - &shift.c, b.k));
            if let (Some(a), Some(b)) = (&lo, &hi) {
                if a > b {
                    return None;
                }
            }
            tab.set_lower(
                l.tvar,
                lo.map(|value| TBound {
                    value,
                    reason: None,
                }),
            );
            tab.set_upper(
                l.tvar,
                hi.map(|value| TBound {
                    value,
                    reason: None,
                }),
            );
        }
        if tab.check(MAX_PIVOTS_PER_CHECK, self.deadline) != Feasibility::Feasible {
            return None;
        }
        let delta = tab.concrete_delta();
        let mut out = Vec::new();
        for l in &st.linked {
            // IEEE values are floats, not any rational: the tableau proposes none for them
            if self.vars[l.var].defined_by.is_some()
                || matches!(self.vars[l.var].kind, VarKind::Fp(_))
            {
                continue;
            }
            let v = tab.value(l.tvar);
            let mut x = &v.c + &v.k * &delta;
            if self.vars[l.var].kind == VarKind::Int {
                x = (x + &half).floor();
            }
            out.push((l.var, x));
        }
        Some(out)
    }

    /// The simplex check at a BCP+ICP fixpoint: a conflict (in `confl_lits`) when the current
    /// bounds of the linear variables admit no rational point.
    pub(crate) fn linear_check(&mut self) -> Option<Conflict> {
        self.linear.as_ref()?;
        if self
            .linear
            .as_ref()
            .is_some_and(|st| st.defs_seen < self.defs.len())
        {
            self.absorb_linear_defs();
        }
        let mut st = self.linear.take()?;
        if st.tab.num_rows() == 0 {
            self.linear = Some(st);
            return None;
        }
        self.sync_linear_bounds(&mut st);
        if !st.dirty {
            self.linear = Some(st);
            return None;
        }
        self.stats.simplex_checks += 1;
        let before = st.tab.pivots;
        let answer = st.tab.check(MAX_PIVOTS_PER_CHECK, self.deadline);
        self.stats.simplex_pivots += st.tab.pivots - before;
        st.feasible = answer == Feasibility::Feasible;
        let result = match answer {
            Feasibility::Feasible | Feasibility::GaveUp => {
                st.dirty = false;
                None
            }
            Feasibility::Infeasible(cert) => {
                self.stats.simplex_conflicts += 1;
                if self.config.record_farkas && st.farkas.len() < MAX_FARKAS {
                    // the combination's variables (a rounded row counts as its linear part)
                    let comb: Vec<(Var, Rational)> =
                        combination(self, &multipliers(&st, &cert.row))
                            .map(|(c, _, _)| c.into_iter().collect())
                            .unwrap_or_default();
                    if comb.len() >= 2 && !st.farkas.contains(&comb) {
                        st.farkas.push(comb);
                    }
                }
                let lits = Self::reason_lits(&st, &cert.reasons);
                self.set_conflict_lits(&lits);
                #[cfg(any(test, feature = "check-deductions"))]
                {
                    let mults = multipliers(&st, &cert.row);
                    if let Err(why) = certify::check_conflict(self, &mults, &self.confl_lits) {
                        self.unsound("conflict", &why, &mults);
                    }
                }
                Some(Conflict::Lits)
            }
        };
        self.linear = Some(st);
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{LinearReasoning, SolverConfig};
    use crate::formula::{Domain, Op, Rel, Sort};
    use crate::num::Rational;
    use crate::solve::{SolveResult, Solver};
    use crate::var::Var;

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    /// The tableau's ends are exact for integers (strict ends one step in, also past 2^53
    /// where `v ± 1` is no f64) and outward on the 2^-64 grid for reals; far ends are left out.
    #[test]
    fn ends_are_exact_or_outward() {
        use super::{end_of, DeltaRat};
        let exact = |n: Rational| Some(DeltaRat::exact(n));
        assert_eq!(end_of(2.5, false, true, true), exact(q(3)));
        assert_eq!(end_of(2.0, true, true, true), exact(q(3)));
        assert_eq!(end_of(2.0, true, false, true), exact(q(1)));
        assert_eq!(end_of(-2.5, false, false, true), exact(q(-3)));
        let big = 9_007_199_254_740_994.0; // 2^53 + 2: its successor is no f64
        let n: Rational = Rational::from_integer("9007199254740995".parse().unwrap());
        assert_eq!(end_of(big, true, true, true), exact(n));
        assert_eq!(end_of(1e30, false, true, true), None);
        assert_eq!(end_of(f64::INFINITY, false, false, false), None);
        // a representable real keeps its value and strictness
        let half = Rational::new(q(1).numer().clone(), q(2).numer().clone());
        assert_eq!(
            end_of(0.5, true, true, false),
            Some(DeltaRat::new(half.clone(), q(1)))
        );
        assert_eq!(
            end_of(-0.5, true, false, false),
            Some(DeltaRat::new(-half, q(-1)))
        );
        // a subnormal strict lower end becomes x >= 0, an upper one x <= 2^-64
        let tiny = f64::from_bits(1);
        assert_eq!(
            end_of(tiny, true, true, false),
            Some(DeltaRat::new(q(0), q(0)))
        );
        let grid = Rational::new(q(1).numer().clone(), num_bigint::BigInt::from(1) << 64u32);
        assert_eq!(
            end_of(tiny, true, false, false),
            Some(DeltaRat::new(grid, q(0)))
        );
    }

    fn solver(linear: LinearReasoning) -> Solver {
        let mut s = Solver::new(SolverConfig {
            linear,
            rounded_rows: true,
            ..SolverConfig::default()
        })
        .unwrap();
        s.set_conflict_budget(Some(2000));
        s
    }

    /// `out = Σ c·x` over fresh unbounded variables of `sort`.
    fn linear(s: &mut Solver, sort: Sort, terms: &[(i64, Var)]) -> Var {
        let out = s.new_var(sort, &Domain::unbounded());
        let op = Op::Linear {
            coeffs: terms.iter().map(|t| q(t.0)).collect(),
            constant: q(0),
        };
        s.add_def(out, op, terms.iter().map(|t| t.1).collect());
        out
    }

    /// `a = x − y`, `b = y − x` over unbounded `sort` variables, with `a rel_a 0` and
    /// `b rel_b 0` as assumptions.
    fn opposite_differences(
        linear_mode: LinearReasoning,
        sort: Sort,
        rel_a: (Rel, i64),
        rel_b: (Rel, i64),
    ) -> (Solver, SolveResult) {
        let mut s = solver(linear_mode);
        let x = s.new_var(sort, &Domain::unbounded());
        let y = s.new_var(sort, &Domain::unbounded());
        let a = linear(&mut s, sort, &[(1, x), (-1, y)]);
        let b = linear(&mut s, sort, &[(-1, x), (1, y)]);
        let la = s.bound_lit(a, rel_a.0, &q(rel_a.1));
        let lb = s.bound_lit(b, rel_b.0, &q(rel_b.1));
        let r = s.solve(&[la, lb]);
        (s, r)
    }

    #[test]
    fn refutes_what_interval_propagation_cannot_over_unbounded_variables() {
        // a = x − y ≥ 1 and b = y − x ≥ 1: a + b = 0. ICP learns nothing about unbounded x, y.
        for sort in [Sort::Real, Sort::Int] {
            let (s, r) =
                opposite_differences(LinearReasoning::Simplex, sort, (Rel::Ge, 1), (Rel::Ge, 1));
            assert!(r.is_unsat(), "{sort:?}: {r:?}");
            assert!(s.stats().simplex_conflicts >= 1);
            // both assumptions are needed
            assert_eq!(s.failed_assumptions().len(), 2);
            let (_, r) =
                opposite_differences(LinearReasoning::Icp, sort, (Rel::Ge, 1), (Rel::Ge, 1));
            assert!(!r.is_unsat(), "ICP alone should not refute this: {r:?}");
        }
    }

    /// One step of `x' = fl(fl(0.75·x) + fl(0.25·y))`, `y' = fl(fl(0.25·x) + fl(0.75·y))`
    /// over binary32 `x, y ∈ [0, 100]`, with `d = x − y` and `d' = x' − y'` as reals
    /// (`to_real`): returns the solver and the result of `d ∈ [−1, 1] ∧ d' ≥ lo`.
    fn averaging_step(linear_mode: LinearReasoning, lo: f64) -> (Solver, SolveResult) {
        use crate::num::{FpFormat, RoundingMode};
        let mut s = solver(linear_mode);
        let f32s = Sort::Fp(FpFormat::F32);
        let x = s.new_var(f32s, &Domain::closed(q(0), q(100)));
        let y = s.new_var(f32s, &Domain::closed(q(0), q(100)));
        let k = |s: &mut Solver, v: f64| {
            let r = Rational::from_float(v).unwrap();
            s.new_var(f32s, &Domain::closed(r.clone(), r))
        };
        let (c3, c1) = (k(&mut s, 0.75), k(&mut s, 0.25));
        let rne = RoundingMode::Rne;
        let op = |s: &mut Solver, op: Op, args: Vec<Var>| {
            let out = s.new_var(f32s, &Domain::unbounded());
            s.add_def(out, op, args);
            out
        };
        let (ax, by) = (
            op(&mut s, Op::FMul(rne), vec![c3, x]),
            op(&mut s, Op::FMul(rne), vec![c1, y]),
        );
        let x1 = op(&mut s, Op::FAdd(rne), vec![ax, by]);
        let (cx, dy) = (
            op(&mut s, Op::FMul(rne), vec![x, c1]),
            op(&mut s, Op::FMul(rne), vec![y, c3]),
        );
        let y1 = op(&mut s, Op::FAdd(rne), vec![cx, dy]);
        let real = |s: &mut Solver, v: Var| {
            let r = s.new_var(Sort::Real, &Domain::unbounded());
            s.add_def(r, Op::FpToReal, vec![v]);
            r
        };
        let (rx, ry, rx1, ry1) = (
            real(&mut s, x),
            real(&mut s, y),
            real(&mut s, x1),
            real(&mut s, y1),
        );
        let d = linear(&mut s, Sort::Real, &[(1, rx), (-1, ry)]);
        let d1 = linear(&mut s, Sort::Real, &[(1, rx1), (-1, ry1)]);
        let lits = [
            s.bound_lit(d, Rel::Ge, &q(-1)),
            s.bound_lit(d, Rel::Le, &q(1)),
            s.bound_lit(d1, Rel::Ge, &Rational::from_float(lo).unwrap()),
        ];
        let r = s.solve(&lits);
        (s, r)
    }

    #[test]
    fn rounded_rows_relate_float_results() {
        // by hand: x' − y' = (x − y)/2 + e with |e| ≤ 2·(two roundings of about 2^-17 each,
        // for results in [0, 100]) < 2^-14, so d ∈ [−1, 1] gives d' ≤ 0.5 + 2^-14 < 0.6
        let (s, r) = averaging_step(LinearReasoning::Simplex, 0.6);
        assert!(r.is_unsat(), "{r:?}");
        assert!(s.stats().simplex_conflicts >= 1);
        // d' ≥ 0.4 holds at x = 1, y = 0 (d' = 0.5 exactly)
        let (_, r) = averaging_step(LinearReasoning::Simplex, 0.4);
        assert!(r.is_sat(), "{r:?}");
        // the rows refute without a single split; interval propagation alone refutes only
        // by splitting the boxes of x and y (448 splits when written; too slow to repeat
        // here in `check-deductions` builds)
        assert_eq!(s.stats().splits, 0, "{:?}", s.stats());
    }

    #[test]
    fn the_certificate_check_bounds_rounding_errors_from_the_guards() {
        use crate::lit::Lit;
        use crate::num::{FpFormat, RoundingMode};
        // z = fl(x + y), w = fl(z − x) over binary32: rows (x + y − z) and (z − x − w) sum to
        // y − w, whose error is below gap(200) + gap(100) = 2^-16 + 2^-17 while z ∈ [0, 200]
        // and w ∈ [0, 100]; so y ≥ 50 and w ≤ 40 cannot hold together
        let mut s = solver(LinearReasoning::Icp);
        let f32s = Sort::Fp(FpFormat::F32);
        let x = s.new_var(f32s, &Domain::closed(q(0), q(100)));
        let y = s.new_var(f32s, &Domain::closed(q(0), q(100)));
        let z = s.new_var(f32s, &Domain::unbounded());
        let w = s.new_var(f32s, &Domain::unbounded());
        s.add_def(z, Op::FAdd(RoundingMode::Rne), vec![x, y]);
        s.add_def(w, Op::FSub(RoundingMode::Rne), vec![z, x]);
        let not_nan = |s: &Solver, v: Var| !s.bool_lit(s.vars[v].fp.unwrap().nan).unwrap();
        let (nz, nw) = (not_nan(&s, z), not_nan(&s, w));
        let guards = [
            nz,
            s.bound_lit(z, Rel::Ge, &q(0)),
            s.bound_lit(z, Rel::Le, &q(200)),
            nw,
            s.bound_lit(w, Rel::Ge, &q(0)),
            s.bound_lit(w, Rel::Le, &q(100)),
        ];
        let (y50, w40, w49) = (
            s.bound_lit(y, Rel::Ge, &q(50)),
            s.bound_lit(w, Rel::Le, &q(40)),
            s.bound_lit(w, Rel::Le, &Rational::from_float(49.99999).unwrap()),
        );
        let with = |extra: &[Lit], skip: usize| -> Vec<Lit> {
            let mut v: Vec<Lit> = guards
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            v.extend_from_slice(extra);
            v
        };
        let one = [(0, q(1)), (1, q(1))];
        use super::certify::check_conflict as check;
        assert!(check(&s, &one, &with(&[y50, w40], usize::MAX)).is_ok());
        // the guard's `¬nan` literal is needed (z's bounds also follow from x's and y's
        // level-0 bounds, so dropping their literals is no test)
        assert!(check(&s, &one, &with(&[y50, w40], 3)).is_err());
        // wrong multipliers, or a gap smaller than the error bound, do not refute
        assert!(check(&s, &[(0, q(1)), (1, q(-1))], &with(&[y50, w40], usize::MAX)).is_err());
        assert!(check(&s, &one, &with(&[y50, w49], usize::MAX)).is_err());
    }

    #[test]
    fn strict_and_non_strict_bounds_are_exact() {
        // a > 0 and b >= 0 (a = −b): unsat; a >= 0 and b >= 0: sat at x = y
        let (_, r) = opposite_differences(
            LinearReasoning::Simplex,
            Sort::Real,
            (Rel::Gt, 0),
            (Rel::Ge, 0),
        );
        assert!(r.is_unsat(), "{r:?}");
        let (s, r) = opposite_differences(
            LinearReasoning::Simplex,
            Sort::Real,
            (Rel::Ge, 0),
            (Rel::Ge, 0),
        );
        assert!(r.is_sat(), "{r:?}");
        assert_eq!(s.stats().simplex_conflicts, 0);
    }

    #[test]
    fn the_certificate_check_rejects_wrong_multipliers() {
        // a = x − y, b = y − x with a ≥ 1 and b ≥ 1 true at level 1: the multipliers (1, 1)
        // refute, (1, −1) and (1, 0) do not.
        let mut s = solver(LinearReasoning::Icp);
        let x = s.new_var(Sort::Real, &Domain::unbounded());
        let y = s.new_var(Sort::Real, &Domain::unbounded());
        let a = linear(&mut s, Sort::Real, &[(1, x), (-1, y)]);
        let b = linear(&mut s, Sort::Real, &[(-1, x), (1, y)]);
        let la = s.bound_lit(a, Rel::Ge, &q(1));
        let lb = s.bound_lit(b, Rel::Ge, &q(1));
        let lits = [la, lb];
        assert!(super::certify::check_conflict(&s, &[(0, q(1)), (1, q(1))], &lits).is_ok());
        assert!(super::certify::check_conflict(&s, &[(0, q(2)), (1, q(2))], &lits).is_ok());
        assert!(super::certify::check_conflict(&s, &[(0, q(1)), (1, q(-1))], &lits).is_err());
        assert!(super::certify::check_conflict(&s, &[(0, q(1))], &lits).is_err());
        // without b's bound nothing is refuted
        assert!(super::certify::check_conflict(&s, &[(0, q(1)), (1, q(1))], &[la]).is_err());
    }

    /// `s = 3x + 3y` over unbounded integers with `lo <= s <= hi` as assumptions.
    fn triple_sum(linear_mode: LinearReasoning, lo: i64, hi: i64) -> (Solver, SolveResult) {
        let mut s = solver(linear_mode);
        let x = s.new_var(Sort::Int, &Domain::unbounded());
        let y = s.new_var(Sort::Int, &Domain::unbounded());
        let sum = linear(&mut s, Sort::Int, &[(3, x), (3, y)]);
        let l = s.bound_lit(sum, Rel::Ge, &q(lo));
        let u = s.bound_lit(sum, Rel::Le, &q(hi));
        let r = s.solve(&[l, u]);
        (s, r)
    }

    #[test]
    fn refutes_integer_problems_with_only_rational_solutions() {
        // 1 <= 3x + 3y <= 2: x + y = 1/3 over the rationals, nothing over the integers.
        // Interval splitting on the unbounded x, y never ends; the GCD test refutes at once.
        let (s, r) = triple_sum(LinearReasoning::Simplex, 1, 2);
        assert!(r.is_unsat(), "{r:?}");
        assert!(s.stats().simplex_int_conflicts >= 1);
        let (_, r) = triple_sum(LinearReasoning::Icp, 1, 2);
        assert!(!r.is_unsat(), "ICP alone should not refute this: {r:?}");
        // 1 <= 3x + 3y <= 3 has integer points
        let (_, r) = triple_sum(LinearReasoning::Simplex, 1, 3);
        assert!(r.is_sat(), "{r:?}");
    }

    #[test]
    fn integer_reasoning_refutes_a_problem_with_rational_points() {
        // 2 <= 4x - 2y <= 3 and 7 <= x + 4y <= 9 over unbounded integers: rational points
        // exist (x = 13/9, y = 17/9), integer ones do not (see below); interval splitting
        // alone does not end on the unbounded x, y
        let mut s = solver(LinearReasoning::Simplex);
        let x = s.new_var(Sort::Int, &Domain::unbounded());
        let y = s.new_var(Sort::Int, &Domain::unbounded());
        let a = linear(&mut s, Sort::Int, &[(4, x), (-2, y)]);
        let b = linear(&mut s, Sort::Int, &[(1, x), (4, y)]);
        let lits = [
            s.bound_lit(a, Rel::Ge, &q(2)),
            s.bound_lit(a, Rel::Le, &q(3)),
            s.bound_lit(b, Rel::Ge, &q(7)),
            s.bound_lit(b, Rel::Le, &q(9)),
        ];
        let r = s.solve(&lits);
        // by hand: 4x - 2y ∈ {2} (even), so y = 2x - 1, and x + 4y = 9x - 4 ∈ [7, 9]: x = 13/9
        // is not an integer: unsat; the rational relaxation is feasible
        assert!(r.is_unsat(), "{r:?}");
        let st = s.stats();
        assert!(
            st.simplex_int_conflicts + st.simplex_branches >= 1,
            "integer reasoning should be needed: {st:?}"
        );
    }

    #[test]
    fn the_certificate_check_rejects_corrupted_integer_explanations() {
        // s = 3x + 3y with s >= 1 and s <= 2 true: {x, y} as the divisible part refutes
        let mut s = solver(LinearReasoning::Icp);
        let x = s.new_var(Sort::Int, &Domain::unbounded());
        let y = s.new_var(Sort::Int, &Domain::unbounded());
        let z = s.new_var(Sort::Real, &Domain::unbounded());
        let sum = linear(&mut s, Sort::Int, &[(3, x), (3, y)]);
        let l = s.bound_lit(sum, Rel::Ge, &q(1));
        let u = s.bound_lit(sum, Rel::Le, &q(2));
        let u3 = s.bound_lit(sum, Rel::Le, &q(3));
        // w = 3x + 3y + z with z real: z can fill any gap
        let w = linear(&mut s, Sort::Real, &[(3, x), (3, y), (1, z)]);
        let wl = s.bound_lit(w, Rel::Ge, &q(1));
        let wu = s.bound_lit(w, Rel::Le, &q(2));
        use super::certify::check_int_conflict as check;
        assert!(check(&s, &[(0, q(1))], &[x, y], &[l, u]).is_ok());
        assert!(check(&s, &[(0, q(-2))], &[x, y], &[l, u]).is_ok());
        // a missing bound, a looser bound, a missing divisible variable, a real variable in
        // the divisible part, or the wrong definition: each is rejected
        assert!(check(&s, &[(0, q(1))], &[x, y], &[l]).is_err());
        assert!(check(&s, &[(0, q(1))], &[x, y], &[l, u3]).is_err());
        assert!(check(&s, &[(0, q(1))], &[x], &[l, u]).is_err());
        assert!(check(&s, &[(1, q(1))], &[x, y, z], &[wl, wu]).is_err());
        assert!(check(&s, &[(1, q(1))], &[x, y], &[wl, wu]).is_err());
        assert!(check(&s, &[], &[x, y], &[l, u]).is_err());
        // the Farkas check does not accept it: it is an integer argument only
        assert!(super::certify::check_conflict(&s, &[(0, q(1))], &[l, u]).is_err());
    }
}
