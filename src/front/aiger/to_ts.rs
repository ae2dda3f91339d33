//! From a parsed AIGER file to a [`TransitionSystem`].
//!
//! AIGER 1.0 files (no bad-state section) state their properties as outputs; in 1.9 files
//! with a bad section the outputs are ignored, as in HWMCC and rIC3.

use super::var_table::VarTable;
use super::Aiger;
use crate::aig::Lit;
use crate::ts::TransitionSystem;

/// A latch with an AIGER 1.9.23 reset function (neither 0, 1 nor itself).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unsupported: latch {latch} (literal {lit}) has the reset function {reset} (AIGER 1.9.23 \
     reset functions are not supported yet)"
)]
pub struct UnsupportedReset {
    pub latch: usize,
    pub lit: u32,
    pub reset: u32,
}

/// Builds the transition system of `a`. The parser has already checked ranges, definitions
/// and acyclicity; what remains are features the core does not support yet.
pub fn to_transition_system(a: &Aiger) -> Result<TransitionSystem, UnsupportedReset> {
    let mut ts = TransitionSystem::default();
    let mut map = LitMap::new(a);
    map.set(0, Lit::FALSE);
    for (i, &l) in a.inputs.iter().enumerate() {
        let name = a.symbols.inputs.get(i).cloned().flatten();
        map.set(l >> 1, ts.add_input(name).lit());
    }
    for (i, l) in a.latches.iter().enumerate() {
        let init = match l.reset {
            0 => Some(false),
            1 => Some(true),
            r if r == l.lit => None,
            reset => {
                return Err(UnsupportedReset {
                    latch: i,
                    lit: l.lit,
                    reset,
                })
            }
        };
        let name = a.symbols.latches.get(i).cloned().flatten();
        map.set(l.lit >> 1, ts.add_latch(init, name).lit());
    }
    build_ands(a, &mut ts, &mut map);
    let lit = |l: u32| map.lit(l).expect("parser checked definitions");
    for (i, l) in a.latches.iter().enumerate() {
        ts.set_next(i, lit(l.next));
    }
    let (bad, bad_names) = if a.bad.is_empty() && a.justice.is_empty() {
        (&a.outputs, &a.symbols.outputs)
    } else {
        (&a.bad, &a.symbols.bad)
    };
    ts.bad = bad.iter().map(|&l| lit(l)).collect();
    ts.names.bad = (0..bad.len())
        .map(|i| bad_names.get(i).cloned().flatten())
        .collect();
    ts.constraints = a.constraints.iter().map(|&l| lit(l)).collect();
    ts.justice = a
        .justice
        .iter()
        .map(|j| j.iter().map(|&l| lit(l)).collect())
        .collect();
    ts.fairness = a.fairness.iter().map(|&l| lit(l)).collect();
    Ok(ts)
}

/// Adds the AND gates in dependency order (ASCII files may list them in any order).
fn build_ands(a: &Aiger, ts: &mut TransitionSystem, map: &mut LitMap) {
    // The index + 1 of the gate defining each variable.
    let mut def = VarTable::new(a.maxvar, a.ands.len());
    for (i, &(lhs, _, _)) in a.ands.iter().enumerate() {
        def.set(lhs >> 1, i as u32 + 1);
    }
    for root in 0..a.ands.len() {
        let mut stack = vec![root];
        while let Some(&g) = stack.last() {
            let (lhs, r0, r1) = a.ands[g];
            if map.lit(lhs).is_some() {
                stack.pop();
                continue;
            }
            match (map.lit(r0), map.lit(r1)) {
                (Some(x), Some(y)) => {
                    map.set(lhs >> 1, ts.aig.and(x, y));
                    stack.pop();
                }
                (x, y) => {
                    for (v, r) in [(x, r0), (y, r1)] {
                        if v.is_none() {
                            stack.push(def.get(r >> 1) as usize - 1);
                        }
                    }
                }
            }
        }
    }
}

/// The literal of the transition system for each AIGER variable, sparse when the header's M
/// is far above the number of variables the file defines (as the parser's table), so that
/// `aag 2147483647 ...` with a handful of gates costs no gigabytes here either.
struct LitMap(VarTable);

impl LitMap {
    fn new(a: &Aiger) -> LitMap {
        let entries = 1 + a.inputs.len() + a.latches.len() + a.ands.len();
        LitMap(VarTable::new(a.maxvar, entries))
    }

    /// Stores `lit` for variable `var` (as its code + 1: 0 means absent).
    fn set(&mut self, var: u32, lit: Lit) {
        self.0.set(var, lit.0 + 1);
    }

    /// The literal of the AIGER literal `l`, once its variable is mapped.
    fn lit(&self, l: u32) -> Option<Lit> {
        match self.0.get(l >> 1) {
            0 => None,
            code => Some(Lit(code - 1).xor_sign(l & 1 == 1)),
        }
    }
}
