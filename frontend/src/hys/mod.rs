//! The `.hys` language: parser, checker, lowering, printer (language doc Parts A and B).

pub mod ast;
pub mod check;
pub mod constfold;
pub mod fpconst;
pub mod interval;
pub mod ir;
pub mod lexer;
pub mod lin;
pub mod lower;
pub mod number;
pub mod parser;
pub mod printer;
mod walk;
