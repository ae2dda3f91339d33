//! A counterexample as a person reads it: per cycle, every input and register by its name
//! (hierarchical RTL names for Verilog, symbols for BTOR2 and AIGER) with its word value.
//!
//! ```text
//! cycle 0: inc=0 count=0 u_level.level=0
//! cycle 1: inc=1 count=1 u_level.level=0
//! ```
//!
//! Words print in decimal (up to 64 bits, else binary with a `'b` prefix); the values are
//! the waveform's ([`super::vcd`]), so the table and the VCD cannot disagree.

use super::vcd::{bit_signals, word_signals, Kind, Signal};
use crate::ts::{Trace, TransitionSystem};
use crate::wl::{self, SimError};

/// The table of a bit-level trace on `ts` (the original system, whose names it uses).
pub fn bits(ts: &TransitionSystem, trace: &Trace) -> String {
    render(&bit_signals(ts, trace), trace.inputs.len())
}

/// The table of a word-level trace on `model`.
pub fn words(model: &wl::Model, trace: &wl::Trace) -> Result<String, SimError> {
    Ok(render(&word_signals(model, trace)?, trace.inputs.len()))
}

fn render(signals: &[Signal], frames: usize) -> String {
    let shown: Vec<&Signal> = signals.iter().filter(|s| s.kind != Kind::Other).collect();
    let mut out = String::new();
    for frame in 0..frames {
        out.push_str(&format!("cycle {frame}:"));
        for s in &shown {
            out.push_str(&format!(" {}={}", s.name, value(&s.values[frame])));
        }
        out.push('\n');
    }
    out
}

/// A binary word (most significant bit first) in decimal, or `'b` binary past 64 bits.
fn value(binary: &str) -> String {
    match u64::from_str_radix(binary, 2) {
        Ok(v) if binary.len() <= 64 => v.to_string(),
        _ => format!("'b{binary}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;

    #[test]
    fn the_counter_counts_up_to_its_target_cycle_by_cycle() {
        let ts = counter(2, 3, false);
        let t = Trace {
            init: vec![false, false],
            inputs: vec![vec![]; 4],
            bad: 0,
        };
        let table = bits(&ts, &t);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "cycle 0: c[0]=0 c[1]=0");
        assert_eq!(lines[3], "cycle 3: c[0]=1 c[1]=1");
    }

    #[test]
    fn wide_words_print_in_binary() {
        assert_eq!(value("0101"), "5");
        assert_eq!(value(&"1".repeat(65)), format!("'b{}", "1".repeat(65)));
    }
}
