//! `out = sin(a)`, `out = cos(a)`, `out = tan(a)`.
//!
//! The idea: cut the line at the multiples `jπ/2` into *quadrants*; each of the three
//! functions is strictly monotone between consecutive cut points, with its extrema (sin:
//! `j ≡ 1, 3 mod 4`; cos: `j ≡ 0, 2`) or poles (tan: `j` odd) exactly on them. Everything
//! follows from knowing, for a double `x`, its quadrant `q = floor(x / (π/2))` *exactly*:
//! MPFR computes `2x/π` with enclosures of π rounded down and up, at a precision that grows
//! with `x`'s exponent (argument reduction for `1e300` needs ~1100 bits), until both bounds
//! have the same floor — guaranteed eventually, because `jπ/2` is irrational for `j ≠ 0`.
//! For `|x| < 2^40` away from cut points, double arithmetic with a proven error margin
//! settles the quadrant first (`quadrant_f64`).
//!
//! Forward on `⟨lo, hi⟩`: the cut points strictly inside are `j ∈ [q(lo) + 1, ⌈hi/(π/2)⌉ - 1]`.
//! If one of them is a maximum (minimum), `1` (`-1`) is attained there — a closed end;
//! otherwise the supremum (infimum) is at an end of the box, because an interior point where
//! it is reached would be a local extremum. Ends are MPFR's correctly rounded point
//! enclosures, closed only when exact and attained (`sin(0) = 0`, `cos(0) = 1`). Unbounded
//! boxes, and boxes wider than 8 (> 2π), give `[-1, 1]`. `tan` of a box containing a pole
//! is all reals (unspecified at the pole, unbounded next to it); otherwise it is increasing.
//!
//! Backward contracts the two ends of `a`'s box: the new lower end is (a lower bound of) the
//! smallest `x >= lo` with `f(x) ∈ out`. If `f(lo)` is provably outside `out`, the branch of
//! `lo` (a maximal monotone piece: `[nπ - π/2, nπ + π/2]` for sin and tan, `[nπ, nπ + π]`
//! for cos) tells where `f` first enters `out`: on the same branch if `f` moves towards `out`,
//! else on the next one — at `x = nπ ± asin/acos/atan(y)` for the nearer end `y` of `out`,
//! evaluated with MPFR in outward-rounded interval arithmetic. For `tan` moving away from
//! `out`, the next feasible point is the pole itself (any value is allowed there). The upper
//! end is the mirror image (`sin`, `tan` odd, `cos` even). Between the two new ends the box is
//! not split, so gaps inside a box (several periods) stay: a box of many periods only loses
//! its infeasible ends. When any step is undecided (an enclosure of `f(lo)` touching `out`'s
//! end, a quadrant MPFR cannot settle), that end is simply left alone.

use super::any_empty;
use super::transcendental::{
    end_enclosures, lower_end, point_enclosure, upper_end, Transcendental,
};
use crate::interval::Interval;
use rug::float::{Constant, Round};
use rug::{Float, Integer};
use std::cmp::Ordering;

/// Which of the three (the shared selector restricted to trigonometric functions).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Trig {
    Sin,
    Cos,
    Tan,
}

impl Trig {
    fn selector(self) -> Transcendental {
        match self {
            Trig::Sin => Transcendental::Sin,
            Trig::Cos => Transcendental::Cos,
            Trig::Tan => Transcendental::Tan,
        }
    }
}

/// The binary exponent of a finite nonzero double (`floor(log2|x|)`, subnormals included).
fn exponent(x: f64) -> i32 {
    let bits = x.to_bits() & !(1u64 << 63);
    let biased = (bits >> 52) as i32;
    if biased == 0 {
        // subnormal: 2^-1074 · significand
        63 - bits.leading_zeros() as i32 - 1074
    } else {
        biased - 1023
    }
}

/// Working precision for quantities of the size of `x` that must keep ~120 bits after the
/// binary point (argument reduction and the positions of cut points near `x`).
fn work_prec(x: f64) -> u32 {
    let e = if x == 0.0 || !x.is_finite() {
        0
    } else {
        exponent(x).max(0)
    };
    128 + e as u32
}

/// π rounded down and up at `prec` bits (MPFR caches π, so this is a rounding, not a
/// recomputation).
fn pi_bounds(prec: u32) -> (Float, Float) {
    (
        Float::with_val_round(prec, Constant::Pi, Round::Down).0,
        Float::with_val_round(prec, Constant::Pi, Round::Up).0,
    )
}

/// The quadrant of `x`: the integer `q` with `qπ/2 <= x < (q+1)π/2`. `None` only if MPFR
/// could not separate `2x/π` from an integer within a generous precision budget (which
/// the known closest approaches of doubles to multiples of π/2, ~2^-62 relative, rule out).
fn quadrant(x: f64) -> Option<Integer> {
    if !x.is_finite() {
        return None;
    }
    match quadrant_f64(x) {
        Some(q) => Some(Integer::from(q)),
        None => quadrant_mpfr(x),
    }
}

/// [`quadrant`] by MPFR alone (any finite `x`).
fn quadrant_mpfr(x: f64) -> Option<Integer> {
    if x == 0.0 {
        return Some(Integer::new());
    }
    let mut prec = work_prec(x);
    for _ in 0..6 {
        let (pi_lo, pi_hi) = pi_bounds(prec);
        // 2x is exact at any precision >= 53
        let mut x2 = Float::with_val(prec, x);
        x2 <<= 1;
        // for x > 0 the quotient falls as π grows; for x < 0 it rises
        let (d_for_lo, d_for_hi) = if x > 0.0 {
            (&pi_hi, &pi_lo)
        } else {
            (&pi_lo, &pi_hi)
        };
        let t_lo = Float::with_val_round(prec, &x2 / d_for_lo, Round::Down).0;
        let t_hi = Float::with_val_round(prec, &x2 / d_for_hi, Round::Up).0;
        let k_lo = t_lo.to_integer_round(Round::Down)?.0;
        let k_hi = t_hi.to_integer_round(Round::Down)?.0;
        if k_lo == k_hi {
            return Some(k_lo);
        }
        prec *= 2;
    }
    None
}

/// The quadrant of a finite `x` from double arithmetic alone, when that is certain: always for
/// `|x| < 1` (then `|2x/π| < 1`), and for `|x| < 2^40` unless `2x/π` is within ~2^-49
/// relative of an integer.
///
/// Why it is exact: `c = RN(2/π)` has `|c - 2/π| <= 2^-54`, and `t = RN(x·c)` adds at most
/// `2^-53 |x|`, so `|t - 2x/π| < 2^-51 |x|`. The margin `err = 2^-49 |x|` (an exact scaling)
/// is three such bounds wider than needed, which absorbs the rounding of `t ∓ err` (at most
/// `2^-53 |x|`): `lo <= 2x/π <= hi`, and equal floors of `lo` and `hi` are the floor of `2x/π`.
fn quadrant_f64(x: f64) -> Option<i64> {
    let ax = x.abs();
    if ax < 1.0 {
        return Some(if x < 0.0 { -1 } else { 0 });
    }
    if ax >= (1u64 << 40) as f64 {
        return None;
    }
    let t = x * std::f64::consts::FRAC_2_PI;
    let err = ax * f64::powi(2.0, -49);
    let (lo, hi) = ((t - err).floor(), (t + err).floor());
    (lo == hi).then_some(lo as i64)
}

/// The cut points `jπ/2` strictly inside `(lo, hi)` for finite ends: `j` from `ja` to `jb`
/// (an empty range when `jb < ja`).
fn interior_cuts(lo: f64, hi: f64) -> Option<(Integer, Integer)> {
    let ja = quadrant(lo)? + 1u32;
    let mut jb = quadrant(hi)?;
    // hi/(π/2) is an integer only for hi = 0, and then the cut 0 is hi itself, not inside
    if hi == 0.0 {
        jb -= 1u32;
    }
    Some((ja, jb))
}

/// Whether some `j ∈ [ja, jb]` has `j ≡ r (mod m)`.
fn has_residue(ja: &Integer, jb: &Integer, r: u32, m: u32) -> bool {
    if jb < ja {
        return false;
    }
    let span = Integer::from(jb - ja);
    if span >= m - 1 {
        return true;
    }
    let base = ja.mod_u(m);
    let span = span.to_u32().unwrap_or(0);
    (0..=span).any(|d| (base + d) % m == r)
}

/// sin or cos of a box: the ends' values, or ±1 where an extremum is inside.
fn fwd_sincos(f: Trig, a: Interval) -> Interval {
    if a.is_empty() {
        return Interval::EMPTY;
    }
    let full = Interval::closed(-1.0, 1.0);
    // width > 2π (the difference is rounded to nearest, so >= 8 means > 7.99)
    if !a.is_bounded() || a.hi() - a.lo() >= 8.0 {
        return full;
    }
    let Some((ja, jb)) = interior_cuts(a.lo(), a.hi()) else {
        return full;
    };
    let (max_r, min_r) = if f == Trig::Sin { (1, 3) } else { (0, 2) };
    let (Some(el), Some(eh)) = end_enclosures(f.selector(), a) else {
        return full;
    };
    let lo = if has_residue(&ja, &jb, min_r, 4) {
        (-1.0, false)
    } else {
        min_end(lower_end(el, !a.lo_open()), lower_end(eh, !a.hi_open()))
    };
    let hi = if has_residue(&ja, &jb, max_r, 4) {
        (1.0, false)
    } else {
        max_end(upper_end(el, !a.lo_open()), upper_end(eh, !a.hi_open()))
    };
    Interval::new(lo.0, lo.1, hi.0, hi.1)
}

/// The smaller of two lower ends; at a tie closed if either is.
fn min_end(a: (f64, bool), b: (f64, bool)) -> (f64, bool) {
    match a.0.partial_cmp(&b.0) {
        Some(Ordering::Less) => a,
        Some(Ordering::Greater) => b,
        _ => (a.0, a.1 && b.1),
    }
}

/// The larger of two upper ends; at a tie closed if either is.
fn max_end(a: (f64, bool), b: (f64, bool)) -> (f64, bool) {
    match a.0.partial_cmp(&b.0) {
        Some(Ordering::Greater) => a,
        Some(Ordering::Less) => b,
        _ => (a.0, a.1 && b.1),
    }
}

/// Encloses `{sin(a)}`.
pub fn fwd_sin(a: Interval) -> Interval {
    fwd_sincos(Trig::Sin, a)
}

/// Encloses `{cos(a)}`.
pub fn fwd_cos(a: Interval) -> Interval {
    fwd_sincos(Trig::Cos, a)
}

/// Encloses `{tan(a)}`: all reals when a pole `π/2 + kπ` may lie in the box.
pub fn fwd_tan(a: Interval) -> Interval {
    if a.is_empty() {
        return Interval::EMPTY;
    }
    // a box wider than π always holds a pole
    if !a.is_bounded() || a.hi() - a.lo() >= 4.0 {
        return Interval::ENTIRE;
    }
    let Some((ja, jb)) = interior_cuts(a.lo(), a.hi()) else {
        return Interval::ENTIRE;
    };
    if has_residue(&ja, &jb, 1, 2) {
        return Interval::ENTIRE;
    }
    let (Some(el), Some(eh)) = end_enclosures(Transcendental::Tan, a) else {
        return Interval::ENTIRE;
    };
    // strictly increasing between poles
    let lo = lower_end(el, !a.lo_open());
    let hi = upper_end(eh, !a.hi_open());
    Interval::new(lo.0, lo.1, hi.0, hi.1)
}

// ------------------------------------------------------------------ backward

/// An enclosure `[lo, hi]` of a real, in MPFR floats at a common precision; every operation
/// rounds its lower bound down and its upper bound up.
struct Enc {
    lo: Float,
    hi: Float,
}

impl Enc {
    /// `m·π`.
    fn pi_times(m: &Integer, prec: u32) -> Enc {
        let (pl, ph) = pi_bounds(prec);
        // a negative factor swaps which bound of π gives which bound of the product
        let (for_lo, for_hi) = if *m >= 0 { (&pl, &ph) } else { (&ph, &pl) };
        Enc {
            lo: Float::with_val_round(prec, for_lo * m, Round::Down).0,
            hi: Float::with_val_round(prec, for_hi * m, Round::Up).0,
        }
    }

    /// `asin(y)`, `acos(y)` or `atan(y)` of a double (asin/acos need `|y| <= 1`).
    fn inverse(f: Trig, y: f64, prec: u32) -> Enc {
        let mut lo = Float::with_val(prec, y);
        let ternary = match f {
            Trig::Sin => lo.asin_round(Round::Down),
            Trig::Cos => lo.acos_round(Round::Down),
            Trig::Tan => lo.atan_round(Round::Down),
        };
        // correctly rounded down: the value is lo itself, or below lo's successor
        let mut hi = lo.clone();
        if ternary != Ordering::Equal {
            hi.next_up();
        }
        Enc { lo, hi }
    }

    fn add(&self, o: &Enc, prec: u32) -> Enc {
        Enc {
            lo: Float::with_val_round(prec, &self.lo + &o.lo, Round::Down).0,
            hi: Float::with_val_round(prec, &self.hi + &o.hi, Round::Up).0,
        }
    }

    fn neg(self) -> Enc {
        Enc {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    /// The enclosure's bounds as doubles, `(RD(lo), RU(hi))` — equal iff the real is a double
    /// (MPFR bounds of an irrational never meet).
    fn to_f64(&self) -> (f64, f64) {
        (
            self.lo.to_f64_round(Round::Down) + 0.0,
            self.hi.to_f64_round(Round::Up) + 0.0,
        )
    }
}

/// The point `x` of branch `n` with `f(x) = y` (`y` in `f`'s range): sin `nπ + (-1)^n asin(y)`,
/// cos `nπ + acos(y)` for even `n` and `(n+1)π - acos(y)` for odd `n`, tan `nπ + atan(y)`.
fn branch_point(f: Trig, n: &Integer, y: f64, prec: u32) -> Enc {
    let inv = Enc::inverse(f, y, prec);
    let odd = n.is_odd();
    match f {
        Trig::Sin | Trig::Tan => {
            let inv = if f == Trig::Sin && odd {
                inv.neg()
            } else {
                inv
            };
            Enc::pi_times(n, prec).add(&inv, prec)
        }
        Trig::Cos if !odd => Enc::pi_times(n, prec).add(&inv, prec),
        Trig::Cos => Enc::pi_times(&Integer::from(n + 1u32), prec).add(&inv.neg(), prec),
    }
}

/// The branch holding `x` in quadrant `q`, and whether `f` increases on it.
fn branch_of(f: Trig, q: &Integer) -> (Integer, bool) {
    match f {
        // [nπ - π/2, nπ + π/2] = quadrants 2n-1 and 2n
        Trig::Sin | Trig::Tan => {
            let n = Integer::from(q + 1u32) >> 1u32;
            let inc = f == Trig::Tan || n.is_even();
            (n, inc)
        }
        // [nπ, nπ + π] = quadrants 2n and 2n+1
        Trig::Cos => {
            let n = Integer::from(q >> 1u32);
            let inc = n.is_odd();
            (n, inc)
        }
    }
}

/// `{x : x >= c}` (open or closed at `c`) holding every `x >= a.lo()` with `f(x) ∈ o`; the
/// whole line when nothing is proven. `o` is nonempty and, for sin/cos, inside `[-1, 1]`.
fn lower_cut(f: Trig, o: Interval, a: Interval) -> Interval {
    let lo = a.lo();
    if !lo.is_finite() {
        return Interval::ENTIRE;
    }
    let Some(e) = point_enclosure(f.selector(), lo) else {
        return Interval::ENTIRE;
    };
    let (elo, elo_open) = lower_end(e, true);
    let (ehi, ehi_open) = upper_end(e, true);
    let e = Interval::new(elo, elo_open, ehi, ehi_open);
    if !e.intersect(o).is_empty() {
        return Interval::ENTIRE;
    }
    // disjoint: f(lo) lies wholly below or wholly above out
    let below = e.hi() <= o.lo();
    let Some(q) = quadrant(lo) else {
        return Interval::ENTIRE;
    };
    let (n, inc) = branch_of(f, &q);
    let prec = work_prec(lo);
    // f moves towards out on this branch: it enters out on it
    let (branch, inc) = if inc == below {
        (n, inc)
    } else if f == Trig::Tan {
        // increasing away from out up to the pole, where tan is unspecified (any value): the
        // pole (2n+1)π/2 is the first feasible point, and it is irrational, so the rounded
        // lower bound itself is not it: open
        let two_n1 = Integer::from(&n << 1u32) + 1u32;
        let mut pole = Enc::pi_times(&two_n1, prec);
        pole.lo >>= 1u32;
        pole.hi >>= 1u32;
        return Interval::at_least(pole.to_f64().0, true);
    } else {
        // the rest of this branch moves away from out; the next one comes back
        (n + 1u32, !inc)
    };
    // entering out from below (increasing) crosses out's lower end, else its upper end
    let (y, y_open) = if inc {
        (o.lo(), o.lo_open())
    } else {
        (o.hi(), o.hi_open())
    };
    if !y.is_finite() {
        // only tan reaches here with an infinite end (an increasing branch entering an out
        // unbounded below is impossible: then f(lo) could not be below it)
        return Interval::ENTIRE;
    }
    let c = branch_point(f, &branch, y, prec).to_f64();
    let (cl, c_open) = lower_end(c, !y_open);
    Interval::at_least(cl, c_open)
}

fn bwd_trig(f: Trig, out: Interval, a: Interval) -> Interval {
    if any_empty(&[out, a]) {
        return Interval::EMPTY;
    }
    let o = if f == Trig::Tan {
        out
    } else {
        out.intersect(Interval::closed(-1.0, 1.0))
    };
    if o.is_empty() {
        return Interval::EMPTY;
    }
    let range = if f == Trig::Tan {
        Interval::ENTIRE
    } else {
        Interval::closed(-1.0, 1.0)
    };
    if range.is_subset(o) {
        return a;
    }
    let a1 = a.intersect(lower_cut(f, o, a));
    if a1.is_empty() {
        return Interval::EMPTY;
    }
    // the upper end is the lower end of the mirrored problem: sin, tan odd; cos even
    let mirrored_out = if f == Trig::Cos { o } else { -o };
    a1.intersect(-lower_cut(f, mirrored_out, -a1))
}

/// The new box of `a` in `out = sin(a)`.
pub fn bwd_sin_a(out: Interval, a: Interval) -> Interval {
    bwd_trig(Trig::Sin, out, a)
}

/// The new box of `a` in `out = cos(a)`.
pub fn bwd_cos_a(out: Interval, a: Interval) -> Interval {
    bwd_trig(Trig::Cos, out, a)
}

/// The new box of `a` in `out = tan(a)`; the poles (any value there) are never removed.
pub fn bwd_tan_a(out: Interval, a: Interval) -> Interval {
    bwd_trig(Trig::Tan, out, a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    const INF: f64 = f64::INFINITY;

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }

    #[test]
    fn fast_quadrants_agree_with_mpfr() {
        let mut x = 0.3f64;
        let mut checked = 0;
        for i in 0..20_000 {
            // spread over [-2^41, 2^41], plus doubles next to multiples of π/2
            x = (x * 1.618_033_988_749_895 + 0.1).fract();
            let v = (x - 0.5) * 2f64.powi(i % 43);
            let w = (i % 200 - 100) as f64 * FRAC_PI_2;
            for y in [v, w, w.next_up(), w.next_down()] {
                let mpfr = quadrant_mpfr(y).expect("mpfr decides");
                if let Some(q) = quadrant_f64(y) {
                    assert_eq!(Integer::from(q), mpfr, "{y:e}");
                    checked += 1;
                }
            }
        }
        // most spread-out points (|v| < 2^40) take the fast path; next to jπ/2 MPFR decides
        assert!(checked > 15_000, "{checked}");
    }

    #[test]
    fn quadrants() {
        assert_eq!(quadrant(0.0), Some(Integer::from(0)));
        assert_eq!(quadrant(1.0), Some(Integer::from(0)));
        assert_eq!(quadrant(-1e-300), Some(Integer::from(-1)));
        // RN(π/2) is just below π/2; RN(π) just below π
        assert_eq!(quadrant(FRAC_PI_2), Some(Integer::from(0)));
        assert_eq!(quadrant(FRAC_PI_2.next_up()), Some(Integer::from(1)));
        assert_eq!(quadrant(PI), Some(Integer::from(1)));
        assert_eq!(quadrant(PI.next_up()), Some(Integer::from(2)));
        assert_eq!(quadrant(-PI), Some(Integer::from(-2)));
        // a double famously close to a multiple of π/2
        let x = 6381956970095103.0 * 2f64.powi(797);
        assert!(quadrant(x).is_some());
        assert!(quadrant(f64::MAX).is_some());
    }

    #[test]
    fn sin_over_a_half_period() {
        assert_eq!(fwd_sin(c(0.0, PI)).lo(), 0.0);
        let s = fwd_sin(c(0.0, PI));
        assert_eq!(s, c(0.0, 1.0));
        // open at 0: 0 is not attained
        let s = fwd_sin(Interval::new(0.0, true, 1.0, false));
        assert_eq!((s.lo(), s.lo_open()), (0.0, true));
        assert!(s.hi() >= 0.841 && s.hi() < 0.842);
        assert_eq!(fwd_sin(Interval::ENTIRE), c(-1.0, 1.0));
        assert_eq!(fwd_sin(c(1e300, 1e300f64.next_up())), c(-1.0, 1.0));
        assert_eq!(fwd_sin(Interval::EMPTY), Interval::EMPTY);
        let s = fwd_sin(Interval::point(1e22));
        assert!(s.lo().next_up() == s.hi() && s.lo() < -0.85 && s.hi() > -0.86);
    }

    #[test]
    fn cos_near_pi_and_zero() {
        let k = fwd_cos(c(3.0, 3.5));
        assert_eq!((k.lo(), k.lo_open()), (-1.0, false));
        assert!(k.hi() > -0.99 && k.hi() < -0.93);
        // RN(π) < π: cos(RN(π)) = -1 + 7e-33 rounds down to -1, but -1 is not attained
        let k = fwd_cos(c(3.0, PI));
        assert_eq!((k.lo(), k.lo_open()), (-1.0, true));
        assert_eq!(fwd_cos(c(-1.0, 1.0)).hi(), 1.0);
        assert_eq!(fwd_cos(c(0.0, 1.0)).hi(), 1.0);
        assert!(!fwd_cos(c(0.0, 1.0)).hi_open());
        // (0, 1]: the supremum 1 is not attained
        assert!(fwd_cos(Interval::new(0.0, true, 1.0, false)).hi_open());
        assert!(fwd_cos(Interval::new(-1.0, false, 0.0, true)).hi_open());
        assert_eq!(fwd_cos(Interval::point(0.0)), c(1.0, 1.0));
    }

    #[test]
    fn tan_across_a_pole() {
        assert_eq!(fwd_tan(c(1.0, 2.0)), Interval::ENTIRE);
        assert_eq!(fwd_tan(c(-2.0, -1.0)), Interval::ENTIRE);
        assert_eq!(fwd_tan(c(FRAC_PI_2, FRAC_PI_2.next_up())), Interval::ENTIRE);
        let t = fwd_tan(Interval::point(FRAC_PI_2));
        assert!(t.lo() > 1e16 && t.is_bounded());
        let t = fwd_tan(c(-1.0, 1.0));
        assert!(t.lo() < -1.557 && t.hi() > 1.557 && t.hi() < 1.558);
        assert_eq!(fwd_tan(Interval::point(0.0)), Interval::point(0.0));
    }

    #[test]
    fn sin_backward() {
        // sin(x) ∈ [0, 1] on [-1, 1]: x ∈ [0, 1] (asin(0) = 0 is exact)
        assert_eq!(bwd_sin_a(c(0.0, 1.0), c(-1.0, 1.0)), c(0.0, 1.0));
        // sin(x) ∈ (0, 1]: x = 0 is out
        assert_eq!(
            bwd_sin_a(Interval::new(0.0, true, 1.0, false), c(-1.0, 1.0)),
            Interval::new(0.0, true, 1.0, false)
        );
        // sin(x) = 1 on [0, 3]: x = π/2 only
        // the real π/2 lies between RN(π/2) and the next double; sin(RN(π/2)) < 1
        let b = bwd_sin_a(c(1.0, 1.0), c(0.0, 3.0));
        assert_eq!(b, Interval::open(FRAC_PI_2, FRAC_PI_2.next_up()));
        // sin(x) ∈ [0.5, 1] on [3, 10]: sin(3) = 0.14, falling: the first feasible point is
        // on the next branch, 2π + π/6
        let b = bwd_sin_a(c(0.5, 1.0), c(3.0, 10.0));
        let lo = 2.0 * PI + PI / 6.0;
        assert!((b.lo() - lo).abs() < 1e-14 && b.lo() <= lo, "{b}");
        // sin(10) = -0.54: the upper end moves back to 3π - π/6
        let hi = 3.0 * PI - PI / 6.0;
        assert!((b.hi() - hi).abs() < 1e-14 && b.hi() >= hi, "{b}");
        assert_eq!(bwd_sin_a(c(2.0, 3.0), c(-10.0, 10.0)), Interval::EMPTY);
        assert_eq!(bwd_sin_a(c(0.5, 0.6), c(2.0, 2.2)), Interval::EMPTY);
        assert_eq!(bwd_sin_a(c(-1.0, 1.0), Interval::ENTIRE), Interval::ENTIRE);
        // sin(2) = 0.91 is feasible: the lower end stays
        assert_eq!(bwd_sin_a(c(0.5, 1.0), c(2.0, 2.5)), c(2.0, 2.5));
        // unbounded boxes keep their infinite ends
        let b = bwd_sin_a(c(0.5, 1.0), Interval::at_least(3.0, false));
        assert!((b.lo() - lo).abs() < 1e-14 && b.hi() == INF);
    }

    #[test]
    fn cos_and_tan_backward() {
        // cos(x) ∈ [0.5, 1] on [0, 3]: x ∈ [0, π/3]
        let b = bwd_cos_a(c(0.5, 1.0), c(0.0, 3.0));
        assert!(b.lo() == 0.0 && (b.hi() - PI / 3.0).abs() < 1e-15, "{b}");
        // cos(x) = 1 on [-1, 1]: x = 0 exactly (acos(1) = 0)
        assert_eq!(bwd_cos_a(c(1.0, 1.0), c(-1.0, 1.0)), c(0.0, 0.0));
        // tan(x) ∈ [0, 1] on [-1, 1.5]: x ∈ [0, π/4]
        let b = bwd_tan_a(c(0.0, 1.0), c(-1.0, 1.5));
        assert!(b.lo() == 0.0 && (b.hi() - PI / 4.0).abs() < 1e-15, "{b}");
        // tan(x) ∈ [0, 1] on [1, 2]: tan > 1 on [1, π/2) and < 0 on (π/2, 2], but the pole
        // π/2 is feasible (unspecified): the box shrinks to the doubles around it
        let b = bwd_tan_a(c(0.0, 1.0), c(1.0, 2.0));
        assert_eq!(b, Interval::open(FRAC_PI_2, FRAC_PI_2.next_up()));
        assert_eq!(bwd_tan_a(Interval::ENTIRE, c(1.0, 2.0)), c(1.0, 2.0));
    }
}
