//! Rebuilding a system with signals replaced by proved-equal ones: the step every merging
//! pass ends with. Rebuilding through [`Aig::and`](crate::aig::Aig::and) folds the constants
//! and re-hashes the merged gates, so constant propagation comes with it.

use crate::aig::{Lit, Node, Var};
use crate::ts::{Facts, LatchImage, Leaf, Names, Restore, TransitionSystem};

/// `ts` with every variable `v` replaced by the literal `repr[v]` (`repr[v] == v.lit()`:
/// kept), justified by `facts`. A replaced variable must map to a kept one that is smaller or a
/// leaf; a replaced latch must map to the constant or to a kept latch, since its value in a
/// lifted trace comes from the reduced latch. Inputs stay, even unused ones: the cone of
/// influence that follows drops them.
pub(crate) fn substitute(
    ts: &TransitionSystem,
    repr: &[Lit],
    facts: Facts,
) -> (TransitionSystem, Restore) {
    let kept = |v: Var| repr[v.index()] == v.lit();
    let mut out = TransitionSystem {
        names: Names {
            bad: ts.names.bad.clone(),
            ..Names::default()
        },
        ..TransitionSystem::default()
    };
    let mut image = vec![Lit::FALSE; ts.aig.num_vars()];
    for (i, &v) in ts.inputs.iter().enumerate() {
        image[v.index()] = out.add_input(ts.names.inputs[i].clone()).lit();
    }
    let mut kept_index = vec![None; ts.latches.len()];
    for (i, l) in ts.latches.iter().enumerate() {
        if kept(l.var) {
            kept_index[i] = Some(out.latches.len());
            image[l.var.index()] = out.add_latch(l.init, ts.names.latches[i].clone()).lit();
        }
    }
    let kinds = ts.leaf_kinds();
    let latch_images = ts
        .latches
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let r = repr[l.var.index()];
            if let Some(j) = kept_index[i] {
                return LatchImage::Kept(j);
            }
            image[l.var.index()] = image[r.var().index()].xor_sign(r.is_negated());
            if r.is_const() {
                return LatchImage::Constant(r.is_negated());
            }
            let target = match kinds[r.var().index()] {
                Some(Leaf::Latch(k)) => kept_index[k],
                _ => None,
            };
            // Outside the contract a lifted trace fails its replay: never a wrong answer.
            target.map_or_else(
                || {
                    debug_assert!(false, "latch {i} is replaced by a non-latch");
                    LatchImage::Dropped
                },
                |j| LatchImage::Equivalent(j, r.is_negated()),
            )
        })
        .collect();

    let needed = needed(ts, repr);
    for v in (1..ts.aig.num_vars()).map(|v| Var(v as u32)) {
        if !needed[v.index()] {
            continue;
        }
        let r = repr[v.index()];
        if let Node::And(a, b) = ts.aig.node(v) {
            let get = |l: Lit| image[l.var().index()].xor_sign(l.is_negated());
            image[v.index()] = if kept(v) {
                out.aig.and(get(a), get(b))
            } else {
                get(r)
            };
        }
    }
    let get = |l: &Lit| image[l.var().index()].xor_sign(l.is_negated());
    for (j, i) in (0..ts.latches.len())
        .filter(|&i| kept(ts.latches[i].var))
        .enumerate()
    {
        out.set_next(j, get(&ts.latches[i].next));
    }
    out.constraints = ts.constraints.iter().map(get).collect();
    out.bad = ts.bad.iter().map(get).collect();
    out.fairness = ts.fairness.iter().map(get).collect();
    out.justice = ts
        .justice
        .iter()
        .map(|j| j.iter().map(get).collect())
        .collect();
    (out, Restore::merged(ts, latch_images, facts))
}

/// Marks the variables the rebuilt system needs: the cones of the kept latches' next-state
/// functions and of the properties and constraints, with replaced variables standing for
/// their replacement. Replacements are smaller, so one descending sweep suffices.
fn needed(ts: &TransitionSystem, repr: &[Lit]) -> Vec<bool> {
    let mut mark = vec![false; ts.aig.num_vars()];
    let roots = ts
        .latches
        .iter()
        .filter(|l| repr[l.var.index()] == l.var.lit())
        .map(|l| &l.next)
        .chain(&ts.constraints)
        .chain(&ts.bad)
        .chain(&ts.fairness)
        .chain(ts.justice.iter().flatten());
    for l in roots {
        mark[l.var().index()] = true;
    }
    for v in (1..ts.aig.num_vars()).rev() {
        if !mark[v] {
            continue;
        }
        let r = repr[v];
        if r != Var(v as u32).lit() {
            mark[r.var().index()] = true;
        } else if let Node::And(a, b) = ts.aig.node(Var(v as u32)) {
            mark[a.var().index()] = true;
            mark[b.var().index()] = true;
        }
    }
    mark
}
