//! Model-checking engines. Every engine implements [`Engine`] over a [`TransitionSystem`] and
//! answers with a [`Verdict`] in terms of that same system; the caller lifts it back through
//! the preprocessing `Restore` map and checks it before printing anything.
//!
//! Layer: engines; import [`crate::cert`], [`crate::error`], [`crate::prep`], [`crate::bdd`] and
//! everything below them, never a condition, option set, run or the command line: the layers above
//! choose, configure and check them.

pub mod bmc;
pub mod cegar;
pub(crate) mod cegar_core;
pub mod cfa_cegar;
pub mod chc;
mod engine_kind;
pub mod execute;
pub mod ic3;
pub mod imc;
pub mod impact;
pub mod kind;
pub mod lemmas;
pub mod lookahead;
pub mod portfolio;
pub mod reach;
pub mod sequence;
pub mod sim;
pub mod smt;

pub use engine_kind::EngineKind;

use crate::cert::Invariant;
use crate::ts::{Trace, TransitionSystem};
use crate::Budget;

/// The answer of an engine.
/// One verdict per run: the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No bad state is reachable; the invariant proves it (over the checked system).
    Safe(Invariant),
    /// A bad state is reachable: the trace reaches it.
    Unsafe(Trace),
    /// Undecided. `depth: Some(k)` means no bad state is reachable within `k` transitions
    /// (frames `0..=k` are clean).
    Unknown { depth: Option<usize> },
}

/// Counters an engine reports with `--stats` and in `--json` output.
pub type Stats = Vec<(&'static str, u64)>;

/// A model-checking algorithm.
pub trait Engine {
    /// Short name used on the command line and in statistics.
    fn name(&self) -> &'static str;
    /// Checks every bad property of `ts` (the first one found violated is reported).
    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict;
    fn stats(&self) -> Stats;
}
