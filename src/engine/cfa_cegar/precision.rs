//! A location's precision: what an interpolant (or a guard into the error) adds to it in
//! each abstract domain ([`Mode`]).

use super::abstraction::Mode;
use super::program::Program;
use crate::aig;
use crate::engine::cegar::PredSplit;

/// The guards of the edges into the error that read only variables, as predicates of their
/// source locations (the precision of `--init-prec prop`; their variables for explicit values).
pub(super) fn initial_precision(prog: &Program, prec: &mut [Vec<aig::Lit>], mode: Mode) {
    let nondet_leaves: Vec<aig::Var> = prog.nondets.iter().flatten().map(|l| l.var()).collect();
    for (e, bits) in prog.cfa.edges.iter().zip(&prog.edges) {
        let cone = prog.aig().cone([bits.guard]);
        if e.to == prog.cfa.error && !nondet_leaves.iter().any(|v| cone[v.index()]) {
            refine(
                prog,
                &mut prec[e.from.index()],
                bits.guard,
                mode,
                PredSplit::Whole,
            );
        }
    }
}

/// Adds what `pred` (an interpolant, a guard) gives to a location's precision: the bits of
/// every variable it reads (explicit values), or predicates split per `split` (in the
/// product, a piece that reads one variable gives that variable's bits instead); the number
/// of new ones. Pieces that add nothing fall back to the whole interpolant, which always
/// rules out its path once the path's nodes entail the interpolants before them.
pub(super) fn refine(
    prog: &Program,
    prec: &mut Vec<aig::Lit>,
    pred: aig::Lit,
    mode: Mode,
    split: PredSplit,
) -> usize {
    let aig = prog.aig();
    // The bits of the variables `l` reads.
    let bits_read = |l: aig::Lit| -> Vec<aig::Lit> {
        let cone = aig.cone([l]);
        (prog.vars.iter())
            .filter(|bits| bits.iter().any(|b| cone[b.var().index()]))
            .flatten()
            .copied()
            .collect()
    };
    let pieces = match (mode, split) {
        (Mode::Explicit { .. }, _) => bits_read(pred),
        (_, PredSplit::Whole) => vec![pred],
        (_, PredSplit::Conjuncts) => aig.conjuncts(pred),
        (_, PredSplit::Atoms) => {
            let cone = aig.cone([pred]);
            (prog.vars.iter().flatten())
                .filter(|l| cone[l.var().index()])
                .copied()
                .collect()
        }
    };
    let pieces = match mode {
        Mode::Product { .. } => (pieces.into_iter())
            .flat_map(|p| {
                let bits = bits_read(p);
                let one_var = prog
                    .vars
                    .iter()
                    .any(|v| v.len() == bits.len() && v == &bits);
                if one_var {
                    bits
                } else {
                    vec![p]
                }
            })
            .collect(),
        _ => pieces,
    };
    let mut new = 0;
    for p in pieces {
        new += usize::from(add_predicate(prec, p));
    }
    if new == 0 && !matches!(mode, Mode::Explicit { .. }) {
        new += usize::from(add_predicate(prec, pred));
    }
    new
}

/// Adds a (non-constant, new up to negation) predicate; whether it was new.
fn add_predicate(prec: &mut Vec<aig::Lit>, p: aig::Lit) -> bool {
    let p = p.xor_sign(p.is_negated());
    if p.is_const() || prec.contains(&p) {
        return false;
    }
    prec.push(p);
    true
}

/// Tracks the variables `vars` at every location (the global precision of the unsat-core
/// refinement): their bits join each location's precision; the number of new ones.
pub(super) fn track_everywhere(
    prog: &Program,
    prec: &mut [Vec<aig::Lit>],
    vars: &[usize],
) -> usize {
    let mut new = 0;
    for at in prec.iter_mut() {
        for &x in vars {
            for &bit in &prog.vars[x] {
                new += usize::from(add_predicate(at, bit));
            }
        }
    }
    new
}
