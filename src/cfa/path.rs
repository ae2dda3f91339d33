//! Error paths of programs: a counterexample of the encoded model turned into the sequence of
//! nondet values it draws, confirmed by replaying that sequence alone in the interpreter, and
//! printed as source lines.

use super::interp::{self, BlockInputs, RunError, Sequence, Step};
use super::Cfa;
use crate::wl::{self, ArrayValue, BitVec, Sort, Value};

/// A confirmed error path.
#[derive(Clone, Debug)]
pub struct ErrorPath {
    pub steps: Vec<Step>,
}

/// The error path in `cfa` of a word-level counterexample of [`super::encode::encode`]`(blocks)`,
/// where `blocks` is `cfa` after slicing and [`super::lbe::large_blocks`] (or `cfa` itself):
/// `cfa` is run with each block's nondet values from the trace's frame of that block, which
/// gives the values drawn; replaying only those values, in order, must reach the error, else
/// the path is rejected. A path through [`Cfa::unwind`] is rejected as
/// [`RunError::BoundExceeded`]: the caller deepens the recursion bound.
pub fn from_trace(cfa: &Cfa, blocks: &Cfa, trace: &wl::Trace) -> Result<ErrorPath, RunError> {
    let kept = super::lbe::kept_locations(blocks);
    let mut oracle = BlockInputs::new(cfa, kept, &trace.inputs);
    let max_steps = trace.inputs.len().saturating_mul(cfa.edges.len() + 1);
    let run = interp::run(cfa, &mut oracle, max_steps)?;
    if !run.reached(cfa) {
        return Err(RunError::TraceMisses);
    }
    let drawn: Vec<Value> = (run.steps.iter())
        .flat_map(|s| s.drawn.iter().map(|(_, v)| v.clone()))
        .collect();
    let replayed = replay_program(cfa, drawn, run.steps.len())?;
    Ok(ErrorPath {
        steps: replayed.steps,
    })
}

/// The most edges a run of a whole program takes in the interpreter, when a program is
/// executed ([`crate::engine::execute`]) or an error path read back (`warden sim`, whose
/// paths list the nondet values and not the steps between them): seconds of the interpreter,
/// and the memory of the steps it records (32 bytes each).
pub const PROGRAM_STEPS: usize = 10_000_000;

/// Runs `cfa` on the nondet values `drawn` (in drawing order); the run must reach the error
/// within `max_steps` edges.
pub fn replay(cfa: &Cfa, drawn: Vec<Value>, max_steps: usize) -> Result<interp::Run, RunError> {
    reaching(run_drawn(cfa, drawn, max_steps)?, cfa)
}

/// [`replay`], for an error path of the program itself: the run must not make a call beyond
/// the recursion bound of the inlining ([`interp::Run::unwound`]; a run that does is rejected
/// as such, whether or not it then reaches the error).
pub fn replay_program(
    cfa: &Cfa,
    drawn: Vec<Value>,
    max_steps: usize,
) -> Result<interp::Run, RunError> {
    let run = run_drawn(cfa, drawn, max_steps)?;
    if run.unwound(cfa) {
        return Err(RunError::BoundExceeded);
    }
    reaching(run, cfa)
}

fn run_drawn(cfa: &Cfa, drawn: Vec<Value>, max_steps: usize) -> Result<interp::Run, RunError> {
    interp::run(cfa, &mut Sequence::new(cfa, drawn), max_steps)
}

/// `run`, if it reached the error.
fn reaching(run: interp::Run, cfa: &Cfa) -> Result<interp::Run, RunError> {
    match run.reached(cfa) {
        true => Ok(run),
        false => Err(RunError::ReplayMisses),
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

/// `b` in decimal, as a two's-complement number if `signed`.
pub fn decimal(b: &BitVec, signed: bool) -> String {
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

/// The nondet values of an error path as [`write`] prints it, in order, each of the sort of
/// the source it names (`line N: WHAT = VALUE, ...`). Sources are matched by line and name,
/// in order of their creation among those that match.
pub fn parse_values(cfa: &Cfa, text: &str) -> Result<Vec<Value>, RunError> {
    let mut values = Vec::new();
    for (i, row) in text.lines().enumerate() {
        let Some(rest) = row.strip_prefix("line ") else {
            continue;
        };
        let Some((line, draws)) = rest.split_once(": ") else {
            continue;
        };
        let n = i + 1;
        let line: u32 = line.parse().map_err(|_| RunError::LineNumber { line: n })?;
        for draw in split_draws(draws) {
            let (what, value) = draw.split_once(" = ").ok_or(RunError::Draw { line: n })?;
            let source = (cfa.nondets.iter())
                .find(|s| s.line == line && s.what == what)
                .ok_or_else(|| RunError::NoSource {
                    line: n,
                    what: what.to_owned(),
                    source_line: line,
                })?;
            let sort = cfa.terms.sort(source.term);
            let v = parse_value(value.trim(), sort).ok_or_else(|| RunError::Value {
                line: n,
                value: value.to_owned(),
                sort,
            })?;
            values.push(v);
        }
    }
    Ok(values)
}

/// The `WHAT = VALUE` items of a line, split at top-level commas (array values contain
/// commas inside braces).
fn split_draws(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

fn parse_value(s: &str, sort: Sort) -> Option<Value> {
    match sort {
        Sort::Bv(w) => Some(Value::Bv(parse_bits(s, w)?)),
        Sort::Array { index, element } => {
            let inner = s.strip_prefix('{')?.strip_suffix('}')?;
            let mut parts = inner.split(", ");
            let default = parse_bits(parts.next()?.strip_prefix("default ")?, element)?;
            let mut a = ArrayValue::constant(index, default);
            for p in parts {
                let (i, v) = p.strip_prefix('[')?.split_once("] ")?;
                a.set(&parse_bits(i, index)?, &parse_bits(v, element)?);
            }
            Some(Value::Array(a))
        }
    }
}

/// A decimal (possibly negative) as `w` two's-complement bits.
fn parse_bits(s: &str, w: u32) -> Option<BitVec> {
    let v: i128 = s.parse().ok()?;
    let bits: Vec<bool> = (0..w).map(|i| (v >> i.min(127)) & 1 == 1).collect();
    Some(BitVec::from_bits(&bits))
}
