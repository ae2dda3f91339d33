//! Symbolic execution with CEGAR (seed 002: CPAchecker's symbolic value analysis and
//! constraints CPA under a precision refined by interpolation), `--engine symex` on a C
//! program's CFA.
//!
//! The search executes the large-block CFA symbolically, breadth first: a node is a
//! location and a symbolic state ([`state`]: tracked variables hold concrete values or
//! expressions over symbolic identifiers, with the path constraints over them), and an
//! edge whose path condition is unsatisfiable is not taken (the SAT check at every assume,
//! seed 002's strengthening). The precision says per location which variables are tracked;
//! the others are forgotten (free) there. It starts empty, as CEGAR does: the first search
//! only follows the control flow.
//!
//! A node is covered when its state entails the union of the states already expanded at
//! its location (`stop-join`; the states are formulas over the program variables, so this
//! is one SAT query). A node at the error location makes its path a query
//! ([`super::path::check`]): feasible, it is a counterexample, replayed as the CEGAR's are;
//! spurious, the variables of each sequence interpolant become tracked at that node's
//! location (seed 002's refinement with the precision type "tracked variables", the
//! interpolants computed on the bit-level path rather than by value-domain interpolation;
//! when they name no new variable, every variable is tracked along the path, as seed 002's
//! feasibility check does), and the search starts again. When no node is left, the states of the expanded nodes are
//! an invariant per location ([`super::invariant`]), which the caller checks: each expanded
//! node's successors were expanded or covered, and each state contains its parent's post.

mod quantify;
mod solver;
mod state;

use std::collections::{HashMap, VecDeque};

use super::program::Program;
use super::{invariant, refute_or_end, setup, Outcome};
use crate::aig;
use crate::cfa::{Cfa, Loc};
use crate::engine::{Stats, Verdict};
use crate::error::InternalError;
use crate::ts::TransitionSystem;
use crate::wl::BitMap;
use crate::Budget;
use quantify::Losses;
use solver::Solver;
use state::{State, Step};

/// A node of the execution tree.
struct Node {
    loc: Loc,
    state: State,
    /// The node and edge it was reached by (none for the root).
    parent: Option<(usize, usize)>,
}

/// Counters of one run.
#[derive(Default)]
struct Counters {
    refinements: u64,
    nodes: u64,
    covered: u64,
    tracked: u64,
    sat_queries: u64,
    losses: Losses,
}

impl Counters {
    fn stats(&self) -> Stats {
        vec![
            ("symex_refinements", self.refinements),
            ("symex_nodes", self.nodes),
            ("symex_covered", self.covered),
            ("symex_tracked", self.tracked),
            ("symex_sat_queries", self.sat_queries),
            ("symex_given_up", self.losses.given_up),
            ("symex_cofactored", self.losses.cofactored),
        ]
    }
}

/// How one search ended.
enum Searched {
    /// Every node is expanded or covered; the labels of the expanded nodes per location.
    Complete(Vec<Vec<Vec<aig::Lit>>>),
    /// The root-to-error path: its nodes' locations and its edges.
    Error(Vec<Loc>, Vec<usize>),
    Stopped,
}

/// Checks `cfa` by symbolic execution with CEGAR; `ts` is its encoding blasted with its
/// words at `bits`, over which the verdict speaks (as [`super::check`]'s).
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
    let var_of: HashMap<aig::Var, usize> = (prog.vars.iter().enumerate())
        .flat_map(|(x, bits)| bits.iter().map(move |l| (l.var(), x)))
        .collect();
    let outgoing = cfa.outgoing();
    let mut tracked = vec![vec![false; cfa.vars.len()]; cfa.locations.len()];
    loop {
        let search = Search {
            cfa,
            dist: &dist,
            outgoing: &outgoing,
            tracked: &tracked,
            budget,
        };
        let (locs, edges) = match search.run(&mut prog, &mut counters) {
            Searched::Stopped => return Ok(unknown("interrupted".into(), &counters)),
            Searched::Complete(labels) => {
                let inv = invariant::invariant(&prog, &labels, &dist, ts, bits);
                return Ok(Outcome::decided(Verdict::Safe(inv), counters.stats()));
            }
            Searched::Error(locs, edges) => (locs, edges),
        };
        let cuts = match refute_or_end(&mut prog, ts, bits, &edges, budget, || counters.stats())? {
            Ok(cuts) => cuts,
            Err(end) => return Ok(end),
        };
        counters.refinements += 1;
        let mut wanted: Vec<(Loc, usize)> = Vec::new();
        for cut in cuts {
            let vars = prog.aig().leaves_of([cut.pred]);
            wanted.extend(
                vars.iter()
                    .filter_map(|v| var_of.get(v))
                    .map(|&x| (locs[cut.node], x)),
            );
        }
        let mut new = track(&mut tracked, cfa, &wanted);
        if new.is_empty() {
            // The interpolants read only tracked variables: what the states lost to
            // quantification let the path through. Seed 002's feasibility check runs with
            // every variable tracked: so does the path's next search.
            let all: Vec<(Loc, usize)> = (locs.iter())
                .flat_map(|&l| (0..cfa.vars.len()).map(move |x| (l, x)))
                .collect();
            new = track(&mut tracked, cfa, &all);
        }
        counters.tracked += new.len() as u64;
        crate::log::info(
            2,
            format_args!(
                "symex: refinement {}: spurious path of {} edges, {} nodes; tracked anew: {}",
                counters.refinements,
                edges.len(),
                counters.nodes,
                new.join(" ")
            ),
        );
        if new.is_empty() {
            // Every variable is tracked along the path, and quantification still lets it
            // through: tracking more cannot help.
            return Ok(unknown(
                "symbolic execution: the refinement tracks no new variable".into(),
                &counters,
            ));
        }
    }
}

/// Tracks each variable `x` at location `l` of `wanted`; the ones not tracked before, named
/// `x@l` for the log.
fn track(tracked: &mut [Vec<bool>], cfa: &Cfa, wanted: &[(Loc, usize)]) -> Vec<String> {
    let mut new = Vec::new();
    for &(l, x) in wanted {
        if !std::mem::replace(&mut tracked[l.index()][x], true) {
            new.push(format!("{}@{}", cfa.vars[x].name, l.index()));
        }
    }
    new
}

/// One search under a fixed precision.
struct Search<'s> {
    cfa: &'s Cfa,
    dist: &'s [Option<usize>],
    outgoing: &'s [Vec<usize>],
    /// Per location, whether each variable is tracked there.
    tracked: &'s [Vec<bool>],
    budget: &'s Budget,
}

impl Search<'_> {
    fn run(&self, prog: &mut Program, counters: &mut Counters) -> Searched {
        let mut sat = Solver::new(self.budget);
        let result = self.explore(prog, &mut sat, counters);
        counters.sat_queries += sat.queries;
        result
    }

    fn explore(&self, prog: &mut Program, sat: &mut Solver, counters: &mut Counters) -> Searched {
        let cfa = self.cfa;
        let root = State::initial(prog, &self.tracked[cfa.entry.index()]);
        let mut nodes = vec![Node {
            loc: cfa.entry,
            state: root,
            parent: None,
        }];
        // Per location, the labels of the expanded nodes and their conjunctions.
        let mut labels: Vec<Vec<Vec<aig::Lit>>> = vec![Vec::new(); cfa.locations.len()];
        let mut phis: Vec<Vec<aig::Lit>> = vec![Vec::new(); cfa.locations.len()];
        let mut queue = VecDeque::from([0]);
        if cfa.entry == cfa.error {
            return Searched::Error(vec![cfa.entry], Vec::new());
        }
        while let Some(n) = queue.pop_front() {
            if self.budget.expired() {
                return Searched::Stopped;
            }
            let loc = nodes[n].loc;
            let label = nodes[n].state.label(&prog.vars, &mut prog.circuits.aig);
            let l = loc.index();
            match covered(&prog.circuits.aig, sat, &label, &labels[l], &phis[l]) {
                None => return Searched::Stopped,
                Some(true) => {
                    counters.covered += 1;
                    continue;
                }
                Some(false) => {}
            }
            let phi = prog.circuits.aig.and_all(label.iter().copied());
            labels[l].push(label);
            phis[l].push(phi);
            for &e in &self.outgoing[l] {
                let to = cfa.edges[e].to;
                if self.dist[to.index()].is_none() {
                    continue;
                }
                let tracked = &self.tracked[to.index()];
                let state = match nodes[n]
                    .state
                    .post(prog, sat, e, tracked, &mut counters.losses)
                {
                    Step::Next(s) => s,
                    Step::Infeasible => continue,
                    Step::Stopped => return Searched::Stopped,
                };
                nodes.push(Node {
                    loc: to,
                    state,
                    parent: Some((n, e)),
                });
                counters.nodes += 1;
                let child = nodes.len() - 1;
                if to == cfa.error {
                    return path_to(&nodes, child);
                }
                queue.push_back(child);
            }
        }
        Searched::Complete(labels)
    }
}

/// Whether `label` entails the union of the states `labels` (their conjunctions `phis`):
/// at once when it contains one of them, else by one query (`None`: interrupted).
fn covered(
    aig: &aig::Aig,
    sat: &mut Solver,
    label: &[aig::Lit],
    labels: &[Vec<aig::Lit>],
    phis: &[aig::Lit],
) -> Option<bool> {
    if labels.is_empty() {
        return Some(false);
    }
    if (labels.iter()).any(|m| m.iter().all(|l| label.binary_search(l).is_ok())) {
        return Some(true);
    }
    sat.satisfiable_with(aig, label, phis).map(|sat| !sat)
}

/// The locations and edges of the path from the root to node `n`.
fn path_to(nodes: &[Node], n: usize) -> Searched {
    let (mut locs, mut edges) = (vec![nodes[n].loc], Vec::new());
    let mut at = n;
    while let Some((p, e)) = nodes[at].parent {
        locs.push(nodes[p].loc);
        edges.push(e);
        at = p;
    }
    locs.reverse();
    edges.reverse();
    Searched::Error(locs, edges)
}
