//! The ICP solver on bit reinterpretation (`Op::FpToBits`, `Op::FpOfBits`) against brute
//! force: each random problem restricts a pattern to a window of a few dozen integers, so its
//! solutions can be enumerated; SAT answers are re-checked with `num::ieee`, UNSAT answers
//! must have no solution in the window. With `--features check-deductions` every IEEE
//! deduction of the propagators is re-checked on the way.

use solver::formula::{Atom, Def, Domain, Formula, Op, Sort, VarInfo, VarOrigin};
use solver::num::ieee;
use solver::{FpFormat, IntType, Rational, Rel, SolveResult, Solver, SolverConfig, Value, Var};

fn q(v: i128) -> Rational {
    Rational::from_integer(v.into())
}

fn var(f: &mut Formula, sort: Sort, domain: Domain, konst: Option<u64>) -> Var {
    f.add_var(VarInfo {
        name: format!("v{}", f.vars.len()),
        sort,
        domain,
        origin: if konst.is_some() {
            VarOrigin::Constant
        } else {
            VarOrigin::Declared { span: (0, 0) }
        },
        fp_const: konst,
    })
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The extra condition on the float: `x < c`, `!(x < c)`, `isnan(x)` or `!isnan(x)`.
#[derive(Clone, Copy, Debug)]
enum Extra {
    Lt(u64, bool),
    Nan(bool),
}

impl Extra {
    fn holds(self, f: FpFormat, x: u64) -> bool {
        match self {
            Extra::Lt(c, pos) => ieee::lt(f, x, c) == pos,
            Extra::Nan(pos) => f.is_nan(x) == pos,
        }
    }
}

/// A pattern near a special one or random.
fn pattern(r: &mut Rng, f: FpFormat) -> u64 {
    let w = f.total_bits();
    let mask = u64::MAX >> (64 - w);
    let s = 1u64 << (w - 1);
    let specials = [
        0,
        s,
        f.inf_bits(),
        s | f.inf_bits(),
        f.nan_bits(),
        mask,
        s - 1,
    ];
    let base = if r.below(2) == 0 {
        specials[r.below(specials.len() as u64) as usize]
    } else {
        r.next()
    };
    base.wrapping_add(r.below(32)).wrapping_sub(16) & mask
}

/// Runs `n` problems of format `f`; returns (sat, unsat, candidate/unknown) counts.
fn run(f: FpFormat, n: usize, seed: u64) -> (usize, usize, usize) {
    let mut r = Rng(seed);
    let w = f.total_bits();
    let t = IntType::new(w as u8, false);
    let tmax = (1i128 << w) - 1;
    let mut counts = (0, 0, 0);
    for case in 0..n {
        let p = pattern(&mut r, f) as i128;
        let (lo, hi) = (
            (p - r.below(20) as i128).max(0),
            (p + r.below(20) as i128).min(tmax),
        );
        let extra = if r.below(2) == 0 {
            Extra::Lt(pattern(&mut r, f), r.below(2) == 0)
        } else {
            Extra::Nan(r.below(2) == 0)
        };
        let to_bits = case % 2 == 0;
        let mut fm = Formula::new();
        let x = var(&mut fm, Sort::Fp(f), Domain::unbounded(), None);
        let u = var(
            &mut fm,
            Sort::MachineInt(t),
            Domain::closed(q(0), q(tmax)),
            None,
        );
        if to_bits {
            fm.add_def(Def {
                out: u,
                op: Op::FpToBits,
                args: vec![x],
            });
        } else {
            fm.add_def(Def {
                out: x,
                op: Op::FpOfBits,
                args: vec![u],
            });
        }
        for (rel, v) in [(Rel::Ge, lo), (Rel::Le, hi)] {
            let l = fm.atom_lit(Atom::Bound {
                var: u,
                rel,
                value: q(v),
            });
            fm.add_root(l);
        }
        let b = var(&mut fm, Sort::Bool, Domain::unbounded(), None);
        let pos = match extra {
            Extra::Lt(c, pos) => {
                let c = var(&mut fm, Sort::Fp(f), Domain::unbounded(), Some(c));
                fm.add_def(Def {
                    out: b,
                    op: Op::FLt,
                    args: vec![x, c],
                });
                pos
            }
            Extra::Nan(pos) => {
                fm.add_def(Def {
                    out: b,
                    op: Op::IsNan,
                    args: vec![x],
                });
                pos
            }
        };
        let l = fm.atom_lit(Atom::Bool(b));
        fm.add_root(if pos { l } else { !l });
        // brute force over the window
        let mask = u64::MAX >> (64 - w);
        let solutions: Vec<u64> = (lo..=hi)
            .map(|v| (v as u64) & mask)
            .filter(|&v| !to_bits || !f.is_nan(v) || v == f.nan_bits())
            .map(|v| ieee::of_bits(f, v))
            .filter(|&xv| extra.holds(f, xv))
            .collect();
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        s.set_time_limit(std::time::Duration::from_secs(10));
        let m = s.add_formula(&fm);
        let res = s.solve(&[]);
        let what = format!(
            "case {case}: {} window [{lo:#x}, {hi:#x}], {extra:?}: {res:?}",
            if to_bits { "fp_bits" } else { "fp_of_bits" }
        );
        match &res {
            SolveResult::Sat(md) => {
                let (Some(Value::Fp(xv)), Some(Value::Num(uv))) =
                    (md.value(m.var(x)), md.value(m.var(u)))
                else {
                    panic!("no point: {what}");
                };
                let uv: i128 = uv.to_integer().try_into().unwrap();
                assert!(lo <= uv && uv <= hi, "{what}");
                let ok = if to_bits {
                    ieee::to_bits(f, *xv) as i128 == uv
                } else {
                    ieee::same(f, ieee::of_bits(f, uv as u64), *xv)
                };
                assert!(ok && extra.holds(f, *xv), "wrong model: {what}");
                counts.0 += 1;
            }
            SolveResult::Unsat => {
                assert!(
                    solutions.is_empty(),
                    "UNSAT but {:x?} solve: {what}",
                    solutions
                );
                counts.1 += 1;
            }
            _ => counts.2 += 1,
        }
        // a 32-bit window is exact in ICP: every answer is decided
        if w == 32 {
            assert!(
                !matches!(res, SolveResult::Candidate(_) | SolveResult::Unknown(_)),
                "{what}"
            );
        }
    }
    counts
}

#[test]
fn fp32_bits_against_brute_force() {
    let n = if cfg!(feature = "check-deductions") {
        300
    } else {
        600
    };
    let (sat, unsat, other) = run(FpFormat::F32, n, 0x5eed);
    eprintln!("fp32: {sat} sat, {unsat} unsat, {other} other");
    assert!(sat > 0 && unsat > 0);
}

#[test]
fn fp64_bits_against_brute_force() {
    let n = if cfg!(feature = "check-deductions") {
        300
    } else {
        600
    };
    let (sat, unsat, other) = run(FpFormat::F64, n, 0xfeed);
    eprintln!("fp64: {sat} sat, {unsat} unsat, {other} candidate/unknown");
    assert!(sat > 0 && unsat > 0);
}
