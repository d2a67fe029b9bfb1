//! The circuits against the exact reference: bit for bit by constant folding on random and
//! special points, and through the CNF (the SAT solver must refute any other output).

use super::check::{float_sample, Rng};
use super::float;
use super::gates::{Bit, Gates, Word};
use super::*;
use crate::contractors::check_bv::{self, BvValue};

fn fw(f: FpFormat, bits: u64) -> Word {
    float::const_float(f, bits)
}

fn val(w: &[Bit]) -> u64 {
    Gates::const_value(w).expect("constant inputs fold to a constant") as u64
}

fn same(f: FpFormat, a: u64, b: u64) -> bool {
    crate::num::ieee::same(f, a, b)
}

const FORMATS: [FpFormat; 2] = [FpFormat::F32, FpFormat::F64];

fn check_binary(op: &str, iters: u32, seed: u64) {
    let mut r = Rng::new(seed);
    for &f in &FORMATS {
        for i in 0..iters {
            let rm = RoundingMode::ALL[i as usize % 5];
            let x = float_sample(&mut r, f, None);
            let y = float_sample(&mut r, f, Some(x));
            let mut g = Gates::new();
            let (a, b) = (fw(f, x), fw(f, y));
            let (got, want) = match op {
                "add" => (
                    val(&float::add(&mut g, f, rm, &a, &b)),
                    ieee::add(f, rm, x, y),
                ),
                "sub" => (
                    val(&float::sub(&mut g, f, rm, &a, &b)),
                    ieee::sub(f, rm, x, y),
                ),
                "mul" => (
                    val(&float::mul(&mut g, f, rm, &a, &b)),
                    ieee::mul(f, rm, x, y),
                ),
                "div" => (
                    val(&float::div(&mut g, f, rm, &a, &b)),
                    ieee::div(f, rm, x, y),
                ),
                "min" => (val(&float::min(&mut g, f, &a, &b)), ieee::min(f, x, y)),
                "max" => (val(&float::max(&mut g, f, &a, &b)), ieee::max(f, x, y)),
                _ => unreachable!(),
            };
            assert!(
                same(f, got, want) && (f.is_nan(want) || got == want),
                "{op} {f:?} {rm:?} {x:#x} {y:#x}: circuit {got:#x}, reference {want:#x}"
            );
            assert_eq!(g.num_vars(), 0);
        }
    }
}

#[test]
fn add_sub_match_the_reference() {
    check_binary("add", 4000, 1);
    check_binary("sub", 2000, 2);
}

#[test]
fn mul_div_match_the_reference() {
    check_binary("mul", 3000, 3);
    check_binary("div", 1500, 4);
}

#[test]
fn min_max_match_the_reference() {
    check_binary("min", 1000, 5);
    check_binary("max", 1000, 6);
}

#[test]
fn sqrt_fma_match_the_reference() {
    let mut r = Rng::new(7);
    for &f in &FORMATS {
        for i in 0..1500 {
            let rm = RoundingMode::ALL[i % 5];
            let x = float_sample(&mut r, f, None);
            let mut g = Gates::new();
            let got = val(&float::sqrt(&mut g, f, rm, &fw(f, x)));
            let want = ieee::sqrt(f, rm, x);
            assert!(
                same(f, got, want),
                "sqrt {f:?} {rm:?} {x:#x}: {got:#x} vs {want:#x}"
            );
            let y = float_sample(&mut r, f, Some(x));
            let z = float_sample(&mut r, f, Some(x));
            let got = val(&float::fma(&mut g, f, rm, &fw(f, x), &fw(f, y), &fw(f, z)));
            let want = ieee::fma(f, rm, x, y, z);
            assert!(
                same(f, got, want),
                "fma {f:?} {rm:?} {x:#x} {y:#x} {z:#x}: {got:#x} vs {want:#x}"
            );
        }
    }
}

#[test]
fn fma_cancellation_cases() {
    // x·y close to -z, where the exact product's low bits decide the result
    let mut r = Rng::new(8);
    for &f in &FORMATS {
        for i in 0..1500 {
            let rm = RoundingMode::ALL[i % 5];
            let x = float_sample(&mut r, f, None);
            let y = float_sample(&mut r, f, None);
            let p = ieee::mul(f, RoundingMode::ALL[r.below(5) as usize], x, y);
            let z = ieee::neg(f, float_sample(&mut r, f, Some(p)));
            let mut g = Gates::new();
            let got = val(&float::fma(&mut g, f, rm, &fw(f, x), &fw(f, y), &fw(f, z)));
            let want = ieee::fma(f, rm, x, y, z);
            assert!(
                same(f, got, want),
                "fma {f:?} {rm:?} {x:#x} {y:#x} {z:#x}: {got:#x} vs {want:#x}"
            );
        }
    }
}

#[test]
fn comparisons_and_classes_match_the_reference() {
    let mut r = Rng::new(9);
    for &f in &FORMATS {
        for _ in 0..3000 {
            let x = float_sample(&mut r, f, None);
            let y = if r.below(4) == 0 {
                x ^ (r.below(2) << (f.total_bits() - 1))
            } else {
                float_sample(&mut r, f, Some(x))
            };
            let mut g = Gates::new();
            let (a, b) = (fw(f, x), fw(f, y));
            let b2 = |b: Bit| b.as_const().expect("constant");
            assert_eq!(
                b2(float::lt(&mut g, f, &a, &b)),
                ieee::lt(f, x, y),
                "lt {x:#x} {y:#x}"
            );
            assert_eq!(
                b2(float::le(&mut g, f, &a, &b)),
                ieee::le(f, x, y),
                "le {x:#x} {y:#x}"
            );
            assert_eq!(
                b2(float::eq(&mut g, f, &a, &b)),
                ieee::eq(f, x, y),
                "eq {x:#x} {y:#x}"
            );
            assert_eq!(
                b2(float::same(&mut g, f, &a, &b)),
                ieee::same(f, x, y),
                "same {x:#x} {y:#x}"
            );
            let c = float::classify(&mut g, f, &a);
            assert_eq!(b2(c.nan), f.is_nan(x));
            assert_eq!(b2(c.inf), f.is_inf(x));
            assert_eq!(b2(c.zero), ieee::is_zero(f, x));
            assert_eq!(b2(c.subnormal), ieee::is_subnormal(f, x));
            assert_eq!(b2(c.normal), ieee::is_normal(f, x));
            assert_eq!(b2(c.neg), ieee::is_neg(f, x));
        }
    }
}

#[test]
fn conversions_match_the_reference() {
    let mut r = Rng::new(10);
    for i in 0..4000 {
        let rm = RoundingMode::ALL[i % 5];
        let mut g = Gates::new();
        // between formats
        for (from, to) in [
            (FpFormat::F64, FpFormat::F32),
            (FpFormat::F32, FpFormat::F64),
        ] {
            let x = float_sample(&mut r, from, None);
            let got = val(&float::convert(&mut g, from, to, rm, &fw(from, x)));
            let want = ieee::convert(from, to, rm, x);
            assert!(
                same(to, got, want),
                "convert {from:?}->{to:?} {rm:?} {x:#x}"
            );
        }
        // integers to floats, every width and signedness
        for bits in [8u8, 16, 32, 64] {
            for signed in [false, true] {
                let t = IntType::new(bits, signed);
                let raw = match r.below(3) {
                    0 => r.next_u64(),
                    1 => r.next_u64() >> r.below(64),
                    _ => (1u64 << r.below(bits as u64)).wrapping_add(r.below(3)) - 1,
                };
                let v = t.wrap(&BigInt::from(raw));
                let w = Gates::const_big(bits as usize, &v);
                for &f in &FORMATS {
                    let got = val(&float::from_int(&mut g, f, rm, &w, signed, 0));
                    let want = ieee::from_rational(f, rm, &Rational::from_integer(v.clone()));
                    assert_eq!(got, want, "int{bits} {v} -> {f:?} {rm:?}");
                }
            }
        }
        // floats to integers (truncation) and to exact fixed point
        for &f in &FORMATS {
            let x = float_sample(&mut r, f, None);
            for bits in [8u8, 16, 32, 64] {
                for signed in [false, true] {
                    let t = IntType::new(bits, signed);
                    let (w, fits) =
                        float::to_int_trunc(&mut g, f, &fw(f, x), bits as usize, signed);
                    let want = ieee::to_integer_trunc(f, x).filter(|n| t.contains(n));
                    assert_eq!(
                        fits.as_const(),
                        Some(want.is_some()),
                        "fits {f:?} {x:#x} {t:?}"
                    );
                    if let Some(n) = want {
                        let got = word_big(&[], &w, signed);
                        assert_eq!(got, n, "trunc {f:?} {x:#x} {t:?}");
                    }
                }
            }
            let (w, special) = float::to_fixed(&mut g, f, &fw(f, x));
            match f.to_rational(x) {
                None => assert_eq!(special, Bit::TRUE),
                Some(q) => {
                    assert_eq!(special, Bit::FALSE);
                    let got = Rational::new(
                        word_big(&[], &w, true),
                        BigInt::one() << float::fixed_scale(f),
                    );
                    assert_eq!(got, q, "to_fixed {f:?} {x:#x}");
                }
            }
        }
        assert_eq!(g.num_vars(), 0);
    }
}

#[test]
fn machine_integer_division_and_shifts_match_check_bv() {
    let mut r = Rng::new(11);
    for _ in 0..3000 {
        for bits in [8u8, 16, 32] {
            for signed in [false, true] {
                let t = IntType::new(bits, signed);
                let mut pick = || match r.below(4) {
                    0 => t.wrap(&BigInt::from(r.below(5) as i64 - 2)),
                    1 => t.min_value(),
                    _ => t.wrap(&BigInt::from(r.next_u64())),
                };
                let (a, b) = (pick(), pick());
                let mut g = Gates::new();
                let (wa, wb) = (
                    Gates::const_big(bits as usize, &a),
                    Gates::const_big(bits as usize, &b),
                );
                for div in [true, false] {
                    let w = bv_divrem(&mut g, t, &wa, &wb, div);
                    let op = if div { Op::BvDiv } else { Op::BvRem };
                    match check_bv::eval(&op, t, &[a.clone(), b.clone()]) {
                        Some(BvValue::Value(v)) => {
                            assert_eq!(word_big(&[], &w, signed), v, "{op:?} {t:?} {a} {b}")
                        }
                        Some(BvValue::Unspecified) => assert!(b.is_zero()),
                        None => unreachable!(),
                    }
                }
            }
        }
    }
}

/// Solves a formula and returns the outcome.
fn run(f: &Formula) -> Outcome {
    solve(f, &Limits::default()).0
}

fn fp_var(f: &mut Formula, name: &str, fmt: FpFormat) -> Var {
    f.add_var(crate::formula::VarInfo {
        name: name.into(),
        sort: Sort::Fp(fmt),
        domain: crate::formula::Domain::unbounded(),
        origin: crate::formula::VarOrigin::Declared { span: (0, 0) },
        fp_const: None,
    })
}

fn aux(f: &mut Formula, name: &str, sort: Sort) -> Var {
    f.add_var(crate::formula::VarInfo {
        name: name.into(),
        sort,
        domain: crate::formula::Domain::unbounded(),
        origin: crate::formula::VarOrigin::Aux { span: (0, 0) },
        fp_const: None,
    })
}

fn constant(f: &mut Formula, fmt: FpFormat, bits: u64) -> Var {
    let dom = match fmt.to_rational(bits) {
        Some(q) => crate::formula::Domain::point(q),
        None => crate::formula::Domain::unbounded(),
    };
    f.add_var(crate::formula::VarInfo {
        name: format!("c{bits:x}"),
        sort: Sort::Fp(fmt),
        domain: dom,
        origin: crate::formula::VarOrigin::Constant,
        fp_const: Some(bits),
    })
}

/// Through the CNF: with the inputs fixed, any output but the reference's is refuted, and
/// the reference output is found.
#[test]
fn clauses_pin_the_reference_output() {
    let mut r = Rng::new(12);
    let ops = [
        Op::FAdd(RoundingMode::Rne),
        Op::FSub(RoundingMode::Rtz),
        Op::FMul(RoundingMode::Rtp),
        Op::FDiv(RoundingMode::Rtn),
        Op::FSqrt(RoundingMode::Rna),
        Op::FFma(RoundingMode::Rne),
    ];
    for &fmt in &FORMATS {
        for op in &ops {
            for _ in 0..6 {
                let arity = match op {
                    Op::FSqrt(_) => 1,
                    Op::FFma(_) => 3,
                    _ => 2,
                };
                let xs: Vec<u64> = (0..arity)
                    .map(|_| float_sample(&mut r, fmt, None))
                    .collect();
                let want = reference_fp(op, fmt, &xs).expect("reference");
                let mut f = Formula::new();
                let args: Vec<Var> = xs.iter().map(|&b| constant(&mut f, fmt, b)).collect();
                let out = aux(&mut f, "out", Sort::Fp(fmt));
                f.add_def(Def {
                    out,
                    op: op.clone(),
                    args,
                });
                // out differs from the reference: unsat
                let c = constant(&mut f, fmt, want);
                let e = aux(&mut f, "e", Sort::Bool);
                f.add_def(Def {
                    out: e,
                    op: Op::FSame,
                    args: vec![out, c],
                });
                let l = f.bool_lit(e);
                let mut g = f.clone();
                g.add_root(!l);
                assert!(
                    matches!(run(&g), Outcome::Unsat),
                    "{op:?} {fmt:?} {xs:x?}: an output other than {want:#x} was possible"
                );
                f.add_root(l);
                match run(&f) {
                    Outcome::Sat(p) => match &p[out] {
                        Value::Fp(bits) => assert!(same(fmt, *bits, want)),
                        v => panic!("{v:?}"),
                    },
                    o => panic!("{op:?} {fmt:?} {xs:x?}: {o:?}"),
                }
            }
        }
    }
}

/// `x + 1 = x` has no solution with `|x| < 2^24` in binary32 (interval propagation needs
/// one box per float there); and some solution without the bound.
#[test]
fn x_plus_one_equals_x() {
    let fmt = FpFormat::F32;
    let mut f = Formula::new();
    let x = fp_var(&mut f, "x", fmt);
    let one = constant(&mut f, fmt, 0x3f80_0000);
    let s = aux(&mut f, "s", Sort::Fp(fmt));
    f.add_def(Def {
        out: s,
        op: Op::FAdd(RoundingMode::Rne),
        args: vec![x, one],
    });
    let e = aux(&mut f, "e", Sort::Bool);
    f.add_def(Def {
        out: e,
        op: Op::FSame,
        args: vec![x, s],
    });
    let l = f.bool_lit(e);
    f.add_root(l);
    let sat = run(&f);
    let Outcome::Sat(p) = sat else {
        panic!("{sat:?}")
    };
    let Value::Fp(xb) = p[x] else { panic!() };
    assert!(same(
        fmt,
        ieee::add(fmt, RoundingMode::Rne, xb, 0x3f80_0000),
        xb
    ));
    // bound |x| < 2^24
    let lim = constant(&mut f, fmt, 0x4b80_0000);
    let nlim = constant(&mut f, fmt, 0xcb80_0000);
    for (a, b) in [(x, lim), (nlim, x)] {
        let c = aux(&mut f, "c", Sort::Bool);
        f.add_def(Def {
            out: c,
            op: Op::FLt,
            args: vec![a, b],
        });
        let l = f.bool_lit(c);
        f.add_root(l);
    }
    assert!(matches!(run(&f), Outcome::Unsat));
}

/// `to_real` within a window: exact for every float inside it, flagged outside it.
#[test]
fn windowed_fixed_point_is_exact_inside_and_flags_outside() {
    let mut r = Rng::new(13);
    for &f in &FORMATS {
        for _ in 0..4000 {
            let x = float_sample(&mut r, f, None);
            let grain = r.below(80) as i64 - 60;
            let top = grain + r.below(70) as i64;
            let mut g = Gates::new();
            let (w, flag, scale) = float::to_fixed_window(&mut g, f, &fw(f, x), grain, top);
            let inside = f.to_rational(x).filter(|q| {
                let s = Rational::from_integer(BigInt::one() << scale);
                let units = q * &s;
                let pow = |k: i64| {
                    if k >= 0 {
                        Rational::from_integer(BigInt::one() << k as usize)
                    } else {
                        Rational::new(BigInt::one(), BigInt::one() << (-k) as usize)
                    }
                };
                // the window sizes the word (grain: the scale; top: the width, one bit of
                // slack): the flag says whether the exact value fits
                let width = (top + scale as i64 + 2).max(2);
                units.is_integer() && units.abs() < pow(width - 1) && q.abs() <= pow(top + 1)
            });
            match inside {
                Some(q) => {
                    assert_eq!(flag, Bit::FALSE, "{f:?} {x:#x} grain {grain} top {top}");
                    let got = Rational::new(word_big(&[], &w, true), BigInt::one() << scale);
                    assert_eq!(got, q, "{f:?} {x:#x} grain {grain} top {top}");
                }
                None => assert_eq!(flag, Bit::TRUE, "{f:?} {x:#x} grain {grain} top {top}"),
            }
        }
    }
}

#[test]
fn differential_check_finds_no_mismatch() {
    for f in FORMATS {
        let (checks, bad) = super::check::differential(f, 2000, 14);
        assert!(checks >= 2000 * 13, "{checks}");
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
