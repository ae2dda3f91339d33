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

mod activity;
mod block;
mod cube;
mod frames;
mod lift;
mod mic;
mod obligation;
mod propagate;
mod share;
mod solver;
#[cfg(test)]
mod tests;

pub use cube::Cube;

use super::lemmas::LemmaPool;
use super::{Engine, Stats, Verdict};
use crate::cert::Invariant;
use crate::ts::TransitionSystem;
use crate::Budget;
use activity::Activity;
use cube::Init;
use frames::Frames;
use lift::{Lifter, Target};
use obligation::Obligations;

/// The IC3 engine.
#[derive(Default)]
pub struct Ic3 {
    pool: Option<LemmaPool>,
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
}

impl Engine for Ic3 {
    fn name(&self) -> &'static str {
        "ic3"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let mut ic3 = Ic3Solver::new(ts, budget);
        ic3.pool = self.pool.clone();
        let verdict = ic3.run();
        self.stats = ic3.stats();
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
    /// Counterexamples to generalisation blocked before a join.
    ctg_max: usize,
    /// Nesting of generalisations started for CTGs.
    ctg_depth: usize,
    /// Failed drops in a row after which MIC stops.
    mic_attempts: usize,
}

const LIMITS: Limits = Limits {
    ctg_max: 3,
    ctg_depth: 1,
    mic_attempts: 3,
};

#[derive(Default)]
struct Counters {
    queries: u64,
    lemmas: u64,
    ctgs: u64,
    obligations: u64,
}

/// One IC3 run on one system: frames, solvers, lifting, activity and the obligations of the
/// current round. [`Ic3`] drives it to a verdict; its steps are public for benchmarks.
pub struct Ic3Solver<'a> {
    ts: &'a TransitionSystem,
    init: Init,
    frames: Frames<'a>,
    lifter: Lifter<'a>,
    activity: Activity,
    obligations: Obligations,
    pool: Option<LemmaPool>,
    share: share::Share,
    counters: Counters,
    /// No counterexample of this many steps or fewer.
    clean: Option<usize>,
}

impl<'a> Ic3Solver<'a> {
    /// Frame F_0 only.
    pub fn new(ts: &'a TransitionSystem, budget: &Budget) -> Ic3Solver<'a> {
        Ic3Solver {
            ts,
            init: Init::new(ts),
            frames: Frames::new(ts, budget),
            lifter: Lifter::new(ts, budget),
            activity: Activity::new(ts.aig.num_vars()),
            obligations: Obligations::default(),
            pool: None,
            share: share::Share::default(),
            counters: Counters::default(),
            clean: None,
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
        loop {
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
        let s = self.frames.solver(frame);
        Ok(if s.relative_induction(cube)? {
            None
        } else {
            Some(s.core(&self.init, cube))
        })
    }

    /// Adds the lemma excluding `cube` to F_1..F_level.
    pub fn add_lemma(&mut self, level: usize, mut cube: Cube) {
        cube.sort();
        self.activity.bump(&cube);
        self.counters.lemmas += 1;
        self.frames.add(level, cube);
    }

    /// The lifted predecessor in the model of the last satisfiable query of solver `frame`,
    /// with its inputs.
    fn predecessor(
        &mut self,
        frame: usize,
        target: Target,
    ) -> Result<(Cube, Vec<bool>), Interrupted> {
        let (state, inputs) = self.frames.solver(frame).state();
        self.counters.queries += 1;
        let cube = (self.lifter).lift(&self.activity, state, &inputs, target)?;
        Ok((cube, inputs))
    }

    /// Counters for `--stats`.
    pub fn stats(&self) -> Stats {
        vec![
            ("ic3_queries", self.counters.queries),
            ("ic3_lemmas", self.counters.lemmas),
            ("ic3_frames", self.frames.top() as u64),
            ("ic3_ctgs", self.counters.ctgs),
            ("ic3_obligations", self.counters.obligations),
        ]
    }
}
