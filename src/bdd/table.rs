//! The two hash tables of the [`super::Manager`]: the unique table (one node per
//! `(var, lo, hi)`) and the operation cache.
//!
//! Both are our own flat arrays rather than `HashMap`s: a profile of reachability on
//! `tn_semaphore` circuits spent 22 % of its time inserting into the map-based cache and 35 % in
//! node creation. The unique table is open addressing over node indices (the key is read
//! from the node array, so a slot is 4 bytes); the cache is lossy and direct-mapped, as in
//! CUDD: a new result overwrites whatever shared its slot, so it never needs emptying to
//! bound its memory, and it grows with the number of nodes.

use super::{Bdd, Node, Op};

/// Multipliers of the hash (odd, from the golden ratio and two large primes).
const K: [u64; 4] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
];

fn mix(words: [u32; 4]) -> u64 {
    let h = (0..4).fold(0u64, |h, i| h ^ (words[i] as u64 + 1).wrapping_mul(K[i]));
    h ^ (h >> 29)
}

/// Open addressing with linear probing; slot 0 is empty (node 0 is a terminal, never stored).
pub(super) struct Unique {
    slots: Vec<u32>,
    len: usize,
}

impl Default for Unique {
    fn default() -> Self {
        Unique {
            slots: vec![0; 1 << 12],
            len: 0,
        }
    }
}

impl Unique {
    /// The first slot to probe for `(var, lo, hi)`.
    fn home(&self, var: u32, lo: Bdd, hi: Bdd) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (mix([var, lo.0, hi.0, 0]).wrapping_mul(K[0]) >> (64 - bits)) as usize
    }

    /// The node `(var, lo, hi)`, or the empty slot where it belongs.
    pub(super) fn find(&self, nodes: &[Node], var: u32, lo: Bdd, hi: Bdd) -> Result<Bdd, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(var, lo, hi);
        loop {
            let s = self.slots[i];
            if s == 0 {
                return Err(i);
            }
            let n = nodes[s as usize];
            if n.var == var && n.lo == lo && n.hi == hi {
                return Ok(Bdd(s));
            }
            i = (i + 1) & mask;
        }
    }

    /// Stores `f` (already in `nodes`) in the empty `slot` that [`Self::find`] gave; the table
    /// doubles when half full.
    pub(super) fn insert(&mut self, nodes: &[Node], slot: usize, f: Bdd) {
        self.slots[slot] = f.0;
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            let size = 2 * self.slots.len();
            let old = std::mem::replace(&mut self.slots, vec![0; size]);
            for s in old.into_iter().filter(|&s| s != 0) {
                let n = nodes[s as usize];
                let slot = (self.find(nodes, n.var, n.lo, n.hi)).expect_err("nodes are distinct");
                self.slots[slot] = s;
            }
        }
    }
}

#[derive(Copy, Clone)]
struct Entry {
    op: Op,
    a: Bdd,
    b: Bdd,
    stamp: u32,
    result: Bdd,
}

const EMPTY: Entry = Entry {
    op: Op::None,
    a: Bdd::FALSE,
    b: Bdd::FALSE,
    stamp: 0,
    result: Bdd::FALSE,
};

/// The smallest and largest number of cache entries (20 bytes each: 160 MB at the largest).
const CACHE_MIN: usize = 1 << 16;
const CACHE_MAX: usize = 1 << 23;

/// A direct-mapped cache of operation results, as many entries as there are nodes (a power
/// of two within [`CACHE_MIN`], [`CACHE_MAX`]).
pub(super) struct Cache {
    entries: Vec<Entry>,
}

impl Default for Cache {
    fn default() -> Self {
        Cache {
            entries: vec![EMPTY; CACHE_MIN],
        }
    }
}

impl Cache {
    fn slot(&self, op: Op, a: Bdd, b: Bdd, stamp: u32) -> usize {
        let bits = self.entries.len().trailing_zeros();
        (mix([op as u32, a.0, b.0, stamp]).wrapping_mul(K[1]) >> (64 - bits)) as usize
    }

    pub(super) fn get(&self, op: Op, a: Bdd, b: Bdd, stamp: u32) -> Option<Bdd> {
        let e = self.entries[self.slot(op, a, b, stamp)];
        (e.op == op && e.a == a && e.b == b && e.stamp == stamp).then_some(e.result)
    }

    pub(super) fn put(&mut self, op: Op, a: Bdd, b: Bdd, stamp: u32, result: Bdd) {
        let i = self.slot(op, a, b, stamp);
        self.entries[i] = Entry {
            op,
            a,
            b,
            stamp,
            result,
        };
    }

    /// Doubles the cache (emptied) while it has fewer entries than `nodes`.
    pub(super) fn fit(&mut self, nodes: usize) {
        if nodes > self.entries.len() && self.entries.len() < CACHE_MAX {
            self.entries = vec![EMPTY; 2 * self.entries.len()];
        }
    }

    /// Forgets every result (node identities changed).
    pub(super) fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }
}
