//! Small C programs with known verdicts, each decided by the CFA engine through
//! [`crate::check::run_cfa`] (error paths replayed by the CFA interpreter and on the encoded
//! model, invariants checked by `cert::check`), across the search orders, refinement
//! strategies and predicate splits.

use std::time::Duration;

use crate::cfa;
use crate::check::{self, Answer, EngineKind, Options};
use crate::engine::cegar::{CegarOptions, Domain, InitPrec, PredSplit, Prune, Refinement, Search};
use crate::engine::cfa_cegar::ufo::UfoPost;
use crate::engine::Stats;
use crate::front::{LoadOptions, Source};
use crate::testing::load_c_program_with;
use crate::wl;
use crate::Budget;

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n";

/// The verified answer of the engine on `body` (after [`PRELUDE`]), and for `sat` the error
/// path as the command line prints it (lifted to words and replayed by the interpreter).
fn decide(body: &str, cegar: CegarOptions) -> (Answer, Option<String>) {
    let (answer, path, _) = decide_with_stats(body, cegar);
    (answer, path)
}

/// [`decide`] with the engine's counters.
fn decide_with_stats(body: &str, cegar: CegarOptions) -> (Answer, Option<String>, Stats) {
    let opts = Options {
        cegar,
        ..Options::new(EngineKind::Cegar)
    };
    run(body, &opts)
}

/// [`decide_with_stats`] for the CFA engine `opts.engine` (CEGAR, Impact or symbolic
/// execution).
fn run(body: &str, opts: &Options) -> (Answer, Option<String>, Stats) {
    run_on(body, opts, &LoadOptions::default())
}

/// [`run`] on the program's CFA read with `load` (e.g. one edge per statement).
fn run_on(body: &str, opts: &Options, load: &LoadOptions) -> (Answer, Option<String>, Stats) {
    let model = load_c_program_with(&format!("{PRELUDE}{body}"), load);
    let Source::C {
        cfa: program,
        blocks,
        model: words,
        bits,
        ..
    } = &model.source
    else {
        panic!("a C program")
    };
    let budget = Budget::new(Some(Duration::from_secs(60)));
    let report = check::run_cfa(blocks, &model.ts, bits, opts, &budget).unwrap();
    let path = match &report.answer {
        Answer::Sat(trace) => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            let path = cfa::path::from_trace(program, blocks, &lifted).unwrap();
            Some(cfa::path::write(program, &path))
        }
        _ => None,
    };
    (report.answer, path, report.stats)
}

const SAFE_COUNTER: &str = "int main() { int x = 0; while (x < 10) { x = x + 1; }
    if (x != 10) reach_error(); return 0; }";

const SAFE_BRANCHES: &str = "int main() { int x = __VERIFIER_nondet_int(); int y;
    if (x > 0) { y = 1; } else { y = 2; }
    if (y == 0) reach_error(); return 0; }";

const SAFE_ASSUME: &str = "int main() { int x = __VERIFIER_nondet_int(); int y = 0;
    if (x < 0 || x > 50) return 0;
    while (y < x) { y = y + 1; }
    if (y > 50) reach_error(); return 0; }";

const BUG_ARITH: &str = "int main() { int x = __VERIFIER_nondet_int(); int y = x * 3;
    if (y == 21) reach_error(); return 0; }";

const BUG_LOOP: &str = "int main() { int x = 0; int n = __VERIFIER_nondet_int();
    while (x < 5) { x = x + 1; }
    if (x == 5 && n == 42) reach_error(); return 0; }";

/// Few values of a nondet input: explicit values enumerate them (or give up on them beyond
/// `--max-enum`), predicates need `y` even.
const SAFE_FEW_VALUES: &str = "int main() { int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 3) return 0;
    int y = x * 2;
    if (y == 7) reach_error(); return 0; }";

/// Every search order in every domain, the binary refinements and several paths at once, the
/// unsat-core refinement of explicit values, the predicate splits, the
/// enumeration limits (unlimited, and below the values of [`SAFE_FEW_VALUES`]) and full
/// pruning (the default is lazy).
fn configurations() -> Vec<CegarOptions> {
    let mut all = Vec::new();
    for domain in [
        Domain::Expl,
        Domain::PredCart,
        Domain::PredSplit,
        Domain::Prod,
    ] {
        let base = CegarOptions {
            domain,
            refinement: Refinement::SeqItp,
            ..CegarOptions::default()
        };
        for search in [
            Search::Bfs,
            Search::Dfs,
            Search::Err,
            Search::ErrDfs,
            Search::DfsErr,
        ] {
            all.push(CegarOptions { search, ..base });
        }
        for refinement in [
            Refinement::BwBinItp,
            Refinement::FwBinItp,
            Refinement::MultiSeq,
        ] {
            all.push(CegarOptions { refinement, ..base });
        }
    }
    for pred_split in [PredSplit::Whole, PredSplit::Atoms] {
        all.push(CegarOptions {
            domain: Domain::PredCart,
            refinement: Refinement::SeqItp,
            pred_split,
            ..CegarOptions::default()
        });
    }
    // Unlimited enumeration with the property's variables tracked from the start would
    // enumerate every value of the loop counter leaving the loop (tracked after it, not in it).
    all.push(CegarOptions {
        domain: Domain::Expl,
        refinement: Refinement::UnsatCore,
        ..CegarOptions::default()
    });
    for (max_enum, init_prec) in [(0, InitPrec::Empty), (1, InitPrec::Prop)] {
        all.push(CegarOptions {
            max_enum,
            init_prec,
            ..CegarOptions::default()
        });
    }
    for domain in [Domain::Expl, Domain::PredCart] {
        all.push(CegarOptions {
            domain,
            refinement: Refinement::SeqItp,
            prune: Prune::Full,
            ..CegarOptions::default()
        });
    }
    all
}

#[test]
fn safe_programs_are_proved_with_checked_invariants() {
    for program in [SAFE_COUNTER, SAFE_BRANCHES, SAFE_FEW_VALUES] {
        for opts in configurations() {
            let (answer, _) = decide(program, opts);
            assert!(
                matches!(answer, Answer::Unsat(_)),
                "{program} with {opts:?}: {answer:?}"
            );
        }
    }
}

/// A loop bounded by an assumption on a nondet value: the interpolants unroll it (no
/// generalisation at bit level), which breadth-first search finishes in seconds in both
/// domains while depth-first search follows one unrolling too far.
#[test]
fn assumption_bounded_loop_is_proved_breadth_first() {
    for domain in [Domain::Expl, Domain::PredCart] {
        let opts = CegarOptions {
            domain,
            refinement: Refinement::SeqItp,
            ..CegarOptions::default()
        };
        let (answer, _) = decide(SAFE_ASSUME, opts);
        assert!(matches!(answer, Answer::Unsat(_)), "{domain:?}: {answer:?}");
    }
}

#[test]
fn buggy_programs_give_replayed_error_paths() {
    for opts in configurations() {
        let (answer, path) = decide(BUG_ARITH, opts);
        assert!(matches!(answer, Answer::Sat(_)), "{opts:?}");
        let path = path.unwrap();
        assert!(path.contains("__VERIFIER_nondet_int() = 7"), "{path}");
        let (answer, path) = decide(BUG_LOOP, opts);
        assert!(matches!(answer, Answer::Sat(_)), "{opts:?}");
        assert!(path.unwrap().contains("= 42"));
    }
}

/// Safe, because `x` counts twice as fast as `y`: from the empty precision, the first
/// abstraction reaches the error spuriously.
const SAFE_TWO_COUNTERS: &str = "int main() { int y = 0; int x = 0;
    while (y < 10) { y = y + 1; x = x + 2; }
    if (x != 20) reach_error(); return 0; }";

#[test]
fn spurious_error_paths_are_refined_away() {
    for opts in configurations() {
        let opts = CegarOptions {
            init_prec: InitPrec::Empty,
            ..opts
        };
        let (answer, _, stats) = decide_with_stats(SAFE_TWO_COUNTERS, opts);
        assert!(matches!(answer, Answer::Unsat(_)));
        let refinements = stats.iter().find(|(k, _)| *k == "cegar_refinements");
        assert!(
            refinements.is_some_and(|&(_, n)| n > 0),
            "{opts:?}: {stats:?}"
        );
    }
}

/// Safe only because `x` stays even: the loop's label must come from an interpolant that
/// generalises, and the unwinding ends by covering the loop head.
const SAFE_PARITY: &str = "int main() { int x = 0;
    while (__VERIFIER_nondet_int()) { x = x + 2; }
    if (x == 1) reach_error(); return 0; }";

/// The value of counter `name` in `stats`.
fn stat(stats: &Stats, name: &str) -> u64 {
    (stats.iter().find(|(k, _)| *k == name)).map_or(0, |&(_, v)| v)
}

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
    for (program, value) in [
        (BUG_ARITH, "__VERIFIER_nondet_int() = 7"),
        (BUG_LOOP, "= 42"),
    ] {
        let (answer, path, _) = run(program, &impact);
        assert!(matches!(answer, Answer::Sat(_)), "{program}: {answer:?}");
        assert!(path.unwrap().contains(value), "{program}");
    }
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
        for (program, value) in [
            (BUG_ARITH, "__VERIFIER_nondet_int() = 7"),
            (BUG_LOOP, "= 42"),
        ] {
            let (answer, path, _) = run_on(program, &symex, load);
            assert!(matches!(answer, Answer::Sat(_)), "{program}: {answer:?}");
            assert!(path.unwrap().contains(value), "{program}");
        }
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
            for (program, value) in [
                (BUG_ARITH, "__VERIFIER_nondet_int() = 7"),
                (BUG_LOOP, "= 42"),
            ] {
                let (answer, path, _) = run_on(program, &ufo, load);
                assert!(matches!(answer, Answer::Sat(_)), "{post:?}: {program}");
                assert!(path.unwrap().contains(value), "{post:?}: {program}");
            }
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

/// Two branches: a loop of a million steps (explicit values would unroll it all, so a run
/// that cuts repeating locations leaves it open) and six steps of a linear congruential
/// generator (explicit values run them out and verify the branch).
const SAFE_LONG_AND_SHORT: &str = "int main() {
    if (__VERIFIER_nondet_int()) { unsigned int i = 0; while (i < 1000000u) i++;
      if (i != 1000000u) reach_error(); }
    else { unsigned int x = 1, k = 0; while (k < 6u) { x = x * 1103515245u + 12345u; k++; }
      if (x == 7u) reach_error(); }
    return 0; }";

/// [`SAFE_LONG_AND_SHORT`] with a bug in a shorter loop of the first branch, past the cut
/// of [`a_condition_hides_no_bug_past_its_cut_and_fits_only_its_program`].
const BUG_PAST_THE_CUT: &str = "int main() {
    if (__VERIFIER_nondet_int()) { unsigned int i = 0; while (i < 12u) i++;
      if (i == 12u) reach_error(); }
    else { unsigned int x = 1, k = 0; while (k < 6u) { x = x * 1103515245u + 12345u; k++; }
      if (x == 7u) reach_error(); }
    return 0; }";

/// One CFA CEGAR run on `body` with the condition `given`, cutting nodes past `repeats`
/// visits of their location; a `Safe` verdict's invariant is checked and an `Unsafe` one's
/// trace replayed on the encoded model (so that the asserted verdict is a checked one).
fn conditional(
    body: &str,
    domain: Domain,
    given: Option<&super::Automaton>,
    repeats: Option<u32>,
) -> super::Outcome {
    let model = load_c_program_with(&format!("{PRELUDE}{body}"), &LoadOptions::default());
    let Source::C { blocks, bits, .. } = &model.source else {
        panic!("a C program")
    };
    let opts = CegarOptions {
        domain,
        refinement: Refinement::SeqItp,
        ..CegarOptions::default()
    };
    let budget = Budget::new(Some(Duration::from_secs(60)));
    let outcome =
        super::check_given(blocks, &model.ts, bits, &opts, given, repeats, &budget).unwrap();
    match &outcome.verdict {
        crate::engine::Verdict::Safe(inv) => crate::cert::check(&model.ts, inv, &budget)
            .unwrap_or_else(|e| panic!("{domain:?}: the invariant fails its check: {e}")),
        crate::engine::Verdict::Unsafe(trace) => {
            assert!(crate::ts::replay(&model.ts, trace).is_ok(), "{domain:?}")
        }
        crate::engine::Verdict::Unknown { .. } => {}
    }
    outcome
}

#[test]
fn a_run_given_a_condition_computes_no_post_the_first_run_verified() {
    // The explicit run verifies the generator's branch and cuts the long loop.
    let first = conditional(SAFE_LONG_AND_SHORT, Domain::Expl, None, Some(8));
    assert!(matches!(
        first.verdict,
        crate::engine::Verdict::Unknown { .. }
    ));
    assert!(stat(&first.stats, "cegar_cut") > 0, "{:?}", first.stats);
    let condition = first
        .condition
        .expect("an unknown CEGAR run writes its condition");
    assert!(condition.verified() > 0 && condition.open_states() > 0);
    // Predicate abstraction alone explores both branches; given the condition, it follows
    // the long branch only (the generator's branch is safe from its first edge on).
    let alone = conditional(SAFE_LONG_AND_SHORT, Domain::PredCart, None, None);
    let given = conditional(
        SAFE_LONG_AND_SHORT,
        Domain::PredCart,
        Some(&condition),
        None,
    );
    for run in [&alone, &given] {
        assert!(
            matches!(run.verdict, crate::engine::Verdict::Safe(_)),
            "{:?}",
            run.stats
        );
    }
    assert_eq!(stat(&alone.stats, "cegar_condition_safe"), 0);
    assert!(
        stat(&given.stats, "cegar_condition_safe") > 0,
        "{:?}",
        given.stats
    );
    assert!(
        stat(&given.stats, "cegar_posts") < stat(&alone.stats, "cegar_posts"),
        "alone {:?}, given {:?}",
        alone.stats,
        given.stats
    );
}

#[test]
fn a_condition_hides_no_bug_past_its_cut_and_fits_only_its_program() {
    let first = conditional(BUG_PAST_THE_CUT, Domain::Expl, None, Some(8));
    let condition = first.condition.expect("the cut run ends unknown");
    let given = conditional(BUG_PAST_THE_CUT, Domain::PredCart, Some(&condition), None);
    assert!(matches!(given.verdict, crate::engine::Verdict::Unsafe(_)));
    let other = conditional(SAFE_COUNTER, Domain::PredCart, Some(&condition), None);
    assert!(matches!(
        other.verdict,
        crate::engine::Verdict::Unknown { .. }
    ));
    assert_eq!(
        other.note.as_deref(),
        Some("the condition speaks of another program")
    );
}

#[test]
fn the_sequence_proves_the_safe_programs_and_replays_the_bugs() {
    let sequence = Options {
        max_depth: Some(3),
        ..Options::new(EngineKind::Sequence)
    };
    for program in [
        SAFE_COUNTER,
        SAFE_BRANCHES,
        SAFE_ASSUME,
        SAFE_LONG_AND_SHORT,
    ] {
        let (answer, _, stats) = run(program, &sequence);
        assert!(matches!(answer, Answer::Unsat(_)), "{program}: {answer:?}");
        assert!(stat(&stats, "sequence_stage") > 0, "{program}: {stats:?}");
    }
    // Past BMC's bound of 3, the bug is the CFA analyses' to find.
    let (answer, path, stats) = run(BUG_LOOP, &sequence);
    assert!(matches!(answer, Answer::Sat(_)), "{answer:?}");
    assert!(path.unwrap().contains("= 42"));
    assert!(stat(&stats, "sequence_stage") > 0, "{stats:?}");
}

#[test]
fn a_condition_read_back_from_its_text_is_the_same_automaton() {
    let load = LoadOptions::default();
    let model = load_c_program_with(&format!("{PRELUDE}{SAFE_LONG_AND_SHORT}"), &load);
    let first = conditional(SAFE_LONG_AND_SHORT, Domain::Expl, None, Some(8));
    let condition = first.condition.expect("the cut run ends unknown");
    let text = condition.text(&model.ts);
    let path = std::path::Path::new("cond");
    let back = super::Automaton::parse(&text, path, &model.ts).unwrap();
    assert_eq!(back.text(&model.ts), text);
    let runs = [Some(&condition), Some(&back)]
        .map(|given| conditional(SAFE_LONG_AND_SHORT, Domain::PredCart, given, None));
    for run in &runs {
        assert!(matches!(run.verdict, crate::engine::Verdict::Safe(_)));
    }
    let safe = runs
        .each_ref()
        .map(|r| stat(&r.stats, "cegar_condition_safe"));
    assert!(safe[0] > 0 && safe[0] == safe[1], "{safe:?}");
    // A file is input: another program's condition and a dangling state are refused.
    let other = load_c_program_with(&format!("{PRELUDE}{SAFE_COUNTER}"), &load);
    let e = super::Automaton::parse(&text, path, &other.ts).unwrap_err();
    assert_eq!(e.position.as_deref(), Some("line 2"), "{e}");
    assert!(e.message.contains("another system"), "{e}");
    let dangling = text.replacen("\nmove 0 ", "\nmove 999999 ", 1);
    assert_ne!(dangling, text, "the condition has a move of state 0");
    let e = super::Automaton::parse(&dangling, path, &model.ts).unwrap_err();
    assert!(e.message.contains("beyond"), "{e}");
}
