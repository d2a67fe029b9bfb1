//! A binary max-heap of `u32` indices ordered by an activity table: the VSIDS order of the
//! decision heuristics (paper §2.3 (1); MiniSat's "order heap"), used for atoms and for the
//! variables to split.
//!
//! The idea: activities live in one `Vec<f64>` owned by the heap; bumping an element that is
//! in the heap sifts it up in place (`O(log n)`), and elements are re-inserted lazily when
//! they become decidable again (on backtracking).

#[derive(Clone, Debug, Default)]
pub struct ActivityHeap {
    heap: Vec<u32>,
    /// position in `heap`, or `u32::MAX` when absent
    pos: Vec<u32>,
    pub activity: Vec<f64>,
    inc: f64,
}

const ABSENT: u32 = u32::MAX;

impl ActivityHeap {
    pub fn new() -> Self {
        ActivityHeap {
            heap: Vec::new(),
            pos: Vec::new(),
            activity: Vec::new(),
            inc: 1.0,
        }
    }

    /// Makes room for index `i` (activity `initial`), not inserting it.
    pub fn grow_to(&mut self, i: usize, initial: f64) {
        while self.pos.len() <= i {
            self.pos.push(ABSENT);
            self.activity.push(initial);
        }
    }

    #[inline]
    pub fn contains(&self, i: u32) -> bool {
        (i as usize) < self.pos.len() && self.pos[i as usize] != ABSENT
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn insert(&mut self, i: u32) {
        self.grow_to(i as usize, 0.0);
        if self.contains(i) {
            return;
        }
        self.pos[i as usize] = self.heap.len() as u32;
        self.heap.push(i);
        self.sift_up(self.heap.len() - 1);
    }

    /// The element of highest activity, removed.
    pub fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    /// Adds the current increment to `i`'s activity (rescaling all on overflow).
    pub fn bump(&mut self, i: u32) {
        self.bump_by(i, 1.0);
    }

    /// Adds `factor` times the current increment.
    pub fn bump_by(&mut self, i: u32, factor: f64) {
        self.grow_to(i as usize, 0.0);
        let a = &mut self.activity[i as usize];
        *a += self.inc * factor;
        if *a > 1e100 {
            for x in self.activity.iter_mut() {
                *x *= 1e-100;
            }
            self.inc *= 1e-100;
        }
        if self.contains(i) {
            self.sift_up(self.pos[i as usize] as usize);
        }
    }

    /// Makes future bumps count more (`1/decay` times), which decays all past ones.
    pub fn decay(&mut self, decay: f64) {
        self.inc /= decay;
        if self.inc > 1e100 {
            for x in self.activity.iter_mut() {
                *x *= 1e-100;
            }
            self.inc *= 1e-100;
        }
    }

    #[inline]
    fn better(&self, a: u32, b: u32) -> bool {
        self.activity[a as usize] > self.activity[b as usize]
    }

    fn sift_up(&mut self, mut i: usize) {
        let x = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !self.better(x, p) {
                break;
            }
            self.heap[i] = p;
            self.pos[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = x;
        self.pos[x as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize) {
        let x = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.better(self.heap[r], self.heap[l]) {
                r
            } else {
                l
            };
            if !self.better(self.heap[c], x) {
                break;
            }
            self.heap[i] = self.heap[c];
            self.pos[self.heap[i] as usize] = i as u32;
            i = c;
        }
        self.heap[i] = x;
        self.pos[x as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_activity_order() {
        let mut h = ActivityHeap::new();
        for i in 0..10 {
            h.grow_to(i, i as f64);
        }
        for i in 0..10 {
            h.insert(i as u32);
        }
        h.bump_by(2, 100.0);
        assert_eq!(h.pop(), Some(2));
        assert_eq!(h.pop(), Some(9));
        assert!(!h.contains(9) && h.contains(3));
        h.insert(9);
        h.insert(9);
        assert_eq!(h.len(), 9);
        let mut last = f64::INFINITY;
        while let Some(i) = h.pop() {
            assert!(h.activity[i as usize] <= last);
            last = h.activity[i as usize];
        }
    }

    #[test]
    fn rescales_without_losing_order() {
        let mut h = ActivityHeap::new();
        h.insert(0);
        h.insert(1);
        for _ in 0..2000 {
            h.bump(1);
            h.decay(0.5);
        }
        h.bump(0);
        assert!(h.activity.iter().all(|a| a.is_finite()));
        // 1 got all the (growing) bumps, 0 only the last one
        assert_eq!(h.pop(), Some(1));
        assert_eq!(h.pop(), Some(0));
    }
}
