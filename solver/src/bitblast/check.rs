//! The bit-blasting circuits against the exact IEEE reference (`num::ieee`), by constant
//! folding: with constant inputs every circuit folds to its output without a single clause,
//! which must equal the reference bit for bit. The unit tests run this on thousands of
//! points; `cargo run --release -p solver --example bitblast_diff` on millions.

use super::float;
use super::gates::{Gates, Word};
use crate::num::{ieee, FpFormat, RoundingMode};

/// xorshift64*: deterministic, seedable.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A float with special values, subnormals, extremes and values near each other weighted in.
pub fn float_sample(r: &mut Rng, f: FpFormat, near: Option<u64>) -> u64 {
    let n = f.total_bits();
    let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let sign = (r.next_u64() & 1) << (n - 1);
    let frac_mask = (1u64 << (f.precision() - 1)) - 1;
    match r.below(16) {
        0 => sign,                                      // ±0
        1 => sign | f.inf_bits(),                       // ±inf
        2 => f.nan_bits() | (r.next_u64() & frac_mask), // NaN (payloads vary)
        3 => sign | (r.next_u64() & frac_mask),         // subnormal
        4 => sign | (f.max_finite_bits() - r.below(4)),
        5 => sign | ((1u64 << (f.precision() - 1)) + r.below(4)), // min normal
        6 | 7 => {
            // near another operand: close exponent and significand
            let base = near.unwrap_or(r.next_u64() & mask);
            let delta = r.below(1 << 6) as i64 - 32;
            let shifted = (base as i64).wrapping_add(delta << r.below(f.precision() as u64)) as u64;
            (shifted & mask) ^ (r.next_u64() & 1) << (n - 1)
        }
        8 => {
            // small integers
            let k = r.below(1 << 12) as f64;
            let bits = crate::num::ieee::from_f64(f, k).unwrap_or(0);
            sign | bits
        }
        9 => {
            // exponent near 1
            let e = f.emax() as u64 + r.below(8) - 4;
            sign | (e << (f.precision() - 1)) | (r.next_u64() & frac_mask)
        }
        _ => r.next_u64() & mask,
    }
}

fn fw(f: FpFormat, bits: u64) -> Word {
    float::const_float(f, bits)
}

fn val(w: &[super::gates::Bit]) -> Option<u64> {
    Gates::const_value(w).map(|v| v as u64)
}

/// Runs `iters` random inputs (special values weighted in) through every IEEE circuit of
/// format `f` in every rounding mode; returns the number of comparisons and the mismatches.
pub fn differential(f: FpFormat, iters: u64, seed: u64) -> (u64, Vec<String>) {
    let mut r = Rng::new(seed);
    let mut checks = 0;
    let mut bad = Vec::new();
    let same =
        |a: Option<u64>, b: u64| a.is_some_and(|a| ieee::same(f, a, b) && (f.is_nan(b) || a == b));
    let other = match f {
        FpFormat::F32 => FpFormat::F64,
        FpFormat::F64 => FpFormat::F32,
    };
    for i in 0..iters {
        let rm = RoundingMode::ALL[(i % 5) as usize];
        let x = float_sample(&mut r, f, None);
        let y = float_sample(&mut r, f, Some(x));
        let z = float_sample(&mut r, f, Some(x));
        let mut g = Gates::new();
        let (a, b, c) = (fw(f, x), fw(f, y), fw(f, z));
        let results = [
            (
                "add",
                val(&float::add(&mut g, f, rm, &a, &b)),
                ieee::add(f, rm, x, y),
            ),
            (
                "sub",
                val(&float::sub(&mut g, f, rm, &a, &b)),
                ieee::sub(f, rm, x, y),
            ),
            (
                "mul",
                val(&float::mul(&mut g, f, rm, &a, &b)),
                ieee::mul(f, rm, x, y),
            ),
            (
                "div",
                val(&float::div(&mut g, f, rm, &a, &b)),
                ieee::div(f, rm, x, y),
            ),
            (
                "sqrt",
                val(&float::sqrt(&mut g, f, rm, &a)),
                ieee::sqrt(f, rm, x),
            ),
            (
                "fma",
                val(&float::fma(&mut g, f, rm, &a, &b, &c)),
                ieee::fma(f, rm, x, y, z),
            ),
            (
                "min",
                val(&float::min(&mut g, f, &a, &b)),
                ieee::min(f, x, y),
            ),
            (
                "max",
                val(&float::max(&mut g, f, &a, &b)),
                ieee::max(f, x, y),
            ),
        ];
        for (name, got, want) in results {
            checks += 1;
            if !same(got, want) {
                bad.push(format!("{name} {f:?} {rm:?} {x:#x} {y:#x} {z:#x}: circuit {got:x?}, reference {want:#x}"));
            }
        }
        // conversion to the other format
        checks += 1;
        let got = val(&float::convert(&mut g, f, other, rm, &a));
        let want = ieee::convert(f, other, rm, x);
        if !got.is_some_and(|v| ieee::same(other, v, want)) {
            bad.push(format!(
                "convert {f:?} {rm:?} {x:#x}: circuit {got:x?}, reference {want:#x}"
            ));
        }
        let bits = |b: super::gates::Bit| b.as_const();
        for (name, got, want) in [
            ("lt", bits(float::lt(&mut g, f, &a, &b)), ieee::lt(f, x, y)),
            ("le", bits(float::le(&mut g, f, &a, &b)), ieee::le(f, x, y)),
            ("eq", bits(float::eq(&mut g, f, &a, &b)), ieee::eq(f, x, y)),
            (
                "same",
                bits(float::same(&mut g, f, &a, &b)),
                ieee::same(f, x, y),
            ),
        ] {
            checks += 1;
            if got != Some(want) {
                bad.push(format!(
                    "{name} {f:?} {x:#x} {y:#x}: circuit {got:?}, reference {want}"
                ));
            }
        }
        // bit reinterpretation: exactly the reference patterns, and Rust's to_bits/from_bits
        // (which keep NaN payloads: only NaN-ness is compared there)
        let u = if i % 2 == 0 {
            x
        } else {
            float_sample(&mut r, f, Some(y))
        };
        let rust_bits = |b: u64| match f {
            FpFormat::F32 => f32::from_bits(b as u32).to_bits() as u64,
            FpFormat::F64 => f64::from_bits(b).to_bits(),
        };
        let rust_nan = |b: u64| match f {
            FpFormat::F32 => f32::from_bits(b as u32).is_nan(),
            FpFormat::F64 => f64::from_bits(b).is_nan(),
        };
        checks += 2;
        let got = val(&float::to_bits(&mut g, f, &a));
        let want = ieee::to_bits(f, x);
        let rust_ok = if f.is_nan(x) {
            rust_nan(x) && want == f.nan_bits()
        } else {
            rust_bits(x) == want
        };
        if got != Some(want) || !rust_ok {
            bad.push(format!(
                "fp_bits {f:?} {x:#x}: circuit {got:x?}, reference {want:#x}, rust {:#x}",
                rust_bits(x)
            ));
        }
        let got = val(&float::of_bits(&fw(f, u)));
        let want = ieee::of_bits(f, u);
        let rust_ok = if rust_nan(u) {
            f.is_nan(want)
        } else {
            let rust_val = match f {
                FpFormat::F32 => f32::from_bits(u as u32) as f64,
                FpFormat::F64 => f64::from_bits(u),
            };
            want == rust_bits(u) && ieee::to_f64(f, want).to_bits() == rust_val.to_bits()
        };
        if !same(got, want) || !rust_ok {
            bad.push(format!(
                "fp_of_bits {f:?} {u:#x}: circuit {got:x?}, reference {want:#x}"
            ));
        }
        if g.num_vars() != 0 {
            bad.push(format!(
                "constant inputs created gates at {x:#x} {y:#x} {z:#x}"
            ));
        }
        if bad.len() > 20 {
            break;
        }
    }
    (checks, bad)
}
