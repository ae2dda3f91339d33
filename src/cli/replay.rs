//! `warden sim` and `warden certify`: independent checks of a claimed answer.

use std::fmt::Display;
use std::path::Path;

use super::files::read_text;
use super::stdout::{at_line, input_error};
use super::WordArgs;
use crate::abc;
use crate::cert;
use crate::cfa;
use crate::error::ExitCode;
use crate::front::{self, aiger, btor2, Source};
use crate::live;
use crate::ts::{replay, ReplayError, Trace, TransitionSystem};
use crate::witness;
use crate::wl;
use crate::Budget;

pub(super) fn sim(model: &Path, witness_path: &Path) -> ExitCode {
    let text = match read_text(witness_path) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(code) => return code,
    };
    // A C error path records the settings its program was read with.
    let model = match load_as_recorded(model, &text, witness_path, front::LoadOptions::default()) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if abc::cex::recognise(&text) && !matches!(model.source, Source::C { .. }) {
        return sim_abc(&model.ts, &text, witness_path);
    }
    let (ts, file) = match &model.source {
        Source::Aiger(file) => (&model.ts, file),
        Source::Btor2 { model: words, .. } => return sim_btor2(words, &text, witness_path),
        Source::C { cfa: program, .. } => return sim_c(program, &text),
    };
    let w = match witness::aiger::parse(&text, ts, file.latches.len()) {
        Ok(w) => w,
        Err(e) => {
            println!("invalid: {}: {e}", witness_path.display());
            return ExitCode::INVALID;
        }
    };
    // The witness's trace, read as a path to property `p` (bad or justice).
    let claiming = |p| Trace {
        bad: p,
        ..w.trace.clone()
    };
    let bad = report_replays(&w.bad, |b| {
        replay(ts, &claiming(b)).map_err(|e| match e {
            // Named as in the file: reset functions are lowered to constraints.
            ReplayError::Constraint { frame, constraint } => {
                match aiger::constraint_origin(file, constraint) {
                    aiger::ConstraintOrigin::Reset(l) => format!(
                        "the initial value of latch {} does not match its reset function {}",
                        l.lit, l.reset
                    ),
                    aiger::ConstraintOrigin::File(c) => ReplayError::Constraint {
                        frame,
                        constraint: c,
                    }
                    .to_string(),
                }
            }
            e => e.to_string(),
        })
    });
    // Each justice property it names: the trace is a lasso of it (the check behind warden's
    // own liveness counterexamples).
    let lassos = report_each(
        &w.justice,
        'j',
        |j| live::lasso::check(ts, &claiming(j)),
        |j, l| format!("justice property j{j} has a lasso, its loop from frame {l}"),
    );
    match lassos {
        true => bad,
        false => ExitCode::INVALID,
    }
}

/// `warden sim` on one of ABC's counterexample files (for a BTOR2 model: a counterexample
/// of its bit-blasted system, as `warden blast` writes it). A file that names the falsified
/// properties (`write_cex -n`, `write_aiger_cex`) must reach each of them; one that does
/// not (`write_cex`, `write_cex -a`) must reach at least one property.
fn sim_abc(ts: &TransitionSystem, text: &str, witness_path: &Path) -> ExitCode {
    let w = match abc::cex::parse(text, ts) {
        Ok(w) => w,
        Err(e) => {
            println!("invalid: {}: {e}", witness_path.display());
            return ExitCode::INVALID;
        }
    };
    if let Some(note) = &w.note {
        eprintln!("warden: {note}");
    }
    let replay_one = |b| {
        replay(
            ts,
            &Trace {
                bad: b,
                ..w.trace.clone()
            },
        )
    };
    if w.named {
        return report_replays(&w.bad, replay_one);
    }
    let reached: Vec<usize> = (w.bad.iter().copied())
        .filter(|&b| replay_one(b).is_ok())
        .collect();
    if reached.is_empty() {
        println!("invalid: the counterexample reaches no bad property");
        return ExitCode::INVALID;
    }
    report_replays(&reached, replay_one)
}

/// Prints whether each claimed bad property `b` is reached (`replay_one(b)` gives the frame);
/// exit code 0 when all are, else 1.
pub(super) fn report_replays<E: Display>(
    bad: &[usize],
    replay_one: impl FnMut(usize) -> Result<usize, E>,
) -> ExitCode {
    let found = |b, frame| format!("bad property b{b} is reached in frame {frame}");
    match report_each(bad, 'b', replay_one, found) {
        true => ExitCode::Verdict,
        false => ExitCode::INVALID,
    }
}

/// Prints, for each claimed property `p` (named `{kind}{p}` in the witness), `valid:` and
/// what `check(p)` found (`found` says it), or `invalid:` and why not; whether all held.
fn report_each<T, E: Display>(
    props: &[usize],
    kind: char,
    mut check: impl FnMut(usize) -> Result<T, E>,
    found: impl Fn(usize, T) -> String,
) -> bool {
    let mut ok = true;
    for &p in props {
        match check(p) {
            Ok(t) => println!("valid: {}", found(p, t)),
            Err(e) => {
                println!("invalid: {kind}{p}: {e}");
                ok = false;
            }
        }
    }
    ok
}

/// The model at `model` read with the options that `recorded` (the text of a witness or a
/// certificate's comment, from `file`) records for a C program, the word-level ones taken
/// from `words`; an unreadable record or model is an input error.
fn load_as_recorded(
    model: &Path,
    recorded: &str,
    file: &Path,
    words: front::LoadOptions,
) -> Result<front::Model, ExitCode> {
    let load = match front::LoadOptions::from_witness(recorded) {
        Ok(o) => front::LoadOptions {
            wl_simplify: words.wl_simplify,
            ..o
        },
        Err(e) => {
            eprintln!("warden: {}: {e}", file.display());
            return Err(ExitCode::Input);
        }
    };
    front::load_with(model, &load, &Budget::new(None)).map_err(|e| input_error(&e))
}

/// The certificate circuit in `cert_path`, and `model` read as it records (a C program's
/// certificate records in its comment the options the program was read with; other models
/// are read with `words`).
pub(super) fn load_as_certified(
    model: &Path,
    cert_path: &Path,
    words: front::LoadOptions,
) -> Result<(aiger::Aiger, front::Model), ExitCode> {
    let bytes = read_text(cert_path)?;
    let circuit = aiger::parse(&bytes).map_err(|e| {
        match e.line {
            Some(line) => eprintln!("warden: {}", at_line(cert_path, line, &e.message)),
            None => eprintln!("warden: {}: {e}", cert_path.display()),
        }
        ExitCode::Input
    })?;
    let model = load_as_recorded(model, &circuit.comments.join("\n"), cert_path, words)?;
    Ok((circuit, model))
}

pub(super) fn certify(model_path: &Path, cert_path: &Path, words: &WordArgs) -> ExitCode {
    let (circuit, model) = match load_as_certified(model_path, cert_path, words.load_options()) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    // A model with justice properties needs the liveness conditions too.
    let check = match model.ts.has_liveness() {
        true => live::certificate::certify,
        false => cert::certify,
    };
    match check(&model.ts, &model.aiger(), &circuit, &Budget::new(None)) {
        Ok(()) => {
            println!("valid: the witness circuit certifies every property");
            ExitCode::Verdict
        }
        Err(e) => {
            println!("invalid: {e}");
            ExitCode::INVALID
        }
    }
}

/// `warden sim` for a C program: the nondet values of the error path, replayed in the CFA
/// interpreter (recursion inlined to the bound the path records), must reach the error
/// without a call beyond that bound.
pub(super) fn sim_c(program: &cfa::Cfa, text: &str) -> ExitCode {
    let values = match cfa::path::parse_values(program, text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("warden: {e}");
            return ExitCode::Input;
        }
    };
    match cfa::path::replay_program(program, values, cfa::path::PROGRAM_STEPS) {
        Ok(run) => {
            println!(
                "valid: the error is reached after {} steps",
                run.steps.len()
            );
            ExitCode::Verdict
        }
        Err(e) => {
            println!("invalid: {e}");
            ExitCode::INVALID
        }
    }
}

/// `warden sim` on a BTOR2 model: every claimed bad property must be reached by the word-level
/// simulation of the witness.
pub(super) fn sim_btor2(model: &wl::Model, text: &str, witness_path: &Path) -> ExitCode {
    let w = match btor2::parse_witness(text, model) {
        Ok(w) => w,
        Err(e) => {
            println!("invalid: {}: {e}", witness_path.display());
            return ExitCode::INVALID;
        }
    };
    report_replays(&w.bad, |b| {
        let trace = wl::Trace {
            bad: b,
            ..w.trace.clone()
        };
        wl::replay(model, &trace)
    })
}
