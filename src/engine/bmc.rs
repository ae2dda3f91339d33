//! Bounded model checking: one incremental solver, frames added as the depth grows.
//!
//! A query asks whether a bad state is reachable in any frame of a window `(d - k, d]`,
//! under one activation literal over the disjunction of those frames' bad literals, the
//! invariant constraints of the frames below the window added as unit clauses, those of the
//! window's own frames binding only the traces that reach them ([`Bounded::check_frames`]).
//! With `k = 1` (the default) every frame is its own query. A larger step solves once per
//! `k` frames: deep counterexamples need many frames, and each incremental `solve` call
//! costs time in proportion to the whole formula (CaDiCaL's restart of search, its `lucky`
//! probes), so fewer calls go deeper in the same time. No frame is skipped: the trace stops
//! at the first frame of the window whose bad literal is true in the model, and the bound
//! reported on a timeout is the last window proved clean. With `k > 1` the trace need not
//! be the shortest: another input sequence may reach a bad state in an earlier frame of the
//! same window. The dynamic step ([`BmcOptions::dynamic`]) doubles `k` while queries stay
//! cheap and halves it when one gets expensive, keeping a query near a second (what a
//! timeout can throw away). The jump mode ([`BmcOptions::jump`], rIC3's `bmc --step`) asks
//! for a bad state in frame `d` only, for `d = k, 2k, ...`: frames in between get their
//! transition relation and constraints but no query, so a deep counterexample costs `d / k`
//! queries, each of which is satisfiable as soon as the bug can be reached at any depth and
//! then replayed for `d - depth` more steps (designs that can idle). The counterexample is
//! then not the shortest one, and an unsatisfiable query proves no bound (frames before it
//! were skipped). A conflict limit per query ([`BmcOptions::query_conflicts`], rIC3's
//! per-step time limit) lets BMC pass over a query it cannot decide cheaply and go on
//! deeper: on the mann data-integrity designs the unsatisfiable frames below the bug are
//! hard (ABC's `bmc3` reaches frame 20 of `h20_arbitrated_top_n2_w8_d32_e0` in 60 s) while
//! a frame well past it is satisfiable in a tenth of a second (frame 50). A skipped query
//! proves nothing, so no bound is claimed after it. A clean window's negated activation
//! literal becomes a unit clause. Its bad literals are then false in every model, but
//! adding them as units cost CPU (to depth 20 of `h20_arbitrated_top_n2_w8_d32_e0`: 7.7 s
//! user with them, 6.9 s without), so they are left out.

use std::num::NonZeroUsize;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use super::{Engine, Stats, Verdict};
use crate::progress::Measure;
use crate::sat::{Cadical, Lit, SatResult, Solver};
use crate::ts::{Trace, TransitionSystem};
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The configuration of BMC (`--engine bmc` and the portfolio's BMC worker).
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::Args)]
#[command(next_help_heading = "Tuning: BMC (--engine bmc)")]
pub struct BmcOptions {
    /// Frames per query: each query asks for a bad state in any of the next K frames
    /// (the counterexample ends in that window, not always at its first frame that can be
    /// bad; the bound on a timeout is the last window checked). With `--bmc-dyn`, the first
    /// step.
    #[arg(long = "bmc-step", default_value = "1", value_name = "K")]
    pub step: NonZeroUsize,
    /// Dynamic step: doubled while queries take under a quarter second, halved when one takes
    /// over two seconds.
    #[arg(long = "bmc-dyn")]
    pub dynamic: bool,
    /// Jump: ask only whether frame K, 2K, 3K, ... is bad (K from `--bmc-step`), not the frames
    /// in between; the counterexample found may be longer than the shortest one.
    #[arg(long = "bmc-jump")]
    pub jump: bool,
    /// Gives each query at most N conflicts: a query that runs out is skipped (no bound is
    /// claimed from it on) and BMC goes on with the next window or jump. Deep satisfiable
    /// frames are often easy where shallow unsatisfiable ones are hard.
    #[arg(long = "bmc-query-conflicts", value_name = "N")]
    pub query_conflicts: Option<u32>,
}

impl Default for BmcOptions {
    /// Every frame its own query.
    fn default() -> BmcOptions {
        BmcOptions {
            step: NonZeroUsize::MIN,
            dynamic: false,
            jump: false,
            query_conflicts: None,
        }
    }
}

/// Queries faster than this double the dynamic step.
const DYN_GROW_BELOW: Duration = Duration::from_millis(250);
/// Queries slower than this halve the dynamic step.
const DYN_SHRINK_ABOVE: Duration = Duration::from_secs(2);
/// The largest dynamic step: the depth a timeout can lose stays bounded.
const DYN_MAX_STEP: usize = 256;

/// The size (AND gates of the transition system) from which the BMC solver searches in
/// CaDiCaL's stable mode only. Measured with plain BMC, 20 s, both settings side by side on
/// the 82 `sat` tasks of the eval sets that the default missed or took over a second on
/// (2026-11-28): on the five above 100 k gates stable mode was faster on every one
/// (hku24bv ILA Ridecore ANDI_sanity 16.0 -> 8.5 s, SLT_sanity 14.5 -> 8.7 s, LBU_problem
/// out of time -> 10.8 s, hku24 Ridecore SRLI_problem 10.6 -> 5.4 s, Piccolo LHU_problem 4.1
/// -> 3.1 s); below, it was slower on all but one (beem telephony.6 14.2 s -> out of time,
/// tn_collatz 18-34 7.4 s -> out of time and 15-25 0.5 -> 2.3 s, mann arbitrated
/// n2_w128_d16 8.3 -> 15.4 s and n5_w128_d16 11.4 -> 16.4 s; faster: xepic a17-p02, 45 k
/// gates, 3.2 -> 1.7 s).
const STABLE_ONLY_GATES: usize = 100_000;

/// The BMC engine; `max_depth` bounds the last frame checked.
pub struct Bmc {
    pub max_depth: Option<usize>,
    opts: BmcOptions,
    /// The first depth queried: the caller knows every shallower one clean.
    start: usize,
    queries: u64,
    frames: u64,
    max_step: u64,
    /// Queries that ran out of their conflicts.
    skipped: u64,
    /// Solver variables of the unrolling when the last query was asked.
    vars: u64,
}

impl Bmc {
    /// Plain BMC (every frame its own query).
    pub fn new(max_depth: Option<usize>) -> Bmc {
        Bmc {
            max_depth,
            opts: BmcOptions::default(),
            start: 0,
            queries: 0,
            frames: 0,
            max_step: 0,
            skipped: 0,
            vars: 0,
        }
    }

    /// This engine in configuration `opts`.
    pub fn with_options(self, opts: BmcOptions) -> Bmc {
        Bmc { opts, ..self }
    }

    /// Queries depths `depth`, `depth + 1`, ... only, the caller having shown every
    /// shallower depth free of counterexamples (localization does, for the coarser
    /// abstraction it refines): the frames below are still encoded, but not asked, and the
    /// bound reported on a timeout counts them as clean.
    pub fn from_depth(self, depth: usize) -> Bmc {
        Bmc {
            start: depth,
            ..self
        }
    }
}

impl Engine for Bmc {
    fn name(&self) -> &'static str {
        "bmc"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let mut frames = Bounded::new(ts, budget);
        frames.query_conflicts = self.opts.query_conflicts;
        let mut clean: Option<usize> = self.start.checked_sub(1);
        // Once a query is skipped, deeper clean windows prove no bound.
        let mut skipped = false;
        let mut step = match self.opts.jump {
            true => jump_within(self.opts.step.get(), ts.aig.num_ands()),
            false => self.opts.step.get(),
        };
        let mut lo = self.start;
        while self.max_depth.is_none_or(|m| lo <= m) {
            if budget.expired() {
                break;
            }
            // A jump checks one frame per query: 0, K, 2K, ...
            let hi = match self.opts.jump {
                true => lo,
                false => (self.max_depth).map_or(lo + step - 1, |m| m.min(lo + step - 1)),
            };
            self.queries += 1;
            self.frames = hi as u64 + 1;
            self.max_step = self.max_step.max((hi + 1 - lo) as u64);
            budget.progress().set(Measure::Depth, hi);
            let started = Instant::now();
            let result = frames.check_frames(lo..=hi);
            self.vars = frames.solver.num_vars() as u64;
            match result {
                SatResult::Sat => return Verdict::Unsafe(frames.trace_in(lo..=hi)),
                SatResult::Unsat if self.opts.jump => {
                    crate::log::info(2, format_args!("bmc: frame {hi} is not bad"));
                }
                SatResult::Unsat => {
                    crate::log::info(2, format_args!("bmc: no counterexample at depth {hi}"));
                    if !skipped {
                        clean = Some(hi);
                    }
                }
                SatResult::Interrupted if budget.expired() => break,
                SatResult::Interrupted => {
                    crate::log::info(2, format_args!("bmc: frames {lo}..={hi} skipped"));
                    self.skipped += 1;
                    skipped = true;
                }
            }
            if self.opts.dynamic {
                step = next_step(step, started.elapsed());
                if self.opts.jump {
                    step = jump_within(step, ts.aig.num_ands());
                }
            }
            lo = match self.opts.jump {
                true => hi + step,
                false => hi + 1,
            };
        }
        Verdict::Unknown { depth: clean }
    }

    fn stats(&self) -> Stats {
        vec![
            ("bmc_queries", self.queries),
            ("bmc_frames", self.frames),
            ("bmc_max_step", self.max_step),
            ("bmc_skipped", self.skipped),
            ("bmc_vars", self.vars),
        ]
    }
}

/// The most AND gates a jump may add to the unrolling before its query. Measured with
/// `bmc-deep` alone (jumps of 50, 2026-11-29): 50 frames of the 106 k-gate
/// `arbitrated_top_n5_w128_d32` (2.2 M solver variables, 1.2 GiB) are satisfied in 5 s,
/// while 50 frames of a 440 k-gate ILA Ridecore design reached 1.7 GiB before their query
/// and stopped on the memory limit (in the portfolio it was shed for memory); its 13-frame
/// jump under this limit is satisfied at 15.7 s alone.
const JUMP_GATES: usize = 6_000_000;

/// The jump `step` shortened so that one jump of a system of `gates` AND gates adds at most
/// [`JUMP_GATES`] gates (at least one frame).
fn jump_within(step: usize, gates: usize) -> usize {
    frames_within(step, gates, JUMP_GATES)
}

/// `frames` shortened so that that many frames of a system of `gates` AND gates add at most
/// `most` gates to an unrolling (at least one frame).
pub(crate) fn frames_within(frames: usize, gates: usize, most: usize) -> usize {
    frames.min((most / gates.max(1)).max(1))
}

/// The dynamic step after a query that took `took` with step `step` (also k-induction's
/// base-case window).
pub(crate) fn next_step(step: usize, took: Duration) -> usize {
    if took < DYN_GROW_BELOW {
        (step * 2).min(DYN_MAX_STEP)
    } else if took > DYN_SHRINK_ABOVE {
        (step / 2).max(1)
    } else {
        step
    }
}

/// The BMC formula: frames from the initial states in one incremental solver, one window of
/// frames checked per call. Shared by [`Bmc`] and the base case of k-induction.
pub(crate) struct Bounded<'a> {
    solver: Cadical,
    /// Polled between frames while a window is encoded: a jump adds many frames at once, and
    /// the portfolio stops its last worker through it when memory runs short.
    budget: Budget,
    un: Unroller<'a>,
    /// Frames whose invariant constraints are asserted (`0..constrained`).
    constrained: usize,
    /// The conflicts each query may take ([`BmcOptions::query_conflicts`]).
    query_conflicts: Option<u32>,
}

impl Drop for Bounded<'_> {
    /// Past the deadline, frees the solver on a thread of its own: a large unrolling is
    /// gigabytes of clauses, and freeing them on a loaded machine held the engine's result
    /// (and so the run's end) for a second and more.
    fn drop(&mut self) {
        if self.budget.expired() {
            let solver = std::mem::replace(&mut self.solver, Cadical::new(&Budget::new(None)));
            // Nothing waits for it: the run ends without it if it comes last.
            let _ = std::thread::Builder::new()
                .name("free".into())
                .spawn(move || drop(solver));
        }
    }
}

impl<'a> Bounded<'a> {
    pub(crate) fn new(ts: &'a TransitionSystem, budget: &Budget) -> Bounded<'a> {
        Bounded {
            solver: if ts.aig.num_ands() >= STABLE_ONLY_GATES {
                Cadical::new(budget).stable_only()
            } else {
                Cadical::new(budget)
            },
            budget: budget.clone(),
            un: Unroller::new(ts, Start::Init)
                .merging_gates()
                .stopping_on(budget),
            constrained: 0,
            query_conflicts: None,
        }
    }

    /// Whether a bad state is reachable in exactly `k` transitions. Depths must be checked in
    /// order `0, 1, 2, ...`: frame `k` gets its constraints here.
    pub(crate) fn check(&mut self, k: usize) -> SatResult {
        self.check_frames(k..=k)
    }

    /// Whether a bad state is reachable in any of the frames of `window`. Every frame below
    /// the window gets its constraints here as unit clauses (also frames skipped by a jump: a
    /// trace into the window passes through them all). A frame in the window binds only the
    /// traces that reach it: a trace that is bad at frame `j` need satisfy no constraint past
    /// `j`, and one that cannot go on (a dead end of the constraints) must not hide a bad
    /// frame below it. So the query picks an end `e_j` with `e_j -> bad_j`, and `e_j ->
    /// r_j`, `r_j -> r_{j-1}`, `r_i -> constraints_i` over the window. A window of one
    /// frame needs none of this: its constraints are units, as those below it.
    pub(crate) fn check_frames(&mut self, window: RangeInclusive<usize>) -> SatResult {
        let ts = self.un.ts();
        let (lo, hi) = (*window.start(), *window.end());
        // A window of one frame binds its own constraints as units: its traces all reach it.
        let units_below = if lo == hi { hi + 1 } else { lo };
        for k in self.constrained..=hi {
            if k < units_below {
                for &c in &ts.constraints {
                    let l = self.un.lit(&mut self.solver, c, k);
                    self.solver.add_clause(&[l]);
                }
            }
            // Frame by frame: the bad cone of frame `k` pulls in the frames below it.
            for &b in &ts.bad {
                self.un.lit(&mut self.solver, b, k);
            }
            if self.un.interrupted() {
                // Frame `k` is half-encoded: its constraints are asserted again next time.
                return SatResult::Interrupted;
            }
            if k < units_below {
                self.constrained = k + 1;
            }
            if self.budget.expired() {
                return SatResult::Interrupted;
            }
        }
        // What the query asks one of: the window's ends, or the one frame's bad literals.
        let mut ends = Vec::new();
        if lo == hi {
            ends.extend(ts.bad.iter().map(|&b| self.un.lit(&mut self.solver, b, hi)));
        } else {
            let mut reached: Option<Lit> = None;
            for k in window {
                let reach = self.solver.new_var().pos_lit();
                if let Some(below) = reached {
                    self.solver.add_clause(&[!reach, below]);
                }
                for &c in &ts.constraints {
                    let l = self.un.lit(&mut self.solver, c, k);
                    self.solver.add_clause(&[!reach, l]);
                }
                let end = self.solver.new_var().pos_lit();
                self.solver.add_clause(&[!end, reach]);
                let mut bad = vec![!end];
                for &b in &ts.bad {
                    bad.push(self.un.lit(&mut self.solver, b, k));
                }
                self.solver.add_clause(&bad);
                ends.push(end);
                reached = Some(reach);
            }
        }
        if self.un.interrupted() {
            return SatResult::Interrupted;
        }
        // Allocated after the frames, as when every frame was its own query.
        let act = self.solver.new_var().pos_lit();
        let mut clause = vec![!act];
        clause.extend(ends);
        self.solver.add_clause(&clause);
        if let Some(n) = self.query_conflicts {
            self.solver
                .limit_conflicts(n.try_into().unwrap_or(i32::MAX));
        }
        let result = self.solver.solve(&[act]);
        if result == SatResult::Unsat {
            self.solver.add_clause(&[!act]);
        }
        result
    }

    /// The counterexample of the last [`Self::check`], which returned `Sat` at depth `k`.
    pub(crate) fn trace(&self, k: usize) -> Trace {
        self.trace_in(k..=k)
    }

    /// The counterexample of the last [`Self::check_frames`], which returned `Sat` on
    /// `window`: cut at the first frame of the window with a bad state in the model.
    pub(crate) fn trace_in(&self, window: RangeInclusive<usize>) -> Trace {
        let ts = self.un.ts();
        let k = window
            .into_iter()
            .find(|&k| ts.bad.iter().any(|&b| self.un.value(&self.solver, b, k)))
            .expect("a satisfied BMC query has a true bad literal in its window");
        extract(ts, &self.un, &self.solver, k)
    }
}

/// Reads the counterexample of length `k + 1` out of the solver's model.
pub(crate) fn extract(ts: &TransitionSystem, un: &Unroller, s: &impl Solver, k: usize) -> Trace {
    let init = ts
        .latches
        .iter()
        .map(|l| match un.encoded(l.var.lit(), 0) {
            Some(sl) => s.value(sl).unwrap_or(false),
            None => l.init.unwrap_or(false),
        })
        .collect();
    let inputs = (0..=k)
        .map(|f| ts.inputs.iter().map(|i| un.value(s, i.lit(), f)).collect())
        .collect();
    let bad = ts
        .bad
        .iter()
        .position(|&b| un.value(s, b, k))
        .expect("a satisfied BMC query has a true bad literal");
    Trace { init, inputs, bad }
}

#[cfg(test)]
pub(crate) mod tests;
