//! The check behind every liveness `sat`: the lasso is replayed on the original system by the
//! simulator (as safety counterexamples are, [`crate::ts::replay`]), independently of the
//! liveness-to-safety encoding that found it.
//!
//! A lasso is a [`Trace`] of `k >= 1` frames: frames `0..k` are simulated from the initial
//! state, and the state after frame `k - 1` must equal the state of some frame `l < k`, the
//! loop start. It witnesses justice property `j` when every invariant constraint holds in
//! every frame, and every literal of `j` and every fairness constraint holds in some frame of
//! the loop `l..k`: repeating the loop's inputs forever is then an infinite path on which each
//! of them holds infinitely often. This is what aigsim checks of an AIGER 1.9 justice witness
//! (the state after the last input line equals an earlier one, at which the loop starts).

use std::fmt;

use crate::ts::{check_start, simulate, ReplayError, Trace, TransitionSystem};

/// Why a trace is not a lasso of a justice property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LassoError {
    /// Shape, initial state or a constraint, as for safety traces.
    Replay(ReplayError),
    /// No frame starts a loop that closes and hits every literal.
    NoLoop { justice: usize },
}

impl fmt::Display for LassoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LassoError::Replay(e) => write!(f, "{e}"),
            LassoError::NoLoop { justice } => write!(
                f,
                "no loop of the trace closes and visits every literal of justice property \
                 {justice} and every fairness constraint"
            ),
        }
    }
}

/// Checks that `trace` is a lasso of justice property `trace.bad` of `ts` and returns its loop
/// start, the first frame that can start the loop (as aigsim picks it).
pub fn check(ts: &TransitionSystem, trace: &Trace) -> Result<usize, LassoError> {
    let justice = trace.bad;
    let Some(lits) = ts.justice.get(justice) else {
        let msg = format!("justice property {justice} does not exist");
        return Err(LassoError::Replay(ReplayError::Shape(msg)));
    };
    check_start(ts, trace).map_err(LassoError::Replay)?;
    let lits: Vec<_> = lits.iter().chain(&ts.fairness).copied().collect();
    // Per frame: its state, and which literals hold in it.
    let mut states: Vec<Vec<bool>> = Vec::with_capacity(trace.inputs.len() + 1);
    let mut hits = Vec::with_capacity(trace.inputs.len());
    for (frame, values) in simulate(ts, trace).enumerate() {
        if let Some(c) = ts.constraints.iter().position(|&c| !values.lit(c)) {
            let e = ReplayError::Constraint {
                frame,
                constraint: c,
            };
            return Err(LassoError::Replay(e));
        }
        states.push(ts.latches.iter().map(|l| values.lit(l.var.lit())).collect());
        hits.push(lits.iter().map(|&l| values.lit(l)).collect::<Vec<_>>());
        if frame + 1 == trace.inputs.len() {
            states.push(ts.latches.iter().map(|l| values.lit(l.next)).collect());
        }
    }
    let Some(last) = states.last().filter(|_| states.len() > 1) else {
        return Err(LassoError::NoLoop { justice });
    };
    (0..hits.len())
        .find(|&l| states[l] == *last && (0..lits.len()).all(|i| hits[l..].iter().any(|h| h[i])))
        .ok_or(LassoError::NoLoop { justice })
}
