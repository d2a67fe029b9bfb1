//! The independent slow checker of the machine-integer operations: exact big-integer
//! evaluation on points, with C semantics (language doc Part B).
//!
//! The idea: the contractors of [`super::bv`] use `i128` interval arithmetic, Warren's bit
//! algorithms and modular inverses; this module shares none of that. It computes the
//! mathematical result with `BigInt` and reduces it with [`IntType::wrap`] — the definition of
//! wrap-around — so a disagreement points at the contractor. Results that the language leaves
//! unspecified (division or remainder by 0, a shift count outside `[0, width)`) are reported
//! as such: any output value satisfies the definition there.

use crate::formula::Op;
use crate::num::{IntType, Rational};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

/// The value of a machine-integer operation at a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BvValue {
    Value(BigInt),
    /// any value of the output type
    Unspecified,
}

/// `true` for the operations this checker evaluates.
pub fn is_bv(op: &Op) -> bool {
    matches!(
        op,
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
            | Op::BvCast
    )
}

/// Evaluates `op(args)` with output type `t`; `None` for other operations, an arity
/// mismatch, or an argument outside the operand's type (arguments of `BvCast` may be of any
/// machine type, shift counts of any integer sort).
pub fn eval(op: &Op, t: IntType, args: &[BigInt]) -> Option<BvValue> {
    let ok = |v: &BigInt| t.contains(v);
    let v = match (op, args) {
        (Op::BvAdd, [a, b]) if ok(a) && ok(b) => a + b,
        (Op::BvSub, [a, b]) if ok(a) && ok(b) => a - b,
        (Op::BvMul, [a, b]) if ok(a) && ok(b) => a * b,
        (Op::BvNeg, [a]) if ok(a) => -a,
        (Op::BvNot, [a]) if ok(a) => !a,
        // BigInt's bitwise operations act on the infinite two's complement, which agrees with
        // the n-bit one after wrapping
        (Op::BvAnd, [a, b]) if ok(a) && ok(b) => a & b,
        (Op::BvOr, [a, b]) if ok(a) && ok(b) => a | b,
        (Op::BvXor, [a, b]) if ok(a) && ok(b) => a ^ b,
        (Op::BvDiv | Op::BvRem, [a, b]) if ok(a) && ok(b) => {
            if b.is_zero() {
                return Some(BvValue::Unspecified);
            }
            // BigInt `/` and `%` truncate toward zero, like C's
            if *op == Op::BvDiv {
                a / b
            } else {
                a % b
            }
        }
        (Op::BvShl | Op::BvShr, [a, k]) if ok(a) => {
            let Some(k) = k.to_u32().filter(|&k| k < t.bits as u32) else {
                return Some(BvValue::Unspecified);
            };
            if *op == Op::BvShl {
                a * (BigInt::from(1) << k)
            } else {
                // floor division by 2^k: arithmetic shift for negative values
                let d = BigInt::from(1) << k;
                num_integer::Integer::div_floor(a, &d)
            }
        }
        (Op::BvCast, [a]) => a.clone(),
        _ => return None,
    };
    Some(BvValue::Value(t.wrap(&v)))
}

/// [`eval`] on rational arguments (they must be integers).
pub fn eval_rational(op: &Op, t: IntType, args: &[Rational]) -> Option<BvValue> {
    let ints: Option<Vec<BigInt>> = args
        .iter()
        .map(|q| q.is_integer().then(|| q.to_integer()))
        .collect();
    eval(op, t, &ints?)
}

/// Whether `out = op(args)` holds (unspecified results hold for every `out` of the type).
pub fn holds(op: &Op, t: IntType, args: &[BigInt], out: &BigInt) -> Option<bool> {
    Some(match eval(op, t, args)? {
        BvValue::Value(v) => v == *out,
        BvValue::Unspecified => t.contains(out),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: i64) -> BigInt {
        BigInt::from(v)
    }

    #[test]
    fn c_semantics() {
        let i8t = IntType::new(8, true);
        let u8t = IntType::new(8, false);
        let v = |op: Op, t: IntType, args: &[i64]| {
            let a: Vec<BigInt> = args.iter().map(|&x| b(x)).collect();
            eval(&op, t, &a).unwrap()
        };
        assert_eq!(v(Op::BvAdd, i8t, &[127, 1]), BvValue::Value(b(-128)));
        assert_eq!(v(Op::BvMul, u8t, &[171, 3]), BvValue::Value(b(1)));
        assert_eq!(v(Op::BvDiv, i8t, &[-128, -1]), BvValue::Value(b(-128)));
        assert_eq!(v(Op::BvRem, i8t, &[-7, 2]), BvValue::Value(b(-1)));
        assert_eq!(v(Op::BvDiv, i8t, &[5, 0]), BvValue::Unspecified);
        assert_eq!(v(Op::BvShr, i8t, &[-7, 1]), BvValue::Value(b(-4)));
        assert_eq!(v(Op::BvShr, u8t, &[255, 7]), BvValue::Value(b(1)));
        assert_eq!(v(Op::BvShl, i8t, &[-1, 7]), BvValue::Value(b(-128)));
        assert_eq!(v(Op::BvShl, i8t, &[1, 8]), BvValue::Unspecified);
        assert_eq!(v(Op::BvNot, u8t, &[5]), BvValue::Value(b(250)));
        assert_eq!(v(Op::BvAnd, i8t, &[-1, 15]), BvValue::Value(b(15)));
        assert_eq!(v(Op::BvCast, i8t, &[200]), BvValue::Value(b(-56)));
        assert_eq!(eval(&Op::BvAdd, u8t, &[b(256), b(0)]), None);
        assert_eq!(holds(&Op::BvRem, u8t, &[b(1), b(0)], &b(77)), Some(true));
    }
}
