//! Blocking proof obligations (paper §2.2 DFS with the usual refinements): a priority queue
//! of obligations — lowest level first, then the one closest to the bad states, then the
//! smallest cube — kept across frontiers, so that a counterexample longer than the number of
//! frames is still found (footnote 3): an obligation blocked at level `j` comes back at
//! `j + 1`, and the queue only hands out obligations up to the frontier.
//!
//! Blocking `ĉ` at level `i` asks `F_{i-1} ∧ ¬ĉ ∧ T ∧ ĉ'`. UNSAT: GENERALIZE turns `ĉ` into a
//! lemma at the highest level where it holds. SAT: the predecessor state `e`, generalized by
//! GeNTR against the successor state the same model gives, becomes an obligation at `i - 1`.
//! An obligation that meets `I` ends the search with a counterexample chain.

use super::cube::Cube;
use super::dynamic::{decay, Effort};
use super::frames::Query;
use super::frames::INF;
use super::generalize::Initiation;
use super::{Ic3, Stop};
use solver::{Model, SolveResult, Value};
use std::cmp::Reverse;

/// What a SAT answer to a frame query found (see [`Ic3::transition_of`]).
pub(crate) struct Transition {
    pub pre: Option<Vec<Value>>,
    pub post: Option<Vec<Value>>,
    pub box_cube: Cube,
}

/// A proof obligation: every state of `cube` can reach the target (exactly so when `exact`:
/// every state of the cube has `to[0]` as a successor, and `to[0]` continues along `next`).
#[derive(Clone, Debug)]
pub struct Obligation {
    pub cube: Cube,
    pub level: usize,
    /// transitions to the bad states (0 for the states the bad-state query found)
    pub depth: usize,
    /// the obligation whose states `to[0]` belongs to (`None`: `to` runs to the target)
    pub next: Option<usize>,
    /// the exact successor states: one state, or the suffix `s1 … sK+1` of the bad query
    pub to: Vec<Vec<Value>>,
    /// found from exact models only
    pub exact: bool,
    /// failed attempts to block it (DynAMic's `act`, see `ic3::dynamic`)
    pub act: u32,
}

impl Ic3<'_> {
    /// Queues an obligation: returns its index.
    pub(crate) fn enqueue(&mut self, ob: Obligation) -> usize {
        let idx = self.obligations.len();
        let key = (ob.level, ob.depth, ob.cube.len(), idx);
        self.obligations.push(ob);
        self.queue.push(Reverse(key));
        idx
    }

    fn requeue(&mut self, idx: usize, level: usize) {
        let ob = &mut self.obligations[idx];
        if level > ob.level {
            ob.act = decay(ob.act);
        }
        ob.level = level;
        let key = (level, ob.depth, ob.cube.len(), idx);
        self.queue.push(Reverse(key));
    }

    /// A new obligation for predecessor cube `cube` at `level` of obligation `next`: first
    /// checked against `I` (a chain that meets `I` is a counterexample).
    pub(crate) fn new_obligation(&mut self, ob: Obligation) -> Result<(), Stop> {
        match self.initiation(&ob.cube) {
            Initiation::Disjoint => {
                self.enqueue(ob);
                Ok(())
            }
            Initiation::Meets(start) => {
                let idx = self.enqueue(ob);
                Err(self.counterexample(idx, start))
            }
            Initiation::Unknown(why) => Err(Stop::Unknown(why)),
        }
    }

    /// Blocks every queued obligation up to the frontier.
    pub(crate) fn block(&mut self) -> Result<(), Stop> {
        while let Some(&Reverse((level, _, _, idx))) = self.queue.peek() {
            if level > self.frames.top() {
                return Ok(());
            }
            // a frontier that needs many obligations is often enumerating states one box at
            // a time (real-valued relations that boxes only approximate); a counterexample
            // just beyond it is found faster by unrolling: probe by BMC, at growing gaps
            if self.cfg.probe && self.since_progress >= self.next_probe {
                self.next_probe = self.since_progress.saturating_mul(2).max(1);
                return Err(Stop::Probe);
            }
            self.queue.pop();
            if level != self.obligations[idx].level {
                continue; // a stale key
            }
            self.stats.obligations += 1;
            self.since_progress += 1;
            if let Some(why) = self.limits.hit() {
                return Err(Stop::Unknown(why.to_string()));
            }
            if self.cfg.abort && self.since_progress > self.cfg.abort_limit {
                return Err(Stop::Abort);
            }
            let cube = self.obligations[idx].cube.clone();
            // level 0: the cube was checked disjoint from I = F_0 when it was queued
            if level == 0 || self.frames.blocked_syntactically(&cube, level) {
                self.requeue(idx, level + 1);
                continue;
            }
            // an earlier generalization that holds this cube and is still inductive
            // relative to F_{i-1} (the IC3CFA "upper bound" rule, `ic3::cache`)
            if let Some(g) = self.cache_lookup(&cube, level - 1) {
                self.add_lemma(g, level);
                self.requeue(idx, level + 1);
                continue;
            }
            // F_{i-1} ∧ ¬ĉ ∧ T ∧ ĉ'
            let q = self.frames.begin(level - 1, Some(&cube));
            let order = self.shuffled(&cube);
            self.stats.solver_calls += 1;
            let (r, lits) = self.frames.solve_next(&q, &order);
            match r {
                SolveResult::Unsat => {
                    // DynAMic: the effort follows the successor's failed attempts
                    let next = self.obligations[idx].next;
                    let sact = next.map_or(0, |n| self.obligations[n].act);
                    self.effort = Effort::for_cube(&self.cfg, sact);
                    if self.cfg.dynamic {
                        let mode = match self.effort {
                            Effort { ctg: false, .. } => 0,
                            Effort { exctg_limit: 1, .. } => 1,
                            _ => 2,
                        };
                        self.stats.dyn_modes[mode] += 1;
                    }
                    let (g, j) = self.generalize(q, level - 1, &cube, order, lits, 0);
                    self.add_lemma(g, j);
                    self.requeue(idx, j + 1);
                }
                SolveResult::Sat(m) | SolveResult::Candidate(m) => {
                    let t = self.transition_of(q, &m);
                    self.obligations[idx].act = self.obligations[idx].act.saturating_add(1);
                    let ob = self.predecessor(t, idx, level - 1);
                    self.requeue(idx, level);
                    self.new_obligation(ob)?;
                }
                SolveResult::Unknown(why) => {
                    self.frames.end(q);
                    return Err(Stop::Unknown(why));
                }
            }
        }
        Ok(())
    }

    /// A SAT answer to frame query `q` read as a transition: the exact predecessor and
    /// successor states (where the model has an exact point) and the predecessor's box.
    /// Ends the query.
    pub(crate) fn transition_of(&mut self, q: Query, m: &Model) -> Transition {
        let fs = self.frames.solver(q.solver);
        let t = Transition {
            pre: fs.cur.values(m),
            post: fs.next.values(m),
            box_cube: Cube::of_box(&self.ts.state, m, &fs.cur.vars),
        };
        self.frames.end(q);
        t
    }

    /// The obligation for a predecessor found at `level` of obligation `next`: GeNTR on the
    /// exact state when the model has one, the model's box otherwise.
    pub(crate) fn predecessor(&mut self, t: Transition, next: usize, level: usize) -> Obligation {
        let depth = self.obligations[next].depth + 1;
        let exact_next = self.obligations[next].exact;
        let Transition {
            pre,
            post,
            box_cube,
        } = t;
        match (pre, post) {
            (Some(pre), Some(post)) => {
                let e = Cube::of_point(&self.ts.state, &pre);
                let p = Cube::of_point(&self.ts.state, &post);
                let cube = self.gentr(e, &p);
                Obligation {
                    cube,
                    level,
                    depth,
                    next: Some(next),
                    to: vec![post],
                    exact: exact_next,
                    act: 0,
                }
            }
            _ => Obligation {
                cube: box_cube,
                level,
                depth,
                next: Some(next),
                to: Vec::new(),
                exact: false,
                act: 0,
            },
        }
    }

    /// Adds lemma `¬g` at level `j` and drops the lemmas it subsumes. `¬g` is inductive
    /// relative to `F_{j-1}` as it is now, which the generalization cache records first.
    pub(crate) fn add_lemma(&mut self, g: Cube, j: usize) {
        if j != INF {
            self.cache_insert(&g, j - 1);
            self.frames.subsume(&g, j);
        }
        self.frames.add_lemma(g, j);
    }
}
