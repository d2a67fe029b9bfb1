//! The independent slow checker for the IEEE contractors, and the random-case harness that
//! the unit tests, `solver/tests/ieee_contractors.rs` and the `ieee_contractor_sweep` example
//! share.
//!
//! The idea: the contractors are trusted only because they agree with *enumeration*. For
//! domains of a few floats, the exact image and the exact projection of `z = op(args)` onto an
//! argument are computed by evaluating the exact operation ([`crate::num::ieee`]) on every
//! combination of members — no monotonicity, no pieces, no search, nothing shared with
//! [`super::lattice`] except the ground-truth operations and [`FpDom`]'s membership test.
//! For large domains, random points satisfying the relation must survive every contraction
//! (soundness), and with point partners and a point output the backward result's extreme
//! elements must themselves be solutions (with soundness, that makes it exactly the hull of
//! the solutions: tightness on points).

use super::arith as a;
use super::compare::{self as c, BoolPoss, FpClass};
use super::convert as cv;
use super::FpDom;
use crate::interval::Interval;
use crate::num::{ieee, FpFormat, Rational, RoundingMode};

/// The operations under test.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FpOp {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
    Sqrt,
    Neg,
    Abs,
    Min,
    Max,
    /// conversion into the given format
    Convert(FpFormat),
}

impl FpOp {
    pub const ALL: [FpOp; 12] = [
        FpOp::Add,
        FpOp::Sub,
        FpOp::Mul,
        FpOp::Div,
        FpOp::Fma,
        FpOp::Sqrt,
        FpOp::Neg,
        FpOp::Abs,
        FpOp::Min,
        FpOp::Max,
        FpOp::Convert(FpFormat::F32),
        FpOp::Convert(FpFormat::F64),
    ];

    pub fn arity(self) -> usize {
        match self {
            FpOp::Fma => 3,
            FpOp::Sqrt | FpOp::Neg | FpOp::Abs | FpOp::Convert(_) => 1,
            _ => 2,
        }
    }

    /// The result format for arguments of format `f`.
    pub fn out_fmt(self, f: FpFormat) -> FpFormat {
        match self {
            FpOp::Convert(to) => to,
            _ => f,
        }
    }

    /// The exact operation (ground truth).
    pub fn eval(self, f: FpFormat, rm: RoundingMode, x: &[u64]) -> u64 {
        match self {
            FpOp::Add => ieee::add(f, rm, x[0], x[1]),
            FpOp::Sub => ieee::sub(f, rm, x[0], x[1]),
            FpOp::Mul => ieee::mul(f, rm, x[0], x[1]),
            FpOp::Div => ieee::div(f, rm, x[0], x[1]),
            FpOp::Fma => ieee::fma(f, rm, x[0], x[1], x[2]),
            FpOp::Sqrt => ieee::sqrt(f, rm, x[0]),
            FpOp::Neg => ieee::neg(f, x[0]),
            FpOp::Abs => ieee::abs(f, x[0]),
            FpOp::Min => ieee::min(f, x[0], x[1]),
            FpOp::Max => ieee::max(f, x[0], x[1]),
            FpOp::Convert(to) => ieee::convert(f, to, rm, x[0]),
        }
    }

    /// The forward contractor.
    pub fn fwd(self, rm: RoundingMode, d: &[FpDom]) -> FpDom {
        match self {
            FpOp::Add => a::fwd_add(rm, &d[0], &d[1]),
            FpOp::Sub => a::fwd_sub(rm, &d[0], &d[1]),
            FpOp::Mul => a::fwd_mul(rm, &d[0], &d[1]),
            FpOp::Div => a::fwd_div(rm, &d[0], &d[1]),
            FpOp::Fma => a::fwd_fma(rm, &d[0], &d[1], &d[2]),
            FpOp::Sqrt => a::fwd_sqrt(rm, &d[0]),
            FpOp::Neg => a::fwd_neg(&d[0]),
            FpOp::Abs => a::fwd_abs(&d[0]),
            FpOp::Min => a::fwd_min(&d[0], &d[1]),
            FpOp::Max => a::fwd_max(&d[0], &d[1]),
            FpOp::Convert(to) => cv::fwd_convert(rm, to, &d[0]),
        }
    }

    /// The backward contractor for argument `i`.
    pub fn bwd(self, rm: RoundingMode, z: &FpDom, d: &[FpDom], i: usize) -> FpDom {
        match (self, i) {
            (FpOp::Add, 0) => a::bwd_add_x(rm, z, &d[0], &d[1]),
            (FpOp::Add, _) => a::bwd_add_y(rm, z, &d[0], &d[1]),
            (FpOp::Sub, 0) => a::bwd_sub_x(rm, z, &d[0], &d[1]),
            (FpOp::Sub, _) => a::bwd_sub_y(rm, z, &d[0], &d[1]),
            (FpOp::Mul, 0) => a::bwd_mul_x(rm, z, &d[0], &d[1]),
            (FpOp::Mul, _) => a::bwd_mul_y(rm, z, &d[0], &d[1]),
            (FpOp::Div, 0) => a::bwd_div_x(rm, z, &d[0], &d[1]),
            (FpOp::Div, _) => a::bwd_div_y(rm, z, &d[0], &d[1]),
            (FpOp::Fma, 0) => a::bwd_fma_a(rm, z, &d[0], &d[1], &d[2]),
            (FpOp::Fma, 1) => a::bwd_fma_b(rm, z, &d[0], &d[1], &d[2]),
            (FpOp::Fma, _) => a::bwd_fma_c(rm, z, &d[0], &d[1], &d[2]),
            (FpOp::Sqrt, _) => a::bwd_sqrt_x(rm, z, &d[0]),
            (FpOp::Neg, _) => a::bwd_neg_x(z, &d[0]),
            (FpOp::Abs, _) => a::bwd_abs_x(z, &d[0]),
            (FpOp::Min, 0) => a::bwd_min_x(z, &d[0], &d[1]),
            (FpOp::Min, _) => a::bwd_min_y(z, &d[0], &d[1]),
            (FpOp::Max, 0) => a::bwd_max_x(z, &d[0], &d[1]),
            (FpOp::Max, _) => a::bwd_max_y(z, &d[0], &d[1]),
            (FpOp::Convert(_), _) => cv::bwd_convert_x(rm, z, &d[0]),
        }
    }
}

// ------------------------------------------------------------------ enumeration

/// Every float of `d` (NaN as the canonical NaN, zeros with their signs), or `None` if there
/// are more than `limit`. Walks the bit patterns by value, independently of the contractors'
/// key arithmetic.
pub fn members(d: &FpDom, limit: usize) -> Option<Vec<u64>> {
    let f = d.fmt;
    let mut out = Vec::new();
    if d.nan {
        out.push(f.nan_bits());
    }
    if !d.has_values() {
        return Some(out);
    }
    // start at the least float >= lo: -0 first if lo is a zero
    let mut x = if d.lo == 0.0 {
        ieee::neg(f, 0)
    } else {
        let mut b = ieee::from_f64(f, d.lo).unwrap_or_else(|| {
            // an end that is not a float of the format: step from the nearest below
            let s = d.lo as f32;
            s.to_bits() as u64
        });
        while ieee::to_f64(f, b) < d.lo {
            b = ieee::next_up(f, b);
        }
        b
    };
    loop {
        let v = ieee::to_f64(f, x);
        if v > d.hi {
            break;
        }
        if d.contains(x) {
            out.push(x);
            if out.len() > limit {
                return None;
            }
        }
        if ieee::is_zero(f, x) && f.is_negative(x) {
            x = 0; // -0 then +0
            continue;
        }
        let n = ieee::next_up(f, x);
        if n == x {
            break; // +inf
        }
        // next_up goes from -min_sub straight to +0: visit -0 on the way
        x = if f.is_negative(x) && ieee::is_zero(f, n) {
            ieee::neg(f, 0)
        } else {
            n
        };
    }
    Some(out)
}

/// The hull (as an [`FpDom`]) of a set of floats.
pub fn hull_of(f: FpFormat, xs: &[u64]) -> FpDom {
    xs.iter()
        .fold(FpDom::empty(f), |h, &x| h.hull(&FpDom::point(f, x)))
}

/// Calls `visit` with every combination of members.
fn for_each_combo(ms: &[Vec<u64>], visit: &mut impl FnMut(&[u64])) {
    fn rec(ms: &[Vec<u64>], cur: &mut Vec<u64>, visit: &mut impl FnMut(&[u64])) {
        if cur.len() == ms.len() {
            visit(cur);
            return;
        }
        for &x in &ms[cur.len()] {
            cur.push(x);
            rec(ms, cur, visit);
            cur.pop();
        }
    }
    rec(ms, &mut Vec::new(), visit)
}

/// The exact image `{op(args)}` as the list of results, if every domain has at most `limit`
/// members.
pub fn exact_image(op: FpOp, rm: RoundingMode, d: &[FpDom], limit: usize) -> Option<Vec<u64>> {
    let f = d[0].fmt;
    let ms: Option<Vec<_>> = d.iter().map(|x| members(x, limit)).collect();
    let mut out = Vec::new();
    for_each_combo(&ms?, &mut |args| out.push(op.eval(f, rm, args)));
    Some(out)
}

/// The exact projection onto argument `i`: the members of `d[i]` with partners reaching `z`.
pub fn exact_projection(
    op: FpOp,
    rm: RoundingMode,
    z: &FpDom,
    d: &[FpDom],
    i: usize,
    limit: usize,
) -> Option<Vec<u64>> {
    let f = d[0].fmt;
    let ms: Option<Vec<_>> = d.iter().map(|x| members(x, limit)).collect();
    let mut out = Vec::new();
    for_each_combo(&ms?, &mut |args| {
        if z.contains(op.eval(f, rm, args)) && !out.contains(&args[i]) {
            out.push(args[i]);
        }
    });
    Some(out)
}

/// Set equality of two domains (the representation has several forms of one set: an end
/// on an excluded zero, say).
pub fn same_set(a: &FpDom, b: &FpDom) -> bool {
    let f = a.fmt;
    a.fmt == b.fmt
        && a.nan == b.nan
        && super::lattice::key_hull(a) == super::lattice::key_hull(b)
        && a.contains(0) == b.contains(0)
        && a.contains(ieee::neg(f, 0)) == b.contains(ieee::neg(f, 0))
}

/// The extreme elements of a domain: NaN, the least and greatest non-NaN member, and each
/// zero it contains. Tightness means each of them is a solution.
pub fn extremes(d: &FpDom) -> Vec<u64> {
    let f = d.fmt;
    let mut out = Vec::new();
    if d.nan {
        out.push(f.nan_bits());
    }
    if let Some((a, b)) = super::lattice::key_hull(d) {
        out.push(super::lattice::from_tkey(f, a));
        out.push(super::lattice::from_tkey(f, b));
    }
    for z in [0, ieee::neg(f, 0)] {
        if d.contains(z) {
            out.push(z);
        }
    }
    out
}

// ------------------------------------------------------------------ random generation

/// xorshift64*: seeded, reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}

/// Floats that make the interesting cases: zeros, subnormal edge, normal edge, overflow
/// edge, infinities, NaN, small integers, and values near the tie points of `1 + x`.
pub fn special_floats(f: FpFormat) -> Vec<u64> {
    let p = f.precision() as i32;
    let v = |x: f64| ieee::from_f64(f, x).unwrap_or_else(|| float_near(f, x));
    let mut s = vec![
        0,
        1,
        2,
        3,
        (1u64 << (p - 1)) - 1,
        1u64 << (p - 1),
        (1u64 << (p - 1)) + 1,
        f.max_finite_bits(),
        f.max_finite_bits() - 1,
        f.inf_bits(),
        f.nan_bits(),
        v(1.0),
        v(2.0),
        v(3.0),
        v(0.5),
        v(0.1),
        v(0.2),
        v(0.3),
        v(10.0),
        v(1e20),
        v(2f64.powi(p)),
        v(2f64.powi(p) + 2.0),
        v(2f64.powi(p - 1)),
        v(2f64.sqrt()),
    ];
    let one = v(1.0);
    s.push(ieee::next_up(f, one));
    s.push(ieee::next_down(f, one));
    let n = s.len();
    for i in 0..n {
        let neg = ieee::neg(f, s[i]);
        if !f.is_nan(neg) {
            s.push(neg);
        }
    }
    s
}

/// The float of `f` nearest `x` (for constants that are not floats of the format).
fn float_near(f: FpFormat, x: f64) -> u64 {
    ieee::from_rational(
        f,
        RoundingMode::Rne,
        &Rational::from_float(x).expect("finite constant"),
    )
}

/// A random float: often special, or a few ulps from one, or uniform bits, or a float of
/// moderate magnitude (so that operations interact).
pub fn random_float(rng: &mut Rng, f: FpFormat) -> u64 {
    let mask = if f == FpFormat::F32 {
        0xFFFF_FFFF
    } else {
        u64::MAX
    };
    let x = match rng.below(9) {
        0..=2 => {
            let s = special_floats(f);
            s[rng.below(s.len() as u64) as usize]
        }
        3 => {
            let s = special_floats(f);
            let mut x = s[rng.below(s.len() as u64) as usize];
            if f.is_nan(x) {
                return x;
            }
            for _ in 0..rng.below(4) {
                x = if rng.coin() {
                    ieee::next_up(f, x)
                } else {
                    ieee::next_down(f, x)
                };
            }
            x
        }
        4 => rng.next_u64() & mask,
        _ => {
            // moderate magnitudes: exponent in [-12, 12], random significand
            let e = rng.below(25) as i32 - 12;
            let m = 1.0 + (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let x = m * 2f64.powi(e) * if rng.coin() { -1.0 } else { 1.0 };
            let x = if rng.below(4) == 0 { x.round() } else { x };
            float_near(f, x)
        }
    };
    if f.is_nan(x) {
        f.nan_bits()
    } else {
        x
    }
}

/// A random domain containing the float `x`: the point, a few-ulp window, the hull with
/// another random float, or everything; with random extra NaN and zero flags.
pub fn random_dom_around(rng: &mut Rng, f: FpFormat, x: u64) -> FpDom {
    let p = FpDom::point(f, x);
    let mut d = match rng.below(9) {
        0 => p,
        1 | 2 => {
            if f.is_nan(x) {
                p
            } else {
                let mut lo = x;
                let mut hi = x;
                for _ in 0..rng.below(6) {
                    lo = ieee::next_down(f, lo);
                }
                for _ in 0..rng.below(6) {
                    hi = ieee::next_up(f, hi);
                }
                p.hull(&FpDom::point(f, lo)).hull(&FpDom::point(f, hi))
            }
        }
        3 | 4 => p.hull(&FpDom::point(f, random_float(rng, f))),
        5 => FpDom::full(f),
        // every value but no NaN, or a hull with a special float and both zeros: the boxes
        // where sign splits and NaN cases (0·inf, inf - inf) matter
        6 => FpDom::full(f).intersect(&FpDom::range(f, f64::NEG_INFINITY, f64::INFINITY)),
        _ => {
            let s = special_floats(f);
            let o = s[rng.below(s.len() as u64) as usize];
            let mut h = p.hull(&FpDom::point(f, o));
            h.neg_zero = true;
            h.pos_zero = true;
            h.normalized()
        }
    };
    if rng.below(5) == 0 {
        d.nan = true;
    }
    if rng.below(4) == 0 {
        d.neg_zero = true;
        d.pos_zero = true;
    }
    // sometimes drop a zero that is not x
    if rng.below(6) == 0 {
        if !(ieee::is_zero(f, x) && f.is_negative(x)) {
            d.neg_zero = false;
        } else {
            d.pos_zero = false; // x is -0
        }
    }
    if f.is_nan(x) {
        d.nan = true;
    }
    let d = d.normalized();
    debug_assert!(d.contains(x));
    d
}

// ------------------------------------------------------------------ the checks

/// Counters of one harness run.
#[derive(Clone, Copy, Default, Debug)]
pub struct Stats {
    /// random cases
    pub cases: u64,
    /// membership checks passed (a point kept by fwd or bwd)
    pub kept: u64,
    /// point-tightness checks passed
    pub tight: u64,
    /// exhaustive window comparisons
    pub windows: u64,
    /// window comparisons where bwd equalled the exact projection's hull
    pub windows_exact: u64,
}

fn show(d: &FpDom) -> String {
    format!("{d:?}")
}

/// One random soundness-and-tightness case for `op` in mode `rm`: random points, random
/// domains around them; fwd must keep the result, every bwd must keep its argument; then with
/// the partners and the output made points, bwd must be tight.
pub fn random_case(
    rng: &mut Rng,
    f: FpFormat,
    op: FpOp,
    rm: RoundingMode,
    st: &mut Stats,
) -> Result<(), String> {
    st.cases += 1;
    let n = op.arity();
    let of = op.out_fmt(f);
    let pts: Vec<u64> = (0..n).map(|_| random_float(rng, f)).collect();
    let z = op.eval(f, rm, &pts);
    let doms: Vec<FpDom> = pts.iter().map(|&p| random_dom_around(rng, f, p)).collect();
    let zd = random_dom_around(rng, of, z);
    let ctx = || {
        format!(
            "{op:?} {rm:?} {f:?} points {:?} -> {z:#x}, doms {:?}, z {}",
            pts.iter().map(|p| format!("{p:#x}")).collect::<Vec<_>>(),
            doms.iter().map(show).collect::<Vec<_>>(),
            show(&zd)
        )
    };
    // more points of the domains: their extremes (ends, zeros, NaN) and the special floats
    // they contain, where the case splits of the contractors live (0·inf, inf - inf, ...)
    let specials = special_floats(f);
    let probes: Vec<Vec<u64>> = doms
        .iter()
        .zip(&pts)
        .map(|(d, &p)| {
            let mut v = vec![p];
            v.extend(extremes(d));
            for _ in 0..3 {
                let s = specials[rng.below(specials.len() as u64) as usize];
                if d.contains(s) {
                    v.push(s);
                }
            }
            v
        })
        .collect();
    let img = op.fwd(rm, &doms);
    let bw: Vec<FpDom> = (0..n).map(|i| op.bwd(rm, &zd, &doms, i)).collect();
    for (i, r) in bw.iter().enumerate() {
        if !same_set(&r.intersect(&doms[i]), r) {
            return Err(format!("bwd {i} grew the domain: {} ({})", show(r), ctx()));
        }
    }
    let mut err = None;
    for_each_combo(&probes, &mut |args| {
        if err.is_some() {
            return;
        }
        let z = op.eval(f, rm, args);
        if !img.contains(z) {
            err = Some(format!(
                "fwd lost {z:#x} = op{args:x?}: {} ({})",
                show(&img),
                ctx()
            ));
            return;
        }
        st.kept += 1;
        if zd.contains(z) {
            for i in 0..n {
                if !bw[i].contains(args[i]) {
                    err = Some(format!(
                        "bwd {i} lost {:#x} of op{args:x?} = {z:#x}: {} ({})",
                        args[i],
                        show(&bw[i]),
                        ctx()
                    ));
                    return;
                }
                st.kept += 1;
            }
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    // tightness on points
    let zp = FpDom::point(of, z);
    let pd: Vec<FpDom> = pts.iter().map(|&p| FpDom::point(f, p)).collect();
    let fp = op.fwd(rm, &pd);
    if !same_set(&fp, &zp) {
        return Err(format!(
            "fwd not exact on points: {} ({})",
            show(&fp),
            ctx()
        ));
    }
    for i in 0..n {
        let mut d = pd.clone();
        d[i] = doms[i];
        let r = op.bwd(rm, &zp, &d, i);
        if !r.contains(pts[i]) {
            return Err(format!(
                "point bwd {i} lost its point: {} ({})",
                show(&r),
                ctx()
            ));
        }
        for e in extremes(&r) {
            let mut args = pts.clone();
            args[i] = e;
            let got = op.eval(f, rm, &args);
            if !ieee::same(of, got, z) {
                return Err(format!(
                    "point bwd {i} not tight: {} keeps {e:#x} giving {got:#x} ({})",
                    show(&r),
                    ctx()
                ));
            }
        }
        st.tight += 1;
    }
    Ok(())
}

/// A window of a few consecutive floats around a special float, with random NaN and zero
/// flags (small enough to enumerate).
pub fn random_window(rng: &mut Rng, f: FpFormat) -> FpDom {
    let s = special_floats(f);
    let c = s[rng.below(s.len() as u64) as usize];
    let mut d = if f.is_nan(c) {
        FpDom::nan_only(f)
    } else {
        let (mut lo, mut hi) = (c, c);
        for _ in 0..rng.below(4) {
            lo = ieee::next_down(f, lo);
        }
        for _ in 0..rng.below(4) {
            hi = ieee::next_up(f, hi);
        }
        FpDom::point(f, lo).hull(&FpDom::point(f, hi))
    };
    if rng.below(4) == 0 {
        d.nan = true;
    }
    if d.lo <= 0.0 && 0.0 <= d.hi {
        d.neg_zero = rng.below(4) != 0;
        d.pos_zero = rng.below(4) != 0;
    }
    d.normalized()
}

/// One exhaustive comparison on small windows: fwd must contain the exact image (and equal it
/// on points); each bwd must contain the exact projection, stay inside its domain, and equal
/// the projection's hull when the partners and the output are points.
pub fn window_case(
    rng: &mut Rng,
    f: FpFormat,
    op: FpOp,
    rm: RoundingMode,
    st: &mut Stats,
) -> Result<(), String> {
    const LIMIT: usize = 16;
    let n = op.arity();
    let of = op.out_fmt(f);
    let doms: Vec<FpDom> = (0..n)
        .map(|_| {
            if rng.below(3) == 0 {
                let s = special_floats(f);
                FpDom::point(f, s[rng.below(s.len() as u64) as usize])
            } else {
                random_window(rng, f)
            }
        })
        .collect();
    if doms.iter().any(|d| d.is_empty()) {
        return Ok(());
    }
    let img = exact_image(op, rm, &doms, LIMIT).expect("windows are small");
    let ctx = |z: &FpDom| format!("{op:?} {rm:?} {f:?} doms {doms:?} z {z:?}");
    let fw = op.fwd(rm, &doms);
    for &r in &img {
        if !fw.contains(r) {
            return Err(format!("fwd misses {r:#x}: {fw:?} ({})", ctx(&fw)));
        }
    }
    let all_points = doms.iter().all(|d| d.as_point().is_some());
    if all_points && !same_set(&fw, &hull_of(of, &img)) {
        return Err(format!("fwd not exact on points: {fw:?} ({})", ctx(&fw)));
    }
    // an output: the exact image, a member of it, a window, or a window near a member
    let z = match rng.below(4) {
        0 => hull_of(of, &img),
        1 => FpDom::point(of, img[rng.below(img.len() as u64) as usize]),
        2 => random_window(rng, of),
        _ => {
            let m = img[rng.below(img.len() as u64) as usize];
            random_dom_around(rng, of, m)
        }
    };
    for i in 0..n {
        let proj = exact_projection(op, rm, &z, &doms, i, LIMIT).expect("small");
        let r = op.bwd(rm, &z, &doms, i);
        for &x in &proj {
            if !r.contains(x) {
                return Err(format!("bwd {i} loses {x:#x}: {r:?} ({})", ctx(&z)));
            }
        }
        if !same_set(&r.intersect(&doms[i]), &r) {
            return Err(format!("bwd {i} grew the domain: {r:?} ({})", ctx(&z)));
        }
        let want = hull_of(f, &proj).intersect(&doms[i]);
        let partners_points = (0..n).all(|j| j == i || doms[j].as_point().is_some());
        if same_set(&r, &want) {
            st.windows_exact += 1;
        } else if partners_points && z.as_point().is_some() {
            return Err(format!(
                "bwd {i} not tight on points: {r:?}, want {want:?} ({})",
                ctx(&z)
            ));
        }
        st.windows += 1;
    }
    Ok(())
}

/// Compares `fwd` of a predicate with enumeration: `can_true`/`can_false` must cover what
/// happens.
fn covers(p: BoolPoss, saw_true: bool, saw_false: bool) -> bool {
    (!saw_true || p.can_true) && (!saw_false || p.can_false)
}

/// The comparisons and class predicates on random windows and random domains, checked by
/// enumeration (windows) and random members (large domains).
pub fn compare_case(rng: &mut Rng, f: FpFormat, st: &mut Stats) -> Result<(), String> {
    const LIMIT: usize = 16;
    let (x, y) = if rng.coin() {
        (random_window(rng, f), random_window(rng, f))
    } else {
        let (p, q) = (random_float(rng, f), random_float(rng, f));
        (random_dom_around(rng, f, p), random_dom_around(rng, f, q))
    };
    // the members to test: all (windows) or the extremes plus a few random floats
    let pick = |rng: &mut Rng, d: &FpDom| -> Vec<u64> {
        members(d, LIMIT).unwrap_or_else(|| {
            let mut v = extremes(d);
            for _ in 0..4 {
                let r = random_float(rng, f);
                if d.contains(r) {
                    v.push(r);
                }
            }
            v
        })
    };
    let (mx, my) = (pick(rng, &x), pick(rng, &y));
    type Fwd = fn(&FpDom, &FpDom) -> BoolPoss;
    type Bwd = fn(bool, &FpDom, &FpDom) -> (FpDom, FpDom);
    type Rel = fn(FpFormat, u64, u64) -> bool;
    let rels: [(&str, Fwd, Bwd, Rel); 4] = [
        ("lt", c::fwd_lt, c::bwd_lt, ieee::lt),
        ("le", c::fwd_le, c::bwd_le, ieee::le),
        ("eq", c::fwd_eq, c::bwd_eq, ieee::eq),
        ("same", c::fwd_same, c::bwd_same, ieee::same),
    ];
    for (name, fw, bw, rel) in rels {
        let p = fw(&x, &y);
        let (mut st_t, mut st_f) = (false, false);
        for &a in &mx {
            for &b in &my {
                let r = rel(f, a, b);
                st_t |= r;
                st_f |= !r;
                let (nx, ny) = bw(r, &x, &y);
                if !nx.contains(a) || !ny.contains(b) {
                    return Err(format!(
                        "bwd_{name}({r}) loses ({a:#x}, {b:#x}): {nx:?} {ny:?} from {x:?} {y:?}"
                    ));
                }
                if !same_set(&nx.intersect(&x), &nx) || !same_set(&ny.intersect(&y), &ny) {
                    return Err(format!("bwd_{name} grew a domain: {x:?} {y:?}"));
                }
                st.kept += 1;
            }
        }
        if !covers(p, st_t, st_f) {
            return Err(format!("fwd_{name} = {p:?} misses a value on {x:?} {y:?}"));
        }
        // on windows, fwd is exact
        if members(&x, LIMIT).is_some() && members(&y, LIMIT).is_some() {
            let exact = BoolPoss {
                can_true: st_t,
                can_false: st_f,
            };
            if p != exact {
                return Err(format!(
                    "fwd_{name} = {p:?}, exact {exact:?} on {x:?} {y:?}"
                ));
            }
            // and bwd on windows is the hull of the exact projections
            for r in [true, false] {
                let (nx, ny) = bw(r, &x, &y);
                let px: Vec<u64> = mx
                    .iter()
                    .copied()
                    .filter(|&a| my.iter().any(|&b| rel(f, a, b) == r))
                    .collect();
                let py: Vec<u64> = my
                    .iter()
                    .copied()
                    .filter(|&b| mx.iter().any(|&a| rel(f, a, b) == r))
                    .collect();
                if same_set(&nx, &hull_of(f, &px).intersect(&x))
                    && same_set(&ny, &hull_of(f, &py).intersect(&y))
                {
                    st.windows_exact += 1;
                }
                st.windows += 1;
            }
        }
    }
    for (cl, pred) in [
        (
            FpClass::Nan,
            (|f: FpFormat, x: u64| f.is_nan(x)) as fn(FpFormat, u64) -> bool,
        ),
        (FpClass::Inf, |f, x| f.is_inf(x)),
        (FpClass::Zero, ieee::is_zero),
        (FpClass::Subnormal, ieee::is_subnormal),
        (FpClass::Normal, ieee::is_normal),
        (FpClass::Neg, ieee::is_neg),
    ] {
        let p = c::fwd_class(cl, &x);
        let (mut st_t, mut st_f) = (false, false);
        for &a in &mx {
            let r = pred(f, a);
            st_t |= r;
            st_f |= !r;
            let nx = c::bwd_class(cl, r, &x);
            if !nx.contains(a) || !same_set(&nx.intersect(&x), &nx) {
                return Err(format!(
                    "bwd_class {cl:?}({r}) loses {a:#x}: {nx:?} from {x:?}"
                ));
            }
            st.kept += 1;
        }
        if !covers(p, st_t, st_f) {
            return Err(format!("fwd_class {cl:?} = {p:?} misses a value on {x:?}"));
        }
    }
    st.cases += 1;
    Ok(())
}

/// Real → fp rounding, fp → int truncation, fp → real: random reals and floats must survive.
pub fn conversion_case(
    rng: &mut Rng,
    f: FpFormat,
    rm: RoundingMode,
    st: &mut Stats,
) -> Result<(), String> {
    st.cases += 1;
    // a real point: a double (maybe not a float of f), a midpoint between floats, or an int
    let x = random_float(rng, f);
    let (q, qf): (Rational, f64) = match rng.below(4) {
        0 if !f.is_nan(x) && !f.is_inf(x) => {
            let b = ieee::next_up(f, x);
            let (v0, v1) = (f.to_rational(x).unwrap(), f.to_rational(b));
            match v1 {
                Some(v1) => {
                    let m = (v0 + v1) / Rational::from_integer(2.into());
                    let mf = num_traits::ToPrimitive::to_f64(&m).unwrap_or(0.0);
                    (m, mf)
                }
                None => (v0, ieee::to_f64(f, x)),
            }
        }
        1 => {
            let n = (rng.next_u64() >> rng.below(64)) as i64 * if rng.coin() { -1 } else { 1 };
            (Rational::from_integer(n.into()), n as f64)
        }
        _ => {
            let d = f64::from_bits(random_float(rng, FpFormat::F64));
            if !d.is_finite() {
                return Ok(());
            }
            (Rational::from_float(d).unwrap(), d)
        }
    };
    let integral = q.is_integer();
    let r = ieee::from_rational(f, rm, &q);
    // a real box around q: the tightest enclosure, maybe widened
    let a = {
        let t = Interval::from_rational(&q);
        match rng.below(3) {
            0 => t,
            1 => t.hull(Interval::point(qf * 2.0)),
            _ => t.hull(Interval::closed(-1.0, 1.0)),
        }
    };
    let img = cv::fwd_round_real(rm, f, a);
    if !img.contains(r) {
        return Err(format!(
            "fwd_round_real loses {r:#x}: {img:?} ({rm:?} {q} in {a:?})"
        ));
    }
    let zd = random_dom_around(rng, f, r);
    let back = cv::bwd_round_real_a(rm, &zd, a, integral);
    if !back.contains_rational(&q) || !back.is_subset(a) {
        return Err(format!(
            "bwd_round_real loses {q}: {back:?} ({rm:?} z {zd:?} a {a:?})"
        ));
    }
    st.kept += 2;
    // point tightness: Z a point, a = everything; the ends must round into z
    let zp = FpDom::point(f, r);
    let back = cv::bwd_round_real_a(rm, &zp, Interval::ENTIRE, false);
    if !back.contains_rational(&q) {
        return Err(format!(
            "bwd_round_real (point) loses {q}: {back:?} ({rm:?})"
        ));
    }
    for (end, open) in [(back.lo(), back.lo_open()), (back.hi(), back.hi_open())] {
        if end.is_finite() && !open {
            let e = Rational::from_float(end).unwrap();
            let got = ieee::from_rational(f, rm, &e);
            if got != r {
                return Err(format!(
                    "bwd_round_real (point) keeps {end} rounding to {got:#x}, not {r:#x} ({rm:?})"
                ));
            }
        }
    }
    st.tight += 1;
    // fp -> int and fp -> real on the float x
    let xd = random_dom_around(rng, f, x);
    if let Some(t) = ieee::to_integer_trunc(f, x) {
        let tq = Rational::from_integer(t);
        let o = cv::fwd_fp_to_int(&xd);
        if !o.contains_rational(&tq) {
            return Err(format!("fwd_fp_to_int loses {tq}: {o:?} from {xd:?}"));
        }
        let ob = Interval::from_rational(&tq);
        let nx = cv::bwd_fp_to_int_x(ob, &xd);
        if !nx.contains(x) {
            return Err(format!(
                "bwd_fp_to_int loses {x:#x}: {nx:?} ({ob:?}, {xd:?})"
            ));
        }
        // with an integer type: out-of-range truncations are unspecified
        let types: [(f64, f64); 4] = [
            (-128.0, 127.0),
            (0.0, 255.0),
            (-2147483648.0, 2147483647.0),
            (0.0, 18446744073709551615.0),
        ];
        let (lo, hi) = types[rng.below(4) as usize];
        let o = cv::fwd_fp_to_int_typed(&xd, lo, hi);
        let in_type =
            tq >= Rational::from_float(lo).unwrap() && tq <= Rational::from_float(hi).unwrap();
        let out = if in_type {
            if !o.contains_rational(&tq) {
                return Err(format!("fwd_fp_to_int_typed loses {tq}: {o:?} from {xd:?}"));
            }
            Interval::from_rational(&tq)
        } else {
            if o != Interval::closed(lo, hi) {
                return Err(format!("fwd_fp_to_int_typed of out-of-range {tq}: {o:?}"));
            }
            Interval::point(if rng.coin() { lo } else { hi })
        };
        let nx = cv::bwd_fp_to_int_x_typed(out, &xd, lo, hi);
        if !nx.contains(x) {
            return Err(format!(
                "bwd_fp_to_int_x_typed loses {x:#x}: {nx:?} ({out:?}, {xd:?}, [{lo}, {hi}])"
            ));
        }
        let v = f.to_rational(x).unwrap();
        let o = cv::fwd_to_real(&xd);
        if !o.contains_rational(&v) {
            return Err(format!("fwd_to_real loses {x:#x}: {o:?} from {xd:?}"));
        }
        let nx = cv::bwd_to_real_x(Interval::from_rational(&v), &xd);
        if !nx.contains(x) {
            return Err(format!("bwd_to_real loses {x:#x}: {nx:?} from {xd:?}"));
        }
        st.kept += 4;
    } else {
        // NaN / inf: unspecified; any non-empty output keeps x
        let out = Interval::closed(-3.0, 7.0);
        if !cv::bwd_fp_to_int_x(out, &xd).contains(x) || !cv::bwd_to_real_x(out, &xd).contains(x) {
            return Err(format!("unspecified {x:#x} removed from {xd:?}"));
        }
        if !cv::bwd_fp_to_int_x_typed(out, &xd, -128.0, 127.0).contains(x)
            || cv::fwd_fp_to_int_typed(&xd, -128.0, 127.0) != Interval::closed(-128.0, 127.0)
        {
            return Err(format!("typed: unspecified {x:#x} constrained ({xd:?})"));
        }
        if !cv::fwd_fp_to_int(&xd).is_entire() || !cv::fwd_to_real(&xd).is_entire() {
            return Err(format!("fwd of unspecified {x:#x} constrained ({xd:?})"));
        }
        st.kept += 2;
    }
    Ok(())
}

/// One case of the bit reinterpretation contractors ([`super::bits`]) for format `f`: a
/// random float `x` and a random pattern `p` (NaN payloads included), the machine-integer
/// values of type `t` (unsigned or signed, the format's width) that hold their patterns,
/// random boxes around them on both sides: every contraction must keep the solution;
/// points must contract to points; and a window of at most 17 patterns must give exactly
/// the hull of the floats it encodes, in both directions.
pub fn bits_case(rng: &mut Rng, f: FpFormat, st: &mut Stats) -> Result<(), String> {
    use super::bits as b;
    use crate::contractors::bv::{self, IntIv};
    use crate::num::IntType;
    st.cases += 1;
    let w = f.total_bits();
    let t = IntType::new(w as u8, rng.coin());
    let val = |p: u64| -> i128 { bv::wrap(t, p as i128) };
    let all = bv::range(t);
    // a random box of type t around v
    let ibox = |rng: &mut Rng, v: i128| -> IntIv {
        let r = match rng.below(6) {
            0 => IntIv::point(v),
            1 => {
                let k = 1i128 << rng.below(w as u64);
                IntIv::new(
                    v - rng.below(1 << 20) as i128 % k,
                    v + rng.below(1 << 20) as i128 % k,
                )
            }
            2 => all,
            3 => {
                let o = val(rng.next_u64());
                IntIv::new(v.min(o), v.max(o))
            }
            _ => IntIv::new(v - rng.below(9) as i128, v + rng.below(9) as i128),
        };
        r.intersect(all)
    };
    // fp_bits: x -> u
    let x = random_float(rng, f);
    let u = val(ieee::to_bits(f, x));
    let xd = random_dom_around(rng, f, x);
    let ud = ibox(rng, u);
    let fu = b::fwd_fp_bits(t, &xd, ud);
    if !fu.contains(u) {
        return Err(format!(
            "fwd_fp_bits loses {u:#x} = fp_bits({x:#x}): {fu:?} from {xd:?} in {ud:?} ({t:?})"
        ));
    }
    let bx = b::bwd_fp_bits_x(t, ud, &xd);
    if !bx.contains(x) {
        return Err(format!(
            "bwd_fp_bits_x loses {x:#x}: {bx:?} from {ud:?}, {xd:?} ({t:?})"
        ));
    }
    st.kept += 2;
    let px = FpDom::point(f, x);
    if b::fwd_fp_bits(t, &px, all) != IntIv::point(u)
        || b::bwd_fp_bits_x(t, IntIv::point(u), &FpDom::full(f)).as_point() != px.as_point()
    {
        return Err(format!(
            "fp_bits of the point {x:#x} / {u:#x} is not a point ({t:?})"
        ));
    }
    st.tight += 1;
    // fp_of_bits: u -> z, with any pattern (NaN payloads, the pattern of x)
    let p = match rng.below(3) {
        0 => x,
        1 => ieee::neg(f, random_float(rng, f)) ^ (rng.below(2) << (f.precision() - 2)),
        _ => rng.next_u64(),
    } & (u64::MAX >> (64 - w));
    let v = val(p);
    let z = ieee::of_bits(f, p);
    let vd = ibox(rng, v);
    let zd = random_dom_around(rng, f, z);
    let fz = b::fwd_fp_of_bits(f, t, vd);
    if !fz.contains(z) {
        return Err(format!(
            "fwd_fp_of_bits loses {z:#x} = of_bits({p:#x}): {fz:?} from {vd:?} ({t:?})"
        ));
    }
    let bv_ = b::bwd_fp_of_bits_u(t, &zd, vd);
    if !bv_.contains(v) {
        return Err(format!(
            "bwd_fp_of_bits_u loses {v:#x}: {bv_:?} from {zd:?}, {vd:?} ({t:?})"
        ));
    }
    st.kept += 2;
    if b::fwd_fp_of_bits(f, t, IntIv::point(v)).as_point() != FpDom::point(f, z).as_point() {
        return Err(format!(
            "fp_of_bits of the point {p:#x} is not a point ({t:?})"
        ));
    }
    let back = b::bwd_fp_of_bits_u(t, &FpDom::point(f, z), all);
    if !f.is_nan(z) && back != IntIv::point(v) {
        return Err(format!(
            "fp_of_bits backward from the point {z:#x}: {back:?}, not {v:#x} ({t:?})"
        ));
    }
    st.tight += 1;
    // windows: exact hulls by enumeration of the patterns
    let win = IntIv::new(v - rng.below(9) as i128, v + rng.below(9) as i128).intersect(all);
    let pat = |q: i128| (q as u64) & (u64::MAX >> (64 - w));
    let decoded: Vec<u64> = (win.lo..=win.hi)
        .map(|q| ieee::of_bits(f, pat(q)))
        .collect();
    let got = b::fwd_fp_of_bits(f, t, win);
    st.windows += 1;
    if !same_set(&got, &hull_of(f, &decoded)) {
        return Err(format!(
            "fwd_fp_of_bits of the window {win:?}: {got:?}, exact {:?} ({t:?})",
            hull_of(f, &decoded)
        ));
    }
    let encoded: Vec<u64> = (win.lo..=win.hi)
        .map(pat)
        .filter(|&q| !f.is_nan(q) || q == f.nan_bits())
        .collect();
    let got = b::bwd_fp_bits_x(t, win, &FpDom::full(f));
    if !same_set(&got, &hull_of(f, &encoded)) {
        return Err(format!(
            "bwd_fp_bits_x of the window {win:?}: {got:?}, exact {:?} ({t:?})",
            hull_of(f, &encoded)
        ));
    }
    st.windows += 1;
    st.windows_exact += 2;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_harness() {
        let mut st = Stats::default();
        let mut rng = Rng::new(7);
        for i in 0..20_000 {
            let f = if i % 2 == 0 {
                FpFormat::F32
            } else {
                FpFormat::F64
            };
            bits_case(&mut rng, f, &mut st).unwrap();
        }
        assert_eq!(st.windows, st.windows_exact);
    }

    /// A quick pass of the whole harness (the full runs are `solver/tests/ieee_contractors.rs`
    /// and the `ieee_contractor_sweep` example).
    #[test]
    fn harness_smoke() {
        let mut st = Stats::default();
        let mut rng = Rng::new(99);
        for f in [FpFormat::F32, FpFormat::F64] {
            for rm in RoundingMode::ALL {
                for op in FpOp::ALL {
                    for _ in 0..3 {
                        random_case(&mut rng, f, op, rm, &mut st).unwrap();
                        window_case(&mut rng, f, op, rm, &mut st).unwrap();
                    }
                }
                conversion_case(&mut rng, f, rm, &mut st).unwrap();
            }
            compare_case(&mut rng, f, &mut st).unwrap();
        }
        assert!(st.tight > 0 && st.windows > 0 && st.kept > 0);
    }

    #[test]
    fn enumeration_visits_both_zeros_in_order() {
        let f = FpFormat::F64;
        let d = FpDom::range(f, -5e-324, 5e-324);
        let m = members(&d, 8).unwrap();
        assert_eq!(m, vec![(-5e-324f64).to_bits(), (-0.0f64).to_bits(), 0, 1]);
        assert!(members(&FpDom::range(f, 1.0, 2.0), 100).is_none());
        let d = FpDom {
            pos_zero: false,
            ..FpDom::full(f)
        };
        assert!(same_set(&d, &d.intersect(&FpDom::full(f))));
        assert!(!same_set(&d, &FpDom::full(f)));
    }
}
