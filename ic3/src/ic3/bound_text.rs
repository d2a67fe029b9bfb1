//! The `.hys` text of one bound literal `x rel q` of a cube, written so that the `.hys`
//! reader gives it exactly the meaning the engine gave it (issue #23 item 4).
//!
//! The engine's literal is a bound on a solver variable: a rational over the reals and
//! integers, the float *value* for an IEEE variable (`±inf` at the ends, `-0` and `+0` one
//! value, NaN held as the value 0: `nan ⇒ x = 0` in the solver). The reader, however, reads
//! a constant in the context of the variable's type: in an fp context every number is
//! rounded to the nearest float (a fraction `1/K` is even an fp *division* of two rounded
//! constants: `-1/2^149` over binary32 is `-1/inf = -0`), an IEEE comparison is false on
//! NaN, and a machine-integer context rejects a constant outside the type. So:
//!
//! - integers: the integer form of the bound (`b < 0.5` is `b <= 0`), and over a machine
//!   integer type a bound beyond the type is `true` or `false`;
//! - IEEE: the bound moved onto the float grid in its own direction (`x <= q` is
//!   `x <= RTN(q)`), each constant one number that is a float of the format (a decimal when
//!   it has one of at most 60 digits, else a C99 hex float such as `0x1p-149`), an infinite
//!   end stated through the largest finite float (`x > max` is `x = +inf`), and
//!   `or isnan(x)` added when the engine's bound holds at the NaN's value 0.

use num_traits::Signed;
use solver::formula::Sort;
use solver::num::{format_rational, FpFormat, IntType, Rational, RoundingMode};
use solver::Rel;

/// `name rel value` in `.hys` syntax with the engine's meaning for a variable of `sort`.
/// `nan_said`: the surrounding clause already has the disjunct `isnan(name)`, so the NaN
/// part need not be repeated.
pub fn bound_text(name: &str, sort: Sort, rel: Rel, value: &Rational, nan_said: bool) -> String {
    match sort {
        Sort::Int => {
            let (rel, n) = integer_bound(rel, value);
            format!("{name} {} {}", rel_text(rel), format_rational(&n))
        }
        Sort::MachineInt(t) => machine_int_bound(name, t, rel, value),
        Sort::Fp(f) => fp_bound(name, f, rel, value, nan_said),
        Sort::Real | Sort::Bool => format!("{name} {} {}", rel_text(rel), format_rational(value)),
    }
}

pub fn rel_text(rel: Rel) -> &'static str {
    match rel {
        Rel::Le => "<=",
        Rel::Lt => "<",
        Rel::Ge => ">=",
        Rel::Gt => ">",
    }
}

/// `x rel value` over the integers as `x <= n` or `x >= n` with an integer `n`.
pub fn integer_bound(rel: Rel, value: &Rational) -> (Rel, Rational) {
    let one = Rational::from_integer(1.into());
    match rel {
        Rel::Le => (Rel::Le, value.floor()),
        Rel::Lt => (Rel::Le, value.ceil() - one),
        Rel::Ge => (Rel::Ge, value.ceil()),
        Rel::Gt => (Rel::Ge, value.floor() + one),
    }
}

/// A machine-integer bound: a constant outside the type is a reader error, and such a bound
/// holds for every value of the type or for none.
fn machine_int_bound(name: &str, t: IntType, rel: Rel, value: &Rational) -> String {
    let (rel, n) = integer_bound(rel, value);
    let min = Rational::from_integer(t.min_value());
    let max = Rational::from_integer(t.max_value());
    let all = match rel {
        Rel::Le if n >= max => Some(true),
        Rel::Le if n < min => Some(false),
        Rel::Ge if n <= min => Some(true),
        Rel::Ge if n > max => Some(false),
        _ => None,
    };
    match all {
        Some(b) => b.to_string(),
        None => format!("{name} {} {}", rel_text(rel), format_rational(&n)),
    }
}

/// An IEEE bound on the float value (see the module documentation).
fn fp_bound(name: &str, f: FpFormat, rel: Rel, value: &Rational, nan_said: bool) -> String {
    let zero = Rational::from_integer(0.into());
    let holds_at_nan = match rel {
        Rel::Le => zero <= *value,
        Rel::Lt => zero < *value,
        Rel::Ge => zero >= *value,
        Rel::Gt => zero > *value,
    };
    let upper = matches!(rel, Rel::Le | Rel::Lt);
    let rounded = f.round_rational(
        value,
        if upper {
            RoundingMode::Rtn
        } else {
            RoundingMode::Rtp
        },
    );
    let exact = f.to_rational(rounded).as_ref() == Some(value);
    let max = fp_const_text(f, f.max_finite_bits());
    let ieee = if exact {
        // a float of the format (strict bounds stay strict: `x < 1`, not `x <= 1 - ulp`)
        format!("{name} {} {}", rel_text(rel), fp_const_text(f, rounded))
    } else if f.is_inf(rounded) {
        // beyond the finite floats: only the infinity on that side is left
        if upper {
            format!("{name} < -{max}")
        } else {
            format!("{name} > {max}")
        }
    } else {
        // between two floats: the closed bound at the float on the inner side
        let rel = if upper { Rel::Le } else { Rel::Ge };
        format!("{name} {} {}", rel_text(rel), fp_const_text(f, rounded))
    };
    if holds_at_nan && !nan_said {
        format!("({ieee} or isnan({name}))")
    } else {
        ieee
    }
}

/// A finite float as one `.hys` number that reads back as exactly this float in an fp
/// context: its decimal expansion when that has at most 60 fraction digits, else a C99
/// hex float `±0xMpE` (`M` odd). `-0` prints as `0` (a bound cannot tell the zeros apart).
pub fn fp_const_text(f: FpFormat, bits: u64) -> String {
    let q = f
        .to_rational(bits)
        .expect("a bound constant is a finite float");
    let dec = format_rational(&q);
    if !dec.contains('/') {
        return dec;
    }
    // q = ±m / 2^k with m odd and k > 0 (a finite float with a fraction that has no short
    // decimal expansion)
    let k = q.denom().bits() - 1;
    let m = q.numer().abs().to_str_radix(16);
    let sign = if q.numer().is_negative() { "-" } else { "" };
    format!("{sign}0x{m}p-{k}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(n.into(), d.into())
    }

    #[test]
    fn smallest_subnormal_is_one_number() {
        // the constant: -2^-149 over binary32
        let v = -Rational::from_float(2f64.powi(-149)).unwrap();
        assert_eq!(
            bound_text("x", Sort::Fp(FpFormat::F32), Rel::Gt, &v, false),
            "(x > -0x1p-149 or isnan(x))"
        );
        assert_eq!(
            bound_text("x", Sort::Fp(FpFormat::F32), Rel::Gt, &v, true),
            "x > -0x1p-149"
        );
    }

    #[test]
    fn fp_bounds_between_floats_move_inward() {
        let f32s = Sort::Fp(FpFormat::F32);
        // 1/10 is no binary32: x <= 1/10 is x <= the float below it
        assert_eq!(
            bound_text("x", f32s, Rel::Le, &q(1, 10), true),
            "x <= 0.0999999940395355224609375"
        );
        assert_eq!(
            bound_text("x", f32s, Rel::Gt, &q(1, 10), true),
            "x >= 0.100000001490116119384765625"
        );
        // beyond the largest float: only an infinity
        let big = Rational::from_float(2f64.powi(200)).unwrap();
        assert_eq!(
            bound_text("x", f32s, Rel::Ge, &big, false),
            "x > 340282346638528859811704183484516925440"
        );
        assert_eq!(
            bound_text("x", f32s, Rel::Le, &(-big), false),
            "x < -340282346638528859811704183484516925440"
        );
    }

    #[test]
    fn machine_int_bounds_beyond_the_type_are_constants() {
        let u8s = Sort::MachineInt(IntType::new(8, false));
        assert_eq!(bound_text("u", u8s, Rel::Le, &q(300, 1), false), "true");
        assert_eq!(bound_text("u", u8s, Rel::Ge, &q(300, 1), false), "false");
        assert_eq!(bound_text("u", u8s, Rel::Gt, &q(-1, 2), false), "true");
        assert_eq!(bound_text("u", u8s, Rel::Lt, &q(1, 2), false), "u <= 0");
    }
}
