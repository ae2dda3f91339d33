//! `warden check PROGRAM.c --engine cegar` end to end: the CFA engine's verdicts, its error
//! path (printed only after the CFA interpreter replayed it), and its invariant written as a
//! certificate that `warden certify` accepts.

mod common;

use common::warden;

use std::path::PathBuf;

/// Writes `source` to a fresh file `name` in the temporary directory.
fn program(name: &str, source: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("warden-cfa-cegar-{}-{name}", std::process::id()));
    std::fs::write(&path, source).unwrap();
    path
}

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n";

#[test]
fn cegar_on_a_buggy_program_prints_its_error_path() {
    let c = program(
        "bug.c",
        &format!(
            "{PRELUDE}int main() {{ int x = __VERIFIER_nondet_int(); int y = 0;
             while (y < 3) {{ y = y + 1; }}
             if (x + y == 100) reach_error(); return 0; }}"
        ),
    );
    let c = c.to_str().unwrap();
    for domain in ["expl", "pred-cart"] {
        let out = warden(&[
            "check",
            c,
            "--engine",
            "cegar",
            "--domain",
            domain,
            "--refinement",
            "seq-itp",
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{domain}: {out:?}");
        assert!(stdout.starts_with("sat\n"), "{domain}: {stdout}");
        assert!(stdout.contains("__VERIFIER_nondet_int() = 97"), "{stdout}");
        assert!(stdout.ends_with("error reached\n"), "{stdout}");
    }
}

#[test]
fn cegar_on_a_safe_program_writes_a_certificate_that_checks() {
    let c = program(
        "safe.c",
        &format!(
            "{PRELUDE}int main() {{ int x = __VERIFIER_nondet_int(); int y = 0;
             if (x < 0 || x > 5) return 0;
             while (y < x) {{ y = y + 1; }}
             if (y > 5) reach_error(); return 0; }}"
        ),
    );
    for search in ["bfs", "err", "dfs-err"] {
        proved_and_certified(&c, &["--engine", "cegar", "--search", search]);
    }
}

/// `warden check PROGRAM --cert CERT` with `options` answers `unsat` (exit 0), and `warden
/// certify` accepts the certificate; its path and text.
fn proved_and_certified(c: &std::path::Path, options: &[&str]) -> (PathBuf, String) {
    let cert = c.with_extension("cert.aag");
    let (c, cert_s) = (c.to_str().unwrap(), cert.to_str().unwrap());
    let mut args = vec!["check", c, "--cert", cert_s];
    args.extend_from_slice(options);
    let out = warden(&args);
    assert_eq!(out.status.code(), Some(0), "{options:?}: {out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "unsat\n",
        "{options:?}"
    );
    let certify = warden(&["certify", c, cert_s]);
    assert_eq!(certify.status.code(), Some(0), "{options:?}: {certify:?}");
    let text = std::fs::read_to_string(&cert).unwrap();
    (cert, text)
}

/// `--engine symex` on a countdown whose proof needs the relation between the old and the
/// new value of `x` (`x = x - 1`): the expanded symbolic states per location written as a
/// certificate that `warden certify` accepts.
#[test]
fn symex_on_a_safe_program_writes_a_certificate_that_checks() {
    let c = program(
        "countdown.c",
        &format!(
            "{PRELUDE}int main() {{ int x = __VERIFIER_nondet_int();
             if (x <= 0 || x > 100) return 0;
             while (x > 0) {{ x = x - 1; }}
             if (x != 0) reach_error(); return 0; }}"
        ),
    );
    proved_and_certified(&c, &["--engine", "symex"]);
}

/// UFO's proof (its uncovered nodes' labels per location) as a certificate, with each post.
#[test]
fn ufo_on_a_safe_program_writes_a_certificate_that_checks() {
    let c = program(
        "branching_loop.c",
        &format!(
            "{PRELUDE}int main() {{ int x = 0;
             while (__VERIFIER_nondet_int()) {{
               if (__VERIFIER_nondet_int()) {{ x = 1; }} else {{ x = 2; }} }}
             if (x < 0) reach_error(); return 0; }}"
        ),
    );
    for post in ["true", "cart", "bool"] {
        proved_and_certified(&c, &["--engine", "ufo", "--ufo-post", post]);
    }
}

/// A certificate of the statement-level CFA's encoding (`--blocks single`) records that
/// option, and `warden certify` reads the program back the same way (seed 002's example,
/// proved by symex).
#[test]
fn a_certificate_of_the_statement_level_cfa_is_certified_as_such() {
    let c = program(
        "symbolic.c",
        &format!(
            "{PRELUDE}int main() {{ int a = __VERIFIER_nondet_int(); int b;
             if (a >= 0) {{ b = a; }} else {{ b = a + 1; }}
             if (b < a) reach_error(); return 0; }}"
        ),
    );
    let (cert, text) = proved_and_certified(&c, &["--engine", "symex", "--blocks", "single"]);
    assert!(
        text.contains("# read with: --data-model ilp32 --blocks single"),
        "{text}"
    );
    // Without the comment, the certificate speaks of another encoding.
    let stripped = text.replace(" --blocks single", "");
    std::fs::write(&cert, stripped).unwrap();
    let certify = warden(&["certify", c.to_str().unwrap(), cert.to_str().unwrap()]);
    assert_eq!(certify.status.code(), Some(1), "{certify:?}");
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The C tasks of the shared corpus (`../shared/bench/eval-c.tsv`: expected `true` is
/// `unsat`, `false` is `sat`) through `--engine cegar`: never a wrong verdict, never an
/// internal error (a path or invariant that fails its check). Bounded like tests/corpus.rs:
/// `WARDEN_CORPUS_TIMEOUT` seconds per task (default 5), `WARDEN_CORPUS_LIMIT` tasks.
#[test]
fn cegar_on_the_c_corpus_is_never_wrong() {
    let bench = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    let Ok(text) = std::fs::read_to_string(bench.join("eval-c.tsv")) else {
        eprintln!("skipped: ../shared/bench/eval-c.tsv is not present");
        return;
    };
    let timeout = env_number("WARDEN_CORPUS_TIMEOUT", 5).to_string();
    let limit = env_number("WARDEN_CORPUS_LIMIT", u64::MAX) as usize;
    let tasks: Vec<(PathBuf, &str, &str)> = (text.lines().skip(1))
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let expected = if f[1] == "true" { "unsat" } else { "sat" };
            (bench.join(f[0]), expected, f[4])
        })
        .take(limit)
        .collect();
    let next = std::sync::Mutex::new(tasks.iter());
    let failures = std::sync::Mutex::new(Vec::new());
    let solved = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some((path, expected, data_model)) = next.lock().unwrap().next() else {
                    break;
                };
                // `ILP32`, `LP64`, or either with a note such as `(default)`.
                let dm = match data_model.starts_with("LP64") {
                    true => "lp64",
                    false => "ilp32",
                };
                let model = path.to_str().unwrap();
                let out = warden(&[
                    "check",
                    model,
                    "--engine",
                    "cegar",
                    "--timeout",
                    &timeout,
                    "--data-model",
                    dm,
                ]);
                let stdout = String::from_utf8_lossy(&out.stdout);
                let verdict = stdout.lines().next().unwrap_or("");
                let fail = |m: String| failures.lock().unwrap().push(format!("{model}: {m}"));
                match (out.status.code(), verdict) {
                    (Some(2), _) => {} // input the C front end does not support
                    (Some(0), "unknown") => {}
                    (Some(0), v) if v == *expected => {
                        solved.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    (code, v) => fail(format!(
                        "exit {code:?}, verdict '{v}' (expected {expected}): {}",
                        String::from_utf8_lossy(&out.stderr)
                    )),
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "eval-c.tsv (cegar, {timeout} s): solved {} of {}",
        solved.into_inner(),
        tasks.len()
    );
}
