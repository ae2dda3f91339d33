//! What a run on a C program adds to a check: the side checks that decide alone (BMC up to
//! the longest error path, Spacer on the Horn clauses) and the deepening of the recursion
//! bound when an answer depends on it.

use super::run::counterexample;
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
/// ([`complete_depth`]), or the program's recursion is cut: the clauses see the inlined CFA,
/// which gives Spacer no procedure summaries (it decided none of eval-c's recursive tasks),
/// so the core goes to the engines.
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
