//! `warden batch`: a campaign of many models, each task a `warden check` process of its own
//! (and, with `--vs`, another tool's), every answer checked, every finished run appended as
//! one JSON line to `OUT/results.jsonl` the moment it ends. A second start with the same
//! `--out` skips the runs recorded there, so a stopped campaign resumes where it was.

pub mod proc;
mod report;
pub mod tasks;
pub mod tool;

use std::collections::HashSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::error::ExitCode;
use report::{Progress, Record};
use tool::{Settings, Tool};

#[derive(clap::Args)]
pub(super) struct BatchArgs {
    /// The tasks: task lists (`.tsv` with a `path` column relative to the list and
    /// optionally `expected`, `format`, `options`), BenchExec task definitions (`.yml`),
    /// directories (every model file under them) or model files.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The campaign's folder: `results.jsonl` (one record per finished run, read again to
    /// resume), `results.csv` and the scratch space of the running tasks.
    #[arg(long, value_name = "DIR", default_value = "warden-batch")]
    out: PathBuf,
    /// Seconds per task (each process is killed 10 s later).
    #[arg(long, default_value_t = 3600)]
    timeout: u64,
    /// Memory limit per task in MiB (`warden check --mem-limit`).
    #[arg(long, value_name = "MIB")]
    mem_limit: Option<u64>,
    /// Cores per task (`warden check --jobs`; the portfolio's workers).
    #[arg(long)]
    jobs: Option<usize>,
    /// Tasks run at once [default: the number of cores divided by --jobs].
    #[arg(long, value_name = "N")]
    parallel: Option<usize>,
    /// Also runs another tool on every task, as a column of its own: `abc` (ABC's pdr), or
    /// a command in the HWMCC calling convention (`CMD MODEL CEX_FILE CERT_FILE`, the
    /// verdict on the first line of stdout); its witnesses and certificates are checked as
    /// warden's are. Repeatable.
    #[arg(long, value_name = "TOOL")]
    vs: Vec<String>,
    /// Extra `warden check` flags for every task, split at white space.
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    warden_args: Option<String>,
    /// Only the tasks whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Only the first N tasks (after --filter).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

/// Set by SIGINT/SIGTERM: the running tasks are killed and not recorded, no new one starts.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

pub(super) fn batch(args: BatchArgs) -> ExitCode {
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("warden batch: {e}");
            ExitCode::Input
        }
    }
}

fn run(args: BatchArgs) -> Result<ExitCode, String> {
    let mut tasks = tasks::read_inputs(&args.inputs)?;
    if let Some(f) = &args.filter {
        tasks.retain(|t| t.key.contains(f.as_str()));
    }
    if let Some(n) = args.limit {
        tasks.truncate(n);
    }
    let mut tools = vec![Tool::Warden];
    for v in &args.vs {
        tools.push(Tool::parse_vs(v)?);
    }
    let out = &args.out;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let results = out.join("results.jsonl");
    let recorded = report::read_records(&results)?;
    let done: HashSet<(String, String)> = (recorded.iter())
        .map(|r| (r.task.clone(), r.tool.clone()))
        .collect();
    let todo: Vec<(usize, &Tool)> = (0..tasks.len())
        .flat_map(|i| tools.iter().map(move |t| (i, t)))
        .filter(|(i, t)| !done.contains(&(tasks[*i].key.clone(), t.name().to_owned())))
        .collect();
    let settings = Settings {
        warden: std::env::current_exe().map_err(|e| format!("cannot find warden: {e}"))?,
        timeout: args.timeout,
        mem_limit: args.mem_limit,
        jobs: args.jobs,
        warden_args: (args.warden_args.as_deref().unwrap_or(""))
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parallel = (args.parallel)
        .unwrap_or(cores / args.jobs.unwrap_or(1).max(1))
        .max(1);
    let runs = tasks.len() * tools.len();
    eprintln!(
        "warden batch: {} tasks x {} tools, {} runs recorded in {}, {} to run, {parallel} at once",
        tasks.len(),
        tools.len(),
        runs - todo.len(),
        results.display(),
        todo.len()
    );

    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic flag, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&results)
        .map_err(|e| format!("cannot open {}: {e}", results.display()))?;
    // A last line cut off by a kill would swallow the next record: end it first.
    let cut_off = std::fs::read(&results).is_ok_and(|t| t.last().is_some_and(|&b| b != b'\n'));
    if cut_off {
        (&file)
            .write_all(b"\n")
            .map_err(|e| format!("cannot write {}: {e}", results.display()))?;
    }
    let sink = Mutex::new(file);
    let mut progress = Progress::new(runs);
    let keys: HashSet<&str> = tasks.iter().map(|t| t.key.as_str()).collect();
    let names: HashSet<&str> = tools.iter().map(Tool::name).collect();
    // The runs of this campaign recorded before: counted once each (the last record wins).
    let mut before = std::collections::HashMap::new();
    for r in &recorded {
        if keys.contains(r.task.as_str()) && names.contains(r.tool.as_str()) {
            before.insert((r.task.as_str(), r.tool.as_str()), r);
        }
    }
    before.values().for_each(|r| progress.count(r));
    progress.start();
    let progress = Mutex::new(progress);
    let next = AtomicUsize::new(0);
    let scratch = out.join("running");
    std::thread::scope(|s| {
        for _ in 0..parallel.min(todo.len()) {
            s.spawn(|| loop {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    break;
                }
                let Some(&(i, tool)) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    break;
                };
                let task = &tasks[i];
                let dir = scratch.join(format!("{i}-{}", tool.name()));
                let run = match std::fs::create_dir_all(&dir) {
                    Ok(()) => tool::run(tool, task, &settings, &dir, &INTERRUPTED),
                    Err(e) => Some(tool::failed(format!(
                        "cannot create {}: {e}",
                        dir.display()
                    ))),
                };
                let _ = std::fs::remove_dir_all(&dir);
                let Some(run) = run else { break };
                let record = Record::of(task, tool.name(), &run);
                let line = record.to_json();
                // One write per line on a file opened for appending: a record is whole or,
                // when the campaign is killed mid-write, an unreadable last line that the
                // next start ignores (and reruns).
                let written = sink
                    .lock()
                    .unwrap()
                    .write_all(format!("{line}\n").as_bytes());
                if let Err(e) = written {
                    eprintln!("warden batch: cannot write {}: {e}", results.display());
                    INTERRUPTED.store(true, Ordering::Relaxed);
                }
                progress.lock().unwrap().finished(&record);
            });
        }
    });
    let _ = std::fs::remove_dir(&scratch);
    progress.lock().unwrap().clear();

    let records = report::read_records(&results)?;
    let table = report::Table::new(&tasks, &tools, &records, args.timeout);
    let csv = out.join("results.csv");
    table
        .write_csv(&csv)
        .map_err(|e| format!("cannot write {}: {e}", csv.display()))?;
    print!("{}", table.summary());
    if INTERRUPTED.load(Ordering::Relaxed) {
        eprintln!(
            "warden batch: interrupted with {} of {runs} runs recorded; the same command \
             resumes the campaign",
            table.recorded()
        );
        return Ok(ExitCode::Internal);
    }
    Ok(ExitCode::Verdict)
}
