//! SV-COMP conventions of `warden check` on C programs: `--spec` property files and the YAML
//! witnesses of `--witness-format svcomp`, read back with a YAML parser. A violation
//! witness's values, fed alone to the CFA interpreter, reach the error again at its target.

mod common;

use std::path::{Path, PathBuf};

use serde_yaml::Value as Yaml;
use sha2::{Digest, Sha256};

use common::{root, scratch_file, warden};
use warden::cfa;
use warden::front::{self, Source};
use warden::wl::{BitVec, Value};

/// A property file for `unreach-call` of `function`.
fn spec(function: &str) -> PathBuf {
    let p = scratch_file("svcomp", &format!("{function}.prp"));
    let text = format!("CHECK( init(main()), LTL(G ! call({function}())) )\n");
    std::fs::write(&p, text).unwrap();
    p
}

/// `warden check --spec --witness-format svcomp` on `program`: the verdict line, stderr and
/// the witness read as YAML (`Null` if none was written).
fn check(program: &Path, function: &str, tag: &str) -> (String, String, Yaml) {
    let witness = scratch_file("svcomp", &format!("{tag}.yml"));
    let _ = std::fs::remove_file(&witness);
    let out = warden(&[
        "check".as_ref(),
        program.as_os_str(),
        "--spec".as_ref(),
        spec(function).as_os_str(),
        "--witness-format".as_ref(),
        "svcomp".as_ref(),
        "--witness".as_ref(),
        witness.as_os_str(),
        "--timeout".as_ref(),
        "60".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let yaml = match std::fs::read_to_string(&witness) {
        Ok(text) => serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}")),
        Err(_) => Yaml::Null,
    };
    let verdict = stdout.lines().next().unwrap_or("").to_owned();
    (verdict, String::from_utf8(out.stderr).unwrap(), yaml)
}

/// The one entry of a witness, checked to be of `entry_type` and to name its task.
fn entry<'y>(yaml: &'y Yaml, entry_type: &str, program: &Path, function: &str) -> &'y Yaml {
    let entries = yaml.as_sequence().expect("a list of entries");
    assert_eq!(entries.len(), 1);
    let e = &entries[0];
    assert_eq!(e["entry_type"].as_str(), Some(entry_type));
    let meta = &e["metadata"];
    assert_eq!(meta["format_version"].as_str(), Some("2.0"));
    assert_eq!(meta["producer"]["name"].as_str(), Some("warden"));
    assert_eq!(meta["uuid"].as_str().map(str::len), Some(36));
    let task = &meta["task"];
    let file = program.display().to_string();
    assert_eq!(task["input_files"][0].as_str(), Some(file.as_str()));
    let hash: String = Sha256::digest(std::fs::read(program).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        task["input_file_hashes"][file.as_str()].as_str(),
        Some(hash.as_str())
    );
    let stated = format!("CHECK( init(main()), LTL(G ! call({function}())) )");
    assert_eq!(task["specification"].as_str(), Some(stated.as_str()));
    assert_eq!(task["data_model"].as_str(), Some("ILP32"));
    e
}

/// The waypoints of a violation entry, in order: (type, line, column, constraint).
fn waypoints(e: &Yaml) -> Vec<(String, u64, u64, Option<String>)> {
    let segments = e["content"].as_sequence().expect("segments");
    (segments.iter())
        .flat_map(|s| s["segment"].as_sequence().expect("waypoints").iter())
        .map(|w| {
            let w = &w["waypoint"];
            assert_eq!(w["action"].as_str(), Some("follow"));
            let at = &w["location"];
            (
                w["type"].as_str().unwrap().to_owned(),
                at["line"].as_u64().unwrap(),
                at["column"].as_u64().unwrap(),
                w["constraint"]["value"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

#[test]
fn violation_witnesses_lead_the_interpreter_to_the_error_call() {
    for name in ["wrap_sat.c", "inline_calls_sat.c"] {
        let program = root().join("circuits/c").join(name);
        let (verdict, stderr, yaml) = check(&program, "reach_error", name);
        assert_eq!(verdict, "sat", "{name}: {stderr}");
        assert!(
            stderr.contains("SV-COMP verdict: false(unreach-call)"),
            "{stderr}"
        );
        let points = waypoints(entry(&yaml, "violation_sequence", &program, "reach_error"));
        let (target, returns) = points.split_last().expect("waypoints");
        assert_eq!(target.0, "target");
        let source = std::fs::read_to_string(&program).unwrap();
        let row = source.lines().nth(target.1 as usize - 1).unwrap();
        assert!(
            row[target.2 as usize - 1..].starts_with("reach_error("),
            "{name}: target at {}:{} is {row:?}",
            target.1,
            target.2
        );
        // Each value at the closing parenthesis of its call, in drawing order: the values
        // alone replay the path to the error.
        let model = front::load(&program).unwrap();
        let Source::C { cfa, .. } = &model.source else {
            panic!("{name}: not C")
        };
        let mut values = Vec::new();
        for (kind, line, column, constraint) in returns {
            assert_eq!(kind, "function_return");
            let row = source.lines().nth(*line as usize - 1).unwrap();
            assert_eq!(
                &row[*column as usize - 1..*column as usize],
                ")",
                "{name}: {row}"
            );
            let c = constraint.as_deref().expect("a constraint");
            let v: i64 = c.strip_prefix("\\result == ").unwrap().parse().unwrap();
            let source = (cfa.nondets.iter())
                .find(|n| n.line == *line as u32)
                .expect("a nondet call on that line");
            let w = cfa
                .terms
                .sort(source.term)
                .bv_width()
                .expect("a bit-vector");
            let bits: Vec<bool> = (0..w).map(|i| (v >> i.min(63)) & 1 == 1).collect();
            values.push(Value::Bv(BitVec::from_bits(&bits)));
        }
        let run = cfa::path::replay(cfa, values, 10_000).unwrap();
        assert!(run.reached(cfa), "{name}");
    }
}

#[test]
fn an_error_path_found_under_a_property_replays_with_warden_sim() {
    // The native path records the error function (`--error-call`), so `warden sim` reads
    // the program as the property made the check read it.
    let program = common::circuit("c/inline_calls_sat.c");
    let path = scratch_file("svcomp", "assert.path");
    let prp = spec("__VERIFIER_assert");
    let args = ["check", &program, "--spec", prp.to_str().unwrap()];
    let out = warden(&[&args[..], &["--witness", path.to_str().unwrap()]].concat());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().next(),
        Some("sat")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("--error-call __VERIFIER_assert"), "{text}");
    let sim = warden(&["sim", &program, path.to_str().unwrap()]);
    assert_eq!(
        sim.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
}

#[test]
fn a_correctness_witness_names_its_task() {
    let program = root().join("circuits/c/loop_counter_unsat.c");
    let (verdict, stderr, yaml) = check(&program, "reach_error", "correct");
    assert_eq!(verdict, "unsat", "{stderr}");
    assert!(stderr.contains("SV-COMP verdict: true"), "{stderr}");
    let e = entry(&yaml, "invariant_set", &program, "reach_error");
    assert!(e["content"].as_sequence().is_some());
}

#[test]
fn the_property_decides_which_calls_are_the_error() {
    // glibc's failing `assert` is an `abort` under unreach-call of reach_error: no error.
    let glibc = root().join("circuits/c/glibc_assert_sat.c");
    let (verdict, stderr, yaml) = check(&glibc, "reach_error", "glibc");
    assert_eq!(verdict, "unsat", "{stderr}");
    assert!(yaml.is_sequence());
    // Another function as the error: its first call is reached at once.
    let calls = root().join("circuits/c/inline_calls_sat.c");
    let (verdict, stderr, yaml) = check(&calls, "__VERIFIER_assert", "assert");
    assert_eq!(verdict, "sat", "{stderr}");
    let points = waypoints(entry(
        &yaml,
        "violation_sequence",
        &calls,
        "__VERIFIER_assert",
    ));
    assert_eq!(points.last().map(|p| p.1), Some(20), "the call in main");
}

#[test]
fn other_properties_are_unsupported_and_bad_files_are_input_errors() {
    let program = common::circuit("c/wrap_sat.c");
    let file = scratch_file("svcomp", "overflow.prp");
    std::fs::write(&file, "CHECK( init(main()), LTL(G ! overflow) )\n").unwrap();
    let out = warden(&["check", &program, "--spec", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unsupported property no-overflow"));
    std::fs::write(
        &file,
        "\nCHECK( init(main()), LTL(G ! call(reach_error()) )\n",
    )
    .unwrap();
    let out = warden(&["check", &program, "--spec", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("overflow.prp:2: "));
    // An unsupported construct is `unknown` in SV-COMP's words too.
    let pointers = scratch_file("svcomp", "pointer.c");
    std::fs::write(
        &pointers,
        "int main() { int x = 0; int *p = &x; *p = 1; return 0; }\n",
    )
    .unwrap();
    let (verdict, stderr, _) = check(&pointers, "reach_error", "pointer");
    assert_eq!(verdict, "unknown");
    assert!(
        stderr.contains("unsupported") && stderr.contains("SV-COMP verdict: unknown"),
        "{stderr}"
    );
    // The YAML witness is for C programs, and needs the file to write.
    let aiger = common::circuit("counter4_sat.aag");
    let out = warden(&["check", &aiger, "--witness-format", "svcomp"]);
    assert_eq!(out.status.code(), Some(1));
    let out = warden(&["check", &program, "--witness-format", "svcomp"]);
    assert_eq!(out.status.code(), Some(1));
}

/// The loop invariant of a proof by IC3 names the loop's variables and holds in the program
/// compiled by gcc: checked before every test of the loop condition on random runs.
#[test]
fn loop_invariants_of_a_proof_hold_in_the_compiled_program() {
    let text = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
                int main() {\n  int x = 0;\n  int n = __VERIFIER_nondet_int();\n  \
                while (__VERIFIER_nondet_int()) {\n    x = 1 - x;\n  }\n  \
                if (x != 0 && x != 1) reach_error();\n  return n - n;\n}\n";
    let program = scratch_file("svcomp", "toggle.c");
    std::fs::write(&program, text).unwrap();
    let witness = scratch_file("svcomp", "toggle.yml");
    let out = warden(&[
        "check".as_ref(),
        program.as_os_str(),
        "--engine".as_ref(),
        "ic3".as_ref(),
        "--witness-format".as_ref(),
        "svcomp".as_ref(),
        "--witness".as_ref(),
        witness.as_os_str(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n");
    let yaml: Yaml = serde_yaml::from_str(&std::fs::read_to_string(&witness).unwrap()).unwrap();
    let e = entry(&yaml, "invariant_set", &program, "reach_error");
    let content = e["content"].as_sequence().expect("content");
    assert_eq!(content.len(), 1, "{content:?}");
    let inv = &content[0]["invariant"];
    assert_eq!(inv["type"].as_str(), Some("loop_invariant"));
    assert_eq!(inv["format"].as_str(), Some("c_expression"));
    assert_eq!(inv["location"]["line"].as_u64(), Some(6));
    assert_eq!(inv["location"]["column"].as_u64(), Some(3));
    assert_eq!(inv["location"]["function"].as_str(), Some("main"));
    let value = inv["value"].as_str().unwrap();
    assert!(value.contains('x'), "{value}");
    // The invariant, evaluated before each test of the loop condition, in the compiled
    // program on random inputs: a false one aborts.
    let checked = text
        .replace(
            "while (__VERIFIER_nondet_int())",
            &format!("while (({value}) ? __VERIFIER_nondet_int() : (abort(), 0))"),
        )
        .replace(
            "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n",
            "#include <stdlib.h>\nvoid reach_error(void) { abort(); }\n\
             int __VERIFIER_nondet_int(void) { return rand() % 4; }\n\
             __attribute__((constructor)) static void seed(void) { srand(atoi(getenv(\"SEED\"))); }\n",
        );
    let source = scratch_file("svcomp", "toggle_checked.c");
    std::fs::write(&source, checked).unwrap();
    let binary = scratch_file("svcomp", "toggle_checked");
    let gcc = std::process::Command::new("gcc")
        .arg(&source)
        .arg("-o")
        .arg(&binary)
        .output()
        .expect("gcc runs");
    assert!(
        gcc.status.success(),
        "{}",
        String::from_utf8_lossy(&gcc.stderr)
    );
    for seed in 0..20 {
        let run = std::process::Command::new(&binary)
            .env("SEED", seed.to_string())
            .status()
            .unwrap();
        assert!(run.success(), "the loop invariant {value} failed");
    }
}
