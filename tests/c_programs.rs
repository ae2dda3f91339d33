//! The C programs of `circuits/c/` through the engines, with every error path confirmed by
//! the CFA interpreter, and `warden check` on C files: verdict lines, error paths, unsupported
//! programs as `unknown`, syntax errors as input errors.

mod common;

use common::warden;

use warden::cfa::{self, interp};
use warden::check::{self, Answer, EngineKind, Options, Proof};
use warden::front::{self, Source};
use warden::{wl, Budget};

fn c_programs() -> Vec<common::Circuit> {
    common::circuits_of_kind("c", 5)
}

#[test]
fn engines_decide_the_c_programs_and_error_paths_replay() {
    common::each_engine_report(&c_programs(), |engine, c, model, report, _| {
        let name = format!("{} ({engine:?})", c.path.display());
        match (&report.answer, c.expected.as_str()) {
            (Answer::Sat(trace), "sat") => assert_error_path_replays(model, trace, &name),
            (Answer::Unsat(_), "unsat") => {}
            (Answer::Unknown { .. }, "unsat") if engine == EngineKind::Bmc => {}
            (a, e) => panic!("{name}: expected {e}, got {a:?}"),
        }
    });
}

#[test]
fn the_interpreter_reaches_no_error_of_an_unsat_program_on_zero_inputs() {
    for c in c_programs().into_iter().filter(|c| c.expected == "unsat") {
        let model = front::load(&c.path).unwrap();
        let Source::C { cfa, .. } = &model.source else {
            panic!("not C")
        };
        let run = interp::run(cfa, &mut interp::Queues::new(cfa, &[]), 10_000).unwrap();
        assert!(!run.reached(cfa), "{}", c.path.display());
        assert_eq!(run.end, cfa.exit, "{}: ends normally", c.path.display());
    }
}

/// The error path of `trace`, a counterexample of the C program `model`, replays: its
/// printed values alone lead the CFA interpreter to the error again.
fn assert_error_path_replays(model: &front::Model, trace: &warden::ts::Trace, name: &str) {
    let Source::C {
        cfa,
        blocks,
        model: words,
        bits,
        ..
    } = &model.source
    else {
        panic!("{name}: not read as C");
    };
    let lifted = wl::lift_trace(words, bits, &model.ts, trace);
    let path =
        cfa::path::from_trace(cfa, blocks, &lifted).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = cfa::path::write(cfa, &path);
    let values = cfa::path::parse_values(cfa, &text).unwrap();
    let run = cfa::path::replay(cfa, values, path.steps.len()).unwrap();
    assert!(run.reached(cfa), "{name}");
}

fn temp_c(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("warden-c-{}-{name}.c", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn check_prints_the_error_path_with_nondet_values() {
    let p = common::root().join("circuits/c/wrap_sat.c");
    let wit = std::env::temp_dir().join(format!("warden-c-{}.path", std::process::id()));
    let out = warden(&[
        "check",
        p.to_str().unwrap(),
        "--engine",
        "bmc",
        "--witness",
        wit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("sat"));
    let nondet = stdout
        .lines()
        .find_map(|l| l.strip_prefix("line 6: __VERIFIER_nondet_uchar() = "))
        .expect("the nondet value is printed");
    let d: u32 = nondet.parse().unwrap();
    assert!((6..=10).contains(&d), "250 + {d} wraps below 5");
    assert_eq!(stdout.lines().last(), Some("error reached"));
    assert_eq!(
        std::fs::read_to_string(&wit).unwrap(),
        stdout["sat\n".len()..]
    );
}

#[test]
fn unsupported_programs_are_unknown_with_the_reason() {
    let p = temp_c(
        "ptr",
        "int main() {\n  int x = 0;\n  int *p = &x;\n  return *p;\n}\n",
    );
    let out = warden(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unsupported: pointer at line 3"),
        "{stderr}"
    );
}

#[test]
fn missing_headers_are_dropped_with_a_warning_and_syntax_errors_are_input_errors() {
    let p = temp_c(
        "hdr",
        "#include <no_such_header_abc.h>\nextern void reach_error(void);\nint main() { reach_error(); return 0; }\n",
    );
    let out = warden(&["check", p.to_str().unwrap(), "--engine", "bmc"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().next(),
        Some("sat")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no_such_header_abc.h"), "{stderr}");
    let bad = temp_c("syntax", "int main() {\n  return 0 +;\n}\n");
    let out = warden(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("syntax.c:2: "), "{stderr}");
    // A call with the wrong number of arguments is not C either: the line, exit 2.
    let arity = temp_c(
        "arity",
        "int f(int x) { return x; }\nint main() {\n  return f(1, 2);\n}\n",
    );
    let out = warden(&["check", arity.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("arity.c:3: ") && stderr.contains("2 arguments, but it takes 1"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

/// Calls of functions without a body return nondet values of their declared type (the
/// implicit `int` when undeclared) and are named on stderr and in `--json`; the error path
/// replays in `warden sim`. `--strict-extern` refuses them unless `--nondet-fn` names them,
/// and the error path records both flags so that `warden sim` reads the program back the
/// same way.
#[test]
fn functions_without_a_body_are_assumed_nondet() {
    let p = temp_c(
        "anyint",
        "void reach_error(void) {}\nint main() {\n  int x = any_int();\n  if (x == 1234) reach_error();\n  return 0;\n}\n",
    );
    let path = p.to_str().unwrap();
    let tmp = |ext: &str| {
        let f = std::env::temp_dir().join(format!("warden-c-{}-any.{ext}", std::process::id()));
        f.to_str().unwrap().to_owned()
    };
    let (wit, json) = (tmp("path"), tmp("json"));
    let out = warden(&[
        "check",
        path,
        "--engine",
        "bmc",
        "--witness",
        &wit,
        "--json",
        &json,
    ]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("sat\n"), "{stdout}");
    assert!(stdout.contains("line 3: any_int() = 1234"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("assumed nondet: any_int"));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(record["assumed_nondet"], serde_json::json!(["any_int"]));
    let sim = warden(&["sim", path, &wit]);
    assert_eq!(sim.status.code(), Some(0), "{sim:?}");

    let out = warden(&["check", path, "--engine", "bmc", "--strict-extern"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("undeclared function any_int"));
    let strict = [
        "--strict-extern",
        "--nondet-fn",
        "any_int",
        "--witness",
        &wit,
    ];
    let out = warden(&[&["check", path, "--engine", "bmc"][..], &strict].concat());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("sat\n"), "{stdout}");
    assert!(
        stdout.contains("--strict-extern --nondet-fn any_int"),
        "{stdout}"
    );
    let sim = warden(&["sim", path, &wit]);
    assert_eq!(sim.status.code(), Some(0), "{sim:?}");
}

/// The nondet value of a call has the declared return type: an `unsigned char` never
/// equals 300, an `int` can. Heap functions are never assumed nondet.
#[test]
fn assumed_nondet_values_have_the_declared_type() {
    let program = |ret: &str| {
        format!(
            "void reach_error(void) {{}}\n{ret} get(void);\nint main() {{\n  if (get() == 300) reach_error();\n  return 0;\n}}\n"
        )
    };
    for (ret, verdict) in [("unsigned char", "unsat"), ("int", "sat")] {
        let p = temp_c(&format!("ret-{}", ret.replace(' ', "-")), &program(ret));
        let out = warden(&["check", p.to_str().unwrap(), "--engine", "ic3"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with(&format!("{verdict}\n")),
            "{ret}: {stdout}"
        );
    }
    let p = temp_c(
        "malloc",
        "void reach_error(void) {}\nvoid *malloc(unsigned long);\nint main() {\n  malloc(4);\n  reach_error();\n  return 0;\n}\n",
    );
    let out = warden(&["check", p.to_str().unwrap(), "--engine", "bmc"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("malloc"));
}

/// One edge per statement (`--blocks single`) gives the same (checked) verdicts as the
/// large blocks the engines check by default.
#[test]
fn single_statement_cfas_give_the_same_verdicts() {
    let single = front::LoadOptions {
        single_blocks: true,
        ..front::LoadOptions::default()
    };
    for c in c_programs() {
        let model = front::load_with(&c.path, &single, &warden::Budget::new(None)).unwrap();
        let budget = Budget::new(Some(std::time::Duration::from_secs(30)));
        let report = check::run(&model.ts, &Options::new(EngineKind::Ic3), &budget)
            .unwrap_or_else(|e| panic!("{}: {e}", c.path.display()));
        let verdict = match report.answer {
            Answer::Sat(_) => "sat",
            Answer::Unsat(_) => "unsat",
            Answer::Unknown { .. } => "unknown",
        };
        assert_eq!(verdict, c.expected, "{}", c.path.display());
    }
}

/// Execution runs beside the engines, not before them: a loop of 2^28 - 1 iterations, past
/// the interpreter's step limit, is proved by a symbolic engine at once.
#[test]
fn a_long_deterministic_loop_is_left_to_the_engines() {
    let p = temp_c(
        "longloop",
        "extern void reach_error(void);\nint main() { unsigned i = 0; while (i < 0x0fffffff) i++;\n\
         if (i != 0x0fffffff) reach_error(); return 0; }\n",
    );
    let (verdict, report) = check_with_json(&p, &[]);
    assert_eq!(verdict, "unsat\n");
    assert!(!report.contains("\"engine\":\"execute\""), "{report}");
}

/// `warden check` on the program `p` with `options` and a 60 s limit: the verdict line and
/// the `--json` report.
fn check_with_json(p: &std::path::Path, options: &[&str]) -> (String, String) {
    let json = p.with_extension("json");
    let mut args = vec!["check", p.to_str().unwrap(), "--timeout", "60", "--json"];
    args.push(json.to_str().unwrap());
    args.extend(options);
    let out = warden(&args);
    let report = std::fs::read_to_string(&json).unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), report)
}

/// A program none of whose paths to the error loops is decided by BMC up to its longest
/// path, beside an engine that alone would stop at depth 0: a bug with a counterexample that
/// replays, a correct program with [`Proof::Bounded`] at the bound.
#[test]
fn bmc_to_the_longest_path_decides_a_loop_free_program() {
    let body = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);\n\
                int main() { int x = __VERIFIER_nondet_int(); int y;\n\
                if (x > 0) { y = x; } else { y = -x; }\n";
    for (name, tail, sat) in [
        ("absbug", "if (y < 1) reach_error(); return 0; }\n", true),
        (
            "absok",
            "if (x != -2147483647 - 1 && y < 0) reach_error(); return 0; }\n",
            false,
        ),
    ] {
        let p = temp_c(name, &format!("{body}{tail}"));
        let model = front::load(&p).unwrap();
        let Source::C { blocks, .. } = &model.source else {
            panic!("not C")
        };
        let bound = cfa::depth::longest_error_path(blocks).expect("no loop");
        assert!(bound >= 1, "{name}: {bound}");
        let opts = Options {
            max_depth: Some(0),
            complete_depth: Some(bound),
            ..Options::new(EngineKind::Bmc)
        };
        let budget = Budget::new(Some(std::time::Duration::from_secs(60)));
        let report = check::run(&model.ts, &opts, &budget).unwrap();
        assert_eq!(report.engine, "bmc-bound", "{name}");
        match (report.answer, sat) {
            (Answer::Sat(trace), true) => assert_error_path_replays(&model, &trace, name),
            (Answer::Unsat(Proof::Bounded { depth }), false) => assert_eq!(depth, bound),
            (a, _) => panic!("{name}: {a:?}"),
        }
    }
    // A loop on the way to the error leaves counterexamples unbounded.
    let p = temp_c(
        "loopbound",
        "extern void reach_error(void);\nint main() { unsigned i = 0; while (i < 10) i++;\n\
         if (i != 10) reach_error(); return 0; }\n",
    );
    let model = front::load(&p).unwrap();
    let Source::C { blocks, .. } = &model.source else {
        panic!("not C")
    };
    assert_eq!(cfa::depth::longest_error_path(blocks), None);
}

/// On the command line BMC alone proves a loop-free program correct (it never did before
/// the bound: BMC finds counterexamples only).
#[test]
fn check_with_bmc_proves_a_loop_free_program() {
    let p = temp_c(
        "bmcproves",
        "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);\n\
         int main() { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();\n\
         if (a < 0 || a > 10 || b < 0 || b > 10) return 0;\n\
         if (a + b > 20) reach_error(); return 0; }\n",
    );
    let (verdict, report) = check_with_json(&p, &["--engine", "bmc"]);
    assert_eq!(verdict, "unsat\n");
    assert!(report.contains("\"engine\":\"bmc-bound\""), "{report}");
}

/// A recursive program that no inlining bound proves (`fib(x) >= x - 1` for every `x`): the
/// procedure summaries beside the deepening prove it (`"engine":"chc"`) in the Z3 executable
/// `scripts/setup` installs (skipped without it); a buggy variant is found by the deepening.
#[test]
fn procedure_summaries_prove_a_recursive_program_beside_the_deepening() {
    let z3 = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/z3-venv/bin/z3");
    if !z3.is_file() {
        eprintln!("skipped: no {} (run scripts/setup)", z3.display());
        return;
    }
    let fib = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);\n\
               int fib(int n) { if (n < 1) return 0; if (n == 1) return 1;\n\
               return fib(n - 1) + fib(n - 2); }\n\
               int main() { int x = __VERIFIER_nondet_int(); if (x > 46) return 0;\n";
    for (name, claim, verdict) in [
        (
            "fibok",
            "if (fib(x) < x - 1) reach_error(); return 0; }\n",
            "unsat\n",
        ),
        (
            "fibbug",
            "if (fib(x) == 8) reach_error(); return 0; }\n",
            "sat\n",
        ),
    ] {
        let p = temp_c(name, &format!("{fib}{claim}"));
        let json = p.with_extension("json");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_warden"))
            .args(["check", p.to_str().unwrap(), "--timeout", "60", "--json"])
            .arg(&json)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(printed.starts_with(verdict), "{name}: {printed}");
        let report = std::fs::read_to_string(&json).unwrap();
        if verdict == "unsat\n" {
            assert!(report.contains("\"engine\":\"chc\""), "{report}");
        }
    }
}

/// A loop whose invariant is arithmetic (`s == 3 * i`, `i <= n`) is proved by Spacer beside
/// the portfolio (`"engine":"chc"`), its model read back and checked by warden: in the Z3
/// executable `scripts/setup` installs (when it is there), and in a `warden spacer` process
/// on the linked Z3 (`WARDEN_Z3=linked`); a `WARDEN_Z3` that names no program leaves the
/// program to the engines (which need not prove it in the time). The hidden command answers on its own too.
#[test]
fn spacer_beside_the_portfolio_proves_a_loop() {
    let p = temp_c(
        "spacerloop",
        "extern void reach_error(void); extern unsigned __VERIFIER_nondet_uint(void);\n\
         int main() { unsigned n = __VERIFIER_nondet_uint(); unsigned i = 0, s = 0;\n\
         if (n > 100000) return 0;\n\
         while (i < n) { i++; s += 3; }\n\
         if (s != 3 * n) reach_error(); return 0; }\n",
    );
    for (z3, engine) in [
        (None, Some("chc")),
        (Some("linked"), Some("chc")),
        (Some("/nonexistent/z3"), None),
    ] {
        let json = p.with_extension(format!("{}.json", engine.unwrap_or("none")));
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_warden"));
        command.args(["check", p.to_str().unwrap(), "--timeout", "60", "--json"]);
        command.args([json.to_str().unwrap(), "--portfolio", "default"]);
        if let Some(z3) = z3 {
            command.env("WARDEN_Z3", z3);
        }
        let out = command.output().unwrap();
        let verdict = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "WARDEN_Z3={z3:?}");
        let report = std::fs::read_to_string(&json).unwrap();
        match engine {
            Some(e) => {
                assert_eq!(verdict, "unsat\n", "WARDEN_Z3={z3:?}");
                assert!(report.contains(&format!("\"engine\":\"{e}\"")), "{report}");
            }
            None => {
                assert!(verdict == "unsat\n" || verdict == "unknown\n", "{verdict}");
                assert!(!report.contains("\"engine\":\"chc\""), "{report}");
            }
        }
    }

    // The clauses, then the terms whose values in Spacer's model are asked for.
    let input = ";; warden: parameters fp.spacer.push_pob=true\n\
                 (declare-fun inv (Int) Bool)\n\
                 (assert (forall ((x Int)) (=> (= x 0) (inv x))))\n\
                 (assert (forall ((x Int)) (=> (and (inv x) (< x 5)) (inv (+ x 1)))))\n\
                 (assert (forall ((x Int)) (=> (and (inv x) (> x 5)) false)))\n\
                 \n;; warden: terms\n\
                 (declare-fun inv (Int) Bool)\n(declare-fun c () Int)\n(assert (inv c))\n";
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_warden"))
        .arg("spacer")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // One value, over the constant `c`, bounding it above (no invariant holds for c = 6).
    assert!(text.starts_with("sat\n(assert "), "{text}");
    assert_eq!(text.matches("(assert ").count(), 1, "{text}");
    assert!(text.contains('c'), "{text}");
}
