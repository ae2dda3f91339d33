//! CaDiCaL 2.2 through `rustsat-cadical`.
//!
//! Two measured pitfalls of the wrapper are avoided here (see `shared/docs/crates.md`):
//! every solve goes through `solve_assumps` (plain `solve()` returns a cached `Unsat` after a
//! temporary clause), and the `lucky` phase is off for solvers that answer many small
//! queries, where it costs about 4x CPU.

use std::collections::HashSet;

use rustsat::solvers::{
    ControlSignal, FreezeVar, Solve, SolveIncremental, SolverResult, Terminate,
};
use rustsat::types::TernaryVal;
use rustsat_cadical::{CaDiCaL, Limit};

use super::{Lit, SatResult, Solver, Var};
use crate::Budget;

/// A CaDiCaL instance that stops when its [`Budget`] expires.
pub struct Cadical {
    solver: CaDiCaL<'static, 'static>,
    next_var: u32,
    failed: HashSet<Lit>,
    /// Whether [`Solver::new_var`] freezes the variables it makes ([`Cadical::freezing`]).
    freeze_new: bool,
}

impl Cadical {
    /// A solver tuned for long incremental runs (BMC).
    pub fn new(budget: &Budget) -> Cadical {
        Cadical {
            solver: stopped_by(budget),
            next_var: 0,
            failed: HashSet::new(),
            freeze_new: false,
        }
    }

    /// The same solver searching in CaDiCaL's stable mode only (no focused phases): on the
    /// unrollings of very large designs it finds counterexamples sooner, on small ones later
    /// (the measurements are at [`crate::engine::bmc`]'s `STABLE_ONLY_GATES`).
    pub fn stable_only(mut self) -> Cadical {
        self.solver
            .set_option("stabilizeonly", 1)
            .expect("CaDiCaL knows the option 'stabilizeonly'");
        self
    }

    /// A solver tuned for many small queries (IC3, induction checks).
    pub fn for_small_queries(budget: &Budget) -> Cadical {
        let mut s = Cadical::new(budget);
        s.solver
            .set_option("lucky", 0)
            .expect("CaDiCaL knows the option 'lucky'");
        s
    }

    /// The same solver with every variable made from now on frozen, for a formula that grows
    /// between queries: a new clause over a variable that CaDiCaL eliminated makes it restore
    /// the clauses it removed, at every solve.
    pub fn freezing(mut self) -> Cadical {
        self.freeze_new = true;
        self
    }

    /// Stops the next [`Solver::solve`] (only that one) after `conflicts` conflicts; it then
    /// returns [`SatResult::Interrupted`] although the budget has not run out. For queries
    /// whose answer is only worth a bounded effort (SAT sweeping).
    pub fn limit_conflicts(&mut self, conflicts: i32) {
        self.solver
            .set_limit(Limit::Conflicts(conflicts))
            .expect("CaDiCaL accepts a conflict limit");
    }

    /// The variables made so far.
    pub fn num_vars(&self) -> u32 {
        self.next_var
    }

    /// A solver for one query on a fresh formula (IMC's fixpoint checks).
    pub fn for_one_shot(budget: &Budget) -> Cadical {
        let mut s = Cadical::for_small_queries(budget);
        one_shot_options(&mut s.solver);
        s
    }
}

/// Switches off the passes that cost more than the search on small one-shot formulas:
/// congruence closure, backbone extraction and SAT sweeping, which CaDiCaL also runs early
/// in a fresh solver. On IMC over `counter7_60_sat` they took about half the user time (10.0 s
/// with them, 5.6 s without, in the interpolating solver; 6.2 s to 4.4 s with the fixpoint
/// checks too).
pub(super) fn one_shot_options(solver: &mut CaDiCaL<'_, '_>) {
    for option in ["congruence", "backbone", "sweep"] {
        solver
            .set_option(option, 0)
            .expect("CaDiCaL knows its option");
    }
}

impl Solver for Cadical {
    fn new_var(&mut self) -> Var {
        let v = Var::new(self.next_var);
        self.next_var += 1;
        if self.freeze_new {
            self.set_frozen(v, true);
        }
        v
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        add_clause(&mut self.solver, lits);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        self.failed.clear();
        let result = self
            .solver
            .solve_assumps(assumptions)
            .expect("CaDiCaL failed while solving");
        match result {
            SolverResult::Sat => SatResult::Sat,
            SolverResult::Unsat => {
                let core = self.solver.core().expect("core after Unsat");
                self.failed.extend(core.into_iter().map(|l| !l));
                SatResult::Unsat
            }
            SolverResult::Interrupted => SatResult::Interrupted,
        }
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        value(&self.solver, lit)
    }

    fn failed(&self, lit: Lit) -> bool {
        self.failed.contains(&lit)
    }

    fn set_frozen(&mut self, var: Var, frozen: bool) {
        set_frozen(&mut self.solver, var, frozen);
    }
}

// The plumbing both `Cadical` and the interpolating solver (`super::itp`) use.

/// A fresh CaDiCaL that stops when `budget` expires.
pub(super) fn stopped_by(budget: &Budget) -> CaDiCaL<'static, 'static> {
    let mut solver = CaDiCaL::default();
    let b = budget.clone();
    solver.attach_terminator(move || {
        if b.expired() {
            ControlSignal::Terminate
        } else {
            ControlSignal::Continue
        }
    });
    solver
}

pub(super) fn add_clause(solver: &mut CaDiCaL<'_, '_>, lits: &[Lit]) {
    solver
        .add_clause_ref(lits)
        .expect("CaDiCaL out of memory while adding a clause");
}

pub(super) fn value(solver: &CaDiCaL<'_, '_>, lit: Lit) -> Option<bool> {
    match solver.lit_val(lit).ok()? {
        TernaryVal::True => Some(true),
        TernaryVal::False => Some(false),
        TernaryVal::DontCare => None,
    }
}

pub(super) fn set_frozen(solver: &mut CaDiCaL<'_, '_>, var: Var, frozen: bool) {
    let r = if frozen {
        solver.freeze_var(var)
    } else {
        solver.melt_var(var)
    };
    r.expect("CaDiCaL freeze/melt");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assumptions_models_and_cores() {
        let budget = Budget::new(None);
        let mut s = Cadical::new(&budget);
        let a = s.new_var().pos_lit();
        let b = s.new_var().pos_lit();
        let c = s.new_var().pos_lit();
        s.add_clause(&[!a, b]);
        s.add_clause(&[!b, c]);
        assert_eq!(s.solve(&[a]), SatResult::Sat);
        assert_eq!(s.value(c), Some(true));
        assert_eq!(s.solve(&[a, !c, b]), SatResult::Unsat);
        assert!(s.failed(!c));
        assert!(s.failed(a) || s.failed(b));
        assert_eq!(s.solve(&[]), SatResult::Sat);
    }

    #[test]
    fn a_stable_only_solver_searches_in_stable_mode_and_answers_alike() {
        let budget = Budget::new(None);
        let mut s = Cadical::new(&budget).stable_only();
        assert_eq!(s.solver.get_option("stabilizeonly").unwrap(), 1);
        assert_eq!(
            Cadical::new(&budget)
                .solver
                .get_option("stabilizeonly")
                .unwrap(),
            0
        );
        // Six pigeons in six holes: a model puts every pigeon in a hole of its own.
        crate::sat::pigeonhole(&mut s, 6, 6);
        assert_eq!(s.solve(&[]), SatResult::Sat);
        let holes: Vec<usize> = (0..6)
            .map(|p| {
                let in_hole = |h: u32| s.value(Var::new(6 * p + h).pos_lit()) == Some(true);
                (0..6)
                    .find(|&h| in_hole(h))
                    .expect("every pigeon has a hole") as usize
            })
            .collect();
        let mut sorted = holes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6, "pigeons {holes:?} share a hole");
        let mut u = Cadical::new(&budget).stable_only();
        crate::sat::pigeonhole(&mut u, 6, 5);
        assert_eq!(u.solve(&[]), SatResult::Unsat);
    }

    #[test]
    fn expired_budget_interrupts_a_hard_query() {
        // Pigeonhole 9 into 8: hard enough not to finish before the first terminate poll.
        let budget = Budget::new(None);
        let mut s = Cadical::new(&budget);
        crate::sat::pigeonhole(&mut s, 9, 8);
        budget.stop();
        assert_eq!(s.solve(&[]), SatResult::Interrupted);
    }

    #[test]
    fn a_conflict_limit_stops_only_the_next_solve() {
        let budget = Budget::new(None);
        let mut s = Cadical::new(&budget);
        crate::sat::pigeonhole(&mut s, 7, 6);
        s.limit_conflicts(10);
        assert_eq!(s.solve(&[]), SatResult::Interrupted);
        assert_eq!(s.solve(&[]), SatResult::Unsat);
    }
}
