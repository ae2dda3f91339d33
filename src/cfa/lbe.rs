//! Large-block encoding (seed 001): loop-free regions of the CFA become single edges, so that
//! engines take one step per block (typically one per loop iteration) instead of one per
//! statement, and see the program counter only at loop heads.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap, FxHashSet};

use super::subst::substitute;
use super::{reachable, Cfa, Edge, Loc, VarId};
use crate::wl::{Binary, Op, TermId};

/// Applies until nothing changes:
/// - unreachable edges (from locations the entry cannot reach) are removed;
/// - *choice*: edges with the same source and target become one (the disjunction of the
///   guards, each assignment chosen by the first guard);
/// - *sequence*: a location `b` (not the entry, error or exit) with exactly one incoming
///   edge `a -> b` (`a != b`) is bypassed: the edge is composed with each edge leaving `b`.
///
/// Guards stay mutually exclusive, and every location that remains keeps its index (the
/// interpreter can follow the original CFA between the remaining locations).
///
/// Work is driven by a queue of locations (lowest index first): a bypass of `b` changes only
/// the edges leaving `a`, so only `a` and the targets of those edges are looked at again.
/// Rescanning the whole CFA after every step took 12 s on the 12,941 edges of SV-COMP's
/// straight-line `Haystacks-14`.
pub fn large_blocks(cfa: &mut Cfa) {
    prune_unreachable(cfa);
    let mut g = Graph::new(std::mem::take(&mut cfa.edges), cfa.locations.len());
    let special = [cfa.entry, cfa.error, cfa.exit].map(Loc::index);
    let mut queue: BTreeSet<usize> = (0..cfa.locations.len()).collect();
    for l in 0..cfa.locations.len() {
        g.merge_parallel_from(cfa, l);
    }
    // Locations passed over only because the CFA had too many edges to copy into.
    let mut deferred = Vec::new();
    loop {
        let Some(b) = queue.pop_first() else {
            if g.live < MAX_EDGES && !deferred.is_empty() {
                queue.extend(deferred.drain(..));
                continue;
            }
            break;
        };
        if special.contains(&b) || g.incoming[b].len() != 1 || g.outgoing[b].is_empty() {
            continue;
        }
        let into = g.incoming[b][0];
        let a = g.edge(into).from.index();
        if a == b {
            continue;
        }
        if g.outgoing[b].len() > 1 && g.live >= MAX_EDGES {
            deferred.push(b);
            continue;
        }
        let first = g.remove(into);
        let leaving: Vec<usize> = g.outgoing[b].clone();
        for o in leaving {
            let second = g.remove(o);
            let merged = compose(cfa, &first, &second);
            g.add(merged);
        }
        g.merge_parallel_from(cfa, a);
        queue.insert(a);
        queue.extend(g.outgoing[a].iter().map(|&e| g.edge(e).to.index()));
    }
    cfa.edges = g.edges.into_iter().flatten().collect();
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

/// Past this many edges, a location is bypassed only when that does not add edges: bypassing
/// copies the incoming edge into every outgoing one, and chains of branches that never join
/// would multiply the edges.
const MAX_EDGES: usize = 20_000;

/// The edges of a CFA being merged, with the live edges into and out of each location.
struct Graph {
    /// `None` once removed: indices of live edges stay valid.
    edges: Vec<Option<Edge>>,
    incoming: Vec<Vec<usize>>,
    outgoing: Vec<Vec<usize>>,
    live: usize,
}

impl Graph {
    fn new(edges: Vec<Edge>, locations: usize) -> Graph {
        let mut g = Graph {
            edges: Vec::with_capacity(edges.len()),
            incoming: vec![Vec::new(); locations],
            outgoing: vec![Vec::new(); locations],
            live: 0,
        };
        for e in edges {
            g.add(e);
        }
        g
    }

    fn edge(&self, i: usize) -> &Edge {
        self.edges[i].as_ref().expect("a live edge")
    }

    fn add(&mut self, e: Edge) {
        let i = self.edges.len();
        self.incoming[e.to.index()].push(i);
        self.outgoing[e.from.index()].push(i);
        self.edges.push(Some(e));
        self.live += 1;
    }

    fn remove(&mut self, i: usize) -> Edge {
        let e = self.edges[i].take().expect("a live edge");
        self.incoming[e.to.index()].retain(|&j| j != i);
        self.outgoing[e.from.index()].retain(|&j| j != i);
        self.live -= 1;
        e
    }

    /// Merges each group of parallel edges leaving `from` into one (*choice*).
    fn merge_parallel_from(&mut self, cfa: &mut Cfa, from: usize) {
        let mut by_target: BTreeMap<Loc, Vec<usize>> = BTreeMap::new();
        for &i in &self.outgoing[from] {
            by_target.entry(self.edge(i).to).or_default().push(i);
        }
        for group in by_target.into_values().filter(|g| g.len() > 1) {
            let mut merged = self.remove(group[0]);
            for &i in &group[1..] {
                let other = self.remove(i);
                merged = choice(cfa, &merged, &other);
            }
            self.add(merged);
        }
    }
}

fn prune_unreachable(cfa: &mut Cfa) {
    let seen = reachable(cfa.entry.index(), &cfa.successors());
    cfa.edges.retain(|e| seen[e.from.index()]);
}

/// The edge that takes `a` and then `b` (`a.to == b.from`). The substitution maps only the
/// variables `b` reads: a block that ends a long straight line assigns thousands.
pub(crate) fn compose(cfa: &mut Cfa, a: &Edge, b: &Edge) -> Edge {
    let first = sorted(&a.assigns);
    let roots = std::iter::once(b.guard).chain(b.assigns.iter().map(|&(_, t)| t));
    let map: FxHashMap<TermId, TermId> = state_leaves(&cfa.terms, roots)
        .into_iter()
        .filter_map(|t| {
            let v = cfa.var_of_term(t)?;
            let i = first.binary_search_by_key(&v, |&(w, _)| w).ok()?;
            Some((t, first[i].1))
        })
        .collect();
    let mut memo = FxHashMap::default();
    let second_guard = substitute(&mut cfa.terms, b.guard, &map, &mut memo);
    let guard = cfa
        .terms
        .apply(Op::Binary(Binary::And), &[a.guard, second_guard])
        .expect("1-bit guards");
    let mut second: Vec<(VarId, TermId)> = b
        .assigns
        .iter()
        .map(|&(v, t)| (v, substitute(&mut cfa.terms, t, &map, &mut memo)))
        .collect();
    second.sort_unstable();
    let mut assigns: Vec<(VarId, TermId)> = first
        .iter()
        .filter(|(v, _)| second.binary_search_by_key(v, |&(w, _)| w).is_err())
        .copied()
        .collect();
    assigns.extend(second);
    // Two sorted runs: the stable sort merges them in linear time.
    assigns.sort();
    Edge {
        from: a.from,
        to: b.to,
        guard,
        assigns,
        nondets: a.nondets.iter().chain(&b.nondets).copied().collect(),
        lines: line_set(a, b),
    }
}

/// `assigns` ordered by variable (edges of the front end list them in program order).
fn sorted(assigns: &[(VarId, TermId)]) -> Cow<'_, [(VarId, TermId)]> {
    if assigns.is_sorted() {
        Cow::Borrowed(assigns)
    } else {
        let mut owned = assigns.to_vec();
        owned.sort_unstable();
        Cow::Owned(owned)
    }
}

/// The state terms (variables) that the terms `roots` read.
fn state_leaves(terms: &crate::wl::Model, roots: impl Iterator<Item = TermId>) -> Vec<TermId> {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<TermId> = roots.collect();
    let mut leaves = Vec::new();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let term = terms.term(t);
        match term.op {
            Op::State(_) => leaves.push(t),
            _ => stack.extend(&term.args),
        }
    }
    leaves
}

/// The lines of two merged edges, as a sorted set: kept in order, they would double with
/// every diamond of `if`s that collapses.
fn line_set(a: &Edge, b: &Edge) -> Vec<u32> {
    let mut lines: Vec<u32> = a.lines.iter().chain(&b.lines).copied().collect();
    // Mostly two sorted runs (a block's set and a short edge's lines): merged in linear time.
    lines.sort();
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
