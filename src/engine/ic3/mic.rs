//! Inductive generalisation: MIC with counterexamples to generalisation (CTGs), after
//! Hassan, Bradley and Somenzi, "Better generalization in IC3" (FMCAD 2013), as in IC3ref.
//!
//! MIC tries to drop each literal of a blocked cube, least active first. A drop fails when
//! the smaller cube has a predecessor in the frame (a CTG); instead of giving up at once, a
//! CTG that is itself blocked one frame lower is excluded by a lemma of its own (generalised
//! one nesting level deeper), which often makes the drop succeed. After `--ic3-ctg-max` CTGs in a
//! row the cube is *joined* with the CTG instead: only the literals the CTG shares survive,
//! so the next attempt covers it. Where no CTG is tried, the predecessor is not lifted for
//! the join: the cube keeps the literals its full state satisfies (rIC3's `down`;
//! `--ic3-join`), which saves a query over the whole cone per failed drop.
//!
//! `--ic3-mic-attempts` bounds the failed drops in a row (3, as IC3ref); with 0 every
//! literal is tried once, as rIC3 does, and a drop whose predecessor falsifies a literal that
//! already failed to drop gives up at once.
//!
//! `--ic3-simple-mic` skips CTGs and joins: a drop that fails keeps its literal.
//!
//! With `--ic3-parent`, a cube that a lemma of level exactly i excludes (its *parent*: a
//! lemma of F_i that did not reach F_{i+1}) tries to drop the other literals first, so the
//! new lemma tends to be the parent plus the few literals that make it hold one frame
//! higher (Xia et al., CAV 2023).

use std::time::Instant;

use super::cube::subsumes;
use super::lift::Target;
use super::options::{CtgEffort, Join};
use super::{Cube, Ic3Solver, Interrupted, LIMITS};

impl Ic3Solver<'_> {
    /// Generalises `cube`, blocked relative to F_i and excluding the initial states, into a
    /// sub-cube with the same two properties (with the default CTG limit).
    pub fn generalize(&mut self, i: usize, cube: Cube) -> Result<Cube, Interrupted> {
        self.generalize_with(i, cube, self.options.ctg_effort())
    }

    /// [`Self::generalize`] with the CTG effort `effort`.
    pub(super) fn generalize_with(
        &mut self,
        i: usize,
        cube: Cube,
        effort: CtgEffort,
    ) -> Result<Cube, Interrupted> {
        let start = Instant::now();
        let parent = if self.options.parent {
            self.parent(i, &cube)
        } else {
            None
        };
        let result = self.mic(i, cube, parent.as_deref(), 0, effort);
        self.counters.mic_time += start.elapsed();
        result
    }

    /// The first lemma stored at level `i` that excludes `cube`.
    fn parent(&self, i: usize, cube: &[crate::aig::Lit]) -> Option<Cube> {
        let mut sorted = cube.to_vec();
        sorted.sort();
        (self.frames.level(i).iter())
            .find(|p| subsumes(p, &sorted))
            .cloned()
    }

    /// MIC, least active literal first; the literals of `parent` (sorted) come last.
    fn mic(
        &mut self,
        i: usize,
        mut cube: Cube,
        parent: Option<&[crate::aig::Lit]>,
        depth: usize,
        effort: CtgEffort,
    ) -> Result<Cube, Interrupted> {
        self.activity.sort_ascending(&mut cube);
        if let Some(parent) = parent {
            cube.sort_by_key(|l| parent.binary_search(l).is_ok());
        }
        // 0 attempts: no limit (u32::MAX failures in a row cannot happen).
        let limit = match self.options.mic_attempts {
            0 => u32::MAX,
            n => n,
        };
        let mut attempts = limit;
        let mut j = 0;
        while j < cube.len() {
            let mut candidate = cube.clone();
            candidate.remove(j);
            match self.ctg_down(i, candidate, j, depth, effort)? {
                Some(smaller) => {
                    cube.retain(|l| smaller.contains(l));
                    attempts = limit;
                }
                None => {
                    attempts -= 1;
                    if attempts == 0 {
                        break;
                    }
                    j += 1;
                }
            }
        }
        cube.sort();
        Ok(cube)
    }

    /// Tries to show `cube` blocked relative to F_i, blocking CTGs or joining on the way.
    /// `Some(c)`: a blocked sub-cube. The first `keep` literals are ones MIC could not drop
    /// before: a join that loses one gives up.
    fn ctg_down(
        &mut self,
        i: usize,
        mut cube: Cube,
        keep: usize,
        depth: usize,
        effort: CtgEffort,
    ) -> Result<Option<Cube>, Interrupted> {
        let mut ctgs = 0;
        loop {
            if !self.init.excludes(&cube) {
                return Ok(None);
            }
            if let Some(core) = self.relative_induction(i, &cube)? {
                return Ok(Some(core));
            }
            if self.options.simple_mic || depth > LIMITS.ctg_depth {
                return Ok(None);
            }
            // Trying every literal (rIC3's MIC): a predecessor outside a literal that must
            // stay dooms the drop, as a join would lose that literal; give up before lifting
            // it and blocking CTGs for nothing.
            if self.options.mic_attempts == 0 {
                let s = self.frames.solver(i);
                if cube[..keep.min(cube.len())].iter().any(|&l| !s.holds(l)) {
                    return Ok(None);
                }
            }
            let try_ctg = ctgs < effort.max && i > 0;
            let ctg = if try_ctg || self.options.join == Join::Lift {
                Some(self.predecessor(i, Target::Cube(&cube))?.0)
            } else {
                None
            };
            if let (true, Some(ctg)) = (try_ctg, &ctg) {
                let mut budget = effort.limit;
                if self.block_ctg(i - 1, ctg, depth, effort, &mut budget)? {
                    ctgs += 1;
                    continue;
                }
            }
            ctgs = 0;
            let s = self.frames.solver(i);
            let stays = |l: &crate::aig::Lit| match &ctg {
                Some(ctg) => ctg.binary_search(l).is_ok(),
                None => s.holds(*l),
            };
            if cube[..keep.min(cube.len())].iter().any(|l| !stays(l)) {
                return Ok(None);
            }
            cube.retain(|l| stays(l));
        }
    }

    /// Excludes the CTG `ctg` from F_{k+1} by a lemma of its own (generalised one nesting
    /// level deeper and pushed as high as it holds), trying to block at most `budget` cubes:
    /// the CTG, and while it is not blocked its predecessor a frame lower (recursively),
    /// after which it is tried again.
    fn block_ctg(
        &mut self,
        k: usize,
        ctg: &[crate::aig::Lit],
        depth: usize,
        effort: CtgEffort,
        budget: &mut u32,
    ) -> Result<bool, Interrupted> {
        if *budget == 0 || !self.init.excludes(ctg) {
            return Ok(false);
        }
        *budget -= 1;
        loop {
            if let Some(core) = self.relative_induction(k, ctg)? {
                self.counters.ctgs += 1;
                let (level, core) = self.push_up(k + 1, core)?;
                let lemma = self.mic(level - 1, core, None, depth + 1, effort)?;
                self.add_lemma(level, lemma);
                return Ok(true);
            }
            if k == 0 || *budget == 0 {
                return Ok(false);
            }
            let (pred, _) = self.predecessor(k, Target::Cube(ctg))?;
            if !self.block_ctg(k - 1, &pred, depth, effort, budget)? {
                return Ok(false);
            }
            self.counters.ctg_preds += 1;
        }
    }
}
