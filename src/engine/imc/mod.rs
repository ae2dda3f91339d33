//! Interpolation-based model checking (McMillan, CAV 2003).
//!
//! For a bound `k`, one query asks whether a state of `R` (initially the initial states) can
//! reach a bad state in `1..=k` transitions: A = `R(s0) and C(s0) and T(s0, s1)`, B = the
//! transitions from `s1` to `sk` and a bad state at some frame `j` with the constraints `C`
//! in frames `1..=j`. When the query is unsatisfiable, the interpolant is an
//! over-approximation of the image of `R` from which no bad state is reachable in `k - 1`
//! transitions; mapped back to the current-state latches it is added to `R`. When it adds
//! nothing (it implies `R` under the constraints) `R` is an inductive invariant. A satisfying
//! query from the initial states is a real counterexample, found again by BMC for its trace;
//! one from a larger `R` may be spurious, so `k` grows and `R` restarts.
//!
//! A and B are unrolled separately and joined by equalities between A's frame-1 latches and
//! B's frame-0 latches (in A): the shared variables are then exactly one per latch, even when
//! next-state functions coincide or are latches themselves, and the interpolant reads as a
//! predicate over the latches. (With one unrolling, two latches with the same next-state
//! function would share a variable and the interpolant could not tell them apart.)
//!
//! The invariant returned is `R` itself, built in a copy of the system's AIG: initiation holds
//! as `R` contains the initial states, consecution as every image lands in the last
//! interpolant, which implies `R`, and safety as every interpolant excludes bad states in its
//! own frame (B has a bad state at frame 1 as one of its disjuncts) and the initial states
//! have none (checked at depth 0).

#[cfg(test)]
mod tests;

use std::collections::HashMap;

use super::bmc::Bounded;
use super::{Engine, Stats, Verdict};
use crate::aig;
use crate::cert::Invariant;
use crate::sat::itp::{Interpolant, ItpError, ItpSolver, System};
use crate::sat::{self, Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The IMC engine; `max_depth` bounds `k`.
pub struct Imc {
    max_depth: Option<usize>,
    system: System,
    stats: ImcStats,
}

#[derive(Default)]
struct ImcStats {
    bound: u64,
    queries: u64,
    interpolants: u64,
    spurious: u64,
    largest_interpolant: u64,
    resolutions: u64,
}

/// The outcome of one interpolation query.
enum Query {
    Refuted(Interpolant, HashMap<sat::Var, aig::Lit>),
    Reachable,
    Stopped,
    Failed(String),
}

impl Imc {
    pub fn new(max_depth: Option<usize>) -> Imc {
        Imc {
            max_depth,
            system: System::McMillan,
            stats: ImcStats::default(),
        }
    }

    /// Uses `system` for the interpolants (McMillan's by default).
    pub fn with_system(mut self, system: System) -> Imc {
        self.system = system;
        self
    }

    /// Asks whether a state of `reach` (a predicate over the latches in `sys`) reaches a bad
    /// state in `1..=k` transitions. On a refutation, returns the interpolant and the map from
    /// its variables (B's frame-0 latches) to the latches.
    fn query(
        &mut self,
        sys: &TransitionSystem,
        reach: aig::Lit,
        k: usize,
        budget: &Budget,
    ) -> Query {
        self.stats.queries += 1;
        let mut s = ItpSolver::new(budget);
        let mut ub = Unroller::new(sys, Start::Free);
        s.set_partition(1);
        let mut targets = Vec::with_capacity(k);
        let mut constrained: Option<sat::Lit> = None;
        for j in 0..k {
            // `ok` stands for "the constraints hold in frames 0..=j" of B.
            let ok = s.new_var().pos_lit();
            for &c in &sys.constraints {
                let l = ub.lit(&mut s, c, j);
                s.add_clause(&[!ok, l]);
            }
            if let Some(prev) = constrained {
                s.add_clause(&[!ok, prev]);
            }
            constrained = Some(ok);
            let t = s.new_var().pos_lit();
            let mut clause = vec![!t];
            for &b in &sys.bad {
                clause.push(ub.lit(&mut s, b, j));
            }
            s.add_clause(&clause);
            s.add_clause(&[!t, ok]);
            targets.push(t);
        }
        s.add_clause(&targets);

        s.set_partition(0);
        let mut ua = Unroller::new(sys, Start::Free);
        for &c in &sys.constraints {
            let l = ua.lit(&mut s, c, 0);
            s.add_clause(&[l]);
        }
        let r = ua.lit(&mut s, reach, 0);
        s.add_clause(&[r]);
        let mut shared = HashMap::new();
        for l in &sys.latches {
            if let Some(b) = ub.encoded(l.var.lit(), 0) {
                let a = ua.lit(&mut s, l.var.lit(), 1);
                s.add_clause(&[!a, b]);
                s.add_clause(&[a, !b]);
                shared.insert(b.var(), l.var.lit().xor_sign(b.is_neg()));
            }
        }
        let result = s.solve(&[]);
        self.stats.resolutions += s.resolutions();
        match result {
            SatResult::Sat => Query::Reachable,
            SatResult::Interrupted => Query::Stopped,
            SatResult::Unsat => match s.interpolant(0, self.system) {
                Ok(itp) => Query::Refuted(itp, shared),
                Err(ItpError::Stopped) => Query::Stopped,
                Err(e) => Query::Failed(e.to_string()),
            },
        }
    }
}

/// Whether `p` implies `q` (both over the latches of `sys`) in states satisfying the
/// constraints: `Unsat` if it does.
fn implies(sys: &TransitionSystem, p: aig::Lit, q: aig::Lit, budget: &Budget) -> SatResult {
    let mut s = Cadical::for_one_shot(budget);
    let mut un = Unroller::new(sys, Start::Free);
    for &c in &sys.constraints {
        let l = un.lit(&mut s, c, 0);
        s.add_clause(&[l]);
    }
    let (lp, lq) = (un.lit(&mut s, p, 0), un.lit(&mut s, q, 0));
    s.solve(&[lp, !lq])
}

/// The initial states as a predicate over the latches of `sys` (uninitialised latches free).
fn init_predicate(sys: &mut TransitionSystem) -> aig::Lit {
    let lits: Vec<aig::Lit> = sys
        .latches
        .iter()
        .filter_map(|l| l.init.map(|v| l.var.lit().xor_sign(!v)))
        .collect();
    sys.aig.and_all(lits)
}

/// How the queries at one bound ended.
enum Round {
    /// A fixpoint: the invariant.
    Fixpoint(Box<Invariant>),
    /// A bad state is reachable from the initial states within the bound.
    Real,
    /// A bad state is reachable from the over-approximation only: the bound must grow.
    Spurious,
    /// Out of budget, or no usable interpolant.
    Stopped,
}

impl Imc {
    /// Over-approximates the reachable states with interpolants for bound `k` until a
    /// fixpoint or a satisfiable query.
    fn round(&mut self, ts: &TransitionSystem, k: usize, budget: &Budget) -> Round {
        let mut sys = ts.clone();
        let mut reach = init_predicate(&mut sys);
        let mut from_init = true;
        loop {
            let (itp, shared) = match self.query(&sys, reach, k, budget) {
                Query::Refuted(itp, shared) => (itp, shared),
                Query::Reachable if from_init => return Round::Real,
                Query::Reachable => return Round::Spurious,
                Query::Stopped => return Round::Stopped,
                Query::Failed(e) => {
                    crate::log::info(1, format_args!("imc: {e}"));
                    return Round::Stopped;
                }
            };
            from_init = false;
            self.stats.interpolants += 1;
            self.stats.largest_interpolant =
                self.stats.largest_interpolant.max(itp.num_ands() as u64);
            let Some(image) = itp.copy_into(&mut sys.aig, |v| shared.get(&v).copied()) else {
                crate::log::info(1, format_args!("imc: interpolant off the latches"));
                return Round::Stopped;
            };
            match implies(&sys, image, reach, budget) {
                SatResult::Unsat => {
                    return Round::Fixpoint(Box::new(Invariant {
                        system: sys,
                        predicate: reach,
                    }))
                }
                SatResult::Sat => reach = sys.aig.or(reach, image),
                SatResult::Interrupted => return Round::Stopped,
            }
        }
    }
}

impl Engine for Imc {
    fn name(&self) -> &'static str {
        "imc"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        // Depth 0 is BMC's: IMC's queries start at one transition. BMC also finds the trace
        // of a real counterexample; `clean` is the deepest bound known to be clean.
        let mut bmc = Bounded::new(ts, budget);
        match bmc.check(0) {
            SatResult::Sat => return Verdict::Unsafe(bmc.trace(0)),
            SatResult::Unsat => {}
            SatResult::Interrupted => return Verdict::Unknown { depth: None },
        }
        let mut clean = 0;
        let mut k = 1;
        while self.max_depth.is_none_or(|m| k <= m) && !budget.expired() {
            self.stats.bound = k as u64;
            match self.round(ts, k, budget) {
                Round::Fixpoint(inv) => {
                    crate::log::info(2, format_args!("imc: fixpoint at bound {k}"));
                    return Verdict::Safe(*inv);
                }
                Round::Spurious => {
                    crate::log::info(2, format_args!("imc: spurious at bound {k}"));
                    self.stats.spurious += 1;
                    // The first query of the round (from the initial states) was refuted.
                    clean = k;
                    k += 1;
                }
                Round::Real => {
                    // `Bounded` takes its depths in order.
                    for d in 1..=k {
                        match bmc.check(d) {
                            SatResult::Sat => return Verdict::Unsafe(bmc.trace(d)),
                            SatResult::Unsat => clean = clean.max(d),
                            SatResult::Interrupted => break,
                        }
                    }
                    if clean == k {
                        crate::log::info(1, format_args!("imc: BMC found no bug within {k}"));
                    }
                    break;
                }
                Round::Stopped => break,
            }
        }
        Verdict::Unknown { depth: Some(clean) }
    }

    fn stats(&self) -> Stats {
        vec![
            ("imc_bound", self.stats.bound),
            ("imc_queries", self.stats.queries),
            ("imc_interpolants", self.stats.interpolants),
            ("imc_spurious", self.stats.spurious),
            ("imc_largest_interpolant", self.stats.largest_interpolant),
            ("imc_resolutions", self.stats.resolutions),
        ]
    }
}
