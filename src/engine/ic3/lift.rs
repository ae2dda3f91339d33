//! Predecessor generalisation by SAT-based lifting (Chockler, Ivrii, Matsliah, Moran, Nevo).
//!
//! A predecessor found by a query is one full state plus inputs. With the inputs fixed, the
//! part of the state that forces the target (the successor cube in the next state, or a bad
//! literal in this one) and the constraints is an unsatisfiable core of
//! `state ∧ inputs ∧ ¬(target ∧ constraints)`: every state that agrees with the core goes,
//! under the same inputs, to the target while satisfying the constraints. That makes the
//! lifted cubes of a chain of proof obligations a real counterexample, replayable by
//! simulation from the inputs each obligation keeps.

use super::activity::Activity;
use super::cube::Cube;
use super::options::Ic3Options;
pub(super) use super::solver::Target;
use super::solver::{FrameSolver, Role};
use super::Interrupted;
use crate::aig::Node;
use crate::sat;
use crate::ts::TransitionSystem;
use crate::Budget;
use std::cmp::Reverse;

pub(super) struct Lifter<'a> {
    solver: FrameSolver<'a>,
    /// Lifting rounds at most: 1, or [`MIN_ROUNDS`] with `--ic3-lift-min`.
    rounds: usize,
}

/// Rounds of `--ic3-lift-min`: the core of one round is lifted again in reverse order (a
/// core depends on the order of the assumptions, and the other end often frees more), until
/// a round removes nothing.
const MIN_ROUNDS: usize = 3;

impl<'a> Lifter<'a> {
    pub(super) fn new(
        ts: &'a TransitionSystem,
        budget: &Budget,
        options: Ic3Options,
    ) -> Lifter<'a> {
        Lifter {
            solver: FrameSolver::new(ts, Role::Lift, budget, options.sat),
            rounds: if options.lift_min { MIN_ROUNDS } else { 1 },
        }
    }

    /// The lifted cube of `state` (a full state, from a model, with the values of the state
    /// signals if any) under `inputs`, sorted. Only the latches, signals and inputs in the
    /// target's cone are assumed (the others cannot matter), the signals first, then the
    /// most active latches, so the core prefers them.
    pub(super) fn lift(
        &mut self,
        activity: &Activity,
        mut state: Cube,
        inputs: &[bool],
        target: Target,
    ) -> Result<Cube, Interrupted> {
        let s = &mut self.solver;
        let mut temp: Vec<sat::Lit> = s.valid().map(|v| !v).into_iter().collect();
        match target {
            Target::Cube(cube) => temp.extend(cube.iter().map(|&l| !s.next(l))),
            Target::Bad => temp.push(!s.bad()),
        }
        let ts = s.ts();
        let mut assumptions: Vec<sat::Lit> = (ts.inputs.iter().zip(inputs))
            .filter_map(|(i, &v)| s.encoded(i.lit().xor_sign(!v)))
            .collect();
        activity.sort_descending(&mut state);
        // State signals (`--ic3-inn`) first, the highest in the AIG first, then the latches.
        state.sort_by_key(|l| match ts.aig.node(l.var()) {
            Node::And(..) => Reverse(l.var().index()),
            _ => Reverse(0),
        });
        let fixed = assumptions.len();
        for round in 0..self.rounds {
            if round > 0 {
                state.reverse();
            }
            assumptions.truncate(fixed);
            assumptions.extend(state.iter().filter_map(|&l| s.encoded(l)));
            if s.solve(Some(&temp), &assumptions, target)? {
                // The state came from a model that satisfies the target, and later rounds
                // assume a core of the round before: unreachable unless the solvers
                // disagree, and then the state as it stands (full in the first round) is
                // the only safe answer.
                debug_assert!(false, "a predecessor does not lift");
                break;
            }
            let before = state.len();
            state.retain(|&l| s.encoded(l).is_some_and(|x| s.failed(x)));
            if state.len() == before {
                break;
            }
        }
        state.sort();
        Ok(state)
    }
}
