//! The abstract reachability graph that both CEGAR engines build (seed 000's ARG, Theta's
//! `ARG`): the circuit one over a transition system, which has one location, and the CFA one
//! over a program's locations. The graph is generic over the abstract state; what it holds
//! is what CEGAR needs of any domain: the tree of nodes with the edge each was reached by,
//! coverage, the waitlist in the order `--search` gives (seed 000: minimise
//! `w_D * depth + w_E * distance to the error`), and lazy pruning ([`Arg::reopen`]).
//!
//! A node is covered either by one node (the CFA engine: a node at the same location with a
//! weaker state) or by the union of the uncovered nodes (the circuit engine: a one-location
//! system reaches its fixpoint that way, seed 000 section 1.7). Removing nodes uncovers those
//! they covered, and every node covered by the union, whose covering set may have shrunk.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::cfa::Loc;
use crate::engine::cegar::Search;

/// A location of the system the graph explores.
pub(crate) trait Location: Copy + Eq {
    fn index(self) -> usize;
}

impl Location for Loc {
    fn index(self) -> usize {
        Loc::index(self)
    }
}

/// A transition system's one location.
impl Location for () {
    fn index(self) -> usize {
        0
    }
}

/// What covers a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cover {
    /// This node's state is weaker.
    By(usize),
    /// The disjunction of the uncovered nodes' states is weaker.
    Union,
}

/// One node of the graph.
pub(crate) struct Node<L, S> {
    pub loc: L,
    pub state: S,
    /// The node and edge it was reached from (none for a root).
    pub parent: Option<(usize, usize)>,
    pub depth: usize,
    /// How often its location occurs on its path, itself included (seed 003's repeating
    /// locations).
    pub visits: u32,
    /// How many predicates of its location's precision its state was computed with
    /// (precisions only grow): a node with fewer is stale after a refinement.
    pub precision: usize,
    /// Every outgoing edge's successors were added (a node the budget stopped amid its
    /// posts is not).
    pub expanded: bool,
    pub children: Vec<usize>,
    pub cover: Option<Cover>,
    /// The nodes this one covers (by [`Cover::By`]).
    covers: Vec<usize>,
    /// Not removed by pruning.
    pub alive: bool,
}

impl<L, S> Node<L, S> {
    /// The one node covering this one, if a node does.
    pub fn covered_by(&self) -> Option<usize> {
        match self.cover {
            Some(Cover::By(m)) => Some(m),
            _ => None,
        }
    }
}

/// The graph and its waiting nodes.
pub(crate) struct Arg<L, S> {
    pub nodes: Vec<Node<L, S>>,
    /// The uncovered live nodes of each location.
    pub at: Vec<Vec<usize>>,
    order: Order,
    waiting: BinaryHeap<Reverse<(i64, i64, usize)>>,
    /// Nodes ever covered.
    pub covered: u64,
}

/// The order in which waiting nodes are expanded.
pub(crate) struct Order {
    weights: (i64, i64),
    /// Tie-break among equal priorities: newest first (depth-first orders) or oldest first.
    lifo: bool,
    /// Each location's distance to the error.
    dist: Vec<usize>,
}

impl Order {
    /// Seed 000's weights `(w_D, w_E)` of `search`, over each location's distance to the
    /// error `dist` (a transition system's one location: `[0]`; the command line allows
    /// the error-distance orders on CFAs only).
    pub fn new(search: Search, dist: Vec<usize>) -> Order {
        let (weights, lifo) = match search {
            Search::Bfs => ((1, 0), false),
            Search::Dfs => ((-1, 0), true),
            Search::Err => ((0, 1), true),
            Search::ErrDfs => ((2, 1), true),
            Search::DfsErr => ((1, 2), true),
        };
        Order {
            weights,
            lifo,
            dist,
        }
    }

    fn key(&self, id: usize, depth: usize, loc: usize) -> (i64, i64, usize) {
        let priority = self.weights.0 * depth as i64 + self.weights.1 * self.dist[loc] as i64;
        let tie = if self.lifo { -(id as i64) } else { id as i64 };
        (priority, tie, id)
    }
}

impl<L: Location, S> Arg<L, S> {
    /// An empty graph over `locations` locations.
    pub fn new(locations: usize, order: Order) -> Arg<L, S> {
        Arg {
            nodes: Vec::new(),
            at: vec![Vec::new(); locations],
            order,
            waiting: BinaryHeap::new(),
            covered: 0,
        }
    }

    /// Adds a node reached from `parent` (a root if none), covered by `cover` if given, else
    /// waiting; returns its index.
    pub fn add(
        &mut self,
        loc: L,
        state: S,
        precision: usize,
        parent: Option<(usize, usize)>,
        cover: Option<usize>,
    ) -> usize {
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
        let id = self.nodes.len();
        self.nodes.push(Node {
            loc,
            state,
            parent,
            depth,
            visits,
            precision,
            expanded: false,
            children: Vec::new(),
            cover: cover.map(Cover::By),
            covers: Vec::new(),
            alive: true,
        });
        if let Some((p, _)) = parent {
            self.nodes[p].children.push(id);
        }
        match cover {
            Some(m) => {
                self.covered += 1;
                self.nodes[m].covers.push(id);
            }
            None => self.wait(id),
        }
        id
    }

    /// Covers uncovered, unexpanded `n` by the union of the other uncovered nodes.
    pub fn cover_by_union(&mut self, n: usize) {
        let loc = self.nodes[n].loc.index();
        self.at[loc].retain(|&m| m != n);
        self.nodes[n].cover = Some(Cover::Union);
        self.covered += 1;
    }

    /// Makes uncovered `id` one of its location's states and puts it on the waitlist.
    fn wait(&mut self, id: usize) {
        let node = &self.nodes[id];
        self.at[node.loc.index()].push(id);
        let key = self.order.key(id, node.depth, node.loc.index());
        self.waiting.push(Reverse(key));
    }

    /// The next waiting node.
    pub fn pop(&mut self) -> Option<usize> {
        while let Some(Reverse((_, _, id))) = self.waiting.pop() {
            let n = &self.nodes[id];
            if n.alive && n.cover.is_none() && !n.expanded {
                return Some(id);
            }
        }
        None
    }

    /// Lazy pruning: removes every descendant of `node` and puts `node` back on the waitlist,
    /// to be expanded again. The nodes the removed ones covered (and that stay), and every
    /// node covered by the union, become uncovered and wait again.
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
            if let Some(m) = self.nodes[n].covered_by() {
                self.nodes[m].covers.retain(|&c| c != n);
            }
        }
        let mut uncovered = Vec::new();
        for n in removed {
            uncovered.extend(std::mem::take(&mut self.nodes[n].covers));
        }
        uncovered.extend((0..self.nodes.len()).filter(|&n| {
            let n = &self.nodes[n];
            n.alive && n.cover == Some(Cover::Union)
        }));
        for c in uncovered {
            if self.nodes[c].alive && self.nodes[c].cover.is_some() {
                self.nodes[c].cover = None;
                self.wait(c);
            }
        }
        let loc = self.nodes[node].loc.index();
        self.at[loc].retain(|&m| m != node);
        self.nodes[node].expanded = false;
        self.wait(node);
    }

    /// Whether an uncovered node of the graph is not expanded (was cut, or stopped).
    pub fn unexpanded(&self) -> bool {
        (self.nodes.iter()).any(|n| n.alive && n.cover.is_none() && !n.expanded)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reopening_a_node_removes_its_subtree_and_uncovers_what_it_covered() {
        // 0 -> {1, 2}, 2 -> 3; 4 (a root) is covered by 3, 1 by the union.
        let mut arg: Arg<(), u8> = Arg::new(1, Order::new(Search::Bfs, vec![0]));
        let root = arg.add((), 0, 1, None, None);
        assert_eq!(arg.pop(), Some(root));
        arg.nodes[root].expanded = true;
        let a = arg.add((), 1, 1, Some((root, 0)), None);
        let b = arg.add((), 2, 1, Some((root, 0)), None);
        assert_eq!((arg.pop(), arg.pop()), (Some(a), Some(b)));
        arg.cover_by_union(a);
        arg.nodes[b].expanded = true;
        let c = arg.add((), 3, 2, Some((b, 0)), None);
        let d = arg.add((), 4, 2, None, Some(c));
        assert_eq!(arg.nodes[d].covered_by(), Some(c));
        assert_eq!(arg.ancestry(c), [root, b, c]);
        arg.reopen(b);
        let alive: Vec<bool> = arg.nodes.iter().map(|n| n.alive).collect();
        assert_eq!(alive, [true, true, true, false, true]);
        assert!(arg.nodes[a].cover.is_none() && arg.nodes[d].cover.is_none());
        assert!(!arg.nodes[b].expanded && arg.nodes[b].children.is_empty());
        let mut waiting: Vec<usize> = std::iter::from_fn(|| arg.pop()).collect();
        waiting.sort();
        assert_eq!(waiting, [a, b, d]);
        assert_eq!(arg.live(), 4);
    }

    #[test]
    fn the_search_orders_weigh_depth_and_distance_to_the_error() {
        // Locations 0 (distance 2) and 1 (distance 0): two roots, then one child each.
        let order = |search| {
            let mut arg: Arg<Loc, ()> = Arg::new(2, Order::new(search, vec![2, 0]));
            let far = arg.add(Loc(0), (), 0, None, None);
            let near = arg.add(Loc(1), (), 0, None, None);
            arg.add(Loc(0), (), 0, Some((far, 0)), None);
            arg.add(Loc(1), (), 0, Some((near, 0)), None);
            std::iter::from_fn(|| arg.pop()).collect::<Vec<_>>()
        };
        assert_eq!(order(Search::Bfs), [0, 1, 2, 3]);
        assert_eq!(order(Search::Dfs), [3, 2, 1, 0]);
        assert_eq!(order(Search::Err), [3, 1, 2, 0]);
        // 2 * depth + distance: the near root (0), then the near child and the far root tie
        // at 2 (newest first), then the far child (4).
        assert_eq!(order(Search::ErrDfs), [1, 3, 0, 2]);
    }
}
