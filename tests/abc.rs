//! ABC beside warden: ABC's own counterexample files checked by `warden sim` (and tampered
//! ones rejected), and `warden compare` (verdicts, checks, agreement, JSON). Skips with a
//! message where `berkeley-abc` is not installed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{circuit, warden};

fn temp(name: &str) -> PathBuf {
    common::scratch_file("abc", name)
}

fn abc() -> Option<PathBuf> {
    match ::warden::abc::find_binary(None) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// The files `write_cex` (plain, `-n`, `-a`) and `write_aiger_cex` give for `model` after
/// `prepare` and bmc3, written by ABC itself; the binary AIGER it reads is `warden blast`'s.
fn abc_files(abc: &Path, model: &str, prepare: &str) -> Vec<PathBuf> {
    let stem = Path::new(model).file_stem().unwrap().to_str().unwrap();
    let aig = temp(&format!("{stem}.aig"));
    let blast = warden(&["blast", model, aig.to_str().unwrap()]);
    assert_eq!(blast.status.code(), Some(0));
    let names = ["plain.cex", "n.cex", "a.cex", "aiger.cex"].map(|n| format!("{stem}.{n}"));
    let script = format!(
        "read {stem}.aig; {prepare}bmc3 -F 40; write_cex {}; write_cex -n {}; write_cex -a {}; \
         write_aiger_cex {}",
        names[0], names[1], names[2], names[3]
    );
    let out = Command::new(abc)
        .arg("-c")
        .arg(script)
        .current_dir(aig.parent().unwrap())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("was asserted"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    names.iter().map(|n| temp(n)).collect()
}

fn sim(model: &str, file: &Path) -> (Option<i32>, String) {
    let out = warden(&["sim", model, file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.code(),
        text + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn abc_s_own_counterexample_files_replay_and_tampered_ones_do_not() {
    let Some(abc) = abc() else { return };
    // The model as it is; with constraints (fold adds a latch); with an uninitialised latch
    // (undc adds an input and a latch).
    let cases = [
        ("shift4_glitch_sat.aag", ""),
        ("constraint_sat.aag", "logic; undc; strash; fold; zero; "),
        ("uninit_sat.aag", "logic; undc; strash; fold; zero; "),
    ];
    for (name, prepare) in cases {
        let model = circuit(name);
        let files = abc_files(&abc, &model, prepare);
        for file in &files {
            let (code, text) = sim(&model, file);
            assert_eq!(code, Some(0), "{name} {}: {text}", file.display());
            assert!(text.contains("valid: bad property b0"), "{text}");
        }
        // Every input value 0 (the bits after the latch values of the `-a` file): none of
        // these circuits fails then.
        let a = std::fs::read_to_string(&files[2]).unwrap();
        let (latches, frames) = a.split_once('\n').unwrap();
        let tampered = temp(&format!("{name}.tampered.cex"));
        std::fs::write(
            &tampered,
            format!("{latches}\n{}", frames.replace('1', "0")),
        )
        .unwrap();
        let (code, text) = sim(&model, &tampered);
        assert_eq!(code, Some(1), "{name}: {text}");
        assert!(text.contains("invalid"), "{text}");
    }
}

/// `warden compare` with `args`: exit code, stdout, and the JSON record.
fn compare(model: &str, args: &[&str]) -> (Option<i32>, String, serde_json::Value) {
    let json = temp(&format!(
        "{}.json",
        Path::new(model)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace('"', "_")
    ));
    let mut all = vec![
        "compare",
        model,
        "--timeout",
        "20",
        "--json",
        json.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let out = warden(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let record = std::fs::read_to_string(&json).unwrap_or_else(|_| panic!("no JSON: {stdout}"));
    (
        out.status.code(),
        stdout,
        serde_json::from_str(&record).unwrap(),
    )
}

/// The run record of `tool` in a compare record.
fn run<'a>(record: &'a serde_json::Value, tool: &str) -> &'a serde_json::Value {
    let runs = record["runs"].as_array().unwrap();
    runs.iter().find(|r| r["tool"] == tool).unwrap()
}

#[test]
fn compare_checks_both_answers_and_reports_agreement() {
    let Some(_) = abc() else { return };
    // sat with a constraint; unsat with an uninitialised latch (ABC's pdr invariant checked);
    // a BTOR2 model (ABC on the bit-blasted system).
    let cases = [
        ("constraint_sat.aag", "sat", Some(2)),
        ("uninit_unsat.aag", "unsat", None),
        ("counter4_wrap_unsat.aag", "unsat", None),
        // Outputs beside bad properties and constraints (ABC would read the outputs as
        // properties: compare gives it the bad properties only).
        ("updown_assume_unsat.aag", "unsat", None),
        ("btor2/counter_sat.btor2", "sat", Some(10)),
    ];
    for (name, verdict, depth) in cases {
        let (code, stdout, record) = compare(&circuit(name), &[]);
        assert_eq!(code, Some(0), "{name}: {stdout}");
        assert!(
            stdout.contains(&format!("agree: both {verdict}")),
            "{stdout}"
        );
        assert_eq!(record["command"], "compare");
        assert_eq!(record["agree"], true);
        for tool in ["warden", "abc"] {
            let r = run(&record, tool);
            assert_eq!(r["verdict"], verdict, "{name} {tool}: {stdout}");
            assert_eq!(r["check"]["status"], "passed", "{name} {tool}: {stdout}");
        }
        if let Some(d) = depth {
            assert_eq!(run(&record, "abc")["depth"], d, "{stdout}");
        }
    }
}

#[test]
fn compare_names_the_right_tool_when_they_disagree() {
    // A stand-in for ABC that claims every model safe, without an invariant.
    let liar = temp("liar-abc");
    std::fs::write(
        &liar,
        "#!/bin/sh\necho 'Property proved.  Time = 0.00 sec'\n",
    )
    .unwrap();
    let chmod = Command::new("chmod").arg("+x").arg(&liar).status().unwrap();
    assert!(chmod.success());
    let model = temp("quote\"d.aag");
    std::fs::copy(circuit("counter4_sat.aag"), &model).unwrap();
    let model = model.to_str().unwrap().to_owned();
    let (code, stdout, record) = compare(&model, &["--abc-bin", liar.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("DISAGREE: warden says sat, abc says unsat; right: warden"),
        "{stdout}"
    );
    assert_eq!(
        record["model"],
        model.as_str(),
        "the quote survives the JSON"
    );
    assert_eq!(record["agree"], false);
    assert_eq!(record["right"], "warden");
    assert_eq!(run(&record, "abc")["check"]["status"], "unchecked");
}

#[test]
fn compare_refuses_an_abc_command_that_is_not_one_engine() {
    // Pasted into ABC's script, each would run a command of its own: a file written, a
    // script read. Refused before ABC (or even the model) is read.
    let dir = temp("abc-cmd");
    std::fs::create_dir_all(&dir).unwrap();
    for cmd in [
        "pdr; write_aiger PWNED",
        "write_verilog PWNED",
        "source PWNED",
        "pdr -I PWNED",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_warden"))
            .args(["compare", &circuit("counter4_sat.aag"), "--abc-cmd", cmd])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {err}");
        assert!(
            err.contains("--abc-cmd") && err.contains(cmd),
            "{cmd}: {err}"
        );
        assert!(!dir.join("PWNED").exists(), "{cmd}");
    }
}
