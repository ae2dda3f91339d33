//! Shared helpers of the integration tests: the manifests of our own circuits and of the
//! shared benchmark corpus, and the independent checkers (`checkers`).

#![allow(dead_code)] // each test binary uses its own subset of these helpers

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod checkers;

use warden::check::{self, EngineKind, Options, Report};
use warden::front::{self, Model};
use warden::Budget;

/// Runs BMC (to depth 40), k-induction, IC3 and the portfolio on every circuit of `circuits`
/// (30 s each) and hands each report to `check` with its engine, circuit and model.
pub fn each_engine_report(
    circuits: &[Circuit],
    mut check: impl FnMut(EngineKind, &Circuit, &Model, &Report, &Budget),
) {
    for engine in [
        EngineKind::Bmc,
        EngineKind::Kind,
        EngineKind::Ic3,
        EngineKind::Portfolio,
    ] {
        for c in circuits {
            let model = front::load(&c.path)
                .unwrap_or_else(|e| panic!("{} ({engine:?}): {e}", c.path.display()));
            let opts = Options {
                max_depth: (engine == EngineKind::Bmc).then_some(40),
                ..Options::new(engine)
            };
            let budget = Budget::new(Some(std::time::Duration::from_secs(30)));
            let report = check::run(&model.ts, &opts, &budget).unwrap();
            check(engine, c, &model, &report, &budget);
        }
    }
}

/// Runs the warden binary of this build with `args`.
pub fn warden<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(args)
        .output()
        .expect("run warden")
}

/// The path `name` in this test process's own scratch folder `warden-<tag>-<pid>` (created).
pub fn scratch_file(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `circuits/counter8_mod200_unsat.aag` with a second property before its own, `1`, which
/// fails at once, written to the scratch folder of `tag`: a model whose first property
/// fails while the other keeps the engines busy.
pub fn failing_beside_a_proof(tag: &str) -> PathBuf {
    let text = std::fs::read_to_string(circuit("counter8_mod200_unsat.aag")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "aag 54 0 8 0 46 1");
    lines[0] = "aag 54 0 8 0 46 2";
    lines.insert(9, "1");
    let model = scratch_file(tag, "two_properties.aag");
    std::fs::write(&model, lines.join("\n") + "\n").unwrap();
    model
}

/// One row of `circuits/manifest.tsv`.
pub struct Circuit {
    pub path: PathBuf,
    pub expected: String,
    /// Shortest counterexample depth for `sat` circuits.
    pub depth: Option<usize>,
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The path of `circuits/NAME`, as a command-line argument.
pub fn circuit(name: &str) -> String {
    root().join("circuits").join(name).display().to_string()
}

pub fn circuits() -> Vec<Circuit> {
    circuits_in("circuits")
}

/// The rows of `DIR/manifest.tsv` (`path`, `expected`, then `depth` where the manifest has
/// one: `circuits/arrays/` has a description there, read as no depth).
pub fn circuits_in(dir: &str) -> Vec<Circuit> {
    let dir = root().join(dir);
    let text = std::fs::read_to_string(dir.join("manifest.tsv"))
        .unwrap_or_else(|e| panic!("{}/manifest.tsv: {e}", dir.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Circuit {
                path: dir.join(f[0]),
                expected: f[1].to_string(),
                depth: f[2].parse().ok(),
            }
        })
        .collect()
}

/// One row of a shared-corpus set (`../shared/bench/eval-*.tsv`).
pub struct Task {
    pub path: PathBuf,
    pub expected: String,
}

/// The rows of `../shared/bench/NAME`, or `None` (with a message) when the corpus is absent.
pub fn corpus_set(name: &str) -> Option<Vec<Task>> {
    let bench = root().join("../shared/bench");
    let Ok(text) = std::fs::read_to_string(bench.join(name)) else {
        eprintln!("skipped: ../shared/bench/{name} is not present");
        return None;
    };
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let expected = header
        .iter()
        .position(|h| *h == "expected")
        .expect("an `expected` column");
    Some(
        lines
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                Task {
                    path: bench.join(f[0]),
                    expected: verdict(f[expected]).to_string(),
                }
            })
            .collect(),
    )
}

/// An expected verdict as warden prints it: SV-COMP's `true` (the error is unreachable) is
/// `unsat`, `false` is `sat`.
fn verdict(expected: &str) -> &str {
    match expected {
        "true" => "unsat",
        "false" => "sat",
        v => v,
    }
}

/// The circuits whose file name ends in `.ext`; the manifest must list at least `at_least`.
pub fn circuits_of_kind(ext: &str, at_least: usize) -> Vec<Circuit> {
    let all: Vec<Circuit> = circuits()
        .into_iter()
        .filter(|c| c.path.extension().is_some_and(|e| e == ext))
        .collect();
    assert!(
        all.len() >= at_least,
        "the manifest lists the .{ext} circuits"
    );
    all
}
