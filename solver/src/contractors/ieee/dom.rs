//! The domain of an IEEE variable as the contractors see it (issue #4 point 1).
//!
//! The idea: a set of floats of one format is over-approximated by three independent
//! pieces — whether NaN is possible, the closed value range `[lo, hi]` of the non-NaN values
//! (floats of the format, `±inf` included as ordinary ends), and which signs of zero are
//! possible when `0 ∈ [lo, hi]`. This is exactly what the solver stores per IEEE variable: a
//! value variable with bound literals, and two Boolean flags `nan` and `neg` (the sign bit);
//! see `solver::icp_fp`. A domain *denotes* the set
//! `{NaN if nan} ∪ {x non-NaN : lo <= x <= hi, and x = -0 ⇒ neg_zero, x = +0 ⇒ pos_zero}`.

use crate::num::ieee;
use crate::num::FpFormat;

#[derive(Clone, Copy, PartialEq, Debug)]
pub struct FpDom {
    pub fmt: FpFormat,
    /// NaN is possible
    pub nan: bool,
    /// smallest non-NaN value (a float of `fmt`, `-inf` allowed); `lo > hi` means no
    /// non-NaN value
    pub lo: f64,
    /// largest non-NaN value
    pub hi: f64,
    /// `-0` is possible (meaningful when `0 ∈ [lo, hi]`)
    pub neg_zero: bool,
    /// `+0` is possible (meaningful when `0 ∈ [lo, hi]`)
    pub pos_zero: bool,
}

impl FpDom {
    /// Every float of the format, NaN included.
    pub fn full(fmt: FpFormat) -> FpDom {
        FpDom {
            fmt,
            nan: true,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            neg_zero: true,
            pos_zero: true,
        }
    }

    /// The empty set.
    pub fn empty(fmt: FpFormat) -> FpDom {
        FpDom {
            fmt,
            nan: false,
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            neg_zero: false,
            pos_zero: false,
        }
    }

    /// Only NaN.
    pub fn nan_only(fmt: FpFormat) -> FpDom {
        FpDom {
            nan: true,
            ..FpDom::empty(fmt)
        }
    }

    /// The single float `bits` (any NaN gives [`FpDom::nan_only`]).
    pub fn point(fmt: FpFormat, bits: u64) -> FpDom {
        if fmt.is_nan(bits) {
            return FpDom::nan_only(fmt);
        }
        let v = ieee::to_f64(fmt, bits);
        let zero = v == 0.0;
        let neg = fmt.is_negative(bits);
        FpDom {
            fmt,
            nan: false,
            lo: v,
            hi: v,
            neg_zero: zero && neg,
            pos_zero: zero && !neg,
        }
    }

    /// The non-NaN floats in `[lo, hi]` with both zeros (`lo`, `hi` floats of `fmt`).
    pub fn range(fmt: FpFormat, lo: f64, hi: f64) -> FpDom {
        FpDom {
            fmt,
            nan: false,
            lo,
            hi,
            neg_zero: true,
            pos_zero: true,
        }
    }

    /// Some non-NaN value is possible.
    pub fn has_values(&self) -> bool {
        self.lo < self.hi
            || (self.lo == self.hi && (self.lo != 0.0 || self.neg_zero || self.pos_zero))
    }

    pub fn is_empty(&self) -> bool {
        !self.nan && !self.has_values()
    }

    /// The float `bits` is in the set.
    pub fn contains(&self, bits: u64) -> bool {
        let f = self.fmt;
        if f.is_nan(bits) {
            return self.nan;
        }
        let v = ieee::to_f64(f, bits);
        if !(self.lo <= v && v <= self.hi) {
            return false;
        }
        if v == 0.0 {
            return if f.is_negative(bits) {
                self.neg_zero
            } else {
                self.pos_zero
            };
        }
        true
    }

    /// The single float of the set, if it has exactly one (NaN counts as one).
    pub fn as_point(&self) -> Option<u64> {
        let f = self.fmt;
        match (self.nan, self.has_values()) {
            (true, false) => Some(f.nan_bits()),
            (false, true) if self.lo == self.hi => {
                if self.lo != 0.0 {
                    return ieee::from_f64(f, self.lo);
                }
                match (self.neg_zero, self.pos_zero) {
                    (true, false) => Some(ieee::neg(f, 0)),
                    (false, true) => Some(0),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Set intersection (exact on this representation).
    pub fn intersect(&self, o: &FpDom) -> FpDom {
        debug_assert_eq!(self.fmt, o.fmt);
        let lo = self.lo.max(o.lo);
        let hi = self.hi.min(o.hi);
        let d = FpDom {
            fmt: self.fmt,
            nan: self.nan && o.nan,
            lo,
            hi,
            neg_zero: self.neg_zero && o.neg_zero,
            pos_zero: self.pos_zero && o.pos_zero,
        };
        d.normalized()
    }

    /// The smallest domain containing both sets.
    pub fn hull(&self, o: &FpDom) -> FpDom {
        debug_assert_eq!(self.fmt, o.fmt);
        match (self.has_values(), o.has_values()) {
            (false, false) => FpDom {
                nan: self.nan || o.nan,
                ..FpDom::empty(self.fmt)
            },
            (true, false) => FpDom {
                nan: self.nan || o.nan,
                ..*self
            },
            (false, true) => FpDom {
                nan: self.nan || o.nan,
                ..*o
            },
            (true, true) => {
                let z = |d: &FpDom| d.lo <= 0.0 && 0.0 <= d.hi;
                FpDom {
                    fmt: self.fmt,
                    nan: self.nan || o.nan,
                    lo: self.lo.min(o.lo),
                    hi: self.hi.max(o.hi),
                    neg_zero: (z(self) && self.neg_zero) || (z(o) && o.neg_zero),
                    pos_zero: (z(self) && self.pos_zero) || (z(o) && o.pos_zero),
                }
                .normalized()
            }
        }
    }

    /// Canonical form: zero flags cleared when 0 is outside the range, a range of only
    /// excluded zeros made empty, the empty range as `[+inf, -inf]`. Keeps `==` meaningful
    /// for tests.
    pub fn normalized(mut self) -> FpDom {
        if !(self.lo <= 0.0 && 0.0 <= self.hi) {
            self.neg_zero = false;
            self.pos_zero = false;
        }
        if !self.has_values() {
            self.lo = f64::INFINITY;
            self.hi = f64::NEG_INFINITY;
            self.neg_zero = false;
            self.pos_zero = false;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FpFormat = FpFormat::F64;

    #[test]
    fn points_and_membership() {
        let mz = FpDom::point(F, (-0.0f64).to_bits());
        assert!(mz.contains((-0.0f64).to_bits()) && !mz.contains(0));
        assert_eq!(mz.as_point(), Some((-0.0f64).to_bits()));
        let n = FpDom::point(F, F.nan_bits());
        assert!(n.contains(F.nan_bits() | 1) && !n.contains(0));
        assert_eq!(n.as_point(), Some(F.nan_bits()));
        let full = FpDom::full(F);
        assert!(full.contains(f64::INFINITY.to_bits()) && full.contains(F.nan_bits()));
        assert_eq!(full.as_point(), None);
        assert!(FpDom::empty(F).is_empty());
    }

    #[test]
    fn intersect_and_hull() {
        let a = FpDom::range(F, -1.0, 0.0);
        let b = FpDom::range(F, 0.0, 2.0);
        let z = a.intersect(&b);
        assert_eq!(z.lo, 0.0);
        assert!(z.contains(0) && z.contains((-0.0f64).to_bits()));
        let only_pos = FpDom {
            neg_zero: false,
            ..b
        };
        let z = a.intersect(&only_pos);
        assert_eq!(z.as_point(), Some(0));
        let e = FpDom::point(F, 1.0f64.to_bits()).intersect(&FpDom::point(F, 2.0f64.to_bits()));
        assert!(e.is_empty());
        let h = FpDom::point(F, (-0.0f64).to_bits()).hull(&FpDom::point(F, 3.0f64.to_bits()));
        assert!(h.contains((-0.0f64).to_bits()) && !h.contains(0) && h.contains(2.0f64.to_bits()));
        let h = h.hull(&FpDom::nan_only(F));
        assert!(h.nan && h.contains(3.0f64.to_bits()));
    }
}
