//! The frames F_0..F_N and F_inf: lemmas per level, one solver per frame.
//!
//! Delta encoding (Eén, Mishchenko, Brayton): a lemma stored at level `j` belongs to
//! F_1..F_j, so F_i is the union of levels `i..=N` plus F_inf, and pushing a lemma forward
//! moves it one level up and adds it to one more solver. F_0 is the initial states; its
//! solver never receives lemmas (they all hold initially). F_inf holds lemmas that are
//! inductive relative to F_inf itself, so their conjunction is an invariant whatever the
//! other frames do; it has a solver of its own to decide that.

use super::cube::{clause, subsumes, Cube};
use super::options::Ic3Sat;
use super::solver::{FrameSolver, Role};
use crate::aig::Lit;
use crate::ts::TransitionSystem;
use crate::Budget;

pub(super) struct Frames<'a> {
    /// `levels[j]`: the cubes blocked in F_1..F_j but not in F_{j+1}; `levels[0]` stays empty.
    levels: Vec<Vec<Cube>>,
    inf: Vec<Cube>,
    /// `solvers[i]`: the transition relation with F_i asserted.
    solvers: Vec<FrameSolver<'a>>,
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
            inf: Vec::new(),
            solvers: vec![FrameSolver::new(ts, Role::Init, budget, backend)],
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
    }

    pub(super) fn solver(&mut self, i: usize) -> &mut FrameSolver<'a> {
        &mut self.solvers[i]
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
        for level in &mut self.levels[1..=j] {
            level.retain(|c| !subsumes(&cube, c));
        }
        for s in &mut self.solvers[1..=j] {
            s.block(&cube);
        }
        self.levels[j].push(cube);
    }

    /// Blocks sorted `cube` in every frame, for good.
    pub(super) fn add_inf(&mut self, cube: Cube) {
        for level in &mut self.levels {
            level.retain(|c| !subsumes(&cube, c));
        }
        for s in self.solvers[1..].iter_mut().chain([&mut self.inf_solver]) {
            s.block(&cube);
        }
        self.inf.push(cube);
    }

    /// The highest level at which a stored lemma already blocks `cube`, looking from level
    /// `from` up (`usize::MAX`: F_inf). A syntactic check: a lemma whose cube is part of
    /// `cube` (sorted) excludes it.
    pub(super) fn blocked_at(&self, from: usize, cube: &[Lit]) -> Option<usize> {
        if self.inf.iter().any(|c| subsumes(c, cube)) {
            return Some(usize::MAX);
        }
        (from..self.levels.len())
            .rev()
            .find(|&j| self.levels[j].iter().any(|c| subsumes(c, cube)))
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
