//! The part of a lifted invariant that stands for the reductions' facts.
//!
//! Facts proved by a 1-step induction are inductive on their own: the invariant conjoins
//! them. Facts proved by a `k`-step induction (signal correspondence with `k > 1`) are not, so
//! the system gets auxiliary latches recording the last `k - 1` steps: slot `j` (`j = 1..k`,
//! slot 1 the most recent) holds the state and inputs of `j` steps ago, with a valid bit
//! (`valid_1' = 1`, `valid_{j+1}' = valid_j`, all reset to 0). Slot 0 is the current state.
//! The predicate says:
//! - the facts hold in the current state and in every valid slot;
//! - every valid slot `j` holds a real step into slot `j - 1`: its constraints hold and its
//!   next state (on its recorded inputs) is the state of slot `j - 1`;
//! - the valid bits form a prefix, and the oldest state of a window shorter than `k - 1`
//!   steps is an initial state.
//!
//! Consecution (constraints assumed in the current state, as `cert::check` does): the window
//! shifts by one. If it was full, the facts held in `k` consecutive states linked by real
//! steps whose constraints hold, the last one the current state, so the induction step gives
//! them in the successor; if it was short, the successor ends a path of fewer than `k`
//! steps from an initial state, and the base cases give them.

use super::{Facts, TransitionSystem};
use crate::aig::Lit;

impl Facts {
    /// Adds the window latches to `system` (an extension of the original system, whose first
    /// `latches` latches are the original's) and returns the predicate above.
    pub fn window(&self, system: &mut TransitionSystem, latches: usize) -> Lit {
        let model: Vec<(Lit, Lit, Option<bool>)> = system.latches[..latches]
            .iter()
            .map(|l| (l.var.lit(), l.next, l.init))
            .collect();
        let current: Vec<Lit> = model.iter().map(|m| m.0).collect();
        let mut conj = self.copy_into(&mut system.aig, &current);
        let (mut newer, mut newer_valid) = (current, Lit::TRUE);
        let mut newer_inputs: Vec<Lit> = system.inputs.iter().map(|v| v.lit()).collect();
        for _ in 1..self.depth() {
            let valid = record(system, &[newer_valid])[0];
            let state = record(system, &newer);
            let inputs = record(system, &newer_inputs);
            // The slot's next states and constraints, on its recorded state and inputs.
            let mut map = vec![None; system.aig.num_vars()];
            for (m, &s) in model.iter().zip(&state) {
                map[m.0.var().index()] = Some(s);
            }
            for (k, &i) in inputs.iter().enumerate() {
                map[system.inputs[k].index()] = Some(i);
            }
            let mut roots: Vec<Lit> = model.iter().map(|m| m.1).collect();
            roots.extend(system.constraints.clone());
            let images = system
                .aig
                .clone()
                .copy_cone(&mut system.aig, &mut map, &roots);
            let (next, constraints) = images.split_at(model.len());
            let aig = &mut system.aig;
            let mut step: Vec<Lit> = next
                .iter()
                .zip(&newer)
                .map(|(&a, &b)| !aig.xor(a, b))
                .collect();
            step.extend(constraints);
            step.extend(self.copy_into(aig, &state));
            let step = aig.and_all(step);
            conj.push(aig.or(!valid, step));
            conj.push(aig.or(!valid, newer_valid));
            let initial: Vec<Lit> = model
                .iter()
                .zip(&newer)
                .filter_map(|(m, &s)| m.2.map(|b| s.xor_sign(!b)))
                .collect();
            let initial = aig.and_all(initial);
            let shortest = aig.and(newer_valid, !valid);
            conj.push(aig.or(!shortest, initial));
            (newer, newer_valid, newer_inputs) = (state, valid, inputs);
        }
        system.aig.and_all(conj)
    }
}

/// Auxiliary latches, reset to 0, that copy `signals` (their values one step ago).
fn record(system: &mut TransitionSystem, signals: &[Lit]) -> Vec<Lit> {
    signals
        .iter()
        .map(|&next| {
            let latch = system.latches.len();
            let v = system.add_latch(Some(false), Some(format!("prep_window[{latch}]")));
            system.set_next(latch, next);
            v.lit()
        })
        .collect()
}
