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
#[path = "corpus/args.rs"]
mod args;
#[path = "../tests/common/checkers.rs"]
mod checkers;
#[path = "corpus/family.rs"]
mod family;
#[path = "corpus/greedy.rs"]
mod greedy;
#[path = "corpus/independent.rs"]
mod independent;
#[path = "corpus/report.rs"]
mod report;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use abc::AbcCmd;
use args::{parse_args, Args, USAGE};
use checkers::{Check, Checkers};
use report::{summarize, with_virtual_best, write_csv};
use warden::cli::batch::proc::{run_limited, Exit};
use warden::cli::batch::tasks::{read_list as read_tasks, Task};
use warden::cli::batch::tool::exit_note;
use warden::options::configs;
pub use warden::verdict::Verdict;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    /// warden with the options `args` (`--engine E`, or a named configuration's); the name
    /// is `warden` when the run has one engine, else `warden-ENGINE`, or the configuration's.
    Warden {
        args: &'static str,
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

struct Runner {
    args: Args,
    tools: Vec<Tool>,
    abc_bin: Option<PathBuf>,
    checkers: Option<&'static Checkers>,
    tmp_root: PathBuf,
}

/// Nothing cancels the corpus runner's processes: each runs to its end or its limit.
static NEVER: AtomicBool = AtomicBool::new(false);

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
                Tool::Warden { args, name } => self.run_warden(args, name, task, &dir),
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

    fn run_warden(&self, options: &str, name: &str, task: &Task, dir: &Path) -> Run {
        let witness = dir.join(format!("witness-{name}.txt"));
        let cert = dir.join(format!("cert-{name}.aig"));
        let certify = self.checkers.is_some() && independent::wants_certificate(&task.format);
        let (out, err) = (dir.join("warden.out"), dir.join("warden.err"));
        let mut cmd = Command::new(&self.args.warden_bin);
        cmd.arg("check")
            .arg(&task.path)
            .args(options.split_whitespace())
            .args(["--timeout", &self.args.timeout.to_string()])
            .args(&self.args.warden_args)
            .args(&task.options)
            .arg("--witness")
            .arg(&witness);
        if certify {
            cmd.arg("--cert").arg(&cert);
        }
        let o = run_limited(cmd, &out, &err, self.limit(), &NEVER);
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
            let s = run_limited(sim, &sout, &serr, self.limit(), &NEVER);
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
        let script = cmd.script(
            Path::new(mfile.unwrap_or_default()),
            self.args.timeout,
            None,
        );
        let script = match script {
            Ok(s) => s,
            Err(e) => return Run::failed(e),
        };
        let mut c = Command::new(bin);
        c.current_dir(mdir).arg("-c").arg(script);
        let o = run_limited(c, &out, &err, self.limit(), &NEVER);
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

/// The warden columns: the named configurations of `--configs`, else the engines of
/// `--engine`. Names live as long as the run: leaking the few strings keeps `Tool` a `Copy`
/// value.
fn warden_columns(args: &Args) -> Result<Vec<Tool>, String> {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    if !args.configs.is_empty() {
        return (args.configs.iter())
            .map(|name| match configs::config(name) {
                Some(c) => Ok(Tool::Warden {
                    args: c.args,
                    name: c.name,
                }),
                None => Err(format!(
                    "--configs: no configuration {name} (warden configs)"
                )),
            })
            .collect();
    }
    let single = args.engines.len() == 1;
    Ok((args.engines.iter())
        .map(|e| Tool::Warden {
            args: leak(format!("--engine {e}")),
            name: match single {
                true => "warden",
                false => leak(format!("warden-{e}")),
            },
        })
        .collect())
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
    if !args.matrix.is_empty() {
        match greedy::read_csvs(&args.matrix) {
            Ok(matrix) => matrix.print(args.timeout as f64),
            Err(e) => {
                eprintln!("corpus: --matrix: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
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

    let mut tools = match warden_columns(&args) {
        Ok(tools) => tools,
        Err(e) => {
            eprintln!("corpus: {e}\n{USAGE}");
            std::process::exit(1);
        }
    };
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
    let warden: Vec<usize> = (0..runner.tools.len())
        .filter(|&i| runner.tools[i].is_warden())
        .collect();
    if warden.len() > 1 {
        let matrix = greedy::Matrix {
            columns: warden.iter().map(|&i| tools[i].name().to_owned()).collect(),
            tasks: (tasks.iter())
                .map(|t| (t.key.clone(), t.expected.as_str().to_owned()))
                .collect(),
            solved: (tasks.iter().zip(&results))
                .map(|(task, runs)| {
                    (warden.iter().map(|&i| &runs[i]))
                        .map(|r| (judge(task.expected, r) == Judgement::Solved).then_some(r.time))
                        .collect()
                })
                .collect(),
        };
        matrix.print(runner.args.timeout as f64);
    }
    if let Some(csv) = &runner.args.csv {
        match write_csv(csv, &tools, &tasks, &results) {
            Ok(()) => eprintln!("corpus: wrote {}", csv.display()),
            Err(e) => eprintln!("corpus: cannot write {}: {e}", csv.display()),
        }
    }
}
