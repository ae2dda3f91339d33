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
        _ => checkers.certcheck(model, cert, dir),
    };
    Some((tool, outcome))
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
