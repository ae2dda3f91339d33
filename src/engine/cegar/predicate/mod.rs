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

use super::{property_latches, CegarOptions, CegarStats, InitPrec, Refinement, Search};
use crate::engine::cegar_core::arg::{self, Order};
use crate::engine::cegar_core::{self, Explored, Look, Next, PathCheck, Stopped};
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
    Arg::new(1, Order::new(search, vec![0]))
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
    let all = opts.refinement == Refinement::MultiSeq;
    let unknown = Verdict::Unknown { depth: None };
    loop {
        if budget.expired() {
            return unknown;
        }
        stats.precision = prec.preds.len() as u64;
        let shape = Shape::new(&prec, opts, max_enum);
        let mut ab = Abstractor::new(&prec, &shape, budget);
        if arg.nodes.is_empty() {
            let Some(init) = ab.initial() else {
                return unknown;
            };
            add_children(&mut arg, init, None, &shape);
        }
        let mut explorer = Explorer { ab, shape: &shape };
        let explored = cegar_core::explore(&mut explorer, &mut arg, all, &mut stats.rounds, budget);
        let errors = match explored {
            Explored::Complete => return Verdict::Safe(invariant(&prec, &arg)),
            Explored::Stopped => return unknown,
            Explored::Errors(nodes) => nodes,
        };
        let mut refiner = Refiner {
            prec: &mut prec,
            opts,
            max_enum: &mut max_enum,
            budget,
        };
        let next = cegar_core::refine(
            &mut refiner,
            &mut arg,
            &errors,
            opts.prune,
            &mut stats.rounds,
        );
        match next {
            Next::Explore => {}
            Next::Rebuild => arg = new_graph(opts.search),
            Next::End(verdict) => return verdict,
            Next::NoProgress => {
                crate::log::info(1, format_args!("cegar: refinement added no predicate"));
                return unknown;
            }
        }
    }
}

/// The abstracting half of the predicate domains, for one exploration.
struct Explorer<'a> {
    ab: Abstractor<'a>,
    shape: &'a Shape,
}

impl cegar_core::Abstractor<(), State> for Explorer<'_> {
    /// An error meets a bad state; an other node is covered when it implies the union of
    /// the other uncovered nodes.
    fn look(&mut self, arg: &mut Arg, n: usize) -> Result<Look, Stopped> {
        match self.ab.meets_bad(arg, n) {
            SatResult::Sat => return Ok(Look::Error),
            SatResult::Interrupted => return Err(Stopped),
            SatResult::Unsat => {}
        }
        match self.ab.covered(arg, n) {
            SatResult::Unsat => {
                arg.cover_by_union(n);
                Ok(Look::Skip)
            }
            SatResult::Interrupted => Err(Stopped),
            SatResult::Sat => Ok(Look::Expand),
        }
    }

    fn expand(&mut self, arg: &mut Arg, n: usize) -> Result<Option<usize>, Stopped> {
        let succ = self.ab.post(arg, n).ok_or(Stopped)?;
        add_children(arg, succ, Some(n), self.shape);
        Ok(None)
    }
}

/// The refining half of the predicate domains: the one precision of the system.
struct Refiner<'a> {
    prec: &'a mut Precision,
    opts: &'a CegarOptions,
    max_enum: &'a mut usize,
    budget: &'a Budget,
}

impl cegar_core::Refiner<(), State> for Refiner<'_> {
    type End = Verdict;

    /// The pivot is the first node the new predicates refine; if the path adds none, the
    /// first node abstracted onto fewer predicates than there are now (abstracted again, it
    /// may exclude the path).
    fn check(&mut self, arg: &Arg, path: &[usize]) -> PathCheck<Verdict> {
        match refine(self.prec, arg, path, self.opts, self.budget) {
            Refined::Feasible(t) => PathCheck::End(Verdict::Unsafe(t)),
            Refined::Stopped => PathCheck::End(Verdict::Unknown { depth: None }),
            Refined::Spurious { pivot, preds } => {
                let added = (preds.into_iter())
                    .filter(|&(p, tracked)| self.prec.add(p, tracked))
                    .count();
                let current = self.prec.preds.len();
                let pivot = match added {
                    0 => path.iter().position(|&m| arg.nodes[m].precision < current),
                    _ => Some(pivot),
                };
                PathCheck::Spurious { added, pivot }
            }
        }
    }

    /// A tracked latch whose value went unknown (past the enumeration limit) cannot be
    /// refined by tracking it: the spurious path comes back unless more successor valuations
    /// are enumerated. Seed 000 leaves choosing the limit automatically as future work;
    /// doubling it keeps refinement going.
    fn enumerate_more(&mut self) -> bool {
        let more = enumeration_limit(self.opts.domain, *self.max_enum).is_some();
        if more {
            *self.max_enum *= 2;
        }
        more
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
