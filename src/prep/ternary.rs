//! Constant latches by ternary simulation: inputs and uninitialised latches are X, and a
//! latch that keeps its reset value in every reachable ternary state is constant.
//!
//! The simulation joins each new state into the current one (a latch that ever differs from
//! its reset value becomes X for good), so it ends after at most one step per latch, and at
//! the fixpoint the ternary state covers its own successors. Ternary simulation
//! over-approximates, so the conjunction "every constant latch has its value" is inductive
//! on its own, with no SAT call and regardless of the constraints: the fact the invariant
//! lifting needs.

use crate::aig::{Lit, Node, Var};
use crate::prep::substitute::substitute;
use crate::ts::{Facts, Leaf, Restore, TransitionSystem};
use crate::Budget;

/// A ternary value.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Ternary {
    Zero,
    One,
    X,
}

impl Ternary {
    fn from_bool(b: bool) -> Ternary {
        if b {
            Ternary::One
        } else {
            Ternary::Zero
        }
    }

    fn xor_sign(self, flip: bool) -> Ternary {
        match self {
            Ternary::X => Ternary::X,
            v => Ternary::from_bool((v == Ternary::One) ^ flip),
        }
    }

    fn and(self, other: Ternary) -> Ternary {
        match (self, other) {
            (Ternary::Zero, _) | (_, Ternary::Zero) => Ternary::Zero,
            (Ternary::One, Ternary::One) => Ternary::One,
            _ => Ternary::X,
        }
    }
}

/// `ts` with its constant latches replaced by their values, or `None` if it has none or the
/// budget ran out before the fixpoint.
pub(crate) fn constant_latches(
    ts: &TransitionSystem,
    budget: &Budget,
) -> Option<(TransitionSystem, Restore)> {
    let state = fixpoint(ts, budget)?;
    let mut repr: Vec<Lit> = (0..ts.aig.num_vars())
        .map(|v| Var(v as u32).lit())
        .collect();
    let mut facts = Vec::new();
    for (l, &value) in ts.latches.iter().zip(&state) {
        if value != Ternary::X {
            let constant = Lit::FALSE.xor_sign(value == Ternary::One);
            repr[l.var.index()] = constant;
            facts.push((l.var.lit(), constant));
        }
    }
    if facts.is_empty() {
        return None;
    }
    let mut proved = Facts::new(ts.latches.len());
    proved.add_equalities(ts, &facts);
    Some(substitute(ts, &repr, proved))
}

/// The joined ternary state at the fixpoint, one value per latch.
fn fixpoint(ts: &TransitionSystem, budget: &Budget) -> Option<Vec<Ternary>> {
    let kinds = ts.leaf_kinds();
    let mut state: Vec<Ternary> = ts
        .latches
        .iter()
        .map(|l| l.init.map_or(Ternary::X, Ternary::from_bool))
        .collect();
    let mut values = vec![Ternary::X; ts.aig.num_vars()];
    loop {
        if budget.expired() {
            return None;
        }
        for v in 0..ts.aig.num_vars() {
            values[v] = match ts.aig.node(Var(v as u32)) {
                Node::False => Ternary::Zero,
                Node::And(a, b) => value(&values, a).and(value(&values, b)),
                Node::Leaf => match kinds[v] {
                    Some(Leaf::Latch(i)) => state[i],
                    _ => Ternary::X,
                },
            };
        }
        let mut changed = false;
        for (s, l) in state.iter_mut().zip(&ts.latches) {
            let next = value(&values, l.next);
            if *s != Ternary::X && next != *s {
                *s = Ternary::X;
                changed = true;
            }
        }
        if !changed {
            return Some(state);
        }
    }
}

fn value(values: &[Ternary], l: Lit) -> Ternary {
    values[l.var().index()].xor_sign(l.is_negated())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;
    use crate::ts::LatchImage;

    #[test]
    fn latches_stuck_at_their_reset_value_become_constants() {
        // A counter whose property is gated by latch `stuck` (reset 0, next = stuck & en).
        let mut ts = counter(2, 3, true);
        let stuck = ts.add_latch(Some(false), Some("stuck".into())).lit();
        let en = ts.inputs[0].lit();
        let next = ts.aig.and(stuck, en);
        ts.set_next(2, next);
        let gated = ts.aig.and(ts.bad[0], stuck);
        ts.bad[0] = gated;
        // An uninitialised latch that holds its value is not constant.
        let free = ts.add_latch(None, None);
        ts.set_next(3, free.lit());

        let (reduced, restore) = constant_latches(&ts, &Budget::new(None)).unwrap();
        assert_eq!(reduced.bad, vec![Lit::FALSE]);
        assert_eq!(restore.image(2), LatchImage::Constant(false));
        assert!(matches!(restore.image(3), LatchImage::Kept(_)));
        assert!(matches!(restore.image(0), LatchImage::Kept(_)));
    }

    #[test]
    fn a_counter_has_no_constant_latch() {
        let ts = counter(3, 5, false);
        assert!(constant_latches(&ts, &Budget::new(None)).is_none());
    }
}
