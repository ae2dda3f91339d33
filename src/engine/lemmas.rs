//! A pool of proved lemmas that engines running side by side share (seed 001: invariant
//! injection). A lemma is a clause over the latches of the one system all workers check, and
//! it is published only once proved to hold in every reachable state (under the constraints),
//! so any engine may add it to any frame of its own encoding.

use std::sync::{Arc, Mutex};

use crate::aig::Lit;

/// A clause over latch literals (the AIG literals of the system's latch variables).
pub type Lemma = Vec<Lit>;

/// Shared, append-only list of proved lemmas. Cheap to clone (all clones share the list).
#[derive(Clone, Default, Debug)]
pub struct LemmaPool {
    lemmas: Arc<Mutex<Vec<Lemma>>>,
}

impl LemmaPool {
    pub fn new() -> LemmaPool {
        LemmaPool::default()
    }

    /// Adds proved lemmas.
    pub fn publish(&self, lemmas: impl IntoIterator<Item = Lemma>) {
        self.lemmas.lock().unwrap().extend(lemmas);
    }

    /// The lemmas published since `cursor` (a count this caller keeps), advancing it.
    pub fn fetch(&self, cursor: &mut usize) -> Vec<Lemma> {
        let all = self.lemmas.lock().unwrap();
        let new = all[(*cursor).min(all.len())..].to_vec();
        *cursor = all.len();
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reader_sees_every_lemma_once() {
        let pool = LemmaPool::new();
        let (mut a, mut b) = (0, 0);
        pool.publish([vec![Lit(2)]]);
        assert_eq!(pool.fetch(&mut a), vec![vec![Lit(2)]]);
        pool.publish([vec![Lit(4), Lit(7)]]);
        assert_eq!(pool.fetch(&mut a), vec![vec![Lit(4), Lit(7)]]);
        assert_eq!(pool.fetch(&mut b).len(), 2);
        assert!(pool.fetch(&mut a).is_empty());
    }
}
