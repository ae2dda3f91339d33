//! Counterexample traces as VCD waveforms, with the model's own signal names.
//!
//! One time step per frame: every input, every latch (for BTOR2: every word, with its width),
//! and every bad property, so a viewer shows where the property fails. Unnamed signals are
//! called `input<i>`, `latch<i>`, `bad<i>` (BTOR2: `input<i>`, `state<i>`, `bad<i>`). A
//! hierarchical name `u_core.u_alu.acc` (Yosys's flattened names) is the signal `acc` in the
//! nested scopes `u_core` and `u_alu`, as GTKWave shows an instance tree.

use std::fmt::Write as _;

use crate::ts::{simulate, Trace, TransitionSystem};
use crate::wl::{self, SimError};

/// What a waveform signal is in the model.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Input,
    /// A latch or state word.
    State,
    /// An output, a named internal signal or a bad property.
    Other,
}

/// One waveform signal: its name, kind, width and value in every frame (binary, most
/// significant bit first).
pub(crate) struct Signal {
    pub name: String,
    pub kind: Kind,
    pub width: u32,
    pub values: Vec<String>,
}

/// A signal's name with whitespace (which VCD cannot hold) replaced, or `kind<i>`.
fn name(n: Option<&str>, kind: &str, i: usize) -> String {
    n.filter(|s| !s.is_empty())
        .map(|s| s.replace(char::is_whitespace, "_"))
        .unwrap_or_else(|| format!("{kind}{i}"))
}

/// The VCD text of `trace` on `ts` (the original system, whose names it uses).
pub fn write(ts: &TransitionSystem, trace: &Trace) -> String {
    render(&bit_signals(ts, trace), trace.inputs.len())
}

/// The signals of a bit-level trace: every input, latch and bad property, one bit each.
pub(crate) fn bit_signals(ts: &TransitionSystem, trace: &Trace) -> Vec<Signal> {
    let mut signals: Vec<Signal> = Vec::new();
    let bit = |b: bool| if b { "1" } else { "0" }.to_string();
    let mut add = |n: String, kind: Kind, values: Vec<String>| {
        signals.push(Signal {
            name: n,
            kind,
            width: 1,
            values,
        })
    };
    let frames: Vec<_> = simulate(ts, trace).collect();
    let mut state = trace.init.clone();
    let mut latch_values = Vec::new();
    for values in &frames {
        latch_values.push(state.clone());
        state = ts.latches.iter().map(|l| values.lit(l.next)).collect();
    }
    for (i, n) in ts.names.inputs.iter().enumerate() {
        let values = trace.inputs.iter().map(|row| bit(row[i])).collect();
        add(name(n.as_deref(), "input", i), Kind::Input, values);
    }
    for (i, n) in ts.names.latches.iter().enumerate() {
        let values = latch_values.iter().map(|row| bit(row[i])).collect();
        add(name(n.as_deref(), "latch", i), Kind::State, values);
    }
    for (i, &b) in ts.bad.iter().enumerate() {
        let n = ts.names.bad.get(i).and_then(|n| n.as_deref());
        let values = frames.iter().map(|v| bit(v.lit(b))).collect();
        add(name(n, "bad", i), Kind::Other, values);
    }
    signals
}

/// The VCD text of a word-level trace: every bit-vector input, state, output and named signal
/// of the model with its own name and width, and the bad properties (arrays are left out: VCD has
/// no array variables).
pub fn write_words(model: &wl::Model, trace: &wl::Trace) -> Result<String, SimError> {
    Ok(render(&word_signals(model, trace)?, trace.inputs.len()))
}

/// The signals of a word-level trace (see [`write_words`]).
pub(crate) fn word_signals(model: &wl::Model, trace: &wl::Trace) -> Result<Vec<Signal>, SimError> {
    let mut named: Vec<(String, Kind, wl::TermId)> = Vec::new();
    for (i, input) in model.inputs().iter().enumerate() {
        named.push((model.input_name(i), Kind::Input, input.term));
    }
    for (i, state) in model.states().iter().enumerate() {
        named.push((model.state_name(i), Kind::State, state.term));
    }
    for (i, s) in model.signals().iter().chain(model.outputs()).enumerate() {
        named.push((name(s.name.as_deref(), "signal", i), Kind::Other, s.term));
    }
    for (i, p) in model.bad().iter().enumerate() {
        named.push((name(p.name.as_deref(), "bad", i), Kind::Other, p.term));
    }
    named.retain(|(_, _, t)| !model.sort(*t).is_array());
    let terms: Vec<wl::TermId> = named.iter().map(|(_, _, t)| *t).collect();
    let frames = wl::waveform(model, trace, &terms)?;
    Ok(named
        .into_iter()
        .enumerate()
        .map(|(j, (n, kind, t))| Signal {
            name: n,
            kind,
            width: model.sort(t).bv_width().unwrap_or(1),
            values: frames
                .iter()
                .map(|row| row[j].as_bv().map(|v| v.to_binary()).unwrap_or_default())
                .collect(),
        })
        .collect())
}

/// The scopes of a hierarchical name and its last part: `u_a.u_b.x` is `x` in `u_a`, `u_b`.
/// A name with an empty part (`a..b`, `.x`, `x.`) is not hierarchical and stays whole.
fn scopes(name: &str) -> (Vec<&str>, &str) {
    let mut parts: Vec<&str> = name.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return (Vec::new(), name);
    }
    let last = parts.pop().unwrap_or(name);
    (parts, last)
}

/// The VCD text: one time step per frame, a value line only where a signal changes; the
/// signals in nested scopes by their hierarchical names (see [`scopes`]) under `top`.
fn render(signals: &[Signal], frames: usize) -> String {
    let mut out =
        String::from("$version warden $end\n$timescale 1ns $end\n$scope module top $end\n");
    // Signals grouped by scope path, so each scope opens once.
    let mut order: Vec<usize> = (0..signals.len()).collect();
    order.sort_by(|&a, &b| scopes(&signals[a].name).0.cmp(&scopes(&signals[b].name).0));
    let mut open: Vec<&str> = Vec::new();
    for i in order {
        let (path, last) = scopes(&signals[i].name);
        let common = open.iter().zip(&path).take_while(|(a, b)| a == b).count();
        for _ in common..open.len() {
            out.push_str("$upscope $end\n");
        }
        open.truncate(common);
        for scope in &path[common..] {
            let _ = writeln!(out, "$scope module {scope} $end");
            open.push(*scope);
        }
        let _ = writeln!(
            out,
            "$var wire {} {} {last} $end",
            signals[i].width,
            ident(i)
        );
    }
    for _ in 0..open.len() {
        out.push_str("$upscope $end\n");
    }
    out.push_str("$upscope $end\n$enddefinitions $end\n");
    for frame in 0..frames {
        let _ = writeln!(out, "#{frame}");
        for (i, s) in signals.iter().enumerate() {
            let v = &s.values[frame];
            if frame > 0 && s.values[frame - 1] == *v {
                continue;
            }
            match s.width {
                1 => {
                    let _ = writeln!(out, "{v}{}", ident(i));
                }
                _ => {
                    let _ = writeln!(out, "b{v} {}", ident(i));
                }
            }
        }
    }
    let _ = writeln!(out, "#{frames}");
    out
}

/// VCD identifier codes: base-94 over the printable characters `!`..`~`.
fn ident(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'!' + (i % 94) as u8) as char);
        i /= 94;
        if i == 0 {
            return s;
        }
        i -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;

    #[test]
    fn identifiers_are_distinct() {
        let ids: std::collections::HashSet<String> = (0..10_000).map(ident).collect();
        assert_eq!(ids.len(), 10_000);
    }

    #[test]
    fn waveform_shows_the_counter_and_the_failing_property() {
        let ts = counter(2, 3, false);
        let t = Trace {
            init: vec![false, false],
            inputs: vec![vec![]; 4],
            bad: 0,
        };
        let vcd = write(&ts, &t);
        assert!(vcd.contains("$var wire 1 ! c[0] $end"));
        assert!(vcd.contains("$var wire 1 # bad0 $end"));
        // The bad signal rises in the last frame only.
        let last = vcd.split("#3\n").nth(1).unwrap();
        assert!(last.contains("1#"));
        assert!(!vcd.split("#3\n").next().unwrap().contains("1#"));
    }

    #[test]
    fn hierarchical_names_open_nested_scopes_once() {
        let signal = |name: &str| Signal {
            name: name.into(),
            kind: Kind::State,
            width: 4,
            values: vec!["0101".into()],
        };
        let names = ["u_a.u_b.x", "count", "u_a.y", "u_a.u_b.z"];
        let vcd = render(&names.map(signal), 1);
        let header = vcd.split("$enddefinitions").next().unwrap();
        assert_eq!(header.matches("$scope module u_a $end").count(), 1);
        assert_eq!(header.matches("$scope module u_b $end").count(), 1);
        assert_eq!(
            header.matches("$scope").count(),
            header.matches("$upscope").count()
        );
        // `z` sits in u_a.u_b beside `x`, `count` at the top.
        let u_b = header.split("$scope module u_b $end").nth(1).unwrap();
        let u_b = u_b.split("$upscope").next().unwrap();
        assert!(u_b.contains(" x $end") && u_b.contains(" z $end") && !u_b.contains("count"));
    }
}
