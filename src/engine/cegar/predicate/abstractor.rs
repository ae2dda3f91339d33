//! The abstract post, the initial abstraction and the bad-state and coverage queries of
//! the predicate domains, in one incremental solver per precision.

use std::collections::HashMap;

use super::precision::{Precision, Shape};
use super::Arg;
use super::{Cube, State};
use crate::aig;
use crate::sat::models::{self, Valuations};
use crate::sat::{self, Cadical, SatResult, Solver};
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The solver literal of `state` over the predicates in frame `frame` of `un`.
pub(super) fn state_lit<S: Solver>(
    s: &mut S,
    un: &mut Unroller,
    preds: &[aig::Lit],
    state: &State,
    frame: usize,
) -> sat::Lit {
    let cubes: Vec<sat::Lit> = state
        .iter()
        .map(|cube| {
            let lits: Vec<sat::Lit> = cube
                .iter()
                .map(|&(p, v)| {
                    let l = un.lit(s, preds[p], frame);
                    if v {
                        l
                    } else {
                        !l
                    }
                })
                .collect();
            gate(s, &lits, true)
        })
        .collect();
    gate(s, &cubes, false)
}

/// A fresh literal equivalent to the conjunction (`and`) or disjunction of `lits`.
pub(super) fn gate<S: Solver>(s: &mut S, lits: &[sat::Lit], and: bool) -> sat::Lit {
    // An OR is a negated AND of negated inputs.
    let g = s.new_var().pos_lit();
    let (out, ins): (sat::Lit, Vec<sat::Lit>) = if and {
        (g, lits.to_vec())
    } else {
        (!g, lits.iter().map(|&l| !l).collect())
    };
    let mut long = vec![out];
    for &l in &ins {
        s.add_clause(&[!out, l]);
        long.push(!l);
    }
    s.add_clause(&long);
    g
}

/// The abstraction of the states satisfying `context` onto `lits` (the predicates' literals)
/// as `shape` says: the valuations of the enumerated predicates (AllSAT), each extended by
/// the Cartesian abstraction of the others under it; past the enumeration limit, one
/// Cartesian cube over all. `None` when interrupted.
pub(super) fn image<S: Solver>(
    s: &mut S,
    context: &[sat::Lit],
    lits: &[sat::Lit],
    shape: &Shape,
    budget: &Budget,
) -> Option<State> {
    match s.solve(context) {
        SatResult::Interrupted => return None,
        SatResult::Unsat => return Some(Vec::new()),
        SatResult::Sat => {}
    }
    if shape.enumerated.is_empty() {
        return Some(vec![cartesian(s, context, lits, &shape.cartesian, budget)?]);
    }
    let enumerated: Vec<sat::Lit> = shape.enumerated.iter().map(|&p| lits[p]).collect();
    let valuations = match models::enumerate(s, context, &enumerated, shape.limit, budget)? {
        Valuations::All(valuations) => valuations,
        Valuations::TooMany => {
            // More valuations than the limit: the tracked values become unknown unless
            // every successor agrees on them.
            let all: Vec<usize> = (0..lits.len()).collect();
            return Some(vec![cartesian(s, context, lits, &all, budget)?]);
        }
    };
    let mut out = Vec::with_capacity(valuations.len());
    for valuation in valuations {
        let mut cube: Cube = shape.enumerated.iter().copied().zip(valuation).collect();
        if !shape.cartesian.is_empty() {
            let mut under = context.to_vec();
            under.extend(
                cube.iter()
                    .map(|&(p, v)| if v { lits[p] } else { !lits[p] }),
            );
            cube.extend(cartesian(s, &under, lits, &shape.cartesian, budget)?);
        }
        out.push(cube);
    }
    Some(out)
}

/// The Cartesian abstraction onto the predicates `which` of the (satisfiable) states of
/// `context`: the values every such state agrees on. `None` when interrupted.
pub(super) fn cartesian<S: Solver>(
    s: &mut S,
    context: &[sat::Lit],
    lits: &[sat::Lit],
    which: &[usize],
    budget: &Budget,
) -> Option<Cube> {
    let which_lits: Vec<sat::Lit> = which.iter().map(|&p| lits[p]).collect();
    let values = models::agreed(s, context, &which_lits, budget)?;
    Some(
        (which.iter().zip(values))
            .filter_map(|(&p, v)| v.map(|v| (p, v)))
            .collect(),
    )
}

/// The queries of one precision: images, bad states and coverage, in one incremental solver
/// over two frames of the system. The constraints hold in frame 0; in frame 1 only for
/// images (under `step`): a state without a successor that satisfies them is still
/// reachable, so coverage and bad-state queries must not see them.
pub(super) struct Abstractor<'a> {
    pub(super) prec: &'a Precision,
    pub(super) shape: &'a Shape,
    pub(super) budget: &'a Budget,
    pub(super) solver: Cadical,
    pub(super) un: Unroller<'a>,
    /// Implies a bad state in frame 0.
    pub(super) bad: sat::Lit,
    /// Implies the constraints in frame 1.
    pub(super) step: sat::Lit,
    /// The frame-0 literal of each node's state encoded so far (a live node's state never
    /// changes).
    pub(super) encoded: HashMap<usize, sat::Lit>,
}

impl<'a> Abstractor<'a> {
    pub(super) fn new(prec: &'a Precision, shape: &'a Shape, budget: &'a Budget) -> Abstractor<'a> {
        let sys = &prec.sys;
        let mut solver = Cadical::new(budget);
        let mut un = Unroller::new(sys, Start::Free);
        let step = solver.new_var().pos_lit();
        for &c in &sys.constraints {
            let now = un.lit(&mut solver, c, 0);
            solver.add_clause(&[now]);
            let next = un.lit(&mut solver, c, 1);
            solver.add_clause(&[!step, next]);
        }
        let bad = solver.new_var().pos_lit();
        let mut clause = vec![!bad];
        for &b in &sys.bad {
            clause.push(un.lit(&mut solver, b, 0));
        }
        solver.add_clause(&clause);
        Abstractor {
            prec,
            shape,
            budget,
            solver,
            un,
            bad,
            step,
            encoded: HashMap::new(),
        }
    }

    /// The frame-0 literal of node `n`'s state.
    pub(super) fn lit(&mut self, arg: &Arg, n: usize) -> sat::Lit {
        if let Some(&l) = self.encoded.get(&n) {
            return l;
        }
        let l = state_lit(
            &mut self.solver,
            &mut self.un,
            &self.prec.preds,
            &arg.nodes[n].state,
            0,
        );
        self.encoded.insert(n, l);
        l
    }

    /// The abstraction of the initial states (under the constraints), in a solver of its own.
    pub(super) fn initial(&mut self) -> Option<State> {
        let sys = &self.prec.sys;
        let mut s = Cadical::for_small_queries(self.budget);
        let mut un = Unroller::new(sys, Start::Init);
        for &c in &sys.constraints {
            let l = un.lit(&mut s, c, 0);
            s.add_clause(&[l]);
        }
        let lits: Vec<sat::Lit> = self
            .prec
            .preds
            .iter()
            .map(|&p| un.lit(&mut s, p, 0))
            .collect();
        image(&mut s, &[], &lits, self.shape, self.budget)
    }

    pub(super) fn post(&mut self, arg: &Arg, n: usize) -> Option<State> {
        let now = self.lit(arg, n);
        let lits: Vec<sat::Lit> = (0..self.prec.preds.len())
            .map(|p| self.un.lit(&mut self.solver, self.prec.preds[p], 1))
            .collect();
        image(
            &mut self.solver,
            &[now, self.step],
            &lits,
            self.shape,
            self.budget,
        )
    }

    pub(super) fn meets_bad(&mut self, arg: &Arg, n: usize) -> SatResult {
        let now = self.lit(arg, n);
        self.solver.solve(&[now, self.bad])
    }

    /// `Unsat` when node `n`'s state implies the disjunction of the other uncovered nodes'.
    pub(super) fn covered(&mut self, arg: &Arg, n: usize) -> SatResult {
        let mut a = vec![self.lit(arg, n)];
        for &m in arg.at[0].iter().filter(|&&m| m != n) {
            let l = self.lit(arg, m);
            a.push(!l);
        }
        self.solver.solve(&a)
    }
}
