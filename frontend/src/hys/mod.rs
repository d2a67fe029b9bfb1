//! The `.hys` language: parser, checker, lowering, printer (language doc Parts A and B).

pub mod ast;
pub mod check;
pub mod constfold;
pub mod eval;
pub mod fpconst;
pub mod interval;
pub mod ir;
pub mod ir_print;
pub mod lexer;
pub mod lin;
mod load;
pub mod lower;
pub mod number;
pub mod parser;
pub mod printer;
mod walk;

pub use load::{load, Loaded, Problem, Summary};
pub use lower::Lowered;
