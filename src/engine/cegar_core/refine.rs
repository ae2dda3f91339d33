//! One refinement round of the shared CEGAR loop: the error paths of an explored graph are
//! checked concretely by the domain, which adds what their interpolants (or unsat cores)
//! give to its precision; the graph is then pruned lazily below the first node of each path
//! that the precision now changes, or rebuilt (`--prune full`, or a root to change).

use super::arg::{Arg, Location};
use super::MAX_PATHS;
use crate::engine::cegar::Prune;
use crate::engine::Stats;

/// What the concrete check of one abstract error path gives.
pub(crate) enum PathCheck<E> {
    /// How the run ends: the path is feasible (a counterexample), or the check stopped.
    End(E),
    /// The path is spurious: `added` predicates joined the precision, and `pivot` is the
    /// first position on the path whose node the precision now changes (none: the path
    /// would come back as it is).
    Spurious { added: usize, pivot: Option<usize> },
}

/// The refining half of an abstract domain.
pub(crate) trait Refiner<L, S> {
    /// How a run ends on a path ([`PathCheck::End`]).
    type End;
    /// Checks the abstract error path `path` (its nodes, root first) on the concrete system.
    fn check(&mut self, arg: &Arg<L, S>, path: &[usize]) -> PathCheck<Self::End>;
    /// Enumerates more successor valuations from now on (explicit values past `--max-enum`
    /// become unknown, so a path can come back that no predicate refines); false if the
    /// domain has no such limit left to raise.
    fn enumerate_more(&mut self) -> bool;
}

/// What the CEGAR loop does after a round.
pub(crate) enum Next<E> {
    /// Explore the pruned graph on.
    Explore,
    /// Build a new graph from the initial states.
    Rebuild,
    /// The run ends.
    End(E),
    /// Nothing refines the paths: the run ends `unknown`.
    NoProgress,
}

/// The counters of the rounds of a run.
#[derive(Default)]
pub(crate) struct Counts {
    pub refinements: u64,
    pub spurious_depth_max: u64,
    /// Predicates (or tracked variables) added.
    pub predicates: u64,
    /// Nodes in the last graph explored, and nodes ever covered in it.
    pub arg_nodes: u64,
    pub covered: u64,
}

impl Counts {
    /// The counters every CEGAR engine reports (`cegar_*`).
    pub fn stats(&self) -> Stats {
        vec![
            ("cegar_refinements", self.refinements),
            ("cegar_spurious_depth_max", self.spurious_depth_max),
            ("cegar_arg_nodes", self.arg_nodes),
            ("cegar_covered", self.covered),
        ]
    }
}

/// Refines the error nodes `errors` of `arg` (at most [`MAX_PATHS`] of them), shallow pivots
/// first: a path whose pivot lies below one pruned already needs no pruning of its own
/// (seed 000: the earlier prune removes it).
pub(crate) fn refine<L: Location, S, R: Refiner<L, S>>(
    refiner: &mut R,
    arg: &mut Arg<L, S>,
    errors: &[usize],
    prune: Prune,
    counts: &mut Counts,
) -> Next<R::End> {
    let mut pivots = Vec::new();
    let mut added = 0;
    for &n in errors.iter().take(MAX_PATHS) {
        let path = arg.ancestry(n);
        counts.spurious_depth_max = counts.spurious_depth_max.max(path.len() as u64 - 1);
        match refiner.check(arg, &path) {
            PathCheck::End(end) => return Next::End(end),
            PathCheck::Spurious { added: a, pivot } => {
                added += a;
                pivots.extend(pivot.map(|p| (p, path)));
            }
        }
    }
    counts.refinements += 1;
    counts.predicates += added as u64;
    crate::log::info(
        2,
        format_args!(
            "cegar: refinement {}: {} spurious path(s), {added} new predicates, {} nodes",
            counts.refinements,
            errors.len().min(MAX_PATHS),
            arg.live()
        ),
    );
    pivots.sort_by_key(|(p, _)| *p);
    match pivots.first() {
        None if added > 0 => Next::Rebuild,
        None if refiner.enumerate_more() => {
            crate::log::info(2, format_args!("cegar: more successors enumerated"));
            Next::Rebuild
        }
        None => Next::NoProgress,
        Some((0, _)) => Next::Rebuild,
        Some(_) if prune == Prune::Full => Next::Rebuild,
        Some(_) => {
            for (p, path) in pivots {
                if arg.nodes[path[p]].alive {
                    arg.reopen(path[p - 1]);
                }
            }
            Next::Explore
        }
    }
}
