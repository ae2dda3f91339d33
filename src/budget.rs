//! The time budget and stop flags shared by every engine and SAT solver of one run.
//!
//! Layer: plumbing; imports only the other plumbing ([`crate::log`], [`crate::progress`],
//! [`crate::timeslice`]), since every layer above takes a budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use crate::progress::Progress;
use crate::timeslice::thread_cpu;

/// A deadline plus stop flags that a signal handler or a winning portfolio worker raises.
///
/// Cheap to clone; all clones share the flags. SAT solvers poll it through their terminate
/// callback, engines between queries, so a stop request ends a run within milliseconds.
/// A [`Budget::child`] can be stopped on its own (the portfolio stops the losers that way)
/// and still stops when its parent does.
///
/// A run's budget has two instants: the deadline, where the engines stop, and the end, by
/// which the answer must be verified ([`Budget::verifying`]) so that it can still be
/// printed within the time limit (see [`Budget::with_reserve`]).
///
/// A budget may also end after an amount of its thread's CPU time ([`Budget::child_for_cpu`]):
/// for optional passes whose result should not depend on how loaded the machine is.
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    /// A limit on the CPU time of the thread that set it, besides the deadline.
    cpu: Option<CpuLimit>,
    /// The end of the run: at or after `deadline`.
    end: Option<Instant>,
    /// The parents' flags first, this budget's own flag last.
    flags: Vec<Arc<AtomicBool>>,
    /// Where the engines holding this budget report how far they got (shared by the
    /// children, as the run is).
    progress: Progress,
}

impl Budget {
    /// A budget that ends after `limit` (never if `None`); its engines may use all of it.
    pub fn new(limit: Option<Duration>) -> Budget {
        Budget::with_reserve(limit, Duration::ZERO)
    }

    /// A budget that ends after `limit` whose engines stop `reserve` earlier: the time between
    /// is for verifying an answer found before the engines' deadline, which
    /// [`Budget::verifying`] may use, and for printing it.
    pub fn with_reserve(limit: Option<Duration>, reserve: Duration) -> Budget {
        let end = limit.map(|d| Instant::now() + d);
        Budget {
            deadline: end.map(|e| e.checked_sub(reserve).unwrap_or(e)),
            cpu: None,
            end,
            flags: vec![Arc::new(AtomicBool::new(false))],
            progress: Progress::default(),
        }
    }

    /// This budget reporting the engines' progress to `progress` (see [`crate::progress`]).
    pub fn with_progress(self, progress: Progress) -> Budget {
        Budget { progress, ..self }
    }

    /// The handle engines report their depth, frame or lemmas to.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// A budget with the same deadline that stops when `self` stops, and can be stopped alone.
    pub fn child(&self) -> Budget {
        let mut flags = self.flags.clone();
        flags.push(Arc::new(AtomicBool::new(false)));
        Budget {
            deadline: self.deadline,
            cpu: self.cpu.clone(),
            end: self.end,
            flags,
            progress: self.progress.clone(),
        }
    }

    /// A child whose deadline is at most `limit` from now (for bounded helper work). An
    /// answer found in that time is verified by the parent's end, if it has one, else by the
    /// child's deadline.
    pub fn child_for(&self, limit: Duration) -> Budget {
        let mut child = self.child();
        let end = Instant::now() + limit;
        child.deadline = Some(self.deadline.map_or(end, |d| d.min(end)));
        child.end = self.end.or(child.deadline);
        child
    }

    /// A child that ends after `cpu` more of the calling thread's CPU time, or `wall` from now,
    /// whichever comes first (and when `self` ends). Wall time on a loaded machine counts the
    /// turns other processes take: a pass bounded by it decides less the busier the machine
    /// is (seen: `scorr`'s proof that takes 0.55 s on a free core cut at its 1 s while two
    /// runs shared two cores with other work, and the task it would have decided at once left
    /// open). The CPU limit binds only on the calling thread; `wall` bounds the rest.
    pub fn child_for_cpu(&self, cpu: Duration, wall: Duration) -> Budget {
        let mut child = self.child_for(wall);
        let until = thread_cpu() + cpu;
        child.cpu = Some(match self.cpu.as_ref().filter(|c| c.on_this_thread()) {
            Some(c) if c.until < until => c.clone(),
            _ => CpuLimit {
                thread: std::thread::current().id(),
                until,
            },
        });
        child
    }

    /// A child with `1 / divisor` of what is left of this budget, on each of its clocks (all
    /// of it if it has no deadline and no CPU limit).
    pub fn child_share(&self, divisor: u32) -> Budget {
        let mut child = match self.remaining() {
            Some(left) => self.child_for(left / divisor),
            None => self.child(),
        };
        if let Some(c) = self.cpu.as_ref().filter(|c| c.on_this_thread()) {
            let now = thread_cpu();
            child.cpu = Some(CpuLimit {
                thread: c.thread,
                until: now + c.until.saturating_sub(now) / divisor,
            });
        }
        child
    }

    /// This budget for verifying an answer the engines found: it stops with `self`'s flags
    /// (a signal, the memory limit, a winner elsewhere), and at the run's end instead of the
    /// engines' deadline, so that an answer found just before that deadline is still checked.
    pub fn verifying(&self) -> Budget {
        Budget {
            deadline: self.end,
            ..self.clone()
        }
    }

    /// Whether a stop was asked for (by a signal, the memory limit or a winner elsewhere),
    /// deadline aside.
    fn stopped(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::Relaxed))
    }

    /// Time left before the deadline (`None`: no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Asks every holder of this budget (and of its children) to stop.
    pub fn stop(&self) {
        self.flags.last().unwrap().store(true, Ordering::Relaxed);
    }

    /// Whether the run must end now. Also the point where a time-sliced portfolio worker
    /// hands its core to the next one ([`crate::timeslice::checkpoint`]).
    pub fn expired(&self) -> bool {
        if self.over() {
            return true;
        }
        crate::timeslice::checkpoint(&|| self.over());
        self.over()
    }

    fn over(&self) -> bool {
        self.stopped()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cpu.as_ref().is_some_and(CpuLimit::reached)
    }
}

/// An instant in one thread's CPU time ([`Budget::child_for_cpu`]).
#[derive(Clone, Debug)]
struct CpuLimit {
    thread: ThreadId,
    until: Duration,
}

impl CpuLimit {
    fn on_this_thread(&self) -> bool {
        std::thread::current().id() == self.thread
    }

    /// Whether the thread that set the limit has used its time; elsewhere, never.
    fn reached(&self) -> bool {
        self.on_this_thread() && thread_cpu() >= self.until
    }
}

/// Resident memory of this process and of its child processes in MiB (0 where `/proc` is
/// not available). The children are Spacer's Z3 ([`crate::engine::chc`]): the memory limit
/// is the run's, whichever process holds it.
pub fn resident_mib() -> u64 {
    let children = std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .map(|pids| {
            (pids.split_whitespace())
                .map(|pid| resident_pages(&format!("/proc/{pid}/statm")))
                .sum::<u64>()
        });
    let pages = resident_pages("/proc/self/statm") + children.sum::<u64>();
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(0) as u64;
    pages * page / (1024 * 1024)
}

/// The resident pages a `statm` file gives (0 when it cannot be read).
fn resident_pages(statm: &str) -> u64 {
    let statm = std::fs::read_to_string(statm).unwrap_or_default();
    (statm.split_whitespace().nth(1))
        .and_then(|p| p.parse().ok())
        .unwrap_or(0)
}

/// How often [`watch_memory`] reads the resident memory: an allocation-heavy stretch (a
/// bit-blaster, a SAT solver's clause database) grows by at most a few MiB in that time.
const MEMORY_POLL: Duration = Duration::from_millis(10);

/// Stops `budget` when the process's resident memory exceeds 90 % of `limit_mib`, like a
/// timeout: the engines return `unknown` instead of being killed by the system. The margin is
/// for the growth step in progress when the stop is seen: a SAT solver doubles its clause
/// arena or watch lists at once (seen: 400 to 441 MiB within one 10 ms poll). Should memory
/// still grow past 95 % of the limit (code that does not poll the budget while it
/// allocates, or a solver's tables doubling while the engine unwinds: seen, 1,614 to 1,823
/// MiB within 180 ms of the stop under an 1,800 MiB limit), calls `ceiling` at once instead
/// of waiting for the overrun grace. The ceiling is below the limit itself so that the
/// growth within one poll ends under it: a harness that kills at the limit does not see
/// the run pass it.
pub fn watch_memory(budget: &Budget, limit_mib: u64, ceiling: impl FnOnce() + Send + 'static) {
    let budget = budget.clone();
    let (soft, hard) = (limit_mib - limit_mib / 10, limit_mib - limit_mib / 20);
    std::thread::spawn(move || {
        let mut stopped = false;
        loop {
            let mib = resident_mib();
            if mib > soft && !stopped {
                crate::log::info(
                    0,
                    format_args!("{soft} MiB, 90 % of the memory limit of {limit_mib} MiB, reached: stopping"),
                );
                budget.stop();
                stopped = true;
            }
            if mib > hard {
                crate::log::info(
                    0,
                    format_args!(
                        "memory at {mib} MiB, past 95 % of the {limit_mib} MiB limit: ending"
                    ),
                );
                ceiling();
                return;
            }
            std::thread::sleep(MEMORY_POLL);
        }
    });
}

/// Calls `fire` (on a thread of its own) `grace.end` after the end of `budget` (see
/// [`Budget::with_reserve`]), or `grace.stop` after a stop request (a signal, the memory
/// limit), whichever comes first: the last resort that ends a run near its limit even when
/// some code between two budget checks runs for long (the engines poll their budget, but a
/// long stretch without a check has happened, and no engine can prove it never will), or
/// when verifying and printing an answer takes longer than the reserve left for them. The
/// thread sleeps until the instant it may have to fire, waking every 50 ms only to look for
/// a stop request: a sleeping thread is woken on time even on a machine with more busy
/// threads than cores, where a thread that polls often competes with them for its turns. It
/// takes no lock and reads no engine state.
pub fn on_overrun(budget: &Budget, grace: Grace, fire: impl FnOnce() + Send + 'static) {
    let budget = budget.clone();
    std::thread::spawn(move || {
        let mut due = budget.end.map(|end| end + grace.end);
        let mut stop_seen = false;
        loop {
            let now = Instant::now();
            if due.is_some_and(|d| now >= d) {
                fire();
                return;
            }
            if !stop_seen && budget.stopped() {
                stop_seen = true;
                let by_stop = now + grace.stop;
                due = Some(due.map_or(by_stop, |d| d.min(by_stop)));
            }
            let nap = due.map_or(STOP_POLL, |d| (d - now).min(STOP_POLL));
            std::thread::sleep(nap);
        }
    });
}

/// How long [`on_overrun`] lets a run go on past its end, and past a stop request.
#[derive(Clone, Copy, Debug)]
pub struct Grace {
    pub end: Duration,
    pub stop: Duration,
}

/// How often [`on_overrun`] looks for a stop request.
const STOP_POLL: Duration = Duration::from_millis(50);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_is_shared_between_clones() {
        let b = Budget::new(None);
        let c = b.clone();
        assert!(!c.expired());
        b.stop();
        assert!(c.expired());
    }

    #[test]
    fn a_child_stops_alone_or_with_its_parent() {
        let parent = Budget::new(None);
        let (a, b) = (parent.child(), parent.child());
        a.stop();
        assert!(a.expired() && !b.expired() && !parent.expired());
        parent.stop();
        assert!(b.expired());
    }

    /// A CPU limit counts the thread's own work, not time spent waiting, and binds on that
    /// thread only; a share of it is a share of what is left.
    #[test]
    fn a_cpu_limit_counts_only_the_threads_own_time() {
        let parent = Budget::new(Some(Duration::from_secs(600)));
        let child = parent.child_for_cpu(Duration::from_millis(200), Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(300));
        assert!(!child.expired(), "sleeping used no CPU time");
        let half = child.child_share(2);
        let start = thread_cpu();
        while !half.expired() {}
        let used = thread_cpu() - start;
        assert!(
            used < Duration::from_millis(200),
            "half of the 200 ms, not {used:?}"
        );
        assert!(!child.expired());
        while !child.expired() {}
        assert!(
            thread_cpu() - start >= Duration::from_millis(150),
            "the whole 200 ms"
        );
        let elsewhere = child.clone();
        assert!(!std::thread::spawn(move || elsewhere.expired())
            .join()
            .unwrap());
        assert!(!parent.expired());
    }

    #[test]
    fn an_overrun_fires_after_the_grace_period_only() {
        let b = Budget::new(Some(Duration::from_millis(100)));
        let (tx, rx) = std::sync::mpsc::channel();
        let start = Instant::now();
        let grace = Grace {
            end: Duration::from_millis(300),
            stop: Duration::from_secs(100),
        };
        on_overrun(&b, grace, move || tx.send(()).unwrap());
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(400));
    }

    #[test]
    fn an_overrun_fires_after_a_stop_without_a_time_limit() {
        let b = Budget::new(None);
        let (tx, rx) = std::sync::mpsc::channel();
        let grace = Grace {
            end: Duration::ZERO,
            stop: Duration::from_millis(100),
        };
        on_overrun(&b, grace, move || tx.send(()).unwrap());
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        b.stop();
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
    }

    #[test]
    fn verification_goes_on_past_the_engines_deadline_to_the_end() {
        // The engines' deadline is now; the end is 100 s away.
        let limit = Duration::from_secs(100);
        let b = Budget::with_reserve(Some(limit), limit);
        assert!(b.expired() && b.child().expired());
        let v = b.child().verifying();
        assert!(!v.expired() && v.remaining().unwrap() > Duration::from_secs(90));
        // A stop request ends the verification as well.
        b.stop();
        assert!(v.expired());
        assert!(Budget::new(None).verifying().remaining().is_none());
    }

    #[test]
    fn memory_watch_stops_the_budget_then_calls_the_ceiling() {
        assert!(resident_mib() > 0);
        let b = Budget::new(Some(Duration::from_secs(10)));
        let (tx, rx) = std::sync::mpsc::channel();
        // Past the limit and its 5 % margin at once (any process is above 0 MiB): the budget
        // stops first, then the ceiling is called.
        watch_memory(&b, 0, move || tx.send(()).unwrap());
        rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(b.expired());
    }

    #[test]
    fn limits_expire() {
        assert!(Budget::new(Some(Duration::ZERO)).expired());
        let long = Budget::new(Some(Duration::from_secs(100)));
        assert!(long.child_for(Duration::ZERO).expired());
        assert!(long.remaining().unwrap() > Duration::from_secs(90));
    }
}
