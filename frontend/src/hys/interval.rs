//! Exact rational interval enclosures of Int/Real expressions, used by the checker to warn
//! about arguments partly outside a function's domain (`log`, even roots, division by a range
//! containing 0) and to reject arguments entirely outside it.
//!
//! An enclosure over-approximates the set of values of an expression given the declared
//! ranges. Only `+ - *`, powers, division, `abs`, `min`, `max`, `ite`, `sin`, `cos`, `exp*` are
//! evaluated; anything else gives the unknown enclosure (unbounded). Endpoints whose size
//! exceeds [`MAX_BITS`] are dropped (made unbounded), so the analysis stays cheap.

use super::constfold::bits;
use num_traits::{One, Signed, Zero};
use solver::formula::{Bound, Domain};
use solver::num::Rational;
use std::cmp::Ordering;

/// Endpoints larger than this (in bits) are forgotten.
pub const MAX_BITS: u64 = 2048;

/// One end of an enclosure; `None` in [`Iv`] means unbounded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub value: Rational,
    /// the end itself is excluded
    pub strict: bool,
}

/// An enclosure `lo .. hi`; `None` ends are unbounded.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Iv {
    pub lo: Option<End>,
    pub hi: Option<End>,
}

fn end(value: Rational, strict: bool) -> Option<End> {
    (bits(&value) <= MAX_BITS).then_some(End { value, strict })
}

impl Iv {
    pub fn unknown() -> Iv {
        Iv { lo: None, hi: None }
    }
    pub fn point(v: Rational) -> Iv {
        Iv {
            lo: end(v.clone(), false),
            hi: end(v, false),
        }
    }
    pub fn closed(lo: Rational, hi: Rational) -> Iv {
        Iv {
            lo: end(lo, false),
            hi: end(hi, false),
        }
    }
    pub fn from_domain(d: &Domain) -> Iv {
        let conv = |b: &Option<Bound>| b.as_ref().and_then(|b| end(b.value.clone(), b.strict));
        Iv {
            lo: conv(&d.lo),
            hi: conv(&d.hi),
        }
    }

    /// `(0, +inf)` (`strict`) or `[0, +inf)`.
    pub fn above_zero(strict: bool) -> Iv {
        Iv {
            lo: Some(End {
                value: Rational::zero(),
                strict,
            }),
            hi: None,
        }
    }

    pub fn neg(&self) -> Iv {
        let n = |e: &Option<End>| {
            e.as_ref().map(|e| End {
                value: -e.value.clone(),
                strict: e.strict,
            })
        };
        Iv {
            lo: n(&self.hi),
            hi: n(&self.lo),
        }
    }

    pub fn add(&self, o: &Iv) -> Iv {
        let s = |a: &Option<End>, b: &Option<End>| match (a, b) {
            (Some(a), Some(b)) => end(&a.value + &b.value, a.strict || b.strict),
            _ => None,
        };
        Iv {
            lo: s(&self.lo, &o.lo),
            hi: s(&self.hi, &o.hi),
        }
    }

    pub fn sub(&self, o: &Iv) -> Iv {
        self.add(&o.neg())
    }

    /// `c · self` for a constant `c`.
    pub fn scale(&self, c: &Rational) -> Iv {
        let m = |e: &Option<End>| e.as_ref().and_then(|e| end(&e.value * c, e.strict));
        match c.cmp(&Rational::zero()) {
            Ordering::Equal => Iv::point(Rational::zero()),
            Ordering::Greater => Iv {
                lo: m(&self.lo),
                hi: m(&self.hi),
            },
            Ordering::Less => Iv {
                lo: m(&self.hi),
                hi: m(&self.lo),
            },
        }
    }

    fn bounded(&self) -> Option<(&End, &End)> {
        Some((self.lo.as_ref()?, self.hi.as_ref()?))
    }

    /// Product of two bounded enclosures (unknown if either is unbounded).
    pub fn mul(&self, o: &Iv) -> Iv {
        let (Some((a0, a1)), Some((b0, b1))) = (self.bounded(), o.bounded()) else {
            return Iv::unknown();
        };
        let prod = |a: &End, b: &End| {
            let value = &a.value * &b.value;
            // a closed zero factor makes the product exactly 0, attained
            let strict = if (a.value.is_zero() && !a.strict) || (b.value.is_zero() && !b.strict) {
                false
            } else {
                a.strict || b.strict
            };
            End { value, strict }
        };
        let cands = [prod(a0, b0), prod(a0, b1), prod(a1, b0), prod(a1, b1)];
        hull_of(&cands)
    }

    /// `self^n`.
    pub fn pow(&self, n: u32) -> Iv {
        if n == 0 {
            return Iv::point(Rational::one());
        }
        let p = |e: &End| -> Option<End> {
            if bits(&e.value).saturating_mul(n as u64) > MAX_BITS {
                return None;
            }
            let v = Rational::new(
                num_traits::pow::Pow::pow(e.value.numer(), n),
                num_traits::pow::Pow::pow(e.value.denom(), n),
            );
            end(v, e.strict)
        };
        if n % 2 == 1 {
            return Iv {
                lo: self.lo.as_ref().and_then(p),
                hi: self.hi.as_ref().and_then(p),
            };
        }
        // even power
        let lo_nonneg = self.lo.as_ref().is_some_and(|e| !e.value.is_negative());
        let hi_nonpos = self.hi.as_ref().is_some_and(|e| !e.value.is_positive());
        if lo_nonneg {
            Iv {
                lo: self.lo.as_ref().and_then(p),
                hi: self.hi.as_ref().and_then(p),
            }
        } else if hi_nonpos {
            Iv {
                lo: self.hi.as_ref().and_then(p),
                hi: self.lo.as_ref().and_then(p),
            }
        } else {
            // 0 lies strictly inside: the minimum 0 is attained
            let hi = match (self.lo.as_ref().and_then(p), self.hi.as_ref().and_then(p)) {
                (Some(a), Some(b)) => Some(max_end(a, b)),
                _ => None,
            };
            Iv {
                lo: Some(End {
                    value: Rational::zero(),
                    strict: false,
                }),
                hi,
            }
        }
    }

    /// `self / o`; unknown when `o` may contain 0 or is unbounded.
    pub fn div(&self, o: &Iv) -> Iv {
        let Some((b0, b1)) = o.bounded() else {
            return Iv::unknown();
        };
        let positive = b0.value.is_positive() || (b0.value.is_zero() && b0.strict);
        let negative = b1.value.is_negative() || (b1.value.is_zero() && b1.strict);
        if !(positive || negative) {
            return Iv::unknown();
        }
        // 1/o: reciprocal endpoints; a strict 0 end maps to an unbounded end
        let recip = |e: &End| -> Option<End> {
            if e.value.is_zero() {
                None
            } else {
                end(e.value.recip(), e.strict)
            }
        };
        let r = Iv {
            lo: recip(b1),
            hi: recip(b0),
        };
        match r.bounded() {
            Some(_) => self.mul(&r),
            None => Iv::unknown(),
        }
    }

    pub fn abs(&self) -> Iv {
        let lo_nonneg = self.lo.as_ref().is_some_and(|e| !e.value.is_negative());
        let hi_nonpos = self.hi.as_ref().is_some_and(|e| !e.value.is_positive());
        if lo_nonneg {
            self.clone()
        } else if hi_nonpos {
            self.neg()
        } else {
            let hi = match (self.lo.as_ref(), self.hi.as_ref()) {
                (Some(a), Some(b)) => Some(max_end(
                    End {
                        value: -a.value.clone(),
                        strict: a.strict,
                    },
                    b.clone(),
                )),
                _ => None,
            };
            Iv {
                lo: Some(End {
                    value: Rational::zero(),
                    strict: false,
                }),
                hi,
            }
        }
    }

    pub fn min(&self, o: &Iv) -> Iv {
        Iv {
            lo: match (&self.lo, &o.lo) {
                (Some(a), Some(b)) => Some(min_end(a.clone(), b.clone())),
                _ => None,
            },
            hi: match (&self.hi, &o.hi) {
                (Some(a), Some(b)) => Some(min_end(a.clone(), b.clone())),
                (Some(a), None) => Some(a.clone()),
                (None, b) => b.clone(),
            },
        }
    }

    pub fn max(&self, o: &Iv) -> Iv {
        self.neg().min(&o.neg()).neg()
    }

    /// The smallest enclosure containing both.
    pub fn hull(&self, o: &Iv) -> Iv {
        Iv {
            lo: match (&self.lo, &o.lo) {
                (Some(a), Some(b)) => Some(min_end(a.clone(), b.clone())),
                _ => None,
            },
            hi: match (&self.hi, &o.hi) {
                (Some(a), Some(b)) => Some(max_end(a.clone(), b.clone())),
                _ => None,
            },
        }
    }

    /// Every value is `< 0` (`strict_zero`: or `<= 0`).
    pub fn all_below_zero(&self, or_zero: bool) -> bool {
        self.hi
            .as_ref()
            .is_some_and(|e| match e.value.cmp(&Rational::zero()) {
                Ordering::Less => true,
                Ordering::Equal => or_zero || e.strict,
                Ordering::Greater => false,
            })
    }

    /// Every value is `> 0` (`or_zero`: or `>= 0`).
    pub fn all_above_zero(&self, or_zero: bool) -> bool {
        self.neg().all_below_zero(or_zero)
    }

    /// The enclosure is exactly the point 0.
    pub fn is_zero_point(&self) -> bool {
        matches!((&self.lo, &self.hi), (Some(a), Some(b))
            if a.value.is_zero() && b.value.is_zero() && !a.strict && !b.strict)
    }

    /// The enclosure is known and contains 0.
    pub fn known_and_contains_zero(&self) -> bool {
        self.lo.is_some()
            && self.hi.is_some()
            && !self.all_below_zero(false)
            && !self.all_above_zero(false)
    }
}

fn min_end(a: End, b: End) -> End {
    match a.value.cmp(&b.value) {
        Ordering::Less => a,
        Ordering::Greater => b,
        Ordering::Equal => End {
            value: a.value,
            strict: a.strict && b.strict,
        },
    }
}

fn max_end(a: End, b: End) -> End {
    match a.value.cmp(&b.value) {
        Ordering::Greater => a,
        Ordering::Less => b,
        Ordering::Equal => End {
            value: a.value,
            strict: a.strict && b.strict,
        },
    }
}

fn hull_of(cands: &[End]) -> Iv {
    let mut lo = cands[0].clone();
    let mut hi = cands[0].clone();
    for c in &cands[1..] {
        lo = min_end(lo, c.clone());
        hi = max_end(hi, c.clone());
    }
    Iv {
        lo: end(lo.value, lo.strict),
        hi: end(hi.value, hi.strict),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn q(n: i64) -> Rational {
        Rational::from_integer(BigInt::from(n))
    }
    fn iv(lo: i64, ls: bool, hi: i64, hs: bool) -> Iv {
        Iv {
            lo: Some(End {
                value: q(lo),
                strict: ls,
            }),
            hi: Some(End {
                value: q(hi),
                strict: hs,
            }),
        }
    }

    #[test]
    fn products_keep_strictness() {
        // (0,1] * (0,1] = (0,1]
        let a = iv(0, true, 1, false);
        assert_eq!(a.mul(&a), iv(0, true, 1, false));
        // [0,1] * (0,1] = [0,1]
        assert_eq!(iv(0, false, 1, false).mul(&a), iv(0, false, 1, false));
        // [-2,3] * [-1,4] = [-8, 12]
        assert_eq!(
            iv(-2, false, 3, false).mul(&iv(-1, false, 4, false)),
            iv(-8, false, 12, false)
        );
    }

    #[test]
    fn even_powers_and_abs() {
        assert_eq!(iv(-3, false, 2, true).pow(2), iv(0, false, 9, false));
        assert_eq!(iv(-3, true, -1, false).pow(2), iv(1, false, 9, true));
        assert_eq!(iv(-3, false, 2, false).pow(3), iv(-27, false, 8, false));
        assert_eq!(iv(-3, true, 2, false).abs(), iv(0, false, 3, true));
        assert!(iv(-5, false, 0, false).all_below_zero(true));
        assert!(!iv(-5, false, 0, false).all_below_zero(false));
        assert!(iv(-5, false, 0, true).all_below_zero(false));
        assert!(iv(-1, false, 1, false).known_and_contains_zero());
        assert!(!iv(0, true, 1, false).known_and_contains_zero());
        assert!(!Iv::unknown().known_and_contains_zero());
    }

    #[test]
    fn huge_endpoints_are_dropped() {
        let a = iv(-1000, false, 1000, false);
        let p = a.pow(1000);
        assert_eq!(p.hi, None);
        assert_eq!(p.lo.map(|e| e.value), Some(q(0)));
    }
}
