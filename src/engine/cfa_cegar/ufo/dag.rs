//! UFO's abstract reachability graph, a DAG kept from one refinement to the next, and its
//! walk in weak topological order (the paper's `EXPANDARG`).
//!
//! A round counts only the edges out of the nodes it expanded, so the DAG of a round is what
//! that walk built; nodes of earlier rounds that it did not reach are left aside (with their
//! labels, for a later round that reaches them again). Every edge of a round's DAG is well
//! labelled when the round ends (the source's label and the edge entail the target's):
//! - a node the last refinement labelled takes that label when each of its edges in is one
//!   the refinement labelled (an edge of the last round between two labelled nodes, a Hoare
//!   triple by construction) from a parent that took its label too;
//! - otherwise a node is relabelled (the join of its parents' posts) when it is *marked*: it
//!   is new, it has an edge in that the last round did not have, or a parent's label
//!   changed since the last round (a parent not expanded in the last round counts as
//!   changed: the child's label may not account for it);
//! - any other node keeps its label: its edges in and their sources' labels are the last
//!   round's, which left them well labelled.
//!
//! A relabelled node keeps its old label too (conjoined with the new one) when that still
//! follows from its edges in, so that labels only grow stronger along the edges that stay.

use std::collections::{HashMap, HashSet};

use super::{abstraction, refine, Counters, Mode};
use crate::aig;
use crate::cfa::wto::Wto;
use crate::cfa::{Cfa, Loc};
use crate::engine::cfa_cegar::program::Program;
use crate::sat::{Cadical, SatResult, Solver};
use crate::Budget;

/// One node of the DAG.
struct Node {
    loc: Loc,
    /// The label: a predicate over the program's variable leaves.
    psi: aig::Lit,
    /// The label when the node was last expanded (its children's were computed from it).
    expanded_psi: Option<aig::Lit>,
    marked: bool,
    /// Whether this round's label is the last refinement's.
    took_label: bool,
    /// Whether this round's label entails the last one (kept, or conjoined with it).
    stronger: bool,
    /// Whether an edge into the node this round was not one of the last round's (a new
    /// edge, or a parent the last round did not expand).
    fresh_in: bool,
    /// (CFA edge, child) and (parent, CFA edge).
    children: Vec<(usize, usize)>,
    parents: Vec<(usize, usize)>,
    /// The last round that visited the node, and that expanded it (0: none).
    visited: u32,
    expanded: u32,
    /// Covered in the round that last visited it (a loop head, not expanded).
    covered: bool,
}

/// How a round's walk ended.
pub(super) enum Walked {
    /// The error location's node, whose label is not *false*.
    Error(usize),
    /// The error is unreachable in the DAG: it is safe, complete and well labelled.
    Safe,
    Stopped(String),
}

/// The DAG and what a walk needs besides the program.
pub(super) struct Dag<'c> {
    cfa: &'c Cfa,
    outgoing: &'c [Vec<usize>],
    dist: &'c [Option<usize>],
    mode: Option<Mode>,
    nodes: Vec<Node>,
    /// The current round (the first is 1).
    round: u32,
    /// This round's nodes in the order it visited them (a topological order of its DAG).
    pub order: Vec<usize>,
    /// The labels of the last refinement, by node, and the edges (parent, CFA edge, child)
    /// between labelled nodes of the round it refined.
    labels: HashMap<usize, aig::Lit>,
    labelled_edges: HashSet<(usize, usize, usize)>,
    /// Per location, the node the walk visits when it gets there (the paper's `FN`).
    future: Vec<Option<usize>>,
    /// Per loop head, the nodes heading the current unrolling of its loop (`AH`).
    active: Vec<Vec<usize>>,
    /// Per edge, the post images of its target's predicates (predicate abstraction), and
    /// how many predicates there were in all when they were built (precisions only grow).
    images: Vec<Vec<(aig::Lit, aig::Lit)>>,
    images_of: Option<usize>,
}

impl<'c> Dag<'c> {
    pub fn new(
        cfa: &'c Cfa,
        outgoing: &'c [Vec<usize>],
        dist: &'c [Option<usize>],
        mode: Option<Mode>,
    ) -> Dag<'c> {
        let mut dag = Dag {
            cfa,
            outgoing,
            dist,
            mode,
            nodes: Vec::new(),
            round: 0,
            order: Vec::new(),
            labels: HashMap::new(),
            labelled_edges: HashSet::new(),
            future: vec![None; cfa.locations.len()],
            active: vec![Vec::new(); cfa.locations.len()],
            images: Vec::new(),
            images_of: None,
        };
        dag.add(cfa.entry);
        dag
    }

    pub fn location(&self, n: usize) -> usize {
        self.nodes[n].loc.index()
    }

    /// Records the labels a refinement of this round gave.
    pub fn set_labels(&mut self, labels: HashMap<usize, aig::Lit>) {
        let edges = (labels.keys())
            .flat_map(|&w| self.edges_in(w).map(move |(u, e)| (u, e, w)))
            .filter(|(u, _, _)| labels.contains_key(u));
        self.labelled_edges = edges.collect();
        self.labels = labels;
    }

    fn add(&mut self, loc: Loc) -> usize {
        self.nodes.push(Node {
            loc,
            psi: aig::Lit::TRUE,
            expanded_psi: None,
            marked: true,
            took_label: false,
            stronger: false,
            fresh_in: true,
            children: Vec::new(),
            parents: Vec::new(),
            visited: 0,
            expanded: 0,
            covered: false,
        });
        self.nodes.len() - 1
    }

    /// The edges of this round's DAG out of `u`: (CFA edge, child).
    pub fn edges_out(&self, u: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let node = &self.nodes[u];
        let expanded = node.expanded == self.round;
        (node.children.iter().copied())
            .filter(move |&(_, w)| expanded && self.nodes[w].visited == self.round)
    }

    /// The edges of this round's DAG into `v`: (parent, CFA edge).
    pub fn edges_in(&self, v: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.nodes[v].parents.iter().copied())
            .filter(|&(u, _)| self.nodes[u].expanded == self.round)
    }

    /// Per location, the labels of this round's uncovered nodes (one-literal conjunctions).
    pub fn labels_per_location(&self, locations: usize) -> Vec<Vec<[aig::Lit; 1]>> {
        let mut at = vec![Vec::new(); locations];
        for &n in &self.order {
            let node = &self.nodes[n];
            if !node.covered {
                at[node.loc.index()].push([node.psi]);
            }
        }
        at
    }

    /// One round: walks the CFA's weak topological ordering `wto` from the root, labelling,
    /// covering and expanding nodes, with the predicates `prec` per location.
    pub fn walk(
        &mut self,
        prog: &mut Program,
        prec: &[Vec<aig::Lit>],
        wto: &[Wto],
        counters: &mut Counters,
        budget: &Budget,
    ) -> Walked {
        self.round += 1;
        self.order.clear();
        self.future.iter_mut().for_each(|f| *f = None);
        self.active.iter_mut().for_each(Vec::clear);
        let predicates = prec.iter().map(Vec::len).sum();
        if self.mode.is_some() && self.images_of != Some(predicates) {
            self.images = abstraction::images(prog, prec);
            self.images_of = Some(predicates);
        }
        // The root waits only where the walk goes: an entry that cannot reach the error has
        // no ordering (the DAG is then the root alone, and safe).
        if self.dist[self.cfa.entry.index()].is_some() {
            self.future[self.cfa.entry.index()] = Some(0);
        }
        let mut walk = Walk {
            dag: self,
            prog,
            prec,
            counters,
            budget,
        };
        let end = match walk.elements(wto) {
            Err(end) => end,
            Ok(()) => Walked::Safe,
        };
        if let Walked::Stopped(_) = end {
            return end;
        }
        // Every node created must have been visited; a CFA whose loops have several entries
        // (a `goto` into a loop body) can leave one behind.
        if self.future.iter().any(Option::is_some) {
            return Walked::Stopped("unsupported: a loop with more than one entry".into());
        }
        end
    }
}

/// One round's walk.
struct Walk<'w, 'c, 'p> {
    dag: &'w mut Dag<'c>,
    prog: &'w mut Program<'p>,
    prec: &'w [Vec<aig::Lit>],
    counters: &'w mut Counters,
    budget: &'w Budget,
}

impl Walk<'_, '_, '_> {
    /// Walks a sequence of WTO elements; `Err` ends the round.
    fn elements(&mut self, elems: &[Wto]) -> Result<(), Walked> {
        for el in elems {
            if self.budget.expired() {
                return Err(Walked::Stopped("interrupted".into()));
            }
            match el {
                Wto::Vertex(l) => {
                    let Some(v) = self.dag.future[*l].take() else {
                        continue;
                    };
                    self.label(v)?;
                    if self.dag.nodes[v].loc != self.dag.cfa.error {
                        self.expand(v);
                    } else if self.dag.nodes[v].psi != aig::Lit::FALSE {
                        return Err(Walked::Error(v));
                    }
                }
                Wto::Component(h, body) => {
                    while let Some(v) = self.dag.future[*h].take() {
                        self.label(v)?;
                        if self.covered(v)? {
                            self.dag.nodes[v].covered = true;
                            self.counters.covered += 1;
                            break;
                        }
                        self.dag.active[*h].push(v);
                        self.expand(v);
                        self.elements(body)?;
                    }
                    self.dag.active[*h].clear();
                }
            }
        }
        Ok(())
    }

    /// Visits `v`: its label for this round (see the module documentation).
    fn label(&mut self, v: usize) -> Result<(), Walked> {
        let round = self.dag.round;
        let node = &mut self.dag.nodes[v];
        node.visited = round;
        node.covered = false;
        node.took_label = false;
        node.stronger = true;
        let fresh_in = std::mem::take(&mut node.fresh_in);
        self.dag.order.push(v);
        let dag = &*self.dag;
        let label = dag.labels.get(&v).copied().filter(|_| {
            (dag.edges_in(v))
                .all(|(u, e)| dag.nodes[u].took_label && dag.labelled_edges.contains(&(u, e, v)))
        });
        let mut psi = match label {
            Some(label) => {
                self.dag.nodes[v].took_label = true;
                label
            }
            None if self.dag.nodes[v].marked => self.join(v)?,
            None => return Ok(()),
        };
        // The old label is kept (conjoined) where it still follows from the edges in: two
        // refinements of two DAGs could otherwise relabel each other's nodes back and forth,
        // each undoing what the other learnt (with the post *true*, forgetting all of it).
        // It follows without a query when every edge in is one of the last round's from a
        // parent whose label only grew stronger (the last round left that edge well
        // labelled); the root's holds initially, as every label of the root does.
        let old = self.dag.nodes[v].psi;
        if old != psi {
            let dag = &*self.dag;
            let inherited =
                v == 0 || (!fresh_in && dag.edges_in(v).all(|(u, _)| dag.nodes[u].stronger));
            let follows = match (old, inherited) {
                (aig::Lit::TRUE, _) => Some(false),
                (_, true) => Some(true),
                (_, false) => {
                    let label_of = |u: usize| dag.nodes[u].psi;
                    let start = std::time::Instant::now();
                    let follows = refine::follows(self.prog, dag, &label_of, v, old, self.budget);
                    self.counters.checks += 1;
                    self.counters.check_ms += start.elapsed().as_millis() as u64;
                    follows
                }
            };
            match follows {
                Some(true) => psi = self.prog.circuits.aig.and(psi, old),
                Some(false) => self.dag.nodes[v].stronger = false,
                None => return Err(Walked::Stopped("interrupted".into())),
            }
        }
        let node = &mut self.dag.nodes[v];
        node.marked = false;
        node.psi = psi;
        Ok(())
    }

    /// The join of the posts of `v`'s parents in this round (the root's: the initial
    /// values, abstracted).
    fn join(&mut self, v: usize) -> Result<aig::Lit, Walked> {
        let dag = &*self.dag;
        let loc = dag.nodes[v].loc.index();
        if v == 0 {
            let init = match dag.mode {
                Some(_) => abstraction::initial(self.prog, &self.prec[loc]),
                None => Vec::new(),
            };
            return Ok(self.prog.circuits.aig.and_all(init));
        }
        let parents: Vec<(usize, usize)> = dag.edges_in(v).collect();
        let mut disj = Vec::new();
        for (u, e) in parents {
            let psi = self.dag.nodes[u].psi;
            if psi == aig::Lit::FALSE {
                continue;
            }
            let Some(mode) = self.dag.mode else {
                return Ok(aig::Lit::TRUE);
            };
            self.counters.posts += 1;
            let images = &self.dag.images[e];
            let start = std::time::Instant::now();
            let post = abstraction::post(self.prog, images, mode, &[psi], e, self.budget);
            self.counters.post_ms += start.elapsed().as_millis() as u64;
            match post {
                abstraction::Post::Stopped => return Err(Walked::Stopped("interrupted".into())),
                abstraction::Post::States(cubes) => {
                    let aig = &mut self.prog.circuits.aig;
                    disj.extend(cubes.into_iter().map(|c| aig.and_all(c)));
                }
            }
        }
        Ok(self.prog.circuits.aig.or_all(disj))
    }

    /// Whether the label of the loop head `v` entails the join of the labels of the heads
    /// of its loop's current unrolling.
    fn covered(&mut self, v: usize) -> Result<bool, Walked> {
        let dag = &*self.dag;
        let psi = dag.nodes[v].psi;
        let heads = &dag.active[dag.nodes[v].loc.index()];
        let others: Vec<aig::Lit> = heads.iter().map(|&u| dag.nodes[u].psi).collect();
        if psi == aig::Lit::FALSE || others.contains(&aig::Lit::TRUE) || others.contains(&psi) {
            return Ok(true);
        }
        if others.is_empty() || psi == aig::Lit::TRUE {
            return Ok(false);
        }
        let start = std::time::Instant::now();
        let mut s = Cadical::for_one_shot(self.budget);
        let state = self.prog.fresh_state(&mut s);
        let mut view = self.prog.view(&state);
        let x = view.lit(&mut s, psi, 0);
        s.add_clause(&[x]);
        for o in others {
            let y = view.lit(&mut s, o, 0);
            s.add_clause(&[!y]);
        }
        let result = s.solve(&[]);
        self.counters.checks += 1;
        self.counters.check_ms += start.elapsed().as_millis() as u64;
        match result {
            SatResult::Unsat => Ok(true),
            SatResult::Sat => Ok(false),
            SatResult::Interrupted => Err(Walked::Stopped("interrupted".into())),
        }
    }

    /// Expands `v`: its children along the CFA's edges, the existing ones reused unless
    /// another node of their location is already waiting, the others the waiting node or a
    /// new one; children are marked as the module documentation says (a new edge, or a
    /// label changed since the last round).
    fn expand(&mut self, v: usize) {
        let dag = &mut *self.dag;
        let round = dag.round;
        let node = &mut dag.nodes[v];
        let continuing = node.expanded + 1 == round;
        node.expanded = round;
        let changed = !continuing || node.expanded_psi != Some(node.psi);
        node.expanded_psi = Some(node.psi);
        for &e in &dag.outgoing[dag.nodes[v].loc.index()] {
            let to = dag.cfa.edges[e].to;
            if dag.dist[to.index()].is_none() {
                continue;
            }
            let slot = dag.nodes[v].children.iter().position(|&(ce, _)| ce == e);
            let old = slot.map(|i| dag.nodes[v].children[i].1);
            let waiting = dag.future[to.index()];
            let child = match (old, waiting) {
                (Some(w), None) if dag.nodes[w].visited != round => w,
                (_, Some(w)) => w,
                (_, None) => {
                    self.counters.nodes += 1;
                    dag.add(to)
                }
            };
            dag.future[to.index()] = Some(child);
            let new_edge = old != Some(child);
            if new_edge {
                if let Some(w) = old {
                    dag.nodes[w].parents.retain(|&p| p != (v, e));
                }
                match slot {
                    Some(i) => dag.nodes[v].children[i].1 = child,
                    None => dag.nodes[v].children.push((e, child)),
                }
                dag.nodes[child].parents.push((v, e));
            }
            if new_edge || !continuing {
                dag.nodes[child].fresh_in = true;
            }
            if new_edge || changed {
                dag.nodes[child].marked = true;
            }
        }
    }
}
