//! `--on slurm`: the campaign's runs without a record become one SLURM array job
//! (`sbatch --array`), `--runs-per-element` runs per element; each element is this warden
//! again (`warden batch --element I`), which reads the campaign from `OUT/campaign.json` and
//! its runs from `OUT/slurm/plan.json`, and appends each record to a file of its own,
//! `OUT/records/SUBMISSION-I.jsonl` (appends from many nodes to one file on a network file
//! system are not atomic). `--status` reads every record file and `squeue`; a second
//! submission takes only the runs still without a record. SLURM schedules; warden only
//! asks it to.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;

use serde_json::{json, Value};

use super::campaign::{Campaign, RunId};
use super::record::{self, ELEMENT_RECORDS};
use super::{catch_signals, INTERRUPTED};
use crate::error::ExitCode;

#[derive(clap::Args)]
pub struct SlurmArgs {
    /// With `--on slurm`: the partition (`sbatch --partition`).
    #[arg(long, value_name = "P")]
    partition: Option<String>,
    /// With `--on slurm`: the account charged (`sbatch --account`).
    #[arg(long, value_name = "A")]
    account: Option<String>,
    /// With `--on slurm`: the quality of service (`sbatch --qos`).
    #[arg(long, value_name = "Q")]
    qos: Option<String>,
    /// With `--on slurm`: one more `sbatch` option, as one word (`--slurm-arg=--constraint=avx2`);
    /// repeatable.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    slurm_arg: Vec<String>,
    /// With `--on slurm`: runs per array element, one after the other (fewer, longer
    /// elements for clusters that limit the size of an array or start jobs slowly).
    #[arg(long, value_name = "N", default_value_t = 1)]
    runs_per_element: usize,
}

/// The folder of the submissions' plan, script, job ids and element logs.
fn dir(out: &Path) -> PathBuf {
    out.join("slurm")
}

/// The job ids of the campaign's submissions, oldest first (one line each in `slurm/jobs`).
fn jobs(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir(out).join("jobs")).unwrap_or_default();
    text.split_whitespace().map(str::to_owned).collect()
}

/// The state (`PENDING`, `RUNNING`, ...) of each element of the campaign's jobs still in the
/// queue, from `squeue`.
fn queued(out: &Path) -> Result<Vec<String>, String> {
    let jobs = jobs(out);
    if jobs.is_empty() {
        return Ok(Vec::new());
    }
    // Every job of the user, filtered here: `squeue --jobs` fails on a job the controller
    // has forgotten.
    let mut squeue = Command::new("squeue");
    squeue.args(["--noheader", "--array", "--me", "--format=%F %T"]);
    let text = stdout_of(squeue, "squeue")?;
    Ok((text.lines())
        .filter_map(|l| l.split_once(' '))
        .filter(|(job, _)| jobs.iter().any(|j| j == job))
        .map(|(_, state)| state.trim().to_owned())
        .collect())
}

/// The stdout of a SLURM command, or an error with what it said on stderr.
fn stdout_of(mut cmd: Command, name: &str) -> Result<String, String> {
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run {name}: {e}"))?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        return Err(format!("{name} failed: {}", err.trim()));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// "2 running, 6 pending": the elements per state, running ones first.
fn counts(states: &[String]) -> String {
    let mut kinds: Vec<&String> = states.iter().collect();
    kinds.sort_by_key(|k| (k.as_str() != "RUNNING", k.as_str() != "PENDING", k.as_str()));
    kinds.dedup();
    let parts: Vec<String> = (kinds.iter())
        .map(|k| {
            let n = states.iter().filter(|s| s == k).count();
            format!("{n} {}", k.to_lowercase())
        })
        .collect();
    parts.join(", ")
}

/// An error while an element of an earlier submission is still queued or running: a new
/// submission would change the campaign under it and run its runs twice.
pub fn refuse_while_queued(out: &Path) -> Result<(), String> {
    let states = queued(out)?;
    if states.is_empty() {
        return Ok(());
    }
    let job = jobs(out).pop().unwrap_or_default();
    Err(format!(
        "job {job} of this campaign is still in the queue ({}): wait for it \
         (`warden batch --status --out {}`) or cancel it (`scancel {job}`)",
        counts(&states),
        out.display()
    ))
}

fn quoted(s: &Path) -> String {
    format!("'{}'", s.to_string_lossy().replace('\'', r"'\''"))
}

/// Submits the runs of `c` without a record as one array job.
pub fn submit(c: &Campaign, args: &SlurmArgs, parallel: Option<usize>) -> Result<ExitCode, String> {
    c.save()?;
    let todo = c.todo(&c.records()?);
    if todo.is_empty() {
        eprintln!("warden batch: every run has a record: nothing to submit");
        return status(&c.out);
    }
    let elements: Vec<&[RunId]> = todo.chunks(args.runs_per_element.max(1)).collect();
    let slurm = dir(&c.out);
    let logs = slurm.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let submission = jobs(&c.out).len() + 1;
    let plan = json!({ "submission": submission, "elements": elements });
    let plan_file = slurm.join("plan.json");
    std::fs::write(&plan_file, plan.to_string())
        .map_err(|e| format!("cannot write {}: {e}", plan_file.display()))?;
    let script = slurm.join("element.sh");
    let text = format!(
        "#!/bin/sh\n# One element of the SLURM array job of the warden batch campaign in this \
         folder's parent.\nexec {} batch --out {} --element \"$SLURM_ARRAY_TASK_ID\"\n",
        quoted(&c.settings.warden),
        quoted(&c.out)
    );
    std::fs::write(&script, text).map_err(|e| format!("cannot write {}: {e}", script.display()))?;

    let s = &c.settings;
    let mut sbatch = Command::new("sbatch");
    let throttle = parallel.map(|p| format!("%{p}")).unwrap_or_default();
    sbatch
        .arg("--parsable")
        .arg("--job-name=warden-batch")
        .arg(format!("--array=0-{}{throttle}", elements.len() - 1))
        .arg(format!("--cpus-per-task={}", s.jobs.unwrap_or(1)))
        .arg(format!(
            "--time={}",
            minutes(args.runs_per_element, s.timeout)
        ));
    // warden stops at its own memory limit; the margin is for the process around it and for
    // the checks of the answer.
    if let Some(m) = s.mem_limit {
        sbatch.arg(format!("--mem={}M", m + 1024));
    }
    let output = logs.join(format!("{submission}-%a.out"));
    sbatch.arg(format!("--output={}", output.display()));
    for (flag, value) in [
        ("partition", &args.partition),
        ("account", &args.account),
        ("qos", &args.qos),
    ] {
        if let Some(v) = value {
            sbatch.arg(format!("--{flag}={v}"));
        }
    }
    sbatch.args(&args.slurm_arg).arg(&script);
    // `--parsable` prints `JOBID` or `JOBID;CLUSTER`.
    let stdout = stdout_of(sbatch, "sbatch")?;
    let job = stdout.trim().split(';').next().unwrap_or("").to_owned();
    let jobs_file = slurm.join("jobs");
    let mut all = jobs(&c.out);
    all.push(job.clone());
    std::fs::write(&jobs_file, all.join("\n") + "\n")
        .map_err(|e| format!("cannot write {}: {e}", jobs_file.display()))?;
    eprintln!(
        "warden batch: submitted SLURM job {job}: {} runs of {} in {} elements; \
         `warden batch --status --out {}` shows the progress",
        todo.len(),
        c.runs(),
        elements.len(),
        c.out.display()
    );
    Ok(ExitCode::Verdict)
}

/// An element's time limit in minutes: each of its runs may take the task's time limit plus
/// the 10 s before its kill, and its check as long again; a minute more to start.
fn minutes(runs: usize, timeout: u64) -> u64 {
    let seconds = runs.max(1) as u64 * 2 * (timeout + 10) + 60;
    seconds.div_ceil(60)
}

/// Runs element `i` of the latest submission: each of its runs not yet recorded (SLURM may
/// start an element again after a node failure), recorded in its own file.
pub fn element(out: &Path, i: usize) -> Result<ExitCode, String> {
    let c = Campaign::load(out)?;
    let plan_file = dir(out).join("plan.json");
    let text = std::fs::read_to_string(&plan_file)
        .map_err(|e| format!("cannot read {}: {e}", plan_file.display()))?;
    let plan: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", plan_file.display()))?;
    let submission = plan["submission"].as_u64().unwrap_or(0);
    let runs: Vec<RunId> = serde_json::from_value(plan["elements"][i].clone())
        .map_err(|e| format!("{}: element {i}: {e}", plan_file.display()))?;
    catch_signals();
    let records = out.join(ELEMENT_RECORDS);
    std::fs::create_dir_all(&records)
        .map_err(|e| format!("cannot create {}: {e}", records.display()))?;
    let file = records.join(format!("{submission}-{i}.jsonl"));
    let sink = record::open_for_append(&file)?;
    // Only this element records its runs (the plan has none recorded elsewhere).
    let todo = c.todo(&record::read_records(&file)?);
    for (n, &run) in runs.iter().enumerate() {
        if !todo.contains(&run) {
            continue;
        }
        let scratch = out.join("running").join(format!("{submission}-{i}-{n}"));
        let Some(r) = c.run(run, &scratch, &INTERRUPTED) else {
            break;
        };
        record::append(&sink, &r).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        eprintln!(
            "{} {} {} {:.1}s {} {}",
            r.tool,
            r.task,
            r.verdict.as_str(),
            r.time,
            r.result,
            r.note
        );
    }
    if INTERRUPTED.load(Ordering::Relaxed) {
        eprintln!("warden batch: element {i} stopped by a signal; its runs without a record are submitted again by the next `--on slurm` start");
        return Ok(ExitCode::Internal);
    }
    Ok(ExitCode::Verdict)
}

/// `--status`: the records so far, the campaign's elements in the queue, the summary of
/// what is recorded and `results.csv`.
pub fn status(out: &Path) -> Result<ExitCode, String> {
    let c = Campaign::load(out)?;
    let records = c.records()?;
    let table = c.table(&records);
    let (runs, recorded) = (c.runs(), table.recorded());
    println!(
        "campaign {}: {} tasks x {} tools, {recorded} of {runs} runs recorded, {} to run",
        c.out.display(),
        c.tasks.len(),
        c.tools.len(),
        runs - recorded
    );
    if let Some(job) = jobs(out).pop() {
        match queued(out) {
            Ok(states) if states.is_empty() => {
                println!("slurm: job {job} has no element in the queue");
                if recorded < runs {
                    println!(
                        "slurm: the runs without a record failed or were cancelled \
                         (their elements' logs: {}); the same `--on slurm` command submits \
                         them again",
                        dir(out).join("logs").display()
                    );
                }
            }
            Ok(states) => println!("slurm: job {job}: {}", counts(&states)),
            Err(e) => println!("slurm: {e}"),
        }
    }
    table.write_csv_in(&c.out)?;
    print!("\n{}", table.summary());
    Ok(ExitCode::Verdict)
}
