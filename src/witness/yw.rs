//! Yosys witness traces (`.yw`), the JSON format of `yosys-witness` and SymbiYosys, for
//! counterexamples of Verilog designs (read through Yosys's BTOR2, see
//! [`crate::front::verilog`]).
//!
//! A trace lists its `signals` (a hierarchical path, `\u_sub` then `\q`, an offset and a
//! width; `init_only` for a register's initial value) and per cycle one `bits` string: the
//! signals' bits concatenated with signal 0's bit 0 as the *last* character (most significant
//! bit first, last signal first), `?` for a bit the cycle does not set. The clock inputs are
//! not data: they are listed under `clocks` (posedge), and the replay drives them.
//!
//! What goes in: every named bit-vector input but the clocks, in every cycle, and the initial
//! value of every named register that has no `initial` value (one the solver chose). Registers
//! with an `initial` value follow from it; `$anyconst` values (Yosys cells without a public
//! name) and memories are left out, so a replay of a design that has them is not fixed by
//! the witness alone.

use crate::wl::{Model, Trace, Value};

/// A signal of the trace and where its value comes from.
struct Sig {
    path: Vec<String>,
    width: u32,
    init_only: bool,
    /// The input (or, for `init_only`, the state) whose value it carries.
    index: usize,
}

/// Yosys's path of a flattened name: `u_sub.q` is `["\u_sub", "\q"]`.
fn path(name: &str) -> Vec<String> {
    name.split('.').map(|p| format!("\\{p}")).collect()
}

/// The `.yw` text of `trace` on `model` (a design compiled by Yosys), with `clocks` the names
/// of its clock inputs.
pub fn write(model: &Model, trace: &Trace, clocks: &[String]) -> String {
    let mut sigs: Vec<Sig> = Vec::new();
    for (i, input) in model.inputs().iter().enumerate() {
        let (Some(name), Some(width)) = (&input.name, input.sort.bv_width()) else {
            continue;
        };
        if !clocks.contains(name) {
            sigs.push(Sig {
                path: path(name),
                width,
                init_only: false,
                index: i,
            });
        }
    }
    for (i, state) in model.states().iter().enumerate() {
        let (Some(name), Some(width)) = (&state.name, state.sort.bv_width()) else {
            continue;
        };
        if state.init.is_none() && state.next.is_some() {
            sigs.push(Sig {
                path: path(name),
                width,
                init_only: true,
                index: i,
            });
        }
    }
    let steps: Vec<serde_json::Value> = (0..trace.inputs.len())
        .map(|k| {
            let bits: String = sigs
                .iter()
                .rev()
                .map(|s| {
                    let value = match s.init_only {
                        false => Some(&trace.inputs[k][s.index]),
                        true if k == 0 => trace.states[0][s.index].as_ref(),
                        true => None,
                    };
                    match value {
                        Some(Value::Bv(v)) => v.to_binary(),
                        _ => "?".repeat(s.width as usize),
                    }
                })
                .collect();
            serde_json::json!({ "bits": bits })
        })
        .collect();
    let signals: Vec<serde_json::Value> = sigs
        .iter()
        .map(|s| {
            serde_json::json!({
                "path": s.path, "offset": 0, "width": s.width, "init_only": s.init_only,
            })
        })
        .collect();
    let clocks: Vec<serde_json::Value> = clocks
        .iter()
        .map(|c| serde_json::json!({ "path": path(c), "edge": "posedge", "offset": 0 }))
        .collect();
    let trace = serde_json::json!({
        "format": "Yosys Witness Trace",
        "generator": concat!("warden ", env!("CARGO_PKG_VERSION")),
        "clocks": clocks,
        "signals": signals,
        "steps": steps,
    });
    serde_json::to_string_pretty(&trace).expect("JSON of strings and numbers") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wl::{BitVec, Sort};

    #[test]
    fn bits_put_the_first_signal_last_and_skip_clocks() {
        let mut m = Model::new();
        m.add_input(Sort::Bv(1), Some("clk".into()));
        m.add_input(Sort::Bv(1), Some("inc".into()));
        m.add_input(Sort::Bv(3), Some("u_a.d".into()));
        let bv = |w, v| Value::Bv(BitVec::from_u64(w, v));
        let trace = Trace {
            bad: 0,
            states: vec![vec![], vec![]],
            inputs: vec![
                vec![bv(1, 1), bv(1, 1), bv(3, 4)],
                vec![bv(1, 0), bv(1, 0), bv(3, 3)],
            ],
        };
        let yw: serde_json::Value =
            serde_json::from_str(&write(&m, &trace, &["clk".to_string()])).unwrap();
        assert_eq!(yw["format"], "Yosys Witness Trace");
        assert_eq!(yw["clocks"][0]["path"][0], "\\clk");
        assert_eq!(
            yw["signals"][1]["path"],
            serde_json::json!(["\\u_a", "\\d"])
        );
        assert_eq!(yw["steps"][0]["bits"], "1001");
        assert_eq!(yw["steps"][1]["bits"], "0110");
    }
}
