//! The step case of k-induction, in one incremental solver that only ever deepens.
//!
//! Frame 0 is an arbitrary state (`Start::Free`). At depth `k` the formula holds the
//! constraints and every injected lemma in frames `0..=k` and "no bad state" in frames `0..k`
//! as permanent clauses (they stay true for every deeper query); only "a bad state in frame
//! `k`" sits under an activation literal, retired when the search deepens.
//!
//! Simple-path constraints are lazy: when the solver finds a step counterexample, its states
//! are compared, and for every pair of equal frames a distinctness constraint ("the two states
//! differ in some latch", one fresh literal per latch implying that the latch differs) is
//! added and the query solved again. A constraint about two frames stays sound at every
//! deeper depth, so none is ever removed. They all sit under one activation literal, so a
//! proof can be re-checked without them: only a proof that holds without them has a k-copy
//! certificate.

use std::collections::{HashMap, HashSet};

use crate::aig::Lit;
use crate::engine::lemmas::{Lemma, LemmaPool};
use crate::sat::{self, Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The outcome of the step case at one depth.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) enum StepResult {
    /// No path of `k` good states followed by a bad one (without simple-path constraints).
    Proved,
    /// No *simple* such path: the system is safe, but the proof has no k-copy certificate.
    ProvedWithSimplePath,
    /// A loop-free step counterexample exists at this depth, even with every injected lemma.
    Failed,
    Interrupted,
}

#[derive(Copy, Clone, Default, Debug)]
pub(super) struct StepStats {
    pub queries: u64,
    pub simple_path_pairs: u64,
    pub lemmas: u64,
}

pub(super) struct Step<'a> {
    ts: &'a TransitionSystem,
    solver: Cadical,
    un: Unroller<'a>,
    /// The deepest frame encoded (constraints and lemmas), `None` before the first query.
    depth: Option<usize>,
    /// Activates "some bad literal holds in frame `depth`".
    query: Option<sat::Lit>,
    /// Activates every simple-path constraint; created with the first one.
    simple_path: Option<sat::Lit>,
    distinct: HashSet<(usize, usize)>,
    lemmas: Vec<Lemma>,
    /// Whether each AIG variable is a latch output (lemmas over anything else are refused).
    is_latch: Vec<bool>,
    stats: StepStats,
}

impl<'a> Step<'a> {
    pub(super) fn new(ts: &'a TransitionSystem, budget: &Budget) -> Step<'a> {
        let mut is_latch = vec![false; ts.aig.num_vars()];
        for l in &ts.latches {
            is_latch[l.var.index()] = true;
        }
        Step {
            ts,
            solver: Cadical::new(budget),
            un: Unroller::new(ts, Start::Free).merging_gates(),
            depth: None,
            query: None,
            simple_path: None,
            distinct: HashSet::new(),
            lemmas: Vec::new(),
            is_latch,
            stats: StepStats::default(),
        }
    }

    pub(super) fn stats(&self) -> StepStats {
        self.stats
    }

    /// Every lemma the step formula holds (in every frame).
    pub(super) fn lemmas(&self) -> &[Lemma] {
        &self.lemmas
    }

    /// The step case at depth `k` (at least the depth of the previous call): can `k` good
    /// states be followed by a bad one? New lemmas from `pool` are injected before every
    /// query, and a failed check is repeated at once when lemmas arrived meanwhile.
    pub(super) fn check(&mut self, k: usize, pool: &LemmaPool, cursor: &mut usize) -> StepResult {
        let query = self.deepen(k);
        let mut fresh = pool.fetch(cursor);
        loop {
            self.inject(fresh);
            let mut assumptions = vec![query];
            assumptions.extend(self.simple_path);
            match self.solve(&assumptions) {
                SatResult::Unsat => return self.without_simple_path(query),
                SatResult::Sat => {
                    let looped = self.block_loops(k);
                    fresh = pool.fetch(cursor);
                    if !looped && fresh.is_empty() {
                        return StepResult::Failed;
                    }
                }
                SatResult::Interrupted => return StepResult::Interrupted,
            }
        }
    }

    /// Classifies a refuted step query: whether the refutation needs the simple-path
    /// constraints (first from the failed assumptions, then by solving without them).
    fn without_simple_path(&mut self, query: sat::Lit) -> StepResult {
        match self.simple_path {
            Some(sp) if self.solver.failed(sp) => match self.solve(&[query]) {
                SatResult::Unsat => StepResult::Proved,
                SatResult::Sat => StepResult::ProvedWithSimplePath,
                SatResult::Interrupted => StepResult::Interrupted,
            },
            _ => StepResult::Proved,
        }
    }

    fn solve(&mut self, assumptions: &[sat::Lit]) -> SatResult {
        self.stats.queries += 1;
        self.solver.solve(assumptions)
    }

    /// Encodes frames up to `k` and returns the activation literal of "bad in frame `k`".
    fn deepen(&mut self, k: usize) -> sat::Lit {
        let ts = self.ts;
        let first_new = self.depth.map_or(0, |d| d + 1);
        if let (Some(d), Some(q)) = (self.depth, self.query) {
            if d == k {
                return q;
            }
            self.solver.add_clause(&[!q]);
        }
        for f in first_new..=k {
            for &c in &ts.constraints {
                let l = self.un.lit(&mut self.solver, c, f);
                self.solver.add_clause(&[l]);
            }
            for i in 0..self.lemmas.len() {
                self.add_lemma(i, f);
            }
            if f < k {
                for &b in &ts.bad {
                    let l = self.un.lit(&mut self.solver, b, f);
                    self.solver.add_clause(&[!l]);
                }
            }
        }
        // Frames before `first_new` were the query frames of earlier depths: now good.
        if first_new > 0 {
            for &b in &ts.bad {
                let l = self.un.lit(&mut self.solver, b, first_new - 1);
                self.solver.add_clause(&[!l]);
            }
        }
        let q = self.solver.new_var().pos_lit();
        let mut clause = vec![!q];
        for &b in &ts.bad {
            clause.push(self.un.lit(&mut self.solver, b, k));
        }
        self.solver.add_clause(&clause);
        self.depth = Some(k);
        self.query = Some(q);
        q
    }

    /// Adds lemmas to every encoded frame and remembers them for the frames to come.
    fn inject(&mut self, lemmas: Vec<Lemma>) {
        for lemma in lemmas {
            if !lemma.iter().all(|l| self.is_latch[l.var().index()]) {
                crate::log::info(1, format_args!("kind: refused a lemma over non-latches"));
                continue;
            }
            self.lemmas.push(lemma);
            self.stats.lemmas += 1;
            for f in 0..self.depth.map_or(0, |d| d + 1) {
                self.add_lemma(self.lemmas.len() - 1, f);
            }
        }
    }

    fn add_lemma(&mut self, i: usize, frame: usize) {
        let clause: Vec<sat::Lit> = self.lemmas[i]
            .iter()
            .map(|&l| self.un.lit(&mut self.solver, l, frame))
            .collect();
        self.solver.add_clause(&clause);
    }

    /// Adds a distinctness constraint for each pair of equal states in the model of a step
    /// query at depth `k` (each frame with the last earlier frame holding the same state).
    /// Returns whether one was added, i.e. whether the counterexample was spurious for
    /// simple-path k-induction.
    fn block_loops(&mut self, k: usize) -> bool {
        let mut last: HashMap<Vec<bool>, usize> = HashMap::new();
        let mut pairs = Vec::new();
        for f in 0..=k {
            let state = self
                .ts
                .latches
                .iter()
                .map(|l| self.un.value(&self.solver, l.var.lit(), f))
                .collect();
            if let Some(earlier) = last.insert(state, f) {
                pairs.push((earlier, f));
            }
        }
        // A pair that is already constrained differs in the model (both frames encode every
        // latch), so it cannot show up here; the filter only guards against looping forever.
        pairs.retain(|p| !self.distinct.contains(p));
        for &(a, b) in &pairs {
            self.add_distinct(a, b);
        }
        !pairs.is_empty()
    }

    fn add_distinct(&mut self, a: usize, b: usize) {
        let sp = *self
            .simple_path
            .get_or_insert_with(|| self.solver.new_var().pos_lit());
        let mut clause = vec![!sp];
        for latch in &self.ts.latches {
            let l: Lit = latch.var.lit();
            let (xa, xb) = (
                self.un.lit(&mut self.solver, l, a),
                self.un.lit(&mut self.solver, l, b),
            );
            let differ = self.solver.new_var().pos_lit();
            self.solver.add_clause(&[!differ, xa, xb]);
            self.solver.add_clause(&[!differ, !xa, !xb]);
            clause.push(differ);
        }
        self.solver.add_clause(&clause);
        self.distinct.insert((a, b));
        self.stats.simple_path_pairs += 1;
    }
}
