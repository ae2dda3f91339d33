//! BTOR2 end to end: every engine on the BTOR2 circuits of `circuits/` (verdicts, word-level
//! witnesses that replay, certificates), the Yosys-compiled Verilog design with its trace in
//! RTL names, `warden sim` on BTOR2 witnesses, `warden blast`, and malformed input.

mod common;

use common::warden;

use warden::check::{Answer, EngineKind, Proof};
use warden::front::{btor2, Source};
use warden::{cert, wl};

fn temp(name: &str) -> std::path::PathBuf {
    common::scratch_file("btor2", name)
}

fn btor2_circuits() -> Vec<common::Circuit> {
    common::circuits_of_kind("btor2", 5)
}

#[test]
fn every_engine_decides_the_btor2_circuits_with_replayed_word_witnesses() {
    common::each_engine_report(&btor2_circuits(), |engine, c, model, report, budget| {
        let name = format!("{} ({engine:?})", c.path.display());
        let Source::Btor2 { model: words, bits } = &model.source else {
            panic!("{name}: not read as BTOR2");
        };
        match (&report.answer, c.expected.as_str()) {
            (Answer::Sat(trace), "sat") => {
                let lifted = wl::lift_trace(words, bits, &model.ts, trace);
                let frame = wl::replay(words, &lifted).unwrap_or_else(|e| panic!("{name}: {e}"));
                if engine == EngineKind::Bmc {
                    assert_eq!(Some(frame), c.depth, "{name}: shortest depth");
                }
                // The printed witness reads back and replays.
                let text = btor2::write_witness(words, &lifted);
                let w = btor2::parse_witness(&text, words).unwrap();
                assert_eq!(wl::replay(words, &w.trace), Ok(frame), "{name}");
            }
            (Answer::Unsat(Proof::Invariant(inv)), "unsat") => {
                assert_eq!(cert::check(&model.ts, inv, budget), Ok(()), "{name}");
            }
            (Answer::Unknown { depth }, "unsat") if engine == EngineKind::Bmc => {
                assert_eq!(*depth, Some(40), "{name}");
            }
            (a, e) => panic!("{name}: expected {e}, got {a:?}"),
        }
    });
}

#[test]
fn yosys_design_fails_with_a_trace_in_rtl_names() {
    let model = common::root().join("circuits/btor2/accumulator_sat.btor2");
    let model = model.to_str().unwrap();
    let (wit, vcd) = (temp("acc.wit"), temp("acc.vcd"));
    let out = warden(&[
        "check",
        model,
        "--witness",
        wit.to_str().unwrap(),
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(&lines[..4], &["sat", "sat", "b0", "#0"], "{stdout}");
    // #0: the registers by their RTL names (acc via its output, ptr, the memory).
    assert!(lines.contains(&"0 00000000 acc"), "{stdout}");
    assert!(lines.contains(&"2 00 ptr"), "{stdout}");
    assert_eq!(*lines.last().unwrap(), ".");
    // The inputs of frames 0..2 add up to at least 40 (acc is 0 in frame 0).
    let added: u32 = (0..3)
        .map(|k| {
            let block = stdout.split(&format!("@{k}\n")).nth(1).unwrap();
            let line = block.lines().find(|l| l.ends_with(" in")).unwrap();
            u32::from_str_radix(line.split(' ').nth(1).unwrap(), 2).unwrap()
        })
        .sum();
    assert!(added >= 40, "{stdout}");
    let sim = warden(&["sim", model, wit.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&sim.stdout).trim(),
        "valid: bad property b0 is reached in frame 3"
    );
    let waves = std::fs::read_to_string(&vcd).unwrap();
    for var in ["4 \" in", "8 # acc", "2 $ ptr"] {
        assert!(
            waves.contains(&format!("$var wire {var} $end")),
            "{var}: {waves}"
        );
    }
    assert!(waves
        .lines()
        .any(|l| l.starts_with("$var wire 8") && l.ends_with(" last $end")));
}

#[test]
fn sim_rejects_btor2_witnesses_that_miss_the_property_or_are_malformed() {
    let model = common::root().join("circuits/btor2/counter_sat.btor2");
    let model = model.to_str().unwrap();
    let wit = temp("short.wit");
    std::fs::write(&wit, "sat\nb0\n#0\n0 0000 count\n@0\n@1\n.\n").unwrap();
    let sim = warden(&["sim", model, wit.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&sim.stdout).contains("not reached"));
    std::fs::write(&wit, "sat\nb0\n#0\n0 0011 count\n@0\n.\n").unwrap();
    let sim = warden(&["sim", model, wit.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&sim.stdout).contains("other than its init"),
        "{}",
        String::from_utf8_lossy(&sim.stdout)
    );
    std::fs::write(&wit, "sat\nb0\n#0\n0 00 count\n.\n").unwrap();
    let sim = warden(&["sim", model, wit.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&sim.stdout).contains("line 4"));
}

#[test]
fn blast_writes_the_system_that_certificates_refer_to() {
    let model = common::root().join("circuits/btor2/init_from_state_unsat.btor2");
    let model = model.to_str().unwrap();
    let (aig, cert) = (temp("blasted.aig"), temp("cert.aag"));
    let out = warden(&["blast", model, aig.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    // The blasted AIGER is checked like the BTOR2 file...
    let out = warden(&["check", aig.to_str().unwrap(), "--engine", "ic3"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat");
    // ... and the BTOR2 certificate is a witness circuit over it.
    let out = warden(&["check", model, "--cert", cert.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat");
    for m in [model, aig.to_str().unwrap()] {
        let out = warden(&["certify", m, cert.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{m}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn malformed_btor2_exits_2_with_file_line_and_reason() {
    let cases = [
        (
            "1 sort bitvec 8\n2 input 1 x\n3 sort bitvec 1\n4 add 3 2 2\n",
            ":4: ",
            "node 4",
        ),
        (
            "1 sort bitvec 8\n2 input 1 x\n3 bad 9\n",
            ":3: ",
            "not defined",
        ),
        (
            "1 sort bitvec 4\n2 sort array 1 1\n3 sort array 2 2\n",
            ":3: ",
            "unsupported",
        ),
    ];
    for (i, (text, line, what)) in cases.into_iter().enumerate() {
        let path = temp(&format!("bad{i}.btor2"));
        std::fs::write(&path, text).unwrap();
        let out = warden(&["check", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("warden: {}{line}", path.display())) && err.contains(what),
            "{text}: {err}"
        );
        assert!(out.stdout.is_empty());
    }
    // An array too large to expand is encoded lazily (no `unsupported`): a free 2^32-word
    // memory read at an input address reaches the bad state, and the witness names the one
    // element it needs.
    let path = temp("big.btor2");
    std::fs::write(
        &path,
        "1 sort bitvec 32\n2 sort array 1 1\n3 state 2 m\n4 input 1 i\n5 read 1 3 4\n\
         6 sort bitvec 1\n7 redor 6 5\n8 bad 7\n",
    )
    .unwrap();
    let wit = temp("big.wit");
    let out = warden(&[
        "check",
        path.to_str().unwrap(),
        "--witness",
        wit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("sat\nsat\nb0\n#0\n0 ["), "{stdout}");
    let sim = warden(&["sim", path.to_str().unwrap(), wit.to_str().unwrap()]);
    assert_eq!(
        sim.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&sim.stdout)
    );
}

/// `--engine smt` (word-level BMC on Z3) on the BTOR2 circuits and C programs of `circuits/`:
/// every expected `sat` is found, its witness replays in `warden sim` and btorsim (where the
/// checkers build); every expected `unsat` ends `unknown` at the depth bound, the engine
/// proving nothing. AIGER files are refused with a usage error (exit 1).
#[test]
fn the_smt_engine_finds_the_bugs_and_proves_nothing() {
    let checkers = common::checkers::Checkers::get();
    let wit = temp("smt.wit");
    let mut circuits = btor2_circuits();
    circuits.extend(common::circuits_of_kind("c", 3));
    let mut found = 0;
    for c in &circuits {
        let path = c.path.to_str().unwrap();
        let out = warden(&[
            "check",
            path,
            "--engine",
            "smt",
            "--max-depth",
            "12",
            "--witness",
            wit.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let verdict = stdout.lines().next().unwrap_or("");
        assert_eq!(out.status.code(), Some(0), "{path}: {stdout}");
        match c.expected.as_str() {
            "sat" => {
                assert_eq!(verdict, "sat", "{path}");
                found += 1;
                if path.ends_with(".c") {
                    continue; // the CFA interpreter replayed its path before it was printed
                }
                let sim = warden(&["sim", path, wit.to_str().unwrap()]);
                assert!(
                    sim.status.success(),
                    "{path}: warden sim rejects the witness"
                );
                if let Some(checkers) = checkers {
                    let check = checkers.btorsim(&c.path, &wit);
                    assert_eq!(check, common::checkers::Check::Accepted, "{path}");
                }
            }
            _ => assert_eq!(verdict, "unknown", "{path}"),
        }
    }
    assert!(found >= 5, "only {found} sat circuits");
    let aiger = common::circuit("counter4_sat.aag");
    let out = warden(&["check", aiger.as_str(), "--engine", "smt"]);
    assert_eq!(out.status.code(), Some(1), "a usage error");
}
