//! Conditions over a CFA (seed 003, conditional model checking): what a CEGAR run over a
//! program's CFA that ends `unknown` did verify, as an assumption automaton that a later run
//! follows in product with its own search, exploring only what the first left open.
//!
//! The automaton is the first run's abstract reachability graph. Its nodes over-approximate
//! every concrete path: a path of edges `e1..ek` from the entry ends in the state of some
//! node reached from the root by those edges (a covered node standing for its coverer). A
//! node is **verified** when no node reachable from it (children, coverers) is waiting or at
//! the error: every concrete path through it is safe from there on (seed 003's sink `T`).
//! The automaton's states are the other expanded nodes; one reached by no edge `e` (the post
//! was empty, its target cannot reach the error, or every child is verified) says that no
//! path takes `e` unsafely; a waiting or error node ends the condition (`Open`: the path is
//! unconstrained from there, as the run that follows must explore it).
//!
//! A run given the automaton carries in every node the set of automaton states its path
//! may be in ([`Assume`], sorted ids; `None` once a path left the automaton). It expands no
//! edge on which that set steps to nothing ([`Step::Safe`]): every node its path could be
//! in was verified, or cannot take the edge. A node covers another only if its set
//! restricts no more ([`covers`]).
//!
//! Its proof, should it complete, is the disjunction per location of its uncovered nodes'
//! states, each conjoined with the labels of its set, and the labels of the verified nodes:
//! inductive, because the first run's graph was closed under posts at every expanded node and
//! the verified region is closed under its edges; the caller checks it as any invariant.

use super::arg::Arg;
use super::program::Program;
use crate::aig::{self, Aig};
use crate::cfa::Loc;

/// The automaton states a path may be in (sorted, never empty), or `None`: no restriction.
pub type Assume = Vec<u32>;

/// Where an edge takes a set of automaton states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// No path through the set takes the edge unsafely: it need not be explored.
    Safe,
    /// The path leaves the automaton: from there on, nothing is verified.
    Open,
    /// These states.
    To(Assume),
}

/// One automaton state: an expanded node of the first run that is not verified.
#[derive(Clone, Debug)]
pub(crate) struct State {
    /// The node's abstract state, a conjunction over [`Automaton::leaves`].
    pub(crate) label: Vec<aig::Lit>,
    /// By edge (sorted): where the node's children are, `Open` or `To` (never `Safe`: an
    /// edge left out is safe).
    pub(crate) moves: Vec<(usize, Step)>,
}

/// A CFA condition: the verified part of a CEGAR run's graph.
#[derive(Clone, Debug)]
pub struct Automaton {
    /// The CFA it speaks of, by its numbers of locations and edges.
    pub(crate) shape: (usize, usize),
    /// The labels, over leaves standing for the program variables' bits in order (the
    /// graph's first variables after the constant).
    pub(crate) aig: Aig,
    pub(crate) leaves: Vec<aig::Lit>,
    pub(crate) states: Vec<State>,
    /// Where the entry is.
    pub(crate) start: Step,
    /// The verified uncovered nodes' locations and states (the proof of what they cover).
    pub(crate) verified: Vec<(Loc, Vec<aig::Lit>)>,
}

/// Whether a node under `by` may cover one under `of`: every automaton state `of` may be in,
/// `by` may be in too (no restriction covers everything).
pub fn covers(by: &Option<Assume>, of: &Option<Assume>) -> bool {
    match (by, of) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(b), Some(o)) => o.iter().all(|x| b.binary_search(x).is_ok()),
    }
}

impl Automaton {
    /// The condition of `arg`, a graph over `prog`'s CFA (stopped anywhere: amid a post,
    /// with an error node not yet refined), whose nodes stand for `labels` (their states,
    /// conjoined with what a condition the run was given says of them) and which was
    /// given the verified nodes `earlier` (locations and labels in `prog`'s AIG).
    pub(super) fn of_graph(
        prog: &Program,
        arg: &Arg,
        labels: &[Vec<aig::Lit>],
        earlier: &[(Loc, Vec<aig::Lit>)],
    ) -> Automaton {
        let nodes = &arg.nodes;
        let resolve = |n: usize| nodes[n].covered_by().unwrap_or(n);
        let waiting = |n: usize| nodes[n].covered_by().is_none() && !nodes[n].expanded;
        // Open: the nodes that reach a waiting one (backward over children and coverers).
        let mut preds = vec![Vec::new(); nodes.len()];
        for (n, node) in nodes.iter().enumerate().filter(|(_, n)| n.alive) {
            match node.covered_by() {
                Some(m) => preds[m].push(n),
                None if node.expanded => {
                    for &c in node.children.iter().filter(|&&c| nodes[c].alive) {
                        preds[c].push(n);
                    }
                }
                None => {}
            }
        }
        let mut open = vec![false; nodes.len()];
        let mut stack: Vec<usize> = (0..nodes.len())
            .filter(|&n| nodes[n].alive && waiting(n))
            .collect();
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut open[n], true) {
                stack.extend(preds[n].iter().copied());
            }
        }
        let mut id = vec![None; nodes.len()];
        let mut kept = Vec::new();
        for n in (0..nodes.len()).filter(|&n| nodes[n].alive && open[n]) {
            if nodes[n].covered_by().is_none() && nodes[n].expanded {
                id[n] = Some(kept.len() as u32);
                kept.push(n);
            }
        }
        let target = |n: usize| -> Step {
            let m = resolve(n);
            match (open[m], id[m]) {
                (false, _) => Step::Safe,
                (true, Some(i)) => Step::To(vec![i]),
                (true, None) => Step::Open,
            }
        };
        // The labels, copied over leaves of their own.
        let mut aig = Aig::new();
        let mut map: Vec<Option<aig::Lit>> = vec![None; prog.aig().num_vars()];
        let mut leaves = Vec::new();
        for leaf in prog.vars.iter().flatten() {
            let own = aig.new_leaf().lit();
            map[leaf.var().index()] = Some(own);
            leaves.push(own);
        }
        let mut label = |lits: &[aig::Lit]| prog.aig().copy_cone(&mut aig, &mut map, lits);
        let mut states = Vec::with_capacity(kept.len());
        for &n in &kept {
            let mut moves: Vec<(usize, Step)> = Vec::new();
            for &c in nodes[n].children.iter().filter(|&&c| nodes[c].alive) {
                let (_, e) = nodes[c].parent.expect("a child has a parent");
                let t = target(c);
                if t == Step::Safe {
                    continue;
                }
                match moves.iter_mut().find(|(f, _)| *f == e) {
                    None => moves.push((e, t)),
                    Some((_, prev)) => *prev = join(prev, &t),
                }
            }
            moves.sort_by_key(|(e, _)| *e);
            states.push(State {
                label: label(&labels[n]),
                moves,
            });
        }
        let verified = (0..nodes.len())
            .filter(|&n| nodes[n].alive && !open[n] && nodes[n].covered_by().is_none())
            .map(|n| (nodes[n].loc, &labels[n][..]))
            .chain(earlier.iter().map(|(l, lits)| (*l, &lits[..])))
            .map(|(l, lits)| (l, label(lits)))
            .collect();
        let start = target(0);
        Automaton {
            shape: (prog.cfa.locations.len(), prog.cfa.edges.len()),
            aig,
            leaves,
            states,
            start,
            verified,
        }
    }

    /// Whether the automaton speaks of `prog`'s CFA (as far as its shape tells).
    pub(super) fn fits(&self, prog: &Program) -> bool {
        self.shape == (prog.cfa.locations.len(), prog.cfa.edges.len())
            && self.leaves.len() == prog.vars.iter().map(Vec::len).sum::<usize>()
    }

    /// Where the entry's paths start.
    pub fn start(&self) -> Step {
        self.start.clone()
    }

    /// Where the edge `e` takes the paths in `from`.
    pub fn step(&self, from: &[u32], e: usize) -> Step {
        let mut to: Vec<u32> = Vec::new();
        for &q in from {
            let moves = &self.states[q as usize].moves;
            let Ok(i) = moves.binary_search_by_key(&e, |(f, _)| *f) else {
                continue;
            };
            match &moves[i].1 {
                Step::Open => return Step::Open,
                Step::To(s) => to.extend(s),
                Step::Safe => {}
            }
        }
        to.sort_unstable();
        to.dedup();
        match to.is_empty() {
            true => Step::Safe,
            false => Step::To(to),
        }
    }

    /// The automaton states: the expanded nodes that are not verified.
    pub fn open_states(&self) -> usize {
        self.states.len()
    }

    /// The verified nodes.
    pub fn verified(&self) -> usize {
        self.verified.len()
    }

    /// The labels in `prog`'s AIG: one literal per automaton state (the conjunction of its
    /// label), and the verified nodes' locations and labels.
    pub(super) fn labels_in(
        &self,
        prog: &mut Program,
    ) -> (Vec<aig::Lit>, Vec<(Loc, Vec<aig::Lit>)>) {
        let mut map: Vec<Option<aig::Lit>> = vec![None; self.aig.num_vars()];
        for (own, leaf) in self.leaves.iter().zip(prog.vars.iter().flatten()) {
            map[own.var().index()] = Some(*leaf);
        }
        let dst = &mut prog.circuits.aig;
        let states = (self.states.iter())
            .map(|s| {
                let lits = self.aig.copy_cone(dst, &mut map, &s.label);
                dst.and_all(lits)
            })
            .collect();
        let verified = (self.verified.iter())
            .map(|(l, label)| (*l, self.aig.copy_cone(dst, &mut map, label)))
            .collect();
        (states, verified)
    }
}

/// Two moves of one edge from one state (a node enumerated several children on it).
fn join(a: &Step, b: &Step) -> Step {
    match (a, b) {
        (Step::To(x), Step::To(y)) => {
            let mut s: Vec<u32> = x.iter().chain(y).copied().collect();
            s.sort_unstable();
            s.dedup();
            Step::To(s)
        }
        _ => Step::Open,
    }
}
