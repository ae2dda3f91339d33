//! Counterexample traces as VCD waveforms, with the model's own signal names.
//!
//! One time step per frame: every input, every latch (for BTOR2: every word, with its width),
//! and every bad property, so a viewer shows where the property fails. Unnamed signals are
//! called `input<i>`, `latch<i>`, `bad<i>` (BTOR2: `input<i>`, `state<i>`, `bad<i>`).

use std::fmt::Write as _;

use crate::ts::{simulate, Trace, TransitionSystem};
use crate::wl::{self, SimError};

/// One waveform signal: its name, width and value in every frame (binary, most significant
/// bit first).
struct Signal {
    name: String,
    width: u32,
    values: Vec<String>,
}

/// A signal's name with whitespace (which VCD cannot hold) replaced, or `kind<i>`.
fn name(n: Option<&str>, kind: &str, i: usize) -> String {
    n.filter(|s| !s.is_empty())
        .map(|s| s.replace(char::is_whitespace, "_"))
        .unwrap_or_else(|| format!("{kind}{i}"))
}

/// The VCD text of `trace` on `ts` (the original system, whose names it uses).
pub fn write(ts: &TransitionSystem, trace: &Trace) -> String {
    let mut signals: Vec<Signal> = Vec::new();
    let bit = |b: bool| if b { "1" } else { "0" }.to_string();
    let mut add = |n: String, values: Vec<String>| {
        signals.push(Signal {
            name: n,
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
        add(name(n.as_deref(), "input", i), values);
    }
    for (i, n) in ts.names.latches.iter().enumerate() {
        let values = latch_values.iter().map(|row| bit(row[i])).collect();
        add(name(n.as_deref(), "latch", i), values);
    }
    for (i, &b) in ts.bad.iter().enumerate() {
        let n = ts.names.bad.get(i).and_then(|n| n.as_deref());
        let values = frames.iter().map(|v| bit(v.lit(b))).collect();
        add(name(n, "bad", i), values);
    }
    render(&signals, trace.inputs.len())
}

/// The VCD text of a word-level trace: every bit-vector input, state, output and named signal
/// of the model with its own name and width, and the bad properties (arrays are left out: VCD has
/// no array variables).
pub fn write_words(model: &wl::Model, trace: &wl::Trace) -> Result<String, SimError> {
    let mut named: Vec<(String, wl::TermId)> = Vec::new();
    for (i, input) in model.inputs().iter().enumerate() {
        named.push((model.input_name(i), input.term));
    }
    for (i, state) in model.states().iter().enumerate() {
        named.push((model.state_name(i), state.term));
    }
    for (i, s) in model.signals().iter().chain(model.outputs()).enumerate() {
        named.push((name(s.name.as_deref(), "signal", i), s.term));
    }
    for (i, p) in model.bad().iter().enumerate() {
        named.push((name(p.name.as_deref(), "bad", i), p.term));
    }
    named.retain(|(_, t)| !model.sort(*t).is_array());
    let terms: Vec<wl::TermId> = named.iter().map(|(_, t)| *t).collect();
    let frames = wl::waveform(model, trace, &terms)?;
    let signals: Vec<Signal> = named
        .into_iter()
        .enumerate()
        .map(|(j, (n, t))| Signal {
            name: n,
            width: model.sort(t).bv_width().unwrap_or(1),
            values: frames
                .iter()
                .map(|row| row[j].as_bv().map(|v| v.to_binary()).unwrap_or_default())
                .collect(),
        })
        .collect();
    Ok(render(&signals, trace.inputs.len()))
}

/// The VCD text: one time step per frame, a value line only where a signal changes.
fn render(signals: &[Signal], frames: usize) -> String {
    let mut out =
        String::from("$version warden $end\n$timescale 1ns $end\n$scope module top $end\n");
    for (i, s) in signals.iter().enumerate() {
        let _ = writeln!(out, "$var wire {} {} {} $end", s.width, ident(i), s.name);
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
}
