//! `--all-properties`: every bad property (Verilog assertion, BTOR2 `bad`, AIGER output)
//! answered on its own, as ABC's `pdr -a` and SymbiYosys do.
//!
//! Each property is checked in a system of its own (the design with that one property): a
//! property once settled, failed or proved, is out of the others' way, and a failing one
//! does not hide the fate of the rest. Every answer is verified as in a single run
//! ([`crate::check`]): each counterexample replays, each invariant is checked. The overall
//! verdict on stdout is `sat` when any property fails (with the first failing one's witness),
//! `unsat` when all hold, else `unknown`; stderr has one table row per property, `--json`
//! one JSON line per property. A design with assumptions (`assume`, BTOR2 `constraint`,
//! AIGER invariant constraints) proves its properties under them, and the table says so: a
//! property proved under assumptions is checked once more without them, so the table tells
//! one that holds only because of them (with the cycle it fails at without them) from one
//! that needs none.
//!
//! With `--cover` (Verilog) the properties are the design's covers: `sat` is a cover reached
//! (its trace written as a counterexample is), `unsat` a cover proved unreachable; the table
//! and `--json` say so in those words.

use std::path::Path;

use super::counterexample::counterexample;
use super::files::write_file;
use super::report::{depth, verdict_word};
use super::rtl::{explain_counterexample, property_file};
use super::stdout::{print_verdict, settled_so_far, witness_form};
use super::CheckArgs;
use crate::check::{self, Answer, EngineKind, Options, Report};
use crate::engine::bmc::BmcOptions;
use crate::error::{ExitCode, InternalError};
use crate::front::{verilog, Model, Source};
use crate::ts::{Trace, TransitionSystem};
use crate::Budget;

/// One property's answer.
struct Row {
    name: String,
    report: Report,
    /// For a property proved under assumptions: what it is without them.
    without: Option<Answer>,
}

/// How many invariant constraints of `model.ts` are the input's own assumptions: the last
/// ones (the lowering of AIGER reset functions and the BTOR2 blaster, for non-constant
/// `init`s, put their own first); none for C programs, whose constraints are their encoding.
fn assumptions(model: &Model) -> usize {
    match &model.source {
        Source::Aiger(file) => file.constraints.len(),
        Source::Btor2 { model: words, .. } => words.constraints().len(),
        Source::C { .. } => 0,
    }
}

/// The name of property `i`: its label or symbol, else `b<i>`.
fn property_name(model: &Model, i: usize) -> String {
    (model.ts.names.bad.get(i).cloned().flatten()).unwrap_or_else(|| format!("b{i}"))
}

/// Checks every property of `model` on its own and reports them (see the module doc);
/// `compiled` is what Yosys said of a Verilog design; `print_witness` puts the first failing
/// property's witness on stdout.
pub(super) fn run(
    args: &CheckArgs,
    model: &Model,
    compiled: Option<&verilog::Compiled>,
    opts: &Options,
    budget: &Budget,
    print_witness: bool,
) -> ExitCode {
    let clocks = compiled.map_or(&[][..], |c| c.clocks.as_slice());
    let cover = compiled.is_some_and(|c| c.cover);
    let mut rows = Vec::new();
    let mut first_witness = None;
    // One verdict line per property, each `sat` followed by its witness: what `--stdout
    // witness` reshapes (SBY's cover mode reads a witness per cover reached).
    let mut each = String::new();
    let assumptions = assumptions(model);
    budget.progress().batch(model.ts.bad.len());
    for i in 0..model.ts.bad.len() {
        let name = property_name(model, i);
        let mut ts = model.ts.with_only_bad(i);
        ts.names.bad = vec![Some(name.clone())];
        // Shown while the engines run; the counterexample's table is printed without it.
        let shown = crate::progress::show(budget.progress());
        let checked = check::run(&ts, opts, budget);
        drop(shown);
        let mut report = match checked {
            Ok(r) => r,
            Err(e) => {
                eprintln!("warden: property {name}: {e}");
                print_verdict("unknown\n");
                return ExitCode::Internal;
            }
        };
        if let Answer::Sat(trace) = &mut report.answer {
            // The trace of the one-property system is a trace of `model` failing property i.
            trace.bad = i;
        }
        super::counterexample::drop_spurious(model, &mut report.answer, opts, budget);
        if !matches!(report.answer, Answer::Unknown { .. }) {
            budget.progress().settle();
        }
        if let Answer::Sat(trace) = &report.answer {
            let n = rows
                .iter()
                .filter(|r: &&Row| matches!(r.report.answer, Answer::Sat(_)));
            let text = match write_counterexample(args, model, trace, &name, n.count(), clocks) {
                Ok(text) => text,
                Err(code) => return code,
            };
            each.push_str("sat\n");
            each.push_str(&text);
            first_witness.get_or_insert(text);
            // A run stopped past its limit from here on still says which properties failed
            // (the ones not checked yet are open).
            let open = if i + 1 < model.ts.bad.len() {
                "unknown\n"
            } else {
                ""
            };
            let so_far = format!("{each}{open}");
            settled_so_far(&stdout_text(
                "sat",
                first_witness.as_deref(),
                &so_far,
                print_witness,
            ));
            crate::fault::inject("settled");
        } else {
            each.push_str(verdict_word(&report.answer));
            each.push('\n');
        }
        let mut without = None;
        if matches!(report.answer, Answer::Unsat(_)) && assumptions > 0 {
            let kept = ts.constraints.len() - assumptions;
            ts.constraints.truncate(kept);
            let shown = crate::progress::show(budget.progress());
            let checked =
                check::run(&ts, opts, budget).and_then(|r| shortest(&ts, r, opts, budget));
            drop(shown);
            without = match checked {
                Ok(answer) => Some(answer),
                Err(e) => {
                    eprintln!("warden: property {name} without the assumptions: {e}");
                    print_verdict("unknown\n");
                    return ExitCode::Internal;
                }
            };
        }
        rows.push(Row {
            name,
            report,
            without,
        });
    }
    let verdict = if first_witness.is_some() {
        "sat"
    } else if rows
        .iter()
        .all(|r| matches!(r.report.answer, Answer::Unsat(_)))
    {
        "unsat"
    } else {
        "unknown"
    };
    let lines: String = rows
        .iter()
        .enumerate()
        .map(|(i, r)| json_line(&args.model, i, r, compiled) + "\n")
        .collect();
    // Written before the verdict is printed: a run past its limit ends once its verdict is
    // out (see `give_up`).
    if let Err(code) = write_file(args.json.as_deref(), lines.as_bytes()) {
        return code;
    }
    print_verdict(&stdout_text(
        verdict,
        first_witness.as_deref(),
        &each,
        print_witness,
    ));
    summary(&rows, cover);
    ExitCode::Verdict
}

/// What stdout carries for the overall `verdict`: in the `--stdout witness` form every
/// property's answer (`each`, which [`print_verdict`] reshapes), else the verdict line and,
/// with `print_witness`, the first failing property's witness.
fn stdout_text(
    verdict: &str,
    first_witness: Option<&str>,
    each: &str,
    print_witness: bool,
) -> String {
    match witness_form() {
        Some(_) => each.to_owned(),
        None if print_witness => format!("{verdict}\n{}", first_witness.unwrap_or("")),
        None => format!("{verdict}\n"),
    }
}

/// `report`'s answer, a counterexample made the shortest there is: a portfolio's may come
/// from a BMC that jumps (`bmc-deep`), and "fails at cycle N" should name the first cycle.
fn shortest(
    ts: &TransitionSystem,
    report: Report,
    opts: &Options,
    budget: &Budget,
) -> Result<Answer, InternalError> {
    let Answer::Sat(trace) = &report.answer else {
        return Ok(report.answer);
    };
    let bmc = Options {
        engine: EngineKind::Bmc,
        max_depth: Some(trace.depth()),
        bmc: BmcOptions::default(),
        ..opts.clone()
    };
    Ok(match check::run(ts, &bmc, budget)?.answer {
        found @ Answer::Sat(_) => found,
        _ => report.answer,
    })
}

/// Writes the witness, waveform and Yosys witness of the `n`-th failing property (see
/// [`property_file`]), prints its table on stderr, and returns the witness text.
fn write_counterexample(
    args: &CheckArgs,
    model: &Model,
    trace: &Trace,
    name: &str,
    n: usize,
    clocks: &[String],
) -> Result<String, ExitCode> {
    let found = counterexample(model, trace, args.vcd.is_some()).map_err(|e| {
        eprintln!("warden: {e}");
        print_verdict("unknown\n");
        ExitCode::Internal
    })?;
    let file = |p: &Option<std::path::PathBuf>| p.as_deref().map(|p| property_file(p, n, name));
    write_file(file(&args.witness).as_deref(), found.text.as_bytes())?;
    write_file(
        file(&args.vcd).as_deref(),
        found.waveform.unwrap_or_default().as_bytes(),
    )?;
    let title = match args.rtl.cover {
        true => format!("trace of {name}, reaching it at cycle {}:", trace.depth()),
        false => format!(
            "counterexample of {name}, failing at cycle {}:",
            trace.depth()
        ),
    };
    let yw = file(&args.rtl.yw);
    let explain = args.rtl.explain(&args.model, clocks);
    explain_counterexample(model, trace, &title, &explain, yw.as_deref())?;
    Ok(found.text)
}

/// What a row's verdict means beyond its word; `cover` for a cover's row.
fn note(r: &Row, cover: bool) -> String {
    if cover {
        return cover_note(r);
    }
    match (&r.report.answer, &r.without) {
        (Answer::Unsat(_), None) => "proved".into(),
        (Answer::Unsat(_), Some(Answer::Unsat(_))) => {
            "proved (holds without the assumptions too)".into()
        }
        (Answer::Unsat(_), Some(Answer::Sat(t))) => format!(
            "proved under the assumptions (fails at cycle {} without them)",
            t.depth()
        ),
        (Answer::Unsat(_), Some(Answer::Unknown { .. })) => "proved under the assumptions".into(),
        (Answer::Sat(t), _) => format!("fails at cycle {}", t.depth()),
        (Answer::Unknown { depth: Some(k) }, _) => format!("no failure up to cycle {k}"),
        (Answer::Unknown { depth: None }, _) => "undecided".into(),
    }
}

/// What a cover's row means: reached, proved unreachable (with or without the assumptions),
/// or not decided.
fn cover_note(r: &Row) -> String {
    match (&r.report.answer, &r.without) {
        (Answer::Unsat(_), None) => "unreachable (proved)".into(),
        (Answer::Unsat(_), Some(Answer::Unsat(_))) => {
            "unreachable (proved, without the assumptions too)".into()
        }
        (Answer::Unsat(_), Some(Answer::Sat(t))) => format!(
            "unreachable under the assumptions (reached at cycle {} without them)",
            t.depth()
        ),
        (Answer::Unsat(_), Some(Answer::Unknown { .. })) => {
            "unreachable under the assumptions (proved)".into()
        }
        (Answer::Sat(t), _) => format!("reached at cycle {}", t.depth()),
        (Answer::Unknown { depth: Some(k) }, _) => format!("not reached up to cycle {k}"),
        (Answer::Unknown { depth: None }, _) => "undecided".into(),
    }
}

/// Whether a row's proof rests on the assumptions: `Some(false)` when none were needed (the
/// design has none, or it was proved without them too), `Some(true)` when it was not proved
/// without them, `None` for a property not proved.
fn under_assumptions(r: &Row) -> Option<bool> {
    match &r.without {
        Some(Answer::Unsat(_)) => Some(false),
        Some(_) => Some(true),
        None if matches!(r.report.answer, Answer::Unsat(_)) => Some(false),
        None => None,
    }
}

/// The summary table on stderr: one line per property (per cover with `cover`).
fn summary(rows: &[Row], cover: bool) {
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(8);
    let what = if cover { "cover" } else { "property" };
    crate::log::note(format_args!(
        "{what:width$}  {:7}  {:>5}  {:>7}  note",
        "verdict", "depth", "time_s"
    ));
    for r in rows {
        let d = depth(&r.report.answer).map_or("-".into(), |d| d.to_string());
        crate::log::note(format_args!(
            "{:width$}  {:7}  {d:>5}  {:>7.3}  {}",
            r.name,
            verdict_word(&r.report.answer),
            r.report.time.as_secs_f64(),
            note(r, cover)
        ));
    }
}

/// The `--json` line of property `index`; a Verilog design's (`compiled`) also says which
/// Yosys compiled it and whether the property is an assertion or a cover (`"cover"`:
/// `reached`, `unreachable` or `unknown`).
fn json_line(model: &Path, index: usize, r: &Row, compiled: Option<&verilog::Compiled>) -> String {
    let mut line = serde_json::json!({
        "model": model.to_string_lossy(),
        "property": r.name,
        "index": index,
        "verdict": verdict_word(&r.report.answer),
        "depth": depth(&r.report.answer),
        "engine": r.report.engine,
        "time_s": (r.report.time.as_secs_f64() * 1000.0).round() / 1000.0,
        "under_assumptions": under_assumptions(r),
    });
    if let Some(c) = compiled {
        line["yosys"] = c.yosys.json();
        line["kind"] = (if c.cover { "cover" } else { "assert" }).into();
        if c.cover {
            line["cover"] = match &r.report.answer {
                Answer::Sat(_) => "reached",
                Answer::Unsat(_) => "unreachable",
                Answer::Unknown { .. } => "unknown",
            }
            .into();
        }
    }
    line.to_string()
}
