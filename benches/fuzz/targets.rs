//! The readers under fuzz, each with its seeds and its in-process entry point. A target
//! runs what `warden` runs on such a file after reading it, up to (not including) the
//! engines: an AIGER file also becomes a transition system, a BTOR2 file is bit-blasted, a
//! C program is translated, sliced, merged into large blocks, encoded and bit-blasted, a
//! witness is replayed and a certificate is certified, so that a panic anywhere on the way
//! from bytes to the checked model counts.

use std::path::{Path, PathBuf};
use std::time::Duration;

use warden::check::{self, Answer, EngineKind, Options, Proof};
use warden::front::{self, aiger, btor2, c, Model, Source};
use warden::{cert, cfa, ts, witness, wl, Budget};

/// A fuzz target: the fixed models inputs are read against (for witnesses and certificates)
/// and the seed inputs, each tagged with the index of its model.
pub struct Target {
    pub name: &'static str,
    /// Extension of saved findings.
    pub ext: &'static str,
    pub models: Vec<(PathBuf, Model)>,
    pub seeds: Vec<(usize, Vec<u8>)>,
}

pub const NAMES: &[&str] = &[
    "aag",
    "aig",
    "btor2",
    "aiger-witness",
    "btor2-witness",
    "cert",
    "c",
];

/// Seeds no larger than this: small inputs make fast executions.
const MAX_SEED: u64 = 16 * 1024;

/// Bit-vector models with more term bits than this are not bit-blasted (a mutated width of
/// 2^20 would make one execution take seconds; the CLI bounds that with `--timeout`).
const MAX_BLAST_BITS: u64 = 1 << 16;

fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| exts.iter().any(|x| e == *x)))
        .filter(|p| p.metadata().is_ok_and(|m| m.len() <= MAX_SEED))
        .collect();
    out.sort();
    out
}

/// Small files with one of `exts` from the shared corpus, our circuits and `tests/data`.
fn corpus(root: &Path, exts: &[&str]) -> Vec<Vec<u8>> {
    let dirs = [
        "../shared/bench/aiger",
        "../shared/bench/btor2",
        "../shared/bench/c",
        "circuits",
        "circuits/btor2",
        "circuits/c",
        "tests/data",
    ];
    dirs.iter()
        .flat_map(|d| files(&root.join(d), exts))
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

/// The circuits of `circuits/manifest.tsv` (and `circuits/btor2/`) with verdict `expected`.
fn circuits(root: &Path, expected: &str, exts: &[&str]) -> Vec<(PathBuf, Model)> {
    let mut out = Vec::new();
    for dir in ["circuits", "circuits/btor2"] {
        for p in files(&root.join(dir), exts) {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            if name.ends_with(&format!("_{expected}")) {
                if let Ok(m) = front::load(&p) {
                    out.push((p, m));
                }
            }
        }
    }
    out
}

fn solve(model: &Model, engine: EngineKind) -> Option<Answer> {
    let budget = Budget::new(Some(Duration::from_secs(10)));
    let r = check::run(&model.ts, &Options::new(engine), &budget).ok()?;
    Some(r.answer)
}

/// The witness warden writes for a `sat` model, in the model's own format.
fn witness_of(model: &Model) -> Option<Vec<u8>> {
    let Answer::Sat(trace) = solve(model, EngineKind::Bmc)? else {
        return None;
    };
    let text = match &model.source {
        Source::Aiger(file) => witness::aiger::write(&trace, file.latches.len()),
        Source::Btor2 { model: words, bits } => {
            btor2::write_witness(words, &wl::lift_trace(words, bits, &model.ts, &trace))
        }
        Source::C { .. } => return None,
    };
    Some(text.into_bytes())
}

/// The witness circuit warden writes for an `unsat` model (ASCII and binary).
fn certificates_of(model: &Model) -> Vec<Vec<u8>> {
    let Some(Answer::Unsat(Proof::Invariant(inv))) = solve(model, EngineKind::Ic3) else {
        return Vec::new();
    };
    let circuit = cert::witness_circuit(&model.aiger(), &inv);
    let (mut ascii, mut binary) = (Vec::new(), Vec::new());
    aiger::write_ascii(&circuit, &mut ascii).expect("in memory");
    aiger::write_binary(&circuit, &mut binary).expect("in memory");
    vec![ascii, binary]
}

/// A target's models, and its seeds tagged with the index of their model.
type Inputs = (Vec<(PathBuf, Model)>, Vec<(usize, Vec<u8>)>);

/// Seeds without a model.
fn plain(seeds: Vec<Vec<u8>>) -> Inputs {
    (Vec::new(), seeds.into_iter().map(|s| (0, s)).collect())
}

/// Models plus the seeds `make` gives for each.
fn with_models(models: Vec<(PathBuf, Model)>, make: impl Fn(&Model) -> Vec<Vec<u8>>) -> Inputs {
    let seeds = (models.iter().enumerate())
        .flat_map(|(i, (_, m))| make(m).into_iter().map(move |s| (i, s)))
        .collect();
    (models, seeds)
}

/// C seeds are preprocessed once (`gcc -E`); the fuzzer mutates the preprocessed text.
fn preprocessed(root: &Path) -> Vec<Vec<u8>> {
    let sources = corpus(root, &["c", "i"]);
    sources
        .iter()
        .filter_map(|s| c::preprocess::preprocess(&String::from_utf8_lossy(s)).ok())
        .map(|p| p.text.into_bytes())
        .collect()
}

impl Target {
    /// The target `name` (one of [`NAMES`]) with its seeds, read relative to `root`.
    pub fn new(name: &str, root: &Path) -> Option<Target> {
        let witnesses = |m: &Model| witness_of(m).into_iter().collect();
        let (ext, (models, seeds)) = match name {
            "aag" => ("aag", plain(corpus(root, &["aag"]))),
            "aig" => ("aig", plain(corpus(root, &["aig"]))),
            "btor2" => ("btor2", plain(corpus(root, &["btor", "btor2"]))),
            "aiger-witness" => (
                "wit",
                with_models(circuits(root, "sat", &["aag"]), witnesses),
            ),
            "btor2-witness" => (
                "wit",
                with_models(circuits(root, "sat", &["btor2"]), witnesses),
            ),
            "cert" => (
                "cert.aag",
                with_models(circuits(root, "unsat", &["aag"]), certificates_of),
            ),
            "c" => ("i", plain(preprocessed(root))),
            _ => return None,
        };
        Some(Target {
            name: NAMES.iter().find(|n| **n == name)?,
            ext,
            models,
            seeds,
        })
    }

    /// Reads `data` (against model `model` for witnesses and certificates); `true` when the
    /// reader accepted it (the fuzzer keeps accepted inputs as further seeds).
    pub fn run(&self, model: usize, data: &[u8]) -> bool {
        match self.name {
            "aag" | "aig" => aiger::parse(data)
                .map(|a| aiger::to_transition_system(&a))
                .is_ok(),
            "btor2" => std::str::from_utf8(data).is_ok_and(|text| match btor2::parse(text) {
                Ok(m) => small(&m) && wl::blast(&m, &Budget::new(None)).is_ok(),
                Err(_) => false,
            }),
            "aiger-witness" => {
                let (ts, source) = (&self.models[model].1.ts, &self.models[model].1.source);
                let Source::Aiger(file) = source else {
                    return false;
                };
                let text = String::from_utf8_lossy(data);
                witness::aiger::parse(&text, ts, file.latches.len()).is_ok_and(|w| {
                    w.bad.iter().all(|&b| {
                        let trace = ts::Trace {
                            bad: b,
                            ..w.trace.clone()
                        };
                        ts::replay(ts, &trace).is_ok()
                    })
                })
            }
            "btor2-witness" => {
                let Source::Btor2 { model: words, .. } = &self.models[model].1.source else {
                    unreachable!("btor2-witness models are BTOR2 files")
                };
                let text = String::from_utf8_lossy(data);
                btor2::parse_witness(&text, words).is_ok_and(|w| {
                    w.bad.iter().all(|&b| {
                        let trace = wl::Trace {
                            bad: b,
                            ..w.trace.clone()
                        };
                        wl::replay(words, &trace).is_ok()
                    })
                })
            }
            "cert" => {
                let m = &self.models[model].1;
                let budget = Budget::new(Some(Duration::from_secs(5)));
                aiger::parse(data).is_ok_and(|circuit| {
                    cert::certify(&m.ts, &m.aiger(), &circuit, &budget).is_ok()
                })
            }
            "c" => {
                let text = String::from_utf8_lossy(data).into_owned();
                let Ok((mut blocks, _)) = c::translate_preprocessed(
                    text,
                    c::DataModel::default(),
                    &c::Externs::default(),
                    c::Recursion::default(),
                ) else {
                    return false;
                };
                cfa::slice::slice(&mut blocks);
                cfa::lbe::large_blocks(&mut blocks);
                cfa::encode::encode(&blocks)
                    .is_ok_and(|m| small(&m) && wl::blast(&m, &Budget::new(None)).is_ok())
            }
            other => unreachable!("{other} is not in NAMES"),
        }
    }
}

/// Whether a word-level model is small enough to bit-blast in one execution.
fn small(m: &wl::Model) -> bool {
    let bits = (0..m.num_terms()).map(|t| match m.sort(wl::TermId(t as u32)) {
        wl::Sort::Bv(w) => w as u64,
        wl::Sort::Array { index, element } => (element as u64) << index.min(40),
    });
    bits.sum::<u64>() <= MAX_BLAST_BITS
}
