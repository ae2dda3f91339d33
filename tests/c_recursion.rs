//! Recursive C programs through `warden check`: recursion is inlined to a bound that the run
//! deepens. A `sat` error path is a real one (`warden sim` replays it at the bound it records,
//! without a call beyond it); `unsat` only when calls beyond the bound cannot reach the error
//! either; a program whose recursion no bound covers ends `unknown`, never with a wrong answer.

mod common;

use common::{scratch_file, warden};

const DECLS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n";

/// `warden check` of `DECLS` + `body` with the portfolio and a time limit of `timeout`
/// seconds: the verdict line and stderr. A `sat` error path must replay in `warden sim`.
fn check(name: &str, body: &str, timeout: &str) -> (String, String) {
    let program = scratch_file("crec", &format!("{name}.c"));
    std::fs::write(&program, format!("{DECLS}{body}")).unwrap();
    let path = scratch_file("crec", &format!("{name}.path"));
    let (program, path) = (program.to_str().unwrap(), path.to_str().unwrap());
    let out = warden(&["check", program, "--timeout", timeout, "--witness", path]);
    assert_eq!(out.status.code(), Some(0), "{name}: {out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let verdict = stdout.lines().next().unwrap_or_default().to_owned();
    if verdict == "sat" {
        let sim = warden(&["sim", program, path]);
        assert_eq!(
            sim.status.code(),
            Some(0),
            "{name}: the error path: {sim:?}"
        );
    }
    (verdict, String::from_utf8(out.stderr).unwrap())
}

/// A program whose error needs `depth + 1` nested calls of one function.
fn down_to(depth: u32) -> String {
    format!(
        "int down(int n) {{ if (n <= 0) return 0; return 1 + down(n - 1); }}
int main() {{ int n = __VERIFIER_nondet_int(); if (n < 0 || n > 1000) return 0;
  if (down(n) == {depth}) reach_error(); return 0; }}"
    )
}

#[test]
fn an_error_three_calls_deep_is_sat_with_a_replayed_path() {
    let (verdict, _) = check("depth3", &down_to(3), "20");
    assert_eq!(verdict, "sat");
    // The path records the bound it was found at, and is invalid at a smaller one.
    let path = scratch_file("crec", "depth3.path");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("--recursion-bound 5"), "{text}");
    std::fs::write(
        &path,
        text.replace("--recursion-bound 5", "--recursion-bound 2"),
    )
    .unwrap();
    let program = scratch_file("crec", "depth3.c");
    let sim = warden(&["sim", program.to_str().unwrap(), path.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(1), "{sim:?}");
    assert!(String::from_utf8_lossy(&sim.stdout).contains("recursion bound"));
}

#[test]
fn bounded_recursion_is_proved_safe() {
    // Depth 6 at most: bound 8 covers every call, so the calls beyond it are unreachable.
    let body = "int id(int x) { if (x <= 0) return 0; return id(x - 1) + 1; }
int main() { int n = __VERIFIER_nondet_int() % 6; if (n < 0) n = -n;
  if (id(n) != n) reach_error(); return 0; }";
    assert_eq!(check("bounded", body, "20").0, "unsat");
}

#[test]
fn safe_recursion_deeper_than_any_bound_is_proved_without_effects_or_by_summaries() {
    // Safe at every depth: no inlining bound covers it. Without effects, a call beyond the
    // bound is any value, and `sum(n) < 0 && n <= 0` is still impossible (n <= 0 returns 0
    // at once): proved.
    let body = "int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }
int main() { int n = __VERIFIER_nondet_int(); if (sum(n) < 0 && n <= 0) reach_error(); return 0; }";
    let (verdict, stderr) = check("unbounded", body, "20");
    assert_eq!(verdict, "unsat", "{stderr}");
    // Counting the calls in a global is an effect: calls beyond the bound go to the error,
    // and the inlining alone gives up at the time limit (while checking, or while
    // bit-blasting a deeper inlining), or where the inlined program grew too large. The
    // procedure summaries carry the counter and prove it in the Z3 executable
    // `scripts/setup` installs; without it the answer is `unknown`.
    let counted = format!(
        "int calls;\n{}",
        body.replace("{ if (n <= 0)", "{ calls++; if (n <= 0)")
    );
    let (verdict, stderr) = check("unbounded_counted", &counted, "4");
    let z3 = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/z3-venv/bin/z3");
    let expected = if z3.is_file() { "unsat" } else { "unknown" };
    assert_eq!(verdict, expected, "{stderr}");
}

#[test]
fn an_error_beyond_the_reachable_bound_is_never_unsat() {
    // The error needs 40 nested calls: in a short run it is found or the answer is unknown.
    let (verdict, stderr) = check("deep", &down_to(40), "3");
    assert!(
        verdict == "sat" || verdict == "unknown",
        "{verdict}: {stderr}"
    );
}

#[test]
fn mutual_recursion_is_inlined_per_function() {
    let even_odd = "int is_odd(int n);
int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
int main() { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 5) return 0;\n";
    let safe = format!("{even_odd}  if (is_even(n) != (n % 2 == 0)) reach_error(); return 0; }}");
    assert_eq!(check("evenodd_safe", &safe, "20").0, "unsat");
    // is_even(5) calls is_odd(4), is_even(3), ...: three calls of each function deep.
    let unsafe_ = format!("{even_odd}  if (n == 5 && !is_even(n)) reach_error(); return 0; }}");
    assert_eq!(check("evenodd_unsafe", &unsafe_, "20").0, "sat");
}

#[test]
fn static_locals_keep_their_value_across_recursive_calls() {
    // One `count` for every call: after f(3) it has counted 4 calls, after f(0) then 5.
    let body = "int f(int n) { static int count = 10; count++; if (n > 0) f(n - 1); return count; }
int main() { int r = f(3); if (r != 14) reach_error(); if (f(0) != 15) reach_error(); return 0; }";
    assert_eq!(check("static", body, "20").0, "unsat");
}

/// Tail calls reuse the active call's frame (`src/front/c/tail.rs`): Euclid's algorithm, whose
/// recursion depth no bound covers, is a loop, proved safe with no recursion bound reported.
#[test]
fn tail_recursion_of_any_depth_is_proved_as_a_loop() {
    let body = "int gcd(int a, int b) { if (a <= 0 || b <= 0) return 0; if (a == b) return a;
  if (a > b) return gcd(a - b, b); return gcd(a, b - a); }
int main() { int m = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();
  if (m <= 0 || n <= 0) return 0; if (gcd(m, n) < 1) reach_error(); return 0; }";
    let (verdict, stderr) = check("gcd", body, "20");
    assert_eq!(verdict, "unsat", "{stderr}");
    assert!(!stderr.contains("recursion"), "{stderr}");
}

/// Mutual tail recursion (`isOdd` calls `isEven` calls `isOdd`) jumps back to the first call.
#[test]
fn mutual_tail_recursion_is_proved_as_a_loop() {
    let body = "int isEven(int n); int isOdd(int n) { if (n == 0) return 0; return isEven(n - 1); }
int isEven(int n) { if (n == 0) return 1; return isOdd(n - 1); }
int main() { int n = __VERIFIER_nondet_int(); if (n < 0) return 0;
  if (isOdd(n) != n % 2) reach_error(); return 0; }";
    let (verdict, stderr) = check("evenodd", body, "20");
    assert_eq!(verdict, "unsat", "{stderr}");
}

/// A bug 37 tail calls deep: found as a loop, and the error path replays in `warden sim`
/// (`check` replays it).
#[test]
fn an_error_deep_in_tail_recursion_is_sat_with_a_replayed_path() {
    let body = "int count(int n, int acc) { if (n == 0) return acc; return count(n - 1, acc + 1); }
int main() { int x = __VERIFIER_nondet_int(); if (x < 0 || x > 100) return 0;
  if (count(x, 0) == 37) reach_error(); return 0; }";
    assert_eq!(check("count", body, "20").0, "sat");
}

/// A chain of tail calls whose types differ is not reused: `g` narrows `f`'s `long long` to
/// `int` on its way out, so `f(1)` is 0, not 2^32 (a jump back to `f` would skip that).
#[test]
fn tail_calls_through_a_narrower_return_type_are_inlined() {
    let body = "int g(int n);
long long f(int n) { if (n <= 0) return 4294967296LL; return g(n - 1); }
int g(int n) { return f(n); }
int main() { int n = __VERIFIER_nondet_int() % 4; if (n < 0) n = -n;
  if (f(n) != 4294967296LL) reach_error(); return 0; }";
    assert_eq!(check("convert", body, "20").0, "sat");
}

/// A program that draws no nondet value is executed: fib(22) makes 57,313 calls 22 deep,
/// which no inlining of a copy per call reaches, and the run decides it either way. The
/// error path records the shared copies it was found with, and `warden sim` replays it.
#[test]
fn deterministic_deep_recursion_is_decided_by_executing_it() {
    let fib = "int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int main() { int r = fib(22); if (r != EXPECTED) reach_error(); return 0; }";
    let json = scratch_file("crec", "fib22.json");
    let program = scratch_file("crec", "fib22.c");
    std::fs::write(
        &program,
        format!("{DECLS}{}", fib.replace("EXPECTED", "17711")),
    )
    .unwrap();
    let out = warden(&[
        "check",
        program.to_str().unwrap(),
        "--timeout",
        "20",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n");
    let report = std::fs::read_to_string(&json).unwrap();
    assert!(report.contains("\"engine\":\"execute\""), "{report}");
    let (verdict, _) = check("fib22_bug", &fib.replace("EXPECTED", "17712"), "20");
    assert_eq!(verdict, "sat");
    let path = std::fs::read_to_string(scratch_file("crec", "fib22_bug.path")).unwrap();
    assert!(path.contains("--shared-recursion"), "{path}");
}

/// A call deeper than the bound of a function without effects returns any value in the
/// over-approximation: `id` caps its result at 5 whatever the inner call returns, so no
/// input gives 10, at every depth (SV-COMP's `id2_b5_o10`), proved at bound 1.
#[test]
fn capped_recursion_without_effects_is_proved_at_every_depth() {
    let body = "unsigned id2(unsigned x);
unsigned id(unsigned x) { if (x == 0) return 0; unsigned r = id2(x - 1) + 1; if (r > 5) return 5; return r; }
unsigned id2(unsigned x) { if (x == 0) return 0; unsigned r = id(x - 1) + 1; if (r > 5) return 5; return r; }
int main() { unsigned in = __VERIFIER_nondet_int(); if (id(in) == 10) reach_error(); return 0; }";
    let (verdict, stderr) = check("capped", body, "20");
    assert_eq!(verdict, "unsat", "{stderr}");
}

/// Functions with an effect are never cut to a value: a global counted in each call, or the
/// error reached deep inside, keeps the over-approximation's calls beyond the bound going to
/// the error, so these unsafe programs are never `unsat` (`sat` or `unknown` in a short run).
#[test]
fn deep_calls_with_effects_are_never_cut_to_a_value() {
    let global = "int calls = 0;
int f(int n) { calls++; if (n <= 0) return 0; return 1 + f(n - 1); }
int main() { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 100) return 0; f(n);
  if (calls == 30) reach_error(); return 0; }";
    let deep_error =
        "int f(int n) { if (n == 30) reach_error(); if (n <= 0) return 0; return 1 + f(n - 1); }
int main() { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 100) return 0; f(n); return 0; }";
    let array = "int f(int a[], int n) { if (n <= 0) return 0; a[n % 4] = 1; return 1 + f(a, n - 1); }
int main() { int a[4] = {0, 0, 0, 0}; int n = __VERIFIER_nondet_int(); if (n < 0 || n > 100) return 0;
  f(a, n); if (n > 20 && a[3] == 1) reach_error(); return 0; }";
    for (name, body) in [
        ("global", global),
        ("deep_error", deep_error),
        ("array", array),
    ] {
        let (verdict, stderr) = check(name, body, "4");
        assert_ne!(verdict, "unsat", "{name}: {stderr}");
    }
}

/// A `void` call beyond the bound that never returns (it ends the program deep down) is not
/// taken to return: the error after it is unreachable, and never `sat`.
#[test]
fn a_cut_void_call_is_no_counterexample() {
    let body = "extern void abort(void);
void down(int n) { if (n > 0) down(n - 1); else abort(); }
int main() { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 50) return 0; down(n); reach_error(); return 0; }";
    let (verdict, stderr) = check("void_cut", body, "4");
    assert_ne!(verdict, "sat", "{stderr}");
}
