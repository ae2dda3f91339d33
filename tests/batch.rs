//! `warden batch`: the campaign of `circuits/manifest.tsv` (AIGER, BTOR2 and C tasks) is
//! answered and checked, one record per run; a restart runs only what has no whole record;
//! `--vs` adds a column (a HWMCC-convention command, ABC's pdr, ABC's bmc3); a crash
//! injected into one task (fault-injection build) is that task's error alone; with
//! `--checkers` the independent checkers check every answer, and one they reject is wrong.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{root, warden};

fn out_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-batch-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn batch(out: &Path, extra: &[&str]) -> Output {
    let manifest = root().join("circuits/manifest.tsv");
    let mut args = vec!["batch".to_owned(), manifest.display().to_string()];
    args.extend(
        [
            "--out",
            out.to_str().unwrap(),
            "--timeout",
            "30",
            "--parallel",
            "2",
        ]
        .map(String::from),
    );
    args.extend(["--jobs", "1"].map(String::from));
    args.extend(extra.iter().map(|s| s.to_string()));
    warden(&args)
}

fn records(out: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Writes the shell script `body` to `path`, executable.
fn write_script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let chmod = std::process::Command::new("chmod")
        .arg("+x")
        .arg(path)
        .status();
    assert!(chmod.unwrap().success());
}

fn tasks_in_manifest() -> usize {
    let text = std::fs::read_to_string(root().join("circuits/manifest.tsv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .count()
}

#[test]
fn the_circuits_campaign_is_answered_checked_and_resumed() {
    let out = out_dir("circuits");
    let first = batch(&out, &[]);
    let summary = String::from_utf8_lossy(&first.stdout);
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{err}\n{summary}");
    let recs = records(&out);
    let n = tasks_in_manifest();
    assert_eq!(recs.len(), n, "one record per task: {err}");
    for r in &recs {
        assert_eq!(r["tool"], "warden");
        // Every circuit has an expected verdict and warden answers each one right.
        assert_eq!(r["result"], "solved", "{r}");
        assert_eq!(r["verdict"], r["expected"], "{r}");
        // AIGER and BTOR2 answers are checked: witnesses replayed, certificates checked.
        let task = r["task"].as_str().unwrap();
        if !task.ends_with(".c") {
            assert_eq!(r["check"], "accepted", "{r}");
        }
    }
    let line = summary.lines().find(|l| l.starts_with("warden ")).unwrap();
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        (cells[1], cells[4]),
        (n.to_string().as_str(), "0"),
        "{summary}"
    );
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), n + 1);

    // Restarted: nothing to run, the same summary.
    let again = batch(&out, &[]);
    assert!(String::from_utf8_lossy(&again.stderr).contains(&format!("{n} runs recorded")));
    assert_eq!(records(&out).len(), n);
    assert_eq!(String::from_utf8_lossy(&again.stdout), summary);

    // Killed while writing: the last two records lost, a third cut in half. The restart
    // runs those three tasks and no other.
    let text = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines[..n - 3].join("\n");
    let cut = &lines[n - 3][..lines[n - 3].len() / 2];
    std::fs::write(out.join("results.jsonl"), format!("{kept}\n{cut}")).unwrap();
    let resumed = batch(&out, &[]);
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(err.contains(", 3 to run"), "{err}");
    let recs = records(&out);
    assert_eq!(recs.len(), n);
    let mut tasks: Vec<&str> = recs.iter().map(|r| r["task"].as_str().unwrap()).collect();
    tasks.sort();
    tasks.dedup();
    assert_eq!(tasks.len(), n);
    // The same summary but for PAR-2: the three runs took their time again.
    let untimed = |s: &str| -> Vec<String> {
        (s.lines())
            .map(|l| match l.starts_with("warden ") {
                true => l.rsplit_once(' ').unwrap().0.to_owned(),
                false => l.to_owned(),
            })
            .collect()
    };
    let resumed_summary = String::from_utf8_lossy(&resumed.stdout);
    assert_eq!(untimed(&resumed_summary), untimed(&summary));
    std::fs::remove_dir_all(&out).unwrap();
}

/// `--vs` with a command in the HWMCC calling convention (a script running warden's own
/// HWMCC form, as competition entries ship one): a column of its own, named after the
/// script, whose witnesses and certificates are checked as warden's are.
#[test]
fn a_hwmcc_command_is_another_checked_column() {
    let out = out_dir("vs");
    std::fs::create_dir_all(&out).unwrap();
    let script = out.join("hwmcc.sh");
    let me = env!("CARGO_BIN_EXE_warden");
    write_script(&script, &format!("exec {me} \"$@\""));
    let campaign = out.join("campaign");
    let o = batch(
        &campaign,
        &["--filter", "counter", "--vs", script.to_str().unwrap()],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let recs = records(&campaign);
    let of = |tool: &str| recs.iter().filter(|r| r["tool"] == tool).count();
    assert!(of("warden") >= 5, "{err}");
    assert_eq!(of("warden"), of("hwmcc.sh"));
    for r in &recs {
        assert_eq!(r["result"], "solved", "{r}");
        if !r["task"].as_str().unwrap().ends_with(".c") {
            assert_eq!(r["check"], "accepted", "{r}");
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// `--vs abc` (pdr) and `--vs abc-bmc3` are two columns of their own, `abc-pdr` and
/// `abc-bmc3`: bmc3 refutes every refutable AIGER and BTOR2 counter (its counterexamples
/// replayed), pdr answers each of them, neither is ever wrong, and neither reads C.
#[test]
fn abc_pdr_and_bmc3_are_columns_of_their_own() {
    if let Err(e) = warden::abc::find_binary(None) {
        eprintln!("skipping: no ABC ({e})");
        return;
    }
    let out = out_dir("abc");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_warden"))
        .arg("batch")
        .arg(root().join("circuits/manifest.tsv"))
        .arg("--out")
        .arg(&out)
        .args(["--timeout", "5", "--parallel", "2", "--jobs", "1"])
        .args(["--filter", "counter", "--vs", "abc", "--vs", "abc-bmc3"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let recs = records(&out);
    let of = |tool: &str| recs.iter().filter(|r| r["tool"] == tool).count();
    assert!(of("warden") >= 10, "{err}");
    assert_eq!(
        (of("abc-pdr"), of("abc-bmc3")),
        (of("warden"), of("warden"))
    );
    for r in recs.iter().filter(|r| r["tool"] != "warden") {
        assert_ne!(r["result"], "wrong", "{r}");
        let task = r["task"].as_str().unwrap();
        if task.ends_with(".c") {
            assert_eq!(r["verdict"], "unknown", "{r}");
            assert!(
                r["note"].as_str().unwrap().contains("not applicable"),
                "{r}"
            );
        } else if r["tool"] == "abc-pdr" {
            assert_eq!(r["result"], "solved", "{r}");
        } else if r["expected"] == "sat" {
            assert_eq!(
                (&r["verdict"], &r["check"]),
                (&"sat".into(), &"accepted".into()),
                "{r}"
            );
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// `WARDEN_FAULT=bmc` makes BMC panic: the task that runs BMC alone (its `options` column;
/// no `--jobs`, which `--engine bmc` refuses)
/// ends in that task's error, every other task is answered (their portfolios report the
/// panicked worker and go on).
#[cfg(feature = "fault-injection")]
#[test]
fn a_crash_in_one_task_is_that_tasks_error() {
    let out = out_dir("fault");
    std::fs::create_dir_all(&out).unwrap();
    let c = root().join("circuits");
    let list = out.join("tasks.tsv");
    let text = format!(
        "path\texpected\toptions\n{0}/counter4_sat.aag\tsat\t--engine bmc\n\
         {0}/counter4_wrap_unsat.aag\tunsat\t\n{0}/counter3_enable_sat.aag\tsat\t\n\
         {0}/btor2/counter_mod6_unsat.btor2\tunsat\t\n",
        c.display()
    );
    std::fs::write(&list, text).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(["batch", list.to_str().unwrap(), "--out"])
        .arg(out.join("campaign"))
        .args(["--timeout", "30", "--parallel", "2"])
        .env("WARDEN_FAULT", "bmc")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(&out.join("campaign"));
    assert_eq!(recs.len(), 4);
    for r in &recs {
        let crashed = r["task"].as_str().unwrap().ends_with("counter4_sat.aag");
        match crashed {
            true => {
                assert_eq!(
                    (&r["verdict"], &r["result"]),
                    (&"unknown".into(), &"unknown".into())
                );
                let note = r["note"].as_str().unwrap();
                assert!(
                    note.starts_with("exit 3") && note.contains("panicked"),
                    "{note}"
                );
            }
            false => assert_eq!(r["result"], "solved", "{r}"),
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// A task list of `circuits/` models in `dir`: (path relative to `circuits/`, expected).
fn task_list(dir: &Path, tasks: &[(&str, &str)]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let list = dir.join("tasks.tsv");
    let c = root().join("circuits");
    let rows: String = (tasks.iter())
        .map(|(path, expected)| format!("{}/{path}\t{expected}\n", c.display()))
        .collect();
    std::fs::write(&list, format!("path\texpected\n{rows}")).unwrap();
    list
}

fn batch_with_checkers(list: &Path, out: &Path, checkers: &Path) -> Output {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_warden"))
        .arg("batch")
        .arg(list)
        .arg("--out")
        .arg(out)
        .args(["--timeout", "30", "--parallel", "2", "--jobs", "1"])
        .arg("--checkers")
        .arg(checkers)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// `--checkers DIR`: every AIGER and BTOR2 answer is checked by the independent checkers
/// as well (aigsim and btorsim replay the witnesses, certcheck checks the certificates, of
/// an ASCII model's re-encoding too), each record says which one ran and what it said, and
/// the summary counts them per tool and checker.
#[test]
fn the_independent_checkers_accept_warden_s_answers() {
    let Some(checkers) = common::checkers::Checkers::get() else {
        return;
    };
    let out = out_dir("checkers");
    let list = task_list(
        &out,
        &[
            ("counter4_sat.aag", "sat"),
            ("counter4_wrap_unsat.aag", "unsat"),
            ("btor2/counter_sat.btor2", "sat"),
            ("btor2/counter_mod6_unsat.btor2", "unsat"),
        ],
    );
    let campaign = out.join("campaign");
    let o = batch_with_checkers(&list, &campaign, &checkers.dir);
    let recs = records(&campaign);
    assert_eq!(recs.len(), 4);
    for r in &recs {
        let task = r["task"].as_str().unwrap();
        let checker = match (task.ends_with(".aag"), r["expected"].as_str().unwrap()) {
            (true, "sat") => "aigsim",
            (false, "sat") => "btorsim",
            _ => "certcheck",
        };
        assert_eq!(
            (
                &r["result"],
                &r["check"],
                &r["checker"],
                &r["checker_result"]
            ),
            (
                &"solved".into(),
                &"accepted".into(),
                &checker.into(),
                &"accepted".into()
            ),
            "{r}"
        );
    }
    let summary = String::from_utf8_lossy(&o.stdout);
    for row in [
        "warden aigsim 1 1 0 0",
        "warden certcheck 2 2 0 0",
        "warden btorsim 1 1 0 0",
    ] {
        let found =
            (summary.lines()).any(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") == row);
        assert!(found, "no row {row:?} in\n{summary}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// A checker that rejects makes the answer wrong, even when warden's own check accepts it;
/// one that fails to answer (certcheck's exit 2: a tool error) leaves it unchecked, and
/// solved. The checkers here are the real ones but for two scripts standing in for aigsim
/// and certcheck.
#[test]
fn an_answer_a_checker_rejects_is_wrong() {
    let Some(checkers) = common::checkers::Checkers::get() else {
        return;
    };
    let out = out_dir("rejected");
    let fake = out.join("checkers");
    std::fs::create_dir_all(&fake).unwrap();
    for entry in std::fs::read_dir(&checkers.dir).unwrap() {
        let path = entry.unwrap().path();
        std::os::unix::fs::symlink(&path, fake.join(path.file_name().unwrap())).unwrap();
    }
    let scripts = [
        ("aigsim", "echo '[aigsim] no bad state reached' >&2; exit 1"),
        ("certcheck", "echo 'certcheck: kissat crashed' >&2; exit 2"),
    ];
    for (name, body) in scripts {
        let path = fake.join(name);
        std::fs::remove_file(&path).unwrap();
        write_script(&path, body);
    }
    let list = task_list(
        &out,
        &[
            ("counter4_sat.aag", "sat"),
            ("btor2/counter_mod6_unsat.btor2", "unsat"),
        ],
    );
    let campaign = out.join("campaign");
    let o = batch_with_checkers(&list, &campaign, &fake);
    let recs = records(&campaign);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        let sat = r["expected"] == "sat";
        // warden's answer is right, and its own check accepts it.
        assert_eq!(
            (&r["verdict"], &r["check"]),
            (&r["expected"], &"accepted".into())
        );
        let (result, checker, said) = match sat {
            true => ("wrong", "aigsim", "rejected"),
            false => ("solved", "certcheck", "unchecked"),
        };
        assert_eq!(
            (&r["result"], &r["checker"], &r["checker_result"]),
            (&result.into(), &checker.into(), &said.into()),
            "{r}"
        );
        let note = r["checker_note"].as_str().unwrap();
        let expected_note = match sat {
            true => "no bad state reached",
            false => "kissat crashed",
        };
        assert!(note.contains(expected_note), "{r}");
    }
    let summary = String::from_utf8_lossy(&o.stdout);
    let warden = summary.lines().find(|l| l.starts_with("warden ")).unwrap();
    let cells: Vec<&str> = warden.split_whitespace().collect();
    // solved 1, wrong 1.
    assert_eq!((cells[1], cells[4]), ("1", "1"), "{summary}");
    std::fs::remove_dir_all(&out).unwrap();
}
