//! The SMT engine as a portfolio worker ([`super::super::Engine`]): the portfolio's workers
//! check the preprocessed bit-level system, while this one checks the word-level model the
//! system was blasted from, so its counterexample is brought down the same way up: replayed
//! on the model, lowered to the blasted system ([`Lowering`]), projected onto
//! the preprocessed one ([`Restore::lower_trace`]) and replayed there before it is answered.
//! A trace that does not make it through is `unknown` (never expected: each step is exact).
//!
//! Its niche is the model whose blasting is large while its words are small (the marlann
//! designs: 793 k AND gates blasted, solved by Z3 in 0.7 s). Elsewhere the bit-level engines
//! are faster, so in a portfolio it gets a cap on its solving time and then leaves its slot
//! to the others.

use std::sync::Arc;
use std::time::Duration;

use super::{Outcome, SmtBmc, SmtOptions};
use crate::cert;
use crate::engine::kind::k_copy;
use crate::engine::{Engine, Stats, Verdict};
use crate::ts::{replay, Restore, TransitionSystem};
use crate::wl::{BitMap, Lowering, Model};
use crate::Budget;

/// A word-level model beside the system it was blasted into (the portfolio's view of it).
#[derive(Clone)]
pub struct Words {
    pub model: Arc<Model>,
    pub bits: Arc<BitMap>,
}

/// What the worker needs of one run: the model, where its bits are in the blasted system,
/// and that system's reduction.
#[derive(Clone)]
pub struct WordContext {
    pub words: Words,
    pub lowering: Arc<Lowering>,
    pub restore: Restore,
}

/// The SMT BMC engine on the word-level model of the system the portfolio checks.
pub struct WordWorker {
    context: WordContext,
    smt: SmtBmc,
}

impl WordWorker {
    /// Checks up to `max_depth` transitions, in at most `solve_limit` of translating and
    /// solving, configured by `opts`.
    pub fn new(
        context: WordContext,
        max_depth: Option<usize>,
        solve_limit: Option<Duration>,
        opts: SmtOptions,
    ) -> WordWorker {
        WordWorker {
            context,
            smt: SmtBmc::new(max_depth)
                .with_solve_limit(solve_limit)
                .with_options(opts),
        }
    }
}

impl Engine for WordWorker {
    fn name(&self) -> &'static str {
        "smt"
    }

    fn check(&mut self, reduced: &TransitionSystem, budget: &Budget) -> Verdict {
        let WordContext {
            words,
            lowering,
            restore,
        } = &self.context;
        match self.smt.check(&words.model, budget) {
            Outcome::Safe { k } => {
                // The certificate of the bit-level k-induction, checked here: an engine's
                // invariant that fails the final check is an internal error.
                let inv = k_copy(reduced, k, &[]);
                match cert::check(reduced, &inv, budget) {
                    Ok(()) => Verdict::Safe(inv),
                    Err(e) => {
                        crate::log::info(
                            1,
                            format_args!(
                                "smt: the words are {k}-inductive, the checked system not ({e})"
                            ),
                        );
                        Verdict::Unknown { depth: Some(k - 1) }
                    }
                }
            }
            Outcome::Unknown { depth, note } => {
                if let Some(n) = note {
                    crate::log::info(1, format_args!("smt: {n}"));
                }
                Verdict::Unknown { depth }
            }
            Outcome::Unsafe(t) => {
                let lowered = (crate::wl::replay(&words.model, &t).ok())
                    .and_then(|_| lowering.lower(&words.model, &words.bits, &t).ok())
                    .flatten()
                    .and_then(|bits| restore.lower_trace(&bits))
                    .filter(|r| replay(reduced, r).is_ok());
                match lowered {
                    Some(r) => Verdict::Unsafe(r),
                    None => {
                        crate::log::info(
                            1,
                            format_args!(
                                "smt: a counterexample of the model that does not carry over to the \
                                 checked system (lazy arrays?)"
                            ),
                        );
                        Verdict::Unknown { depth: None }
                    }
                }
            }
        }
    }

    fn stats(&self) -> Stats {
        self.smt.stats()
    }
}
