//! Structural justification of a predecessor: which latches of a full state force a cube's
//! next-state values, found by walking the cone of its next-state functions (no SAT call).
//!
//! MIC joins a cube whose literal drop failed with the predecessor that made it fail (see
//! [`super::mic`]): only the literals the predecessor shares survive. Lifting that
//! predecessor by SAT costs a query over the whole cone per failed drop: on large designs
//! (Rocket, `beem_synapse`) those queries were a third of IC3's time, most of them for joins
//! that try no CTG. The join is a heuristic (the joined cube is checked by the next query),
//! so a cheaper approximation of the lifted predecessor does: the latches a justification of
//! the next-state values reaches. An AND gate at 1 needs both inputs, one at 0 needs one input
//! at 0 (one already needed, else an input of the system, which costs no latch, else the
//! first). The latches it reaches force the values in ternary simulation, so the result is a
//! sound lifting too, if usually a larger one than a SAT core.

use crate::aig::{Lit, Node, Var};
use crate::ts::{Leaf, TransitionSystem};

pub(super) struct Justifier {
    kinds: Vec<Option<Leaf>>,
    /// Per variable: its value, valid when `evaluated` is `stamp`.
    value: Vec<bool>,
    evaluated: Vec<u32>,
    /// Per variable: needed by the current justification when `needed` is `stamp`.
    needed: Vec<u32>,
    stamp: u32,
    stack: Vec<Var>,
}

impl Justifier {
    pub(super) fn new(ts: &TransitionSystem) -> Justifier {
        let n = ts.aig.num_vars();
        Justifier {
            kinds: ts.leaf_kinds(),
            value: vec![false; n],
            evaluated: vec![0; n],
            needed: vec![0; n],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// The literals of `state` (one per latch, in the system's order) that force the latches
    /// of `cube` to its values in the next state under `inputs`, sorted. `None` when the cube
    /// names something other than a latch (a state signal), or does not hold next.
    pub(super) fn support(
        &mut self,
        ts: &TransitionSystem,
        state: &[Lit],
        inputs: &[bool],
        cube: &[Lit],
    ) -> Option<Vec<Lit>> {
        self.stamp += 1;
        let mut roots = Vec::with_capacity(cube.len());
        for &l in cube {
            let Some(Leaf::Latch(i)) = self.kinds[l.var().index()] else {
                return None;
            };
            let next = ts.latches[i].next.xor_sign(l.is_negated());
            if !self.eval(ts, state, inputs, next) {
                return None;
            }
            roots.push(next.var());
        }
        let mut support = Vec::new();
        self.stack.clear();
        for v in roots {
            self.need(v);
        }
        while let Some(v) = self.stack.pop() {
            match ts.aig.node(v) {
                Node::And(a, b) => {
                    if self.value[v.index()] {
                        self.need(a.var());
                        self.need(b.var());
                    } else if let Some(pick) = self.zero_input(a, b) {
                        self.need(pick.var());
                    }
                }
                Node::Leaf => {
                    if let Some(Leaf::Latch(i)) = self.kinds[v.index()] {
                        support.push(state[i]);
                    }
                }
                Node::False => {}
            }
        }
        support.sort();
        Some(support)
    }

    /// The input of an AND gate at 0 to justify it by: one at 0 that is needed already, else
    /// one that is an input of the system (it costs no latch), else the first at 0.
    fn zero_input(&self, a: Lit, b: Lit) -> Option<Lit> {
        let zero = |x: Lit| self.value[x.var().index()] == x.is_negated();
        let needed = |x: Lit| self.needed[x.var().index()] == self.stamp;
        let input = |x: Lit| matches!(self.kinds[x.var().index()], Some(Leaf::Input(_)));
        match (zero(a), zero(b)) {
            (true, true) if needed(b) && !needed(a) => Some(b),
            (true, true) if input(b) && !needed(a) && !input(a) => Some(b),
            (true, _) => Some(a),
            (false, true) => Some(b),
            (false, false) => None,
        }
    }

    /// Marks `v` needed (its value is known) and queues it.
    fn need(&mut self, v: Var) {
        if self.needed[v.index()] != self.stamp {
            self.needed[v.index()] = self.stamp;
            self.stack.push(v);
        }
    }

    /// The value of `root` in `state` under `inputs`, evaluating its cone (each gate once
    /// per stamp).
    fn eval(&mut self, ts: &TransitionSystem, state: &[Lit], inputs: &[bool], root: Lit) -> bool {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(root.var());
        while let Some(&v) = stack.last() {
            if self.evaluated[v.index()] == self.stamp {
                stack.pop();
                continue;
            }
            let value = match ts.aig.node(v) {
                Node::False => false,
                Node::Leaf => match self.kinds[v.index()] {
                    Some(Leaf::Latch(i)) => !state[i].is_negated(),
                    Some(Leaf::Input(i)) => inputs[i],
                    None => false,
                },
                Node::And(a, b) => {
                    let mut pending = false;
                    for x in [a.var(), b.var()] {
                        if self.evaluated[x.index()] != self.stamp {
                            stack.push(x);
                            pending = true;
                        }
                    }
                    if pending {
                        continue;
                    }
                    (self.value[a.var().index()] ^ a.is_negated())
                        && (self.value[b.var().index()] ^ b.is_negated())
                }
            };
            self.value[v.index()] = value;
            self.evaluated[v.index()] = self.stamp;
            stack.pop();
        }
        self.stack = stack;
        self.value[root.var().index()] ^ root.is_negated()
    }
}

#[cfg(test)]
mod tests {
    use super::Justifier;
    use crate::aig::Lit;
    use crate::ts::tests::counter;
    use crate::ts::{simulate, Trace};

    /// On a 5-bit counter with an enable input, for every state, input and target of the
    /// successor's bits: the support is part of the state, every state that agrees with it
    /// has a successor in the target under the same input (so it is a lifting), only what
    /// the target depends on is kept, and a target the successor misses has none.
    #[test]
    fn the_support_forces_the_successor_and_is_part_of_the_state() {
        let ts = counter(5, 31, true);
        let mut j = Justifier::new(&ts);
        let bits: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
        let cube = |v: u64, n: usize| -> Vec<Lit> {
            (0..n).map(|i| bits[i].xor_sign(v >> i & 1 == 0)).collect()
        };
        let step = |s: u64, e: bool| {
            let trace = Trace {
                init: (0..5).map(|i| s >> i & 1 == 1).collect(),
                inputs: vec![vec![e]],
                bad: 0,
            };
            let values = simulate(&ts, &trace).next().unwrap();
            (0..5).fold(0, |acc, i| {
                acc | u64::from(values.lit(ts.latches[i].next)) << i
            })
        };
        for v in 0..32 {
            for e in [false, true] {
                let succ = step(v, e);
                for n in [1, 2, 5] {
                    let target = cube(succ, n);
                    let support = j.support(&ts, &cube(v, 5), &[e], &target).unwrap();
                    assert!(support.iter().all(|l| cube(v, 5).contains(l)));
                    // Bit 0's next value depends on bit 0 and the input only.
                    assert!(n > 1 || support == [bits[0].xor_sign(v & 1 == 0)]);
                    for s in 0..32 {
                        if support.iter().all(|l| cube(s, 5).contains(l)) {
                            let next = step(s, e);
                            assert_eq!(next & ((1 << n) - 1), succ & ((1 << n) - 1), "{v} {e} {s}");
                        }
                    }
                    let missed = cube(succ ^ 1, n);
                    assert!(j.support(&ts, &cube(v, 5), &[e], &missed).is_none());
                }
            }
        }
    }
}
