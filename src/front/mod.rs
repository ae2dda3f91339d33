//! Input formats. Each front end parses its files into a [`TransitionSystem`] and reports bad
//! input as an [`InputError`] naming the file and the position.

pub mod aiger;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::ts::TransitionSystem;

/// A file that could not be read or is not a valid model.
#[derive(Debug)]
pub struct InputError {
    pub path: PathBuf,
    /// `line N` or `byte N`, when the problem has a position.
    pub position: Option<String>,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(p) = &self.position {
            write!(f, ": {p}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for InputError {}

/// A model as read from its file: the transition system plus the parsed file, which
/// certificates refer to (they name the file's own literals).
pub struct Model {
    pub ts: TransitionSystem,
    pub file: aiger::Aiger,
}

/// Reads a model file, choosing the front end by its content.
pub fn load(path: &Path) -> Result<Model, InputError> {
    let data = std::fs::read(path).map_err(|e| InputError {
        path: path.to_owned(),
        position: None,
        message: format!("cannot read: {e}"),
    })?;
    let file = aiger::parse(&data).map_err(|e| InputError {
        path: path.to_owned(),
        position: e
            .line
            .map(|l| format!("line {l}"))
            .or(e.byte.map(|b| format!("byte {b}"))),
        message: e.message.clone(),
    })?;
    let ts = aiger::to_transition_system(&file).map_err(|message| InputError {
        path: path.to_owned(),
        position: None,
        message,
    })?;
    Ok(Model { ts, file })
}
