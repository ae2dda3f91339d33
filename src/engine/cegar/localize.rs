//! The explicit domain on latches: localization abstraction.
//!
//! The precision is a set of visible latches. The abstract system is the concrete one with
//! every invisible latch turned into an input (same AIG, same variables: only the leaf's role
//! changes), which over-approximates it: any concrete trace is an abstract one whose inputs
//! carry the invisible latches' values. That system goes to IC3 or BMC as it is, which is how
//! hardware checkers use localization. An abstract counterexample is checked on the concrete
//! system along the visible latches' values ([`super::path`]); a spurious one makes visible
//! the invisible latches of an unsat core of that check (`unsat-core`) or of the support of
//! its sequence interpolants (`seq-itp`). Either set is non-empty: with every invisible
//! latch free, the check is the abstract trace itself, which is feasible.
//!
//! IC3's invariant over the abstract system speaks only of visible latches, which are
//! latches of the concrete system too, so it is an invariant of the concrete system; lemmas
//! proved for a coarser abstraction stay invariants of every finer one, so they carry over
//! from one refinement to the next through a lemma pool.

use super::path::{refine_by_core, refute, Check, PathStates, Refutation, Strategy};
use super::{property_latches, CegarOptions, CegarStats, InitPrec};
use crate::aig;
use crate::cert::Invariant;
use crate::engine::bmc::Bmc;
use crate::engine::ic3::{Ic3, Ic3Options};
use crate::engine::lemmas::LemmaPool;
use crate::engine::{Engine, Verdict};
use crate::progress::Measure;
use crate::sat::{self, Solver};
use crate::ts::{simulate, Trace, TransitionSystem};
use crate::unroll::Unroller;
use crate::Budget;

/// The engine that checks the localized systems.
pub(super) enum Checker {
    Ic3(Ic3Options),
    /// BMC up to this bound.
    Bmc(Option<usize>),
}

pub(super) fn run(
    ts: &TransitionSystem,
    opts: &CegarOptions,
    checker: Checker,
    budget: &Budget,
    stats: &mut CegarStats,
) -> Verdict {
    let mut visible = vec![false; ts.latches.len()];
    if opts.init_prec == InitPrec::Prop {
        for i in property_latches(ts) {
            visible[i] = true;
        }
    }
    let pool = LemmaPool::new();
    // BMC found every abstract counterexample so far at its shallowest depth, and a finer
    // abstraction has fewer paths: the depths below the last one stay clean.
    let mut clean_below = 0;
    loop {
        if budget.expired() {
            return Verdict::Unknown { depth: None };
        }
        stats.precision = visible.iter().filter(|&&v| v).count() as u64;
        crate::log::info(
            2,
            format_args!(
                "cegar: {} of {} latches visible",
                stats.precision,
                ts.latches.len()
            ),
        );
        let abs = localized(ts, &visible);
        let verdict = match checker {
            Checker::Ic3(ic3) => Ic3::new()
                .with_options(ic3)
                .with_lemma_pool(pool.clone())
                .check(&abs, budget),
            Checker::Bmc(bound) => Bmc::new(bound).from_depth(clean_below).check(&abs, budget),
        };
        let trace = match verdict {
            Verdict::Safe(inv) => {
                return match concrete_invariant(ts, &abs, &inv) {
                    Some(inv) => Verdict::Safe(inv),
                    None => Verdict::Unknown { depth: None },
                }
            }
            // The localized system over-approximates the concrete one: its bound holds.
            Verdict::Unknown { depth } => return Verdict::Unknown { depth },
            Verdict::Unsafe(t) => t,
        };
        stats.rounds.spurious_depth_max = stats.rounds.spurious_depth_max.max(trace.depth() as u64);
        clean_below = trace.depth();
        let values = visible_values(&abs, &trace);
        let outcome = match opts.refinement.strategy() {
            None => refine_by_core(ts, &visible, &values, budget),
            Some(strategy) => refine_by_interpolants(ts, &visible, &values, strategy, budget),
        };
        match outcome {
            Check::Feasible(t) => return Verdict::Unsafe(t),
            Check::Stopped => return Verdict::Unknown { depth: None },
            Check::Spurious(add) => {
                if add.is_empty() {
                    crate::log::info(1, format_args!("cegar: refinement found no latch"));
                    return Verdict::Unknown { depth: None };
                }
                stats.rounds.refinements += 1;
                budget
                    .progress()
                    .set(Measure::Refinements, stats.rounds.refinements as usize);
                crate::log::info(
                    2,
                    format_args!(
                        "cegar: spurious counterexample of depth {}; latches {add:?} become visible",
                        trace.depth()
                    ),
                );
                for i in add {
                    visible[i] = true;
                }
            }
        }
    }
}

/// `ts` with the latches not marked `visible` turned into inputs (appended after the
/// concrete inputs, in latch order).
pub(super) fn localized(ts: &TransitionSystem, visible: &[bool]) -> TransitionSystem {
    let mut abs = TransitionSystem {
        latches: Vec::new(),
        atoms: Vec::new(),
        ..ts.clone()
    };
    abs.names.latches.clear();
    for (i, l) in ts.latches.iter().enumerate() {
        if visible[i] {
            abs.latches.push(l.clone());
            abs.names.latches.push(ts.names.latches[i].clone());
        } else {
            abs.inputs.push(l.var);
            abs.names.inputs.push(ts.names.latches[i].clone());
        }
    }
    abs
}

/// The visible latches' values along an abstract counterexample: per frame, the AIG
/// literals (latch variables of the concrete system) fixing them.
struct Values(Vec<Vec<aig::Lit>>);

impl PathStates for Values {
    fn depth(&self) -> usize {
        self.0.len() - 1
    }

    fn assert<S: Solver>(&self, s: &mut S, un: &mut Unroller, t: usize) -> Vec<sat::Lit> {
        self.0[t].iter().map(|&l| un.lit(s, l, 0)).collect()
    }
}

/// The values of the visible latches along `trace`, a trace of `abs`.
fn visible_values(abs: &TransitionSystem, trace: &Trace) -> Values {
    Values(
        simulate(abs, trace)
            .map(|values| {
                abs.latches
                    .iter()
                    .map(|l| l.var.lit().xor_sign(!values.lit(l.var.lit())))
                    .collect()
            })
            .collect(),
    )
}

/// Checks the abstract path on the concrete system in an interpolating solver; refuted, the
/// invisible latches in the support of its interpolants (of `strategy`) become visible.
fn refine_by_interpolants(
    ts: &TransitionSystem,
    visible: &[bool],
    values: &Values,
    strategy: Strategy,
    budget: &Budget,
) -> Check {
    let cuts = match refute(ts, values, strategy, budget) {
        Refutation::Refuted(cuts) => cuts,
        Refutation::Feasible(trace) => return Check::Feasible(trace),
        Refutation::Stopped => return Check::Stopped,
        Refutation::NoInterpolants(e) => {
            crate::log::info(1, format_args!("cegar: no interpolants: {e}"));
            return refine_by_core(ts, visible, values, budget);
        }
    };
    let mut add = vec![false; ts.latches.len()];
    for cut in &cuts {
        for v in cut.itp.vars() {
            if let Some(&i) = cut.latches.get(&v) {
                add[i] |= !visible[i];
            }
        }
    }
    Check::Spurious((0..add.len()).filter(|&i| add[i]).collect())
}

/// The abstract invariant as one of `ts`: the abstract system shares `ts`'s AIG variables, and
/// an invariant without auxiliary latches speaks of visible latches only.
fn concrete_invariant(
    ts: &TransitionSystem,
    abs: &TransitionSystem,
    inv: &Invariant,
) -> Option<Invariant> {
    if inv.aux_latches(abs) > 0 {
        return None;
    }
    let mut system = ts.clone();
    let mut map = vec![None; inv.system.aig.num_vars()];
    for v in abs
        .latches
        .iter()
        .map(|l| l.var)
        .chain(abs.inputs.iter().copied())
    {
        map[v.index()] = Some(v.lit());
    }
    let predicate = inv
        .system
        .aig
        .copy_cone(&mut system.aig, &mut map, &[inv.predicate])[0];
    Some(Invariant { system, predicate })
}
