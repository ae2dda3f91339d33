//! Word-level models: bit-vector and array terms with exact BTOR2 semantics, a simulator, and
//! the bit-blaster into the bit-level core.
//!
//! - [`Model`]: the hash-consed term DAG with inputs, states (optional `init`/`next`) and
//!   properties, built through sort-checking, constant-folding methods;
//! - [`BitVec`], [`Value`]: values of any width, arrays as maps with a default;
//! - [`eval`]: the meaning of every operator (SMT-LIB division by zero, saturating shifts,
//!   overflow flags);
//! - [`replay`]: the word-level simulator that confirms a [`Trace`];
//! - [`blast()`]: the translation into a [`crate::ts::TransitionSystem`] with a [`BitMap`]
//!   from words to bits, and [`lift_trace`] back from a bit-level trace.
//!
//! Typical use (the BTOR2 front end builds the model):
//!
//! ```no_run
//! # fn demo(text: &str, find: impl Fn(&warden::ts::TransitionSystem) -> warden::ts::Trace)
//! #     -> Result<(), Box<dyn std::error::Error>> {
//! use warden::{front::btor2, wl};
//! let model = btor2::parse(text).map_err(|e| e.to_string())?;
//! let (ts, bits) = wl::blast(&model, &warden::Budget::new(None))?; // no time limit
//! let bit_trace = find(&ts); // an engine's counterexample on `ts`
//! let trace = wl::lift_trace(&model, &bits, &ts, &bit_trace);
//! wl::replay(&model, &trace)?;
//! print!("{}", btor2::write_witness(&model, &trace));
//! # Ok(()) }
//! ```
//!
//! Layer: word level; imports the bit-level core it blasts into and the plumbing.

mod bitvec;
pub mod blast;
pub mod eval;
mod model;
mod op;
mod sim;
pub mod simplify;
mod sort;
mod trace;
mod value;

pub use bitvec::BitVec;
pub use blast::{blast, lift_trace, BitMap, Bits, BlastError, Lowering};
pub use model::{Input, Model, Property, State, Term, TermId};
pub use op::{Binary, Op, Unary, MAX_WIDTH};
pub use sim::{replay, waveform, SimError};
pub use sort::{BitRole, Sort, SortError, StateValue};
pub use trace::Trace;
pub use value::{ArrayValue, Value};
