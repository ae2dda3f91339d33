//! Small C programs through the front end, the large blocks and the Horn clauses: safe loops
//! with arithmetic invariants are proved (the invariant checked clause by clause), and no
//! program with a reachable error is, wrap-around and arrays included.

use std::sync::Arc;
use std::time::Duration;

use super::{Horn, Outcome, Spacer};
use crate::cfa::Cfa;
use crate::check::{self, Answer, EngineKind, Options, Proof};
use crate::front::{Model, Source};
use crate::testing::load_c_program;
use crate::Budget;

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\n\
                       extern unsigned __VERIFIER_nondet_uint(void);\n\
                       extern void reach_error(void);\n";

/// The model of `body` (after [`PRELUDE`]) and the CFA the engines check.
fn load(body: &str) -> (Model, Cfa) {
    let model = load_c_program(&format!("{PRELUDE}{body}"));
    let Source::C { blocks, .. } = &model.source else {
        panic!("a C program");
    };
    let blocks = blocks.clone();
    (model, blocks)
}

/// The engine's outcome on `body`.
fn prove(body: &str) -> Outcome {
    let (_, cfa) = load(body);
    Horn::new(Spacer::InProcess).prove(&cfa, &Budget::new(Some(Duration::from_secs(20))))
}

#[test]
fn a_loop_bounded_by_an_input_is_proved() {
    let outcome = prove(
        "int main() { int n = __VERIFIER_nondet_int(); int i = 0; int s = 0;\n\
         if (n < 0 || n > 1000000) return 0;\n\
         while (i < n) { i++; s += 2; }\n\
         if (i != n || s != 2 * n) reach_error(); return 0; }",
    );
    assert_eq!(outcome, Outcome::Proved);
}

#[test]
fn an_array_filled_in_a_loop_is_proved_through_its_cell() {
    let outcome = prove(
        "int main() { int a[1000]; int i; int n = __VERIFIER_nondet_int();\n\
         int j = __VERIFIER_nondet_int();\n\
         if (n < 0 || n > 1000 || j < 0 || j >= n) return 0;\n\
         for (i = 0; i < n; i++) a[i] = 7;\n\
         if (a[j] != 7) reach_error();\n\
         return 0; }",
    );
    assert_eq!(outcome, Outcome::Proved);
}

/// Beside BMC, which proves no loop, the clauses decide: `unsat` by `chc`.
#[test]
fn the_clauses_beside_an_engine_decide_a_loop() {
    let (model, cfa) = load(
        "int main() { unsigned n = __VERIFIER_nondet_uint(); unsigned i = 0, s = 0;\n\
         if (n > 100000) return 0;\n\
         while (i < n) { i++; s += 3; }\n\
         if (s != 3 * n) reach_error(); return 0; }",
    );
    let opts = Options {
        horn: Some(Arc::new(cfa)),
        ..Options::new(EngineKind::Bmc)
    };
    let budget = Budget::new(Some(Duration::from_secs(60)));
    let report = check::run(&model.ts, &opts, &budget).unwrap();
    assert!(
        matches!(report.answer, Answer::Unsat(Proof::Horn { .. })),
        "{:?}",
        report.answer
    );
    assert_eq!(report.engine, "chc");
}

#[test]
fn reachable_errors_are_never_proved() {
    let buggy = [
        // Off by one.
        "int main() { int n = __VERIFIER_nondet_int(); int i = 0;\n\
         if (n < 0 || n > 100) return 0;\n\
         while (i <= n) i++;\n\
         if (i == n + 1) reach_error(); return 0; }",
        // Reachable only through unsigned wrap-around.
        "int main() { unsigned x = __VERIFIER_nondet_uint();\n\
         if (x + 1u == 0u) reach_error(); return 0; }",
        // Reachable only through signed overflow (two's complement on the bits).
        "int main() { int x = __VERIFIER_nondet_int(); int y = x + 1;\n\
         if (y < x) reach_error(); return 0; }",
        // One element differs.
        "int main() { int a[100]; int i; int j = __VERIFIER_nondet_int();\n\
         for (i = 0; i < 100; i++) a[i] = 0;\n\
         if (j >= 0 && j < 100) a[j] = 5;\n\
         for (i = 0; i < 100; i++) if (a[i] != 0) reach_error();\n\
         return 0; }",
        // Two elements compared: the cell alone cannot see both.
        "int main() { int a[10]; int i;\n\
         for (i = 0; i < 10; i++) a[i] = i;\n\
         if (a[3] + 1 == a[4]) reach_error(); return 0; }",
        // A product of two variables (a fresh value in the clauses).
        "int main() { int x = __VERIFIER_nondet_int();\n\
         if (x < 0 || x > 100) return 0;\n\
         if (x * x == 49) reach_error(); return 0; }",
    ];
    for program in buggy {
        assert!(
            matches!(prove(program), Outcome::Unknown(_)),
            "proved a program with a reachable error:\n{program}"
        );
    }
}
