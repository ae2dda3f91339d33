//! From a parsed AIGER file to a [`TransitionSystem`].
//!
//! AIGER 1.0 files (no bad-state section) state their properties as outputs; in 1.9 files
//! with a bad section the outputs are ignored, as in HWMCC and rIC3.

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
    let nvars = a.maxvar as usize + 1;
    let mut map: Vec<Option<Lit>> = vec![None; nvars];
    map[0] = Some(Lit::FALSE);
    for (i, &l) in a.inputs.iter().enumerate() {
        let name = a.symbols.inputs.get(i).cloned().flatten();
        map[(l >> 1) as usize] = Some(ts.add_input(name).lit());
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
        map[(l.lit >> 1) as usize] = Some(ts.add_latch(init, name).lit());
    }
    build_ands(a, &mut ts, &mut map);
    let lit = |l: u32| {
        map[(l >> 1) as usize]
            .expect("parser checked definitions")
            .xor_sign(l & 1 == 1)
    };
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
fn build_ands(a: &Aiger, ts: &mut TransitionSystem, map: &mut [Option<Lit>]) {
    let mut def: Vec<u32> = vec![u32::MAX; map.len()];
    for (i, &(lhs, _, _)) in a.ands.iter().enumerate() {
        def[(lhs >> 1) as usize] = i as u32;
    }
    let get = |map: &[Option<Lit>], l: u32| map[(l >> 1) as usize].map(|m| m.xor_sign(l & 1 == 1));
    for root in 0..a.ands.len() {
        let mut stack = vec![root];
        while let Some(&g) = stack.last() {
            let (lhs, r0, r1) = a.ands[g];
            if map[(lhs >> 1) as usize].is_some() {
                stack.pop();
                continue;
            }
            match (get(map, r0), get(map, r1)) {
                (Some(x), Some(y)) => {
                    map[(lhs >> 1) as usize] = Some(ts.aig.and(x, y));
                    stack.pop();
                }
                (x, y) => {
                    for (v, r) in [(x, r0), (y, r1)] {
                        if v.is_none() {
                            stack.push(def[(r >> 1) as usize] as usize);
                        }
                    }
                }
            }
        }
    }
}
