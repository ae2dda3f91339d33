//! The text of a CFA condition ([`Automaton`]), so that a run that ends `unknown`
//! (`--condition-out`) hands what it verified to a later run (`--condition-in`). The engine
//! builds the automaton; its file form is here, beside the circuit conditions' whose header
//! check and system line it shares.
//!
//! ```text
//! warden-cfa-condition 1
//! system 8f3a... latches 40 inputs 7
//! shape 12 15 64
//! and 130 2 5
//! start to 0
//! state 130 7
//! move 0 3 to 1 2
//! move 0 4 open
//! verified 5 9
//! ```
//! The `system` line names the program's encoded transition system (as a circuit condition's
//! does, [`super`]); `shape` gives the CFA's locations and edges and the number of
//! variable bits `B`. The labels are one AIG: variables `1..=B` stand for the program
//! variables' bits in order, each `and` line defines the next variable as the conjunction of
//! two literals (AIGER's `2 * var + negated`) of earlier ones. `start` and each `move`
//! (state, CFA edge) say where the paths go: `safe`, `open`, or `to` automaton states; a
//! `state` line is the next state's label (a conjunction of literals); `verified` lines give
//! a location and a verified node's label. A file is input: every index is checked, and a
//! condition of another program is refused with its line.

use std::fmt::Write as _;
use std::path::Path;

use super::{body, line_error, system_line};
use crate::aig::{self, Aig};
use crate::cfa::Loc;
use crate::engine::cfa_cegar::condition::{Automaton, State, Step};
use crate::front::InputError;
use crate::ts::TransitionSystem;

/// The first line of a CFA condition file: the format and its version.
pub const HEADER: &str = "warden-cfa-condition 1";

/// What a line after the shape may start with.
const KEYWORDS: &str = "expected `and`, `start`, `state`, `move` or `verified`";

/// The literals as text, space first.
fn lits(out: &mut String, lits: &[aig::Lit]) {
    for l in lits {
        let _ = write!(out, " {}", l.0);
    }
}

/// A step's words after its keyword's line head.
fn step_text(out: &mut String, step: &Step) {
    match step {
        Step::Safe => out.push_str(" safe"),
        Step::Open => out.push_str(" open"),
        Step::To(set) => {
            out.push_str(" to");
            for q in set {
                let _ = write!(out, " {q}");
            }
        }
    }
}

impl Automaton {
    /// The condition as a file's text, for the encoded system `ts` of its program.
    pub fn text(&self, ts: &TransitionSystem) -> String {
        let mut out = format!("{HEADER}\n{}\n", system_line(ts));
        let (locations, edges) = self.shape;
        let _ = writeln!(out, "shape {locations} {edges} {}", self.leaves.len());
        for v in self.leaves.len() + 1..self.aig.num_vars() {
            if let aig::Node::And(a, b) = self.aig.node(aig::Var(v as u32)) {
                let _ = writeln!(out, "and {} {}", a.0, b.0);
            }
        }
        out.push_str("start");
        step_text(&mut out, &self.start);
        out.push('\n');
        for state in &self.states {
            out.push_str("state");
            lits(&mut out, &state.label);
            out.push('\n');
        }
        for (q, state) in self.states.iter().enumerate() {
            for (e, target) in &state.moves {
                let _ = write!(out, "move {q} {e}");
                step_text(&mut out, target);
                out.push('\n');
            }
        }
        for (loc, label) in &self.verified {
            let _ = write!(out, "verified {}", loc.index());
            lits(&mut out, label);
            out.push('\n');
        }
        out
    }

    /// Reads the condition in `text` (the file `path`), which must speak of the program
    /// whose encoded system is `ts`.
    pub fn parse(text: &str, path: &Path, ts: &TransitionSystem) -> Result<Automaton, InputError> {
        let error = |line: usize, message: String| line_error(path, line, message);
        let mut lines = body(text, path, HEADER, ts)?;
        let (n, line) = lines
            .next()
            .ok_or_else(|| error(3, "expected `shape L E B` after the system line".into()))?;
        let shape: Vec<usize> = (line.strip_prefix("shape "))
            .map(|r| {
                r.split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect()
            })
            .unwrap_or_default();
        let [locations, edges, bits] = shape[..] else {
            return Err(error(n, format!("expected `shape L E B`, found `{line}`")));
        };
        let mut aig = Aig::new();
        let leaves: Vec<aig::Lit> = (0..bits).map(|_| aig.new_leaf().lit()).collect();
        // The file's variables' literals in the rebuilt graph (the constant and the leaves
        // are the same; an `and` may fold).
        let mut image: Vec<aig::Lit> = std::iter::once(aig::Lit::FALSE)
            .chain(leaves.iter().copied())
            .collect();
        let mut automaton = Automaton {
            shape: (locations, edges),
            aig: Aig::new(),
            leaves: leaves.clone(),
            states: Vec::new(),
            start: Step::Open,
            verified: Vec::new(),
        };
        let mut started = false;
        let mut moves: Vec<(usize, usize, usize, Step)> = Vec::new();
        for (n, line) in lines {
            let mut words = line.split_whitespace();
            let keyword = words.next().unwrap_or("");
            let numbers: Result<Vec<usize>, _> = words.clone().map(str::parse::<usize>).collect();
            let lit = |x: usize| match image.get(x / 2) {
                Some(l) => Ok(l.xor_sign(x % 2 == 1)),
                None => Err(error(n, format!("literal {x} names an undefined variable"))),
            };
            match keyword {
                "and" => {
                    let Ok(&[a, b]) = numbers.as_deref() else {
                        return Err(error(n, format!("expected `and A B`, found `{line}`")));
                    };
                    let (a, b) = (lit(a)?, lit(b)?);
                    image.push(aig.and(a, b));
                }
                "start" | "move" => {
                    let rest: Vec<&str> = words.collect();
                    let (head, step) = match keyword {
                        "start" => (&[][..], &rest[..]),
                        _ if rest.len() >= 3 => rest.split_at(2),
                        _ => {
                            return Err(error(
                                n,
                                format!("expected `move Q E STEP`, found `{line}`"),
                            ))
                        }
                    };
                    let step = parse_step(step).ok_or_else(|| {
                        error(
                            n,
                            format!("expected `safe`, `open` or `to Q...`, found `{line}`"),
                        )
                    })?;
                    match (keyword, head) {
                        ("start", _) if !started => {
                            automaton.start = step;
                            started = true;
                        }
                        ("start", _) => return Err(error(n, "a second `start` line".into())),
                        (_, [q, e]) => {
                            let (Ok(q), Ok(e)) = (q.parse::<usize>(), e.parse::<usize>()) else {
                                return Err(error(
                                    n,
                                    format!("expected `move Q E STEP`, found `{line}`"),
                                ));
                            };
                            if e >= edges {
                                return Err(error(
                                    n,
                                    format!("edge {e} of a CFA with {edges} edges"),
                                ));
                            }
                            if step == Step::Safe {
                                let why = "a move is `open` or `to Q...` (a safe edge has none)";
                                return Err(error(n, why.into()));
                            }
                            moves.push((n, q, e, step));
                        }
                        _ => unreachable!("a move has two head words"),
                    }
                }
                "state" | "verified" => {
                    let Ok(numbers) = numbers else {
                        return Err(error(
                            n,
                            format!("expected `{keyword}` and numbers, found `{line}`"),
                        ));
                    };
                    let (loc, label) = match keyword {
                        "verified" => match numbers.split_first() {
                            Some((&l, rest)) if l < locations => (Some(l), rest),
                            _ => return Err(error(n, format!("expected `verified LOC LIT...` with a location below {locations}, found `{line}`"))),
                        },
                        _ => (None, &numbers[..]),
                    };
                    let label = label
                        .iter()
                        .map(|&x| lit(x))
                        .collect::<Result<Vec<_>, _>>()?;
                    match loc {
                        Some(l) => automaton.verified.push((Loc(l as u32), label)),
                        None => automaton.states.push(State {
                            label,
                            moves: Vec::new(),
                        }),
                    }
                }
                _ => return Err(error(n, format!("{KEYWORDS}, found `{line}`"))),
            }
        }
        let count = automaton.states.len();
        let in_range = |set: &[u32]| set.iter().all(|&q| (q as usize) < count);
        if let Step::To(set) = &automaton.start {
            if !in_range(set) {
                return Err(error(
                    4,
                    format!("`start` names a state beyond the {count} states"),
                ));
            }
        }
        for (n, q, e, target) in moves {
            let bad = q >= count || matches!(&target, Step::To(set) if !in_range(set));
            if bad {
                return Err(error(
                    n,
                    format!("a move names a state beyond the {count} states"),
                ));
            }
            automaton.states[q].moves.push((e, target));
        }
        for state in &mut automaton.states {
            state.moves.sort_by_key(|(e, _)| *e);
            state.moves.dedup_by_key(|(e, _)| *e);
        }
        automaton.aig = aig;
        Ok(automaton)
    }
}

/// A step's words: `safe`, `open`, or `to` and sorted distinct state ids.
fn parse_step(words: &[&str]) -> Option<Step> {
    match words {
        ["safe"] => Some(Step::Safe),
        ["open"] => Some(Step::Open),
        ["to", ids @ ..] if !ids.is_empty() => {
            let mut set: Vec<u32> = ids.iter().map(|w| w.parse().ok()).collect::<Option<_>>()?;
            set.sort_unstable();
            set.dedup();
            Some(Step::To(set))
        }
        _ => None,
    }
}
