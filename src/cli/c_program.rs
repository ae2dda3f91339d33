//! What a run on a C program adds to a check: the side checks that decide alone (BMC up to
//! the longest error path, Spacer on the Horn clauses) and the deepening of the recursion
//! bound when an answer depends on it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::counterexample::counterexample;
use crate::cfa::{self, Cfa};
use crate::check::{Answer, EngineKind, Options, Proof, Report};
use crate::engine::chc::{self, Horn, Spacer};
use crate::error::InternalError;
use crate::front::{self, Model, Source};
use crate::Budget;

/// The bound on counterexamples of a C program none of whose paths to the error loops
/// ([`crate::cfa::depth`]), unless a certificate is asked for (a bounded proof has none).
pub(super) fn complete_depth(model: &Model, certificate: bool) -> Option<usize> {
    match &model.source {
        Source::C { blocks, .. } if !certificate => crate::cfa::depth::longest_error_path(blocks),
        _ => None,
    }
}

/// The CFA whose Horn clauses a portfolio's run on C program `model` tries beside its
/// workers ([`HornSide`]), unless a certificate is asked for (the clauses' model is no
/// invariant of the bit-level system), BMC to the longest error path decides the program
/// ([`complete_depth`]), or the program's recursion is cut: the inlined CFA gives Spacer no
/// procedure summaries (it decided none of eval-c's recursive tasks); the program's
/// summaries go to [`SummarySide`] instead.
pub(super) fn horn<'m>(model: &'m Model, opts: &Options, certificate: bool) -> Option<&'m Cfa> {
    match &model.source {
        Source::C { blocks, cfa, .. }
            if !certificate
                && opts.engine == EngineKind::Portfolio
                && !cfa.cuts_recursion()
                && complete_depth(model, certificate).is_none() =>
        {
            Some(blocks)
        }
        _ => None,
    }
}

/// Spacer on the Horn clauses of a C program's CFA ([`crate::engine::chc`]), run beside
/// the engines for as long as the answer they give may still be overturned: a counterexample
/// of the lazy array abstraction is checked, and the exact runs searched, while the clauses
/// are still tried.
pub(super) struct HornSide {
    horn: Horn,
    outcome: chc::Outcome,
}

impl HornSide {
    /// Spacer's attempt at `cfa` within `budget`; `on_proof` is called at once if it
    /// proves the program.
    pub(super) fn run(cfa: &Cfa, budget: &Budget, on_proof: impl FnOnce()) -> HornSide {
        let mut horn = Horn::new(Spacer::find(std::env::current_exe().ok()));
        let outcome = horn.prove(cfa, budget);
        match &outcome {
            chc::Outcome::Proved => on_proof(),
            chc::Outcome::Unknown(why) => crate::log::info(1, format_args!("chc: {why}")),
        }
        HornSide { horn, outcome }
    }

    /// `report` with this side's counters, and its proof if it found one.
    pub(super) fn join(self, report: &mut Report) {
        report.stats.extend(self.horn.stats());
        if self.outcome == chc::Outcome::Proved {
            report.answer = Answer::Unsat(Proof::Horn {
                clauses: self.horn.clauses(),
            });
            report.engine = "chc";
        }
    }
}

/// Spacer on the procedure summaries of a recursive C program ([`Source::C`]'s
/// `summarized`), beside every round of the recursion deepening ([`deepen`]): its proof holds
/// at every depth, so it ends the run (it stops `rounds`, the parent of each round's
/// budgets), and a round's answer that stands ends it ([`SummarySide::finish`]).
pub(super) struct SummarySide {
    /// Taken by [`SummarySide::finish`]; a side dropped without it (a run that ends early)
    /// is stopped and joined, so Spacer's process never outlives the run.
    thread: Option<std::thread::JoinHandle<HornSide>>,
    budget: Budget,
    proved: Arc<AtomicBool>,
}

impl SummarySide {
    /// Starts it for `model` when the portfolio runs without a certificate (the clauses'
    /// model is no invariant of the bit-level system) and the program has summaries.
    pub(super) fn start(
        model: &Model,
        opts: &Options,
        certificate: bool,
        budget: &Budget,
        rounds: &Budget,
    ) -> Option<SummarySide> {
        let Source::C {
            summarized: Some(cfa),
            ..
        } = &model.source
        else {
            return None;
        };
        if certificate || opts.engine != EngineKind::Portfolio {
            return None;
        }
        let (cfa, own, rounds) = (cfa.clone(), budget.child(), rounds.clone());
        let proved = Arc::new(AtomicBool::new(false));
        let (flag, side_budget) = (proved.clone(), own.clone());
        let thread = std::thread::spawn(move || {
            HornSide::run(&cfa, &side_budget, || {
                flag.store(true, Ordering::SeqCst);
                rounds.stop();
            })
        });
        Some(SummarySide {
            thread: Some(thread),
            budget: own,
            proved,
        })
    }

    /// Whether its proof is in.
    pub(super) fn proved(&self) -> bool {
        self.proved.load(Ordering::SeqCst)
    }

    /// `report`, the deepening's last, with this side's counters, and with its proof unless
    /// the report has a counterexample (replayed on the program: a proof beside one would
    /// mean the clauses miss a run, which is reported). Stops the side first when the report
    /// decides; otherwise waits for it (it has the run's deadline).
    pub(super) fn finish(mut self, report: &mut Report) {
        if !matches!(report.answer, Answer::Unknown { .. }) {
            self.budget.stop();
        }
        let thread = self.thread.take().expect("finished once");
        let side = thread.join().expect("Spacer's side does not panic");
        match report.answer {
            Answer::Sat(_) => {
                if side.outcome == chc::Outcome::Proved {
                    eprintln!(
                        "warden: internal error: the procedure summaries prove a program with \
                         a replayed counterexample; the counterexample stands"
                    );
                }
                report.stats.extend(side.horn.stats());
            }
            _ => side.join(report),
        }
    }
}

impl Drop for SummarySide {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.budget.stop();
            let _ = thread.join();
        }
    }
}

/// Whether `model` is a C program whose recursion was cut at the inlining bound.
pub(super) fn cuts_recursion(model: &Model) -> bool {
    matches!(&model.source, Source::C { cfa, .. } if cfa.cuts_recursion())
}

/// What to check next after `answer` on `model` read with recursion inlined as `recursion`
/// says, if the answer does not decide (see [`front::c::Recursion`]): an error path through a
/// call beyond the bound is checked again with such calls cut (does a real error path exist
/// within the bound?), and no real error within the bound is checked again at a bound half as
/// large again (1, 2, 3, 5, 8, 12, ...: not doubled, as a function that calls itself twice
/// doubles the CFA with every level) with such calls leading to the error. `None`: the answer
/// stands (a real error path, `unsat` with those calls leading to the error, `unknown`, or a
/// program without recursion).
pub(super) fn deepen(
    model: &Model,
    answer: &Answer,
    recursion: front::c::Recursion,
) -> Option<front::c::Recursion> {
    if !cuts_recursion(model) {
        return None;
    }
    match answer {
        Answer::Sat(trace) => match counterexample(model, trace, false) {
            Err(InternalError::PathReplay {
                source: cfa::interp::RunError::BoundExceeded,
                ..
            }) => Some(front::c::Recursion {
                exceeded_is_error: false,
                ..recursion
            }),
            _ => None,
        },
        Answer::Unsat(_) if !recursion.exceeded_is_error => Some(front::c::Recursion {
            bound: recursion.bound.saturating_add(recursion.bound.div_ceil(2)),
            exceeded_is_error: true,
            ..recursion
        }),
        _ => None,
    }
}
