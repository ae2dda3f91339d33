//! The CEGAR core that the circuit engine ([`super::cegar`]) and the CFA engine
//! ([`super::cfa_cegar`]) share, in Theta's split of an `Abstractor` and a `Refiner`:
//!
//! - [`arg`]: the abstract reachability graph (coverage, waitlist in `--search` order,
//!   lazy pruning);
//! - [`explore`]: the abstraction loop, which expands waiting nodes until none waits or one
//!   is an error, asking the domain ([`Abstractor`]) about each node;
//! - [`refine`]: one refinement round over the error paths found, which asks the domain
//!   ([`Refiner`]) to check each path concretely and update its precision, then prunes the
//!   graph below the first node the new precision changes (or rebuilds it), and when no
//!   path yields a new predicate, lets the domain enumerate more successors (`--max-enum`
//!   doubling) before giving up.
//!
//! What differs between the two systems is what a domain answers: a transition system has one
//! location, so a node is an error when its state meets a bad state (a SAT query) and it is
//! covered by the union of the other nodes; a CFA node is an error at the error location
//! and is covered by a node of its location when it is added.

pub(crate) mod arg;
mod refine;

use crate::Budget;
use arg::{Arg, Location};
pub(crate) use refine::{refine, Counts, Next, PathCheck, Refiner};

/// At most this many abstract error paths are refined at once (`--refinement multi-seq`).
pub(crate) const MAX_PATHS: usize = 64;

/// The budget ran out.
pub(crate) struct Stopped;

/// What the domain says of a node taken from the waitlist.
pub(crate) enum Look {
    /// It is an abstract error.
    Error,
    /// It is covered (the domain covered it in the graph), or not to be expanded.
    Skip,
    /// It is to be expanded.
    Expand,
}

/// An abstract domain over a system: what is needed to build the graph.
pub(crate) trait Abstractor<L, S> {
    /// What node `n`, just taken from the waitlist, is.
    fn look(&mut self, arg: &mut Arg<L, S>, n: usize) -> Result<Look, Stopped>;
    /// Adds `n`'s successors to the graph; `Ok(Some(c))` when a child `c` is an abstract
    /// error the domain saw at once (the exploration ends there unless it collects every
    /// error).
    fn expand(&mut self, arg: &mut Arg<L, S>, n: usize) -> Result<Option<usize>, Stopped>;
}

/// How exploring the graph ended.
pub(crate) enum Explored {
    /// Every node is expanded, covered or skipped, and none is an error.
    Complete,
    /// These nodes are abstract errors: the first one found, or (`all`) every one of the
    /// explored graph.
    Errors(Vec<usize>),
    Stopped,
}

/// Expands waiting nodes until one is an error (with `all`, until none waits, collecting
/// the errors: an error node is not expanded); the graph's size goes to `counts`.
pub(crate) fn explore<L: Location, S>(
    ab: &mut impl Abstractor<L, S>,
    arg: &mut Arg<L, S>,
    all: bool,
    counts: &mut Counts,
    budget: &Budget,
) -> Explored {
    let explored = expand_until_error(ab, arg, all, budget);
    counts.arg_nodes = arg.live() as u64;
    counts.covered = arg.covered;
    explored
}

fn expand_until_error<L: Location, S>(
    ab: &mut impl Abstractor<L, S>,
    arg: &mut Arg<L, S>,
    all: bool,
    budget: &Budget,
) -> Explored {
    let mut errors = Vec::new();
    while let Some(n) = arg.pop() {
        if budget.expired() {
            return Explored::Stopped;
        }
        match ab.look(arg, n) {
            Err(Stopped) => return Explored::Stopped,
            Ok(Look::Error) if all => errors.push(n),
            Ok(Look::Error) => return Explored::Errors(vec![n]),
            Ok(Look::Skip) => {}
            Ok(Look::Expand) => match ab.expand(arg, n) {
                Err(Stopped) => return Explored::Stopped,
                Ok(found) => {
                    arg.nodes[n].expanded = true;
                    if let (Some(c), false) = (found, all) {
                        return Explored::Errors(vec![c]);
                    }
                }
            },
        }
    }
    match errors.is_empty() {
        true => Explored::Complete,
        false => Explored::Errors(errors),
    }
}
