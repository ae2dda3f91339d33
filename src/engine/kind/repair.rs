//! Inputs that satisfy the constraints in a given state, found by SAT: what keeps random
//! simulation alive on circuits with many constraints (yosys `assume`s), where random
//! inputs violate one of them within a frame or two.
//!
//! The query covers [`FRAMES`] frames from the given state, with the constraints as unit
//! clauses in each: looking one frame ahead matters, because constraints over latches (a
//! `$past` assumption, a bounded request counter) are often violated in the *next* state by
//! inputs that satisfy every constraint now. The state is assumed, and so is a random
//! preferred value for each input of frame 0; preferences that take part in a refutation are
//! dropped and the query solved again, so the inputs found stay random where the constraints
//! allow.

use crate::sat::{self, Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// Frames the query covers: the current one and one ahead.
const FRAMES: usize = 2;

/// The answer of one [`Repair::inputs`] query.
pub(super) enum Repaired {
    /// Values for the inputs of frame 0 the query reads: (index in `ts.inputs`, value).
    Inputs(Vec<(usize, bool)>),
    /// No inputs satisfy the constraints now and in one successor.
    Impossible,
    /// The budget ran out.
    OutOfTime,
}

pub(super) struct Repair {
    solver: Cadical,
    budget: Budget,
    /// The latches of frame 0 the query reads: (index in `ts.latches`, solver literal).
    latches: Vec<(usize, sat::Lit)>,
    /// The inputs of frame 0 the query reads: (index in `ts.inputs`, solver literal).
    inputs: Vec<(usize, sat::Lit)>,
}

impl Repair {
    pub(super) fn new(ts: &TransitionSystem, budget: &Budget) -> Repair {
        let mut solver = Cadical::for_small_queries(budget);
        let mut un = Unroller::new(ts, Start::Free);
        for f in 0..FRAMES {
            for &c in &ts.constraints {
                let l = un.lit(&mut solver, c, f);
                solver.add_clause(&[l]);
            }
        }
        let latches = (ts.latches.iter().enumerate())
            .filter_map(|(i, l)| Some((i, un.encoded(l.var.lit(), 0)?)))
            .collect();
        let inputs = (ts.inputs.iter().enumerate())
            .filter_map(|(i, v)| Some((i, un.encoded(v.lit(), 0)?)))
            .collect();
        Repair {
            solver,
            budget: budget.clone(),
            latches,
            inputs,
        }
    }

    /// Inputs under which every constraint holds in the state `latch(i)` gives and in one
    /// successor, preferring `random(i)` for input `i`.
    pub(super) fn inputs(
        &mut self,
        latch: impl Fn(usize) -> bool,
        mut random: impl FnMut(usize) -> bool,
    ) -> Repaired {
        let state: Vec<sat::Lit> = (self.latches.iter())
            .map(|&(i, l)| if latch(i) { l } else { !l })
            .collect();
        let mut preferred: Vec<sat::Lit> = (self.inputs.iter())
            .map(|&(i, l)| if random(i) { l } else { !l })
            .collect();
        loop {
            let mut assumptions = state.clone();
            assumptions.extend(&preferred);
            match self.solver.solve(&assumptions) {
                SatResult::Sat => break,
                SatResult::Unsat => {
                    let before = preferred.len();
                    preferred.retain(|&p| !self.solver.failed(p));
                    if preferred.len() == before {
                        return Repaired::Impossible;
                    }
                }
                SatResult::Interrupted => return Repaired::OutOfTime,
            }
        }
        Repaired::Inputs(
            (self.inputs.iter())
                .map(|&(i, l)| (i, self.solver.value(l).unwrap_or(false)))
                .collect(),
        )
    }

    /// Whether the time for repairs is over.
    pub(super) fn out_of_time(&self) -> bool {
        self.budget.expired()
    }
}
