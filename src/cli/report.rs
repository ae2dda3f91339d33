//! Statistics and the `--json` record of a run.

use std::path::Path;

use crate::check::{Answer, Report};
use crate::front::verilog;

pub(super) fn verdict_word(a: &Answer) -> &'static str {
    match a {
        Answer::Sat(_) => "sat",
        Answer::Unsat(_) => "unsat",
        Answer::Unknown { .. } => "unknown",
    }
}

pub(super) fn depth(a: &Answer) -> Option<usize> {
    match a {
        Answer::Sat(t) => Some(t.depth()),
        Answer::Unsat(_) => None,
        Answer::Unknown { depth } => *depth,
    }
}

/// Peak resident memory of this process in MiB.
pub(super) fn peak_rss_mib() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss as f64 / 1024.0
}

pub(super) fn print_stats(r: &Report) {
    eprintln!("c engine = {}", r.engine);
    eprintln!("c time_s = {:.3}", r.time.as_secs_f64());
    eprintln!("c peak_rss_mib = {:.1}", peak_rss_mib());
    for (k, v) in &r.stats {
        eprintln!("c {k} = {v}");
    }
}

/// The `--json` record of a `check` run on `model`: a [`run_record`] of warden's with the
/// model, the engine, memory and statistics (serde_json escapes every string, file names
/// too); `assumed` names the C functions without a body that were assumed nondet, `yosys`
/// the Yosys that compiled a Verilog design.
pub(super) fn json(
    model: &Path,
    r: &Report,
    assumed: &[String],
    yosys: Option<&verilog::Yosys>,
) -> String {
    let stats: serde_json::Map<String, serde_json::Value> = (r.stats.iter())
        .map(|(k, v)| (k.to_string(), (*v).into()))
        .collect();
    let mut record = run_record("warden", verdict_word(&r.answer), depth(&r.answer), r.time);
    let more = serde_json::json!({
        "command": "check",
        "model": model.to_string_lossy(),
        "engine": r.engine,
        "peak_rss_mib": (peak_rss_mib() * 10.0).round() / 10.0,
        "stats": stats,
        "assumed_nondet": assumed,
    });
    if let serde_json::Value::Object(more) = more {
        record.extend(more);
    }
    if let Some(y) = yosys {
        record.insert("yosys".into(), y.json());
    }
    if let (Answer::Unknown { .. }, Some(c)) = (&r.answer, &r.condition) {
        let condition = serde_json::json!({ "depth": c.depth, "lemmas": c.lemmas.len() });
        record.insert("condition".into(), condition);
    }
    if let (Answer::Unknown { .. }, Some(a)) = (&r.answer, &r.automaton) {
        let (states, verified) = (a.open_states(), a.verified());
        let condition =
            serde_json::json!({ "automaton_states": states, "verified_nodes": verified });
        record.insert("condition".into(), condition);
    }
    serde_json::Value::Object(record).to_string() + "\n"
}

/// What every JSON record says of one tool's answer (`check` is one, `compare` has one per
/// tool): the tool, its verdict, the depth (of the counterexample, or the bound of an
/// `unknown`) and the time in seconds.
pub(super) fn run_record(
    tool: &str,
    verdict: &str,
    depth: Option<usize>,
    time: std::time::Duration,
) -> serde_json::Map<String, serde_json::Value> {
    let record = serde_json::json!({
        "tool": tool,
        "verdict": verdict,
        "depth": depth,
        "time_s": (time.as_secs_f64() * 1000.0).round() / 1000.0,
    });
    match record {
        serde_json::Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}
