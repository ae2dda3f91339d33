//! Counterexample output: the AIGER witness format, VCD waveforms, a per-cycle table with the
//! model's names, Yosys witnesses for Verilog designs, and SV-COMP's YAML witnesses for C
//! programs (with the loop invariants of a proof, [`loop_invariants`]).
//!
//! Layer: witnesses; imports the word level and the bit-level core. It stays below
//! [`crate::front`], whose readers report a malformed witness as a [`WitnessError`], and so imports
//! no reader, certificate or engine.

pub mod aiger;
pub mod loop_invariants;
pub mod svcomp;
pub mod table;
pub mod vcd;
pub mod yw;

/// A witness file that does not fit its model or is malformed (AIGER and btorsim formats,
/// and the options line a C error path records).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum WitnessError {
    /// The file ends before the part named (an AIGER witness's lines in order).
    #[error("the witness ends before {0}")]
    Truncated(&'static str),
    #[error("no 'sat' line")]
    NoSat,
    #[error("no property line after 'sat'")]
    NoProperties,
    #[error("the witness does not end with '.'")]
    NoEnd,
    #[error("the witness has no frame")]
    NoFrame,
    /// Line `line` (from 1) is wrong.
    #[error("line {line}: {problem}")]
    Line { line: usize, problem: LineProblem },
    #[error("{0} without a value")]
    OptionValue(String),
    #[error("unknown data model {0}")]
    DataModel(String),
    #[error("bad recursion bound {0} (expected a positive number)")]
    RecursionBound(String),
    #[error("unknown option {0} in the witness")]
    UnknownOption(String),
}

/// What is wrong with one line of a witness ([`WitnessError::Line`]).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum LineProblem {
    #[error("status {0}: no counterexample to check")]
    NoCounterexample(String),
    #[error("expected the status line '1', found '{0}'")]
    Status(String),
    /// A word on the property line that does not name a bad property.
    #[error(
        "expected bad properties like 'b0' (or, in AIGER witnesses, justice properties like \
         'j0'), found '{0}'"
    )]
    Property(String),
    #[error("bad property b{index} does not exist ({count} bad properties)")]
    NoProperty { index: usize, count: usize },
    #[error("justice property j{index} does not exist ({count} justice properties)")]
    NoJustice { index: usize, count: usize },
    #[error("no property named")]
    NoPropertyNamed,
    /// An AIGER value line of the wrong length (`what`: latch or input).
    #[error("expected {expected} {what} values, found {found}")]
    Length {
        expected: usize,
        what: &'static str,
        found: usize,
    },
    #[error("expected 0, 1 or x, found '{0}'")]
    Bit(char),
    #[error("bad frame header '{0}'")]
    FrameHeader(String),
    #[error("frame header '{0}' out of order")]
    FrameOrder(String),
    #[error("assignment before the first '#0' or '@0' header")]
    BeforeHeader,
    #[error("expected a position, found '{0}'")]
    Position(String),
    #[error("there is no state {0}")]
    NoState(usize),
    #[error("there is no input {0}")]
    NoInput(usize),
    #[error("expected '[INDEX]' for an array")]
    ArrayIndex,
    /// A btorsim value field (`what`: value, index or element) that is absent.
    #[error("missing {0}")]
    Missing(&'static str),
    #[error("expected a binary {what} of width {width}, found '{found}'")]
    Binary {
        what: &'static str,
        width: u32,
        found: String,
    },
}

impl LineProblem {
    /// The error of line `line`.
    pub fn at(self, line: usize) -> WitnessError {
        WitnessError::Line {
            line,
            problem: self,
        }
    }
}
