//! The frames F_0..F_N and F_inf: lemmas per level, one solver per frame.
//!
//! Delta encoding (Eén, Mishchenko, Brayton): a lemma stored at level `j` belongs to
//! F_1..F_j, so F_i is the union of levels `i..=N` plus F_inf, and pushing a lemma forward
//! moves it one level up and adds it to one more solver (the solvers below have its clause
//! already, and a copy per push would grow them with every frame). F_0 is the initial
//! states; its solver never receives lemmas (they all hold initially). F_inf holds lemmas
//! that are inductive relative to F_inf itself, so their conjunction is an invariant
//! whatever the other frames do; it has a solver of its own to decide that.

use super::cube::{clause, signature, subsumes, Cube};
use super::options::Ic3Sat;
use super::solver::{FrameSolver, Role};
use crate::aig::Lit;
use crate::ts::TransitionSystem;
use crate::Budget;

pub(super) struct Frames<'a> {
    /// `levels[j]`: the cubes blocked in F_1..F_j but not in F_{j+1}; `levels[0]` stays empty.
    levels: Vec<Vec<Cube>>,
    /// `sigs[j][k]`: the [`signature`] of `levels[j][k]`.
    sigs: Vec<Vec<u64>>,
    inf: Vec<Cube>,
    /// `solvers[i]`: the transition relation with F_i asserted.
    solvers: Vec<FrameSolver<'a>>,
    /// `changed[j]`: solver `j` has received a clause since level `j` was last propagated.
    /// A lemma that did not move up from level `j` stays put until F_j grows, so propagation
    /// skips the levels whose frames are unchanged (rIC3 starts it at the lowest changed one).
    changed: Vec<bool>,
    inf_solver: FrameSolver<'a>,
    ts: &'a TransitionSystem,
    budget: Budget,
    backend: Ic3Sat,
}

impl<'a> Frames<'a> {
    /// Only F_0.
    pub(super) fn new(ts: &'a TransitionSystem, budget: &Budget, backend: Ic3Sat) -> Frames<'a> {
        Frames {
            levels: vec![Vec::new()],
            sigs: vec![Vec::new()],
            inf: Vec::new(),
            solvers: vec![FrameSolver::new(ts, Role::Init, budget, backend)],
            changed: vec![false],
            inf_solver: FrameSolver::new(ts, Role::Frame, budget, backend),
            ts,
            budget: budget.clone(),
            backend,
        }
    }

    /// N: the last frame.
    pub(super) fn top(&self) -> usize {
        self.solvers.len() - 1
    }

    /// Opens F_{N+1}: no lemma of a level yet, only F_inf.
    pub(super) fn extend(&mut self) {
        let mut s = FrameSolver::new(self.ts, Role::Frame, &self.budget, self.backend);
        for cube in &self.inf {
            s.block(cube);
        }
        self.solvers.push(s);
        self.levels.push(Vec::new());
        self.sigs.push(Vec::new());
        // The lemmas of the old last level have a frame to move into now.
        let old_top = self.top() - 1;
        self.changed[old_top] = old_top > 0;
        self.changed.push(false);
    }

    pub(super) fn solver(&mut self, i: usize) -> &mut FrameSolver<'a> {
        &mut self.solvers[i]
    }

    /// Satisfiable queries asked again because their model broke a constraint kept out of
    /// the domain, over every frame's solver (see `solver/lazy_cst.rs`).
    pub(super) fn constraint_retries(&self) -> u64 {
        (self.solvers.iter().chain([&self.inf_solver]))
            .map(FrameSolver::constraint_retries)
            .sum()
    }

    pub(super) fn inf_solver(&mut self) -> &mut FrameSolver<'a> {
        &mut self.inf_solver
    }

    /// The cubes stored at exactly level `j`.
    pub(super) fn level(&self, j: usize) -> &[Cube] {
        &self.levels[j]
    }

    /// Blocks sorted `cube` in F_1..F_j, dropping the lemmas it subsumes there.
    pub(super) fn add(&mut self, j: usize, cube: Cube) {
        let from = self.drop_subsumed(j, &cube) + 1;
        self.block_in(from..=j, &cube);
        self.sigs[j].push(signature(&cube));
        self.levels[j].push(cube);
    }

    /// Drops the lemmas of levels 1..=j that `cube` subsumes, and returns the highest of
    /// those levels that held a lemma subsuming `cube` (0: none): the solvers up to it imply
    /// `cube`'s clause already (a pushed lemma's own solvers do). One pass over the levels
    /// answers both.
    fn drop_subsumed(&mut self, j: usize, cube: &[Lit]) -> usize {
        let sig = signature(cube);
        let mut implied = 0;
        for i in 1..=j {
            let (level, sigs) = (&mut self.levels[i], &mut self.sigs[i]);
            let mut kept = 0;
            for k in 0..level.len() {
                let s = sigs[k];
                if s & !sig == 0 && subsumes(&level[k], cube) {
                    implied = i;
                }
                if sig & !s == 0 && subsumes(cube, &level[k]) {
                    continue;
                }
                level.swap(kept, k);
                sigs[kept] = s;
                kept += 1;
            }
            level.truncate(kept);
            sigs.truncate(kept);
        }
        implied
    }

    /// Adds `cube`'s clause to the solvers of `levels`, whose frames thereby grow.
    fn block_in(&mut self, levels: std::ops::RangeInclusive<usize>, cube: &[Lit]) {
        for s in &mut self.solvers[levels.clone()] {
            s.block(cube);
        }
        self.changed[levels].fill(true);
    }

    /// Whether F_j has grown since level `j` was last propagated; clears the mark.
    pub(super) fn take_changed(&mut self, j: usize) -> bool {
        std::mem::take(&mut self.changed[j])
    }

    /// Blocks sorted `cube` in every frame, for good.
    pub(super) fn add_inf(&mut self, cube: Cube) {
        let top = self.top();
        let from = self.drop_subsumed(top, &cube) + 1;
        self.block_in(from..=top, &cube);
        self.inf_solver.block(&cube);
        self.inf.push(cube);
    }

    /// The highest level at which a stored lemma already blocks `cube`, looking from level
    /// `from` up (`usize::MAX`: F_inf). A syntactic check: a lemma whose cube is part of
    /// `cube` (sorted) excludes it.
    pub(super) fn blocked_at(&self, from: usize, cube: &[Lit]) -> Option<usize> {
        if self.inf.iter().any(|c| subsumes(c, cube)) {
            return Some(usize::MAX);
        }
        let sig = signature(cube);
        (from..self.levels.len()).rev().find(|&j| {
            (self.levels[j].iter().zip(&self.sigs[j]))
                .any(|(c, &s)| s & !sig == 0 && subsumes(c, cube))
        })
    }

    /// The clauses of F_level and above: an inductive invariant when level `level` is empty.
    pub(super) fn invariant(&self, level: usize) -> Vec<Vec<Lit>> {
        (self.levels[level..].iter().flatten())
            .chain(&self.inf)
            .map(|c| clause(c))
            .collect()
    }

    /// Number of lemmas in F_inf.
    pub(super) fn inf_len(&self) -> usize {
        self.inf.len()
    }
}
