//! BTOR2 witnesses in the format of btorsim (the reference simulator of btor2tools):
//!
//! ```text
//! sat
//! b0            claimed bad properties
//! #0            initial state: `POS VALUE [SYMBOL]`, arrays `POS [INDEX] VALUE [SYMBOL]`
//!               (not arrays with an `init`: btorsim computes them, and aborts on some)
//! @0            inputs of frame 0, same line forms
//! #1            (frames > 0: only states without `next`, which are free in every frame)
//! @1
//! .
//! ```
//!
//! `POS` is the position of the state (input) among the file's states (inputs); values are
//! binary, most significant bit first. Array values list the elements that differ from zero
//! (btorsim reads unlisted elements as zero).

use std::fmt::Write as _;

use crate::witness::{LineProblem, WitnessError};
use crate::wl::{BitVec, Model, Sort, Trace, Value};

/// The witness text of `trace` on `model`.
pub fn write_witness(model: &Model, trace: &Trace) -> String {
    write_witness_as(model, trace, 'b')
}

/// The witness text of `trace` on `model` with the property line `<kind><trace.bad>`: `b` for
/// a bad property, `j` for a lasso of a justice property (whose state after the last frame
/// equals the state of the loop start).
pub fn write_witness_as(model: &Model, trace: &Trace, kind: char) -> String {
    let mut out = format!("sat\n{kind}{}\n", trace.bad);
    for (k, (states, inputs)) in trace.states.iter().zip(&trace.inputs).enumerate() {
        let free: Vec<(usize, &Value)> = states
            .iter()
            .enumerate()
            .filter(|&(i, _)| k > 0 || !initialised_array(model, i))
            .filter_map(|(i, v)| Some((i, v.as_ref()?)))
            .collect();
        if k == 0 || !free.is_empty() {
            let _ = writeln!(out, "#{k}");
        }
        for (i, v) in free {
            assignment(&mut out, i, v, model.states()[i].name.as_deref());
        }
        let _ = writeln!(out, "@{k}");
        for (i, v) in inputs.iter().enumerate() {
            assignment(&mut out, i, v, model.inputs()[i].name.as_deref());
        }
    }
    out.push_str(".\n");
    out
}

/// Whether state `i` is an array with an `init`. Its initial value is left out of `#0`:
/// btorsim computes it from the `init`, and an index line for an array initialised to a
/// constant aborts btorsim (it asserts that the `init` value is an array; found by the
/// differential tester, `benches/difftest`).
fn initialised_array(model: &Model, i: usize) -> bool {
    let state = &model.states()[i];
    matches!(state.sort, Sort::Array { .. }) && state.init.is_some()
}

fn assignment(out: &mut String, pos: usize, value: &Value, symbol: Option<&str>) {
    let suffix = symbol.map(|s| format!(" {s}")).unwrap_or_default();
    match value {
        Value::Bv(v) => {
            let _ = writeln!(out, "{pos} {}{suffix}", v.to_binary());
        }
        Value::Array(a) => {
            for (index, element) in &a.entries {
                let _ = writeln!(
                    out,
                    "{pos} [{}] {}{suffix}",
                    index.to_binary(),
                    element.to_binary()
                );
            }
        }
    }
}

/// A parsed witness: the claimed bad properties and the trace.
#[derive(Clone, Debug)]
pub struct Witness {
    pub bad: Vec<usize>,
    pub trace: Trace,
}

/// Reads a btorsim-format witness for `model`. Unassigned inputs and states without `init`
/// are zero, as in btorsim. Errors name the line.
pub fn parse_witness(text: &str, model: &Model) -> Result<Witness, WitnessError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    loop {
        match lines.next() {
            Some((_, "sat")) => break,
            Some(_) => continue,
            None => return Err(WitnessError::NoSat),
        }
    }
    let (n, props) = lines.next().ok_or(WitnessError::NoProperties)?;
    let mut bad = Vec::new();
    for p in props.split_whitespace() {
        let index = p.strip_prefix('b').and_then(|d| d.parse::<usize>().ok());
        match index {
            Some(b) if b < model.bad().len() => bad.push(b),
            Some(b) => {
                return Err(LineProblem::NoProperty {
                    index: b,
                    count: model.bad().len(),
                }
                .at(n))
            }
            None => return Err(LineProblem::Property(p.to_owned()).at(n)),
        }
    }
    let mut states: Vec<Vec<Option<Value>>> = Vec::new();
    let mut inputs: Vec<Vec<Value>> = Vec::new();
    let zeros: Vec<Value> = model.inputs().iter().map(|i| Value::zero(i.sort)).collect();
    // The block being read: (is it a state block, its frame).
    let mut block: Option<(bool, usize)> = None;
    let mut ended = false;
    for (n, line) in lines.by_ref() {
        if line == "." {
            ended = true;
            break;
        }
        if let Some(header) = line
            .strip_prefix('#')
            .map(|k| (true, k))
            .or(line.strip_prefix('@').map(|k| (false, k)))
        {
            let k: usize = header
                .1
                .parse()
                .map_err(|_| LineProblem::FrameHeader(line.to_owned()).at(n))?;
            let expected = states.len().max(inputs.len());
            let fresh = if header.0 {
                k == expected
            } else {
                k + 1 >= expected
            };
            if !fresh || k > expected {
                return Err(LineProblem::FrameOrder(line.to_owned()).at(n));
            }
            while states.len() <= k {
                states.push(vec![None; model.states().len()]);
                inputs.push(zeros.clone());
            }
            block = Some((header.0, k));
            continue;
        }
        let Some((is_state, k)) = block else {
            return Err(LineProblem::BeforeHeader.at(n));
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let pos: usize = fields[0]
            .parse()
            .map_err(|_| LineProblem::Position(fields[0].to_owned()).at(n))?;
        let (sort, slot) = if is_state {
            let s = model
                .states()
                .get(pos)
                .ok_or(LineProblem::NoState(pos).at(n))?;
            let slot = states[k][pos].get_or_insert_with(|| Value::zero(s.sort));
            (s.sort, slot)
        } else {
            let i = model
                .inputs()
                .get(pos)
                .ok_or(LineProblem::NoInput(pos).at(n))?;
            (i.sort, &mut inputs[k][pos])
        };
        assign(slot, sort, &fields[1..]).map_err(|p| p.at(n))?;
    }
    if !ended {
        return Err(WitnessError::NoEnd);
    }
    if states.is_empty() {
        return Err(WitnessError::NoFrame);
    }
    let trace = Trace {
        bad: bad.first().copied().unwrap_or(0),
        states,
        inputs,
    };
    Ok(Witness { bad, trace })
}

/// Stores `VALUE` or `[INDEX] VALUE` (the symbol after it is ignored) into `slot`.
fn assign(slot: &mut Value, sort: Sort, fields: &[&str]) -> Result<(), LineProblem> {
    let binary = |s: Option<&&str>, width: u32, what: &'static str| {
        let s = s.ok_or(LineProblem::Missing(what))?;
        BitVec::parse_binary(s)
            .filter(|v| v.width() == width)
            .ok_or_else(|| LineProblem::Binary {
                what,
                width,
                found: (*s).to_owned(),
            })
    };
    match (sort, slot) {
        (Sort::Bv(w), slot) => *slot = Value::Bv(binary(fields.first(), w, "value")?),
        (Sort::Array { index, element }, Value::Array(a)) => {
            let i = fields
                .first()
                .and_then(|f| f.strip_prefix('[')?.strip_suffix(']'))
                .ok_or(LineProblem::ArrayIndex)?;
            let i = binary(Some(&i), index, "index")?;
            let v = binary(fields.get(1), element, "element")?;
            a.set(&i, &v);
        }
        (Sort::Array { .. }, Value::Bv(_)) => unreachable!("array slots hold arrays"),
    }
    Ok(())
}
