//! Engines in parallel threads on the same system: the first definite answer wins and the
//! others are stopped. Workers share a [`LemmaPool`], so IC3's proved lemmas strengthen
//! k-induction while both run. With more workers than slots (`--jobs`), they take turns in
//! time slices ([`crate::timeslice`]).
//!
//! Memory: the workers' solvers share the process's `--mem-limit`, and the run stops at 90 %
//! of it ([`crate::budget::watch_memory`]). So that reaching the limit costs one worker
//! rather than all of them, a portfolio given the limit ([`Portfolio::with_memory_limit`])
//! stops the last worker of its order that still runs once the resident memory passes 75 %
//! of it, gives that worker's memory back to the system, and lets the others go on with the
//! room it freed (one worker at a time, never the last one).
//!
//! Each worker runs under `catch_unwind`: a panicking engine is reported on stderr (its name
//! and the message) and the others go on, so one engine's bug does not cost the answers of the
//! rest. If every worker panicked there is no answer at all, and the portfolio panics in turn
//! (the command line turns that into `unknown` and exit code 3). An answer that fails its
//! check after the race is the same kind of bug: [`crate::check`] then runs the portfolio
//! again without that engine.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use std::time::Duration;

use super::{Engine, Stats, Verdict};
use crate::error::panic_message;
use crate::timeslice::{run_gated, Gate};
use crate::ts::{Trace, TransitionSystem};
use crate::Budget;

/// How long a time-sliced worker of share 1 runs before it lets a waiting one have its core:
/// long enough that the switch costs nothing measurable, short enough that every worker of
/// a 20 s run gets many turns. Every worker's first turn is this long, whatever its share,
/// so the last worker in line starts after a quarter second, not after the first ones'
/// long slices (`bmc-deep` solves some data-integrity bugs within a second of the limit).
const SLICE: Duration = Duration::from_millis(250);

/// The share of the memory limit past which a worker is stopped so the others go on: below
/// the 90 % at which the whole run stops, with room for one growth step of the survivors
/// while the stopped worker unwinds.
const SHED_PERCENT: u64 = 75;

/// How often the resident memory is read while workers may be shed (as
/// [`crate::budget::watch_memory`] does).
const SHED_POLL: Duration = Duration::from_millis(10);

/// A set of engines run side by side.
pub struct Portfolio {
    workers: Vec<Box<dyn Engine + Send>>,
    /// How many workers run at once (all of them when `None`).
    slots: Option<usize>,
    /// Each worker's time slice in units of [`SLICE`], when they take turns.
    shares: Vec<u32>,
    /// Resident MiB past which a worker is shed (`None`: never).
    shed_mib: Option<u64>,
    winner: Option<&'static str>,
    stats: Stats,
}

impl Portfolio {
    /// A portfolio of `workers` (built by the caller so they can share a lemma pool).
    pub fn new(workers: Vec<Box<dyn Engine + Send>>) -> Portfolio {
        Portfolio {
            shares: vec![1; workers.len()],
            workers,
            slots: None,
            shed_mib: None,
            winner: None,
            stats: Vec::new(),
        }
    }

    /// Runs at most `slots` workers at once; the others wait for time slices.
    pub fn with_slots(mut self, slots: usize) -> Portfolio {
        self.slots = Some(slots.max(1));
        self
    }

    /// Time slices of `shares[i]` units for worker `i` (1 for those beyond the list) when
    /// they take turns: a worker's share of the cores grows with its slice.
    pub fn with_shares(mut self, shares: &[u32]) -> Portfolio {
        for (mine, &given) in self.shares.iter_mut().zip(shares) {
            *mine = given.max(1);
        }
        self
    }

    /// Sheds workers when the process nears `limit_mib` (the run's `--mem-limit`), so that
    /// the limit stops one worker at a time instead of the whole run.
    pub fn with_memory_limit(mut self, limit_mib: u64) -> Portfolio {
        self.shed_mib = Some(limit_mib * SHED_PERCENT / 100);
        self
    }

    /// The engine whose answer was taken.
    pub fn winner(&self) -> Option<&'static str> {
        self.winner
    }
}

impl Engine for Portfolio {
    fn name(&self) -> &'static str {
        self.winner.unwrap_or("portfolio")
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        let race = budget.child();
        let (tx, rx) = mpsc::channel();
        let stats = Mutex::new(Vec::new());
        let mut answer: Option<(&'static str, Verdict)> = None;
        let mut deepest: Option<usize> = None;
        let workers = self.workers.len();
        let mut panicked = 0;
        // Each worker's own budget, so that one can be shed alone.
        let own: Vec<Budget> = (0..workers).map(|_| race.child()).collect();
        let done: Vec<AtomicBool> = (0..workers).map(|_| AtomicBool::new(false)).collect();
        // Whether each worker's memory went back (after it returned: see below).
        let freed: Vec<Arc<AtomicBool>> = (0..workers).map(|_| Arc::default()).collect();
        let names: Vec<&'static str> = self.workers.iter().map(|w| w.name()).collect();
        let shed = AtomicU64::new(0);
        std::thread::scope(|s| {
            let gate = self
                .slots
                .filter(|&n| n < self.workers.len())
                .map(Gate::new);
            if let Some(limit) = self.shed_mib.filter(|_| workers > 1) {
                let (own, done, freed, names, shed) = (&own, &done, &freed, &names, &shed);
                s.spawn(move || shed_on_memory(limit, own, done, freed, names, shed));
            }
            for (i, mut worker) in self.workers.drain(..).enumerate() {
                let (tx, stats) = (tx.clone(), &stats);
                // Places in the queue in the portfolio's order: the first workers have the
                // first turns (a shallow bug is found by them, not by bmc-deep's jumps).
                let ticket = gate.as_ref().map(|g| g.ticket());
                let slice = SLICE * self.shares[i];
                let (budget, done, freed) = (&own[i], &done[i], freed[i].clone());
                s.spawn(move || {
                    let name = worker.name();
                    // On the status line while it runs or waits for its turn.
                    let running = budget.progress().open(name);
                    let budget = &budget.clone().with_progress(running.progress().clone());
                    let run = catch_unwind(AssertUnwindSafe(|| {
                        crate::fault::inject(name);
                        if crate::fault::lies(name) {
                            return Verdict::Unsafe(Trace {
                                init: vec![false; ts.latches.len()],
                                inputs: vec![vec![false; ts.inputs.len()]],
                                bad: 0,
                            });
                        }
                        match ticket {
                            Some(t) => run_gated(t, SLICE, slice, &|| budget.expired(), || {
                                worker.check(ts, budget)
                            }),
                            None => worker.check(ts, budget),
                        }
                    }));
                    let v = run.map_err(|payload| {
                        let message = panic_message(&*payload);
                        crate::log::warn(format_args!(
                            "engine {name} panicked: {message}; the others go on"
                        ));
                    });
                    if v.is_ok() {
                        stats.lock().unwrap().extend(worker.stats());
                    }
                    drop(running);
                    // What the worker holds is freed on a thread that nothing waits for:
                    // freeing a large unrolling takes seconds on a loaded machine, and the
                    // portfolio's answer, or at the time limit the process's exit, must not
                    // wait for it. A stopped worker's (shed, lost the race, or out of budget)
                    // goes back to the system for the workers still running.
                    let stopped = budget.expired();
                    std::thread::spawn(move || {
                        drop(worker);
                        if stopped {
                            release_free_memory();
                        }
                        freed.store(true, Ordering::SeqCst);
                    });
                    done.store(true, Ordering::SeqCst);
                    let _ = tx.send((name, v));
                });
            }
            drop(tx);
            for (name, v) in rx {
                let Ok(v) = v else {
                    panicked += 1;
                    continue;
                };
                match v {
                    Verdict::Unknown { depth } => deepest = deepest.max(depth),
                    definite if answer.is_none() => {
                        crate::log::info(1, format_args!("portfolio: {name} answered first"));
                        race.stop();
                        answer = Some((name, definite));
                    }
                    _ => {}
                }
            }
        });
        self.stats = stats.into_inner().unwrap();
        let shed = shed.into_inner();
        if shed > 0 {
            self.stats.push(("portfolio_shed_workers", shed));
        }
        match answer {
            Some((name, v)) => {
                self.winner = Some(name);
                v
            }
            None if workers > 0 && panicked == workers => {
                panic!("every portfolio worker panicked ({workers})")
            }
            None => Verdict::Unknown { depth: deepest },
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// Stops the last worker of the order that still runs (one at a time, never the last one)
/// while the resident memory is above `limit_mib`, until every worker has returned; the next
/// one only once the last one stopped has returned its memory. Counts the workers it stopped
/// in `shed`.
fn shed_on_memory(
    limit_mib: u64,
    budgets: &[Budget],
    done: &[AtomicBool],
    freed: &[Arc<AtomicBool>],
    names: &[&'static str],
    shed: &AtomicU64,
) {
    let mut unwinding: Option<usize> = None;
    loop {
        let live: Vec<usize> = (0..done.len())
            .filter(|&i| !done[i].load(Ordering::SeqCst))
            .collect();
        let Some(&last) = live.last() else { return };
        if unwinding.is_some_and(|i| freed[i].load(Ordering::SeqCst)) {
            unwinding = None;
        }
        if unwinding.is_none() && live.len() > 1 {
            let mib = crate::budget::resident_mib();
            if mib > limit_mib {
                crate::log::info(
                    1,
                    format_args!(
                        "portfolio: {mib} MiB resident, past {limit_mib} MiB: stopping {} so the \
                         others go on",
                        names[last]
                    ),
                );
                budgets[last].stop();
                shed.fetch_add(1, Ordering::SeqCst);
                unwinding = Some(last);
            }
        }
        std::thread::sleep(SHED_POLL);
    }
}

/// Returns the freed pages of every malloc arena to the system: CaDiCaL's clauses are small
/// allocations that glibc otherwise keeps in the arena of the thread that freed them, so a
/// stopped worker's memory would still count as resident.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bmc::Bmc;
    use crate::ts::tests::counter;
    use std::sync::Arc;

    #[test]
    fn first_definite_answer_wins_and_stops_the_rest() {
        let ts = counter(4, 9, false);
        // The bounded worker gives up at depth 3; the unbounded one finds the bug at 9.
        let mut p = Portfolio::new(vec![Box::new(Bmc::new(None)), Box::new(Bmc::new(Some(3)))]);
        match p.check(&ts, &Budget::new(None)) {
            Verdict::Unsafe(t) => assert_eq!(t.depth(), 9),
            v => panic!("expected a counterexample, got {v:?}"),
        }
        assert_eq!(p.winner(), Some("bmc"));
    }

    /// An engine with a bug: it panics when it checks.
    struct Panicking;

    impl Engine for Panicking {
        fn name(&self) -> &'static str {
            "panicking"
        }
        fn check(&mut self, _: &TransitionSystem, _: &Budget) -> Verdict {
            panic!("engine bug")
        }
        fn stats(&self) -> Stats {
            Vec::new()
        }
    }

    #[test]
    fn a_panicking_worker_does_not_stop_the_others() {
        let ts = counter(4, 9, false);
        let mut p = Portfolio::new(vec![Box::new(Panicking), Box::new(Bmc::new(None))]);
        match p.check(&ts, &Budget::new(None)) {
            Verdict::Unsafe(t) => assert_eq!(t.depth(), 9),
            v => panic!("expected a counterexample, got {v:?}"),
        }
        assert_eq!(p.winner(), Some("bmc"));
    }

    #[test]
    fn a_portfolio_whose_every_worker_panicked_panics() {
        let ts = counter(4, 9, false);
        let mut p = Portfolio::new(vec![Box::new(Panicking), Box::new(Panicking)]);
        let run = catch_unwind(AssertUnwindSafe(|| p.check(&ts, &Budget::new(None))));
        let message = panic_message(&*run.expect_err("no worker left: the portfolio panics"));
        assert!(
            message.contains("every portfolio worker panicked"),
            "{message}"
        );
    }

    #[test]
    fn workers_beyond_the_slots_run_in_time_slices_and_answer() {
        let ts = counter(4, 9, false);
        // One slot for three workers: the unbounded worker must get turns to find the bug.
        let mut p = Portfolio::new(vec![
            Box::new(Bmc::new(Some(3))),
            Box::new(Bmc::new(None)),
            Box::new(Bmc::new(Some(5))),
        ])
        .with_slots(1);
        match p.check(&ts, &Budget::new(None)) {
            Verdict::Unsafe(t) => assert_eq!(t.depth(), 9),
            v => panic!("expected a counterexample, got {v:?}"),
        }
    }

    #[test]
    fn unknown_reports_the_deepest_bound() {
        let ts = counter(4, 9, false);
        let mut p = Portfolio::new(vec![
            Box::new(Bmc::new(Some(3))),
            Box::new(Bmc::new(Some(5))),
        ]);
        match p.check(&ts, &Budget::new(None)) {
            Verdict::Unknown { depth } => assert_eq!(depth, Some(5)),
            v => panic!("expected unknown, got {v:?}"),
        }
    }

    /// Runs until its budget stops it, then raises `stopped`.
    struct Stubborn(Arc<AtomicBool>);

    impl Engine for Stubborn {
        fn name(&self) -> &'static str {
            "stubborn"
        }
        fn check(&mut self, _: &TransitionSystem, budget: &Budget) -> Verdict {
            while !budget.expired() {
                std::thread::sleep(Duration::from_millis(5));
            }
            self.0.store(true, Ordering::SeqCst);
            Verdict::Unknown { depth: None }
        }
        fn stats(&self) -> Stats {
            Vec::new()
        }
    }

    /// Waits for `Stubborn` to stop, then runs BMC.
    struct AfterStubborn(Arc<AtomicBool>, Bmc);

    impl Engine for AfterStubborn {
        fn name(&self) -> &'static str {
            "after-stubborn"
        }
        fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
            while !self.0.load(Ordering::SeqCst) && !budget.expired() {
                std::thread::sleep(Duration::from_millis(5));
            }
            self.1.check(ts, budget)
        }
        fn stats(&self) -> Stats {
            Vec::new()
        }
    }

    #[test]
    fn past_the_memory_share_the_last_worker_is_stopped_and_the_others_go_on() {
        let ts = counter(4, 9, false);
        let stubborn_stopped = Arc::new(AtomicBool::new(false));
        // A limit of 0 MiB: any resident memory is past it. The first worker only answers
        // once the second has been stopped, so the answer shows the shedding (the deadline
        // turns a missing shed into `unknown` instead of a hang).
        let mut p = Portfolio::new(vec![
            Box::new(AfterStubborn(stubborn_stopped.clone(), Bmc::new(None))),
            Box::new(Stubborn(stubborn_stopped.clone())),
        ])
        .with_memory_limit(0);
        match p.check(&ts, &Budget::new(Some(Duration::from_secs(20)))) {
            Verdict::Unsafe(t) => assert_eq!(t.depth(), 9),
            v => panic!("expected the first worker's counterexample, got {v:?}"),
        }
        assert_eq!(p.winner(), Some("after-stubborn"));
        assert!(p.stats().contains(&("portfolio_shed_workers", 1)));
    }
}
