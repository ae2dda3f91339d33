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
//! The window records only the sequential cone of the facts and the constraints: the latches
//! and inputs they depend on, through any number of steps. A path of that cone extends to a
//! path of the whole system (the other latches never affect it), so the induction's cases,
//! proved for the whole system, hold for it.
//!
//! Consecution (constraints assumed in the current state, as `cert::check` does): the window
//! shifts by one. If it was full, the facts held in `k` consecutive states linked by real
//! steps whose constraints hold, the last one the current state, so the induction step gives
//! them in the successor; if it was short, the successor ends a path of fewer than `k`
//! steps from an initial state, and the base cases give them.

use super::coi::sequential_cone;
use super::{Facts, TransitionSystem};
use crate::aig::Lit;

impl Facts {
    /// Adds the window latches to `system` (an extension of the original system, whose first
    /// `latches` latches are the original's) and returns the predicate above.
    pub fn window(&self, system: &mut TransitionSystem, latches: usize) -> Lit {
        let current: Vec<Lit> = system.latches[..latches]
            .iter()
            .map(|l| l.var.lit())
            .collect();
        let mut conj = self.copy_into(&mut system.aig, &current);
        if self.depth() <= 1 {
            return system.aig.and_all(conj);
        }
        let roots = conj.iter().chain(&system.constraints).copied().collect();
        let cone = sequential_cone(system, roots);
        let in_cone = |v: crate::aig::Var| cone[v.index()];
        let kept: Vec<usize> = (0..latches)
            .filter(|&i| in_cone(system.latches[i].var))
            .collect();
        let inputs: Vec<usize> = (0..system.inputs.len())
            .filter(|&i| in_cone(system.inputs[i]))
            .collect();
        // Latches outside the cone stand as 0 in a slot: no fact reads them.
        let (mut newer, mut newer_valid) = (current, Lit::TRUE);
        let mut newer_inputs: Vec<Lit> = system.inputs.iter().map(|v| v.lit()).collect();
        for _ in 1..self.depth() {
            let valid = record(system, &[newer_valid])[0];
            let mut state = vec![Lit::FALSE; latches];
            let recorded = record(system, &kept.iter().map(|&i| newer[i]).collect::<Vec<_>>());
            for (&i, r) in kept.iter().zip(recorded) {
                state[i] = r;
            }
            let mut ins = vec![Lit::FALSE; system.inputs.len()];
            let recorded = record(
                system,
                &inputs.iter().map(|&i| newer_inputs[i]).collect::<Vec<_>>(),
            );
            for (&i, r) in inputs.iter().zip(recorded) {
                ins[i] = r;
            }
            // The slot's next states and constraints, on its recorded state and inputs.
            let mut map = vec![None; system.aig.num_vars()];
            for &i in &kept {
                map[system.latches[i].var.index()] = Some(state[i]);
            }
            for &i in &inputs {
                map[system.inputs[i].index()] = Some(ins[i]);
            }
            let mut roots: Vec<Lit> = kept.iter().map(|&i| system.latches[i].next).collect();
            roots.extend(system.constraints.clone());
            let images = system
                .aig
                .clone()
                .copy_cone(&mut system.aig, &mut map, &roots);
            let (next, constraints) = images.split_at(kept.len());
            let aig = &mut system.aig;
            let mut step: Vec<Lit> = next
                .iter()
                .zip(&kept)
                .map(|(&a, &i)| !aig.xor(a, newer[i]))
                .collect();
            step.extend(constraints);
            step.extend(self.copy_into(aig, &state));
            let step = aig.and_all(step);
            conj.push(aig.or(!valid, step));
            conj.push(aig.or(!valid, newer_valid));
            let initial: Vec<Lit> = kept
                .iter()
                .filter_map(|&i| system.latches[i].init.map(|b| newer[i].xor_sign(!b)))
                .collect();
            let aig = &mut system.aig;
            let initial = aig.and_all(initial);
            let shortest = aig.and(newer_valid, !valid);
            conj.push(aig.or(!shortest, initial));
            (newer, newer_valid, newer_inputs) = (state, valid, ins);
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
