//! Answers: solution boxes, simple points inside them, and the exact point check that turns a
//! candidate box into a SAT answer (DESIGN §2 `model`, §5 rule 2).
//!
//! The idea: ICP only over-approximates, so a full assignment is a *candidate*: a box per
//! variable in which a solution may or may not lie. To answer SAT the solver picks an exact
//! rational point — a short decimal (or integer) inside the box of every *input* variable
//! (one that no definition computes), then every defined variable computed exactly from its
//! arguments in definition order — and checks with exact rational arithmetic that every
//! definition holds, every given unit (roots, domains) and original clause is satisfied and
//! every assumption holds. Only then is the answer SAT; otherwise it stays a candidate. The
//! check never trusts the search's assignment of bound atoms, only the Boolean variables'
//! values (Boolean structure is exact). Several points are tried per check (the middle of
//! each box, then points in quarters of the boxes); checks are exact rational arithmetic, so
//! their work is budgeted against the search's (see `checks_over_budget`).
//!
//! The answer's point stays inside the boxes for the inputs; computed variables may leave
//! their (outward-rounded) boxes by rounding, which does not matter: only the exact check
//! decides.

use crate::contractors::ieee::FpDom;
use crate::contractors::{check, check_bv};
use crate::formula::{Op, Sort};
use crate::interval::Interval;
use crate::lit::Lit;
use crate::num::Rational;
use crate::num::RoundingMode;
use crate::solve::{AtomKind, Reason, SolveResult, Solver, VarKind};
use crate::var::{Var, VarMap};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// A value of a variable in an exact point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Num(Rational),
    /// an IEEE variable's float, as raw bits of its format (binary32 in the low 32 bits)
    Fp(u64),
    /// a variable of a sort the solver does not model (no value)
    Unknown,
}

impl Value {
    pub fn as_num(&self) -> Option<&Rational> {
        match self {
            Value::Num(q) => Some(q),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

/// A solution box (and, for SAT answers, the exact point that satisfies the formula).
#[derive(Clone, Debug)]
pub struct Model {
    /// the box of every variable (Booleans: `[1,1]` true, `[0,0]` false)
    pub boxes: VarMap<Interval>,
    /// Boolean values (`None` for numeric variables and unassigned Booleans)
    pub bools: VarMap<Option<bool>>,
    /// integral sorts (for point candidates)
    pub integral: VarMap<bool>,
    /// the exactly checked point (SAT answers only)
    pub point: Option<VarMap<Value>>,
    /// the domain of every IEEE variable (`None` for other sorts): the box alone cannot say
    /// NaN or the sign of zero
    pub fp: VarMap<Option<FpDom>>,
}

impl Model {
    /// A simple value inside each box, for validation by the front end: the shortest decimal
    /// in the middle half of a real box (else anywhere inside), the integer nearest the
    /// middle for integral sorts, the Boolean value for Booleans.
    pub fn point_candidates(&self) -> VarMap<Value> {
        let mut out = VarMap::new();
        for (v, b) in self.boxes.iter() {
            let val = if let Some(x) = self.bools[v] {
                Value::Bool(x)
            } else if let Some(d) = &self.fp[v] {
                match simple_float(d) {
                    Some(bits) => Value::Fp(bits),
                    None => Value::Unknown,
                }
            } else {
                match simple_point(*b, self.integral[v]) {
                    Some(q) => Value::Num(q),
                    None => Value::Unknown,
                }
            };
            out.push(val);
        }
        out
    }

    /// The value of `v` in the checked point (SAT answers).
    pub fn value(&self, v: Var) -> Option<&Value> {
        self.point.as_ref().and_then(|p| p.get(v))
    }
}

fn rat(x: f64) -> Rational {
    Rational::from_float(x).unwrap_or_else(Rational::zero)
}

/// The shortest decimal `n·10^e` in `[a, b]` (doubles, `a <= b`) accepted by `inside` (the
/// exact test), the one nearest the middle among equally short ones; `None` if none has at
/// most 20 significant digits. The search runs in `f64`; only candidates are built exactly.
fn shortest_decimal(a: f64, b: f64, inside: &dyn Fn(&Rational) -> bool) -> Option<Rational> {
    if !(a.is_finite() && b.is_finite()) || a > b {
        return None;
    }
    let m = a.abs().max(b.abs()).max(1e-300);
    let top = m.log10().ceil() as i32 + 1;
    let mid = a * 0.5 + b * 0.5;
    for e in (top - 20..=top).rev() {
        let step = 10f64.powi(e);
        if step == 0.0 || !step.is_finite() {
            continue;
        }
        let (n_lo, n_hi) = ((a / step).ceil(), (b / step).floor());
        if n_lo > n_hi {
            continue;
        }
        let n = (mid / step).round().clamp(n_lo, n_hi);
        let scale = if e >= 0 {
            Rational::from_integer(BigInt::from(10).pow(e as u32))
        } else {
            Rational::new(BigInt::one(), BigInt::from(10).pow((-e) as u32))
        };
        for cand in [n, n_lo, n_hi] {
            let c = rat(cand) * &scale;
            if inside(&c) {
                return Some(c);
            }
        }
    }
    None
}

/// A guess of the simplest fraction `p/q` (`q <= 10^6`) in `[a, b]`, by the continued
/// fraction descent in `f64` (fast; the caller verifies it exactly).
fn simplest_fraction_f64(a: f64, b: f64) -> Option<Rational> {
    fn go(x: f64, y: f64, depth: u32) -> Option<(f64, f64)> {
        let c = x.ceil();
        if c <= y {
            return Some((c, 1.0));
        }
        if depth == 0 {
            return None;
        }
        let f = x.floor();
        let (p, q) = go(1.0 / (y - f), 1.0 / (x - f), depth - 1)?;
        // f + q/p
        Some((f * p + q, p))
    }
    if !(a.is_finite() && b.is_finite()) || a > b {
        return None;
    }
    if a <= 0.0 && b >= 0.0 {
        return Some(Rational::zero());
    }
    let (neg, x, y) = if a > 0.0 {
        (false, a, b)
    } else {
        (true, -b, -a)
    };
    let (p, q) = go(x, y, 40)?;
    if !((1.0..=1e6).contains(&q) && p.is_finite() && p.abs() < 9e15) {
        return None;
    }
    let r = Rational::new(BigInt::from(p as i64), BigInt::from(q as i64));
    Some(if neg { -r } else { r })
}

/// A simple float of an IEEE domain: its only float, else `+0`/`-0` if allowed, else the
/// double with the fewest significant bits in its range, else an end; NaN only if nothing
/// else is possible.
pub fn simple_float(d: &FpDom) -> Option<u64> {
    if let Some(b) = d.as_point() {
        return Some(b);
    }
    let f = d.fmt;
    if !d.has_values() {
        return d.nan.then(|| f.nan_bits());
    }
    if d.lo <= 0.0 && 0.0 <= d.hi {
        if d.pos_zero {
            return Some(0);
        }
        if d.neg_zero {
            return Some(crate::num::ieee::neg(f, 0));
        }
    }
    let (a, b) = (d.lo.max(-f64::MAX), d.hi.min(f64::MAX));
    if a <= b {
        let c = crate::decide::simplest_dyadic(a, b);
        if let Some(bits) = crate::num::ieee::from_f64(f, c) {
            if d.contains(bits) {
                return Some(bits);
            }
        }
    }
    [d.lo, d.hi]
        .into_iter()
        .filter_map(|x| crate::num::ieee::from_f64(f, x))
        .find(|&bits| d.contains(bits))
}

/// A simple rational inside `iv` (integral if asked): see [`Model::point_candidates`].
pub fn simple_point(iv: Interval, integral: bool) -> Option<Rational> {
    if iv.is_empty() {
        return None;
    }
    let inside = |q: &Rational| iv.contains_rational(q);
    if integral {
        let (lo, hi) = (iv.lo(), iv.hi());
        let mid = if lo.is_finite() && hi.is_finite() {
            lo * 0.5 + hi * 0.5
        } else if lo.is_finite() {
            lo.max(0.0)
        } else if hi.is_finite() {
            hi.min(0.0)
        } else {
            0.0
        };
        let r = mid.round();
        for d in [0.0, 1.0, -1.0, 2.0, -2.0] {
            let q = rat(r + d);
            if inside(&q) {
                return Some(q);
            }
        }
        let c = rat(lo.ceil());
        if lo.is_finite() && inside(&c) {
            return Some(c);
        }
        let c = c + Rational::one();
        return inside(&c).then_some(c);
    }
    if iv.is_point() {
        return Some(rat(iv.lo()));
    }
    let zero = Rational::zero();
    if !iv.lo().is_finite() || !iv.hi().is_finite() {
        if inside(&zero) {
            return Some(zero);
        }
        let q = if iv.lo().is_finite() {
            rat(iv.lo().floor()) + Rational::one()
        } else {
            rat(iv.hi().ceil()) - Rational::one()
        };
        return inside(&q).then_some(q);
    }
    let (lo, hi) = (iv.lo(), iv.hi());
    let w4 = hi * 0.25 - lo * 0.25;
    let dec =
        shortest_decimal(lo + w4, hi - w4, &inside).or_else(|| shortest_decimal(lo, hi, &inside));
    // decimals read better; a fraction only if it is much simpler (1/3 in a tiny box), which
    // needs a decimal with a denominator above 1000
    let thousand = BigInt::from(1000);
    if dec.as_ref().is_some_and(|d| *d.denom() <= thousand) {
        return dec;
    }
    let fr = simplest_fraction_f64(lo, hi).filter(|r| inside(r));
    let (lo, hi) = (rat(lo), rat(hi));
    match (dec, fr) {
        (Some(d), Some(f)) if f.denom() * &thousand < *d.denom() => Some(f),
        (Some(d), _) => Some(d),
        (None, f) => f.or_else(|| {
            let m = (&lo + &hi) / Rational::from_integer(2.into());
            inside(&m).then_some(m)
        }),
    }
    .or_else(|| {
        let m = (&lo + &hi) / Rational::from_integer(2.into());
        inside(&m).then_some(m)
    })
}

/// The point of a box in `trial` (exact point checks and existence proofs): the simple point
/// first, then simple points of the lower and the upper quarter, then of a quarter chosen per
/// variable and trial.
pub(crate) fn trial_point(b: Interval, integral: bool, v: Var, trial: u32) -> Option<Rational> {
    if trial == 0 || !b.is_bounded() || b.is_point() {
        return simple_point(b, integral);
    }
    let quarter = match trial {
        1 => 0,
        2 => 3,
        _ => {
            let mut h = (v.0 as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ trial as u64;
            h ^= h >> 29;
            h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
            ((h >> 32) % 4) as u32
        }
    };
    let (lo, hi) = (b.lo(), b.hi());
    let w = hi * 0.25 - lo * 0.25;
    let a = lo + w * quarter as f64;
    let z = if quarter == 3 {
        hi
    } else {
        lo + w * (quarter + 1) as f64
    };
    let sub = b.intersect(Interval::closed(a.min(z), z.max(a)));
    simple_point(sub, integral).or_else(|| simple_point(b, integral))
}

/// The exact `n`-th root of `a` if it is rational.
fn exact_root(a: &Rational, n: u32) -> Option<Rational> {
    let neg = a.is_negative();
    if neg && n.is_multiple_of(2) {
        return None;
    }
    let root_int = |x: &BigInt| -> Option<BigInt> {
        let r = x.nth_root(n);
        (num_traits::pow(r.clone(), n as usize) == *x).then_some(r)
    };
    let num = root_int(&a.numer().abs())?;
    let den = root_int(a.denom())?;
    let r = Rational::new(num, den);
    Some(if neg { -r } else { r })
}

/// The outcome of evaluating a definition exactly.
pub(crate) enum Eval {
    Num(Rational),
    /// an IEEE result (raw bits)
    Fp(u64),
    /// a Boolean result (IEEE relations and classes)
    Bool(bool),
    /// unspecified: any output value satisfies the definition
    Any,
    /// cannot decide exactly (irrational root, unsupported operation)
    Fail,
}

fn too_big(q: &Rational, max_bits: u64) -> bool {
    q.numer().bits() + q.denom().bits() > max_bits
}

impl Solver {
    /// The model of the current full assignment (boxes only).
    pub(crate) fn current_model(&self) -> Model {
        let mut boxes = VarMap::new();
        let mut bools = VarMap::new();
        let mut integral = VarMap::new();
        let mut fp = VarMap::new();
        for v in self.vars.keys() {
            fp.push(match self.vars[v].kind {
                VarKind::Fp(_) => Some(self.fp_dom(v)),
                _ => None,
            });
            boxes.push(self.var_box(v));
            bools.push(match self.vars[v].kind {
                VarKind::Bool => match self.bool_value(v) {
                    crate::lit::LBool::True => Some(true),
                    crate::lit::LBool::False => Some(false),
                    crate::lit::LBool::Undef => None,
                },
                _ => None,
            });
            integral.push(self.vars[v].kind == VarKind::Int);
        }
        Model {
            boxes,
            bools,
            integral,
            point: None,
            fp,
        }
    }

    /// The answer for a full assignment: SAT if an exact point checks, else a candidate
    /// (Unknown if an unsupported construct was left out).
    pub(crate) fn final_answer(&mut self) -> SolveResult {
        if let Some(u) = &self.unsupported {
            return SolveResult::Unknown(u.clone());
        }
        if let Some((m, _)) = self.saved_candidate.take() {
            return SolveResult::Candidate(m);
        }
        if let Some(r) = self.final_sat() {
            return r;
        }
        SolveResult::Candidate(self.current_model())
    }

    /// [`Solver::final_sat`] on the first full assignment, when every input is a point, or
    /// while exact checks are within their budget.
    pub(crate) fn final_sat_if_worth_it(&mut self) -> Option<SolveResult> {
        let first = self.saved_candidate.is_none();
        if first || !self.checks_over_budget() || self.inputs_are_points() {
            self.final_sat()
        } else {
            None
        }
    }

    fn inputs_are_points(&self) -> bool {
        self.vars.keys().all(|v| {
            self.vars[v].defined_by.is_some()
                || match self.vars[v].kind {
                    VarKind::Real | VarKind::Int => self.ibox(v).is_point(),
                    VarKind::Fp(_) => self.fp_dom(v).as_point().is_some(),
                    _ => true,
                }
        })
    }

    /// SAT if the exact check passes on the current full assignment.
    pub(crate) fn final_sat(&mut self) -> Option<SolveResult> {
        if self.unsupported.is_some() {
            return None;
        }
        let p = self.exact_point()?;
        let mut m = self.current_model();
        m.point = Some(p);
        Some(SolveResult::Sat(m))
    }

    /// Every clause is satisfied but boxes may still be wide: try the exact check (with an
    /// exponential back-off when it keeps failing).
    pub(crate) fn try_early_sat(&mut self) -> Option<SolveResult> {
        if !self.config.early_point_check || self.unsupported.is_some() {
            return None;
        }
        self.exhaustions += 1;
        if self.exhaustions < self.point_check_next || self.checks_over_budget() {
            return None;
        }
        if let Some(p) = self.exact_point() {
            let mut m = self.current_model();
            m.point = Some(p);
            return Some(SolveResult::Sat(m));
        }
        self.point_check_gap = (self.point_check_gap * 2).min(64);
        self.point_check_next = self.exhaustions + self.point_check_gap;
        None
    }

    /// Definitions in an order in which every computed variable's arguments come first.
    fn definition_order(&mut self) -> Vec<u32> {
        if self.def_order_len == self.defs.len() {
            return self.def_order.clone();
        }
        let n = self.defs.len();
        // args still unknown per def; users per variable
        let mut missing = vec![0usize; n];
        let mut users: VarMap<Vec<u32>> = VarMap::from_elem(Vec::new(), self.vars.len());
        let computed = |s: &Self, v: Var| s.vars[v].defined_by.is_some();
        let mut ready = Vec::new();
        for (i, d) in self.defs.iter().enumerate() {
            for &a in &d.args {
                if computed(self, a) {
                    missing[i] += 1;
                    users[a].push(i as u32);
                }
            }
            if missing[i] == 0 {
                ready.push(i as u32);
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut done = vec![false; n];
        while let Some(i) = ready.pop() {
            if done[i as usize] {
                continue;
            }
            done[i as usize] = true;
            order.push(i);
            let out = self.defs[i as usize].out;
            if self.vars[out].defined_by == Some(i) {
                for &u in &users[out] {
                    missing[u as usize] -= 1;
                    if missing[u as usize] == 0 {
                        ready.push(u);
                    }
                }
            }
        }
        // cycles (not produced by the front end): append, they are checked, not computed
        for (i, d) in done.iter().enumerate() {
            if !d {
                order.push(i as u32);
            }
        }
        self.def_order = order.clone();
        self.def_order_len = n;
        order
    }

    /// The exact check (module docs): `Some(point)` if the point satisfies everything.
    pub(crate) fn exact_point(&mut self) -> Option<VarMap<Value>> {
        self.stats.point_checks += 1;
        let order = self.definition_order();
        // all trials while checking is cheap, else only the first
        let trials = if self.checks_over_budget() {
            1
        } else {
            self.config.point_trials.max(1)
        };
        let mut found = None;
        // A point that relies on an unspecified result (division by 0, a shift count out of
        // range) satisfies the formula, but a front end that validates against the original
        // constraints cannot confirm it: it is kept only if no later trial finds a point
        // without one.
        let mut fallback = None;
        // the simplex's point first: it satisfies the linear constraints and bounds exactly,
        // where the boxes' simple points often miss a linear equation
        let lin = self.simplex_point();
        if !lin.is_empty() {
            self.check_work +=
                (self.defs.len() + self.db.num_original + self.given_units.len() + 1) as u64;
            let overrides: Vec<(Var, Value)> =
                lin.into_iter().map(|(v, q)| (v, Value::Num(q))).collect();
            if let (_, Some((p, unspecified))) = self.point_pass(&order, 0, &overrides) {
                if !unspecified {
                    self.stats.point_checks_ok += 1;
                    return Some(p);
                }
                fallback = Some(p);
            }
        }
        for trial in 0..trials {
            // cost: one exact evaluation per definition, clause and unit
            self.check_work +=
                (self.defs.len() + self.db.num_original + self.given_units.len() + 1) as u64;
            if let Some((p, unspecified)) = self.exact_point_trial(&order, trial) {
                if !unspecified {
                    found = Some(p);
                    break;
                }
                if fallback.is_none() {
                    fallback = Some(p);
                }
            }
            if self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
                || crate::budget::over_memory()
            {
                break;
            }
        }
        let found = found.or(fallback);
        if found.is_some() {
            self.stats.point_checks_ok += 1;
        }
        found
    }

    /// Exact checks are exact rational arithmetic over the whole formula; on large formulas
    /// an unlucky series of them would dominate the search. Their work (evaluations) is kept
    /// below a hundredth of the search's work (assignments and propagator runs, each some
    /// ten times cheaper), plus a fixed allowance — counted, not timed, so runs repeat.
    pub(crate) fn checks_over_budget(&self) -> bool {
        let search = self.stats.propagations + self.stats.icp_runs - self.work_at_start;
        self.check_work > search / 100 + 2_000
    }

    /// The point of input `v` for a trial: the simple point of its box first, then simple
    /// points of a quarter of the box (all lower quarters, all upper quarters, then mixed).
    fn input_point(&self, v: Var, trial: u32) -> Option<Rational> {
        let int = self.vars[v].kind == VarKind::Int;
        let b = self.ibox(v);
        // Integers beyond 2^53 (64-bit machine types) are not all doubles, and boxes there
        // cannot shrink below the spacing of doubles: trials 1 and 2 take the exact smallest
        // and largest integer of the box (typical answers such as `MAX` sit at an end).
        // Machine integers do so at every magnitude: their extreme values are where
        // wrap-around happens and where shift counts stay valid.
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        let machine = matches!(self.vars[v].sort, crate::formula::Sort::MachineInt(_));
        let huge = b.lo().abs().max(b.hi().abs()) > EXACT;
        if int && (trial == 1 || trial == 2) && b.is_bounded() && (huge || machine) {
            let iv = crate::icp_bv::int_iv(b);
            if !iv.is_empty() {
                let end = if trial == 1 { iv.lo } else { iv.hi };
                return Some(Rational::from_integer(BigInt::from(end)));
            }
        }
        trial_point(b, int, v, trial)
    }

    /// The float of IEEE input `v` for a trial: the simple float of its domain first, then
    /// pseudo-random floats spread evenly over its *value* range (not over the float
    /// lattice, which would mostly give tiny numbers). Short dyadic points add exactly, so
    /// they can never witness rounding effects such as non-associativity; random
    /// significands do, and an exact check costs far less than the splits to reach them.
    fn fp_input_point(&self, v: Var, trial: u32) -> Option<u64> {
        let d = self.fp_dom(v);
        if trial == 0 || d.as_point().is_some() {
            return simple_float(&d);
        }
        let f = d.fmt;
        let mut h = (v.0 as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (trial as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9)
            ^ self.stats.point_checks.wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
        h ^= h >> 32;
        // the special values, where IEEE arithmetic differs most from the reals: trial 1
        // tries NaN everywhere, trial 2 zeros of mixed signs, trial 3 infinities, later
        // trials a special value now and then
        let special = match trial {
            1 => Some(f.nan_bits()),
            2 => Some(if h & 1 == 1 {
                crate::num::ieee::neg(f, 0)
            } else {
                0
            }),
            3 => Some(
                f.inf_bits()
                    | if h & 1 == 1 {
                        1 << (f.total_bits() - 1)
                    } else {
                        0
                    },
            ),
            _ if h.is_multiple_of(5) => Some(match (h >> 3) % 3 {
                0 => f.nan_bits(),
                1 => crate::num::ieee::neg(f, 0),
                _ => 0,
            }),
            _ => None,
        };
        if let Some(b) = special.filter(|&b| d.contains(b)) {
            return Some(b);
        }
        if !d.has_values() {
            return simple_float(&d);
        }
        let (lo, hi) = (d.lo.max(-f64::MAX), d.hi.min(f64::MAX));
        if lo > hi {
            return simple_float(&d);
        }
        let t = (h >> 11) as f64 / (1u64 << 53) as f64;
        let x = lo + (hi * 0.5 - lo * 0.5) * 2.0 * t;
        let bits = crate::num::ieee::from_rational(
            f,
            RoundingMode::Rne,
            &Rational::from_float(x.clamp(lo, hi)).unwrap_or_default(),
        );
        if d.contains(bits) {
            Some(bits)
        } else {
            simple_float(&d)
        }
    }

    /// One exact check with the inputs of `trial`: the point, and whether it relies on an
    /// unspecified result.
    /// One pass of a trial: the values (as far as they got) and the checked point, if the
    /// point passed. `overrides` replace the trial's values of some inputs.
    #[allow(clippy::type_complexity)]
    fn point_pass(
        &self,
        order: &[u32],
        trial: u32,
        overrides: &[(Var, Value)],
    ) -> (Vec<Option<Value>>, Option<(VarMap<Value>, bool)>) {
        let max_bits = self.config.exact_max_bits;
        let mut unspecified = false;
        let mut vals: Vec<Option<Value>> = vec![None; self.vars.len()];
        for v in self.vars.keys() {
            let d = &self.vars[v];
            if d.defined_by.is_some() {
                continue;
            }
            if let Some((_, x)) = overrides.iter().find(|(w, _)| *w == v) {
                vals[v.index()] = Some(x.clone());
                continue;
            }
            let x = match d.kind {
                VarKind::Bool => Some(Value::Bool(self.bool_value(v) == crate::lit::LBool::True)),
                VarKind::Unsupported => None,
                VarKind::Fp(_) => self.fp_input_point(v, trial).map(Value::Fp),
                VarKind::Int | VarKind::Real => self.input_point(v, trial).map(Value::Num),
            };
            match x {
                Some(x) => vals[v.index()] = Some(x),
                None => return (vals, None),
            }
        }
        for &i in order {
            let d = &self.defs[i as usize];
            let out = d.out;
            // arguments without a value (cycles only): take a point of their box
            for &a in &d.args {
                if vals[a.index()].is_none() {
                    match self.point_of(a) {
                        Some(x) => vals[a.index()] = Some(x),
                        None => return (vals, None),
                    }
                }
            }
            let computes = vals[out.index()].is_none() && self.vars[out].defined_by == Some(i);
            let owned: Vec<Value> = d
                .args
                .iter()
                .map(|a| vals[a.index()].clone().expect("set"))
                .collect();
            let args: Vec<&Value> = owned.iter().collect();
            let arg_sorts: Vec<Sort> = d.args.iter().map(|&a| self.vars[a].sort).collect();
            let res = eval_def(&d.op, &args, &arg_sorts, self.vars[out].sort);
            if computes {
                let v = match res {
                    Eval::Num(q) => {
                        if too_big(&q, max_bits) {
                            return (vals, None);
                        }
                        Value::Num(q)
                    }
                    Eval::Fp(b) => Value::Fp(b),
                    Eval::Bool(b) => Value::Bool(b),
                    Eval::Any => {
                        unspecified = true;
                        match self.point_of(out) {
                            Some(x) => x,
                            None => return (vals, None),
                        }
                    }
                    Eval::Fail => return (vals, None),
                };
                vals[out.index()] = Some(v);
            } else {
                if vals[out.index()].is_none() {
                    match self.point_of(out) {
                        Some(x) => vals[out.index()] = Some(x),
                        None => return (vals, None),
                    }
                }
                let o = vals[out.index()].as_ref().expect("set");
                if !holds_def(&d.op, &args, &arg_sorts, o, self.vars[out].sort) {
                    return (vals, None);
                }
                unspecified |= matches!(res, Eval::Any);
            }
        }
        let partial = vals.clone();
        let fail = |p: Vec<Option<Value>>| (p, None);
        let mut vals: Vec<Value> = vals
            .into_iter()
            .map(|v| v.unwrap_or(Value::Unknown))
            .collect();
        // an IEEE variable's flags are read off its float (they are encoding, not input)
        for v in self.vars.keys() {
            if let (Some(fl), VarKind::Fp(f)) = (self.vars[v].fp, self.vars[v].kind) {
                let Value::Fp(bits) = vals[v.index()] else {
                    return fail(partial);
                };
                vals[fl.nan.index()] = Value::Bool(f.is_nan(bits));
                vals[fl.neg.index()] = Value::Bool(crate::num::ieee::is_neg(f, bits));
            }
        }
        // integrality and the declared machine ranges are given units or sorts
        for v in self.vars.keys() {
            if self.vars[v].kind == VarKind::Int {
                match &vals[v.index()] {
                    Value::Num(q) if q.is_integer() => {}
                    _ => return fail(partial),
                }
            }
        }
        let lit_holds = |l: Lit| -> Option<bool> {
            let a = l.atom().index();
            let t = match self.atom_kind[a] {
                AtomKind::Bool(v) => vals[v.index()].as_bool()?,
                AtomKind::Bound(bi) => {
                    let b = &self.bound_atoms[bi as usize];
                    match (&vals[b.var.index()], self.vars[b.var].kind) {
                        // a NaN's value variable is 0 (canonical NaN, module icp_fp)
                        (Value::Fp(bits), VarKind::Fp(f)) => b.holds_at_f64(if f.is_nan(*bits) {
                            0.0
                        } else {
                            crate::num::ieee::to_f64(f, *bits)
                        }),
                        (v, _) => b.holds_at(v.as_num()?),
                    }
                }
            };
            Some(t != l.is_negated())
        };
        for &u in &self.given_units {
            if lit_holds(u) != Some(true) {
                return fail(partial);
            }
        }
        for &u in &self.assumptions {
            if lit_holds(u) != Some(true) {
                return fail(partial);
            }
        }
        for c in &self.db.clauses {
            if c.deleted || c.learnt {
                continue;
            }
            if !c.lits.iter().any(|&l| lit_holds(l) == Some(true)) {
                return fail(partial);
            }
        }
        // level-0 facts that are units without being given are derived: not checked
        let _ = Reason::Given;
        let mut out = VarMap::new();
        for v in vals {
            out.push(v);
        }
        (partial, Some((out, unspecified)))
    }

    /// One exact check with the inputs of `trial`: the point, and whether it relies on an
    /// unspecified result. An input tied to another variable by an asserted identity
    /// (`s = a + b` on floats is `fsame(s, h)` with `h = a + b`) takes that variable's value
    /// in a second pass: drawing it independently would almost never satisfy the identity.
    fn exact_point_trial(&self, order: &[u32], trial: u32) -> Option<(VarMap<Value>, bool)> {
        let aliases = self.identity_aliases();
        let mut overrides: Vec<(Var, Value)> = Vec::new();
        for _ in 0..=aliases.len().min(8) {
            let (vals, point) = self.point_pass(order, trial, &overrides);
            if point.is_some() {
                return point;
            }
            let mut changed = false;
            for &(x, y) in &aliases {
                if let (Some(vx), Some(vy)) = (&vals[x.index()], &vals[y.index()]) {
                    if vx != vy {
                        // a chain of identities settles in as many passes as it is long
                        overrides.retain(|(w, _)| *w != x);
                        overrides.push((x, vy.clone()));
                        changed = true;
                    }
                }
            }
            if !changed {
                return None;
            }
        }
        None
    }

    /// Pairs `(input, other)` of IEEE variables whose identity `fsame(input, other)` is a
    /// given unit.
    fn identity_aliases(&self) -> Vec<(Var, Var)> {
        let mut out = Vec::new();
        for d in &self.defs {
            if d.op != Op::FSame || d.args.len() != 2 {
                continue;
            }
            let Some(a) = self.vars[d.out].bool_atom else {
                continue;
            };
            if !self.given_units.contains(&Lit::pos(a)) {
                continue;
            }
            for (x, y) in [(d.args[0], d.args[1]), (d.args[1], d.args[0])] {
                if self.vars[x].defined_by.is_none() && x != y {
                    out.push((x, y));
                }
            }
        }
        out
    }

    fn point_of(&self, v: Var) -> Option<Value> {
        match self.vars[v].kind {
            VarKind::Bool => Some(Value::Bool(self.bool_value(v) == crate::lit::LBool::True)),
            VarKind::Unsupported => None,
            VarKind::Fp(_) => Some(Value::Fp(simple_float(&self.fp_dom(v))?)),
            k => Some(Value::Num(simple_point(self.ibox(v), k == VarKind::Int)?)),
        }
    }
}

fn num_args<'a>(args: &[&'a Value]) -> Option<Vec<&'a Rational>> {
    args.iter().map(|v| v.as_num()).collect()
}

fn fits(sort: Sort, q: &Rational) -> bool {
    match sort {
        Sort::MachineInt(t) => q.is_integer() && t.contains(&q.to_integer()),
        _ => true,
    }
}

/// Evaluates a definition at exact arguments.
pub(crate) fn eval_def(op: &Op, args: &[&Value], arg_sorts: &[Sort], out_sort: Sort) -> Eval {
    if let Some(e) = eval_ieee(op, args, arg_sorts, out_sort) {
        return e;
    }
    match op {
        Op::Ite => {
            let (Some(c), Some(b), Some(e)) = (
                args.first().and_then(|v| v.as_bool()),
                args.get(1),
                args.get(2),
            ) else {
                return Eval::Fail;
            };
            match if c { b } else { e } {
                Value::Num(q) => Eval::Num(q.clone()),
                Value::Fp(bits) => Eval::Fp(*bits),
                Value::Bool(x) => Eval::Bool(*x),
                Value::Unknown => Eval::Fail,
            }
        }
        Op::BoolToNum => match args.first().and_then(|v| v.as_bool()) {
            Some(true) => Eval::Num(Rational::one()),
            Some(false) => Eval::Num(Rational::zero()),
            None => Eval::Fail,
        },
        Op::Convert => match args.first().and_then(|v| v.as_num()) {
            Some(a) => {
                let integral_out = matches!(out_sort, Sort::Int | Sort::MachineInt(_));
                if !fits(out_sort, a) || (integral_out && !a.is_integer()) {
                    Eval::Any
                } else {
                    Eval::Num(a.clone())
                }
            }
            None => Eval::Fail,
        },
        Op::Nrt(n) => match args.first().and_then(|v| v.as_num()) {
            Some(a) => {
                if *n == 0 || (n % 2 == 0 && a.is_negative()) {
                    Eval::Any
                } else {
                    match exact_root(a, *n) {
                        Some(r) => Eval::Num(r),
                        None => Eval::Fail,
                    }
                }
            }
            None => Eval::Fail,
        },
        // machine integers: exact big-integer evaluation with C semantics (the output's type
        // gives the width; unspecified results admit any value)
        op if check_bv::is_bv(op) => {
            let (Sort::MachineInt(t), Some(xs)) = (out_sort, num_args(args)) else {
                return Eval::Fail;
            };
            let owned: Vec<Rational> = xs.into_iter().cloned().collect();
            match check_bv::eval_rational(op, t, &owned) {
                Some(check_bv::BvValue::Value(v)) => Eval::Num(Rational::from_integer(v)),
                Some(check_bv::BvValue::Unspecified) => Eval::Any,
                None => Eval::Fail,
            }
        }
        Op::Div => match num_args(args).as_deref() {
            Some([_, b]) if b.is_zero() => Eval::Any,
            Some(xs) => eval_family(op, xs),
            None => Eval::Fail,
        },
        _ => match num_args(args) {
            Some(xs) => eval_family(op, &xs),
            None => Eval::Fail,
        },
    }
}

fn eval_family(op: &Op, xs: &[&Rational]) -> Eval {
    let owned: Vec<Rational> = xs.iter().map(|&q| q.clone()).collect();
    match check::eval(op, &owned) {
        Some(v) => Eval::Num(v),
        None => Eval::Fail,
    }
}

/// Evaluates an IEEE operation bit-exactly (`None` if `op` is not one). `arg_sorts` gives
/// the formats of IEEE arguments (a value alone is just bits).
fn eval_ieee(op: &Op, args: &[&Value], arg_sorts: &[Sort], out_sort: Sort) -> Option<Eval> {
    use crate::num::ieee;
    let fp = |i: usize| match args.get(i) {
        Some(Value::Fp(b)) => Some(*b),
        _ => None,
    };
    let fmt = |s: Option<&Sort>| match s {
        Some(Sort::Fp(f)) => Some(*f),
        _ => None,
    };
    let out = fmt(Some(&out_sort));
    let a0 = fmt(arg_sorts.first());
    let r = (|| -> Option<Eval> {
        Some(match op {
            Op::FAdd(rm) => Eval::Fp(ieee::add(out?, *rm, fp(0)?, fp(1)?)),
            Op::FSub(rm) => Eval::Fp(ieee::sub(out?, *rm, fp(0)?, fp(1)?)),
            Op::FMul(rm) => Eval::Fp(ieee::mul(out?, *rm, fp(0)?, fp(1)?)),
            Op::FDiv(rm) => Eval::Fp(ieee::div(out?, *rm, fp(0)?, fp(1)?)),
            Op::FSqrt(rm) => Eval::Fp(ieee::sqrt(out?, *rm, fp(0)?)),
            Op::FFma(rm) => Eval::Fp(ieee::fma(out?, *rm, fp(0)?, fp(1)?, fp(2)?)),
            Op::FNeg => Eval::Fp(ieee::neg(out?, fp(0)?)),
            Op::FAbs => Eval::Fp(ieee::abs(out?, fp(0)?)),
            Op::FMin => Eval::Fp(ieee::min(out?, fp(0)?, fp(1)?)),
            Op::FMax => Eval::Fp(ieee::max(out?, fp(0)?, fp(1)?)),
            Op::ToFp(rm) => match (a0, args.first()?) {
                (Some(from), Value::Fp(b)) => Eval::Fp(ieee::convert(from, out?, *rm, *b)),
                (None, Value::Num(q)) => Eval::Fp(ieee::from_rational(out?, *rm, q)),
                _ => return None,
            },
            Op::FpToInt => match ieee::to_integer_trunc(a0?, fp(0)?) {
                Some(n) => {
                    let q = Rational::from_integer(n);
                    if fits(out_sort, &q) {
                        Eval::Num(q)
                    } else {
                        Eval::Any
                    }
                }
                None => Eval::Any,
            },
            Op::FpToBits => match (a0?, out_sort) {
                (f, Sort::MachineInt(t)) if t.bits as u32 == f.total_bits() => {
                    let p = BigInt::from(ieee::to_bits(f, fp(0)?));
                    Eval::Num(Rational::from_integer(t.wrap(&p)))
                }
                _ => return None,
            },
            Op::FpOfBits => match args.first()? {
                Value::Num(q) if q.is_integer() => {
                    let n = q.to_integer();
                    // the low bits (two's complement for a signed argument)
                    let m = (BigInt::from(1u8) << out?.total_bits()) - 1u8;
                    let p: u64 = num_traits::ToPrimitive::to_u64(&(n & m))?;
                    Eval::Fp(ieee::of_bits(out?, p))
                }
                _ => return None,
            },
            Op::FpToReal => match a0?.to_rational(fp(0)?) {
                Some(q) => Eval::Num(q),
                None => Eval::Any,
            },
            Op::FLt => Eval::Bool(ieee::lt(a0?, fp(0)?, fp(1)?)),
            Op::FLe => Eval::Bool(ieee::le(a0?, fp(0)?, fp(1)?)),
            Op::FEq => Eval::Bool(ieee::eq(a0?, fp(0)?, fp(1)?)),
            Op::FSame => Eval::Bool(ieee::same(a0?, fp(0)?, fp(1)?)),
            Op::IsNan => Eval::Bool(a0?.is_nan(fp(0)?)),
            Op::IsInf => Eval::Bool(a0?.is_inf(fp(0)?)),
            Op::IsZero => Eval::Bool(ieee::is_zero(a0?, fp(0)?)),
            Op::IsSubnormal => Eval::Bool(ieee::is_subnormal(a0?, fp(0)?)),
            Op::IsNormal => Eval::Bool(ieee::is_normal(a0?, fp(0)?)),
            Op::IsNeg => Eval::Bool(ieee::is_neg(a0?, fp(0)?)),
            _ => return None,
        })
    })();
    let is_ieee = op.is_ieee();
    // an IEEE operation over values of the wrong kind cannot be checked
    is_ieee.then(|| r.unwrap_or(Eval::Fail))
}

/// Whether `out = op(args)` holds at an exact point.
fn holds_def(op: &Op, args: &[&Value], arg_sorts: &[Sort], out: &Value, out_sort: Sort) -> bool {
    if let (Op::Nrt(n), Some(a), Some(o)) =
        (op, args.first().and_then(|v| v.as_num()), out.as_num())
    {
        return check::holds(&Op::Nrt(*n), std::slice::from_ref(a), o).unwrap_or(false);
    }
    match eval_def(op, args, arg_sorts, out_sort) {
        Eval::Num(v) => out.as_num() == Some(&v),
        Eval::Fp(b) => match (out, out_sort) {
            (Value::Fp(o), Sort::Fp(f)) => crate::num::ieee::same(f, *o, b),
            _ => false,
        },
        Eval::Bool(b) => out.as_bool() == Some(b),
        Eval::Any => true,
        Eval::Fail => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn simple_points_are_inside_and_short() {
        assert_eq!(
            simple_point(Interval::closed(0.3, 0.7), false),
            Some(q(1, 2))
        );
        assert_eq!(
            simple_point(Interval::closed(1.41, 1.42), false),
            Some(q(1415, 1000))
        );
        assert_eq!(
            simple_point(Interval::closed(-3.0, 5.0), true),
            Some(q(1, 1))
        );
        assert_eq!(simple_point(Interval::open(0.0, 1.0), true), None);
        assert_eq!(
            simple_point(Interval::at_least(0.0, true), false),
            Some(q(1, 1))
        );
        assert_eq!(simple_point(Interval::ENTIRE, false), Some(q(0, 1)));
        assert_eq!(simple_point(Interval::point(0.1), false), Some(rat(0.1)));
        let iv = Interval::new(1.0, true, 1.0f64.next_up(), false);
        // some rational between 1 and its successor
        let p = simple_point(iv, false).unwrap();
        assert!(iv.contains_rational(&p));
        for (lo, hi) in [(1e-300, 2e-300), (-7.3, -7.2), (123456.7, 123456.71)] {
            let p = simple_point(Interval::open(lo, hi), false).unwrap();
            assert!(
                Interval::open(lo, hi).contains_rational(&p),
                "{lo} {hi} {p}"
            );
        }
    }

    #[test]
    fn simplest_rationals() {
        assert_eq!(simplest_fraction_f64(0.3, 0.4), Some(q(1, 3)));
        assert_eq!(simplest_fraction_f64(-0.4, -0.3), Some(q(-1, 3)));
        assert_eq!(simplest_fraction_f64(-0.1, 0.3), Some(q(0, 1)));
        assert_eq!(simplest_fraction_f64(2.3, 2.4), Some(q(7, 3)));
        let third = Interval::from_rational(&q(1, 3));
        assert_eq!(simple_point(third, false), Some(q(1, 3)));
        let x = Interval::from_rational(&q(22, 7));
        assert_eq!(simple_point(x, false), Some(q(22, 7)));
    }

    #[test]
    fn exact_roots() {
        assert_eq!(exact_root(&q(9, 4), 2), Some(q(3, 2)));
        assert_eq!(exact_root(&q(-27, 8), 3), Some(q(-3, 2)));
        assert_eq!(exact_root(&q(2, 1), 2), None);
        assert_eq!(exact_root(&q(-4, 1), 2), None);
    }
}
