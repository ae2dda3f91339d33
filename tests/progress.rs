//! Progress on stderr (`warden::progress`): the status text engines' reports make, and what a
//! run whose stderr is a pipe prints: a `warden: progress` line every 5 s with `-v`, none
//! without it, nothing at all with `-q`. (The terminal's status line is drawn only on a
//! terminal, which a test's pipe is not.)

mod common;

use std::time::Duration;

use common::{circuit, warden};
use warden::progress::{fit, Measure, Mode, Progress};

#[test]
fn the_status_names_each_running_engine_with_what_it_reached() {
    let progress = Progress::new(Some(Mode::Plain));
    let ic3 = progress.open("ic3");
    ic3.progress().set(Measure::Frame, 14);
    ic3.progress().set(Measure::Lemmas, 302);
    let kind = progress.open("kind");
    kind.progress().set(Measure::K, 9);
    let bmc = progress.open("bmc");
    bmc.progress().set(Measure::Depth, 40);
    bmc.progress().set(Measure::Depth, 41);
    let _sim = progress.open("sim");
    assert_eq!(
        progress.status(Duration::from_millis(12_040)).unwrap(),
        "12.0s: ic3 frame 14 lemmas 302; kind k=9; bmc depth 41; sim"
    );
    // An engine that ended is off the line; a batch of properties says how many are settled.
    drop(kind);
    progress.batch(7);
    for _ in 0..3 {
        progress.settle();
    }
    assert_eq!(
        progress.status(Duration::from_secs(3)).unwrap(),
        "3.0s: settled 3/7; ic3 frame 14 lemmas 302; bmc depth 41; sim"
    );
}

#[test]
fn without_a_board_nothing_is_recorded() {
    let progress = Progress::new(None);
    let bmc = progress.open("bmc");
    bmc.progress().set(Measure::Depth, 3);
    assert_eq!(progress.status(Duration::ZERO), None);
    assert_eq!(bmc.progress().status(Duration::ZERO), None);
}

#[test]
fn a_status_line_is_cut_to_fit_the_terminal() {
    assert_eq!(fit("warden 1.0s: bmc depth 5", 12), "warden 1.0s");
    assert_eq!(fit("warden 1.0s", 80), "warden 1.0s");
}

/// The depths of the `warden: progress` lines of `stderr` (each must name BMC's depth).
fn progress_depths(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter(|l| l.starts_with("warden: progress "))
        .map(|l| {
            let (_, depth) = l
                .split_once("bmc depth ")
                .unwrap_or_else(|| panic!("no BMC depth in {l:?}"));
            depth.parse().unwrap()
        })
        .collect()
}

/// BMC on a system no counterexample of which exists (an 8-bit counter that never reaches
/// its bad value), deepening until `timeout` seconds, with `flags`: its stdout and stderr.
fn bmc_until_timeout(timeout: &str, flags: &[&str]) -> (String, String) {
    let model = circuit("counter8_mod200_unsat.aag");
    let mut args = vec!["check", &model, "--engine", "bmc", "--timeout", timeout];
    args.extend(flags);
    let out = warden(&args);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    (stdout, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_piped_run_with_v_prints_a_progress_line_every_few_seconds() {
    let (stdout, stderr) = bmc_until_timeout("12", &["-v"]);
    assert_eq!(stdout, "unknown\n");
    let depths = progress_depths(&stderr);
    assert!(depths.len() >= 2, "{stderr}");
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{stderr}");
    // Plain lines, not a redrawn one.
    assert!(!stderr.contains('\r'), "{stderr}");
}

#[test]
fn a_piped_run_without_v_prints_no_progress() {
    let (stdout, stderr) = bmc_until_timeout("7", &[]);
    assert_eq!(stdout, "unknown\n");
    assert!(!stderr.contains("progress"), "{stderr}");
    assert!(stderr.starts_with("warden: no counterexample up to depth "));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_quiet_run_prints_nothing_on_stderr() {
    let (stdout, stderr) = bmc_until_timeout("7", &["-q"]);
    assert_eq!(stdout, "unknown\n");
    assert_eq!(stderr, "");
}

#[test]
fn quiet_and_verbose_exclude_each_other() {
    let model = circuit("counter8_mod200_unsat.aag");
    let out = warden(&["check", &model, "-q", "-v"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_batch_of_properties_says_how_many_are_settled() {
    let model = common::failing_beside_a_proof("progress");
    let out = warden(&[
        "check",
        model.to_str().unwrap(),
        "--all-properties",
        "--engine",
        "bmc",
        "--timeout",
        "7",
        "-v",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"sat\n"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let line = (stderr.lines())
        .find(|l| l.starts_with("warden: progress "))
        .unwrap_or_else(|| panic!("no progress line: {stderr}"));
    assert!(line.contains(": settled 1/2; bmc depth "), "{line}");
}
