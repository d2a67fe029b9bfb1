//! An independent reference for [`super::ieee`]: MPFR (through `rug` and the raw
//! `gmp-mpfr-sys` bindings) emulating binary32/binary64, for differential tests, the
//! `ieee_diff` example and benchmarks. Compiled only with `cfg(test)` or the `reference`
//! feature; nothing in the solver calls it.
//!
//! Independence: this module never calls `ieee.rs` or `FpFormat::round_rational`; it uses
//! only the format's constants (precision, the canonical NaN pattern) and MPFR's own
//! rounding. The emulation is the one MPFR documents (manual, "mpfr_subnormalize"):
//! - the result is computed at the format's precision (24 / 53) with the current exponent
//!   range narrowed to the format's (MPFR's significands lie in [1/2, 1), so binary64 is
//!   `emin = -1073, emax = 1024` and binary32 `emin = -148, emax = 128`): MPFR then rounds
//!   overflow to ±inf or ±max by the rounding direction as IEEE 754 does;
//! - `mpfr_subnormalize` with the ternary value of that rounding re-rounds results in the
//!   subnormal range to the fewer bits available there without double rounding.
//!
//! MPFR's exponent range is per thread (gmp-mpfr-sys configures MPFR with
//! `--enable-thread-safe`), and a guard restores it, so other `rug` users are unaffected.
//!
//! roundTiesToAway has no MPFR rounding mode for arithmetic. It differs from ties-to-even
//! only on an exact tie, and a tie (a midpoint between two adjacent floats) has at most
//! `precision + 1` significant bits. So: compute the exact result at `precision + 2` bits
//! with the default (huge) exponent range; if that is inexact, there is no tie and RNA = RNE;
//! if it is exact, round it down and up (toward zero, away from zero) in the emulated format
//! and compare it with the exact midpoint of the two: equal means a tie, which RNA rounds
//! away from zero.

use super::{FpFormat, Rational, RoundingMode};
use gmp_mpfr_sys::mpfr;
use num_bigint::BigInt;
use rug::Float;
use std::os::raw::c_int;

fn mpfr_range(f: FpFormat) -> (mpfr::exp_t, mpfr::exp_t) {
    match f {
        FpFormat::F64 => (-1073, 1024),
        FpFormat::F32 => (-148, 128),
    }
}

/// Narrows MPFR's (thread-local) exponent range to a format's while alive.
struct RangeGuard {
    emin: mpfr::exp_t,
    emax: mpfr::exp_t,
}

impl RangeGuard {
    fn new(f: FpFormat) -> RangeGuard {
        let (lo, hi) = mpfr_range(f);
        // SAFETY: plain setters of MPFR's thread-local exponent range; the values are within
        // MPFR's allowed range, checked by the asserts.
        unsafe {
            let g = RangeGuard {
                emin: mpfr::get_emin(),
                emax: mpfr::get_emax(),
            };
            assert_eq!(mpfr::set_emin(lo), 0);
            assert_eq!(mpfr::set_emax(hi), 0);
            g
        }
    }
}

impl Drop for RangeGuard {
    fn drop(&mut self) {
        // SAFETY: restores the values read in `new`.
        unsafe {
            mpfr::set_emin(self.emin);
            mpfr::set_emax(self.emax);
        }
    }
}

fn rnd(rm: RoundingMode) -> mpfr::rnd_t {
    match rm {
        RoundingMode::Rne => mpfr::rnd_t::RNDN,
        RoundingMode::Rtp => mpfr::rnd_t::RNDU,
        RoundingMode::Rtn => mpfr::rnd_t::RNDD,
        RoundingMode::Rtz => mpfr::rnd_t::RNDZ,
        RoundingMode::Rna => unreachable!("RNA is emulated, see the module doc"),
    }
}

/// An operation writing its correctly rounded result into `dst` (at `dst`'s precision) and
/// returning MPFR's ternary value.
type Op<'a> = &'a dyn Fn(*mut mpfr::mpfr_t, mpfr::rnd_t) -> c_int;

/// The operation's result in the emulated format, rounded with `r` (not RNA).
fn emulate(f: FpFormat, r: mpfr::rnd_t, op: Op) -> Float {
    let mut dst = Float::new(f.precision());
    let _g = RangeGuard::new(f);
    let d = dst.as_raw_mut();
    let t = op(d, r);
    // SAFETY: `dst` is an initialised mpfr_t holding the result of `op`.
    unsafe {
        let t = mpfr::check_range(d, t, r);
        mpfr::subnormalize(d, t, r);
    }
    dst
}

/// The operation's result rounded in mode `rm` (RNA emulated as described in the module doc).
fn round_op(f: FpFormat, rm: RoundingMode, op: Op) -> Float {
    if rm != RoundingMode::Rna {
        return emulate(f, rnd(rm), op);
    }
    let rne = emulate(f, mpfr::rnd_t::RNDN, op);
    let mut w = Float::new(f.precision() + 2);
    // with MPFR's default exponent range, which no float result leaves
    let t = op(w.as_raw_mut(), mpfr::rnd_t::RNDN);
    if t != 0 || !w.is_normal() {
        // inexact at precision + 2: not a midpoint; or a zero / NaN / infinity, never a tie
        return rne;
    }
    let set_w = |d: *mut mpfr::mpfr_t, r: mpfr::rnd_t| unsafe { mpfr::set(d, w.as_raw(), r) };
    let lo = emulate(f, mpfr::rnd_t::RNDZ, &set_w);
    let hi = emulate(f, mpfr::rnd_t::RNDA, &set_w);
    if lo == hi || !hi.is_finite() {
        // w is a float of the format; or w is beyond the largest float, where RNA and RNE
        // both overflow to infinity (the largest float has an odd significand)
        return rne;
    }
    // lo, hi have at most 53 bits and adjacent exponents: their sum is exact at 256 bits
    let mid = Float::with_val(256, &lo + &hi) / 2u32;
    if mid == w {
        hi
    } else {
        rne
    }
}

/// An operand as an exact MPFR number (NaN stays NaN, signed zeros keep their sign).
fn operand(f: FpFormat, x: u64) -> Float {
    match f {
        FpFormat::F64 => Float::with_val(53, f64::from_bits(x)),
        FpFormat::F32 => Float::with_val(24, f32::from_bits(x as u32)),
    }
}

/// The bits of a result that is a value of format `f` (NaN → the canonical NaN).
fn result_bits(f: FpFormat, r: &Float) -> u64 {
    if r.is_nan() {
        return f.nan_bits();
    }
    // exact: the value is representable in the target type (incl. subnormals, ±0, ±inf)
    match f {
        FpFormat::F64 => r.to_f64().to_bits(),
        FpFormat::F32 => {
            let v = r.to_f64();
            let s = v as f32;
            assert_eq!(
                s as f64, v,
                "emulated binary32 result is not a binary32 value"
            );
            s.to_bits() as u64
        }
    }
}

macro_rules! raw {
    ($x:expr) => {
        $x.as_raw()
    };
}

pub fn add(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    let (a, b) = (operand(f, x), operand(f, y));
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::add(d, raw!(a), raw!(b), r) };
    result_bits(f, &round_op(f, rm, &op))
}

pub fn sub(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    let (a, b) = (operand(f, x), operand(f, y));
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::sub(d, raw!(a), raw!(b), r) };
    result_bits(f, &round_op(f, rm, &op))
}

pub fn mul(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    let (a, b) = (operand(f, x), operand(f, y));
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::mul(d, raw!(a), raw!(b), r) };
    result_bits(f, &round_op(f, rm, &op))
}

pub fn div(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    let (a, b) = (operand(f, x), operand(f, y));
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::div(d, raw!(a), raw!(b), r) };
    result_bits(f, &round_op(f, rm, &op))
}

pub fn sqrt(f: FpFormat, rm: RoundingMode, x: u64) -> u64 {
    let a = operand(f, x);
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::sqrt(d, raw!(a), r) };
    result_bits(f, &round_op(f, rm, &op))
}

pub fn fma(f: FpFormat, rm: RoundingMode, x: u64, y: u64, z: u64) -> u64 {
    let (a, b, c) = (operand(f, x), operand(f, y), operand(f, z));
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::fma(d, raw!(a), raw!(b), raw!(c), r) };
    result_bits(f, &round_op(f, rm, &op))
}

/// Format conversion of a float of `from` into `to`.
pub fn convert(from: FpFormat, to: FpFormat, rm: RoundingMode, x: u64) -> u64 {
    let a = operand(from, x);
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::set(d, raw!(a), r) };
    result_bits(to, &round_op(to, rm, &op))
}

fn to_rug_integer(n: &BigInt) -> rug::Integer {
    rug::Integer::from_str_radix(&n.to_str_radix(16), 16).expect("hex digits")
}

/// A rational rounded into format `f` (zero becomes +0).
pub fn from_rational(f: FpFormat, rm: RoundingMode, q: &Rational) -> u64 {
    let q = rug::Rational::from((to_rug_integer(q.numer()), to_rug_integer(q.denom())));
    let op = |d: *mut mpfr::mpfr_t, r| unsafe { mpfr::set_q(d, q.as_raw(), r) };
    result_bits(f, &round_op(f, rm, &op))
}

/// C's truncating cast to an integer; `None` for NaN and infinities.
pub fn to_integer_trunc(f: FpFormat, x: u64) -> Option<BigInt> {
    let a = operand(f, x);
    let i = a.to_integer_round(rug::float::Round::Zero)?.0;
    Some(BigInt::parse_bytes(format!("{i:x}").as_bytes(), 16).expect("hex digits"))
}

/// Random inputs for differential tests: uniform bit patterns mixed with special values and
/// deliberately constructed hard cases (ties, cancellation, subnormal and overflowing
/// results, exponent gaps of 0..70).
pub mod gen {
    use super::FpFormat;

    /// splitmix64: a small seeded generator (no dependency).
    pub struct Rng(pub u64);

    impl Rng {
        pub fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        pub fn below(&mut self, n: u64) -> u64 {
            self.next_u64() % n
        }
        pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as u64) as i64
        }
        pub fn coin(&mut self) -> bool {
            self.next_u64() & 1 == 1
        }
    }

    fn frac_bits(f: FpFormat) -> u32 {
        f.precision() - 1
    }
    fn sign(f: FpFormat) -> u64 {
        1u64 << (f.total_bits() - 1)
    }
    fn max_biased(f: FpFormat) -> i64 {
        (1i64 << f.exponent_bits()) - 2
    }
    /// The biased exponent field of a finite float (0 for zeros and subnormals).
    fn biased(f: FpFormat, x: u64) -> i64 {
        ((x & !sign(f)) >> frac_bits(f)) as i64
    }

    /// `±m · 2^(e - frac_bits)` for a significand `m < 2^precision` and a biased-style
    /// exponent `e` (1 = the smallest normal binade), when that is a float of the format:
    /// `m` is shifted right (dropping bits) into the subnormal range and saturates to
    /// infinity above; so the result is always a valid pattern near the intended value.
    pub fn compose(f: FpFormat, neg: bool, e: i64, m: u64) -> u64 {
        let p = f.precision() as i64;
        let s = if neg { sign(f) } else { 0 };
        if m == 0 {
            return s;
        }
        // normalise m to exactly p bits
        let bits = 64 - m.leading_zeros() as i64;
        let (mut m, mut e) = (m, e);
        if bits < p {
            m <<= p - bits;
            e -= p - bits;
        } else if bits > p {
            m >>= bits - p;
            e += bits - p;
        }
        if e > max_biased(f) {
            return s | f.inf_bits();
        }
        if e < 1 {
            let shift = 1 - e;
            if shift >= p {
                return s;
            }
            return s | (m >> shift);
        }
        s | ((e as u64) << frac_bits(f)) | (m & ((1u64 << frac_bits(f)) - 1))
    }

    /// Special values of a format.
    pub fn specials(f: FpFormat) -> Vec<u64> {
        let s = sign(f);
        let fb = frac_bits(f);
        let one = (f.emax() as u64) << fb;
        let mut v = vec![
            0,
            1,                                       // smallest subnormal
            2,                                       // second subnormal
            (1u64 << fb) - 1,                        // largest subnormal
            1u64 << fb,                              // smallest normal
            (1u64 << fb) + 1,                        // next to it
            f.max_finite_bits(),                     // largest finite
            f.max_finite_bits() - 1,                 // its predecessor
            f.inf_bits(),                            // infinity
            f.nan_bits(),                            // canonical quiet NaN
            f.inf_bits() | 1,                        // signalling NaN with a payload
            one,                                     // 1
            one - 1,                                 // predecessor of 1
            one + 1,                                 // successor of 1
            one | (1u64 << (fb - 1)),                // 1.5
            one + (1u64 << fb),                      // 2
            (f.emax() as u64 + fb as u64) << fb,     // 2^(p-1)
            (f.emax() as u64 + fb as u64 + 1) << fb, // 2^p
            (f.emax() as u64 + fb as u64 + 1) << fb | 1,
        ];
        let n = v.len();
        for i in 0..n {
            v.push(v[i] | s);
        }
        v
    }

    /// One random float: specials, uniform bits, or random significands with few
    /// significant bits (exact results and ties are common then) at chosen exponents.
    pub fn float(f: FpFormat, rng: &mut Rng) -> u64 {
        let p = f.precision() as u64;
        match rng.below(8) {
            0 | 1 => {
                let s = specials(f);
                s[rng.below(s.len() as u64) as usize]
            }
            2 | 3 => rng.next_u64() & ((sign(f) << 1).wrapping_sub(1)),
            4 => {
                // near 1 (exponents within ±40)
                let e = f.emax() + rng.range(-40, 40);
                compose(f, rng.coin(), e, rng.next_u64() >> (64 - p))
            }
            5 => {
                // few significant bits
                let k = rng.range(1, p as i64) as u32;
                let m = (rng.next_u64() >> (64 - k)) | 1;
                let e = rng.range(-(p as i64), max_biased(f));
                compose(f, rng.coin(), e, m)
            }
            6 => {
                // subnormal or near the smallest normal
                let m = rng.next_u64() >> (64 - p);
                compose(f, rng.coin(), rng.range(-(p as i64), 3), m)
            }
            _ => {
                // near the overflow threshold
                let m = rng.next_u64() >> (64 - p);
                compose(f, rng.coin(), max_biased(f) - rng.range(0, 3), m)
            }
        }
    }

    /// A float whose exponent is `x`'s minus `gap` (random significand), or random if `x` is
    /// not finite.
    fn with_gap(f: FpFormat, rng: &mut Rng, x: u64, gap: i64) -> u64 {
        let p = f.precision() as u64;
        if f.is_nan(x) || f.is_inf(x) {
            return float(f, rng);
        }
        let m = match rng.below(3) {
            0 => rng.next_u64() >> (64 - p),
            1 => 1u64 << (p - 1),
            _ => (rng.next_u64() >> (64 - rng.range(1, 4) as u64)) | 1,
        };
        compose(f, rng.coin(), biased(f, x).max(1) - gap, m)
    }

    /// A pair of operands for a binary operation named `op` (add, sub, mul, div, ...).
    pub fn pair(f: FpFormat, rng: &mut Rng, op: &str) -> (u64, u64) {
        let p = f.precision() as i64;
        let x = float(f, rng);
        let y = match rng.below(4) {
            0 | 1 => float(f, rng),
            2 => {
                // exponent gap 0..70 (and negative: the other operand is the larger)
                let g = rng.range(-4, 70);
                with_gap(f, rng, x, g)
            }
            _ => match op {
                "mul" | "fma" => {
                    // odd significands of k and p + 2 - k bits: the exact product has p + 1
                    // or p + 2 bits, and with p + 1 bits it is a tie
                    let k = rng.range(2, p);
                    let a = (rng.next_u64() >> (64 - k)) | 1 | (1u64 << (k - 1));
                    let kb = p + 2 - k;
                    let b = (rng.next_u64() >> (64 - kb)) | 1 | (1u64 << (kb - 1));
                    // exponents: normal, underflowing or overflowing products
                    let ex = rng.range(1, max_biased(f));
                    let ey = match rng.below(3) {
                        0 => f.emax() * 2 - ex + rng.range(-3, 3),
                        1 => f.emax() - ex + rng.range(-p - 3, 2) + 1,
                        _ => f.emax() * 3 - ex + rng.range(-3, 3),
                    };
                    let x2 = compose(f, rng.coin(), ex, a);
                    let y2 = compose(f, rng.coin(), ey, b);
                    return (x2, y2);
                }
                "div" => {
                    // a quotient landing in the subnormal range, where ties exist:
                    // x near the smallest normal divided by a power of two
                    let m = rng.next_u64() >> (64 - p as u64);
                    let x2 = compose(f, rng.coin(), rng.range(1, p + 2), m | 1);
                    let y2 = compose(f, rng.coin(), f.emax() + rng.range(1, p + 2), 1);
                    return (x2, y2);
                }
                _ => {
                    // add/sub: y = ±(half an ulp of x) ± a little, a tie or a near tie
                    if f.is_nan(x) || f.is_inf(x) {
                        float(f, rng)
                    } else {
                        let e = biased(f, x).max(1) - p;
                        let m = match rng.below(3) {
                            0 => 1u64 << (p - 1),
                            1 => (1u64 << (p - 1)) + 1,
                            _ => (1u64 << p) - 1,
                        };
                        let y = compose(f, rng.coin(), e, m);
                        if op == "sub" {
                            y ^ sign(f)
                        } else {
                            y
                        }
                    }
                }
            },
        };
        if rng.coin() {
            (x, y)
        } else {
            (y, x)
        }
    }

    /// Operands of `fma(x, y, z)`: products with hard rounding plus an addend that cancels
    /// the product, is half an ulp of it, or is unrelated.
    pub fn triple(f: FpFormat, rng: &mut Rng) -> (u64, u64, u64) {
        let (x, y) = pair(f, rng, "mul");
        let z = match rng.below(4) {
            0 => float(f, rng),
            1 => {
                // -(x·y rounded) ± a few ulps: massive cancellation
                let px = crate::num::ieee_ref::mul(f, super::RoundingMode::Rtz, x, y);
                let step = rng.range(-2, 2);
                let k = (px & !sign(f)) as i64 + step;
                if f.is_nan(px) || k < 0 || k as u64 > f.inf_bits() {
                    float(f, rng)
                } else {
                    (k as u64) | (!px & sign(f))
                }
            }
            2 => {
                let g = rng.range(-4, 70);
                with_gap(f, rng, x, g)
            }
            _ => {
                let px = crate::num::ieee_ref::mul(f, super::RoundingMode::Rtz, x, y);
                if f.is_nan(px) || f.is_inf(px) {
                    float(f, rng)
                } else {
                    let e = biased(f, px).max(1) - f.precision() as i64;
                    compose(f, rng.coin(), e, 1u64 << (f.precision() - 1))
                }
            }
        };
        (x, y, z)
    }

    /// A radicand: uniform, special, or an exact square (or a neighbour of one).
    pub fn radicand(f: FpFormat, rng: &mut Rng) -> u64 {
        if rng.coin() {
            return float(f, rng);
        }
        let p = f.precision() as i64;
        let h = (p + 1) / 2;
        let r = (rng.next_u64() >> (64 - h)) | 1;
        let sq = r * r;
        let e = 2 * rng.range(-(p / 2), f.emax() / 2) + 1;
        let x = compose(f, false, e, sq);
        let d = rng.range(-1, 1);
        let k = x as i64 + d;
        if k <= 0 || k as u64 >= f.inf_bits() {
            x
        } else {
            k as u64
        }
    }
}

/// One differential check: an operation, its operands, and the three implementations
/// (`ieee`'s public functions, i.e. the fast path with its fallbacks; `ieee::exact`, the
/// rational path; this module's MPFR reference). Shared by the unit tests, the `ieee_diff`
/// example and the benches.
pub mod diff {
    use super::gen::{self, Rng};
    use super::{FpFormat, Rational, RoundingMode};
    use crate::num::ieee;
    use num_bigint::BigInt;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum DOp {
        Add,
        Sub,
        Mul,
        Div,
        Sqrt,
        Fma,
        /// a float of the other format converted into this one
        Convert,
        /// an integer or a small-denominator rational rounded into the format
        FromRational,
        /// C truncation to an integer (no rounding mode: the same check under each mode)
        ToInt,
    }

    impl DOp {
        pub const ALL: [DOp; 9] = [
            DOp::Add,
            DOp::Sub,
            DOp::Mul,
            DOp::Div,
            DOp::Sqrt,
            DOp::Fma,
            DOp::Convert,
            DOp::FromRational,
            DOp::ToInt,
        ];
        pub fn name(self) -> &'static str {
            match self {
                DOp::Add => "add",
                DOp::Sub => "sub",
                DOp::Mul => "mul",
                DOp::Div => "div",
                DOp::Sqrt => "sqrt",
                DOp::Fma => "fma",
                DOp::Convert => "convert",
                DOp::FromRational => "from_rational",
                DOp::ToInt => "to_int",
            }
        }
        pub fn parse(s: &str) -> Option<DOp> {
            DOp::ALL.into_iter().find(|o| o.name() == s)
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Impl {
        /// `ieee::add` etc.: the fast path where it applies, the exact path elsewhere
        Public,
        /// `ieee::exact::add` etc.
        Exact,
        /// MPFR
        Reference,
    }

    #[derive(Clone, Debug)]
    pub struct Case {
        pub op: DOp,
        pub f: FpFormat,
        pub rm: RoundingMode,
        pub x: u64,
        pub y: u64,
        pub z: u64,
        pub q: Option<Rational>,
    }

    /// The other format (the source of `Convert`).
    pub fn other(f: FpFormat) -> FpFormat {
        match f {
            FpFormat::F32 => FpFormat::F64,
            FpFormat::F64 => FpFormat::F32,
        }
    }

    fn rational(f: FpFormat, rng: &mut Rng) -> Rational {
        let p = f.precision() as i64;
        match rng.below(4) {
            0 => {
                // integers of up to 64 bits: above `precision` bits they round
                let k = rng.range(1, 64);
                let v = rng.next_u64() >> (64 - k);
                let v = BigInt::from(v);
                Rational::from_integer(if rng.coin() { -v } else { v })
            }
            1 => {
                // integer ties: odd (p + 1)-bit integers
                let v = (rng.next_u64() >> (64 - (p + 1))) | 1 | (1u64 << p);
                Rational::from_integer(BigInt::from(v))
            }
            2 => {
                // decimal constants n / 10^k
                let n = BigInt::from(rng.next_u64() >> rng.range(1, 63));
                let d = BigInt::from(10u64).pow(rng.range(0, 19) as u32);
                Rational::new(if rng.coin() { -n } else { n }, d)
            }
            _ => {
                // a float of the wider format divided by a power of two or by 3: ties,
                // subnormal and overflowing magnitudes
                let x = gen::float(FpFormat::F64, rng);
                let v = FpFormat::F64
                    .to_rational(x)
                    .unwrap_or_else(|| Rational::from_integer(BigInt::from(7)));
                let d = if rng.coin() {
                    BigInt::from(1u64) << rng.range(0, 1200) as usize
                } else {
                    BigInt::from(3)
                };
                let m = BigInt::from(1u64) << rng.range(0, 200) as usize;
                v * Rational::new(m, d)
            }
        }
    }

    pub fn gen_case(f: FpFormat, op: DOp, rm: RoundingMode, rng: &mut Rng) -> Case {
        let (mut x, mut y, mut z, mut q) = (0, 0, 0, None);
        match op {
            DOp::Add | DOp::Sub | DOp::Mul | DOp::Div => {
                (x, y) = gen::pair(f, rng, op.name());
            }
            DOp::Sqrt => x = gen::radicand(f, rng),
            DOp::Fma => (x, y, z) = gen::triple(f, rng),
            DOp::Convert => {
                let src = other(f);
                x = gen::float(src, rng);
                if src == FpFormat::F64 && rng.coin() {
                    // a binary64 value that is a binary32 tie or near one
                    let v = f32::from_bits(gen::float(FpFormat::F32, rng) as u32) as f64;
                    if v.is_finite() && v != 0.0 {
                        let ulp = (v.abs() as f32).to_bits();
                        let next = f32::from_bits(ulp + 1) as f64;
                        let half = (next - v.abs()) / 2.0;
                        let d = [half, half * 1.0000001, half * 0.9999999][rng.below(3) as usize];
                        x = (v + v.signum() * d).to_bits();
                    }
                }
            }
            DOp::FromRational => q = Some(rational(f, rng)),
            DOp::ToInt => x = gen::float(f, rng),
        }
        Case {
            op,
            f,
            rm,
            x,
            y,
            z,
            q,
        }
    }

    /// A result: float bits, or the integer of `ToInt`.
    #[derive(Clone, PartialEq, Eq, Debug)]
    pub enum Out {
        Bits(u64),
        Int(Option<BigInt>),
    }

    pub fn eval(imp: Impl, c: &Case) -> Out {
        use Impl::*;
        let (f, rm, x, y, z) = (c.f, c.rm, c.x, c.y, c.z);
        let bits = match (c.op, imp) {
            (DOp::Add, Public) => ieee::add(f, rm, x, y),
            (DOp::Add, Exact) => ieee::exact::add(f, rm, x, y),
            (DOp::Add, Reference) => super::add(f, rm, x, y),
            (DOp::Sub, Public) => ieee::sub(f, rm, x, y),
            (DOp::Sub, Exact) => ieee::exact::sub(f, rm, x, y),
            (DOp::Sub, Reference) => super::sub(f, rm, x, y),
            (DOp::Mul, Public) => ieee::mul(f, rm, x, y),
            (DOp::Mul, Exact) => ieee::exact::mul(f, rm, x, y),
            (DOp::Mul, Reference) => super::mul(f, rm, x, y),
            (DOp::Div, Public) => ieee::div(f, rm, x, y),
            (DOp::Div, Exact) => ieee::exact::div(f, rm, x, y),
            (DOp::Div, Reference) => super::div(f, rm, x, y),
            (DOp::Sqrt, Public) => ieee::sqrt(f, rm, x),
            (DOp::Sqrt, Exact) => ieee::exact::sqrt(f, rm, x),
            (DOp::Sqrt, Reference) => super::sqrt(f, rm, x),
            (DOp::Fma, Public) => ieee::fma(f, rm, x, y, z),
            (DOp::Fma, Exact) => ieee::exact::fma(f, rm, x, y, z),
            (DOp::Fma, Reference) => super::fma(f, rm, x, y, z),
            (DOp::Convert, Public) => ieee::convert(other(f), f, rm, x),
            (DOp::Convert, Exact) => ieee::exact::convert(other(f), f, rm, x),
            (DOp::Convert, Reference) => super::convert(other(f), f, rm, x),
            (DOp::FromRational, Public | Exact) => {
                ieee::from_rational(f, rm, c.q.as_ref().expect("rational operand"))
            }
            (DOp::FromRational, Reference) => {
                super::from_rational(f, rm, c.q.as_ref().expect("rational operand"))
            }
            (DOp::ToInt, Public) => return Out::Int(ieee::to_integer_trunc(f, x)),
            (DOp::ToInt, Exact) => return Out::Int(ieee::exact::to_integer_trunc(f, x)),
            (DOp::ToInt, Reference) => return Out::Int(super::to_integer_trunc(f, x)),
        };
        Out::Bits(bits)
    }

    /// Whether `ieee::fast` handles the case (otherwise the public function used the exact
    /// path).
    pub fn fast_applies(c: &Case) -> bool {
        let (f, rm, x, y, z) = (c.f, c.rm, c.x, c.y, c.z);
        match c.op {
            DOp::Add => ieee::fast::add(f, rm, x, y).is_some(),
            DOp::Sub => ieee::fast::add(f, rm, x, ieee::neg(f, y)).is_some(),
            DOp::Mul => ieee::fast::mul(f, rm, x, y).is_some(),
            DOp::Div => ieee::fast::div(f, rm, x, y).is_some(),
            DOp::Sqrt => ieee::fast::sqrt(f, rm, x).is_some(),
            DOp::Fma => ieee::fast::fma(f, rm, x, y, z).is_some(),
            DOp::Convert => ieee::fast::convert(other(f), f, rm, x).is_some(),
            DOp::ToInt => ieee::fast::trunc_i64(f, x).is_some(),
            DOp::FromRational => false,
        }
    }

    /// Bit-exact agreement, except that any NaN matches any NaN (payloads carry no meaning).
    pub fn agree(f: FpFormat, a: &Out, b: &Out) -> bool {
        match (a, b) {
            (Out::Bits(a), Out::Bits(b)) => {
                if f.is_nan(*a) || f.is_nan(*b) {
                    f.is_nan(*a) && f.is_nan(*b)
                } else {
                    a == b
                }
            }
            _ => a == b,
        }
    }

    pub fn describe(c: &Case, outs: &[(Impl, Out)]) -> String {
        let w = c.f.total_bits() as usize / 4;
        let mut s = format!(
            "{} {} {}: x={:0w$x} y={:0w$x} z={:0w$x}",
            c.f.name(),
            c.op.name(),
            c.rm.name(),
            c.x,
            c.y,
            c.z
        );
        if let Some(q) = &c.q {
            s += &format!(" q={q}");
        }
        for (i, o) in outs {
            match o {
                Out::Bits(b) => s += &format!(" {i:?}={b:0w$x}"),
                Out::Int(v) => s += &format!(" {i:?}={v:?}"),
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RoundingMode::*;

    const F: FpFormat = FpFormat::F64;
    fn b(x: f64) -> u64 {
        x.to_bits()
    }
    fn b32(x: f32) -> u64 {
        x.to_bits() as u64
    }

    /// The reference agrees with the hardware's round-to-nearest-even on plain values,
    /// overflow and gradual underflow (a check of the emulation's exponent range).
    #[test]
    fn nearest_even_is_the_hardware() {
        let vals = [
            1.0,
            0.1,
            -3.5,
            1e308,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::from_bits(0x000f_ffff_ffff_ffff), // largest subnormal
            1e-300,
            -0.0,
            0.0,
            f64::INFINITY,
        ];
        for &x in &vals {
            for &y in &vals {
                let cases = [
                    (add(F, Rne, b(x), b(y)), x + y),
                    (sub(F, Rne, b(x), b(y)), x - y),
                    (mul(F, Rne, b(x), b(y)), x * y),
                    (div(F, Rne, b(x), b(y)), x / y),
                ];
                for (got, want) in cases {
                    if want.is_nan() {
                        assert!(F.is_nan(got));
                    } else {
                        assert_eq!(got, b(want), "{x} {y}");
                    }
                }
                let (x32, y32) = (x as f32, y as f32);
                let g = mul(FpFormat::F32, Rne, b32(x32), b32(y32));
                let w = x32 * y32;
                assert!(w.is_nan() && FpFormat::F32.is_nan(g) || g == b32(w));
            }
        }
    }

    /// Known ties: RNA rounds away, RNE to even, in the normal and the subnormal range and
    /// at the overflow threshold.
    #[test]
    fn ties_away_on_known_ties() {
        // 2^53 + 1: between 2^53 and 2^53 + 2
        let two53 = b(9007199254740992.0);
        assert_eq!(add(F, Rne, two53, b(1.0)), two53);
        assert_eq!(add(F, Rna, two53, b(1.0)), b(9007199254740994.0));
        assert_eq!(
            add(F, Rna, b(-9007199254740992.0), b(-1.0)),
            b(-9007199254740994.0)
        );
        // 2^53 + 3: tie between 2^53 + 2 and 2^53 + 4, even is 2^53 + 4 for both
        assert_eq!(add(F, Rna, two53, b(3.0)), b(9007199254740996.0));
        // subnormal: the smallest subnormal / 2 is a tie between 0 and it
        assert_eq!(mul(F, Rne, b(5e-324), b(0.5)), b(0.0));
        assert_eq!(mul(F, Rna, b(5e-324), b(0.5)), b(5e-324));
        assert_eq!(mul(F, Rna, b(-5e-324), b(0.5)), b(-5e-324));
        // 3 · smallest subnormal / 2 = 1.5 ulps: tie between 1 and 2 ulps, both give 2
        assert_eq!(div(F, Rna, b(1.5e-323), b(2.0)), b(1e-323));
        assert_eq!(div(F, Rne, b(1.5e-323), b(2.0)), b(1e-323));
        // 5 ulps / 2: tie between 2 (even) and 3 ulps
        assert_eq!(div(F, Rne, 5, b(2.0)), 2);
        assert_eq!(div(F, Rna, 5, b(2.0)), 3);
        // overflow threshold: max + half an ulp goes to infinity in both
        let half_ulp_max = b(2f64.powi(970));
        assert_eq!(add(F, Rna, b(f64::MAX), half_ulp_max), b(f64::INFINITY));
        assert_eq!(add(F, Rne, b(f64::MAX), half_ulp_max), b(f64::INFINITY));
        assert_eq!(add(F, Rtz, b(f64::MAX), half_ulp_max), b(f64::MAX));
        // binary32: 1 + 2^-24
        let f = FpFormat::F32;
        let t = b32(2f32.powi(-24));
        assert_eq!(add(f, Rne, b32(1.0), t), b32(1.0));
        assert_eq!(add(f, Rna, b32(1.0), t), b32(1.0) + 1);
        // a binary64 value that is a binary32 tie
        let tie = 1.0 + 2f64.powi(-24);
        assert_eq!(convert(F, f, Rne, b(tie)), b32(1.0));
        assert_eq!(convert(F, f, Rna, b(tie)), b32(1.0) + 1);
        // a rational tie
        let q = Rational::new(BigInt::from(3), BigInt::from(2)); // 1.5 between 1 and 2 in no format
        assert_eq!(from_rational(F, Rna, &q), b(1.5));
        let q = Rational::from_integer(BigInt::from((1u64 << 53) + 1));
        assert_eq!(from_rational(F, Rna, &q), b(9007199254740994.0));
        assert_eq!(from_rational(F, Rne, &q), two53);
    }

    #[test]
    fn directed_modes_overflow_zeros_and_sqrt() {
        assert_eq!(mul(F, Rtz, b(1e308), b(10.0)), b(f64::MAX));
        assert_eq!(mul(F, Rtn, b(1e308), b(10.0)), b(f64::MAX));
        assert_eq!(mul(F, Rtp, b(-1e308), b(10.0)), b(-f64::MAX));
        assert_eq!(mul(F, Rtn, b(-1e308), b(10.0)), b(f64::NEG_INFINITY));
        assert_eq!(sub(F, Rtn, b(1.0), b(1.0)), b(-0.0));
        assert_eq!(sub(F, Rne, b(1.0), b(1.0)), b(0.0));
        assert_eq!(mul(F, Rtp, b(1e-300), b(1e-300)), 1);
        assert_eq!(mul(F, Rtn, b(1e-300), b(1e-300)), 0);
        assert_eq!(sqrt(F, Rne, b(-0.0)), b(-0.0));
        assert!(F.is_nan(sqrt(F, Rne, b(-1.0))));
        // the binary64 nearest to √2 lies above it
        assert_eq!(sqrt(F, Rtp, b(2.0)), b(2f64.sqrt()));
        assert_eq!(sqrt(F, Rtn, b(2.0)) + 1, b(2f64.sqrt()));
        assert_eq!(fma(F, Rne, b(2.0), b(3.0), b(-6.0)), b(0.0));
        assert_eq!(fma(F, Rtn, b(2.0), b(3.0), b(-6.0)), b(-0.0));
        assert_eq!(to_integer_trunc(F, b(-2.7)), Some(BigInt::from(-2)));
        assert_eq!(to_integer_trunc(F, b(f64::NAN)), None);
        assert_eq!(
            to_integer_trunc(F, b(1e20)),
            Some(BigInt::from(100000000000000000000u128))
        );
    }
    /// Differential check of `ieee` (public: fast path + fallbacks) and `ieee::exact` against
    /// this reference: `n` random cases per operation spread over the five modes, every
    /// `exact_every`-th one also through the exact path (the rational path is the slow one;
    /// the `ieee_diff` example runs all three on millions of inputs).
    fn differential(f: FpFormat, ops: &[diff::DOp], n: u64, exact_every: u64, seed: u64) {
        use diff::*;
        let mut rng = gen::Rng(seed);
        for &op in ops {
            let mut fast = 0;
            for i in 0..n {
                let rm = RoundingMode::ALL[(i % 5) as usize];
                let c = gen_case(f, op, rm, &mut rng);
                let r = eval(Impl::Reference, &c);
                let p = eval(Impl::Public, &c);
                fast += fast_applies(&c) as u64;
                assert!(
                    agree(f, &p, &r),
                    "{}",
                    describe(&c, &[(Impl::Public, p), (Impl::Reference, r)])
                );
                if i % exact_every == 0 {
                    let e = eval(Impl::Exact, &c);
                    assert!(
                        agree(f, &e, &r),
                        "{}",
                        describe(&c, &[(Impl::Exact, e), (Impl::Reference, r)])
                    );
                }
            }
            // the fast path must actually be exercised where it exists
            let has_fast = op != DOp::FromRational;
            assert!(
                !has_fast || fast > n / 4,
                "{} {}: fast path taken {fast} of {n}",
                f.name(),
                op.name()
            );
        }
    }

    use diff::DOp::*;

    #[test]
    fn differential_f32_arithmetic() {
        differential(FpFormat::F32, &[Add, Sub, Mul, Div], 200_000, 20, 11);
    }

    #[test]
    fn differential_f32_sqrt_fma_conversions() {
        differential(
            FpFormat::F32,
            &[Sqrt, Fma, Convert, FromRational, ToInt],
            200_000,
            20,
            12,
        );
    }

    #[test]
    fn differential_f64_arithmetic() {
        differential(FpFormat::F64, &[Add, Sub, Mul, Div], 200_000, 20, 13);
    }

    #[test]
    fn differential_f64_sqrt_fma_conversions() {
        differential(
            FpFormat::F64,
            &[Sqrt, Fma, Convert, FromRational, ToInt],
            200_000,
            20,
            14,
        );
    }
}
