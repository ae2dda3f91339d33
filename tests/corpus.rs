//! The shared corpus (`../shared/bench/eval-aiger.tsv`, `eval-btor2.tsv`, `eval-c.tsv`): no
//! wrong verdict, every witness replays (checked by `warden sim`, a separate process reading
//! the printed witness; for C the error path's nondet values). Models warden rejects as
//! `unsupported: ...` (an input error, exit 2, for circuits; `unknown`, exit 0, for C) are
//! counted and reported, not failed: they get no verdict, which is never wrong.
//!
//! Bounded: `WARDEN_CORPUS_TIMEOUT` seconds per task (default 5) and, when set,
//! `WARDEN_CORPUS_LIMIT` tasks; skipped with a message when `../shared` is absent.

mod common;

use std::process::Command;
use std::sync::Mutex;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `engine` on the tasks of `set` with expected verdict in `verdicts`; returns the
/// number solved, and fails on any wrong verdict or witness.
fn check_set(set: &str, verdicts: &[&str], engine: &str) -> usize {
    let Some(tasks) = common::corpus_set(set) else {
        return 0;
    };
    let limit = env_number("WARDEN_CORPUS_LIMIT", u64::MAX) as usize;
    let timeout = env_number("WARDEN_CORPUS_TIMEOUT", 5).to_string();
    let tasks: Vec<_> = tasks
        .into_iter()
        .filter(|t| verdicts.contains(&t.expected.as_str()))
        .take(limit)
        .collect();
    let next = Mutex::new(tasks.iter());
    let failures = Mutex::new(Vec::new());
    let solved = Mutex::new(0);
    let unsupported = Mutex::new(0);
    std::thread::scope(|s| {
        for worker in 0..2 {
            let (next, failures, solved, unsupported) = (&next, &failures, &solved, &unsupported);
            let timeout = &timeout;
            // The four tests run as threads of one process: the file name carries the set
            // and engine too, or one test's witness overwrites another's.
            let wit = common::scratch_file("corpus", &format!("{set}-{engine}-{worker}.wit"));
            s.spawn(move || loop {
                let Some(task) = next.lock().unwrap().next() else {
                    break;
                };
                let model = task.path.to_str().unwrap();
                let out = Command::new(env!("CARGO_BIN_EXE_warden"))
                    .args(["check", model, "--engine", engine, "--timeout", timeout])
                    .args(["--witness", wit.to_str().unwrap()])
                    .output()
                    .unwrap();
                let verdict = String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string();
                let fail = |m: String| failures.lock().unwrap().push(format!("{model}: {m}"));
                let stderr = String::from_utf8_lossy(&out.stderr);
                if matches!(out.status.code(), Some(0 | 2)) && stderr.contains("unsupported: ") {
                    *unsupported.lock().unwrap() += 1;
                    continue;
                }
                if out.status.code() != Some(0) {
                    fail(format!("exit {:?}: {stderr}", out.status.code()));
                    continue;
                }
                match verdict.as_str() {
                    "sat" | "unsat" if verdict != task.expected => {
                        fail(format!("wrong verdict {verdict}"))
                    }
                    "sat" => {
                        let sim = Command::new(env!("CARGO_BIN_EXE_warden"))
                            .args(["sim", model, wit.to_str().unwrap()])
                            .output()
                            .unwrap();
                        if sim.status.code() != Some(0) {
                            fail(format!(
                                "witness rejected: {}",
                                String::from_utf8_lossy(&sim.stdout)
                            ));
                        } else {
                            *solved.lock().unwrap() += 1;
                        }
                    }
                    "unsat" => *solved.lock().unwrap() += 1,
                    "unknown" => {}
                    v => fail(format!("no verdict line: '{v}'")),
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let solved = solved.into_inner().unwrap();
    eprintln!(
        "{set} ({engine}, {timeout} s): solved {solved} of {} ({} unsupported)",
        tasks.len(),
        unsupported.into_inner().unwrap()
    );
    solved
}

#[test]
fn bmc_on_corpus_sat_tasks_is_never_wrong_and_witnesses_replay() {
    check_set("eval-aiger.tsv", &["sat"], "bmc");
}

#[test]
fn portfolio_on_corpus_is_never_wrong_and_witnesses_replay() {
    check_set("eval-aiger.tsv", &["sat", "unsat"], "portfolio");
}

#[test]
fn portfolio_on_btor2_corpus_is_never_wrong_and_witnesses_replay() {
    check_set("eval-btor2.tsv", &["sat", "unsat"], "portfolio");
}

#[test]
fn portfolio_on_c_corpus_is_never_wrong_and_error_paths_replay() {
    check_set("eval-c.tsv", &["sat", "unsat"], "portfolio");
}
