//! IC3 / property-directed reachability (Bradley; Eén, Mishchenko, Brayton).
//!
//! Frames F_0 = Init, F_1, ..., F_N over-approximate the states reachable in at most `i`
//! steps. Each F_i (i >= 1) is a set of lemmas, clauses over the latches, stored as the cubes
//! they exclude and asserted in one CaDiCaL solver per frame beside the lazily encoded
//! transition relation ([`frames`], [`solver`]). A round excludes every bad state from F_N by blocking
//! proof obligations recursively ([`block`]): a cube that cannot be reached from F_{i-1}
//! becomes a lemma after MIC generalisation with counterexamples to generalisation ([`mic`]);
//! a predecessor that can is generalised by lifting ([`lift`]) and blocked first. Then a new
//! frame opens and lemmas move forward ([`propagate`]); a frame left without lemmas of its
//! own equals the next one, and its clauses are an inductive invariant.
//!
//! Constraints hold in the current state of every query and in the next state of
//! relative-induction queries (a trace satisfies them in every frame). Latches without a
//! reset value are free in F_0, so a lemma holds initially only through a literal that a
//! reset value makes true.
//!
//! [`Ic3Options`] switches on the stronger variants (counterexamples to propagation,
//! parent-lemma-guided generalisation, dropping obligations that keep failing, MIC trying
//! every literal, smaller lifted predecessors, cubes over internal signals, localization
//! of the predecessors, [`abstraction`]); `--stats` reports where the time goes (SAT calls
//! by kind, generalisation, propagation).

mod abstraction;
mod activity;
mod block;
mod constraints;
mod cube;
mod frames;
mod internal;
mod lift;
mod mic;
mod obligation;
mod options;
mod propagate;
mod share;
mod solver;
#[cfg(test)]
mod tests;

pub use cube::Cube;
pub use options::{Ic3Options, Ic3Sat, PoOrder};

use super::lemmas::LemmaPool;
use super::{Engine, Stats, Verdict};
use crate::cert::Invariant;
use crate::progress::{Measure, Progress};
use crate::ts::TransitionSystem;
use crate::Budget;
use abstraction::Abstraction;
use activity::Activity;
use cube::Init;
use frames::Frames;
use lift::{Lifter, Target};
use obligation::Obligations;
use std::time::{Duration, Instant};

/// The IC3 engine.
#[derive(Default)]
pub struct Ic3 {
    pool: Option<LemmaPool>,
    options: Ic3Options,
    /// Candidate lemmas from elsewhere ([`Ic3::with_seeds`]).
    seeds: Vec<Vec<crate::aig::Lit>>,
    /// Every lemma over latches of the last run's frames ([`Ic3::lemmas`]).
    lemmas: Vec<Vec<crate::aig::Lit>>,
    stats: Stats,
}

impl Ic3 {
    pub fn new() -> Ic3 {
        Ic3::default()
    }

    /// Shares lemmas through `pool`: lemmas of F_inf are published (they are invariants), and
    /// the pool's lemmas join F_inf once they are inductive relative to it.
    pub fn with_lemma_pool(mut self, pool: LemmaPool) -> Ic3 {
        self.pool = Some(pool);
        self
    }

    pub fn with_options(mut self, options: Ic3Options) -> Ic3 {
        self.options = options;
        self
    }

    /// Offers clauses over the latches that need not hold at all: those that hold initially
    /// and form a set inductive relative to F_inf join F_inf (as the pool's lemmas do, see
    /// [`share`]), the others are dropped. k-liveness offers the lemmas of the run for the
    /// previous `k`, whose system differs only in its bad state.
    pub fn with_seeds(mut self, seeds: Vec<Vec<crate::aig::Lit>>) -> Ic3 {
        self.seeds = seeds;
        self
    }

    /// One IC3 run on `ts`, offered the seeds.
    fn run(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let mut ic3 = Ic3Solver::configured(ts, budget, self.options);
        ic3.pool = self.pool.clone();
        ic3.seed(std::mem::take(&mut self.seeds));
        let verdict = ic3.run();
        self.stats = ic3.stats();
        self.lemmas = ic3.lemmas();
        verdict
    }

    /// The lemmas over latches of every frame F_1..F_N and F_inf of the last run, as clauses:
    /// each holds in the states reachable within its frame's bound, not necessarily in all.
    pub fn lemmas(&self) -> &[Vec<crate::aig::Lit>] {
        &self.lemmas
    }
}

impl Engine for Ic3 {
    fn name(&self) -> &'static str {
        "ic3"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        if !self.options.on(ts).abs_cst {
            return self.run(ts, budget);
        }
        let mut rounds = constraints::Rounds::default();
        let verdict = constraints::check(ts, &mut rounds, |system, carried| {
            self.seeds.extend(carried);
            let verdict = self.run(system, budget);
            (verdict, self.lemmas.clone())
        });
        self.stats.push(("ic3_cst_refinements", rounds.refinements));
        self.stats.push(("ic3_cst_enabled", rounds.enabled));
        verdict
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// The budget ran out during a query.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Interrupted;

/// Limits of generalisation (Hassan, Bradley, Somenzi: "Better generalization in IC3").
struct Limits {
    /// Nesting of generalisations started for CTGs.
    ctg_depth: usize,
    /// Counterexamples to propagation blocked per lemma and push (`--ic3-ctp`).
    ctp_max: usize,
}

const LIMITS: Limits = Limits {
    ctg_depth: 1,
    ctp_max: 3,
};

#[derive(Default)]
struct Counters {
    queries: u64,
    lemmas: u64,
    ctgs: u64,
    /// Predecessors of CTGs blocked on the way to blocking the CTG (`--ic3-ctg-limit`).
    ctg_preds: u64,
    obligations: u64,
    /// Counterexamples to propagation blocked.
    ctps: u64,
    /// Obligations dropped.
    dropped: u64,
    /// Lemmas that name a state signal (`--ic3-inn`).
    signal_lemmas: u64,
    /// Seed lemmas offered, and those that joined F_inf.
    seeds: u64,
    seeds_kept: u64,
    /// Relative-induction queries: how many, and their SAT time.
    rel_queries: u64,
    rel_time: Duration,
    /// Lifting queries (predecessors, CTGs, CTPs) and their time.
    lift_queries: u64,
    lift_time: Duration,
    /// Bad-state queries and their time.
    bad_time: Duration,
    /// Time in generalisation (MIC, its queries and CTG blocking included).
    mic_time: Duration,
    /// Time in propagation (its queries and CTP blocking included).
    prop_time: Duration,
}

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// One IC3 run on one system: frames, solvers, lifting, activity and the obligations of the
/// current round. [`Ic3`] drives it to a verdict; its steps are public for benchmarks.
pub struct Ic3Solver<'a> {
    ts: &'a TransitionSystem,
    init: Init,
    /// The internal signals cubes may name besides the latches (`--ic3-inn`), with their
    /// initial values.
    signals: Vec<(crate::aig::Var, bool)>,
    frames: Frames<'a>,
    lifter: Lifter<'a>,
    activity: Activity,
    obligations: Obligations,
    options: Ic3Options,
    pool: Option<LemmaPool>,
    share: share::Share,
    counters: Counters,
    /// No counterexample of this many steps or fewer.
    clean: Option<usize>,
    /// The visible latches of `--ic3-abs`.
    abstraction: Option<Abstraction>,
    /// Where the frontier and the lemma count are shown (the budget's).
    progress: Progress,
}

impl<'a> Ic3Solver<'a> {
    /// Frame F_0 only, default options.
    pub fn new(ts: &'a TransitionSystem, budget: &Budget) -> Ic3Solver<'a> {
        Ic3Solver::configured(ts, budget, Ic3Options::default())
    }

    /// Frame F_0 only, with `options` (they choose the SAT solvers, so they come first).
    pub fn configured(
        ts: &'a TransitionSystem,
        budget: &Budget,
        options: Ic3Options,
    ) -> Ic3Solver<'a> {
        let signals = if options.inn {
            internal::state_signals(ts)
        } else {
            Vec::new()
        };
        Ic3Solver {
            ts,
            init: Init::new(ts, &signals),
            signals,
            frames: Frames::new(ts, budget, options.sat),
            lifter: Lifter::new(ts, budget, options),
            activity: Activity::new(ts.aig.num_vars()),
            obligations: Obligations::new(options.po_order),
            options,
            pool: None,
            share: share::Share::default(),
            counters: Counters::default(),
            clean: None,
            abstraction: options.abs.then(|| Abstraction::new(ts, budget)),
            progress: budget.progress().clone(),
        }
    }

    /// N, the last frame.
    pub fn frontier(&self) -> usize {
        self.frames.top()
    }

    /// Opens frame N + 1.
    pub fn extend(&mut self) {
        self.frames.extend();
    }

    /// Runs rounds until a verdict or the end of the budget.
    pub fn run(&mut self) -> Verdict {
        self.rounds()
            .unwrap_or(Verdict::Unknown { depth: self.clean })
    }

    fn rounds(&mut self) -> Result<Verdict, Interrupted> {
        self.import()?;
        loop {
            self.progress.set(Measure::Frame, self.frames.top());
            if let Some(trace) = self.strengthen()? {
                return Ok(Verdict::Unsafe(trace));
            }
            self.clean = Some(self.frames.top());
            crate::log::info(
                2,
                format_args!(
                    "ic3: frame {} clean, {} lemmas, {} queries",
                    self.frames.top(),
                    self.counters.lemmas,
                    self.counters.queries
                ),
            );
            self.extend();
            self.import()?;
            if let Some(level) = self.propagate()? {
                let lemmas = self.frames.invariant(level);
                crate::log::info(
                    1,
                    format_args!("ic3: F_{level} is inductive ({} lemmas)", lemmas.len()),
                );
                return Ok(Verdict::Safe(Invariant::from_clauses(self.ts, &lemmas)));
            }
        }
    }

    /// Whether `cube` is blocked relative to F_frame: no state of F_frame outside `cube` has
    /// a successor in it (under the constraints). `Some(core)`: it is, and so is the sub-cube
    /// `core`, which still excludes the initial states if `cube` does.
    pub fn relative_induction(
        &mut self,
        frame: usize,
        cube: &[crate::aig::Lit],
    ) -> Result<Option<Cube>, Interrupted> {
        self.counters.queries += 1;
        self.counters.rel_queries += 1;
        let start = Instant::now();
        let s = self.frames.solver(frame);
        let blocked = !s.relative_induction(cube)?;
        self.counters.rel_time += start.elapsed();
        Ok(blocked.then(|| s.core(&self.init, cube)))
    }

    /// Adds the lemma excluding `cube` to F_1..F_level.
    pub fn add_lemma(&mut self, level: usize, mut cube: Cube) {
        cube.sort();
        self.activity.bump(&cube);
        self.counters.lemmas += 1;
        self.progress
            .set(Measure::Lemmas, self.counters.lemmas as usize);
        if !cube.iter().all(|&l| self.init.is_latch(l)) {
            self.counters.signal_lemmas += 1;
        }
        self.frames.add(level, cube);
    }

    /// The lifted predecessor in the model of the last satisfiable query of solver `frame`,
    /// with its inputs; with `--ic3-abs`, lifted towards the visible part of a target cube.
    fn predecessor(
        &mut self,
        frame: usize,
        target: Target,
    ) -> Result<(Cube, Vec<bool>), Interrupted> {
        let visible;
        let target = match (target, &self.abstraction) {
            (Target::Cube(cube), Some(a)) => {
                visible = a.visible_part(cube);
                Target::Cube(&visible)
            }
            (target, _) => target,
        };
        let (mut state, inputs) = self.frames.solver(frame).state();
        if !self.signals.is_empty() {
            let values = internal::values(self.ts, &self.signals, &state);
            state.extend(values);
        }
        self.counters.queries += 1;
        self.counters.lift_queries += 1;
        let start = Instant::now();
        let cube = (self.lifter).lift(&self.activity, state, &inputs, target);
        self.counters.lift_time += start.elapsed();
        Ok((cube?, inputs))
    }

    /// The lemmas over latches of F_1..F_N and F_inf, as clauses.
    fn lemmas(&self) -> Vec<Vec<crate::aig::Lit>> {
        let mut lemmas = self.frames.invariant(1);
        lemmas.retain(|c| c.iter().all(|&l| self.init.is_latch(l)));
        lemmas
    }

    /// Counters and timers (milliseconds) for `--stats`. The SAT times are the solver calls
    /// alone; MIC and propagation time include their own SAT calls.
    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        let (refinements, visible, abs_time) = self
            .abstraction
            .as_ref()
            .map_or((0, 0, Duration::ZERO), |a| {
                (a.refinements, a.visible() as u64, a.time)
            });
        vec![
            ("ic3_queries", c.queries),
            ("ic3_lemmas", c.lemmas),
            ("ic3_frames", self.frames.top() as u64),
            ("ic3_ctgs", c.ctgs),
            ("ic3_ctg_preds", c.ctg_preds),
            ("ic3_ctps", c.ctps),
            ("ic3_obligations", c.obligations),
            ("ic3_obligations_dropped", c.dropped),
            ("ic3_signal_lemmas", c.signal_lemmas),
            ("ic3_seeds", c.seeds),
            ("ic3_seeds_kept", c.seeds_kept),
            ("ic3_rel_queries", c.rel_queries),
            ("ic3_rel_ms", millis(c.rel_time)),
            ("ic3_lift_queries", c.lift_queries),
            ("ic3_lift_ms", millis(c.lift_time)),
            ("ic3_bad_ms", millis(c.bad_time)),
            ("ic3_mic_ms", millis(c.mic_time)),
            ("ic3_prop_ms", millis(c.prop_time)),
            ("ic3_abs_refinements", refinements),
            ("ic3_abs_visible_latches", visible),
            ("ic3_abs_ms", millis(abs_time)),
            ("ic3_cst_retries", self.frames.constraint_retries()),
        ]
    }
}
