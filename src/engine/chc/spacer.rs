//! Where Spacer runs: in this process, or in a process of its own that warden starts
//! (`warden spacer`, hidden) and kills when the run stops.
//!
//! Why a process: Z3 4.8.12's Spacer, interrupted when the run's budget stops, once let a
//! `rewriter_exception` escape (SV-COMP's Ackermann01-2 beside a portfolio): `terminate
//! called`, the whole warden process aborted with no verdict printed. In a process of its
//! own, an abort costs only Spacer's answer, and the stop is a kill, not an interrupt.
//!
//! Either way the clauses go to Spacer as SMT-LIB2 text, with the terms to evaluate in its
//! model (each predicate applied to constants), and the values come back as SMT-LIB2 text,
//! read back by the caller, which checks them clause by clause: what crosses the process
//! boundary is never trusted.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use z3::ast::Bool;
use z3::{Context, Params, SatResult, Solver};

use crate::engine::smt::interruptible;
use crate::Budget;

/// Where Spacer runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Spacer {
    /// On a Z3 context of this process, interrupted when the budget stops (tests; a library
    /// user without the `warden` binary).
    #[default]
    InProcess,
    /// In `BINARY spacer`, the `warden` binary's hidden command, killed when the budget
    /// stops.
    Process(PathBuf),
}

/// Spacer's answer on a set of Horn clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The clauses are satisfiable: the value in Spacer's model of each term asked for, in
    /// order, as SMT-LIB2 `assert` commands (`false` for a predicate the model leaves out).
    Model(String),
    /// The clauses are unsatisfiable (the query is reachable in them).
    Refuted,
    /// No answer, and why.
    Unknown(String),
}

/// How often a Spacer process is looked at while it runs.
const POLL: Duration = Duration::from_millis(10);

/// The line between the clauses and the terms on a Spacer process's standard input.
const TERMS: &str = "\n;; warden: terms\n";

impl Spacer {
    /// Spacer's answer on the Horn clauses `clauses` (SMT-LIB2 declarations and
    /// assertions), with the values of the assertions of `terms` (SMT-LIB2 too) in its model,
    /// until `budget` stops.
    pub fn solve(&self, clauses: &str, terms: &str, budget: &Budget) -> Answer {
        match self {
            Spacer::InProcess => solve_here(clauses, terms, budget),
            Spacer::Process(binary) => {
                let input = format!("{clauses}{TERMS}{terms}");
                solve_in_child(binary, &input, budget).unwrap_or_else(Answer::Unknown)
            }
        }
    }
}

/// Spacer on a context of this process.
fn solve_here(clauses: &str, terms: &str, budget: &Budget) -> Answer {
    let ctx = Context::new(&z3::Config::new());
    let Some(solver) = Solver::new_for_logic(&ctx, "HORN") else {
        return Answer::Unknown("Z3 has no HORN logic".into());
    };
    // Obligations pushed to higher levels: the loops over an array's cells need it (a fill
    // loop read back: `unknown` after 8 s without, 0.06 s with; no loss on the scalar loops
    // tried).
    let mut options = Params::new(&ctx);
    options.set_bool("fp.spacer.push_pob", true);
    solver.set_params(&options);
    solver.from_string(clauses);
    match interruptible(&ctx, budget, || solver.check()) {
        SatResult::Sat => match solver.get_model() {
            Some(model) => {
                let asked = Solver::new(&ctx);
                asked.from_string(terms);
                let mut values = String::new();
                for term in asked.get_assertions() {
                    // Without model completion: with it, Z3 gives the constants values.
                    let value = (model.eval(&term, false))
                        .filter(|v| *v != term)
                        .unwrap_or_else(|| Bool::from_bool(&ctx, false));
                    values += &format!("(assert {value})\n");
                }
                Answer::Model(values)
            }
            None => Answer::Unknown("Spacer gave no model".into()),
        },
        SatResult::Unsat => Answer::Refuted,
        SatResult::Unknown => {
            let why = solver.get_reason_unknown().unwrap_or_default();
            Answer::Unknown(format!("Spacer gave up ({why})"))
        }
    }
}

/// Spacer in `binary spacer`, the clauses and terms on its standard input (`input`), its
/// answer ([`Answer::encode`]) on its standard output; killed once `budget` stops.
fn solve_in_child(binary: &Path, input: &str, budget: &Budget) -> Result<Answer, String> {
    let mut command = Command::new(binary);
    command
        .arg("spacer")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: prctl is async-signal-safe; it only asks the kernel to kill the child with
    // the parent (a warden killed by SIGKILL leaves no Spacer behind).
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run {} spacer: {e}", binary.display()))?;
    let mut stdout = child.stdout.take().expect("piped");
    // Read beside the wait: a model larger than the pipe would block the child otherwise.
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let written = child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes());
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if budget.expired() {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(POLL);
    };
    let text = reader.join().expect("the reader does not panic");
    match status {
        None => Ok(Answer::Unknown("stopped".into())),
        Some(s) if !s.success() => Err(format!("the Spacer process ended with {s}")),
        Some(_) => {
            written.map_err(|e| format!("cannot write to the Spacer process: {e}"))?;
            Answer::decode(&text.map_err(|e| e.to_string())?)
        }
    }
}

impl Answer {
    /// The answer as the Spacer process prints it: `sat` and the model, `unsat`, or
    /// `unknown` and why, on the first line.
    pub fn encode(&self) -> String {
        match self {
            Answer::Model(model) => format!("sat\n{model}"),
            Answer::Refuted => "unsat\n".into(),
            Answer::Unknown(why) => format!("unknown {}\n", why.replace('\n', " ")),
        }
    }

    /// The answer [`Answer::encode`] printed.
    pub fn decode(text: &str) -> Result<Answer, String> {
        let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
        match first.split_once(' ').unwrap_or((first, "")) {
            ("sat", _) => Ok(Answer::Model(rest.to_owned())),
            ("unsat", _) => Ok(Answer::Refuted),
            ("unknown", why) => Ok(Answer::Unknown(why.to_owned())),
            _ => Err(format!("the Spacer process printed '{first}'")),
        }
    }
}

/// `warden spacer`: the Horn clauses and the terms on standard input, the answer on
/// standard output, without a time limit (the parent kills it).
pub fn serve() -> Result<(), String> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("cannot read the clauses: {e}"))?;
    let (clauses, terms) = input.split_once(TERMS).unwrap_or((&input, ""));
    let answer = solve_here(clauses, terms, &Budget::new(None));
    std::io::stdout()
        .write_all(answer.encode().as_bytes())
        .map_err(|e| format!("cannot write the answer: {e}"))
}
