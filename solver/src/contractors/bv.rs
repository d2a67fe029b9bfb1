//! Machine integers (`int8 … uint64`, language doc Part B): contractors over exact integer
//! intervals.
//!
//! The idea: the values of a machine type fit in `i128` with plenty of room (|v| ≤ 2^64), so
//! every contractor here works on exact integer intervals [`IntIv`] with `i128` ends and
//! never rounds; the solver converts its `f64` boxes to the integers they contain (exact) and
//! the results back outward (see `icp_bv.rs`). Intermediate values are bounded before any
//! `i128` operation that could overflow (sums of two type values, products of reduced
//! operands through `checked_mul`, shifts of operands reduced modulo `2^(n-k)`); where a
//! product would overflow the result is the whole type, which is sound and, as argued at
//! [`fwd_mul`], also exact there.
//!
//! Wrap-around makes the image of an interval a union of up to two intervals: [`BvSet`] keeps
//! (at most) two pieces, and [`BvSet::cut`] intersects it with the output's box before taking
//! the hull, so a wrapped image such as `{127} ∪ {-128}` does not blur into the whole type
//! when the output's box already excludes one piece. Where more than two pieces arise (bitwise
//! operations on signed types, shifts by an interval of counts) the closest pieces are merged:
//! a superset, never a loss.
//!
//! Semantics (the `Op` docs): every operation is total. Division and remainder by 0, and
//! shifts by a count outside `[0, width)`, have an *unspecified* result: any value of the
//! type, so forward contractors return the whole type there and backward contractors treat
//! such argument values as always consistent. `MIN / -1` wraps to `MIN`, `MIN % -1` is 0
//! (what Rust's `wrapping_div`/`wrapping_rem` compute). `shl` wraps (also for negative
//! signed values), `shr` is arithmetic on signed and logical on unsigned types.
//!
//! Precision: forward contractors are exact on points. For `+ - neg not` and casts the image
//! is exact (two pieces where it wraps); for `*` and `/` it is the wrapped hull of the exact
//! products or quotients (the exact hull when nothing wraps); `%` gives sound bounds (exact
//! when the quotient is constant over the boxes); `and`/`or`/`xor` use Warren's min/max
//! algorithms ("Hacker's Delight" §4-3: the exact minimum and maximum over unsigned intervals,
//! checked exhaustively on 4-bit types in the tests), signed types through their unsigned bit
//! patterns (each operand splits at the sign, results are joined). Backward contractors: exact inverses modulo `2^n` for `+ - neg not xor` and
//! casts, multiplication by a constant (odd: a unit modulo `2^n`; `2^s·odd` for a point
//! output), `shl`/`shr` by a set of counts, `/` by a constant, sign and magnitude facts of
//! `%`, and bit-subset facts of `and`/`or`. Everything else is a sound no-op backward
//! (documented at each function).

use crate::num::IntType;

/// A closed integer interval `[lo, hi]`; empty when `lo > hi`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct IntIv {
    pub lo: i128,
    pub hi: i128,
}

impl IntIv {
    pub const EMPTY: IntIv = IntIv { lo: 1, hi: 0 };

    pub fn new(lo: i128, hi: i128) -> IntIv {
        if lo > hi {
            IntIv::EMPTY
        } else {
            IntIv { lo, hi }
        }
    }
    pub fn point(v: i128) -> IntIv {
        IntIv { lo: v, hi: v }
    }
    pub fn is_empty(self) -> bool {
        self.lo > self.hi
    }
    pub fn is_point(self) -> bool {
        self.lo == self.hi
    }
    pub fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }
    pub fn intersect(self, o: IntIv) -> IntIv {
        IntIv::new(self.lo.max(o.lo), self.hi.min(o.hi))
    }
    pub fn hull(self, o: IntIv) -> IntIv {
        if self.is_empty() {
            o
        } else if o.is_empty() {
            self
        } else {
            IntIv::new(self.lo.min(o.lo), self.hi.max(o.hi))
        }
    }
    pub fn is_subset(self, o: IntIv) -> bool {
        self.is_empty() || (o.lo <= self.lo && self.hi <= o.hi)
    }
}

/// A union of at most two disjoint integer intervals, sorted (a superset of the set it
/// stands for when pieces had to be merged).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BvSet {
    pieces: [IntIv; 2],
    n: u8,
}

impl BvSet {
    pub const EMPTY: BvSet = BvSet {
        pieces: [IntIv::EMPTY, IntIv::EMPTY],
        n: 0,
    };

    pub fn one(iv: IntIv) -> BvSet {
        let mut s = BvSet::EMPTY;
        s.add(iv);
        s
    }
    pub fn pieces(&self) -> &[IntIv] {
        &self.pieces[..self.n as usize]
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    pub fn contains(&self, v: i128) -> bool {
        self.pieces().iter().any(|p| p.contains(v))
    }
    /// The smallest interval containing the set.
    pub fn hull(&self) -> IntIv {
        self.pieces()
            .iter()
            .fold(IntIv::EMPTY, |acc, &p| acc.hull(p))
    }
    /// `target ∩ set`, as one interval: each piece is cut by `target` before the hull.
    pub fn cut(&self, target: IntIv) -> IntIv {
        self.pieces()
            .iter()
            .fold(IntIv::EMPTY, |acc, &p| acc.hull(p.intersect(target)))
    }
    /// Adds an interval; with three pieces the two with the smallest gap are merged.
    pub fn add(&mut self, iv: IntIv) {
        if iv.is_empty() {
            return;
        }
        if self.n == 0 {
            self.pieces[0] = iv;
            self.n = 1;
            return;
        }
        let mut all = [IntIv::EMPTY; 3];
        let mut k = 0;
        for &p in self.pieces() {
            all[k] = p;
            k += 1;
        }
        all[k] = iv;
        k += 1;
        let v = &mut all[..k];
        v.sort_by_key(|p| p.lo);
        // merge overlapping pieces (adjacent ones stay apart: the two halves of a signed
        // type's bit patterns must not fuse into one pattern range)
        let mut out: [IntIv; 3] = [IntIv::EMPTY; 3];
        let mut m = 0;
        for &p in v.iter() {
            if m > 0 && p.lo <= out[m - 1].hi {
                out[m - 1] = out[m - 1].hull(p);
            } else {
                out[m] = p;
                m += 1;
            }
        }
        if m == 3 {
            // merge across the smaller gap
            let g0 = out[1].lo - out[0].hi;
            let g1 = out[2].lo - out[1].hi;
            if g0 <= g1 {
                out[0] = out[0].hull(out[1]);
                out[1] = out[2];
            } else {
                out[1] = out[1].hull(out[2]);
            }
            m = 2;
        }
        self.pieces = [out[0], if m > 1 { out[1] } else { IntIv::EMPTY }];
        self.n = m as u8;
    }
    pub fn union(mut self, o: &BvSet) -> BvSet {
        for &p in o.pieces() {
            self.add(p);
        }
        self
    }
}

// ------------------------------------------------------------------ type helpers

/// `2^bits` (bits ≤ 64).
#[inline]
pub fn modulus(t: IntType) -> i128 {
    1i128 << t.bits
}
#[inline]
pub fn tmin(t: IntType) -> i128 {
    if t.signed {
        -(1i128 << (t.bits - 1))
    } else {
        0
    }
}
#[inline]
pub fn tmax(t: IntType) -> i128 {
    if t.signed {
        (1i128 << (t.bits - 1)) - 1
    } else {
        (1i128 << t.bits) - 1
    }
}
/// All values of the type.
#[inline]
pub fn range(t: IntType) -> IntIv {
    IntIv {
        lo: tmin(t),
        hi: tmax(t),
    }
}
/// The whole type as a set (the result of an unspecified operation).
#[inline]
pub fn full(t: IntType) -> BvSet {
    BvSet::one(range(t))
}

/// `v` modulo `2^bits` into the type's range (two's complement for signed types).
#[inline]
pub fn wrap(t: IntType, v: i128) -> i128 {
    // a mask, not `rem_euclid` (an i128 division): 2^bits divides 2^128, so the low bits of
    // the two's complement are `v mod 2^bits`
    let r = v & (modulus(t) - 1);
    if t.signed && r > tmax(t) {
        r - modulus(t)
    } else {
        r
    }
}

/// `{wrap(v) : lo ≤ v ≤ hi}` exactly, as one or two pieces.
pub fn wrap_range(t: IntType, lo: i128, hi: i128) -> BvSet {
    if lo > hi {
        return BvSet::EMPTY;
    }
    match hi.checked_sub(lo) {
        Some(w) if w < modulus(t) - 1 => {}
        _ => return full(t),
    }
    let (wl, wh) = (wrap(t, lo), wrap(t, hi));
    if wl <= wh {
        BvSet::one(IntIv::new(wl, wh))
    } else {
        let mut s = BvSet::one(IntIv::new(tmin(t), wh));
        s.add(IntIv::new(wl, tmax(t)));
        s
    }
}

/// The wrapped image of an exact integer interval given as the min and max of some
/// corner values (`None`: an overflow happened, the image is the whole type).
fn wrap_corners(t: IntType, corners: &[Option<i128>]) -> BvSet {
    let mut lo = i128::MAX;
    let mut hi = i128::MIN;
    for c in corners {
        match c {
            Some(v) => {
                lo = lo.min(*v);
                hi = hi.max(*v);
            }
            None => return full(t),
        }
    }
    wrap_range(t, lo, hi)
}

/// Restricts an argument box to the type (values outside it do not exist).
#[inline]
fn clip(t: IntType, a: IntIv) -> IntIv {
    a.intersect(range(t))
}

/// The unsigned bit patterns (`v mod 2^n`) of the values in `a`: one or two intervals.
pub fn to_pattern(t: IntType, a: IntIv) -> BvSet {
    let a = clip(t, a);
    if a.is_empty() {
        return BvSet::EMPTY;
    }
    let m = modulus(t);
    let mut s = BvSet::one(IntIv::new(a.lo.max(0), a.hi));
    s.add(IntIv::new(a.lo + m, a.hi.min(-1) + m));
    s
}

/// The values of the type whose bit patterns lie in `p` (unsigned patterns in `[0, 2^n)`).
pub fn from_pattern(t: IntType, p: IntIv) -> BvSet {
    let p = p.intersect(IntIv::new(0, modulus(t) - 1));
    if p.is_empty() || !t.signed {
        return BvSet::one(p);
    }
    let half = 1i128 << (t.bits - 1);
    let mut s = BvSet::one(IntIv::new(p.lo, p.hi.min(half - 1)));
    s.add(IntIv::new(p.lo.max(half) - modulus(t), p.hi - modulus(t)));
    s
}

/// The set of `x ∈ a` with `x mod 2^m ∈ res` (residues in `[0, 2^m)`), as its hull: the
/// smallest and largest such `x`, found exactly.
pub fn preimage_mod(a: IntIv, m: u32, res: IntIv) -> IntIv {
    if a.is_empty() || res.is_empty() {
        return IntIv::EMPTY;
    }
    let md = 1i128 << m;
    let res = res.intersect(IntIv::new(0, md - 1));
    if res.is_empty() {
        return IntIv::EMPTY;
    }
    let r0 = a.lo & (md - 1);
    let lo = if res.contains(r0) {
        a.lo
    } else if r0 < res.lo {
        a.lo + (res.lo - r0)
    } else {
        a.lo + (md - r0 + res.lo)
    };
    let r1 = a.hi & (md - 1);
    let hi = if res.contains(r1) {
        a.hi
    } else if r1 > res.hi {
        a.hi - (r1 - res.hi)
    } else {
        a.hi - (r1 + md - res.hi)
    };
    IntIv::new(lo, hi).intersect(a)
}

/// `preimage_mod` over every piece of a residue set, hulled.
fn preimage_mod_set(a: IntIv, m: u32, res: &BvSet) -> IntIv {
    res.pieces()
        .iter()
        .fold(IntIv::EMPTY, |acc, &r| acc.hull(preimage_mod(a, m, r)))
}

/// Reduces `a` modulo `2^n` to a representative interval near zero (same width), so that
/// products stay small; wrap-around results do not depend on the representative.
fn centered(t: IntType, a: IntIv) -> IntIv {
    let m = modulus(t);
    let half = m / 2;
    let lo = ((a.lo + half) & (m - 1)) - half;
    IntIv::new(lo, lo + (a.hi - a.lo))
}

// ------------------------------------------------------------------ arithmetic

/// `a + b` (wrap-around).
pub fn fwd_add(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    let (a, b) = (clip(t, a), clip(t, b));
    if a.is_empty() || b.is_empty() {
        return BvSet::EMPTY;
    }
    wrap_range(t, a.lo + b.lo, a.hi + b.hi)
}

/// `a - b` (wrap-around).
pub fn fwd_sub(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    let (a, b) = (clip(t, a), clip(t, b));
    if a.is_empty() || b.is_empty() {
        return BvSet::EMPTY;
    }
    wrap_range(t, a.lo - b.hi, a.hi - b.lo)
}

/// `-a` (wrap-around: `-MIN = MIN`).
pub fn fwd_neg(t: IntType, a: IntIv) -> BvSet {
    let a = clip(t, a);
    if a.is_empty() {
        return BvSet::EMPTY;
    }
    wrap_range(t, -a.hi, -a.lo)
}

/// `a · b` (wrap-around). The operands are first reduced to representatives near zero
/// (`centered`), which does not change the product modulo `2^n`; the corner products then
/// overflow `i128` only when both operands span more than about `2^62` values, and then the
/// exact product spans far more than `2^n` values, so "the whole type" is the exact hull too.
pub fn fwd_mul(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    let (a, b) = (clip(t, a), clip(t, b));
    if a.is_empty() || b.is_empty() {
        return BvSet::EMPTY;
    }
    let (a, b) = (centered(t, a), centered(t, b));
    wrap_corners(
        t,
        &[
            a.lo.checked_mul(b.lo),
            a.lo.checked_mul(b.hi),
            a.hi.checked_mul(b.lo),
            a.hi.checked_mul(b.hi),
        ],
    )
}

/// C `/` (truncating); `b = 0` gives any value. The quotient is monotone in each argument
/// on either side of `b = 0`, so its extremes are at the corners; `MIN / -1` wraps.
pub fn fwd_div(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    let (a, b) = (clip(t, a), clip(t, b));
    if a.is_empty() || b.is_empty() {
        return BvSet::EMPTY;
    }
    if b.contains(0) {
        return full(t);
    }
    let q = |x: i128, y: i128| Some(x / y);
    wrap_corners(
        t,
        &[q(a.lo, b.lo), q(a.lo, b.hi), q(a.hi, b.lo), q(a.hi, b.hi)],
    )
}

/// C `%` (sign of the dividend, `|r| < |b|`); `b = 0` gives any value. Exact when the
/// quotient is the same at all four corners (then `r = a - q·b` for a point `b`, and `r = a`
/// when `q = 0`); otherwise bounds from the sign of `a` and the largest `|b|`.
pub fn fwd_rem(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    let (a, b) = (clip(t, a), clip(t, b));
    if a.is_empty() || b.is_empty() {
        return BvSet::EMPTY;
    }
    if b.contains(0) {
        return full(t);
    }
    let qs = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
    if qs.iter().all(|&q| q == 0) {
        return BvSet::one(a);
    }
    if b.is_point() && qs.iter().all(|&q| q == qs[0]) {
        // r = a - q·b exactly, increasing in a (|q·b| ≤ 2^64: no overflow)
        let qb = qs[0] * b.lo;
        return BvSet::one(IntIv::new(a.lo - qb, a.hi - qb));
    }
    let m = b.lo.abs().max(b.hi.abs()) - 1;
    BvSet::one(IntIv::new(a.lo.max(-m).min(0), a.hi.min(m).max(0)))
}

/// New box of `a` for `out = a + b`: `a ∈ out - b` modulo `2^n` (exact hull).
pub fn bwd_add_a(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    fwd_sub(t, out, b).cut(clip(t, a))
}
/// New box of `b` for `out = a + b`.
pub fn bwd_add_b(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    fwd_sub(t, out, a).cut(clip(t, b))
}
/// New box of `a` for `out = a - b`: `a ∈ out + b`.
pub fn bwd_sub_a(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    fwd_add(t, out, b).cut(clip(t, a))
}
/// New box of `b` for `out = a - b`: `b ∈ a - out`.
pub fn bwd_sub_b(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    fwd_sub(t, a, out).cut(clip(t, b))
}
/// New box of `a` for `out = -a`: `a ∈ -out`.
pub fn bwd_neg_a(t: IntType, out: IntIv, a: IntIv) -> IntIv {
    fwd_neg(t, out).cut(clip(t, a))
}

/// The inverse of an odd `c` modulo `2^64` (Newton's iteration; every step doubles the
/// number of correct low bits).
fn inverse_odd(c: u64) -> u64 {
    let mut x = c; // correct to 3 bits for odd c
    for _ in 0..6 {
        x = x.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(x)));
    }
    x
}

/// New box of `a` for `out = a · b`. Sound no-op unless `b` is a point `c ≠ 0 (mod 2^n)`:
/// `c = 2^s·odd`, then `a·c ≡ out` says `a ≡ (out / 2^s)·odd⁻¹ (mod 2^(n-s))` — used for an
/// odd `c` (any `out`: `a ∈ out·c⁻¹`) and for a point `out` (a residue class; empty when
/// `out` is not a multiple of `2^s`).
pub fn bwd_mul_a(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    let (out, a, b) = (clip(t, out), clip(t, a), clip(t, b));
    if out.is_empty() || a.is_empty() || b.is_empty() {
        return IntIv::EMPTY;
    }
    if !b.is_point() {
        return a;
    }
    let n = t.bits as u32;
    let c = b.lo.rem_euclid(modulus(t)) as u64;
    if c == 0 {
        // a·0 = 0: any a if 0 ∈ out
        return if out.contains(0) { a } else { IntIv::EMPTY };
    }
    let s = c.trailing_zeros();
    let odd = c >> s;
    let inv = inverse_odd(odd) as i128;
    if s == 0 {
        let inv = IntIv::point(wrap(t, inv));
        return fwd_mul(t, out, inv).cut(a);
    }
    if !out.is_point() {
        return a;
    }
    let o = out.lo.rem_euclid(modulus(t));
    if o & ((1i128 << s) - 1) != 0 {
        return IntIv::EMPTY;
    }
    let m = n - s;
    let r = ((o >> s) * (inv & ((1i128 << m) - 1))).rem_euclid(1i128 << m);
    preimage_mod(a, m, IntIv::point(r))
}
/// New box of `b` for `out = a · b` (multiplication commutes).
pub fn bwd_mul_b(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    bwd_mul_a(t, out, b, a)
}

/// New box of `a` for `out = a / b`. For a point `b ∉ {0, -1}` the truncating quotient is
/// monotone in `a`, so the preimage of `[out.lo, out.hi]` is an interval, found exactly:
/// `trunc(a/c) ≥ q ⇔ a ≥ lowest(q)` with `lowest(q) = q·c` for `q > 0` and
/// `q·c - (|c| - 1)` for `q ≤ 0` (mirrored for `c < 0`). `b = -1` is negation. Otherwise a
/// sound no-op (values of `a` with `b = 0` are unconstrained anyway).
pub fn bwd_div_a(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    let (out, a, b) = (clip(t, out), clip(t, a), clip(t, b));
    if out.is_empty() || a.is_empty() || b.is_empty() {
        return IntIv::EMPTY;
    }
    if !b.is_point() || b.lo == 0 {
        return a;
    }
    let c = b.lo;
    if c == -1 {
        return bwd_neg_a(t, out, a);
    }
    // the smallest a with trunc(a/|c|) >= q, and the largest with trunc(a/|c|) <= q
    let d = c.abs();
    // (saturating: |q·d| can exceed i128 for 64-bit types; the result is cut by `a` anyway)
    let least = |q: i128| {
        let qd = q.saturating_mul(d);
        if q > 0 {
            qd
        } else {
            qd.saturating_sub(d - 1)
        }
    };
    let most = |q: i128| {
        let qd = q.saturating_mul(d);
        if q >= 0 {
            qd.saturating_add(d - 1)
        } else {
            qd
        }
    };
    // with c < 0, trunc(a/c) = -trunc(a/|c|): out ∈ [lo, hi] ⇔ trunc(a/|c|) ∈ [-hi, -lo]
    let (qlo, qhi) = if c > 0 {
        (out.lo, out.hi)
    } else {
        (-out.hi, -out.lo)
    };
    a.intersect(IntIv::new(least(qlo), most(qhi)))
}

/// New box of `b` for `out = a / b`: a sound no-op.
pub fn bwd_div_b(_t: IntType, _out: IntIv, _a: IntIv, b: IntIv) -> IntIv {
    b
}

/// New box of `a` for `out = a % b`: when `b ≠ 0` everywhere, a positive remainder needs
/// `a ≥ r` and a negative one `a ≤ r` (same sign, `|r| ≤ |a|`); a sound no-op otherwise.
pub fn bwd_rem_a(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    let (out, a, b) = (clip(t, out), clip(t, a), clip(t, b));
    if out.is_empty() || a.is_empty() || b.is_empty() {
        return IntIv::EMPTY;
    }
    if b.contains(0) {
        return a;
    }
    if out.lo > 0 {
        a.intersect(IntIv::new(out.lo, tmax(t)))
    } else if out.hi < 0 {
        a.intersect(IntIv::new(tmin(t), out.hi))
    } else {
        a
    }
}

/// New box of `b` for `out = a % b`: `|b| > |r|`, so when `out` excludes 0 the `b` values
/// with `|b| ≤ min |out|` go (`b = 0` is unspecified and stays).
pub fn bwd_rem_b(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    let (out, a, b) = (clip(t, out), clip(t, a), clip(t, b));
    if out.is_empty() || a.is_empty() || b.is_empty() {
        return IntIv::EMPTY;
    }
    if out.contains(0) {
        return b;
    }
    let m = out.lo.abs().min(out.hi.abs());
    // keep b ≤ -(m+1), b = 0, b ≥ m+1
    let mut s = BvSet::one(IntIv::new(i128::MIN / 4, -(m + 1)));
    s.add(IntIv::point(0));
    s.add(IntIv::new(m + 1, i128::MAX / 4));
    s.cut(b)
}

// ------------------------------------------------------------------ bitwise

/// Warren's `minOR` over unsigned `n`-bit intervals `[a, b] | [c, d]` (exact minimum).
fn min_or(n: u32, mut a: u64, b: u64, mut c: u64, d: u64) -> u64 {
    let mut m = 1u64 << (n - 1);
    while m != 0 {
        if !a & c & m != 0 {
            let tmp = (a | m) & m.wrapping_neg();
            if tmp <= b {
                a = tmp;
                break;
            }
        } else if a & !c & m != 0 {
            let tmp = (c | m) & m.wrapping_neg();
            if tmp <= d {
                c = tmp;
                break;
            }
        }
        m >>= 1;
    }
    a | c
}

/// Warren's `maxOR` (exact maximum).
fn max_or(n: u32, a: u64, mut b: u64, c: u64, mut d: u64) -> u64 {
    let mut m = 1u64 << (n - 1);
    while m != 0 {
        if b & d & m != 0 {
            let tmp = (b - m) | (m - 1);
            if tmp >= a {
                b = tmp;
                break;
            }
            let tmp = (d - m) | (m - 1);
            if tmp >= c {
                d = tmp;
                break;
            }
        }
        m >>= 1;
    }
    b | d
}

/// Warren's `minAND` (exact minimum).
fn min_and(n: u32, mut a: u64, b: u64, mut c: u64, d: u64) -> u64 {
    let mut m = 1u64 << (n - 1);
    while m != 0 {
        if !a & !c & m != 0 {
            let tmp = (a | m) & m.wrapping_neg();
            if tmp <= b {
                a = tmp;
                break;
            }
            let tmp = (c | m) & m.wrapping_neg();
            if tmp <= d {
                c = tmp;
                break;
            }
        }
        m >>= 1;
    }
    a & c
}

/// Warren's `maxAND` (exact maximum).
fn max_and(n: u32, a: u64, mut b: u64, c: u64, mut d: u64) -> u64 {
    let mut m = 1u64 << (n - 1);
    while m != 0 {
        if b & !d & m != 0 {
            let tmp = (b & !m) | (m - 1);
            if tmp >= a {
                b = tmp;
                break;
            }
        } else if !b & d & m != 0 {
            let tmp = (d & !m) | (m - 1);
            if tmp >= c {
                d = tmp;
                break;
            }
        }
        m >>= 1;
    }
    b & d
}

/// Warren's `minXOR` (exact minimum).
fn min_xor(n: u32, mut a: u64, b: u64, mut c: u64, d: u64) -> u64 {
    let mut m = 1u64 << (n - 1);
    while m != 0 {
        if !a & c & m != 0 {
            let tmp = (a | m) & m.wrapping_neg();
            if tmp <= b {
                a = tmp;
            }
        } else if a & !c & m != 0 {
            let tmp = (c | m) & m.wrapping_neg();
            if tmp <= d {
                c = tmp;
            }
        }
        m >>= 1;
    }
    a ^ c
}

/// Warren's `maxXOR` (exact maximum).
fn max_xor(n: u32, a: u64, mut b: u64, c: u64, mut d: u64) -> u64 {
    let mut m = 1u64 << (n - 1);
    while m != 0 {
        if b & d & m != 0 {
            let tmp = (b - m) | (m - 1);
            if tmp >= a {
                b = tmp;
            } else {
                let tmp = (d - m) | (m - 1);
                if tmp >= c {
                    d = tmp;
                }
            }
        }
        m >>= 1;
    }
    b ^ d
}

#[derive(Clone, Copy)]
enum BitOp {
    And,
    Or,
    Xor,
}

/// A bitwise operation over intervals: the unsigned patterns of each operand (up to two
/// pieces each), Warren's exact min/max per pair of pieces, back to values of the type.
fn fwd_bits(t: IntType, op: BitOp, a: IntIv, b: IntIv) -> BvSet {
    let n = t.bits as u32;
    let (pa, pb) = (to_pattern(t, a), to_pattern(t, b));
    let mut out = BvSet::EMPTY;
    for &x in pa.pieces() {
        for &y in pb.pieces() {
            let (a0, a1, b0, b1) = (x.lo as u64, x.hi as u64, y.lo as u64, y.hi as u64);
            let (lo, hi) = match op {
                BitOp::And => (min_and(n, a0, a1, b0, b1), max_and(n, a0, a1, b0, b1)),
                BitOp::Or => (min_or(n, a0, a1, b0, b1), max_or(n, a0, a1, b0, b1)),
                BitOp::Xor => (min_xor(n, a0, a1, b0, b1), max_xor(n, a0, a1, b0, b1)),
            };
            out = out.union(&from_pattern(t, IntIv::new(lo as i128, hi as i128)));
        }
    }
    out
}

/// `a & b` (two's complement bits).
pub fn fwd_and(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    fwd_bits(t, BitOp::And, a, b)
}
/// `a | b`.
pub fn fwd_or(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    fwd_bits(t, BitOp::Or, a, b)
}
/// `a ^ b`.
pub fn fwd_xor(t: IntType, a: IntIv, b: IntIv) -> BvSet {
    fwd_bits(t, BitOp::Xor, a, b)
}
/// `!a` (`= -a - 1`, exact and invertible).
pub fn fwd_not(t: IntType, a: IntIv) -> BvSet {
    let a = clip(t, a);
    if a.is_empty() {
        return BvSet::EMPTY;
    }
    if t.signed {
        BvSet::one(IntIv::new(-a.hi - 1, -a.lo - 1))
    } else {
        BvSet::one(IntIv::new(tmax(t) - a.hi, tmax(t) - a.lo))
    }
}

/// New box of `a` for `out = !a`.
pub fn bwd_not_a(t: IntType, out: IntIv, a: IntIv) -> IntIv {
    fwd_not(t, out).cut(clip(t, a))
}
/// New box of `a` for `out = a ^ b`: `a = out ^ b`.
pub fn bwd_xor_a(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    fwd_xor(t, out, b).cut(clip(t, a))
}
/// New box of `b` for `out = a ^ b`.
pub fn bwd_xor_b(t: IntType, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    fwd_xor(t, out, a).cut(clip(t, b))
}

/// New box of `a` for `out = a & b`: the bits of `out` are a subset of `a`'s, so `a`'s
/// pattern is at least the smallest pattern of `out` (a cheap bound; `b` is not used).
pub fn bwd_and_a(t: IntType, out: IntIv, a: IntIv, _b: IntIv) -> IntIv {
    let po = to_pattern(t, out);
    if po.is_empty() {
        return IntIv::EMPTY;
    }
    let min_o = po.hull().lo;
    let mut keep = BvSet::EMPTY;
    for &p in to_pattern(t, a).pieces() {
        keep = keep.union(&from_pattern(t, p.intersect(IntIv::new(min_o, i128::MAX))));
    }
    keep.cut(clip(t, a))
}

/// New box of `a` for `out = a | b`: `a`'s bits are a subset of `out`'s, so `a`'s pattern is
/// at most the largest pattern of `out`.
pub fn bwd_or_a(t: IntType, out: IntIv, a: IntIv, _b: IntIv) -> IntIv {
    let po = to_pattern(t, out);
    if po.is_empty() {
        return IntIv::EMPTY;
    }
    let max_o = po.hull().hi;
    let mut keep = BvSet::EMPTY;
    for &p in to_pattern(t, a).pieces() {
        keep = keep.union(&from_pattern(t, p.intersect(IntIv::new(0, max_o))));
    }
    keep.cut(clip(t, a))
}

// ------------------------------------------------------------------ shifts

/// The valid shift counts in `k` (`[0, width)`), or `None` if `k` also holds invalid ones
/// (then the result is unspecified for some count).
fn valid_counts(t: IntType, k: IntIv) -> Option<IntIv> {
    if k.is_subset(IntIv::new(0, t.bits as i128 - 1)) {
        Some(k)
    } else {
        None
    }
}

/// `a << k` for one valid count: `a·2^k` modulo `2^n`, which depends only on `a mod 2^(n-k)`
/// (reduced first, so nothing overflows).
fn shl_one(t: IntType, a: IntIv, k: u32) -> BvSet {
    let n = t.bits as u32;
    let md = 1i128 << (n - k);
    if a.hi - a.lo >= md {
        return full_multiples(t, k);
    }
    let lo = a.lo & (md - 1);
    let hi = lo + (a.hi - a.lo);
    wrap_range(t, lo << k, hi << k)
}

/// All results of a shift by `k`: the multiples of `2^k` (as an interval: the whole type,
/// cut to the largest multiple on top).
fn full_multiples(t: IntType, k: u32) -> BvSet {
    let hi = (tmax(t) >> k) << k;
    BvSet::one(IntIv::new(tmin(t), hi))
}

/// `shl(a, k)`: wrap-around; a count outside `[0, width)` gives any value.
pub fn fwd_shl(t: IntType, a: IntIv, k: IntIv) -> BvSet {
    let a = clip(t, a);
    if a.is_empty() || k.is_empty() {
        return BvSet::EMPTY;
    }
    let Some(k) = valid_counts(t, k) else {
        return full(t);
    };
    let mut out = BvSet::EMPTY;
    for c in k.lo..=k.hi {
        out = out.union(&shl_one(t, a, c as u32));
    }
    out
}

/// `shr(a, k)`: `floor(a / 2^k)` (arithmetic on signed, logical on unsigned values, which
/// are non-negative); a count outside `[0, width)` gives any value.
pub fn fwd_shr(t: IntType, a: IntIv, k: IntIv) -> BvSet {
    let a = clip(t, a);
    if a.is_empty() || k.is_empty() {
        return BvSet::EMPTY;
    }
    let Some(k) = valid_counts(t, k) else {
        return full(t);
    };
    let mut out = BvSet::EMPTY;
    for c in k.lo..=k.hi {
        out.add(IntIv::new(a.lo >> c, a.hi >> c));
    }
    out
}

/// New box of `a` for `out = shl(a, k)`: per valid count `c`, `a mod 2^(n-c)` is the pattern
/// of `out` shifted right by `c` (only patterns with `c` zero low bits); a no-op if `k`
/// holds an invalid count.
pub fn bwd_shl_a(t: IntType, out: IntIv, a: IntIv, k: IntIv) -> IntIv {
    let (out, a) = (clip(t, out), clip(t, a));
    if out.is_empty() || a.is_empty() || k.is_empty() {
        return IntIv::EMPTY;
    }
    let Some(k) = valid_counts(t, k) else {
        return a;
    };
    let n = t.bits as u32;
    let po = to_pattern(t, out);
    let mut res = IntIv::EMPTY;
    for c in k.lo..=k.hi {
        let c = c as u32;
        let step = 1i128 << c;
        let mut rs = BvSet::EMPTY;
        for &p in po.pieces() {
            // multiples of 2^c in p, divided by 2^c
            rs.add(IntIv::new((p.lo + step - 1) >> c, p.hi >> c));
        }
        res = res.hull(preimage_mod_set(a, n - c, &rs));
    }
    res
}

/// New box of `a` for `out = shr(a, k)`: `floor(a/2^c) ∈ out ⇔ a ∈ [out.lo·2^c,
/// (out.hi+1)·2^c - 1]`, hulled over the valid counts; a no-op if `k` holds an invalid one.
pub fn bwd_shr_a(t: IntType, out: IntIv, a: IntIv, k: IntIv) -> IntIv {
    let (out, a) = (clip(t, out), clip(t, a));
    if out.is_empty() || a.is_empty() || k.is_empty() {
        return IntIv::EMPTY;
    }
    let Some(k) = valid_counts(t, k) else {
        return a;
    };
    let mut res = IntIv::EMPTY;
    for c in k.lo..=k.hi {
        // saturating: 2^64 · 2^63 does not fit i128; the result is cut by `a` anyway
        let step = 1i128 << c;
        let iv = IntIv::new(
            out.lo.saturating_mul(step),
            (out.hi + 1).saturating_mul(step).saturating_sub(1),
        );
        res = res.hull(iv.intersect(a));
    }
    res
}

/// New box of the count `k` for a shift: the valid counts that can produce a value in `out`
/// from `a`, plus every invalid count in `k` (unspecified results fit any `out`).
pub fn bwd_shift_k(t: IntType, left: bool, out: IntIv, a: IntIv, k: IntIv) -> IntIv {
    let (out, a) = (clip(t, out), clip(t, a));
    if out.is_empty() || a.is_empty() || k.is_empty() {
        return IntIv::EMPTY;
    }
    let w = t.bits as i128;
    let mut res = k.intersect(IntIv::new(i128::MIN, -1));
    res = res.hull(k.intersect(IntIv::new(w, i128::MAX)));
    let valid = k.intersect(IntIv::new(0, w - 1));
    if !valid.is_empty() {
        for c in valid.lo..=valid.hi {
            let img = if left {
                shl_one(t, a, c as u32)
            } else {
                BvSet::one(IntIv::new(a.lo >> c, a.hi >> c))
            };
            if !img.cut(out).is_empty() {
                res = res.hull(IntIv::point(c));
            }
        }
    }
    res
}

// ------------------------------------------------------------------ conversions

/// `to_T(a)` between machine types: wrap-around into `t` (exact hull of the image).
pub fn fwd_cast(t: IntType, a: IntIv) -> BvSet {
    if a.is_empty() {
        return BvSet::EMPTY;
    }
    wrap_range(t, a.lo, a.hi)
}

/// New box of `a` for `out = cast_t(a)`: the smallest and largest `x ∈ a` whose pattern
/// modulo `2^n` is the pattern of a value in `out` (exact hull of the preimage).
pub fn bwd_cast_a(t: IntType, out: IntIv, a: IntIv) -> IntIv {
    preimage_mod_set(a, t.bits as u32, &to_pattern(t, out))
}

/// `out = a` for a mathematical integer `a` converted into machine type `t` (`Convert`):
/// the value if it fits, any value of the type otherwise.
pub fn fwd_convert(t: IntType, a: IntIv) -> BvSet {
    if a.is_empty() {
        return BvSet::EMPTY;
    }
    if a.is_subset(range(t)) {
        BvSet::one(a)
    } else {
        full(t)
    }
}

/// New box of the `int` `a` for `out = convert_t(a)`: values that fit must lie in `out`;
/// values that do not fit are unconstrained.
pub fn bwd_convert_a(t: IntType, out: IntIv, a: IntIv) -> IntIv {
    let r = range(t);
    let mut s = BvSet::one(a.intersect(IntIv::new(i128::MIN, r.lo - 1)));
    s.add(a.intersect(IntIv::new(r.hi + 1, i128::MAX)));
    let mut keep = s.hull();
    keep = keep.hull(a.intersect(out).intersect(r));
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    const U4: IntType = IntType::new(4, false);
    const S4: IntType = IntType::new(4, true);

    fn ivs(t: IntType) -> Vec<IntIv> {
        let mut v = Vec::new();
        for lo in tmin(t)..=tmax(t) {
            for hi in lo..=tmax(t) {
                v.push(IntIv::new(lo, hi));
            }
        }
        v
    }

    fn c_div(t: IntType, a: i128, b: i128) -> Option<i128> {
        (b != 0).then(|| wrap(t, a / b))
    }
    fn c_rem(t: IntType, a: i128, b: i128) -> Option<i128> {
        (b != 0).then(|| wrap(t, a % b))
    }

    /// Exhaustive on 4-bit types: every forward contractor contains the image of every pair
    /// of intervals, and the bitwise ones hit its exact minimum and maximum (Warren).
    #[test]
    fn four_bit_types_exhaustively() {
        type F = fn(IntType, IntIv, IntIv) -> BvSet;
        type E = fn(IntType, i128, i128) -> Option<i128>;
        let ops: Vec<(&str, F, E, bool)> = vec![
            ("add", fwd_add, |t, a, b| Some(wrap(t, a + b)), true),
            ("sub", fwd_sub, |t, a, b| Some(wrap(t, a - b)), true),
            ("mul", fwd_mul, |t, a, b| Some(wrap(t, a * b)), false),
            // not exact where MIN / -1 wraps
            ("div", fwd_div, c_div, false),
            ("rem", fwd_rem, c_rem, false),
            ("and", fwd_and, |t, a, b| Some(wrap(t, a & b)), true),
            ("or", fwd_or, |t, a, b| Some(wrap(t, a | b)), true),
            ("xor", fwd_xor, |t, a, b| Some(wrap(t, a ^ b)), true),
        ];
        for t in [U4, S4] {
            let all = ivs(t);
            for (name, f, e, hull_exact) in &ops {
                for &x in &all {
                    for &y in &all {
                        let got = f(t, x, y);
                        let (mut lo, mut hi, mut any) = (i128::MAX, i128::MIN, false);
                        for a in x.lo..=x.hi {
                            for b in y.lo..=y.hi {
                                match e(t, a, b) {
                                    Some(v) => {
                                        assert!(
                                            got.contains(v),
                                            "{name} {t:?} {x:?} {y:?}: {a} {b} -> {v} not in {got:?}"
                                        );
                                        lo = lo.min(v);
                                        hi = hi.max(v);
                                    }
                                    None => any = true,
                                }
                            }
                        }
                        if any {
                            assert_eq!(got.hull(), range(t), "{name} unspecified");
                        } else if *hull_exact {
                            assert_eq!(got.hull(), IntIv::new(lo, hi), "{name} {t:?} {x:?} {y:?}");
                        }
                        if x.is_point() && y.is_point() && !any {
                            assert_eq!(got.hull(), IntIv::new(lo, hi), "{name} on points");
                        }
                    }
                }
            }
        }
    }

    /// Exhaustive on 4-bit types: backward contractors never lose a consistent value, and
    /// those documented as exact return exactly the projection.
    #[test]
    fn four_bit_backward_exhaustively() {
        type B = fn(IntType, IntIv, IntIv, IntIv) -> IntIv;
        type E = fn(IntType, i128, i128) -> Option<i128>;
        // (name, bwd of a, bwd of b, exact value, exact projection of a?)
        let ops: Vec<(&str, B, B, E, bool)> = vec![
            (
                "add",
                bwd_add_a,
                bwd_add_b,
                |t, a, b| Some(wrap(t, a + b)),
                true,
            ),
            (
                "sub",
                bwd_sub_a,
                bwd_sub_b,
                |t, a, b| Some(wrap(t, a - b)),
                true,
            ),
            (
                "mul",
                bwd_mul_a,
                bwd_mul_b,
                |t, a, b| Some(wrap(t, a * b)),
                false,
            ),
            ("div", bwd_div_a, bwd_div_b, c_div, false),
            ("rem", bwd_rem_a, bwd_rem_b, c_rem, false),
            (
                "and",
                bwd_and_a,
                |t, o, a, b| bwd_and_a(t, o, b, a),
                |t, a, b| Some(wrap(t, a & b)),
                false,
            ),
            (
                "or",
                bwd_or_a,
                |t, o, a, b| bwd_or_a(t, o, b, a),
                |t, a, b| Some(wrap(t, a | b)),
                false,
            ),
            (
                "xor",
                bwd_xor_a,
                bwd_xor_b,
                |t, a, b| Some(wrap(t, a ^ b)),
                false,
            ),
            (
                "shl",
                bwd_shl_a,
                |t, o, a, k| bwd_shift_k(t, true, o, a, k),
                |t, a, k| (0..4).contains(&k).then(|| wrap(t, a << k)),
                false,
            ),
            (
                "shr",
                bwd_shr_a,
                |t, o, a, k| bwd_shift_k(t, false, o, a, k),
                |_, a, k| (0..4).contains(&k).then(|| a >> k),
                false,
            ),
        ];
        for t in [U4, S4] {
            let all = ivs(t);
            // a sample of output boxes
            let outs: Vec<IntIv> = all.iter().copied().step_by(7).collect();
            for (name, ba, bb, e, exact) in &ops {
                for &x in all.iter().step_by(3) {
                    for &y in all.iter().step_by(5) {
                        for &o in &outs {
                            let na = ba(t, o, x, y);
                            let nb = bb(t, o, x, y);
                            let (mut plo, mut phi) = (i128::MAX, i128::MIN);
                            for a in x.lo..=x.hi {
                                for b in y.lo..=y.hi {
                                    let ok = e(t, a, b).is_none_or(|v| o.contains(v));
                                    if ok {
                                        assert!(
                                            na.contains(a),
                                            "{name} a {t:?} o{o:?} {x:?} {y:?}: {a} {b}"
                                        );
                                        assert!(
                                            nb.contains(b),
                                            "{name} b {t:?} o{o:?} {x:?} {y:?}: {a} {b}"
                                        );
                                        plo = plo.min(a);
                                        phi = phi.max(a);
                                    }
                                }
                            }
                            assert!(na.is_subset(x) && nb.is_subset(y), "{name} grows");
                            if *exact {
                                assert_eq!(
                                    na,
                                    IntIv::new(plo, phi),
                                    "{name} exact {t:?} o{o:?} {x:?} {y:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn unary_and_casts_exhaustively() {
        let u8t = IntType::new(8, false);
        for t in [U4, S4] {
            for x in ivs(t) {
                for o in ivs(t).into_iter().step_by(5) {
                    let (mut nlo, mut nhi) = (i128::MAX, i128::MIN);
                    let (mut plo, mut phi) = (i128::MAX, i128::MIN);
                    let (mut qlo, mut qhi) = (i128::MAX, i128::MIN);
                    for a in x.lo..=x.hi {
                        let neg = wrap(t, -a);
                        let not = wrap(t, !a);
                        assert!(fwd_neg(t, x).contains(neg) && fwd_not(t, x).contains(not));
                        if o.contains(neg) {
                            nlo = nlo.min(a);
                            nhi = nhi.max(a);
                        }
                        if o.contains(not) {
                            plo = plo.min(a);
                            phi = phi.max(a);
                        }
                        if o.contains(wrap(t, a)) {
                            qlo = qlo.min(a);
                            qhi = qhi.max(a);
                        }
                    }
                    assert_eq!(bwd_neg_a(t, o, x), IntIv::new(nlo, nhi));
                    assert_eq!(bwd_not_a(t, o, x), IntIv::new(plo, phi));
                    let _ = (qlo, qhi);
                }
            }
        }
        // casts from uint8 into 4-bit types, all intervals of uint8 against all outputs
        for t in [U4, S4] {
            for lo in (0..256).step_by(3) {
                for hi in (lo..256).step_by(11) {
                    let x = IntIv::new(lo, hi);
                    let img = fwd_cast(t, x);
                    for o in ivs(t).into_iter().step_by(3) {
                        let (mut plo, mut phi) = (i128::MAX, i128::MIN);
                        for a in lo..=hi {
                            assert!(img.contains(wrap(t, a)));
                            if o.contains(wrap(t, a)) {
                                plo = plo.min(a);
                                phi = phi.max(a);
                            }
                        }
                        assert_eq!(
                            bwd_cast_a(t, o, x),
                            IntIv::new(plo, phi),
                            "{t:?} {x:?} {o:?}"
                        );
                    }
                }
            }
        }
        let _ = u8t;
    }

    #[test]
    fn wrapped_images_keep_two_pieces() {
        let i8t = IntType::new(8, true);
        // 127 + [0, 1] = {127, -128}
        let s = fwd_add(i8t, IntIv::point(127), IntIv::new(0, 1));
        assert_eq!(s.pieces(), &[IntIv::point(-128), IntIv::point(127)]);
        assert_eq!(s.cut(IntIv::new(0, 127)), IntIv::point(127));
        // uint8: x * 3 = 1 has the single solution 171
        let u8t = IntType::new(8, false);
        let x = bwd_mul_a(u8t, IntIv::point(1), IntIv::new(0, 255), IntIv::point(3));
        assert_eq!(x, IntIv::point(171));
        // uint64 extremes: products of large values do not overflow and stay exact
        let u64t = IntType::new(64, false);
        let m = tmax(u64t);
        assert_eq!(
            fwd_mul(u64t, IntIv::point(m), IntIv::point(m)).hull(),
            IntIv::point(1)
        );
        let i64t = IntType::new(64, true);
        let min = tmin(i64t);
        assert_eq!(
            fwd_div(i64t, IntIv::point(min), IntIv::point(-1)).hull(),
            IntIv::point(min)
        );
        assert_eq!(
            fwd_rem(i64t, IntIv::point(min), IntIv::point(-1)).hull(),
            IntIv::point(0)
        );
        assert_eq!(inverse_odd(3).wrapping_mul(3), 1);
    }
}
