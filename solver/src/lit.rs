//! Solver literals: a `u32` newtype `2·atom + negated` over *solver atoms* (paper §2.3).
//!
//! The idea: the CDCL core only ever sees atoms and literals. An atom is either a Boolean
//! variable or a *simple bound* `x <= c` / `x < c` on a theory variable (see
//! [`crate::bound_table`]); its negation `x > c` / `x >= c` is one bit flip away, so clauses,
//! watches, the trail and conflict analysis never need to know that a literal is a bound.
//!
//! These are not the literals of a [`crate::formula::Formula`] (`crate::formula::Lit`), which
//! index the formula's own atom table; [`crate::solve::FormulaMap`] translates between the two.

use std::fmt;

/// Index of a solver atom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct AtomId(pub u32);

impl AtomId {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A solver literal: `2·atom + negated`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(pub u32);

impl Lit {
    /// A placeholder that is never a real literal (e.g. "no literal set this bound").
    pub const UNDEF: Lit = Lit(u32::MAX);

    #[inline]
    pub fn new(atom: AtomId, negated: bool) -> Lit {
        Lit(atom.0 << 1 | negated as u32)
    }
    #[inline]
    pub fn pos(atom: AtomId) -> Lit {
        Lit::new(atom, false)
    }
    #[inline]
    pub fn atom(self) -> AtomId {
        AtomId(self.0 >> 1)
    }
    #[inline]
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    /// Position in per-literal tables (watch lists).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub fn is_undef(self) -> bool {
        self == Lit::UNDEF
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_undef() {
            return write!(f, "undef");
        }
        write!(
            f,
            "{}a{}",
            if self.is_negated() { "-" } else { "" },
            self.atom().0
        )
    }
}

/// A three-valued truth value of an atom or literal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LBool {
    True,
    False,
    Undef,
}

impl LBool {
    #[inline]
    pub fn from_bool(b: bool) -> LBool {
        if b {
            LBool::True
        } else {
            LBool::False
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_is_one_bit() {
        let a = AtomId(7);
        let p = Lit::pos(a);
        assert_eq!(p.atom(), a);
        assert!(!p.is_negated());
        assert!((!p).is_negated());
        assert_eq!(!!p, p);
        assert_eq!((!p).atom(), a);
        assert_eq!(p.index() + 1, (!p).index());
        assert!(Lit::UNDEF.is_undef() && !p.is_undef());
    }
}
