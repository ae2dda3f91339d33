//! Internal signals as state variables (`--ic3-inn`), after Dureja, Gurfinkel, Ivrii and
//! Vizel, "IC3 with Internal Signals" (FMCAD 2021), as rIC3's `--inn` does.
//!
//! A gate whose cone holds latches and no input is a function of the current state, so a
//! literal over it is as good a cube literal as a latch's: a cube may say "the decoder's
//! output is 1" instead of naming the counter bits that make it so, and lemmas over such
//! signals are often fewer and more general. Predecessors are lifted over these signals
//! first (highest in the AIG first), so obligations, and the lemmas MIC makes of them,
//! use them where they can.
//!
//! Only signals with the same value in every initial state are taken (ternary simulation of
//! the reset values, uninitialised latches unknown): then a literal over one excludes the
//! initial states exactly when it contradicts that value, as for a latch with a reset value,
//! and a cube that contradicts none of them meets an initial state (the reset values, the
//! cube's values on uninitialised latches), which is where a counterexample starts.

use crate::aig::{simulate_frame, Lit, Node, Var};
use crate::ts::TransitionSystem;

/// The internal signals usable as state variables, lowest in the AIG first, with their value
/// in every initial state.
pub(super) fn state_signals(ts: &TransitionSystem) -> Vec<(Var, bool)> {
    let n = ts.aig.num_vars();
    // Per variable: whether an input is in its cone, and its ternary initial value.
    let mut input = vec![false; n];
    let mut init: Vec<Option<bool>> = vec![None; n];
    init[0] = Some(false);
    for &i in &ts.inputs {
        input[i.index()] = true;
    }
    for l in &ts.latches {
        init[l.var.index()] = l.init;
    }
    let value = |init: &[Option<bool>], l: Lit| init[l.var().index()].map(|v| v ^ l.is_negated());
    let mut signals = Vec::new();
    for i in 1..n {
        let v = Var(i as u32);
        if let Node::And(a, b) = ts.aig.node(v) {
            input[i] = input[a.var().index()] || input[b.var().index()];
            let reset = match (value(&init, a), value(&init, b)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            };
            init[i] = reset;
            if let (false, Some(reset)) = (input[i], init[i]) {
                signals.push((v, reset));
            }
        }
    }
    signals
}

/// The literals of `signals` that hold in the state `latches` (a literal for every latch).
pub(super) fn values(ts: &TransitionSystem, signals: &[(Var, bool)], latches: &[Lit]) -> Vec<Lit> {
    let mut state = vec![false; ts.aig.num_vars()];
    for l in latches {
        state[l.var().index()] = !l.is_negated();
    }
    // Inputs read false: no signal depends on one.
    let val = simulate_frame(&ts.aig, |v| state[v.index()]);
    (signals.iter())
        .map(|&(v, _)| v.lit().xor_sign(!val[v.index()]))
        .collect()
}
