//! Preprocessing: simplifications of a transition system that every engine runs on.
//!
//! Each pass maps a system to a smaller one plus a [`Restore`] that lifts traces and
//! invariants back; [`preprocess`] chains them, re-running the cone of influence after each:
//! - cone of influence ([`cone_of_influence`]);
//! - constant latches by ternary simulation (`ternary`), with constant propagation;
//! - equivalent latches and gates (`equiv`, signal correspondence): random simulation
//!   proposes, a k-step induction and SAT sweeping prove, and each class is merged into one
//!   representative;
//! - functional reduction (`fraig`): gates equal in every state, proved by SAT sweeping.
//!
//! [`PrepOptions`] chooses the passes (`--prep`) and the depth of the induction.
//!
//! [`houdini`] is also offered on its own, as an invariant generator for the engines.
//!
//! Layer: the top of the bit-level core ([`crate::aig`], [`crate::ts`], [`crate::sat`],
//! [`crate::unroll`] and the plumbing); engines, conditions and runs above use its passes.

mod equiv;
mod fraig;
pub mod houdini;
mod options;
mod simulate;
mod substitute;
mod ternary;

use std::time::{Duration, Instant};

use clap::ValueEnum;

pub use houdini::houdini;
pub use options::{PrepOptions, PrepPass};

use crate::ts::{cone_of_influence, Restore, TransitionSystem};
use crate::Budget;

/// The most CPU time preprocessing may take, and its share of the run's remaining time: it
/// runs before every engine, and a proof found later is worth more than a smaller circuit.
/// The limit is in CPU time so that what the passes prove does not depend on the machine's
/// load (see [`Budget::child_for_cpu`]).
const MAX_TIME: Duration = Duration::from_secs(2);
const TIME_SHARE: u32 = 8;
/// The wall-time bound beside it, for a thread that gets little of a core: up to a quarter
/// of the remaining time, at most 5 s.
const MAX_WALL_TIME: Duration = Duration::from_secs(5);
const WALL_SHARE: u32 = 4;

/// The size (AND gates) from which the SAT-sweeping passes (`scorr`, `fraig`) are skipped.
/// Measured on the 15 systems of both eval sets with 150 k gates or more after the cone of
/// influence (2026-11-29): `scorr` used its whole 2 s on every one but Flute (which ternary
/// simulation had already taken 1.7 s of) and removed at most 0.05 % of the gates (Ridecore
/// ILA 440,979 to 440,970, `mul7` none, marlann 793,073 to 793,059) and no latch, while
/// every engine waits for it: on these systems only BMC and simulation answer in 20 s, and
/// the 2 s are theirs. Below, it removes up to 7 % of the gates (picorv32, shift_register
/// designs of 63-69 k gates) and, on smaller designs, merges latches.
const SWEEP_MAX_GATES: usize = 150_000;

/// The passes `opts` chooses in order, within a share of `budget`. Passes that run out of
/// time change nothing (or keep only what they proved), so the result is always sound.
pub fn preprocess(
    ts: &TransitionSystem,
    opts: &PrepOptions,
    budget: &Budget,
) -> (TransitionSystem, Restore) {
    let share =
        |most: Duration, share: u32| budget.remaining().map_or(most, |r| (r / share).min(most));
    let budget = budget.child_for_cpu(
        share(MAX_TIME, TIME_SHARE),
        share(MAX_WALL_TIME, WALL_SHARE),
    );
    let (mut reduced, mut restore) = cone_of_influence(ts);
    let depth = usize::from(opts.scorr_depth);
    for &pass in &opts.prep {
        let start = Instant::now();
        let value = pass
            .to_possible_value()
            .expect("every pass has an option name");
        let name = value.get_name();
        let sweeps = matches!(pass, PrepPass::Scorr | PrepPass::Fraig);
        if sweeps && reduced.aig.num_ands() >= SWEEP_MAX_GATES {
            crate::log::info(
                1,
                format_args!(
                    "{name}: skipped on {} ands (from {SWEEP_MAX_GATES} on)",
                    reduced.aig.num_ands()
                ),
            );
            continue;
        }
        let result = match pass {
            PrepPass::Ternary => ternary::constant_latches(&reduced, &budget),
            PrepPass::Scorr => equiv::merge_equivalences(&reduced, depth, &budget),
            PrepPass::Fraig => fraig::functional_reduction(&reduced, &budget),
        };
        if let Some((next, inner)) = result {
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
