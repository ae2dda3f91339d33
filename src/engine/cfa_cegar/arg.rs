//! The abstract reachability graph over a CFA: nodes are (location, abstract state) pairs,
//! a new node is covered by an uncovered node at the same location with a weaker state, and
//! the waiting nodes are expanded in the order `--search` gives (seed 000: minimise
//! `w_D * depth + w_E * distance to the error location`). A refinement may prune the graph
//! lazily ([`Arg::reopen`]): only the subtrees below one node are removed and that node is
//! expanded again, under the refined precision.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::condition::{self, Assume};
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
    /// How often its location occurs on its path, itself included (seed 003's repeating
    /// locations).
    pub visits: u32,
    /// How many predicates of its location's precision its state was computed with
    /// (precisions only grow): a node with fewer is stale after a refinement.
    pub precision: usize,
    /// What the condition a run was given says of the paths through this node
    /// ([`super::condition`]): `None` when it restricts nothing here.
    pub assume: Option<Assume>,
    /// Every outgoing edge's successors were added (a node the budget stopped amid its
    /// posts is not).
    pub expanded: bool,
    pub children: Vec<usize>,
    /// The node covering this one.
    pub covered_by: Option<usize>,
    /// The nodes this one covers.
    covers: Vec<usize>,
    /// Not removed by pruning.
    pub alive: bool,
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
    /// A graph with only the root (at `entry`, state `state`, under the condition's
    /// `assume`) waiting.
    pub fn new(
        locations: usize,
        entry: Loc,
        state: Vec<aig::Lit>,
        assume: Option<Assume>,
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
        let precision = state.len();
        arg.add(entry, state, assume, precision, None);
        arg
    }

    /// Adds a node, covered if an uncovered node at its location has a weaker state and a
    /// condition that restricts it no more ([`super::condition::covers`]); returns it if it
    /// is uncovered (and waiting). A node at the error location (distance 0) is
    /// never covered: each is an abstract error path of its own (`--refinement multi-seq`
    /// refines them all; otherwise the first ends the exploration).
    pub fn add(
        &mut self,
        loc: Loc,
        state: Vec<aig::Lit>,
        assume: Option<Assume>,
        precision: usize,
        parent: Option<(usize, usize)>,
    ) -> Option<usize> {
        let depth = parent.map_or(0, |(p, _)| self.nodes[p].depth + 1);
        let mut visits = 1;
        let mut up = parent.map(|(p, _)| p);
        while let Some(a) = up {
            if self.nodes[a].loc == loc {
                visits += self.nodes[a].visits;
                break;
            }
            up = self.nodes[a].parent.map(|(p, _)| p);
        }
        let covered_by = match self.dist[loc.index()] {
            Some(0) => None,
            _ => (self.at[loc.index()].iter()).copied().find(|&m| {
                let m = &self.nodes[m];
                is_subset(&m.state, &state) && condition::covers(&m.assume, &assume)
            }),
        };
        let id = self.nodes.len();
        self.nodes.push(Node {
            loc,
            state,
            parent,
            depth,
            visits,
            precision,
            assume,
            expanded: false,
            children: Vec::new(),
            covered_by,
            covers: Vec::new(),
            alive: true,
        });
        if let Some((p, _)) = parent {
            self.nodes[p].children.push(id);
        }
        if let Some(m) = covered_by {
            self.covered += 1;
            self.nodes[m].covers.push(id);
            return None;
        }
        self.wait(id);
        Some(id)
    }

    /// Makes uncovered `id` one of its location's states and puts it on the waitlist.
    fn wait(&mut self, id: usize) {
        let node = &self.nodes[id];
        self.at[node.loc.index()].push(id);
        let dist = self.dist[node.loc.index()].unwrap_or(0) as i64;
        let priority = self.weights.0 * node.depth as i64 + self.weights.1 * dist;
        let tie = if self.lifo { -(id as i64) } else { id as i64 };
        self.waiting.push(Reverse((priority, tie, id)));
    }

    /// The next waiting node.
    pub fn pop(&mut self) -> Option<usize> {
        while let Some(Reverse((_, _, id))) = self.waiting.pop() {
            if self.nodes[id].alive {
                return Some(id);
            }
        }
        None
    }

    /// Lazy pruning: removes every descendant of `node` and puts `node` back on the waitlist.
    /// The nodes the removed ones covered (and that stay) become uncovered and wait again.
    pub fn reopen(&mut self, node: usize) {
        let mut removed = Vec::new();
        let mut stack = std::mem::take(&mut self.nodes[node].children);
        while let Some(n) = stack.pop() {
            self.nodes[n].alive = false;
            removed.push(n);
            stack.extend(self.nodes[n].children.iter().copied());
        }
        for &n in &removed {
            let loc = self.nodes[n].loc.index();
            self.at[loc].retain(|&m| m != n);
            if let Some(m) = self.nodes[n].covered_by {
                self.nodes[m].covers.retain(|&c| c != n);
            }
        }
        for n in removed {
            for c in std::mem::take(&mut self.nodes[n].covers) {
                if self.nodes[c].alive {
                    self.nodes[c].covered_by = None;
                    self.wait(c);
                }
            }
        }
        let loc = self.nodes[node].loc.index();
        self.at[loc].retain(|&m| m != node);
        self.nodes[node].expanded = false;
        self.wait(node);
    }

    /// Whether an uncovered node of the graph is not expanded (was cut, or stopped).
    pub fn unexpanded(&self) -> bool {
        (self.nodes.iter()).any(|n| n.alive && n.covered_by.is_none() && !n.expanded)
    }

    /// The nodes in the graph (not pruned).
    pub fn live(&self) -> usize {
        self.nodes.iter().filter(|n| n.alive).count()
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
