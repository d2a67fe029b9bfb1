//! A transition system in iSAT3's sense (language doc A.1): state variables with current and
//! next copies, and three formulas INIT(s), TRANS(s, s'), TARGET(s). The question is whether
//! some k ≥ 0 has INIT(s0) ∧ TRANS(s0,s1) ∧ … ∧ TRANS(sk-1,sk) ∧ TARGET(sk).
//!
//! Each formula has its own variable space (its auxiliaries are local to one step); the maps
//! below say which of its variables stands for which state variable, so an engine can
//! instantiate TRANS once per step of an unrolling or per IC3 frame. TRANS is a relation, not a
//! function. A state outside the declared ranges does not exist: every state variable's domain
//! is its declared range in all three formulas. Static variables keep their value along a run;
//! the lowering adds `s' = s` to TRANS for them and marks them here so engines may share them.

use solver::formula::{Domain, Formula, Sort};
use solver::Var;

/// A state variable of the system (a declared, non-`define` variable).
#[derive(Clone, PartialEq, Debug)]
pub struct StateVar {
    pub name: String,
    pub sort: Sort,
    pub domain: Domain,
    pub is_static: bool,
    /// byte span of the declaration in the source
    pub span: (u32, u32),
}

#[derive(Clone, Debug)]
pub struct TransitionSystem {
    pub state: Vec<StateVar>,
    /// INIT(s)
    pub init: Formula,
    /// `init_vars[i]` is state variable `i` in `init`.
    pub init_vars: Vec<Var>,
    /// TRANS(s, s')
    pub trans: Formula,
    pub trans_current: Vec<Var>,
    pub trans_next: Vec<Var>,
    /// TARGET(s): the states to reach (¬P)
    pub target: Formula,
    pub target_vars: Vec<Var>,
}

impl TransitionSystem {
    /// The state variables whose next value TRANS constrains (mentions). The others are
    /// inputs: each step picks them anew within their domain, so no bound on them (or on a
    /// term over them) beyond the domain is inductive.
    pub fn carried(&self) -> Vec<bool> {
        let f = &self.trans;
        let mut used: std::collections::BTreeSet<Var> = Default::default();
        for d in &f.defs {
            used.insert(d.out);
            used.extend(d.args.iter().copied());
        }
        for a in &f.atoms {
            match a {
                solver::formula::Atom::Bool(v) | solver::formula::Atom::Bound { var: v, .. } => {
                    used.insert(*v);
                }
            }
        }
        self.trans_next.iter().map(|v| used.contains(v)).collect()
    }

    /// Checks the structural invariants that engines rely on: one interface variable per state
    /// variable in each formula, of the state variable's sort. Returns a description of the
    /// first violation.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.state.len();
        let maps: [(&str, &Formula, &Vec<Var>); 4] = [
            ("INIT", &self.init, &self.init_vars),
            ("TRANS (current)", &self.trans, &self.trans_current),
            ("TRANS (next)", &self.trans, &self.trans_next),
            ("TARGET", &self.target, &self.target_vars),
        ];
        for (what, f, map) in maps {
            if map.len() != n {
                return Err(format!(
                    "{what}: {} interface variables for {n} state variables",
                    map.len()
                ));
            }
            for (i, &v) in map.iter().enumerate() {
                let Some(info) = f.vars.get(v) else {
                    return Err(format!(
                        "{what}: state variable {i} maps to a missing variable"
                    ));
                };
                if info.sort != self.state[i].sort {
                    return Err(format!(
                        "{what}: state variable {} has sort {} but its copy has sort {}",
                        self.state[i].name,
                        self.state[i].sort.name(),
                        info.sort.name()
                    ));
                }
            }
        }
        Ok(())
    }
}
