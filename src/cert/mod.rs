//! Inductive invariants: what every `unsat` answer carries, and the check run on it before
//! the answer is printed.
//!
//! One shape serves every engine: the model's transition system extended with auxiliary
//! latches, plus a predicate over all latches. IC3 needs no auxiliary latches (its predicate is
//! the conjunction of its lemmas); k-induction adds shadow copies of the last k states. The
//! check is the same for both: initiation, consecution and safety under the constraints.
//!
//! Layer: certificates; imports [`crate::front`] (a Certifaiger witness circuit is an AIGER file)
//! and what lies below it; below the engines, which all hand back an [`Invariant`].

mod witness_circuit;

pub use witness_circuit::{certify, witness_circuit, CertifyError};
pub(crate) use witness_circuit::{embed, intervention, intervention_inputs, name_for_certifaiger};

use crate::aig::Lit;
use crate::sat::{Cadical, SatResult, Solver};
use crate::ts::{Restore, TransitionSystem};
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// An inductive invariant of a transition system.
#[derive(Clone, Debug)]
pub struct Invariant {
    /// The model's system (same inputs, latches and properties, in the same order) with
    /// auxiliary latches appended after the model's own.
    pub system: TransitionSystem,
    /// The invariant: a combinational function of the latches of `system`.
    pub predicate: Lit,
}

impl Invariant {
    /// A conjunction of clauses over the latches of `ts` (each clause a disjunction of latch
    /// literals): the form IC3 produces.
    pub fn from_clauses(ts: &TransitionSystem, clauses: &[Vec<Lit>]) -> Invariant {
        let mut system = ts.clone();
        let mut conj = Lit::TRUE;
        for c in clauses {
            let d = system.aig.or_all(c.iter().copied());
            conj = system.aig.and(conj, d);
        }
        Invariant {
            system,
            predicate: conj,
        }
    }

    /// Number of auxiliary latches beyond the model's.
    pub fn aux_latches(&self, model: &TransitionSystem) -> usize {
        self.system.latches.len() - model.latches.len()
    }

    /// The same invariant over `original`, the system `restore` maps this one's model to.
    /// `model` is the (reduced) system this invariant was proved for.
    ///
    /// The predicate is this one's (over the original latches the reduced ones stand for)
    /// conjoined with the facts the reductions proved. That conjunction is inductive: the facts
    /// are inductive on their own (with a window of past steps when a `k`-step induction
    /// proved them, see [`crate::ts::Facts::window`]), and in every state where they hold the
    /// original system makes the same transitions and evaluates the same properties and
    /// constraints as the reduced one, for which this invariant is inductive.
    pub fn lift(
        &self,
        model: &TransitionSystem,
        original: &TransitionSystem,
        restore: &Restore,
    ) -> Invariant {
        let mut system = original.clone();
        let src = &self.system;
        let mut map: Vec<Option<Lit>> = vec![None; src.aig.num_vars()];
        for (i, &v) in src.inputs.iter().enumerate() {
            map[v.index()] = Some(original.inputs[restore.input(i)].lit());
        }
        let n = model.latches.len();
        for (i, l) in src.latches.iter().enumerate() {
            map[l.var.index()] = Some(if i < n {
                original.latches[restore.latch(i)].var.lit()
            } else {
                system.add_latch(l.init, src.names.latches[i].clone()).lit()
            });
        }
        let mut roots: Vec<Lit> = src.latches[n..].iter().map(|l| l.next).collect();
        roots.push(self.predicate);
        let mut images = src.aig.copy_cone(&mut system.aig, &mut map, &roots);
        let reduced_predicate = images.pop().unwrap_or(Lit::TRUE);
        let base = original.latches.len();
        for (j, next) in images.into_iter().enumerate() {
            system.set_next(base + j, next);
        }
        let facts = restore.facts().window(&mut system, original.latches.len());
        let predicate = system.aig.and(facts, reduced_predicate);
        Invariant { system, predicate }
    }
}

/// Which condition an invariant fails.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum CertError {
    /// Some initial state (satisfying the constraints) violates the invariant.
    Initiation,
    /// The invariant is not preserved by a transition (under the constraints).
    Consecution,
    /// A state in the invariant (satisfying the constraints) is bad.
    Safety,
    /// The check ran out of budget.
    Interrupted,
}

impl std::fmt::Display for CertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CertError::Initiation => "the invariant does not hold in every initial state",
            CertError::Consecution => "the invariant is not inductive",
            CertError::Safety => "the invariant does not imply the properties",
            CertError::Interrupted => "the invariant check was interrupted",
        })
    }
}

/// Checks with fresh solvers that `inv` is an inductive invariant of `model` that excludes
/// every bad state. `model` must be the system `inv.system` extends.
pub fn check(model: &TransitionSystem, inv: &Invariant, budget: &Budget) -> Result<(), CertError> {
    let sys = &inv.system;
    if sys.inputs.len() != model.inputs.len()
        || sys.latches.len() < model.latches.len()
        || sys.bad.len() != model.bad.len()
    {
        return Err(CertError::Safety);
    }
    let p = inv.predicate;
    refuted(
        solve_frames(sys, Start::Init, 1, budget, &|un, s| vec![!un.lit(s, p, 0)]),
        CertError::Initiation,
    )?;
    inductive_and_safe(sys, p, budget)
}

/// Consecution (`p ∧ T ∧ ¬p'` unsatisfiable) and safety (`p ∧ bad` unsatisfiable) of `p`
/// in `sys`, in one incremental solver over two frames with `p` asserted in the first.
///
/// Consecution is asked conjunct by conjunct: `¬p'` is satisfiable iff `¬c'` is for some
/// top-level conjunct `c` of `p`, and each such query is small, like the relative-induction
/// query that proved the conjunct. One query on `¬p'` had to refute an IC3 invariant's
/// thousand clauses in one search (2-3 s of CaDiCaL on the cal designs, a fifth of their run
/// time). Every conjunct is encoded before the first solve and the assumed literals are
/// frozen: growing the formula between solves made CaDiCaL restore eliminated variables, and
/// an unfrozen assumption may be eliminated. The second frame's constraints hang on an
/// activation literal that only the consecution queries assume: a bad state need not have a
/// successor.
///
/// Gates are hashed over solver literals ([`Unroller::hashing_gates`]): the second frame of
/// a k-induction certificate's window is the first one's shifted by a slot, so it encodes
/// one new step rather than `k`.
fn inductive_and_safe(sys: &TransitionSystem, p: Lit, budget: &Budget) -> Result<(), CertError> {
    let mut s = Cadical::for_small_queries(budget);
    let mut un = Unroller::new(sys, Start::Free).hashing_gates();
    for &c in &sys.constraints {
        let l = un.lit(&mut s, c, 0);
        s.add_clause(&[l]);
    }
    let now = un.lit(&mut s, p, 0);
    s.add_clause(&[now]);
    let step = s.new_var().pos_lit();
    for &c in &sys.constraints {
        let l = un.lit(&mut s, c, 1);
        s.add_clause(&[!step, l]);
    }
    let any_bad = s.new_var().pos_lit();
    let mut clause = vec![!any_bad];
    clause.extend(sys.bad.iter().map(|&b| un.lit(&mut s, b, 0)));
    s.add_clause(&clause);
    let next: Vec<crate::sat::Lit> = (sys.aig.conjuncts(p).into_iter())
        .map(|c| un.lit(&mut s, c, 1))
        .collect();
    for l in next.iter().chain([&step, &any_bad]) {
        s.set_frozen(l.var(), true);
    }
    for &c in &next {
        refuted(s.solve(&[step, !c]), CertError::Consecution)?;
    }
    refuted(s.solve(&[any_bad]), CertError::Safety)
}

/// `Ok` when a query that looks for a violation found none, `e` when it found one.
fn refuted(r: SatResult, e: CertError) -> Result<(), CertError> {
    match r {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err(e),
        SatResult::Interrupted => Err(CertError::Interrupted),
    }
}

/// Solves one query over `frames` time frames of `sys` in a fresh solver, with the
/// constraints asserted in every frame and the assumptions `make` encodes.
pub(crate) fn solve_frames(
    sys: &TransitionSystem,
    start: Start,
    frames: usize,
    budget: &Budget,
    make: &dyn Fn(&mut Unroller, &mut Cadical) -> Vec<crate::sat::Lit>,
) -> SatResult {
    let mut s = Cadical::for_small_queries(budget);
    let mut un = Unroller::new(sys, start).hashing_gates();
    for k in 0..frames {
        for &c in &sys.constraints {
            let l = un.lit(&mut s, c, k);
            s.add_clause(&[l]);
        }
    }
    let assumptions = make(&mut un, &mut s);
    s.solve(&assumptions)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ts::tests::counter;

    /// A mod-6 counter (0..5 then 0) with bad = 7: the invariant "not 6 and not 7" holds.
    pub(crate) fn mod6() -> TransitionSystem {
        let mut ts = counter(3, 7, false);
        let (b0, b1, b2) = (
            ts.latches[0].var.lit(),
            ts.latches[1].var.lit(),
            ts.latches[2].var.lit(),
        );
        // wrap: when the value is 5 (101), go to 0.
        let is5 = ts.aig.and_all([b0, !b1, b2]);
        for i in 0..3 {
            let n = ts.latches[i].next;
            let wrapped = ts.aig.and(n, !is5);
            ts.set_next(i, wrapped);
        }
        ts
    }

    #[test]
    fn accepts_a_real_invariant_and_rejects_broken_ones() {
        let ts = mod6();
        let (b1, b2) = (ts.latches[1].var.lit(), ts.latches[2].var.lit());
        let budget = Budget::new(None);
        // "not (b1 and b2)": excludes 6 and 7; inductive since 5 wraps to 0.
        let good = Invariant::from_clauses(&ts, &[vec![!b1, !b2]]);
        assert_eq!(check(&ts, &good, &budget), Ok(()));
        // "b2": false initially.
        let not_init = Invariant::from_clauses(&ts, &[vec![b2]]);
        assert_eq!(check(&ts, &not_init, &budget), Err(CertError::Initiation));
        // "not b2": holds initially but 3 -> 4 breaks it.
        let not_ind = Invariant::from_clauses(&ts, &[vec![!b2]]);
        assert_eq!(check(&ts, &not_ind, &budget), Err(CertError::Consecution));
        // "true": inductive but includes the bad state.
        let weak = Invariant::from_clauses(&ts, &[]);
        assert_eq!(check(&ts, &weak, &budget), Err(CertError::Safety));
        // Consecution is asked per clause: one bad clause among good ones is found.
        let mixed = Invariant::from_clauses(&ts, &[vec![!b1, !b2], vec![!b2], vec![!b1, !b2]]);
        assert_eq!(check(&ts, &mixed, &budget), Err(CertError::Consecution));
    }

    /// The safety query shares its solver with consecution's two frames, but a bad state
    /// whose every successor violates the constraints is still a bad state.
    #[test]
    fn a_bad_state_without_a_valid_successor_is_unsafe() {
        // a: 0 then 1 for ever; b follows a one step later; constraint "not b". The trace
        // (0,0) -> (1,0) satisfies it in both frames and ends bad (a); its successor (1,1)
        // does not.
        let mut ts = TransitionSystem::default();
        let a = ts.add_latch(Some(false), None).lit();
        let b = ts.add_latch(Some(false), None).lit();
        ts.set_next(0, Lit::TRUE);
        ts.set_next(1, a);
        ts.constraints.push(!b);
        ts.bad.push(a);
        ts.names.bad.push(None);
        let budget = Budget::new(None);
        let everything = Invariant::from_clauses(&ts, &[]);
        assert_eq!(check(&ts, &everything, &budget), Err(CertError::Safety));
        // "not a" is not inductive; "not b" holds in every state the constraints allow.
        let not_a = Invariant::from_clauses(&ts, &[vec![!a]]);
        assert_eq!(check(&ts, &not_a, &budget), Err(CertError::Consecution));
    }
}
