//! Where Spacer runs: in this process, in a process of its own that warden starts
//! (`warden spacer`, hidden) and kills when the run stops, or in a Z3 executable of a newer
//! release than the library warden links.
//!
//! Why a process: Z3 4.8.12's Spacer, interrupted when the run's budget stops, once let a
//! `rewriter_exception` escape (SV-COMP's Ackermann01-2 beside a portfolio): `terminate
//! called`, the whole warden process aborted with no verdict printed. In a process of its
//! own, an abort costs only Spacer's answer, and the stop is a kill, not an interrupt.
//!
//! Why another Z3: Debian's libz3 is 4.8.12 (2021). Spacer's global guidance
//! (`fp.spacer.global`) finds the invariants of loops over an array's cell
//! (`k < 2*i ==> a_k == 0`) in under a second where plain Spacer runs out of 10 s, but in
//! 4.8.12 its models leave the predicates out; Z3 5.4.1 (PyPI's `z3-solver` wheel, which
//! carries the `z3` executable; `scripts/setup` installs it under `target/`) gives them.
//! [`Spacer::find`] says which is used.
//!
//! Either way the clauses go to Spacer as SMT-LIB2 text, with the terms to evaluate in its
//! model (each predicate applied to constants), and the values come back as SMT-LIB2 text,
//! read back by the caller, which checks them clause by clause: what crosses the process
//! boundary is never trusted.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
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
    /// In a Z3 executable (`z3 -in`), killed when the budget stops.
    Executable(PathBuf),
}

/// What Spacer is asked: Horn clauses, and terms whose values in its model are wanted.
#[derive(Clone, Debug, Default)]
pub struct Question {
    /// The predicates' declarations and the clauses, as SMT-LIB2 assertions.
    pub clauses: String,
    /// SMT-LIB2 declarations of the constants the terms read.
    pub constants: String,
    /// SMT-LIB2 declarations of the predicates, for a reader of the terms alone.
    pub predicates: String,
    /// The terms (SMT-LIB2), each a predicate applied to constants.
    pub terms: Vec<String>,
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

/// A configuration of Spacer: Z3 parameters and their values.
pub type Config = &'static [(&'static str, &'static str)];

/// Z3 4.8.12's configuration: obligations pushed to higher levels (a fill loop read back:
/// `unknown` after 8 s without, 0.06 s with; no loss on the scalar loops tried). Its
/// global guidance gives models without the predicates.
const LINKED: &[Config] = &[&[("fp.spacer.push_pob", "true")]];

/// A newer Z3's configurations for clauses without procedure summaries, tried in turn:
/// global guidance with interpolating unsat cores off and no inlining of predicates
/// ([`IUC_OFF`], [`NO_INLINING`]); the same without global guidance; [`IUC_OFF`] alone.
/// On eval-c's 27 first-round clause sets that some configuration decides (8 s each, two
/// at a time), the first decides every one without summaries but `array_init_pair_symmetr`,
/// each in at most 1.2 s; the second decides that one in 1.2 s, where no other of five
/// does: Z3's inlining of the linear predicates (each loop's head into its exit) hides its
/// three-array invariant. The third was the second of the former pair (global guidance,
/// then [`IUC_OFF`]), which decided 10 of these 11 (`array_init_pair_symmetr2` in 7.4 s).
const EXECUTABLE: &[Config] = &[
    &[
        ("fp.spacer.global", "true"),
        ("fp.spacer.iuc", "0"),
        NO_INLINING[0],
        NO_INLINING[1],
    ],
    &[("fp.spacer.iuc", "0"), NO_INLINING[0], NO_INLINING[1]],
    IUC_OFF,
];

/// Z3's preprocessing that replaces a predicate by its definitions, off.
const NO_INLINING: [(&str, &str); 2] = [
    ("fp.xform.inline_linear", "false"),
    ("fp.xform.inline_eager", "false"),
];

/// Those for clauses with procedure summaries: [`IUC_OFF`], then global guidance without
/// Z3's eager inlining of predicates. On eval-c's 24 clause sets with summaries (10 s each)
/// the first proves 9 programs, the second proves `Fibonacci03` (1.6 s) that none of the
/// others then tried does (no inlining at all does too, 2.7 s), and global guidance alone
/// none that these two miss. Since every call of a recursive function is summarized (see
/// `front::c::summary`), eval-c's `Ackermann03` takes 2.6 s in the portfolio and
/// `Fibonacci03` 1.0 s (16.7 s and 3.7 s before, alone, on the first configuration).
const EXECUTABLE_SUMMARIES: &[Config] = &[
    IUC_OFF,
    &[
        ("fp.spacer.global", "true"),
        ("fp.xform.inline_eager", "false"),
    ],
];

const IUC_OFF: Config = &[("fp.spacer.global", "true"), ("fp.spacer.iuc", "0")];

/// How often a Spacer process is looked at while it runs.
const POLL: Duration = Duration::from_millis(10);

/// The line before a Spacer process's parameters, and the one between the clauses and the
/// terms, on its standard input.
const PARAMETERS: &str = ";; warden: parameters";
const TERMS: &str = "\n;; warden: terms\n";

/// The environment variable that names a Z3 executable to run Spacer in (or `linked`).
pub const Z3_VARIABLE: &str = "WARDEN_Z3";

/// Where `scripts/setup` installs the Z3 executable under the target directory `target`.
pub fn installed_z3(target: &Path) -> PathBuf {
    target.join("z3-venv").join("bin").join("z3")
}

impl Spacer {
    /// Where a run of `warden` (the executable `exe`, `None` where it cannot be found)
    /// runs Spacer: the Z3 executable `$WARDEN_Z3`, else the one `scripts/setup` installs
    /// beside the build (`target/z3-venv/bin/z3` for `target/release/warden`), else the
    /// linked Z3 in a `warden spacer` process (also with `WARDEN_Z3=linked`), else this
    /// process.
    pub fn find(exe: Option<PathBuf>) -> Spacer {
        let linked = |exe: Option<PathBuf>| exe.map_or(Spacer::InProcess, Spacer::Process);
        match std::env::var_os(Z3_VARIABLE) {
            Some(v) if v == "linked" => return linked(exe),
            Some(z3) if !z3.is_empty() => return Spacer::Executable(z3.into()),
            _ => {}
        }
        let installed = (exe.as_deref())
            .and_then(|exe| exe.parent()?.parent().map(installed_z3))
            .filter(|z3| z3.is_file());
        installed.map_or_else(|| linked(exe), Spacer::Executable)
    }

    /// The configurations to try, in order, on clauses with procedure summaries or without.
    pub fn configs(&self, summaries: bool) -> &'static [Config] {
        match self {
            Spacer::InProcess | Spacer::Process(_) => LINKED,
            Spacer::Executable(_) if summaries => EXECUTABLE_SUMMARIES,
            Spacer::Executable(_) => EXECUTABLE,
        }
    }

    /// Spacer's answer on `question` with the parameters `config`, until `budget` stops.
    pub fn solve(&self, question: &Question, config: Config, budget: &Budget) -> Answer {
        match self {
            Spacer::InProcess => {
                solve_here(&question.clauses, &question.reader_text(), config, budget)
            }
            Spacer::Process(binary) => {
                let parameters: Vec<String> =
                    config.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let input = format!(
                    "{PARAMETERS} {}\n{}{TERMS}{}",
                    parameters.join(" "),
                    question.clauses,
                    question.reader_text()
                );
                let mut command = Command::new(binary);
                command.arg("spacer");
                run_child(command, &input, budget)
                    .and_then(|(status, text)| match status.success() {
                        true => Answer::decode(&text),
                        false => Err(format!("the Spacer process ended with {status}")),
                    })
                    .unwrap_or_else(Answer::Unknown)
            }
            Spacer::Executable(z3) => {
                let mut command = Command::new(z3);
                command.arg("-in");
                // A backstop: were warden to end without stopping it, Z3 ends on its own.
                if let Some(left) = budget.remaining() {
                    command.arg(format!("-T:{}", left.as_secs() + 2));
                }
                command.args(config.iter().map(|(k, v)| format!("{k}={v}")));
                // Z3 ends with 1 after any error, e.g. the evaluations after `unsat`: its
                // first line says what it found.
                run_child(command, &question.script(), budget)
                    .and_then(|(_, text)| question.read_output(&text))
                    .unwrap_or_else(Answer::Unknown)
            }
        }
    }
}

impl Question {
    /// What a reader that has not seen the clauses parses the terms from: the declarations,
    /// then each term as an assertion.
    fn reader_text(&self) -> String {
        let asserts: String = self
            .terms
            .iter()
            .map(|t| format!("(assert {t})\n"))
            .collect();
        format!("{}{}{asserts}", self.constants, self.predicates)
    }

    /// Whether the clauses declare the predicate that `term` applies (a location no clause
    /// names is not declared there, and its interpretation is `false`).
    fn declared(&self, term: &str) -> bool {
        let head = term.trim_start_matches('(').split_whitespace().next();
        let mut declarations = self.clauses.split("(declare-fun").skip(1);
        head.is_some_and(|h| declarations.any(|d| d.split_whitespace().next() == Some(h)))
    }

    /// The script a Z3 executable runs: the clauses, `check-sat`, then each term of a
    /// declared predicate evaluated (without model completion, which would give the
    /// constants values too).
    fn script(&self) -> String {
        let evals: String = (self.terms.iter())
            .filter(|t| self.declared(t))
            .map(|t| format!("(eval {t})\n"))
            .collect();
        format!(
            "(set-logic HORN)\n{}\n(check-sat)\n{}{evals}",
            self.clauses, self.constants
        )
    }

    /// The answer in what a Z3 executable printed for [`Question::script`]: `sat` and one
    /// value per evaluated term (a term printed back unevaluated, a predicate the model
    /// leaves out, is `false`, as is one the clauses do not declare), `unsat`, or anything
    /// else as `unknown`.
    fn read_output(&self, text: &str) -> Result<Answer, String> {
        let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
        match first.trim() {
            "sat" => {}
            "unsat" => return Ok(Answer::Refuted),
            "unknown" => return Ok(Answer::Unknown("Spacer gave up".into())),
            other => return Err(format!("z3 printed '{other}'")),
        }
        let mut values = s_expressions(rest).into_iter();
        let mut model = String::new();
        for term in &self.terms {
            let value = match self.declared(term) {
                true => values
                    .next()
                    .ok_or("z3 printed fewer values than asked for")?,
                false => "false",
            };
            if value.starts_with("(error") {
                return Err(format!("z3: {value}"));
            }
            let unevaluated = squeeze(value) == squeeze(term);
            let value = if unevaluated { "false" } else { value };
            model += &format!("(assert {value})\n");
        }
        match values.next() {
            Some(extra) => Err(format!("z3 printed more values than asked for: {extra}")),
            None => Ok(Answer::Model(model)),
        }
    }
}

/// The top-level S-expressions of `text` (atoms and parenthesised lists), as written.
/// Z3 prints no strings or quoted symbols with parentheses in what is read here, but they
/// are skipped over all the same.
fn s_expressions(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut quote) = (0usize, None, None);
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '|' | '"' => {
                quote = Some(c);
                start.get_or_insert(i);
            }
            '(' => {
                start.get_or_insert(i);
                depth += 1;
            }
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if let Some(s) = start.take() {
                        out.push(&text[s..=i]);
                    }
                }
            }
            c if c.is_whitespace() => {
                if depth == 0 {
                    if let Some(s) = start.take() {
                        out.push(&text[s..i]);
                    }
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// `text` with every run of whitespace one space, and none inside parentheses' edges.
fn squeeze(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").replace("( ", "(").replace(" )", ")")
}

/// Spacer on a context of this process, with the parameters `config`.
fn solve_here(clauses: &str, terms: &str, config: &[(&str, &str)], budget: &Budget) -> Answer {
    let ctx = Context::new(&z3::Config::new());
    let Some(solver) = Solver::new_for_logic(&ctx, "HORN") else {
        return Answer::Unknown("Z3 has no HORN logic".into());
    };
    let mut options = Params::new(&ctx);
    for &(name, value) in config {
        match (value, value.parse::<u32>()) {
            ("true", _) => options.set_bool(name, true),
            ("false", _) => options.set_bool(name, false),
            (_, Ok(n)) => options.set_u32(name, n),
            _ => options.set_symbol(name, value),
        }
    }
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

/// `command` run with `input` on its standard input: how it ended and its standard output;
/// killed once `budget` stops (an error, "stopped").
fn run_child(
    mut command: Command,
    input: &str,
    budget: &Budget,
) -> Result<(ExitStatus, String), String> {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    use std::os::unix::process::CommandExt;
    // A process group of its own, killed as a whole: a wrapper script's children would
    // otherwise keep the pipes open, and the reader below waiting, after the kill.
    command.process_group(0);
    // SAFETY: prctl is async-signal-safe; it only asks the kernel to kill the child with
    // the parent (a warden killed by SIGKILL leaves no Spacer behind).
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let group = child.id() as libc::pid_t;
    let mut stdout = child.stdout.take().expect("piped");
    // Read beside the wait: a model larger than the pipe would block the child otherwise.
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    // Written beside the wait too: clauses larger than the pipe would block this thread
    // until the child reads them, past the budget.
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if budget.expired() {
            // SAFETY: a plain system call on the group this function started.
            unsafe { libc::kill(-group, libc::SIGKILL) };
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(POLL);
    };
    let text = reader.join().expect("the reader does not panic");
    let written = writer.join().expect("the writer does not panic");
    let status = status.ok_or("stopped")?;
    written.map_err(|e| format!("cannot write to the Spacer process: {e}"))?;
    Ok((status, text.map_err(|e| e.to_string())?))
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

/// `warden spacer`: the parameters, the Horn clauses and the terms on standard input, the
/// answer on standard output, without a time limit (the parent kills it).
pub fn serve() -> Result<(), String> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("cannot read the clauses: {e}"))?;
    let (first, input) = input.split_once('\n').unwrap_or((&input, ""));
    let parameters = (first.strip_prefix(PARAMETERS))
        .ok_or_else(|| format!("the input does not start with '{PARAMETERS}'"))?;
    let config: Vec<(&str, &str)> = (parameters.split_whitespace())
        .map(|p| {
            p.split_once('=')
                .ok_or_else(|| format!("parameter '{p}' has no value"))
        })
        .collect::<Result<_, String>>()?;
    let (clauses, terms) = input.split_once(TERMS).unwrap_or((input, ""));
    let answer = solve_here(clauses, terms, &config, &Budget::new(None));
    std::io::stdout()
        .write_all(answer.encode().as_bytes())
        .map_err(|e| format!("cannot write the answer: {e}"))
}

#[cfg(test)]
mod tests {
    use super::{s_expressions, Answer, Question};

    fn question(clauses: &str, terms: &[&str]) -> Question {
        Question {
            clauses: clauses.into(),
            terms: terms.iter().map(|t| t.to_string()).collect(),
            ..Question::default()
        }
    }

    #[test]
    fn s_expressions_are_split_at_the_top_level() {
        let text = "(and (<= p0 6)\n     (>= p0 0))\nfalse\n(f |a (b| c)\n";
        assert_eq!(
            s_expressions(text),
            ["(and (<= p0 6)\n     (>= p0 0))", "false", "(f |a (b| c)"]
        );
    }

    /// A declared predicate gets its value, one printed back unevaluated and one the clauses
    /// never declare get `false`; `unsat` is a refutation whatever errors follow it.
    #[test]
    fn z3_output_is_read_into_a_model_or_a_refutation() {
        let clauses = "(declare-fun A (Int) Bool)\n(declare-fun B\n   (Int)\n   Bool)\n";
        let q = question(clauses, &["(A p0)", "(B p0)", "(C p0)"]);
        assert_eq!(
            q.read_output("sat\n(< p0 6)\n(B  p0)\n"),
            Ok(Answer::Model(
                "(assert (< p0 6))\n(assert false)\n(assert false)\n".into()
            ))
        );
        assert!(q.script().contains("(eval (A p0))\n(eval (B p0))\n"));
        assert!(!q.script().contains("(eval (C p0))"));
        let unsat = "unsat\n(error \"line 9 column 3: model is not available\")\n";
        assert_eq!(q.read_output(unsat), Ok(Answer::Refuted));
        assert!(matches!(q.read_output("unknown\n"), Ok(Answer::Unknown(_))));
        assert!(q.read_output("sat\n(< p0 6)\n").is_err(), "too few values");
        assert!(q.read_output("sat\n(error \"x\")\nfalse\n").is_err());
        assert!(q.read_output("(error \"parse\")\n").is_err());
    }
}
