//! The concrete check of an abstract counterexample: one BMC-style query along the abstract
//! path (seed 000: the abstract states conjoined with the concrete transitions).
//!
//! Every frame has its own unrolling with fresh variables for the latches, and frame `t` is
//! linked to frame `t + 1` by one equality per latch (`latch@t+1 = next@t`). The clauses are
//! partitioned for interpolation: partition 0 holds the initial values, partition `t + 1`
//! frame `t` (its constraints, the abstract state asserted there, the bad properties in the
//! last frame) and its links to frame `t + 1`. The variables two sides of a cut share are
//! then exactly the latch variables of one frame, one per latch, so interpolant `j` reads as
//! a predicate over the latches of frame `j` (cut 0 is the initial-state cut: without it, an
//! infeasibility caused only by an invisible latch's initial value could be explained over
//! the visible latches alone, and refinement would not progress).
//!
//! A latch can be *guarded*: its initial value and links then hold only under an activation
//! literal, so with the guards left out it is a free input in every frame, as in the
//! localized system; the failed guards of a refutation name the latches it needs.

use std::collections::HashMap;

use crate::sat::itp::{Interpolant, ItpError, ItpSolver, System};
use crate::sat::{self, SatResult, Solver};
use crate::ts::{Trace, TransitionSystem};
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// A path of frames `0..=depth` encoded in a solver.
pub(super) struct PathQuery<'a> {
    ts: &'a TransitionSystem,
    frames: Vec<Unroller<'a>>,
    /// `state[t][i]`: latch `i` in frame `t`.
    state: Vec<Vec<sat::Lit>>,
    /// The activation literal of each guarded latch.
    guards: Vec<Option<sat::Lit>>,
}

impl<'a> PathQuery<'a> {
    /// Encodes the path of `depth` transitions of `ts` into `s`. `part(s, p)` is called before
    /// the clauses of partition `p` are added; `assert(s, unrolling, t)` returns the solver
    /// literals that must hold in frame `t` (encoded with that frame's unrolling, frame 0).
    /// Latches marked in `guarded` get an activation literal.
    pub(super) fn encode<S: Solver>(
        s: &mut S,
        ts: &'a TransitionSystem,
        depth: usize,
        guarded: &[bool],
        part: &mut dyn FnMut(&mut S, u32),
        assert: &mut dyn FnMut(&mut S, &mut Unroller<'a>, usize) -> Vec<sat::Lit>,
    ) -> PathQuery<'a> {
        let guards: Vec<Option<sat::Lit>> = guarded
            .iter()
            .map(|&g| g.then(|| s.new_var().pos_lit()))
            .collect();
        let mut frames: Vec<Unroller<'a>> = (0..=depth)
            .map(|_| Unroller::new(ts, Start::Free))
            .collect();
        let guarded_clause = |s: &mut S, i: usize, lits: &[sat::Lit]| {
            let mut c = lits.to_vec();
            if let Some(g) = guards[i] {
                c.push(!g);
            }
            s.add_clause(&c);
        };
        part(s, 0);
        let first = latch_lits(s, ts, &mut frames[0]);
        for (i, l) in ts.latches.iter().enumerate() {
            if let Some(init) = l.init {
                guarded_clause(s, i, &[if init { first[i] } else { !first[i] }]);
            }
        }
        let mut state = vec![first];
        for t in 0..=depth {
            part(s, t as u32 + 1);
            for &c in &ts.constraints {
                let l = frames[t].lit(s, c, 0);
                s.add_clause(&[l]);
            }
            for l in assert(s, &mut frames[t], t) {
                s.add_clause(&[l]);
            }
            if t == depth {
                let bad: Vec<sat::Lit> = ts.bad.iter().map(|&b| frames[t].lit(s, b, 0)).collect();
                s.add_clause(&bad);
                break;
            }
            let next = latch_lits(s, ts, &mut frames[t + 1]);
            for (i, l) in ts.latches.iter().enumerate() {
                let n = frames[t].lit(s, l.next, 0);
                guarded_clause(s, i, &[!next[i], n]);
                guarded_clause(s, i, &[next[i], !n]);
            }
            state.push(next);
        }
        PathQuery {
            ts,
            frames,
            state,
            guards,
        }
    }

    /// The activation literals of the guarded latches (assume them all for the concrete
    /// system).
    pub(super) fn guards(&self) -> Vec<sat::Lit> {
        self.guards.iter().flatten().copied().collect()
    }

    /// The guarded latches whose activation literal refuted the last solve call.
    pub(super) fn failed_guards(&self, s: &impl Solver) -> Vec<usize> {
        (0..self.guards.len())
            .filter(|&i| self.guards[i].is_some_and(|g| s.failed(g)))
            .collect()
    }

    /// The activation literals of latches `which`.
    pub(super) fn guards_of(&self, which: &[usize]) -> Vec<sat::Lit> {
        which.iter().filter_map(|&i| self.guards[i]).collect()
    }

    /// Which latch each state variable of frame `t` stands for.
    pub(super) fn latches_of_frame(&self, t: usize) -> HashMap<sat::Var, usize> {
        self.state[t]
            .iter()
            .enumerate()
            .map(|(i, l)| (l.var(), i))
            .collect()
    }

    /// The concrete counterexample in the solver's model (after a `Sat` answer).
    pub(super) fn trace(&self, s: &impl Solver) -> Trace {
        let depth = self.frames.len() - 1;
        let init = self.state[0]
            .iter()
            .map(|&l| s.value(l).unwrap_or(false))
            .collect();
        let inputs = self
            .frames
            .iter()
            .map(|un| {
                self.ts
                    .inputs
                    .iter()
                    .map(|i| un.value(s, i.lit(), 0))
                    .collect()
            })
            .collect();
        let bad = self
            .ts
            .bad
            .iter()
            .position(|&b| self.frames[depth].value(s, b, 0))
            .expect("a satisfied path query has a true bad literal");
        Trace { init, inputs, bad }
    }
}

/// The (fresh) variables of the latches in frame 0 of `un`.
fn latch_lits(s: &mut impl Solver, ts: &TransitionSystem, un: &mut Unroller) -> Vec<sat::Lit> {
    ts.latches
        .iter()
        .map(|l| un.lit(s, l.var.lit(), 0))
        .collect()
}

/// The outcome of checking an abstract path on the concrete system in an interpolating
/// solver.
pub(super) enum Refutation {
    /// Infeasible: the sequence interpolants (McMillan's), one per frame `0..=depth`, each
    /// over that frame's latch variables.
    Refuted(Vec<Interpolant>),
    /// Feasible: the concrete trace along the path.
    Feasible(Trace),
    /// The budget ran out.
    Stopped,
    /// Infeasible, but the proof gave no interpolants.
    NoInterpolants(ItpError),
}

/// Solves the path query `q` of `depth` transitions encoded in `s`. The interpolants are
/// built one cut at a time, so that the budget is checked between cuts (a proof of a large
/// path is large).
pub(super) fn refute(
    s: &mut ItpSolver,
    q: &PathQuery,
    depth: usize,
    budget: &Budget,
) -> Refutation {
    match s.solve(&[]) {
        SatResult::Sat => return Refutation::Feasible(q.trace(s)),
        SatResult::Interrupted => return Refutation::Stopped,
        SatResult::Unsat if budget.expired() => return Refutation::Stopped,
        SatResult::Unsat => {}
    }
    let mut out = Vec::with_capacity(depth + 1);
    for cut in 0..=depth as u32 {
        if budget.expired() {
            return Refutation::Stopped;
        }
        match s.interpolant(cut, System::McMillan) {
            Ok(itp) => out.push(itp),
            Err(e) => return Refutation::NoInterpolants(e),
        }
    }
    Refutation::Refuted(out)
}
