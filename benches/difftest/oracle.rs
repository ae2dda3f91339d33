//! Checks one model with every warden engine and with ABC, and every answer with an
//! independent checker: a `sat` witness must replay in `warden sim` and in aigsim (AIGER) or
//! btorsim (BTOR2), an `unsat` certificate must pass Certifaiger's `certcheck` against the
//! bit-level model (the AIGER model itself, or `warden blast` of the BTOR2 model), and no two
//! tools may answer `sat` and `unsat`.
//!
//! Engines run through the `warden` binary, so the whole path is exercised, including the
//! checks `warden check` makes itself before printing a verdict. For BTOR2 models, warden's
//! portfolio also runs on the blasted AIGER file (`warden-blast`), and ABC checks the blasted
//! file, so the AIGER path of `warden blast` is compared with the word-level one. A circuit
//! with reset functions comes with an equivalent one without them: ABC, which reads no reset
//! functions, checks that one, and so does warden's portfolio (`warden-plain`), whose
//! answers are checked on it; witnesses and certificates of the circuit itself are checked on
//! it, reset functions and all, by aigsim and certcheck.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::abc::{self, AbcCmd};
use crate::checkers::{Check, Checkers};
use crate::Verdict;

/// Every engine of `warden check --engine`.
pub const ENGINES: [&str; 6] = ["portfolio", "bmc", "kind", "ic3", "imc", "cegar"];

/// The engines that read `--max-depth`.
const BOUNDED_ENGINES: [&str; 4] = ["portfolio", "bmc", "kind", "imc"];

/// The input format of a model, and which replay applies to its witnesses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Aiger,
    /// `btorsim` is false for models btorsim cannot replay (see `gen_btor2::Btor2`).
    Btor2 {
        btorsim: bool,
    },
}

/// How to run the tools.
pub struct Oracle<'a> {
    pub warden: PathBuf,
    pub checkers: &'a Checkers,
    /// `berkeley-abc`, when installed.
    pub abc: Option<PathBuf>,
    /// `--timeout` of each warden run and `-T` of each ABC run.
    pub timeout_s: u64,
    /// `--max-depth` of each warden run (BMC stops there with `unknown`).
    pub max_depth: usize,
}

/// What the tools said about one model, and what went wrong.
#[derive(Default)]
pub struct Report {
    /// (tool, verdict) for every run.
    pub answers: Vec<(String, Verdict)>,
    /// Disagreements, rejected witnesses or certificates, failed runs: empty when all is well.
    pub problems: Vec<String>,
    /// Witnesses accepted by `warden sim`.
    pub sim_ok: usize,
    /// Witnesses accepted by aigsim.
    pub aigsim_ok: usize,
    /// Witnesses accepted by btorsim.
    pub btorsim_ok: usize,
    /// Certificates accepted by certcheck.
    pub certcheck_ok: usize,
    /// Witnesses btorsim could not check (see `gen_btor2::Btor2`).
    pub btorsim_skipped: usize,
}

impl Oracle<'_> {
    /// Runs every tool on `model` (working files in `dir`) and checks every answer; ABC
    /// checks `equivalent` instead when given (an AIGER circuit without reset functions).
    pub fn check(
        &self,
        model: &Path,
        format: Format,
        equivalent: Option<&Path>,
        dir: &Path,
    ) -> Report {
        let mut r = Report::default();
        let aig = dir.join("model.aig");
        let converted = match format {
            Format::Aiger => abc::convert_to_binary(model, &aig),
            Format::Btor2 { .. } => abc::blast(&self.warden, model, &aig),
        };
        let bit_level = match converted {
            Ok(()) => Some(aig.as_path()),
            Err(e) => {
                r.problems.push(format!("no bit-level AIGER model: {e}"));
                None
            }
        };
        for engine in ENGINES {
            self.warden(&mut r, engine, engine, model, format, bit_level, dir, &[]);
        }
        if let (Format::Btor2 { .. }, Some(aig)) = (format, bit_level) {
            let blasted = Format::Aiger;
            self.warden(
                &mut r,
                "warden-blast",
                "portfolio",
                aig,
                blasted,
                Some(aig),
                dir,
                &[],
            );
            // The model blasted without the word-level simplification: the verdicts of the
            // two paths are compared, and its certificates checked on its own blasting.
            const WORDS_OFF: [&str; 2] = ["--wl-simplify", "false"];
            let plain = dir.join("model-plain.aig");
            match abc::blast_with(&self.warden, model, &plain, &WORDS_OFF) {
                Ok(()) => self.warden(
                    &mut r,
                    "warden-no-wl-simplify",
                    "portfolio",
                    model,
                    format,
                    Some(&plain),
                    dir,
                    &WORDS_OFF,
                ),
                Err(e) => (r.problems).push(format!("no AIGER model without wl-simplify: {e}")),
            }
        }
        let plain_aig = dir.join("plain.aig");
        let for_abc = match equivalent {
            Some(plain) => match abc::convert_to_binary(plain, &plain_aig) {
                // warden reads the binary form: its certificate names the literals of the
                // circuit certcheck reads (the text numbers the new latch after the gates).
                Ok(()) => {
                    let bin = plain_aig.as_path();
                    self.warden(
                        &mut r,
                        "warden-plain",
                        "portfolio",
                        bin,
                        format,
                        Some(bin),
                        dir,
                        &[],
                    );
                    Some(bin)
                }
                Err(e) => {
                    r.problems
                        .push(format!("no binary equivalent circuit: {e}"));
                    None
                }
            },
            None => bit_level,
        };
        if let (Some(bin), Some(aig)) = (&self.abc, for_abc) {
            for cmd in [AbcCmd::Pdr, AbcCmd::Bmc3] {
                let v = self.abc(bin, cmd, aig);
                r.answers.push((cmd.tool_name().to_owned(), v));
            }
        }
        let said = |v: Verdict| r.answers.iter().any(|(_, a)| *a == v);
        if said(Verdict::Sat) && said(Verdict::Unsat) {
            let all: Vec<String> = (r.answers.iter())
                .map(|(t, v)| format!("{t}={}", v.as_str()))
                .collect();
            r.problems.push(format!("disagreement: {}", all.join(" ")));
        }
        r
    }

    /// One `warden check` run and the checks of its answer.
    #[allow(clippy::too_many_arguments)]
    fn warden(
        &self,
        r: &mut Report,
        tool: &str,
        engine: &str,
        model: &Path,
        format: Format,
        bit_level: Option<&Path>,
        dir: &Path,
        flags: &[&str],
    ) {
        let (witness, cert) = (dir.join("witness.txt"), dir.join("cert.aig"));
        let _ = (std::fs::remove_file(&witness), std::fs::remove_file(&cert));
        let mut cmd = Command::new("timeout");
        cmd.arg((self.timeout_s + 10).to_string())
            .arg(&self.warden)
            .arg("check")
            .arg(model)
            .args(["--engine", engine])
            .args(["--timeout", &self.timeout_s.to_string()]);
        // IC3 and localization have no bound: warden rejects `--max-depth` for them.
        if BOUNDED_ENGINES.contains(&engine) {
            cmd.args(["--max-depth", &self.max_depth.to_string()]);
        }
        cmd.arg("--witness").arg(&witness).arg("--cert").arg(&cert);
        cmd.args(flags);
        let out = match cmd.output() {
            Ok(o) => o,
            Err(e) => {
                r.problems.push(format!("{tool}: cannot run warden: {e}"));
                return;
            }
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        let verdict = Verdict::parse(stdout.lines().next().unwrap_or(""));
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let first = err.lines().next().unwrap_or("").trim().to_owned();
            r.problems
                .push(format!("{tool}: exit {:?}: {first}", out.status.code()));
            return;
        }
        r.answers.push((tool.to_owned(), verdict));
        match verdict {
            Verdict::Sat => self.check_witness(r, tool, model, format, &witness),
            Verdict::Unsat => match bit_level {
                Some(aig) => match self.checkers.certcheck(aig, &cert, dir) {
                    Check::Accepted => r.certcheck_ok += 1,
                    Check::Rejected(e) | Check::Failed(e) => r
                        .problems
                        .push(format!("{tool}: certificate not accepted: {e}")),
                },
                None => (r.problems).push(format!("{tool}: unsat, certificate not checkable")),
            },
            Verdict::Unknown => {}
        }
    }

    fn check_witness(
        &self,
        r: &mut Report,
        tool: &str,
        model: &Path,
        format: Format,
        witness: &Path,
    ) {
        let sim = Command::new(&self.warden)
            .arg("sim")
            .arg(model)
            .arg(witness)
            .output();
        match sim {
            Ok(o) if o.status.success() => r.sim_ok += 1,
            _ => r
                .problems
                .push(format!("{tool}: witness rejected by warden sim")),
        }
        let independent = match format {
            Format::Aiger => self.checkers.aigsim(model, witness),
            Format::Btor2 { btorsim: true } => self.checkers.btorsim(model, witness),
            Format::Btor2 { btorsim: false } => {
                r.btorsim_skipped += 1;
                return;
            }
        };
        match (independent, format) {
            (Check::Accepted, Format::Aiger) => r.aigsim_ok += 1,
            (Check::Accepted, _) => r.btorsim_ok += 1,
            (Check::Rejected(e) | Check::Failed(e), _) => r
                .problems
                .push(format!("{tool}: witness not accepted: {e}")),
        }
    }

    /// ABC's verdict on the binary AIGER file `aig` (run in its directory: ABC splits its
    /// script at spaces).
    fn abc(&self, bin: &Path, cmd: AbcCmd, aig: &Path) -> Verdict {
        let (dir, file) = (aig.parent().unwrap_or(Path::new(".")), aig.file_name());
        // The tester names its circuits itself: a name ABC cannot take is never made.
        let Ok(script) = cmd.script(
            Path::new(file.unwrap_or_default()),
            self.timeout_s,
            Some(self.max_depth),
        ) else {
            return Verdict::Unknown;
        };
        let out = Command::new("timeout")
            .arg((self.timeout_s + 10).to_string())
            .arg(bin)
            .arg("-c")
            .arg(script)
            .current_dir(dir)
            .output();
        match out {
            Ok(o) => abc::parse_verdict(&String::from_utf8_lossy(&o.stdout)),
            Err(_) => Verdict::Unknown,
        }
    }
}
