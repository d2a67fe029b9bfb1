//! Transition systems and the model-checking engines of icpic3 (IC3 of the paper
//! `isat3-ic3-stronger-generalization`, BMC, k-induction). Engines talk to
//! [`solver`] only through its public API.

pub mod ts;

pub use ts::{StateVar, TransitionSystem};
