//! Replays a trace on a transition system: the independent check behind every `sat` answer.
//!
//! The simulator is deliberately separate from the SAT encoding (it walks the AIG in
//! topological order with plain Booleans), so a bug in the unroller cannot confirm itself.

use std::fmt;

use super::{Leaf, Trace, TransitionSystem};
use crate::aig::{simulate_frame, Lit};

/// Why a trace is not a counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The trace's vectors do not have the sizes of the system's inputs/latches.
    Shape(String),
    /// An initialised latch starts at the other value.
    Init { latch: usize },
    /// A constraint fails in a frame before the property is reached.
    Constraint { frame: usize, constraint: usize },
    /// The claimed property is not violated in any frame of the trace.
    NotReached { bad: usize },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Shape(s) => write!(f, "trace shape: {s}"),
            ReplayError::Init { latch } => {
                write!(
                    f,
                    "latch {latch} starts at a value other than its reset value"
                )
            }
            ReplayError::Constraint { frame, constraint } => {
                write!(f, "constraint {constraint} is violated in frame {frame}")
            }
            ReplayError::NotReached { bad } => {
                write!(f, "bad property {bad} is not reached by the trace")
            }
        }
    }
}

/// Checks that `trace` has the shape of `ts` (a value per latch, a value per input in every
/// frame) and starts in an initial state: what a trace must satisfy before it is simulated.
pub fn check_start(ts: &TransitionSystem, trace: &Trace) -> Result<(), ReplayError> {
    if trace.init.len() != ts.latches.len() {
        return Err(ReplayError::Shape(format!(
            "{} initial latch values for {} latches",
            trace.init.len(),
            ts.latches.len()
        )));
    }
    if let Some(row) = trace.inputs.iter().find(|r| r.len() != ts.inputs.len()) {
        return Err(ReplayError::Shape(format!(
            "an input vector has {} values for {} inputs",
            row.len(),
            ts.inputs.len()
        )));
    }
    for (i, l) in ts.latches.iter().enumerate() {
        if l.init.is_some_and(|v| v != trace.init[i]) {
            return Err(ReplayError::Init { latch: i });
        }
    }
    Ok(())
}

/// Simulates `trace` on `ts`. Returns the first frame in which `trace.bad` holds while every
/// constraint has held in every frame so far.
pub fn replay(ts: &TransitionSystem, trace: &Trace) -> Result<usize, ReplayError> {
    let bad = *ts.bad.get(trace.bad).ok_or_else(|| {
        ReplayError::Shape(format!(
            "property {} does not exist ({} bad properties)",
            trace.bad,
            ts.bad.len()
        ))
    })?;
    check_start(ts, trace)?;
    for (frame, values) in simulate(ts, trace).enumerate() {
        if let Some(c) = ts.constraints.iter().position(|&c| !values.lit(c)) {
            return Err(ReplayError::Constraint {
                frame,
                constraint: c,
            });
        }
        if values.lit(bad) {
            return Ok(frame);
        }
    }
    Err(ReplayError::NotReached { bad: trace.bad })
}

/// The value of every AIG variable in one frame of a simulation.
pub struct Values(Vec<bool>);

impl Values {
    pub fn lit(&self, l: Lit) -> bool {
        self.0[l.var().index()] ^ l.is_negated()
    }
}

/// Simulates `trace` on `ts` frame by frame (the trace must have the system's shape).
pub fn simulate<'a>(
    ts: &'a TransitionSystem,
    trace: &'a Trace,
) -> impl Iterator<Item = Values> + 'a {
    let kinds = ts.leaf_kinds();
    let mut state = trace.init.clone();
    trace.inputs.iter().map(move |inputs| {
        let values = Values(simulate_frame(&ts.aig, |v| match kinds[v.index()] {
            Some(Leaf::Input(i)) => inputs[i],
            Some(Leaf::Latch(i)) => state[i],
            None => false,
        }));
        state = ts.latches.iter().map(|l| values.lit(l.next)).collect();
        values
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;

    #[test]
    fn counter_trace_replays_at_its_depth() {
        let ts = counter(3, 5, false);
        let trace = Trace {
            init: vec![false; 3],
            inputs: vec![vec![]; 6],
            bad: 0,
        };
        assert_eq!(replay(&ts, &trace), Ok(5));
        let short = Trace {
            inputs: vec![vec![]; 5],
            ..trace.clone()
        };
        assert_eq!(replay(&ts, &short), Err(ReplayError::NotReached { bad: 0 }));
        let bad_init = Trace {
            init: vec![true, false, false],
            ..trace
        };
        assert_eq!(replay(&ts, &bad_init), Err(ReplayError::Init { latch: 0 }));
    }

    #[test]
    fn constraint_violation_is_reported() {
        let mut ts = counter(2, 3, true);
        let en = ts.inputs[0].lit();
        ts.constraints.push(en);
        let trace = Trace {
            init: vec![false; 2],
            inputs: vec![vec![true], vec![false], vec![true], vec![true]],
            bad: 0,
        };
        assert_eq!(
            replay(&ts, &trace),
            Err(ReplayError::Constraint {
                frame: 1,
                constraint: 0
            })
        );
    }
}
