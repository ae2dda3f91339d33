//! warden: a hardware model checker.
//!
//! The modules form layers: each imports only from its own layer and the layers below it,
//! so a module can be read, tested and changed knowing only what lies under it, and
//! `scripts/module-cycles` (run by CI) fails on any cycle between them. Bottom to top:
//! - plumbing: [`progress`], [`log`], [`timeslice`], [`budget`], [`signals`], [`rng`],
//!   [`fault`], [`exit`], [`verdict`];
//! - bit-level core: [`aig`] and-inverter graphs, [`ts`] the transition system every input
//!   ends in and the replay of traces, [`sat`] the solver trait and CaDiCaL, [`bdd`],
//!   [`unroll`] time-frame expansion, [`prep`] preprocessing;
//! - word level: [`wl`] bit-vector and array models and the bit-blaster, [`cfa`] control-flow
//!   automata of C programs, [`error`] exit codes and internal errors;
//! - [`witness`]: counterexample formats (AIGER witnesses, VCD, Yosys and SV-COMP witnesses);
//! - [`front`]: the readers and writers of models (AIGER, BTOR2, C, Verilog through Yosys);
//! - [`cert`]: inductive invariants, their check, Certifaiger witness circuits;
//! - [`engine`]: the model-checking algorithms behind [`engine::Engine`]; beside it [`abc`],
//!   ABC run as an outside tool;
//! - [`condition`]: what a run that ends `unknown` verified, as files for the next run;
//! - [`options`]: which engine reads which option, and the named configurations;
//! - [`check`]: one verified run, from a loaded model to a checked answer;
//! - [`live`]: justice properties, reduced to safety runs, and their certificates;
//! - [`cli`]: the command line.

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
