//! From a [`TransitionSystem`] back to an AIGER file: used to write certificates (witness
//! circuits) and models for other tools.
//!
//! Numbering is canonical (inputs, latches, then the AND gates in the cone of the outputs in
//! topological order), so the result can be written in either format.

use super::{Aiger, Latch, Symbols};
use crate::aig::{Lit, Node, Var};
use crate::ts::TransitionSystem;

/// The AIGER form of `ts`: its bad properties, constraints, justice and fairness sections, with
/// the names of `ts.names` as symbols. `outputs` become the file's outputs.
pub fn from_transition_system(ts: &TransitionSystem, outputs: &[Lit]) -> Aiger {
    with_resets(ts, outputs, &[])
}

/// [`from_transition_system`] with reset functions: latch `i` of each `(i, r)` in `resets`
/// (uninitialised in `ts`) resets to `r`.
pub fn with_resets(ts: &TransitionSystem, outputs: &[Lit], resets: &[(usize, Lit)]) -> Aiger {
    let mut index = vec![u32::MAX; ts.aig.num_vars()];
    index[0] = 0;
    let mut next_var = 1u32;
    let mut number = |v: Var, index: &mut Vec<u32>| {
        index[v.index()] = next_var;
        next_var += 1;
    };
    for &v in &ts.inputs {
        number(v, &mut index);
    }
    for l in &ts.latches {
        number(l.var, &mut index);
    }
    let roots: Vec<Lit> = ts
        .latches
        .iter()
        .map(|l| l.next)
        .chain(outputs.iter().copied())
        .chain(ts.bad.iter().copied())
        .chain(ts.constraints.iter().copied())
        .chain(ts.justice.iter().flatten().copied())
        .chain(ts.fairness.iter().copied())
        .chain(resets.iter().map(|&(_, r)| r))
        .collect();
    let cone = ts.aig.cone(roots);
    let mut ands = Vec::new();
    let gates: Vec<Var> = (1..ts.aig.num_vars())
        .map(|i| Var(i as u32))
        .filter(|&v| cone[v.index()] && matches!(ts.aig.node(v), Node::And(..)))
        .collect();
    for &v in &gates {
        number(v, &mut index);
    }
    let lit = |l: Lit| 2 * index[l.var().index()] + l.is_negated() as u32;
    for &v in &gates {
        if let Node::And(a, b) = ts.aig.node(v) {
            ands.push((lit(v.lit()), lit(a), lit(b)));
        }
    }
    let mut latches: Vec<Latch> = ts
        .latches
        .iter()
        .map(|l| {
            let own = lit(l.var.lit());
            Latch {
                lit: own,
                next: lit(l.next),
                reset: l.init.map_or(own, u32::from),
            }
        })
        .collect();
    for &(i, r) in resets {
        latches[i].reset = lit(r);
    }
    let pad = |names: &[Option<String>], n: usize| {
        (0..n)
            .map(|i| names.get(i).cloned().flatten())
            .collect::<Vec<_>>()
    };
    Aiger {
        maxvar: next_var - 1,
        inputs: ts.inputs.iter().map(|v| lit(v.lit())).collect(),
        latches,
        outputs: outputs.iter().map(|&l| lit(l)).collect(),
        bad: ts.bad.iter().map(|&l| lit(l)).collect(),
        constraints: ts.constraints.iter().map(|&l| lit(l)).collect(),
        justice: ts
            .justice
            .iter()
            .map(|j| j.iter().map(|&l| lit(l)).collect())
            .collect(),
        fairness: ts.fairness.iter().map(|&l| lit(l)).collect(),
        ands,
        symbols: Symbols {
            inputs: pad(&ts.names.inputs, ts.inputs.len()),
            latches: pad(&ts.names.latches, ts.latches.len()),
            outputs: vec![None; outputs.len()],
            bad: pad(&ts.names.bad, ts.bad.len()),
            constraints: vec![None; ts.constraints.len()],
            justice: vec![None; ts.justice.len()],
            fairness: vec![None; ts.fairness.len()],
        },
        comments: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::aiger::{parse, to_transition_system, write_binary};
    use crate::ts::tests::counter;
    use crate::ts::{replay, Trace};

    #[test]
    fn round_trip_through_binary_keeps_behaviour() {
        let mut ts = counter(3, 5, true);
        ts.latches[2].init = None;
        let a = from_transition_system(&ts, &[]);
        let mut bytes = Vec::new();
        write_binary(&a, &mut bytes).unwrap();
        let back = to_transition_system(&parse(&bytes).unwrap());
        assert_eq!(back.latches.len(), 3);
        assert_eq!(back.latches[2].init, None);
        assert_eq!(back.names.latches[1].as_deref(), Some("c[1]"));
        let t = Trace {
            init: vec![false, false, true],
            inputs: vec![vec![true]; 2],
            bad: 0,
        };
        assert_eq!(replay(&ts, &t), replay(&back, &t));
        assert_eq!(replay(&back, &t), Ok(1), "uninitialised bit 2 starts at 4");
    }
}
