use std::time::Duration;

use super::*;
use crate::aig::Lit;
use crate::cert::{self, tests::mod6};
use crate::ts::replay;
use crate::ts::tests::counter;

fn budget() -> Budget {
    Budget::new(Some(Duration::from_secs(60)))
}

fn assert_safe(ts: &TransitionSystem) {
    match Reach::new().check(ts, &budget()) {
        Verdict::Safe(inv) => assert_eq!(cert::check(ts, &inv, &budget()), Ok(())),
        v => panic!("expected safe, got {v:?}"),
    }
}

/// The counterexample's depth, after checking that it replays to its last frame.
fn assert_unsafe(ts: &TransitionSystem) -> usize {
    match Reach::new().check(ts, &budget()) {
        Verdict::Unsafe(t) => {
            assert_eq!(replay(ts, &t), Ok(t.depth()), "{t:?}");
            t.depth()
        }
        v => panic!("expected unsafe, got {v:?}"),
    }
}

#[test]
fn proves_the_mod6_counter_with_a_checked_invariant() {
    assert_safe(&mod6());
}

#[test]
fn finds_counter_bugs_at_their_shortest_depth() {
    assert_eq!(assert_unsafe(&counter(4, 11, false)), 11);
    assert_eq!(assert_unsafe(&counter(4, 11, true)), 11);
    assert_eq!(assert_unsafe(&counter(3, 0, false)), 0);
}

#[test]
fn constraints_cut_transitions_and_bad_states() {
    // The enable input must stay low: the counter never leaves 0.
    let mut ts = counter(3, 5, true);
    ts.constraints.push(!ts.inputs[0].lit());
    assert_safe(&ts);
    // A bad state is one where the constraint can hold: bad = "en" under "not en" is none.
    let mut ts = counter(3, 0, true);
    let en = ts.inputs[0].lit();
    ts.bad[0] = ts.aig.and(ts.bad[0], en);
    ts.constraints.push(!en);
    assert_safe(&ts);
}

#[test]
fn an_uninitialised_latch_starts_either_way() {
    let mut ts = TransitionSystem::default();
    let x = ts.add_latch(None, None).lit();
    ts.set_next(0, x);
    ts.bad.push(x);
    ts.names.bad.push(None);
    assert_eq!(assert_unsafe(&ts), 0);
}

#[test]
fn counting_invariants_are_found_exactly() {
    // Six token latches and a 3-bit count of the tokens set: each step an input sets one
    // token (by index) if it is clear and increments the count. Bad: the count differs from
    // the number of tokens, which no set of clauses over few latches says.
    let mut ts = TransitionSystem::default();
    let pick: Vec<Lit> = (0..3).map(|_| ts.add_input(None).lit()).collect();
    let tokens: Vec<Lit> = (0..6)
        .map(|_| ts.add_latch(Some(false), None).lit())
        .collect();
    let count: Vec<Lit> = (0..3)
        .map(|_| ts.add_latch(Some(false), None).lit())
        .collect();
    let mut grabbed = Lit::FALSE;
    for (t, &tok) in tokens.iter().enumerate() {
        let bits: Vec<Lit> = (0..3).map(|b| pick[b].xor_sign(t >> b & 1 == 0)).collect();
        let chosen = ts.aig.and_all(bits);
        let grab = ts.aig.and(chosen, !tok);
        grabbed = ts.aig.or(grabbed, grab);
        let next = ts.aig.or(tok, grab);
        ts.set_next(t, next);
    }
    let mut carry = grabbed;
    for (b, &c) in count.iter().enumerate() {
        let next = ts.aig.xor(c, carry);
        carry = ts.aig.and(c, carry);
        ts.set_next(6 + b, next);
    }
    // Popcount of the tokens, compared with the count bit by bit.
    let mut sum = [Lit::FALSE; 3];
    for &tok in &tokens {
        let mut carry = tok;
        for s in sum.iter_mut() {
            let next = ts.aig.xor(*s, carry);
            carry = ts.aig.and(*s, carry);
            *s = next;
        }
    }
    let differ: Vec<Lit> = (0..3).map(|b| ts.aig.xor(sum[b], count[b])).collect();
    let bad = ts.aig.or_all(differ);
    ts.bad.push(bad);
    ts.names.bad.push(None);
    assert_safe(&ts);
}

#[test]
fn a_system_with_too_many_latches_is_left_alone() {
    let ts = counter(MAX_LATCHES + 1, 3, false);
    let mut reach = Reach::new();
    assert!(matches!(
        reach.check(&ts, &budget()),
        Verdict::Unknown { depth: None }
    ));
    assert!(reach.stats().contains(&("reach_skipped", 1)));
}
