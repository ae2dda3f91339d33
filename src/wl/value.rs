//! Values of word-level terms: bit-vectors, and arrays as finite maps with a default.

use std::collections::BTreeMap;

use super::{BitVec, Sort};

/// An array value: `entries` where written, `default` everywhere else. Entries equal to the
/// default are never stored, so two arrays are equal iff their entries and (unless the
/// entries cover the whole index space) their defaults are equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayValue {
    pub index_width: u32,
    pub default: BitVec,
    pub entries: BTreeMap<BitVec, BitVec>,
}

impl ArrayValue {
    /// The array holding `default` at every index.
    pub fn constant(index_width: u32, default: BitVec) -> ArrayValue {
        ArrayValue {
            index_width,
            default,
            entries: BTreeMap::new(),
        }
    }

    pub fn read(&self, index: &BitVec) -> BitVec {
        self.entries.get(index).unwrap_or(&self.default).clone()
    }

    /// This array with `value` at `index`.
    pub fn write(&self, index: &BitVec, value: &BitVec) -> ArrayValue {
        let mut out = self.clone();
        out.set(index, value);
        out
    }

    /// Stores `value` at `index` in place.
    pub fn set(&mut self, index: &BitVec, value: &BitVec) {
        if *value == self.default {
            self.entries.remove(index);
        } else {
            self.entries.insert(index.clone(), value.clone());
        }
    }

    /// Extensional equality: the same element at every index.
    pub fn equals(&self, other: &ArrayValue) -> bool {
        let keys: std::collections::BTreeSet<&BitVec> =
            self.entries.keys().chain(other.entries.keys()).collect();
        if keys.iter().any(|k| self.read(k) != other.read(k)) {
            return false;
        }
        let covered = self.index_width < 64 && keys.len() as u64 == 1u64 << self.index_width;
        covered || self.default == other.default
    }
}

/// The value of a term in one frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bv(BitVec),
    Array(ArrayValue),
}

impl Value {
    /// The all-zero value of `sort` (what unassigned inputs and states take, as in btorsim).
    pub fn zero(sort: Sort) -> Value {
        match sort {
            Sort::Bv(w) => Value::Bv(BitVec::zero(w)),
            Sort::Array { index, element } => {
                Value::Array(ArrayValue::constant(index, BitVec::zero(element)))
            }
        }
    }

    pub fn as_bv(&self) -> Option<&BitVec> {
        match self {
            Value::Bv(v) => Some(v),
            Value::Array(_) => None,
        }
    }

    pub fn as_array(&self) -> Option<&ArrayValue> {
        match self {
            Value::Array(a) => Some(a),
            Value::Bv(_) => None,
        }
    }

    /// Extensional equality (arrays compare element-wise).
    pub fn equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Bv(a), Value::Bv(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a.equals(b),
            _ => false,
        }
    }

    /// Whether the value has the given sort.
    pub fn has_sort(&self, sort: Sort) -> bool {
        match (self, sort) {
            (Value::Bv(v), Sort::Bv(w)) => v.width() == w,
            (Value::Array(a), Sort::Array { index, element }) => {
                a.index_width == index
                    && a.default.width() == element
                    && a.entries
                        .iter()
                        .all(|(k, v)| k.width() == index && v.width() == element)
            }
            _ => false,
        }
    }
}
