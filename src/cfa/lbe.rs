//! Large-block encoding (seed 001): straight-line chains of edges become one edge, so that
//! engines take one step per block instead of one per statement.

use std::collections::HashMap;

use super::subst::substitute;
use super::{Cfa, Edge, Loc};
use crate::wl::{Binary, Op};

/// Merges every pair of edges `a -> b -> c` where `b` has exactly one incoming and one
/// outgoing edge and is not the entry, error or exit location: the merged edge fires when
/// the first guard holds and the second holds after the first's assignments, and composes
/// the assignments. Unreachable-by-construction locations stay (without edges).
pub fn large_blocks(cfa: &mut Cfa) {
    loop {
        let mut incoming = vec![Vec::new(); cfa.locations.len()];
        for (i, e) in cfa.edges.iter().enumerate() {
            incoming[e.to.index()].push(i);
        }
        let outgoing = cfa.outgoing();
        let special = |l: Loc| l == cfa.entry || l == cfa.error || l == cfa.exit;
        let pair = (0..cfa.locations.len()).find_map(|b| {
            let (ins, outs) = (&incoming[b], &outgoing[b]);
            let mergeable =
                ins.len() == 1 && outs.len() == 1 && ins[0] != outs[0] && !special(Loc(b as u32));
            mergeable.then(|| (ins[0], outs[0]))
        });
        let Some((first, second)) = pair else { return };
        let merged = compose(cfa, &cfa.edges[first].clone(), &cfa.edges[second].clone());
        let (lo, hi) = (first.min(second), first.max(second));
        cfa.edges.remove(hi);
        cfa.edges.remove(lo);
        cfa.edges.push(merged);
    }
}

/// The edge that takes `a` and then `b` (`a.to == b.from`).
pub(crate) fn compose(cfa: &mut Cfa, a: &Edge, b: &Edge) -> Edge {
    let map: HashMap<_, _> = a
        .assigns
        .iter()
        .map(|&(v, t)| (cfa.vars[v.index()].term, t))
        .collect();
    let mut memo = HashMap::new();
    let second_guard = substitute(&mut cfa.terms, b.guard, &map, &mut memo);
    let guard = cfa
        .terms
        .apply(Op::Binary(Binary::And), &[a.guard, second_guard])
        .expect("1-bit guards");
    let mut assigns = a.assigns.clone();
    for &(v, t) in &b.assigns {
        let t = substitute(&mut cfa.terms, t, &map, &mut memo);
        match assigns.iter_mut().find(|(w, _)| *w == v) {
            Some(slot) => slot.1 = t,
            None => assigns.push((v, t)),
        }
    }
    Edge {
        from: a.from,
        to: b.to,
        guard,
        assigns,
        nondets: a.nondets.iter().chain(&b.nondets).copied().collect(),
        lines: a.lines.iter().chain(&b.lines).copied().collect(),
    }
}
