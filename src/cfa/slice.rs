//! Program slicing by cone of influence: assignments to variables that no guard can depend on
//! (directly or through other assignments) cannot change whether the error is reached.

use super::{Cfa, VarId};

/// Removes every assignment to a variable outside the cone of influence of the guards;
/// returns how many variables were sliced away. Guards decide every path, so the reachable
/// locations (and the error) are the same before and after.
pub fn slice(cfa: &mut Cfa) -> usize {
    let mut relevant = vec![false; cfa.vars.len()];
    let mut todo: Vec<VarId> = Vec::new();
    let guards: Vec<_> = cfa.edges.iter().map(|e| e.guard).collect();
    for g in guards {
        todo.extend(cfa.vars_in(g));
    }
    while let Some(v) = todo.pop() {
        if std::mem::replace(&mut relevant[v.index()], true) {
            continue;
        }
        for e in &cfa.edges {
            for &(w, t) in &e.assigns {
                if w == v {
                    todo.extend(cfa.vars_in(t));
                }
            }
        }
    }
    let before = cfa
        .edges
        .iter()
        .flat_map(|e| e.assigns.iter().map(|&(v, _)| v))
        .filter(|v| !relevant[v.index()])
        .collect::<std::collections::HashSet<_>>()
        .len();
    for e in &mut cfa.edges {
        e.assigns.retain(|&(v, _)| relevant[v.index()]);
    }
    before
}
