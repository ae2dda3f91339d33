//! The invariant generator beside k-induction (seed 001: a cheap analysis on the second core
//! feeds the step case). Candidates come from random simulation ([`super::simulation`]):
//! constant latches, equivalent and antivalent latch pairs, and binary implications between
//! latches that no simulated run refutes. Houdini ([`crate::prep::houdini`]) keeps the largest
//! subset that is inductive, and that subset is published to the lemma pool.
//!
//! Two rounds, cheapest first: constants and equivalences (what most often makes a property
//! k-inductive, e.g. two copies of a register in lockstep), then implications on top of what
//! the first round proved, so the step case gets the first lemmas early.
//!
//! The candidates are limited to the latches nearest the property (breadth-first over the
//! latch dependency graph from the bad and constraint literals), so the candidate set stays
//! at a few thousand clauses whatever the circuit size.

use std::collections::{HashMap, HashSet};

use super::simulation::{simulate, Signatures};
use crate::aig::{Lit, Node, Var};
use crate::engine::lemmas::{Lemma, LemmaPool};
use crate::prep::houdini::houdini;
use crate::ts::{Leaf, TransitionSystem};
use crate::Budget;

/// Latches whose values are recorded: candidates range over these.
const MAX_LATCHES: usize = 1500;
/// Implication candidates (binary clauses between latches of different classes).
const MAX_IMPLICATIONS: usize = 1500;
/// Pairs examined for implications, to bound the time spent before the first SAT call.
const MAX_PAIRS: usize = 200_000;
const FRAMES: usize = 64;
const WORDS: usize = 4;

#[derive(Copy, Clone, Default, Debug)]
pub(super) struct GeneratorStats {
    pub candidates: u64,
    pub lemmas: u64,
}

/// Generates, proves and publishes lemmas about `ts` until done or `budget` expires.
pub(super) fn run(ts: &TransitionSystem, pool: &LemmaPool, budget: &Budget) -> GeneratorStats {
    let mut stats = GeneratorStats::default();
    let mut latches = cone_order(ts);
    latches.truncate(MAX_LATCHES);
    // Under constraints every run costs a SAT query per frame: fewer runs then.
    let words = if ts.constraints.is_empty() { WORDS } else { 1 };
    let sig = simulate(ts, &latches, FRAMES, words, budget);
    if budget.expired() || sig.alive.iter().all(|&w| w == 0) {
        return stats;
    }
    let candidates = Candidates::new(ts, &latches, &sig);
    let mut proved: Vec<Lemma> = Vec::new();
    for round in [candidates.basic, candidates.implications] {
        if round.is_empty() {
            continue;
        }
        stats.candidates += round.len() as u64;
        let mut all = proved.clone();
        all.extend(round);
        let result = houdini(ts, all, budget);
        if budget.expired() {
            break;
        }
        let known: HashSet<&Lemma> = proved.iter().collect();
        let fresh: Vec<Lemma> = result
            .iter()
            .filter(|c| !known.contains(c))
            .cloned()
            .collect();
        crate::log::info(
            1,
            format_args!("kind: generator proved {} new lemmas", fresh.len()),
        );
        stats.lemmas += fresh.len() as u64;
        pool.publish(fresh);
        proved = result;
    }
    stats
}

/// Candidate clauses over latch literals, in the two rounds [`run`] proves them.
struct Candidates {
    /// Constants (unit clauses) and equivalences (two binary clauses each).
    basic: Vec<Lemma>,
    /// Binary clauses between latches of different classes (or both constant).
    implications: Vec<Lemma>,
}

impl Candidates {
    fn new(ts: &TransitionSystem, latches: &[usize], sig: &Signatures) -> Candidates {
        let alive = &sig.alive;
        let mut basic = Vec::new();
        // One latch per class, constants included: (latch literal, values). A latch that
        // only seemed constant because the runs were too short (the high bits of a counter)
        // may still be equivalent to another one; the pairs of the second round find that.
        let mut reps: Vec<Rep> = Vec::new();
        let mut classes: HashMap<Vec<u64>, Lit> = HashMap::new();
        for (&i, values) in latches.iter().zip(&sig.values) {
            // Normalised so that the first live run sees 0: equal keys mean x == r or
            // x == !r, and the all-zero key means constant.
            let x = ts.latches[i].var.lit();
            let flip = first_live_value(values, alive);
            let key: Vec<u64> = values
                .iter()
                .zip(alive)
                .map(|(&v, &a)| if flip { a & !v } else { v })
                .collect();
            let lit = x.xor_sign(flip);
            if key.iter().all(|&w| w == 0) {
                basic.push(vec![!lit]);
                reps.push(Rep {
                    lit: x,
                    values,
                    constant: true,
                });
                continue;
            }
            match classes.get(&key) {
                Some(&r) => {
                    basic.push(vec![!r, lit]);
                    basic.push(vec![r, !lit]);
                }
                None => {
                    classes.insert(key, lit);
                    reps.push(Rep {
                        lit: x,
                        values,
                        constant: false,
                    });
                }
            }
        }
        Candidates {
            basic,
            implications: implications(&reps, alive),
        }
    }
}

/// Whether the first live run has the latch at 1.
fn first_live_value(values: &[u64], alive: &[u64]) -> bool {
    values
        .iter()
        .zip(alive)
        .find(|(_, &a)| a != 0)
        .is_some_and(|(&v, &a)| v & a & a.wrapping_neg() != 0)
}

/// A latch standing for its simulation class in the implication round.
struct Rep<'a> {
    lit: Lit,
    values: &'a [u64],
    constant: bool,
}

/// Binary clauses `(a ∨ b)` (either polarity) that no live run falsifies, over pairs of
/// class representatives, nearest latches first. A constant only pairs with constants:
/// with anything else both `(!c ∨ b)` and `(!c ∨ !b)` survive, which says no more than `!c`.
fn implications(reps: &[Rep], alive: &[u64]) -> Vec<Lemma> {
    let mut out = Vec::new();
    let mut pairs = 0;
    for (j, b) in reps.iter().enumerate() {
        for a in reps[..j].iter().filter(|a| a.constant == b.constant) {
            pairs += 1;
            if out.len() >= MAX_IMPLICATIONS || pairs > MAX_PAIRS {
                return out;
            }
            for (na, nb) in [(false, false), (false, true), (true, false), (true, true)] {
                // A run falsifies (a^na ∨ b^nb) when both literals are 0 in it.
                let refuted = a
                    .values
                    .iter()
                    .zip(b.values)
                    .zip(alive)
                    .any(|((&x, &y), &live)| {
                        let la = if na { live & !x } else { x };
                        let lb = if nb { live & !y } else { y };
                        live & !la & !lb != 0
                    });
                if !refuted {
                    out.push(vec![a.lit.xor_sign(na), b.lit.xor_sign(nb)]);
                }
            }
        }
    }
    out
}

/// The latches in the cone of the bad and constraint literals, nearest first (breadth-first
/// over "appears in the next-state function of").
fn cone_order(ts: &TransitionSystem) -> Vec<usize> {
    let kinds = ts.leaf_kinds();
    let mut seen = vec![false; ts.aig.num_vars()];
    let mut order = Vec::new();
    let mut stack: Vec<Var> = ts
        .bad
        .iter()
        .chain(&ts.constraints)
        .map(|l| l.var())
        .collect();
    let mut layer = 0;
    loop {
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v.index()], true) {
                continue;
            }
            match ts.aig.node(v) {
                Node::And(a, b) => stack.extend([a.var(), b.var()]),
                Node::Leaf => {
                    if let Some(Leaf::Latch(i)) = kinds[v.index()] {
                        order.push(i);
                    }
                }
                Node::False => {}
            }
        }
        if layer == order.len() {
            return order;
        }
        stack.extend(order[layer..].iter().map(|&i| ts.latches[i].next.var()));
        layer = order.len();
    }
}
