//! A round: exclude every bad state from the last frame, blocking proof obligations
//! recursively until one reaches the initial states (a counterexample) or none is left.

use super::lift::Target;
use super::obligation::Obligation;
use super::options::CtgEffort;
use super::{Cube, Ic3Solver, Interrupted};
use crate::ts::Trace;
use std::time::Instant;

impl Ic3Solver<'_> {
    /// Excludes every bad state from F_N, or returns a counterexample.
    pub(super) fn strengthen(&mut self) -> Result<Option<Trace>, Interrupted> {
        let n = self.frames.top();
        loop {
            self.counters.queries += 1;
            let start = Instant::now();
            let bad = self.frames.solver(n).bad_state()?;
            self.counters.bad_time += start.elapsed();
            if !bad {
                return Ok(None);
            }
            let (cube, inputs) = self.predecessor(n, Target::Bad)?;
            self.obligations.clear();
            if let Some(trace) = self.open(n, 0, cube, inputs, None)? {
                return Ok(Some(trace));
            }
            if let Some(trace) = self.block()? {
                return Ok(Some(trace));
            }
        }
    }

    /// Queues the obligation to exclude `cube` from F_frame (optional as its successor is),
    /// or, when `cube` meets the initial states, returns the counterexample that starts there.
    /// With `--ic3-abs` that chain is abstract: checked, it is a counterexample or refines
    /// the abstraction, and then the round starts again (no obligation left).
    fn open(
        &mut self,
        frame: usize,
        depth: usize,
        cube: Cube,
        inputs: Vec<bool>,
        successor: Option<usize>,
    ) -> Result<Option<Trace>, Interrupted> {
        if !self.init.excludes(&cube) {
            let Some(abstraction) = self.abstraction.as_mut().filter(|a| !a.complete()) else {
                return Ok(Some(
                    self.obligations.trace(self.ts, &cube, inputs, successor),
                ));
            };
            let trace = abstraction.check(self.ts, depth)?;
            self.obligations.clear();
            return Ok(trace);
        }
        self.counters.obligations += 1;
        let optional = successor.is_some_and(|id| self.obligations.get(id).optional);
        self.obligations.push(Obligation {
            frame,
            depth,
            cube,
            inputs,
            successor,
            optional,
            fails: 0,
            act: 0.0,
        });
        Ok(None)
    }

    /// Works off the queued obligations. A blocked one is queued again one frame above its
    /// lemma, which finds counterexamples longer than the current round without more rounds;
    /// with `--ic3-drop-po N` such an optional one is dropped at its N-th predecessor, with
    /// `--ic3-po-act T` any one whose activity passes T (the round then meets the bad state
    /// again, as a new obligation, with the lemmas learnt on the way).
    fn block(&mut self) -> Result<Option<Trace>, Interrupted> {
        let n = self.frames.top();
        while let Some(id) = self.obligations.pop() {
            let ob = self.obligations.get(id);
            let (frame, depth, cube) = (ob.frame, ob.depth, ob.cube.clone());
            if let Some(level) = self.frames.blocked_at(frame, &cube) {
                if level < n {
                    self.obligations.requeue(id, level + 1);
                }
                continue;
            }
            let ob = self.obligations.get_mut(id);
            ob.act += 1.0;
            if self.options.po_act > 0 && ob.act > f64::from(self.options.po_act) {
                self.counters.dropped += 1;
                continue;
            }
            match self.relative_induction(frame - 1, &cube)? {
                Some(core) => {
                    let effort = self.ctg_effort(id);
                    let level = self.block_cube(frame - 1, core, effort)?;
                    if level < n {
                        self.obligations.requeue(id, level + 1);
                    }
                }
                None => {
                    let ob = self.obligations.get_mut(id);
                    ob.fails += 1;
                    let limit = self.options.drop_po;
                    if ob.optional && limit > 0 && ob.fails >= limit {
                        self.counters.dropped += 1;
                        continue;
                    }
                    let (pred, inputs) = self.predecessor(frame - 1, Target::Cube(&cube))?;
                    self.obligations.requeue(id, frame);
                    if let Some(trace) = self.open(frame - 1, depth + 1, pred, inputs, Some(id))? {
                        return Ok(Some(trace));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The CTG effort of MIC for obligation `id`: the command line's, or with
    /// `--ic3-dynamic` one that grows with the highest activity among its next three
    /// successors (an obligation of the bad state itself gets none): no CTGs below 10, 2-4
    /// in a row up to 40, above that 5 in a row, each blocked through a number of cubes
    /// growing with the activity (rIC3's `--dynamic`).
    fn ctg_effort(&self, id: usize) -> CtgEffort {
        if !self.options.dynamic_mic {
            return self.options.ctg_effort();
        }
        let mut act: f64 = 0.0;
        let mut next = self.obligations.get(id).successor;
        for _ in 0..3 {
            let Some(s) = next else { break };
            act = act.max(self.obligations.get(s).act);
            next = self.obligations.get(s).successor;
        }
        let (max, limit) = match act {
            a if a < 10.0 => (0, 1),
            a if a < 40.0 => ((a - 10.0) as usize / 10 + 2, 1),
            a => (5, ((a - 40.0).powf(0.45) * 2.0 + 5.0).round() as u32),
        };
        CtgEffort { max, limit }
    }

    /// Generalises `cube` (blocked relative to F_i; MIC with the CTG effort `effort`),
    /// pushes it up while it stays blocked and adds its lemma there. Returns the lemma's
    /// level.
    pub(super) fn block_cube(
        &mut self,
        i: usize,
        cube: Cube,
        effort: CtgEffort,
    ) -> Result<usize, Interrupted> {
        let cube = self.generalize_with(i, cube, effort)?;
        let (level, cube) = self.push_up(i + 1, cube)?;
        self.add_lemma(level, cube);
        Ok(level)
    }

    /// Moves `cube`, blocked relative to F_{level-1}, up while it stays blocked relative to
    /// the frame of its level, shrinking it to each query's core. Returns the level where it
    /// stopped (a lemma there is valid) and the cube.
    pub(super) fn push_up(
        &mut self,
        mut level: usize,
        mut cube: Cube,
    ) -> Result<(usize, Cube), Interrupted> {
        while level < self.frames.top() {
            match self.relative_induction(level, &cube)? {
                Some(core) => {
                    cube = core;
                    level += 1;
                }
                None => break,
            }
        }
        Ok((level, cube))
    }
}
