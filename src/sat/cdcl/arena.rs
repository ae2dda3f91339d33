//! The clause arena: every clause in one `Vec<u32>`, addressed by its offset (a `CRef`).
//!
//! A clause is a header word (length, learnt and deleted flags), its LBD word, then its
//! literals (codes `2 * var + sign`, as `rustsat`'s `lidx`). One flat vector keeps the
//! clauses IC3's small queries visit in few cache lines, and deleting a clause is a flag:
//! the space is reclaimed by [`Arena::compact`] when half of it is garbage.

/// The offset of a clause in the arena.
pub(super) type CRef = u32;

/// No clause (a decision or a level-0 assignment has no reason).
pub(super) const NO_REASON: CRef = u32::MAX;

const LEARNT: u32 = 1 << 30;
const DELETED: u32 = 1 << 31;
const LEN_MASK: u32 = LEARNT - 1;
/// Header and LBD words before the literals.
const HEAD: usize = 2;

#[derive(Default)]
pub(super) struct Arena {
    data: Vec<u32>,
    /// Words held by deleted clauses.
    wasted: usize,
}

impl Arena {
    pub(super) fn alloc(&mut self, lits: &[u32], learnt: bool, lbd: u32) -> CRef {
        let cref = self.data.len() as CRef;
        let flag = if learnt { LEARNT } else { 0 };
        self.data.push(lits.len() as u32 | flag);
        self.data.push(lbd);
        self.data.extend_from_slice(lits);
        cref
    }

    pub(super) fn len(&self, c: CRef) -> usize {
        (self.data[c as usize] & LEN_MASK) as usize
    }

    pub(super) fn deleted(&self, c: CRef) -> bool {
        self.data[c as usize] & DELETED != 0
    }

    pub(super) fn delete(&mut self, c: CRef) {
        self.wasted += HEAD + self.len(c);
        self.data[c as usize] |= DELETED;
    }

    pub(super) fn lbd(&self, c: CRef) -> u32 {
        self.data[c as usize + 1]
    }

    pub(super) fn lits(&self, c: CRef) -> &[u32] {
        let start = c as usize + HEAD;
        &self.data[start..start + self.len(c)]
    }

    pub(super) fn lits_mut(&mut self, c: CRef) -> &mut [u32] {
        let start = c as usize + HEAD;
        let len = self.len(c);
        &mut self.data[start..start + len]
    }

    /// Whether more than half of the arena is deleted clauses.
    pub(super) fn mostly_garbage(&self) -> bool {
        self.wasted * 2 > self.data.len()
    }

    /// Moves the live clauses of `crefs` (each list in place) to a fresh arena, dropping the
    /// deleted ones. Every other reference into the arena is stale afterwards.
    pub(super) fn compact(&mut self, lists: [&mut Vec<CRef>; 2]) {
        let mut fresh = Arena::default();
        fresh.data.reserve(self.data.len() - self.wasted);
        for list in lists {
            list.retain(|&c| !self.deleted(c));
            for c in list.iter_mut() {
                let head = self.data[*c as usize];
                *c = fresh.alloc(self.lits(*c), head & LEARNT != 0, self.lbd(*c));
            }
        }
        *self = fresh;
    }
}
