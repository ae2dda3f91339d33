//! The whole pipeline on small circuits: what it removes, and that traces and invariants of
//! the reduced system lift to the original.

use super::*;
use crate::aig::Lit;
use crate::cert::{check, CertError, Invariant};
use crate::engine::{bmc::Bmc, Engine, Verdict};
use crate::ts::{replay, LatchImage};

/// Adds a `width`-bit counter that increments when `en` holds (wrapping after `modulus - 1`)
/// and returns its value bits. With `complemented`, the latches store the negated bits
/// (reset 1), so the group equals another one up to negation.
fn add_counter(
    ts: &mut TransitionSystem,
    width: usize,
    modulus: u64,
    en: Lit,
    complemented: bool,
) -> Vec<Lit> {
    let first = ts.latches.len();
    let bits: Vec<Lit> = (0..width)
        .map(|_| {
            let l = ts.add_latch(Some(complemented), None).lit();
            l.xor_sign(complemented)
        })
        .collect();
    let last = value_is(ts, &bits, modulus - 1);
    let wrap = ts.aig.and(en, last);
    let mut carry = en;
    for (i, &b) in bits.iter().enumerate() {
        let next = ts.aig.xor(b, carry);
        let next = ts.aig.and(next, !wrap);
        carry = ts.aig.and(b, carry);
        ts.set_next(first + i, next.xor_sign(complemented));
    }
    bits
}

fn value_is(ts: &mut TransitionSystem, bits: &[Lit], value: u64) -> Lit {
    let eq: Vec<Lit> = bits
        .iter()
        .enumerate()
        .map(|(i, &b)| b.xor_sign(value >> i & 1 == 0))
        .collect();
    ts.aig.and_all(eq)
}

/// Two copies of a mod-`modulus` counter with a shared enable, the second stored negated;
/// bad when the first shows `a` and the second `b`.
fn twin_counters(modulus: u64, a: u64, b: u64) -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let en = ts.add_input(Some("en".into())).lit();
    let first = add_counter(&mut ts, 3, modulus, en, false);
    let second = add_counter(&mut ts, 3, modulus, en, true);
    let (x, y) = (value_is(&mut ts, &first, a), value_is(&mut ts, &second, b));
    let bad = ts.aig.and(x, y);
    ts.bad.push(bad);
    ts.names.bad.push(None);
    ts
}

fn run(ts: &TransitionSystem) -> (TransitionSystem, Restore) {
    preprocess(ts, &Budget::new(None))
}

#[test]
fn twin_counters_merge_and_their_trace_lifts() {
    let ts = twin_counters(8, 5, 5);
    let (reduced, restore) = run(&ts);
    assert_eq!(reduced.latches.len(), 3);
    for i in 0..3 {
        assert_eq!(restore.image(i), LatchImage::Kept(i));
        assert_eq!(restore.image(3 + i), LatchImage::Equivalent(i, true));
    }
    let Verdict::Unsafe(trace) = Bmc::new(Some(10)).check(&reduced, &Budget::new(None)) else {
        panic!("the reduced system is unsafe");
    };
    assert_eq!(replay(&ts, &restore.trace(&trace)), Ok(5));
}

#[test]
fn an_invariant_of_the_twins_lifts() {
    // Mod 6: neither copy reaches 7 (nor 6, which leads to 7), so (7, 7) is unreachable.
    let ts = twin_counters(6, 7, 7);
    let (reduced, restore) = run(&ts);
    assert_eq!(reduced.latches.len(), 3);
    let b: Vec<Lit> = reduced.latches.iter().map(|l| l.var.lit()).collect();
    let inv = Invariant::from_clauses(&reduced, &[vec![!b[1], !b[2]]]);
    let budget = Budget::new(None);
    assert_eq!(check(&reduced, &inv, &budget), Ok(()));
    let lifted = inv.lift(&reduced, &ts, &restore);
    assert_eq!(check(&ts, &lifted, &budget), Ok(()));
}

#[test]
fn a_stuck_latch_disappears_and_the_trivial_invariant_lifts() {
    // The bad state needs latch `stuck`, which starts at 0 and can only keep 0.
    let mut ts = twin_counters(8, 5, 5);
    let en = ts.inputs[0].lit();
    let stuck = ts.add_latch(Some(false), Some("stuck".into())).lit();
    let next = ts.aig.and(stuck, en);
    ts.set_next(6, next);
    let gated = ts.aig.and(ts.bad[0], stuck);
    ts.bad[0] = gated;
    let (reduced, restore) = run(&ts);
    assert_eq!(reduced.latches.len(), 0);
    assert_eq!(reduced.bad, vec![Lit::FALSE]);
    assert_eq!(restore.image(6), LatchImage::Constant(false));
    let inv = Invariant::from_clauses(&reduced, &[]);
    let lifted = inv.lift(&reduced, &ts, &restore);
    assert_eq!(check(&ts, &lifted, &Budget::new(None)), Ok(()));
}

#[test]
fn facts_about_latches_outside_the_reduced_cone_stay_in_the_invariant() {
    // `l` and `m` toggle in lockstep, so `k' = k | (l & !m)` keeps `k` at 0; once `m` is merged
    // into `l`, both leave the cone, but "!k" is inductive only with "l == m".
    let mut ts = TransitionSystem::default();
    let k = ts.add_latch(Some(false), Some("k".into())).lit();
    let l = ts.add_latch(Some(false), Some("l".into())).lit();
    let m = ts.add_latch(Some(false), Some("m".into())).lit();
    let diff = ts.aig.and(l, !m);
    let next = ts.aig.or(k, diff);
    ts.set_next(0, next);
    ts.set_next(1, !l);
    ts.set_next(2, !m);
    ts.bad.push(k);
    ts.names.bad.push(None);
    let budget = Budget::new(None);
    let alone = Invariant::from_clauses(&ts, &[vec![!k]]);
    assert_eq!(check(&ts, &alone, &budget), Err(CertError::Consecution));

    // With "l == m", "k == 0" is inductive too: the property is proved by preprocessing.
    let (reduced, restore) = run(&ts);
    assert_eq!(reduced.bad, vec![Lit::FALSE]);
    assert_eq!(restore.image(0), LatchImage::Constant(false));
    assert_eq!(restore.image(2), LatchImage::Dropped);
    let inv = Invariant::from_clauses(&reduced, &[]);
    let lifted = inv.lift(&reduced, &ts, &restore);
    assert_eq!(check(&ts, &lifted, &budget), Ok(()));
}

#[test]
fn constraints_are_not_assumed_where_merging_could_change_them() {
    // `a` and `b` copy the input but reset to 0 and 1; the constraint `a == b` fails in frame
    // 0, so no trace is valid. Assuming it in the checked frames "proves" a == b, and merging
    // would turn the constraint into `true` and make `bad = a` reachable.
    let mut ts = TransitionSystem::default();
    let i = ts.add_input(None).lit();
    let a = ts.add_latch(Some(false), None).lit();
    let b = ts.add_latch(Some(true), None).lit();
    ts.set_next(0, i);
    ts.set_next(1, i);
    let differ = ts.aig.xor(a, b);
    ts.constraints.push(!differ);
    ts.bad.push(a);
    ts.names.bad.push(None);
    let (reduced, _) = run(&ts);
    let verdict = Bmc::new(Some(3)).check(&reduced, &Budget::new(None));
    assert!(matches!(verdict, Verdict::Unknown { .. }));
}

#[test]
fn atoms_follow_the_latches_into_the_reduced_system() {
    // Atoms `first == 3`, `second == 4` (the second counter is merged into the first, so this
    // becomes `first == 4`) and `spare` (a latch outside every cone: dropped with it).
    let mut ts = twin_counters(8, 5, 5);
    let spare = ts.add_latch(Some(false), None);
    ts.set_next(ts.latches.len() - 1, !spare.lit());
    let bits: Vec<Vec<Lit>> = [0, 3]
        .iter()
        .map(|&k| {
            (k..k + 3)
                .map(|i| ts.latches[i].var.lit().xor_sign(k == 3))
                .collect()
        })
        .collect();
    let (first_3, second_4) = (
        value_is(&mut ts, &bits[0], 3),
        value_is(&mut ts, &bits[1], 4),
    );
    ts.atoms = vec![first_3, second_4, spare.lit()];
    let (mut reduced, _) = run(&ts);
    assert_eq!(reduced.latches.len(), 3);
    assert_eq!(reduced.atoms.len(), 2, "{:?}", reduced.atoms);
    let kept: Vec<Lit> = reduced.latches.iter().map(|l| l.var.lit()).collect();
    let mut want = vec![
        value_is(&mut reduced, &kept, 3),
        value_is(&mut reduced, &kept, 4),
    ];
    for value in 0..8u64 {
        let values = crate::aig::simulate_frame(&reduced.aig, |v| {
            kept.iter()
                .position(|l| l.var() == v)
                .is_some_and(|i| (value >> i) & 1 == 1)
        });
        let eval = |l: &Lit| values[l.var().index()] ^ l.is_negated();
        let mut got: Vec<bool> = reduced.atoms.iter().map(eval).collect();
        got.sort();
        let mut expected: Vec<bool> = want.iter().map(eval).collect();
        expected.sort();
        assert_eq!(got, expected, "first = {value}");
    }
    want.sort();
    assert_eq!(
        reduced.atoms, want,
        "the same gates, shared by structural hashing"
    );
}
