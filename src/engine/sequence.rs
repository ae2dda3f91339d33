//! A conditional sequence (seed 003, Beyer et al.'s conditional model checking): BMC, then
//! k-induction, then IC3, one after the other, each given its share of the time left and
//! what the ones before it verified, so that none checks again what an earlier one proved.
//!
//! What passes from one stage to the next is the condition of [`crate::condition`], inside
//! one process: BMC's clean depth `D` makes k-induction's base case start at `D + 1`
//! ([`Kind::from_depth`]), and the lemmas k-induction proves go through the lemma pool into
//! IC3's F_inf. A stage that decides ends the sequence; its answer is checked like any
//! engine's (the caller replays traces and checks invariants).
//!
//! Seed 003's sequence for C programs is BMC, then explicit-value analysis, then predicate
//! abstraction; the CFA analyses here read no condition, so the sequence is made of the
//! engines of the bit-level system that do, for circuits and programs alike.

use std::time::Duration;

use super::bmc::{Bmc, BmcOptions};
use super::ic3::{Ic3, Ic3Options};
use super::kind::Kind;
use super::lemmas::LemmaPool;
use super::{Engine, Stats, Verdict};
use crate::check::EngineKind;
use crate::ts::TransitionSystem;
use crate::Budget;

/// The stages, in order.
const STAGES: [EngineKind; 3] = [EngineKind::Bmc, EngineKind::Kind, EngineKind::Ic3];

/// The share of a stage before the last when the run has no time limit.
const UNLIMITED_SHARE: Duration = Duration::from_secs(30);

/// BMC, then k-induction, then IC3, passing conditions.
pub struct Sequence {
    max_depth: Option<usize>,
    bmc: BmcOptions,
    ic3: Ic3Options,
    pool: LemmaPool,
    /// The first depth not known clean when the sequence starts (a condition read in).
    from_depth: usize,
    /// The stage running or last run (its name is the engine's).
    stage: usize,
    /// Counters of the stages run so far.
    stats: Stats,
}

impl Sequence {
    /// BMC bounded by `max_depth` with `bmc`, k-induction, IC3 with `ic3`; k-induction and IC3
    /// share `pool`.
    pub fn new(
        max_depth: Option<usize>,
        bmc: BmcOptions,
        ic3: Ic3Options,
        pool: LemmaPool,
    ) -> Sequence {
        Sequence {
            max_depth,
            bmc,
            ic3,
            pool,
            from_depth: 0,
            stage: 0,
            stats: Vec::new(),
        }
    }

    /// Starts BMC (and k-induction's base case, should BMC add nothing) at `depth`: the
    /// depths below are known clean.
    pub fn from_depth(mut self, depth: usize) -> Sequence {
        self.from_depth = depth;
        self
    }

    /// The engine of stage `stage`, given that the frames below `clean` are clean.
    fn engine(&self, stage: usize, clean: usize) -> Box<dyn Engine + Send> {
        match STAGES[stage] {
            EngineKind::Bmc => Box::new(
                Bmc::new(self.max_depth)
                    .with_options(self.bmc)
                    .from_depth(clean),
            ),
            EngineKind::Kind => Box::new(
                Kind::new(self.max_depth)
                    .with_lemma_pool(self.pool.clone())
                    .from_depth(clean),
            ),
            _ => Box::new(
                Ic3::new()
                    .with_options(self.ic3)
                    .with_lemma_pool(self.pool.clone()),
            ),
        }
    }
}

impl Engine for Sequence {
    fn name(&self) -> &'static str {
        STAGES[self.stage].name()
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let mut clean = self.from_depth;
        let mut verdict = Verdict::Unknown {
            depth: clean.checked_sub(1),
        };
        for stage in 0..STAGES.len() {
            if budget.expired() {
                break;
            }
            self.stage = stage;
            let left = STAGES.len() - stage;
            let share = match budget.remaining() {
                _ if left == 1 => budget.child(),
                Some(rest) => budget.child_for(rest / left as u32),
                None => budget.child_for(UNLIMITED_SHARE),
            };
            let mut engine = self.engine(stage, clean);
            verdict = engine.check(ts, &share);
            self.stats.extend(engine.stats());
            match verdict {
                Verdict::Unknown { depth } => {
                    // The depth BMC (or the base case) reached: the next stage's condition.
                    clean = clean.max(depth.map_or(0, |d| d + 1));
                    verdict = Verdict::Unknown {
                        depth: clean.checked_sub(1),
                    };
                }
                _ => break,
            }
        }
        verdict
    }

    fn stats(&self) -> Stats {
        let mut stats = self.stats.clone();
        stats.push(("sequence_stage", self.stage as u64));
        stats
    }
}
