//! Our own circuits with the independent checkers of `../shared/tools`: warden's portfolio
//! answers each AIGER and BTOR2 circuit of `circuits/manifest.tsv` with its expected verdict,
//! every witness is accepted by aigsim (AIGER) or btorsim (BTOR2), and every certificate by
//! Certifaiger's `certcheck` (for BTOR2, against `warden blast` of the model). Skips with a
//! message where the checkers cannot be built (no gcc).

mod common;

use std::path::Path;
use std::process::Command;

use common::checkers::{Check, Checkers};

fn warden(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_answer_on_our_circuits_passes_the_independent_checkers() {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("warden-indep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (witness, cert, blasted) = (
        dir.join("witness"),
        dir.join("cert.aig"),
        dir.join("blasted.aig"),
    );
    let mut checked = [0usize; 3]; // aigsim, btorsim, certcheck
    for c in common::circuits() {
        let ext = c.path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let btor2 = ext == "btor2" || ext == "btor";
        if ext != "aag" && ext != "aig" && !btor2 {
            continue; // C programs: no independent checker
        }
        let out = warden(&[
            "check".as_ref(),
            c.path.as_os_str(),
            "--witness".as_ref(),
            witness.as_os_str(),
            "--cert".as_ref(),
            cert.as_os_str(),
        ]);
        let verdict = String::from_utf8_lossy(&out.stdout);
        let verdict = verdict.lines().next().unwrap_or("");
        assert_eq!(verdict, c.expected, "{}", c.path.display());
        let check = match (verdict, btor2) {
            ("sat", false) => (0, checkers.aigsim(&c.path, &witness)),
            ("sat", true) => (1, checkers.btorsim(&c.path, &witness)),
            (_, false) => (2, checkers.certcheck(&c.path, &cert, &dir)),
            (_, true) => {
                let out = warden(&["blast".as_ref(), c.path.as_os_str(), blasted.as_os_str()]);
                assert!(out.status.success(), "blast {}", c.path.display());
                (2, checkers.certcheck(Path::new(&blasted), &cert, &dir))
            }
        };
        assert_eq!(check.1, Check::Accepted, "{}", c.path.display());
        checked[check.0] += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked.iter().all(|&n| n > 0), "checked: {checked:?}");
}
