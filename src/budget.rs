//! The time budget and stop flags shared by every engine and SAT solver of one run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::progress::Progress;

/// A deadline plus stop flags that a signal handler or a winning portfolio worker raises.
///
/// Cheap to clone; all clones share the flags. SAT solvers poll it through their terminate
/// callback, engines between queries, so a stop request ends a run within milliseconds.
/// A [`Budget::child`] can be stopped on its own (the portfolio stops the losers that way)
/// and still stops when its parent does.
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    /// The parents' flags first, this budget's own flag last.
    flags: Vec<Arc<AtomicBool>>,
    /// Where the engines holding this budget report how far they got (shared by the
    /// children, as the run is).
    progress: Progress,
}

impl Budget {
    /// A budget that ends after `limit` (never if `None`).
    pub fn new(limit: Option<Duration>) -> Budget {
        Budget {
            deadline: limit.map(|d| Instant::now() + d),
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
            flags,
            progress: self.progress.clone(),
        }
    }

    /// A child whose deadline is at most `limit` from now (for bounded helper work).
    pub fn child_for(&self, limit: Duration) -> Budget {
        let mut child = self.child();
        let end = Instant::now() + limit;
        child.deadline = Some(self.deadline.map_or(end, |d| d.min(end)));
        child
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
        self.flags.iter().any(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
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
/// still grow past the limit itself (code that does not poll the budget while it allocates),
/// calls `ceiling` at once instead of waiting for the overrun grace: the run's peak stays
/// within 10 % of the limit either way.
pub fn watch_memory(budget: &Budget, limit_mib: u64, ceiling: impl FnOnce() + Send + 'static) {
    let budget = budget.clone();
    let (soft, hard) = (limit_mib - limit_mib / 10, limit_mib);
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
                    format_args!("memory at {mib} MiB, past the {limit_mib} MiB limit: ending"),
                );
                ceiling();
                return;
            }
            std::thread::sleep(MEMORY_POLL);
        }
    });
}

/// Calls `fire` (on a thread of its own) once `budget` has been expired for `grace`: the last
/// resort that ends a run near its limit even when some code between two budget checks runs
/// for long (the engines poll their budget, but a long stretch without a check has happened,
/// and no engine can prove it never will). Polls every 50 ms.
pub fn on_overrun(budget: &Budget, grace: Duration, fire: impl FnOnce() + Send + 'static) {
    let budget = budget.clone();
    std::thread::spawn(move || {
        let mut expired_at = None;
        loop {
            std::thread::sleep(Duration::from_millis(50));
            if !budget.expired() {
                continue;
            }
            let since = *expired_at.get_or_insert_with(Instant::now);
            if since.elapsed() >= grace {
                fire();
                return;
            }
        }
    });
}

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

    #[test]
    fn an_overrun_fires_after_the_grace_period_only() {
        let b = Budget::new(Some(Duration::from_millis(100)));
        let (tx, rx) = std::sync::mpsc::channel();
        let start = Instant::now();
        on_overrun(&b, Duration::from_millis(300), move || tx.send(()).unwrap());
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(400));
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
