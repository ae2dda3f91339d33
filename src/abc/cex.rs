//! ABC's counterexample files, read against the model they claim to refute, so that
//! `warden sim MODEL FILE` checks them as it checks AIGER witnesses.
//!
//! The formats, as ABC 1.01 writes them (samples from `bmc3`/`pdr` on our circuits):
//! - `write_cex`: one line of bits, the initial values of the network's latches and then
//!   the primary inputs frame after frame, ending in `# DONE` (`0000001# DONE`);
//! - `write_cex -a`: the latch values on the first line, then one line of inputs per frame,
//!   the last one ending in `# DONE` (without inputs every line but the first is empty and
//!   ABC writes no line breaks at all: the file is the default format);
//! - `write_cex -n`: `# FALSIFYING OUTPUTS: NAME`, `# COUNTEREXAMPLE LENGTH: N`, then
//!   `NAME@FRAME=VALUE` for the latches at frame 0 and the inputs of every frame, and
//!   `# DONE`; names are the AIGER symbols, or ABC's own (`lo0`, `pi0`, `po0`);
//! - `write_aiger_cex`: `1`, then per frame `STATE INPUTS OUTPUTS NEXT` (aigsim's trace).
//!
//! `pdr -a` keeps one counterexample per output out of `write_cex`'s reach ("Counter-example
//! is not available"): run `pdr` per property instead.
//!
//! The network ABC checked may be the model itself (`read m.aig; bmc3; write_cex m.cex`) or
//! the one [`super::PREPARE`] made of it; [`to_trace`] tells them apart by their sizes. The
//! model's inputs are always the first primary inputs of every frame. A latch with a reset
//! starts at its reset: the file's latch values may be those of `zero`, which complements
//! latches reset to 1 (and a network with the model's sizes may still be `zero`'s). An
//! uninitialised latch takes the value of its `undc` input in frame 0 (the extra inputs, one
//! per uninitialised latch in order); without such inputs, its value in the file when the
//! network has the model's latches, else 0 (ABC's reading without `undc`). When the network
//! is not the model its latches are ABC's (a first-frame latch and a fold latch added,
//! latches dropped by `fold`), and only the inputs are read.

use crate::ts::{Trace, TransitionSystem};

/// Frames simulated for a model without inputs: ABC's files then give the initial state
/// only (no input bits say how long the trace is), and the replay looks for the property in
/// the first this many frames.
pub const FRAMES_WITHOUT_INPUTS: usize = 100_000;

/// A counterexample of ABC's, mapped to the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbcWitness {
    /// The trace; `trace.bad` is the first of `bad`.
    pub trace: Trace,
    /// The properties the file names as falsified, else every property of the model.
    pub bad: Vec<usize>,
    /// Whether the file names the falsified properties (else any of `bad` will do).
    pub named: bool,
    /// How the network ABC checked was mapped to the model, when it was not the model.
    pub note: Option<String>,
}

/// An ABC counterexample file that is malformed or does not fit the model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CexError {
    #[error("line {line}: {problem}")]
    Line { line: usize, problem: String },
    #[error("{0}")]
    Shape(String),
}

/// Whether `text` looks like one of ABC's counterexample files rather than an AIGER witness.
pub fn recognise(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    let steps = first == "1" && lines.next().is_some_and(|l| step(l).is_some());
    steps || text.contains("# DONE") || first.starts_with("# FALSIFYING OUTPUTS")
}

/// Reads ABC's counterexample `text` (any of the formats above) as a trace of `ts`.
pub fn parse(text: &str, ts: &TransitionSystem) -> Result<AbcWitness, CexError> {
    let lines: Vec<(usize, &str)> = (text.lines().enumerate())
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let named = |outputs: Vec<String>| properties(ts, &outputs);
    let (values, (bad, named_ok)) = if lines.iter().any(|(_, l)| is_named_value(l)) {
        let (values, outputs) = parse_named(&lines, ts)?;
        (values, named(outputs))
    } else if lines.first().is_some_and(|(_, l)| *l == "1") {
        let (values, last) = parse_steps(&lines[1..])?;
        let reached: Vec<usize> = (last.iter().enumerate())
            .filter(|&(k, &v)| v && k < ts.bad.len())
            .map(|(k, _)| k)
            .collect();
        let outputs = reached.iter().map(|k| format!("po{k}")).collect();
        (values, named(outputs))
    } else {
        let mut rows = Vec::new();
        for &(n, line) in &lines {
            let line = line.strip_suffix("# DONE").unwrap_or(line).trim();
            if !line.is_empty() || rows.is_empty() {
                rows.push(bits(n, line)?);
            }
        }
        let values = match rows.len() {
            0 => return Err(CexError::Shape("the file has no values".into())),
            1 => split_bits(&rows[0], ts)?,
            _ => Values {
                latches: rows[0].clone(),
                rows: rows[1..].to_vec(),
            },
        };
        (values, named(Vec::new()))
    };
    let (trace, note) = to_trace(ts, &values.latches, &values.rows, bad[0])?;
    Ok(AbcWitness {
        trace,
        bad,
        named: named_ok,
        note,
    })
}

/// What a file gives for ABC's network: the initial values of its latches, and its primary
/// inputs per frame.
struct Values {
    latches: Vec<bool>,
    rows: Vec<Vec<bool>>,
}

/// Maps a counterexample of ABC's network (the initial values of its latches, and its
/// primary inputs per frame) to a trace of `ts` that violates property `bad` (see the module
/// documentation); the note says how, when the network was not `ts` itself.
pub fn to_trace(
    ts: &TransitionSystem,
    latches: &[bool],
    rows: &[Vec<bool>],
    bad: usize,
) -> Result<(Trace, Option<String>), CexError> {
    let n_inputs = ts.inputs.len();
    let uninit: Vec<usize> = (ts.latches.iter().enumerate())
        .filter(|(_, l)| l.init.is_none())
        .map(|(i, _)| i)
        .collect();
    let width = rows.first().map_or(n_inputs, Vec::len);
    if let Some(r) = rows.iter().find(|r| r.len() != width) {
        return Err(CexError::Shape(format!(
            "frames of {} and {} input values",
            width,
            r.len()
        )));
    }
    let extra = width
        .checked_sub(n_inputs)
        .filter(|&e| e == 0 || e == uninit.len());
    let Some(extra) = extra else {
        return Err(CexError::Shape(format!(
            "{width} input values per frame: the model has {n_inputs} inputs and {} \
             uninitialised latches (ABC's undc adds one input per such latch)",
            uninit.len()
        )));
    };
    let same_network = extra == 0 && latches.len() == ts.latches.len();
    let mut undc = rows.first().map(|r| &r[n_inputs..]).unwrap_or(&[]).iter();
    let init: Vec<bool> = (ts.latches.iter().enumerate())
        .map(|(i, l)| match (l.init, same_network) {
            (Some(reset), _) => reset,
            (None, true) => latches[i],
            (None, false) => *undc.next().unwrap_or(&false),
        })
        .collect();
    let inputs: Vec<Vec<bool>> = match (rows.is_empty(), n_inputs) {
        (true, 0) => vec![Vec::new(); FRAMES_WITHOUT_INPUTS],
        (true, _) => return Err(CexError::Shape("the file has no frame".into())),
        (false, _) => rows.iter().map(|r| r[..n_inputs].to_vec()).collect(),
    };
    let note = (!same_network).then(|| {
        format!(
            "ABC's network has {} latches and {width} inputs (the model {} and {n_inputs}): \
             initial state from the model's resets{}",
            latches.len(),
            ts.latches.len(),
            match extra {
                0 => ", uninitialised latches at 0 as ABC reads them without undc",
                _ => " and ABC's undc inputs",
            }
        )
    });
    Ok((Trace { init, inputs, bad }, note))
}

/// The default format's bits split into latch values and frames of inputs, by the sizes
/// of `ts`: the model's own (the network was the model), else the network's that
/// [`super::PREPARE`] makes when it drops no latch (one more latch for the uninitialised
/// latches and one for the constraints, one more input per uninitialised latch). A model
/// with constraints is only the latter: ABC checks no network with unfolded constraints.
fn split_bits(all: &[bool], ts: &TransitionSystem) -> Result<Values, CexError> {
    let (l, i) = (ts.latches.len(), ts.inputs.len());
    let u = ts.latches.iter().filter(|x| x.init.is_none()).count();
    let c = ts.constraints.len();
    let prepared = (l + usize::from(u > 0) + usize::from(c > 0), i + u);
    let fits = |&(lc, p): &(usize, usize)| {
        all.len() >= lc
            && (p == 0 && all.len() == lc || p > 0 && (all.len() - lc).is_multiple_of(p))
    };
    let own = (c == 0).then_some((l, i));
    let Some((lc, p)) = own.into_iter().chain([prepared]).find(fits) else {
        return Err(CexError::Shape(format!(
            "{} values do not split into the latch values and input frames of the model \
             ({l} latches, {i} inputs) nor of ABC's network for it ({} latches, {} inputs): \
             write the file with write_cex -a",
            all.len(),
            prepared.0,
            prepared.1
        )));
    };
    let rows = all[lc..].chunks(p.max(1)).map(<[bool]>::to_vec).collect();
    Ok(Values {
        latches: all[..lc].to_vec(),
        rows,
    })
}

/// `write_cex -n`: the latch values, the input rows and the falsified outputs' names.
fn parse_named(
    lines: &[(usize, &str)],
    ts: &TransitionSystem,
) -> Result<(Values, Vec<String>), CexError> {
    let mut outputs = Vec::new();
    let mut length = None;
    let mut frames: Vec<Vec<bool>> = Vec::new();
    for &(n, line) in lines {
        let problem = |p: String| CexError::Line {
            line: n,
            problem: p,
        };
        if let Some(names) = line.strip_prefix("# FALSIFYING OUTPUTS:") {
            outputs.extend(names.split_whitespace().map(str::to_owned));
        } else if let Some(len) = line.strip_prefix("# COUNTEREXAMPLE LENGTH:") {
            let len = len.trim().parse::<usize>();
            length = Some(len.map_err(|_| problem(format!("bad length '{line}'")))?);
        } else if line.starts_with('#') {
            continue;
        } else {
            let (frame, value) = named_value(line)
                .ok_or_else(|| problem(format!("expected NAME@FRAME=VALUE, found '{line}'")))?;
            match frame {
                f if f == frames.len().saturating_sub(1) && !frames.is_empty() => {}
                f if f == frames.len() => frames.push(Vec::new()),
                _ => return Err(problem(format!("frame {frame} out of order"))),
            }
            frames[frame].push(value);
        }
    }
    if length.is_some_and(|len| len != frames.len()) {
        return Err(CexError::Shape(format!(
            "COUNTEREXAMPLE LENGTH {} but values for {} frames",
            length.unwrap_or(0),
            frames.len()
        )));
    }
    let Some(first) = frames.first() else {
        return Err(CexError::Shape("the file has no values".into()));
    };
    // The inputs per frame: from frame 1 when there is one, else by the model's sizes.
    let uninit = ts.latches.iter().filter(|l| l.init.is_none()).count();
    let (l, i) = (ts.latches.len(), ts.inputs.len());
    let width = match frames.get(1) {
        Some(f) => f.len(),
        None if first.len() == l + i => i,
        None => i + uninit,
    };
    let Some(n_latches) = first.len().checked_sub(width) else {
        return Err(CexError::Shape(format!(
            "{} values in frame 0, fewer than the {width} inputs of the other frames",
            first.len()
        )));
    };
    let latches = first[..n_latches].to_vec();
    let mut rows = vec![first[n_latches..].to_vec()];
    rows.extend(frames[1..].iter().cloned());
    Ok((Values { latches, rows }, outputs))
}

/// `write_aiger_cex`: the latch values of the first step, the input rows, and the output
/// values of the last step.
fn parse_steps(lines: &[(usize, &str)]) -> Result<(Values, Vec<bool>), CexError> {
    let mut steps = Vec::new();
    for &(n, line) in lines {
        let fields = step(line).ok_or_else(|| CexError::Line {
            line: n,
            problem: format!("expected 'STATE INPUTS OUTPUTS NEXT', found '{line}'"),
        })?;
        let row: Result<Vec<Vec<bool>>, CexError> = fields.iter().map(|f| bits(n, f)).collect();
        steps.push(row?);
    }
    let (Some(first), Some(last)) = (steps.first(), steps.last()) else {
        return Err(CexError::Shape("the file has no step".into()));
    };
    let rows = steps.iter().map(|s| s[1].clone()).collect();
    Ok((
        Values {
            latches: first[0].clone(),
            rows,
        },
        last[2].clone(),
    ))
}

/// The four fields of a `write_aiger_cex` step (`STATE INPUTS OUTPUTS NEXT`, separated by
/// one space each: a network without inputs gives `0000  0 1000`; without latches the line,
/// trimmed, is `INPUTS OUTPUTS`).
fn step(line: &str) -> Option<Vec<&str>> {
    let mut fields: Vec<&str> = line.split(' ').collect();
    if fields.len() == 2 {
        fields = vec!["", fields[0], fields[1], ""];
    }
    let bitlike = |f: &&str| f.chars().all(|c| matches!(c, '0' | '1' | 'x'));
    (fields.len() == 4 && fields.iter().all(bitlike)).then_some(fields)
}

fn is_named_value(line: &str) -> bool {
    !line.starts_with('#') && named_value(line).is_some()
}

/// `NAME@FRAME=VALUE` as (frame, value).
fn named_value(line: &str) -> Option<(usize, bool)> {
    let (_, rest) = line.rsplit_once('@')?;
    let (frame, value) = rest.split_once('=')?;
    let value = match value.trim() {
        "0" | "x" => false,
        "1" => true,
        _ => return None,
    };
    Some((frame.trim().parse().ok()?, value))
}

/// A line of `0`/`1` (and `x`, read as 0: ABC's minimised files leave don't-cares).
fn bits(n: usize, line: &str) -> Result<Vec<bool>, CexError> {
    (line.chars())
        .map(|c| match c {
            '0' | 'x' | '-' => Ok(false),
            '1' => Ok(true),
            c => Err(CexError::Line {
                line: n,
                problem: format!("expected 0, 1 or x, found '{c}'"),
            }),
        })
        .collect()
}

/// The properties named by ABC's output names (an AIGER symbol or ABC's `po<k>`), and
/// whether every name was found; without names, every property.
fn properties(ts: &TransitionSystem, outputs: &[String]) -> (Vec<usize>, bool) {
    let find = |name: &String| {
        (0..ts.bad.len()).find(|&k| {
            ts.names.bad.get(k).and_then(|n| n.as_ref()) == Some(name) || *name == format!("po{k}")
        })
    };
    let found: Option<Vec<usize>> = outputs.iter().map(find).collect();
    match found {
        Some(bad) if !bad.is_empty() => (bad, true),
        _ => ((0..ts.bad.len().max(1)).collect(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;

    /// A 2-bit counter with an enable input and bad = 3, reached in frame 3 when enabled.
    fn ts() -> TransitionSystem {
        counter(2, 3, true)
    }

    #[test]
    fn every_format_gives_the_same_trace() {
        let ts = ts();
        let want = Trace {
            init: vec![false, false],
            inputs: vec![vec![true]; 4],
            bad: 0,
        };
        let plain = "001111# DONE\n";
        let lines = "00\n1\n1\n1\n1# DONE\n";
        let named = "# FALSIFYING OUTPUTS: po0\n# COUNTEREXAMPLE LENGTH: 4\nc0@0=0\nc1@0=0\n\
                     en@0=1\nen@1=1\nen@2=1\nen@3=1\n# DONE\n";
        let steps = "1\n00 1 0 10\n10 1 0 01\n01 1 0 11\n11 1 1 00\n";
        // Without inputs, ABC leaves the input field empty.
        let counter = counter(2, 3, false);
        let no_inputs = parse("1\n00  0 10\n10  0 01\n01  0 11\n11  1 00\n", &counter).unwrap();
        assert_eq!(no_inputs.trace.inputs.len(), 4);
        assert_eq!(crate::ts::replay(&counter, &no_inputs.trace), Ok(3));
        for text in [plain, lines, named, steps] {
            assert!(recognise(text), "{text}");
            let w = parse(text, &ts).unwrap();
            assert_eq!(w.trace, want, "{text}");
            assert_eq!(w.note, None);
        }
        assert_eq!(crate::ts::replay(&ts, &want), Ok(3));
        assert!(parse(named, &ts).unwrap().named);
        assert!(!parse(plain, &ts).unwrap().named);
        assert!(!recognise("1\nb0\n00\n1\n.\n"));
    }

    #[test]
    fn a_network_made_by_undc_and_fold_maps_back_to_the_model() {
        let mut ts = ts();
        ts.latches[1].init = None;
        // ABC's network: 3 latches (zeroed), the enable and the undc input of latch 1.
        let (trace, note) =
            to_trace(&ts, &[false; 3], &[vec![true, true], vec![false, false]], 0).unwrap();
        assert_eq!(trace.init, vec![false, true]);
        assert_eq!(trace.inputs, vec![vec![true], vec![false]]);
        assert!(note.unwrap().contains("undc"));
        let wrong = to_trace(&ts, &[false; 3], &[vec![true, true, true]], 0);
        assert!(matches!(wrong, Err(CexError::Shape(_))));
    }

    #[test]
    fn latches_start_at_their_reset_whatever_zero_made_of_them() {
        let mut ts = ts();
        ts.latches[0].init = Some(true);
        // `zero` complemented latch 0: the file says 0, the model's reset is 1.
        let (trace, _) = to_trace(&ts, &[false, false], &[vec![true]], 0).unwrap();
        assert_eq!(trace.init, vec![true, false]);
    }

    #[test]
    fn malformed_files_name_the_line() {
        let ts = ts();
        let err = parse("00\n1\n12# DONE\n", &ts).unwrap_err();
        assert_eq!(err.to_string(), "line 3: expected 0, 1 or x, found '2'");
        assert!(parse("0011# DONE", &ts).is_ok());
        assert!(parse("001# DONE\n", &ts).is_ok());
        assert!(matches!(parse("0# DONE\n", &ts), Err(CexError::Shape(_))));
    }
}
