//! icpic3's front end: input languages lowered to [`solver::Formula`] and
//! [`ic3::TransitionSystem`], and the command-line program.

pub mod c;
pub mod cli;
pub mod diag;
pub mod hys;
pub mod lang;
pub mod report;
pub mod smtlib;
pub mod smtlib_out;
pub mod solve_cmd;
pub mod ts_cmd;
pub mod witness;
