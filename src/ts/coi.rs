//! Cone-of-influence reduction: keeps only the latches and inputs that can affect a property
//! or a constraint. Constraints stay in the cone because they restrict every trace.

use super::{Leaf, Names, Restore, TransitionSystem};
use crate::aig::{Aig, Lit, Node};

/// The system restricted to the sequential cone of its properties and constraints.
pub fn cone_of_influence(ts: &TransitionSystem) -> (TransitionSystem, Restore) {
    let roots = ts
        .bad
        .iter()
        .chain(&ts.constraints)
        .chain(ts.justice.iter().flatten())
        .chain(&ts.fairness)
        .copied()
        .collect();
    let mark = sequential_cone(ts, roots);

    let mut out = TransitionSystem {
        aig: Aig::new(),
        ..Default::default()
    };
    let mut map: Vec<Option<Lit>> = vec![None; ts.aig.num_vars()];
    let kept_inputs: Vec<usize> = (0..ts.inputs.len())
        .filter(|&i| mark[ts.inputs[i].index()])
        .collect();
    let kept_latches: Vec<usize> = (0..ts.latches.len())
        .filter(|&i| mark[ts.latches[i].var.index()])
        .collect();
    for &i in &kept_inputs {
        map[ts.inputs[i].index()] = Some(out.add_input(ts.names.inputs[i].clone()).lit());
    }
    for &i in &kept_latches {
        let l = &ts.latches[i];
        map[l.var.index()] = Some(out.add_latch(l.init, ts.names.latches[i].clone()).lit());
    }
    let nexts: Vec<Lit> = kept_latches.iter().map(|&i| ts.latches[i].next).collect();
    let nexts = ts.aig.copy_cone(&mut out.aig, &mut map, &nexts);
    for (j, next) in nexts.into_iter().enumerate() {
        out.set_next(j, next);
    }
    let mut copy = |lits: &[Lit]| ts.aig.copy_cone(&mut out.aig, &mut map, lits);
    let constraints = copy(&ts.constraints);
    let bad = copy(&ts.bad);
    let fairness = copy(&ts.fairness);
    let justice = ts.justice.iter().map(|j| copy(j)).collect();
    out.constraints = constraints;
    out.bad = bad;
    out.fairness = fairness;
    out.justice = justice;
    out.names = Names {
        bad: ts.names.bad.clone(),
        ..std::mem::take(&mut out.names)
    };
    let restore = Restore::new(ts, kept_inputs, kept_latches, (0..ts.bad.len()).collect());
    (out, restore)
}

/// Marks every variable that can affect `roots`: their combinational cones and, through each
/// latch reached, the cone of its next-state function.
pub(crate) fn sequential_cone(ts: &TransitionSystem, mut stack: Vec<Lit>) -> Vec<bool> {
    let kinds = ts.leaf_kinds();
    let mut mark = vec![false; ts.aig.num_vars()];
    while let Some(l) = stack.pop() {
        let v = l.var();
        if std::mem::replace(&mut mark[v.index()], true) {
            continue;
        }
        match ts.aig.node(v) {
            Node::And(a, b) => stack.extend([a, b]),
            Node::Leaf => {
                if let Some(Leaf::Latch(i)) = kinds[v.index()] {
                    stack.push(ts.latches[i].next);
                }
            }
            Node::False => {}
        }
    }
    mark
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;
    use crate::ts::{replay, Trace};

    #[test]
    fn coi_drops_unrelated_latches_and_inputs_and_lifts_traces() {
        let mut ts = counter(3, 4, false);
        // An unrelated toggling latch driven by a fresh input.
        let x = ts.add_input(Some("x".into()));
        let junk = ts.add_latch(Some(true), Some("junk".into()));
        let next = ts.aig.xor(junk.lit(), x.lit());
        ts.set_next(3, next);
        let (reduced, restore) = cone_of_influence(&ts);
        assert_eq!(reduced.latches.len(), 3);
        assert_eq!(reduced.inputs.len(), 0);
        let t = Trace {
            init: vec![false; 3],
            inputs: vec![vec![]; 5],
            bad: 0,
        };
        assert_eq!(replay(&reduced, &t), Ok(4));
        let lifted = restore.trace(&t);
        assert_eq!(lifted.init, vec![false, false, false, true]);
        assert_eq!(replay(&ts, &lifted), Ok(4));
    }
}
