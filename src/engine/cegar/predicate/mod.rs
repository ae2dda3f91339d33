//! Abstract reachability with coverage over predicates on the latches: the predicate
//! domains, the explicit domain's graph (`--abstract-engine arg`) and their product.
//!
//! A predicate is an AIG function of the latches (built in a copy of the system's AIG, which
//! grows with the interpolants). The explicit domain is the special case whose predicates
//! are latches, each *tracked*: its successor values are enumerated (up to `--max-enum`
//! valuations per step, each its own node; beyond that, Cartesian: a latch keeps a value only
//! if every successor agrees on it, seed 000's "unknown"), and refinement adds the latches of
//! an interpolant's support. The product domain tracks the predicates that are single latches
//! that way and abstracts the others Cartesian. An abstract state is a disjunction of cubes
//! over the predicates; the graph starts from the abstraction of the initial states and
//! expands waiting nodes in BFS or DFS order. A node is *unsafe* when its state meets a bad state
//! (under the constraints), *covered* when its state implies the disjunction of the other
//! uncovered nodes (coverage by the union: a one-location system reaches its fixpoint that
//! way, seed 000 section 1.7), else it is expanded: its successor is the abstraction of the
//! image of its state (constraints hold in both frames, as in a trace). Cartesian and Boolean
//! abstraction give one child; split Boolean abstraction one child per cube.
//!
//! When no node is waiting, the disjunction of the uncovered nodes is an inductive invariant:
//! it contains the initial states, every uncovered node's image lies in its children, each
//! either uncovered or covered by nodes that are (coverage happens before expansion, so a
//! covered node has no children), and no node meets a bad state. An unsafe node's path is
//! checked on the concrete system ([`super::path`]); spurious, its interpolants (of the
//! `--refinement` strategy), split into predicates, join the (global) precision and the graph
//! is pruned below the first node they refine (or restarted). With `multi-seq` the graph is
//! explored to the end first and every unsafe node's path is refined (seed 000, Algorithm 5).

mod abstractor;
mod precision;
mod refine;

use std::collections::HashSet;

use super::{property_latches, CegarOptions, CegarStats, InitPrec, Prune, Refinement, Search};
use crate::engine::arg::{self, Order};
use crate::engine::Verdict;
use crate::sat::SatResult;
use crate::ts::TransitionSystem;
use crate::Budget;
use abstractor::Abstractor;
pub(super) use precision::WordAtoms;
use precision::{enumeration_limit, Precision, Shape};
#[cfg(test)]
pub(super) use refine::split_formula;
use refine::{invariant, refine, Refined};

/// Predicate values: `(index, value)`.
pub(super) type Cube = Vec<(usize, bool)>;
/// A disjunction of cubes (empty: no state).
pub(super) type State = Vec<Cube>;
/// The graph over the system's one location.
pub(super) type Arg = arg::Arg<(), State>;

/// An empty graph, expanded in `search` order.
fn new_graph(search: Search) -> Arg {
    Arg::new(1, Order::new(search, None))
}

/// Removes the subtrees of `n` and its siblings and puts its parent back to waiting, to be
/// expanded again (a root's refinement restarts the graph instead).
fn prune(arg: &mut Arg, n: usize) {
    if let Some((p, _)) = arg.nodes[n].parent {
        arg.reopen(p);
    }
}

pub(super) fn run(
    ts: &TransitionSystem,
    opts: &CegarOptions,
    budget: &Budget,
    stats: &mut CegarStats,
) -> Verdict {
    let mut prec = Precision {
        sys: ts.clone(),
        atoms: WordAtoms::new(ts),
        preds: Vec::new(),
        tracked: Vec::new(),
        known: HashSet::new(),
    };
    if opts.init_prec == InitPrec::Prop {
        for i in property_latches(ts) {
            prec.add(ts.latches[i].var.lit(), true);
        }
    }
    let mut arg = new_graph(opts.search);
    let mut max_enum = opts.max_enum;
    loop {
        if budget.expired() {
            return Verdict::Unknown { depth: None };
        }
        stats.precision = prec.preds.len() as u64;
        let explored = explore(&prec, &mut arg, opts, max_enum, budget, stats);
        stats.arg_nodes = arg.live() as u64;
        let unsafe_nodes = match explored {
            Explore::Safe => return Verdict::Safe(invariant(&prec, &arg)),
            Explore::Stopped => return Verdict::Unknown { depth: None },
            Explore::Unsafe(nodes) => nodes,
        };
        let mut refinements = Vec::new();
        for n in unsafe_nodes {
            let path = arg.ancestry(n);
            stats.spurious_depth_max = stats.spurious_depth_max.max(path.len() as u64 - 1);
            match refine(&mut prec, &arg, &path, opts, budget) {
                Refined::Feasible(t) => return Verdict::Unsafe(t),
                Refined::Stopped => return Verdict::Unknown { depth: None },
                Refined::Spurious { pivot, preds } => refinements.push((path, pivot, preds)),
            }
        }
        // Shallow pivots first: a path whose pivot lies below one pruned already is skipped
        // (seed 000: the earlier prune will likely remove it).
        refinements.sort_by_key(|(_, pivot, _)| *pivot);
        let restart = opts.prune == Prune::Full || refinements.iter().any(|r| r.1 == 0);
        // The first stale node of each path: abstracted again onto the predicates known now,
        // it may exclude the path even when refinement finds no new predicate.
        let current = prec.preds.len();
        let stale: Vec<usize> = (refinements.iter())
            .filter_map(|(path, _, _)| {
                let mut nodes = path.iter().copied();
                nodes.find(|&m| arg.nodes[m].precision < current)
            })
            .collect();
        let mut pruned = HashSet::new();
        let mut added = false;
        for (path, pivot, preds) in refinements {
            let at = path[pivot];
            if !restart && !arg.nodes[at].alive && !pruned.contains(&at) {
                continue;
            }
            for (p, tracked) in preds {
                added |= prec.add(p, tracked);
            }
            if !restart && pruned.insert(at) {
                prune(&mut arg, at);
            }
        }
        if !added && !stale.is_empty() {
            // Each round removes stale nodes and adds none, so this ends.
            crate::log::info(2, format_args!("cegar: stale nodes abstracted again"));
            if restart || stale.iter().any(|&m| arg.nodes[m].parent.is_none()) {
                arg = new_graph(opts.search);
            } else {
                for m in stale {
                    if arg.nodes[m].alive {
                        prune(&mut arg, m);
                    }
                }
            }
            continue;
        }
        if !added {
            // A tracked latch whose value went unknown (past the enumeration limit) cannot
            // be refined by tracking it: the spurious path comes back unless more successor
            // valuations are enumerated. Seed 000 leaves choosing the limit automatically as
            // future work; doubling it here keeps refinement going.
            if enumeration_limit(opts.domain, max_enum).is_some() {
                max_enum *= 2;
                crate::log::info(2, format_args!("cegar: enumeration limit now {max_enum}"));
                arg = new_graph(opts.search);
                continue;
            }
            crate::log::info(1, format_args!("cegar: refinement added no predicate"));
            return Verdict::Unknown { depth: None };
        }
        stats.refinements += 1;
        crate::log::info(
            2,
            format_args!(
                "cegar: spurious paths refined, {} predicates",
                prec.preds.len()
            ),
        );
        if restart {
            arg = new_graph(opts.search);
        }
    }
}

enum Explore {
    Safe,
    /// The unsafe nodes found (one, unless `multi-seq` explores to the end).
    Unsafe(Vec<usize>),
    Stopped,
}

/// Expands waiting nodes until none waits or one is unsafe (with `multi-seq`, until none
/// waits).
fn explore(
    prec: &Precision,
    arg: &mut Arg,
    opts: &CegarOptions,
    max_enum: usize,
    budget: &Budget,
    stats: &mut CegarStats,
) -> Explore {
    let shape = Shape::new(prec, opts, max_enum);
    let all_paths = opts.refinement == Refinement::MultiSeq;
    let mut ab = Abstractor::new(prec, &shape, budget);
    if arg.nodes.is_empty() {
        let Some(init) = ab.initial() else {
            return Explore::Stopped;
        };
        add_children(arg, init, None, &shape);
    }
    let mut unsafe_nodes: Vec<usize> = Vec::new();
    loop {
        let Some(n) = arg.pop() else {
            return if unsafe_nodes.is_empty() {
                Explore::Safe
            } else {
                Explore::Unsafe(unsafe_nodes)
            };
        };
        if budget.expired() {
            return Explore::Stopped;
        }
        match ab.meets_bad(arg, n) {
            SatResult::Sat if all_paths => {
                // Not expanded, it waits no more.
                unsafe_nodes.push(n);
                continue;
            }
            SatResult::Sat => return Explore::Unsafe(vec![n]),
            SatResult::Interrupted => return Explore::Stopped,
            SatResult::Unsat => {}
        }
        match ab.covered(arg, n) {
            SatResult::Unsat => {
                arg.cover_by_union(n);
                stats.covered += 1;
                continue;
            }
            SatResult::Interrupted => return Explore::Stopped,
            SatResult::Sat => {}
        }
        let Some(succ) = ab.post(arg, n) else {
            return Explore::Stopped;
        };
        add_children(arg, succ, Some(n), &shape);
        arg.nodes[n].expanded = true;
    }
}

/// Adds the nodes of an abstract successor (none when it is empty).
fn add_children(arg: &mut Arg, succ: State, parent: Option<usize>, shape: &Shape) {
    if succ.is_empty() {
        return;
    }
    let parent = parent.map(|p| (p, 0));
    if shape.merge {
        arg.add((), succ, shape.predicates, parent, None);
    } else {
        for cube in succ {
            arg.add((), vec![cube], shape.predicates, parent, None);
        }
    }
}
