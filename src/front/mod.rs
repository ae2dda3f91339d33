//! Input formats (AIGER, BTOR2, C, Verilog through Yosys). Each front end parses its files
//! into a [`TransitionSystem`] and reports bad input as an [`InputError`] naming the file and
//! the position.
//!
//! Layer: readers and writers; imports [`crate::witness`], the word level and the bit-level core,
//! and nothing that checks (certificates, engines, runs), so that every layer above can load and
//! write models.

pub mod aiger;
pub mod btor2;
pub mod c;
pub mod verilog;

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::cfa::{self, Cfa};
use crate::ts::TransitionSystem;
use crate::witness::WitnessError;
use crate::wl::{self, BlastError};
use crate::Budget;

/// A file that could not be read or is not a valid model.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {message}", path.display(), position.as_ref().map_or(String::new(), |p| format!(": {p}")))]
pub struct InputError {
    pub path: PathBuf,
    /// `line N` or `byte N`, when the problem has a position.
    pub position: Option<String>,
    pub message: String,
    /// The input is valid but uses a construct warden does not support: the verdict is
    /// `unknown`, not an input error.
    pub unsupported: bool,
}

/// The two kinds of input, as far as the command line's options are concerned: circuits
/// (AIGER, BTOR2) and C programs, told apart by the file name.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum InputKind {
    Circuit,
    C,
}

impl InputKind {
    /// C for a `.c`/`.i` name, else a circuit.
    pub fn of(path: &Path) -> InputKind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("c" | "i") => InputKind::C,
            _ => InputKind::Circuit,
        }
    }
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InputKind::Circuit => "circuits (AIGER, BTOR2)",
            InputKind::C => "C programs",
        })
    }
}

impl InputError {
    fn new(path: &Path, position: Option<String>, message: impl Into<String>) -> InputError {
        InputError {
            path: path.to_owned(),
            position,
            message: message.into(),
            unsupported: false,
        }
    }

    fn unsupported(path: &Path, message: impl Into<String>) -> InputError {
        InputError {
            unsupported: true,
            ..InputError::new(path, None, message)
        }
    }
}

/// A model as read from its file: the bit-level transition system every engine checks, plus
/// the source it came from (witnesses and certificates are written in the source's terms).
pub struct Model {
    pub ts: TransitionSystem,
    pub source: Source,
    /// What the word-level simplification did before blasting (BTOR2 with
    /// [`LoadOptions::wl_simplify`]).
    pub wl_stats: Option<wl::simplify::Stats>,
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
    /// A C program: its CFA as translated (error paths are replayed on it), the sliced
    /// large-block CFA the engines check, that CFA's encoding as a word-level model, and where
    /// its words live in `Model::ts`.
    C {
        cfa: Cfa,
        blocks: Cfa,
        model: wl::Model,
        bits: wl::BitMap,
        /// The settings the program was read with (its witnesses record them).
        read_with: LoadOptions,
        /// Functions without a body whose calls were read as nondet values.
        assumed_nondet: Vec<String>,
        /// For a program whose recursion the inlining cuts, read at the first bound: its CFA
        /// with procedure summaries for the Horn clauses ([`c::translate_summarized`]), if
        /// its recursive functions allow them.
        summarized: Option<Cfa>,
    },
}

impl Model {
    /// The AIGER file that certificates refer to: the input file itself, or for BTOR2 the
    /// bit-blasted system exactly as `warden blast` writes it.
    pub fn aiger(&self) -> Cow<'_, aiger::Aiger> {
        match &self.source {
            Source::Aiger(a) => Cow::Borrowed(a),
            Source::Btor2 { .. } | Source::C { .. } => {
                Cow::Owned(aiger::from_transition_system(&self.ts, &[]))
            }
        }
    }

    /// Whether `ts` over-approximates the model: it has arrays too large to expand, encoded
    /// lazily ([`wl::blast::lazy`]), so a counterexample of `ts` may not be one of the model.
    pub fn is_abstract(&self) -> bool {
        match &self.source {
            Source::Aiger(_) => false,
            Source::Btor2 { bits, .. } | Source::C { bits, .. } => bits.is_lazy(),
        }
    }

    /// `ts` with bad property `bad` only, restricted to its runs whose every read of a lazy
    /// array is exact: an under-approximation, whose counterexamples are the model's
    /// ([`wl::blast::lazy`]).
    pub fn exact_runs(&self, bad: usize) -> TransitionSystem {
        let mut ts = self.ts.with_only_bad(bad);
        if let Source::Btor2 { bits, .. } | Source::C { bits, .. } = &self.source {
            ts.constraints.extend(&bits.exact);
        }
        ts
    }
}

/// How to read files whose meaning depends on settings (C programs), and how to prepare
/// word-level models for the engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    pub data_model: c::DataModel,
    /// How calls of C functions without a body are read (see [`c::Externs`]).
    pub externs: c::Externs,
    /// How far a C program's recursion is inlined ([`c::Recursion`]; `warden check` deepens
    /// it, an error path records the bound it was found at).
    pub recursion: c::Recursion,
    /// Whether the engines check the single-statement CFA instead of its large blocks
    /// (seed 001's large-block encoding, the default, makes loop-free regions one edge).
    pub single_blocks: bool,
    /// Whether a BTOR2 model is simplified at the word level ([`wl::simplify`]) before it is
    /// bit-blasted. Witnesses are the same either way (the pass keeps every declaration), so
    /// C witnesses do not record it.
    pub wl_simplify: bool,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            data_model: c::DataModel::default(),
            externs: c::Externs::default(),
            recursion: c::Recursion::default(),
            single_blocks: false,
            wl_simplify: true,
        }
    }
}

/// The first line of a C error path (or the comment of a C program's certificate) written
/// under non-default [`LoadOptions`]: `warden sim` (`warden certify`) reads the program back
/// the same way.
const OPTIONS_LINE: &str = "# read with:";

impl LoadOptions {
    /// The comment line that records these options in a witness (empty for the defaults).
    pub fn witness_line(&self) -> String {
        if *self == LoadOptions::default() {
            return String::new();
        }
        let mut line = format!("{OPTIONS_LINE} --data-model {}", self.data_model.name());
        if self.externs.strict {
            line.push_str(" --strict-extern");
        }
        for f in &self.externs.nondet {
            line.push_str(&format!(" --nondet-fn {f}"));
        }
        if let Some(f) = &self.externs.error {
            line.push_str(&format!(" --error-call {f}"));
        }
        if self.recursion.bound != c::Recursion::default().bound {
            line.push_str(&format!(" --recursion-bound {}", self.recursion.bound));
        }
        if self.recursion.shared {
            line.push_str(" --shared-recursion");
        }
        if self.single_blocks {
            line.push_str(" --blocks single");
        }
        line + "\n"
    }

    /// The options a witness records (the defaults if it records none).
    pub fn from_witness(text: &str) -> Result<LoadOptions, WitnessError> {
        let mut options = LoadOptions::default();
        let Some(line) = text.lines().find_map(|l| l.strip_prefix(OPTIONS_LINE)) else {
            return Ok(options);
        };
        let mut words = line.split_whitespace();
        while let Some(flag) = words.next() {
            if flag == "--strict-extern" {
                options.externs.strict = true;
                continue;
            }
            if flag == "--shared-recursion" {
                options.recursion.shared = true;
                continue;
            }
            let value = words
                .next()
                .ok_or_else(|| WitnessError::OptionValue(flag.to_owned()))?;
            match flag {
                "--data-model" => {
                    options.data_model = c::DataModel::from_name(value)
                        .ok_or_else(|| WitnessError::DataModel(value.to_owned()))?
                }
                "--nondet-fn" => options.externs.nondet.push(value.to_owned()),
                // The CFA the engines checked: a certificate speaks of its encoding.
                "--blocks" => {
                    options.single_blocks = match value {
                        "single" => true,
                        "large" => false,
                        _ => return Err(WitnessError::UnknownOption(format!("--blocks {value}"))),
                    }
                }
                // What `--spec` made the error (the property file itself is not recorded).
                "--error-call" => options.externs.error = Some(value.to_owned()),
                "--recursion-bound" => {
                    options.recursion.bound = value
                        .parse()
                        .ok()
                        .filter(|&b| b > 0)
                        .ok_or_else(|| WitnessError::RecursionBound(value.to_owned()))?
                }
                _ => return Err(WitnessError::UnknownOption(flag.to_owned())),
            }
        }
        Ok(options)
    }
}

/// Why [`load_with`] gave no model: the input, or the budget expiring while a BTOR2 model or a
/// C program was bit-blasted (the verdict is then `unknown`).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("stopped while bit-blasting the model")]
    Interrupted,
    /// A C program whose recursion, inlined to the bound asked for, is too large (unsupported
    /// as such; `warden check` tries a smaller bound first).
    #[error(transparent)]
    RecursionTooLarge(InputError),
}

/// Reads a model file with default [`LoadOptions`] and no time limit: see [`load_with`].
pub fn load(path: &Path) -> Result<Model, LoadError> {
    load_with(path, &LoadOptions::default(), &Budget::new(None))
}

/// Whether the circuit file `path` whose content starts with `head` is read as BTOR2 (a
/// `.btor`/`.btor2` name, or content that starts like BTOR2) rather than AIGER.
pub fn is_btor2(path: &Path, head: &[u8]) -> bool {
    let by_name = path
        .extension()
        .is_some_and(|e| e == "btor" || e == "btor2");
    by_name || btor2::looks_like_btor2(head)
}

/// Reads a model file: C for a `.c`/`.i` name, BTOR2 for a `.btor`/`.btor2` name or content
/// that starts like BTOR2, else AIGER. The bit-blasting of BTOR2 and C polls `budget`.
pub fn load_with(path: &Path, options: &LoadOptions, budget: &Budget) -> Result<Model, LoadError> {
    let data = std::fs::read(path)
        .map_err(|e| InputError::new(path, None, format!("cannot read: {e}")))?;
    if InputKind::of(path) == InputKind::C {
        return load_c(path, &data, options, budget);
    }
    if is_btor2(path, &data) {
        load_btor2(path, &data, options.wl_simplify, budget)
    } else {
        Ok(load_aiger(path, &data)?)
    }
}

/// [`wl::blast`] of a model read from `path`.
fn blast(
    path: &Path,
    model: &wl::Model,
    budget: &Budget,
) -> Result<(TransitionSystem, wl::BitMap), LoadError> {
    wl::blast(model, budget).map_err(|e| match e {
        BlastError::Unsupported(u) => InputError::unsupported(path, u.to_string()).into(),
        BlastError::Interrupted => LoadError::Interrupted,
    })
}

fn load_aiger(path: &Path, data: &[u8]) -> Result<Model, InputError> {
    let file = aiger::parse(data).map_err(|e| {
        let position =
            (e.line.map(|l| format!("line {l}"))).or(e.byte.map(|b| format!("byte {b}")));
        InputError::new(path, position, e.message)
    })?;
    let ts = aiger::to_transition_system(&file);
    Ok(Model {
        ts,
        source: Source::Aiger(file),
        wl_stats: None,
    })
}

/// The file's bytes as text, or an error at the first byte that is not UTF-8.
fn utf8<'d>(path: &Path, data: &'d [u8]) -> Result<&'d str, InputError> {
    std::str::from_utf8(data).map_err(|e| {
        let position = Some(format!("byte {}", e.valid_up_to()));
        InputError::new(path, position, "not UTF-8 text")
    })
}

fn load_btor2(
    path: &Path,
    data: &[u8],
    simplify: bool,
    budget: &Budget,
) -> Result<Model, LoadError> {
    let text = utf8(path, data)?;
    load_btor2_text(path, text, btor2::Shifts::Btorsim, simplify, budget)
}

/// Reads a Verilog design through Yosys ([`verilog::compile`]) as the BTOR2 model Yosys
/// writes, its shifts with Verilog's (SMT-LIB's) meaning; also returns what the compilation
/// tells beside the model (clocks, covers).
pub fn load_verilog(
    design: &verilog::Design,
    options: &LoadOptions,
    budget: &Budget,
) -> Result<(Model, verilog::Compiled), LoadError> {
    let compiled = verilog::compile(design)?;
    let model = load_btor2_text(
        &design.files[0],
        &compiled.btor2,
        btor2::Shifts::SmtLib,
        options.wl_simplify,
        budget,
    )?;
    Ok((model, compiled))
}

fn load_btor2_text(
    path: &Path,
    text: &str,
    shifts: btor2::Shifts,
    simplify: bool,
    budget: &Budget,
) -> Result<Model, LoadError> {
    let model = btor2::parse_with(text, shifts)
        .map_err(|e| InputError::new(path, Some(format!("line {}", e.line)), e.message))?;
    // The simplified model has the original's declarations: its bits and traces are the
    // original's, which witnesses are written and replayed on.
    let (blasted, wl_stats) = match simplify {
        true => {
            let (simple, stats) = wl::simplify::simplify(&model);
            (Cow::Owned(simple), Some(stats))
        }
        false => (Cow::Borrowed(&model), None),
    };
    let (ts, bits) = blast(path, &blasted, budget)?;
    drop(blasted);
    Ok(Model {
        ts,
        source: Source::Btor2 { model, bits },
        wl_stats,
    })
}

/// Translates a C program, shrinks its CFA (slicing, large blocks) and encodes it. Missing
/// headers are reported on stderr; unsupported constructs (and arrays too large for the
/// bit-blaster) give an `unsupported` error.
fn load_c(
    path: &Path,
    data: &[u8],
    options: &LoadOptions,
    budget: &Budget,
) -> Result<Model, LoadError> {
    let text = utf8(path, data)?;
    let program = c::translate_with(
        text,
        options.data_model,
        &options.externs,
        options.recursion,
    );
    let program = program.map_err(|e| match e {
        c::CError::Syntax { line, message } => {
            InputError::new(path, line.map(|l| format!("line {l}")), message).into()
        }
        e @ c::CError::Unsupported { .. } => InputError::unsupported(path, e.to_string()).into(),
        e @ c::CError::RecursionTooLarge { .. } => {
            LoadError::RecursionTooLarge(InputError::unsupported(path, e.to_string()))
        }
    })?;
    // `warden check` reads a recursive program again at every bound it tries: the warnings
    // are printed when it is read at the first (the default) only.
    let first_reading = options.recursion == c::Recursion::default();
    if first_reading && !program.dropped_headers.is_empty() {
        eprintln!(
            "warden: warning: {}: dropped #include of missing header(s): {}",
            path.display(),
            program.dropped_headers.join(", ")
        );
    }
    for f in program.assumed_nondet.iter().filter(|_| first_reading) {
        eprintln!(
            "warden: warning: {}: assumed nondet: {f} has no body; its calls return an \
             arbitrary value and have no other effect (--strict-extern refuses such calls)",
            path.display()
        );
    }
    let (cfa, assumed_nondet) = (program.cfa, program.assumed_nondet);
    let summarized = (first_reading && cfa.cuts_recursion())
        .then(|| c::translate_summarized(text, options.data_model, &options.externs))
        .and_then(|read| match read {
            Ok(cfa) => Some(cfa),
            Err(why) => {
                crate::log::info(1, format_args!("no procedure summaries: {why}"));
                None
            }
        });
    let mut blocks = cfa.clone();
    cfa::slice::slice(&mut blocks);
    if !options.single_blocks {
        cfa::lbe::large_blocks(&mut blocks);
        // Inside a block a variable's value flows into the guards by substitution: one read
        // only within its block is no longer read, and its assignments go (a straight-line
        // constraint program keeps none: 4.4 M gates of SV-COMP's Haystacks-09 fall to 0.7 M).
        cfa::slice::slice(&mut blocks);
    }
    // Encoded with the words its guards bound narrowed ([`cfa::narrow`]: the same
    // declarations, the same runs), its terms rewritten and its states kept
    // ([`wl::simplify::rewrite_terms`]); the CFA engines read the blocks as they are.
    let (narrowed, count) = cfa::narrow::narrowed(&blocks);
    crate::log::info(
        1,
        format_args!("narrow: {count} words bounded by their guards"),
    );
    let model =
        cfa::encode::encode(&narrowed).map_err(|e| InputError::new(path, None, e.to_string()))?;
    drop(narrowed);
    let (rewritten, wl_stats) = wl::simplify::rewrite_terms(&model);
    let (ts, bits) = blast(path, &rewritten, budget)?;
    drop(rewritten);
    Ok(Model {
        ts,
        source: Source::C {
            cfa,
            blocks,
            model,
            bits,
            read_with: options.clone(),
            assumed_nondet,
            summarized,
        },
        wl_stats: Some(wl_stats),
    })
}
