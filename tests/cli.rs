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
    // The error line: `warden: FILE:LINE: message`, or the byte of a binary file.
    let cases: &[(&str, &[u8], &str)] = &[
        ("header.aag", b"aag 1 1 0\n2\n", ":1: "),
        ("range.aag", b"aag 1 1 0 1 0\n2\n4\n", ":3: "),
        ("undefined.aag", b"aag 3 1 0 1 1\n2\n6\n6 2 4\n", ":4: "),
        (
            "cycle.aag",
            b"aag 3 1 0 1 2\n2\n4\n4 2 6\n6 4 2\n",
            ":5: cycl",
        ),
        ("truncated.aig", b"aig 3 2 0 1 1\n6\n\x02", ": byte "),
        ("latch.aag", b"aag 1 0 1 0 0\n2 5\n", ":2: "),
    ];
    for (name, data, position) in cases {
        let path = temp(name);
        std::fs::write(&path, data).unwrap();
        let out = warden(&["check", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        let located = format!("warden: {}{position}", path.display());
        assert!(err.starts_with(&located), "{name}: '{located}...': {err}");
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
            &["--engine", "ic3", "--portfolio", "proofs"],
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

#[test]
fn check_help_is_one_screen_under_headings_and_help_all_has_every_option() {
    let help = warden(&["check", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.lines().count() <= 80,
        "{} lines:\n{help}",
        help.lines().count()
    );
    let headings = [
        "Input:",
        "Engine:",
        "Limits:",
        "Output:",
        "C programs:",
        "Verilog",
    ];
    for heading in headings {
        assert!(
            help.lines().any(|l| l.starts_with(heading)),
            "{heading}\n{help}"
        );
    }
    assert!(
        help.contains("--timeout") && help.contains("--help-all"),
        "{help}"
    );
    // The tuning options are left to --help-all, which has every one.
    assert!(
        !help.contains("--ic3-ctp") && !help.contains("Tuning"),
        "{help}"
    );
    let all = warden(&["check", "--help-all"]);
    assert_eq!(all.status.code(), Some(0));
    let all = String::from_utf8(all.stdout).unwrap();
    for option in [
        "--ic3-ctp",
        "--bmc-step",
        "--domain",
        "--prep",
        "--ufo-post",
        "--timeout",
    ] {
        assert!(all.contains(option), "{option}\n{all}");
    }
    assert!(all.lines().any(|l| l.starts_with("Tuning: IC3")), "{all}");
    // The engines' descriptions, which --help names only.
    assert!(
        all.contains("sequence:") && !help.contains("sequence:"),
        "{all}"
    );
}

/// Whether `text` names an internal path, a date, a paper or a seed number: things a user's
/// help text has no use for.
fn internal_words(text: &str) -> Vec<&str> {
    let date = |w: &str| {
        let b = w.as_bytes();
        b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && b[7] == b'-'
    };
    (text.split(|c: char| c.is_whitespace() || "()[],;`'\"".contains(c)))
        .filter(|w| {
            w.contains("crate::")
                || w.starts_with("src/")
                || date(w)
                || ["FMCAD", "CAV", "Seed", "seed"].contains(w)
        })
        .collect()
}

#[test]
fn help_texts_name_no_internal_paths_dates_or_papers() {
    let mut texts = vec![warden(&["check", "--help-all"]), warden(&["configs"])];
    for command in [
        "sim",
        "blast",
        "certify",
        "compare",
        "man",
        "completions",
        "configs",
    ] {
        texts.push(warden(&[command, "--help"]));
    }
    texts.push(warden(&["--help"]));
    for out in texts {
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.is_empty());
        assert_eq!(internal_words(&text), Vec::<&str>::new(), "{text}");
    }
    assert_eq!(
        internal_words("see [`crate::check`], src/cli.rs, 2026-11-28, FMCAD 2015, seed 003"),
        ["crate::check", "src/cli.rs", "2026-11-28", "FMCAD", "seed"]
    );
}

#[test]
fn configs_lists_a_handful_of_portfolios_each_with_its_use() {
    let out = warden(&["configs"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let section = |title: &str| -> Vec<String> {
        (text.lines())
            .skip_while(|l| !l.starts_with(title))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter(|l| !l.starts_with("   "))
            .map(|l| l.split_whitespace().next().unwrap().to_owned())
            .collect()
    };
    let portfolios = section("portfolios");
    assert!((2..=6).contains(&portfolios.len()), "{text}");
    assert_eq!(portfolios[0], "default");
    assert!(portfolios.contains(&"default-large".to_owned()), "{text}");
    // Every portfolio is one that `--portfolio` takes, and so are no others.
    let help = String::from_utf8(warden(&["check", "--help-all"]).stdout).unwrap();
    let listed = help
        .lines()
        .find_map(|l| l.trim().strip_prefix("[possible values: default,"))
        .unwrap_or_else(|| panic!("{help}"));
    assert_eq!(1 + listed.split(',').count(), portfolios.len(), "{listed}");
    // The engines and the single configurations are listed too.
    assert!(section("engines").contains(&"ic3".to_owned()), "{text}");
    let configurations = section("configurations");
    for name in ["ic3-cdcl-dynamic", "ic3-ctp", "bmc-deep", "cegar-loc"] {
        assert!(configurations.contains(&name.to_owned()), "{name}\n{text}");
    }
}

#[test]
fn man_pages_and_completions_come_from_the_command_line_itself() {
    let man = warden(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let man = String::from_utf8(man.stdout).unwrap();
    // roff: one `.TH` per page, dashes escaped.
    assert!(
        man.contains(".TH warden 1") && man.contains(".TH warden-check 1"),
        "{man}"
    );
    assert!(
        man.contains("\\-\\-timeout") && man.contains("\\-\\-ic3\\-ctp"),
        "{man}"
    );
    let dir = temp("man");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = warden(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let check = std::fs::read_to_string(dir.join("warden-check.1")).unwrap();
    assert!(check.contains("\\-\\-portfolio"), "{check}");
    assert!(dir.join("warden.1").exists() && dir.join("warden-configs.1").exists());
    let bash = warden(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0));
    let bash = String::from_utf8(bash.stdout).unwrap();
    assert!(
        bash.contains("--engine") && bash.contains("--ic3-ctp"),
        "{bash}"
    );
    assert!(bash.contains("complete -F"), "{bash}");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = warden(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        // fish names an option without its dashes (`-l timeout`).
        let script = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            script.contains("timeout") && script.contains("ic3-ctp"),
            "{shell}"
        );
    }
    assert_eq!(warden(&["completions", "tcsh"]).status.code(), Some(1));
}

#[test]
fn version_names_the_commit_built() {
    let out = warden(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let version = String::from_utf8(out.stdout).unwrap();
    let commit = version
        .trim_end()
        .strip_prefix(concat!("warden ", env!("CARGO_PKG_VERSION"), " ("))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{version}"));
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match head {
        Ok(head) if head.status.success() => {
            let head = String::from_utf8(head.stdout).unwrap();
            let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
            assert_eq!(hash, head.trim(), "{version}");
        }
        _ => assert_eq!(commit, "unknown"),
    }
}

#[test]
fn usage_errors_are_said_like_every_error_line() {
    let out = warden(&["check", "--frobnicate", &circuit("counter4_sat.aag")]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("warden: unexpected argument '--frobnicate'"),
        "{err}"
    );
    let out = warden(&[
        "check",
        &circuit("counter4_sat.aag"),
        "--engine",
        "bmc",
        "--jobs",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("warden: --jobs is ignored by --engine bmc"),
        "{err}"
    );
}
