//! The float-lattice engine behind every IEEE contractor: monotone pieces, corner
//! evaluation, and binary search for backward bounds (Scheibler et al., "Accurate ICP-based
//! Floating-Point Reasoning", FMCAD 2016, §4: backward bounds are the extreme *floats* whose
//! rounded results reach the output box, found on the float lattice, not over the reals).
//!
//! The idea. Order the non-NaN floats of a format *totally*, by value with `-0 < +0` (the
//! [`tkey`]). Every operation we contract is, on suitable *pieces* of its arguments,
//! coordinate-wise monotone in that total order and either always NaN or never NaN:
//! - rounding is monotone, and it maps an exact value `v` to a result whose total key is
//!   monotone in `v` even around zero: a tiny negative `v` gives `-0` (or a negative
//!   subnormal), an exact zero gives the mode's zero, a tiny positive `v` gives `+0` (or a
//!   positive subnormal), and `-0 <= any zero <= +0`;
//! - `x + y`, `x - y`, `fmin`, `fmax`, conversions are monotone over all finite values, with
//!   zeros included (`-0 + -0 = -0`, `-0 + +0` = the mode's zero, `+0 + +0 = +0`);
//! - `x·y`, `x/y`, `fma`, `|x|`, `√x` change direction with the signs of their operands, so
//!   they are split by sign; their NaN cases (`0·inf`, `0/0`, `inf/inf`, `inf - inf`, `√` of a
//!   negative) involve zeros or infinities, which are pieces of their own, so a piece box is
//!   either all-NaN or NaN-free.
//!
//! The splits ([`Split`]) are: `Whole` (one piece), `Finite` (`-inf`, the finite floats,
//! `+inf`) and `Sign` (`-inf`, negative finite non-zero, `-0`, `+0`, positive finite
//! non-zero, `+inf`); NaN is always a point piece of its own.
//!
//! Forward: the image of a box of pieces lies between the least and the greatest result at
//! the box's corners (a coordinate-wise monotone function attains its extremes at corners),
//! so `fwd` is the hull over all piece boxes of the corner results — exact at point inputs.
//!
//! Backward for argument `i` over one box: with the other arguments ranging over their
//! pieces, `g_lo(x)` / `g_hi(x)` (the least / greatest corner result for a fixed `x`) are
//! monotone in `x` in one direction. If `op(x, y) ∈ Z` for some `y` of the box then
//! `g_hi(x) >= min Z` and `g_lo(x) <= max Z`; each condition holds on a contiguous run of the
//! piece (a monotone predicate), found by binary search on the keys (at most 64 exact
//! evaluations each). The new domain is the hull of these runs over all boxes, intersected
//! with the old one. With point `Z` and point `y` the runs are exactly the floats `x` with
//! `op(x, y) = z`, so backward is tight on points; point pieces (zeros, infinities, NaN,
//! single floats) are tested directly by a forward evaluation.
//!
//! Soundness depends on the piece invariant (monotone, NaN all-or-nothing on each box);
//! [`super::check`] tests it exhaustively on small windows of the lattice and on random
//! boxes against the exact operations of [`crate::num::ieee`].

use super::FpDom;
use crate::num::{ieee, FpFormat};

#[inline]
fn sign_mask(f: FpFormat) -> u64 {
    1u64 << (f.total_bits() - 1)
}

/// The total-order key of a non-NaN float: by value, with `-0 < +0`. Negative floats get
/// `-mag - 1` (so `-0` is -1), positive ones their magnitude bits (`+0` is 0); consecutive
/// floats have consecutive keys.
#[inline]
pub(crate) fn tkey(f: FpFormat, bits: u64) -> i64 {
    let sm = sign_mask(f);
    let mag = (bits & !sm) as i64;
    if bits & sm != 0 {
        -mag - 1
    } else {
        mag
    }
}

/// The float with total-order key `k`.
#[inline]
pub(crate) fn from_tkey(f: FpFormat, k: i64) -> u64 {
    if k < 0 {
        sign_mask(f) | (-(k + 1)) as u64
    } else {
        k as u64
    }
}

/// Key of `+inf`.
#[inline]
pub(crate) fn key_pinf(f: FpFormat) -> i64 {
    f.inf_bits() as i64
}

/// Key of `-inf`.
#[inline]
pub(crate) fn key_ninf(f: FpFormat) -> i64 {
    -(f.inf_bits() as i64) - 1
}

/// The value of key `k` as an `f64`, zeros as `+0.0` (FpDom keeps zero signs in its flags).
#[inline]
pub(crate) fn key_val(f: FpFormat, k: i64) -> f64 {
    ieee::to_f64(f, from_tkey(f, k)) + 0.0
}

/// The smallest float of `f` that is `>= v` (an `f64` value, not NaN), as bits.
pub(crate) fn float_at_least(f: FpFormat, v: f64) -> u64 {
    match f {
        FpFormat::F64 => v.to_bits(),
        FpFormat::F32 => {
            let s = v as f32; // nearest (inf beyond the range)
            let b = s.to_bits() as u64;
            if (s as f64) < v {
                ieee::next_up(f, b)
            } else {
                b
            }
        }
    }
}

/// The largest float of `f` that is `<= v`, as bits.
pub(crate) fn float_at_most(f: FpFormat, v: f64) -> u64 {
    match f {
        FpFormat::F64 => v.to_bits(),
        FpFormat::F32 => {
            let s = v as f32;
            let b = s.to_bits() as u64;
            if (s as f64) > v {
                ieee::next_down(f, b)
            } else {
                b
            }
        }
    }
}

/// The total-order keys of the least and greatest non-NaN member of `d`, or `None`. Zero
/// ends take their sign from the flags; ends that are not floats of the format (they
/// should be) are moved inward to the nearest float, which keeps the same set.
pub(crate) fn key_hull(d: &FpDom) -> Option<(i64, i64)> {
    if !d.has_values() {
        return None;
    }
    let f = d.fmt;
    let lo = if d.lo == 0.0 {
        if d.neg_zero {
            -1
        } else if d.pos_zero {
            0
        } else {
            1
        }
    } else {
        tkey(f, float_at_least(f, d.lo))
    };
    let hi = if d.hi == 0.0 {
        if d.pos_zero {
            0
        } else if d.neg_zero {
            -1
        } else {
            -2
        }
    } else {
        tkey(f, float_at_most(f, d.hi))
    };
    (lo <= hi).then_some((lo, hi))
}

/// The domain `{NaN if nan} ∪ keys [a, b]`.
pub(crate) fn dom_of(f: FpFormat, nan: bool, keys: Option<(i64, i64)>) -> FpDom {
    match keys {
        Some((a, b)) if a <= b => FpDom {
            fmt: f,
            nan,
            lo: key_val(f, a),
            hi: key_val(f, b),
            neg_zero: a <= -1 && -1 <= b,
            pos_zero: a <= 0 && 0 <= b,
        }
        .normalized(),
        _ => FpDom {
            nan,
            ..FpDom::empty(f)
        },
    }
}

/// A growing hull: NaN flag and a key range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Acc {
    pub nan: bool,
    pub lo: i64,
    pub hi: i64,
}

impl Acc {
    pub fn new() -> Acc {
        Acc {
            nan: false,
            lo: i64::MAX,
            hi: i64::MIN,
        }
    }
    #[inline]
    pub fn has_values(&self) -> bool {
        self.lo <= self.hi
    }
    #[inline]
    pub fn add_range(&mut self, a: i64, b: i64) {
        self.lo = self.lo.min(a);
        self.hi = self.hi.max(b);
    }
    #[inline]
    pub fn add_bits(&mut self, f: FpFormat, bits: u64) {
        if f.is_nan(bits) {
            self.nan = true;
        } else {
            let k = tkey(f, bits);
            self.add_range(k, k);
        }
    }
    pub fn dom(&self, f: FpFormat) -> FpDom {
        dom_of(f, self.nan, self.has_values().then_some((self.lo, self.hi)))
    }
}

/// A piece of a domain: the NaN point, or a key range on which the operation is monotone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Piece {
    Nan,
    Keys(i64, i64),
}

/// How a domain is cut into pieces (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Split {
    Whole,
    Finite,
    Sign,
}

/// The pieces of `d` (at most 7: NaN and six sign pieces).
pub(crate) fn pieces(d: &FpDom, split: Split) -> ([Piece; 7], usize) {
    let mut out = [Piece::Nan; 7];
    let mut n = 0;
    if d.nan {
        n = 1;
    }
    let Some((a, b)) = key_hull(d) else {
        return (out, n);
    };
    let f = d.fmt;
    let (ni, pi) = (key_ninf(f), key_pinf(f));
    let segs: &[(i64, i64)] = match split {
        Split::Whole => &[(i64::MIN, i64::MAX)],
        Split::Finite => &[(ni, ni), (ni + 1, pi - 1), (pi, pi)],
        Split::Sign => &[
            (ni, ni),
            (ni + 1, -2),
            (-1, -1),
            (0, 0),
            (1, pi - 1),
            (pi, pi),
        ],
    };
    for &(s, e) in segs {
        let (lo, hi) = (a.max(s), b.min(e));
        if lo > hi {
            continue;
        }
        // a zero piece of its own that the domain excludes (a hole in the key hull)
        if lo == hi && (lo == -1 || lo == 0) && !d.contains(from_tkey(f, lo)) {
            continue;
        }
        out[n] = Piece::Keys(lo, hi);
        n += 1;
    }
    (out, n)
}

/// The results at the corners of a box of pieces, with argument `fixed.0` pinned to the
/// float `fixed.1` if given. `fmts` are the argument formats, `of` the result format.
#[inline]
fn corners<const N: usize>(
    fmts: &[FpFormat; N],
    of: FpFormat,
    bx: &[Piece; N],
    fixed: Option<(usize, u64)>,
    op: &impl Fn([u64; N]) -> u64,
) -> Acc {
    let mut acc = Acc::new();
    'corner: for m in 0..(1usize << N) {
        let mut args = [0u64; N];
        for j in 0..N {
            let hi_end = m >> j & 1 == 1;
            if let Some((i, bits)) = fixed {
                if i == j {
                    if hi_end {
                        continue 'corner; // a pinned argument has one corner
                    }
                    args[j] = bits;
                    continue;
                }
            }
            args[j] = match bx[j] {
                Piece::Nan => {
                    if hi_end {
                        continue 'corner;
                    }
                    fmts[j].nan_bits()
                }
                Piece::Keys(a, b) => {
                    if hi_end && a == b {
                        continue 'corner;
                    }
                    from_tkey(fmts[j], if hi_end { b } else { a })
                }
            };
        }
        acc.add_bits(of, op(args));
    }
    acc
}

/// Calls `visit` on every box of the cartesian product of the arguments' pieces.
fn for_each_box<const N: usize>(
    doms: &[&FpDom; N],
    splits: &[Split; N],
    mut visit: impl FnMut(&[Piece; N]),
) {
    let mut ps = [([Piece::Nan; 7], 0usize); N];
    for j in 0..N {
        ps[j] = pieces(doms[j], splits[j]);
        if ps[j].1 == 0 {
            return; // an empty argument: no box
        }
    }
    let mut idx = [0usize; N];
    loop {
        let mut bx = [Piece::Nan; N];
        for j in 0..N {
            bx[j] = ps[j].0[idx[j]];
        }
        visit(&bx);
        // odometer
        let mut j = 0;
        loop {
            if j == N {
                return;
            }
            idx[j] += 1;
            if idx[j] < ps[j].1 {
                break;
            }
            idx[j] = 0;
            j += 1;
        }
    }
}

/// Encloses `{op(args) : args ∈ doms}`; `of` is the result format.
pub(crate) fn fwd<const N: usize>(
    of: FpFormat,
    doms: [&FpDom; N],
    splits: [Split; N],
    op: impl Fn([u64; N]) -> u64,
) -> FpDom {
    let fmts = doms.map(|d| d.fmt);
    // the hull as an FpDom, so that boxes on both sides of zero do not add the zeros
    let mut res = FpDom::empty(of);
    for_each_box(&doms, &splits, |bx| {
        res = res.hull(&corners(&fmts, of, bx, None, &op).dom(of));
    });
    canon(&res)
}

/// `true` if the set `{NaN if acc.nan} ∪ keys[acc]` meets `z`.
fn meets(of: FpFormat, acc: &Acc, z: &FpDom) -> bool {
    !acc.dom(of).intersect(z).is_empty()
}

/// The midpoint of two keys (binary64 keys span more than `i64::MAX`).
#[inline]
fn mid(a: i64, b: i64) -> i64 {
    ((a as i128 + b as i128) / 2) as i64
}

/// The least key in `(f, t]` where the monotone predicate `q` holds, given `!q(f)` and
/// `q(t)`. A `seed` (an estimate of the answer) is tried first and the bracket grown from it
/// by doubling steps — a few evaluations when the estimate is within a few ulps — then the
/// rest is bisection; the answer is exact whatever the seed.
fn first_true(mut f: i64, mut t: i64, seed: Option<i64>, q: impl Fn(i64) -> bool) -> i64 {
    // an estimate at or beyond an end is tried next to it (boundaries near the ends of a
    // piece, like `x + max >= 2` at `x = -max + ulp`, are common)
    if (t as i128) - (f as i128) <= 1 {
        return t;
    }
    if let Some(e) = seed.map(|e| e.clamp(f + 1, t - 1)) {
        if q(e) {
            t = e;
            let mut step = 1i64;
            loop {
                let c = t.saturating_sub(step);
                if c <= f {
                    break;
                }
                if q(c) {
                    t = c;
                    step = step.saturating_mul(2);
                } else {
                    f = c;
                    break;
                }
            }
        } else {
            f = e;
            let mut step = 1i64;
            loop {
                let c = f.saturating_add(step);
                if c >= t {
                    break;
                }
                if q(c) {
                    t = c;
                    break;
                } else {
                    f = c;
                    step = step.saturating_mul(2);
                }
            }
        }
    }
    bisect(f, t, q)
}

/// The least key in `(f, t]` where `q` holds, by bisection.
fn bisect(mut f: i64, mut t: i64, q: impl Fn(i64) -> bool) -> i64 {
    while (t as i128) - (f as i128) > 1 {
        let m = mid(f, t);
        if q(m) {
            t = m
        } else {
            f = m
        }
    }
    t
}

/// The run of keys in `[a, b]` where a monotone predicate holds, given its values at the
/// ends; `None` if it holds nowhere. `seed(want_min)` estimates the boundary (from the
/// smallest or the largest per-corner estimate: the boundary of a union of monotone runs
/// is the outermost one).
fn true_run(
    a: i64,
    b: i64,
    at_a: bool,
    at_b: bool,
    seed: impl Fn(bool) -> Option<i64>,
    p: impl Fn(i64) -> bool,
) -> Option<(i64, i64)> {
    match (at_a, at_b) {
        (true, true) => Some((a, b)),
        (false, false) => None,
        (false, true) => Some((first_true(a, b, seed(true), p), b)),
        // true then false: the first false, minus one
        (true, false) => {
            let s = seed(false).map(|e| e.saturating_add(1));
            Some((a, first_true(a, b, s, |k| !p(k)) - 1))
        }
    }
}

/// Estimates, one per corner of the other arguments, of the float of argument `i` whose
/// result is `target` (from the op's real inverse `inv`); the least or greatest one as a key
/// of `fi`, if it is a number. An estimate outside the piece is tried mirrored (`|x|` has
/// two inverses).
#[allow(clippy::too_many_arguments)]
fn estimate<const N: usize>(
    fmts: &[FpFormat; N],
    bx: &[Piece; N],
    i: usize,
    target: f64,
    want_min: bool,
    piece: (i64, i64),
    inv: &impl Fn(f64, &[f64; N]) -> f64,
) -> Option<i64> {
    let fi = fmts[i];
    let mut best: Option<f64> = None;
    'corner: for m in 0..(1usize << N) {
        let mut vals = [0f64; N];
        for j in 0..N {
            let hi_end = m >> j & 1 == 1;
            if j == i {
                if hi_end {
                    continue 'corner;
                }
                continue;
            }
            vals[j] = match bx[j] {
                Piece::Nan => {
                    if hi_end {
                        continue 'corner;
                    }
                    f64::NAN
                }
                Piece::Keys(a, b) => {
                    if hi_end && a == b {
                        continue 'corner;
                    }
                    ieee::to_f64(fmts[j], from_tkey(fmts[j], if hi_end { b } else { a }))
                }
            };
        }
        let e = inv(target, &vals);
        if e.is_nan() {
            continue;
        }
        best = Some(match best {
            None => e,
            Some(b) if want_min => b.min(e),
            Some(b) => b.max(e),
        });
    }
    let key = |e: f64| tkey(fi, float_at_least(fi, e));
    let e = best?;
    let k = key(e);
    if piece.0 <= k && k <= piece.1 {
        Some(k)
    } else {
        Some(key(-e))
    }
}

/// The new domain of argument `i` in `z = op(args)`: the hull of the floats of
/// `doms[i]` that reach `z` with some values of the other arguments (see the module docs).
/// `inv(z, args)` estimates (in `f64`, any accuracy) the argument `i` that gives result `z`
/// with the other arguments at `args` (slot `i` unused); it only seeds the exact search.
pub(crate) fn bwd<const N: usize>(
    z: &FpDom,
    doms: [&FpDom; N],
    i: usize,
    splits: [Split; N],
    op: impl Fn([u64; N]) -> u64,
    inv: impl Fn(f64, &[f64; N]) -> f64,
) -> FpDom {
    let of = z.fmt;
    let fi = doms[i].fmt;
    if z.is_empty() {
        return FpDom::empty(fi);
    }
    if doms.iter().any(|d| d.is_empty()) {
        return FpDom::empty(fi);
    }
    let zk = key_hull(z);
    // every float is an output: the operation is total, so every argument value stays
    if z.nan && zk == Some((key_ninf(of), key_pinf(of))) && z.neg_zero && z.pos_zero {
        return *doms[i];
    }
    let fmts = doms.map(|d| d.fmt);
    // the hull as an FpDom: runs on both sides of zero do not add the zeros
    let mut res = FpDom::empty(fi);
    let add_run = |res: &mut FpDom, lo: i64, hi: i64| {
        *res = res.hull(&dom_of(fi, false, Some((lo, hi))));
    };
    for_each_box(&doms, &splits, |bx| match bx[i] {
        Piece::Nan => {
            if !res.nan && meets(of, &corners(&fmts, of, bx, None, &op), z) {
                res.nan = true;
            }
        }
        Piece::Keys(a, b) => {
            if covers(&res, a, b) {
                return; // nothing to gain
            }
            if a == b {
                if meets(of, &corners(&fmts, of, bx, None, &op), z) {
                    add_run(&mut res, a, a);
                }
                return;
            }
            let g = |k: i64| corners(&fmts, of, bx, Some((i, from_tkey(fi, k))), &op);
            let (ga, gb) = (g(a), g(b));
            if ga.nan || gb.nan {
                // The box is all-NaN (piece invariant); should a corner disagree, keep the
                // whole piece, which is always sound.
                if z.nan || ga.has_values() || gb.has_values() {
                    add_run(&mut res, a, b);
                }
                return;
            }
            let Some((zl, zh)) = zk else { return };
            let inv = &inv;
            let fmts = &fmts;
            let seed = |zk: i64| {
                let target = key_val(of, zk);
                move |want_min| estimate(fmts, bx, i, target, want_min, (a, b), inv)
            };
            let Some((pa, pb)) =
                true_run(a, b, ga.hi >= zl, gb.hi >= zl, seed(zl), |k| g(k).hi >= zl)
            else {
                return;
            };
            let Some((qa, qb)) =
                true_run(a, b, ga.lo <= zh, gb.lo <= zh, seed(zh), |k| g(k).lo <= zh)
            else {
                return;
            };
            let (lo, hi) = (pa.max(qa), pb.min(qb));
            if lo <= hi {
                add_run(&mut res, lo, hi);
            }
        }
    });
    canon(&res.intersect(doms[i]))
}

/// `d` with its ends moved onto its least and greatest members (an end that is an excluded
/// zero moves to the nearest non-zero float), so that equal sets compare equal and bound
/// literals sit on real members.
pub(crate) fn canon(d: &FpDom) -> FpDom {
    let f = d.fmt;
    match key_hull(d) {
        None => FpDom {
            nan: d.nan,
            ..FpDom::empty(f)
        },
        Some((a, b)) => FpDom {
            lo: key_val(f, a),
            hi: key_val(f, b),
            ..*d
        }
        .normalized(),
    }
}

/// `true` if the domain `d` already holds every float with a key in `[a, b]`.
fn covers(d: &FpDom, a: i64, b: i64) -> bool {
    let Some((lo, hi)) = key_hull(d) else {
        return false;
    };
    lo <= a
        && b <= hi
        && (!(a <= -1 && -1 <= b) || d.neg_zero)
        && (!(a <= 0 && 0 <= b) || d.pos_zero)
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FpFormat = FpFormat::F64;

    #[test]
    fn total_keys_order_zeros_and_count_floats() {
        assert_eq!(tkey(F, (-0.0f64).to_bits()), -1);
        assert_eq!(tkey(F, 0), 0);
        assert_eq!(tkey(F, 1), 1);
        assert_eq!(tkey(F, (-5e-324f64).to_bits()), -2);
        for x in [-1.5f64, -0.0, 0.0, 5e-324, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(from_tkey(F, tkey(F, x.to_bits())), x.to_bits());
        }
        assert_eq!(key_pinf(F), tkey(F, f64::INFINITY.to_bits()));
        assert_eq!(key_ninf(F), tkey(F, f64::NEG_INFINITY.to_bits()));
        let f = FpFormat::F32;
        assert_eq!(key_ninf(f), tkey(f, f32::NEG_INFINITY.to_bits() as u64));
    }

    #[test]
    fn key_hull_respects_zero_flags_and_rounds_inward() {
        let d = FpDom {
            neg_zero: false,
            ..FpDom::range(F, 0.0, 1.0)
        };
        assert_eq!(key_hull(&d), Some((0, tkey(F, 1.0f64.to_bits()))));
        let d = FpDom {
            pos_zero: false,
            neg_zero: false,
            ..FpDom::range(F, -1.0, 0.0)
        };
        assert_eq!(key_hull(&d).unwrap().1, -2);
        // an f32 domain whose ends are not f32 values
        let f = FpFormat::F32;
        let d = FpDom::range(f, 0.1, 0.2);
        let (a, b) = key_hull(&d).unwrap();
        assert!(key_val(f, a) >= 0.1 && key_val(f, b) <= 0.2);
        assert!(key_val(f, a - 1) < 0.1 && key_val(f, b + 1) > 0.2);
    }

    #[test]
    fn pieces_split_by_sign_and_skip_excluded_zeros() {
        let d = FpDom {
            neg_zero: false,
            ..FpDom::full(F)
        };
        let (p, n) = pieces(&d, Split::Sign);
        assert_eq!(n, 6); // NaN, -inf, negatives, +0, positives, +inf
        assert!(!p[..n].contains(&Piece::Keys(-1, -1)));
        assert!(p[..n].contains(&Piece::Keys(0, 0)));
        let (_, n) = pieces(&FpDom::range(F, 1.0, 2.0), Split::Sign);
        assert_eq!(n, 1);
        let (_, n) = pieces(&FpDom::empty(F), Split::Whole);
        assert_eq!(n, 0);
    }
}
