//! One tool's run on one task, and the check of its answer: every `sat` replayed by
//! `warden sim`, every `unsat` certificate checked by `warden certify` and, with
//! `--checkers`, by the independent checkers too ([`super::independent`]), each a process of
//! its own under the task's time limit (not counted in the task's time).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::independent::{self, Independent};
use super::proc::{run_limited, Exit};
use super::tasks::Task;
use crate::abc::{self, AbcCmd};
use crate::verdict::Verdict;

/// A column of the campaign.
#[derive(Clone, Debug)]
pub enum Tool {
    /// `warden check` (this binary) with the campaign's limits and extra flags.
    Warden,
    /// ABC (the `berkeley-abc` binary found) running pdr or bmc3 on the binary AIGER of the
    /// model.
    Abc(PathBuf, AbcCmd),
    /// A checker in the HWMCC calling convention `CMD MODEL CEX_FILE CERT_FILE`: the verdict
    /// on the first line of stdout, the witness and certificate (if any) to the files.
    Hwmcc { name: String, argv: Vec<String> },
}

impl Tool {
    /// The column's name in records and reports.
    pub fn name(&self) -> &str {
        match self {
            Tool::Warden => "warden",
            Tool::Abc(_, cmd) => cmd.tool_name(),
            Tool::Hwmcc { name, .. } => name,
        }
    }

    /// The tool of `--vs VALUE`: `abc` or `abc-pdr` (ABC's pdr), `abc-bmc3` (ABC's bmc3,
    /// which finds counterexamples and proves only small state spaces), or a command line in
    /// the HWMCC convention (named by its program's file name).
    pub fn parse_vs(value: &str) -> Result<Tool, String> {
        let abc_cmd = match value {
            "abc" | "abc-pdr" => Some(AbcCmd::Pdr),
            "abc-bmc3" => Some(AbcCmd::Bmc3),
            _ => None,
        };
        if let Some(cmd) = abc_cmd {
            let bin = abc::find_binary(None).map_err(|e| {
                format!("--vs {value}: {e} (on Debian: apt-get install berkeley-abc)")
            })?;
            return Ok(Tool::Abc(bin, cmd));
        }
        let argv: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
        let program = argv.first().ok_or("--vs: empty command")?;
        let name = program.rsplit('/').next().unwrap_or(program).to_owned();
        Ok(Tool::Hwmcc { name, argv })
    }
}

/// What the check of an answer said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The witness replays, or the certificate holds.
    Accepted,
    /// The witness does not replay, or the certificate is missing or invalid: the answer
    /// is wrong.
    Rejected,
    /// The checker gave no answer (its own error or limit), or nothing checks this answer
    /// (ABC's `unsat`, a C program's `unsat`).
    Unchecked,
    /// No answer to check (`unknown`).
    None,
}

impl Check {
    pub fn as_str(self) -> &'static str {
        match self {
            Check::Accepted => "accepted",
            Check::Rejected => "rejected",
            Check::Unchecked => "unchecked",
            Check::None => "none",
        }
    }

    pub fn parse(s: &str) -> Check {
        match s {
            "accepted" => Check::Accepted,
            "rejected" => Check::Rejected,
            "unchecked" => Check::Unchecked,
            _ => Check::None,
        }
    }
}

/// One tool's finished run on one task.
#[derive(Clone, Debug)]
pub struct Run {
    pub verdict: Verdict,
    pub check: Check,
    /// Wall time of the tool's process (s).
    pub time: f64,
    /// Peak resident set size (MiB).
    pub rss_mib: f64,
    /// Why there is no verdict or what the check said (`timeout`, `exit 3: ...`), or empty.
    pub note: String,
    /// What the independent checker of the answer said (`--checkers`), if one ran.
    pub independent: Option<Independent>,
}

/// The campaign's settings a run needs.
pub struct Settings {
    pub warden: PathBuf,
    pub timeout: u64,
    pub mem_limit: Option<u64>,
    pub jobs: Option<usize>,
    pub warden_args: Vec<String>,
    /// The folder of the independent checkers (`--checkers`), absolute.
    pub checkers: Option<PathBuf>,
}

impl Settings {
    /// Processes are killed 10 s after the time limit they were given.
    pub(super) fn limit(&self) -> Duration {
        Duration::from_secs(self.timeout + 10)
    }
}

/// The formats whose `unsat` answers carry a certificate `warden certify` checks.
fn certified(format: &str) -> bool {
    matches!(format, "aag" | "aig" | "btor" | "btor2")
}

/// Runs `tool` on `task` in the scratch directory `dir`; `None` when `cancel` stopped it.
pub fn run(tool: &Tool, task: &Task, s: &Settings, dir: &Path, cancel: &AtomicBool) -> Option<Run> {
    let (witness, cert) = (dir.join("witness"), dir.join("cert.aig"));
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let mut model = task.path.clone();
    let cmd = match tool {
        Tool::Abc(bin, abc_cmd) => {
            model = match abc_input(task, dir, &s.warden) {
                Ok(m) => m,
                Err(e) => return Some(failed(e)),
            };
            // ABC splits its script at spaces and `;`: it runs in the scratch directory and
            // names its files relative to it.
            let script = match abc_cmd.script(Path::new("model.aig"), s.timeout, None) {
                Ok(script) => script,
                Err(e) => return Some(failed(e)),
            };
            let mut c = Command::new(bin);
            c.current_dir(dir)
                .arg("-c")
                .arg(format!("{script}; write_cex witness"));
            c
        }
        _ => command(tool, task, &task.path, s, (&witness, &cert)),
    };
    let o = run_limited(cmd, &out, &err, s.limit(), cancel);
    let stdout = std::fs::read_to_string(&out).unwrap_or_default();
    let mut run = Run {
        verdict: Verdict::Unknown,
        check: Check::None,
        time: o.wall.as_secs_f64(),
        rss_mib: o.rss_kib as f64 / 1024.0,
        note: String::new(),
        independent: None,
    };
    run.verdict = match tool {
        Tool::Abc(..) => abc::parse_verdict(&stdout),
        _ => parse_verdict(stdout.lines().next().unwrap_or("")),
    };
    match (&o.exit, run.verdict) {
        (Exit::Cancelled, _) => return None,
        (Exit::Code(0), _) => {}
        (e, Verdict::Unknown) => {
            run.note = exit_note(e);
            // The first line of stderr says what went wrong (input error, panic, ...).
            let stderr = std::fs::read_to_string(&err).unwrap_or_default();
            if let Some(line) = stderr.lines().find(|l| !l.trim().is_empty()) {
                run.note = format!("{}: {}", run.note, line.trim());
            }
            return Some(run);
        }
        // A verdict, then a failure (ABC's `write_cex` after a proof): the verdict stands
        // as far as its check goes.
        (e, _) => run.note = format!("verdict, then {}", exit_note(e)),
    }
    match run.verdict {
        Verdict::Unknown => {}
        Verdict::Sat => {
            if !std::fs::metadata(&witness).is_ok_and(|m| m.len() > 0) {
                // warden and the HWMCC form print the witness after the verdict line.
                let rest = stdout.split_once('\n').map_or("", |(_, r)| r);
                let _ = std::fs::write(&witness, rest);
            }
            run.check = check_with(s, "sim", &model, &witness, dir, cancel)?;
        }
        Verdict::Unsat if !cert.is_file() => {
            run.check = match tool {
                Tool::Warden if certified(&task.format) => Check::Rejected,
                _ => Check::Unchecked,
            };
            if run.check == Check::Rejected {
                run.note = "no certificate written".to_owned();
            }
        }
        Verdict::Unsat => run.check = check_with(s, "certify", &model, &cert, dir, cancel)?,
    }
    if run.check == Check::Rejected && run.note.is_empty() {
        let said = std::fs::read_to_string(dir.join("check.out")).unwrap_or_default();
        run.note = format!("check failed: {}", said.lines().next().unwrap_or("").trim());
    }
    let files = (witness.as_path(), cert.as_path());
    run.independent = independent::check(tool, task, run.verdict, s, files, dir, cancel)?;
    if let Some(i) = run
        .independent
        .as_ref()
        .filter(|i| i.result == Check::Rejected)
    {
        if run.check != Check::Rejected {
            run.note = format!("rejected by {}", i.note);
        }
    }
    Some(run)
}

/// The command of warden or a HWMCC command on `model` (the task's model, or its
/// re-encoding for an independent check), writing its witness and certificate to `files`.
/// ABC's command is made by [`run`], on the model converted for it.
pub(super) fn command(
    tool: &Tool,
    task: &Task,
    model: &Path,
    s: &Settings,
    (witness, cert): (&Path, &Path),
) -> Command {
    match tool {
        Tool::Warden => {
            let mut c = Command::new(&s.warden);
            c.arg("check").arg(model).arg("-q");
            c.args(["--timeout", &s.timeout.to_string()]);
            if let Some(m) = s.mem_limit {
                c.args(["--mem-limit", &m.to_string()]);
            }
            if let Some(j) = s.jobs {
                c.args(["--jobs", &j.to_string()]);
            }
            c.args(&s.warden_args).args(&task.options);
            c.arg("--witness").arg(witness);
            if certified(&task.format) {
                c.arg("--cert").arg(cert);
            }
            c
        }
        Tool::Abc(..) => unreachable!("ABC's command is made by run"),
        Tool::Hwmcc { argv, .. } => {
            let mut c = Command::new(&argv[0]);
            c.args(&argv[1..]).arg(model).arg(witness).arg(cert);
            c
        }
    }
}

/// `sat`/`unsat` as warden, ABC's HWMCC wrapper and SV-COMP tools print them, and the
/// AIGER result lines `1` (a witness follows) and `0`.
pub(super) fn parse_verdict(line: &str) -> Verdict {
    match line.trim() {
        "1" => Verdict::Sat,
        "0" => Verdict::Unsat,
        other => Verdict::parse(other),
    }
}

/// `warden sim MODEL FILE` or `warden certify MODEL FILE`: exit 0 accepts, 1 rejects,
/// anything else leaves the answer unchecked. `None` when cancelled.
fn check_with(
    s: &Settings,
    how: &str,
    model: &Path,
    file: &Path,
    dir: &Path,
    cancel: &AtomicBool,
) -> Option<Check> {
    let mut c = Command::new(&s.warden);
    c.arg(how).arg(model).arg(file);
    let (out, err) = (dir.join("check.out"), dir.join("check.err"));
    match run_limited(c, &out, &err, s.limit(), cancel).exit {
        Exit::Cancelled => None,
        Exit::Code(0) => Some(Check::Accepted),
        Exit::Code(1) => Some(Check::Rejected),
        _ => Some(Check::Unchecked),
    }
}

/// The binary AIGER file ABC reads for `task`, written into `dir` as `model.aig`: a copy of
/// the model, its conversion, or for BTOR2 warden's bit-blasted system (`warden blast`), so
/// that ABC checks the system warden checks.
fn abc_input(task: &Task, dir: &Path, warden: &Path) -> Result<PathBuf, String> {
    let dst = dir.join("model.aig");
    let converted = match task.format.as_str() {
        "aig" => std::fs::copy(&task.path, &dst)
            .map(drop)
            .map_err(|e| e.to_string()),
        "aag" => abc::convert_to_binary(&task.path, &dst),
        "btor" | "btor2" => blast_with(warden, &task.path, &dst, &[]),
        "c" | "i" => return Err("not applicable: ABC does not read C".to_owned()),
        f => return Err(format!("unsupported format {f}")),
    };
    converted
        .map(|()| dst)
        .map_err(|e| format!("conversion failed: {e}"))
}

/// Writes the bit-blasted system of the BTOR2 file `src` to `dst` as binary AIGER with
/// `warden blast FLAGS` (the same system `warden check` runs its engines on).
pub fn blast_with(warden: &Path, src: &Path, dst: &Path, flags: &[&str]) -> Result<(), String> {
    let out = Command::new(warden)
        .arg("blast")
        .arg(src)
        .arg(dst)
        .args(flags)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", warden.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    Err(err
        .lines()
        .next()
        .unwrap_or("warden blast failed")
        .to_owned())
}

/// A run that could not start: no verdict, `note` says why.
pub fn failed(note: String) -> Run {
    Run {
        verdict: Verdict::Unknown,
        check: Check::None,
        time: 0.0,
        rss_mib: 0.0,
        note,
        independent: None,
    }
}

pub(super) fn exit_note(exit: &Exit) -> String {
    match exit {
        Exit::Code(c) => format!("exit {c}"),
        Exit::Signal(s) => format!("signal {s}"),
        Exit::TimedOut => "timeout".to_owned(),
        Exit::Cancelled => "cancelled".to_owned(),
        Exit::SpawnFailed(e) => format!("cannot run: {e}"),
    }
}
