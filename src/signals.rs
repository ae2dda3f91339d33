//! SIGINT/SIGTERM handling: the signals stop the run's budget, so engines return `unknown`
//! and the normal output path prints it.
//!
//! The signals are blocked in every thread and received by one thread in `sigwait`, which is
//! free to run ordinary code (a handler could only set an atomic flag).
//!
//! Layer: plumbing; imports only [`crate::budget`] and [`crate::log`].

use crate::Budget;

/// Blocks SIGINT and SIGTERM in this thread (and the threads it spawns later) and starts a
/// thread that stops `budget` when one arrives. Call before spawning worker threads.
pub fn stop_on_signals(budget: &Budget) {
    // SAFETY: plain libc signal-mask calls on a locally owned, initialised sigset_t.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        set
    };
    let budget = budget.clone();
    std::thread::spawn(move || {
        let mut sig: libc::c_int = 0;
        // SAFETY: `set` is a valid signal set; sigwait writes the signal number into `sig`.
        if unsafe { libc::sigwait(&set, &mut sig) } == 0 {
            crate::log::info(1, format_args!("signal {sig}: stopping"));
            budget.stop();
        }
    });
}
