//! Engines in parallel threads on the same system: the first definite answer wins and the
//! others are stopped. Workers share a [`LemmaPool`], so IC3's proved lemmas strengthen
//! k-induction while both run. With more workers than slots (`--jobs`), they take turns in
//! time slices ([`crate::timeslice`]).
//!
//! Each worker runs under `catch_unwind`: a panicking engine is reported on stderr (its name
//! and the message) and the others go on, so one engine's bug does not cost the answers of the
//! rest. If every worker panicked there is no answer at all, and the portfolio panics in turn
//! (the command line turns that into `unknown` and exit code 3).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Mutex;

use std::time::Duration;

use super::{Engine, Stats, Verdict};
use crate::error::panic_message;
use crate::timeslice::{run_gated, Gate};
use crate::ts::TransitionSystem;
use crate::Budget;

/// How long a time-sliced worker runs before it lets a waiting one have its core: long
/// enough that the switch costs nothing measurable, short enough that every worker of a
/// 20 s run gets many turns.
const SLICE: Duration = Duration::from_millis(250);

/// A set of engines run side by side.
pub struct Portfolio {
    workers: Vec<Box<dyn Engine + Send>>,
    /// How many workers run at once (all of them when `None`).
    slots: Option<usize>,
    winner: Option<&'static str>,
    stats: Stats,
}

impl Portfolio {
    /// A portfolio of `workers` (built by the caller so they can share a lemma pool).
    pub fn new(workers: Vec<Box<dyn Engine + Send>>) -> Portfolio {
        Portfolio {
            workers,
            slots: None,
            winner: None,
            stats: Vec::new(),
        }
    }

    /// Runs at most `slots` workers at once; the others wait for time slices.
    pub fn with_slots(mut self, slots: usize) -> Portfolio {
        self.slots = Some(slots.max(1));
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
        std::thread::scope(|s| {
            let gate = self
                .slots
                .filter(|&n| n < self.workers.len())
                .map(|n| Gate::new(n, SLICE));
            for mut worker in self.workers.drain(..) {
                let (tx, race, stats, gate) = (tx.clone(), race.clone(), &stats, gate.clone());
                s.spawn(move || {
                    let name = worker.name();
                    let run = catch_unwind(AssertUnwindSafe(|| {
                        crate::fault::inject(name);
                        match &gate {
                            Some(g) => run_gated(g, &|| race.expired(), || worker.check(ts, &race)),
                            None => worker.check(ts, &race),
                        }
                    }));
                    let v = run.map_err(|payload| {
                        let message = panic_message(&*payload);
                        eprintln!("warden: engine {name} panicked: {message}; the others go on");
                    });
                    if v.is_ok() {
                        stats.lock().unwrap().extend(worker.stats());
                    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bmc::Bmc;
    use crate::ts::tests::counter;

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
}
