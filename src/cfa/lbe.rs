//! Large-block encoding (seed 001): loop-free regions of the CFA become single edges, so that
//! engines take one step per block (typically one per loop iteration) instead of one per
//! statement, and see the program counter only at loop heads.

use std::collections::HashMap;

use super::subst::substitute;
use super::{Cfa, Edge, Loc, VarId};
use crate::wl::{Binary, Op};

/// Applies until nothing changes:
/// - unreachable edges (from locations the entry cannot reach) are removed;
/// - *choice*: edges with the same source and target become one (the disjunction of the
///   guards, each assignment chosen by the first guard);
/// - *sequence*: a location `b` (not the entry, error or exit) with exactly one incoming
///   edge `a -> b` (`a != b`) is bypassed: the edge is composed with each edge leaving `b`.
///
/// Guards stay mutually exclusive, and every location that remains keeps its index (the
/// interpreter can follow the original CFA between the remaining locations).
pub fn large_blocks(cfa: &mut Cfa) {
    loop {
        prune_unreachable(cfa);
        if merge_parallel(cfa) {
            continue;
        }
        if !bypass_one(cfa) {
            return;
        }
    }
}

/// The locations that still matter after [`large_blocks`]: the entry, error, exit and every
/// location an edge touches.
pub fn kept_locations(cfa: &Cfa) -> Vec<bool> {
    let mut kept = vec![false; cfa.locations.len()];
    for l in [cfa.entry, cfa.error, cfa.exit] {
        kept[l.index()] = true;
    }
    for e in &cfa.edges {
        kept[e.from.index()] = true;
        kept[e.to.index()] = true;
    }
    kept
}

fn prune_unreachable(cfa: &mut Cfa) {
    let outgoing = cfa.outgoing();
    let mut seen = vec![false; cfa.locations.len()];
    let mut stack = vec![cfa.entry];
    while let Some(l) = stack.pop() {
        if !std::mem::replace(&mut seen[l.index()], true) {
            stack.extend(outgoing[l.index()].iter().map(|&e| cfa.edges[e].to));
        }
    }
    cfa.edges.retain(|e| seen[e.from.index()]);
}

/// Merges one group of parallel edges; returns whether it did.
fn merge_parallel(cfa: &mut Cfa) -> bool {
    let mut by_ends: HashMap<(Loc, Loc), Vec<usize>> = HashMap::new();
    for (i, e) in cfa.edges.iter().enumerate() {
        by_ends.entry((e.from, e.to)).or_default().push(i);
    }
    let Some(group) = by_ends.into_values().filter(|g| g.len() > 1).min() else {
        return false;
    };
    let mut merged = cfa.edges[group[0]].clone();
    for &i in &group[1..] {
        merged = choice(cfa, &merged, &cfa.edges[i].clone());
    }
    remove_edges(cfa, &group);
    cfa.edges.push(merged);
    true
}

/// Past this many edges, a location is bypassed only when that does not add edges: bypassing
/// copies the incoming edge into every outgoing one, and chains of branches that never join
/// would multiply the edges.
const MAX_EDGES: usize = 20_000;

/// Bypasses one location with a single incoming edge; returns whether it did.
fn bypass_one(cfa: &mut Cfa) -> bool {
    let mut incoming = vec![Vec::new(); cfa.locations.len()];
    for (i, e) in cfa.edges.iter().enumerate() {
        incoming[e.to.index()].push(i);
    }
    let outgoing = cfa.outgoing();
    let special = |l: usize| [cfa.entry, cfa.error, cfa.exit].contains(&Loc(l as u32));
    let found = (0..cfa.locations.len()).find(|&b| {
        let ins = &incoming[b];
        ins.len() == 1
            && cfa.edges[ins[0]].from.index() != b
            && !outgoing[b].is_empty()
            && (outgoing[b].len() == 1 || cfa.edges.len() < MAX_EDGES)
            && !special(b)
    });
    let Some(b) = found else {
        return false;
    };
    let first = cfa.edges[incoming[b][0]].clone();
    let merged: Vec<Edge> = (outgoing[b].iter())
        .map(|&o| {
            let second = cfa.edges[o].clone();
            compose(cfa, &first, &second)
        })
        .collect();
    let drop: Vec<usize> = outgoing[b]
        .iter()
        .copied()
        .chain([incoming[b][0]])
        .collect();
    remove_edges(cfa, &drop);
    cfa.edges.extend(merged);
    true
}

/// Removes the edges at the indices `drop` (the others keep their order).
fn remove_edges(cfa: &mut Cfa, drop: &[usize]) {
    let mut i = 0;
    cfa.edges.retain(|_| {
        i += 1;
        !drop.contains(&(i - 1))
    });
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
    assigns.sort_unstable();
    Edge {
        from: a.from,
        to: b.to,
        guard,
        assigns,
        nondets: a.nondets.iter().chain(&b.nondets).copied().collect(),
        lines: line_set(a, b),
    }
}

/// The lines of two merged edges, as a sorted set: kept in order, they would double with
/// every diamond of `if`s that collapses.
fn line_set(a: &Edge, b: &Edge) -> Vec<u32> {
    let mut lines: Vec<u32> = a.lines.iter().chain(&b.lines).copied().collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// One edge for two exclusive edges with the same ends: it fires when either does and makes
/// the assignments of the one whose guard holds.
fn choice(cfa: &mut Cfa, a: &Edge, b: &Edge) -> Edge {
    let guard = cfa
        .terms
        .apply(Op::Binary(Binary::Or), &[a.guard, b.guard])
        .expect("1-bit guards");
    let mut vars: Vec<VarId> = a
        .assigns
        .iter()
        .chain(&b.assigns)
        .map(|&(v, _)| v)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    let value = |e: &Edge, v: VarId, cfa: &Cfa| {
        (e.assigns.iter().find(|(w, _)| *w == v)).map_or(cfa.vars[v.index()].term, |&(_, t)| t)
    };
    let assigns = vars
        .into_iter()
        .map(|v| {
            let (ta, tb) = (value(a, v, cfa), value(b, v, cfa));
            let t = cfa
                .terms
                .apply(Op::Ite, &[a.guard, ta, tb])
                .expect("same sorts");
            (v, t)
        })
        .collect();
    let mut nondets = a.nondets.clone();
    nondets.extend(b.nondets.iter().filter(|n| !a.nondets.contains(n)));
    Edge {
        from: a.from,
        to: a.to,
        guard,
        assigns,
        nondets,
        lines: line_set(a, b),
    }
}
