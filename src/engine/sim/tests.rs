use std::time::Duration;

use super::*;
use crate::aig::Lit;
use crate::ts::replay;
use crate::ts::tests::{counter, irrelevant_counter};

fn budget(secs: u64) -> Budget {
    Budget::new(Some(Duration::from_secs(secs)))
}

/// The trace the simulation finds, after checking that it replays (initial state,
/// constraints in every frame, the bad state in its last frame).
fn found(ts: &TransitionSystem) -> Trace {
    match Sim::default().check(ts, &budget(60)) {
        Verdict::Unsafe(t) => {
            assert_eq!(replay(ts, &t), Ok(t.depth()), "{t:?}");
            t
        }
        v => panic!("expected a counterexample, got {v:?}"),
    }
}

/// A `width`-bit counter that counts the frames in a row in which input `en` is high and
/// falls back to 0 when it is low; bad at `target`. Uniform random inputs reach `target`
/// with probability `2^-target` per try.
fn streak(width: usize, target: u64) -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let en = ts.add_input(Some("en".into())).lit();
    let bits: Vec<Lit> = (0..width)
        .map(|i| ts.add_latch(Some(false), Some(format!("c[{i}]"))).lit())
        .collect();
    let mut carry = Lit::TRUE;
    for (i, &b) in bits.iter().enumerate() {
        let sum = ts.aig.xor(b, carry);
        carry = ts.aig.and(b, carry);
        let next = ts.aig.and(en, sum);
        ts.set_next(i, next);
    }
    let eq: Vec<Lit> = (bits.iter().enumerate())
        .map(|(i, &b)| b.xor_sign(target >> i & 1 == 0))
        .collect();
    let bad = ts.aig.and_all(eq);
    ts.bad.push(bad);
    ts.names.bad.push(None);
    ts
}

#[test]
fn finds_a_counter_bug_that_needs_enabled_frames() {
    let t = found(&counter(7, 100, true));
    assert!(t.depth() >= 100);
}

#[test]
fn finds_a_bug_behind_a_long_streak_of_one_input_value() {
    let t = found(&streak(7, 90));
    // The last 90 frames before the bad one all enable the counter.
    let frames = t.inputs.len();
    assert!(t.inputs[frames - 91..frames - 1].iter().all(|f| f[0]));
}

#[test]
fn traces_keep_every_invariant_constraint() {
    // Constraint: a second input, free otherwise, must stay high; runs that drop it restart.
    let mut ts = counter(6, 40, true);
    let keep = ts.add_input(Some("keep".into())).lit();
    ts.constraints.push(keep);
    let t = found(&ts);
    assert!(t.inputs.iter().all(|f| f[1]));
}

#[test]
fn reaches_bad_states_of_uninitialised_latches_from_their_random_start() {
    let mut ts = counter(5, 17, true);
    for l in &mut ts.latches {
        l.init = None;
    }
    found(&ts);
}

#[test]
fn a_safe_system_stays_unknown_without_a_bound() {
    let mut sim = Sim::default();
    let verdict = sim.check(
        &irrelevant_counter(4),
        &Budget::new(Some(Duration::from_millis(200))),
    );
    assert!(
        matches!(verdict, Verdict::Unknown { depth: None }),
        "{verdict:?}"
    );
    let frames = sim.stats().iter().find(|s| s.0 == "sim_frames").unwrap().1;
    assert!(frames > 0);
}
