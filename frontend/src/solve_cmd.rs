//! `icpic3 solve FILE` for the EXPR form: lower, solve with the ICP-CDCL core, and validate.
//!
//! The solver's answer is never trusted on its own for SATISFIABLE (DESIGN §5 rule 2): a
//! point is accepted only when [`crate::hys::eval`] finds every *original* constraint `True`
//! at it, independently of the lowering and of the solver. A point the solver checked
//! against the lowered formula comes first; then the simple points inside the final boxes.
//! Otherwise the answer is CANDIDATE SOLUTION with the boxes. UNSATISFIABLE is the solver's
//! refutation at level 0, which relies on outward rounding everywhere.

use crate::hys::check::Checked;
use crate::hys::eval::{self, PointValue, Truth};
use crate::hys::ir::Constraint;
use serde_json::json;
use solver::formula::{Formula, Sort, VarOrigin};
use solver::interval::Interval;
use solver::model::{Model, Value};
use solver::num::{format_rational, ieee, FpFormat, Rational};
use solver::solve::{FormulaMap, SolveResult, Solver, Stats};
use solver::{SolverConfig, Var};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The verdicts of the EXPR form (language doc Part C).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Satisfiable,
    Unsatisfiable,
    Candidate,
    Unknown,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Satisfiable => "SATISFIABLE",
            Verdict::Unsatisfiable => "UNSATISFIABLE",
            Verdict::Candidate => "CANDIDATE SOLUTION",
            Verdict::Unknown => "UNKNOWN",
        }
    }
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Satisfiable => 10,
            Verdict::Unsatisfiable => 20,
            Verdict::Candidate | Verdict::Unknown => 0,
        }
    }
}

/// A declared variable's part of an answer.
pub enum Shown {
    /// the exact value of a validated model
    Point(PointValue),
    /// the exact value of a validated model's IEEE variable: its format and bits
    Float(FpFormat, u64),
    /// the box of a candidate solution
    Box(Interval),
    Bool(Option<bool>),
}

pub struct Answer {
    pub verdict: Verdict,
    /// the engine whose answer this is (`icp` or `bitblast`)
    pub engine: &'static str,
    /// declared variables (name, value or box), in declaration order
    pub values: Vec<(String, Shown)>,
    /// why the answer is UNKNOWN, or why a candidate could not be validated
    pub note: Option<String>,
    /// a SATISFIABLE answer without an exact point: the re-checked existence proof
    pub proof: Option<ProofSummary>,
    pub stats: Stats,
    pub time: Duration,
    /// the adaptive refinement after a candidate, when it ran
    pub refinement: Option<Refinement>,
}

/// An existence proof as reports show it (issue #23): its kind and its text (the unknowns'
/// boxes, the equations, the fixed inputs).
#[derive(Clone, Debug)]
pub struct ProofSummary {
    pub kind: &'static str,
    pub text: String,
}

pub struct Options {
    pub config: SolverConfig,
    pub timeout: Option<Duration>,
    pub engine: ExprEngine,
    /// adaptive refinement after a candidate ([`Refinement`]); off when the user fixed
    /// `--msw`
    pub refine: bool,
}

/// Adaptive refinement (issue #23 item 2): when the ICP search ends with a candidate only,
/// the rest of the time goes to fresh searches with the minimal splitting width and the
/// minimal progress divided by [`REFINE_FACTOR`] each round, so that refutations that need
/// boxes narrower than the default width (constraints that touch) and points inside narrower
/// boxes get their chance. An UNSATISFIABLE of any round is ICP's refutation with outward
/// rounding like the first one; a model is validated exactly like the first one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refinement {
    /// refinement rounds run (after the first search)
    pub rounds: u32,
    /// the minimal splitting width and minimal progress of the last round
    pub msw: f64,
    pub mpr: f64,
}

/// The division of `msw` and `mpr` per refinement round.
pub const REFINE_FACTOR: f64 = 10.0;
/// Refinement stops at this width: far narrower boxes only show the limits of `f64` ends.
pub const REFINE_MIN_MSW: f64 = 1e-9;
/// The smallest minimal progress refinement uses (0 would let propagation chains run on).
pub const REFINE_MIN_MPR: f64 = 1e-6;
/// Without a time limit, refinement gets this many times the first search's time, at least
/// [`REFINE_BUDGET_MIN`], so that a candidate still comes back promptly.
pub const REFINE_BUDGET_FACTOR: u32 = 4;
pub const REFINE_BUDGET_MIN: Duration = Duration::from_secs(1);

/// Which engines decide an EXPR problem (`--engine` of `solve`, language doc Part C).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ExprEngine {
    /// ICP-CDCL and, where every operation has a circuit, bit-blasting, on two threads: the
    /// first definite answer wins
    #[default]
    Portfolio,
    /// the ICP-CDCL core alone
    Icp,
    /// bit-blasting alone (UNKNOWN where an operation has no circuit)
    Bitblast,
}

/// For each declared variable (in [`Checked::declared`] order), its variable in `f`.
fn declared_vars(checked: &Checked, f: &Formula) -> Vec<Option<Var>> {
    checked
        .declared()
        .iter()
        .map(|d| {
            f.vars
                .iter()
                .find(|(_, v)| matches!(v.origin, VarOrigin::Declared { .. }) && v.name == d.name)
                .map(|(v, _)| v)
        })
        .collect()
}

/// Validates a point (solver values of the declared variables) against the original EXPR
/// constraints; returns the point when every constraint is `True`.
fn validate<'p>(
    checked: &Checked,
    constraints: &[Constraint],
    decl: &[Option<Var>],
    value_of: impl Fn(Var) -> Option<&'p Value>,
) -> Option<Vec<PointValue>> {
    let mut values = Vec::with_capacity(decl.len());
    for (d, fv) in checked.declared().iter().zip(decl) {
        let value = match (fv.and_then(&value_of), d.sort) {
            (Some(Value::Bool(b)), Sort::Bool) => PointValue::Bool(*b),
            (Some(Value::Num(q)), Sort::Int | Sort::Real | Sort::MachineInt(_)) => {
                PointValue::Num(q.clone())
            }
            (Some(Value::Fp(bits)), Sort::Fp(_)) => PointValue::Fp(*bits),
            // A variable that occurs in no constraint is free: any value in its domain.
            (None, _) => default_value(d.sort, &d.domain)?,
            _ => return None,
        };
        // The declared domain is part of the problem: a point outside it is no model, however
        // the constraints evaluate there (an `fp64 [0, 1]` variable set to NaN would make
        // every `not feq(..)` true).
        if !in_domain(d.sort, &d.domain, &value) {
            return None;
        }
        values.push(value);
    }
    (eval::eval_all(checked, constraints, &values, &[]) == Truth::True).then_some(values)
}

/// `value` has the declared sort and lies in the declared domain (language doc B.1: an fp
/// domain with ends admits only the finite floats inside it; machine integers also stay in
/// their type).
fn in_domain(sort: Sort, domain: &solver::formula::Domain, value: &PointValue) -> bool {
    use solver::formula::Bound;
    let inside = |q: &Rational| {
        let above = |b: &Option<Bound>| {
            b.as_ref()
                .is_none_or(|b| *q > b.value || (!b.strict && *q == b.value))
        };
        let below = |b: &Option<Bound>| {
            b.as_ref()
                .is_none_or(|b| *q < b.value || (!b.strict && *q == b.value))
        };
        above(&domain.lo) && below(&domain.hi)
    };
    match (sort, value) {
        (Sort::Bool, PointValue::Bool(_)) => true,
        (Sort::Real, PointValue::Num(q)) => inside(q),
        (Sort::Int, PointValue::Num(q)) => q.is_integer() && inside(q),
        (Sort::MachineInt(t), PointValue::Num(q)) => {
            q.is_integer() && t.contains(&q.to_integer()) && inside(q)
        }
        (Sort::Fp(f), PointValue::Fp(bits)) => {
            if f.total_bits() < 64 && bits >> f.total_bits() != 0 {
                return false;
            }
            if domain.is_unbounded() {
                return true;
            }
            // NaN and infinities have no rational value: outside every range
            f.to_rational(*bits).is_some_and(|q| inside(&q))
        }
        _ => false,
    }
}

/// A value inside a declared domain, for variables the solver never saw.
fn default_value(sort: Sort, domain: &solver::formula::Domain) -> Option<PointValue> {
    if sort == Sort::Bool {
        return Some(PointValue::Bool(false));
    }
    if let Sort::Fp(f) = sort {
        // +0 for the full domain; else a simple point of the range rounded into the format,
        // or the range's lower end rounded upward (the checker narrows fp ranges to floats,
        // so one of them lies in the range; `validate` checks it).
        let Some(lo) = domain.lo.as_ref() else {
            return Some(PointValue::Fp(0));
        };
        let iv = Interval::from_domain(domain);
        let simple = solver::model::simple_point(iv, false)
            .map(|q| solver::num::ieee::from_rational(f, solver::RoundingMode::Rne, &q));
        let up = solver::num::ieee::from_rational(f, solver::RoundingMode::Rtp, &lo.value);
        return [simple, Some(up)]
            .into_iter()
            .flatten()
            .map(PointValue::Fp)
            .find(|v| in_domain(sort, domain, v));
    }
    let iv = Interval::from_domain(domain);
    let integral = sort.is_integral();
    solver::model::simple_point(iv, integral).map(PointValue::Num)
}

/// The earlier of `deadline` and this thread's front-end deadline (`solver::budget`, set by
/// the command line from `--timeout` before the input is read), so that reading, parsing and
/// lowering count against `--timeout` too.
pub fn earliest(deadline: Option<Instant>) -> Option<Instant> {
    match (deadline, solver::budget::deadline()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

pub fn solve_expr(checked: &Checked, f: &Formula, opts: &Options) -> Answer {
    let start = Instant::now();
    // the command's deadline (set before its input was read) when it is earlier
    let deadline = earliest(opts.timeout.map(|t| start + t));
    let bitblast_ok = solver::bitblast::supports(f);
    match (opts.engine, &bitblast_ok) {
        (ExprEngine::Icp, _) | (ExprEngine::Portfolio, Err(_)) => {
            let mut a = solve_icp(checked, f, opts, deadline, None);
            a.time = start.elapsed();
            return a;
        }
        (ExprEngine::Bitblast, Err(why)) => {
            return Answer {
                verdict: Verdict::Unknown,
                engine: "bitblast",
                values: Vec::new(),
                note: Some(format!("bit-blasting does not support {why}")),
                proof: None,
                stats: Stats::default(),
                time: start.elapsed(),
                refinement: None,
            }
        }
        (ExprEngine::Bitblast, Ok(())) => {
            let mut a = solve_bitblast(checked, f, deadline, None);
            a.time = start.elapsed();
            return a;
        }
        (ExprEngine::Portfolio, Ok(())) => {}
    }
    // the race: each engine runs on its own thread; a definite answer (UNSATISFIABLE or a
    // validated model) stops the other; otherwise the better of the two answers is kept
    let stop_icp = Arc::new(AtomicBool::new(false));
    let stop_bb = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Answer>();
    let mut answers: Vec<Answer> = std::thread::scope(|s| {
        let tx_bb = tx.clone();
        let flag_bb = stop_bb.clone();
        s.spawn(move || {
            let a = solve_bitblast(checked, f, deadline, Some(flag_bb));
            let _ = tx_bb.send(a);
        });
        let flag_icp = stop_icp.clone();
        s.spawn(move || {
            let a = solve_icp(checked, f, opts, deadline, Some(flag_icp));
            let _ = tx.send(a);
        });
        let mut got = Vec::new();
        while got.len() < 2 {
            let Ok(a) = rx.recv() else { break };
            let definite = matches!(a.verdict, Verdict::Satisfiable | Verdict::Unsatisfiable);
            got.push(a);
            if definite {
                stop_icp.store(true, Ordering::Relaxed);
                stop_bb.store(true, Ordering::Relaxed);
                break;
            }
        }
        got
    });
    // definite first, then a candidate (it has boxes), then the first UNKNOWN
    let rank = |a: &Answer| match a.verdict {
        Verdict::Satisfiable | Verdict::Unsatisfiable => 0,
        Verdict::Candidate => 1,
        Verdict::Unknown => 2,
    };
    answers.sort_by_key(rank);
    let mut a = answers.swap_remove(0);
    a.time = start.elapsed();
    a
}

/// The ICP-CDCL core on `f`, its answer validated on the original constraints, refined
/// adaptively after a candidate ([`Refinement`]).
fn solve_icp(
    checked: &Checked,
    f: &Formula,
    opts: &Options,
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
) -> Answer {
    let first = icp_round(checked, f, &opts.config, deadline, interrupt.clone());
    // the width only bounds splits of real variables (floats and integers split down to
    // single values anyway): without one, another round would repeat the search and take a
    // core from the bit-blasting engine that decides such problems
    let has_reals = f.vars.values().any(|v| v.sort == Sort::Real);
    if first.verdict != Verdict::Candidate || !opts.refine || !has_reals {
        return first;
    }
    let now = Instant::now();
    let own_budget = (first.time * REFINE_BUDGET_FACTOR).max(REFINE_BUDGET_MIN);
    // with a time limit, the witness search after it keeps a share of what is left
    let (until, witness_until) = match deadline {
        Some(d) => (
            now + d.saturating_duration_since(now) * (crate::witness::SHARE_DEN - 1)
                / crate::witness::SHARE_DEN,
            d,
        ),
        None => (now + own_budget, now + own_budget * 2),
    };
    let stopped = || {
        Instant::now() >= until
            || interrupt
                .as_ref()
                .is_some_and(|i| i.load(Ordering::Relaxed))
    };
    let mut stats = first.stats;
    let mut best = first;
    let mut config = opts.config.clone();
    let mut rounds = 0u32;
    // down to REFINE_MIN_MSW (compared with half of it: 0.01 / 10^7 is 1e-9 only up to rounding)
    while opts.config.msw / REFINE_FACTOR.powi(rounds as i32 + 1) >= REFINE_MIN_MSW * 0.5
        && !stopped()
    {
        rounds += 1;
        // from the user's values, not by repeated division (no drift: 1e-9, not 1.0…03e-9)
        let scale = REFINE_FACTOR.powi(rounds as i32);
        config.msw = opts.config.msw / scale;
        config.mpr = (opts.config.mpr / scale).max(REFINE_MIN_MPR.min(opts.config.mpr));
        let a = icp_round(checked, f, &config, Some(until), interrupt.clone());
        ic3::engine::add_stats(&mut stats, &a.stats);
        match a.verdict {
            Verdict::Satisfiable | Verdict::Unsatisfiable => {
                best = a;
                break;
            }
            // narrower boxes: the better candidate
            Verdict::Candidate => best = a,
            // out of time (or the solver gave up): the last candidate stands
            Verdict::Unknown => break,
        }
    }
    let r = Refinement {
        rounds,
        msw: config.msw,
        mpr: config.mpr,
    };
    if best.verdict == Verdict::Candidate && Instant::now() < witness_until {
        // a refutation refinement cannot find where a vanishing factor hides the sign of the
        // rest (solver::factor); the factored formula is equivalent (checked), so either
        // answer of it holds for `f`
        if let Some(g) = solver::factor::factor(f) {
            // half of what is left, so that the witness search after it keeps its chance
            let now = Instant::now();
            let until = now + witness_until.saturating_duration_since(now) / 2;
            let a = icp_round_on(checked, f, &g, &opts.config, Some(until), interrupt.clone());
            ic3::engine::add_stats(&mut stats, &a.stats);
            if matches!(a.verdict, Verdict::Satisfiable | Verdict::Unsatisfiable) {
                best = a;
                best.note = Some(
                    "decided on the formula with common monomial factors \
                                  factored out (an exactly checked identity)"
                        .into(),
                );
            }
        }
    }
    if best.verdict == Verdict::Candidate {
        if let Some(w) = crate::witness::search(
            checked,
            f,
            &opts.config,
            witness_until,
            interrupt.as_ref(),
            &mut stats,
        ) {
            best = w;
        }
    }
    if best.verdict == Verdict::Candidate {
        let said = best
            .note
            .take()
            .unwrap_or_else(|| "candidate solution (no exactly validated model)".into());
        best.note = Some(format!(
            "{said}; adaptive refinement: {} round(s), down to msw {} and mpr {}",
            r.rounds, r.msw, r.mpr
        ));
    }
    best.stats = stats;
    best.refinement = Some(r);
    best
}

/// One ICP-CDCL search on `f` with `config`, its answer validated on the original
/// constraints.
fn icp_round(
    checked: &Checked,
    f: &Formula,
    config: &SolverConfig,
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
) -> Answer {
    icp_round_on(checked, f, f, config, deadline, interrupt)
}

/// One ICP-CDCL search on `searched` (`f` itself or a strengthening of it with the same
/// variables), its answer validated on the original constraints and existence proofs checked
/// against `f`.
pub(crate) fn icp_round_on(
    checked: &Checked,
    f: &Formula,
    searched: &Formula,
    config: &SolverConfig,
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
) -> Answer {
    let start = Instant::now();
    let mut solver = match Solver::new(config.clone()) {
        Ok(s) => s,
        Err(e) => {
            return Answer {
                verdict: Verdict::Unknown,
                engine: "icp",
                values: Vec::new(),
                note: Some(format!("invalid solver configuration: {e}")),
                proof: None,
                stats: Stats::default(),
                time: start.elapsed(),
                refinement: None,
            }
        }
    };
    solver.set_deadline(deadline);
    if let Some(flag) = interrupt {
        solver.set_interrupt(flag);
    }
    let map = solver.add_formula(searched);
    let result = solver.solve(&[]);
    let decl = declared_vars(checked, f);
    let constraints = all_constraints(checked);
    let mut note = None;
    let mut proof = None;
    let (verdict, values) = match &result {
        SolveResult::Unsat => (Verdict::Unsatisfiable, Vec::new()),
        SolveResult::Unknown(reason) => {
            note = Some(reason.clone());
            (Verdict::Unknown, Vec::new())
        }
        SolveResult::Sat(model) | SolveResult::Candidate(model) => {
            let mut tries: Vec<solver::var::VarMap<Value>> = Vec::new();
            if let Some(p) = &model.point {
                tries.push(p.clone());
            }
            tries.push(model.point_candidates());
            let validated = tries
                .iter()
                .find_map(|p| validate(checked, &constraints, &decl, |v| p.get(map.var(v))));
            let proved = || {
                let boxes = |v: Var| model.boxes[map.var(v)];
                let bools = |v: Var| model.bools[map.var(v)];
                // `prove` returns only a proof that `existence::check` accepted, from the
                // certificate alone: the answer never rests on the search's heuristics
                solver::existence::prove(f, &boxes, &bools)
            };
            let proved = if validated.is_none() && !result.is_sat() {
                proved()
            } else {
                None
            };
            match (validated, proved) {
                (Some(point), _) => (Verdict::Satisfiable, shown_point(checked, point)),
                (None, Some(p)) => {
                    proof = Some(ProofSummary {
                        kind: p.kind(),
                        text: solver::existence::describe(f, &p),
                    });
                    (
                        Verdict::Satisfiable,
                        proof_values(checked, &decl, &map, model, &p),
                    )
                }
                (None, None) => {
                    if result.is_sat() {
                        note = Some(
                            "the solver's point satisfies the lowered formula, but not every \
                             original constraint could be proven at it"
                                .into(),
                        );
                    }
                    (Verdict::Candidate, boxes(checked, &decl, &map, model))
                }
            }
        }
    };
    Answer {
        verdict,
        engine: "icp",
        values,
        note,
        proof,
        stats: *solver.stats(),
        time: start.elapsed(),
        refinement: None,
    }
}

/// Bit-blasting on `f` (`solver::bitblast`); a model is validated like the core's.
fn solve_bitblast(
    checked: &Checked,
    f: &Formula,
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
) -> Answer {
    let start = Instant::now();
    let limits = solver::bitblast::Limits {
        deadline,
        interrupt,
    };
    let (outcome, _size) = solver::bitblast::solve(f, &limits);
    let mut note = None;
    let (verdict, values) = match outcome {
        solver::bitblast::Outcome::Unsat => (Verdict::Unsatisfiable, Vec::new()),
        solver::bitblast::Outcome::Sat(point) => {
            let decl = declared_vars(checked, f);
            let constraints = all_constraints(checked);
            match validate(checked, &constraints, &decl, |v| point.get(v)) {
                Some(p) => (Verdict::Satisfiable, shown_point(checked, p)),
                None => {
                    note = Some(
                        "the bit-blasted model does not satisfy every original constraint".into(),
                    );
                    (Verdict::Unknown, Vec::new())
                }
            }
        }
        solver::bitblast::Outcome::Unknown(r) => {
            note = Some(r);
            (Verdict::Unknown, Vec::new())
        }
        solver::bitblast::Outcome::Unsupported(r) => {
            note = Some(format!("bit-blasting does not support {r}"));
            (Verdict::Unknown, Vec::new())
        }
    };
    Answer {
        verdict,
        engine: "bitblast",
        values,
        note,
        proof: None,
        stats: Stats::default(),
        time: start.elapsed(),
        refinement: None,
    }
}

fn all_constraints(checked: &Checked) -> Vec<Constraint> {
    checked
        .sections()
        .iter()
        .flat_map(|s| s.constraints.iter().copied())
        .collect()
}

fn shown_point(checked: &Checked, point: Vec<PointValue>) -> Vec<(String, Shown)> {
    checked
        .declared()
        .iter()
        .zip(point)
        .map(|(d, v)| {
            let shown = match (d.sort, v) {
                (Sort::Fp(f), PointValue::Fp(bits)) => Shown::Float(f, bits),
                (_, v) => Shown::Point(v),
            };
            (d.name.clone(), shown)
        })
        .collect()
}

/// The declared variables of a proved answer: fixed inputs at their exact values, unknowns
/// by their boxes (the zero lies inside), Booleans by their values, the rest by the
/// candidate's boxes.
fn proof_values(
    checked: &Checked,
    decl: &[Option<Var>],
    map: &FormulaMap,
    m: &Model,
    p: &solver::existence::ExistenceProof,
) -> Vec<(String, Shown)> {
    let mut out = boxes(checked, decl, map, m);
    for ((_, shown), fv) in out.iter_mut().zip(decl) {
        let Some(v) = *fv else { continue };
        if let Some((_, q)) = p.fixed.iter().find(|(w, _)| *w == v) {
            *shown = Shown::Point(PointValue::Num(q.clone()));
        } else if let Some((_, u)) = p.unknowns.iter().find(|(w, _)| *w == v) {
            *shown = Shown::Box(*u);
        } else if let Some((_, b)) = p.bools.iter().find(|(w, _)| *w == v) {
            *shown = Shown::Bool(Some(*b));
        }
    }
    out
}

fn boxes(
    checked: &Checked,
    decl: &[Option<Var>],
    map: &FormulaMap,
    m: &Model,
) -> Vec<(String, Shown)> {
    checked
        .declared()
        .iter()
        .zip(decl)
        .map(|(d, fv)| {
            let sv = fv.map(|v| map.var(v));
            let shown = if d.sort == Sort::Bool {
                Shown::Bool(sv.and_then(|v| m.bools.get(v).copied().flatten()))
            } else {
                let b = sv
                    .and_then(|v| m.boxes.get(v).copied())
                    .unwrap_or_else(|| Interval::from_domain(&d.domain));
                Shown::Box(b)
            };
            (d.name.clone(), shown)
        })
        .collect()
}

/// A double for people (`+inf`, `-inf`, else Rust's shortest form).
pub(crate) fn fmt_f64(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x}")
    }
}

/// An IEEE value for people: the bits, then the value in decimal (the shortest decimal that
/// reads back as the same float, so `0.1` for the binary64 nearest to 1/10), `NaN`, `+inf`,
/// `-inf`, `-0`.
pub fn fp_text(f: FpFormat, bits: u64) -> String {
    let width = f.total_bits() as usize / 4;
    format!("0x{bits:0width$x} ({})", fp_decimal(f, bits))
}

fn fp_decimal(f: FpFormat, bits: u64) -> String {
    if f.is_nan(bits) {
        return "NaN".into();
    }
    if f.is_inf(bits) {
        return if f.is_negative(bits) { "-inf" } else { "+inf" }.into();
    }
    // Rust prints the shortest round-trip digits; scientific notation for very large or
    // small magnitudes keeps subnormals readable.
    let short = |x: f64, plain: String, sci: String| {
        let a = x.abs();
        if a != 0.0 && !(1e-5..1e16).contains(&a) {
            sci
        } else {
            plain
        }
    };
    match f {
        FpFormat::F32 => {
            let x = f32::from_bits(bits as u32);
            short(x as f64, format!("{x}"), format!("{x:e}"))
        }
        FpFormat::F64 => {
            let x = ieee::to_f64(f, bits);
            short(x, format!("{x}"), format!("{x:e}"))
        }
    }
}

/// iSAT3's model lines: `name:` then an indented value.
pub fn render_text(a: &Answer) -> String {
    let mut s = String::new();
    if let Some(r) = &a.refinement {
        s.push_str(&format!(
            "-- adaptive refinement: {} round(s), final msw {}, mpr {}\n",
            r.rounds, r.msw, r.mpr
        ));
    }
    for (name, v) in &a.values {
        s.push_str(&format!("{name}:\n"));
        let line = match v {
            Shown::Point(PointValue::Bool(b)) | Shown::Bool(Some(b)) => b.to_string(),
            Shown::Bool(None) => "true or false".into(),
            Shown::Point(PointValue::Num(q)) => {
                let q = format_rational(q);
                format!("[{q}, {q}] -- point interval")
            }
            Shown::Point(PointValue::Fp(bits)) => format!("0x{bits:x}"),
            Shown::Float(f, bits) => format!("{} -- {}", fp_text(*f, *bits), f.name()),
            Shown::Box(iv) if iv.is_empty() => "empty".into(),
            Shown::Box(iv) if iv.is_point() => {
                let x = fmt_f64(iv.lo());
                format!("[{x}, {x}] -- point interval")
            }
            Shown::Box(iv) => format!(
                "{}{}, {}{} -- interval width {}",
                if iv.lo_open() { '(' } else { '[' },
                fmt_f64(iv.lo()),
                fmt_f64(iv.hi()),
                if iv.hi_open() { ')' } else { ']' },
                fmt_f64(iv.width())
            ),
        };
        s.push_str(&format!("  {line}\n"));
    }
    s
}

pub fn stats_json(s: &Stats) -> serde_json::Value {
    json!({
        "solves": s.solves,
        "decisions": s.decisions,
        "splits": s.splits,
        "conflicts": s.conflicts,
        "propagations": s.propagations,
        "icp_runs": s.icp_runs,
        "icp_contractions": s.icp_contractions,
        "learned": s.learned,
        "deleted": s.deleted,
        "restarts": s.restarts,
        "point_checks": s.point_checks,
        "point_checks_ok": s.point_checks_ok,
        "simplex_checks": s.simplex_checks,
        "simplex_pivots": s.simplex_pivots,
        "simplex_conflicts": s.simplex_conflicts,
        "simplex_int_conflicts": s.simplex_int_conflicts,
        "simplex_branches": s.simplex_branches,
    })
}

pub fn render_json(a: &Answer) -> serde_json::Value {
    let mut model = serde_json::Map::new();
    for (name, v) in &a.values {
        let val = match v {
            Shown::Point(PointValue::Bool(b)) | Shown::Bool(Some(b)) => json!(b),
            Shown::Bool(None) => json!(null),
            Shown::Point(PointValue::Num(q)) => json!(format_rational(q)),
            Shown::Point(PointValue::Fp(bits)) => json!(format!("0x{bits:x}")),
            Shown::Float(f, bits) => json!({
                "format": f.name(),
                "bits": format!("0x{bits:0w$x}", w = f.total_bits() as usize / 4),
                "value": fp_decimal(*f, *bits),
            }),
            Shown::Box(iv) => json!({
                "lo": fmt_f64(iv.lo()), "lo_open": iv.lo_open(),
                "hi": fmt_f64(iv.hi()), "hi_open": iv.hi_open(),
            }),
        };
        model.insert(name.clone(), val);
    }
    let key = if a.verdict == Verdict::Satisfiable && a.proof.is_none() {
        "model"
    } else {
        "box"
    };
    let mut v = json!({
        "result": a.verdict.text(),
        "engine": a.engine,
        "time_s": a.time.as_secs_f64(),
        "stats": stats_json(&a.stats),
    });
    if !a.values.is_empty() {
        v[key] = serde_json::Value::Object(model);
    }
    if let Some(n) = &a.note {
        v["note"] = json!(n);
    }
    if let Some(p) = &a.proof {
        v["proof"] = json!({"kind": p.kind, "text": p.text});
    }
    if let Some(r) = &a.refinement {
        v["refinement"] = json!({ "rounds": r.rounds, "msw": r.msw, "mpr": r.mpr });
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use solver::formula::Domain;

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    #[test]
    fn fp_domains_admit_only_finite_floats_in_range() {
        let f = FpFormat::F64;
        let unit = Domain::closed(q(0), q(1));
        let fp = |x: f64| PointValue::Fp(x.to_bits());
        let s = Sort::Fp(f);
        assert!(in_domain(s, &unit, &fp(0.5)));
        assert!(in_domain(s, &unit, &fp(-0.0)));
        assert!(!in_domain(s, &unit, &fp(f64::NAN)));
        assert!(!in_domain(s, &unit, &fp(f64::INFINITY)));
        assert!(!in_domain(s, &unit, &fp(1.0000000000000002)));
        assert!(in_domain(s, &Domain::unbounded(), &fp(f64::NAN)));
        // a number is not an fp value, and binary32 bits use the low 32 bits only
        assert!(!in_domain(s, &unit, &PointValue::Num(q(0))));
        let s32 = Sort::Fp(FpFormat::F32);
        assert!(!in_domain(s32, &Domain::unbounded(), &fp(1.0)));
        assert!(in_domain(
            s32,
            &Domain::unbounded(),
            &PointValue::Fp(1.0f32.to_bits() as u64)
        ));
        // machine integers stay in their type and are integral
        let i8t = Sort::MachineInt(solver::IntType {
            bits: 8,
            signed: true,
        });
        assert!(in_domain(
            i8t,
            &Domain::unbounded(),
            &PointValue::Num(q(-128))
        ));
        assert!(!in_domain(
            i8t,
            &Domain::unbounded(),
            &PointValue::Num(q(128))
        ));
    }

    #[test]
    fn free_fp_variables_get_a_float_of_their_range() {
        let f = FpFormat::F32;
        let d = Domain::closed(
            Rational::new(1.into(), 10.into()),
            Rational::new(2.into(), 10.into()),
        );
        let Some(PointValue::Fp(bits)) = default_value(Sort::Fp(f), &d) else {
            panic!("no default value");
        };
        let x = f32::from_bits(bits as u32);
        assert!((0.1..=0.2).contains(&x), "{x}");
        assert_eq!(
            default_value(Sort::Fp(f), &Domain::unbounded()),
            Some(PointValue::Fp(0))
        );
    }

    #[test]
    fn fp_values_print_bits_and_shortest_decimal() {
        let f = FpFormat::F64;
        assert_eq!(fp_text(f, 1.0f64.to_bits()), "0x3ff0000000000000 (1)");
        assert_eq!(fp_text(f, 0.1f64.to_bits()), "0x3fb999999999999a (0.1)");
        assert_eq!(fp_text(f, (-0.0f64).to_bits()), "0x8000000000000000 (-0)");
        assert_eq!(fp_text(f, f.nan_bits()), "0x7ff8000000000000 (NaN)");
        assert_eq!(
            fp_text(f, 5e-324f64.to_bits()),
            "0x0000000000000001 (5e-324)"
        );
        assert_eq!(fp_text(f, 1e20f64.to_bits()), "0x4415af1d78b58c40 (1e20)");
        let g = FpFormat::F32;
        assert_eq!(
            fp_text(g, f32::NEG_INFINITY.to_bits() as u64),
            "0xff800000 (-inf)"
        );
        assert_eq!(fp_text(g, 0.1f32.to_bits() as u64), "0x3dcccccd (0.1)");
    }
}
