//! Corpus runner: runs warden (and optionally ABC) on every task of a benchmark list and
//! reports solved counts, wrong answers, PAR-2 scores, times and memory.
//!
//! ```text
//! cargo bench --bench corpus -- --set ../shared/bench/eval-aiger.tsv --timeout 20 --vs abc
//! ```
//! (`--help` lists every option.) Plain `cargo bench` passes no `--set`: the runner then
//! prints its usage and exits at once, so that `cargo bench` stays cheap.
//!
//! # The task list
//! A tab-separated file with a header line naming at least the columns `path` (relative to
//! the list's directory) and `expected` (`sat`, `unsat`, or SV-COMP's `true` = `unsat` and
//! `false` = `sat` for C programs; anything else meaning unknown), and optionally `format`
//! (`aag`, `aig`, `btor`, `btor2`, `c`, `i`; default: the path's extension), as
//! `../shared/bench/eval-*.tsv`. ABC does not apply to C programs (no ABC verdict).
//!
//! # Tools
//! - `warden`: the package's own binary (`CARGO_BIN_EXE_warden`, or `--warden-bin`), as
//!   `warden check MODEL --engine E --timeout T [--warden-args ...] --witness FILE`. The verdict is the first line
//!   of its stdout; an exit code other than 0 counts as no verdict (an error). Every `sat` is
//!   replayed with `warden sim MODEL FILE` (exit 0 = valid; the witness printed on stdout is
//!   used if the file is missing); its time is not counted.
//! - Independent checks (`corpus/independent.rs`), unless `--no-check`: every `sat` witness
//!   is also replayed by aigsim (AIGER) or btorsim (BTOR2), and for every `unsat` warden is
//!   asked for `--cert FILE`, which Certifaiger's `certcheck` checks against the model
//!   (AIGER, re-encoded by aigtoaig) or `warden blast` of it (BTOR2). The checkers come from
//!   `--tools DIR`, else `$WARDEN_CHECKERS`, else `target/checkers` (built there by
//!   `../shared/tools/build.sh` when missing; without gcc the checks are skipped with a
//!   message). A rejected witness or certificate makes the answer wrong; a checker that
//!   fails to answer leaves it unchecked. Counts per checker (checked, accepted, rejected,
//!   unchecked) are printed per warden column. Not timed.
//! - `abc-bmc3` / `abc-pdr`: `berkeley-abc -c "read M; logic; undc; strash; fold; zero; bmc3
//!   -T T"` (or `pdr -T T`). ABC reads binary AIGER only: `aag` files are converted with
//!   warden's own AIGER reader and writer first, and BTOR2 files (`btor`, `btor2`) are
//!   bit-blasted by `warden blast MODEL OUT.aig` (neither is timed), so on BTOR2 tasks ABC
//!   checks the same bit-level system as warden. ABC's `read` of an AIGER 1.9 file
//!   takes the bad-state properties as outputs followed by the invariant constraints, marked
//!   as constraints ("The last N outputs are interpreted as constraints"), which `fold` folds
//!   into the property (sticky: a trace must satisfy them in every frame up to the bad one).
//!   `undc` must run before `fold`: `fold` silently sets uninitialised latches to 0, so with
//!   `fold` first an uninitialised latch reads as a 0-initialised one (ABC then proves a
//!   property that fails, e.g. `bad = l` with `l` uninitialised and any constraint).
//!   Verdicts: `... was asserted in frame N` is `sat`; `Property proved` (pdr) and `Explored
//!   all reachable states` (bmc3 on a small state space) are `unsat`; anything else,
//!   e.g. bmc3's `No output asserted in N frames. Resource limit reached` at its limit, is
//!   unknown. ABC's counterexamples are not replayed. Other formats, and BTOR2 files that
//!   `warden blast` rejects (e.g. `unsupported: ...` arrays), get no ABC verdict (unknown,
//!   with the reason as note).
//!
//! Each run gets a wall-clock limit of T + 10 s, after which its process group is killed
//! (no verdict, noted `timeout`). Wall time and peak RSS (`ru_maxrss` from `wait4`) are
//! measured per process. With `--jobs J`, J tasks run at once (the tools of one task run one
//! after the other), which makes the times of concurrent runs noisier.
//!
//! # Scoring
//! - Tasks with an expected `sat`/`unsat`: a verdict is correct when it equals the expected
//!   one (and, for warden's `sat`, its witness replays); **wrong** when it is `sat`/`unsat`
//!   and differs from the expected one, or is a `sat` whose witness does not replay.
//! - Tasks with an expected `unknown` are reported in a table of their own: any verdict counts
//!   as solved, and one is wrong only when it is a `sat` whose witness does not replay.
//! - PAR-2 of a tool over a set of tasks: the sum over the tasks of the wall time when the
//!   task was solved (correctly), else 2 T; reported as the sum and the mean per task.
//! - `unknown`: runs without a verdict; of these, `timeout` counts those killed at T + 10 s or
//!   giving up at T or later, `error` those whose process failed (exit code, signal).
//! - Median time: over the solved tasks. RSS median and max: over all runs of the tool.
//! - `virtual-best` (with several `--engine` columns): per task the fastest solved run of
//!   the warden columns, scored like a tool of its own.
//! - Per family (`corpus/family.rs`: the file name up to its second `_` when it has three
//!   `_`-separated parts, else up to the first), the number of tasks solved by each tool.
//!
//! `--csv FILE` writes one row per task and tool:
//! `task,tool,expected,verdict,correct,time_s,rss_mib,witness_ok,checker,checker_ok`, where
//! `correct` is `true` (solved: right verdict, or any verdict on an unknown task), `false`
//! (wrong) or empty (no verdict), `witness_ok` is `true`/`false` for replayed `sat`
//! witnesses (`warden sim`), else empty, `checker` names the independent checker of the
//! answer (`aigsim`, `btorsim`, `certcheck`, or empty) and `checker_ok` is `true`
//! (accepted), `false` (rejected) or empty (unchecked).

#[path = "corpus/abc.rs"]
mod abc;
#[path = "../tests/common/checkers.rs"]
mod checkers;
#[path = "corpus/family.rs"]
mod family;
#[path = "corpus/independent.rs"]
mod independent;
#[path = "corpus/proc.rs"]
mod proc;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use abc::AbcCmd;
use checkers::{Check, Checkers};
use proc::{run_limited, Exit};
pub use warden::verdict::Verdict;

const USAGE: &str = "\
usage: cargo bench --bench corpus -- --set LIST.tsv [options]
  --set FILE         task list (TSV with columns path, expected[, format, ...])
  --timeout T        seconds per run (default 20); processes are killed at T + 10
  --engine E[,E..]   warden engine(s), each a column (default bmc); `none` runs
                     only ABC (with --vs abc)
  --vs abc           also run ABC (berkeley-abc)
  --abc-cmd C        bmc3 | pdr | both (default: bmc3 for --engine bmc, else pdr)
  --jobs J           tasks run at once (default 1)
  --limit N          only the first N tasks (after --filter)
  --filter S         only tasks whose path contains S
  --csv FILE         one row per task and tool
  --warden-bin P     warden binary (default: the one cargo built)
  --warden-args A    extra flags for `warden check`, split at white space
                     (e.g. '--domain pred-cart --refinement seq-itp')
  --abc-bin P        ABC binary (default: berkeley-abc on PATH, or /usr/bin/berkeley-abc)
  --tools DIR        independent checkers (aigsim, btorsim, certcheck; default: built into
                     target/checkers by ../shared/tools/build.sh)
  --no-check         no independent checks (warden sim still replays every witness)";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    /// warden with one engine; the name is `warden` when the run has one engine, else
    /// `warden-ENGINE`.
    Warden {
        engine: &'static str,
        name: &'static str,
    },
    Abc(AbcCmd),
    /// Per task, the best of the warden columns (when there are several): the fastest
    /// correct answer.
    VirtualBest,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Warden { name, .. } => name,
            Tool::Abc(c) => c.tool_name(),
            Tool::VirtualBest => "virtual-best",
        }
    }

    fn is_warden(self) -> bool {
        matches!(self, Tool::Warden { .. })
    }
}

struct Args {
    set: PathBuf,
    timeout: u64,
    /// warden engines, each run as a tool of its own (`--engine a,b`).
    engines: Vec<String>,
    vs_abc: bool,
    abc_cmd: Option<String>,
    jobs: usize,
    limit: Option<usize>,
    filter: Option<String>,
    csv: Option<PathBuf>,
    warden_bin: PathBuf,
    /// Extra flags for `warden check` (e.g. the CEGAR axes).
    warden_args: Vec<String>,
    abc_bin: Option<PathBuf>,
    tools: Option<PathBuf>,
    no_check: bool,
}

/// `Ok(None)`: no `--set` (plain `cargo bench`) or `--help`.
fn parse_args(argv: &[String]) -> Result<Option<Args>, String> {
    let mut set = None;
    let mut args = Args {
        set: PathBuf::new(),
        timeout: 20,
        engines: vec!["bmc".to_owned()],
        vs_abc: false,
        abc_cmd: None,
        jobs: 1,
        limit: None,
        filter: None,
        csv: None,
        warden_bin: PathBuf::from(env!("CARGO_BIN_EXE_warden")),
        warden_args: Vec::new(),
        abc_bin: None,
        tools: None,
        no_check: false,
    };
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let takes_value = matches!(
            flag,
            "--set"
                | "--timeout"
                | "--engine"
                | "--vs"
                | "--abc-cmd"
                | "--jobs"
                | "--limit"
                | "--filter"
                | "--csv"
                | "--warden-bin"
                | "--warden-args"
                | "--abc-bin"
                | "--tools"
        );
        if !takes_value {
            match flag {
                "--help" | "-h" => return Ok(None),
                "--bench" => {} // passed by cargo
                "--no-check" => args.no_check = true,
                _ => eprintln!("corpus: ignoring argument {arg}"),
            }
            continue;
        }
        let value = match inline.or_else(|| it.next().cloned()) {
            Some(v) => v,
            None => return Err(format!("{flag} needs a value")),
        };
        let number = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag {
            "--set" => set = Some(PathBuf::from(value)),
            "--timeout" => args.timeout = number(&value)?.max(1) as u64,
            "--engine" if value == "none" => args.engines.clear(),
            "--engine" => args.engines = value.split(',').map(str::to_owned).collect(),
            "--vs" if value == "abc" => args.vs_abc = true,
            "--vs" => return Err(format!("--vs: only `abc` is known, not {value}")),
            "--abc-cmd" if ["bmc3", "pdr", "both"].contains(&value.as_str()) => {
                args.abc_cmd = Some(value)
            }
            "--abc-cmd" => return Err(format!("--abc-cmd: bmc3, pdr or both, not {value}")),
            "--jobs" => args.jobs = number(&value)?.max(1),
            "--limit" => args.limit = Some(number(&value)?),
            "--filter" => args.filter = Some(value),
            "--csv" => args.csv = Some(PathBuf::from(value)),
            "--warden-bin" => args.warden_bin = PathBuf::from(value),
            "--warden-args" => {
                args.warden_args = value.split_whitespace().map(str::to_owned).collect()
            }
            "--abc-bin" => args.abc_bin = Some(PathBuf::from(value)),
            "--tools" => args.tools = Some(PathBuf::from(value)),
            _ => unreachable!("{flag}"),
        }
    }
    Ok(set.map(|s| Args { set: s, ..args }))
}

struct Task {
    /// The `path` column, as written: the task's name in reports.
    key: String,
    /// The model file.
    path: PathBuf,
    format: String,
    expected: Verdict,
    /// `--data-model lp64` for C tasks whose `data_model` column says LP64.
    lp64: bool,
}

impl Task {
    fn short_name(&self) -> &str {
        self.key.rsplit('/').next().unwrap_or(&self.key)
    }
}

fn read_tasks(list: &Path) -> Result<Vec<Task>, String> {
    let text = std::fs::read_to_string(list)
        .map_err(|e| format!("cannot read {}: {e}", list.display()))?;
    let base = list.parent().unwrap_or(Path::new("."));
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| format!("{}: no column `{name}` in the header", list.display()))
    };
    let (c_path, c_format, c_expected) = (col("path")?, col("format").ok(), col("expected")?);
    let c_data_model = col("data_model").ok();
    let mut tasks = Vec::new();
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').collect();
        let cell = |c: usize| {
            cells
                .get(c)
                .map(|s| s.trim())
                .ok_or_else(|| format!("{}: data line {}: too few columns", list.display(), i + 1))
        };
        let key = cell(c_path)?.to_owned();
        let format = match c_format {
            Some(c) => cell(c)?.to_owned(),
            None => key.rsplit('.').next().unwrap_or("").to_owned(),
        };
        tasks.push(Task {
            path: base.join(&key),
            key,
            format,
            expected: Verdict::parse(cell(c_expected)?),
            lp64: match c_data_model {
                Some(c) => cell(c)?.to_ascii_uppercase().starts_with("LP64"),
                None => false,
            },
        });
    }
    Ok(tasks)
}

/// One tool's run on one task.
#[derive(Clone, Debug)]
struct Run {
    verdict: Verdict,
    /// Why there is no verdict (`timeout`, `exit 2`, ...), or empty.
    note: String,
    time: f64,
    rss_kib: u64,
    witness_ok: Option<bool>,
    /// The independent checker of the answer and what it said.
    independent: Option<(&'static str, Check)>,
}

impl Run {
    fn failed(note: String) -> Run {
        Run {
            verdict: Verdict::Unknown,
            note,
            time: 0.0,
            rss_kib: 0,
            witness_ok: None,
            independent: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judgement {
    /// Right verdict, or any verdict on a task with an unknown expected verdict.
    Solved,
    Wrong,
    NoVerdict,
}

fn judge(expected: Verdict, run: &Run) -> Judgement {
    let rejected = matches!(run.independent, Some((_, Check::Rejected(_))));
    if run.witness_ok == Some(false) || rejected {
        return Judgement::Wrong;
    }
    match (expected, run.verdict) {
        (_, Verdict::Unknown) => Judgement::NoVerdict,
        (Verdict::Unknown, _) => Judgement::Solved,
        (e, v) if e == v => Judgement::Solved,
        _ => Judgement::Wrong,
    }
}

fn exit_note(exit: &Exit) -> String {
    match exit {
        Exit::Code(c) => format!("exit {c}"),
        Exit::Signal(s) => format!("signal {s}"),
        Exit::TimedOut => "timeout".to_owned(),
        Exit::SpawnFailed(e) => format!("cannot run: {e}"),
    }
}

struct Runner {
    args: Args,
    tools: Vec<Tool>,
    abc_bin: Option<PathBuf>,
    checkers: Option<&'static Checkers>,
    tmp_root: PathBuf,
}

impl Runner {
    fn limit(&self) -> Duration {
        Duration::from_secs(self.args.timeout + 10)
    }

    fn run_task(&self, index: usize, task: &Task) -> Vec<Run> {
        let dir = self.tmp_root.join(format!("t{index}"));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            let note = format!("cannot create {}: {e}", dir.display());
            return self
                .tools
                .iter()
                .map(|_| Run::failed(note.clone()))
                .collect();
        }
        let mut abc_model: Option<Result<PathBuf, String>> = None;
        let runs = self
            .tools
            .iter()
            .map(|&tool| match tool {
                Tool::Warden { engine, .. } => self.run_warden(engine, task, &dir),
                Tool::VirtualBest => unreachable!("computed after the runs"),
                Tool::Abc(cmd) => {
                    let model = abc_model
                        .get_or_insert_with(|| abc_input(task, &dir, &self.args.warden_bin));
                    match model {
                        Ok(m) => self.run_abc(cmd, m, &dir),
                        Err(e) => Run::failed(e.clone()),
                    }
                }
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        runs
    }

    fn run_warden(&self, engine: &str, task: &Task, dir: &Path) -> Run {
        let witness = dir.join(format!("witness-{engine}.txt"));
        let cert = dir.join(format!("cert-{engine}.aig"));
        let certify = self.checkers.is_some() && independent::wants_certificate(&task.format);
        let (out, err) = (dir.join("warden.out"), dir.join("warden.err"));
        let mut cmd = Command::new(&self.args.warden_bin);
        cmd.arg("check")
            .arg(&task.path)
            .args(["--engine", engine])
            .args(["--timeout", &self.args.timeout.to_string()])
            .args(&self.args.warden_args)
            .args(if task.lp64 {
                &["--data-model", "lp64"][..]
            } else {
                &[]
            })
            .arg("--witness")
            .arg(&witness);
        if certify {
            cmd.arg("--cert").arg(&cert);
        }
        let o = run_limited(cmd, &out, &err, self.limit());
        let stdout = std::fs::read_to_string(&out).unwrap_or_default();
        let mut run = Run {
            verdict: Verdict::Unknown,
            note: String::new(),
            time: o.wall.as_secs_f64(),
            rss_kib: o.rss_kib,
            witness_ok: None,
            independent: None,
        };
        if o.exit != Exit::Code(0) {
            run.note = exit_note(&o.exit);
            if let Exit::Code(_) = o.exit {
                // The first line of stderr says what went wrong (input error, ...).
                let stderr = std::fs::read_to_string(&err).unwrap_or_default();
                if let Some(line) = stderr.lines().find(|l| !l.trim().is_empty()) {
                    run.note = format!("{}: {}", run.note, line.trim());
                }
            }
            return run;
        }
        let (first, rest) = stdout.split_once('\n').unwrap_or((&stdout, ""));
        run.verdict = Verdict::parse(first);
        if first.trim() != run.verdict.as_str() {
            run.note = format!("unexpected output: {:.40}", first.trim());
        }
        if run.verdict == Verdict::Sat {
            let has_file = std::fs::metadata(&witness).is_ok_and(|m| m.len() > 0);
            if !has_file {
                let _ = std::fs::write(&witness, rest);
            }
            let mut sim = Command::new(&self.args.warden_bin);
            sim.arg("sim").arg(&task.path).arg(&witness);
            let (sout, serr) = (dir.join("sim.out"), dir.join("sim.err"));
            let s = run_limited(sim, &sout, &serr, self.limit());
            run.witness_ok = Some(s.exit == Exit::Code(0));
            if s.exit != Exit::Code(0) {
                run.note = format!("witness rejected (sim {})", exit_note(&s.exit));
            }
        }
        if let Some(checkers) = self.checkers {
            let (model, bin) = (&task.path, &self.args.warden_bin);
            let files = (witness.as_path(), cert.as_path());
            run.independent =
                independent::check(checkers, bin, model, &task.format, run.verdict, files, dir);
            if let Some((tool, Check::Rejected(e) | Check::Failed(e))) = &run.independent {
                run.note = format!("{tool}: {e}");
            }
        }
        run
    }

    fn run_abc(&self, cmd: AbcCmd, model: &Path, dir: &Path) -> Run {
        let Some(bin) = &self.abc_bin else {
            return Run::failed("no ABC".to_owned());
        };
        let name = cmd.tool_name();
        let (out, err) = (
            dir.join(format!("{name}.out")),
            dir.join(format!("{name}.err")),
        );
        // ABC splits its script at spaces and `;`: run it in the model's directory and name
        // the model by its file name alone.
        let (mdir, mfile) = (model.parent().unwrap_or(Path::new(".")), model.file_name());
        let mut c = Command::new(bin);
        c.current_dir(mdir).arg("-c").arg(cmd.script(
            Path::new(mfile.unwrap_or_default()),
            self.args.timeout,
            None,
        ));
        let o = run_limited(c, &out, &err, self.limit());
        let stdout = std::fs::read_to_string(&out).unwrap_or_default();
        let verdict = abc::parse_verdict(&stdout);
        let note = match (&o.exit, verdict) {
            (Exit::Code(0), _) => String::new(),
            (e, Verdict::Unknown) => exit_note(e),
            (e, _) => format!("verdict, then {}", exit_note(e)),
        };
        Run {
            verdict,
            note,
            time: o.wall.as_secs_f64(),
            rss_kib: o.rss_kib,
            witness_ok: None,
            independent: None,
        }
    }
}

/// The binary AIGER file ABC reads for `task`: the model itself, its conversion, or for BTOR2
/// warden's bit-blasted system (`warden blast`).
fn abc_input(task: &Task, dir: &Path, warden: &Path) -> Result<PathBuf, String> {
    let dst = dir.join("model.aig");
    let converted = match task.format.as_str() {
        "aig" => return Ok(task.path.clone()),
        "aag" => abc::convert_to_binary(&task.path, &dst),
        "btor" | "btor2" => abc::blast(warden, &task.path, &dst),
        "c" | "i" => return Err("not applicable: ABC does not read C".to_owned()),
        f => return Err(format!("unsupported format {f}")),
    };
    converted
        .map(|()| dst)
        .map_err(|e| format!("conversion failed: {e}"))
}

fn progress_cell(tool: Tool, expected: Verdict, run: &Run) -> String {
    let mut s = format!("{}={}({:.2}s", tool.name(), run.verdict.as_str(), run.time);
    if !run.note.is_empty() {
        let _ = write!(s, ", {}", run.note);
    }
    if judge(expected, run) == Judgement::Wrong {
        s.push_str(", WRONG");
    }
    s.push(')');
    s
}

#[derive(Default)]
struct Stats {
    tasks: usize,
    solved: usize,
    sat: usize,
    unsat: usize,
    wrong: usize,
    no_verdict: usize,
    timeouts: usize,
    errors: usize,
    par2: f64,
    solved_times: Vec<f64>,
    rss_mib: Vec<f64>,
}

impl Stats {
    fn add(&mut self, expected: Verdict, run: &Run, timeout: u64) {
        self.tasks += 1;
        self.rss_mib.push(run.rss_kib as f64 / 1024.0);
        match judge(expected, run) {
            Judgement::Solved => {
                self.solved += 1;
                match run.verdict {
                    Verdict::Sat => self.sat += 1,
                    _ => self.unsat += 1,
                }
                self.par2 += run.time;
                self.solved_times.push(run.time);
            }
            Judgement::Wrong => {
                self.wrong += 1;
                self.par2 += 2.0 * timeout as f64;
            }
            Judgement::NoVerdict => {
                self.no_verdict += 1;
                // Killed at T + 10 s, or gave up at its own limit T.
                let at_limit = run.note.is_empty() && run.time >= timeout as f64;
                if run.note == "timeout" || at_limit {
                    self.timeouts += 1;
                } else if !run.note.is_empty() {
                    self.errors += 1;
                }
                self.par2 += 2.0 * timeout as f64;
            }
        }
    }
}

fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// `x` with `digits` decimals, or `-` when it is NaN (e.g. the median of nothing).
fn fmt_or_dash(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "-".to_owned()
    } else {
        format!("{x:.digits$}")
    }
}

fn print_table(title: &str, tools: &[Tool], stats: &[Stats]) {
    println!("{title}");
    println!(
        "  {:<16} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7} {:>5} {:>10} {:>8} {:>8} {:>8} {:>8}",
        "tool",
        "solved",
        "sat",
        "unsat",
        "wrong",
        "unknown",
        "timeout",
        "error",
        "PAR-2 sum",
        "mean",
        "med t",
        "RSS med",
        "RSS max"
    );
    for (tool, s) in tools.iter().zip(stats) {
        let rss_max = s.rss_mib.iter().copied().fold(f64::NAN, f64::max);
        println!(
            "  {:<16} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7} {:>5} {:>10.1} {:>8.2} {:>8} {:>8.1} {:>8.1}",
            tool.name(),
            s.solved,
            s.sat,
            s.unsat,
            s.wrong,
            s.no_verdict,
            s.timeouts,
            s.errors,
            s.par2,
            s.par2 / s.tasks.max(1) as f64,
            fmt_or_dash(median(&s.solved_times), 2),
            median(&s.rss_mib),
            rss_max
        );
    }
}

/// The tools and runs with a virtual-best column added when there are several warden
/// columns: per task, the fastest solved run among them (by [`judge`]), else the first
/// warden run without a verdict (a wrong answer of one column is not the virtual best's).
fn with_virtual_best(
    tools: &[Tool],
    tasks: &[Task],
    mut results: Vec<Vec<Run>>,
) -> (Vec<Tool>, Vec<Vec<Run>>) {
    let warden: Vec<usize> = (0..tools.len()).filter(|&i| tools[i].is_warden()).collect();
    if warden.len() < 2 {
        return (tools.to_vec(), results);
    }
    for (task, runs) in tasks.iter().zip(&mut results) {
        let solved = (warden.iter().map(|&i| &runs[i]))
            .filter(|r| judge(task.expected, r) == Judgement::Solved)
            .min_by(|a, b| a.time.total_cmp(&b.time));
        // Unsolved: no verdict, as long as the slowest column took (a timeout if that did).
        let slowest = warden.iter().map(|&i| runs[i].time).fold(0.0, f64::max);
        let unsolved = Run {
            time: slowest,
            ..Run::failed(String::new())
        };
        let best = solved.cloned().unwrap_or(unsolved);
        runs.push(best);
    }
    let mut tools = tools.to_vec();
    tools.push(Tool::VirtualBest);
    (tools, results)
}

fn summarize(runner: &Runner, tools: &[Tool], tasks: &[Task], results: &[Vec<Run>]) {
    let t = runner.args.timeout;
    let known = |task: &Task| task.expected != Verdict::Unknown;
    let count = |v: Verdict| tasks.iter().filter(|t| t.expected == v).count();
    println!(
        "\ncorpus {}: {} tasks ({} sat, {} unsat, {} unknown expected), timeout {t} s, \
         warden --engine {}",
        runner.args.set.display(),
        tasks.len(),
        count(Verdict::Sat),
        count(Verdict::Unsat),
        count(Verdict::Unknown),
        runner.args.engines.join(",")
    );
    println!(
        "(times in s, RSS in MiB; PAR-2 = sum of times of solved tasks + 2*{t} per unsolved; \
         med t over solved; unknown = no verdict, of which timeout = at the limit, \
         error = process failed)\n"
    );
    for (title, want_known) in [
        ("Tasks with an expected verdict:", true),
        (
            "Tasks with an unknown expected verdict (any verdict counts as solved):",
            false,
        ),
    ] {
        if !tasks.iter().any(|task| known(task) == want_known) {
            continue;
        }
        let mut stats: Vec<Stats> = tools.iter().map(|_| Stats::default()).collect();
        for (task, runs) in tasks.iter().zip(results) {
            if known(task) == want_known {
                for (s, run) in stats.iter_mut().zip(runs) {
                    s.add(task.expected, run, t);
                }
            }
        }
        print_table(title, tools, &stats);
        println!();
    }
    println!("Independent checks of warden's answers:");
    for (i, tool) in tools.iter().enumerate().filter(|(_, t)| t.is_warden()) {
        let mut tally = independent::Tally::default();
        for run in results.iter().map(|runs| &runs[i]) {
            if let Some((checker, check)) = &run.independent {
                tally.add(checker, check);
            }
        }
        println!("  {:<16} {}", tool.name(), tally.line());
    }
    println!();
    let names: Vec<&str> = tasks.iter().map(|t| t.short_name()).collect();
    family::print_table(&names, tools, |task, tool| {
        judge(tasks[task].expected, &results[task][tool]) == Judgement::Solved
    });
    // Tasks solved by one tool and not by another: each warden engine against each ABC
    // command (against each other warden engine when ABC did not run).
    let any_abc = tools.iter().any(|t| matches!(t, Tool::Abc(_)));
    let pairs = (0..tools.len()).flat_map(|i| (i + 1..tools.len()).map(move |j| (i, j)));
    let compared =
        pairs.filter(|&(i, j)| tools[i].is_warden() && (tools[j].is_warden() != any_abc));
    for (i, j) in compared {
        for (a, b) in [(i, j), (j, i)] {
            let names: Vec<&str> = tasks
                .iter()
                .zip(results)
                .filter(|(task, runs)| {
                    judge(task.expected, &runs[a]) == Judgement::Solved
                        && judge(task.expected, &runs[b]) != Judgement::Solved
                })
                .map(|(task, _)| task.short_name())
                .collect();
            let (na, nb) = (tools[a].name(), tools[b].name());
            println!("Solved by {na} but not {nb} ({}):", names.len());
            for n in names {
                println!("  {n}");
            }
        }
    }
    // Tools contradicting each other where the expected verdict is unknown.
    for (task, runs) in tasks.iter().zip(results) {
        let given: Vec<Verdict> = runs
            .iter()
            .map(|r| r.verdict)
            .filter(|&v| v != Verdict::Unknown)
            .collect();
        if given.windows(2).any(|w| w[0] != w[1]) {
            let cells: Vec<String> = tools
                .iter()
                .zip(runs)
                .map(|(tool, r)| format!("{}={}", tool.name(), r.verdict.as_str()))
                .collect();
            println!(
                "Tools disagree on {}: {}",
                task.short_name(),
                cells.join(" ")
            );
        }
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn write_csv(
    path: &Path,
    tools: &[Tool],
    tasks: &[Task],
    results: &[Vec<Run>],
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(
        out,
        "task,tool,expected,verdict,correct,time_s,rss_mib,witness_ok,checker,checker_ok"
    )?;
    for (task, runs) in tasks.iter().zip(results) {
        for (tool, run) in tools.iter().zip(runs) {
            let correct = match judge(task.expected, run) {
                Judgement::Solved => "true",
                Judgement::Wrong => "false",
                Judgement::NoVerdict => "",
            };
            let witness = run.witness_ok.map(|w| w.to_string()).unwrap_or_default();
            let (checker, checked) = match &run.independent {
                Some((t, Check::Accepted)) => (*t, "true"),
                Some((t, Check::Rejected(_))) => (*t, "false"),
                Some((t, Check::Failed(_))) => (*t, ""),
                None => ("", ""),
            };
            writeln!(
                out,
                "{},{},{},{},{correct},{:.3},{:.1},{witness},{checker},{checked}",
                csv_field(&task.key),
                tool.name(),
                task.expected.as_str(),
                run.verdict.as_str(),
                run.time,
                run.rss_kib as f64 / 1024.0
            )?;
        }
    }
    out.flush()
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("corpus: no --set given, nothing to run.\n{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("corpus: {e}\n{USAGE}");
            std::process::exit(1);
        }
    };
    let mut tasks = match read_tasks(&args.set) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("corpus: {e}");
            std::process::exit(1);
        }
    };
    if let Some(f) = &args.filter {
        tasks.retain(|t| t.key.contains(f.as_str()));
    }
    if let Some(n) = args.limit {
        tasks.truncate(n);
    }

    // Tool names live as long as the run: leaking the few strings keeps `Tool` a `Copy` value.
    let single = args.engines.len() == 1;
    let mut tools: Vec<Tool> = (args.engines.iter())
        .map(|e| Tool::Warden {
            engine: Box::leak(e.clone().into_boxed_str()),
            name: match single {
                true => "warden",
                false => Box::leak(format!("warden-{e}").into_boxed_str()),
            },
        })
        .collect();
    let mut abc_bin = None;
    if args.vs_abc {
        match abc::find_binary(args.abc_bin.as_deref()) {
            Ok(bin) => {
                abc_bin = Some(bin);
                let cmd = args
                    .abc_cmd
                    .clone()
                    .unwrap_or_else(|| match args.engines == ["bmc"] {
                        true => "bmc3".into(),
                        false => "pdr".into(),
                    });
                if cmd != "pdr" {
                    tools.push(Tool::Abc(AbcCmd::Bmc3));
                }
                if cmd != "bmc3" {
                    tools.push(Tool::Abc(AbcCmd::Pdr));
                }
            }
            Err(e) => eprintln!(
                "corpus: ABC not found ({e}; on Debian: apt-get install berkeley-abc); \
                 running warden only"
            ),
        }
    }
    let checkers = match (&args.tools, args.no_check) {
        (_, true) => None,
        (Some(dir), false) => match Checkers::at(dir) {
            Ok(c) => Some(&*Box::leak(Box::new(c))),
            Err(e) => {
                eprintln!("corpus: --tools: {e}");
                std::process::exit(1);
            }
        },
        (None, false) => Checkers::get(),
    };
    let tmp_root = std::env::temp_dir().join(format!("warden-corpus-{}", std::process::id()));
    let runner = Runner {
        args,
        tools,
        abc_bin,
        checkers,
        tmp_root,
    };

    let n = tasks.len();
    let results: Mutex<HashMap<usize, Vec<Run>>> = Mutex::new(HashMap::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..runner.args.jobs.min(n.max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(i) else { break };
                let runs = runner.run_task(i, task);
                let cells: Vec<String> = runner
                    .tools
                    .iter()
                    .zip(&runs)
                    .map(|(&tool, run)| progress_cell(tool, task.expected, run))
                    .collect();
                eprintln!(
                    "[{}/{n}] {} {} {}",
                    i + 1,
                    task.short_name(),
                    task.expected.as_str(),
                    cells.join(" ")
                );
                results.lock().unwrap().insert(i, runs);
            });
        }
    });
    let _ = std::fs::remove_dir_all(&runner.tmp_root);
    let mut results = results.into_inner().unwrap();
    let results: Vec<Vec<Run>> = (0..n).map(|i| results.remove(&i).unwrap()).collect();

    let (tools, results) = with_virtual_best(&runner.tools, &tasks, results);
    summarize(&runner, &tools, &tasks, &results);
    if let Some(csv) = &runner.args.csv {
        match write_csv(csv, &tools, &tasks, &results) {
            Ok(()) => eprintln!("corpus: wrote {}", csv.display()),
            Err(e) => eprintln!("corpus: cannot write {}: {e}", csv.display()),
        }
    }
}
