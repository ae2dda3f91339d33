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
    preprocess(ts, &PrepOptions::default(), &Budget::new(None))
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

/// The twin counters, bad only when also two gates of one function (`x & (y & z)` and
/// `(x & y) & z`, which functional reduction merges) hold and a latch fed by a chain of
/// XORs of `chain` gates in all is 0 (XORs of inputs: random simulation tells every gate of
/// the chain apart, so the sweeps are fast on it).
fn twins_with_a_chain(chain: usize) -> TransitionSystem {
    let mut ts = twin_counters(8, 5, 5);
    let [x, y, z] = [0; 3].map(|_| ts.add_input(None).lit());
    let (yz, xy) = (ts.aig.and(y, z), ts.aig.and(x, y));
    let (g1, g2) = (ts.aig.and(x, yz), ts.aig.and(xy, z));
    let either = ts.aig.or(g1, g2);
    let wide = ts.add_latch(Some(false), None).lit();
    let mut next = ts.add_input(None).lit();
    for _ in 0..chain / 3 {
        let i = ts.add_input(None).lit();
        next = ts.aig.xor(next, i);
    }
    let last = ts.latches.len() - 1;
    ts.set_next(last, next);
    let bad = ts.aig.and_all(vec![ts.bad[0], either, !wide]);
    ts.bad[0] = bad;
    ts
}

#[test]
fn sweeping_passes_skip_systems_from_their_gate_limit_on() {
    let only = |prep| PrepOptions {
        prep,
        ..PrepOptions::default()
    };
    let (fraig, coi) = (only(vec![PrepPass::Fraig]), only(vec![]));
    let gates = |ts: &TransitionSystem, opts: &PrepOptions| {
        preprocess(ts, opts, &Budget::new(None)).0.aig.num_ands()
    };
    // Small: scorr merges the twins, fraig the two gates.
    let small = twins_with_a_chain(10);
    assert_eq!(run(&small).0.latches.len(), 3 + 1);
    assert!(gates(&small, &fraig) < gates(&small, &coi));
    // From the limit on, neither pass runs.
    let large = twins_with_a_chain(SWEEP_MAX_GATES + 3);
    assert!(gates(&large, &coi) >= SWEEP_MAX_GATES);
    assert_eq!(run(&large).0.latches.len(), 3 + 3 + 1);
    assert_eq!(gates(&large, &fraig), gates(&large, &coi));
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

/// The conjunction of `lits`, built so that no gate reads only latches:
/// `(en & l1 & l2 ...) | (!en & l1 & l2 ...)` for an input `en`. The sequential phase of
/// signal correspondence assumes only candidates over latches, so gates like these hide the
/// state from it.
fn and_through_input(ts: &mut TransitionSystem, en: Lit, lits: &[Lit]) -> Lit {
    let mut chain = |first| lits.iter().fold(first, |acc, &l| ts.aig.and(acc, l));
    let (on, off) = (chain(en), chain(!en));
    ts.aig.or(on, off)
}

/// Two mod-3 counters from 0, bits (a1, a0) and (b1, b0), in lockstep: 0 -> 1 -> 2 -> 0. They
/// differ only in the unreachable value 3, which the first leaves for 0 and the second keeps,
/// so `a == b` fails a 1-step induction (from 3) but is 2-inductive: no state leads the first
/// counter to 3. Bad when the first shows `x` and the second `y`.
fn mod3_twins(x: u64, y: u64) -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let en = ts.add_input(Some("en".into())).lit();
    let a: Vec<Lit> = (0..2)
        .map(|_| ts.add_latch(Some(false), None).lit())
        .collect();
    let b: Vec<Lit> = (0..2)
        .map(|_| ts.add_latch(Some(false), None).lit())
        .collect();
    let a0 = and_through_input(&mut ts, en, &[!a[0], !a[1]]);
    let a1 = and_through_input(&mut ts, en, &[a[0], !a[1]]);
    let zero = and_through_input(&mut ts, en, &[!b[0], !b[1]]);
    let three = and_through_input(&mut ts, en, &[b[0], b[1]]);
    let b0 = ts.aig.or(zero, three);
    for (i, next) in [a0, a1, b0, b[0]].into_iter().enumerate() {
        ts.set_next(i, next);
    }
    let shows = |bits: &[Lit], value: u64| -> Vec<Lit> {
        (0..2)
            .map(|i| bits[i].xor_sign(value >> i & 1 == 0))
            .collect()
    };
    let both = [shows(&a, x), shows(&b, y)].concat();
    let bad = and_through_input(&mut ts, en, &both);
    ts.bad.push(bad);
    ts.names.bad.push(None);
    ts
}

fn with_depth(
    ts: &TransitionSystem,
    passes: &[PrepPass],
    depth: u16,
) -> (TransitionSystem, Restore) {
    let opts = PrepOptions {
        prep: passes.to_vec(),
        scorr_depth: depth,
    };
    preprocess(ts, &opts, &Budget::new(None))
}

#[test]
fn two_step_signal_correspondence_merges_what_one_step_cannot() {
    let mut ts = mod3_twins(2, 1);
    // A latch and an input outside every cone: the window does not record them.
    let spare = ts.add_input(None).lit();
    let toggle = ts.add_latch(Some(false), None).lit();
    let next = ts.aig.xor(toggle, spare);
    ts.set_next(4, next);
    let (one_step, _) = with_depth(&ts, &[PrepPass::Scorr], 1);
    assert_eq!(one_step.latches.len(), 4);
    assert_ne!(one_step.bad, vec![Lit::FALSE]);

    // "a shows 2 and b shows 1" became "a shows 2 and 1": preprocessing proved it (and the
    // cone of influence then dropped every latch), and the invariant that says so (the facts,
    // over a window of one past step) checks on the original system, where the facts alone
    // are not inductive.
    let (reduced, restore) = with_depth(&ts, &[PrepPass::Scorr], 2);
    assert_eq!(reduced.bad, vec![Lit::FALSE]);
    assert_eq!(restore.facts().depth(), 2);
    let inv = Invariant::from_clauses(&reduced, &[]);
    let lifted = inv.lift(&reduced, &ts, &restore);
    // One past step: its valid bit, the four counter latches and their input.
    assert_eq!(lifted.aux_latches(&ts), 1 + 4 + 1);
    let budget = Budget::new(None);
    assert_eq!(check(&ts, &lifted, &budget), Ok(()));
    // Without the window, the facts are not inductive (from the value 3).
    let mut system = ts.clone();
    let latches: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
    let facts = restore.facts().copy_into(&mut system.aig, &latches);
    let predicate = system.aig.and_all(facts);
    let bare = Invariant { system, predicate };
    assert_eq!(check(&ts, &bare, &budget), Err(CertError::Consecution));
}

#[test]
fn a_trace_of_the_two_step_reduction_lifts() {
    let ts = mod3_twins(2, 2);
    let (reduced, restore) = with_depth(&ts, &[PrepPass::Scorr], 3);
    assert_eq!(reduced.latches.len(), 2);
    assert_eq!(restore.image(2), LatchImage::Equivalent(0, false));
    assert_eq!(restore.image(3), LatchImage::Equivalent(1, false));
    let Verdict::Unsafe(trace) = Bmc::new(Some(10)).check(&reduced, &Budget::new(None)) else {
        panic!("the reduced system is unsafe");
    };
    assert_eq!(replay(&ts, &restore.trace(&trace)), Ok(2));
}

#[test]
fn an_engine_invariant_lifts_through_a_deep_reduction() {
    // Bad when the merged counter shows 3, which it never does: IC3's invariant over the
    // reduced system, with the facts of a 2-step induction, is an invariant of the original.
    let ts = mod3_twins(3, 3);
    let (reduced, restore) = with_depth(&ts, &PrepOptions::default().prep, 2);
    assert_eq!(reduced.latches.len(), 2);
    let budget = Budget::new(None);
    let Verdict::Safe(inv) = crate::engine::ic3::Ic3::new().check(&reduced, &budget) else {
        panic!("the reduced system is safe");
    };
    let lifted = inv.lift(&reduced, &ts, &restore);
    assert_eq!(check(&ts, &lifted, &budget), Ok(()));
}

#[test]
fn functional_reduction_merges_equal_gates_but_not_reachably_equal_ones() {
    // (x & y) & z and x & (y & z) are equal in every state; the mod-3 twins' latches are equal
    // only in reachable states, so FRAIG keeps all four, and so does the unreachable value 3.
    let mut ts = mod3_twins(2, 2);
    let (x, y, z) = (
        ts.latches[0].var.lit(),
        ts.latches[1].var.lit(),
        ts.inputs[0].lit(),
    );
    let xy = ts.aig.and(x, y);
    let left = ts.aig.and(xy, z);
    let yz = ts.aig.and(y, z);
    let right = ts.aig.and(x, yz);
    let differ = ts.aig.xor(left, right);
    ts.bad.push(differ);
    ts.names.bad.push(None);
    ts.bad.push(xy);
    ts.names.bad.push(None);
    let (reduced, restore) = with_depth(&ts, &[PrepPass::Fraig], 1);
    assert_eq!(reduced.latches.len(), 4);
    assert_eq!(reduced.bad[1], Lit::FALSE);
    assert_ne!(reduced.bad[2], Lit::FALSE);
    assert!(reduced.aig.num_ands() < ts.aig.num_ands());
    // The first property's trace still lifts: FRAIG keeps every transition.
    let Verdict::Unsafe(trace) = Bmc::new(Some(10)).check(&reduced, &Budget::new(None)) else {
        panic!("the reduced system is unsafe");
    };
    let lifted = restore.trace(&trace);
    assert_eq!(replay(&ts, &lifted), Ok(2));
}
