//! Reading and writing files for the subcommands, and `warden blast`.

use std::path::{Path, PathBuf};

use super::stdout::{input_error, located};
use super::WordArgs;
use crate::check::{Answer, Report};
use crate::condition::Condition;
use crate::engine::cfa_cegar::condition::Automaton;
use crate::error::ExitCode;
use crate::front::InputError;
use crate::front::{self, aiger};
use crate::ts::TransitionSystem;
use crate::Budget;

/// Writes an AIGER file: binary for a `.aig` path, ASCII otherwise.
pub(super) fn write_aiger(file: &aiger::Aiger, path: &Path) -> Result<(), ExitCode> {
    let mut bytes = Vec::new();
    let written = if path.extension().is_some_and(|e| e == "aig") {
        aiger::write_binary(file, &mut bytes)
    } else {
        aiger::write_ascii(file, &mut bytes)
    };
    written.expect("writing to memory cannot fail");
    write_file(Some(path), &bytes)
}

/// `warden blast MODEL OUT`: the bit-level system as AIGER.
pub(super) fn blast(
    model: &Path,
    output: &Path,
    as_in: Option<&Path>,
    words: &WordArgs,
) -> ExitCode {
    let loaded = match as_in {
        Some(cert) => {
            super::replay::load_as_certified(model, cert, words.load_options()).map(|(_, m)| m)
        }
        None => front::load_with(model, &words.load_options(), &Budget::new(None))
            .map_err(|e| input_error(&e)),
    };
    match loaded {
        Ok(m) => match write_aiger(&m.aiger(), output) {
            Ok(()) => ExitCode::Verdict,
            Err(code) => code,
        },
        Err(code) => code,
    }
}

pub(super) fn write_file(path: Option<&Path>, bytes: &[u8]) -> Result<(), ExitCode> {
    let Some(path) = path else { return Ok(()) };
    std::fs::write(path, bytes).map_err(|e| {
        eprintln!("warden: {}: cannot write: {e}", path.display());
        ExitCode::Input
    })
}

pub(super) fn read_text(path: &Path) -> Result<Vec<u8>, ExitCode> {
    std::fs::read(path).map_err(|e| {
        eprintln!("warden: {}: cannot read: {e}", path.display());
        ExitCode::Input
    })
}

/// The condition in `path` ([`crate::condition`]), if any, which must speak of `ts`; a usage
/// error when conditions are `asked` (in or out) of a run that checks more than one system's
/// bad states (`one_system` false: liveness, `--all-properties`).
pub(super) fn read_condition(
    path: Option<PathBuf>,
    asked: bool,
    one_system: bool,
    ts: &TransitionSystem,
) -> Result<Option<Condition>, ExitCode> {
    if asked && !one_system {
        eprintln!(
            "warden: conditions speak of one system's bad states: \
             --condition-in/--condition-out are not read with justice properties or \
             --all-properties"
        );
        return Err(ExitCode::Usage);
    }
    read_parsed(path, |text, path| Condition::parse(text, path, ts))
}

/// The CFA condition in `path` ([`crate::engine::cfa_cegar::condition`]), if any, which
/// must speak of the C program whose encoded system is `ts`.
pub(super) fn read_automaton(
    path: Option<PathBuf>,
    ts: &TransitionSystem,
) -> Result<Option<Automaton>, ExitCode> {
    read_parsed(path, |text, path| Automaton::parse(text, path, ts))
}

/// The file `path` (if any) read by `parse`; an error is reported as bad input.
fn read_parsed<T>(
    path: Option<PathBuf>,
    parse: impl FnOnce(&str, &Path) -> Result<T, InputError>,
) -> Result<Option<T>, ExitCode> {
    let Some(path) = path else { return Ok(None) };
    let bytes = read_text(&path)?;
    match parse(&String::from_utf8_lossy(&bytes), &path) {
        Ok(c) => Ok(Some(c)),
        Err(e) => {
            eprintln!("warden: {}", located(&e));
            Err(ExitCode::Input)
        }
    }
}

/// Writes to `path` (if any) what the `unknown` answer `report` verified about `ts` (a
/// CFA run's assumption automaton, or what a run of the bit-level system verified).
pub(super) fn write_condition(
    path: Option<&Path>,
    report: &Report,
    ts: &TransitionSystem,
) -> Result<(), ExitCode> {
    let Answer::Unknown { depth } = report.answer else {
        return Ok(());
    };
    if let Some(automaton) = &report.automaton {
        return write_file(path, automaton.text(ts).as_bytes());
    }
    let verified = (report.condition.clone()).unwrap_or(Condition {
        depth,
        lemmas: Vec::new(),
    });
    write_file(path, verified.text(ts).as_bytes())
}
