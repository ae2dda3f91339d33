//! What a counterexample becomes before warden prints it: the witness in the model's own
//! format, replayed at the word level (and, for a C program, as an error path by the CFA
//! interpreter); a lazy array abstraction's spurious one searched again in the exact runs.

use crate::cfa;
use crate::check::{self, Answer, Options};
use crate::error::InternalError;
use crate::front::{self, btor2, Model, Source};
use crate::ts::Trace;
use crate::witness;
use crate::wl;
use crate::Budget;

/// Turns a counterexample of an abstraction (lazy arrays: [`Model::is_abstract`]) that the
/// word-level simulator refutes into a real one of the runs whose array reads are exact
/// ([`Model::exact_runs`]), searched in the time left, or else into `unknown`; said on stderr.
/// Of a model that is not abstracted, such a trace stays an internal error (reported where it
/// is printed).
pub(super) fn drop_spurious(model: &Model, answer: &mut Answer, opts: &Options, budget: &Budget) {
    let Answer::Sat(trace) = &*answer else {
        return;
    };
    if !model.is_abstract() {
        return;
    }
    let Err(InternalError::WordReplay(e)) = counterexample(model, trace, false) else {
        return;
    };
    crate::log::note(format_args!(
        "the counterexample of the lazy array abstraction does not replay on the model ({e}): \
         searching the runs whose array reads are exact"
    ));
    let exact = model.exact_runs(trace.bad);
    *answer = match check::run(&exact, opts, budget).map(|r| r.answer) {
        Ok(Answer::Sat(mut t)) => {
            t.bad = trace.bad;
            match counterexample(model, &t, false) {
                Ok(_) => Answer::Sat(t),
                Err(e) => {
                    crate::log::warn(format_args!(
                        "a counterexample of the exact runs does not replay: {e}"
                    ));
                    Answer::Unknown { depth: None }
                }
            }
        }
        Ok(Answer::Unsat(_)) => {
            crate::log::note(format_args!(
                "the runs whose array reads are exact have no counterexample, and the \
                 abstraction's is spurious: undecided"
            ));
            Answer::Unknown { depth: None }
        }
        _ => Answer::Unknown { depth: None },
    };
}

/// A counterexample as warden prints it.
pub(super) struct Counterexample {
    /// The witness in the model's own format.
    pub text: String,
    /// The waveform, when it was asked for.
    pub waveform: Option<String>,
    /// For a C program, the error path the trace takes (replayed by the CFA interpreter).
    pub path: Option<cfa::path::ErrorPath>,
}

impl Counterexample {
    /// A C program's error path in `cfa`, read with `read_with`: the options line, then the
    /// path.
    pub fn of_program(
        read_with: &front::LoadOptions,
        cfa: &cfa::Cfa,
        path: cfa::path::ErrorPath,
        waveform: Option<String>,
    ) -> Counterexample {
        Counterexample {
            text: read_with.witness_line() + &cfa::path::write(cfa, &path),
            waveform,
            path: Some(path),
        }
    }
}

/// The witness text of a counterexample in the model's own format, and its waveform when
/// `vcd` is asked for. A BTOR2 counterexample is lifted to words and replayed by the
/// word-level simulator (independent of the blaster) before it is printed; a C program's is
/// also turned into the program's error path, replayed by the CFA interpreter.
pub(super) fn counterexample(
    model: &Model,
    trace: &Trace,
    vcd: bool,
) -> Result<Counterexample, InternalError> {
    match &model.source {
        Source::Aiger(file) => Ok(Counterexample {
            text: witness::aiger::write(trace, file.latches.len()),
            waveform: vcd.then(|| witness::vcd::write(&model.ts, trace)),
            path: None,
        }),
        Source::Btor2 { model: words, bits } => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            wl::replay(words, &lifted)?;
            let waveform = match vcd {
                true => Some(witness::vcd::write_words(words, &lifted)?),
                false => None,
            };
            Ok(Counterexample {
                text: btor2::write_witness(words, &lifted),
                waveform,
                path: None,
            })
        }
        Source::C {
            cfa: program,
            blocks,
            model: words,
            bits,
            read_with,
            ..
        } => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            wl::replay(words, &lifted)?;
            let path = cfa::path::from_trace(program, blocks, &lifted).map_err(|source| {
                InternalError::PathReplay {
                    path: "the error path",
                    source,
                }
            })?;
            let waveform = match vcd {
                true => Some(witness::vcd::write_words(words, &lifted)?),
                false => None,
            };
            Ok(Counterexample::of_program(
                read_with, program, path, waveform,
            ))
        }
    }
}
