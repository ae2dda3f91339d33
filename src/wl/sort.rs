//! Sorts of word-level terms: bit-vectors and arrays of bit-vectors.

use std::fmt;

/// A BTOR2 sort. Arrays map bit-vector indices to bit-vector elements (nested arrays are
/// rejected by the front end).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    Bv(u32),
    Array { index: u32, element: u32 },
}

impl Sort {
    /// The width of a bit-vector sort.
    pub fn bv_width(self) -> Option<u32> {
        match self {
            Sort::Bv(w) => Some(w),
            Sort::Array { .. } => None,
        }
    }

    pub fn is_array(self) -> bool {
        matches!(self, Sort::Array { .. })
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bv(w) => write!(f, "bitvec {w}"),
            Sort::Array { index, element } => {
                write!(f, "array [bitvec {index}] -> bitvec {element}")
            }
        }
    }
}

crate::error::message_error!(
    /// Operands, states or properties whose sorts do not fit (the message says which and
    /// why); the BTOR2 parser reports it with the line it comes from.
    SortError
);
