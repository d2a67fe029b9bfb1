//! Property tests: the transcendental contractors against the high-precision checker.
//!
//! The idea: pick an *exact rational point* `x` — a double (tiny, subnormal, huge, integral,
//! a power of 2 or 10, next to a multiple of π/2, next to a pole) or a rational that is no
//! double (a hair away from a double, within 2^-100 of `jπ/2`, a small fraction) — then a
//! random box around it (tight, a few ulps, an offset below a period, one-sided infinite,
//! from 0, from next to a multiple of π/2, each end open or closed), or a random box first and
//! a rational point inside. Then, with `check_transcendental` deciding `f(x) ∈ I` at 200+
//! bits (exactly where `f(x)` is rational):
//! - forward: `f(x) ∈ fwd(box)` is *proven* (`Some(true)`), or `fwd(box)` is all reals where
//!   `f(x)` is unspecified; for a point box of a double, `fwd` is the point enclosure, which
//!   must be a point or exactly one ulp wide;
//! - backward, with an output box known to hold `f(x)` (outward-rounded from the checker's
//!   enclosure and randomly widened, or the forward image of a small box around `x`): `x`
//!   stays in `bwd(out, box) ⊆ box`;
//! - backward with an arbitrary output box: `x` stays whenever the checker proves
//!   `f(x) ∈ out`;
//! - every result satisfies the interval invariants.
//!
//! A seeded loop drives most cases; a proptest driver adds independently generated boxes.
//! `ICPIC3_PROPTEST_CASES=N` sets the cases *per function* for both (default: seconds); the
//! `#[ignore]`d `millions` test runs 111,112 loop cases per function (1,000,008 in total)
//! unless the variable says otherwise.

mod common;

use common::{pow2, q, rat};

use num_bigint::BigInt;
use num_traits::Signed;
use proptest::prelude::*;
use rug::float::{Constant, Round};
use rug::Float;
use solver::contractors::check_transcendental::{definitely_in, enclose, Value};
use solver::contractors::transcendental::{point_enclosure, point_interval};
use solver::contractors::{bwd_transcendental_a, fwd_transcendental, Transcendental};
use solver::interval::Interval;
use solver::Rational;
use std::sync::atomic::{AtomicU64, Ordering};

const INF: f64 = f64::INFINITY;

// ---------------------------------------------------------------- random generation

/// xorshift64* — tiny, seeded, good enough to spread test cases.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    /// uniform in [0, 1)
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `2^k` for `-1074 <= k <= 1023`, built from its bits (exact, also when subnormal).
fn two_pow(k: i64) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// Doubles famously close to multiples of π/2, π or 2π, and other hard arguments.
fn hard(rng: &mut Rng) -> f64 {
    const HARD: [f64; 11] = [
        1e22,
        355.0,
        103_993.0,
        5.0e15,
        1.0e300,
        -1.0e300,
        f64::MAX,
        -f64::MAX,
        1_073_741_824.0,
        33_102.0,
        8_248.251_512_799_926,
    ];
    match rng.below(HARD.len() as u64 + 1) as usize {
        // the double closest to a multiple of π/2 (Kahan, McDonald)
        i if i == HARD.len() => 6_381_956_970_095_103.0 * two_pow(797),
        i => HARD[i],
    }
}

const SPECIALS: [f64; 20] = [
    0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    10.0,
    0.1,
    100.0,
    1024.0,
    1e-300,
    -1e-300,
    f64::MIN_POSITIVE,
    f64::from_bits(1),
    -f64::from_bits(1),
    709.782_712_893_384,
    -745.133_219_101_941_1,
    -1074.0,
    1023.0,
    308.254_715_559_916_7,
];

/// `jπ/2` rounded to nearest, and the residual `jπ/2 - RN(jπ/2)` rounded to nearest.
fn half_pi_multiple(j: i64) -> (f64, f64) {
    let v = Float::with_val(400, Constant::Pi) * j / 2u32;
    let d = v.to_f64();
    let r = (v - d).to_f64();
    (d, r)
}

/// A double with a random significand and a binary exponent in `[lo, hi]` (subnormal below
/// -1022), random sign.
fn double_with_exp(rng: &mut Rng, lo: i64, hi: i64) -> f64 {
    let e = rng.range(lo, hi);
    let frac = rng.next() >> 12;
    let x = if e >= -1022 {
        f64::from_bits((((e + 1023) as u64) << 52) | frac)
    } else {
        f64::from_bits((frac | (1 << 52)) >> (-1022 - e).min(53))
    };
    if rng.coin() {
        -x
    } else {
        x
    }
}

fn ulps(mut x: f64, n: i64) -> f64 {
    for _ in 0..n.unsigned_abs() {
        x = if n > 0 { x.next_up() } else { x.next_down() };
    }
    x
}

/// A double for function `f`: generic magnitudes plus the points where `f` is interesting.
fn rand_double(rng: &mut Rng, f: Transcendental) -> f64 {
    let generic = |rng: &mut Rng| match rng.below(8) {
        0 => SPECIALS[rng.below(SPECIALS.len() as u64) as usize],
        1 => hard(rng),
        2 => double_with_exp(rng, -8, 8),
        3 => double_with_exp(rng, -60, 60),
        4 => double_with_exp(rng, -1074, 1023),
        5 => double_with_exp(rng, -1074, -1000),
        6 => rng.range(-40, 40) as f64,
        _ => rng.range(-4000, 4000) as f64 / 64.0,
    };
    let x = if rng.below(3) == 0 {
        generic(rng)
    } else {
        special_for(rng, f)
    };
    // ulps past ±MAX overflow
    x.clamp(-f64::MAX, f64::MAX)
}

fn special_for(rng: &mut Rng, f: Transcendental) -> f64 {
    use Transcendental::*;
    match f {
        Sin | Cos | Tan => match rng.below(4) {
            0 | 1 => {
                let (d, _) = half_pi_multiple(rng.range(-60, 60));
                ulps(d, rng.range(-3, 3))
            }
            2 => {
                let (d, _) = half_pi_multiple(rng.range(-(1 << 40), 1 << 40));
                ulps(d, rng.range(-2, 2))
            }
            _ => {
                let h = hard(rng);
                ulps(h, rng.range(-2, 2))
            }
        },
        Exp | Exp2 | Exp10 => match rng.below(4) {
            0 => rng.range(-1100, 1100) as f64,
            1 => (rng.unit() - 0.5) * 1600.0,
            2 => double_with_exp(rng, -60, 3),
            _ => ulps(
                SPECIALS[rng.below(SPECIALS.len() as u64) as usize],
                rng.range(-2, 2),
            ),
        },
        Log | Log2 | Log10 => match rng.below(5) {
            0 => two_pow(rng.range(-1074, 1023)),
            1 => 10f64.powi(rng.range(-22, 22) as i32),
            2 => ulps(1.0, rng.range(-4, 4)),
            3 => double_with_exp(rng, -1074, 1023).abs(),
            _ => ulps(
                rng.range(1, 1000) as f64 * 2f64.powi(rng.range(-10, 10) as i32),
                rng.range(-2, 2),
            ),
        },
    }
}

/// A rational for function `f`: mostly doubles, else values that are not doubles.
fn rand_rational(rng: &mut Rng, f: Transcendental) -> Rational {
    match rng.below(10) {
        0..=4 => rat(rand_double(rng, f)),
        5 => q(rng.range(-200, 200), rng.range(1, 60)),
        6 | 7 => {
            // a hair away from a double
            let d = rand_double(rng, f);
            let k = if d == 0.0 {
                rng.range(1060, 1100)
            } else {
                rng.range(45, 60) - d.abs().log2().floor() as i64
            };
            let off = pow2(-k) / Rational::from_integer(BigInt::from(rng.range(1, 7)));
            if rng.coin() {
                rat(d) + off
            } else {
                rat(d) - off
            }
        }
        _ => {
            // within about 2^-100 of jπ/2 (either side), never on it
            let (d, r) = half_pi_multiple(rng.range(-60, 60));
            let e = if r == 0.0 {
                rng.range(100, 140)
            } else {
                rng.range(40, 60) - r.abs().log2().floor() as i64
            };
            let off = pow2(-e);
            let near = rat(d) + rat(r);
            if rng.coin() {
                near + off
            } else {
                near - off
            }
        }
    }
}

/// A lower end `(value, open)` that keeps `x` inside.
fn lower_end_for(rng: &mut Rng, x: &Rational, f: Transcendental) -> (f64, bool) {
    let t = Interval::from_rational(x);
    let (tl, t_open) = (t.lo(), t.lo_open());
    let end = match rng.below(12) {
        0..=2 => (tl, t_open),
        3 => (tl, false),
        4 => (f64::NEG_INFINITY, true),
        5 => (ulps(tl, -rng.range(1, 4)), rng.coin()),
        6 => (tl - rand_double(rng, f).abs(), rng.coin()),
        // within a few periods
        7 => (tl - rng.unit() * 8.0, rng.coin()),
        8 if x.is_positive() => (0.0, rng.coin()),
        // next to a cut point jπ/2 below x
        9 => {
            let j = (tl / std::f64::consts::FRAC_PI_2).floor();
            let j = if j.abs() < 1e15 { j as i64 } else { 0 };
            let (d, _) = half_pi_multiple(j - rng.range(0, 2));
            (ulps(d, rng.range(-1, 1)), rng.coin())
        }
        10 => (-(tl.abs() * 2.0 + 1.0), rng.coin()),
        _ => (tl.next_down(), true),
    };
    // an end above x (from the cut-point choice) falls back to the tight one
    if end.0 < tl || (end.0 == tl && (!end.1 || t_open)) {
        end
    } else {
        (tl, t_open)
    }
}

/// A random box containing `x`.
fn box_around(rng: &mut Rng, x: &Rational, f: Transcendental) -> Interval {
    let (lo, lo_open) = lower_end_for(rng, x, f);
    let (nhi, hi_open) = lower_end_for(rng, &-x, f);
    let b = Interval::new(lo, lo_open, -nhi, hi_open);
    assert!(b.contains_rational(x), "generator: {b} misses {x}");
    b
}

/// A random box, then a rational point inside (`None` if none was found cheaply).
fn box_then_point(rng: &mut Rng, f: Transcendental) -> Option<(Interval, Rational)> {
    let (a, b) = (rand_double(rng, f), rand_double(rng, f));
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let lo = if rng.below(8) == 0 {
        f64::NEG_INFINITY
    } else {
        lo
    };
    let hi = if rng.below(8) == 0 { INF } else { hi };
    let bx = Interval::new(lo, rng.coin(), hi, rng.coin());
    if bx.is_empty() {
        return None;
    }
    let t = q(rng.range(0, 1000), 1000);
    let p = match (lo.is_finite(), hi.is_finite()) {
        (true, true) => rat(lo) + t * (rat(hi) - rat(lo)),
        (true, false) => rat(lo) + t * q(rng.range(1, 100), 1),
        (false, true) => rat(hi) - t * q(rng.range(1, 100), 1),
        (false, false) => t,
    };
    bx.contains_rational(&p).then_some((bx, p))
}

/// An output box holding `f(x)` (any nonempty box where `f(x)` is unspecified).
fn out_box_for(rng: &mut Rng, f: Transcendental, x: &Rational) -> Interval {
    let widen_lo = |rng: &mut Rng, l: f64| match rng.below(6) {
        0..=2 => l,
        3 => ulps(l, -rng.range(1, 3)),
        4 => f64::NEG_INFINITY,
        _ => l - rng.unit() * (l.abs() + 1.0),
    };
    let widen_hi = |rng: &mut Rng, h: f64| match rng.below(6) {
        0..=2 => h,
        3 => ulps(h, rng.range(1, 3)),
        4 => INF,
        _ => h + rng.unit() * (h.abs() + 1.0),
    };
    if rng.below(4) == 0 {
        // the forward image of a small box around x (itself checked for soundness)
        let t = Interval::from_rational(x);
        let k = rng.range(0, 3);
        let kind = |rng: &mut Rng, tight: bool| if k == 0 { tight } else { rng.coin() };
        let sub = Interval::new(
            ulps(t.lo(), -k),
            kind(rng, t.lo_open()),
            ulps(t.hi(), k),
            kind(rng, t.hi_open()),
        );
        return fwd_transcendental(f, sub);
    }
    match enclose(f, x, 200) {
        Some(Value::Unspecified) => random_out(rng, f),
        // not separated from a pole of tan at 200 bits: nothing is claimed
        None => Interval::ENTIRE,
        Some(Value::Exact(v)) => {
            let t = Interval::from_rational(&v);
            let lo = widen_lo(rng, t.lo());
            let hi = widen_hi(rng, t.hi());
            // an end moved away from v may be open; the tight ends keep their kind
            Interval::new(
                lo,
                if lo < t.lo() { rng.coin() } else { t.lo_open() },
                hi,
                if hi > t.hi() { rng.coin() } else { t.hi_open() },
            )
        }
        Some(Value::Between(l, u)) => {
            let (l, u) = (l.to_f64_round(Round::Down), u.to_f64_round(Round::Up));
            // the value is no double, so strictly inside (l, u)
            let strict = l < u;
            let lo = widen_lo(rng, l);
            let hi = widen_hi(rng, u);
            Interval::new(lo, strict && rng.coin(), hi, strict && rng.coin())
        }
    }
}

/// An arbitrary output box, in `f`'s interesting range.
fn random_out(rng: &mut Rng, f: Transcendental) -> Interval {
    use Transcendental::*;
    let pick = |rng: &mut Rng| match f {
        Sin | Cos => (rng.unit() - 0.5) * 2.4,
        Exp | Exp2 | Exp10 if rng.coin() => rng.unit() * 4.0,
        _ => match rng.below(3) {
            0 => (rng.unit() - 0.5) * 8.0,
            1 => double_with_exp(rng, -30, 30),
            _ => rng.range(-5, 5) as f64,
        },
    };
    let (a, b) = (pick(rng), pick(rng));
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let lo = if rng.below(6) == 0 {
        f64::NEG_INFINITY
    } else {
        lo
    };
    let hi = if rng.below(6) == 0 { INF } else { hi };
    let o = Interval::new(lo, rng.coin(), hi, rng.coin());
    if o.is_empty() {
        Interval::point(lo.max(-f64::MAX))
    } else {
        o
    }
}

// ---------------------------------------------------------------- the checks

static UNDECIDED: AtomicU64 = AtomicU64::new(0);
static RANDOM_OUT_FEASIBLE: AtomicU64 = AtomicU64::new(0);
static CONTRACTED: AtomicU64 = AtomicU64::new(0);

fn valid_subset(r: Interval, b: Interval, what: &str, ctx: &dyn Fn() -> String) {
    assert!(r.is_valid(), "{what}: invalid {r:?}; {}", ctx());
    assert!(
        r.is_subset(b),
        "{what}: {r} not inside the box {b}; {}",
        ctx()
    );
}

fn check_case(rng: &mut Rng, f: Transcendental, x: &Rational, b: Interval) {
    let ctx = || format!("{f:?}: x = {x} in {b}");
    assert!(b.contains_rational(x), "{}", ctx());
    let unspecified = f.is_log() && !x.is_positive();

    // forward
    let fw = fwd_transcendental(f, b);
    assert!(fw.is_valid(), "fwd invalid {fw:?}; {}", ctx());
    if unspecified {
        assert!(fw.is_entire(), "fwd {fw} not entire; {}", ctx());
    } else {
        let d = definitely_in(f, x, fw);
        assert_eq!(d, Some(true), "fwd {fw} does not hold f(x); {}", ctx());
    }

    // point boxes of doubles: the correctly rounded enclosure, a point or one ulp
    if b.is_point() {
        let xd = b.lo();
        match point_enclosure(f, xd) {
            None => assert!(unspecified, "no enclosure; {}", ctx()),
            Some((lo, hi)) => {
                assert!(
                    lo == hi || lo.next_up() == hi,
                    "({lo}, {hi}) not 1 ulp; {}",
                    ctx()
                );
                assert_eq!(Some(fw), point_interval(f, xd), "{}", ctx());
            }
        }
    }

    // backward with an output box holding f(x)
    let o = out_box_for(rng, f, x);
    let ctx_o = || format!("{}, out = {o}", ctx());
    if !unspecified {
        // the generator's own claim, proven
        assert_eq!(definitely_in(f, x, o), Some(true), "generator; {}", ctx_o());
    }
    let r = bwd_transcendental_a(f, o, b);
    valid_subset(r, b, "bwd", &ctx_o);
    assert!(r.contains_rational(x), "bwd {r} lost x; {}", ctx_o());
    if r != b {
        CONTRACTED.fetch_add(1, Ordering::Relaxed);
    }

    // backward with an arbitrary output box: x stays whenever f(x) is proven inside
    let o2 = random_out(rng, f);
    let r2 = bwd_transcendental_a(f, o2, b);
    let ctx_o2 = || format!("{}, out = {o2}", ctx());
    valid_subset(r2, b, "bwd (random out)", &ctx_o2);
    match definitely_in(f, x, o2) {
        Some(true) => {
            RANDOM_OUT_FEASIBLE.fetch_add(1, Ordering::Relaxed);
            assert!(r2.contains_rational(x), "bwd {r2} lost x; {}", ctx_o2());
        }
        Some(false) => {}
        None => {
            UNDECIDED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// One random case for function `f` from the loop generator.
fn loop_case(f: Transcendental, rng: &mut Rng) {
    if rng.below(4) == 0 {
        if let Some((b, x)) = box_then_point(rng, f) {
            check_case(rng, f, &x, b);
            return;
        }
    }
    let x = rand_rational(rng, f);
    let b = box_around(rng, &x, f);
    check_case(rng, f, &x, b);
}

// ---------------------------------------------------------------- drivers

fn cases(default: u64) -> u64 {
    std::env::var("ICPIC3_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn run_loop(per_function: u64, seed: u64) -> u64 {
    let mut total = 0;
    for (i, f) in Transcendental::ALL.iter().enumerate() {
        let mut rng = Rng::new(seed ^ ((i as u64 + 1) * 0x1000_0000_01b3));
        let start = std::time::Instant::now();
        for _ in 0..per_function {
            loop_case(*f, &mut rng);
        }
        eprintln!(
            "{f:?}: {per_function} cases, 0 failures, {:.1?}",
            start.elapsed()
        );
        total += per_function;
    }
    eprintln!(
        "seeded loop: {total} cases in total; contracted by bwd: {}; random outputs proven to \
         hold f(x): {}; undecided by the checker: {}",
        CONTRACTED.load(Ordering::Relaxed),
        RANDOM_OUT_FEASIBLE.load(Ordering::Relaxed),
        UNDECIDED.load(Ordering::Relaxed)
    );
    total
}

#[test]
fn seeded_loop_all_functions() {
    run_loop(cases(5_000), 0x7a4c_0e11);
}

#[test]
#[ignore = "a million cases: run with --ignored (minutes)"]
fn millions() {
    run_loop(cases(111_112), 0x5eed_2027);
}

// ---------------------------------------------------------------- tightness

/// Backward contraction is tight on the common case: a box `b` inside one monotone piece
/// (any box for exp/log), an output `fwd(s)` for a sub-box `s`: the result holds `s`
/// (soundness) and exceeds it by no more than the rounding of `fwd` allows — one ulp of the
/// output, divided by the smallest slope on the piece — plus a few ulps.
fn check_tight_case(rng: &mut Rng, f: Transcendental) {
    use std::f64::consts::{FRAC_PI_2, LN_10, LN_2, PI};
    use Transcendental::*;
    let n = rng.range(-20, 20) as f64;
    // the piece, kept 0.2 away from extrema (sin/cos) or poles (tan)
    let (plo, phi) = match f {
        Sin | Tan => (n * PI - FRAC_PI_2 + 0.2, n * PI + FRAC_PI_2 - 0.2),
        Cos => (n * PI + 0.2, (n + 1.0) * PI - 0.2),
        Exp | Exp2 | Exp10 => (-300.0, 300.0),
        Log | Log2 | Log10 => (1e-300, 1e300),
    };
    let pick = |rng: &mut Rng| {
        if f.is_log() {
            10f64.powf((rng.unit() - 0.5) * 600.0)
        } else {
            plo + rng.unit() * (phi - plo)
        }
    };
    let (a, b) = (pick(rng), pick(rng));
    let (s1, s2) = if a <= b { (a, b) } else { (b, a) };
    let s = Interval::new(s1, rng.coin(), s2, rng.coin());
    let bx = if f.is_log() || matches!(f, Exp | Exp2 | Exp10) {
        Interval::new(
            s1 - rng.unit() * s1.abs(),
            rng.coin(),
            s2 + rng.unit() * s2.abs(),
            rng.coin(),
        )
    } else {
        Interval::new(plo.min(s1), rng.coin(), phi.max(s2), rng.coin())
    };
    if s.is_empty() {
        return;
    }
    let out = fwd_transcendental(f, s);
    let r = bwd_transcendental_a(f, out, bx);
    let ctx = || format!("{f:?}: s = {s}, box = {bx}, out = {out}, bwd = {r}");
    assert!(s.is_subset(r), "bwd lost part of s; {}", ctx());
    // one output ulp over the slope, at each end
    let eps = f64::EPSILON;
    let tol = |x: f64| -> f64 {
        let slack = match f {
            Sin | Cos => 2.0 * eps / 0.19,
            // the output ulp eps·|y| over the slope 1 + y²
            Tan => 2.0 * eps,
            Exp => 2.0 * eps,
            Exp2 => 2.0 * eps / LN_2,
            Exp10 => 2.0 * eps / LN_10,
            Log | Log2 | Log10 => 2.0 * eps * x * (x.ln().abs() + 1.0),
        };
        slack + 4.0 * eps * x.abs() + f64::MIN_POSITIVE
    };
    assert!(
        r.lo() >= s1 - tol(s1) && r.hi() <= s2 + tol(s2),
        "bwd not tight: tolerance {:e}, {:e}; {}",
        tol(s1),
        tol(s2),
        ctx()
    );
}

#[test]
fn backward_is_tight_within_a_monotone_piece() {
    for (i, f) in Transcendental::ALL.iter().enumerate() {
        let mut rng = Rng::new(0x71_6874 + i as u64);
        for _ in 0..cases(1_000) {
            check_tight_case(&mut rng, *f);
        }
    }
}

// ---------------------------------------------------------------- proptest driver

fn special_double() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::sample::select(SPECIALS.to_vec()),
        any::<u64>().prop_map(|seed| hard(&mut Rng::new(seed))),
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
        -20.0..20.0f64,
        (-60i64..60).prop_map(|j| half_pi_multiple(j).0),
        common::any_binade_double(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(1_000) as u32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn prop_transcendental(fi in 0usize..9, (b, x) in common::box_and_point(special_double().boxed()), seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        check_case(&mut rng, Transcendental::ALL[fi], &x, b);
    }
}
