//! Refinement of the predicate domains: a path of the graph checked on the concrete system,
//! and the predicates its interpolants (or unsat core) give; and the invariant of a graph
//! explored to its end.

use std::collections::HashSet;

use super::super::path::{refine_by_core, refute, Check, Cut, PathStates, Refutation};
use super::super::{cone_latches, CegarOptions, Domain, PredSplit};
use super::abstractor::state_lit;
use super::precision::{Precision, WordAtoms};
use super::Arg;
use super::State;
use crate::aig;
use crate::cert::Invariant;
use crate::sat::{self, Solver};
use crate::ts::{Trace, TransitionSystem};
use crate::unroll::Unroller;
use crate::Budget;

pub(super) enum Refined {
    Feasible(Trace),
    /// Spurious: the first path position the predicates refine, and the predicates (each
    /// with whether it is tracked explicitly).
    Spurious {
        pivot: usize,
        preds: Vec<(aig::Lit, bool)>,
    },
    Stopped,
}

/// The abstract states of a path of the graph.
pub(super) struct PredStates {
    pub(super) preds: Vec<aig::Lit>,
    pub(super) states: Vec<State>,
}

impl PathStates for PredStates {
    fn depth(&self) -> usize {
        self.states.len() - 1
    }

    fn assert<S: Solver>(&self, s: &mut S, un: &mut Unroller, t: usize) -> Vec<sat::Lit> {
        vec![state_lit(s, un, &self.preds, &self.states[t], 0)]
    }
}

/// Checks the path `path` of the graph on the concrete system; spurious, the predicates its
/// interpolants give: split formulas (whole ones if splitting gives nothing new), or in the
/// explicit domain the latches of their support. Unsat-core refinement (explicit domain)
/// gives latches and no position: the graph restarts.
pub(super) fn refine(
    prec: &mut Precision,
    arg: &Arg,
    path: &[usize],
    opts: &CegarOptions,
    budget: &Budget,
) -> Refined {
    let states = PredStates {
        preds: prec.preds.clone(),
        states: path.iter().map(|&n| arg.nodes[n].state.clone()).collect(),
    };
    let latches: Vec<aig::Lit> = prec.sys.latches.iter().map(|l| l.var.lit()).collect();
    let latch_lits = |which: &mut dyn Iterator<Item = usize>| -> Vec<(aig::Lit, bool)> {
        which.map(|i| (latches[i], true)).collect()
    };
    let Some(strategy) = opts.refinement.strategy() else {
        return match refine_by_core(&prec.sys, &prec.latches(), &states, budget) {
            Check::Feasible(t) => Refined::Feasible(t),
            Check::Stopped => Refined::Stopped,
            Check::Spurious(core) => Refined::Spurious {
                pivot: 0,
                preds: latch_lits(&mut core.into_iter()),
            },
        };
    };
    let cuts = match refute(&prec.sys, &states, strategy, budget) {
        Refutation::Refuted(cuts) => cuts,
        Refutation::Feasible(trace) => return Refined::Feasible(trace),
        Refutation::Stopped => return Refined::Stopped,
        Refutation::NoInterpolants(e) => {
            crate::log::info(1, format_args!("cegar: no interpolants: {e}"));
            return Refined::Spurious {
                pivot: 0,
                preds: Vec::new(),
            };
        }
    };
    // Every variable of an interpolant is a latch of its cut.
    let formula = |aig: &mut aig::Aig, cut: &Cut| {
        cut.itp
            .copy_into(aig, |v| cut.latches.get(&v).map(|&i| latches[i]))
    };
    let mut pieces = Vec::new();
    for cut in &cuts {
        if budget.expired() {
            return Refined::Stopped;
        }
        if opts.domain == Domain::Expl || cut.itp.num_ands() > MAX_PREDICATE_ANDS {
            let support = cut.itp.vars().filter_map(|v| cut.latches.get(&v).copied());
            pieces.push((cut.frame, Piece::Latches(support.collect())));
        } else if let Some(f) = formula(&mut prec.sys.aig, cut) {
            pieces.push((cut.frame, Piece::Formula(f)));
        }
    }
    let refines = |p: &Piece| match p {
        Piece::Formula(f) => !f.is_const(),
        Piece::Latches(l) => !l.is_empty(),
    };
    let Some(pivot) = pieces.iter().find(|(_, p)| refines(p)).map(|(t, _)| *t) else {
        return Refined::Spurious {
            pivot: 0,
            preds: Vec::new(),
        };
    };
    let latch_vars: HashSet<aig::Var> = prec.sys.latches.iter().map(|l| l.var).collect();
    let mut preds = Vec::new();
    for (_, piece) in &pieces {
        match piece {
            Piece::Formula(f) => preds.extend(
                split_formula(&prec.sys, &prec.atoms, *f, opts.pred_split)
                    .into_iter()
                    .map(|p| (p, latch_vars.contains(&p.var()))),
            ),
            Piece::Latches(l) => match prec.atoms.meeting(l.iter().copied()) {
                Some(atoms)
                    if opts.pred_split == PredSplit::Atoms && opts.domain != Domain::Expl =>
                {
                    preds.extend(atoms.into_iter().map(|a| (a, false)))
                }
                _ => preds.extend(latch_lits(&mut l.iter().copied())),
            },
        }
    }
    let new = |p: &aig::Lit| {
        !p.is_const() && !prec.known.contains(&if p.is_negated() { !*p } else { *p })
    };
    if !preds.iter().any(|(p, _)| new(p)) && opts.domain != Domain::Expl {
        // The pieces are known and the path came back: the whole interpolants, large ones
        // too, are the predicates that exclude it (a Cartesian abstraction onto the latches
        // of a large interpolant loses how they correlate).
        for cut in &cuts {
            if let Some(f) = formula(&mut prec.sys.aig, cut) {
                preds.push((f, false));
            }
        }
    }
    Refined::Spurious { pivot, preds }
}

/// Interpolants with more AND gates than this give the latches of their support as
/// predicates instead of their circuit: interpolants from the proofs of large circuits can
/// be huge, and copying, re-encoding and abstracting onto them costs more than they help.
pub(super) const MAX_PREDICATE_ANDS: usize = 1000;

/// What one interpolant of a spurious path contributes.
pub(super) enum Piece {
    Formula(aig::Lit),
    /// The latches of an interpolant's support (explicit domain, or an interpolant too large
    /// to keep).
    Latches(Vec<usize>),
}

/// The predicates `f` splits into. The atoms of a bit-level formula are its latches; where
/// the system has word-level atoms, those that read the formula's latches stand for them
/// (a formula over no such latch keeps its latches). Refinement still progresses when the
/// word atoms do not exclude a spurious path: it comes back with them known, and then the
/// interpolants themselves become predicates.
pub(in crate::engine::cegar) fn split_formula(
    sys: &TransitionSystem,
    atoms: &WordAtoms,
    f: aig::Lit,
    split: PredSplit,
) -> Vec<aig::Lit> {
    match split {
        PredSplit::Whole => vec![f],
        PredSplit::Conjuncts => sys.aig.conjuncts(f),
        PredSplit::Atoms => {
            let support = cone_latches(sys, [f]);
            atoms
                .meeting(support.iter().copied())
                .unwrap_or_else(|| support.iter().map(|&i| sys.latches[i].var.lit()).collect())
        }
    }
}

/// The disjunction of the uncovered nodes, over the latches of `prec.sys`.
pub(super) fn invariant(prec: &Precision, arg: &Arg) -> Invariant {
    let mut system = prec.sys.clone();
    let mut disjuncts = Vec::new();
    for node in arg.at[0].iter().map(|&n| &arg.nodes[n]) {
        for cube in &node.state {
            let lits: Vec<aig::Lit> = cube
                .iter()
                .map(|&(p, v)| prec.preds[p].xor_sign(!v))
                .collect();
            let c = system.aig.and_all(lits);
            disjuncts.push(c);
        }
    }
    let predicate = system.aig.or_all(disjuncts);
    Invariant { system, predicate }
}
