//! The counterexample of a CFA engine's feasible error path as a trace of the encoded model,
//! after the CFA interpreter confirmed that the path's nondet values reach the error.

use std::collections::HashMap;

use super::path;
use super::program::Program;
use crate::aig;
use crate::cfa::{self, Cfa};
use crate::error::InternalError;
use crate::ts::{Trace, TransitionSystem};
use crate::wl::{self, BitMap, BitVec, Value};

/// The counterexample of the encoded model `ts` along the feasible path `edges` with the
/// nondet values `drawn`, after the CFA interpreter confirmed that those values reach the
/// error.
pub(super) fn counterexample(
    prog: &Program,
    ts: &TransitionSystem,
    bits: &BitMap,
    edges: &[usize],
    drawn: &path::Drawn,
) -> Result<Trace, InternalError> {
    let cfa = prog.cfa;
    let values: Vec<Value> = (drawn.iter().flatten())
        .map(|(n, b)| value_of(cfa, *n, b))
        .collect();
    cfa::path::replay(cfa, values, edges.len()).map_err(|source| InternalError::PathReplay {
        path: "the cegar error path",
        source,
    })?;
    let position: HashMap<aig::Var, usize> = (ts.inputs.iter().enumerate())
        .map(|(i, &v)| (v, i))
        .collect();
    let mut inputs = vec![vec![false; ts.inputs.len()]; edges.len() + 1];
    for (frame, firing) in inputs.iter_mut().zip(drawn) {
        for (n, values) in firing {
            let word = bits.inputs[prog.nondet_inputs[*n]].flat();
            for (lit, &b) in word.iter().zip(values) {
                frame[position[&lit.var()]] = b ^ lit.is_negated();
            }
        }
    }
    Ok(Trace {
        init: ts.latches.iter().map(|l| l.init.unwrap_or(false)).collect(),
        inputs,
        bad: 0,
    })
}

/// A nondet source's value from its flattened bits.
fn value_of(cfa: &Cfa, n: usize, bits: &[bool]) -> Value {
    match cfa.terms.sort(cfa.nondets[n].term) {
        wl::Sort::Bv(_) => Value::Bv(BitVec::from_bits(bits)),
        wl::Sort::Array { index, element } => {
            let mut a = wl::ArrayValue::constant(index, BitVec::zero(element));
            for (j, chunk) in bits.chunks(element as usize).enumerate() {
                a.set(
                    &BitVec::from_u64(index, j as u64),
                    &BitVec::from_bits(chunk),
                );
            }
            Value::Array(a)
        }
    }
}
