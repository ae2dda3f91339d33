//! `warden check`: load, run the engines, print the verdict and write witness, certificate,
//! statistics and JSON.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::files::{write_aiger, write_file};
use super::report::{json, print_stats, verdict_word};
use super::stdout::{give_up, input_error, print_verdict, VERDICT_DUE};
use super::{BlocksArg, CheckArgs, DataModelArg};
use crate::cert;
use crate::cfa;
use crate::check::{self, Answer, EngineKind, Options};
use crate::engine::configs;
use crate::error::{ExitCode, InternalError};
use crate::front::{self, btor2, InputKind, Model, Source};
use crate::options;
use crate::ts::Trace;
use crate::witness;
use crate::wl;
use crate::Budget;

/// How long a run may go on after its time limit, a signal or the memory limit before the
/// overrun watchdog prints `unknown` and ends the process.
const OVERRUN_GRACE: Duration = Duration::from_secs(2);

pub(super) fn check(args: CheckArgs) -> ExitCode {
    run_check(args, true)
}

/// One `check` run; `print_witness` puts the witness on stdout after the verdict line.
pub(super) fn run_check(args: CheckArgs, print_witness: bool) -> ExitCode {
    crate::log::set_level(args.verbose);
    let input = InputKind::of(&args.model);
    let cegar = match options::check(args.engine, input, &args.cegar, &args.given()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("warden: error: {e}");
            return ExitCode::Usage;
        }
    };
    VERDICT_DUE.store(true, Ordering::SeqCst);
    let budget = Budget::new(args.timeout.map(Duration::from_secs_f64));
    crate::signals::stop_on_signals(&budget);
    crate::budget::on_overrun(&budget, OVERRUN_GRACE, || {
        give_up(format_args!(
            "still running {} s after the limit or stop request",
            OVERRUN_GRACE.as_secs()
        ))
    });
    crate::budget::watch_memory(&budget, args.mem_limit, || {
        give_up(format_args!("memory still growing past the limit"))
    });
    let load = front::LoadOptions {
        data_model: match args.data_model.unwrap_or(DataModelArg::Ilp32) {
            DataModelArg::Ilp32 => front::c::DataModel::Ilp32,
            DataModelArg::Lp64 => front::c::DataModel::Lp64,
        },
        externs: front::c::Externs {
            strict: args.strict_extern,
            nondet: args.nondet_fn.clone(),
        },
        single_blocks: args.blocks == Some(BlocksArg::Single),
        ..args.words.load_options()
    };
    crate::fault::inject("front");
    let mut model = match front::load_with(&args.model, &load, &budget) {
        Ok(m) => m,
        Err(e) => return input_error(&e),
    };
    // Kept for the whole run (replay, invariant check, witness), never built on again.
    model.ts.aig.compact();
    if args.words.wl_simplify.is_some() && matches!(model.source, Source::Aiger(_)) {
        // `InputKind` does not tell BTOR2 from AIGER: the format is known once it is read.
        eprintln!("warden: error: --wl-simplify is read on BTOR2 models only: leave it out");
        return ExitCode::Usage;
    }
    let opts = Options {
        engine: args.engine,
        max_depth: args.max_depth,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        cegar,
        portfolio: args
            .portfolio
            .as_deref()
            .and_then(configs::portfolio)
            .map_or(configs::PORTFOLIOS[0].name, |p| p.name),
        bmc: args.bmc,
        prep: args.prep.clone(),
        ic3: args.ic3,
        mem_limit: Some(args.mem_limit),
    };
    if model.ts.has_liveness() {
        return super::live::check_each(&args, &model, &opts, &budget, print_witness);
    }
    let result = match (&model.source, opts.engine) {
        // The CFA whose encoding `model.ts` is: invariants speak of its locations.
        (Source::C { blocks, bits, .. }, EngineKind::Cegar) => {
            check::run_cfa(blocks, &model.ts, bits, &opts, &budget)
        }
        _ => check::run(&model.ts, &opts, &budget),
    };
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("warden: {e}");
            print_verdict("unknown\n");
            return ExitCode::Internal;
        }
    };
    if let Some(n) = &report.note {
        eprintln!("warden: {n}");
    }
    let mut out = String::from(verdict_word(&report.answer));
    out.push('\n');
    let written = match &report.answer {
        Answer::Sat(trace) => {
            let (text, vcd) = match counterexample(&model, trace, args.vcd.is_some()) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("warden: {e}");
                    print_verdict("unknown\n");
                    return ExitCode::Internal;
                }
            };
            if print_witness {
                out.push_str(&text);
            }
            write_file(args.witness.as_deref(), text.as_bytes()).and_then(|()| match &args.vcd {
                Some(path) => write_file(Some(path), vcd.unwrap_or_default().as_bytes()),
                None => Ok(()),
            })
        }
        Answer::Unsat(inv) => match &args.cert {
            Some(path) => write_certificate(&model, inv, path),
            None => Ok(()),
        },
        Answer::Unknown { depth } => {
            match depth {
                Some(k) => eprintln!("warden: no counterexample up to depth {k}"),
                None => eprintln!("warden: no bound completed"),
            }
            Ok(())
        }
    };
    if let Err(code) = written {
        return code;
    }
    print_verdict(&out);
    if args.stats {
        print_stats(&report);
        for (rule, n) in model.wl_stats.iter().flat_map(|s| s.iter()) {
            eprintln!("c wl_{} = {n}", rule.replace('-', "_"));
        }
    }
    let assumed = match &model.source {
        Source::C { assumed_nondet, .. } => assumed_nondet.as_slice(),
        _ => &[],
    };
    let json = json(&args.model, &report, assumed);
    match write_file(args.json.as_deref(), json.as_bytes()) {
        Ok(()) => ExitCode::Verdict,
        Err(code) => code,
    }
}

/// The witness text of a counterexample in the model's own format, and its waveform when
/// `vcd` is asked for. A BTOR2 counterexample is lifted to words and replayed by the
/// word-level simulator (independent of the blaster) before it is printed.
pub(super) fn counterexample(
    model: &Model,
    trace: &Trace,
    vcd: bool,
) -> Result<(String, Option<String>), InternalError> {
    match &model.source {
        Source::Aiger(_) => Ok((
            witness::aiger::write(trace),
            vcd.then(|| witness::vcd::write(&model.ts, trace)),
        )),
        Source::Btor2 { model: words, bits } => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            wl::replay(words, &lifted)?;
            let waveform = match vcd {
                true => Some(witness::vcd::write_words(words, &lifted)?),
                false => None,
            };
            Ok((btor2::write_witness(words, &lifted), waveform))
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
            let text = read_with.witness_line() + &cfa::path::write(program, &path);
            Ok((text, waveform))
        }
    }
}

/// Writes the witness circuit of `inv`: binary AIGER for a `.aig` path, ASCII otherwise.
pub(super) fn write_certificate(
    model: &Model,
    inv: &cert::Invariant,
    path: &Path,
) -> Result<(), ExitCode> {
    let circuit = cert::witness_circuit(&model.aiger(), inv);
    write_aiger(&circuit, path)
}
