//! Arrays too large to expand (`circuits/arrays/`): BTOR2 memories with a 32-bit index and C
//! arrays of 100,000 and up to 2^32 elements, checked through the lazy encoding end to end.
//! Each verdict is the manifest's; a `sat` witness replays in `warden sim` (and btorsim for
//! BTOR2), an `unsat` certificate passes Certifaiger on the abstraction `warden blast`
//! writes, and a counterexample that only the abstraction has is never printed as `sat`.

mod common;

use std::path::Path;

use common::checkers::{Check, Checkers};
use common::warden;
use warden::front;

fn accepted(check: Check, what: &str) {
    match check {
        Check::Accepted => {}
        Check::Rejected(m) => panic!("{what}: rejected: {m}"),
        Check::Failed(m) => panic!("{what}: the checker failed: {m}"),
    }
}

#[test]
fn large_arrays_get_their_manifest_verdicts_with_checked_witnesses_and_certificates() {
    let rows = common::circuits_in("circuits/arrays");
    assert!(
        rows.len() >= 6,
        "circuits/arrays/manifest.tsv lists too few"
    );
    for row in rows {
        let model = row.path;
        let name = model.file_name().unwrap().to_string_lossy().into_owned();
        let (wit, cert) = (
            common::scratch_file("lazy", &format!("{name}.wit")),
            common::scratch_file("lazy", &format!("{name}.cert.aag")),
        );
        let _ = std::fs::remove_file(&wit);
        let _ = std::fs::remove_file(&cert);
        let out = warden(&[
            "check".as_ref(),
            model.as_os_str(),
            "--timeout".as_ref(),
            "60".as_ref(),
            "--witness".as_ref(),
            wit.as_os_str(),
            "--cert".as_ref(),
            cert.as_os_str(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        let verdict = stdout.lines().next().unwrap_or("");
        assert_eq!(verdict, row.expected, "{name}: {stderr}");
        match verdict {
            "sat" => sat_replays(&model, &wit),
            "unsat" => certificate_holds(&model, &cert),
            _ => {}
        }
    }
}

/// `warden sim` (the word-level simulator, and for C the CFA interpreter) and btorsim accept
/// the witness.
fn sat_replays(model: &Path, wit: &Path) {
    let sim = warden(&["sim".as_ref(), model.as_os_str(), wit.as_os_str()]);
    assert!(
        sim.status.success(),
        "{}: warden sim: {}",
        model.display(),
        String::from_utf8_lossy(&sim.stdout)
    );
    let btor2 = model.extension().is_some_and(|e| e == "btor2");
    if let (true, Some(checkers)) = (btor2, Checkers::get()) {
        accepted(checkers.btorsim(model, wit), &model.display().to_string());
    }
}

/// Certifaiger accepts the certificate on the abstraction (`warden blast`).
fn certificate_holds(model: &Path, cert: &Path) {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let blasted = cert.with_extension("model.aag");
    let out = warden(&["blast".as_ref(), model.as_os_str(), blasted.as_os_str()]);
    assert!(out.status.success(), "{}: warden blast", model.display());
    let scratch = blasted.parent().expect("a scratch folder");
    accepted(
        checkers.certcheck(&blasted, cert, scratch),
        &model.display().to_string(),
    );
}

/// A 2^32-element memory is never expanded: its system has a few hundred latches at most.
#[test]
fn a_32_bit_index_memory_is_not_expanded_per_element() {
    let model = front::load(&common::root().join("circuits/arrays/mem32_sat.btor2"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(model.is_abstract());
    assert!(model.ts.latches.len() < 300, "{}", model.ts.latches.len());
}
