//! icpic3's SMT core: an ICP-CDCL solver in the style of iSAT3 (paper
//! `isat3-ic3-stronger-generalization`, §2.3). Literals include simple bound literals
//! `x <= c`; interval constraint propagation contracts variable domains; interval splits are
//! decisions.
//!
//! The solver's input is a [`formula::Formula`]: variables with sorts and domains, primitive
//! *definitions* `out = op(args)` over fresh auxiliary variables (one per operation, as
//! iSAT3's `--dump-hys-problem` shows), and Boolean structure as Tseitin clauses over atoms.
//! The solver knows nothing about IC3: engines talk to it through assumptions.

pub mod contractors;
pub mod formula;
pub mod interval;
pub mod num;
pub mod var;

pub use formula::{Atom, Def, Domain, Formula, Lit, Op, Rel, Sort, VarInfo, VarOrigin};
pub use num::{FpFormat, IntType, Rational, RoundingMode};
pub use var::{Var, VarMap};
