//! Preprocessing: simplifications of a transition system that every engine runs on.
//!
//! Each pass maps a system to a smaller one plus a [`Restore`] that lifts traces and
//! invariants back; [`preprocess`] chains them, re-running the cone of influence after each:
//! - cone of influence ([`cone_of_influence`]);
//! - constant latches by ternary simulation (`ternary`), with constant propagation;
//! - equivalent latches and gates (`equiv`): random simulation proposes, induction and SAT
//!   sweeping prove, and each class is merged into one representative.
//!
//! [`houdini`] is also offered on its own, as an invariant generator for the engines.

mod equiv;
pub mod houdini;
mod simulate;
mod substitute;
mod ternary;

use std::time::{Duration, Instant};

pub use houdini::houdini;

use crate::ts::{cone_of_influence, Restore, TransitionSystem};
use crate::Budget;

/// The longest preprocessing may take, and its share of the run's remaining time: it runs
/// before every engine, and a proof found later is worth more than a smaller circuit.
const MAX_TIME: Duration = Duration::from_secs(2);
const TIME_SHARE: u32 = 8;

/// A pass: the reduced system and its restore map, or `None` when it changes nothing (or ran
/// out of time).
type Pass = fn(&TransitionSystem, &Budget) -> Option<(TransitionSystem, Restore)>;

/// Every pass in order, within a share of `budget`. Passes that run out of time change
/// nothing, so the result is always sound.
pub fn preprocess(ts: &TransitionSystem, budget: &Budget) -> (TransitionSystem, Restore) {
    let limit = budget
        .remaining()
        .map_or(MAX_TIME, |r| (r / TIME_SHARE).min(MAX_TIME));
    let budget = budget.child_for(limit);
    let (mut reduced, mut restore) = cone_of_influence(ts);
    let passes: [(&str, Pass); 2] = [
        ("ternary constants", ternary::constant_latches),
        ("equivalences", equiv::merge_equivalences),
    ];
    for (name, pass) in passes {
        let start = Instant::now();
        if let Some((next, inner)) = pass(&reduced, &budget) {
            let (next, coi) = cone_of_influence(&next);
            restore = restore.then(&inner).then(&coi);
            reduced = next;
        }
        crate::log::info(
            1,
            format_args!(
                "{name}: {} latches, {} ands ({:.2} s)",
                reduced.latches.len(),
                reduced.aig.num_ands(),
                start.elapsed().as_secs_f64()
            ),
        );
    }
    reduced.atoms = restore.atoms(ts, &mut reduced);
    (reduced, restore)
}

#[cfg(test)]
mod tests;
