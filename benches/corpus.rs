//! Corpus runner: the reports a benchmark study needs over `warden batch` campaigns, several
//! warden columns (engines or configurations) side by side with ABC: solved, wrong and PAR-2
//! per column, times and memory, per family, what one column solves and another does not,
//! the virtual best of the warden columns and, with several configurations, the greedy
//! portfolio report; also over the CSV files of earlier runs (`--matrix`).
//!
//! ```text
//! cargo bench --bench corpus -- --set ../shared/bench/eval-aiger.tsv --timeout 20 --vs abc
//! ```
//! (`--help` lists every option.) Plain `cargo bench` passes no `--set`: the runner then
//! prints its usage and exits at once, so that `cargo bench` stays cheap.
//!
//! # Running: `warden batch`, one campaign per column
//! The runner runs nothing itself. Each warden column (an engine of `--engine a,b`, or a
//! named configuration of `--configs a,b`) is one campaign of the package's binary
//! (`CARGO_BIN_EXE_warden`, or `--warden-bin`):
//!
//! ```text
//! warden batch LIST --out DIR/COLUMN --timeout T --parallel J --warden-args "COLUMN'S FLAGS ..."
//!     --checkers CHECKERS [--filter S] [--limit N] [--vs abc-pdr] [--vs abc-bmc3]
//! ```
//! (ABC runs once, in the first column's campaign.) So every run is what `warden batch`
//! makes of it (docs/lab/batch.md): a process of its own killed at T + 10 s, wall time from
//! spawn to exit and peak RSS (`wait4`), every `sat` replayed by `warden sim` and every
//! `unsat` certificate checked by `warden certify` (a rejected one is a wrong answer), and
//! by the independent checkers: every `sat` witness by aigsim (AIGER) or btorsim (BTOR2),
//! every `unsat` certificate by Certifaiger's certcheck against the model (AIGER) or
//! `warden blast` of it (BTOR2); a rejection is a wrong answer, a checker that gives no
//! answer leaves it unchecked (`warden batch --checkers`, src/cli/batch/independent.rs).
//! `CHECKERS` is `--tools DIR`, else `$WARDEN_CHECKERS`, else `target/checkers`, built
//! there by `../shared/tools/build.sh` when missing (`tests/common/checkers.rs`); without
//! them the runner fails (in CI a checker that cannot be built is a failure, not a skip),
//! unless `--no-check` leaves the independent checks out. ABC gets the model converted to
//! binary AIGER or bit-blasted from BTOR2; C programs are left to warden. Each run is one
//! record in `DIR/COLUMN/results.jsonl`. The runner reads those records back,
//! renames warden's column to the column's name (`warden` for one engine, `warden-ENGINE`
//! for several, or the configuration's name) and reports on them. `DIR` is `--out`, kept
//! and resumed by a second start, or else a fresh folder removed at the end.
//!
//! # The task list
//! A tab-separated file with a header line naming at least the columns `path` (relative to
//! the list's directory) and `expected` (`sat`, `unsat`, or SV-COMP's `true` = `unsat` and
//! `false` = `sat` for C programs; anything else meaning unknown), as
//! `../shared/bench/eval-*.tsv` ([`read_list`]).
//!
//! # Reports
//! - `warden batch`'s summary over all the columns (solved, sat, unsat, wrong, unknown,
//!   unchecked, PAR-2 sum; solved per family; per design for split properties), and a
//!   `virtual-best` column with several warden columns: per task the fastest solved run of
//!   them (`report.rs`).
//! - Times and memory per column: runs without a verdict at the time limit (`timeout`) and
//!   runs whose process failed (`error`), the median time of the solved runs, median and
//!   maximum peak RSS, and how many answers their check (`warden sim` / `warden certify`)
//!   accepted or rejected; then per warden column, per independent checker (aigsim,
//!   btorsim, certcheck), how many answers it checked, accepted, rejected and left
//!   unchecked (also in the summary, per column).
//! - The tasks one column solves and another does not, and tasks the columns disagree on.
//! - With several warden columns, the greedy report and the default per core count
//!   (`greedy.rs`).
//!
//! `--csv FILE` writes one row per task and column in the format of `warden batch`'s
//! `results.csv` (`task,family,tool,expected,verdict,result,check,time_s,rss_mib,note,
//! checker,checker_result`), which
//! `--matrix` reads back (as well as the CSV files of the runner before it ran `warden
//! batch`, with a `correct` column instead of `result`).

#[path = "corpus/args.rs"]
mod args;
#[path = "../tests/common/checkers.rs"]
mod checkers;
#[path = "corpus/greedy.rs"]
mod greedy;
#[path = "corpus/report.rs"]
mod report;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use args::{parse_args, Args, USAGE};
use checkers::Checkers;
use warden::cli::batch::record::{read_all, Record};
use warden::cli::batch::tasks::{read_list, Task};
use warden::options::configs;

/// A warden column: its name in the reports and its `warden check` flags.
struct Column {
    name: String,
    flags: String,
}

/// The warden columns: the named configurations of `--configs`, else the engines of
/// `--engine`.
fn warden_columns(args: &Args) -> Result<Vec<Column>, String> {
    if !args.configs.is_empty() {
        return (args.configs.iter())
            .map(|name| match configs::config(name) {
                Some(c) => Ok(Column {
                    name: c.name.to_owned(),
                    flags: c.args.to_owned(),
                }),
                None => Err(format!(
                    "--configs: no configuration {name} (warden configs)"
                )),
            })
            .collect();
    }
    let single = args.engines.len() == 1;
    Ok((args.engines.iter())
        .map(|e| Column {
            name: match single {
                true => "warden".to_owned(),
                false => format!("warden-{e}"),
            },
            flags: format!("--engine {e}"),
        })
        .collect())
}

/// The `--vs` values of ABC's columns: `--abc-cmd`, else bmc3 for `--engine bmc` alone and
/// pdr otherwise; none when ABC is not installed (said on stderr).
fn abc_columns(args: &Args) -> Vec<&'static str> {
    if !args.vs_abc {
        return Vec::new();
    }
    if let Err(e) = warden::abc::find_binary(None) {
        eprintln!(
            "corpus: ABC not found ({e}; on Debian: apt-get install berkeley-abc); \
             running warden only"
        );
        return Vec::new();
    }
    let cmd = match args.abc_cmd.as_deref() {
        Some(c) => c,
        None if args.engines == ["bmc"] && args.configs.is_empty() => "bmc3",
        None => "pdr",
    };
    let mut vs = Vec::new();
    if cmd != "pdr" {
        vs.push("abc-bmc3");
    }
    if cmd != "bmc3" {
        vs.push("abc-pdr");
    }
    vs
}

/// The folder of the independent checkers for `warden batch --checkers`: `--tools`, else
/// `$WARDEN_CHECKERS`, else `target/checkers` (built there when missing); `None` with
/// `--no-check`. Without them the runner fails: a checker that cannot be built is not a
/// reason to report unchecked answers.
fn checkers(args: &Args) -> Result<Option<PathBuf>, String> {
    if args.no_check {
        return Ok(None);
    }
    match &args.tools {
        Some(dir) => (Checkers::at(dir).map(|c| Some(c.dir))).map_err(|e| format!("--tools: {e}")),
        None => match Checkers::get() {
            Some(c) => Ok(Some(c.dir.clone())),
            None => Err(
                "the independent checkers are unavailable (see above): build them \
                 with ../shared/tools/build.sh DIR and pass --tools DIR, or run with \
                 --no-check"
                    .to_owned(),
            ),
        },
    }
}

/// Runs the campaign of `column` in `dir` (with the other tools `vs`, and the independent
/// checkers in `checkers`): its progress on stderr, its own summary (of this column alone)
/// into `dir/summary.txt`. Returns its records, warden's renamed to the column.
fn run_column(
    args: &Args,
    column: &Column,
    (vs, checkers): (&[&str], Option<&Path>),
    dir: &Path,
) -> Result<Vec<Record>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let summary = dir.join("summary.txt");
    let summary_file = std::fs::File::create(&summary)
        .map_err(|e| format!("cannot write {}: {e}", summary.display()))?;
    let mut cmd = Command::new(&args.warden_bin);
    cmd.arg("batch")
        .arg(&args.set)
        .arg("--out")
        .arg(dir)
        .args(["--timeout", &args.timeout.to_string()])
        .args(["--parallel", &args.jobs.to_string()])
        .arg(format!(
            "--warden-args={} {}",
            column.flags, args.warden_args
        ));
    if let Some(f) = &args.filter {
        cmd.arg(format!("--filter={f}"));
    }
    if let Some(n) = args.limit {
        cmd.args(["--limit", &n.to_string()]);
    }
    for v in vs {
        cmd.args(["--vs", v]);
    }
    if let Some(c) = checkers {
        cmd.arg("--checkers").arg(c);
    }
    eprintln!("corpus: column {} in {}", column.name, dir.display());
    let status = cmd
        .stdout(Stdio::from(summary_file))
        .status()
        .map_err(|e| format!("cannot run {}: {e}", args.warden_bin.display()))?;
    if !status.success() {
        return Err(format!(
            "warden batch of column {} failed ({status})",
            column.name
        ));
    }
    let mut records = read_all(dir)?;
    for r in records.iter_mut().filter(|r| r.tool == "warden") {
        r.tool = column.name.clone();
    }
    Ok(records)
}

/// The tasks the campaigns run: the list's, filtered and limited as `warden batch` does.
fn tasks(args: &Args) -> Result<Vec<Task>, String> {
    let mut tasks = read_list(&args.set)?;
    if let Some(f) = &args.filter {
        tasks.retain(|t| t.key.contains(f.as_str()));
    }
    if let Some(n) = args.limit {
        tasks.truncate(n);
    }
    Ok(tasks)
}

fn run(args: &Args) -> Result<(), String> {
    if !args.matrix.is_empty() {
        let matrix = greedy::read_csvs(&args.matrix).map_err(|e| format!("--matrix: {e}"))?;
        matrix.print(args.timeout as f64);
        return Ok(());
    }
    let tasks = tasks(args)?;
    let columns = warden_columns(args)?;
    let checkers = checkers(args)?;
    let vs = abc_columns(args);
    let (root, temporary) = match &args.out {
        Some(dir) => (dir.clone(), false),
        None => {
            let dir = format!("warden-corpus-{}", std::process::id());
            (std::env::temp_dir().join(dir), true)
        }
    };
    let ran: Result<Vec<Vec<Record>>, String> = (columns.iter().enumerate())
        .map(|(i, column)| {
            let vs = if i == 0 { &vs[..] } else { &[] };
            let tools = (vs, checkers.as_deref());
            run_column(args, column, tools, &root.join(&column.name))
        })
        .collect();
    if temporary {
        let _ = std::fs::remove_dir_all(&root);
    }
    let records = ran?.concat();
    let warden: Vec<String> = columns.into_iter().map(|c| c.name).collect();
    let abc: Vec<String> = vs.iter().map(|&v| v.to_owned()).collect();
    let runs = report::Runs::new(&tasks, warden, abc, records, args.timeout);
    println!(
        "\ncorpus {}: {}, warden {}",
        args.set.display(),
        runs.expected_counts(),
        match args.configs.is_empty() {
            true => format!("--engine {}", args.engines.join(",")),
            false => format!("--configs {}", args.configs.join(",")),
        }
    );
    runs.print();
    if let Some(csv) = &args.csv {
        runs.write_csv(csv)
            .map_err(|e| format!("cannot write {}: {e}", csv.display()))?;
        eprintln!("corpus: wrote {}", csv.display());
    }
    Ok(())
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("corpus: no --set nor --matrix given, nothing to run.\n{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("corpus: {e}\n{USAGE}");
            std::process::exit(1);
        }
    };
    if let Err(e) = run(&args) {
        eprintln!("corpus: {e}");
        std::process::exit(1);
    }
}
