//! Bit reinterpretation between a float and a machine integer of its width: `u = fp_bits(x)`
//! (`Op::FpToBits`, the IEEE encoding, NaN as the canonical quiet NaN pattern) and
//! `x = fp_of_bits(u)` (`Op::FpOfBits`, every NaN pattern decodes to NaN).
//!
//! The idea: with the sign bit clear, the order of the non-negative floats (`+0` to `+inf`)
//! is the unsigned order of their patterns `[0, I]` (`I` the pattern of `+inf`); with it set,
//! the negative floats (`-0` down to `-inf`) fill `[S, S|I]` in reverse order (`S` the sign
//! bit); everything else is NaN: `(I, S)` and `(S|I, 2^w)`. So an [`FpDom`] (value range,
//! zero signs, NaN) maps to at most a positive and a negative pattern interval plus the NaN
//! patterns, and a pattern interval maps back to at most a positive and a negative value
//! range plus NaN. Every piece is cut by the other side's box before the hull is taken,
//! so the results are exact on points (a float gives its one pattern and back) and sound
//! (outward) otherwise. Integer boxes are in the values of the machine type (signed types
//! read through their two's complement patterns, [`bv::to_pattern`] / [`bv::from_pattern`]).

use super::FpDom;
use crate::contractors::bv::{self, IntIv};
use crate::num::{ieee, FpFormat, IntType, Rational, RoundingMode};

/// Which NaN patterns stand for NaN: `fp_bits` produces only the canonical one, while
/// `fp_of_bits` accepts them all.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NanPatterns {
    Canonical,
    All,
}

fn sign(f: FpFormat) -> i128 {
    1i128 << (f.total_bits() - 1)
}

fn inf(f: FpFormat) -> i128 {
    f.inf_bits() as i128
}

/// The pattern of the largest float of `f` that is `<= v` (`v >= 0`), as a magnitude.
fn mag_down(f: FpFormat, v: f64) -> i128 {
    match ieee::from_f64(f, v + 0.0) {
        Some(b) => b as i128,
        None => f.round_rational(
            &Rational::from_float(v).unwrap_or_default(),
            RoundingMode::Rtn,
        ) as i128,
    }
}

/// The pattern of the smallest float of `f` that is `>= v` (`v >= 0`).
fn mag_up(f: FpFormat, v: f64) -> i128 {
    match ieee::from_f64(f, v + 0.0) {
        Some(b) => b as i128,
        None => f.round_rational(
            &Rational::from_float(v).unwrap_or_default(),
            RoundingMode::Rtp,
        ) as i128,
    }
}

/// The unsigned patterns of the members of `x`: the positive values (with `+0`), the
/// negative ones (with `-0`), and the NaN patterns (one piece for the canonical NaN, two
/// for all of them). Empty pieces are [`IntIv::EMPTY`].
pub fn patterns(x: &FpDom, nans: NanPatterns) -> [IntIv; 4] {
    let f = x.fmt;
    let (s, i) = (sign(f), inf(f));
    let mut out = [IntIv::EMPTY; 4];
    if x.has_values() {
        // non-negative values
        if x.hi >= 0.0 {
            let start = if x.lo > 0.0 {
                Some(mag_down(f, x.lo))
            } else if x.pos_zero {
                Some(0)
            } else if x.hi > 0.0 {
                Some(1)
            } else {
                None
            };
            if let Some(start) = start {
                out[0] = IntIv::new(start, mag_up(f, x.hi));
            }
        }
        // non-positive values, patterns by magnitude
        if x.lo <= 0.0 {
            let start = if x.hi < 0.0 {
                Some(mag_down(f, -x.hi))
            } else if x.neg_zero {
                Some(0)
            } else if x.lo < 0.0 {
                Some(1)
            } else {
                None
            };
            if let Some(start) = start {
                out[1] = IntIv::new(s | start, s | mag_up(f, -x.lo));
            }
        }
    }
    if x.nan {
        match nans {
            NanPatterns::Canonical => out[2] = IntIv::point(f.nan_bits() as i128),
            NanPatterns::All => {
                out[2] = IntIv::new(i + 1, s - 1);
                out[3] = IntIv::new(s | (i + 1), 2 * s - 1);
            }
        }
    }
    out
}

/// The floats whose patterns lie in `p` (unsigned patterns; with [`NanPatterns::Canonical`]
/// only the canonical NaN pattern counts as NaN).
pub fn decode(f: FpFormat, p: IntIv, nans: NanPatterns) -> FpDom {
    let (s, i) = (sign(f), inf(f));
    let val = |m: i128| ieee::to_f64(f, m as u64);
    let mut d = FpDom::empty(f);
    let pos = p.intersect(IntIv::new(0, i));
    if !pos.is_empty() {
        d = d.hull(&FpDom {
            fmt: f,
            nan: false,
            lo: val(pos.lo),
            hi: val(pos.hi),
            neg_zero: false,
            pos_zero: pos.lo == 0,
        });
    }
    let neg = p.intersect(IntIv::new(s, s | i));
    if !neg.is_empty() {
        d = d.hull(&FpDom {
            fmt: f,
            nan: false,
            lo: -val(neg.hi - s),
            hi: -val(neg.lo - s),
            neg_zero: neg.lo == s,
            pos_zero: false,
        });
    }
    d.nan = match nans {
        NanPatterns::Canonical => p.contains(f.nan_bits() as i128),
        NanPatterns::All => {
            !p.intersect(IntIv::new(i + 1, s - 1)).is_empty()
                || !p.intersect(IntIv::new(s | (i + 1), 2 * s - 1)).is_empty()
        }
    };
    d.normalized()
}

/// The values of type `t` whose patterns are in any of `pieces`, cut by `target`, as one
/// interval.
fn values_in(t: IntType, pieces: &[IntIv], target: IntIv) -> IntIv {
    pieces.iter().fold(IntIv::EMPTY, |acc, &p| {
        if p.is_empty() {
            return acc;
        }
        acc.hull(bv::from_pattern(t, p).cut(target))
    })
}

/// The floats whose patterns are the patterns of the values in `u` (a box of type `t`).
fn decode_values(f: FpFormat, t: IntType, u: IntIv, nans: NanPatterns) -> FpDom {
    bv::to_pattern(t, u)
        .pieces()
        .iter()
        .fold(FpDom::empty(f), |acc, &p| acc.hull(&decode(f, p, nans)))
}

/// `u = fp_bits(x)` forward: the values of `u` (type `t`, as wide as `x`'s format) in the
/// box `out` that are encodings of members of `x`, as one interval.
pub fn fwd_fp_bits(t: IntType, x: &FpDom, out: IntIv) -> IntIv {
    values_in(t, &patterns(x, NanPatterns::Canonical), out)
}

/// `u = fp_bits(x)` backward: the members of `x` whose encoding is a value in `out`.
pub fn bwd_fp_bits_x(t: IntType, out: IntIv, x: &FpDom) -> FpDom {
    decode_values(x.fmt, t, out, NanPatterns::Canonical).intersect(x)
}

/// `x = fp_of_bits(u)` forward: the floats encoded by the values of `u` (type `t`).
pub fn fwd_fp_of_bits(f: FpFormat, t: IntType, u: IntIv) -> FpDom {
    decode_values(f, t, u, NanPatterns::All)
}

/// `x = fp_of_bits(u)` backward: the values in `u` that encode members of `z`.
pub fn bwd_fp_of_bits_u(t: IntType, z: &FpDom, u: IntIv) -> IntIv {
    values_in(t, &patterns(z, NanPatterns::All), u)
}

#[cfg(test)]
mod tests {
    use super::*;

    const U32: IntType = IntType::new(32, false);
    const I32: IntType = IntType::new(32, true);
    const U64: IntType = IntType::new(64, false);
    const F: FpFormat = FpFormat::F32;
    const D: FpFormat = FpFormat::F64;

    fn p32(v: f32) -> i128 {
        v.to_bits() as i128
    }

    #[test]
    fn points_map_to_points() {
        let all = bv::range(U32);
        for v in [
            0.0f32,
            -0.0,
            1.0,
            -1.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-45,
        ] {
            let x = FpDom::point(F, v.to_bits() as u64);
            assert_eq!(fwd_fp_bits(U32, &x, all), IntIv::point(p32(v)), "{v}");
            let back = bwd_fp_bits_x(U32, IntIv::point(p32(v)), &FpDom::full(F));
            assert_eq!(back, x, "{v}");
            assert_eq!(fwd_fp_of_bits(F, U32, IntIv::point(p32(v))), x);
            assert_eq!(bwd_fp_of_bits_u(U32, &x, all), IntIv::point(p32(v)), "{v}");
        }
        let nan = FpDom::nan_only(F);
        assert_eq!(fwd_fp_bits(U32, &nan, all), IntIv::point(0x7fc0_0000));
        // a non-canonical NaN pattern is no fp_bits result
        assert!(bwd_fp_bits_x(U32, IntIv::point(0x7fc0_0001), &FpDom::full(F)).is_empty());
        assert_eq!(fwd_fp_of_bits(F, U32, IntIv::point(0xffc0_0001)), nan);
        // signed: -1 is the pattern 0xffffffff, a NaN
        assert_eq!(fwd_fp_of_bits(F, I32, IntIv::point(-1)), nan);
        let m1 = FpDom::point(F, (-1.0f32).to_bits() as u64);
        let v = p32(-1.0) - (1 << 32);
        assert_eq!(bwd_fp_of_bits_u(I32, &m1, bv::range(I32)), IntIv::point(v));
    }

    #[test]
    fn ranges_and_the_order_of_patterns() {
        // x > 1 means patterns above 1.0's (plus nothing negative)
        let x = FpDom::range(D, 1.0f64.next_up(), f64::INFINITY);
        let all = bv::range(U64);
        let u = fwd_fp_bits(U64, &x, all);
        assert_eq!(u.lo, 1.0f64.next_up().to_bits() as i128);
        assert_eq!(u.hi, f64::INFINITY.to_bits() as i128);
        // and u < bits(1.0) leaves nothing
        let cut = fwd_fp_bits(U64, &x, IntIv::new(0, 1.0f64.to_bits() as i128 - 1));
        assert!(cut.is_empty());
        // negative values: reversed
        let x = FpDom::range(F, -2.0, -1.0);
        assert_eq!(
            fwd_fp_bits(U32, &x, bv::range(U32)),
            IntIv::new(p32(-1.0), p32(-2.0))
        );
        // patterns from +0 to the first negative ones: [-tiny, +inf] with both zeros, NaN
        let z = fwd_fp_of_bits(F, U32, IntIv::new(0, 0x8000_0001));
        assert!(z.nan && z.lo == -1e-45f32 as f64 && z.hi == f64::INFINITY);
        assert!(z.pos_zero && z.neg_zero);
        // without -0: the zero flags follow the pieces
        let x = FpDom {
            neg_zero: false,
            ..FpDom::range(F, -1.0, 1.0)
        };
        let u = fwd_fp_bits(U32, &x, IntIv::new(0x8000_0000, 0x8000_0000));
        assert!(u.is_empty());
    }
}
