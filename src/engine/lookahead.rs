//! Predicate propagation (rIC3's `--pred-prop`): an engine checks the system one step ahead
//! of its bad states.
//!
//! The bad states' own frame is checked once, by BMC of frame 0; the inner engine then
//! checks a system whose states all satisfy the property (its negation is one more invariant
//! constraint) and whose bad states are those with a successor that is bad under the
//! constraints (the next-state functions composed into the bad literal, with a copy of the
//! inputs for the successor's constraints). IC3 on it starts from the predecessors of the
//! bad states and learns its lemmas only among states where the property holds, which on
//! some designs needs far fewer of them.
//!
//! The answers map back: a counterexample gains the successor's frame (the copied inputs);
//! an invariant `I` of the look-ahead system gives `I ∧ ¬bad` on the original, which is
//! initiated (frame 0 has no bad state), inductive under the constraints of both frames
//! (`I ∧ ¬bad ∧ C` steps into `I`, and never into a bad state satisfying `C`) and safe.
//! That needs bad literals that read latches only: on a system whose bad states read its
//! inputs, `¬bad` is no state predicate, and the inner engine checks the system itself.

use super::bmc::Bmc;
use super::{Engine, Stats, Verdict};
use crate::aig::{Lit, Var};
use crate::cert::Invariant;
use crate::ts::{Leaf, Trace, TransitionSystem};
use crate::Budget;

/// An engine run on the look-ahead system of the one it is given (see the module doc).
pub struct Lookahead {
    inner: Box<dyn Engine + Send>,
}

impl Lookahead {
    pub fn new(inner: Box<dyn Engine + Send>) -> Lookahead {
        Lookahead { inner }
    }
}

impl Engine for Lookahead {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let Some(ahead) = look_ahead(ts) else {
            crate::log::info(
                1,
                format_args!(
                    "predicate propagation: a bad state reads inputs, the system is checked \
                     as it is"
                ),
            );
            return self.inner.check(ts, budget);
        };
        match Bmc::new(Some(0)).check(ts, budget) {
            Verdict::Unknown { depth: Some(0) } => {}
            found @ Verdict::Unsafe(_) => return found,
            _ => return Verdict::Unknown { depth: None },
        }
        match self.inner.check(&ahead, budget) {
            Verdict::Unsafe(trace) => Verdict::Unsafe(trace_back(ts, trace)),
            Verdict::Safe(inv) => match invariant_back(ts, &inv) {
                Some(inv) => Verdict::Safe(inv),
                None => {
                    crate::log::info(
                        1,
                        format_args!(
                            "predicate propagation: the invariant reads more than the latches"
                        ),
                    );
                    Verdict::Unknown { depth: None }
                }
            },
            // Frame k of the look-ahead system is frame k + 1 of `ts`; frame 0 is clean.
            Verdict::Unknown { depth } => Verdict::Unknown {
                depth: Some(depth.map_or(0, |d| d + 1)),
            },
        }
    }

    fn stats(&self) -> Stats {
        self.inner.stats()
    }
}

/// The look-ahead system of `ts`: its latches and inputs, then a copy of the inputs for the
/// successor; its constraints plus `¬bad` for every bad literal; bad `i` is "the successor
/// is bad `i` and satisfies the constraints". `None` when a bad literal reads an input.
fn look_ahead(ts: &TransitionSystem) -> Option<TransitionSystem> {
    let kinds = ts.leaf_kinds();
    let leaves = ts.aig.leaves_of(ts.bad.iter().copied());
    if leaves
        .iter()
        .any(|v| matches!(kinds[v.index()], Some(Leaf::Input(_))))
    {
        return None;
    }
    let mut ahead = ts.clone();
    // The image of each leaf in the successor: a latch its next-state function, an input
    // its copy.
    let mut images: Vec<Option<Lit>> = vec![None; ts.aig.num_vars()];
    for l in &ts.latches {
        images[l.var.index()] = Some(l.next);
    }
    for (k, &v) in ts.inputs.iter().enumerate() {
        let name = ts.names.inputs.get(k).cloned().flatten();
        images[v.index()] = Some(ahead.add_input(name.map(|n| format!("{n}@next"))).lit());
    }
    let image = |v: Var| images.get(v.index()).copied().flatten();
    let roots: Vec<Lit> = ts.bad.iter().chain(&ts.constraints).copied().collect();
    let next = ahead.aig.substitute(image, &roots);
    let (next_bad, next_constraints) = next.split_at(ts.bad.len());
    let successor_valid = ahead.aig.and_all(next_constraints.iter().copied());
    ahead.bad = (next_bad.iter())
        .map(|&b| ahead.aig.and(b, successor_valid))
        .collect();
    ahead.constraints.extend(ts.bad.iter().map(|&b| !b));
    // The atoms are hints over the latches: they stay valid.
    Some(ahead)
}

/// A counterexample of the look-ahead system as one of `ts`: its frames with the inputs of
/// `ts`, then the successor's frame with the copied inputs of its last frame.
fn trace_back(ts: &TransitionSystem, trace: Trace) -> Trace {
    let n = ts.inputs.len();
    let mut inputs: Vec<Vec<bool>> = trace.inputs.iter().map(|f| f[..n].to_vec()).collect();
    if let Some(last) = trace.inputs.last() {
        inputs.push(last[n..].to_vec());
    }
    Trace {
        init: trace.init,
        inputs,
        bad: trace.bad,
    }
}

/// The invariant `inv` of the look-ahead system of `ts` as one of `ts`: `inv ∧ ¬bad` (see
/// the module doc). `None` when `inv` reads more than the latches of `ts` (an input, or
/// latches of its own such as k-induction's shadow states).
fn invariant_back(ts: &TransitionSystem, inv: &Invariant) -> Option<Invariant> {
    let mut system = ts.clone();
    // The look-ahead system's latches are those of `ts`, in the same order.
    let mut map = vec![None; inv.system.aig.num_vars()];
    for (from, to) in inv.system.latches.iter().zip(&ts.latches) {
        map[from.var.index()] = Some(to.var.lit());
    }
    let leaves = inv.system.aig.leaves_of([inv.predicate]);
    if leaves.iter().any(|v| map[v.index()].is_none()) {
        return None;
    }
    let predicate = inv
        .system
        .aig
        .copy_cone(&mut system.aig, &mut map, &[inv.predicate])[0];
    let good = !system.aig.or_all(ts.bad.iter().copied());
    let predicate = system.aig.and(predicate, good);
    Some(Invariant { system, predicate })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ic3::Ic3;
    use crate::ts::{replay, tests::counter};

    fn check(ts: &TransitionSystem) -> Verdict {
        Lookahead::new(Box::new(Ic3::new())).check(ts, &Budget::new(None))
    }

    /// A counter that reaches its target fails, with a counterexample of the original system
    /// of the right length; one that cannot (the target is skipped) holds, with an invariant
    /// the certificate check accepts.
    #[test]
    fn answers_map_back_to_the_original_system() {
        let ts = counter(4, 5, true);
        match check(&ts) {
            Verdict::Unsafe(t) => {
                assert_eq!(t.depth(), 5);
                assert!(replay(&ts, &t).is_ok());
            }
            v => panic!("expected a counterexample, got {v:?}"),
        }
        let ts = crate::cert::tests::mod6();
        match check(&ts) {
            Verdict::Safe(inv) => {
                assert_eq!(crate::cert::check(&ts, &inv, &Budget::new(None)), Ok(()))
            }
            v => panic!("expected a proof, got {v:?}"),
        }
    }

    /// A bad state in frame 0 is found by the base check, not by the look-ahead system.
    #[test]
    fn a_bad_initial_state_is_found() {
        let ts = counter(3, 0, false);
        match check(&ts) {
            Verdict::Unsafe(t) => assert_eq!(t.depth(), 0),
            v => panic!("expected a counterexample, got {v:?}"),
        }
    }
}
