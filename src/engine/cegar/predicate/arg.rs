//! The abstract reachability graph of the predicate domains: a tree of abstract states
//! with coverage, and pruning below a refined node.

use std::collections::VecDeque;

use super::State;

pub(super) struct Node {
    pub(super) state: State,
    pub(super) parent: Option<usize>,
    pub(super) children: Vec<usize>,
    pub(super) covered: bool,
    pub(super) expanded: bool,
    /// Meets a bad state (only kept in the graph while `multi-seq` explores on).
    pub(super) unsafe_: bool,
    /// False once pruned.
    pub(super) live: bool,
    /// The number of predicates its state was abstracted onto: below the precision's size,
    /// the state is *stale* (lazy pruning keeps nodes above a pivot as they were).
    pub(super) precision: usize,
}

/// The abstract reachability graph (a tree plus coverage).
#[derive(Default)]
pub(super) struct Arg {
    pub(super) nodes: Vec<Node>,
    pub(super) waiting: VecDeque<usize>,
}

impl Arg {
    pub(super) fn add(&mut self, state: State, parent: Option<usize>, precision: usize) {
        let id = self.nodes.len();
        self.nodes.push(Node {
            state,
            parent,
            children: Vec::new(),
            covered: false,
            expanded: false,
            unsafe_: false,
            live: true,
            precision,
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(id);
        }
        self.waiting.push_back(id);
    }

    /// The nodes from the root to `n`.
    pub(super) fn path_to(&self, n: usize) -> Vec<usize> {
        let mut path = vec![n];
        while let Some(p) = self.nodes[*path.last().unwrap()].parent {
            path.push(p);
        }
        path.reverse();
        path
    }

    /// Removes the subtrees of `n` and its siblings and puts its parent back to waiting (a
    /// root is removed alone); every covered node is
    /// uncovered (its covering set may have lost members) and waits again.
    pub(super) fn prune(&mut self, n: usize) {
        // The parent is expanded again, which gives all its children anew.
        let mut stack = match self.nodes[n].parent {
            Some(p) => {
                let parent = &mut self.nodes[p];
                parent.expanded = false;
                self.waiting.push_back(p);
                std::mem::take(&mut parent.children)
            }
            None => vec![n],
        };
        while let Some(m) = stack.pop() {
            self.nodes[m].live = false;
            stack.extend(std::mem::take(&mut self.nodes[m].children));
        }
        for (id, node) in self.nodes.iter_mut().enumerate() {
            if node.live && node.covered {
                node.covered = false;
                self.waiting.push_back(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_a_node_expands_its_parent_again_without_the_old_children() {
        let mut arg = Arg::default();
        arg.add(vec![vec![(0, true)]], None, 1);
        arg.nodes[0].expanded = true;
        arg.add(vec![vec![(0, true)]], Some(0), 1);
        arg.add(vec![vec![(0, false)]], Some(0), 1);
        arg.add(vec![vec![(0, false)]], Some(2), 2);
        arg.nodes[1].covered = true;
        arg.waiting.clear();
        arg.prune(2);
        let live: Vec<bool> = arg.nodes.iter().map(|n| n.live).collect();
        assert_eq!(live, [true, false, false, false]);
        assert!(!arg.nodes[0].expanded && arg.nodes[0].children.is_empty());
        assert_eq!(arg.waiting, [0]);
    }
}
