//! ABC (`berkeley-abc`) beside warden: the script that makes ABC check what an AIGER 1.9
//! model means, ABC's verdicts, its counterexample files ([`cex`]) and its inductive
//! invariants ([`invariant`]), and one limited run of ABC on a transition system ([`run`]).
//! The corpus runner, the differential tester and `warden compare` all go through here.
//!
//! # Semantics
//! ABC reads binary AIGER only, and an AIGER 1.9 file's bad-state properties as outputs
//! followed by the invariant constraints, marked as constraints ("The last N outputs are
//! interpreted as constraints"). Two differences from AIGER 1.9 are removed by [`PREPARE`],
//! which every script runs right after `read`:
//! - `undc` turns each uninitialised latch into a 0-initialised one that takes a fresh
//!   primary input in the first frame (appended after the model's own inputs, one per
//!   uninitialised latch in latch order, plus one first-frame latch); without it ABC reads
//!   the latch as 0-initialised.
//! - `fold` folds the constraints into the properties (sticky: a trace must satisfy them in
//!   every frame up to the bad one); without it `bmc3` and `pdr` refuse to run.
//!
//! The order matters and was checked on this machine's ABC (1.01, 2022): `fold` silently
//! sets uninitialised latches to 0 ("The don't-care are assumed to be 0"), so with `fold`
//! first an uninitialised latch reads as 0-initialised and ABC proves a property that fails
//! (`bad = u1 & q & !u2` with `u1`, `u2` uninitialised and a constraint: `Property proved`).
//! `logic; undc; strash` first, then `fold`, keeps the constraint outputs for `fold`, and
//! `zero` last makes every initial value 0 (latches reset to 1 are complemented), which
//! `pdr -d` requires of the invariants it writes. The network ABC checks therefore differs
//! from the model: extra inputs and latches, complemented latches, and latches `fold` drops
//! when they drive nothing. [`cex::to_trace`] maps its counterexamples back (inputs by
//! position, initial values from the model's resets and the `undc` inputs); its invariants
//! are checked on that network itself ([`invariant`]).
//!
//! Layer: beside [`crate::engine`]; imports [`crate::cert`], [`crate::front`] and what lies below
//! them, and only the command line uses it.

pub mod cex;
pub mod invariant;
pub mod run;

use std::path::{Path, PathBuf};

use crate::front::aiger::{self, Aiger};
use crate::ts::TransitionSystem;
use crate::verdict::Verdict;

/// The commands that make ABC's network mean what the AIGER 1.9 model means (see the
/// module documentation for why in this order).
pub const PREPARE: &str = "logic; undc; strash; fold; zero";

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

    /// The `-c` script for a binary AIGER `model` with a time limit in seconds; `Err` when
    /// `model` is not a [`plain_word`] (ABC splits its script at spaces and `;`: run it in the
    /// model's folder and name the model by its file name).
    ///
    /// `frames` bounds bmc3's depth (`-F`; the differential tester's random circuits need
    /// few frames, and without a bound bmc3 runs to its time limit on every safe circuit).
    pub fn script(
        self,
        model: &Path,
        timeout_s: u64,
        frames: Option<usize>,
    ) -> Result<String, String> {
        let model = plain_word(model)?;
        let engine = match (self, frames) {
            (AbcCmd::Bmc3, Some(f)) => format!("bmc3 -F {f}"),
            (AbcCmd::Bmc3, None) => "bmc3".to_owned(),
            (AbcCmd::Pdr, _) => "pdr".to_owned(),
        };
        Ok(format!("read {model}; {PREPARE}; {engine} -T {timeout_s}"))
    }
}

/// `path` as one word of an ABC script: `Err` unless it has only letters, digits and
/// `/._-+,=@%`, and does not start with `-` (ABC has no quoting: a space or `;` would end the
/// word or the command, a leading `-` make it an option).
pub fn plain_word(path: &Path) -> Result<&str, String> {
    let plain = |s: &&str| {
        !s.starts_with('-')
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "/._-+,=@%".contains(c))
    };
    path.to_str().filter(plain).ok_or_else(|| {
        format!(
            "{:?} cannot be named in an ABC script (letters, digits and /._-+,=@% only)",
            path
        )
    })
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

/// The output and the frame of ABC's `Output N of miter "NAME" was asserted in frame F.`
pub fn asserted(stdout: &str) -> Option<(usize, usize)> {
    let line = stdout
        .lines()
        .find(|l| l.contains("was asserted in frame"))?;
    let output = line.trim().strip_prefix("Output ")?.split(' ').next()?;
    let frame = line.split("asserted in frame ").nth(1)?;
    let frame: String = frame.chars().take_while(char::is_ascii_digit).collect();
    Some((output.parse().ok()?, frame.parse().ok()?))
}

/// The `berkeley-abc` binary: `explicit` if given, else the first one on `PATH`, else
/// `/usr/bin/berkeley-abc`. `Err` says what was looked for and how to install it.
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
        .ok_or_else(|| {
            "berkeley-abc is not on PATH nor in /usr/bin (Debian: apt-get install berkeley-abc)"
                .to_owned()
        })
}

/// Writes the binary AIGER form of the ASCII AIGER file `src` to `dst`, with warden's own
/// reader and writer (ABC reads binary AIGER only).
pub fn convert_to_binary(src: &Path, dst: &Path) -> Result<(), String> {
    let data = std::fs::read(src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    let file = aiger::parse(&data).map_err(|e| format!("{}: {e}", src.display()))?;
    write_binary(&file, dst)
}

/// The AIGER file ABC checks for `ts`: its inputs and latches in the same order, its bad
/// properties and constraints, no outputs (ABC would read them as properties), no justice
/// or fairness properties (which warden does not check either) and no names (ABC reads
/// names with spaces badly, and the names of the network it checks are its own anyway).
pub fn input(ts: &TransitionSystem) -> Aiger {
    let mut plain = ts.clone();
    plain.justice.clear();
    plain.fairness.clear();
    let mut file = aiger::from_transition_system(&plain, &[]);
    file.symbols = aiger::Symbols::default();
    file.comments.clear();
    file
}

/// Writes `file` as binary AIGER to `dst`.
pub fn write_binary(file: &Aiger, dst: &Path) -> Result<(), String> {
    let mut bytes = Vec::new();
    aiger::write_binary(file, &mut bytes).expect("writing to memory cannot fail");
    std::fs::write(dst, bytes).map_err(|e| format!("cannot write {}: {e}", dst.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_the_asserted_frame_are_read_from_abc_output() {
        let sat = "Output 1 of miter \"m\" was asserted in frame 12.  Time =     0.01 sec\n";
        assert_eq!(parse_verdict(sat), Verdict::Sat);
        assert_eq!(asserted(sat), Some((1, 12)));
        assert_eq!(
            parse_verdict("Property proved.  Time = 0.1 sec"),
            Verdict::Unsat
        );
        assert_eq!(parse_verdict("Property UNDECIDED."), Verdict::Unknown);
        assert_eq!(asserted("Property proved."), None);
    }
}
