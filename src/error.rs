//! The process's exit codes and the errors that are neither input nor usage errors.
//!
//! The layers each have their typed error: bad or unsupported input is a
//! [`crate::front::InputError`] (file and line), a bad combination of options a
//! [`crate::options::UsageError`], an answer that fails its own check or a panic an
//! [`InternalError`]; each maps to one [`ExitCode`]. Running out of time or memory is not an
//! error: the verdict is `unknown` (exit 0).
//!
//! Layer: the top of the word level: imports [`crate::cfa`] and [`crate::wl`] for the errors of
//! their evaluators, and nothing above, so that every engine and run can return it.

use std::any::Any;

/// The exit codes of `warden` (one place, so every path agrees with the README).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ExitCode {
    /// A verdict was printed (`sat`, `unsat` or `unknown`), or `sim`/`certify` found the
    /// witness valid.
    Verdict,
    /// Bad command line (unknown option, a combination the engine would ignore), or
    /// `sim`/`certify` found the witness invalid.
    Usage,
    /// A model or witness file could not be read or is malformed, or an output file could not
    /// be written.
    Input,
    /// An answer failed its own check, or something panicked: the verdict is `unknown`.
    Internal,
}

impl ExitCode {
    /// `sim`/`certify`: the witness is invalid (the code of a usage error, as documented).
    pub const INVALID: ExitCode = ExitCode::Usage;

    /// `compare`: the two tools disagree (the code of a usage error, as `sim`'s invalid).
    pub const DISAGREE: ExitCode = ExitCode::Usage;

    /// The process exit status.
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Verdict => 0,
            ExitCode::Usage => 1,
            ExitCode::Input => 2,
            ExitCode::Internal => 3,
        }
    }
}

/// Something went wrong inside warden: never printed as a verdict.
#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    /// An engine's counterexample, lifted to the original system, does not reach a bad state.
    #[error("internal error: the {engine} counterexample does not replay: {reason}")]
    TraceDoesNotReplay {
        engine: &'static str,
        reason: String,
    },
    /// An engine's invariant, lifted to the original system, fails its check.
    #[error("internal error: the {engine} invariant fails its check: {reason}")]
    InvalidInvariant {
        engine: &'static str,
        reason: String,
    },
    /// A counterexample that replays on the bit level but not in the word-level simulator
    /// (a BTOR2 model or the encoding of a C program).
    #[error("internal error: the word-level trace does not replay: {0}")]
    WordReplay(#[from] crate::wl::SimError),
    /// A counterexample of a C program that the CFA interpreter does not confirm; `path` says
    /// which (the answer's error path, or one the CFA CEGAR built).
    #[error("internal error: {path} does not replay: {source}")]
    PathReplay {
        path: &'static str,
        source: crate::cfa::interp::RunError,
    },
}

/// The message of a panic payload (`panic!` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    match (
        payload.downcast_ref::<&str>(),
        payload.downcast_ref::<String>(),
    ) {
        (Some(s), _) => (*s).to_owned(),
        (_, Some(s)) => s.clone(),
        _ => "(no message)".to_owned(),
    }
}
