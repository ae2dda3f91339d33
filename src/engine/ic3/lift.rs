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
use super::options::Ic3Sat;
pub(super) use super::solver::Target;
use super::solver::{FrameSolver, Role};
use super::Interrupted;
use crate::sat;
use crate::ts::TransitionSystem;
use crate::Budget;

pub(super) struct Lifter<'a> {
    solver: FrameSolver<'a>,
}

impl<'a> Lifter<'a> {
    pub(super) fn new(ts: &'a TransitionSystem, budget: &Budget, backend: Ic3Sat) -> Lifter<'a> {
        Lifter {
            solver: FrameSolver::new(ts, Role::Lift, budget, backend),
        }
    }

    /// The lifted cube of `state` (a full state, from a model) under `inputs`, sorted. Only
    /// the latches and inputs in the target's cone are assumed (the others cannot matter),
    /// the most active latches first, so the core prefers them.
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
        assumptions.extend(state.iter().filter_map(|&l| s.encoded(l)));
        if s.solve(Some(&temp), &assumptions, target)? {
            // The state came from a model that satisfies the target: unreachable unless the
            // solvers disagree, and then the full state is the only safe answer.
            debug_assert!(false, "a predecessor does not lift");
        } else {
            state.retain(|&l| s.encoded(l).is_some_and(|x| s.failed(x)));
        }
        state.sort();
        Ok(state)
    }
}
