//! SMT-LIB 2.6 input (language doc Part E): an s-expression reader, the elaboration of
//! terms into the checker's IR, and the script driver (`icpic3 solve FILE.smt2`).

pub mod elab;
pub mod options;
pub mod script;
pub mod sexpr;
pub mod vmt;
