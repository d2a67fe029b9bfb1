//! The general simplex of Dutertre and de Moura ("A Fast Linear-Arithmetic Solver for
//! DPLL(T)", CAV 2006, §3) over exact rationals, independent of the CDCL solver.
//!
//! The idea: every linear term gets a *slack* variable `s = Σ aᵢ·xᵢ`, so that all constraints
//! become bounds `l ≤ x ≤ u` on single variables and one fixed set of equations, the
//! *tableau*, in which some variables are *basic* (each one a row `b = Σ a·n` over non-basic
//! variables). The current assignment always satisfies every row, and every non-basic variable
//! lies within its bounds; [`Tableau::check`] repairs basic variables that violate their bounds
//! by pivoting: the violated basic variable of smallest index leaves; the entering variable is
//! the one of the shortest column for a check's first pivots (least fill-in), then by Bland's
//! rule (smallest index first), which cannot cycle, so a check terminates.
//! When a violated basic variable cannot be repaired — every non-basic variable of its row is
//! stuck at the bound that would have to move — the row itself is the Farkas certificate: the
//! row's equation together with those bounds has no solution.
//!
//! Strict bounds use δ-rationals `c + k·δ` for an infinitesimal `δ > 0` (paper §3.3):
//! `x < 3` is `x ≤ 3 - δ`. Bounds change without touching the tableau: tightening a bound of a
//! non-basic variable moves its value onto the bound, loosening one changes nothing (the
//! assignment still satisfies it), which is why backtracking only restores bounds.
//!
//! Cost on large tableaux (long unrollings): a *column index* lists, for every non-basic
//! variable, the rows it occurs in, so moving it or pivoting on it touches only those rows;
//! a *candidate set* holds every basic variable whose value or bounds changed since it was
//! last seen within its bounds, so a check looks only at those instead of every row. Both
//! are exact bookkeeping of the tableau itself (bounds come and go with the solver's trail;
//! every change goes through [`Tableau::set_lower`]/[`Tableau::set_upper`], which keep them).
//!
//! Integers: [`Tableau::integer_conflict`] is a GCD test over one row (a cut in the sense of
//! divisibility), and [`Tableau::fractional`] names an integer variable the rational
//! assignment puts between two integers, for branch and bound.

use crate::num::Rational;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// Pivots of one check that choose the entering variable by column length before Bland's
/// rule takes over (see [`Tableau::check`]).
const SPARSE_PIVOTS: u64 = 32;

/// A variable of the tableau (a problem variable or a slack).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) struct TVar(pub u32);

impl TVar {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// `a·b`, without the gcd reduction when both are integers (most tableau coefficients are:
/// linear definitions have small integer coefficients, and a reduction costs a gcd each).
fn qmul(a: &Rational, b: &Rational) -> Rational {
    if a.denom().is_one() && b.denom().is_one() {
        Rational::from_integer(a.numer() * b.numer())
    } else {
        a * b
    }
}

/// `a + b`, without the gcd reduction when both are integers.
fn qadd(a: &Rational, b: &Rational) -> Rational {
    if a.denom().is_one() && b.denom().is_one() {
        Rational::from_integer(a.numer() + b.numer())
    } else {
        a + b
    }
}

/// A δ-rational `c + k·δ`, ordered lexicographically (δ is a positive infinitesimal).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct DeltaRat {
    pub c: Rational,
    pub k: Rational,
}

impl DeltaRat {
    pub fn new(c: Rational, k: Rational) -> DeltaRat {
        DeltaRat { c, k }
    }
    pub fn exact(c: Rational) -> DeltaRat {
        DeltaRat {
            c,
            k: Rational::zero(),
        }
    }
    fn add_scaled(&mut self, a: &Rational, d: &DeltaRat) {
        if !d.c.is_zero() {
            self.c = qadd(&self.c, &qmul(a, &d.c));
        }
        if !d.k.is_zero() {
            self.k = qadd(&self.k, &qmul(a, &d.k));
        }
    }
    fn sub(&self, o: &DeltaRat) -> DeltaRat {
        DeltaRat {
            c: &self.c - &o.c,
            k: &self.k - &o.k,
        }
    }
    fn scale(&self, a: &Rational) -> DeltaRat {
        DeltaRat {
            c: &self.c * a,
            k: &self.k * a,
        }
    }
}

impl PartialOrd for DeltaRat {
    fn partial_cmp(&self, o: &DeltaRat) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for DeltaRat {
    fn cmp(&self, o: &DeltaRat) -> Ordering {
        self.c.cmp(&o.c).then_with(|| self.k.cmp(&o.k))
    }
}

/// A bound and why it holds: `reason` is `None` for unconditional bounds (the fixed value
/// of a slack), else the caller's tag that the explanation of a conflict reports.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TBound<R> {
    pub value: DeltaRat,
    pub reason: Option<R>,
}

/// The answer of [`Tableau::check`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Feasibility<R> {
    /// the current assignment satisfies every bound
    Feasible,
    /// no assignment satisfies the bounds; see [`Infeasible`]
    Infeasible(Infeasible<R>),
    /// the pivot budget ran out first (nothing is claimed)
    GaveUp,
}

/// An integer infeasibility certificate (GCD test): `row` lists `(x, a)` with `Σ a·x = 0`
/// implied by the defining equations, like [`Infeasible`]; the variables of `unbounded` are
/// integers whose part `Σ a·x` is therefore a multiple of `g`, and the bounds named by
/// `reasons` (both bounds of every other variable of the row) confine that part to a range
/// with no multiple of `g` in it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct IntInfeasible<R> {
    pub row: Vec<(TVar, Rational)>,
    pub unbounded: Vec<TVar>,
    pub reasons: Vec<R>,
}

/// An infeasibility certificate: `row` lists `(x, a)` with `Σ a·x = 0` implied by the
/// tableau's defining equations, and `reasons` the tags of the bounds that make that sum
/// impossible (every variable of `row` is bounded on the side that matters, so the sum is
/// either always negative or always positive).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Infeasible<R> {
    pub row: Vec<(TVar, Rational)>,
    pub reasons: Vec<R>,
}

#[derive(Clone, Debug, Default)]
struct VarState<R> {
    value: DeltaRat,
    lower: Option<TBound<R>>,
    upper: Option<TBound<R>>,
    /// the row whose basic variable this is
    row: Option<u32>,
    /// an integer variable (only for the integer tests; the simplex itself is rational)
    int: bool,
    /// the rows this variable occurs in while non-basic (the column index)
    col: BTreeSet<u32>,
}

/// One row `basic = Σ a·x` over non-basic variables, `terms` sorted by variable, no zeros.
#[derive(Clone, Debug)]
struct Row {
    basic: TVar,
    terms: Vec<(TVar, Rational)>,
}

/// The simplex tableau with bounds and the current assignment. `R` tags bounds (the solver
/// uses its bound literals).
#[derive(Clone, Debug)]
pub(crate) struct Tableau<R> {
    vars: Vec<VarState<R>>,
    rows: Vec<Row>,
    /// basic variables that may violate a bound: every violated one is in here (values and
    /// bounds change only through this module, which inserts the affected ones)
    candidates: BTreeSet<TVar>,
    /// pivots over the tableau's lifetime
    pub pivots: u64,
}

impl<R> Default for Tableau<R> {
    fn default() -> Self {
        Tableau {
            vars: Vec::new(),
            rows: Vec::new(),
            candidates: BTreeSet::new(),
            pivots: 0,
        }
    }
}

/// `acc += f · terms`, both sorted by variable; drops zeros.
fn add_terms(acc: &mut Vec<(TVar, Rational)>, f: &Rational, terms: &[(TVar, Rational)]) {
    let old = std::mem::take(acc);
    let mut out = Vec::with_capacity(old.len() + terms.len());
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < terms.len() {
        let take_old = j == terms.len() || (i < old.len() && old[i].0 < terms[j].0);
        let take_new = i == old.len() || (j < terms.len() && terms[j].0 < old[i].0);
        if take_old {
            out.push(old[i].clone());
            i += 1;
        } else if take_new {
            out.push((terms[j].0, qmul(f, &terms[j].1)));
            j += 1;
        } else {
            let s = qadd(&old[i].1, &qmul(f, &terms[j].1));
            if !s.is_zero() {
                out.push((old[i].0, s));
            }
            i += 1;
            j += 1;
        }
    }
    *acc = out;
}

impl<R: Clone> Tableau<R> {
    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    /// A new unbounded non-basic variable with value 0.
    pub fn new_var(&mut self) -> TVar {
        self.vars.push(VarState {
            value: DeltaRat::default(),
            lower: None,
            upper: None,
            row: None,
            int: false,
            col: BTreeSet::new(),
        });
        TVar(self.vars.len() as u32 - 1)
    }

    /// Marks `x` as an integer variable (for [`Tableau::integer_conflict`] and
    /// [`Tableau::fractional`]).
    pub fn set_integer(&mut self, x: TVar) {
        self.vars[x.index()].int = true;
    }

    /// A new basic variable `s = Σ a·x` (any variables; repeated ones are summed, basic ones
    /// are replaced by their rows), with the value the current assignment gives it.
    pub fn add_row(&mut self, terms: &[(TVar, Rational)]) -> TVar {
        let mut sorted: Vec<(TVar, Rational)> = terms.to_vec();
        sorted.sort_by_key(|t| t.0);
        let mut row: Vec<(TVar, Rational)> = Vec::new();
        for (x, a) in sorted {
            if a.is_zero() {
                continue;
            }
            match self.vars[x.index()].row {
                Some(r) => {
                    let sub = self.rows[r as usize].terms.clone();
                    add_terms(&mut row, &a, &sub);
                }
                None => add_terms(&mut row, &a, &[(x, Rational::from_integer(1.into()))]),
            }
        }
        let s = self.new_var();
        let mut value = DeltaRat::default();
        for (x, a) in &row {
            value.add_scaled(a, &self.vars[x.index()].value);
        }
        self.vars[s.index()].value = value;
        let r = self.rows.len() as u32;
        self.vars[s.index()].row = Some(r);
        for (x, _) in &row {
            self.vars[x.index()].col.insert(r);
        }
        self.candidates.insert(s);
        self.rows.push(Row {
            basic: s,
            terms: row,
        });
        s
    }

    /// The current bounds of `x` (values only).
    pub fn bounds(&self, x: TVar) -> (Option<&DeltaRat>, Option<&DeltaRat>) {
        let s = &self.vars[x.index()];
        (
            s.lower.as_ref().map(|b| &b.value),
            s.upper.as_ref().map(|b| &b.value),
        )
    }

    pub fn value(&self, x: TVar) -> &DeltaRat {
        &self.vars[x.index()].value
    }

    /// Sets (or removes) the lower bound of `x`. A non-basic variable below its new bound
    /// moves onto it (the rows follow); the caller keeps lower ≤ upper.
    pub fn set_lower(&mut self, x: TVar, b: Option<TBound<R>>) {
        let target = match &b {
            Some(b) if self.vars[x.index()].row.is_none() && self.value(x) < &b.value => {
                Some(b.value.clone())
            }
            _ => None,
        };
        self.vars[x.index()].lower = b;
        if self.vars[x.index()].row.is_some() {
            self.candidates.insert(x);
        }
        if let Some(v) = target {
            self.update(x, v);
        }
    }

    /// Sets (or removes) the upper bound of `x`, like [`Tableau::set_lower`].
    pub fn set_upper(&mut self, x: TVar, b: Option<TBound<R>>) {
        let target = match &b {
            Some(b) if self.vars[x.index()].row.is_none() && self.value(x) > &b.value => {
                Some(b.value.clone())
            }
            _ => None,
        };
        self.vars[x.index()].upper = b;
        if self.vars[x.index()].row.is_some() {
            self.candidates.insert(x);
        }
        if let Some(v) = target {
            self.update(x, v);
        }
    }

    fn below_lower(&self, x: TVar) -> bool {
        let s = &self.vars[x.index()];
        s.lower.as_ref().is_some_and(|l| s.value < l.value)
    }

    fn above_upper(&self, x: TVar) -> bool {
        let s = &self.vars[x.index()];
        s.upper.as_ref().is_some_and(|u| s.value > u.value)
    }

    /// Sets the non-basic `x` to `v` and the basic variables of the rows containing it.
    fn update(&mut self, x: TVar, v: DeltaRat) {
        let delta = v.sub(&self.vars[x.index()].value);
        self.shift_column(x, None, &delta);
        self.vars[x.index()].value = v;
    }

    /// Adds `a·delta` to the basic variable of every row (but `skip`) in which the non-basic
    /// `x` occurs with coefficient `a`: the rows stay satisfied when `x` moves by `delta`.
    fn shift_column(&mut self, x: TVar, skip: Option<usize>, delta: &DeltaRat) {
        let col = std::mem::take(&mut self.vars[x.index()].col);
        let Tableau {
            vars,
            rows,
            candidates,
            ..
        } = self;
        for &r in &col {
            if Some(r as usize) == skip {
                continue;
            }
            let row = &rows[r as usize];
            let k = row
                .terms
                .binary_search_by_key(&x, |t| t.0)
                .expect("the column index lists only rows containing the variable");
            let b = row.basic;
            let a = &row.terms[k].1;
            // vars[b] is a different entry than vars[x] (b is basic, x is not)
            vars[b.index()].value.add_scaled(a, delta);
            candidates.insert(b);
        }
        self.vars[x.index()].col = col;
    }

    /// Makes the non-basic `x` basic in row `r` (whose basic variable leaves).
    fn pivot(&mut self, r: usize, x: TVar) {
        self.pivots += 1;
        let row = std::mem::replace(
            &mut self.rows[r],
            Row {
                basic: x,
                terms: Vec::new(),
            },
        );
        let k = row
            .terms
            .binary_search_by_key(&x, |t| t.0)
            .expect("pivot variable in row");
        let a = row.terms[k].1.clone();
        // b = a·x + Σ c·y  ⇒  x = (1/a)·b − Σ (c/a)·y
        let inv = a.recip();
        let mut terms: Vec<(TVar, Rational)> = Vec::with_capacity(row.terms.len());
        for (y, c) in row.terms.iter() {
            if *y != x {
                terms.push((*y, -qmul(c, &inv)));
            }
        }
        terms.push((row.basic, inv));
        terms.sort_by_key(|t| t.0);
        self.vars[row.basic.index()].row = None;
        self.vars[x.index()].row = Some(r as u32);
        self.candidates.insert(x);
        // the leaving variable now occurs in row r; x occurs in no row any more
        self.vars[row.basic.index()].col.insert(r as u32);
        let xcol = std::mem::take(&mut self.vars[x.index()].col);
        for &q in &xcol {
            let q = q as usize;
            if q == r {
                continue;
            }
            let k = self.rows[q]
                .terms
                .binary_search_by_key(&x, |t| t.0)
                .expect("the column index lists only rows containing the variable");
            let c = self.rows[q].terms.remove(k).1;
            add_terms(&mut self.rows[q].terms, &c, &terms);
            // only the variables of the pivot row can enter or (cancelling) leave row q
            for (y, _) in &terms {
                let present = self.rows[q].terms.binary_search_by_key(y, |t| t.0).is_ok();
                let col = &mut self.vars[y.index()].col;
                if present {
                    col.insert(q as u32);
                } else {
                    col.remove(&(q as u32));
                }
            }
        }
        self.rows[r].terms = terms;
    }

    /// Moves basic `b` (row `r`) to `v` by changing non-basic `x`, then pivots them.
    fn pivot_and_update(&mut self, r: usize, x: TVar, v: DeltaRat) {
        let b = self.rows[r].basic;
        let k = self.rows[r]
            .terms
            .binary_search_by_key(&x, |t| t.0)
            .expect("pivot variable in row");
        let a = self.rows[r].terms[k].1.clone();
        let theta = v.sub(&self.vars[b.index()].value).scale(&a.recip());
        self.vars[b.index()].value = v;
        self.vars[x.index()]
            .value
            .add_scaled(&Rational::from_integer(1.into()), &theta);
        self.shift_column(x, Some(r), &theta);
        self.pivot(r, x);
    }

    /// A positive value for δ at which the δ-rational assignment satisfies every bound as
    /// rationals (Dutertre–de Moura §3.3): the smallest gap where a bound's δ part is larger
    /// than the value's, capped at 1.
    pub fn concrete_delta(&self) -> Rational {
        let mut delta = Rational::from_integer(1.into());
        // need lo ≤ x: where lo.c < x.c but lo.k > x.k, δ ≤ (x.c − lo.c)/(lo.k − x.k)
        let mut limit = |lo: &DeltaRat, x: &DeltaRat| {
            if lo.c < x.c && lo.k > x.k {
                let d = (&x.c - &lo.c) / (&lo.k - &x.k);
                if d < delta {
                    delta = d;
                }
            }
        };
        for s in &self.vars {
            if let Some(l) = &s.lower {
                limit(&l.value, &s.value);
            }
            if let Some(u) = &s.upper {
                limit(&s.value, &u.value);
            }
        }
        delta / Rational::from_integer(2.into())
    }

    /// Restores feasibility by pivoting (Bland's rule), at most `max_pivots` times and not
    /// past `deadline` (looked at every 16 pivots; pivots on large tableaux are slow).
    pub fn check(
        &mut self,
        max_pivots: u64,
        deadline: Option<std::time::Instant>,
    ) -> Feasibility<R> {
        let mut done = 0u64;
        loop {
            // the violated basic variable of smallest index (Bland): the candidates are
            // ordered, and one found within its bounds (or no longer basic) leaves the set
            let mut pick: Option<(TVar, usize)> = None;
            while let Some(&b) = self.candidates.first() {
                match self.vars[b.index()].row {
                    Some(r) if self.below_lower(b) || self.above_upper(b) => {
                        pick = Some((b, r as usize));
                        break;
                    }
                    _ => {
                        self.candidates.pop_first();
                    }
                }
            }
            let Some((b, r)) = pick else {
                return Feasibility::Feasible;
            };
            if done >= max_pivots
                || (done % 16 == 15 && deadline.is_some_and(|d| std::time::Instant::now() >= d))
            {
                return Feasibility::GaveUp;
            }
            done += 1;
            let raise = self.below_lower(b);
            // the non-basic variable of smallest index that can move b towards its bound
            let can_move = |x: TVar, a: &Rational| -> bool {
                let s = &self.vars[x.index()];
                let up = a.is_positive() == raise;
                if up {
                    s.upper.as_ref().is_none_or(|u| s.value < u.value)
                } else {
                    s.lower.as_ref().is_none_or(|l| s.value > l.value)
                }
            };
            // the first pivots of a check take the movable variable of the shortest column
            // (it occurs in the fewest rows: the least fill-in); after those, Bland's rule
            // (smallest index), which cannot cycle, so the check terminates
            let mut movable = self.rows[r].terms.iter().filter(|(x, a)| can_move(*x, a));
            let entering = if done <= SPARSE_PIVOTS {
                movable
                    .min_by_key(|(x, _)| (self.vars[x.index()].col.len(), *x))
                    .map(|t| t.0)
            } else {
                movable.next().map(|t| t.0)
            };
            match entering {
                Some(x) => {
                    let target = if raise {
                        self.vars[b.index()]
                            .lower
                            .as_ref()
                            .expect("lower")
                            .value
                            .clone()
                    } else {
                        self.vars[b.index()]
                            .upper
                            .as_ref()
                            .expect("upper")
                            .value
                            .clone()
                    };
                    self.pivot_and_update(r, x, target);
                }
                None => return Feasibility::Infeasible(self.explain(r, raise)),
            }
        }
    }

    /// An integer variable whose value in the current assignment is not an integer (the
    /// basic one of smallest index: non-basic variables sit at their bounds, which are
    /// integral for integers, or at 0), for branch and bound. Scans the rows' basic variables.
    pub fn fractional(&self) -> Option<TVar> {
        self.fractional_basics().min()
    }

    /// The basic integer variables whose value is not an integer.
    pub fn fractional_basics(&self) -> impl Iterator<Item = TVar> + '_ {
        self.rows.iter().map(|row| row.basic).filter(|b| {
            let s = &self.vars[b.index()];
            s.int && !(s.value.k.is_zero() && s.value.c.is_integer())
        })
    }

    /// The GCD test on the row whose basic variable is `b`: the row says `Σ a·x = 0`; its
    /// integer variables that lack a lower or an upper bound form a part `Σ_U a·x` that is a
    /// multiple of `g = gcd(m·a)` once scaled by the common denominator `m`, and the other
    /// variables, each bounded on both sides, confine that part to a range. If the range holds
    /// no multiple of `g`, no integer point exists (the rational assignment may: this is what
    /// interval splitting on unbounded integers never finishes). Also tried with `U` = every
    /// integer variable that is not fixed. `None` when the row passes or the test does not
    /// apply (a non-integer variable unbounded on a side).
    pub fn integer_conflict(&self, b: TVar) -> Option<IntInfeasible<R>> {
        let r = self.vars[b.index()].row? as usize;
        let row = &self.rows[r];
        let mut all: Vec<(TVar, Rational)> = vec![(row.basic, Rational::one())];
        all.extend(row.terms.iter().map(|(x, a)| (*x, -a.clone())));
        let bounded = |x: TVar| {
            let s = &self.vars[x.index()];
            s.lower.is_some() && s.upper.is_some()
        };
        let fixed = |x: TVar| {
            let s = &self.vars[x.index()];
            matches!((&s.lower, &s.upper), (Some(l), Some(u)) if l.value == u.value)
        };
        let not_bounded = |x: TVar| !bounded(x);
        let not_fixed = |x: TVar| !fixed(x);
        self.gcd_test(&all, &not_bounded)
            .or_else(|| self.gcd_test(&all, &not_fixed))
    }

    /// One GCD test of [`Tableau::integer_conflict`] with the part `U` chosen by `in_u`.
    fn gcd_test(
        &self,
        all: &[(TVar, Rational)],
        in_u: &dyn Fn(TVar) -> bool,
    ) -> Option<IntInfeasible<R>> {
        type Terms<'a> = Vec<&'a (TVar, Rational)>;
        let (u, rest): (Terms, Terms) = all.iter().partition(|(x, _)| in_u(*x));
        if u.is_empty() || u.iter().any(|(x, _)| !self.vars[x.index()].int) {
            return None;
        }
        let m = u.iter().fold(BigInt::one(), |m, (_, a)| m.lcm(a.denom()));
        let g = u
            .iter()
            .fold(BigInt::zero(), |g, (_, a)| g.gcd(&(a * &m).to_integer()));
        // Σ_U a·x = −Σ_rest a·x ∈ [lo, hi]
        let mut lo = DeltaRat::default();
        let mut hi = DeltaRat::default();
        let mut reasons = Vec::new();
        for (x, a) in &rest {
            let s = &self.vars[x.index()];
            let (l, h) = (s.lower.as_ref()?, s.upper.as_ref()?);
            let (min, max) = if a.is_positive() { (l, h) } else { (h, l) };
            hi.add_scaled(&-a.clone(), &min.value);
            lo.add_scaled(&-a.clone(), &max.value);
            reasons.extend(l.reason.clone());
            reasons.extend(h.reason.clone());
        }
        // scaled by m: a multiple of g in [m·lo, m·hi]?
        let (lo, hi) = (
            lo.scale(&Rational::from_integer(m.clone())),
            hi.scale(&Rational::from_integer(m)),
        );
        let g = Rational::from_integer(g);
        // the smallest multiple of g at or above lo (δ > 0 infinitesimal)
        let first = {
            let q = &lo.c / &g;
            let mut k = q.ceil();
            if k == q && lo.k.is_positive() {
                k += Rational::one();
            }
            k * &g
        };
        let above_hi = first > hi.c || (first == hi.c && hi.k.is_negative());
        if !above_hi {
            return None;
        }
        Some(IntInfeasible {
            row: all.to_vec(),
            unbounded: u.iter().map(|(x, _)| *x).collect(),
            reasons,
        })
    }

    /// The certificate of row `r` whose basic variable cannot reach its lower (`raise`) or
    /// upper bound.
    fn explain(&self, r: usize, raise: bool) -> Infeasible<R> {
        let row = &self.rows[r];
        let mut reasons = Vec::new();
        let bound = |x: TVar, lower: bool| -> Option<R> {
            let s = &self.vars[x.index()];
            let b = if lower { &s.lower } else { &s.upper };
            b.as_ref()
                .expect("bound of a stuck variable")
                .reason
                .clone()
        };
        reasons.extend(bound(row.basic, raise));
        for (x, a) in &row.terms {
            // b too low: terms with a > 0 are at their upper bound, a < 0 at their lower
            let lower = a.is_positive() != raise;
            reasons.extend(bound(*x, lower));
        }
        let mut cert: Vec<(TVar, Rational)> = vec![(row.basic, Rational::from_integer(1.into()))];
        cert.extend(row.terms.iter().map(|(x, a)| (*x, -a.clone())));
        Infeasible { row: cert, reasons }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn q(n: i64) -> Rational {
        Rational::from_integer(BigInt::from(n))
    }

    fn le(v: i64, tag: u32) -> Option<TBound<u32>> {
        Some(TBound {
            value: DeltaRat::exact(q(v)),
            reason: Some(tag),
        })
    }

    fn lt(v: i64, tag: u32) -> Option<TBound<u32>> {
        // x < v is x <= v - δ; x > v is x >= v + δ (used for both by sign)
        Some(TBound {
            value: DeltaRat::new(q(v), q(-1)),
            reason: Some(tag),
        })
    }

    fn gt(v: i64, tag: u32) -> Option<TBound<u32>> {
        Some(TBound {
            value: DeltaRat::new(q(v), q(1)),
            reason: Some(tag),
        })
    }

    /// Checks a certificate by hand: `Σ a·x = 0` must be impossible under the bounds the
    /// reasons name (`bounds[tag] = (var, is_lower, value)`): the sum's supremum is below 0
    /// or its infimum above 0.
    fn certificate_refutes(
        cert: &Infeasible<u32>,
        bounds: &[(TVar, bool, DeltaRat)],
        rows: &[(TVar, Vec<(TVar, Rational)>)],
    ) -> bool {
        // substitute the defining rows of slacks: every slack s = Σ t, so the certificate's
        // sum over problem variables must vanish identically when expanded
        let mut expanded: Vec<(TVar, Rational)> = Vec::new();
        for (x, a) in &cert.row {
            match rows.iter().find(|(s, _)| s == x) {
                Some((_, t)) => {
                    // a·s − a·Σ t = 0 is an identity: contributes nothing
                    let mut t = t.clone();
                    t.sort_by_key(|p| p.0);
                    add_terms(&mut expanded, a, &t);
                }
                None => add_terms(&mut expanded, a, &[(*x, q(1))]),
            }
        }
        assert!(expanded.is_empty(), "certificate row is not a consequence");
        let used: Vec<&(TVar, bool, DeltaRat)> =
            cert.reasons.iter().map(|&t| &bounds[t as usize]).collect();
        let side = |want_upper_for_pos: bool| -> Option<DeltaRat> {
            let mut acc = DeltaRat::default();
            for (x, a) in &cert.row {
                let lower = a.is_positive() != want_upper_for_pos;
                let b = used.iter().find(|(y, l, _)| y == x && *l == lower)?;
                acc.add_scaled(a, &b.2);
            }
            Some(acc)
        };
        let zero = DeltaRat::default();
        side(true).is_some_and(|sup| sup < zero) || side(false).is_some_and(|inf| inf > zero)
    }

    #[test]
    fn feasible_system_gets_a_satisfying_assignment() {
        // x + y >= 4, x - y <= 1, x <= 2, y <= 5  ⇒ e.g. x = 2, y = 2 .. 5
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        let s = t.add_row(&[(x, q(1)), (y, q(1))]);
        let d = t.add_row(&[(x, q(1)), (y, q(-1))]);
        t.set_lower(s, le(4, 0));
        t.set_upper(d, le(1, 1));
        t.set_upper(x, le(2, 2));
        t.set_upper(y, le(5, 3));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        let (vx, vy) = (t.value(x).c.clone(), t.value(y).c.clone());
        assert!(&vx + &vy >= q(4) && &vx - &vy <= q(1) && vx <= q(2) && vy <= q(5));
        // the slacks still equal their rows
        assert_eq!(t.value(s).c, &vx + &vy);
        assert_eq!(t.value(d).c, &vx - &vy);
    }

    #[test]
    fn infeasible_system_gives_a_farkas_certificate() {
        // x + y >= 5, x <= 2, y <= 2 (tags 0, 1, 2): 2 + 2 < 5. An unrelated bound y >= 0
        // (tag 3) must not be in the explanation.
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        let s = t.add_row(&[(x, q(1)), (y, q(1))]);
        t.set_lower(y, le(0, 3));
        t.set_lower(s, le(5, 0));
        t.set_upper(x, le(2, 1));
        t.set_upper(y, le(2, 2));
        let Feasibility::Infeasible(c) = t.check(100, None) else {
            panic!("expected infeasible")
        };
        let mut r = c.reasons.clone();
        r.sort();
        assert_eq!(r, vec![0, 1, 2]);
        let bounds = [
            (s, true, DeltaRat::exact(q(5))),
            (x, false, DeltaRat::exact(q(2))),
            (y, false, DeltaRat::exact(q(2))),
            (y, true, DeltaRat::exact(q(0))),
        ];
        let rows = [(s, vec![(x, q(1)), (y, q(1))])];
        assert!(certificate_refutes(&c, &bounds, &rows));
    }

    #[test]
    fn infeasibility_through_pivots_and_several_rows() {
        // a = x + y, b = x - y, c = 2x + y: a <= 3, b <= 1, c >= 8 with x, y free.
        // From a and b: x <= 2; c = (3a + b)/2 ≤ (9 + 1)/2 = 5 < 8.
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        let a = t.add_row(&[(x, q(1)), (y, q(1))]);
        let b = t.add_row(&[(x, q(1)), (y, q(-1))]);
        let c = t.add_row(&[(x, q(2)), (y, q(1))]);
        t.set_upper(a, le(3, 0));
        t.set_upper(b, le(1, 1));
        t.set_lower(c, le(8, 2));
        let Feasibility::Infeasible(cert) = t.check(100, None) else {
            panic!("expected infeasible")
        };
        let mut r = cert.reasons.clone();
        r.sort();
        assert_eq!(r, vec![0, 1, 2]);
        let bounds = [
            (a, false, DeltaRat::exact(q(3))),
            (b, false, DeltaRat::exact(q(1))),
            (c, true, DeltaRat::exact(q(8))),
        ];
        let rows = [
            (a, vec![(x, q(1)), (y, q(1))]),
            (b, vec![(x, q(1)), (y, q(-1))]),
            (c, vec![(x, q(2)), (y, q(1))]),
        ];
        assert!(certificate_refutes(&cert, &bounds, &rows));
        // relaxing c's bound to 5 (loosening: no tableau change) makes it feasible, at 5
        t.set_lower(c, le(5, 2));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        assert_eq!(t.value(x).c, q(2));
        assert_eq!(t.value(y).c, q(1));
    }

    #[test]
    fn strict_bounds_use_delta() {
        // x + y < 2 (slack s), x > 1 (tag 1), y >= 1 (tag 2): 1 + δ + 1 ≥ 2 + δ  > 2 − δ.
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        let s = t.add_row(&[(x, q(1)), (y, q(1))]);
        t.set_upper(s, lt(2, 0));
        t.set_lower(x, gt(1, 1));
        t.set_lower(y, le(1, 2));
        assert!(matches!(t.check(100, None), Feasibility::Infeasible(_)));
        // non-strict x >= 1: x = y = 1 gives s = 2, still not < 2
        t.set_lower(x, le(1, 1));
        assert!(matches!(t.check(100, None), Feasibility::Infeasible(_)));
        // s <= 2: feasible at the point
        t.set_upper(s, le(2, 0));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        // y > 0 instead: x = 1, y in (0, 1) makes s < 2, feasible again
        t.set_upper(s, lt(2, 0));
        t.set_lower(y, gt(0, 2));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        assert!(t.value(s) < &DeltaRat::exact(q(2)));
    }

    #[test]
    fn a_concrete_delta_turns_the_assignment_into_a_rational_point() {
        // x + y < 2, x > 1, y >= 0: feasible; with δ made concrete every bound holds exactly
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        let s = t.add_row(&[(x, q(1)), (y, q(1))]);
        t.set_upper(s, lt(2, 0));
        t.set_lower(x, gt(1, 1));
        t.set_lower(y, le(0, 2));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        let d = t.concrete_delta();
        assert!(d > q(0));
        let at = |v: TVar| &t.value(v).c + &t.value(v).k * &d;
        let (vx, vy) = (at(x), at(y));
        assert!(vx > q(1) && vy >= q(0) && &vx + &vy < q(2), "{vx} {vy}");
    }

    #[test]
    fn rows_over_basic_variables_are_substituted() {
        // s = x + y; u = s - y (= x): u's row must be in non-basic variables
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        let s = t.add_row(&[(x, q(1)), (y, q(1))]);
        let u = t.add_row(&[(s, q(1)), (y, q(-1))]);
        t.set_lower(x, le(3, 0));
        assert_eq!(t.check(10, None), Feasibility::Feasible);
        assert_eq!(t.value(u).c, q(3));
        // u <= 2 with x >= 3: infeasible, explained by exactly those two bounds
        t.set_upper(u, le(2, 1));
        let Feasibility::Infeasible(c) = t.check(10, None) else {
            panic!("expected infeasible")
        };
        let mut r = c.reasons;
        r.sort();
        assert_eq!(r, vec![0, 1]);
    }

    #[test]
    fn the_gcd_test_finds_rows_without_integer_points() {
        // s = 3x + 3y with 1 <= s <= 2 (tags 0, 1): rational points exist (x + y = 1/3),
        // integer ones do not; the explanation is exactly s's two bounds
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        t.set_integer(x);
        t.set_integer(y);
        let s = t.add_row(&[(x, q(3)), (y, q(3))]);
        t.set_lower(s, le(1, 0));
        t.set_upper(s, le(2, 1));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        let b = t.fractional().expect("a fractional integer");
        let c = t.integer_conflict(b).expect("no multiple of 3 in [1, 2]");
        let mut r = c.reasons.clone();
        r.sort();
        assert_eq!(r, vec![0, 1]);
        let mut u = c.unbounded.clone();
        u.sort();
        assert_eq!(u, vec![x, y]);
        // with 1 <= s <= 3 the row has the integer point x + y = 1: no conflict
        t.set_upper(s, le(3, 1));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        assert!(t
            .fractional()
            .is_none_or(|b| t.integer_conflict(b).is_none()));
    }

    #[test]
    fn the_gcd_test_needs_integers_and_a_bounded_rest() {
        // s = 2x + 2y fixed at 1: over integers impossible, over reals fine
        for int in [true, false] {
            let mut t: Tableau<u32> = Tableau::default();
            let x = t.new_var();
            let y = t.new_var();
            if int {
                t.set_integer(x);
                t.set_integer(y);
            }
            let s = t.add_row(&[(x, q(2)), (y, q(2))]);
            t.set_lower(s, le(1, 0));
            t.set_upper(s, le(1, 1));
            assert_eq!(t.check(100, None), Feasibility::Feasible);
            // the basic variable may be s or (after a pivot) x or y
            let found = [x, y, s].iter().find_map(|&b| t.integer_conflict(b));
            assert_eq!(found.is_some(), int, "int = {int}");
        }
        // 2x + z = 1 with z real and unbounded: z absorbs anything
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let z = t.new_var();
        t.set_integer(x);
        let s = t.add_row(&[(x, q(2)), (z, q(1))]);
        t.set_lower(s, le(1, 0));
        t.set_upper(s, le(1, 1));
        assert_eq!(t.check(100, None), Feasibility::Feasible);
        assert!([x, z, s].iter().all(|&b| t.integer_conflict(b).is_none()));
    }

    #[test]
    fn the_column_index_and_candidates_follow_pivots() {
        // a chain of rows over shared variables, pivoted repeatedly: after every check the
        // column index must list exactly the rows each non-basic variable occurs in, and
        // every basic variable outside its bounds must be a candidate
        let mut t: Tableau<u32> = Tableau::default();
        let xs: Vec<TVar> = (0..6).map(|_| t.new_var()).collect();
        let mut slacks = Vec::new();
        for i in 0..5 {
            let s = t.add_row(&[(xs[i], q(1)), (xs[i + 1], q(-2)), (xs[(i + 3) % 6], q(1))]);
            slacks.push(s);
        }
        for (k, &s) in slacks.iter().enumerate() {
            t.set_lower(s, le(k as i64 + 1, k as u32));
            t.set_upper(s, le(k as i64 + 4, 10 + k as u32));
        }
        for (k, &x) in xs.iter().enumerate() {
            t.set_upper(x, le(20 - k as i64, 20 + k as u32));
            t.set_lower(x, le(-20, 30 + k as u32));
        }
        assert_eq!(t.check(1000, None), Feasibility::Feasible);
        assert!(t.pivots > 0, "the test should pivot");
        for (i, v) in t.vars.iter().enumerate() {
            let want: BTreeSet<u32> = if v.row.is_some() {
                BTreeSet::new()
            } else {
                (0..t.rows.len() as u32)
                    .filter(|&r| t.rows[r as usize].terms.iter().any(|(x, _)| x.index() == i))
                    .collect()
            };
            assert_eq!(v.col, want, "column of {i}");
        }
        // every row still holds for the assignment
        for row in &t.rows {
            let mut sum = DeltaRat::default();
            for (x, a) in &row.terms {
                sum.add_scaled(a, t.value(*x));
            }
            assert_eq!(&sum, t.value(row.basic));
            assert!(!t.below_lower(row.basic) && !t.above_upper(row.basic));
        }
    }

    #[test]
    fn gives_up_within_the_pivot_budget() {
        let mut t: Tableau<u32> = Tableau::default();
        let x = t.new_var();
        let y = t.new_var();
        let s = t.add_row(&[(x, q(1)), (y, q(1))]);
        t.set_lower(s, le(1, 0));
        assert_eq!(t.check(0, None), Feasibility::GaveUp);
        assert_eq!(t.check(1, None), Feasibility::Feasible);
    }
}
