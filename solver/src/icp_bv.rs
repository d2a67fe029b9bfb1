//! ICP for machine integers: the propagator of the `Bv*` operations and of `Convert` from an
//! integer into a machine type, over the exact integer contractors of
//! [`crate::contractors::bv`].
//!
//! The idea: machine-integer variables are integer variables of the solver restricted to
//! their type's range, with `f64` bounds like every other variable. A propagator reads the
//! boxes as the exact sets of integers they contain (an `f64` end is an integer or rounds
//! inward exactly), contracts with `i128` integer intervals, and posts the results rounded
//! outward to doubles. Below 2^53 every integer is a double and nothing is lost; beyond (64-bit
//! types) a posted end may be looser than the exact one by up to the spacing of doubles there
//! (2048 at 2^64), so ICP stays sound but cannot pin every 64-bit point, and splitting stops
//! at boxes between adjacent doubles: answers there are SAT only when a double-valued point
//! checks exactly, else CANDIDATE SOLUTION (never a wrong SAT: the exact point check of
//! [`crate::model`] decides). Arguments of the mathematical `int` sort (shift counts, the
//! source of `Convert`) may be unbounded: their ends are clamped to ±2^100 for the integer
//! arithmetic, and a clamped end is never posted back (it stands for "beyond every type").
//!
//! Reasons are the bounds of all the propagator's variables, as for the other non-linear
//! operations.

use crate::contractors::bv::{self, BvSet, IntIv};
use crate::formula::{Op, Sort};
use crate::icp::PropKind;
use crate::interval::Interval;
use crate::num::IntType;
use crate::solve::{Conflict, Solver, VarKind};
use crate::var::Var;

/// The operation of a machine-integer propagator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BvOp {
    Add,
    Sub,
    Mul,
    Neg,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Cast,
    /// `Convert` of an integer (any integral sort) into the machine type
    Convert,
}

/// A machine-integer propagator: the operation and the output's type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BvProp {
    pub op: BvOp,
    pub t: IntType,
}

/// Clamp for unbounded `int` arguments (far beyond every machine type).
const BIG: i128 = 1 << 100;

/// Whether `out = op(..)` belongs to this family (`make_prop` routes it here).
pub(crate) fn handles(s: &Solver, out: Var, op: &Op, args: &[Var]) -> bool {
    match op {
        Op::BvAdd
        | Op::BvSub
        | Op::BvMul
        | Op::BvNeg
        | Op::BvDiv
        | Op::BvRem
        | Op::BvAnd
        | Op::BvOr
        | Op::BvXor
        | Op::BvNot
        | Op::BvShl
        | Op::BvShr
        | Op::BvCast => true,
        // from an integer into a machine type; reals into machine types keep the generic
        // (unlinked) conversion, which is sound for their non-integral values
        Op::Convert => {
            matches!(s.vars[out].sort, Sort::MachineInt(_))
                && args.len() == 1
                && s.vars[args[0]].kind == VarKind::Int
        }
        _ => false,
    }
}

/// The propagator kind of a machine-integer definition, or why it is malformed.
pub(crate) fn make_bv_prop(
    s: &Solver,
    out: Var,
    op: &Op,
    args: &[Var],
) -> Result<PropKind, String> {
    let Sort::MachineInt(t) = s.vars[out].sort else {
        return Err(format!(
            "operation {} with a {} output",
            op.name(),
            s.vars[out].sort.name()
        ));
    };
    let (bop, arity) = match op {
        Op::BvAdd => (BvOp::Add, 2),
        Op::BvSub => (BvOp::Sub, 2),
        Op::BvMul => (BvOp::Mul, 2),
        Op::BvNeg => (BvOp::Neg, 1),
        Op::BvDiv => (BvOp::Div, 2),
        Op::BvRem => (BvOp::Rem, 2),
        Op::BvAnd => (BvOp::And, 2),
        Op::BvOr => (BvOp::Or, 2),
        Op::BvXor => (BvOp::Xor, 2),
        Op::BvNot => (BvOp::Not, 1),
        Op::BvShl => (BvOp::Shl, 2),
        Op::BvShr => (BvOp::Shr, 2),
        Op::BvCast => (BvOp::Cast, 1),
        _ => (BvOp::Convert, 1),
    };
    if args.len() != arity {
        return Err(format!(
            "operation {} with {} arguments (expected {arity})",
            op.name(),
            args.len()
        ));
    }
    let sort = |v: Var| s.vars[v].sort;
    let ok = match bop {
        // the shifted value has the output's type, the count any integral sort
        BvOp::Shl | BvOp::Shr => {
            sort(args[0]) == Sort::MachineInt(t) && s.vars[args[1]].kind == VarKind::Int
        }
        BvOp::Cast => matches!(sort(args[0]), Sort::MachineInt(_)),
        BvOp::Convert => s.vars[args[0]].kind == VarKind::Int,
        _ => args.iter().all(|&a| sort(a) == Sort::MachineInt(t)),
    };
    if !ok {
        return Err(format!(
            "operation {} over variables of unexpected sorts",
            op.name()
        ));
    }
    Ok(PropKind::Bv(BvProp { op: bop, t }))
}

/// The integers in a box (exact; unbounded or huge ends clamp to ±[`BIG`]).
pub(crate) fn int_iv(iv: Interval) -> IntIv {
    if iv.is_empty() {
        return IntIv::EMPTY;
    }
    let lo = if iv.lo() == f64::NEG_INFINITY {
        -BIG
    } else {
        let c = iv.lo().ceil();
        // `as` saturates; doubles this large are integers, so the conversion is exact
        let mut x = (c as i128).clamp(-BIG, BIG);
        if iv.lo_open() && c == iv.lo() && x < BIG {
            x += 1;
        }
        x
    };
    let hi = if iv.hi() == f64::INFINITY {
        BIG
    } else {
        let f = iv.hi().floor();
        let mut x = (f as i128).clamp(-BIG, BIG);
        if iv.hi_open() && f == iv.hi() && x > -BIG {
            x -= 1;
        }
        x
    };
    IntIv::new(lo, hi)
}

/// The largest double `<= x` (|x| ≤ 2^100, so `f as i128` is exact).
fn down(x: i128) -> f64 {
    let f = x as f64;
    if f as i128 > x {
        f.next_down()
    } else {
        f
    }
}

/// The smallest double `>= x`.
fn up(x: i128) -> f64 {
    let f = x as f64;
    if (f as i128) < x {
        f.next_up()
    } else {
        f
    }
}

/// An outward `f64` enclosure of an integer interval; clamped ends become infinite.
pub(crate) fn to_interval(iv: IntIv) -> Interval {
    if iv.is_empty() {
        return Interval::EMPTY;
    }
    let lo = if iv.lo <= -BIG {
        f64::NEG_INFINITY
    } else {
        down(iv.lo)
    };
    let hi = if iv.hi >= BIG {
        f64::INFINITY
    } else {
        up(iv.hi)
    };
    Interval::new(lo, false, hi, false)
}

/// Forward: the output's values for argument boxes `a`, `b` (`b` unused by unary ones).
pub(crate) fn bv_fwd(bp: BvProp, src: Option<IntType>, a: IntIv, b: IntIv) -> BvSet {
    let t = bp.t;
    match bp.op {
        BvOp::Add => bv::fwd_add(t, a, b),
        BvOp::Sub => bv::fwd_sub(t, a, b),
        BvOp::Mul => bv::fwd_mul(t, a, b),
        BvOp::Neg => bv::fwd_neg(t, a),
        BvOp::Div => bv::fwd_div(t, a, b),
        BvOp::Rem => bv::fwd_rem(t, a, b),
        BvOp::And => bv::fwd_and(t, a, b),
        BvOp::Or => bv::fwd_or(t, a, b),
        BvOp::Xor => bv::fwd_xor(t, a, b),
        BvOp::Not => bv::fwd_not(t, a),
        BvOp::Shl => bv::fwd_shl(t, a, b),
        BvOp::Shr => bv::fwd_shr(t, a, b),
        BvOp::Cast => {
            // the source's values only (its box is within its type anyway)
            let a = src.map_or(a, |s| a.intersect(bv::range(s)));
            bv::fwd_cast(t, a)
        }
        BvOp::Convert => bv::fwd_convert(t, a),
    }
}

/// Backward: the new box of argument `i` (0 or 1).
pub(crate) fn bv_bwd(bp: BvProp, i: usize, out: IntIv, a: IntIv, b: IntIv) -> IntIv {
    let t = bp.t;
    match (bp.op, i) {
        (BvOp::Add, 0) => bv::bwd_add_a(t, out, a, b),
        (BvOp::Add, _) => bv::bwd_add_b(t, out, a, b),
        (BvOp::Sub, 0) => bv::bwd_sub_a(t, out, a, b),
        (BvOp::Sub, _) => bv::bwd_sub_b(t, out, a, b),
        (BvOp::Mul, 0) => bv::bwd_mul_a(t, out, a, b),
        (BvOp::Mul, _) => bv::bwd_mul_b(t, out, a, b),
        (BvOp::Neg, _) => bv::bwd_neg_a(t, out, a),
        (BvOp::Div, 0) => bv::bwd_div_a(t, out, a, b),
        (BvOp::Div, _) => bv::bwd_div_b(t, out, a, b),
        (BvOp::Rem, 0) => bv::bwd_rem_a(t, out, a, b),
        (BvOp::Rem, _) => bv::bwd_rem_b(t, out, a, b),
        (BvOp::And, 0) => bv::bwd_and_a(t, out, a, b),
        (BvOp::And, _) => bv::bwd_and_a(t, out, b, a),
        (BvOp::Or, 0) => bv::bwd_or_a(t, out, a, b),
        (BvOp::Or, _) => bv::bwd_or_a(t, out, b, a),
        (BvOp::Xor, 0) => bv::bwd_xor_a(t, out, a, b),
        (BvOp::Xor, _) => bv::bwd_xor_b(t, out, a, b),
        (BvOp::Not, _) => bv::bwd_not_a(t, out, a),
        (BvOp::Shl, 0) => bv::bwd_shl_a(t, out, a, b),
        (BvOp::Shl, _) => bv::bwd_shift_k(t, true, out, a, b),
        (BvOp::Shr, 0) => bv::bwd_shr_a(t, out, a, b),
        (BvOp::Shr, _) => bv::bwd_shift_k(t, false, out, a, b),
        (BvOp::Cast, _) => bv::bwd_cast_a(t, out, a),
        (BvOp::Convert, _) => bv::bwd_convert_a(t, out, a),
    }
}

impl Solver {
    /// The integers in the box of `v`.
    fn int_box(&self, v: Var) -> IntIv {
        int_iv(self.ibox(v))
    }

    /// Runs machine-integer propagator `p`: forward into the output, then backward into each
    /// argument on the current boxes.
    pub(crate) fn run_bv(&mut self, p: u32) -> Result<(), Conflict> {
        let (bp, out, a, b) = {
            let pr = &self.props[p as usize];
            let PropKind::Bv(bp) = pr.kind else {
                unreachable!("run_bv on a machine-integer propagator")
            };
            (bp, pr.out, pr.args[0], pr.args.get(1).copied())
        };
        let src = match self.vars[a].sort {
            Sort::MachineInt(s) => Some(s),
            _ => None,
        };
        let mut all = [out, a, a];
        let n = if let Some(b) = b {
            all[2] = b;
            3
        } else {
            2
        };
        // unary operations read their (absent) second argument as the empty-free whole line
        let whole = IntIv::new(-BIG, BIG);
        let bbox = |s: &Self| b.map_or(whole, |b| s.int_box(b));
        // forward: the image is cut by the output's box piece by piece (a wrapped image has
        // two), so the output's bounds are part of the reason too
        let (ai, bi) = (self.int_box(a), bbox(self));
        let o = self.int_box(out);
        let f = bv_fwd(bp, src, ai, bi).cut(o);
        self.post_both(p, out, to_interval(f), &all[..n])?;
        // backward
        let (o, ai, bi) = (self.int_box(out), self.int_box(a), bbox(self));
        let na = bv_bwd(bp, 0, o, ai, bi);
        self.post_both(p, a, to_interval(na), &all[..n])?;
        if let Some(b) = b {
            let (o, ai, bi) = (self.int_box(out), self.int_box(a), self.int_box(b));
            let nb = bv_bwd(bp, 1, o, ai, bi);
            self.post_both(p, b, to_interval(nb), &all[..n])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_convert_exactly_and_back_outward() {
        assert_eq!(
            int_iv(Interval::new(0.5, false, 3.0, true)),
            IntIv::new(1, 2)
        );
        assert_eq!(
            int_iv(Interval::new(1.0, true, 3.0, false)),
            IntIv::new(2, 3)
        );
        assert_eq!(int_iv(Interval::ENTIRE), IntIv::new(-BIG, BIG));
        assert!(int_iv(Interval::open(1.0, 2.0)).is_empty());
        // 2^64 - 1 is not a double: the box [0, 2^64) holds exactly the uint64 values
        let two64 = 2f64.powi(64);
        assert_eq!(
            int_iv(Interval::new(0.0, false, two64, true)),
            IntIv::new(0, u64::MAX as i128)
        );
        let back = to_interval(IntIv::new(-(1 << 60) - 1, u64::MAX as i128));
        assert!(back.lo() <= -(2f64.powi(60)) - 1.0 && back.hi() >= two64);
        assert!(back.contains_rational(&crate::num::Rational::from_integer(
            num_bigint::BigInt::from(u64::MAX)
        )));
        assert_eq!(
            to_interval(IntIv::new(-BIG, 5)),
            Interval::at_most(5.0, false)
        );
    }
}
