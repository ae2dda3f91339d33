//! Lifting a bit-level counterexample of the blasted system back to words.

use super::lazy::{self, Base};
use super::{BitMap, Bits};
use crate::ts::{simulate, TransitionSystem};
use crate::wl::{Model, Trace, Value};

/// The word-level trace of a bit-level counterexample `bit_trace` of the blasted system `ts`:
/// every state's initial value, the free states' values in later frames, and every input in
/// every frame, read off a simulation of the blasted system.
pub fn lift_trace(
    model: &Model,
    map: &BitMap,
    ts: &TransitionSystem,
    bit_trace: &crate::ts::Trace,
) -> Trace {
    // Two passes over the simulation: a lazy array's content at frame 0 can come from a
    // miss of a later frame, and keeping every frame instead would cost memory on long traces
    // (without misses the first pass reads nothing).
    let contents = lazy::Contents::new(&map.misses, simulate(ts, bit_trace));
    let mut states = Vec::with_capacity(bit_trace.inputs.len());
    let mut inputs = Vec::with_capacity(bit_trace.inputs.len());
    for (k, values) in simulate(ts, bit_trace).enumerate() {
        let frame = (k, &values);
        inputs.push(
            model
                .inputs()
                .iter()
                .zip(&map.inputs)
                .enumerate()
                .map(|(i, (input, b))| match b {
                    Bits::Slots(_) => {
                        Value::Array(contents.array(Base::Input(i), &[], frame, false, input.sort))
                    }
                    _ => b.value(input.sort, &values),
                })
                .collect(),
        );
        states.push(
            model
                .states()
                .iter()
                .zip(&map.states)
                .enumerate()
                .map(|(i, (s, b))| match b {
                    _ if k > 0 && s.next.is_some() => None,
                    // Its init gives it (and has the slots' values at frame 0).
                    Bits::Slots(_) if k == 0 && s.init.is_some() => None,
                    Bits::Slots(t) => {
                        let later = k == 0 && s.next.is_some();
                        let base = Base::State(i);
                        Some(Value::Array(
                            contents.array(base, &t.slots, frame, later, s.sort),
                        ))
                    }
                    _ => Some(b.value(s.sort, &values)),
                })
                .collect(),
        );
    }
    Trace {
        bad: bit_trace.bad,
        states,
        inputs,
    }
}
