//! One checking run: reduce, run an engine, lift the answer back and verify it.
//!
//! Nothing leaves this module unverified: a counterexample is replayed on the original system
//! by the simulator before it becomes [`Answer::Sat`], an invariant is checked (initiation,
//! consecution, safety) on the original system before it becomes [`Answer::Unsat`]; a failed
//! check is an internal error ([`InternalError`]).
//!
//! Layer: one run; imports [`crate::options`], [`crate::condition`], [`crate::engine`],
//! [`crate::cert`] and below; only [`crate::live`] and the command line sit above it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cert::{self, CertError, Invariant};
use crate::condition::Condition;
use crate::engine::cegar::{Cegar, CegarOptions};
use crate::engine::cfa_cegar::condition::Automaton;
use crate::engine::cfa_cegar::ufo::UfoPost;
use crate::engine::imc::Imc;
use crate::engine::impact::Impact;
use crate::engine::lemmas::LemmaPool;
use crate::engine::lookahead::Lookahead;
use crate::engine::reach::Reach;
use crate::engine::sequence::Sequence;
use crate::engine::sim::Sim;
use crate::engine::{
    bmc::Bmc,
    bmc::BmcOptions,
    ic3::{Ic3, Ic3Options},
    kind::Kind,
    portfolio::Portfolio,
    smt::{SmtOptions, WordContext, WordWorker, Words},
    Engine, Stats, Verdict,
};
use crate::error::InternalError;
use crate::options::{configs, cores};
use crate::prep::{preprocess, PrepOptions};
use crate::ts::{replay, LatchClause, Restore, Trace, TransitionSystem};
use crate::Budget;

mod cfa;
pub use crate::engine::EngineKind;
pub use cfa::run_cfa;

/// Settings of one run.
#[derive(Clone, Debug)]
pub struct Options {
    pub engine: EngineKind,
    pub max_depth: Option<usize>,
    /// The cores of a portfolio: its workers that run at once (the others wait for time
    /// slices), and how many configurations it runs ([`cores::members`]).
    pub jobs: usize,
    /// The configuration of the CEGAR engine.
    pub cegar: CegarOptions,
    /// UFO's abstract post.
    pub ufo_post: UfoPost,
    /// The portfolio's configurations (a name of [`configs::PORTFOLIOS`]).
    pub portfolio: &'static str,
    /// The configuration of BMC (alone and in the portfolio).
    pub bmc: BmcOptions,
    /// The preprocessing passes.
    pub prep: PrepOptions,
    /// The configuration of the IC3 engine.
    pub ic3: Ic3Options,
    /// The run's memory limit in MiB (`--mem-limit`): a portfolio nearing it stops one worker
    /// so the others go on (`None`: no limit).
    pub mem_limit: Option<u64>,
    /// The time the SMT engine may spend translating frames and solving (`None`: all it
    /// gets; a portfolio limits its SMT worker, [`PORTFOLIO_SMT_LIMIT`]).
    pub smt_limit: Option<Duration>,
    /// The configuration of the SMT engine.
    pub smt: SmtOptions,
    /// A bound on the length of every counterexample of the checked system, where one is
    /// known (a C program none of whose paths to the error loops,
    /// [`crate::cfa::depth::longest_error_path`]): BMC of the original system up to it runs
    /// beside the engine (a portfolio gives it one of its `jobs`) and decides alone
    /// ([`Proof::Bounded`]).
    pub complete_depth: Option<usize>,
    /// What an earlier run verified about the checked system ([`crate::condition`], read
    /// for that system): BMC and k-induction's base case start past its depth, and its
    /// lemmas that Houdini confirms join the lemma pool.
    pub condition: Option<Arc<Condition>>,
    /// What an earlier CEGAR run on the same C program's CFA verified
    /// ([`crate::engine::cfa_cegar::condition`]): `--engine cegar` on C explores only the
    /// rest.
    pub automaton: Option<Arc<Automaton>>,
    /// Engines (by [`EngineKind::name`]) a portfolio leaves out: those whose answer failed
    /// its check earlier in the same run ([`run_with`] runs the portfolio again without them).
    pub left_out: Vec<&'static str>,
}

impl Options {
    /// `engine` with every other setting at its default (two portfolio workers at once).
    pub fn new(engine: EngineKind) -> Options {
        Options {
            engine,
            max_depth: None,
            jobs: 2,
            cegar: CegarOptions::default(),
            ufo_post: UfoPost::default(),
            portfolio: configs::PORTFOLIOS[0].name,
            bmc: BmcOptions::default(),
            ic3: Ic3Options::default(),
            prep: PrepOptions::default(),
            mem_limit: None,
            smt_limit: None,
            smt: SmtOptions::default(),
            complete_depth: None,
            condition: None,
            automaton: None,
            left_out: Vec::new(),
        }
    }

    /// The options of the configuration `row` with this run's bounds.
    fn with_row(&self, row: configs::Row) -> Options {
        Options {
            engine: row.engine,
            cegar: row.cegar().expect("table rows are valid configurations"),
            bmc: row.bmc,
            ic3: row.ic3,
            smt: row.smt,
            ..self.clone()
        }
    }
}

/// A verified answer about the original system.
/// One answer per run: the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Answer {
    /// A bad state is reachable; the trace replays on the original system.
    Sat(Trace),
    /// No bad state is reachable, for the reason the proof gives.
    Unsat(Proof),
    /// Undecided; `depth: Some(k)` means no counterexample of `k` transitions or fewer.
    Unknown { depth: Option<usize> },
}

/// Why no bad state is reachable.
/// One proof per run: the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Proof {
    /// An invariant over the original system that passed the check (initiation,
    /// consecution, safety).
    Invariant(Invariant),
    /// The program draws no nondet value, so it has one run, and the CFA interpreter ran it
    /// to its end, `steps` edges, without reaching the error ([`crate::engine::execute`]).
    Execution { steps: usize },
    /// No counterexample has more than `depth` transitions ([`Options::complete_depth`]), and
    /// BMC of the original system found none of `depth` transitions or fewer.
    Bounded { depth: usize },
    /// The Horn clauses of the program's CFA over integers have a model, checked clause by
    /// clause ([`crate::engine::chc`], tried beside the engines on C programs): an
    /// invariant per location that excludes the error and every overflow.
    Horn { clauses: usize },
}

/// The answer plus what it cost.
#[derive(Clone, Debug)]
pub struct Report {
    pub answer: Answer,
    pub engine: &'static str,
    pub stats: Stats,
    pub time: Duration,
    /// Why the run could not decide, for the log (unsupported features, budget).
    pub note: Option<String>,
    /// Of an `unknown`: what the run verified ([`crate::condition`]), over the checked
    /// system's latches; `None` from the runs that keep no lemma pool (CFA engines).
    pub condition: Option<Condition>,
    /// Of an `unknown` CEGAR run over a C program's CFA: the assumption automaton of what it
    /// verified ([`crate::engine::cfa_cegar::condition`]).
    pub automaton: Option<Automaton>,
}

/// The time the SMT worker of a portfolio may spend translating and solving (see
/// [`crate::engine::smt::WordWorker`]):
/// enough for the models it is there for (the marlann bugs take 0.7 s), short enough that
/// its slot goes back to the bit-level engines early on the others.
const PORTFOLIO_SMT_LIMIT: Duration = Duration::from_secs(3);

/// The engine `opts` asks for on `ts`; IC3 and k-induction workers share `pool` (so IC3
/// workers of different configurations share their lemmas too). A portfolio runs the
/// configurations of its set for `opts.jobs` cores ([`cores::members`]), that many at once,
/// its SMT configuration only where there is a word-level model (`words`). k-liveness
/// checks justice properties ([`crate::live`]); on bad-state properties it runs IC3, the
/// engine it is made of.
fn build(
    ts: &TransitionSystem,
    opts: &Options,
    pool: &LemmaPool,
    words: Option<&WordContext>,
) -> Box<dyn Engine + Send> {
    // The first depth not known clean: BMC and the base case start there.
    let unknown_from = (opts.condition.as_ref()).map_or(0, |c| c.depth.map_or(0, |d| d + 1));
    match opts.engine {
        EngineKind::Bmc | EngineKind::Kind | EngineKind::Ic3 | EngineKind::Klive => {
            stage(opts.engine, opts, pool, unknown_from)
        }
        EngineKind::Imc => Box::new(Imc::new(opts.max_depth)),
        EngineKind::Reach => Box::new(Reach::new()),
        EngineKind::Sim => Box::new(Sim::default()),
        EngineKind::Cegar => Box::new(Cegar::new(opts.cegar, opts.max_depth).with_ic3(opts.ic3)),
        EngineKind::Impact => Box::new(Impact::new(opts.max_depth)),
        EngineKind::Symex | EngineKind::Ufo => unreachable!(
            "symbolic execution and UFO run on a C program's CFA (the command line refuses \
             them elsewhere)"
        ),
        EngineKind::Sequence => {
            let (opts, pool) = (opts.clone(), pool.clone());
            Box::new(
                Sequence::new(move |kind, from| stage(kind, &opts, &pool, from))
                    .from_depth(unknown_from),
            )
        }
        EngineKind::Smt => Box::new(WordWorker::new(
            words
                .expect("the SMT engine is built for word-level models only")
                .clone(),
            opts.max_depth,
            opts.smt_limit,
            opts.smt,
        )),
        EngineKind::Portfolio => {
            let set = configs::portfolio_for(opts.portfolio, ts)
                .unwrap_or_else(|| panic!("unknown portfolio {}", opts.portfolio));
            if set.name != opts.portfolio {
                crate::log::info(
                    1,
                    format_args!("portfolio: {} gates, set {}", ts.aig.num_ands(), set.name),
                );
            }
            let mut workers: Vec<Box<dyn Engine + Send>> = Vec::new();
            let mut shares = Vec::new();
            // Word-level BMC only where there is a word-level model; no engine whose answer
            // failed its check.
            let on = |_: &str, row: &configs::Row| {
                ((row.engine != EngineKind::Smt || words.is_some())
                    && !opts.left_out.contains(&row.engine.name()))
                .then(|| row.on(ts))
            };
            let members = cores::members(set, opts.jobs, on);
            let names: Vec<&str> = members.iter().map(|&(name, _)| name).collect();
            crate::log::info(
                1,
                format_args!("portfolio: {} cores: {}", opts.jobs, names.join(", ")),
            );
            for (name, share) in members {
                let row = configs::config(name)
                    .expect("portfolios name known configurations")
                    .row();
                let worker = Options {
                    smt_limit: Some(PORTFOLIO_SMT_LIMIT),
                    ..opts.with_row(row)
                };
                workers.push(build(ts, &worker, pool, words));
                shares.push(share);
            }
            let portfolio = Portfolio::new(workers)
                .with_slots(opts.jobs)
                .with_shares(&shares);
            Box::new(match opts.mem_limit {
                Some(mib) => portfolio.with_memory_limit(mib),
                None => portfolio,
            })
        }
    }
}

/// BMC, k-induction or IC3 (k-liveness runs IC3 on bad states), as `opts` configures
/// them: k-induction and IC3 share `pool`, BMC and k-induction's base case start at depth
/// `from` (the depths below are known clean). Alone, or as a stage of a sequence.
fn stage(
    kind: EngineKind,
    opts: &Options,
    pool: &LemmaPool,
    from: usize,
) -> Box<dyn Engine + Send> {
    match kind {
        EngineKind::Bmc => Box::new(
            Bmc::new(opts.max_depth)
                .with_options(opts.bmc)
                .from_depth(from),
        ),
        EngineKind::Kind => Box::new(
            Kind::new(opts.max_depth)
                .with_lemma_pool(pool.clone())
                .from_depth(from),
        ),
        // IC3 one step ahead proves its lemmas among the states where the property holds,
        // not in every reachable state: it shares none.
        _ if opts.ic3.pred_prop => {
            Box::new(Lookahead::new(Box::new(Ic3::new().with_options(opts.ic3))))
        }
        _ => Box::new(
            Ic3::new()
                .with_options(opts.ic3)
                .with_lemma_pool(pool.clone()),
        ),
    }
}

/// Checks the bad properties of `ts`. `Err` is an internal error (an engine's answer failed
/// verification); it must be reported, never printed as a verdict.
pub fn run(
    ts: &TransitionSystem,
    opts: &Options,
    budget: &Budget,
) -> Result<Report, InternalError> {
    run_with(ts, None, opts, budget)
}

/// [`run`] on the system `ts` blasted from the word-level model `words`, which the SMT engine
/// checks (`--engine smt`, and the SMT worker of a portfolio that has one). The SMT engine
/// alone checks `ts` unreduced: it does not look at the bit level but to replay.
pub fn run_with(
    ts: &TransitionSystem,
    words: Option<&Words>,
    opts: &Options,
    budget: &Budget,
) -> Result<Report, InternalError> {
    let start = Instant::now();
    if ts.bad.is_empty() {
        return Ok(Report {
            answer: Answer::Unknown { depth: None },
            engine: opts.engine.name(),
            stats: Vec::new(),
            time: start.elapsed(),
            note: Some("the model has no bad-state properties".into()),
            condition: None,
            automaton: None,
        });
    }
    let prepared;
    let (reduced, restore) = match opts.engine {
        EngineKind::Smt => (ts, Restore::identity(ts)),
        _ => {
            let (system, restore) = prepare(ts, opts, budget);
            prepared = system;
            (&prepared, restore)
        }
    };
    let context = words.map(|w| WordContext {
        words: w.clone(),
        lowering: Arc::new(crate::wl::Lowering::new(ts)),
        restore: restore.clone(),
    });
    let bound = opts
        .complete_depth
        .filter(|_| opts.engine != EngineKind::Smt);
    let pool = LemmaPool::new();
    if let Some(c) = &opts.condition {
        c.assume(reduced, &restore, &pool, budget);
    }
    let engine_opts = Options {
        jobs: opts
            .jobs
            .saturating_sub(usize::from(bound.is_some()))
            .max(1),
        ..opts.clone()
    };
    let mut engine = build(reduced, &engine_opts, &pool, context.as_ref());
    crate::fault::inject(engine.name());
    // A portfolio shows each of its workers on the status line; any other engine itself.
    let running =
        (opts.engine != EngineKind::Portfolio).then(|| budget.progress().open(engine.name()));
    let engine_budget = match &running {
        Some(r) => budget.child().with_progress(r.progress().clone()),
        None => budget.child(),
    };
    let side_budget = budget.child();
    let (verdict, bounded) = std::thread::scope(|s| {
        let (engine_budget, side_budget) = (&engine_budget, &side_budget);
        let bounded = bound.map(|bound| {
            s.spawn(move || {
                let decided = bmc_to(ts, bound, side_budget);
                if decided.is_some() {
                    engine_budget.stop();
                }
                decided
            })
        });
        let verdict = engine.check(reduced, engine_budget);
        if !matches!(verdict, Verdict::Unknown { .. }) {
            side_budget.stop();
        }
        let bounded = bounded.and_then(|h| h.join().expect("the side check does not panic"));
        (verdict, bounded)
    });
    drop(running);
    // The engine's solvers are no longer needed: freed before the check, which may need as
    // much memory again (a deep k-induction proof's window).
    let (name, stats) = (engine.name(), engine.stats());
    drop(engine);
    let answer = match &bounded {
        // Found on `ts` itself: the trace is replayed there.
        Some(Verdict::Unsafe(t)) => {
            let identity = Restore::identity(ts);
            let trace = Verdict::Unsafe(t.clone());
            verify(ts, ts, &identity, trace, BOUNDED_BMC, budget)?
        }
        Some(_) => Answer::Unsat(Proof::Bounded {
            depth: bound.expect("decided beside the engine"),
        }),
        None => match verify(ts, reduced, &restore, verdict, name, budget) {
            Err(e)
                if opts.engine == EngineKind::Portfolio
                    && !opts.left_out.contains(&name)
                    && !budget.expired() =>
            {
                return again_without(ts, words, opts, budget, name, e, start);
            }
            verified => verified?,
        },
    };
    let mut report = Report::of(answer, name, stats, start);
    if let Answer::Unknown { depth } = report.answer {
        let verified = Condition {
            depth,
            lemmas: restore.lift_clauses(reduced, &pool.fetch(&mut 0)),
        };
        let assumed = opts.condition.as_deref().cloned().unwrap_or_default();
        report.condition = Some(assumed.join(verified));
    }
    if bounded.is_some() {
        report.engine = BOUNDED_BMC;
    }
    Ok(report)
}

/// A portfolio whose answer failed its check (a bug of the engine that gave it) runs again
/// without that engine for the time left, with a fresh lemma pool (the engine may have
/// shared lemmas that do not hold): one engine's bug should not cost the answer the others
/// can give. The error is reported on stderr either way; it stands as the run's result
/// when the second run answers nothing either. The report's time counts from `start`, the
/// first run's.
fn again_without(
    ts: &TransitionSystem,
    words: Option<&Words>,
    opts: &Options,
    budget: &Budget,
    engine: &'static str,
    error: InternalError,
    start: Instant,
) -> Result<Report, InternalError> {
    crate::log::warn(format_args!(
        "{error}; the portfolio runs again without {engine}"
    ));
    let mut left_out = opts.left_out.clone();
    left_out.push(engine);
    let again = Options {
        left_out,
        ..opts.clone()
    };
    match run_with(ts, words, &again, budget) {
        Ok(r) if !matches!(r.answer, Answer::Unknown { .. }) => Ok(Report {
            time: start.elapsed(),
            ..r
        }),
        _ => Err(error),
    }
}

/// The name reported for BMC up to [`Options::complete_depth`] when it decided.
const BOUNDED_BMC: &str = "bmc-bound";

/// BMC of `ts` up to `bound`, the length of its longest counterexample
/// ([`Options::complete_depth`]): its counterexample, or `Unknown` at the bound once every
/// depth up to it is clean (the property holds); `None` when it was stopped first. It checks
/// the original system, not the reduced one, so that the proof trusts no preprocessing.
fn bmc_to(ts: &TransitionSystem, bound: usize, budget: &Budget) -> Option<Verdict> {
    let start = Instant::now();
    match Bmc::new(Some(bound)).check(ts, budget) {
        Verdict::Unknown { depth } if depth != Some(bound) => return None,
        Verdict::Unknown { .. } => {}
        found => return Some(found),
    }
    crate::log::info(
        1,
        format_args!(
            "bmc: no counterexample within the bound {bound} (the longest path to the error), \
             {:.2} s",
            start.elapsed().as_secs_f64()
        ),
    );
    Some(Verdict::Unknown { depth: Some(bound) })
}

/// IC3 on `ts` as [`run`] runs it, offered `carried` (clauses over the latches of `ts`,
/// which need not hold: IC3 keeps only those it can check to be invariants) and leaving
/// there the lemmas of its frames, over the latches of `ts` again. k-liveness carries the
/// lemmas of one `k` to the next this way: preprocessing renumbers each system's latches,
/// while the counter systems keep the same latches in the same order.
pub fn run_ic3_carrying(
    ts: &TransitionSystem,
    opts: &Options,
    budget: &Budget,
    carried: &mut Vec<LatchClause>,
) -> Result<Report, InternalError> {
    let start = Instant::now();
    let (reduced, restore) = prepare(ts, opts, budget);
    let seeds = (carried.iter())
        .filter_map(|c| restore.lower_clause(&reduced, c))
        .collect();
    let mut ic3 = Ic3::new().with_options(opts.ic3).with_seeds(seeds);
    let verdict = ic3.check(&reduced, budget);
    *carried = restore.lift_clauses(&reduced, ic3.lemmas());
    let answer = verify(ts, &reduced, &restore, verdict, ic3.name(), budget)?;
    Ok(Report::of(answer, ic3.name(), ic3.stats(), start))
}

impl Report {
    /// The report of the verified `answer` of the engine `engine` (with its `stats`), for a
    /// run that began at `start`.
    fn of(answer: Answer, engine: &'static str, stats: Stats, start: Instant) -> Report {
        Report {
            answer,
            engine,
            stats,
            time: start.elapsed(),
            note: None,
            condition: None,
            automaton: None,
        }
    }
}

/// `ts` preprocessed as `opts` says, with its sizes before and after in the log.
fn prepare(ts: &TransitionSystem, opts: &Options, budget: &Budget) -> (TransitionSystem, Restore) {
    let (mut reduced, restore) = preprocess(ts, &opts.prep, budget);
    reduced.aig.compact();
    crate::log::info(
        1,
        format_args!(
            "model: {} inputs, {} latches, {} ands, {} word atoms; after preprocessing: {} inputs, \
             {} latches, {} ands, {} word atoms",
            ts.inputs.len(),
            ts.latches.len(),
            ts.aig.num_ands(),
            ts.atoms.len(),
            reduced.inputs.len(),
            reduced.latches.len(),
            reduced.aig.num_ands(),
            reduced.atoms.len()
        ),
    );
    (reduced, restore)
}

/// The verified answer for `verdict`, an engine's verdict about `reduced` (which `restore`
/// maps back to `ts`): the trace replayed and the invariant checked on `ts`.
fn verify(
    ts: &TransitionSystem,
    reduced: &TransitionSystem,
    restore: &Restore,
    verdict: Verdict,
    engine: &'static str,
    budget: &Budget,
) -> Result<Answer, InternalError> {
    Ok(match verdict {
        Verdict::Unsafe(t) => {
            let mut lifted = restore.trace(&t);
            match replay(ts, &lifted) {
                // Cut at the first bad frame: a jumping BMC's trace may run on past it.
                Ok(frame) => {
                    lifted.inputs.truncate(frame + 1);
                    Answer::Sat(lifted)
                }
                Err(e) => {
                    let reason = e.to_string();
                    return Err(InternalError::TraceDoesNotReplay { engine, reason });
                }
            }
        }
        Verdict::Safe(inv) => {
            let start = Instant::now();
            let lifted = inv.lift(reduced, ts, restore);
            // Found before the engines' deadline: checked until the run's end.
            let checked = cert::check(ts, &lifted, &budget.verifying());
            crate::log::info(
                1,
                format_args!(
                    "invariant checked in {:.2} s",
                    start.elapsed().as_secs_f64()
                ),
            );
            match checked {
                Ok(()) => Answer::Unsat(Proof::Invariant(lifted)),
                Err(CertError::Interrupted) => Answer::Unknown { depth: None },
                Err(e) => {
                    let reason = e.to_string();
                    return Err(InternalError::InvalidInvariant { engine, reason });
                }
            }
        }
        Verdict::Unknown { depth } => Answer::Unknown { depth },
    })
}
