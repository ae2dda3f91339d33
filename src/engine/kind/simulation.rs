//! Random bit-parallel simulation from the initial states: the evidence the invariant
//! generator uses to refute candidate lemmas cheaply before any SAT call.
//!
//! Each machine word carries 64 independent runs. Under constraints, SAT picks the inputs
//! they read ([`Repair`]), since random ones kill nearly every run within a few frames on
//! circuits with many `assume`s; a run that violates a constraint anyway stops counting from
//! that frame on (its later states need not be reachable), so every recorded state is
//! reachable and a candidate that fails on one is certainly not an invariant.

use std::time::Duration;

use super::repair::{Repair, Repaired};
use crate::aig::WordSim;
use crate::rng::Rng;
use crate::ts::{Leaf, TransitionSystem};
use crate::Budget;

/// Time for choosing inputs by SAT; random inputs after that. A bound on the number of
/// queries would not do: on some circuits the constraints span the whole design.
const REPAIR_TIME: Duration = Duration::from_secs(2);

/// The values the recorded latches took in the live runs.
pub(super) struct Signatures {
    /// Per `(frame, word)`: which runs were live (all constraints held so far).
    pub alive: Vec<u64>,
    /// Per recorded latch, per `(frame, word)`: its value in the live runs (0 in dead ones).
    pub values: Vec<Vec<u64>>,
}

/// Simulates `words * 64` random runs of `frames` frames and records the latches `record`
/// (indices into `ts.latches`). Under constraints, the inputs the constraints read come from
/// [`Repair`] (for [`REPAIR_TIME`], random after that), and a run dies when there are none. Stops early when the budget expires or every run is dead.
pub(super) fn simulate(
    ts: &TransitionSystem,
    record: &[usize],
    frames: usize,
    words: usize,
    budget: &Budget,
) -> Signatures {
    let mut rng = Rng(0x5eed_0001);
    let kinds = ts.leaf_kinds();
    let mut state = Vec::with_capacity(ts.latches.len() * words);
    for l in &ts.latches {
        for _ in 0..words {
            state.push(l.init.map_or_else(|| rng.next_u64(), mask));
        }
    }
    let repair_budget = budget.child_for(REPAIR_TIME);
    let mut repair = (!ts.constraints.is_empty()).then(|| Repair::new(ts, &repair_budget));
    let mut alive = vec![!0u64; words];
    let mut sig = Signatures {
        alive: Vec::new(),
        values: vec![Vec::new(); record.len()],
    };
    let mut sim = WordSim::new(&ts.aig, words);
    for _ in 0..frames {
        if budget.expired() || alive.iter().all(|&w| w == 0) {
            break;
        }
        let mut inputs: Vec<u64> = (0..ts.inputs.len() * words)
            .map(|_| rng.next_u64())
            .collect();
        if let Some(r) = repair.as_mut() {
            for (w, live) in alive.iter_mut().enumerate() {
                let mut runs = *live;
                while runs != 0 {
                    let bit = runs.trailing_zeros();
                    runs &= runs - 1;
                    let latch = |i: usize| state[i * words + w] >> bit & 1 == 1;
                    match r.inputs(latch, |_| rng.next_u64() & 1 == 1) {
                        Repaired::Inputs(values) => {
                            for (i, v) in values {
                                let word = &mut inputs[i * words + w];
                                *word = (*word & !(1 << bit)) | (u64::from(v) << bit);
                            }
                        }
                        Repaired::Impossible => *live &= !(1 << bit),
                        Repaired::OutOfTime => break,
                    }
                }
            }
            if r.out_of_time() {
                repair = None;
            }
        }
        sim.eval(&ts.aig, |v, w| match kinds[v.index()] {
            Some(Leaf::Latch(i)) => state[i * words + w],
            Some(Leaf::Input(i)) => inputs[i * words + w],
            None => 0,
        });
        let ok = satisfied(ts, &sim);
        for (live, ok) in alive.iter_mut().zip(ok) {
            *live &= ok;
            sig.alive.push(*live);
        }
        for (r, &i) in sig.values.iter_mut().zip(record) {
            let var = ts.latches[i].var.lit();
            r.extend((0..words).map(|w| sim.word(var, w) & alive[w]));
        }
        for (i, l) in ts.latches.iter().enumerate() {
            for w in 0..words {
                state[i * words + w] = sim.word(l.next, w);
            }
        }
    }
    sig
}

/// Per word: the runs in which every constraint holds.
fn satisfied(ts: &TransitionSystem, sim: &WordSim) -> Vec<u64> {
    (0..sim.words())
        .map(|w| (ts.constraints.iter()).fold(!0, |acc, &c| acc & sim.word(c, w)))
        .collect()
}

fn mask(v: bool) -> u64 {
    if v {
        !0
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_survive_constraints_on_the_next_state() {
        // a' = x under the constraint !a: random inputs would kill half the runs per frame;
        // the inputs chosen one frame ahead keep every run alive.
        let mut ts = TransitionSystem::default();
        let x = ts.add_input(None).lit();
        let a = ts.add_latch(Some(false), None).lit();
        ts.set_next(0, x);
        ts.constraints.push(!a);
        let sig = simulate(&ts, &[0], 16, 2, &Budget::new(None));
        assert_eq!(sig.alive, vec![!0; 32]);
        assert!(sig.values[0].iter().all(|&w| w == 0));
    }

    #[test]
    fn a_run_without_valid_inputs_dies() {
        // An uninitialised latch that holds its value, constrained to 0: the runs that start
        // at 1 die at once, the others live on.
        let mut ts = TransitionSystem::default();
        let a = ts.add_latch(None, None).lit();
        ts.set_next(0, a);
        ts.constraints.push(!a);
        let sig = simulate(&ts, &[0], 4, 1, &Budget::new(None));
        let first = sig.alive[0];
        assert!(first != 0 && first != !0);
        assert_eq!(sig.alive, vec![first; 4]);
    }
}
