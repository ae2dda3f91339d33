//! Resource limits that hold, end to end: on models too hard to finish, `--timeout` ends every
//! engine (the CFA CEGAR on a C program too) by its own budget checks, SIGINT prints
//! `unknown`, and `--mem-limit` keeps the peak resident memory under the limit.
//!
//! The models are generated here: a 32-bit counter whose all-ones value is bad (reachable, so
//! no engine can prove it safe, and the shortest counterexample is 2^32 - 1 steps deep), or'ed
//! with a 32-bit multiplier commutativity miter (`a * b != b * a`, so every SAT query on a frame
//! is hard). Timing: the machine these run on is shared and loaded, so the elapsed-time bound
//! is the limit plus 3 s; what shows that an engine stopped on its own is that the overrun
//! watchdog (which prints `unknown` at the limit, or 1 s after a signal, when code
//! does not poll the budget) never had to speak.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The counter-or-miter model described in the module doc, in BTOR2.
const DEEP_MITER: &str = "\
1 sort bitvec 1
2 sort bitvec 32
3 input 2 a
4 input 2 b
5 state 2 cnt
6 zero 2
7 init 2 5 6
8 one 2
9 add 2 5 8
10 next 2 5 9
11 ones 2
12 eq 1 5 11
13 mul 2 3 4
14 mul 2 4 3
15 neq 1 13 14
16 or 1 12 15
17 bad 16
";

/// A model whose BMC unrolling grows quickly and never needs a hard SAT query: `x' = x * a + b`,
/// and a 32-bit counter `cnt` that counts the frames where `x * a != 0`, bad when all ones.
/// The counter's high bits stay constant for 2^31 frames, so the bad state folds to false,
/// but every frame still encodes a multiplier.
const GROWING: &str = "\
1 sort bitvec 1
2 sort bitvec 32
3 input 2 a
4 input 2 b
5 state 2 x
6 state 2 cnt
7 zero 2
8 init 2 6 7
9 mul 2 5 3
10 add 2 9 4
11 next 2 5 10
12 redor 1 9
13 uext 2 12 31
14 add 2 6 13
15 next 2 6 14
16 ones 2
17 eq 1 6 16
18 bad 17
";

/// The miter as a C program for the CFA CEGAR: every path check is the hard SAT query.
const C_MITER: &str = "\
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main() {
  unsigned n = 0;
  while (1) {
    unsigned a = __VERIFIER_nondet_uint();
    unsigned b = __VERIFIER_nondet_uint();
    if (a * b != b * a) reach_error();
    n = n + 1;
  }
}
";

/// Straight-line 64-bit multiplications as a C program (one large block): bit-blasting it
/// takes seconds (5.4 s for `warden blast` on a loaded 2-core machine), so `--timeout 1` must
/// be seen by the blaster itself.
fn c_multiplications(n: usize) -> String {
    let mut text = String::from(
        "extern unsigned long long __VERIFIER_nondet_ulonglong(void);\n\
         extern void reach_error(void);\n\
         int main(void) {\n\
         unsigned long long x = __VERIFIER_nondet_ulonglong();\n\
         unsigned long long y = __VERIFIER_nondet_ulonglong();\n",
    );
    for i in 0..n {
        text += &format!("x = x * y + {}ULL; y = y * x ^ {}ULL;\n", i + 1, 2 * i + 3);
    }
    text + "if (x == 12345ULL) reach_error();\nreturn 0;\n}\n"
}

/// The same chain of 64-bit multiplications as a BTOR2 model (`x' = x * y + x`, `y' = y * x'`
/// unrolled `n` times in one frame), bad when the last `x` is 12345.
fn btor2_multiplications(n: usize) -> String {
    let mut text = String::from("1 sort bitvec 1\n2 sort bitvec 64\n3 input 2 x\n4 input 2 y\n");
    let (mut x, mut y, mut id) = (3, 4, 5);
    for _ in 0..n {
        text += &format!("{id} mul 2 {x} {y}\n{} add 2 {id} {x}\n", id + 1);
        x = id + 1;
        text += &format!("{} mul 2 {y} {x}\n", id + 2);
        y = id + 2;
        id += 3;
    }
    text + &format!(
        "{id} constd 2 12345\n{} eq 1 {x} {id}\n{} bad {}\n",
        id + 1,
        id + 2,
        id + 1
    )
}

/// The watchdog's message on stderr (`cli.rs`): its presence means an engine overran.
const OVERRUN: &str = "still running";

fn model(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("warden-limits-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// What one run of `warden check` did.
struct Run {
    stdout: String,
    stderr: String,
    elapsed: Duration,
    /// The child's peak resident memory in KiB (`ru_maxrss` of that child alone).
    max_rss_kib: i64,
}

/// Runs `warden check ARGS`, sending `signal` after `signal_after` when given.
fn check(args: &[&str], signal: Option<(i32, Duration)>) -> Run {
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_warden"))
        .arg("check")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run warden");
    let pid = child.id() as i32;
    if let Some((sig, after)) = signal {
        std::thread::sleep(after);
        // SAFETY: kill(2) on our own child's pid, which has not been waited for yet.
        unsafe { libc::kill(pid, sig) };
    }
    // Read the pipes on threads so that a chatty child never blocks, then reap the child
    // with wait4 to get its own resource usage.
    let mut child = child;
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || std::io::read_to_string(&mut out).unwrap());
    let err = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap());
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid);
    let elapsed = start.elapsed();
    assert!(libc::WIFEXITED(status), "warden did not exit normally");
    assert_eq!(libc::WEXITSTATUS(status), 0);
    Run {
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        elapsed,
        max_rss_kib: usage.ru_maxrss,
    }
}

/// The run printed `unknown`, stopped by its own budget checks, within `limit` plus 3 s.
fn assert_stopped(run: &Run, limit: Duration, what: &str) {
    assert_eq!(run.stdout, "unknown\n", "{what}: {}", run.stderr);
    assert!(
        !run.stderr.contains(OVERRUN),
        "{what} overran: {}",
        run.stderr
    );
    assert!(
        run.elapsed < limit + Duration::from_secs(3),
        "{what} took {:?}",
        run.elapsed
    );
}

#[test]
fn timeout_ends_every_engine_on_a_model_too_hard_to_finish() {
    let m = model("deep_miter.btor2", DEEP_MITER);
    let m = m.to_str().unwrap();
    for engine in ["bmc", "kind", "ic3", "imc", "cegar", "portfolio"] {
        let run = check(&[m, "--engine", engine, "--timeout", "1"], None);
        assert_stopped(&run, Duration::from_secs(1), engine);
    }
}

#[test]
fn timeout_ends_the_cfa_cegar_on_a_program_too_hard_to_finish() {
    let c = model("miter.c", C_MITER);
    let run = check(
        &[c.to_str().unwrap(), "--engine", "cegar", "--timeout", "1"],
        None,
    );
    assert_stopped(&run, Duration::from_secs(1), "cfa cegar");
}

/// A model whose bit-blasting outlasts `--timeout 1` ends with `unknown` (exit 0, checked by
/// [`check`]) because the blaster polls the budget: it says it stopped while bit-blasting, and
/// the overrun watchdog never had to speak. For C programs and BTOR2 models alike.
#[test]
fn timeout_ends_the_bit_blasting_of_a_large_model() {
    for (name, text) in [
        ("multiplications.c", c_multiplications(200)),
        ("multiplications.btor2", btor2_multiplications(200)),
    ] {
        let path = model(name, &text);
        let run = check(&[path.to_str().unwrap(), "--timeout", "1"], None);
        assert_eq!(run.stdout, "unknown\n", "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains("stopped while bit-blasting the model"),
            "{name}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains(OVERRUN), "{name}: {}", run.stderr);
        eprintln!("{name}: stopped after {:?}", run.elapsed);
    }
}

#[test]
fn sigint_prints_unknown() {
    let m = model("deep_miter_int.btor2", DEEP_MITER);
    let run = check(
        &[m.to_str().unwrap(), "--engine", "ic3"],
        Some((libc::SIGINT, Duration::from_millis(500))),
    );
    assert_stopped(&run, Duration::from_millis(500), "ic3 after SIGINT");
}

#[test]
fn memory_limit_keeps_the_peak_under_the_limit() {
    let m = model("growing.btor2", GROWING);
    // Large enough that one growth step of the solver is a small part of it, as in real runs.
    let limit_mib = 300;
    let run = check(
        &[
            m.to_str().unwrap(),
            "--engine",
            "bmc",
            "--mem-limit",
            &limit_mib.to_string(),
            "--timeout",
            "600",
        ],
        None,
    );
    assert_eq!(run.stdout, "unknown\n", "{}", run.stderr);
    // Usually BMC's own budget check ends the run at 90 % of the limit; on a loaded machine
    // the solver can grow past 95 % before its next check, and the ceiling there ends it.
    // Either way the run must say why and stay under the limit (a harness kills at it).
    assert!(
        run.stderr.contains("memory limit"),
        "the memory limit ended the run: {}",
        run.stderr
    );
    let peak_mib = run.max_rss_kib as f64 / 1024.0;
    assert!(
        peak_mib < limit_mib as f64,
        "peak {peak_mib:.0} MiB over a {limit_mib} MiB limit"
    );
}
