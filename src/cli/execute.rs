//! `warden check` on a C program that draws no nondet value: its one run is executed
//! ([`crate::engine::execute`]) beside the symbolic engines, with the recursion bound
//! deepened while the run goes deeper.

use std::time::Instant;

use super::counterexample::Counterexample;
use crate::cfa::{self, path::ErrorPath};
use crate::check::{Answer, Proof, Report};
use crate::engine::execute::{execute, Execution};
use crate::front::{self, LoadOptions, Model, Source};
use crate::ts::Trace;
use crate::Budget;

/// A decision by execution: the model it was made on when that is a deeper reading than the
/// one given (the recursion bound the run needed), the report, and for an error path the
/// counterexample (the run is its replay).
pub(super) struct Executed {
    pub deeper: Option<Model>,
    pub report: Report,
    pub found: Option<Counterexample>,
}

/// Executes the program of `model` (read with `load`, recursion bound 1), and while its run
/// calls deeper than the bound, the program read again at twice the bound with shared
/// copies of the recursive bodies. `None` when executing does not decide: the program draws
/// a nondet value, the steps or the budget run out, or a deeper reading fails.
pub(super) fn execute_program(
    model: &Model,
    path: &std::path::Path,
    load: &LoadOptions,
    budget: &Budget,
) -> Option<Executed> {
    let start = Instant::now();
    let mut deeper: Option<Model> = None;
    let mut read = load.clone();
    loop {
        let current = deeper.as_ref().unwrap_or(model);
        let Source::C { cfa, .. } = &current.source else {
            return None;
        };
        let outcome = match execute(cfa, budget, cfa::path::PROGRAM_STEPS) {
            Ok(o) => o,
            Err(e) => {
                crate::log::info(1, format_args!("execution stopped: {e}"));
                return None;
            }
        };
        let (answer, found, steps) = match outcome {
            Execution::Undecided { steps, reason } => {
                crate::log::info(1, format_args!("execution: {reason} (step {steps})"));
                return None;
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
                match front::load_with(path, &read, budget) {
                    Ok(m) if !budget.expired() => deeper = Some(m),
                    _ => return None,
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
            condition: None,
            automaton: None,
        };
        return Some(Executed {
            deeper,
            report,
            found,
        });
    }
}

/// The error path as warden prints it (no waveform: `--vcd` asks the trace instead).
fn counterexample(model: &Model, path: ErrorPath) -> Counterexample {
    let Source::C { cfa, read_with, .. } = &model.source else {
        unreachable!("executed programs are C programs")
    };
    Counterexample::of_program(read_with, cfa, path, None)
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
