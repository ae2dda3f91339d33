//! `warden check`: load, run the engines, print the verdict and write witness, certificate,
//! statistics and JSON.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::c_program::{complete_depth, cuts_recursion, deepen, horn, HornSide, SummarySide};
use super::counterexample::{counterexample, drop_spurious};
use super::execute;
use super::files::{read_automaton, read_condition, write_aiger, write_condition, write_file};
use super::properties;
use super::report::{json, print_stats, verdict_word};
use super::rtl::{explain_counterexample, note_unchecked, show_script};
use super::stdout::{
    choose_form, give_up, input_error, print_verdict, SVCOMP_PROPERTY, VERDICT_DUE,
};
use super::svcomp;
use super::{BlocksArg, CheckArgs, DataModelArg, WitnessFormat};
use crate::cert;
use crate::check::{self, Answer, EngineKind, Options, Proof};
use crate::engine::smt::Words;
use crate::error::ExitCode;
use crate::front::{self, InputKind, Model, Source};
use crate::options::{self, configs};
use crate::progress::{Mode, Progress};
use crate::Budget;

/// How long a run may go on after its end ([`exit_margin`] before the time limit), and after
/// a signal or the memory limit stopped it, before the overrun watchdog prints `unknown` and
/// ends the process. A harness that kills at the limit plus half a second must see the
/// process gone: an answer is verified by the run's end or dropped, so the watchdog fires
/// at the end itself and leaves the margin and that half second to the exit (the other
/// threads must each get a turn to die, on a loaded machine). A stop request, which comes
/// at any time, has more: the engines see it within milliseconds, and the normal output
/// path prints their answer.
const OVERRUN_GRACE: crate::budget::Grace = crate::budget::Grace {
    end: Duration::ZERO,
    stop: Duration::from_secs(1),
};

/// How long before the time limit `limit` the engines stop: the rest is for them to see the
/// stop and return, for verifying an answer found before (an invariant check is a SAT query
/// over the whole model), writing its witness or certificate and printing. A twentieth of
/// the limit, at least half a second (what a loaded machine takes to get every engine
/// thread a turn to see its stop), at most 10 s, and never more than half the limit.
fn reserve(limit: Duration) -> Duration {
    (limit / 20)
        .clamp(Duration::from_millis(500), Duration::from_secs(10))
        .min(limit / 2)
}

/// How long before the time limit the run ends (answers verified, or the watchdog fires):
/// the rest is for the process's exit. An engine can be caught between two budget checks at
/// the end (seen: CaDiCaL's inprocessing of a 6-million-gate unrolling ran past it), and
/// then the watchdog ends the run; with the watchdog at the limit itself, the exit took up to
/// 0.57 s with two runs and a build on 2 cores. At most 0.3 s, and half the reserve.
fn exit_margin(reserve: Duration) -> Duration {
    (reserve / 2).min(Duration::from_millis(300))
}

pub(super) fn check(args: CheckArgs) -> ExitCode {
    run_check(args, true)
}

/// One `check` run; `print_witness` puts the witness on stdout after the verdict line.
pub(super) fn run_check(args: CheckArgs, print_witness: bool) -> ExitCode {
    crate::log::set_level(args.verbose);
    crate::log::set_quiet(args.quiet);
    let verilog = front::verilog::is_verilog(&args.model);
    if let Err(e) = args.rtl.validate(&args.model) {
        eprintln!("warden: {e}");
        return ExitCode::Usage;
    }
    if args.rtl.show_yosys_script {
        return show_script(&args.rtl.design(&args.model));
    }
    let all_properties = args.rtl.all_properties(&args.model);
    if all_properties && args.cert.is_some() {
        eprintln!(
            "warden: --cert certifies all properties at once: give \
             --all-properties=false with it"
        );
        return ExitCode::Usage;
    }
    if let Err(e) = choose_form(args.stdout, &args.model) {
        eprintln!("warden: {e}");
        return ExitCode::Usage;
    }
    let input = InputKind::of(&args.model);
    let cegar = match options::check(args.engine, input, &args.cegar, &args.given()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("warden: {e}");
            return ExitCode::Usage;
        }
    };
    let svcomp_witness = args.witness_format == Some(WitnessFormat::Svcomp);
    if svcomp_witness && args.witness.is_none() {
        eprintln!("warden: --witness-format svcomp writes the file of --witness FILE: give it");
        return ExitCode::Usage;
    }
    VERDICT_DUE.store(true, Ordering::SeqCst);
    let spec = match args.spec.as_deref().map(svcomp::read_spec).transpose() {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(s) = &spec {
        let _ = SVCOMP_PROPERTY.set(s.category());
    }
    let limit = args.timeout.map(Duration::from_secs_f64);
    let reserve = limit.map_or(Duration::ZERO, reserve);
    let margin = exit_margin(reserve);
    let budget = Budget::with_reserve(limit.map(|l| l - margin), reserve - margin)
        .with_progress(Progress::new(Mode::choose(args.quiet, args.verbose)));
    crate::signals::stop_on_signals(&budget);
    crate::budget::on_overrun(&budget, OVERRUN_GRACE, || {
        give_up("still running at the time limit, or a second after a stop request")
    });
    crate::budget::watch_memory(&budget, args.mem_limit, || {
        give_up("memory still growing near the limit")
    });
    let mut load = front::LoadOptions {
        data_model: match args.data_model.unwrap_or(DataModelArg::Ilp32) {
            DataModelArg::Ilp32 => front::c::DataModel::Ilp32,
            DataModelArg::Lp64 => front::c::DataModel::Lp64,
        },
        externs: front::c::Externs {
            strict: args.strict_extern,
            nondet: args.nondet_fn.clone(),
            error: spec.as_ref().map(|s| s.error_function().to_owned()),
        },
        single_blocks: args.blocks == Some(BlocksArg::Single),
        ..args.words.load_options()
    };
    let opts = Options {
        engine: args.engine,
        max_depth: args.max_depth,
        jobs: crate::options::cores::cores(args.jobs),
        cegar,
        ufo_post: args.ufo_post.unwrap_or_default(),
        portfolio: args
            .portfolio
            .as_deref()
            .and_then(configs::portfolio)
            .map_or(configs::PORTFOLIOS[0].name, |p| p.name),
        bmc: args.bmc,
        prep: args.prep.clone(),
        ic3: args.ic3,
        mem_limit: Some(args.mem_limit),
        smt_limit: None,
        smt: args.smt,
        complete_depth: None,
        condition: None,
        automaton: None,
        left_out: Vec::new(),
    };
    // A condition speaks of the system first loaded (a deeper recursion bound is another).
    let mut condition_in = args.condition_in.clone();
    // A C program with recursion is checked at deeper and deeper inlining bounds until an
    // answer decides (see `deepen`); any other model is loaded and checked once. A bound
    // whose inlining is too large is retried one above the largest bound translated, and
    // no larger bound is tried again.
    let (mut translated, mut too_large) = (0, u32::MAX);
    // Every round's budgets are children of `rounds`: a proof by procedure summaries, which
    // runs beside all rounds (`SummarySide`), stops the round under way.
    let rounds = budget.child();
    let (mut summary_side, mut summaries_tried, mut last_round) = (None, false, false);
    // A C program is first executed (`execute`), once, under the default engine choice and
    // unless a certificate is asked for (an execution proves without an invariant).
    let mut executing = opts.engine == EngineKind::Portfolio && !verilog && args.cert.is_none();
    let (model, compiled, mut report, mut executed_path) = loop {
        crate::fault::inject("front");
        let loaded = match verilog {
            true => front::load_verilog(&args.rtl.design(&args.model), &load, &budget)
                .map(|(m, compiled)| (m, Some(compiled))),
            false => front::load_with(&args.model, &load, &budget).map(|m| (m, None)),
        };
        let (mut model, compiled) = match loaded {
            Ok(m) => m,
            Err(front::LoadError::RecursionTooLarge(_))
                if load.recursion.bound > translated + 1 =>
            {
                too_large = too_large.min(load.recursion.bound);
                load.recursion = front::c::Recursion {
                    bound: translated + 1,
                    exceeded_is_error: true,
                    ..load.recursion
                };
                continue;
            }
            // Deeper inlining is out of reach, the summaries are not: the largest bound
            // translated is checked once more, beside them, and that round is the last.
            Err(front::LoadError::RecursionTooLarge(e))
                if summary_side.is_some() && !last_round =>
            {
                crate::log::info(
                    1,
                    format_args!("{e}: the summaries go on beside bound {translated}"),
                );
                last_round = true;
                load.recursion = front::c::Recursion {
                    bound: translated,
                    exceeded_is_error: true,
                    ..load.recursion
                };
                continue;
            }
            Err(e) => return input_error(&e),
        };
        translated = translated.max(load.recursion.bound);
        if let Some(c) = &compiled {
            note_unchecked(c);
        }
        // Kept for the whole run (replay, invariant check, witness), never built on again.
        model.ts.aig.compact();
        if args.words.wl_simplify.is_some() && matches!(model.source, Source::Aiger(_)) {
            // `InputKind` does not tell BTOR2 from AIGER: the format is known once it is read.
            eprintln!("warden: --wl-simplify is read on BTOR2 models only: leave it out");
            return ExitCode::Usage;
        }
        let words = match &model.source {
            Source::Btor2 { model: words, bits }
            | Source::C {
                model: words, bits, ..
            } => Some((words, bits)),
            Source::Aiger(_) => None,
        };
        if opts.engine == EngineKind::Smt
            && (words.is_none() || model.ts.has_liveness() || all_properties)
        {
            eprintln!(
                "warden: --engine smt checks the bad-state properties of BTOR2 models and \
                 C programs all at once: give it a BTOR2 or C file (with --all-properties=false \
                 for a Verilog design), without justice properties"
            );
            return ExitCode::Usage;
        }
        let conditions = args.condition_in.is_some() || args.condition_out.is_some();
        let one_system = !model.ts.has_liveness() && !all_properties;
        // The CFA CEGAR of a C program reads the assumption automaton of an earlier one.
        let cfa_condition =
            matches!(model.source, Source::C { .. }) && opts.engine == EngineKind::Cegar;
        let (condition, automaton) = match cfa_condition {
            false => match read_condition(condition_in.take(), conditions, one_system, &model.ts) {
                Ok(c) => (c.map(Arc::new), None),
                Err(code) => return code,
            },
            true => match read_automaton(condition_in.take(), &model.ts) {
                Ok(a) => (None, a.map(Arc::new).or(opts.automaton.clone())),
                Err(code) => return code,
            },
        };
        if model.ts.has_liveness() {
            return super::live::check_each(&args, &model, &opts, &budget, print_witness);
        }
        if all_properties {
            let compiled = compiled.as_ref();
            return properties::run(&args, &model, compiled, &opts, &budget, print_witness);
        }
        // A C program is executed beside the engines in the first round (`execute`): the
        // first of the two to decide stops the other.
        let execute_now =
            std::mem::take(&mut executing) && matches!(model.source, Source::C { .. });
        // A C program's Horn clauses are tried beside the engines (`HornSide`) until their
        // answer stands: a proof stops the engines, a standing answer of theirs stops Spacer.
        let horn_cfa = horn(&model, &opts, args.cert.is_some());
        if !std::mem::replace(&mut summaries_tried, true) {
            summary_side = SummarySide::start(&model, &opts, args.cert.is_some(), &budget, &rounds);
        }
        let (exec_budget, engines_budget) = (rounds.child(), rounds.child());
        let horn_budget = rounds.child();
        let shown = crate::progress::show(budget.progress());
        let (result, executed, horn_side) = std::thread::scope(|scope| {
            let execution = execute_now.then(|| {
                scope.spawn(|| {
                    let e = execute::execute_program(&model, &args.model, &load, &exec_budget);
                    if e.is_some() {
                        engines_budget.stop();
                        horn_budget.stop();
                    }
                    e
                })
            });
            let horn_side = horn_cfa.map(|cfa| {
                scope.spawn(|| {
                    HornSide::run(cfa, &horn_budget, || {
                        engines_budget.stop();
                        exec_budget.stop();
                    })
                })
            });
            let result = match (&model.source, opts.engine) {
                // The CFA whose encoding `model.ts` is: invariants speak of its locations.
                (
                    Source::C { blocks, bits, .. },
                    EngineKind::Cegar
                    | EngineKind::Impact
                    | EngineKind::Symex
                    | EngineKind::Ufo
                    | EngineKind::Sequence,
                ) => {
                    let opts = Options {
                        automaton: automaton.clone(),
                        ..opts.clone()
                    };
                    check::run_cfa(blocks, &model.ts, bits, &opts, &engines_budget)
                }
                _ => {
                    // The SMT engine checks the word-level model: alone, or as the worker of a
                    // portfolio on a BTOR2 model whose counterexamples it can bring down to the
                    // bit level (no lazy arrays).
                    let smt = match (&model.source, opts.engine) {
                        (_, EngineKind::Smt) => words,
                        (Source::Btor2 { bits, .. }, EngineKind::Portfolio) if !bits.is_lazy() => {
                            words
                        }
                        _ => None,
                    };
                    let smt = smt.map(|(m, b)| Words {
                        model: Arc::new(m.clone()),
                        bits: Arc::new(b.clone()),
                    });
                    // Spacer takes one of the portfolio's jobs.
                    let spacer = horn_side.is_some() || summary_side.is_some();
                    let jobs = opts.jobs.saturating_sub(usize::from(spacer));
                    let opts = Options {
                        complete_depth: complete_depth(&model, args.cert.is_some()),
                        condition: condition.clone(),
                        jobs: jobs.max(1),
                        ..opts.clone()
                    };
                    check::run_with(&model.ts, smt.as_ref(), &opts, &engines_budget)
                }
            };
            let mut result = result;
            if let Ok(r) = &mut result {
                drop_spurious(&model, &mut r.answer, &opts, &engines_budget);
            }
            // An answer that stands ends the execution and Spacer; one that a deeper
            // inlining may overturn (see `deepen`) waits for the execution.
            let stands = match &result {
                Ok(r) => match &r.answer {
                    Answer::Unsat(_) => true,
                    Answer::Sat(_) => !cuts_recursion(&model),
                    Answer::Unknown { .. } => false,
                },
                Err(_) => true,
            };
            if stands {
                exec_budget.stop();
                horn_budget.stop();
            }
            let executed = execution.and_then(|h| h.join().ok().flatten());
            let horn_side = horn_side.map(|h| h.join().expect("Spacer's side does not panic"));
            (result, executed, horn_side)
        });
        drop(shown);
        if let Some(e) = executed {
            break (e.deeper.unwrap_or(model), compiled, e.report, e.found);
        }
        let mut report = match result {
            Ok(r) => r,
            Err(e) => {
                eprintln!("warden: {e}");
                print_verdict("unknown\n");
                return ExitCode::Internal;
            }
        };
        if let Some(side) = horn_side {
            side.join(&mut report);
        }
        let next = deepen(&model, &report.answer, load.recursion);
        // An answer that does not decide gives way to the summaries' proof.
        if next.is_some() && summary_side.as_ref().is_some_and(SummarySide::proved) {
            report.answer = Answer::Unknown { depth: None };
            break (model, compiled, report, None);
        }
        match next {
            // An answer that does not decide, with no time left to go on.
            Some(_) if budget.expired() || last_round => {
                let mut report = report;
                report.answer = Answer::Unknown { depth: None };
                break (model, compiled, report, None);
            }
            Some(mut next) => {
                if next.bound >= too_large && too_large - 1 > load.recursion.bound {
                    next.bound = too_large - 1;
                }
                crate::log::info(
                    1,
                    format_args!(
                        "recursion bound {} {}: checking at bound {}{}",
                        load.recursion.bound,
                        match load.recursion.exceeded_is_error {
                            true => "exceeded on the error path",
                            false => "reaches no error",
                        },
                        next.bound,
                        match next.exceeded_is_error {
                            true => "",
                            false => " for real error paths only",
                        }
                    ),
                );
                load.recursion = next;
            }
            _ => break (model, compiled, report, None),
        }
    };
    if let Some(side) = summary_side {
        side.finish(&mut report);
    }
    let clocks = compiled.as_ref().map_or(&[][..], |c| c.clocks.as_slice());
    if let Some(n) = &report.note {
        crate::log::note(format_args!("{n}"));
    }
    if let (Source::C { cfa, .. }, Answer::Unknown { .. }) = (&model.source, &report.answer) {
        if cfa.cuts_recursion() {
            crate::log::note(format_args!(
                "recursion was inlined up to {} nested calls of a function",
                load.recursion.bound
            ));
        }
    }
    let mut out = String::from(verdict_word(&report.answer));
    out.push('\n');
    // A C program's error path, kept for its SV-COMP witness.
    let mut error_path = None;
    let written = match &report.answer {
        Answer::Sat(trace) => {
            // An executed run is its own replay; a waveform comes from the trace.
            let executed = executed_path.take().filter(|_| args.vcd.is_none());
            let found = match executed
                .map_or_else(|| counterexample(&model, trace, args.vcd.is_some()), Ok)
            {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("warden: {e}");
                    print_verdict("unknown\n");
                    return ExitCode::Internal;
                }
            };
            if print_witness {
                out.push_str(&found.text);
            }
            let title = format!("counterexample, failing at cycle {}:", trace.depth());
            let yw = args.rtl.yw.as_deref();
            let explain = args.rtl.explain(&args.model, clocks);
            if let Err(code) = explain_counterexample(&model, trace, &title, &explain, yw) {
                return code;
            }
            let native = args.witness.as_deref().filter(|_| !svcomp_witness);
            let written =
                write_file(native, found.text.as_bytes()).and_then(|()| match &args.vcd {
                    Some(path) => {
                        write_file(Some(path), found.waveform.unwrap_or_default().as_bytes())
                    }
                    None => Ok(()),
                });
            error_path = found.path;
            written
        }
        Answer::Unsat(proof) => match (&args.cert, proof) {
            (Some(path), Proof::Invariant(inv)) => write_certificate(&model, inv, path),
            // No execution runs when a certificate is asked for.
            _ => Ok(()),
        },
        Answer::Unknown { depth } => {
            match depth {
                Some(k) => crate::log::note(format_args!("no counterexample up to depth {k}")),
                None => crate::log::note(format_args!("no bound completed")),
            }
            Ok(())
        }
    };
    let written = written.and_then(|()| match (&args.witness, svcomp_witness) {
        (Some(path), true) => {
            let found = error_path.as_ref();
            svcomp::write_witness(
                &model,
                &args.model,
                spec.as_ref(),
                &report.answer,
                found,
                path,
            )
        }
        _ => Ok(()),
    });
    let written =
        written.and_then(|()| write_condition(args.condition_out.as_deref(), &report, &model.ts));
    let assumed = match &model.source {
        Source::C { assumed_nondet, .. } => assumed_nondet.as_slice(),
        _ => &[],
    };
    let yosys = compiled.as_ref().map(|c| &c.yosys);
    let json = json(&args.model, &report, assumed, yosys);
    // Every file is written before the verdict is printed: a run past its limit ends once
    // its verdict is out (see `give_up`).
    let written = written.and_then(|()| write_file(args.json.as_deref(), json.as_bytes()));
    if let Err(code) = written {
        return code;
    }
    print_verdict(&out);
    crate::fault::inject("printed");
    if args.stats {
        print_stats(&report);
        for (rule, n) in model.wl_stats.iter().flat_map(|s| s.iter()) {
            eprintln!("c wl_{} = {n}", rule.replace('-', "_"));
        }
    }
    ExitCode::Verdict
}

/// Writes the witness circuit of `inv`: binary AIGER for a `.aig` path, ASCII otherwise.
pub(super) fn write_certificate(
    model: &Model,
    inv: &cert::Invariant,
    path: &Path,
) -> Result<(), ExitCode> {
    let mut circuit = cert::witness_circuit(&model.aiger(), inv);
    // A C program's certificate speaks of its encoding under the options it was read with
    // (the CFA checked, the data model): `warden certify` reads them back from the comment.
    if let Source::C { read_with, .. } = &model.source {
        let line = read_with.witness_line();
        circuit.comments.extend(line.lines().map(str::to_owned));
    }
    write_aiger(&circuit, path)
}
