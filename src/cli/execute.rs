//! `warden check` on a C program that draws no nondet value: its one run is executed
//! ([`crate::engine::execute`]) before any symbolic engine, with the recursion bound deepened
//! while the run goes deeper.

use std::time::Instant;

use super::run::Counterexample;
use crate::cfa::{self, path::ErrorPath};
use crate::check::{Answer, Proof, Report};
use crate::engine::execute::{execute, Execution};
use crate::front::{self, LoadOptions, Model, Source};
use crate::ts::Trace;
use crate::Budget;

/// The share of the time left that executing may take (the symbolic engines get the rest
/// when it does not decide).
const TIME_SHARE: u32 = 2;

/// What executing a program gave (once per run: the variants' sizes do not matter).
#[allow(clippy::large_enum_variant)]
pub(super) enum Executed {
    /// A decision: the model it was made on (read at the recursion bound the run needed),
    /// the report, and for an error path the counterexample (the run is its replay).
    Decided {
        model: Model,
        report: Report,
        found: Option<Counterexample>,
    },
    /// No decision: the model as given.
    Undecided(Model),
}

/// Executes the program of `model` (read with `load`, recursion bound 1), and while its run
/// calls deeper than the bound, the program read again at a deeper bound with shared copies
/// of the recursive bodies. It does not decide when the program draws a nondet value, the
/// time or steps run out, or a deeper reading fails.
pub(super) fn execute_program(
    model: Model,
    path: &std::path::Path,
    load: &LoadOptions,
    budget: &Budget,
) -> Executed {
    let start = Instant::now();
    let share = match budget.remaining() {
        Some(left) => budget.child_for(left / TIME_SHARE),
        None => budget.child(),
    };
    let mut deeper: Option<Model> = None;
    let mut read = load.clone();
    loop {
        let current = deeper.as_ref().unwrap_or(&model);
        let Source::C { cfa, .. } = &current.source else {
            return Executed::Undecided(model);
        };
        let outcome = match execute(cfa, &share, cfa::path::PROGRAM_STEPS) {
            Ok(o) => o,
            Err(e) => {
                crate::log::info(1, format_args!("execution stopped: {e}"));
                return Executed::Undecided(model);
            }
        };
        let (answer, found, steps) = match outcome {
            Execution::Undecided { steps, reason } => {
                crate::log::info(1, format_args!("execution: {reason} (step {steps})"));
                return Executed::Undecided(model);
            }
            Execution::Unwound => {
                read.recursion = front::c::Recursion {
                    bound: read.recursion.bound.saturating_mul(2),
                    exceeded_is_error: true,
                    shared: true,
                };
                crate::log::info(
                    1,
                    format_args!(
                        "execution: deeper than the recursion bound: executing at bound {}",
                        read.recursion.bound
                    ),
                );
                match front::load_with(path, &read, &share) {
                    Ok(m) if !share.expired() => deeper = Some(m),
                    _ => return Executed::Undecided(model),
                }
                continue;
            }
            Execution::Safe { steps } => (Answer::Unsat(Proof::Execution { steps }), None, steps),
            Execution::Error(run) => {
                let steps = run.steps.len();
                let path = ErrorPath { steps: run.steps };
                let found = counterexample(current, path);
                (Answer::Sat(trace(current, &found)), Some(found), steps)
            }
        };
        let report = Report {
            answer,
            engine: "execute",
            stats: vec![("execute_steps", steps as u64)],
            time: start.elapsed(),
            note: None,
        };
        return Executed::Decided {
            model: deeper.unwrap_or(model),
            report,
            found,
        };
    }
}

/// The error path as warden prints it (no waveform: `--vcd` asks the trace instead).
fn counterexample(model: &Model, path: ErrorPath) -> Counterexample {
    let Source::C { cfa, read_with, .. } = &model.source else {
        unreachable!("executed programs are C programs")
    };
    Counterexample {
        text: read_with.witness_line() + &cfa::path::write(cfa, &path),
        waveform: None,
        path: Some(path),
    }
}

/// The trace of the encoded system that the run is: its initial state, and one frame per
/// block of the encoded CFA the run passes (every input zero: the run draws none).
fn trace(model: &Model, found: &Counterexample) -> Trace {
    let Source::C { cfa, blocks, .. } = &model.source else {
        unreachable!("executed programs are C programs")
    };
    let kept = cfa::lbe::kept_locations(blocks);
    let steps = found.path.as_ref().map_or(&[][..], |p| &p.steps);
    let frames = steps
        .iter()
        .filter(|s| kept[cfa.edges[s.edge].to.index()])
        .count();
    let ts = &model.ts;
    Trace {
        init: ts.latches.iter().map(|l| l.init.unwrap_or(false)).collect(),
        inputs: vec![vec![false; ts.inputs.len()]; frames + 1],
        bad: 0,
    }
}
