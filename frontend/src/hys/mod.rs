//! The `.hys` language: parser, checker, lowering, printer (language doc Parts A and B).

pub mod ast;
