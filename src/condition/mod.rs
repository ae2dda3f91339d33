//! Conditions (seed 003, conditional model checking): what a run that ends `unknown` did
//! verify, written down (`--condition-out`) so that a later run (`--condition-in`) checks
//! only what is left open.
//!
//! A condition speaks of the bit-level transition system a model is loaded into (an AIGER
//! file as read; BTOR2 models and C programs as blasted, which is deterministic), named by a
//! fingerprint of that system, and says two things:
//! - **depth `d`**: no counterexample has `d` transitions or fewer (BMC or k-induction's
//!   base case showed frames `0..=d` clean). A run given it starts BMC and the base case at
//!   frame `d + 1` and never asks the frames below again. The depth is trusted: a wrong one
//!   can hide a short counterexample, but it cannot make an answer wrong (a `sat` is
//!   replayed, and an `unsat` is an invariant checked on the system, where the k-copy
//!   invariant of k-induction re-proves its short windows).
//! - **lemmas**: clauses over the latches proved to hold in every reachable state (the lemma
//!   pool IC3 and k-induction's invariant generator fill, [`crate::engine::lemmas`]). A
//!   condition file is input, so a run given lemmas checks them again with Houdini (a few
//!   SAT queries, against the many it took to find them) and gives those that hold to its
//!   engines as proved lemmas: IC3's F_inf, k-induction's step case.
//!
//! The file is text, one item per line (`#` starts a comment):
//! ```text
//! warden-condition 1
//! system 8f3a... latches 12 inputs 3
//! depth 17
//! lemma 0 ~4 7
//! ```
//! A lemma's literals are latch indices in the system's order (an AIGER file's latch order),
//! `~` for a negated latch.
//!
//! Layer: conditions; import [`crate::engine`] (the lemma pool, the CFA automaton whose file form
//! [`cfa`] holds), [`crate::front`], [`crate::prep`] and below; [`crate::check`] and the command
//! line use them.

mod cfa;

use std::fmt::Write as _;
use std::path::Path;

use crate::engine::lemmas::LemmaPool;
use crate::front::InputError;
use crate::prep::houdini::houdini;
use crate::ts::{LatchClause, Restore, TransitionSystem};
use crate::Budget;

/// The first line of a condition file: the format and its version.
const HEADER: &str = "warden-condition 1";

/// What a run verified about a system without deciding it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Condition {
    /// No counterexample of this many transitions or fewer (`None`: not even frame 0).
    pub depth: Option<usize>,
    /// Clauses over the system's latches (index, negated) true in every reachable state.
    pub lemmas: Vec<LatchClause>,
}

impl Condition {
    /// The condition as a file's text, for the system `ts` it speaks of.
    pub fn text(&self, ts: &TransitionSystem) -> String {
        let mut out = format!("{HEADER}\n{}\n", system_line(ts));
        if let Some(d) = self.depth {
            let _ = writeln!(out, "depth {d}");
        }
        for clause in &self.lemmas {
            out.push_str("lemma");
            for &(i, negated) in clause {
                let _ = write!(out, " {}{i}", if negated { "~" } else { "" });
            }
            out.push('\n');
        }
        out
    }

    /// Reads the condition in `text` (the file `path`), which must speak of `ts`.
    pub fn parse(text: &str, path: &Path, ts: &TransitionSystem) -> Result<Condition, InputError> {
        let error = |line: usize, message: String| line_error(path, line, message);
        let lines = body(text, path, HEADER, ts)?;
        let mut condition = Condition::default();
        for (n, line) in lines {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("depth") if condition.depth.is_none() => {
                    let d = words
                        .next()
                        .and_then(|w| w.parse().ok())
                        .filter(|_| words.next().is_none());
                    let d =
                        d.ok_or_else(|| error(n, format!("expected `depth N`, found `{line}`")))?;
                    condition.depth = Some(d);
                }
                Some("depth") => return Err(error(n, "a second `depth` line".into())),
                Some("lemma") => {
                    let clause = words
                        .map(|w| latch_literal(w, ts.latches.len()))
                        .collect::<Result<LatchClause, String>>()
                        .map_err(|why| error(n, why))?;
                    if clause.is_empty() {
                        return Err(error(n, "a lemma without literals".into()));
                    }
                    condition.lemmas.push(clause);
                }
                _ => {
                    return Err(error(
                        n,
                        format!("expected `depth N` or `lemma L...`, found `{line}`"),
                    ))
                }
            }
        }
        Ok(condition)
    }

    /// Makes this condition, about the system `restore` reduced to `reduced`, what a run
    /// on `reduced` knows: the lemmas that hold there (Houdini's largest inductive subset of
    /// them, under the constraints) go to `pool`; the depth is read by the engines that
    /// unroll from the initial states ([`crate::check::Options::condition`]). Returns how
    /// many lemmas were kept (none if `budget` stopped Houdini).
    pub fn assume(
        &self,
        reduced: &TransitionSystem,
        restore: &Restore,
        pool: &LemmaPool,
        budget: &Budget,
    ) -> usize {
        let lowered: Vec<_> = (self.lemmas.iter())
            .filter_map(|c| restore.lower_clause(reduced, c))
            .collect();
        let offered = lowered.len();
        let kept = match offered {
            0 => Vec::new(),
            _ => houdini(reduced, lowered, budget),
        };
        crate::log::info(
            1,
            format_args!(
                "condition: {} of {} lemmas proved again ({} hold or say nothing there after preprocessing){}",
                kept.len(),
                offered,
                self.lemmas.len() - offered,
                match self.depth {
                    Some(d) => format!("; depths 0..={d} assumed clean"),
                    None => String::new(),
                }
            ),
        );
        let n = kept.len();
        pool.publish(kept);
        n
    }

    /// This condition and `other`, both about the same system: the deeper bound, and the
    /// lemmas of both (each once).
    pub fn join(mut self, other: Condition) -> Condition {
        self.depth = self.depth.max(other.depth);
        self.lemmas.extend(other.lemmas);
        for c in &mut self.lemmas {
            c.sort_unstable();
            c.dedup();
        }
        self.lemmas.sort_unstable();
        self.lemmas.dedup();
        self
    }
}

/// The error at line `line` of the condition file `path`.
fn line_error(path: &Path, line: usize, message: String) -> InputError {
    InputError {
        path: path.to_path_buf(),
        position: Some(format!("line {line}")),
        message,
        unsupported: false,
    }
}

/// The lines of the condition file `path` (numbered; comments and blank lines dropped)
/// after its `header` and its system line, which must name `ts`.
fn body<'t>(
    text: &'t str,
    path: &Path,
    header: &str,
    ts: &TransitionSystem,
) -> Result<impl Iterator<Item = (usize, &'t str)>, InputError> {
    let error = |line: usize, message: String| line_error(path, line, message);
    let mut lines = (text.lines().enumerate())
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    match lines.next() {
        Some((_, l)) if l == header => {}
        Some((n, l)) => return Err(error(n, format!("expected `{header}`, found `{l}`"))),
        None => {
            return Err(error(
                1,
                format!("expected `{header}`, found an empty file"),
            ))
        }
    }
    let expected_system = system_line(ts);
    match lines.next() {
        Some((_, l)) if l == expected_system => {}
        Some((n, l)) if l.starts_with("system ") => {
            return Err(error(
                n,
                format!(
                    "the condition speaks of another system (`{l}`; this model is \
                     `{expected_system}`)"
                ),
            ))
        }
        Some((n, l)) => return Err(error(n, format!("expected `system ...`, found `{l}`"))),
        None => return Err(error(2, "expected `system ...` after the header".into())),
    }
    Ok(lines)
}

/// The line naming the system a condition speaks of.
fn system_line(ts: &TransitionSystem) -> String {
    let (latches, inputs) = (ts.latches.len(), ts.inputs.len());
    format!(
        "system {:016x} latches {latches} inputs {inputs}",
        fingerprint(ts)
    )
}

/// `word` as a latch literal: a latch index below `latches`, `~` first when negated.
fn latch_literal(word: &str, latches: usize) -> Result<(usize, bool), String> {
    let (negated, index) = match word.strip_prefix('~') {
        Some(rest) => (true, rest),
        None => (false, word),
    };
    match index.parse::<usize>() {
        Ok(i) if i < latches => Ok((i, negated)),
        Ok(i) => Err(format!(
            "latch {i} does not exist (the system has {latches})"
        )),
        Err(_) => Err(format!(
            "expected a latch literal (an index, `~` for a negated one), found `{word}`"
        )),
    }
}

/// A 64-bit FNV-1a hash of the system's binary AIGER form (canonically numbered, with its
/// properties, constraints and names): two loads of one model agree, and a condition is not
/// applied to a system it does not speak of.
pub fn fingerprint(ts: &TransitionSystem) -> u64 {
    let aiger = crate::front::aiger::from_transition_system(ts, &[]);
    let mut bytes = Vec::new();
    crate::front::aiger::write_binary(&aiger, &mut bytes)
        .expect("a transition system is a valid circuit");
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;

    #[test]
    fn a_condition_reads_back_as_written() {
        let ts = counter(4, 9, false);
        let c = Condition {
            depth: Some(6),
            lemmas: vec![vec![(0, false), (3, true)], vec![(2, true)]],
        };
        let text = c.text(&ts);
        assert_eq!(Condition::parse(&text, Path::new("c"), &ts).unwrap(), c);
    }

    #[test]
    fn a_condition_of_another_system_or_malformed_is_an_error_with_its_line() {
        let ts = counter(4, 9, false);
        let text = Condition::default().text(&counter(4, 10, false));
        let e = Condition::parse(&text, Path::new("c"), &ts).unwrap_err();
        assert_eq!(e.position.as_deref(), Some("line 2"));
        assert!(e.message.contains("another system"), "{e}");
        let good = Condition::default().text(&ts);
        for (bad, line, what) in [
            ("lemma 0 ~9\n", 3, "latch 9 does not exist"),
            ("# note\ndepth x\n", 4, "expected `depth N`"),
            ("lemma\n", 3, "without literals"),
            ("frame 3\n", 3, "expected `depth N` or `lemma"),
        ] {
            let e = Condition::parse(&(good.clone() + bad), Path::new("c"), &ts).unwrap_err();
            assert_eq!(e.position, Some(format!("line {line}")), "{bad}");
            assert!(e.message.contains(what), "{bad}: {e}");
        }
        let e = Condition::parse("hello\n", Path::new("c"), &ts).unwrap_err();
        assert!(e.message.contains(HEADER), "{e}");
    }

    #[test]
    fn joining_keeps_the_deeper_bound_and_each_lemma_once() {
        let a = Condition {
            depth: Some(3),
            lemmas: vec![vec![(1, false), (0, true)]],
        };
        let b = Condition {
            depth: None,
            lemmas: vec![vec![(0, true), (1, false)], vec![(2, false)]],
        };
        let j = a.join(b);
        assert_eq!(j.depth, Some(3));
        assert_eq!(
            j.lemmas,
            vec![vec![(0, true), (1, false)], vec![(2, false)]]
        );
    }
}
