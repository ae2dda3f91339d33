//! Localization inside IC3 (`--ic3-abs`; rIC3's `--abs-trans`).
//!
//! Localization as an outer loop ([`crate::engine::cegar`]) restarts IC3 on every finer
//! abstraction and carries its lemmas over through a pool. Here IC3 keeps its frames: the
//! relative-induction queries always see the whole transition relation, so every lemma holds
//! of the concrete system, and only the predecessors are abstract. A predecessor is lifted
//! towards the visible latches of its successor cube only (none at first), so an obligation
//! names what the visible latches' next values need and nothing about the others: an
//! over-approximation, of which a chain of obligations that reaches the initial states is an
//! abstract counterexample of known length.
//!
//! BMC at that length with the invisible latches guarded decides it ([`refine_by_core`], the
//! check of the outer localization): satisfiable with every guard, it is a counterexample of
//! the concrete system; refuted, the latches of its (minimised) unsat core become visible
//! and the round starts again with the lemmas learnt so far. The core is never empty (with
//! every latch free, a satisfiable bad state is reachable in any number of steps), so each
//! refinement makes one latch visible at least, and once all are, IC3 is plain IC3.
//!
//! Each check is a fresh solver: an incremental one kept for the run (one guard per latch,
//! frames added as deeper chains come) was measured slower, 12.2 s of 20 in checks on
//! `qspiflash_dualflexpress_divthree-p134` against 14.7 s for the whole proof this way, and
//! its unminimised cores made more latches visible (55-61 against 52).

use super::{Cube, Interrupted};
use crate::aig::{Lit, Var};
use crate::engine::cegar::path::{refine_by_core, Check, Length};
use crate::ts::{Leaf, Trace, TransitionSystem};
use crate::Budget;
use std::time::{Duration, Instant};

pub(super) struct Abstraction {
    /// What each AIG variable is as a leaf ([`TransitionSystem::leaf_kinds`]).
    kinds: Vec<Option<Leaf>>,
    visible: Vec<bool>,
    budget: Budget,
    /// Abstract counterexamples refuted so far.
    pub(super) refinements: u64,
    /// Time in the BMC checks.
    pub(super) time: Duration,
}

impl Abstraction {
    /// Every latch invisible.
    pub(super) fn new(ts: &TransitionSystem, budget: &Budget) -> Abstraction {
        Abstraction {
            kinds: ts.leaf_kinds(),
            visible: vec![false; ts.latches.len()],
            budget: budget.clone(),
            refinements: 0,
            time: Duration::ZERO,
        }
    }

    /// Whether `v` is a visible latch or not a latch at all (a state signal of `--ic3-inn`).
    fn sees(&self, v: Var) -> bool {
        match self.kinds[v.index()] {
            Some(Leaf::Latch(i)) => self.visible[i],
            _ => true,
        }
    }

    /// The literals of `cube` that a predecessor must lead to.
    pub(super) fn visible_part(&self, cube: &[Lit]) -> Cube {
        cube.iter()
            .copied()
            .filter(|l| self.sees(l.var()))
            .collect()
    }

    /// The visible latches.
    pub(super) fn visible(&self) -> usize {
        self.visible.iter().filter(|&&v| v).count()
    }

    /// Whether every latch is visible: obligations are then concrete.
    pub(super) fn complete(&self) -> bool {
        self.visible.iter().all(|&v| v)
    }

    /// Checks an abstract counterexample of `depth` steps: `Some` concrete counterexample,
    /// or `None` after making the latches that refute it visible.
    pub(super) fn check(
        &mut self,
        ts: &TransitionSystem,
        depth: usize,
    ) -> Result<Option<Trace>, Interrupted> {
        let start = Instant::now();
        let check = refine_by_core(ts, &self.visible, &Length(depth), &self.budget);
        self.time += start.elapsed();
        match check {
            Check::Feasible(trace) => Ok(Some(trace)),
            Check::Stopped => Err(Interrupted),
            Check::Spurious(core) => {
                self.refinements += 1;
                if core.is_empty() {
                    // Unreachable (see the module's documentation); every latch visible is
                    // plain IC3, which is always right.
                    self.visible.fill(true);
                }
                for i in core {
                    self.visible[i] = true;
                }
                crate::log::info(
                    2,
                    format_args!(
                        "ic3: abstract counterexample of {depth} steps refuted, {} of {} latches visible",
                        self.visible(),
                        self.visible.len()
                    ),
                );
                Ok(None)
            }
        }
    }
}
