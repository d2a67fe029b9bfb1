//! Contractors for IEEE-754 operations (issue #4 point 2; Scheibler et al., "Accurate
//! ICP-based Floating-Point Reasoning", FMCAD 2016, for backward contraction that respects
//! rounding). Domains are [`FpDom`]s; the exact operations of [`crate::num::ieee`] are the
//! ground truth every function here is tested against.
//!
//! - [`lattice`]: the engine — total float order, monotone pieces, corner evaluation and
//!   binary search on the float lattice; every arithmetic contractor is an instance.
//! - [`arith`]: `+ - * /`, `fma`, `√`, negation, `|x|`, `fmin`, `fmax`.
//! - [`compare`]: `<`, `<=`, `feq`, identity, classification predicates.
//! - [`convert`]: fp↔fp, real/int → fp, fp → int (C truncation), fp → real.
//! - [`bits`]: bit reinterpretation `fp_bits` / `fp_of_bits` (float ↔ pattern).
//! - [`check`]: the independent slow checker (enumeration over small lattice windows) and
//!   the random-case harness shared by the tests and the sweep example.

pub mod arith;
pub mod bits;
pub mod check;
pub mod compare;
pub mod convert;
pub mod dom;
pub(crate) mod lattice;

pub use arith::*;
pub use bits::{bwd_fp_bits_x, bwd_fp_of_bits_u, fwd_fp_bits, fwd_fp_of_bits};
pub use compare::{
    bwd_class, bwd_eq, bwd_le, bwd_lt, bwd_same, fwd_class, fwd_eq, fwd_le, fwd_lt, fwd_same,
    BoolPoss, FpClass,
};
pub use convert::*;
pub use dom::FpDom;
