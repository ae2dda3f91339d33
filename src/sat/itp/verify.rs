//! The three properties of an interpolant, checked with fresh solvers: A implies I, I and B
//! are inconsistent, and I speaks only of variables A and B share.

use std::collections::HashMap;

use super::{Interpolant, ItpError};
use crate::aig;
use crate::sat::tseitin::encode_cone;
use crate::sat::{Cadical, Lit, SatResult, Solver, Var};
use crate::Budget;

/// Checks `itp` against the A/B split at `cut` of `clauses` (partition, literals).
/// `parts_of(v)` gives the lowest and highest partition variable `v` occurs in.
pub(super) fn verify(
    clauses: &[(u32, &[Lit])],
    parts_of: impl Fn(Var) -> Option<(u32, u32)>,
    cut: u32,
    itp: &Interpolant,
    budget: &Budget,
) -> Result<(), ItpError> {
    for &(_, v) in &itp.leaves {
        match parts_of(v) {
            Some((lo, hi)) if lo <= cut && cut < hi => {}
            _ => {
                return Err(ItpError::Invalid(format!(
                    "variable {} is not shared",
                    v.idx()
                )))
            }
        }
    }
    let side = |a_side: bool, negate: bool| -> SatResult {
        let mut s = Cadical::for_small_queries(budget);
        let max = clauses
            .iter()
            .flat_map(|(_, c)| c.iter().map(|l| l.vidx() + 1))
            .chain(itp.leaves.iter().map(|(_, v)| v.idx() + 1))
            .max()
            .unwrap_or(0);
        for _ in 0..max {
            s.new_var();
        }
        for &(part, c) in clauses {
            if (part <= cut) == a_side {
                s.add_clause(c);
            }
        }
        let leaves: HashMap<aig::Var, Var> = itp.leaves.iter().copied().collect();
        let root = encode_cone(&mut s, &itp.aig, itp.root, |v| leaves[&v].pos_lit());
        s.add_clause(&[if negate { !root } else { root }]);
        s.solve(&[])
    };
    match side(true, true) {
        SatResult::Unsat => {}
        SatResult::Sat => return Err(ItpError::Invalid("A does not imply the interpolant".into())),
        SatResult::Interrupted => return Err(ItpError::Invalid("interrupted".into())),
    }
    match side(false, false) {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err(ItpError::Invalid(
            "the interpolant is consistent with B".into(),
        )),
        SatResult::Interrupted => Err(ItpError::Invalid("interrupted".into())),
    }
}
