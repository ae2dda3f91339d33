//! Cartesian predicate abstraction over a CFA: an abstract state is a conjunction of predicate
//! literals (AIG functions over the variable leaves of [`Program`]), sorted, so that the
//! coverage check is a subset test.

use super::program::Program;
use crate::aig;
use crate::sat::{Cadical, SatResult, Solver};
use crate::Budget;

/// The successor of an abstract state along an edge.
pub(super) enum Post {
    /// The edge cannot fire from any state of the abstract state.
    Bottom,
    /// The predicates (of the target's precision) every successor satisfies.
    State(Vec<aig::Lit>),
    /// The budget ran out.
    Stopped,
}

/// The abstraction of the initial state (every variable zero) by `preds`: exact, since it is
/// one concrete state.
pub(super) fn initial(prog: &Program, preds: &[aig::Lit]) -> Vec<aig::Lit> {
    let values = aig::simulate_frame(prog.aig(), |_| false);
    let mut state: Vec<aig::Lit> = (preds.iter())
        .map(|&p| p.xor_sign(!(values[p.var().index()] ^ p.is_negated())))
        .collect();
    state.sort();
    state
}

/// The Cartesian post of `state` along edge `edge`, over the predicates `preds`: for each
/// predicate, whether every successor satisfies it, its negation, or neither (two entailment
/// checks in one incremental solver).
pub(super) fn post(
    prog: &Program,
    state: &[aig::Lit],
    edge: usize,
    preds: &[aig::Lit],
    budget: &Budget,
) -> Post {
    let e = &prog.edges[edge];
    let mut s = Cadical::for_small_queries(budget);
    let mut pre = prog.view(&[]);
    for &l in state.iter().chain([&e.guard]) {
        let x = pre.lit(&mut s, l, 0);
        s.add_clause(&[x]);
    }
    match s.solve(&[]) {
        SatResult::Unsat => return Post::Bottom,
        SatResult::Interrupted => return Post::Stopped,
        SatResult::Sat => {}
    }
    // The successor's bits, bound only where a predicate reads them.
    let cone = prog.aig().cone(preds.iter().copied());
    let mut next = prog.view(&[]);
    for (leaves, after) in prog.vars.iter().zip(&e.next) {
        for (leaf, &a) in leaves.iter().zip(after) {
            if cone[leaf.var().index()] {
                let x = pre.lit(&mut s, a, 0);
                next.bind(leaf.var(), 0, x);
            }
        }
    }
    let mut out = Vec::new();
    for &p in preds {
        let x = next.lit(&mut s, p, 0);
        for lit in [p, !p] {
            match s.solve(&[if lit == p { !x } else { x }]) {
                SatResult::Unsat => {
                    out.push(lit);
                    break;
                }
                SatResult::Interrupted => return Post::Stopped,
                SatResult::Sat => {}
            }
        }
    }
    out.sort();
    Post::State(out)
}
