//! k-induction with invariant injection (seed 001: "k-induction with continuously refined
//! auxiliary invariants").
//!
//! Two incremental solvers deepen side by side. The *base case* is BMC from the initial states
//! ([`crate::engine::bmc::Bounded`]); the *step case* ([`step::Step`]) starts from an arbitrary
//! state and asks whether `k` consecutive good states can be followed by a bad one. Depth `k`
//! runs the step case first, then the base case at frame `k`: when the step case fails to
//! find such a path, the base case has already shown frames `0..k` (that is, `0..=k-1`) clean
//! from the initial states, so every reachable state is good (a reachable state at depth
//! `d < k` is covered by the base case, one at depth `d >= k` ends a path whose `k`
//! predecessors are good, so the step case covers it). Between proofs the base case deepens
//! on its own in windows of frames, one query each, sized as `--bmc-dyn` sizes BMC's: a
//! window doubles while its query takes under a quarter second of the thread's CPU, up to
//! [`WINDOW_GATES`] gates of unrolling. A counterexample ends at the first frame of its
//! window that is bad in the model, so it need not be the shortest.
//!
//! The step case is strengthened in two ways:
//! - proved lemmas from a [`LemmaPool`] (invariant injection): a generator thread
//!   ([`generator`]) and, in a portfolio, IC3 publish clauses over the latches; every one is
//!   added to every frame of the step solver, and one that arrives while the step case fails
//!   triggers the step check again at once, before the search deepens;
//! - simple-path constraints, added lazily for the pairs of equal states a step
//!   counterexample shows (see [`step`]). They make the method complete for finite systems,
//!   but a proof that needs them has no certificate of the k-copy shape (a window of the last
//!   `k` states is not simple on a reachable loop), so such a proof is only logged and counted
//!   and the search goes on deepening until a proof without them, or a counterexample, or
//!   the end of the budget. Every `Safe` answer carries the k-copy invariant of
//!   [`certificate`].

mod certificate;
pub use certificate::k_copy;
mod generator;
mod repair;
mod simulation;
mod step;

use std::thread;
use std::time::{Duration, Instant};

use super::bmc::{frames_within, next_step, Bounded};
use super::lemmas::LemmaPool;
use super::{Engine, Stats, Verdict};
use crate::progress::Measure;
use crate::sat::SatResult;
use crate::timeslice::thread_cpu;
use crate::ts::TransitionSystem;
use crate::Budget;
use step::{Step, StepResult};

/// The base case's time for each unit of the step case's: the base case serves both answers
/// (a counterexample, and the clean frames every proof at depth `k` needs), the step case
/// only proofs, which in a portfolio IC3 mostly finds first.
const BASE_SHARE: u32 = 2;

/// The most AND gates one base-case window may add to the unrolling: a window past a
/// shallow bug costs more than its frames one by one, the more so the larger the system.
/// Measured with k-induction alone (20 s, two at a time) on the 73 eval tasks under 50 k
/// gates, not expected unsat, that some configuration solves: one frame per query 52
/// solved, PAR-2 898.4; windows without this bound 54, 837.1 (`synapse.5` 13.7 s, a bug at
/// depth 107 of `theta_adding.3` in 0.5 s instead of 19 s; but `xepic_a17-p02`, 24 k gates,
/// depth 19: 3.7 to 12.1 s, its window of frames 15-30 taking 10 s); with it 55, 800.1
/// (`xepic` 4.1 s, `synapse.5` 7.5 s). Small systems still lose a little where the
/// bug is shallow for its window (`tn_collatz-sequence-18-30`: 2.6 to 7.3 s).
const WINDOW_GATES: usize = 200_000;

/// The k-induction engine; `max_depth` bounds the deepest `k` of both cases.
pub struct Kind {
    max_depth: Option<usize>,
    pool: LemmaPool,
    generate: bool,
    /// Frames `0..start` are known clean (a condition, [`crate::condition`]): the base
    /// case never asks them.
    start: usize,
    stats: KindStats,
}

#[derive(Default)]
struct KindStats {
    depth: u64,
    base_queries: u64,
    /// Frames the base case's queries asked, window by window.
    base_frames: u64,
    simple_path_proofs: u64,
    step: step::StepStats,
    generator: generator::GeneratorStats,
}

impl Kind {
    /// k-induction with its own lemma pool and the invariant generator switched on.
    pub fn new(max_depth: Option<usize>) -> Kind {
        Kind {
            max_depth,
            pool: LemmaPool::new(),
            generate: true,
            start: 0,
            stats: KindStats::default(),
        }
    }

    /// Shares `pool` with other engines: its lemmas strengthen the step case, and the
    /// generator's lemmas are published there for the others.
    pub fn with_lemma_pool(mut self, pool: LemmaPool) -> Kind {
        self.pool = pool;
        self
    }

    /// Starts the base case at frame `depth`, the caller knowing every shallower one clean.
    /// A proof at depth `k <= depth` then rests on that knowledge; its k-copy invariant is
    /// checked on its own as every invariant is, short windows included.
    pub fn from_depth(mut self, depth: usize) -> Kind {
        self.start = depth;
        self
    }

    /// Switches the invariant generator thread on or off (it is on by default).
    pub fn with_generator(mut self, on: bool) -> Kind {
        self.generate = on;
        self
    }

    /// The base/step deepening loop (the generator, if any, runs beside it). The two cases
    /// deepen on their own, the base case with [`BASE_SHARE`] times the step case's time:
    /// the case that is behind its share runs next. On a large design the step case, which
    /// starts anywhere, costs many times the base case per frame, and the base case would
    /// otherwise trail it and find a counterexample no sooner than the step case reached its
    /// depth.
    fn search(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let mut base = Bounded::new(ts, budget);
        let mut step = Step::new(ts, budget);
        let mut cursor = 0;
        // Frames `0..based` are known clean from the initial states.
        let mut based = self.start;
        let mut k = 0;
        let (mut base_time, mut step_time) = (Duration::ZERO, Duration::ZERO);
        // Frames per base-case query, as `--bmc-dyn` sizes BMC's windows.
        let mut window = 1;
        let max_depth = self.max_depth;
        let bound = move |d: usize| max_depth.is_none_or(|m| d <= m);
        while (bound(k) || bound(based)) && !budget.expired() {
            if bound(k) && (step_time * BASE_SHARE <= base_time || !bound(based)) {
                self.stats.depth = k as u64;
                budget.progress().set(Measure::K, k);
                let started = Instant::now();
                let result = step.check(k, &self.pool, &mut cursor);
                step_time += started.elapsed();
                self.stats.step = step.stats();
                match result {
                    // Sound once the base case has shown frames `0..k` clean.
                    StepResult::Proved => match self.base_to(&mut base, &mut based, k, budget) {
                        None => {
                            crate::log::info(1, format_args!("kind: proved at depth {k}"));
                            return Verdict::Safe(certificate::k_copy(ts, k, step.lemmas()));
                        }
                        Some(verdict) => return verdict,
                    },
                    StepResult::ProvedWithSimplePath => {
                        self.stats.simple_path_proofs += 1;
                        crate::log::info(
                            1,
                            format_args!(
                                "kind: proved at depth {k} only with simple-path constraints \
                                 (no certificate); deepening"
                            ),
                        );
                    }
                    StepResult::Failed => {}
                    StepResult::Interrupted => break,
                }
                k += 1;
            } else {
                let (started, cpu) = (Instant::now(), thread_cpu());
                let result = self.base_window(&mut base, &mut based, window);
                base_time += started.elapsed();
                // The thread's CPU time: in a portfolio the wall time of a query also
                // counts the other workers' turns.
                let grown = next_step(window, thread_cpu().saturating_sub(cpu));
                window = frames_within(grown, ts.aig.num_ands(), WINDOW_GATES);
                if let Some(verdict) = result {
                    return verdict;
                }
            }
        }
        Verdict::Unknown {
            depth: based.checked_sub(1),
        }
    }

    /// Checks the next `window` frames of the base case (at most to `max_depth`) in one
    /// query: clean, they join `0..based` (`None`); else the counterexample, or `Unknown`
    /// when interrupted. While queries are cheap the window grows, so on a small system the
    /// base case reaches a deep bug in a few queries instead of one per frame.
    fn base_window(
        &mut self,
        base: &mut Bounded,
        based: &mut usize,
        window: usize,
    ) -> Option<Verdict> {
        let last = *based + window - 1;
        let window = *based..=self.max_depth.map_or(last, |m| m.min(last));
        self.stats.base_queries += 1;
        self.stats.base_frames += window.clone().count() as u64;
        match base.check_frames(window.clone()) {
            SatResult::Sat => Some(Verdict::Unsafe(base.trace_in(window))),
            SatResult::Unsat => {
                crate::log::info(
                    2,
                    format_args!("kind: no counterexample up to depth {}", window.end()),
                );
                *based = window.end() + 1;
                None
            }
            SatResult::Interrupted => Some(Verdict::Unknown {
                depth: based.checked_sub(1),
            }),
        }
    }

    /// Runs the base case until frames `0..depth` are clean (`None`), or it finds a
    /// counterexample or is interrupted (the verdict to return).
    fn base_to(
        &mut self,
        base: &mut Bounded,
        based: &mut usize,
        depth: usize,
        budget: &Budget,
    ) -> Option<Verdict> {
        while *based < depth {
            if budget.expired() {
                return Some(Verdict::Unknown {
                    depth: based.checked_sub(1),
                });
            }
            if let Some(verdict) = self.base_window(base, based, 1) {
                return Some(verdict);
            }
        }
        None
    }
}

impl Engine for Kind {
    fn name(&self) -> &'static str {
        "kind"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        // The generator gets its own stop flag: it must end with the search, not only with
        // the whole run.
        let generator_budget = budget.child();
        thread::scope(|scope| {
            let generator = self.generate.then(|| {
                let (pool, budget) = (self.pool.clone(), generator_budget.clone());
                scope.spawn(move || generator::run(ts, &pool, &budget))
            });
            let verdict = self.search(ts, budget);
            generator_budget.stop();
            if let Some(handle) = generator {
                match handle.join() {
                    Ok(stats) => self.stats.generator = stats,
                    Err(_) => crate::log::info(1, format_args!("kind: the generator failed")),
                }
            }
            verdict
        })
    }

    fn stats(&self) -> Stats {
        let s = &self.stats;
        vec![
            ("kind_depth", s.depth),
            ("kind_base_queries", s.base_queries),
            ("kind_base_frames", s.base_frames),
            ("kind_step_queries", s.step.queries),
            ("kind_simple_path_pairs", s.step.simple_path_pairs),
            ("kind_simple_path_proofs", s.simple_path_proofs),
            ("kind_lemmas", s.step.lemmas),
            ("kind_generator_candidates", s.generator.candidates),
            ("kind_generator_lemmas", s.generator.lemmas),
        ]
    }
}

#[cfg(test)]
mod tests;
