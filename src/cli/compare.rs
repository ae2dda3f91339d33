//! `warden compare MODEL`: ABC and warden on the same model under the same time limit, each
//! answer checked by warden, and a report of whether they agree.
//!
//! ABC runs first (a child process, [`crate::abc::run`]), then warden (in this process, as
//! `warden check` runs), one after the other so that neither slows the other down. Checks:
//! - a `sat` counterexample is replayed by warden's simulator on the model (ABC's is mapped
//!   back from the network ABC built, [`crate::abc::cex`]; for a BTOR2 model the trace is
//!   also lifted to words and replayed by the word-level simulator);
//! - warden's `unsat` invariant is written as a Certifaiger witness circuit and certified
//!   against the model (as `warden certify` does);
//! - ABC's `unsat` is checked through the invariant `pdr` dumps, on ABC's own network
//!   ([`crate::abc::invariant`]); other engines (`bmc3`, ...) give no invariant and their
//!   proofs stay unchecked.
//!
//! The two disagree when one says `sat` and the other `unsat`, or when a definite answer
//! fails its check; the exit code is then 1. Who is right: the side whose answer passed its
//! check (a replayed counterexample settles it).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::counterexample::counterexample;
use super::report::{depth, run_record, verdict_word};
use super::stdout::located;
use crate::abc::{self, run::AbcRun};
use crate::cert;
use crate::check::{self, Answer, EngineKind, Options, Proof};
use crate::error::ExitCode;
use crate::front::{self, aiger, InputKind, LoadError, Model};
use crate::options::{self, CegarArgs, Opt};
use crate::ts::replay;
use crate::verdict::Verdict;
use crate::Budget;

#[derive(clap::Args)]
pub(super) struct CompareArgs {
    /// The model: AIGER or BTOR2 (ABC gets its bit-level system; C programs are not
    /// compared: ABC does not read them).
    model: PathBuf,
    /// Wall-clock limit of each tool in seconds.
    #[arg(long, default_value_t = 20.0)]
    timeout: f64,
    /// ABC's engine command, run after the commands that make ABC read the model as AIGER
    /// 1.9 means it: pdr, bmc3, bmc2, int or dprove, with options and numbers only (`-T` is
    /// added unless given; `pdr` also dumps its invariant).
    #[arg(long, value_name = "CMD", default_value = "pdr")]
    abc_cmd: String,
    /// The ABC binary [default: berkeley-abc on PATH, or /usr/bin/berkeley-abc].
    #[arg(long, value_name = "PATH")]
    abc_bin: Option<PathBuf>,
    /// warden's engine.
    #[arg(long, value_enum, default_value_t = EngineKind::Portfolio)]
    engine: EngineKind,
    /// Cores of the portfolio, as for `warden check` (portfolio only) [default: the number of
    /// cores].
    #[arg(long)]
    jobs: Option<usize>,
    /// Writes the report as JSON (the schema of `check --json`, one run record per tool).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// How an answer fared in its check.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Checked {
    Passed(String),
    Failed(String),
    Unchecked(String),
}

impl Checked {
    fn status(&self) -> &'static str {
        match self {
            Checked::Passed(_) => "passed",
            Checked::Failed(_) => "failed",
            Checked::Unchecked(_) => "unchecked",
        }
    }

    fn detail(&self) -> &str {
        match self {
            Checked::Passed(d) | Checked::Failed(d) | Checked::Unchecked(d) => d,
        }
    }
}

/// One tool's checked answer.
struct Outcome {
    tool: &'static str,
    /// ABC's command or warden's engine.
    how: String,
    verdict: Verdict,
    depth: Option<usize>,
    time: Duration,
    check: Checked,
}

pub(super) fn compare(args: CompareArgs) -> ExitCode {
    let input = InputKind::of(&args.model);
    let given = options::given([(args.jobs.is_some(), Opt::Jobs)]);
    let cegar = match (
        input,
        options::check(args.engine, input, &CegarArgs::default(), &given),
    ) {
        (InputKind::C, _) => {
            Err("ABC does not read C programs: compare AIGER or BTOR2 models".into())
        }
        (_, r) => r.map_err(|e| e.to_string()),
    };
    let cegar = match cegar {
        Ok(c) => c,
        Err(e) => {
            eprintln!("warden: {e}");
            return ExitCode::Usage;
        }
    };
    if let Err(e) = abc::run::check_command(&args.abc_cmd) {
        eprintln!("warden: error: --abc-cmd: {e}");
        return ExitCode::Usage;
    }
    let bin = match abc::find_binary(args.abc_bin.as_deref()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("warden: {e}");
            return ExitCode::Input;
        }
    };
    let model = match front::load_with(&args.model, &Default::default(), &Budget::new(None)) {
        Ok(m) => m,
        Err(LoadError::Input(e) | LoadError::RecursionTooLarge(e)) => {
            eprintln!("warden: {}", located(&e));
            return ExitCode::Input;
        }
        Err(e) => {
            eprintln!("warden: {e}");
            return ExitCode::Input;
        }
    };
    let timeout = Duration::from_secs_f64(args.timeout.max(0.0));
    let dir = match scratch_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("warden: {e}");
            return ExitCode::Input;
        }
    };
    let abc_outcome = run_abc(&bin, &model, &args.abc_cmd, timeout, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let abc_outcome = match abc_outcome {
        Ok(o) => o,
        Err(e) => {
            eprintln!("warden: {e}");
            return ExitCode::Input;
        }
    };
    let mut opts = Options::new(args.engine);
    opts.cegar = cegar;
    opts.jobs = crate::options::cores::cores(args.jobs);
    opts.mem_limit = Some(super::DEFAULT_MEM_LIMIT_MIB);
    let warden_outcome = run_warden(&model, &opts, timeout);
    let outcomes = [warden_outcome, abc_outcome];
    let (agree, summary, right) = judge(&outcomes);
    print!("{}", table(&args.model, &outcomes));
    println!("{summary}");
    let runs: Vec<serde_json::Value> = (outcomes.iter())
        .map(|o| {
            let mut r = run_record(o.tool, o.verdict.as_str(), o.depth, o.time);
            r.insert("how".into(), o.how.clone().into());
            let check = serde_json::json!({"status": o.check.status(), "detail": o.check.detail()});
            r.insert("check".into(), check);
            serde_json::Value::Object(r)
        })
        .collect();
    let record = serde_json::json!({
        "command": "compare",
        "model": args.model.to_string_lossy(),
        "agree": agree,
        "right": right,
        "summary": summary,
        "runs": runs,
    });
    if let Err(code) =
        super::files::write_file(args.json.as_deref(), (record.to_string() + "\n").as_bytes())
    {
        return code;
    }
    match agree {
        true => ExitCode::Verdict,
        false => ExitCode::DISAGREE,
    }
}

/// A fresh directory for ABC's files.
fn scratch_dir() -> Result<PathBuf, String> {
    let nanos = (std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH))
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!("warden-compare-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// ABC's answer on the bit-level system of `model`, checked.
fn run_abc(
    bin: &Path,
    model: &Model,
    cmd: &str,
    timeout: Duration,
    dir: &Path,
) -> Result<Outcome, String> {
    let run = abc::run::run(bin, &model.ts, cmd, Some(timeout), dir)?;
    let check = check_abc(model, &run, timeout);
    Ok(Outcome {
        tool: "abc",
        how: abc::run::engine_command(cmd, Some(timeout)),
        verdict: run.verdict,
        depth: run.asserted.map(|(_, frame)| frame),
        time: run.time,
        check,
    })
}

fn check_abc(model: &Model, run: &AbcRun, timeout: Duration) -> Checked {
    match run.verdict {
        Verdict::Sat => {
            let Some(text) = &run.cex else {
                return Checked::Failed("ABC wrote no counterexample".into());
            };
            let w = match abc::cex::parse(text, &model.ts) {
                Ok(w) => w,
                Err(e) => return Checked::Failed(format!("ABC's counterexample: {e}")),
            };
            let mut trace = w.trace;
            trace.bad = run.asserted.map_or(0, |(output, _)| output);
            replayed(model, &trace)
        }
        Verdict::Unsat => match &run.invariant {
            None => Checked::Unchecked("the engine gives no invariant".into()),
            Some((network, pla)) => {
                let network = std::fs::read(network).map_err(|e| e.to_string());
                let network = network.and_then(|b| aiger::parse(&b).map_err(|e| e.to_string()));
                let checked = network
                    .and_then(|n| abc::invariant::check(&n, pla, &Budget::new(Some(timeout))));
                match checked {
                    Ok(()) => Checked::Passed("invariant checked on ABC's network".into()),
                    Err(e) => Checked::Failed(format!("ABC's invariant: {e}")),
                }
            }
        },
        Verdict::Unknown => Checked::Unchecked(run.note.clone().unwrap_or_default()),
    }
}

/// Whether `trace` is a counterexample of `model` (for BTOR2 and C also at the word level).
fn replayed(model: &Model, trace: &crate::ts::Trace) -> Checked {
    match replay(&model.ts, trace) {
        Ok(frame) => match counterexample(model, trace, false) {
            Ok(_) => Checked::Passed(format!(
                "counterexample replayed: b{} in frame {frame}",
                trace.bad
            )),
            Err(e) => Checked::Failed(e.to_string()),
        },
        Err(e) => Checked::Failed(format!("counterexample does not replay: {e}")),
    }
}

/// warden's answer on `model`, checked.
fn run_warden(model: &Model, opts: &Options, timeout: Duration) -> Outcome {
    let budget = Budget::new(Some(timeout));
    crate::signals::stop_on_signals(&budget);
    let start = Instant::now();
    let result = check::run(&model.ts, opts, &budget);
    let how = opts.engine.name().to_owned();
    let mut report = match result {
        Ok(r) => r,
        Err(e) => {
            return Outcome {
                tool: "warden",
                how,
                verdict: Verdict::Unknown,
                depth: None,
                time: start.elapsed(),
                check: Checked::Failed(e.to_string()),
            }
        }
    };
    // A lazy array abstraction's spurious counterexample is searched again, within the time.
    super::counterexample::drop_spurious(model, &mut report.answer, opts, &budget);
    let time = start.elapsed();
    let check = match &report.answer {
        Answer::Sat(trace) => replayed(model, trace),
        Answer::Unsat(Proof::Invariant(inv)) => {
            let file = model.aiger();
            let circuit = cert::witness_circuit(&file, inv);
            match cert::certify(&model.ts, &file, &circuit, &Budget::new(Some(timeout))) {
                Ok(()) => Checked::Passed("certificate checked".into()),
                Err(e) => Checked::Failed(format!("certificate: {e}")),
            }
        }
        Answer::Unsat(Proof::Execution { steps }) => {
            Checked::Passed(format!("the only run ends after {steps} steps"))
        }
        Answer::Unsat(Proof::Bounded { depth }) => Checked::Passed(format!(
            "no counterexample within {depth} steps, the longest path to the error"
        )),
        Answer::Unsat(Proof::Horn { clauses }) => Checked::Passed(format!(
            "the {clauses} Horn clauses of the program hold with Spacer's invariant"
        )),
        Answer::Unknown { .. } => Checked::Unchecked(report.note.clone().unwrap_or_default()),
    };
    Outcome {
        tool: "warden",
        how,
        verdict: Verdict::parse(verdict_word(&report.answer)),
        depth: depth(&report.answer),
        time,
        check,
    }
}

/// Whether the answers agree, a one-line summary, and who is right when they differ.
fn judge(outcomes: &[Outcome; 2]) -> (bool, String, Option<&'static str>) {
    let definite = |o: &Outcome| o.verdict != Verdict::Unknown;
    if let Some(o) =
        (outcomes.iter()).find(|o| definite(o) && matches!(o.check, Checked::Failed(_)))
    {
        let summary = format!(
            "DISAGREE: {} says {} but its answer fails its check ({})",
            o.tool,
            o.verdict.as_str(),
            o.check.detail()
        );
        return (false, summary, None);
    }
    let [a, b] = outcomes;
    if definite(a) && definite(b) && a.verdict != b.verdict {
        let sat_side = if a.verdict == Verdict::Sat { a } else { b };
        let unsat_side = if a.verdict == Verdict::Sat { b } else { a };
        let right = match (&sat_side.check, &unsat_side.check) {
            (Checked::Passed(_), _) => Some(sat_side.tool),
            (_, Checked::Passed(_)) => Some(unsat_side.tool),
            _ => None,
        };
        let summary = format!(
            "DISAGREE: {} says {}, {} says {}; right: {}",
            a.tool,
            a.verdict.as_str(),
            b.tool,
            b.verdict.as_str(),
            right.unwrap_or("undetermined (neither answer is checked)")
        );
        return (false, summary, right);
    }
    let summary = match (definite(a), definite(b)) {
        (true, true) => format!("agree: both {}", a.verdict.as_str()),
        (false, false) => "agree: neither decided".to_owned(),
        _ => {
            let (d, u) = if definite(a) { (a, b) } else { (b, a) };
            format!(
                "agree: {} says {}, {} did not decide",
                d.tool,
                d.verdict.as_str(),
                u.tool
            )
        }
    };
    (true, summary, None)
}

/// The report table: one line per tool.
fn table(model: &Path, outcomes: &[Outcome]) -> String {
    let mut s = format!("model   {}\n", model.display());
    s += &format!(
        "{:<7} {:<8} {:>6} {:>8}  {:<9} {}\n",
        "tool", "verdict", "depth", "time_s", "check", "detail"
    );
    for o in outcomes {
        let depth = o.depth.map_or("-".to_owned(), |d| d.to_string());
        s += &format!(
            "{:<7} {:<8} {:>6} {:>8.3}  {:<9} {} [{}]\n",
            o.tool,
            o.verdict.as_str(),
            depth,
            o.time.as_secs_f64(),
            o.check.status(),
            o.check.detail(),
            o.how
        );
    }
    s
}
