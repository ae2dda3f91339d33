//! The portfolio for many cores: `--jobs 16` and `--jobs 32` give the right verdicts, their
//! witnesses replay and their certificates check; the sets for 16 and 32 cores run whole (one
//! thread per member, however many cores this machine has) and answer right; and the
//! command line runs the set for the cores it may use.

mod common;

use common::{circuit, warden};
use warden::check::{self, Answer, EngineKind, Options, Proof};
use warden::options::configs::PORTFOLIOS;
use warden::options::cores;
use warden::ts::replay;
use warden::{cert, front, Budget};

const SAMPLE: [(&str, &str); 4] = [
    ("counter7_60_sat.aag", "sat"),
    ("fifo_occupancy_unsat.aag", "unsat"),
    ("btor2/twin_counters_sat.btor2", "sat"),
    ("btor2/counter_mod6_unsat.btor2", "unsat"),
];

#[test]
fn jobs_16_and_32_answer_right_with_a_witness_that_replays_or_a_certificate_that_checks() {
    for jobs in ["16", "32"] {
        for (name, expected) in SAMPLE {
            let model = circuit(name);
            let file = common::scratch_file("cores", &format!("{jobs}-{}", name.replace('/', "-")));
            let file = file.to_str().unwrap();
            let (flag, replay) = match expected {
                "sat" => ("--witness", "sim"),
                _ => ("--cert", "certify"),
            };
            let out = warden(&["check", &model, "--jobs", jobs, flag, file]);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let first = stdout.lines().next();
            assert_eq!(
                first,
                Some(expected),
                "{name} --jobs {jobs}: {:?}",
                out.status
            );
            let checked = warden(&[replay, &model, file]).status;
            assert!(
                checked.success(),
                "{name} --jobs {jobs}: warden {replay}: {checked}"
            );
        }
    }
}

/// `-v` names the members: those for the cores this machine has when `--jobs` asks for more,
/// the word-level one only on a BTOR2 model, and no twin (neither model has constraints).
#[test]
fn the_command_line_runs_the_set_for_the_cores_it_may_use() {
    for (name, words) in [
        ("counter7_60_sat.aag", false),
        ("btor2/twin_counters_sat.btor2", true),
    ] {
        let out = warden(&["check", &circuit(name), "--jobs", "32", "-v"]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let n = cores::cores(Some(32));
        let ts = front::load(std::path::Path::new(&circuit(name)))
            .unwrap()
            .ts;
        assert!(ts.constraints.is_empty(), "{name}");
        let on = |_: &str, row: &warden::options::configs::Row| {
            (words || row.engine != EngineKind::Smt).then(|| row.on(&ts))
        };
        let members: Vec<&str> = (cores::members(&PORTFOLIOS[0], n, on).into_iter())
            .map(|(m, _)| m)
            .collect();
        assert!(!members.contains(&"ic3-abs-cst"), "{name}: a twin");
        let line = format!("portfolio: {n} cores: {}", members.join(", "));
        assert!(stderr.contains(&line), "{name}: no `{line}` in\n{stderr}");
    }
}

/// The sets for 16 and 32 cores, every member a thread of its own (16 on two cores take
/// turns from the operating system), on circuits of both kinds: each decided, each answer
/// checked (the witness replays, the invariant is inductive).
#[test]
fn the_sets_for_16_and_32_cores_run_whole_and_answer_right() {
    for jobs in [16, 32] {
        let opts = Options {
            jobs,
            ..Options::new(EngineKind::Portfolio)
        };
        for (name, expected) in SAMPLE {
            let ts = front::load(std::path::Path::new(&circuit(name)))
                .unwrap()
                .ts;
            let budget = Budget::new(Some(std::time::Duration::from_secs(60)));
            let report = check::run(&ts, &opts, &budget).unwrap();
            match (&report.answer, expected) {
                (Answer::Sat(trace), "sat") => {
                    assert!(replay(&ts, trace).is_ok(), "{name}: {jobs} cores")
                }
                (Answer::Unsat(Proof::Invariant(inv)), "unsat") => {
                    let unlimited = Budget::new(None);
                    assert_eq!(
                        cert::check(&ts, inv, &unlimited),
                        Ok(()),
                        "{name}: {jobs} cores"
                    );
                }
                (answer, _) => panic!("{name}: {jobs} cores: {answer:?}, expected {expected}"),
            }
        }
    }
}
