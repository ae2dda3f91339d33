//! Small C programs with known verdicts, each decided by the CFA engine through
//! [`crate::check::run_cfa`] (error paths replayed by the CFA interpreter and on the encoded
//! model, invariants checked by `cert::check`), across the search orders, refinement
//! strategies and predicate splits.

use std::time::Duration;

use clap::ValueEnum;

use crate::cfa;
use crate::check::{self, Answer, EngineKind, Options};
use crate::engine::cegar::{
    all_but, CegarOptions, Domain, InitPrec, PredSplit, Prune, Refinement, Search, INTERPOLATING,
};
use crate::engine::Stats;
use crate::front::{LoadOptions, Source};
use crate::testing::load_c_program_with;
use crate::wl;
use crate::Budget;

mod conditions;
mod engines;

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
    let interpolating = CegarOptions {
        refinement: Refinement::SeqItp,
        ..CegarOptions::default()
    };
    // A CFA state is one cube: pred-bool is refused on C programs.
    for base in interpolating.varied(all_but(Domain::PredBool), |o, d| o.domain = d) {
        let every_search = Search::value_variants().iter().copied();
        all.extend(base.varied(every_search, |o, s| o.search = s));
        all.extend(base.varied(INTERPOLATING, |o, r| o.refinement = r));
    }
    let cartesian = CegarOptions {
        domain: Domain::PredCart,
        refinement: Refinement::SeqItp,
        ..CegarOptions::default()
    };
    let splits = [PredSplit::Whole, PredSplit::Atoms];
    all.extend(cartesian.varied(splits, |o, s| o.pred_split = s));
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
    for cegar in configurations() {
        let opts = Options {
            cegar,
            ..Options::new(EngineKind::Cegar)
        };
        finds_the_bugs(&opts, &LoadOptions::default(), &format!("{cegar:?}"));
    }
}

/// `opts` (any CFA engine) on the CFA read with `load` finds the bugs of [`BUG_ARITH`] and
/// [`BUG_LOOP`]: each error path, replayed by [`run_on`], shows the input that reaches the
/// error; `what` names the configuration in a failure.
fn finds_the_bugs(opts: &Options, load: &LoadOptions, what: &str) {
    for (program, value) in [
        (BUG_ARITH, "__VERIFIER_nondet_int() = 7"),
        (BUG_LOOP, "= 42"),
    ] {
        let (answer, path, _) = run_on(program, opts, load);
        assert!(
            matches!(answer, Answer::Sat(_)),
            "{what}: {program}: {answer:?}"
        );
        let path = path.unwrap();
        assert!(path.contains(value), "{what}: {program}: {path}");
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

/// The value of counter `name` in `stats`.
fn stat(stats: &Stats, name: &str) -> u64 {
    (stats.iter().find(|(k, _)| *k == name)).map_or(0, |&(_, v)| v)
}
