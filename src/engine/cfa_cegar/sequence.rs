//! Seed 003's conditional sequence for C programs (`--engine sequence` on C input): BMC on
//! the encoded system, then CEGAR with explicit values on the CFA, then CEGAR with Cartesian
//! predicate abstraction given the explicit run's condition ([`super::condition`]), so that
//! the predicate analysis explores only the paths the explicit one left open.
//!
//! Each stage but the last gets a share of the time left (BMC an eighth, the explicit run
//! half of the rest); a stage that decides ends the sequence, and its answer is checked by
//! the caller as any engine's. BMC's depth is no condition for the CFA analyses (they do not
//! unroll), so it passes on nothing but the time it used.

use std::time::Duration;

use super::{check_given, Outcome};
use crate::cfa::Cfa;
use crate::engine::bmc::{Bmc, BmcOptions};
use crate::engine::cegar::{CegarOptions, Domain, Refinement};
use crate::engine::{Engine, Verdict};
use crate::error::InternalError;
use crate::ts::TransitionSystem;
use crate::wl::BitMap;
use crate::Budget;

/// A stage's share of the time when the run has no time limit.
const UNLIMITED_SHARE: Duration = Duration::from_secs(30);

/// The explicit stage expands no node whose location occurs more often than this on its
/// path: it verifies the loops that end within as many iterations, and leaves the others
/// open to the predicate stage after that many (seed 003's repeating-locations condition).
const REPEATS: u32 = 64;

/// The CEGAR configurations of the explicit and the predicate stage: sequence
/// interpolation, the best refinement of each domain on C programs (seed 000's axes table
/// on eval-c).
fn stage_options(domain: Domain) -> CegarOptions {
    CegarOptions {
        domain,
        refinement: Refinement::SeqItp,
        ..CegarOptions::default()
    }
}

/// The part of `budget` for a stage that takes `1 / divide` of the time left.
fn share(budget: &Budget, divide: u32) -> Budget {
    match budget.remaining() {
        Some(rest) => budget.child_for(rest / divide),
        None => budget.child_for(UNLIMITED_SHARE),
    }
}

/// Runs the sequence on `cfa`, whose encoding blasted is `ts` with its words at `bits`;
/// BMC, configured by `bmc`, stops at `max_depth` or at the CFA's longest error path.
pub fn check(
    cfa: &Cfa,
    ts: &TransitionSystem,
    bits: &BitMap,
    bmc: BmcOptions,
    max_depth: Option<usize>,
    budget: &Budget,
) -> Result<Outcome, InternalError> {
    // Past the CFA's longest error path (a program without loops), BMC would only unroll
    // the encoding's exit loop: it stops there, and the CFA analyses prove the program.
    let bound = match (max_depth, crate::cfa::depth::longest_error_path(cfa)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    // BMC's solver is dropped before the CFA analyses start.
    let (verdict, mut stats) = {
        let mut bmc = Bmc::new(bound).with_options(bmc);
        (bmc.check(ts, &share(budget, 8)), bmc.stats())
    };
    let depth = match verdict {
        Verdict::Unknown { depth } => depth,
        decided => {
            stats.push(("sequence_stage", 0));
            return Ok(Outcome::decided(decided, stats));
        }
    };
    crate::log::info(1, format_args!("sequence: bmc clean to depth {depth:?}"));
    let expl = stage_options(Domain::Expl);
    let first = check_given(cfa, ts, bits, &expl, None, Some(REPEATS), &share(budget, 2))?;
    stats.extend(first.stats.iter().map(|&(k, v)| (explicit_name(k), v)));
    if !matches!(first.verdict, Verdict::Unknown { .. }) || budget.expired() {
        stats.push(("sequence_stage", 1));
        return Ok(Outcome { stats, ..first });
    }
    let pred = stage_options(Domain::PredCart);
    let mut last = check_given(
        cfa,
        ts,
        bits,
        &pred,
        first.condition.as_ref(),
        None,
        &budget.child(),
    )?;
    stats.append(&mut last.stats);
    stats.push(("sequence_stage", 2));
    if let Some(c) = &first.condition {
        stats.push(("sequence_condition_states", c.open_states() as u64));
        stats.push(("sequence_condition_verified", c.verified() as u64));
    }
    Ok(Outcome { stats, ..last })
}

/// The explicit stage's counters, named apart from the predicate stage's (both are the CFA
/// CEGAR's).
fn explicit_name(name: &'static str) -> &'static str {
    match name {
        "cegar_refinements" => "expl_refinements",
        "cegar_spurious_depth_max" => "expl_spurious_depth_max",
        "cegar_precision" => "expl_precision",
        "cegar_arg_nodes" => "expl_arg_nodes",
        "cegar_covered" => "expl_covered",
        "cegar_posts" => "expl_posts",
        "cegar_cut" => "expl_cut",
        "cegar_condition_safe" => "expl_condition_safe",
        other => other,
    }
}
