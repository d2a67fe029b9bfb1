//! Directed rounding of single `f64` operations, decided exactly.
//!
//! The idea: compute the round-to-nearest result `v` with native hardware arithmetic, then
//! find out *on which side of `v` the exact real result lies* with an error-free
//! transformation — TwoSum for `+`, the FMA residual `fma(a, b, -v)` for `*`, the division
//! remainder `fma(-q, b, a)` for `/` and `fma(-s, s, x)` for `sqrt`. The caller then moves one
//! ulp outward only on the side where the exact value is not `v` ([`Rnd::down`], [`Rnd::up`]),
//! so exact results are never widened and inexact ones are the directed roundings RD/RU.
//!
//! The residual tricks are exact only away from the underflow range; below fixed thresholds a
//! slow but exact comparison of integer significands (`u128`) or an exact power-of-two
//! rescaling decides the side instead. Overflow of a finite result is reported as `±inf` with
//! the exact value on the side of zero, which makes `down`/`up` return `±MAX` or `±inf`
//! correctly.

use std::cmp::Ordering;

/// Where the exact result lies relative to the computed value `v`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Dir {
    /// `v` is the exact result
    Exact,
    /// the exact result is strictly greater than `v`
    Above,
    /// the exact result is strictly smaller than `v`
    Below,
    /// `v` is the round-to-nearest result, side unknown; the exact value is strictly between
    /// `next_down(v)` and `next_up(v)` (the nearest-rounding error is at most half an ulp)
    Unknown,
    /// no information (`inf - inf`, which interval ends never produce): `down` is `-inf`,
    /// `up` is `+inf`
    Anything,
}

/// A computed double together with the side of the exact result.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct Rnd {
    pub v: f64,
    pub dir: Dir,
}

impl Rnd {
    #[inline]
    pub fn exact(v: f64) -> Rnd {
        Rnd { v, dir: Dir::Exact }
    }

    /// The largest double `<=` the exact result, and whether it *is* the exact result. When
    /// it is not, it is strictly smaller than the exact result.
    #[inline]
    pub fn down(self) -> (f64, bool) {
        match self.dir {
            Dir::Exact => (self.v, true),
            Dir::Above => (self.v, false),
            Dir::Below | Dir::Unknown => (self.v.next_down(), false),
            Dir::Anything => (f64::NEG_INFINITY, false),
        }
    }

    /// The smallest double `>=` the exact result, and whether it is the exact result. When it
    /// is not, it is strictly greater than the exact result.
    #[inline]
    pub fn up(self) -> (f64, bool) {
        match self.dir {
            Dir::Exact => (self.v, true),
            Dir::Below => (self.v, false),
            Dir::Above | Dir::Unknown => (self.v.next_up(), false),
            Dir::Anything => (f64::INFINITY, false),
        }
    }
}

/// 2^-969: at or above this magnitude the FMA residual of a product is exact.
const TWO_POW_M969: f64 = f64::from_bits(54 << 52);
/// 2^-960: at or above this the residual `x - s*s` of a square root is exact.
const TWO_POW_M960: f64 = f64::from_bits(63 << 52);
const TWO_POW_200: f64 = f64::from_bits(1223 << 52);
const TWO_POW_M100: f64 = f64::from_bits(923 << 52);

#[inline]
fn dir_of_residual(e: f64) -> Dir {
    if e > 0.0 {
        Dir::Above
    } else if e < 0.0 {
        Dir::Below
    } else {
        Dir::Exact
    }
}

/// A finite result that overflowed to `s = ±inf`: the exact value is on the side of zero.
#[inline]
fn overflowed(s: f64) -> Rnd {
    Rnd {
        v: s,
        dir: if s > 0.0 { Dir::Below } else { Dir::Above },
    }
}

/// Knuth's TwoSum: the exact error `a + b - s` for `s = RN(a + b)`.
#[inline]
fn two_sum_err(a: f64, b: f64, s: f64) -> f64 {
    let bb = s - a;
    let ab = s - bb;
    (a - ab) + (b - bb)
}

/// `a + b`. Callers never pass opposite infinities (interval ends never make them).
#[inline]
pub(crate) fn add(a: f64, b: f64) -> Rnd {
    let s = a + b;
    if !s.is_finite() {
        if a.is_finite() && b.is_finite() {
            return overflowed(s);
        }
        if s.is_nan() {
            // inf - inf: no real value; report the whole line so nothing is lost
            return Rnd {
                v: 0.0,
                dir: Dir::Anything,
            };
        }
        return Rnd::exact(s);
    }
    let e = two_sum_err(a, b, s);
    if e.is_finite() {
        return Rnd {
            v: s,
            dir: dir_of_residual(e),
        };
    }
    // An intermediate of TwoSum overflowed, which needs |a|, |b| near MAX: then halving both
    // is exact and rounds the same way, one binade lower.
    let (ha, hb) = (a * 0.5, b * 0.5);
    if ha * 2.0 == a && hb * 2.0 == b {
        let e = two_sum_err(ha, hb, ha + hb);
        if e.is_finite() {
            return Rnd {
                v: s,
                dir: dir_of_residual(e),
            };
        }
    }
    Rnd {
        v: s,
        dir: Dir::Unknown,
    }
}

/// `a * b` with the convention `0 * inf = 0` (exact): interval end products use it, and it is
/// the right limit value there (the interval code decides attainment separately).
#[inline]
pub(crate) fn mul(a: f64, b: f64) -> Rnd {
    if a == 0.0 || b == 0.0 {
        return Rnd::exact(0.0);
    }
    let p = a * b;
    if p.is_infinite() {
        if a.is_finite() && b.is_finite() {
            return overflowed(p);
        }
        return Rnd::exact(p);
    }
    if p.abs() >= TWO_POW_M969 {
        // TwoProduct: the residual ab - p is a double and the FMA computes it exactly
        return Rnd {
            v: p,
            dir: dir_of_residual(a.mul_add(b, -p)),
        };
    }
    // Tiny product: the residual may underflow; compare |a·b| with |p| exactly.
    let neg = (a < 0.0) != (b < 0.0);
    let dir = match cmp_mag_prod(a, b, p) {
        Ordering::Equal => Dir::Exact,
        // exact result farther from zero than p
        Ordering::Greater => {
            if neg {
                Dir::Below
            } else {
                Dir::Above
            }
        }
        Ordering::Less => {
            if neg {
                Dir::Above
            } else {
                Dir::Below
            }
        }
    };
    Rnd { v: p, dir }
}

/// `a / b` for finite `a` and finite nonzero `b` (callers handle infinities and zero divisors,
/// whose meaning depends on the interval case).
#[inline]
pub(crate) fn div(a: f64, b: f64) -> Rnd {
    if a == 0.0 {
        return Rnd::exact(0.0);
    }
    let q = a / b;
    if q.is_infinite() {
        return overflowed(q);
    }
    if q.abs() >= f64::MIN_POSITIVE && a.abs() >= TWO_POW_M969 {
        // Remainder a - q·b is a double (q normal, a not tiny) and the FMA yields it exactly;
        // a/b - q = r/b.
        let r = (-q).mul_add(b, a);
        let d = dir_of_residual(r);
        return Rnd {
            v: q,
            dir: if b < 0.0 { flip(d) } else { d },
        };
    }
    // Slow exact path: |a/b| vs |q|  <=>  |a| vs |q·b|.
    let neg = (a < 0.0) != (b < 0.0);
    let dir = match cmp_mag_prod(q, b, a) {
        Ordering::Equal => Dir::Exact,
        // |q·b| < |a|: the exact quotient is farther from zero than q
        Ordering::Less => {
            if neg {
                Dir::Below
            } else {
                Dir::Above
            }
        }
        Ordering::Greater => {
            if neg {
                Dir::Above
            } else {
                Dir::Below
            }
        }
    };
    Rnd { v: q, dir }
}

#[inline]
fn flip(d: Dir) -> Dir {
    match d {
        Dir::Above => Dir::Below,
        Dir::Below => Dir::Above,
        d => d,
    }
}

/// `sqrt(x)` for `x >= 0` (including `+inf`).
#[inline]
pub(crate) fn sqrt(x: f64) -> Rnd {
    if x == 0.0 || x.is_infinite() {
        return Rnd::exact(x);
    }
    if x >= TWO_POW_M960 {
        let s = x.sqrt();
        // sqrt(x) - s has the sign of x - s², which the FMA computes exactly here
        return Rnd {
            v: s,
            dir: dir_of_residual((-s).mul_add(s, x)),
        };
    }
    // Tiny x: scale by an even power of two (exact both ways; the root is a normal double,
    // so RN commutes with the scaling) and decide there.
    let x2 = x * TWO_POW_200;
    let s2 = x2.sqrt();
    Rnd {
        v: s2 * TWO_POW_M100,
        dir: dir_of_residual((-s2).mul_add(s2, x2)),
    }
}

/// `x = m · 2^e` with an integer significand `m < 2^53`, for finite `x` (sign dropped).
#[inline]
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits() & !(1u64 << 63);
    let exp = (bits >> 52) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    }
}

/// Exact comparison of `|x·y|` with `|z|` for finite doubles.
pub(crate) fn cmp_mag_prod(x: f64, y: f64, z: f64) -> Ordering {
    let (mx, ex) = decompose(x);
    let (my, ey) = decompose(y);
    let (mz, ez) = decompose(z);
    let m1 = mx as u128 * my as u128;
    match (m1 == 0, mz == 0) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    cmp_scaled(m1, ex + ey, mz as u128, ez)
}

/// Compares `m1·2^e1` with `m2·2^e2` for nonzero `m1, m2 < 2^107`.
fn cmp_scaled(m1: u128, e1: i32, m2: u128, e2: i32) -> Ordering {
    // position of the leading bit decides unless equal; then aligning the exponents cannot
    // overflow (the shifted significand gets the other one's bit length, < 107)
    let t1 = (128 - m1.leading_zeros()) as i32 + e1;
    let t2 = (128 - m2.leading_zeros()) as i32 + e2;
    if t1 != t2 {
        return t1.cmp(&t2);
    }
    if e1 >= e2 {
        (m1 << (e1 - e2) as u32).cmp(&m2)
    } else {
        m1.cmp(&(m2 << (e2 - e1) as u32))
    }
}

/// `x^n` for `x >= 0` (including `+inf`) rounded down: a value `<=` the exact power and
/// whether it is exact (if not, it is strictly smaller). Binary powering with every product
/// rounded down is sound because multiplication is monotone on nonnegative numbers.
pub(crate) fn pow_nonneg_down(x: f64, n: u32) -> (f64, bool) {
    pow_nonneg(x, n, false)
}

/// `x^n` for `x >= 0` rounded up; see [`pow_nonneg_down`].
pub(crate) fn pow_nonneg_up(x: f64, n: u32) -> (f64, bool) {
    pow_nonneg(x, n, true)
}

#[inline]
fn pow_nonneg(x: f64, n: u32, up: bool) -> (f64, bool) {
    let step = |a: f64, b: f64| {
        let r = mul(a, b);
        if up {
            r.up()
        } else {
            r.down()
        }
    };
    let mut acc = 1.0;
    let mut exact = true;
    let mut base = x;
    let mut e = n;
    loop {
        if e & 1 == 1 {
            let (v, ex) = step(acc, base);
            acc = v;
            exact &= ex;
        }
        e >>= 1;
        if e == 0 {
            return (acc, exact);
        }
        let (v, ex) = step(base, base);
        base = v;
        exact &= ex;
    }
}

/// `x · 2^k` (exact while the result stays normal).
fn scale2(mut x: f64, mut k: i64) -> f64 {
    while k != 0 {
        let step = k.clamp(-1000, 1000);
        x *= f64::from_bits(((step + 1023) as u64) << 52);
        k -= step;
    }
    x
}

/// A guess for `x^(1/n)` within about an ulp, positive and finite for positive finite `x`:
/// `powf` on `x` scaled near 1 by `2^(n·s)` (its error grows with `|ln x|` because `1/n` is
/// inexact), one Newton step, and the root scaled back by `2^s`.
fn approx_root(x: f64, n: u32) -> f64 {
    let n64 = n as i64;
    let e = x.log2().floor() as i64;
    let s = (e as f64 / n as f64).round() as i64;
    let xs = scale2(x, -n64 * s);
    let mut r = if n == 3 {
        xs.cbrt()
    } else {
        xs.powf(1.0 / n as f64)
    };
    let p = r.powi(n.min(i32::MAX as u32) as i32);
    if p.is_finite() && p > 0.0 {
        r -= r * (p / xs - 1.0) / n as f64;
    }
    let r = scale2(r, s);
    if r > 0.0 && r.is_finite() {
        r
    } else {
        1.0
    }
}

/// The `n`-th root of `x >= 0` (including `+inf`) rounded down, `n >= 1`: a double `r` with
/// `r <= x^(1/n)`, and whether `r` is the exact root (if not, `r` is strictly smaller).
///
/// Not correctly rounded in general: a guess from `powf` is *certified* by `r^n <= x` with `r^n`
/// rounded up, stepping down (by a doubling number of ulps) until the certificate holds. The
/// result is within a few ulps of the root; `0` is the (always valid) last resort.
pub(crate) fn root_down(x: f64, n: u32) -> (f64, bool) {
    if n == 1 || x == 0.0 || x.is_infinite() {
        return (x, true);
    }
    if n == 2 {
        return sqrt(x).down();
    }
    let mut r = approx_root(x, n);
    let mut k = 0.5;
    for i in 0..80 {
        let (p, exact) = pow_nonneg_up(r, n);
        if p <= x {
            return (r, exact && p == x);
        }
        r = (r * (1.0 - k * f64::EPSILON)).min(r.next_down());
        if r <= 0.0 {
            break;
        }
        if i >= 4 {
            k *= 2.0;
        }
    }
    // 0 < x^(1/n) because x > 0
    (0.0, false)
}

/// The `n`-th root of `x >= 0` rounded up; see [`root_down`]. Last resort: `1` for `x < 1`
/// (then the root is `< 1`), else `next_up(x)` (then the root is `<= x`).
pub(crate) fn root_up(x: f64, n: u32) -> (f64, bool) {
    if n == 1 || x == 0.0 || x.is_infinite() {
        return (x, true);
    }
    if n == 2 {
        return sqrt(x).up();
    }
    let mut r = approx_root(x, n);
    let mut k = 0.5;
    for i in 0..80 {
        let (p, exact) = pow_nonneg_down(r, n);
        if p >= x {
            return (r, exact && p == x);
        }
        r = (r * (1.0 + k * f64::EPSILON)).max(r.next_up());
        if r.is_infinite() {
            break;
        }
        if i >= 4 {
            k *= 2.0;
        }
    }
    if x < 1.0 {
        (1.0, false)
    } else {
        (x.next_up(), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Rational;
    use num_traits::Zero;

    fn q(x: f64) -> Rational {
        Rational::from_float(x).unwrap()
    }

    /// The side claimed by `r` agrees with the exact value `e`.
    fn agrees(r: Rnd, e: &Rational) {
        let (d, dex) = r.down();
        let (u, uex) = r.up();
        assert!(!d.is_nan() && !u.is_nan());
        if d.is_finite() {
            assert!(q(d) <= *e, "down {d:e} above exact");
            assert_eq!(dex, q(d) == *e);
            // directed rounding is tight: the next double up is above the exact value
            if !dex && d.next_up().is_finite() {
                assert!(q(d.next_up()) > *e, "down not tight: {d:e}");
            }
        }
        if u.is_finite() {
            assert!(q(u) >= *e);
            assert_eq!(uex, q(u) == *e);
            if !uex && u.next_down().is_finite() {
                assert!(q(u.next_down()) < *e, "up not tight: {u:e}");
            }
        }
    }

    fn rand_double(s: &mut u64) -> f64 {
        loop {
            *s ^= *s << 13;
            *s ^= *s >> 7;
            *s ^= *s << 17;
            let x = f64::from_bits(*s);
            // bias towards the extreme binades where the residual tricks stop working
            let pick = (*s >> 3) % 4;
            let x = match pick {
                0 => f64::from_bits(*s & 0x801f_ffff_ffff_ffff), // tiny and subnormal
                1 => f64::from_bits(*s | 0x7fe0_0000_0000_0000) * 0.5, // huge
                _ => x,
            };
            if x.is_finite() {
                return x;
            }
        }
    }

    #[test]
    fn directed_rounding_agrees_with_exact_arithmetic() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..40_000 {
            let a = rand_double(&mut s);
            let b = rand_double(&mut s);
            agrees(add(a, b), &(q(a) + q(b)));
            agrees(mul(a, b), &(q(a) * q(b)));
            if b != 0.0 {
                agrees(div(a, b), &(q(a) / q(b)));
            }
            // a square that is a double, and its neighbours
            let x = a.abs();
            let r = sqrt(x);
            let (d, dex) = r.down();
            let (u, uex) = r.up();
            assert!(q(d) * q(d) <= q(x) && q(u) * q(u) >= q(x));
            assert_eq!(dex, q(d) * q(d) == q(x));
            assert_eq!(uex, q(u) * q(u) == q(x));
            if !dex {
                let n = d.next_up();
                assert!(q(n) * q(n) > q(x));
            }
        }
    }

    #[test]
    fn overflow_and_underflow_edges() {
        let m = f64::MAX;
        assert_eq!(add(m, m).down(), (m, false));
        assert_eq!(add(m, m).up(), (f64::INFINITY, false));
        assert_eq!(mul(-m, 2.0).up(), (-m, false));
        assert_eq!(mul(f64::INFINITY, 0.0), Rnd::exact(0.0));
        let tiny = f64::from_bits(1);
        // 2^-1074 · 0.5 rounds to 0 (ties to even) but is not 0
        let r = mul(tiny, 0.5);
        assert_eq!(r.down(), (0.0, false));
        assert_eq!(r.up(), (tiny, false));
        let r = div(tiny, 3.0);
        assert_eq!(r.down(), (0.0, false));
        assert!(!Rational::is_zero(&q(r.up().0)));
        assert_eq!(sqrt(4.0), Rnd::exact(2.0));
        assert_eq!(sqrt(tiny * 4.0).down(), (sqrt(tiny * 4.0).v, true));
    }

    #[test]
    fn roots_are_certified() {
        for &(x, n) in &[
            (8.0, 3u32),
            (2.0, 3),
            (1e300, 7),
            (f64::from_bits(1), 5),
            (81.0, 4),
            (3.0, 4),
            (f64::MAX, 3),
            (0.5, 31),
        ] {
            let (d, dex) = root_down(x, n);
            let (u, uex) = root_up(x, n);
            let pd = num_traits::pow(q(d), n as usize);
            let pu = num_traits::pow(q(u), n as usize);
            assert!(pd <= q(x) && pu >= q(x), "root {x} {n}");
            assert_eq!(dex, pd == q(x));
            assert_eq!(uex, pu == q(x));
            // within a few ulps
            assert!(u <= d.next_up().next_up().next_up(), "{x} {n} {d:e} {u:e}");
        }
        assert_eq!(root_down(8.0, 3), (2.0, true));
        assert_eq!(root_up(81.0, 4), (3.0, true));
    }
}
