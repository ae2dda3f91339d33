//! A lean MiniSat-style CDCL solver for IC3's many small incremental queries.
//!
//! CaDiCaL's per-call overhead (restart and inprocessing bookkeeping, its size) dominates
//! queries that take tens of microseconds; the fast IC3 implementations (ABC's `pdr`,
//! IC3ref on MiniSat, rIC3 on GipSAT) use a small solver instead. This one has what such
//! queries need and nothing else: a clause arena ([`arena`]), two watched literals
//! ([`propagate`]), VSIDS ([`heap`]), first-UIP learning with minimisation and the final
//! analysis that yields cores ([`analyze`]), Luby restarts, LBD-based reduction and level-0
//! removal of satisfied clauses ([`search`]). There is no variable elimination, so freezing
//! is a no-op.
//!
//! The model of a satisfiable call is the trail itself, left in place until the next call:
//! clauses added meanwhile wait in `pending` (they are added at level 0 when the next call
//! starts), so [`Solver::value`] keeps describing the last model, as the trait promises.

mod analyze;
mod arena;
mod heap;
mod propagate;
mod search;
#[cfg(test)]
mod tests;

use arena::{Arena, CRef, NO_REASON};
use heap::Order;
use propagate::{Watch, FALSE, TRUE, UNDEF};

use super::{Lit, SatResult, Solver, Var};
use crate::Budget;

pub struct Cdcl {
    budget: Budget,
    /// False once the clauses alone are unsatisfiable.
    ok: bool,
    arena: Arena,
    originals: Vec<CRef>,
    learnts: Vec<CRef>,
    learnt_limit: usize,
    /// Per literal code.
    watches: Vec<Vec<Watch>>,
    vals: Vec<i8>,
    failed: Vec<bool>,
    /// Per variable.
    level: Vec<u32>,
    reason: Vec<CRef>,
    /// The value a variable takes when decided: the last one it had, initially true (as in
    /// CaDiCaL; IC3 reads its predecessor states from these decisions).
    phase: Vec<bool>,
    seen: Vec<bool>,
    order: Order,
    trail: Vec<u32>,
    /// Where each decision level starts on the trail.
    trail_lim: Vec<usize>,
    /// The trail up to here is propagated.
    qhead: usize,
    assumptions: Vec<u32>,
    failed_list: Vec<u32>,
    /// Clauses added while a model was kept, as literal lists ended by `u32::MAX`.
    pending: Vec<u32>,
    /// Whether the trail holds the model of the last call.
    has_model: bool,
    level_stamp: Vec<u64>,
    stamp: u64,
    conflicts: u64,
    propagations: u64,
    /// The trail length and propagation count that gate the next [`Cdcl::simplify`].
    simplified_at: usize,
    next_simplify: u64,
    /// Whether the current call has a domain ([`Cdcl::solve_in`]).
    restricted: bool,
    /// Per variable: equal to `domain_stamp` when it is in the domain of the last
    /// [`Cdcl::solve_in`] call, which bumps the stamp.
    domain_mark: Vec<u32>,
    domain_stamp: u32,
}

const END: u32 = u32::MAX;

impl Cdcl {
    pub fn new(budget: &Budget) -> Cdcl {
        Cdcl {
            budget: budget.clone(),
            ok: true,
            arena: Arena::default(),
            originals: Vec::new(),
            learnts: Vec::new(),
            learnt_limit: search::LEARNTS_FIRST,
            watches: Vec::new(),
            vals: Vec::new(),
            failed: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            phase: Vec::new(),
            seen: Vec::new(),
            order: Order::new(),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            assumptions: Vec::new(),
            failed_list: Vec::new(),
            pending: Vec::new(),
            has_model: false,
            level_stamp: Vec::new(),
            stamp: 0,
            conflicts: 0,
            propagations: 0,
            simplified_at: 0,
            next_simplify: 0,
            restricted: false,
            domain_mark: Vec::new(),
            domain_stamp: 0,
        }
    }

    fn num_vars(&self) -> usize {
        self.level.len()
    }

    /// Makes variables up to `v` exist (clauses may name variables not asked for).
    fn reserve(&mut self, v: usize) {
        while self.num_vars() <= v {
            self.watches.extend([Vec::new(), Vec::new()]);
            self.vals.extend([UNDEF, UNDEF]);
            self.failed.extend([false, false]);
            self.level.push(0);
            self.reason.push(NO_REASON);
            self.phase.push(true);
            self.seen.push(false);
            self.domain_mark.push(0);
            self.order.add_var();
        }
    }

    /// Adds a clause at level 0: drops duplicate and false literals, ignores tautologies and
    /// satisfied clauses, assigns and propagates units.
    fn add_now(&mut self, lits: &[u32]) {
        if !self.ok {
            return;
        }
        let mut c = lits.to_vec();
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|w| w[0] ^ 1 == w[1]) || c.iter().any(|&l| self.val(l) == TRUE) {
            return;
        }
        c.retain(|&l| self.val(l) != FALSE);
        match c.len() {
            0 => self.ok = false,
            1 => {
                self.assign(c[0], NO_REASON);
                self.ok = self.propagate().is_none();
            }
            _ => {
                let cref = self.arena.alloc(&c, false, 0);
                self.originals.push(cref);
                self.attach(cref);
            }
        }
    }

    /// Solves under `assumptions` deciding and propagating only the variables of `domain`
    /// (GipSAT's domain restriction): `Sat` once they are all assigned without conflict,
    /// leaving the others unassigned.
    ///
    /// Above level 0, propagation skips a clause as soon as one of its two watched literals
    /// is outside the domain (see [`propagate`]), so it never assigns such a variable; the
    /// clauses made only of domain variables are all propagated, as without a domain.
    /// Level 0 is always propagated in full, so what a query skipped is undone with its
    /// levels, and the watches of the next call (with or without a domain) are whole.
    ///
    /// Unsat answers and cores are as sound as without a domain: every conflict is a
    /// clause false under the trail, and analysis resolves only clauses (skipping some only
    /// misses implications). A `Sat` answer is sound when every total assignment of the
    /// domain that satisfies the clauses made only of domain variables extends to a model
    /// of all clauses; the caller guarantees it (IC3: see
    /// `engine::ic3::solver::FrameSolver::domain`). The trail then assigns exactly the
    /// domain (no propagation leaves it), satisfies every clause made of domain variables
    /// (each was propagated), so it agrees with such a model, and every domain variable
    /// reads its value in it.
    pub fn solve_in(&mut self, assumptions: &[Lit], domain: &[Var]) -> SatResult {
        self.reset();
        if let Some(max) = (assumptions.iter().map(|l| l.vidx()))
            .chain(domain.iter().map(|v| v.idx()))
            .max()
        {
            self.reserve(max);
        }
        if self.domain_stamp == u32::MAX {
            self.domain_mark.iter_mut().for_each(|m| *m = 0);
            self.domain_stamp = 0;
        }
        self.domain_stamp += 1;
        for v in domain {
            self.domain_mark[v.idx()] = self.domain_stamp;
        }
        self.restricted = true;
        self.order.restrict(domain.iter().map(|v| v.idx32()));
        self.solve_now(assumptions)
    }

    fn solve_now(&mut self, assumptions: &[Lit]) -> SatResult {
        self.reset();
        if self.budget.expired() {
            return SatResult::Interrupted;
        }
        if !self.ok || self.propagate().is_some() {
            self.ok = false;
            return SatResult::Unsat;
        }
        self.simplify();
        if let Some(max) = assumptions.iter().map(|l| l.vidx()).max() {
            self.reserve(max);
        }
        self.assumptions = assumptions.iter().map(|&l| code(l)).collect();
        let result = self.run();
        self.order.retire();
        if result == SatResult::Sat {
            self.has_model = true;
        } else {
            self.cancel_until(0);
        }
        result
    }

    /// Ends the last call's model: back to level 0, pending clauses added.
    fn reset(&mut self) {
        self.cancel_until(0);
        self.has_model = false;
        let pending = std::mem::take(&mut self.pending);
        for clause in pending.split(|&l| l == END).filter(|c| !c.is_empty()) {
            self.add_now(clause);
        }
        for &l in &self.failed_list {
            self.failed[l as usize] = false;
        }
        self.failed_list.clear();
    }
}

fn code(lit: Lit) -> u32 {
    lit.lidx() as u32
}

impl Solver for Cdcl {
    fn new_var(&mut self) -> Var {
        let v = self.num_vars();
        self.reserve(v);
        Var::new(v as u32)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.vidx()).max() {
            self.reserve(max);
        }
        if self.has_model {
            self.pending.extend(lits.iter().map(|&l| code(l)));
            self.pending.push(END);
        } else {
            let codes: Vec<u32> = lits.iter().map(|&l| code(l)).collect();
            self.add_now(&codes);
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        self.restricted = false;
        let vals = &self.vals;
        self.order.unrestrict(|v| vals[2 * v as usize] == UNDEF);
        self.solve_now(assumptions)
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        if !self.has_model {
            return None;
        }
        match self.vals.get(lit.lidx()) {
            Some(&TRUE) => Some(true),
            Some(&FALSE) => Some(false),
            _ => None,
        }
    }

    fn failed(&self, lit: Lit) -> bool {
        self.failed.get(lit.lidx()).copied().unwrap_or(false)
    }

    fn set_frozen(&mut self, _var: Var, _frozen: bool) {}
}
