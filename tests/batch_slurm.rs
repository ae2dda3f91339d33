//! `warden batch --on slurm` on a real SLURM: `scripts/slurm-local` starts munged, slurmctld
//! and slurmd on this machine (Debian's packages, which `scripts/setup` installs). The
//! `circuits/` campaign, its multi-property models split, is answered through an array job
//! exactly as on this machine, every run has its record, `--status` follows the queue, and a
//! second submission takes only the runs that lost their record. A SLURM that does not
//! start fails the test: CI installs it.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::root;

/// The one-machine cluster, stopped when dropped.
struct Cluster {
    conf: String,
}

impl Cluster {
    fn start() -> Cluster {
        let o = Command::new(root().join("scripts/slurm-local"))
            .arg("start")
            .output()
            .expect("run scripts/slurm-local");
        let stdout = String::from_utf8_lossy(&o.stdout);
        let conf = stdout
            .lines()
            .find_map(|l| l.strip_prefix("export SLURM_CONF="));
        match (o.status.success(), conf) {
            (true, Some(conf)) => Cluster {
                conf: conf.to_owned(),
            },
            _ => panic!(
                "SLURM did not start (scripts/slurm-local start; scripts/setup installs it):\n{}",
                String::from_utf8_lossy(&o.stderr)
            ),
        }
    }

    fn batch(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_warden"))
            .arg("batch")
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .output()
            .expect("run warden batch")
    }

    /// `--status` once no element of the campaign is queued and every run has its record.
    fn wait(&self, out: &str) -> String {
        let start = Instant::now();
        loop {
            let o = self.batch(&["--status", "--out", out]);
            let status = String::from_utf8_lossy(&o.stdout).into_owned();
            assert!(
                o.status.success(),
                "{status}{}",
                String::from_utf8_lossy(&o.stderr)
            );
            if status.contains(" 0 to run") && status.contains("no element in the queue") {
                return status;
            }
            let logs = Path::new(out).join("slurm/logs");
            assert!(
                start.elapsed() < Duration::from_secs(150),
                "the array job did not finish in 150 s:\n{status}\nlogs in {}",
                logs.display()
            );
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(root().join("scripts/slurm-local"))
            .arg("stop")
            .status();
    }
}

/// Task -> verdict of the records in `out`, and the number of records.
fn verdicts(out: &Path) -> (BTreeMap<String, String>, usize) {
    let mut files = vec![out.join("results.jsonl")];
    if let Ok(dir) = std::fs::read_dir(out.join("records")) {
        files.extend(dir.map(|e| e.unwrap().path()));
    }
    let mut map = BTreeMap::new();
    let mut n = 0;
    for f in files {
        for line in std::fs::read_to_string(f).unwrap_or_default().lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(r["result"], "solved", "{r}");
            let task = r["task"].as_str().unwrap().to_owned();
            map.insert(task, r["verdict"].as_str().unwrap().to_owned());
            n += 1;
        }
    }
    (map, n)
}

fn out_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-slurm-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_circuits_campaign_runs_as_a_slurm_array_job() {
    let cluster = Cluster::start();
    let manifest = root().join("circuits/manifest.tsv");
    let manifest = manifest.to_str().unwrap();
    let common = [
        manifest,
        "--split-properties",
        "--timeout",
        "30",
        "--jobs",
        "1",
    ];
    let (local, slurm) = (out_dir("local"), out_dir("array"));
    let (local_s, slurm_s) = (local.to_str().unwrap(), slurm.to_str().unwrap());

    let here = cluster.batch(&[&common[..], &["--out", local_s, "--parallel", "2"]].concat());
    assert!(
        here.status.success(),
        "{}",
        String::from_utf8_lossy(&here.stderr)
    );
    let (expected, n) = verdicts(&local);

    let on_slurm = [&common[..], &["--out", slurm_s, "--on", "slurm"]].concat();
    // The independent checkers, passed through `campaign.json` to the elements.
    let checkers = common::checkers::Checkers::get().map(|c| c.dir.display().to_string());
    let checked: Vec<&str> = match &checkers {
        Some(dir) => vec!["--checkers", dir],
        None => Vec::new(),
    };
    let submit = [
        &on_slurm[..],
        &["--runs-per-element", "8", "--mem-limit", "2000"],
        &checked,
    ]
    .concat();
    let o = cluster.batch(&submit);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("{n} runs of {n} in {} elements", n.div_ceil(8))),
        "{err}"
    );
    let status = cluster.wait(slurm_s);
    eprintln!("--status of the finished campaign:\n{status}");
    let first = status.lines().next().unwrap();
    assert!(first.ends_with(&format!(
        "{n} tasks x 1 tools, {n} of {n} runs recorded, 0 to run"
    )));
    let warden_row = status.lines().find(|l| l.starts_with("warden ")).unwrap();
    let cells: Vec<&str> = warden_row.split_whitespace().collect();
    assert_eq!(
        (cells[1], cells[4], cells[7]),
        (n.to_string().as_str(), "0", "0"),
        "{status}"
    );
    assert!(status.contains("per design"), "{status}");
    if checkers.is_some() {
        // Every AIGER and BTOR2 answer accepted by its independent checker as well.
        assert!(status.contains("independent checkers"), "{status}");
        let row = |checker: &str| {
            (status.lines()).find(|l| l.starts_with("warden ") && l.contains(checker))
        };
        for checker in ["aigsim", "btorsim", "certcheck"] {
            let row = row(checker).unwrap_or_else(|| panic!("no {checker} row: {status}"));
            let cells: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(cells[2], cells[3], "all accepted: {status}");
        }
    }
    let (answered, records) = verdicts(&slurm);
    assert_eq!(records, n, "one record per run");
    assert_eq!(answered, expected, "the same verdicts as on this machine");

    // One element's records lost: the same command submits its runs alone, and refuses a
    // third submission while that one is queued.
    std::fs::remove_file(slurm.join("records/1-0.jsonl")).unwrap();
    let o = cluster.batch(&submit);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("8 runs of {n} in 1 elements")),
        "{err}"
    );
    let again = cluster.batch(&submit);
    let again_err = String::from_utf8_lossy(&again.stderr);
    // Unless the element has already finished.
    assert!(
        again_err.contains("still in the queue") || again_err.contains("nothing to submit"),
        "{again_err}"
    );
    cluster.wait(slurm_s);
    let (answered, records) = verdicts(&slurm);
    assert_eq!((answered, records), (expected, n));
    assert!(slurm.join("records/2-0.jsonl").is_file());
    for dir in [local, slurm] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
