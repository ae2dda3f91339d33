//! Malformed inputs end in a verdict or an input error, never a panic or a hang: the crafted
//! files and fuzz findings of `tests/data/`, and mutants of the shared corpus
//! (`tests/common/mutate.rs`, fixed seed). Every run must exit 0 or 2 (for `sim` and
//! `certify` also 1, their "invalid" answer), within its `--timeout` plus the overrun
//! watchdog's grace, and an exit 2 must name the file and a line or byte.
//!
//! `WARDEN_MUTANTS=N` sets the number of corpus mutants (default 40; the acceptance run
//! uses 300).

mod common;
#[allow(dead_code)] // the fuzzer uses all of it, this test only `mutate`
#[path = "common/mutate.rs"]
mod mutate;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mutate::{mutate, Rng};

/// `--timeout` of every run (seconds).
const TIMEOUT: u64 = 2;
/// How long a run may take before it counts as a hang: the timeout, the watchdog's 2 s
/// grace, and a wide margin for a loaded machine (reading and preprocessing are not timed).
const HANG: Duration = Duration::from_secs(TIMEOUT + 2 + 30);

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs warden with `args`; returns its exit code and stderr. Panics on a hang or a signal.
fn warden(args: &[&Path], what: &str) -> (i32, String) {
    // One pair of files per run: the tests run in parallel.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::SeqCst);
    let dir = scratch();
    let (out, err) = (
        dir.join(format!("{run}.out")),
        dir.join(format!("{run}.err")),
    );
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warden"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap());
    if args[0] == Path::new("check") {
        cmd.args(["--timeout", &TIMEOUT.to_string()]);
    }
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > HANG {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what}: still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = std::fs::read_to_string(&err).unwrap_or_default();
    let code = status
        .code()
        .unwrap_or_else(|| panic!("{what}: killed by a signal ({status}); stderr: {stderr}"));
    (code, stderr)
}

/// Whether `text` names a position: `FILE:N:`, `line N` or `byte N`.
fn names_position(text: &str) -> bool {
    // `FILE:LINE: message` (text input), or `byte N` / `line N` inside a message.
    [":", "line ", "byte "].iter().any(|w| {
        text.match_indices(w)
            .any(|(i, _)| text[i + w.len()..].starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// Asserts the outcome of one run: an allowed exit code, and for 2 a message naming
/// `input` and a position. Returns the exit code.
fn assert_clean(args: &[&Path], input: &Path, allowed: &[i32]) -> i32 {
    let what = format!("warden {}", args[0].display());
    let what = format!("{what} {}", input.display());
    let (code, stderr) = warden(args, &what);
    assert!(
        allowed.contains(&code),
        "{what}: exit code {code}, expected one of {allowed:?}; stderr: {stderr}"
    );
    if code == 2 {
        let named = stderr.contains(&input.display().to_string());
        assert!(
            named && names_position(&stderr),
            "{what}: error without file and line: {stderr}"
        );
    }
    code
}

fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The model beside a witness or certificate `NAME.SUFFIX`: `NAME.model.EXT`.
fn model_of(file: &Path, suffix: &str) -> PathBuf {
    let name = file.file_name().unwrap().to_str().unwrap();
    let stem = name.strip_suffix(suffix).unwrap();
    sorted_files(file.parent().unwrap())
        .into_iter()
        .find(|p| {
            let n = p.file_name().unwrap().to_str().unwrap();
            n.starts_with(&format!("{stem}.model."))
        })
        .unwrap_or_else(|| panic!("no {stem}.model.* beside {}", file.display()))
}

#[test]
fn crafted_inputs_and_fuzz_findings() {
    let data = common::root().join("tests/data");
    let models = sorted_files(&data);
    assert!(models.len() >= 20, "at least 20 crafted malformed models");
    let mut errors = 0;
    for f in &models {
        if assert_clean(&[Path::new("check"), f], f, &[0, 2]) == 2 {
            errors += 1;
        }
    }
    // Nearly all are input errors; the few valid ones are fuzz findings that once crashed.
    assert!(
        errors >= 20,
        "only {errors} of the crafted files were rejected"
    );
    for w in sorted_files(&data.join("sim")) {
        if w.extension().is_some_and(|e| e == "wit") {
            let model = model_of(&w, ".wit");
            assert_clean(&[Path::new("sim"), &model, &w], &w, &[0, 1, 2]);
        }
    }
    for c in sorted_files(&data.join("certify")) {
        if c.to_str().unwrap().ends_with(".cert.aag") {
            let model = model_of(&c, ".cert.aag");
            assert_clean(&[Path::new("certify"), &model, &c], &c, &[0, 1, 2]);
        }
    }
}

/// `n` corpus files to mutate, a third from each of the AIGER, BTOR2 and C sets, evenly
/// spread over the small ones (a mutant runs to its timeout at worst, so large files add
/// time, not coverage); a set with fewer files than its share gives some twice.
fn corpus_files(n: usize) -> Option<Vec<PathBuf>> {
    let bench = common::root().join("../shared/bench");
    if !bench.is_dir() {
        eprintln!("skipped: ../shared/bench is not present");
        return None;
    }
    let mut out = Vec::new();
    for (k, set) in ["aiger", "btor2", "c"].iter().enumerate() {
        let files: Vec<PathBuf> = sorted_files(&bench.join(set))
            .into_iter()
            .filter(|p| p.metadata().is_ok_and(|m| m.len() <= 16 * 1024))
            .collect();
        let share = n / 3 + usize::from(k < n % 3);
        out.extend((0..share).map(|j| files[j * files.len() / share % files.len()].clone()));
    }
    Some(out)
}

#[test]
fn mutated_corpus_files() {
    let n = std::env::var("WARDEN_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let Some(files) = corpus_files(n) else {
        return;
    };
    let dir = scratch();
    let mut rng = Rng::new(18);
    let mut codes = [0; 3];
    for (i, f) in files.iter().enumerate() {
        let data = std::fs::read(f).unwrap();
        let other = std::fs::read(&files[rng.below(files.len())]).unwrap();
        let ext = f.extension().unwrap().to_str().unwrap();
        let mutant = dir.join(format!("mutant{i}.{ext}"));
        std::fs::write(&mutant, mutate(&mut rng, &data, &other)).unwrap();
        let code = assert_clean(&[Path::new("check"), &mutant], &mutant, &[0, 2]);
        codes[code as usize] += 1;
    }
    eprintln!("{n} mutants: {} exit 0, {} exit 2", codes[0], codes[2]);
    let _ = std::fs::remove_dir_all(dir);
}
