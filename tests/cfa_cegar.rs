//! `warden check PROGRAM.c --engine cegar` end to end: the CFA engine's verdicts, its error
//! path (printed only after the CFA interpreter replayed it), and its invariant written as a
//! certificate that `warden certify` accepts.

use std::path::PathBuf;
use std::process::{Command, Output};

fn warden(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(args)
        .output()
        .expect("run warden")
}

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
    let cert = c.with_extension("cert.aag");
    let (c, cert) = (c.to_str().unwrap(), cert.to_str().unwrap());
    for search in ["bfs", "err", "dfs-err"] {
        let out = warden(&[
            "check", c, "--engine", "cegar", "--search", search, "--cert", cert,
        ]);
        assert_eq!(out.status.code(), Some(0), "{search}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n", "{search}");
        let certify = warden(&["certify", c, cert]);
        assert_eq!(certify.status.code(), Some(0), "{search}: {certify:?}");
    }
}
