//! Contractors for IEEE arithmetic: `+ - * /`, `fma`, `√`, negation, `|x|`, `fmin`, `fmax`
//! (issue #4 point 2; Scheibler et al., FMCAD 2016, for backward contraction that respects
//! rounding).
//!
//! The idea: each function hands the exact operation of [`crate::num::ieee`] to the lattice
//! engine ([`super::lattice`]) together with the piece split on which the operation is
//! monotone in the total float order (`-0 < +0`) and NaN all-or-nothing:
//! - `+`, `-`: `Finite` split (`-inf` | finite | `+inf`): over the finite floats, zeros
//!   included, the rounded sum is monotone in both operands; `inf - inf` is a box of points.
//! - `*`, `/`: `Sign` split: the direction in one operand is the sign of the other, and the
//!   NaN cases `0·inf`, `0/0`, `inf/inf` are boxes of point pieces. Underflow to a signed zero
//!   keeps the sign of the exact result, which is fixed on a sign box.
//! - `fma`: `Sign` split for the factors (the product's sign is fixed on a box), `Finite` for
//!   the addend.
//! - `√`: `Sign` split: NaN on the negative pieces, monotone on `[-0, +inf]` (`√-0 = -0`).
//! - `|x|`: `Sign` split (decreasing on the negative side). Negation is done directly.
//! - `fmin`, `fmax`: `Whole`: minNum/maxNum are monotone in both operands over the non-NaN
//!   floats in the total order (`fmin(-0, +0) = -0`, see [`crate::num::ieee`]), and a NaN
//!   operand is a point piece on which the result is the other operand.
//!
//! So forward results are exact hulls at point inputs, and backward results are the hull of
//! the floats that reach the output box with some partner, exact when the output and the
//! partners are points (e.g. `x + 1 = 1e20` gives exactly the floats that round to `1e20`).

use super::lattice::{bwd, fwd, Split};
use super::FpDom;
use crate::num::{ieee, RoundingMode};

use Split::{Finite, Sign, Whole};

macro_rules! binary {
    ($fvis:vis $fwd:ident, $bx:ident, $by:ident, $split:expr, $op:path, $what:literal,
     |$z:ident, $x:ident, $y:ident| $inv_x:expr, $inv_y:expr) => {
        #[doc = concat!("Encloses `{", $what, "}` over the domains (exact at points).")]
        $fvis fn $fwd(rm: RoundingMode, x: &FpDom, y: &FpDom) -> FpDom {
            let f = x.fmt;
            fwd(f, [x, y], [$split, $split], |[a, b]| $op(f, rm, a, b))
        }

        #[doc = concat!("The new domain of `x` in `z = ", $what, "`.")]
        pub fn $bx(rm: RoundingMode, z: &FpDom, x: &FpDom, y: &FpDom) -> FpDom {
            let f = x.fmt;
            bwd(
                z,
                [x, y],
                0,
                [$split, $split],
                |[a, b]| $op(f, rm, a, b),
                |$z, &[_, $y]| $inv_x,
            )
        }

        #[doc = concat!("The new domain of `y` in `z = ", $what, "`.")]
        pub fn $by(rm: RoundingMode, z: &FpDom, x: &FpDom, y: &FpDom) -> FpDom {
            let f = x.fmt;
            bwd(
                z,
                [x, y],
                1,
                [$split, $split],
                |[a, b]| $op(f, rm, a, b),
                |$z, &[$x, _]| $inv_y,
            )
        }
    };
}

// The last two expressions are real inverses (`x` from `z` and `y`, `y` from `z` and `x`)
// that only seed the exact lattice search.
binary!(
    fwd_add_hull,
    bwd_add_x,
    bwd_add_y,
    Finite,
    ieee::add,
    "x + y",
    |z, x, y| z - y,
    z - x
);
binary!(
    fwd_sub_hull,
    bwd_sub_x,
    bwd_sub_y,
    Finite,
    ieee::sub,
    "x - y",
    |z, x, y| z + y,
    x - z
);
binary!(
    pub fwd_mul,
    bwd_mul_x,
    bwd_mul_y,
    Sign,
    ieee::mul,
    "x · y",
    |z, x, y| z / y,
    z / x
);
binary!(
    pub fwd_div,
    bwd_div_x,
    bwd_div_y,
    Sign,
    ieee::div,
    "x / y",
    |z, x, y| z * y,
    x / z
);

/// Which zeros a sum can be (IEEE 754 §6.3): `-0` only as `-0 + -0`, or in RTN as any exact
/// zero sum other than `+0 + +0`; `+0` only as `+0 + +0`, or outside RTN as any other exact
/// zero sum. The lattice hull of a box whose results straddle zero holds both zeros; this
/// keeps only the possible ones (an exact zero sum of non-zero operands exists whenever the
/// hull straddles zero, so only the sign needs deciding).
fn sum_zeros(rm: RoundingMode, mut z: FpDom, x: &FpDom, y_neg0: bool, y_pos0: bool) -> FpDom {
    let f = x.fmt;
    let (x_neg0, x_pos0) = (x.contains(ieee::neg(f, 0)), x.contains(0));
    if rm == RoundingMode::Rtn {
        z.pos_zero &= x_pos0 && y_pos0;
    } else {
        z.neg_zero &= x_neg0 && y_neg0;
    }
    z.normalized()
}

/// Encloses `{x + y}` (exact at points; zero signs as IEEE 754 §6.3 allows).
pub fn fwd_add(rm: RoundingMode, x: &FpDom, y: &FpDom) -> FpDom {
    let f = y.fmt;
    let (y_neg0, y_pos0) = (y.contains(ieee::neg(f, 0)), y.contains(0));
    sum_zeros(rm, fwd_add_hull(rm, x, y), x, y_neg0, y_pos0)
}

/// Encloses `{x - y}` (= `x + (-y)`, zero signs included).
pub fn fwd_sub(rm: RoundingMode, x: &FpDom, y: &FpDom) -> FpDom {
    let f = y.fmt;
    let (y_neg0, y_pos0) = (y.contains(0), y.contains(ieee::neg(f, 0)));
    sum_zeros(rm, fwd_sub_hull(rm, x, y), x, y_neg0, y_pos0)
}

const FMA_SPLIT: [Split; 3] = [Sign, Sign, Finite];

/// Encloses `{fma(a, b, c)} = {a·b + c, rounded once}`.
pub fn fwd_fma(rm: RoundingMode, a: &FpDom, b: &FpDom, c: &FpDom) -> FpDom {
    let f = a.fmt;
    fwd(f, [a, b, c], FMA_SPLIT, |[p, q, r]| {
        ieee::fma(f, rm, p, q, r)
    })
}

/// The new domain of `a` in `z = fma(a, b, c)`.
pub fn bwd_fma_a(rm: RoundingMode, z: &FpDom, a: &FpDom, b: &FpDom, c: &FpDom) -> FpDom {
    let f = a.fmt;
    bwd(
        z,
        [a, b, c],
        0,
        FMA_SPLIT,
        |[p, q, r]| ieee::fma(f, rm, p, q, r),
        |z, &[_, q, r]| (z - r) / q,
    )
}

/// The new domain of `b` in `z = fma(a, b, c)`.
pub fn bwd_fma_b(rm: RoundingMode, z: &FpDom, a: &FpDom, b: &FpDom, c: &FpDom) -> FpDom {
    let f = a.fmt;
    bwd(
        z,
        [a, b, c],
        1,
        FMA_SPLIT,
        |[p, q, r]| ieee::fma(f, rm, p, q, r),
        |z, &[p, _, r]| (z - r) / p,
    )
}

/// The new domain of `c` in `z = fma(a, b, c)`.
pub fn bwd_fma_c(rm: RoundingMode, z: &FpDom, a: &FpDom, b: &FpDom, c: &FpDom) -> FpDom {
    let f = a.fmt;
    bwd(
        z,
        [a, b, c],
        2,
        FMA_SPLIT,
        |[p, q, r]| ieee::fma(f, rm, p, q, r),
        |z, &[p, q, _]| z - p * q,
    )
}

/// Encloses `{√x}` (NaN for negative `x`, `√-0 = -0`).
pub fn fwd_sqrt(rm: RoundingMode, x: &FpDom) -> FpDom {
    let f = x.fmt;
    fwd(f, [x], [Sign], |[a]| ieee::sqrt(f, rm, a))
}

/// The new domain of `x` in `z = √x`.
pub fn bwd_sqrt_x(rm: RoundingMode, z: &FpDom, x: &FpDom) -> FpDom {
    let f = x.fmt;
    bwd(z, [x], 0, [Sign], |[a]| ieee::sqrt(f, rm, a), |z, _| z * z)
}

/// `{-x}`: the range mirrored, the zero flags swapped (exact: negation is a bijection).
pub fn fwd_neg(x: &FpDom) -> FpDom {
    FpDom {
        fmt: x.fmt,
        nan: x.nan,
        lo: -x.hi + 0.0,
        hi: -x.lo + 0.0,
        neg_zero: x.pos_zero,
        pos_zero: x.neg_zero,
    }
    .normalized()
}

/// The new domain of `x` in `z = -x`: `x ∈ -z`.
pub fn bwd_neg_x(z: &FpDom, x: &FpDom) -> FpDom {
    x.intersect(&fwd_neg(z))
}

/// Encloses `{|x|}`.
pub fn fwd_abs(x: &FpDom) -> FpDom {
    let f = x.fmt;
    fwd(f, [x], [Sign], |[a]| ieee::abs(f, a))
}

/// The new domain of `x` in `z = |x|`.
pub fn bwd_abs_x(z: &FpDom, x: &FpDom) -> FpDom {
    let f = x.fmt;
    bwd(z, [x], 0, [Sign], |[a]| ieee::abs(f, a), |z, _| z)
}

macro_rules! minmax {
    ($fwd:ident, $bx:ident, $by:ident, $op:path, $what:literal) => {
        #[doc = concat!("Encloses `{", $what, "}` (a NaN operand is ignored).")]
        pub fn $fwd(x: &FpDom, y: &FpDom) -> FpDom {
            let f = x.fmt;
            fwd(f, [x, y], [Whole, Whole], |[a, b]| $op(f, a, b))
        }

        #[doc = concat!("The new domain of `x` in `z = ", $what, "`.")]
        pub fn $bx(z: &FpDom, x: &FpDom, y: &FpDom) -> FpDom {
            let f = x.fmt;
            bwd(
                z,
                [x, y],
                0,
                [Whole, Whole],
                |[a, b]| $op(f, a, b),
                |z, _| z,
            )
        }

        #[doc = concat!("The new domain of `y` in `z = ", $what, "`.")]
        pub fn $by(z: &FpDom, x: &FpDom, y: &FpDom) -> FpDom {
            let f = x.fmt;
            bwd(
                z,
                [x, y],
                1,
                [Whole, Whole],
                |[a, b]| $op(f, a, b),
                |z, _| z,
            )
        }
    };
}

minmax!(fwd_min, bwd_min_x, bwd_min_y, ieee::min, "fmin(x, y)");
minmax!(fwd_max, bwd_max_x, bwd_max_y, ieee::max, "fmax(x, y)");
