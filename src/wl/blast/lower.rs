//! Lowering a word-level counterexample to the blasted system: the inverse of
//! [`super::lift_trace`], for engines that search the word-level model itself (the SMT
//! engine), so that their answers are replayed and printed as the bit-level engines' are.

use std::collections::HashMap;

use super::BitMap;
use crate::aig::{Lit, Var};
use crate::ts::TransitionSystem;
use crate::wl::{waveform, Model, SimError, TermId, Trace, Value};

/// The bits of a value, in the order [`Bits::flat`] lists the bits of its word.
fn flat(value: &Value) -> Vec<bool> {
    match value {
        Value::Bv(v) => v.bits().collect(),
        Value::Array(a) => (0..1u64 << a.index_width)
            .flat_map(|j| {
                let at = crate::wl::BitVec::from_u64(a.index_width, j);
                a.read(&at).bits().collect::<Vec<_>>()
            })
            .collect(),
    }
}

/// Where the bits of a blasted system live, which is all that lowering reads of it: kept
/// instead of the system, so that an engine holding it for a run does not hold a copy of the
/// system's AIG.
pub struct Lowering {
    /// The position of each input variable among the system's inputs.
    input_at: HashMap<Var, usize>,
    /// The position of each latch variable among its latches.
    latch_at: HashMap<Var, usize>,
    /// Per latch: its next-state literal and its reset value (0 when uninitialised).
    latches: Vec<(Lit, bool)>,
    inputs: usize,
}

impl Lowering {
    pub fn new(ts: &TransitionSystem) -> Lowering {
        Lowering {
            input_at: (ts.inputs.iter().enumerate())
                .map(|(i, v)| (*v, i))
                .collect(),
            latch_at: (ts.latches.iter().enumerate())
                .map(|(j, l)| (l.var, j))
                .collect(),
            latches: (ts.latches.iter())
                .map(|l| (l.next, l.init.unwrap_or(false)))
                .collect(),
            inputs: ts.inputs.len(),
        }
    }

    /// The bit-level trace of the system blasted from `model` with `map` that follows the
    /// word-level trace `trace`: every latch's frame-0 value from the states' initial
    /// values, every input from the model's inputs, and the inputs that feed the states
    /// without `next` from those states' values one frame later. `Ok(None)` when the model
    /// has lazy arrays, whose slots no word-level trace determines; `Err` when `trace` does
    /// not fit the model.
    pub fn lower(
        &self,
        model: &Model,
        map: &BitMap,
        trace: &Trace,
    ) -> Result<Option<crate::ts::Trace>, SimError> {
        if map.is_lazy() {
            return Ok(None);
        }
        let terms: Vec<TermId> = model.states().iter().map(|s| s.term).collect();
        let states = waveform(model, trace, &terms)?;
        let mut init: Vec<bool> = self.latches.iter().map(|&(_, reset)| reset).collect();
        for (bits, value) in map.states.iter().zip(&states[0]) {
            for (lit, b) in bits.flat().into_iter().zip(flat(value)) {
                init[self.latch_at[&lit.var()]] = b ^ lit.is_negated();
            }
        }
        let frames = trace.inputs.len();
        let inputs = (0..frames)
            .map(|k| {
                let mut row = vec![false; self.inputs];
                for (bits, value) in map.inputs.iter().zip(&trace.inputs[k]) {
                    for (lit, b) in bits.flat().into_iter().zip(flat(value)) {
                        row[self.input_at[&lit.var()]] = b ^ lit.is_negated();
                    }
                }
                let free = (model.states().iter().zip(&map.states))
                    .zip(states.get(k + 1).into_iter().flatten())
                    .filter(|((s, _), _)| s.next.is_none());
                for ((_, bits), value) in free {
                    for (lit, b) in bits.flat().into_iter().zip(flat(value)) {
                        let (next, _) = self.latches[self.latch_at[&lit.var()]];
                        row[self.input_at[&next.var()]] = b ^ lit.is_negated() ^ next.is_negated();
                    }
                }
                row
            })
            .collect();
        Ok(Some(crate::ts::Trace {
            init,
            inputs,
            bad: trace.bad,
        }))
    }
}
