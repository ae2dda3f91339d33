//! Random bit-parallel simulation: 64 runs per machine word. It proposes the candidate
//! equivalences (signals that agree in every frame of every run from the initial states) and
//! spreads each counterexample to induction over 64 input patterns.

use std::collections::HashMap;

use crate::aig::{Lit, Var, WordSim};
use crate::rng::{mix, Rng};
use crate::ts::{Leaf, TransitionSystem};
use crate::Budget;

/// Simulation work per candidate search, in word operations: `words * 64` runs of `frames`
/// frames, fewer on large circuits so that it stays a small part of the preprocessing time.
const WORK: usize = 1 << 25;
const MAX_WORDS: usize = 4;
const MAX_FRAMES: usize = 128;

/// Evaluates frames of a system on `words` words per signal, with random inputs.
pub(crate) struct Simulator<'a> {
    ts: &'a TransitionSystem,
    kinds: Vec<Option<Leaf>>,
    rng: Rng,
    sim: WordSim,
}

impl<'a> Simulator<'a> {
    pub(crate) fn new(ts: &'a TransitionSystem, words: usize) -> Simulator<'a> {
        Simulator {
            ts,
            kinds: ts.leaf_kinds(),
            rng: Rng(0x7072_6570),
            sim: WordSim::new(&ts.aig, words),
        }
    }

    /// A state word per latch and word: `values(i)` where known (all runs agree), random
    /// where `None`.
    pub(crate) fn state(&mut self, values: impl Fn(usize) -> Option<bool>) -> Vec<u64> {
        let words = self.sim.words();
        let mut state = Vec::with_capacity(self.ts.latches.len() * words);
        for i in 0..self.ts.latches.len() {
            for _ in 0..words {
                state.push(
                    values(i).map_or_else(|| self.rng.next_u64(), |b| 0u64.wrapping_sub(b as u64)),
                );
            }
        }
        state
    }

    /// Evaluates one frame from `state` with fresh random inputs and returns the next state.
    pub(crate) fn step(&mut self, state: &[u64]) -> Vec<u64> {
        let words = self.sim.words();
        let (kinds, rng) = (&self.kinds, &mut self.rng);
        self.sim.eval(&self.ts.aig, |v, w| match kinds[v.index()] {
            Some(Leaf::Latch(i)) => state[i * words + w],
            _ => rng.next_u64(),
        });
        let mut next = Vec::with_capacity(state.len());
        for l in &self.ts.latches {
            for w in 0..words {
                next.push(self.word(l.next, w));
            }
        }
        next
    }

    /// Word `w` of `l` in the last frame.
    pub(crate) fn word(&self, l: Lit, w: usize) -> u64 {
        self.sim.word(l, w)
    }
}

/// Where the simulation runs of [`candidate_classes`] go.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Runs {
    /// From random initial states, frame after frame: candidates for sequential equivalence.
    FromReset,
    /// Each frame from a fresh random state: candidates for equality in every state.
    AnyState,
}

/// Groups of literals, each sorted by `key` and of size two or more, that agreed in every
/// frame of every run (each literal is a variable with the polarity that makes its first value
/// false; inputs are left out). Runs take random inputs; constraints are ignored, since
/// candidates are proved afterwards anyway.
pub(crate) fn candidate_classes(
    ts: &TransitionSystem,
    key: impl Fn(Var) -> (u8, Var),
    runs: Runs,
    budget: &Budget,
) -> Vec<Vec<Lit>> {
    let n = ts.aig.num_vars();
    let words = (WORK / (n * MAX_FRAMES)).clamp(1, MAX_WORDS);
    let frames = (WORK / (n * words)).clamp(2, MAX_FRAMES);
    let mut sim = Simulator::new(ts, words);
    let mut state = sim.state(|i| ts.latches[i].init);
    let mut hash = vec![0u64; n];
    let mut flip = vec![false; n];
    for frame in 0..frames {
        if budget.expired() {
            break;
        }
        if runs == Runs::AnyState {
            state = sim.state(|_| None);
        }
        state = sim.step(&state);
        for (v, h) in hash.iter_mut().enumerate() {
            let l = Var(v as u32).lit();
            if frame == 0 {
                flip[v] = sim.word(l, 0) & 1 == 1;
            }
            let l = l.xor_sign(flip[v]);
            for w in 0..words {
                *h = mix(*h ^ sim.word(l, w));
            }
        }
    }
    let kinds = ts.leaf_kinds();
    let mut groups: HashMap<u64, Vec<Lit>> = HashMap::new();
    for v in 0..n {
        if !matches!(kinds[v], Some(Leaf::Input(_))) {
            groups
                .entry(hash[v])
                .or_default()
                .push(Lit::new(Var(v as u32), flip[v]));
        }
    }
    let mut classes: Vec<Vec<Lit>> = groups.into_values().filter(|g| g.len() > 1).collect();
    for c in &mut classes {
        c.sort_by_key(|l| key(l.var()));
    }
    classes.sort_by_key(|c| key(c[0].var()));
    classes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_signals_share_a_class_up_to_polarity() {
        let mut ts = TransitionSystem::default();
        let i = ts.add_input(None).lit();
        let a = ts.add_latch(Some(false), None).lit();
        let b = ts.add_latch(Some(true), None).lit();
        let c = ts.add_latch(None, None).lit();
        // a and !b both copy the input; c is free and holds its value.
        ts.set_next(0, i);
        ts.set_next(1, !i);
        ts.set_next(2, c);
        let g = ts.aig.and(a, c);
        let h = ts.aig.and(!b, c);
        let key = |v: Var| (0, v);
        let classes = candidate_classes(&ts, key, Runs::FromReset, &Budget::new(None));
        assert_eq!(classes, vec![vec![a, !b], vec![g, h]]);
        // In arbitrary states the latches are independent: g and h differ too.
        let classes = candidate_classes(&ts, key, Runs::AnyState, &Budget::new(None));
        assert_eq!(classes, Vec::<Vec<Lit>>::new());
    }
}
