//! `warden check` on a model with justice properties: every property is answered on its own,
//! in the file's order (the bad-state properties, then the justice properties), with one
//! verdict line each, followed for `sat` by its witness (`b<i>` or, for a lasso, `j<i>`).
//! Each property gets an equal share of the time left when its turn comes.
//!
//! With `--cert`, one witness circuit certifies every property of the model at once (the
//! form Certifaiger checks, see [`crate::live::certificate`]), so it is written only when every
//! property holds: each justice property proved by k-liveness or by l2s with an invariant
//! (k-liveness runs after an l2s proof that has none), each bad-state property by an
//! invariant. It is checked ([`certificate::certify`]) before it is written.

use super::counterexample::counterexample;
use super::files::{write_aiger, write_file};
use super::stdout::print_verdict;
use super::CheckArgs;
use crate::cert::{self, Invariant};
use crate::check::{self, Answer, EngineKind, Options, Proof};
use crate::error::{ExitCode, InternalError};
use crate::front::aiger;
use crate::front::{btor2, Model, Source};
use crate::live::{self, certificate, LiveAnswer, LiveProof};
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
    let certify = args.cert.is_some();
    let (mut invariants, mut ranks, mut all_unsat) = (Vec::new(), Vec::new(), true);
    let total = ts.bad.len() + ts.justice.len();
    let (mut out, mut witnesses) = (String::new(), String::new());
    budget.progress().batch(total);
    // With --cert, a fifth of the time is kept for building and checking the certificate,
    // which comes after every property is answered: a proof found late is still certified.
    let reserve = budget.remaining().filter(|_| certify).map(|t| t / 5);
    for p in 0..total {
        let share = match budget.remaining() {
            Some(left) => {
                let left = left.saturating_sub(reserve.unwrap_or_default());
                budget.child_for(left / (total - p) as u32)
            }
            None => budget.child(),
        };
        let shown = crate::progress::show(budget.progress());
        let answered = match p.checked_sub(ts.bad.len()) {
            None => safety(model, p, opts, &share).map(|(v, inv)| {
                invariants.extend(inv);
                v
            }),
            Some(j) => justice(model, j, opts, &share, certify).map(|(v, proof)| {
                ranks.extend(proof);
                v
            }),
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
        all_unsat &= verdict == "unsat";
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
    // The certificate is written before the verdict is printed: a run past its limit ends
    // once its verdict is out (see `give_up`).
    if let Some(path) = &args.cert {
        let proved = ranks.len() == ts.justice.len() && invariants.len() == ts.bad.len();
        match proved {
            true => {
                if let Err(code) = write_certificate(model, &ranks, &invariants, path, budget) {
                    return code;
                }
            }
            _ if !all_unsat => eprintln!("warden: no certificate: not every property holds"),
            _ => eprintln!(
                "warden: no certificate: a property was proved without an invariant (a \
                 k-induction or bounded proof, or an l2s proof whose invariant has auxiliary \
                 latches), and k-liveness did not prove it in time"
            ),
        }
    }
    print_verdict(&out);
    ExitCode::Verdict
}

/// Builds the liveness certificate, checks it as read back from its bytes, and writes it.
fn write_certificate(
    model: &Model,
    proofs: &[LiveProof],
    invariants: &[Invariant],
    path: &std::path::Path,
    budget: &Budget,
) -> Result<(), ExitCode> {
    let file = model.aiger();
    let circuit =
        certificate::witness_circuit(&model.ts, &file, proofs, invariants).map_err(|e| {
            eprintln!("warden: no certificate: {e}");
            ExitCode::Internal
        })?;
    let mut bytes = Vec::new();
    aiger::write_binary(&circuit, &mut bytes).expect("writing to memory cannot fail");
    let read = aiger::parse(&bytes).map_err(|e| {
        eprintln!("warden: internal error: the certificate does not parse: {e}");
        ExitCode::Internal
    })?;
    match certificate::certify(&model.ts, &file, &read, &budget.child()) {
        Ok(()) => {}
        // Out of time before the check ended: the certificate is not claimed.
        Err(cert::CertifyError::Interrupted) => {
            eprintln!("warden: no certificate: its check ran out of time");
            return Ok(());
        }
        Err(e) => {
            eprintln!("warden: internal error: the certificate fails its check: {e}");
            return Err(ExitCode::Internal);
        }
    }
    write_aiger(&circuit, path)
}

/// A verdict word and, for `sat`, the witness text.
type Verdict = (&'static str, Option<String>);

/// Bad-state property `bad` alone, with its invariant when it holds by one.
fn safety(
    model: &Model,
    bad: usize,
    opts: &Options,
    budget: &Budget,
) -> Result<(Verdict, Option<Invariant>), InternalError> {
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
        Answer::Sat(trace) => (
            ("sat", Some(counterexample(model, &trace, false)?.text)),
            None,
        ),
        Answer::Unsat(Proof::Invariant(inv)) => (("unsat", None), Some(inv)),
        Answer::Unsat(_) => (("unsat", None), None),
        Answer::Unknown { .. } => (("unknown", None), None),
    })
}

/// Justice property `j`: its lasso in the model's witness format, or when it holds and
/// `prove` asks for it, a proof that makes a certificate (when l2s proves it without one, the
/// portfolio keeps k-liveness running; with an l2s engine, k-liveness runs on what is left of
/// `budget` afterwards).
fn justice(
    model: &Model,
    j: usize,
    opts: &Options,
    budget: &Budget,
    prove: bool,
) -> Result<(Verdict, Option<LiveProof>), InternalError> {
    let mut report = match prove {
        true => live::check_for_certificate(&model.ts, j, opts, budget)?,
        false => live::check(&model.ts, j, opts, budget)?,
    };
    if prove && matches!(report.answer, LiveAnswer::Unsat { proof: None }) {
        let klive = Options {
            engine: EngineKind::Klive,
            ..opts.clone()
        };
        let by_klive = live::check(&model.ts, j, &klive, budget)?;
        if let LiveAnswer::Unsat { proof: Some(_) } = by_klive.answer {
            report.answer = by_klive.answer;
            report.engine = format!("{} then klive", report.engine);
        }
    }
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
        LiveAnswer::Unsat { .. } => ("unsat", None),
        LiveAnswer::Unknown => ("unknown", None),
    };
    crate::log::note(format_args!(
        "j{j}: {word} ({}, {:.2} s{})",
        report.engine,
        report.time.as_secs_f64(),
        witness.as_ref().map_or("", |w| w.1.as_str())
    ));
    let proof = match report.answer {
        LiveAnswer::Unsat { proof } => proof.map(|p| *p),
        _ => None,
    };
    Ok(((word, witness.map(|w| w.0)), proof))
}
