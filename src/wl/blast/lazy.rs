//! Arrays too large to expand into one word per element (see [`super::array::too_large`]):
//! a sound over-approximation whose size grows with the addresses the model names, not with
//! 2^index-width.
//!
//! Each such array state keeps a few *slots* (`Slot`), a register pair (address, element):
//! - a *fixed* slot for each constant index the model reads or writes on arrays of this sort
//!   (up to [`MAX_FIXED_SLOTS`]); its address is that constant;
//! - [`FREE_SLOTS`] *free* slots whose address is chosen at frame 0 and then kept (the
//!   "symbolic address" of memory abstractions such as Bjesse's, FMCAD 2008);
//! - a *cache* slot for each read of the state the model makes (up to [`MAX_CACHE_SLOTS`]):
//!   invalid at frame 0, it then holds the address that read used in the frame before and the
//!   element there (what the read returned, through that frame's writes). A run that reads
//!   an address, keeps it and reads it again (a ROM, a register file read twice) then sees
//!   the same element twice, which free slots alone cannot promise: their addresses are
//!   chosen before the run, so the abstraction has runs where neither holds that address and
//!   the two reads miss with different values. A cache moves on with every read, so a write
//!   it holds is not kept: the clean latch below looks past caches.
//!
//! A slot's element follows every write exactly: its next value is the next-state array read
//! at the slot's address. A read of the state at an address that no slot holds returns a
//! fresh input (a *miss*), and so does the (extensional) equality of two such arrays. For every
//! run of the original model there is a run of the abstraction with the same bit-vector values
//! (free slots at any addresses, misses returning what the original reads), so a property that
//! holds on the abstraction holds on the model: `unsat` is sound, and the invariant checked is
//! the abstraction's. The converse does not hold: a counterexample can rest on misses that no
//! array content explains. Every counterexample is therefore lifted to the original model
//! ([`Contents`] rebuilds the arrays' contents from the slots and the misses) and replayed
//! by the word-level simulator; one that does not replay is reported as spurious, never as
//! `sat`.
//!
//! The exactness literals ([`Fresh::exact`]) give the under-approximation beside it: with
//! each of them as an invariant constraint, every read of a state returns its true content,
//! so a counterexample of that system is one of the model (its runs touch no more addresses
//! than the slots hold once the memory is written outside them); `warden check` searches it
//! when the abstraction's counterexample is spurious.

use std::collections::HashMap;
use std::sync::Arc;

use super::gates::{self, Word};
use super::word_value;
use crate::aig::{Aig, Lit};
use crate::ts::TransitionSystem;
use crate::ts::Values;
use crate::wl::{ArrayValue, BitVec, Model, Op, Sort, TermId};

/// Free slots per array state.
pub const FREE_SLOTS: usize = 2;
/// The most fixed slots (constant addresses) per array state.
pub const MAX_FIXED_SLOTS: usize = 16;
/// The most cache slots per array state (one per read of its sort, the first in term order).
pub const MAX_CACHE_SLOTS: usize = 8;

/// One tracked element of an array state: its address (a constant, or latches) and its
/// element latches.
#[derive(Clone, Debug)]
pub struct Slot {
    pub addr: Word,
    pub value: Word,
    pub kind: SlotKind,
}

/// How a slot's address is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// A constant (no latches of its own).
    Fixed,
    /// Chosen at frame 0 and kept.
    Free,
    /// The address a read used in the frame before, held while the latch (false at frame 0)
    /// holds.
    Cache(Lit),
}

impl Slot {
    /// The slot's latches in the order [`slots`] makes them: the valid latch of a cache, the
    /// address unless it is fixed, the element.
    pub fn latches(&self) -> impl Iterator<Item = Lit> + '_ {
        let valid = match self.kind {
            SlotKind::Cache(v) => Some(v),
            _ => None,
        };
        let addr = (self.kind != SlotKind::Fixed).then_some(&self.addr);
        (valid.into_iter())
            .chain(addr.into_iter().flatten().copied())
            .chain(self.value.iter().copied())
    }

    /// Whether the slot holds address `index` (a literal).
    fn holds(&self, aig: &mut Aig, index: &[Lit]) -> Lit {
        let same = gates::eq(aig, &self.addr, index);
        match self.kind {
            SlotKind::Cache(valid) => aig.and(valid, same),
            _ => same,
        }
    }

    /// Whether the slot is in use in a frame of a simulation (caches are not at frame 0).
    fn in_use(&self, values: &Values) -> bool {
        match self.kind {
            SlotKind::Cache(valid) => values.lit(valid),
            _ => true,
        }
    }
}

/// What is tracked of a lazy array state (nothing of an input).
#[derive(Clone, Debug, Default)]
pub struct Tracked {
    pub slots: Vec<Slot>,
    /// For a state whose `init` is a constant array: a latch that holds while no write has
    /// gone to an address outside the slots, and that constant. While it holds, a miss reads
    /// the constant, so a zero-initialised memory is exact until it is written elsewhere.
    pub clean: Option<(Lit, Word)>,
}

impl Tracked {
    /// Per slot, whether it holds address `index`.
    fn hits(&self, aig: &mut Aig, index: &[Lit]) -> Vec<Lit> {
        self.slots.iter().map(|s| s.holds(aig, index)).collect()
    }

    /// Whether a slot that keeps its address (not a cache) holds `index`: a write there is
    /// kept by the slots.
    fn kept(&self, aig: &mut Aig, index: &[Lit]) -> Lit {
        let kept: Vec<Lit> = (self.slots.iter())
            .filter(|s| !matches!(s.kind, SlotKind::Cache(_)))
            .map(|s| s.holds(aig, index))
            .collect();
        aig.or_all(kept)
    }
}

/// Where a lazy array term bottoms out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Model state `i` in the current frame (its slots).
    State(usize),
    /// Model input `i` (no slots: every read is a miss).
    Input(usize),
}

/// A lazy array term: a base and the writes and choices the frame's logic applied to it.
#[derive(Debug)]
pub enum Lazy {
    /// Every element this word (a constant array, possibly of a non-constant element).
    Const(Word),
    Base(Base),
    /// `Write(a, i, v)`: `a` with `v` at `i`.
    Write(Arc<Lazy>, Word, Word),
    /// `Ite(c, a, b)`: `a` where `c` holds, else `b`.
    Ite(Lit, Arc<Lazy>, Arc<Lazy>),
}

/// A read of a base at an address none of its slots held: it returned the fresh leaves
/// `value`.
#[derive(Clone, Debug)]
pub struct Miss {
    pub base: Base,
    pub addr: Word,
    pub value: Word,
}

/// What a lazy encoding adds beside the terms: the fresh leaves (which the caller makes
/// inputs of its system), the misses among them, per miss of a state a literal that holds
/// when the read is exact (a slot holds its address, or the state is still clean), and the
/// reads of states in the order made (the sources of the caches).
#[derive(Debug, Default)]
pub struct Fresh {
    pub leaves: Vec<Lit>,
    pub misses: Vec<Miss>,
    pub exact: Vec<Lit>,
    pub reads: Vec<StateRead>,
}

/// A read of lazy state `state` at `addr`, which returned `value`.
#[derive(Clone, Debug)]
pub struct StateRead {
    pub state: usize,
    pub addr: Word,
    pub value: Word,
}

impl Fresh {
    /// A word of `width` fresh leaves.
    pub fn word(&mut self, aig: &mut Aig, width: usize) -> Word {
        let w: Word = (0..width).map(|_| aig.new_leaf().lit()).collect();
        self.leaves.extend(&w);
        w
    }
}

/// The element of `array` at `index`, `element` bits wide; `tracked(b)` is what is tracked of
/// base `b`. Shared subterms are read once (`array` is a DAG through `Ite`).
pub fn read<'s>(
    aig: &mut Aig,
    fresh: &mut Fresh,
    array: &Arc<Lazy>,
    index: &[Lit],
    element: usize,
    tracked: &impl Fn(Base) -> &'s Tracked,
) -> Word {
    let mut reader = Reader {
        index,
        element,
        tracked,
        known: None,
        memo: HashMap::new(),
    };
    reader.read(aig, fresh, array)
}

/// The element of `array` at the address of `known`, a read of a state that this frame
/// already made: `array` (the state's next value) is read through its writes, and where it
/// reaches that state, the word `known` returned answers (a second read would draw a second
/// miss, unrelated to the first).
pub fn read_again<'s>(
    aig: &mut Aig,
    fresh: &mut Fresh,
    array: &Arc<Lazy>,
    known: &StateRead,
    tracked: &impl Fn(Base) -> &'s Tracked,
) -> Word {
    let mut reader = Reader {
        index: &known.addr,
        element: known.value.len(),
        tracked,
        known: Some((Base::State(known.state), &known.value)),
        memo: HashMap::new(),
    };
    reader.read(aig, fresh, array)
}

/// One [`read`]: what stays the same down the term, and the words read so far.
struct Reader<'r, F> {
    index: &'r [Lit],
    element: usize,
    tracked: &'r F,
    /// A base whose element at `index` is known.
    known: Option<(Base, &'r Word)>,
    memo: HashMap<*const Lazy, Word>,
}

impl<'s, F: Fn(Base) -> &'s Tracked> Reader<'_, F> {
    fn read(&mut self, aig: &mut Aig, fresh: &mut Fresh, array: &Arc<Lazy>) -> Word {
        if let Some(w) = self.memo.get(&Arc::as_ptr(array)) {
            return w.clone();
        }
        let index = self.index;
        let word = match &**array {
            Lazy::Const(v) => v.clone(),
            Lazy::Write(a, i, v) => {
                let rest = self.read(aig, fresh, a);
                let hit = gates::eq(aig, i, index);
                gates::mux(aig, hit, v, &rest)
            }
            Lazy::Ite(c, a, b) => {
                let x = self.read(aig, fresh, a);
                let y = self.read(aig, fresh, b);
                gates::mux(aig, *c, &x, &y)
            }
            Lazy::Base(base) if self.known.is_some_and(|k| k.0 == *base) => {
                self.known.expect("just matched").1.clone()
            }
            Lazy::Base(base) => {
                let miss = fresh.word(aig, self.element);
                fresh.misses.push(Miss {
                    base: *base,
                    addr: index.to_vec(),
                    value: miss.clone(),
                });
                let tracked = (self.tracked)(*base);
                let untouched = match &tracked.clean {
                    Some((clean, init)) => gates::mux(aig, *clean, init, &miss),
                    None => miss,
                };
                let hits = tracked.hits(aig, index);
                if let Base::State(_) = base {
                    let clean = tracked.clean.as_ref().map_or(Lit::FALSE, |c| c.0);
                    let held = aig.or_all(hits.iter().copied());
                    let exact = aig.or(held, clean);
                    fresh.exact.push(exact);
                }
                // The first slot holding `index` answers.
                let value = (tracked.slots.iter().zip(hits).rev())
                    .fold(untouched, |rest, (s, hit)| {
                        gates::mux(aig, hit, &s.value, &rest)
                    });
                if let Base::State(state) = *base {
                    fresh.reads.push(StateRead {
                        state,
                        addr: index.to_vec(),
                        value: value.clone(),
                    });
                }
                value
            }
        };
        self.memo.insert(Arc::as_ptr(array), word.clone());
        word
    }
}

/// Whether `array`, the next value of state `me` (with slots `tracked`), writes an address
/// that no slot holds or replaces the array: the clean latch's next value is its negation
/// (and the latch).
pub fn dirties(aig: &mut Aig, array: &Arc<Lazy>, me: Base, tracked: &Tracked) -> Lit {
    let mut memo = HashMap::new();
    dirties_memo(aig, array, me, tracked, &mut memo)
}

fn dirties_memo(
    aig: &mut Aig,
    array: &Arc<Lazy>,
    me: Base,
    tracked: &Tracked,
    memo: &mut HashMap<*const Lazy, Lit>,
) -> Lit {
    if let Some(&l) = memo.get(&Arc::as_ptr(array)) {
        return l;
    }
    let lit = match &**array {
        Lazy::Base(b) if *b == me => Lit::FALSE,
        Lazy::Base(_) | Lazy::Const(_) => Lit::TRUE,
        Lazy::Write(a, i, _) => {
            let below = dirties_memo(aig, a, me, tracked, memo);
            let kept = tracked.kept(aig, i);
            aig.or(below, !kept)
        }
        Lazy::Ite(c, a, b) => {
            let x = dirties_memo(aig, a, me, tracked, memo);
            let y = dirties_memo(aig, b, me, tracked, memo);
            gates::mux(aig, *c, &[x], &[y])[0]
        }
    };
    memo.insert(Arc::as_ptr(array), lit);
    lit
}

/// The element of a constant initial value of a lazy array state, as reset values.
pub fn constant_init(model: &Model, init: TermId) -> Option<Vec<bool>> {
    let term = model.term(init);
    match term.op {
        Op::ConstArray => Some(model.constant(term.args[0])?.bits().collect()),
        _ => None,
    }
}

/// The slots of lazy array state `i`, as new latches of `ts`: a fixed slot for each constant
/// index that reads and writes of its sort use, then `free` free slots, then the caches. Their
/// elements start at `reset` when the state's `init` is a constant array, and then (if the
/// state has a next-state function) a clean latch says where the rest still holds it.
pub fn slots(
    model: &Model,
    ts: &mut TransitionSystem,
    i: usize,
    reset: Option<Vec<bool>>,
    free: usize,
) -> Tracked {
    let sort = model.states()[i].sort;
    let Sort::Array { index, element } = sort else {
        unreachable!("lazy states are arrays")
    };
    let name = model.state_name(i);
    let latches = |ts: &mut TransitionSystem, width: u32, init: Option<&[bool]>, n: &str| {
        (0..width as usize)
            .map(|b| {
                let name = Some(format!("{n}[{b}]"));
                ts.add_latch(init.map(|r| r[b]), name).lit()
            })
            .collect::<Word>()
    };
    let mut tracked = Vec::new();
    for (j, c) in constant_indices(model, sort).iter().enumerate() {
        let value = latches(ts, element, reset.as_deref(), &format!("{name}.fixed{j}"));
        tracked.push(Slot {
            addr: gates::constant(c),
            value,
            kind: SlotKind::Fixed,
        });
    }
    for j in 0..free {
        let addr = latches(ts, index, None, &format!("{name}.addr{j}"));
        let value = latches(ts, element, reset.as_deref(), &format!("{name}.slot{j}"));
        tracked.push(Slot {
            addr,
            value,
            kind: SlotKind::Free,
        });
    }
    // A state without a next-state function is a fresh array in every frame: nothing to cache.
    let caches = match model.states()[i].next {
        Some(_) => reads_of(model, sort).min(MAX_CACHE_SLOTS),
        None => 0,
    };
    for j in 0..caches {
        let valid = ts.add_latch(Some(false), Some(format!("{name}.cached{j}")));
        let addr = latches(ts, index, None, &format!("{name}.cache_addr{j}"));
        let value = latches(ts, element, None, &format!("{name}.cache{j}"));
        tracked.push(Slot {
            addr,
            value,
            kind: SlotKind::Cache(valid.lit()),
        });
    }
    let clean = match (&reset, model.states()[i].next) {
        (Some(r), Some(_)) => {
            let latch = ts.add_latch(Some(true), Some(format!("{name}.clean")));
            let init = r.iter().map(|&b| Lit::FALSE.xor_sign(b)).collect();
            Some((latch.lit(), init))
        }
        _ => None,
    };
    Tracked {
        slots: tracked,
        clean,
    }
}

/// The number of reads of arrays of `sort` in `model` (a bound on the reads of one state).
fn reads_of(model: &Model, sort: Sort) -> usize {
    (0..model.num_terms())
        .map(|t| model.term(TermId(t as u32)))
        .filter(|term| matches!(term.op, Op::Read) && model.sort(term.args[0]) == sort)
        .count()
}

/// The distinct constant indices of the reads and writes of arrays of `sort` (at most
/// [`MAX_FIXED_SLOTS`], the first in term order).
fn constant_indices(model: &Model, sort: Sort) -> Vec<BitVec> {
    let mut found = Vec::new();
    for t in 0..model.num_terms() {
        let term = model.term(TermId(t as u32));
        if !matches!(term.op, Op::Read | Op::Write) || model.sort(term.args[0]) != sort {
            continue;
        }
        if let Some(c) = model.constant(term.args[1]) {
            if !found.contains(c) {
                found.push(c.clone());
            }
        }
        if found.len() == MAX_FIXED_SLOTS {
            break;
        }
    }
    found
}

/// The reads of lazy bases that missed their slots, evaluated in each frame of a simulation of
/// the abstraction, from which the contents of lazy arrays are rebuilt for the original model
/// (the frames themselves are not kept: a long trace of a large system would hold them all).
pub struct Contents {
    /// Per frame, each miss's base, address and value.
    reads: Vec<Vec<(Base, BitVec, BitVec)>>,
}

impl Contents {
    /// The misses' values in `frames` (no simulation is kept when there are none).
    pub fn new(misses: &[Miss], frames: impl Iterator<Item = Values>) -> Contents {
        let reads = match misses.is_empty() {
            true => Vec::new(),
            false => frames
                .map(|values| {
                    (misses.iter())
                        .map(|m| {
                            let addr = word_value(&m.addr, &values);
                            (m.base, addr, word_value(&m.value, &values))
                        })
                        .collect()
                })
                .collect(),
        };
        Contents { reads }
    }

    /// The content of base `base` (of array sort `sort`, with `slots`) in frame `k`, whose
    /// values are `values`: zero everywhere (as btorsim reads unlisted elements), except the
    /// slots' elements (the first slot of an address wins, as in [`read`]) and, at addresses
    /// no slot holds, what the misses of that frame read. With `later`, misses of later
    /// frames fill addresses still unset (the initial content of a state that the frames
    /// between did not overwrite; the replay confirms it or refutes it).
    pub fn array(
        &self,
        base: Base,
        slots: &[Slot],
        (k, values): (usize, &Values),
        later: bool,
        sort: Sort,
    ) -> ArrayValue {
        let Sort::Array { index, element } = sort else {
            unreachable!("lazy bases are arrays")
        };
        let mut a = ArrayValue::constant(index, BitVec::zero(element));
        let mut set = std::collections::BTreeSet::new();
        for s in slots.iter().filter(|s| s.in_use(values)) {
            let addr = word_value(&s.addr, values);
            if set.insert(addr.clone()) {
                a.set(&addr, &word_value(&s.value, values));
            }
        }
        let last = if later { self.reads.len() } else { k + 1 };
        for reads in self.reads.iter().take(last).skip(k) {
            for (_, addr, value) in reads.iter().filter(|r| r.0 == base) {
                if set.insert(addr.clone()) {
                    a.set(addr, value);
                }
            }
        }
        a
    }
}
