//! Variables as `u32` newtypes and maps indexed by them.

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A variable of a formula or of the solver: Boolean or theory (int, real, IEEE, machine int).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Var(pub u32);

impl Var {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Something indexable by a `u32` newtype.
pub trait Idx: Copy {
    fn from_index(i: usize) -> Self;
    fn index(self) -> usize;
}

impl Idx for Var {
    fn from_index(i: usize) -> Self {
        Var(u32::try_from(i).expect("more than 2^32 variables"))
    }
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// A vector indexed by a typed index (`VarMap<VarInfo>`), so that a `Var` of one map cannot be
/// confused with a position in another kind of table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IdxVec<I: Idx, T> {
    items: Vec<T>,
    _marker: PhantomData<fn(I) -> I>,
}

pub type VarMap<T> = IdxVec<Var, T>;

impl<I: Idx, T> Default for IdxVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Idx, T> IdxVec<I, T> {
    pub fn new() -> Self {
        IdxVec {
            items: Vec::new(),
            _marker: PhantomData,
        }
    }
    pub fn push(&mut self, item: T) -> I {
        let id = I::from_index(self.items.len());
        self.items.push(item);
        id
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    pub fn get(&self, i: I) -> Option<&T> {
        self.items.get(i.index())
    }
    pub fn iter(&self) -> impl Iterator<Item = (I, &T)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, t)| (I::from_index(i), t))
    }
    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
    pub fn keys(&self) -> impl Iterator<Item = I> {
        (0..self.items.len()).map(I::from_index)
    }
}

impl<I: Idx, T: Clone> IdxVec<I, T> {
    pub fn from_elem(item: T, n: usize) -> Self {
        IdxVec {
            items: vec![item; n],
            _marker: PhantomData,
        }
    }
}

impl<I: Idx, T> Index<I> for IdxVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: I) -> &T {
        &self.items[i.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IdxVec<I, T> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.items[i.index()]
    }
}
