//! Constraint abstraction (`--ic3-abs-cst`; rIC3's `--ic3-abs-cst`).
//!
//! Yosys-generated designs carry dozens of invariant constraints (the `assume`s of the RTL),
//! and IC3 pays for every one of them in every relative-induction query, while a proof
//! often needs none or few: on `qspiflash_dualflexpress_divthree-p081` IC3 proves the
//! property without any constraint in 1.2 s and does not prove it with all 22 in 20 s.
//! Dropping constraints only adds behaviours, so a proof without some of them is a proof
//! with all of them (the invariant stays inductive and safe under more constraints).
//!
//! IC3 therefore first checks the system with no constraint enabled. A counterexample is
//! simulated on the whole system: if every constraint holds in each of its frames it is a
//! counterexample of the system; otherwise the constraints it breaks are enabled and IC3
//! starts again, offered the lemmas of the previous round (it keeps those it checks to be
//! invariants, [`super::Ic3::with_seeds`]). Each round enables one constraint at least,
//! so after at most as many rounds as there are constraints IC3 checks the whole system.
//!
//! Unlike rIC3, which keeps its frames and picks the constraints from the unsat core of a
//! BMC query, a round restarts IC3 and enables exactly the constraints the counterexample
//! breaks: simpler, and the lemmas carried over keep most of the work.

use crate::engine::Verdict;
use crate::ts::{simulate, Trace, TransitionSystem};

/// What the abstraction did in one check, for `--stats`.
#[derive(Default)]
pub(super) struct Rounds {
    /// Counterexamples that broke a constraint.
    pub(super) refinements: u64,
    /// Constraints enabled at the end.
    pub(super) enabled: u64,
}

/// Checks `ts` by running `round` on it with a growing subset of its constraints (none at
/// first), as the module documentation says. `round` gets the system and the lemmas of the
/// previous round to offer IC3, and gives its verdict and its lemmas.
pub(super) fn check(
    ts: &TransitionSystem,
    rounds: &mut Rounds,
    mut round: impl FnMut(
        &TransitionSystem,
        Vec<Vec<crate::aig::Lit>>,
    ) -> (Verdict, Vec<Vec<crate::aig::Lit>>),
) -> Verdict {
    let mut enabled = vec![false; ts.constraints.len()];
    let mut carried = Vec::new();
    loop {
        let mut system = ts.clone();
        system.constraints = (ts.constraints.iter().zip(&enabled))
            .filter_map(|(&c, &on)| on.then_some(c))
            .collect();
        rounds.enabled = system.constraints.len() as u64;
        let (verdict, lemmas) = round(&system, std::mem::take(&mut carried));
        match verdict {
            Verdict::Unsafe(trace) => {
                let broken = broken(ts, &trace);
                if broken.iter().all(|&c| enabled[c]) {
                    // Every constraint holds along it: a counterexample of `ts` (the caller
                    // replays it there, as every answer).
                    return Verdict::Unsafe(trace);
                }
                for c in broken {
                    enabled[c] = true;
                }
                rounds.refinements += 1;
                carried = lemmas;
                crate::log::info(
                    2,
                    format_args!(
                        "ic3: a counterexample breaks constraints: {} of {} enabled",
                        enabled.iter().filter(|&&e| e).count(),
                        enabled.len()
                    ),
                );
            }
            Verdict::Safe(mut inv) => {
                // The same system with more constraints: the invariant still holds.
                inv.system.constraints = ts.constraints.clone();
                return Verdict::Safe(inv);
            }
            unknown => return unknown,
        }
    }
}

/// The constraints of `ts` that `trace` breaks in one of its frames (the bad state's
/// included).
fn broken(ts: &TransitionSystem, trace: &Trace) -> Vec<usize> {
    let mut out = vec![false; ts.constraints.len()];
    for values in simulate(ts, trace) {
        for (c, &l) in ts.constraints.iter().enumerate() {
            out[c] |= !values.lit(l);
        }
    }
    (0..out.len()).filter(|&c| out[c]).collect()
}
