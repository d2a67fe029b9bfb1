//! IC3 as in iSAT3+IC3 (paper `isat3-ic3-stronger-generalization`, §2.2 and §2.4): interval
//! IC3 whose cubes are conjunctions of simple bound literals, with literal rotation and bound
//! generalization (§2.4.1–2), ungeneralization (§2.4.3), GENERALIZE (§2.4.4), GeNTR for proof
//! obligations (§2.4.5) and the k-induction suffix with `+abort` (§2.4.6).
//!
//! The idea: frames `F_0 = I, F_1, …, F_k` over-approximate the states reachable in up to `i`
//! steps, each `F_i (i ≥ 1)` inside `¬TARGET`. The bad-state query on `F_k` (with the `indK`
//! suffix, [`suffix`]) yields proof obligations; [`block`] refutes them, learning lemmas
//! (negated generalized cubes, [`generalize`]), or follows predecessors back to `I` — a
//! counterexample, which is replayed exactly. When `F_k` has no bad state, `F_k+1` is opened
//! and lemmas are propagated ([`propagate`]); a frame equal to its successor is an inductive
//! invariant, which [`certificate`] re-checks in fresh solvers before SAFE is reported.
//!
//! Phases live in their own files, named after the paper: `block` (DFS), `generalize`
//! (ANALYZE, GENERALIZE, ungeneralization), `ctg` (§3: inductive generalization, Down(),
//! CTGs, EXCTG), `dynamic` (DynAMic's choice of effort), `cache` (generalization
//! contexts), `lift` (GeNTR, and lifting for CTGs), `propagate` (PUSH), `suffix` (the
//! bad-state query and `+abort`), `certificate`. [`cube`] and [`frames`] are the data.
//! The solver knows nothing of IC3: everything goes through assumptions, failed assumptions
//! and activation literals.

pub mod block;
pub mod bound_text;
pub mod cache;
pub mod certificate;
pub mod ctg;
pub mod cube;
pub mod dynamic;
pub mod frames;
pub mod generalize;
pub mod lift;
pub mod propagate;
pub mod stats;
pub mod suffix;
pub mod terms;

use crate::bmc::{Base, DepthOutcome};
use crate::certificate::confirm_runs_end;
use crate::config::{Ic3Config, MAX_SUFFIX};
use crate::engine::{add_stats, EngineResult, Limits, Log, Validator, Verdict};
use crate::replay::trace_ok;
use crate::ts::TransitionSystem;
use block::Obligation;
use cache::GenCache;
use certificate::Certificate;
use cube::{CLit, Cube};
use dynamic::Effort;
use frames::Frames;
use generalize::InitSolver;
use lift::LiftSolver;
use solver::solve::Stats;
use solver::Value;
use stats::Ic3Stats;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

const NAME: &str = "ic3";

/// Obligations at one frontier before the first BMC probe; the gap doubles after each probe
/// (see [`block`]).
pub const PROBE_FIRST: u64 = 200;

/// Why a run stops before an answer of its own.
pub(crate) enum Stop {
    /// a limit, an interrupt, an unsupported construct
    Unknown(String),
    /// `+abort`: too many obligations without progress
    Abort,
    /// the frontier is stuck: check deeper runs by BMC, then resume
    Probe,
    /// a final answer (a counterexample, or a candidate)
    Answer(Box<EngineResult>),
}

/// One IC3 run with a fixed suffix length.
pub struct Ic3<'a> {
    ts: &'a TransitionSystem,
    cfg: Ic3Config,
    limits: &'a Limits,
    val: &'a dyn Validator,
    log: &'a Log,
    frames: Frames,
    init: InitSolver,
    lift: LiftSolver,
    obligations: Vec<Obligation>,
    /// (level, depth, cube size, index)
    queue: BinaryHeap<Reverse<(usize, usize, usize, usize)>>,
    /// obligations handled since the frontier last moved (`+abort`)
    since_progress: u64,
    /// `since_progress` at which the next BMC probe is due
    next_probe: u64,
    rng: u64,
    /// the effort of the generalization in progress (fixed, or DynAMic's per cube)
    effort: Effort,
    /// `+cache`: earlier generalizations and the frames they held against
    cache: GenCache,
    /// the first state slot that is a linear term (`+rel`, [`terms`]); the state's length
    /// without terms
    first_term: usize,
    pub stats: Ic3Stats,
}

impl<'a> Ic3<'a> {
    fn new(
        ts: &'a TransitionSystem,
        cfg: Ic3Config,
        limits: &'a Limits,
        val: &'a dyn Validator,
        log: &'a Log,
        first_term: usize,
    ) -> Result<Ic3<'a>, String> {
        let mut frames = Frames::new(ts, cfg.frames, cfg.suffix, &cfg.solver, limits)?;
        frames.track_levels = cfg.cache;
        let init = InitSolver::new(ts, &cfg.solver, limits)?;
        let lift = LiftSolver::new(ts, &cfg.solver, limits)?;
        let effort = Effort::fixed(&cfg);
        let cache = GenCache::new(cfg.cache_size);
        let rng = cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let stats = Ic3Stats {
            suffix: cfg.suffix,
            ..Ic3Stats::default()
        };
        Ok(Ic3 {
            ts,
            cfg,
            limits,
            val,
            log,
            frames,
            init,
            lift,
            obligations: Vec::new(),
            queue: BinaryHeap::new(),
            since_progress: 0,
            next_probe: PROBE_FIRST,
            rng,
            effort,
            cache,
            first_term,
            stats,
        })
    }

    /// The cube's literals in a pseudo-random order (§2.4.1: rotation starts from a shuffled
    /// order; xorshift, reproducible from the seed).
    /// With `+rel`, term literals come first: the solver applies assumptions in order, a
    /// term literal then implies the box literals after it, and the failed set — the cube
    /// the generalization starts from — is made of term bounds where they suffice.
    pub(crate) fn shuffled(&mut self, c: &Cube) -> Vec<CLit> {
        let mut v = c.0.clone();
        for i in (1..v.len()).rev() {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            let j = (self.rng % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
        let first_term = self.first_term;
        v.sort_by_key(|l| l.var() < first_term);
        v
    }

    /// The order in which literals are tried for dropping: shuffled, box literals first,
    /// so that with `+rel` a relational literal is the last to go.
    pub(crate) fn drop_order(&mut self, c: &Cube) -> Vec<CLit> {
        let mut v = self.shuffled(c);
        let first_term = self.first_term;
        v.sort_by_key(|l| l.var() >= first_term);
        v
    }

    /// Solver counters of all of this run's solvers.
    fn solver_stats(&self) -> Stats {
        let mut st = self.frames.stats();
        add_stats(&mut st, self.init.s.stats());
        add_stats(&mut st, self.lift.s.stats());
        st
    }

    /// The main loop (§2.2 MAIN): block every bad state of the frontier, open the next frame,
    /// propagate; a fixpoint is an invariant.
    fn run(&mut self) -> Result<EngineResult, Stop> {
        loop {
            let k = self.frames.top();
            if self.cfg.max_frames.is_some_and(|m| k > m) {
                return Err(Stop::Unknown(format!(
                    "no invariant and no counterexample up to frame {} (the --max-depth limit)",
                    k - 1
                )));
            }
            while self.bad_state(k)? {
                self.block()?;
            }
            self.frames.push_frame(self.ts).map_err(Stop::Unknown)?;
            self.since_progress = 0;
            self.next_probe = PROBE_FIRST;
            let fix = self.propagate()?;
            (self.log)(format!(
                "{NAME}: frame {k} blocked; lemmas per frame {:?} + {} in F_inf; {} obligations, {} solver calls",
                self.frames.lemmas[1..].iter().map(|l| l.len()).collect::<Vec<_>>(),
                self.frames.inf.len(),
                self.stats.obligations,
                self.stats.solver_calls
            ));
            if let Some(j) = fix {
                return self.safe(j);
            }
        }
    }

    /// `F_j = F_j+1`: the lemmas from level `j + 1` up form the invariant; re-checked from
    /// scratch before SAFE is reported.
    fn safe(&mut self, j: usize) -> Result<EngineResult, Stop> {
        let cert = Certificate {
            lemmas: self.frames.lemmas_from(j + 1),
            suffix: self.cfg.suffix,
            distinct: false,
        };
        let rep = certificate::check(
            self.ts,
            &certificate::Lemmas::Cubes(&cert.lemmas),
            cert.suffix,
            &self.cfg.solver,
            self.limits,
        )
        .map_err(Stop::Unknown)?;
        (self.log)(format!(
            "{NAME}: F_{j} = F_{}: invariant of {} lemmas, certificate checked ({} fresh solvers, {} queries)",
            j + 1,
            cert.lemmas.len(),
            rep.solvers,
            rep.queries
        ));
        self.finish_stats();
        let mut r = EngineResult {
            verdict: Verdict::Safe,
            engine: NAME,
            depth: Some(j),
            trace: None,
            boxes: None,
            note: Some(format!(
                "IC3 ({}): F_{j} = F_{} is an inductive invariant of {} lemmas{} (certificate \
                 re-checked in {} fresh solvers)",
                self.cfg.name(),
                j + 1,
                cert.lemmas.len(),
                if cert.suffix > 0 {
                    format!(
                        " that admits no {}-step path to the target",
                        cert.suffix + 1
                    )
                } else {
                    String::new()
                },
                rep.solvers
            )),
            stats: self.solver_stats(),
            invariant: Some(cert.invariant(self.ts)),
            extra_stats: Vec::new(),
        };
        r.extra_stats = self.stats.fields();
        Ok(r)
    }

    fn finish_stats(&mut self) {
        let mut per: Vec<usize> = self.frames.lemmas.iter().map(|l| l.len()).collect();
        per.push(self.frames.inf.len());
        self.stats.lemmas_per_frame = per;
        self.stats.frames = self.frames.top();
    }

    /// The chain of obligations from `idx` to the target as a run of states, starting at
    /// `start` (a state of `I` inside the first cube); validated exactly, or decided by an
    /// exact BMC unrolling of the chain's length when the chain is not a validated run.
    pub(crate) fn counterexample(&mut self, idx: usize, start: Option<Vec<Value>>) -> Stop {
        let mut trace: Vec<Vec<Value>> = start.into_iter().collect();
        let mut obs = 0usize;
        let mut cur = Some(idx);
        while let Some(i) = cur {
            obs += 1;
            trace.extend(self.obligations[i].to.iter().cloned());
            cur = self.obligations[i].next;
        }
        let length = obs + self.cfg.suffix;
        if trace.len() == length + 1 && trace_ok(self.ts, self.val, &trace) {
            (self.log)(format!(
                "{NAME}: counterexample of length {length}, replayed exactly"
            ));
            self.finish_stats();
            return Stop::Answer(Box::new(EngineResult {
                verdict: Verdict::Unsafe,
                engine: NAME,
                depth: Some(length),
                trace: Some(trace),
                boxes: None,
                note: None,
                stats: self.solver_stats(),
                invariant: None,
                extra_stats: self.stats.fields(),
            }));
        }
        (self.log)(format!(
            "{NAME}: an obligation chain of length {length} meets I but is not a validated run; \
             deciding that length by exact BMC"
        ));
        match bmc_at(self.ts, length, &self.cfg, self.limits, self.val, self.log) {
            Ok(Some(mut r)) => {
                self.finish_stats();
                r.engine = NAME;
                r.extra_stats = self.stats.fields();
                Stop::Answer(r)
            }
            Ok(None) => Stop::Unknown(format!(
                "IC3 found a chain of boxes of length {length} from I to the target that the \
                 exact unrolling refutes (interval over-approximation)"
            )),
            Err(e) => Stop::Unknown(e),
        }
    }
}

/// BMC at exactly depth `n`: `Some(answer)` for UNSAFE (replayed), CANDIDATE or UNKNOWN;
/// `None` when no run of length `n` reaches the target.
fn bmc_at(
    ts: &TransitionSystem,
    n: usize,
    cfg: &Ic3Config,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> Result<Option<Box<EngineResult>>, String> {
    let mut b = Base::new(ts, &cfg.solver, limits, NAME)?;
    for _ in 0..n {
        b.push_step()?;
    }
    match b.check(val, limits, log) {
        DepthOutcome::NoCex | DepthOutcome::RunsEnd => Ok(None),
        DepthOutcome::Answer(r) | DepthOutcome::Candidate(r) => Ok(Some(r)),
    }
}

/// Runs IC3 (see the module documentation); with `+rel` on the system augmented by its
/// linear terms ([`terms`]), the answer projected back onto the original state.
pub fn ic3(
    ts: &TransitionSystem,
    cfg: &Ic3Config,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    if let Err(e) = cfg.validate().and_then(|_| ts.validate()) {
        return EngineResult::unknown(NAME, e, Stats::default());
    }
    if !cfg.relational {
        return ic3_on(ts, cfg, limits, val, log, ts.state.len(), &mut Vec::new());
    }
    // float terms only with the simplex: their consecution rests on its rounded rows
    let simplex = cfg.solver.linear == solver::LinearReasoning::Simplex;
    let chosen = terms::choose(ts, cfg.max_terms, simplex, simplex);
    if chosen.is_empty() {
        log(format!(
            "{NAME}: +rel: no linear terms over state variables with bounded ranges; box cubes only"
        ));
        return ic3_on(ts, cfg, limits, val, log, ts.state.len(), &mut Vec::new());
    }
    if !cfg.farkas {
        return relational_on(ts, cfg, &chosen, limits, val, log, &mut Vec::new());
    }
    // +farkas: half the time with the chosen terms, recording the frame solvers' simplex
    // conflicts; then the rest with their state parts added as terms
    // (without a time limit: the first FARKAS_ROUND)
    let now = Instant::now();
    let first = limits
        .deadline
        .map_or(FARKAS_ROUND, |d| d.saturating_duration_since(now) / 2);
    let half = Limits {
        deadline: Some(now + first),
        ..limits.clone()
    };
    let recording = Ic3Config {
        solver: solver::SolverConfig {
            record_farkas: true,
            ..cfg.solver.clone()
        },
        ..cfg.clone()
    };
    let mut mined = Vec::new();
    let r = relational_on(ts, &recording, &chosen, &half, val, log, &mut mined);
    if r.verdict != Verdict::Unknown || limits.hit().is_some() {
        return r;
    }
    let new = terms::mined(&ts.state, &chosen, &mined, terms::MAX_MINED);
    log(format!(
        "{NAME}: +farkas: {} conflict combinations, {} new terms: {}",
        mined.len(),
        new.len(),
        new.iter()
            .map(|t| t.text(&ts.state))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut all = chosen;
    all.extend(new);
    relational_on(ts, cfg, &all, limits, val, log, &mut Vec::new())
}

/// `+farkas`'s first round when the run has no time limit.
const FARKAS_ROUND: std::time::Duration = std::time::Duration::from_secs(5);

/// IC3 over `ts` augmented by `chosen` (see [`terms`]), its answer projected back to `ts`.
fn relational_on(
    ts: &TransitionSystem,
    cfg: &Ic3Config,
    chosen: &[terms::LinearTerm],
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
    mined: &mut Vec<Vec<(usize, solver::Rational)>>,
) -> EngineResult {
    let names: Vec<String> = chosen.iter().map(|t| t.text(&ts.state)).collect();
    log(format!("{NAME}: +rel: terms {}", names.join(", ")));
    let ats = terms::augment(ts, chosen);
    if let Err(e) = ats.validate() {
        return EngineResult::unknown(NAME, format!("+rel: {e}"), Stats::default());
    }
    let tv = terms::TermValidator {
        inner: val,
        state: &ts.state,
        terms: chosen,
    };
    let cfg = Ic3Config {
        solver: terms::solver_for(&cfg.solver, chosen, &ts.state),
        ..cfg.clone()
    };
    let r = ic3_on(&ats, &cfg, limits, &tv, log, ts.state.len(), mined);
    terms::project(r, ts, val)
}

/// IC3 on `ts` as given; its slots from `first_term` on are linear terms.
fn ic3_on(
    ts: &TransitionSystem,
    cfg: &Ic3Config,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
    first_term: usize,
    mined: &mut Vec<Vec<(usize, solver::Rational)>>,
) -> EngineResult {
    let t0 = Instant::now();
    let mut acc = Ic3Stats::default();
    let mut solver_stats = Stats::default();
    let mut cfg = cfg.clone();
    // the base case: no run of length 0 … K+1 reaches the target (§2.2: I ∧ ¬P and
    // I ∧ T ∧ ¬P' before IC3 starts; with the suffix, up to K+1)
    let mut base = match Base::new(ts, &cfg.solver, limits, NAME) {
        Ok(b) => b,
        Err(e) => return EngineResult::unknown(NAME, e, Stats::default()),
    };
    let mut base_depth = 0usize; // the next depth to check
    let cfg_solver = cfg.solver.clone();
    let with = |mut r: EngineResult, acc: &Ic3Stats, ss: &Stats, base: &Base| {
        add_stats(&mut r.stats, ss);
        add_stats(&mut r.stats, base.s.stats());
        if !r.extra_stats.is_empty() || r.verdict != Verdict::Unknown {
            let mut st = acc.clone();
            st.total_time = t0.elapsed();
            if r.extra_stats.is_empty() {
                r.extra_stats = st.fields();
            }
        }
        r
    };
    // checks the depths `base_depth ..= upto`: `Some(answer)` on a counterexample, a
    // candidate, an unknown depth, or when all runs end
    // (`probe`: a candidate or unknown depth ends the probe, not the run)
    // a depth the probe left unrefuted (a candidate or unknown): from then on the base case
    // can no longer answer SAFE when all runs end
    let unrefuted = std::cell::Cell::new(false);
    let extend = |base: &mut Base, base_depth: &mut usize, upto: usize, probe: bool| {
        while *base_depth <= upto {
            if let Some(why) = limits.hit() {
                return Some(EngineResult::unknown(
                    NAME,
                    format!("{why} in the base case at depth {base_depth}"),
                    Stats::default(),
                ));
            }
            if *base_depth > 0 {
                if let Err(e) = base.push_step() {
                    return Some(EngineResult::unknown(NAME, e, Stats::default()));
                }
            }
            match base.check(val, limits, log) {
                DepthOutcome::NoCex => {}
                DepthOutcome::RunsEnd if unrefuted.get() => {
                    // IC3 alone can still answer (its certificate does not rest on this)
                    log(format!(
                        "{NAME}: no run of length {base_depth} exists, but a shorter depth \
                         is unrefuted"
                    ));
                    return None;
                }
                DepthOutcome::RunsEnd => {
                    if let Err(e) = confirm_runs_end(ts, *base_depth, &cfg_solver, limits) {
                        return Some(EngineResult::unknown(NAME, e, Stats::default()));
                    }
                    return Some(EngineResult {
                        verdict: Verdict::Safe,
                        engine: NAME,
                        depth: Some(*base_depth),
                        trace: None,
                        boxes: None,
                        note: Some(format!(
                            "no run of length {base_depth} exists, and no shorter run reaches the target"
                        )),
                        stats: Stats::default(),
                        invariant: None,
                        extra_stats: Vec::new(),
                    });
                }
                DepthOutcome::Answer(r) | DepthOutcome::Candidate(r)
                    if probe && r.verdict != Verdict::Unsafe =>
                {
                    // the depth stays unrefuted (the unrolling has reached it, so the count
                    // moves on); IC3 goes on
                    log(format!(
                        "{NAME}: BMC probe stopped at depth {base_depth}: {}",
                        r.verdict.text()
                    ));
                    unrefuted.set(true);
                    *base_depth += 1;
                    return None;
                }
                DepthOutcome::Answer(mut r) | DepthOutcome::Candidate(mut r) => {
                    r.engine = NAME;
                    r.stats = Stats::default();
                    return Some(*r);
                }
            }
            *base_depth += 1;
        }
        None::<EngineResult>
    };
    loop {
        if let Some(r) = extend(&mut base, &mut base_depth, cfg.suffix + 1, false) {
            return with(r, &acc, &solver_stats, &base);
        }
        let mut run = match Ic3::new(ts, cfg.clone(), limits, val, log, first_term) {
            Ok(r) => r,
            Err(e) => return EngineResult::unknown(NAME, e, solver_stats),
        };
        let out = loop {
            match run.run() {
                Err(Stop::Probe) => {
                    // the frontier is stuck: a counterexample just beyond it is often
                    // quicker to find by unrolling (see `block`)
                    let upto = run.frames.top() + run.cfg.suffix + 1;
                    log(format!(
                        "{NAME}: {} obligations at frame {}: BMC probe up to depth {upto}",
                        run.since_progress,
                        run.frames.top()
                    ));
                    if let Some(mut r) = extend(&mut base, &mut base_depth, upto, true) {
                        add_stats(&mut solver_stats, &run.solver_stats());
                        mined.extend(run.frames.take_farkas());
                        run.stats.absorb(&acc);
                        run.stats.total_time = t0.elapsed();
                        run.finish_stats();
                        r.extra_stats = run.stats.fields();
                        return with(r, &acc, &solver_stats, &base);
                    }
                }
                other => break other,
            }
        };
        add_stats(&mut solver_stats, &run.solver_stats());
        mined.extend(run.frames.take_farkas());
        run.stats.absorb(&acc);
        run.stats.aborts = acc.aborts;
        run.stats.total_time = t0.elapsed();
        run.finish_stats();
        let fields = run.stats.fields();
        match out {
            Ok(mut r) => {
                r.extra_stats = fields;
                r.stats = Stats::default();
                return with(r, &acc, &solver_stats, &base);
            }
            Err(Stop::Answer(mut r)) => {
                r.extra_stats = fields;
                r.stats = Stats::default();
                return with(*r, &acc, &solver_stats, &base);
            }
            Err(Stop::Unknown(why)) => {
                let mut r = EngineResult::unknown(NAME, why, Stats::default());
                r.extra_stats = fields;
                return with(r, &acc, &solver_stats, &base);
            }
            Err(Stop::Probe) => unreachable!("handled above"),
            Err(Stop::Abort) => {
                acc = run.stats.clone();
                acc.aborts += 1;
                let next = (cfg.suffix + 1).max(run.frames.top()).min(MAX_SUFFIX);
                log(format!(
                    "{NAME}: +abort after {} obligations at frame {}: restarting with suffix {next}",
                    cfg.abort_limit,
                    run.frames.top()
                ));
                cfg.suffix = next;
                if next == MAX_SUFFIX {
                    cfg.abort = false;
                }
            }
        }
    }
}
