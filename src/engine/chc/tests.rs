//! Small C programs through the front end, the large blocks and the Horn clauses: safe loops
//! with arithmetic invariants are proved (the invariant checked clause by clause), and no
//! program with a reachable error is, wrap-around and arrays included.

use std::time::Duration;

use super::{installed_z3, Horn, Outcome, Spacer};
use crate::cfa::Cfa;
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

/// The Z3 executable `scripts/setup` installs, if it is there (else the test says so and
/// checks nothing more).
fn installed() -> Option<Spacer> {
    let z3 = installed_z3(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    match z3.is_file() {
        true => Some(Spacer::Executable(z3)),
        false => {
            eprintln!("skipped: no {} (run scripts/setup)", z3.display());
            None
        }
    }
}

/// A loop that writes two cells per iteration needs `k < 2*i ==> a_k == 0` at its head:
/// the installed Z3's Spacer (global guidance) finds it, and the invariant passes the check.
#[test]
fn the_installed_z3_proves_a_loop_over_two_cells_per_iteration() {
    let Some(spacer) = installed() else { return };
    let (_, cfa) = load(
        "int main() { int i; int a[2002];\n\
         for (i = 0; i <= 1000; i++) { a[2*i] = 0; a[2*i+1] = 0; }\n\
         for (i = 0; i <= 2000; i++) if (a[i] < 0) reach_error();\n\
         return 0; }",
    );
    let mut horn = Horn::new(spacer);
    let outcome = horn.prove(&cfa, &Budget::new(Some(Duration::from_secs(30))));
    assert_eq!(outcome, Outcome::Proved);
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
        // An element of an array summed with one of another, at another index: the cell
        // conditions of an overflow query speak of one index term only.
        "int main() { int a[10]; int b[10]; int i;\n\
         for (i = 0; i < 10; i++) { a[i] = 2147483647; b[i] = 1; }\n\
         int c = a[3] + b[4];\n\
         if (c < 0) reach_error(); return 0; }",
        // The same at one index: the overflow is asked where that index is the cell's.
        "int main() { int a[10]; int b[10]; int c[10]; int i;\n\
         for (i = 0; i < 10; i++) { a[i] = 2147483647; b[i] = 1; }\n\
         for (i = 0; i < 10; i++) c[i] = a[i] + b[i];\n\
         for (i = 0; i < 10; i++) if (c[i] < 0) reach_error();\n\
         return 0; }",
        // A product of two variables (a fresh value in the clauses).
        "int main() { int x = __VERIFIER_nondet_int();\n\
         if (x < 0 || x > 100) return 0;\n\
         if (x * x == 49) reach_error(); return 0; }",
    ];
    let spacers = [Some(Spacer::InProcess), installed()];
    for (program, spacer) in buggy
        .iter()
        .flat_map(|p| spacers.iter().flatten().map(move |s| (p, s)))
    {
        let (_, cfa) = load(program);
        let outcome =
            Horn::new(spacer.clone()).prove(&cfa, &Budget::new(Some(Duration::from_secs(20))));
        assert!(
            matches!(outcome, Outcome::Unknown(_)),
            "{spacer:?} proved a program with a reachable error:\n{program}"
        );
    }
}
