//! icpic3's SMT core: an ICP-CDCL solver in the style of iSAT3 (paper
//! `isat3-ic3-stronger-generalization`, §2.3). Literals include simple bound literals
//! `x <= c`; interval constraint propagation contracts variable domains; interval splits are
//! decisions.
//!
//! The solver's input is a [`formula::Formula`]: variables with sorts and domains, primitive
//! *definitions* `out = op(args)` over fresh auxiliary variables (one per operation, as
//! iSAT3's `--dump-hys-problem` shows), and Boolean structure as Tseitin clauses over atoms.
//! The solver knows nothing about IC3: engines talk to it through assumptions.

pub mod analyze;
pub mod bound_table;
#[cfg(feature = "check-deductions")]
pub(crate) mod check_deductions;
pub mod clause;
pub mod config;
pub mod contractors;
pub mod decide;
pub mod formula;
pub mod heap;
pub mod icp;
pub mod interval;
pub mod lit;
pub mod model;
pub mod num;
pub mod propagate;
pub mod search;
pub mod solve;
pub mod var;

pub use formula::{Atom, Def, Domain, Formula, Lit, Op, Rel, Sort, VarInfo, VarOrigin};
pub use num::{FpFormat, IntType, Rational, RoundingMode};
pub use var::{Var, VarMap};

pub use config::{RestartPolicy, SolverConfig, SplitPhase};
pub use model::{Model, Value};
pub use solve::{FailedAssumption, FormulaMap, Roots, SolveResult, Solver, Stats};
