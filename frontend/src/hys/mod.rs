//! The `.hys` language: parser, checker, lowering, printer (language doc Parts A and B).

pub mod ast;
pub mod lexer;
pub mod number;
pub mod parser;
pub mod printer;
