//! Panic safety, with faults injected through `WARDEN_FAULT` (cargo feature
//! `fault-injection`: `cargo test --release --features fault-injection --test fault`; without
//! the feature this file is empty). A panicking portfolio worker is reported and the others
//! answer; a run whose every engine panicked, or whose front end did, prints `unknown` and
//! exits 3 with the message on stderr (never Rust's 101). A run whose engine never stops is
//! ended by the overrun watchdog with `unknown`.

#![cfg(feature = "fault-injection")]

mod common;

use std::process::{Command, Output};

use common::circuit;

fn warden_with_fault(fault: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(args)
        .env("WARDEN_FAULT", fault)
        .output()
        .expect("run warden")
}

#[test]
fn the_portfolio_answers_when_one_worker_panics() {
    let model = circuit("counter4_sat.aag");
    for fault in ["ic3", "kind"] {
        let out = warden_with_fault(fault, &["check", &model, "--jobs", "2"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{fault}: {err}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("sat\n"));
        assert!(err.contains(&format!("engine {fault} panicked")), "{err}");
        assert!(err.contains("injected fault"), "{err}");
    }
    let unsat = circuit("counter4_wrap_unsat.aag");
    let out = warden_with_fault("kind", &["check", &unsat, "--jobs", "2"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n");
}

/// `unknown` on stdout, exit code 3, and `message` on stderr.
fn assert_internal_error(out: &Output, message: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n", "{err}");
    assert!(err.contains("warden: internal error: panic"), "{err}");
    assert!(err.contains(message), "{err}");
}

#[test]
fn an_engine_that_panics_alone_gives_unknown_and_exit_3() {
    let model = circuit("counter4_sat.aag");
    for engine in ["ic3", "bmc", "kind", "imc", "cegar"] {
        let out = warden_with_fault(engine, &["check", &model, "--engine", engine]);
        assert_internal_error(&out, &format!("injected fault in {engine}"));
    }
}

#[test]
fn a_portfolio_without_a_live_worker_gives_unknown_and_exit_3() {
    let model = circuit("counter4_sat.aag");
    // The default portfolio's workers: ic3 (two IC3 variants), kind, cegar (localization),
    // bmc (bmc-deep), reach and sim.
    let out = warden_with_fault(
        "ic3,kind,cegar,bmc,reach,sim",
        &["check", &model, "--jobs", "2"],
    );
    assert_internal_error(&out, "every portfolio worker panicked");
}

#[test]
fn a_panic_in_the_front_end_or_the_cfa_engine_gives_unknown_and_exit_3() {
    let out = warden_with_fault("front", &["check", &circuit("counter4_sat.aag")]);
    assert_internal_error(&out, "injected fault in front");
    let c = circuit("c/wrap_sat.c");
    let out = warden_with_fault("cegar", &["check", &c, "--engine", "cegar"]);
    assert_internal_error(&out, "injected fault in cegar");
    // The HWMCC form prints its verdict line the same way.
    let out = warden_with_fault("front", &[&circuit("counter4_sat.aag")]);
    assert_internal_error(&out, "injected fault in front");
}

/// An engine that never looks at its budget, past `--timeout` or after SIGINT: the overrun
/// watchdog prints `unknown`, says why on stderr, and ends the process with exit code 0. (How
/// soon after the limit it does is measured by `scripts/deadline-bench`, not here.)
#[test]
fn the_watchdog_ends_a_run_whose_engine_does_not_stop() {
    let model = circuit("counter4_sat.aag");
    let args = ["check", &model, "--engine", "ic3", "--timeout", "1"];
    let out = warden_with_fault("hang:ic3", &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n", "{err}");
    assert!(err.contains("still running"), "{err}");
    let child = Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(["check", &model, "--engine", "ic3"])
        .env("WARDEN_FAULT", "hang:ic3")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run warden");
    std::thread::sleep(std::time::Duration::from_millis(500));
    // SAFETY: kill(2) on our own child's pid, which has not been waited for yet.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().expect("wait for warden");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n", "{err}");
    assert!(err.contains("still running"), "{err}");
}

/// A run that printed its verdict and then does not end (`hang:printed`: what follows the
/// verdict, statistics and freeing memory, taking long) is ended by the watchdog at its
/// limit without a second verdict: stdout carries the verdict and its witness alone.
#[test]
fn the_watchdog_ends_a_run_past_its_verdict_without_a_second_one() {
    let model = circuit("counter4_sat.aag");
    let args = ["check", &model, "--timeout", "1"];
    let out = warden_with_fault("hang:printed", &args);
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(stdout.starts_with("sat\n1\nb0\n"), "{stdout}");
    assert!(
        stdout.ends_with(".\n") && !stdout.contains("unknown"),
        "{stdout}"
    );
    assert!(!err.contains("still running"), "{err}");
}

/// A run of `--all-properties` past its limit after one property failed (`hang:settled`:
/// the properties after it do not stop) keeps that answer: the watchdog prints `sat` and the
/// failing property's witness, in the verdict form and in AIGER's own, not `unknown`.
#[test]
fn the_watchdog_keeps_a_property_already_failed() {
    let model = common::failing_beside_a_proof("fault");
    let model = model.to_str().unwrap();
    let args = ["check", model, "--all-properties", "--timeout", "1"];
    for (form, result_line) in [("verdict", "sat\n"), ("witness", "")] {
        let out = warden_with_fault("hang:settled", &[&args[..], &["--stdout", form]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(err.contains("still running"), "{err}");
        assert!(
            stdout.starts_with(&format!("{result_line}1\nb0\n")) && stdout.ends_with(".\n"),
            "{stdout}"
        );
    }
}

/// A portfolio worker whose answer fails its check (`lie:ic3`: both IC3 workers answer at
/// once with a counterexample that does not replay) costs that engine only: the error is
/// on stderr, the portfolio runs again without it, and the others' answer is printed, its
/// witness replayed by aigsim and its certificate accepted by certcheck.
#[test]
fn an_answer_failing_its_check_costs_only_the_engine_that_gave_it() {
    let Some(checkers) = common::checkers::Checkers::get() else {
        return;
    };
    let cases = [
        ("counter4_sat.aag", "sat", "--witness"),
        ("counter4_wrap_unsat.aag", "unsat", "--cert"),
    ];
    for (name, verdict, file_option) in cases {
        let model = circuit(name);
        let file = common::scratch_file("fault-lie", &format!("{name}.{verdict}"));
        let file_arg = file.to_str().unwrap();
        let args = ["check", &model, "--jobs", "2", file_option, file_arg];
        let out = warden_with_fault("lie:ic3", &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name}: {err}");
        assert!(
            String::from_utf8_lossy(&out.stdout).starts_with(&format!("{verdict}\n")),
            "{name}: {err}"
        );
        assert!(err.contains("counterexample does not replay"), "{err}");
        assert!(
            err.contains("the portfolio runs again without ic3"),
            "{err}"
        );
        let check = match verdict {
            "sat" => checkers.aigsim(model.as_ref(), &file),
            _ => checkers.certcheck(model.as_ref(), &file, file.parent().unwrap()),
        };
        assert_eq!(check, common::checkers::Check::Accepted, "{name}");
    }
}

/// When every worker's answer fails its check, the first error stands: `unknown`, exit 3.
#[test]
fn a_portfolio_whose_every_answer_fails_its_check_gives_unknown_and_exit_3() {
    let model = circuit("counter4_wrap_unsat.aag");
    // Every engine the default runs on two cores, and those it would add for the cores freed.
    let fault = "lie:ic3,lie:kind,lie:cegar,lie:bmc,lie:reach,lie:sim,lie:imc";
    let out = warden_with_fault(fault, &["check", &model, "--jobs", "2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n", "{err}");
    assert!(
        err.contains("warden: internal error: the ") && err.contains("does not replay"),
        "{err}"
    );
}
