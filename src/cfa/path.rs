//! Error paths of programs: a counterexample of the encoded model turned into the sequence of
//! nondet values it draws, confirmed by replaying that sequence alone in the interpreter, and
//! printed as source lines.

use super::interp::{self, Queues, Step, TraceInputs};
use super::Cfa;
use crate::wl::{self, BitVec, Value};

/// A confirmed error path.
#[derive(Clone, Debug)]
pub struct ErrorPath {
    pub steps: Vec<Step>,
}

/// The error path of a word-level counterexample of [`super::encode::encode`]`(cfa)`: the
/// edges it takes give the nondet values drawn; replaying only those values (per call site,
/// in order) must reach the error, else the path is rejected.
pub fn from_trace(cfa: &Cfa, trace: &wl::Trace) -> Result<ErrorPath, String> {
    let mut oracle = TraceInputs::new(cfa, &trace.inputs);
    let run = interp::run(cfa, &mut oracle, trace.inputs.len())?;
    if !run.reached(cfa) {
        return Err("the counterexample does not reach the error in the CFA interpreter".into());
    }
    let drawn: Vec<(usize, Value)> = run.steps.iter().flat_map(|s| s.drawn.clone()).collect();
    let replayed = replay(cfa, &drawn, run.steps.len())?;
    Ok(ErrorPath {
        steps: replayed.steps,
    })
}

/// Runs `cfa` on the nondet values `drawn` (in drawing order); the run must reach the error
/// within `max_steps` edges.
pub fn replay(
    cfa: &Cfa,
    drawn: &[(usize, Value)],
    max_steps: usize,
) -> Result<interp::Run, String> {
    let mut queues = Queues::new(cfa, drawn);
    let run = interp::run(cfa, &mut queues, max_steps)?;
    match run.reached(cfa) {
        true => Ok(run),
        false => Err("replaying the nondet values does not reach the error".into()),
    }
}

/// The path as text: one line per source line executed (`line N`), with the value of each
/// nondet call on that line, ending with the error.
pub fn write(cfa: &Cfa, path: &ErrorPath) -> String {
    let mut out = String::new();
    let mut last = None;
    for step in &path.steps {
        let edge = &cfa.edges[step.edge];
        let mut pending: Vec<&(usize, Value)> = step.drawn.iter().collect();
        for &line in &edge.lines {
            let draws_here = pending.iter().any(|(n, _)| cfa.nondets[*n].line == line);
            if last == Some(line) && !draws_here {
                continue;
            }
            last = Some(line);
            out.push_str(&format!("line {line}"));
            let here: Vec<_> = pending
                .iter()
                .filter(|(n, _)| cfa.nondets[*n].line == line)
                .map(|(n, v)| {
                    format!(
                        "{} = {}",
                        cfa.nondets[*n].what,
                        show(v, cfa.nondets[*n].signed)
                    )
                })
                .collect();
            pending.retain(|(n, _)| cfa.nondets[*n].line != line);
            if !here.is_empty() {
                out.push_str(": ");
                out.push_str(&here.join(", "));
            }
            out.push('\n');
        }
        for (n, v) in pending {
            let d = &cfa.nondets[*n];
            out.push_str(&format!(
                "line {}: {} = {}\n",
                d.line,
                d.what,
                show(v, d.signed)
            ));
        }
    }
    out.push_str("error reached\n");
    out
}

/// A value in decimal (arrays as their non-default elements).
fn show(v: &Value, signed: bool) -> String {
    match v {
        Value::Bv(b) => decimal(b, signed),
        Value::Array(a) => {
            let mut parts = vec![format!("default {}", decimal(&a.default, signed))];
            for (i, e) in &a.entries {
                parts.push(format!("[{}] {}", decimal(i, false), decimal(e, signed)));
            }
            format!("{{{}}}", parts.join(", "))
        }
    }
}

fn decimal(b: &BitVec, signed: bool) -> String {
    let w = b.width();
    let raw = b.to_u64().unwrap_or(0);
    if signed && b.msb() {
        let magnitude = if w >= 64 {
            raw.wrapping_neg()
        } else {
            (1u64 << w) - raw
        };
        format!("-{magnitude}")
    } else {
        raw.to_string()
    }
}
