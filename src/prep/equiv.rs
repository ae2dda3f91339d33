//! Equivalent latches and gates, merged into one representative per class.
//!
//! Candidates come from random simulation ([`candidate_classes`]). They are proved in two
//! phases, because an invariant over the original system can only mention its latches:
//! - *sequential*: the candidates over signals that depend on latches only (latches and
//!   gates without inputs in their cone, and the constant) are proved inductive together,
//!   van Eijk style: a counterexample to the base case or to the step splits the classes by
//!   its values, until none is found. What survives is a set of facts about states, which
//!   the lifted invariant conjoins.
//! - *combinational* (SAT sweeping): the remaining candidates, gates that depend on inputs,
//!   are proved equal in every state where those facts hold, for all inputs. They need no
//!   place in the invariant: the facts imply them.
//!
//! Neither phase assumes the constraints in the frame it checks (see
//! [`Constraints::Before`]). Each class is merged into its smallest member, the constant
//! first and then latches, so a latch only ever stands for a latch or a constant.

use std::collections::HashMap;

use crate::aig::{Lit, Node, Var};
use crate::prep::houdini::{Checker, Constraints, Mode};
use crate::prep::simulate::{candidate_classes, Runs, Simulator};
use crate::prep::substitute::substitute;
use crate::ts::{Facts, Leaf, Restore, TransitionSystem};
use crate::Budget;

/// At most this many SAT calls for the combinational phase.
const MAX_SWEEP_CALLS: usize = 10_000;
/// Conflicts one sweep call may take: a pair that needs more stays apart, so that one hard
/// pair (a multiplier's outputs, say) cannot take the rest of the pass.
const SWEEP_CONFLICTS: i32 = 1_000;
/// Every this many calls, the sweep stops if fewer than one call in `LOW_YIELD` has merged
/// so far: what simulation left then is mostly pairs that SAT separates one call at a time,
/// and the engines make better use of that time than a few merges. (The whole count, not
/// the last window: merges come in bursts, measured on picorv32 `nomem` tasks.)
const YIELD_WINDOW: usize = 512;
const LOW_YIELD: usize = 16;
/// At most this many candidates for the sequential phase, whose queries hold them all.
const MAX_INDUCTIVE_CANDIDATES: usize = 20_000;

/// `ts` with its proved-equivalent signals merged, or `None` if none were found. The
/// sequential phase is a `depth`-step induction (signal correspondence with `k = depth`): the
/// candidates hold in the first `depth` frames from every initial state, and in the next frame
/// of every path where they hold in `depth` consecutive frames.
pub(crate) fn merge_equivalences(
    ts: &TransitionSystem,
    depth: usize,
    budget: &Budget,
) -> Option<(TransitionSystem, Restore)> {
    let key = merge_order(ts);
    let free = depends_on_inputs(ts);
    let classes = candidate_classes(ts, &key, Runs::FromReset, budget);
    let state_classes = classes
        .iter()
        .map(|c| {
            c.iter()
                .filter(|l| !free[l.var().index()])
                .copied()
                .collect()
        })
        .collect();
    // Without the sequential facts the sweep still runs: it then proves equalities in every
    // state, a weaker but sound claim. So the sequential phase gets half of the time.
    let half = budget.child_share(2);
    let state_classes = prove_inductive(ts, state_classes, depth, &half).unwrap_or_default();
    // A deeper induction often proves no more than one step would: then the facts need no
    // window of past steps in the lifted invariant.
    let depth = if depth > 1 && inductive(ts, &state_classes, &half) {
        1
    } else {
        depth
    };

    let mut repr: Vec<Lit> = (0..ts.aig.num_vars())
        .map(|v| Var(v as u32).lit())
        .collect();
    let facts = equalities(&state_classes);
    for &(m, r) in &facts {
        repr[m.var().index()] = r.xor_sign(m.is_negated());
    }
    // The combinational phase compares gates with the representatives of the state signals.
    let mut sweep_classes: Vec<Vec<Lit>> = classes
        .into_iter()
        .filter(|c| c.iter().any(|l| free[l.var().index()]))
        .map(|c| {
            let mut c: Vec<Lit> = c
                .into_iter()
                .map(|l| repr[l.var().index()].xor_sign(l.is_negated()))
                .collect();
            c.sort_by_key(|l| key(l.var()));
            c.dedup_by_key(|l| l.var());
            c
        })
        .filter(|c| c.len() > 1)
        .collect();
    sweep_classes.reverse();
    let merged = sweep(ts, sweep_classes, &facts, budget).merged;
    if facts.is_empty() && merged.is_empty() {
        return None;
    }
    for (m, r) in merged {
        repr[m.var().index()] = r.xor_sign(m.is_negated());
    }
    resolve_chains(&mut repr, &key);
    let mut proved = Facts::new(ts.latches.len());
    proved.add_equalities(ts, &facts);
    proved.set_depth(depth);
    Some(substitute(ts, &repr, proved))
}

/// The order in which signals represent their classes: the constant first, then latches,
/// then gates (each group by variable), so a latch only ever stands for a latch or a constant.
pub(crate) fn merge_order(ts: &TransitionSystem) -> impl Fn(Var) -> (u8, Var) {
    let kinds = ts.leaf_kinds();
    move |v: Var| {
        let rank = match kinds[v.index()] {
            _ if v.index() == 0 => 0,
            Some(Leaf::Latch(_)) => 1,
            _ => 2,
        };
        (rank, v)
    }
}

/// Makes every entry of `repr` a kept variable: representatives precede their members in
/// `key` order, so resolving in that order follows each chain to its end.
pub(crate) fn resolve_chains(repr: &mut [Lit], key: impl Fn(Var) -> (u8, Var)) {
    let mut order: Vec<Var> = (0..repr.len()).map(|v| Var(v as u32)).collect();
    order.sort_by_key(|&v| key(v));
    for v in order {
        let r = repr[v.index()];
        repr[v.index()] = repr[r.var().index()].xor_sign(r.is_negated());
    }
}

/// Which variables have an input in their combinational cone.
fn depends_on_inputs(ts: &TransitionSystem) -> Vec<bool> {
    let mut free = vec![false; ts.aig.num_vars()];
    for v in &ts.inputs {
        free[v.index()] = true;
    }
    for v in 0..ts.aig.num_vars() {
        if let Node::And(a, b) = ts.aig.node(Var(v as u32)) {
            free[v] = free[a.var().index()] || free[b.var().index()];
        }
    }
    free
}

/// The sequential phase: the coarsest refinement of `classes` that holds in the first `depth`
/// frames from every initial state and is `depth`-inductive (`None`: interrupted). The base
/// cases go frame by frame, each assuming the classes in the frames before: refining only
/// removes equalities, so what an earlier frame proved stays proved.
fn prove_inductive(
    ts: &TransitionSystem,
    classes: Vec<Vec<Lit>>,
    depth: usize,
    budget: &Budget,
) -> Option<Vec<Vec<Lit>>> {
    let mut room = MAX_INDUCTIVE_CANDIDATES;
    let mut classes: Vec<Vec<Lit>> = classes
        .into_iter()
        .filter(|c| c.len() > 1)
        .take_while(|c| {
            room = room.saturating_sub(c.len());
            room > 0
        })
        .collect();
    let mut sim = Simulator::new(ts, 1);
    let modes = (0..depth).map(Mode::Base).chain([Mode::Step(depth)]);
    for mode in modes {
        let mut checker = Checker::new(ts, mode, Constraints::Before, budget);
        loop {
            if !checker.refute(&clauses(&classes))? {
                break;
            }
            classes = split(classes, |l| checker.value(l) as u64);
            let valid = spread(&mut sim, &checker);
            classes = split(classes, |l| sim.word(l, 0) & valid);
        }
    }
    Some(classes)
}

/// Whether the equalities of `classes` are inductive in one step (`false` if interrupted).
fn inductive(ts: &TransitionSystem, classes: &[Vec<Lit>], budget: &Budget) -> bool {
    let mut checker = Checker::new(ts, Mode::Step(1), Constraints::Before, budget);
    checker.refute(&clauses(classes)) == Some(false)
}

/// The equalities of `classes` as clauses.
fn clauses(classes: &[Vec<Lit>]) -> Vec<Vec<Lit>> {
    equalities(classes)
        .into_iter()
        .flat_map(|(m, r)| [vec![!m, r], vec![m, !r]])
        .collect()
}

/// The pairs (member, representative) that `classes` claim equal.
fn equalities(classes: &[Vec<Lit>]) -> Vec<(Lit, Lit)> {
    classes
        .iter()
        .flat_map(|c| c[1..].iter().map(|&m| (m, c[0])))
        .collect()
}

/// Splits each class into the groups of members with equal `signature` (keeping the order,
/// so each group's first member stays its smallest), dropping singletons.
fn split(classes: Vec<Vec<Lit>>, signature: impl Fn(Lit) -> u64) -> Vec<Vec<Lit>> {
    let mut out = Vec::with_capacity(classes.len());
    for class in classes {
        let mut groups: Vec<Vec<Lit>> = Vec::new();
        let mut index: HashMap<u64, usize> = HashMap::new();
        for l in class {
            let g = *index.entry(signature(l)).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(l);
        }
        out.extend(groups.into_iter().filter(|g| g.len() > 1));
    }
    out
}

/// Spreads the checker's last counterexample over 64 runs: from its state in frame 0, with
/// random inputs, up to the checked frame. The candidates are facts about states, so every
/// run whose constraints hold before the checked frame is a counterexample too; returns the
/// mask of those runs. Afterwards `sim` holds the checked frame.
fn spread(sim: &mut Simulator, checker: &Checker) -> u64 {
    let ts = checker.system();
    let mut state = sim.state(|i| checker.first_frame_value(ts.latches[i].var.lit()));
    let mut valid = !0;
    for _ in 0..checker.frame() {
        state = sim.step(&state);
        valid = ts
            .constraints
            .iter()
            .fold(valid, |v, &c| v & sim.word(c, 0));
    }
    sim.step(&state);
    valid
}

/// The combinational phase: the pairs (member, representative) proved equal in every state
/// where the `facts` hold, for every input. Stops early (keeping what it proved) when the
/// budget or the call limit runs out, or when fewer than one call in `LOW_YIELD` has merged;
/// a pair past `SWEEP_CONFLICTS` conflicts is left apart.
pub(crate) fn sweep(
    ts: &TransitionSystem,
    mut todo: Vec<Vec<Lit>>,
    facts: &[(Lit, Lit)],
    budget: &Budget,
) -> Swept {
    let mut merged = Vec::new();
    if todo.is_empty() {
        return Swept::default();
    }
    let mut checker = Checker::new(ts, Mode::Combinational, Constraints::Before, budget);
    for &(m, r) in facts {
        checker.add_fact(&[!m, r]);
        checker.add_fact(&[m, !r]);
    }
    let mut sim = Simulator::new(ts, 1);
    let candidates: usize = todo.iter().map(|c| c.len() - 1).sum();
    let (mut calls, mut given_up) = (0, 0);
    let mut low_yield = false;
    while calls < MAX_SWEEP_CALLS {
        let Some(mut class) = todo.pop() else {
            break;
        };
        calls += 1;
        let (rep, m) = (class[0], class[1]);
        match checker.refute_within(&[vec![!m, rep], vec![m, !rep]], SWEEP_CONFLICTS) {
            Some(true) => {
                // The counterexample separates `m` from `rep` (members it does not involve stay
                // with `rep`); its spread splits every class.
                let rep_value = checker.value(rep);
                let value = |l| checker.encoded_value(l).unwrap_or(rep_value) as u64;
                todo.extend(split(vec![class], value));
                spread(&mut sim, &checker);
                todo = split(todo, |l| sim.word(l, 0));
            }
            None if budget.expired() => break,
            answer => {
                // Proved equal, or past the conflict limit: either way `m` leaves the class.
                if answer == Some(false) {
                    merged.push((m, rep));
                } else {
                    given_up += 1;
                }
                class.remove(1);
                if class.len() > 1 {
                    todo.push(class);
                }
            }
        }
        if calls % YIELD_WINDOW == 0 && merged.len() * LOW_YIELD < calls {
            low_yield = true;
            break;
        }
    }
    let swept = Swept {
        merged,
        calls,
        low_yield,
    };
    crate::log::info(
        2,
        format_args!(
            "sweep: {candidates} candidates, {} SAT calls, {} merged, {given_up} given up{}",
            swept.calls,
            swept.merged.len(),
            if swept.low_yield {
                ", stopped at low yield"
            } else {
                ""
            }
        ),
    );
    swept
}

/// What a sweep proved, and how it ended.
#[derive(Default)]
pub(crate) struct Swept {
    /// The pairs (member, representative) proved equal.
    pub(crate) merged: Vec<(Lit, Lit)>,
    /// SAT calls made.
    pub(crate) calls: usize,
    /// Whether it stopped because too few calls merged.
    pub(crate) low_yield: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::LatchImage;

    #[test]
    fn latches_and_input_dependent_gates_merge() {
        // c' = x ^ c and d' = x ^ d with the XOR built two ways: c == d by induction, then the
        // two XOR gates are equal for every input, and bad = "they differ" is constant.
        let mut ts = TransitionSystem::default();
        let x = ts.add_input(None).lit();
        let c = ts.add_latch(Some(false), None).lit();
        let d = ts.add_latch(Some(false), None).lit();
        let g1 = ts.aig.xor(x, c);
        let either = ts.aig.or(x, d);
        let not_both = ts.aig.or(!x, !d);
        let g2 = ts.aig.and(either, not_both);
        ts.set_next(0, g1);
        ts.set_next(1, g2);
        let bad = ts.aig.and(g1, !g2);
        ts.bad.push(bad);
        ts.names.bad.push(None);
        let (reduced, restore) = merge_equivalences(&ts, 1, &Budget::new(None)).unwrap();
        assert_eq!(restore.image(1), LatchImage::Equivalent(0, false));
        assert_eq!(reduced.bad, vec![Lit::FALSE]);
        assert_eq!(reduced.latches.len(), 1);
        assert_eq!(reduced.aig.num_ands(), 3);
    }

    #[test]
    fn uninitialised_latches_are_not_equivalent() {
        // Free latches that hold their values: the step holds, the base case does not.
        let mut ts = TransitionSystem::default();
        let a = ts.add_latch(None, None).lit();
        let b = ts.add_latch(None, None).lit();
        let c = ts.add_latch(Some(true), None).lit();
        for (i, l) in [a, b, c].into_iter().enumerate() {
            ts.set_next(i, l);
        }
        let budget = Budget::new(None);
        let candidates = vec![vec![a, b], vec![Lit::FALSE, !c]];
        assert_eq!(
            prove_inductive(&ts, candidates, 1, &budget),
            Some(vec![vec![Lit::FALSE, !c]])
        );
    }

    #[test]
    fn a_deeper_induction_checks_every_earlier_frame_from_reset() {
        // `v` starts at 0 and then copies the free latch `u`: 0 in every initial state but not
        // one step later. Its 2-step induction holds (`v == 0` in frame 1 forces `u == 0`, which
        // `u` keeps), so only the base case of frame 1 refutes it.
        let mut ts = TransitionSystem::default();
        let u = ts.add_latch(None, None).lit();
        let v = ts.add_latch(Some(false), None).lit();
        ts.set_next(0, u);
        ts.set_next(1, u);
        let budget = Budget::new(None);
        let candidates = || vec![vec![Lit::FALSE, v]];
        assert_eq!(prove_inductive(&ts, candidates(), 2, &budget), Some(vec![]));
        let mut step = Checker::new(&ts, Mode::Step(2), Constraints::Before, &budget);
        let clauses = [vec![!v]];
        assert_eq!(step.refute(&clauses), Some(false));
        let mut base = Checker::new(&ts, Mode::Base(1), Constraints::Before, &budget);
        assert_eq!(base.refute(&clauses), Some(true));
    }

    /// `n` distinct gates, each the conjunction of 20 of 40 inputs (one of each pair, chosen
    /// by the bits of its number): false in almost every simulation run, so candidates for
    /// the constant, yet each one refuted by its own SAT call.
    fn rare_gates(ts: &mut TransitionSystem, n: usize) -> Vec<Lit> {
        let inputs: Vec<Lit> = (0..40).map(|_| ts.add_input(None).lit()).collect();
        (0..n)
            .map(|g| {
                let picked = (0..20).map(|j| inputs[2 * j + (g >> j & 1)]);
                picked.fold(Lit::TRUE, |acc, i| ts.aig.and(acc, i))
            })
            .collect()
    }

    #[test]
    fn the_sweep_stops_when_calls_stop_merging_and_not_before() {
        let budget = Budget::new(None);
        let mut ts = TransitionSystem::default();
        let rare = rare_gates(&mut ts, 3 * YIELD_WINDOW);
        let class = |gates: &[Lit]| [&[Lit::FALSE], gates].concat();
        let swept = sweep(&ts, vec![class(&rare)], &[], &budget);
        assert!(swept.low_yield);
        assert_eq!(swept.calls, YIELD_WINDOW);
        assert!(swept.merged.is_empty());
        // Every second candidate a true equality (c = g & !x and c & g, equal but not
        // structurally): half the calls merge, so the sweep goes through them all.
        let mut ts = TransitionSystem::default();
        let rare = rare_gates(&mut ts, YIELD_WINDOW);
        let x = ts.add_input(None).lit();
        let mut classes = Vec::new();
        for &g in &rare {
            let c = ts.aig.and(g, !x);
            let d = ts.aig.and(c, g);
            classes.push(vec![Lit::FALSE, g]);
            classes.push(vec![c, d]);
        }
        let swept = sweep(&ts, classes, &[], &budget);
        // (A rare gate that a spread's random run happens to set needs no call of its own.)
        assert!(!swept.low_yield);
        assert!(swept.calls > YIELD_WINDOW && swept.calls <= 2 * YIELD_WINDOW);
        assert_eq!(swept.merged.len(), YIELD_WINDOW);
    }
}
