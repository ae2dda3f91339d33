//! The one-verdict contract of stdout: exactly one verdict line reaches it, whether the run
//! ends normally, a watchdog gives up, or input turns out unsupported; with `--spec`, SV-COMP's
//! word for that verdict follows on stderr, whichever way it was printed.

use std::fmt::Display;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use crate::error::ExitCode;
use crate::front::{InputError, LoadError};

/// Whether this run owes stdout a verdict line (a `check` run): a panic then prints
/// `unknown`.
pub(super) static VERDICT_DUE: AtomicBool = AtomicBool::new(false);

/// The category of the SV-COMP property this run checks (`--spec`: `unreach-call`), if any.
pub(super) static SVCOMP_PROPERTY: OnceLock<&'static str> = OnceLock::new();

/// Prints the verdict line `verdict` (`sat`, `unsat`, `unknown`), and after it SV-COMP's word
/// for it on stderr when the run checks an SV-COMP property: `false(unreach-call)`, `true`,
/// `unknown`.
pub(super) fn println_verdict(verdict: &str) {
    write_stdout(&format!("{verdict}\n"));
    say_svcomp(verdict);
}

/// Writes `text` to stdout. A reader that closed it (`warden check ... | head -1`) wants no
/// more: the run goes on (its `--json` and `--witness` files, its exit code) instead of
/// panicking in `print!`; any other failure is said on stderr.
fn write_stdout(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("warden: writing the verdict to stdout: {e}")
        }
        _ => {}
    }
}

fn say_svcomp(verdict: &str) {
    if let Some(property) = SVCOMP_PROPERTY.get() {
        let word = match verdict {
            "sat" => format!("false({property})"),
            "unsat" => "true".into(),
            _ => "unknown".into(),
        };
        eprintln!("warden: SV-COMP verdict: {word}");
    }
}

/// The last resort of the watchdogs: prints `unknown` (unless a verdict is being printed) and
/// ends the process, saying why on stderr.
pub(super) fn give_up(why: std::fmt::Arguments) {
    if claim_stdout() {
        eprintln!("warden: {why}: stopping");
        println_verdict("unknown");
        std::process::exit(0);
    }
}

/// Whether this thread may print the verdict: the first caller may, every later one may not
/// (the normal output path and the overrun watchdog race for it, and stdout must carry one
/// verdict).
pub(super) fn claim_stdout() -> bool {
    static CLAIMED: AtomicBool = AtomicBool::new(false);
    !CLAIMED.swap(true, Ordering::SeqCst)
}

/// Prints `text` (the verdict line and the witness) unless the overrun watchdog printed
/// `unknown` first, in which case it is ending the process and this thread waits for that.
pub(super) fn print_verdict(text: &str) {
    if !claim_stdout() {
        loop {
            std::thread::park();
        }
    }
    write_stdout(text);
    say_svcomp(text.lines().next().unwrap_or(""));
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
