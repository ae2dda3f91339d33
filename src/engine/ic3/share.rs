//! Lemma sharing with engines that run beside this one (through a [`LemmaPool`]).
//!
//! Out: a lemma that enters F_inf is inductive relative to F_inf and holds initially, so it
//! holds in every reachable state and may be published. The pool's readers need more than
//! true lemmas: k-induction puts the lemmas it fetched into its invariant, whose check asks
//! them to be inductive together. So every lemma of F_inf is in the pool when it is
//! published (each is inductive relative to lemmas published before it, and every prefix
//! of the pool is an inductive set): a seed that joins F_inf is published too, and once a
//! lemma the pool cannot hold joins F_inf (one naming internal signals, `--ic3-inn`), this
//! engine publishes nothing more, since what it proves from then on may rest on that one.
//!
//! In: the pool's lemmas are proved invariants, but this engine's answer is an inductive
//! invariant built from its own frames, so an imported lemma joins F_inf only once it holds
//! initially and the imported set is inductive relative to F_inf (Houdini: drop the lemmas
//! that are not, until none is dropped). The rest wait for the next round, when F_inf or
//! the pool may have grown.
//!
//! [`LemmaPool`]: crate::engine::lemmas::LemmaPool

use super::cube::{clause, Cube};
use super::{Ic3Solver, Interrupted};

#[derive(Default)]
pub(super) struct Share {
    /// How many of the pool's lemmas have been fetched.
    cursor: usize,
    /// Imported lemmas, as the cubes they exclude, not yet inductive relative to F_inf.
    pending: Vec<Cube>,
    /// Size of F_inf at the last attempt: waiting lemmas are retried only after it grew.
    inf_seen: usize,
    /// Seeds were offered since the last attempt.
    seeded: bool,
    /// The seeds still waiting (to count those that join F_inf).
    seeds: rustc_hash::FxHashSet<Cube>,
    /// A lemma of F_inf is not in the pool (it names internal signals): nothing more is
    /// published.
    unpublished: bool,
}

impl Ic3Solver<'_> {
    /// Offers `clauses` (over latches, not necessarily true) to F_inf: they wait with the
    /// pool's lemmas and join it only by the same check (see [`Ic3::with_seeds`]).
    ///
    /// [`Ic3::with_seeds`]: super::Ic3::with_seeds
    pub(super) fn seed(&mut self, clauses: Vec<Vec<crate::aig::Lit>>) {
        for lemma in clauses {
            let mut cube: Cube = lemma.iter().map(|&l| !l).collect();
            cube.sort();
            if lemma.iter().all(|&l| self.init.is_latch(l)) && self.init.excludes(&cube) {
                self.counters.seeds += 1;
                self.share.seeds.insert(cube.clone());
                self.share.pending.push(cube);
                self.share.seeded = true;
            }
        }
    }

    /// Adds the lemmas of the pool that are inductive relative to F_inf to F_inf.
    pub(super) fn import(&mut self) -> Result<(), Interrupted> {
        let fresh = match &self.pool {
            Some(pool) => pool.fetch(&mut self.share.cursor),
            None => Vec::new(),
        };
        let grew = self.frames.inf_len() != self.share.inf_seen;
        let seeded = std::mem::take(&mut self.share.seeded);
        if fresh.is_empty() && !grew && !seeded {
            return Ok(());
        }
        for lemma in fresh {
            if lemma.iter().all(|&l| self.init.is_latch(l)) {
                let mut cube: Cube = lemma.iter().map(|&l| !l).collect();
                cube.sort();
                if self.init.excludes(&cube) {
                    self.share.pending.push(cube);
                }
            }
        }
        let mut candidates = std::mem::take(&mut self.share.pending);
        loop {
            let s = self.frames.inf_solver();
            let guard = s.guard();
            for cube in &candidates {
                let mut clause = vec![!guard];
                clause.extend(cube.iter().map(|&l| s.cur(!l)));
                s.add_clause(&clause);
            }
            let before = candidates.len();
            let mut inductive = Vec::with_capacity(before);
            for cube in candidates {
                self.counters.queries += 1;
                if s.implies_next(guard, &cube)? {
                    self.share.pending.push(cube);
                } else {
                    inductive.push(cube);
                }
            }
            s.add_clause(&[!guard]);
            candidates = inductive;
            // The dropped lemmas were assumed while the others were checked: check again.
            if candidates.len() == before || candidates.is_empty() {
                break;
            }
        }
        for cube in candidates {
            if self.share.seeds.remove(&cube) {
                self.counters.seeds_kept += 1;
                self.publish(&cube);
            }
            self.frames.add_inf(cube);
        }
        self.share.inf_seen = self.frames.inf_len();
        Ok(())
    }

    /// Publishes the lemma excluding `cube`, which joins F_inf, to the pool (see the module
    /// doc): while every lemma of F_inf is there, and if it speaks of latches only.
    pub(super) fn publish(&mut self, cube: &Cube) {
        let Some(pool) = &self.pool else {
            return;
        };
        if !cube.iter().all(|&l| self.init.is_latch(l)) {
            self.share.unpublished = true;
        }
        if !self.share.unpublished {
            pool.publish([clause(cube)]);
        }
    }
}
