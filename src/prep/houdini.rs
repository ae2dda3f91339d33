//! Houdini: the largest subset of candidate clauses that holds initially and is inductive
//! together, found by dropping refuted candidates until a fixpoint.
//!
//! Each round is one SAT call that asks for *some* failing candidate, and every candidate the
//! model falsifies is dropped at once, so the number of calls is the number of rounds, not
//! the number of candidates. [`Checker`] holds that query and is shared with the equivalence
//! pass, which refines equivalence classes instead of dropping clauses.

use std::collections::HashMap;

use crate::aig::Lit;
use crate::sat::{self, Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The candidate clauses of `candidates` (each a disjunction of literals of `ts.aig`, usually
/// latch literals) that hold in every initial state and are inductive together, all under the
/// constraints (asserted in every frame, as [`crate::cert::check`] does). The result is the
/// largest such subset. If the budget runs out, the result is empty: the only subset known to
/// be inductive without finishing the fixpoint.
pub fn houdini(ts: &TransitionSystem, candidates: Vec<Vec<Lit>>, budget: &Budget) -> Vec<Vec<Lit>> {
    let fixpoint = |mode, clauses: Vec<Vec<Lit>>| {
        let mut checker = Checker::new(ts, mode, Constraints::Every, budget);
        drop_refuted(&mut checker, clauses)
    };
    fixpoint(Mode::Base(0), candidates)
        .and_then(|initial| fixpoint(Mode::Step(1), initial))
        .unwrap_or_default()
}

/// Drops the clauses a counterexample refutes until none is refuted (`None`: interrupted).
fn drop_refuted(checker: &mut Checker, mut clauses: Vec<Vec<Lit>>) -> Option<Vec<Vec<Lit>>> {
    while checker.refute(&clauses)? {
        clauses.retain(|c| checker.holds(c));
    }
    Some(clauses)
}

/// What a [`Checker`] checks.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Mode {
    /// Candidates in frame `t` of a path from an initial state where they all hold in the
    /// frames before: base case `t` of a k-step induction (`t < k`).
    Base(usize),
    /// Candidates in frame `k` of a path from any state where they all hold in frames
    /// `0..k`: the step of a k-step induction.
    Step(usize),
    /// Candidates in frame 0 of any state, under the facts added with [`Checker::add_fact`].
    Combinational,
}

/// The frames in which a [`Checker`] assumes the constraints.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Constraints {
    /// Every frame, the checked one included: the semantics of invariants.
    Every,
    /// Only the frames before the checked one. What is proved then holds even in a frame where
    /// a constraint fails, which merging needs: a merged signal that feeds a constraint must
    /// not change the constraint's value in that frame, or the reduced system gains traces.
    Before,
}

/// An incremental solver over the first frames of a system that looks for a candidate clause
/// failing in the checked frame.
pub(crate) struct Checker<'a> {
    solver: Cadical,
    un: Unroller<'a>,
    budget: Budget,
    /// The frame candidates are checked in.
    frame: usize,
    /// Selector of each candidate assumed in the frames before the checked one.
    assumed: HashMap<Vec<Lit>, sat::Lit>,
    /// Literal implying that a candidate is false in the checked frame.
    failing: HashMap<Vec<Lit>, sat::Lit>,
    /// The activation literal of the last round, retired at the start of the next one
    /// (adding a clause right after solving would discard the model).
    last_round: Option<sat::Lit>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(
        ts: &'a TransitionSystem,
        mode: Mode,
        constraints: Constraints,
        budget: &Budget,
    ) -> Checker<'a> {
        let (start, frame) = match mode {
            Mode::Base(t) => (Start::Init, t),
            Mode::Step(k) => (Start::Free, k),
            Mode::Combinational => (Start::Free, 0),
        };
        let mut c = Checker {
            solver: Cadical::for_small_queries(budget).freezing(),
            un: Unroller::new(ts, start),
            budget: budget.clone(),
            frame,
            assumed: HashMap::new(),
            failing: HashMap::new(),
            last_round: None,
        };
        let constrained = match constraints {
            Constraints::Every => frame + 1,
            Constraints::Before => frame,
        };
        for k in 0..constrained {
            for &l in &ts.constraints {
                let sl = c.un.lit(&mut c.solver, l, k);
                c.solver.add_clause(&[sl]);
            }
        }
        c
    }

    /// The system the checker unrolls.
    pub(crate) fn system(&self) -> &'a TransitionSystem {
        self.un.ts()
    }

    /// The frame candidates are checked in (0 for a combinational check).
    pub(crate) fn frame(&self) -> usize {
        self.frame
    }

    /// Asserts `clause` in the checked frame for good (the known facts of a combinational
    /// check).
    pub(crate) fn add_fact(&mut self, clause: &[Lit]) {
        let lits = self.encode(clause, self.frame);
        self.solver.add_clause(&lits);
    }

    /// Looks for a counterexample to some of `clauses` (assumed in the frames before):
    /// `Some(true)` if found (then [`Self::holds`] and [`Self::value`] read it), `Some(false)`
    /// if all hold, `None` if the budget ran out.
    pub(crate) fn refute(&mut self, clauses: &[Vec<Lit>]) -> Option<bool> {
        self.query(clauses, None)
    }

    /// [`Self::refute`] that gives up after `conflicts` conflicts, with `None` as when the
    /// budget runs out (the budget tells the two apart).
    pub(crate) fn refute_within(&mut self, clauses: &[Vec<Lit>], conflicts: i32) -> Option<bool> {
        self.query(clauses, Some(conflicts))
    }

    fn query(&mut self, clauses: &[Vec<Lit>], conflicts: Option<i32>) -> Option<bool> {
        if clauses.is_empty() {
            return Some(false);
        }
        // Encoding large cones takes time too: poll the budget between candidates.
        let mut assumptions = Vec::new();
        if self.frame > 0 {
            for c in clauses {
                if self.budget.expired() {
                    return None;
                }
                assumptions.push(self.assumed(c));
            }
        }
        // One activation literal per round: the disjunction of failures is retired afterwards.
        if let Some(last) = self.last_round.take() {
            self.solver.add_clause(&[!last]);
        }
        let round = self.solver.new_var().pos_lit();
        let mut any = vec![!round];
        for c in clauses {
            if self.budget.expired() {
                return None;
            }
            any.push(self.failing(c));
        }
        self.solver.add_clause(&any);
        assumptions.push(round);
        self.last_round = Some(round);
        if let Some(n) = conflicts {
            self.solver.limit_conflicts(n);
        }
        match self.solver.solve(&assumptions) {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Interrupted => None,
        }
    }

    /// Whether `clause` holds in the checked frame of the last counterexample. Every literal
    /// must have been encoded before the solve (literals of checked clauses always are).
    pub(crate) fn holds(&self, clause: &[Lit]) -> bool {
        clause.iter().any(|&l| self.value(l))
    }

    /// The value of `l` in the checked frame of the last counterexample.
    pub(crate) fn value(&self, l: Lit) -> bool {
        self.un.value(&self.solver, l, self.frame)
    }

    /// The value of `l` in the checked frame of the last counterexample, if the query involved
    /// it.
    pub(crate) fn encoded_value(&self, l: Lit) -> Option<bool> {
        self.value_in(l, self.frame)
    }

    /// The value of `l` in frame 0 of the last counterexample, if the query involved it.
    pub(crate) fn first_frame_value(&self, l: Lit) -> Option<bool> {
        self.value_in(l, 0)
    }

    fn value_in(&self, l: Lit, frame: usize) -> Option<bool> {
        self.un
            .encoded(l, frame)
            .and_then(|sl| self.solver.value(sl))
    }

    fn encode(&mut self, lits: &[Lit], frame: usize) -> Vec<sat::Lit> {
        lits.iter()
            .map(|&l| self.un.lit(&mut self.solver, l, frame))
            .collect()
    }

    fn assumed(&mut self, clause: &[Lit]) -> sat::Lit {
        if let Some(&s) = self.assumed.get(clause) {
            return s;
        }
        let s = self.solver.new_var().pos_lit();
        for frame in 0..self.frame {
            let mut lits = self.encode(clause, frame);
            lits.push(!s);
            self.solver.add_clause(&lits);
        }
        self.assumed.insert(clause.to_vec(), s);
        s
    }

    fn failing(&mut self, clause: &[Lit]) -> sat::Lit {
        if let Some(&f) = self.failing.get(clause) {
            return f;
        }
        let f = self.solver.new_var().pos_lit();
        for l in self.encode(clause, self.frame) {
            self.solver.add_clause(&[!f, !l]);
        }
        self.failing.insert(clause.to_vec(), f);
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cert::tests::mod6;
    use crate::cert::{check, Invariant};

    #[test]
    fn keeps_the_inductive_clauses_and_drops_the_rest() {
        // A mod-6 counter from 0: bits (b0, b1, b2), values 0..=5.
        let ts = mod6();
        let b: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
        let budget = Budget::new(None);
        let not_6_or_7 = vec![!b[1], !b[2]];
        let candidates = vec![
            not_6_or_7.clone(),
            vec![b[2]],               // false initially
            vec![!b[2]],              // initially true, broken by 3 -> 4
            vec![!b[0], !b[1], b[2]], // "not 3": true initially, broken by 2 -> 3
        ];
        let kept = houdini(&ts, candidates, &budget);
        assert_eq!(kept, vec![not_6_or_7]);
        let inv = Invariant::from_clauses(&ts, &kept);
        assert_eq!(check(&ts, &inv, &budget), Ok(()));
    }

    #[test]
    fn a_clause_that_needs_another_one_survives_only_with_it() {
        // Two latches that swap, both starting at 0: "!a" alone is not inductive, with "!b" it is.
        let mut ts = TransitionSystem::default();
        let a = ts.add_latch(Some(false), None).lit();
        let b = ts.add_latch(Some(false), None).lit();
        ts.set_next(0, b);
        ts.set_next(1, a);
        let budget = Budget::new(None);
        assert_eq!(
            houdini(&ts, vec![vec![!a]], &budget),
            Vec::<Vec<Lit>>::new()
        );
        let both = vec![vec![!a], vec![!b]];
        assert_eq!(houdini(&ts, both.clone(), &budget), both);
    }

    #[test]
    fn constraints_restrict_the_induction_step() {
        // x' = x | i under the constraint !i: x stays 0.
        let mut ts = TransitionSystem::default();
        let i = ts.add_input(None).lit();
        let x = ts.add_latch(Some(false), None).lit();
        let next = ts.aig.or(x, i);
        ts.set_next(0, next);
        ts.constraints.push(!i);
        let budget = Budget::new(None);
        assert_eq!(houdini(&ts, vec![vec![!x]], &budget), vec![vec![!x]]);
    }

    #[test]
    fn an_expired_budget_keeps_nothing() {
        let ts = mod6();
        let b2 = ts.latches[2].var.lit();
        let budget = Budget::new(None);
        budget.stop();
        assert!(houdini(&ts, vec![vec![!b2]], &budget).is_empty());
    }
}
