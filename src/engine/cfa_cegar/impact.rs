//! Impact: lazy abstraction with interpolants (McMillan, CAV 2006; seed 001's `IMPACT`),
//! `--engine impact` on a C program's CFA.
//!
//! The search unwinds the CFA into a tree whose nodes are (location, label) pairs, a label a
//! conjunction of predicates over the program's variables (AIG literals over the variable
//! leaves of [`Program`], as the CEGAR's predicates are). No abstract post is computed: a
//! new node's label is *true*. A node at the error location makes its path from the root a
//! query ([`path::check`]): feasible, it is a counterexample; spurious, its sequence of
//! interpolants strengthens the labels along the path (the error node's becomes *false*).
//! The tree stays *well labelled* (a node's label and its edge entail the child's label),
//! because consecutive interpolants are so related and strengthening a parent only helps.
//!
//! A node is *covered* by an earlier uncovered node of the same location whose label its own
//! entails; nothing below a covered node is explored. Strengthening a node's label undoes the
//! coverings it gave (they may no longer hold), and covering a node undoes the coverings its
//! descendants gave (a covering node must itself be explored). *Forced covering*: a node
//! whose label does not entail an earlier one's gets that label too when its parent's label
//! and edge entail it (one query), and is covered.
//!
//! When no uncovered node is left unexpanded, the labels of the uncovered nodes with no
//! covered ancestor form an invariant per location ([`invariant`]): every such node's
//! children are uncovered or covered by such a node, and the tree is well labelled.

use super::invariant;
use super::program::Program;
use super::{refute_or_end, setup, Outcome};
use crate::aig;
use crate::cfa::{Cfa, Loc};
use crate::engine::Verdict;
use crate::error::InternalError;
use crate::sat::{self, Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::Unroller;
use crate::wl::BitMap;
use crate::Budget;

/// One node of the tree.
struct Node {
    loc: Loc,
    /// A conjunction of predicates; `[FALSE]` once refuted.
    label: Vec<aig::Lit>,
    /// The node and edge it was reached by (none for the root).
    parent: Option<(usize, usize)>,
    children: Vec<usize>,
    expanded: bool,
    covered_by: Option<usize>,
    /// The nodes this one covers.
    covers: Vec<usize>,
}

impl Node {
    fn refuted(&self) -> bool {
        self.label.contains(&aig::Lit::FALSE)
    }
}

/// The tree and the nodes waiting to be expanded (newest first: depth-first, as McMillan's
/// `unwind`).
struct Tree {
    nodes: Vec<Node>,
    /// Each location's nodes, oldest first.
    at: Vec<Vec<usize>>,
    waiting: Vec<usize>,
}

/// Counters of one run.
#[derive(Default)]
struct Counters {
    refinements: u64,
    strengthened: u64,
    covered: u64,
    forced: u64,
    entailments: u64,
}

impl Tree {
    fn add(&mut self, loc: Loc, parent: Option<(usize, usize)>) -> usize {
        let n = self.nodes.len();
        self.nodes.push(Node {
            loc,
            label: Vec::new(),
            parent,
            children: Vec::new(),
            expanded: false,
            covered_by: None,
            covers: Vec::new(),
        });
        if let Some((p, _)) = parent {
            self.nodes[p].children.push(n);
        }
        self.at[loc.index()].push(n);
        self.waiting.push(n);
        n
    }

    /// Neither the node nor an ancestor is covered.
    fn active(&self, mut n: usize) -> bool {
        loop {
            if self.nodes[n].covered_by.is_some() {
                return false;
            }
            match self.nodes[n].parent {
                Some((p, _)) => n = p,
                None => return true,
            }
        }
    }

    /// The root-to-`n` path: its nodes and the edges between them.
    fn path(&self, n: usize) -> (Vec<usize>, Vec<usize>) {
        let (mut nodes, mut edges) = (vec![n], Vec::new());
        let mut at = n;
        while let Some((p, e)) = self.nodes[at].parent {
            nodes.push(p);
            edges.push(e);
            at = p;
        }
        nodes.reverse();
        edges.reverse();
        (nodes, edges)
    }

    /// Undoes every covering `n` gives; the nodes it covered wait again (their unexpanded
    /// leaves, that is).
    fn uncover_by(&mut self, n: usize) {
        for c in std::mem::take(&mut self.nodes[n].covers) {
            self.nodes[c].covered_by = None;
            self.reactivate(c);
        }
    }

    /// Puts the unexpanded leaves below `n` (down to covered nodes) back in the waiting list.
    fn reactivate(&mut self, n: usize) {
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            let node = &self.nodes[m];
            if node.covered_by.is_some() && m != n {
                continue;
            }
            match node.expanded {
                false => self.waiting.push(m),
                true => stack.extend(node.children.iter().copied()),
            }
        }
    }

    /// Covers `n` by `by`: the coverings given by `n` or a node below it are undone.
    fn cover(&mut self, n: usize, by: usize) {
        self.nodes[n].covered_by = Some(by);
        self.nodes[by].covers.push(n);
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            self.uncover_by(m);
            stack.extend(self.nodes[m].children.iter().copied());
        }
    }
}

/// Entailment between labels, in one incremental solver over one copy of the variables.
struct Entailment<'p> {
    prog: &'p Program<'p>,
    solver: Cadical,
    view: Unroller<'p>,
    budget: Budget,
}

impl<'p> Entailment<'p> {
    fn new(prog: &'p Program<'p>, budget: &Budget) -> Entailment<'p> {
        // Many small queries on a formula that grows between them.
        let mut solver = Cadical::for_small_queries(budget).freezing();
        let state = prog.fresh_state(&mut solver);
        let view = prog.view(&state);
        Entailment {
            prog,
            solver,
            view,
            budget: budget.clone(),
        }
    }

    /// Whether `a` entails `b` (`None`: interrupted).
    fn implies(&mut self, a: &[aig::Lit], b: &[aig::Lit], counters: &mut Counters) -> Option<bool> {
        if a.contains(&aig::Lit::FALSE) {
            return Some(true);
        }
        let open: Vec<aig::Lit> = (b.iter().copied())
            .filter(|l| *l != aig::Lit::TRUE && !a.contains(l))
            .collect();
        if open.is_empty() {
            return Some(true);
        }
        let mut assumed: Vec<sat::Lit> = (a.iter())
            .map(|&l| self.view.lit(&mut self.solver, l, 0))
            .collect();
        // One query: `a` and some literal of `b` false, the clause switched on by `act` for
        // this query only.
        let act = self.solver.new_var().pos_lit();
        let mut violated = vec![!act];
        for l in open {
            violated.push(!self.view.lit(&mut self.solver, l, 0));
        }
        self.solver.add_clause(&violated);
        assumed.push(act);
        counters.entailments += 1;
        let result = self.solver.solve(&assumed);
        self.solver.add_clause(&[!act]);
        match result {
            SatResult::Unsat => Some(true),
            SatResult::Sat => Some(false),
            SatResult::Interrupted => None,
        }
    }

    /// Whether `label` and one firing of edge `e` entail `target` after it (`None`:
    /// interrupted), in a solver of its own.
    fn post_implies(&self, label: &[aig::Lit], e: usize, target: &[aig::Lit]) -> Option<bool> {
        let prog = self.prog;
        let mut s = Cadical::for_one_shot(&self.budget);
        let before = prog.fresh_state(&mut s);
        let mut un = prog.view(&before);
        for &l in label.iter().chain([&prog.edges[e].guard]) {
            let x = un.lit(&mut s, l, 0);
            s.add_clause(&[x]);
        }
        let after: Vec<Vec<sat::Lit>> = (prog.edges[e].next.iter())
            .map(|bits| bits.iter().map(|&b| un.lit(&mut s, b, 0)).collect())
            .collect();
        let mut then = prog.view(&after);
        let violated: Vec<sat::Lit> = (target.iter()).map(|&l| !then.lit(&mut s, l, 0)).collect();
        s.add_clause(&violated);
        match s.solve(&[]) {
            SatResult::Unsat => Some(true),
            SatResult::Sat => Some(false),
            SatResult::Interrupted => None,
        }
    }
}

/// How one exploration ended.
enum Explored {
    Complete,
    /// This (active) node is at the error location.
    Error(usize),
    Stopped,
}

/// Checks `cfa` with Impact; `ts` is its encoding blasted with its words at `bits`, over
/// which the verdict speaks (as [`super::check`]'s).
pub fn check(
    cfa: &Cfa,
    ts: &TransitionSystem,
    bits: &BitMap,
    budget: &Budget,
) -> Result<Outcome, InternalError> {
    let mut counters = Counters::default();
    let unknown = |why: String, c: &Counters| Outcome::unknown(why, c.stats());
    let (mut prog, dist) = match setup(cfa, budget) {
        Ok(p) => p,
        Err(why) => return Ok(unknown(why, &counters)),
    };
    let outgoing = cfa.outgoing();
    let mut tree = Tree {
        nodes: Vec::new(),
        at: vec![Vec::new(); cfa.locations.len()],
        waiting: Vec::new(),
    };
    tree.add(cfa.entry, None);
    // The nodes of the last refuted path, to be closed first.
    let mut refuted: Vec<usize> = Vec::new();
    loop {
        let found = {
            let mut entail = Entailment::new(&prog, budget);
            let mut search = Search {
                tree: &mut tree,
                entail: &mut entail,
                counters: &mut counters,
                cfa,
                dist: &dist,
                outgoing: &outgoing,
            };
            search
                .close_path(&refuted)
                .and_then(|()| search.explore(budget))
        };
        let v = match found {
            None | Some(Explored::Stopped) => return Ok(unknown("interrupted".into(), &counters)),
            Some(Explored::Complete) => {
                let at: Vec<Vec<&[aig::Lit]>> = (tree.at.iter())
                    .map(|nodes| {
                        (nodes.iter())
                            .filter(|&&n| tree.active(n) && !tree.nodes[n].refuted())
                            .map(|&n| &tree.nodes[n].label[..])
                            .collect()
                    })
                    .collect();
                let inv = invariant::invariant(&prog, &at, &dist, ts, bits);
                return Ok(Outcome::decided(Verdict::Safe(inv), counters.stats()));
            }
            Some(Explored::Error(v)) => v,
        };
        let (nodes, edges) = tree.path(v);
        let cuts = match refute_or_end(&mut prog, ts, bits, &edges, budget, || counters.stats())? {
            Ok(cuts) => cuts,
            Err(end) => return Ok(end),
        };
        counters.refinements += 1;
        // Strengthened below, entailment checked after (a fresh solver sees the new
        // predicates): conjoining an interpolant a label already entails changes nothing.
        for cut in cuts {
            let n = nodes[cut.node];
            if cut.pred == aig::Lit::TRUE || tree.nodes[n].label.contains(&cut.pred) {
                continue;
            }
            tree.nodes[n].label.push(cut.pred);
            counters.strengthened += 1;
            tree.uncover_by(n);
        }
        tree.nodes[v].label = vec![aig::Lit::FALSE];
        tree.uncover_by(v);
        crate::log::info(
            2,
            format_args!(
                "impact: refinement {}: spurious path of {} edges, {} nodes",
                counters.refinements,
                edges.len(),
                tree.nodes.len()
            ),
        );
        refuted = nodes;
    }
}

/// One exploration of the tree between two refinements.
struct Search<'s, 'p> {
    tree: &'s mut Tree,
    entail: &'s mut Entailment<'p>,
    counters: &'s mut Counters,
    cfa: &'s Cfa,
    dist: &'s [Option<usize>],
    outgoing: &'s [Vec<usize>],
}

impl Search<'_, '_> {
    /// Tries to cover the nodes of a refuted path, from the root down, until one is covered
    /// (what is below it is then covered too). `None`: interrupted.
    fn close_path(&mut self, nodes: &[usize]) -> Option<()> {
        for &n in nodes {
            if self.tree.active(n) && self.close(n)? {
                break;
            }
        }
        Some(())
    }

    /// Covers `n` by an earlier active node of its location whose label it entails (or can
    /// be made to entail, forced covering); whether it did (`None`: interrupted).
    fn close(&mut self, n: usize) -> Option<bool> {
        if self.tree.nodes[n].refuted() {
            return Some(false);
        }
        let loc = self.tree.nodes[n].loc.index();
        let earlier: Vec<usize> = (self.tree.at[loc].iter().copied())
            .take_while(|&w| w < n)
            .filter(|&w| !self.tree.nodes[w].refuted() && self.tree.active(w))
            .collect();
        for &w in &earlier {
            let (a, b) = (&self.tree.nodes[n].label, &self.tree.nodes[w].label);
            if self.entail.implies(a, b, self.counters)? {
                self.counters.covered += 1;
                self.tree.cover(n, w);
                return Some(true);
            }
        }
        // Forced covering by the newest candidate: the parent's label and the edge entail
        // its label, so `n` may take it.
        let (Some(&w), Some((p, e))) = (earlier.last(), self.tree.nodes[n].parent) else {
            return Some(false);
        };
        let (parent, target) = (&self.tree.nodes[p].label, &self.tree.nodes[w].label);
        if !self.entail.post_implies(parent, e, target)? {
            return Some(false);
        }
        let new: Vec<aig::Lit> = (target.iter().copied())
            .filter(|l| !self.tree.nodes[n].label.contains(l))
            .collect();
        self.tree.nodes[n].label.extend(new);
        self.tree.uncover_by(n);
        self.counters.forced += 1;
        self.tree.cover(n, w);
        Some(true)
    }

    /// Expands waiting nodes until an active one is at the error (the caller refines it) or
    /// none is left. `None`: interrupted.
    fn explore(&mut self, budget: &Budget) -> Option<Explored> {
        while let Some(n) = self.tree.waiting.pop() {
            if budget.expired() {
                return Some(Explored::Stopped);
            }
            let node = &self.tree.nodes[n];
            if node.expanded || node.refuted() || !self.tree.active(n) {
                continue;
            }
            if self.close(n)? {
                continue;
            }
            let loc = self.tree.nodes[n].loc;
            if loc == self.cfa.error {
                return Some(Explored::Error(n));
            }
            self.tree.nodes[n].expanded = true;
            for &e in &self.outgoing[loc.index()] {
                let to = self.cfa.edges[e].to;
                if self.dist[to.index()].is_some() {
                    self.tree.add(to, Some((n, e)));
                }
            }
        }
        Some(Explored::Complete)
    }
}

impl Counters {
    fn stats(&self) -> crate::engine::Stats {
        vec![
            ("impact_refinements", self.refinements),
            ("impact_strengthened", self.strengthened),
            ("impact_covered", self.covered),
            ("impact_forced_covers", self.forced),
            ("impact_entailment_queries", self.entailments),
        ]
    }
}
