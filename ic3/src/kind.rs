//! k-induction with simple-path constraints (Sheeran, Singh, Stålmarck, "Checking Safety
//! Properties Using Induction and a SAT-Solver", FMCAD 2000; incremental form of Eén &
//! Sörensson, "Temporal Induction by Incremental SAT Solving", 2003).
//!
//! The idea: the target is unreachable if (base) no run of length `< k` reaches it and (step)
//! no path of `k + 1` pairwise distinct states — not necessarily starting in INIT — avoids the
//! target in its first `k` states and hits it in the last:
//!
//!   step(k) = ¬TARGET(s0) ∧ … ∧ ¬TARGET(sk-1) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk) ∧ TARGET(sk)
//!             ∧ ∧_{i<j≤k} s_i ≠ s_j                               is unsatisfiable.
//!
//! Soundness: a shortest run reaching the target has no repeated state (cutting the loop
//! gives a shorter run; a static variable has one value anyway) and hits the target only at
//! its end, so if it is at least `k` steps long, its last `k + 1` states satisfy step(k).
//! Every state lies in the declared domains, which the step solver's variables carry. Where a
//! formula contains operations with unspecified values, `¬TARGET` is encoded through TARGET's
//! Tseitin roots (`∨ ¬r`), which only weakens the step formula — an UNSAT step stays a proof.
//!
//! "Distinct" over real-valued states means that *some* state variable differs: for a numeric
//! variable an auxiliary `d = x_i − x_j` (an exact linear definition) with the bound literals
//! `d < 0 ∨ d > 0`; for a Boolean a literal `e` with `e → (b_i ∨ b_j)` and `e → ¬(b_i ∧ b_j)`.
//! Static variables are one solver variable along the path and never differ. Sorts the
//! solver does not model yet (IEEE floats, machine integers) get an unconstrained literal,
//! which drops the constraint for them (weaker, still sound).
//!
//! The base case is a BMC unrolling in its own solver ([`crate::bmc`]), so k-induction also
//! finds counterexamples (replayed exactly) and notices when all runs die out.
//!
//! **Relational lemmas** (`--engine kind-rel`, issue #22 item 2). Plain k-induction fails on
//! a loop whose safety rests on a relation (`x = y` at the loop head) for every k: the path
//! may start anywhere. With [`KindConfig::relational`], `rel-inv`'s guesses over the system's
//! linear terms (`x - y <= 0` per Boolean location, [`crate::float_inv`]) are first pruned
//! until the survivors `L` are initiated and inductive relative to `¬TARGET`; then `L` holds at
//! every state of a shortest run to the target, up to and including the target state (each
//! state before it avoids the target, so consecution carries `L` one step further), and
//! every state of the induction path is constrained by it:
//!
//!   L(s0) ∧ … ∧ L(sk) ∧ ¬TARGET(s0) ∧ … ∧ ¬TARGET(sk-1) ∧ T(s0..sk) ∧ TARGET(sk)
//!
//! An UNSAT step k is then the suffix-(k-1) certificate of IC3 (`L` and the length of the
//! path it excludes; [`crate::ic3::certificate`]), checked in fresh solvers — the pruning's
//! claims about `L` included — and printed for the front end to re-check; with simple-path
//! constraints in the step, its suffix condition is over pairwise distinct states. The system is
//! augmented by the term slots as for IC3 `+rel` ([`crate::ic3::terms`]); answers are
//! projected back.

use crate::bmc::{Base, DepthOutcome, Pending};
use crate::certificate::{confirm_runs_end, confirm_step};
use crate::config::{KindConfig, KindLemmas};
use crate::engine::{add_stats, EngineResult, Limits, Log, Validator, Verdict};
use crate::ic3::certificate::{self as cert, Certificate, Lemmas};
use crate::ic3::cube::{Cube, Step};
use crate::ic3::terms;
use crate::ts::TransitionSystem;
use crate::unroll::Unrolling;
use solver::formula::{Domain, Op, Sort};
use solver::lit::Lit;
use solver::solve::Stats;
use solver::{Rational, Rel, SolveResult, Solver, Var};
use std::time::Instant;

const NAME: &str = "kind";
/// the engine's name in answers of k-induction under relational lemmas
const KIND_REL: &str = "kind-rel";

/// Adds `s_i ≠ s_j` (some state variable differs) as one clause.
pub(crate) fn add_distinct(ts: &TransitionSystem, s: &mut Solver, a: &[Var], b: &[Var]) {
    let zero = Rational::from_integer(0.into());
    let mut clause: Vec<Lit> = Vec::new();
    for ((sv, &x), &y) in ts.state.iter().zip(a).zip(b) {
        if sv.is_static || x == y {
            continue;
        }
        match sv.sort {
            Sort::Bool => {
                let (Some(lx), Some(ly)) = (s.bool_lit(x), s.bool_lit(y)) else {
                    continue;
                };
                let e = s.new_activation();
                // e → (x ∨ y), e → (¬x ∨ ¬y): e implies x ≠ y
                s.add_clause(&[!e, lx, ly]);
                s.add_clause(&[!e, !lx, !ly]);
                clause.push(e);
            }
            Sort::Int | Sort::Real => {
                // d = x − y, exactly; d < 0 ∨ d > 0
                let d = s.new_var(sv.sort, &Domain::unbounded());
                let one = Rational::from_integer(1.into());
                s.add_def(
                    d,
                    Op::Linear {
                        coeffs: vec![one.clone(), -one],
                        constant: zero.clone(),
                    },
                    vec![x, y],
                );
                clause.push(s.bound_lit(d, Rel::Lt, &zero));
                clause.push(s.bound_lit(d, Rel::Gt, &zero));
            }
            Sort::Fp(_) | Sort::MachineInt(_) => {
                // not modelled exactly yet: a free literal (the pair may always differ)
                clause.push(s.new_activation());
            }
        }
    }
    s.add_clause(&clause);
}

/// The simple-path constraints of state `j` of `states`: it differs from each earlier one.
pub(crate) fn add_distinct_from_earlier(
    ts: &TransitionSystem,
    s: &mut Solver,
    states: &[Vec<Var>],
    j: usize,
) {
    for i in 0..j {
        add_distinct(ts, s, &states[i], &states[j]);
    }
}

fn safe(k: usize, how: String, stats: Stats) -> EngineResult {
    EngineResult {
        verdict: Verdict::Safe,
        engine: NAME,
        depth: Some(k),
        trace: None,
        boxes: None,
        note: Some(how),
        stats,
        invariant: None,
        extra_stats: Vec::new(),
    }
}

/// Runs k-induction for k = 0, 1, … up to `cfg.max_k`; with `cfg.relational` over the
/// system's linear terms, every state of the induction path under the relational lemmas.
pub fn kind(
    ts: &TransitionSystem,
    cfg: &KindConfig,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    if let Err(e) = cfg.validate().and_then(|_| ts.validate()) {
        return EngineResult::unknown(NAME, e, Stats::default());
    }
    match &cfg.relational {
        None => run(ts, cfg, &[], limits, val, log),
        Some(rel) => relational(ts, cfg, rel, limits, val, log),
    }
}

/// k-induction on `ts` augmented by its linear terms, its induction path under rel-inv's
/// pruned guesses (see the module documentation); plain k-induction when none survives.
fn relational(
    ts: &TransitionSystem,
    cfg: &KindConfig,
    rel: &KindLemmas,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    let plain = KindConfig {
        relational: None,
        ..cfg.clone()
    };
    let chosen = terms::choose(ts, rel.max_terms, true, true);
    let ats = terms::augment(ts, &chosen);
    if let Err(e) = ats.validate() {
        return EngineResult::unknown(NAME, e, Stats::default());
    }
    let solver = terms::solver_for(&cfg.solver, &chosen, &ts.state);
    // at most half of what is left for the pruning: the induction needs the rest
    let budget = limits.deadline.map_or(rel.budget, |d| {
        rel.budget
            .min(d.saturating_duration_since(Instant::now()) / 2)
    });
    let mut pruning = Stats::default();
    let lemmas =
        crate::float_inv::relational_lemmas(&ats, &solver, budget, limits, log, &mut pruning)
            .unwrap_or_else(|why| {
                log(format!("{NAME}: no relational lemmas: {why}"));
                Vec::new()
            });
    let mut r = if lemmas.is_empty() {
        log(format!(
            "{NAME}: no relational lemma survives: plain k-induction"
        ));
        run(ts, &plain, &[], limits, val, log)
    } else {
        let names: Vec<String> = chosen.iter().map(|t| t.text(&ts.state)).collect();
        log(format!(
            "{NAME}: {} relational lemmas over the terms {}",
            lemmas.len(),
            names.join(", ")
        ));
        let tv = terms::TermValidator {
            inner: val,
            state: &ts.state,
            terms: &chosen,
        };
        let on = KindConfig { solver, ..plain };
        terms::project(run(&ats, &on, &lemmas, limits, &tv, log), ts, val)
    };
    add_stats(&mut r.stats, &pruning);
    r.engine = KIND_REL;
    r
}

/// The SAFE answer of a step `k` that is UNSAT under `lemmas`: their certificate with suffix
/// `k - 1` (for k = 0, suffix 0: `L ⇒ ¬TARGET` makes `L` itself inductive), over distinct
/// states when the step had the simple-path constraints, checked in fresh solvers.
fn certified(
    ts: &TransitionSystem,
    cfg: &KindConfig,
    lemmas: &[Cube],
    k: usize,
    limits: &Limits,
    stats: Stats,
) -> EngineResult {
    let suffix = k.saturating_sub(1);
    let distinct = cfg.simple_path && k > 0;
    let rep = match cert::check_path(
        ts,
        &Lemmas::Cubes(lemmas),
        suffix,
        distinct,
        &cfg.solver,
        limits,
    ) {
        Ok(r) => r,
        Err(why) => return EngineResult::unknown(NAME, why, stats),
    };
    let cert = Certificate {
        lemmas: lemmas.to_vec(),
        suffix,
        distinct,
    };
    let how = if k == 0 {
        format!(
            "the {} relational lemmas exclude the target: an inductive invariant (certificate \
             re-checked: {} fresh solvers, {} UNSAT queries)",
            lemmas.len(),
            rep.solvers,
            rep.queries
        )
    } else {
        format!(
            "k-induction with k = {k} under {} relational lemmas: no run of length < {k} \
             reaches the target and no {}-state {}path in the lemmas avoiding it ends in it \
             (certificate re-checked: {} fresh solvers, {} UNSAT queries)",
            lemmas.len(),
            k + 1,
            if distinct { "simple " } else { "" },
            rep.solvers,
            rep.queries
        )
    };
    EngineResult {
        invariant: Some(cert.invariant(ts)),
        ..safe(k, how, stats)
    }
}

/// k-induction on `ts`, every state of the induction path under `lemmas` (none: plain).
fn run(
    ts: &TransitionSystem,
    cfg: &KindConfig,
    lemmas: &[Cube],
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    let mut base = match Base::new(ts, &cfg.solver, limits, NAME) {
        Ok(b) => b,
        Err(e) => return EngineResult::unknown(NAME, e, Stats::default()),
    };
    let mut step = match Solver::new(cfg.solver.clone()) {
        Ok(s) => s,
        Err(e) => return EngineResult::unknown(NAME, e, Stats::default()),
    };
    limits.arm(&mut step);
    let mut su = Unrolling::new(ts, &mut step);
    // L(s_i) for each state of the induction path, as it is created
    let assume_lemmas = |step: &mut Solver, vars: &[solver::Var]| {
        let at = Step::new(step, vars.to_vec());
        for c in lemmas {
            let clause = at.clause(step, c);
            step.add_clause(&clause);
        }
    };
    assume_lemmas(&mut step, &su.states[0]);
    let stats = |base: &Base, step: &Solver| {
        let mut st = *base.s.stats();
        add_stats(&mut st, step.stats());
        st
    };
    // TARGET's roots at the last step of the induction path (to be negated once it is not
    // the last any more)
    let mut last_roots: Vec<Lit> = Vec::new();
    let mut k = 0usize;
    // a base case that gave a candidate: no step can prove SAFE any more (its depth is not
    // refuted), so from then on only the base case runs, as BMC ([`Pending`])
    let mut pending = Pending::default();
    loop {
        if let Some(why) = limits.hit() {
            return pending.answer(
                k.saturating_sub(1),
                why,
                EngineResult::unknown(NAME, format!("{why} at k = {k}"), stats(&base, &step)),
            );
        }
        // (skipped once a base case gave a candidate: see `pending`)
        if !pending.is_some() {
            // ---- induction step of length k (the base cases 0 .. k-1 are refuted)
            if k > 0 {
                // ¬TARGET(s_{k-1}) from now on: ∨ ¬r over its roots
                let neg: Vec<Lit> = last_roots.iter().map(|&r| !r).collect();
                step.add_clause(&neg);
                if let Err(e) = su.push_step(&mut step) {
                    return EngineResult::unknown(NAME, e, stats(&base, &step));
                }
                assume_lemmas(&mut step, &su.states[k]);
                if cfg.simple_path {
                    add_distinct_from_earlier(ts, &mut step, &su.states, k);
                }
            }
            let t0 = Instant::now();
            let act = step.new_activation();
            last_roots = match su.target_at(&mut step, k) {
                Ok(r) => r,
                Err(e) => return EngineResult::unknown(NAME, e, stats(&base, &step)),
            };
            for &r in &last_roots {
                step.add_clause_under(act, &[r]);
            }
            // ¬TARGET(s0) ∧ … ∧ ¬TARGET(sk-1) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk) ∧ TARGET(sk)
            //   ∧ ∧_{i<j≤k} s_i ≠ s_j
            let r = step.solve(&[act]);
            let secs = t0.elapsed().as_secs_f64();
            match r {
                SolveResult::Unsat => {
                    log(format!(
                        "{NAME}: step {k} is UNSATISFIABLE ({secs:.6} s): {k}-inductive"
                    ));
                    if !lemmas.is_empty() {
                        return certified(ts, cfg, lemmas, k, limits, stats(&base, &step));
                    }
                    if let Err(e) = confirm_step(ts, k, cfg.simple_path, &cfg.solver, limits) {
                        return EngineResult::unknown(NAME, e, stats(&base, &step));
                    }
                    let how = if k == 0 {
                        "no state in the declared ranges satisfies TARGET (k-induction with k = 0; \
                         re-checked in a fresh solver)"
                            .to_string()
                    } else {
                        format!(
                            "k-induction with k = {k}: no run of length < {k} reaches the target \
                             and no {}-state simple path avoiding it ends in it (re-checked in a \
                             fresh solver)",
                            k + 1
                        )
                    };
                    return safe(k, how, stats(&base, &step));
                }
                SolveResult::Sat(_) => {
                    log(format!("{NAME}: step {k} is SATISFIABLE ({secs:.6} s)"));
                }
                SolveResult::Candidate(_) => {
                    // over the reals a candidate step is often an artefact of ICP (e.g. x_i ≠ x_j
                    // with x_i = x_j through another auxiliary); it is not a refutation either way
                    log(format!(
                        "{NAME}: step {k} is a CANDIDATE SOLUTION, not refuted ({secs:.6} s)"
                    ));
                }
                SolveResult::Unknown(why) => {
                    if let Some(stop) = limits.hit() {
                        return EngineResult::unknown(
                            NAME,
                            format!("{stop} at k = {k}"),
                            stats(&base, &step),
                        );
                    }
                    // an unsupported construct: the step cannot be refuted, the base case goes on
                    log(format!("{NAME}: step {k} is UNKNOWN ({why})"));
                }
            }
            step.release(act);
        }
        // ---- base case k: I(s0) ∧ T(s0,s1) ∧ … ∧ TARGET(sk)
        if k > 0 {
            if let Err(e) = base.push_step() {
                let u = EngineResult::unknown(NAME, e.clone(), stats(&base, &step));
                return pending.answer(k - 1, &e, u);
            }
        }
        match base.check(val, limits, log) {
            DepthOutcome::NoCex => {}
            DepthOutcome::Candidate(r) => {
                log(format!("{NAME}: depth {k}: candidate kept, going on"));
                pending.record(k, *r);
            }
            DepthOutcome::RunsEnd if pending.is_some() => {
                return pending.answer(
                    k,
                    "no run of this length exists",
                    EngineResult::unknown(NAME, "", stats(&base, &step)),
                );
            }
            DepthOutcome::RunsEnd => {
                if let Err(e) = confirm_runs_end(ts, k, &cfg.solver, limits) {
                    return EngineResult::unknown(NAME, e, stats(&base, &step));
                }
                return safe(
                    k,
                    format!("no run of length {k} exists, and no shorter run reaches the target"),
                    stats(&base, &step),
                );
            }
            DepthOutcome::Answer(mut r) => {
                r.stats = stats(&base, &step);
                if r.verdict == Verdict::Unsafe {
                    return *r;
                }
                let why = r.note.clone().unwrap_or_default();
                return pending.answer(k.saturating_sub(1), &why, *r);
            }
        }
        if pending.lookahead_done(k, limits, cfg.max_k) {
            return pending.answer(
                k,
                "no time or depth limit given: the search stops this many depths past the \
                 first candidate",
                EngineResult::unknown(NAME, "", stats(&base, &step)),
            );
        }
        if cfg.max_k == Some(k) {
            if pending.is_some() {
                return pending.answer(
                    k,
                    "the --max-depth limit",
                    EngineResult::unknown(NAME, "", stats(&base, &step)),
                );
            }
            return EngineResult {
                depth: Some(k),
                ..EngineResult::unknown(
                    NAME,
                    format!("not {k}-inductive and no counterexample up to depth {k} (the --max-depth limit)"),
                    stats(&base, &step),
                )
            };
        }
        k += 1;
    }
}
