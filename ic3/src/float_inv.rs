//! Candidate invariants from the program's own constants, pruned to an inductive core
//! (Houdini) and proved by the exact solver: the loop bounds that IC3's box lemmas do not
//! reach because each one is only inductive *together* with the others.
//!
//! The idea (issue #22 item 3): a float filter such as `B = B - (2B - A - X)·0.005` with
//! `X ∈ [-20, 20]` stays in `[-20, 20]`, but only if `A` does too, and `A` only if `B` does;
//! IC3 blocks one state at a time and never learns the pair. Here every candidate is
//! guessed at once and the non-inductive ones are dropped until the rest is closed:
//!
//! * **Candidates.** The location variable `pc` (an integer state variable with at most
//!   [`MAX_LOCATIONS`] values, the C front end's program counter) splits the candidates by
//!   location. At each location `p`: `pc ≠ p` (the location is unreachable), `b` and `¬b` for
//!   each Boolean, `v ≤ k` and `v ≥ k` for each numeric state variable `v` and each constant
//!   `k` of the system (its INIT, TRANS and TARGET constants and bounds, their negations and
//!   0), and "not NaN" for IEEE variables. Each candidate is a clause, the negation of a
//!   [`Cube`], so the result is an ordinary IC3 certificate.
//! * **Pruning.** Initiation: `INIT ∧ (c_1 ∨ … ∨ c_n)` is solved; every cube that holds in
//!   the answer (a validated point, or a candidate box: a dropped candidate only weakens the
//!   guess) is dropped, until the query is UNSAT. Consecution: likewise with
//!   `L(s) ∧ ¬TARGET(s) ∧ T(s, s') ∧ (c_1(s') ∨ … ∨ c_n(s'))`, one incremental solver whose
//!   lemmas sit under activation literals. Each round drops at least one cube, so the loop
//!   ends; what is left is inductive relative to `¬TARGET`.
//! * **Proof.** The survivors are a certificate with suffix 0, checked by
//!   [`crate::ic3::certificate::check`] in fresh solvers: initiation, consecution, and that
//!   no state of `L ∧ ¬TARGET` steps into TARGET and no initial state is in it. That check,
//!   in the solver's exact IEEE semantics (every float operation rounded as the program
//!   rounds it), is what makes SAFE sound: the guesses and the pruning only decide what is
//!   tried. The front end re-checks the printed clauses once more (`--check-certificate`,
//!   and always for C).
//!
//! Why the constants: the bounds that make such loops safe are the ones the program states
//! (input ranges `[-20, 20]`, the asserted `[-129, 129]`, the initial values); a filter whose
//! every coefficient is non-negative and sums to at most 1 in float arithmetic keeps its
//! state inside the inputs' range, because IEEE rounding is monotone (a sum of monotone
//! rounded terms is largest at the box's corner, where it is the corner's value). Bounds that
//! need a margin beyond the program's constants, and relations between variables
//! (`|S - E1| ≤ 1 + ε`), are not guessed: such loops stay UNKNOWN here.

use crate::engine::{add_stats, EngineResult, Limits, Log, Validator, Verdict};
use crate::ic3::certificate::{self, Lemmas};
use crate::ic3::cube::{integral, CLit, Cube, Step};
use crate::ts::TransitionSystem;
use crate::unroll::Unrolling;
use solver::formula::{Atom, Formula, Sort, VarOrigin};
use solver::lit::Lit;
use solver::model::{Model, Value};
use solver::solve::Stats;
use solver::{LitInfo, Rational, Rel, SolveResult, Solver, SolverConfig};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

const NAME: &str = "float-inv";
/// A location variable has at most this many values (more: no split by location).
pub const MAX_LOCATIONS: i64 = 64;
/// Constants beyond this magnitude are not tried as bounds (they bound nothing useful and
/// only make the candidate set larger).
const MAX_CONSTANT: i64 = 1 << 40;
/// The most candidates tried; beyond it the engine gives up (UNKNOWN) rather than build
/// solvers with millions of clauses.
const MAX_CANDIDATES: usize = 20_000;
/// rel-inv: at most this many carried Booleans are split into all their valuations (2^bits
/// places); with more, each literal alone is a place.
const MAX_BOOL_PLACE_BITS: usize = 6;
/// The portfolio's time for this engine (it runs before `kind-bitblast` on that thread).
pub const BUDGET: Duration = Duration::from_secs(8);
/// The portfolio's time for rel-inv (before relational IC3 on that thread, which gets the
/// rest).
pub const REL_BUDGET: Duration = Duration::from_secs(3);
/// One pruning query's time: a query that interval propagation cannot settle quickly
/// (relational float facts) is split per candidate rather than allowed to eat the budget.
const QUERY_TIME: Duration = Duration::from_millis(100);

/// The location variable of `ts` and its values: the first integer state variable whose
/// declared domain has between 2 and [`MAX_LOCATIONS`] values.
fn location(ts: &TransitionSystem) -> Option<(usize, Vec<i64>)> {
    ts.state.iter().enumerate().find_map(|(i, sv)| {
        if sv.sort != Sort::Int {
            return None;
        }
        let lo = sv.domain.lo.as_ref()?;
        let hi = sv.domain.hi.as_ref()?;
        let lo = lo.value.ceil().to_integer();
        let hi = hi.value.floor().to_integer();
        let lo: i64 = lo.try_into().ok()?;
        let hi: i64 = hi.try_into().ok()?;
        (hi > lo && hi - lo < MAX_LOCATIONS).then(|| (i, (lo..=hi).collect()))
    })
}

/// The numeric constants of a formula: its constant operands and the constants of its
/// bound atoms.
fn constants_of(f: &Formula, out: &mut BTreeSet<Rational>) {
    for (_, info) in f.vars.iter() {
        if info.origin != VarOrigin::Constant {
            continue;
        }
        if let (Some(lo), Some(hi)) = (&info.domain.lo, &info.domain.hi) {
            if lo.value == hi.value {
                out.insert(lo.value.clone());
            }
        }
    }
    for a in &f.atoms {
        if let Atom::Bound { value, .. } = a {
            out.insert(value.clone());
        }
    }
}

/// The candidate bounds: every constant of the system, its negation, and 0.
fn candidate_constants(ts: &TransitionSystem) -> Vec<Rational> {
    let mut cs = BTreeSet::new();
    constants_of(&ts.init, &mut cs);
    constants_of(&ts.trans, &mut cs);
    constants_of(&ts.target, &mut cs);
    let limit = Rational::from_integer(MAX_CONSTANT.into());
    let mut out: BTreeSet<Rational> = BTreeSet::new();
    out.insert(Rational::from_integer(0.into()));
    for c in cs {
        if c <= limit && -c.clone() <= limit {
            out.insert(-c.clone());
            out.insert(c);
        }
    }
    out.into_iter().collect()
}

fn at_location(loc: Option<(usize, i64)>) -> Vec<CLit> {
    match loc {
        None => Vec::new(),
        Some((var, p)) => vec![
            CLit::Bound {
                var,
                rel: Rel::Ge,
                value: Rational::from_integer(p.into()),
            },
            CLit::Bound {
                var,
                rel: Rel::Le,
                value: Rational::from_integer(p.into()),
            },
        ],
    }
}

/// What is guessed. `Float`: bounds on the state variables per value of the C front end's
/// location variable (float-inv). `Relational`: the same over a system augmented by its
/// linear terms, so that `x - y <= 0` is a bound on a term slot; without a location variable
/// the places are the valuations of the Boolean state (VMT's program-counter bits), and a
/// candidate box (no validated point) drops only the cubes the solver made true, because a
/// box over unbounded integers contains nearly every cube (rel-inv).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Guesses {
    Float,
    Relational,
}

impl Guesses {
    fn name(self) -> &'static str {
        match self {
            Guesses::Float => NAME,
            Guesses::Relational => "rel-inv",
        }
    }
}

/// Where a candidate holds: each place is the cube that selects it (empty: everywhere).
/// With an integer location variable: one place per value. Otherwise, for
/// [`Guesses::Relational`]: every valuation of up to [`MAX_BOOL_PLACE_BITS`] carried
/// Booleans, or with more of them everywhere and under each Boolean literal alone.
fn places(ts: &TransitionSystem, carried: &[bool], guesses: Guesses) -> Vec<Vec<CLit>> {
    if let Some((v, ps)) = location(ts) {
        return ps.iter().map(|&p| at_location(Some((v, p)))).collect();
    }
    let bits: Vec<usize> = (0..ts.state.len())
        .filter(|&i| carried[i] && ts.state[i].sort == Sort::Bool)
        .collect();
    if guesses == Guesses::Float || bits.is_empty() {
        return vec![Vec::new()];
    }
    if bits.len() > MAX_BOOL_PLACE_BITS {
        let mut ps = vec![Vec::new()];
        for &var in &bits {
            for val in [true, false] {
                ps.push(vec![CLit::Bool { var, val }]);
            }
        }
        return ps;
    }
    (0..1u32 << bits.len())
        .map(|m| {
            bits.iter()
                .enumerate()
                .map(|(k, &var)| CLit::Bool {
                    var,
                    val: m >> k & 1 == 1,
                })
                .collect()
        })
        .collect()
}

/// Every candidate, as the cube whose negation is the candidate lemma; `None` as soon as
/// there are more than [`MAX_CANDIDATES`] (locations × variables × constants grows fast on
/// generated C, and building them all first once took gigabytes before the count was read).
fn candidates(ts: &TransitionSystem, guesses: Guesses) -> Option<Vec<Cube>> {
    let carried = ts.carried();
    let consts = candidate_constants(ts);
    let places = places(ts, &carried, guesses);
    let mut out = Vec::new();
    for here in places {
        let with = |l: CLit| {
            let mut c = here.clone();
            c.push(l);
            Cube::new(c)
        };
        if !here.is_empty() {
            // the location is unreachable
            out.push(Cube::new(here.clone()));
        }
        for (i, sv) in ts.state.iter().enumerate() {
            if out.len() > MAX_CANDIDATES {
                return None;
            }
            // a place's own variables (the location variable, the bits) take no bounds there
            if here.iter().any(|l| l.var() == i) || !carried[i] {
                continue;
            }
            match sv.sort {
                Sort::Bool => {
                    for val in [true, false] {
                        out.push(with(CLit::Bool { var: i, val }));
                    }
                }
                _ => {
                    if matches!(sv.sort, Sort::Fp(_)) {
                        out.push(with(CLit::Nan { var: i, val: true }));
                    }
                    let whole = integral(&sv.sort);
                    for k in &consts {
                        if whole && !k.is_integer() {
                            continue;
                        }
                        // lemma v <= k is the cube v > k; lemma v >= k is the cube v < k
                        for rel in [Rel::Gt, Rel::Lt] {
                            out.push(with(CLit::Bound {
                                var: i,
                                rel,
                                value: k.clone(),
                            }));
                        }
                    }
                }
            }
        }
    }
    (out.len() <= MAX_CANDIDATES).then_some(out)
}

/// Whether cube literal `l` may hold at the exact state `vals`: `false` only when it surely
/// does not (a value the literal cannot judge counts as holding, so that its cube is dropped:
/// dropping a candidate is always sound).
fn may_hold(ts: &TransitionSystem, l: &CLit, vals: &[Value]) -> bool {
    let v = &vals[l.var()];
    let fmt = match ts.state[l.var()].sort {
        Sort::Fp(f) => Some(f),
        _ => None,
    };
    match (l, v) {
        (CLit::Bool { val, .. }, Value::Bool(b)) => b == val,
        (CLit::Nan { val, .. }, Value::Fp(bits)) => fmt.is_none_or(|f| f.is_nan(*bits) == *val),
        (CLit::Neg { val, .. }, Value::Fp(bits)) => {
            fmt.is_none_or(|f| f.is_negative(*bits) == *val)
        }
        (CLit::Bound { rel, value, .. }, _) => {
            let x = match v {
                Value::Num(q) => q.clone(),
                Value::Fp(bits) => match fmt.and_then(|f| f.to_rational(*bits)) {
                    Some(q) => q,
                    None => return true,
                },
                _ => return true,
            };
            match rel {
                Rel::Le => x <= *value,
                Rel::Lt => x < *value,
                Rel::Ge => x >= *value,
                Rel::Gt => x > *value,
            }
        }
        _ => true,
    }
}

/// Whether cube literal `l` may hold somewhere in the candidate box of `m` at `step`:
/// `false` only when the box surely excludes it (ends compared as doubles, ties count as
/// holding; NaN and sign literals always may).
fn may_hold_in_box(step: &Step, m: &Model, l: &CLit) -> bool {
    let v = step.vars[l.var()];
    match l {
        CLit::Bool { val, .. } => m.bools.get(v).copied().flatten() != Some(!*val),
        CLit::Bound { rel, value, .. } => {
            let Some(b) = m.boxes.get(v) else {
                return true;
            };
            let k = rational_to_f64(value);
            match rel {
                // an incomparable end (NaN) counts as holding
                Rel::Le | Rel::Lt => b.lo().partial_cmp(&k) != Some(std::cmp::Ordering::Greater),
                Rel::Ge | Rel::Gt => b.hi().partial_cmp(&k) != Some(std::cmp::Ordering::Less),
            }
        }
        _ => true,
    }
}

/// A double near `q` (the comparisons above treat ties as holding, so nearness suffices).
fn rational_to_f64(q: &Rational) -> f64 {
    use num_traits::ToPrimitive;
    q.to_f64()
        .unwrap_or(if *q > Rational::from_integer(0.into()) {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        })
}

/// Whether literal `l` is true in the solver's answer `m` (a Boolean literal of the solver).
fn holds(s: &Solver, m: &Model, l: Lit) -> bool {
    match s.lit_info(l) {
        Some(LitInfo::Bool(v, val)) => m.bools.get(v).copied().flatten() == Some(val),
        _ => false,
    }
}

/// A query over `step` that some live cube holds there: one indicator per cube
/// (`r_c → c`), the clause `∨ r_c` under `round`'s activation (a dropped cube's indicator is
/// fixed false).
struct Violation<'a> {
    ts: &'a TransitionSystem,
    guesses: Guesses,
    /// the engine's deadline (each query gets less)
    deadline: Option<Instant>,
    cubes: &'a [Cube],
    step: Step,
    indicators: Vec<Lit>,
}

impl<'a> Violation<'a> {
    fn new(
        ts: &'a TransitionSystem,
        guesses: Guesses,
        deadline: Option<Instant>,
        s: &mut Solver,
        step: Step,
        cubes: &'a [Cube],
    ) -> Violation<'a> {
        let mut indicators = Vec::with_capacity(cubes.len());
        for c in cubes {
            let r = s.new_activation();
            for l in step.lits(s, &c.0) {
                s.add_clause(&[!r, l]);
            }
            indicators.push(r);
        }
        Violation {
            ts,
            guesses,
            deadline,
            cubes,
            step,
            indicators,
        }
    }

    /// Solves "one of the cubes `among` holds" under `assume` within [`QUERY_TIME`] (and
    /// the engine's deadline); drops every live cube that holds in the answer. `Some(true)`:
    /// UNSAT; `Some(false)`: something was dropped; `None`: no answer in time.
    fn query(
        &self,
        s: &mut Solver,
        live: &mut [bool],
        assume: &[Lit],
        among: &[usize],
    ) -> Result<Option<bool>, String> {
        let act = s.new_activation();
        let mut clause = vec![!act];
        clause.extend(among.iter().map(|&i| self.indicators[i]));
        s.add_clause(&clause);
        let mut a = assume.to_vec();
        a.push(act);
        let cap = Instant::now() + QUERY_TIME;
        s.set_deadline(Some(self.deadline.map_or(cap, |d| d.min(cap))));
        let res = s.solve(&a);
        s.set_deadline(self.deadline);
        // retire this query's clause for good
        s.add_clause(&[!act]);
        match res {
            SolveResult::Unsat => Ok(Some(true)),
            SolveResult::Sat(m) | SolveResult::Candidate(m) => {
                // a validated point judges every cube at once; a candidate box only through
                // the indicators the solver set
                let point = self.step.values(&m);
                let mut dropped = 0;
                for (i, &r) in self.indicators.iter().enumerate() {
                    let cube = &self.cubes[i].0;
                    let violated = holds(s, &m, r)
                        || match &point {
                            Some(vals) => cube.iter().all(|l| may_hold(self.ts, l, vals)),
                            None if self.guesses == Guesses::Float => {
                                cube.iter().all(|l| may_hold_in_box(&self.step, &m, l))
                            }
                            None => false,
                        };
                    if live[i] && violated {
                        live[i] = false;
                        s.add_clause(&[!r]);
                        dropped += 1;
                    }
                }
                if dropped == 0 {
                    return Err("the solver's answer satisfies no candidate's negation".into());
                }
                Ok(Some(false))
            }
            SolveResult::Unknown(why) => {
                if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    Err(why)
                } else {
                    Ok(None)
                }
            }
        }
    }

    /// One round over every live cube. `Ok(true)` when no live cube can hold.
    fn round(&self, s: &mut Solver, live: &mut [bool], assume: &[Lit]) -> Result<bool, String> {
        let all: Vec<usize> = (0..live.len()).filter(|&i| live[i]).collect();
        if all.is_empty() {
            return Ok(true);
        }
        Ok(!self.settle(s, live, assume, &all)?)
    }

    /// Rounds until no live cube can hold (under `assume` of the live set); the number of
    /// rounds that dropped something. The solver's work goes into `stats` either way.
    fn until_closed(
        &self,
        s: &mut Solver,
        live: &mut [bool],
        assume: impl Fn(&[bool]) -> Vec<Lit>,
        stats: &mut Stats,
    ) -> Result<usize, String> {
        let mut rounds = 0;
        loop {
            let done = self.round(s, live, &assume(live));
            if !matches!(done, Ok(false)) {
                add_stats(stats, s.stats());
                return done.map(|_| rounds);
            }
            rounds += 1;
        }
    }

    /// Queries `among`; a query without an answer in time is split in halves (a half that
    /// is UNSAT settles all its cubes at once), and a single cube without an answer is
    /// dropped (that only weakens the guess). Whether anything was dropped.
    fn settle(
        &self,
        s: &mut Solver,
        live: &mut [bool],
        assume: &[Lit],
        among: &[usize],
    ) -> Result<bool, String> {
        let among: Vec<usize> = among.iter().copied().filter(|&i| live[i]).collect();
        if among.is_empty() {
            return Ok(false);
        }
        match self.query(s, live, assume, &among)? {
            Some(unsat) => Ok(!unsat),
            None if among.len() == 1 => {
                live[among[0]] = false;
                s.add_clause(&[!self.indicators[among[0]]]);
                Ok(true)
            }
            None => {
                let (a, b) = among.split_at(among.len() / 2);
                let x = self.settle(s, live, assume, a)?;
                let y = self.settle(s, live, assume, b)?;
                Ok(x || y)
            }
        }
    }
}

/// Drops the candidates that some initial state violates.
fn prune_init(
    ts: &TransitionSystem,
    guesses: Guesses,
    cubes: &[Cube],
    live: &mut [bool],
    config: &SolverConfig,
    limits: &Limits,
    stats: &mut Stats,
) -> Result<usize, String> {
    let mut s = limits.solver(config)?;
    let u = Unrolling::new(ts, &mut s);
    u.assert_init(&mut s)?;
    let step = Step::new(&s, u.states[0].clone());
    let q = Violation::new(ts, guesses, limits.deadline, &mut s, step, cubes);
    q.until_closed(&mut s, live, |_| Vec::new(), stats)
}

/// Drops candidates until the rest is inductive relative to `¬TARGET`.
fn prune_step(
    ts: &TransitionSystem,
    guesses: Guesses,
    cubes: &[Cube],
    live: &mut [bool],
    config: &SolverConfig,
    limits: &Limits,
    stats: &mut Stats,
) -> Result<usize, String> {
    let mut s = limits.solver(config)?;
    let mut u = Unrolling::new(ts, &mut s);
    let now = Step::new(&s, u.states[0].clone());
    // each lemma at s under its own activation
    let mut guards = Vec::with_capacity(cubes.len());
    for c in cubes {
        let g = s.new_activation();
        let clause = now.clause(&mut s, c);
        s.add_clause_under(g, &clause);
        guards.push(g);
    }
    let neg: Vec<Lit> = u.target_at(&mut s, 0)?.iter().map(|&r| !r).collect();
    s.add_clause(&neg);
    u.push_step(&mut s)?;
    let next = Step::new(&s, u.states[1].clone());
    let q = Violation::new(ts, guesses, limits.deadline, &mut s, next, cubes);
    // the live lemmas at s as assumptions
    let assume = |live: &[bool]| -> Vec<Lit> {
        guards
            .iter()
            .zip(live)
            .filter(|(_, &l)| l)
            .map(|(&g, _)| g)
            .collect()
    };
    q.until_closed(&mut s, live, assume, stats)
}

/// Keeps the strongest of the lemmas that say the same kind of thing: at one location, of
/// an unreachable location only `pc ≠ p`, and per variable and direction the tightest bound
/// (the others follow from it).
fn tidy(cubes: Vec<Cube>) -> Vec<Cube> {
    let mut out: Vec<Cube> = Vec::new();
    for (i, c) in cubes.iter().enumerate() {
        // `d.contains(c)`: every literal of d follows from c's, so c ⇒ d and the lemma ¬d
        // implies the lemma ¬c (of two equal cubes the first is kept)
        let implied = cubes
            .iter()
            .enumerate()
            .any(|(j, d)| j != i && d.contains(c) && (!c.contains(d) || j < i));
        if !implied {
            out.push(c.clone());
        }
    }
    out
}

/// Guesses, prunes and proves; SAFE with the certificate, or UNKNOWN with why not.
pub fn float_inv(
    ts: &TransitionSystem,
    config: &SolverConfig,
    budget: Duration,
    limits: &Limits,
    log: &Log,
) -> EngineResult {
    guess_and_prove(ts, config, budget, Guesses::Float, limits, log)
}

/// The guesses that survive pruning, tidied: initiated and inductive relative to `¬TARGET`
/// as far as the pruning solvers tell (not yet re-checked). `Err` with why not (the
/// candidates' count, the budget); the pruning solvers' work goes into `stats` either way.
fn guess_and_prune(
    ts: &TransitionSystem,
    config: &SolverConfig,
    guesses: Guesses,
    limits: &Limits,
    log: &Log,
    stats: &mut Stats,
) -> Result<Vec<Cube>, String> {
    let name = guesses.name();
    let started = Instant::now();
    let Some(cubes) = candidates(ts, guesses) else {
        return Err(format!("more than {MAX_CANDIDATES} candidates"));
    };
    let mut live = vec![true; cubes.len()];
    let mut run = || -> Result<(usize, usize), String> {
        let a = prune_init(ts, guesses, &cubes, &mut live, config, limits, stats)?;
        let b = prune_step(ts, guesses, &cubes, &mut live, config, limits, stats)?;
        Ok((a, b))
    };
    let (ri, rs) = run().map_err(|why| {
        let left = live.iter().filter(|&&l| l).count();
        format!("{why} ({} candidates, {left} left)", cubes.len())
    })?;
    let kept: Vec<Cube> = cubes
        .iter()
        .zip(&live)
        .filter(|(_, &l)| l)
        .map(|(c, _)| c.clone())
        .collect();
    let kept = tidy(kept);
    log(format!(
        "{name}: {} candidates, {} inductive after {ri} initiation and {rs} consecution rounds ({:.2} s)",
        cubes.len(),
        kept.len(),
        started.elapsed().as_secs_f64()
    ));
    Ok(kept)
}

/// `limits` with the deadline moved to at most `budget` from now.
fn within(limits: &Limits, budget: Duration) -> Limits {
    let end = Instant::now() + budget;
    Limits {
        deadline: Some(limits.deadline.map_or(end, |d| d.min(end))),
        ..limits.clone()
    }
}

/// rel-inv's pruned guesses over `ats`, a system already augmented by its linear terms
/// ([`crate::ic3::terms::augment`]), within `budget`: lemmas that hold in every state of a
/// run up to its first TARGET state, for k-induction to assume at every state of its path
/// (`crate::kind`). Not re-checked here: whoever uses them proves what it concludes from
/// them (k-induction's certificate re-checks their initiation and consecution).
pub(crate) fn relational_lemmas(
    ats: &TransitionSystem,
    config: &SolverConfig,
    budget: Duration,
    limits: &Limits,
    log: &Log,
    stats: &mut Stats,
) -> Result<Vec<Cube>, String> {
    let limits = within(limits, budget);
    guess_and_prune(ats, config, Guesses::Relational, &limits, log, stats)
}

fn guess_and_prove(
    ts: &TransitionSystem,
    config: &SolverConfig,
    budget: Duration,
    guesses: Guesses,
    limits: &Limits,
    log: &Log,
) -> EngineResult {
    let name = guesses.name();
    let limits = within(limits, budget);
    let mut stats = Stats::default();
    let kept = match guess_and_prune(ts, config, guesses, &limits, log, &mut stats) {
        Ok(k) => k,
        Err(why) => return EngineResult::unknown(name, why, stats),
    };
    if kept.is_empty() {
        return EngineResult::unknown(name, "no guess is inductive", stats);
    }
    // the proof: the survivors as a certificate, checked from scratch in fresh solvers
    let rep = match certificate::check(ts, &Lemmas::Cubes(&kept), 0, config, &limits) {
        Ok(r) => r,
        Err(why) => return EngineResult::unknown(name, why, stats),
    };
    let cert = certificate::Certificate {
        lemmas: kept,
        suffix: 0,
        distinct: false,
    };
    EngineResult {
        verdict: Verdict::Safe,
        engine: name,
        depth: None,
        trace: None,
        boxes: None,
        note: Some(format!(
            "an inductive invariant of {} lemmas guessed from the system's constants{} \
             (certificate re-checked: {} fresh solvers, {} UNSAT queries)",
            cert.lemmas.len(),
            match guesses {
                Guesses::Float => "",
                Guesses::Relational => " over its variables and linear terms",
            },
            rep.solvers,
            rep.queries
        )),
        stats,
        invariant: Some(cert.invariant(ts)),
        extra_stats: Vec::new(),
    }
}

/// rel-inv: the same guess-and-prune over the system augmented by its linear terms
/// ([`crate::ic3::terms::choose`], at most `max_terms`), per valuation of the Boolean state:
/// `x - y <= 0` is then an ordinary bound on a term slot, and `x - y <= 0 or .s.0` a
/// candidate at the locations where `.s.0` is false. The certificate prints each slot as its
/// sum, so the front end re-checks it over the original system (as for IC3 `+rel`).
pub fn rel_inv(
    ts: &TransitionSystem,
    config: &SolverConfig,
    max_terms: usize,
    budget: Duration,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    // float terms too: rel-inv's solvers get the simplex, whose rounded rows relate them
    let chosen = crate::ic3::terms::choose(ts, max_terms, true, true);
    let ats = crate::ic3::terms::augment(ts, &chosen);
    if let Err(e) = ats.validate() {
        return EngineResult::unknown(Guesses::Relational.name(), e, Stats::default());
    }
    let config = crate::ic3::terms::solver_for(config, &chosen, &ts.state);
    let r = guess_and_prove(&ats, &config, budget, Guesses::Relational, limits, log);
    crate::ic3::terms::project(r, ts, val)
}
