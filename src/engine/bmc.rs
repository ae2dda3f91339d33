//! Bounded model checking: one incremental solver, one frame added per step.
//!
//! Frame `k` adds its invariant constraints as unit clauses, then asks whether any bad literal
//! holds there, under one activation literal. When the answer is no, the negated activation
//! becomes a unit clause: "no bad state at frame k" is implied by the formula, and keeping it
//! helps later frames.

use super::{Engine, Stats, Verdict};
use crate::sat::{Cadical, SatResult, Solver};
use crate::ts::{Trace, TransitionSystem};
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The BMC engine; `max_depth` bounds the last frame checked.
#[derive(Default)]
pub struct Bmc {
    pub max_depth: Option<usize>,
    queries: u64,
    frames: u64,
}

impl Bmc {
    pub fn new(max_depth: Option<usize>) -> Bmc {
        Bmc {
            max_depth,
            ..Default::default()
        }
    }
}

impl Engine for Bmc {
    fn name(&self) -> &'static str {
        "bmc"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let mut frames = Bounded::new(ts, budget);
        let mut clean: Option<usize> = None;
        let mut k = 0;
        while self.max_depth.is_none_or(|m| k <= m) {
            if budget.expired() {
                break;
            }
            self.queries += 1;
            self.frames = k as u64 + 1;
            match frames.check(k) {
                SatResult::Sat => return Verdict::Unsafe(frames.trace(k)),
                SatResult::Unsat => {
                    crate::log::info(2, format_args!("bmc: no counterexample at depth {k}"));
                    clean = Some(k);
                }
                SatResult::Interrupted => break,
            }
            k += 1;
        }
        Verdict::Unknown { depth: clean }
    }

    fn stats(&self) -> Stats {
        vec![("bmc_queries", self.queries), ("bmc_frames", self.frames)]
    }
}

/// The BMC formula: frames from the initial states in one incremental solver, one frame
/// checked per call. Shared by [`Bmc`] and the base case of k-induction.
pub(crate) struct Bounded<'a> {
    solver: Cadical,
    un: Unroller<'a>,
}

impl<'a> Bounded<'a> {
    pub(crate) fn new(ts: &'a TransitionSystem, budget: &Budget) -> Bounded<'a> {
        Bounded {
            solver: Cadical::new(budget),
            un: Unroller::new(ts, Start::Init),
        }
    }

    /// Whether a bad state is reachable in exactly `k` transitions. Depths must be checked in
    /// order `0, 1, 2, ...`: frame `k` gets its constraints here.
    pub(crate) fn check(&mut self, k: usize) -> SatResult {
        let ts = self.un.ts();
        for &c in &ts.constraints {
            let l = self.un.lit(&mut self.solver, c, k);
            self.solver.add_clause(&[l]);
        }
        let act = self.solver.new_var().pos_lit();
        let mut clause = vec![!act];
        for &b in &ts.bad {
            clause.push(self.un.lit(&mut self.solver, b, k));
        }
        self.solver.add_clause(&clause);
        let result = self.solver.solve(&[act]);
        if result == SatResult::Unsat {
            self.solver.add_clause(&[!act]);
        }
        result
    }

    /// The counterexample of the last [`Self::check`], which returned `Sat` at depth `k`.
    pub(crate) fn trace(&self, k: usize) -> Trace {
        extract(self.un.ts(), &self.un, &self.solver, k)
    }
}

/// Reads the counterexample of length `k + 1` out of the solver's model.
pub(crate) fn extract(ts: &TransitionSystem, un: &Unroller, s: &impl Solver, k: usize) -> Trace {
    let init = ts
        .latches
        .iter()
        .map(|l| match un.encoded(l.var.lit(), 0) {
            Some(sl) => s.value(sl).unwrap_or(false),
            None => l.init.unwrap_or(false),
        })
        .collect();
    let inputs = (0..=k)
        .map(|f| ts.inputs.iter().map(|i| un.value(s, i.lit(), f)).collect())
        .collect();
    let bad = ts
        .bad
        .iter()
        .position(|&b| un.value(s, b, k))
        .expect("a satisfied BMC query has a true bad literal");
    Trace { init, inputs, bad }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::replay;
    use crate::ts::tests::counter;

    #[test]
    fn finds_counter_bug_at_exact_depth() {
        let ts = counter(4, 11, false);
        let v = Bmc::new(None).check(&ts, &Budget::new(None));
        let Verdict::Unsafe(t) = v else {
            panic!("expected a counterexample, got {v:?}")
        };
        assert_eq!(t.depth(), 11);
        assert_eq!(replay(&ts, &t), Ok(11));
    }

    #[test]
    fn respects_max_depth_and_reports_the_bound() {
        let ts = counter(4, 11, false);
        match Bmc::new(Some(5)).check(&ts, &Budget::new(None)) {
            Verdict::Unknown { depth } => assert_eq!(depth, Some(5)),
            v => panic!("expected unknown, got {v:?}"),
        }
    }

    #[test]
    fn constraints_hold_in_every_frame_of_the_trace() {
        // Counter with enable; constraint: enable is low in frame 0..; bad at 3.
        let mut ts = counter(3, 3, true);
        let en = ts.inputs[0].lit();
        // Constraint: the enable input may only be high when bit 2 is low (always true before 4).
        let c2 = ts.latches[2].var.lit();
        let c = ts.aig.or(!en, !c2);
        ts.constraints.push(c);
        let Verdict::Unsafe(t) = Bmc::new(None).check(&ts, &Budget::new(None)) else {
            panic!("expected a counterexample")
        };
        assert_eq!(t.depth(), 3);
        assert_eq!(replay(&ts, &t), Ok(3));
    }

    #[test]
    fn uninitialised_latches_are_free_at_frame_zero() {
        let mut ts = counter(3, 7, false);
        ts.latches[2].init = None;
        let Verdict::Unsafe(t) = Bmc::new(None).check(&ts, &Budget::new(None)) else {
            panic!("expected a counterexample")
        };
        assert_eq!(
            t.depth(),
            3,
            "from 4 (bit 2 set) the counter reaches 7 in 3 steps"
        );
        assert_eq!(replay(&ts, &t), Ok(3));
    }
}
