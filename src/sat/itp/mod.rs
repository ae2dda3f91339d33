//! Craig interpolation from CaDiCaL's resolution proofs.
//!
//! [`ItpSolver`] is a [`Solver`] whose clauses are labelled with a *partition* (0, 1, 2, ...,
//! set with [`ItpSolver::set_partition`] before adding them). After an `Unsat` answer it
//! gives, for a cut `j`, the interpolant between A (partitions `<= j`) and B (partitions
//! `> j`): a circuit over the variables both sides share that A implies and that is
//! inconsistent with B. The cuts of one proof give a sequence interpolant for a path of frames
//! ([`ItpSolver::sequence`]): `I_j and A_{j+1}` implies `I_{j+1}` (McMillan's system).
//!
//! The proof comes from a proof tracer connected with antecedents, which puts CaDiCaL in LRAT
//! mode: every derived clause arrives with the clauses it follows from by unit propagation.
//! [`tracer`] turns each into a resolution chain at once (its antecedents are alive then) and
//! drops the literals of derived clauses when CaDiCaL deletes them, so memory grows with the
//! chains, not with the clauses; [`labelling`] evaluates the chains the empty clause depends on
//! with McMillan's or Pudlák's system. Steps outside resolution would break this: bounded
//! variable addition (`factor`, which introduces extension variables) is switched off, and a
//! chain that does not replay is an [`ItpError`], never trusted.
//!
//! No assumptions: a query puts A and B as clauses in a fresh solver, so the refutation ends
//! in the empty clause and every clause has a partition. Interpolants are checked by
//! [`ItpSolver::verify`] in debug builds and unit tests.

mod labelling;
mod tracer;
mod verify;

#[cfg(test)]
mod tests;

use rustsat::solvers::{SolveIncremental, SolverResult};
use rustsat_cadical::{CaDiCaL, ProofTracerHandle};

use super::cadical;
use super::{Lit, SatResult, Solver, Var};
use crate::aig::{self, Aig};
use crate::Budget;
use tracer::Recorder;

/// Which labelled interpolation system builds the interpolant.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum System {
    /// McMillan's: the strongest interpolant of the two (closest to A).
    #[default]
    McMillan,
    /// Pudlák's symmetric system (also known as HKP).
    Pudlak,
}

/// Why no interpolant could be built, or why one fails its check.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ItpError {
    /// The last solve call did not end in a refutation.
    #[error("no refutation to interpolate")]
    NoRefutation,
    /// The proof has a step that is not a resolution chain.
    #[error("proof not usable for interpolation: {0}")]
    Proof(String),
    /// The budget ran out while the interpolant was being built (a large proof takes long).
    #[error("stopped while building the interpolant")]
    Stopped,
    /// [`ItpSolver::verify`]: the interpolant is not one (the message says which condition
    /// fails).
    #[error("not an interpolant: {0}")]
    Invalid(String),
}

/// An interpolant: a circuit whose leaves stand for solver variables.
#[derive(Clone, Debug)]
pub struct Interpolant {
    aig: Aig,
    root: aig::Lit,
    /// Each leaf of `aig` and the solver variable it stands for.
    leaves: Vec<(aig::Var, Var)>,
}

impl Interpolant {
    /// The solver variables the interpolant depends on.
    pub fn vars(&self) -> impl Iterator<Item = Var> + '_ {
        self.leaves.iter().map(|&(_, v)| v)
    }

    /// Number of AND gates (of the circuit built for it, a bound on its cone).
    pub fn num_ands(&self) -> usize {
        self.aig.num_ands()
    }

    /// Copies the interpolant into `dst`, each solver variable `v` replaced by `map(v)`;
    /// `None` if `map` has no image for one of them.
    pub fn copy_into(
        &self,
        dst: &mut Aig,
        mut map: impl FnMut(Var) -> Option<aig::Lit>,
    ) -> Option<aig::Lit> {
        let mut images = vec![None; self.aig.num_vars()];
        for &(leaf, v) in &self.leaves {
            images[leaf.index()] = Some(map(v)?);
        }
        Some(self.aig.copy_cone(dst, &mut images, &[self.root])[0])
    }

    /// The interpolant's value under an assignment of its variables.
    pub fn eval(&self, value: impl Fn(Var) -> bool) -> bool {
        let mut leaf = vec![false; self.aig.num_vars()];
        for &(l, v) in &self.leaves {
            leaf[l.index()] = value(v);
        }
        let vals = aig::simulate_frame(&self.aig, |v: aig::Var| leaf[v.index()]);
        vals[self.root.var().index()] ^ self.root.is_negated()
    }
}

/// A CaDiCaL instance that records its refutation for interpolation.
pub struct ItpSolver {
    // Declared before `tracer`, so it is released first: CaDiCaL must never outlive the
    // tracer it calls back.
    solver: CaDiCaL<'static, 'static>,
    tracer: ProofTracerHandle<Recorder>,
    next_var: u32,
    budget: Budget,
}

impl ItpSolver {
    pub fn new(budget: &Budget) -> ItpSolver {
        let mut solver = cadical::stopped_by(budget);
        solver
            .set_option("factor", 0)
            .expect("CaDiCaL knows the option 'factor'");
        cadical::one_shot_options(&mut solver);
        let tracer = solver.connect_proof_tracer(Recorder::new(), true);
        ItpSolver {
            solver,
            tracer,
            next_var: 0,
            budget: budget.clone(),
        }
    }

    fn recorder(&mut self) -> &mut Recorder {
        self.solver.proof_tracer_mut(&self.tracer)
    }

    /// Clauses added from now on belong to partition `part`.
    pub fn set_partition(&mut self, part: u32) {
        self.recorder().part = part;
    }

    /// Resolution steps recorded so far.
    pub fn resolutions(&mut self) -> u64 {
        self.recorder().resolutions
    }

    /// The interpolant between partitions `<= cut` and `> cut` of the last refutation. In
    /// debug builds it is checked (and a failure panics: it is a bug here, not in the input;
    /// a check cut short by the budget proves nothing either way).
    pub fn interpolant(&mut self, cut: u32, system: System) -> Result<Interpolant, ItpError> {
        let budget = self.budget.clone();
        let itp = labelling::interpolant(self.recorder(), cut, system, &budget)?;
        if cfg!(debug_assertions) {
            if let Err(e) = self.verify(cut, &itp) {
                assert!(
                    self.budget.expired(),
                    "interpolant for cut {cut} ({system:?}) fails its check: {e}"
                );
            }
        }
        Ok(itp)
    }

    /// The interpolants of every cut `0, 1, ..., last - 1` of a refutation of partitions
    /// `0..=last`: a sequence interpolant for a path whose frames are the partitions.
    pub fn sequence(&mut self, last: u32, system: System) -> Result<Vec<Interpolant>, ItpError> {
        (0..last).map(|cut| self.interpolant(cut, system)).collect()
    }

    /// Checks `itp` for `cut` against this solver's clauses: A implies it, it is inconsistent
    /// with B, and it speaks only of shared variables.
    pub fn verify(&mut self, cut: u32, itp: &Interpolant) -> Result<(), ItpError> {
        let budget = self.budget.clone();
        let rec = self.recorder();
        let clauses: Vec<(u32, &[Lit])> = rec.originals().collect();
        verify::verify(&clauses, |v| rec.parts_of(v), cut, itp, &budget)
    }
}

impl Solver for ItpSolver {
    fn new_var(&mut self) -> Var {
        let v = Var::new(self.next_var);
        self.next_var += 1;
        v
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        cadical::add_clause(&mut self.solver, lits);
    }

    /// Solves the clauses; `assumptions` must be empty (see the module documentation).
    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        assert!(
            assumptions.is_empty(),
            "ItpSolver: interpolation queries take no assumptions"
        );
        match self
            .solver
            .solve_assumps(&[])
            .expect("CaDiCaL failed while solving")
        {
            SolverResult::Sat => SatResult::Sat,
            SolverResult::Unsat => SatResult::Unsat,
            SolverResult::Interrupted => SatResult::Interrupted,
        }
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        cadical::value(&self.solver, lit)
    }

    fn failed(&self, _lit: Lit) -> bool {
        false
    }

    fn set_frozen(&mut self, var: Var, frozen: bool) {
        cadical::set_frozen(&mut self.solver, var, frozen);
    }
}
