//! The public solver API (DESIGN §2, paper §2.3 and §2.4.1–2.4.2): an ICP-CDCL solver whose
//! literals include simple bound literals, with the assumption interface IC3 needs.
//!
//! The idea: [`Solver`] owns variables (Boolean, integer, real), atoms (Boolean variables and
//! bound atoms `x <= c`), clauses and one ICP propagator per definition. [`Solver::solve`]
//! runs CDCL in which each assumption is a *pseudo-decision* on its own decision level
//! followed by full BCP+ICP, decisions either decide a literal or split an interval, and
//! conflicts are analysed over clauses, bound implications and theory reasons. After an
//! UNSAT answer under assumptions, [`Solver::failed_assumptions`] walks the implication graph
//! back from the failed assumption on the lowest level (§2.4.1 steps 2–4) and reports, for
//! each failed bound assumption, the weakest bound that still fails (§2.4.2).
//!
//! ```
//! use solver::{Solver, SolverConfig, SolveResult, Sort, Domain, Rel, Rational};
//! let mut s = Solver::new(SolverConfig::default()).unwrap();
//! let x = s.new_var(Sort::Real, &Domain::closed(Rational::from_integer(0.into()),
//!                                               Rational::from_integer(10.into())));
//! let le3 = s.bound_lit(x, Rel::Le, &Rational::from_integer(3.into()));
//! let ge5 = s.bound_lit(x, Rel::Ge, &Rational::from_integer(5.into()));
//! // x <= 3 or x >= 5, and (under an activation literal) not x >= 5
//! s.add_clause(&[le3, ge5]);
//! let act = s.new_activation();
//! s.add_clause(&[!act, !ge5]);
//! // assuming x >= 4 together with the activation literal: unsatisfiable
//! let ge4 = s.bound_lit(x, Rel::Ge, &Rational::from_integer(4.into()));
//! assert!(matches!(s.solve(&[act, ge4]), SolveResult::Unsat));
//! // the failed assumptions, in assumption order
//! let core: Vec<_> = s.failed_assumptions().iter().map(|f| f.lit).collect();
//! assert_eq!(core, vec![act, ge4]);
//! s.release(act);
//! assert!(matches!(s.solve(&[ge4]), SolveResult::Sat(_)));
//! ```

use crate::bound_table::{BoundAtom, BoundTable, Lb, Ub};
use crate::clause::{CRef, ClauseDb, Watcher};
use crate::config::SolverConfig;
use crate::formula::{Atom, Domain, Formula, Op, Rel, Sort};
use crate::heap::ActivityHeap;
use crate::icp::Prop;
use crate::interval::Interval;
use crate::lit::{AtomId, LBool, Lit};
use crate::model::Model;
use crate::num::Rational;
use crate::var::{Var, VarMap};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The answer of [`Solver::solve`].
#[derive(Clone, Debug)]
pub enum SolveResult {
    /// A full assignment whose exact point (in [`Model::point`]) satisfies every definition,
    /// clause, domain and assumption, checked with exact rational arithmetic.
    Sat(Model),
    /// A full assignment (every clause satisfied, every box consistent under ICP and narrower
    /// than the splitting width) for which no exact point was confirmed: the boxes may or may
    /// not contain a solution.
    Candidate(Model),
    /// No solution (under the assumptions, if any; see [`Solver::failed_assumptions`]).
    Unsat,
    /// No answer: a limit, an interrupt, or an unsupported operation (the reason says which).
    Unknown(String),
}

impl SolveResult {
    pub fn is_unsat(&self) -> bool {
        matches!(self, SolveResult::Unsat)
    }
    pub fn is_sat(&self) -> bool {
        matches!(self, SolveResult::Sat(_))
    }
    pub fn model(&self) -> Option<&Model> {
        match self {
            SolveResult::Sat(m) | SolveResult::Candidate(m) => Some(m),
            _ => None,
        }
    }
}

/// One failed assumption: the literal as it was assumed and the weakest literal that still
/// fails in its place (the same literal unless it is a bound that could be relaxed, paper
/// §2.4.2: assumed `x <= 5` but only the implied `x <= 7` was needed → `weakest` is `x <= 7`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailedAssumption {
    pub lit: Lit,
    pub weakest: Lit,
}

/// What a literal says (see [`Solver::lit_info`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LitInfo {
    /// Boolean variable `v` has this value
    Bool(Var, bool),
    /// `v rel value` (for an IEEE variable: on its float value; integers exact)
    Bound(Var, Rel, Rational),
}

/// Minimal relative progress of ICP inside [`Solver::implied_boxes`].
const IMPLIED_MPR: f64 = 1e-9;
/// ICP runs allowed per propagation inside [`Solver::implied_boxes`].
const IMPLIED_ICP_RUNS: u32 = 20_000;

/// Counters over the solver's lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub solves: u64,
    pub decisions: u64,
    /// decisions that split an interval at a fresh point
    pub splits: u64,
    pub conflicts: u64,
    /// literals assigned (by any reason)
    pub propagations: u64,
    /// propagator (contractor) invocations
    pub icp_runs: u64,
    /// bounds posted by ICP
    pub icp_contractions: u64,
    pub learned: u64,
    pub deleted: u64,
    pub restarts: u64,
    /// exact point checks tried / succeeded
    pub point_checks: u64,
    pub point_checks_ok: u64,
    /// simplex feasibility checks, the pivots they made, and the conflicts they found
    pub simplex_checks: u64,
    pub simplex_pivots: u64,
    pub simplex_conflicts: u64,
    /// integer conflicts of the simplex (GCD test) and its branch-and-bound decisions
    pub simplex_int_conflicts: u64,
    pub simplex_branches: u64,
}

/// How the roots of a formula are treated by [`Solver::add_formula_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Roots {
    /// asserted as unit clauses (the formula holds)
    Assert,
    /// not asserted; the caller uses [`FormulaMap::roots`] (e.g. to assert `∨ ¬roots`)
    Leave,
}

/// Where a formula's variables and atoms went in the solver.
#[derive(Clone, Debug, Default)]
pub struct FormulaMap {
    /// formula var → solver var
    pub vars: VarMap<Var>,
    /// formula atom id → solver literal of the atom
    pub atoms: Vec<Lit>,
    /// the formula's roots as solver literals
    pub roots: Vec<Lit>,
}

impl FormulaMap {
    /// The solver literal of a formula literal.
    pub fn lit(&self, l: crate::formula::Lit) -> Lit {
        let a = self.atoms[l.atom().0 as usize];
        if l.is_negated() {
            !a
        } else {
            a
        }
    }
    /// The solver variable of a formula variable.
    pub fn var(&self, v: Var) -> Var {
        self.vars[v]
    }
}

/// The internal kind of a variable.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum VarKind {
    Bool,
    Int,
    Real,
    /// the value of an IEEE variable: floats of the format as values, `±inf` included as
    /// closed ends; its NaN and sign flags are Boolean variables (see [`FpFlags`])
    Fp(crate::num::FpFormat),
    /// a sort the solver does not support: left unconstrained
    Unsupported,
}

/// The two Boolean companions of an IEEE variable (see `icp_fp`): `nan` holds iff the
/// variable is NaN, `neg` is its sign bit. A NaN is kept canonical (value variable 0,
/// `neg` false), so every float is exactly one assignment of (value, nan, neg).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FpFlags {
    pub nan: Var,
    pub neg: Var,
}

#[derive(Clone, Debug)]
pub(crate) struct VarData {
    pub kind: VarKind,
    pub sort: Sort,
    /// the atom of a Boolean variable
    pub bool_atom: Option<AtomId>,
    /// the first definition whose output this variable is
    pub defined_by: Option<u32>,
    /// the flags of an IEEE variable
    pub fp: Option<FpFlags>,
}

/// Why a literal is assigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// a decision or assumption (levels > 0) or a derived fact at level 0
    None,
    /// a unit given by the user (clause, root, domain) at level 0
    Given,
    Clause(CRef),
    /// bound implication `from ⇒ this` between bounds of one variable
    Implied(Lit),
    /// an ICP deduction; the antecedents are `theory_arena[start..start+len]`
    Theory {
        start: u32,
        len: u32,
    },
}

/// A conflict: a falsified clause or a set of true literals that cannot hold together (kept
/// in `Solver::confl_lits`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Conflict {
    Clause(CRef),
    Lits,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum AtomKind {
    Bool(Var),
    Bound(u32),
}

/// An entry of the bound trail: the previous bound of a variable end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoundUndo {
    pub var: Var,
    pub upper: bool,
    pub v: f64,
    pub strict: bool,
    pub lit: Lit,
}

/// A definition in solver variables (kept for the exact check).
#[derive(Clone, Debug)]
pub(crate) struct SDef {
    pub out: Var,
    pub op: Op,
    pub args: Vec<Var>,
}

/// The ICP-CDCL solver. See the module documentation.
pub struct Solver {
    pub(crate) config: SolverConfig,
    // ---- variables
    pub(crate) vars: VarMap<VarData>,
    pub(crate) lb: VarMap<(Lb, Lit)>,
    pub(crate) ub: VarMap<(Ub, Lit)>,
    /// bounds at level 0 (never undone), for checking deductions and reporting
    pub(crate) root_lb: VarMap<Lb>,
    pub(crate) root_ub: VarMap<Ub>,
    pub(crate) tables: VarMap<BoundTable>,
    pub(crate) var_props: VarMap<Vec<u32>>,
    /// (decision count, ICP bound changes since then) per variable, to detect crawling
    pub(crate) crawl: VarMap<(u64, u32)>,
    pub(crate) var_heap: ActivityHeap,
    // ---- atoms
    pub(crate) atom_kind: Vec<AtomKind>,
    pub(crate) bound_atoms: Vec<BoundAtom>,
    pub(crate) bound_core: Vec<crate::bound_table::BoundCore>,
    pub(crate) exact_index: HashMap<(u32, u64, bool), AtomId>,
    pub(crate) fuzzy_index: HashMap<(u32, Rational, bool), AtomId>,
    pub(crate) value: Vec<i8>,
    pub(crate) level: Vec<u32>,
    pub(crate) reason: Vec<Reason>,
    /// saved phase: 0 never assigned, 1 last true, -1 last false
    pub(crate) phase: Vec<i8>,
    pub(crate) relevant: Vec<bool>,
    pub(crate) decidable: Vec<bool>,
    /// number of stored clauses containing the atom
    pub(crate) occ: Vec<u32>,
    /// created by ICP or a split (not by the user): recycled once unassigned and irrelevant
    pub(crate) internal: Vec<bool>,
    pub(crate) freed: Vec<bool>,
    /// internal atoms unassigned by backtracking, to be recycled at the next decision
    pub(crate) garbage: Vec<AtomId>,
    pub(crate) free_atoms: Vec<AtomId>,
    pub(crate) seen: Vec<u8>,
    pub(crate) atom_heap: ActivityHeap,
    pub(crate) true_lit: Option<Lit>,
    pub(crate) pending: Option<Conflict>,
    // ---- clauses
    pub(crate) db: ClauseDb,
    pub(crate) watches: Vec<Vec<Watcher>>,
    pub(crate) given_units: Vec<Lit>,
    // ---- trail
    pub(crate) trail: Vec<Lit>,
    pub(crate) trail_lim: Vec<u32>,
    pub(crate) bound_trail: Vec<BoundUndo>,
    pub(crate) bound_lim: Vec<u32>,
    pub(crate) theory_arena: Vec<Lit>,
    pub(crate) arena_lim: Vec<u32>,
    pub(crate) qhead: usize,
    // ---- ICP
    pub(crate) props: Vec<Prop>,
    pub(crate) defs: Vec<SDef>,
    pub(crate) icp_queue: VecDeque<u32>,
    pub(crate) in_icp_queue: Vec<bool>,
    pub(crate) scratch: Vec<Interval>,
    pub(crate) scratch2: Vec<Interval>,
    pub(crate) reason_buf: Vec<Lit>,
    // ---- analysis
    pub(crate) confl_lits: Vec<Lit>,
    pub(crate) analyze_toclear: Vec<AtomId>,
    // ---- search state
    pub(crate) ok: bool,
    pub(crate) assumptions: Vec<Lit>,
    pub(crate) failed: Vec<FailedAssumption>,
    pub(crate) failed_pivot: Option<Lit>,
    pub(crate) unsupported: Option<String>,
    pub(crate) releases_since_simplify: usize,
    pub(crate) conflicts_to_reduce: u64,
    pub(crate) reduce_interval: u64,
    pub(crate) point_check_gap: u64,
    pub(crate) point_check_next: u64,
    pub(crate) exhaustions: u64,
    pub(crate) refinements: u32,
    pub(crate) work_at_start: u64,
    pub(crate) check_work: u64,
    pub(crate) refine_target: Option<(Var, f64)>,
    /// the first candidate of this call and the conflict count at which refinement stops
    pub(crate) saved_candidate: Option<(Model, u64)>,
    pub(crate) def_order: Vec<u32>,
    pub(crate) def_order_len: usize,
    // ---- limits
    pub(crate) conflict_budget: Option<u64>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) interrupt: Option<Arc<AtomicBool>>,
    pub(crate) call_conflicts: u64,
    pub(crate) stop_reason: Option<String>,
    /// ICP runs one `propagate` may make before it stops short of the fixpoint (a sound,
    /// looser box; only [`Solver::implied_boxes`] lowers it, to bound its crawls)
    pub(crate) icp_run_cap: u32,
    pub(crate) stats: Stats,
    pub(crate) congruence: crate::congruence::CongruenceState,
    /// the simplex beside ICP (`None` unless [`crate::LinearReasoning::Simplex`])
    pub(crate) linear: Option<Box<crate::simplex::LinearState>>,
}

impl Solver {
    /// A solver with the given configuration, or the validation error of the configuration.
    pub fn new(config: SolverConfig) -> Result<Solver, String> {
        config.validate()?;
        let reduce = config.reduce_first as u64;
        let linear = (config.linear == crate::config::LinearReasoning::Simplex)
            .then(|| Box::new(crate::simplex::LinearState::default()));
        Ok(Solver {
            config,
            vars: VarMap::new(),
            lb: VarMap::new(),
            ub: VarMap::new(),
            root_lb: VarMap::new(),
            root_ub: VarMap::new(),
            tables: VarMap::new(),
            var_props: VarMap::new(),
            crawl: VarMap::new(),
            var_heap: ActivityHeap::new(),
            atom_kind: Vec::new(),
            bound_atoms: Vec::new(),
            bound_core: Vec::new(),
            exact_index: HashMap::new(),
            fuzzy_index: HashMap::new(),
            value: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            phase: Vec::new(),
            relevant: Vec::new(),
            decidable: Vec::new(),
            occ: Vec::new(),
            internal: Vec::new(),
            freed: Vec::new(),
            garbage: Vec::new(),
            free_atoms: Vec::new(),
            seen: Vec::new(),
            atom_heap: ActivityHeap::new(),
            true_lit: None,
            pending: None,
            db: ClauseDb::new(),
            watches: Vec::new(),
            given_units: Vec::new(),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            bound_trail: Vec::new(),
            bound_lim: Vec::new(),
            theory_arena: Vec::new(),
            arena_lim: Vec::new(),
            qhead: 0,
            props: Vec::new(),
            defs: Vec::new(),
            icp_queue: VecDeque::new(),
            in_icp_queue: Vec::new(),
            scratch: Vec::new(),
            scratch2: Vec::new(),
            reason_buf: Vec::new(),
            confl_lits: Vec::new(),
            analyze_toclear: Vec::new(),
            ok: true,
            assumptions: Vec::new(),
            failed: Vec::new(),
            failed_pivot: None,
            unsupported: None,
            releases_since_simplify: 0,
            conflicts_to_reduce: reduce,
            reduce_interval: reduce,
            point_check_gap: 1,
            point_check_next: 0,
            exhaustions: 0,
            refinements: 0,
            work_at_start: 0,
            check_work: 0,
            refine_target: None,
            saved_candidate: None,
            def_order: Vec::new(),
            def_order_len: usize::MAX,
            conflict_budget: None,
            deadline: None,
            interrupt: None,
            call_conflicts: 0,
            stop_reason: None,
            icp_run_cap: u32::MAX,
            stats: Stats::default(),
            congruence: Default::default(),
            linear,
        })
    }

    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    pub fn num_atoms(&self) -> usize {
        self.atom_kind.len()
    }

    /// The sort a variable was created with.
    pub fn var_sort(&self, v: Var) -> Sort {
        self.vars[v].sort
    }

    /// Limits the number of conflicts of each following [`Solver::solve`] call.
    pub fn set_conflict_budget(&mut self, budget: Option<u64>) {
        self.conflict_budget = budget;
    }

    /// Stops [`Solver::solve`] with `Unknown` at this instant.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Convenience: a deadline `limit` from now.
    pub fn set_time_limit(&mut self, limit: Duration) {
        self.deadline = Some(Instant::now() + limit);
    }

    /// A flag that, once set, makes [`Solver::solve`] return `Unknown("interrupted")` soon.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// `Some(reason)` if a construct was added that the solver does not support; `solve`
    /// then never answers SAT or CANDIDATE (it may still prove UNSAT, which stays sound
    /// because the unsupported parts were only left out).
    pub fn unsupported(&self) -> Option<&str> {
        self.unsupported.as_deref()
    }

    // ------------------------------------------------------------------ variables and atoms

    /// A new variable of the given sort, restricted to `domain` (ignored for Booleans).
    /// Machine integers are integers in the intersection of `domain` and their type's range;
    /// IEEE floats are not supported yet (they make every SAT answer `Unknown`).
    pub fn new_var(&mut self, sort: Sort, domain: &Domain) -> Var {
        self.backtrack(0);
        let kind = match sort {
            Sort::Bool => VarKind::Bool,
            Sort::Int | Sort::MachineInt(_) => VarKind::Int,
            Sort::Real => VarKind::Real,
            Sort::Fp(f) => VarKind::Fp(f),
        };
        let v = self.vars.push(VarData {
            kind,
            sort,
            bool_atom: None,
            defined_by: None,
            fp: None,
        });
        // an IEEE value may be ±inf: its ends start closed at the infinities
        let (lb0, ub0) = match kind {
            VarKind::Fp(_) => (
                Lb::new(f64::NEG_INFINITY, false),
                Ub::new(f64::INFINITY, false),
            ),
            _ => (Lb::NONE, Ub::NONE),
        };
        self.lb.push((lb0, Lit::UNDEF));
        self.ub.push((ub0, Lit::UNDEF));
        self.root_lb.push(lb0);
        self.root_ub.push(ub0);
        self.tables.push(BoundTable::default());
        self.var_props.push(Vec::new());
        self.crawl.push((u64::MAX, 0));
        self.var_heap.grow_to(v.index(), 0.0);
        match kind {
            VarKind::Bool => {
                let a = self.new_atom(AtomKind::Bool(v));
                self.vars[v].bool_atom = Some(a);
                self.make_relevant(a, true);
            }
            VarKind::Int | VarKind::Real => {
                self.var_heap.insert(v.0);
                self.assert_domain(v, domain);
                if let Sort::MachineInt(t) = sort {
                    let range = Domain::closed(
                        Rational::from_integer(t.min_value()),
                        Rational::from_integer(t.max_value()),
                    );
                    self.assert_domain(v, &range);
                }
            }
            VarKind::Fp(f) => {
                self.var_heap.insert(v.0);
                self.init_fp_var(v, f, domain);
            }
            VarKind::Unsupported => {}
        }
        v
    }

    /// A new Boolean variable.
    pub fn new_bool(&mut self) -> Var {
        self.new_var(Sort::Bool, &Domain::unbounded())
    }

    /// The positive literal of a Boolean variable (`None` for other sorts).
    pub fn bool_lit(&self, v: Var) -> Option<Lit> {
        self.vars.get(v)?.bool_atom.map(Lit::pos)
    }

    /// A literal that is always true.
    pub fn true_lit(&mut self) -> Lit {
        if let Some(t) = self.true_lit {
            return t;
        }
        let v = self.new_bool();
        let t = Lit::pos(self.vars[v].bool_atom.expect("bool var"));
        self.true_lit = Some(t);
        self.add_clause(&[t]);
        t
    }

    /// Asserts a declared domain as level-0 given bounds.
    pub(crate) fn assert_domain(&mut self, v: Var, d: &Domain) {
        if let (Some(fl), false) = (self.vars[v].fp, d.is_unbounded()) {
            // a range holds numbers only: no NaN (language doc B.1)
            let nan = Lit::pos(self.vars[fl.nan].bool_atom.expect("bool"));
            self.add_clause(&[!nan]);
        }
        if let Some(b) = &d.lo {
            let rel = if b.strict { Rel::Gt } else { Rel::Ge };
            let l = self.bound_lit(v, rel, &b.value);
            self.add_clause(&[l]);
        }
        if let Some(b) = &d.hi {
            let rel = if b.strict { Rel::Lt } else { Rel::Le };
            let l = self.bound_lit(v, rel, &b.value);
            self.add_clause(&[l]);
        }
    }

    /// The literal of the bound `v rel value`. Integer variables round the constant (`x < 2.5`
    /// is `x <= 2`); a constant that is not a double gives an atom that keeps the exact value
    /// and over-approximates it in both polarities. Atoms are interned. On a Boolean
    /// variable the bound is read with `false = 0`, `true = 1`.
    pub fn bound_lit(&mut self, v: Var, rel: Rel, value: &Rational) -> Lit {
        self.backtrack(0);
        // x >= c is ¬(x < c); x > c is ¬(x <= c)
        let (strict, negate) = match rel {
            Rel::Le => (false, false),
            Rel::Lt => (true, false),
            Rel::Gt => (false, true),
            Rel::Ge => (true, true),
        };
        let kind = self.vars[v].kind;
        let l = match kind {
            VarKind::Bool => {
                let b = Lit::pos(self.vars[v].bool_atom.expect("bool var"));
                let zero = Rational::from_integer(0.into());
                let one = Rational::from_integer(1.into());
                let holds = |x: &Rational| if strict { x < value } else { x <= value };
                let t = self.true_lit();
                match (holds(&zero), holds(&one)) {
                    (true, true) => t,
                    (false, false) => !t,
                    (true, false) => !b,
                    (false, true) => b,
                }
            }
            VarKind::Unsupported => {
                // no bounds on unsupported sorts: a fresh unconstrained atom (a relaxation)
                let w = self.new_bool();
                Lit::pos(self.vars[w].bool_atom.expect("bool var"))
            }
            VarKind::Fp(f) => {
                // x <= q ⇔ x <= (largest float <= q); x < q ⇔ x <= (largest float < q)
                let c = crate::icp_fp::float_at_or_below(f, value, strict);
                Lit::pos(self.intern_bound_atom(BoundAtom::fp(v, c, f)))
            }
            VarKind::Int | VarKind::Real => {
                let ba = BoundAtom::from_rational(v, value, strict, kind == VarKind::Int);
                let a = self.intern_bound_atom(ba);
                Lit::pos(a)
            }
        };
        if negate {
            !l
        } else {
            l
        }
    }

    /// [`Solver::bound_lit`] for a double constant.
    pub fn bound_lit_f64(&mut self, v: Var, rel: Rel, value: f64) -> Lit {
        let q = Rational::from_float(value).unwrap_or_else(|| {
            Rational::from_integer(if value > 0.0 { 1 } else { -1 }.into())
                * Rational::from_integer(num_bigint::BigInt::from(1) << 1100usize)
        });
        self.bound_lit(v, rel, &q)
    }

    /// Finds or creates the atom of a bound for the user (never recycled).
    pub(crate) fn intern_bound_atom(&mut self, ba: BoundAtom) -> AtomId {
        let a = self.intern_atom(ba, false);
        self.internal[a.index()] = false;
        a
    }

    /// Finds or creates the atom of a bound for ICP or a split: recycled once it is
    /// unassigned and occurs in no clause, so that atoms do not pile up over a long search.
    pub(crate) fn intern_internal_atom(&mut self, ba: BoundAtom) -> AtomId {
        self.intern_atom(ba, true)
    }

    fn intern_atom(&mut self, ba: BoundAtom, internal: bool) -> AtomId {
        let var = ba.var;
        match &ba.exact {
            None => {
                let key = (var.0, ba.if_true.v.to_bits(), ba.if_true.strict);
                if let Some(&a) = self.exact_index.get(&key) {
                    return a;
                }
                let a = if internal {
                    self.reuse_bound_atom(ba)
                } else {
                    self.push_bound_atom(ba)
                };
                self.exact_index.insert(key, a);
                a
            }
            Some(e) => {
                let key = (var.0, e.value.clone(), e.strict);
                if let Some(&a) = self.fuzzy_index.get(&key) {
                    return a;
                }
                let a = self.push_bound_atom(ba);
                self.fuzzy_index.insert(key, a);
                a
            }
        }
    }

    /// A recycled atom slot for `ba` if one is free, else a new atom (marked internal).
    fn reuse_bound_atom(&mut self, ba: BoundAtom) -> AtomId {
        let Some(a) = self.free_atoms.pop() else {
            let a = self.push_bound_atom(ba);
            self.internal[a.index()] = true;
            return a;
        };
        let AtomKind::Bound(i) = self.atom_kind[a.index()] else {
            unreachable!("only bound atoms are recycled")
        };
        self.bound_core[i as usize] = crate::bound_table::BoundCore::of(&ba);
        self.bound_atoms[i as usize] = ba;
        let k = a.index();
        self.value[k] = 0;
        self.level[k] = 0;
        self.reason[k] = Reason::None;
        self.phase[k] = 0;
        self.seen[k] = 0;
        self.freed[k] = false;
        self.internal[k] = true;
        self.atom_heap.activity[k] = 0.0;
        a
    }

    /// Recycles the internal atoms that backtracking unassigned and that are still
    /// unassigned and irrelevant. Called only between propagation and a decision, when no
    /// reason or conflict refers to them.
    pub(crate) fn collect_garbage(&mut self) {
        while let Some(a) = self.garbage.pop() {
            let k = a.index();
            if self.freed[k] || !self.internal[k] || self.relevant[k] || self.value[k] != 0 {
                continue;
            }
            if let AtomKind::Bound(i) = self.atom_kind[k] {
                let b = &self.bound_atoms[i as usize];
                if b.exact.is_some() {
                    continue;
                }
                let key = (b.var.0, b.if_true.v.to_bits(), b.if_true.strict);
                if self.exact_index.get(&key) == Some(&a) {
                    self.exact_index.remove(&key);
                }
                self.freed[k] = true;
                self.free_atoms.push(a);
            }
        }
    }

    fn push_bound_atom(&mut self, ba: BoundAtom) -> AtomId {
        let i = self.bound_atoms.len() as u32;
        self.bound_core.push(crate::bound_table::BoundCore::of(&ba));
        self.bound_atoms.push(ba);
        self.new_atom(AtomKind::Bound(i))
    }

    pub(crate) fn new_atom(&mut self, kind: AtomKind) -> AtomId {
        let a = AtomId(self.atom_kind.len() as u32);
        self.atom_kind.push(kind);
        self.value.push(0);
        self.level.push(0);
        self.reason.push(Reason::None);
        self.phase.push(0);
        self.relevant.push(false);
        self.decidable.push(false);
        self.occ.push(0);
        self.internal.push(false);
        self.freed.push(false);
        self.seen.push(0);
        self.watches.push(Vec::new());
        self.watches.push(Vec::new());
        self.atom_heap.grow_to(a.index(), 0.0);
        a
    }

    /// The bound atom behind a literal, if it is one.
    pub(crate) fn bound_of(&self, a: AtomId) -> Option<&BoundAtom> {
        match self.atom_kind[a.index()] {
            AtomKind::Bound(i) => Some(&self.bound_atoms[i as usize]),
            AtomKind::Bool(_) => None,
        }
    }

    /// Registers an atom as relevant (it occurs in a clause or an assumption): it is then
    /// assigned by bound implications. A `decidable` atom (Boolean, or in an original clause
    /// or an assumption) is also decided by the VSIDS heuristic; bound atoms that only occur
    /// in learned clauses are not (deciding them would split at the fine values ICP derived,
    /// which makes slivers); they get values through propagation, splits, or — when a learned
    /// clause is still open once nothing can be split — a decision on that clause.
    pub(crate) fn make_relevant(&mut self, a: AtomId, decidable: bool) {
        if decidable && !self.decidable[a.index()] {
            self.decidable[a.index()] = true;
            if self.value[a.index()] == 0 {
                self.atom_heap.insert(a.0);
            }
        }
        if self.relevant[a.index()] {
            return;
        }
        self.relevant[a.index()] = true;
        if let AtomKind::Bound(i) = self.atom_kind[a.index()] {
            let b = &self.bound_atoms[i as usize];
            let var = b.var;
            self.tables[var].insert(a, b);
            if self.value[a.index()] == 0 {
                // already implied by the current bounds? then assign it now. Mid-search this
                // is at the current level although the implying bound may be older; after a
                // backjump between the two the atom is then unassigned though implied — BCP
                // may miss a propagation there, never soundness (clauses are re-checked by
                // `pick_open_clause` and a wrong decision only leads to a conflict)
                let (ub, ub_lit) = self.ub[var];
                let (lb, lb_lit) = self.lb[var];
                let b = &self.bound_atoms[i as usize];
                let implied = if ub.implies(b.implied_true_at) {
                    Some((Lit::pos(a), ub_lit))
                } else if lb.implies(b.implied_false_at) {
                    Some((!Lit::pos(a), lb_lit))
                } else {
                    None
                };
                if let Some((l, from)) = implied {
                    let r = if from.is_undef() {
                        Reason::None
                    } else {
                        Reason::Implied(from)
                    };
                    // cannot conflict: the atom is unassigned and its value is implied
                    let _ = self.assign(l, r);
                }
            }
        }
        if self.value[a.index()] == 0 && self.decidable[a.index()] {
            self.atom_heap.insert(a.0);
        }
    }

    pub(crate) fn note_unsupported(&mut self, why: String) {
        if self.unsupported.is_none() {
            self.unsupported = Some(why);
        }
    }

    // ------------------------------------------------------------------ clauses

    /// Adds a clause permanently (between `solve` calls). Returns `false` if the solver is
    /// now known to be unsatisfiable.
    pub fn add_clause(&mut self, lits: &[Lit]) -> bool {
        self.add_clause_inner(lits, true)
    }

    pub(crate) fn add_clause_inner(&mut self, lits: &[Lit], original: bool) -> bool {
        self.backtrack(0);
        if !self.ok {
            return false;
        }
        let mut c: Vec<Lit> = lits.to_vec();
        c.sort_unstable();
        c.dedup();
        // tautology?
        if c.windows(2).any(|w| w[0] == !w[1]) {
            return true;
        }
        for &l in &c {
            self.make_relevant(l.atom(), original);
        }
        // Satisfied at level 0 by a given literal: drop. Other level-0 facts are derived and
        // do not make an original clause redundant for the exact check (see `model`), so the
        // clause is kept and simply watched.
        if c.iter().any(|&l| {
            self.lit_value(l) == LBool::True && self.reason[l.atom().index()] == Reason::Given
        }) {
            return true;
        }
        let open: Vec<Lit> = c
            .iter()
            .copied()
            .filter(|&l| self.lit_value(l) != LBool::False)
            .collect();
        if open.is_empty() {
            self.ok = false;
            return false;
        }
        if c.len() == 1 {
            let l = c[0];
            // Every given unit is re-checked at the exact point: bounds, and Booleans too —
            // the outputs of IEEE relations and an IEEE variable's flags are computed from
            // the point, not taken from the assignment
            self.given_units.push(l);
            if self.lit_value(l) == LBool::Undef {
                if self.assign(l, Reason::Given).is_err() {
                    self.ok = false;
                    return false;
                }
            } else {
                // already true as a derived fact: now it is given
                self.reason[l.atom().index()] = Reason::Given;
            }
            return self.propagate_root();
        }
        // watch two non-false literals if possible; a unit under level 0 is assigned
        c.sort_by_key(|&l| match self.lit_value(l) {
            LBool::True => 0,
            LBool::Undef => 1,
            LBool::False => 2,
        });
        let cref = self.db.alloc(c, !original, 0);
        self.attach(cref);
        let c0 = self.db.get(cref).lits[0];
        let c1 = self.db.get(cref).lits[1];
        if self.lit_value(c1) == LBool::False && self.lit_value(c0) == LBool::Undef {
            if self.assign(c0, Reason::Clause(cref)).is_err() {
                self.ok = false;
                return false;
            }
            return self.propagate_root();
        }
        true
    }

    /// Propagates at level 0; `false` (and `ok = false`) on a conflict.
    fn propagate_root(&mut self) -> bool {
        if self.propagate().is_some() {
            self.ok = false;
        }
        self.ok
    }

    pub(crate) fn attach(&mut self, cref: CRef) {
        for k in 0..self.db.get(cref).lits.len() {
            let a = self.db.get(cref).lits[k].atom().index();
            self.occ[a] += 1;
        }
        let c = self.db.get(cref);
        let (a, b) = (c.lits[0], c.lits[1]);
        self.watches[a.index()].push(Watcher { cref, blocker: b });
        self.watches[b.index()].push(Watcher { cref, blocker: a });
    }

    /// A fresh activation literal `act`: add temporary clauses as `¬act ∨ C` (or with
    /// [`Solver::add_clause_under`]), assume `act` to enable them, and [`Solver::release`]
    /// `act` to remove them for good.
    pub fn new_activation(&mut self) -> Lit {
        let v = self.new_bool();
        Lit::pos(self.vars[v].bool_atom.expect("bool var"))
    }

    /// Adds `¬act ∨ lits`.
    pub fn add_clause_under(&mut self, act: Lit, lits: &[Lit]) -> bool {
        let mut c = Vec::with_capacity(lits.len() + 1);
        c.push(!act);
        c.extend_from_slice(lits);
        self.add_clause(&c)
    }

    /// Permanently disables the clauses guarded by `act` (adds the unit `¬act`).
    pub fn release(&mut self, act: Lit) {
        self.add_clause(&[!act]);
        self.releases_since_simplify += 1;
    }

    // ------------------------------------------------------------------ formulas

    /// Adds a formula: its variables (fresh), definitions, clauses, and its roots as units.
    /// A malformed formula (a variable or atom index out of range) is not added; it is noted
    /// as unsupported (every later SAT answer becomes `Unknown`) and the map is empty.
    pub fn add_formula(&mut self, f: &Formula) -> FormulaMap {
        match self.add_formula_with(f, &[], Roots::Assert) {
            Ok(m) => m,
            Err(e) => {
                self.note_unsupported(format!("malformed formula: {e}"));
                FormulaMap::default()
            }
        }
    }

    /// Every variable and atom a formula refers to exists.
    fn check_formula(f: &Formula) -> Result<(), String> {
        let nv = f.vars.len();
        let var_ok = |v: Var| v.index() < nv;
        for a in &f.atoms {
            let v = match a {
                Atom::Bool(v) => *v,
                Atom::Bound { var, .. } => *var,
            };
            if !var_ok(v) {
                return Err(format!("atom on unknown variable v{}", v.0));
            }
        }
        for d in &f.defs {
            if !var_ok(d.out) || !d.args.iter().all(|&a| var_ok(a)) {
                return Err(format!("definition of v{} over unknown variables", d.out.0));
            }
        }
        let na = f.atoms.len();
        let lit_ok = |l: &crate::formula::Lit| (l.atom().0 as usize) < na;
        if !f.clauses.iter().all(|c| c.iter().all(lit_ok)) || !f.roots.iter().all(lit_ok) {
            return Err("literal of an unknown atom".into());
        }
        Ok(())
    }

    /// Adds a formula, binding some of its variables to existing solver variables (e.g. the
    /// current-state variables of an unrolled step to the next-state variables of the
    /// previous one); the formula's domains are asserted on them too. Fails (adding
    /// nothing) if a binding refers to an unknown variable or mixes Boolean and numeric sorts.
    ///
    /// ```
    /// use solver::{Solver, SolverConfig, Formula, VarInfo, VarOrigin, Sort, Domain, Var};
    /// use solver::solve::Roots;
    /// let mut f = Formula::new();
    /// let info = |n: &str| VarInfo { name: n.into(), sort: Sort::Bool,
    ///     domain: Domain::unbounded(), origin: VarOrigin::Declared { span: (0, 0) },
    ///     fp_const: None };
    /// let a = f.add_var(info("a"));
    /// let b = f.add_var(info("b"));
    /// // b <-> !a  as two clauses
    /// let (la, lb) = (f.bool_lit(a), f.bool_lit(b));
    /// f.add_clause(vec![la, lb]);
    /// f.add_clause(vec![!la, !lb]);
    /// let mut s = Solver::new(SolverConfig::default()).unwrap();
    /// let step0 = s.add_formula_with(&f, &[], Roots::Assert).unwrap();
    /// // step 1's `a` is step 0's `b`
    /// let step1 = s.add_formula_with(&f, &[(a, step0.var(b))], Roots::Assert).unwrap();
    /// assert_eq!(step1.var(a), step0.var(b));
    /// ```
    pub fn add_formula_with(
        &mut self,
        f: &Formula,
        bind: &[(Var, Var)],
        roots: Roots,
    ) -> Result<FormulaMap, String> {
        self.backtrack(0);
        Self::check_formula(f)?;
        let mut bound: HashMap<Var, Var> = HashMap::new();
        for &(fv, sv) in bind {
            let info = f
                .vars
                .get(fv)
                .ok_or_else(|| format!("binding of unknown formula variable v{}", fv.0))?;
            let sd = self
                .vars
                .get(sv)
                .ok_or_else(|| format!("binding to unknown solver variable v{}", sv.0))?;
            if (info.sort == Sort::Bool) != (sd.kind == VarKind::Bool) {
                return Err(format!(
                    "binding of {} ({}) to a variable of sort {}",
                    info.name,
                    info.sort.name(),
                    sd.sort.name()
                ));
            }
            bound.insert(fv, sv);
        }
        let mut map = FormulaMap::default();
        for (fv, info) in f.vars.iter() {
            let sv = match bound.get(&fv) {
                Some(&sv) => {
                    if info.sort != Sort::Bool && self.vars[sv].kind != VarKind::Unsupported {
                        self.assert_domain(sv, &info.domain);
                    }
                    sv
                }
                None => {
                    let sv = self.new_var(info.sort, &info.domain);
                    if let (Some(bits), VarKind::Fp(_)) = (info.fp_const, self.vars[sv].kind) {
                        // the domain cannot say -0 or NaN: pin the exact float
                        self.assert_fp_point(sv, bits);
                    }
                    sv
                }
            };
            map.vars.push(sv);
        }
        for atom in &f.atoms {
            let l = match atom {
                Atom::Bool(v) => {
                    let sv = map.vars[*v];
                    match self.bool_lit(sv) {
                        Some(l) => l,
                        None => {
                            self.note_unsupported("a Boolean atom on a numeric variable".into());
                            let w = self.new_bool();
                            Lit::pos(self.vars[w].bool_atom.expect("bool"))
                        }
                    }
                }
                Atom::Bound { var, rel, value } => self.bound_lit(map.vars[*var], *rel, value),
            };
            map.atoms.push(l);
        }
        for d in &f.defs {
            let out = map.vars[d.out];
            let args: Vec<Var> = d.args.iter().map(|&a| map.vars[a]).collect();
            self.add_def(out, d.op.clone(), args);
        }
        for c in &f.clauses {
            let lits: Vec<Lit> = c.iter().map(|&l| map.lit(l)).collect();
            self.add_clause(&lits);
        }
        for &r in &f.roots {
            let l = map.lit(r);
            map.roots.push(l);
            if roots == Roots::Assert {
                self.add_clause(&[l]);
            }
        }
        Ok(map)
    }

    /// Adds the definition `out = op(args)` (holds unconditionally).
    pub fn add_def(&mut self, out: Var, op: Op, args: Vec<Var>) {
        self.backtrack(0);
        let bool_var = |s: &Self, v: Var| s.vars.get(v).map(|d| d.kind) == Some(VarKind::Bool);
        // Boolean if-then-else is plain propositional logic: four clauses (checked exactly
        // like every clause, so the definition itself is not kept for the point check)
        if op == Op::Ite
            && args.len() == 3
            && [out, args[0], args[1], args[2]]
                .iter()
                .all(|&v| bool_var(self, v))
        {
            let l = |s: &Self, v: Var| Lit::pos(s.vars[v].bool_atom.expect("bool"));
            let (o, a, b, c) = (
                l(self, out),
                l(self, args[0]),
                l(self, args[1]),
                l(self, args[2]),
            );
            self.add_clause(&[!a, !b, o]);
            self.add_clause(&[!a, b, !o]);
            self.add_clause(&[a, !c, o]);
            self.add_clause(&[a, c, !o]);
            return;
        }
        let idx = self.defs.len() as u32;
        self.congruence.note_def(idx, &op);
        if self.vars[out].defined_by.is_none() {
            self.vars[out].defined_by = Some(idx);
        }
        match crate::icp::make_prop(self, out, &op, &args) {
            Ok(p) => {
                let pi = self.props.len() as u32;
                let mut vs: Vec<Var> = args.clone();
                vs.push(out);
                // an IEEE variable's flags are part of its domain
                let flags: Vec<Var> = vs
                    .iter()
                    .filter_map(|&v| self.vars[v].fp)
                    .flat_map(|fl| [fl.nan, fl.neg])
                    .collect();
                vs.extend(flags);
                vs.sort_unstable();
                vs.dedup();
                for v in vs {
                    self.var_props[v].push(pi);
                }
                self.props.push(p);
                self.in_icp_queue.push(false);
                self.schedule_prop(pi);
            }
            Err(why) => self.note_unsupported(why),
        }
        self.defs.push(SDef { out, op, args });
        // propagate the new definition at level 0 now, so that `ok` is up to date
        self.propagate_root();
    }

    // ------------------------------------------------------------------ queries

    /// The current value of a literal.
    pub fn lit_value(&self, l: Lit) -> LBool {
        let v = self.value[l.atom().index()];
        let v = if l.is_negated() { -v } else { v };
        match v {
            1 => LBool::True,
            -1 => LBool::False,
            _ => LBool::Undef,
        }
    }

    /// The current box of a variable (`[0,1]`-style for Booleans: `[1,1]` true, `[0,0]`
    /// false, `[0,1]` unassigned; all reals for unsupported sorts).
    pub fn var_box(&self, v: Var) -> Interval {
        match self.vars[v].kind {
            VarKind::Bool => match self.bool_lit(v).map(|l| self.lit_value(l)) {
                Some(LBool::True) => Interval::point(1.0),
                Some(LBool::False) => Interval::point(0.0),
                _ => Interval::closed(0.0, 1.0),
            },
            VarKind::Unsupported => Interval::ENTIRE,
            _ => {
                let (l, _) = self.lb[v];
                let (u, _) = self.ub[v];
                Interval::new(l.v, l.strict, u.v, u.strict)
            }
        }
    }

    /// A readable form of a literal (`v3 <= 2.5`, `!v1`), for debugging.
    pub fn lit_to_string(&self, l: Lit) -> String {
        match self.atom_kind[l.atom().index()] {
            AtomKind::Bool(v) => format!("{}v{}", if l.is_negated() { "!" } else { "" }, v.0),
            AtomKind::Bound(i) => {
                let b = &self.bound_atoms[i as usize];
                let (q, strict) = b.exact_constraint();
                let q = crate::num::format_rational(&q);
                let rel = match (strict, l.is_negated()) {
                    (false, false) => "<=",
                    (true, false) => "<",
                    (false, true) => ">",
                    (true, true) => ">=",
                };
                format!("v{} {} {}", b.var.0, rel, q)
            }
        }
    }

    /// What a literal says, in terms of variables and exact constants, so that a client
    /// (IC3) can carry a literal from one solver to another or print it: a Boolean
    /// variable's value, or a bound `v rel value`. `None` for a bound on an infinite end
    /// (an IEEE atom `x <= -inf`), which has no rational constant.
    pub fn lit_info(&self, l: Lit) -> Option<LitInfo> {
        match self.atom_kind[l.atom().index()] {
            AtomKind::Bool(v) => Some(LitInfo::Bool(v, !l.is_negated())),
            AtomKind::Bound(i) => {
                let b = &self.bound_atoms[i as usize];
                if !b.if_true.v.is_finite() {
                    return None;
                }
                let (q, strict) = b.exact_constraint();
                let rel = match (strict, l.is_negated()) {
                    (false, false) => Rel::Le,
                    (true, false) => Rel::Lt,
                    (false, true) => Rel::Gt,
                    (true, true) => Rel::Ge,
                };
                Some(LitInfo::Bound(b.var, rel, q))
            }
        }
    }

    /// The positive literals of an IEEE variable's NaN flag and sign flag (`None` for a
    /// variable of another sort).
    pub fn fp_flag_lits(&self, v: Var) -> Option<(Lit, Lit)> {
        let fl = self.vars.get(v)?.fp?;
        Some((
            Lit::pos(self.vars[fl.nan].bool_atom.expect("flag is Boolean")),
            Lit::pos(self.vars[fl.neg].bool_atom.expect("flag is Boolean")),
        ))
    }

    /// The failed assumption on the lowest decision level of the last UNSAT answer (paper
    /// §2.4.1 step 3: `l_j`, the one literal rotation puts first), as it was assumed.
    pub fn failed_pivot(&self) -> Option<Lit> {
        self.failed_pivot
    }

    /// The assumptions of the last UNSAT answer that were needed for it, in assumption order,
    /// each with the weakest bound that still fails in its place (empty after other answers,
    /// and when the formula is unsatisfiable without assumptions).
    pub fn failed_assumptions(&self) -> &[FailedAssumption] {
        &self.failed
    }

    // ------------------------------------------------------------------ solving

    /// Solves under `assumptions` (each a pseudo-decision on its own level, followed by full
    /// BCP+ICP, in the given order).
    pub fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.stats.solves += 1;
        self.backtrack(0);
        self.failed.clear();
        self.failed_pivot = None;
        self.stop_reason = None;
        self.call_conflicts = 0;
        self.point_check_gap = 1;
        self.point_check_next = 0;
        self.exhaustions = 0;
        self.refinements = 0;
        self.work_at_start = self.stats.propagations + self.stats.icp_runs;
        self.check_work = 0;
        self.refine_target = None;
        self.saved_candidate = None;
        if !self.ok {
            return SolveResult::Unsat;
        }
        // sweeping costs a pass over all clauses: only once enough releases piled up
        if self.releases_since_simplify * 64 > self.db.num_original + self.db.num_learnt + 64 {
            self.simplify_root();
        }
        self.congruence();
        if !self.ok {
            return SolveResult::Unsat;
        }
        for &a in assumptions {
            self.make_relevant(a.atom(), true);
        }
        self.assumptions = assumptions.to_vec();
        if self.propagate().is_some() {
            self.ok = false;
            return SolveResult::Unsat;
        }
        self.search()
    }

    /// The boxes of `vars` that propagation alone (BCP and ICP, no decisions) derives from
    /// `assumptions`; `None` when propagation refutes them. IC3's bound weakening reads the
    /// bound a cube literal contradicts here instead of probing for it (§2.4.2: the weakest
    /// bound that still fails is the negation of the implied one).
    pub fn implied_boxes(&mut self, assumptions: &[Lit], vars: &[Var]) -> Option<Vec<Interval>> {
        self.backtrack(0);
        self.pending = None;
        if !self.ok {
            return None;
        }
        for &a in assumptions {
            self.make_relevant(a.atom(), true);
        }
        if self.propagate().is_some() {
            self.ok = false;
            return None;
        }
        // the search's minimal progress would hide a bound that moves little against its
        // magnitude (x ≤ 16777201 ⇒ x + 1 ≤ 16777202); here a tighter bound is the point,
        // and the run cap keeps crawls towards limit points short
        let saved = (self.config.mpr, self.icp_run_cap);
        self.config.mpr = IMPLIED_MPR.min(saved.0);
        self.icp_run_cap = IMPLIED_ICP_RUNS;
        let mut consistent = true;
        for &a in assumptions {
            match self.lit_value(a) {
                LBool::True => {}
                LBool::False => consistent = false,
                LBool::Undef => {
                    self.new_decision_level();
                    consistent = self.assign(a, Reason::None).is_ok() && self.propagate().is_none();
                }
            }
            if !consistent {
                break;
            }
        }
        let out = consistent.then(|| vars.iter().map(|&v| self.var_box(v)).collect());
        self.backtrack(0);
        self.pending = None;
        self.config.mpr = saved.0;
        self.icp_run_cap = saved.1;
        out
    }

    /// Stops the search when a limit is hit: `Some(reason)`.
    pub(crate) fn limit_hit(&mut self) -> Option<String> {
        if let Some(r) = &self.stop_reason {
            return Some(r.clone());
        }
        let why = if self
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(AtomicOrdering::Relaxed))
        {
            Some("interrupted")
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some("time limit")
        } else if crate::budget::over_memory() {
            Some("memory limit")
        } else if self
            .conflict_budget
            .is_some_and(|b| self.call_conflicts >= b)
        {
            Some("conflict budget exhausted")
        } else {
            None
        };
        self.stop_reason = why.map(String::from);
        self.stop_reason.clone()
    }

    /// Removes clauses satisfied by given units at level 0 (released activation literals).
    pub(crate) fn simplify_root(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        self.releases_since_simplify = 0;
        let mut removed = Vec::new();
        for (i, c) in self.db.clauses.iter().enumerate() {
            if c.deleted {
                continue;
            }
            let sat = c.lits.iter().any(|&l| {
                self.lit_value(l) == LBool::True
                    && self.level[l.atom().index()] == 0
                    && (c.learnt || self.reason[l.atom().index()] == Reason::Given)
            });
            if sat {
                removed.push(i as CRef);
            }
        }
        if removed.is_empty() {
            return;
        }
        for &r in &removed {
            self.delete_clause(r);
        }
        self.purge_watches();
        self.db.release(&removed);
        self.stats.deleted += removed.len() as u64;
    }

    /// Deletes a clause (the caller purges the watch lists before slots are reused). Atoms
    /// that only learned clauses made relevant stop being relevant with their last clause:
    /// bound implications then no longer assign them, which keeps the per-variable tables
    /// (and the work of every bound change) in proportion to the live clauses.
    pub(crate) fn delete_clause(&mut self, r: CRef) {
        if self.db.get(r).deleted {
            return;
        }
        let lits = std::mem::take(self.db.get_lits_mut(r));
        for &l in &lits {
            let a = l.atom().index();
            self.occ[a] -= 1;
            if self.occ[a] == 0 && !self.decidable[a] && self.relevant[a] {
                self.make_irrelevant(l.atom());
            }
        }
        self.db.delete(r);
    }

    fn make_irrelevant(&mut self, a: AtomId) {
        self.relevant[a.index()] = false;
        if let AtomKind::Bound(i) = self.atom_kind[a.index()] {
            let b = &self.bound_atoms[i as usize];
            let var = b.var;
            self.tables[var].remove(a, b);
            if self.value[a.index()] == 0 && self.internal[a.index()] {
                self.garbage.push(a);
            }
        }
    }

    /// Drops watchers of deleted clauses.
    pub(crate) fn purge_watches(&mut self) {
        let db = &self.db;
        for ws in self.watches.iter_mut() {
            ws.retain(|w| !db.get(w.cref).deleted);
        }
    }
}
