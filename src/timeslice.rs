//! Time slices for more portfolio workers than cores.
//!
//! A portfolio on 2 cores may run more configurations than there are cores (`--jobs` says how
//! many run at once). Left to the operating system, 3 busy threads on 2 cores each get two
//! thirds of a core, and `--jobs` would not mean what it says. Instead a [`Gate`] hands out
//! `jobs` slots: a worker thread holds one while it runs and gives it up at its next budget
//! check once its slice is over and another worker waits, then queues (first come, first
//! served) for the next free slot. Each worker has a slice of its own length, so workers
//! can have unequal shares of the cores (a configuration that pays off only now and then
//! can run in short turns beside long ones). The check is the one every engine and SAT
//! solver already makes: [`crate::Budget::expired`] calls [`checkpoint`], which costs a
//! thread-local read while a thread is not gated. Helper threads an engine starts itself (k-induction's
//! invariant generator) are not gated: the slot belongs to the worker's own thread.
//!
//! Layer: plumbing; imports nothing of the crate (the budget of every run waits on it).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// `slots` places to run, rotated among the threads that ask for one.
pub struct Gate {
    state: Mutex<State>,
    turn_over: Condvar,
}

struct State {
    free: usize,
    /// Tickets of the waiting threads, oldest first.
    queue: VecDeque<u64>,
    next_ticket: u64,
}

impl Gate {
    /// A gate with `slots` places (at least one).
    pub fn new(slots: usize) -> Arc<Gate> {
        Arc::new(Gate {
            state: Mutex::new(State {
                free: slots.max(1),
                queue: VecDeque::new(),
                next_ticket: 0,
            }),
            turn_over: Condvar::new(),
        })
    }

    /// A place in the queue for a slot. Workers that take theirs before they start (the
    /// portfolio does, in its order) are let in in that order, whichever thread starts first.
    pub fn ticket(self: &Arc<Gate>) -> Ticket {
        let mut st = self.state.lock().unwrap();
        let number = st.next_ticket;
        st.next_ticket += 1;
        st.queue.push_back(number);
        Ticket {
            gate: self.clone(),
            number,
        }
    }

    /// Waits for a slot with a new ticket (see [`Ticket::wait`]).
    fn acquire(self: &Arc<Gate>, stopped: &dyn Fn() -> bool) -> bool {
        self.ticket().wait(stopped)
    }

    fn release(&self) {
        self.state.lock().unwrap().free += 1;
        self.turn_over.notify_all();
    }

    fn contended(&self) -> bool {
        !self.state.lock().unwrap().queue.is_empty()
    }
}

/// A worker's place in a [`Gate`]'s queue, taken by [`Gate::ticket`]. Dropped unused (its
/// worker panicked before it started), it leaves the queue so the next in line goes on.
pub struct Ticket {
    gate: Arc<Gate>,
    number: u64,
}

impl Ticket {
    /// Waits for a slot (in ticket order). Gives up, holding none, once `stopped()`: a
    /// stopped worker must reach its end, not wait for a turn. Returns whether it holds one.
    fn wait(self, stopped: &dyn Fn() -> bool) -> bool {
        let mut st = self.gate.state.lock().unwrap();
        let held = loop {
            if st.free > 0 && st.queue.front() == Some(&self.number) {
                st.free -= 1;
                break true;
            }
            if stopped() {
                break false;
            }
            // The timeout only bounds how late a stop is seen: slot changes notify.
            st = self
                .gate
                .turn_over
                .wait_timeout(st, Duration::from_millis(20))
                .unwrap()
                .0;
        };
        // Out of the queue under the same lock (the drop then finds nothing to take out);
        // the next in line may find a slot free as well.
        st.queue.retain(|&t| t != self.number);
        self.gate.turn_over.notify_all();
        held
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let number = self.number;
        self.gate
            .state
            .lock()
            .unwrap()
            .queue
            .retain(|&t| t != number);
        self.gate.turn_over.notify_all();
    }
}

/// The slot the current thread holds, if it runs under a gate.
struct Turn {
    gate: Arc<Gate>,
    /// How long this worker keeps a slot while others wait.
    slice: Duration,
    /// How long the current turn lasts: `slice`, except for a shorter first turn.
    this_turn: Duration,
    since: Instant,
    held: bool,
}

thread_local! {
    static TURN: RefCell<Option<Turn>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread as one of the workers of `ticket`'s gate, in turns of `slice`
/// after a first turn of `first` (at most `slice`): it starts once a slot is free and
/// `ticket` is first in line (or at once if `stopped()`), and its slot is given back when it
/// returns. A short first turn lets every worker start soon, whatever the slices of those
/// ahead of it.
pub fn run_gated<R>(
    ticket: Ticket,
    first: Duration,
    slice: Duration,
    stopped: &dyn Fn() -> bool,
    work: impl FnOnce() -> R,
) -> R {
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            if let Some(turn) = TURN.with(|t| t.borrow_mut().take()) {
                if turn.held {
                    turn.gate.release();
                }
            }
        }
    }
    let gate = ticket.gate.clone();
    let held = ticket.wait(stopped);
    TURN.with(|t| {
        *t.borrow_mut() = Some(Turn {
            gate,
            slice,
            this_turn: first.min(slice),
            since: Instant::now(),
            held,
        })
    });
    let _leave = Leave;
    work()
}

/// A budget check on this thread: under a gate, once the thread's slice is over and another
/// worker waits, its slot goes to that worker and the thread waits for the next free one.
/// `stopped` tells a waiting thread that its run is over.
pub fn checkpoint(stopped: &dyn Fn() -> bool) {
    TURN.with(|t| {
        let mut t = t.borrow_mut();
        let Some(turn) = t.as_mut() else { return };
        if !turn.held || turn.since.elapsed() < turn.this_turn || !turn.gate.contended() {
            return;
        }
        turn.gate.release();
        turn.held = turn.gate.acquire(stopped);
        turn.this_turn = turn.slice;
        turn.since = Instant::now();
    });
}

/// The CPU time the calling thread has used. The workers of this module's tests measure their
/// work in it (on a loaded machine a step of wall time would count the turns other processes
/// took as work), and [`crate::Budget::child_for_cpu`] bounds passes whose outcome must not
/// depend on the machine's load.
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// Three workers on one slot: never two running at once, and each gets turns while the
    /// others are unfinished (they take turns rather than running one after the other).
    #[test]
    fn one_slot_is_shared_in_turns() {
        let gate = Gate::new(1);
        let running = AtomicUsize::new(0);
        let overlaps = AtomicUsize::new(0);
        let switches = AtomicUsize::new(0);
        let last = Mutex::new(usize::MAX);
        std::thread::scope(|s| {
            for id in 0..3 {
                let (gate, running, overlaps, switches, last) =
                    (&gate, &running, &overlaps, &switches, &last);
                s.spawn(move || {
                    let slice = Duration::from_millis(5);
                    run_gated(gate.ticket(), slice, slice, &|| false, || {
                        // 60 ms of this thread's CPU time: more than ten slices of 5 ms.
                        let end = thread_cpu() + Duration::from_millis(60);
                        while thread_cpu() < end {
                            if running.fetch_add(1, Ordering::SeqCst) > 0 {
                                overlaps.fetch_add(1, Ordering::SeqCst);
                            }
                            let mut l = last.lock().unwrap();
                            if *l != id {
                                switches.fetch_add(1, Ordering::SeqCst);
                                *l = id;
                            }
                            drop(l);
                            running.fetch_sub(1, Ordering::SeqCst);
                            checkpoint(&|| false);
                        }
                    })
                });
            }
        });
        assert_eq!(overlaps.load(Ordering::SeqCst), 0);
        assert!(
            switches.load(Ordering::SeqCst) > 3,
            "the workers alternated only {} times",
            switches.load(Ordering::SeqCst)
        );
    }

    /// Two workers on one slot, slices of 40 ms and 10 ms: the one with the longer slice gets
    /// the larger share of the slot (4:1 by construction; asserted loosely, above 2:1).
    #[test]
    fn a_longer_slice_gets_a_larger_share() {
        let gate = Gate::new(1);
        let stop = AtomicBool::new(false);
        let held = [AtomicUsize::new(0), AtomicUsize::new(0)];
        std::thread::scope(|s| {
            for (id, slice) in [(0, 40), (1, 10)] {
                let (gate, stop, held) = (&gate, &stop, &held);
                s.spawn(move || {
                    let stopped = || stop.load(Ordering::SeqCst);
                    let slice = Duration::from_millis(slice);
                    run_gated(gate.ticket(), slice, slice, &stopped, || {
                        // Busy steps of 1 ms of this thread's own CPU time, counted while
                        // this worker holds the slot.
                        while !stopped() {
                            let end = thread_cpu() + Duration::from_millis(1);
                            while thread_cpu() < end && !stopped() {}
                            held[id].fetch_add(1, Ordering::SeqCst);
                            checkpoint(&stopped);
                        }
                    })
                });
            }
            std::thread::sleep(Duration::from_millis(600));
            stop.store(true, Ordering::SeqCst);
        });
        let (long, short) = (
            held[0].load(Ordering::SeqCst),
            held[1].load(Ordering::SeqCst),
        );
        assert!(short > 0, "the short-slice worker never ran");
        assert!(long > 2 * short, "shares {long}:{short}");
    }

    /// Tickets taken in one order are served in that order, whichever thread asks first,
    /// and a ticket dropped unused does not hold up the ones behind it.
    #[test]
    fn workers_start_in_the_order_of_their_tickets() {
        let gate = Gate::new(1);
        let order = Mutex::new(Vec::new());
        let tickets: Vec<Ticket> = (0..4).map(|_| gate.ticket()).collect();
        std::thread::scope(|s| {
            for (id, ticket) in tickets.into_iter().enumerate().rev() {
                let order = &order;
                if id == 1 {
                    drop(ticket);
                    continue;
                }
                s.spawn(move || {
                    let second = Duration::from_secs(1);
                    run_gated(ticket, second, second, &|| false, || {
                        order.lock().unwrap().push(id)
                    })
                });
                // The later tickets' threads ask for the slot first.
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        assert_eq!(*order.lock().unwrap(), [0, 2, 3]);
    }

    /// A worker whose slice is an hour but whose first turn is 5 ms lets the worker queued
    /// behind it run while it is still busy, and gets the slot back after that one's turn.
    #[test]
    fn a_short_first_turn_lets_the_next_worker_start() {
        let gate = Gate::new(1);
        let hour = Duration::from_secs(3600);
        let ms = Duration::from_millis(5);
        let second_ran = AtomicBool::new(false);
        let first_resumed = AtomicBool::new(false);
        let (first, second) = (gate.ticket(), gate.ticket());
        std::thread::scope(|s| {
            let (second_ran, first_resumed) = (&second_ran, &first_resumed);
            s.spawn(move || {
                run_gated(first, ms, hour, &|| false, || {
                    // Bounded, so that a first turn as long as the slice fails, not hangs.
                    let end = Instant::now() + Duration::from_secs(2);
                    while !second_ran.load(Ordering::SeqCst) && Instant::now() < end {
                        checkpoint(&|| false);
                    }
                    first_resumed.store(second_ran.load(Ordering::SeqCst), Ordering::SeqCst);
                })
            });
            s.spawn(move || {
                run_gated(second, ms, ms, &|| false, || {
                    second_ran.store(true, Ordering::SeqCst);
                })
            });
        });
        assert!(first_resumed.load(Ordering::SeqCst));
    }

    #[test]
    fn a_stopped_worker_does_not_wait_for_a_slot() {
        let gate = Gate::new(1);
        let hour = Duration::from_secs(3600);
        std::thread::scope(|s| {
            let g = &gate;
            // The first worker holds the only slot until the second has given up.
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            s.spawn(move || run_gated(g.ticket(), hour, hour, &|| false, || rx.recv().unwrap()));
            std::thread::sleep(Duration::from_millis(20));
            let ran = run_gated(g.ticket(), hour, hour, &|| true, || 7);
            assert_eq!(ran, 7);
            tx.send(()).unwrap();
        });
        // Both left: the slot is free again.
        assert!(gate.acquire(&|| false));
    }
}
