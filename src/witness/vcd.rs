//! Counterexample traces as VCD waveforms, with the model's own signal names.
//!
//! One time step per frame: every input, every latch, and every bad property, so a viewer
//! shows where the property fails. Unnamed signals are called `input<i>`, `latch<i>`, `bad<i>`.

use std::fmt::Write as _;

use crate::ts::{simulate, Trace, TransitionSystem};

/// The VCD text of `trace` on `ts` (the original system, whose names it uses).
pub fn write(ts: &TransitionSystem, trace: &Trace) -> String {
    let mut signals: Vec<String> = Vec::new();
    let name = |n: &Option<String>, kind: &str, i: usize| {
        n.as_deref()
            .map(|s| s.replace(char::is_whitespace, "_"))
            .unwrap_or_else(|| format!("{kind}{i}"))
    };
    for (i, n) in ts.names.inputs.iter().enumerate() {
        signals.push(name(n, "input", i));
    }
    for (i, n) in ts.names.latches.iter().enumerate() {
        signals.push(name(n, "latch", i));
    }
    for i in 0..ts.bad.len() {
        signals.push(name(ts.names.bad.get(i).unwrap_or(&None), "bad", i));
    }
    let mut out =
        String::from("$version warden $end\n$timescale 1ns $end\n$scope module top $end\n");
    for (i, s) in signals.iter().enumerate() {
        let _ = writeln!(out, "$var wire 1 {} {s} $end", ident(i));
    }
    out.push_str("$upscope $end\n$enddefinitions $end\n");

    let mut previous: Vec<Option<bool>> = vec![None; signals.len()];
    let mut state = trace.init.clone();
    for (frame, (inputs, values)) in trace.inputs.iter().zip(simulate(ts, trace)).enumerate() {
        let now: Vec<bool> = inputs
            .iter()
            .copied()
            .chain(state.iter().copied())
            .chain(ts.bad.iter().map(|&b| values.lit(b)))
            .collect();
        let _ = writeln!(out, "#{frame}");
        for (i, &v) in now.iter().enumerate() {
            if previous[i] != Some(v) {
                let _ = writeln!(out, "{}{}", v as u8, ident(i));
                previous[i] = Some(v);
            }
        }
        state = ts.latches.iter().map(|l| values.lit(l.next)).collect();
    }
    let _ = writeln!(out, "#{}", trace.inputs.len());
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
