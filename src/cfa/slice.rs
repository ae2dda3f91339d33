//! Program slicing by cone of influence: assignments to variables that no guard can depend on
//! (directly or through other assignments) cannot change whether the error is reached.

use super::Cfa;

/// Removes every assignment to a variable outside the cone of influence of the guards;
/// returns how many variables lost their assignments. Guards decide every path, so the
/// reachable locations (and the error) are the same before and after.
pub fn slice(cfa: &mut Cfa) -> usize {
    // Fixpoint over whole-store cones (one pass over the terms per round): the roots are the
    // guards and the values assigned to the variables found relevant so far.
    let mut relevant = vec![false; cfa.vars.len()];
    loop {
        let roots = cfa.edges.iter().flat_map(|e| {
            let assigned = e.assigns.iter().filter(|(v, _)| relevant[v.index()]);
            std::iter::once(e.guard).chain(assigned.map(|&(_, t)| t))
        });
        let cone = cfa.terms.cone(roots);
        let mut grew = false;
        for (i, v) in cfa.vars.iter().enumerate() {
            if cone[v.term.index()] && !relevant[i] {
                relevant[i] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut sliced = vec![false; cfa.vars.len()];
    for e in &mut cfa.edges {
        e.assigns.retain(|&(v, _)| {
            sliced[v.index()] |= !relevant[v.index()];
            relevant[v.index()]
        });
    }
    sliced.into_iter().filter(|&s| s).count()
}
