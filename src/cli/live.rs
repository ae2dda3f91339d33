//! `warden check` on a model with justice properties: every property is answered on its own,
//! in the file's order (the bad-state properties, then the justice properties), with one
//! verdict line each, followed for `sat` by its witness (`b<i>` or, for a lasso, `j<i>`).
//! Each property gets an equal share of the time left when its turn comes.

use super::counterexample::counterexample;
use super::files::write_file;
use super::stdout::print_verdict;
use super::CheckArgs;
use crate::check::{self, Answer, Options};
use crate::error::{ExitCode, InternalError};
use crate::front::{btor2, Model, Source};
use crate::live::{self, LiveAnswer};
use crate::witness;
use crate::wl;
use crate::Budget;

/// Checks every property of `model` (which has justice properties) and prints the verdicts.
pub(super) fn check_each(
    args: &CheckArgs,
    model: &Model,
    opts: &Options,
    budget: &Budget,
    print_witness: bool,
) -> ExitCode {
    let unwritten = [
        (args.cert.is_some(), "--cert"),
        (args.vcd.is_some(), "--vcd"),
        (args.json.is_some(), "--json"),
    ];
    if let Some((_, flag)) = unwritten.iter().find(|(given, _)| *given) {
        eprintln!(
            "warden: {flag} is not written for models with justice properties: leave it \
             out"
        );
        return ExitCode::Usage;
    }
    let ts = &model.ts;
    let total = ts.bad.len() + ts.justice.len();
    let (mut out, mut witnesses) = (String::new(), String::new());
    budget.progress().batch(total);
    for p in 0..total {
        let share = match budget.remaining() {
            Some(left) => budget.child_for(left / (total - p) as u32),
            None => budget.child(),
        };
        let shown = crate::progress::show(budget.progress());
        let answered = match p.checked_sub(ts.bad.len()) {
            None => safety(model, p, opts, &share),
            Some(j) => justice(model, j, opts, &share),
        };
        drop(shown);
        let (verdict, witness) = match answered {
            Ok(a) => a,
            Err(e) => {
                eprintln!("warden: {e}");
                print_verdict(&(out + "unknown\n"));
                return ExitCode::Internal;
            }
        };
        if verdict != "unknown" {
            budget.progress().settle();
        }
        out.push_str(verdict);
        out.push('\n');
        if let Some(w) = witness {
            if print_witness {
                out.push_str(&w);
            }
            witnesses.push_str(&w);
        }
    }
    if let Err(code) = write_file(args.witness.as_deref(), witnesses.as_bytes()) {
        return code;
    }
    print_verdict(&out);
    ExitCode::Verdict
}

/// A verdict word and, for `sat`, the witness text.
type Verdict = (&'static str, Option<String>);

/// Bad-state property `bad` alone.
fn safety(
    model: &Model,
    bad: usize,
    opts: &Options,
    budget: &Budget,
) -> Result<Verdict, InternalError> {
    let mut report = check::run(&model.ts.with_only_bad(bad), opts, budget)?;
    if let Answer::Sat(trace) = &mut report.answer {
        trace.bad = bad;
    }
    super::counterexample::drop_spurious(model, &mut report.answer, opts, budget);
    crate::log::note(format_args!(
        "b{bad}: {} ({}, {:.2} s)",
        super::report::verdict_word(&report.answer),
        report.engine,
        report.time.as_secs_f64()
    ));
    Ok(match report.answer {
        Answer::Sat(trace) => ("sat", Some(counterexample(model, &trace, false)?.text)),
        Answer::Unsat(_) => ("unsat", None),
        Answer::Unknown { .. } => ("unknown", None),
    })
}

/// Justice property `j`: its lasso in the model's witness format.
fn justice(
    model: &Model,
    j: usize,
    opts: &Options,
    budget: &Budget,
) -> Result<Verdict, InternalError> {
    let report = live::check(&model.ts, j, opts, budget)?;
    let (word, witness) = match &report.answer {
        LiveAnswer::Sat(lasso) => {
            let text = match &model.source {
                Source::Aiger(file) => {
                    witness::aiger::write_justice(&lasso.trace, file.latches.len())
                }
                Source::Btor2 { model: words, bits }
                | Source::C {
                    model: words, bits, ..
                } => {
                    let lifted = wl::lift_trace(words, bits, &model.ts, &lasso.trace);
                    btor2::write_witness_as(words, &lifted, 'j')
                }
            };
            let loop_note = format!(
                ", loop from frame {} of {}",
                lasso.loop_start,
                lasso.trace.inputs.len()
            );
            ("sat", Some((text, loop_note)))
        }
        LiveAnswer::Unsat => ("unsat", None),
        LiveAnswer::Unknown => ("unknown", None),
    };
    crate::log::note(format_args!(
        "j{j}: {word} ({}, {:.2} s{})",
        report.engine,
        report.time.as_secs_f64(),
        witness.as_ref().map_or("", |w| w.1.as_str())
    ));
    Ok((word, witness.map(|w| w.0)))
}
