//! Small C programs through the front end, the large blocks and the Horn clauses: safe loops
//! with arithmetic invariants are proved (the invariant checked clause by clause), and no
//! program with a reachable error is, wrap-around and arrays included; recursive programs
//! through procedure summaries, the same way.

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

/// Safe only because `b` wraps around as `n + m` does: the clauses without wrap-around reach
/// an overflow, the exact round's are proved.
#[test]
fn a_loop_safe_through_unsigned_wrap_around_is_proved_by_the_exact_clauses() {
    let Some(spacer) = installed() else { return };
    let (_, cfa) = load(
        "int main() { unsigned n = __VERIFIER_nondet_uint(); unsigned m = __VERIFIER_nondet_uint();\n\
         unsigned a = n; unsigned b = m;\n\
         while (a != 0u) { a--; b++; }\n\
         if (b != n + m) reach_error(); return 0; }",
    );
    let outcome = Horn::new(spacer).prove(&cfa, &Budget::new(Some(Duration::from_secs(30))));
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
        // Reachable only through a conversion to `int` that wraps (gcc's choice).
        "int main() { int x = __VERIFIER_nondet_int(); int y = (int)((unsigned)x + 1u);\n\
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
        "int main() { unsigned a[10]; unsigned b[10]; int i;\n\
         for (i = 0; i < 10; i++) { a[i] = 4294967295u; b[i] = 1u; }\n\
         unsigned c = a[3] + b[4];\n\
         if (c == 0u) reach_error(); return 0; }",
        // The same at one index: the overflow is asked where that index is the cell's.
        "int main() { unsigned a[10]; unsigned b[10]; unsigned c[10]; int i;\n\
         for (i = 0; i < 10; i++) { a[i] = 4294967295u; b[i] = 1u; }\n\
         for (i = 0; i < 10; i++) c[i] = a[i] + b[i];\n\
         for (i = 0; i < 10; i++) if (c[i] == 0u) reach_error();\n\
         return 0; }",
        // Reachable only through a product, a truncation, a shift, a change of view that
        // wraps: the exact round's clauses must reach these.
        "int main() { unsigned x = __VERIFIER_nondet_uint();\n\
         if (x * 3u == 1u) reach_error(); return 0; }",
        "int main() { unsigned x = __VERIFIER_nondet_uint();\n\
         if (x != 0u && (unsigned char)x == 0) reach_error(); return 0; }",
        "int main() { unsigned x = __VERIFIER_nondet_uint();\n\
         if (x != 0u && (x << 1) == 0u) reach_error(); return 0; }",
        "int main() { int x = __VERIFIER_nondet_int();\n\
         if (x < 0 && (unsigned)x > 2147483647u) reach_error(); return 0; }",
        "int main() { unsigned x = __VERIFIER_nondet_uint();\n\
         if ((int)x < 0) reach_error(); return 0; }",
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
            Horn::new(spacer.clone()).prove(&cfa, &Budget::new(Some(Duration::from_secs(10))));
        assert!(
            matches!(outcome, Outcome::Unknown(_)),
            "{spacer:?} proved a program with a reachable error:\n{program}"
        );
    }
}

/// The CFA of `body` (after [`PRELUDE`]) with procedure summaries.
fn summarized(body: &str) -> Cfa {
    let text = format!("{PRELUDE}{body}");
    let externs = crate::front::c::Externs::default();
    crate::front::c::translate_summarized(&text, crate::front::c::DataModel::Ilp32, &externs)
        .expect("summaries")
}

const FIBONACCI: &str = "int fib(int n) { if (n < 1) return 0; if (n == 1) return 1;\n\
                         return fib(n - 1) + fib(n - 2); }\n";

/// Recursion no inlining bound covers, proved at every depth by the summaries (non-linear
/// clauses, which the installed Z3's Spacer solves): `fib(x) >= x - 1` needs `fib(n) >= 1`
/// for `n >= 1` in the summary; Ackermann's function; `down`, whose error is inside the
/// recursion (unreachable).
#[test]
fn the_installed_z3_proves_recursive_functions_by_their_summaries() {
    let Some(spacer) = installed() else { return };
    let programs = [
        format!(
            "{FIBONACCI}int main() {{ int x = __VERIFIER_nondet_int(); if (x > 46) return 0;\n\
             if (fib(x) < x - 1) reach_error(); return 0; }}"
        ),
        "int ack(int m, int n) { if (m == 0) return n + 1; if (n == 0) return ack(m - 1, 1);\n\
         return ack(m - 1, ack(m, n - 1)); }\n\
         int main() { int m = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();\n\
         if (m < 0 || m > 3 || n < 0 || n > 23) return 0;\n\
         if (ack(m, n) < 0) reach_error(); return 0; }"
            .to_owned(),
        "int down(int n) { if (n <= 0) { if (n < 0) reach_error(); return 0; }\n\
         return 1 + down(n - 1); }\n\
         int main() { int x = __VERIFIER_nondet_int(); if (x < 0) return 0;\n\
         if (down(x) != x) reach_error(); return 0; }"
            .to_owned(),
        "unsigned add(unsigned n, unsigned acc) { if (n == 0) return acc;\n\
         return add(n - 1, acc + 1); }\n\
         int main() { unsigned x = __VERIFIER_nondet_uint(); if (x > 100) return 0;\n\
         if (add(x, 0) != x) reach_error(); return 0; }"
            .to_owned(),
    ];
    for program in &programs {
        let cfa = summarized(program);
        let outcome =
            Horn::new(spacer.clone()).prove(&cfa, &Budget::new(Some(Duration::from_secs(30))));
        assert_eq!(outcome, Outcome::Proved, "{program}");
    }
}

/// Summaries never prove a recursive program with a reachable error: a wrong claim on the
/// result, an error reached inside a deeper call, a result that depends on a global, mutual
/// recursion, a call whose arguments differ from the parameters' final values.
#[test]
fn summaries_never_prove_a_reachable_error() {
    let buggy = [
        format!(
            "{FIBONACCI}int main() {{ int x = __VERIFIER_nondet_int(); if (x > 46) return 0;\n\
             if (x >= 5 && fib(x) < 6) reach_error(); return 0; }}"
        ),
        "int down(int n) { if (n == 3) reach_error(); if (n <= 0) return 0;\n\
         return 1 + down(n - 1); }\n\
         int main() { int x = __VERIFIER_nondet_int(); if (x < 0 || x > 10) return 0;\n\
         down(x); return 0; }"
            .to_owned(),
        "int g = 0;\n\
         int f(int n) { if (n <= 0) return g; return f(n - 1) + 1; }\n\
         int main() { g = __VERIFIER_nondet_int(); if (g < 0 || g > 5) return 0;\n\
         if (f(2) == 4) reach_error(); return 0; }"
            .to_owned(),
        "int odd(int n);\n\
         int even(int n) { if (n == 0) return 1; return odd(n - 1) + 0; }\n\
         int odd(int n) { if (n == 0) return 0; return even(n - 1); }\n\
         int main() { int x = __VERIFIER_nondet_int(); if (x < 0 || x > 20) return 0;\n\
         if (even(x) == (x % 2 == 0)) reach_error(); return 0; }"
            .to_owned(),
        "int sum(int n) { int s = n; n = n - 1; if (n < 0) return 0; return s + sum(n); }\n\
         int main() { if (sum(3) == 6) reach_error(); return 0; }"
            .to_owned(),
        "int add(int n, int acc) { if (n == 0) return acc; return add(n - 1, acc + 1); }\n\
         int main() { if (add(3, 0) == 3) reach_error(); return 0; }"
            .to_owned(),
    ];
    let spacers = [Some(Spacer::InProcess), installed()];
    for (program, spacer) in buggy
        .iter()
        .flat_map(|p| spacers.iter().flatten().map(move |s| (p, s)))
    {
        let cfa = summarized(program);
        let outcome =
            Horn::new(spacer.clone()).prove(&cfa, &Budget::new(Some(Duration::from_secs(20))));
        assert!(
            matches!(outcome, Outcome::Unknown(_)),
            "{spacer:?} proved a program with a reachable error:\n{program}"
        );
    }
}

/// No run of a summarized body returns into its caller: no edge leaves the body's end that
/// the summaries read, and the predicate there keeps only what they read (the parameters,
/// the return value, the slots after the variables), none of `main`'s variables.
#[test]
fn summarized_runs_end_at_the_body_and_keep_only_what_summaries_read() {
    let cfa = summarized(
        "int ack(int m, int n) { if (m == 0) return n + 1; if (n == 0) return ack(m - 1, 1);\n\
         return ack(m - 1, ack(m, n - 1)); }\n\
         int main() { int m = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();\n\
         if (m < 0 || m > 3 || n < 0 || n > 23) return 0;\n\
         if (ack(m, n) < 0) reach_error(); return 0; }",
    );
    let slots = super::layout::Layout::new(&cfa).len();
    let kept = super::live::live_slots(&cfa, slots);
    let calls: Vec<_> = (cfa.nondets.iter())
        .filter_map(|n| n.summarized.as_ref())
        .collect();
    assert_eq!(
        calls.len(),
        4,
        "the outermost call and the three recursive ones"
    );
    for call in calls {
        let end = call.returns;
        assert!(
            cfa.edges.iter().all(|e| e.from != end),
            "an edge leaves the body"
        );
        let read: Vec<usize> = (call.equal.iter().chain(&call.outputs))
            .map(|(v, _)| v.index())
            .collect();
        for &slot in &kept[end.index()] {
            assert!(
                read.contains(&slot) || slot >= cfa.vars.len(),
                "{} is kept at the body's end",
                cfa.vars[slot].name
            );
        }
        assert_eq!(read.len(), 3, "m, n and the return value");
    }
}

/// A recursive function that keeps a `static` local, or writes a global array, has no
/// summary over its parameters and global scalars.
#[test]
fn a_recursive_function_writing_more_than_scalars_has_no_summary() {
    let externs = crate::front::c::Externs::default();
    for program in [
        "int f(int n) { static int calls; calls++; if (n <= 0) return calls; return 1 + f(n - 1); }\n\
         int main() { if (f(3) != 5) reach_error(); return 0; }",
        "int a[4];\nint f(int n) { a[n & 3] = n; if (n <= 0) return 0; return 1 + f(n - 1); }\n\
         int main() { f(3); if (a[1] != 1) reach_error(); return 0; }",
    ] {
        let text = format!("{PRELUDE}{program}");
        let dm = crate::front::c::DataModel::Ilp32;
        let read = crate::front::c::translate_summarized(&text, dm, &externs);
        let Err(why) = read else {
            panic!("a summary of a function that writes more than scalars:\n{program}")
        };
        assert!(why.to_string().contains("writes more than its own locals"), "{why}");
    }
}

/// Globals a recursive function writes go through its summary: a counter incremented at
/// every level is proved equal to the depth (the installed Z3), and a wrong count is never
/// proved (both Spacers).
#[test]
fn summaries_carry_the_globals_a_recursion_writes() {
    let count = "int calls;\n\
                 void f(int n) { if (n <= 0) return; calls++; f(n - 1); calls = calls + 0; }\n\
                 int main() { int x = __VERIFIER_nondet_int(); if (x < 0 || x > 1000) return 0;\n\
                 calls = 0; f(x);\n";
    if let Some(spacer) = installed() {
        let cfa = summarized(&format!(
            "{count}if (calls != x) reach_error(); return 0; }}"
        ));
        let outcome = Horn::new(spacer).prove(&cfa, &Budget::new(Some(Duration::from_secs(30))));
        assert_eq!(outcome, Outcome::Proved);
    }
    for spacer in [Some(Spacer::InProcess), installed()].into_iter().flatten() {
        let wrong = format!("{count}if (x == 7 && calls == 7) reach_error(); return 0; }}");
        let cfa = summarized(&wrong);
        let outcome =
            Horn::new(spacer.clone()).prove(&cfa, &Budget::new(Some(Duration::from_secs(20))));
        assert!(
            matches!(outcome, Outcome::Unknown(_)),
            "{spacer:?} proved:\n{wrong}"
        );
    }
}
