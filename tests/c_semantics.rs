//! C semantics of the front end, checked against gcc: each program runs compiled by gcc (LP64,
//! the host's data model) and in the CFA interpreter with the same nondet values.
//!
//! A program reports results with `CHECK(r)`: under gcc it prints `r`; in warden it compares
//! `r` with the next nondet value and calls `reach_error()` if they differ. Fed gcc's printed
//! values, the interpreter must end without reaching the error; with one value off by one it
//! must reach it. Skipped (with a note) when gcc is missing.
//!
//! gcc runs with UBSan's signed-overflow check: a run that overflows a signed operation
//! stops there, and the interpreter, fed the values printed before it, must not reach the
//! error either (the front end cuts such paths: C leaves their results undefined).

use std::path::PathBuf;
use std::process::Command;

use warden::cfa::interp::{self, Queues};
use warden::front::c::{self, DataModel};
use warden::wl::{BitVec, Sort, Value};

const DECLS: &str = "extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
";

const HARNESS: &str = r#"#include <stdio.h>
#include <stdlib.h>
static int arg_i = 1;
static char **arg_v;
static long long next_value(void) { return strtoll(arg_v[arg_i++], 0, 10); }
int __VERIFIER_nondet_int(void) { return (int)next_value(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)next_value(); }
long long __VERIFIER_nondet_longlong(void) { return next_value(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)next_value(); }
short __VERIFIER_nondet_short(void) { return (short)next_value(); }
void __VERIFIER_assume(int c) { if (!c) { printf("blocked\n"); exit(0); } }
void reach_error(void) { printf("error\n"); exit(0); }
#define CHECK(r) printf("%lld\n", (long long)(r))
#define main program_main
"#;

fn gcc_available() -> bool {
    Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A small deterministic generator of test values, biased to edge cases.
fn values(seed: u64, n: usize) -> Vec<i64> {
    const EDGES: [i64; 9] = [0, 1, -1, 2, 7, 255, -128, i32::MAX as i64, i32::MIN as i64];
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            match s % 4 {
                0 => EDGES[(s >> 8) as usize % EDGES.len()],
                1 => (s >> 20) as i64 % 40 - 20,
                _ => (s >> 3) as i32 as i64,
            }
        })
        .collect()
}

/// Compiles `program` with the harness; returns the executable.
fn compile(name: &str, program: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-csem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, format!("{HARNESS}{program}\n#undef main\nint main(int c, char **v) {{ (void)c; arg_v = v; setvbuf(stdout, 0, _IONBF, 0); program_main(); return 0; }}\n")).unwrap();
    let out = Command::new("gcc")
        .args(["-O0", "-w", "-fsanitize=signed-integer-overflow"])
        .args(["-fno-sanitize-recover=all", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gcc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Whether the interpreter reaches the error with `values` for the `__VERIFIER_nondet_*` call
/// sites in creation order (each site drawn once; uninitialised variables get zero).
fn interp_reaches(cfa: &warden::cfa::Cfa, values: &[i64]) -> bool {
    let sites = (0..cfa.nondets.len()).filter(|&i| cfa.nondets[i].what.starts_with("__VERIFIER"));
    let drawn: Vec<(usize, Value)> = sites
        .zip(values)
        .map(|(i, &v)| {
            let Sort::Bv(w) = cfa.terms.sort(cfa.nondets[i].term) else {
                panic!("scalar nondet")
            };
            (i, Value::Bv(BitVec::from_u64(w, v as u64)))
        })
        .collect();
    let mut q = Queues::new(cfa, &drawn);
    interp::run(cfa, &mut q, 100_000).unwrap().reached(cfa)
}

/// Runs `program` (which draws `inputs` nondet values before its checks) on several input
/// vectors under gcc and in the interpreter; returns how many vectors were compared.
fn agree(name: &str, program: &str, inputs: usize) -> usize {
    if !gcc_available() {
        println!("note: gcc not found, C semantics test {name} skipped");
        return 1;
    }
    let exe = compile(name, program);
    let text = format!(
        "{DECLS}#define CHECK(r) if ((long long)(r) != __VERIFIER_nondet_longlong()) reach_error()\n{program}"
    );
    // Recursion inlined deep enough for the tests' programs (a call beyond the bound would
    // reach the error and fail the test), with a copy per call and with shared copies.
    let cfas: Vec<_> = [false, true]
        .into_iter()
        .map(|shared| {
            let recursion = c::Recursion {
                bound: 8,
                exceeded_is_error: true,
                shared,
            };
            c::translate_with(&text, DataModel::Lp64, &c::Externs::default(), recursion)
                .unwrap()
                .cfa
        })
        .collect();
    let mut compared = 0;
    for seed in 0..40 {
        let ins = values(seed, inputs);
        let out = Command::new(&exe)
            .args(ins.iter().map(|v| v.to_string()))
            .output()
            .unwrap();
        let printed = String::from_utf8(out.stdout).unwrap();
        if printed.contains("blocked") {
            continue;
        }
        // UBSan stopped the run at a signed overflow: the values printed before it are all
        // the interpreter gets (the later checks draw zero), and its path must end there.
        let overflowed = String::from_utf8_lossy(&out.stderr).contains("runtime error");
        assert_eq!(
            overflowed,
            !out.status.success(),
            "{name}: {:?}",
            out.status
        );
        let results: Vec<i64> = printed.lines().map(|l| l.parse().unwrap()).collect();
        let all: Vec<i64> = ins.iter().copied().chain(results.iter().copied()).collect();
        let mut wrong = all.clone();
        let last = wrong.len() - 1;
        wrong[last] = wrong[last].wrapping_add(1);
        for (cfa, copies) in cfas.iter().zip(["a copy per call", "shared copies"]) {
            assert!(
                !interp_reaches(cfa, &all),
                "{name} ({copies}): inputs {ins:?}: gcc printed {results:?} (overflowed: \
                 {overflowed}), the interpreter disagrees"
            );
            assert!(
                results.is_empty() || interp_reaches(cfa, &wrong),
                "{name} ({copies}): a wrong value was accepted"
            );
        }
        compared += 1;
    }
    compared
}

#[test]
fn integer_promotions() {
    let p = "int main() { unsigned char a = __VERIFIER_nondet_uchar(); unsigned char b = __VERIFIER_nondet_uchar();
      short s = __VERIFIER_nondet_short();
      CHECK(a + b); CHECK(a - b); CHECK(a * b * s); CHECK(~a); CHECK(-a); CHECK(s * s); CHECK(a << 24);
      unsigned char c = a + b; CHECK(c); signed char d = a; CHECK(d); CHECK(d < a); return 0; }";
    assert!(agree("promotions", p, 3) > 10);
}

#[test]
fn unsigned_wrap_and_mixed_comparisons() {
    let p =
        "int main() { unsigned int u = __VERIFIER_nondet_uint(); int i = __VERIFIER_nondet_int();
      CHECK(u + 4000000000u); CHECK(u * u); CHECK(u - 5u); CHECK(-u); CHECK(i < u); CHECK(-1 < u);
      CHECK(i + u); CHECK(i * 3); CHECK((long long)i * i); CHECK(u / 3u); CHECK(u % 7u);
      unsigned long long w = u; w = w * w * w; CHECK(w); CHECK(w > 100); return 0; }";
    assert!(agree("unsigned", p, 2) > 10);
}

#[test]
fn signed_division_and_remainder() {
    let p = "int main() { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();
      __VERIFIER_assume(b != 0 && !(a == -2147483647 - 1 && b == -1));
      CHECK(a / b); CHECK(a % b); CHECK(-a / 3); CHECK(a % -5); CHECK((unsigned)a / (unsigned)b);
      CHECK((unsigned)a % (unsigned)b); long long l = a; CHECK(l / b); return 0; }";
    assert!(agree("division", p, 2) > 10);
}

#[test]
fn shifts() {
    let p = "int main() { int a = __VERIFIER_nondet_int(); int s = (unsigned)__VERIFIER_nondet_int() % 32;
      CHECK(a >> s); CHECK((unsigned)a >> s); CHECK((unsigned)a << s); CHECK((long long)a << 32);
      CHECK(a >> 31); CHECK(1u << s); unsigned char c = a; CHECK(c << 4); CHECK(c >> 1); return 0; }";
    assert!(agree("shifts", p, 2) > 10);
}

#[test]
fn short_circuit_with_side_effects() {
    let p = "int g = 0; int f(int v) { g++; return v > 3; }
      int main() { int x = __VERIFIER_nondet_int(); int y = 0; int z = 0;
      if (x > 5 && (y = x + 1) > 10) y += 100; CHECK(y);
      int r = (x < 0 || z++); CHECK(r); CHECK(z);
      int t = x > 0 && f(x); CHECK(t); CHECK(g);
      int u = x < 2 || f(x + 1) || f(x - 10); CHECK(u); CHECK(g);
      int w = x ? f(x) + 1 : 7; CHECK(w); CHECK(g); CHECK(x > 0 ? x : -x); return 0; }";
    assert!(agree("shortcircuit", p, 1) > 10);
}

#[test]
fn switch_fall_through_and_loops() {
    let p = "int main() { int x = __VERIFIER_nondet_int(); int n = (unsigned)__VERIFIER_nondet_int() % 20; int y = 0;
      switch (x % 8) { case 1: y += 1; case 2: y += 2; break; case 3: y += 3; default: y += 10; case 5: y += 5; case -1: y *= 2; }
      CHECK(y);
      int s = 0; int i;
      for (i = 0; i < n; i++) { if (i == 3) continue; if (i == 7) break; s += i; }
      CHECK(s); CHECK(i);
      int k = n; do { k -= 3; s ^= k; } while (k > 0); CHECK(k); CHECK(s);
      int m = 0; again: m++; if (m < n) goto again; CHECK(m); return 0; }";
    assert!(agree("switch", p, 2) > 10);
}

#[test]
fn conversions_between_widths() {
    let p = "int main() { long long L = __VERIFIER_nondet_longlong(); int i = __VERIFIER_nondet_int();
      CHECK((int)L); CHECK((short)L); CHECK((unsigned char)L); CHECK((_Bool)L); CHECK((signed char)(L >> 3));
      CHECK((unsigned long long)i); CHECK((long long)(unsigned)i); CHECK((unsigned short)i);
      _Bool b = i; CHECK(b); CHECK(b + b); char c = i; CHECK(c); long l = i; CHECK(l * 1000000);
      int a[4] = {1, 2}; a[(unsigned)i % 4] = i; CHECK(a[0] + a[1] + a[2] + a[3]);
      i += 5; i <<= 2; i ^= 0x55; i -= L; CHECK(i); i++; ++i; CHECK(i--); CHECK(--i); return 0; }";
    assert!(agree("conversions", p, 2) > 10);
}

#[test]
fn recursion_with_locals_live_across_calls() {
    // Each level keeps its own `n` and `k` across the recursive calls, as gcc's stack does.
    let p = "int fact(int n) { if (n <= 1) return 1; int k = n; return k * fact(n - 1); }
      int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
      int is_odd(int n);
      int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
      int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
      int main() { int n = (unsigned)__VERIFIER_nondet_int() % 8; int m = (unsigned)__VERIFIER_nondet_int() % 7;
      CHECK(fact(n)); CHECK(fib(m)); CHECK(fact(m) - fib(n)); CHECK(is_even(n + m)); CHECK(is_odd(m)); return 0; }";
    assert!(agree("recursion", p, 2) > 10);
}

#[test]
fn tail_calls_as_jumps_keep_every_value() {
    // Tail calls reuse the active frame (`src/front/c/tail.rs`): arguments computed from the
    // old parameters before any is assigned, locals declared again, a chain through a
    // narrower return type inlined (its conversion kept), calls in arguments.
    let p = "int gcd(int a, int b) { if (a <= 0 || b <= 0) return 0; if (a == b) return a;
        if (a > b) return gcd(a - b, b); return gcd(a, b - a); }
      int swap_down(int x, int y, int k) { int t = x; if (k <= 0) return x - 2 * y; return swap_down(y, t, k - 1); }
      int g(int n);
      long long f(int n) { if (n <= 0) return 4294967297LL; return g(n - 1); }
      int g(int n) { return f(n); }
      int acc(int n, int s) { if (n <= 0) return s; return acc(n - 1, s + gcd(n, 6)); }
      int main() { int a = (unsigned)__VERIFIER_nondet_int() % 40 + 1; int b = (unsigned)__VERIFIER_nondet_int() % 30 + 1;
      int k = (unsigned)__VERIFIER_nondet_int() % 5;
      CHECK(gcd(a, b)); CHECK(swap_down(a, b, k)); CHECK(f(k)); CHECK(acc(k, a)); return 0; }";
    assert!(agree("tailcalls", p, 3) > 10);
}

#[test]
fn static_locals_are_initialised_once() {
    let p = "int next(int step) { static int counter = 100; counter += step; return counter; }
      int calls(void) { static int c; return ++c; }
      int main() { int a = __VERIFIER_nondet_int() % 50;
      CHECK(next(a)); CHECK(next(1)); CHECK(calls()); CHECK(calls() + next(a)); CHECK(calls()); return 0; }";
    assert!(agree("statics", p, 1) > 10);
}

#[test]
fn conditionals_with_a_void_operand() {
    // glibc's `assert` expands to `c ? (void)0 : __assert_fail(...)`; a void operand makes
    // the conditional void, whatever the other operand.
    let p = "int g = 0; int bump(int v) { g += v; return g; }
      int main() { int x = __VERIFIER_nondet_int();
      x > 0 ? (void)0 : bump(x); CHECK(g);
      x > 5 ? bump(2) : (void)0; CHECK(g);
      x & 1 ? (void)0 : (void)(g = g * 3); CHECK(g);
      x < 10 ? g++ : (void)0; CHECK(g); return 0; }";
    assert!(agree("voidcond", p, 1) > 10);
}

#[test]
fn variable_length_arrays_keep_the_length_of_their_declaration() {
    let p = "int main() { int n = (unsigned)__VERIFIER_nondet_int() % 10 + 1; int a[n]; int i;
      n = n + 5; for (i = 0; i < n - 5; i++) a[i] = i * i - 3; int s = 0;
      for (i = 0; i < n - 5; i++) s += a[i]; CHECK(s); CHECK(a[n - 6]); CHECK(a[0] + n); return 0; }";
    assert!(agree("vla", p, 1) > 10);
    // An index past the length fixed at the declaration (not the array's 32-bit index
    // range) is undefined: the path is cut before the error.
    let text = format!(
        "{DECLS}int main() {{ int n = __VERIFIER_nondet_int(); int a[n]; n = n + 1; a[n - 1] = 1; reach_error(); return 0; }}"
    );
    let cfa = c::translate(&text, DataModel::Ilp32).unwrap().cfa;
    assert!(!interp_reaches(&cfa, &[4]));
    assert!(!interp_reaches(&cfa, &[0]), "a length of 0 is undefined");
    let text = text.replace("n = n + 1; ", "");
    let cfa = c::translate(&text, DataModel::Ilp32).unwrap().cfa;
    assert!(interp_reaches(&cfa, &[4]));
}

#[test]
fn signed_overflow_cuts_the_path_and_unsigned_wraps() {
    let p = "int main() { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();
      CHECK((unsigned)a + (unsigned)b); CHECK(a + b); CHECK(a - b); CHECK(-a); CHECK(a * b);
      CHECK(a / (b | 1)); return 0; }";
    assert!(agree("overflow", p, 2) > 10);
    for (op, a, b) in [("+", i32::MAX, 1), ("-", i32::MIN, 1), ("*", 65536, 32768)] {
        let text = format!(
            "{DECLS}int main() {{ int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); \
             int c = a {op} b; reach_error(); return c; }}"
        );
        let cfa = c::translate(&text, DataModel::Ilp32).unwrap().cfa;
        assert!(!interp_reaches(&cfa, &[a.into(), b.into()]), "{a} {op} {b}");
        assert!(interp_reaches(&cfa, &[1, 1]), "1 {op} 1");
    }
    let text = format!("{DECLS}int main() {{ int a = __VERIFIER_nondet_int(); a = -a / -1; reach_error(); return a; }}");
    let cfa = c::translate(&text, DataModel::Ilp32).unwrap().cfa;
    assert!(!interp_reaches(&cfa, &[i32::MIN.into()]), "-INT_MIN");
    assert!(interp_reaches(&cfa, &[i32::MAX.into()]));
}

#[test]
fn ilp32_long_is_32_bits() {
    let text = format!(
        "{DECLS}int main() {{ unsigned long x = 4294967295u; x = x + 1; if (x == 0 && sizeof(long) == 4) reach_error(); return 0; }}"
    );
    let ilp32 = c::translate(&text, DataModel::Ilp32).unwrap().cfa;
    let lp64 = c::translate(&text, DataModel::Lp64).unwrap().cfa;
    assert!(interp_reaches(&ilp32, &[]));
    assert!(!interp_reaches(&lp64, &[]));
}

#[test]
fn unsupported_constructs_are_named_with_their_line() {
    let cases = [
        ("int main() {\n int *p = 0;\n return 0; }", "pointer", 2),
        (
            "int main() {\n struct s { int a; } x;\n return 0; }",
            "struct",
            2,
        ),
        (
            "int main() {\n double d = 1.0;\n return 0; }",
            "floating-point",
            2,
        ),
        (
            "void *malloc(unsigned long);\nint main() {\n malloc(4);\n return 0; }",
            "call to malloc",
            3,
        ),
        (
            "void g(int *a);\nint main() {\n int a[4];\n g(a);\n return 0; }",
            "array passed to g",
            4,
        ),
    ];
    for (src, what, line) in cases {
        match c::translate(src, DataModel::Ilp32) {
            Err(c::CError::Unsupported { line: l, construct }) => {
                assert!(construct.contains(what), "{src}: {construct}");
                assert_eq!(l, line, "{src}");
            }
            Err(e) => panic!("{src}: {e}"),
            Ok(_) => panic!("{src}: accepted"),
        }
    }
}
