//! From a parsed AIGER file to a [`TransitionSystem`].
//!
//! AIGER 1.0 files (no bad-state section) state their properties as outputs; in 1.9 files
//! with a bad section the outputs are ignored, as in HWMCC and rIC3.
//!
//! Reset functions (HWMCC'25: a latch resets to any literal, not only 0, 1 or itself) are
//! lowered here, in one place, rather than given to the core as a new kind of initial value:
//! the latch becomes uninitialised and [`TransitionSystem::constrain_first_frame`] adds the
//! constraint `first -> latch == reset`, evaluated in frame 0 like every signal, so on frame
//! 0's inputs and on the other latches' initial values, as aigsim and Certifaiger read it.
//! The initial states are then exactly those the reset logic produces, under the
//! constraints, in every engine, preprocessing pass and simulator, with no engine knowing of
//! reset functions; the BTOR2 blaster gives a non-constant `init` its meaning the same way.
//! A first-class reset function in the core would have to be taught to every engine's
//! initial-state encoding (BMC and IC3 frames, k-induction's base, BDD images, interpolation's
//! first frame, ternary simulation, the liveness reduction), each a chance of a wrong verdict.
//!
//! The lowering adds one latch, after the file's, and its constraints, before the file's. What
//! leaves warden speaks of the file again: witnesses print the file's latches only (the
//! first-frame latch is 1 in frame 0, so [`crate::witness::aiger`] reads it back), and
//! certificates keep the file's reset functions on its latches (see
//! [`crate::cert::witness_circuit`]). The parser has rejected cyclic resets, so the
//! constraints have, for each frame-0 input vector, exactly one solution on the latches with a
//! reset function.

use super::var_table::VarTable;
use super::Aiger;
use crate::aig::{Aig, Lit, Var};
use crate::ts::TransitionSystem;

/// Builds the transition system of `a`, reset functions lowered (see the module doc). The
/// parser has already checked ranges, definitions and acyclicity.
pub fn to_transition_system(a: &Aiger) -> TransitionSystem {
    let (mut ts, resets) = read(a);
    let holds: Vec<Lit> = (resets.iter())
        .map(|&(i, r)| {
            let l = ts.latches[i].var.lit();
            !ts.aig.xor(l, r)
        })
        .collect();
    if !holds.is_empty() {
        ts.constrain_first_frame(&holds);
    }
    ts
}

/// What invariant constraint `c` of [`to_transition_system`]'s system stands for in `a`.
pub fn constraint_origin(a: &Aiger, c: usize) -> ConstraintOrigin<'_> {
    let resets: Vec<&super::Latch> = (a.latches.iter())
        .filter(|l| l.reset_function().is_some())
        .collect();
    match resets.get(c) {
        Some(l) => ConstraintOrigin::Reset(l),
        None => ConstraintOrigin::File(c - resets.len()),
    }
}

/// See [`constraint_origin`].
#[derive(Debug, PartialEq, Eq)]
pub enum ConstraintOrigin<'a> {
    /// The lowering of this latch's reset function.
    Reset(&'a super::Latch),
    /// The file's own constraint of this index.
    File(usize),
}

/// The transition system of `a` with its latches' reset functions not lowered: those latches
/// are uninitialised, and each is listed with its reset function as (latch index, literal).
/// For checking a witness circuit, whose resets must be compared with the model's.
pub fn read(a: &Aiger) -> (TransitionSystem, Vec<(usize, Lit)>) {
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
            _ => None,
        };
        let name = a.symbols.latches.get(i).cloned().flatten();
        map.set(l.lit >> 1, ts.add_latch(init, name).lit());
    }
    build_ands(a, &mut ts.aig, &mut map, a.ands.iter().map(|g| g.0));
    let lit = |l: u32| map.lit(l).expect("parser checked definitions");
    for (i, l) in a.latches.iter().enumerate() {
        ts.set_next(i, lit(l.next));
    }
    let resets = (a.latches.iter().enumerate())
        .filter_map(|(i, l)| Some((i, lit(l.reset_function()?))))
        .collect();
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
    (ts, resets)
}

/// The reset functions of `a`'s latches, built into `aig` over the leaves `inputs` and
/// `latches` (one per input and latch of `a`, in order): (latch index, literal), as
/// [`read`] lists them. Only the gates the resets read are built.
pub fn reset_functions(
    a: &Aiger,
    aig: &mut Aig,
    inputs: &[Var],
    latches: &[Var],
) -> Vec<(usize, Lit)> {
    let mut map = LitMap::new(a);
    map.set(0, Lit::FALSE);
    for (&l, v) in a.inputs.iter().zip(inputs) {
        map.set(l >> 1, v.lit());
    }
    for (l, v) in a.latches.iter().zip(latches) {
        map.set(l.lit >> 1, v.lit());
    }
    let roots = a.latches.iter().filter_map(|l| l.reset_function());
    build_ands(a, aig, &mut map, roots);
    (a.latches.iter().enumerate())
        .filter_map(|(i, l)| {
            let r = l.reset_function()?;
            Some((i, map.lit(r).expect("the reset's cone is built")))
        })
        .collect()
}

/// Adds the AND gates that define the literals `roots` (others are skipped) and the gates
/// they read to `aig`, in dependency order (ASCII files may list them in any order).
fn build_ands(a: &Aiger, aig: &mut Aig, map: &mut LitMap, roots: impl Iterator<Item = u32>) {
    // The index + 1 of the gate defining each variable.
    let mut def = VarTable::new(a.maxvar, a.ands.len());
    for (i, &(lhs, _, _)) in a.ands.iter().enumerate() {
        def.set(lhs >> 1, i as u32 + 1);
    }
    for root in roots {
        let Some(gate) = (def.get(root >> 1) as usize).checked_sub(1) else {
            continue;
        };
        let mut stack = vec![gate];
        while let Some(&g) = stack.last() {
            let (lhs, r0, r1) = a.ands[g];
            if map.lit(lhs).is_some() {
                stack.pop();
                continue;
            }
            match (map.lit(r0), map.lit(r1)) {
                (Some(x), Some(y)) => {
                    map.set(lhs >> 1, aig.and(x, y));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::aiger::parse;
    use crate::ts::{replay, ReplayError, Trace, FIRST_FRAME};

    /// a resets to input x, b to !a (a's initial value), c to the gate x & a; bad = c.
    const STRATIFIED: &[u8] = b"aag 5 1 3 0 1 1\n2\n4 4 2\n6 6 5\n8 8 10\n8\n10 2 4\n";

    #[test]
    fn reset_functions_become_a_first_frame_latch_and_constraints() {
        let file = parse(STRATIFIED).unwrap();
        let ts = to_transition_system(&file);
        assert_eq!(ts.latches.len(), 4);
        assert_eq!(ts.names.latches[3].as_deref(), Some(FIRST_FRAME));
        assert_eq!(ts.latches[3].init, Some(true));
        assert!(ts.latches[..3].iter().all(|l| l.init.is_none()));
        assert_eq!(ts.constraints.len(), 3);
        let (plain, resets) = read(&file);
        assert_eq!(plain.latches.len(), 3);
        assert_eq!(
            resets.iter().map(|r| r.0).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
    }

    #[test]
    fn only_the_initial_states_the_reset_logic_gives_replay() {
        let ts = to_transition_system(&parse(STRATIFIED).unwrap());
        let trace = |init: [bool; 3], x: bool| Trace {
            init: init.into_iter().chain([true]).collect(),
            inputs: vec![vec![x], vec![x]],
            bad: 0,
        };
        // x = 1 in frame 0: a = 1, b = !a = 0, c = x & a = 1, which is bad at once.
        assert_eq!(replay(&ts, &trace([true, false, true], true)), Ok(0));
        // The reset logic gives x = 0: a = 0, b = 1, c = 0, and c keeps its value.
        let safe = replay(&ts, &trace([false, true, false], false));
        assert_eq!(safe, Err(ReplayError::NotReached { bad: 0 }));
        // Any other initial state violates a reset (b must be !a; c must be x & a).
        for (init, reset) in [([true, true, true], 1), ([false, true, true], 2)] {
            let wrong = ReplayError::Constraint {
                frame: 0,
                constraint: reset,
            };
            assert_eq!(replay(&ts, &trace(init, init[0])), Err(wrong));
        }
    }
}
