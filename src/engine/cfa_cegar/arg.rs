//! The abstract reachability graph over a CFA: nodes are (location, abstract state) pairs,
//! a new node is covered by an uncovered node at the same location with a weaker state, and
//! the waiting nodes are expanded in the order `--search` gives (seed 000: minimise
//! `w_D * depth + w_E * distance to the error location`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::aig;
use crate::cfa::Loc;
use crate::engine::cegar::Search;

/// One node of the graph.
pub(super) struct Node {
    pub loc: Loc,
    /// The conjunction of these predicate literals, sorted.
    pub state: Vec<aig::Lit>,
    /// The node and edge it was reached from (none for the root).
    pub parent: Option<(usize, usize)>,
    pub depth: usize,
}

/// The graph and its waiting nodes.
pub(super) struct Arg {
    pub nodes: Vec<Node>,
    /// The uncovered nodes of each location.
    pub at: Vec<Vec<usize>>,
    waiting: BinaryHeap<Reverse<(i64, i64, usize)>>,
    weights: (i64, i64),
    /// Tie-break among equal priorities: newest first (depth-first orders) or oldest first.
    lifo: bool,
    /// Distance of each location to the error (`None`: the error is unreachable from it).
    dist: Vec<Option<usize>>,
    pub covered: u64,
}

/// Seed 000's weights `(w_D, w_E)` of each search order, and whether ties go newest first.
fn weights(search: Search) -> ((i64, i64), bool) {
    match search {
        Search::Bfs => ((1, 0), false),
        Search::Dfs => ((-1, 0), true),
        Search::Err => ((0, 1), true),
        Search::ErrDfs => ((2, 1), true),
        Search::DfsErr => ((1, 2), true),
    }
}

impl Arg {
    /// A graph with only the root (at `entry`, state `state`) waiting.
    pub fn new(
        locations: usize,
        entry: Loc,
        state: Vec<aig::Lit>,
        search: Search,
        dist: Vec<Option<usize>>,
    ) -> Arg {
        let (weights, lifo) = weights(search);
        let mut arg = Arg {
            nodes: Vec::new(),
            at: vec![Vec::new(); locations],
            waiting: BinaryHeap::new(),
            weights,
            lifo,
            dist,
            covered: 0,
        };
        arg.add(entry, state, None);
        arg
    }

    /// Adds a node unless a node at its location already covers it; returns it if it was
    /// added uncovered.
    pub fn add(
        &mut self,
        loc: Loc,
        state: Vec<aig::Lit>,
        parent: Option<(usize, usize)>,
    ) -> Option<usize> {
        let depth = parent.map_or(0, |(p, _)| self.nodes[p].depth + 1);
        let covered = self.at[loc.index()]
            .iter()
            .any(|&m| is_subset(&self.nodes[m].state, &state));
        let id = self.nodes.len();
        self.nodes.push(Node {
            loc,
            state,
            parent,
            depth,
        });
        if covered {
            self.covered += 1;
            return None;
        }
        self.at[loc.index()].push(id);
        let dist = self.dist[loc.index()].unwrap_or(0) as i64;
        let priority = self.weights.0 * depth as i64 + self.weights.1 * dist;
        let tie = if self.lifo { -(id as i64) } else { id as i64 };
        self.waiting.push(Reverse((priority, tie, id)));
        Some(id)
    }

    pub fn pop(&mut self) -> Option<usize> {
        self.waiting.pop().map(|Reverse((_, _, id))| id)
    }

    /// The edges from the root to `node`.
    pub fn path(&self, mut node: usize) -> Vec<usize> {
        let mut edges = Vec::new();
        while let Some((p, e)) = self.nodes[node].parent {
            edges.push(e);
            node = p;
        }
        edges.reverse();
        edges
    }

    /// The nodes from the root to `node`.
    pub fn ancestry(&self, mut node: usize) -> Vec<usize> {
        let mut nodes = vec![node];
        while let Some((p, _)) = self.nodes[node].parent {
            nodes.push(p);
            node = p;
        }
        nodes.reverse();
        nodes
    }
}

/// Whether sorted `a` is a subset of sorted `b` (then the conjunction `b` implies `a`).
fn is_subset(a: &[aig::Lit], b: &[aig::Lit]) -> bool {
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}
