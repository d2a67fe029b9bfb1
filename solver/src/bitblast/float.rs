//! IEEE-754 binary32/binary64 as circuits over the packed bit pattern.
//!
//! The idea (the classic hardware design, also symfpu's): unpack a float into sign,
//! significand and the exponent of the significand's last bit; compute the exact result or an
//! exact prefix of it plus a sticky bit; and let one rounder ([`round`]) do normalization,
//! gradual underflow, rounding in the (constant) mode and overflow. Special operands (NaN,
//! infinities, zeros) are selected around the finite path. Every circuit is checked bit for
//! bit against `num::ieee` by the differential tests of `bitblast::tests`.

use super::gates::{Bit, Gates, Word};
use crate::num::{FpFormat, RoundingMode};

/// Width of the signed exponent words: covers every intermediate exponent, including those
/// of fixed-point words thousands of bits wide.
pub const EW: usize = 20;

/// A signed `EW`-bit constant.
pub fn cexp(v: i64) -> Word {
    Gates::const_word(EW, v as i128 as u128)
}

fn p(f: FpFormat) -> usize {
    f.precision() as usize
}
fn ebits(f: FpFormat) -> usize {
    f.exponent_bits() as usize
}
fn n(f: FpFormat) -> usize {
    f.total_bits() as usize
}

pub fn const_float(f: FpFormat, bits: u64) -> Word {
    Gates::const_word(n(f), bits as u128)
}

fn signed_special(f: FpFormat, sign: Bit, mag: u64) -> Word {
    let mut w = Gates::const_word(n(f), mag as u128);
    *w.last_mut().expect("float word") = sign;
    w
}

pub fn nan_word(f: FpFormat) -> Word {
    const_float(f, f.nan_bits())
}

pub fn inf_word(f: FpFormat, sign: Bit) -> Word {
    signed_special(f, sign, f.inf_bits())
}

pub fn zero_word(f: FpFormat, sign: Bit) -> Word {
    signed_special(f, sign, 0)
}

/// A float taken apart. `sig · 2^exp` is the magnitude of a finite value (`sig` has the hidden
/// bit, `exp` is the exponent of its last bit, signed `EW` bits).
pub struct Unpacked {
    pub sign: Bit,
    pub nan: Bit,
    pub inf: Bit,
    pub zero: Bit,
    pub subnormal: Bit,
    pub sig: Word,
    pub exp: Word,
}

pub fn unpack(g: &mut Gates, f: FpFormat, x: &[Bit]) -> Unpacked {
    let (p, e) = (p(f), ebits(f));
    let frac = &x[..p - 1];
    let expf = &x[p - 1..p - 1 + e];
    let sign = x[n(f) - 1];
    let exp_ones = g.and_all(expf);
    let exp_zero = g.is_zero(expf);
    let frac_zero = g.is_zero(frac);
    let nan = g.and(exp_ones, !frac_zero);
    let inf = g.and(exp_ones, frac_zero);
    let zero = g.and(exp_zero, frac_zero);
    let subnormal = g.and(exp_zero, !frac_zero);
    let mut sig = frac.to_vec();
    sig.push(!exp_zero);
    // biased exponent, 1 for subnormals; minus bias and the p-1 fraction bits
    let mut be = Gates::zext(expf, EW);
    be[0] = g.or(be[0], exp_zero);
    let exp = g.sub(&be, &cexp(f.emax() + p as i64 - 1));
    Unpacked {
        sign,
        nan,
        inf,
        zero,
        subnormal,
        sig,
        exp,
    }
}

/// Rounds `(-1)^sign · (m + δ) · 2^e` into `f`, where `m` is an unsigned word, `e` a signed
/// `EW`-bit exponent and `δ ∈ (0, 1)` present iff `sticky`. The value must not be 0
/// (callers select exact zeros themselves, since their sign rules differ per operation).
pub fn round(
    g: &mut Gates,
    f: FpFormat,
    rm: RoundingMode,
    sign: Bit,
    m: &[Bit],
    e: &[Bit],
    sticky: Bit,
) -> Word {
    let (p, eb) = (p(f), ebits(f));
    // at least p+2 bits so the kept part, the guard bit and one more always exist
    let (m, e) = if m.len() < p + 2 {
        let pad = p + 2 - m.len();
        let mut w = vec![Bit::FALSE; pad];
        w.extend_from_slice(m);
        let e2 = g.sub(e, &cexp(pad as i64));
        (w, e2)
    } else {
        (m.to_vec(), e.to_vec())
    };
    let w = m.len();
    let (mn, lz) = g.normalize(&m);
    let lz = Gates::zext(&lz, EW);
    // exponent of the leading bit
    let top = g.add(&e, &cexp(w as i64 - 1));
    let e_msb = g.sub(&top, &lz);
    let emin = cexp(f.emin());
    let sub = g.slt(&e_msb, &emin);
    let d = g.sub(&emin, &e_msb);
    let cap = cexp(p as i64 + 1);
    let big = g.slt(&cap, &d);
    let d_capped = g.mux_word(big, &cap, &d);
    let zero = cexp(0);
    let extra = g.mux_word(sub, &d_capped, &zero);
    let amt = g.add(&extra, &cexp((w - p - 1) as i64));
    // amt ≤ w: the low bits that can express w suffice
    let mut sbits = 1;
    while (1usize << sbits) <= w {
        sbits += 1;
    }
    let (t, st) = g.shr_sticky(&mn, &amt[..sbits], Bit::FALSE);
    let guard = t[0];
    let kept: Word = t[1..=p].to_vec();
    let sticky = g.or(st, sticky);
    let inexact = g.or(guard, sticky);
    let inc = match rm {
        RoundingMode::Rne => {
            let odd_or_sticky = g.or(sticky, kept[0]);
            g.and(guard, odd_or_sticky)
        }
        RoundingMode::Rna => guard,
        RoundingMode::Rtp => g.and(!sign, inexact),
        RoundingMode::Rtn => g.and(sign, inexact),
        RoundingMode::Rtz => Bit::FALSE,
    };
    let r = g.inc(&Gates::zext(&kept, p + 1), inc);
    let carry = r[p];
    let frac = &r[..p - 1];
    let biased = g.add(&e_msb, &cexp(f.emax()));
    let be_norm = g.inc(&biased, carry);
    let mut be_sub = vec![Bit::FALSE; EW];
    be_sub[0] = r[p - 1];
    let be = g.mux_word(sub, &be_sub, &be_norm);
    let all_ones = cexp((1i64 << eb) - 1);
    let ovf_cmp = g.sle(&all_ones, &be_norm);
    let overflow = g.and(!sub, ovf_cmp);
    let mut packed: Word = frac.to_vec();
    packed.extend_from_slice(&be[..eb]);
    packed.push(sign);
    let to_inf = match rm {
        RoundingMode::Rne | RoundingMode::Rna => Bit::TRUE,
        RoundingMode::Rtp => !sign,
        RoundingMode::Rtn => sign,
        RoundingMode::Rtz => Bit::FALSE,
    };
    let inf = inf_word(f, sign);
    let max = signed_special(f, sign, f.max_finite_bits());
    let ovf = g.mux_word(to_inf, &inf, &max);
    g.mux_word(overflow, &ovf, &packed)
}

/// Selects, in order: NaN if `nan`, then the listed special results, else `normal`.
fn select(g: &mut Gates, f: FpFormat, nan: Bit, cases: &[(Bit, Word)], normal: Word) -> Word {
    let mut r = normal;
    for (c, w) in cases.iter().rev() {
        r = g.mux_word(*c, w, &r);
    }
    let nw = nan_word(f);
    g.mux_word(nan, &nw, &r)
}

pub fn add(g: &mut Gates, f: FpFormat, rm: RoundingMode, x: &[Bit], y: &[Bit]) -> Word {
    let p = p(f);
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let signs_differ = g.xor(ux.sign, uy.sign);
    let both_inf = g.and(ux.inf, uy.inf);
    let inf_minus_inf = g.and(both_inf, signs_differ);
    let any_nan = g.or(ux.nan, uy.nan);
    let nan = g.or(any_nan, inf_minus_inf);
    // order by magnitude: |a| ≥ |b|
    let swap = g.ult(&x[..n(f) - 1], &y[..n(f) - 1]);
    let sa = g.mux(swap, uy.sign, ux.sign);
    let siga = g.mux_word(swap, &uy.sig, &ux.sig);
    let sigb = g.mux_word(swap, &ux.sig, &uy.sig);
    let ea = g.mux_word(swap, &uy.exp, &ux.exp);
    let eb = g.mux_word(swap, &ux.exp, &uy.exp);
    let d = g.sub(&ea, &eb);
    let cap = cexp(p as i64 + 3);
    let big = g.slt(&cap, &d);
    let dc = g.mux_word(big, &cap, &d);
    // three extra low bits (guard, round, sticky) and a carry bit on top
    let w = p + 4;
    let mut a = vec![Bit::FALSE; 3];
    a.extend_from_slice(&siga);
    a.push(Bit::FALSE);
    let mut b = vec![Bit::FALSE; 3];
    b.extend_from_slice(&sigb);
    b.push(Bit::FALSE);
    let mut sbits = 1;
    while (1usize << sbits) <= w {
        sbits += 1;
    }
    let (mut bs, st) = g.shr_sticky(&b, &dc[..sbits], Bit::FALSE);
    bs[0] = g.or(bs[0], st);
    let sum = g.add(&a, &bs);
    let diff = g.sub(&a, &bs);
    let r = g.mux_word(signs_differ, &diff, &sum);
    let rzero = g.is_zero(&r);
    let rtn = Bit::constant(rm == RoundingMode::Rtn);
    let zsign = g.mux(signs_differ, rtn, ux.sign);
    let e3 = g.sub(&ea, &cexp(3));
    let rounded = round(g, f, rm, sa, &r, &e3, Bit::FALSE);
    let zero = zero_word(f, zsign);
    select(
        g,
        f,
        nan,
        &[(ux.inf, x.to_vec()), (uy.inf, y.to_vec()), (rzero, zero)],
        rounded,
    )
}

fn negate(x: &[Bit]) -> Word {
    let mut w = x.to_vec();
    let s = w.len() - 1;
    w[s] = !w[s];
    w
}

pub fn sub(g: &mut Gates, f: FpFormat, rm: RoundingMode, x: &[Bit], y: &[Bit]) -> Word {
    add(g, f, rm, x, &negate(y))
}

pub fn neg(x: &[Bit]) -> Word {
    negate(x)
}

/// `fp_bits(x)`: the word itself, except that every NaN (any pattern a NaN word may hold)
/// gives the canonical NaN pattern.
pub fn to_bits(g: &mut Gates, f: FpFormat, x: &[Bit]) -> Word {
    let nan = classify(g, f, x).nan;
    g.mux_word(nan, &nan_word(f), x)
}

/// `fp_of_bits(u)`: the pattern is the float (a NaN pattern is a NaN word).
pub fn of_bits(u: &[Bit]) -> Word {
    u.to_vec()
}

pub fn abs(x: &[Bit]) -> Word {
    let mut w = x.to_vec();
    let s = w.len() - 1;
    w[s] = Bit::FALSE;
    w
}

pub fn mul(g: &mut Gates, f: FpFormat, rm: RoundingMode, x: &[Bit], y: &[Bit]) -> Word {
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let sign = g.xor(ux.sign, uy.sign);
    let any_nan = g.or(ux.nan, uy.nan);
    let inf_zero = g.and(ux.inf, uy.zero);
    let zero_inf = g.and(ux.zero, uy.inf);
    let bad = g.or(inf_zero, zero_inf);
    let nan = g.or(any_nan, bad);
    let inf = g.or(ux.inf, uy.inf);
    let zero = g.or(ux.zero, uy.zero);
    let prod = g.mul_full(&ux.sig, &uy.sig);
    let e = g.add(&ux.exp, &uy.exp);
    let rounded = round(g, f, rm, sign, &prod, &e, Bit::FALSE);
    let iw = inf_word(f, sign);
    let zw = zero_word(f, sign);
    select(g, f, nan, &[(inf, iw), (zero, zw)], rounded)
}

pub fn div(g: &mut Gates, f: FpFormat, rm: RoundingMode, x: &[Bit], y: &[Bit]) -> Word {
    let p = p(f);
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let sign = g.xor(ux.sign, uy.sign);
    let any_nan = g.or(ux.nan, uy.nan);
    let ii = g.and(ux.inf, uy.inf);
    let zz = g.and(ux.zero, uy.zero);
    let bad = g.or(ii, zz);
    let nan = g.or(any_nan, bad);
    let inf = g.or(ux.inf, uy.zero);
    let zero = g.or(ux.zero, uy.inf);
    let (nx, lzx) = g.normalize(&ux.sig);
    let (ny, lzy) = g.normalize(&uy.sig);
    let ex = g.sub(&ux.exp, &Gates::zext(&lzx, EW));
    let ey = g.sub(&uy.exp, &Gates::zext(&lzy, EW));
    // nx·2^(p+2) / ny has at least p+2 significant bits: the result, a guard bit and more
    let mut dividend = vec![Bit::FALSE; p + 2];
    dividend.extend_from_slice(&nx);
    let (q, r) = g.udivrem(&dividend, &ny);
    let sticky = !g.is_zero(&r);
    let e0 = g.sub(&ex, &ey);
    let e = g.sub(&e0, &cexp(p as i64 + 2));
    let rounded = round(g, f, rm, sign, &q, &e, sticky);
    let iw = inf_word(f, sign);
    let zw = zero_word(f, sign);
    select(g, f, nan, &[(inf, iw), (zero, zw)], rounded)
}

/// Integer square root of `a` (even width) and whether it is exact.
fn isqrt(g: &mut Gates, a: &[Bit]) -> (Word, Bit) {
    let h = a.len() / 2;
    let w = h + 2;
    let mut rem = vec![Bit::FALSE; w];
    let mut root = vec![Bit::FALSE; w];
    for i in (0..h).rev() {
        // rem = rem·4 + next two bits; trial = root·4 + 1
        let mut r4 = vec![a[2 * i], a[2 * i + 1]];
        r4.extend_from_slice(&rem[..w - 2]);
        let mut trial = vec![Bit::TRUE, Bit::FALSE];
        trial.extend_from_slice(&root[..w - 2]);
        let (diff, ge) = g.sub_carry(&r4, &trial);
        rem = g.mux_word(ge, &diff, &r4);
        let mut r2 = vec![ge];
        r2.extend_from_slice(&root[..w - 1]);
        root = r2;
    }
    let exact = g.is_zero(&rem);
    (root[..h].to_vec(), exact)
}

pub fn sqrt(g: &mut Gates, f: FpFormat, rm: RoundingMode, x: &[Bit]) -> Word {
    let p = p(f);
    let ux = unpack(g, f, x);
    let neg_nonzero = g.and(ux.sign, !ux.zero);
    let nan = g.or(ux.nan, neg_nonzero);
    let (nx, lz) = g.normalize(&ux.sig);
    let e = g.sub(&ux.exp, &Gates::zext(&lz, EW));
    // an even exponent: shift the significand left once when it is odd
    let odd = e[0];
    let base = Gates::zext(&nx, p + 1);
    let shifted = Gates::shl_const(&base, 1);
    let m = g.mux_word(odd, &shifted, &base);
    let e_even = g.sub(&e, &Gates::zext(&[odd], EW));
    // radicand m·2^(2k) with k ≥ (p+3)/2: the root has ≥ p+2 significant bits
    let k = (p + 4) / 2;
    let mut rad = vec![Bit::FALSE; 2 * k];
    rad.extend_from_slice(&m);
    if rad.len() % 2 == 1 {
        rad.push(Bit::FALSE);
    }
    let (root, exact) = isqrt(g, &rad);
    let e2 = g.sub(&e_even, &cexp(2 * k as i64));
    // e2 is even: halve it arithmetically
    let mut half = e2[1..].to_vec();
    half.push(e2[EW - 1]);
    let rounded = round(g, f, rm, Bit::FALSE, &root, &half, !exact);
    let pos_inf = g.and(ux.inf, !ux.sign);
    select(
        g,
        f,
        nan,
        &[(ux.zero, x.to_vec()), (pos_inf, x.to_vec())],
        rounded,
    )
}

/// `x·y + z` with one rounding. Both the exact product (2p bits) and the addend are
/// normalized, then placed in one frame whose top holds the larger of the two (plus a carry
/// bit); the smaller is shifted right with its lost bits jammed into its last bit. Bits are
/// only lost when the smaller lies wholly below the larger's last bit, so cancellation then
/// removes at most one leading bit and the frame keeps guard bits above the jam.
pub fn fma(g: &mut Gates, f: FpFormat, rm: RoundingMode, x: &[Bit], y: &[Bit], z: &[Bit]) -> Word {
    let p = p(f);
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let uz = unpack(g, f, z);
    let ps = g.xor(ux.sign, uy.sign);
    let any_nan = g.or_all(&[ux.nan, uy.nan, uz.nan]);
    let inf_zero = g.and(ux.inf, uy.zero);
    let zero_inf = g.and(ux.zero, uy.inf);
    let prod_nan = g.or(inf_zero, zero_inf);
    let prod_inf = g.or(ux.inf, uy.inf);
    let sd = g.xor(ps, uz.sign);
    let both_inf = g.and(prod_inf, uz.inf);
    let cancel = g.and(both_inf, sd);
    let nan = g.or_all(&[any_nan, prod_nan, cancel]);
    let prod_zero = g.or(ux.zero, uy.zero);

    let prod = g.mul_full(&ux.sig, &uy.sig);
    let (pn, plz) = g.normalize(&prod);
    let ep0 = g.add(&ux.exp, &uy.exp);
    let ep = g.sub(&ep0, &Gates::zext(&plz, EW));
    let (zn, zlz) = g.normalize(&uz.sig);
    let ez = g.sub(&uz.exp, &Gates::zext(&zlz, EW));
    // exclusive top exponents; the frame's bit w-1 is the carry above the larger top
    let tp = g.add(&ep, &cexp(2 * p as i64));
    let tz = g.add(&ez, &cexp(p as i64));
    let z_top = g.slt(&tp, &tz);
    let t = g.mux_word(z_top, &tz, &tp);
    let w = 3 * p + 6;
    let e0 = g.sub(&t, &cexp(w as i64 - 1));
    let mut sbits = 1;
    while (1usize << sbits) <= w {
        sbits += 1;
    }
    let place = |g: &mut Gates, sig: &[Bit], e: &[Bit]| -> Word {
        let off = g.sub(e, &e0);
        let neg = g.slt(&off, &cexp(0));
        let cap = cexp(w as i64);
        let big = g.slt(&cap, &off);
        let offl = g.mux_word(big, &cap, &off);
        let wide = Gates::zext(sig, w);
        let left = g.shl(&wide, &offl[..sbits]);
        let noff = g.neg(&off);
        let bigr = g.slt(&cap, &noff);
        let offr = g.mux_word(bigr, &cap, &noff);
        let (mut right, st) = g.shr_sticky(&wide, &offr[..sbits], Bit::FALSE);
        right[0] = g.or(right[0], st);
        g.mux_word(neg, &right, &left)
    };
    let pa = place(g, &pn, &ep);
    let za = place(g, &zn, &ez);
    let p_ge = g.ule(&za, &pa);
    let big_w = g.mux_word(p_ge, &pa, &za);
    let small_w = g.mux_word(p_ge, &za, &pa);
    let sum = g.add(&big_w, &small_w);
    let diff = g.sub(&big_w, &small_w);
    let r = g.mux_word(sd, &diff, &sum);
    let rsign = g.mux(p_ge, ps, uz.sign);
    let rzero = g.is_zero(&r);
    let rtn = Bit::constant(rm == RoundingMode::Rtn);
    let zsign = g.mux(sd, rtn, ps);
    let rounded = round(g, f, rm, rsign, &r, &e0, Bit::FALSE);
    // one operand zero: the other, rounded alone (z is a float: exact)
    let prod_only = round(g, f, rm, ps, &prod, &ep0, Bit::FALSE);
    let both_zero = g.and(prod_zero, uz.zero);
    let zero = zero_word(f, zsign);
    let pinf = inf_word(f, ps);
    select(
        g,
        f,
        nan,
        &[
            (prod_inf, pinf),
            (uz.inf, z.to_vec()),
            (both_zero, zero.clone()),
            (prod_zero, z.to_vec()),
            (uz.zero, prod_only),
            (rzero, zero),
        ],
        rounded,
    )
}

/// Conversion between formats (exact when widening).
pub fn convert(g: &mut Gates, from: FpFormat, to: FpFormat, rm: RoundingMode, x: &[Bit]) -> Word {
    let ux = unpack(g, from, x);
    let rounded = round(g, to, rm, ux.sign, &ux.sig, &ux.exp, Bit::FALSE);
    let iw = inf_word(to, ux.sign);
    let zw = zero_word(to, ux.sign);
    select(g, to, ux.nan, &[(ux.inf, iw), (ux.zero, zw)], rounded)
}

/// `(-1)^sign · mag · 2^e` (an unsigned magnitude word; `+0` when it is 0) rounded into `to`.
pub fn from_magnitude(
    g: &mut Gates,
    to: FpFormat,
    rm: RoundingMode,
    sign: Bit,
    mag: &[Bit],
    e: &[Bit],
) -> Word {
    let z = g.is_zero(mag);
    let rounded = round(g, to, rm, sign, mag, e, Bit::FALSE);
    let zw = zero_word(to, Bit::FALSE);
    g.mux_word(z, &zw, &rounded)
}

/// A two's-complement (`signed`) or unsigned integer word, scaled by `2^e`, rounded into `to`.
pub fn from_int(
    g: &mut Gates,
    to: FpFormat,
    rm: RoundingMode,
    w: &[Bit],
    signed: bool,
    e: i64,
) -> Word {
    let sign = if signed {
        *w.last().expect("word")
    } else {
        Bit::FALSE
    };
    let negw = g.neg(w);
    let mag = g.mux_word(sign, &negw, w);
    from_magnitude(g, to, rm, sign, &mag, &cexp(e))
}

/// C's conversion of a float to an integer: truncation toward zero into a `width`-bit
/// two's-complement word, and whether the value fits the target (`signed` or unsigned
/// `width`-bit range). NaN and infinities never fit.
pub fn to_int_trunc(
    g: &mut Gates,
    f: FpFormat,
    x: &[Bit],
    width: usize,
    signed: bool,
) -> (Word, Bit) {
    let p = p(f);
    let ux = unpack(g, f, x);
    let wm = width + p + 1;
    let mut sbits = 1;
    while (1usize << sbits) <= wm {
        sbits += 1;
    }
    let sig = Gates::zext(&ux.sig, wm);
    let exp_neg = g.slt(&ux.exp, &cexp(0));
    // left shift by exp (capped: beyond `width` the value cannot fit unless it is 0)
    let capl = cexp(width as i64 + 1);
    let too_big = g.slt(&capl, &ux.exp);
    let el = g.mux_word(too_big, &capl, &ux.exp);
    let left = g.shl(&sig, &el[..sbits]);
    let nexp = g.neg(&ux.exp);
    let capr = cexp(p as i64 + 1);
    let far = g.slt(&capr, &nexp);
    let er = g.mux_word(far, &capr, &nexp);
    let (right, _) = g.shr_sticky(&sig, &er[..sbits], Bit::FALSE);
    let mag = g.mux_word(exp_neg, &right, &left);
    let high_zero = g.is_zero(&mag[width..]);
    let mag_w = mag[..width].to_vec();
    let fits_mag = if signed {
        // ≤ 2^(w-1)-1, or exactly 2^(w-1) when negative
        let top = mag_w[width - 1];
        let rest_zero = g.is_zero(&mag_w[..width - 1]);
        let min_ok = g.and(ux.sign, rest_zero);
        let ok_top = g.or(!top, min_ok);
        g.and(high_zero, ok_top)
    } else {
        let mag_zero = g.is_zero(&mag_w);
        let sign_ok = g.or(!ux.sign, mag_zero);
        g.and(high_zero, sign_ok)
    };
    let not_too_big = g.or(!too_big, ux.zero);
    let finite = g.or(ux.nan, ux.inf);
    let fits0 = g.and(fits_mag, not_too_big);
    let fits = g.and(fits0, !finite);
    let negm = g.neg(&mag_w);
    let val = g.mux_word(ux.sign, &negm, &mag_w);
    (val, fits)
}

/// The exact value of a finite float as a two's-complement fixed-point word with
/// `frac_bits(f)` fraction bits; the flag says NaN or infinity (no value).
pub fn to_fixed(g: &mut Gates, f: FpFormat, x: &[Bit]) -> (Word, Bit) {
    let s = fixed_scale(f);
    let width = fixed_width(f);
    let ux = unpack(g, f, x);
    let mut sbits = 1;
    while (1usize << sbits) <= width {
        sbits += 1;
    }
    // exp + s ≥ 0 for every finite float
    let amt = g.add(&ux.exp, &cexp(s as i64));
    let sig = Gates::zext(&ux.sig, width);
    let mag = g.shl(&sig, &amt[..sbits]);
    let negm = g.neg(&mag);
    let val = g.mux_word(ux.sign, &negm, &mag);
    let special = g.or(ux.nan, ux.inf);
    (val, special)
}

/// [`to_fixed`] within a window: values that are multiples of `2^grain` with magnitude at
/// most `2^top` become a two's-complement word with `max(0, -grain)` fraction bits (the
/// returned scale). The flag says NaN, infinity, or a finite value outside the window
/// (then the word means nothing).
pub fn to_fixed_window(
    g: &mut Gates,
    f: FpFormat,
    x: &[Bit],
    grain: i64,
    top: i64,
) -> (Word, Bit, usize) {
    let p = p(f);
    let scale = (-grain).max(0) as usize;
    let width = (top + scale as i64 + 2).max(2) as usize;
    let ux = unpack(g, f, x);
    let wide_n = width + p;
    let mut sbits = 1;
    while (1usize << sbits) <= wide_n {
        sbits += 1;
    }
    let amt = g.add(&ux.exp, &cexp(scale as i64));
    let neg_amt = g.slt(&amt, &cexp(0));
    // the lowest set bit would land at or above the sign bit: too large (and the shift
    // below never loses a bit off the top of the wide word)
    let cap = cexp(width as i64 - 2);
    let too_far = g.slt(&cap, &amt);
    let amt_c = g.mux_word(too_far, &cap, &amt);
    let sig = Gates::zext(&ux.sig, wide_n);
    let left = g.shl(&sig, &amt_c[..sbits]);
    // a negative amount drops low significand bits: exact only if they are zero
    let namt = g.neg(&amt);
    let ncap = cexp(p as i64 + 1);
    let far_r = g.slt(&ncap, &namt);
    let namt_c = g.mux_word(far_r, &ncap, &namt);
    let (right, lost) = g.shr_sticky(&sig, &namt_c[..sbits], Bit::FALSE);
    let shifted = g.mux_word(neg_amt, &right, &left);
    let lost = g.and(neg_amt, lost);
    // the magnitude must fit width-1 bits (the top bit is the sign)
    let high = g.or_all(&shifted[width - 1..]);
    let lost_or_high = g.or_all(&[lost, too_far, high]);
    let outside = g.and(lost_or_high, !ux.zero);
    let mag = shifted[..width].to_vec();
    let negm = g.neg(&mag);
    let val = g.mux_word(ux.sign, &negm, &mag);
    let special = g.or_all(&[ux.nan, ux.inf, outside]);
    (val, special, scale)
}

/// Fraction bits of [`to_fixed`]: the exponent of the least subnormal, negated.
pub fn fixed_scale(f: FpFormat) -> usize {
    (f.precision() as i64 - 1 - f.emin()) as usize
}

/// Width of [`to_fixed`] words: every finite value and a sign bit.
pub fn fixed_width(f: FpFormat) -> usize {
    (f.emax() + 1) as usize + fixed_scale(f) + 1
}

pub struct Class {
    pub nan: Bit,
    pub inf: Bit,
    pub zero: Bit,
    pub subnormal: Bit,
    pub normal: Bit,
    pub neg: Bit,
}

pub fn classify(g: &mut Gates, f: FpFormat, x: &[Bit]) -> Class {
    let u = unpack(g, f, x);
    let special = g.or_all(&[u.nan, u.inf, u.zero, u.subnormal]);
    let neg = g.and(u.sign, !u.nan);
    Class {
        nan: u.nan,
        inf: u.inf,
        zero: u.zero,
        subnormal: u.subnormal,
        normal: !special,
        neg,
    }
}

/// Sign-magnitude order with `-0 < +0` (NaN operands are the caller's business).
fn total_lt(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit]) -> Bit {
    let m = n(f) - 1;
    let (sx, sy) = (x[m], y[m]);
    let mag_lt = g.ult(&x[..m], &y[..m]);
    let mag_gt = g.ult(&y[..m], &x[..m]);
    let both_pos = g.and(!sx, !sy);
    let both_neg = g.and(sx, sy);
    let a = g.and(both_pos, mag_lt);
    let b = g.and(both_neg, mag_gt);
    let c = g.and(sx, !sy);
    g.or_all(&[a, b, c])
}

pub fn lt(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit]) -> Bit {
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let both_zero = g.and(ux.zero, uy.zero);
    let t = total_lt(g, f, x, y);
    let bad = g.or_all(&[ux.nan, uy.nan, both_zero]);
    g.and(t, !bad)
}

pub fn eq(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit]) -> Bit {
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let both_zero = g.and(ux.zero, uy.zero);
    let same = g.eq(x, y);
    let e = g.or(same, both_zero);
    let any_nan = g.or(ux.nan, uy.nan);
    g.and(e, !any_nan)
}

pub fn le(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit]) -> Bit {
    let l = lt(g, f, x, y);
    let e = eq(g, f, x, y);
    g.or(l, e)
}

/// Identity: all NaNs are one value, `-0 ≠ +0`.
pub fn same(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit]) -> Bit {
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let both_nan = g.and(ux.nan, uy.nan);
    let bits = g.eq(x, y);
    g.or(both_nan, bits)
}

pub fn min(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit]) -> Word {
    min_max(g, f, x, y, true)
}

pub fn max(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit]) -> Word {
    min_max(g, f, x, y, false)
}

fn min_max(g: &mut Gates, f: FpFormat, x: &[Bit], y: &[Bit], is_min: bool) -> Word {
    let ux = unpack(g, f, x);
    let uy = unpack(g, f, y);
    let take_y = if is_min {
        total_lt(g, f, y, x)
    } else {
        total_lt(g, f, x, y)
    };
    let pick = g.mux_word(take_y, y, x);
    let both = g.and(ux.nan, uy.nan);
    select(
        g,
        f,
        both,
        &[(ux.nan, y.to_vec()), (uy.nan, x.to_vec())],
        pick,
    )
}
