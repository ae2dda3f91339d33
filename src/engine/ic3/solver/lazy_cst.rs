//! Constraints outside the domain until a model breaks them (CDCL back end, frame solvers).
//!
//! A frame solver holds the invariant constraints as unit clauses, and the domain of every
//! query used to take the cones of all of them ([`super::domain`]). On Yosys designs those
//! cones are a large part of each query, while most models satisfy most constraints anyway
//! (qspiflash `divfive-p161`: 67 µs per relative-induction query with its constraints, 16 µs
//! with them stripped from the file; Piccolo `BEQ_sanity`: 2.6 ms against 1.35 ms).
//!
//! So a solver splits the constraints into their conjuncts (through the AND gates above
//! them) and starts with none of them *active*: a query's domain takes the cones of the
//! active conjuncts only. When a query is satisfiable, every inactive conjunct is evaluated
//! in the model the way [`FrameSolver::state`] reads it (the trail's values for the domain,
//! the level-0 value or false for the other leaves, every gate outside the domain from its
//! inputs). If one is false, those that are become active for good and the query is asked
//! again; the clauses learnt meanwhile are implied by the solver's clauses and stay. A
//! `Sat` answer therefore has a model of every clause: the argument of [`super::domain`]
//! holds with the constraint units among the clauses satisfied by evaluation (checked here)
//! instead of among those of domain variables. An `Unsat` answer refutes a subset of the
//! clauses, so it refutes them all. Nothing changes for the queries' answers, only for their
//! cost: a conjunct that models never break is never decided.
//!
//! Lifting keeps every constraint in its domain: its query asks that the lifted cube forces
//! them ([`super::super::lift`]), which needs their cones.

use super::FrameSolver;
use crate::aig::{self, Node};

/// The conjuncts of a frame solver's current-state constraints, active or not.
#[derive(Default)]
pub(super) struct LazyConstraints {
    /// The conjuncts no model has broken yet, outside every domain. The conjuncts are the
    /// constraint literals split through the AND gates they are (not negated) into their
    /// inputs ([`aig::Aig::conjuncts`]), without repeats.
    inactive: Vec<aig::Lit>,
    /// The conjuncts a model has broken: roots of every domain, in the current state.
    active: Vec<aig::Lit>,
    /// The evaluation's marks: `mark[v] == stamp` when `value[v]` is the value of AIG
    /// variable `v` in the current model.
    mark: Vec<u32>,
    value: Vec<bool>,
    stamp: u32,
    /// The evaluation's stack, kept between calls (one evaluation per inactive conjunct of
    /// every satisfiable answer).
    stack: Vec<(aig::Var, bool)>,
    /// Satisfiable answers asked again because a model broke an inactive conjunct.
    retries: u64,
}

impl LazyConstraints {
    /// The conjuncts of `constraints` in `aig`, none active.
    pub(super) fn new(aig: &aig::Aig, constraints: &[aig::Lit]) -> LazyConstraints {
        let mut seen = rustc_hash::FxHashSet::default();
        let inactive = (constraints.iter().rev())
            .flat_map(|&c| aig.conjuncts(c))
            .filter(|&l| seen.insert(l))
            .collect();
        LazyConstraints {
            inactive,
            mark: vec![0; aig.num_vars()],
            value: vec![false; aig.num_vars()],
            ..Default::default()
        }
    }

    /// The active conjuncts (roots of every domain, in the current state).
    pub(super) fn roots(&self) -> &[aig::Lit] {
        &self.active
    }
}

impl FrameSolver<'_> {
    /// Satisfiable answers this solver asked again because a model broke a conjunct.
    pub(in crate::engine::ic3) fn constraint_retries(&self) -> u64 {
        self.lazy.as_ref().map_or(0, |l| l.retries)
    }

    /// After a satisfiable query: makes active every inactive conjunct the model breaks;
    /// whether there was one (then the query must be asked again).
    pub(super) fn activate_broken(&mut self) -> bool {
        let Some(mut lazy) = self.lazy.take() else {
            return false;
        };
        lazy.stamp = lazy.stamp.wrapping_add(1);
        if lazy.stamp == 0 {
            lazy.mark.iter_mut().for_each(|m| *m = 0);
            lazy.stamp = 1;
        }
        let before = lazy.active.len();
        let mut inactive = std::mem::take(&mut lazy.inactive);
        inactive.retain(|&conjunct| {
            let holds = self.evaluate(&mut lazy, conjunct);
            if !holds {
                lazy.active.push(conjunct);
            }
            holds
        });
        lazy.inactive = inactive;
        let broken = lazy.active.len() > before;
        lazy.retries += u64::from(broken);
        self.lazy = Some(lazy);
        broken
    }

    /// The value of `l` in the current state of the last model: leaves as
    /// [`FrameSolver::state`] reads them, every gate from its inputs (a gate outside the
    /// domain may hold a level-0 value its inputs do not give it), an AND's second input
    /// only when its first is true.
    fn evaluate(&self, lazy: &mut LazyConstraints, l: aig::Lit) -> bool {
        let aig = &self.un.ts().aig;
        let known = |lazy: &LazyConstraints, v: aig::Var| lazy.mark[v.index()] == lazy.stamp;
        let lit =
            |lazy: &LazyConstraints, l: aig::Lit| lazy.value[l.var().index()] ^ l.is_negated();
        // (variable, whether its first input has been found true)
        let mut stack = std::mem::take(&mut lazy.stack);
        stack.push((l.var(), false));
        while let Some(&(v, second)) = stack.last() {
            if known(lazy, v) {
                stack.pop();
                continue;
            }
            let value = match aig.node(v) {
                Node::False => false,
                Node::Leaf => self.un.value(&self.sat, v.lit(), 0),
                Node::And(a, _) if !second => {
                    if !known(lazy, a.var()) {
                        stack.push((a.var(), false));
                        continue;
                    }
                    if lit(lazy, a) {
                        stack.last_mut().expect("on the stack").1 = true;
                        continue;
                    }
                    false
                }
                Node::And(_, b) => {
                    if !known(lazy, b.var()) {
                        stack.push((b.var(), false));
                        continue;
                    }
                    lit(lazy, b)
                }
            };
            lazy.mark[v.index()] = lazy.stamp;
            lazy.value[v.index()] = value;
            stack.pop();
        }
        lazy.stack = stack;
        lit(lazy, l)
    }
}

#[cfg(test)]
mod tests {
    use super::super::domain::tests::two_registers;
    use super::super::{FrameSolver, Role};
    use crate::engine::ic3::options::Ic3Sat;
    use crate::ts::TransitionSystem;
    use crate::Budget;

    /// [`two_registers`] (latches `a' = x`, `b' = y`) under two constraints on the inputs:
    /// `x -> y` and `z`.
    fn constrained() -> TransitionSystem {
        let mut ts = two_registers();
        let (x, y) = (ts.inputs[0].lit(), ts.inputs[1].lit());
        let z = ts.add_input(None).lit();
        let x_implies_y = !ts.aig.and(x, !y);
        let both = ts.aig.and(x_implies_y, z);
        ts.constraints.push(both);
        ts
    }

    #[test]
    fn a_model_that_breaks_a_conjunct_is_asked_again_with_it() {
        let ts = constrained();
        let (a, x, y) = (ts.latches[0].var.lit(), ts.inputs[0], ts.inputs[1]);
        let mut s = FrameSolver::new(&ts, Role::Frame, &Budget::new(None), Ic3Sat::Cdcl);
        let lazy = |s: &FrameSolver| {
            (
                s.lazy.as_ref().unwrap().roots().len(),
                s.lazy.as_ref().unwrap().retries,
            )
        };
        // The AND above the two constraints is split: two conjuncts, none active.
        assert_eq!(s.lazy.as_ref().unwrap().inactive.len(), 2);
        assert_eq!(lazy(&s), (0, 0));

        // `a'` needs `x`; `y` is outside the cube's cone and would read false, breaking
        // `x -> y`: the query is asked again with that conjunct, and the model has `y`.
        // (`z` is a unit at level 0: the model has it without a retry.)
        assert!(s.relative_induction(&[a]).unwrap());
        assert_eq!(lazy(&s), (1, 1));
        let (_, inputs) = s.state();
        assert_eq!(inputs, vec![true, true, true], "x, y, z: {x:?} {y:?}");

        // The conjunct stays active: the next query needs no retry.
        assert!(s.relative_induction(&[a]).unwrap());
        assert_eq!(lazy(&s), (1, 1));
    }

    #[test]
    fn an_and_that_is_negated_is_one_conjunct() {
        let mut ts = constrained();
        let (x, y) = (ts.inputs[0].lit(), ts.inputs[1].lit());
        let nand = !ts.aig.and(x, y);
        ts.constraints = vec![nand];
        let s = FrameSolver::new(&ts, Role::Frame, &Budget::new(None), Ic3Sat::Cdcl);
        assert_eq!(s.lazy.as_ref().unwrap().inactive, vec![nand]);
        // Lifting and CaDiCaL keep every constraint in the domain.
        let lift = FrameSolver::new(&ts, Role::Lift, &Budget::new(None), Ic3Sat::Cdcl);
        let cadical = FrameSolver::new(&ts, Role::Frame, &Budget::new(None), Ic3Sat::Cadical);
        assert!(lift.lazy.is_none() && cadical.lazy.is_none());
    }
}
