//! Cartesian predicate abstraction over a CFA: an abstract state is a conjunction of predicate
//! literals (AIG functions over the variable leaves of [`Program`]), sorted, so that the
//! coverage check is a subset test.
//!
//! Each predicate of an edge's target is composed with the edge's assignments in the AIG
//! ([`images`]), so that a post is one small query over the leaves before the edge: the
//! node's state, the guard and the images. Every post has a solver of its own: one solver
//! shared by all posts must assign every variable of every edge in each model, which
//! measured far slower (20 s against 4 s on a 50-iteration loop).

use super::program::Program;
use crate::aig;
use crate::sat::{Cadical, SatResult, Solver};
use crate::Budget;

/// The successor of an abstract state along an edge.
pub(super) enum Post {
    /// The edge cannot fire from any state of the abstract state.
    Bottom,
    /// The predicates (of the target's precision) every successor satisfies.
    State(Vec<aig::Lit>),
    /// The budget ran out.
    Stopped,
}

/// The abstraction of the initial state (every variable zero) by `preds`: exact, since it is
/// one concrete state.
pub(super) fn initial(prog: &Program, preds: &[aig::Lit]) -> Vec<aig::Lit> {
    let values = aig::simulate_frame(prog.aig(), |_| false);
    let mut state: Vec<aig::Lit> = (preds.iter())
        .map(|&p| p.xor_sign(!(values[p.var().index()] ^ p.is_negated())))
        .collect();
    state.sort();
    state
}

/// For every edge, each predicate `p` of its target's precision `prec` with `p` after the
/// edge (`p` with the variables replaced by the edge's assignments), built in the program's
/// AIG.
pub(super) fn images(prog: &mut Program, prec: &[Vec<aig::Lit>]) -> Vec<Vec<(aig::Lit, aig::Lit)>> {
    let src = prog.aig().clone();
    let mut out = Vec::with_capacity(prog.edges.len());
    for (e, edge) in prog.cfa.edges.iter().enumerate() {
        let preds = &prec[edge.to.index()];
        let mut map: Vec<Option<aig::Lit>> = vec![None; src.num_vars()];
        for (leaves, after) in prog.vars.iter().zip(&prog.edges[e].next) {
            for (leaf, &a) in leaves.iter().zip(after) {
                map[leaf.var().index()] = Some(a);
            }
        }
        let after = src.copy_cone(&mut prog.circuits.aig, &mut map, preds);
        out.push(preds.iter().copied().zip(after).collect());
    }
    out
}

/// The abstract post operator of one graph (one precision).
pub(super) struct Abstractor<'p> {
    prog: &'p Program<'p>,
    budget: Budget,
    /// Per edge, from [`images`].
    images: Vec<Vec<(aig::Lit, aig::Lit)>>,
}

impl<'p> Abstractor<'p> {
    pub fn new(
        prog: &'p Program<'p>,
        images: Vec<Vec<(aig::Lit, aig::Lit)>>,
        budget: &Budget,
    ) -> Abstractor<'p> {
        Abstractor {
            prog,
            budget: budget.clone(),
            images,
        }
    }

    pub fn program(&self) -> &'p Program<'p> {
        self.prog
    }

    /// The Cartesian post of `state` along edge `edge`: for each predicate of the target,
    /// whether every successor satisfies it, its negation, or neither.
    pub fn post(&self, state: &[aig::Lit], edge: usize) -> Post {
        let mut s = Cadical::for_small_queries(&self.budget);
        let mut view = self.prog.view(&[]);
        let guard = self.prog.edges[edge].guard;
        for &l in state.iter().chain([&guard]) {
            let x = view.lit(&mut s, l, 0);
            s.add_clause(&[x]);
        }
        let images = &self.images[edge];
        let lits: Vec<_> = (images.iter())
            .map(|&(_, after)| view.lit(&mut s, after, 0))
            .collect();
        // Candidates: each predicate with its value in one successor; every further successor
        // found drops the candidates it contradicts.
        let mut candidates: Vec<(aig::Lit, _)> = match s.solve(&[]) {
            SatResult::Unsat => return Post::Bottom,
            SatResult::Interrupted => return Post::Stopped,
            SatResult::Sat => (images.iter().zip(&lits))
                .map(|(&(p, _), &x)| match s.value(x) {
                    Some(false) => (!p, !x),
                    _ => (p, x),
                })
                .collect(),
        };
        let mut out = Vec::new();
        while let Some((p, x)) = candidates.pop() {
            match s.solve(&[!x]) {
                SatResult::Unsat => out.push(p),
                SatResult::Interrupted => return Post::Stopped,
                SatResult::Sat => candidates.retain(|&(_, y)| s.value(y) != Some(false)),
            }
        }
        out.sort();
        Post::State(out)
    }
}
