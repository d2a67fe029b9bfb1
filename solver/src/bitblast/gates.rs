//! And-inverter style gate builder with constant folding and structural hashing, and the
//! word-level circuits (adders, comparators, shifters, multiplier, divider) the IEEE and
//! machine-integer encodings are made of.
//!
//! A [`Bit`] is a constant or a literal of a fresh CNF variable; every gate with a
//! non-constant result gets its own variable and its Tseitin clauses. Because gates fold
//! constants, a circuit whose inputs are all constants *evaluates* to constants without one
//! clause — the differential tests use exactly that to compare every circuit with the exact
//! IEEE reference (`num::ieee`) on millions of points, and a smaller number of SAT-level
//! tests check the clauses themselves.

use std::collections::HashMap;

/// A circuit signal: `0` false, `1` true, `2v` / `2v+1` variable `v ≥ 1` positive / negated.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Bit(pub u32);

impl Bit {
    pub const FALSE: Bit = Bit(0);
    pub const TRUE: Bit = Bit(1);
    pub fn constant(b: bool) -> Bit {
        Bit(b as u32)
    }
    pub fn is_const(self) -> bool {
        self.0 < 2
    }
    pub fn as_const(self) -> Option<bool> {
        self.is_const().then_some(self.0 == 1)
    }
    /// The CNF variable (≥ 1) of a non-constant bit.
    pub fn var(self) -> u32 {
        self.0 >> 1
    }
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
}

impl std::ops::Not for Bit {
    type Output = Bit;
    fn not(self) -> Bit {
        Bit(self.0 ^ 1)
    }
}

/// A bit vector, least significant bit first.
pub type Word = Vec<Bit>;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    And(Bit, Bit),
    Xor(Bit, Bit),
    Mux(Bit, Bit, Bit),
}

/// The gate builder: fresh variables, clauses, and the structural hash.
#[derive(Default)]
pub struct Gates {
    vars: u32,
    pub clauses: Vec<Vec<Bit>>,
    cache: HashMap<Key, Bit>,
    /// conditions under which some output is unspecified (a free value): the solver first
    /// looks for a model that avoids them all, since the exact check of the original
    /// constraints may not accept an arbitrary value there
    pub unspecified: Vec<Bit>,
}

impl Gates {
    pub fn new() -> Gates {
        Gates::default()
    }

    pub fn num_vars(&self) -> u32 {
        self.vars
    }

    /// Records that some output is unspecified when `cond` holds.
    pub fn note_unspecified(&mut self, cond: Bit) {
        if cond != Bit::FALSE {
            self.unspecified.push(cond);
        }
    }

    /// An unconstrained input bit.
    pub fn fresh(&mut self) -> Bit {
        self.vars += 1;
        Bit(self.vars << 1)
    }

    pub fn fresh_word(&mut self, n: usize) -> Word {
        (0..n).map(|_| self.fresh()).collect()
    }

    /// Asserts `b` (a constant `false` makes the clause set unsatisfiable).
    pub fn assert(&mut self, b: Bit) {
        match b.as_const() {
            Some(true) => {}
            Some(false) => self.clauses.push(Vec::new()),
            None => self.clauses.push(vec![b]),
        }
    }

    fn clause(&mut self, c: &[Bit]) {
        self.clauses.push(c.to_vec());
    }

    pub fn and(&mut self, a: Bit, b: Bit) -> Bit {
        if a == Bit::FALSE || b == Bit::FALSE || a == !b {
            return Bit::FALSE;
        }
        if a == Bit::TRUE || a == b {
            return b;
        }
        if b == Bit::TRUE {
            return a;
        }
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if let Some(&g) = self.cache.get(&Key::And(a, b)) {
            return g;
        }
        let g = self.fresh();
        self.clause(&[!g, a]);
        self.clause(&[!g, b]);
        self.clause(&[g, !a, !b]);
        self.cache.insert(Key::And(a, b), g);
        g
    }

    pub fn or(&mut self, a: Bit, b: Bit) -> Bit {
        !self.and(!a, !b)
    }

    pub fn xor(&mut self, a: Bit, b: Bit) -> Bit {
        if let Some(c) = a.as_const() {
            return if c { !b } else { b };
        }
        if let Some(c) = b.as_const() {
            return if c { !a } else { a };
        }
        if a == b {
            return Bit::FALSE;
        }
        if a == !b {
            return Bit::TRUE;
        }
        // normalize to positive inputs: xor(¬a, b) = ¬xor(a, b)
        let flip = a.is_negated() ^ b.is_negated();
        let (pa, pb) = (Bit(a.0 & !1), Bit(b.0 & !1));
        let (pa, pb) = if pa < pb { (pa, pb) } else { (pb, pa) };
        let g = match self.cache.get(&Key::Xor(pa, pb)) {
            Some(&g) => g,
            None => {
                let g = self.fresh();
                self.clause(&[!g, pa, pb]);
                self.clause(&[!g, !pa, !pb]);
                self.clause(&[g, !pa, pb]);
                self.clause(&[g, pa, !pb]);
                self.cache.insert(Key::Xor(pa, pb), g);
                g
            }
        };
        if flip {
            !g
        } else {
            g
        }
    }

    pub fn xnor(&mut self, a: Bit, b: Bit) -> Bit {
        !self.xor(a, b)
    }

    /// `if c then t else e`
    pub fn mux(&mut self, c: Bit, t: Bit, e: Bit) -> Bit {
        if let Some(cv) = c.as_const() {
            return if cv { t } else { e };
        }
        if t == e {
            return t;
        }
        if t == c || t == Bit::TRUE {
            return self.or(c, e);
        }
        if t == !c || t == Bit::FALSE {
            return self.and(!c, e);
        }
        if e == c || e == Bit::FALSE {
            return self.and(c, t);
        }
        if e == !c || e == Bit::TRUE {
            return self.or(!c, t);
        }
        if t == !e {
            return !self.xor(c, t);
        }
        // normalize the condition's polarity
        let (c, t, e) = if c.is_negated() {
            (!c, e, t)
        } else {
            (c, t, e)
        };
        if let Some(&g) = self.cache.get(&Key::Mux(c, t, e)) {
            return g;
        }
        let g = self.fresh();
        self.clause(&[!c, !t, g]);
        self.clause(&[!c, t, !g]);
        self.clause(&[c, !e, g]);
        self.clause(&[c, e, !g]);
        // redundant, but they let unit propagation see through an unknown condition
        self.clause(&[!t, !e, g]);
        self.clause(&[t, e, !g]);
        self.cache.insert(Key::Mux(c, t, e), g);
        g
    }

    pub fn and_all(&mut self, bits: &[Bit]) -> Bit {
        bits.iter().fold(Bit::TRUE, |acc, &b| self.and(acc, b))
    }

    pub fn or_all(&mut self, bits: &[Bit]) -> Bit {
        bits.iter().fold(Bit::FALSE, |acc, &b| self.or(acc, b))
    }

    /// `(a + b + c) mod 2` and the carry.
    fn full_add(&mut self, a: Bit, b: Bit, c: Bit) -> (Bit, Bit) {
        let ab = self.xor(a, b);
        let s = self.xor(ab, c);
        let carry = self.mux(ab, c, a);
        (s, carry)
    }

    // --- words ---

    /// The `n`-bit two's-complement (or unsigned) pattern of `v`.
    pub fn const_word(n: usize, v: u128) -> Word {
        (0..n)
            .map(|i| Bit::constant(i < 128 && (v >> i) & 1 == 1))
            .collect()
    }

    /// The `n`-bit two's-complement pattern of a big integer.
    pub fn const_big(n: usize, v: &num_bigint::BigInt) -> Word {
        use num_bigint::Sign;
        let m = num_bigint::BigInt::from(1) << n;
        let mut r = v % &m;
        if r.sign() == Sign::Minus {
            r += &m;
        }
        let (_, bytes) = r.to_bytes_le();
        (0..n)
            .map(|i| Bit::constant(bytes.get(i / 8).is_some_and(|b| (b >> (i % 8)) & 1 == 1)))
            .collect()
    }

    /// `a + b + cin` with the carry out (equal widths).
    pub fn add_carry(&mut self, a: &[Bit], b: &[Bit], cin: Bit) -> (Word, Bit) {
        debug_assert_eq!(a.len(), b.len());
        let mut c = cin;
        let mut out = Vec::with_capacity(a.len());
        for (&x, &y) in a.iter().zip(b) {
            let (s, c2) = self.full_add(x, y, c);
            out.push(s);
            c = c2;
        }
        (out, c)
    }

    pub fn add(&mut self, a: &[Bit], b: &[Bit]) -> Word {
        self.add_carry(a, b, Bit::FALSE).0
    }

    /// `a - b` and "no borrow" (`a ≥ b` unsigned).
    pub fn sub_carry(&mut self, a: &[Bit], b: &[Bit]) -> (Word, Bit) {
        let nb: Word = b.iter().map(|&x| !x).collect();
        self.add_carry(a, &nb, Bit::TRUE)
    }

    pub fn sub(&mut self, a: &[Bit], b: &[Bit]) -> Word {
        self.sub_carry(a, b).0
    }

    pub fn neg(&mut self, a: &[Bit]) -> Word {
        let zero = vec![Bit::FALSE; a.len()];
        self.sub(&zero, a)
    }

    /// `a + 1`
    pub fn inc(&mut self, a: &[Bit], by: Bit) -> Word {
        let zero = vec![Bit::FALSE; a.len()];
        self.add_carry(a, &zero, by).0
    }

    pub fn ult(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        !self.sub_carry(a, b).1
    }

    pub fn ule(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        !self.ult(b, a)
    }

    /// Signed `a < b`: flip the sign bits and compare unsigned.
    pub fn slt(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        let n = a.len();
        let mut a2 = a.to_vec();
        let mut b2 = b.to_vec();
        a2[n - 1] = !a2[n - 1];
        b2[n - 1] = !b2[n - 1];
        self.ult(&a2, &b2)
    }

    pub fn sle(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        !self.slt(b, a)
    }

    pub fn eq(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        debug_assert_eq!(a.len(), b.len());
        let bits: Vec<Bit> = a.iter().zip(b).map(|(&x, &y)| self.xnor(x, y)).collect();
        self.and_all(&bits)
    }

    pub fn is_zero(&mut self, a: &[Bit]) -> Bit {
        !self.or_all(a)
    }

    pub fn mux_word(&mut self, c: Bit, t: &[Bit], e: &[Bit]) -> Word {
        debug_assert_eq!(t.len(), e.len());
        t.iter().zip(e).map(|(&x, &y)| self.mux(c, x, y)).collect()
    }

    pub fn zext(a: &[Bit], n: usize) -> Word {
        let mut w = a.to_vec();
        w.resize(n, Bit::FALSE);
        w.truncate(n);
        w
    }

    pub fn sext(a: &[Bit], n: usize) -> Word {
        let top = *a.last().expect("non-empty word");
        let mut w = a.to_vec();
        w.resize(n, top);
        w.truncate(n);
        w
    }

    /// `a << k` for a constant `k` (same width).
    pub fn shl_const(a: &[Bit], k: usize) -> Word {
        let n = a.len();
        (0..n)
            .map(|i| if i >= k { a[i - k] } else { Bit::FALSE })
            .collect()
    }

    /// `a << s` (same width; bits shifted past the top are lost).
    pub fn shl(&mut self, a: &[Bit], s: &[Bit]) -> Word {
        let n = a.len();
        let mut cur = a.to_vec();
        for (i, &sb) in s.iter().enumerate() {
            if i >= 63 || (1usize << i) >= n {
                // a shift by 2^i ≥ n clears the word
                let zero = vec![Bit::FALSE; n];
                cur = self.mux_word(sb, &zero, &cur);
                continue;
            }
            let shifted = Self::shl_const(&cur, 1 << i);
            cur = self.mux_word(sb, &shifted, &cur);
        }
        cur
    }

    /// `a >> s` (logical, or arithmetic when `fill` is the sign bit), and the OR of every bit
    /// shifted out (the sticky bit of rounding).
    pub fn shr_sticky(&mut self, a: &[Bit], s: &[Bit], fill: Bit) -> (Word, Bit) {
        let n = a.len();
        let mut cur = a.to_vec();
        let mut sticky = Bit::FALSE;
        for (i, &sb) in s.iter().enumerate() {
            let k = if i >= 63 { usize::MAX } else { 1usize << i };
            let (shifted, lost) = if k >= n {
                (vec![fill; n], cur.clone())
            } else {
                let sh: Word = (0..n)
                    .map(|j| if j + k < n { cur[j + k] } else { fill })
                    .collect();
                (sh, cur[..k].to_vec())
            };
            let any = self.or_all(&lost);
            let here = self.and(sb, any);
            sticky = self.or(sticky, here);
            cur = self.mux_word(sb, &shifted, &cur);
        }
        (cur, sticky)
    }

    /// Shifts `a` left until its top bit is set (unless `a` is 0) and returns the shifted word
    /// and the shift count (`a`'s number of leading zeros; saturated garbage for `a = 0`).
    pub fn normalize(&mut self, a: &[Bit]) -> (Word, Word) {
        let n = a.len();
        let mut levels = 0;
        while (1usize << levels) < n {
            levels += 1;
        }
        let mut cur = a.to_vec();
        let mut count = vec![Bit::FALSE; levels + 1];
        for l in (0..levels).rev() {
            let k = 1usize << l;
            let top_zero = self.is_zero(&cur[n - k..]);
            let shifted = Self::shl_const(&cur, k);
            cur = self.mux_word(top_zero, &shifted, &cur);
            count[l] = top_zero;
        }
        (cur, count)
    }

    /// The full product of two unsigned words (width `a.len() + b.len()`).
    pub fn mul_full(&mut self, a: &[Bit], b: &[Bit]) -> Word {
        let n = a.len() + b.len();
        let mut acc = vec![Bit::FALSE; n];
        for (j, &bj) in b.iter().enumerate() {
            if bj == Bit::FALSE {
                continue;
            }
            let row: Word = (0..n)
                .map(|i| {
                    if i >= j && i - j < a.len() {
                        a[i - j]
                    } else {
                        Bit::FALSE
                    }
                })
                .map(|x| self.and(x, bj))
                .collect();
            acc = self.add(&acc, &row);
        }
        acc
    }

    /// The low `a.len()` bits of `a · b` (equal widths; wrap-around multiplication).
    pub fn mul_low(&mut self, a: &[Bit], b: &[Bit]) -> Word {
        let n = a.len();
        let mut acc = vec![Bit::FALSE; n];
        for (j, &bj) in b.iter().enumerate() {
            if bj == Bit::FALSE {
                continue;
            }
            let row: Word = (0..n)
                .map(|i| if i >= j { a[i - j] } else { Bit::FALSE })
                .map(|x| self.and(x, bj))
                .collect();
            acc = self.add(&acc, &row);
        }
        acc
    }

    /// Unsigned `(a / b, a % b)` by restoring division (`b ≠ 0` is the caller's business;
    /// for `b = 0` the quotient is all ones and the remainder `a`).
    pub fn udivrem(&mut self, a: &[Bit], b: &[Bit]) -> (Word, Word) {
        let n = a.len();
        let m = b.len();
        let bw = Self::zext(b, m + 1);
        let mut rem = vec![Bit::FALSE; m + 1];
        let mut q = vec![Bit::FALSE; n];
        for i in (0..n).rev() {
            // rem = rem·2 + a_i (the top bit of rem is 0 here, so m+1 bits suffice)
            let mut r2 = vec![a[i]];
            r2.extend_from_slice(&rem[..m]);
            let (diff, ge) = self.sub_carry(&r2, &bw);
            q[i] = ge;
            rem = self.mux_word(ge, &diff, &r2);
        }
        (q, rem[..m].to_vec())
    }

    /// The value of a constant word (`None` if some bit is not constant).
    pub fn const_value(w: &[Bit]) -> Option<u128> {
        let mut v = 0u128;
        for (i, b) in w.iter().enumerate() {
            if b.as_const()? && i < 128 {
                v |= 1 << i;
            }
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_fold_to_constants() {
        let mut g = Gates::new();
        let a = Gates::const_word(8, 200);
        let b = Gates::const_word(8, 100);
        assert_eq!(Gates::const_value(&g.add(&a, &b)), Some(44));
        assert_eq!(Gates::const_value(&g.sub(&b, &a)), Some(156));
        assert_eq!(g.ult(&b, &a), Bit::TRUE);
        assert_eq!(g.slt(&b, &a), Bit::FALSE); // 200 is -56
        assert_eq!(Gates::const_value(&g.mul_full(&a, &b)), Some(20000));
        let (q, r) = g.udivrem(&a, &Gates::const_word(8, 7));
        assert_eq!(
            (Gates::const_value(&q), Gates::const_value(&r)),
            (Some(28), Some(4))
        );
        let (n, c) = g.normalize(&Gates::const_word(8, 5));
        assert_eq!(Gates::const_value(&n), Some(160));
        assert_eq!(Gates::const_value(&c), Some(5));
        let (s, st) = g.shr_sticky(&a, &Gates::const_word(4, 4), Bit::FALSE);
        assert_eq!((Gates::const_value(&s), st), (Some(12), Bit::TRUE));
        let (s, st) = g.shr_sticky(&a, &Gates::const_word(4, 9), Bit::FALSE);
        assert_eq!((Gates::const_value(&s), st), (Some(0), Bit::TRUE));
        assert_eq!(
            Gates::const_value(&g.shl(&b, &Gates::const_word(3, 2))),
            Some(144)
        );
        assert_eq!(g.num_vars(), 0, "constant inputs must not create gates");
    }
}
