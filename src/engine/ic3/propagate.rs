//! Pushing lemmas forward after a round, which is where the invariant appears.

use super::cube::clause;
use super::{Ic3Solver, Interrupted};

impl Ic3Solver<'_> {
    /// Moves every lemma that stays blocked one level up, then offers the lemmas that reached
    /// the last frame to F_inf. `Some(level)`: level `level` ended up empty, so F_level equals
    /// F_{level+1} and is an inductive invariant (it excludes the bad states: level < N).
    pub(super) fn propagate(&mut self) -> Result<Option<usize>, Interrupted> {
        let top = self.frames.top();
        for level in 1..top {
            for cube in self.frames.level(level).to_vec() {
                // A lemma pushed just before may have subsumed this one.
                if !self.frames.level(level).contains(&cube) {
                    continue;
                }
                if let Some(core) = self.relative_induction(level, &cube)? {
                    self.frames.add(level + 1, core);
                }
            }
            if self.frames.level(level).is_empty() {
                return Ok(Some(level));
            }
        }
        for cube in self.frames.level(top).to_vec() {
            self.counters.queries += 1;
            let s = self.frames.inf_solver();
            if !s.relative_induction(&cube)? {
                let core = s.core(&self.init, &cube);
                if let Some(pool) = &self.pool {
                    pool.publish([clause(&core)]);
                }
                self.frames.add_inf(core);
            }
        }
        Ok(None)
    }
}
