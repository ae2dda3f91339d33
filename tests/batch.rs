//! `warden batch`: the campaign of `circuits/manifest.tsv` (AIGER, BTOR2 and C tasks) is
//! answered and checked, one record per run; a restart runs only what has no whole record;
//! `--vs` adds a column (a HWMCC-convention command, ABC's pdr, ABC's bmc3); a crash
//! injected into one task (fault-injection build) is that task's error alone.

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
    std::fs::write(&script, format!("#!/bin/sh\nexec {me} \"$@\"\n")).unwrap();
    let chmod = std::process::Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status();
    assert!(chmod.unwrap().success());
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
