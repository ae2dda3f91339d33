//! Impact (McMillan's lazy abstraction with interpolants, seed 001) on a circuit. The CFA of
//! a transition system has one location with a self-loop and an edge into the error (the bad
//! states), so the unwinding is a chain `n_0, n_1, ...`, node `n_k` standing for the states
//! after `k` steps, each with an error child. A node's label is a conjunction of predicates
//! over the latches (interpolants copied into an AIG over the system's own latch variables);
//! a new node's label is *true*.
//!
//! Round `k` adds `n_k` and refines its error child: the path of `k` steps from the initial
//! states into a bad state (constraints in every frame) is one query
//! ([`crate::engine::cegar::path::refute`] with no abstract states). Feasible, it is the
//! counterexample; spurious, its sequence interpolants `I_0 .. I_k` strengthen `n_0 .. n_k`
//! (`I_k` excludes the bad states). Every label is a conjunction of interpolants of paths
//! at least that long, and consecutive interpolants of one path are related by a step, so
//! `label(n_j)` and a step entail `label(n_(j+1))` (the tree stays well labelled).
//!
//! `n_i` is *covered* when its label entails the disjunction of the earlier nodes' labels
//! (Impact covers by one node; with one location every earlier node is a candidate, and
//! covering by their union is the same check made once, as interpolation-sequence model
//! checking does). Then the disjunction of `label(n_0 .. n_(i-1))` is an inductive invariant
//! excluding the bad states: the initial states satisfy `I_0`, each label steps into the
//! next, and `n_(i-1)` steps into `n_i`, which the union covers.
//!
//! The CFA of a C program has Impact's full tree (branches, covering between nodes, forced
//! covering): [`crate::engine::cfa_cegar::impact`].

use super::cegar::path::{refute, Length, Refutation, Strategy};
use super::{Engine, Stats, Verdict};
use crate::aig;
use crate::cert::Invariant;
use crate::sat::{Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// Impact on a transition system; `max_depth` bounds the chain.
pub struct Impact {
    max_depth: Option<usize>,
    refinements: u64,
    predicates: u64,
    cover_queries: u64,
}

impl Impact {
    pub fn new(max_depth: Option<usize>) -> Impact {
        Impact {
            max_depth,
            refinements: 0,
            predicates: 0,
            cover_queries: 0,
        }
    }

    /// Whether `label` entails the disjunction of `earlier` over the latches of `labels`
    /// (a system holding only the labels' AIG; `None`: interrupted).
    fn covered(
        &mut self,
        labels: &TransitionSystem,
        label: &[aig::Lit],
        earlier: &[Vec<aig::Lit>],
        budget: &Budget,
    ) -> Option<bool> {
        self.cover_queries += 1;
        let mut s = Cadical::for_one_shot(budget);
        let mut un = Unroller::new(labels, Start::Free);
        for &l in label {
            let x = un.lit(&mut s, l, 0);
            s.add_clause(&[x]);
        }
        for conj in earlier {
            let violated: Vec<_> = conj.iter().map(|&l| !un.lit(&mut s, l, 0)).collect();
            s.add_clause(&violated);
        }
        match s.solve(&[]) {
            SatResult::Unsat => Some(true),
            SatResult::Sat => Some(false),
            SatResult::Interrupted => None,
        }
    }
}

impl Engine for Impact {
    fn name(&self) -> &'static str {
        "impact"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        // The labels' predicates, over the latch variables of `ts` (its AIG, extended).
        let mut aig = ts.aig.clone();
        let mut labels: Vec<Vec<aig::Lit>> = Vec::new();
        for k in 0usize.. {
            let unknown = Verdict::Unknown {
                depth: k.checked_sub(1),
            };
            if self.max_depth.is_some_and(|m| k > m) || budget.expired() {
                return unknown;
            }
            labels.push(Vec::new());
            let cuts = match refute(ts, &Length(k), Strategy::Sequence, budget) {
                Refutation::Feasible(trace) => return Verdict::Unsafe(trace),
                Refutation::Refuted(cuts) => cuts,
                Refutation::Stopped => return unknown,
                Refutation::NoInterpolants(e) => {
                    crate::log::info(1, format_args!("impact: no interpolants at {k}: {e}"));
                    return unknown;
                }
            };
            self.refinements += 1;
            for cut in cuts {
                let image = |v| cut.latches.get(&v).map(|&i| ts.latches[i].var.lit());
                let Some(p) = cut.itp.copy_into(&mut aig, image) else {
                    crate::log::info(1, format_args!("impact: an interpolant reads non-latches"));
                    return unknown;
                };
                if p != aig::Lit::TRUE && !labels[cut.frame].contains(&p) {
                    labels[cut.frame].push(p);
                    self.predicates += 1;
                }
            }
            // Close the chain from the root down: the first node its predecessors cover. The
            // labels' AIG is copied once per round, not once per query.
            let view = TransitionSystem {
                aig: aig.clone(),
                ..TransitionSystem::default()
            };
            for i in 1..=k {
                match self.covered(&view, &labels[i], &labels[..i], budget) {
                    None => return unknown,
                    Some(false) => {}
                    Some(true) => {
                        crate::log::info(
                            1,
                            format_args!("impact: node {i} covered after {k} refinements"),
                        );
                        let mut system = ts.clone();
                        system.aig = aig;
                        let parts: Vec<aig::Lit> = (labels[..i].iter())
                            .map(|conj| system.aig.and_all(conj.iter().copied()))
                            .collect();
                        let predicate = system.aig.or_all(parts);
                        return Verdict::Safe(Invariant { system, predicate });
                    }
                }
            }
        }
        unreachable!("the chain grows until an answer or the budget")
    }

    fn stats(&self) -> Stats {
        vec![
            ("impact_refinements", self.refinements),
            ("impact_predicates", self.predicates),
            ("impact_cover_queries", self.cover_queries),
        ]
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::check::{self, Answer, EngineKind, Options};
    use crate::ts::tests::{counter, irrelevant_counter};
    use crate::Budget;

    /// The verified answer of Impact on `ts` (traces replayed, invariants checked).
    fn answer(ts: &crate::ts::TransitionSystem) -> Answer {
        let budget = Budget::new(Some(Duration::from_secs(60)));
        let report = check::run(ts, &Options::new(EngineKind::Impact), &budget).unwrap();
        assert_eq!(report.engine, "impact");
        report.answer
    }

    #[test]
    fn impact_finds_the_shortest_counterexample_and_proves_with_a_checked_invariant() {
        match answer(&counter(4, 9, false)) {
            Answer::Sat(t) => assert_eq!(t.depth(), 9),
            a => panic!("{a:?}"),
        }
        // Safe: a latch stuck low, beside a counter in its cone; and a counter modulo 6
        // whose bad value 7 is never reached.
        let mod6 = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/circuits/counter3_mod6_unsat.aag"
        );
        let mod6 = crate::front::load(std::path::Path::new(mod6)).unwrap().ts;
        for ts in [irrelevant_counter(5), mod6] {
            assert!(matches!(answer(&ts), Answer::Unsat(_)));
        }
    }
}
