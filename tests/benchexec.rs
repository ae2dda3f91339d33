//! The BenchExec tool-info module (`contrib/benchexec/warden.py`) on real warden output:
//! `contrib/benchexec/test_warden.py` runs warden as BenchExec would and checks what
//! `determine_result` makes of it. BenchExec comes from the system's Python, else from a
//! virtual environment in `target/benchexec-venv` (`pip install benchexec`, once); the test
//! skips with a message when neither works (no python3, no network for pip).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A Python interpreter that can import `benchexec`, or why there is none.
fn python_with_benchexec() -> Result<PathBuf, String> {
    let imports = |py: &Path| {
        Command::new(py)
            .args(["-c", "import benchexec"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let system = PathBuf::from("python3");
    if imports(&system) {
        return Ok(system);
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/benchexec-venv");
    let py = venv.join("bin/python3");
    if !py.exists() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .output();
        if !made.is_ok_and(|o| o.status.success()) {
            return Err("python3 -m venv failed (is python3 installed?)".into());
        }
    }
    if !imports(&py) {
        let pip = Command::new(&py)
            .args(["-m", "pip", "install", "--quiet", "benchexec"])
            .output()
            .map_err(|e| format!("cannot run pip: {e}"))?;
        if !pip.status.success() {
            return Err(format!(
                "pip install benchexec failed: {}",
                String::from_utf8_lossy(&pip.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ));
        }
    }
    Ok(py)
}

#[test]
fn determine_result_reads_real_warden_output() {
    let py = match python_with_benchexec() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: no BenchExec: {why}");
            return;
        }
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(py)
        .arg(Path::new(root).join("contrib/benchexec/test_warden.py"))
        .arg(env!("CARGO_BIN_EXE_warden"))
        .arg(root)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        eprintln!("{text}");
        return;
    }
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("ok: false, true, ERROR (input), false(unreach-call)"),
        "{text}"
    );
}
