//! The ABC side of the corpus runner: finding `berkeley-abc`, the command script, the
//! conversion of ASCII AIGER and BTOR2 to the binary AIGER ABC reads, and the reading of ABC's
//! output.

use std::path::{Path, PathBuf};

use crate::Verdict;

/// Which ABC engine a tool column runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbcCmd {
    Bmc3,
    Pdr,
}

impl AbcCmd {
    pub fn tool_name(self) -> &'static str {
        match self {
            AbcCmd::Bmc3 => "abc-bmc3",
            AbcCmd::Pdr => "abc-pdr",
        }
    }

    /// The `-c` script for a binary AIGER `model` with a time limit in seconds.
    ///
    /// `logic; undc; strash` comes BEFORE `fold`: `fold` turns the AIG into ABC's AIG
    /// package and silently sets uninitialised latches to 0 ("The don't-care are assumed to
    /// be 0"), after which `undc` has nothing left to convert and an uninitialised latch
    /// reads as 0-initialised (a wrong `Property proved` on a one-latch test model). Done
    /// first, `undc` turns each uninitialised latch into a fresh first-frame input, and the
    /// constraint outputs survive `logic`/`strash` for `fold` to fold.
    ///
    /// `frames` bounds bmc3's depth (`-F`; the differential tester's random circuits need
    /// few frames, and without a bound bmc3 runs to its time limit on every safe circuit).
    pub fn script(self, model: &Path, timeout_s: u64, frames: Option<usize>) -> String {
        let engine = match (self, frames) {
            (AbcCmd::Bmc3, Some(f)) => format!("bmc3 -F {f}"),
            (AbcCmd::Bmc3, None) => "bmc3".to_owned(),
            (AbcCmd::Pdr, _) => "pdr".to_owned(),
        };
        format!(
            "read {}; logic; undc; strash; fold; zero; {engine} -T {timeout_s}",
            model.display()
        )
    }
}

/// Reads ABC's verdict from its stdout.
///
/// - `Output N of miter "NAME" was asserted in frame F.` (bmc3 and pdr): `sat`;
/// - `Property proved.` (pdr) and `Explored all reachable states after completing N frames.`
///   (bmc3, when the frame count exceeds the number of states of a small circuit): `unsat`;
/// - anything else, in particular `No output asserted in N frames. Resource limit reached`
///   (bmc3 at its time limit), `Property UNDECIDED.` (pdr at its limit), errors such as
///   `Does not work for combinational networks.` (bmc3 on a circuit without latches):
///   `unknown`.
pub fn parse_verdict(stdout: &str) -> Verdict {
    if stdout.contains("was asserted in frame") && !stdout.contains("verification has FAILED") {
        Verdict::Sat
    } else if stdout.contains("Property proved") || stdout.contains("Explored all reachable") {
        Verdict::Unsat
    } else {
        Verdict::Unknown
    }
}

/// The `berkeley-abc` binary: `explicit` if given, else the first one on `PATH`, else
/// `/usr/bin/berkeley-abc`. `Err` says what was looked for.
pub fn find_binary(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return if p.is_file() {
            Ok(p.to_owned())
        } else {
            Err(format!("{} does not exist", p.display()))
        };
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("berkeley-abc"))
        .find(|p| p.is_file())
        .ok_or_else(|| "berkeley-abc is not on PATH nor in /usr/bin".to_owned())
}

/// Writes the binary AIGER form of the ASCII AIGER file `src` to `dst`, with warden's own
/// reader and writer (ABC reads binary AIGER only).
pub fn convert_to_binary(src: &Path, dst: &Path) -> Result<(), String> {
    let data = std::fs::read(src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    let aiger =
        warden::front::aiger::parse(&data).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(dst).map_err(|e| format!("cannot create {}: {e}", dst.display()))?,
    );
    warden::front::aiger::write_binary(&aiger, &mut out)
        .and_then(|()| std::io::Write::flush(&mut out))
        .map_err(|e| format!("cannot write {}: {e}", dst.display()))
}

/// Writes the bit-blasted system of the BTOR2 file `src` to `dst` as binary AIGER with
/// `warden blast` (the same system `warden check` runs its engines on).
pub fn blast(warden: &Path, src: &Path, dst: &Path) -> Result<(), String> {
    blast_with(warden, src, dst, &[])
}

/// [`blast`] with extra `warden blast` flags (e.g. `--wl-simplify false`).
pub fn blast_with(warden: &Path, src: &Path, dst: &Path, flags: &[&str]) -> Result<(), String> {
    let out = std::process::Command::new(warden)
        .arg("blast")
        .arg(src)
        .arg(dst)
        .args(flags)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", warden.display()))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err
            .lines()
            .next()
            .unwrap_or("warden blast failed")
            .to_owned())
    }
}
