//! The AIGER 1.9 witness format (as printed by aigbmc and checked by aigsim):
//!
//! ```text
//! 1            a counterexample follows
//! b<i>         the violated bad property (0-based), or j<i>: a justice property with a
//!              lasso (the state after the last input line equals an earlier one)
//! <latches>    initial value of every latch, one character each
//! <inputs>     one line per frame, one character per input
//! .
//! ```
//!
//! A witness speaks of the file's latches: a system read from a file with reset functions has
//! one more latch, the first-frame latch of the lowering ([`crate::front::aiger::to_transition_system`]),
//! which the witness leaves out and which starts at 1. So the functions take `latches`, the
//! number of the file's latches (the first ones of the system).

use std::fmt::Write as _;

use super::{LineProblem, WitnessError};
use crate::ts::{Trace, TransitionSystem};

/// The witness text of `trace` (which must be a trace of the original, unreduced system) for
/// the file of `latches` latches.
pub fn write(trace: &Trace, latches: usize) -> String {
    write_as(trace, latches, 'b')
}

/// The witness text of a lasso of justice property `trace.bad` ([`crate::live::Lasso`]):
/// property line `j<i>`, and the state after the last input line equals the state of the
/// loop start, which is how AIGER 1.9 witnesses (and aigsim) mark the loop.
pub fn write_justice(trace: &Trace, latches: usize) -> String {
    write_as(trace, latches, 'j')
}

/// The witness of `trace` with the property line `<kind><trace.bad>`.
fn write_as(trace: &Trace, latches: usize, kind: char) -> String {
    let bits = |v: &[bool]| {
        v.iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect::<String>()
    };
    let mut s = String::new();
    let _ = writeln!(s, "1\n{kind}{}", trace.bad);
    let _ = writeln!(s, "{}", bits(&trace.init[..latches]));
    for row in &trace.inputs {
        let _ = writeln!(s, "{}", bits(row));
    }
    s.push_str(".\n");
    s
}

/// A witness read from a file, before it is checked.
#[derive(Clone, Debug)]
pub struct Witness {
    /// The bad properties it claims to reach.
    pub bad: Vec<usize>,
    /// The justice properties it claims a lasso of ([`crate::live::lasso`]).
    pub justice: Vec<usize>,
    pub trace: Trace,
}

/// Parses a witness for `ts`, read from a file of `latches` latches (the system's latches
/// after them start at their reset value). `x` values are grounded: latches with a reset
/// value take it, everything else takes 0 (the AIGER convention that `x` must be valid when
/// grounded to 0; a latch with a reset function then fails the replay unless its reset is 0).
pub fn parse(text: &str, ts: &TransitionSystem, latches: usize) -> Result<Witness, WitnessError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.starts_with('c'));
    let mut next = |what: &'static str| lines.next().ok_or(WitnessError::Truncated(what));
    let (n, status) = next("the status line")?;
    match status {
        "1" => {}
        "0" | "2" => return Err(LineProblem::NoCounterexample(status.to_owned()).at(n)),
        s => return Err(LineProblem::Status(s.to_owned()).at(n)),
    }
    let (n, props) = next("the property line")?;
    let (mut bad, mut justice) = (Vec::new(), Vec::new());
    for p in props.split_whitespace() {
        let (kind, index) = p
            .split_at_checked(1)
            .and_then(|(k, i)| Some((k, i.parse::<usize>().ok()?)))
            .ok_or_else(|| LineProblem::Property(p.to_owned()).at(n))?;
        match kind {
            "b" if index < ts.bad.len() => bad.push(index),
            "b" => {
                let count = ts.bad.len();
                return Err(LineProblem::NoProperty { index, count }.at(n));
            }
            "j" if index < ts.justice.len() => justice.push(index),
            "j" => {
                let count = ts.justice.len();
                return Err(LineProblem::NoJustice { index, count }.at(n));
            }
            _ => return Err(LineProblem::Property(p.to_owned()).at(n)),
        }
    }
    let Some(&first) = bad.first().or(justice.first()) else {
        return Err(LineProblem::NoPropertyNamed.at(n));
    };
    let (n, init_line) = next("the initial state line")?;
    let init = values(n, init_line, latches, "latch")?
        .into_iter()
        .chain(std::iter::repeat(None))
        .zip(&ts.latches)
        .map(|(v, l)| v.or(l.init).unwrap_or(false))
        .collect();
    let mut inputs = Vec::new();
    loop {
        let (n, line) = next("the final '.'")?;
        if line == "." {
            break;
        }
        let row = values(n, line, ts.inputs.len(), "input")?;
        inputs.push(row.into_iter().map(|v| v.unwrap_or(false)).collect());
    }
    Ok(Witness {
        trace: Trace {
            init,
            inputs,
            bad: first,
        },
        bad,
        justice,
    })
}

fn values(
    n: usize,
    line: &str,
    len: usize,
    what: &'static str,
) -> Result<Vec<Option<bool>>, WitnessError> {
    if line.len() != len {
        return Err(LineProblem::Length {
            expected: len,
            what,
            found: line.len(),
        }
        .at(n));
    }
    line.chars()
        .map(|c| match c {
            '0' => Ok(Some(false)),
            '1' => Ok(Some(true)),
            'x' | 'X' => Ok(None),
            c => Err(LineProblem::Bit(c).at(n)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;

    #[test]
    fn write_then_parse_round_trips() {
        let ts = counter(2, 3, true);
        let t = Trace {
            init: vec![false, false],
            inputs: vec![vec![true], vec![true], vec![false], vec![true]],
            bad: 0,
        };
        let text = write(&t, 2);
        assert_eq!(text, "1\nb0\n00\n1\n1\n0\n1\n.\n");
        let w = parse(&text, &ts, 2).unwrap();
        assert_eq!(w.trace, t);
        assert_eq!(w.bad, vec![0]);
    }

    #[test]
    fn malformed_witnesses_name_the_line() {
        let ts = counter(2, 3, true);
        let err = |text: &str| parse(text, &ts, 2).unwrap_err();
        let short = err("1\nb0\n0\n1\n.\n");
        let length = LineProblem::Length {
            expected: 2,
            what: "latch",
            found: 1,
        };
        assert_eq!(short, length.at(3));
        assert_eq!(
            short.to_string(),
            "line 3: expected 2 latch values, found 1"
        );
        let missing = LineProblem::NoProperty {
            index: 7,
            count: ts.bad.len(),
        };
        assert_eq!(err("1\nb7\n00\n.\n"), missing.at(2));
        assert_eq!(
            err("1\nb0\n00\n1\n"),
            WitnessError::Truncated("the final '.'")
        );
        assert_eq!(err("1\nb0\n00\n2\n.\n"), LineProblem::Bit('2').at(4));
        let no_justice = LineProblem::NoJustice { index: 0, count: 0 };
        assert_eq!(err("1\nj0\n00\n1\n.\n"), no_justice.at(2));
        assert_eq!(
            err("1\nx0\n00\n.\n"),
            LineProblem::Property("x0".into()).at(2)
        );
    }

    #[test]
    fn x_values_are_grounded_to_the_reset_value() {
        let mut ts = counter(2, 3, true);
        ts.latches[1].init = Some(true);
        let w = parse("c comment\n1\nb0\nxx\nx\n.\n", &ts, 2).unwrap();
        assert_eq!(w.trace.init, vec![false, true]);
        assert_eq!(w.trace.inputs, vec![vec![false]]);
    }
}
