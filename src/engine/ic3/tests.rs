use std::path::Path;
use std::time::Duration;

use super::*;
use crate::aig::Lit;
use crate::cert;
use crate::engine::Engine;
use crate::ts::tests::{counter, irrelevant_counter};
use crate::ts::{replay, Trace};
use options::Join;

/// The verdicts of IC3 on each SAT back end.
fn check(ts: &TransitionSystem) -> Vec<Verdict> {
    [Ic3Sat::Cadical, Ic3Sat::Cdcl]
        .map(|sat| {
            let options = Ic3Options {
                sat,
                ..Ic3Options::default()
            };
            check_with(ts, options).0
        })
        .into()
}

fn check_with(ts: &TransitionSystem, options: Ic3Options) -> (Verdict, Stats) {
    let mut ic3 = Ic3::new().with_options(options);
    let verdict = ic3.check(ts, &Budget::new(Some(Duration::from_secs(60))));
    (verdict, ic3.stats())
}

/// Each switch alone, and all of them.
fn configurations() -> Vec<Ic3Options> {
    let off = Ic3Options::default();
    let all = Ic3Options {
        ctp: true,
        parent: true,
        drop_po: 2,
        mic_attempts: 0,
        ctg_max: 5,
        ctg_limit: 4,
        po_act: 3,
        lift_min: true,
        simple_mic: true,
        dynamic_mic: true,
        inn: true,
        abs: true,
        abs_cst: true,
        // Read by the run around IC3, not by IC3 (its tests: `engine::lookahead`).
        pred_prop: false,
        join: Join::Lift,
        po_order: PoOrder::Newest,
        sat: Ic3Sat::Cadical,
    };
    vec![
        Ic3Options { ctp: true, ..off },
        Ic3Options {
            parent: true,
            ..off
        },
        Ic3Options { drop_po: 1, ..off },
        Ic3Options {
            mic_attempts: 0,
            ..off
        },
        Ic3Options { po_act: 2, ..off },
        Ic3Options {
            join: Join::Lift,
            ..off
        },
        // `ic3-ctg-deep`: CTGs blocked through their own predecessors.
        Ic3Options {
            ctg_max: 5,
            ctg_limit: 15,
            po_order: PoOrder::Deepest,
            sat: Ic3Sat::Cdcl,
            ..off
        },
        Ic3Options {
            lift_min: true,
            ..off
        },
        Ic3Options { inn: true, ..off },
        Ic3Options { abs: true, ..off },
        // `ic3-abs`: `ic3-cdcl-deepest` localizing inside.
        Ic3Options {
            abs: true,
            po_order: PoOrder::Deepest,
            sat: Ic3Sat::Cdcl,
            ..off
        },
        // `ic3-abs-cst`: `ic3-cdcl-dynamic` without the constraints at first.
        Ic3Options {
            abs_cst: true,
            dynamic_mic: true,
            po_order: PoOrder::Deepest,
            sat: Ic3Sat::Cdcl,
            ..off
        },
        Ic3Options {
            po_order: PoOrder::Newest,
            ..off
        },
        Ic3Options {
            dynamic_mic: true,
            ..off
        },
        Ic3Options {
            po_order: PoOrder::Deepest,
            sat: Ic3Sat::Cdcl,
            ..off
        },
        Ic3Options {
            simple_mic: true,
            mic_attempts: 0,
            ..off
        },
        // `ic3-light`: plain MIC that stops after 3 failed drops in a row.
        Ic3Options {
            simple_mic: true,
            ..off
        },
        all,
        Ic3Options {
            inn: true,
            sat: Ic3Sat::Cdcl,
            ..off
        },
        Ic3Options {
            sat: Ic3Sat::Cdcl,
            ..off
        },
        Ic3Options {
            sat: Ic3Sat::Cdcl,
            ..all
        },
    ]
}

fn stat(stats: &Stats, name: &str) -> u64 {
    stats.iter().find(|(k, _)| *k == name).unwrap().1
}

fn assert_safe(ts: &TransitionSystem) {
    for verdict in check(ts) {
        match verdict {
            Verdict::Safe(inv) => assert_eq!(cert::check(ts, &inv, &Budget::new(None)), Ok(())),
            v => panic!("expected safe, got {v:?}"),
        }
    }
}

/// The counterexample, checked to replay (on each back end, the same frame); returns
/// CaDiCaL's and the frame of the violation.
fn assert_unsafe(ts: &TransitionSystem) -> (Trace, usize) {
    let mut found: Vec<(Trace, usize)> = (check(ts).into_iter())
        .map(|verdict| match verdict {
            Verdict::Unsafe(t) => {
                let frame = replay(ts, &t).unwrap_or_else(|e| panic!("{e}: {t:?}"));
                assert_eq!(frame, t.depth(), "the trace ends where the property fails");
                (t, frame)
            }
            v => panic!("expected unsafe, got {v:?}"),
        })
        .collect();
    assert!(found.iter().all(|(_, f)| *f == found[0].1), "same depth");
    found.swap_remove(0)
}

/// A `width`-bit counter that wraps to 0 after `last`; `bad` lists the values that are bad.
fn wrapping(width: usize, last: u64, bad: &[u64]) -> TransitionSystem {
    let mut ts = counter(width, bad[0], false);
    let bits: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
    let value = |ts: &mut TransitionSystem, v: u64| {
        let eq: Vec<Lit> = (bits.iter().enumerate())
            .map(|(i, &b)| b.xor_sign(v >> i & 1 == 0))
            .collect();
        ts.aig.and_all(eq)
    };
    let at_last = value(&mut ts, last);
    for i in 0..width {
        let next = ts.aig.and(ts.latches[i].next, !at_last);
        ts.set_next(i, next);
    }
    ts.bad = bad.iter().map(|&v| value(&mut ts, v)).collect();
    ts.names.bad = vec![None; bad.len()];
    ts
}

#[test]
fn proves_a_mod_10_counter_safe_with_a_generalised_invariant() {
    assert_safe(&wrapping(4, 9, &[12]));
    assert_safe(&wrapping(6, 49, &[50]));
}

#[test]
fn finds_a_counter_bug_at_its_depth() {
    assert_eq!(assert_unsafe(&counter(4, 11, false)).1, 11);
    assert_eq!(assert_unsafe(&wrapping(5, 20, &[17])).1, 17);
}

#[test]
fn traces_carry_the_inputs() {
    let (t, frame) = assert_unsafe(&counter(3, 6, true));
    assert!(frame >= 6);
    assert!(t.inputs.iter().filter(|i| i[0]).count() >= 6);
}

#[test]
fn respects_constraints() {
    // Enable may only be high while bit 2 is low: 3 is still reachable.
    let mut ts = counter(3, 3, true);
    let (en, c2) = (ts.inputs[0].lit(), ts.latches[2].var.lit());
    let c = ts.aig.or(!en, !c2);
    ts.constraints.push(c);
    assert_eq!(assert_unsafe(&ts).1, 3);
    // Enable never high: the counter stays at 0.
    let mut ts = counter(3, 3, true);
    ts.constraints.push(!ts.inputs[0].lit());
    assert_safe(&ts);
    // A constraint that fails exactly in the bad state hides it.
    let mut ts = counter(3, 5, false);
    ts.constraints.push(!ts.bad[0]);
    assert_safe(&ts);
    // A constraint that fails in a state's successor does not hide the state itself.
    let mut ts = counter(3, 5, false);
    let (c0, c1, c2) = (
        ts.latches[0].var.lit(),
        ts.latches[1].var.lit(),
        ts.latches[2].var.lit(),
    );
    let six = ts.aig.and_all([!c0, c1, c2]);
    ts.constraints.push(!six);
    assert_eq!(assert_unsafe(&ts).1, 5);
}

#[test]
fn uninitialised_latches_are_free_initially() {
    // From 4 (bit 2 set) the counter reaches 7 in 3 steps.
    let mut ts = counter(3, 7, false);
    ts.latches[2].init = None;
    assert_eq!(assert_unsafe(&ts).1, 3);

    // x holds any initial value, y copies it one step late: once started, they agree.
    let mut ts = TransitionSystem::default();
    let x = ts.add_latch(None, None).lit();
    let y = ts.add_latch(Some(false), None).lit();
    let started = ts.add_latch(Some(false), None).lit();
    ts.set_next(0, x);
    ts.set_next(1, x);
    ts.set_next(2, Lit::TRUE);
    let differ = ts.aig.xor(x, y);
    let bad = ts.aig.and(started, differ);
    ts.bad.push(bad);
    assert_safe(&ts);
}

#[test]
fn reports_which_of_several_properties_fails() {
    let (t, frame) = assert_unsafe(&wrapping(4, 9, &[12, 5, 14]));
    assert_eq!((t.bad, frame), (1, 5));
    assert_safe(&wrapping(4, 9, &[12, 13, 14]));
}

#[test]
fn combinational_properties() {
    let mut ts = TransitionSystem::default();
    let x = ts.add_input(None).lit();
    ts.bad.push(x);
    assert_eq!(assert_unsafe(&ts).1, 0);
    ts.bad[0] = ts.aig.and(x, !x);
    assert_safe(&ts);
}

#[test]
fn an_expired_budget_gives_unknown() {
    let ts = wrapping(4, 9, &[12]);
    match Ic3::new().check(&ts, &Budget::new(Some(Duration::ZERO))) {
        Verdict::Unknown { depth: None } => {}
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn seeds_join_f_inf_only_when_inductive() {
    let ts = wrapping(6, 49, &[50]);
    let budget = Budget::new(None);
    let mut first = Ic3::new();
    assert!(matches!(first.check(&ts, &budget), Verdict::Safe(_)));
    let mut seeds = first.lemmas().to_vec();
    let offered = seeds.len() as u64 + 1;
    // "bit 0 is 0": true initially, false after one step.
    seeds.push(vec![!ts.latches[0].var.lit()]);
    let mut second = Ic3::new().with_seeds(seeds);
    match second.check(&ts, &budget) {
        Verdict::Safe(inv) => assert_eq!(cert::check(&ts, &inv, &budget), Ok(())),
        v => panic!("expected safe, got {v:?}"),
    }
    let stats = second.stats();
    assert_eq!(stat(&stats, "ic3_seeds"), offered);
    assert!(stat(&stats, "ic3_seeds_kept") < offered);
    assert!(stat(&stats, "ic3_queries") < stat(&first.stats(), "ic3_queries"));
}

/// k-induction puts the lemmas it fetched into its invariant, so every prefix of the pool
/// must be an inductive set: seeds that join F_inf are published too, before the lemmas
/// proved relative to them.
#[test]
fn seeds_that_join_f_inf_are_published_and_every_prefix_is_inductive() {
    let ts = wrapping(6, 49, &[50]);
    let budget = Budget::new(None);
    let mut first = Ic3::new();
    assert!(matches!(first.check(&ts, &budget), Verdict::Safe(_)));
    let pool = LemmaPool::new();
    let mut second = Ic3::new()
        .with_seeds(first.lemmas().to_vec())
        .with_lemma_pool(pool.clone());
    assert!(matches!(second.check(&ts, &budget), Verdict::Safe(_)));
    let kept = stat(&second.stats(), "ic3_seeds_kept");
    let published = pool.fetch(&mut 0);
    assert!(
        kept > 0 && published.len() as u64 >= kept,
        "{kept} seeds kept"
    );
    for n in 0..=published.len() {
        let inv = Invariant::from_clauses(&ts, &published[..n]);
        assert!(
            matches!(
                cert::check(&ts, &inv, &budget),
                Ok(()) | Err(cert::CertError::Safety)
            ),
            "the first {n} lemmas are not inductive"
        );
    }
}

#[test]
fn published_lemmas_are_invariants_and_imported_ones_are_used() {
    let ts = wrapping(6, 49, &[50]);
    let pool = LemmaPool::new();
    let budget = Budget::new(None);
    assert!(matches!(
        Ic3::new().with_lemma_pool(pool.clone()).check(&ts, &budget),
        Verdict::Safe(_)
    ));
    let published = pool.fetch(&mut 0);
    let inv = Invariant::from_clauses(&ts, &published);
    assert!(matches!(
        cert::check(&ts, &inv, &budget),
        Ok(()) | Err(cert::CertError::Safety)
    ));
    // A pool with those lemmas plus a true but non-inductive one ("not 63").
    let bits: Vec<Lit> = ts.latches.iter().map(|l| !l.var.lit()).collect();
    pool.publish([bits]);
    match Ic3::new().with_lemma_pool(pool).check(&ts, &budget) {
        Verdict::Safe(inv) => assert_eq!(cert::check(&ts, &inv, &budget), Ok(())),
        v => panic!("expected safe, got {v:?}"),
    }
}

#[test]
fn agrees_with_the_manifest_of_our_circuits() {
    manifest_agrees(Ic3Options::default());
}

#[test]
fn every_option_agrees_with_the_manifest_of_our_circuits() {
    for options in configurations() {
        manifest_agrees(options);
    }
}

/// Each switch gives right answers and does its work: CTPs are blocked on the safe counters
/// only with `ctp`, CTGs' predecessors only with `ctg_limit` above 1, lemmas name internal
/// signals only with `inn`, obligations are dropped on the buggy ones only with `drop_po` or
/// `po_act`.
#[test]
fn every_option_proves_the_counters_and_finds_their_bugs() {
    let (mut all_ctps, mut all_dropped, mut all_signal_lemmas, mut all_preds) = (0, 0, 0, 0);
    for options in configurations() {
        let (mut ctps, mut signal_lemmas, mut preds) = (0, 0, 0);
        for ts in [wrapping(6, 49, &[50]), wrapping(7, 99, &[120, 121])] {
            match check_with(&ts, options) {
                (Verdict::Safe(inv), stats) => {
                    assert_eq!(cert::check(&ts, &inv, &Budget::new(None)), Ok(()));
                    ctps += stat(&stats, "ic3_ctps");
                    signal_lemmas += stat(&stats, "ic3_signal_lemmas");
                    preds += stat(&stats, "ic3_ctg_preds");
                }
                (v, _) => panic!("{options:?}: expected safe, got {v:?}"),
            }
        }
        if !options.ctp {
            assert_eq!(ctps, 0, "{options:?}");
        }
        if !options.inn {
            assert_eq!(signal_lemmas, 0, "{options:?}");
        }
        if options.ctg_limit == 1 {
            assert_eq!(preds, 0, "{options:?}");
        }
        all_ctps += ctps;
        all_preds += preds;
        all_signal_lemmas += signal_lemmas;
        let mut dropped = 0;
        for (ts, depth) in [(counter(4, 11, false), 11), (wrapping(5, 20, &[17]), 17)] {
            match check_with(&ts, options) {
                (Verdict::Unsafe(t), stats) => {
                    assert_eq!(replay(&ts, &t).unwrap(), depth, "{options:?}");
                    dropped += stat(&stats, "ic3_obligations_dropped");
                }
                (v, _) => panic!("{options:?}: expected unsafe, got {v:?}"),
            }
        }
        if options.drop_po == 0 && options.po_act == 0 {
            assert_eq!(dropped, 0, "{options:?}");
        }
        all_dropped += dropped;
    }
    assert!(
        all_ctps > 0 && all_dropped > 0 && all_signal_lemmas > 0 && all_preds > 0,
        "{all_ctps} CTPs, {all_dropped} dropped, {all_signal_lemmas} lemmas over signals, \
         {all_preds} CTG predecessors"
    );
}

fn manifest_agrees(options: Ic3Options) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("circuits");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let model = crate::front::load(&dir.join(cols[0])).unwrap();
        let ts = &model.ts;
        match (cols[1], check_with(ts, options).0) {
            ("sat", Verdict::Unsafe(t)) => assert!(replay(ts, &t).is_ok(), "{}", cols[0]),
            ("unsat", Verdict::Safe(inv)) => {
                assert_eq!(
                    cert::check(ts, &inv, &Budget::new(None)),
                    Ok(()),
                    "{}",
                    cols[0]
                )
            }
            (expected, v) => panic!("{}: expected {expected}, got {v:?}", cols[0]),
        }
    }
}

/// Lifting gives a sub-cube of the state whose every state reaches the target; with
/// `lift_min` a sub-cube of the plain lifting (its first round is the same query).
#[test]
fn lifted_predecessors_reach_the_target_and_lift_min_shrinks_them() {
    let ts = wrapping(6, 49, &[50]);
    let budget = Budget::new(None);
    let activity = Activity::new(ts.aig.num_vars());
    let mut plain = Lifter::new(&ts, &budget, Ic3Options::default());
    let minimal = Ic3Options {
        lift_min: true,
        ..Ic3Options::default()
    };
    let mut min = Lifter::new(&ts, &budget, minimal);
    let bits: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
    let value = |v: u64| -> Cube { (0..6).map(|i| bits[i].xor_sign(v >> i & 1 == 0)).collect() };
    let (mut plain_size, mut min_size) = (0, 0);
    for v in 0..50 {
        let succ = if v == 49 { 0 } else { v + 1 };
        // The successor's two lowest bits.
        let target = [
            bits[0].xor_sign(succ & 1 == 0),
            bits[1].xor_sign(succ & 2 == 0),
        ];
        let a = plain
            .lift(&activity, value(v), &[], Target::Cube(&target))
            .unwrap();
        let b = min
            .lift(&activity, value(v), &[], Target::Cube(&target))
            .unwrap();
        assert!(cube::subsumes(&b, &a), "{v}: {b:?} not within {a:?}");
        plain_size += a.len();
        min_size += b.len();
        for state in 0..64u64 {
            let s = value(state);
            if !b.iter().all(|l| s.contains(l)) {
                continue;
            }
            let trace = Trace {
                init: (0..6).map(|i| state >> i & 1 == 1).collect(),
                inputs: vec![vec![]],
                bad: 0,
            };
            let values = crate::ts::simulate(&ts, &trace).next().unwrap();
            for t in target {
                let latch = ts.latches.iter().find(|l| l.var == t.var()).unwrap();
                let next = latch.next;
                assert!(
                    values.lit(next.xor_sign(t.is_negated())),
                    "{v}: {state} misses {t:?}"
                );
            }
        }
    }
    assert!(min_size <= plain_size);
}

/// Localization inside IC3 (`--ic3-abs`) proves a property that needs one latch of 14
/// (checked invariant) with at most that latch visible, and a bug it finds is a real one:
/// abstract chains are checked by BMC (here the counter's bits are refined in), and the
/// trace replays.
#[test]
fn localization_inside_ic3_sees_few_latches_and_finds_real_bugs() {
    let options = Ic3Options {
        abs: true,
        po_order: PoOrder::Deepest,
        sat: Ic3Sat::Cdcl,
        ..Ic3Options::default()
    };
    let ts = irrelevant_counter(12);
    let (verdict, stats) = check_with(&ts, options);
    match verdict {
        Verdict::Safe(inv) => assert_eq!(cert::check(&ts, &inv, &Budget::new(None)), Ok(())),
        v => panic!("expected safe, got {v:?}"),
    }
    assert!(stat(&stats, "ic3_abs_visible_latches") <= 1);
    let ts = counter(4, 11, true);
    let (verdict, stats) = check_with(&ts, options);
    match verdict {
        Verdict::Unsafe(t) => {
            assert_eq!(replay(&ts, &t).ok(), Some(t.depth()));
            assert!(t.depth() >= 11, "{t:?}");
        }
        v => panic!("expected unsafe, got {v:?}"),
    }
    assert!(stat(&stats, "ic3_abs_refinements") >= 1);
}

/// Constraint abstraction (`--ic3-abs-cst`) on the circuits of `circuits/` with constraints:
/// every verdict is the manifest's (invariants checked, traces replayed on the whole
/// system), and where the property fails without the constraint that blocks the bug, a
/// counterexample of the abstraction enabled it.
#[test]
fn constraint_abstraction_enables_what_a_counterexample_breaks() {
    let options = Ic3Options {
        abs_cst: true,
        ..Ic3Options::default()
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("circuits");
    for (name, refined) in [
        ("constraint_blocks_unsat.aag", true),
        ("constraint_at_bad_unsat.aag", true),
        ("constraint_init_unsat.aag", true),
        ("constraint_sat.aag", true),
        ("updown_assume_unsat.aag", true),
    ] {
        let model = crate::front::load(&dir.join(name)).unwrap();
        let ts = &model.ts;
        assert!(!ts.constraints.is_empty(), "{name}");
        let (verdict, stats) = check_with(ts, options);
        match verdict {
            Verdict::Unsafe(t) => {
                assert!(name.ends_with("_sat.aag"), "{name}: {t:?}");
                assert!(replay(ts, &t).is_ok(), "{name}");
            }
            Verdict::Safe(inv) => {
                assert!(name.ends_with("_unsat.aag"), "{name}");
                assert_eq!(cert::check(ts, &inv, &Budget::new(None)), Ok(()), "{name}");
            }
            v => panic!("{name}: {v:?}"),
        }
        let refinements = stat(&stats, "ic3_cst_refinements");
        assert_eq!(
            refinements > 0,
            refined,
            "{name}: {refinements} refinements"
        );
    }
    // A safe system whose constraint the proof does not need: proved with none enabled.
    let mut ts = irrelevant_counter(6);
    ts.constraints.push(!ts.bad[0]);
    let (verdict, stats) = check_with(&ts, options);
    match verdict {
        Verdict::Safe(inv) => assert_eq!(cert::check(&ts, &inv, &Budget::new(None)), Ok(())),
        v => panic!("irrelevant counter: {v:?}"),
    }
    assert_eq!(stat(&stats, "ic3_cst_enabled"), 0);
}
