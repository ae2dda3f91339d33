//! Where a model's words are in its blasted system: [`Bits`] per word, [`BitMap`] per model,
//! and the values of those bits in a frame of a bit-level simulation.

use std::sync::Arc;

use super::gates::Word;
use super::lazy::{Base, Lazy, Miss, Tracked};
use crate::aig::Lit;
use crate::ts::Values;
use crate::wl::{ArrayValue, BitVec, Sort, Value};

/// The bits of one word: a bit-vector, least significant bit first, or an array expanded into
/// its elements (element `j` at position `j`), or an array too large to expand ([`super::lazy`]).
#[derive(Clone, Debug)]
pub enum Bits {
    Bv(Word),
    Array(Vec<Word>),
    /// A term of a lazy array sort: its writes and choices over a base.
    Lazy(Arc<Lazy>),
    /// A state (its tracked elements) or an input (none) of a lazy array sort.
    Slots(Tracked),
}

impl Bits {
    pub(super) fn bv(&self) -> &[Lit] {
        match self {
            Bits::Bv(w) => w,
            _ => unreachable!("sort-checked bit-vector operand"),
        }
    }

    pub(super) fn elements(&self) -> &[Word] {
        match self {
            Bits::Array(e) => e,
            _ => unreachable!("sort-checked expanded array operand"),
        }
    }

    pub(super) fn lazy(&self) -> &Arc<Lazy> {
        match self {
            Bits::Lazy(a) => a,
            _ => unreachable!("sort-checked lazy array operand"),
        }
    }

    pub(super) fn tracked(&self) -> &Tracked {
        match self {
            Bits::Slots(t) => t,
            _ => unreachable!("the leaf of a lazy array sort"),
        }
    }

    /// Every bit, elements in index order; of a lazy state, its latches in the order
    /// [`super::blast`] makes them (per slot [`super::lazy::Slot::latches`]; the clean latch last).
    pub fn flat(&self) -> Vec<Lit> {
        match self {
            Bits::Bv(w) => w.clone(),
            Bits::Array(e) => e.concat(),
            Bits::Slots(t) => (t.slots.iter())
                .flat_map(|s| s.latches())
                .chain(t.clean.as_ref().map(|c| c.0))
                .collect(),
            Bits::Lazy(_) => unreachable!("a lazy array term has no bits of its own"),
        }
    }

    /// The word's value in one frame of a bit-level simulation.
    pub(super) fn value(&self, sort: Sort, values: &Values) -> Value {
        let word = |w: &[Lit]| word_value(w, values);
        match (self, sort) {
            (Bits::Bv(w), _) => Value::Bv(word(w)),
            (Bits::Array(e), Sort::Array { index, element }) => {
                let mut a = ArrayValue::constant(index, BitVec::zero(element));
                for (j, w) in e.iter().enumerate() {
                    a.set(&BitVec::from_u64(index, j as u64), &word(w));
                }
                Value::Array(a)
            }
            (Bits::Array(_), Sort::Bv(_)) => unreachable!("array bits of a bit-vector sort"),
            (Bits::Lazy(_) | Bits::Slots(_), _) => unreachable!("lazy arrays are lifted apart"),
        }
    }
}

/// The value of the bits `w` in one frame of a bit-level simulation.
pub(super) fn word_value(w: &[Lit], values: &Values) -> BitVec {
    let bits: Vec<bool> = w.iter().map(|&l| values.lit(l)).collect();
    BitVec::from_bits(&bits)
}

/// What is tracked of each lazy base, given the leaves of the model's inputs and states.
pub(super) fn tracked_of<'b>(
    inputs: &'b [Bits],
    states: &'b [Bits],
) -> impl Fn(Base) -> &'b Tracked {
    move |b| match b {
        Base::State(i) => states[i].tracked(),
        Base::Input(i) => inputs[i].tracked(),
    }
}

/// Where the words of a model live in its blasted system.
#[derive(Clone, Debug)]
pub struct BitMap {
    /// The bits of each model input (TS inputs).
    pub inputs: Vec<Bits>,
    /// The bits of each model state (TS latches).
    pub states: Vec<Bits>,
    /// The reads of lazy arrays that no slot answered (TS inputs), to rebuild their contents.
    pub misses: Vec<Miss>,
    /// When each read of a lazy state is exact ([`super::lazy::Fresh::exact`]).
    pub exact: Vec<Lit>,
}

impl BitMap {
    /// Whether some input or state is a lazy array ([`super::lazy`]).
    pub fn is_lazy(&self) -> bool {
        let lazy = |b: &Bits| matches!(b, Bits::Slots(_));
        self.inputs.iter().any(lazy) || self.states.iter().any(lazy)
    }
}
