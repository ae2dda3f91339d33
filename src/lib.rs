//! warden: a hardware model checker.
//!
//! The flow, one module per stage:
//! - [`front`]: input formats (AIGER, BTOR2) parsed and turned into a [`ts::TransitionSystem`];
//! - [`wl`]: word-level models of BTOR2 files, their simulator and the bit-blaster;
//! - [`ts`]: the bit-level transition system over an [`aig::Aig`], cone-of-influence
//!   reduction with its [`ts::Restore`] map, and the trace simulator that replays every
//!   counterexample;
//! - [`sat`] and [`unroll`]: the SAT layer (CaDiCaL) and lazy time-frame expansion;
//! - [`engine`]: the model-checking algorithms, all behind [`engine::Engine`];
//! - [`witness`]: AIGER witnesses and VCD waveforms of the results;
//! - [`check`]: one checking run from file to printed, verified verdict; [`condition`]: what
//!   a run that ends `unknown` verified, for the next run to assume;
//! - [`abc`]: ABC beside warden (its script, verdicts, counterexamples and invariants);
//! - [`options`]: which engine reads which option on which input, and the named engine
//!   configurations and portfolios ([`options::configs`]): data above [`engine`] that
//!   [`check`] reads; [`error`]: exit codes and internal errors.

pub mod abc;
pub mod aig;
pub mod bdd;
pub mod budget;
pub mod cert;
pub mod cfa;
pub mod check;
pub mod cli;
pub mod condition;
pub mod engine;
pub mod error;
pub mod exit;
pub mod fault;
pub mod front;
pub mod live;
pub mod log;
pub mod options;
pub mod prep;
pub mod progress;
pub mod rng;
pub mod sat;
pub mod signals;
#[cfg(test)]
mod testing;
pub mod timeslice;
pub mod ts;
pub mod unroll;
pub mod verdict;
pub mod witness;
pub mod wl;

pub use budget::Budget;
