//! Liveness: the justice properties of AIGER 1.9 (`J`, with the fairness constraints `F`) and
//! BTOR2 (`justice`, `fair`).
//!
//! Semantics: justice property `j` (a set of literals) *fails* when some infinite path (from
//! an initial state, every invariant constraint holding in every frame) visits every literal
//! of `j` and every fairness constraint infinitely often; warden then answers `sat` with a
//! lasso (a stem and a loop that closes, [`lasso`]). It *holds* (`unsat`) when no such path
//! exists. Each justice property is answered on its own.
//!
//! Two methods, both reductions to safety whose answers are verified like every safety
//! answer ([`crate::check::run`]: traces replayed, invariants checked for initiation,
//! consecution and safety with a fresh solver) and then mapped back:
//! - liveness to safety ([`l2s`]), checked by any safety engine (`--engine bmc|kind|ic3|imc|
//!   cegar`; BMC on it is bounded lasso search). A counterexample becomes a lasso of the
//!   original system, which [`lasso::check`] replays on it before it is printed. An `unsat`
//!   carries an inductive invariant of the l2s system that excludes its bad state; since that
//!   bad state is reachable exactly when a fair lasso exists and a finite-state system with a
//!   fair path has a fair lasso, the checked invariant proves the justice property;
//! - k-liveness ([`klive`], `--engine klive`): proves properties (IC3 on a counter of
//!   acceptance visits, the invariant checked the same way), never refutes them.
//!
//! The portfolio runs both at once on each justice property and takes the first definite
//! answer.
//!
//! Layer: liveness; imports [`crate::check`] (each reduction is a safety run), [`crate::cert`] (a
//! liveness certificate embeds safety's) and below; only the command line sits above it.

pub mod certificate;
pub mod klive;
pub mod l2s;
pub mod lasso;
mod rank;

use std::time::{Duration, Instant};

use crate::cert::Invariant;
use crate::check::{self, Answer, EngineKind, Options, Proof};
use crate::error::InternalError;
use crate::ts::{replay, Trace, TransitionSystem};
use crate::Budget;

/// A lasso of the original system: `trace` (with `trace.bad` the justice property's index)
/// returns after its last frame to the state of frame `loop_start`.
#[derive(Clone, Debug)]
pub struct Lasso {
    pub trace: Trace,
    pub loop_start: usize,
}

/// A verified answer about one justice property.
#[derive(Clone, Debug)]
pub enum LiveAnswer {
    /// The property fails: the lasso replayed on the original system.
    Sat(Lasso),
    /// The property holds: an invariant of the reduced safety system passed its check.
    /// `proof` keeps it when it makes a certificate ([`certificate`]): a k-liveness
    /// proof, or an l2s proof of [`l2s::certifiable`] (asked for by [`check_for_certificate`]).
    Unsat {
        proof: Option<Box<LiveProof>>,
    },
    Unknown,
}

/// A k-liveness proof: the `k`-th counter system ([`klive::counter_system`]) is safe, by
/// `invariant` (over that system, checked).
#[derive(Clone, Debug)]
pub struct KliveProof {
    pub k: u64,
    pub invariant: Invariant,
}

/// A proof of one justice property from which a certificate is made.
#[derive(Clone, Debug)]
pub enum LiveProof {
    Klive(KliveProof),
    /// A checked invariant of [`l2s::certifiable`] of the property, without auxiliary latches.
    L2s(Invariant),
}

/// The answer, the method that gave it and the time it took.
#[derive(Clone, Debug)]
pub struct LiveReport {
    pub answer: LiveAnswer,
    /// `l2s+ENGINE` or `klive`.
    pub engine: String,
    pub time: Duration,
}

/// Checks justice property `justice` of `ts` with the method of `opts.engine`: k-liveness
/// for `klive`, both methods in parallel for the portfolio, l2s with that engine otherwise.
pub fn check(
    ts: &TransitionSystem,
    justice: usize,
    opts: &Options,
    budget: &Budget,
) -> Result<LiveReport, InternalError> {
    answer(ts, justice, opts, budget, false)
}

/// [`check`] for a certificate: l2s checks [`l2s::certifiable`], and the portfolio keeps
/// k-liveness running after an l2s proof that makes no certificate ([`certificate`]).
pub fn check_for_certificate(
    ts: &TransitionSystem,
    justice: usize,
    opts: &Options,
    budget: &Budget,
) -> Result<LiveReport, InternalError> {
    answer(ts, justice, opts, budget, true)
}

fn answer(
    ts: &TransitionSystem,
    justice: usize,
    opts: &Options,
    budget: &Budget,
    for_cert: bool,
) -> Result<LiveReport, InternalError> {
    let start = Instant::now();
    let (answer, engine) = match opts.engine {
        EngineKind::Klive => (via_klive(ts, justice, opts, budget)?, "klive".to_owned()),
        EngineKind::Portfolio => race(ts, justice, opts, budget, for_cert)?,
        e => (via_l2s(ts, justice, opts, budget, for_cert)?, l2s_name(e)),
    };
    Ok(LiveReport {
        answer,
        engine,
        time: start.elapsed(),
    })
}

fn l2s_name(engine: EngineKind) -> String {
    format!("l2s+{}", engine.name())
}

/// The liveness-to-safety method with the safety engine of `opts`; `for_cert` checks
/// [`l2s::certifiable`] and keeps its invariant when it has no auxiliary latches (those of
/// k-induction stand for past states, which the certificate's rank cannot evaluate).
fn via_l2s(
    ts: &TransitionSystem,
    justice: usize,
    opts: &Options,
    budget: &Budget,
    for_cert: bool,
) -> Result<LiveAnswer, InternalError> {
    let system = match for_cert {
        true => l2s::certifiable(ts, justice),
        false => l2s::l2s(ts, justice),
    };
    let report = check::run(&system, opts, budget)?;
    let broken = |reason: String| InternalError::TraceDoesNotReplay {
        engine: report.engine,
        reason,
    };
    Ok(match &report.answer {
        Answer::Sat(t) => {
            // `check::run` replayed `t` on `system`; its first bad frame closes the loop.
            let frame = replay(&system, t).map_err(|e| broken(e.to_string()))?;
            let trace = l2s::lasso(ts, justice, t, frame);
            let loop_start = lasso::check(ts, &trace).map_err(|e| broken(e.to_string()))?;
            LiveAnswer::Sat(Lasso { trace, loop_start })
        }
        Answer::Unsat(Proof::Invariant(inv)) if for_cert && inv.aux_latches(&system) == 0 => {
            LiveAnswer::Unsat {
                proof: Some(Box::new(LiveProof::L2s(inv.clone()))),
            }
        }
        Answer::Unsat(_) => LiveAnswer::Unsat { proof: None },
        Answer::Unknown { .. } => LiveAnswer::Unknown,
    })
}

fn via_klive(
    ts: &TransitionSystem,
    justice: usize,
    opts: &Options,
    budget: &Budget,
) -> Result<LiveAnswer, InternalError> {
    Ok(match klive::check(ts, justice, opts, budget)? {
        klive::Outcome::Holds { k, invariant } => {
            crate::log::info(1, format_args!("klive: j{justice} holds with k = {k}"));
            LiveAnswer::Unsat {
                proof: Some(Box::new(LiveProof::Klive(KliveProof {
                    k,
                    invariant: *invariant,
                }))),
            }
        }
        klive::Outcome::Unknown { .. } => LiveAnswer::Unknown,
    })
}

/// The portfolio on a justice property: l2s with the safety portfolio of `opts` (whose BMC
/// finds lassos early) and k-liveness in parallel; the first definite answer stops the other,
/// but with `for_cert` an l2s proof that makes no certificate does not stop k-liveness, and
/// k-liveness takes one of the portfolio's `jobs`.
fn race(
    ts: &TransitionSystem,
    justice: usize,
    opts: &Options,
    budget: &Budget,
    for_cert: bool,
) -> Result<(LiveAnswer, String), InternalError> {
    let (l2s_budget, klive_budget) = (budget.child(), budget.child());
    // For a certificate, k-liveness gets a core of its own: the l2s portfolio runs on the
    // others. Beside every core's worth of l2s workers it got only a share of one, and under
    // load the l2s proof (often k-induction's, which makes no certificate) came first and
    // k-liveness's too late.
    let l2s_opts = Options {
        jobs: match for_cert {
            true => opts.jobs.saturating_sub(1).max(1),
            false => opts.jobs,
        },
        ..opts.clone()
    };
    let definite = |a: &Result<LiveAnswer, InternalError>| !matches!(a, Ok(LiveAnswer::Unknown));
    let (by_l2s, by_klive) = std::thread::scope(|s| {
        let klive = s.spawn(|| {
            let a = via_klive(ts, justice, opts, &klive_budget);
            if definite(&a) {
                l2s_budget.stop();
            }
            a
        });
        let a = via_l2s(ts, justice, &l2s_opts, &l2s_budget, for_cert);
        let uncertified = matches!(a, Ok(LiveAnswer::Unsat { proof: None }));
        if definite(&a) && !(for_cert && uncertified) {
            klive_budget.stop();
        }
        let b = klive
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (a, b)
    });
    match (by_l2s?, by_klive?) {
        // Both were verified, so this cannot happen short of a bug in a check.
        (LiveAnswer::Sat(_), LiveAnswer::Unsat { .. }) => Err(InternalError::InvalidInvariant {
            engine: "klive",
            reason: "a replayed lasso contradicts its proof".into(),
        }),
        // k-liveness's proof is preferred when l2s has none: it makes a certificate.
        (LiveAnswer::Unknown | LiveAnswer::Unsat { proof: None }, b @ LiveAnswer::Unsat { .. }) => {
            Ok((b, "klive".to_owned()))
        }
        (a, _) => Ok((a, l2s_name(EngineKind::Portfolio))),
    }
}

#[cfg(test)]
pub(crate) mod tests;
