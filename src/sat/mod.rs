//! The SAT layer: one [`Solver`] trait that every engine talks to, CaDiCaL behind it.
//!
//! Literals are `rustsat`'s (a plain `2 * var + sign` code), so encoders can be shared with
//! other back ends. The trait is the narrow waist the design asks for: variables, clauses,
//! solving under assumptions, models, failed assumptions (cores) and freezing. Interruption
//! goes through the [`crate::Budget`] a solver is created with. Craig interpolation lives
//! beside it: [`itp::ItpSolver`] implements the same trait and records CaDiCaL's proof.
//!
//! Layer: bit-level core; imports only [`crate::aig`] (Tseitin encoding, interpolants) and the
//! plumbing: no transition systems, so that any layer can ask queries.

mod cadical;
mod cdcl;
pub mod itp;
pub mod models;
pub mod tseitin;

pub use cadical::Cadical;
pub use cdcl::Cdcl;
pub use rustsat::types::{Lit, Var};

/// The outcome of one `solve` call.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum SatResult {
    Sat,
    Unsat,
    /// The budget ran out or a stop was requested.
    Interrupted,
}

/// An incremental SAT solver.
pub trait Solver {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    fn add_clause(&mut self, lits: &[Lit]);
    /// Solves under `assumptions`; afterwards [`Self::value`] (on `Sat`) or [`Self::failed`]
    /// (on `Unsat`) describe the result.
    fn solve(&mut self, assumptions: &[Lit]) -> SatResult;
    /// The value of `lit` in the last model (`None`: unassigned or unknown variable).
    fn value(&self, lit: Lit) -> Option<bool>;
    /// Whether assumption `lit` was used to refute the last `solve` call.
    fn failed(&self, lit: Lit) -> bool;
    /// Keeps `var` from being eliminated by inprocessing (it will be used again).
    fn set_frozen(&mut self, var: Var, frozen: bool);
}

/// Pigeonhole `p` into `h` (unsatisfiable for `p > h`, and hard for resolution): a formula
/// for the solvers' tests.
#[cfg(test)]
pub(crate) fn pigeonhole(s: &mut impl Solver, p: usize, h: usize) {
    let x: Vec<Vec<Lit>> = (0..p)
        .map(|_| (0..h).map(|_| s.new_var().pos_lit()).collect())
        .collect();
    for row in &x {
        s.add_clause(row);
    }
    for hole in 0..h {
        for (i, a) in x.iter().enumerate() {
            for b in &x[i + 1..] {
                s.add_clause(&[!a[hole], !b[hole]]);
            }
        }
    }
}
