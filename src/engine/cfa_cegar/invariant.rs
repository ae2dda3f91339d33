//! The proof of a complete abstract reachability graph (or Impact's tree) as an invariant of
//! the encoded model ([`crate::cfa::encode`], bit-blasted), so that `cert::check` verifies it
//! like any engine's.
//!
//! The invariant is the disjunction over locations `l` of `pc == l` and the states of `l`:
//! the disjunction of the uncovered nodes' states at a location the search explored, and
//! *true* at a location from which the CFA has no path to the error. The latter set is closed
//! under the CFA's edges and contains the exit location (where the encoded model goes when no
//! edge is enabled, and stays), so the invariant is inductive when every explored node's
//! successors are covered; the error location's part is empty.

use super::program::Program;
use crate::aig;
use crate::cert::Invariant;
use crate::ts::TransitionSystem;
use crate::wl::BitMap;

/// The invariant over `ts`, the blasted encoding of `prog`'s CFA whose words live where
/// `bits` says, of the uncovered nodes' states `at[l]` of each location `l` (each a
/// conjunction of predicates over the program's variable leaves); `dist[l]` is `None` for
/// locations that cannot reach the error.
pub(super) fn invariant<S: AsRef<[aig::Lit]>>(
    prog: &Program,
    at: &[Vec<S>],
    dist: &[Option<usize>],
    ts: &TransitionSystem,
    bits: &BitMap,
) -> Invariant {
    let mut system = ts.clone();
    let mut map: Vec<Option<aig::Lit>> = vec![None; prog.aig().num_vars()];
    for (leaves, word) in prog.vars.iter().zip(&bits.states) {
        for (leaf, latch) in leaves.iter().zip(word.flat()) {
            map[leaf.var().index()] = Some(latch);
        }
    }
    // The encoding's program counter is the state after the variables.
    let pc = bits.states[prog.vars.len()].flat();
    let mut parts = Vec::with_capacity(at.len());
    for (l, states) in at.iter().enumerate() {
        let states = match dist[l] {
            None => aig::Lit::TRUE,
            Some(_) => {
                let mut disj = Vec::with_capacity(states.len());
                for state in states {
                    let lits = prog
                        .aig()
                        .copy_cone(&mut system.aig, &mut map, state.as_ref());
                    disj.push(system.aig.and_all(lits));
                }
                system.aig.or_all(disj)
            }
        };
        let at = (pc.iter().enumerate())
            .map(|(i, &b)| b.xor_sign((l >> i) & 1 == 0))
            .collect::<Vec<_>>();
        let at = system.aig.and_all(at);
        parts.push(system.aig.and(at, states));
    }
    let predicate = system.aig.or_all(parts);
    Invariant { system, predicate }
}
