//! `warden batch`: a campaign of many models, each task a `warden check` process of its own
//! (and, with `--vs`, another tool's), every answer checked (by warden's `sim` / `certify`
//! and, with `--checkers`, by the independent checkers), every finished run appended as
//! one JSON line to the campaign's folder the moment it ends. A second start with the same
//! `--out` skips the runs recorded there, so a stopped campaign resumes where it was. The
//! runs go on this machine ([`local`]) or as a SLURM array job ([`slurm`]).

mod campaign;
pub mod independent;
mod local;
mod proc;
mod progress;
pub mod record;
pub mod report;
mod slurm;
mod split;
pub mod tasks;
pub mod tool;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::ExitCode;
use campaign::Campaign;
use tool::Settings;

#[derive(clap::Args)]
pub(super) struct BatchArgs {
    /// The tasks: task lists (`.tsv` with a `path` column relative to the list and
    /// optionally `expected`, `format`, `options`), BenchExec task definitions (`.yml`),
    /// directories (every model file under them) or model files.
    #[arg(required_unless_present_any = ["status", "element"])]
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
    /// Also runs another tool on every task, as a column of its own: `abc` or `abc-pdr`
    /// (ABC's pdr, which proves and refutes), `abc-bmc3` (ABC's bmc3: finds counterexamples,
    /// proves only what it explores completely), or a command in the HWMCC calling convention
    /// (`CMD MODEL CEX_FILE CERT_FILE`, the verdict on the first line of stdout); its
    /// witnesses and certificates are checked as warden's are. Repeatable: `--vs abc-pdr --vs
    /// abc-bmc3` runs both.
    #[arg(long, value_name = "TOOL")]
    vs: Vec<String>,
    /// The folder holding the independent checkers aigsim, btorsim, certcheck and aigtoaig,
    /// as built from the sources of Certifaiger, AIGER and btor2tools (e.g. by
    /// `../shared/tools/build.sh DIR`). With it, every `sat` witness is also replayed by aigsim
    /// (AIGER) or btorsim (BTOR2) and every `unsat` certificate checked by certcheck, in
    /// addition to warden's own `sim` and `certify`: a rejected answer counts as wrong, one
    /// a checker fails to answer stays unchecked. The records say which checker ran and what
    /// it said; the summary counts them per tool. C programs have no independent checker,
    /// and ABC's answers are left unchecked (its counterexamples are of its own network).
    #[arg(long, value_name = "DIR")]
    checkers: Option<PathBuf>,
    /// Extra `warden check` flags for every task, split at white space.
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    warden_args: Option<String>,
    /// Only the tasks whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Only the first N tasks (after --filter).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// One task per property of each multi-property AIGER or BTOR2 model (a copy of the model
    /// with that property alone, as the hardware model checking competition splits them);
    /// the summary groups them back per design.
    #[arg(long)]
    split_properties: bool,
    /// Where the runs go: this machine, or a SLURM array job (`sbatch --array`) whose
    /// elements write their records into `--out`, which must be on a file system the
    /// cluster's nodes share, as must warden and the models.
    #[arg(long, value_enum, default_value = "local")]
    on: On,
    #[command(flatten)]
    slurm: slurm::SlurmArgs,
    /// Shows the progress of the campaign in `--out` (its records and, on SLURM, the queue)
    /// and its summary so far, and writes `results.csv`; runs nothing.
    #[arg(long, conflicts_with = "inputs")]
    status: bool,
    /// Internal: runs the runs of element I of the SLURM array job submitted from `--out`.
    #[arg(long, value_name = "I", hide = true, conflicts_with = "inputs")]
    element: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum On {
    /// This machine, `--parallel` runs at once.
    Local,
    /// A SLURM array job.
    Slurm,
}

/// Set by SIGINT/SIGTERM: the running tasks are killed and not recorded, no new one starts.
/// (SLURM sends SIGTERM to an element at its time limit or on `scancel`.)
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

fn catch_signals() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic flag, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

pub(super) fn batch(args: BatchArgs) -> ExitCode {
    let done = if args.status {
        slurm::status(&args.out)
    } else if let Some(i) = args.element {
        slurm::element(&args.out, i)
    } else {
        start(args)
    };
    match done {
        Ok(code) => code,
        Err(e) => {
            eprintln!("warden batch: {e}");
            ExitCode::Input
        }
    }
}

/// Reads the tasks, saves the campaign and runs what has no record, here or on SLURM.
fn start(args: BatchArgs) -> Result<ExitCode, String> {
    if args.on == On::Slurm {
        // Before anything in `--out` changes under the elements of an earlier submission.
        slurm::refuse_while_queued(&args.out)?;
    }
    let mut tasks = tasks::read_inputs(&args.inputs)?;
    if let Some(f) = &args.filter {
        tasks.retain(|t| t.key.contains(f.as_str()));
    }
    if let Some(n) = args.limit {
        tasks.truncate(n);
    }
    if args.split_properties {
        tasks = split::split(tasks, &args.out.join("split"))?;
    }
    let settings = Settings {
        warden: std::env::current_exe().map_err(|e| format!("cannot find warden: {e}"))?,
        timeout: args.timeout,
        mem_limit: args.mem_limit,
        jobs: args.jobs,
        warden_args: (args.warden_args.as_deref().unwrap_or(""))
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
        checkers: (args.checkers.as_deref())
            .map(independent::checkers_at)
            .transpose()?,
    };
    let campaign = Campaign::new(&args.out, tasks, args.vs, settings)?;
    match args.on {
        On::Local => local::run(&campaign, args.parallel),
        On::Slurm => slurm::submit(&campaign, &args.slurm, args.parallel),
    }
}
