//! Contractors for IEEE-754 operations (issue #4 point 2; Scheibler et al., "Accurate
//! ICP-based Floating-Point Reasoning", FMCAD 2016, for backward contraction that respects
//! rounding). Domains are [`FpDom`]s; the exact operations of [`crate::num::ieee`] are the
//! ground truth every function here is tested against.

pub mod dom;

pub use dom::FpDom;
