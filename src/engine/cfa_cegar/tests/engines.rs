//! Impact (seed 001), symbolic execution (seed 002) and UFO (seed 004) on the programs of
//! [`super`], their proofs and error paths checked the same way.

use super::*;
use crate::engine::cfa_cegar::ufo::UfoPost;

/// Safe only because `x` stays even: the loop's label must come from an interpolant that
/// generalises, and the unwinding ends by covering the loop head.
const SAFE_PARITY: &str = "int main() { int x = 0;
    while (__VERIFIER_nondet_int()) { x = x + 2; }
    if (x == 1) reach_error(); return 0; }";

/// Impact on the programs above. [`SAFE_ASSUME`] is left out: its 52 refinements each unroll
/// the loop once more (bit-level interpolants do not generalise it), and re-covering the
/// growing path takes about 40 s.
#[test]
fn impact_proves_the_safe_programs_and_replays_the_bugs() {
    let impact = Options::new(EngineKind::Impact);
    for program in [
        SAFE_COUNTER,
        SAFE_BRANCHES,
        SAFE_FEW_VALUES,
        SAFE_TWO_COUNTERS,
    ] {
        let (answer, _, stats) = run(program, &impact);
        assert!(matches!(answer, Answer::Unsat(_)), "{program}: {answer:?}");
        assert!(
            stat(&stats, "impact_refinements") > 0,
            "{program}: {stats:?}"
        );
    }
    finds_the_bugs(&impact, &LoadOptions::default(), "impact");
    let (answer, _, stats) = run(SAFE_PARITY, &impact);
    assert!(matches!(answer, Answer::Unsat(_)), "{answer:?}");
    let covers = stat(&stats, "impact_covered") + stat(&stats, "impact_forced_covers");
    assert!(covers > 0, "{stats:?}");
}

/// Seed 002's example: the explicit domain cannot say that `b` is `a` or `a + 1` on the
/// statement-level CFA, symbolic values can.
const SAFE_SYMBOLIC: &str = "int main() { int a = __VERIFIER_nondet_int(); int b;
    if (a >= 0) { b = a; } else { b = a + 1; }
    if (b < a) reach_error(); return 0; }";

/// Safe because `x` counts down from a positive value: after a decrement the old value of
/// `x` is gone, and its constraints survive only as ones on the new value (`x + 1 > 0`),
/// which the loop head's earlier states then cover.
const SAFE_COUNTDOWN: &str = "int main() { int x = __VERIFIER_nondet_int();
    if (x <= 0 || x > 100) return 0;
    while (x > 0) { x = x - 1; }
    if (x != 0) reach_error(); return 0; }";

/// Symbolic execution on the programs above, on both CFAs: every proof's invariant and
/// every error path checked by [`run`]. [`SAFE_ASSUME`] and [`SAFE_PARITY`] are left out:
/// without widening, symbolic execution runs through such loops one value at a time.
#[test]
fn symbolic_execution_proves_the_safe_programs_and_replays_the_bugs() {
    let symex = Options::new(EngineKind::Symex);
    let single = LoadOptions {
        single_blocks: true,
        ..LoadOptions::default()
    };
    for load in [&LoadOptions::default(), &single] {
        for program in [
            SAFE_COUNTER,
            SAFE_BRANCHES,
            SAFE_FEW_VALUES,
            SAFE_TWO_COUNTERS,
            SAFE_SYMBOLIC,
            SAFE_COUNTDOWN,
        ] {
            let (answer, _, _) = run_on(program, &symex, load);
            assert!(matches!(answer, Answer::Unsat(_)), "{program}: {answer:?}");
        }
        finds_the_bugs(&symex, load, "symex");
    }
    // The precision grows from nothing: the counters are tracked only after a refinement,
    // and the loop's states are covered once it ends.
    let (_, _, stats) = run_on(SAFE_TWO_COUNTERS, &symex, &single);
    assert!(stat(&stats, "symex_refinements") > 0, "{stats:?}");
    assert!(stat(&stats, "symex_covered") > 0, "{stats:?}");
}

/// Seed 004's `foo`: a loop with a branch inside, safe because `x` stays non-negative. The
/// DAG joins the branch's two paths again, so one refinement labels both.
const SAFE_BRANCHING_LOOP: &str = "int main() { int x = 0;
    while (__VERIFIER_nondet_int()) { if (__VERIFIER_nondet_int()) { x = 1; } else { x = 2; } }
    if (x < 0) reach_error(); return 0; }";

/// Nested loops: each unrolling of the outer loop unrolls the inner one afresh.
const SAFE_NESTED: &str = "int main() { int i = 0; int j = 0;
    while (i < 3) { j = 0; while (j < 2) { j = j + 1; } i = i + 1; }
    if (i != 3 || j != 2) reach_error(); return 0; }";

/// UFO with each of its posts, on both CFAs: every proof's invariant and every error path
/// checked by [`run`]; spurious error paths are refined, and loops end by covering.
#[test]
fn ufo_proves_the_safe_programs_and_replays_the_bugs() {
    let single = LoadOptions {
        single_blocks: true,
        ..LoadOptions::default()
    };
    for post in [UfoPost::True, UfoPost::Cart, UfoPost::Bool] {
        let ufo = Options {
            ufo_post: post,
            ..Options::new(EngineKind::Ufo)
        };
        for load in [&LoadOptions::default(), &single] {
            for program in [
                SAFE_COUNTER,
                SAFE_BRANCHES,
                SAFE_FEW_VALUES,
                SAFE_TWO_COUNTERS,
                SAFE_BRANCHING_LOOP,
                SAFE_NESTED,
            ] {
                let (answer, _, _) = run_on(program, &ufo, load);
                assert!(
                    matches!(answer, Answer::Unsat(_)),
                    "{post:?}: {program}: {answer:?}"
                );
            }
            finds_the_bugs(&ufo, load, &format!("{post:?}"));
        }
        let (_, _, stats) = run(SAFE_TWO_COUNTERS, &ufo);
        assert!(stat(&stats, "ufo_refinements") > 0, "{post:?}: {stats:?}");
        let (_, _, stats) = run(SAFE_BRANCHING_LOOP, &ufo);
        assert!(stat(&stats, "ufo_covered") > 0, "{post:?}: {stats:?}");
        if post != UfoPost::True {
            assert!(stat(&stats, "ufo_predicates") > 0, "{post:?}: {stats:?}");
        }
    }
}

/// Recursion whose inlined calls join again in the DAG: setting the other nodes' control
/// variables false drops the paths through them, so some candidate label fails its check
/// and UFO labels every node by its own interpolation query (still a proof, checked).
const SAFE_RECURSIVE_BRANCHES: &str = "int h(int x) { if (x <= 0) return 0;
    if (__VERIFIER_nondet_int()) return 1 + h(x - 1); return h(x - 1); }
    int main() { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 3) return 0;
    if (h(n) > n) reach_error(); return 0; }";

#[test]
fn ufo_falls_back_to_one_query_per_node_and_still_proves() {
    for post in [UfoPost::Cart, UfoPost::Bool] {
        let ufo = Options {
            ufo_post: post,
            ..Options::new(EngineKind::Ufo)
        };
        // Deep enough that no call goes beyond the inlining bound (`h(3)` nests four).
        let load = LoadOptions {
            recursion: crate::front::c::Recursion {
                bound: 4,
                ..Default::default()
            },
            ..LoadOptions::default()
        };
        let (answer, _, stats) = run_on(SAFE_RECURSIVE_BRANCHES, &ufo, &load);
        assert!(matches!(answer, Answer::Unsat(_)), "{post:?}: {answer:?}");
        assert!(stat(&stats, "ufo_interpolants") > 0, "{post:?}: {stats:?}");
    }
}
