//! AIGER 1.9 reader and writer, ASCII (`aag`) and binary (`aig`).
//!
//! The format is specified at <https://fmv.jku.at/aiger/FORMAT> and, for the 1.9 extensions
//! (bad states, invariant constraints, justice and fairness properties, latch resets), in the
//! "AIGER 1.9 and beyond" report <https://fmv.jku.at/hwmcc11/beyond1.pdf>.
//! An AIGER 1.0 file is simply a file whose B, C, J and F counts are zero.
//!
//! Why our own implementation rather than a crate:
//! - the `aiger` crate reads the ASCII 1.0 format only (no binary files, no 1.9 sections),
//!   while most benchmark files (HWMCC) are binary 1.9;
//! - `flussab-aiger` rejects valid files whose header has M = I + L together with B > 0 (a
//!   bug in its header limit check), such as `aag 1 0 1 0 0 1` (`aigerex_notcnt1.aag` of our
//!   benchmark set);
//! - we want positions (line, or byte in the binary AND section) in every error message and
//!   a reader that never panics and never recurses, whatever the input.
//!
//! [`parse`] validates everything the checker relies on later: literal ranges, single
//! definitions, no use of undefined variables, acyclic AND gates (ASCII files may list gates
//! in any order), latch resets in range. [`write_ascii`] writes an [`Aiger`] as it is;
//! [`write_binary`] renumbers variables canonically, as the binary format requires.

mod checks;
mod from_ts;
mod parse;
mod reader;
mod to_ts;
mod var_table;
mod write;

pub use from_ts::{from_transition_system, with_resets};
pub use parse::{parse, ParseError};
pub use to_ts::{constraint_origin, read, reset_functions, to_transition_system, ConstraintOrigin};
pub use write::{write_ascii, write_binary};

/// A latch: its literal, next-state literal and reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Latch {
    /// The (positive, even) literal of the latch output.
    pub lit: u32,
    /// The next-state function.
    pub next: u32,
    /// The initial value: 0 or 1 for a constant, `lit` itself for an uninitialised latch.
    /// Any other literal is a reset function (HWMCC'25): the latch starts at the value of
    /// that literal in frame 0 (see [`to_transition_system`]); the parser checks that it is
    /// in range, defined, and that no reset depends on its own latch.
    pub reset: u32,
}

impl Latch {
    /// The reset literal when it is a reset function (neither 0, 1 nor the latch itself).
    pub fn reset_function(&self) -> Option<u32> {
        (self.reset > 1 && self.reset != self.lit).then_some(self.reset)
    }
}

/// Names from the symbol table, by position in their section (`i3 name` names the fourth
/// input). Each vector has exactly as many entries as its section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    pub inputs: Vec<Option<String>>,
    pub latches: Vec<Option<String>>,
    pub outputs: Vec<Option<String>>,
    pub bad: Vec<Option<String>>,
    pub constraints: Vec<Option<String>>,
    pub justice: Vec<Option<String>>,
    pub fairness: Vec<Option<String>>,
}

/// The content of an AIGER file, with literals exactly as written (`2 * var + negated`).
///
/// ANDs are kept in file order and numbering; for binary files that is the canonical
/// numbering (inputs, then latches, then gates in topological order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aiger {
    /// M: the maximum variable index of the header.
    pub maxvar: u32,
    pub inputs: Vec<u32>,
    pub latches: Vec<Latch>,
    pub outputs: Vec<u32>,
    pub bad: Vec<u32>,
    pub constraints: Vec<u32>,
    /// One vector of literals per justice property (at least one each: the parser rejects
    /// empty ones).
    pub justice: Vec<Vec<u32>>,
    pub fairness: Vec<u32>,
    /// AND gates `(lhs, rhs0, rhs1)`.
    pub ands: Vec<(u32, u32, u32)>,
    pub symbols: Symbols,
    /// Lines of the comment section (after the `c` line), without line terminators.
    pub comments: Vec<String>,
}
