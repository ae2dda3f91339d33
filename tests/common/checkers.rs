//! The independent checkers of `../shared/tools` (aigsim, btorsim, aigtoaig, Certifaiger's
//! `certcheck`): built once into `target/checkers` with `../shared/tools/build.sh`, then used
//! to check warden's witnesses and certificates with code that shares nothing with warden.
//!
//! Shared by the integration tests (`mod common`) and the benchmarks (`#[path]`), so that every
//! user finds the tools the same way: `WARDEN_CHECKERS=DIR` if set, else `target/checkers`,
//! built there when missing. Only a checkout without the sources (no `../shared/tools`, and
//! no `WARDEN_CHECKERS`) has no checkers: [`Checkers::get`] says so once on stderr and
//! returns `None`, and callers skip. Where the sources are (always in CI), checkers that
//! cannot be built (no gcc, a failed build) are a failure, not a skip: a check that silently
//! does not run would let a wrong answer through.

#![allow(dead_code)] // each user calls its own subset

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The tools `build.sh` produces that the checks below run.
const TOOLS: [&str; 5] = ["aigsim", "aigtoaig", "btorsim", "certcheck", "certifaiger"];

/// Seconds after which one check is given up (`timeout` of coreutils kills it).
const CHECK_LIMIT_S: u64 = 120;

/// What an independent checker said about a witness or certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    Accepted,
    /// The checker ran and rejected it; its message.
    Rejected(String),
    /// The checker could not be run or gave no answer (usage error, timeout).
    Failed(String),
}

/// The directory with the built checkers.
pub struct Checkers {
    pub dir: PathBuf,
}

impl Checkers {
    /// The checkers, built on first use; `None` (after one message) when there are no
    /// sources to build them from. Panics when the sources are there but the build fails, or
    /// `WARDEN_CHECKERS` names a folder without them.
    pub fn get() -> Option<&'static Checkers> {
        static CHECKERS: OnceLock<Option<Checkers>> = OnceLock::new();
        CHECKERS
            .get_or_init(|| match locate() {
                Ok(dir) => Some(Checkers { dir }),
                Err(e) if std::env::var_os("WARDEN_CHECKERS").is_none() && !sources().is_file() => {
                    eprintln!("skipped: independent checkers unavailable: {e}");
                    None
                }
                Err(e) => panic!("the independent checkers cannot be used: {e}"),
            })
            .as_ref()
    }

    /// The checkers in `dir` (a `--tools DIR` option), if all are there.
    pub fn at(dir: &Path) -> Result<Checkers, String> {
        match TOOLS.iter().find(|t| !dir.join(t).is_file()) {
            Some(t) => Err(format!("{} has no {t}", dir.display())),
            None => Ok(Checkers {
                dir: dir.to_owned(),
            }),
        }
    }

    fn tool(&self, name: &str) -> Command {
        let mut c = Command::new("timeout");
        c.arg(CHECK_LIMIT_S.to_string()).arg(self.dir.join(name));
        c
    }

    /// `aigsim -c MODEL WITNESS`: replays an AIGER witness. aigsim checks the constraints of
    /// each frame before its bad properties and stops at the first violated one, so a witness
    /// is accepted only when every property it names is bad in a frame reached under the
    /// constraints (warden's semantics); the initial values must match the reset values.
    pub fn aigsim(&self, model: &Path, witness: &Path) -> Check {
        let mut c = self.tool("aigsim");
        c.arg("-c").arg(model).arg(witness);
        verdict_of(c, "aigsim")
    }

    /// `btorsim -c MODEL WITNESS`: replays a BTOR2 witness in btorsim's format.
    pub fn btorsim(&self, model: &Path, witness: &Path) -> Check {
        let mut c = self.tool("btorsim");
        c.arg("-c").arg(model).arg(witness);
        verdict_of(c, "btorsim")
    }

    /// `certcheck MODEL CERT` on the AIGER `model` re-encoded by `aigtoaig` into `scratch`
    /// (Certifaiger wants the binary, re-encoded form; an `.aag` is rejected otherwise).
    pub fn certcheck(&self, model: &Path, cert: &Path, scratch: &Path) -> Check {
        let encoded = scratch.join("certcheck-model.aig");
        if let Err(e) = self.reencode(model, &encoded) {
            return Check::Failed(e);
        }
        let mut c = self.tool("certcheck");
        c.arg(&encoded).arg(cert);
        let check = verdict_of(c, "certcheck");
        let _ = std::fs::remove_file(&encoded);
        check
    }
}

impl Checkers {
    /// `aigtoaig MODEL OUT`: the binary, re-encoded form of an AIGER model, which Certifaiger
    /// wants; it also tells whether the reference parser reads the model at all.
    pub fn reencode(&self, model: &Path, out: &Path) -> Result<(), String> {
        let mut conv = self.tool("aigtoaig");
        conv.arg(model).arg(out);
        succeeded(conv, "aigtoaig")
    }
}

/// Exit 0 = accepted, 1 = rejected, anything else (2 = usage, 124 = timeout) = failed.
fn verdict_of(mut cmd: Command, name: &str) -> Check {
    match cmd.output() {
        Err(e) => Check::Failed(format!("cannot run {name}: {e}")),
        Ok(o) => {
            let text = String::from_utf8_lossy(&o.stdout).to_string()
                + &String::from_utf8_lossy(&o.stderr);
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            match o.status.code() {
                Some(0) => Check::Accepted,
                Some(1) => Check::Rejected(format!("{name}: {}", first.trim())),
                Some(124) => Check::Failed(format!("{name}: no answer in {CHECK_LIMIT_S} s")),
                c => Check::Failed(format!("{name}: exit {c:?}: {}", first.trim())),
            }
        }
    }
}

fn succeeded(cmd: Command, name: &str) -> Result<(), String> {
    match verdict_of(cmd, name) {
        Check::Accepted => Ok(()),
        Check::Rejected(e) | Check::Failed(e) => Err(e),
    }
}

/// The script that builds the checkers from their sources.
fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/build.sh")
}

/// `$WARDEN_CHECKERS`, or `target/checkers` (built by `build.sh` when incomplete).
fn locate() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("WARDEN_CHECKERS") {
        return Checkers::at(Path::new(&dir)).map(|c| c.dir);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/checkers");
    if Checkers::at(&dir).is_ok() {
        return Ok(dir);
    }
    let script = sources();
    if !script.is_file() {
        return Err(format!("{} is not present", script.display()));
    }
    if Command::new("gcc").arg("--version").output().is_err() {
        return Err("gcc is missing".to_owned());
    }
    // Built into a directory of our own and renamed into place, so that test binaries
    // running at the same time never see (or write into) a half-built directory.
    let tmp = root.join(format!("target/checkers.build-{}", std::process::id()));
    eprintln!("building the independent checkers into {}", dir.display());
    let out = Command::new("bash")
        .arg(&script)
        .arg(&tmp)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&tmp);
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("build.sh failed: {}", err.trim()));
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        // Another process got there first: keep its directory.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Checkers::at(&dir).map(|c| c.dir)
}
