//! The precision of the predicate domains (the predicates, in a copy of the system's AIG),
//! the word-level atoms refinement can split interpolants into, and the shape that says
//! how each domain abstracts a successor onto the predicates.

use std::collections::HashSet;

use super::super::{CegarOptions, Domain};
use crate::aig;
use crate::ts::TransitionSystem;

/// The word-level atoms of a system ([`TransitionSystem::atoms`]) indexed by the latches they
/// read, so that `--pred-split atoms` can give the comparisons an interpolant's latches take
/// part in (on a BTOR2 model or a C program) instead of the latches themselves.
pub(in crate::engine::cegar) struct WordAtoms {
    pub(super) atoms: Vec<aig::Lit>,
    /// Per latch: the atoms that read it.
    pub(super) by_latch: Vec<Vec<usize>>,
}

impl WordAtoms {
    pub(in crate::engine::cegar) fn new(sys: &TransitionSystem) -> WordAtoms {
        let mut latch_of = vec![None; sys.aig.num_vars()];
        for (i, l) in sys.latches.iter().enumerate() {
            latch_of[l.var.index()] = Some(i);
        }
        let mut by_latch = vec![Vec::new(); sys.latches.len()];
        // `seen[v] == a + 1`: variable `v` was visited for atom `a` (one array for all cones).
        let mut seen = vec![0usize; sys.aig.num_vars()];
        for (a, atom) in sys.atoms.iter().enumerate() {
            let mut stack = vec![atom.var()];
            while let Some(v) = stack.pop() {
                if std::mem::replace(&mut seen[v.index()], a + 1) == a + 1 {
                    continue;
                }
                match sys.aig.node(v) {
                    aig::Node::And(x, y) => stack.extend([x.var(), y.var()]),
                    aig::Node::Leaf => {
                        if let Some(l) = latch_of[v.index()] {
                            by_latch[l].push(a);
                        }
                    }
                    aig::Node::False => {}
                }
            }
        }
        WordAtoms {
            atoms: sys.atoms.clone(),
            by_latch,
        }
    }

    /// The atoms that read any of `latches`, or `None` when there is none.
    pub(super) fn meeting(
        &self,
        latches: impl IntoIterator<Item = usize>,
    ) -> Option<Vec<aig::Lit>> {
        let mut hit: Vec<usize> = latches
            .into_iter()
            .flat_map(|l| self.by_latch[l].iter().copied())
            .collect();
        hit.sort_unstable();
        hit.dedup();
        (!hit.is_empty()).then(|| hit.into_iter().map(|a| self.atoms[a]).collect())
    }
}

/// The predicates and the system their circuits live in.
pub(super) struct Precision {
    pub(super) sys: TransitionSystem,
    pub(super) atoms: WordAtoms,
    pub(super) preds: Vec<aig::Lit>,
    /// Per predicate: tracked explicitly (a latch of the explicit or product domain).
    pub(super) tracked: Vec<bool>,
    pub(super) known: HashSet<aig::Lit>,
}

impl Precision {
    /// Adds `p` unless it is constant or known; whether it was new.
    pub(super) fn add(&mut self, p: aig::Lit, tracked: bool) -> bool {
        let p = if p.is_negated() { !p } else { p };
        if p.is_const() || !self.known.insert(p) {
            return false;
        }
        self.preds.push(p);
        self.tracked.push(tracked);
        true
    }

    /// The latches that are predicates.
    pub(super) fn latches(&self) -> Vec<bool> {
        self.sys
            .latches
            .iter()
            .map(|l| self.known.contains(&l.var.lit()))
            .collect()
    }
}

/// How successors are abstracted onto the predicates in a domain.
pub(super) struct Shape {
    /// Predicates whose successor values are enumerated (one cube per valuation).
    pub(super) enumerated: Vec<usize>,
    /// Predicates abstracted Cartesian.
    pub(super) cartesian: Vec<usize>,
    /// Enumerate at most this many valuations, then abstract all Cartesian.
    pub(super) limit: Option<usize>,
    /// The cubes of an enumeration form one node (Boolean abstraction) rather than one each.
    pub(super) merge: bool,
    /// The number of predicates abstracted onto.
    pub(super) predicates: usize,
}

/// The most successor valuations the Boolean domains (`pred-bool`, `pred-split`) enumerate;
/// past it a successor is the Cartesian abstraction (which contains every valuation). Every
/// coverage, bad-state and path query encodes a node's whole disjunction of cubes, and with a
/// few dozen predicates AllSAT can find millions of them: enumerating and encoding those
/// outran the time limit by far (dblclockfft butterfly tasks, 32 predicates).
pub(super) const MAX_BOOLEAN_CUBES: usize = 1024;

/// The number of successor valuations `domain` enumerates before going Cartesian, if it has
/// a limit (the tracked latches of the explicit and product domains).
pub(super) fn enumeration_limit(domain: Domain, max_enum: usize) -> Option<usize> {
    match domain {
        Domain::Expl | Domain::Prod => (max_enum > 0).then_some(max_enum),
        _ => None,
    }
}

impl Shape {
    /// The shape of `opts.domain` with the enumeration limit `max_enum` (0: none).
    pub(super) fn new(prec: &Precision, opts: &CegarOptions, max_enum: usize) -> Shape {
        let all = 0..prec.preds.len();
        let (enumerated, cartesian): (Vec<usize>, Vec<usize>) = match opts.domain {
            Domain::PredBool | Domain::PredSplit => (all.collect(), Vec::new()),
            Domain::PredCart => (Vec::new(), all.collect()),
            Domain::Expl | Domain::Prod => all.partition(|&p| prec.tracked[p]),
        };
        let limit = match opts.domain {
            Domain::PredBool | Domain::PredSplit => Some(MAX_BOOLEAN_CUBES),
            _ => enumeration_limit(opts.domain, max_enum),
        };
        Shape {
            enumerated,
            cartesian,
            limit,
            merge: opts.domain == Domain::PredBool,
            predicates: prec.preds.len(),
        }
    }
}
