//! Outward-rounded real intervals with open or closed ends.
//!
//! The idea: an [`Interval`] is a set of *reals* described by two `f64` ends, each open or
//! closed, and every operation returns a superset of the exact image — outward rounding is a
//! property of this type, never of its callers. Ends are open or closed because iSAT3's bound
//! literals are strict or non-strict: `x > 0` over the reals must stay `(0, …`; closing it at
//! the smallest positive double would lose the real solutions in `(0, 5e-324)`.
//!
//! Rounding is decided exactly (module `round`): each end is computed in round-to-nearest,
//! an error-free transformation tells on which side the exact value lies, and the end moves
//! one ulp outward only if it has to. So an exact end stays exact (`[1,1] + [2,2] = [3,3]`) and
//! an inexact end is the directed rounding (RD for lower, RU for upper ends) of the exact one.
//!
//! Open/closed rule: an end computed exactly is closed iff the exact bound is *attained* by
//! some point of the arguments (`(0,1] + [1,2] = (1,3]`). An end that had to be rounded is
//! strictly outside the exact image, so it is reported *open** — sound, and tighter than
//! closed. Infinite ends are always open (±inf are not reals).
//!
//! Operations and how each end is rounded:
//! - `+`, `-` (operators): TwoSum error term → correctly rounded directed ends.
//! - `*`: nine sign cases, end products with `0 · inf = 0`; FMA residual (exact `u128`
//!   significand comparison for tiny products) → correctly rounded directed ends.
//! - `/` (hull) and [`Interval::div_pieces`] (two pieces, for a divisor straddling 0):
//!   remainder `fma(-q, b, a)` (exact comparison when tiny) → correctly rounded.
//! - [`Interval::sqrt`]: residual `fma(-s, s, x)` → correctly rounded.
//! - [`Interval::pow`], [`Interval::sqr`]: binary powering with each product rounded in the
//!   end's direction (sound by monotonicity on `|x|`); exact when every product is.
//! - [`Interval::nrt`]: a guess certified by an exact-direction power (`r^n <= x` rounded up
//!   for lower ends); a few ulps at most, exact roots stay exact.
//! - `-`, [`Interval::abs`], [`Interval::min`], [`Interval::max`], [`Interval::hull`],
//!   [`Interval::intersect`], [`Interval::round_integral`]: exact, no rounding.
//! - [`Interval::from_rational`], [`Interval::from_bounds`]: exact rounding of the rational
//!   (RD/RU via [`FpFormat::round_rational`]); slow, for constants only.
//!
//! Invariants (checked by [`Interval::is_valid`]): no NaN; `lo < hi`, or `lo == hi` finite
//! with both ends closed; infinite ends open; zero ends are `+0.0`; the empty set has one
//! representation ([`Interval::EMPTY`]), so `==` is set equality.

mod round;

use crate::formula::Domain;
use crate::num::{FpFormat, Rational, RoundingMode};
use round::Rnd;
use std::cmp::Ordering;
use std::fmt;

/// A set of reals `⟨lo, hi⟩` with each end open or closed, or the empty set. `Copy`, 24
/// bytes, no allocation in any operation.
#[derive(Clone, Copy, PartialEq)]
pub struct Interval {
    lo: f64,
    hi: f64,
    lo_open: bool,
    hi_open: bool,
}

const INF: f64 = f64::INFINITY;
const NEG_INF: f64 = f64::NEG_INFINITY;

/// A lower end from a rounded value: `(value, open)`. Exact and attained → closed; anything
/// else open (rounded ends are strictly below the exact bound).
#[inline]
fn lower_end(r: Rnd, attained: bool) -> (f64, bool) {
    let (v, exact) = r.down();
    (v, !(exact && attained))
}

#[inline]
fn upper_end(r: Rnd, attained: bool) -> (f64, bool) {
    let (v, exact) = r.up();
    (v, !(exact && attained))
}

/// The smaller of two lower ends; at a tie the end is closed if either is.
#[inline]
fn min_end(a: (f64, bool), b: (f64, bool)) -> (f64, bool) {
    if a.0 < b.0 {
        a
    } else if b.0 < a.0 {
        b
    } else {
        (a.0, a.1 && b.1)
    }
}

/// The larger of two upper ends; at a tie the end is closed if either is.
#[inline]
fn max_end(a: (f64, bool), b: (f64, bool)) -> (f64, bool) {
    if a.0 > b.0 {
        a
    } else if b.0 > a.0 {
        b
    } else {
        (a.0, a.1 && b.1)
    }
}

/// Whether the product of two interval ends is attained by some point: both ends closed (then
/// both are finite), or one of them is a closed zero (0 times anything is 0).
#[inline]
fn prod_attained(x: f64, xc: bool, y: f64, yc: bool) -> bool {
    (xc && (yc || x == 0.0)) || (yc && y == 0.0)
}

#[inline]
fn lo_prod(x: f64, xc: bool, y: f64, yc: bool) -> (f64, bool) {
    lower_end(round::mul(x, y), prod_attained(x, xc, y, yc))
}

#[inline]
fn hi_prod(x: f64, xc: bool, y: f64, yc: bool) -> (f64, bool) {
    upper_end(round::mul(x, y), prod_attained(x, xc, y, yc))
}

/// The sign class of a non-empty interval: all `>= 0`, all `<= 0`, or straddling zero.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sign {
    Pos,
    Neg,
    Mixed,
}

/// `x^n` rounded down for any sign of `x` and odd `n`, with exactness.
#[inline]
fn odd_pow_down(x: f64, n: u32) -> (f64, bool) {
    if x >= 0.0 {
        round::pow_nonneg_down(x, n)
    } else {
        let (v, e) = round::pow_nonneg_up(-x, n);
        (-v, e)
    }
}

#[inline]
fn odd_pow_up(x: f64, n: u32) -> (f64, bool) {
    if x >= 0.0 {
        round::pow_nonneg_up(x, n)
    } else {
        let (v, e) = round::pow_nonneg_down(-x, n);
        (-v, e)
    }
}

/// Odd `n`-th root rounded down for any sign of `x`.
#[inline]
fn odd_root_down(x: f64, n: u32) -> (f64, bool) {
    if x >= 0.0 {
        round::root_down(x, n)
    } else {
        let (v, e) = round::root_up(-x, n);
        (-v, e)
    }
}

#[inline]
fn odd_root_up(x: f64, n: u32) -> (f64, bool) {
    if x >= 0.0 {
        round::root_up(x, n)
    } else {
        let (v, e) = round::root_down(-x, n);
        (-v, e)
    }
}

/// An exact `f64` value as a rational (finite `x` only).
fn rat(x: f64) -> Rational {
    Rational::from_float(x).unwrap_or_default()
}

/// The largest double `<= q` and the smallest double `>= q` (with `-inf`/`+inf` beyond the
/// finite range), and whether `q` is a double.
fn rational_enclosure(q: &Rational) -> (f64, f64, bool) {
    let f = FpFormat::F64;
    let d = f.round_rational(q, RoundingMode::Rtn);
    let u = f.round_rational(q, RoundingMode::Rtp);
    (f64::from_bits(d), f64::from_bits(u), d == u)
}

impl Interval {
    /// The empty set.
    pub const EMPTY: Interval = Interval {
        lo: INF,
        hi: NEG_INF,
        lo_open: true,
        hi_open: true,
    };
    /// All reals, `(-inf, +inf)`.
    pub const ENTIRE: Interval = Interval {
        lo: NEG_INF,
        hi: INF,
        lo_open: true,
        hi_open: true,
    };

    /// `⟨lo, hi⟩` with the given end kinds, normalized: infinite ends become open, `-0.0`
    /// becomes `+0.0`, an end that is NaN becomes the infinity on its side (a superset), and
    /// `lo > hi` or `lo == hi` with an open end gives [`Interval::EMPTY`].
    #[inline]
    pub fn new(lo: f64, lo_open: bool, hi: f64, hi_open: bool) -> Interval {
        let lo = if lo.is_nan() { NEG_INF } else { lo + 0.0 };
        let hi = if hi.is_nan() { INF } else { hi + 0.0 };
        let lo_open = lo_open || lo == NEG_INF;
        let hi_open = hi_open || hi == INF;
        if lo < hi || (lo == hi && !lo_open && !hi_open) {
            Interval {
                lo,
                hi,
                lo_open,
                hi_open,
            }
        } else {
            Interval::EMPTY
        }
    }

    #[inline]
    fn from_ends(lo: (f64, bool), hi: (f64, bool)) -> Interval {
        Interval::new(lo.0, lo.1, hi.0, hi.1)
    }

    /// `[lo, hi]` (infinite ends are open anyway).
    #[inline]
    pub fn closed(lo: f64, hi: f64) -> Interval {
        Interval::new(lo, false, hi, false)
    }

    /// `(lo, hi)`.
    #[inline]
    pub fn open(lo: f64, hi: f64) -> Interval {
        Interval::new(lo, true, hi, true)
    }

    /// `[x, x]`; empty for a NaN or infinite `x` (no real is infinite).
    #[inline]
    pub fn point(x: f64) -> Interval {
        Interval::new(x, false, x, false)
    }

    /// `[x, +inf)` or `(x, +inf)`.
    #[inline]
    pub fn at_least(x: f64, strict: bool) -> Interval {
        Interval::new(x, strict, INF, true)
    }

    /// `(-inf, x]` or `(-inf, x)`.
    #[inline]
    pub fn at_most(x: f64, strict: bool) -> Interval {
        Interval::new(NEG_INF, true, x, strict)
    }

    /// The tightest interval containing the rational `q`: `[q, q]` if `q` is a double, else
    /// `(RD(q), RU(q))` — open, since the doubles themselves are not `q`.
    pub fn from_rational(q: &Rational) -> Interval {
        Interval::from_bounds(Some((q, false)), Some((q, false)))
    }

    /// The tightest interval containing `{x : lo ~ x ~ hi}` with rational bounds (`None` =
    /// unbounded; `strict` = open). A bound that is a double keeps its kind; one that is not
    /// is rounded outward to the adjacent double and becomes open (the enclosure is strictly
    /// larger there, so the double is not in the set either way — open is sound and tighter).
    pub fn from_bounds(lo: Option<(&Rational, bool)>, hi: Option<(&Rational, bool)>) -> Interval {
        let (l, lo_open) = match lo {
            None => (NEG_INF, true),
            Some((q, strict)) => {
                let (d, _, exact) = rational_enclosure(q);
                (d, strict || !exact)
            }
        };
        let (h, hi_open) = match hi {
            None => (INF, true),
            Some((q, strict)) => {
                let (_, u, exact) = rational_enclosure(q);
                (u, strict || !exact)
            }
        };
        Interval::new(l, lo_open, h, hi_open)
    }

    /// The enclosure of a declared [`Domain`].
    pub fn from_domain(d: &Domain) -> Interval {
        Interval::from_bounds(
            d.lo.as_ref().map(|b| (&b.value, b.strict)),
            d.hi.as_ref().map(|b| (&b.value, b.strict)),
        )
    }

    /// The lower end (`+inf` for the empty set).
    #[inline]
    pub fn lo(self) -> f64 {
        self.lo
    }
    /// The upper end (`-inf` for the empty set).
    #[inline]
    pub fn hi(self) -> f64 {
        self.hi
    }
    #[inline]
    pub fn lo_open(self) -> bool {
        self.lo_open
    }
    #[inline]
    pub fn hi_open(self) -> bool {
        self.hi_open
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.lo > self.hi
    }
    /// A single real `[x, x]`.
    #[inline]
    pub fn is_point(self) -> bool {
        self.lo == self.hi
    }
    /// Both ends finite.
    #[inline]
    pub fn is_bounded(self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }
    #[inline]
    pub fn is_entire(self) -> bool {
        self.lo == NEG_INF && self.hi == INF
    }

    /// The type's invariants (see the module docs); every operation preserves them.
    pub fn is_valid(self) -> bool {
        if self == Interval::EMPTY {
            return true;
        }
        let no_neg_zero = |x: f64| x != 0.0 || x.is_sign_positive();
        !self.lo.is_nan()
            && !self.hi.is_nan()
            && (self.lo < self.hi || (self.lo == self.hi && !self.lo_open && !self.hi_open))
            && (self.lo.is_finite() || self.lo_open)
            && (self.hi.is_finite() || self.hi_open)
            && self.lo != INF
            && self.hi != NEG_INF
            && no_neg_zero(self.lo)
            && no_neg_zero(self.hi)
    }

    /// `x ∈ self` for a double (exact: doubles are reals).
    #[inline]
    pub fn contains(self, x: f64) -> bool {
        (self.lo < x || (self.lo == x && !self.lo_open))
            && (x < self.hi || (x == self.hi && !self.hi_open))
    }

    #[inline]
    pub fn contains_zero(self) -> bool {
        self.contains(0.0)
    }

    /// `q ∈ self`, decided exactly.
    pub fn contains_rational(self, q: &Rational) -> bool {
        if self.is_empty() {
            return false;
        }
        let lo_ok = self.lo == NEG_INF
            || match q.cmp(&rat(self.lo)) {
                Ordering::Greater => true,
                Ordering::Equal => !self.lo_open,
                Ordering::Less => false,
            };
        let hi_ok = self.hi == INF
            || match q.cmp(&rat(self.hi)) {
                Ordering::Less => true,
                Ordering::Equal => !self.hi_open,
                Ordering::Greater => false,
            };
        lo_ok && hi_ok
    }

    /// `self ⊆ other`.
    pub fn is_subset(self, other: Interval) -> bool {
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        let lo_ok = other.lo < self.lo || (other.lo == self.lo && (!other.lo_open || self.lo_open));
        let hi_ok = self.hi < other.hi || (other.hi == self.hi && (!other.hi_open || self.hi_open));
        lo_ok && hi_ok
    }

    /// The intersection (exact: no rounding involved).
    #[inline]
    pub fn intersect(self, o: Interval) -> Interval {
        let lo = if self.lo > o.lo {
            (self.lo, self.lo_open)
        } else if o.lo > self.lo {
            (o.lo, o.lo_open)
        } else {
            (self.lo, self.lo_open || o.lo_open)
        };
        let hi = if self.hi < o.hi {
            (self.hi, self.hi_open)
        } else if o.hi < self.hi {
            (o.hi, o.hi_open)
        } else {
            (self.hi, self.hi_open || o.hi_open)
        };
        Interval::from_ends(lo, hi)
    }

    /// The smallest interval containing both (exact).
    #[inline]
    pub fn hull(self, o: Interval) -> Interval {
        if self.is_empty() {
            return o;
        }
        if o.is_empty() {
            return self;
        }
        Interval::from_ends(
            min_end((self.lo, self.lo_open), (o.lo, o.lo_open)),
            max_end((self.hi, self.hi_open), (o.hi, o.hi_open)),
        )
    }

    /// The part `>= 0` (`self ∩ [0, +inf)`).
    #[inline]
    pub fn nonneg_part(self) -> Interval {
        self.intersect(Interval::at_least(0.0, false))
    }

    /// The part `< 0` (`self ∩ (-inf, 0)`).
    #[inline]
    pub fn neg_part(self) -> Interval {
        self.intersect(Interval::at_most(0.0, true))
    }

    /// An upper bound of `hi - lo` (`+inf` if unbounded, `0` for points and the empty set).
    pub fn width(self) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        round::add(self.hi, -self.lo).up().0
    }

    /// A finite point to split at, or `None` for the empty set. Always in `[lo, hi]`, and
    /// strictly inside whenever a double lies strictly inside: the rounded middle for bounded
    /// intervals; `0` for intervals around zero with an infinite end; otherwise a point twice
    /// as far from zero as the finite end (saturating at `±MAX`).
    pub fn split_point(self) -> Option<f64> {
        if self.is_empty() {
            return None;
        }
        let (lo, hi) = (self.lo, self.hi);
        let m = match (lo.is_finite(), hi.is_finite()) {
            // halves are exact unless tiny; this cannot overflow
            (true, true) => lo * 0.5 + hi * 0.5,
            (false, false) => 0.0,
            (false, true) => {
                if hi > 0.0 {
                    0.0
                } else {
                    (hi * 2.0 - 1.0).max(-f64::MAX)
                }
            }
            (true, false) => {
                if lo < 0.0 {
                    0.0
                } else {
                    (lo * 2.0 + 1.0).min(f64::MAX)
                }
            }
        };
        // keep it inside, and off the ends where a double in between exists
        let m = m.clamp(lo.max(-f64::MAX), hi.min(f64::MAX));
        let m = if m == lo && lo.next_up() < hi {
            lo.next_up()
        } else if m == hi && hi.next_down() > lo {
            hi.next_down()
        } else {
            m
        };
        Some(m + 0.0)
    }

    /// The integers of `self` as an interval with integral (closed) ends: `lo` → ceiling, `hi`
    /// → floor, an open integral end moves to the next integer and becomes closed. Beyond
    /// 2^53, where the next integer may not be a double, an open integral end stays as it is
    /// (a sound superset). Infinite ends stay open.
    pub fn round_integral(self) -> Interval {
        if self.is_empty() {
            return Interval::EMPTY;
        }
        let lo = if self.lo == NEG_INF {
            (NEG_INF, true)
        } else {
            let c = self.lo.ceil();
            if c > self.lo || !self.lo_open {
                (c, false)
            } else {
                let (n, exact) = round::add(c, 1.0).down();
                if exact {
                    (n, false)
                } else {
                    (c, true)
                }
            }
        };
        let hi = if self.hi == INF {
            (INF, true)
        } else {
            let f = self.hi.floor();
            if f < self.hi || !self.hi_open {
                (f, false)
            } else {
                let (n, exact) = round::add(f, -1.0).up();
                if exact {
                    (n, false)
                } else {
                    (f, true)
                }
            }
        };
        Interval::from_ends(lo, hi)
    }

    /// `-self` (exact).
    #[inline]
    fn neg_impl(self) -> Interval {
        if self.is_empty() {
            return Interval::EMPTY;
        }
        Interval::new(-self.hi, self.hi_open, -self.lo, self.lo_open)
    }

    /// `{x + y}`.
    #[inline]
    fn add_impl(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY;
        }
        Interval::from_ends(
            lower_end(round::add(self.lo, o.lo), !self.lo_open && !o.lo_open),
            upper_end(round::add(self.hi, o.hi), !self.hi_open && !o.hi_open),
        )
    }

    /// `{x - y}`.
    #[inline]
    fn sub_impl(self, o: Interval) -> Interval {
        self.add_impl(o.neg_impl())
    }

    #[inline]
    fn sign(self) -> Sign {
        if self.lo >= 0.0 {
            Sign::Pos
        } else if self.hi <= 0.0 {
            Sign::Neg
        } else {
            Sign::Mixed
        }
    }

    /// `{x · y}`, by the nine sign cases (two end products, four when both straddle zero),
    /// with `0 · inf = 0` for the limit values at infinite ends.
    fn mul_impl(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY;
        }
        let (xl, xlc, xh, xhc) = (self.lo, !self.lo_open, self.hi, !self.hi_open);
        let (yl, ylc, yh, yhc) = (o.lo, !o.lo_open, o.hi, !o.hi_open);
        use Sign::*;
        let (lo, hi) = match (self.sign(), o.sign()) {
            (Pos, Pos) => (lo_prod(xl, xlc, yl, ylc), hi_prod(xh, xhc, yh, yhc)),
            (Pos, Neg) => (lo_prod(xh, xhc, yl, ylc), hi_prod(xl, xlc, yh, yhc)),
            (Pos, Mixed) => (lo_prod(xh, xhc, yl, ylc), hi_prod(xh, xhc, yh, yhc)),
            (Neg, Pos) => (lo_prod(xl, xlc, yh, yhc), hi_prod(xh, xhc, yl, ylc)),
            (Neg, Neg) => (lo_prod(xh, xhc, yh, yhc), hi_prod(xl, xlc, yl, ylc)),
            (Neg, Mixed) => (lo_prod(xl, xlc, yh, yhc), hi_prod(xl, xlc, yl, ylc)),
            (Mixed, Pos) => (lo_prod(xl, xlc, yh, yhc), hi_prod(xh, xhc, yh, yhc)),
            (Mixed, Neg) => (lo_prod(xh, xhc, yl, ylc), hi_prod(xl, xlc, yl, ylc)),
            (Mixed, Mixed) => (
                min_end(lo_prod(xl, xlc, yh, yhc), lo_prod(xh, xhc, yl, ylc)),
                max_end(hi_prod(xl, xlc, yl, ylc), hi_prod(xh, xhc, yh, yhc)),
            ),
        };
        Interval::from_ends(lo, hi)
    }

    /// `{x^2}` (tighter than `self · self` when `self` straddles zero).
    #[inline]
    pub fn sqr(self) -> Interval {
        self.pow(2)
    }

    /// `{x^n}` for `n >= 0` (`x^0 = 1`, also for `x = 0`). Odd `n` is monotone; even `n`
    /// folds the negative part. Ends by binary powering with every product rounded in the
    /// end's direction (sound on `|x|` by monotonicity; at most one rounding per product).
    pub fn pow(self, n: u32) -> Interval {
        if self.is_empty() {
            return Interval::EMPTY;
        }
        if n == 0 {
            return Interval::point(1.0);
        }
        if n == 1 {
            return self;
        }
        let (l, lc, h, hc) = (self.lo, !self.lo_open, self.hi, !self.hi_open);
        let lo_end = |(v, exact): (f64, bool), attained: bool| (v, !(exact && attained));
        if n & 1 == 1 {
            return Interval::from_ends(
                lo_end(odd_pow_down(l, n), lc),
                lo_end(odd_pow_up(h, n), hc),
            );
        }
        match self.sign() {
            Sign::Pos => Interval::from_ends(
                lo_end(round::pow_nonneg_down(l, n), lc),
                lo_end(round::pow_nonneg_up(h, n), hc),
            ),
            Sign::Neg => Interval::from_ends(
                lo_end(round::pow_nonneg_down(-h, n), hc),
                lo_end(round::pow_nonneg_up(-l, n), lc),
            ),
            Sign::Mixed => {
                // 0 is an interior point, so x^n = 0 is attained
                let (m, mc) = if -l > h {
                    (-l, lc)
                } else if h > -l {
                    (h, hc)
                } else {
                    (h, lc || hc)
                };
                Interval::from_ends((0.0, false), lo_end(round::pow_nonneg_up(m, n), mc))
            }
        }
    }

    /// The real `n`-th roots: for odd `n`, `{r : r^n ∈ self}` (odd roots of negatives are
    /// negative); for even `n`, the nonnegative roots of the part of `self` that is `>= 0`.
    /// `n = 1` is the identity; `n = 0` has no meaning and gives all reals. Ends are
    /// certified by exact-direction powers (see `round::root_down`), a few ulps wide at most.
    pub fn nrt(self, n: u32) -> Interval {
        if self.is_empty() {
            return Interval::EMPTY;
        }
        match n {
            0 => return Interval::ENTIRE,
            1 => return self,
            2 => return self.sqrt(),
            _ => {}
        }
        let x = if n & 1 == 0 { self.nonneg_part() } else { self };
        if x.is_empty() {
            return Interval::EMPTY;
        }
        let end = |(v, exact): (f64, bool), open: bool| (v, !exact || open);
        if n & 1 == 0 {
            Interval::from_ends(
                end(round::root_down(x.lo, n), x.lo_open),
                end(round::root_up(x.hi, n), x.hi_open),
            )
        } else {
            Interval::from_ends(
                end(odd_root_down(x.lo, n), x.lo_open),
                end(odd_root_up(x.hi, n), x.hi_open),
            )
        }
    }

    /// `{sqrt(x) : x ∈ self, x >= 0}` — the square roots of the nonnegative part. Correctly
    /// rounded directed ends (hardware sqrt, direction from the exact residual `x - s²`).
    pub fn sqrt(self) -> Interval {
        let x = self.nonneg_part();
        if x.is_empty() {
            return Interval::EMPTY;
        }
        Interval::from_ends(
            lower_end(round::sqrt(x.lo), !x.lo_open),
            upper_end(round::sqrt(x.hi), !x.hi_open),
        )
    }

    /// `{|x|}` (exact).
    pub fn abs(self) -> Interval {
        match self.sign() {
            _ if self.is_empty() => Interval::EMPTY,
            Sign::Pos => self,
            Sign::Neg => -self,
            Sign::Mixed => Interval::from_ends(
                (0.0, false),
                max_end((-self.lo, self.lo_open), (self.hi, self.hi_open)),
            ),
        }
    }

    /// `{min(x, y)}` (exact). The infimum `min(lo_x, lo_y)` is attained iff one of the ends
    /// equal to it is closed; the supremum `min(hi_x, hi_y)` at a tie needs both closed.
    pub fn min(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY;
        }
        let hi = if self.hi < o.hi {
            (self.hi, self.hi_open)
        } else if o.hi < self.hi {
            (o.hi, o.hi_open)
        } else {
            (self.hi, self.hi_open || o.hi_open)
        };
        Interval::from_ends(min_end((self.lo, self.lo_open), (o.lo, o.lo_open)), hi)
    }

    /// `{max(x, y)}` (exact); mirror of [`Interval::min`].
    pub fn max(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY;
        }
        let lo = if self.lo > o.lo {
            (self.lo, self.lo_open)
        } else if o.lo > self.lo {
            (o.lo, o.lo_open)
        } else {
            (self.lo, self.lo_open || o.lo_open)
        };
        Interval::from_ends(lo, max_end((self.hi, self.hi_open), (o.hi, o.hi_open)))
    }

    /// `{c · x}` for an exact rational `c` (encloses `c` first: for hot paths precompute
    /// `Interval::from_rational(c)` once and use [`Interval::mul`]).
    pub fn scale(self, c: &Rational) -> Interval {
        self * Interval::from_rational(c)
    }

    /// `{x / y : y ≠ 0}` for `y` strictly positive (`y` may have an open end at 0).
    fn div_pos(self, y: Interval) -> Interval {
        let (xl, xlc, xh, xhc) = (self.lo, !self.lo_open, self.hi, !self.hi_open);
        let (yl, ylc, yh, yhc) = (y.lo, !y.lo_open, y.hi, !y.hi_open);
        // For y > 0, x/y grows with x; it falls with y for x >= 0 and grows with y for x < 0.
        let lo = if xl >= 0.0 {
            // xl / yh, tending to 0 when yh = inf; 0/y = 0 is attained for a closed xl = 0
            if xl == 0.0 || yh == INF {
                (0.0, !(xl == 0.0 && xlc))
            } else {
                lower_end(round::div(xl, yh), xlc && yhc)
            }
        } else if xl == NEG_INF || yl == 0.0 {
            (NEG_INF, true)
        } else {
            lower_end(round::div(xl, yl), xlc && ylc)
        };
        let hi = if xh <= 0.0 {
            if xh == 0.0 || yh == INF {
                (0.0, !(xh == 0.0 && xhc))
            } else {
                upper_end(round::div(xh, yh), xhc && yhc)
            }
        } else if xh == INF || yl == 0.0 {
            (INF, true)
        } else {
            upper_end(round::div(xh, yl), xhc && ylc)
        };
        Interval::from_ends(lo, hi)
    }

    /// Extended division: `{x / y : x ∈ self, y ∈ o, y ≠ 0}` as two pieces, the quotients by
    /// the negative part of `o` and by its positive part (either may be empty). When `0` is
    /// interior to `o` the union can have a gap; contractors intersect each piece with the
    /// target box before taking the hull.
    pub fn div_pieces(self, o: Interval) -> [Interval; 2] {
        if self.is_empty() || o.is_empty() {
            return [Interval::EMPTY; 2];
        }
        let yn = o.neg_part();
        let yp = o.intersect(Interval::at_least(0.0, true));
        let neg = if yn.is_empty() {
            Interval::EMPTY
        } else {
            // x / y = (-x) / (-y)
            (-self).div_pos(-yn)
        };
        let pos = if yp.is_empty() {
            Interval::EMPTY
        } else {
            self.div_pos(yp)
        };
        [neg, pos]
    }

    /// `{x / y : y ≠ 0}`: the hull of [`Interval::div_pieces`] — the whole line when `0` is
    /// interior to the divisor and the dividend is not `[0, 0]`; empty for a divisor `[0, 0]`.
    /// ICP uses this hull (or the pieces, intersected with a box first). Ends are correctly
    /// rounded: the remainder `fma(-q, b, a)` gives the side of each quotient exactly.
    fn div_impl(self, o: Interval) -> Interval {
        let [a, b] = self.div_pieces(o);
        a.hull(b)
    }
}

impl Default for Interval {
    /// All reals.
    fn default() -> Self {
        Interval::ENTIRE
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "empty");
        }
        write!(
            f,
            "{}{:e}, {:e}{}",
            if self.lo_open { '(' } else { '[' },
            self.lo,
            self.hi,
            if self.hi_open { ')' } else { ']' }
        )
    }
}

impl fmt::Debug for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

macro_rules! bin_op {
    ($tr:ident, $m:ident, $imp:ident) => {
        impl std::ops::$tr for Interval {
            type Output = Interval;
            #[inline]
            fn $m(self, o: Interval) -> Interval {
                Interval::$imp(self, o)
            }
        }
    };
}
bin_op!(Add, add, add_impl);
bin_op!(Sub, sub, sub_impl);
bin_op!(Mul, mul, mul_impl);
bin_op!(Div, div, div_impl);

impl std::ops::Neg for Interval {
    type Output = Interval;
    #[inline]
    fn neg(self) -> Interval {
        Interval::neg_impl(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }
    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }
    fn p(x: f64) -> Interval {
        Interval::point(x)
    }
    fn r(x: f64) -> Rational {
        Rational::from_float(x).unwrap()
    }

    #[test]
    fn exact_results_are_not_widened() {
        assert_eq!(p(1.0) + p(2.0), p(3.0));
        assert_eq!(p(6.0) / p(3.0), p(2.0));
        assert_eq!(p(1.5) * p(-4.0), p(-6.0));
        assert_eq!(p(9.0).sqrt(), p(3.0));
        assert_eq!(p(-3.0).pow(3), p(-27.0));
        assert_eq!(p(-27.0).nrt(3), p(-3.0));
        assert_eq!(p(16.0).nrt(4), p(2.0));
        assert_eq!(c(-2.0, 3.0).sqr(), c(0.0, 9.0));
        assert_eq!(c(-2.0, 3.0) * c(-2.0, 3.0), c(-6.0, 9.0));
    }

    #[test]
    fn inexact_sum_is_one_ulp_each_side() {
        let s = p(0.1) + p(0.2);
        let exact = r(0.1) + r(0.2);
        assert!(s.contains_rational(&exact));
        assert!(s.lo_open() && s.hi_open());
        // RD and RU of the exact sum: adjacent doubles
        assert_eq!(s.lo().next_up(), s.hi());
        assert!(s.lo() == 0.1 + 0.2 || s.hi() == 0.1 + 0.2);
        assert_eq!(s, Interval::from_rational(&exact));
    }

    #[test]
    fn open_and_closed_ends_propagate() {
        let a = Interval::new(0.0, true, 1.0, false);
        assert_eq!(a + c(1.0, 2.0), Interval::new(1.0, true, 3.0, false));
        assert_eq!(a - c(1.0, 2.0), Interval::new(-2.0, true, 0.0, false));
        // (0,1] · [2,3] = (0,3]; [0,1] · (2,3) = [0,3)
        assert_eq!(a * c(2.0, 3.0), Interval::new(0.0, true, 3.0, false));
        assert_eq!(
            c(0.0, 1.0) * Interval::open(2.0, 3.0),
            Interval::new(0.0, false, 3.0, true)
        );
        // (0,1] / [1,+inf) = (0, 1]
        assert_eq!(a / Interval::at_least(1.0, false), a);
        // [1,2] / (0,1] = [1, +inf)
        assert_eq!(c(1.0, 2.0) / a, Interval::at_least(1.0, false));
        // x > 0 stays open at 0
        let pos = Interval::at_least(0.0, true);
        assert!(!pos.contains(0.0) && pos.contains(f64::from_bits(1)));
        assert_eq!(pos.sqrt(), pos);
        assert_eq!(
            Interval::open(-1.0, 2.0).abs(),
            Interval::new(0.0, false, 2.0, true)
        );
        assert_eq!(Interval::new(-2.0, false, 2.0, true).abs(), c(0.0, 2.0));
        // min of (.., 3) and (.., 3]: sup 3 needs both x = 3 and y = 3
        let m = Interval::at_most(3.0, true).min(Interval::at_most(3.0, false));
        assert_eq!(m, Interval::at_most(3.0, true));
        let m = Interval::at_least(1.0, true).min(Interval::at_least(1.0, false));
        assert_eq!(m, Interval::at_least(1.0, false));
    }

    #[test]
    fn rational_bounds_round_outward() {
        let third = q(1, 3);
        let i = Interval::from_bounds(Some((&third, false)), None);
        assert!(Rational::from_float(i.lo()).unwrap() < third && i.lo_open());
        assert!(i.contains_rational(&third));
        assert!(!i.contains_rational(&r(i.lo())));
        let i = Interval::from_bounds(Some((&q(1, 2), true)), Some((&q(3, 4), false)));
        assert_eq!(i, Interval::new(0.5, true, 0.75, false));
        let huge = Rational::from_integer(BigInt::from(10).pow(400));
        let i = Interval::from_rational(&huge);
        assert_eq!(i, Interval::open(f64::MAX, f64::INFINITY));
        let tiny = Rational::new(BigInt::from(1), BigInt::from(10).pow(400));
        assert_eq!(
            Interval::from_rational(&tiny),
            Interval::open(0.0, f64::from_bits(1))
        );
    }

    #[test]
    fn domains_become_intervals() {
        use crate::formula::Bound;
        let d = Domain {
            lo: Some(Bound {
                value: q(0, 1),
                strict: true,
            }),
            hi: Some(Bound {
                value: q(1, 10),
                strict: false,
            }),
        };
        let i = Interval::from_domain(&d);
        // x > 0 stays open at 0; 1/10 is not a double: RU(1/10) = 0.1 (above 1/10), open
        assert_eq!(i, Interval::new(0.0, true, 0.1, true));
        assert!(i.contains_rational(&q(1, 10)) && !i.contains(0.0));
        assert_eq!(
            Interval::from_domain(&Domain::unbounded()),
            Interval::ENTIRE
        );
    }

    #[test]
    fn integral_rounding() {
        assert_eq!(Interval::open(0.0, 3.0).round_integral(), c(1.0, 2.0));
        assert_eq!(c(0.5, 2.5).round_integral(), c(1.0, 2.0));
        assert_eq!(Interval::open(0.0, 1.0).round_integral(), Interval::EMPTY);
        assert_eq!(c(0.2, 0.8).round_integral(), Interval::EMPTY);
        assert_eq!(
            Interval::new(-1.5, false, f64::INFINITY, true).round_integral(),
            Interval::at_least(-1.0, false)
        );
        // beyond 2^53 the next integer after an open end is not a double: stay open
        let big = 9007199254740992.0; // 2^53
        assert_eq!(
            Interval::open(big, f64::INFINITY).round_integral(),
            Interval::open(big, f64::INFINITY)
        );
        assert_eq!(
            Interval::open(big - 1.0, f64::INFINITY).round_integral(),
            Interval::at_least(big, false)
        );
    }

    #[test]
    fn no_nan_from_infinities_and_zeros() {
        let zero = p(0.0);
        let e = Interval::ENTIRE;
        let pos = Interval::at_least(0.0, false);
        let neg = Interval::at_most(0.0, false);
        let specials = [
            zero,
            e,
            pos,
            neg,
            Interval::EMPTY,
            Interval::open(0.0, f64::INFINITY),
            p(f64::MAX),
            p(-f64::MAX),
            p(f64::from_bits(1)),
            c(-1.0, 1.0),
            Interval::at_least(f64::MAX, true),
        ];
        for a in specials {
            for b in specials {
                for res in [
                    a + b,
                    a - b,
                    a * b,
                    a / b,
                    a.min(b),
                    a.max(b),
                    a.hull(b),
                    a.intersect(b),
                ] {
                    assert!(res.is_valid(), "{a} {b} -> {res}");
                }
                let [x, y] = a.div_pieces(b);
                assert!(x.is_valid() && y.is_valid());
            }
            for n in 0..6 {
                assert!(a.pow(n).is_valid() && a.nrt(n).is_valid());
            }
            assert!(a.sqrt().is_valid() && a.abs().is_valid() && a.round_integral().is_valid());
            assert!(a.width() >= 0.0);
            if let Some(m) = a.split_point() {
                assert!(m.is_finite() && a.lo() <= m && m <= a.hi());
            }
        }
        assert_eq!(zero * e, zero);
        assert_eq!(pos * e, e);
        assert_eq!(e / zero, Interval::EMPTY);
        assert_eq!(p(1.0) / c(-1.0, 1.0), Interval::ENTIRE);
        assert_eq!(
            p(1.0).div_pieces(c(-1.0, 1.0)),
            [c(f64::NEG_INFINITY, -1.0), c(1.0, f64::INFINITY)]
        );
        assert_eq!(zero / c(-1.0, 1.0), zero);
        assert_eq!(
            Interval::new(f64::NAN, false, 1.0, false),
            Interval::at_most(1.0, false)
        );
        assert_eq!(p(f64::INFINITY), Interval::EMPTY);
    }

    #[test]
    fn split_points_are_inside() {
        let cases = [
            (c(0.0, 1.0), 0.5),
            (Interval::ENTIRE, 0.0),
            (Interval::at_least(3.0, true), 7.0),
            (Interval::at_most(-3.0, false), -7.0),
            (Interval::at_least(-3.0, false), 0.0),
        ];
        for (i, m) in cases {
            assert_eq!(i.split_point(), Some(m), "{i}");
        }
        let x = 1.0f64;
        assert_eq!(c(x, x.next_up()).split_point(), Some(x));
        assert_eq!(c(x, x.next_up().next_up()).split_point(), Some(x.next_up()));
        assert_eq!(c(-f64::MAX, f64::MAX).split_point(), Some(0.0));
        assert_eq!(Interval::EMPTY.split_point(), None);
    }

    #[test]
    fn subset_and_contains() {
        let a = Interval::new(0.0, true, 1.0, false);
        assert!(a.is_subset(c(0.0, 1.0)));
        assert!(!c(0.0, 1.0).is_subset(a));
        assert!(Interval::EMPTY.is_subset(a));
        assert!(a.contains_rational(&q(1, 3)) && !a.contains_rational(&q(0, 1)));
        assert!(a.contains_rational(&q(1, 1)) && !a.contains_rational(&q(4, 3)));
        assert_eq!(a.width(), 1.0);
        assert_eq!(Interval::ENTIRE.width(), f64::INFINITY);
    }
}
