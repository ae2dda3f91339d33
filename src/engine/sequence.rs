//! A conditional sequence (seed 003, Beyer et al.'s conditional model checking): BMC, then
//! k-induction, then IC3, one after the other, each given its share of the time left and
//! what the ones before it verified, so that none checks again what an earlier one proved.
//!
//! What passes from one stage to the next is the condition of [`crate::condition`], inside
//! one process: BMC's clean depth `D` makes k-induction's base case start at `D + 1`
//! ([`super::kind::Kind::from_depth`]), and the lemmas k-induction proves go through the lemma pool into
//! IC3's F_inf. A stage that decides ends the sequence; its answer is checked like any
//! engine's (the caller replays traces and checks invariants).
//!
//! Seed 003's sequence for C programs is BMC, then explicit-value analysis, then predicate
//! abstraction; the CFA analyses here read no condition, so the sequence is made of the
//! engines of the bit-level system that do, for circuits and programs alike.

use std::time::Duration;

use super::{Engine, EngineKind, Stats, Verdict};
use crate::ts::TransitionSystem;
use crate::Budget;

/// The stages, in order.
const STAGES: [EngineKind; 3] = [EngineKind::Bmc, EngineKind::Kind, EngineKind::Ic3];

/// The share of a stage before the last when the run has no time limit.
const UNLIMITED_SHARE: Duration = Duration::from_secs(30);

/// The engine of a stage (one of [`STAGES`]) whose unrolling starts at the given depth.
type StageFn = dyn Fn(EngineKind, usize) -> Box<dyn Engine + Send> + Send;

/// BMC, then k-induction, then IC3, passing conditions.
pub struct Sequence {
    /// Builds each stage's engine, as the run's options configure it alone; k-induction's
    /// and IC3's share one lemma pool.
    stage_engine: Box<StageFn>,
    /// The first depth not known clean when the sequence starts (a condition read in).
    from_depth: usize,
    /// The stage running or last run (its name is the engine's).
    stage: usize,
    /// Counters of the stages run so far.
    stats: Stats,
}

impl Sequence {
    /// The stages' engines built by `stage_engine` (stage, first depth not known clean).
    pub fn new(
        stage_engine: impl Fn(EngineKind, usize) -> Box<dyn Engine + Send> + Send + 'static,
    ) -> Sequence {
        Sequence {
            stage_engine: Box::new(stage_engine),
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
        for (stage, &kind) in STAGES.iter().enumerate() {
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
            let mut engine = (self.stage_engine)(kind, clean);
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
