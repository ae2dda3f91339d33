//! The one-verdict contract of stdout: exactly one verdict line reaches it, whether the run
//! ends normally, a watchdog gives up, or input turns out unsupported; with `--spec`, SV-COMP's
//! word for that verdict follows on stderr, whichever way it was printed.
//!
//! `--stdout witness` reshapes what reaches stdout, at this one place, into the form of the
//! model format's own solvers, which tools built around them read (SBY's `aiger` and `btor`
//! engines among them): for AIGER the witness with its result line (`1` and the trace, `0`
//! for a proof, `2` for unknown), as aigbmc and the HWMCC tools print it; for BTOR2 the
//! btorsim witness (`sat` and the trace), else `unsat` or `unknown`, as btormc and pono do.

use std::fmt::Display;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::error::ExitCode;
use crate::front::{InputError, LoadError};

/// Whether this run owes stdout a verdict line (a `check` run): a panic then prints
/// `unknown`.
pub(super) static VERDICT_DUE: AtomicBool = AtomicBool::new(false);

/// What stdout carries (`--stdout`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(super) enum Form {
    /// The verdict line (`sat`, `unsat`, `unknown`), then a `sat`'s witness.
    #[default]
    Verdict,
    /// The witness alone, in the model format's own convention: for AIGER the result line
    /// (`1`, `0`, `2`) and the trace, for BTOR2 the btorsim witness, `unsat` or `unknown`.
    Witness,
}

/// The witness convention stdout follows in the `--stdout witness` form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum WitnessForm {
    Aiger,
    Btor2,
}

/// Set once, before the run prints anything, for `--stdout witness`.
pub(super) static WITNESS_FORM: OnceLock<WitnessForm> = OnceLock::new();

/// Chooses the witness convention of `--stdout witness` for `model` as the loader chooses
/// its reader ([`crate::front::is_btor2`], on the file's first line); a usage error for
/// Verilog designs and C programs, whose witnesses follow no solver convention.
pub(super) fn choose_form(form: Form, model: &std::path::Path) -> Result<(), String> {
    use std::io::Read;
    if form == Form::Verdict {
        return Ok(());
    }
    if crate::front::verilog::is_verilog(model)
        || crate::front::InputKind::of(model) == crate::front::InputKind::C
    {
        return Err(format!(
            "{}: --stdout witness is for AIGER and BTOR2 models (the form of their own \
             solvers): leave it out",
            model.display()
        ));
    }
    // The first line decides; a file that cannot be read is the loader's error to report.
    let mut head = Vec::new();
    if let Ok(f) = std::fs::File::open(model) {
        let _ = f.take(4096).read_to_end(&mut head);
    }
    let _ = WITNESS_FORM.set(match crate::front::is_btor2(model, &head) {
        true => WitnessForm::Btor2,
        false => WitnessForm::Aiger,
    });
    Ok(())
}

/// The witness convention of `--stdout witness`, if that is the form.
pub(super) fn witness_form() -> Option<WitnessForm> {
    WITNESS_FORM.get().copied()
}

/// `text` in the form `--stdout` asks for. `text` is one or more answers, each a verdict
/// line followed, for `sat`, by its witness up to the witness's closing `.` (several when
/// each property is answered on its own). The AIGER form has one result line: the first
/// `sat`'s witness if any property fails, else `0` when every one holds, else `2`. The
/// BTOR2 form is btormc's: every `sat`'s witness, then `unsat` or `unknown` for the
/// properties that did not fail, if some did not.
fn shaped(text: &str) -> std::borrow::Cow<'_, str> {
    match witness_form() {
        Some(form) => shape(form, text).into(),
        None => text.into(),
    }
}

/// `text` in the witness convention `form` (see [`shaped`]).
fn shape(form: WitnessForm, text: &str) -> String {
    let mut lines = text.lines();
    let (mut witnesses, mut held, mut open) = (Vec::new(), 0, 0);
    while let Some(verdict) = lines.next() {
        match verdict {
            "sat" => {
                let mut witness = String::new();
                for line in lines.by_ref() {
                    witness.push_str(line);
                    witness.push('\n');
                    if line == "." {
                        break;
                    }
                }
                witnesses.push(witness);
            }
            "unsat" => held += 1,
            _ => open += 1,
        }
    }
    let rest = match (open, held) {
        (0, 0) => "",
        (0, _) => "unsat\n",
        _ => "unknown\n",
    };
    match form {
        WitnessForm::Aiger => match witnesses.first() {
            Some(w) => w.clone(),
            None if open == 0 => "0\n".into(),
            None => "2\n".into(),
        },
        WitnessForm::Btor2 => witnesses.concat() + rest,
    }
}

/// The category of the SV-COMP property this run checks (`--spec`: `unreach-call`), if any.
pub(super) static SVCOMP_PROPERTY: OnceLock<&'static str> = OnceLock::new();

/// Prints the verdict line `verdict` (`sat`, `unsat`, `unknown`), and after it SV-COMP's word
/// for it on stderr when the run checks an SV-COMP property: `false(unreach-call)`, `true`,
/// `unknown`.
pub(super) fn println_verdict(verdict: &str) {
    crate::progress::close();
    write_stdout(&format!("{verdict}\n"));
    say_svcomp(verdict);
    PRINTED.store(true, Ordering::SeqCst);
}

/// Writes `text` to stdout. A reader that closed it (`warden check ... | head -1`) wants no
/// more: the run goes on (its `--json` and `--witness` files, its exit code) instead of
/// panicking in `print!`; any other failure is said on stderr.
fn write_stdout(text: &str) {
    use std::io::Write;
    let text = shaped(text);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("warden: writing the verdict to stdout: {e}")
        }
        _ => {}
    }
}

fn say_svcomp(verdict: &str) {
    if let Some(line) = svcomp_line(verdict) {
        eprint!("{line}");
    }
}

/// The stderr line saying SV-COMP's word for `verdict`, when the run checks an SV-COMP
/// property.
fn svcomp_line(verdict: &str) -> Option<String> {
    let property = SVCOMP_PROPERTY.get()?;
    let word = match verdict {
        "sat" => format!("false({property})"),
        "unsat" => "true".into(),
        _ => "unknown".into(),
    };
    Some(format!("warden: SV-COMP verdict: {word}\n"))
}

/// What the watchdogs print in place of `unknown` once part of the answer is settled: the
/// stdout text (already shaped) and the SV-COMP line of a run that ended at that moment.
/// Empty until [`settled_so_far`] sets it. A lock [`give_up`] only tries: the one writer
/// holds it for a swap, and a watchdog that finds it held prints `unknown`, which is never
/// wrong.
static SO_FAR: Mutex<(String, String)> = Mutex::new((String::new(), String::new()));

/// Records `text` (answers as [`print_verdict`] takes them) as what stdout would carry if
/// the run ended now: `--all-properties` settles its properties one by one, and a run past
/// its limit keeps the failures it found (a `sat` stays `sat`) instead of printing `unknown`.
pub(super) fn settled_so_far(text: &str) {
    let verdict = text.lines().next().unwrap_or("");
    let new = (
        shaped(text).into_owned(),
        svcomp_line(verdict).unwrap_or_default(),
    );
    let old = match SO_FAR.lock() {
        Ok(mut slot) => std::mem::replace(&mut *slot, new),
        Err(_) => return,
    };
    drop(old);
}

/// The last resort of the watchdogs: prints `unknown` (or what is settled so far, see
/// [`settled_so_far`]) and ends the process, saying why on stderr; when a verdict was
/// printed already, ends the process once it is out (the run is past its limit, whatever it
/// still does after the verdict: writing statistics, freeing its memory).
///
/// Makes only system calls ([`crate::exit::write_raw`], [`crate::exit::end`]) besides a
/// lock it only tries and erasing the status line, which waits a bounded time: an engine
/// thread may hold any lock, the allocator's among them, and on a machine with more busy
/// threads than cores a holder can wait long for its turn. Nothing waits for the engine
/// threads, which are still running.
pub(super) fn give_up(why: &'static str) {
    if !claim_stdout() {
        // The normal path claimed stdout: it writes the verdict at once.
        while !PRINTED.load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        crate::exit::end(0);
    }
    crate::progress::close();
    crate::exit::write_raw(2, &[b"warden: ", why.as_bytes(), b": stopping\n"]);
    match SO_FAR.try_lock() {
        Ok(so_far) if !so_far.0.is_empty() => {
            crate::exit::write_raw(1, &[so_far.0.as_bytes()]);
            crate::exit::write_raw(2, &[so_far.1.as_bytes()]);
        }
        _ => {
            crate::exit::write_raw(1, &[unknown_line().as_bytes()]);
            if SVCOMP_PROPERTY.get().is_some() {
                crate::exit::write_raw(2, &[b"warden: SV-COMP verdict: unknown\n"]);
            }
        }
    }
    crate::exit::end(0);
}

/// The verdict `unknown` in the form of stdout: what [`shaped`] makes of it, without
/// allocating.
fn unknown_line() -> &'static str {
    unknown_in(witness_form())
}

/// The verdict `unknown` in the witness convention `form` (`None`: the verdict form).
fn unknown_in(form: Option<WitnessForm>) -> &'static str {
    match form {
        Some(WitnessForm::Aiger) => "2\n",
        Some(WitnessForm::Btor2) | None => "unknown\n",
    }
}

/// Whether this thread may print the verdict: the first caller may, every later one may not
/// (the normal output path and the overrun watchdog race for it, and stdout must carry one
/// verdict).
pub(super) fn claim_stdout() -> bool {
    static CLAIMED: AtomicBool = AtomicBool::new(false);
    !CLAIMED.swap(true, Ordering::SeqCst)
}

/// Whether the verdict the normal path claimed stdout for is out (see [`give_up`]).
static PRINTED: AtomicBool = AtomicBool::new(false);

/// Prints `text` (the verdict line and the witness) unless the overrun watchdog printed
/// `unknown` first, in which case it is ending the process and this thread waits for that.
pub(super) fn print_verdict(text: &str) {
    if !claim_stdout() {
        loop {
            std::thread::park();
        }
    }
    crate::progress::close();
    write_stdout(text);
    say_svcomp(text.lines().next().unwrap_or(""));
    PRINTED.store(true, Ordering::SeqCst);
}

/// Exit code 2 for bad input; an unsupported construct, or a stop (timeout, memory, signal)
/// while the model was bit-blasted, is the verdict `unknown` (exit 0).
pub(super) fn input_error(e: &LoadError) -> ExitCode {
    let e = match e {
        LoadError::Input(e) | LoadError::RecursionTooLarge(e) => e,
        LoadError::Interrupted => {
            eprintln!("warden: {e}");
            print_verdict("unknown\n");
            return ExitCode::Verdict;
        }
    };
    eprintln!("warden: {}", located(e));
    if e.unsupported {
        print_verdict("unknown\n");
        return ExitCode::Verdict;
    }
    ExitCode::Input
}

/// An input error as compilers say where it is: `FILE:LINE: message` (`FILE: byte N:
/// message` for a binary file, `FILE: message` where there is no position).
pub(super) fn located(e: &InputError) -> String {
    let line = (e.position.as_deref()).and_then(|p| p.strip_prefix("line "));
    match (line, &e.position) {
        (Some(line), _) => at_line(&e.path, line, &e.message),
        (None, Some(position)) => format!("{}: {position}: {}", e.path.display(), e.message),
        (None, None) => format!("{}: {}", e.path.display(), e.message),
    }
}

/// `FILE:LINE: message`.
pub(super) fn at_line(path: &Path, line: impl Display, message: impl Display) -> String {
    format!("{}:{line}: {message}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    const AIGER_SAT: &str = "1\nj0\n00\n1\n.\n";
    const BTOR2_SAT: &str = "sat\nb1\n#0\n@0\n0 1 x\n.\n";

    #[test]
    fn aiger_form_has_one_result_line() {
        let w = WitnessForm::Aiger;
        assert_eq!(shape(w, "unsat\n"), "0\n");
        assert_eq!(shape(w, "unknown\n"), "2\n");
        assert_eq!(shape(w, &format!("sat\n{AIGER_SAT}")), AIGER_SAT);
        // Several answers (a model with justice properties): the first failing one's
        // witness, else 0 only when every property holds.
        assert_eq!(
            shape(w, &format!("unsat\nsat\n{AIGER_SAT}unknown\n")),
            AIGER_SAT
        );
        assert_eq!(shape(w, "unsat\nunsat\n"), "0\n");
        assert_eq!(shape(w, "unsat\nunknown\n"), "2\n");
    }

    #[test]
    fn the_watchdogs_unknown_is_the_shaped_one() {
        assert_eq!(unknown_in(None), "unknown\n");
        for form in [WitnessForm::Aiger, WitnessForm::Btor2] {
            assert_eq!(unknown_in(Some(form)), shape(form, "unknown\n"));
        }
    }

    #[test]
    fn btor2_form_is_btormcs() {
        let w = WitnessForm::Btor2;
        assert_eq!(shape(w, "unsat\n"), "unsat\n");
        assert_eq!(shape(w, "unknown\n"), "unknown\n");
        // The btorsim witness starts with its own `sat` line.
        assert_eq!(shape(w, &format!("sat\n{BTOR2_SAT}")), BTOR2_SAT);
        // Every failing property's witness, then what the others are.
        let each = format!("sat\n{BTOR2_SAT}unsat\nsat\n{BTOR2_SAT}");
        assert_eq!(shape(w, &each), format!("{BTOR2_SAT}{BTOR2_SAT}unsat\n"));
        let open = format!("unknown\nsat\n{BTOR2_SAT}unsat\n");
        assert_eq!(shape(w, &open), format!("{BTOR2_SAT}unknown\n"));
    }
}
