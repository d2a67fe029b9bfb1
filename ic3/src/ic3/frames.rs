//! The frames `F_0 = I, F_1, …, F_k, F_∞` and the solvers that answer queries on them (paper
//! §2.2; delta encoding and the infinity frame as in Eén, Mishchenko, Brayton, "Efficient
//! implementation of property directed reachability", FMCAD 2011).
//!
//! The idea: a lemma `¬c` learned at level `j` holds in every `F_i` with `1 ≤ i ≤ j`, so it is
//! stored once, at `j` (`lemmas[j]`); `F_∞` holds the lemmas that are inductive on their own.
//! Every frame solver holds `T(s0, s1)` once, `I(s0)` and `¬TARGET(s0)` behind activation
//! literals (a query on `F_0` assumes the first, on `F_i`, `i ≥ 1`, the second: `F_i ⊆ P`), and
//! the lemmas according to [`FrameMode`]: in one solver under one activation literal per level
//! (a query on `F_i` assumes `a_i … a_k`), or in one solver per level as plain clauses. The
//! bad-state query with the `indK` suffix has a solver of its own ([`BadSolver`]) in which the
//! whole path is asserted and the lemmas sit behind per-level activation literals.
//!
//! `¬TARGET` is TARGET's roots negated (`∨ ¬r`). Where TARGET has operations with unspecified
//! values this is weaker than `¬TARGET` (more states), which only weakens `F_i`: an UNSAT
//! answer stays a proof, and the certificate check repeats every step in fresh solvers.

use super::cube::{CLit, Cube, Step};
use crate::config::FrameMode;
use crate::engine::Limits;
use crate::ts::TransitionSystem;
use crate::unroll::Unrolling;
use solver::interval::Interval;
use solver::lit::Lit;
use solver::solve::{Roots, Stats};
use solver::{SolveResult, Solver, SolverConfig, Var};
use std::collections::HashMap;

/// A lemma level: `Level(j)` for `F_j`, or the infinity frame.
pub const INF: usize = usize::MAX;

/// One solver holding `T(s0, s1)`.
pub struct FrameSolver {
    pub s: Solver,
    pub cur: Step,
    pub next: Step,
    act_init: Lit,
    act_nt: Lit,
}

/// The solver of the bad-state query: `¬TG(s0) ∧ T(s0,s1) ∧ ¬TG(s1) ∧ … ∧ T(sK,sK+1) ∧
/// TG(sK+1)` asserted outright (so that level-0 reasoning such as congruence of IEEE
/// identities sees the whole path), and every lemma behind its level's activation literal.
pub struct BadSolver {
    pub s: Solver,
    /// `s0 … sK+1`
    pub steps: Vec<Step>,
    acts: Vec<Lit>,
}

impl BadSolver {
    fn new(
        ts: &TransitionSystem,
        k: usize,
        config: &SolverConfig,
        limits: &Limits,
    ) -> Result<BadSolver, String> {
        let mut s = limits.solver(config)?;
        let mut u = Unrolling::new(ts, &mut s);
        for j in 0..=k {
            // ¬TG(s_j) ∧ T(s_j, s_j+1)
            let neg: Vec<Lit> = u.target_at(&mut s, j)?.iter().map(|&r| !r).collect();
            s.add_clause(&neg);
            u.push_step(&mut s)?;
        }
        for r in u.target_at(&mut s, k + 1)? {
            s.add_clause(&[r]);
        }
        let steps = u.states.iter().map(|v| Step::new(&s, v.clone())).collect();
        let dummy = s.true_lit();
        Ok(BadSolver {
            s,
            steps,
            acts: vec![dummy],
        })
    }
}

/// Fresh solver variables for one copy of the state, in the declared domains.
pub fn new_state(ts: &TransitionSystem, s: &mut Solver) -> Vec<Var> {
    ts.state
        .iter()
        .map(|v| s.new_var(v.sort, &v.domain))
        .collect()
}

fn bind(formula_vars: &[Var], solver_vars: &[Var]) -> Vec<(Var, Var)> {
    formula_vars
        .iter()
        .zip(solver_vars)
        .map(|(&f, &v)| (f, v))
        .collect()
}

/// Instantiates TRANS between two steps; returns its roots (asserted with `Roots::Assert`).
pub fn add_trans(
    ts: &TransitionSystem,
    s: &mut Solver,
    a: &[Var],
    b: &[Var],
    roots: Roots,
) -> Result<Vec<Lit>, String> {
    let mut bd = bind(&ts.trans_current, a);
    bd.extend(bind(&ts.trans_next, b));
    Ok(s.add_formula_with(&ts.trans, &bd, roots)?.roots)
}

/// Instantiates INIT at a step, roots left to the caller.
pub fn init_roots(ts: &TransitionSystem, s: &mut Solver, a: &[Var]) -> Result<Vec<Lit>, String> {
    Ok(
        s.add_formula_with(&ts.init, &bind(&ts.init_vars, a), Roots::Leave)?
            .roots,
    )
}

/// Instantiates TARGET at a step, roots left to the caller.
pub fn target_roots(ts: &TransitionSystem, s: &mut Solver, a: &[Var]) -> Result<Vec<Lit>, String> {
    Ok(
        s.add_formula_with(&ts.target, &bind(&ts.target_vars, a), Roots::Leave)?
            .roots,
    )
}

impl FrameSolver {
    fn new(
        ts: &TransitionSystem,
        config: &SolverConfig,
        limits: &Limits,
    ) -> Result<FrameSolver, String> {
        let mut s = limits.solver(config)?;
        let s0 = new_state(ts, &mut s);
        let s1 = new_state(ts, &mut s);
        add_trans(ts, &mut s, &s0, &s1, Roots::Assert)?;
        let act_init = s.new_activation();
        for r in init_roots(ts, &mut s, &s0)? {
            s.add_clause_under(act_init, &[r]);
        }
        let act_nt = s.new_activation();
        let neg: Vec<Lit> = target_roots(ts, &mut s, &s0)?.iter().map(|&r| !r).collect();
        s.add_clause_under(act_nt, &neg);
        let cur = Step::new(&s, s0);
        let next = Step::new(&s, s1);
        Ok(FrameSolver {
            s,
            cur,
            next,
            act_init,
            act_nt,
        })
    }
}

/// Adds the lemma `¬c` over `step` to `s`, behind `act` if given.
fn add_clause_at(s: &mut Solver, step: &Step, c: &Cube, act: Option<Lit>) {
    let lits = step.clause(s, c);
    match act {
        Some(a) => s.add_clause_under(a, &lits),
        None => s.add_clause(&lits),
    };
}

/// The frames and their solvers.
pub struct Frames {
    mode: FrameMode,
    solvers: Vec<FrameSolver>,
    pub bad: BadSolver,
    /// `FrameMode::Single`: the activation literal of each level (index 0 unused)
    acts: Vec<Lit>,
    /// `lemmas[j]`: the cubes blocked at exactly level `j` (index 0 unused)
    pub lemmas: Vec<Vec<Cube>>,
    /// the cubes blocked in `F_∞`
    pub inf: Vec<Cube>,
    /// for the generalization cache: an id per distinct lemma cube, and the highest level
    /// each has reached (a lemma removed by subsumption keeps its last level, which
    /// under-estimates where its states stay blocked: the subsuming lemma sits at least as
    /// high)
    lemma_ids: HashMap<Cube, u32>,
    level_of: Vec<usize>,
    /// keep `lemma_ids`/`level_of` (only the cache reads them: off, no lemma pays for it)
    pub track_levels: bool,
    ts_config: (SolverConfig, Limits),
}

/// A query on one frame in progress: the solver, the assumptions that select the frame, and
/// the activation literal of its temporary clause (released by [`Frames::end`]).
pub struct Query {
    pub solver: usize,
    pub frame_assumptions: Vec<Lit>,
    tmp: Option<Lit>,
}

impl Frames {
    /// `F_0 = I` and `F_1 = P`.
    pub fn new(
        ts: &TransitionSystem,
        mode: FrameMode,
        suffix: usize,
        config: &SolverConfig,
        limits: &Limits,
    ) -> Result<Frames, String> {
        let mut f = Frames {
            mode,
            solvers: vec![FrameSolver::new(ts, config, limits)?],
            bad: BadSolver::new(ts, suffix, config, limits)?,
            acts: vec![Lit::pos(solver::lit::AtomId(0))],
            lemmas: vec![Vec::new()],
            inf: Vec::new(),
            lemma_ids: HashMap::new(),
            level_of: Vec::new(),
            track_levels: false,
            ts_config: (config.clone(), limits.clone()),
        };
        f.push_frame(ts)?;
        Ok(f)
    }

    /// `k`: the highest frame.
    pub fn top(&self) -> usize {
        self.lemmas.len() - 1
    }

    /// Opens `F_k+1 = P`.
    pub fn push_frame(&mut self, ts: &TransitionSystem) -> Result<(), String> {
        self.lemmas.push(Vec::new());
        let a = self.bad.s.new_activation();
        self.bad.acts.push(a);
        match self.mode {
            FrameMode::Single => {
                let a = self.solvers[0].s.new_activation();
                self.acts.push(a);
            }
            FrameMode::PerFrame => {
                let mut fs = FrameSolver::new(ts, &self.ts_config.0, &self.ts_config.1)?;
                for c in &self.inf {
                    add_clause_at(&mut fs.s, &fs.cur, c, None);
                }
                self.solvers.push(fs);
            }
        }
        Ok(())
    }

    fn solver_of(&self, i: usize) -> usize {
        match self.mode {
            FrameMode::Single => 0,
            FrameMode::PerFrame => i.min(self.solvers.len() - 1),
        }
    }

    pub fn solver(&mut self, idx: usize) -> &mut FrameSolver {
        &mut self.solvers[idx]
    }

    /// Sum of the frame solvers' counters.
    pub fn stats(&self) -> Stats {
        let mut st = Stats::default();
        for fs in &self.solvers {
            crate::engine::add_stats(&mut st, fs.s.stats());
        }
        crate::engine::add_stats(&mut st, self.bad.s.stats());
        st
    }

    /// The state parts of the simplex conflicts the frame solvers recorded since the last
    /// call (with `SolverConfig::record_farkas`): each conflict's Farkas combination cut to
    /// the current state and to the next state, as (state index, coefficient) lists of at
    /// least two variables.
    pub fn take_farkas(&mut self) -> Vec<Vec<(usize, solver::Rational)>> {
        let mut out = Vec::new();
        for fs in &mut self.solvers {
            let index = |step: &Step| -> HashMap<Var, usize> {
                step.vars.iter().enumerate().map(|(i, &v)| (v, i)).collect()
            };
            let (cur, next) = (index(&fs.cur), index(&fs.next));
            for comb in fs.s.take_farkas() {
                for part in [&cur, &next] {
                    let p: Vec<(usize, solver::Rational)> = comb
                        .iter()
                        .filter_map(|(v, c)| part.get(v).map(|&i| (i, c.clone())))
                        .collect();
                    if p.len() >= 2 {
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    /// Starts a query on `F_i`, with the temporary clause `¬neg(s0)` if given.
    pub fn begin(&mut self, i: usize, neg: Option<&Cube>) -> Query {
        let idx = self.solver_of(i);
        let mut fa = Vec::new();
        {
            let fs = &self.solvers[idx];
            fa.push(if i == 0 { fs.act_init } else { fs.act_nt });
        }
        if self.mode == FrameMode::Single && i > 0 {
            fa.extend(self.acts[i..].iter().copied());
        }
        let tmp = neg.map(|c| {
            let fs = &mut self.solvers[idx];
            let a = fs.s.new_activation();
            add_clause_at(&mut fs.s, &fs.cur, c, Some(a));
            fa.push(a);
            a
        });
        Query {
            solver: idx,
            frame_assumptions: fa,
            tmp,
        }
    }

    /// Solves the query with `cube(s1)` assumed in the given order after the frame's
    /// assumptions. Returns the answer and the solver literals of the cube.
    pub fn solve_next(&mut self, q: &Query, cube: &[CLit]) -> (SolveResult, Vec<Lit>) {
        let (a, lits) = self.assumptions(q, cube, true);
        (self.solvers[q.solver].s.solve(&a), lits)
    }

    /// The query's frame assumptions followed by `cube`'s literals at `s1` (`next`) or
    /// `s0`, and those literals alone.
    fn assumptions(&mut self, q: &Query, cube: &[CLit], next: bool) -> (Vec<Lit>, Vec<Lit>) {
        let fs = &mut self.solvers[q.solver];
        let step = if next { &fs.next } else { &fs.cur };
        let lits = step.lits(&mut fs.s, cube);
        let mut a = q.frame_assumptions.clone();
        a.extend_from_slice(&lits);
        (a, lits)
    }

    /// The box of state variable `var` at `s1` that propagation alone derives from the
    /// query's frame assumptions and `cube(s1)` (`None`: propagation refutes them).
    pub fn implied_next(&mut self, q: &Query, cube: &[CLit], var: usize) -> Option<Interval> {
        let (a, _) = self.assumptions(q, cube, true);
        let fs = &mut self.solvers[q.solver];
        let v = fs.next.vars[var];
        fs.s.implied_boxes(&a, &[v]).map(|b| b[0])
    }

    /// Starts a lifting query `T(s0,s1) ∧ ¬c(s1)` (no frame assumed; a per-frame solver's
    /// own lemmas on `s0` only shrink the states that lift, which CTGs allow, §3.2).
    pub fn begin_lift(&mut self, c: &Cube) -> Query {
        let idx = self.solver_of(self.top());
        let fs = &mut self.solvers[idx];
        let a = fs.s.new_activation();
        add_clause_at(&mut fs.s, &fs.next, c, Some(a));
        Query {
            solver: idx,
            frame_assumptions: vec![a],
            tmp: Some(a),
        }
    }

    /// Solves the query with `cube(s0)` assumed after the frame's assumptions.
    pub fn solve_cur(&mut self, q: &Query, cube: &[CLit]) -> (SolveResult, Vec<Lit>) {
        let (a, lits) = self.assumptions(q, cube, false);
        (self.solvers[q.solver].s.solve(&a), lits)
    }

    /// Ends a query (releases its temporary clause).
    pub fn end(&mut self, q: Query) {
        if let Some(t) = q.tmp {
            self.solvers[q.solver].s.release(t);
        }
    }

    /// The bad-state query on `F_i` with the `indK` suffix:
    /// `F_i(s0) ∧ T(s0,s1) ∧ ¬TG(s1) ∧ … ∧ T(sK,sK+1) ∧ TG(sK+1)` (`TG(s1)` for K = 0).
    pub fn solve_bad(&mut self, i: usize) -> SolveResult {
        let a: Vec<Lit> = self.bad.acts[i..].to_vec();
        self.bad.s.solve(&a)
    }

    /// Adds the lemma `¬c` at level `j` (or [`INF`]).
    pub fn add_lemma(&mut self, c: Cube, j: usize) {
        let level_act = |acts: &[Lit]| (j != INF).then(|| acts[j]);
        let act = level_act(&self.bad.acts);
        add_clause_at(&mut self.bad.s, &self.bad.steps[0], &c, act);
        match self.mode {
            FrameMode::Single => {
                let act = level_act(&self.acts);
                let fs = &mut self.solvers[0];
                add_clause_at(&mut fs.s, &fs.cur, &c, act);
            }
            FrameMode::PerFrame => {
                let upto = if j == INF { self.solvers.len() - 1 } else { j };
                for fs in &mut self.solvers[1..=upto] {
                    add_clause_at(&mut fs.s, &fs.cur, &c, None);
                }
            }
        }
        self.record_level(&c, j);
        if j == INF {
            self.inf.push(c);
        } else {
            self.lemmas[j].push(c);
        }
    }

    fn record_level(&mut self, c: &Cube, j: usize) {
        if !self.track_levels {
            return;
        }
        let next = self.level_of.len() as u32;
        let id = *self.lemma_ids.entry(c.clone()).or_insert(next);
        if id == next {
            self.level_of.push(j);
        }
        let l = &mut self.level_of[id as usize];
        *l = (*l).max(j);
    }

    /// The lemmas of `F_b` (levels `>= b`, `F_∞` included) except `skip`, by id: with
    /// [`Frames::still_stronger`], what the generalization cache needs to know that a frame
    /// has become at least as strong as `F_b` is now.
    pub fn snapshot(&self, b: usize, skip: &Cube) -> Vec<u32> {
        self.lemmas[b.max(1)..]
            .iter()
            .flatten()
            .chain(&self.inf)
            .filter(|c| *c != skip)
            .filter_map(|c| self.lemma_ids.get(c).copied())
            .collect()
    }

    /// `F_a` now lies inside `F_b` as it was when `ids` = [`Frames::snapshot`]`(b, …)` was
    /// taken: `F_0 = I` lies in every frame; for `a >= 1`, every lemma of that `F_b` now sits
    /// at a level `>= a` (levels only grow), and `F_b` was not `I` itself.
    pub fn still_stronger(&self, a: usize, b: usize, ids: &[u32]) -> bool {
        a == 0 || (b >= 1 && ids.iter().all(|&id| self.level_of[id as usize] >= a))
    }

    /// Moves lemma `¬c` from level `j` (already removed from `lemmas[j]`) to `j + 1`: only
    /// frame `j + 1` lacks its clause.
    pub fn push_lemma(&mut self, c: Cube, j: usize) {
        match self.mode {
            FrameMode::Single => self.add_lemma(c, j + 1),
            FrameMode::PerFrame => {
                let act = Some(self.bad.acts[j + 1]);
                add_clause_at(&mut self.bad.s, &self.bad.steps[0], &c, act);
                let fs = &mut self.solvers[j + 1];
                add_clause_at(&mut fs.s, &fs.cur, &c, None);
                self.record_level(&c, j + 1);
                self.lemmas[j + 1].push(c);
            }
        }
    }

    /// Some lemma at a level `>= i` blocks every state of `c`.
    pub fn blocked_syntactically(&self, c: &Cube, i: usize) -> bool {
        self.inf.iter().any(|d| d.contains(c))
            || self.lemmas[i.max(1)..]
                .iter()
                .flatten()
                .any(|d| d.contains(c))
    }

    /// Removes the lemmas at levels `<= j` that `¬c` implies (their cubes lie in `c`); the
    /// solver keeps their clauses, which stay true.
    pub fn subsume(&mut self, c: &Cube, j: usize) {
        let upto = j.min(self.top());
        for lv in &mut self.lemmas[1..=upto] {
            lv.retain(|d| !c.contains(d));
        }
    }

    /// All lemmas at levels `>= i` (the frame `F_i` without `P`), `F_∞` included.
    pub fn lemmas_from(&self, i: usize) -> Vec<Cube> {
        let mut out: Vec<Cube> = self.lemmas[i.max(1)..].iter().flatten().cloned().collect();
        out.extend(self.inf.iter().cloned());
        out
    }
}
