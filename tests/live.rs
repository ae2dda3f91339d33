//! Justice properties end to end: the verdicts of our circuits with known answers
//! (`circuits/live/manifest.tsv`) for every method, lasso witnesses checked by aigsim,
//! certificates of the proved ones checked by Certifaiger (`certcheck`) and `warden certify`,
//! and bad liveness input.

mod common;

use std::path::{Path, PathBuf};

use common::checkers::{Check, Checkers};
use common::{root, scratch_file, warden};

/// One row of `circuits/live/manifest.tsv`: a verdict per property, in the file's order.
struct Row {
    path: PathBuf,
    expected: Vec<String>,
}

fn rows() -> Vec<Row> {
    let dir = root().join("circuits/live");
    let text = std::fs::read_to_string(dir.join("manifest.tsv")).expect("the live manifest");
    let rows: Vec<Row> = (text.lines().skip(1))
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                path: dir.join(f[0]),
                expected: f[1].split_whitespace().map(str::to_owned).collect(),
            }
        })
        .collect();
    assert!(rows.len() >= 7, "the live manifest lists our circuits");
    rows
}

/// The verdict lines of a `check` run's stdout (a `sat` is followed by its witness, which
/// ends with a `.` line).
fn verdicts(stdout: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = stdout.lines();
    while let Some(l) = lines.next() {
        out.push(l.to_owned());
        if l == "sat" {
            lines.by_ref().find(|&w| w == ".");
        }
    }
    out
}

/// Runs `warden check` on `path` with `args` and `--timeout secs`; returns the verdict lines
/// and the witness file.
fn check(path: &Path, args: &[&str], secs: &str, tag: &str) -> (Vec<String>, String) {
    let witness = scratch_file("live", &format!("{tag}.wit"));
    let mut all = vec![
        "check",
        path.to_str().unwrap(),
        "--timeout",
        secs,
        "--witness",
    ];
    all.push(witness.to_str().unwrap());
    all.extend(args);
    let out = warden(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{all:?}: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    (
        verdicts(&stdout),
        std::fs::read_to_string(&witness).unwrap_or_default(),
    )
}

/// What a method may answer where the expected verdict is `expected`: BMC (bounded lasso
/// search) proves nothing, k-liveness refutes nothing.
fn allowed(method: &str, expected: &str) -> Vec<&'static str> {
    match (method, expected) {
        ("bmc", "unsat") | ("klive", "sat") => vec!["unknown"],
        (_, "sat") => vec!["sat"],
        _ => vec!["unsat"],
    }
}

#[test]
fn own_circuits_have_their_verdicts_with_every_method() {
    let checkers = Checkers::get();
    for row in rows() {
        let name = row.path.file_name().unwrap().to_str().unwrap().to_owned();
        for method in ["portfolio", "bmc", "ic3", "klive"] {
            let mut args = vec!["--engine", method];
            if method == "bmc" {
                args.extend(["--max-depth", "25"]);
            }
            // k-liveness cannot refute: on a failing property it only runs out of time.
            let refutable = row.expected.iter().any(|e| e == "sat");
            let secs = if method == "klive" && refutable {
                "4"
            } else {
                "60"
            };
            let (got, witness) = check(&row.path, &args, secs, &format!("{name}-{method}"));
            assert_eq!(got.len(), row.expected.len(), "{name} {method}: {got:?}");
            for (g, e) in got.iter().zip(&row.expected) {
                assert!(
                    allowed(method, e).contains(&g.as_str()),
                    "{name} {method}: {got:?}, expected {:?}",
                    row.expected
                );
            }
            // Every lasso of an AIGER model is replayed by `warden sim` and by aigsim, which
            // shares no code with warden (btorsim does not handle justice properties).
            let aiger = name.ends_with(".aag");
            if aiger && got.contains(&"sat".to_owned()) {
                assert!(witness.contains("\nj0\n"), "{name} {method}: {witness}");
                let file = scratch_file("live", &format!("{name}-{method}.lasso"));
                std::fs::write(&file, &witness).unwrap();
                assert!(warden_replays(&row.path, &file), "{name} {method}");
                if let Some(c) = checkers {
                    assert_eq!(
                        c.aigsim(&row.path, &file),
                        Check::Accepted,
                        "{name} {method}"
                    );
                }
            }
        }
    }
}

/// Whether `warden sim MODEL WITNESS` accepts (exit 0; 1 is a rejected witness).
fn warden_replays(model: &Path, witness: &Path) -> bool {
    let out = warden(&["sim", model.to_str().unwrap(), witness.to_str().unwrap()]);
    match out.status.code() {
        Some(0) => true,
        Some(1) => false,
        c => panic!(
            "warden sim: exit {c:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// An AIGER lasso that aigsim and `warden sim` must reject once its loop no longer closes:
/// the checks above can fail. A justice property the model lacks is named as such.
#[test]
fn a_lasso_without_its_loop_is_rejected() {
    let checkers = Checkers::get();
    let model = root().join("circuits/live/counter_stall_sat.aag");
    // Counting once leaves the initial state for good: no loop.
    let file = scratch_file("live", "open.lasso");
    std::fs::write(&file, "1\nj0\n0000\n1\n.\n").unwrap();
    assert!(!warden_replays(&model, &file));
    if let Some(c) = checkers {
        assert!(matches!(c.aigsim(&model, &file), Check::Rejected(_)));
    }
    std::fs::write(&file, "1\nj0\n0000\n0\n.\n").unwrap();
    assert!(warden_replays(&model, &file));
    if let Some(c) = checkers {
        assert_eq!(c.aigsim(&model, &file), Check::Accepted);
    }
    std::fs::write(&file, "1\nj1\n0000\n0\n.\n").unwrap();
    let out = warden(&["sim", model.to_str().unwrap(), file.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("justice property j1 does not exist"),
        "{said}"
    );
}

/// `warden check` on `text` (written as `name`): exit code and stderr.
fn run_bad(name: &str, text: &str) -> (Option<i32>, String) {
    let file = scratch_file("live-bad", name);
    std::fs::write(&file, text).unwrap();
    let out = warden(&["check", file.to_str().unwrap()]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn bad_liveness_input_is_an_input_error_with_its_line() {
    // Header, one latch, then the sizes of the justice properties: line 3 says 0.
    let (code, err) = run_bad("zero.aag", "aag 1 0 1 0 0 0 0 1 0\n2 3\n0\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("zero.aag:3: ") && err.contains("zero literals"),
        "{err}"
    );
    // Fairness literal 4 with M = 1 (line 5).
    let (code, err) = run_bad("fair.aag", "aag 1 0 1 0 0 0 0 1 1\n2 3\n1\n3\n4\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("fair.aag:5: ") && err.contains("fairness"),
        "{err}"
    );
    let btor = "1 sort bitvec 1\n2 state 1\n3 next 1 2 2\n4 justice 0\n";
    let (code, err) = run_bad("zero.btor2", btor);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("zero.btor2:4: ") && err.contains("zero conditions"),
        "{err}"
    );
}

/// `warden check --cert` on `model` into `cert` with `engine`: the verdict lines and stderr.
fn check_cert(model: &Path, cert: &Path, engine: &str) -> (Vec<String>, String) {
    let out = warden(&[
        "check",
        model.to_str().unwrap(),
        "--timeout",
        "60",
        "--engine",
        engine,
        "--cert",
        cert.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(0), "{}: {stderr}", model.display());
    (verdicts(&String::from_utf8_lossy(&out.stdout)), stderr)
}

/// `warden certify MODEL CERT` accepts.
fn warden_certifies(model: &Path, cert: &Path) -> bool {
    let out = warden(&["certify", model.to_str().unwrap(), cert.to_str().unwrap()]);
    out.status.code() == Some(0)
}

/// With the portfolio (k-liveness or l2s, whichever proves first) and with l2s alone
/// (`--engine ic3`: liveness to safety checked by IC3, so an l2s-only proof), on every AIGER
/// circuit of the manifest, several justice properties and fairness constraints included.
#[test]
fn every_proved_liveness_model_has_a_certificate_certcheck_accepts() {
    let checkers = Checkers::get();
    let mut certified = 0;
    for row in rows() {
        let aiger = row.path.extension().is_some_and(|e| e == "aag");
        if !aiger {
            continue;
        }
        let name = row.path.file_name().unwrap().to_string_lossy().to_string();
        for engine in ["portfolio", "ic3"] {
            let cert = scratch_file("live-proved", &format!("{name}.{engine}.cert.aig"));
            let _ = std::fs::remove_file(&cert);
            let (got, stderr) = check_cert(&row.path, &cert, engine);
            assert_eq!(got, row.expected, "{name} {engine}");
            if row.expected.iter().any(|v| v != "unsat") {
                assert!(
                    !cert.exists(),
                    "{name}: a certificate for a failing property"
                );
                assert!(stderr.contains("no certificate"), "{name}: {stderr}");
                continue;
            }
            let written = std::fs::read(&cert).unwrap();
            if engine == "ic3" {
                let text = String::from_utf8_lossy(&written);
                assert!(
                    text.contains("ranks (l2s"),
                    "{name}: an l2s proof's certificate"
                );
            }
            assert!(warden_certifies(&row.path, &cert), "{name} {engine}");
            if let Some(c) = checkers {
                let scratch = cert.parent().unwrap();
                assert_eq!(
                    c.certcheck(&row.path, &cert, scratch),
                    Check::Accepted,
                    "{name} {engine}"
                );
            }
            certified += 1;
        }
    }
    assert!(
        certified >= 8,
        "the unsat AIGER circuits of the manifest, two ways each"
    );
}

/// A certificate whose fairness or justice literal is made constantly true claims progress
/// it does not have: both checkers find that the rank no longer holds (decrease fails). For
/// a k-liveness proof's certificate and an l2s proof's (`--engine ic3`).
#[test]
fn a_certificate_with_a_literal_made_true_is_rejected_by_both_checkers() {
    let model = root().join("circuits/live/counter_fair_unsat.aag");
    for engine in ["klive", "ic3"] {
        let cert = scratch_file("live", &format!("fair.{engine}.cert.aag"));
        let (got, _) = check_cert(&model, &cert, engine);
        assert_eq!(got, ["unsat"]);
        let text = std::fs::read_to_string(&cert).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let h: Vec<usize> = (lines[0].split_whitespace().skip(1))
            .map(|n| n.parse().unwrap())
            .collect();
        let (i, l, o, b, c, j, f) = (h[1], h[2], h[3], h[5], h[6], h[7], h[8]);
        assert_eq!(
            (j, f),
            (1, 1),
            "the model's shape: one justice literal, one fairness"
        );
        // After the header: inputs, latches, outputs, bad, constraints, the justice size,
        // then the justice literal and the fairness literal.
        let justice_line = 1 + i + l + o + b + c + j;
        for line in [justice_line, justice_line + 1] {
            let mut broken: Vec<&str> = lines.clone();
            broken[line] = "1";
            let path = scratch_file("live", &format!("fair.{engine}.broken{line}.aag"));
            std::fs::write(&path, broken.join("\n") + "\n").unwrap();
            assert!(!warden_certifies(&model, &path), "{engine} line {line}");
            if let Some(ch) = Checkers::get() {
                let scratch = path.parent().unwrap();
                let verdict = ch.certcheck(&model, &path, scratch);
                assert!(
                    matches!(verdict, Check::Rejected(_)),
                    "{engine} line {line}: {verdict:?}"
                );
            }
        }
    }
}
