//! BMC on small counters: exact depths, bounds, constraints, windows, jumps, skipped queries
//! and the dynamic step.

use super::*;
use crate::aig::Lit;
use crate::ts::replay;
use crate::ts::tests::counter;

#[test]
fn finds_counter_bug_at_exact_depth() {
    let ts = counter(4, 11, false);
    let v = Bmc::new(None).check(&ts, &Budget::new(None));
    let Verdict::Unsafe(t) = v else {
        panic!("expected a counterexample, got {v:?}")
    };
    assert_eq!(t.depth(), 11);
    assert_eq!(replay(&ts, &t), Ok(11));
}

#[test]
fn a_jump_adds_at_most_its_gate_budget_and_at_least_one_frame() {
    assert_eq!(jump_within(50, 100_000), 50);
    assert_eq!(jump_within(50, 440_000), JUMP_GATES / 440_000);
    assert!(jump_within(50, 440_000) * 440_000 <= JUMP_GATES);
    assert_eq!(jump_within(50, JUMP_GATES * 3), 1);
    assert_eq!(jump_within(50, 0), 50);
}

#[test]
fn respects_max_depth_and_reports_the_bound() {
    let ts = counter(4, 11, false);
    match Bmc::new(Some(5)).check(&ts, &Budget::new(None)) {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(5)),
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn resuming_asks_only_the_deeper_frames_and_keeps_the_bound() {
    let ts = counter(4, 11, false);
    let mut bmc = Bmc::new(None).from_depth(8);
    let Verdict::Unsafe(t) = bmc.check(&ts, &Budget::new(None)) else {
        panic!("expected a counterexample")
    };
    assert_eq!(replay(&ts, &t), Ok(11));
    // Depths 8, 9, 10 and 11: one query each, none for the frames below.
    assert!(bmc.stats().contains(&("bmc_queries", 4)));
    match Bmc::new(Some(9))
        .from_depth(8)
        .check(&ts, &Budget::new(None))
    {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(9)),
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn constraints_hold_in_every_frame_of_the_trace() {
    // Counter with enable; constraint: enable is low in frame 0..; bad at 3.
    let mut ts = counter(3, 3, true);
    let en = ts.inputs[0].lit();
    // Constraint: the enable input may only be high when bit 2 is low (always true before 4).
    let c2 = ts.latches[2].var.lit();
    let c = ts.aig.or(!en, !c2);
    ts.constraints.push(c);
    // Step 4: the window [0, 3] holds the constraints of all its frames too.
    for step in [1, 4] {
        let mut bmc = Bmc::new(None).with_options(stepped(step));
        assert_eq!(replayed_depth(&ts, &mut bmc), 3, "step {step}");
    }
}

/// A free-running 2-bit counter, bad at 2, whose constraint "never 3" makes frame 3 a dead
/// end: the bug at frame 2 has no successor that satisfies the constraints.
pub(crate) fn dead_end_after_the_bug() -> TransitionSystem {
    let mut ts = counter(2, 2, false);
    let three = ts.aig.and(ts.latches[0].var.lit(), ts.latches[1].var.lit());
    ts.constraints.push(!three);
    ts
}

#[test]
fn a_window_past_a_dead_end_still_finds_the_bug_below_it() {
    // The window [0, 3] must not ask frame 3's constraint of the trace that is bad at 2.
    let ts = dead_end_after_the_bug();
    for step in [1, 4, 8] {
        let mut bmc = Bmc::new(None).with_options(stepped(step));
        assert_eq!(replayed_depth(&ts, &mut bmc), 2, "step {step}");
    }
    let dynamic = BmcOptions {
        dynamic: true,
        ..stepped(4)
    };
    let mut bmc = Bmc::new(None).with_options(dynamic);
    assert_eq!(replayed_depth(&ts, &mut bmc), 2, "dynamic");
}

#[test]
fn uninitialised_latches_are_free_at_frame_zero() {
    let mut ts = counter(3, 7, false);
    ts.latches[2].init = None;
    let Verdict::Unsafe(t) = Bmc::new(None).check(&ts, &Budget::new(None)) else {
        panic!("expected a counterexample")
    };
    assert_eq!(
        t.depth(),
        3,
        "from 4 (bit 2 set) the counter reaches 7 in 3 steps"
    );
    assert_eq!(replay(&ts, &t), Ok(3));
}

fn stepped(step: usize) -> BmcOptions {
    BmcOptions {
        step: NonZeroUsize::new(step).unwrap(),
        ..BmcOptions::default()
    }
}

/// The depth of the counterexample `bmc` finds on `ts`, once it has replayed there.
fn replayed_depth(ts: &TransitionSystem, bmc: &mut Bmc) -> usize {
    let v = bmc.check(ts, &Budget::new(None));
    let Verdict::Unsafe(t) = v else {
        panic!("{}: expected a counterexample, got {v:?}", bmc.name())
    };
    assert_eq!(replay(ts, &t), Ok(t.depth()));
    t.depth()
}

#[test]
fn every_bmc_configuration_finds_the_exact_depth() {
    let ts = counter(7, 100, false);
    let rows = crate::options::configs::CONFIGS
        .iter()
        .map(|c| (c.name, c.row()))
        .filter(|(_, row)| row.engine == crate::check::EngineKind::Bmc);
    let mut seen = 0;
    for (name, row) in rows.filter(|(_, row)| !row.bmc.jump) {
        let mut bmc = Bmc::new(None).with_options(row.bmc);
        assert_eq!(replayed_depth(&ts, &mut bmc), 100, "{name}");
        seen += 1;
    }
    assert!(seen >= 3, "the table has plain, stepped and dynamic BMC");
}

#[test]
fn a_step_finds_a_bug_inside_its_window_at_the_exact_depth() {
    // Windows [0, 4], [5, 9], [10, 14]: the bug at 11 is in the third, not at its end.
    let ts = counter(4, 11, false);
    let mut bmc = Bmc::new(None).with_options(stepped(5));
    assert_eq!(replayed_depth(&ts, &mut bmc), 11);
    assert_eq!(bmc.queries, 3);
}

#[test]
fn a_step_reports_the_last_window_checked_and_stops_at_max_depth() {
    // Windows [0, 4], [5, 8]: the second is cut at the bound; the bug at 11 is past it.
    let ts = counter(4, 11, false);
    let mut bmc = Bmc::new(Some(8)).with_options(stepped(5));
    match bmc.check(&ts, &Budget::new(None)) {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(8)),
        v => panic!("expected unknown, got {v:?}"),
    }
    assert_eq!((bmc.queries, bmc.frames), (2, 9));
    // A stop before the first window is done proves no bound at all.
    let budget = Budget::new(None);
    budget.stop();
    match Bmc::new(None).with_options(stepped(5)).check(&ts, &budget) {
        Verdict::Unknown { depth } => assert_eq!(depth, None),
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn a_jump_checks_every_kth_frame_only_and_replays_its_longer_trace() {
    // The counter wraps at 16 and is bad at 11: bad in frames 11, 27, 43, ...
    let ts = counter(4, 11, false);
    let jump = |step: usize| {
        let opts = BmcOptions {
            jump: true,
            ..stepped(step)
        };
        let mut bmc = Bmc::new(Some(200)).with_options(opts);
        let v = bmc.check(&ts, &Budget::new(None));
        (v, bmc.queries)
    };
    // Frames 0, 9, 18, 27: the fourth query is bad. The trace runs to 27; replaying it
    // meets the bad state first at 11.
    let (v, queries) = jump(9);
    let Verdict::Unsafe(t) = v else {
        panic!("expected a counterexample, got {v:?}")
    };
    assert_eq!((t.depth(), replay(&ts, &t), queries), (27, Ok(11), 4));
    // Frames 0, 8, 16, ...: never 11 mod 16, and no bound is claimed for skipped frames.
    match jump(8).0 {
        Verdict::Unknown { depth } => assert_eq!(depth, None),
        v => panic!("expected unknown, got {v:?}"),
    }
}

/// `counter(4, 11)` whose bad states also include the frames where the inputs place 7
/// pigeons in 6 holes: never possible, but refuting it takes a solver many conflicts.
fn counter_with_pigeons() -> TransitionSystem {
    let mut ts = counter(4, 11, false);
    let (pigeons, holes) = (7, 6);
    let p: Vec<Vec<Lit>> = (0..pigeons)
        .map(|_| (0..holes).map(|_| ts.add_input(None).lit()).collect())
        .collect();
    let mut php = Vec::new();
    for row in &p {
        php.push(ts.aig.or_all(row.iter().copied()));
    }
    for h in 0..holes {
        for (a, pa) in p.iter().enumerate() {
            for pb in &p[a + 1..] {
                let both = ts.aig.and(pa[h], pb[h]);
                php.push(!both);
            }
        }
    }
    let placed = ts.aig.and_all(php);
    ts.bad[0] = ts.aig.or(ts.bad[0], placed);
    ts
}

#[test]
fn a_query_out_of_conflicts_is_skipped_and_claims_no_bound() {
    let ts = counter_with_pigeons();
    let limited = BmcOptions {
        query_conflicts: Some(10),
        ..stepped(1)
    };
    // Frames 0..=10 need the pigeons refuted: each runs out and is skipped; frame 11 is bad.
    let mut bmc = Bmc::new(None).with_options(limited);
    assert_eq!(replayed_depth(&ts, &mut bmc), 11);
    assert!(bmc.stats().contains(&("bmc_skipped", 11)));
    // Skipped frames prove nothing: up to depth 8 no bound is claimed.
    match Bmc::new(Some(8))
        .with_options(limited)
        .check(&ts, &Budget::new(None))
    {
        Verdict::Unknown { depth } => assert_eq!(depth, None),
        v => panic!("expected unknown, got {v:?}"),
    }
    // Without a limit every frame is decided and the bound is exact.
    match Bmc::new(Some(8)).check(&ts, &Budget::new(None)) {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(8)),
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn the_dynamic_step_grows_on_cheap_queries_and_shrinks_on_dear_ones() {
    let (fast, slow) = (Duration::from_millis(1), Duration::from_secs(3));
    assert_eq!(next_step(1, fast), 2);
    assert_eq!(next_step(DYN_MAX_STEP, fast), DYN_MAX_STEP);
    assert_eq!(next_step(8, slow), 4);
    assert_eq!(next_step(1, slow), 1);
    assert_eq!(next_step(8, Duration::from_secs(1)), 8);
}
