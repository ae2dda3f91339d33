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

    /// The width of a bit-vector, or of an array's elements.
    pub fn element_width(self) -> u32 {
        match self {
            Sort::Bv(w) | Sort::Array { element: w, .. } => w,
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

/// Operands, states or properties whose sorts do not fit; the BTOR2 parser reports it with
/// the line it comes from, so each case carries what was expected and what was found.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum SortError {
    #[error("{op} takes {expected} operands, found {found}")]
    Arity {
        op: &'static str,
        expected: usize,
        found: usize,
    },
    /// Operand `operand` (from 1) of `op` is an array where a bit-vector is needed.
    #[error("operand {operand} of {op} must be a bit-vector, found {found}")]
    NotBitVector {
        op: &'static str,
        operand: usize,
        found: Sort,
    },
    /// Operands `operands` (from 1) of `op` must have one sort.
    #[error("operands {} and {} of {op} must have the same sort, found {} and {}",
        operands.0, operands.1, found.0, found.1)]
    Mismatch {
        op: &'static str,
        operands: (usize, usize),
        found: (Sort, Sort),
    },
    /// A term that must be one bit (a condition, a property) is wider or an array.
    #[error("{role} must be bitvec 1, found {found}")]
    NotBit { role: BitRole, found: Sort },
    #[error("slice bounds {upper}..{lower} do not fit an operand of width {width}")]
    SliceBounds { upper: u32, lower: u32, width: u32 },
    /// Operand 1 of `read`/`write` is not an array.
    #[error("operand 1 of {op} must be an array, found {found}")]
    NotArray { op: &'static str, found: Sort },
    #[error("the index of {op} must be bitvec {expected}, found {found}")]
    Index {
        op: &'static str,
        expected: u32,
        found: Sort,
    },
    #[error("the element of write must be bitvec {expected}, found {found}")]
    Element { expected: u32, found: Sort },
    #[error("width {0} is out of range (1..={max})", max = super::op::MAX_WIDTH)]
    Width(u64),
    /// Inputs and states take their sort from their declaration, not from operands.
    #[error("leaves have declared sorts")]
    Leaf,
    /// A constant array takes its sort from the state it initialises.
    #[error("constant arrays take their sort from the state")]
    ConstArray,
    #[error("a {element} cannot initialise every element of an {array}")]
    ArrayInit { element: Sort, array: Sort },
    #[error("state {0} does not exist")]
    NoState(usize),
    /// The `init` or `next` value of a state has another sort than the state.
    #[error("{of} of a state of sort {expected} must have that sort, found {found}")]
    StateValue {
        of: StateValue,
        expected: Sort,
        found: Sort,
    },
    #[error("the state already has {}", match .0 { StateValue::Init => "an init", StateValue::Next => "a next" })]
    Duplicate(StateValue),
}

/// Which value of a state a [`SortError`] is about.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum StateValue {
    Init,
    Next,
}

impl fmt::Display for StateValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StateValue::Init => "the initial value",
            StateValue::Next => "the next value",
        })
    }
}

/// What must be one bit in a [`SortError::NotBit`].
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum BitRole {
    /// The operands of `iff`/`implies` (the keyword).
    Operands(&'static str),
    IteCondition,
    Bad,
    Constraint,
    Fairness,
    Justice,
}

impl fmt::Display for BitRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitRole::Operands(op) => write!(f, "operands of {op}"),
            BitRole::IteCondition => f.write_str("the condition of ite"),
            BitRole::Bad => f.write_str("a bad property"),
            BitRole::Constraint => f.write_str("a constraint"),
            BitRole::Fairness => f.write_str("a fairness constraint"),
            BitRole::Justice => f.write_str("a justice condition"),
        }
    }
}
