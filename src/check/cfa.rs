//! The engines that check a C program's CFA itself (CEGAR, Impact, symbolic execution, UFO)
//! rather than its encoded transition system, with their answers verified on that system.

use std::time::Instant;

use super::{verify, EngineKind, Options, Report};
use crate::cfa::Cfa;
use crate::engine::cfa_cegar;
use crate::error::InternalError;
use crate::ts::{Restore, TransitionSystem};
use crate::wl::BitMap;
use crate::Budget;

/// Checks the program `cfa` with the CFA-native engine `opts.engine` (CEGAR, Impact,
/// symbolic execution, UFO, or the conditional sequence); `ts` is its encoding ([`crate::cfa::encode`]) bit-blasted with its words at `bits`, on which
/// the answer is verified as in [`super::run`] (the error path is also replayed by the CFA
/// interpreter).
pub fn run_cfa(
    cfa: &Cfa,
    ts: &TransitionSystem,
    bits: &BitMap,
    opts: &Options,
    budget: &Budget,
) -> Result<Report, InternalError> {
    let start = Instant::now();
    let engine = opts.engine.name();
    crate::fault::inject(engine);
    let outcome = match opts.engine {
        EngineKind::Impact => cfa_cegar::impact::check(cfa, ts, bits, budget)?,
        EngineKind::Symex => cfa_cegar::symex::check(cfa, ts, bits, budget)?,
        EngineKind::Ufo => cfa_cegar::ufo::check(cfa, ts, bits, opts.ufo_post, budget)?,
        EngineKind::Sequence => {
            cfa_cegar::sequence::check(cfa, ts, bits, opts.bmc, opts.max_depth, budget)?
        }
        _ => {
            let given = opts.automaton.as_deref();
            cfa_cegar::check_given(cfa, ts, bits, &opts.cegar, given, None, budget)?
        }
    };
    let identity = Restore::identity(ts);
    let answer = verify(ts, ts, &identity, outcome.verdict, engine, budget)?;
    Ok(Report {
        answer,
        engine,
        stats: outcome.stats,
        time: start.elapsed(),
        note: outcome.note,
        condition: None,
        automaton: outcome.condition,
    })
}
