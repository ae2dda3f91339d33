//! Functional reduction (FRAIG): gates that are equal, up to negation, in every state and for
//! every input are merged into one representative.
//!
//! Random simulation from arbitrary states proposes the classes, SAT sweeping proves them one
//! member at a time, and each counterexample refines the remaining classes. An equality in
//! every state says nothing about reachability, so the pass needs no induction and records no
//! facts: the reduced system has exactly the original's transitions. It is cheaper than
//! signal correspondence and still finds the redundancy of bit-blasted word operations.

use crate::aig::{Lit, Var};
use crate::prep::equiv::{merge_order, resolve_chains, sweep};
use crate::prep::simulate::{candidate_classes, Runs};
use crate::prep::substitute::substitute;
use crate::ts::{Facts, Restore, TransitionSystem};
use crate::Budget;

/// `ts` with its functionally equal gates merged, or `None` if none were found.
pub(crate) fn functional_reduction(
    ts: &TransitionSystem,
    budget: &Budget,
) -> Option<(TransitionSystem, Restore)> {
    let key = merge_order(ts);
    let mut classes = candidate_classes(ts, &key, Runs::AnyState, budget);
    // The sweep takes classes from the back: smallest representatives first.
    classes.reverse();
    let merged = sweep(ts, classes, &[], budget).merged;
    if merged.is_empty() {
        return None;
    }
    let mut repr: Vec<Lit> = (0..ts.aig.num_vars())
        .map(|v| Var(v as u32).lit())
        .collect();
    for (m, r) in merged {
        repr[m.var().index()] = r.xor_sign(m.is_negated());
    }
    resolve_chains(&mut repr, &key);
    Some(substitute(ts, &repr, Facts::new(ts.latches.len())))
}
