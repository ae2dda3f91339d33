//! The SMT engine against the word-level semantics ([`crate::wl::eval`]) and the simulator:
//! every operator at widths around the 64-bit piece boundary, counterexamples that replay on
//! the model and, lowered, on the blasted system, and stops.

use super::*;
use crate::rng::Rng;
use crate::wl::{eval, Binary, Op, Unary};

fn random(rng: &mut Rng, w: u32) -> BitVec {
    let bits: Vec<bool> = (0..w).map(|_| rng.next_u64() & 1 == 1).collect();
    BitVec::from_bits(&bits)
}

/// A model with inputs `a`, `b` pinned to `x`, `y` by constraints, and one bad property per
/// operator: its result on `a`, `b` differs from (`agree`: equals) the reference value on
/// `x`, `y`. The operator of bad property `i` is `names[i]`.
fn operators(x: &BitVec, y: &BitVec, agree: bool) -> (Model, Vec<String>) {
    let w = x.width();
    let mut m = Model::new();
    let a = m.add_input(Sort::Bv(w), Some("a".into()));
    let b = m.add_input(Sort::Bv(w), Some("b".into()));
    for (input, value) in [(a, x), (b, y)] {
        let c = m.constant_term(value.clone());
        let pinned = m.apply(Op::Binary(Binary::Eq), &[input, c]).unwrap();
        m.add_constraint(pinned).unwrap();
    }
    let mut names = Vec::new();
    let mut cases: Vec<(Op, Vec<TermId>, BitVec)> = Unary::ALL
        .into_iter()
        .map(|u| (Op::Unary(u), vec![a], eval::unary(u, x)))
        .collect();
    for op in Binary::ALL {
        if !matches!(op, Binary::Iff | Binary::Implies) || w == 1 {
            cases.push((Op::Binary(op), vec![a, b], eval::binary(op, x, y)));
        }
    }
    let compare = match agree {
        true => Binary::Eq,
        false => Binary::Neq,
    };
    for (op, args, expected) in cases {
        names.push(op.name().to_owned());
        let got = m.apply(op, &args).unwrap();
        let expected = m.constant_term(expected);
        let bad = m.apply(Op::Binary(compare), &[got, expected]).unwrap();
        m.add_bad(bad, None).unwrap();
    }
    (m, names)
}

#[test]
fn every_operator_matches_the_semantics_at_widths_1_to_100() {
    let mut rng = Rng(0x0005_eed0_f2a3);
    for w in [1, 2, 7, 32, 63, 64, 65, 100] {
        for _ in 0..3 {
            let (x, y) = (random(&mut rng, w), random(&mut rng, w));
            let (m, names) = operators(&x, &y, false);
            match SmtBmc::new(Some(0)).check(&m, &Budget::new(None)) {
                Outcome::Unknown { depth, note } => assert_eq!((depth, note), (Some(0), None)),
                Outcome::Unsafe(t) => panic!(
                    "width {w}: {} disagrees with the semantics on {x:?}, {y:?}",
                    names[t.bad]
                ),
                Outcome::Safe { .. } => unreachable!("BMC proves nothing"),
            }
            // And the check can fail: a property that holds is found in frame 0.
            let (m, _) = operators(&x, &y, true);
            match SmtBmc::new(Some(0)).check(&m, &Budget::new(None)) {
                Outcome::Unsafe(t) => assert_eq!(crate::wl::replay(&m, &t), Ok(0)),
                other => panic!("width {w}: no counterexample found: {other:?}"),
            }
        }
    }
}

/// Shifts and rotations on the amounts where btorsim's readings part from SMT-LIB's
/// ([`crate::testing::shift_amounts`]): per width one model whose input `a` is pinned to a
/// random value and whose bad property per operator and amount holds when Z3's result differs
/// from the simulator's. No counterexample in frame 0: they agree on every one.
#[test]
fn shifts_and_rotations_match_the_semantics_on_amounts_with_high_bits() {
    let mut rng = Rng(0x5411_f7ed);
    for w in [1, 8, 32, 33, 63, 64, 65, 100] {
        let x = random(&mut rng, w);
        let mut m = Model::new();
        let a = m.add_input(Sort::Bv(w), Some("a".into()));
        let c = m.constant_term(x.clone());
        let pinned = m.apply(Op::Binary(Binary::Eq), &[a, c]).unwrap();
        m.add_constraint(pinned).unwrap();
        let mut names = Vec::new();
        for y in crate::testing::shift_amounts(w, &mut rng) {
            let b = m.constant_term(y.clone());
            for op in crate::testing::SHIFTS {
                let got = m.apply(Op::Binary(op), &[a, b]).unwrap();
                let expected = m.constant_term(eval::binary(op, &x, &y));
                let bad = m.apply(Op::Binary(Binary::Neq), &[got, expected]).unwrap();
                m.add_bad(bad, None).unwrap();
                names.push(format!("{} by {y:?}", op.name()));
            }
        }
        match SmtBmc::new(Some(0)).check(&m, &Budget::new(None)) {
            Outcome::Unknown { depth, note } => assert_eq!((depth, note), (Some(0), None)),
            Outcome::Unsafe(t) => panic!(
                "width {w}: {} on {x:?} disagrees with the semantics",
                names[t.bad]
            ),
            Outcome::Safe { .. } => unreachable!("BMC proves nothing"),
        }
    }
}

/// A counter with a memory it writes its value to, a free state and a state initialised
/// from another: bad in frame 5 with the memory's initial contents (never written) read.
const MEMORY: &str = "\
1 sort bitvec 4
2 sort array 1 1
3 sort bitvec 1
4 zero 1
5 one 1
6 state 1 cnt
7 init 1 6 4
8 add 1 6 5
9 next 1 6 8
10 state 2 mem
11 input 1 addr
12 write 2 10 11 6
13 next 2 10 12
14 state 1 free
15 init 1 14 6
16 constd 1 5
17 eq 3 6 16
18 read 1 10 11
19 constd 1 9
20 eq 3 18 19
21 constd 1 3
22 eq 3 14 21
23 and 3 17 20
24 and 3 23 22
25 bad 24
";

#[test]
fn a_counterexample_replays_on_the_model_and_lowered_on_the_blasted_system() {
    let m = crate::front::btor2::parse(MEMORY).unwrap();
    let Outcome::Unsafe(t) = SmtBmc::new(None).check(&m, &Budget::new(None)) else {
        panic!("the bug at frame 5 was not found")
    };
    assert_eq!(crate::wl::replay(&m, &t), Ok(5));
    let (ts, bits) = crate::wl::blast(&m, &Budget::new(None)).unwrap();
    let lowering = crate::wl::Lowering::new(&ts);
    let lowered = lowering.lower(&m, &bits, &t).unwrap().unwrap();
    assert_eq!(crate::ts::replay(&ts, &lowered), Ok(5));
    // Lifted back, the words are the ones the engine found.
    let lifted = crate::wl::lift_trace(&m, &bits, &ts, &lowered);
    assert_eq!(crate::wl::replay(&m, &lifted), Ok(5));
}

#[test]
fn the_depth_bound_and_the_budget_stop_the_search() {
    // The bug needs 5 transitions.
    let m = crate::front::btor2::parse(MEMORY).unwrap();
    match SmtBmc::new(Some(4)).check(&m, &Budget::new(None)) {
        Outcome::Unknown { depth, .. } => assert_eq!(depth, Some(4)),
        other => panic!("found a counterexample shorter than the bug: {other:?}"),
    }
    let stopped = Budget::new(None);
    stopped.stop();
    match SmtBmc::new(None).check(&m, &stopped) {
        Outcome::Unknown { depth, .. } => assert_eq!(depth, None),
        other => panic!("a stopped search answered: {other:?}"),
    }
}

/// As a portfolio worker the engine answers about the preprocessed system: its
/// counterexample, lowered and projected, replays there, and lifted back through the
/// reduction's map it replays on the blasted system and on the model.
#[test]
fn the_worker_answers_about_the_preprocessed_system() {
    use crate::engine::Engine;
    let m = crate::front::btor2::parse(MEMORY).unwrap();
    let budget = Budget::new(None);
    let (ts, bits) = crate::wl::blast(&m, &budget).unwrap();
    let (reduced, restore) = crate::prep::preprocess(&ts, &Default::default(), &budget);
    let context = WordContext {
        words: Words {
            model: std::sync::Arc::new(m.clone()),
            bits: std::sync::Arc::new(bits.clone()),
        },
        lowering: std::sync::Arc::new(crate::wl::Lowering::new(&ts)),
        restore: restore.clone(),
    };
    let limit = Some(std::time::Duration::from_secs(10));
    let mut worker = WordWorker::new(context, None, limit, SmtOptions::default());
    let crate::engine::Verdict::Unsafe(t) = worker.check(&reduced, &budget) else {
        panic!("the bug at frame 5 was not found")
    };
    assert_eq!(crate::ts::replay(&reduced, &t), Ok(5));
    let lifted = restore.trace(&t);
    assert_eq!(crate::ts::replay(&ts, &lifted), Ok(5));
    let words = crate::wl::lift_trace(&m, &bits, &ts, &lifted);
    assert_eq!(crate::wl::replay(&m, &words), Ok(5));
}

/// A decimal counter (9 wraps to 0) in a 4-bit word beside a memory it writes; the bad
/// state `cnt == 12` is unreachable. Only 10 leads to 11 and 11 to 12, and nothing leads to
/// 10, so three good frames are never followed by a bad one, where two can be (10, 11).
const DECIMAL: &str = "\
1 sort bitvec 4
2 sort array 1 1
3 sort bitvec 1
4 zero 1
5 one 1
6 state 1 cnt
7 init 1 6 4
8 constd 1 9
9 eq 3 6 8
10 add 1 6 5
11 ite 1 9 4 10
12 next 1 6 11
13 state 2 mem
14 input 1 addr
15 write 2 13 14 6
16 next 2 13 15
17 constd 1 12
18 eq 3 6 17
19 bad 18
";

fn induction() -> SmtOptions {
    SmtOptions { induction: true }
}

#[test]
fn induction_proves_at_the_first_inductive_depth_and_never_past_a_bug() {
    let m = crate::front::btor2::parse(DECIMAL).unwrap();
    let budget = Budget::new(None);
    match SmtBmc::new(None)
        .with_options(induction())
        .check(&m, &budget)
    {
        Outcome::Safe { k } => assert_eq!(k, 3),
        other => panic!("not proved: {other:?}"),
    }
    // Without the step case the search only deepens.
    match SmtBmc::new(Some(6)).check(&m, &budget) {
        Outcome::Unknown { depth, .. } => assert_eq!(depth, Some(6)),
        other => panic!("BMC answered: {other:?}"),
    }
    // A reachable bad state is found, not proved away.
    let m = crate::front::btor2::parse(MEMORY).unwrap();
    match SmtBmc::new(None)
        .with_options(induction())
        .check(&m, &budget)
    {
        Outcome::Unsafe(t) => assert_eq!(crate::wl::replay(&m, &t), Ok(5)),
        other => panic!("the bug at frame 5 was not found: {other:?}"),
    }
}

/// The worker's proof is the k-copy invariant of the preprocessed system, which passes the
/// check; on a lazy abstraction that is not k-inductive where the words are, it answers
/// `unknown` instead.
#[test]
fn the_worker_proves_with_a_checked_k_copy_invariant_or_not_at_all() {
    use crate::engine::{Engine, Verdict};
    let budget = Budget::new(None);
    let worker = |text: &str| {
        let m = crate::front::btor2::parse(text).unwrap();
        let (ts, bits) = crate::wl::blast(&m, &budget).unwrap();
        let (reduced, restore) = crate::prep::preprocess(&ts, &Default::default(), &budget);
        let context = WordContext {
            words: Words {
                model: std::sync::Arc::new(m),
                bits: std::sync::Arc::new(bits),
            },
            lowering: std::sync::Arc::new(crate::wl::Lowering::new(&ts)),
            restore,
        };
        let verdict = WordWorker::new(context, None, None, induction()).check(&reduced, &budget);
        (reduced, verdict)
    };
    let (reduced, verdict) = worker(DECIMAL);
    let Verdict::Safe(inv) = verdict else {
        panic!("not proved: {verdict:?}")
    };
    assert_eq!(crate::cert::check(&reduced, &inv, &budget), Ok(()));
    // A 2^32-byte ROM read at x, at y, then at x again: the words are 2-inductive, the lazy
    // abstraction is not (its read of x misses the second time).
    let rom = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("circuits/arrays/rom32_alternate_unknown.btor2"),
    )
    .unwrap();
    match worker(&rom).1 {
        Verdict::Unknown { depth } => assert_eq!(depth, Some(1)),
        other => panic!("the abstraction was proved: {other:?}"),
    }
}
