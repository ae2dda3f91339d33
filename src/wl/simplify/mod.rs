//! Word-level simplification before bit-blasting: a [`Model`] becomes an equivalent, smaller
//! one that keeps every input and state declaration (same order, sorts and names), so a trace
//! of the simplified model is a trace of the original one and witnesses need no map back.
//!
//! - [`rewrite`]: local rewriting of every term (see there for the rules);
//! - [`states`]: states that are constant in every reachable frame, and states equal to an
//!   earlier one, found as the greatest fixpoint of "same initial constant, same next function
//!   once the classes are substituted" (a word-level signal correspondence of depth 0); their
//!   reads are replaced by the constant or the representative;
//! - cone of influence: the next function of a state that no property, constraint or other
//!   live next function reads becomes the state itself (no gates). The state keeps its
//!   declaration and `init`, so witnesses still give its initial value.
//!
//! Narrowing words whose high bits are never read is left to the bit level: every bit is
//! its own latch there, and the cone of influence of the preprocessing drops unread bits.
//!
//! Soundness: reads of a state are replaced only by a term equal to it in every reachable
//! frame (induction on the frames: equal initial constants, and next functions equal under
//! the substitution), and next functions change only for states nothing observable reads.
//! Initial values are copied without substitution. Outputs and named signals are not copied
//! (the blaster does not read them; witnesses and waveforms use the original model).

mod rewrite;
mod states;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use super::{BitVec, Model, Op, TermId};
use rewrite::Rewriter;

/// How often each rule fired, by rule name (shown by `--stats` as `wl_<rule>`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    counts: BTreeMap<&'static str, usize>,
}

impl Stats {
    fn bump(&mut self, rule: &'static str) {
        self.add(rule, 1);
    }

    fn add(&mut self, rule: &'static str, n: usize) {
        *self.counts.entry(rule).or_default() += n;
    }

    /// The rules that fired, with their counts, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.counts.iter().map(|(&k, &v)| (k, v))
    }

    pub fn get(&self, rule: &str) -> usize {
        self.counts.get(rule).copied().unwrap_or(0)
    }
}

/// What a state's reads become.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rep {
    /// The state itself.
    Itself,
    Const(BitVec),
    /// An earlier state that is equal to it in every reachable frame.
    State(usize),
}

/// The simplified model of `model`, and how often each rule fired.
pub fn simplify(model: &Model) -> (Model, Stats) {
    let mut stats = Stats::default();
    let reps = states::classes(model, &mut stats);
    let live = live_states(model, &reps);
    stats.add("dead_states", live.iter().filter(|&&l| !l).count());
    let simplified = rebuild(model, &reps, &live, &mut stats, false);
    (simplified, stats)
}

/// `model` with its terms rewritten ([`rewrite`]) and nothing else: every state keeps its
/// next function. For an encoded C program, whose CFA engines' invariants speak of every
/// state as the encoding made it (a state the [`simplify`] of the states freezes breaks
/// their consecution: SV-COMP's MultCommutative-2 under `--engine cegar`).
pub fn rewrite_terms(model: &Model) -> (Model, Stats) {
    let mut stats = Stats::default();
    let itself = vec![Rep::Itself; model.states().len()];
    let live = vec![true; model.states().len()];
    let rewritten = rebuild(model, &itself, &live, &mut stats, true);
    (rewritten, stats)
}

/// The states whose values a property or constraint can observe once the reads are replaced
/// by `reps`: the fixpoint of the states read by the properties and by live next functions.
fn live_states(model: &Model, reps: &[Rep]) -> Vec<bool> {
    let mut live = vec![false; model.states().len()];
    let mut seen = vec![false; model.num_terms()];
    let mut stack: Vec<TermId> = property_roots(model).collect();
    while let Some(t) = stack.pop() {
        if std::mem::replace(&mut seen[t.index()], true) {
            continue;
        }
        let term = model.term(t);
        if let Op::State(i) = term.op {
            let read = match reps[i] {
                Rep::Itself => Some(i),
                Rep::State(r) => Some(r),
                Rep::Const(_) => None,
            };
            if let Some(s) = read.filter(|&s| !std::mem::replace(&mut live[s], true)) {
                let state = &model.states()[s];
                stack.extend(state.next.into_iter().chain(model.states()[s].init));
                stack.push(state.term);
            }
        }
        stack.extend(&term.args);
    }
    live
}

/// Bad states, constraints, justice and fairness conditions.
fn property_roots(model: &Model) -> impl Iterator<Item = TermId> + '_ {
    (model.bad().iter().map(|p| p.term))
        .chain(model.constraints().iter().copied())
        .chain(model.justice().iter().flatten().copied())
        .chain(model.fairness().iter().copied())
}

/// A fresh model with the declarations of `src` and no terms besides their leaves.
fn declarations(src: &Model) -> Model {
    let mut m = Model::new();
    for i in src.inputs() {
        m.add_input(i.sort, i.name.clone());
    }
    for s in src.states() {
        m.add_state(s.sort, s.name.clone());
    }
    m
}

/// Copies the terms of `src` that `roots` need into `dst` (which has the declarations of
/// `src`), through the rewriter, reading every state `i` as `reps[i]`; `map` holds the copies
/// made so far and receives the new ones.
fn copy(
    src: &Model,
    dst: &mut Model,
    reps: &[Rep],
    map: &mut [Option<TermId>],
    roots: impl IntoIterator<Item = TermId>,
    rw: &mut Rewriter,
) {
    let roots: Vec<TermId> = roots
        .into_iter()
        .filter(|r| map[r.index()].is_none())
        .collect();
    if roots.is_empty() {
        return;
    }
    let needed = src.cone(roots);
    for t in (0..needed.len()).filter(|&t| needed[t]) {
        if map[t].is_some() {
            continue;
        }
        let term = src.term(TermId(t as u32));
        let args: Vec<TermId> = (term.args.iter())
            .map(|a| map[a.index()].expect("arguments are copied first"))
            .collect();
        let new = match term.op {
            Op::Input(i) => dst.inputs()[i].term,
            Op::State(i) => match &reps[i] {
                Rep::Itself => dst.states()[i].term,
                Rep::State(r) => dst.states()[*r].term,
                Rep::Const(c) => dst.constant_term(c.clone()),
            },
            Op::Const(ref v) => dst.constant_term(v.clone()),
            Op::ConstArray => dst
                .const_array(term.sort, args[0])
                .expect("the sort of a copied constant array"),
            ref op => rw.mk(dst, op.clone(), &args),
        };
        map[t] = Some(new);
    }
}

/// The model `src` with reads of states replaced by `reps`, the next functions of states
/// not `live` made the identity, and every term rewritten (by the `narrow-*` rules too when
/// `narrow`).
fn rebuild(src: &Model, reps: &[Rep], live: &[bool], stats: &mut Stats, narrow: bool) -> Model {
    let mut dst = declarations(src);
    let mut rw = Rewriter { stats, narrow };
    // Initial values are read in frame 0 only, with the states' own initial values: they are
    // copied without the substitution (which may name a state initialised from this one).
    let itself = vec![Rep::Itself; reps.len()];
    let mut init_map = vec![None; src.num_terms()];
    let inits: Vec<TermId> = src.states().iter().filter_map(|s| s.init).collect();
    copy(src, &mut dst, &itself, &mut init_map, inits, &mut rw);
    let mut map = vec![None; src.num_terms()];
    let nexts = (src.states().iter().zip(live))
        .filter(|(_, &l)| l)
        .filter_map(|(s, _)| s.next);
    let roots: Vec<TermId> = property_roots(src).chain(nexts).collect();
    copy(src, &mut dst, reps, &mut map, roots, &mut rw);
    let mapped = |t: TermId| map[t.index()].expect("copied");
    for (i, s) in src.states().iter().enumerate() {
        if let Some(init) = s.init {
            let value = init_map[init.index()].expect("copied");
            dst.set_init(i, value).expect("the init keeps its sort");
        }
        if let Some(next) = s.next {
            let value = if live[i] {
                mapped(next)
            } else {
                dst.states()[i].term
            };
            dst.set_next(i, value)
                .expect("the next function keeps its sort");
        }
    }
    for p in src.bad() {
        dst.add_bad(mapped(p.term), p.name.clone())
            .expect("one bit");
    }
    for &c in src.constraints() {
        dst.add_constraint(mapped(c)).expect("one bit");
    }
    for &f in src.fairness() {
        dst.add_fairness(mapped(f)).expect("one bit");
    }
    for j in src.justice() {
        dst.add_justice(j.iter().map(|&t| mapped(t)).collect())
            .expect("one bit");
    }
    dst
}
