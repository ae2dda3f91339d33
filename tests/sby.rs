//! warden as an SBY engine: `contrib/sby/warden-sby` (the pinned SBY of the YoWASP Yosys
//! wheel with `contrib/sby/warden-engine.patch`) on the projects of `circuits/sby/`, in
//! every mode the engine serves, with SBY's own post-processing judged by its own outputs:
//! the task status, the per-property summary, and the `trace.vcd` SBY writes from warden's
//! witness (through smtbmc for `aiger`, which fails the task when the witness does not
//! replay; through btorsim for `btor`).
//!
//! The wrapper installs the wheel on first use; the tests skip, saying why, only when that
//! install fails (no route to PyPI). Each project is copied to a scratch folder, where SBY
//! writes its task folders.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::checkers::Checkers;
use common::root;

/// Whether the pinned YoWASP install is there (installed now if not); says why the test is
/// skipped when it cannot be installed (no route to PyPI).
fn yowasp_installed() -> bool {
    let why = match Command::new(root().join("scripts/yowasp")).output() {
        Ok(out) if out.status.success() => return true,
        Ok(out) => String::from_utf8_lossy(&out.stderr).into_owned(),
        Err(e) => e.to_string(),
    };
    eprintln!("skipped: the pinned YoWASP Yosys cannot be installed: {why}");
    false
}

/// A scratch copy of `circuits/sby/` for test `tag`.
fn project(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-sby-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(root().join("circuits/sby")).unwrap() {
        let path = entry.unwrap().path();
        // Only the project files: task folders of earlier runs (the docs' examples) stay.
        if path.is_file() {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// `warden-sby -f SBY TASKS...` in `dir`, with this build's warden and btorsim on the PATH.
fn sby(dir: &Path, file: &str, tasks: &[&str]) -> Output {
    let checkers = Checkers::get().expect("the independent checkers (btorsim) build");
    let path = format!(
        "{}:{}",
        checkers.dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new(root().join("contrib/sby/warden-sby"))
        .current_dir(dir)
        .env("WARDEN", env!("CARGO_BIN_EXE_warden"))
        .env("PATH", path)
        .arg("-f")
        .arg(file)
        .args(tasks)
        .output()
        .expect("run contrib/sby/warden-sby")
}

/// The status SBY gave task folder `task`: the empty file it names after it (`PASS`,
/// `FAIL`, `UNKNOWN`, `ERROR`), which it writes on every path, its own errors included.
fn status(dir: &Path, task: &str) -> String {
    let words = ["PASS", "FAIL", "UNKNOWN", "ERROR"];
    let found: Vec<&str> = words
        .into_iter()
        .filter(|w| dir.join(task).join(w).is_file())
        .collect();
    assert_eq!(found.len(), 1, "{task}: status files {found:?}");
    found[0].to_owned()
}

/// SBY's log of task folder `task`.
fn log(dir: &Path, task: &str) -> String {
    std::fs::read_to_string(dir.join(task).join("logfile.txt")).unwrap()
}

/// The signal names declared in a VCD file.
fn vcd_names(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .filter(|l| l.starts_with("$var"))
        .filter_map(|l| l.split_whitespace().nth(4).map(str::to_owned))
        .collect()
}

/// The three FIFO tasks of one engine (`prefix` "" for `aiger warden`, "btor_" for `btor
/// warden`): the proof holds, the `prove` and the `bmc` (depth 10) fail at cycle 5, each with
/// a `trace.vcd` naming the FIFO's registers and inputs.
fn fifo_tasks(tag: &str, prefix: &str) {
    if !yowasp_installed() {
        return;
    }
    let dir = project(tag);
    let tasks = ["prove_ok", "prove_bug", "bmc_bug"].map(|t| format!("{prefix}{t}"));
    let out = sby(&dir, "fifo.sby", &tasks.each_ref().map(String::as_str));
    let said = String::from_utf8_lossy(&out.stdout);
    let expected = ["PASS", "FAIL", "FAIL"];
    for (task, want) in tasks.iter().zip(expected) {
        let folder = format!("fifo_{task}");
        assert_eq!(status(&dir, &folder), want, "{task}:\n{said}");
        if want == "FAIL" {
            let names = vcd_names(&dir.join(&folder).join("engine_0/trace.vcd"));
            for signal in ["count", "push", "pop", "din"] {
                assert!(names.iter().any(|n| n == signal), "{task}: {names:?}");
            }
        }
    }
    // SBY's aiger flow replays the witness with smtbmc and names the failing assertion.
    if prefix.is_empty() {
        for task in ["prove_bug", "bmc_bug"] {
            let text = log(&dir, &format!("fifo_{task}"));
            assert!(
                text.contains("failed assertion fifo.no_overflow") && text.contains("step 5"),
                "{task}:\n{text}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fifo_tasks_with_the_aiger_engine() {
    fifo_tasks("aiger", "");
}

#[test]
fn fifo_tasks_with_the_btor_engine() {
    fifo_tasks("btor", "btor_");
}

#[test]
fn liveness_proved_and_refuted_in_live_mode() {
    if !yowasp_installed() {
        return;
    }
    let dir = project("live");
    let out = sby(&dir, "arbiter.sby", &[]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(status(&dir, "arbiter_live_ok"), "PASS", "{said}");
    assert_eq!(status(&dir, "arbiter_live_bug"), "FAIL", "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn covers_reached_with_a_trace_or_proved_unreachable() {
    if !yowasp_installed() {
        return;
    }
    let dir = project("cover");
    let out = sby(&dir, "cover.sby", &[]);
    let said = String::from_utf8_lossy(&out.stdout);
    // Not every cover is reached, so SBY's status is FAIL; the summary tells them apart.
    assert_eq!(status(&dir, "cover"), "FAIL", "{said}");
    let text = log(&dir, "cover");
    assert!(
        text.contains("reached cover statement cover_counter.reach_seven")
            && text.contains("step 7"),
        "{text}"
    );
    assert!(
        text.contains("cover cover_counter.reach_twelve is unreachable (proved)"),
        "{text}"
    );
    let names = vcd_names(&dir.join("cover/engine_0/trace0.vcd"));
    assert!(names.iter().any(|n| n == "count"), "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_projects_end_in_sbys_own_error() {
    if !yowasp_installed() {
        return;
    }
    let dir = project("errors");
    let broken = [
        // A syntax error in a source.
        (
            "syntax.sby",
            "prove",
            "aiger warden",
            "read -formal broken.sv\nprep -top broken",
        ),
        // A top module that does not exist.
        (
            "top.sby",
            "prove",
            "aiger warden",
            "read -formal fifo.sv\nprep -top nosuch",
        ),
        // A mode the engine does not serve.
        (
            "mode.sby",
            "cover",
            "aiger warden",
            "read -formal cover.sv\nprep -top cover_counter",
        ),
    ];
    std::fs::write(dir.join("broken.sv"), "module broken(input a;\nendmodule\n").unwrap();
    for (file, mode, engine, script) in broken {
        let source = script.split_whitespace().nth(2).unwrap();
        let text = format!(
            "[options]\nmode {mode}\n\n[engines]\n{engine}\n\n[script]\n{script}\n\n[files]\n{source}\n"
        );
        std::fs::write(dir.join(file), text).unwrap();
        let out = sby(&dir, file, &[]);
        let said = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        let task = file.trim_end_matches(".sby");
        assert_eq!(status(&dir, task), "ERROR", "{file}:\n{said}");
        assert!(!said.contains("Traceback"), "{file}:\n{said}");
        assert!(said.contains("ERROR"), "{file}:\n{said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `warden check --stdout witness MODEL`: (exit code, stdout).
fn witness_form(model: &str) -> (Option<i32>, String) {
    let out = common::warden(&["check", "--stdout", "witness", &common::circuit(model)]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_witness_form_is_what_the_formats_own_checkers_read() {
    let checkers = Checkers::get().expect("the independent checkers build");
    let scratch = std::env::temp_dir().join(format!("warden-sby-form-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for (model, checker) in [
        ("counter4_sat.aag", "aigsim"),
        ("btor2/counter_sat.btor2", "btorsim"),
    ] {
        let (code, text) = witness_form(model);
        assert_eq!(code, Some(0), "{model}");
        let first = text.lines().next().unwrap_or("");
        assert_eq!(
            first,
            if checker == "aigsim" { "1" } else { "sat" },
            "{text}"
        );
        let witness = scratch.join("witness");
        std::fs::write(&witness, &text).unwrap();
        let path = Path::new(&common::circuit(model)).to_owned();
        let check = match checker {
            "aigsim" => checkers.aigsim(&path, &witness),
            _ => checkers.btorsim(&path, &witness),
        };
        assert_eq!(check, common::checkers::Check::Accepted, "{model}:\n{text}");
    }
    assert_eq!(witness_form("counter3_mod6_unsat.aag").1, "0\n");
    assert_eq!(witness_form("btor2/counter_mod6_unsat.btor2").1, "unsat\n");
    // Verilog designs and C programs have no solver convention to follow.
    for model in ["c/array_sat.c", "verilog/three_props.sv"] {
        let (code, text) = witness_form(model);
        assert_eq!((code, text.as_str()), (Some(1), ""), "{model}");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
