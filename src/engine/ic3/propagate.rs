//! Pushing lemmas forward after a round, which is where the invariant appears.
//!
//! With `--ic3-ctp`, a lemma that does not move up is not given up at once: the state of
//! F_level that reaches its cube (a counterexample to propagation) is often unreachable
//! itself, blocked relative to F_{level-1}; it then becomes a lemma of its own and the push
//! is tried again (Gurfinkel and Ivrii, "Pushing to the top", FMCAD 2015).

use std::time::Instant;

use super::cube::Cube;
use super::lift::Target;
use super::{Ic3Solver, Interrupted, LIMITS};

impl Ic3Solver<'_> {
    /// Moves every lemma that stays blocked one level up (a level whose frame has not grown
    /// since its last pass is skipped: its lemmas would stay where they are), then offers the
    /// lemmas that reached the last frame to F_inf. `Some(level)`: level `level` ended up
    /// empty, so F_level equals F_{level+1} and is an inductive invariant (it excludes the bad
    /// states: level < N).
    pub(super) fn propagate(&mut self) -> Result<Option<usize>, Interrupted> {
        let start = Instant::now();
        let result = self.push_all();
        self.counters.prop_time += start.elapsed();
        result
    }

    fn push_all(&mut self) -> Result<Option<usize>, Interrupted> {
        let top = self.frames.top();
        for level in 1..top {
            let cubes = if self.frames.take_changed(level) {
                self.frames.level(level).to_vec()
            } else {
                Vec::new()
            };
            for cube in cubes {
                // A lemma pushed just before may have subsumed this one.
                if !self.frames.level(level).contains(&cube) {
                    continue;
                }
                if let Some(core) = self.push(level, &cube)? {
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
                self.publish(&core);
                self.frames.add_inf(core);
            }
        }
        Ok(None)
    }

    /// `Some(core)`: the lemma excluding `cube`, of level `level`, holds in F_{level+1} as the
    /// lemma excluding `core`. With `--ic3-ctp`, up to `ctp_max` counterexamples to
    /// propagation are blocked on the way.
    fn push(&mut self, level: usize, cube: &Cube) -> Result<Option<Cube>, Interrupted> {
        let mut ctps = 0;
        loop {
            if let Some(core) = self.relative_induction(level, cube)? {
                return Ok(Some(core));
            }
            if !self.options.ctp || ctps == LIMITS.ctp_max {
                return Ok(None);
            }
            let (ctp, _) = self.predecessor(level, Target::Cube(cube))?;
            if !self.init.excludes(&ctp) {
                return Ok(None);
            }
            let Some(core) = self.relative_induction(level - 1, &ctp)? else {
                return Ok(None);
            };
            ctps += 1;
            self.counters.ctps += 1;
            self.block_cube(level - 1, core, self.options.ctg_effort())?;
        }
    }
}
