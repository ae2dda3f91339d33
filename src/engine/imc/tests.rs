use std::time::Duration;

use super::*;
use crate::cert::{self, tests::mod6};
use crate::ts::replay;
use crate::ts::tests::counter;

fn budget() -> Budget {
    Budget::new(Some(Duration::from_secs(60)))
}

fn assert_safe(ts: &TransitionSystem, system: System) {
    match Imc::new(None).with_system(system).check(ts, &budget()) {
        Verdict::Safe(inv) => assert_eq!(cert::check(ts, &inv, &budget()), Ok(())),
        v => panic!("expected safe, got {v:?}"),
    }
}

/// The counterexample's depth, after checking that it replays to its last frame.
fn assert_unsafe(ts: &TransitionSystem) -> usize {
    match Imc::new(None).check(ts, &budget()) {
        Verdict::Unsafe(t) => {
            assert_eq!(replay(ts, &t), Ok(t.depth()), "{t:?}");
            t.depth()
        }
        v => panic!("expected unsafe, got {v:?}"),
    }
}

#[test]
fn proves_the_mod6_counter_with_both_systems() {
    assert_safe(&mod6(), System::McMillan);
    assert_safe(&mod6(), System::Pudlak);
}

#[test]
fn finds_the_counter_bug_at_its_depth() {
    assert_eq!(assert_unsafe(&counter(4, 11, false)), 11);
    assert_eq!(assert_unsafe(&counter(3, 0, false)), 0);
}

#[test]
fn latches_with_one_next_state_function_stay_apart() {
    // Two latches load the same input; bad when they differ. With one shared variable per
    // next-state function the interpolant could not tell the latches apart.
    let mut ts = TransitionSystem::default();
    let x = ts.add_input(None).lit();
    let a = ts.add_latch(Some(false), None).lit();
    let b = ts.add_latch(Some(false), None).lit();
    // A shift stage too: c copies a.
    let c = ts.add_latch(Some(false), None).lit();
    ts.set_next(0, x);
    ts.set_next(1, x);
    ts.set_next(2, a);
    let differ = ts.aig.xor(a, b);
    let bad = ts.aig.and(differ, !c);
    ts.bad.push(bad);
    ts.names.bad.push(None);
    assert_safe(&ts, System::McMillan);
    assert_safe(&ts, System::Pudlak);
}

#[test]
fn constraints_hold_up_to_the_bad_frame() {
    // Counter with enable, which must stay low once bit 2 is set: 7 is never reached.
    let mut ts = counter(3, 7, true);
    let en = ts.inputs[0].lit();
    let c2 = ts.latches[2].var.lit();
    let c = ts.aig.or(!en, !c2);
    ts.constraints.push(c);
    assert_safe(&ts, System::McMillan);
    // Bad at 2; the constraint excludes 3, which only comes after the bad frame.
    let mut ts = counter(3, 2, false);
    let is3 = ts.aig.and_all([
        ts.latches[0].var.lit(),
        ts.latches[1].var.lit(),
        !ts.latches[2].var.lit(),
    ]);
    ts.constraints.push(!is3);
    assert_eq!(assert_unsafe(&ts), 2);
    // Excluding 2 itself: no path of more than two frames satisfies the constraints.
    let mut ts = counter(3, 2, false);
    let is2 = ts.bad[0];
    ts.constraints.push(!is2);
    assert_safe(&ts, System::McMillan);
}

#[test]
fn uninitialised_latches_are_free_at_frame_zero() {
    let mut ts = counter(3, 7, false);
    ts.latches[2].init = None;
    assert_eq!(assert_unsafe(&ts), 3);
}

#[test]
fn respects_the_bound() {
    let ts = counter(5, 30, false);
    match Imc::new(Some(4)).check(&ts, &budget()) {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(4)),
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn counterexample_trace_respects_constraints_in_every_frame() {
    // A counter to 4 with a `jump` input that loads 4 at once, forbidden by a constraint: the
    // only traces count for 4 transitions.
    let mut ts = counter(3, 4, true);
    let jump = ts.add_input(Some("jump".into())).lit();
    for i in 0..3 {
        let load = if i == 2 {
            aig::Lit::TRUE
        } else {
            aig::Lit::FALSE
        };
        let next = ts.aig.mux(jump, load, ts.latches[i].next);
        ts.set_next(i, next);
    }
    ts.constraints.push(!jump);
    assert_eq!(assert_unsafe(&ts), 4);
}
