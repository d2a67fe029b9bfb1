//! IC3's printed lemmas read back with the engine's meaning (issue #23 item 4).
//!
//! `--check-certificate` parses the printed invariant back as `.hys` and re-checks it, so a
//! printed lemma must mean exactly what the engine's cube meant. The property test prints
//! random lemmas over every state type and compares, on the neighbouring values of every
//! constant (neighbouring floats, both zeros, infinities, NaN, the integers around it, the
//! ends of a machine type), the reader's meaning — the exact `.hys` evaluator on the
//! parsed text — with the engine's meaning written out here from the solver's rules (a
//! bound on an IEEE variable is a bound on its value, `±inf` at the ends, NaN held as 0).

mod common;

use frontend::hys::eval::{eval_all, PointValue, Truth};
use frontend::hys::{load, Lowered};
use frontend::ts_cmd::check_printed_invariant;
use ic3::ic3::certificate::Certificate;
use ic3::ic3::cube::{CLit, Cube};
use ic3::Invariant;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use solver::formula::Sort;
use solver::num::{ieee, FpFormat, Rational, RoundingMode};
use solver::Rel;
use std::cmp::Ordering;

/// The state of the property test: one variable of every type (declaration order = index).
const DECLS: &str = "DECL\n  fp32 a;\n  fp64 b;\n  float [-1e400, 1e400] r;\n  \
                     int [-1e30, 1e30] i;\n  uint8 u;\n  int16 s;\n  boole p;\n";

fn state_ts() -> ic3::TransitionSystem {
    let text = format!("{DECLS}INIT\n  p;\nTRANS\n  p' = p;\nTARGET\n  !p;\n");
    let loaded = load(&text).expect("the test system loads");
    match loaded.lowered {
        Lowered::Transition(ts) => ts,
        _ => panic!("not a transition system"),
    }
}

fn opts() -> frontend::ts_cmd::TsOptions {
    common::certificate_check_options()
}

/// The failure: over binary32, the lemma `x > -2^-149` (x is not a negative
/// non-zero float) is inductive for `x' = x * 0.5` from `x = 0`, but its printed form
/// `x > -1/713623846352979940529142984724747568191373312` was read as an fp division
/// `-1 / inf = -0`, i.e. `x > 0`, which `x = 0` violates: the check rejected initiation.
#[test]
fn smallest_subnormal_bound_passes_the_certificate_check() {
    let source = "DECL\n  fp32 x;\nINIT\n  x = 0.0;\nTRANS\n  x' = x * 0.5;\nTARGET\n  x < -1.0;\n";
    let loaded = load(source).expect("loads");
    let Lowered::Transition(ts) = &loaded.lowered else {
        panic!("not a transition system")
    };
    let tiny = Rational::from_float(2f64.powi(-149)).unwrap();
    let cert = Certificate {
        lemmas: vec![Cube::new(vec![CLit::Bound {
            var: 0,
            rel: Rel::Le,
            value: -tiny,
        }])],
        suffix: 0,
        distinct: false,
    };
    let inv = Invariant {
        lines: cert.lines(ts),
        suffix: 0,
        distinct: false,
        cubes: Vec::new(),
    };
    let checked = check_printed_invariant(source, ts, &inv, &opts());
    assert!(checked.is_ok(), "{checked:?}");
    assert_eq!(inv.lines, vec!["(x > -0x1p-149 or isnan(x));".to_string()]);
}

/// A constant: exact floats of both formats (subnormals and zeros included), powers of two
/// far beyond both formats, and fractions with large numerators and denominators.
fn constant() -> impl Strategy<Value = Rational> {
    prop_oneof![
        any::<u32>().prop_filter_map("finite binary32", |b| FpFormat::F32.to_rational(b as u64)),
        any::<u64>().prop_filter_map("finite binary64", |b| FpFormat::F64.to_rational(b)),
        // subnormals of both formats
        (any::<bool>(), 1u64..(1 << 23))
            .prop_map(|(n, m)| fp_value(FpFormat::F32, (n as u64) << 31 | m)),
        (any::<bool>(), 1u64..(1 << 52))
            .prop_map(|(n, m)| fp_value(FpFormat::F64, (n as u64) << 63 | m)),
        Just(Rational::zero()),
        (any::<bool>(), -1200i32..1200, 1i64..8).prop_map(|(n, e, m)| {
            let p = if e >= 0 {
                Rational::from_integer(BigInt::one() << e as usize)
            } else {
                Rational::new(BigInt::one(), BigInt::one() << (-e) as usize)
            };
            let q = p * Rational::from_integer(m.into());
            if n {
                -q
            } else {
                q
            }
        }),
        (any::<i64>(), 1i64..i64::MAX).prop_map(|(n, d)| Rational::new(n.into(), d.into())),
        (-400i64..400, 1i64..12).prop_map(|(n, d)| Rational::new(n.into(), d.into())),
    ]
}

fn fp_value(f: FpFormat, bits: u64) -> Rational {
    f.to_rational(bits).expect("finite")
}

fn rel() -> impl Strategy<Value = Rel> {
    prop_oneof![Just(Rel::Le), Just(Rel::Lt), Just(Rel::Ge), Just(Rel::Gt)]
}

/// One cube literal over the test state (variables 0..=6 as in [`DECLS`]).
fn clit() -> impl Strategy<Value = CLit> {
    prop_oneof![
        4 => (0usize..6, rel(), constant()).prop_map(|(var, rel, value)| CLit::Bound {
            var,
            rel,
            value
        }),
        1 => (0usize..2, any::<bool>()).prop_map(|(var, val)| CLit::Nan { var, val }),
        1 => (0usize..2, any::<bool>()).prop_map(|(var, val)| CLit::Neg { var, val }),
        1 => any::<bool>().prop_map(|val| CLit::Bool { var: 6, val }),
    ]
}

fn sort_of(var: usize) -> Sort {
    state_ts().state[var].sort
}

/// The engine's value of `x rel q` at a value (written out from the solver's documented
/// rules, independently of the printer).
fn engine_bound(ord: Ordering, rel: Rel) -> bool {
    match rel {
        Rel::Le => ord != Ordering::Greater,
        Rel::Lt => ord == Ordering::Less,
        Rel::Ge => ord != Ordering::Less,
        Rel::Gt => ord == Ordering::Greater,
    }
}

/// Does cube literal `l` hold at `point` in the engine's reading?
fn engine_holds(l: &CLit, point: &[PointValue]) -> bool {
    match (l, &point[l.var()]) {
        (CLit::Bool { val, .. }, PointValue::Bool(b)) => val == b,
        (CLit::Nan { var, val }, PointValue::Fp(bits)) => {
            let Sort::Fp(f) = sort_of(*var) else { panic!() };
            f.is_nan(*bits) == *val
        }
        (CLit::Neg { var, val }, PointValue::Fp(bits)) => {
            // the canonical NaN has its sign flag clear
            let Sort::Fp(f) = sort_of(*var) else { panic!() };
            (!f.is_nan(*bits) && f.is_negative(*bits)) == *val
        }
        (CLit::Bound { var, rel, value }, PointValue::Fp(bits)) => {
            let Sort::Fp(f) = sort_of(*var) else { panic!() };
            let ord = if f.is_nan(*bits) {
                // NaN is held as the value 0
                Rational::zero().cmp(value)
            } else if f.is_inf(*bits) {
                if f.is_negative(*bits) {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            } else {
                fp_value(f, *bits).cmp(value)
            };
            engine_bound(ord, *rel)
        }
        (CLit::Bound { rel, value, .. }, PointValue::Num(x)) => engine_bound(x.cmp(value), *rel),
        (l, v) => panic!("literal {l:?} at value {v:?}"),
    }
}

/// Values of variable `var` around the constants of the cube's literals on it.
fn neighbours(var: usize, consts: &[Rational]) -> Vec<PointValue> {
    match sort_of(var) {
        Sort::Fp(f) => {
            let sign = 1u64 << (f.total_bits() - 1);
            let max = f.max_finite_bits();
            let mut bits = vec![
                0,
                sign,
                f.inf_bits(),
                f.inf_bits() | sign,
                f.nan_bits(),
                max,
                max | sign,
                1,
                1 | sign,
            ];
            for q in consts {
                for rm in [RoundingMode::Rtn, RoundingMode::Rtp] {
                    let b = f.round_rational(q, rm);
                    bits.extend([ieee::next_down(f, b), b, ieee::next_up(f, b)]);
                }
            }
            bits.sort_unstable();
            bits.dedup();
            bits.into_iter().map(PointValue::Fp).collect()
        }
        Sort::Real => {
            // a step below any constant's own granularity, small enough for the evaluator's
            // exact numbers (at most 2048 bits: a relative step of 2^-64, or 2^-1300 at 0)
            let mut v = vec![Rational::zero()];
            for q in consts {
                let eps = if q.is_zero() {
                    Rational::new(BigInt::one(), BigInt::one() << 1300usize)
                } else {
                    q.abs() / Rational::from_integer(BigInt::one() << 64usize)
                };
                v.extend([q - &eps, q.clone(), q + &eps]);
            }
            v.into_iter().map(PointValue::Num).collect()
        }
        Sort::Int | Sort::MachineInt(_) => {
            let (lo, hi) = match sort_of(var) {
                Sort::MachineInt(t) => (
                    Rational::from_integer(t.min_value()),
                    Rational::from_integer(t.max_value()),
                ),
                _ => {
                    let e = Rational::from_integer(BigInt::from(10).pow(30));
                    (-e.clone(), e)
                }
            };
            let one = Rational::one();
            let mut v = vec![lo.clone(), hi.clone(), Rational::zero()];
            for q in consts {
                let (fl, ce) = (q.floor(), q.ceil());
                v.extend([&fl - &one, fl, ce.clone(), ce + &one]);
            }
            v.retain(|x| *x >= lo && *x <= hi);
            v.into_iter().map(PointValue::Num).collect()
        }
        Sort::Bool => vec![PointValue::Bool(false), PointValue::Bool(true)],
    }
}

/// A value of every variable that is not in the cube (it does not occur in the lemma).
fn base_point() -> Vec<PointValue> {
    vec![
        PointValue::Fp(0),
        PointValue::Fp(0),
        PointValue::Num(Rational::zero()),
        PointValue::Num(Rational::zero()),
        PointValue::Num(Rational::zero()),
        PointValue::Num(Rational::zero()),
        PointValue::Bool(false),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn printed_lemmas_mean_what_the_engine_means(lits in prop::collection::vec(clit(), 1..4)) {
        let ts = state_ts();
        let cube = Cube::new(lits);
        let lemma = cube.lemma_text(&ts);
        let loaded = load(&format!("{DECLS}EXPR\n  {lemma};\n"));
        let loaded = match loaded {
            Ok(l) => l,
            Err(d) => panic!("`{lemma}` does not read back: {}", d[0].message),
        };
        let constraints = &loaded.checked.sections()[0].constraints;
        // the product of the neighbourhoods of the cube's variables
        let mut vars: Vec<usize> = cube.0.iter().map(|l| l.var()).collect();
        vars.dedup();
        let mut points = vec![base_point()];
        for &v in &vars {
            let consts: Vec<Rational> = cube
                .0
                .iter()
                .filter_map(|l| match l {
                    CLit::Bound { var, value, .. } if *var == v => Some(value.clone()),
                    _ => None,
                })
                .collect();
            let vals = neighbours(v, &consts);
            points = points
                .iter()
                .flat_map(|p| {
                    vals.iter().map(move |x| {
                        let mut p = p.clone();
                        p[v] = x.clone();
                        p
                    })
                })
                .collect();
        }
        for p in &points {
            let engine = !cube.0.iter().all(|l| engine_holds(l, p));
            let read = eval_all(&loaded.checked, constraints, p, &[]);
            let want = if engine { Truth::True } else { Truth::False };
            prop_assert_eq!(read, want, "lemma `{}` of cube {:?} at {:?}", lemma, cube, p);
        }
    }
}
