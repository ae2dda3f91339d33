//! Counterexample output: the AIGER witness format and VCD waveforms.

pub mod aiger;
pub mod vcd;

crate::error::message_error!(
    /// A witness file that does not fit its model or is malformed (the message says where).
    WitnessError
);

impl From<&str> for WitnessError {
    fn from(message: &str) -> WitnessError {
        WitnessError(message.to_owned())
    }
}
