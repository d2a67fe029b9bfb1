//! Exact linear forms `Σ cᵢ·tᵢ + k` for the lowering, with coefficients that stay machine
//! integers while they fit (the common case) and become big rationals otherwise.

use super::constfold;
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use solver::num::Rational;
use std::cmp::Ordering;

/// An exact rational coefficient: a small integer, or a big rational.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coef {
    Small(i64),
    Big(Rational),
}

impl Coef {
    pub fn zero() -> Coef {
        Coef::Small(0)
    }
    pub fn one() -> Coef {
        Coef::Small(1)
    }
    pub fn from_rational(q: Rational) -> Coef {
        if q.is_integer() {
            if let Some(i) = q.numer().to_i64() {
                return Coef::Small(i);
            }
        }
        Coef::Big(q)
    }
    pub fn to_rational(&self) -> Rational {
        match self {
            Coef::Small(i) => Rational::from_integer(BigInt::from(*i)),
            Coef::Big(q) => q.clone(),
        }
    }
    pub fn is_zero(&self) -> bool {
        matches!(self, Coef::Small(0))
    }
    pub fn is_one(&self) -> bool {
        matches!(self, Coef::Small(1))
    }
    pub fn is_integer(&self) -> bool {
        match self {
            Coef::Small(_) => true,
            Coef::Big(q) => q.is_integer(),
        }
    }
    pub fn is_negative(&self) -> bool {
        match self {
            Coef::Small(i) => *i < 0,
            Coef::Big(q) => q.is_negative(),
        }
    }
    pub fn sign(&self) -> Ordering {
        match self {
            Coef::Small(i) => i.cmp(&0),
            Coef::Big(q) => q.cmp(&Rational::zero()),
        }
    }
    pub fn bits(&self) -> u64 {
        match self {
            Coef::Small(_) => 64,
            Coef::Big(q) => constfold::bits(q),
        }
    }
    pub fn add(&self, o: &Coef) -> Coef {
        if let (Coef::Small(a), Coef::Small(b)) = (self, o) {
            if let Some(c) = a.checked_add(*b) {
                return Coef::Small(c);
            }
        }
        Coef::from_rational(self.to_rational() + o.to_rational())
    }
    pub fn mul(&self, o: &Coef) -> Coef {
        if let (Coef::Small(a), Coef::Small(b)) = (self, o) {
            if let Some(c) = a.checked_mul(*b) {
                return Coef::Small(c);
            }
        }
        Coef::from_rational(self.to_rational() * o.to_rational())
    }
    pub fn neg(&self) -> Coef {
        if let Coef::Small(a) = self {
            if let Some(c) = a.checked_neg() {
                return Coef::Small(c);
            }
        }
        Coef::from_rational(-self.to_rational())
    }
}

/// A term: something with an index that orders it (variables, Boolean literals).
pub trait TermKey: Copy + Ord {}
impl<T: Copy + Ord> TermKey for T {}

/// `Σ coeff·term + k`. Terms are kept in any order and merged lazily; [`Lin::norm`] sorts
/// them, merges equal terms and drops zero coefficients.
#[derive(Clone, Debug)]
pub struct Lin<T: TermKey> {
    terms: Vec<(T, Coef)>,
    pub k: Coef,
    normal: bool,
}

impl<T: TermKey> Default for Lin<T> {
    fn default() -> Self {
        Lin::constant(Coef::zero())
    }
}

impl<T: TermKey> Lin<T> {
    pub fn constant(k: Coef) -> Lin<T> {
        Lin {
            terms: Vec::new(),
            k,
            normal: true,
        }
    }
    pub fn term(t: T) -> Lin<T> {
        Lin {
            terms: vec![(t, Coef::one())],
            k: Coef::zero(),
            normal: true,
        }
    }
    /// Sorts, merges and drops zeros.
    pub fn norm(&mut self) {
        if self.normal {
            return;
        }
        self.terms.sort_by_key(|a| a.0);
        let mut out: Vec<(T, Coef)> = Vec::with_capacity(self.terms.len());
        for (t, c) in self.terms.drain(..) {
            match out.last_mut() {
                Some(last) if last.0 == t => last.1 = last.1.add(&c),
                _ => out.push((t, c)),
            }
        }
        out.retain(|(_, c)| !c.is_zero());
        self.terms = out;
        self.normal = true;
    }
    /// The normalised terms.
    pub fn terms(&mut self) -> &[(T, Coef)] {
        self.norm();
        &self.terms
    }
    pub fn is_const(&mut self) -> bool {
        self.norm();
        self.terms.is_empty()
    }
    /// `self + o` (`negate_o`: `self - o`), appending the smaller form to the larger.
    pub fn add(mut self, mut o: Lin<T>, negate_o: bool) -> Lin<T> {
        if negate_o {
            o = o.scale(&Coef::Small(-1));
        }
        if o.terms.len() > self.terms.len() {
            std::mem::swap(&mut self, &mut o);
        }
        if !o.terms.is_empty() {
            self.normal = false;
            self.terms.append(&mut o.terms);
        }
        self.k = self.k.add(&o.k);
        self
    }
    pub fn scale(mut self, c: &Coef) -> Lin<T> {
        if c.is_one() {
            return self;
        }
        if c.is_zero() {
            return Lin::default();
        }
        for (_, v) in &mut self.terms {
            *v = v.mul(c);
        }
        self.k = self.k.mul(c);
        self
    }
    pub fn max_bits(&self) -> u64 {
        self.terms
            .iter()
            .map(|(_, c)| c.bits())
            .chain(std::iter::once(self.k.bits()))
            .max()
            .unwrap_or(0)
    }
}

/// `1/c` for a non-zero coefficient (`None` for zero).
pub fn recip(c: &Coef) -> Option<Coef> {
    if c.is_zero() {
        return None;
    }
    Some(match c {
        Coef::Small(1) => Coef::Small(1),
        Coef::Small(-1) => Coef::Small(-1),
        c => Coef::from_rational(c.to_rational().recip()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_overflow_into_rationals() {
        let big = Coef::Small(i64::MAX);
        let s = big.add(&Coef::Small(1));
        assert_eq!(
            s.to_rational(),
            Rational::from_integer(BigInt::from(i64::MAX) + 1)
        );
        let back = s.add(&Coef::Small(-1));
        assert_eq!(back, Coef::Small(i64::MAX));
        assert_eq!(
            Coef::Small(i64::MIN).neg().to_rational(),
            -Rational::from_integer(BigInt::from(i64::MIN))
        );
        let half = recip(&Coef::Small(2)).unwrap();
        assert!(!half.is_integer());
        assert_eq!(half.mul(&Coef::Small(2)), Coef::Small(1));
    }

    #[test]
    fn forms_merge_and_cancel() {
        let x: Lin<u32> = Lin::term(1);
        let y: Lin<u32> = Lin::term(2);
        let mut d = x
            .clone()
            .add(y.clone(), false)
            .add(x.scale(&Coef::Small(2)), false)
            .add(y, true);
        assert_eq!(d.terms(), &[(1, Coef::Small(3))]);
        let mut z: Lin<u32> = Lin::term(1);
        z = z.clone().add(z, true);
        assert!(z.is_const());
    }
}
