//! k-liveness (Claessen and Sörensson, "A liveness checking algorithm that counts", FMCAD
//! 2012): a justice property holds if, for some `k`, no path visits its acceptance condition
//! more than `k` times, a safety property that IC3 proves for increasing `k`.
//!
//! Several justice literals and fairness constraints are first made one acceptance signal (the
//! usual generalised-Büchi construction): a latch `seen` per literal remembers that it held
//! since the last acceptance, and `acc` holds in a frame where every literal holds now or was
//! seen, which clears every `seen`. On a path that visits every literal infinitely often `acc`
//! holds infinitely often; so when no path (respecting the invariant constraints) has `k + 1`
//! frames with `acc`, no path is fair and the justice property holds. The bad state of the
//! `k`-th system is "`acc` now, and `k` earlier frames had `acc`" (a counter of `acc`);
//! its invariant, checked like every safety certificate ([`crate::check::run`]), is the proof.
//!
//! A counterexample for `k` proves nothing (the path may stop accepting later), so k-liveness
//! answers `unsat` or `unknown` only; `sat` answers come from the liveness-to-safety
//! encoding ([`super::l2s`]).
//!
//! Lemmas are kept from one `k` to the next, as the paper does. The counter systems of all
//! `k` have the same latches in the same order (the counter only gains high bits as `k`
//! grows) and, within one counter width, the same transitions: only the bad state moves. So
//! the lemmas of every frame of the run for `k` are offered to the run for `k + 1`, carried
//! across preprocessing by latch index ([`check::run_ic3_carrying`]). They need not hold in
//! the new system (a frame's lemma bounds only the states of its depth, and a wider counter
//! changes the transitions), so IC3 keeps only those it checks to hold initially and to be
//! inductive together relative to its F_inf; the rest are dropped.

use super::l2s::add_latch;
use crate::aig::Lit;
use crate::cert::Invariant;
use crate::check::{self, Answer, Options, Proof};
use crate::error::InternalError;
use crate::progress::Measure;
use crate::ts::TransitionSystem;
use crate::Budget;

/// What k-liveness concluded about one justice property.
#[derive(Debug)]
pub enum Outcome {
    /// The `k`-th counter system ([`counter_system`]) was proved safe: `invariant` (over that
    /// system, checked) is the proof, from which [`super::certificate`] builds a certificate.
    Holds { k: u64, invariant: Box<Invariant> },
    /// The budget ran out after proving nothing for `0..k`.
    Unknown { k: u64 },
}

/// Runs IC3 (with `opts`' IC3 settings) on the counter systems of justice property `justice`
/// of `ts` for `k = 0, 1, 2, ...` until one is proved safe or `budget` ends.
pub fn check(
    ts: &TransitionSystem,
    justice: usize,
    opts: &Options,
    budget: &Budget,
) -> Result<Outcome, InternalError> {
    let mut k = 0;
    let mut lemmas = Vec::new();
    // Its k on the status line, with the frame and lemmas of the IC3 run for that k.
    let running = budget.progress().open("klive");
    let budget = &budget.clone().with_progress(running.progress().clone());
    loop {
        if budget.expired() {
            return Ok(Outcome::Unknown { k });
        }
        running.progress().set(Measure::K, k as usize);
        let system = counter_system(ts, justice, k);
        crate::log::info(
            1,
            format_args!(
                "klive: j{justice}, k = {k}, {} lemmas carried",
                lemmas.len()
            ),
        );
        match check::run_ic3_carrying(&system, opts, budget, &mut lemmas)?.answer {
            Answer::Unsat(Proof::Invariant(invariant)) => {
                return Ok(Outcome::Holds {
                    k,
                    invariant: Box::new(invariant),
                })
            }
            // IC3 proves with an invariant; any other proof would carry no certificate.
            Answer::Unsat(_) => return Ok(Outcome::Unknown { k }),
            Answer::Sat(_) => k += 1,
            Answer::Unknown { .. } => return Ok(Outcome::Unknown { k }),
        }
    }
}

/// The safety system "acceptance is seen at most `k` times" of justice property `justice`.
///
/// Its latches are those of `ts`, then one `seen` latch per literal (the justice literals,
/// then the fairness constraints), then the [`counter_width`]`(k)` bits of the counter, least
/// significant first: the certificate ([`super::certificate`]) reads the rank from them.
pub fn counter_system(ts: &TransitionSystem, justice: usize, k: u64) -> TransitionSystem {
    let (mut out, acc) = degeneralized(ts, justice);
    // A binary counter of the frames with `acc` so far, wide enough to hold `k`.
    let width = counter_width(k);
    let mut carry = acc;
    let mut equal_k = Vec::with_capacity(width);
    for bit in 0..width {
        let (at, b) = add_latch(&mut out, "klive_count");
        let next = out.aig.xor(b, carry);
        carry = out.aig.and(b, carry);
        out.set_next(at, next);
        equal_k.push(b.xor_sign(k >> bit & 1 == 0));
    }
    let reached_k = out.aig.and_all(equal_k);
    let bad: Lit = out.aig.and(acc, reached_k);
    out.bad.push(bad);
    out.names.bad.push(Some(format!("klive_j{justice}_k{k}")));
    out
}

/// `ts` without properties, plus one `seen` latch per literal of justice property `justice`
/// (its literals, then the fairness constraints), and the acceptance signal `acc`: every
/// literal holds now or was seen since the last acceptance, which clears them. A path is fair
/// exactly when `acc` holds infinitely often on it, so one literal stands for them all (the
/// generalised-Büchi construction): k-liveness counts `acc`, and a liveness-to-safety proof
/// made for a certificate is of this system ([`super::l2s::certifiable`]).
pub fn degeneralized(ts: &TransitionSystem, justice: usize) -> (TransitionSystem, Lit) {
    let mut out = ts.without_properties();
    let mut now_or_seen = Vec::new();
    let mut seen = Vec::new();
    for &lit in ts.justice[justice].iter().chain(&ts.fairness) {
        let (at, s) = add_latch(&mut out, "klive_seen");
        now_or_seen.push(out.aig.or(s, lit));
        seen.push(at);
    }
    let acc = out.aig.and_all(now_or_seen.iter().copied());
    for (&at, &either) in seen.iter().zip(&now_or_seen) {
        let next = out.aig.and(!acc, either);
        out.set_next(at, next);
    }
    (out, acc)
}

/// The number of bits of the counter of the `k`-th counter system: enough to hold `k`.
pub fn counter_width(k: u64) -> usize {
    (64 - k.leading_zeros()).max(1) as usize
}
