//! The default-suite slice of the differential campaign (`cargo bench --bench difftest`):
//! 150 small random AIGER circuits and 50 small BTOR2 models, each checked by every warden
//! engine and ABC, with every witness replayed (warden sim and aigsim/btorsim) and every
//! certificate checked (certcheck). Skips with a message where the checkers cannot be built.

#[path = "../benches/difftest/abc.rs"]
mod abc;
mod common;
#[path = "../benches/difftest/mod.rs"]
mod difftest;

use std::path::PathBuf;

use common::checkers;
use difftest::{Campaign, Oracle};
pub use warden::verdict::Verdict;

/// The oracle of both slices: this build's warden, the independent checkers and ABC when it
/// is installed; `None` (the checkers say why) when the checkers cannot be built.
fn oracle() -> Option<Oracle<'static>> {
    let checkers = checkers::Checkers::get()?;
    let abc = abc::find_binary(None)
        .map_err(|e| eprintln!("ABC not compared: {e}"))
        .ok();
    Some(Oracle {
        warden: PathBuf::from(env!("CARGO_BIN_EXE_warden")),
        checkers,
        abc,
        timeout_s: 3,
        max_depth: 12,
    })
}

/// Runs `campaign` and requires that no model had a problem.
fn run_clean(campaign: Campaign, oracle: &Oracle) -> difftest::campaign::Summary {
    let summary = campaign.run(oracle);
    summary.print();
    assert!(
        summary.failures.is_empty(),
        "models with a problem: {:?}",
        summary.failures
    );
    summary
}

#[test]
fn random_models_get_the_same_checked_answers_from_every_tool() {
    let Some(oracle) = oracle() else {
        return;
    };
    let campaign = Campaign {
        jobs: 2,
        aiger_sizes: [3, 4, 1, 0],
        btor2_ops: 12,
        ..Campaign::new(150, 50, 2026)
    };
    let summary = run_clean(campaign, &oracle);
    assert_eq!(summary.models, 200);
    // The slice must exercise both answers and both checkers, not only `unknown`.
    assert!(summary.sat_models >= 20 && summary.unsat_models >= 20);
    assert!(summary.aigsim_ok > 0 && summary.btorsim_ok > 0 && summary.certcheck_ok > 0);
}

/// The reset-function slice: small random circuits whose latches may reset to an input or
/// another latch's initial value, checked by every engine, their witnesses by aigsim and
/// certificates by certcheck on the circuit itself, and compared with ABC (and warden) on the
/// equivalent circuit without reset functions.
#[test]
fn random_reset_function_circuits_get_the_same_checked_answers() {
    let Some(oracle) = oracle() else {
        return;
    };
    let campaign = Campaign {
        jobs: 2,
        aiger_sizes: [3, 4, 1, 0],
        resets: 40,
        ..Campaign::new(0, 0, 2026)
    };
    let summary = run_clean(campaign, &oracle);
    assert_eq!(summary.models, 40);
    assert!(summary.sat_models >= 5 && summary.unsat_models >= 5);
    assert!(summary.aigsim_ok > 0 && summary.certcheck_ok > 0);
}
