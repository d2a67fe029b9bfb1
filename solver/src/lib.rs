//! icpic3's SMT core: an ICP-CDCL solver in the style of iSAT3 (paper
//! `isat3-ic3-stronger-generalization`, §2.3). Literals include simple bound literals
//! `x <= c`; interval constraint propagation contracts variable domains; interval splits are
//! decisions.
//!
//! The solver's input is a [`formula::Formula`]: variables with sorts and domains, primitive
//! *definitions* `out = op(args)` over fresh auxiliary variables (one per operation, as
//! iSAT3's `--dump-hys-problem` shows), and Boolean structure as Tseitin clauses over atoms.
//! The solver knows nothing about IC3: engines talk to it through assumptions.
//!
//! The API ([`solve`]): [`Solver::new`] with a [`SolverConfig`]; [`Solver::add_formula`] /
//! [`Solver::add_formula_with`] (binding formula variables to existing solver variables, as
//! unrollings need) returning a [`FormulaMap`]; [`Solver::new_var`], [`Solver::bound_lit`],
//! [`Solver::add_clause`] between calls; [`Solver::solve`] under assumptions (each a
//! pseudo-decision on its own level) returning SAT (exactly checked point), CANDIDATE (boxes),
//! UNSAT or UNKNOWN; [`Solver::failed_assumptions`] with bound generalization; activation
//! literals ([`Solver::new_activation`], [`Solver::release`]); budgets, deadlines and an
//! interrupt flag. Solver literals are [`lit::Lit`] (the formula's own literals are
//! [`formula::Lit`]).

mod analyze;
pub mod bitblast;
pub mod bound_table;
pub mod budget;
#[cfg(feature = "check-deductions")]
pub(crate) mod check_deductions;
mod clause;
pub mod config;
mod congruence;
pub mod contractors;
mod decide;
pub mod existence;
pub mod factor;
pub mod formula;
mod heap;
mod icp;
mod icp_bv;
mod icp_fp;
pub mod interval;
pub mod lit;
pub mod model;
pub mod num;
mod propagate;
mod search;
mod simplex;
pub mod solve;
pub mod var;

pub use formula::{Atom, Def, Domain, Formula, Lit, Op, Rel, Sort, VarInfo, VarOrigin};
pub use num::{FpFormat, IntType, Rational, RoundingMode};
pub use var::{Var, VarMap};

pub use config::{LinearReasoning, RestartPolicy, SolverConfig, SplitPhase};
pub use model::{Model, Value};
pub use solve::{FailedAssumption, FormulaMap, LitInfo, Roots, SolveResult, Solver, Stats};
