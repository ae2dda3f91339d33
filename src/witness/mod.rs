//! Counterexample output: the AIGER witness format and VCD waveforms.

pub mod aiger;
pub mod vcd;

/// A witness file that does not fit its model or is malformed (the message says where).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct WitnessError(pub String);

impl From<String> for WitnessError {
    fn from(message: String) -> WitnessError {
        WitnessError(message)
    }
}

impl From<&str> for WitnessError {
    fn from(message: &str) -> WitnessError {
        WitnessError(message.to_owned())
    }
}
