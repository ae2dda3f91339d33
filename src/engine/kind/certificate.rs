//! The certificate of a k-induction proof: the k-copy construction.
//!
//! A k-inductive property is usually not inductive, so the invariant needs memory: the
//! system gets auxiliary latches recording a *window* of the last `k` steps, slot `j`
//! (`j = 1..=k`, slot 1 the most recent) holding the state and the inputs of `j` steps ago,
//! and a valid bit telling whether that much history exists yet (`valid_1' = 1`,
//! `valid_{j+1}' = valid_j`, all starting at 0). Slot 0 is the current state. The predicate
//! says:
//! - the valid bits form a prefix (`valid_{j+1} -> valid_j`);
//! - every valid slot `j` holds a real step into slot `j - 1`: its constraints hold, no bad
//!   literal holds, and its next state (on its recorded inputs) equals the state of slot
//!   `j - 1`;
//! - the injected lemmas hold in the current state and every valid slot;
//! - the oldest recorded state of a window shorter than `k` is an initial state.
//!
//! Why it is an inductive invariant (under the constraints, as `cert::check` asks):
//! - initiation: no slot is valid and the current state is initial (lemmas hold initially);
//! - safety: a short window is a path from an initial state of at most `k - 1` steps (the
//!   base case showed its end good); a full window is `k` good states ending in the current
//!   one (the step case showed the current state good under the lemmas);
//! - consecution: the window shifts by one; the new slot 1 is the old current state, which
//!   is good by the safety argument, with the step the transition relation just took; the
//!   lemmas are inductive on their own.

use crate::aig::{Aig, Lit};
use crate::cert::Invariant;
use crate::engine::lemmas::Lemma;
use crate::ts::TransitionSystem;

/// The k-copy invariant for a proof at depth `k` whose step case assumed `lemmas`.
pub fn k_copy(ts: &TransitionSystem, k: usize, lemmas: &[Lemma]) -> Invariant {
    let mut system = ts.clone();
    let mut conj = vec![holds(&mut system.aig, lemmas)];
    let mut newer: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
    let mut newer_valid = Lit::TRUE;
    let mut newer_inputs: Vec<Lit> = ts.inputs.iter().map(|v| v.lit()).collect();
    for j in 1..=k {
        let valid = aux(&mut system, newer_valid, format!("kind_valid[{j}]"));
        let state: Vec<Lit> = newer
            .iter()
            .enumerate()
            .map(|(i, &n)| aux(&mut system, n, format!("kind_state[{j}][{i}]")))
            .collect();
        let inputs: Vec<Lit> = newer_inputs
            .iter()
            .enumerate()
            .map(|(i, &n)| aux(&mut system, n, format!("kind_input[{j}][{i}]")))
            .collect();
        let step = real_step(ts, &mut system.aig, &state, &inputs, &newer, lemmas);
        let init = initial(ts, &newer);
        let aig = &mut system.aig;
        conj.push(aig.or(!valid, step));
        conj.push(aig.or(!valid, newer_valid));
        let shortest = aig.and(newer_valid, !valid);
        let init = aig.and_all(init);
        conj.push(aig.or(!shortest, init));
        (newer, newer_valid, newer_inputs) = (state, valid, inputs);
    }
    let predicate = system.aig.and_all(conj);
    Invariant { system, predicate }
}

/// Appends an auxiliary latch (reset to 0, the value no predicate conjunct depends on while
/// its valid bit is 0) that copies `next`.
fn aux(system: &mut TransitionSystem, next: Lit, name: String) -> Lit {
    let latch = system.latches.len();
    let v = system.add_latch(Some(false), Some(name));
    system.set_next(latch, next);
    v.lit()
}

/// "`state` with `inputs` is a good state satisfying the constraints and the lemmas, and its
/// successor is `succ`", over the literals of a window slot.
fn real_step(
    ts: &TransitionSystem,
    aig: &mut Aig,
    state: &[Lit],
    inputs: &[Lit],
    succ: &[Lit],
    lemmas: &[Lemma],
) -> Lit {
    let mut map = vec![None; ts.aig.num_vars()];
    for (l, &s) in ts.latches.iter().zip(state) {
        map[l.var.index()] = Some(s);
    }
    for (v, &i) in ts.inputs.iter().zip(inputs) {
        map[v.index()] = Some(i);
    }
    let n = ts.latches.len();
    let mut roots: Vec<Lit> = ts.latches.iter().map(|l| l.next).collect();
    roots.extend(&ts.constraints);
    roots.extend(&ts.bad);
    roots.extend(lemmas.iter().flatten());
    let images = ts.aig.copy_cone(aig, &mut map, &roots);
    let (next, rest) = images.split_at(n);
    let (constraints, rest) = rest.split_at(ts.constraints.len());
    let (bad, mut lemma_lits) = rest.split_at(ts.bad.len());
    let mut conj: Vec<Lit> = next
        .iter()
        .zip(succ)
        .map(|(&a, &b)| !aig.xor(a, b))
        .collect();
    conj.extend(constraints);
    conj.extend(bad.iter().map(|&b| !b));
    for lemma in lemmas {
        let (clause, later) = lemma_lits.split_at(lemma.len());
        conj.push(aig.or_all(clause.iter().copied()));
        lemma_lits = later;
    }
    aig.and_all(conj)
}

/// The conjunction of the lemma clauses (over the current state).
fn holds(aig: &mut Aig, lemmas: &[Lemma]) -> Lit {
    let clauses: Vec<Lit> = lemmas
        .iter()
        .map(|c| aig.or_all(c.iter().copied()))
        .collect();
    aig.and_all(clauses)
}

/// The literals saying that `state` (one literal per latch of `ts`) is an initial state.
fn initial(ts: &TransitionSystem, state: &[Lit]) -> Vec<Lit> {
    ts.latches
        .iter()
        .zip(state)
        .filter_map(|(l, &s)| l.init.map(|v| s.xor_sign(!v)))
        .collect()
}
