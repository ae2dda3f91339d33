//! Input formats (AIGER, BTOR2). Each front end parses its files into a [`TransitionSystem`] and reports bad
//! input as an [`InputError`] naming the file and the position.

pub mod aiger;
pub mod btor2;

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::ts::TransitionSystem;
use crate::wl;

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

impl InputError {
    fn new(path: &Path, position: Option<String>, message: impl Into<String>) -> InputError {
        InputError {
            path: path.to_owned(),
            position,
            message: message.into(),
        }
    }
}

/// A model as read from its file: the bit-level transition system every engine checks, plus
/// the source it came from (witnesses and certificates are written in the source's terms).
pub struct Model {
    pub ts: TransitionSystem,
    pub source: Source,
}

/// The parsed input file.
// One per run: the size difference between the variants costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Source {
    Aiger(aiger::Aiger),
    /// A BTOR2 file: the word-level model and where its words live in `Model::ts`.
    Btor2 {
        model: wl::Model,
        bits: wl::BitMap,
    },
}

impl Model {
    /// The AIGER file that certificates refer to: the input file itself, or for BTOR2 the
    /// bit-blasted system exactly as `warden blast` writes it.
    pub fn aiger(&self) -> Cow<'_, aiger::Aiger> {
        match &self.source {
            Source::Aiger(a) => Cow::Borrowed(a),
            Source::Btor2 { .. } => Cow::Owned(aiger::from_transition_system(&self.ts, &[])),
        }
    }
}

/// Reads a model file: BTOR2 for a `.btor`/`.btor2` name or content that starts like BTOR2,
/// else AIGER.
pub fn load(path: &Path) -> Result<Model, InputError> {
    let data = std::fs::read(path)
        .map_err(|e| InputError::new(path, None, format!("cannot read: {e}")))?;
    let by_name = path
        .extension()
        .is_some_and(|e| e == "btor" || e == "btor2");
    if by_name || btor2::looks_like_btor2(&data) {
        load_btor2(path, &data)
    } else {
        load_aiger(path, &data)
    }
}

fn load_aiger(path: &Path, data: &[u8]) -> Result<Model, InputError> {
    let file = aiger::parse(data).map_err(|e| {
        let position =
            (e.line.map(|l| format!("line {l}"))).or(e.byte.map(|b| format!("byte {b}")));
        InputError::new(path, position, e.message)
    })?;
    let ts = aiger::to_transition_system(&file).map_err(|m| InputError::new(path, None, m))?;
    Ok(Model {
        ts,
        source: Source::Aiger(file),
    })
}

fn load_btor2(path: &Path, data: &[u8]) -> Result<Model, InputError> {
    let text = std::str::from_utf8(data).map_err(|e| {
        let position = Some(format!("byte {}", e.valid_up_to()));
        InputError::new(path, position, "not UTF-8 text")
    })?;
    let model = btor2::parse(text)
        .map_err(|e| InputError::new(path, Some(format!("line {}", e.line)), e.message))?;
    let (ts, bits) = wl::blast(&model).map_err(|m| InputError::new(path, None, m))?;
    Ok(Model {
        ts,
        source: Source::Btor2 { model, bits },
    })
}
