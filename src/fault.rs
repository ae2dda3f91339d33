//! Fault injection for the tests of panic safety and of the overrun watchdog: with the cargo
//! feature `fault-injection` (off by default, so never in a normal build),
//! `WARDEN_FAULT=STAGE[,STAGE...]` makes the named stages panic: an engine (`ic3`, `kind`,
//! `cegar`, `imc`, `bmc`, `reach`, `sim`, `portfolio`) when it starts checking, `front` when
//! the model is read, `printed` once the verdict is out, `settled` once `--all-properties`
//! found a property failing; `hang:STAGE` makes the stage wait forever without looking at
//! its budget; `lie:ENGINE` makes a portfolio's worker answer at once with a counterexample
//! that does not replay (one frame of zeros). The tests show that the portfolio still
//! answers, that a run whose every engine panicked prints `unknown` and exits 3, that the
//! watchdog ends a run that does not stop, and that an answer failing its check costs only
//! the engine that gave it.
//!
//! Layer: plumbing; imports nothing of the crate, so that any stage can host a fault.

/// Panics if `WARDEN_FAULT` names `stage`, never returns if it names `hang:STAGE` (feature
/// `fault-injection` only).
#[cfg(feature = "fault-injection")]
pub fn inject(stage: &str) {
    if named("", stage) {
        panic!("injected fault in {stage} (WARDEN_FAULT)");
    }
    if named("hang:", stage) {
        loop {
            std::thread::park();
        }
    }
}

/// Whether `WARDEN_FAULT` names `lie:ENGINE` for the portfolio worker `engine` (feature
/// `fault-injection` only).
#[cfg(feature = "fault-injection")]
pub fn lies(engine: &str) -> bool {
    named("lie:", engine)
}

/// Whether `WARDEN_FAULT` lists `stage` behind `prefix`.
#[cfg(feature = "fault-injection")]
fn named(prefix: &str, stage: &str) -> bool {
    std::env::var("WARDEN_FAULT").is_ok_and(|stages| {
        stages
            .split(',')
            .any(|s| s.strip_prefix(prefix) == Some(stage))
    })
}

/// Does nothing: fault injection is compiled in only with the feature `fault-injection`.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn inject(_stage: &str) {}

/// Never: fault injection is compiled in only with the feature `fault-injection`.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn lies(_engine: &str) -> bool {
    false
}
