use std::time::Duration;

use super::*;
use crate::aig::Lit;

fn budget() -> Budget {
    Budget::new(Some(Duration::from_secs(60)))
}

/// A 2-bit counter that counts when its enable input is high (always when `enable` is false),
/// a latch `wrapped` set once it goes from 3 to 0, and the justice property "never wraps"
/// (`!wrapped` infinitely often, which for a latch that stays set means forever). With
/// `fair`, the enable is a fairness constraint.
pub(crate) fn counter_wrap(enable: bool, fair: bool) -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let en = match enable {
        true => ts.add_input(Some("en".into())).lit(),
        false => Lit::TRUE,
    };
    let b0 = ts.add_latch(Some(false), None).lit();
    let b1 = ts.add_latch(Some(false), None).lit();
    let wrapped = ts.add_latch(Some(false), None).lit();
    let n0 = ts.aig.xor(b0, en);
    let carry = ts.aig.and(b0, en);
    let n1 = ts.aig.xor(b1, carry);
    let wraps = ts.aig.and(b1, carry);
    let nw = ts.aig.or(wrapped, wraps);
    ts.set_next(0, n0);
    ts.set_next(1, n1);
    ts.set_next(2, nw);
    ts.justice.push(vec![!wrapped]);
    if fair {
        ts.fairness.push(en);
    }
    ts
}

fn with(engine: EngineKind) -> Options {
    Options::new(engine)
}

#[test]
fn a_counter_that_may_stop_has_a_lasso_that_replays() {
    let ts = counter_wrap(true, false);
    for engine in [
        EngineKind::Bmc,
        EngineKind::Ic3,
        EngineKind::Kind,
        EngineKind::Portfolio,
    ] {
        let r = check(&ts, 0, &with(engine), &budget()).unwrap();
        let LiveAnswer::Sat(l) = &r.answer else {
            panic!("{engine:?}: expected a lasso, got {:?}", r.answer)
        };
        assert_eq!(lasso::check(&ts, &l.trace), Ok(l.loop_start), "{engine:?}");
        assert!(l.loop_start < l.trace.inputs.len());
    }
}

#[test]
fn a_counter_that_always_counts_or_is_fair_wraps() {
    for (ts, fair) in [
        (counter_wrap(false, false), false),
        (counter_wrap(true, true), true),
    ] {
        // k-induction on the l2s system of the fair counter meets arbitrarily long idle
        // stretches before a count closes the loop: no k-step proof without invariants.
        let kind = (!fair).then_some(EngineKind::Kind);
        let engines = [EngineKind::Ic3, EngineKind::Klive, EngineKind::Portfolio];
        for engine in engines.into_iter().chain(kind) {
            let r = check(&ts, 0, &with(engine), &budget()).unwrap();
            assert!(
                matches!(r.answer, LiveAnswer::Unsat { .. }),
                "{engine:?}: {:?}",
                r.answer
            );
        }
        let bounded = Options {
            max_depth: Some(12),
            ..with(EngineKind::Bmc)
        };
        let r = check(&ts, 0, &bounded, &budget()).unwrap();
        assert!(
            matches!(r.answer, LiveAnswer::Unknown),
            "bmc: {:?}",
            r.answer
        );
    }
}

#[test]
fn k_liveness_needs_the_acceptance_bound_of_the_counter() {
    // Nothing accepts after the wrap: `!wrapped` holds in frames 0..=3 only, so every path
    // accepts 4 times and the counter system with `k = 4` is the first that is safe.
    let ts = counter_wrap(false, false);
    for k in 0..4 {
        let r = check_counter(&ts, k);
        assert!(matches!(r, Answer::Sat(_)), "k = {k}: {r:?}");
    }
    assert!(matches!(check_counter(&ts, 4), Answer::Unsat(_)));
}

fn check_counter(ts: &TransitionSystem, k: u64) -> Answer {
    let system = klive::counter_system(ts, 0, k);
    check::run(&system, &with(EngineKind::Ic3), &budget())
        .unwrap()
        .answer
}

#[test]
fn a_trace_that_does_not_close_or_misses_a_literal_is_no_lasso() {
    let ts = counter_wrap(true, false);
    let trace = |inputs: &[bool]| Trace {
        init: vec![false; 3],
        inputs: inputs.iter().map(|&b| vec![b]).collect(),
        bad: 0,
    };
    // Idling closes at once; counting once does not return.
    assert_eq!(lasso::check(&ts, &trace(&[false])), Ok(0));
    assert_eq!(lasso::check(&ts, &trace(&[false, false])), Ok(0));
    let no_loop = Err(lasso::LassoError::NoLoop { justice: 0 });
    assert_eq!(lasso::check(&ts, &trace(&[true])), no_loop);
    // Four counts return to 0 but the counter has wrapped, and `wrapped` stays set.
    assert_eq!(lasso::check(&ts, &trace(&[true; 4])), no_loop);
    // With the enable as fairness, an idle loop misses it.
    let mut fair = ts.clone();
    fair.fairness.push(fair.inputs[0].lit());
    assert_eq!(lasso::check(&fair, &trace(&[false])), no_loop);
}
