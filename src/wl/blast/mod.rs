//! The bit-blaster: a word-level [`Model`] becomes a bit-level [`TransitionSystem`], with a
//! [`BitMap`] from every input and state word to its bits so that bit-level traces lift back
//! to word-level ones ([`lift_trace`]).
//!
//! Encoding choices:
//! - every input bit is a TS input, every state bit a latch (named `word[i]`, or `word` for
//!   one-bit words; array elements `word@j[i]`);
//! - a state without `next` is free in every frame: its latches take a fresh TS input as next
//!   state (so frame 0 still honours its `init`, and later frames are arbitrary);
//! - a state without `init` gets uninitialised latches (free at frame 0); a constant `init`
//!   becomes the latches' reset values;
//! - a non-constant `init` (a term over other states or inputs) cannot be a latch reset value,
//!   so its latches are uninitialised and a "first frame" latch (reset 1, next 0) guards the
//!   invariant constraint `first -> state == init`
//!   ([`TransitionSystem::constrain_first_frame`], as for AIGER reset functions). That is sound for every engine (constraints
//!   hold in every frame) and the latches' frame-0 values, which witnesses print as `#0`, are
//!   exactly the initial values;
//! - arrays are expanded into one word per element when their index sort is small (see
//!   [`array::too_large`] for the limits); larger arrays are over-approximated by a few
//!   tracked elements ([`lazy`]): sound for `unsat`, and their counterexamples are replayed on
//!   the original model before anything is said of them.

mod array;
mod bits;
mod gates;
pub mod lazy;
#[cfg(test)]
mod lazy_tests;
mod lift;
mod lower;
mod ops;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use super::{Model, Op, Sort, TermId};
use crate::aig::{Aig, Lit};
use crate::ts::TransitionSystem;
use crate::Budget;
use bits::{tracked_of, word_value};
pub use bits::{BitMap, Bits};
use gates::Word;
use lazy::{Base, Fresh, Lazy, SlotKind, Tracked};
pub use lift::lift_trace;
pub use lower::Lowering;

/// Whether arrays of `sort` are too large to expand and are encoded lazily.
fn is_lazy(sort: Sort) -> bool {
    matches!(sort, Sort::Array { index, element } if array::too_large(index, element).is_some())
}

/// The bit names of a word: `name` for one bit, else `name[i]`; array elements `name@j`.
fn leaf(sort: Sort, name: &str, mut make: impl FnMut(String) -> Lit) -> Bits {
    let mut word = |prefix: &str, w: u32| -> Word {
        (0..w)
            .map(|i| match w {
                1 => make(prefix.to_owned()),
                _ => make(format!("{prefix}[{i}]")),
            })
            .collect()
    };
    match sort {
        Sort::Bv(w) => Bits::Bv(word(name, w)),
        _ if is_lazy(sort) => Bits::Slots(Tracked::default()),
        Sort::Array { index, element } => Bits::Array(
            (0..1u64 << index)
                .map(|j| word(&format!("{name}@{j}"), element))
                .collect(),
        ),
    }
}

/// The reset values of a constant initial value, flattened like [`Bits::flat`].
fn constant_init(model: &Model, init: TermId) -> Option<Vec<bool>> {
    let term = model.term(init);
    match (&term.op, term.sort) {
        (Op::Const(v), _) => Some(v.bits().collect()),
        (Op::ConstArray, Sort::Array { index, .. }) => {
            let element: Vec<bool> = model.constant(term.args[0])?.bits().collect();
            Some(element.repeat(1 << index))
        }
        _ => None,
    }
}

/// A valid model that the bit-blaster does not expand.
#[derive(Debug, thiserror::Error)]
pub enum Unsupported {
    /// An array too large to expand into registers (the message says which).
    #[error("{0}")]
    Array(String),
    /// A state whose initial value depends on itself.
    #[error("unsupported: the initial value of state {0} depends on itself")]
    CyclicInit(String),
}

/// Why [`blast`] or [`blast_terms`] gave no bits.
#[derive(Debug, thiserror::Error)]
pub enum BlastError {
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// The budget expired during the blasting.
    #[error("interrupted")]
    Interrupted,
}

/// Rejects models with arrays too large to expand (for [`blast_terms`], whose callers encode
/// terms outside one transition system and have no inputs to give the lazy encoding).
fn check_arrays(model: &Model) -> Result<(), Unsupported> {
    for t in 0..model.num_terms() {
        if let Sort::Array { index, element } = model.sort(TermId(t as u32)) {
            if let Some(why) = array::too_large(index, element) {
                let why = format!(
                    "unsupported: {why} in terms encoded outside a transition system (the CFA \
                     CEGAR); the other engines encode it lazily"
                );
                return Err(Unsupported::Array(why));
            }
        }
    }
    Ok(())
}

/// How often the blaster looks at the budget: once this many AND gates or terms have been
/// added since the last look. A 64-bit multiplier is tens of thousands of gates, so a stop
/// (timeout, memory limit, signal) is seen within milliseconds, at one clock read per
/// thousands of gates.
const POLL_EVERY: usize = 4096;

/// The budget as the blaster polls it (see [`POLL_EVERY`]).
struct Poll<'b> {
    budget: &'b Budget,
    /// The gate count at which to look next, and the terms left before looking anyway.
    next_gates: usize,
    terms_left: usize,
}

impl<'b> Poll<'b> {
    fn new(budget: &'b Budget) -> Poll<'b> {
        Poll {
            budget,
            next_gates: 0,
            terms_left: 0,
        }
    }

    /// Called before each term: [`BlastError::Interrupted`] when it is time to look and the
    /// budget has expired.
    fn check(&mut self, aig: &Aig) -> Result<(), BlastError> {
        if aig.num_ands() < self.next_gates && self.terms_left > 0 {
            self.terms_left -= 1;
            return Ok(());
        }
        self.next_gates = aig.num_ands() + POLL_EVERY;
        self.terms_left = POLL_EVERY;
        match self.budget.expired() {
            true => Err(BlastError::Interrupted),
            false => Ok(()),
        }
    }
}

/// The bit-level system of `model` and the map from its words to their bits, or what stopped
/// it: a construct the blaster does not support, or `budget` expiring (polled as the terms
/// are blasted: a large C program or BTOR2 model can take seconds).
pub fn blast(model: &Model, budget: &Budget) -> Result<(TransitionSystem, BitMap), BlastError> {
    blast_with(model, budget, lazy::FREE_SLOTS)
}

/// [`blast`] with `free_slots` free slots per lazy array state (tests take them away, so that
/// every read of an address the model computes goes through the caches).
fn blast_with(
    model: &Model,
    budget: &Budget,
    free_slots: usize,
) -> Result<(TransitionSystem, BitMap), BlastError> {
    if let Err(s) = model.init_order() {
        return Err(Unsupported::CyclicInit(model.state_name(s)).into());
    }
    let mut ts = TransitionSystem::default();
    let inputs: Vec<Bits> = (0..model.inputs().len())
        .map(|i| {
            leaf(model.inputs()[i].sort, &model.input_name(i), |n| {
                ts.add_input(Some(n)).lit()
            })
        })
        .collect();
    let mut deferred = Vec::new();
    let mut states = Vec::with_capacity(model.states().len());
    for (i, s) in model.states().iter().enumerate() {
        if is_lazy(s.sort) {
            let reset = s.init.and_then(|t| lazy::constant_init(model, t));
            if s.init.is_some() && reset.is_none() {
                deferred.push(i);
            }
            states.push(Bits::Slots(lazy::slots(
                model, &mut ts, i, reset, free_slots,
            )));
            continue;
        }
        let resets = s.init.and_then(|t| constant_init(model, t));
        if s.init.is_some() && resets.is_none() {
            deferred.push(i);
        }
        let mut k = 0;
        states.push(leaf(s.sort, &model.state_name(i), |n| {
            let init = resets.as_ref().map(|r| r[k]);
            k += 1;
            ts.add_latch(init, Some(n)).lit()
        }));
    }

    let roots: Vec<TermId> = model
        .states()
        .iter()
        .flat_map(|s| s.next.into_iter().chain(s.init))
        .chain(model.bad().iter().map(|p| p.term))
        .chain(model.constraints().iter().copied())
        .chain(model.justice().iter().flatten().copied())
        .chain(model.fairness().iter().copied())
        .collect();
    let needed = model.cone(roots);
    let mut cache: Vec<Option<Bits>> = vec![None; model.num_terms()];
    let mut poll = Poll::new(budget);
    let mut fresh = Fresh::default();
    for (t, _) in needed.iter().enumerate().filter(|(_, &n)| n) {
        poll.check(&ts.aig)?;
        let bits = term_bits(
            model,
            &mut ts.aig,
            &mut fresh,
            (&inputs, &states),
            &cache,
            TermId(t as u32),
        );
        cache[t] = Some(bits);
    }
    let bits = |t: TermId| cache[t.index()].as_ref().expect("blasted in the cone");
    let bit = |t: TermId| bits(t).bv()[0];
    let slots_of = tracked_of(&inputs, &states);
    // The reads the frame's terms made, which the caches take in; the reads below (the
    // slots' next values) are at addresses the slots hold already.
    let reads = std::mem::take(&mut fresh.reads);

    let mut latch = 0;
    for (i, s) in model.states().iter().enumerate() {
        let nexts = match (&states[i], s.next) {
            (Bits::Slots(tracked), next) => {
                let element = s.sort.element_width() as usize;
                let mut sources = reads.iter().filter(|r| r.state == i);
                let mut nexts = Vec::new();
                for slot in &tracked.slots {
                    let aig = &mut ts.aig;
                    match (slot.kind, next) {
                        (SlotKind::Cache(_), Some(n)) => match sources.next() {
                            Some(read) => {
                                nexts.push(Lit::TRUE);
                                nexts.extend(&read.addr);
                                let a = bits(n).lazy();
                                nexts.extend(lazy::read_again(aig, &mut fresh, a, read, &slots_of));
                            }
                            // More caches than reads of this state (they count reads of its
                            // sort): this one stays out of use.
                            None => nexts.extend(slot.latches().map(|_| Lit::FALSE)),
                        },
                        (SlotKind::Cache(_), None) => {
                            unreachable!("states without next have no cache")
                        }
                        (kind, next) => {
                            if kind == SlotKind::Free {
                                nexts.extend(&slot.addr);
                            }
                            nexts.extend(match next {
                                Some(n) => {
                                    let a = bits(n).lazy();
                                    lazy::read(aig, &mut fresh, a, &slot.addr, element, &slots_of)
                                }
                                None => fresh.word(aig, element),
                            });
                        }
                    }
                }
                if let Some((clean, _)) = tracked.clean {
                    let n = next.expect("only states with a next stay clean");
                    let dirt = lazy::dirties(&mut ts.aig, bits(n).lazy(), Base::State(i), tracked);
                    nexts.push(ts.aig.and(clean, !dirt));
                }
                nexts
            }
            (_, Some(n)) => bits(n).flat(),
            (_, None) => {
                let name = format!("{}.next", model.state_name(i));
                leaf(s.sort, &name, |n| ts.add_input(Some(n)).lit()).flat()
            }
        };
        for next in nexts {
            ts.set_next(latch, next);
            latch += 1;
        }
    }
    if !deferred.is_empty() {
        let mut holds = Vec::with_capacity(deferred.len());
        for i in deferred {
            let init = model.states()[i]
                .init
                .expect("deferred states have an init");
            let eq = match &states[i] {
                Bits::Slots(tracked) => {
                    let element = model.states()[i].sort.element_width() as usize;
                    let mut same = Vec::with_capacity(tracked.slots.len());
                    // Caches are out of use at frame 0.
                    let held =
                        (tracked.slots.iter()).filter(|s| !matches!(s.kind, SlotKind::Cache(_)));
                    for slot in held {
                        let (aig, a) = (&mut ts.aig, bits(init).lazy());
                        let v = lazy::read(aig, &mut fresh, a, &slot.addr, element, &slots_of);
                        same.push(gates::eq(&mut ts.aig, &slot.value, &v));
                    }
                    ts.aig.and_all(same)
                }
                word => gates::eq(&mut ts.aig, &word.flat(), &bits(init).flat()),
            };
            holds.push(eq);
        }
        ts.constrain_first_frame(&holds);
    }
    for p in model.bad() {
        ts.bad.push(bit(p.term));
        ts.names.bad.push(p.name.clone());
    }
    ts.constraints
        .extend(model.constraints().iter().map(|&c| bit(c)));
    ts.justice = model
        .justice()
        .iter()
        .map(|j| j.iter().map(|&t| bit(t)).collect())
        .collect();
    ts.fairness = model.fairness().iter().map(|&t| bit(t)).collect();
    ts.atoms = state_comparisons(model, &needed)
        .into_iter()
        .map(bit)
        .filter(|l| !l.is_const())
        .collect();
    ts.atoms.sort_unstable();
    ts.atoms.dedup();
    // The borrow of the leaves ends here (an `impl Fn` may hold it until it is dropped).
    drop(slots_of);
    for (n, l) in fresh.leaves.iter().enumerate() {
        ts.inputs.push(l.var());
        ts.names.inputs.push(Some(format!("warden.lazy{n}")));
    }
    Ok((
        ts,
        BitMap {
            inputs,
            states,
            misses: fresh.misses,
            exact: fresh.exact,
        },
    ))
}

/// The comparisons of multi-bit words among the terms marked `needed` whose cone reaches
/// states but no input: the word-level atoms over the latches ([`TransitionSystem::atoms`]).
fn state_comparisons(model: &Model, needed: &[bool]) -> Vec<TermId> {
    // Ascending ids are a topological order, so one pass finds each term's leaf kinds.
    let mut has_state = vec![false; model.num_terms()];
    let mut has_input = vec![false; model.num_terms()];
    let mut atoms = Vec::new();
    for t in 0..model.num_terms() {
        let term = model.term(TermId(t as u32));
        match term.op {
            Op::State(_) => has_state[t] = true,
            Op::Input(_) => has_input[t] = true,
            _ => {
                has_state[t] = term.args.iter().any(|a| has_state[a.index()]);
                has_input[t] = term.args.iter().any(|a| has_input[a.index()]);
            }
        }
        let compares_words = match term.op {
            Op::Binary(b) => {
                b.is_comparison() && matches!(model.sort(term.args[0]), Sort::Bv(w) if w > 1)
            }
            _ => false,
        };
        if compares_words && needed[t] && has_state[t] && !has_input[t] {
            atoms.push(TermId(t as u32));
        }
    }
    atoms
}

/// Fresh leaves of `aig` for one word of sort `sort` (arrays expanded into elements as in
/// [`blast`]), for analyses that encode terms outside one transition system.
pub fn leaf_bits(aig: &mut Aig, sort: Sort) -> Bits {
    leaf(sort, "", |_| aig.new_leaf().lit())
}

/// The bits of the terms `roots` of `model` in `aig`, over the given bits of the model's
/// inputs and states (e.g. the guards and assignments of a CFA's edges over leaves standing
/// for the program's variables), or what stopped it: too large arrays, or `budget` expiring
/// (polled as in [`blast`]: one multiplier is thousands of gates, so the memory limit's stop
/// must be seen within the blasting).
pub fn blast_terms(
    model: &Model,
    aig: &mut Aig,
    inputs: &[Bits],
    states: &[Bits],
    roots: &[TermId],
    budget: &Budget,
) -> Result<Vec<Bits>, BlastError> {
    check_arrays(model)?;
    // No lazy arrays pass the check, so nothing fresh is made.
    let mut fresh = Fresh::default();
    let needed = model.cone(roots.iter().copied());
    let mut cache: Vec<Option<Bits>> = vec![None; model.num_terms()];
    let mut poll = Poll::new(budget);
    for (t, _) in needed.iter().enumerate().filter(|(_, &n)| n) {
        poll.check(aig)?;
        cache[t] = Some(term_bits(
            model,
            aig,
            &mut fresh,
            (inputs, states),
            &cache,
            TermId(t as u32),
        ));
    }
    Ok(roots
        .iter()
        .map(|r| cache[r.index()].clone().expect("blasted in the cone"))
        .collect())
}

/// The bits of term `t`, whose arguments are in `cache`; the leaves of the model's inputs and
/// states are `leaves`, and what a lazy array read makes anew goes to `fresh`.
fn term_bits(
    model: &Model,
    aig: &mut Aig,
    fresh: &mut Fresh,
    leaves: (&[Bits], &[Bits]),
    cache: &[Option<Bits>],
    t: TermId,
) -> Bits {
    let (inputs, states) = leaves;
    let term = model.term(t);
    let arg = |i: usize| {
        cache[term.args[i].index()]
            .as_ref()
            .expect("arguments are blasted first")
    };
    let base = |b: Base| Bits::Lazy(Arc::new(Lazy::Base(b)));
    match term.op {
        Op::Const(ref v) => Bits::Bv(gates::constant(v)),
        Op::Input(i) if is_lazy(term.sort) => base(Base::Input(i)),
        Op::State(i) if is_lazy(term.sort) => base(Base::State(i)),
        Op::Input(i) => inputs[i].clone(),
        Op::State(i) => states[i].clone(),
        Op::ConstArray if is_lazy(term.sort) => {
            Bits::Lazy(Arc::new(Lazy::Const(arg(0).bv().to_vec())))
        }
        Op::ConstArray => {
            let Sort::Array { index, .. } = term.sort else {
                unreachable!("constant arrays have array sorts")
            };
            Bits::Array(vec![arg(0).bv().to_vec(); 1 << index])
        }
        Op::Unary(u) => Bits::Bv(ops::unary(aig, u, arg(0).bv())),
        // Extensional equality of lazy arrays is not tracked: any answer (over-approximation).
        Op::Binary(super::Binary::Eq | super::Binary::Neq) if is_lazy(model.sort(term.args[0])) => {
            Bits::Bv(fresh.word(aig, 1))
        }
        Op::Binary(b @ (super::Binary::Eq | super::Binary::Neq))
            if model.sort(term.args[0]).is_array() =>
        {
            let same = array::eq(aig, arg(0).elements(), arg(1).elements());
            Bits::Bv(vec![same.xor_sign(b == super::Binary::Neq)])
        }
        Op::Binary(b) => Bits::Bv(ops::binary(aig, b, arg(0).bv(), arg(1).bv())),
        Op::Extend { signed, by } => {
            let a = arg(0).bv();
            let fill = if signed { a[a.len() - 1] } else { Lit::FALSE };
            let mut w = a.to_vec();
            w.resize(a.len() + by as usize, fill);
            Bits::Bv(w)
        }
        Op::Slice { upper, lower } => {
            Bits::Bv(arg(0).bv()[lower as usize..=upper as usize].to_vec())
        }
        Op::Ite => {
            let c = arg(0).bv()[0];
            match (arg(1), arg(2)) {
                (Bits::Bv(x), Bits::Bv(y)) => Bits::Bv(gates::mux(aig, c, x, y)),
                (Bits::Array(x), Bits::Array(y)) => Bits::Array(
                    x.iter()
                        .zip(y)
                        .map(|(a, b)| gates::mux(aig, c, a, b))
                        .collect(),
                ),
                (Bits::Lazy(x), Bits::Lazy(y)) => {
                    Bits::Lazy(Arc::new(Lazy::Ite(c, x.clone(), y.clone())))
                }
                _ => unreachable!("sort-checked ite"),
            }
        }
        Op::Read if is_lazy(model.sort(term.args[0])) => {
            let slots_of = tracked_of(inputs, states);
            let element = term.sort.element_width() as usize;
            let (array, index) = (arg(0).lazy(), arg(1).bv());
            Bits::Bv(lazy::read(aig, fresh, array, index, element, &slots_of))
        }
        Op::Read => Bits::Bv(array::read(aig, arg(0).elements(), arg(1).bv())),
        Op::Write if is_lazy(term.sort) => {
            let (array, index, value) = (arg(0).lazy(), arg(1).bv(), arg(2).bv());
            Bits::Lazy(Arc::new(Lazy::Write(
                array.clone(),
                index.to_vec(),
                value.to_vec(),
            )))
        }
        Op::Write => Bits::Array(array::write(
            aig,
            arg(0).elements(),
            arg(1).bv(),
            arg(2).bv(),
        )),
    }
}
