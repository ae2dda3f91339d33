//! `--checkers DIR`: the independent checks of every answer, beside warden's own `sim` and
//! `certify`, with programs that share no code with warden: a `sat` witness replayed by
//! aigsim (AIGER) or btorsim (BTOR2), an `unsat` certificate checked by Certifaiger's
//! `certcheck` against the model re-encoded by aigtoaig (AIGER) or against `warden blast` of
//! it (BTOR2, whose certificates are circuits over the blasted system). Certifaiger reads
//! re-encoded models only, and a certificate names the literals of the model the tool read,
//! which an ASCII `.aag` need not number the re-encoded way: for an `.aag` the tool is run
//! again on the re-encoded model, and that certificate is checked.
//!
//! The checkers exit 0 to accept and 1 to reject; anything else (a usage error, a model the
//! reference parser cannot read, the time limit) leaves the answer unchecked. A rejection
//! makes the answer wrong. C programs have no independent checker; ABC's answers are left
//! unchecked: its counterexamples are of its own network (after `undc`, `fold`, `zero`) in
//! its own format, which aigsim does not read, and it writes no certificates.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use super::proc::{run_limited, Exit};
use super::tasks::Task;
use super::tool::{self, Check, Settings, Tool};
use crate::verdict::Verdict;

/// The programs `--checkers DIR` must hold (`certcheck` runs Certifaiger's tools beside it).
const PROGRAMS: [&str; 5] = ["aigsim", "btorsim", "certcheck", "certifaiger", "aigtoaig"];

/// What an independent checker said about one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Independent {
    /// `aigsim`, `btorsim` or `certcheck`.
    pub checker: String,
    /// Accepted, rejected or unchecked.
    pub result: Check,
    /// What the checker said when it did not accept, or why it could not check.
    pub note: String,
}

/// The folder `dir` of `--checkers`, absolute, if it holds every checker.
pub fn checkers_at(dir: &Path) -> Result<PathBuf, String> {
    match PROGRAMS.iter().find(|p| !dir.join(p).is_file()) {
        Some(p) => Err(format!(
            "--checkers: {} has no {p} (build the checkers with ../shared/tools/build.sh DIR)",
            dir.display()
        )),
        None => std::path::absolute(dir).map_err(|e| format!("{}: {e}", dir.display())),
    }
}

/// The checker of an answer `verdict` on a model of `format`, if any.
fn checker_for(format: &str, verdict: Verdict) -> Option<&'static str> {
    match (format, verdict) {
        ("aag" | "aig", Verdict::Sat) => Some("aigsim"),
        ("btor" | "btor2", Verdict::Sat) => Some("btorsim"),
        ("aag" | "aig" | "btor" | "btor2", Verdict::Unsat) => Some("certcheck"),
        _ => None,
    }
}

/// The checkers' runs of one answer, in the run's scratch folder.
struct Runner<'a> {
    dir: &'a Path,
    s: &'a Settings,
    checkers: &'a Path,
    cancel: &'a AtomicBool,
}

/// What a checker said: `None` when cancelled.
type Said = Option<(Check, String)>;

impl Runner<'_> {
    /// Runs checker `program` on `args`: exit 0 accepts, 1 rejects (with the first line it
    /// wrote), anything else leaves the answer unchecked.
    fn run(&self, program: &str, args: &[&Path]) -> Said {
        let mut c = Command::new(self.checkers.join(program));
        c.args(args);
        let (out, err) = (self.dir.join("checker.out"), self.dir.join("checker.err"));
        let exit = run_limited(c, &out, &err, self.s.limit(), self.cancel).exit;
        let text = std::fs::read_to_string(&out).unwrap_or_default()
            + &std::fs::read_to_string(&err).unwrap_or_default();
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let said = format!("{program}: {}", first.trim());
        Some(match exit {
            Exit::Cancelled => return None,
            Exit::Code(0) => (Check::Accepted, String::new()),
            Exit::Code(1) => (Check::Rejected, said),
            Exit::TimedOut => (Check::Unchecked, format!("{program}: no answer in time")),
            e => (
                Check::Unchecked,
                format!("{said} ({})", tool::exit_note(&e)),
            ),
        })
    }

    /// `certcheck` of `cert` against the AIGER `model`, re-encoded first (for `warden blast`
    /// output; a task's own AIGER model is re-encoded once, by [`check_file`]).
    fn certcheck(&self, model: &Path, cert: &Path) -> Said {
        let encoded = self.dir.join("certcheck-model.aig");
        match self.run("aigtoaig", &[model, &encoded])? {
            (Check::Accepted, _) => self.run("certcheck", &[&encoded, cert]),
            (_, e) => Some((Check::Unchecked, e)),
        }
    }

    /// The tool run again on the re-encoded AIGER model `encoded` (for its certificate),
    /// and that certificate checked: any answer but `unsat` there is a rejection (`sat`) or
    /// leaves the answer unchecked.
    fn certcheck_reencoded(&self, tool: &Tool, task: &Task, encoded: &Path) -> Said {
        let (witness, cert) = (
            self.dir.join("reencoded-witness"),
            self.dir.join("reencoded-cert.aig"),
        );
        let cmd = tool::command(tool, task, encoded, self.s, (&witness, &cert));
        let (out, err) = (
            self.dir.join("reencoded.out"),
            self.dir.join("reencoded.err"),
        );
        let exit = run_limited(cmd, &out, &err, self.s.limit(), self.cancel).exit;
        if exit == Exit::Cancelled {
            return None;
        }
        let stdout = std::fs::read_to_string(&out).unwrap_or_default();
        match tool::parse_verdict(stdout.lines().next().unwrap_or("")) {
            Verdict::Unsat if cert.is_file() => self.run("certcheck", &[encoded, &cert]),
            Verdict::Unsat => Some((
                Check::Rejected,
                "no certificate for the re-encoded model".to_owned(),
            )),
            Verdict::Sat => Some((Check::Rejected, "the re-encoded model is sat".to_owned())),
            Verdict::Unknown => Some((
                Check::Unchecked,
                format!(
                    "no answer on the re-encoded model ({})",
                    tool::exit_note(&exit)
                ),
            )),
        }
    }
}

/// The independent check of `tool`'s answer `verdict` on `task`, whose witness and
/// certificate files are `files`; `Some(None)` where none applies (no `--checkers`, no
/// verdict, a C program), `None` when `cancel` stopped it.
pub fn check(
    tool: &Tool,
    task: &Task,
    verdict: Verdict,
    s: &Settings,
    (witness, cert): (&Path, &Path),
    dir: &Path,
    cancel: &AtomicBool,
) -> Option<Option<Independent>> {
    // ABC reads the binary AIGER file made for it (blasted from BTOR2).
    let format = match tool {
        Tool::Abc(..) => "aig",
        _ => &task.format,
    };
    let (Some(checkers), Some(checker)) = (&s.checkers, checker_for(format, verdict)) else {
        return Some(None);
    };
    let r = Runner {
        dir,
        s,
        checkers,
        cancel,
    };
    let (result, note) = match tool {
        Tool::Abc(..) => (
            Check::Unchecked,
            match verdict {
                Verdict::Sat => {
                    "ABC's counterexample is of its own network, in a format aigsim does not read"
                }
                _ => "ABC writes no certificate",
            }
            .to_owned(),
        ),
        _ => check_file(&r, tool, task, checker, (witness, cert))?,
    };
    Some(Some(Independent {
        checker: checker.to_owned(),
        result,
        note,
    }))
}

/// The check of warden's or a HWMCC command's witness or certificate by `checker`.
fn check_file(r: &Runner, tool: &Tool, task: &Task, checker: &str, files: (&Path, &Path)) -> Said {
    let (witness, cert) = files;
    let model = task.path.as_path();
    // A model the reference parser cannot read (e.g. an ASCII file without its last
    // newline, which warden accepts) leaves the answer unchecked, not rejected.
    let encoded = r.dir.join("reencoded.aig");
    if task.format.starts_with('a') {
        if let (Check::Rejected | Check::Unchecked, e) = r.run("aigtoaig", &[model, &encoded])? {
            return Some((
                Check::Unchecked,
                format!("the checkers cannot read the model: {e}"),
            ));
        }
    }
    let flag = Path::new("-c");
    match checker {
        "aigsim" | "btorsim" => r.run(checker, &[flag, model, witness]),
        _ if !cert.is_file() => Some(match tool {
            // warden writes one for every unsat answer on these formats.
            Tool::Warden => (Check::Rejected, "no certificate written".to_owned()),
            _ => (Check::Unchecked, "no certificate written".to_owned()),
        }),
        _ if task.format.starts_with("btor") => {
            let blasted = r.dir.join("blasted.aig");
            match tool::blast_with(&r.s.warden, model, &blasted, &[]) {
                Ok(()) => r.certcheck(&blasted, cert),
                Err(e) => Some((Check::Unchecked, format!("warden blast: {e}"))),
            }
        }
        // `encoded` is already aigtoaig's output: checked as it is.
        _ if task.format == "aag" => r.certcheck_reencoded(tool, task, &encoded),
        _ => r.run("certcheck", &[&encoded, cert]),
    }
}
