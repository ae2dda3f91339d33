//! Conditional model checking (seed 003) on the CFA: assumption automata written by a cut
//! run and followed by the next, read back from their text, and the BMC, explicit, predicate
//! sequence.

use super::*;
use crate::engine::cfa_cegar::{check_given, Automaton, Outcome};

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
    given: Option<&Automaton>,
    repeats: Option<u32>,
) -> Outcome {
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
    let outcome = check_given(blocks, &model.ts, bits, &opts, given, repeats, &budget).unwrap();
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
    let back = Automaton::parse(&text, path, &model.ts).unwrap();
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
    let e = Automaton::parse(&text, path, &other.ts).unwrap_err();
    assert_eq!(e.position.as_deref(), Some("line 2"), "{e}");
    assert!(e.message.contains("another system"), "{e}");
    let dangling = text.replacen("\nmove 0 ", "\nmove 999999 ", 1);
    assert_ne!(dangling, text, "the condition has a move of state 0");
    let e = Automaton::parse(&dangling, path, &model.ts).unwrap_err();
    assert!(e.message.contains("beyond"), "{e}");
}
