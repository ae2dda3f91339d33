//! Which arguments each location's predicate keeps: the variables live there, that is, read
//! on some path from it before they are written ([`live_slots`]).
//!
//! Why: a predicate over every variable of the program makes Spacer relate values that no
//! later step reads: with procedure summaries, one function's variables in another's body.
//! Only clauses with summaries get it (`super::Horn::solve`). Measured on eval-c (20 s, one
//! task at a time), with procedure summaries as they are now: `Fibonacci03` 3.7 s with
//! every argument, 1.0 s with the live ones; on the loops it is a toss of Spacer's
//! heuristics (`array_init_pair_symmetr` 6.4 s to 2.6 s, but `sum_non_eq-2`'s exact
//! clauses, whose dead arguments are three variables the entry sets to 0, 1.8 s to out of
//! time), so they keep every argument.
//!
//! A dead argument changes no clause's answer: a solution of the projected clauses, read as
//! an interpretation of the full predicates that ignores the dead arguments, is a solution
//! of the clauses as they are, and the check (`super::check`) verifies it against those,
//! so a wrong liveness could only cost a proof.

use crate::cfa::{Cfa, Loc};
use crate::wl::{Op, TermId};

/// For each location, the argument slots (of a layout of `slots` arguments, the variables
/// first) its predicate keeps, in order: the live variables, and every slot after the
/// variables (cell indices and lifted constants, which no edge changes).
pub fn live_slots(cfa: &Cfa, slots: usize) -> Vec<Vec<usize>> {
    let vars = cfa.vars.len();
    let read_vars = |roots: Vec<TermId>| -> Vec<usize> {
        let cone = cfa.terms.cone(roots);
        (cone.iter().enumerate())
            .filter(|(_, &c)| c)
            .filter_map(|(t, _)| match cfa.terms.term(TermId(t as u32)).op {
                Op::State(i) => Some(i),
                _ => None,
            })
            .collect()
    };
    let mut live = vec![vec![false; vars]; cfa.locations.len()];
    // Each summarized call reads, at its callee's end, the variables it matches and outputs.
    for n in &cfa.nondets {
        if let Some(call) = &n.summarized {
            for &(v, _) in call.equal.iter().chain(&call.outputs) {
                live[call.returns.index()][v.index()] = true;
            }
        }
    }
    // Per edge: what it reads in its source state, and whether it goes on to its target.
    let steps: Vec<(Loc, Loc, Vec<usize>, Vec<bool>)> = (cfa.edges.iter())
        .filter(|e| e.from != cfa.error && e.from != cfa.exit)
        .map(|e| {
            let goes_on = e.to != cfa.error && e.to != cfa.exit;
            let mut roots = vec![e.guard];
            if goes_on {
                roots.extend(e.assigns.iter().map(|&(_, t)| t));
            }
            let calls = (e.nondets.iter()).filter_map(|&j| cfa.nondets[j].summarized.as_ref());
            for call in calls {
                roots.extend(call.equal.iter().chain(&call.outputs).map(|&(_, t)| t));
            }
            let mut passes = vec![goes_on; vars];
            for &(v, _) in &e.assigns {
                passes[v.index()] = false;
            }
            (e.from, e.to, read_vars(roots), passes)
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (from, to, reads, passes) in &steps {
            let carried: Vec<usize> = (0..vars)
                .filter(|&v| passes[v] && live[to.index()][v])
                .collect();
            for v in reads.iter().copied().chain(carried) {
                changed |= !std::mem::replace(&mut live[from.index()][v], true);
            }
        }
    }
    (live.into_iter())
        .map(|at| {
            let kept = (0..vars).filter(|&v| at[v]);
            kept.chain(vars..slots).collect()
        })
        .collect()
}
