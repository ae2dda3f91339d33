//! Counterexample output: the AIGER witness format and VCD waveforms.

pub mod aiger;
pub mod vcd;
