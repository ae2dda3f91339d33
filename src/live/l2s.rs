//! Liveness to safety (Biere, Artho and Schuppan, "Liveness checking as safety checking",
//! FMICS 2002): a justice property fails iff the system has a lasso-shaped fair path, and a
//! lasso is a finite object that a safety checker can look for.
//!
//! The safety system keeps the original inputs and latches (first, in their order, so a trace
//! of it is a trace of the original after dropping the additions) and adds:
//! - an input `save`, the oracle that guesses the loop start: in the first frame where it is
//!   high, a copy of every latch (the *shadow*) records the current state, and latch `saved`
//!   is high from the next frame on;
//! - a latch `seen` per justice literal and per fairness constraint, set once the literal
//!   holds in a frame of the loop (the saving frame included).
//!
//! The bad state is `saved`, the state equal to its shadow, and every `seen` set: frames
//! `l..k-1` (`l` the saving frame, `k` the bad one) then form a loop from `s_l` back to
//! `s_k = s_l` on which every literal holds somewhere, and repeating them forever is an
//! infinite path that visits each literal infinitely often. Invariant constraints stay
//! constraints, so they hold in every frame of the stem and of the loop, hence forever.
//! Conversely a finite-state system with such an infinite path has one of lasso shape (a state
//! repeated infinitely often, with every literal hit between two of its visits), which the
//! oracle can pick: the bad state is reachable iff the justice property fails.

use crate::aig::Lit;
use crate::ts::{Trace, TransitionSystem};

/// The safety system of justice property `justice` of `ts` (with its fairness constraints
/// and invariant constraints): one bad property, no liveness left.
pub fn l2s(ts: &TransitionSystem, justice: usize) -> TransitionSystem {
    let mut out = ts.without_properties();
    let save = out.add_input(Some("l2s_save".into())).lit();
    let (saved_at, saved) = add_latch(&mut out, "l2s_saved");
    let saving = out.aig.and(save, !saved);
    let in_loop = out.aig.or(saved, saving);
    out.set_next(saved_at, in_loop);
    let mut closes = vec![saved];
    for l in &ts.latches {
        let now = l.var.lit();
        let (at, shadow) = add_latch(&mut out, "l2s_shadow");
        let next = out.aig.mux(saving, now, shadow);
        out.set_next(at, next);
        closes.push(!out.aig.xor(now, shadow));
    }
    for &lit in ts.justice[justice].iter().chain(&ts.fairness) {
        let (at, seen) = add_latch(&mut out, "l2s_seen");
        let hit = out.aig.and(in_loop, lit);
        let next = out.aig.or(seen, hit);
        out.set_next(at, next);
        closes.push(seen);
    }
    let bad = out.aig.and_all(closes);
    out.bad.push(bad);
    out.names.bad.push(Some(format!("l2s_j{justice}")));
    out
}

/// The liveness-to-safety system from which a certificate can be made: [`l2s`] of the
/// degeneralized system ([`super::klive::degeneralized`]), whose one justice literal is the
/// acceptance signal. Its latches are the model's, the `seen` latches of the degeneralization
/// (`m`, one per literal), `l2s_saved`, one shadow per latch before it, and one `l2s_seen`:
/// the rank of [`crate::live::certificate`] compares whole states of the degeneralized system, so
/// the shadow must cover its `seen` latches too.
pub fn certifiable(ts: &TransitionSystem, justice: usize) -> TransitionSystem {
    let (mut degeneralized, acc) = super::klive::degeneralized(ts, justice);
    degeneralized.justice = vec![vec![acc]];
    let mut out = l2s(&degeneralized, 0);
    out.names.bad = vec![Some(format!("l2s_j{justice}"))];
    out
}

/// A new latch of `ts` initialised to 0: its position (for [`TransitionSystem::set_next`])
/// and its output.
pub(super) fn add_latch(ts: &mut TransitionSystem, name: &str) -> (usize, Lit) {
    let at = ts.latches.len();
    (at, ts.add_latch(Some(false), Some(name.into())).lit())
}

/// The lasso of `ts` (justice property `justice`) in `trace`, a counterexample of
/// [`l2s`]`(ts, justice)` whose bad state is reached in frame `bad_frame`: the original
/// inputs of frames `0..bad_frame` and the original latches' initial values. The state after
/// its last frame is the loop's start state; [`super::lasso::check`] finds and checks it.
pub fn lasso(ts: &TransitionSystem, justice: usize, trace: &Trace, bad_frame: usize) -> Trace {
    Trace {
        init: trace.init[..ts.latches.len()].to_vec(),
        inputs: (trace.inputs[..bad_frame].iter())
            .map(|row| row[..ts.inputs.len()].to_vec())
            .collect(),
        bad: justice,
    }
}
