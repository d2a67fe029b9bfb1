//! IEEE contractors against the exact operations (issue #4, "Backward-contraction soundness
//! tests").
//!
//! The idea: the harness in `solver::contractors::ieee::check` generates random points with
//! special values weighted in (NaN, ±0, ±inf, subnormal and normal edges, max, halfway-case
//! neighbours), random domains around them, and small lattice windows it can enumerate; here
//! every operation, rounding mode and format runs through it:
//! - soundness: a point satisfying the relation is never removed by fwd or any bwd;
//! - tightness on points: fwd of points is the exact result, bwd with point partners and a
//!   point output keeps only solutions at its extremes (so it is their exact hull);
//! - exhaustive windows: fwd ⊇ exact image, bwd ⊇ exact projection, equal on points.
//!
//! `ICPIC3_IEEE_CASES=N` sets the random cases per (op, mode, format); the example
//! `ieee_contractor_sweep` runs millions. Then hand-written cases from the issue.

use solver::contractors::ieee::check::{
    compare_case, conversion_case, exact_image, exact_projection, hull_of, random_case, same_set,
    window_case, FpOp, Rng, Stats,
};
use solver::contractors::ieee::*;
use solver::interval::Interval;
use solver::num::{ieee, FpFormat, RoundingMode};

use FpFormat::{F32, F64};
use RoundingMode::*;

fn cases(default: u64) -> u64 {
    std::env::var("ICPIC3_IEEE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn run(op: FpOp, per: u64, windows: u64) -> Stats {
    let mut st = Stats::default();
    for f in [F32, F64] {
        for rm in RoundingMode::ALL {
            let mut rng = Rng::new(0x1eee ^ (rm as u64) << 8 ^ (f as u64) << 16 ^ op_seed(op));
            for _ in 0..per {
                if let Err(e) = random_case(&mut rng, f, op, rm, &mut st) {
                    panic!("{e}");
                }
            }
            for _ in 0..windows {
                if let Err(e) = window_case(&mut rng, f, op, rm, &mut st) {
                    panic!("{e}");
                }
            }
        }
    }
    eprintln!("{op:?}: {st:?}");
    st
}

fn op_seed(op: FpOp) -> u64 {
    FpOp::ALL.iter().position(|&o| o == op).unwrap() as u64 * 0x1_0000_0000
}

macro_rules! prop {
    ($name:ident, $op:expr, $per:expr, $win:expr) => {
        #[test]
        fn $name() {
            let st = run($op, cases($per), cases($win));
            assert!(st.cases > 0 && st.tight > 0 && st.windows > 0);
        }
    };
}

prop!(props_add, FpOp::Add, 200, 200);
prop!(props_sub, FpOp::Sub, 200, 200);
prop!(props_mul, FpOp::Mul, 200, 200);
prop!(props_div, FpOp::Div, 200, 200);
prop!(props_fma, FpOp::Fma, 60, 60);
prop!(props_sqrt, FpOp::Sqrt, 200, 200);
prop!(props_neg, FpOp::Neg, 200, 200);
prop!(props_abs, FpOp::Abs, 200, 200);
prop!(props_min, FpOp::Min, 200, 200);
prop!(props_max, FpOp::Max, 200, 200);
prop!(props_to_f32, FpOp::Convert(F32), 200, 200);
prop!(props_to_f64, FpOp::Convert(F64), 200, 200);

#[test]
fn props_compare_and_class() {
    let mut st = Stats::default();
    for f in [F32, F64] {
        let mut rng = Rng::new(0xc0 ^ f as u64);
        for _ in 0..cases(2000) {
            compare_case(&mut rng, f, &mut st).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    eprintln!("compare: {st:?}");
    assert!(st.kept > 0 && st.windows > 0);
}

#[test]
fn props_conversions_from_and_to_reals() {
    let mut st = Stats::default();
    for f in [F32, F64] {
        for rm in RoundingMode::ALL {
            let mut rng = Rng::new(0xcc ^ f as u64 ^ (rm as u64) << 4);
            for _ in 0..cases(500) {
                conversion_case(&mut rng, f, rm, &mut st).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    eprintln!("conversions: {st:?}");
    assert!(st.kept > 0 && st.tight > 0);
}

// ------------------------------------------------------------------ hand-written cases

fn d(x: f64) -> FpDom {
    FpDom::point(F64, x.to_bits())
}
fn r(lo: f64, hi: f64) -> FpDom {
    FpDom::range(F64, lo, hi)
}
fn b(x: f64) -> u64 {
    x.to_bits()
}

#[test]
fn paper_footnote_1e20_plus_1() {
    // 1e20 + 1 = 1e20 in binary64 (over the reals it would not be)
    assert_eq!(fwd_add(Rne, &d(1e20), &d(1.0)), d(1e20));
    // x + 1 = 1e20: exactly the floats that round there — 1e20 and its neighbours within
    // half an ulp (ulp(1e20) = 16384, so x ∈ [1e20 - 8192, 1e20 + 8192] minus ties to odd)
    let x = bwd_add_x(Rne, &d(1e20), &FpDom::full(F64), &d(1.0));
    assert!(!x.nan);
    let (lo, hi) = (b(x.lo), b(x.hi));
    assert_eq!(ieee::add(F64, Rne, lo, b(1.0)), b(1e20));
    assert_eq!(ieee::add(F64, Rne, hi, b(1.0)), b(1e20));
    assert_ne!(
        ieee::add(F64, Rne, ieee::next_down(F64, lo), b(1.0)),
        b(1e20)
    );
    assert_ne!(ieee::add(F64, Rne, ieee::next_up(F64, hi), b(1.0)), b(1e20));
    // 1e20 is the only float there: its neighbours are 16384 away
    assert_eq!(x, d(1e20));
    // "sum != big" is impossible with big = 1e20, sum = big + 1
    let sum = fwd_add(Rne, &d(1e20), &d(1.0));
    assert_eq!(
        fwd_eq(&sum, &d(1e20)),
        BoolPoss {
            can_true: true,
            can_false: false
        }
    );
}

#[test]
fn x_plus_one_equals_x() {
    // x + 1 = x (identity) holds for x = ±inf, NaN, and the floats too large for the 1 to
    // survive rounding: in RNE from 2^53 up (2^53 + 1 ties to the even 2^53), but on the
    // negative side not at -2^53 (-2^53 + 1 is exact) and only at every other float just
    // below it (ties to even). The solver splits down to points, where the contractor must
    // agree with the exact operation: the definition z = x + 1 with z and x the same point
    // is consistent iff x + 1 = x.
    let one = d(1.0);
    let t = 2f64.powi(53);
    let mut seen = [0usize; 2];
    for rm in RoundingMode::ALL {
        for c in [
            t,
            -t,
            2.0 * t,
            -2.0 * t,
            1.0,
            -1.0,
            0.0,
            f64::MAX,
            -f64::MAX,
        ] {
            for k in -6i64..=6 {
                let xb = (b(c) as i64 + k) as u64;
                if F64.is_nan(xb) || (c == 0.0 && k < 0) {
                    continue;
                }
                let x = d(f64::from_bits(xb));
                let holds = ieee::same(F64, ieee::add(F64, rm, xb, b(1.0)), xb);
                let kept = !bwd_add_x(rm, &x, &x, &one).is_empty();
                assert_eq!(kept, holds, "{rm:?} x = {:?}", f64::from_bits(xb));
                assert_eq!(fwd_add(rm, &x, &one) == x, holds);
                seen[holds as usize] += 1;
            }
        }
        for x in [d(f64::INFINITY), d(f64::NEG_INFINITY), FpDom::nan_only(F64)] {
            assert!(!bwd_add_x(rm, &x, &x, &one).is_empty());
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0);
    // RNE facts the above relies on
    assert_eq!(fwd_add(Rne, &d(t), &one), d(t));
    assert_eq!(fwd_add(Rne, &d(-t), &one), d(-t + 1.0));
    assert_eq!(fwd_add(Rne, &d(-t - 4.0), &one), d(-t - 4.0));
    assert_eq!(fwd_add(Rne, &d(-t - 2.0), &one), d(-t));
    // on a box: the floats x in [2^53 - 4, 2^53 + 4] with x + 1 = 2^53 are 2^53 - 1 and 2^53
    let only_t = bwd_add_x(Rne, &d(t), &r(t - 4.0, t + 4.0), &one);
    assert_eq!((only_t.lo, only_t.hi), (t - 1.0, t));
    // in RNA the tie goes away: 2^53 + 1 = 2^53 + 2
    assert_eq!(fwd_add(Rna, &d(t), &one), d(t + 2.0));
}

#[test]
fn tenth_plus_fifth_is_not_three_tenths() {
    let s = fwd_add(Rne, &d(0.1), &d(0.2));
    assert_eq!(s, d(0.30000000000000004));
    assert_eq!(
        fwd_eq(&s, &d(0.3)),
        BoolPoss {
            can_true: false,
            can_false: true
        }
    );
    // and backward: x + 0.2 = 0.3 has solutions, but not 0.1
    let x = bwd_add_x(Rne, &d(0.3), &r(0.0, 1.0), &d(0.2));
    assert!(!x.is_empty() && !x.contains(b(0.1)));
    assert_eq!(ieee::add(F64, Rne, b(x.lo), b(0.2)), b(0.3));
    assert_eq!(ieee::add(F64, Rne, b(x.hi), b(0.2)), b(0.3));
}

#[test]
fn no_double_squares_to_two_in_nearest_even() {
    // sqrt 2 is irrational; its RNE neighbours square to 1.9999999999999996 and
    // 2.0000000000000004, so `x * x = 2` has no binary64 solution in RNE. With the solver's
    // splitting down to points, the contractor must empty every point near sqrt 2 in RNE — and
    // in each mode keep exactly the points whose square really rounds to 2.
    let s = std::f64::consts::SQRT_2;
    assert_eq!(s * s, 2.0000000000000004);
    let p = f64::from_bits(s.to_bits() - 1);
    assert_eq!(p * p, 1.9999999999999996);
    let mut solutions = 0;
    for rm in RoundingMode::ALL {
        for k in -8i64..=8 {
            let x = d(f64::from_bits((s.to_bits() as i64 + k) as u64));
            let xb = x.as_point().unwrap();
            let squares_to_two = ieee::mul(F64, rm, xb, xb) == b(2.0);
            let nx = bwd_mul_x(rm, &d(2.0), &x, &x);
            assert_eq!(!nx.is_empty(), squares_to_two, "{rm:?} {x:?}");
            assert_eq!(fwd_mul(rm, &x, &x).contains(b(2.0)), squares_to_two);
            if squares_to_two {
                assert_ne!(rm, Rne);
                solutions += 1;
            }
        }
    }
    // the directed modes do reach 2 (RTP from below or RTN/RTZ from above)
    assert!(solutions > 0);
    // on a box, without splitting, the two copies of x are independent: x·y = 2 with
    // y in the same box has solutions, so the box stays (no spurious emptiness)
    let w = r(1.414213562373094, 1.414213562373096);
    let nx = bwd_mul_x(Rne, &d(2.0), &w, &w);
    assert!(!nx.is_empty());
    assert_eq!(ieee::mul(F64, Rne, b(nx.lo), b(w.hi)), b(2.0));
}

#[test]
fn sqrt_of_negative_zero_and_negatives() {
    assert_eq!(fwd_sqrt(Rne, &d(-0.0)), d(-0.0));
    let n = fwd_sqrt(Rne, &r(-4.0, -1.0));
    assert!(n.nan && !n.has_values());
    // sqrt x = -0 ⇒ x = -0
    assert_eq!(bwd_sqrt_x(Rne, &d(-0.0), &r(-1.0, 1.0)), d(-0.0));
    // sqrt x = NaN ⇒ x negative (or NaN)
    let x = bwd_sqrt_x(Rne, &FpDom::nan_only(F64), &FpDom::full(F64));
    assert!(x.nan && x.hi < 0.0 && x.lo == f64::NEG_INFINITY);
}

#[test]
fn one_over_x_is_minus_infinity() {
    // 1/x = -inf ⇒ x = -0 in RNE (1/tiny negative overflows too: 1/-5e-324 = -inf!)
    let x = bwd_div_y(Rne, &d(f64::NEG_INFINITY), &d(1.0), &FpDom::full(F64));
    assert!(!x.nan);
    assert!(x.contains(b(-0.0)) && !x.contains(b(0.0)));
    // the exact set: -0 and the negatives with 1/x below -max-ulp/2
    assert_eq!(ieee::div(F64, Rne, b(1.0), b(x.lo)), b(f64::NEG_INFINITY));
    assert_eq!(x.hi, 0.0);
    let below = ieee::next_down(F64, b(x.lo));
    assert_ne!(ieee::div(F64, Rne, b(1.0), below), b(f64::NEG_INFINITY));
    // with y restricted to normal values, no solution
    let y = bwd_div_y(Rne, &d(f64::NEG_INFINITY), &d(1.0), &r(-1e300, -1e-300));
    assert!(y.is_empty());
    // in RTZ, 1/x never overflows to -inf: only x = -0
    let y = bwd_div_y(Rtz, &d(f64::NEG_INFINITY), &d(1.0), &FpDom::full(F64));
    assert_eq!(y, d(-0.0));
}

#[test]
fn inf_minus_inf_is_nan() {
    let z = fwd_sub(Rne, &d(f64::INFINITY), &d(f64::INFINITY));
    assert!(z.nan && !z.has_values());
    // z = NaN with x = +inf: y is NaN or +inf
    let y = bwd_sub_y(
        Rne,
        &FpDom::nan_only(F64),
        &d(f64::INFINITY),
        &FpDom::full(F64),
    );
    assert!(y.nan && y.lo == f64::INFINITY && y.hi == f64::INFINITY);
    // z = NaN with finite x and y impossible
    assert!(bwd_sub_x(Rne, &FpDom::nan_only(F64), &r(-1.0, 1.0), &r(-1.0, 1.0)).is_empty());
}

#[test]
fn class_predicates_backward() {
    let full = FpDom::full(F64);
    assert_eq!(bwd_class(FpClass::Nan, true, &full), FpDom::nan_only(F64));
    let notnan = bwd_class(FpClass::Nan, false, &full);
    assert!(!notnan.nan && notnan.lo == f64::NEG_INFINITY && notnan.hi == f64::INFINITY);
    let z = bwd_class(FpClass::Zero, true, &full);
    assert!(z.contains(0) && z.contains(b(-0.0)) && !z.nan && z.lo == 0.0 && z.hi == 0.0);
    // iszero(x) false on [0, 1]: x ∈ [min_sub, 1]
    let nz = bwd_class(FpClass::Zero, false, &r(0.0, 1.0));
    assert_eq!(nz.lo, 5e-324);
    // isneg true on [-0, 1]: only -0
    let neg = bwd_class(FpClass::Neg, true, &r(0.0, 1.0));
    assert_eq!(neg, d(-0.0));
    // issubnormal on [0, 1]: [min_sub, max_sub]
    let s = bwd_class(FpClass::Subnormal, true, &r(0.0, 1.0));
    assert_eq!((s.lo, s.hi), (5e-324, f64::MIN_POSITIVE - 5e-324));
    assert_eq!(
        fwd_class(FpClass::Inf, &r(0.0, 1.0)),
        BoolPoss {
            can_true: false,
            can_false: true
        }
    );
}

#[test]
fn comparisons_signed_zero_and_nan() {
    let full = FpDom::full(F64);
    // x < +0 ⇒ x <= -min_sub; -0 is not below +0
    let (x, _) = bwd_lt(true, &full, &d(0.0));
    assert_eq!(x.hi, -5e-324);
    assert!(!x.nan);
    // not (x < 1) keeps NaN and [1, inf]
    let (x, _) = bwd_lt(false, &full, &d(1.0));
    assert!(x.nan && x.lo == 1.0);
    // feq(x, 0) ⇒ both zeros; same(x, +0) ⇒ only +0
    let (x, _) = bwd_eq(true, &full, &d(0.0));
    assert!(x.contains(b(-0.0)) && x.contains(0) && !x.nan);
    let (x, _) = bwd_same(true, &full, &d(0.0));
    assert_eq!(x, d(0.0));
    // not feq(x, x) needs NaN: with y = NaN-free point 1, x = 1 is removed
    let (x, _) = bwd_eq(false, &r(1.0, 2.0), &d(1.0));
    assert_eq!(x.lo, 1.0000000000000002);
    // same(NaN, NaN) can be true, feq cannot
    let n = FpDom::nan_only(F64);
    assert!(fwd_same(&n, &n).can_true && !fwd_same(&n, &n).can_false);
    assert!(!fwd_eq(&n, &n).can_true);
}

#[test]
fn conversions_by_hand() {
    // 0.1 as a real rounds to the binary32 nearest 1/10; the reals rounding there
    let z = fwd_round_real(Rne, F32, Interval::point(0.1));
    assert_eq!(z, FpDom::point(F32, 0.1f32.to_bits() as u64));
    let a = bwd_round_real_a(Rne, &z, Interval::ENTIRE, false);
    assert!(a.contains(0.1) && a.contains(0.1f32 as f64));
    assert!(!a.contains(f32::from_bits(0.1f32.to_bits() + 1) as f64));
    // a tiny negative real rounds to -0 in RNE, to -min_sub in RTN
    let t = Interval::closed(-1e-300, -1e-300);
    let f32p = |x: f32| FpDom::point(F32, x.to_bits() as u64);
    assert_eq!(fwd_round_real(Rne, F32, t), f32p(-0.0));
    assert_eq!(fwd_round_real(Rtn, F32, t), f32p(-f32::from_bits(1)));
    // the reals that round to -0 in RNE: [-min_sub/2, 0)
    let m = bwd_round_real_a(Rne, &d(-0.0), Interval::ENTIRE, false);
    // -min_sub/2 is no double: the enclosure is (-min_sub, 0)
    assert_eq!(m, Interval::open(-5e-324, 0.0));
    // integers that round to 2^53 in RNE: 2^53 and 2^53 + 1 (tie to even); 2^53 + 1 is no
    // double, so the enclosure is [2^53, 2^53 + 2)
    let t53 = 2f64.powi(53);
    let i = bwd_round_real_a(Rne, &d(t53), Interval::ENTIRE, true);
    assert_eq!(i, Interval::new(t53, false, t53 + 2.0, true));
    // and the reals: [2^53 - 1/2, 2^53 + 1] (both ties go to the even 2^53), neither end a
    // double: enclosed by (2^53 - 1, 2^53 + 2)
    let i = bwd_round_real_a(Rne, &d(t53), Interval::ENTIRE, false);
    assert_eq!(i, Interval::open(t53 - 1.0, t53 + 2.0));
    // fp -> int
    assert_eq!(fwd_fp_to_int(&r(-2.7, 3.9)), Interval::closed(-2.0, 3.0));
    let x = bwd_fp_to_int_x(Interval::closed(0.0, 0.0), &r(-5.0, 5.0));
    assert_eq!((x.lo, x.hi), (-0.9999999999999999, 0.9999999999999999));
    assert!(fwd_fp_to_int(&full_with_nan()).is_entire());
    // fp -> real
    assert_eq!(fwd_to_real(&r(-0.0, 1.5)), Interval::closed(0.0, 1.5));
    let x = bwd_to_real_x(Interval::open(0.0, 1.0), &r(-1.0, 2.0));
    assert_eq!((x.lo, x.hi), (5e-324, 0.9999999999999999));
    // fp64 -> fp32: 0.1 (double) rounds to 0.1f32; the doubles that do
    let z = fwd_convert(Rne, F32, &d(0.1));
    assert_eq!(z, FpDom::point(F32, 0.1f32.to_bits() as u64));
    let back = bwd_convert_x(Rne, &z, &FpDom::full(F64));
    assert!(back.contains(b(0.1)) && back.lo < 0.1f32 as f64 && back.hi > 0.1f32 as f64);
}

fn full_with_nan() -> FpDom {
    FpDom::full(F64)
}
#[test]
fn zero_times_inf_inside_a_box_is_nan() {
    // the zero is inside y's range, not at an end: the sign split must find it
    let z = fwd_mul(Rne, &d(f64::INFINITY), &r(-1.0, 1.0));
    assert!(z.nan && z.lo == f64::NEG_INFINITY && z.hi == f64::INFINITY && !z.contains(0));
    // and backward: z = NaN with x = inf needs y = ±0
    let y = bwd_mul_y(Rne, &FpDom::nan_only(F64), &d(f64::INFINITY), &r(-1.0, 1.0));
    assert!(y.contains(0) && y.contains(b(-0.0)) && y.lo == 0.0 && y.hi == 0.0);
}

#[test]
fn sums_of_non_zero_operands_are_never_negative_zero_outside_rtn() {
    // [1, 2] + [-2, -1] straddles zero; the exact zero sums (1 - 1, 2 - 2) give +0 in every
    // mode but RTN, where they give -0
    let (x, y) = (r(1.0, 2.0), r(-2.0, -1.0));
    for rm in [Rne, Rna, Rtp, Rtz] {
        let z = fwd_add(rm, &x, &y);
        assert!(z.contains(0) && !z.contains(b(-0.0)), "{rm:?}");
        let z = fwd_sub(rm, &x, &x);
        assert!(z.contains(0) && !z.contains(b(-0.0)), "{rm:?}");
    }
    let z = fwd_add(Rtn, &x, &y);
    assert!(!z.contains(0) && z.contains(b(-0.0)));
    // -0 + -0 = -0 in every mode; -0 - +0 = -0
    assert_eq!(fwd_add(Rne, &d(-0.0), &d(-0.0)), d(-0.0));
    assert_eq!(fwd_sub(Rne, &d(-0.0), &d(0.0)), d(-0.0));
    assert_eq!(fwd_sub(Rtn, &d(0.0), &d(0.0)), d(-0.0));
}

/// Every binary operation and mode on fixed lattice windows (a few ulps around 1, both zeros
/// with the subnormal edge, the normal/subnormal boundary, the top of the range with +inf),
/// each output being the exact image or one of its members: bwd must keep the exact
/// projection, and with a point partner be exactly its hull.
#[test]
fn exhaustive_windows_around_one_zero_and_the_edges() {
    let f = F64;
    let window = |c: u64, below: u32, above: u32| {
        let (mut lo, mut hi) = (c, c);
        for _ in 0..below {
            lo = ieee::next_down(f, lo);
        }
        for _ in 0..above {
            hi = ieee::next_up(f, hi);
        }
        FpDom::point(f, lo).hull(&FpDom::point(f, hi))
    };
    let mut with_zeros = window(0, 2, 2);
    with_zeros.neg_zero = true;
    with_zeros.pos_zero = true;
    let windows = [
        window(b(1.0), 2, 2),
        with_zeros,
        window(b(f64::MIN_POSITIVE), 2, 1),
        window(b(f64::MAX), 1, 1), // max - ulp, max, +inf
        window(b(-1.5), 1, 1),
        d(2.0),
        d(-0.0),
    ];
    let (mut checked, mut exact) = (0u32, 0u32);
    for op in [
        FpOp::Add,
        FpOp::Sub,
        FpOp::Mul,
        FpOp::Div,
        FpOp::Min,
        FpOp::Max,
    ] {
        // fmin/fmax do not round
        let modes: &[RoundingMode] = if matches!(op, FpOp::Min | FpOp::Max) {
            &[Rne]
        } else {
            &RoundingMode::ALL
        };
        for &rm in modes {
            for x in &windows {
                for y in &windows {
                    let doms = [*x, *y];
                    let img = exact_image(op, rm, &doms, 16).unwrap();
                    let fw = op.fwd(rm, &doms);
                    assert!(
                        img.iter().all(|&z| fw.contains(z)),
                        "{op:?} {rm:?} {doms:?}"
                    );
                    let mut outs = vec![hull_of(f, &img)];
                    outs.extend(img.iter().map(|&z| FpDom::point(f, z)));
                    for z in &outs {
                        for i in 0..2 {
                            let proj = exact_projection(op, rm, z, &doms, i, 16).unwrap();
                            let got = op.bwd(rm, z, &doms, i);
                            for &p in &proj {
                                assert!(got.contains(p), "{op:?} {rm:?} {i} {doms:?} {z:?}");
                            }
                            let want = hull_of(f, &proj).intersect(&doms[i]);
                            if same_set(&got, &want) {
                                exact += 1;
                            } else {
                                assert!(
                                    doms[1 - i].as_point().is_none() || z.as_point().is_none(),
                                    "not tight on points: {op:?} {rm:?} {i} {doms:?} {z:?}: \
                                     {got:?} vs {want:?}"
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("windows: {checked} projections, {exact} equal to the exact hull");
    assert!(checked > 5_000);
}

#[test]
fn fp_to_int_out_of_type_range_is_unspecified() {
    let (lo, hi) = (-2147483648.0, 2147483647.0); // int32
                                                  // in range: plain truncation
    assert_eq!(
        fwd_fp_to_int_typed(&r(-2.5, 7.9), lo, hi),
        Interval::closed(-2.0, 7.0)
    );
    // 1e30 truncates outside int32: any int32
    assert_eq!(
        fwd_fp_to_int_typed(&r(0.0, 1e30), lo, hi),
        Interval::closed(lo, hi)
    );
    // backward: out = [0, 10] keeps [0, 11) and everything beyond the type
    let x = bwd_fp_to_int_x_typed(Interval::closed(0.0, 10.0), &r(-1e30, 1e30), lo, hi);
    assert!(x.contains(b(1e30)) && x.contains(b(-1e30)) && x.contains(b(5.5)));
    assert!(x.contains(b(2147483648.0)) && x.contains(b(-2147483649.0)));
    // only in-range floats: plain contraction
    let x = bwd_fp_to_int_x_typed(Interval::closed(0.0, 10.0), &r(-100.0, 100.0), lo, hi);
    assert_eq!((x.lo, x.hi), (-0.9999999999999999, 10.999999999999998));
    // the edge: 2147483647.5 truncates to hi (in range), 2147483648 does not
    let x = bwd_fp_to_int_x_typed(
        Interval::closed(0.0, 0.0),
        &r(2147483647.5, 2147483648.0),
        lo,
        hi,
    );
    assert_eq!(x, d(2147483648.0));
    // out outside the type: nothing
    assert!(bwd_fp_to_int_x_typed(Interval::closed(1e10, 1e11), &r(0.0, 1e30), lo, hi).is_empty());
}
