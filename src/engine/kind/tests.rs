use std::time::Duration;

use super::*;
use crate::aig::Lit;
use crate::cert;
use crate::engine::lemmas::Lemma;
use crate::ts::replay;
use crate::ts::tests::counter;

/// Guards every test against hanging: the generator tests wait for lemmas.
fn budget() -> Budget {
    Budget::new(Some(Duration::from_secs(60)))
}

fn stat(kind: &Kind, name: &str) -> u64 {
    kind.stats()
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(0, |&(_, v)| v)
}

/// Runs `kind` on `ts`, expects a proof and checks its certificate.
fn prove(kind: &mut Kind, ts: &TransitionSystem) {
    match kind.check(ts, &budget()) {
        Verdict::Safe(inv) => assert_eq!(cert::check(ts, &inv, &budget()), Ok(())),
        v => panic!("expected a proof, got {v:?}"),
    }
}

/// Two `stages`-stage shift registers fed by the same input; bad when their last stages
/// differ. Stage `i` of both agrees only `i + 1` steps after the start of a window, so the
/// property is k-inductive exactly from `k = stages`.
fn shift_pair(stages: usize) -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let input = ts.add_input(None).lit();
    let mut last = Vec::new();
    for _ in 0..2 {
        let mut prev = input;
        for _ in 0..stages {
            let latch = ts.latches.len();
            let s = ts.add_latch(Some(false), None).lit();
            ts.set_next(latch, prev);
            prev = s;
        }
        last.push(prev);
    }
    let bad = ts.aig.xor(last[0], last[1]);
    ts.bad.push(bad);
    ts.names.bad.push(None);
    ts
}

/// Two free-running `width`-bit counters in lockstep; bad when the first is 5 and the
/// second 7. Without "the counters are equal" the step case needs `k = 2^width`.
fn lockstep(width: usize) -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let mut values = Vec::new();
    for target in [5u64, 7] {
        let first = ts.latches.len();
        let bits: Vec<Lit> = (0..width)
            .map(|_| ts.add_latch(Some(false), None).lit())
            .collect();
        let mut carry = Lit::TRUE;
        for (i, &b) in bits.iter().enumerate() {
            let next = ts.aig.xor(b, carry);
            carry = ts.aig.and(b, carry);
            ts.set_next(first + i, next);
        }
        let eq: Vec<Lit> = bits
            .iter()
            .enumerate()
            .map(|(i, &b)| b.xor_sign(target >> i & 1 == 0))
            .collect();
        values.push(ts.aig.and_all(eq));
    }
    let bad = ts.aig.and(values[0], values[1]);
    ts.bad.push(bad);
    ts.names.bad.push(None);
    ts
}

/// The equivalence lemmas of [`lockstep`]: bit `i` of both counters is equal.
fn lockstep_lemmas(ts: &TransitionSystem, width: usize) -> Vec<Lemma> {
    (0..width)
        .flat_map(|i| {
            let (a, b) = (ts.latches[i].var.lit(), ts.latches[width + i].var.lit());
            [vec![!a, b], vec![a, !b]]
        })
        .collect()
}

/// An unreachable good state that loops on itself and can step to a bad one: `a` stays 0
/// from the start, `b' = a & input`, bad = `b`. The step case fails at every depth on
/// `(a=1, b=0)^k (a=1, b=1)` unless the path must be simple.
fn stuck_loop() -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let input = ts.add_input(None).lit();
    let a = ts.add_latch(Some(false), None).lit();
    let b = ts.add_latch(Some(false), None).lit();
    ts.set_next(0, a);
    let next_b = ts.aig.and(a, input);
    ts.set_next(1, next_b);
    ts.bad.push(b);
    ts.names.bad.push(None);
    ts
}

#[test]
fn shift_register_needs_k_equal_to_its_length() {
    let ts = shift_pair(4);
    let mut kind = Kind::new(None).with_generator(false);
    prove(&mut kind, &ts);
    assert_eq!(stat(&kind, "kind_depth"), 4);
    assert_eq!(stat(&kind, "kind_simple_path_proofs"), 0);
}

#[test]
fn a_mod6_counter_is_two_inductive() {
    let ts = cert::tests::mod6();
    let mut kind = Kind::new(None).with_generator(false);
    prove(&mut kind, &ts);
    assert_eq!(stat(&kind, "kind_depth"), 2);
}

#[test]
fn lockstep_counters_fail_without_the_equivalence() {
    let ts = lockstep(8);
    let mut kind = Kind::new(Some(12)).with_generator(false);
    match kind.check(&ts, &budget()) {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(12)),
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn injected_lemmas_from_the_pool_prove_at_once() {
    let ts = lockstep(8);
    let pool = LemmaPool::new();
    pool.publish(lockstep_lemmas(&ts, 8));
    let mut kind = Kind::new(Some(12))
        .with_generator(false)
        .with_lemma_pool(pool);
    prove(&mut kind, &ts);
    assert_eq!(stat(&kind, "kind_depth"), 0);
    assert_eq!(stat(&kind, "kind_lemmas"), 16);
}

#[test]
fn the_generator_finds_the_lockstep_equivalence() {
    let ts = lockstep(8);
    let mut kind = Kind::new(None);
    prove(&mut kind, &ts);
    // Without the lemmas the proof needs depth 2^8 (see the test above).
    assert!(stat(&kind, "kind_lemmas") > 0);
    assert!(stat(&kind, "kind_depth") < 256, "{:?}", kind.stats());
}

#[test]
fn a_loop_through_unreachable_states_needs_simple_path() {
    let ts = stuck_loop();
    let mut kind = Kind::new(Some(6)).with_generator(false);
    match kind.check(&ts, &budget()) {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(6)),
        v => panic!("expected unknown (a proof without certificate), got {v:?}"),
    }
    assert!(stat(&kind, "kind_simple_path_pairs") > 0);
    // From depth 2 on every step query is refuted with the distinctness constraints.
    assert_eq!(stat(&kind, "kind_simple_path_proofs"), 5);
}

#[test]
fn the_generator_makes_a_simple_path_proof_certifiable() {
    let ts = stuck_loop();
    let mut kind = Kind::new(None);
    prove(&mut kind, &ts);
    assert!(stat(&kind, "kind_generator_lemmas") > 0);
}

/// A 3-bit counter with enable that the constraint keeps at 5 once there; bad = 7. The
/// unreachable 6 loops on itself (enable low) and steps to 7: simple path is needed,
/// through a constraint over an input.
#[test]
fn constraints_over_inputs_and_simple_path() {
    let mut ts = counter(3, 7, true);
    let en = ts.inputs[0].lit();
    let l: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
    let is5 = ts.aig.and_all([l[0], !l[1], l[2]]);
    let c = ts.aig.or(!is5, !en);
    ts.constraints.push(c);
    let mut kind = Kind::new(Some(4)).with_generator(false);
    assert!(matches!(
        kind.check(&ts, &budget()),
        Verdict::Unknown { depth: Some(4) }
    ));
    assert!(stat(&kind, "kind_simple_path_proofs") > 0);
    prove(&mut Kind::new(None), &ts);
}

#[test]
fn a_bad_state_excluded_by_the_constraints_is_zero_inductive() {
    let mut ts = counter(2, 3, false);
    let bits: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
    let c = ts.aig.or(!bits[0], !bits[1]);
    ts.constraints.push(c);
    let mut kind = Kind::new(None).with_generator(false);
    prove(&mut kind, &ts);
    assert_eq!(stat(&kind, "kind_depth"), 0);
}

#[test]
fn finds_counterexamples_that_replay() {
    let ts = counter(4, 11, false);
    let Verdict::Unsafe(t) = Kind::new(None).check(&ts, &budget()) else {
        panic!("expected a counterexample")
    };
    assert_eq!(replay(&ts, &t), Ok(11));

    let mut ts = counter(3, 6, true);
    ts.latches[2].init = None;
    let Verdict::Unsafe(t) = Kind::new(None).check(&ts, &budget()) else {
        panic!("expected a counterexample")
    };
    assert_eq!(
        t.depth(),
        2,
        "from 4 the enabled counter reaches 6 in 2 steps"
    );
    assert_eq!(replay(&ts, &t), Ok(2));
}

#[test]
fn the_base_case_reaches_a_deep_bug_in_windows() {
    // A free-running 8-bit counter is bad at 200, reached in exactly 200 steps.
    let ts = counter(8, 200, false);
    let mut kind = Kind::new(None).with_generator(false);
    let Verdict::Unsafe(t) = kind.check(&ts, &budget()) else {
        panic!("expected a counterexample")
    };
    assert_eq!(replay(&ts, &t), Ok(200));
    // Cheap queries grow the window: far fewer queries than frames.
    let queries = stat(&kind, "kind_base_queries");
    assert!(queries < 50, "{queries} base-case queries");
}

#[test]
fn a_base_case_window_past_a_dead_end_finds_the_bug_below_it() {
    // Frame 2 is bad, frame 3 violates the constraints: k-induction must find the bug, and
    // never prove the property at depth 2 on a window that hid it.
    let ts = crate::engine::bmc::tests::dead_end_after_the_bug();
    let Verdict::Unsafe(t) = Kind::new(None).with_generator(false).check(&ts, &budget()) else {
        panic!("expected a counterexample")
    };
    assert_eq!(replay(&ts, &t), Ok(2));
}

#[test]
fn an_expired_budget_answers_unknown() {
    let ts = lockstep(8);
    let budget = Budget::new(Some(Duration::ZERO));
    let v = Kind::new(None).check(&ts, &budget);
    assert!(matches!(v, Verdict::Unknown { depth: None }), "{v:?}");
}
