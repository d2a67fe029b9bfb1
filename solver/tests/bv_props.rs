//! Property tests of the machine-integer contractors (`solver::contractors::bv`).
//!
//! - Soundness: random boxes of every machine type (points, small and wide boxes, boxes at
//!   `MIN`/`MAX` where wrap-around happens, the whole type) and random points inside them; the
//!   exact value at the points, computed by the independent big-integer checker
//!   (`contractors::check_bv`), must lie in the forward contraction, and with the output in a
//!   random box around that value, no backward contraction may remove the argument points.
//!   Where the value is unspecified (division by 0, shift counts out of range) any output is
//!   possible: a random output value stands in for it.
//! - Tightness on points and agreement with Rust's native operations: the differential check
//!   of `solver/examples/bv_diff.rs` with a smaller count (`ICPIC3_BV_DIFF_INPUTS`, default
//!   20,000 per type).
//!
//! Two drivers feed the soundness check: a seeded loop and proptest (which shrinks the seeds).

#[path = "common/bv_diff.rs"]
mod bv_diff;

use bv_diff::Rng;
use num_bigint::BigInt;
use proptest::prelude::*;
use solver::contractors::bv::{self, BvSet, IntIv};
use solver::contractors::check_bv::{self, BvValue};
use solver::{IntType, Op};

const TYPES: [IntType; 8] = [
    IntType::new(8, true),
    IntType::new(8, false),
    IntType::new(16, true),
    IntType::new(16, false),
    IntType::new(32, true),
    IntType::new(32, false),
    IntType::new(64, true),
    IntType::new(64, false),
];

/// A value of `t` near `c`, clamped into the type.
fn clamp(t: IntType, v: i128) -> i128 {
    v.clamp(bv::tmin(t), bv::tmax(t))
}

/// A random box of `t` (see the module docs for the kinds).
fn random_box(t: IntType, rng: &mut Rng) -> IntIv {
    let (min, max) = (bv::tmin(t), bv::tmax(t));
    let r = rng.next();
    let center = match r % 6 {
        0 => min,
        1 => max,
        2 => 0,
        3 => (rng.next() % 33) as i128 - 16,
        _ => bv::wrap(t, rng.next() as i128),
    };
    let w: i128 = match (r >> 8) % 6 {
        0 => 0,
        1 => (rng.next() % 8) as i128,
        2 => (rng.next() % 300) as i128,
        3 => (rng.next() >> (rng.next() % 64)) as i128,
        4 => return bv::range(t),
        _ => (rng.next() as i128).rem_euclid(bv::modulus(t)),
    };
    let lo = clamp(t, center - (rng.next() % 2) as i128 * w / 2);
    IntIv::new(lo, clamp(t, lo + w))
}

/// A random point of a non-empty box.
fn random_in(iv: IntIv, rng: &mut Rng) -> i128 {
    let span = (iv.hi - iv.lo) as u128 + 1;
    let r = match rng.next() % 4 {
        0 => 0,
        1 => span - 1,
        _ => ((rng.next() as u128) << 64 | rng.next() as u128) % span,
    };
    iv.lo + r as i128
}

/// A random shift-count box: inside `[0, width)` mostly, sometimes reaching outside.
fn random_count(t: IntType, rng: &mut Rng) -> IntIv {
    let w = t.bits as i128;
    let lo = (rng.next() % (w as u64 + 2)) as i128 - 1;
    let len = match rng.next() % 3 {
        0 => 0,
        1 => (rng.next() % 4) as i128,
        _ => (rng.next() % (w as u64 + 2)) as i128,
    };
    let hi = if rng.next().is_multiple_of(4) {
        lo + len
    } else {
        (lo + len).min(w - 1)
    };
    IntIv::new(lo.max(0).min(hi), hi)
}

type Fwd2 = fn(IntType, IntIv, IntIv) -> BvSet;
type Bwd2 = fn(IntType, IntIv, IntIv, IntIv) -> IntIv;

/// The binary operations: (op, fwd, bwd of a, bwd of b, second operand is a count).
fn binary_ops() -> Vec<(Op, Fwd2, Bwd2, Bwd2, bool)> {
    vec![
        (Op::BvAdd, bv::fwd_add, bv::bwd_add_a, bv::bwd_add_b, false),
        (Op::BvSub, bv::fwd_sub, bv::bwd_sub_a, bv::bwd_sub_b, false),
        (Op::BvMul, bv::fwd_mul, bv::bwd_mul_a, bv::bwd_mul_b, false),
        (Op::BvDiv, bv::fwd_div, bv::bwd_div_a, bv::bwd_div_b, false),
        (Op::BvRem, bv::fwd_rem, bv::bwd_rem_a, bv::bwd_rem_b, false),
        (
            Op::BvAnd,
            bv::fwd_and,
            bv::bwd_and_a,
            |t, o, a, b| bv::bwd_and_a(t, o, b, a),
            false,
        ),
        (
            Op::BvOr,
            bv::fwd_or,
            bv::bwd_or_a,
            |t, o, a, b| bv::bwd_or_a(t, o, b, a),
            false,
        ),
        (Op::BvXor, bv::fwd_xor, bv::bwd_xor_a, bv::bwd_xor_b, false),
        (
            Op::BvShl,
            bv::fwd_shl,
            bv::bwd_shl_a,
            |t, o, a, k| bv::bwd_shift_k(t, true, o, a, k),
            true,
        ),
        (
            Op::BvShr,
            bv::fwd_shr,
            bv::bwd_shr_a,
            |t, o, a, k| bv::bwd_shift_k(t, false, o, a, k),
            true,
        ),
    ]
}

/// The exact output at a point (a random value of the type where it is unspecified).
fn exact(op: &Op, t: IntType, args: &[i128], rng: &mut Rng) -> i128 {
    let big: Vec<BigInt> = args.iter().map(|&v| BigInt::from(v)).collect();
    match check_bv::eval(op, t, &big).expect("a machine-integer operation") {
        BvValue::Value(v) => i128::try_from(v).expect("in the type"),
        BvValue::Unspecified => random_in(bv::range(t), rng),
    }
}

/// A random output box around `v`.
fn out_box(t: IntType, v: i128, rng: &mut Rng) -> IntIv {
    let b = random_box(t, rng);
    b.hull(IntIv::point(v))
}

/// One soundness case from a seed: every operation on one random type.
fn soundness_case(seed: u64) {
    let mut rng = Rng(seed | 1);
    let t = TYPES[(rng.next() % 8) as usize];
    for (op, fwd, bwd_a, bwd_b, count) in binary_ops() {
        let a = random_box(t, &mut rng);
        let b = if count {
            random_count(t, &mut rng)
        } else {
            random_box(t, &mut rng)
        };
        let (pa, pb) = (random_in(a, &mut rng), random_in(b, &mut rng));
        let v = exact(&op, t, &[pa, pb], &mut rng);
        let f = fwd(t, a, b);
        assert!(
            f.contains(v),
            "{op:?} {t:?}: fwd({a:?}, {b:?}) = {f:?} misses {v} = op({pa}, {pb})"
        );
        let o = out_box(t, v, &mut rng);
        assert!(f.cut(o).contains(v));
        let na = bwd_a(t, o, a, b);
        let nb = bwd_b(t, o, a, b);
        assert!(
            na.contains(pa),
            "{op:?} {t:?}: bwd_a(out {o:?}, {a:?}, {b:?}) = {na:?} loses {pa} (b = {pb}, out {v})"
        );
        assert!(
            nb.contains(pb),
            "{op:?} {t:?}: bwd_b(out {o:?}, {a:?}, {b:?}) = {nb:?} loses {pb} (a = {pa}, out {v})"
        );
        assert!(na.is_subset(a) && nb.is_subset(b), "{op:?}: a box grew");
    }
    // unary: neg, not
    type Fwd1 = fn(IntType, IntIv) -> BvSet;
    type Bwd1 = fn(IntType, IntIv, IntIv) -> IntIv;
    let unary: [(Op, Fwd1, Bwd1); 2] = [
        (Op::BvNeg, bv::fwd_neg, bv::bwd_neg_a),
        (Op::BvNot, bv::fwd_not, bv::bwd_not_a),
    ];
    for (op, fwd, bwd) in unary {
        let a = random_box(t, &mut rng);
        let pa = random_in(a, &mut rng);
        let v = exact(&op, t, &[pa], &mut rng);
        assert!(fwd(t, a).contains(v), "{op:?} {t:?} {a:?} {pa}");
        let o = out_box(t, v, &mut rng);
        assert!(
            bwd(t, o, a).contains(pa),
            "{op:?} {t:?} bwd {o:?} {a:?} {pa}"
        );
    }
    // casts from a random source type
    let s = TYPES[(rng.next() % 8) as usize];
    let a = random_box(s, &mut rng);
    let pa = random_in(a, &mut rng);
    let v = exact(&Op::BvCast, t, &[pa], &mut rng);
    assert!(
        bv::fwd_cast(t, a).contains(v),
        "cast {s:?}->{t:?} {a:?} {pa}"
    );
    let o = out_box(t, v, &mut rng);
    assert!(
        bv::bwd_cast_a(t, o, a).contains(pa),
        "bwd cast {s:?}->{t:?} {o:?} {a:?} {pa}"
    );
    // conversion of an int (possibly out of the type's range) into the type
    let big = 1i128 << 70;
    let c = (rng.next() as i64 as i128) * (1 + (rng.next() % 64) as i128);
    let w = (rng.next() % 1000) as i128;
    let a = IntIv::new((c - w).max(-big), (c + w).min(big));
    let pa = random_in(a, &mut rng);
    let fits = bv::range(t).contains(pa);
    let v = if fits {
        pa
    } else {
        random_in(bv::range(t), &mut rng)
    };
    assert!(
        bv::fwd_convert(t, a).contains(v),
        "convert {t:?} {a:?} {pa}"
    );
    let o = out_box(t, v, &mut rng);
    assert!(
        bv::bwd_convert_a(t, o, a).contains(pa),
        "bwd convert {t:?} {o:?} {a:?} {pa}"
    );
}

fn cases(default: u64) -> u64 {
    std::env::var("ICPIC3_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn contractors_never_lose_a_point_seeded() {
    for i in 0..cases(20_000) {
        soundness_case(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5eed_0000);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(2_000) as u32))]
    #[test]
    fn contractors_never_lose_a_point(seed in any::<u64>()) {
        soundness_case(seed);
    }
}

#[test]
fn points_agree_with_native_operations() {
    let n = std::env::var("ICPIC3_BV_DIFF_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let rep = bv_diff::run_diff(n, 0x0dd_b175, 1);
    assert_eq!(rep.rows.len(), 8);
    for (name, _, checks, bad, first) in &rep.rows {
        assert_eq!(
            *bad, 0,
            "{name}: {bad} of {checks} checks differ; first: {first:?}"
        );
    }
    assert_eq!(rep.total_mismatches(), 0);
}
