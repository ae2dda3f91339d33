//! The command line contract: verdict and witness on stdout, exit codes, error positions,
//! `warden sim`, waveform and JSON output, and clean stops on signals.

mod common;

use common::warden;

use std::process::{Command, Stdio};

use common::circuit;

fn temp(name: &str) -> std::path::PathBuf {
    common::scratch_file("cli", name)
}

#[test]
fn sat_prints_the_verdict_and_an_aiger_witness_that_sim_accepts() {
    let model = circuit("counter3_enable_sat.aag");
    let wfile = temp("counter.wit");
    let out = warden(&[
        "check",
        &model,
        "--engine",
        "bmc",
        "--witness",
        wfile.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "sat");
    assert_eq!(lines[1], "1");
    assert_eq!(lines[2], "b0");
    assert_eq!(lines.len(), 3 + 1 + 7 + 1, "init line, 7 frames, '.'");
    assert_eq!(*lines.last().unwrap(), ".");
    // The file holds the witness without the verdict line, and `sim` accepts it.
    assert_eq!(
        std::fs::read_to_string(&wfile).unwrap(),
        stdout["sat\n".len()..]
    );
    let sim = warden(&["sim", &model, wfile.to_str().unwrap()]);
    assert_eq!(
        sim.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&sim.stdout)
    );
}

#[test]
fn sim_rejects_a_witness_that_does_not_reach_the_property() {
    let model = circuit("counter3_enable_sat.aag");
    let wfile = temp("short.wit");
    std::fs::write(&wfile, "1\nb0\n000\n1\n1\n.\n").unwrap();
    let sim = warden(&["sim", &model, wfile.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&sim.stdout).contains("not reached"));
}

#[test]
fn bounded_run_reports_unknown_with_its_bound() {
    let out = warden(&[
        "check",
        &circuit("counter4_wrap_unsat.aag"),
        "--engine",
        "bmc",
        "--max-depth",
        "7",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no counterexample up to depth 7"));
}

/// A reader that closes stdout before the verdict (`warden check ... | head -0`) costs the
/// run nothing else: no panic, exit 0, and the `--json` file written with the verdict.
#[test]
fn a_closed_stdout_still_writes_the_json_and_exits_cleanly() {
    let json = temp("closed-stdout.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(["check", &circuit("counter4_sat.aag"), "--engine", "bmc"])
        .args(["--json", json.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panic"), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(json["verdict"], "sat");
}

#[test]
fn vcd_and_json_outputs_are_written() {
    let vcd = temp("trace.vcd");
    let json = temp("run.json");
    let out = warden(&[
        "check",
        &circuit("counter4_sat.aag"),
        "--engine",
        "bmc",
        "--vcd",
        vcd.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let vcd = std::fs::read_to_string(vcd).unwrap();
    assert!(vcd.contains("$enddefinitions $end"));
    assert!(vcd.contains("#11"), "11 frames in the waveform");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(json["verdict"], "sat");
    assert_eq!(json["depth"], 11);
    assert_eq!(json["engine"], "bmc");
}

#[test]
fn json_escapes_a_quote_in_the_file_name() {
    let model = temp("we\"ird\\name.aag");
    std::fs::copy(circuit("counter4_wrap_unsat.aag"), &model).unwrap();
    let json = temp("quoted.json");
    let out = warden(&[
        "check",
        model.to_str().unwrap(),
        "--engine",
        "ic3",
        "--stats",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(json).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(json["model"], model.to_str().unwrap());
    assert_eq!(json["verdict"], "unsat");
    assert!(json["depth"].is_null());
    assert!(json["stats"].is_object(), "{text}");
}

#[test]
fn malformed_models_exit_2_with_file_and_position() {
    let cases: &[(&str, &[u8], &str)] = &[
        ("header.aag", b"aag 1 1 0\n2\n", "line 1"),
        ("range.aag", b"aag 1 1 0 1 0\n2\n4\n", "line 3"),
        ("undefined.aag", b"aag 3 1 0 1 1\n2\n6\n6 2 4\n", "line 4"),
        ("cycle.aag", b"aag 3 1 0 1 2\n2\n4\n4 2 6\n6 4 2\n", "cycl"),
        ("truncated.aig", b"aig 3 2 0 1 1\n6\n\x02", "byte"),
        ("latch.aag", b"aag 1 0 1 0 0\n2 5\n", "line 2"),
    ];
    for (name, data, position) in cases {
        let path = temp(name);
        std::fs::write(&path, data).unwrap();
        let out = warden(&["check", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name), "{name}: error names the file: {err}");
        assert!(
            err.contains(position),
            "{name}: error names '{position}': {err}"
        );
        assert!(out.stdout.is_empty(), "{name}: no verdict on bad input");
    }
}

#[test]
fn missing_file_and_bad_usage_are_errors() {
    assert_eq!(
        warden(&["check", "/nonexistent/model.aag"]).status.code(),
        Some(2)
    );
    assert_eq!(warden(&["check"]).status.code(), Some(1));
    assert_eq!(warden(&["frobnicate"]).status.code(), Some(1));
}

#[test]
fn sigterm_prints_unknown_and_exits_cleanly() {
    // A deep BMC run on a circuit whose bug is never found: stopped by SIGTERM.
    let child = Command::new(env!("CARGO_BIN_EXE_warden"))
        .args([
            "check",
            &circuit("counter8_mod200_unsat.aag"),
            "--engine",
            "bmc",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n");
}

#[test]
fn a_file_named_check_does_not_turn_check_into_the_hwmcc_form() {
    let dir = temp("with-check-file");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("check"), "not a model").unwrap();
    std::fs::copy(circuit("counter4_sat.aag"), dir.join("m.aag")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(["check", "m.aag", "--engine", "bmc"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The `check` form prints the witness after the verdict; the HWMCC form only the verdict.
    assert!(stdout.starts_with("sat\n1\nb0\n"), "{stdout}");
}

#[test]
fn hwmcc_form_writes_the_witness_to_the_file_and_only_the_verdict_to_stdout() {
    let model = circuit("counter4_sat.aag");
    let cex = temp("hwmcc.cex");
    let out = warden(&[&model, cex.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sat\n");
    let sim = warden(&["sim", &model, cex.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(0));
}

#[test]
fn an_option_after_the_model_of_the_hwmcc_form_is_a_usage_error_not_a_file_name() {
    let dir = temp("hwmcc-option");
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_warden"))
        .args([circuit("counter4_sat.aag").as_str(), "-v", "--stats"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("warden check"), "{stderr}");
    assert!(
        !dir.join("-v").exists(),
        "no witness file named after the option"
    );
}

#[test]
fn imc_invariants_become_witness_circuits_that_certify_accepts() {
    // Circuits that keep latches after preprocessing, so the invariant is made of
    // interpolants (one with constraints, one with inputs in a pipeline, one mod-6 counter).
    for name in [
        "updown_assume_unsat.aag",
        "pipeline_eq_unsat.aag",
        "counter3_mod6_unsat.aag",
    ] {
        let model = circuit(name);
        let cert = temp(&format!("imc-{name}"));
        let out = warden(&[
            "check",
            &model,
            "--engine",
            "imc",
            "--cert",
            cert.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n", "{name}");
        let certify = warden(&["certify", &model, cert.to_str().unwrap()]);
        assert_eq!(certify.status.code(), Some(0), "{name}: {certify:?}");
    }
}

#[test]
fn cegar_axes_are_options_and_invalid_combinations_are_usage_errors() {
    let model = circuit("counter4_wrap_unsat.aag");
    for extra in [
        &["--abstract-engine", "ic3", "--init-prec", "empty"][..],
        // Localization's IC3 takes the IC3 options (configuration `cegar-loc-cdcl`).
        &["--ic3-sat", "cdcl", "--ic3-po-order", "deepest"][..],
        &["--refinement", "seq-itp"][..],
        &[
            "--domain",
            "pred-split",
            "--refinement",
            "seq-itp",
            "--search",
            "dfs",
        ][..],
        &[
            "--domain",
            "pred-bool",
            "--refinement",
            "seq-itp",
            "--pred-split",
            "atoms",
        ][..],
    ] {
        let mut args = vec!["check", &model, "--engine", "cegar"];
        args.extend_from_slice(extra);
        let out = warden(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n", "{extra:?}");
    }
    let out = warden(&[
        "check",
        &model,
        "--engine",
        "cegar",
        "--domain",
        "pred-cart",
        "--refinement",
        "unsat-core",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "unsat-core needs the explicit domain"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn options_the_engine_would_ignore_or_remap_are_usage_errors_naming_option_engine_input() {
    let aag = circuit("counter4_sat.aag");
    let c = circuit("c/wrap_sat.c");
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            &aag,
            &["--engine", "ic3", "--max-depth", "3"],
            &["--max-depth", "ic3", "circuits"],
        ),
        (
            &aag,
            &["--engine", "bmc", "--jobs", "2"],
            &["--jobs", "bmc"],
        ),
        (&aag, &["--domain", "pred-cart"], &["--domain", "portfolio"]),
        // The portfolio's BMC and IC3 workers take their options from the configuration
        // table; the portfolio set only means something to the portfolio.
        (&aag, &["--bmc-step", "4"], &["--bmc-*", "portfolio"]),
        (
            &aag,
            &["--engine", "kind", "--bmc-jump"],
            &["--bmc-*", "kind"],
        ),
        (
            &aag,
            &["--engine", "bmc", "--ic3-ctp"],
            &["--ic3-*", "bmc", "circuits"],
        ),
        (
            &aag,
            &["--engine", "ic3", "--portfolio", "wide"],
            &["--portfolio", "ic3", "circuits"],
        ),
        (
            &c,
            &["--engine", "cegar", "--prep", "ternary"],
            &["--prep", "cegar", "C programs"],
        ),
        (
            &aag,
            &["--engine", "kind", "--max-enum", "4"],
            &["--max-enum", "kind"],
        ),
        (
            &aag,
            &["--engine", "bmc", "--data-model", "lp64"],
            &["--data-model", "circuits"],
        ),
        (
            &aag,
            &["--engine", "cegar", "--abstract-engine", "bmc", "--ic3-ctp"],
            &["--ic3-*", "cegar", "--abstract-engine bmc", "circuits"],
        ),
        (
            &aag,
            &["--engine", "cegar", "--search", "dfs"],
            &["--search", "cegar", "--abstract-engine ic3", "circuits"],
        ),
        (
            &aag,
            &[
                "--engine",
                "cegar",
                "--domain",
                "pred-cart",
                "--search",
                "err",
            ],
            &["--search err", "cegar", "circuits"],
        ),
        (
            &aag,
            &[
                "--engine",
                "cegar",
                "--domain",
                "pred-cart",
                "--abstract-engine",
                "bmc",
            ],
            &["--abstract-engine", "--domain pred-cart"],
        ),
        (
            &aag,
            &[
                "--engine",
                "cegar",
                "--domain",
                "pred-cart",
                "--refinement",
                "unsat-core",
            ],
            &["--refinement unsat-core", "cegar", "circuits"],
        ),
        (
            &c,
            &["--engine", "cegar", "--domain", "pred-bool"],
            &["--domain pred-bool", "cegar", "C programs"],
        ),
        (
            &c,
            &[
                "--engine",
                "cegar",
                "--domain",
                "pred-cart",
                "--refinement",
                "unsat-core",
            ],
            &["--refinement unsat-core needs --domain expl", "C programs"],
        ),
        (
            &aag,
            &["--engine", "symex"],
            &["--engine symex", "circuits", "C programs"],
        ),
        (
            &aag,
            &["--engine", "ufo"],
            &["--engine ufo", "circuits", "C program"],
        ),
        (
            &c,
            &["--engine", "cegar", "--ufo-post", "bool"],
            &["--ufo-post", "--engine cegar", "C programs"],
        ),
        (
            &c,
            &["--engine", "cegar", "--abstract-engine", "arg"],
            &["--abstract-engine", "cegar", "C programs"],
        ),
        (
            &c,
            &["--engine", "cegar", "--max-depth", "9"],
            &["--max-depth", "C programs"],
        ),
        (
            &aag,
            &["--wl-simplify", "false"],
            &["--wl-simplify", "BTOR2"],
        ),
        (
            &c,
            &["--wl-simplify", "true"],
            &["--wl-simplify", "C programs"],
        ),
    ];
    for (model, extra, named) in cases {
        let mut args = vec!["check", model];
        args.extend_from_slice(extra);
        let out = warden(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}: no verdict");
        for word in *named {
            assert!(
                err.contains(word),
                "{extra:?}: the message names {word}: {err}"
            );
        }
    }
}

#[test]
fn default_options_fit_every_domain_and_input() {
    // The refinement follows the domain: pred-cart alone interpolates on circuits, and the
    // explicit domain on a C program (no unsat cores there) does too.
    let cases = [
        (
            circuit("counter4_sat.aag"),
            &["--domain", "pred-cart"][..],
            "sat\n",
        ),
        (
            circuit("counter4_wrap_unsat.aag"),
            &["--domain", "prod"][..],
            "unsat\n",
        ),
        (circuit("c/wrap_sat.c"), &[][..], "sat\n"),
        (
            circuit("c/division_unsat.c"),
            &["--domain", "pred-cart"][..],
            "unsat\n",
        ),
    ];
    for (model, extra, verdict) in cases {
        let mut args = vec!["check", &model, "--engine", "cegar"];
        args.extend_from_slice(extra);
        let out = warden(&args);
        assert_eq!(out.status.code(), Some(0), "{model} {extra:?}: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.starts_with(verdict), "{model} {extra:?}: {stdout}");
    }
}

#[test]
fn btor2_verdicts_witnesses_and_certificates_hold_with_and_without_wl_simplify() {
    for flag in ["true", "false"] {
        let sat = circuit("btor2/twin_counters_sat.btor2");
        let witness = temp(&format!("twins-{flag}.wit"));
        let w = witness.to_str().unwrap();
        let out = warden(&["check", &sat, "--wl-simplify", flag, "--witness", w]);
        assert!(out.stdout.starts_with(b"sat\n"), "{flag}: {out:?}");
        assert_eq!(warden(&["sim", &sat, w]).status.code(), Some(0), "{flag}");

        let unsat = circuit("btor2/twin_counters_unsat.btor2");
        let cert = temp(&format!("twins-{flag}.aag"));
        let c = cert.to_str().unwrap();
        let out = warden(&["check", &unsat, "--wl-simplify", flag, "--cert", c]);
        assert!(out.stdout.starts_with(b"unsat\n"), "{flag}: {out:?}");
        // A certificate refers to the system `blast` writes with the same option.
        let certify = warden(&["certify", &unsat, c, "--wl-simplify", flag]);
        assert_eq!(certify.status.code(), Some(0), "{flag}: {certify:?}");
    }
}
