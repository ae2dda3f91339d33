//! The abstract domains over a CFA. An abstract state is a conjunction of literals over the
//! variable leaves of [`Program`], sorted, so that the coverage check is a subset test (and the
//! invariant of a proof is built the same way for every domain):
//! - predicates (Cartesian abstraction): the literals are predicates (AIG functions) or their
//!   negations, those every successor agrees on;
//! - explicit values (Theta's explicit domain): the precision tracks variables, i.e. their bit
//!   leaves, and the successors of a state are the distinct values of the tracked bits, each a
//!   state of its own, enumerated up to `--max-enum` of them; beyond that there is one
//!   successor with the bits every successor agrees on (a variable whose bits all vary is
//!   unknown);
//! - Boolean predicate abstraction split into cubes (`--domain pred-split`): each cube of
//!   predicate values a successor has is a state of its own, as explicit values are;
//! - the product (`--domain prod`): the predicates that are variable bits are enumerated as
//!   explicit values, and under each of their valuations the other predicates are abstracted
//!   as Cartesian.
//!
//! Boolean abstraction into one disjunction (`--domain pred-bool`) has no such state: the
//! command line rejects it on C programs.
//!
//! Each predicate of an edge's target is composed with the edge's assignments in the AIG
//! ([`images`]), so that a post is one small query over the leaves before the edge: the
//! node's state, the guard and the images. Every post has a solver of its own: one solver
//! shared by all posts must assign every variable of every edge in each model, which
//! measured far slower (20 s against 4 s on a 50-iteration loop); it has the one-shot
//! options (no congruence closure, backbones or sweeping: 4.3 s instead of more than 10 s on
//! `theta25_test_locks_6.c`).

use super::program::Program;
use crate::aig;
use crate::sat::models::{self, Valuations};
use crate::sat::{self, Cadical, SatResult, Solver};
use crate::Budget;

/// The successor of an abstract state along an edge.
pub(super) enum Post {
    /// The successor states (none when the edge cannot fire from the abstract state).
    States(Vec<Vec<aig::Lit>>),
    /// The budget ran out.
    Stopped,
}

/// How successors are abstracted.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) enum Mode {
    /// Cartesian predicate abstraction.
    Cartesian,
    /// Boolean predicate abstraction, each cube of predicate values a successor of its own
    /// (Theta's PRED_SPLIT; beyond [`MAX_CUBES`], the Cartesian abstraction).
    Split,
    /// Explicit values of the tracked bits, up to this many successors (0: no limit).
    Explicit { max_enum: usize },
    /// The product of explicit values (the predicates that are variable bits, up to this
    /// many valuations) and Cartesian abstraction (the other predicates, under each
    /// valuation).
    Product { max_enum: usize },
}

/// At most this many cubes of predicate values are enumerated by the Boolean abstraction
/// (as the transition-system CEGAR's).
const MAX_CUBES: usize = 1024;

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
    mode: Mode,
    budget: Budget,
    /// Per edge, from [`images`].
    images: Vec<Vec<(aig::Lit, aig::Lit)>>,
}

impl<'p> Abstractor<'p> {
    pub fn new(
        prog: &'p Program<'p>,
        images: Vec<Vec<(aig::Lit, aig::Lit)>>,
        mode: Mode,
        budget: &Budget,
    ) -> Abstractor<'p> {
        Abstractor {
            prog,
            mode,
            budget: budget.clone(),
            images,
        }
    }

    pub fn program(&self) -> &'p Program<'p> {
        self.prog
    }

    /// The successors of `state` along edge `edge` (see the module documentation).
    pub fn post(&self, state: &[aig::Lit], edge: usize) -> Post {
        let images = &self.images[edge];
        post(self.prog, images, self.mode, state, edge, &self.budget)
    }
}

/// The successors of `state` along edge `edge` in `mode`, `images` being the edge's from
/// [`images`] (UFO computes them without an [`Abstractor`], as it builds its labels in the
/// program's AIG between two posts).
pub(super) fn post(
    prog: &Program,
    images: &[(aig::Lit, aig::Lit)],
    mode: Mode,
    state: &[aig::Lit],
    edge: usize,
    budget: &Budget,
) -> Post {
    let mut s = Cadical::for_one_shot(budget);
    let mut view = prog.view(&[]);
    let guard = prog.edges[edge].guard;
    for &l in state.iter().chain([&guard]) {
        let x = view.lit(&mut s, l, 0);
        s.add_clause(&[x]);
    }
    let preds: Vec<aig::Lit> = images.iter().map(|&(p, _)| p).collect();
    let lits: Vec<sat::Lit> = (images.iter())
        .map(|&(_, after)| view.lit(&mut s, after, 0))
        .collect();
    match s.solve(&[]) {
        SatResult::Unsat => return Post::States(Vec::new()),
        SatResult::Interrupted => return Post::Stopped,
        SatResult::Sat => {}
    }
    let (enumerated, limit) = match mode {
        Mode::Cartesian => (Vec::new(), None),
        Mode::Split => ((0..lits.len()).collect(), Some(MAX_CUBES)),
        Mode::Explicit { max_enum } => (
            (0..lits.len()).collect(),
            (max_enum > 0).then_some(max_enum),
        ),
        Mode::Product { max_enum } => {
            let aig = prog.aig();
            let bits = (0..lits.len()).filter(|&i| aig.node(preds[i].var()) == aig::Node::Leaf);
            (bits.collect(), (max_enum > 0).then_some(max_enum))
        }
    };
    let cubes = match enumerated.is_empty() {
        true => vec![Vec::new()],
        false => {
            let chosen: Vec<sat::Lit> = enumerated.iter().map(|&i| lits[i]).collect();
            match models::enumerate(&mut s, &[], &chosen, limit, budget) {
                Some(Valuations::All(all)) => all,
                // Too many: one successor, every predicate abstracted as Cartesian.
                Some(Valuations::TooMany) => vec![Vec::new()],
                None => return Post::Stopped,
            }
        }
    };
    let mut states = Vec::with_capacity(cubes.len());
    for cube in cubes {
        let mut values: Vec<Option<bool>> = vec![None; lits.len()];
        let mut fixed = Vec::with_capacity(cube.len());
        for (&i, &v) in enumerated.iter().zip(&cube) {
            values[i] = Some(v);
            fixed.push(if v { lits[i] } else { !lits[i] });
        }
        let rest: Vec<usize> = (0..lits.len()).filter(|&i| values[i].is_none()).collect();
        if !rest.is_empty() {
            let open: Vec<sat::Lit> = rest.iter().map(|&i| lits[i]).collect();
            let Some(agreed) = models::agreed(&mut s, &fixed, &open, budget) else {
                return Post::Stopped;
            };
            for (&i, v) in rest.iter().zip(agreed) {
                values[i] = v;
            }
        }
        states.push(abstract_state(&preds, values));
    }
    Post::States(states)
}

/// The abstract state of predicate values: each predicate with a value, as itself or its
/// negation, sorted.
fn abstract_state(
    preds: &[aig::Lit],
    values: impl IntoIterator<Item = Option<bool>>,
) -> Vec<aig::Lit> {
    let mut state: Vec<aig::Lit> = (preds.iter().zip(values))
        .filter_map(|(&p, v)| v.map(|v| p.xor_sign(!v)))
        .collect();
    state.sort();
    state
}
