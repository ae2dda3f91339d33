//! The concrete check of an abstract counterexample: one BMC-style query along the abstract
//! path (seed 000: the abstract states conjoined with the concrete transitions).
//!
//! Every frame has its own unrolling with fresh variables for the latches, and frame `t` is
//! linked to frame `t + 1` by one equality per latch (`latch@t+1 = next@t`). The clauses are
//! partitioned for interpolation: partition 0 holds the initial values, partition `2t + 1`
//! the abstract state asserted in frame `t` (encoded in an unrolling of its own that shares
//! only the latch variables), partition `2t + 2` the rest of frame `t` (its constraints, the
//! bad properties in the last frame) and its links to frame `t + 1`. The variables two sides
//! of a cut share are then exactly the latch variables of one frame, one per latch, so an
//! interpolant reads as a predicate over the latches of frame `t`, cut before or after the
//! abstract state `s_t` (cut 0, before `s_0`, is the initial-state cut: without it, an
//! infeasibility caused only by an invisible latch's initial value could be explained over
//! the visible latches alone, and refinement would not progress).
//!
//! A query may also cover only a window of the path (the binary interpolation strategies check
//! prefixes and suffixes): without the initial values, or without the bad properties.
//!
//! A latch can be *guarded*: its initial value and links then hold only under an activation
//! literal, so with the guards left out it is a free input in every frame, as in the
//! localized system; the failed guards of a refutation name the latches it needs.

use std::collections::HashMap;

use crate::sat::itp::{Interpolant, ItpError, ItpSolver, System};
use crate::sat::{self, models, Cadical, SatResult, Solver};
use crate::ts::{Trace, TransitionSystem};
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The abstract states along an abstract counterexample, as the domain encodes them.
pub(in crate::engine) trait PathStates {
    /// Number of transitions of the path (its states are `0..=depth`).
    fn depth(&self) -> usize;
    /// The solver literals asserting state `t` in frame 0 of `un`.
    fn assert<S: Solver>(&self, s: &mut S, un: &mut Unroller, t: usize) -> Vec<sat::Lit>;
}

/// The frames `from..=to` of a path, and which of its ends are asserted.
#[derive(Copy, Clone)]
pub(super) struct Window {
    pub from: usize,
    pub to: usize,
    /// The initial values hold in frame `from` (only meaningful from 0).
    pub init: bool,
    /// A bad property holds in frame `to`.
    pub bad: bool,
}

impl Window {
    /// The whole path of `depth` transitions, from the initial states to a bad state.
    pub fn whole(depth: usize) -> Window {
        Window {
            from: 0,
            to: depth,
            init: true,
            bad: true,
        }
    }
}

/// A window of a path encoded in a solver.
pub(super) struct PathQuery<'a> {
    ts: &'a TransitionSystem,
    frames: Vec<Unroller<'a>>,
    /// `state[t][i]`: latch `i` in frame `t` of the window.
    state: Vec<Vec<sat::Lit>>,
    /// The activation literal of each guarded latch.
    guards: Vec<Option<sat::Lit>>,
}

impl<'a> PathQuery<'a> {
    /// Encodes the window `w` of the path `states` of `ts` into `s`. `part(s, p)` is called
    /// before the clauses of partition `p` are added (see the module's documentation; `t`
    /// counts the window's frames). Latches marked in `guarded` get an activation literal
    /// (none when it is empty).
    pub(super) fn encode<S: Solver>(
        s: &mut S,
        ts: &'a TransitionSystem,
        states: &impl PathStates,
        w: Window,
        guarded: &[bool],
        part: &mut dyn FnMut(&mut S, u32),
    ) -> PathQuery<'a> {
        let guards: Vec<Option<sat::Lit>> = (0..ts.latches.len())
            .map(|i| {
                guarded
                    .get(i)
                    .is_some_and(|&g| g)
                    .then(|| s.new_var().pos_lit())
            })
            .collect();
        let len = w.to - w.from;
        let mut frames: Vec<Unroller<'a>> =
            (0..=len).map(|_| Unroller::new(ts, Start::Free)).collect();
        let guarded_clause = |s: &mut S, i: usize, lits: &[sat::Lit]| {
            let mut c = lits.to_vec();
            if let Some(g) = guards[i] {
                c.push(!g);
            }
            s.add_clause(&c);
        };
        part(s, 0);
        let first = latch_lits(s, ts, &mut frames[0]);
        if w.init {
            for (i, l) in ts.latches.iter().enumerate() {
                if let Some(init) = l.init {
                    guarded_clause(s, i, &[if init { first[i] } else { !first[i] }]);
                }
            }
        }
        let mut state = vec![first];
        for t in 0..=len {
            part(s, 2 * t as u32 + 1);
            let mut view = Unroller::new(ts, Start::Free);
            for (l, &v) in ts.latches.iter().zip(&state[t]) {
                view.bind(l.var, 0, v);
            }
            for l in states.assert(s, &mut view, w.from + t) {
                s.add_clause(&[l]);
            }
            part(s, 2 * t as u32 + 2);
            for &c in &ts.constraints {
                let l = frames[t].lit(s, c, 0);
                s.add_clause(&[l]);
            }
            if t == len {
                if w.bad {
                    let bad: Vec<sat::Lit> =
                        ts.bad.iter().map(|&b| frames[t].lit(s, b, 0)).collect();
                    s.add_clause(&bad);
                }
                break;
            }
            let next = latch_lits(s, ts, &mut frames[t + 1]);
            for (i, l) in ts.latches.iter().enumerate() {
                let n = frames[t].lit(s, l.next, 0);
                guarded_clause(s, i, &[!next[i], n]);
                guarded_clause(s, i, &[next[i], !n]);
            }
            state.push(next);
        }
        PathQuery {
            ts,
            frames,
            state,
            guards,
        }
    }
    /// The activation literals of the guarded latches (assume them all for the concrete
    /// system).
    pub(super) fn guards(&self) -> Vec<sat::Lit> {
        self.guards.iter().flatten().copied().collect()
    }

    /// The guarded latches whose activation literal refuted the last solve call.
    pub(super) fn failed_guards(&self, s: &impl Solver) -> Vec<usize> {
        (0..self.guards.len())
            .filter(|&i| self.guards[i].is_some_and(|g| s.failed(g)))
            .collect()
    }

    /// The activation literal of latch `latch`, if it is guarded.
    pub(super) fn guard(&self, latch: usize) -> Option<sat::Lit> {
        self.guards[latch]
    }

    /// Which latch each state variable of frame `t` stands for.
    pub(super) fn latches_of_frame(&self, t: usize) -> HashMap<sat::Var, usize> {
        self.state[t]
            .iter()
            .enumerate()
            .map(|(i, l)| (l.var(), i))
            .collect()
    }

    /// The concrete counterexample in the solver's model (after a `Sat` answer).
    pub(super) fn trace(&self, s: &impl Solver) -> Trace {
        let depth = self.frames.len() - 1;
        let init = self.state[0]
            .iter()
            .map(|&l| s.value(l).unwrap_or(false))
            .collect();
        let inputs = self
            .frames
            .iter()
            .map(|un| {
                self.ts
                    .inputs
                    .iter()
                    .map(|i| un.value(s, i.lit(), 0))
                    .collect()
            })
            .collect();
        let bad = self
            .ts
            .bad
            .iter()
            .position(|&b| self.frames[depth].value(s, b, 0))
            .expect("a satisfied path query has a true bad literal");
        Trace { init, inputs, bad }
    }
}

/// Solve calls spent minimising one unsat core.
pub(in crate::engine) const CORE_MIN_TRIES: usize = 64;

/// The outcome of checking an abstract counterexample.
pub(in crate::engine) enum Check {
    Feasible(Trace),
    /// Spurious: these invisible latches become visible.
    Spurious(Vec<usize>),
    Stopped,
}

/// Checks the abstract path `states` with every invisible latch guarded; refuted, the
/// latches of a (minimised) unsat core of the guards become visible.
pub(in crate::engine) fn refine_by_core(
    ts: &TransitionSystem,
    visible: &[bool],
    states: &impl PathStates,
    budget: &Budget,
) -> Check {
    let mut s = Cadical::new(budget);
    let guarded: Vec<bool> = visible.iter().map(|v| !v).collect();
    let q = PathQuery::encode(
        &mut s,
        ts,
        states,
        Window::whole(states.depth()),
        &guarded,
        &mut |_, _| {},
    );
    match s.solve(&q.guards()) {
        SatResult::Sat => return Check::Feasible(q.trace(&s)),
        SatResult::Interrupted => return Check::Stopped,
        SatResult::Unsat => {}
    }
    // Each latch dropped is one the abstraction need not carry from now on.
    let core = q.failed_guards(&s);
    let lit = |l: usize| q.guard(l).expect("a latch of the core is guarded");
    Check::Spurious(models::minimise_core(&mut s, core, lit, CORE_MIN_TRIES))
}

/// A path of which only the length is known: its check is BMC at that depth with the
/// invisible latches guarded (IC3's own localization, `--ic3-abs`).
pub(in crate::engine) struct Length(pub usize);

impl PathStates for Length {
    fn depth(&self) -> usize {
        self.0
    }

    fn assert<S: Solver>(&self, _: &mut S, _: &mut Unroller, _: usize) -> Vec<sat::Lit> {
        Vec::new()
    }
}

/// The (fresh) variables of the latches in frame 0 of `un`.
fn latch_lits(s: &mut impl Solver, ts: &TransitionSystem, un: &mut Unroller) -> Vec<sat::Lit> {
    ts.latches
        .iter()
        .map(|l| un.lit(s, l.var.lit(), 0))
        .collect()
}

/// Where an interpolant cuts a path: between the latch variables of a frame and the
/// abstract state asserted there (`After`: the state is on the A side).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Side {
    Before,
    After,
}

/// One interpolant of a spurious path.
pub(in crate::engine) struct Cut {
    /// The path state it speaks of.
    pub frame: usize,
    pub itp: Interpolant,
    /// Which latch each of its variables stands for.
    pub latches: HashMap<sat::Var, usize>,
}

/// The outcome of checking an abstract path on the concrete system.
pub(in crate::engine) enum Refutation {
    /// Infeasible: the interpolants the refinement strategy asks for.
    Refuted(Vec<Cut>),
    /// Feasible: the concrete trace along the path.
    Feasible(Trace),
    /// The budget ran out.
    Stopped,
    /// Infeasible, but the proof gave no interpolants.
    NoInterpolants(ItpError),
}

/// Which interpolants a spurious path gives (seed 000, section 1.3.4).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(in crate::engine) enum Strategy {
    Sequence,
    BackwardBinary,
    ForwardBinary,
}

/// Checks the path `states` of `ts` on the concrete system and, spurious, interpolates it
/// with `strategy`:
/// - sequence: one interpolant per state (cut before it), from one proof of the path;
/// - backward binary: with `i` the lowest index whose suffix `s_i .. s_n` (without the initial
///   values) is feasible, one interpolant over state `i` between that suffix and the step
///   `s_(i-1), op_(i-1)` that makes it infeasible (the initial values when `i` is 0);
/// - forward binary: with `s_0 .. s_i` the longest feasible prefix, one interpolant over
///   state `i` between that prefix and the step `op_i, s_(i+1)` that makes it infeasible.
///
/// The windows searched for the binary strategies are checked in plain solvers (binary
/// search: feasibility is monotone in the window's length).
pub(in crate::engine) fn refute(
    ts: &TransitionSystem,
    states: &impl PathStates,
    strategy: Strategy,
    budget: &Budget,
) -> Refutation {
    let depth = states.depth();
    let whole = Window::whole(depth);
    let all: Vec<(usize, Side)> = (0..=depth).map(|t| (t, Side::Before)).collect();
    let sequence = || interpolate(ts, states, whole, &all, budget);
    match strategy {
        Strategy::Sequence => sequence(),
        Strategy::BackwardBinary => {
            let suffix = |i: usize| Window {
                from: i,
                init: false,
                ..whole
            };
            // feasible(suffix(depth)) holds for an abstract counterexample; find the lowest.
            let Some(i) =
                lowest_feasible(0..depth + 1, |i| feasible(ts, states, suffix(i), budget))
            else {
                return Refutation::Stopped;
            };
            if i == 0 {
                return interpolate(ts, states, whole, &[(0, Side::Before)], budget);
            }
            if i > depth {
                // The last state meets no bad state: not an abstract counterexample of
                // the domains here; the sequence explains it all the same.
                return sequence();
            }
            let step = Window {
                from: i - 1,
                ..suffix(i - 1)
            };
            interpolate(ts, states, step, &[(i, Side::Before)], budget)
        }
        Strategy::ForwardBinary => {
            let prefix = |k: usize| Window {
                to: k,
                bad: k == depth,
                ..whole
            };
            // The longest feasible prefix: the lowest k whose prefix is infeasible, minus one.
            let Some(k) = lowest_feasible(0..depth + 1, |k| {
                feasible(ts, states, prefix(k), budget).map(|f| !f)
            }) else {
                return Refutation::Stopped;
            };
            if k > depth {
                return interpolate(ts, states, whole, &[], budget);
            }
            if k == 0 {
                // The initial states miss `s_0`: the initial-state cut explains it.
                return interpolate(ts, states, prefix(0), &[(0, Side::Before)], budget);
            }
            interpolate(ts, states, prefix(k), &[(k - 1, Side::After)], budget)
        }
    }
}

/// The lowest `i` in `range` for which `pred` (monotone: false, then true) holds, or
/// `range.end` if none; `None` when `pred` is cut short. (The CFA engine's binary
/// interpolation searches its paths with it too.)
pub(in crate::engine) fn lowest_feasible(
    range: std::ops::Range<usize>,
    mut pred: impl FnMut(usize) -> Option<bool>,
) -> Option<usize> {
    let (mut lo, mut hi) = (range.start, range.end);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// Whether window `w` of the path is feasible; `None` when interrupted.
fn feasible(
    ts: &TransitionSystem,
    states: &impl PathStates,
    w: Window,
    budget: &Budget,
) -> Option<bool> {
    let mut s = Cadical::for_small_queries(budget);
    PathQuery::encode(&mut s, ts, states, w, &[], &mut |_, _| {});
    match s.solve(&[]) {
        SatResult::Sat => Some(true),
        SatResult::Unsat => Some(false),
        SatResult::Interrupted => None,
    }
}

/// Solves window `w` in an interpolating solver; refuted, the interpolants at `cuts` (path
/// states within the window). They are built one at a time, so that the
/// budget is checked between them (a proof of a large path is large). A feasible window is
/// a concrete counterexample only when it is the whole path.
fn interpolate(
    ts: &TransitionSystem,
    states: &impl PathStates,
    w: Window,
    cuts: &[(usize, Side)],
    budget: &Budget,
) -> Refutation {
    let mut s = ItpSolver::new(budget);
    let q = PathQuery::encode(&mut s, ts, states, w, &[], &mut |s: &mut ItpSolver, p| {
        s.set_partition(p)
    });
    match s.solve(&[]) {
        SatResult::Sat if w.init && w.bad && w.from == 0 => {
            return Refutation::Feasible(q.trace(&s))
        }
        SatResult::Sat | SatResult::Interrupted => return Refutation::Stopped,
        SatResult::Unsat if budget.expired() => return Refutation::Stopped,
        SatResult::Unsat => {}
    }
    let mut out = Vec::with_capacity(cuts.len());
    for &(frame, side) in cuts {
        if budget.expired() {
            return Refutation::Stopped;
        }
        let local = frame - w.from;
        let cut = 2 * local as u32 + u32::from(side == Side::After);
        match s.interpolant(cut, System::McMillan) {
            Ok(itp) => out.push(Cut {
                frame,
                itp,
                latches: q.latches_of_frame(local),
            }),
            Err(ItpError::Stopped) => return Refutation::Stopped,
            Err(e) => return Refutation::NoInterpolants(e),
        }
    }
    Refutation::Refuted(out)
}
