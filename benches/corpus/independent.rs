//! The corpus runner's independent checks of warden's answers: a `sat` witness replayed by
//! aigsim (AIGER) or btorsim (BTOR2), an `unsat` certificate (`warden check --cert`) checked
//! by Certifaiger's `certcheck` against the model (AIGER, re-encoded by aigtoaig) or against
//! `warden blast` of it (BTOR2, whose certificates are circuits over the blasted system).
//! C programs have no independent checker. A rejected witness or certificate makes the
//! answer wrong; a checker that fails to answer (timeout, tool error) leaves it unchecked.

use std::path::Path;

use crate::checkers::{Check, Checkers};
use crate::Verdict;

/// The checker that applies to an answer of `verdict` on a model of `format`, if any.
pub fn checker_for(format: &str, verdict: Verdict) -> Option<&'static str> {
    match (format, verdict) {
        ("aag" | "aig", Verdict::Sat) => Some("aigsim"),
        ("btor" | "btor2", Verdict::Sat) => Some("btorsim"),
        ("aag" | "aig" | "btor" | "btor2", Verdict::Unsat) => Some("certcheck"),
        _ => None,
    }
}

/// Whether `warden check` should write a certificate for a model of `format`.
pub fn wants_certificate(format: &str) -> bool {
    checker_for(format, Verdict::Unsat).is_some()
}

/// The aigtoaig encoding of an AIGER model in the scratch directory: written once by the
/// readability check, and the model warden runs on again for an ASCII model's certificate.
const REENCODED: &str = "reencoded.aig";

/// Checks warden's answer `verdict` on `model`: (checker, what it said), or `None` where no
/// checker applies. `witness` and `cert` are the files warden wrote; `dir` is scratch space.
pub fn check(
    checkers: &Checkers,
    warden: &Path,
    model: &Path,
    format: &str,
    verdict: Verdict,
    files: (&Path, &Path),
    dir: &Path,
) -> Option<(&'static str, Check)> {
    let (witness, cert) = files;
    let tool = checker_for(format, verdict)?;
    // A model the reference parser cannot read (e.g. an ASCII file without its last newline,
    // which warden accepts) leaves the answer unchecked, not rejected.
    if format.starts_with("a") {
        if let Err(e) = checkers.reencode(model, &dir.join(REENCODED)) {
            return Some((
                tool,
                Check::Failed(format!("the checker cannot read the model: {e}")),
            ));
        }
    }
    let outcome = match tool {
        "aigsim" => checkers.aigsim(model, witness),
        "btorsim" => checkers.btorsim(model, witness),
        _ if !cert.is_file() => Check::Rejected("warden wrote no certificate".to_owned()),
        _ if format.starts_with("btor") => {
            let blasted = dir.join("blasted.aig");
            match crate::abc::blast(warden, model, &blasted) {
                Ok(()) => checkers.certcheck(&blasted, cert, dir),
                Err(e) => Check::Failed(format!("warden blast: {e}")),
            }
        }
        _ if format == "aag" => certcheck_reencoded(checkers, warden, &dir.join(REENCODED), dir),
        _ => checkers.certcheck(model, cert, dir),
    };
    Some((tool, outcome))
}

/// Certifaiger reads re-encoded models only, and a certificate names the literals of the
/// model warden read, which an ASCII file need not number the re-encoded way: warden is run
/// again (untimed) on the aigtoaig encoding, and that certificate is checked. Any other
/// answer than `unsat` there is a rejection (`sat`) or leaves the answer unchecked.
fn certcheck_reencoded(checkers: &Checkers, warden: &Path, encoded: &Path, dir: &Path) -> Check {
    let cert = dir.join("reencoded-cert.aig");
    let run = std::process::Command::new(warden)
        .arg("check")
        .arg(encoded)
        .args(["--timeout", "60", "--cert"])
        .arg(&cert)
        .output();
    let out = match run {
        Ok(o) => String::from_utf8_lossy(&o.stdout).into_owned(),
        Err(e) => return Check::Failed(format!("cannot run warden: {e}")),
    };
    match out.lines().next().unwrap_or("") {
        "unsat" => checkers.certcheck(encoded, &cert, dir),
        "sat" => Check::Rejected("the re-encoded model is sat".to_owned()),
        other => Check::Failed(format!("warden on the re-encoded model: {other:?}")),
    }
}

/// Per checker: answers checked, accepted, rejected, and left unchecked (checker failed).
#[derive(Default)]
pub struct Tally {
    counts: Vec<(&'static str, [usize; 4])>,
}

impl Tally {
    pub fn add(&mut self, tool: &'static str, check: &Check) {
        let i = match self.counts.iter().position(|(t, _)| *t == tool) {
            Some(i) => i,
            None => {
                self.counts.push((tool, [0; 4]));
                self.counts.len() - 1
            }
        };
        let c = &mut self.counts[i].1;
        c[0] += 1;
        match check {
            Check::Accepted => c[1] += 1,
            Check::Rejected(_) => c[2] += 1,
            Check::Failed(_) => c[3] += 1,
        }
    }

    /// `aigsim 12/12 accepted, ...`, or `none` when nothing was checked.
    pub fn line(&self) -> String {
        if self.counts.is_empty() {
            return "none".to_owned();
        }
        let cells: Vec<String> = (self.counts.iter())
            .map(|(t, [n, ok, bad, failed])| {
                format!("{t} {n} checked: {ok} accepted, {bad} rejected, {failed} unchecked")
            })
            .collect();
        cells.join("; ")
    }
}
