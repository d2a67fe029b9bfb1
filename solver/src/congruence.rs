//! Congruence over proven identities of IEEE variables.
//!
//! The idea: interval propagation cannot see that two variables are *the same float* — two
//! domains can be equal while the variables differ — so `feq(s, b)` and `¬feq(s', b')` under
//! `s' = s`, `b' = b` (the step case of k-induction on language doc B.3, and every unrolled
//! identity `x' = x` of a transition system) would be refuted only by enumerating floats.
//! When an identity `fsame(x, y)` holds at level 0 (a unit of the formula, or derived), the
//! two variables are one value in every model, so deterministic definitions over them compute
//! the same result: definitions with the same operation and the same arguments *up to
//! identity* get their outputs tied together — by two clauses for Boolean outputs, by a new
//! identity for IEEE outputs (which may tie further definitions). This is congruence closure
//! restricted to what the level-0 identities give; it adds only consequences of the formula,
//! so the exact point check (which re-checks every original clause) stays sound and complete.

use crate::formula::Op;
use crate::lit::{LBool, Lit};
use crate::solve::{Solver, VarKind};
use crate::var::Var;
use std::collections::{HashMap, HashSet};

/// Union-find over variables.
struct Classes {
    parent: Vec<u32>,
}

impl Classes {
    fn new(n: usize) -> Classes {
        Classes {
            parent: (0..n as u32).collect(),
        }
    }
    fn find(&mut self, v: Var) -> Var {
        let mut x = v.0;
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        Var(x)
    }
    fn union(&mut self, a: Var, b: Var) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.0.max(b.0) as usize] = a.0.min(b.0);
        }
    }
}

/// Operations whose result does not depend on the order of their two arguments.
fn commutative(op: &Op) -> bool {
    matches!(
        op,
        Op::FAdd(_) | Op::FMul(_) | Op::FEq | Op::FSame | Op::FMin | Op::FMax
    )
}

/// IEEE operations (and relations/classes over IEEE arguments) that are functions
/// everywhere: the ones congruence may tie.
fn congruent_op(op: &Op) -> bool {
    op.is_deterministic() && op.is_ieee()
}

/// What congruence has done so far, so that a later call only works when something new
/// can be tied.
#[derive(Default, Debug)]
pub(crate) struct CongruenceState {
    /// (definitions, level-0 trail length) at the last run
    seen: (usize, usize),
    /// output pairs already tied
    tied: HashSet<(Var, Var)>,
    /// the definitions congruence may tie (deterministic IEEE operations), by index, kept by
    /// `add_def` so that a solver without them (reals, integers) pays nothing per call
    defs: Vec<u32>,
    /// whether any of them is an identity (without one, nothing can be tied)
    has_identity: bool,
}

impl CongruenceState {
    /// Registers definition `i` if congruence may tie it.
    pub(crate) fn note_def(&mut self, i: u32, op: &Op) {
        if congruent_op(op) {
            self.defs.push(i);
            self.has_identity |= *op == Op::FSame;
        }
    }
}

impl Solver {
    /// Ties the outputs of definitions that are equal up to level-0 identities (module
    /// docs). Called at level 0 before a search.
    pub(crate) fn congruence(&mut self) {
        let root_trail = |s: &Self| s.trail_lim.first().map_or(s.trail.len(), |&l| l as usize);
        let now = (self.defs.len(), root_trail(self));
        if !self.congruence.has_identity || now == self.congruence.seen || !self.ok {
            return;
        }
        // at most one round per new identity, and never unbounded
        for _ in 0..64 {
            let mut classes = Classes::new(self.vars.len());
            for &i in &self.congruence.defs {
                let d = &self.defs[i as usize];
                if d.op == Op::FSame && d.args.len() == 2 && self.bool_value(d.out) == LBool::True {
                    classes.union(d.args[0], d.args[1]);
                }
            }
            let mut first: HashMap<(Op, Vec<Var>), Var> = HashMap::new();
            let mut ties: Vec<(Var, Var)> = Vec::new();
            for &i in &self.congruence.defs {
                let d = &self.defs[i as usize];
                let mut args: Vec<Var> = d.args.iter().map(|&a| classes.find(a)).collect();
                if commutative(&d.op) {
                    args.sort_unstable();
                }
                match first.get(&(d.op.clone(), args.clone())) {
                    Some(&o) => {
                        let key = (o.min(d.out), o.max(d.out));
                        if o != d.out
                            && classes.find(o) != classes.find(d.out)
                            && !self.congruence.tied.contains(&key)
                        {
                            ties.push(key);
                        }
                    }
                    None => {
                        first.insert((d.op.clone(), args), d.out);
                    }
                }
            }
            if ties.is_empty() {
                break;
            }
            for (a, b) in ties {
                self.congruence.tied.insert((a, b));
                self.tie(a, b);
                if !self.ok {
                    return;
                }
            }
        }
        self.congruence.seen = (self.defs.len(), root_trail(self));
    }

    /// Asserts that `a` and `b` (outputs of congruent definitions) are one value.
    fn tie(&mut self, a: Var, b: Var) {
        match (self.vars[a].kind, self.vars[b].kind) {
            (VarKind::Bool, VarKind::Bool) => {
                let la = Lit::pos(self.vars[a].bool_atom.expect("bool"));
                let lb = Lit::pos(self.vars[b].bool_atom.expect("bool"));
                self.add_clause(&[!la, lb]);
                self.add_clause(&[la, !lb]);
            }
            (VarKind::Fp(_), VarKind::Fp(_)) if self.vars[a].sort == self.vars[b].sort => {
                let h = self.new_bool();
                self.add_def(h, Op::FSame, vec![a, b]);
                let lh = Lit::pos(self.vars[h].bool_atom.expect("bool"));
                self.add_clause(&[lh]);
            }
            // numeric outputs of IEEE operations (none are congruent today)
            _ => {}
        }
    }
}
