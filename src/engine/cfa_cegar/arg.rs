//! The CFA engine's abstract reachability graph: the shared graph ([`crate::engine::cegar_core::arg`])
//! over (location, abstract state) pairs, where a new node is covered by an uncovered node
//! at the same location with a weaker state (and a condition that restricts it no more).

use super::condition::{self, Assume};
use crate::aig;
use crate::cfa::Loc;
use crate::engine::cegar::Search;
use crate::engine::cegar_core::arg::{self, Order};

/// A node's abstract state.
pub(super) struct State {
    /// The conjunction of these predicate literals, sorted.
    pub lits: Vec<aig::Lit>,
    /// What the condition a run was given says of the paths through this node
    /// ([`super::condition`]): `None` when it restricts nothing here.
    pub assume: Option<Assume>,
}

pub(super) type Arg = arg::Arg<Loc, State>;

/// A graph with only the root (at `entry`, state `lits`, under the condition's `assume`)
/// waiting, expanded in the order `search` gives over the locations' distances to the error
/// `dist` (`None`: the error is unreachable from there).
pub(super) fn new(
    locations: usize,
    entry: Loc,
    lits: Vec<aig::Lit>,
    assume: Option<Assume>,
    search: Search,
    dist: &[Option<usize>],
) -> Arg {
    let dist = dist.iter().map(|d| d.unwrap_or(0)).collect();
    let mut arg = Arg::new(locations, Order::new(search, dist));
    let precision = lits.len();
    arg.add(entry, State { lits, assume }, precision, None, None);
    arg
}

/// Adds a node, covered if an uncovered node at its location has a weaker state and a
/// condition that restricts it no more ([`condition::covers`]); returns it if it is
/// uncovered (and waiting). A node at the `error` location is never covered: each is an
/// abstract error path of its own (`--refinement multi-seq` refines them all; otherwise the
/// first ends the exploration).
pub(super) fn add(
    arg: &mut Arg,
    error: Loc,
    loc: Loc,
    state: State,
    precision: usize,
    parent: (usize, usize),
) -> Option<usize> {
    let cover = match loc == error {
        true => None,
        false => (arg.at[loc.index()].iter()).copied().find(|&m| {
            let m = &arg.nodes[m].state;
            is_subset(&m.lits, &state.lits) && condition::covers(&m.assume, &state.assume)
        }),
    };
    let id = arg.add(loc, state, precision, Some(parent), cover);
    cover.is_none().then_some(id)
}

/// Whether sorted `a` is a subset of sorted `b` (then the conjunction `b` implies `a`).
fn is_subset(a: &[aig::Lit], b: &[aig::Lit]) -> bool {
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}
